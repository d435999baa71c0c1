// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card's interrupts, as the host delivers them (kh_device_irq(): an
 * MSI-X handler on a card, the model's callback on a simulated one): the
 * XDMA channels' completions wake the DMA waiter, the user interrupt (the
 * orchestrator's IRQ addon, docs/spec/irq-addon.md) kicks the progress
 * engine.  A handler runs in interrupt context or with the card's own lock
 * held: it counts and wakes, and never touches the card.
 */
#include "kh_priv.h"

void kh_device_irq(struct kh_device *kd, unsigned int vector)
{
	struct kh_xdma *x = &kd->xdma;

	if (!READ_ONCE(x->irq_on))
		return;
	WRITE_ONCE(x->irqs, x->irqs + 1);
	kh_xdma_irq(kd, vector);
	if (vector == x->user_vector) {
		WRITE_ONCE(x->user_irqs, x->user_irqs + 1);
		wake_up_all(&x->wq);
		kh_engine_kick(kd);
	}
}

/*
 * Job completion by interrupt: every mesh with the IRQ addon raises the
 * user interrupt for its job events, and the engine rests between passes
 * until one comes (kh_engine.c) instead of polling.
 */
static void kh_irq_jobs_enable(struct kh_device *kd)
{
	unsigned int i, n = 0;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i) || !(m->caps & KH_CAPS_IRQ_ADDON))
			continue;
		mutex_lock(&m->lock);
		kh_mesh_irq_enable(m);
		mutex_unlock(&m->lock);
		n++;
	}
	if (!n)
		return;
	kh_xdma_user_enable(kd);
	WRITE_ONCE(kd->irq_jobs, true);
	kh_info(kd, "job completion by interrupt on %u mesh(es)\n", n);
}

int kh_device_irq_enable(struct kh_device *kd)
{
	int ret;

	if (!kd->hw.n_irqs)
		return -ENODEV;
	ret = kh_xdma_irq_enable(kd);
	if (ret) {
		kh_info(kd, "interrupts offered, but the card has no usable XDMA engine: polling\n");
		return ret;
	}
	kh_irq_jobs_enable(kd);
	return 0;
}

u64 kh_device_dma_param(struct kh_device *kd, u32 param)
{
	return kh_xdma_param(kd, param);
}
