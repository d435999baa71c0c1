// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's headers for the userspace builds of driver/core
 * (libruntime/inproc/include/) against the kernel's semantics, where the
 * core relies on them or a kernel debug option would catch a misuse:
 * xarray ids and their wrap, a work item queued while it runs, wait
 * timeouts and their result, dma_fence callbacks, status and errors,
 * syncobj lookups, refcount misuse, user copies, crc32_le().  The lock
 * checking has its own tests (test_lockdep.c).
 */
#include <pthread.h>
#include <time.h>

#include <linux/crc32.h>
#include <linux/dma-fence.h>
#include <linux/kernel.h>
#include <linux/refcount.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_syncobj.h>

#include "check.h"
#include "kh_os_fence.h"
#include "harness.h"
#include "expect_abort.h"

CHECK_FIXTURE(shim)

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

TEST_F(shim, xarray_ids_as_the_kernel_hands_them_out)
{
	struct xarray xa;
	int a = 1, b = 2, c = 3, d = 4, e = 5, seen = 0;
	u32 id = 0, next = 0;
	unsigned long i;
	void *p;

	xa_init_flags(&xa, XA_FLAGS_ALLOC1);
	CHECK_EQ(xa_insert(&xa, 7, &a, GFP_KERNEL), 0);
	CHECK_EQ(xa_insert(&xa, 7, &b, GFP_KERNEL), -EBUSY);
	CHECK(xa_load(&xa, 7) == &a);
	CHECK(xa_erase(&xa, 7) == &a);
	CHECK(xa_load(&xa, 7) == NULL);
	/* cyclic in 1..3: 1, 2, 3, then full */
	CHECK_EQ(xa_alloc_cyclic(&xa, &id, &a, XA_LIMIT(1, 3), &next, GFP_KERNEL), 0);
	CHECK_EQ(id, 1);
	CHECK_EQ(xa_alloc_cyclic(&xa, &id, &b, XA_LIMIT(1, 3), &next, GFP_KERNEL), 0);
	CHECK_EQ(xa_alloc_cyclic(&xa, &id, &c, XA_LIMIT(1, 3), &next, GFP_KERNEL), 0);
	CHECK_EQ(id, 3);
	CHECK_EQ(xa_alloc_cyclic(&xa, &id, &d, XA_LIMIT(1, 3), &next, GFP_KERNEL), -EBUSY);
	/* a freed id comes back only after a wrap, which returns 1 */
	xa_erase(&xa, 2);
	CHECK_EQ(xa_alloc_cyclic(&xa, &id, &e, XA_LIMIT(1, 3), &next, GFP_KERNEL), 1);
	CHECK_EQ(id, 2);
	CHECK_EQ(next, 3);
	/* every entry once, in order, erasing as it goes */
	xa_for_each(&xa, i, p) {
		CHECK_EQ(i, (unsigned long)++seen);
		xa_erase(&xa, i);
	}
	CHECK_EQ(seen, 3);
	CHECK(xa_load(&xa, 1) == NULL);
	xa_destroy(&xa);
}

struct counted_work {
	struct work_struct work;
	struct workqueue_struct *wq;
	int runs;
	int requeue;
};

static void counted_fn(struct work_struct *w)
{
	struct counted_work *cw = container_of(w, struct counted_work, work);

	__atomic_add_fetch(&cw->runs, 1, __ATOMIC_RELAXED);
	/* queued while it runs: it runs once more after */
	if (cw->requeue-- > 0)
		CHECK(queue_work(cw->wq, &cw->work));
}

TEST_F(shim, a_work_item_queued_while_it_runs_runs_again)
{
	struct counted_work cw = { .requeue = 2 };
	u64 t0 = mono_ns();

	cw.wq = alloc_workqueue("shim-%d", WQ_HIGHPRI, 0, 1);
	REQUIRE(cw.wq != NULL);
	INIT_WORK(&cw.work, counted_fn);
	CHECK_EQ(work_busy(&cw.work), 0);
	CHECK(queue_work(cw.wq, &cw.work));
	while (__atomic_load_n(&cw.runs, __ATOMIC_RELAXED) < 3 &&
	       mono_ns() - t0 < 5000000000ULL)
		sched_yield();
	cancel_work_sync(&cw.work);
	CHECK_EQ(cw.runs, 3);
	CHECK_EQ(work_busy(&cw.work), 0);
	destroy_workqueue(cw.wq);
}

TEST_F(shim, wait_event_timeout_returns_what_the_kernels_does)
{
	wait_queue_head_t wq;
	u64 t0;
	long r;
	int flag = 0;

	init_waitqueue_head(&wq);
	t0 = mono_ns();
	r = wait_event_timeout(wq, READ_ONCE(flag), nsecs_to_jiffies(20000000));
	CHECK_EQ(r, 0);
	CHECK(mono_ns() - t0 >= 20000000);
	WRITE_ONCE(flag, 1);
	wake_up_all(&wq);
	r = wait_event_interruptible_timeout(wq, READ_ONCE(flag),
					     nsecs_to_jiffies(1000000000));
	CHECK(r > 0);
	CHECK(r <= 1000000000);
	CHECK_EQ(nsecs_to_jiffies(~0ULL), MAX_JIFFY_OFFSET);
}

struct cb_rec {
	struct dma_fence_cb cb;
	int *order;
	int *n;
	int me;
};

static void cb_fn(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct cb_rec *r = container_of(cb, struct cb_rec, cb);

	r->order[(*r->n)++] = r->me;
}

static struct dma_fence *new_fence(void)
{
	static const struct dma_fence_ops ops;
	static spinlock_t lock;
	struct dma_fence *f = calloc(1, sizeof(*f));

	spin_lock_init(&lock);
	dma_fence_init(f, &ops, &lock, dma_fence_context_alloc(1), 1);
	return f;
}

TEST_F(shim, dma_fence_callbacks_status_and_error)
{
	struct dma_fence *f = new_fence(), *g = new_fence();
	int order[3] = { 0 }, n = 0;
	struct cb_rec r[3];
	int i;

	for (i = 0; i < 3; i++) {
		r[i] = (struct cb_rec){ .order = order, .n = &n, .me = i + 1 };
		CHECK_EQ(dma_fence_add_callback(f, &r[i].cb, cb_fn), 0);
	}
	CHECK(dma_fence_remove_callback(f, &r[1].cb));
	CHECK(!dma_fence_remove_callback(f, &r[1].cb));
	CHECK_EQ(dma_fence_get_status(f), 0);
	CHECK(!dma_fence_is_signaled(f));
	dma_fence_set_error(f, -EIO);
	CHECK_EQ(dma_fence_signal(f), 0);
	CHECK_EQ(dma_fence_signal(f), -EINVAL);
	/* in the order added, the removed one not at all */
	CHECK_EQ(n, 2);
	CHECK_EQ(order[0], 1);
	CHECK_EQ(order[1], 3);
	CHECK(dma_fence_is_signaled(f));
	CHECK_EQ(dma_fence_get_status(f), -EIO);
	CHECK_EQ(dma_fence_add_callback(f, &r[1].cb, cb_fn), -ENOENT);
	CHECK(!dma_fence_remove_callback(f, &r[1].cb));
	dma_fence_signal(g);
	CHECK_EQ(dma_fence_get_status(g), 1);
	dma_fence_put(f);
	dma_fence_put(g);
}

TEST_F(shim, syncobjs_found_in_their_file)
{
	struct drm_file file;
	struct drm_syncobj *so;
	struct dma_fence *f = new_fence(), *got = NULL;
	u32 h;

	kh_os_file_init(&file);
	CHECK_EQ(kh_os_syncobj_create(&file, false, &h), 0);
	CHECK(drm_syncobj_find(&file, h + 1) == NULL);
	CHECK_EQ(drm_syncobj_find_fence(&file, h + 1, 0, 0, &got), -ENOENT);
	CHECK_EQ(drm_syncobj_find_fence(&file, h, 0, 0, &got), -EINVAL);
	so = drm_syncobj_find(&file, h);
	REQUIRE(so != NULL);
	drm_syncobj_replace_fence(so, f);
	drm_syncobj_put(so);
	CHECK_EQ(drm_syncobj_find_fence(&file, h, 0, 0, &got), 0);
	CHECK(got == f);
	dma_fence_put(got);
	dma_fence_put(f);
	kh_os_file_fini(&file);
}

TEST_ABORTS(shim, dma_fence_set_error_after_the_signal_aborts)
{
	struct dma_fence *f = new_fence();

	dma_fence_signal(f);
	dma_fence_set_error(f, -EIO);
	CHECK_MSG(0, "an error set after the signal went unseen");
}

TEST_ABORTS(shim, refcount_inc_from_zero_aborts)
{
	refcount_t r;

	refcount_set(&r, 1);
	CHECK(refcount_dec_and_test(&r));
	refcount_inc(&r);	/* a use after the last put */
	CHECK_MSG(0, "refcount_inc() from 0 went unseen");
}

TEST_ABORTS(shim, refcount_put_below_zero_aborts)
{
	refcount_t r;

	refcount_set(&r, 0);
	refcount_dec_and_test(&r);
	CHECK_MSG(0, "a put below 0 went unseen");
}

TEST_F(shim, user_copies_and_crc32)
{
	char src[4] = "abc", dst[4] = "";

	CHECK_EQ(copy_from_user(dst, src, 4), 0);
	CHECK_EQ(memcmp(dst, "abc", 4), 0);
	CHECK_EQ(copy_to_user(NULL, src, 4), 4);
	CHECK_EQ(copy_from_user(dst, NULL, 4), 4);
	CHECK_EQ(copy_from_user(NULL, NULL, 0), 0);
	CHECK(u64_to_user_ptr((u64)(uintptr_t)src) == src);
	/* the IEEE 802.3 check value, inverted in and out as zlib's */
	CHECK_EQ(~crc32_le(~0U, "123456789", 9), 0xcbf43926);
	CHECK_EQ(~crc32_le(crc32_le(~0U, "1234", 4), "56789", 5), 0xcbf43926);
}

CHECK_TEST_MAIN
