// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The RV32I encoders and the small assembler for the cpu unit's programs
 * (kohaku-asm.h, docs/spec/cpu.md).  Not a part of libkohaku.so: built
 * into libkohaku-asm.a, which a program that assembles links (the kohaku
 * CLI, the runtime tests) ahead of libkohaku.
 *
 * Every encoder checks its operands first: one that does not fit is never
 * truncated into a different instruction.  The encoder returns
 * KOHAKU_RV_INVALID (0: no RV32I instruction has its two low bits clear,
 * and the unit faults on it), and an assembler given to it records the
 * first such error with a message and appends the invalid word, so every
 * later word keeps its address and a label its target.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kohaku-asm.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_cpu.h"

/* RV32I major opcodes, instr[6:0] (the unprivileged ISA's table 70) */
#define RV_LUI		0x37
#define RV_AUIPC	0x17
#define RV_JAL		0x6f
#define RV_JALR		0x67
#define RV_BRANCH	0x63
#define RV_LOAD		0x03
#define RV_STORE	0x23
#define RV_OPIMM	0x13
#define RV_OP		0x33
#define RV_MISC_MEM	0x0f
#define RV_SYSTEM	0x73

/* funct7 of SUB and SRA (and of SRAI's imm[11:5]) */
#define RV_F7_ALT	0x20
/* the two SYSTEM words rv_pe halts on (imm 0 and 1, everything else 0) */
#define RV_ECALL_WORD	0x00000073u
#define RV_EBREAK_WORD	0x00100073u

#define RV_NREGS	32
#define IMM12_MIN	(-2048)
#define IMM12_MAX	2047
#define BOFF_MIN	(-4096)
#define BOFF_MAX	4092	/* 4094 encodes, but the core has no RVC */
#define JOFF_MIN	(-1048576)
#define JOFF_MAX	1048572
#define IMM20_MAX	0xfffffu

#define WINDOW_BYTES	(KH_CPU_IMEM_WORDS * 4u)
#define GRANULE_BYTES	KH_CPU_GRANULE_BYTES

/* ---- the assembler's bookkeeping ---- */

static uint32_t rv_pc_of(const struct kohaku_rv_asm *a, uint32_t at)
{
	return a->origin + at * 4u;
}

uint32_t kohaku_rv_asm_pc(const struct kohaku_rv_asm *a)
{
	return a ? rv_pc_of(a, a->n) : 0;
}

/* record err as a's first error, the message prefixed with the pc */
__attribute__((format(printf, 3, 4)))
static void rv_fail(struct kohaku_rv_asm *a, int err, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (!a || a->err)
		return;
	a->err = err;
	k = snprintf(a->msg, sizeof(a->msg), "pc 0x%x: ", kohaku_rv_asm_pc(a));
	if (k < 0 || (size_t)k >= sizeof(a->msg))
		return;
	va_start(ap, fmt);
	vsnprintf(a->msg + k, sizeof(a->msg) - (size_t)k, fmt, ap);
	va_end(ap);
}

void kohaku_rv_asm_word(struct kohaku_rv_asm *a, uint32_t word)
{
	if (!a)
		return;
	if (a->n < a->cap)
		a->words[a->n] = word;
	else if (a->n == a->cap)
		rv_fail(a, -ENOSPC, "the program does not fit its %u words",
			a->cap);
	/* counted on past cap, so the message can say how many it needs */
	a->n++;
}

int kohaku_rv_asm_init(struct kohaku_rv_asm *a, uint32_t *words,
				    uint32_t cap, uint32_t origin)
{
	unsigned int i;

	if (!a)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->words = words;
	a->cap = words ? cap : 0;
	a->origin = origin;
	for (i = 0; i < KOHAKU_RV_ASM_LABELS; i++)
		a->label_at[i] = -1;
	if (!words && cap)
		rv_fail(a, -EINVAL, "no buffer for %u words", cap);
	else if (origin % GRANULE_BYTES || origin >= WINDOW_BYTES)
		rv_fail(a, -EINVAL, "origin 0x%x is not a granule (%u bytes) of "
			"the %u-byte window", origin, GRANULE_BYTES,
			WINDOW_BYTES);
	return a->err;
}

/* the word, or the invalid one when a check failed (already recorded) */
static uint32_t rv_emit(struct kohaku_rv_asm *a, uint32_t w)
{
	kohaku_rv_asm_word(a, w);
	return w;
}

static uint32_t rv_bad(struct kohaku_rv_asm *a, int err, const char *what,
		       long long v, const char *range)
{
	rv_fail(a, err, "%s %lld is outside %s", what, v, range);
	return rv_emit(a, KOHAKU_RV_INVALID);
}

/* 1 when every register exists; else 0, with the error recorded */
static int rv_regs_ok(struct kohaku_rv_asm *a, const char *name,
		      unsigned int r1, unsigned int r2, unsigned int r3)
{
	unsigned int r = r1 >= RV_NREGS ? r1 : r2 >= RV_NREGS ? r2 : r3;

	if (r < RV_NREGS)
		return 1;
	rv_fail(a, -EINVAL, "%s: register x%u does not exist (x0..x31)",
		name, r);
	return 0;
}

/* ---- the six forms, checked ---- */

static uint32_t rv_r(struct kohaku_rv_asm *a, const char *name,
		     unsigned int f7, unsigned int f3, unsigned int rd,
		     unsigned int rs1, unsigned int rs2)
{
	if (!rv_regs_ok(a, name, rd, rs1, rs2))
		return rv_emit(a, KOHAKU_RV_INVALID);
	return rv_emit(a, (uint32_t)f7 << 25 | rs2 << 20 | rs1 << 15 |
			  f3 << 12 | rd << 7 | RV_OP);
}

static uint32_t rv_i(struct kohaku_rv_asm *a, const char *name,
		     unsigned int opc, unsigned int f3, unsigned int rd,
		     unsigned int rs1, int32_t imm)
{
	char what[32];

	if (!rv_regs_ok(a, name, rd, rs1, 0))
		return rv_emit(a, KOHAKU_RV_INVALID);
	if (imm < IMM12_MIN || imm > IMM12_MAX) {
		snprintf(what, sizeof(what), "%s: immediate", name);
		return rv_bad(a, -EINVAL, what, imm, "-2048..2047");
	}
	return rv_emit(a, ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 |
			  f3 << 12 | rd << 7 | opc);
}

static uint32_t rv_s(struct kohaku_rv_asm *a, const char *name,
		     unsigned int f3, unsigned int rs2, unsigned int rs1,
		     int32_t imm)
{
	uint32_t u = (uint32_t)imm;
	char what[32];

	if (!rv_regs_ok(a, name, rs2, rs1, 0))
		return rv_emit(a, KOHAKU_RV_INVALID);
	if (imm < IMM12_MIN || imm > IMM12_MAX) {
		snprintf(what, sizeof(what), "%s: offset", name);
		return rv_bad(a, -EINVAL, what, imm, "-2048..2047");
	}
	return rv_emit(a, ((u >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 |
			  f3 << 12 | (u & 0x1f) << 7 | RV_STORE);
}

/* the B form's immediate bits of a (checked) offset */
static uint32_t rv_b_imm(int32_t off)
{
	uint32_t u = (uint32_t)off;

	return ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3f) << 25 |
	       ((u >> 1) & 0xf) << 8 | ((u >> 11) & 1) << 7;
}

/* the J form's immediate bits of a (checked) offset */
static uint32_t rv_j_imm(int32_t off)
{
	uint32_t u = (uint32_t)off;

	return ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3ff) << 21 |
	       ((u >> 11) & 1) << 20 | ((u >> 12) & 0xff) << 12;
}

/* an offset's fault, NULL when it fits [lo, hi] and is word aligned */
static const char *rv_off_fault(int32_t off, int32_t lo, int32_t hi)
{
	if (off < lo || off > hi)
		return "out of range";
	if (off % 4)
		return "not a multiple of 4 (the core has no compressed "
		       "instructions)";
	return NULL;
}

static uint32_t rv_b(struct kohaku_rv_asm *a, const char *name,
		     unsigned int f3, unsigned int rs1, unsigned int rs2,
		     int32_t off)
{
	const char *why = rv_off_fault(off, BOFF_MIN, BOFF_MAX);

	if (!rv_regs_ok(a, name, rs1, rs2, 0))
		return rv_emit(a, KOHAKU_RV_INVALID);
	if (why) {
		rv_fail(a, -EINVAL, "%s: offset %d is %s (-4096..4092)", name,
			off, why);
		return rv_emit(a, KOHAKU_RV_INVALID);
	}
	return rv_emit(a, rv_b_imm(off) | rs2 << 20 | rs1 << 15 | f3 << 12 |
			  RV_BRANCH);
}

static uint32_t rv_u(struct kohaku_rv_asm *a, const char *name,
		     unsigned int opc, unsigned int rd, uint32_t imm20)
{
	char what[32];

	if (!rv_regs_ok(a, name, rd, 0, 0))
		return rv_emit(a, KOHAKU_RV_INVALID);
	if (imm20 > IMM20_MAX) {
		snprintf(what, sizeof(what), "%s: immediate", name);
		return rv_bad(a, -EINVAL, what, imm20, "0..0xfffff");
	}
	return rv_emit(a, imm20 << 12 | rd << 7 | opc);
}

static uint32_t rv_shift(struct kohaku_rv_asm *a, const char *name,
			 unsigned int f7, unsigned int f3, unsigned int rd,
			 unsigned int rs1, unsigned int shamt)
{
	char what[32];

	if (!rv_regs_ok(a, name, rd, rs1, 0))
		return rv_emit(a, KOHAKU_RV_INVALID);
	if (shamt > 31) {
		snprintf(what, sizeof(what), "%s: shift", name);
		return rv_bad(a, -EINVAL, what, shamt, "0..31");
	}
	return rv_emit(a, (uint32_t)f7 << 25 | shamt << 20 | rs1 << 15 |
			  f3 << 12 | rd << 7 | RV_OPIMM);
}

/* ---- one encoder per RV32I instruction ---- */

uint32_t kohaku_rv_lui(struct kohaku_rv_asm *a, unsigned int rd,
				    uint32_t imm20)
{
	return rv_u(a, "lui", RV_LUI, rd, imm20);
}

uint32_t kohaku_rv_auipc(struct kohaku_rv_asm *a,
				      unsigned int rd, uint32_t imm20)
{
	return rv_u(a, "auipc", RV_AUIPC, rd, imm20);
}

uint32_t kohaku_rv_jal(struct kohaku_rv_asm *a, unsigned int rd,
				    int32_t off)
{
	const char *why = rv_off_fault(off, JOFF_MIN, JOFF_MAX);

	if (!rv_regs_ok(a, "jal", rd, 0, 0))
		return rv_emit(a, KOHAKU_RV_INVALID);
	if (why) {
		rv_fail(a, -EINVAL, "jal: offset %d is %s (-1048576..1048572)",
			off, why);
		return rv_emit(a, KOHAKU_RV_INVALID);
	}
	return rv_emit(a, rv_j_imm(off) | rd << 7 | RV_JAL);
}

uint32_t kohaku_rv_jalr(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, int32_t imm)
{
	return rv_i(a, "jalr", RV_JALR, 0, rd, rs1, imm);
}

uint32_t kohaku_rv_beq(struct kohaku_rv_asm *a, unsigned int rs1,
				    unsigned int rs2, int32_t off)
{
	return rv_b(a, "beq", 0, rs1, rs2, off);
}

uint32_t kohaku_rv_bne(struct kohaku_rv_asm *a, unsigned int rs1,
				    unsigned int rs2, int32_t off)
{
	return rv_b(a, "bne", 1, rs1, rs2, off);
}

uint32_t kohaku_rv_blt(struct kohaku_rv_asm *a, unsigned int rs1,
				    unsigned int rs2, int32_t off)
{
	return rv_b(a, "blt", 4, rs1, rs2, off);
}

uint32_t kohaku_rv_bge(struct kohaku_rv_asm *a, unsigned int rs1,
				    unsigned int rs2, int32_t off)
{
	return rv_b(a, "bge", 5, rs1, rs2, off);
}

uint32_t kohaku_rv_bltu(struct kohaku_rv_asm *a,
				     unsigned int rs1, unsigned int rs2,
				     int32_t off)
{
	return rv_b(a, "bltu", 6, rs1, rs2, off);
}

uint32_t kohaku_rv_bgeu(struct kohaku_rv_asm *a,
				     unsigned int rs1, unsigned int rs2,
				     int32_t off)
{
	return rv_b(a, "bgeu", 7, rs1, rs2, off);
}

uint32_t kohaku_rv_lb(struct kohaku_rv_asm *a, unsigned int rd,
				   unsigned int rs1, int32_t imm)
{
	return rv_i(a, "lb", RV_LOAD, 0, rd, rs1, imm);
}

uint32_t kohaku_rv_lh(struct kohaku_rv_asm *a, unsigned int rd,
				   unsigned int rs1, int32_t imm)
{
	return rv_i(a, "lh", RV_LOAD, 1, rd, rs1, imm);
}

uint32_t kohaku_rv_lw(struct kohaku_rv_asm *a, unsigned int rd,
				   unsigned int rs1, int32_t imm)
{
	return rv_i(a, "lw", RV_LOAD, 2, rd, rs1, imm);
}

uint32_t kohaku_rv_lbu(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, int32_t imm)
{
	return rv_i(a, "lbu", RV_LOAD, 4, rd, rs1, imm);
}

uint32_t kohaku_rv_lhu(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, int32_t imm)
{
	return rv_i(a, "lhu", RV_LOAD, 5, rd, rs1, imm);
}

uint32_t kohaku_rv_sb(struct kohaku_rv_asm *a, unsigned int rs2,
				   unsigned int rs1, int32_t imm)
{
	return rv_s(a, "sb", 0, rs2, rs1, imm);
}

uint32_t kohaku_rv_sh(struct kohaku_rv_asm *a, unsigned int rs2,
				   unsigned int rs1, int32_t imm)
{
	return rv_s(a, "sh", 1, rs2, rs1, imm);
}

uint32_t kohaku_rv_sw(struct kohaku_rv_asm *a, unsigned int rs2,
				   unsigned int rs1, int32_t imm)
{
	return rv_s(a, "sw", 2, rs2, rs1, imm);
}

uint32_t kohaku_rv_addi(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, int32_t imm)
{
	return rv_i(a, "addi", RV_OPIMM, 0, rd, rs1, imm);
}

uint32_t kohaku_rv_slti(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, int32_t imm)
{
	return rv_i(a, "slti", RV_OPIMM, 2, rd, rs1, imm);
}

uint32_t kohaku_rv_sltiu(struct kohaku_rv_asm *a,
				      unsigned int rd, unsigned int rs1,
				      int32_t imm)
{
	return rv_i(a, "sltiu", RV_OPIMM, 3, rd, rs1, imm);
}

uint32_t kohaku_rv_xori(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, int32_t imm)
{
	return rv_i(a, "xori", RV_OPIMM, 4, rd, rs1, imm);
}

uint32_t kohaku_rv_ori(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, int32_t imm)
{
	return rv_i(a, "ori", RV_OPIMM, 6, rd, rs1, imm);
}

uint32_t kohaku_rv_andi(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, int32_t imm)
{
	return rv_i(a, "andi", RV_OPIMM, 7, rd, rs1, imm);
}

uint32_t kohaku_rv_slli(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, unsigned int shamt)
{
	return rv_shift(a, "slli", 0, 1, rd, rs1, shamt);
}

uint32_t kohaku_rv_srli(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, unsigned int shamt)
{
	return rv_shift(a, "srli", 0, 5, rd, rs1, shamt);
}

uint32_t kohaku_rv_srai(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, unsigned int shamt)
{
	return rv_shift(a, "srai", RV_F7_ALT, 5, rd, rs1, shamt);
}

uint32_t kohaku_rv_add(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "add", 0, 0, rd, rs1, rs2);
}

uint32_t kohaku_rv_sub(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "sub", RV_F7_ALT, 0, rd, rs1, rs2);
}

uint32_t kohaku_rv_sll(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "sll", 0, 1, rd, rs1, rs2);
}

uint32_t kohaku_rv_slt(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "slt", 0, 2, rd, rs1, rs2);
}

uint32_t kohaku_rv_sltu(struct kohaku_rv_asm *a, unsigned int rd,
				     unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "sltu", 0, 3, rd, rs1, rs2);
}

uint32_t kohaku_rv_xor(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "xor", 0, 4, rd, rs1, rs2);
}

uint32_t kohaku_rv_srl(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "srl", 0, 5, rd, rs1, rs2);
}

uint32_t kohaku_rv_sra(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "sra", RV_F7_ALT, 5, rd, rs1, rs2);
}

uint32_t kohaku_rv_or(struct kohaku_rv_asm *a, unsigned int rd,
				   unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "or", 0, 6, rd, rs1, rs2);
}

uint32_t kohaku_rv_and(struct kohaku_rv_asm *a, unsigned int rd,
				    unsigned int rs1, unsigned int rs2)
{
	return rv_r(a, "and", 0, 7, rd, rs1, rs2);
}

uint32_t kohaku_rv_fence(struct kohaku_rv_asm *a,
				      unsigned int pred, unsigned int succ)
{
	if (pred > 15 || succ > 15) {
		rv_fail(a, -EINVAL, "fence: pred %u / succ %u: each is a set "
			"of I, O, R, W (0..15)", pred, succ);
		return rv_emit(a, KOHAKU_RV_INVALID);
	}
	return rv_emit(a, pred << 24 | succ << 20 | RV_MISC_MEM);
}

uint32_t kohaku_rv_ecall(struct kohaku_rv_asm *a)
{
	return rv_emit(a, RV_ECALL_WORD);
}

uint32_t kohaku_rv_ebreak(struct kohaku_rv_asm *a)
{
	return rv_emit(a, RV_EBREAK_WORD);
}

/* ---- labels ---- */

int kohaku_rv_asm_label(struct kohaku_rv_asm *a)
{
	if (!a)
		return -EINVAL;
	if (a->n_labels >= KOHAKU_RV_ASM_LABELS) {
		rv_fail(a, -ENOSPC, "more than %u labels",
			KOHAKU_RV_ASM_LABELS);
		return -ENOSPC;
	}
	a->label_at[a->n_labels] = -1;
	return (int)a->n_labels++;
}

static bool rv_label_ok(struct kohaku_rv_asm *a, int label)
{
	if (label >= 0 && (uint32_t)label < a->n_labels)
		return true;
	rv_fail(a, -EINVAL, "label %d was not made by kohaku_rv_asm_label()",
		label);
	return false;
}

/*
 * Put the offset from word at to word to into the branch or jal at at,
 * its placeholder holding everything but the offset.
 */
static void rv_patch(struct kohaku_rv_asm *a, uint32_t at, uint32_t to)
{
	int32_t off = (int32_t)(to - at) * 4;
	uint32_t w;
	bool jal;
	const char *why;

	if (at >= a->cap)
		return;		/* past the buffer: already an error */
	w = a->words[at];
	jal = (w & 0x7f) == RV_JAL;
	why = jal ? rv_off_fault(off, JOFF_MIN, JOFF_MAX) :
		    rv_off_fault(off, BOFF_MIN, BOFF_MAX);
	if (why) {
		rv_fail(a, -EINVAL, "the %s at pc 0x%x to pc 0x%x: offset %d "
			"is %s", jal ? "jal" : "branch", rv_pc_of(a, at),
			rv_pc_of(a, to), off, why);
		a->words[at] = KOHAKU_RV_INVALID;
		return;
	}
	a->words[at] = w | (jal ? rv_j_imm(off) : rv_b_imm(off));
}

void kohaku_rv_asm_bind(struct kohaku_rv_asm *a, int label)
{
	uint32_t i, k = 0;

	if (!a || !rv_label_ok(a, label))
		return;
	if (a->label_at[label] >= 0) {
		rv_fail(a, -EINVAL, "label %d bound twice (first at pc 0x%x)",
			label, rv_pc_of(a, (uint32_t)a->label_at[label]));
		return;
	}
	a->label_at[label] = (int32_t)a->n;
	/* patch the waiting branches, keep the others */
	for (i = 0; i < a->n_fixups; i++) {
		if (a->fixup[i].label == (uint32_t)label)
			rv_patch(a, a->fixup[i].at, a->n);
		else
			a->fixup[k++] = a->fixup[i];
	}
	a->n_fixups = k;
}

/*
 * The branch or jal w to label was just emitted with offset 0 (or the
 * invalid word, its error recorded): patch it now when the label is
 * bound, else when it is.
 */
static void rv_to_label(struct kohaku_rv_asm *a, uint32_t w, int label)
{
	uint32_t at = a->n - 1;

	if (w == KOHAKU_RV_INVALID)
		return;
	if (a->label_at[label] >= 0) {
		rv_patch(a, at, (uint32_t)a->label_at[label]);
		return;
	}
	if (a->n_fixups >= KOHAKU_RV_ASM_FIXUPS) {
		rv_fail(a, -ENOSPC, "more than %u forward branches waiting",
			KOHAKU_RV_ASM_FIXUPS);
		return;
	}
	a->fixup[a->n_fixups].at = at;
	a->fixup[a->n_fixups].label = (uint32_t)label;
	a->n_fixups++;
}

void kohaku_rv_asm_branch(struct kohaku_rv_asm *a,
				       enum kohaku_rv_cond cond,
				       unsigned int rs1, unsigned int rs2,
				       int label)
{
	static const struct { const char *name; unsigned int f3; } b[] = {
		[KOHAKU_RV_EQ] = { "beq", 0 }, [KOHAKU_RV_NE] = { "bne", 1 },
		[KOHAKU_RV_LT] = { "blt", 4 }, [KOHAKU_RV_GE] = { "bge", 5 },
		[KOHAKU_RV_LTU] = { "bltu", 6 }, [KOHAKU_RV_GEU] = { "bgeu", 7 },
	};

	if (!a)
		return;
	if ((unsigned int)cond >= sizeof(b) / sizeof(b[0])) {
		rv_fail(a, -EINVAL, "branch: condition %u is none of enum "
			"kohaku_rv_cond", (unsigned int)cond);
		rv_emit(a, KOHAKU_RV_INVALID);
		return;
	}
	if (!rv_label_ok(a, label)) {
		rv_emit(a, KOHAKU_RV_INVALID);
		return;
	}
	rv_to_label(a, rv_b(a, b[cond].name, b[cond].f3, rs1, rs2, 0), label);
}

void kohaku_rv_asm_jal(struct kohaku_rv_asm *a, unsigned int rd,
				    int label)
{
	if (!a)
		return;
	if (!rv_label_ok(a, label)) {
		rv_emit(a, KOHAKU_RV_INVALID);
		return;
	}
	rv_to_label(a, kohaku_rv_jal(a, rd, 0), label);
}

void kohaku_rv_asm_li(struct kohaku_rv_asm *a, unsigned int rd,
				   uint32_t value)
{
	/* addi sign-extends its 12 bits: lui takes the rest, rounded so
	 * that the two add up (0x...800 and up borrow one from lui) */
	uint32_t lo = value & 0xfff;
	int32_t slo = lo >= 0x800 ? (int32_t)lo - 0x1000 : (int32_t)lo;
	uint32_t hi = ((value - (uint32_t)slo) >> 12) & IMM20_MAX;

	if (!a)
		return;
	if (value <= IMM12_MAX || value >= (uint32_t)IMM12_MIN) {
		kohaku_rv_addi(a, rd, KOHAKU_RV_ZERO, slo);
		return;
	}
	kohaku_rv_lui(a, rd, hi);
	if (slo)
		kohaku_rv_addi(a, rd, rd, slo);
}

int kohaku_rv_asm_finish(struct kohaku_rv_asm *a)
{
	if (!a)
		return -EINVAL;
	if (a->n_fixups)
		rv_fail(a, -EINVAL, "label %u, which the branch at pc 0x%x "
			"jumps to, is never bound", a->fixup[0].label,
			rv_pc_of(a, a->fixup[0].at));
	return a->err;
}

const char *kohaku_rv_asm_error(const struct kohaku_rv_asm *a)
{
	return a && a->err ? a->msg : "";
}

int kohaku_rv_asm_image(struct kohaku_rv_asm *a,
				     struct kohaku_data *d)
{
	uint32_t n_pad, i;
	int r = kohaku_rv_asm_finish(a);

	if (r)
		return r;
	if (!d || !a->n)
		return -EINVAL;
	/* a job's data is whole granules: the rest of the last one is
	 * words the unit faults on, should a program run off its end */
	n_pad = (a->n + KH_CPU_GRANULE_WORDS - 1) / KH_CPU_GRANULE_WORDS *
		KH_CPU_GRANULE_WORDS;
	if (n_pad > a->cap) {
		rv_fail(a, -ENOSPC, "the image's last granule needs %u words, "
			"the buffer holds %u", n_pad, a->cap);
		return -ENOSPC;
	}
	for (i = a->n; i < n_pad; i++)
		a->words[i] = KOHAKU_RV_INVALID;
	return kohaku_cpu_data(d, KH_CPU_BUF_IMEM, a->origin / GRANULE_BYTES,
			       a->words, n_pad);
}
