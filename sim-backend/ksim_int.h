/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The model's internal interface: what tests, checkers and the issue-3
 * work use beyond the register interface of ksim.h.  Hosts that only
 * present a card (libkohaku's sim backend, kohaku_sim.ko) need ksim.h
 * alone.
 */
#ifndef KSIM_INT_H
#define KSIM_INT_H

#include "ksim.h"
#include "ksim_unit.h"
#include "link.h"

struct ksim_opts {
	/* extra unit types, looked up before the built-in table */
	const struct ksim_unit_type *const *extra_types;
	unsigned int n_extra;
	/* KSIM_CHECK...: as ksim_card_create_flags() */
	unsigned int flags;
	/* called with every protocol-checker violation message (tests) */
	void (*violation)(void *ctx, const char *msg);
	void *violation_ctx;
};

int ksim_card_create_opts(const char *desc, const struct ksim_opts *opts,
			    struct ksim_card **out, char *err,
			    size_t errlen);

/* What each host access costs in mesh cycles (run before the access). */
struct ksim_timing {
	u32 read_cycles;	/* per read64, default 150 */
	u32 write_cycles;	/* per write64, default 30, landing last */
	u32 dma_cycles;		/* per DMA, default 150, plus one per 32 B */
};

void ksim_get_timing(const struct ksim_card *card,
		       struct ksim_timing *t);
void ksim_set_timing(struct ksim_card *card,
		       const struct ksim_timing *t);

/* The unit at (x, y) of a mesh, or NULL. */
struct ksim_unit *ksim_unit_at(struct ksim_card *card, unsigned int mesh,
			       unsigned int x, unsigned int y);

/*
 * Links, named by their sender: router (x, y)'s output port (KSIM_PORT_*
 * from noc/router.h), or the endpoint at (x, y) (a unit or a MAG port).
 */
struct ksim_link *ksim_router_link(struct ksim_card *card,
				   unsigned int mesh, unsigned int x,
				   unsigned int y, unsigned int port);
struct ksim_link *ksim_endpoint_link(struct ksim_card *card,
				     unsigned int mesh, unsigned int x,
				     unsigned int y);
/* Install one checker hook on every link of the card (NULL removes). */
void ksim_set_link_hook(struct ksim_card *card,
			  const struct ksim_link_hook *hook, void *ctx);

struct ksim_stats {
	u64 cycles_stepped;	/* card-wide: cycles simulated one by one */
	u64 cycles_skipped;	/* card-wide: cycles jumped over idle */
	u64 link_flits;		/* sums over the mesh's links */
	u64 link_stalls;
	u64 tieoff_dropped;	/* flits swallowed by tied-off ports */
	u64 ctrl_dropped;	/* CU_CTRL lost to a pending reply */
	u64 unit_dropped;	/* flits units dropped on their receive path */
	u64 lost_completions;	/* exec_done with nothing in flight */
	u64 mag_reads;
	u64 mag_writes;
	u64 mag_data_dropped;	/* MEM_WR_DATA with no open slot */
	u64 mag_slot_stalls;	/* cycles a descriptor waited for a slot */
	u64 mag_out_of_range;	/* beats past the DRAM size */
	u64 mag_remote_alias;	/* addresses naming another mesh */
	u64 agent_rx_dropped;	/* flits dropped at a full RX FIFO */
	u64 signals;		/* CU_SIGNALs absorbed */
	u64 dispatched;		/* flits pushed by the dispatcher */
	u64 dram_pages;		/* 4 KiB pages allocated */
	u64 l2_served;		/* L2 adapters: requests served from SRAM */
	u64 l2_forwarded;	/* ... in the window but forwarded (disabled) */
	u64 l2_ctrl;		/* ... CU_CTRL 0xe0-0xe7 they terminated */
	u64 reset_dropped;	/* flits forced into endpoints in reset */
	u64 reset_host_dropped;	/* host writes lost to a mesh reset */
	u64 resets;		/* mesh resets (pulses and wizard relocks) */
	u64 irq_rises;		/* card-wide: rising edges of the IRQ line */
	/* the memory side: MAG, the mover, the interlink */
	u64 mag_entries;	/* entries served by the entry/stream engines */
	u64 mag_ap_faults;	/* unit requests to an unserved aperture */
	u64 mag_quant_uploads;	/* entries converted by the upload aperture */
	u64 mag_host_hangs;	/* host transactions nothing answered */
	u64 mover_words;	/* words the mover wrote (remote included) */
	u64 mover_remote_words;	/* ... posted to the interlink */
	u64 il_injected;	/* remote flits injected into this mesh */
	u64 il_inj_dropped;	/* INJ: inbound beats dropped */
	u64 il_switch_dropped;	/* SWITCH: beats with no link to go on */
};

int ksim_get_stats(struct ksim_card *card, unsigned int mesh,
		     struct ksim_stats *st);

/*
 * Pulse one mesh's resetn, as its clock wizard's relock does (the wizard
 * itself holds it for the relock time first, card/clkwiz.c): routers,
 * units, L2 adapters, MAG and the orchestrator registers are cleared;
 * DRAM, the staging RAM, NODE_STATUS and the L2 SRAMs are not (no reset
 * clause).  The endpoints then hold noc_in_busy for
 * KH_RST_RECOVERY_CYCLES, and host writes to the mesh are lost until then.
 */
int ksim_mesh_reset(struct ksim_card *card, unsigned int mesh);
/* The mesh is in reset or its endpoints are still recovering. */
bool ksim_mesh_in_reset(struct ksim_card *card, unsigned int mesh);
/*
 * The output link of the L2 adapter on the unit at (x, y): to the unit
 * (to_unit) or to the router; NULL without an adapter.  With an adapter,
 * ksim_endpoint_link() is the unit's link into the adapter.
 */
struct ksim_link *ksim_l2_link(struct ksim_card *card, unsigned int mesh,
			       unsigned int x, unsigned int y, bool to_unit);

/* ---- observability (docs/spec/fault-injection.md, docs/model.md) ---- */

/* Per-unit counters; busy_cycles as CU_COUNTERS counts it, not wrapped. */
struct ksim_unit_stats {
	u64 accepted;		/* instructions taken (inst_ready) */
	u64 retired;		/* exec_done pulses (CU_COUNTERS [63:32]) */
	u64 lost_completions;	/* exec_done with nothing in flight */
	u64 signals;		/* CU_SIGNALs the base sent */
	u64 flits_out;		/* flits the unit sent on send_* */
	u64 flits_in;		/* flits the base took off the link */
	u64 dropped;		/* flits the unit dropped */
	u64 ctrl_dropped;	/* CU_CTRL lost to a pending reply */
	u64 busy_cycles;
	u64 faults_injected, hangs_injected, ctrl_corrupted;
	u64 busy_forced;	/* cycles a busy knob held noc_in_busy */
};

int ksim_unit_stats(struct ksim_card *card, unsigned int mesh,
		      unsigned int x, unsigned int y,
		      struct ksim_unit_stats *st);

/* Checker counts: 1..9 are seed 001 §8.3's rules (obs/checker.h). */
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
	KSIM_CHK_N_VIOL,		/* the above are violations */
	KSIM_CHK_LOST_INJ = KSIM_CHK_N_VIOL, /* losses a drop knob caused */
	KSIM_CHK_DUP_INJ,		/* duplicates a dup knob caused */
	KSIM_CHK_BORN,		/* flits followed */
	KSIM_CHK_DELIVERED,
	KSIM_CHK_TIEOFF,		/* dropped by a tied-off port */
	KSIM_CHK_WITHDRAWN,	/* lost to a rule 1 withdrawal */
	KSIM_CHK_N
};
u64 ksim_check_count(struct ksim_card *card, unsigned int what);
/* Run the audit now (lost flits, sleeping units); returns violations. */
u64 ksim_check_audit(struct ksim_card *card);

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

/* Events [first, end) are in the ring; 0 with ev filled, or -ENOENT. */
void ksim_trace_bounds(struct ksim_card *card, u64 *first, u64 *end);
int ksim_trace_get(struct ksim_card *card, u64 idx,
		     struct ksim_trace_ev *ev);

/*
 * Benchmark baseline only: every node ticks every cycle and idle cycles
 * are stepped, not skipped (bench/kh_bench.c).  Behaviour is unchanged.
 */
void ksim_set_step_all(struct ksim_card *card, bool on);

#endif /* KSIM_INT_H */
