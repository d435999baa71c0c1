/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the observers count and record, as tests and tools read it through
 * the internal face (ksim_int.h, which includes this header): the
 * checker's counts and the trace's events.  The types are the observers'
 * own, so they live on the observers' floor and the observers need not
 * include a face of the card.
 */
#ifndef KSIM_EVENTS_H
#define KSIM_EVENTS_H

#include "ksim_plat.h"

/* Checker counts: 1..9 are seed 001 §8.3's rules (obs/checker.c). */
enum ksim_chk_count {
	KSIM_CHK_R1 = 1,		/* withdrew an offered flit */
	KSIM_CHK_R2,		/* accepted outside valid && !busy */
	KSIM_CHK_R3,		/* busy depends on the offered flit */
	KSIM_CHK_R4,		/* blocked on the receive path */
	KSIM_CHK_R5,		/* held a flit of an unknown type */
	KSIM_CHK_R6,		/* exec_done in the inst_ready cycle */
	KSIM_CHK_R7,		/* retired twice or never */
	KSIM_CHK_R8,		/* sent a framework completion code */
	KSIM_CHK_R9,		/* more requests out than recv can absorb */
	KSIM_CHK_LOST,		/* a flit vanished */
	KSIM_CHK_DUP,		/* a flit seen twice */
	KSIM_CHK_CLK,		/* the clock wizard driven against its rules */
	KSIM_CHK_IDLE_MEM,	/* memory reached with no instruction (mem_in_job) */
	KSIM_CHK_N_VIOL,		/* the above are violations */
	KSIM_CHK_LOST_INJ = KSIM_CHK_N_VIOL, /* losses a drop knob caused */
	KSIM_CHK_DUP_INJ,		/* duplicates a dup knob caused */
	KSIM_CHK_BORN,		/* flits followed */
	KSIM_CHK_DELIVERED,
	KSIM_CHK_TIEOFF,		/* dropped by a tied-off port */
	KSIM_CHK_WITHDRAWN,	/* lost to a rule 1 withdrawal */
	KSIM_CHK_N
};

/* Trace events, as kept in the ring (their text form: docs/model.md). */
enum ksim_trace_kind {
	KSIM_TR_HOP,		/* x,y,c: the link (c = port, 0xff endpoint) */
	KSIM_TR_ACCEPT,		/* x,y unit; c txn, d last */
	KSIM_TR_RETIRE,		/* x,y unit; c code (0xff none, 0xfe hang), a arg, b txn */
	KSIM_TR_CTRL_REQ,		/* x,y unit; c index, d txn, b requester {y,x} */
	KSIM_TR_CTRL_LOST,	/* the same, a second request discarded */
	KSIM_TR_CTRL_REPLY,	/* the same, v value; e 1 when a knob lost it */
	KSIM_TR_DISPATCH,		/* x,y target; c txn, b flits left */
	KSIM_TR_MBOX,		/* x,y target; c txn, d type */
	KSIM_TR_SIGNAL,		/* x,y source; c code, a arg */
	KSIM_TR_RX_DROP,		/* x,y source; d type */
	KSIM_TR_UNIT_DROP,	/* x,y unit; d type, b source {y,x} */
	KSIM_TR_MEM_NODATA,	/* x,y MAG port; b source {y,x} */
	KSIM_TR_DMA,		/* v card address, a length, c write, d failed, e cycles */
	KSIM_TR_INJECT,		/* x,y; c knob kind, a knob id, b detail, v detail */
	KSIM_TR_VIOL,		/* x,y; c rule */
	KSIM_TR_XDMA,		/* the XDMA engine: c what, d channel (xdma/engine.c) */
	KSIM_TR_REG,		/* a host register access: a offset, v value, d KSIM_TRR_* */
	KSIM_TR_KINDS
};
/* KSIM_TR_REG's d */
#define KSIM_TRR_WRITE	0x1	/* else a read */
#define KSIM_TRR_WIDE	0x2	/* 64 bits, else 32 */
#define KSIM_TRR_BAR1	0x4	/* BAR1 (XDMA), else BAR0 */

struct ksim_trace_ev {
	u64 cycle;
	u64 v;
	u32 a, e;
	u16 b;
	u8 kind, mesh, x, y, c, d;
};

#endif /* KSIM_EVENTS_H */
