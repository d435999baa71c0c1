// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku_sim.ko: simulated KohakuAccel cards in the kernel, netdevsim
 * style.  The device model (sim-backend/, ksim.h) is compiled into this
 * module; each card is a platform device "kohaku_sim".<id> under the root
 * device /sys/devices/kohaku_sim/, whose platform_data is the struct
 * kh_hw kohaku.ko binds with, exactly as to a PCI card.
 *
 * This file: the module, its parameters, and the cards (create, delete).
 * Module parameter cards= lists built-in names created at load, ids 0, 1,
 * ... and check=1 turns the model's protocol checker on in every new card;
 * irq=poll makes new cards offer no interrupt vectors (irq=msix, the
 * default: the card's four); ctrl=32 makes new cards' control space 32-bit
 * accesses only, as a card's host has it (KH_HW_CTRL32; ctrl=64, the
 * default: the model's 64-bit path too).  The cards' DMA engines reach host memory
 * through dma-direct's bus addresses (kohaku_sim_mem()).
 * The control files are in driver/sim/ctl.c, the knobs in
 * driver/sim/debugfs.c.
 */

#include <linux/device.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ksim_hw.h"
#include "kohaku_sim.h"

static char *cards = "saxpy";
module_param(cards, charp, 0444);
MODULE_PARM_DESC(cards,
		 "comma-separated built-in card descriptions created at load (ids 0, 1, ...)");

static bool check;
module_param(check, bool, 0644);
MODULE_PARM_DESC(check,
		 "turn the model's protocol checker on in cards created from now on");

static char *irq = "msix";
module_param(irq, charp, 0644);
MODULE_PARM_DESC(irq,
		 "interrupts of cards created from now on: msix (the card offers its MSI-X vectors) or poll (none: the driver polls)");

static char *ctrl = "64";
module_param(ctrl, charp, 0644);
MODULE_PARM_DESC(ctrl,
		 "control path of cards created from now on: 64 (the model's 64-bit accesses) or 32 (32-bit accesses only, as a card's host has them)");

static struct device *kohaku_sim_root;
static LIST_HEAD(kohaku_sim_cards);
static DEFINE_MUTEX(kohaku_sim_cards_lock);	/* the list; create and delete */

static struct kohaku_sim_card *kohaku_sim_card_find(unsigned int id)
{
	struct kohaku_sim_card *c;

	list_for_each_entry(c, &kohaku_sim_cards, link)
		if (c->id == id)
			return c;
	return NULL;
}

/*
 * The card's DMA engine reaches host memory by bus address: what dma-direct
 * gives kohaku.ko for the platform device (its DMA mask is 64 bits, so no
 * bounce buffer), mapped back to pages one page at a time.  An address
 * that is not system RAM answers -EFAULT, and the engine logs the error a card
 * would.
 */
static int kohaku_sim_mem(struct kohaku_sim_card *c, u64 bus, u8 *buf,
			  size_t n, bool write)
{
	struct device *dev = &c->pdev->dev;

	if (bus + n < bus)
		return -EFAULT;
	while (n) {
		phys_addr_t phys = dma_to_phys(dev, bus);
		size_t off = offset_in_page(phys);
		size_t k = min_t(size_t, n, PAGE_SIZE - off);
		struct page *page;
		u8 *p;

		/* RAM with a struct page: never a hole or MMIO */
		if (!pfn_valid(PHYS_PFN(phys)) || !page_is_ram(PHYS_PFN(phys)))
			return -EFAULT;
		page = pfn_to_page(PHYS_PFN(phys));
		p = kmap_local_page(page);
		if (write) {
			memcpy(p + off, buf, k);
			flush_dcache_page(page);
		} else {
			memcpy(buf, p + off, k);
		}
		kunmap_local(p);
		bus += k;
		buf += k;
		n -= k;
	}
	return 0;
}

static int kohaku_sim_mem_read(void *ctx, u64 bus, void *dst, size_t n)
{
	return kohaku_sim_mem(ctx, bus, dst, n, false);
}

static int kohaku_sim_mem_write(void *ctx, u64 bus, const void *src, size_t n)
{
	return kohaku_sim_mem(ctx, bus, (u8 *)src, n, true);
}

/*
 * The kernel's own pointer to [bus, bus + n) when it is physically
 * contiguous RAM in the linear map (no highmem), so the engine copies once;
 * NULL otherwise, and the engine goes through kohaku_sim_mem() page by page.
 * Where the architecture needs flush_dcache_page() after a kernel write to
 * a page user space maps, there is no pointer: kohaku_sim_mem() flushes.
 */
static void *kohaku_sim_mem_map(void *ctx, u64 bus, size_t n)
{
	struct kohaku_sim_card *c = ctx;
	phys_addr_t phys = dma_to_phys(&c->pdev->dev, bus);
	unsigned long pfn, last;

#ifdef ARCH_IMPLEMENTS_FLUSH_DCACHE_PAGE
	return NULL;
#endif
	if (!n || bus + n < bus)
		return NULL;
	last = PHYS_PFN(dma_to_phys(&c->pdev->dev, bus + n - 1));
	if (last - PHYS_PFN(phys) != (n - 1 + offset_in_page(phys)) >> PAGE_SHIFT)
		return NULL;
	for (pfn = PHYS_PFN(phys); pfn <= last; pfn++)
		if (!pfn_valid(pfn) || !page_is_ram(pfn) ||
		    PageHighMem(pfn_to_page(pfn)))
			return NULL;
	return page_address(pfn_to_page(PHYS_PFN(phys))) + offset_in_page(phys);
}

static const struct ksim_host_ops kohaku_sim_host_ops = {
	.mem_read = kohaku_sim_mem_read,
	.mem_write = kohaku_sim_mem_write,
	.mem_map = kohaku_sim_mem_map,
};

/* irq=: KSIM_HW_POLL or 0; -EINVAL for a value it does not know */
static int kohaku_sim_irq_flags(void)
{
	int ret = -EINVAL;

	/* the string may be replaced through sysfs meanwhile */
	kernel_param_lock(THIS_MODULE);
	if (!irq || !strcmp(irq, "msix"))
		ret = 0;
	else if (!strcmp(irq, "poll"))
		ret = KSIM_HW_POLL;
	else
		pr_err("kohaku_sim: irq=%s: expected msix or poll\n", irq);
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

/* ctrl=: KSIM_HW_CTRL32 or 0; -EINVAL for a value it does not know */
static int kohaku_sim_ctrl_flags(void)
{
	int ret = -EINVAL;

	kernel_param_lock(THIS_MODULE);
	if (!ctrl || !strcmp(ctrl, "64"))
		ret = 0;
	else if (!strcmp(ctrl, "32"))
		ret = KSIM_HW_CTRL32;
	else
		pr_err("kohaku_sim: ctrl=%s: expected 64 or 32\n", ctrl);
	kernel_param_unlock(THIS_MODULE);
	return ret;
}

/*
 * The platform device kohaku.ko binds to, registered with c->pdev already
 * set: kohaku.ko's probe runs the card's DMA engine, whose host memory
 * callbacks need the device.
 */
static int kohaku_sim_pdev_add(struct kohaku_sim_card *c)
{
	struct platform_device *pdev;
	int ret;

	pdev = platform_device_alloc(KOHAKU_SIM_DEV_NAME, c->id);
	if (!pdev)
		return -ENOMEM;
	pdev->dev.parent = kohaku_sim_root;
	/* kohaku.ko copies the data */
	ret = platform_device_add_data(pdev, ksim_hw_get(c->sh),
				       sizeof(struct kh_hw));
	if (!ret)
		ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		platform_device_put(pdev);
		return ret;
	}
	c->pdev = pdev;
	/* binds kohaku.ko, when loaded, before returning */
	ret = platform_device_add(pdev);
	if (ret) {
		c->pdev = NULL;
		platform_device_put(pdev);
	}
	return ret;
}

/* Create card id from a description; what: how the user named it, for logs. */
int kohaku_sim_card_new(unsigned int id, const char *desc, const char *what)
{
	struct kohaku_sim_card *c;
	struct ksim_card *sim;
	unsigned int n_mesh;
	int ret, flags;
	char *err;

	if (id > KOHAKU_SIM_MAX_ID) {
		pr_err("kohaku_sim: card id %u out of range (0..%u)\n",
		       id, KOHAKU_SIM_MAX_ID);
		return -EINVAL;
	}
	flags = kohaku_sim_irq_flags();
	if (flags < 0)
		return flags;
	ret = kohaku_sim_ctrl_flags();
	if (ret < 0)
		return ret;
	flags |= ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	err = kzalloc(KOHAKU_SIM_ERRLEN, GFP_KERNEL);
	if (!c || !err) {
		ret = -ENOMEM;
		goto out_free;
	}
	c->id = id;

	mutex_lock(&kohaku_sim_cards_lock);
	if (kohaku_sim_card_find(id)) {
		pr_err("kohaku_sim: card %u already exists\n", id);
		ret = -EEXIST;
		goto out_unlock;
	}

	ret = ksim_card_create_flags(desc, check ? KSIM_CHECK : 0, &sim,
				     err, KOHAKU_SIM_ERRLEN);
	if (ret) {
		pr_err("kohaku_sim: card %u (%s): %s\n", id, what,
		       err[0] ? err : "bad description");
		goto out_unlock;
	}
	/* for the log line below, when another writer may delete the card */
	n_mesh = ksim_mesh_count(sim);
	c->sh = ksim_hw_create(sim, &kohaku_sim_host_ops, c, flags);
	if (!c->sh) {
		ksim_card_destroy(sim);
		ret = -ENOMEM;
		goto out_unlock;
	}

	ret = kohaku_sim_pdev_add(c);
	if (ret) {
		pr_err("kohaku_sim: card %u: platform device: %d\n", id, ret);
		ksim_hw_destroy(c->sh);
		goto out_unlock;
	}

	list_add_tail(&c->link, &kohaku_sim_cards);
	kohaku_sim_debugfs_add_card(c);
	mutex_unlock(&kohaku_sim_cards_lock);
	pr_info("kohaku_sim: card %u (%s): %u mesh(es)\n", id, what, n_mesh);
	kfree(err);
	return 0;

out_unlock:
	mutex_unlock(&kohaku_sim_cards_lock);
out_free:
	kfree(err);
	kfree(c);
	return ret;
}

/* Called with kohaku_sim_cards_lock held; c is off the list already. */
static void kohaku_sim_card_destroy(struct kohaku_sim_card *c)
{
	/* first the knobs: removal waits for readers and writers in them */
	kohaku_sim_debugfs_remove_card(c);
	/* unbinds kohaku.ko, which may still touch the card on the way out */
	platform_device_unregister(c->pdev);
	ksim_hw_destroy(c->sh);
	pr_info("kohaku_sim: card %u deleted\n", c->id);
	kfree(c);
}

int kohaku_sim_card_del(unsigned int id)
{
	struct kohaku_sim_card *c;

	mutex_lock(&kohaku_sim_cards_lock);
	c = kohaku_sim_card_find(id);
	if (c) {
		list_del(&c->link);
		kohaku_sim_card_destroy(c);
	}
	mutex_unlock(&kohaku_sim_cards_lock);
	if (!c) {
		pr_err("kohaku_sim: del_card: no card %u\n", id);
		return -ENOENT;
	}
	return 0;
}

static void kohaku_sim_card_del_all(void)
{
	struct kohaku_sim_card *c, *tmp;

	mutex_lock(&kohaku_sim_cards_lock);
	list_for_each_entry_safe_reverse(c, tmp, &kohaku_sim_cards, link) {
		list_del(&c->link);
		kohaku_sim_card_destroy(c);
	}
	mutex_unlock(&kohaku_sim_cards_lock);
}

static int kohaku_sim_create_param_cards(void)
{
	char *list, *p, *name;
	unsigned int id = 0;
	const char *desc;
	int ret = 0;

	list = kstrdup(cards ? cards : "", GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	p = list;
	while ((name = strsep(&p, ",")) != NULL) {
		name = strim(name);
		if (!*name)
			continue;
		desc = ksim_builtin_desc(name);
		if (!desc) {
			pr_err("kohaku_sim: cards=: no built-in description '%s'\n",
			       name);
			ret = -EINVAL;
			break;
		}
		ret = kohaku_sim_card_new(id++, desc, name);
		if (ret)
			break;
	}
	kfree(list);
	return ret;
}

static int __init kohaku_sim_init(void)
{
	int ret;

	kohaku_sim_root = root_device_register(KOHAKU_SIM_DEV_NAME);
	if (IS_ERR(kohaku_sim_root))
		return PTR_ERR(kohaku_sim_root);
	kohaku_sim_debugfs_init();

	ret = kohaku_sim_create_param_cards();
	if (ret)
		goto err;

	ret = kohaku_sim_ctl_add(kohaku_sim_root);
	if (ret)
		goto err;
	return 0;

err:
	kohaku_sim_card_del_all();
	kohaku_sim_debugfs_exit();
	root_device_unregister(kohaku_sim_root);
	return ret;
}

static void __exit kohaku_sim_exit(void)
{
	/* waits for writers still in new_card/del_card */
	kohaku_sim_ctl_remove(kohaku_sim_root);
	kohaku_sim_card_del_all();
	kohaku_sim_debugfs_exit();
	root_device_unregister(kohaku_sim_root);
}

module_init(kohaku_sim_init);
module_exit(kohaku_sim_exit);

MODULE_DESCRIPTION("Simulated KohakuAccel cards (the Kohaku device model)");
MODULE_LICENSE("Dual MIT/GPL");
