// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The in-process host's drm_ioctl(): what the kernel's DRM core does for
 * kohaku.ko, done once here for the in-process backend.
 *
 *  - the driver range: the ABI's size rule exactly as drm_ioctl() applies
 *    it (a shorter struct zero-extended on input and truncated on output,
 *    a longer one taken when its tail is zero, the struct copied back
 *    whatever the handler returned), then the core's handler;
 *  - the DRM core's syncobj commands (DRM_IOCTL_SYNCOBJ_CREATE, _DESTROY,
 *    _WAIT, _RESET, _SIGNAL, _HANDLE_TO_FD with EXPORT_SYNC_FILE) on the
 *    file's own syncobjs, with the kernel's errors;
 *  - anything else of the DRM type: ENOTTY, as for a core ioctl the
 *    in-process host does not offer.
 */
#include <stdlib.h>
#include <time.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kh_core.h"
#include "kh_os_fence.h"
#include "inproc_drm.h"
#include "rt_internal.h"

#define KH_INPROC_MAX_HANDLES	4096

static int inproc_syncobj_create(struct drm_file *file, void *arg)
{
	struct drm_syncobj_create *a = arg;

	if (a->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -EINVAL;
	return kh_os_syncobj_create(file, a->flags & DRM_SYNCOBJ_CREATE_SIGNALED,
				 &a->handle);
}

static int inproc_syncobj_destroy(struct drm_file *file, void *arg)
{
	struct drm_syncobj_destroy *a = arg;

	if (a->pad)
		return -EINVAL;
	return kh_os_syncobj_destroy(file, a->handle);
}

static int inproc_syncobj_handle_to_fd(struct drm_file *file, void *arg)
{
	struct drm_syncobj_handle *a = arg;

	if (a->pad)
		return -EINVAL;
	/* a syncobj itself as a file only means something to a kernel */
	if (a->flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return -EINVAL;
	return kh_os_syncobj_export_fd(file, a->handle, &a->fd);
}

/* the handles of a SYNCOBJ_WAIT / _RESET / _SIGNAL, copied in */
static int inproc_handles(u64 ptr, u32 count, u32 **out)
{
	u32 *h;

	if (!count || count > KH_INPROC_MAX_HANDLES)
		return -EINVAL;
	h = calloc(count, sizeof(*h));
	if (!h)
		return -ENOMEM;
	if (copy_from_user(h, u64_to_user_ptr(ptr), count * sizeof(*h))) {
		free(h);
		return -EFAULT;
	}
	*out = h;
	return 0;
}

static int inproc_syncobj_wait(struct drm_file *file, void *arg)
{
	struct drm_syncobj_wait *a = arg;
	u32 *h, first = 0;
	int ret;

	if (a->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		return -EINVAL;
	ret = inproc_handles(a->handles, a->count_handles, &h);
	if (ret)
		return ret;
	ret = kh_os_syncobj_wait(file, h, a->count_handles, a->timeout_nsec,
			      a->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
			      a->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			      &first);
	free(h);
	if (!ret)
		a->first_signaled = first;
	return ret;
}

static int inproc_syncobj_array(struct drm_file *file, void *arg, bool signal)
{
	struct drm_syncobj_array *a = arg;
	u32 *h, i;
	int ret;

	if (a->pad)
		return -EINVAL;
	ret = inproc_handles(a->handles, a->count_handles, &h);
	if (ret)
		return ret;
	for (i = 0; !ret && i < a->count_handles; i++)
		ret = kh_os_syncobj_set(file, h[i], signal);
	free(h);
	return ret;
}

static int inproc_syncobj_reset(struct drm_file *file, void *arg)
{
	return inproc_syncobj_array(file, arg, false);
}

static int inproc_syncobj_signal(struct drm_file *file, void *arg)
{
	return inproc_syncobj_array(file, arg, true);
}

static const struct kh_rt_inproc_ioctl {
	unsigned int cmd;
	const char *name;
	int (*fn)(struct drm_file *file, void *arg);
} kh_rt_inproc_ioctls[] = {
	{ DRM_IOCTL_SYNCOBJ_CREATE, "SYNCOBJ_CREATE", inproc_syncobj_create },
	{ DRM_IOCTL_SYNCOBJ_DESTROY, "SYNCOBJ_DESTROY", inproc_syncobj_destroy },
	{ DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, "SYNCOBJ_HANDLE_TO_FD",
	  inproc_syncobj_handle_to_fd },
	{ DRM_IOCTL_SYNCOBJ_WAIT, "SYNCOBJ_WAIT", inproc_syncobj_wait },
	{ DRM_IOCTL_SYNCOBJ_RESET, "SYNCOBJ_RESET", inproc_syncobj_reset },
	{ DRM_IOCTL_SYNCOBJ_SIGNAL, "SYNCOBJ_SIGNAL", inproc_syncobj_signal },
};

/* for messages of both backends: the core's table names the driver range */
const char *kh_rt_cmd_name(unsigned long cmd)
{
	unsigned int i;

	if (cmd > 0xffffffffUL || _IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return NULL;
	if (kh_ioctl_is_ours(cmd))
		return kh_ioctl_name(cmd);
	for (i = 0; i < ARRAY_SIZE(kh_rt_inproc_ioctls); i++)
		if (_IOC_NR(cmd) == _IOC_NR(kh_rt_inproc_ioctls[i].cmd))
			return kh_rt_inproc_ioctls[i].name;
	return NULL;
}

/*
 * drm_ioctl()'s copying: in_size bytes in, the rest of the larger of the
 * two structs zeroed, out_size bytes back whatever the handler returned.
 */
static int inproc_call(unsigned int cmd, unsigned int drv_cmd, void *uarg,
		       int (*call)(void *ctx, void *kdata), void *ctx)
{
	unsigned int in_size, out_size, drv_size = _IOC_SIZE(drv_cmd), ksize;
	u8 stack[256], *kdata = stack;
	int ret;

	in_size = out_size = _IOC_SIZE(cmd);
	if (!(_IOC_DIR(cmd) & _IOC_DIR(drv_cmd) & _IOC_WRITE))
		in_size = 0;
	if (!(_IOC_DIR(cmd) & _IOC_DIR(drv_cmd) & _IOC_READ))
		out_size = 0;
	ksize = max_t(unsigned int, max_t(unsigned int, in_size, out_size), drv_size);
	if (ksize > sizeof(stack)) {
		kdata = malloc(ksize);
		if (!kdata)
			return -ENOMEM;
	}
	ret = copy_from_user(kdata, uarg, in_size) ? -EFAULT : 0;
	if (!ret) {
		memset(kdata + in_size, 0, ksize - in_size);
		ret = call(ctx, kdata);
		if (copy_to_user(uarg, kdata, out_size))
			ret = -EFAULT;
	}
	if (kdata != stack)
		free(kdata);
	return ret;
}

struct kh_rt_inproc_ctx {
	struct kh_file *kf;
	struct drm_file *file;
	unsigned int index;
	int (*fn)(struct drm_file *file, void *arg);
};

static int inproc_driver_call(void *ctx, void *kdata)
{
	struct kh_rt_inproc_ctx *c = ctx;

	return kh_ioctl_call(c->kf, c->index, kdata);
}

static int inproc_core_call(void *ctx, void *kdata)
{
	struct kh_rt_inproc_ctx *c = ctx;

	return c->fn(c->file, kdata);
}

int kh_inproc_ioctl(struct kh_file *kf, struct drm_file *file,
		    unsigned int cmd, void *uarg)
{
	struct kh_rt_inproc_ctx c = { .kf = kf, .file = file };
	const struct kh_ioctl_desc *d;
	unsigned int i;
	int ret;

	if (_IOC_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	if (kh_ioctl_is_ours(cmd)) {
		c.index = _IOC_NR(cmd) - DRM_COMMAND_BASE;
		d = kh_ioctl_desc(c.index);
		if (!d)
			return -ENOTTY;
		ret = kh_ioctl_check_tail(cmd, uarg);
		if (ret)
			return ret;
		return inproc_call(cmd, d->cmd, uarg, inproc_driver_call, &c);
	}
	for (i = 0; i < ARRAY_SIZE(kh_rt_inproc_ioctls); i++) {
		if (_IOC_NR(cmd) != _IOC_NR(kh_rt_inproc_ioctls[i].cmd))
			continue;
		c.fn = kh_rt_inproc_ioctls[i].fn;
		return inproc_call(cmd, kh_rt_inproc_ioctls[i].cmd, uarg,
				   inproc_core_call, &c);
	}
	return -ENOTTY;
}
