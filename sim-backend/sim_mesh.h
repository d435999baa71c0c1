/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One mesh: its routers, endpoints, memory agent and DRAM, built from a
 * parsed map (sim_desc.h).  Coordinates are the map's: x = token index,
 * y = line index; routers sit at 1..w-2 x 1..h-2.
 */
#ifndef KH_SIM_MESH_H
#define KH_SIM_MESH_H

#include "kh_plat.h"
#include "sim_dram.h"
#include "sim_link.h"
#include "sim_params.h"
#include "sim_reset.h"
#include "sim_sched.h"

#define KH_MAP_MAX		16
#define KH_MAP_MIN		3
#define KH_MAG_PORTS_MAX	4

struct kh_sim_card;
struct kh_router;
struct kh_unit;
struct kh_mag;
struct kh_l2;
struct kh_desc_mesh;
struct kh_obs;

struct kh_mesh {
	struct kh_sim_card *card;
	struct kh_sched *sched;
	const struct kh_sim_params *p;	/* = &params */
	struct kh_sim_params params;	/* this mesh's, from the description */
	unsigned int id;
	unsigned int w, h;
	unsigned int lo, hi_x, hi_y;	/* router grid bounds */
	unsigned int nrx, nry;		/* routers per row / column */
	struct kh_router *routers;	/* nrx * nry, row-major from (1,1) */
	struct kh_unit *unit[KH_MAP_MAX][KH_MAP_MAX];	/* [y][x] */
	struct kh_l2 *l2[KH_MAP_MAX][KH_MAP_MAX];	/* adapter on a unit's link */
	struct kh_mesh_rst rst;		/* resetn and the endpoint gates */
	struct kh_mag *mag;
	struct kh_dram dram;
	struct kh_tieoff tieoff;
	struct kh_obs *obs;		/* set while traced or DRAM knobs exist */
};

struct kh_mesh *kh_mesh_create(struct kh_sim_card *card, unsigned int id,
			       const struct kh_desc_mesh *dm, int *err);
void kh_mesh_destroy(struct kh_mesh *m);
void kh_mesh_reset(struct kh_mesh *m);

struct kh_router *kh_mesh_router(struct kh_mesh *m, unsigned int x,
				 unsigned int y);
/* The MAG port index for a unit on row y (nearest row, lower on a tie). */
unsigned int kh_mesh_unit_mag_port(const struct kh_mesh *m, unsigned int y);

/* Rate-limited model diagnostics (sim_card.c). */
bool kh_sim_log_ok(struct kh_sim_card *card);
/* A mesh's interrupt level may have changed: re-evaluate the line. */
void kh_sim_irq_eval(struct kh_sim_card *card);
#define kh_mesh_log(m, fmt, ...)					\
	do {								\
		if (kh_sim_log_ok((m)->card))				\
			kh_plat_log("mesh%u: " fmt "\n", (m)->id,	\
				    ##__VA_ARGS__);			\
	} while (0)

#endif /* KH_SIM_MESH_H */
