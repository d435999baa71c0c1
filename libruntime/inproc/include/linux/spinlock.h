/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/spinlock.h> for userspace builds of driver/core: a spinlock is a
 * pthread mutex (no interrupt context to keep out), outside the lock-order
 * checking of <linux/mutex.h>.  Like the kernel's it needs no destroy.
 */
#ifndef KH_OS_LINUX_SPINLOCK_H
#define KH_OS_LINUX_SPINLOCK_H

#include <pthread.h>

typedef struct spinlock {
	pthread_mutex_t m;
} spinlock_t;

static inline void spin_lock_init(spinlock_t *l)
{
	pthread_mutex_init(&l->m, NULL);
}

static inline void spin_lock(spinlock_t *l)
{
	pthread_mutex_lock(&l->m);
}

static inline void spin_unlock(spinlock_t *l)
{
	pthread_mutex_unlock(&l->m);
}

#endif /* KH_OS_LINUX_SPINLOCK_H */
