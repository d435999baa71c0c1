/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The in-process host's fences and syncobjs: what the kernel's dma_fence,
 * drm_syncobj and sync_file are to kohaku.ko.  The driver core uses them
 * through kh_os.h; the host's DRM emulation (inproc_drm.c) also creates,
 * waits on and exports them.
 */
#ifndef KH_OS_FENCE_H
#define KH_OS_FENCE_H

#include "kh_os.h"

/* a syncobj: a slot holding one fence (or none) */
struct kh_syncobj {
	unsigned int ref;
	struct kh_fence *fence;
};

/* the host's open file: its syncobj handles */
struct kh_os_file {
	pthread_mutex_t lock;
	struct xarray syncobjs;		/* handle -> struct kh_syncobj */
	u32 next_handle;
};

__attribute__((visibility("hidden"))) void kh_os_file_init(struct kh_os_file *of);
__attribute__((visibility("hidden"))) void kh_os_file_fini(struct kh_os_file *of);

/* a new syncobj in of: its handle, or a negative errno */
__attribute__((visibility("hidden")))
int kh_syncobj_create(struct kh_os_file *of, bool signaled, u32 *handle);
__attribute__((visibility("hidden")))
int kh_syncobj_destroy(struct kh_os_file *of, u32 handle);
/*
 * Wait until all (or one) of the fences the handles hold have signalled,
 * up to an absolute CLOCK_MONOTONIC deadline in ns (DRM_IOCTL_SYNCOBJ_WAIT):
 * 0 with *first the index of a signalled one, -ETIME past the deadline,
 * -EINVAL a syncobj with no fence (unless for_submit: then it waits for
 * one), -ENOENT a bad handle.
 */
__attribute__((visibility("hidden")))
int kh_syncobj_wait(struct kh_os_file *of, const u32 *handles,
		    unsigned int n, s64 deadline_ns, bool all, bool for_submit,
		    u32 *first);
/* a new file descriptor that polls readable once the fence has signalled */
__attribute__((visibility("hidden")))
int kh_syncobj_export_fd(struct kh_os_file *of, u32 handle, int *fd);
/* RESET: no fence; SIGNAL: a signalled one */
__attribute__((visibility("hidden")))
int kh_syncobj_set(struct kh_os_file *of, u32 handle, bool signaled);

#endif /* KH_OS_FENCE_H */
