/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kohaku.ko: the Linux host of driver/core.  One struct kohaku_accel per
 * bound card (a PCI function or a kohaku_sim platform device); both
 * bindings end in kohaku_probe() / kohaku_remove().
 */
#ifndef KOHAKU_DRV_H
#define KOHAKU_DRV_H

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <drm/drm_device.h>

#include "kh_core.h"
#include "kohaku_compat.h"

#define KOHAKU_DRV_DESC		"KohakuAccel mesh accelerator"
/* the DRM version (drmGetVersion) is the ABI's, so a user sees one number */
#define KOHAKU_DRV_MAJOR	KOHAKU_ABI_MAJOR
#define KOHAKU_DRV_MINOR	KOHAKU_ABI_MINOR
#define KOHAKU_DRV_PATCH	0

struct kohaku_sysfs;

struct kohaku_accel {
	struct drm_device drm;
	struct device *dev;		/* the platform or PCI device */
	struct kh_device *kd;
	void *hw_ctx;			/* the binding's: struct kh_hw ctx */
	const struct kh_hw_ops *hw_ops;
	bool irq_attached;		/* irq_attach'ed (simulated cards) */

	/*
	 * Open files.  files_lock orders file open/close against remove:
	 * after remove has closed every kh_file, gone is set and a late
	 * postclose finds nothing to do.
	 */
	struct mutex files_lock;
	struct list_head files;
	bool gone;

	struct kohaku_sysfs *sysfs;

	/* the firmware request at bind (kohaku_fw.c) */
	struct completion fw_done;	/* its callback has finished */
	struct mutex fw_lock;		/* fw_status */
	char fw_status[256];
};

struct kohaku_file {
	struct list_head link;		/* in kohaku_accel.files */
	struct kh_file *kf;		/* NULL once remove closed it */
};

static inline struct kohaku_accel *to_kohaku_accel(struct drm_device *drm)
{
	return container_of(drm, struct kohaku_accel, drm);
}

/* kohaku_drv.c: module parameter poll_only: never use the card's interrupts */
extern bool kohaku_poll_only;

/* kohaku_drv.c: the driver's fdinfo keys (drm_driver.show_fdinfo) */
struct drm_printer;
void kohaku_drm_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/* kohaku_drv.c: the common probe/remove both bindings call */
int kohaku_probe(struct device *dev, const struct kh_hw *hw, const char *name);
void kohaku_remove(struct device *dev);

/* kohaku_pci.c */
extern struct pci_driver kohaku_pci_driver;

/* kohaku_fw.c: request_firmware at bind, its outcome for sysfs */
void kohaku_fw_init(struct kohaku_accel *kdev);
void kohaku_fw_request(struct kohaku_accel *kdev);
void kohaku_fw_wait(struct kohaku_accel *kdev);
ssize_t kohaku_fw_status(struct kohaku_accel *kdev, char *buf);

/* kohaku_sysfs.c: the kohaku/ tree under the card's device directory */
int kohaku_sysfs_init(struct kohaku_accel *kdev);
void kohaku_sysfs_fini(struct kohaku_accel *kdev);

#endif /* KOHAKU_DRV_H */
