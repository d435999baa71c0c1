// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's workqueues for the userspace builds of driver/core
 * (<linux/workqueue.h> in libruntime/inproc/include/).
 *
 * A workqueue is one thread running the items queued on it in turn.  An
 * item is pending (queued, not started) and/or running; queued while it
 * runs, it runs again after, as the kernel's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

#include <linux/workqueue.h>

struct workqueue_struct {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t kick;		/* an item was queued, or stop */
	pthread_cond_t done;		/* an item stopped running */
	struct work_struct *head, **tail;	/* the pending items */
	bool stop;
};

static u64 kh_os_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * The first pending item that is not running and is due; under wq->lock.
 * *wake gets the earliest due time of the items not due yet (0: none).
 */
static struct work_struct *kh_os_wq_next(struct workqueue_struct *wq, u64 *wake)
{
	struct work_struct *w;
	u64 now = 0;

	*wake = 0;
	for (w = wq->head; w; w = w->next) {
		if (w->running)
			continue;
		if (w->due) {
			if (!now)
				now = kh_os_mono_ns();
			if (w->due > now) {
				if (!*wake || w->due < *wake)
					*wake = w->due;
				continue;
			}
		}
		return w;
	}
	return NULL;
}

/* sleep until kicked, or until @wake (CLOCK_MONOTONIC ns) if not 0 */
static void kh_os_wq_sleep(struct workqueue_struct *wq, u64 wake)
{
	struct timespec ts;

	if (!wake) {
		pthread_cond_wait(&wq->kick, &wq->lock);
		return;
	}
	ts.tv_sec = wake / 1000000000ULL;
	ts.tv_nsec = wake % 1000000000ULL;
	pthread_cond_timedwait(&wq->kick, &wq->lock, &ts);
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
	u64 wake;

	pthread_mutex_lock(&wq->lock);
	for (;;) {
		while (!(w = kh_os_wq_next(wq, &wake)) && !wq->stop)
			kh_os_wq_sleep(wq, wake);
		if (!w)
			break;		/* stopped, and nothing due to run */
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
	pthread_condattr_t ca;

	if (!wq)
		return NULL;
	pthread_mutex_init(&wq->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&wq->kick, &ca);
	pthread_condattr_destroy(&ca);
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
		w->due = 0;
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

/*
 * Pending to start @delay ns from now (the shim's jiffy), whether it was
 * pending before or not, as the kernel's mod_delayed_work().
 */
bool kh_os_mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			    unsigned long delay)
{
	struct work_struct *w = &dw->work;
	bool was;

	pthread_mutex_lock(&wq->lock);
	__atomic_store_n(&w->wq, wq, __ATOMIC_RELAXED);
	was = w->pending;
	if (!was) {
		w->pending = true;
		w->next = NULL;
		*wq->tail = w;
		wq->tail = &w->next;
	}
	w->due = delay ? kh_os_mono_ns() + delay : 0;
	pthread_cond_signal(&wq->kick);
	pthread_mutex_unlock(&wq->lock);
	return was;
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
