/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * driver/core's interface to its hosts (kohaku.ko and libkohaku's in-process
 * backend).  Everything a user can do goes through the ioctl table, with the
 * command numbers and structs of uapi/drm/kohaku_accel.h; the rest is
 * lifetime (probe/remove, open/close) and read-only views for sysfs.  The
 * device's progress engine runs by itself once probed.
 */
#ifndef KH_CORE_H
#define KH_CORE_H

#include <linux/types.h>

#include "kh_hw.h"
#include "drm/kohaku_accel.h"

struct kh_device;
struct kh_file;
struct device;
struct drm_file;

/**
 * kh_device_probe() - bring up a card
 * @hw: the card's access ops (copied).
 * @dev: the host's device: log messages name it, DMA memory is mapped for it.
 * @name: what GET_INFO reports.
 * @out: the new device.
 *
 * Checks CAPS of every mesh window, enumerates the nodes, sets up device
 * memory and starts the device's progress engine.
 *
 * Return: 0 or a negative errno after logging why.
 */
int kh_device_probe(const struct kh_hw *hw, struct device *dev,
		    const char *name, struct kh_device **out);
/**
 * kh_device_unplug() - the host's device is going away
 * @kd: the device.
 *
 * From now on every ioctl fails with ENODEV, waits in progress end at once
 * and the engine stops.  Call it before waiting for running ioctls to
 * drain, then close the files, then kh_device_remove().
 */
void kh_device_unplug(struct kh_device *kd);
/**
 * kh_device_remove() - tear a device down
 * @kd: the device, after every file was closed; jobs still queued are aborted.
 */
void kh_device_remove(struct kh_device *kd);

/**
 * kh_file_open() - a new open file on a device
 * @kd: the device.
 * @file: the host's file, whose syncobjs SUBMIT's in/out fences name.
 * @admin: the opener is an administrator (CAP_SYS_ADMIN when it opened
 *	the device; in-process, unless KOHAKU_UNPRIVILEGED is set): it may
 *	call the commands KH_IOCTLS() marks root and submit unchecked jobs.
 * @out: the new file.
 *
 * Return: 0 or -ENOMEM.
 */
int kh_file_open(struct kh_device *kd, struct drm_file *file, bool admin,
		 struct kh_file **out);
/**
 * kh_file_close() - close a file
 * @kf: the file; its BOs are freed, its queued jobs aborted; a job already
 *	on the device is left to run out.
 */
void kh_file_close(struct kh_file *kf);

/**
 * struct kh_file_usage - what an open file has used, for the host's fdinfo
 * @busy_ns: device time of its jobs, each from dispatch to final (a job
 *	still on the device counts up to now), all meshes together.
 * @jobs: its jobs that are final.
 * @bo_bytes: bytes of device memory its BOs hold now (as allocated).
 * @n_bos: its BOs.
 */
struct kh_file_usage {
	u64 busy_ns;
	u64 jobs;
	u64 bo_bytes;
	u32 n_bos;
};
/**
 * kh_file_usage() - an open file's use of the device
 * @kf: the file.
 * @u: filled in.
 */
void kh_file_usage(struct kh_file *kf, struct kh_file_usage *u);

/**
 * struct kh_mesh_defaults - what a mesh starts with at bring-up
 * @clk_policy: KOHAKU_CLK_POLICY_AUTO or _FIXED.
 * @clk_idle: the idle profile (KOHAKU_CLK_PROFILE_LOW..SHIP).
 * @clk_run: the run profile.
 * @clk_fixed: the fixed policy's profile.
 * @clk_idle_ms: the idle window, device time.
 * @recover_max: automatic recoveries in a row before a mesh is left
 *	wedged; 0 turns automatic recovery off.
 */
struct kh_mesh_defaults {
	u8 clk_policy, clk_idle, clk_run, clk_fixed;
	u32 clk_idle_ms;
	u32 recover_max;
};
/**
 * kh_set_mesh_defaults() - the host's defaults (module parameters, the
 *	in-process environment) for the devices probed after the call
 * @d: checked: an out-of-range field leaves the old default (the rest are
 *	taken).
 *
 * Return: 0, or -EINVAL when a field was out of range.
 */
int kh_set_mesh_defaults(const struct kh_mesh_defaults *d);
/* the built-in defaults (module parameters start from them) */
#define KH_CLK_IDLE_MS_DEFAULT	10000	/* as upstream's daemon */
#define KH_RECOVER_DEFAULT	3	/* docs/driver-core.md "Automatic recovery" */
/**
 * kh_clk_profile_name() - a profile's name
 * @p: KOHAKU_CLK_PROFILE_*.
 *
 * Return: its KOHAKU_CLK_PROFILE_NAMES entry, "other" for any other value.
 */
const char *kh_clk_profile_name(unsigned int p);
/**
 * kh_clk_profile_parse() - a profile by name, as a host's text gives it
 * @s: "low", "mid" or "ship", a trailing newline allowed (sysfs).
 *
 * Return: KOHAKU_CLK_PROFILE_*, or -EINVAL.
 */
int kh_clk_profile_parse(const char *s);
/**
 * kh_clk_policy_parse() - a policy a host may set, by name
 * @s: "auto" or "fixed", a trailing newline allowed.
 *
 * Return: KOHAKU_CLK_POLICY_AUTO or _FIXED, or -EINVAL.
 */
int kh_clk_policy_parse(const char *s);
/**
 * kh_clk_policy_name() - a policy's name
 * @p: KOHAKU_CLK_POLICY_*.
 *
 * Return: its KOHAKU_CLK_POLICY_NAMES entry, "?" for any other value.
 */
const char *kh_clk_policy_name(unsigned int p);
/**
 * kh_mesh_defaults_get() - the defaults now
 *
 * Return: the built-in defaults until a host set others.
 */
struct kh_mesh_defaults kh_mesh_defaults_get(void);
/**
 * kh_device_clocks() - a mesh's clocks, as DRM_KOHAKU_CLOCKS reports them
 * @kd: the device.
 * @mesh: the mesh.
 * @out: filled in (flags and file_run_profile left 0).
 *
 * Return: 0, or -EINVAL for a mesh that is not present.
 */
int kh_device_clocks(struct kh_device *kd, unsigned int mesh,
		     struct drm_kohaku_clocks *out);
/**
 * kh_device_mesh_set() - DRM_KOHAKU_MESH_SET for a host (sysfs)
 * @kd: the device.
 * @a: the request, checked as the ioctl checks it.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP as the ioctl.
 */
int kh_device_mesh_set(struct kh_device *kd, const struct drm_kohaku_mesh_set *a);
/**
 * kh_device_mesh_reset() - DRM_KOHAKU_RESET for a host (sysfs)
 * @kd: the device.
 * @a: the request; its outcome on return.
 *
 * Return: 0 once the mesh takes jobs again, -EINVAL, -EOPNOTSUPP or -EIO
 * as the ioctl.
 */
int kh_device_mesh_reset(struct kh_device *kd, struct drm_kohaku_reset *a);

/**
 * KH_IOCTLS() - every command of the driver-private range, written once
 * @X: a macro called once per command as X(NAME, name, handler, root):
 *	NAME as in DRM_KOHAKU_NAME and DRM_IOCTL_KOHAKU_NAME, name the same in
 *	lower case (for a host's function names), handler the core's function
 *	(driver/core/kh_priv.h), root 1 when only an administrator may call
 *	it (replacing the firmware changes the device for every user).
 *
 * The core's table (kh_ioctl.c) and kohaku.ko's DRM table and wrappers
 * (driver/linux/kohaku_drv.c) are both generated from this list, each
 * entry at its command's number.
 */
#define KH_IOCTLS(X)							\
	X(GET_INFO, get_info, kh_ioctl_get_info, 0)			\
	X(NODES, nodes, kh_ioctl_nodes, 0)				\
	X(BO_CREATE, bo_create, kh_bo_create, 0)			\
	X(BO_FREE, bo_free, kh_bo_free, 0)				\
	X(BO_INFO, bo_info, kh_bo_info, 0)				\
	X(BO_WRITE, bo_write, kh_bo_write, 0)				\
	X(BO_READ, bo_read, kh_bo_read, 0)				\
	X(SUBMIT, submit, kh_job_submit, 0)				\
	X(WAIT, wait, kh_job_wait, 0)					\
	X(GET_PARAM, get_param, kh_ioctl_get_param, 0)			\
	X(FW_LOAD, fw_load, kh_ioctl_fw_load, 1)			\
	X(DXA_ALLOC, dxa_alloc, kh_dxa_alloc, 0)			\
	X(DXA_FREE, dxa_free, kh_dxa_free, 0)				\
	X(DXA_SET, dxa_set, kh_dxa_set, 0)				\
	X(DXA_GET, dxa_get, kh_dxa_get, 0)				\
	X(CLOCKS, clocks, kh_ioctl_clocks, 0)				\
	X(MESH_SET, mesh_set, kh_ioctl_mesh_set, 1)		\
	X(RESET, reset, kh_ioctl_reset, 1)				\
	X(MESH_LEASE, mesh_lease, kh_ioctl_mesh_lease, 0)

/**
 * struct kh_ioctl_desc - one command of the driver-private range
 * @cmd: the DRM_IOCTL_KOHAKU_* number: direction, type, number and this
 *	driver's struct size.
 * @name: the command's name ("SUBMIT").
 * @fn: the handler, given a kernel-space copy of the struct: zero-extended
 *	when the caller's struct is shorter, the caller's tail already checked
 *	to be zero when it is longer (kh_ioctl_check_tail()).
 * @root: for an administrator's file only (kh_file_open()'s @admin);
 *	others get EACCES, as DRM_ROOT_ONLY answers on kohaku.ko.
 */
struct kh_ioctl_desc {
	unsigned int cmd;
	const char *name;
	int (*fn)(struct kh_file *kf, void *arg);
	bool root;
};

/**
 * kh_ioctl_desc() - the command at an index of the driver range
 * @index: the ioctl number less DRM_COMMAND_BASE.
 *
 * Return: the descriptor, or NULL past the last command.
 */
const struct kh_ioctl_desc *kh_ioctl_desc(unsigned int index);
/**
 * kh_ioctl_call() - run a command on a kernel-space copy of its struct
 * @kf: the caller's file.
 * @index: the ioctl number less DRM_COMMAND_BASE.
 * @arg: the struct, this driver's size.
 *
 * Return: 0 or a negative errno.  On ETIMEDOUT from WAIT @arg holds the
 * job's current status; the host copies it out as on success.
 */
int kh_ioctl_call(struct kh_file *kf, unsigned int index, void *arg);
/**
 * kh_ioctl_check_tail() - the size rule for a caller's longer struct
 * @cmd: the caller's command number.
 * @uarg: the caller's struct.
 *
 * Return: 0 when @cmd's size is at most this driver's or every byte past
 * it is zero; -E2BIG when one is not; -EFAULT.
 */
int kh_ioctl_check_tail(unsigned int cmd, const void __user *uarg);
/**
 * kh_ioctl_is_ours() - whether a command number falls in the driver range
 * @cmd: the command.
 *
 * Return: true for DRM_COMMAND_BASE .. DRM_COMMAND_END of the DRM type.
 */
bool kh_ioctl_is_ours(unsigned int cmd);
/**
 * kh_ioctl_name() - a command's name for messages
 * @cmd: a command number of the driver range.
 *
 * Return: "SUBMIT" and the like, or NULL when no command has that number.
 */
const char *kh_ioctl_name(unsigned int cmd);

/* Read-only views for sysfs and diagnostics. */
/**
 * kh_device_fw_load() - boot firmware on every POOL unit of the device
 * @kd: the device.
 * @data: the image (docs/spec/firmware-image.md), kept by the caller until
 *	this returns.
 * @len: its bytes.
 *
 * What FW_LOAD does, for a host's own load (request_firmware at bind, the
 * in-process backend's search path).  The reason for a failure is logged.
 *
 * Return: 0, or FW_LOAD's errors.
 */
int kh_device_fw_load(struct kh_device *kd, const void *data, size_t len);
/**
 * kh_device_fw_units() - how many POOL units the device has
 * @kd: the device.
 *
 * Return: the units that run firmware; 0 when there is nothing to load.
 */
unsigned int kh_device_fw_units(const struct kh_device *kd);

/**
 * kh_device_irq_enable() - the host has wired the card's interrupts
 * @kd: the device.
 *
 * Called once the host delivers interrupts to kh_device_irq() (its MSI-X
 * handlers requested, or its handler attached through &kh_hw_ops.irq_attach):
 * the core programs the card's interrupt vectors and stops polling for what
 * interrupts now tell.  Without it the core polls for everything.
 *
 * Return: 0, or -ENODEV when there is nothing to take interrupts for.
 */
int kh_device_irq_enable(struct kh_device *kd);
/**
 * kh_device_irq() - one of the card's interrupts arrived
 * @kd: the device.
 * @vector: the vector (0 .. &kh_hw.n_irqs - 1).
 *
 * From interrupt context, or with the card's lock held on a simulated card:
 * it wakes who waits and does not touch the card.
 */
void kh_device_irq(struct kh_device *kd, unsigned int vector);

/**
 * kh_device_dma_param() - the DMA engine's and the interrupts' counters
 * @kd: the device.
 * @param: KOHAKU_PARAM_DMA_* or KOHAKU_PARAM_IRQ*, as GET_PARAM has them.
 *
 * Return: the value (sysfs shows them).
 */
u64 kh_device_dma_param(struct kh_device *kd, u32 param);

/**
 * kh_device_name() - the device's name
 * @kd: the device.
 *
 * Return: the name given to kh_device_probe(), as GET_INFO reports it.
 */
const char *kh_device_name(const struct kh_device *kd);
/**
 * kh_device_mesh_count() - how many meshes the card has
 * @kd: the device.
 *
 * Return: the number of meshes.
 */
unsigned int kh_device_mesh_count(const struct kh_device *kd);
/**
 * kh_device_node_count() - how many nodes were enumerated
 * @kd: the device.
 *
 * Return: the nodes of every mesh, the size of kh_device_node()'s table.
 */
unsigned int kh_device_node_count(const struct kh_device *kd);
/**
 * kh_device_node() - node i of the enumerated table
 * @kd: the device.
 * @i: the index, in mesh then y then x order.
 * @live: re-read CU_STATUS, CU_COUNTERS and CU_DBG through the mailbox now;
 *	else they are as last read (zero when never read: bring-up does not).
 * @out: the node as NODES reports it.
 *
 * Return: 0, -ENOENT past the last node, or the mailbox's error.
 */
int kh_device_node(struct kh_device *kd, unsigned int i, bool live,
		   struct drm_kohaku_node *out);
/**
 * kh_device_info() - GET_INFO's answer
 * @kd: the device.
 * @out: filled.
 *
 * Return: 0.
 */
int kh_device_info(struct kh_device *kd, struct drm_kohaku_get_info *out);

#endif /* KH_CORE_H */
