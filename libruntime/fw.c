// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Firmware for the POOL units: load an image (from memory or a file),
 * what runs now, and why a load failed, in words.  FW_LOAD reports its
 * reason code on failure too; the message names it and the driver's own
 * text (the field and the values that broke the rule).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"
#include "kohaku/kh_fw.h"

static const char *const reason_text[KOHAKU_FW_ERR_MAX + 1] = {
	[KOHAKU_FW_OK] = "loaded",
	[KOHAKU_FW_ERR_TRUNCATED] = "the image is truncated",
	[KOHAKU_FW_ERR_TOO_BIG] = "the image is too large",
	[KOHAKU_FW_ERR_MAGIC] = "not a Kohaku firmware image (bad magic)",
	[KOHAKU_FW_ERR_FORMAT] = "an image format this driver cannot read",
	[KOHAKU_FW_ERR_CRC] = "the image's CRC-32 does not match: the file is damaged",
	[KOHAKU_FW_ERR_HEADER] = "a header field breaks a rule",
	[KOHAKU_FW_ERR_API] = "the firmware speaks another API major than the driver",
	[KOHAKU_FW_ERR_SECTION] = "a section breaks a rule",
	[KOHAKU_FW_ERR_RANGE] = "a section lies outside its memory or the file",
	[KOHAKU_FW_ERR_SECTION_CRC] = "a section's CRC-32 does not match",
	[KOHAKU_FW_ERR_OVERLAP] = "two sections overlap, or one writes the boot mailbox",
	[KOHAKU_FW_ERR_ENTRY] = "the entry point is not inside IRAM code",
	[KOHAKU_FW_ERR_NO_UNITS] = "the device has no POOL unit",
	[KOHAKU_FW_ERR_BUSY] = "a job is queued or running on a POOL unit",
	[KOHAKU_FW_ERR_LOAD] = "the unit refused or lost the load",
	[KOHAKU_FW_ERR_TIMEOUT] = "the firmware never reported READY",
	[KOHAKU_FW_ERR_TRAP] = "a core trapped while booting",
	[KOHAKU_FW_ERR_VERSION] = "the firmware published another version than its image",
};

KH_RT_EXPORT const char *kohaku_fw_reason(unsigned int reason)
{
	return reason <= KOHAKU_FW_ERR_MAX && reason_text[reason] ?
	       reason_text[reason] : "unknown reason";
}

KH_RT_EXPORT const char *kohaku_fw_state_name(unsigned int state)
{
	switch (state) {
	case KOHAKU_FW_STATE_NONE:
		return "none";
	case KOHAKU_FW_STATE_ABSENT:
		return "absent";
	case KOHAKU_FW_STATE_BOOTING:
		return "booting";
	case KOHAKU_FW_STATE_RUNNING:
		return "running";
	case KOHAKU_FW_STATE_FAILED:
		return "failed";
	}
	return "?";
}

KH_RT_EXPORT int kohaku_fw_load(kohaku_device *dev, const void *image,
				size_t size, unsigned int flags,
				struct drm_kohaku_fw_load *out, size_t out_size)
{
	struct drm_kohaku_fw_load a;
	const char *saved;
	char *msg;
	int r;

	if (!dev || (out && !out_size))
		return -EINVAL;
	if (!image && size) {
		kh_rt_seterr(dev, "kohaku_fw_load: image is NULL");
		return -EINVAL;
	}
	if (size > KH_FW_MAX_IMAGE) {
		kh_rt_seterr(dev, "firmware refused: %s: %zu bytes; a firmware image is at most %u",
			     kohaku_fw_reason(KOHAKU_FW_ERR_TOO_BIG), size,
			     KH_FW_MAX_IMAGE);
		if (out) {
			memset(&a, 0, sizeof(a));
			a.reason = KOHAKU_FW_ERR_TOO_BIG;
			a.fail_mesh = a.fail_x = a.fail_y = KOHAKU_COORD_NONE;
			kh_rt_copy_out(out, out_size, &a, sizeof(a));
		}
		return -E2BIG;
	}
	memset(&a, 0, sizeof(a));
	a.image_ptr = (uintptr_t)image;
	a.image_size = size;
	a.flags = flags;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a,
			"loading firmware (%zu bytes) on %s", size, dev->path);
	if (out)
		kh_rt_copy_out(out, out_size, &a, sizeof(a));
	if (r < 0 && a.reason) {
		/* put the reason in front of the generic message */
		saved = kohaku_last_error(dev);
		msg = strdup(saved ? saved : "");
		if (msg) {
			if (a.fail_mesh != KOHAKU_COORD_NONE)
				kh_rt_seterr(dev, "firmware refused: %s (POOL unit %u:(%u,%u)). %s",
					     kohaku_fw_reason(a.reason), a.fail_mesh,
					     a.fail_x, a.fail_y, msg);
			else
				kh_rt_seterr(dev, "firmware refused: %s. %s",
					     kohaku_fw_reason(a.reason), msg);
			free(msg);
		}
	}
	return r;
}

/*
 * An image is a regular file.  O_NONBLOCK: a FIFO nobody writes would
 * otherwise hang open(2) before fstat could refuse it; for a regular file
 * the flag does nothing.  A directory read through stdio looked like a
 * file of LONG_MAX bytes ("/etc: 9223372036854775807 bytes"), and
 * /dev/zero like an empty one, so neither is read: each is refused by
 * what it is.
 */
KH_RT_EXPORT int kohaku_fw_load_file(kohaku_device *dev, const char *path,
				     unsigned int flags,
				     struct drm_kohaku_fw_load *out,
				     size_t out_size)
{
	unsigned char *buf;
	struct stat st;
	size_t n = 0;
	int fd, r;

	if (!dev || !path || (out && !out_size))
		return -EINVAL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		kh_rt_seterr(dev, "cannot open firmware image %s: %s", path,
			     strerror(-r));
		return r;
	}
	if (fstat(fd, &st)) {
		r = -errno;
		close(fd);
		kh_rt_seterr(dev, "cannot read firmware image %s: %s", path,
			     strerror(-r));
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		kh_rt_seterr(dev, "%s is %s, not a firmware image: an image is a "
			     "regular file (build/firmware/pool.fw, "
			     "/lib/firmware/kohaku/pool.fw)", path,
			     kh_rt_file_kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((unsigned long long)st.st_size > KH_FW_MAX_IMAGE) {
		close(fd);
		kh_rt_seterr(dev, "%s: %lld bytes; a firmware image is at most %u",
			     path, (long long)st.st_size, KH_FW_MAX_IMAGE);
		return -E2BIG;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (n < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + n, (size_t)st.st_size - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			r = k < 0 ? -errno : -EIO;
			close(fd);
			free(buf);
			kh_rt_seterr(dev, "cannot read firmware image %s: %s",
				     path, k < 0 ? strerror(-r) :
				     "it ended early (changed while read?)");
			return r;
		}
		n += (size_t)k;
	}
	close(fd);
	r = kohaku_fw_load(dev, buf, n, flags, out, out_size);
	free(buf);
	return r;
}

/* libkohaku 0.1's kohaku_fw_load (version node KOHAKU_0) */
int kh_rt_fw_load_v0(kohaku_device *dev, const void *image, size_t size,
		       unsigned int flags, struct drm_kohaku_fw_load *out);
int kh_rt_fw_load_v0(kohaku_device *dev, const void *image, size_t size,
		       unsigned int flags, struct drm_kohaku_fw_load *out)
{
	return kohaku_fw_load(dev, image, size, flags, out,
			      KH_RT_V0_FW_LOAD_SIZE);
}
KH_RT_SYMVER(kh_rt_fw_load_v0, kohaku_fw_load, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_fw_load, KOHAKU_0.2);

/* libkohaku 0.1's kohaku_fw_load_file (version node KOHAKU_0) */
int kh_rt_fw_load_file_v0(kohaku_device *dev, const char *path,
			    unsigned int flags, struct drm_kohaku_fw_load *out);
int kh_rt_fw_load_file_v0(kohaku_device *dev, const char *path,
			    unsigned int flags, struct drm_kohaku_fw_load *out)
{
	return kohaku_fw_load_file(dev, path, flags, out,
				   KH_RT_V0_FW_LOAD_SIZE);
}
KH_RT_SYMVER(kh_rt_fw_load_file_v0, kohaku_fw_load_file, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_fw_load_file, KOHAKU_0.2);

static int get_param(kohaku_device *dev, uint32_t param, uint64_t *v)
{
	struct drm_kohaku_get_param p;
	int r;

	memset(&p, 0, sizeof(p));
	p.param = param;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &p,
			"GET_PARAM %u on %s", param, dev->path);
	if (!r)
		*v = p.value;
	return r;
}

KH_RT_EXPORT int kohaku_fw_info(kohaku_device *dev, struct kohaku_fw_info *out,
				size_t size)
{
	struct kohaku_fw_info info;
	uint64_t v[5];
	static const uint32_t params[5] = {
		KOHAKU_PARAM_FW_UNITS, KOHAKU_PARAM_FW_RUNNING,
		KOHAKU_PARAM_FW_VERSION, KOHAKU_PARAM_FW_API,
		KOHAKU_PARAM_FW_DRIVER_API,
	};
	unsigned int i;
	int r;

	if (!dev || !out || !size)
		return -EINVAL;
	memset(out, 0, size);
	memset(&info, 0, sizeof(info));
	for (i = 0; i < 5; i++) {
		r = get_param(dev, params[i], &v[i]);
		if (r)
			return r;
	}
	info.units = v[0];
	info.running = v[1];
	info.fw_version = v[2];
	info.fw_api = v[3];
	info.driver_api = v[4];
	if (dev->ops->fw_status)
		dev->ops->fw_status(dev, info.status, sizeof(info.status));
	kh_rt_copy_out(out, size, &info, sizeof(info));
	return 0;
}

/* libkohaku 0.1's kohaku_fw_info (version node KOHAKU_0) */
int kh_rt_fw_info_v0(kohaku_device *dev, struct kohaku_fw_info *out);
int kh_rt_fw_info_v0(kohaku_device *dev, struct kohaku_fw_info *out)
{
	return kohaku_fw_info(dev, out, KH_RT_V0_FW_INFO_SIZE);
}
KH_RT_SYMVER(kh_rt_fw_info_v0, kohaku_fw_info, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_fw_info, KOHAKU_0.2);
