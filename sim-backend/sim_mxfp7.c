// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * FP16 -> MXFP7, exactly and without floating point.
 *
 * A finite binary16 magnitude is m * 2^(e - 25) (m the significand with
 * the hidden bit, e the biased exponent, 1 for subnormals) and a scale
 * S = {E, M} is (8 + M) * 2^(E - 23), so |x| / scale = m * 2^(e - E - 2) /
 * (8 + M): a ratio of integers below 2^40, rounded to nearest, ties to
 * even.  The scale of a block is the smallest S at which its largest
 * magnitude rounds to at most 63 (binary search: the rounded quotient
 * never grows with S).  Inf saturates to 65504, NaN is 0.
 */
#include "sim_mxfp7.h"

#define KSIM_FP16_MAG_MAX		0x7bffu	/* 65504 */
#define KSIM_FP16_INF		0x7c00u

/* A magnitude bit pattern after the special-value rules. */
static u16 ksim_mx_mag(u16 h)
{
	u16 a = h & 0x7fff;

	if (a > KSIM_FP16_INF)
		return 0;			/* NaN */
	if (a == KSIM_FP16_INF)
		return KSIM_FP16_MAG_MAX;		/* Inf saturates */
	return a;
}

/* round(mag / scale(s)), nearest-even, saturating at 64 ("too big"). */
static unsigned int ksim_mx_quot(u16 mag, unsigned int s)
{
	unsigned int e = mag >> 10;
	u64 n = e ? (u64)((mag & 0x3ff) | 0x400) : (u64)(mag & 0x3ff);
	u64 d = 8 + KH_MX_SCALE_M(s), r;
	unsigned int q = 0;
	int k, b;

	if (!e)
		e = 1;
	k = (int)e - (int)KH_MX_SCALE_E(s) - 2;
	if (k >= 0)
		n <<= k;
	else
		d <<= -k;
	if (n >= d << 6)
		return 64;
	r = n;
	for (b = 5; b >= 0; b--) {
		if (r >= d << b) {
			r -= d << b;
			q |= 1u << b;
		}
	}
	if (2 * r > d || (2 * r == d && (q & 1)))
		q++;
	return q;
}

u8 ksim_mxfp7_block(const u16 *h, s8 *q)
{
	unsigned int i, lo = 0, hi = 255;
	u16 amax = 0;

	for (i = 0; i < KH_MX_KBLOCK; i++) {
		u16 a = ksim_mx_mag(h[i]);

		if (a > amax)
			amax = a;
	}
	/* the smallest s with quot(amax, s) <= 63; s = 255 always fits */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (ksim_mx_quot(amax, mid) <= KH_MX_INT_MAX)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (i = 0; i < KH_MX_KBLOCK; i++) {
		int v = (int)ksim_mx_quot(ksim_mx_mag(h[i]), lo);

		q[i] = (s8)((h[i] & 0x8000) ? -v : v);
	}
	return (u8)lo;
}

void ksim_mxfp7_entry(const u8 *src, bool blayout, u8 *out)
{
	u16 blk[KH_MX_LANES][KH_MX_KBLOCK];
	s8 q[KH_MX_KBLOCK];
	unsigned int j, lane, k;

	for (j = 0; j < KH_MX_ENTRY_ELEMS; j++) {
		u16 h = (u16)(src[2 * j] | (src[2 * j + 1] << 8));

		if (blayout)
			blk[KH_MX_B_LANE(j)][KH_MX_B_K(j)] = h;
		else
			blk[KH_MX_A_LANE(j)][KH_MX_A_K(j)] = h;
	}
	memset(out, 0, KH_MX_OUT_BYTES);
	for (lane = 0; lane < KH_MX_LANES; lane++) {
		u8 *w = out + lane * KH_MX_WORD_BYTES;
		u8 s = ksim_mxfp7_block(blk[lane], q);

		for (k = 0; k < KH_MX_KBLOCK; k++) {
			unsigned int v = (u8)q[k] & 0x7f, bit = k * KH_MX_INT_BITS;

			/* 7 bits at bit 7k span at most two bytes */
			w[bit / 8] |= (u8)(v << (bit % 8));
			if (bit % 8 > 8 - KH_MX_INT_BITS)
				w[bit / 8 + 1] |= (u8)(v >> (8 - bit % 8));
		}
		w[KH_MX_SCALE_BIT / 8] = s;
	}
}
