/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The card: up to four meshes on one scheduler, and the host's view. */
#ifndef KH_SIM_CARD_H
#define KH_SIM_CARD_H

#include "kh_sim_int.h"
#include "sim_clkwiz.h"
#include "sim_mesh.h"
#include "sim_params.h"
#include "sim_sched.h"
#include <kohaku/kh_regs.h>

#define KH_SIM_CLOCK_MHZ	300
#define KH_SIM_LOG_BUDGET	200		/* diagnostics per card */

struct kh_sim_card {
	struct kh_sim_params p;		/* the card-wide parameters */
	struct kh_sched sched;
	unsigned int n_mesh;
	struct kh_mesh *mesh[KH_MAX_MESHES];
	u32 clock_mhz;
	struct kh_sim_timing timing;
	struct kh_clkwiz clkwiz[KH_MAX_MESHES];
	struct kh_ddrc ddrc[KH_MAX_MESHES];
	struct kh_node rst_node;	/* wakes the card when a reset ends */
	/* the XDMA user interrupt: OR over meshes of IRQ_STAT & IRQ_EN */
	bool irq_line;
	kh_sim_irq_fn irq_fn;
	void *irq_ctx;
	u64 irq_rises;
	u32 log_left;
	struct kh_obs *obs;		/* checker, knobs, trace (sim_obs.h) */
};

const struct kh_sim_params *kh_sim_card_params(const struct kh_sim_card *c);
struct kh_sched *kh_sim_card_sched(struct kh_sim_card *c);
/* Present meshes only. */
struct kh_mesh *kh_sim_card_mesh(struct kh_sim_card *c, unsigned int n);
/* A mesh's reset window changed: be stepped when the next one ends. */
void kh_sim_card_rst_timer(struct kh_sim_card *c);

#endif /* KH_SIM_CARD_H */
