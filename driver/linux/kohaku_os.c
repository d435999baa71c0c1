// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the kernel half of driver/core's OS shim (kh_os.h) that is
 * not a one-line inline: no inline stepping of the engine's work, fences
 * (dma_fence) and the open file's syncobjs (drm_syncobj).
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>

#include "kh_os.h"

/* ---- the engine's work: never run inline here ---- */

bool kh_work_claim(struct workqueue_struct *wq, struct work_struct *w)
{
	return false;
}

void kh_work_unclaim(struct workqueue_struct *wq, struct work_struct *w)
{
}

/* ---- fences: the job's own, and any driver's as an in-fence ---- */

struct kohaku_fence {
	struct dma_fence base;	/* first: dma_fence_free() frees the whole */
	spinlock_t lock;
};

static const char *kohaku_fence_driver_name(struct dma_fence *f)
{
	return "kohaku";
}

static const char *kohaku_fence_timeline_name(struct dma_fence *f)
{
	return "mesh";
}

static const struct dma_fence_ops kohaku_fence_ops = {
	.get_driver_name = kohaku_fence_driver_name,
	.get_timeline_name = kohaku_fence_timeline_name,
};

static struct dma_fence *to_dma(struct kh_fence *f)
{
	return (struct dma_fence *)f;
}

u64 kh_fence_context_alloc(unsigned int n)
{
	return dma_fence_context_alloc(n);
}

struct kh_fence *kh_fence_create(u64 context, u64 seqno)
{
	struct kohaku_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	dma_fence_init(&f->base, &kohaku_fence_ops, &f->lock, context, seqno);
	return (struct kh_fence *)&f->base;
}

void kh_fence_put(struct kh_fence *f)
{
	dma_fence_put(to_dma(f));
}

void kh_fence_signal(struct kh_fence *f, int error)
{
	if (error)
		dma_fence_set_error(to_dma(f), error);
	dma_fence_signal(to_dma(f));
}

bool kh_fence_is_signaled(struct kh_fence *f)
{
	return dma_fence_is_signaled(to_dma(f));
}

int kh_fence_error(struct kh_fence *f)
{
	int s = dma_fence_get_status(to_dma(f));

	return s < 0 ? s : 0;
}

static void kohaku_fence_cb(struct dma_fence *f, struct dma_fence_cb *dcb)
{
	struct kh_fence_cb *cb = container_of(dcb, struct kh_fence_cb, base);

	cb->func(cb);
}

int kh_fence_add_callback(struct kh_fence *f, struct kh_fence_cb *cb,
			  void (*func)(struct kh_fence_cb *cb))
{
	cb->func = func;
	return dma_fence_add_callback(to_dma(f), &cb->base, kohaku_fence_cb);
}

bool kh_fence_remove_callback(struct kh_fence *f, struct kh_fence_cb *cb)
{
	return dma_fence_remove_callback(to_dma(f), &cb->base);
}

/* ---- the open file's syncobjs ---- */

struct kh_syncobj *kh_syncobj_find(struct kh_os_file *of, u32 handle)
{
	return (struct kh_syncobj *)drm_syncobj_find((struct drm_file *)of,
						     handle);
}

void kh_syncobj_put(struct kh_syncobj *so)
{
	drm_syncobj_put((struct drm_syncobj *)so);
}

void kh_syncobj_replace_fence(struct kh_syncobj *so, struct kh_fence *f)
{
	drm_syncobj_replace_fence((struct drm_syncobj *)so, to_dma(f));
}

int kh_syncobj_fence(struct kh_os_file *of, u32 handle, struct kh_fence **out)
{
	struct dma_fence *f;
	int ret;

	ret = drm_syncobj_find_fence((struct drm_file *)of, handle, 0, 0, &f);
	if (!ret)
		*out = (struct kh_fence *)f;
	return ret;
}
