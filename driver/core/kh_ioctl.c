// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ioctl entry point of both hosts.  The command number must match this
 * driver's exactly, size included; the argument is copied in, handled on a
 * kernel-space copy under the device lock, and copied out.
 */
#include "kh_priv.h"

#define KH_IOCTL(name, fn)						\
	[DRM_KOHAKU_##name] = { DRM_IOCTL_KOHAKU_##name, #name, fn }

static int kh_ioctl_bo_create(struct kh_file *kf, void *a) { return kh_bo_create(kf, a); }
static int kh_ioctl_bo_free(struct kh_file *kf, void *a) { return kh_bo_free(kf, a); }
static int kh_ioctl_bo_info(struct kh_file *kf, void *a) { return kh_bo_info(kf, a); }
static int kh_ioctl_bo_write(struct kh_file *kf, void *a) { return kh_bo_write(kf, a); }
static int kh_ioctl_bo_read(struct kh_file *kf, void *a) { return kh_bo_read(kf, a); }
static int kh_ioctl_submit(struct kh_file *kf, void *a) { return kh_job_submit(kf, a); }
static int kh_ioctl_wait(struct kh_file *kf, void *a) { return kh_job_wait(kf, a); }

static const struct kh_ioctl_desc {
	unsigned int cmd;
	const char *name;
	int (*fn)(struct kh_file *kf, void *arg);
} kh_ioctls[DRM_KOHAKU_NUM_IOCTLS] = {
	KH_IOCTL(GET_INFO, kh_ioctl_get_info),
	KH_IOCTL(NODES, kh_ioctl_nodes),
	KH_IOCTL(BO_CREATE, kh_ioctl_bo_create),
	KH_IOCTL(BO_FREE, kh_ioctl_bo_free),
	KH_IOCTL(BO_INFO, kh_ioctl_bo_info),
	KH_IOCTL(BO_WRITE, kh_ioctl_bo_write),
	KH_IOCTL(BO_READ, kh_ioctl_bo_read),
	KH_IOCTL(SUBMIT, kh_ioctl_submit),
	KH_IOCTL(WAIT, kh_ioctl_wait),
};

bool kh_ioctl_is_ours(unsigned int cmd)
{
	return _IOC_TYPE(cmd) == DRM_IOCTL_BASE &&
	       _IOC_NR(cmd) >= DRM_COMMAND_BASE && _IOC_NR(cmd) < DRM_COMMAND_END;
}

union kh_ioctl_arg {
	struct drm_kohaku_get_info info;
	struct drm_kohaku_nodes nodes;
	struct drm_kohaku_bo_create bo_create;
	struct drm_kohaku_bo_free bo_free;
	struct drm_kohaku_bo_info bo_info;
	struct drm_kohaku_bo_rw bo_rw;
	struct drm_kohaku_submit submit;
	struct drm_kohaku_wait wait;
};

long kh_ioctl(struct kh_file *kf, unsigned int cmd, void __user *uarg)
{
	struct kh_device *kd = kf->kd;
	const struct kh_ioctl_desc *d;
	union kh_ioctl_arg arg;
	unsigned int nr, size;
	int ret;

	if (!kh_ioctl_is_ours(cmd))
		return -ENOTTY;
	nr = _IOC_NR(cmd) - DRM_COMMAND_BASE;
	if (nr >= DRM_KOHAKU_NUM_IOCTLS)
		return -ENOTTY;
	d = &kh_ioctls[nr];
	if (cmd != d->cmd) {
		kh_dbg(kd, "%s: command 0x%08x does not match 0x%08x (struct size %u, this driver's %u)\n",
		       d->name, cmd, d->cmd, _IOC_SIZE(cmd), _IOC_SIZE(d->cmd));
		return -EINVAL;
	}
	size = _IOC_SIZE(cmd);
	ret = kh_copy_from_user(&arg, uarg, size);
	if (ret)
		return ret;

	kh_mutex_lock(&kd->lock);
	ret = kd->unplugged ? -ENODEV : d->fn(kf, &arg);
	kh_mutex_unlock(&kd->lock);

	/* WAIT reports the job's state when the wait itself timed out */
	if (!ret || (ret == -ETIMEDOUT && nr == DRM_KOHAKU_WAIT)) {
		int cret = kh_copy_to_user(uarg, &arg, size);

		if (cret)
			return cret;
	}
	return ret;
}
