/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/kernel.h> for userspace builds of driver/core: the helpers the
 * kernel's kernel.h gathers (array_size.h, align.h, math.h, minmax.h,
 * container_of.h, limits.h, sprintf.h) that the core uses.
 */
#ifndef KH_OS_LINUX_KERNEL_H
#define KH_OS_LINUX_KERNEL_H

#include_next <linux/kernel.h>
#include <stdarg.h>
#include <stdio.h>

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/stddef.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)

/* In-process, "user" memory is the caller's own. */
#define u64_to_user_ptr(x)	((void __user *)(uintptr_t)(x))

#endif /* KH_OS_LINUX_KERNEL_H */
