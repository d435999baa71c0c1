/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/mutex.h> for userspace builds of driver/core: a pthread mutex
 * that knows its owner and its lock class, so that lockdep_assert_held()
 * is a real check and every lock taken is checked against the order
 * learned so far (<linux/lockdep.h>, libruntime/inproc/kh_os_mutex.c).
 */
#ifndef KH_OS_LINUX_MUTEX_H
#define KH_OS_LINUX_MUTEX_H

#include <pthread.h>

#include <linux/types.h>
#include <linux/lockdep.h>

struct mutex {
	pthread_mutex_t m;
	pthread_t owner;	/* while held */
	int held;
	unsigned int cls;	/* its class's number, key->id - 1 */
	struct lock_class_key *key;
	const char *name;	/* its class's, for messages */
};

/* does the calling thread hold it */
static inline bool kh_os_mutex_is_mine(const struct mutex *m)
{
	return __atomic_load_n(&m->held, __ATOMIC_RELAXED) &&
	       pthread_equal(__atomic_load_n(&m->owner, __ATOMIC_RELAXED),
			     pthread_self());
}

void kh_os_mutex_init(struct mutex *m, const char *name,
		      struct lock_class_key *key);
void kh_os_mutex_destroy(struct mutex *m, const char *file, int line);
void kh_os_mutex_lock(struct mutex *m, const char *file, int line);
void kh_os_mutex_unlock(struct mutex *m, const char *file, int line);

#define KH_OS_STR2(x)	#x
#define KH_OS_STR(x)	KH_OS_STR2(x)

/* one lock class per call site, named by the lock and the site */
#define mutex_init(mutex)						\
	do {								\
		static struct lock_class_key __key;			\
									\
		kh_os_mutex_init((mutex), #mutex " (" __FILE__ ":"	\
				 KH_OS_STR(__LINE__) ")", &__key);	\
	} while (0)

#define mutex_destroy(m)	kh_os_mutex_destroy((m), __FILE__, __LINE__)
#define mutex_lock(m)		kh_os_mutex_lock((m), __FILE__, __LINE__)
#define mutex_unlock(m)		kh_os_mutex_unlock((m), __FILE__, __LINE__)

#endif /* KH_OS_LINUX_MUTEX_H */
