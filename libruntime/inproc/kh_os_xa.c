// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The subset of the kernel's xarray the driver core uses (kh_os.h), for
 * userspace: a sorted array of ids with binary search.  Tables hold at most
 * a few thousand entries (BOs and unwaited jobs of one file).
 */
#include <stdlib.h>

#include "kh_os.h"

void kh_xa_init(struct kh_xa *xa)
{
	memset(xa, 0, sizeof(*xa));
}

void kh_xa_destroy(struct kh_xa *xa)
{
	free(xa->ids);
	free(xa->ptrs);
	memset(xa, 0, sizeof(*xa));
}

/* the position of the first id >= id */
static unsigned int kh_xa_pos(const struct kh_xa *xa, unsigned long id)
{
	unsigned int lo = 0, hi = xa->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (xa->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void *kh_xa_load(struct kh_xa *xa, unsigned long id)
{
	unsigned int i = kh_xa_pos(xa, id);

	return i < xa->n && xa->ids[i] == id ? xa->ptrs[i] : NULL;
}

void *kh_xa_erase(struct kh_xa *xa, unsigned long id)
{
	unsigned int i = kh_xa_pos(xa, id);
	void *p;

	if (i >= xa->n || xa->ids[i] != id)
		return NULL;
	p = xa->ptrs[i];
	memmove(&xa->ids[i], &xa->ids[i + 1], (xa->n - i - 1) * sizeof(*xa->ids));
	memmove(&xa->ptrs[i], &xa->ptrs[i + 1], (xa->n - i - 1) * sizeof(*xa->ptrs));
	xa->n--;
	return p;
}

static int kh_xa_put_at(struct kh_xa *xa, unsigned int i, unsigned long id, void *p)
{
	if (xa->n == xa->cap) {
		unsigned int cap = xa->cap ? xa->cap * 2 : 16;
		unsigned long *ids = realloc(xa->ids, cap * sizeof(*ids));
		void **ptrs;

		if (!ids)
			return -ENOMEM;
		xa->ids = ids;
		ptrs = realloc(xa->ptrs, cap * sizeof(*ptrs));
		if (!ptrs)
			return -ENOMEM;
		xa->ptrs = ptrs;
		xa->cap = cap;
	}
	memmove(&xa->ids[i + 1], &xa->ids[i], (xa->n - i) * sizeof(*xa->ids));
	memmove(&xa->ptrs[i + 1], &xa->ptrs[i], (xa->n - i) * sizeof(*xa->ptrs));
	xa->ids[i] = id;
	xa->ptrs[i] = p;
	xa->n++;
	return 0;
}

int kh_xa_insert(struct kh_xa *xa, unsigned long id, void *p)
{
	unsigned int i = kh_xa_pos(xa, id);

	if (i < xa->n && xa->ids[i] == id)
		return -EBUSY;
	return kh_xa_put_at(xa, i, id, p);
}

/* as xa_alloc_cyclic: a free id in 1..max from *next on, wrapping */
int kh_xa_alloc_cyclic(struct kh_xa *xa, u32 *id, void *p, u32 max, u32 *next)
{
	unsigned long want = *next < 1 || *next > max ? 1 : *next;
	unsigned int i, tries;

	if (xa->n >= max)
		return -EBUSY;
	for (tries = 0; tries <= xa->n; tries++) {
		i = kh_xa_pos(xa, want);
		if (i >= xa->n || xa->ids[i] != want)
			break;
		want = want >= max ? 1 : want + 1;
	}
	*id = (u32)want;
	*next = want >= max ? 1 : (u32)want + 1;
	return kh_xa_put_at(xa, i, want, p);
}

void *kh_xa_find(struct kh_xa *xa, unsigned long *id)
{
	unsigned int i = kh_xa_pos(xa, *id);

	if (i >= xa->n)
		return NULL;
	*id = xa->ids[i];
	return xa->ptrs[i];
}
