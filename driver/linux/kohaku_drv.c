// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: DRM accel driver for KohakuAccel cards.
 *
 * The driver logic lives in driver/core (kh_core.h), compiled into this
 * module.  This file hosts it: the DRM accel device (a DRM render node on
 * kernels before 6.2, which have no accel subsystem: kohaku_compat.h) and
 * its file operations, the DRM ioctl table over the core's handlers (DRM copies
 * each struct in and out; the core validates it), syncobjs (DRM's own),
 * and the platform binding for simulated cards made by kohaku_sim.ko.  The
 * PCI binding is in kohaku_pci.c, sysfs in kohaku_sysfs.c, what the core
 * asks of its host that the kernel has no name for (driver/core/kh_os.h:
 * the DMA mapping) in kohaku_os_dma.c.
 */

#include <linux/compat.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "kohaku_drv.h"

static int kohaku_drm_open(struct drm_device *drm, struct drm_file *file)
{
	struct kohaku_accel *kdev = to_kohaku_accel(drm);
	struct kohaku_file *kfile;
	int ret;

	kfile = kzalloc(sizeof(*kfile), GFP_KERNEL);
	if (!kfile)
		return -ENOMEM;

	mutex_lock(&kdev->files_lock);
	if (kdev->gone)
		ret = -ENODEV;
	else
		ret = kh_file_open(kdev->kd, file, capable(CAP_SYS_ADMIN),
				   &kfile->kf);
	if (!ret)
		list_add_tail(&kfile->link, &kdev->files);
	mutex_unlock(&kdev->files_lock);

	if (ret) {
		kfree(kfile);
		return ret;
	}
	file->driver_priv = kfile;
	return 0;
}

static void kohaku_drm_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct kohaku_accel *kdev = to_kohaku_accel(drm);
	struct kohaku_file *kfile = file->driver_priv;

	mutex_lock(&kdev->files_lock);
	list_del(&kfile->link);
	if (kfile->kf)
		kh_file_close(kfile->kf);
	mutex_unlock(&kdev->files_lock);
	kfree(kfile);
	file->driver_priv = NULL;
}

/*
 * /proc/<pid>/fdinfo of an open node: DRM prints drm-driver and
 * drm-client-id (drm_show_fdinfo(); before 6.5 kohaku_compat.h does, less
 * the id); this adds the file's use, in the DRM client usage keys
 * (Documentation/gpu/drm-usage-stats.rst): its jobs' device time on the
 * meshes, and its BOs' device memory.
 */
void kohaku_drm_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct kohaku_accel *kdev = to_kohaku_accel(file->minor->dev);
	struct kohaku_file *kfile = file->driver_priv;
	struct drm_memory_stats mem = { };
	struct kh_file_usage u = { };
	unsigned int meshes = 0;

	mutex_lock(&kdev->files_lock);
	if (kfile && kfile->kf) {
		kh_file_usage(kfile->kf, &u);
		meshes = kh_device_mesh_count(kdev->kd);
	}
	mutex_unlock(&kdev->files_lock);

	drm_printf(p, "drm-engine-mesh:\t%llu ns\n", u.busy_ns);
	if (meshes > 1)
		drm_printf(p, "drm-engine-capacity-mesh:\t%u\n", meshes);
	/* card DRAM a BO holds is the file's own and always resident */
	mem.private = u.bo_bytes;
	mem.resident = u.bo_bytes;
	drm_print_memory_stats(p, &mem, DRM_GEM_OBJECT_RESIDENT, "memory");
	drm_printf(p, "kohaku-jobs:\t%llu\n", u.jobs);
	drm_printf(p, "kohaku-bos:\t%u\n", u.n_bos);
}

/*
 * Every driver ioctl: DRM has copied the struct in under the ABI's size
 * rule (drm_ioctl()); the core's handler takes it from here.
 */
static int kohaku_core_call(struct drm_device *drm, struct drm_file *file,
			    unsigned int index, void *data)
{
	struct kohaku_file *kfile = file->driver_priv;
	int ret, idx;

	/* after unplug every kh_file is closed: nothing to talk to */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = kfile->kf ? kh_ioctl_call(kfile->kf, index, data) : -ENODEV;
	drm_dev_exit(idx);
	return ret;
}

/* one wrapper per command, each calling the core with its number */
#define KOHAKU_DRM_IOCTL_FN(NAME, name, fn, root)			\
static int kohaku_drm_ioctl_##name(struct drm_device *drm, void *data,	\
				   struct drm_file *file)		\
{									\
	return kohaku_core_call(drm, file, DRM_KOHAKU_##NAME, data);	\
}
KH_IOCTLS(KOHAKU_DRM_IOCTL_FN)

/*
 * Every command is allowed on a render node, the card's node before 6.2
 * (an accel node ignores the flag); replacing the firmware changes the
 * device for every user: CAP_SYS_ADMIN.
 */
#define KOHAKU_DRM_IOCTL_DEF(NAME, name, fn, root)			\
	DRM_IOCTL_DEF_DRV(KOHAKU_##NAME, kohaku_drm_ioctl_##name,	\
			  DRM_RENDER_ALLOW | ((root) ? DRM_ROOT_ONLY : 0)),

/* indexed like the core's table (kh_ioctl.c): one command per number */
static const struct drm_ioctl_desc kohaku_drm_ioctls[] = {
	KH_IOCTLS(KOHAKU_DRM_IOCTL_DEF)
};
static_assert(ARRAY_SIZE(kohaku_drm_ioctls) == DRM_KOHAKU_NUM_IOCTLS);

/*
 * Before DRM sees a driver command: a number with no command is ENOTTY
 * (drm_ioctl() would say EINVAL), and a struct longer than ours must end
 * in zeros (drm_ioctl() would ignore the tail).
 */
static long kohaku_drm_check_ioctl(unsigned int cmd, void __user *uarg)
{
	if (!kh_ioctl_is_ours(cmd))
		return 0;
	if (!kh_ioctl_desc(_IOC_NR(cmd) - DRM_COMMAND_BASE))
		return -ENOTTY;
	return kh_ioctl_check_tail(cmd, uarg);
}

static long kohaku_drm_unlocked_ioctl(struct file *filp, unsigned int cmd,
				      unsigned long arg)
{
	long ret = kohaku_drm_check_ioctl(cmd, (void __user *)arg);

	return ret ? ret : drm_ioctl(filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
/* The ABI structs carry pointers as __u64 and are padded alike on both. */
static long kohaku_drm_compat_ioctl(struct file *filp, unsigned int cmd,
				    unsigned long arg)
{
	long ret = kohaku_drm_check_ioctl(cmd, compat_ptr(arg));

	return ret ? ret : drm_compat_ioctl(filp, cmd, arg);
}
#else
#define kohaku_drm_compat_ioctl	NULL
#endif

/*
 * DEFINE_DRM_ACCEL_FOPS without GEM mmap, with the size rule's checks;
 * open, fdinfo and the flags are the kernel's kind of node's
 * (kohaku_compat.h: DEFINE_DRM_GEM_FOPS's before 6.2).
 */
static const struct file_operations kohaku_fops = {
	.owner		= THIS_MODULE,
	.open		= KOHAKU_DRM_FOPS_OPEN,
	.release	= drm_release,
	.unlocked_ioctl	= kohaku_drm_unlocked_ioctl,
	.compat_ioctl	= kohaku_drm_compat_ioctl,
	.poll		= drm_poll,
	.read		= drm_read,
	.llseek		= noop_llseek,
	KOHAKU_FOPS_SHOW_FDINFO
	KOHAKU_FOPS_FLAGS
};

static const struct drm_driver kohaku_drm_driver = {
	.driver_features	= KOHAKU_DRM_FEATURES | DRIVER_SYNCOBJ,
	.open			= kohaku_drm_open,
	.postclose		= kohaku_drm_postclose,
	KOHAKU_DRM_SHOW_FDINFO(kohaku_drm_show_fdinfo)
	.ioctls			= kohaku_drm_ioctls,
	.num_ioctls		= ARRAY_SIZE(kohaku_drm_ioctls),
	.fops			= &kohaku_fops,
	.name			= KOHAKU_DRIVER_NAME,
	.desc			= KOHAKU_DRV_DESC,
	KOHAKU_DRM_DATE
	.major			= KOHAKU_DRV_MAJOR,
	.minor			= KOHAKU_DRV_MINOR,
	.patchlevel		= KOHAKU_DRV_PATCH,
};

bool kohaku_poll_only;
module_param_named(poll_only, kohaku_poll_only, bool, 0444);
MODULE_PARM_DESC(poll_only, "never use the card's interrupts: poll for DMA and job completion");

/*
 * The meshes' clock governor and recovery at bring-up (docs/linux.md
 * "Module parameters"); each can be changed per mesh afterwards through
 * sysfs or DRM_IOCTL_KOHAKU_MESH_SET.
 */
static char *kohaku_clk_policy = "auto";
module_param_named(clk_policy, kohaku_clk_policy, charp, 0444);
MODULE_PARM_DESC(clk_policy, "mesh clock policy at bring-up: auto (idle profile after clk_idle_ms without a job, run profile for jobs) or fixed (clk_fixed always)");
static char *kohaku_clk_idle = "low";
module_param_named(clk_idle, kohaku_clk_idle, charp, 0444);
MODULE_PARM_DESC(clk_idle, "auto's idle profile: low (100/200/100/100 MHz), mid (200/400/200/200) or ship (300/600/300/300)");
static char *kohaku_clk_run = "ship";
module_param_named(clk_run, kohaku_clk_run, charp, 0444);
MODULE_PARM_DESC(clk_run, "auto's profile for jobs: low, mid or ship");
static char *kohaku_clk_fixed = "ship";
module_param_named(clk_fixed, kohaku_clk_fixed, charp, 0444);
MODULE_PARM_DESC(clk_fixed, "fixed's profile: low, mid or ship");
static unsigned int kohaku_clk_idle_ms = KH_CLK_IDLE_MS_DEFAULT;
module_param_named(clk_idle_ms, kohaku_clk_idle_ms, uint, 0444);
MODULE_PARM_DESC(clk_idle_ms, "auto: a mesh without a job for this long drops to clk_idle (1..3600000)");
static unsigned int kohaku_recover = KH_RECOVER_DEFAULT;
module_param_named(recover, kohaku_recover, uint, 0444);
MODULE_PARM_DESC(recover, "automatic recovery: reset a mesh after a hang, at most this many times in a row with no job completing between (0: off, at most 100)");

/* one of the string parameters, by the core's parser; -EINVAL says which */
static int kohaku_name_param(const char *param, const char *v,
			     int (*parse)(const char *), u8 *out)
{
	int r = parse(v);

	if (r < 0) {
		pr_err("kohaku: %s=%s: not a name it takes (modinfo kohaku)\n", param, v);
		return r;
	}
	*out = r;
	return 0;
}

static int kohaku_mesh_params(void)
{
	struct kh_mesh_defaults d = kh_mesh_defaults_get();
	int ret;

	ret = kohaku_name_param("clk_policy", kohaku_clk_policy,
				kh_clk_policy_parse, &d.clk_policy);
	ret = ret ?: kohaku_name_param("clk_idle", kohaku_clk_idle,
				       kh_clk_profile_parse, &d.clk_idle);
	ret = ret ?: kohaku_name_param("clk_run", kohaku_clk_run,
				       kh_clk_profile_parse, &d.clk_run);
	ret = ret ?: kohaku_name_param("clk_fixed", kohaku_clk_fixed,
				       kh_clk_profile_parse, &d.clk_fixed);
	d.clk_idle_ms = kohaku_clk_idle_ms;
	d.recover_max = kohaku_recover;
	if (!ret && kh_set_mesh_defaults(&d)) {
		pr_err("kohaku: clk_idle_ms=%u or recover=%u out of range (1..%u, 0..%u)\n",
		       kohaku_clk_idle_ms, kohaku_recover, KOHAKU_CLK_IDLE_MS_MAX,
		       KOHAKU_RECOVER_MAX);
		ret = -EINVAL;
	}
	return ret;
}

/* a simulated card's interrupt, called by the model with its lock held */
static void kohaku_irq_fn(void *arg, unsigned int vector)
{
	struct kohaku_accel *kdev = arg;

	kh_device_irq(kdev->kd, vector);
}

/* A card that delivers interrupts by calling (kh_hw_ops.irq_attach). */
static void kohaku_attach_irq(struct kohaku_accel *kdev, const struct kh_hw *hw)
{
	if (!hw->ops->irq_attach || !hw->n_irqs || kohaku_poll_only)
		return;
	hw->ops->irq_attach(hw->ctx, kohaku_irq_fn, kdev);
	kdev->irq_attached = true;
	if (kh_device_irq_enable(kdev->kd)) {
		hw->ops->irq_attach(hw->ctx, NULL, NULL);
		kdev->irq_attached = false;
	}
}

int kohaku_probe(struct device *dev, const struct kh_hw *hw, const char *name)
{
	struct kohaku_accel *kdev;
	struct kh_device *kd;
	int ret;

	ret = kh_device_probe(hw, dev, name, &kd);
	if (ret)
		return ret;

	kdev = devm_drm_dev_alloc(dev, &kohaku_drm_driver,
				  struct kohaku_accel, drm);
	if (IS_ERR(kdev)) {
		ret = PTR_ERR(kdev);
		goto err_core;
	}
	kdev->dev = dev;
	kdev->kd = kd;
	kdev->hw_ctx = hw->ctx;
	kdev->hw_ops = hw->ops;
	INIT_LIST_HEAD(&kdev->files);
	ret = drmm_mutex_init(&kdev->drm, &kdev->files_lock);
	if (ret)
		goto err_core;
	dev_set_drvdata(dev, kdev);
	kohaku_fw_init(kdev);

	/* sysfs first: it is complete once the accel node appears */
	ret = kohaku_sysfs_init(kdev);
	if (ret)
		goto err_core;

	ret = drm_dev_register(&kdev->drm, 0);
	if (ret)
		goto err_sysfs;

	dev_info(dev, "%s is " KOHAKU_DRM_NODE "\n", kh_device_name(kd),
		 kohaku_drm_minor(&kdev->drm)->index);
	kohaku_attach_irq(kdev, hw);
	/* the card is usable now; its POOL firmware comes when it comes */
	kohaku_fw_request(kdev);
	return 0;

err_sysfs:
	kohaku_sysfs_fini(kdev);
err_core:
	/* the DRM device, if any, is released by devres */
	kh_device_remove(kd);
	return ret;
}

void kohaku_remove(struct device *dev)
{
	struct kohaku_accel *kdev = dev_get_drvdata(dev);
	struct kohaku_file *kfile;

	/* running WAITs end now; then no new opens or ioctls, and drain */
	kh_device_unplug(kdev->kd);
	if (kdev->irq_attached)
		kdev->hw_ops->irq_attach(kdev->hw_ctx, NULL, NULL);
	drm_dev_unplug(&kdev->drm);
	kohaku_sysfs_fini(kdev);
	/* a firmware load under way ends soon: its waits see the unplug */
	kohaku_fw_wait(kdev);

	/*
	 * The core is torn down after every file is closed; files still
	 * open are closed here and their DRM files live on, empty, until
	 * userspace lets go of them.
	 */
	mutex_lock(&kdev->files_lock);
	kdev->gone = true;
	list_for_each_entry(kfile, &kdev->files, link) {
		kh_file_close(kfile->kf);
		kfile->kf = NULL;
	}
	mutex_unlock(&kdev->files_lock);

	kh_device_remove(kdev->kd);
	kdev->kd = NULL;
}

/* ---- simulated cards: platform devices made by kohaku_sim.ko ---- */

static int kohaku_platform_probe(struct platform_device *pdev)
{
	const struct kh_hw *hw = dev_get_platdata(&pdev->dev);

	if (!hw || !hw->ops) {
		dev_err(&pdev->dev, "no register-access ops\n");
		return -EINVAL;
	}
	return kohaku_probe(&pdev->dev, hw, dev_name(&pdev->dev));
}

static void kohaku_platform_unbind(struct platform_device *pdev)
{
	kohaku_remove(&pdev->dev);
}

/* the remove callback of this kernel's shape (kohaku_compat.h) */
KOHAKU_DEFINE_PLATFORM_REMOVE(kohaku_platform_remove, kohaku_platform_unbind)

static const struct platform_device_id kohaku_platform_ids[] = {
	{ .name = "kohaku_sim" },
	{ }
};
MODULE_DEVICE_TABLE(platform, kohaku_platform_ids);

static struct platform_driver kohaku_platform_driver = {
	.driver = {
		.name = "kohaku",
	},
	.probe = kohaku_platform_probe,
	.remove = kohaku_platform_remove,
	.id_table = kohaku_platform_ids,
};

static int __init kohaku_init(void)
{
	int ret;

	ret = kohaku_mesh_params();
	if (ret)
		return ret;
	ret = platform_driver_register(&kohaku_platform_driver);
	if (ret)
		return ret;
	ret = pci_register_driver(&kohaku_pci_driver);
	if (ret)
		platform_driver_unregister(&kohaku_platform_driver);
	return ret;
}

static void __exit kohaku_exit(void)
{
	pci_unregister_driver(&kohaku_pci_driver);
	platform_driver_unregister(&kohaku_platform_driver);
}

module_init(kohaku_init);
module_exit(kohaku_exit);

MODULE_DESCRIPTION("KohakuAccel mesh accelerator (DRM accel)");
MODULE_LICENSE("Dual MIT/GPL");
