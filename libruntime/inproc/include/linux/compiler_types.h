/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel's annotations for userspace builds of driver/core
 * (libruntime/inproc/include/README.md).  The kernel includes its
 * compiler_types.h in every file; here <linux/types.h> does.  Address-space
 * annotations are for sparse and mean nothing to the compiler.
 */
#ifndef KH_OS_LINUX_COMPILER_TYPES_H
#define KH_OS_LINUX_COMPILER_TYPES_H

#define __user
#define __iomem
#define __force
#define __rcu
#define __must_check	__attribute__((warn_unused_result))
#define __maybe_unused	__attribute__((unused))
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

#endif /* KH_OS_LINUX_COMPILER_TYPES_H */
