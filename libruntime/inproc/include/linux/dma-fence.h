/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/dma-fence.h> for userspace builds of driver/core: the kernel's
 * dma_fence, with its semantics (signalled once, an error set before,
 * callbacks run from the signalling context and removable until then),
 * implemented by the in-process host (libruntime/inproc/kh_os_fence.c).
 *
 * One lock covers every fence of the process (the lock a fence is given
 * is kept, not used), so the host's syncobj waits can wait on many fences
 * at once; callbacks run with it held, as the kernel's run under the
 * fence's lock, so they may not sleep.  A fence the host exports as a file
 * descriptor (a sync_file in the kernel) keeps an eventfd in @efd.
 */
#ifndef KH_OS_LINUX_DMA_FENCE_H
#define KH_OS_LINUX_DMA_FENCE_H

#include <linux/types.h>
#include <linux/bug.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

struct dma_fence;
struct dma_fence_cb;

typedef void (*dma_fence_func_t)(struct dma_fence *fence,
				 struct dma_fence_cb *cb);

struct dma_fence_cb {
	struct list_head node;
	dma_fence_func_t func;
};

struct dma_fence_ops {
	const char *(*get_driver_name)(struct dma_fence *fence);
	const char *(*get_timeline_name)(struct dma_fence *fence);
	/* frees the fence; without it the fence itself is freed */
	void (*release)(struct dma_fence *fence);
};

#define DMA_FENCE_FLAG_SIGNALED_BIT	0

struct dma_fence {
	spinlock_t *lock;
	const struct dma_fence_ops *ops;
	struct list_head cb_list;
	u64 context;
	u64 seqno;
	unsigned long flags;
	refcount_t refcount;
	int error;
	int efd;		/* the in-process host's: -1 until exported */
};

u64 kh_os_fence_context_alloc(unsigned int num);
void kh_os_fence_init(struct dma_fence *fence, const struct dma_fence_ops *ops,
		      spinlock_t *lock, u64 context, u64 seqno);
void kh_os_fence_release(struct dma_fence *fence);
int kh_os_fence_signal(struct dma_fence *fence);
bool kh_os_fence_is_signaled(struct dma_fence *fence);
int kh_os_fence_get_status(struct dma_fence *fence);
int kh_os_fence_add_callback(struct dma_fence *fence, struct dma_fence_cb *cb,
			     dma_fence_func_t func);
bool kh_os_fence_remove_callback(struct dma_fence *fence,
				 struct dma_fence_cb *cb);

#define dma_fence_context_alloc(num)	kh_os_fence_context_alloc(num)
#define dma_fence_init(fence, ops, lock, context, seqno)		\
	kh_os_fence_init(fence, ops, lock, context, seqno)
#define dma_fence_signal(fence)		kh_os_fence_signal(fence)
#define dma_fence_is_signaled(fence)	kh_os_fence_is_signaled(fence)
#define dma_fence_get_status(fence)	kh_os_fence_get_status(fence)
#define dma_fence_add_callback(fence, cb, func)				\
	kh_os_fence_add_callback(fence, cb, func)
#define dma_fence_remove_callback(fence, cb)				\
	kh_os_fence_remove_callback(fence, cb)

static inline struct dma_fence *dma_fence_get(struct dma_fence *fence)
{
	if (fence)
		refcount_inc(&fence->refcount);
	return fence;
}

static inline void dma_fence_put(struct dma_fence *fence)
{
	if (fence && refcount_dec_and_test(&fence->refcount))
		kh_os_fence_release(fence);
}

/* before it signals, with a negative errno, as the kernel warns otherwise */
static inline void dma_fence_set_error(struct dma_fence *fence, int error)
{
	BUG_ON(__atomic_load_n(&fence->flags, __ATOMIC_ACQUIRE) &
	       (1UL << DMA_FENCE_FLAG_SIGNALED_BIT));
	BUG_ON(error >= 0 || error < -4095);
	fence->error = error;
}

#endif /* KH_OS_LINUX_DMA_FENCE_H */
