// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's workqueues for the userspace builds of driver/core
 * (<linux/workqueue.h> in libruntime/inproc/include/), and the in-process
 * host's inline stepping (kh_work_claim(), driver/core/kh_os.h).
 *
 * A workqueue is one thread running the items queued on it in turn.  An
 * item is pending (queued, not started) and/or running; queued while it
 * runs, it runs again after, as the kernel's.  Before it runs an item the
 * thread yields once: the work is usually queued by SUBMIT, whose WAIT
 * follows at once and may claim the item and run it inline (two thread
 * switches a job saved); the thread then finds it taken and waits for the
 * next kick, which kh_work_unclaim() hands back if one came meanwhile.
 */
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>

#include <linux/workqueue.h>
#include "kh_os.h"

struct workqueue_struct {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t kick;		/* an item was queued, or stop */
	pthread_cond_t done;		/* an item stopped running */
	struct work_struct *head, **tail;	/* the pending items */
	bool stop;
};

/* the first pending item that is not running; under wq->lock */
static struct work_struct *kh_os_wq_next(struct workqueue_struct *wq)
{
	struct work_struct *w;

	for (w = wq->head; w; w = w->next)
		if (!w->running)
			return w;
	return NULL;
}

/* off the pending queue; under wq->lock */
static void kh_os_wq_unqueue(struct workqueue_struct *wq, struct work_struct *w)
{
	struct work_struct **p;

	for (p = &wq->head; *p; p = &(*p)->next) {
		if (*p == w) {
			*p = w->next;
			if (wq->tail == &w->next)
				wq->tail = p;
			break;
		}
	}
	w->next = NULL;
	w->pending = false;
}

static void *kh_os_wq_thread(void *arg)
{
	struct workqueue_struct *wq = arg;
	struct work_struct *w;

	pthread_mutex_lock(&wq->lock);
	for (;;) {
		while (!(w = kh_os_wq_next(wq)) && !wq->stop)
			pthread_cond_wait(&wq->kick, &wq->lock);
		if (!w)
			break;		/* stopped, and nothing left to run */
		/* a waiter may claim it meanwhile: see the file's comment */
		pthread_mutex_unlock(&wq->lock);
		sched_yield();
		pthread_mutex_lock(&wq->lock);
		if (!w->pending || w->running)
			continue;
		kh_os_wq_unqueue(wq, w);
		w->running = true;
		pthread_mutex_unlock(&wq->lock);
		w->func(w);
		pthread_mutex_lock(&wq->lock);
		w->running = false;
		pthread_cond_broadcast(&wq->done);
	}
	pthread_mutex_unlock(&wq->lock);
	return NULL;
}

struct workqueue_struct *kh_os_alloc_workqueue(const char *fmt,
					       unsigned int flags,
					       int max_active, ...)
{
	struct workqueue_struct *wq = calloc(1, sizeof(*wq));

	if (!wq)
		return NULL;
	pthread_mutex_init(&wq->lock, NULL);
	pthread_cond_init(&wq->kick, NULL);
	pthread_cond_init(&wq->done, NULL);
	wq->tail = &wq->head;
	if (pthread_create(&wq->thread, NULL, kh_os_wq_thread, wq)) {
		pthread_cond_destroy(&wq->done);
		pthread_cond_destroy(&wq->kick);
		pthread_mutex_destroy(&wq->lock);
		free(wq);
		return NULL;
	}
	return wq;
}

/* Runs what is still pending, then the thread ends (the kernel drains too). */
void kh_os_destroy_workqueue(struct workqueue_struct *wq)
{
	pthread_mutex_lock(&wq->lock);
	wq->stop = true;
	pthread_cond_signal(&wq->kick);
	pthread_mutex_unlock(&wq->lock);
	pthread_join(wq->thread, NULL);
	pthread_cond_destroy(&wq->done);
	pthread_cond_destroy(&wq->kick);
	pthread_mutex_destroy(&wq->lock);
	free(wq);
}

bool kh_os_queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	bool queued = false;

	pthread_mutex_lock(&wq->lock);
	__atomic_store_n(&w->wq, wq, __ATOMIC_RELAXED);
	if (!w->pending) {
		w->pending = true;
		w->next = NULL;
		*wq->tail = w;
		wq->tail = &w->next;
		queued = true;
		if (!w->running)
			pthread_cond_signal(&wq->kick);
	}
	pthread_mutex_unlock(&wq->lock);
	return queued;
}

/* No longer pending; returns once a run in progress has ended. */
bool kh_os_cancel_work_sync(struct work_struct *w)
{
	struct workqueue_struct *wq = __atomic_load_n(&w->wq, __ATOMIC_RELAXED);
	bool was;

	if (!wq)
		return false;
	pthread_mutex_lock(&wq->lock);
	was = w->pending;
	if (was)
		kh_os_wq_unqueue(wq, w);
	while (w->running)
		pthread_cond_wait(&wq->done, &wq->lock);
	pthread_mutex_unlock(&wq->lock);
	return was;
}

unsigned int kh_os_work_busy(struct work_struct *w)
{
	struct workqueue_struct *wq = __atomic_load_n(&w->wq, __ATOMIC_RELAXED);
	unsigned int busy;

	if (!wq)
		return 0;
	pthread_mutex_lock(&wq->lock);
	busy = (w->pending ? WORK_BUSY_PENDING : 0) |
	       (w->running ? WORK_BUSY_RUNNING : 0);
	pthread_mutex_unlock(&wq->lock);
	return busy;
}

bool kh_work_claim(struct workqueue_struct *wq, struct work_struct *w)
{
	bool ok;

	pthread_mutex_lock(&wq->lock);
	ok = !w->running && !wq->stop;
	if (ok) {
		__atomic_store_n(&w->wq, wq, __ATOMIC_RELAXED);
		if (w->pending)
			kh_os_wq_unqueue(wq, w);
		w->running = true;
	}
	pthread_mutex_unlock(&wq->lock);
	return ok;
}

void kh_work_unclaim(struct workqueue_struct *wq, struct work_struct *w)
{
	pthread_mutex_lock(&wq->lock);
	w->running = false;
	if (w->pending)
		pthread_cond_signal(&wq->kick);
	pthread_cond_broadcast(&wq->done);
	pthread_mutex_unlock(&wq->lock);
}
