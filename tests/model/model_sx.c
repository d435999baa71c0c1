// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The SX unit as saxpy_cu computes it (kohakutpu.md section 16): the
 * integer datapath against an independent host reference over whole
 * values, halves, subnormals, large magnitudes, signs and specials, and
 * against exact integer arithmetic where it is exact; n = 0..64 on both
 * units with the partial last line written back as read; n = 65 and an
 * unknown opcode fault with 0xBAD0_0002 / 0xBAD0_0001 and touch no memory;
 * unaligned addresses are no fault; one read per operand and one write per
 * instruction; CU_DBG; the FMA variant (param sx_fma 1); on the 4-mesh
 * card, addresses naming another mesh served by the unit's own
 * mesh's memory, with RD_REMOTE.
 */
#include <math.h>
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define X_BASE	0x100000ULL
#define Y_BASE	0x900000ULL
#define GUARD	64		/* elements past n that must not change */
#define N_OF(a)	((unsigned int)(sizeof(a) / sizeof((a)[0])))

static u64 rng = 0x243f6a8885a308d3ULL;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static float f_of(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static u32 b_of(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

static u32 host_fma(u32 a, u32 x, u32 y)
{
	float r = fmaf(f_of(a), f_of(x), f_of(y));

	return isnan(r) ? 0x7fc00000 : b_of(r);
}

static u32 host_rtl(u32 a, u32 x, u32 y)
{
	return mh_sx_rtl(a, x, y);
}

/* Mostly whole values, sometimes halves, specials, subnormals, huge ones. */
static u32 rnd_val(void)
{
	u32 r = rnd();

	switch (r & 15) {
	case 0:
		return r & 0x807fffff;			/* subnormal */
	case 1:
		return (r & 0x80000000) | 0x7f800000;	/* inf */
	case 2:
		return 0x7fc00000 | (r & 0x3fffff);	/* NaN */
	case 3:
		return r & 0x80000000;			/* zero */
	case 4:						/* 2^23 .. 2^40: wraps */
		return (r & 0x807fffff) | ((150 + (r >> 24) % 17) << 23);
	case 5:						/* x.5 */
		return b_of((float)((int)(r >> 20) - 2048) + 0.5f);
	case 6:						/* any exponent */
		return r;
	default:					/* whole, |v| < 2^11 */
		return b_of((float)((int)(r >> 21) - 1024));
	}
}

static void sx_inst(struct kh_flit *f, unsigned int op, u32 n, u32 a, u64 x,
		    u64 y, unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 0, 0, 0, KH_T_CU_INST, txn, 0);
	kh_flit_set(f, KH_SX_OPCODE, op);
	kh_flit_set(f, KH_SX_N, n);
	kh_flit_set(f, KH_SX_A, a);
	kh_flit_set(f, KH_SX_X_ADDR, x);
	kh_flit_set(f, KH_SX_Y_ADDR, y);
}

/* Issue one SAXPY at unit (ux,uy) and wait for its signal. */
static u64 sx_run(struct ksim_card *c, unsigned int ux, unsigned int uy,
		  unsigned int op, u32 n, u32 a, u64 x, u64 y)
{
	unsigned int base = KH_NS_COUNT(mh_ns(c, ux, uy));
	struct kh_flit f;

	sx_inst(&f, op, n, a, KH_MADDR(0, x), KH_MADDR(0, y), 0x42);
	kh_flit_set(&f, KH_HDR_DST_X, ux);
	kh_flit_set(&f, KH_HDR_DST_Y, uy);
	mh_mb_send(c, &f);
	CHECK_MSG(mh_wait_count(c, ux, uy, base + 1, 100000),
		  "SX (%u,%u) n=%u: no completion", ux, uy, n);
	return mh_ns(c, ux, uy);
}

/* Wait for `writes` more writes to land in DRAM (AUX_STAT [23:8]). */
static void wait_writes(struct ksim_card *c, unsigned int base,
			unsigned int writes)
{
	unsigned int i;

	for (i = 0; i < 1000; i++)
		if (((KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)) - base) &
		     0xffff) >= writes)
			return;
	CHECK_MSG(0, "writes did not land");
}

static void saxpy_case(struct ksim_card *c, unsigned int ux,
		       unsigned int uy, u32 n, bool fma)
{
	u32 tot = ((n + GUARD + 7) / 8) * 8;
	u32 *x = calloc(tot, 4), *y = calloc(tot, 4), *out = calloc(tot, 4);
	u32 a = rnd_val(), i, bad = 0;
	unsigned int w0;
	u64 ns;

	REQUIRE(x && y && out);
	for (i = 0; i < tot; i++) {
		x[i] = rnd_val();
		y[i] = rnd_val();
	}
	if (rnd() & 1)
		a = 0x40400000;	/* 3.0: whole */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), x, tot * 4), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), y, tot * 4), 0);
	w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
	ns = sx_run(c, ux, uy, KH_SX_OP_SAXPY, n, a, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), n);
	/* retirement does not order against the landing: wait for it */
	if (n)
		wait_writes(c, w0, 1);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), out, tot * 4), 0);
	for (i = 0; i < tot; i++) {
		/* the tail of the last line and everything past: as read */
		u32 want = i >= n ? y[i] : fma ? host_fma(a, x[i], y[i]) :
			   host_rtl(a, x[i], y[i]);

		if (out[i] != want && bad++ < 5)
			CHECK_MSG(0, "SX (%u,%u) n=%u: y[%u] = %08x, want %08x (a %08x x %08x y %08x)",
				  ux, uy, n, i, out[i], want, a, x[i], y[i]);
	}
	CHECK_EQ(bad, 0);
	free(x);
	free(y);
	free(out);
}

static const u32 sizes[] = { 0, 1, 7, 8, 9, 31, 63, 64 };

TEST_F(model, saxpy_both_units_every_line_count)
{
	struct ksim_card *c = mh_card("saxpy");
	static const unsigned int units[2][2] = { { 1, 0 }, { 1, 2 } };
	unsigned int u, i, k;
	struct kh_flit r;
	u64 total = 0;

	REQUIRE(c);
	for (u = 0; u < 2; u++) {
		total = 0;
		for (k = 0; k < 3; k++)
			for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
				saxpy_case(c, units[u][0], units[u][1], sizes[i],
					   false);
				total += sizes[i];
			}
		/* CU_DBG: elements computed, [63:32] 0 (saxpy_cu.v:226) */
		REQUIRE(mh_ctrl_read(c, units[u][0], units[u][1],
				     KH_CTRL_IDX_DBG, 1, &r));
		CHECK_EQ(mh_ctrl_value(&r), total);
		REQUIRE(mh_ctrl_read(c, units[u][0], units[u][1],
				     KH_CTRL_IDX_COUNTERS, 2, &r));
		CHECK_EQ(mh_ctrl_value(&r) >> 32, 3 * 8);
	}
	ksim_card_destroy(c);
}

/* Exact where the RTL says it is: whole values whose results stay below 2^23. */
TEST_F(model, whole_values_are_exact)
{
	struct ksim_card *c = mh_card("saxpy");
	u32 x[64], y[64], out[64], i;
	int a = -7;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 64; i++) {
		x[i] = b_of((float)((int)(rnd() % 20001) - 10000));
		y[i] = b_of((float)((int)(rnd() % 2000001) - 1000000));
	}
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), x, sizeof(x)), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), y, sizeof(y)), 0);
	ns = sx_run(c, 1, 0, KH_SX_OP_SAXPY, 64, b_of((float)a), X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_ARG(ns), 64);
	for (i = 0; i < 1000; i++)
		mh_rd(c, KH_ORC_AUX_STAT);	/* let the write land */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), out, sizeof(out)), 0);
	for (i = 0; i < 64; i++)
		CHECK_EQ(f_of(out[i]), (float)a * f_of(x[i]) + f_of(y[i]));
	ksim_card_destroy(c);
}

/*
 * What the integer datapath gives outside its domain, element by element
 * against the reference: halves truncate, subnormals are 0, 2^31 and up
 * wrap, only 24 bits of a sum find the exponent, inf and NaN are 0.
 */
TEST_F(model, rtl_formula_outside_whole_values)
{
	static const struct { u32 a, x, y, want; } cases[] = {
		{ 0x40200000, 0x3fc00000, 0x00000000, 0x40000000 }, /* 2.5*1.5 = 2*1 */
		{ 0xc0200000, 0x40200000, 0x3f000000, 0xc0800000 }, /* -2.5*2.5+.5 = -4 */
		{ 0x3f800000, 0x00000001, 0x00400000, 0x00000000 }, /* subnormals: 0 */
		{ 0x3f800000, 0x7f800000, 0x40000000, 0x40000000 }, /* inf: 0, + 2 */
		{ 0x3f800000, 0x7fc00000, 0x00000000, 0x00000000 }, /* NaN: 0 */
		{ 0x3f800000, 0x4b800000, 0x00000000, 0x3f800000 }, /* 2^24 -> i2f: bit 24 unseen */
		{ 0x3f800000, 0x4f000000, 0x00000000, 0xbf800000 }, /* 2^31 wraps to -2^31: -1.0 */
		{ 0x3f800000, 0x4b000001, 0x00000000, 0x4b000001 }, /* 2^23+1: exact */
		{ 0x3f800000, 0x5f800000, 0x3f800000, 0x3f800000 }, /* 2^64: shifted out */
	};
	struct ksim_card *c = mh_card("saxpy");
	unsigned int i;
	u32 v[8];
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < N_OF(cases); i++) {
		/* the table agrees with the reference, and the unit with both */
		CHECK_MSG(host_rtl(cases[i].a, cases[i].x, cases[i].y) == cases[i].want,
			  "case %u: reference gives %08x", i,
			  host_rtl(cases[i].a, cases[i].x, cases[i].y));
		memset(v, 0, sizeof(v));
		v[0] = cases[i].x;
		CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), v, 32), 0);
		v[0] = cases[i].y;
		CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), v, 32), 0);
		ns = sx_run(c, 1, 2, KH_SX_OP_SAXPY, 1, cases[i].a, X_BASE, Y_BASE);
		CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
		for (ns = 0; ns < 300; ns++)
			mh_rd(c, KH_ORC_AUX_STAT);	/* let the write land */
		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), v, 32), 0);
		CHECK_MSG(v[0] == cases[i].want, "case %u: unit wrote %08x, want %08x",
			  i, v[0], cases[i].want);
	}
	ksim_card_destroy(c);
}

/* KohakuTPU's own host acceptance (a = 2.5, x = i/4-ish data) fails on the RTL. */
TEST_F(model, an_fma_check_fails_on_the_card)
{
	struct ksim_card *c = mh_card("saxpy");
	u32 x[64], y[64], out[64], i, fma_right = 0;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 64; i++) {
		x[i] = b_of((float)i * 0.25f);
		y[i] = b_of(1.0f);
	}
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), x, sizeof(x)), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), y, sizeof(y)), 0);
	ns = sx_run(c, 1, 0, KH_SX_OP_SAXPY, 64, 0x40200000, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_ARG(ns), 64);
	for (i = 0; i < 500; i++)
		mh_rd(c, KH_ORC_AUX_STAT);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), out, sizeof(out)), 0);
	for (i = 0; i < 64; i++) {
		CHECK_EQ(out[i], host_rtl(0x40200000, x[i], y[i]));
		fma_right += out[i] == host_fma(0x40200000, x[i], y[i]);
	}
	check_diag("a = 2.5: %u of 64 elements equal a*x+y", fma_right);
	CHECK(fma_right < 64);
	ksim_card_destroy(c);
}

/*
 * saxpy_cu asks for up to 2 x 8 read beats at once and drains whatever
 * comes (recv_ready is 1): with a receive FIFO shallower than that it
 * breaks the port contract's rule 9 (the checker says so), and still
 * computes right, since nothing is ever held.
 */
TEST_F(model, saxpy_small_receive_fifo)
{
	static const char map[] =
		"param recv_depth 4\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct ksim_card *c = mh_card(map);

	REQUIRE(c);
	mh_expect_violations = true;
	mh_violations = 0;
	saxpy_case(c, 1, 2, 64, false);
	saxpy_case(c, 1, 0, 33, false);
	ksim_card_destroy(c);
	CHECK(mh_violations > 0);
	CHECK(strstr(mh_last_violation, "rule 9") != NULL);
	mh_expect_violations = false;
}

TEST_F(model, saxpy_on_the_2x2_mesh)
{
	struct ksim_card *c = mh_card("sx_null_2x2");

	REQUIRE(c);
	saxpy_case(c, 2, 3, 64, false);	/* row 3: nearest port is row 2 */
	saxpy_case(c, 3, 1, 57, false);
	ksim_card_destroy(c);
}

TEST_F(model, faults_too_big_and_bad_opcode)
{
	static const u32 big[] = { 65, 72, 128, 0xffffff };
	struct ksim_card *c = mh_card("saxpy");
	u64 aux, ns;
	unsigned int i;
	struct kh_flit r;

	REQUIRE(c);
	aux = mh_rd(c, KH_ORC_AUX_STAT);
	ns = sx_run(c, 1, 0, 0x02, 16, 0x3f800000, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_BAD_OP);
	/* the opcode is checked first */
	ns = sx_run(c, 1, 0, 0x00, 100, 0x3f800000, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_BAD_OP);
	for (i = 0; i < N_OF(big); i++) {
		ns = sx_run(c, 1, 2, KH_SX_OP_SAXPY, big[i], 0x3f800000, X_BASE,
			    Y_BASE);
		CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
		CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_TOO_BIG);
	}
	/* n = 0 retires at once with result 0 */
	ns = sx_run(c, 1, 2, KH_SX_OP_SAXPY, 0, 0x3f800000, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0);
	/* none of them touched memory, nor counted elements */
	CHECK_EQ(mh_rd(c, KH_ORC_AUX_STAT), aux);
	REQUIRE(mh_ctrl_read(c, 1, 2, KH_CTRL_IDX_DBG, 1, &r));
	CHECK_EQ(mh_ctrl_value(&r), 0);
	/* and the unit still works afterwards */
	saxpy_case(c, 1, 0, 9, false);
	ksim_card_destroy(c);
}

/* One read request per operand, one write request, per instruction. */
TEST_F(model, one_read_per_operand_one_write)
{
	struct ksim_card *c = mh_card("saxpy");
	u64 a0, a1;

	REQUIRE(c);
	a0 = mh_rd(c, KH_ORC_AUX_STAT);
	saxpy_case(c, 1, 0, 64, false);
	a1 = mh_rd(c, KH_ORC_AUX_STAT);
	CHECK_EQ((KH_AUX_RD_COUNT(a1) - KH_AUX_RD_COUNT(a0)) & 0xffff, 2);
	CHECK_EQ((KH_AUX_WR_COUNT(a1) - KH_AUX_WR_COUNT(a0)) & 0xffff, 1);
	ksim_card_destroy(c);
}

/*
 * No alignment check (kohakutpu.md 16): memory moves whole 32-byte words
 * (MAG's AXI burst from an address inside a word moves that word), so the
 * unit computes on the words the addresses fall in.
 */
TEST_F(model, unaligned_addresses_are_no_fault)
{
	struct ksim_card *c = mh_card("saxpy");
	u32 x[16], y[16], out[16], i;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 16; i++) {
		x[i] = b_of((float)i);
		y[i] = b_of((float)(100 + i));
	}
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), x, sizeof(x)), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), y, sizeof(y)), 0);
	ns = sx_run(c, 1, 0, KH_SX_OP_SAXPY, 8, 0x40000000, X_BASE + 4,
		    Y_BASE + 20);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 8);
	for (i = 0; i < 500; i++)
		mh_rd(c, KH_ORC_AUX_STAT);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), out, sizeof(out)), 0);
	for (i = 0; i < 16; i++)
		CHECK_EQ(out[i], i < 8 ? host_rtl(0x40000000, x[i], y[i]) : y[i]);
	ksim_card_destroy(c);
}

/*
 * On the 4-mesh card (`quad`), an SX unit of mesh 0 given vectors whose
 * addresses name mesh 1, 2 or 3 (KH_MADDR(m, local)): saxpy_cu keeps the
 * 40-bit address (saxpy_cu.v:86, 135-136) and sends its requests unmarked
 * (rsvd 3'b000, 155/163/183), so MAG serves them from its own mesh's DRAM
 * at the local offset and sets the interlink's RD_REMOTE (mag.v:395-398,
 * mag_ilink.v:690; kohakutpu.md 5.6, 7.1).  The job ends well; the named
 * mesh's vectors are untouched and mesh 0's at the same offset took the
 * result: where the writes went.
 */
static u64 il_faults(struct ksim_card *c, unsigned int mesh)
{
	return ksim_read64(c, KH_MESH_BASE(mesh) +
			   KH_ORC_AUX_STATW(KH_IL_W_FAULTS));
}

TEST_F(model, remote_mesh_addresses_alias_onto_local_memory)
{
	struct ksim_card *c = mh_card("quad");
	u32 x[16], y[16], rx[16], ry[16], out[16], i;
	struct ksim_stats st0, st1;
	unsigned int m, w0;
	struct kh_flit f;
	u64 ns;

	REQUIRE(c);
	for (m = 1; m < 4; m++) {
		for (i = 0; i < 16; i++) {
			x[i] = b_of((float)i);
			y[i] = b_of((float)(100 + i));
			rx[i] = b_of((float)(1000 * m + i));
			ry[i] = b_of((float)(-1000.0f * m));
		}
		REQUIRE(!ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), x, sizeof(x)));
		REQUIRE(!ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), y, sizeof(y)));
		REQUIRE(!ksim_dma_write(c, KH_CARD_ADDR(m, X_BASE), rx, sizeof(rx)));
		REQUIRE(!ksim_dma_write(c, KH_CARD_ADDR(m, Y_BASE), ry, sizeof(ry)));
		CHECK_EQ(ksim_get_stats(c, 0, &st0), 0);
		w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
		/* SX (1,0) of mesh 0, both vectors named on mesh m */
		sx_inst(&f, KH_SX_OP_SAXPY, 16, 0x40000000, KH_MADDR(m, X_BASE),
			KH_MADDR(m, Y_BASE), 0x42);
		kh_flit_set(&f, KH_HDR_DST_X, 1);
		kh_flit_set(&f, KH_HDR_DST_Y, 0);
		mh_mb_send(c, &f);
		REQUIRE(mh_wait_count(c, 1, 0, m, 100000));
		ns = mh_ns(c, 1, 0);
		CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
		CHECK_EQ(KH_NS_ARG(ns), 16);
		wait_writes(c, w0, 1);
		/* mesh 0's words at the local offsets took a*x+y of mesh 0's */
		REQUIRE(!ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), out, sizeof(out)));
		for (i = 0; i < 16; i++)
			CHECK_EQ(out[i], host_rtl(0x40000000, x[i], y[i]));
		/* mesh m's vectors: unchanged */
		REQUIRE(!ksim_dma_read(c, KH_CARD_ADDR(m, Y_BASE), out, sizeof(out)));
		CHECK(!memcmp(out, ry, sizeof(out)));
		REQUIRE(!ksim_dma_read(c, KH_CARD_ADDR(m, X_BASE), out, sizeof(out)));
		CHECK(!memcmp(out, rx, sizeof(out)));
		/* the two reads and the write aliased, each flagged on mesh 0 */
		CHECK_EQ(ksim_get_stats(c, 0, &st1), 0);
		CHECK_EQ(st1.mag_remote_alias - st0.mag_remote_alias, 3);
		CHECK_EQ(il_faults(c, 0), KH_IL_FAULT_RD_REMOTE);
		CHECK_EQ(il_faults(c, m), 0);
		ksim_write64(c, KH_MESH_BASE(0) + KH_ORC_AUX_CFG(KH_IL_CTRL),
			     KH_IL_CTRL_ENABLE | KH_IL_CTRL_CLR_FAULTS);
	}
	ksim_card_destroy(c);
}

/* The declared variant: a binary32 FMA, tagged in CU_DBG[63:32]. */
TEST_F(model, fma_variant)
{
	static const char map[] =
		"profile rtl\n"
		"param sx_fma 1\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct ksim_card *c = mh_card(map), *r = mh_card("saxpy");
	struct kh_flit f;
	unsigned int i;

	REQUIRE(c && r);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		saxpy_case(c, 1, 2, sizes[i], true);
	REQUIRE(mh_ctrl_read(c, 1, 2, KH_CTRL_IDX_DBG, 1, &f));
	CHECK_EQ(mh_ctrl_value(&f) >> 32, KH_SX_DBG_FMA);
	REQUIRE(mh_ctrl_read(r, 1, 2, KH_CTRL_IDX_DBG, 1, &f));
	CHECK_EQ(mh_ctrl_value(&f) >> 32, 0);
	ksim_card_destroy(c);
	ksim_card_destroy(r);
}

/* CU_CAPS on the saxpy_mesh top: 0x5358_0110_2000_0000 (kohakutpu.md 16). */
TEST_F(model, caps_of_the_generated_top)
{
	struct ksim_card *c = mh_card("saxpy");
	struct kh_flit r;

	REQUIRE(c);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_CAPS, 1, &r));
	CHECK_EQ(mh_ctrl_value(&r), 0x5358011020000000ULL);
	REQUIRE(mh_ctrl_read(c, 1, 2, KH_CTRL_IDX_STATUS, 2, &r));
	CHECK_EQ((mh_ctrl_value(&r) >> 32) & 0xffff, 512);
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS), 0x0000000101040120ULL);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN

