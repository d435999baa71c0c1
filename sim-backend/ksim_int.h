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
/* the observers' types: checker counts, trace events */
#include "events.h"
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

/* Checker counts (enum ksim_chk_count, obs/events.h). */
u64 ksim_check_count(struct ksim_card *card, unsigned int what);
/* Run the audit now (lost flits, sleeping units); returns violations. */
u64 ksim_check_audit(struct ksim_card *card);

/*
 * Trace events (struct ksim_trace_ev, obs/events.h): events [first, end)
 * are in the ring; 0 with ev filled, or -ENOENT.
 */
void ksim_trace_bounds(struct ksim_card *card, u64 *first, u64 *end);
int ksim_trace_get(struct ksim_card *card, u64 idx,
		     struct ksim_trace_ev *ev);

/*
 * Benchmark baseline only: every node ticks every cycle and idle cycles
 * are stepped, not skipped (bench/kh_bench.c).  Behaviour is unchanged.
 */
void ksim_set_step_all(struct ksim_card *card, bool on);

#endif /* KSIM_INT_H */
