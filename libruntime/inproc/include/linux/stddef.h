/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* <linux/stddef.h> for userspace builds of driver/core: the system's, and offsetofend(). */
#ifndef KH_OS_LINUX_STDDEF_H
#define KH_OS_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#define sizeof_field(TYPE, MEMBER)	sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER)	(offsetof(TYPE, MEMBER) + sizeof_field(TYPE, MEMBER))

#endif /* KH_OS_LINUX_STDDEF_H */
