// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Buffer objects: device memory of one mesh, owned by the open file, read
 * and written at any offset (the driver merges partial 32-byte words).
 */
#include <errno.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_flit.h"

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

KH_RT_EXPORT int kohaku_bo_create_at(kohaku_device *dev, unsigned int mesh,
				     uint64_t dev_addr, uint64_t size,
				     uint32_t *handle)
{
	struct drm_kohaku_bo_create req;
	uint64_t mem_size = 0, end;
	int r;

	if (!dev)
		return -EINVAL;
	if (!(dev->info.caps & KOHAKU_CAP_BO_FIXED)) {
		kh_rt_seterr(dev, "allocating %llu bytes at device address 0x%llx: "
			     "the driver (ABI %u.%u) places no buffer at a fixed "
			     "address (ABI 0.9, KOHAKU_CAP_BO_FIXED): update it",
			     (unsigned long long)size, (unsigned long long)dev_addr,
			     KOHAKU_ABI_VERSION_MAJOR(dev->info.abi_version),
			     KOHAKU_ABI_VERSION_MINOR(dev->info.abi_version));
		return -EOPNOTSUPP;
	}
	memset(&req, 0, sizeof(req));
	req.flags = KOHAKU_BO_FIXED;
	req.mesh = mesh;
	req.size = size;
	req.dev_addr = dev_addr;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &req,
			"allocating %llu bytes at device address 0x%llx on mesh %u",
			(unsigned long long)size, (unsigned long long)dev_addr, mesh);
	if (r == 0) {
		if (handle)
			*handle = req.handle;
		return 0;
	}
	/* the rule, in words: the driver's own reason goes to its debug log */
	if (mesh < KOHAKU_MAX_MESHES)
		mem_size = dev->info.mesh[mesh].mem_size;
	end = dev_addr + ((size + KOHAKU_BO_ALIGN - 1) & ~(uint64_t)(KOHAKU_BO_ALIGN - 1));
	if (r == -EBUSY)
		kh_rt_seterr(dev, "allocating %llu bytes at device address 0x%llx "
			     "on mesh %u: some of 0x%llx..0x%llx is taken, by a "
			     "buffer of this or another open file (or the driver's "
			     "firmware copy), or by memory freed while jobs that "
			     "may use it were unfinished, reused once they are "
			     "(EBUSY)", (unsigned long long)size,
			     (unsigned long long)dev_addr, mesh,
			     (unsigned long long)dev_addr, (unsigned long long)end);
	else if (r == -EINVAL && dev_addr % KOHAKU_BO_ALIGN)
		kh_rt_seterr(dev, "allocating at device address 0x%llx: not a "
			     "multiple of %u (KOHAKU_BO_ALIGN) (EINVAL)",
			     (unsigned long long)dev_addr, KOHAKU_BO_ALIGN);
	else if (r == -EINVAL && dev_addr >> KH_MADDR_MESH_SHIFT != mesh)
		kh_rt_seterr(dev, "allocating at device address 0x%llx on mesh "
			     "%u: the address is not on that mesh (bits 36 and "
			     "up must be the mesh: 0x%llx..) (EINVAL)",
			     (unsigned long long)dev_addr, mesh,
			     (unsigned long long)KH_MADDR(mesh, 0));
	else if (r == -EINVAL && size && mem_size &&
		 end - KH_MADDR(mesh, 0) > mem_size)
		kh_rt_seterr(dev, "allocating %llu bytes at device address 0x%llx "
			     "on mesh %u: the range ends past the memory the "
			     "driver manages there (0x%llx..0x%llx) (EINVAL)",
			     (unsigned long long)size, (unsigned long long)dev_addr,
			     mesh, (unsigned long long)KH_MADDR(mesh, 0),
			     (unsigned long long)KH_MADDR(mesh, mem_size));
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
				struct kohaku_bo_info *out, size_t size)
{
	struct drm_kohaku_bo_info req;
	struct kohaku_bo_info info;
	int r;

	if (!dev || !out || !size)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.handle = handle;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_INFO, &req,
		     "querying buffer object %u", handle);
	if (r == 0) {
		memset(&info, 0, sizeof(info));
		info.handle = handle;
		info.mesh = req.mesh;
		info.size = req.size;
		info.dev_addr = req.dev_addr;
		kh_rt_copy_out(out, size, &info, sizeof(info));
	}
	return r;
}

/* libkohaku 0.1's kohaku_bo_info (version node KOHAKU_0) */
int kh_rt_bo_info_v0(kohaku_device *dev, uint32_t handle,
		     struct kohaku_bo_info *out);
int kh_rt_bo_info_v0(kohaku_device *dev, uint32_t handle,
		     struct kohaku_bo_info *out)
{
	return kohaku_bo_info(dev, handle, out, KH_RT_V0_BO_INFO_SIZE);
}
KH_RT_SYMVER(kh_rt_bo_info_v0, kohaku_bo_info, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_bo_info, KOHAKU_0.2);

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
