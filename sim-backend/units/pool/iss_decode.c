// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL core's predecoder (docs/spec/pool.md "The cores"): one IRAM
 * word into a struct ksim_pool_op, done the first time the word is
 * executed and again after the word is written (ksim_pool_iram_written()).
 *
 * RV32IM + Zicsr + WFI, exactly: every encoding not listed is an illegal
 * instruction, the reserved bits of the shifts and of R-type funct7
 * included; FENCE's fields are ignored (the fence is full), FENCE.I is a
 * no-op (IRAM changes only with every core in reset).  Branch and JAL
 * targets, LUI and AUIPC values are resolved here, since IRAM is the only
 * place code runs from: a branch or JAL holds its target's word index, or,
 * when the target cannot be fetched (not 4-aligned, past IRAM), is
 * K_BRBAD / K_JALBAD with the target's address, which trap when taken.  A
 * CSR instruction is classified by its CSR:
 * the core's own (K_CSR), one that meets the outside (K_CSRX), or an
 * illegal instruction (an absent CSR, or a write to a read-only one: a
 * CSRRW always writes, CSRRS/CSRRC and the immediate forms only with a
 * nonzero rs1/uimm, as Zicsr says).  custom-0..3 are the vector
 * coprocessor's (docs/spec/pool-vector.md), decoded by vec_decode.c.  The fields and immediates are
 * units/rv32i.h's, shared with the cpu unit.
 */
#include "pool.h"
#include "rv32i.h"

/* The kind of a CSR instruction on csr, or K_ILLEGAL. */
static u8 ksim_pool_csr_kind(unsigned int csr, bool write)
{
	switch (csr) {
	case KH_POOL_CSR_MHARTID:
	case KH_POOL_CSR_PRID:
	case KH_POOL_CSR_CYCLE:
	case KH_POOL_CSR_CYCLEH:
	case KH_POOL_CSR_INSTRET:
	case KH_POOL_CSR_INSTRETH:
	case KH_POOL_CSR_NCORES:
		return write ? KSIM_POOL_K_ILLEGAL : KSIM_POOL_K_CSR;
	case KH_POOL_CSR_WIN_BASE:
	case KH_PV_CSR_CPENABLE:
		return KSIM_POOL_K_CSR;
	case KH_POOL_CSR_JOB_STATUS:
	case KH_POOL_CSR_IDMA_STATUS:
		return write ? KSIM_POOL_K_ILLEGAL : KSIM_POOL_K_CSRX;
	case KH_POOL_CSR_JOB_RETIRE:
	case KH_POOL_CSR_JOB_FAULT:
	case KH_POOL_CSR_BARRIER:
	case KH_POOL_CSR_IDMA_PUSH:
	case KH_POOL_CSR_IDMA_CTRL:
		return KSIM_POOL_K_CSRX;
	default:
		if (csr >= KH_POOL_CSR_JOB_W0 && csr < KH_POOL_CSR_JOB_W0 + 8)
			return write ? KSIM_POOL_K_ILLEGAL : KSIM_POOL_K_CSRX;
		return KSIM_POOL_K_ILLEGAL;
	}
}

static const u8 ksim_pool_op_r[8] = {
	KSIM_POOL_K_ADD, KSIM_POOL_K_SLL, KSIM_POOL_K_SLT, KSIM_POOL_K_SLTU,
	KSIM_POOL_K_XOR, KSIM_POOL_K_SRL, KSIM_POOL_K_OR, KSIM_POOL_K_AND,
};

static const u8 ksim_pool_op_m[8] = {
	KSIM_POOL_K_MUL, KSIM_POOL_K_MULH, KSIM_POOL_K_MULHSU, KSIM_POOL_K_MULHU,
	KSIM_POOL_K_DIV, KSIM_POOL_K_DIVU, KSIM_POOL_K_REM, KSIM_POOL_K_REMU,
};

static const u8 ksim_pool_op_i[8] = {
	KSIM_POOL_K_ADDI, KSIM_POOL_K_SLLI, KSIM_POOL_K_SLTI, KSIM_POOL_K_SLTIU,
	KSIM_POOL_K_XORI, KSIM_POOL_K_SRLI, KSIM_POOL_K_ORI, KSIM_POOL_K_ANDI,
};

static const u8 ksim_pool_op_b[8] = {
	KSIM_POOL_K_BEQ, KSIM_POOL_K_BNE, KSIM_POOL_K_ILLEGAL, KSIM_POOL_K_ILLEGAL,
	KSIM_POOL_K_BLT, KSIM_POOL_K_BGE, KSIM_POOL_K_BLTU, KSIM_POOL_K_BGEU,
};

static const u8 ksim_pool_op_l[8] = {
	KSIM_POOL_K_LB, KSIM_POOL_K_LH, KSIM_POOL_K_LW, KSIM_POOL_K_ILLEGAL,
	KSIM_POOL_K_LBU, KSIM_POOL_K_LHU, KSIM_POOL_K_ILLEGAL, KSIM_POOL_K_ILLEGAL,
};

/* A jump target an instruction can be fetched from. */
static bool ksim_pool_target_ok(u32 target)
{
	return !(target & 3) && target < KH_POOL_IRAM_SIZE;
}

/* The kind of word w at byte address pc; fills o's fields (rd first). */
static u8 ksim_pool_kind_of(u32 w, u32 pc, struct ksim_pool_op *o)
{
	unsigned int f3 = (w >> 12) & 7, f7 = w >> 25;
	unsigned int rs1 = (w >> 15) & 0x1f;

	switch (w & 0x7f) {
	case 0x37:	/* LUI */
		o->imm = w & 0xfffff000u;
		return KSIM_POOL_K_LI;
	case 0x17:	/* AUIPC */
		o->imm = pc + (w & 0xfffff000u);
		return KSIM_POOL_K_LI;
	case 0x6f:	/* JAL */
		o->imm = pc + ksim_rv32_imm_j(w);
		if (!ksim_pool_target_ok(o->imm))
			return KSIM_POOL_K_JALBAD;
		o->imm /= 4;
		return KSIM_POOL_K_JAL;
	case 0x67:	/* JALR */
		o->imm = ksim_rv32_imm_i(w);
		return f3 ? KSIM_POOL_K_ILLEGAL : KSIM_POOL_K_JALR;
	case 0x63:	/* BRANCH */
		o->imm = pc + ksim_rv32_imm_b(w);
		if (ksim_pool_op_b[f3] == KSIM_POOL_K_ILLEGAL)
			return KSIM_POOL_K_ILLEGAL;
		if (!ksim_pool_target_ok(o->imm)) {
			o->rd = f3;	/* the condition, for the slow path */
			return KSIM_POOL_K_BRBAD;
		}
		o->imm /= 4;
		return ksim_pool_op_b[f3];
	case 0x03:	/* LOAD */
		o->imm = ksim_rv32_imm_i(w);
		return ksim_pool_op_l[f3];
	case 0x23:	/* STORE */
		o->imm = ksim_rv32_imm_s(w);
		return f3 <= 2 ? KSIM_POOL_K_SB + f3 : KSIM_POOL_K_ILLEGAL;
	case 0x13:	/* OP-IMM */
		o->imm = ksim_rv32_imm_i(w);
		if (f3 == 1)	/* SLLI: shamt[5] must be 0 on RV32 */
			return f7 ? KSIM_POOL_K_ILLEGAL : KSIM_POOL_K_SLLI;
		if (f3 == 5) {
			o->imm = (w >> 20) & 0x1f;
			if (f7 == 0x00)
				return KSIM_POOL_K_SRLI;
			if (f7 == 0x20)
				return KSIM_POOL_K_SRAI;
			return KSIM_POOL_K_ILLEGAL;
		}
		return ksim_pool_op_i[f3];
	case 0x33:	/* OP */
		if (f7 == 0x00)
			return ksim_pool_op_r[f3];
		if (f7 == 0x01)
			return ksim_pool_op_m[f3];
		if (f7 == 0x20 && f3 == 0)
			return KSIM_POOL_K_SUB;
		if (f7 == 0x20 && f3 == 5)
			return KSIM_POOL_K_SRA;
		return KSIM_POOL_K_ILLEGAL;
	case 0x0f:	/* MISC-MEM */
		if (f3 == 0)
			return KSIM_POOL_K_FENCE;
		return f3 == 1 ? KSIM_POOL_K_NOP : KSIM_POOL_K_ILLEGAL;
	case 0x73:	/* SYSTEM */
		o->imm = w;
		if (f3 == 0) {
			if (w == 0x00000073u)
				return KSIM_POOL_K_ECALL;
			if (w == 0x00100073u)
				return KSIM_POOL_K_EBREAK;
			if (w == 0x10500073u)
				return KSIM_POOL_K_WFI;
			return KSIM_POOL_K_ILLEGAL;
		}
		if (f3 == 4)
			return KSIM_POOL_K_ILLEGAL;
		/* CSRRW/CSRRWI always write; the others with rs1/uimm != 0 */
		return ksim_pool_csr_kind(w >> 20, (f3 & 3) == 1 || rs1);
	case KH_PV_OPC_ALU:	/* the vector coprocessor (vec_decode.c) */
	case KH_PV_OPC_MEM:
	case KH_PV_OPC_MAC:
	case KH_PV_OPC_FP:
		return ksim_pool_vec_decode(w, o);
	default:
		return KSIM_POOL_K_ILLEGAL;
	}
}

void ksim_pool_decode(struct ksim_pool *p, u32 idx)
{
	struct ksim_pool_op *o = &p->dec[idx];
	u32 w = ksim_pool_rd32(p->iram + idx * 4);
	unsigned int rd = (w >> 7) & 0x1f;

	o->imm = 0;
	o->rd = rd ? rd : 32;
	o->rs1 = (w >> 15) & 0x1f;
	o->rs2 = (w >> 20) & 0x1f;
	o->k = ksim_pool_kind_of(w, idx * 4, o);
	if (o->k == KSIM_POOL_K_SLLI)
		o->imm &= 0x1f;
}
