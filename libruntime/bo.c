// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Buffer objects: device memory of one mesh, owned by the open file, read
 * and written at any offset (the driver merges partial 32-byte words).
 */
#include <errno.h>
#include <string.h>

#include "rt_internal.h"

KH_RT_EXPORT int kohaku_bo_create(kohaku_device *dev, unsigned int mesh,
				  uint64_t size, uint32_t *handle,
				  uint64_t *dev_addr)
{
	struct drm_kohaku_bo_create req;
	int r;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.mesh = mesh;
	req.size = size;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &req,
		     "allocating %llu bytes of device memory on mesh %u",
		     (unsigned long long)size, mesh);
	if (r == 0) {
		if (handle)
			*handle = req.handle;
		if (dev_addr)
			*dev_addr = req.dev_addr;
	}
	return r;
}

KH_RT_EXPORT int kohaku_bo_free(kohaku_device *dev, uint32_t handle)
{
	struct drm_kohaku_bo_free req;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.handle = handle;
	return kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_FREE, &req,
			"freeing buffer object %u", handle);
}

KH_RT_EXPORT int kohaku_bo_info(kohaku_device *dev, uint32_t handle,
				struct kohaku_bo_info *out)
{
	struct drm_kohaku_bo_info req;
	int r;

	if (!dev || !out)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.handle = handle;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_INFO, &req,
		     "querying buffer object %u", handle);
	if (r == 0) {
		out->handle = handle;
		out->mesh = req.mesh;
		out->size = req.size;
		out->dev_addr = req.dev_addr;
	}
	return r;
}

static int bo_rw(struct kohaku_device *dev, unsigned long cmd,
		 uint32_t handle, uint64_t offset, const void *data,
		 uint64_t size)
{
	struct drm_kohaku_bo_rw req;
	bool w = cmd == DRM_IOCTL_KOHAKU_BO_WRITE;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.handle = handle;
	req.offset = offset;
	req.size = size;
	req.data_ptr = (uintptr_t)data;
	return kh_rt_ioctl(dev, cmd, &req,
			"%s %llu bytes at offset %llu of buffer object %u",
			w ? "writing" : "reading", (unsigned long long)size,
			(unsigned long long)offset, handle);
}

KH_RT_EXPORT int kohaku_bo_write(kohaku_device *dev, uint32_t handle,
				 uint64_t offset, const void *data,
				 uint64_t size)
{
	return bo_rw(dev, DRM_IOCTL_KOHAKU_BO_WRITE, handle, offset, data,
		     size);
}

KH_RT_EXPORT int kohaku_bo_read(kohaku_device *dev, uint32_t handle,
				uint64_t offset, void *data, uint64_t size)
{
	return bo_rw(dev, DRM_IOCTL_KOHAKU_BO_READ, handle, offset, data,
		     size);
}
