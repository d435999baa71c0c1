// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL vector unit's streams and gathers (docs/spec/pool-vector.md
 * "Unaligned streams: valign", "SuperGather"; seed 002 §3.5, §3.6), on
 * core 0, against references written here byte by byte:
 *
 * - an unaligned load stream at every offset 0..63 gives the bytes at the
 *   stream's address; an unaligned store stream at every offset writes
 *   exactly its bytes, the bytes before and after it unchanged; a memcpy
 *   from any offset to any other; the address register's increments;
 * - gathers on 16- and 32-bit lanes with predicates, scatters with
 *   conflicting lanes (the higher lands), the scatter-increment as a
 *   histogram (conflicting lanes all count);
 * - every trap before any effect: a stream running off DataRAM, an
 *   element that is misaligned or out of reach (but not in a lane the
 *   predicate leaves out).
 */
#include "mpool.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_SRC		5
#define R_DST		6
#define R_TAB		7
#define SRC_OFF		0x1000	/* DataRAM offsets */
#define DST_OFF		0x3000
#define TAB_OFF		0x5000
#define OUT_OFF		0x8000
#define ROWS		4

#define ALIGN(f7, d, a, b)	KH_PV_ENC_ALIGN(f7, d, a, b)
#define GS(f3, op, k, d, a, b)	KH_PV_ENC_GS(f3, op, k, d, a, b)
#define VL(d, rs1, row)		KH_PV_ENC_VL(d, rs1, row)
#define VS(s, rs1, row)		KH_PV_ENC_VS(s, rs1, row)

static struct mp_card m;
static struct mp_prog pg;
static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u64 rnd(void)
{
	return mp_rand(&rng_state);
}

static bool open_card(void)
{
	if (m.c)
		return true;
	return mp_open(&m, MP_MAP_ONE, 1, 0);
}

static u8 *dram(u32 off)
{
	return m.p->core[0].dram + off;
}

static void fill_rnd(u32 off, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		dram(off)[i] = (u8)rnd();
}

/* x10 = DataRAM, the coprocessor on */
static void prolog(void)
{
	mp_vec_prolog(&pg, 10);
}

static bool run(void)
{
	mp_halt(&pg);
	return mp_exec(&m, &pg) && !m.p->halted;
}

TEST_F(model, load_stream_at_every_offset)
{
	u32 off, r;

	REQUIRE(open_card());
	for (off = 0; off < 64; off++) {
		fill_rnd(SRC_OFF, (ROWS + 2) * 64);
		memset(dram(OUT_OFF), 0, ROWS * 64);
		prolog();
		mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF + off);
		mp_li(&pg, R_DST, KH_POOL_DRAM_BASE + OUT_OFF);
		mp_emit(&pg, ALIGN(KH_PV_VLAP, 2, R_SRC, 0));
		for (r = 0; r < ROWS; r++) {
			mp_emit(&pg, ALIGN(KH_PV_VLA, 1 + r, R_SRC, 2));
			mp_emit(&pg, VS(1 + r, R_DST, r));
		}
		REQUIRE(run());
		CHECK_MSG(!memcmp(dram(OUT_OFF), dram(SRC_OFF + off), ROWS * 64),
			  "load stream at offset %u", off);
		CHECK_EQ(m.p->core[0].x[R_SRC],
			 KH_POOL_DRAM_BASE + SRC_OFF + off + (ROWS + 1) * 64);
		/* the residue is the last row read (the host is little-endian) */
		CHECK(!memcmp(m.p->core[0].vec.va[2],
			      dram(SRC_OFF + ROWS * 64), 64));
	}
}

TEST_F(model, store_stream_at_every_offset_keeps_its_neighbours)
{
	u8 before[(ROWS + 2) * 64];
	u32 off, r;

	REQUIRE(open_card());
	for (off = 0; off < 64; off++) {
		fill_rnd(SRC_OFF, ROWS * 64);
		fill_rnd(DST_OFF, (ROWS + 2) * 64);
		memcpy(before, dram(DST_OFF), sizeof(before));
		prolog();
		mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
		mp_li(&pg, R_DST, KH_POOL_DRAM_BASE + DST_OFF + 64 + off);
		mp_emit(&pg, ALIGN(KH_PV_VSAP, 3, R_DST, 0));
		for (r = 0; r < ROWS; r++) {
			mp_emit(&pg, VL(8, R_SRC, r));
			mp_emit(&pg, ALIGN(KH_PV_VSA, 3, R_DST, 8));
		}
		mp_emit(&pg, ALIGN(KH_PV_VSAF, 3, R_DST, 0));
		REQUIRE(run());
		/* before the stream, the stream, after it */
		CHECK_MSG(!memcmp(dram(DST_OFF), before, 64 + off),
			  "offset %u: the head changed", off);
		CHECK_MSG(!memcmp(dram(DST_OFF + 64 + off), dram(SRC_OFF),
				  ROWS * 64), "offset %u: the data", off);
		CHECK_MSG(!memcmp(dram(DST_OFF + 64 + off + ROWS * 64),
				  before + 64 + off + ROWS * 64, 64 - off),
			  "offset %u: the tail changed", off);
		CHECK_EQ(m.p->core[0].x[R_DST],
			 KH_POOL_DRAM_BASE + DST_OFF + 64 + off + ROWS * 64);
	}
}

/* the store side's register: the data rotated up by off bytes */
TEST_F(model, store_stream_register_is_the_data_rotated)
{
	u32 off = 13, j;
	const u8 *u, *d;
	u8 ub[64];

	REQUIRE(open_card());
	fill_rnd(SRC_OFF, 64);
	prolog();
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
	mp_li(&pg, R_DST, KH_POOL_DRAM_BASE + DST_OFF + off);
	mp_emit(&pg, ALIGN(KH_PV_VSAP, 0, R_DST, 0));
	mp_emit(&pg, VL(8, R_SRC, 0));
	mp_emit(&pg, ALIGN(KH_PV_VSA, 0, R_DST, 8));
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VMVUV, 9, 0, 0));
	mp_emit(&pg, VS(9, R_SRC, 4));
	REQUIRE(run());
	u = dram(SRC_OFF + 4 * 64);
	d = dram(SRC_OFF);
	memcpy(ub, u, 64);
	for (j = 0; j < 64; j++)
		CHECK_MSG(ub[j] == d[(j - off) & 63], "byte %u", j);
}

TEST_F(model, unaligned_memcpy_between_any_offsets)
{
	static const u32 pairs[][2] = {
		{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 7, 61 }, { 63, 63 },
		{ 32, 5 }, { 62, 1 }, { 17, 17 },
	};
	u8 before[(ROWS + 2) * 64];
	unsigned int i, r;

	REQUIRE(open_card());
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		u32 so = pairs[i][0], dof = pairs[i][1];

		fill_rnd(SRC_OFF, (ROWS + 2) * 64);
		fill_rnd(DST_OFF, (ROWS + 2) * 64);
		memcpy(before, dram(DST_OFF), sizeof(before));
		prolog();
		mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF + so);
		mp_li(&pg, R_DST, KH_POOL_DRAM_BASE + DST_OFF + dof);
		mp_emit(&pg, ALIGN(KH_PV_VLAP, 0, R_SRC, 0));
		mp_emit(&pg, ALIGN(KH_PV_VSAP, 1, R_DST, 0));
		for (r = 0; r < ROWS; r++) {
			mp_emit(&pg, ALIGN(KH_PV_VLA, 4, R_SRC, 0));
			mp_emit(&pg, ALIGN(KH_PV_VSA, 1, R_DST, 4));
		}
		mp_emit(&pg, ALIGN(KH_PV_VSAF, 1, R_DST, 0));
		REQUIRE(run());
		CHECK_MSG(!memcmp(dram(DST_OFF), before, dof) &&
			  !memcmp(dram(DST_OFF + dof), dram(SRC_OFF + so),
				  ROWS * 64) &&
			  !memcmp(dram(DST_OFF + dof + ROWS * 64),
				  before + dof + ROWS * 64,
				  sizeof(before) - dof - ROWS * 64),
			  "memcpy %u -> %u", so, dof);
	}
}

static void expect_trap(const char *what, unsigned int cause)
{
	u64 trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);

	CHECK_MSG(m.p->halted == 1 && (trap & KH_POOL_TRAP_VALID) &&
		  KH_POOL_TRAP_CAUSE(trap) == cause,
		  "%s: halted %02x TRAP %016llx, want cause %u", what,
		  m.p->halted, (unsigned long long)trap, cause);
}

TEST_F(model, a_stream_off_the_end_traps_before_any_effect)
{
	struct ksim_pool_vec before;
	u32 end = KH_POOL_DRAM_BASE + KH_POOL_DRAM_SIZE;

	REQUIRE(open_card());
	u32 iram[16];

	/*
	 * the load stream's next row is past DataRAM: v4 and u0 hold what
	 * they held (x1 = 2 from the prolog, splatted), x5 is not advanced
	 */
	prolog();
	mp_li(&pg, R_SRC, end + 5);
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VSPLAT, 4, 1, 0));
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VMVVU, 0, 4, 0));
	mp_emit(&pg, ALIGN(KH_PV_VLA, 4, R_SRC, 0));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	expect_trap("vla past the end", KH_POOL_CAUSE_LOAD_FAULT);
	CHECK_EQ(m.p->core[0].x[R_SRC], end + 5);
	before = m.p->core[0].vec;
	CHECK_EQ(before.v[4][0], 0x0202020202020202ull);
	CHECK_EQ(before.va[0][7], 0x0202020202020202ull);
	/* a store stream into IRAM: a store fault; nothing written */
	prolog();
	mp_li(&pg, R_DST, 3);		/* the program's own row */
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VSPLAT, 1, 1, 0));
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VMVVU, 0, 1, 0));
	mp_emit(&pg, ALIGN(KH_PV_VSA, 0, R_DST, 1));
	mp_halt(&pg);
	REQUIRE(pg.n <= 16);
	memcpy(iram, pg.w, pg.n * 4);
	REQUIRE(mp_exec(&m, &pg));
	expect_trap("vsa into IRAM", KH_POOL_CAUSE_STORE_FAULT);
	CHECK_EQ(m.p->core[0].x[R_DST], 3);
	CHECK_EQ(m.p->core[0].vec.va[0][0], 0x0202020202020202ull);
	CHECK_EQ(memcmp(m.p->iram, iram, pg.n * 4), 0);
}

/* ---- SuperGather ---- */

/* element i of size bytes of a register's bytes (the tests' reference) */
static u32 lane(const u8 *v, unsigned int size, unsigned int i)
{
	return (u32)mp_lget(v, size * 8, i);
}

static void set_lane(u8 *v, unsigned int size, unsigned int i, u32 x)
{
	mp_lset(v, size * 8, i, x);
}

/* b[k] from the two halves */
static void set_pred(unsigned int k, u64 bits)
{
	mp_li(&pg, 1, (u32)bits);
	mp_li(&pg, 2, (u32)(bits >> 32));
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VMVXB, k, 1, 2));
}

TEST_F(model, gather_both_widths_with_predicates)
{
	unsigned int f3, round, i;

	REQUIRE(open_card());
	for (f3 = KH_PV_F3_GS16; f3 <= KH_PV_F3_GS32; f3++) {
		unsigned int size = f3 == KH_PV_F3_GS16 ? 2 : 4;
		unsigned int n = 64 / size;

		for (round = 0; round < 8; round++) {
			u8 idx[64], *out;
			u64 pred = round ? rnd() : ~0ull;

			fill_rnd(TAB_OFF, 0x1000);
			for (i = 0; i < n; i++)
				set_lane(idx, size, i, (u32)(rnd() % (0x1000 / size)));
			memcpy(dram(SRC_OFF), idx, 64);
			prolog();
			set_pred(3, pred);
			mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
			mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
			mp_emit(&pg, VL(1, R_SRC, 0));
			mp_emit(&pg, GS(f3, KH_PV_GATHERA, 3, 5, R_TAB, 1));
			mp_emit(&pg, GS(f3, KH_PV_GATHERD, 0, 2, 0, 5));
			mp_emit(&pg, VS(2, R_SRC, 1));
			REQUIRE(run());
			out = dram(SRC_OFF + 64);
			for (i = 0; i < n; i++) {
				u32 want = (pred >> i) & 1 ?
					   lane(dram(TAB_OFF), size,
						lane(idx, size, i)) : 0;

				CHECK_MSG(lane(out, size, i) == want,
					  "gather %u-bit lane %u", size * 8, i);
			}
		}
	}
}

TEST_F(model, scatter_conflicts_and_scatter_increment_histogram)
{
	u32 hist[256], *bins;
	u8 idx[64], data[64];
	unsigned int i, r, b;

	REQUIRE(open_card());
	/* scatter, 16-bit: lanes 0..31 to 8 slots, higher lane wins */
	for (i = 0; i < 32; i++) {
		set_lane(idx, 2, i, i % 8);
		set_lane(data, 2, i, 0x100 + i);
	}
	memcpy(dram(SRC_OFF), idx, 64);
	memcpy(dram(SRC_OFF + 64), data, 64);
	memset(dram(TAB_OFF), 0xee, 64);
	prolog();
	set_pred(1, 0xffffffffull);
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
	mp_emit(&pg, VL(1, R_SRC, 0));
	mp_emit(&pg, VL(2, R_SRC, 1));
	mp_emit(&pg, GS(KH_PV_F3_GS16, KH_PV_SCATTER, 1, 2, R_TAB, 1));
	REQUIRE(run());
	for (i = 0; i < 8; i++)
		CHECK_EQ(lane(dram(TAB_OFF), 2, i), 0x100 + 24 + i);
	CHECK_EQ(lane(dram(TAB_OFF), 2, 8), 0xeeee);

	/* a histogram of 1024 random bytes by scatter-increment */
	memset(hist, 0, sizeof(hist));
	memset(dram(TAB_OFF), 0, 1024);
	prolog();
	set_pred(2, 0xffffull);
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
	mp_li(&pg, 3, 1);
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VSPLAT + KH_PV_W32, 20, 3, 0));
	mp_li(&pg, 3, 0xff);
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VSPLAT + KH_PV_W32, 21, 3, 0));
	for (b = 0; b < 4; b++) {
		mp_li(&pg, 3, 8 * b);
		mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VSPLAT + KH_PV_W32, 22 + b, 3, 0));
	}
	for (r = 0; r < 16; r++) {
		fill_rnd(SRC_OFF + 64 * r, 64);
		for (i = 0; i < 64; i++)
			hist[dram(SRC_OFF + 64 * r)[i]]++;
		mp_emit(&pg, VL(1, R_SRC, r));
		for (b = 0; b < 4; b++) {
			/* byte b of each 32-bit lane: its bin */
			mp_emit(&pg, KH_PV_ENC_ALU(KH_PV_VSRL, KH_PV_W32, 2, 1, 22 + b));
			mp_emit(&pg, KH_PV_ENC_ALU(KH_PV_VAND, KH_PV_W32, 2, 2, 21));
			mp_emit(&pg, GS(KH_PV_F3_GS32, KH_PV_SCATTERINC, 2, 20,
					R_TAB, 2));
		}
	}
	REQUIRE(run());
	bins = (u32 *)dram(TAB_OFF);
	for (i = 0; i < 256; i++)
		CHECK_MSG(bins[i] == hist[i], "bin %u: %u, want %u", i, bins[i],
			  hist[i]);
	/* every lane of one bin: 16 counts at once */
	memset(dram(TAB_OFF), 0, 64);
	memset(dram(SRC_OFF), 0, 64);
	prolog();
	set_pred(2, 0xffffull);
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
	mp_li(&pg, 3, 1);
	mp_emit(&pg, KH_PV_ENC_MOVE(KH_PV_VSPLAT + KH_PV_W32, 20, 3, 0));
	mp_emit(&pg, VL(1, R_SRC, 0));
	mp_emit(&pg, GS(KH_PV_F3_GS32, KH_PV_SCATTERINC, 2, 20, R_TAB, 1));
	REQUIRE(run());
	CHECK_EQ(((u32 *)dram(TAB_OFF))[0], 16);
}

TEST_F(model, gather_traps_before_any_effect_but_not_for_idle_lanes)
{
	u8 idx[64];
	unsigned int i;

	REQUIRE(open_card());
	/* lane 5 points past DataRAM; with its predicate bit clear, fine */
	for (i = 0; i < 16; i++)
		set_lane(idx, 4, i, i);
	set_lane(idx, 4, 5, 0x100000);
	memcpy(dram(SRC_OFF), idx, 64);
	memset(dram(TAB_OFF), 0x5a, 64);
	prolog();
	set_pred(4, 0xffdfull);
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
	mp_emit(&pg, VL(1, R_SRC, 0));
	mp_emit(&pg, GS(KH_PV_F3_GS32, KH_PV_SCATTER, 4, 1, R_TAB, 1));
	REQUIRE(run());
	CHECK_EQ(lane(dram(TAB_OFF), 4, 4), 4);
	CHECK_EQ(lane(dram(TAB_OFF), 4, 5), 0x5a5a5a5a);
	/* with it set: a store fault, and no lane written */
	memset(dram(TAB_OFF), 0x5a, 64);
	prolog();
	set_pred(4, 0xffffull);
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF);
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
	mp_emit(&pg, VL(1, R_SRC, 0));
	mp_emit(&pg, GS(KH_PV_F3_GS32, KH_PV_SCATTER, 4, 1, R_TAB, 1));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	expect_trap("scatter past DataRAM", KH_POOL_CAUSE_STORE_FAULT);
	CHECK_EQ(lane(dram(TAB_OFF), 4, 0), 0x5a5a5a5a);
	/* a 16-bit gather from an odd base: misaligned */
	prolog();
	set_pred(4, 1);
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF + 1);
	mp_emit(&pg, GS(KH_PV_F3_GS16, KH_PV_GATHERA, 4, 0, R_TAB, 1));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	expect_trap("gather misaligned", KH_POOL_CAUSE_LOAD_MISALIGNED);
}

TEST_F(model, stream_and_gather_timing)
{
	u64 t;
	unsigned int i;

	REQUIRE(open_card());
	/* a vla chain through u0: one a cycle (written at 10, read at 10) */
	prolog();
	mp_li(&pg, R_SRC, KH_POOL_DRAM_BASE + SRC_OFF + 3);
	mp_emit(&pg, CSRR(20, KH_POOL_CSR_CYCLE));
	for (i = 0; i < 16; i++)
		mp_emit(&pg, ALIGN(KH_PV_VLA, 1 + i % 2, R_SRC, 0));
	mp_emit(&pg, CSRR(21, KH_POOL_CSR_CYCLE));
	REQUIRE(run());
	t = m.p->core[0].x[21] - m.p->core[0].x[20] - KH_POOL_LAT_ALU;
	CHECK_EQ(t, 16);
	/* a gather's two phases: g at 10, the D phase's v at 11 */
	prolog();
	mp_li(&pg, R_TAB, KH_POOL_DRAM_BASE + TAB_OFF);
	mp_emit(&pg, CSRR(20, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, GS(KH_PV_F3_GS32, KH_PV_GATHERA, 0, 1, R_TAB, 9));
	mp_emit(&pg, GS(KH_PV_F3_GS32, KH_PV_GATHERD, 0, 2, 0, 1));
	mp_emit(&pg, KH_PV_ENC_ALU(KH_PV_VADD, KH_PV_W8, 3, 2, 2));
	mp_emit(&pg, CSRR(21, KH_POOL_CSR_CYCLE));
	REQUIRE(run());
	t = m.p->core[0].x[21] - m.p->core[0].x[20] - KH_POOL_LAT_ALU;
	CHECK_EQ(t, 3);
}

CHECK_TEST_MAIN
