// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL vector unit's issue timing (docs/spec/pool-vector.md "Issue
 * and the scoreboard"; seed 002 §2.2-§2.4, §5): sequences of vector
 * instructions timed between two reads of the cycle CSR on core 0, each
 * against the cycle count the seed's rules give, worked out by hand in
 * the comment beside it:
 *
 * - dependent-issue latency = result stage - read stage (10; the wide
 *   accumulator 12), never less than one cycle: a MAC chain through its
 *   accumulator at one a cycle, an FMA chain at one per 3, an ALU chain
 *   at one per cycle, a load's consumer in the next cycle;
 * - WAW: a short op after a long one into the same register lands after;
 * - co-issue per F3/F11 (§2.2, §5.4): 2 memory ops (1 store), 1 quad-MAC,
 *   FMAs on S2 and S3, 2-3 ALU ops, 5 in all; a scalar instruction ends
 *   the bundle;
 * - a vector-to-scalar move holds the scalar pipe for the gap (§7).
 */
#include "mpool.h"
#include "harness.h"

CHECK_FIXTURE(model)

static struct mp_card m;
static struct mp_prog pg;

static bool open_card(void)
{
	if (m.c)
		return true;
	return mp_open(&m, MP_MAP_ONE, 1, 0);
}

#define R_BASE	10
#define ALU(f7, w, d, a, b)	KH_PV_ENC_ALU(f7, w, d, a, b)
#define VADD(d, a, b)		ALU(KH_PV_VADD, KH_PV_W8, d, a, b)
#define VL(d, row)		KH_PV_ENC_VL(d, R_BASE, row)
#define VS(s, row)		KH_PV_ENC_VS(s, R_BASE, row)
#define QMAC(wd, va)		KH_PV_ENC_QMAC(KH_PV_W8, wd, va, 0, KH_PV_MAC_ADD, 0)
#define QSET(wd, va)		KH_PV_ENC_QMAC(KH_PV_W8, wd, va, 0, KH_PV_MAC_SET, 0)
#define FMA(d, a, b)		KH_PV_ENC_FP(KH_PV_FMADD, KH_PV_WF32, d, a, b)
#define FMUL(d, a, b)		KH_PV_ENC_FP(KH_PV_FMUL, KH_PV_WF32, d, a, b)
#define PACK(d, wa)		KH_PV_ENC_PACK(KH_PV_W8, d, wa, 0, 0)
#define MOVE(f7, d, a, b)	KH_PV_ENC_MOVE(f7, d, a, b)

/*
 * The cycles from the first word of w to the instruction after the last:
 * between two CSR reads, less the first read's own cycle.
 */
static u64 cycles(const u32 *w, unsigned int n)
{
	unsigned int i;

	mp_vec_prolog(&pg, R_BASE);
	mp_emit(&pg, CSRR(20, KH_POOL_CSR_CYCLE));
	for (i = 0; i < n; i++)
		mp_emit(&pg, w[i]);
	mp_emit(&pg, CSRR(21, KH_POOL_CSR_CYCLE));
	mp_halt(&pg);
	if (!mp_exec(&m, &pg) || m.p->halted)
		return ~0ull;
	return m.p->core[0].x[21] - m.p->core[0].x[20] - KH_POOL_LAT_ALU;
}

#define N(a)		(sizeof(a) / sizeof((a)[0]))
#define TIME(...)							\
	({ const u32 w_[] = { __VA_ARGS__ }; cycles(w_, N(w_)); })

/* n copies of one word */
static u64 repeat(u32 w, unsigned int n)
{
	u32 v[128];
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = w;
	return cycles(v, n);
}

TEST_F(model, dependent_chains_at_their_latency)
{
	u32 w[60];
	unsigned int i;

	REQUIRE(open_card());
	/* a MAC chain through w0: the (12,12) RMW, one a cycle (§3.3) */
	CHECK_EQ(repeat(QMAC(0, 4), 100), 100);
	/* an FMA chain through v1 (vd is a source): 13 - 10 = 3 each */
	CHECK_EQ(repeat(FMA(1, 2, 3), 50), 1 + 49 * 3);
	/* an ALU chain: 11 - 10 = 1, one a cycle, none co-issued */
	CHECK_EQ(repeat(VADD(1, 1, 2), 60), 60);
	/* independent ALU ops: three ALU slots (F11) */
	for (i = 0; i < 60; i++)
		w[i] = VADD(1 + i % 3, 10, 11);
	CHECK_EQ(cycles(w, 60), 20);
	/* a bundle never writes one register twice */
	CHECK_EQ(repeat(VADD(1, 2, 3), 60), 60);
	/* a load's result at 10: its consumer in the next cycle */
	CHECK_EQ(TIME(VL(1, 64), VADD(2, 1, 1)), 2);
	/* ALU at 11 -> MAC taps next cycle; MAC at 12 -> pack next cycle */
	CHECK_EQ(TIME(VADD(4, 5, 5), QSET(0, 4), PACK(9, 0)), 3);
	/* FMA -> ALU: 3 cycles */
	CHECK_EQ(TIME(FMUL(1, 2, 3), VADD(4, 1, 1)), 4);
	/*
	 * a divide step reads its inputs at 8 and writes at 12: a chain of
	 * steps 4 cycles apart; an ALU op reading its result 2 after it
	 */
	CHECK_EQ(repeat(ALU(KH_PV_VDIV4U, KH_PV_W32, 1, 1, 2), 4), 1 + 3 * 4);
	CHECK_EQ(TIME(ALU(KH_PV_VDIV4U, KH_PV_W32, 1, 1, 2), VADD(3, 1, 1)),
		 2 + 1);
	/* and an ALU result feeding a divide step: 11 - 8 = 3 */
	CHECK_EQ(TIME(VADD(1, 3, 3), ALU(KH_PV_VDIV4U, KH_PV_W32, 4, 1, 2)),
		 3 + 1);
	/* a MAC at 12 feeding a vector ALU op (reads at 10): 2 cycles */
	CHECK_EQ(TIME(QSET(0, 4), PACK(9, 0), VADD(4, 9, 9)), 1 + 1 + 2);
}

TEST_F(model, write_after_write_lands_in_order)
{
	REQUIRE(open_card());
	/*
	 * an FMA writes v1 at i + 13; an independent vadd into v1 writes
	 * at c + 11 and must land later: c = i + 3, then the CSR read.
	 */
	CHECK_EQ(TIME(FMUL(1, 2, 3), VADD(1, 4, 5)), 4);
	/*
	 * the other way round the FMA lands later anyway, but one bundle
	 * cannot write v1 twice: the next cycle
	 */
	CHECK_EQ(TIME(VADD(1, 4, 5), FMUL(1, 2, 3)), 2);
}

TEST_F(model, co_issue_within_the_formats)
{
	REQUIRE(open_card());
	/* F3: 2 loads, 1 quad-MAC, 1 FMA, 1 ALU: five in one cycle */
	CHECK_EQ(TIME(VL(1, 64), VL(2, 65), QMAC(0, 8), FMUL(20, 21, 22),
		      VADD(24, 25, 26)), 1);
	/* one store: with a load in one cycle; two stores: two cycles */
	CHECK_EQ(TIME(VS(1, 64), VL(2, 65)), 1);
	CHECK_EQ(TIME(VS(1, 64), VS(2, 65)), 2);
	/* three loads: the third in the next cycle */
	CHECK_EQ(TIME(VL(1, 64), VL(2, 65), VL(3, 66)), 2);
	/* one quad-MAC a bundle (S2_Mul only) */
	CHECK_EQ(TIME(QMAC(0, 8), QMAC(1, 12)), 2);
	/* two FMAs (S2 and S3, 2XFMAC) in one; with a MAC, one FMA only */
	CHECK_EQ(TIME(FMUL(1, 2, 3), FMUL(4, 5, 6)), 1);
	CHECK_EQ(TIME(QMAC(0, 8), FMUL(1, 2, 3), FMUL(4, 5, 6)), 2);
	/* F11: one load and three ALU ops; F3 has two ALU slots */
	CHECK_EQ(TIME(VL(1, 64), VADD(2, 5, 5), VADD(3, 5, 5),
		      VADD(4, 5, 5)), 1);
	CHECK_EQ(TIME(VL(1, 64), VL(6, 65), VADD(2, 5, 5), VADD(3, 5, 5),
		      VADD(4, 5, 5)), 2);
	/* an FMA on S3 takes an ALU slot: 2 FMAs + 3 ALU do not fit */
	CHECK_EQ(TIME(FMUL(1, 2, 3), FMUL(4, 5, 6), VADD(7, 9, 9),
		      VADD(8, 9, 9)), 1);
	CHECK_EQ(TIME(FMUL(1, 2, 3), FMUL(4, 5, 6), VADD(7, 9, 9),
		      VADD(8, 9, 9), VADD(11, 9, 9)), 2);
	/* never more than five: six independent ops take two cycles */
	CHECK_EQ(TIME(VL(1, 64), VL(2, 65), QMAC(0, 8), FMUL(20, 21, 22),
		      VADD(24, 25, 26), VADD(27, 25, 26)), 2);
	/* a dependence inside a bundle splits it */
	CHECK_EQ(TIME(VL(1, 64), VADD(2, 1, 1)), 2);
}

TEST_F(model, bench_loop_body)
{
	REQUIRE(open_card());
	CHECK_EQ(TIME(VL(1, 64), VL(2, 65), QMAC(0, 4), FMA(8, 9, 10),
		      VADD(12, 13, 14), VADD(15, 13, 14)), 2);
}

TEST_F(model, a_scalar_instruction_ends_the_bundle)
{
	REQUIRE(open_card());
	CHECK_EQ(TIME(VADD(1, 5, 5), VADD(2, 5, 5)), 1);
	CHECK_EQ(TIME(VADD(1, 5, 5), ADDI(5, 5, 1), VADD(2, 6, 6)),
		 1 + KH_POOL_LAT_ALU + 1);
}

TEST_F(model, vector_to_scalar_moves_pay_the_gap)
{
	REQUIRE(open_card());
	/* vext: the scalar pipe waits KH_PV_V2S_GAP cycles for x5 */
	CHECK_EQ(TIME(MOVE(KH_PV_VEXT, 5, 1, 0)), KH_PV_V2S_GAP);
	CHECK_EQ(TIME(MOVE(KH_PV_VMVPX, 5, 1, 0), ADDI(6, 5, 1)),
		 KH_PV_V2S_GAP + KH_POOL_LAT_ALU);
	/* joined to a bundle it still holds the scalar pipe */
	CHECK_EQ(TIME(VADD(1, 5, 5), MOVE(KH_PV_VMVBX, 5, 1, 0)),
		 KH_PV_V2S_GAP);
	/* after an ALU op it depends on: one cycle, then the gap */
	CHECK_EQ(TIME(VADD(1, 5, 5), MOVE(KH_PV_VEXT, 5, 1, 0)),
		 1 + KH_PV_V2S_GAP);
	/* FSR after an FMA: its flags land at 14, read at 10 */
	CHECK_EQ(TIME(FMUL(1, 2, 3), MOVE(KH_PV_VRFSR, 5, 0, 0)),
		 (KH_PV_STAGE_FSR - KH_PV_STAGE_READ) + KH_PV_V2S_GAP);
	/* vwfsr replaces FSR after the flags in flight: 14 - 11 + 1 */
	CHECK_EQ(TIME(FMUL(1, 2, 3), MOVE(KH_PV_VWFSR, 0, 0, 0)), 4 + 1);
	/* vrfcr after vwfcr: written at 11, read at 10 */
	CHECK_EQ(TIME(MOVE(KH_PV_VWFCR, 0, 0, 0), MOVE(KH_PV_VRFCR, 5, 0, 0)),
		 1 + KH_PV_V2S_GAP);
	/* the n form writes no flag: FSR can be read at once */
	CHECK_EQ(TIME(KH_PV_ENC_FP(KH_PV_FMUL | KH_PV_FNOFLAGS, KH_PV_WF32,
				   1, 2, 3), MOVE(KH_PV_VRFSR, 5, 0, 0)),
		 KH_PV_V2S_GAP);
}

TEST_F(model, four_mac_chains_interleave_at_one_a_cycle)
{
	u32 w[96];
	unsigned int i;

	REQUIRE(open_card());
	/* a load pair and a MAC a cycle: the gemv inner loop's shape */
	for (i = 0; i < 32; i++) {
		w[3 * i] = VL(8 + (i % 2) * 4, 64 + i);
		w[3 * i + 1] = VL(9 + (i % 2) * 4, 96 + i);
		w[3 * i + 2] = QMAC(i % 4, 16);
	}
	CHECK_EQ(cycles(w, 96), 32);
}

CHECK_TEST_MAIN
