// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * FP16 -> MXFP7 as KohakuTPU's quantiser computes it (RTL
 * src/kohakutpu/transform/mx_quant.v; docs/spec/mxfp7.md), in integer code.
 *
 * Per block (32 consecutive source values, one lane): the peak is the
 * largest bits[14:0] (Inf and NaN are ordinary numbers of exponent 31);
 * its significand, renormalised into [1024, 2048), picks the scale
 * mantissa from a threshold table (ceil(sig / 126)) and the scale
 * exponent; each element is sig * recip(m8) >> (16 + t), t = 21 + sexp -
 * e, rounded half up on the one bit below, zero when t >= 8, clamped to
 * 63 (never -64), sign applied after.  Word w of the entry is K-slice w:
 * 4 lanes x 8 elements packed MSB first, the four scale bytes in [31:0].
 */
#include "mxfp7.h"

/* mx_quant.v `recip`: round(4096 * 8 / m8) */
static const u16 ksim_mx_recip[8] = {
	4096, 3641, 3277, 2979, 2731, 2520, 2341, 2185,
};

/* mx_quant.v `decode`: {e, sig} of a 15-bit magnitude; e is 1 if 0 */
static void ksim_mx_decode(u16 mag, unsigned int *e, unsigned int *sig)
{
	*e = (mag >> 10) & 0x1f;
	*sig = mag & 0x3ff;
	if (*e)
		*sig |= 0x400;
	else
		*e = 1;
}

u8 ksim_mxfp7_block(const u16 *h, s8 *q)
{
	unsigned int i, e, sig, m8;
	u16 peak = 0;
	int ep, sexp, t;

	for (i = 0; i < KH_MX_KBLOCK; i++)
		if ((h[i] & 0x7fff) > peak)
			peak = h[i] & 0x7fff;
	/* PK_NORM: renormalise the peak's significand into [1024, 2048) */
	ksim_mx_decode(peak, &e, &sig);
	ep = (int)e;
	while (sig && sig < 1024) {
		sig <<= 1;
		ep--;
	}
	/* PK_SCALE */
	if (!sig) {
		sexp = 0;
		m8 = 8;
	} else if (sig > 1890) {
		sexp = ep - 20;
		m8 = sig > 2016 ? 9 : 8;
	} else {
		sexp = ep - 21;
		m8 = sig > 1764 ? 15 : sig > 1638 ? 14 : sig > 1512 ? 13 :
		     sig > 1386 ? 12 : sig > 1260 ? 11 : sig > 1134 ? 10 : 9;
	}
	if (sexp < -KH_MX_SBIAS)
		sexp = -KH_MX_SBIAS;
	else if (sexp > 31 - KH_MX_SBIAS)
		sexp = 31 - KH_MX_SBIAS;
	/* PK_PACK, per element */
	for (i = 0; i < KH_MX_KBLOCK; i++) {
		unsigned int x8, sum, mag;
		u32 pmul;

		ksim_mx_decode(h[i] & 0x7fff, &e, &sig);
		t = sexp + 21 - (int)e;
		pmul = sig * ksim_mx_recip[m8 - 8];
		x8 = ((pmul >> 15) & 0xff) >> (t & 7);
		sum = (x8 >> 1) + (x8 & 1);	/* round half up */
		mag = (t < 0 || sum >= 64) ? KH_MX_INT_MAX : sum;
		if (!sig || t >= 8)
			mag = 0;
		q[i] = (s8)((h[i] & 0x8000) ? -(int)mag : (int)mag);
	}
	return (u8)((((unsigned int)(sexp + KH_MX_SBIAS) & 0x1f) << 3) |
		    (m8 & 7));
}

/* Bit b (0 = LSB) of a little-endian 32-byte word. */
static void ksim_mx_put7(u8 *w, unsigned int lsb, unsigned int v)
{
	unsigned int i;

	for (i = 0; i < KH_MX_INT_BITS; i++)
		if (v & (1u << i))
			w[(lsb + i) / 8] |= (u8)(1u << ((lsb + i) % 8));
}

void ksim_mxfp7_entry(const u8 *src, bool blayout, u8 *out)
{
	u16 blk[KH_MX_LANES][KH_MX_KBLOCK];
	s8 q[KH_MX_LANES][KH_MX_KBLOCK];
	u8 s[KH_MX_LANES];
	unsigned int j, lane, w, o;

	for (j = 0; j < KH_MX_ENTRY_ELEMS; j++)
		blk[j / KH_MX_KBLOCK][j % KH_MX_KBLOCK] =
			(u16)(src[2 * j] | (src[2 * j + 1] << 8));
	for (lane = 0; lane < KH_MX_LANES; lane++)
		s[lane] = ksim_mxfp7_block(blk[lane], q[lane]);
	memset(out, 0, KH_MX_OUT_BYTES);
	for (w = 0; w < KH_MX_OUT_WORDS; w++) {
		u8 *wd = out + w * KH_MX_WORD_BYTES;

		for (o = 0; o < KH_MX_WORD_ELEMS; o++) {
			unsigned int l = blayout ? KH_MX_B_LANE(o) : KH_MX_A_LANE(o);
			unsigned int kk = blayout ? KH_MX_B_KK(o) : KH_MX_A_KK(o);

			ksim_mx_put7(wd, KH_MX_ELEM_LSB(o),
				     (u8)q[l][w * KH_MX_SLICE + kk] & 0x7f);
		}
		for (lane = 0; lane < KH_MX_LANES; lane++)
			wd[KH_MX_SCALE_BYTE(lane)] = s[lane];
	}
}
