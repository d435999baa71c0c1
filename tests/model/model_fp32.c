// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ksim_fp32_fma against the host's fmaf, bit for bit (NaN results: both
 * NaN, and the model's is the canonical 0x7fc00000): a cross product of
 * special values, then millions of random triples, uniform bit patterns
 * and ones biased to near-cancellation, the subnormal range and overflow.
 */
#include <math.h>
#include "mhelp.h"
#include "fp32.h"
#include "harness.h"

CHECK_FIXTURE(model)

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
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

static unsigned long fails;

static void check1(u32 a, u32 b, u32 c)
{
	float h = fmaf(f_of(a), f_of(b), f_of(c));
	u32 r = ksim_fp32_fma(a, b, c);
	bool ok = isnan(h) ? r == KSIM_FP32_QNAN : r == b_of(h);

	if (!ok && fails++ < 10)
		check_fail_at(__FILE__, __LINE__,
			    "fma(%08x, %08x, %08x) = %08x, host %08x", a, b, c,
			    r, b_of(h));
}

static const u32 specials[] = {
	0x00000000, 0x80000000,			/* zeros */
	0x00000001, 0x80000001,			/* min subnormal */
	0x00000002, 0x00400000, 0x807fffff, 0x007fffff,	/* subnormals */
	0x00800000, 0x80800000,			/* min normal */
	0x00800001, 0x00ffffff,
	0x7f7fffff, 0xff7fffff,			/* max normal */
	0x7f000000, 0x5f800000, 0x1f800000,	/* 2^127, 2^64, 2^-64 */
	0x3f800000, 0xbf800000,			/* +-1 */
	0x3f800001, 0x3f7fffff, 0xbf800001,	/* 1 +- ulp */
	0x40000000, 0x40400000, 0x3f000000, 0x3eaaaaab, /* 2, 3, .5, 1/3 */
	0x34000000, 0x33800000,			/* 2^-23, 2^-24 */
	0x2b800000, 0x1a000000, 0x0d000000,	/* small normals */
	0x7f800000, 0xff800000,			/* infinities */
	0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa00000, /* NaNs */
	0x4b800000, 0xcb7fffff, 0x4effffff,	/* 2^24, -(2^24-1), 2^31 */
	0x5e7fffff, 0x1f000001,
};

TEST_F(model, fma_special_values)
{
	unsigned int n = sizeof(specials) / sizeof(specials[0]), i, j, k;

	fails = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++)
				check1(specials[i], specials[j], specials[k]);
	CHECK_EQ(fails, 0);
}

TEST_F(model, fma_signed_zero_rules)
{
	/* exact cancellation gives +0 in round-to-nearest */
	CHECK_EQ(ksim_fp32_fma(0x3f800000, 0x40000000, 0xc0000000), 0);
	CHECK_EQ(ksim_fp32_fma(0xbf800000, 0x40000000, 0x40000000), 0);
	/* zero product plus zero: -0 only when both are -0 */
	CHECK_EQ(ksim_fp32_fma(0x80000000, 0x3f800000, 0x80000000), 0x80000000);
	CHECK_EQ(ksim_fp32_fma(0x80000000, 0x3f800000, 0x00000000), 0);
	CHECK_EQ(ksim_fp32_fma(0x80000000, 0x80000000, 0x80000000), 0);
	/* a tiny product underflowing to zero keeps its sign */
	CHECK_EQ(ksim_fp32_fma(0x80000001, 0x00000001, 0x80000000), 0x80000000);
	CHECK_EQ(ksim_fp32_fma(0x80000001, 0x00000001, 0x00000000), 0x80000000);
	/* inf * 0 and inf - inf are invalid: the canonical NaN */
	CHECK_EQ(ksim_fp32_fma(0x7f800000, 0, 0x3f800000), KSIM_FP32_QNAN);
	CHECK_EQ(ksim_fp32_fma(0x7f800000, 0x3f800000, 0xff800000), KSIM_FP32_QNAN);
	CHECK_EQ(ksim_fp32_fma(0xffc00001, 0x3f800000, 0), KSIM_FP32_QNAN);
	/* overflow to infinity */
	CHECK_EQ(ksim_fp32_fma(0x7f7fffff, 0x40000000, 0), 0x7f800000);
	CHECK_EQ(ksim_fp32_fma(0x7f7fffff, 0xc0000000, 0), 0xff800000);
}

static u32 rnd_exp(u32 sign_mant, int e)
{
	if (e < 0)
		e = 0;
	if (e > 254)
		e = 254;
	return (sign_mant & 0x807fffff) | ((u32)e << 23);
}

TEST_F(model, fma_random_bits)
{
	unsigned long i;

	fails = 0;
	for (i = 0; i < 3000000; i++) {
		u64 r = rnd();

		check1((u32)r, (u32)(r >> 32), (u32)rnd());
	}
	CHECK_EQ(fails, 0);
}

TEST_F(model, fma_near_cancellation)
{
	unsigned long i;

	fails = 0;
	for (i = 0; i < 1500000; i++) {
		u64 r = rnd(), s = rnd();
		u32 a = rnd_exp((u32)r, 100 + (int)(s & 63));
		u32 b = rnd_exp((u32)(r >> 32), 100 + (int)((s >> 6) & 63));
		u32 p = b_of(f_of(a) * f_of(b));
		int d = (int)((s >> 12) & 7) - 3;
		u32 c = (p ^ 0x80000000u) + (u32)d;	/* -p, a few ulps off */

		if ((p & 0x7f800000) == 0x7f800000)
			continue;
		check1(a, b, c);
		/* and exponents a few apart */
		check1(a, b, rnd_exp(c, (int)((c >> 23) & 0xff) -
				     (int)((s >> 15) & 31)));
	}
	CHECK_EQ(fails, 0);
}

TEST_F(model, fma_subnormal_and_overflow_ranges)
{
	unsigned long i;

	fails = 0;
	for (i = 0; i < 1500000; i++) {
		u64 r = rnd(), s = rnd();
		int ea = (int)(s & 127), eb;
		u32 a, b, c;

		if (i & 1) {
			/* products near the subnormal range: ea + eb ~ 127 */
			eb = 127 - ea + (int)((s >> 8) & 31) - 24;
			c = (s >> 16) & 1 ? (u32)rnd() & 0x807fffff
					  : rnd_exp((u32)rnd(), (int)((s >> 20) & 7));
		} else {
			/* products near overflow: ea + eb ~ 381 */
			ea += 127;
			eb = 254 - (int)((s >> 8) & 15) - (ea - 127);
			c = rnd_exp((u32)rnd(), 240 + (int)((s >> 20) & 15));
		}
		a = rnd_exp((u32)r, ea);
		b = rnd_exp((u32)(r >> 32), eb);
		check1(a, b, c);
	}
	CHECK_EQ(fails, 0);
}

CHECK_TEST_MAIN
