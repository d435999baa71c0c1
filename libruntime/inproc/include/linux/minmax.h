/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* <linux/minmax.h> for userspace builds of driver/core: min_t() and max_t(). */
#ifndef KH_OS_LINUX_MINMAX_H
#define KH_OS_LINUX_MINMAX_H

#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b)	((type)(a) > (type)(b) ? (type)(a) : (type)(b))

#endif /* KH_OS_LINUX_MINMAX_H */
