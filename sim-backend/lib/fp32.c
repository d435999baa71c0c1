// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * binary32 fused multiply-add with integers only.
 *
 * A finite value is m * 2^e with an integer significand m (24 bits with
 * the implicit bit, or fewer for a subnormal).  The product of two is
 * exact in 48 bits.  Both addends are normalised so their top bit sits at
 * bit 61 of a u64, the smaller is shifted right with the shifted-out bits
 * ORed into bit 0 (a sticky "jam"), and they are added or subtracted:
 *
 * - a shift of up to 14 places loses nothing (a normalised product has its
 *   low 14 bits clear, an addend its low 38), so massive cancellation,
 *   which needs exponents within one of each other, is exact;
 * - for larger shifts the difference keeps its top bit at 60 or above,
 *   and the jam bit sits far below the rounding position, so the one
 *   rounding at the end sees the right side of every tie.
 */
#include "fp32.h"

#define F32_SIGN	0x80000000u
#define F32_INF		0x7f800000u
#define F32_TOP		61	/* where both addends' top bits are aligned */

static unsigned int ksim_clz64(u64 v)
{
	unsigned int n = 0;

	if (!(v >> 32)) {
		n += 32;
		v <<= 32;
	}
	if (!(v >> 48)) {
		n += 16;
		v <<= 16;
	}
	if (!(v >> 56)) {
		n += 8;
		v <<= 8;
	}
	if (!(v >> 60)) {
		n += 4;
		v <<= 4;
	}
	if (!(v >> 62)) {
		n += 2;
		v <<= 2;
	}
	if (!(v >> 63))
		n += 1;
	return n;
}

/* Shift right by n with every lost bit ORed into bit 0. */
static u64 ksim_shr_jam(u64 v, unsigned int n)
{
	if (!n)
		return v;
	if (n >= 64)
		return v != 0;
	return (v >> n) | ((v & ((1ULL << n) - 1)) != 0);
}

/* Finite nonzero x -> significand and exponent, value = m * 2^e. */
static void ksim_unpack(u32 x, u64 *m, int *e)
{
	u32 ex = (x >> 23) & 0xff, fr = x & 0x7fffff;

	if (ex) {
		*m = fr | 0x800000;
		*e = (int)ex - 150;
	} else {
		*m = fr;
		*e = -149;
	}
}

/*
 * Round sign * s * 2^e (s != 0, bit 63 clear) to binary32, nearest even,
 * with gradual underflow and overflow to infinity.
 */
static u32 ksim_round_pack(u32 sign, u64 s, int e)
{
	int msb = 63 - (int)ksim_clz64(s);
	int shift = msb - 23;
	u64 q, rem, half;
	u32 bits;
	int lsb_e;

	/* below the normal range the grid is fixed at 2^-149 */
	if (e + shift < -149)
		shift = -149 - e;
	if (shift <= 0) {
		q = s << -shift;	/* exact: fewer than 24 bits */
	} else if (shift >= 64) {
		q = 0;			/* below half the smallest subnormal */
	} else {
		q = s >> shift;
		rem = s & ((1ULL << shift) - 1);
		half = 1ULL << (shift - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	lsb_e = e + shift;
	/*
	 * q includes the implicit bit for a normal result, so adding it to
	 * the exponent field minus one gives the encoding, and a carry out
	 * of the significand (q = 2^24, or a subnormal rounding up to 2^23)
	 * moves into the exponent by itself.
	 */
	if (lsb_e + 149 >= 255)
		return sign | F32_INF;
	bits = ((u32)(lsb_e + 149) << 23) + (u32)q;
	if (bits >= F32_INF)
		return sign | F32_INF;
	return sign | bits;
}

static bool is_nan(u32 x)
{
	return (x & 0x7fffffffu) > F32_INF;
}

static bool is_inf(u32 x)
{
	return (x & 0x7fffffffu) == F32_INF;
}

static bool is_zero(u32 x)
{
	return !(x & 0x7fffffffu);
}

u32 ksim_fp32_fma(u32 a, u32 b, u32 c)
{
	u32 sp = (a ^ b) & F32_SIGN, sc = c & F32_SIGN, sign;
	u64 ma, mb, mc, mp;
	int ea, eb, ec, ep, d;

	if (is_nan(a) || is_nan(b) || is_nan(c))
		return KSIM_FP32_QNAN;
	if (is_inf(a) || is_inf(b)) {
		if (is_zero(a) || is_zero(b))
			return KSIM_FP32_QNAN;	/* inf * 0 */
		if (is_inf(c) && sc != sp)
			return KSIM_FP32_QNAN;	/* inf - inf */
		return sp | F32_INF;
	}
	if (is_inf(c))
		return c;
	if (is_zero(a) || is_zero(b)) {
		/* exact zero product: c unchanged, or a signed zero sum */
		if (is_zero(c))
			return sp & sc;		/* -0 only for -0 + -0 */
		return c;
	}

	ksim_unpack(a, &ma, &ea);
	ksim_unpack(b, &mb, &eb);
	mp = ma * mb;
	ep = ea + eb;
	d = ksim_clz64(mp) - (63 - F32_TOP);
	mp <<= d;
	ep -= d;
	if (is_zero(c))
		return ksim_round_pack(sp, mp, ep);

	ksim_unpack(c, &mc, &ec);
	d = ksim_clz64(mc) - (63 - F32_TOP);
	mc <<= d;
	ec -= d;

	/* align to the larger exponent */
	if (ep >= ec) {
		mc = ksim_shr_jam(mc, (unsigned int)(ep - ec > 64 ? 64 : ep - ec));
		ec = ep;
	} else {
		mp = ksim_shr_jam(mp, (unsigned int)(ec - ep > 64 ? 64 : ec - ep));
		ep = ec;
	}

	if (sp == sc) {
		sign = sp;
		mp += mc;	/* at most 2^63: top bits at 61 */
	} else if (mp >= mc) {
		sign = sp;
		mp -= mc;
	} else {
		sign = sc;
		mp = mc - mp;
	}
	if (!mp)
		return 0;	/* exact cancellation: +0 when rounding to nearest */
	return ksim_round_pack(sign, mp, ep);
}
