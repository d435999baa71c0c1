// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Fences and syncobjs for the in-process host (kh_os_fence.h): dma_fence,
 * drm_syncobj and sync_file semantics in one process.
 *
 * One lock covers every fence of the process, and one condition variable
 * is broadcast on every signal, so a wait on many fences is a loop over
 * flags.  Callbacks run with that lock held, as dma_fence callbacks run
 * under the fence's lock: once kh_fence_remove_callback() returns, the
 * callback is not running.  A fence exported as a file descriptor owns an
 * eventfd that becomes readable when it signals; the caller gets a dup of
 * it, so closing theirs never touches ours.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/eventfd.h>

#include "kh_os_fence.h"

struct kh_fence {
	unsigned int ref;
	u64 context, seqno;
	bool signaled;
	int error;
	struct kh_fence_cb *cbs;
	int efd;		/* -1 until exported */
};

static pthread_mutex_t kh_fence_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t kh_fence_cond;
static pthread_once_t kh_fence_once = PTHREAD_ONCE_INIT;
static u64 kh_fence_next_context = 1;

static void kh_fence_init_cond(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&kh_fence_cond, &a);
	pthread_condattr_destroy(&a);
}

u64 kh_fence_context_alloc(unsigned int n)
{
	return __atomic_fetch_add(&kh_fence_next_context, n, __ATOMIC_RELAXED);
}

struct kh_fence *kh_fence_create(u64 context, u64 seqno)
{
	struct kh_fence *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	pthread_once(&kh_fence_once, kh_fence_init_cond);
	f->ref = 1;
	f->context = context;
	f->seqno = seqno;
	f->efd = -1;
	return f;
}

static struct kh_fence *kh_fence_get(struct kh_fence *f)
{
	__atomic_add_fetch(&f->ref, 1, __ATOMIC_RELAXED);
	return f;
}

void kh_fence_put(struct kh_fence *f)
{
	if (!f || __atomic_sub_fetch(&f->ref, 1, __ATOMIC_ACQ_REL))
		return;
	if (f->efd >= 0)
		close(f->efd);
	free(f);
}

static void kh_fence_notify_fd(int efd)
{
	u64 one = 1;
	ssize_t n;

	/* one write to a fresh eventfd cannot block or overflow */
	n = write(efd, &one, sizeof(one));
	(void)n;
}

void kh_fence_signal(struct kh_fence *f, int error)
{
	struct kh_fence_cb *cb, *next;

	pthread_mutex_lock(&kh_fence_lock);
	if (f->signaled) {
		pthread_mutex_unlock(&kh_fence_lock);
		return;
	}
	f->error = error;
	f->signaled = true;
	if (f->efd >= 0)
		kh_fence_notify_fd(f->efd);
	for (cb = f->cbs, f->cbs = NULL; cb; cb = next) {
		next = cb->next;
		cb->func(cb);
	}
	pthread_cond_broadcast(&kh_fence_cond);
	pthread_mutex_unlock(&kh_fence_lock);
}

bool kh_fence_is_signaled(struct kh_fence *f)
{
	bool s;

	pthread_mutex_lock(&kh_fence_lock);
	s = f->signaled;
	pthread_mutex_unlock(&kh_fence_lock);
	return s;
}

int kh_fence_error(struct kh_fence *f)
{
	int e;

	pthread_mutex_lock(&kh_fence_lock);
	e = f->signaled ? f->error : 0;
	pthread_mutex_unlock(&kh_fence_lock);
	return e;
}

int kh_fence_add_callback(struct kh_fence *f, struct kh_fence_cb *cb,
			  void (*func)(struct kh_fence_cb *cb))
{
	int ret = 0;

	pthread_mutex_lock(&kh_fence_lock);
	if (f->signaled) {
		ret = -ENOENT;
	} else {
		cb->func = func;
		cb->next = f->cbs;
		f->cbs = cb;
	}
	pthread_mutex_unlock(&kh_fence_lock);
	return ret;
}

bool kh_fence_remove_callback(struct kh_fence *f, struct kh_fence_cb *cb)
{
	struct kh_fence_cb **p;
	bool found = false;

	pthread_mutex_lock(&kh_fence_lock);
	for (p = &f->cbs; *p; p = &(*p)->next) {
		if (*p == cb) {
			*p = cb->next;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&kh_fence_lock);
	return found;
}

/* ---- syncobjs ---- */

void kh_os_file_init(struct kh_os_file *of)
{
	pthread_mutex_init(&of->lock, NULL);
	xa_init_flags(&of->syncobjs, XA_FLAGS_ALLOC1);
	of->next_handle = 1;
}

static void kh_syncobj_unref(struct kh_syncobj *so)
{
	if (__atomic_sub_fetch(&so->ref, 1, __ATOMIC_ACQ_REL))
		return;
	kh_fence_put(so->fence);
	free(so);
}

void kh_os_file_fini(struct kh_os_file *of)
{
	struct kh_syncobj *so;
	unsigned long i;

	xa_for_each(&of->syncobjs, i, so) {
		xa_erase(&of->syncobjs, i);
		kh_syncobj_unref(so);
	}
	xa_destroy(&of->syncobjs);
	pthread_mutex_destroy(&of->lock);
}

struct kh_syncobj *kh_syncobj_find(struct kh_os_file *of, u32 handle)
{
	struct kh_syncobj *so;

	pthread_mutex_lock(&of->lock);
	so = xa_load(&of->syncobjs, handle);
	if (so)
		__atomic_add_fetch(&so->ref, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&of->lock);
	return so;
}

void kh_syncobj_put(struct kh_syncobj *so)
{
	kh_syncobj_unref(so);
}

void kh_syncobj_replace_fence(struct kh_syncobj *so, struct kh_fence *f)
{
	struct kh_fence *old;

	if (f)
		kh_fence_get(f);
	pthread_mutex_lock(&kh_fence_lock);
	old = so->fence;
	so->fence = f;
	pthread_cond_broadcast(&kh_fence_cond);
	pthread_mutex_unlock(&kh_fence_lock);
	kh_fence_put(old);
}

/* the fence a syncobj holds, with a reference; NULL for none */
static struct kh_fence *kh_syncobj_get_fence(struct kh_syncobj *so)
{
	struct kh_fence *f;

	pthread_mutex_lock(&kh_fence_lock);
	f = so->fence ? kh_fence_get(so->fence) : NULL;
	pthread_mutex_unlock(&kh_fence_lock);
	return f;
}

int kh_syncobj_fence(struct kh_os_file *of, u32 handle, struct kh_fence **out)
{
	struct kh_syncobj *so = kh_syncobj_find(of, handle);

	if (!so)
		return -ENOENT;
	*out = kh_syncobj_get_fence(so);
	kh_syncobj_put(so);
	return *out ? 0 : -EINVAL;
}

int kh_syncobj_create(struct kh_os_file *of, bool signaled, u32 *handle)
{
	struct kh_syncobj *so = calloc(1, sizeof(*so));
	int ret;

	if (!so)
		return -ENOMEM;
	so->ref = 1;
	if (signaled) {
		so->fence = kh_fence_create(0, 0);
		if (!so->fence) {
			free(so);
			return -ENOMEM;
		}
		kh_fence_signal(so->fence, 0);
	}
	pthread_mutex_lock(&of->lock);
	ret = xa_alloc_cyclic(&of->syncobjs, handle, so, XA_LIMIT(1, U32_MAX),
			      &of->next_handle, GFP_KERNEL);
	pthread_mutex_unlock(&of->lock);
	if (ret < 0) {
		kh_syncobj_unref(so);
		return ret;
	}
	return 0;
}

int kh_syncobj_destroy(struct kh_os_file *of, u32 handle)
{
	struct kh_syncobj *so;

	pthread_mutex_lock(&of->lock);
	so = xa_erase(&of->syncobjs, handle);
	pthread_mutex_unlock(&of->lock);
	if (!so)
		return -EINVAL;		/* as drm_syncobj_destroy() */
	kh_syncobj_unref(so);
	return 0;
}

int kh_syncobj_set(struct kh_os_file *of, u32 handle, bool signaled)
{
	struct kh_syncobj *so = kh_syncobj_find(of, handle);
	struct kh_fence *f = NULL;

	if (!so)
		return -ENOENT;
	if (signaled) {
		f = kh_fence_create(0, 0);
		if (!f) {
			kh_syncobj_put(so);
			return -ENOMEM;
		}
		kh_fence_signal(f, 0);
	}
	kh_syncobj_replace_fence(so, f);
	kh_fence_put(f);
	kh_syncobj_put(so);
	return 0;
}

int kh_syncobj_wait(struct kh_os_file *of, const u32 *handles,
		    unsigned int n, s64 deadline_ns, bool all, bool for_submit,
		    u32 *first)
{
	struct kh_syncobj **so;
	struct timespec ts;
	unsigned int i, done;
	int ret = 0;

	so = calloc(n ? n : 1, sizeof(*so));
	if (!so)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		so[i] = kh_syncobj_find(of, handles[i]);
		if (!so[i]) {
			ret = -ENOENT;
			goto out;
		}
	}
	if (deadline_ns < 0)
		deadline_ns = 0;
	ts.tv_sec = deadline_ns / 1000000000LL;
	ts.tv_nsec = deadline_ns % 1000000000LL;
	pthread_mutex_lock(&kh_fence_lock);
	for (;;) {
		for (i = 0, done = 0; i < n; i++) {
			if (!so[i]->fence) {
				if (!for_submit)
					ret = -EINVAL;	/* nothing submitted on it */
				if (!for_submit)
					break;
				continue;
			}
			if (so[i]->fence->signaled) {
				if (!done)
					*first = i;
				done++;
			}
		}
		if (ret || done == n || (!all && done))
			break;
		if (pthread_cond_timedwait(&kh_fence_cond, &kh_fence_lock, &ts)) {
			ret = -ETIME;
			break;
		}
	}
	pthread_mutex_unlock(&kh_fence_lock);
out:
	for (i = 0; i < n; i++)
		if (so[i])
			kh_syncobj_put(so[i]);
	free(so);
	return ret;
}

int kh_syncobj_export_fd(struct kh_os_file *of, u32 handle, int *fd)
{
	struct kh_syncobj *so = kh_syncobj_find(of, handle);
	struct kh_fence *f;
	int ret = 0;

	if (!so)
		return -ENOENT;
	f = kh_syncobj_get_fence(so);
	kh_syncobj_put(so);
	if (!f)
		return -EINVAL;
	pthread_mutex_lock(&kh_fence_lock);
	if (f->efd < 0) {
		f->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (f->efd < 0)
			ret = -errno;
		else if (f->signaled)
			kh_fence_notify_fd(f->efd);
	}
	if (!ret) {
		*fd = fcntl(f->efd, F_DUPFD_CLOEXEC, 0);
		if (*fd < 0)
			ret = -errno;
	}
	pthread_mutex_unlock(&kh_fence_lock);
	kh_fence_put(f);
	return ret;
}
