/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The POOL core's vector coprocessor (docs/spec/pool-vector.md; the
 * numbers are uapi/kohaku/kh_pool_vec.h's): its state, kept per core in
 * struct ksim_pool_core, and the interface of its files:
 *
 *   vec_decode.c  a custom-opcode word into a struct ksim_pool_op (K_VEC)
 *                 and each instruction's result stage (the latency table)
 *   vec_exec.c    one vector instruction: the loads, stores and moves,
 *                 the dispatch to the ALU and the MAC
 *   vec_alu.c     the integer lane ALU: segmented add/sub, saturation,
 *                 logic, shifts, min/max, compares, select
 *   vec_mac.c     the quad-MAC into the wide accumulators, and the pack
 *   vec_fp.c      the FPU: FMA, converts (custom-3 on a float type)
 *   vec_tab.c     Engine A: the seed tables and the QLI refine
 *   vec_perm.c    the permute crossbar (custom-3 on an integer width)
 *   vec_sched.c   issue timing: the scoreboard and co-issue
 *   vec_stream.c  the valign streams and SuperGather
 *
 * The interpreter (iss_exec.c) checks cpenable and calls
 * ksim_pool_vec_exec(); nothing of this is on a scalar instruction's path.
 */
#ifndef KSIM_POOL_POOL_VEC_H
#define KSIM_POOL_POOL_VEC_H

#include <kohaku/kh_pool_vec.h>

#define KSIM_PV_VWORDS	(KH_PV_VBYTES / 8)	/* u64 words a register */

/* The scoreboard's entries: every register of every file, FCR, FSR */
enum {
	KSIM_PV_SB_V = 0,
	KSIM_PV_SB_B = KSIM_PV_SB_V + KH_PV_NVEC,
	KSIM_PV_SB_P = KSIM_PV_SB_B + KH_PV_NVB,
	KSIM_PV_SB_W = KSIM_PV_SB_P + KH_PV_NPR,
	KSIM_PV_SB_U = KSIM_PV_SB_W + KH_PV_NWV,
	KSIM_PV_SB_G = KSIM_PV_SB_U + KH_PV_NVALIGN,
	KSIM_PV_SB_FCR = KSIM_PV_SB_G + KH_PV_NGVR,
	KSIM_PV_SB_FSR,
	KSIM_PV_SB_N
};

/*
 * struct ksim_pool_vsched - the issue state (vec_sched.c): per entry, the
 * cycle its newest producer issued and the cycle it writes it (issue +
 * result stage); the open bundle, its issue cycle + 1 and its slot
 * classes' counts.
 */
struct ksim_pool_vsched {
	u64 iss[KSIM_PV_SB_N];
	u64 wr[KSIM_PV_SB_N];
	u64 end;
	bool open;
	u8 n[6];
};

/*
 * struct ksim_pool_vec - one core's coprocessor state (seed 002 §1.3, §7).
 * A 512-bit register is eight u64 words, word k bits [64k+63:64k]: lane i
 * of W bits is bits [W*i+W-1:W*i], as memory's little-endian bytes.  A
 * wide accumulator is 192 bytes, lane i of A bits at byte A/8*i.
 */
struct ksim_pool_vec {
	u64 v[KH_PV_NVEC][KSIM_PV_VWORDS];
	u64 vb[KH_PV_NVB];
	u64 va[KH_PV_NVALIGN][KSIM_PV_VWORDS];	/* valign */
	u8 wv[KH_PV_NWV][KH_PV_WVBYTES];
	u64 gvr[KH_PV_NGVR][KSIM_PV_VWORDS];
	u32 fcr, fsr;				/* KH_PV_FCR_MASK, _FSR_MASK */
	u64 pr[KH_PV_NPR];
	u32 cpenable;				/* the CSR */
	struct ksim_pool_vsched sched;		/* timing, not state */
};

/*
 * The vector operations, predecoded: a K_VEC op's imm holds the operation
 * in [7:0], the width code in [15:8] and an operand in [31:16] (the
 * predicate of a select, the MAC's funct7, a memory access's signed row
 * offset); rd, rs1, rs2 are the raw fields (0 is a register), except that
 * a scalar destination 0 is 32, as for every instruction.
 */
enum ksim_pool_vop {
	KSIM_PV_ADD,		/* the ALU, in KH_PV_* funct7 order of kind */
	KSIM_PV_SUB,
	KSIM_PV_ADDS,
	KSIM_PV_SUBS,
	KSIM_PV_ADDUS,
	KSIM_PV_SUBUS,
	KSIM_PV_AND,
	KSIM_PV_OR,
	KSIM_PV_XOR,
	KSIM_PV_SLL,
	KSIM_PV_SRL,
	KSIM_PV_SRA,
	KSIM_PV_MIN,
	KSIM_PV_MAX,
	KSIM_PV_MINU,
	KSIM_PV_MAXU,
	KSIM_PV_EQ,		/* compares: into a predicate */
	KSIM_PV_NE,
	KSIM_PV_LT,
	KSIM_PV_LE,
	KSIM_PV_LTU,
	KSIM_PV_LEU,
	KSIM_PV_SEL,
	KSIM_PV_DIV4U,		/* the divide step (W32 only) */
	KSIM_PV_VL,		/* memory and moves */
	KSIM_PV_VS,
	KSIM_PV_VMV,
	KSIM_PV_SPLAT,
	KSIM_PV_EXT,
	KSIM_PV_EXTU,
	KSIM_PV_MVXB,
	KSIM_PV_MVBX,
	KSIM_PV_MVXP,
	KSIM_PV_MVPX,
	KSIM_PV_QMAC,		/* the MAC */
	KSIM_PV_PACK,
	KSIM_PV_RFCR,		/* FCR, FSR and the save/restore moves */
	KSIM_PV_WFCR,
	KSIM_PV_RFSR,
	KSIM_PV_WFSR,
	KSIM_PV_MVVW,
	KSIM_PV_MVWV,
	KSIM_PV_MVVU,
	KSIM_PV_MVUV,
	KSIM_PV_MVVG,
	KSIM_PV_MVGV,
	KSIM_PV_VLAP,		/* the valign streams */
	KSIM_PV_VLA,
	KSIM_PV_VSAP,
	KSIM_PV_VSA,
	KSIM_PV_VSAF,
	KSIM_PV_GATHERA,	/* SuperGather, W = W16/W32, aux = funct7 */
	KSIM_PV_GATHERD,
	KSIM_PV_SCATTER,
	KSIM_PV_SCATTERINC,
	KSIM_PV_FMA,		/* custom-3, W = KH_PV_WF32/WF16, aux = funct7 */
	KSIM_PV_FCVT,		/* float, ufloat, cvt */
	KSIM_PV_FTRUNC,		/* trunc, truncu */
	KSIM_PV_FTAB,		/* Engine A: recip0, rsqrt0, recipq */
	KSIM_PV_FTABQ,		/* the QLI refine */
	KSIM_PV_PERM,		/* custom-3, W an integer width: sel, shfl, cmprs */
	KSIM_PV_DSEL,		/* dsel, dilv: two destinations */
	KSIM_PV_N
};

#define KSIM_PV_OP(imm)		((imm) & 0xffu)
#define KSIM_PV_W(imm)		(((imm) >> 8) & 0xffu)
#define KSIM_PV_AUX(imm)	((imm) >> 16)
#define KSIM_PV_IMM(op, w, aux)	((u32)(op) | (u32)(w) << 8 | (u32)(aux) << 16)

/* lane i of bits (8, 16, 32) of register r, zero-extended */
static inline u32 ksim_pv_lane(const u64 *r, unsigned int bits, unsigned int i)
{
	unsigned int pos = bits * i;

	return (u32)(r[pos / 64] >> (pos % 64)) & (u32)((1ull << bits) - 1);
}

/* lane i of bits of register r = x, the other lanes kept */
static inline void ksim_pv_set_lane(u64 *r, unsigned int bits, unsigned int i,
				    u32 x)
{
	unsigned int pos = bits * i;
	u64 m = ((1ull << bits) - 1) << (pos % 64);

	r[pos / 64] = (r[pos / 64] & ~m) | ((u64)x << (pos % 64) & m);
}

/* a register from its 64 memory-order (little-endian) bytes, and back */
static inline void ksim_pv_load(u64 *r, const u8 *b)
{
	unsigned int k, j;

	for (k = 0; k < KSIM_PV_VWORDS; k++)
		for (r[k] = 0, j = 0; j < 8; j++)
			r[k] |= (u64)b[8 * k + j] << (8 * j);
}

static inline void ksim_pv_store(const u64 *r, u8 *b)
{
	unsigned int k, j;

	for (k = 0; k < KSIM_PV_VWORDS; k++)
		for (j = 0; j < 8; j++)
			b[8 * k + j] = (u8)(r[k] >> (8 * j));
}

struct ksim_pool;
struct ksim_pool_core;
struct ksim_pool_op;

/* ---- vec_decode.c ---- */
u8 ksim_pool_vec_decode(u32 w, struct ksim_pool_op *o);
unsigned int ksim_pool_vec_stage(const struct ksim_pool_op *o);

/* ---- vec_exec.c ---- */
bool ksim_pool_vec_exec(struct ksim_pool *p, struct ksim_pool_core *c,
			const struct ksim_pool_op *o, unsigned int *cause);
void ksim_pool_vec_reset(struct ksim_pool_vec *v);
u8 *ksim_pool_vec_at(struct ksim_pool *p, struct ksim_pool_core *c, u32 a,
		     unsigned int size, bool st, unsigned int *cause);

/* ---- vec_stream.c: valign streams, SuperGather ---- */
bool ksim_pool_vec_stream(struct ksim_pool *p, struct ksim_pool_core *c,
			  const struct ksim_pool_op *o, unsigned int *cause);
bool ksim_pool_vec_gather(struct ksim_pool *p, struct ksim_pool_core *c,
			  const struct ksim_pool_op *o, unsigned int *cause);

/* ---- vec_sched.c: issue timing ---- */
unsigned int ksim_pool_vec_sched(struct ksim_pool_vec *vec,
				 const struct ksim_pool_op *o, u64 cur);

/* ---- vec_fp.c: the FPU (FMA, converts) and FCR/FSR ---- */
void ksim_pool_vec_fp(struct ksim_pool_vec *v, const struct ksim_pool_op *o);

/* ---- vec_tab.c: Engine A, the seed tables and the QLI refine ---- */
extern const u8 ksim_pool_recip_data8[128];	/* RECIP_Data8 */
extern const u8 ksim_pool_rsqrt_data8[128];	/* RSQRT_Data8, odd first */
extern const u32 ksim_pool_qli_lut1[64];	/* the QLI's A */
extern const u32 ksim_pool_qli_lut2[64][2];	/* its G and C */
void ksim_pool_vec_tab(struct ksim_pool_vec *v, const struct ksim_pool_op *o);
/* one lane, for the tests' sweeps */
u32 ksim_pool_vec_seed32(u32 x, bool rsqrt);
u16 ksim_pool_vec_seed16(u16 x, bool rsqrt);
u32 ksim_pool_vec_recipq32(u32 x);

/* ---- vec_perm.c: the permute crossbar ---- */
void ksim_pool_vec_perm(struct ksim_pool_vec *v, const struct ksim_pool_op *o);

/* ---- vec_alu.c ---- */
void ksim_pool_vec_alu(struct ksim_pool_vec *v, const struct ksim_pool_op *o);

/* ---- vec_mac.c ---- */
void ksim_pool_vec_qmac(struct ksim_pool_vec *v, const struct ksim_pool_op *o);
void ksim_pool_vec_pack(struct ksim_pool_vec *v, const struct ksim_pool_op *o,
			u32 shift);

#endif /* KSIM_POOL_POOL_VEC_H */
