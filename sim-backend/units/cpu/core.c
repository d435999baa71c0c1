// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit's core: decode (rv_id.v) and execute (rv_ex.v) of RV32I as
 * rv_pe has it, one instruction in EX per cycle at most, and the cycles
 * the six-stage pipeline (IF1 IF2 ID EX MEM WB, rv_core.v:4-17) spends:
 *
 *   kick           the first instruction is in EX four cycles after the
 *                  kick is accepted (cpu.c)
 *   load use       with FWD_X 1 only a load stalls a consumer: it is in EX
 *                  two cycles after the load's MEM cycle at the earliest
 *                  (two bubbles at distance 1, one at distance 2;
 *                  rv_core.v:178-199), by rs1/rs2 as decode marks them used
 *   MEM stall      the instruction behind a stalled MEM issues in the
 *                  cycle MEM completes (mem.c)
 *   redirect       a wrong prediction, of a branch, a jump or any other
 *                  instruction the predictor called taken, costs three
 *                  cycles (rv_if.v:15-18, rv_ex.v:145-163); see btb.c
 *
 * Legal encodings are exactly rv_id.v:173-240: RV32I without FENCE.I or
 * CSRs; MISC-MEM is a no-op whatever its fields; SYSTEM is ECALL and
 * EBREAK only (instr[31:21] and instr[19:7] zero, instr[20] picks);
 * SLLI, SRLI, SRAI, SUB, SRA with their funct7 as the spec has it.  The
 * M extension (OP with funct7 1), custom-0/1 (the DSP extension, absent
 * in this build) and every other major opcode are illegal instructions.
 *
 * A halt (ECALL, EBREAK, or a fault: illegal instruction, misaligned
 * half/word access, unmapped region, load from the peer window, the DSP
 * region 0x4xxx_xxxx) is decided in EX: the core stops fetching, the
 * halting instruction still retires without writing a register or memory
 * (rv_ex.v:148-205).  Fetch takes the word at (pc >> 2) mod 2048: a PC
 * outside the window, or with bit 1 set by a branch, aliases rather than
 * faults (rv_if.v:77, 132-139); JALR clears bit 0.
 */
#include "cpu.h"
#include "rv32i.h"

/* The region of a data address (rv_mem.v:130-142), or M_NONE: unmapped. */
static u8 ksim_cpu_region(u32 a, bool load)
{
	if (a & 0x80000000u)
		return KSIM_CPU_M_DRAM;
	switch ((a >> 28) & 7) {
	case 1:
		return KSIM_CPU_M_SPAD;
	case 2:
		return KSIM_CPU_M_CTL;
	case 3:
		/* push only */
		return load ? KSIM_CPU_M_NONE : KSIM_CPU_M_PEER;
	default:
		/* 4 is the DSP build's vector scratchpad: unmapped here */
		return KSIM_CPU_M_NONE;
	}
}

void ksim_cpu_halt(struct ksim_cpu *s, u64 now, unsigned int cause)
{
	s->run = false;
	s->halted = true;
	s->cause = cause;
	s->halt_at = now;
	s->cyc_final = (u32)(now + 1 - s->boot);
	if (cause == KH_CPU_CAUSE_FAULT)
		s->halt_pc = s->pc;
	/* the halting instruction goes on to WB, writing nothing */
	ksim_cpu_wb(s, now + 2);
}

/* OP-IMM's operation, or false for an illegal shift encoding. */
static bool ksim_cpu_opimm(u32 w, enum ksim_rv32_alu_op *op)
{
	static const u8 ops[8] = {
		KSIM_RV32_ADD, KSIM_RV32_SLL, KSIM_RV32_SLT, KSIM_RV32_SLTU,
		KSIM_RV32_XOR, KSIM_RV32_SRL, KSIM_RV32_OR, KSIM_RV32_AND,
	};
	unsigned int f3 = ksim_rv32_f3(w), f7 = ksim_rv32_f7(w);

	*op = ops[f3];
	if (f3 == 1)
		return f7 == 0;
	if (f3 == 5) {
		if (f7 & 0x20)
			*op = KSIM_RV32_SRA;
		return f7 == 0 || f7 == 0x20;
	}
	return true;
}

/* OP's operation, or false: funct7 other than 0, or 0x20 on ADD/SRL. */
static bool ksim_cpu_op(u32 w, enum ksim_rv32_alu_op *op)
{
	static const u8 ops[8] = {
		KSIM_RV32_ADD, KSIM_RV32_SLL, KSIM_RV32_SLT, KSIM_RV32_SLTU,
		KSIM_RV32_XOR, KSIM_RV32_SRL, KSIM_RV32_OR, KSIM_RV32_AND,
	};
	unsigned int f3 = ksim_rv32_f3(w), f7 = ksim_rv32_f7(w);

	*op = ops[f3];
	if (f7 == 0)
		return true;
	if (f7 != 0x20 || (f3 != 0 && f3 != 5))
		return false;
	*op = f3 ? KSIM_RV32_SRA : KSIM_RV32_SUB;
	return true;
}

/* Byte enables and store data of a store of funct3 f3 at a (rv_ex.v:172-180). */
static void ksim_cpu_store_lanes(struct ksim_cpu_mem *m, u32 a, u32 v)
{
	switch (m->f3 & 3) {
	case 0:
		m->be = 1u << (a & 3);
		m->sdata = (v & 0xff) * 0x01010101u;
		break;
	case 1:
		m->be = (a & 2) ? 0xc : 0x3;
		m->sdata = (v & 0xffff) * 0x00010001u;
		break;
	default:
		m->be = 0xf;
		m->sdata = v;
		break;
	}
}

/* The load or store of w at pc; false: it faults. */
static bool ksim_cpu_ldst(struct ksim_cpu *s, u32 w, bool load, u64 now)
{
	struct ksim_cpu_mem *m = &s->mem;
	unsigned int f3 = ksim_rv32_f3(w);
	u32 a = s->x[ksim_rv32_rs1(w)] +
		(load ? ksim_rv32_imm_i(w) : ksim_rv32_imm_s(w));
	u8 kind;

	if (load ? (f3 == 3 || f3 == 6 || f3 == 7) : (f3 > 2))
		return false;
	if (((f3 & 3) == 1 && (a & 1)) || ((f3 & 3) == 2 && (a & 3)))
		return false;
	kind = ksim_cpu_region(a, load);
	if (kind == KSIM_CPU_M_NONE)
		return false;
	m->kind = kind;
	m->store = !load;
	m->f3 = f3;
	m->addr = a;
	m->at = now + 1;
	m->rd = load ? ksim_rv32_rd(w) : 0;
	if (load && m->rd)
		s->ready[m->rd] = KSIM_CPU_NEVER;
	if (!load)
		ksim_cpu_store_lanes(m, a, s->x[ksim_rv32_rs2(w)]);
	return true;
}

/* rs1 / rs2 as decode marks them read (rv_id.v:173-240). */
static void ksim_cpu_uses(u32 w, bool *use1, bool *use2)
{
	switch (ksim_rv32_opc(w)) {
	case KSIM_RV_BRANCH:
	case KSIM_RV_STORE:
	case KSIM_RV_OP:
		*use1 = *use2 = true;
		break;
	case KSIM_RV_JALR:
	case KSIM_RV_LOAD:
	case KSIM_RV_OPIMM:
		*use1 = true;
		*use2 = false;
		break;
	default:
		*use1 = *use2 = false;
		break;
	}
}

/* The instruction in EX in cycle now, if one may issue.  True if it did. */
bool ksim_cpu_ex(struct ksim_unit *u, struct ksim_cpu *s, u64 now)
{
	u32 w, pc = s->pc, res = 0, target = 0, ptarget;
	unsigned int rd;
	bool use1, use2, wen = false, ctl = false, taken = false, jump = false;
	bool pred, ok = true;
	enum ksim_rv32_alu_op op;
	u64 t;

	(void)u;
	if (!s->run || s->mem.kind != KSIM_CPU_M_NONE || now < s->t_next)
		return false;
	w = s->imem[(pc >> 2) & (KH_CPU_IMEM_WORDS - 1)];
	rd = ksim_rv32_rd(w);
	ksim_cpu_uses(w, &use1, &use2);
	t = s->t_next;
	if (use1 && s->ready[ksim_rv32_rs1(w)] > t)
		t = s->ready[ksim_rv32_rs1(w)];
	if (use2 && s->ready[ksim_rv32_rs2(w)] > t)
		t = s->ready[ksim_rv32_rs2(w)];
	if (t > now)
		return false;	/* a load-use bubble */

	switch (ksim_rv32_opc(w)) {
	case KSIM_RV_LUI:
		res = ksim_rv32_imm_u(w);
		wen = true;
		break;
	case KSIM_RV_AUIPC:
		res = pc + ksim_rv32_imm_u(w);
		wen = true;
		break;
	case KSIM_RV_JAL:
		target = pc + ksim_rv32_imm_j(w);
		res = pc + 4;
		wen = ctl = taken = jump = true;
		break;
	case KSIM_RV_JALR:
		ok = ksim_rv32_f3(w) == 0;
		target = (s->x[ksim_rv32_rs1(w)] + ksim_rv32_imm_i(w)) & ~1u;
		res = pc + 4;
		wen = ctl = taken = jump = true;
		break;
	case KSIM_RV_BRANCH:
		ok = ksim_rv32_f3(w) != 2 && ksim_rv32_f3(w) != 3;
		target = pc + ksim_rv32_imm_b(w);
		taken = ksim_rv32_branch(ksim_rv32_f3(w),
					 s->x[ksim_rv32_rs1(w)],
					 s->x[ksim_rv32_rs2(w)]);
		ctl = true;
		break;
	case KSIM_RV_LOAD:
	case KSIM_RV_STORE:
		ok = ksim_cpu_ldst(s, w, ksim_rv32_opc(w) == KSIM_RV_LOAD, now);
		break;
	case KSIM_RV_OPIMM:
		ok = ksim_cpu_opimm(w, &op);
		res = ksim_rv32_alu(op, s->x[ksim_rv32_rs1(w)],
				    ksim_rv32_imm_i(w));
		wen = true;
		break;
	case KSIM_RV_OP:
		ok = ksim_cpu_op(w, &op);
		res = ksim_rv32_alu(op, s->x[ksim_rv32_rs1(w)],
				    s->x[ksim_rv32_rs2(w)]);
		wen = true;
		break;
	case KSIM_RV_MISC:
		/* FENCE is a no-op: one core, one memory port, in order */
		break;
	case KSIM_RV_SYSTEM:
		if ((w >> 21) || ((w >> 7) & 0x1fff)) {
			ok = false;
			break;
		}
		ksim_cpu_halt(s, now, (w >> 20) & 1 ? KH_CPU_CAUSE_EBREAK :
						     KH_CPU_CAUSE_ECALL);
		return true;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		ksim_cpu_halt(s, now, KH_CPU_CAUSE_FAULT);
		return true;
	}

	if (wen && rd) {
		s->x[rd] = res;
		s->ready[rd] = 0;
	}
	if (s->mem.kind == KSIM_CPU_M_NONE)
		ksim_cpu_wb(s, now + 2);

	/* resolve against what the predictor said when this was fetched */
	pred = ksim_cpu_btb_predict(s, pc, s->t_look - 3, &ptarget);
	if (ctl)
		ksim_cpu_btb_resolve(s, pc, taken, jump, target, now);
	s->pc = taken ? target : pc + 4;
	if (pred != taken || (taken && ptarget != (target & ~1u))) {
		s->mispredicts++;
		s->t_next = now + 4;
	} else {
		s->t_next = now + 1;
	}
	s->t_look = s->t_next;
	return true;
}
