/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The card: up to four meshes on one scheduler, and the host's view. */
#ifndef KH_SIM_CARD_H
#define KH_SIM_CARD_H

#include "kh_sim_int.h"
#include "sim_mesh.h"
#include "sim_params.h"
#include "sim_sched.h"
#include <kohaku/kh_regs.h>

#define KH_SIM_CLOCK_MHZ	300
#define KH_CLKWIZ_REGS		(0x800 / 4)	/* stored clock-wizard space */
#define KH_SIM_LOG_BUDGET	200		/* diagnostics per card */

struct kh_sim_card {
	struct kh_sim_params p;
	struct kh_sched sched;
	unsigned int n_mesh;
	struct kh_mesh *mesh[KH_MAX_MESHES];
	u32 clock_mhz;
	struct kh_sim_timing timing;
	u32 clkwiz[KH_MAX_MESHES][KH_CLKWIZ_REGS];
	u32 log_left;
};

const struct kh_sim_params *kh_sim_card_params(const struct kh_sim_card *c);
struct kh_sched *kh_sim_card_sched(struct kh_sim_card *c);
/* Present meshes only. */
struct kh_mesh *kh_sim_card_mesh(struct kh_sim_card *c, unsigned int n);

#endif /* KH_SIM_CARD_H */
