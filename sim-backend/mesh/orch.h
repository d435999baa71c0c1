/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * noc_orchestrator: the mesh control window (kohakutpu.md §4.2-4.5).  It
 * lives inside MAG and answers at memory port 0's coordinate; MAG hands it
 * every non-memory flit that reaches any port, and drains its TX FIFO into
 * the mesh.
 */
#ifndef KSIM_ORCH_H
#define KSIM_ORCH_H

#include "ksim_plat.h"
#include "fifo.h"
#include "irq.h"
#include "params.h"
#include "regs.h"
#include <kohaku/kh_regs.h>

struct ksim_mag;

/* what the orchestrator reports to its mesh's watcher (mesh/mesh.h) */
enum ksim_orch_ev {
	KSIM_ORCH_DISPATCH,	/* the dispatcher pushed f */
	KSIM_ORCH_MBOX,		/* TX_KICK pushed f */
	KSIM_ORCH_SIGNAL,	/* a CU_SIGNAL absorbed */
	KSIM_ORCH_RX_DROP,	/* RX full: f dropped */
};

struct ksim_orch {
	struct ksim_mag *mag;
	const struct ksim_params *p;
	u8 x, y;			/* ORC_X/ORC_Y = memory port 0 */
	u8 grid_hi;

	u64 ctrl;
	u64 irq_en;
	/* the interrupt addon (docs/spec/irq-addon.md), when p->irq */
	u64 irq_stat;
	u64 irq_ev;			/* events of this cycle: beat a clear */
	bool irq_level;			/* irq_stat & irq_en, as the line sees it */
	struct ksim_irq_pin irq;	/* that level, into the card (card/irq.c) */
	u8 prog_dst;			/* {y,x} */
	u16 prog_len;
	u16 prog_base;
	u16 credit;			/* one counter shared by all targets */
	u16 left;
	u32 slot;			/* next staging slot to dispatch */
	bool prog_run;
	/*
	 * The dispatcher reads the staging RAM a 64-bit word an edge and
	 * writes the assembled flit to TX at the edge after its fifth
	 * (noc_orchestrator.v lines 318-336 and the disp_push comment
	 * below them): prog_word, and the flit waiting for disp_push.
	 */
	u8 word;
	bool disp_pend;
	struct kh_flit disp_flit;
	u16 sig_done;
	u32 cred_inc;			/* SIG_INST_COMPLETEs absorbed this cycle */

	u64 tx_flit[KH_FLIT_WORDS];
	struct ksim_fifo tx;
	struct ksim_fifo rx;
	bool rx_overflow;		/* sticky until reset */

	u64 (*stage)[KH_FLIT_WORDS];	/* staging RAM, stage_flits slots */
	u64 node_status[KH_ORC_NODE_ENTRIES];

	/* the host write that lands in the next cycle */
	bool wr_pending;
	u32 wr_off;			/* waddr[15:0]: +4 on the 32-bit path */
	u64 wr_val;			/* the bus word */
	u8 wr_strb;			/* its byte enables */
	/* what its hooks see: the cycle's start, and a credit written */
	bool run0, tx_full0;
	bool cred_written;

	/* model statistics */
	u64 signals;
	u64 dispatched;
	u64 rx_dropped;
};

int ksim_orch_init(struct ksim_orch *o, struct ksim_mag *mag,
		 const struct ksim_params *p, unsigned int x, unsigned int y,
		 unsigned int grid_hi);
void ksim_orch_fini(struct ksim_orch *o);
/* resetn: everything but the LUTRAMs (NODE_STATUS, staging) */
void ksim_orch_reset(struct ksim_orch *o);

/* AXI read of a window offset (8-aligned, low 16 bits). */
u64 ksim_orch_read(struct ksim_orch *o, u32 off);
/*
 * A narrow AXI read beat at a window offset (4-aligned): the whole word of
 * the register it decodes to, 0 for a named register at +4 (orch.c).
 */
u64 ksim_orch_read_beat(struct ksim_orch *o, u32 off);
/* the register map, at window offsets; the device is the struct ksim_orch */
extern const struct ksim_regs ksim_orch_regs;
/*
 * AXI write beat: waddr off (4-aligned), the bus word val and its byte
 * enables strb (KSIM_REG_STRB_ALL: a 64-bit write); latched, applied in
 * the orchestrator's next tick.
 */
void ksim_orch_host_write(struct ksim_orch *o, u32 off, u64 val, u8 strb);

/* A non-memory flit from any MAG port: absorb a signal, or RX (or drop). */
void ksim_orch_agent_take(struct ksim_orch *o, const struct kh_flit *f);
/* Phase B; tx_count0 is the TX FIFO fill at the start of the cycle. */
bool ksim_orch_tick(struct ksim_orch *o, u32 tx_count0);
bool ksim_orch_pending(const struct ksim_orch *o);

#endif /* KSIM_ORCH_H */
