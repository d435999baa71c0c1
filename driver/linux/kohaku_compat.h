/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kohaku.ko on the kernels people run: every difference between the
 * kernel APIs the driver is written against (6.12, Debian 12's
 * linux-image-6.12-amd64) and the older kernels it also builds for (6.1,
 * Debian 12's default linux-image-amd64), in this one file; no other file
 * of the driver tests LINUX_VERSION_CODE.  What an older kernel lacks is
 * given here under the newer kernel's name where the driver calls it
 * (pcim_iomap_region(), drm_print_memory_stats()), or as a KOHAKU_ macro
 * where the difference is in the shape of a structure the driver fills.
 *
 * The difference userspace sees most: before 6.2 there is no DRM accel
 * subsystem (nor on a later kernel built without CONFIG_DRM_ACCEL), so the
 * card's node is a DRM render node, /dev/dri/renderDN (DRIVER_RENDER; DRM
 * makes a primary node /dev/dri/cardN beside it), with the same ioctl ABI;
 * libkohaku finds either kind by the DRM driver name.  docs/linux.md
 * ("Kernel versions") lists what else differs.
 */
#ifndef KOHAKU_COMPAT_H
#define KOHAKU_COMPAT_H

#include <linux/version.h>
#include <linux/kobject.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

/*
 * The card's DRM node: an accel node where the kernel has DRM accel (6.2
 * brought it; CONFIG_DRM_ACCEL), else a render node.  KOHAKU_DRM_FEATURES
 * is its drm_driver feature, kohaku_drm_minor() the minor userspace opens,
 * and KOHAKU_DRM_NODE the printf format of its /dev path from that minor's
 * index (render minors count from 128: renderD128 is the first).
 * KOHAKU_DRM_FOPS_OPEN is the file operations' open for that kind of node.
 */
#if IS_ENABLED(CONFIG_DRM_ACCEL)
#include <drm/drm_accel.h>
#define KOHAKU_DRM_FEATURES	DRIVER_COMPUTE_ACCEL
#define KOHAKU_DRM_NODE		"/dev/accel/accel%d"
#define KOHAKU_DRM_FOPS_OPEN	accel_open
#define kohaku_drm_minor(drm)	((drm)->accel)
#else
#define KOHAKU_DRM_FEATURES	DRIVER_RENDER
#define KOHAKU_DRM_NODE		"/dev/dri/renderD%d"
#define KOHAKU_DRM_FOPS_OPEN	drm_open
#define kohaku_drm_minor(drm)	((drm)->render)
#endif

/*
 * file_operations.fop_flags (6.12): DRM's nodes take FOP_UNSIGNED_OFFSET;
 * before, drm_open() set FMODE_UNSIGNED_OFFSET on each file itself.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define KOHAKU_FOPS_FLAGS	.fop_flags = FOP_UNSIGNED_OFFSET,
#else
#define KOHAKU_FOPS_FLAGS
#endif

/*
 * drm_driver.date: DRM_IOCTL_VERSION copies it, and before 6.14 (and its
 * stable backports, which answer "0") a driver without one makes the ioctl
 * warn "BUG: the value to copy was not set!".  6.14 removed the field.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define KOHAKU_DRM_DATE		.date = "0",
#else
#define KOHAKU_DRM_DATE
#endif

/*
 * fdinfo (6.5): drm_show_fdinfo() prints the DRM core's keys (drm-driver,
 * drm-client-id, drm-pdev) and calls drm_driver.show_fdinfo for the
 * driver's.  Before, the driver's file operations print all of it
 * themselves, and DRM files have no client id, which the keys' documentation
 * of those kernels lists as optional: there is no drm-client-id line.
 * KOHAKU_DRM_SHOW_FDINFO(fn) fills drm_driver and KOHAKU_FOPS_SHOW_FDINFO
 * the file operations; fn is kohaku_drm_show_fdinfo() on every kernel.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define KOHAKU_DRM_SHOW_FDINFO(fn)	.show_fdinfo = (fn),
#define KOHAKU_FOPS_SHOW_FDINFO		.show_fdinfo = drm_show_fdinfo,
#else
#define KOHAKU_DRM_SHOW_FDINFO(fn)
#define KOHAKU_FOPS_SHOW_FDINFO		.show_fdinfo = kohaku_compat_show_fdinfo,

/* the memory keys' helper and its types, as 6.5 has them (drm_file.h) */
enum drm_gem_object_status {
	DRM_GEM_OBJECT_RESIDENT  = BIT(0),
	DRM_GEM_OBJECT_PURGEABLE = BIT(1),
};

struct drm_memory_stats {
	u64 shared;
	u64 private;
	u64 resident;
	u64 purgeable;
	u64 active;
};

static inline void kohaku_compat_print_size(struct drm_printer *p,
					    const char *stat,
					    const char *region, u64 sz)
{
	static const char * const units[] = { "", " KiB", " MiB" };
	unsigned int u;

	for (u = 0; u < ARRAY_SIZE(units) - 1; u++) {
		if (sz == 0 || !IS_ALIGNED(sz, SZ_1K))
			break;
		sz = div_u64(sz, SZ_1K);
	}
	drm_printf(p, "drm-%s-%s:\t%llu%s\n", stat, region, sz, units[u]);
}

static inline void drm_print_memory_stats(struct drm_printer *p,
					  const struct drm_memory_stats *stats,
					  enum drm_gem_object_status supported_status,
					  const char *region)
{
	kohaku_compat_print_size(p, "total", region,
				 stats->private + stats->shared);
	kohaku_compat_print_size(p, "shared", region, stats->shared);
	kohaku_compat_print_size(p, "active", region, stats->active);
	if (supported_status & DRM_GEM_OBJECT_RESIDENT)
		kohaku_compat_print_size(p, "resident", region, stats->resident);
	if (supported_status & DRM_GEM_OBJECT_PURGEABLE)
		kohaku_compat_print_size(p, "purgeable", region, stats->purgeable);
}

void kohaku_drm_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/* drm_show_fdinfo() less drm-client-id, with the driver's keys */
static inline void kohaku_compat_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct drm_device *dev = file->minor->dev;
	struct drm_printer p = drm_seq_file_printer(m);
	int idx;

	if (!drm_dev_enter(dev, &idx))
		return;
	drm_printf(&p, "drm-driver:\t%s\n", dev->driver->name);
	if (dev_is_pci(dev->dev)) {
		struct pci_dev *pdev = to_pci_dev(dev->dev);

		drm_printf(&p, "drm-pdev:\t%04x:%02x:%02x.%d\n",
			   pci_domain_nr(pdev->bus), pdev->bus->number,
			   PCI_SLOT(pdev->devfn), PCI_FUNC(pdev->devfn));
	}
	kohaku_drm_show_fdinfo(&p, file);
	drm_dev_exit(idx);
}
#endif

/*
 * platform_driver.remove returns void since 6.11 (.remove_new between 6.3
 * and 6.10); before, it returned int, which the driver core ignored.
 * KOHAKU_DEFINE_PLATFORM_REMOVE(name, fn) defines name, the remove
 * callback of this kernel's shape, calling void fn(struct platform_device *).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define KOHAKU_DEFINE_PLATFORM_REMOVE(name, fn)			\
static void name(struct platform_device *pdev)				\
{									\
	fn(pdev);							\
}
#else
#define KOHAKU_DEFINE_PLATFORM_REMOVE(name, fn)			\
static int name(struct platform_device *pdev)				\
{									\
	fn(pdev);							\
	return 0;							\
}
#endif

/*
 * pcim_iomap_region() (6.11): request and map one BAR, managed.  Before,
 * pcim_iomap_regions() with the BAR's bit, then the BAR's entry in the
 * device's managed table.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
static inline void __iomem *pcim_iomap_region(struct pci_dev *pdev, int bar,
					      const char *name)
{
	int ret = pcim_iomap_regions(pdev, BIT(bar), name);

	if (ret)
		return IOMEM_ERR_PTR(ret);
	return pcim_iomap_table(pdev)[bar];
}
#endif

/*
 * kset_uevent_ops.name() takes a const kobject since 6.2:
 * kohaku_uevent_kobj is the type of its argument here.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define kohaku_uevent_kobj	const struct kobject
#else
#define kohaku_uevent_kobj	struct kobject
#endif

/*
 * __assign_str() lost its source argument in 6.10 (the source given to
 * __string() is copied).  driver/core/kh_tracepoints.h calls
 * kohaku_assign_str(); only kohaku_trace.c, which makes the events,
 * expands it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define kohaku_assign_str(dst, src)	__assign_str(dst)
#else
#define kohaku_assign_str(dst, src)	__assign_str(dst, src)
#endif

#endif /* KOHAKU_COMPAT_H */
