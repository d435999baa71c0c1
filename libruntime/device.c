// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libkohaku's device object, whatever the backend: allocated here, filled
 * by the backend's open (struct kh_rt_backend), and ended with the
 * GET_INFO handshake every open ends with (kh_rt_dev_open); reopened,
 * closed, and asked its backend, path and fd.  The backends call this
 * file (to open what they list) and it calls them only through the table
 * and the ops, so the calls go one way.  Choosing the backend and the
 * device is backend.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/* ---- the object, and the handshake that ends every open ---- */

static struct kohaku_device *dev_alloc(enum kohaku_backend b)
{
	struct kohaku_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->backend = b;
	dev->fd = -1;
	kh_rt_err_init(dev);
	return dev;
}

static void dev_free(struct kohaku_device *dev)
{
	if (!dev)
		return;
	kh_rt_err_fini(dev);
	free(dev);
}

/* GET_INFO and the ABI check; on failure writes err and returns -errno */
static int handshake(struct kohaku_device *dev, char *err, size_t errlen,
		     const char *what)
{
	struct drm_kohaku_get_info info;
	char reason[512] = "";
	unsigned long pos = dev->ops->log_pos ? dev->ops->log_pos(dev) : 0;
	unsigned int major;
	int r;

	memset(&info, 0, sizeof(info));
	r = dev->ops->ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &info);
	if (r < 0) {
		if (dev->ops->reason)
			dev->ops->reason(dev, pos, reason, sizeof(reason));
		kh_rt_errbuf(err, errlen,
			     "%s: GET_INFO failed: %s (%s). %s%s",
			     what, kohaku_strerror(r), kh_rt_errno_name(r),
			     r == -EINVAL || r == -ENOTTY ?
			     "The driver does not accept this library's GET_INFO: "
			     "it probably speaks another kohaku ABI than "
			     "libkohaku's (ABI " KH_RT_STR(KOHAKU_ABI_MAJOR) "."
			     KH_RT_STR(KOHAKU_ABI_MINOR) "); install matching "
			     "versions. " : "", reason);
		return r;
	}
	major = KOHAKU_ABI_VERSION_MAJOR(info.abi_version);
	if (major != KOHAKU_ABI_MAJOR) {
		kh_rt_errbuf(err, errlen,
			     "%s: the driver speaks kohaku ABI %u.%u, this "
			     "libkohaku speaks %u.%u: the major versions differ, "
			     "so nothing else is attempted. Install a libkohaku "
			     "and a kohaku driver of the same ABI major.",
			     what, major, info.abi_version & 0xffff,
			     KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
		return -EPROTO;
	}
	dev->info = info;
	return 0;
}

int kh_rt_dev_open(const struct kh_rt_backend *be, const char *device,
		   struct kohaku_device **out, char *err, size_t errlen)
{
	struct kohaku_device *dev = dev_alloc(be->id);
	int r;

	*out = NULL;
	if (!dev) {
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	r = be->open(device, dev, err, errlen);
	if (r == 0)
		r = handshake(dev, err, errlen, dev->path);
	if (r < 0) {
		kohaku_close(dev);
		return r;
	}
	*out = dev;
	return 0;
}

KH_RT_EXPORT int kohaku_reopen(kohaku_device *dev, kohaku_device **out)
{
	return kh_rt_reopen_as(dev, dev ? !dev->unprivileged : true, out);
}

int kh_rt_reopen_as(kohaku_device *dev, bool admin, kohaku_device **out)
{
	struct kohaku_device *nd;
	char err[KOHAKU_ERRMSG_MAX];
	int r;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!dev)
		return -EINVAL;
	nd = dev_alloc(dev->backend);
	if (!nd) {
		kh_rt_seterr(dev, "reopen: out of host memory");
		return -ENOMEM;
	}
	nd->ops = dev->ops;
	nd->unprivileged = !admin;
	memcpy(nd->path, dev->path, sizeof(nd->path));
	r = dev->ops->reopen(dev, nd);
	if (r < 0) {
		kh_rt_seterr(dev, "%s", kohaku_last_error(nd));
		dev_free(nd);
		return r;
	}
	r = handshake(nd, err, sizeof(err), nd->path);
	if (r < 0) {
		kh_rt_seterr(dev, "reopen: %s", err);
		kohaku_close(nd);
		return r;
	}
	*out = nd;
	return 0;
}

KH_RT_EXPORT void kohaku_close(kohaku_device *dev)
{
	if (!dev)
		return;
	if (dev->ops && dev->ops->close)
		dev->ops->close(dev);
	dev_free(dev);
}

KH_RT_EXPORT enum kohaku_backend kohaku_device_backend(const kohaku_device *dev)
{
	return dev ? dev->backend : KOHAKU_BACKEND_ENV;
}

KH_RT_EXPORT const char *kohaku_device_path(const kohaku_device *dev)
{
	return dev ? dev->path : "";
}

KH_RT_EXPORT int kohaku_device_fd(const kohaku_device *dev)
{
	return dev ? dev->fd : -1;
}
