// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit, KohakuAccel's rv_pe (docs/spec/cpu.md), through libkohaku:
 * the RV32I encoders against words the GNU assembler produced (checked
 * once by hand with riscv64-unknown-elf-as -march=rv32i and recorded
 * here: the test needs no assembler), their refusals, the assembler's
 * labels, li and errors, the kick and the address and data helpers; then
 * programs loaded by a job's data and kicked through SUBMIT on the cpu
 * units: a prefix sum checked against C with its ECALL result and CU_DBG
 * count, EBREAK and an illegal instruction (MUL) as job faults, a peer
 * push from one cpu into another's scratchpad, and several cpus in one
 * job; and the driver's L1 flush after every job (docs/spec/cpu.md "The
 * driver's L1 flush"): stores a program never flushed are in DRAM once
 * its job is DONE (its fault stays the job's), a clean line never serves
 * the next job what the host has overwritten, a dirty one never lands in
 * memory that changed hands, job data into the stub's granule is refused,
 * and a stub that does not retire is the job's TIMEOUT.
 *
 * The runtime tests' maps (KOHAKU_TEST_MAP) have no cpu unit: on sim each
 * device test makes its own card, the built-in cpu_2x1 (cpu units at
 * (1,0), (2,0), (3,1), (1,2)), unless KOHAKU_DEVICE names one; on the
 * kernel backend it uses the device under test and skips without cpu
 * units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "kohaku-asm.h"
#include "kohaku/kh_cpu.h"

#define MAX_CPU		16
#define A0		KOHAKU_RV_A0
#define ZERO		KOHAKU_RV_ZERO

/* ---- the encoders against the GNU assembler ---- */

struct enc_case {
	uint32_t got, want;
	const char *text;
};

#define E(expr, word, txt)	{ (expr), (word), (txt) }

TEST_F(rt, encoders_match_the_gnu_assembler)
{
	/*
	 * riscv64-unknown-elf-as -march=rv32i (binutils 2.43, .option
	 * norvc), objdump -M no-aliases: the text is the assembly line, the
	 * word the assembler's.  Each instruction at least once, registers
	 * x0 and x31, each immediate's ends and a negative value.
	 */
	const struct enc_case c[] = {
		E(kohaku_rv_lui(NULL, 1, 0), 0x000000b7, "lui x1, 0"),
		E(kohaku_rv_lui(NULL, 31, 0xfffff), 0xffffffb7, "lui x31, 0xfffff"),
		E(kohaku_rv_lui(NULL, 10, 0x12345), 0x12345537, "lui a0, 0x12345"),
		E(kohaku_rv_auipc(NULL, 0, 0), 0x00000017, "auipc x0, 0"),
		E(kohaku_rv_auipc(NULL, 31, 0xfffff), 0xffffff97, "auipc t6, 0xfffff"),
		E(kohaku_rv_auipc(NULL, 8, 0x80000), 0x80000417, "auipc s0, 0x80000"),
		E(kohaku_rv_jal(NULL, 0, 0), 0x0000006f, "jal x0, .+0"),
		E(kohaku_rv_jal(NULL, 1, 1048572), 0x7fdff0ef, "jal ra, .+1048572"),
		E(kohaku_rv_jal(NULL, 31, -1048576), 0x80000fef, "jal x31, .-1048576"),
		E(kohaku_rv_jal(NULL, 10, 2048), 0x0010056f, "jal a0, .+2048"),
		E(kohaku_rv_jal(NULL, 5, -4), 0xffdff2ef, "jal t0, .-4"),
		E(kohaku_rv_jalr(NULL, 0, 1, 0), 0x00008067, "jalr x0, 0(ra)"),
		E(kohaku_rv_jalr(NULL, 1, 5, -2048), 0x800280e7, "jalr ra, -2048(t0)"),
		E(kohaku_rv_jalr(NULL, 31, 31, 2047), 0x7fff8fe7, "jalr x31, 2047(x31)"),
		E(kohaku_rv_beq(NULL, 0, 0, 0), 0x00000063, "beq x0, x0, .+0"),
		E(kohaku_rv_beq(NULL, 10, 11, 4092), 0x7eb50ee3, "beq a0, a1, .+4092"),
		E(kohaku_rv_bne(NULL, 5, 6, -4096), 0x80629063, "bne t0, t1, .-4096"),
		E(kohaku_rv_blt(NULL, 31, 1, 2048), 0x001fc0e3, "blt x31, x1, .+2048"),
		E(kohaku_rv_bge(NULL, 8, 9, -2048), 0x809450e3, "bge s0, s1, .-2048"),
		E(kohaku_rv_bltu(NULL, 15, 16, 8), 0x0107e463, "bltu a5, a6, .+8"),
		E(kohaku_rv_bgeu(NULL, 30, 29, -8), 0xffdf7ce3, "bgeu x30, x29, .-8"),
		E(kohaku_rv_lb(NULL, 10, 11, 0), 0x00058503, "lb a0, 0(a1)"),
		E(kohaku_rv_lb(NULL, 5, 31, -2048), 0x800f8283, "lb t0, -2048(x31)"),
		E(kohaku_rv_lh(NULL, 31, 0, 2047), 0x7ff01f83, "lh x31, 2047(x0)"),
		E(kohaku_rv_lw(NULL, 1, 2, -1), 0xfff12083, "lw ra, -1(sp)"),
		E(kohaku_rv_lw(NULL, 10, 8, 20), 0x01442503, "lw a0, 20(s0)"),
		E(kohaku_rv_lbu(NULL, 12, 13, 1), 0x0016c603, "lbu a2, 1(a3)"),
		E(kohaku_rv_lhu(NULL, 14, 15, -2), 0xffe7d703, "lhu a4, -2(a5)"),
		E(kohaku_rv_sb(NULL, 10, 11, 0), 0x00a58023, "sb a0, 0(a1)"),
		E(kohaku_rv_sb(NULL, 31, 30, -2048), 0x81ff0023, "sb x31, -2048(x30)"),
		E(kohaku_rv_sh(NULL, 5, 6, 2047), 0x7e531fa3, "sh t0, 2047(t1)"),
		E(kohaku_rv_sw(NULL, 11, 2, -1), 0xfeb12fa3, "sw a1, -1(sp)"),
		E(kohaku_rv_sw(NULL, 31, 31, 36), 0x03ffa223, "sw x31, 36(x31)"),
		E(kohaku_rv_addi(NULL, 0, 0, 0), 0x00000013, "addi x0, x0, 0"),
		E(kohaku_rv_addi(NULL, 10, 10, -1), 0xfff50513, "addi a0, a0, -1"),
		E(kohaku_rv_addi(NULL, 31, 1, 2047), 0x7ff08f93, "addi x31, x1, 2047"),
		E(kohaku_rv_addi(NULL, 5, 6, -2048), 0x80030293, "addi t0, t1, -2048"),
		E(kohaku_rv_slti(NULL, 10, 11, -1), 0xfff5a513, "slti a0, a1, -1"),
		E(kohaku_rv_slti(NULL, 31, 31, 2047), 0x7fffaf93, "slti x31, x31, 2047"),
		E(kohaku_rv_sltiu(NULL, 10, 11, -2048), 0x8005b513, "sltiu a0, a1, -2048"),
		E(kohaku_rv_sltiu(NULL, 5, 6, 1), 0x00133293, "sltiu t0, t1, 1"),
		E(kohaku_rv_xori(NULL, 10, 10, -1), 0xfff54513, "xori a0, a0, -1"),
		E(kohaku_rv_xori(NULL, 5, 6, 0x555), 0x55534293, "xori x5, x6, 0x555"),
		E(kohaku_rv_ori(NULL, 9, 18, -2048), 0x80096493, "ori s1, s2, -2048"),
		E(kohaku_rv_ori(NULL, 28, 29, 0x7ff), 0x7ffeee13, "ori t3, t4, 0x7ff"),
		E(kohaku_rv_andi(NULL, 13, 14, 0xff), 0x0ff77693, "andi a3, a4, 0xff"),
		E(kohaku_rv_andi(NULL, 27, 26, -256), 0xf00d7d93, "andi s11, s10, -256"),
		E(kohaku_rv_slli(NULL, 10, 10, 0), 0x00051513, "slli a0, a0, 0"),
		E(kohaku_rv_slli(NULL, 31, 1, 31), 0x01f09f93, "slli x31, x1, 31"),
		E(kohaku_rv_srli(NULL, 5, 6, 1), 0x00135293, "srli t0, t1, 1"),
		E(kohaku_rv_srli(NULL, 15, 16, 31), 0x01f85793, "srli a5, a6, 31"),
		E(kohaku_rv_srai(NULL, 8, 9, 0), 0x4004d413, "srai s0, s1, 0"),
		E(kohaku_rv_srai(NULL, 31, 31, 31), 0x41ffdf93, "srai x31, x31, 31"),
		E(kohaku_rv_add(NULL, 10, 11, 12), 0x00c58533, "add a0, a1, a2"),
		E(kohaku_rv_add(NULL, 31, 0, 31), 0x01f00fb3, "add x31, x0, x31"),
		E(kohaku_rv_sub(NULL, 5, 6, 7), 0x407302b3, "sub t0, t1, t2"),
		E(kohaku_rv_sub(NULL, 31, 31, 31), 0x41ff8fb3, "sub x31, x31, x31"),
		E(kohaku_rv_sll(NULL, 10, 11, 12), 0x00c59533, "sll a0, a1, a2"),
		E(kohaku_rv_slt(NULL, 18, 19, 20), 0x0149a933, "slt s2, s3, s4"),
		E(kohaku_rv_sltu(NULL, 29, 30, 31), 0x01ff3eb3, "sltu t4, t5, t6"),
		E(kohaku_rv_xor(NULL, 17, 16, 15), 0x00f848b3, "xor a7, a6, a5"),
		E(kohaku_rv_srl(NULL, 1, 2, 3), 0x003150b3, "srl x1, x2, x3"),
		E(kohaku_rv_sra(NULL, 29, 30, 31), 0x41ff5eb3, "sra x29, x30, x31"),
		E(kohaku_rv_or(NULL, 10, 0, 11), 0x00b06533, "or a0, zero, a1"),
		E(kohaku_rv_and(NULL, 1, 2, 3), 0x003170b3, "and ra, sp, gp"),
		E(kohaku_rv_fence(NULL, 15, 15), 0x0ff0000f, "fence (iorw, iorw)"),
		E(kohaku_rv_fence(NULL, 2, 1), 0x0210000f, "fence r, w"),
		E(kohaku_rv_fence(NULL, 1, 2), 0x0120000f, "fence w, r"),
		E(kohaku_rv_fence(NULL, 8, 4), 0x0840000f, "fence i, o"),
		E(kohaku_rv_ecall(NULL), 0x00000073, "ecall"),
		E(kohaku_rv_ebreak(NULL), 0x00100073, "ebreak"),
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECK_MSG(c[i].got == c[i].want, "%s: 0x%08x, the assembler's "
			  "0x%08x", c[i].text, c[i].got, c[i].want);
	/* the register names are the ABI's numbers */
	CHECK_EQ(kohaku_rv_add(NULL, KOHAKU_RV_A0, KOHAKU_RV_A1, KOHAKU_RV_A2),
		 0x00c58533);
	CHECK_EQ(kohaku_rv_and(NULL, KOHAKU_RV_RA, KOHAKU_RV_SP, KOHAKU_RV_GP),
		 0x003170b3);
	CHECK_EQ(kohaku_rv_sltu(NULL, KOHAKU_RV_T4, KOHAKU_RV_T5, KOHAKU_RV_T6),
		 0x01ff3eb3);
	CHECK_EQ(kohaku_rv_slt(NULL, KOHAKU_RV_S2, KOHAKU_RV_S3, KOHAKU_RV_S4),
		 0x0149a933);
	CHECK_EQ(kohaku_rv_andi(NULL, KOHAKU_RV_S11, KOHAKU_RV_S10, -256),
		 0xf00d7d93);
}

/* an encoder's refusal: the invalid word, and the assembler's error */
#define REFUSED(call, what)						\
	do {								\
		struct kohaku_rv_asm ref;				\
		uint32_t _w[4] = { 0 };					\
		CHECK_EQ(kohaku_rv_asm_init(&ref, _w, 4, 0), 0);		\
		CHECK_MSG((call) == KOHAKU_RV_INVALID, "%s not refused", \
			  #call);					\
		CHECK_MSG(ref.err == -EINVAL && ref.n == 1 &&		\
			  _w[0] == KOHAKU_RV_INVALID &&			\
			  strstr(kohaku_rv_asm_error(&ref), (what)),	\
			  "%s: err %d n %u, message '%s' (wanted '%s')", \
			  #call, ref.err, ref.n, kohaku_rv_asm_error(&ref),	\
			  (what));					\
	} while (0)

TEST_F(rt, encoders_refuse_what_does_not_fit)
{
	/* immediates one past each end */
	REFUSED(kohaku_rv_addi(&ref, 1, 1, 2048), "immediate 2048");
	REFUSED(kohaku_rv_addi(&ref, 1, 1, -2049), "immediate -2049");
	REFUSED(kohaku_rv_slti(&ref, 1, 1, 4096), "slti");
	REFUSED(kohaku_rv_sltiu(&ref, 1, 1, -4096), "sltiu");
	REFUSED(kohaku_rv_xori(&ref, 1, 1, 0x800), "xori");
	REFUSED(kohaku_rv_ori(&ref, 1, 1, 0xfff), "ori");
	REFUSED(kohaku_rv_andi(&ref, 1, 1, 1 << 20), "andi");
	REFUSED(kohaku_rv_jalr(&ref, 1, 1, 2048), "jalr");
	REFUSED(kohaku_rv_lb(&ref, 1, 1, -2049), "lb");
	REFUSED(kohaku_rv_lh(&ref, 1, 1, 2048), "lh");
	REFUSED(kohaku_rv_lw(&ref, 1, 1, 2048), "lw: immediate 2048");
	REFUSED(kohaku_rv_lbu(&ref, 1, 1, 2048), "lbu");
	REFUSED(kohaku_rv_lhu(&ref, 1, 1, -2049), "lhu");
	REFUSED(kohaku_rv_sb(&ref, 1, 1, 2048), "sb: offset 2048");
	REFUSED(kohaku_rv_sh(&ref, 1, 1, -2049), "sh");
	REFUSED(kohaku_rv_sw(&ref, 1, 1, 2048), "sw");
	REFUSED(kohaku_rv_lui(&ref, 1, 0x100000), "lui: immediate");
	REFUSED(kohaku_rv_auipc(&ref, 1, 0xffffffffu), "auipc");
	REFUSED(kohaku_rv_slli(&ref, 1, 1, 32), "slli: shift 32");
	REFUSED(kohaku_rv_srli(&ref, 1, 1, 32), "srli");
	REFUSED(kohaku_rv_srai(&ref, 1, 1, 33), "srai");
	/* branch offsets: out of range, misaligned, odd */
	REFUSED(kohaku_rv_beq(&ref, 1, 2, 4096), "out of range");
	REFUSED(kohaku_rv_bne(&ref, 1, 2, -4100), "out of range");
	REFUSED(kohaku_rv_blt(&ref, 1, 2, 4094), "out of range");
	REFUSED(kohaku_rv_blt(&ref, 1, 2, 4090), "multiple of 4");
	REFUSED(kohaku_rv_bge(&ref, 1, 2, 2), "multiple of 4");
	REFUSED(kohaku_rv_bltu(&ref, 1, 2, 1), "bltu");
	REFUSED(kohaku_rv_bgeu(&ref, 1, 2, -6), "bgeu");
	REFUSED(kohaku_rv_jal(&ref, 1, 1048576), "out of range");
	REFUSED(kohaku_rv_jal(&ref, 1, -1048580), "out of range");
	REFUSED(kohaku_rv_jal(&ref, 1, 6), "multiple of 4");
	/* registers past x31, in every position of every form */
	REFUSED(kohaku_rv_add(&ref, 32, 1, 2), "register x32");
	REFUSED(kohaku_rv_sub(&ref, 1, 32, 2), "register x32");
	REFUSED(kohaku_rv_sra(&ref, 1, 2, 99), "register x99");
	REFUSED(kohaku_rv_sll(&ref, 1, 2, 32), "sll");
	REFUSED(kohaku_rv_slt(&ref, 40, 2, 3), "slt");
	REFUSED(kohaku_rv_sltu(&ref, 1, 40, 3), "sltu");
	REFUSED(kohaku_rv_xor(&ref, 1, 2, 40), "xor");
	REFUSED(kohaku_rv_srl(&ref, 32, 2, 3), "srl");
	REFUSED(kohaku_rv_or(&ref, 1, 32, 3), "or");
	REFUSED(kohaku_rv_and(&ref, 1, 2, 32), "and");
	REFUSED(kohaku_rv_addi(&ref, 32, 1, 0), "register x32");
	REFUSED(kohaku_rv_lw(&ref, 1, 32, 0), "register x32");
	REFUSED(kohaku_rv_sw(&ref, 32, 1, 0), "register x32");
	REFUSED(kohaku_rv_sb(&ref, 1, 32, 0), "register x32");
	REFUSED(kohaku_rv_beq(&ref, 32, 1, 0), "register x32");
	REFUSED(kohaku_rv_bne(&ref, 1, 32, 0), "register x32");
	REFUSED(kohaku_rv_lui(&ref, 32, 0), "register x32");
	REFUSED(kohaku_rv_jal(&ref, 32, 0), "register x32");
	REFUSED(kohaku_rv_jalr(&ref, 1, 32, 0), "register x32");
	REFUSED(kohaku_rv_slli(&ref, 32, 1, 0), "register x32");
	REFUSED(kohaku_rv_fence(&ref, 16, 0), "fence");
	REFUSED(kohaku_rv_fence(&ref, 0, 16), "fence");
	/* without an assembler: the invalid word alone */
	CHECK_EQ(kohaku_rv_addi(NULL, 1, 1, 2048), KOHAKU_RV_INVALID);
	CHECK_EQ(kohaku_rv_beq(NULL, 1, 1, 6), KOHAKU_RV_INVALID);
	CHECK_EQ(kohaku_rv_add(NULL, 0, 0, 32), KOHAKU_RV_INVALID);
	/* the edges that fit are not refused (the table above has them) */
	CHECK(kohaku_rv_blt(NULL, 1, 2, -4096) != KOHAKU_RV_INVALID);
	CHECK(kohaku_rv_jal(NULL, 0, -1048576) != KOHAKU_RV_INVALID);
}

TEST_F(rt, assembler_labels_match_the_gnu_assembler)
{
	/*
	 * As assembled by riscv64-unknown-elf-as -march=rv32i:
	 *	li t0, 10
	 * loop: addi t0, t0, -1
	 *	bne t0, x0, loop
	 *	beq x0, x0, done
	 *	ebreak
	 * done: jal ra, func
	 *	ecall
	 * func: jalr x0, 0(ra)
	 */
	static const uint32_t want[] = {
		0x00a00293, 0xfff28293, 0xfe029ee3, 0x00000463,
		0x00100073, 0x008000ef, 0x00000073, 0x00008067,
	};
	uint32_t w[16];
	struct kohaku_rv_asm a;
	int loop, done, func;
	unsigned int i;
	struct kohaku_data d;

	CHECK_EQ(kohaku_rv_asm_init(&a, w, 16, 0x40), 0);
	loop = kohaku_rv_asm_label(&a);
	done = kohaku_rv_asm_label(&a);
	func = kohaku_rv_asm_label(&a);
	CHECK(loop >= 0 && done >= 0 && func >= 0);
	kohaku_rv_asm_li(&a, KOHAKU_RV_T0, 10);
	kohaku_rv_asm_bind(&a, loop);
	CHECK_EQ(kohaku_rv_asm_pc(&a), 0x44);
	kohaku_rv_addi(&a, KOHAKU_RV_T0, KOHAKU_RV_T0, -1);
	kohaku_rv_asm_branch(&a, KOHAKU_RV_NE, KOHAKU_RV_T0, ZERO, loop);
	kohaku_rv_asm_branch(&a, KOHAKU_RV_EQ, ZERO, ZERO, done);
	kohaku_rv_ebreak(&a);
	kohaku_rv_asm_bind(&a, done);
	kohaku_rv_asm_jal(&a, KOHAKU_RV_RA, func);
	kohaku_rv_ecall(&a);
	kohaku_rv_asm_bind(&a, func);
	kohaku_rv_jalr(&a, ZERO, KOHAKU_RV_RA, 0);
	CHECK_EQ(kohaku_rv_asm_finish(&a), 0);
	CHECK_EQ(kohaku_rv_asm_error(&a)[0], 0);
	CHECK_EQ(a.n, 8);
	for (i = 0; i < 8; i++)
		CHECK_MSG(w[i] == want[i], "word %u: 0x%08x, the assembler's "
			  "0x%08x", i, w[i], want[i]);
	/* the image: one granule of the window at the origin's */
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), 0);
	CHECK_EQ(d.buf_id, KH_CPU_BUF_IMEM);
	CHECK_EQ(d.offset, 0x40 / KH_CPU_GRANULE_BYTES);
	CHECK_EQ(d.size, KH_CPU_GRANULE_BYTES);
	CHECK(d.data == w);
	/* a ninth word: two granules, the rest padded with invalid words */
	kohaku_rv_ecall(&a);
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), 0);
	CHECK_EQ(d.size, 2 * KH_CPU_GRANULE_BYTES);
	for (i = 9; i < 16; i++)
		CHECK_EQ(w[i], KOHAKU_RV_INVALID);
	CHECK_EQ(a.n, 9);
}

TEST_F(rt, assembler_li_matches_the_gnu_assembler)
{
	/* riscv64-unknown-elf-as -march=rv32i, `li rd, value` */
	static const struct {
		uint32_t value;
		unsigned int n;
		uint32_t w[2];
	} c[] = {
		{ 0x12345fff, 2, { 0x12346537, 0xfff50513 } },	/* a0 */
		{ 0x80000000, 1, { 0x80000537 } },
		{ 0xfffff800, 1, { 0x80000513 } },		/* -2048 */
		{ 2047, 1, { 0x7ff00513 } },
		{ 2048, 2, { 0x00001537, 0x80050513 } },
		{ 0xffffffff, 1, { 0xfff00513 } },
		{ 0x7fffffff, 2, { 0x80000537, 0xfff50513 } },
		{ 0xfffff7ff, 2, { 0xfffff537, 0x7ff50513 } },
		{ 0x12345000, 1, { 0x12345537 } },
		{ 0, 1, { 0x00000513 } },
	};
	struct kohaku_rv_asm a;
	uint32_t w[2];
	unsigned int i, k;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CHECK_EQ(kohaku_rv_asm_init(&a, w, 2, 0), 0);
		kohaku_rv_asm_li(&a, A0, c[i].value);
		CHECK_EQ(kohaku_rv_asm_finish(&a), 0);
		CHECK_MSG(a.n == c[i].n, "li a0, 0x%x: %u words, the assembler "
			  "%u", c[i].value, a.n, c[i].n);
		for (k = 0; k < c[i].n && k < a.n; k++)
			CHECK_MSG(w[k] == c[i].w[k], "li a0, 0x%x word %u: 0x%08x, "
				  "the assembler's 0x%08x", c[i].value, k, w[k],
				  c[i].w[k]);
	}
	/* and li x32 is refused */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 2, 0), 0);
	kohaku_rv_asm_li(&a, 32, 5);
	CHECK_EQ(kohaku_rv_asm_finish(&a), -EINVAL);
}

TEST_F(rt, assembler_errors)
{
	uint32_t w[1100];
	struct kohaku_rv_asm a;
	struct kohaku_data d;
	int l, l2;
	unsigned int i;

	/* the first error is kept, with its pc */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0x20), 0);
	kohaku_rv_ecall(&a);
	kohaku_rv_addi(&a, 1, 1, 5000);
	kohaku_rv_slli(&a, 1, 1, 40);
	CHECK_EQ(a.n, 3);
	CHECK_EQ(kohaku_rv_asm_finish(&a), -EINVAL);
	CHECK(strstr(kohaku_rv_asm_error(&a), "pc 0x24: addi: immediate 5000"));
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), -EINVAL);
	check_diag("e.g. %s", kohaku_rv_asm_error(&a));
	/* a label never bound */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0), 0);
	l = kohaku_rv_asm_label(&a);
	kohaku_rv_asm_branch(&a, KOHAKU_RV_LT, 1, 2, l);
	CHECK_EQ(kohaku_rv_asm_finish(&a), -EINVAL);
	CHECK(strstr(kohaku_rv_asm_error(&a), "never bound"));
	/* bound twice; an unknown label; a bad condition */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0), 0);
	l = kohaku_rv_asm_label(&a);
	kohaku_rv_asm_bind(&a, l);
	kohaku_rv_asm_bind(&a, l);
	CHECK(strstr(kohaku_rv_asm_error(&a), "bound twice"));
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0), 0);
	kohaku_rv_asm_jal(&a, 1, 7);
	CHECK_EQ(a.err, -EINVAL);
	CHECK_EQ(a.n, 1);
	CHECK_EQ(w[0], KOHAKU_RV_INVALID);
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0), 0);
	l = kohaku_rv_asm_label(&a);
	kohaku_rv_asm_branch(&a, (enum kohaku_rv_cond)9, 1, 2, l);
	CHECK(strstr(kohaku_rv_asm_error(&a), "condition 9"));
	/* a forward branch whose label lands out of reach: refused at bind */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 1100, 0), 0);
	l = kohaku_rv_asm_label(&a);
	l2 = kohaku_rv_asm_label(&a);
	kohaku_rv_asm_branch(&a, KOHAKU_RV_EQ, 0, 0, l);	/* at 0 */
	kohaku_rv_asm_jal(&a, 0, l2);				/* at 4 */
	for (i = 0; i < 1023; i++)
		kohaku_rv_addi(&a, 0, 0, 0);
	kohaku_rv_asm_bind(&a, l2);	/* 4096 from the jal: fine */
	kohaku_rv_asm_bind(&a, l);	/* 4100 from the branch: too far */
	CHECK_EQ(a.err, -EINVAL);
	CHECK(strstr(kohaku_rv_asm_error(&a), "branch at pc 0x0"));
	CHECK(strstr(kohaku_rv_asm_error(&a), "out of range"));
	CHECK_EQ(w[0], KOHAKU_RV_INVALID);
	CHECK_EQ(w[1], kohaku_rv_jal(NULL, 0, 4096));
	/* backward, out of reach at once */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 1100, 0), 0);
	l = kohaku_rv_asm_label(&a);
	kohaku_rv_asm_bind(&a, l);
	for (i = 0; i < 1025; i++)
		kohaku_rv_addi(&a, 0, 0, 0);
	kohaku_rv_asm_branch(&a, KOHAKU_RV_GEU, 3, 4, l);
	CHECK_EQ(a.err, -EINVAL);
	CHECK_EQ(a.n, 1026);
	CHECK_EQ(w[1025], KOHAKU_RV_INVALID);
	/* the buffer overflows: -ENOSPC, n counts on */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 2, 0), 0);
	kohaku_rv_ecall(&a);
	kohaku_rv_ecall(&a);
	kohaku_rv_asm_li(&a, A0, 0x12345678);
	CHECK_EQ(a.n, 4);
	CHECK_EQ(kohaku_rv_asm_finish(&a), -ENOSPC);
	/* an image whose padding does not fit */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 3, 0), 0);
	kohaku_rv_ecall(&a);
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), -ENOSPC);
	/* an empty program has no image */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0), 0);
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), -EINVAL);
	/* origins: granule aligned, inside the window */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0x1fe0), 0);
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0x10), -EINVAL);
	CHECK_EQ(kohaku_rv_asm_finish(&a), -EINVAL);
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, KH_CPU_IMEM_WORDS * 4), -EINVAL);
	CHECK_EQ(kohaku_rv_asm_init(&a, NULL, 8, 0), -EINVAL);
	CHECK_EQ(kohaku_rv_asm_init(NULL, w, 8, 0), -EINVAL);
	/* labels run out */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 8, 0), 0);
	for (i = 0; i < KOHAKU_RV_ASM_LABELS; i++)
		CHECK(kohaku_rv_asm_label(&a) == (int)i);
	CHECK_EQ(kohaku_rv_asm_label(&a), -ENOSPC);
	CHECK_EQ(kohaku_rv_asm_finish(&a), -ENOSPC);
	/* an image up to the driver's granule, one into it, one past it */
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 16, 0x1fc0), 0);
	for (i = 0; i < 8; i++)
		kohaku_rv_ecall(&a);
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), 0);
	CHECK_EQ(d.offset, KH_CPU_STUB_GRANULE - 1);
	kohaku_rv_ecall(&a);
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), -EINVAL);
	CHECK_EQ(kohaku_rv_asm_init(&a, w, 16, KH_CPU_STUB_PC), 0);
	kohaku_rv_ecall(&a);
	CHECK_EQ(kohaku_rv_asm_image(&a, &d), -EINVAL);
}

/* ---- the kick, addresses and data ---- */

TEST_F(rt, kick_and_helpers)
{
	struct kohaku_inst in, was;
	struct kh_flit f;
	struct kohaku_data d;
	uint32_t words[16] = { 0 }, addr = 0;
	unsigned int k;

	CHECK_EQ(kohaku_inst_cpu_kick(&in, 0x1ffc, 0xdeadbeef), 0);
	memset(&f, 0, sizeof(f));
	for (k = 0; k < 4; k++)
		f.w[k] = in.w[k];
	CHECK_EQ(kh_flit_get(&f, KH_CPU_INST_OP), KH_CPU_OP_KICK);
	CHECK_EQ(kh_flit_get(&f, KH_CPU_INST_PC), 0x1ffc);
	CHECK_EQ(kh_flit_get(&f, KH_CPU_INST_ARG), 0xdeadbeef);
	/* [255:248] op, [247:216] pc, [215:184] arg and nothing else */
	CHECK_EQ(in.w[3], (1ULL << 56) | (0x1ffcULL << 24) |
		 (0xdeadbeefULL >> 8));
	CHECK_EQ(in.w[2], (0xefULL << 56));
	CHECK(!in.w[1] && !in.w[0]);
	memset(&in, 0x5a, sizeof(in));
	was = in;
	CHECK_ERR(kohaku_inst_cpu_kick(&in, 0x2000, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_cpu_kick(&in, 2, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_cpu_kick(&in, 0xfffffffc, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_cpu_kick(NULL, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_cpu(&in, 256, 0, 0), -EINVAL);
	CHECK(!memcmp(&in, &was, sizeof(in)));
	CHECK_EQ(kohaku_inst_cpu(&in, 7, 0xffffffff, 1), 0);
	CHECK_EQ(in.w[3], (7ULL << 56) | (0xffffffffULL << 24));
	CHECK_EQ(in.w[2], 1ULL << 56);
	/* the cpu's view of a BO */
	CHECK_EQ(kohaku_cpu_dram_addr(0, KH_MADDR(0, 0x1000), 64, &addr), 0);
	CHECK_EQ(addr, 0x80001000u);
	CHECK_EQ(kohaku_cpu_dram_addr(2, KH_MADDR(2, 0x7fffffe0), 32, &addr), 0);
	CHECK_EQ(addr, 0xffffffe0u);
	CHECK_ERR(kohaku_cpu_dram_addr(2, KH_MADDR(2, 0x7fffffe0), 33, &addr),
		  -ERANGE);
	CHECK_ERR(kohaku_cpu_dram_addr(0, KH_MADDR(0, 0x80000000ULL), 0, &addr),
		  -ERANGE);
	CHECK_ERR(kohaku_cpu_dram_addr(0, KH_MADDR(1, 0x1000), 32, &addr), -EXDEV);
	CHECK_ERR(kohaku_cpu_dram_addr(0, KH_MADDR_AP(0, 0, 0), 32, &addr),
		  -EINVAL);
	CHECK_ERR(kohaku_cpu_dram_addr(0, 0x1000, 32, NULL), -EINVAL);
	/* data entries: granule buffers, whole granules, inside the window */
	CHECK_EQ(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD, 3, words, 16), 0);
	CHECK_EQ(d.buf_id, KH_CPU_BUF_SPAD);
	CHECK_EQ(d.offset, 3);
	CHECK_EQ(d.size, 64);
	CHECK(d.data == words);
	CHECK_EQ(kohaku_cpu_data(&d, KH_CPU_BUF_IMEM, 254, words, 8), 0);
	CHECK_EQ(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD, 254, words, 16), 0);
	/* the instruction window's last granule is the driver's flush stub */
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_IMEM, 254, words, 16), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_IMEM, KH_CPU_STUB_GRANULE,
				  words, 8), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_IMEM, 255, words, 16), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD, 256, words, 8), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD, 0, words, 12), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD, 0, words, 0), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD_W, 0, words, 8), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_VSPAD, 0, words, 8), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(&d, KH_CPU_BUF_SPAD, 0, NULL, 8), -EINVAL);
	CHECK_ERR(kohaku_cpu_data(NULL, KH_CPU_BUF_SPAD, 0, words, 8), -EINVAL);
}

/* ---- programs on the unit ---- */

/* a device with cpu units: their table in nd, n of them, or SKIP */
#define CT_OPEN(dev, nd, n)						\
	struct drm_kohaku_node nd[MAX_CPU];				\
	unsigned int n;							\
	kohaku_device *dev = rt_open_card("cpu_2x1");			\
	REQUIRE(dev != NULL);						\
	n = rt_nodes_of(dev, KH_CU_RV, nd, MAX_CPU);			\
	if (!n) {							\
		rt_close_card(dev);					\
		SKIP(return, "no cpu unit on this device");			\
	}

/* one program for a cpu: its image, its arguments, the kick */
struct ct_prog {
	uint32_t words[256];
	struct kohaku_rv_asm a;
	uint32_t spad[KH_CPU_GRANULE_WORDS];
	struct kohaku_data data[2];
	struct kohaku_inst insts[2];
};

/* the scratchpad granule the arguments go to */
#define ARG_GRANULE	4
#define ARG_ADDR(k)	(KH_CPU_SPAD_BASE + ARG_GRANULE * KH_CPU_GRANULE_BYTES + \
			 4 * (k))

static void ct_begin(struct ct_prog *c, uint32_t origin)
{
	memset(c, 0, sizeof(*c));
	kohaku_rv_asm_init(&c->a, c->words, 256, origin);
}

/*
 * The program for node nd: its image and arguments, the kick, and with
 * status a second instruction of another op, which runs nothing and
 * retires with what the halt left (so the kick's own retirement is an
 * INST_COMPLETE carrying exec_result, not the batch's last).
 */
static bool ct_program(struct ct_prog *c, struct kohaku_program *p,
		       const struct drm_kohaku_node *nd, uint32_t arg,
		       bool status)
{
	int r = kohaku_rv_asm_image(&c->a, &c->data[0]);

	CHECK_MSG(r == 0, "assembling: %d: %s", r, kohaku_rv_asm_error(&c->a));
	if (r)
		return false;
	CHECK_EQ(kohaku_cpu_data(&c->data[1], KH_CPU_BUF_SPAD, ARG_GRANULE,
				 c->spad, KH_CPU_GRANULE_WORDS), 0);
	CHECK_EQ(kohaku_inst_cpu_kick(&c->insts[0], c->a.origin, arg), 0);
	CHECK_EQ(kohaku_inst_cpu(&c->insts[1], 0, 0, 0), 0);
	memset(p, 0, sizeof(*p));
	p->mesh = nd->mesh;
	p->x = nd->x;
	p->y = nd->y;
	p->n_insts = status ? 2 : 1;
	p->insts = c->insts;
	p->data = c->data;
	p->n_data = 2;
	return true;
}

/* s0 = the control words, s1 = the arguments; every line dropped */
static void ct_prologue(struct kohaku_rv_asm *a)
{
	kohaku_rv_asm_li(a, KOHAKU_RV_S0, KH_CPU_CTL_BASE);
	kohaku_rv_asm_li(a, KOHAKU_RV_S1, ARG_ADDR(0));
	/* a line left by an earlier program on this unit would serve
	 * stale data: the L1 is not coherent (cpu.md "The L1") */
	kohaku_rv_sw(a, ZERO, KOHAKU_RV_S0, KH_CPU_CTL_INVAL);
}

/* flush the L1 so the host sees the stores, then halt with a0 */
static void ct_flush_ecall(struct kohaku_rv_asm *a)
{
	kohaku_rv_sw(a, ZERO, KOHAKU_RV_S0, KH_CPU_CTL_FLUSH);
	kohaku_rv_ecall(a);
}

/* the node's CU_DBG, live */
static bool ct_dbg(kohaku_device *dev, const struct drm_kohaku_node *q,
		   uint64_t *dbg)
{
	struct drm_kohaku_node t[64];
	unsigned int n = 0, i;

	if (kohaku_nodes(dev, KOHAKU_NODES_LIVE, t, 64, sizeof(*t), &n))
		return false;
	for (i = 0; i < n && i < 64; i++)
		if (t[i].mesh == q->mesh && t[i].x == q->x && t[i].y == q->y) {
			*dbg = t[i].dbg;
			return true;
		}
	return false;
}

/*
 * The retire events of (x, y) in the model's trace, in order: code and
 * arg (exec_result; the txn for a batch's last), and with cyc the cycle.
 * -1 with no trace here.
 */
static int ct_retires_at(kohaku_device *dev, const struct drm_kohaku_node *q,
			 unsigned int *code, uint32_t *arg,
			 unsigned long long *when, unsigned int cap)
{
	char *text = NULL, *line, *save = NULL;
	int n = 0;

	if (kohaku_sim_read(dev, "trace", &text))
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long cyc;
		unsigned int mesh, x, y, c, a;

		if (sscanf(line, "%llu %u retire %u,%u code=0x%x arg=0x%x",
			   &cyc, &mesh, &x, &y, &c, &a) != 6)
			continue;
		if (mesh != q->mesh || x != q->x || y != q->y)
			continue;
		if ((unsigned int)n < cap) {
			code[n] = c;
			arg[n] = a;
			if (when)
				when[n] = cyc;
		}
		n++;
	}
	free(text);
	return n;
}

static int ct_retires(kohaku_device *dev, const struct drm_kohaku_node *q,
		      unsigned int *code, uint32_t *arg, unsigned int cap)
{
	return ct_retires_at(dev, q, code, arg, NULL, cap);
}

/* ---- the prefix sum ---- */

/* a BO the host fills and reads, and its address as the cpu sees it */
struct ct_buf {
	uint32_t h;
	uint64_t dev_addr;
	uint32_t cpu_addr;
	size_t size;
};

static int ct_buf(kohaku_device *dev, const struct drm_kohaku_node *nd,
		  size_t size, uint32_t fill, struct ct_buf *b)
{
	uint32_t *v = malloc(size);
	size_t i;
	int r;

	memset(b, 0, sizeof(*b));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < size / 4; i++)
		v[i] = fill;
	r = kohaku_bo_create(dev, nd->mesh, size, &b->h, &b->dev_addr);
	if (!r)
		r = kohaku_bo_write(dev, b->h, 0, v, size);
	if (!r)
		r = kohaku_cpu_dram_addr(nd->mesh, b->dev_addr, size,
					 &b->cpu_addr);
	CHECK_MSG(r == 0, "a BO of %zu bytes: %d: %s", size, r,
		  kohaku_last_error(dev));
	b->size = size;
	free(v);
	return r;
}

static void ct_buf_free(kohaku_device *dev, struct ct_buf *b)
{
	if (b->h)
		CHECK_OK(dev, kohaku_bo_free(dev, b->h));
	b->h = 0;
}

#define PS_GUARD	0xa5a5a5a5u
#define PS_TAIL		8	/* words past the n outputs: checksum, coreid, guard */

/* the checksum the program folds: c = rotl(c, 5) ^ prefix[i] */
static uint32_t ps_fold(uint32_t c, uint32_t v)
{
	return ((c << 5) | (c >> 27)) ^ v;
}

static uint32_t ps_val(unsigned int i, unsigned int salt)
{
	uint32_t x = (i + 1) * 2654435761u + salt * 40503u;

	return x ^ (x >> 13);
}

/*
 * The program: n (the kick's arg) 32-bit words from src (argument 0) to
 * their inclusive prefix sums at dst (argument 1), then the checksum and
 * the unit's COREID after them; flush; ECALL with the checksum in a0.
 * *loop and *done are the word indices of the loop and of what follows
 * it, for the retirement count.
 */
static void ps_asm(struct kohaku_rv_asm *a, unsigned int *loop,
		   unsigned int *done)
{
	int l_loop = kohaku_rv_asm_label(a), l_done = kohaku_rv_asm_label(a);
	const unsigned int src = KOHAKU_RV_A1, dst = KOHAKU_RV_A2,
			   n = KOHAKU_RV_A3, sum = KOHAKU_RV_A4,
			   chk = KOHAKU_RV_A5, t = KOHAKU_RV_T0,
			   u = KOHAKU_RV_T1;

	ct_prologue(a);
	kohaku_rv_lw(a, src, KOHAKU_RV_S1, 0);
	kohaku_rv_lw(a, dst, KOHAKU_RV_S1, 4);
	kohaku_rv_lw(a, n, KOHAKU_RV_S0, KH_CPU_CTL_ARG);
	kohaku_rv_addi(a, sum, ZERO, 0);
	kohaku_rv_addi(a, chk, ZERO, 0);
	kohaku_rv_asm_branch(a, KOHAKU_RV_EQ, n, ZERO, l_done);
	*loop = a->n;
	kohaku_rv_asm_bind(a, l_loop);
	kohaku_rv_lw(a, t, src, 0);
	kohaku_rv_add(a, sum, sum, t);
	kohaku_rv_sw(a, sum, dst, 0);
	kohaku_rv_slli(a, t, chk, 5);
	kohaku_rv_srli(a, u, chk, 27);
	kohaku_rv_or(a, chk, t, u);
	kohaku_rv_xor(a, chk, chk, sum);
	kohaku_rv_addi(a, src, src, 4);
	kohaku_rv_addi(a, dst, dst, 4);
	kohaku_rv_addi(a, n, n, -1);
	kohaku_rv_asm_branch(a, KOHAKU_RV_NE, n, ZERO, l_loop);
	*done = a->n;
	kohaku_rv_asm_bind(a, l_done);
	kohaku_rv_sw(a, chk, dst, 0);
	kohaku_rv_lw(a, t, KOHAKU_RV_S0, KH_CPU_CTL_COREID);
	kohaku_rv_sw(a, t, dst, 4);
	kohaku_rv_addi(a, A0, chk, 0);
	ct_flush_ecall(a);
}

/* one unit's prefix sum: its buffers, program and expected results */
struct ps_run {
	struct ct_prog c;
	struct ct_buf src, dst;
	unsigned int n, salt, loop, done;
	uint32_t chk;
};

static bool ps_setup(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     struct ps_run *r, unsigned int n, unsigned int salt,
		     uint32_t origin, struct kohaku_program *p)
{
	uint32_t *v = malloc(((size_t)n + 1) * 4);
	unsigned int i;
	int e;

	if (!v)
		return false;
	r->n = n;
	r->salt = salt;
	for (i = 0; i < n; i++)
		v[i] = ps_val(i, salt);
	e = ct_buf(dev, nd, ((size_t)n + 1) * 4, 0, &r->src);
	if (!e && n)
		e = kohaku_bo_write(dev, r->src.h, 0, v, (size_t)n * 4);
	if (!e)
		e = ct_buf(dev, nd, ((size_t)n + PS_TAIL) * 4, PS_GUARD, &r->dst);
	free(v);
	if (e)
		return false;
	ct_begin(&r->c, origin);
	ps_asm(&r->c.a, &r->loop, &r->done);
	r->c.spad[0] = r->src.cpu_addr;
	r->c.spad[1] = r->dst.cpu_addr;
	return ct_program(&r->c, p, nd, n, true);
}

/* every output word against C; the count of wrong ones */
static unsigned int ps_check(kohaku_device *dev,
			     const struct drm_kohaku_node *nd, struct ps_run *r)
{
	size_t words = (size_t)r->n + PS_TAIL;
	uint32_t *got = malloc(words * 4), sum = 0, chk = 0, want;
	unsigned int i, bad = 0;

	if (!got || kohaku_bo_read(dev, r->dst.h, 0, got, words * 4)) {
		free(got);
		CHECK_MSG(0, "reading the result: %s", kohaku_last_error(dev));
		return 1;
	}
	for (i = 0; i < words; i++) {
		if (i < r->n) {
			sum += ps_val(i, r->salt);
			chk = ps_fold(chk, sum);
			want = sum;
		} else if (i == r->n) {
			want = chk;
		} else if (i == r->n + 1) {
			want = (uint32_t)((nd->y & 0xf) << 4 | (nd->x & 0xf));
		} else {
			want = PS_GUARD;
		}
		if (got[i] != want && bad++ < 4)
			check_diag("(%u,%u) n=%u: word %u = 0x%08x, expected "
				 "0x%08x", nd->x, nd->y, r->n, i, got[i], want);
	}
	r->chk = chk;
	free(got);
	return bad;
}

static void ps_free(kohaku_device *dev, struct ps_run *r)
{
	ct_buf_free(dev, &r->src);
	ct_buf_free(dev, &r->dst);
}

/* instructions the program retires: the loop runs n times (none at 0) */
static uint32_t ps_retired(const struct ps_run *r)
{
	uint32_t body = r->done - r->loop, tail = r->c.a.n - r->done;

	return r->loop + r->n * body + tail;
}

TEST_F(rt, prefix_sum_on_every_unit_matches_c)
{
	static const unsigned int sizes[] = { 100, 0, 1, 7, 1000 };
	static struct ps_run runs[MAX_CPU];
	struct kohaku_program p[MAX_CPU];
	struct kohaku_job_status st;
	unsigned int u, s, code[4];
	uint32_t arg[4];
	uint64_t dbg;
	int nt;
	bool traced;
	CT_OPEN(dev, nd, nc);

	traced = kohaku_sim_command(dev, "trace on events=unit") == 0;
	if (!traced)
		check_diag("no model trace here (%s): the ECALL result from DRAM "
			 "only", kohaku_last_error(dev));
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (u = 0; u < nc; u++) {
			/* a different origin each time: the kick's pc too */
			uint32_t origin = (s * 4 + u % 4) * 0x100;

			REQUIRE(ps_setup(dev, &nd[u], &runs[u], sizes[s], s * 16 + u,
					 origin, &p[u]));
			if (traced)
				kohaku_sim_command(dev, "trace clear");
			CHECK_EQ(rt_run(dev, &p[u], 1, &st), 0);
			CHECK_MSG(st.status == KOHAKU_JOB_DONE, "(%u,%u) n=%u: %s: "
				  "%s", nd[u].x, nd[u].y, sizes[s],
				  kohaku_job_status_name(st.status),
				  kohaku_last_error(dev));
			CHECK_EQ(ps_check(dev, &nd[u], &runs[u]), 0);
			/* CU_DBG: instructions retired since the kick */
			REQUIRE(ct_dbg(dev, &nd[u], &dbg));
			CHECK_MSG(KH_CPU_DBG_RETIRED(dbg) == ps_retired(&runs[u]),
				  "(%u,%u) n=%u: %u retired, expected %u", nd[u].x,
				  nd[u].y, sizes[s], KH_CPU_DBG_RETIRED(dbg),
				  ps_retired(&runs[u]));
			CHECK(KH_CPU_DBG_CYCLES(dbg) > KH_CPU_DBG_RETIRED(dbg));
			/* the ECALL's exec_result is a0, the checksum; the
			 * status op after it retires at once, the batch's last;
			 * then the driver's flush stub, with the program's txn */
			nt = traced ? ct_retires(dev, &nd[u], code, arg, 4) : -1;
			if (nt >= 0) {
				CHECK_EQ(nt, 3);
				CHECK_EQ(code[0], KH_SIG_INST_COMPLETE);
				CHECK_MSG(arg[0] == runs[u].chk, "(%u,%u) n=%u: "
					  "exec_result 0x%08x, checksum 0x%08x",
					  nd[u].x, nd[u].y, sizes[s], arg[0],
					  runs[u].chk);
				CHECK_EQ(code[1], KH_SIG_BATCH_COMPLETE);
				CHECK_EQ(code[2], KH_SIG_BATCH_COMPLETE);
				CHECK_EQ(arg[2], 0);
			}
			ps_free(dev, &runs[u]);
		}
	if (traced)
		kohaku_sim_command(dev, "trace off");
	check_diag("%u cpu unit%s, n = 100, 0, 1, 7, 1000", nc, nc == 1 ? "" : "s");
	rt_close_card(dev);
}

TEST_F(rt, cpus_side_by_side_in_one_job)
{
	static struct ps_run runs[MAX_CPU];
	struct kohaku_program p[MAX_CPU];
	struct kohaku_job_status st;
	unsigned int u;
	uint64_t dbg;
	CT_OPEN(dev, nd, nc);

	if (nc < 2) {
		rt_close_card(dev);
		SKIP(return, "fewer than two cpu units");
	}
	/* every cpu of the mesh, each its own image, data and kick */
	for (u = 0; u < nc; u++)
		REQUIRE(ps_setup(dev, &nd[u], &runs[u], 200 + 37 * u, 900 + u,
				 0x400 + 0x100 * (u % 8), &p[u]));
	CHECK_EQ(rt_run(dev, p, nc, &st), 0);
	CHECK_MSG(st.status == KOHAKU_JOB_DONE, "%s: %s",
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(st.n_faults, 0);
	for (u = 0; u < nc; u++) {
		CHECK_EQ(ps_check(dev, &nd[u], &runs[u]), 0);
		REQUIRE(ct_dbg(dev, &nd[u], &dbg));
		CHECK_EQ(KH_CPU_DBG_RETIRED(dbg), ps_retired(&runs[u]));
		ps_free(dev, &runs[u]);
	}
	check_diag("%u cpus in one job", nc);
	rt_close_card(dev);
}

/* a small program, run alone; its status */
static int ct_run_asm(kohaku_device *dev, const struct drm_kohaku_node *nd,
		      struct ct_prog *c, uint32_t arg, bool status,
		      struct kohaku_job_status *st)
{
	struct kohaku_program p;

	if (!ct_program(c, &p, nd, arg, status))
		return -EINVAL;
	return rt_run(dev, &p, 1, st);
}

TEST_F(rt, ebreak_is_a_fault_with_a0)
{
	static struct ct_prog c;
	struct kohaku_job_status st;
	struct kohaku_inst q;
	unsigned int u;
	uint64_t dbg;
	char d[256];
	CT_OPEN(dev, nd, nc);

	for (u = 0; u < nc; u++) {
		ct_begin(&c, 0x600);
		kohaku_rv_asm_li(&c.a, A0, 0x1234567 + u);
		kohaku_rv_ebreak(&c.a);
		kohaku_rv_ecall(&c.a);		/* never reached */
		CHECK_EQ(ct_run_asm(dev, &nd[u], &c, 0, false, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.n_faults, 1);
		CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
		CHECK_EQ(st.fault_x, nd[u].x);
		CHECK_EQ(st.fault_y, nd[u].y);
		/* EBREAK's exec_result is a0 (cpu.md, the halt table) */
		CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
		CHECK_EQ(st.fault_code, 0x1234567 + u);
		REQUIRE(ct_dbg(dev, &nd[u], &dbg));
		CHECK_EQ(KH_CPU_DBG_RETIRED(dbg), 3);	/* lui, addi, ebreak */
		if (!u) {
			kohaku_job_describe(&st, sizeof(st), d, sizeof(d));
			check_diag("%s", d);
		}
		/*
		 * Another op runs nothing and retires with what the last halt
		 * left: in a later job, the driver's flush stub's ECALL (no
		 * fault; a0 still the program's).  CU_DBG still shows the
		 * program's count: no kick, no flush after this job.
		 */
		CHECK_EQ(kohaku_inst_cpu(&q, 0, 0, 0), 0);
		CHECK_EQ(rt_run_on(dev, &nd[u], &q, 1, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		REQUIRE(ct_dbg(dev, &nd[u], &dbg));
		CHECK_EQ(KH_CPU_DBG_RETIRED(dbg), 3);
	}
	rt_close_card(dev);
}

TEST_F(rt, illegal_instruction_faults_at_its_pc)
{
	/* M extension words, from riscv64-unknown-elf-as -march=rv32im */
	static const uint32_t m_words[] = {
		0x02b50533,	/* mul a0, a0, a1 */
		0x027342b3,	/* div t0, t1, t2 */
	};
	static struct ct_prog c;
	struct kohaku_job_status st;
	unsigned int u, k;
	uint32_t pc;
	uint64_t dbg;
	CT_OPEN(dev, nd, nc);

	for (u = 0; u < nc; u++)
		for (k = 0; k < 2; k++) {
			ct_begin(&c, 0x800 + 0x20 * k);
			kohaku_rv_asm_li(&c.a, A0, 6);
			kohaku_rv_asm_li(&c.a, KOHAKU_RV_A1, 7);
			kohaku_rv_addi(&c.a, ZERO, ZERO, 0);
			pc = kohaku_rv_asm_pc(&c.a);
			kohaku_rv_asm_word(&c.a, m_words[k]);
			kohaku_rv_ecall(&c.a);
			CHECK_EQ(ct_run_asm(dev, &nd[u], &c, 0, false, &st), 0);
			CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
			CHECK_EQ(st.n_faults, 1);
			CHECK_EQ(st.fault_x, nd[u].x);
			CHECK_EQ(st.fault_y, nd[u].y);
			/* the faulting instruction's PC is the code */
			CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
			CHECK_MSG(st.fault_code == pc, "(%u,%u) word 0x%08x: "
				  "code 0x%x, its pc 0x%x", nd[u].x, nd[u].y,
				  m_words[k], st.fault_code, pc);
			/* and it retires, the three before it too */
			REQUIRE(ct_dbg(dev, &nd[u], &dbg));
			CHECK_EQ(KH_CPU_DBG_RETIRED(dbg), 4);
		}
	rt_close_card(dev);
}

/* sw v, off(base) for the words of a BO, then halt with or without a flush */
static void st_asm(struct kohaku_rv_asm *a, bool flush)
{
	unsigned int k;

	ct_prologue(a);
	kohaku_rv_lw(a, KOHAKU_RV_A1, KOHAKU_RV_S1, 0);
	kohaku_rv_asm_li(a, KOHAKU_RV_T0, 0x5eed0000);
	for (k = 0; k < 16; k++) {
		kohaku_rv_addi(a, KOHAKU_RV_T1, KOHAKU_RV_T0, (int32_t)k);
		kohaku_rv_sw(a, KOHAKU_RV_T1, KOHAKU_RV_A1, (int32_t)(4 * k));
	}
	kohaku_rv_addi(a, A0, ZERO, 0);
	if (flush)
		ct_flush_ecall(a);
	else
		kohaku_rv_ecall(a);
}

/* the 16 words the stores write (stored) or the host's fill (not) */
static unsigned int st_check(kohaku_device *dev, const struct ct_buf *b,
			     bool stored, const char *when)
{
	uint32_t got[16];
	unsigned int k, bad = 0;

	if (kohaku_bo_read(dev, b->h, 0, got, sizeof(got)))
		return 16;
	for (k = 0; k < 16; k++) {
		uint32_t want = stored ? 0x5eed0000 + k : PS_GUARD;

		if (got[k] != want && bad++ < 2)
			check_diag("%s: word %u = 0x%08x, expected 0x%08x", when, k,
				 got[k], want);
	}
	return bad;
}

/* ---- the driver's L1 flush (cpu.md "The driver's L1 flush") ---- */

TEST_F(rt, the_flush_stub_is_what_the_assembler_makes)
{
	/* kh_cpu.h's words against the encoders (themselves against GNU as) */
	CHECK_EQ(KH_CPU_STUB_W0, kohaku_rv_lui(NULL, KOHAKU_RV_T0,
					       KH_CPU_CTL_BASE >> 12));
	CHECK_EQ(KH_CPU_STUB_W1, kohaku_rv_sw(NULL, ZERO, KOHAKU_RV_T0,
					      KH_CPU_CTL_FLUSH));
	CHECK_EQ(KH_CPU_STUB_W2, kohaku_rv_sw(NULL, ZERO, KOHAKU_RV_T0,
					      KH_CPU_CTL_INVAL));
	CHECK_EQ(KH_CPU_STUB_W3, kohaku_rv_ecall(NULL));
	CHECK_EQ(KH_CPU_STUB_FILL, KOHAKU_RV_INVALID);
	CHECK_EQ(KH_CPU_STUB_GRANULE, 255);
	CHECK_EQ(KH_CPU_STUB_PC, 0x1fe0);
	CHECK_EQ(KH_CPU_STUB_PC / 4, KH_CPU_IMEM_WORDS - 8);
}

/* the retirements of a one-kick program and the stub after it */
static void st_two_retires(kohaku_device *dev, const struct drm_kohaku_node *nd,
			   unsigned long long *prog, unsigned long long *stub)
{
	unsigned int code[4];
	uint32_t arg[4];
	unsigned long long when[4] = { 0 };
	int nt = ct_retires_at(dev, nd, code, arg, when, 4);

	*prog = *stub = 0;
	if (nt < 0)
		return;
	CHECK_MSG(nt == 2, "(%u,%u): %d retirements, the program's and the "
		  "flush stub's expected", nd->x, nd->y, nt);
	if (nt != 2)
		return;
	/* both the batch's last, with the program's txn: no credit back */
	CHECK_EQ(code[0], KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(code[1], KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(arg[1], 0);
	*prog = when[0];
	*stub = when[1];
}

TEST_F(rt, stores_reach_dram_without_a_flush)
{
	static struct ct_prog c[MAX_CPU];
	struct kohaku_program p[MAX_CPU];
	struct kohaku_job_status st;
	struct ct_buf b[MAX_CPU];
	unsigned long long prog[MAX_CPU], stub[MAX_CPU];
	unsigned int u, v;
	uint64_t dbg;
	bool traced;
	CT_OPEN(dev, nd, nc);

	traced = kohaku_sim_command(dev, "trace on events=unit") == 0;
	for (u = 0; u < nc; u++)
		REQUIRE(ct_buf(dev, &nd[u], 4096, PS_GUARD, &b[u]) == 0);
	/*
	 * Stores, ECALL, no flush: the halt leaves them in the L1, and the
	 * driver's stub writes them back before the job is DONE.
	 */
	for (u = 0; u < nc; u++) {
		ct_begin(&c[u], 0);
		st_asm(&c[u].a, false);
		c[u].spad[0] = b[u].cpu_addr;
		if (traced)
			kohaku_sim_command(dev, "trace clear");
		CHECK_EQ(ct_run_asm(dev, &nd[u], &c[u], 0, false, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(st_check(dev, &b[u], true, "stored, unflushed"), 0);
		/* CU_DBG: the program's count, not the stub's */
		REQUIRE(ct_dbg(dev, &nd[u], &dbg));
		CHECK_EQ(KH_CPU_DBG_RETIRED(dbg), c[u].a.n);
		if (traced)
			st_two_retires(dev, &nd[u], &prog[u], &stub[u]);
	}
	/* every cpu in one job: each stub after every program retired */
	for (u = 0; u < nc; u++) {
		CHECK_OK(dev, kohaku_bo_write(dev, b[u].h, 0, (uint32_t[16]){
			PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
			PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
			PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
			PS_GUARD }, 64));
		ct_begin(&c[u], 0x100 * u);
		st_asm(&c[u].a, false);
		c[u].spad[0] = b[u].cpu_addr;
		REQUIRE(ct_program(&c[u], &p[u], &nd[u], 0, false));
	}
	if (traced)
		kohaku_sim_command(dev, "trace clear");
	CHECK_EQ(rt_run(dev, p, nc, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	for (u = 0; u < nc; u++) {
		CHECK_EQ(st_check(dev, &b[u], true, "every cpu, unflushed"), 0);
		if (traced)
			st_two_retires(dev, &nd[u], &prog[u], &stub[u]);
	}
	for (u = 0; traced && u < nc; u++)
		for (v = 0; v < nc; v++)
			CHECK_MSG(stub[u] > prog[v], "the stub on (%u,%u) retired "
				  "at %llu, the program on (%u,%u) at %llu",
				  nd[u].x, nd[u].y, stub[u], nd[v].x, nd[v].y,
				  prog[v]);
	if (traced)
		kohaku_sim_command(dev, "trace off");
	for (u = 0; u < nc; u++)
		ct_buf_free(dev, &b[u]);
	rt_close_card(dev);
}

/* t0 = src[0], dst[0] = t0: no invalidate, no flush (the driver's) */
static void copy_asm(struct kohaku_rv_asm *a)
{
	kohaku_rv_asm_li(a, KOHAKU_RV_S1, ARG_ADDR(0));
	kohaku_rv_lw(a, KOHAKU_RV_A1, KOHAKU_RV_S1, 0);
	kohaku_rv_lw(a, KOHAKU_RV_A2, KOHAKU_RV_S1, 4);
	kohaku_rv_lw(a, KOHAKU_RV_T0, KOHAKU_RV_A1, 0);
	kohaku_rv_sw(a, KOHAKU_RV_T0, KOHAKU_RV_A2, 0);
	kohaku_rv_addi(a, A0, ZERO, 0);
	kohaku_rv_ecall(a);
}

TEST_F(rt, a_clean_line_does_not_serve_the_next_job_stale_data)
{
	static struct ct_prog c;
	struct kohaku_job_status st;
	struct ct_buf src, dst;
	uint32_t got, k;
	CT_OPEN(dev, nd, nc);

	(void)nc;
	REQUIRE(ct_buf(dev, &nd[0], 4096, 0, &src) == 0);
	REQUIRE(ct_buf(dev, &nd[0], 4096, PS_GUARD, &dst) == 0);
	/*
	 * Job k loads src[0] (a clean line the job before filled, with no
	 * INVAL of its own) and stores it to dst[0]; the host writes a new
	 * src[0] between the jobs.  The driver's INVAL after each job drops
	 * the line: each job reads what the host wrote.
	 */
	for (k = 0; k < 3; k++) {
		uint32_t v = 0x0c1ea000 + k;

		CHECK_OK(dev, kohaku_bo_write(dev, src.h, 0, &v, 4));
		ct_begin(&c, 0x200);
		copy_asm(&c.a);
		c.spad[0] = src.cpu_addr;
		c.spad[1] = dst.cpu_addr;
		CHECK_EQ(ct_run_asm(dev, &nd[0], &c, 0, false, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_OK(dev, kohaku_bo_read(dev, dst.h, 0, &got, 4));
		CHECK_MSG(got == v, "job %u copied 0x%08x, the host wrote 0x%08x",
			  k, got, v);
	}
	ct_buf_free(dev, &src);
	ct_buf_free(dev, &dst);
	rt_close_card(dev);
}

TEST_F(rt, a_programs_fault_stays_the_jobs_and_its_stores_land)
{
	static struct ct_prog c[2];
	struct kohaku_program p[2];
	struct kohaku_job_status st;
	struct ct_buf b[2];
	uint32_t pc;
	unsigned int u;
	CT_OPEN(dev, nd, nc);

	REQUIRE(ct_buf(dev, &nd[0], 4096, PS_GUARD, &b[0]) == 0);
	/* EBREAK after the stores: FAULT with a0, the stores flushed */
	ct_begin(&c[0], 0);
	st_asm(&c[0].a, false);
	c[0].a.n--;			/* the ECALL: EBREAK instead */
	kohaku_rv_asm_li(&c[0].a, A0, 0xeb0eb0);
	kohaku_rv_ebreak(&c[0].a);
	c[0].spad[0] = b[0].cpu_addr;
	CHECK_EQ(ct_run_asm(dev, &nd[0], &c[0], 0, false, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.n_faults, 1);
	CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(st.fault_code, 0xeb0eb0);
	CHECK_EQ(st.fault_x, nd[0].x);
	CHECK_EQ(st.fault_y, nd[0].y);
	CHECK_EQ(st_check(dev, &b[0], true, "stored, then EBREAK"), 0);
	/* an illegal instruction (MUL): its PC the code, the stores too */
	CHECK_OK(dev, kohaku_bo_write(dev, b[0].h, 0, (uint32_t[16]){
		PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
		PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
		PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD }, 64));
	ct_begin(&c[0], 0x400);
	st_asm(&c[0].a, false);
	c[0].a.n--;
	pc = kohaku_rv_asm_pc(&c[0].a);
	kohaku_rv_asm_word(&c[0].a, 0x02b50533);	/* mul a0, a0, a1 */
	kohaku_rv_ecall(&c[0].a);
	c[0].spad[0] = b[0].cpu_addr;
	CHECK_EQ(ct_run_asm(dev, &nd[0], &c[0], 0, false, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.n_faults, 1);
	CHECK_EQ(st.fault_code, pc);
	CHECK_EQ(st_check(dev, &b[0], true, "stored, then MUL"), 0);
	if (nc < 2) {
		ct_buf_free(dev, &b[0]);
		rt_close_card(dev);
		SKIP(return, "fewer than two cpu units");
	}
	/* two cpus, one faults: the job's fault is its, both flushed */
	REQUIRE(ct_buf(dev, &nd[1], 4096, PS_GUARD, &b[1]) == 0);
	CHECK_OK(dev, kohaku_bo_write(dev, b[0].h, 0, (uint32_t[16]){
		PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
		PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD,
		PS_GUARD, PS_GUARD, PS_GUARD, PS_GUARD }, 64));
	for (u = 0; u < 2; u++) {
		ct_begin(&c[u], 0x600);
		st_asm(&c[u].a, false);
		if (!u) {
			c[u].a.n--;
			kohaku_rv_asm_li(&c[u].a, A0, 0xfa11ed);
			kohaku_rv_ebreak(&c[u].a);
		}
		c[u].spad[0] = b[u].cpu_addr;
		REQUIRE(ct_program(&c[u], &p[u], &nd[u], 0, false));
	}
	CHECK_EQ(rt_run(dev, p, 2, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.n_faults, 1);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, nd[0].x);
	CHECK_EQ(st.fault_y, nd[0].y);
	CHECK_EQ(st.fault_code, 0xfa11ed);
	for (u = 0; u < 2; u++)
		CHECK_EQ(st_check(dev, &b[u], true, "two cpus, one faulted"), 0);
	ct_buf_free(dev, &b[0]);
	ct_buf_free(dev, &b[1]);
	rt_close_card(dev);
}

/*
 * What the flush is for: a lease holder's program leaves dirty lines
 * (stores, ECALL, no flush), gives its buffer and the mesh back; another
 * file's buffer gets the same memory, and an administrator's program on
 * the unit flushes its L1.  Without the driver's flush after the holder's
 * job, that write-back lands the holder's words in the new buffer.
 */
TEST_F(rt, a_dirty_line_never_lands_in_memory_that_changed_hands)
{
	static struct ct_prog c;
	struct kohaku_job_status st;
	struct ct_buf held, next;
	kohaku_device *u;
	CT_OPEN(dev, nd, nc);

	(void)nc;
	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	CHECK_OK(u, kohaku_mesh_lease(u, nd[0].mesh, 1));
	REQUIRE(ct_buf(u, &nd[0], 4096, PS_GUARD, &held) == 0);
	ct_begin(&c, 0);
	st_asm(&c.a, false);
	c.spad[0] = held.cpu_addr;
	CHECK_EQ(ct_run_asm(u, &nd[0], &c, 0, false, &st), 0);
	CHECK_MSG(st.status == KOHAKU_JOB_DONE, "the holder's job: %s: %s",
		  kohaku_job_status_name(st.status), kohaku_last_error(u));
	CHECK_EQ(st_check(u, &held, true, "the holder's stores"), 0);
	ct_buf_free(u, &held);
	CHECK_OK(u, kohaku_mesh_lease(u, nd[0].mesh, 0));
	/* another file, the same memory (first fit), the host's words in it */
	REQUIRE(ct_buf(dev, &nd[0], 4096, PS_GUARD, &next) == 0);
	if (next.dev_addr != held.dev_addr)
		check_diag("the new buffer is at 0x%llx, the freed one was at "
			   "0x%llx: the write-back would miss it anyway",
			   (unsigned long long)next.dev_addr,
			   (unsigned long long)held.dev_addr);
	ct_begin(&c, 0x200);
	kohaku_rv_asm_li(&c.a, KOHAKU_RV_S0, KH_CPU_CTL_BASE);
	ct_flush_ecall(&c.a);
	CHECK_EQ(ct_run_asm(dev, &nd[0], &c, 0, false, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(st_check(dev, &next, false, "the next owner's buffer"), 0);
	ct_buf_free(dev, &next);
	kohaku_close(u);
	rt_close_card(dev);
}

TEST_F(rt, job_data_into_the_stub_granule_is_refused)
{
	static struct ct_prog c;
	static uint32_t w[6 * KH_CPU_GRANULE_WORDS];
	static const struct {
		unsigned int buf, granule, n;
		bool refused;
	} cases[] = {
		{ KH_CPU_BUF_IMEM, 255, 1, true },
		{ KH_CPU_BUF_IMEM_W, 255, 1, true },
		{ KH_CPU_BUF_IMEM, 250, 6, true },
		{ KH_CPU_BUF_IMEM_W, 252, 4, true },
		{ KH_CPU_BUF_IMEM, 254, 1, false },
		{ KH_CPU_BUF_IMEM_W, 249, 6, false },
		{ KH_CPU_BUF_SPAD, 255, 1, false },
		{ KH_CPU_BUF_SPAD_W, 250, 6, false },
	};
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_data d[3];
	kohaku_device *u;
	unsigned int k;
	int r;
	CT_OPEN(dev, nd, nc);

	(void)nc;
	/* a program that only halts; the case's entry beside its image */
	ct_begin(&c, 0);
	kohaku_rv_ecall(&c.a);
	REQUIRE(ct_program(&c, &p, &nd[0], 0, false));
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		d[0] = c.data[0];
		d[1] = c.data[1];
		memset(&d[2], 0, sizeof(d[2]));
		d[2].buf_id = (uint8_t)cases[k].buf;
		d[2].offset = cases[k].granule;
		d[2].size = cases[k].n * KH_CPU_GRANULE_BYTES;
		d[2].data = w;
		p.data = d;
		p.n_data = 3;
		r = rt_run(dev, &p, 1, &st);
		if (cases[k].refused) {
			CHECK_MSG(r == -EINVAL, "buffer %u granules %u..%u: %d, "
				  "not EINVAL", cases[k].buf, cases[k].granule,
				  cases[k].granule + cases[k].n - 1, r);
			CHECK(strstr(kohaku_last_error(dev), "driver") != NULL);
			if (!k)
				check_diag("%s", kohaku_last_error(dev));
		} else {
			CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
				  "buffer %u granules %u..%u: %d %s: %s",
				  cases[k].buf, cases[k].granule,
				  cases[k].granule + cases[k].n - 1, r,
				  kohaku_job_status_name(st.status),
				  kohaku_last_error(dev));
		}
	}
	/* the same for a lease holder: EINVAL, not EACCES */
	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	CHECK_OK(u, kohaku_mesh_lease(u, nd[0].mesh, 1));
	d[2].buf_id = KH_CPU_BUF_IMEM;
	d[2].offset = KH_CPU_STUB_GRANULE;
	d[2].size = KH_CPU_GRANULE_BYTES;
	CHECK_ERR(rt_run(u, &p, 1, &st), -EINVAL);
	p.n_data = 2;
	CHECK_EQ(rt_run(u, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	kohaku_close(u);
	rt_close_card(dev);
}

TEST_F(rt, a_flush_that_does_not_retire_is_the_jobs_timeout)
{
	static struct ct_prog c;
	struct kohaku_job_status st;
	struct drm_kohaku_reset out;
	struct kohaku_program p;
	uint64_t job;
	CT_OPEN(dev, nd, nc);

	(void)nc;
	if (kohaku_sim_inject(dev, "clear")) {
		rt_close_card(dev);
		SKIP(return, "needs the model's knobs (a simulated card)");
	}
	/* the program retires (the first retirement), the stub does not */
	REQUIRE(!rt_inject_at(dev, "hang node=%u,%u after=1", nd[0].x, nd[0].y));
	ct_begin(&c, 0);
	kohaku_rv_ecall(&c.a);
	REQUIRE(ct_program(&c, &p, &nd[0], 0, false));
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 20, &job));
	CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, nd[0].x);
	CHECK_EQ(st.fault_y, nd[0].y);
	check_diag("%s", kohaku_last_error(dev));
	/* a reset ends the hang (and drops the L1): the unit runs again */
	memset(&out, 0, sizeof(out));
	CHECK_OK(dev, kohaku_mesh_reset(dev, nd[0].mesh, &out, sizeof(out)));
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	rt_close_card(dev);
}

TEST_F(rt, a_flush_that_faults_ends_the_job_error)
{
	static struct ct_prog c;
	struct kohaku_job_status st;
	struct ct_buf b;
	CT_OPEN(dev, nd, nc);

	(void)nc;
	if (kohaku_sim_inject(dev, "clear")) {
		rt_close_card(dev);
		SKIP(return, "needs the model's knobs (a simulated card)");
	}
	REQUIRE(ct_buf(dev, &nd[0], 4096, PS_GUARD, &b) == 0);
	/* the stub's retirement turned into a SIG_FAULT by the model's knob */
	REQUIRE(!rt_inject_at(dev, "fault node=%u,%u after=1", nd[0].x, nd[0].y));
	ct_begin(&c, 0);
	st_asm(&c.a, false);
	c.spad[0] = b.cpu_addr;
	CHECK_EQ(ct_run_asm(dev, &nd[0], &c, 0, false, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_ERROR);
	CHECK_EQ(st.reason, KOHAKU_JOB_WHY_NOT_COMPLETION);
	CHECK_EQ(st.fault_x, nd[0].x);
	CHECK_EQ(st.fault_y, nd[0].y);
	check_diag("%s", kohaku_last_error(dev));
	/* the mesh is reset before its next job, which runs */
	CHECK_EQ(ct_run_asm(dev, &nd[0], &c, 0, false, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(st_check(dev, &b, true, "after the reset"), 0);
	ct_buf_free(dev, &b);
	rt_close_card(dev);
}

TEST_F(rt, a_job_that_times_out_and_drains_is_flushed_before_it_leaves)
{
	static struct ct_prog c[2];
	struct kohaku_program p[2];
	struct kohaku_job_status st;
	struct ct_buf b;
	uint64_t job[2];
	int spin;
	CT_OPEN(dev, nd, nc);

	if (nc < 2) {
		rt_close_card(dev);
		SKIP(return, "fewer than two cpu units");
	}
	REQUIRE(ct_buf(dev, &nd[0], 4096, PS_GUARD, &b) == 0);
	/*
	 * Stores (left in the L1), then about 2 ms of counting down: past
	 * the job's 1 ms, within its recovery window.  The job is TIMEOUT;
	 * once it drains the driver flushes the unit before the job leaves
	 * the mesh, which the next job (on another unit) waits for.
	 */
	ct_begin(&c[0], 0);
	st_asm(&c[0].a, false);
	c[0].a.n--;
	spin = kohaku_rv_asm_label(&c[0].a);
	kohaku_rv_asm_li(&c[0].a, KOHAKU_RV_T0, 300000);
	kohaku_rv_asm_bind(&c[0].a, spin);
	kohaku_rv_addi(&c[0].a, KOHAKU_RV_T0, KOHAKU_RV_T0, -1);
	kohaku_rv_asm_branch(&c[0].a, KOHAKU_RV_NE, KOHAKU_RV_T0, ZERO, spin);
	kohaku_rv_ecall(&c[0].a);
	c[0].spad[0] = b.cpu_addr;
	REQUIRE(ct_program(&c[0], &p[0], &nd[0], 0, false));
	ct_begin(&c[1], 0);
	kohaku_rv_ecall(&c[1].a);
	REQUIRE(ct_program(&c[1], &p[1], &nd[1], 0, false));
	CHECK_OK(dev, kohaku_submit(dev, &p[0], 1, 1, &job[0]));
	CHECK_OK(dev, kohaku_submit(dev, &p[1], 1, 0, &job[1]));
	CHECK_OK(dev, kohaku_wait(dev, job[0], 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	CHECK_OK(dev, kohaku_wait(dev, job[1], 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(st_check(dev, &b, true, "after the timed-out job drained"), 0);
	ct_buf_free(dev, &b);
	rt_close_card(dev);
}

/* the scratchpad granule the peer pushes land in on the receiver */
#define PEER_GRANULE	40
#define PEER_WORDS	8

TEST_F(rt, peer_push_into_another_cpus_scratchpad)
{
	static struct ct_prog c;
	struct kohaku_job_status st;
	struct ct_buf b;
	uint32_t got[PEER_WORDS + 1], sum = 0;
	unsigned int k, from, to;
	CT_OPEN(dev, nd, nc);

	if (nc < 2) {
		rt_close_card(dev);
		SKIP(return, "fewer than two cpu units");
	}
	REQUIRE(ct_buf(dev, &nd[0], 4096, PS_GUARD, &b) == 0);
	for (from = 0; from < 2; from++) {
		to = nc - 1 - from;
		/* job 1, on `from`: eight words pushed into `to`'s
		 * scratchpad granule PEER_GRANULE (the 0x3xxx_xxxx window) */
		ct_begin(&c, 0x300);
		kohaku_rv_asm_li(&c.a, KOHAKU_RV_S2,
				 KH_CPU_PEER_ADDR(nd[to].x, nd[to].y, 0,
						  PEER_GRANULE, 0));
		for (k = 0; k < PEER_WORDS; k++) {
			kohaku_rv_asm_li(&c.a, KOHAKU_RV_T0,
					 0xc0de0000u + from * 0x100 + k);
			kohaku_rv_sw(&c.a, KOHAKU_RV_T0, KOHAKU_RV_S2,
				     (int32_t)(4 * k));
		}
		kohaku_rv_addi(&c.a, A0, ZERO, 0);
		kohaku_rv_ecall(&c.a);
		CHECK_EQ(ct_run_asm(dev, &nd[from], &c, 0, false, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		/* job 2, on `to`: copy them and their sum to DRAM; its data
		 * is the image and arguments, not the pushed granule */
		ct_begin(&c, 0x400);
		ct_prologue(&c.a);
		kohaku_rv_lw(&c.a, KOHAKU_RV_A1, KOHAKU_RV_S1, 0);
		kohaku_rv_asm_li(&c.a, KOHAKU_RV_A2, KH_CPU_SPAD_BASE +
				 PEER_GRANULE * KH_CPU_GRANULE_BYTES);
		kohaku_rv_addi(&c.a, KOHAKU_RV_A3, ZERO, 0);
		for (k = 0; k < PEER_WORDS; k++) {
			kohaku_rv_lw(&c.a, KOHAKU_RV_T0, KOHAKU_RV_A2,
				     (int32_t)(4 * k));
			kohaku_rv_add(&c.a, KOHAKU_RV_A3, KOHAKU_RV_A3,
				      KOHAKU_RV_T0);
			kohaku_rv_sw(&c.a, KOHAKU_RV_T0, KOHAKU_RV_A1,
				     (int32_t)(4 * k));
		}
		kohaku_rv_sw(&c.a, KOHAKU_RV_A3, KOHAKU_RV_A1, 4 * PEER_WORDS);
		kohaku_rv_addi(&c.a, A0, KOHAKU_RV_A3, 0);
		ct_flush_ecall(&c.a);
		c.spad[0] = b.cpu_addr;
		CHECK_EQ(ct_run_asm(dev, &nd[to], &c, 0, false, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		REQUIRE(kohaku_bo_read(dev, b.h, 0, got, sizeof(got)) == 0);
		for (k = 0, sum = 0; k < PEER_WORDS; k++) {
			sum += 0xc0de0000u + from * 0x100 + k;
			CHECK_MSG(got[k] == 0xc0de0000u + from * 0x100 + k,
				  "(%u,%u) -> (%u,%u): word %u = 0x%08x",
				  nd[from].x, nd[from].y, nd[to].x, nd[to].y, k,
				  got[k]);
		}
		CHECK_EQ(got[PEER_WORDS], sum);
	}
	ct_buf_free(dev, &b);
	rt_close_card(dev);
}

RT_TEST_MAIN
