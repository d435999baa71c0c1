/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <drm/drm_syncobj.h> for userspace builds of driver/core: a syncobj is a
 * slot holding one fence (or none), found by its handle in an open file,
 * as the kernel's binary syncobjs are (no timeline points here).
 * libruntime/inproc/kh_os_fence.c.
 */
#ifndef KH_OS_DRM_DRM_SYNCOBJ_H
#define KH_OS_DRM_DRM_SYNCOBJ_H

#include <linux/types.h>
#include <linux/dma-fence.h>
#include <linux/refcount.h>

struct drm_file;

struct drm_syncobj {
	refcount_t refcount;
	struct dma_fence *fence;	/* under the fences' lock */
};

struct drm_syncobj *kh_os_syncobj_find(struct drm_file *file, u32 handle);
void kh_os_syncobj_free(struct drm_syncobj *syncobj);
void kh_os_syncobj_replace_fence(struct drm_syncobj *syncobj,
				 struct dma_fence *fence);
int kh_os_syncobj_find_fence(struct drm_file *file, u32 handle, u64 point,
			     u64 flags, struct dma_fence **fence);

#define drm_syncobj_find(file, handle)	kh_os_syncobj_find(file, handle)
#define drm_syncobj_replace_fence(syncobj, fence)			\
	kh_os_syncobj_replace_fence(syncobj, fence)
#define drm_syncobj_find_fence(file, handle, point, flags, fence)	\
	kh_os_syncobj_find_fence(file, handle, point, flags, fence)

static inline void drm_syncobj_get(struct drm_syncobj *obj)
{
	refcount_inc(&obj->refcount);
}

static inline void drm_syncobj_put(struct drm_syncobj *obj)
{
	if (refcount_dec_and_test(&obj->refcount))
		kh_os_syncobj_free(obj);
}

#endif /* KH_OS_DRM_DRM_SYNCOBJ_H */
