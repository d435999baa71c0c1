/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The matmul cluster unit `mat` (cu_type 'MG', RTL mx_cluster_cu;
 * docs/spec/mat.md): what its files share.  One concern per file:
 *
 *   mat.c     the unit type and the sequencer (S_IDLE .. S_DONE), retirement
 *   l1.c      the FILL descriptor and L1 placement (MEM_RD_RESP and CU_DATA
 *             buffers 0/1 share it)
 *   cudata.c  the receive path; CU_DATA's hooks and policy for the shared
 *             receiver (units/cudata.c), the peer sub-tile register
 *   sweep.c   the GEMM sweep (mx_cluster_mgr): issue order, pacing, busy
 *   acu.c     the numerics: int7 dot products, the FP22 normaliser, FP22
 *             add, FP22 -> FP16 (mx_acu_fp.v, mx_fpacc.v)
 *   drain.c   DRAIN (mx_cluster_node's drain sequencer) and the write-back
 *             port (bursts of 8 to memory or CU_DATA to a node)
 *
 * Time.  A state the RTL's sequencer is in during cycle T is handled by
 * the tick at cycle T.  The sweep and the drain compute their values at
 * issue and hand them on after the RTL's pipeline latency (KSIM_MAT_*_LAT).
 */
#ifndef KSIM_MAT_H
#define KSIM_MAT_H

#include "ksim_unit.h"
#include "util.h"
#include <kohaku/kh_mat.h>
#include <kohaku/kh_mxfp7.h>
#include <kohaku/kh_units.h>

#define KSIM_MAT_ENT		(KH_MAT_SUB * KH_MAT_KBLOCK)	/* int7 per entry */
#define KSIM_MAT_LANES		16	/* FP22 lanes per sub-tile */
#define KSIM_MAT_TAW_MASK	(KH_MAT_TILES - 1)
#define KSIM_MAT_DQ		128	/* mx_cluster_node DQ_DEPTH */
#define KSIM_MAT_DQ_LIMIT	(KSIM_MAT_DQ - 16)
#define KSIM_MAT_REUSE_MIN	5	/* mx_acu_fp REUSE_MIN */
#define KSIM_MAT_KSTEP		2	/* K blocks per command (PUMP=1) */
/*
 * Pipeline depths of the ship's pumped cluster, in unit cycles, estimated
 * from its stages (docs/spec/mat.md "Timing"): a sweep command -> its pair
 * at the accumulator (s1, s1b, s2, the cascade's 17 stages at 2x, the
 * pairing: mx_cluster_mgr_pump.v, mx_cluster_node_pump.v L174-211);
 * a command at the accumulator -> busy low (stage 0, the merge's 2,
 * v1 .. v4 and the REUSE_MIN tail: mx_acu_fp_pump.v L815-829).
 */
#define KSIM_MAT_SWEEP_LAT	12
#define KSIM_MAT_ACU_BUSY	(11 + KSIM_MAT_REUSE_MIN)
/* drain issue -> its granule at the head of the drain queue (the pump's
 * 10 accumulator stages, emit_pend, emit_valid, the queue write) */
#define KSIM_MAT_EMIT_LAT	14
#define KSIM_MAT_SEND_LAT	13
/* sweep issue -> emit_issue counted in d_out (s2, +1) / granule at the head */
#define KSIM_MAT_FUSED_INC	4
#define KSIM_MAT_FUSED_LAT	(KSIM_MAT_SWEEP_LAT - 1 + KSIM_MAT_EMIT_LAT)
/* model refusal: a feature the model does not implement */
#define KSIM_MAT_FAULT_UNMODELLED	0xbad04d47u
#define KSIM_MAT_NEVER		(~0ULL)

enum ksim_mat_state {
	KSIM_MAT_IDLE,
	KSIM_MAT_FILL,
	KSIM_MAT_GEMM,
	KSIM_MAT_GWAIT,
	KSIM_MAT_DRAIN,
	KSIM_MAT_DWAIT,
	KSIM_MAT_DONE,
	KSIM_MAT_REFUSE,	/* model only: retire with the refusal fault */
};

/* One L1 entry: 4 lanes x 32 K int7 and four E5M3 scale bytes. */
struct ksim_mat_ent {
	s8 q[KSIM_MAT_ENT];	/* [lane * 32 + k] */
	u8 s[KH_MAT_SUB];
};

/* One granule of the drain queue or of a write bank. */
struct ksim_mat_gran {
	u64 w[4];
	u16 idx;		/* drain_idx: granule index in the drain */
	u64 ready;		/* cycle it reaches the queue's head; NEVER for
				 * an emit the accumulator never produces */
	u64 inc_at;		/* first cycle d_out counts it */
};

/* The instruction registers (mx_cluster_cu.v L796-809). */
struct ksim_mat_inst {
	unsigned int op;
	u64 addr;
	u16 n;			/* 0 means 1, already applied */
	bool sel, acc, preq, emit, fuse, abank, bbank, fbank, dnode;
	u8 gm, gn, nk, anchor, eoff, aoff, boff;
	u32 peers;
	u8 npeer;
	u8 dx, dy, dbuf, dflags, dackx, dacky, dmesh, dfin;
};

struct ksim_mat {
	u8 st;
	u64 st_at;		/* cycle the state was entered */
	struct ksim_mat_inst in;
	u16 nfill, ngemm, ndrain;
	bool fault;		/* fault_r: a rejected CU_DATA burst */
	/*
	 * exec_done/exec_result/exec_fault, registered at S_DONE: the base
	 * sees them the edge after (mx_cluster_cu.v S_DONE, noc_cu_base's
	 * u_sig write), as saxpy_cu's
	 */
	bool done_pend, done_fault;
	u32 done_result;
	u32 refuse;		/* model only: why the instruction is refused */
	unsigned int mx, my;	/* MEM_X, MEM_Y */
	u32 ctr_fill, ctr_comp;	/* CU_DBG halves, up to comp_from */
	u64 comp_from, comp_to;	/* the open compute-busy interval */

	/* FILL (l1.c) */
	bool req_done;		/* req_ent != 0 */
	bool req_pend;		/* the descriptor waits for the send path */
	u8 rcv_ent;
	struct ksim_mat_ent asm_e;	/* l1_data */
	struct ksim_mat_ent l1[2][KH_MAT_GA];

	/* the peer sub-tile register (cudata.c) */
	bool pk_pend;
	u16 pk_idx;
	u64 pk[6];		/* {pk_hi, pk_lo}: 352 bits */
	bool peer_open_r, p_open;

	/* GEMM sweep (sweep.c) */
	bool run;
	u8 kb, g, h, pace, pace_n;	/* pace: emit mode's countdown */
	struct ksim_mat_inst sw;	/* the sweep's own copy */
	u64 next_issue;		/* cycle of the next issue while run */
	u64 mgr_busy_to;	/* sweep_busy through this cycle */
	u64 acu_busy_to;	/* the accumulator busy through this cycle */
	u32 tile[KH_MAT_TILES][KSIM_MAT_LANES];	/* FP22 */

	/* DRAIN (drain.c) */
	bool d_run, d_send;
	u16 d_iss, d_n, d_got;
	u16 d_out;		/* granules issued and not yet collected */
	u16 d_pop;		/* granules the write port has taken */
	bool d_gap;
	bool d_fused;		/* the drain queue is fed by an emitting sweep */
	bool d_wait;		/* a fused DRAIN waits for d_pop >= d_n */
	unsigned int dq_inc;	/* entries from the head d_out counts */
	u64 d_next;		/* cycle of the next drain issue */
	struct ksim_mat_gran dq[KSIM_MAT_DQ];
	unsigned int dq_head, dq_count;
	/* the write-back port */
	struct ksim_mat_gran wb[2][KH_MAT_WBURST];
	unsigned int w_cb, w_fill, w_sb, w_len, w_send;
	u16 w_cfirst, w_sfirst;
	u8 w_st;		/* 0 idle, 1 descriptor, 2 data */
	u64 w_at;		/* the descriptor's first cycle */
	struct ksim_mat_inst wdst;	/* w_base and the destination */
};

/* mat.c */
bool ksim_mat_peer_open(const struct ksim_mat *m);

/* l1.c */
bool ksim_mat_fill_send(struct ksim_unit *u, struct ksim_mat *m);
void ksim_mat_place(struct ksim_mat *m, const struct kh_flit *f, bool sel,
		    unsigned int ent, unsigned int word);

/* cudata.c */
extern const struct ksim_cd_policy ksim_mat_cd;
bool ksim_mat_recv(struct ksim_unit *u, struct ksim_mat *m);
bool ksim_mat_peer_step(struct ksim_unit *u, struct ksim_mat *m, bool pk_was,
			bool open_next);
u32 ksim_mat_peer_lane(const u64 *p, unsigned int l);

/* sweep.c */
void ksim_mat_sweep_start(struct ksim_unit *u, struct ksim_mat *m);
bool ksim_mat_sweep_step(struct ksim_unit *u, struct ksim_mat *m);
bool ksim_mat_gemm_busy(const struct ksim_unit *u, const struct ksim_mat *m);
bool ksim_mat_sweep_busy(const struct ksim_unit *u, const struct ksim_mat *m);
void ksim_mat_acu_cmd(const struct ksim_unit *u, struct ksim_mat *m);
void ksim_mat_comp(struct ksim_mat *m, u64 from, u64 to);

/* acu.c */
void ksim_mat_chain_pair(const struct ksim_mat_ent *a0,
			 const struct ksim_mat_ent *b0,
			 const struct ksim_mat_ent *a1,
			 const struct ksim_mat_ent *b1, bool single, u8 anchor,
			 u32 *out);
u32 ksim_mat_fp22_add(u32 a, u32 b, bool a_zero, bool b_zero);
u16 ksim_mat_fp22_to_fp16(u32 v);

/* drain.c */
void ksim_mat_drain_start(struct ksim_unit *u, struct ksim_mat *m);
bool ksim_mat_drain_step(struct ksim_unit *u, struct ksim_mat *m);
bool ksim_mat_drain_busy(const struct ksim_mat *m);
bool ksim_mat_w_idle(const struct ksim_mat *m);
void ksim_mat_dq_push(struct ksim_mat *m, const u64 *w, u64 ready,
		      u64 inc_at);
void ksim_mat_dq_account(struct ksim_mat *m, u64 now);
void ksim_mat_fused_start(struct ksim_mat *m);
bool ksim_mat_wb_send(struct ksim_unit *u, struct ksim_mat *m);

#endif /* KSIM_MAT_H */
