// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel's xarray for the userspace builds of driver/core
 * (<linux/xarray.h> in libruntime/inproc/include/), the part the core and
 * the in-process host's syncobj table use: a sorted array of ids with
 * binary search.  Tables hold at most a few thousand entries (BOs and
 * unwaited jobs of one file, syncobjs of one file).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/minmax.h>
#include <linux/xarray.h>

void kh_os_xa_destroy(struct xarray *xa)
{
	free(xa->ids);
	free(xa->ptrs);
	xa_init_flags(xa, xa->flags);
}

/* the position of the first id >= id */
static unsigned int kh_os_xa_pos(const struct xarray *xa, unsigned long id)
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

void *kh_os_xa_load(struct xarray *xa, unsigned long id)
{
	unsigned int i = kh_os_xa_pos(xa, id);

	return i < xa->n && xa->ids[i] == id ? xa->ptrs[i] : NULL;
}

void *kh_os_xa_erase(struct xarray *xa, unsigned long id)
{
	unsigned int i = kh_os_xa_pos(xa, id);
	void *p;

	if (i >= xa->n || xa->ids[i] != id)
		return NULL;
	p = xa->ptrs[i];
	memmove(&xa->ids[i], &xa->ids[i + 1], (xa->n - i - 1) * sizeof(*xa->ids));
	memmove(&xa->ptrs[i], &xa->ptrs[i + 1], (xa->n - i - 1) * sizeof(*xa->ptrs));
	xa->n--;
	return p;
}

static int kh_os_xa_put_at(struct xarray *xa, unsigned int i, unsigned long id,
			   void *p)
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

int kh_os_xa_insert(struct xarray *xa, unsigned long id, void *p)
{
	unsigned int i = kh_os_xa_pos(xa, id);

	if (i < xa->n && xa->ids[i] == id)
		return -EBUSY;
	return kh_os_xa_put_at(xa, i, id, p);
}

/* the last allocation's *next overflowed to 0: the next one has wrapped */
#define KH_OS_XA_WRAPPED	(1u << 8)

/* at the first free id in [limit.min, limit.max]; -EBUSY when none is */
static int kh_os_xa_alloc(struct xarray *xa, u32 *id, void *p,
			  struct xa_limit limit)
{
	unsigned int i = kh_os_xa_pos(xa, limit.min);
	u64 want = limit.min;
	int ret;

	for (; i < xa->n && xa->ids[i] == want; i++)
		want++;
	if (want > limit.max)
		return -EBUSY;
	ret = kh_os_xa_put_at(xa, i, want, p);
	if (!ret)
		*id = (u32)want;
	return ret;
}

/* the kernel's __xa_alloc_cyclic(), step for step */
int kh_os_xa_alloc_cyclic(struct xarray *xa, u32 *id, void *p,
			  struct xa_limit limit, u32 *next)
{
	u32 min = limit.min;
	int ret;

	limit.min = max_t(u32, min, *next);
	ret = kh_os_xa_alloc(xa, id, p, limit);
	if ((xa->flags & KH_OS_XA_WRAPPED) && ret == 0) {
		xa->flags &= ~KH_OS_XA_WRAPPED;
		ret = 1;
	}
	if (ret < 0 && limit.min > min) {
		limit.min = min;
		ret = kh_os_xa_alloc(xa, id, p, limit);
		if (ret == 0)
			ret = 1;
	}
	if (ret >= 0) {
		*next = *id + 1;
		if (*next == 0)
			xa->flags |= KH_OS_XA_WRAPPED;
	}
	return ret;
}

void *kh_os_xa_find(struct xarray *xa, unsigned long *id)
{
	unsigned int i = kh_os_xa_pos(xa, *id);

	if (i >= xa->n)
		return NULL;
	*id = xa->ids[i];
	return xa->ptrs[i];
}
