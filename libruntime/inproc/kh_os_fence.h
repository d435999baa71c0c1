/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The in-process host's side of its fences and syncobjs: what the DRM core
 * and sync_file do for kohaku.ko.  The driver core sees them through the
 * kernel's names (<linux/dma-fence.h>, <drm/drm_syncobj.h>); the host's DRM
 * emulation (inproc_drm.c) also creates, waits on and exports them.
 */
#ifndef KH_OS_FENCE_H
#define KH_OS_FENCE_H

#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>

__attribute__((visibility("hidden"))) void kh_os_file_init(struct drm_file *file);
__attribute__((visibility("hidden"))) void kh_os_file_fini(struct drm_file *file);

/* a new syncobj in the file: its handle, or a negative errno */
__attribute__((visibility("hidden")))
int kh_os_syncobj_create(struct drm_file *file, bool signaled, u32 *handle);
__attribute__((visibility("hidden")))
int kh_os_syncobj_destroy(struct drm_file *file, u32 handle);
/*
 * Wait until all (or one) of the fences the handles hold have signalled,
 * up to an absolute CLOCK_MONOTONIC deadline in ns (DRM_IOCTL_SYNCOBJ_WAIT):
 * 0 with *first the index of a signalled one, -ETIME past the deadline,
 * -EINVAL a syncobj with no fence (unless for_submit: then it waits for
 * one), -ENOENT a bad handle.
 */
__attribute__((visibility("hidden")))
int kh_os_syncobj_wait(struct drm_file *file, const u32 *handles,
		       unsigned int n, s64 deadline_ns, bool all,
		       bool for_submit, u32 *first);
/* a new file descriptor that polls readable once the fence has signalled */
__attribute__((visibility("hidden")))
int kh_os_syncobj_export_fd(struct drm_file *file, u32 handle, int *fd);
/* RESET: no fence; SIGNAL: a signalled one */
__attribute__((visibility("hidden")))
int kh_os_syncobj_set(struct drm_file *file, u32 handle, bool signaled);

#endif /* KH_OS_FENCE_H */
