// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's wait queues for the userspace builds of driver/core
 * (<linux/wait.h> in libruntime/inproc/include/): a mutex and a condition
 * variable on CLOCK_MONOTONIC, and the deadline arithmetic of
 * wait_event_timeout() in nanosecond jiffies.
 */
#include <time.h>

#include <linux/wait.h>

void kh_os_init_waitqueue_head(struct wait_queue_head *wq)
{
	pthread_condattr_t a;

	pthread_mutex_init(&wq->lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&wq->cond, &a);
	pthread_condattr_destroy(&a);
}

void kh_os_wake_up_all(struct wait_queue_head *wq)
{
	pthread_mutex_lock(&wq->lock);
	pthread_cond_broadcast(&wq->cond);
	pthread_mutex_unlock(&wq->lock);
}

void kh_os_wait_deadline(struct timespec *ts, long timeout)
{
	u64 ns = timeout > 0 ? (u64)timeout : 0;

	clock_gettime(CLOCK_MONOTONIC, ts);
	/* far enough is forever: keep tv_sec from overflowing */
	if (ns > 1000000000ULL * 86400 * 365)
		ns = 1000000000ULL * 86400 * 365;
	ts->tv_sec += ns / 1000000000ULL;
	ts->tv_nsec += ns % 1000000000ULL;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

long kh_os_wait_left(const struct timespec *ts)
{
	struct timespec now;
	s64 left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left = (s64)(ts->tv_sec - now.tv_sec) * 1000000000LL +
	       (ts->tv_nsec - now.tv_nsec);
	return left > 0 ? (long)left : 1;
}
