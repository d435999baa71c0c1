/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <asm/barrier.h> for userspace builds of driver/core: the kernel's
 * ordering primitives as the compiler's atomics.  A simulated card's "DMA"
 * is the process's own memory, so the DMA barriers order the CPU's
 * accesses as the SMP ones do.
 */
#ifndef KH_OS_ASM_BARRIER_H
#define KH_OS_ASM_BARRIER_H

#include <linux/compiler.h>

#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, (v), __ATOMIC_RELEASE)
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
#define dma_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define dma_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)

#endif /* KH_OS_ASM_BARRIER_H */
