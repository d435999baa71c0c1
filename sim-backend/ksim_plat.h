/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The device model's platform shim: the only place the model touches its
 * host.  The model is built into libkohaku (userspace) and into
 * kohaku_sim.ko (kernel), so it uses integer types, memory allocation,
 * string/memory helpers, 64-bit division, a sleeping lock and logging from
 * here and nothing else.
 *
 * The model itself takes no lock (a card is driven by one caller at a
 * time); the lock is for the adapter that hosts share (ksim_hw.c).
 */
#ifndef KSIM_PLAT_H
#define KSIM_PLAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <asm/barrier.h>
#include <asm/byteorder.h>

static inline void *ksim_plat_zalloc(size_t n)
{
	return kvzalloc(n, GFP_KERNEL);
}

static inline void ksim_plat_free(void *p)
{
	kvfree(p);
}

/* A 32-bit kernel has no libgcc: u64 by a variable goes through div_u64_rem. */
static inline u64 ksim_plat_div_u64_rem(u64 dividend, u32 divisor, u32 *rem)
{
	return div_u64_rem(dividend, divisor, rem);
}

/*
 * A sleeping lock: the model allocates with kvzalloc under it, so a
 * spinlock won't do.  Every card's lock shares one lockdep class (one
 * mutex_init site); no two are ever held together.
 */
struct ksim_plat_mutex {
	struct mutex mutex;
};

static inline void ksim_plat_mutex_init(struct ksim_plat_mutex *l)
{
	mutex_init(&l->mutex);
}

static inline void ksim_plat_mutex_lock(struct ksim_plat_mutex *l)
{
	mutex_lock(&l->mutex);
}

static inline void ksim_plat_mutex_unlock(struct ksim_plat_mutex *l)
{
	mutex_unlock(&l->mutex);
}

static inline void ksim_plat_mutex_destroy(struct ksim_plat_mutex *l)
{
	mutex_destroy(&l->mutex);
}

#define ksim_plat_log(fmt, ...)	pr_info("kohaku_sim: " fmt, ##__VA_ARGS__)

/*
 * A little-endian 32-bit word stored to host memory whole, after the
 * model's stores before it (a release), for a host that polls the word
 * from another CPU (the XDMA write-back).  @p is 4-byte aligned.
 */
static inline void ksim_plat_store_le32(void *p, u32 v)
{
	smp_store_release((__le32 *)p, cpu_to_le32(v));
}

#else /* userspace */
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <pthread.h>

/* the kernel's type names, so that printk formats are the same */
#include "kh_ktypes.h"

static inline void *ksim_plat_zalloc(size_t n)
{
	return calloc(1, n ? n : 1);
}

static inline void ksim_plat_free(void *p)
{
	free(p);
}

static inline u64 ksim_plat_div_u64_rem(u64 dividend, u32 divisor, u32 *rem)
{
	*rem = (u32)(dividend % divisor);
	return dividend / divisor;
}

struct ksim_plat_mutex {
	pthread_mutex_t mutex;
};

/*
 * pthread_mutex_init cannot fail for a default mutex on Linux (glibc and
 * musl both return 0), so the helpers return nothing, like the kernel's.
 */
static inline void ksim_plat_mutex_init(struct ksim_plat_mutex *l)
{
	pthread_mutex_init(&l->mutex, NULL);
}

static inline void ksim_plat_mutex_lock(struct ksim_plat_mutex *l)
{
	pthread_mutex_lock(&l->mutex);
}

static inline void ksim_plat_mutex_unlock(struct ksim_plat_mutex *l)
{
	pthread_mutex_unlock(&l->mutex);
}

static inline void ksim_plat_mutex_destroy(struct ksim_plat_mutex *l)
{
	pthread_mutex_destroy(&l->mutex);
}

/* the kernel has it (compiler_attributes.h); userspace gets the same */
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

/*
 * A little-endian 32-bit word stored to host memory whole, after the
 * model's stores before it (a release), for a host that polls the word
 * from another thread (the XDMA write-back; the driver's READ_ONCE()).
 * @p is 4-byte aligned.
 */
static inline void ksim_plat_store_le32(void *p, u32 v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	__atomic_store_n((u32 *)p, v, __ATOMIC_RELEASE);
}

/* Model diagnostics go to stderr when KOHAKU_SIM_LOG is set. */
__printf(1, 2) void ksim_plat_log(const char *fmt, ...);

#endif /* __KERNEL__ */

#endif /* KSIM_PLAT_H */
