// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's dma_fence and drm_syncobj for the userspace builds of
 * driver/core (<linux/dma-fence.h>, <drm/drm_syncobj.h> in
 * libruntime/inproc/include/), and the in-process host's syncobj ioctls
 * and sync_file export on top (kh_os_fence.h): dma_fence, drm_syncobj and
 * sync_file semantics in one process.
 *
 * One lock covers every fence of the process, and one condition variable
 * is broadcast on every signal, so a wait on many fences is a loop over
 * flags.  Callbacks run with that lock held, as dma_fence callbacks run
 * under the fence's lock: once dma_fence_remove_callback() returns, the
 * callback is not running.  A fence exported as a file descriptor owns an
 * eventfd that becomes readable when it signals; the caller gets a dup of
 * it, so closing theirs never touches ours.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/eventfd.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <kh_os_caller.h>

#include "kh_os_fence.h"

static pthread_mutex_t kh_os_fence_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t kh_os_fence_cond;
static pthread_once_t kh_os_fence_once = PTHREAD_ONCE_INIT;
static u64 kh_os_fence_next_context = 1;

static void kh_os_fence_init_cond(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&kh_os_fence_cond, &a);
	pthread_condattr_destroy(&a);
}

/* under kh_os_fence_lock */
static bool kh_os_fence_done(const struct dma_fence *f)
{
	return f->flags & (1UL << DMA_FENCE_FLAG_SIGNALED_BIT);
}

u64 kh_os_fence_context_alloc(unsigned int num)
{
	return __atomic_fetch_add(&kh_os_fence_next_context, num, __ATOMIC_RELAXED);
}

void kh_os_fence_init(struct dma_fence *f, const struct dma_fence_ops *ops,
		      spinlock_t *lock, u64 context, u64 seqno)
{
	pthread_once(&kh_os_fence_once, kh_os_fence_init_cond);
	f->lock = lock;
	f->ops = ops;
	INIT_LIST_HEAD(&f->cb_list);
	f->context = context;
	f->seqno = seqno;
	f->flags = 0;
	refcount_set(&f->refcount, 1);
	f->error = 0;
	f->efd = -1;
}

void kh_os_fence_release(struct dma_fence *f)
{
	if (f->efd >= 0)
		close(f->efd);
	if (f->ops && f->ops->release)
		f->ops->release(f);
	else
		free(f);
}

static void kh_os_fence_notify_fd(int efd)
{
	u64 one = 1;
	ssize_t n;

	/* one write to a fresh eventfd cannot block or overflow */
	n = write(efd, &one, sizeof(one));
	(void)n;
}

int kh_os_fence_signal(struct dma_fence *f)
{
	struct dma_fence_cb *cb, *next;
	struct list_head cbs;

	pthread_mutex_lock(&kh_os_fence_lock);
	if (kh_os_fence_done(f)) {
		pthread_mutex_unlock(&kh_os_fence_lock);
		return -EINVAL;
	}
	/* written under the lock only: a store, read unlocked by set_error */
	__atomic_store_n(&f->flags, f->flags | 1UL << DMA_FENCE_FLAG_SIGNALED_BIT,
			 __ATOMIC_RELEASE);
	if (f->efd >= 0)
		kh_os_fence_notify_fd(f->efd);
	/* as the kernel: the list taken whole, each entry reset before its call */
	INIT_LIST_HEAD(&cbs);
	if (!list_empty(&f->cb_list)) {
		cbs.next = f->cb_list.next;
		cbs.prev = f->cb_list.prev;
		cbs.next->prev = &cbs;
		cbs.prev->next = &cbs;
		INIT_LIST_HEAD(&f->cb_list);
	}
	list_for_each_entry_safe(cb, next, &cbs, node) {
		INIT_LIST_HEAD(&cb->node);
		cb->func(f, cb);
	}
	pthread_cond_broadcast(&kh_os_fence_cond);
	pthread_mutex_unlock(&kh_os_fence_lock);
	return 0;
}

bool kh_os_fence_is_signaled(struct dma_fence *f)
{
	bool s;

	pthread_mutex_lock(&kh_os_fence_lock);
	s = kh_os_fence_done(f);
	pthread_mutex_unlock(&kh_os_fence_lock);
	return s;
}

int kh_os_fence_get_status(struct dma_fence *f)
{
	int s;

	pthread_mutex_lock(&kh_os_fence_lock);
	s = !kh_os_fence_done(f) ? 0 : f->error ? f->error : 1;
	pthread_mutex_unlock(&kh_os_fence_lock);
	return s;
}

int kh_os_fence_add_callback(struct dma_fence *f, struct dma_fence_cb *cb,
			     dma_fence_func_t func)
{
	int ret = 0;

	pthread_mutex_lock(&kh_os_fence_lock);
	if (kh_os_fence_done(f)) {
		INIT_LIST_HEAD(&cb->node);
		ret = -ENOENT;
	} else {
		cb->func = func;
		list_add_tail(&cb->node, &f->cb_list);
	}
	pthread_mutex_unlock(&kh_os_fence_lock);
	return ret;
}

bool kh_os_fence_remove_callback(struct dma_fence *f, struct dma_fence_cb *cb)
{
	bool pending;

	pthread_mutex_lock(&kh_os_fence_lock);
	pending = !list_empty(&cb->node);
	if (pending)
		list_del_init(&cb->node);
	pthread_mutex_unlock(&kh_os_fence_lock);
	return pending;
}

/* a fence signalled already: what a syncobj created or set signalled holds */
static const char *kh_os_stub_name(struct dma_fence *f)
{
	return "stub";
}

static const struct dma_fence_ops kh_os_stub_ops = {
	.get_driver_name = kh_os_stub_name,
	.get_timeline_name = kh_os_stub_name,
};

static struct dma_fence *kh_os_fence_stub(void)
{
	struct dma_fence *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	kh_os_fence_init(f, &kh_os_stub_ops, NULL, 0, 0);
	kh_os_fence_signal(f);
	return f;
}

/* ---- syncobjs ---- */

void kh_os_file_init(struct drm_file *file)
{
	spin_lock_init(&file->syncobj_table_lock);
	xa_init_flags(&file->syncobj_xa, XA_FLAGS_ALLOC1);
	file->next_syncobj_handle = 1;
}

void kh_os_file_fini(struct drm_file *file)
{
	struct drm_syncobj *so;
	unsigned long i;

	xa_for_each(&file->syncobj_xa, i, so) {
		xa_erase(&file->syncobj_xa, i);
		drm_syncobj_put(so);
	}
	xa_destroy(&file->syncobj_xa);
	pthread_mutex_destroy(&file->syncobj_table_lock.m);
}

void kh_os_syncobj_free(struct drm_syncobj *so)
{
	dma_fence_put(so->fence);
	free(so);
}

struct drm_syncobj *kh_os_syncobj_find(struct drm_file *file, u32 handle)
{
	struct drm_syncobj *so;

	spin_lock(&file->syncobj_table_lock);
	so = xa_load(&file->syncobj_xa, handle);
	if (so)
		drm_syncobj_get(so);
	spin_unlock(&file->syncobj_table_lock);
	return so;
}

void kh_os_syncobj_replace_fence(struct drm_syncobj *so, struct dma_fence *f)
{
	struct dma_fence *old;

	dma_fence_get(f);
	pthread_mutex_lock(&kh_os_fence_lock);
	old = so->fence;
	so->fence = f;
	pthread_cond_broadcast(&kh_os_fence_cond);
	pthread_mutex_unlock(&kh_os_fence_lock);
	dma_fence_put(old);
}

/* the fence a syncobj holds, with a reference; NULL for none */
static struct dma_fence *kh_os_syncobj_get_fence(struct drm_syncobj *so)
{
	struct dma_fence *f;

	pthread_mutex_lock(&kh_os_fence_lock);
	f = dma_fence_get(so->fence);
	pthread_mutex_unlock(&kh_os_fence_lock);
	return f;
}

/* binary syncobjs only: point and flags are 0 */
int kh_os_syncobj_find_fence(struct drm_file *file, u32 handle, u64 point,
			     u64 flags, struct dma_fence **out)
{
	struct drm_syncobj *so;

	if (point || flags)
		return -EINVAL;
	so = drm_syncobj_find(file, handle);
	if (!so)
		return -ENOENT;
	*out = kh_os_syncobj_get_fence(so);
	drm_syncobj_put(so);
	return *out ? 0 : -EINVAL;
}

int kh_os_syncobj_create(struct drm_file *file, bool signaled, u32 *handle)
{
	struct drm_syncobj *so = calloc(1, sizeof(*so));
	int ret;

	if (!so)
		return -ENOMEM;
	refcount_set(&so->refcount, 1);
	if (signaled) {
		so->fence = kh_os_fence_stub();
		if (!so->fence) {
			free(so);
			return -ENOMEM;
		}
	}
	spin_lock(&file->syncobj_table_lock);
	ret = xa_alloc_cyclic(&file->syncobj_xa, handle, so, XA_LIMIT(1, U32_MAX),
			      &file->next_syncobj_handle, GFP_KERNEL);
	spin_unlock(&file->syncobj_table_lock);
	if (ret < 0) {
		drm_syncobj_put(so);
		return ret;
	}
	return 0;
}

int kh_os_syncobj_destroy(struct drm_file *file, u32 handle)
{
	struct drm_syncobj *so;

	spin_lock(&file->syncobj_table_lock);
	so = xa_erase(&file->syncobj_xa, handle);
	spin_unlock(&file->syncobj_table_lock);
	if (!so)
		return -EINVAL;		/* as drm_syncobj_destroy() */
	drm_syncobj_put(so);
	return 0;
}

int kh_os_syncobj_set(struct drm_file *file, u32 handle, bool signaled)
{
	struct drm_syncobj *so = drm_syncobj_find(file, handle);
	struct dma_fence *f = NULL;

	if (!so)
		return -ENOENT;
	if (signaled) {
		f = kh_os_fence_stub();
		if (!f) {
			drm_syncobj_put(so);
			return -ENOMEM;
		}
	}
	drm_syncobj_replace_fence(so, f);
	dma_fence_put(f);
	drm_syncobj_put(so);
	return 0;
}

/*
 * Sleep on the fences' condition until the deadline ts: nonzero when it
 * has passed.  A remote caller (kohakud's) sleeps in slices of 100 ms, so
 * that its death ends the wait (<kh_os_caller.h>).
 */
static int kh_os_fence_sleep(const struct timespec *ts)
{
	struct timespec slice;

	if (!kh_os_caller)
		return pthread_cond_timedwait(&kh_os_fence_cond,
					      &kh_os_fence_lock, ts);
	clock_gettime(CLOCK_MONOTONIC, &slice);
	slice.tv_nsec += 100000000L;
	if (slice.tv_nsec >= 1000000000L) {
		slice.tv_sec++;
		slice.tv_nsec -= 1000000000L;
	}
	if (slice.tv_sec > ts->tv_sec ||
	    (slice.tv_sec == ts->tv_sec && slice.tv_nsec >= ts->tv_nsec))
		return pthread_cond_timedwait(&kh_os_fence_cond,
					      &kh_os_fence_lock, ts);
	pthread_cond_timedwait(&kh_os_fence_cond, &kh_os_fence_lock, &slice);
	return 0;
}

int kh_os_syncobj_wait(struct drm_file *file, const u32 *handles,
		       unsigned int n, s64 deadline_ns, bool all,
		       bool for_submit, u32 *first)
{
	struct drm_syncobj **so;
	struct timespec ts;
	unsigned int i, done;
	int ret = 0;

	so = calloc(n ? n : 1, sizeof(*so));
	if (!so)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		so[i] = drm_syncobj_find(file, handles[i]);
		if (!so[i]) {
			ret = -ENOENT;
			goto out;
		}
	}
	if (deadline_ns < 0)
		deadline_ns = 0;
	ts.tv_sec = deadline_ns / 1000000000LL;
	ts.tv_nsec = deadline_ns % 1000000000LL;
	pthread_mutex_lock(&kh_os_fence_lock);
	for (;;) {
		for (i = 0, done = 0; i < n; i++) {
			if (!so[i]->fence) {
				if (!for_submit)
					ret = -EINVAL;	/* nothing submitted on it */
				if (!for_submit)
					break;
				continue;
			}
			if (kh_os_fence_done(so[i]->fence)) {
				if (!done)
					*first = i;
				done++;
			}
		}
		if (ret || done == n || (!all && done))
			break;
		if (kh_os_signal_pending()) {
			ret = -ERESTARTSYS;	/* kohakud's client is gone */
			break;
		}
		if (kh_os_fence_sleep(&ts)) {
			ret = -ETIME;
			break;
		}
	}
	pthread_mutex_unlock(&kh_os_fence_lock);
out:
	for (i = 0; i < n; i++)
		if (so[i])
			drm_syncobj_put(so[i]);
	free(so);
	return ret;
}

int kh_os_syncobj_export_fd(struct drm_file *file, u32 handle, int *fd)
{
	struct drm_syncobj *so = drm_syncobj_find(file, handle);
	struct dma_fence *f;
	int ret = 0;

	if (!so)
		return -ENOENT;
	f = kh_os_syncobj_get_fence(so);
	drm_syncobj_put(so);
	if (!f)
		return -EINVAL;
	pthread_mutex_lock(&kh_os_fence_lock);
	if (f->efd < 0) {
		f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (f->efd < 0)
			ret = -errno;
		else if (kh_os_fence_done(f))
			kh_os_fence_notify_fd(f->efd);
	}
	if (!ret) {
		*fd = fcntl(f->efd, F_DUPFD_CLOEXEC, 0);
		if (*fd < 0)
			ret = -errno;
	}
	pthread_mutex_unlock(&kh_os_fence_lock);
	dma_fence_put(f);
	return ret;
}
