// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The driver-private ioctl range: one table of commands, their names and
 * handlers (generated from KH_IOCTLS(), kh_core.h), shared by both hosts.
 * The kernel host hands it to DRM (DRM_IOCTL_DEF_DRV, drm_ioctl() copies
 * the struct in and out under the ABI's size rule); the in-process host
 * copies the same way in one place (libruntime/inproc).  Handlers see a
 * kernel-space copy of this driver's size and do not care how long the
 * caller's struct was.
 */
#include "kh_priv.h"

#define KH_IOCTL_DESC(NAME, name, fn, root)				\
	[DRM_KOHAKU_##NAME] = { DRM_IOCTL_KOHAKU_##NAME, #NAME, fn, root },

static const struct kh_ioctl_desc kh_ioctls[DRM_KOHAKU_NUM_IOCTLS] = {
	KH_IOCTLS(KH_IOCTL_DESC)
};

bool kh_ioctl_is_ours(unsigned int cmd)
{
	return _IOC_TYPE(cmd) == DRM_IOCTL_BASE &&
	       _IOC_NR(cmd) >= DRM_COMMAND_BASE && _IOC_NR(cmd) < DRM_COMMAND_END;
}

const struct kh_ioctl_desc *kh_ioctl_desc(unsigned int index)
{
	return index < ARRAY_SIZE(kh_ioctls) ? &kh_ioctls[index] : NULL;
}

const char *kh_ioctl_name(unsigned int cmd)
{
	const struct kh_ioctl_desc *d;

	if (!kh_ioctl_is_ours(cmd))
		return NULL;
	d = kh_ioctl_desc(_IOC_NR(cmd) - DRM_COMMAND_BASE);
	return d ? d->name : NULL;
}

int kh_ioctl_call(struct kh_file *kf, unsigned int index, void *arg)
{
	const struct kh_ioctl_desc *d = kh_ioctl_desc(index);

	if (!d)
		return -ENOTTY;
	if (READ_ONCE(kf->kd->unplugged))
		return -ENODEV;
	/* kohaku.ko's DRM checks the caller first (DRM_ROOT_ONLY: EACCES) */
	if (d->root && !kf->admin) {
		kh_dbg(kf->kd, "%s: for an administrator only\n", d->name);
		return -EACCES;
	}
	return d->fn(kf, arg);
}

int kh_ioctl_check_tail(unsigned int cmd, const void __user *uarg)
{
	const struct kh_ioctl_desc *d;
	unsigned int size, dsize;

	if (!kh_ioctl_is_ours(cmd))
		return 0;
	d = kh_ioctl_desc(_IOC_NR(cmd) - DRM_COMMAND_BASE);
	if (!d || !(_IOC_DIR(cmd) & _IOC_WRITE))
		return 0;
	size = _IOC_SIZE(cmd);
	dsize = _IOC_SIZE(d->cmd);
	if (size <= dsize)
		return 0;
	/* no arithmetic on a NULL pointer (undefined in C, in-process) */
	if (!uarg)
		return -EFAULT;
	return kh_user_zero((const u8 __user *)uarg + dsize, size - dsize);
}
