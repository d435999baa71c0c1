/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/slab.h> for userspace builds of driver/core: the kernel's
 * allocators on the C library's.  Allocation flags mean nothing here; a
 * zero-byte allocation returns a pointer, as the kernel's ZERO_SIZE_PTR is
 * not NULL; kcalloc() and kvcalloc() fail on an overflowing product, as
 * calloc() does.
 */
#ifndef KH_OS_LINUX_SLAB_H
#define KH_OS_LINUX_SLAB_H

#include <stdlib.h>

#include <linux/types.h>

#define GFP_KERNEL	0u
#define __GFP_NOWARN	0u

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	return malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return n && size ? calloc(n, size) : calloc(1, 1);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* kv*: the kernel falls back to vmalloc for large sizes; here it is all one */
static inline void *kvzalloc(size_t size, gfp_t gfp)
{
	return kzalloc(size, gfp);
}

static inline void *kvcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kcalloc(n, size, gfp);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#endif /* KH_OS_LINUX_SLAB_H */
