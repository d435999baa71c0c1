/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* <linux/container_of.h> for userspace builds of driver/core. */
#ifndef KH_OS_LINUX_CONTAINER_OF_H
#define KH_OS_LINUX_CONTAINER_OF_H

#include <linux/stddef.h>

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#endif /* KH_OS_LINUX_CONTAINER_OF_H */
