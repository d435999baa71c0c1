/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kohaku-asm.h: RV32I encoders and a small assembler for the cpu unit's
 * programs (KohakuAccel's rv_pe, docs/spec/cpu.md; docs/runtime.md "The
 * cpu unit").
 *
 * Not a part of libkohaku's ABI: the functions are in libkohaku-asm.a, a
 * static library a program that assembles links ahead of libkohaku
 * (`cc app.c -lkohaku-asm -lkohaku`; kohaku.pc's Libs name both), so the
 * assembler's struct layout is compiled into that program and never
 * frozen into libkohaku.so.0.  kohaku_rv_asm_image() hands the program to
 * libkohaku's kohaku_cpu_data().
 */
#ifndef KOHAKU_ASM_H
#define KOHAKU_ASM_H

#include <stdint.h>

#include "kohaku.h"

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * RV32I encoders (the RISC-V unprivileged ISA; no M extension: the unit
 * faults on it).  Each returns the instruction word, and with an
 * assembler a (not NULL) also appends it there.  An operand that does not
 * fit (a register above 31, an immediate out of range, a branch or jump
 * offset not a multiple of 4: the core has no compressed instructions)
 * is never truncated: the encoder returns KOHAKU_RV_INVALID, and a records
 * its first such error with a message (and appends KOHAKU_RV_INVALID,
 * which keeps the later words' addresses).  Operands are in assembly
 * order: lw rd, imm(rs1) is kohaku_rv_lw(a, rd, rs1, imm); sw rs2, imm(rs1)
 * is kohaku_rv_sw(a, rs2, rs1, imm).  Immediates: I and S forms -2048..2047;
 * shifts 0..31; lui/auipc the upper 20 bits, 0..0xfffff; branch offsets
 * -4096..4092, jal -1048576..1048572, relative to the instruction.
 */
/* never an RV32I instruction (and an illegal one on the unit) */
#define KOHAKU_RV_INVALID	0u

/* the integer registers by ABI name */
enum kohaku_rv_reg {
	KOHAKU_RV_ZERO = 0, KOHAKU_RV_RA = 1, KOHAKU_RV_SP = 2,
	KOHAKU_RV_GP = 3, KOHAKU_RV_TP = 4,
	KOHAKU_RV_T0 = 5, KOHAKU_RV_T1 = 6, KOHAKU_RV_T2 = 7,
	KOHAKU_RV_S0 = 8, KOHAKU_RV_S1 = 9,
	KOHAKU_RV_A0 = 10, KOHAKU_RV_A1 = 11, KOHAKU_RV_A2 = 12,
	KOHAKU_RV_A3 = 13, KOHAKU_RV_A4 = 14, KOHAKU_RV_A5 = 15,
	KOHAKU_RV_A6 = 16, KOHAKU_RV_A7 = 17,
	KOHAKU_RV_S2 = 18, KOHAKU_RV_S3 = 19, KOHAKU_RV_S4 = 20,
	KOHAKU_RV_S5 = 21, KOHAKU_RV_S6 = 22, KOHAKU_RV_S7 = 23,
	KOHAKU_RV_S8 = 24, KOHAKU_RV_S9 = 25, KOHAKU_RV_S10 = 26,
	KOHAKU_RV_S11 = 27,
	KOHAKU_RV_T3 = 28, KOHAKU_RV_T4 = 29, KOHAKU_RV_T5 = 30,
	KOHAKU_RV_T6 = 31,
};

/* labels and fixups one assembler holds */
#define KOHAKU_RV_ASM_LABELS	32
#define KOHAKU_RV_ASM_FIXUPS	64

/*
 * A small assembler: words appended to the caller's buffer, labels for
 * branches and jumps (forward ones patched when the label is bound), and
 * the first error with a message.  Set up with kohaku_rv_asm_init(); the
 * fields are the library's, readable (n: words appended so far).
 */
struct kohaku_rv_asm {
	uint32_t *words;	/* the caller's buffer */
	uint32_t cap;		/* its size in words */
	uint32_t n;		/* words appended (counted on past cap) */
	uint32_t origin;	/* byte address of words[0] in the window */
	int err;		/* the first error (negative errno), 0 none */
	char msg[160];		/* ... in words */
	uint32_t n_labels;
	int32_t label_at[KOHAKU_RV_ASM_LABELS];	/* word index; -1 unbound */
	uint32_t n_fixups;
	struct {
		uint32_t at;	/* the branch's word index */
		uint32_t label;
	} fixup[KOHAKU_RV_ASM_FIXUPS];
};

/* the conditions of kohaku_rv_asm_branch(): beq, bne, blt, bge, bltu, bgeu */
enum kohaku_rv_cond {
	KOHAKU_RV_EQ, KOHAKU_RV_NE, KOHAKU_RV_LT, KOHAKU_RV_GE,
	KOHAKU_RV_LTU, KOHAKU_RV_GEU,
};

/*
 * Start an assembler over words[0..cap) to be loaded at byte address
 * origin of the instruction window.  Returns 0, or -EINVAL for a NULL a,
 * a NULL words with cap > 0, or an origin not granule aligned (32 bytes:
 * the image is loaded by granules) or past the window.  Each error but
 * the first is also recorded in a, so kohaku_rv_asm_finish() and
 * kohaku_rv_asm_image() of a program built on it fail too.
 */
int kohaku_rv_asm_init(struct kohaku_rv_asm *a, uint32_t *words,
		       uint32_t cap, uint32_t origin);
/* The byte address the next word will have. */
uint32_t kohaku_rv_asm_pc(const struct kohaku_rv_asm *a);
/* Append any word (data, or an encoding the encoders do not make). */
void kohaku_rv_asm_word(struct kohaku_rv_asm *a, uint32_t word);
/*
 * A new label, not yet bound: its id, or -ENOSPC (recorded) past
 * KOHAKU_RV_ASM_LABELS.
 */
int kohaku_rv_asm_label(struct kohaku_rv_asm *a);
/*
 * Bind label to the next word's address and patch the branches waiting
 * for it; a label bound twice, an unknown one, or a patched offset out of
 * range is a's error.
 */
void kohaku_rv_asm_bind(struct kohaku_rv_asm *a, int label);
/*
 * A conditional branch (rs1 cond rs2) or a jal (rd = return address) to
 * label, bound or not.  Errors (recorded): a bad register or condition,
 * an offset out of range, more than KOHAKU_RV_ASM_FIXUPS forward branches
 * waiting.
 */
void kohaku_rv_asm_branch(struct kohaku_rv_asm *a, enum kohaku_rv_cond cond,
			  unsigned int rs1, unsigned int rs2, int label);
void kohaku_rv_asm_jal(struct kohaku_rv_asm *a, unsigned int rd, int label);
/* rd = value, any 32-bit constant: addi, lui, or lui and addi */
void kohaku_rv_asm_li(struct kohaku_rv_asm *a, unsigned int rd,
		      uint32_t value);
/*
 * Done: 0, or the first error (a label used and never bound is one;
 * -ENOSPC when the words did not fit cap, a->n saying how many there
 * are).  The message is kohaku_rv_asm_error().
 */
int kohaku_rv_asm_finish(struct kohaku_rv_asm *a);
/* The first error in words ("" when none). */
const char *kohaku_rv_asm_error(const struct kohaku_rv_asm *a);
/*
 * The program as a job's data entry: kohaku_cpu_data() of buffer
 * KH_CPU_BUF_IMEM at the origin's granule, the last granule padded with
 * KOHAKU_RV_INVALID words in the caller's buffer.  Refuses a's error if
 * it has one (kohaku_rv_asm_finish()), -ENOSPC when the padding does not
 * fit cap, -EINVAL for an empty program or one past the window.
 */
int kohaku_rv_asm_image(struct kohaku_rv_asm *a, struct kohaku_data *d);

/* U and J forms */
uint32_t kohaku_rv_lui(struct kohaku_rv_asm *a, unsigned int rd, uint32_t imm20);
uint32_t kohaku_rv_auipc(struct kohaku_rv_asm *a, unsigned int rd,
			 uint32_t imm20);
uint32_t kohaku_rv_jal(struct kohaku_rv_asm *a, unsigned int rd, int32_t off);
uint32_t kohaku_rv_jalr(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, int32_t imm);
/* branches: to pc + off when rs1 (cond) rs2 */
uint32_t kohaku_rv_beq(struct kohaku_rv_asm *a, unsigned int rs1,
		       unsigned int rs2, int32_t off);
uint32_t kohaku_rv_bne(struct kohaku_rv_asm *a, unsigned int rs1,
		       unsigned int rs2, int32_t off);
uint32_t kohaku_rv_blt(struct kohaku_rv_asm *a, unsigned int rs1,
		       unsigned int rs2, int32_t off);
uint32_t kohaku_rv_bge(struct kohaku_rv_asm *a, unsigned int rs1,
		       unsigned int rs2, int32_t off);
uint32_t kohaku_rv_bltu(struct kohaku_rv_asm *a, unsigned int rs1,
			unsigned int rs2, int32_t off);
uint32_t kohaku_rv_bgeu(struct kohaku_rv_asm *a, unsigned int rs1,
			unsigned int rs2, int32_t off);
/* loads: rd = memory at rs1 + imm */
uint32_t kohaku_rv_lb(struct kohaku_rv_asm *a, unsigned int rd,
		      unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_lh(struct kohaku_rv_asm *a, unsigned int rd,
		      unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_lw(struct kohaku_rv_asm *a, unsigned int rd,
		      unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_lbu(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_lhu(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, int32_t imm);
/* stores: memory at rs1 + imm = rs2 */
uint32_t kohaku_rv_sb(struct kohaku_rv_asm *a, unsigned int rs2,
		      unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_sh(struct kohaku_rv_asm *a, unsigned int rs2,
		      unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_sw(struct kohaku_rv_asm *a, unsigned int rs2,
		      unsigned int rs1, int32_t imm);
/* register-immediate */
uint32_t kohaku_rv_addi(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_slti(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_sltiu(struct kohaku_rv_asm *a, unsigned int rd,
			 unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_xori(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_ori(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_andi(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, int32_t imm);
uint32_t kohaku_rv_slli(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, unsigned int shamt);
uint32_t kohaku_rv_srli(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, unsigned int shamt);
uint32_t kohaku_rv_srai(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, unsigned int shamt);
/* register-register */
uint32_t kohaku_rv_add(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_sub(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_sll(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_slt(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_sltu(struct kohaku_rv_asm *a, unsigned int rd,
			unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_xor(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_srl(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_sra(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_or(struct kohaku_rv_asm *a, unsigned int rd,
		      unsigned int rs1, unsigned int rs2);
uint32_t kohaku_rv_and(struct kohaku_rv_asm *a, unsigned int rd,
		       unsigned int rs1, unsigned int rs2);
/*
 * fence pred, succ: each a 4-bit set of I, O, R, W (8, 4, 2, 1); "fence"
 * alone is (15, 15).  The unit runs every MISC-MEM word as a no-op.
 */
uint32_t kohaku_rv_fence(struct kohaku_rv_asm *a, unsigned int pred,
			 unsigned int succ);
/* the halts: ECALL (exec_result a0) and EBREAK (a0, SIG_FAULT) */
uint32_t kohaku_rv_ecall(struct kohaku_rv_asm *a);
uint32_t kohaku_rv_ebreak(struct kohaku_rv_asm *a);

#if defined(__cplusplus)
}
#endif

#endif /* KOHAKU_ASM_H */
