/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/compiler.h> for userspace builds of driver/core: READ_ONCE() and
 * WRITE_ONCE() as relaxed atomics (what the kernel's volatile accesses
 * amount to on the machines it runs on, and what ThreadSanitizer
 * understands), likely(), unlikely(), barrier().
 */
#ifndef KH_OS_LINUX_COMPILER_H
#define KH_OS_LINUX_COMPILER_H

#include <linux/types.h>

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define barrier()		__asm__ __volatile__("" : : : "memory")

#endif /* KH_OS_LINUX_COMPILER_H */
