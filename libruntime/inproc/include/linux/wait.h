/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/wait.h> for userspace builds of driver/core: a wait queue is a
 * condition variable on CLOCK_MONOTONIC (libruntime/inproc/kh_os_wait.c).
 * The condition is checked under the queue's own lock, and wake_up_all()
 * takes it, so a wake between the check and the sleep is not lost.  As in
 * the kernel, the condition must not sleep or take a mutex.  Nothing
 * interrupts a wait in-process: no signal is pending for the core there;
 * in kohakud a client that is gone is (<kh_os_caller.h>).
 *
 * The system's <linux/wait.h> (waitid() flags) is left out: glibc defines
 * those itself, differently spelt.
 */
#ifndef KH_OS_LINUX_WAIT_H
#define KH_OS_LINUX_WAIT_H

#include <pthread.h>
#include <time.h>

#include <linux/types.h>
#include <linux/errno.h>
#include <kh_os_caller.h>
#include <linux/jiffies.h>

struct wait_queue_head {
	pthread_mutex_t lock;
	pthread_cond_t cond;
};
typedef struct wait_queue_head wait_queue_head_t;

void kh_os_init_waitqueue_head(struct wait_queue_head *wq);
void kh_os_wake_up_all(struct wait_queue_head *wq);
/* the CLOCK_MONOTONIC time @timeout jiffies (ns) from now */
void kh_os_wait_deadline(struct timespec *ts, long timeout);
/* jiffies left until @ts, at least 1 */
long kh_os_wait_left(const struct timespec *ts);

#define init_waitqueue_head(wq)	kh_os_init_waitqueue_head(wq)
#define wake_up_all(wq)		kh_os_wake_up_all(wq)

/*
 * As the kernel's: 0 when @condition is still false after @timeout
 * jiffies, else the jiffies left (at least 1).
 */
#define wait_event_timeout(wq_head, condition, timeout)			\
	({								\
		struct timespec __ts;					\
		long __ret;						\
									\
		kh_os_wait_deadline(&__ts, (timeout));			\
		pthread_mutex_lock(&(wq_head).lock);			\
		for (;;) {						\
			if (condition) {				\
				__ret = kh_os_wait_left(&__ts);		\
				break;					\
			}						\
			if (pthread_cond_timedwait(&(wq_head).cond,	\
						   &(wq_head).lock, &__ts)) { \
				__ret = (condition) ? 1 : 0;		\
				break;					\
			}						\
		}							\
		pthread_mutex_unlock(&(wq_head).lock);			\
		__ret;							\
	})

/*
 * -ERESTARTSYS when the caller is gone (kohakud's client, <kh_os_caller.h>)
 * as the wait begins; the core's waits on a simulated card are slices, so
 * each begins again soon.  In-process never.
 */
#define wait_event_interruptible_timeout(wq_head, condition, timeout)	\
	(kh_os_signal_pending() ? (long)-ERESTARTSYS :			\
	 wait_event_timeout(wq_head, condition, timeout))

#endif /* KH_OS_LINUX_WAIT_H */
