// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the PCI binding.  A KohakuAccel card is an XDMA function: BAR0
 * the 16 MiB AXI-Lite control space (uapi/kohaku/kh_regs.h), and the XDMA
 * register space on another BAR, which the core finds by its identifiers
 * (docs/spec/xdma.md).  The AXI-Lite master behind BAR0 is 32 bits wide
 * and the card has no other path to the control space, so the core gets
 * 32-bit accesses only (KH_HW_CTRL32, docs/spec/xdma.md "BAR0 in 32
 * bits"): a 64-bit MMIO would reach the orchestrator as two beats the
 * core did not choose.  This maps every memory BAR for the core's register
 * ops, gives the card a 64-bit DMA mask (its engine reaches host memory by
 * itself), and requests MSI-X (else MSI) vectors whose handlers hand the
 * interrupt to the core, unless kohaku.poll_only is set.
 */

#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "kohaku/kh_regs.h"
#include "kohaku_drv.h"

#define KOHAKU_PCI_BAR		0
#define KOHAKU_PCI_MAX_IRQS	4	/* H2C, C2H, user; one to spare */

struct kohaku_pci;

/* what a vector's handler is given: the card, and which vector it is */
struct kohaku_pci_vec {
	struct kohaku_pci *kp;
	unsigned int n;
};

struct kohaku_pci {
	struct pci_dev *pdev;
	void __iomem *bar[KH_HW_MAX_BARS];
	u32 bar_len[KH_HW_MAX_BARS];
	int n_irqs;		/* vectors allocated */
	int n_handlers;		/* of them, with our handler */
	struct kohaku_pci_vec vec[KOHAKU_PCI_MAX_IRQS];
};

static bool kohaku_pci_bar_ok(struct kohaku_pci *kp, unsigned int bar, u32 offset)
{
	return bar < KH_HW_MAX_BARS && kp->bar[bar] && IS_ALIGNED(offset, 4) &&
	       offset <= kp->bar_len[bar] - 4;
}

static u32 kohaku_pci_bar_read32(void *ctx, unsigned int bar, u32 offset)
{
	struct kohaku_pci *kp = ctx;

	if (!kohaku_pci_bar_ok(kp, bar, offset))
		return ~0u;
	return readl(kp->bar[bar] + offset);
}

static void kohaku_pci_bar_write32(void *ctx, unsigned int bar, u32 offset, u32 value)
{
	struct kohaku_pci *kp = ctx;

	if (kohaku_pci_bar_ok(kp, bar, offset))
		writel(value, kp->bar[bar] + offset);
}

static u64 kohaku_pci_now_ns(void *ctx)
{
	return ktime_get_ns();
}

static const struct kh_hw_ops kohaku_pci_ops = {
	.bar_read32	= kohaku_pci_bar_read32,
	.bar_write32	= kohaku_pci_bar_write32,
	.now_ns		= kohaku_pci_now_ns,
};

/* Every memory BAR, for the core to look at (BAR0 must be the control space). */
static int kohaku_pci_map_bars(struct pci_dev *pdev, struct kohaku_pci *kp,
			       struct kh_hw *hw)
{
	unsigned int i;

	for (i = 0; i < KH_HW_MAX_BARS; i++) {
		resource_size_t len = pci_resource_len(pdev, i);
		void __iomem *p;

		if (!(pci_resource_flags(pdev, i) & IORESOURCE_MEM) || !len ||
		    len > U32_MAX)
			continue;
		p = pcim_iomap_region(pdev, i, "kohaku");
		if (IS_ERR(p))
			return PTR_ERR(p);
		kp->bar[i] = p;
		kp->bar_len[i] = len;
		hw->bar_size[i] = len;
	}
	if (!kp->bar[KOHAKU_PCI_BAR] || kp->bar_len[KOHAKU_PCI_BAR] < KH_BAR0_SIZE) {
		dev_err(&pdev->dev, "BAR0 is not a %u MiB memory BAR\n",
			KH_BAR0_SIZE >> 20);
		return -ENODEV;
	}
	return 0;
}

/*
 * Each vector's handler knows its number from its own cookie:
 * pci_irq_vector() takes the MSI domain's mutex, never in hard IRQ.
 */
static irqreturn_t kohaku_pci_irq(int irq, void *arg)
{
	struct kohaku_pci_vec *vec = arg;
	struct kohaku_accel *kdev = pci_get_drvdata(vec->kp->pdev);

	kh_device_irq(kdev->kd, vec->n);
	return IRQ_HANDLED;
}

/* The card's interrupts to the core; without them it polls. */
static void kohaku_pci_irqs(struct pci_dev *pdev, struct kohaku_pci *kp)
{
	struct kohaku_accel *kdev = pci_get_drvdata(pdev);
	int i, ret;

	for (i = 0; i < kp->n_irqs; i++) {
		kp->vec[i].kp = kp;
		kp->vec[i].n = i;
		ret = devm_request_irq(&pdev->dev, pci_irq_vector(pdev, i),
				       kohaku_pci_irq, 0, "kohaku", &kp->vec[i]);
		if (ret) {
			dev_warn(&pdev->dev, "interrupt %d: %d; polling\n", i, ret);
			return;
		}
		kp->n_handlers = i + 1;
	}
	if (kp->n_irqs && !kh_device_irq_enable(kdev->kd))
		dev_info(&pdev->dev, "%d interrupt vectors in use\n", kp->n_irqs);
}

static int kohaku_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct kohaku_pci *kp;
	struct kh_hw hw = { };
	int ret;

	kp = devm_kzalloc(&pdev->dev, sizeof(*kp), GFP_KERNEL);
	if (!kp)
		return -ENOMEM;
	kp->pdev = pdev;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = kohaku_pci_map_bars(pdev, kp, &hw);
	if (ret)
		return ret;
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		dev_err(&pdev->dev, "no 64-bit DMA: %d\n", ret);
		return ret;
	}
	if (!kohaku_poll_only) {
		kp->n_irqs = pci_alloc_irq_vectors(pdev, 1, KOHAKU_PCI_MAX_IRQS,
						   PCI_IRQ_MSIX | PCI_IRQ_MSI);
		if (kp->n_irqs < 0) {
			dev_info(&pdev->dev, "no MSI-X or MSI (%d): polling\n", kp->n_irqs);
			kp->n_irqs = 0;
		}
	}

	hw.ops = &kohaku_pci_ops;
	hw.ctx = kp;
	hw.flags = KH_HW_CTRL32;	/* a card: wall time, BAR0 in 32 bits */
	hw.n_irqs = kp->n_irqs;

	ret = kohaku_probe(&pdev->dev, &hw, pci_name(pdev));
	if (ret) {
		if (kp->n_irqs)
			pci_free_irq_vectors(pdev);
		return ret;
	}
	kohaku_pci_irqs(pdev, kp);
	return 0;
}

static void kohaku_pci_remove(struct pci_dev *pdev)
{
	struct kohaku_accel *kdev = pci_get_drvdata(pdev);
	struct kohaku_pci *kp = kdev->hw_ctx;
	int i;

	/* no handler runs into a core being torn down */
	for (i = 0; i < kp->n_handlers; i++)
		devm_free_irq(&pdev->dev, pci_irq_vector(pdev, i), &kp->vec[i]);
	if (kp->n_irqs)
		pci_free_irq_vectors(pdev);
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
