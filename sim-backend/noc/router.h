/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * NoCRouter: five ports (N = -y, E = +x, S = +y, W = -x, local), an input
 * FIFO per port, one output register per port filled by round-robin
 * arbitration among the inputs whose head routes there, and XY routing on
 * clamped coordinates (kohakutpu.md §6).
 */
#ifndef KSIM_ROUTER_H
#define KSIM_ROUTER_H

#include "fifo.h"
#include "link.h"
#include "sched.h"

enum {
	KSIM_PORT_N,
	KSIM_PORT_E,
	KSIM_PORT_S,
	KSIM_PORT_W,
	KSIM_PORT_L,
	KSIM_PORTS
};

/* A port's letter in link names ("R1,1.E"): knobs, the trace, counters. */
static inline char ksim_port_letter(unsigned int port)
{
	return "NESWL"[port];
}

struct ksim_router;

/*
 * A flit is taken into the input FIFO at the edge of its transfer, loaded
 * into the input's hold register at the next edge (the FIFO is first-word
 * fall-through, read latency 0), and can be granted to an output register
 * at the edge after that: three edges link to link, as InPortSwitch and
 * OutPortSwitch are built (src/kohakuaccel/noc/router/noc_inport.v: the
 * FIFO at line 85, `load` at 83, `hold` at 147; noc_outport.v: the output
 * register at 60-67).  The model keeps the FIFO and stamps the pushes.
 */
#define KSIM_ROUTER_PIPE	2	/* edges from the take to the grant */

struct ksim_router_in {
	struct ksim_sink sink;
	struct ksim_fifo q;
	struct ksim_router *r;
	/*
	 * The cycles of the last two pushes: one link feeds an input, so at
	 * most one push a cycle, and a head behind two younger flits is
	 * always old enough.
	 */
	u64 at[2];
	u64 head_ok;		/* the cycle its head can first be granted */
};

struct ksim_router {
	struct ksim_node node;
	u8 x, y;
	u8 lo, hi_x, hi_y;		/* GRID_LO, GRID_X_HI, GRID_Y_HI */
	struct ksim_router_in in[KSIM_PORTS];
	struct ksim_link out[KSIM_PORTS];	/* each output port's register */
	u8 rr[KSIM_PORTS];		/* last input granted, per output */
	u32 held;			/* flits in the input FIFOs */
	/*
	 * The inputs whose head flit routes to each output: bit 5 * o + i.
	 * Kept as heads change (a flit into an empty FIFO, a pop), so a
	 * tick reads one word instead of routing five heads.
	 */
	u32 want;
	u64 grants;
	u64 ok_max;			/* the latest head_ok of any input */
	/* ksim_route() of every destination {dst_x,dst_y}, computed once */
	u8 route[256];
};

int ksim_router_init(struct ksim_router *r, struct ksim_sched *s, unsigned int x,
		   unsigned int y, unsigned int lo, unsigned int hi_x,
		   unsigned int hi_y, u32 fifo_depth);
void ksim_router_fini(struct ksim_router *r);
void ksim_router_reset(struct ksim_router *r);
/* The output port a flit to (dx, dy) leaves router r by. */
unsigned int ksim_route(const struct ksim_router *r, unsigned int dx,
		      unsigned int dy);

#endif /* KSIM_ROUTER_H */
