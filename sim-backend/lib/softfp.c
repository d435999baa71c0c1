// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * binary32 and binary16 arithmetic with integers only (softfp.h has the
 * rules): one fused multiply-add, from which add, subtract and multiply
 * are made, the conversions to and from integers and between the two
 * formats, all through one rounding routine.
 *
 * A finite value is m * 2^e with an integer significand m (24 or 11 bits
 * with the implicit bit, or fewer for a subnormal).  The product of two is
 * exact in 48 (22) bits.  Both addends are normalised so their top bit
 * sits at bit 61 of a u64, the smaller is shifted right with the
 * shifted-out bits ORed into bit 0 (a sticky "jam"), and they are added
 * or subtracted:
 *
 * - a shift of up to 14 places loses nothing (a normalised binary32
 *   product has its low 14 bits clear, an addend its low 38; binary16
 *   leaves more), so massive cancellation, which needs exponents within
 *   one of each other, is exact;
 * - for larger shifts the difference keeps its top bit at 60 or above and
 *   is odd when bits were lost, while the rounding position is at bit 37
 *   or above: the exact sum and the jammed one lie strictly between the
 *   same two rounding boundaries, so the one rounding at the end, in any
 *   mode, gives the same result and the same flags for both.
 */
#include "softfp.h"

#define KSIM_SF_TOP	61	/* where both addends' top bits are aligned */

const struct ksim_sf_fmt ksim_sf_binary32 = { .mbits = 23, .ebits = 8 };
const struct ksim_sf_fmt ksim_sf_binary16 = { .mbits = 10, .ebits = 5 };

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

/* ---- the format's constants ---- */

static u32 ksim_sf_sign(const struct ksim_sf_fmt *f)
{
	return 1u << (f->ebits + f->mbits);
}

static u32 ksim_sf_inf(const struct ksim_sf_fmt *f)
{
	return ((1u << f->ebits) - 1) << f->mbits;
}

/* the exponent of a subnormal's (and the smallest normal's) last bit */
static int ksim_sf_lsb0(const struct ksim_sf_fmt *f)
{
	return 2 - (1 << (f->ebits - 1)) - f->mbits;
}

/**
 * ksim_sf_qnan() - the canonical quiet NaN of a format
 * @f: the format
 *
 * Return: sign 0, exponent all ones, the quiet bit alone (0x7fc00000,
 * 0x7e00): every NaN result of this file.
 */
u32 ksim_sf_qnan(const struct ksim_sf_fmt *f)
{
	return ksim_sf_inf(f) | 1u << (f->mbits - 1);
}

static bool ksim_sf_is_nan(const struct ksim_sf_fmt *f, u32 x)
{
	return (x & (ksim_sf_sign(f) - 1)) > ksim_sf_inf(f);
}

/* a NaN with its quiet bit clear */
static bool ksim_sf_is_snan(const struct ksim_sf_fmt *f, u32 x)
{
	return ksim_sf_is_nan(f, x) && !(x & 1u << (f->mbits - 1));
}

static bool ksim_sf_is_inf(const struct ksim_sf_fmt *f, u32 x)
{
	return (x & (ksim_sf_sign(f) - 1)) == ksim_sf_inf(f);
}

static bool ksim_sf_is_zero(const struct ksim_sf_fmt *f, u32 x)
{
	return !(x & (ksim_sf_sign(f) - 1));
}

/* Finite nonzero x -> significand and exponent, value = m * 2^e. */
static void ksim_sf_unpack(const struct ksim_sf_fmt *f, u32 x, u64 *m, int *e)
{
	u32 ex = (x >> f->mbits) & ((1u << f->ebits) - 1);
	u32 fr = x & ((1u << f->mbits) - 1);

	if (ex) {
		*m = fr | 1u << f->mbits;
		*e = ksim_sf_lsb0(f) + (int)ex - 1;
	} else {
		*m = fr;
		*e = ksim_sf_lsb0(f);
	}
}

/*
 * s >> n rounded by rm for a value of sign sign (s != 0, bit 63 clear);
 * *inexact tells whether bits were lost.  n <= 0 shifts left, exactly.
 */
static u64 ksim_sf_shr_round(u64 s, int n, u32 sign, unsigned int rm,
			     bool *inexact)
{
	u64 q, rem, half;
	bool up;

	*inexact = false;
	if (n <= 0)
		return s << -n;
	if (n >= 64) {
		/* all of s, below half of the last place (bit 63 clear) */
		q = 0;
		rem = s;
		half = 1ULL << 63;
	} else {
		q = s >> n;
		rem = s & ((1ULL << n) - 1);
		half = 1ULL << (n - 1);
	}
	if (!rem)
		return q;
	*inexact = true;
	switch (rm) {
	case KSIM_SF_RNE:
		up = rem > half || (rem == half && (q & 1));
		break;
	case KSIM_SF_RUP:
		up = !sign;
		break;
	case KSIM_SF_RDN:
		up = sign;
		break;
	default:	/* KSIM_SF_RTZ */
		up = false;
		break;
	}
	return q + up;
}

/*
 * An overflowing result: infinity, or the largest finite number when the
 * round mode points toward zero for this sign (IEEE 754-2008 7.4).
 */
static u32 ksim_sf_overflow(const struct ksim_sf_fmt *f, u32 sign,
			    unsigned int rm, unsigned int *flags)
{
	*flags |= KSIM_SF_X_OVERFLOW | KSIM_SF_X_INEXACT;
	if (rm == KSIM_SF_RTZ || (rm == KSIM_SF_RUP && sign) ||
	    (rm == KSIM_SF_RDN && !sign))
		return sign | (ksim_sf_inf(f) - 1);
	return sign | ksim_sf_inf(f);
}

/*
 * Round sign * s * 2^e (s != 0, bit 63 clear) to the format by rm, with
 * gradual underflow, and raise the flags.
 */
static u32 ksim_sf_round_pack(const struct ksim_sf_fmt *f, u32 sign, u64 s,
			      int e, unsigned int rm, unsigned int *flags)
{
	int msb = 63 - (int)ksim_clz64(s);
	int shift = msb - f->mbits, lsb0 = ksim_sf_lsb0(f), lsb_e;
	bool tiny = false, inexact;
	u64 q;
	u32 bits;

	if (e + msb < lsb0 + f->mbits) {
		/*
		 * Below the smallest normal 2^(lsb0 + mbits): tiny, judged
		 * after rounding (RISC-V, x86 SSE), unless rounding to the
		 * full precision with an unbounded exponent carries it up to
		 * that normal, which only the binade just below can do.
		 */
		tiny = e + msb < lsb0 + f->mbits - 1 ||
		       !(ksim_sf_shr_round(s, shift, sign, rm, &inexact) >>
			 (f->mbits + 1));
		/* and there the grid is fixed at 2^lsb0 */
		if (e + shift < lsb0)
			shift = lsb0 - e;
	}
	q = ksim_sf_shr_round(s, shift, sign, rm, &inexact);
	lsb_e = e + shift;
	/*
	 * q includes the implicit bit for a normal result, so adding it to
	 * the exponent field minus one gives the encoding, and a carry out
	 * of the significand (q = 2^(mbits+1), or a subnormal rounding up to
	 * 2^mbits) moves into the exponent by itself.
	 */
	if (lsb_e - lsb0 >= (1 << f->ebits) - 1)
		return ksim_sf_overflow(f, sign, rm, flags);
	bits = ((u32)(lsb_e - lsb0) << f->mbits) + (u32)q;
	if (bits >= ksim_sf_inf(f))
		return ksim_sf_overflow(f, sign, rm, flags);
	if (inexact)
		*flags |= KSIM_SF_X_INEXACT;
	if (tiny && inexact)
		*flags |= KSIM_SF_X_UNDERFLOW;
	return sign | bits;
}

/* an exact zero sum of opposite signs: +0, except -0 rounding down */
static u32 ksim_sf_zero_sum(const struct ksim_sf_fmt *f, unsigned int rm)
{
	return rm == KSIM_SF_RDN ? ksim_sf_sign(f) : 0;
}

/**
 * ksim_sf_fma() - a * b + c with one rounding
 * @f: the format of a, b, c and the result
 * @a: multiplicand
 * @b: multiplier
 * @c: addend
 * @rm: round mode, KSIM_SF_RNE ... KSIM_SF_RDN
 * @flags: the KSIM_SF_X_* flags raised are ORed in
 *
 * The product is exact and never rounded on its own (IEEE 754-2008
 * fusedMultiplyAdd).  Invalid: a signalling NaN operand, inf * 0 (also
 * with a quiet NaN addend, as RISC-V requires), inf - inf; the result is
 * then, as for any NaN operand, the canonical quiet NaN.  An exact zero
 * sum is +0, or -0 rounding down, unless both terms are zeros of one sign.
 *
 * Return: the result's encoding.
 */
u32 ksim_sf_fma(const struct ksim_sf_fmt *f, u32 a, u32 b, u32 c,
		unsigned int rm, unsigned int *flags)
{
	u32 sgn = ksim_sf_sign(f);
	u32 sp = (a ^ b) & sgn, sc = c & sgn, sign;
	bool inf0 = (ksim_sf_is_inf(f, a) && ksim_sf_is_zero(f, b)) ||
		    (ksim_sf_is_zero(f, a) && ksim_sf_is_inf(f, b));
	u64 ma, mb, mc, mp;
	int ea, eb, ec, ep, d;

	if (ksim_sf_is_nan(f, a) || ksim_sf_is_nan(f, b) ||
	    ksim_sf_is_nan(f, c)) {
		if (ksim_sf_is_snan(f, a) || ksim_sf_is_snan(f, b) ||
		    ksim_sf_is_snan(f, c) || inf0)
			*flags |= KSIM_SF_X_INVALID;
		return ksim_sf_qnan(f);
	}
	if (ksim_sf_is_inf(f, a) || ksim_sf_is_inf(f, b)) {
		if (inf0 || (ksim_sf_is_inf(f, c) && sc != sp)) {
			*flags |= KSIM_SF_X_INVALID;	/* inf * 0, inf - inf */
			return ksim_sf_qnan(f);
		}
		return sp | ksim_sf_inf(f);
	}
	if (ksim_sf_is_inf(f, c))
		return c;
	if (ksim_sf_is_zero(f, a) || ksim_sf_is_zero(f, b)) {
		/* exact zero product: c unchanged, or a signed zero sum */
		if (ksim_sf_is_zero(f, c))
			return sp == sc ? sp : ksim_sf_zero_sum(f, rm);
		return c;
	}

	ksim_sf_unpack(f, a, &ma, &ea);
	ksim_sf_unpack(f, b, &mb, &eb);
	mp = ma * mb;
	ep = ea + eb;
	d = ksim_clz64(mp) - (63 - KSIM_SF_TOP);
	mp <<= d;
	ep -= d;
	if (ksim_sf_is_zero(f, c))
		return ksim_sf_round_pack(f, sp, mp, ep, rm, flags);

	ksim_sf_unpack(f, c, &mc, &ec);
	d = ksim_clz64(mc) - (63 - KSIM_SF_TOP);
	mc <<= d;
	ec -= d;

	/* align to the larger exponent */
	if (ep >= ec) {
		d = ep - ec > 64 ? 64 : ep - ec;
		mc = ksim_shr_jam(mc, (unsigned int)d);
		ec = ep;
	} else {
		d = ec - ep > 64 ? 64 : ec - ep;
		mp = ksim_shr_jam(mp, (unsigned int)d);
		ep = ec;
	}

	if (sp == sc) {
		sign = sp;
		mp += mc;	/* below 2^63: top bits at 61 */
	} else if (mp >= mc) {
		sign = sp;
		mp -= mc;
	} else {
		sign = sc;
		mp = mc - mp;
	}
	if (!mp)
		return ksim_sf_zero_sum(f, rm);	/* exact cancellation */
	return ksim_sf_round_pack(f, sign, mp, ep, rm, flags);
}

/**
 * ksim_sf_mul() - a * b, rounded once
 * @f: the format
 * @a: multiplicand
 * @b: multiplier
 * @rm: round mode
 * @flags: the flags raised are ORed in
 *
 * The FMA with an addend that changes nothing, not even a zero's sign:
 * -0 (x + -0 = x), but +0 rounding down, where +0 + -0 would be -0.
 *
 * Return: the result's encoding.
 */
u32 ksim_sf_mul(const struct ksim_sf_fmt *f, u32 a, u32 b, unsigned int rm,
		unsigned int *flags)
{
	return ksim_sf_fma(f, a, b, rm == KSIM_SF_RDN ? 0 : ksim_sf_sign(f),
			   rm, flags);
}

/**
 * ksim_sf_add() - a + b, rounded once
 * @f: the format
 * @a: first addend
 * @b: second addend
 * @rm: round mode
 * @flags: the flags raised are ORed in
 *
 * a * 1 + b: the product is exact, so the one rounding is the sum's.
 *
 * Return: the result's encoding.
 */
u32 ksim_sf_add(const struct ksim_sf_fmt *f, u32 a, u32 b, unsigned int rm,
		unsigned int *flags)
{
	u32 one = ((1u << (f->ebits - 1)) - 1) << f->mbits;

	return ksim_sf_fma(f, a, one, b, rm, flags);
}

/**
 * ksim_sf_sub() - a - b, rounded once
 * @f: the format
 * @a: minuend
 * @b: subtrahend
 * @rm: round mode
 * @flags: the flags raised are ORed in
 *
 * Return: the result's encoding (a + -b; negation is exact, even of a NaN).
 */
u32 ksim_sf_sub(const struct ksim_sf_fmt *f, u32 a, u32 b, unsigned int rm,
		unsigned int *flags)
{
	return ksim_sf_add(f, a, b ^ ksim_sf_sign(f), rm, flags);
}

/**
 * ksim_sf_from_int() - a 32-bit integer to the format
 * @f: the format
 * @x: the integer (a narrower one sign- or zero-extended)
 * @is_signed: x is two's complement, else unsigned
 * @rm: round mode
 * @flags: Inexact (and, for a binary16 above 65504, Overflow) ORed in
 *
 * Return: the rounded value; 0 is +0.
 */
u32 ksim_sf_from_int(const struct ksim_sf_fmt *f, u32 x, bool is_signed,
		     unsigned int rm, unsigned int *flags)
{
	u32 sign = 0;
	u64 mag = x;

	if (is_signed && (x >> 31)) {
		sign = ksim_sf_sign(f);
		mag = (u64)(~x) + 1;
	}
	if (!mag)
		return 0;
	return ksim_sf_round_pack(f, sign, mag, 0, rm, flags);
}

/**
 * ksim_sf_to_int() - the format to an integer, toward zero, saturating
 * @f: the format
 * @x: the value
 * @bits: the integer's width, 1..32
 * @is_signed: to two's complement, else unsigned
 * @flags: Invalid or Inexact ORed in
 *
 * As RISC-V's fcvt.w[u].s: the fraction is dropped (Inexact if it was not
 * zero); a value whose integer part is out of range, and an infinity,
 * give the nearest end of the range with Invalid alone; a NaN gives the
 * largest value (2^(bits-1) - 1, or 2^bits - 1 unsigned) with Invalid.  A
 * negative value above -1 is 0 unsigned, Inexact only.
 *
 * Return: the integer, in the low bits bits.
 */
u32 ksim_sf_to_int(const struct ksim_sf_fmt *f, u32 x, unsigned int bits,
		   bool is_signed, unsigned int *flags)
{
	u64 top = is_signed ? 1ULL << (bits - 1) : 0;	/* -min */
	u64 max = is_signed ? top - 1 : (1ULL << bits) - 1;
	u64 mask = (1ULL << bits) - 1, m, q;
	bool neg = x & ksim_sf_sign(f), frac;
	int e;

	if (ksim_sf_is_nan(f, x)) {
		*flags |= KSIM_SF_X_INVALID;
		return (u32)max;
	}
	if (ksim_sf_is_zero(f, x))
		return 0;
	if (ksim_sf_is_inf(f, x)) {
		q = 1ULL << 32;		/* beyond every range */
		frac = false;
	} else {
		ksim_sf_unpack(f, x, &m, &e);
		if (e >= 32) {
			q = 1ULL << 32;
			frac = false;
		} else if (e >= 0) {
			q = m << e;
			frac = false;
		} else if (e > -64) {
			q = m >> -e;
			frac = (m & ((1ULL << -e) - 1)) != 0;
		} else {
			q = 0;
			frac = true;
		}
	}
	if (neg ? q > top : q > max) {
		*flags |= KSIM_SF_X_INVALID;
		return (u32)((neg ? 0 - top : max) & mask);
	}
	if (frac)
		*flags |= KSIM_SF_X_INEXACT;
	return (u32)((neg ? 0 - q : q) & mask);
}

/**
 * ksim_sf_cvt() - a value of one format to another
 * @to: the result's format
 * @from: x's format
 * @x: the value
 * @rm: round mode (binary16 to binary32 is exact whatever it is)
 * @flags: Invalid for a signalling NaN; Overflow, Underflow, Inexact
 *	   narrowing
 *
 * Return: the value rounded to @to; a NaN becomes @to's canonical NaN.
 */
u32 ksim_sf_cvt(const struct ksim_sf_fmt *to, const struct ksim_sf_fmt *from,
		u32 x, unsigned int rm, unsigned int *flags)
{
	u32 sign = x & ksim_sf_sign(from) ? ksim_sf_sign(to) : 0;
	u64 m;
	int e;

	if (ksim_sf_is_nan(from, x)) {
		if (ksim_sf_is_snan(from, x))
			*flags |= KSIM_SF_X_INVALID;
		return ksim_sf_qnan(to);
	}
	if (ksim_sf_is_inf(from, x))
		return sign | ksim_sf_inf(to);
	if (ksim_sf_is_zero(from, x))
		return sign;
	ksim_sf_unpack(from, x, &m, &e);
	return ksim_sf_round_pack(to, sign, m, e, rm, flags);
}
