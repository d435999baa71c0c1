/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The cpu unit's model (KohakuAccel rv_pe, token `cpu`, cu_type 'RV';
 * docs/spec/cpu.md, uapi/kohaku/kh_cpu.h): what its files share.  One
 * concern per file, each after the RTL module of the same job:
 *
 *   cpu.c    the unit type: life cycle, the tick (the order of the
 *            stages in one cycle), the kick and the retirement, CU_DBG
 *            (rv_pe.v "the kick", rv_core.v "run / halt")
 *   rx.c     the receive path: CU_DATA into the two windows (the hooks
 *            and policy of the shared receiver, units/cudata.c),
 *            responses and acks to the requestor, everything else dropped
 *            (rv_pe.v "receive classification", "CU_DATA window writer")
 *   core.c   decode and execute, one instruction in EX per cycle, the
 *            pipeline's hazards and redirects as cycles (rv_id.v, rv_ex.v,
 *            rv_core.v "hazards")
 *   mem.c    the MEM stage: the address decoder, the scratchpad, the
 *            control words and their flush/invalidate handshake, the
 *            peer push (rv_mem.v)
 *   l1.c     the internal L1: tags, lines, miss, write-back, flush-all and
 *            invalidate-all sweeps (rv_l1.v)
 *   req.c    the NoC requestor: fills, write-backs, pushes, one flit out
 *            per cycle, one read and one write outstanding (rv_noc_req.v)
 *   btb.c    the branch predictor (rv_bpred.v)
 *
 * Time.  The unit ticks once per mesh cycle while anything in it moves;
 * in a tick the stages run in the order receive, requestor, MEM, L1, EX,
 * kick, each reading what the others held at the start of the cycle where
 * the RTL's registers would make it so.  An instruction's EX cycle is
 * its issue cycle: loads and stores do their access in the next cycle
 * (MEM), where a miss, a push into a full register or a sweep stalls the
 * whole pipeline, as stall_m does.
 */
#ifndef KSIM_CPU_H
#define KSIM_CPU_H

#include "ksim_unit.h"
#include "util.h"
#include <kohaku/kh_cpu.h>

#define KSIM_CPU_NEVER		(~0ULL)
#define KSIM_CPU_L1_IDX(a)	(((a) >> 5) & (KH_CPU_L1_LINES - 1))
#define KSIM_CPU_L1_TAG(a)	(((a) & KH_CPU_DRAM_MASK) >> 12)
#define KSIM_CPU_BTB_Q		8	/* resolves not yet folded into the table */
#define KSIM_CPU_WB_Q		8	/* instructions between MEM and WB */

/* The L1's states (rv_l1.v:83-87). */
enum ksim_cpu_l1_state {
	KSIM_CPU_L_IDLE,
	KSIM_CPU_L_EV_RD,	/* reading the dirty victim out, 9 cycles */
	KSIM_CPU_L_EV_SEND,	/* its write-back waiting for the requestor */
	KSIM_CPU_L_F_REQ,	/* the fill waiting for the requestor */
	KSIM_CPU_L_F_WAIT,	/* the fill's response */
	KSIM_CPU_L_F_WR,	/* writing the line in, 8 cycles */
	KSIM_CPU_L_S_SCAN,	/* flush-all: present the cursor */
	KSIM_CPU_L_S_TEST,	/* ... test its dirty bit */
	KSIM_CPU_L_S_RD,	/* ... read a dirty line out, 9 cycles */
	KSIM_CPU_L_S_SEND,	/* ... its write-back waiting for the requestor */
	KSIM_CPU_L_S_DRAIN,	/* ... every write acknowledged */
	KSIM_CPU_L_I_SCAN,	/* invalidate-all: one line per cycle */
	KSIM_CPU_L_REPROBE,
};

/* What the instruction in MEM does there (rv_mem.v regions). */
enum ksim_cpu_mem_kind {
	KSIM_CPU_M_NONE,
	KSIM_CPU_M_SPAD,
	KSIM_CPU_M_CTL,
	KSIM_CPU_M_PEER,
	KSIM_CPU_M_DRAM,
};

/* The control-store handshake (rv_mem.v:208). */
enum ksim_cpu_ct_state {
	KSIM_CPU_CT_IDLE,
	KSIM_CPU_CT_WAIT,
	KSIM_CPU_CT_RUN,
	KSIM_CPU_CT_DONE,
};

/* The kick (rv_pe.v:293). */
enum ksim_cpu_kick_state {
	KSIM_CPU_K_IDLE,
	KSIM_CPU_K_RUN,
	KSIM_CPU_K_DONE,	/* retire at done_at */
};

/* The requestor's send state (rv_noc_req.v:100). */
enum ksim_cpu_req_state {
	KSIM_CPU_S_IDLE,
	KSIM_CPU_S_DATA,	/* the data flit of a write or a push is next */
};

struct ksim_cpu_line {
	u32 tag;		/* addr[30:12] */
	bool valid, dirty;
	u8 b[KH_CPU_L1_LINE_BYTES];
};

struct ksim_cpu_btb_ent {
	bool valid;
	u8 cnt;			/* 2-bit saturating */
	u8 tag;			/* pc[14:7] */
	u32 target;
};

struct ksim_cpu_btb_upd {
	u64 w;			/* written at the end of this cycle */
	unsigned int idx;
	struct ksim_cpu_btb_ent e;
};

/* The instruction in MEM. */
struct ksim_cpu_mem {
	u8 kind;		/* enum ksim_cpu_mem_kind; NONE: MEM is empty */
	bool store;
	u8 f3;
	u8 be;			/* byte enables (rv_ex.v:172-180) */
	u8 rd;
	u32 addr;
	u32 sdata;		/* store data, replicated across the word */
	u64 at;			/* its first MEM cycle */
};

struct ksim_cpu {
	/* ---- the windows ---- */
	u32 imem[KH_CPU_IMEM_WORDS];
	u32 spad[KH_CPU_SPAD_WORDS];

	/* ---- the kick and the retirement ---- */
	u8 kst;			/* enum ksim_cpu_kick_state */
	u64 done_at;
	u32 arg;
	bool run, halted;
	u8 cause;		/* KH_CPU_CAUSE_* */
	u32 halt_pc;		/* halt_q: the faulting PC */
	u64 boot;		/* the cycle cyc_q reads 0 */
	u64 halt_at;		/* the halting instruction's EX cycle */
	u32 cyc_final;		/* cyc_q once halted */

	/* ---- the core ---- */
	u32 x[32];
	u32 pc;
	u64 t_next;		/* earliest EX cycle of the next instruction */
	u64 t_look;		/* ... before any MEM stall: its fetch is 3 earlier */
	u64 ready[32];		/* a load's rd: first EX cycle that may use it */
	struct ksim_cpu_mem mem;
	u32 ret;		/* ret_q, folded up to ret_q_at */
	u64 wbq[KSIM_CPU_WB_Q];	/* WB cycles of instructions not yet counted */
	unsigned int wbq_n;
	u64 retired_total;	/* every instruction retired since creation */

	/* ---- the control-store handshake ---- */
	u8 ct;			/* enum ksim_cpu_ct_state */
	bool ct_inval;
	u64 ct_pulse_at;	/* the L1 sees flush/inval in this cycle */

	/* ---- the L1 ---- */
	struct ksim_cpu_line line[KH_CPU_L1_LINES];
	u8 l1;			/* enum ksim_cpu_l1_state */
	unsigned int l1_cnt;
	unsigned int scan;
	unsigned int vic;
	u32 miss_addr;		/* the access being filled */
	bool miss_req;		/* MEM presents a miss this cycle */
	bool fill_valid, wb_valid;
	bool fill_taken, wb_taken;	/* by the requestor, this cycle */
	u32 fill_addr, wb_addr;	/* 31-bit */
	u8 wb_data[KH_CPU_L1_LINE_BYTES];
	bool resp_valid;
	u64 resp_at;
	u8 resp_data[KH_CPU_L1_LINE_BYTES];

	/* ---- the requestor ---- */
	u8 rst;			/* enum ksim_cpu_req_state */
	bool out_valid;
	struct kh_flit out;	/* send_flit */
	struct kh_flit hold;	/* the data flit after a descriptor */
	bool rd_pend;
	u8 rd_tag;
	u32 n_out;		/* writes not yet acknowledged */
	bool pq_valid;
	bool pq_ready;		/* !pq_valid at the start of the cycle */
	unsigned int pq_x, pq_y, pq_win, pq_gran, pq_sel, pq_be;
	u32 pq_data;
	unsigned int mx, my;	/* the MAG port */

	/* ---- the receive path (its CU_DATA bursts: units/cudata.c) ---- */
	u64 gw_free;		/* recv_ready again from this cycle */
	u32 gw_buf[KH_CPU_GRANULE_WORDS];	/* the granule being walked */
	u32 *gw_win;		/* ... into this window */
	unsigned int gw_base;	/* ... at this word */
	unsigned int gw_next;	/* its next word, written in cycle gw_free - 8 + gw_next */

	/* ---- the predictor ---- */
	struct ksim_cpu_btb_ent btb[KH_CPU_BTB_ENTRIES];
	struct ksim_cpu_btb_upd btbq[KSIM_CPU_BTB_Q];
	unsigned int btbq_n;

	/* ---- counters (ksim_cpu_stats) ---- */
	u64 refused;		/* CU_DATA bursts counted out */
	u64 fills, writebacks, pushes, mispredicts;
};

struct ksim_cpu *ksim_cpu_of(struct ksim_unit *u);

/* rx.c */
extern const struct ksim_cd_policy ksim_cpu_cd;
bool ksim_cpu_rx_quiet(struct ksim_unit *u, struct ksim_cpu *s);
bool ksim_cpu_rx(struct ksim_unit *u, struct ksim_cpu *s, u64 now);

/* req.c */
bool ksim_cpu_req(struct ksim_unit *u, struct ksim_cpu *s);
bool ksim_cpu_req_idle(const struct ksim_cpu *s);
void ksim_cpu_req_resp(struct ksim_unit *u, struct ksim_cpu *s,
		       const struct kh_flit *f, u64 now);
void ksim_cpu_req_ack(struct ksim_unit *u, struct ksim_cpu *s,
		      const struct kh_flit *f);

/* l1.c */
bool ksim_cpu_l1_hit(const struct ksim_cpu *s, u32 addr);
bool ksim_cpu_l1_sweeping(const struct ksim_cpu *s);
bool ksim_cpu_l1(struct ksim_cpu *s, u64 now);
void ksim_cpu_l1_reset(struct ksim_cpu *s);

/* mem.c */
bool ksim_cpu_mem(struct ksim_unit *u, struct ksim_cpu *s, u64 now);
u32 ksim_cpu_retired(struct ksim_cpu *s, u64 now);
u32 ksim_cpu_cycles(const struct ksim_cpu *s, u64 now);
void ksim_cpu_wb(struct ksim_cpu *s, u64 at);

/* core.c */
bool ksim_cpu_ex(struct ksim_unit *u, struct ksim_cpu *s, u64 now);
void ksim_cpu_halt(struct ksim_cpu *s, u64 now, unsigned int cause);

/* btb.c */
bool ksim_cpu_btb_predict(struct ksim_cpu *s, u32 pc, u64 at, u32 *target);
void ksim_cpu_btb_resolve(struct ksim_cpu *s, u32 pc, bool taken, bool jump,
			  u32 target, u64 at);
void ksim_cpu_btb_reset(struct ksim_cpu *s);

#endif /* KSIM_CPU_H */
