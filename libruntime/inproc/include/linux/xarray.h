/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/xarray.h> for userspace builds of driver/core: the part of the
 * kernel's xarray the core uses, as a sorted array of ids searched in two
 * halves (libruntime/inproc/kh_os_xa.c).  A table holds at most a few
 * thousand entries (one file's BOs and unwaited jobs).  The return values
 * are the kernel's: xa_insert() -EBUSY on a taken index, xa_alloc_cyclic()
 * 1 when it wrapped past the limit to find a free id, -EBUSY when none is
 * free; xa_for_each() may erase the entry it is at.
 */
#ifndef KH_OS_LINUX_XARRAY_H
#define KH_OS_LINUX_XARRAY_H

#include <linux/types.h>
#include <linux/slab.h>

struct xarray {
	unsigned long *ids;	/* sorted */
	void **ptrs;
	unsigned int n, cap;
	unsigned int flags;
};

struct xa_limit {
	u32 max;
	u32 min;
};

#define XA_FLAGS_ALLOC		(1u << 0)
#define XA_FLAGS_ALLOC1		(1u << 1)
#define XA_LIMIT(_min, _max)	((struct xa_limit){ .min = (_min), .max = (_max) })

void *kh_os_xa_load(struct xarray *xa, unsigned long index);
void *kh_os_xa_erase(struct xarray *xa, unsigned long index);
int kh_os_xa_insert(struct xarray *xa, unsigned long index, void *entry);
int kh_os_xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry,
			  struct xa_limit limit, u32 *next);
void *kh_os_xa_find(struct xarray *xa, unsigned long *index);
void kh_os_xa_destroy(struct xarray *xa);

static inline void xa_init_flags(struct xarray *xa, unsigned int flags)
{
	xa->ids = NULL;
	xa->ptrs = NULL;
	xa->n = 0;
	xa->cap = 0;
	xa->flags = flags;
}

static inline void xa_init(struct xarray *xa)
{
	xa_init_flags(xa, 0);
}

#define xa_load(xa, index)		kh_os_xa_load(xa, index)
#define xa_erase(xa, index)		kh_os_xa_erase(xa, index)
#define xa_insert(xa, index, entry, gfp) kh_os_xa_insert(xa, index, entry)
#define xa_alloc_cyclic(xa, id, entry, limit, next, gfp)		\
	kh_os_xa_alloc_cyclic(xa, id, entry, limit, next)
#define xa_destroy(xa)			kh_os_xa_destroy(xa)

/* every entry in index order; the body may erase the current one */
#define xa_for_each(xa, index, entry)					\
	for ((index) = 0; ((entry) = kh_os_xa_find(xa, &(index))) != NULL; \
	     (index)++)

#endif /* KH_OS_LINUX_XARRAY_H */
