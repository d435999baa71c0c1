// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the PCI binding.  A KohakuAccel card is an XDMA function
 * whose BAR0 is the 16 MiB AXI-Lite control space (uapi/kohaku/kh_regs.h).
 * This fills the core's register-access ops with MMIO on BAR0.  Host DMA
 * through the XDMA engine is not programmed yet, so the ops have no
 * dma_read/dma_write: the core answers BO data transfers with EOPNOTSUPP
 * and GET_INFO does not report KOHAKU_CAP_DMA.
 */

#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "kohaku/kh_regs.h"
#include "kohaku_drv.h"

#define KOHAKU_PCI_BAR	0

struct kohaku_pci {
	void __iomem *bar0;
};

static bool kohaku_pci_offset_ok(u32 offset)
{
	return IS_ALIGNED(offset, 8) && offset <= KH_BAR0_SIZE - 8;
}

static u64 kohaku_pci_read64(void *ctx, u32 offset)
{
	struct kohaku_pci *kp = ctx;

	if (!kohaku_pci_offset_ok(offset))
		return ~0ULL;
	return readq(kp->bar0 + offset);
}

static void kohaku_pci_write64(void *ctx, u32 offset, u64 value)
{
	struct kohaku_pci *kp = ctx;

	if (kohaku_pci_offset_ok(offset))
		writeq(value, kp->bar0 + offset);
}

static u64 kohaku_pci_now_ns(void *ctx)
{
	return ktime_get_ns();
}

static const struct kh_hw_ops kohaku_pci_ops = {
	.read64		= kohaku_pci_read64,
	.write64	= kohaku_pci_write64,
	.now_ns		= kohaku_pci_now_ns,
};

static int kohaku_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct kohaku_pci *kp;
	struct kh_hw hw = { };
	int ret;

	kp = devm_kzalloc(&pdev->dev, sizeof(*kp), GFP_KERNEL);
	if (!kp)
		return -ENOMEM;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	if (!(pci_resource_flags(pdev, KOHAKU_PCI_BAR) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, KOHAKU_PCI_BAR) < KH_BAR0_SIZE) {
		dev_err(&pdev->dev, "BAR0 is not a %u MiB memory BAR\n",
			KH_BAR0_SIZE >> 20);
		return -ENODEV;
	}

	kp->bar0 = pcim_iomap_region(pdev, KOHAKU_PCI_BAR, "kohaku");
	if (IS_ERR(kp->bar0))
		return PTR_ERR(kp->bar0);

	hw.ops = &kohaku_pci_ops;
	hw.ctx = kp;
	hw.flags = 0;		/* a card: wall time, polled */

	return kohaku_probe(&pdev->dev, &hw, pci_name(pdev));
}

static void kohaku_pci_remove(struct pci_dev *pdev)
{
	kohaku_remove(&pdev->dev);
}

static const struct pci_device_id kohaku_pci_ids[] = {
	{ PCI_DEVICE(KH_PCI_VENDOR, KH_PCI_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, kohaku_pci_ids);

struct pci_driver kohaku_pci_driver = {
	.name		= "kohaku",
	.id_table	= kohaku_pci_ids,
	.probe		= kohaku_pci_probe,
	.remove		= kohaku_pci_remove,
};
