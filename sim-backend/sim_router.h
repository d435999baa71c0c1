/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * NoCRouter: five ports (N = -y, E = +x, S = +y, W = -x, local), an input
 * FIFO per port, one output register per port filled by round-robin
 * arbitration among the inputs whose head routes there, and XY routing on
 * clamped coordinates (kohakutpu.md §6).
 */
#ifndef KH_SIM_ROUTER_H
#define KH_SIM_ROUTER_H

#include "sim_fifo.h"
#include "sim_link.h"
#include "sim_sched.h"

enum {
	KH_PORT_N,
	KH_PORT_E,
	KH_PORT_S,
	KH_PORT_W,
	KH_PORT_L,
	KH_PORTS
};

struct kh_router;

struct kh_router_in {
	struct kh_sink sink;
	struct kh_fifo q;
	struct kh_router *r;
};

struct kh_router {
	struct kh_node node;
	u8 x, y;
	u8 lo, hi_x, hi_y;		/* GRID_LO, GRID_X_HI, GRID_Y_HI */
	struct kh_router_in in[KH_PORTS];
	struct kh_link out[KH_PORTS];	/* each output port's register */
	u8 rr[KH_PORTS];		/* last input granted, per output */
	u32 held;			/* flits in the input FIFOs */
	u64 grants;
	/* kh_route() of every destination {dst_x,dst_y}, computed once */
	u8 route[256];
};

int kh_router_init(struct kh_router *r, struct kh_sched *s, unsigned int x,
		   unsigned int y, unsigned int lo, unsigned int hi_x,
		   unsigned int hi_y, u32 fifo_depth);
void kh_router_fini(struct kh_router *r);
void kh_router_reset(struct kh_router *r);
/* The output port a flit to (dx, dy) leaves router r by. */
unsigned int kh_route(const struct kh_router *r, unsigned int dx,
		      unsigned int dy);

#endif /* KH_SIM_ROUTER_H */
