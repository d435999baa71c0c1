/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One mesh: its routers, endpoints, memory agent and DRAM, built from a
 * parsed map (card/desc.h).  Coordinates are the map's: x = token index,
 * y = line index; routers sit at 1..w-2 x 1..h-2.
 */
#ifndef KSIM_MESH_H
#define KSIM_MESH_H

#include "ksim_plat.h"
#include "base.h"
#include "dram.h"
#include "irq.h"
#include "link.h"
#include "log.h"
#include "params.h"
#include "reset.h"
#include "sched.h"
#include <kohaku/kh_regs.h>

#define KSIM_MAP_MAX		16
#define KSIM_MAP_MIN		3
#define KSIM_MAG_PORTS_MAX	4

struct ksim_router;
struct ksim_unit;
struct ksim_mag;
struct ksim_l2;
struct ksim_mag_port;
struct ksim_orch;
struct ksim_mesh;
struct ksim_mesh_watch;

/*
 * What a mesh's MAG and orchestrator report to whoever watches the mesh
 * (the observers implement it, obs/obs.c):
 *
 *   mem_read    a unit-path DRAM read beat at offset a, data in buf (a
 *               dram knob may replace it)
 *   mem_write   a unit-path DRAM write beat at a about to land: true when
 *               a dram knob loses it
 *   mem_nodata  a MEM_WR_DATA flit that matched no slot (dropped)
 *   orch        the orchestrator's event ev (enum ksim_orch_ev) on flit f
 *   reset       the mesh is being reset: what was in flight is gone
 */
struct ksim_mesh_watch_ops {
	void (*mem_read)(struct ksim_mesh_watch *w, struct ksim_mag_port *mp,
			 u64 a, u8 *buf);
	bool (*mem_write)(struct ksim_mesh_watch *w, struct ksim_mag_port *mp,
			  u64 a);
	void (*mem_nodata)(struct ksim_mesh_watch *w, struct ksim_mag_port *mp,
			   const struct kh_flit *f);
	void (*orch)(struct ksim_mesh_watch *w, struct ksim_orch *o,
		     unsigned int ev, const struct kh_flit *f);
	void (*reset)(struct ksim_mesh_watch *w, struct ksim_mesh *m);
};

struct ksim_mesh_watch {
	const struct ksim_mesh_watch_ops *ops;
};

/*
 * One mesh as a card description gives it (card/desc.c parses it): the
 * map and the mesh's parameters, what ksim_mesh_create() builds from.
 */
enum ksim_cell_kind {
	KSIM_CELL_EMPTY,		/* xxx */
	KSIM_CELL_TIEOFF,		/* nul */
	KSIM_CELL_MAG,		/* mag */
	KSIM_CELL_UNIT,		/* a unit type's token */
};

struct ksim_desc_mesh {
	unsigned int w, h;
	u8 kind[KSIM_MAP_MAX][KSIM_MAP_MAX];			/* [y][x] */
	const struct ksim_unit_type *type[KSIM_MAP_MAX][KSIM_MAP_MAX];
	unsigned int n_mag;
	struct ksim_params p;		/* this mesh's parameters */
	/* an endpoint L2 staging adapter on the unit's link, and its base */
	u8 l2[KSIM_MAP_MAX][KSIM_MAP_MAX];
	u64 l2_base[KSIM_MAP_MAX][KSIM_MAP_MAX];
};

/*
 * What the card gives each mesh it builds (card/card.c): a mesh never
 * names its card.
 */
struct ksim_mesh_wiring {
	struct ksim_sched *sched;	/* time, timers, wake-ups */
	struct ksim_log *log;		/* the card's diagnostics budget */
	struct ksim_irq_pin irq;	/* the orchestrator's addon line */
};

struct ksim_mesh {
	struct ksim_sched *sched;
	struct ksim_log *log;		/* the card's diagnostics budget */
	struct ksim_irq_pin irq;	/* the orchestrator's addon line */
	const struct ksim_params *p;	/* = &params */
	struct ksim_params params;	/* this mesh's, from the description */
	unsigned int id;
	unsigned int w, h;
	unsigned int lo, hi_x, hi_y;	/* router grid bounds */
	unsigned int nrx, nry;		/* routers per row / column */
	struct ksim_router *routers;	/* nrx * nry, row-major from (1,1) */
	struct ksim_unit *unit[KSIM_MAP_MAX][KSIM_MAP_MAX];	/* [y][x] */
	struct ksim_l2 *l2[KSIM_MAP_MAX][KSIM_MAP_MAX];	/* adapter on a unit's link */
	struct ksim_mesh_rst rst;		/* resetn and the endpoint gates */
	/*
	 * Its clocks, one domain per clock-wizard output (KH_CLK_OUT_*), and
	 * the rates the wizard runs them at from the next reset on.
	 */
	struct ksim_clkdom clk[KH_CLK_MESH_OUTPUTS];
	u32 clk_num[KH_CLK_MESH_OUTPUTS], clk_den[KH_CLK_MESH_OUTPUTS];
	struct ksim_mag *mag;
	struct ksim_dram dram;
	struct ksim_tieoff tieoff;
	/* its watcher: NULL while nothing observes it (one test a hook) */
	struct ksim_mesh_watch *obs;
	struct ksim_unit_env uenv;	/* what its units are given */
};

struct ksim_mesh *ksim_mesh_create(const struct ksim_mesh_wiring *w,
				   unsigned int id,
				   const struct ksim_desc_mesh *dm, int *err);
void ksim_mesh_destroy(struct ksim_mesh *m);
/* the wizard output (KH_CLK_OUT_*) that clocks units of type t */
unsigned int ksim_unit_clk_out(const struct ksim_unit_type *t);

struct ksim_router *ksim_mesh_router(struct ksim_mesh *m, unsigned int x,
				 unsigned int y);

#endif /* KSIM_MESH_H */
