/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/lockdep.h> for userspace builds of driver/core: lock classes and
 * the assertions, checked for real (libruntime/inproc/kh_os_mutex.c).
 *
 * As in the kernel, a lock's class is where it was initialised (the static
 * key mutex_init() makes per call site) unless lockdep_set_class() gives it
 * another, and the order of classes is learned as the program runs: each
 * lock taken while others are held records "held before taken".  Taking a
 * lock whose class would close a cycle of those (an AB-BA, or longer)
 * aborts at once, naming both and the places where the other order was
 * first seen, the first time it happens, whether or not it would have
 * deadlocked this time; so does taking a second lock of a class already
 * held, asserting a lock this thread does not hold, or unlocking one.
 */
#ifndef KH_OS_LINUX_LOCKDEP_H
#define KH_OS_LINUX_LOCKDEP_H

#include <linux/types.h>
#include <linux/bug.h>

/* a lock class: numbered when a lock of it is first initialised */
struct lock_class_key {
	unsigned int id;
};

struct mutex;

void kh_os_lockdep_set_class(struct mutex *m, struct lock_class_key *key,
			     const char *name);

/* kh_os_mutex_is_mine() is <linux/mutex.h>'s */
#define lockdep_assert_held(m)						\
	do {								\
		if (!kh_os_mutex_is_mine(m))				\
			kh_os_bug(__FILE__, __LINE__,			\
				  "lockdep_assert_held(%s): this thread does not hold it", \
				  #m);					\
	} while (0)

#define lockdep_set_class(m, key)	kh_os_lockdep_set_class((m), (key), #key)

#endif /* KH_OS_LINUX_LOCKDEP_H */
