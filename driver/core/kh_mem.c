// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Device memory of one mesh: a first-fit allocator over a sorted, coalesced
 * list of free extents, in KOHAKU_BO_ALIGN granules.  Mesh DRAM is not host
 * memory; the allocator only hands out ranges of card addresses.
 */
#include "kh_priv.h"

static struct kh_extent *kh_extent_new(u64 start, u64 len)
{
	struct kh_extent *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (e) {
		e->start = start;
		e->len = len;
	}
	return e;
}

int kh_mem_init(struct kh_mem *mem, u64 size)
{
	struct kh_extent *e;

	mutex_init(&mem->lock);
	INIT_LIST_HEAD(&mem->free);
	mem->size = size & ~((u64)KOHAKU_BO_ALIGN - 1);
	mem->free_bytes = 0;
	if (!mem->size)
		return 0;
	e = kh_extent_new(0, mem->size);
	if (!e)
		return -ENOMEM;
	list_add_tail(&e->link, &mem->free);
	mem->free_bytes = mem->size;
	return 0;
}

void kh_mem_usage(struct kh_mem *mem, u64 *size, u64 *free_bytes)
{
	mutex_lock(&mem->lock);
	*size = mem->size;
	*free_bytes = mem->free_bytes;
	mutex_unlock(&mem->lock);
}

void kh_mem_fini(struct kh_mem *mem)
{
	struct kh_extent *e, *tmp;

	list_for_each_entry_safe(e, tmp, &mem->free, link) {
		list_del(&e->link);
		kfree(e);
	}
	mem->free_bytes = 0;
	mutex_destroy(&mem->lock);
}

/* len must already be a multiple of KOHAKU_BO_ALIGN. */
int kh_mem_alloc(struct kh_mem *mem, u64 len, u64 *start)
{
	struct kh_extent *e;
	int ret = -ENOMEM;

	mutex_lock(&mem->lock);
	list_for_each_entry(e, &mem->free, link) {
		if (e->len < len)
			continue;
		*start = e->start;
		e->start += len;
		e->len -= len;
		if (!e->len) {
			list_del(&e->link);
			kfree(e);
		}
		mem->free_bytes -= len;
		ret = 0;
		break;
	}
	mutex_unlock(&mem->lock);
	return ret;
}

/*
 * [start, start+len) exactly, for a BO at a fixed address: -EBUSY unless
 * one free extent holds all of it.  Memory a BO holds, memory freed but
 * held back (kh_bo_put()'s deferred list) and the firmware's staging copy
 * are all outside the free list, so they all refuse alike.  Both ends
 * must already be multiples of KOHAKU_BO_ALIGN and inside the mesh (the
 * caller checked).  Taking the middle of an extent splits it: the one
 * allocation is made before the lock, so a failure leaves the list as it
 * was.
 */
int kh_mem_alloc_at(struct kh_mem *mem, u64 start, u64 len)
{
	struct kh_extent *e, *tail = kh_extent_new(0, 0);
	int ret = -EBUSY;

	if (!tail)
		return -ENOMEM;
	mutex_lock(&mem->lock);
	list_for_each_entry(e, &mem->free, link) {
		if (e->start > start)
			break;		/* sorted: no later extent holds it */
		if (start + len > e->start + e->len)
			continue;
		if (start + len < e->start + e->len) {
			/* what is left past the range stays free */
			tail->start = start + len;
			tail->len = e->start + e->len - tail->start;
			list_add_tail(&tail->link, e->link.next);
			tail = NULL;
		}
		e->len = start - e->start;
		if (!e->len) {
			list_del(&e->link);
			kfree(e);
		}
		mem->free_bytes -= len;
		ret = 0;
		break;
	}
	mutex_unlock(&mem->lock);
	kfree(tail);
	return ret;
}

/*
 * Put [start, start+len) back, merging with its neighbours.  The only
 * allocation is a new extent when the range touches neither neighbour; if
 * that fails the range stays unusable rather than corrupting the
 * list.
 */
static void kh_mem_release_locked(struct kh_mem *mem, u64 start, u64 len)
{
	struct kh_extent *e, *prev = NULL, *n;
	struct list_head *before = &mem->free;

	list_for_each_entry(e, &mem->free, link) {
		if (e->start > start) {
			before = &e->link;
			break;
		}
		prev = e;
	}
	mem->free_bytes += len;
	if (prev && prev->start + prev->len == start) {
		prev->len += len;
		if (before != &mem->free) {
			n = list_entry(before, struct kh_extent, link);
			if (prev->start + prev->len == n->start) {
				prev->len += n->len;
				list_del(&n->link);
				kfree(n);
			}
		}
		return;
	}
	if (before != &mem->free) {
		n = list_entry(before, struct kh_extent, link);
		if (start + len == n->start) {
			n->start = start;
			n->len += len;
			return;
		}
	}
	n = kh_extent_new(start, len);
	if (!n) {
		mem->free_bytes -= len;
		return;
	}
	list_add_tail(&n->link, before);
}

void kh_mem_release(struct kh_mem *mem, u64 start, u64 len)
{
	mutex_lock(&mem->lock);
	kh_mem_release_locked(mem, start, len);
	mutex_unlock(&mem->lock);
}
