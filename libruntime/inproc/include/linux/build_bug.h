/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/build_bug.h> for userspace builds of driver/core: a condition
 * the compiler checks, as the kernel's (C11 _Static_assert, which is
 * valid where a statement is).
 */
#ifndef KH_OS_LINUX_BUILD_BUG_H
#define KH_OS_LINUX_BUILD_BUG_H

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#endif /* KH_OS_LINUX_BUILD_BUG_H */
