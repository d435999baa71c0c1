// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * driver/core's OS shim in userspace (kh_os.h): locks that check their own
 * use, condition-variable waits, and the engine's worker thread.
 *
 * Every struct mutex knows its owner and its class (enum kh_lock_class), and
 * each thread knows the classes it holds, so lockdep_assert_held() is a
 * real check and taking locks out of the documented order aborts at once,
 * naming both, instead of deadlocking one run in a thousand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <time.h>

#include "kh_os.h"

/* ---- waits ---- */

void kh_waitq_init(struct kh_waitq *q)
{
	pthread_condattr_t a;

	pthread_mutex_init(&q->lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&q->cond, &a);
	pthread_condattr_destroy(&a);
}

void kh_waitq_destroy(struct kh_waitq *q)
{
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}

void kh_waitq_wake(struct kh_waitq *q)
{
	pthread_mutex_lock(&q->lock);
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void kh_waitq_deadline(struct timespec *ts, u64 timeout_ns)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	/* far enough is forever: keep tv_sec from overflowing */
	if (timeout_ns > 1000000000ULL * 86400 * 365)
		timeout_ns = 1000000000ULL * 86400 * 365;
	ts->tv_sec += timeout_ns / 1000000000ULL;
	ts->tv_nsec += timeout_ns % 1000000000ULL;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* ---- the worker ---- */

static void *kh_worker_thread(void *arg)
{
	struct kh_worker *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while ((!w->kicked || w->busy) && !w->stop)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->stop)
			break;
		/*
		 * A kick usually comes from SUBMIT, and the submitter's WAIT
		 * follows at once: let it claim the work inline first (two
		 * thread switches a job saved); if it does, its unclaim kicks
		 * again when anything is left.
		 */
		pthread_mutex_unlock(&w->lock);
		sched_yield();
		pthread_mutex_lock(&w->lock);
		if (w->busy || w->stop)
			continue;
		w->kicked = false;
		w->busy = true;
		pthread_mutex_unlock(&w->lock);
		w->fn(w);
		pthread_mutex_lock(&w->lock);
		w->busy = false;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int kh_worker_init(struct kh_worker *w, const char *name,
		   void (*fn)(struct kh_worker *w))
{
	int ret;

	(void)name;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->fn = fn;
	w->kicked = false;
	w->stop = false;
	w->busy = false;
	ret = pthread_create(&w->thread, NULL, kh_worker_thread, w);
	if (ret) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		return -ret;
	}
	w->started = true;
	return 0;
}

void kh_worker_kick(struct kh_worker *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->kicked = true;
	if (!w->busy)
		pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

bool kh_worker_claim(struct kh_worker *w)
{
	bool ok;

	pthread_mutex_lock(&w->lock);
	ok = w->started && !w->busy && !w->stop;
	if (ok) {
		w->busy = true;
		w->kicked = false;
	}
	pthread_mutex_unlock(&w->lock);
	return ok;
}

void kh_worker_unclaim(struct kh_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->busy = false;
	if (w->kicked)
		pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void kh_worker_fini(struct kh_worker *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->started = false;
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}
