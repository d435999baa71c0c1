/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* <linux/string.h> for userspace builds of driver/core: the C library's memcpy(), memset(), ... */
#ifndef KH_OS_LINUX_STRING_H
#define KH_OS_LINUX_STRING_H

#include_next <linux/string.h>
#include <string.h>

#endif /* KH_OS_LINUX_STRING_H */
