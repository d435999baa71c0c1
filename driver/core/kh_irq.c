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

	if (!kh_read_once(x->irq_on))
		return;
	kh_write_once(x->irqs, x->irqs + 1);
	kh_xdma_irq(kd, vector);
	if (vector == x->user_vector) {
		kh_write_once(x->user_irqs, x->user_irqs + 1);
		kh_waitq_wake(&x->wq);
		kh_engine_kick(kd);
	}
}

/* the orchestrator events that move a job: a signal, a fault, a kick done */
#define KH_IRQ_JOB_EVENTS	(KH_IRQ_SIGNAL | KH_IRQ_FAULT | KH_IRQ_PROG_DONE)

static void kh_irq_mesh_enable(struct kh_mesh *m)
{
	kh_wr(m, KH_ORC_IRQ_STAT, KH_IRQ_ALL);
	kh_wr(m, KH_ORC_IRQ_EN, KH_IRQ_JOB_EVENTS);
}

/* A mesh reset cleared IRQ_EN: the mesh raises its events again. */
void kh_irq_mesh_rearm(struct kh_mesh *m)
{
	kh_lock_assert_held(&m->lock);
	if (kh_read_once(m->kd->irq_jobs) && (m->caps & KH_CAPS_IRQ_ADDON))
		kh_irq_mesh_enable(m);
}

/*
 * Job completion by interrupt: every mesh with the IRQ addon raises the
 * user interrupt for its job events, and the engine rests between passes
 * until one comes (kh_irq_rest) instead of polling.
 */
static void kh_irq_jobs_enable(struct kh_device *kd)
{
	unsigned int i, n = 0;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i) || !(m->caps & KH_CAPS_IRQ_ADDON))
			continue;
		kh_mutex_lock(&m->lock);
		kh_irq_mesh_enable(m);
		kh_mutex_unlock(&m->lock);
		n++;
	}
	if (!n)
		return;
	kh_xdma_user_enable(kd);
	kh_write_once(kd->irq_jobs, true);
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

/*
 * Between two passes of the engine with a job in flight: on an interrupt
 * driven card, until the user interrupt (or a short bound, which no
 * interrupt may be trusted to spare: docs/spec/irq-addon.md "What a driver
 * may assume"); then the meshes' events are cleared, before the pass that
 * looks at what they announced.  Without interrupts, a poll's pause.
 */
void kh_irq_rest(struct kh_device *kd)
{
	bool sim = kh_simulated(kd);
	u32 seen = kh_read_once(kd->xdma.user_irqs);
	unsigned int i, steps;

	if (!kh_read_once(kd->irq_jobs)) {
		kh_relax(sim);
		return;
	}
	if (sim && kd->hw.ops->idle_ns) {
		/* the model moves only while its time passes: in small steps */
		for (steps = 0; steps < KH_IRQ_SIM_STEPS &&
		     kh_read_once(kd->xdma.user_irqs) == seen; steps++)
			kd->hw.ops->idle_ns(kd->hw.ctx, KH_IRQ_SIM_STEP_NS);
	} else {
		kh_waitq_wait(&kd->xdma.wq, kh_read_once(kd->xdma.user_irqs) != seen,
			      KH_IRQ_REST_NS);
	}
	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i) || !(m->caps & KH_CAPS_IRQ_ADDON))
			continue;
		kh_mutex_lock(&m->lock);
		kh_wr(m, KH_ORC_IRQ_STAT, kh_rd(m, KH_ORC_IRQ_STAT));
		kh_mutex_unlock(&m->lock);
	}
}

u64 kh_device_dma_param(struct kh_device *kd, u32 param)
{
	return kh_xdma_param(kd, param);
}
