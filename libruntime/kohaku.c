// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libkohaku: the backend-neutral half.  Opening by environment, per-thread
 * last-error messages, and the typed calls, each a thin layer over the
 * ioctl that both backends implement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_units.h"

#define KH_EXPORT __attribute__((visibility("default")))

/* ---- small helpers ---- */

void kh_rt_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (!dst || !len)
		return;
	n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void kh_rt_errbuf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static const struct {
	int err;
	const char *name;
	const char *text;
} kh_errnos[] = {
	{ EPERM, "EPERM", "operation not permitted" },
	{ ENOENT, "ENOENT", "no such object (file, handle or job)" },
	{ EINTR, "EINTR", "interrupted" },
	{ EIO, "EIO", "the device did not answer as the protocol says" },
	{ ENXIO, "ENXIO", "no such device or address" },
	{ E2BIG, "E2BIG", "argument list too long" },
	{ EBADF, "EBADF", "bad file descriptor" },
	{ EAGAIN, "EAGAIN", "try again" },
	{ ENOMEM, "ENOMEM", "out of memory" },
	{ EACCES, "EACCES", "permission denied" },
	{ EFAULT, "EFAULT", "bad address (a pointer in the arguments is not valid memory)" },
	{ EBUSY, "EBUSY", "device or resource busy" },
	{ EEXIST, "EEXIST", "already exists" },
	{ ENODEV, "ENODEV", "no such device (or not a kohaku device)" },
	{ ENOTDIR, "ENOTDIR", "not a directory" },
	{ EISDIR, "EISDIR", "is a directory" },
	{ EINVAL, "EINVAL", "invalid argument" },
	{ ENOSPC, "ENOSPC", "no space left" },
	{ ENOTTY, "ENOTTY", "unknown command for this device" },
	{ ERANGE, "ERANGE", "out of range" },
	{ ENOSYS, "ENOSYS", "not implemented" },
	{ EPROTO, "EPROTO", "protocol (ABI version) mismatch" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "not supported by this device" },
	{ ETIMEDOUT, "ETIMEDOUT", "timed out" },
	{ ECANCELED, "ECANCELED", "cancelled (the job never ran)" },
	{ EOVERFLOW, "EOVERFLOW", "value too large" },
	{ EBADMSG, "EBADMSG", "the device sent a damaged reply" },
};

const char *kh_rt_errno_name(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(kh_errnos) / sizeof(kh_errnos[0]); i++)
		if (kh_errnos[i].err == err)
			return kh_errnos[i].name;
	return "E?";
}

KH_EXPORT const char *kohaku_strerror(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	if (err == 0)
		return "success";
	for (i = 0; i < sizeof(kh_errnos) / sizeof(kh_errnos[0]); i++)
		if (kh_errnos[i].err == err)
			return kh_errnos[i].text;
	return "unknown error";
}

KH_EXPORT const char *kohaku_job_status_name(unsigned int status)
{
	switch (status) {
	case KOHAKU_JOB_QUEUED:
		return "QUEUED";
	case KOHAKU_JOB_RUNNING:
		return "RUNNING";
	case KOHAKU_JOB_DONE:
		return "DONE";
	case KOHAKU_JOB_FAULT:
		return "FAULT";
	case KOHAKU_JOB_TIMEOUT:
		return "TIMEOUT";
	case KOHAKU_JOB_ABORTED:
		return "ABORTED";
	case KOHAKU_JOB_ERROR:
		return "ERROR";
	default:
		return "UNKNOWN";
	}
}

KH_EXPORT const char *kohaku_backend_name(enum kohaku_backend backend)
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

KH_EXPORT int kohaku_backend_parse(const char *s, enum kohaku_backend *out)
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

/* ---- per-device, per-thread last-error messages ---- */

static struct kh_rt_err_slot *err_slot(struct kohaku_device *dev, bool create)
{
	pthread_t self = pthread_self();
	struct kh_rt_err_slot *s;

	for (s = dev->err_slots; s; s = s->next)
		if (pthread_equal(s->thread, self))
			return s;
	if (!create)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->thread = self;
	s->next = dev->err_slots;
	dev->err_slots = s;
	return s;
}

void kh_rt_vseterr(struct kohaku_device *dev, const char *fmt, va_list ap)
{
	struct kh_rt_err_slot *s;

	pthread_mutex_lock(&dev->err_lock);
	s = err_slot(dev, true);
	if (s)
		vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	pthread_mutex_unlock(&dev->err_lock);
}

void kh_rt_seterr(struct kohaku_device *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kh_rt_vseterr(dev, fmt, ap);
	va_end(ap);
}

KH_EXPORT const char *kohaku_last_error(const kohaku_device *cdev)
{
	struct kohaku_device *dev = (struct kohaku_device *)cdev;
	struct kh_rt_err_slot *s;
	const char *msg = "";

	if (!dev)
		return "no device (NULL)";
	pthread_mutex_lock(&dev->err_lock);
	s = err_slot(dev, false);
	if (s)
		msg = s->msg;
	pthread_mutex_unlock(&dev->err_lock);
	return msg;
}

/* ---- the device object ---- */

struct kohaku_device *kh_rt_dev_alloc(enum kohaku_backend b)
{
	struct kohaku_device *dev = calloc(1, sizeof(*dev));

	if (!dev)
		return NULL;
	dev->backend = b;
	dev->fd = -1;
	pthread_mutex_init(&dev->err_lock, NULL);
	return dev;
}

void kh_rt_dev_free(struct kohaku_device *dev)
{
	struct kh_rt_err_slot *s, *n;

	if (!dev)
		return;
	for (s = dev->err_slots; s; s = n) {
		n = s->next;
		free(s);
	}
	pthread_mutex_destroy(&dev->err_lock);
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
			     "libkohaku's " "(ABI 0.1); install matching versions. " : "",
			     reason);
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

static void builtin_list(char *buf, size_t len)
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

KH_EXPORT int kohaku_open(enum kohaku_backend backend, const char *device,
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
		const char *b = env_nonempty("KOHAKU_BACKEND");

		bsrc = "KOHAKU_BACKEND";
		if (!b) {
			backend = KOHAKU_BACKEND_KERNEL;
			bsrc = "the default (KOHAKU_BACKEND is unset)";
		} else if (kohaku_backend_parse(b, &backend) < 0) {
			kh_rt_errbuf(err, errlen,
				     "KOHAKU_BACKEND='%s' is not a backend: set "
				     "KOHAKU_BACKEND=kernel for a kohaku device node "
				     "(/dev/accel/accelN) or KOHAKU_BACKEND=sim for "
				     "the simulated card in this process", b);
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

			builtin_list(names, sizeof(names));
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

KH_EXPORT int kohaku_reopen(kohaku_device *dev, kohaku_device **out)
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

KH_EXPORT void kohaku_close(kohaku_device *dev)
{
	if (!dev)
		return;
	if (dev->ops && dev->ops->close)
		dev->ops->close(dev);
	kh_rt_dev_free(dev);
}

KH_EXPORT enum kohaku_backend kohaku_device_backend(const kohaku_device *dev)
{
	return dev ? dev->backend : KOHAKU_BACKEND_ENV;
}

KH_EXPORT const char *kohaku_device_path(const kohaku_device *dev)
{
	return dev ? dev->path : "";
}

KH_EXPORT int kohaku_device_fd(const kohaku_device *dev)
{
	return dev ? dev->fd : -1;
}

KH_EXPORT int kohaku_list_devices(enum kohaku_backend backend,
				  struct kohaku_device_entry **list,
				  unsigned int *count, char *err, size_t errlen)
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
		const char *b = env_nonempty("KOHAKU_BACKEND");

		if (!b)
			backend = KOHAKU_BACKEND_KERNEL;
		else if (kohaku_backend_parse(b, &backend) < 0) {
			kh_rt_errbuf(err, errlen,
				     "KOHAKU_BACKEND='%s' is not a backend: use "
				     "kernel or sim", b);
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

KH_EXPORT void kohaku_free_device_list(struct kohaku_device_entry *list)
{
	free(list);
}

/* ---- the ioctl, with a message on failure ---- */

static const char *hint(unsigned long cmd, int r)
{
	switch (-r) {
	case EINVAL:
		return "The driver refused an argument (a nonzero flags, pad or "
		       "reserved field, a size, an offset, a mesh or a target "
		       "it does not accept).";
	case ENOENT:
		if (cmd == DRM_IOCTL_KOHAKU_WAIT)
			return "No such job in this open file: never submitted, "
			       "already waited for (a final status is reported "
			       "once), or another file's.";
		return "No such buffer object in this open file: never "
		       "created, already freed, or another file's.";
	case ENOTTY:
		return "The driver does not know this command: are libkohaku "
		       "and the driver from the same version?";
	case EFAULT:
		return "A pointer in the arguments does not point to memory "
		       "of the right size.";
	case ENOMEM:
		if (cmd == DRM_IOCTL_KOHAKU_BO_CREATE)
			return "The mesh has not that much free device memory "
			       "(`kohaku info` shows mem_free).";
		return "Out of memory.";
	case ENOSPC:
		return "No room left (device memory or the driver's tables).";
	case EBUSY:
	case EAGAIN:
		if (cmd == DRM_IOCTL_KOHAKU_SUBMIT)
			return "Too much outstanding work in this open file "
			       "(at most KOHAKU_MAX_JOBS unwaited jobs): wait "
			       "for jobs first.";
		return "The device is busy (a job holds the dispatcher, or a "
		       "node still owes an earlier reply): try again later.";
	case EBADMSG:
		return "A node's control reply arrived damaged and was "
		       "discarded; asking again normally works.";
	case ENODEV:
		return "The device or its mesh is not usable (`kohaku info` "
		       "shows the mesh state).";
	case EIO:
		return "The device did not answer as expected.";
	case ETIMEDOUT:
	case ETIME:
		return "The device did not finish in time.";
	case E2BIG:
		if (cmd == DRM_IOCTL_KOHAKU_SUBMIT)
			return "Too many instructions in one job, or a struct "
			       "longer than the driver's with nonzero bytes "
			       "past its end (built against a newer header?).";
		return "The struct is longer than the driver's and has "
		       "nonzero bytes past its end: built against a newer "
		       "kohaku_accel.h than the driver knows?";
	default:
		return "";
	}
}

int kh_rt_ioctl(struct kohaku_device *dev, unsigned long cmd, void *arg,
		const char *fmt, ...)
{
	unsigned long pos = dev->ops->log_pos ? dev->ops->log_pos(dev) : 0;
	char what[256], reason[640] = "";
	va_list ap;
	int r;

	r = dev->ops->ioctl(dev, cmd, arg);
	if (r >= 0)
		return r;
	if (r == -ETIMEDOUT && cmd == DRM_IOCTL_KOHAKU_WAIT)
		reason[0] = '\0';	/* normal: the job goes on */
	else if (dev->ops->reason)
		dev->ops->reason(dev, pos, reason, sizeof(reason));
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	kh_rt_seterr(dev, "%s failed: %s (%s). %s%s%s", what,
		     kohaku_strerror(r), kh_rt_errno_name(r), hint(cmd, r),
		     reason[0] ? " " : "", reason);
	return r;
}

KH_EXPORT int kohaku_ioctl(kohaku_device *dev, unsigned long cmd, void *arg)
{
	const char *name;

	if (!dev)
		return -EINVAL;
	name = kh_rt_cmd_name(cmd);
	if (name)
		return kh_rt_ioctl(dev, cmd, arg, "%s ioctl on %s", name, dev->path);
	return kh_rt_ioctl(dev, cmd, arg, "ioctl 0x%08lx on %s", cmd, dev->path);
}

/* ---- capabilities and nodes ---- */

KH_EXPORT int kohaku_get_info(kohaku_device *dev,
			      struct drm_kohaku_get_info *out)
{
	if (!dev || !out)
		return -EINVAL;
	*out = dev->info;
	return 0;
}

KH_EXPORT int kohaku_nodes(kohaku_device *dev, unsigned int flags,
			   struct drm_kohaku_node *nodes, unsigned int capacity,
			   unsigned int *count)
{
	struct drm_kohaku_nodes req;
	int r;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.flags = flags;
	req.capacity = capacity;
	req.node_size = sizeof(struct drm_kohaku_node);
	req.nodes_ptr = (uintptr_t)nodes;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req,
		     "reading the node table of %s", dev->path);
	if (r == 0 && count)
		*count = req.count;
	return r;
}

KH_EXPORT int kohaku_nodes_alloc(kohaku_device *dev, unsigned int flags,
				 struct drm_kohaku_node **nodes,
				 unsigned int *count)
{
	unsigned int cap, n = 0;
	int tries, r;

	if (!dev || !nodes || !count)
		return -EINVAL;
	*nodes = NULL;
	*count = 0;
	cap = dev->info.n_nodes;
	for (tries = 0; tries < 4; tries++) {
		struct drm_kohaku_node *buf =
			calloc(cap ? cap : 1, sizeof(*buf));

		if (!buf) {
			kh_rt_seterr(dev, "node table: out of host memory");
			return -ENOMEM;
		}
		r = kohaku_nodes(dev, flags, buf, cap, &n);
		if (r < 0) {
			free(buf);
			return r;
		}
		if (n <= cap) {
			*nodes = buf;
			*count = n;
			return 0;
		}
		free(buf);
		cap = n;
	}
	kh_rt_seterr(dev, "node table: its size kept changing");
	return -EIO;
}

KH_EXPORT const char *kohaku_cu_type_name(uint16_t cu_type, char *buf,
					  size_t len)
{
	unsigned char a = cu_type >> 8, b = cu_type & 0xff;

	if (!buf || !len)
		return "";
	if (cu_type == KH_CU_NULL)
		kh_rt_strlcpy(buf, "null", len);
	else if (a >= 0x20 && a < 0x7f && b >= 0x20 && b < 0x7f)
		snprintf(buf, len, "%c%c", a, b);
	else
		snprintf(buf, len, "0x%04x", cu_type);
	return buf;
}

/* ---- device memory ---- */

KH_EXPORT int kohaku_bo_create(kohaku_device *dev, unsigned int mesh,
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

KH_EXPORT int kohaku_bo_free(kohaku_device *dev, uint32_t handle)
{
	struct drm_kohaku_bo_free req;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.handle = handle;
	return kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_FREE, &req,
			"freeing buffer object %u", handle);
}

KH_EXPORT int kohaku_bo_info(kohaku_device *dev, uint32_t handle,
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

KH_EXPORT int kohaku_bo_write(kohaku_device *dev, uint32_t handle,
			      uint64_t offset, const void *data, uint64_t size)
{
	return bo_rw(dev, DRM_IOCTL_KOHAKU_BO_WRITE, handle, offset, data,
		     size);
}

KH_EXPORT int kohaku_bo_read(kohaku_device *dev, uint32_t handle,
			     uint64_t offset, void *data, uint64_t size)
{
	return bo_rw(dev, DRM_IOCTL_KOHAKU_BO_READ, handle, offset, data,
		     size);
}

/* ---- jobs ---- */

KH_EXPORT int kohaku_submit_ex(kohaku_device *dev,
			       const struct kohaku_submit_args *args,
			       uint64_t *job_id)
{
	struct drm_kohaku_program progs[KOHAKU_MAX_PROGRAMS];
	const struct kohaku_program *programs;
	struct drm_kohaku_submit req;
	unsigned int i, n_programs;
	int r;

	if (!dev)
		return -EINVAL;
	if (!args) {
		kh_rt_seterr(dev, "submitting a job: args is NULL");
		return -EFAULT;
	}
	programs = args->programs;
	n_programs = args->n_programs;
	if (n_programs == 0 || n_programs > KOHAKU_MAX_PROGRAMS) {
		kh_rt_seterr(dev, "submitting a job of %u programs: a job has "
			     "1 to %u programs (one per target node)",
			     n_programs, KOHAKU_MAX_PROGRAMS);
		return -EINVAL;
	}
	if (!programs) {
		kh_rt_seterr(dev, "submitting a job: programs is NULL");
		return -EFAULT;
	}
	memset(progs, 0, sizeof(progs));
	for (i = 0; i < n_programs; i++) {
		progs[i].mesh = programs[i].mesh;
		progs[i].x = programs[i].x;
		progs[i].y = programs[i].y;
		progs[i].txn = programs[i].txn;
		progs[i].n_insts = programs[i].n_insts;
		progs[i].insts_ptr = (uintptr_t)programs[i].insts;
	}
	memset(&req, 0, sizeof(req));
	req.n_programs = n_programs;
	req.programs_ptr = (uintptr_t)progs;
	req.program_size = sizeof(progs[0]);
	req.timeout_ms = args->timeout_ms;
	req.in_syncobjs_ptr = (uintptr_t)args->in_syncobjs;
	req.n_in_syncobjs = args->n_in_syncobjs;
	req.out_syncobj = args->out_syncobj;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, &req,
			"submitting a job of %u program%s (first target mesh %u "
			"(%u,%u), %u instruction%s%s)", n_programs,
			n_programs == 1 ? "" : "s", programs[0].mesh,
			programs[0].x, programs[0].y, programs[0].n_insts,
			programs[0].n_insts == 1 ? "" : "s",
			args->n_in_syncobjs || args->out_syncobj ? ", with fences" : "");
	if (r == 0 && job_id)
		*job_id = req.job_id;
	return r;
}

KH_EXPORT int kohaku_submit(kohaku_device *dev,
			    const struct kohaku_program *programs,
			    unsigned int n_programs, uint32_t timeout_ms,
			    uint64_t *job_id)
{
	struct kohaku_submit_args a = {
		.programs = programs,
		.n_programs = n_programs,
		.timeout_ms = timeout_ms,
	};

	return kohaku_submit_ex(dev, &a, job_id);
}

KH_EXPORT const char *kohaku_job_describe(const struct kohaku_job_status *st,
					  char *buf, size_t len)
{
	char where[64];

	if (!buf || !len)
		return "";
	if (!st) {
		kh_rt_strlcpy(buf, "no status", len);
		return buf;
	}
	if (st->fault_mesh == KOHAKU_COORD_NONE ||
	    (st->status == KOHAKU_JOB_FAULT &&
	     !(st->fault_flags & KOHAKU_FAULT_NODE_KNOWN)))
		snprintf(where, sizeof(where), "an unknown node");
	else
		snprintf(where, sizeof(where), "mesh %u node (%u,%u)",
			 st->fault_mesh, st->fault_x, st->fault_y);
	switch (st->status) {
	case KOHAKU_JOB_DONE:
		snprintf(buf, len, "DONE: every program retired cleanly in "
			 "%llu ns of device time",
			 (unsigned long long)st->device_ns);
		break;
	case KOHAKU_JOB_FAULT:
		if (st->fault_flags & KOHAKU_FAULT_CODE_KNOWN)
			snprintf(buf, len, "FAULT: %u instruction%s raised "
				 "SIG_FAULT; the unit at %s with code %u "
				 "(unit-defined; for an SX unit 1 = unknown opcode, "
				 "2 = x or y not 32-byte aligned)", st->n_faults,
				 st->n_faults == 1 ? "" : "s", where,
				 st->fault_code);
		else
			snprintf(buf, len, "FAULT: %u instruction%s raised "
				 "SIG_FAULT, on %s; the fault code is not known "
				 "(later signals of the node overwrote it: the "
				 "card keeps only each node's last signal)",
				 st->n_faults, st->n_faults == 1 ? "" : "s", where);
		break;
	case KOHAKU_JOB_TIMEOUT:
		snprintf(buf, len, "TIMEOUT: the job did not finish within its "
			 "limit (device time); %s is marked hung (see "
			 "`kohaku nodes`)", where);
		break;
	case KOHAKU_JOB_ABORTED:
		snprintf(buf, len, "ABORTED: the job never ran because its mesh "
			 "is not usable (see `kohaku info`)");
		break;
	case KOHAKU_JOB_ERROR:
		snprintf(buf, len, "ERROR: the device answered out of protocol "
			 "(at %s); the driver log has the details", where);
		break;
	case KOHAKU_JOB_QUEUED:
	case KOHAKU_JOB_RUNNING:
		snprintf(buf, len, "%s: not finished yet",
			 kohaku_job_status_name(st->status));
		break;
	default:
		snprintf(buf, len, "unknown job status %u", st->status);
		break;
	}
	return buf;
}

KH_EXPORT int kohaku_wait(kohaku_device *dev, uint64_t job_id,
			  uint32_t timeout_ms, struct kohaku_job_status *st)
{
	struct drm_kohaku_wait req;
	int r;

	if (!dev)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.job_id = job_id;
	req.timeout_ms = timeout_ms;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &req,
		     "waiting %u ms for job %llu", timeout_ms,
		     (unsigned long long)job_id);
	if (r < 0 && r != -ETIMEDOUT)
		return r;
	if (st) {
		/* on ETIMEDOUT: where the job is (QUEUED or RUNNING) */
		st->status = req.status;
		st->fault_code = req.fault_code;
		st->fault_mesh = req.fault_mesh;
		st->fault_x = req.fault_x;
		st->fault_y = req.fault_y;
		st->fault_flags = req.fault_flags;
		st->n_faults = req.n_faults;
		st->device_ns = req.device_ns;
	}
	if (r < 0)
		return r;
	if (req.status != KOHAKU_JOB_DONE) {
		struct kohaku_job_status s = {
			.status = req.status, .fault_code = req.fault_code,
			.fault_mesh = req.fault_mesh, .fault_x = req.fault_x,
			.fault_y = req.fault_y, .fault_flags = req.fault_flags,
			.n_faults = req.n_faults, .device_ns = req.device_ns,
		};
		char d[512];

		kh_rt_seterr(dev, "job %llu: %s", (unsigned long long)job_id,
			     kohaku_job_describe(&s, d, sizeof(d)));
	}
	return 0;
}

KH_EXPORT int kohaku_run(kohaku_device *dev,
			 const struct kohaku_program *programs,
			 unsigned int n_programs, uint32_t timeout_ms,
			 struct kohaku_job_status *st)
{
	struct kohaku_job_status s;
	uint32_t limit = timeout_ms ? timeout_ms : KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	uint64_t job;
	int r, i;

	memset(&s, 0, sizeof(s));
	r = kohaku_submit(dev, programs, n_programs, timeout_ms, &job);
	if (r < 0)
		return r;
	/* the job's own limit ends it; allow the driver a few rounds */
	for (i = 0; i < 4; i++) {
		r = kohaku_wait(dev, job, limit + 1000, &s);
		if (r != -ETIMEDOUT)
			break;
	}
	if (r == -ETIMEDOUT) {
		kh_rt_seterr(dev, "job %llu: still not final after 4 waits past "
			     "its %u ms limit; the driver did not end it",
			     (unsigned long long)job, limit);
		return r;
	}
	if (r < 0)
		return r;
	if (st)
		*st = s;
	switch (s.status) {
	case KOHAKU_JOB_DONE:
		return 0;
	case KOHAKU_JOB_TIMEOUT:
		return -ETIMEDOUT;
	case KOHAKU_JOB_ABORTED:
		return -ECANCELED;
	default:
		return -EIO;
	}
}
