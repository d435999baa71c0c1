/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/atomic.h> for userspace builds of driver/core: atomic_t on the
 * compiler's atomics.  Every operation is sequentially consistent, which
 * is at least what the kernel promises for each (atomic_read(),
 * atomic_set() and atomic_inc() unordered, atomic_xchg() and
 * atomic_cmpxchg() fully ordered, the _acquire and _release forms what
 * they say) and what ThreadSanitizer and the C11 model see: a pattern the
 * kernel orders with smp_mb__before_atomic() and smp_mb__after_atomic()
 * around atomic_inc() is ordered by the operations themselves here, and
 * those two are compiler barriers (a fence would be lost on
 * ThreadSanitizer, which does not model fences).
 */
#ifndef KH_OS_LINUX_ATOMIC_H
#define KH_OS_LINUX_ATOMIC_H

#include <linux/types.h>
#include <asm/barrier.h>

typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i)		{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_SEQ_CST);
}

#define atomic_read_acquire(v)	atomic_read(v)

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_SEQ_CST);
}

#define atomic_set_release(v, i)	atomic_set(v, i)

static inline void atomic_inc(atomic_t *v)
{
	__atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

/* the read-modify-write is a full barrier itself here (above) */
#define smp_mb__before_atomic()	barrier()
#define smp_mb__after_atomic()	barrier()

static inline int atomic_xchg(atomic_t *v, int i)
{
	return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST);
}

/* the old value; @new stored only if it was @old */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

#endif /* KH_OS_LINUX_ATOMIC_H */
