/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the model's two RV32 interpreters share: the instruction word's
 * fields and immediates, and the RV32I integer ALU and branch conditions,
 * as the RISC-V unprivileged spec defines them.  The POOL cores
 * (units/pool/iss_decode.c) and the cpu unit (units/cpu/) both decode
 * through these; which encodings are legal, what a fault is and what time
 * an instruction takes are each unit's own (RV32IM+Zicsr there, rv_pe's
 * RV32I here), so they are not.
 *
 * All arithmetic is on u32: no shift of a negative value, no signed
 * overflow.
 */
#ifndef KSIM_RV32I_H
#define KSIM_RV32I_H

#include "ksim_plat.h"

/* Major opcodes (instr[6:0]). */
#define KSIM_RV_LUI	0x37
#define KSIM_RV_AUIPC	0x17
#define KSIM_RV_JAL	0x6f
#define KSIM_RV_JALR	0x67
#define KSIM_RV_BRANCH	0x63
#define KSIM_RV_LOAD	0x03
#define KSIM_RV_STORE	0x23
#define KSIM_RV_OPIMM	0x13
#define KSIM_RV_OP	0x33
#define KSIM_RV_MISC	0x0f
#define KSIM_RV_SYSTEM	0x73

/* The integer operations of OP / OP-IMM. */
enum ksim_rv32_alu_op {
	KSIM_RV32_ADD,
	KSIM_RV32_SUB,
	KSIM_RV32_SLL,
	KSIM_RV32_SLT,
	KSIM_RV32_SLTU,
	KSIM_RV32_XOR,
	KSIM_RV32_SRL,
	KSIM_RV32_SRA,
	KSIM_RV32_OR,
	KSIM_RV32_AND,
};

static inline unsigned int ksim_rv32_opc(u32 w)
{
	return w & 0x7f;
}

static inline unsigned int ksim_rv32_rd(u32 w)
{
	return (w >> 7) & 0x1f;
}

static inline unsigned int ksim_rv32_f3(u32 w)
{
	return (w >> 12) & 7;
}

static inline unsigned int ksim_rv32_rs1(u32 w)
{
	return (w >> 15) & 0x1f;
}

static inline unsigned int ksim_rv32_rs2(u32 w)
{
	return (w >> 20) & 0x1f;
}

static inline unsigned int ksim_rv32_f7(u32 w)
{
	return w >> 25;
}

/* v's low `bits` bits, sign-extended (in u32 arithmetic). */
static inline u32 ksim_rv32_sext(u32 v, unsigned int bits)
{
	u32 m = 1u << (bits - 1);

	return ((v & ((m << 1) - 1)) ^ m) - m;
}

static inline u32 ksim_rv32_imm_i(u32 w)
{
	return ksim_rv32_sext(w >> 20, 12);
}

static inline u32 ksim_rv32_imm_s(u32 w)
{
	return ksim_rv32_sext(((w >> 25) << 5) | ((w >> 7) & 0x1f), 12);
}

static inline u32 ksim_rv32_imm_b(u32 w)
{
	return ksim_rv32_sext(((w >> 31) << 12) | (((w >> 7) & 1) << 11) |
			      (((w >> 25) & 0x3f) << 5) |
			      (((w >> 8) & 0xf) << 1), 13);
}

static inline u32 ksim_rv32_imm_u(u32 w)
{
	return w & 0xfffff000u;
}

static inline u32 ksim_rv32_imm_j(u32 w)
{
	return ksim_rv32_sext(((w >> 31) << 20) | (w & 0xff000) |
			      (((w >> 20) & 1) << 11) |
			      (((w >> 21) & 0x3ff) << 1), 21);
}

/* a op b for the OP / OP-IMM operations; shifts by b[4:0]. */
static inline u32 ksim_rv32_alu(enum ksim_rv32_alu_op op, u32 a, u32 b)
{
	unsigned int sh = b & 0x1f;

	switch (op) {
	case KSIM_RV32_SUB:
		return a - b;
	case KSIM_RV32_SLL:
		return a << sh;
	case KSIM_RV32_SLT:
		return (a ^ 0x80000000u) < (b ^ 0x80000000u);
	case KSIM_RV32_SLTU:
		return a < b;
	case KSIM_RV32_XOR:
		return a ^ b;
	case KSIM_RV32_SRL:
		return a >> sh;
	case KSIM_RV32_SRA:
		return (a >> sh) | ((a & 0x80000000u) && sh ?
				    ~(0xffffffffu >> sh) : 0);
	case KSIM_RV32_OR:
		return a | b;
	case KSIM_RV32_AND:
		return a & b;
	default:
		return a + b;
	}
}

/* The BRANCH condition of funct3 f3 (2 and 3 are not branches: false). */
static inline bool ksim_rv32_branch(unsigned int f3, u32 a, u32 b)
{
	bool r;

	switch (f3 >> 1) {
	case 0:
		r = a == b;
		break;
	case 2:
		r = (a ^ 0x80000000u) < (b ^ 0x80000000u);
		break;
	case 3:
		r = a < b;
		break;
	default:
		return false;
	}
	return (f3 & 1) ? !r : r;
}

#endif /* KSIM_RV32I_H */
