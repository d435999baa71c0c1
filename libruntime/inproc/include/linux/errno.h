/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/errno.h> for userspace builds of driver/core: the system's error
 * numbers (glibc's <errno.h> includes this header too), and the kernel's
 * own that userspace never sees.
 */
#ifndef KH_OS_LINUX_ERRNO_H
#define KH_OS_LINUX_ERRNO_H

#include_next <linux/errno.h>

#define ERESTARTSYS	512
#define ENOTSUPP	524

#endif /* KH_OS_LINUX_ERRNO_H */
