/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * driver/core's interface to its hosts (kohaku.ko and libkohaku's sim
 * backend).  Everything a user can do goes through kh_ioctl(), with the
 * command numbers and structs of uapi/drm/kohaku_accel.h; the rest is
 * lifetime (probe/remove, open/close), progress, and read-only views for
 * sysfs.
 */
#ifndef KH_CORE_H
#define KH_CORE_H

#include "kh_os.h"
#include "kh_hw.h"
#include "drm/kohaku_accel.h"

struct kh_device;
struct kh_file;

/*
 * Bring up a card: check CAPS of every mesh window, enumerate the nodes,
 * set up device memory.  hw is copied.  osdev is the host's device, used
 * for log messages; name is what GET_INFO reports.  Returns 0 or a negative
 * errno after logging why.
 */
int kh_device_probe(const struct kh_hw *hw, struct kh_os_dev *osdev,
		    const char *name, struct kh_device **out);
/*
 * The host's device is going away: from now on every ioctl fails with
 * ENODEV and waits in progress end at their next poll.  Call it before
 * waiting for running ioctls to drain, then close the files, then remove.
 */
void kh_device_unplug(struct kh_device *kd);
/* Tear down: jobs still queued are aborted; call after every file closed. */
void kh_device_remove(struct kh_device *kd);

int kh_file_open(struct kh_device *kd, struct kh_file **out);
/* Frees the file's BOs and jobs; a job already on the device is left to run out. */
void kh_file_close(struct kh_file *kf);

/*
 * The ioctl entry point, for both hosts.  cmd must match a DRM_IOCTL_KOHAKU_*
 * exactly (size included); arg is the caller's pointer (a user pointer in
 * the kernel).  Returns 0 or a negative errno.
 */
long kh_ioctl(struct kh_file *kf, unsigned int cmd, void __user *arg);
/* True when cmd's number falls in the driver-private range the core owns. */
bool kh_ioctl_is_ours(unsigned int cmd);

/*
 * Move the job engine forward once: collect completions, dispatch queued
 * jobs, enforce job time limits.  Every ioctl that waits does this; a host
 * may also call it from a worker so that jobs advance with nobody waiting.
 * Returns true while jobs are queued or running.
 */
bool kh_device_poll(struct kh_device *kd);

/* Read-only views for sysfs and diagnostics. */
const char *kh_device_name(const struct kh_device *kd);
unsigned int kh_device_mesh_count(const struct kh_device *kd);
unsigned int kh_device_node_count(const struct kh_device *kd);
/*
 * Node i of the enumerated table (all meshes, in mesh then y then x order).
 * live: re-read CU_STATUS, CU_COUNTERS and CU_DBG through the mailbox now.
 */
int kh_device_node(struct kh_device *kd, unsigned int i, bool live,
		   struct drm_kohaku_node *out);
int kh_device_info(struct kh_device *kd, struct drm_kohaku_get_info *out);

#endif /* KH_CORE_H */
