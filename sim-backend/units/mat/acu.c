// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cluster's numerics, bit for bit as the RTL computes them.
 *
 * The chain (mx_tcu.v, mx_mac.v): four TCUs of eight DSP stages sum the 32
 * int7 x int7 products of a row of A and a column of B exactly (two rows
 * packed per DSP at offset 19; the unpack in mx_acu_fp.v L181-200 is
 * exact for |sum| <= 2^17), so the sum is plain integer arithmetic here.
 *
 * Stage 1 (mx_acu_fp.v L144-221): |sum| * (8 + Ma) * (8 + Mb), exponent
 * Ea + Eb - anchor - 6.  The ship tops' double-pumped accumulator
 * (mx_acu_fp_pump.v L283-395, "fix A") merges the two K blocks of a
 * command here, in fixed point: the term with the smaller exponent is
 * shifted right (truncated, no sticky, at most 30) and added to or
 * subtracted from the other, the sign from the larger magnitude; a lone
 * final block passes alone.  Stage 2 (mx_fpacc.v norm_a/norm_p/norm_b,
 * L169-264): the 30-bit magnitude left-justified, the top 15 bits rounded
 * to nearest even on the guard and sticky below, the FP22 exponent msb +
 * exp + 63 kept to 7 bits (no clamp: it wraps, as the RTL's e[6:0] does).
 *
 * The accumulate (mx_fpacc_align, round_a, round_b, L276-430): operands
 * with exponent 0 (or forced zero) are zero; the smaller is shifted right
 * with 8 guard bits and a sticky of what fell off; add or subtract; the
 * leading one found; round to nearest even on 15 bits; exponent <= 0 is 0,
 * >= 127 saturates.  FP16 (mx_fpacc_to_fp16, L526-580): nearest even,
 * flush below the normal range (sign kept), saturate to 0x7bff.
 */
#include "mat.h"

#define KSIM_FP22_MW	KH_MAT_FP22_MW
#define KSIM_FP22_SW	(KSIM_FP22_MW + 1 + 8)	/* 1.f + 8 guard bits: 23 */
#define KSIM_MAT_VWM	30	/* the merged magnitude's width */

static unsigned int ksim_mat_msb(u64 v)
{
	unsigned int b = 0;

	while (v >> (b + 1))
		b++;
	return b;
}

/* norm_a + norm_p + norm_b: a magnitude, its sign and exponent -> FP22 */
static u32 ksim_mat_norm(u32 mag, bool sign, int exp)
{
	unsigned int msb, sig, guard, sticky, up, sig_r, e;
	u32 lj;

	if (!mag)
		return 0;
	msb = ksim_mat_msb(mag);
	lj = mag << (29 - msb);			/* 30 bits, leading one at 29 */
	sig = lj >> 15;				/* 15 bits: 1.f */
	guard = (lj >> 14) & 1;
	sticky = (lj & 0x3fff) != 0;
	up = guard & (sticky | (sig & 1));
	sig_r = sig + up;
	e = (unsigned int)((int)msb + exp + KH_MAT_FP22_BIAS) & 0x7f;
	e = (e + (sig_r >> 15)) & 0x7f;
	return (sign ? KH_MAT_FP22_SIGN : 0) | (e << KSIM_FP22_MW) |
	       (sig_r & 0x3fff);
}

/* One lane of one K block: |sum| * (8+Ma)(8+Mb), its sign bit as the
 * unpack reads it (mx_acu_fp_pump.v L236-280), and its exponent. */
static void ksim_mat_lane(const struct ksim_mat_ent *a,
			  const struct ksim_mat_ent *b, unsigned int i,
			  unsigned int j, u8 anchor, u32 *mag, bool *sgn,
			  int *exp)
{
	int sum = 0, lo = 0;
	unsigned int k;

	for (k = 0; k < KH_MAT_KBLOCK; k++)
		sum += a->q[i * KH_MAT_KBLOCK + k] * b->q[j * KH_MAT_KBLOCK + k];
	/* an odd row is the packed high field: its sign bit is that of
	 * sum - borrow, the borrow being the even row's sign (L250-258) */
	if (i & 1)
		for (k = 0; k < KH_MAT_KBLOCK; k++)
			lo += a->q[(i - 1) * KH_MAT_KBLOCK + k] *
			      b->q[j * KH_MAT_KBLOCK + k];
	*sgn = (i & 1) ? sum - (lo < 0) < 0 : sum < 0;
	*mag = (u32)(sum < 0 ? -sum : sum) * (8 + KH_MX_SCALE_M(a->s[i])) *
	       (8 + KH_MX_SCALE_M(b->s[j]));
	*exp = (int)KH_MX_SCALE_E(a->s[i]) + (int)KH_MX_SCALE_E(b->s[j]) -
	       (int)anchor - 6;
}

void ksim_mat_chain_pair(const struct ksim_mat_ent *a0,
			 const struct ksim_mat_ent *b0,
			 const struct ksim_mat_ent *a1,
			 const struct ksim_mat_ent *b1, bool single, u8 anchor,
			 u32 *out)
{
	unsigned int i, j;

	for (i = 0; i < KH_MAT_SUB; i++)
		for (j = 0; j < KH_MAT_SUB; j++) {
			u32 m0, m1, bm, sm, sal, mag;
			bool g0, g1, bs, ss, big2, same;
			int e1, e2, me, d;
			unsigned int sh;

			/* m1/e2: phase 0 (kb), m0/e1: phase 1 (kb + 1) */
			ksim_mat_lane(a0, b0, i, j, anchor, &m1, &g1, &e2);
			ksim_mat_lane(a1, b1, i, j, anchor, &m0, &g0, &e1);
			d = e1 - e2;
			big2 = d < 0;
			sh = (unsigned int)(d < 0 ? -d : d);
			if (sh > KSIM_MAT_VWM)
				sh = KSIM_MAT_VWM;
			if (single) {
				bm = m1;
				sm = 0;
				bs = ss = g1;
				me = e2;
			} else {
				bm = big2 ? m1 : m0;
				sm = big2 ? m0 : m1;
				bs = big2 ? g1 : g0;
				ss = big2 ? g0 : g1;
				me = big2 ? e2 : e1;
			}
			/* the smaller exponent's term truncated (L320-372) */
			sal = sh >= 32 ? 0 : sm >> sh;
			same = bs == ss;
			if (same)
				mag = bm + sal;
			else
				mag = bm >= sal ? bm - sal : sal - bm;
			if (!same && bm < sal)
				bs = ss;
			if (mag >> KSIM_MAT_VWM) {	/* never at K = 32 */
				mag >>= 1;
				me++;
			}
			out[i * KH_MAT_SUB + j] = ksim_mat_norm(mag, bs, me);
		}
}

u32 ksim_mat_fp22_add(u32 a, u32 b, bool a_zero, bool b_zero)
{
	unsigned int ea = KH_MAT_FP22_EXP(a), eb = KH_MAT_FP22_EXP(b);
	unsigned int ma = KH_MAT_FP22_FRAC(a), mb = KH_MAT_FP22_FRAC(b);
	bool za = a_zero || !ea, zb = b_zero || !eb, a_ge, sub, lost, s_big;
	unsigned int e_big, diff, dcl, bg, sml, sh, sum, p, lz, norm, sig, g, st;
	unsigned int up;
	int e_out;

	if (za && zb)
		return 0;
	if (za ^ zb)
		return za ? b : a;		/* pass the other through */
	a_ge = ((ea << KSIM_FP22_MW) | ma) >= ((eb << KSIM_FP22_MW) | mb);
	e_big = a_ge ? ea : eb;
	s_big = a_ge ? !!(a & KH_MAT_FP22_SIGN) : !!(b & KH_MAT_FP22_SIGN);
	sub = !!((a ^ b) & KH_MAT_FP22_SIGN);
	diff = ea >= eb ? ea - eb : eb - ea;
	dcl = diff >= KSIM_FP22_SW ? KSIM_FP22_SW : diff;
	bg = ((1u << KSIM_FP22_MW) | (a_ge ? ma : mb)) << 8;
	sml = ((1u << KSIM_FP22_MW) | (a_ge ? mb : ma)) << 8;
	sh = dcl >= 32 ? 0 : sml >> dcl;
	lost = (sml & ((1u << dcl) - 1)) != 0;
	/* round_a: a 24-bit sum, its leading one, the normalising shift */
	sum = (sub ? bg - sh : bg + sh) & 0xffffff;
	if (!sum)
		return 0;
	p = ksim_mat_msb(sum);
	lz = KSIM_FP22_SW - p;
	norm = (sum << lz) & 0xffffff;
	/* round_b */
	e_out = (int)e_big + 1 - (int)lz;
	sig = norm >> 9;			/* [23:9], 15 bits */
	g = (norm >> 8) & 1;
	st = lost || (norm & 0xff);
	up = g & (st | (sig & 1));
	if (up && sig == 0x7fff)
		e_out++;
	sig = (sig + up) & 0x7fff;
	if (e_out <= 0)
		return 0;
	if (e_out >= 127)
		return (s_big ? KH_MAT_FP22_SIGN : 0) | (0x7fu << KSIM_FP22_MW) |
		       0x3fff;
	return (s_big ? KH_MAT_FP22_SIGN : 0) |
	       ((u32)e_out << KSIM_FP22_MW) | (sig & 0x3fff);
}

u16 ksim_mat_fp22_to_fp16(u32 v)
{
	unsigned int s = !!(v & KH_MAT_FP22_SIGN), e = KH_MAT_FP22_EXP(v);
	unsigned int m = KH_MAT_FP22_FRAC(v), gd, st, up, m11;
	int e16;

	if (!e)
		return (u16)(s << 15);
	gd = (m >> 3) & 1;
	st = (m & 7) != 0;
	up = gd & (st | ((m >> 4) & 1));
	m11 = (m >> 4) + up;
	e16 = (int)e - 48;
	if (m11 & 0x400) {
		e16++;
		m11 = 0;
	}
	if (e16 <= 0)
		return (u16)(s << 15);
	if (e16 >= 31)
		return (u16)((s << 15) | (0x1e << 10) | 0x3ff);
	return (u16)((s << 15) | ((unsigned int)e16 << 10) | (m11 & 0x3ff));
}
