/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Mesh reset (seed 001 §6, kohakutpu.md §12.4).  A mesh's resetn comes
 * from its clock wizard's lock through a proc_sys_reset: a retune drops
 * lock, which holds the mesh in reset until it relocks and the reset block
 * releases it.  Asserting reset clears every node of the mesh at once (the
 * state with a reset clause; DRAM, the staging RAM, NODE_STATUS and the L2
 * SRAMs keep theirs).  While the mesh is in reset, and for a recovery
 * window after the release (the XPM FIFOs' own reset), every endpoint's
 * inbound port is gated: noc_in_busy is held high, and a flit that a
 * sender pushes in anyway is lost (counted).  Host writes to the mesh
 * control window are lost over the same span.
 */
#ifndef KSIM_RESET_H
#define KSIM_RESET_H

#include "ksim_plat.h"
#include "link.h"
#include "sched.h"

struct ksim_mesh;

/* An endpoint's inbound port behind the reset gate. */
struct ksim_gate {
	struct ksim_sink sink;		/* what the router's link delivers to */
	struct ksim_sink *inner;		/* the endpoint's own port */
	struct ksim_mesh *mesh;
};

struct ksim_mesh_rst {
	struct ksim_node node;	/* stepped when the recovery window ends */
	u64 release;		/* resetn is high from this cycle on */
	u64 ready;		/* and the FIFOs have recovered from this one */
	struct ksim_gate *gates;	/* one per map cell, [y * w + x] */
	u64 gate_dropped;	/* flits forced in while busy was held */
	u64 host_dropped;	/* host writes lost to the reset */
	u32 resets;		/* times the mesh was reset */
};

/* The gates and the reset's node (on the mesh's scheduler). */
int ksim_mesh_rst_init(struct ksim_mesh *m);
void ksim_mesh_rst_fini(struct ksim_mesh *m);
/* The gate in front of the endpoint at (x, y), wrapping its port. */
struct ksim_sink *ksim_mesh_gate(struct ksim_mesh *m, unsigned int x,
			     unsigned int y, struct ksim_sink *inner);
/* resetn is low now. */
bool ksim_mesh_held_in_reset(const struct ksim_mesh *m);
/* resetn is low, or the endpoints' FIFOs are still recovering. */
bool ksim_mesh_recovering(const struct ksim_mesh *m);
/*
 * Assert resetn now (everything with a reset clause is cleared) and
 * release it at cycle `release`; the endpoints recover
 * KH_RST_RECOVERY_CYCLES later.
 */
void ksim_mesh_reset_hold(struct ksim_mesh *m, u64 release);
/*
 * Clock output out (KH_CLK_OUT_*) runs at num/den of the built clock from
 * the next reset hold on: the wizard's new configuration, which reaches
 * the mesh with the reset its lock drop causes.
 */
void ksim_mesh_clk_set(struct ksim_mesh *m, unsigned int out, u32 num,
		       u32 den);

#endif /* KSIM_RESET_H */
