// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libkohaku's syncobjs (kohaku.h "fences"): thin wrappers over the DRM
 * core's DRM_IOCTL_SYNCOBJ_* commands, which the kernel backend sends to
 * the DRM core and the sim backend serves in-process (inproc_drm.c).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "rt_internal.h"

KH_RT_EXPORT int kohaku_syncobj_create(kohaku_device *dev, uint32_t *handle)
{
	struct drm_syncobj_create c;
	int r;

	if (!dev || !handle)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	r = kh_rt_ioctl(dev, DRM_IOCTL_SYNCOBJ_CREATE, &c,
			"creating a syncobj on %s", dev->path);
	if (!r)
		*handle = c.handle;
	return r;
}

KH_RT_EXPORT int kohaku_syncobj_destroy(kohaku_device *dev, uint32_t handle)
{
	struct drm_syncobj_destroy d;

	if (!dev)
		return -EINVAL;
	memset(&d, 0, sizeof(d));
	d.handle = handle;
	return kh_rt_ioctl(dev, DRM_IOCTL_SYNCOBJ_DESTROY, &d,
			   "destroying syncobj %u on %s", handle, dev->path);
}

/* DRM's syncobj deadlines are absolute CLOCK_MONOTONIC nanoseconds */
static int64_t deadline_ns(uint32_t timeout_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec +
	       (int64_t)timeout_ms * 1000000LL;
}

KH_RT_EXPORT int kohaku_syncobj_wait(kohaku_device *dev, const uint32_t *handles,
				     unsigned int n, unsigned int flags,
				     uint32_t timeout_ms, unsigned int *first)
{
	struct drm_syncobj_wait w;
	int r;

	if (!dev)
		return -EINVAL;
	if (flags & ~KOHAKU_SYNCOBJ_WAIT_ALL) {
		kh_rt_seterr(dev, "waiting on syncobjs: unknown flags 0x%x", flags);
		return -EINVAL;
	}
	if (!n || !handles) {
		kh_rt_seterr(dev, "waiting on syncobjs: no handles given");
		return -EINVAL;
	}
	memset(&w, 0, sizeof(w));
	w.handles = (uintptr_t)handles;
	w.count_handles = n;
	w.timeout_nsec = deadline_ns(timeout_ms);
	if (flags & KOHAKU_SYNCOBJ_WAIT_ALL)
		w.flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	r = dev->ops->ioctl(dev, DRM_IOCTL_SYNCOBJ_WAIT, &w);
	if (r == -ETIME)
		return -ETIMEDOUT;	/* normal: nothing to explain */
	if (r) {
		kh_rt_seterr(dev, "waiting on %u syncobj%s on %s failed: %s (%s). %s",
			     n, n == 1 ? "" : "s", dev->path, kohaku_strerror(r),
			     kh_rt_errno_name(r),
			     r == -EINVAL ? "A syncobj holds no fence: no job was "
			     "submitted with it as out_syncobj." :
			     r == -ENOENT ? "No such syncobj in this open file." : "");
		return r;
	}
	if (first)
		*first = w.first_signaled;
	return 0;
}

KH_RT_EXPORT int kohaku_syncobj_fd(kohaku_device *dev, uint32_t handle, int *fd)
{
	struct drm_syncobj_handle h;
	int r;

	if (!dev || !fd)
		return -EINVAL;
	memset(&h, 0, sizeof(h));
	h.handle = handle;
	h.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	h.fd = -1;
	r = kh_rt_ioctl(dev, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h,
			"exporting syncobj %u of %s as a file descriptor",
			handle, dev->path);
	if (!r)
		*fd = h.fd;
	return r;
}
