// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ioctl every typed call goes through (kh_rt_ioctl), and kohaku_ioctl
 * for any command: on failure the last-error message says what was
 * attempted, the errno in words, what that errno usually means for the
 * command (the hints), and the driver's own reason where the backend has
 * it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "rt_internal.h"

/* FW_LOAD's errnos: the reason code says more (libruntime/fw.c) */
static const char *fw_hint(int r)
{
	switch (-r) {
	case EINVAL:
		return "The image breaks a rule of the firmware image format "
		       "(docs/spec/firmware-image.md); the previous firmware "
		       "runs on.";
	case EPROTO:
		return "The firmware speaks another host-firmware API major "
		       "than this driver; the previous firmware runs on.";
	case EBUSY:
		return "A job is queued or running on a POOL unit: wait for "
		       "it, then load again.";
	case ENODEV:
		return "This device has no POOL unit to run firmware.";
	case EACCES:
	case EPERM:
		return "Loading firmware changes the device for every user: "
		       "it needs CAP_SYS_ADMIN (root).";
	case ETIMEDOUT:
		return "The firmware never reported READY; the previous "
		       "firmware was booted again.";
	case EIO:
		return "The unit refused the load or a core trapped while "
		       "booting; the previous firmware was booted again.";
	default:
		return "";
	}
}

static bool is_dxa(unsigned long cmd)
{
	return cmd == DRM_IOCTL_KOHAKU_DXA_ALLOC ||
	       cmd == DRM_IOCTL_KOHAKU_DXA_FREE ||
	       cmd == DRM_IOCTL_KOHAKU_DXA_SET || cmd == DRM_IOCTL_KOHAKU_DXA_GET;
}

/* the DXA slot commands' errnos (docs/abi.md "DXA") */
static const char *dxa_hint(unsigned long cmd, int r)
{
	switch (-r) {
	case EINVAL:
		if (cmd == DRM_IOCTL_KOHAKU_DXA_SET)
			return "The descriptor breaks a rule (rank, element size, "
			       "sizes, tiles, strides, the tile's 8 KiB) or the "
			       "tensor does not lie inside the BO.";
		return "The node is not a DXA unit, or the slot is past 15.";
	case ENOENT:
		if (cmd == DRM_IOCTL_KOHAKU_DXA_SET)
			return "The slot is not this open file's (DXA_ALLOC one), "
			       "or the descriptor's BO is not.";
		return "The slot is not this open file's: free, or another "
		       "file's (DXA_ALLOC one).";
	case EBUSY:
		return "All 16 slots of the DXA unit are taken, by this or "
		       "other open files: free one.";
	default:
		return "";
	}
}

/* MESH_LEASE's errnos (docs/abi.md "Mesh leases") */
static const char *lease_hint(int r)
{
	switch (-r) {
	case EBUSY:
		return "Another open file holds the mesh, has a buffer there or "
		       "has a job queued or running there (or jobs of a lease "
		       "that ended still run): it frees them, or closes, "
		       "first.";
	case EINVAL:
		return "No such mesh, flags not exactly one of "
		       "KOHAKU_LEASE_TAKE and _GIVE, a nonzero reserved, or a "
		       "GIVE of a mesh this open file does not hold.";
	default:
		return "";
	}
}

/* what the errno r usually means for cmd, in a sentence, or "" */
static const char *hint(unsigned long cmd, int r)
{
	if (cmd == DRM_IOCTL_KOHAKU_MESH_LEASE && *lease_hint(r))
		return lease_hint(r);
	if (cmd == DRM_IOCTL_KOHAKU_FW_LOAD && *fw_hint(r))
		return fw_hint(r);
	if (is_dxa(cmd) && *dxa_hint(cmd, r))
		return dxa_hint(cmd, r);
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
		if (cmd == DRM_IOCTL_KOHAKU_SUBMIT)
			return "A syncobj of the job is not this open file's, or "
			       "a DXA copy names a slot that is not (free, or "
			       "another file's).";
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
			return "Another open file holds the job's mesh "
			       "(MESH_LEASE), or too much outstanding work in "
			       "this open file (at most KOHAKU_MAX_JOBS unwaited "
			       "jobs): wait for jobs first.";
		if (cmd == DRM_IOCTL_KOHAKU_BO_CREATE)
			return "Another open file holds the mesh (MESH_LEASE), "
			       "or jobs of a lease that ended still run there: "
			       "it gives it back, or closes, and its jobs "
			       "finish first.";
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

KH_RT_EXPORT int kohaku_ioctl(kohaku_device *dev, unsigned long cmd, void *arg)
{
	const char *name;

	if (!dev)
		return -EINVAL;
	name = kh_rt_cmd_name(cmd);
	if (name)
		return kh_rt_ioctl(dev, cmd, arg, "%s ioctl on %s", name, dev->path);
	return kh_rt_ioctl(dev, cmd, arg, "ioctl 0x%08lx on %s", cmd, dev->path);
}
