/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/overflow.h> for userspace builds of driver/core: the checked
 * arithmetic on the compilers' builtins, as the kernel's is.
 */
#ifndef KH_OS_LINUX_OVERFLOW_H
#define KH_OS_LINUX_OVERFLOW_H

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

#endif /* KH_OS_LINUX_OVERFLOW_H */
