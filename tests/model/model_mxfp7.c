// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The FP16 -> MXFP7 converter (docs/spec/mxfp7.md, RTL mx_quant.v) against
 * a reference computed differently: the formulation of KohakuTPU's
 * numerics model (compiler/kohakutpu/hw/mxfp7.py: the scale mantissa as
 * ceil(sig / 126), the element as prod >> sh plus the bit below, clipped
 * to 63) and a bit-by-bit reader for the packing.  Every FP16 value as the
 * single nonzero element of an entry (both layouts, at every lane and
 * position), random blocks over narrow and wide exponent ranges, blocks of
 * specials, and the A/B packings.
 */
#include "mhelp.h"
#include "mxfp7.h"
#include "util.h"
#include "harness.h"

CHECK_FIXTURE(model)

static u64 rng = 0x243f6a8885a308d3ULL;

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static const long long recip_py[16] = {
	[8] = 4096, [9] = 3641, [10] = 3277, [11] = 2979,
	[12] = 2731, [13] = 2520, [14] = 2341, [15] = 2185,
};

/* mxfp7.py quantise_fp16 for one block of 32: the scale byte, q[] */
static unsigned int ref_block(const u16 *h, int *q)
{
	long long peak = 0, sig_p, m8, es, prod, sh, safe, mag;
	long long ep;
	unsigned int i, ef;

	for (i = 0; i < 32; i++)
		if ((h[i] & 0x7fff) > peak)
			peak = h[i] & 0x7fff;
	ef = (unsigned int)(peak >> 10) & 0x1f;
	sig_p = ef ? (1024 | (peak & 0x3ff)) : (peak & 0x3ff);
	ep = ef ? ef : 1;
	for (i = 0; i < 11; i++)
		if (sig_p && sig_p < 1024) {
			sig_p *= 2;
			ep--;
		}
	m8 = (sig_p + 125) / 126;
	es = m8 >= 16 ? ep - 20 : ep - 21;
	m8 = m8 == 17 ? 9 : m8 == 16 ? 8 : m8;
	es = es < -20 ? -20 : es > 11 ? 11 : es;
	if (!sig_p) {
		es = 0;
		m8 = 8;
	}
	for (i = 0; i < 32; i++) {
		long long e = (h[i] >> 10) & 0x1f, f = h[i] & 0x3ff;
		long long sig = e ? (1024 | f) : f;

		if (!e)
			e = 1;
		prod = sig * recip_py[m8];
		sh = 25 + 12 + es - e;
		safe = sh < 0 ? 0 : sh > 62 ? 62 : sh;
		mag = sh > 40 ? 0 : (prod >> safe) +
			((prod >> (safe > 0 ? safe - 1 : 0)) & 1);
		if (mag > 63)
			mag = 63;
		q[i] = (h[i] & 0x8000) ? -(int)mag : (int)mag;
	}
	return (unsigned int)(((es + 20) << 3) | (m8 - 8));
}

/* bit b of a little-endian byte string */
static unsigned int bit_at(const u8 *w, unsigned int b)
{
	return (w[b / 8] >> (b % 8)) & 1;
}

/* the 7 bits at [hi : hi - 6], signed */
static int field_int7_at(const u8 *w, unsigned int hi)
{
	unsigned int i, v = 0;

	for (i = 0; i < 7; i++)
		v = (v << 1) | bit_at(w, hi - i);
	return v & 0x40 ? (int)v - 128 : (int)v;
}

/* lane, k of an entry as RTL mx_quant.v packs it (A or B) */
static int entry_q(const u8 *out, bool blayout, unsigned int lane,
		   unsigned int k)
{
	unsigned int w = k / 8, kk = k % 8;
	unsigned int o = blayout ? kk * 4 + lane : lane * 8 + kk;

	return field_int7_at(out + 32 * w, 255 - 7 * o);
}

/* the scale byte of a lane in word w: [31 - 8 lane : 24 - 8 lane] */
static unsigned int entry_s(const u8 *out, unsigned int w, unsigned int lane)
{
	unsigned int i, v = 0;

	for (i = 0; i < 8; i++)
		v |= bit_at(out + 32 * w, 24 - 8 * lane + i) << i;
	return v;
}

static unsigned long fails;

/* Convert src with the model; check every lane against the reference. */
static void check_entry(const u16 *src, bool blayout, const char *what)
{
	u8 in[KH_MX_SRC_BYTES], out[KH_MX_OUT_BYTES];
	int q[32];
	unsigned int j, lane, k, w;

	for (j = 0; j < 128; j++) {
		in[2 * j] = (u8)src[j];
		in[2 * j + 1] = (u8)(src[j] >> 8);
	}
	ksim_mxfp7_entry(in, blayout, out);
	for (lane = 0; lane < 4; lane++) {
		unsigned int s = ref_block(src + 32 * lane, q);

		for (w = 0; w < 4; w++)
			if (entry_s(out, w, lane) != s && fails++ < 10)
				check_fail_at(__FILE__, __LINE__,
					    "%s %c lane %u word %u: scale %02x, reference %02x",
					    what, blayout ? 'B' : 'A', lane, w,
					    entry_s(out, w, lane), s);
		for (k = 0; k < 32; k++) {
			int m = entry_q(out, blayout, lane, k);

			if (m != q[k] && fails++ < 10)
				check_fail_at(__FILE__, __LINE__,
					    "%s %c lane %u k %u (fp16 %04x): %d, reference %d",
					    what, blayout ? 'B' : 'A', lane, k,
					    src[32 * lane + k], m, q[k]);
			if ((m < -63 || m > 63) && fails++ < 10)
				check_fail_at(__FILE__, __LINE__, "%d out of range", m);
		}
	}
}

TEST_F(model, every_fp16_value_alone)
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
TEST_F(model, known_values)
{
	u16 h[32];
	s8 q[32];

	memset(h, 0, sizeof(h));
	h[0] = 0x3c00;			/* 1.0: ceil(1024/126) = 9, 2^-6 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(14, 1));
	CHECK_EQ(q[0], 57);		/* 1024 * 3641 >> 16 = 56, bit 15 set */
	h[0] = 0xfbff;			/* -65504: sig 2047 > 2016 -> m8 9 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(30, 1));
	CHECK_EQ(q[0], -57);
	h[0] = 0x7c00;			/* +Inf is 2^16 to the quantiser */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(30, 1));
	CHECK_EQ(q[0], 57);
	h[0] = 0x7e00;			/* NaN: a number of exponent 31 */
	h[1] = 0x3800;			/* 0.5: t >= 8, zero */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(30, 5));
	CHECK_EQ(q[0], 59);
	CHECK_EQ(q[1], 0);
	memset(h, 0, sizeof(h));
	h[5] = 0x8000;			/* -0: an empty block, scale 2^0 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(20, 0));
	CHECK_EQ(q[5], 0);
	h[0] = 0x57f0;			/* 127: sig 2032 > 2016 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(21, 1));
	CHECK_EQ(q[0], 56);
	h[0] = 0x57e0;			/* 126 = 63 * 2 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(21, 0));
	CHECK_EQ(q[0], 63);
	h[1] = 0x3c00;			/* 1 / 2 = 0.5: half up, 1 */
	h[2] = 0x3e00;			/* 1.5 / 2 = 0.75 -> 1 */
	h[3] = 0x4500;			/* 5 / 2 = 2.5: half up, 3 */
	CHECK_EQ(ksim_mxfp7_block(h, q), KH_MX_SCALE(21, 0));
	CHECK_EQ(q[1], 1);
	CHECK_EQ(q[2], 1);
	CHECK_EQ(q[3], 3);
}

static u16 rnd_fp16(int elo, int ehi)
{
	int e = elo + (int)(rnd() % (u64)(ehi - elo + 1));

	return (u16)(((rnd() & 1) << 15) | ((unsigned int)e << 10) |
		     (rnd() & 0x3ff));
}

TEST_F(model, random_blocks)
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

TEST_F(model, blocks_with_specials)
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

/* A block is 32 consecutive values in both packings; B only reorders. */
TEST_F(model, packings_a_and_b)
{
	u8 in[256], outa[128], outb[128];
	unsigned int j, lane, k;

	/* lane l's values in binade 15 + 3l, k identifying the value */
	for (j = 0; j < 128; j++) {
		u16 h = (u16)(((15 + 3 * (j / 32)) << 10) | ((j % 32) << 5));

		in[2 * j] = (u8)h;
		in[2 * j + 1] = (u8)(h >> 8);
	}
	ksim_mxfp7_entry(in, false, outa);
	ksim_mxfp7_entry(in, true, outb);
	for (lane = 0; lane < 4; lane++)
		for (k = 0; k < 32; k++)
			CHECK_EQ(entry_q(outa, false, lane, k),
				 entry_q(outb, true, lane, k));
	/* A: word 1, element 0 = lane 0 k 8; B: word 1, element 1 = lane 1 k 8 */
	CHECK_EQ(field_int7_at(outa + 32, 255), entry_q(outa, false, 0, 8));
	CHECK_EQ(field_int7_at(outb + 32, 248), entry_q(outa, false, 1, 8));
	for (lane = 0; lane < 4; lane++)
		CHECK_EQ(outa[3 - lane], entry_s(outa, 0, lane));
	CHECK(memcmp(outa, outb, 128) != 0);
}

CHECK_TEST_MAIN
