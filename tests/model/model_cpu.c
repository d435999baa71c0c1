// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit (rv_pe, docs/spec/cpu.md) through real flits: CU_CTRL for
 * its registers, CU_DATA from the mailbox into its two windows, CU_INST
 * kicks with their completions in NODE_STATUS, and small RV32I programs
 * assembled here (tests/model/mpool.h's encoder) whose results are
 * checked against expectations written from the RISC-V spec and the RTL
 * (plain C references, DRAM read back by the host, cycle counts worked
 * out from the pipeline's rules in docs/spec/cpu.md).
 *
 * The card: two cpu units on one router, MAG's port at (0, 1).
 */
#include "mpool.h"
#include "units/cpu/cpu.h"
#include <kohaku/kh_cpu.h>
#include "harness.h"

CHECK_FIXTURE(model)

#define MAP2 \
	"xxx cpu xxx\n" \
	"mag nul nul\n" \
	"xxx cpu xxx\n"

#define AX	1	/* unit A */
#define AY	0
#define BX	1	/* unit B */
#define BY	2

#define ZERO	0
#define RA	1
#define T0	5
#define T1	6
#define T2	7
#define S0	8
#define S1	9
#define A0	10
#define A1	11
#define A2	12

#define CTL(off)	(KH_CPU_CTL_BASE + (off))
#define FENCE_ANY	0x8330f00fu	/* MISC-MEM with junk fields */

static struct mp_prog pg;

static struct ksim_card *open2(void)
{
	return mh_card(MAP2);
}

static struct ksim_cpu *unit(struct ksim_card *c, unsigned int x,
			     unsigned int y)
{
	return ksim_cpu_of(ksim_unit_at(c, 0, x, y));
}

/* A CU_DATA descriptor from the mailbox. */
static void cd_desc(struct ksim_card *c, unsigned int x, unsigned int y,
		    unsigned int buf, unsigned int off, unsigned int n)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_DATA, 0x21, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, off);
	kh_flit_set(&f, KH_DATA_LEN, n - 1);
	mm_mb_send(c, 0, &f);
}

/* n granules of eight words each into buf at granule off. */
static void cd_granules(struct ksim_card *c, unsigned int x, unsigned int y,
			unsigned int buf, unsigned int off, unsigned int n,
			const u32 *w)
{
	struct kh_flit f;
	unsigned int i, j;

	cd_desc(c, x, y, buf, off, n);
	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_DATA, 0x21, i + 1 == n);
		for (j = 0; j < 8; j++)
			ksim_payload_set_u32(f.w, j, w[i * 8 + j]);
		mm_mb_send(c, 0, &f);
	}
	ksim_run(c, 300);
}

/* One word burst (buffer 4 or 5). */
static void cd_word(struct ksim_card *c, unsigned int x, unsigned int y,
		    unsigned int buf, unsigned int off, unsigned int sel,
		    unsigned int be, u32 d)
{
	struct kh_flit f;

	cd_desc(c, x, y, buf, off, 1);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_DATA, 0x21, 1);
	kh_flit_set(&f, KH_CPU_WORD_SEL, sel);
	kh_flit_set(&f, KH_CPU_WORD_BE, be);
	kh_flit_set(&f, KH_CPU_WORD_DATA, d);
	mm_mb_send(c, 0, &f);
	ksim_run(c, 200);
}

/* A program into the instruction window at granule 0. */
static void load(struct ksim_card *c, unsigned int x, unsigned int y,
		 const struct mp_prog *p)
{
	u32 w[KH_CPU_IMEM_WORDS];
	unsigned int n = (p->n + 7) / 8;

	memset(w, 0, sizeof(w));
	memcpy(w, p->w, p->n * 4);
	cd_granules(c, x, y, KH_CPU_BUF_IMEM, 0, n ? n : 1, w);
}

static void kick(struct ksim_card *c, unsigned int x, unsigned int y,
		 unsigned int op, u32 pc, u32 arg)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_INST, 0x33, 0);
	kh_flit_set(&f, KH_CPU_INST_OP, op);
	kh_flit_set(&f, KH_CPU_INST_PC, pc);
	kh_flit_set(&f, KH_CPU_INST_ARG, arg);
	mm_mb_send(c, 0, &f);
}

/* Kick and wait for the completion: its NODE_STATUS, or 0. */
static u64 run_at(struct ksim_card *c, unsigned int x, unsigned int y,
		  unsigned int op, u32 pc, u32 arg)
{
	unsigned int want = KH_NS_COUNT(mm_ns(c, 0, x, y)) + 1;
	u64 done = 0, ns;

	kick(c, x, y, op, pc, arg);
	for (;;) {
		ns = mm_ns(c, 0, x, y);
		if (KH_NS_COUNT(ns) == (want & 0xffff))
			return ns;
		if (done >= 2000000)
			return 0;
		ksim_run(c, 100);
		done += 100;
	}
}

/* Load p, kick at 0, wait: the completion's NODE_STATUS. */
static u64 run(struct ksim_card *c, unsigned int x, unsigned int y,
	       const struct mp_prog *p)
{
	load(c, x, y, p);
	return run_at(c, x, y, KH_CPU_OP_KICK, 0, 0);
}

static bool done_ok(u64 ns, u32 want)
{
	return ns && KH_NS_CODE(ns) == KH_SIG_INST_COMPLETE &&
	       KH_NS_ARG(ns) == want;
}

static bool done_fault(u64 ns, u32 want)
{
	return ns && KH_NS_CODE(ns) == KH_SIG_FAULT && KH_NS_ARG(ns) == want;
}

static u64 dbg(struct ksim_card *c, unsigned int x, unsigned int y)
{
	return mm_ctrl_rd(c, 0, x, y, KH_CTRL_IDX_DBG);
}

static void dram_put(struct ksim_card *c, u32 off, const u32 *w, unsigned int n)
{
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, off), w, n * 4), 0);
}

static u32 dram_get(struct ksim_card *c, u32 off)
{
	u32 w[8];

	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, off & ~31u), w, 32), 0);
	return w[(off & 31) / 4];
}

/* ---- plain-C references, from the RISC-V unprivileged spec ---- */
static u32 ref_sra(u32 a, unsigned int s)
{
	s &= 31;
	return (u32)((int32_t)a >> s);
}

static u32 ref_slt(u32 a, u32 b)
{
	return (int32_t)a < (int32_t)b;
}

TEST_F(model, caps_and_identity)
{
	struct ksim_card *c = open2();
	u64 caps;

	REQUIRE(c);
	caps = mm_ctrl_rd(c, 0, AX, AY, KH_CTRL_IDX_CAPS);
	CHECK_EQ(caps >> KH_CAPS_CU_TYPE_SHIFT, KH_CU_RV);
	/*
	 * rv_pe wires CU_VERSION 0x01 into its base (rv_pe.v:133): whatever
	 * build number the mesh passes its other units (4 under the ship
	 * profile), CU_CAPS says 1; a mesh mixing it with mat or vec units
	 * is one the driver refuses (kohakutpu.md 13).
	 */
	CHECK_EQ((caps >> KH_CAPS_VERSION_SHIFT) & KH_CAPS_VERSION_MASK,
		 KH_CPU_VERSION);
	CHECK_EQ((caps >> KH_CAPS_NBUF_SHIFT) & KH_CAPS_NBUF_MASK, KH_CPU_NBUF);
	CHECK_EQ(dbg(c, AX, AY), 0);
	CHECK_EQ(mm_ctrl_rd(c, 0, AX, AY, KH_CTRL_IDX_STATUS) &
		 KH_STATUS_BUSY, 0);
	ksim_card_destroy(c);
	c = mh_card("param cu_version 1\n" MAP2);
	REQUIRE(c);
	caps = mm_ctrl_rd(c, 0, BX, BY, KH_CTRL_IDX_CAPS);
	CHECK_EQ(caps >> KH_CAPS_CU_TYPE_SHIFT, KH_CU_RV);
	CHECK_EQ((caps >> KH_CAPS_VERSION_SHIFT) & KH_CAPS_VERSION_MASK,
		 KH_CPU_VERSION);
	ksim_card_destroy(c);
}

/* buffer 1 granules, then the kick: ECALL retires with a0 */
TEST_F(model, boot_imem_granules_and_ecall)
{
	struct ksim_card *c = open2();
	u64 ns;

	REQUIRE(c);
	mp_init(&pg);
	mp_li(&pg, A0, 0x12345678);
	mp_emit(&pg, ECALL);
	ns = run(c, AX, AY, &pg);
	CHECK(done_ok(ns, 0x12345678));
	/* a start PC other than 0: a second copy at granule 20 */
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 77));
	mp_emit(&pg, ECALL);
	{
		u32 w[8] = { pg.w[0], pg.w[1] };

		cd_granules(c, AX, AY, KH_CPU_BUF_IMEM, 20, 1, w);
	}
	ns = run_at(c, AX, AY, KH_CPU_OP_KICK, 20 * 32, 0);
	CHECK(done_ok(ns, 77));
	CHECK_EQ(unit(c, AX, AY)->imem[160], pg.w[0]);
	ksim_card_destroy(c);
}

/* buffer 0 granules land in the scratchpad the program reads */
TEST_F(model, boot_spad_granules)
{
	struct ksim_card *c = open2();
	u32 w[16];
	unsigned int i;
	u32 sum = 0;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 16; i++) {
		w[i] = 0x01010101u * (i + 1) + i;
		sum += w[i];
	}
	cd_granules(c, AX, AY, KH_CPU_BUF_SPAD, 255 - 1, 2, w);
	/* sum of the 16 words at granule 254 (byte 254 * 32) */
	mp_init(&pg);
	mp_li(&pg, T0, KH_CPU_SPAD_BASE + 254 * 32);
	mp_emit(&pg, ADDI(A0, ZERO, 0));
	mp_emit(&pg, ADDI(T2, ZERO, 16));
	mp_emit(&pg, LW(T1, T0, 0));
	mp_emit(&pg, ADD(A0, A0, T1));
	mp_emit(&pg, ADDI(T0, T0, 4));
	mp_emit(&pg, ADDI(T2, T2, -1));
	mp_emit(&pg, BNE(T2, ZERO, (u32)-16));
	mp_emit(&pg, ECALL);
	ns = run(c, AX, AY, &pg);
	CHECK(done_ok(ns, sum));
	CHECK_EQ(unit(c, AX, AY)->spad[255 * 8 + 7], w[15]);
	ksim_card_destroy(c);
}

/* buffers 4 and 5: one word, byte enables into the scratchpad only */
TEST_F(model, boot_word_writes)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;
	u64 ns;

	REQUIRE(c);
	s = unit(c, AX, AY);
	cd_word(c, AX, AY, KH_CPU_BUF_SPAD_W, 3, 5, 0xf, 0xa1b2c3d4);
	CHECK_EQ(s->spad[3 * 8 + 5], 0xa1b2c3d4);
	cd_word(c, AX, AY, KH_CPU_BUF_SPAD_W, 3, 5, 0x6, 0x11223344);
	CHECK_EQ(s->spad[3 * 8 + 5], 0xa12233d4);
	cd_word(c, AX, AY, KH_CPU_BUF_SPAD_W, 3, 5, 0x0, 0xffffffff);
	CHECK_EQ(s->spad[3 * 8 + 5], 0xa12233d4);
	/* the instruction window ignores the enables: a whole word */
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 1));
	mp_emit(&pg, ECALL);
	load(c, AX, AY, &pg);
	cd_word(c, AX, AY, KH_CPU_BUF_IMEM_W, 0, 0, 0x1, ADDI(A0, ZERO, 42));
	CHECK_EQ(s->imem[0], ADDI(A0, ZERO, 42));
	ns = run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0);
	CHECK(done_ok(ns, 42));
	/* a word burst of two flits walks the offset */
	{
		struct kh_flit f;
		unsigned int i;

		cd_desc(c, AX, AY, KH_CPU_BUF_SPAD_W, 100, 2);
		for (i = 0; i < 2; i++) {
			memset(&f, 0, sizeof(f));
			kh_flit_hdr(&f, AX, AY, 0, 0, KH_T_CU_DATA, 0, i == 1);
			kh_flit_set(&f, KH_CPU_WORD_SEL, 7);
			kh_flit_set(&f, KH_CPU_WORD_BE, 0xf);
			kh_flit_set(&f, KH_CPU_WORD_DATA, 0x5000 + i);
			mm_mb_send(c, 0, &f);
		}
		ksim_run(c, 200);
		CHECK_EQ(s->spad[100 * 8 + 7], 0x5000);
		CHECK_EQ(s->spad[101 * 8 + 7], 0x5001);
	}
	ksim_card_destroy(c);
}

/* flags[0] asks for SIG_DATA_RECEIVED: rv_pe never sends one */
TEST_F(model, cudata_never_acknowledged)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;
	static const unsigned int buf[] = { KH_CPU_BUF_SPAD, 3 };
	struct kh_flit f;
	unsigned int i, n0;

	REQUIRE(c);
	s = unit(c, AX, AY);
	n0 = KH_NS_COUNT(mm_ns(c, 0, AX, AY));
	for (i = 0; i < KSIM_ARRAY_SIZE(buf); i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, AX, AY, 0, 0, KH_T_CU_DATA, 0x21, 0);
		kh_flit_set(&f, KH_DATA_BUF_ID, buf[i]);
		kh_flit_set(&f, KH_DATA_OFFSET, 4);
		kh_flit_set(&f, KH_DATA_FLAGS, KH_DATAF_SIGNAL);
		mm_mb_send(c, 0, &f);
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, AX, AY, 0, 0, KH_T_CU_DATA, 0x21, 1);
		ksim_payload_set_u32(f.w, 0, 0x5157);
		mm_mb_send(c, 0, &f);
		ksim_run(c, 300);
	}
	CHECK_EQ(s->spad[4 * 8], 0x5157);	/* the first burst landed */
	CHECK_EQ(s->refused, 1);		/* the second was refused */
	CHECK_EQ(KH_NS_COUNT(mm_ns(c, 0, AX, AY)), n0);
	ksim_card_destroy(c);
}

/* every other buffer and every range overflow: counted out, no fault */
TEST_F(model, cudata_refusals)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;
	static const unsigned int bad[] = { 2, 3, 6, 7, 8, 255 };
	u32 w[7 * 8];	/* the longest burst below: 7 granules */
	unsigned int i;
	u64 ns;

	REQUIRE(c);
	s = unit(c, AX, AY);
	for (i = 0; i < KSIM_ARRAY_SIZE(w); i++)
		w[i] = 0xbad00000 + i;
	for (i = 0; i < KSIM_ARRAY_SIZE(bad); i++)
		cd_granules(c, AX, AY, bad[i], 0, 2, w);
	/* offset + len = 256: one past the window, rejected not wrapped */
	cd_granules(c, AX, AY, KH_CPU_BUF_SPAD, 255, 2, w);
	cd_granules(c, AX, AY, KH_CPU_BUF_IMEM, 200, 1, w);
	CHECK_EQ(s->imem[200 * 8], 0xbad00000);
	cd_granules(c, AX, AY, KH_CPU_BUF_IMEM, 250, 7, w);
	CHECK_EQ(s->imem[250 * 8], 0);
	for (i = 0; i < KH_CPU_SPAD_WORDS; i++)
		if (s->spad[i])
			break;
	CHECK_EQ(i, KH_CPU_SPAD_WORDS);
	CHECK_EQ(s->spad[0], 0);
	CHECK_EQ(s->refused, KSIM_ARRAY_SIZE(bad) + 2);
	/* the data flits were counted out: the next burst is a burst */
	cd_granules(c, AX, AY, KH_CPU_BUF_SPAD, 1, 1, w);
	CHECK_EQ(s->spad[8], 0xbad00000);
	/* and nothing faults the next retirement */
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 5));
	mp_emit(&pg, ECALL);
	ns = run(c, AX, AY, &pg);
	CHECK(done_ok(ns, 5));
	ksim_card_destroy(c);
}

/* opcode other than KICK: retires at once with what the last halt left */
TEST_F(model, kick_other_opcode)
{
	struct ksim_card *c = open2();
	u64 ns;

	REQUIRE(c);
	ns = run_at(c, AX, AY, 0, 0, 0);
	CHECK(done_ok(ns, 0));
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 99));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 99));
	ns = run_at(c, AX, AY, 7, 0, 0);
	CHECK(done_ok(ns, 99));
	CHECK_EQ(KH_CPU_DBG_RETIRED(dbg(c, AX, AY)), 2);	/* not run again */
	/* after a fault: SIG_FAULT with the faulting PC again */
	mp_init(&pg);
	mp_emit(&pg, NOP);
	mp_emit(&pg, 0xffffffffu);
	CHECK(done_fault(run(c, AX, AY, &pg), 4));
	/* the faulting instruction retires too: 2 retired, halted at EX 3 */
	CHECK_EQ(dbg(c, AX, AY), (2ULL << 32) | 4);
	CHECK(done_fault(run_at(c, AX, AY, 2, 0, 0), 4));
	/* after EBREAK: SIG_FAULT with a0 */
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 31));
	mp_emit(&pg, EBREAK);
	CHECK(done_fault(run(c, AX, AY, &pg), 31));
	CHECK(done_fault(run_at(c, AX, AY, 0xff, 0, 0), 31));
	ksim_card_destroy(c);
}

/* the RV32I ALU against C, on several operand pairs */
TEST_F(model, alu)
{
	static const u32 pairs[][2] = {
		{ 0x87654321, 0x00000013 }, { 0x00000005, 0xfffffffb },
		{ 0x7fffffff, 0x80000000 }, { 0xdeadbeef, 0xdeadbeef },
		{ 0x00000000, 0x0000001f },
	};
	struct ksim_card *c = open2();
	struct ksim_cpu *s;
	unsigned int k, i;

	REQUIRE(c);
	s = unit(c, AX, AY);
	for (k = 0; k < KSIM_ARRAY_SIZE(pairs); k++) {
		u32 a = pairs[k][0], b = pairs[k][1], want[24], apc;

		mp_init(&pg);
		mp_li(&pg, T0, a);
		mp_li(&pg, T1, b);
		mp_li(&pg, S0, KH_CPU_SPAD_BASE);
		mp_emit(&pg, ADD(A0, T0, T1));
		mp_emit(&pg, SUB(A1, T0, T1));
		mp_emit(&pg, SLL(A2, T0, T1));
		mp_emit(&pg, SLT(13, T0, T1));
		mp_emit(&pg, SLTU(14, T0, T1));
		mp_emit(&pg, XOR(15, T0, T1));
		mp_emit(&pg, SRL(16, T0, T1));
		mp_emit(&pg, SRA(17, T0, T1));
		mp_emit(&pg, OR(18, T0, T1));
		mp_emit(&pg, AND(19, T0, T1));
		mp_emit(&pg, ADDI(20, T0, -2048));
		mp_emit(&pg, SLTI(21, T0, -1));
		mp_emit(&pg, SLTIU(22, T0, -1));
		mp_emit(&pg, XORI(23, T0, 0x7ff));
		mp_emit(&pg, ORI(24, T0, -16));
		mp_emit(&pg, ANDI(25, T0, 0x0f0));
		mp_emit(&pg, SLLI(26, T0, 7));
		mp_emit(&pg, SRLI(27, T0, 31));
		mp_emit(&pg, SRAI(28, T0, 9));
		mp_emit(&pg, LUI(29, 0xfffff000));
		apc = mp_here(&pg);
		mp_emit(&pg, AUIPC(30, 0x00001000));
		mp_emit(&pg, ADD(31, ZERO, T0));	/* x0 reads 0 */
		mp_emit(&pg, ADDI(ZERO, T0, 1));	/* x0 stays 0 */
		mp_emit(&pg, ADD(9, ZERO, ZERO));
		for (i = 0; i < 22; i++)
			mp_emit(&pg, SW(10 + i, S0, 4 * i));
		mp_emit(&pg, SW(9, S0, 4 * 22));
		mp_emit(&pg, ECALL);
		want[0] = a + b;
		want[1] = a - b;
		want[2] = a << (b & 31);
		want[3] = ref_slt(a, b);
		want[4] = a < b;
		want[5] = a ^ b;
		want[6] = a >> (b & 31);
		want[7] = ref_sra(a, b);
		want[8] = a | b;
		want[9] = a & b;
		want[10] = a - 2048;
		want[11] = ref_slt(a, 0xffffffff);
		want[12] = a < 0xffffffffu;
		want[13] = a ^ 0x7ff;
		want[14] = a | 0xfffffff0;
		want[15] = a & 0xf0;
		want[16] = a << 7;
		want[17] = a >> 31;
		want[18] = ref_sra(a, 9);
		want[19] = 0xfffff000;
		want[20] = apc + 0x1000;
		want[21] = a;
		want[22] = 0;
		CHECK(done_ok(run(c, AX, AY, &pg), a + b));
		for (i = 0; i < 23; i++)
			CHECK_MSG(s->spad[i] == want[i], "pair %u op %u: %08x != %08x",
				  k, i, s->spad[i], want[i]);
	}
	ksim_card_destroy(c);
}

/* every branch, both ways; JAL and JALR links and targets */
TEST_F(model, branches_and_jumps)
{
	static const u32 pairs[][2] = {
		{ 1, 1 }, { 1, 2 }, { 0xffffffff, 1 }, { 1, 0xffffffff },
		{ 0x80000000, 0x7fffffff },
	};
	static const unsigned int f3s[6] = { 0, 1, 4, 5, 6, 7 };
	struct ksim_card *c = open2();
	unsigned int k, i;

	REQUIRE(c);
	for (k = 0; k < KSIM_ARRAY_SIZE(pairs); k++) {
		u32 a = pairs[k][0], b = pairs[k][1], want = 0;

		mp_init(&pg);
		mp_li(&pg, T0, a);
		mp_li(&pg, T1, b);
		mp_emit(&pg, ADDI(A0, ZERO, 0));
		for (i = 0; i < 6; i++) {
			bool t;

			mp_emit(&pg, rv_b(8, T0, T1, f3s[i]));
			mp_emit(&pg, JAL(ZERO, 8));
			mp_emit(&pg, ORI(A0, A0, 1u << i));
			switch (f3s[i]) {
			case 0: t = a == b; break;
			case 1: t = a != b; break;
			case 4: t = (int32_t)a < (int32_t)b; break;
			case 5: t = (int32_t)a >= (int32_t)b; break;
			case 6: t = a < b; break;
			default: t = a >= b; break;
			}
			if (t)
				want |= 1u << i;
		}
		mp_emit(&pg, ECALL);
		CHECK_MSG(done_ok(run(c, AX, AY, &pg), want), "pair %u", k);
	}
	/* JAL forward links pc+4; JALR to an odd sum clears bit 0 */
	mp_init(&pg);
	mp_emit(&pg, JAL(RA, 12));		/* 0x00 -> 0x0c, ra = 4 */
	mp_emit(&pg, ADDI(A0, ZERO, 1));	/* 0x04: skipped */
	mp_emit(&pg, ECALL);			/* 0x08 */
	mp_emit(&pg, ADDI(T0, ZERO, 0x19));	/* 0x0c */
	mp_emit(&pg, JALR(S0, T0, 0));		/* 0x10 -> 0x18, s0 = 0x14 */
	mp_emit(&pg, ECALL);			/* 0x14 */
	mp_emit(&pg, SLLI(A0, RA, 8));		/* 0x18 (pc 0x18, not 0x19) */
	mp_emit(&pg, OR(A0, A0, S0));
	mp_emit(&pg, AUIPC(A1, 0));		/* 0x20 */
	mp_emit(&pg, SLLI(A1, A1, 16));
	mp_emit(&pg, OR(A0, A0, A1));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 0x200414));
	ksim_card_destroy(c);
}

/* loads and stores of each size in the scratchpad, with its aliasing */
TEST_F(model, loads_and_stores)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;
	unsigned int i;
	u32 want[9];

	REQUIRE(c);
	s = unit(c, AX, AY);
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_SPAD_BASE + 0x100);
	mp_li(&pg, T0, 0x8899aabb);
	mp_emit(&pg, SW(T0, S0, 0));
	mp_emit(&pg, LB(10, S0, 0));
	mp_emit(&pg, LB(11, S0, 2));
	mp_emit(&pg, LBU(12, S0, 3));
	mp_emit(&pg, LH(13, S0, 2));
	mp_emit(&pg, LHU(14, S0, 2));
	mp_emit(&pg, LH(15, S0, 0));
	mp_emit(&pg, ADDI(T1, ZERO, 0x7c));
	mp_emit(&pg, SB(T1, S0, 1));
	mp_emit(&pg, LW(16, S0, 0));
	mp_emit(&pg, SH(T1, S0, 6));
	mp_emit(&pg, LW(17, S0, 4));
	/* the window aliases every 8 KiB inside 0x1xxx_xxxx */
	mp_li(&pg, S1, KH_CPU_SPAD_BASE + 0x0abc2000 + 0x100);
	mp_emit(&pg, LW(18, S1, 0));
	for (i = 0; i < 9; i++)
		mp_emit(&pg, SW(10 + i, S0, 0x40 + 4 * i));
	mp_emit(&pg, ECALL);
	want[0] = 0xffffffbb;
	want[1] = 0xffffff99;
	want[2] = 0x88;
	want[3] = 0xffff8899;
	want[4] = 0x8899;
	want[5] = 0xffffaabb;
	want[6] = 0x88997cbb;
	want[7] = 0x007c0000;
	want[8] = 0x88997cbb;
	CHECK(done_ok(run(c, AX, AY, &pg), want[0]));
	for (i = 0; i < 9; i++)
		CHECK_MSG(s->spad[(0x140 / 4) + i] == want[i], "load %u: %08x != %08x",
			  i, s->spad[(0x140 / 4) + i], want[i]);
	ksim_card_destroy(c);
}

/* one program with a faulting word at 8: SIG_FAULT arg 8, rd untouched */
static void fault_case(struct ksim_card *c, u32 setup_addr, u32 insn,
		       const char *what)
{
	mp_init(&pg);
	mp_li(&pg, T0, setup_addr);		/* 0x00, 0x04 */
	mp_emit(&pg, insn);			/* 0x08 */
	mp_emit(&pg, ADDI(A0, ZERO, 1));
	mp_emit(&pg, ECALL);
	unit(c, AX, AY)->x[A1] = 0x5a5a5a5a;
	CHECK_MSG(done_fault(run(c, AX, AY, &pg), 8), "%s", what);
	CHECK_MSG(unit(c, AX, AY)->x[A1] == 0x5a5a5a5a, "%s wrote rd", what);
}

TEST_F(model, faults)
{
	struct ksim_card *c = open2();

	REQUIRE(c);
	/* illegal encodings: the M extension is not rv_pe's */
	fault_case(c, 3, MUL(A1, T0, T0), "mul");
	fault_case(c, 3, DIVU(A1, T0, T0), "divu");
	fault_case(c, 3, rv_r(0x20, T0, T0, 1, A1, RV_OP), "sll f7 0x20");
	fault_case(c, 3, rv_i(0x400 | 3, T0, 1, A1, RV_OPIMM), "slli f7 0x20");
	fault_case(c, 3, rv_i(0x200 | 3, T0, 5, A1, RV_OPIMM), "srli f7 0x10");
	fault_case(c, 3, CSRR(A1, 0xc00), "csrr cycle");
	fault_case(c, 3, WFI, "wfi");
	fault_case(c, 3, 0x30200073u, "mret");
	fault_case(c, 3, 0x00000000u, "all zeros");
	fault_case(c, 3, rv_r(0, T0, T0, 0, A1, KH_CPU_OPC_CUSTOM0), "custom-0 (DSP)");
	fault_case(c, 3, rv_r(0, T0, T0, 0, A1, KH_CPU_OPC_CUSTOM1), "custom-1 (FP16)");
	fault_case(c, 3, rv_b(8, T0, T0, 2), "branch f3 2");
	fault_case(c, 3, rv_i(0, T0, 1, A1, 0x67), "jalr f3 1");
	fault_case(c, KH_CPU_SPAD_BASE, rv_i(0, T0, 3, A1, RV_LOAD), "ld");
	fault_case(c, KH_CPU_SPAD_BASE, rv_i(0, T0, 6, A1, RV_LOAD), "lwu");
	fault_case(c, KH_CPU_SPAD_BASE, rv_s(0, A1, T0, 3), "sd");
	/* misaligned */
	fault_case(c, KH_CPU_SPAD_BASE + 2, LW(A1, T0, 0), "lw +2");
	fault_case(c, KH_CPU_SPAD_BASE + 1, LH(A1, T0, 0), "lh +1");
	fault_case(c, KH_CPU_SPAD_BASE + 3, LHU(A1, T0, 0), "lhu +3");
	fault_case(c, KH_CPU_SPAD_BASE + 1, SW(A1, T0, 0), "sw +1");
	fault_case(c, KH_CPU_DRAM_BASE + 6, SW(A1, T0, -4), "sw dram +2");
	/* unmapped regions and the push-only window */
	fault_case(c, 0x00000000, LW(A1, T0, 0), "lw imem");
	fault_case(c, 0x00000000, SW(A1, T0, 0), "sw imem");
	fault_case(c, KH_CPU_PEER_BASE, LW(A1, T0, 0), "lw peer");
	fault_case(c, KH_CPU_VSPAD_BASE, SW(A1, T0, 0), "sw vspad (DSP)");
	fault_case(c, 0x50000000, LW(A1, T0, 0), "lw 0x5");
	fault_case(c, 0x7ffffffc, LW(A1, T0, 0), "lw 0x7");
	ksim_card_destroy(c);
}

/* FENCE and any MISC-MEM word are no-ops; SYSTEM is ECALL/EBREAK only */
TEST_F(model, misc_mem_is_nop)
{
	struct ksim_card *c = open2();

	REQUIRE(c);
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 3));
	mp_emit(&pg, FENCE);
	mp_emit(&pg, FENCE_I);
	mp_emit(&pg, FENCE_ANY);
	mp_emit(&pg, ADDI(A0, A0, 4));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 7));
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 3));
	mp_emit(&pg, 0x00100073u | (1u << 7));	/* EBREAK with rd 1 */
	CHECK(done_fault(run(c, AX, AY, &pg), 4));
	ksim_card_destroy(c);
}

/* the control words: COREID, ARG, CAUSE (cleared by the kick) */
TEST_F(model, control_words)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;

	REQUIRE(c);
	s = unit(c, BX, BY);
	mp_init(&pg);
	mp_emit(&pg, LUI(S0, KH_CPU_CTL_BASE));
	mp_emit(&pg, LW(A0, S0, KH_CPU_CTL_ARG));
	mp_emit(&pg, LW(A1, S0, KH_CPU_CTL_COREID));
	mp_emit(&pg, LW(A2, S0, KH_CPU_CTL_CAUSE));
	mp_emit(&pg, LW(13, S0, KH_CPU_CTL_STATUS));
	mp_emit(&pg, LW(14, S0, KH_CPU_CTL_WROUT));
	mp_emit(&pg, LW(15, S0, 0x100 + KH_CPU_CTL_ARG));	/* aliases */
	mp_emit(&pg, LBU(16, S0, KH_CPU_CTL_ARG + 2));
	mp_emit(&pg, LW(17, S0, 0x3c));				/* unused: 0 */
	mp_emit(&pg, SW(S0, S0, KH_CPU_CTL_CAUSE));		/* ignored */
	mp_emit(&pg, ECALL);
	load(c, BX, BY, &pg);
	CHECK(done_ok(run_at(c, BX, BY, KH_CPU_OP_KICK, 0, 0xcafe1234),
		      0xcafe1234));
	CHECK_EQ(s->x[A1], (BY << 4) | BX);
	CHECK_EQ(s->x[A2], 0);
	CHECK_EQ(s->x[13], 0);
	CHECK_EQ(s->x[14], 0);
	CHECK_EQ(s->x[15], 0xcafe1234);
	CHECK_EQ(s->x[16], 0xfe);
	CHECK_EQ(s->x[17], 0);
	/* after a fault, the next kick reads CAUSE 0 again */
	mp_init(&pg);
	mp_emit(&pg, 0xffffffffu);
	CHECK(done_fault(run(c, BX, BY, &pg), 0));
	CHECK_EQ(s->cause, KH_CPU_CAUSE_FAULT);
	mp_init(&pg);
	mp_emit(&pg, LUI(S0, KH_CPU_CTL_BASE));
	mp_emit(&pg, LW(A0, S0, KH_CPU_CTL_CAUSE));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, BX, BY, &pg), 0));
	ksim_card_destroy(c);
}

/*
 * CYCLE and INSTRET as instruction i reads them in MEM: the first
 * instruction is in EX two cycles after cyc_q reads 0, MEM one later, so
 * i reads 3 + i cycles; instructions 0..i-2 have left WB.
 */
TEST_F(model, cycle_and_instret_reads)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;

	REQUIRE(c);
	s = unit(c, AX, AY);
	mp_init(&pg);
	mp_emit(&pg, LUI(S0, KH_CPU_CTL_BASE));			/* 0 */
	mp_emit(&pg, NOP);					/* 1 */
	mp_emit(&pg, LW(A0, S0, KH_CPU_CTL_CYCLE));		/* 2 */
	mp_emit(&pg, LW(A1, S0, KH_CPU_CTL_INSTRET));		/* 3 */
	mp_emit(&pg, NOP);
	mp_emit(&pg, NOP);
	mp_emit(&pg, LW(A2, S0, KH_CPU_CTL_INSTRET));		/* 6 */
	mp_emit(&pg, LW(13, S0, KH_CPU_CTL_CYCLE));		/* 7 */
	mp_emit(&pg, ECALL);					/* 8 */
	CHECK(done_ok(run(c, AX, AY, &pg), 5));
	CHECK_EQ(s->x[A1], 2);
	CHECK_EQ(s->x[A2], 5);
	CHECK_EQ(s->x[13], 10);
	ksim_card_destroy(c);
}

/*
 * CU_DBG = {retired, cycles} since the kick: N plain instructions and
 * ECALL in EX at cycle N + 2 after cyc_q's 0 read N + 3 cycles, N + 1
 * retired (the ECALL included).
 */
TEST_F(model, cu_dbg_counts)
{
	struct ksim_card *c = open2();
	unsigned int i;
	u64 d;

	REQUIRE(c);
	mp_init(&pg);
	for (i = 0; i < 20; i++)
		mp_emit(&pg, ADDI(T0, T0, 1));
	mp_emit(&pg, ECALL);
	CHECK(run(c, AX, AY, &pg) != 0);
	d = dbg(c, AX, AY);
	CHECK_EQ(KH_CPU_DBG_RETIRED(d), 21);
	CHECK_EQ(KH_CPU_DBG_CYCLES(d), 23);
	/* the next kick starts both from 0 */
	mp_init(&pg);
	mp_emit(&pg, ECALL);
	CHECK(run(c, AX, AY, &pg) != 0);
	d = dbg(c, AX, AY);
	CHECK_EQ(KH_CPU_DBG_RETIRED(d), 1);
	CHECK_EQ(KH_CPU_DBG_CYCLES(d), 3);
	ksim_card_destroy(c);
}

/* load use: two bubbles at distance 1, one at distance 2, none at 3 */
TEST_F(model, timing_load_use)
{
	struct ksim_card *c = open2();
	unsigned int d;

	REQUIRE(c);
	for (d = 1; d <= 3; d++) {
		unsigned int i;

		mp_init(&pg);
		mp_emit(&pg, LUI(S0, KH_CPU_SPAD_BASE));
		mp_emit(&pg, LW(T1, S0, 0));
		for (i = 1; i < d; i++)
			mp_emit(&pg, NOP);
		mp_emit(&pg, ADDI(T2, T1, 1));
		mp_emit(&pg, ECALL);
		CHECK(run(c, AX, AY, &pg) != 0);
		/* d + 3 instructions, ECALL at EX cycle d + 4 + bubbles */
		CHECK_MSG(KH_CPU_DBG_CYCLES(dbg(c, AX, AY)) ==
			  d + 5 + (d == 1 ? 2 : d == 2 ? 1 : 0),
			  "distance %u: %u cycles", d,
			  KH_CPU_DBG_CYCLES(dbg(c, AX, AY)));
	}
	/* an ALU result is forwarded at distance 1: no bubble */
	mp_init(&pg);
	mp_emit(&pg, ADDI(T1, ZERO, 1));
	mp_emit(&pg, ADDI(T2, T1, 1));
	mp_emit(&pg, ADD(A0, T2, T1));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 3));
	CHECK_EQ(KH_CPU_DBG_CYCLES(dbg(c, AX, AY)), 6);
	ksim_card_destroy(c);
}

/*
 * The sweeps' lengths on a clean L1 (rv_l1.v:262-312, rv_mem.v:208-236):
 * a FLUSH store in MEM at cycle m completes at m + 261 (two cycles per
 * line, drain, reprobe, the handshake), an INVAL store at m + 132.
 */
TEST_F(model, timing_sweeps)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;

	REQUIRE(c);
	s = unit(c, AX, AY);
	mp_init(&pg);
	mp_emit(&pg, LUI(T0, KH_CPU_CTL_BASE));
	mp_emit(&pg, LW(A1, T0, KH_CPU_CTL_CYCLE));	/* MEM at 4: reads 4 */
	mp_emit(&pg, SW(ZERO, T0, KH_CPU_CTL_FLUSH));	/* MEM at 5 */
	mp_emit(&pg, LW(A0, T0, KH_CPU_CTL_CYCLE));
	mp_emit(&pg, SW(ZERO, T0, KH_CPU_CTL_INVAL));
	mp_emit(&pg, LW(A2, T0, KH_CPU_CTL_CYCLE));
	mp_emit(&pg, ECALL);
	CHECK(run(c, AX, AY, &pg) != 0);
	CHECK_EQ(s->x[A1], 4);
	CHECK_EQ(s->x[A0], 5 + 261 + 1);
	/* the INVAL store is in MEM the cycle after that load */
	CHECK_EQ(s->x[A2], 5 + 261 + 2 + 132 + 1);
	ksim_card_destroy(c);
}

/*
 * A counted loop: the first taken BNE is predicted not taken (3
 * bubbles), the later ones are predicted taken (none), the exit is
 * predicted taken and falls through (3).  N = 10: ECALL at EX 2N + 9.
 */
TEST_F(model, timing_branch_prediction)
{
	struct ksim_card *c = open2();
	u64 d;

	REQUIRE(c);
	mp_init(&pg);
	mp_emit(&pg, ADDI(T0, ZERO, 10));
	mp_emit(&pg, ADDI(T0, T0, -1));
	mp_emit(&pg, BNE(T0, ZERO, (u32)-4));
	mp_emit(&pg, ECALL);
	CHECK(run(c, AX, AY, &pg) != 0);
	d = dbg(c, AX, AY);
	CHECK_EQ(KH_CPU_DBG_RETIRED(d), 22);
	CHECK_EQ(KH_CPU_DBG_CYCLES(d), 30);
	/* the predictor keeps its entry across kicks: now the first is right */
	CHECK(run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0) != 0);
	CHECK_EQ(KH_CPU_DBG_CYCLES(dbg(c, AX, AY)), 27);
	/* a jump is predicted taken once seen */
	mp_init(&pg);
	mp_emit(&pg, ADDI(T0, ZERO, 4));
	mp_emit(&pg, JAL(ZERO, 8));		/* 0x04 -> 0x0c */
	mp_emit(&pg, ECALL);			/* 0x08 */
	mp_emit(&pg, ADDI(T0, T0, -1));		/* 0x0c */
	mp_emit(&pg, BNE(T0, ZERO, (u32)-12));	/* 0x10 -> 0x04 */
	mp_emit(&pg, JAL(ZERO, (u32)-12));	/* 0x14 -> 0x08 */
	CHECK(run(c, AX, AY, &pg) != 0);
	/*
	 * EX: addi 2; jal 3 (miss, +3); addi 7; bne 8 (miss); jal 12 (hit);
	 * addi 13; bne 14 (hit, counter 2); jal 15; addi 16; bne 17; jal 18;
	 * addi 19; bne 20 (taken predicted, falls: miss); jal 24 (miss,
	 * first time); ecall 28: 29 cycles, 15 retired.
	 */
	d = dbg(c, AX, AY);
	CHECK_EQ(KH_CPU_DBG_RETIRED(d), 15);
	CHECK_EQ(KH_CPU_DBG_CYCLES(d), 29);
	ksim_card_destroy(c);
}

/* DRAM through the L1: a fill, hits, and write-back only on flush */
TEST_F(model, dram_fill_and_flush)
{
	struct ksim_card *c = open2();
	u32 w[16], i;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 16; i++)
		w[i] = 0x1000 + i;
	dram_put(c, 0x2000, w, 16);
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x2000);
	mp_emit(&pg, LW(T0, S0, 4));
	mp_emit(&pg, LW(T1, S0, 36));
	mp_emit(&pg, ADD(A0, T0, T1));
	mp_emit(&pg, ADDI(T2, ZERO, 0x55));
	mp_emit(&pg, SW(T2, S0, 8));		/* a hit: dirty */
	mp_emit(&pg, SB(T2, S0, 0x41));		/* a store miss: allocate */
	mp_emit(&pg, ECALL);
	ns = run(c, AX, AY, &pg);
	CHECK(done_ok(ns, 0x1001 + 0x1009));
	CHECK_EQ(unit(c, AX, AY)->fills, 3);
	/* the halt did not write the dirty lines back */
	CHECK_EQ(dram_get(c, 0x2008), 0x1002);
	ksim_run(c, 2000);
	CHECK_EQ(dram_get(c, 0x2008), 0x1002);
	/* a flush does, and returns with every write acknowledged */
	mp_init(&pg);
	mp_emit(&pg, LUI(S0, KH_CPU_CTL_BASE));
	mp_emit(&pg, SW(ZERO, S0, KH_CPU_CTL_FLUSH));
	mp_emit(&pg, LW(A0, S0, KH_CPU_CTL_STATUS));
	mp_emit(&pg, LW(A1, S0, KH_CPU_CTL_WROUT));
	mp_emit(&pg, ADD(A0, A0, A1));
	mp_emit(&pg, ECALL);
	ns = run(c, AX, AY, &pg);
	CHECK(done_ok(ns, 0));
	CHECK_EQ(dram_get(c, 0x2008), 0x55);
	CHECK_EQ(dram_get(c, 0x2040), 0x5500);
	CHECK_EQ(dram_get(c, 0x2004), 0x1001);	/* the rest of the line kept */
	CHECK_EQ(unit(c, AX, AY)->writebacks, 2);
	/* the lines are clean now: a second flush writes nothing */
	CHECK(done_ok(run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0), 0));
	CHECK_EQ(unit(c, AX, AY)->writebacks, 2);
	ksim_card_destroy(c);
}

/* a line read once is stale until invalidated */
TEST_F(model, dram_stale_until_invalidate)
{
	struct ksim_card *c = open2();
	u32 w[8] = { 11 }, v[8] = { 22 };

	REQUIRE(c);
	dram_put(c, 0x4000, w, 8);
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x4000);
	mp_emit(&pg, LW(A0, S0, 0));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 11));
	dram_put(c, 0x4000, v, 8);
	CHECK(done_ok(run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0), 11));
	mp_init(&pg);
	mp_emit(&pg, LUI(T0, KH_CPU_CTL_BASE));
	mp_emit(&pg, SW(ZERO, T0, KH_CPU_CTL_INVAL));
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x4000);
	mp_emit(&pg, LW(A0, S0, 0));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 22));
	/* invalidate-all drops dirty lines too: the store never lands */
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x4000);
	mp_emit(&pg, ADDI(T1, ZERO, 33));
	mp_emit(&pg, SW(T1, S0, 0));
	mp_emit(&pg, LUI(T0, KH_CPU_CTL_BASE));
	mp_emit(&pg, SW(ZERO, T0, KH_CPU_CTL_INVAL));
	mp_emit(&pg, SW(ZERO, T0, KH_CPU_CTL_FLUSH));
	mp_emit(&pg, LW(A0, S0, 0));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 22));
	CHECK_EQ(dram_get(c, 0x4000), 22);
	ksim_card_destroy(c);
}

/*
 * Two addresses 4 KiB apart share a line: the second access evicts the
 * dirty first, and the completion waits for that write's ack.
 */
TEST_F(model, dram_eviction_and_completion_order)
{
	/* writes land (and are acked) long after the fill's response */
	struct ksim_card *c = mh_card("param mem_wr_latency 3000\n" MAP2);
	u32 w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	unsigned int i, want;
	u64 ns = 0, t0;

	REQUIRE(c);
	dram_put(c, 0x10000, w, 8);
	dram_put(c, 0x11000, w, 8);
	mh_fast_host(c);
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x10000);
	mp_li(&pg, T1, 0x77665544);
	mp_li(&pg, S1, KH_CPU_DRAM_BASE + 0x11000);
	mp_emit(&pg, SW(T1, S0, 12));
	mp_emit(&pg, LW(A0, S1, 28));		/* evicts the dirty line */
	mp_emit(&pg, ECALL);
	load(c, AX, AY, &pg);
	want = KH_NS_COUNT(mm_ns(c, 0, AX, AY)) + 1;
	t0 = ksim_cycles(c);
	kick(c, AX, AY, KH_CPU_OP_KICK, 0, 0);
	for (i = 0; i < 100000; i++) {
		ns = mm_ns(c, 0, AX, AY);	/* one cycle each */
		if (KH_NS_COUNT(ns) == want)
			break;
	}
	CHECK(done_ok(ns, 8));
	/* in the cycle the completion is seen, the write is acknowledged */
	CHECK_EQ(unit(c, AX, AY)->n_out, 0);
	CHECK(ksim_cycles(c) - t0 > 3000);
	/* at the completion the evicted line is in DRAM */
	CHECK_EQ(dram_get(c, 0x1000c), 0x77665544);
	CHECK_EQ(dram_get(c, 0x10000), 1);
	CHECK_EQ(unit(c, AX, AY)->writebacks, 1);
	ksim_card_destroy(c);
}

/* a push from A lands in B's windows; B then runs the pushed code */
TEST_F(model, peer_push)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *b;
	u64 ns;

	REQUIRE(c);
	b = unit(c, BX, BY);
	b->spad[3 * 8 + 2] = 0x11111111;
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_PEER_ADDR(BX, BY, 0, 3, 1));
	mp_li(&pg, T0, 0xdeadbeef);
	mp_emit(&pg, SW(T0, S0, 0));
	mp_emit(&pg, SB(T0, S0, 4 + 2));	/* word 2, byte 2 only */
	mp_emit(&pg, SH(T0, S0, 8 + 2));	/* word 3, high half */
	mp_li(&pg, S1, KH_CPU_PEER_ADDR(BX, BY, 1, 10, 0));
	mp_li(&pg, T1, ADDI(A0, ZERO, 0x123));
	mp_emit(&pg, SW(T1, S1, 0));
	mp_li(&pg, T1, ECALL);
	mp_emit(&pg, SW(T1, S1, 4));
	mp_emit(&pg, ADDI(A0, ZERO, 0));
	mp_emit(&pg, ECALL);
	ns = run(c, AX, AY, &pg);
	CHECK(done_ok(ns, 0));
	CHECK_EQ(unit(c, AX, AY)->pushes, 5);
	ksim_run(c, 200);
	CHECK_EQ(b->spad[3 * 8 + 1], 0xdeadbeef);
	CHECK_EQ(b->spad[3 * 8 + 2], 0x11ef1111);
	CHECK_EQ(b->spad[3 * 8 + 3], 0xbeef0000);
	CHECK_EQ(b->imem[10 * 8 + 0], ADDI(A0, ZERO, 0x123));
	ns = run_at(c, BX, BY, KH_CPU_OP_KICK, 10 * 32, 0);
	CHECK(done_ok(ns, 0x123));
	ksim_card_destroy(c);
}

/* the kick waits for the data queued ahead of it: no stale image runs */
TEST_F(model, kick_waits_for_rx_quiet)
{
	struct ksim_card *c = open2();
	struct kh_flit f;
	unsigned int i, want;
	u64 ns = 0, done;

	REQUIRE(c);
	mh_fast_host(c);
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 1));
	mp_emit(&pg, ECALL);
	load(c, AX, AY, &pg);
	/* a new image (8 granules of a0 = 2 sleds) and the kick, back to back */
	want = KH_NS_COUNT(mm_ns(c, 0, AX, AY)) + 1;
	cd_desc(c, AX, AY, KH_CPU_BUF_IMEM, 0, 8);
	for (i = 0; i < 8; i++) {
		unsigned int j;

		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, AX, AY, 0, 0, KH_T_CU_DATA, 0, i == 7);
		for (j = 0; j < 8; j++)
			ksim_payload_set_u32(f.w, j, i * 8 + j == 0 ?
					     ADDI(A0, ZERO, 2) :
					     i * 8 + j == 63 ? ECALL : NOP);
		mm_mb_send(c, 0, &f);
	}
	kick(c, AX, AY, KH_CPU_OP_KICK, 0, 0);
	for (done = 0; done < 100000; done += 50) {
		ns = mm_ns(c, 0, AX, AY);
		if (KH_NS_COUNT(ns) == want)
			break;
		ksim_run(c, 50);
	}
	CHECK(done_ok(ns, 2));
	ksim_card_destroy(c);
}

/* one burst at a time: a second sender's CU_DATA meanwhile is dropped */
TEST_F(model, cudata_one_burst_at_a_time)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *b;
	struct kh_flit f;
	unsigned int j;

	REQUIRE(c);
	b = unit(c, BX, BY);
	/* A will push one word into B's scratchpad granule 40 */
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_PEER_ADDR(BX, BY, 0, 40, 0));
	mp_li(&pg, T0, 0xabcdef01);
	mp_emit(&pg, SW(T0, S0, 0));
	mp_emit(&pg, ECALL);
	load(c, AX, AY, &pg);
	/* the host opens a two-granule burst into B at granule 10 */
	cd_desc(c, BX, BY, KH_CPU_BUF_SPAD, 10, 2);
	for (j = 0; j < 2; j++) {
		unsigned int k;

		if (j == 1)	/* A's descriptor and word come in between */
			CHECK(done_ok(run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0),
				      0));
		ksim_run(c, 200);
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, BX, BY, 0, 0, KH_T_CU_DATA, 0, j == 1);
		for (k = 0; k < 8; k++)
			ksim_payload_set_u32(f.w, k, 0x100 * (j + 1) + k);
		mm_mb_send(c, 0, &f);
	}
	ksim_run(c, 300);
	CHECK_EQ(b->spad[10 * 8 + 3], 0x103);
	CHECK_EQ(b->spad[11 * 8 + 3], 0x203);
	CHECK_EQ(b->spad[40 * 8], 0);
	/* the burst closed by count: A's next push is a burst of its own */
	CHECK(done_ok(run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0), 0));
	ksim_run(c, 300);
	CHECK_EQ(b->spad[40 * 8], 0xabcdef01);
	ksim_card_destroy(c);
}

/* a granule's words land one per cycle, in order */
TEST_F(model, granule_walk_word_per_cycle)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;
	u64 seen[8] = { 0 };
	unsigned int i, k;
	u32 w[8];

	REQUIRE(c);
	s = unit(c, AX, AY);
	mh_fast_host(c);
	for (i = 0; i < 8; i++)
		w[i] = 0x70 + i;
	cd_desc(c, AX, AY, KH_CPU_BUF_SPAD, 9, 1);
	{
		struct kh_flit f;

		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, AX, AY, 0, 0, KH_T_CU_DATA, 0, 1);
		for (i = 0; i < 8; i++)
			ksim_payload_set_u32(f.w, i, w[i]);
		mm_mb_send(c, 0, &f);
	}
	for (k = 0; k < 200; k++) {
		for (i = 0; i < 8; i++)
			if (!seen[i] && s->spad[9 * 8 + i] == w[i])
				seen[i] = ksim_cycles(c);
		ksim_run(c, 1);
	}
	for (i = 0; i < 8; i++)
		CHECK_MSG(seen[i] && (i == 0 || seen[i] == seen[i - 1] + 1),
			  "word %u at %llu", i, (unsigned long long)seen[i]);
	ksim_card_destroy(c);
}

/* a granule holds the receive path for its eight word writes */
TEST_F(model, granule_backpressure)
{
	struct ksim_card *c = open2();
	u32 w[32 * 8];
	unsigned int i, want;
	u64 t0, ns = 0;

	REQUIRE(c);
	mh_fast_host(c);
	for (i = 0; i < 32 * 8; i++)
		w[i] = ECALL;
	want = KH_NS_COUNT(mm_ns(c, 0, AX, AY)) + 1;
	t0 = ksim_cycles(c);
	cd_desc(c, AX, AY, KH_CPU_BUF_IMEM, 0, 32);
	for (i = 0; i < 32; i++) {
		struct kh_flit f;
		unsigned int j;

		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, AX, AY, 0, 0, KH_T_CU_DATA, 0, i == 31);
		for (j = 0; j < 8; j++)
			ksim_payload_set_u32(f.w, j, w[i * 8 + j]);
		mm_mb_send(c, 0, &f);
	}
	kick(c, AX, AY, KH_CPU_OP_KICK, 0, 0);
	for (i = 0; i < 100000; i++) {
		ns = mm_ns(c, 0, AX, AY);
		if (KH_NS_COUNT(ns) == want)
			break;
	}
	CHECK(done_ok(ns, 0));
	/* 32 granules at nine cycles each before the kick may start */
	CHECK_MSG(ksim_cycles(c) - t0 >= 32 * 9, "%llu cycles",
		  (unsigned long long)(ksim_cycles(c) - t0));
	ksim_card_destroy(c);
}

/* ---- the flits the unit sends, field by field ---- */
struct wire {
	struct kh_flit f[64];
	unsigned int n;
};

static void wire_xfer(void *ctx, const struct ksim_link *l, u64 now)
{
	struct wire *w = ctx;

	(void)now;
	if (l->kind == KSIM_LINK_ENDPOINT && l->x == AX && l->y == AY &&
	    kh_flit_get(&l->reg, KH_HDR_TYPE) != KH_T_CU_SIGNAL &&
	    kh_flit_get(&l->reg, KH_HDR_TYPE) != KH_T_CU_CTRL && w->n < 64)
		w->f[w->n++] = l->reg;
}

static const struct ksim_link_hook wire_hook = { .transfer = wire_xfer };

static bool hdr_is(const struct kh_flit *f, unsigned int dx, unsigned int dy,
		   unsigned int type, unsigned int txn, unsigned int last)
{
	return kh_flit_get(f, KH_HDR_DST_X) == dx &&
	       kh_flit_get(f, KH_HDR_DST_Y) == dy &&
	       kh_flit_get(f, KH_HDR_SRC_X) == AX &&
	       kh_flit_get(f, KH_HDR_SRC_Y) == AY &&
	       kh_flit_get(f, KH_HDR_TYPE) == type &&
	       kh_flit_get(f, KH_HDR_TXN) == txn &&
	       kh_flit_get(f, KH_HDR_LAST) == last &&
	       kh_flit_get(f, KH_HDR_RSVD) == 0;
}

TEST_F(model, wire_format)
{
	static struct wire wr;
	struct ksim_card *c = open2();
	const struct kh_flit *f;
	u32 line[8] = { 0 };
	unsigned int i;

	REQUIRE(c);
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 0));
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x3000);
	mp_emit(&pg, LW(T0, S0, 0));		/* fill, tag 0 */
	mp_emit(&pg, LW(T0, S0, 32));		/* fill, tag 1 */
	mp_emit(&pg, ADDI(T1, ZERO, 0x66));
	mp_emit(&pg, SW(T1, S0, 36));
	mp_emit(&pg, LUI(T2, KH_CPU_CTL_BASE));
	mp_emit(&pg, SW(ZERO, T2, KH_CPU_CTL_FLUSH));	/* one write-back */
	mp_li(&pg, S1, KH_CPU_PEER_ADDR(BX, BY, 1, 0x123, 6));
	mp_emit(&pg, SH(T1, S1, 2));		/* a push */
	mp_emit(&pg, ECALL);
	load(c, AX, AY, &pg);
	memset(&wr, 0, sizeof(wr));
	ksim_set_link_hook(c, &wire_hook, &wr);
	CHECK(done_ok(run_at(c, AX, AY, KH_CPU_OP_KICK, 0, 0), 0));
	ksim_set_link_hook(c, NULL, NULL);
	REQUIRE(wr.n == 6);
	for (i = 0; i < 2; i++) {
		f = &wr.f[i];
		CHECK(hdr_is(f, 0, 1, KH_T_MEM_RD_REQ, i, 0));
		CHECK_EQ(kh_flit_get(f, KH_MEM_ADDR), 0x3000 + 32 * i);
		CHECK_EQ(kh_flit_get(f, KH_MEM_LEN), 0);
		CHECK_EQ(kh_flit_get(f, KH_MEM_FLAGS), KH_MEMF_STREAM);
		CHECK_EQ(kh_flit_get(f, KH_MEM_COUNT), 1);
		CHECK_EQ(kh_flit_get(f, KH_MEM_NPEER), 0);
		CHECK_EQ(kh_flit_get(f, KH_MEM_ENTRY_WORDS), 1);
	}
	f = &wr.f[2];
	CHECK(hdr_is(f, 0, 1, KH_T_MEM_WR_REQ, KH_CPU_TXN_WB, 0));
	CHECK_EQ(kh_flit_get(f, KH_MEM_ADDR), 0x3020);
	CHECK_EQ(kh_flit_get(f, KH_MEM_LEN), 0);
	f = &wr.f[3];
	CHECK(hdr_is(f, 0, 1, KH_T_MEM_WR_DATA, KH_CPU_TXN_WB, 1));
	line[1] = 0x66;
	for (i = 0; i < 8; i++)
		CHECK_EQ(ksim_payload_u32(f->w, i), line[i]);
	f = &wr.f[4];
	CHECK(hdr_is(f, BX, BY, KH_T_CU_DATA, 0, 0));
	CHECK_EQ(kh_flit_get(f, KH_DATA_BUF_ID), KH_CPU_BUF_IMEM_W);
	CHECK_EQ(kh_flit_get(f, KH_DATA_OFFSET), 0x123);
	CHECK_EQ(kh_flit_get(f, KH_DATA_LEN), 0);
	CHECK_EQ(kh_flit_get(f, KH_DATA_FLAGS), 0);
	CHECK_EQ(kh_flit_get(f, KH_DATA_ACK_X), 0);
	CHECK_EQ(kh_flit_get(f, KH_DATA_ACK_Y), 0);
	f = &wr.f[5];
	CHECK(hdr_is(f, BX, BY, KH_T_CU_DATA, 0, 1));
	CHECK_EQ(kh_flit_get(f, KH_CPU_WORD_SEL), 6);
	CHECK_EQ(kh_flit_get(f, KH_CPU_WORD_BE), 0xc);
	CHECK_EQ(kh_flit_get(f, KH_CPU_WORD_DATA), 0x00660066);
	CHECK_EQ(kh_flit_bits(f, 255, 192) | kh_flit_bits(f, 191, 128) |
		 kh_flit_bits(f, 127, 64) | kh_flit_bits(f, 63, 39), 0);
	ksim_card_destroy(c);
}

/* the RTL profile's shallow FIFOs, under the protocol checker */
TEST_F(model, rtl_profile)
{
	struct ksim_card *c = mh_card("profile rtl\n" MAP2);
	u32 w[8] = { 5, 6, 7, 8, 9, 10, 11, 12 };
	unsigned int i;

	REQUIRE(c);
	dram_put(c, 0x8000, w, 8);
	mp_init(&pg);
	mp_li(&pg, S0, KH_CPU_DRAM_BASE + 0x8000);
	mp_li(&pg, S1, KH_CPU_PEER_ADDR(BX, BY, 0, 7, 0));
	mp_li(&pg, A1, KH_CPU_DRAM_BASE + 0x9000);	/* the same L1 line */
	mp_emit(&pg, ADDI(A0, ZERO, 0));
	for (i = 0; i < 8; i++) {
		mp_emit(&pg, LW(T0, S0, 4 * i));
		mp_emit(&pg, ADD(A0, A0, T0));
		mp_emit(&pg, SW(A0, A1, 4 * i));		/* evicts */
		mp_emit(&pg, SW(A0, S1, 4 * i));		/* a push */
	}
	mp_emit(&pg, LUI(T2, KH_CPU_CTL_BASE));
	mp_emit(&pg, SW(ZERO, T2, KH_CPU_CTL_FLUSH));
	mp_emit(&pg, ECALL);
	CHECK(done_ok(run(c, AX, AY, &pg), 68));
	ksim_run(c, 300);
	CHECK_EQ(dram_get(c, 0x901c), 68);
	CHECK_EQ(dram_get(c, 0x9000), 5);
	CHECK_EQ(dram_get(c, 0x8000), 5);
	CHECK_EQ(unit(c, AX, AY)->fills, 16);
	CHECK_EQ(unit(c, AX, AY)->writebacks, 8);
	CHECK_EQ(unit(c, BX, BY)->spad[7 * 8 + 7], 68);
	ksim_card_destroy(c);
}

/* busy while running; a PC past the window aliases */
TEST_F(model, busy_and_fetch_alias)
{
	struct ksim_card *c = open2();
	u64 st, d1, d2;

	REQUIRE(c);
	mp_init(&pg);
	mp_emit(&pg, JAL(ZERO, 0));	/* forever */
	load(c, AX, AY, &pg);
	kick(c, AX, AY, KH_CPU_OP_KICK, 0, 0);
	ksim_run(c, 500);
	st = mm_ctrl_rd(c, 0, AX, AY, KH_CTRL_IDX_STATUS);
	CHECK(st & KH_STATUS_BUSY);
	d1 = dbg(c, AX, AY);
	ksim_run(c, 1000);
	d2 = dbg(c, AX, AY);
	CHECK(KH_CPU_DBG_CYCLES(d2) > KH_CPU_DBG_CYCLES(d1) + 900);
	CHECK(KH_CPU_DBG_RETIRED(d2) > KH_CPU_DBG_RETIRED(d1));
	ksim_card_destroy(c);

	/* a kick at 0x2000 + 4 runs word 1 */
	c = open2();
	REQUIRE(c);
	mp_init(&pg);
	mp_emit(&pg, ECALL);
	mp_emit(&pg, ADDI(A0, ZERO, 9));
	mp_emit(&pg, ECALL);
	load(c, AX, AY, &pg);
	CHECK(done_ok(run_at(c, AX, AY, KH_CPU_OP_KICK,
			     KH_CPU_IMEM_WORDS * 4 + 4, 0), 9));
	ksim_card_destroy(c);
}

/* a mesh reset keeps the windows and registers, clears the cause */
TEST_F(model, mesh_reset_keeps_arrays)
{
	struct ksim_card *c = open2();
	struct ksim_cpu *s;

	REQUIRE(c);
	s = unit(c, AX, AY);
	mp_init(&pg);
	mp_emit(&pg, ADDI(A0, ZERO, 66));
	mp_emit(&pg, EBREAK);
	CHECK(done_fault(run(c, AX, AY, &pg), 66));
	REQUIRE(!ksim_mesh_reset(c, 0));
	ksim_run(c, 5000);
	CHECK_EQ(s->cause, KH_CPU_CAUSE_NONE);
	CHECK_EQ(s->imem[0], ADDI(A0, ZERO, 66));
	CHECK_EQ(dbg(c, AX, AY), 0);
	/* no cause: a non-kick retires with a0, no fault */
	CHECK(done_ok(run_at(c, AX, AY, 0, 0, 0), 66));
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
