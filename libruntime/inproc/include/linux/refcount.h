/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/refcount.h> for userspace builds of driver/core: an atomic count
 * with the kernel's orderings, and its checks made fatal: an increment
 * from zero (a use after the last put) or a decrement below zero aborts,
 * where the kernel would warn and saturate.
 */
#ifndef KH_OS_LINUX_REFCOUNT_H
#define KH_OS_LINUX_REFCOUNT_H

#include <linux/types.h>
#include <linux/bug.h>

typedef struct refcount_struct {
	unsigned int refs;
} refcount_t;

static inline void refcount_set(refcount_t *r, unsigned int n)
{
	__atomic_store_n(&r->refs, n, __ATOMIC_RELAXED);
}

static inline unsigned int refcount_read(const refcount_t *r)
{
	return __atomic_load_n(&r->refs, __ATOMIC_RELAXED);
}

#define refcount_inc(r)							\
	do {								\
		if (!__atomic_fetch_add(&(r)->refs, 1, __ATOMIC_RELAXED)) \
			kh_os_bug(__FILE__, __LINE__,			\
				  "refcount_inc(%s) from 0: use after free", #r); \
	} while (0)

/* true when this put dropped the last reference */
#define refcount_dec_and_test(r)					\
	({								\
		unsigned int __old = __atomic_fetch_sub(&(r)->refs, 1,	\
							__ATOMIC_ACQ_REL); \
		if (!__old)						\
			kh_os_bug(__FILE__, __LINE__,			\
				  "refcount_dec_and_test(%s) below 0", #r); \
		__old == 1;						\
	})

#endif /* KH_OS_LINUX_REFCOUNT_H */
