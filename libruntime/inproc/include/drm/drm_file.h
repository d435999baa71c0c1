/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <drm/drm_file.h> for userspace builds of driver/core: the in-process
 * host's open file, as far as the core sees it (the syncobjs its SUBMIT
 * names).  The host makes and tears it down (kh_os_fence.h); DRM's own
 * ioctls on it are the host's DRM emulation (inproc_drm.c).
 */
#ifndef KH_OS_DRM_DRM_FILE_H
#define KH_OS_DRM_DRM_FILE_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

struct drm_file {
	spinlock_t syncobj_table_lock;
	struct xarray syncobj_xa;	/* handle -> struct drm_syncobj */
	u32 next_syncobj_handle;
};

#endif /* KH_OS_DRM_DRM_FILE_H */
