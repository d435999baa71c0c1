// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The FP16 -> MXFP7 converter (docs/spec/mxfp7.md) against a reference
 * computed differently: host doubles, a linear scan over all 256 scales,
 * rint() for nearest-even, and a bit-by-bit reader for the packing.  Every
 * FP16 value as the single nonzero element of an entry (both layouts, at
 * every lane and position), random blocks over narrow and wide exponent
 * ranges, blocks of specials, and the A/B source-to-lane mapping.
 */
#include <math.h>
#include "mhelp.h"
#include "sim_mxfp7.h"
#include "sim_util.h"

static u64 rng = 0x243f6a8885a308d3ULL;

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* binary16 -> double, specials per the spec: NaN -> 0, Inf -> 65504 */
static double ref_val(u16 h)
{
	int e = (h >> 10) & 0x1f, f = h & 0x3ff;
	double v;

	if (e == 31)
		v = f ? 0.0 : 65504.0;
	else if (e == 0)
		v = ldexp((double)f, -24);
	else
		v = ldexp((double)(f + 1024), e - 25);
	return (h & 0x8000) ? -v : v;
}

static double ref_scale(unsigned int s)
{
	return ldexp(1.0 + (s & 7) / 8.0, (int)(s >> 3) - KH_MX_SBIAS);
}

/* the reference block: the first scale, scanning up, that fits */
static unsigned int ref_block(const u16 *h, int *q)
{
	double amax = 0;
	unsigned int i, s;

	for (i = 0; i < KH_MX_KBLOCK; i++)
		amax = fmax(amax, fabs(ref_val(h[i])));
	for (s = 0; s < 256; s++)
		if (rint(amax / ref_scale(s)) <= 63.0)
			break;
	for (i = 0; i < KH_MX_KBLOCK; i++) {
		q[i] = (int)rint(ref_val(h[i]) / ref_scale(s));
		if (q[i] == 0)
			q[i] = 0;	/* -0 */
	}
	return s;
}

/* bit b of a little-endian byte string */
static unsigned int bit_at(const u8 *w, unsigned int b)
{
	return (w[b / 8] >> (b % 8)) & 1;
}

static int field_int7(const u8 *w, unsigned int k)
{
	unsigned int i, v = 0;

	for (i = 0; i < 7; i++)
		v |= bit_at(w, 7 * k + i) << i;
	return v & 0x40 ? (int)v - 128 : (int)v;
}

static unsigned int field_scale(const u8 *w)
{
	unsigned int i, v = 0;

	for (i = 0; i < 8; i++)
		v |= bit_at(w, 224 + i) << i;
	return v;
}

static unsigned long fails;

/* Convert src with the model; check every lane against the reference. */
static void check_entry(const u16 *src, bool blayout, const char *what)
{
	u8 in[KH_MX_SRC_BYTES], out[KH_MX_OUT_BYTES];
	u16 blk[4][32];
	int q[32];
	unsigned int j, lane, k, b;

	for (j = 0; j < 128; j++) {
		in[2 * j] = (u8)src[j];
		in[2 * j + 1] = (u8)(src[j] >> 8);
		/* the mapping written out independently of the macros */
		if (blayout)
			blk[j & 3][j >> 2] = src[j];
		else
			blk[j >> 5][j & 31] = src[j];
	}
	ksim_mxfp7_entry(in, blayout, out);
	for (lane = 0; lane < 4; lane++) {
		const u8 *w = out + lane * 32;
		unsigned int s = ref_block(blk[lane], q);

		if (field_scale(w) != s && fails++ < 10)
			tap_fail_at(__FILE__, __LINE__,
				    "%s %c lane %u: scale %02x, reference %02x",
				    what, blayout ? 'B' : 'A', lane,
				    field_scale(w), s);
		for (k = 0; k < 32; k++) {
			int m = field_int7(w, k);

			if (m != q[k] && fails++ < 10)
				tap_fail_at(__FILE__, __LINE__,
					    "%s %c lane %u k %u (fp16 %04x): %d, reference %d",
					    what, blayout ? 'B' : 'A', lane, k,
					    blk[lane][k], m, q[k]);
			if ((m < -63 || m > 63) && fails++ < 10)
				tap_fail_at(__FILE__, __LINE__, "%d out of range", m);
		}
		for (b = 232; b < 256; b++)
			if (bit_at(w, b) && fails++ < 10)
				tap_fail_at(__FILE__, __LINE__,
					    "%s lane %u: bit %u set", what, lane, b);
	}
}

TEST(every_fp16_value_alone)
{
	u16 src[128];
	unsigned int h;

	fails = 0;
	for (h = 0; h < 65536; h++) {
		unsigned int pos = (h * 37) & 127;

		memset(src, 0, sizeof(src));
		src[pos] = (u16)h;
		check_entry(src, false, "single");
		check_entry(src, true, "single");
	}
	CHECK_EQ(fails, 0);
}

/* A lone value's scale and int, spelled out for a few values. */
TEST(known_values)
{
	u16 h[32];
	s8 q[32];

	memset(h, 0, sizeof(h));
	h[0] = 0x3c00;			/* 1.0: 63 * 2^-6 * 1.0 > 1 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(14, 1));
	CHECK_EQ(q[0], 57);		/* 1 / (2^-6 * 9/8) = 56.9 */
	h[0] = 0xfbff;			/* -65504 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(30, 1));
	CHECK_EQ(q[0], -57);
	h[0] = 0x7c00;			/* +Inf saturates like 65504 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(30, 1));
	CHECK_EQ(q[0], 57);
	h[0] = 0x7e00;			/* NaN: zero, no say in the scale */
	h[1] = 0x3800;			/* 0.5 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(13, 1));
	CHECK_EQ(q[0], 0);
	CHECK_EQ(q[1], 57);
	memset(h, 0, sizeof(h));
	h[5] = 0x8000;			/* -0 */
	CHECK_EQ(ksim_mxfp7_block(h, q), 0);
	CHECK_EQ(q[5], 0);
	/* a tie: 63.5 * scale rounds to even 64, so the next scale up */
	h[0] = 0x57f0;			/* 127 = 63.5 * 2 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(21, 1));
	CHECK_EQ(q[0], 56);		/* 127 / 2.25 = 56.4 */
	h[0] = 0x57e0;			/* 126 = 63 * 2 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(21, 0));
	CHECK_EQ(q[0], 63);
	h[1] = 0x3c00;			/* 1 / 2 = 0.5: ties to even 0 */
	h[2] = 0x3e00;			/* 1.5 / 2 = 0.75 -> 1 */
	h[3] = 0x4500;			/* 5 / 2 = 2.5 -> 2 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(21, 0));
	CHECK_EQ(q[1], 0);
	CHECK_EQ(q[2], 1);
	CHECK_EQ(q[3], 2);
}

static u16 rnd_fp16(int elo, int ehi)
{
	int e = elo + (int)(rnd() % (u64)(ehi - elo + 1));

	return (u16)(((rnd() & 1) << 15) | ((unsigned int)e << 10) |
		     (rnd() & 0x3ff));
}

TEST(random_blocks)
{
	u16 src[128];
	unsigned int n, j;

	fails = 0;
	for (n = 0; n < 40000; n++) {
		int elo;

		switch (n % 4) {
		case 0:		/* any bit pattern, specials included */
			for (j = 0; j < 128; j++)
				src[j] = (u16)rnd();
			break;
		case 1:		/* one binade per block: ties are common */
			elo = (int)(rnd() % 31);
			for (j = 0; j < 128; j++)
				src[j] = rnd_fp16(elo, elo);
			break;
		case 2:		/* a few binades */
			elo = (int)(rnd() % 27);
			for (j = 0; j < 128; j++)
				src[j] = rnd_fp16(elo, elo + 3);
			break;
		default:	/* subnormals and the smallest normals */
			for (j = 0; j < 128; j++)
				src[j] = rnd_fp16(0, 2);
			break;
		}
		check_entry(src, n & 1, "random");
	}
	CHECK_EQ(fails, 0);
}

TEST(blocks_with_specials)
{
	static const u16 sp[] = {
		0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
		0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe00, 0xffff, 0x3c00, 0x0200,
	};
	u16 src[128];
	unsigned int n, j;

	fails = 0;
	for (n = 0; n < 20000; n++) {
		for (j = 0; j < 128; j++) {
			if (rnd() % 4 == 0)
				src[j] = sp[rnd() % KSIM_ARRAY_SIZE(sp)];
			else
				src[j] = rnd_fp16(n % 30, n % 30 + 1);
		}
		check_entry(src, n & 1, "specials");
	}
	/* all-NaN and all-Inf blocks */
	for (j = 0; j < 128; j++)
		src[j] = 0x7e00;
	check_entry(src, false, "nan");
	for (j = 0; j < 128; j++)
		src[j] = j & 1 ? 0x7c00 : 0xfc00;
	check_entry(src, true, "inf");
	CHECK_EQ(fails, 0);
}

/* The layouts send source value j to lane j/32 (A) or j%4 (B). */
TEST(layouts_a_and_b)
{
	u8 in[256], out[128];
	unsigned int j, lane;

	/* value j = j + 1 in lane-identifying binades: lane l gets 2^(l*3) */
	for (j = 0; j < 128; j++) {
		u16 h = (u16)((15 + 3 * (j / 32)) << 10);	/* A: by j/32 */

		in[2 * j] = (u8)h;
		in[2 * j + 1] = (u8)(h >> 8);
	}
	ksim_mxfp7_entry(in, false, out);
	for (lane = 0; lane < 4; lane++) {
		/* 2^(3*lane) alone in its block: scale 2^(3l-6)*9/8, q 57 */
		CHECK_EQ(field_scale(out + lane * 32), KH_MX_SCALE(14 + 3 * lane, 1));
		CHECK_EQ(field_int7(out + lane * 32, 31), 57);
	}
	for (j = 0; j < 128; j++) {
		u16 h = (u16)((15 + 3 * (j % 4)) << 10);	/* B: by j%4 */

		in[2 * j] = (u8)h;
		in[2 * j + 1] = (u8)(h >> 8);
	}
	ksim_mxfp7_entry(in, true, out);
	for (lane = 0; lane < 4; lane++) {
		CHECK_EQ(field_scale(out + lane * 32), KH_MX_SCALE(14 + 3 * lane, 1));
		CHECK_EQ(field_int7(out + lane * 32, 0), 57);
	}
	/* the same data in the other layout mixes the lanes */
	ksim_mxfp7_entry(in, false, out);
	CHECK_EQ(field_scale(out), KH_MX_SCALE(23, 1));
}

int main(int argc, char **argv)
{
	return tap_main(argc, argv);
}
