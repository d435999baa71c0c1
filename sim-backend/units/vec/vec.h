/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The vector core's model (token `vec`, cu_type 'VC'; docs/spec/vec.md):
 * what its files share.  One concern per file:
 *
 *   vec.c      the unit type: CU_INST decode (IMEM, DESC, RUN, no-ops),
 *              retirement, reset, the tick
 *   kernel.c   the sequencer: one kernel word at its EXEC cycle, the
 *              per-instruction cycle costs of vec_core.v's state machine
 *   lanes.c    the lanes in FLAT, D2 and D4: ALU beats and chains,
 *              predicates, VL tails
 *   ldst.c     the register file's whole-chunk port: VLD, VST, VCVT,
 *              VSHUF, VBCAST
 *   mem.c      VFILL and VDRAIN: the walks, the MAG requests
 *   port.c     the receive path (fill responses; CU_DATA's hooks and
 *              policy for the shared receiver, units/cudata.c) and the
 *              send queue (MAG requests, SIG_DATA_RECEIVED)
 *   agu.c      vec_agu.v: eight descriptors and the walker
 *   e8.c       E8M15: vec_alu.v's FMA datapath and compare, vec_cvt.v's
 *              converters
 *
 * Time.  The core does not run cycle by cycle: `kt` is the mesh cycle of
 * the next kernel word's EXEC state, and the unit sleeps on a timer until
 * then.  Each word executes whole at its EXEC cycle and sets the next
 * `kt` from the states vec_core.v walks for it.  The lanes' effects are
 * applied at issue; every reader in the RTL waits for them (the
 * pending-write scoreboard, or pipe_empty), except predicate reads, which
 * the model checks instead (KH_VEC_F_NM_PHAZ).
 */
#ifndef KSIM_VEC_H
#define KSIM_VEC_H

#include "ksim_unit.h"
#include "util.h"
#include <kohaku/kh_vec.h>

/* vec_alu.v:130 in vec_lanes: ALAT = 14 + PIPE_MUX (1 ships) */
#define KSIM_VEC_ALAT		15
/*
 * issue -> pipe_empty: vec_lanes.v:530-535 ORs every stage of the
 * 4*ALAT-deep metadata line and the 16-deep tail line whatever the mode,
 * so the lanes read empty 2 + 60 + 16 + 1 cycles after the last beat
 */
#define KSIM_VEC_DRAIN_LAT	(2 + 4 * KSIM_VEC_ALAT + 16 + 1)
/* cycles a predicate read must trail the write for the model to be sure */
#define KSIM_VEC_PHAZ_MARGIN	4
#define KSIM_VEC_SENDQ		4	/* a write pair plus slack */
#define KSIM_VEC_ADDR_MASK	((1ULL << 40) - 1)

struct ksim_vec_agu {
	u64 base[KH_VEC_DESCS];
	u32 strd[KH_VEC_DESCS][KH_VEC_DIMS];	/* 18-bit signed */
	u16 bnd[KH_VEC_DESCS][KH_VEC_DIMS];
	/* the walk latched at start */
	u64 cbase;
	u64 off;				/* sign-extended, mod 2^40 */
	s64 cs[KH_VEC_DIMS];
	u32 cb[KH_VEC_DIMS];			/* bound, 0 read as 1 */
	u32 idx[KH_VEC_DIMS];
	u64 ps[KH_VEC_DIMS];			/* running idx * stride */
	bool busy;
};

enum ksim_vec_cst {
	KSIM_VEC_C_IDLE,
	KSIM_VEC_C_RET,		/* IMEM/DESC/no-op: retire at ret_at */
	KSIM_VEC_C_RUN,		/* a kernel runs */
	KSIM_VEC_C_DONE,	/* halted or faulted: retire at ret_at */
};

enum ksim_vec_kst {
	KSIM_VEC_K_EXEC,	/* the word at pc executes at kt */
	KSIM_VEC_K_FILL,	/* issuing a VFILL's requests */
	KSIM_VEC_K_DRAIN,	/* issuing a VDRAIN's writes */
	KSIM_VEC_K_BAR,		/* VBAR: fill_out == 0, from kt */
	KSIM_VEC_K_HALT,	/* VHALT: pipe empty and fill_out == 0, from kt */
	KSIM_VEC_K_HOLD,	/* VFILL held in EXEC until fill_out == 0 */
};

struct ksim_vec {
	/* ---- CU-level (vec_cu.v:441-500) ---- */
	u8 cst;
	bool fault;
	u32 result;
	u64 ret_at;

	/* ---- architectural state, kept across runs ---- */
	u32 imem[KH_VEC_IMEM_WORDS];
	u64 l1[KH_VEC_L1_WORDS][4];
	u32 vreg[KH_VEC_VREGS][KH_VEC_VLMAX];	/* E8M15 per element */
	u32 sreg[KH_VEC_SREGS];
	u32 kreg[KH_VEC_KREGS];
	u8 preg[KH_VEC_PREGS][KH_VEC_VLMAX];	/* one bit per byte */
	u32 vl;
	u32 vmode;
	u32 g_pr;		/* the last pr latched: what VRED ANY/ALL reads */
	u32 pc;
	u32 lp_top, lp_end, lp_cnt;
	bool lp_act;
	bool cd_err;		/* a rejected CU_DATA, reported at a boundary */
	struct ksim_vec_agu agu;
	u16 fill_out;		/* fill requests without a response; wraps */
	u8 fill_bank[256];	/* L1 word [8] per outstanding txn */

	/* ---- the run ---- */
	u8 kst;
	u64 t0;			/* the first S_F2: cycles counts from here */
	u64 kt;			/* next EXEC (K_EXEC) or first try (waits) */
	u32 cycles;		/* CU_DBG[31:0] and a RUN's exec_result */
	/* a VFILL/VDRAIN in progress */
	u32 mem_left;
	u32 l1_cur;
	u64 mem_next;		/* set when a request leaves: its cycle + 2 */
	u64 mem_last;		/* the last issue */
	/* a VDRAIN to a node (vec_core.v:586-590, 845-851) */
	bool nd;
	u32 nd_x, nd_y, nd_buf, nd_sig;
	u32 nd_off, nd_ack, nd_mesh, nd_fin, nd_len, nd_cnt;
	u64 fill_zero_at;	/* S_BAR/S_WAITP see fill_out == 0 from */

	/* ---- timing of the lanes ---- */
	u64 vreg_free[KH_VEC_VREGS];	/* pend[] == 0 from this cycle */
	u64 lanes_idle;			/* pipe_empty from this cycle */
	u64 preg_bw[KH_VEC_PREGS];	/* the last compare's first beat */
	u32 preg_nw[KH_VEC_PREGS];	/* its chunks */
	u32 preg_dw[KH_VEC_PREGS];	/* beats per chunk (the chain depth) */
	u32 preg_wb[KH_VEC_PREGS];	/* beat -> bits written */
	bool from_f1;			/* the next EXEC follows an S_F1 */

	/* ---- the send path (vec_cu.v:361-438) ---- */
	struct kh_flit sendq[KSIM_VEC_SENDQ];
	u64 send_at[KSIM_VEC_SENDQ];	/* earliest cycle for each */
	bool sq_ready[KSIM_VEC_SENDQ];	/* its going pulses rd/wr_req_ready */
	u32 sq_head, sq_n;
	unsigned int mx, my;		/* MAG port */
};

/* vec.c */
void ksim_vec_finish(struct ksim_unit *u, struct ksim_vec *v, u64 at,
		     bool fault, u32 code);

/* kernel.c */
bool ksim_vec_kernel_step(struct ksim_unit *u, struct ksim_vec *v, u64 now);
void ksim_vec_kernel_start(struct ksim_vec *v, u32 pc, u64 t0);

/* lanes.c */
u64 ksim_vec_alu_exec(struct ksim_vec *v, const u32 *w, u32 d, u64 t,
		      u32 *code);
bool ksim_vec_pred_stale(const struct ksim_vec *v, u32 p, u64 read_at,
			 u32 per, u32 n);
u32 ksim_vec_nchunk(const struct ksim_vec *v);
u64 ksim_vec_tree_red(struct ksim_vec *v, u32 w, u64 t, u32 *code);

/* ldst.c */
u64 ksim_vec_ldst_exec(struct ksim_unit *u, struct ksim_vec *v, u32 w, u64 t,
		       u32 *code);

/* mem.c */
u64 ksim_vec_mem_start(struct ksim_vec *v, u32 w, u64 t, u32 *code);
bool ksim_vec_mem_step(struct ksim_unit *u, struct ksim_vec *v, u64 now,
		       u64 *f1);

/* port.c */
extern const struct ksim_cd_policy ksim_vec_cd;
bool ksim_vec_receive(struct ksim_unit *u, struct ksim_vec *v);
bool ksim_vec_send(struct ksim_unit *u, struct ksim_vec *v, u64 now);
bool ksim_vec_sendq_push(struct ksim_vec *v, const struct kh_flit *f, u64 at,
			 bool ready);
u64 ksim_vec_sendq_next(const struct ksim_vec *v);

/* agu.c */
void ksim_vec_agu_reset(struct ksim_vec_agu *a);
void ksim_vec_agu_write(struct ksim_vec_agu *a, u32 ad, u32 fld, u64 val);
void ksim_vec_agu_start(struct ksim_vec_agu *a, u32 sel, s32 off);
u64 ksim_vec_agu_addr(const struct ksim_vec_agu *a);
void ksim_vec_agu_step(struct ksim_vec_agu *a);
u32 ksim_vec_agu_total(const struct ksim_vec_agu *a);

/* e8.c */
u32 ksim_e8_alu(u32 op, u32 a, u32 b, u32 c, bool *pred);
u32 ksim_e8_from_f16(u32 h);
u32 ksim_e8_to_f16(u32 e);
u32 ksim_e8_from_f32(u32 f);
u32 ksim_e8_to_f32(u32 e);

/* L1 element access: word w, 16-bit element i (0-15) or 32-bit i (0-7) */
static inline u32 ksim_vec_l1_h(const u64 *w, unsigned int i)
{
	return (u32)(w[i / 4] >> ((i % 4) * 16)) & 0xffff;
}

static inline void ksim_vec_l1_set_h(u64 *w, unsigned int i, u32 h)
{
	unsigned int sh = (i % 4) * 16;

	w[i / 4] = (w[i / 4] & ~(0xffffULL << sh)) | ((u64)(h & 0xffff) << sh);
}

#endif /* KSIM_VEC_H */
