// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector coprocessor's predecoder (docs/spec/pool-vector.md
 * "Encoding"): a word of custom-0..custom-3 into a K_VEC op,
 * or K_ILLEGAL.  Every field an instruction does not use must be zero and
 * every value not listed is illegal, so that later slices can take them;
 * decoding comes before the cpenable check (an illegal word is illegal
 * with the coprocessor off too).
 *
 * Each decoded op also has a result stage (seed 002 §5, KH_PV_STAGE_*),
 * kept as data for the scoreboard of the next slice.
 */
#include "pool.h"

/* custom-0 funct7 (below KH_PV_VSEL) -> the operation, or KSIM_PV_N */
static u8 ksim_pool_vec_alu_op(unsigned int f7)
{
	switch (f7) {
	case KH_PV_VADD: return KSIM_PV_ADD;
	case KH_PV_VSUB: return KSIM_PV_SUB;
	case KH_PV_VADDS: return KSIM_PV_ADDS;
	case KH_PV_VSUBS: return KSIM_PV_SUBS;
	case KH_PV_VADDUS: return KSIM_PV_ADDUS;
	case KH_PV_VSUBUS: return KSIM_PV_SUBUS;
	case KH_PV_VAND: return KSIM_PV_AND;
	case KH_PV_VOR: return KSIM_PV_OR;
	case KH_PV_VXOR: return KSIM_PV_XOR;
	case KH_PV_VSLL: return KSIM_PV_SLL;
	case KH_PV_VSRL: return KSIM_PV_SRL;
	case KH_PV_VSRA: return KSIM_PV_SRA;
	case KH_PV_VMIN: return KSIM_PV_MIN;
	case KH_PV_VMAX: return KSIM_PV_MAX;
	case KH_PV_VMINU: return KSIM_PV_MINU;
	case KH_PV_VMAXU: return KSIM_PV_MAXU;
	case KH_PV_VEQ: return KSIM_PV_EQ;
	case KH_PV_VNE: return KSIM_PV_NE;
	case KH_PV_VLT: return KSIM_PV_LT;
	case KH_PV_VLE: return KSIM_PV_LE;
	case KH_PV_VLTU: return KSIM_PV_LTU;
	case KH_PV_VLEU: return KSIM_PV_LEU;
	default: return KSIM_PV_N;
	}
}

static u8 ksim_pool_vec_dec_alu(unsigned int f7, unsigned int f3,
				unsigned int rd, struct ksim_pool_op *o)
{
	u8 op;

	if (f3 > KH_PV_W32)
		return KSIM_POOL_K_ILLEGAL;
	if (f7 >= KH_PV_VSEL && f7 < KH_PV_VSEL + KH_PV_NVB) {
		o->imm = KSIM_PV_IMM(KSIM_PV_SEL, f3, f7 - KH_PV_VSEL);
		return KSIM_POOL_K_VEC;
	}
	if (f7 == KH_PV_VDIV4U) {
		/* 32-bit lanes: a 16-bit remainder over a 16-bit quotient */
		if (f3 != KH_PV_W32)
			return KSIM_POOL_K_ILLEGAL;
		o->imm = KSIM_PV_IMM(KSIM_PV_DIV4U, f3, 0);
		return KSIM_POOL_K_VEC;
	}
	op = ksim_pool_vec_alu_op(f7);
	if (op == KSIM_PV_N)
		return KSIM_POOL_K_ILLEGAL;
	/* a compare's destination is a predicate: 16 of them */
	if (op >= KSIM_PV_EQ && rd >= KH_PV_NVB)
		return KSIM_POOL_K_ILLEGAL;
	o->imm = KSIM_PV_IMM(op, f3, 0);
	return KSIM_POOL_K_VEC;
}

/* custom-1 funct3 2: the moves */
static u8 ksim_pool_vec_dec_move(unsigned int f7, unsigned int rd,
				 unsigned int rs1, unsigned int rs2,
				 struct ksim_pool_op *o)
{
	unsigned int w = f7 & 3;
	u8 op;

	switch (f7 & ~3u) {
	case KH_PV_VMV:
		if (f7 != KH_PV_VMV || rs2)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_VMV;
		break;
	case KH_PV_VSPLAT:
		if (rs2)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_SPLAT;
		break;
	case KH_PV_VEXT:
		op = KSIM_PV_EXT;
		break;
	case KH_PV_VEXTU:
		op = KSIM_PV_EXTU;
		break;
	case KH_PV_VRFCR:
		w = 0;
		switch (f7) {
		case KH_PV_VRFCR:
		case KH_PV_VRFSR:
			if (rs1 || rs2)
				return KSIM_POOL_K_ILLEGAL;
			op = f7 == KH_PV_VRFCR ? KSIM_PV_RFCR : KSIM_PV_RFSR;
			break;
		default:
			if (rd || rs2)
				return KSIM_POOL_K_ILLEGAL;
			op = f7 == KH_PV_VWFCR ? KSIM_PV_WFCR : KSIM_PV_WFSR;
			break;
		}
		break;
	case KH_PV_VMVVW:
		w = 0;
		switch (f7) {
		case KH_PV_VMVVW:
			if (rd >= KH_PV_NWV || rs2 > 2)
				return KSIM_POOL_K_ILLEGAL;
			op = KSIM_PV_MVVW;
			break;
		case KH_PV_VMVWV:
			if (rs1 >= KH_PV_NWV || rs2 > 2)
				return KSIM_POOL_K_ILLEGAL;
			op = KSIM_PV_MVWV;
			break;
		case KH_PV_VMVVU:
			if (rd >= KH_PV_NVALIGN || rs2)
				return KSIM_POOL_K_ILLEGAL;
			op = KSIM_PV_MVVU;
			break;
		case KH_PV_VMVUV:
			if (rs1 >= KH_PV_NVALIGN || rs2)
				return KSIM_POOL_K_ILLEGAL;
			op = KSIM_PV_MVUV;
			break;
		}
		break;
	case KH_PV_VMVVG:
		w = 0;
		switch (f7) {
		case KH_PV_VMVVG:
			if (rd >= KH_PV_NGVR || rs2)
				return KSIM_POOL_K_ILLEGAL;
			op = KSIM_PV_MVVG;
			break;
		case KH_PV_VMVGV:
			if (rs1 >= KH_PV_NGVR || rs2)
				return KSIM_POOL_K_ILLEGAL;
			op = KSIM_PV_MVGV;
			break;
		default:
			return KSIM_POOL_K_ILLEGAL;
		}
		break;
	case KH_PV_VMVXB:
		w = 0;
		switch (f7) {
		case KH_PV_VMVXB:
		case KH_PV_VMVXP:
			if (rd >= KH_PV_NVB)	/* KH_PV_NPR too */
				return KSIM_POOL_K_ILLEGAL;
			op = f7 == KH_PV_VMVXB ? KSIM_PV_MVXB : KSIM_PV_MVXP;
			break;
		case KH_PV_VMVBX:
		case KH_PV_VMVPX:
			if (rs1 >= KH_PV_NVB || rs2 > 1)
				return KSIM_POOL_K_ILLEGAL;
			op = f7 == KH_PV_VMVBX ? KSIM_PV_MVBX : KSIM_PV_MVPX;
			break;
		default:
			return KSIM_POOL_K_ILLEGAL;
		}
		break;
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
	if (w > KH_PV_W32)
		return KSIM_POOL_K_ILLEGAL;
	/* a scalar destination: x0 is the sink x[32], as in ksim_pool_decode */
	if (op == KSIM_PV_EXT || op == KSIM_PV_EXTU || op == KSIM_PV_MVBX ||
	    op == KSIM_PV_MVPX || op == KSIM_PV_RFCR || op == KSIM_PV_RFSR)
		o->rd = rd ? rd : 32;
	o->imm = KSIM_PV_IMM(op, w, 0);
	return KSIM_POOL_K_VEC;
}

/* custom-1 funct3 3: the valign streams */
static u8 ksim_pool_vec_dec_align(unsigned int f7, unsigned int rd,
				  unsigned int rs2, struct ksim_pool_op *o)
{
	u8 op;

	switch (f7) {
	case KH_PV_VLAP:
	case KH_PV_VSAP:
	case KH_PV_VSAF:
		if (rd >= KH_PV_NVALIGN || rs2)
			return KSIM_POOL_K_ILLEGAL;
		op = f7 == KH_PV_VLAP ? KSIM_PV_VLAP :
		     f7 == KH_PV_VSAP ? KSIM_PV_VSAP : KSIM_PV_VSAF;
		break;
	case KH_PV_VLA:
		if (rs2 >= KH_PV_NVALIGN)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_VLA;
		break;
	case KH_PV_VSA:
		if (rd >= KH_PV_NVALIGN)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_VSA;
		break;
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
	o->imm = KSIM_PV_IMM(op, 0, 0);
	return KSIM_POOL_K_VEC;
}

/* custom-1 funct3 4, 5: SuperGather on 16- or 32-bit lanes */
static u8 ksim_pool_vec_dec_gs(unsigned int f7, unsigned int f3,
			       unsigned int rd, unsigned int rs1,
			       unsigned int rs2, struct ksim_pool_op *o)
{
	unsigned int w = f3 == KH_PV_F3_GS16 ? KH_PV_W16 : KH_PV_W32;
	u8 op;

	switch (KH_PV_GS_OP(f7)) {
	case KH_PV_GATHERA:
		if (rd >= KH_PV_NGVR)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_GATHERA;
		break;
	case KH_PV_GATHERD:
		if (rs2 >= KH_PV_NGVR || rs1 || KH_PV_GS_PRED(f7))
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_GATHERD;
		break;
	case KH_PV_SCATTER:
		op = KSIM_PV_SCATTER;
		break;
	case KH_PV_SCATTERINC:
		op = KSIM_PV_SCATTERINC;
		break;
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
	o->imm = KSIM_PV_IMM(op, w, f7);
	return KSIM_POOL_K_VEC;
}

static u8 ksim_pool_vec_dec_mem(u32 w, unsigned int f3, unsigned int rd,
				unsigned int rs1, unsigned int rs2,
				struct ksim_pool_op *o)
{
	u32 rows;

	switch (f3) {
	case KH_PV_F3_VL:
		rows = w >> 20;
		o->imm = KSIM_PV_IMM(KSIM_PV_VL, 0, rows & 0xfff);
		return KSIM_POOL_K_VEC;
	case KH_PV_F3_VS:
		rows = (w >> 25) << 5 | rd;
		o->imm = KSIM_PV_IMM(KSIM_PV_VS, 0, rows & 0xfff);
		return KSIM_POOL_K_VEC;
	case KH_PV_F3_MOVE:
		return ksim_pool_vec_dec_move(w >> 25, rd, rs1, rs2, o);
	case KH_PV_F3_ALIGN:
		return ksim_pool_vec_dec_align(w >> 25, rd, rs2, o);
	case KH_PV_F3_GS16:
	case KH_PV_F3_GS32:
		return ksim_pool_vec_dec_gs(w >> 25, f3, rd, rs1, rs2, o);
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
}

static u8 ksim_pool_vec_dec_mac(unsigned int f7, unsigned int f3,
				unsigned int rd, unsigned int rs1,
				unsigned int rs2, struct ksim_pool_op *o)
{
	if (f3 > KH_PV_W32)
		return KSIM_POOL_K_ILLEGAL;
	switch (KH_PV_MAC_OP(f7)) {
	case KH_PV_VQMAC:
		if ((f7 & 3) > KH_PV_MAC_SUB || rd >= KH_PV_NWV ||
		    rs2 >= KH_PV_NPR)
			return KSIM_POOL_K_ILLEGAL;
		o->imm = KSIM_PV_IMM(KSIM_PV_QMAC, f3, f7);
		return KSIM_POOL_K_VEC;
	case KH_PV_VPACK:
		if ((f7 & ~KH_PV_PACK_ROUND) != KH_PV_PACK_F7(0) ||
		    rs1 >= KH_PV_NWV)
			return KSIM_POOL_K_ILLEGAL;
		o->imm = KSIM_PV_IMM(KSIM_PV_PACK, f3, f7);
		return KSIM_POOL_K_VEC;
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
}

/* custom-3 on a floating point type: the FPU and Engine A */
static u8 ksim_pool_vec_dec_fpu(unsigned int f7, unsigned int f3,
				unsigned int rs2, struct ksim_pool_op *o)
{
	bool unary = true;
	u8 op;

	switch (f7) {
	case KH_PV_FMADD ... KH_PV_FSUB:
	case KH_PV_FMADD + KH_PV_FNOFLAGS ... KH_PV_FSUB + KH_PV_FNOFLAGS:
		op = KSIM_PV_FMA;
		unary = false;
		break;
	case KH_PV_FFLOAT:
	case KH_PV_FUFLOAT:
		op = KSIM_PV_FCVT;
		break;
	case KH_PV_FCVT:
		op = KSIM_PV_FCVT;
		/* the narrowing takes two sources, the widening one */
		unary = f3 == KH_PV_WF32;
		break;
	case KH_PV_FTRUNC:
	case KH_PV_FTRUNCU:
		op = KSIM_PV_FTRUNC;
		break;
	case KH_PV_FRECIP0:
	case KH_PV_FRSQRT0:
		op = KSIM_PV_FTAB;
		break;
	case KH_PV_FRECIPQ:
		if (f3 != KH_PV_WF32)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_FTABQ;
		break;
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
	if (unary && rs2)
		return KSIM_POOL_K_ILLEGAL;
	o->imm = KSIM_PV_IMM(op, f3, f7);
	return KSIM_POOL_K_VEC;
}

/* custom-3 on an integer width: the permute crossbar */
static u8 ksim_pool_vec_dec_perm(unsigned int f7, unsigned int f3,
				 unsigned int rd, unsigned int rs2,
				 struct ksim_pool_op *o)
{
	u8 op;

	switch (f7) {
	case KH_PV_PSEL:
	case KH_PV_PSHFL:
		op = KSIM_PV_PERM;
		break;
	case KH_PV_PDSEL:
	case KH_PV_PDILV:
		/* two destinations, v[rd] and v[rd + 1] */
		if (rd == KH_PV_NVEC - 1)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_DSEL;
		break;
	default:
		/* one vector source and a predicate */
		if (f7 < KH_PV_PCMPRS || f7 >= KH_PV_PCMPRS + KH_PV_NVB || rs2)
			return KSIM_POOL_K_ILLEGAL;
		op = KSIM_PV_PERM;
		break;
	}
	o->imm = KSIM_PV_IMM(op, f3, f7);
	return KSIM_POOL_K_VEC;
}

static u8 ksim_pool_vec_dec_fp(unsigned int f7, unsigned int f3,
			       unsigned int rd, unsigned int rs2,
			       struct ksim_pool_op *o)
{
	if (f3 <= KH_PV_W32)
		return ksim_pool_vec_dec_perm(f7, f3, rd, rs2, o);
	if (f3 == KH_PV_WF32 || f3 == KH_PV_WF16)
		return ksim_pool_vec_dec_fpu(f7, f3, rs2, o);
	return KSIM_POOL_K_ILLEGAL;
}

/**
 * ksim_pool_vec_decode() - predecode a custom-opcode word
 * @w: the instruction word (major opcode custom-0..3)
 * @o: filled: rd, rs1, rs2 raw, imm as pool_vec.h says
 *
 * Return: KSIM_POOL_K_VEC, or KSIM_POOL_K_ILLEGAL for a reserved encoding.
 */
u8 ksim_pool_vec_decode(u32 w, struct ksim_pool_op *o)
{
	unsigned int f3 = (w >> 12) & 7, f7 = w >> 25;
	unsigned int rd = (w >> 7) & 0x1f, rs1 = (w >> 15) & 0x1f;
	unsigned int rs2 = (w >> 20) & 0x1f;

	o->rd = rd;
	o->rs1 = rs1;
	o->rs2 = rs2;
	switch (w & 0x7f) {
	case KH_PV_OPC_ALU:
		return ksim_pool_vec_dec_alu(f7, f3, rd, o);
	case KH_PV_OPC_MEM:
		return ksim_pool_vec_dec_mem(w, f3, rd, rs1, rs2, o);
	case KH_PV_OPC_MAC:
		return ksim_pool_vec_dec_mac(f7, f3, rd, rs1, rs2, o);
	default:	/* custom-3 */
		return ksim_pool_vec_dec_fp(f7, f3, rd, rs2, o);
	}
}

/* The result stage of each operation (seed 002 §5.1, §7; pool-vector.md) */
static const u8 ksim_pool_vec_stages[KSIM_PV_N] = {
	[KSIM_PV_ADD ... KSIM_PV_SEL] = KH_PV_STAGE_ALU,
	[KSIM_PV_DIV4U] = KH_PV_STAGE_DIVSTEP,
	[KSIM_PV_VL] = KH_PV_STAGE_LOAD,
	[KSIM_PV_VS] = KH_PV_STAGE_STORE,
	[KSIM_PV_VMV] = KH_PV_STAGE_ALU,
	[KSIM_PV_SPLAT] = KH_PV_STAGE_ALU,
	[KSIM_PV_EXT] = KH_PV_STAGE_V2S,
	[KSIM_PV_EXTU] = KH_PV_STAGE_V2S,
	[KSIM_PV_MVXB] = KH_PV_STAGE_ALU,
	[KSIM_PV_MVBX] = KH_PV_STAGE_V2S,
	[KSIM_PV_MVXP] = KH_PV_STAGE_ALU,
	[KSIM_PV_MVPX] = KH_PV_STAGE_V2S,
	[KSIM_PV_QMAC] = KH_PV_STAGE_MAC,
	[KSIM_PV_PACK] = KH_PV_STAGE_PACK,
	[KSIM_PV_RFCR] = KH_PV_STAGE_V2S,
	[KSIM_PV_WFCR] = KH_PV_STAGE_ALU,
	[KSIM_PV_RFSR] = KH_PV_STAGE_V2S,
	[KSIM_PV_WFSR] = KH_PV_STAGE_ALU,
	[KSIM_PV_MVVW] = KH_PV_STAGE_MAC,
	[KSIM_PV_MVWV] = KH_PV_STAGE_MAC,
	[KSIM_PV_MVVU] = KH_PV_STAGE_ALU,
	[KSIM_PV_MVUV] = KH_PV_STAGE_ALU,
	[KSIM_PV_MVVG] = KH_PV_STAGE_ALU,
	[KSIM_PV_MVGV] = KH_PV_STAGE_ALU,
	[KSIM_PV_VLAP ... KSIM_PV_VLA] = KH_PV_STAGE_LOAD,
	[KSIM_PV_VSAP] = KH_PV_STAGE_LOAD,
	[KSIM_PV_VSA ... KSIM_PV_VSAF] = KH_PV_STAGE_STORE,
	[KSIM_PV_GATHERA] = KH_PV_STAGE_LOAD,
	[KSIM_PV_GATHERD] = KH_PV_STAGE_ALU,
	[KSIM_PV_SCATTER ... KSIM_PV_SCATTERINC] = KH_PV_STAGE_STORE,
	[KSIM_PV_FMA] = KH_PV_STAGE_FMA,
	[KSIM_PV_FCVT] = KH_PV_STAGE_CVT,
	[KSIM_PV_FTRUNC] = KH_PV_STAGE_TRUNC,
	[KSIM_PV_FTAB] = KH_PV_STAGE_TAB,
	[KSIM_PV_FTABQ] = KH_PV_STAGE_FMA,
	[KSIM_PV_PERM] = KH_PV_STAGE_PERM,
	[KSIM_PV_DSEL] = KH_PV_STAGE_PERM,
};

/**
 * ksim_pool_vec_stage() - the result stage of a decoded vector op
 * @o: a K_VEC op
 *
 * Return: its KH_PV_STAGE_* (a store's commit stage; for a vector to
 * scalar move, KH_PV_STAGE_V2S).
 */
unsigned int ksim_pool_vec_stage(const struct ksim_pool_op *o)
{
	return ksim_pool_vec_stages[KSIM_PV_OP(o->imm)];
}
