/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/workqueue.h> for userspace builds of driver/core: a workqueue is
 * a thread that runs the work queued on it, one item at a time; a work
 * item queued while it runs runs once more after (as the kernel's: never
 * twice at once, never a kick lost).  libruntime/inproc/kh_os_workqueue.c.
 */
#ifndef KH_OS_LINUX_WORKQUEUE_H
#define KH_OS_LINUX_WORKQUEUE_H

#include <linux/types.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t func;
	/* the in-process host's, under the workqueue's lock */
	struct workqueue_struct *wq;	/* where it was last queued or claimed */
	struct work_struct *next;	/* in its workqueue's queue */
	bool pending;			/* queued, not started */
	bool running;			/* run by the thread */
	u64 due;			/* CLOCK_MONOTONIC ns it may start; 0: now */
};

/* a work item that starts after a delay (the kernel's timer is the thread's wait) */
struct delayed_work {
	struct work_struct work;
};

#define WQ_HIGHPRI		(1 << 4)
#define WORK_BUSY_PENDING	(1 << 0)
#define WORK_BUSY_RUNNING	(1 << 1)

static inline void INIT_WORK(struct work_struct *w, work_func_t func)
{
	w->func = func;
	w->wq = NULL;
	w->next = NULL;
	w->pending = false;
	w->running = false;
	w->due = 0;
}

#define INIT_DELAYED_WORK(dw, func)	INIT_WORK(&(dw)->work, (func))

__printf(1, 4) struct workqueue_struct *
kh_os_alloc_workqueue(const char *fmt, unsigned int flags, int max_active, ...);
void kh_os_destroy_workqueue(struct workqueue_struct *wq);
bool kh_os_queue_work(struct workqueue_struct *wq, struct work_struct *w);
bool kh_os_cancel_work_sync(struct work_struct *w);
unsigned int kh_os_work_busy(struct work_struct *w);
bool kh_os_mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dw,
			    unsigned long delay);

#define alloc_workqueue(fmt, flags, max_active, ...)			\
	kh_os_alloc_workqueue(fmt, flags, max_active, ##__VA_ARGS__)
#define destroy_workqueue(wq)	kh_os_destroy_workqueue(wq)
#define queue_work(wq, w)	kh_os_queue_work(wq, w)
#define cancel_work_sync(w)	kh_os_cancel_work_sync(w)
#define work_busy(w)		kh_os_work_busy(w)
/* the shim's jiffy is a nanosecond (<linux/jiffies.h>) */
#define mod_delayed_work(wq, dw, delay)	kh_os_mod_delayed_work(wq, dw, delay)
#define cancel_delayed_work_sync(dw)	kh_os_cancel_work_sync(&(dw)->work)

#endif /* KH_OS_LINUX_WORKQUEUE_H */
