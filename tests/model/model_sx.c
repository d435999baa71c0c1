// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SX saxpy through the mesh: both SX units of the saxpy map, element
 * counts around the line (8) and chunk (64) boundaries, every element
 * checked against the host's fmaf and the words past the tail untouched;
 * the fault codes; a shallow receive FIFO (smaller chunks); and a 64K run
 * reporting the model's speed.
 */
#include <math.h>
#include <time.h>
#include "mhelp.h"

#define X_BASE	0x100000ULL
#define Y_BASE	0x900000ULL
#define GUARD	64		/* elements past n that must not change */

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

static u32 host_fma(u32 a, u32 x, u32 y)
{
	float r = fmaf(f_of(a), f_of(x), f_of(y));
	u32 b;

	if (isnan(r))
		return 0x7fc00000;
	memcpy(&b, &r, 4);
	return b;
}

/* Mostly ordinary values, sometimes specials and subnormals. */
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
	default:
		/* exponent 100..154: products that round */
		return (r & 0x807fffff) | ((100 + (r >> 24) % 55) << 23);
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
		       unsigned int uy, u32 n, unsigned int chunk_lines)
{
	u32 tot = ((n + GUARD + 7) / 8) * 8;
	u32 *x = calloc(tot, 4), *y = calloc(tot, 4), *out = calloc(tot, 4);
	u32 a = rnd_val(), i, bad = 0;
	unsigned int w0, lines = (n + 7) / 8;
	u64 ns;

	REQUIRE(x && y && out);
	for (i = 0; i < tot; i++) {
		x[i] = rnd_val();
		y[i] = rnd_val();
	}
	if (rnd() & 1)
		a = 0x3fc00000;	/* 1.5: mostly finite results */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, X_BASE), x, tot * 4), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, Y_BASE), y, tot * 4), 0);
	w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
	ns = sx_run(c, ux, uy, KH_SX_OP_SAXPY, n, a, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), n);
	/* retirement does not order against the landing: wait for it */
	wait_writes(c, w0, (lines + chunk_lines - 1) / chunk_lines);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, Y_BASE), out, tot * 4), 0);
	for (i = 0; i < tot; i++) {
		u32 want = i < n ? host_fma(a, x[i], y[i]) : y[i];

		if (out[i] != want && bad++ < 5)
			CHECK_MSG(0, "SX (%u,%u) n=%u: y[%u] = %08x, want %08x (a %08x x %08x y %08x)",
				  ux, uy, n, i, out[i], want, a, x[i], y[i]);
	}
	CHECK_EQ(bad, 0);
	free(x);
	free(y);
	free(out);
}

static const u32 sizes[] = { 0, 1, 7, 8, 9, 63, 64, 65, 1000 };

TEST(saxpy_both_units)
{
	struct ksim_card *c = mh_card("saxpy");
	static const unsigned int units[2][2] = { { 1, 0 }, { 1, 2 } };
	unsigned int u, i;
	struct kh_flit r;
	u64 total = 0;

	REQUIRE(c);
	for (u = 0; u < 2; u++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			saxpy_case(c, units[u][0], units[u][1], sizes[i], 8);
			total += sizes[i];
		}
		REQUIRE(mh_ctrl_read(c, units[u][0], units[u][1],
				     KH_CTRL_IDX_DBG, 1, &r));
		CHECK_EQ(mh_ctrl_value(&r), total / (u + 1));
		REQUIRE(mh_ctrl_read(c, units[u][0], units[u][1],
				     KH_CTRL_IDX_COUNTERS, 2, &r));
		CHECK_EQ(mh_ctrl_value(&r) >> 32, 9);
	}
	ksim_card_destroy(c);
}

TEST(saxpy_small_receive_fifo)
{
	static const char map[] =
		"param recv_depth 4\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct ksim_card *c = mh_card(map);

	REQUIRE(c);
	saxpy_case(c, 1, 2, 65, 2);	/* 2-line chunks */
	saxpy_case(c, 1, 0, 1000, 2);
	ksim_card_destroy(c);
}

TEST(saxpy_on_the_2x2_mesh)
{
	struct ksim_card *c = mh_card("sx_null_2x2");

	REQUIRE(c);
	saxpy_case(c, 2, 3, 200, 8);	/* row 3: nearest port is row 2 */
	saxpy_case(c, 3, 1, 77, 8);
	ksim_card_destroy(c);
}

TEST(saxpy_faults)
{
	struct ksim_card *c = mh_card("saxpy");
	u64 aux, ns;

	REQUIRE(c);
	aux = mh_rd(c, KH_ORC_AUX_STAT);
	ns = sx_run(c, 1, 0, 0x02, 16, 0x3f800000, X_BASE, Y_BASE);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_OPCODE);
	ns = sx_run(c, 1, 0, KH_SX_OP_SAXPY, 16, 0x3f800000, X_BASE + 4,
		    Y_BASE);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_ALIGN);
	ns = sx_run(c, 1, 2, KH_SX_OP_SAXPY, 16, 0x3f800000, X_BASE,
		    Y_BASE + 16);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_ALIGN);
	/* faults touch no memory */
	CHECK_EQ(mh_rd(c, KH_ORC_AUX_STAT), aux);
	/* and the unit still works afterwards */
	saxpy_case(c, 1, 0, 9, 8);
	ksim_card_destroy(c);
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

TEST(saxpy_64k_speed)
{
	struct ksim_card *c = mh_card("saxpy");
	struct ksim_stats st;
	u64 c0, c1;
	double t0, t1;

	REQUIRE(c);
	c0 = ksim_cycles(c);
	t0 = wall();
	saxpy_case(c, 1, 0, 65536, 8);
	t1 = wall();
	c1 = ksim_cycles(c);
	ksim_get_stats(c, 0, &st);
	tap_diag("saxpy 64K: %llu cycles (%llu stepped) in %.3f s incl. host checks: %.1f M cycles/s",
		 (unsigned long long)(c1 - c0),
		 (unsigned long long)st.cycles_stepped, t1 - t0,
		 (c1 - c0) / (t1 - t0) / 1e6);
	ksim_card_destroy(c);
}

int main(int argc, char **argv)
{
	return tap_main(argc, argv);
}
