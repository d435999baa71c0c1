// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libkohaku's devices, whatever the backend: choosing the backend and the
 * device (by the caller or the environment), the device object, the
 * GET_INFO handshake every open ends with, open, reopen and close, and
 * listing the devices.  The backends (backend_kernel.c, inproc/) fill in
 * the object; every open error says how backend and device were chosen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/* ---- backends by name ---- */

KH_RT_EXPORT const char *kohaku_backend_name(enum kohaku_backend backend)
{
	switch (backend) {
	case KOHAKU_BACKEND_KERNEL:
		return "kernel";
	case KOHAKU_BACKEND_SIM:
		return "sim";
	case KOHAKU_BACKEND_ENV:
		return "env";
	}
	return "?";
}

KH_RT_EXPORT int kohaku_backend_parse(const char *s, enum kohaku_backend *out)
{
	if (!s || !out)
		return -EINVAL;
	if (!strcmp(s, "kernel")) {
		*out = KOHAKU_BACKEND_KERNEL;
		return 0;
	}
	if (!strcmp(s, "sim")) {
		*out = KOHAKU_BACKEND_SIM;
		return 0;
	}
	return -EINVAL;
}

/* ---- the device object, and the handshake that ends every open ---- */

struct kohaku_device *kh_rt_dev_alloc(enum kohaku_backend b)
{
	struct kohaku_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->backend = b;
	dev->fd = -1;
	kh_rt_err_init(dev);
	return dev;
}

void kh_rt_dev_free(struct kohaku_device *dev)
{
	if (!dev)
		return;
	kh_rt_err_fini(dev);
	free(dev);
}

int kh_rt_dev_handshake(struct kohaku_device *dev, char *err, size_t errlen,
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

/* ---- open, list ---- */

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * The backend KOHAKU_BACKEND names, or kernel when it is unset; *how says
 * which, for messages.  -EINVAL when it names no backend.
 */
static int env_backend(enum kohaku_backend *backend, const char **how)
{
	const char *b = env_nonempty("KOHAKU_BACKEND");

	if (!b) {
		*backend = KOHAKU_BACKEND_KERNEL;
		*how = "the default (KOHAKU_BACKEND is unset)";
		return 0;
	}
	*how = "KOHAKU_BACKEND";
	return kohaku_backend_parse(b, backend);
}

/* "saxpy, sx_null_2x2, ...": the built-in descriptions, for messages */
void kh_rt_builtin_list(char *buf, size_t len)
{
	const char *const *names = kohaku_sim_builtin_names();
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; names && names[i] && off + 1 < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				 names[i]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

KH_RT_EXPORT int kohaku_open(enum kohaku_backend backend, const char *device,
			     kohaku_device **out, char *err, size_t errlen)
{
	const char *bsrc = "the caller", *dsrc = "the caller";
	char msg[KOHAKU_ERRMSG_MAX];
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		kh_rt_errbuf(err, errlen, "kohaku_open: out is NULL");
		return -EINVAL;
	}
	*out = NULL;
	if (backend == KOHAKU_BACKEND_ENV) {
		if (env_backend(&backend, &bsrc) < 0) {
			kh_rt_errbuf(err, errlen,
				     "KOHAKU_BACKEND='%s' is not a backend: set "
				     "KOHAKU_BACKEND=kernel for a kohaku device node "
				     "(/dev/accel/accelN) or KOHAKU_BACKEND=sim for "
				     "the simulated card in this process",
				     getenv("KOHAKU_BACKEND"));
			return -EINVAL;
		}
	} else if (backend != KOHAKU_BACKEND_KERNEL &&
		   backend != KOHAKU_BACKEND_SIM) {
		kh_rt_errbuf(err, errlen, "kohaku_open: unknown backend %d",
			     (int)backend);
		return -EINVAL;
	}
	if (!device || !*device) {
		device = env_nonempty("KOHAKU_DEVICE");
		dsrc = device ? "KOHAKU_DEVICE" : NULL;
	}

	msg[0] = '\0';
	if (backend == KOHAKU_BACKEND_SIM) {
		if (!device) {
			char names[256];

			kh_rt_builtin_list(names, sizeof(names));
			kh_rt_errbuf(err, errlen,
				     "the sim backend (chosen by %s) needs a card "
				     "description and none was given: set "
				     "KOHAKU_DEVICE (or the CLI's --map) to a "
				     "built-in name (%s) or a description file",
				     bsrc, names);
			return -EINVAL;
		}
		r = kh_rt_sim_open(device, out, msg, sizeof(msg));
	} else {
		r = kh_rt_kernel_open(device, out, msg, sizeof(msg));
	}
	if (r < 0) {
		char ctx[256];

		if (dsrc && strchr(device, '\n'))
			snprintf(ctx, sizeof(ctx),
				 " [backend %s chosen by %s; a description text "
				 "of %zu bytes from %s]", kohaku_backend_name(backend),
				 bsrc, strlen(device), dsrc);
		else if (dsrc)
			snprintf(ctx, sizeof(ctx),
				 " [backend %s chosen by %s; device '%s' from %s]",
				 kohaku_backend_name(backend), bsrc, device, dsrc);
		else
			snprintf(ctx, sizeof(ctx), " [backend %s chosen by %s]",
				 kohaku_backend_name(backend), bsrc);
		kh_rt_errbuf(err, errlen, "%s%s", msg, ctx);
		*out = NULL;
	}
	return r;
}

KH_RT_EXPORT int kohaku_reopen(kohaku_device *dev, kohaku_device **out)
{
	struct kohaku_device *nd;
	char err[KOHAKU_ERRMSG_MAX];
	int r;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!dev)
		return -EINVAL;
	nd = kh_rt_dev_alloc(dev->backend);
	if (!nd) {
		kh_rt_seterr(dev, "reopen: out of host memory");
		return -ENOMEM;
	}
	nd->ops = dev->ops;
	memcpy(nd->path, dev->path, sizeof(nd->path));
	r = dev->ops->reopen(dev, nd);
	if (r < 0) {
		kh_rt_seterr(dev, "%s", kohaku_last_error(nd));
		kh_rt_dev_free(nd);
		return r;
	}
	r = kh_rt_dev_handshake(nd, err, sizeof(err), nd->path);
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
	kh_rt_dev_free(dev);
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

KH_RT_EXPORT int kohaku_list_devices(enum kohaku_backend backend,
				     struct kohaku_device_entry **list,
				     unsigned int *count, char *err,
				     size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	if (!list || !count) {
		kh_rt_errbuf(err, errlen, "kohaku_list_devices: NULL output");
		return -EINVAL;
	}
	*list = NULL;
	*count = 0;
	if (backend == KOHAKU_BACKEND_ENV) {
		const char *how;

		if (env_backend(&backend, &how) < 0) {
			kh_rt_errbuf(err, errlen,
				     "KOHAKU_BACKEND='%s' is not a backend: use "
				     "kernel or sim", getenv("KOHAKU_BACKEND"));
			return -EINVAL;
		}
	}
	if (backend == KOHAKU_BACKEND_SIM)
		return kh_rt_sim_list(env_nonempty("KOHAKU_DEVICE"), list,
				      count, err, errlen);
	if (backend == KOHAKU_BACKEND_KERNEL)
		return kh_rt_kernel_list(list, count, err, errlen);
	kh_rt_errbuf(err, errlen, "kohaku_list_devices: unknown backend %d",
		     (int)backend);
	return -EINVAL;
}

KH_RT_EXPORT void kohaku_free_device_list(struct kohaku_device_entry *list)
{
	free(list);
}
