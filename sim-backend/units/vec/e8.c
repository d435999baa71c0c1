// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * E8M15, the vector lanes' 24-bit format {s, e[7:0], m[14:0]}: e = 0 is
 * zero whatever m holds (no subnormals), e = 255 is infinity (m = 0) or
 * NaN.  Integer only: this builds into the kernel module.
 *
 * ksim_e8_alu() follows vec_alu.v's datapath step by step rather than
 * computing a correctly rounded a*b+c, because the datapath is not
 * correctly rounded everywhere and the model must give what the card
 * gives: the addend is truncated at the alignment shift with its lost bits
 * only ORed into the sticky (so a far smaller subtrahend can round wrong),
 * a zero addend leaves its whole significand in the sticky (so an exact
 * product tie rounds up, not to even), a product far below the addend is
 * dropped outright, and a zero result's sign comes from the operand signs
 * (+0 + -0 = -0, VMOV/VNEG of a zero give +0).  docs/spec/vec.md lists them.
 */
#include "vec.h"

#define E8_EXP(x)	(((x) >> KH_E8_EXP_SHIFT) & KH_E8_EXP_MASK)
#define E8_MAN(x)	((x) & KH_E8_MAN_MASK)
#define E8_SGN(x)	(((x) >> 23) & 1)
#define E8_MAG(x)	((x) & 0x7fffffu)
#define E8_IS_NAN(x)	(E8_EXP(x) == 0xff && E8_MAN(x))
#define E8_IS_INF(x)	(E8_EXP(x) == 0xff && !E8_MAN(x))

static int ksim_e8_msb(u64 v)
{
	int p = -1;

	while (v) {
		v >>= 1;
		p++;
	}
	return p;
}

/* vec_alu.v:128-135: the ordered compare of the raw operands */
static void ksim_e8_cmp(u32 a, u32 b, bool *lt, bool *gt, bool *eq,
			bool *nan)
{
	u32 ma = E8_MAG(a), mb = E8_MAG(b);
	bool sa = E8_SGN(a), sb = E8_SGN(b);

	*nan = E8_IS_NAN(a) || E8_IS_NAN(b);
	*eq = (!ma && !mb) || (ma == mb && sa == sb);
	if (*nan || *eq)
		*lt = false;
	else if (sa != sb)
		*lt = sa;
	else
		*lt = sa ? ma > mb : ma < mb;
	*gt = !*nan && !*eq && !*lt;
}

/* vec_alu.v:237-313 (the FMA family) and 376-645: va*vb + vc */
static u32 ksim_e8_fma(u32 va, u32 vb, u32 vc)
{
	u32 ea = E8_EXP(va), eb = E8_EXP(vb), ec = E8_EXP(vc);
	u64 ga = 0x8000 | E8_MAN(va), gb = 0x8000 | E8_MAN(vb);
	u64 gc = 0x8000 | E8_MAN(vc);
	bool vaz = !ea, vbz = !eb, cz = !ec;
	bool pz = vaz || vbz;
	bool sab = E8_SGN(va) ^ E8_SGN(vb), sc = E8_SGN(vc);
	bool neg = sab ^ sc;
	bool cancels = neg && !pz && !cz;
	bool p_nan, p_inf, f_nan, f_inf, byp, stk, sign, up, carry;
	s32 s_raw, s, ebase, e;
	u64 algn, m, mag, nrm;
	u32 sig, frac;
	int p;

	/* specials, from the selected operands */
	p_nan = E8_IS_NAN(va) || E8_IS_NAN(vb) || (E8_IS_INF(va) && vbz) ||
		(vaz && E8_IS_INF(vb));
	p_inf = (E8_IS_INF(va) || E8_IS_INF(vb)) && !p_nan;
	f_nan = p_nan || E8_IS_NAN(vc) || (p_inf && E8_IS_INF(vc) && sab != sc);
	f_inf = (p_inf || E8_IS_INF(vc)) && !f_nan;
	if (f_nan)
		return KH_E8_NAN;
	if (f_inf)
		return ((u32)(p_inf ? sab : sc) << 23) | KH_E8_PINF;

	/* DSP-E: a zero product takes both exponents to 1 */
	if (pz)
		ea = eb = 1;
	s_raw = (s32)(ea + eb) - (s32)ec - 110;
	byp = s_raw < 0 && !cz;
	s = cz ? 48 : byp ? 0 : s_raw > 48 ? 48 : s_raw;
	ebase = byp ? (s32)ec - 47 : (s32)(ea + eb) - 157;

	/* one right shift of {gc, 32'b0}; the lost bits only as a sticky */
	algn = (gc << 32) >> s;
	stk = s >= 33 && (gc & (s == 48 ? 0xffff : (1u << (s - 32)) - 1));

	/* DSP-M: C +/- A*B, the product zeroed when bypassed or zero */
	m = (byp || pz) ? 0 : ga * gb;
	if (!neg) {
		mag = algn + m;
		sign = sab;
	} else if (algn >= m) {
		mag = algn - m;
		sign = sc;
	} else {
		mag = m - algn;
		sign = sab;
	}

	if (!mag)
		return (u32)(sign && !cancels) << 23;

	/* lead one, normalise to bit 47, round to nearest even with stk */
	p = ksim_e8_msb(mag);
	nrm = (mag << (47 - p)) & ((1ULL << 48) - 1);
	sig = (u32)(nrm >> 32);
	up = ((nrm >> 31) & 1) && ((nrm & 0x7fffffffULL) || stk || (sig & 1));
	sig += up;
	carry = sig >> 16;
	frac = carry ? 0 : sig & KH_E8_MAN_MASK;
	e = p + ebase + carry;
	if (e >= 255)
		return ((u32)sign << 23) | KH_E8_PINF;
	if (e <= 0)
		return (u32)sign << 23;
	return ((u32)sign << 23) | ((u32)e << KH_E8_EXP_SHIFT) | frac;
}

/**
 * ksim_e8_alu() - one lane of vec_alu.v for an ISA opcode 0x00-0x0d
 * @op: KH_VEC_VMOV .. KH_VEC_VCMPEQ.
 * @a: operand a.
 * @b: operand b.
 * @c: operand c.
 * @pred: the compare bit (VCMP*), else false.
 *
 * Operand selection is vec_alu.v:172-197: VADD is a + c and VSUB a - c
 * (b unused), VMUL a * b, VFMA a * b + c, VFNMA -a * b + c, VSEL
 * (c's magnitude nonzero ? a : b), and every other op sends one operand
 * through the FMA as x * 1.0 + 0.
 *
 * Return: the E8M15 result (a compare's is what the lane computes; the
 * lanes do not write it back).
 */
u32 ksim_e8_alu(u32 op, u32 a, u32 b, u32 c, bool *pred)
{
	bool lt, gt, eq, nan;
	u32 va = a, vb = KH_E8_ONE, vc = 0;

	ksim_e8_cmp(a, b, &lt, &gt, &eq, &nan);
	*pred = false;
	switch (op) {
	case KH_VEC_VNEG:
	case KH_VEC_VFNMA:
		va = a ^ KH_E8_SIGN;
		break;
	case KH_VEC_VABS:
		va = a & ~KH_E8_SIGN;
		break;
	case KH_VEC_VMAX:
		va = lt ? b : a;
		break;
	case KH_VEC_VMIN:
		va = gt ? b : a;
		break;
	case KH_VEC_VSEL:
		va = E8_MAG(c) ? a : b;
		break;
	case KH_VEC_VCMPLT:
		*pred = lt;
		break;
	case KH_VEC_VCMPGT:
		*pred = gt;
		break;
	case KH_VEC_VCMPEQ:
		*pred = eq && !nan;
		break;
	}
	if (op >= KH_VEC_VCMPLT && op <= KH_VEC_VCMPEQ)
		va = *pred ? KH_E8_ONE : 0;
	if (op == KH_VEC_VMUL || op == KH_VEC_VFMA || op == KH_VEC_VFNMA)
		vb = b;
	if (op == KH_VEC_VADD || op == KH_VEC_VFMA || op == KH_VEC_VFNMA)
		vc = c;
	else if (op == KH_VEC_VSUB)
		vc = c ^ KH_E8_SIGN;
	return ksim_e8_fma(va, vb, vc) & 0xffffff;
}

/* vec_cvt.v:16-44: exact, FP16 subnormals normalised */
u32 ksim_e8_from_f16(u32 h)
{
	u32 s = (h >> 15) & 1, e5 = (h >> 10) & 0x1f, m10 = h & 0x3ff;
	int p;

	if (!e5 && !m10)
		return s << 23;
	if (e5 == 0x1f)
		return (s << 23) | (0xffu << 15) | (m10 << 5);
	if (!e5) {
		p = ksim_e8_msb(m10);
		return (s << 23) | ((103u + p) << 15) |
		       ((m10 << (15 - p)) & KH_E8_MAN_MASK);
	}
	return (s << 23) | ((e5 + 112) << 15) | (m10 << 5);
}

/* vec_cvt.v:53-98: nearest even; a finite overflow saturates to 65504 */
u32 ksim_e8_to_f16(u32 x)
{
	u32 s = E8_SGN(x), e = E8_EXP(x), m = E8_MAN(x);
	u32 sig = 0x8000 | m, keep = sig >> 5, rnd, sh;
	bool carry;
	s32 e5;
	u64 wide;

	if (!e)
		return s << 15;
	if (e == 0xff && m)
		return (s << 15) | (0x1f << 10) | 0x200 | ((m >> 5) & 0x1ff);
	if (e == 0xff)
		return (s << 15) | (0x1f << 10);
	rnd = keep + (((m >> 4) & 1) & ((m & 0xf) || (keep & 1)));
	carry = (rnd >> 11) & 1;
	e5 = (s32)e - 112 + carry;
	if (e5 >= 31)
		return (s << 15) | (0x1e << 10) | 0x3ff;
	if (e5 > 0)
		return (s << 15) | ((u32)e5 << 10) | (carry ? 0 : rnd & 0x3ff);
	/* subnormal: m10 = sig * 2^(e - 118), rounded; a carry is the LSB of e5 */
	sh = (118 - e) & 0xff;
	if (sh > 31)
		sh = 31;
	wide = ((u64)sig << 32) >> sh;
	keep = (u32)(wide >> 32) & 0x7ff;
	rnd = keep + (((wide >> 31) & 1) & ((wide & 0x7fffffffULL) != 0 || (keep & 1)));
	return (s << 15) | (rnd & 0x7ff);
}

/* vec_cvt.v:101-133: FP32 subnormals flush; nearest even */
u32 ksim_e8_from_f32(u32 f)
{
	u32 s = f >> 31, e = (f >> 23) & 0xff, m = f & 0x7fffff;
	u32 keep = m >> 8, rnd, ea;

	if (!e)
		return s << 23;
	if (e == 0xff && m)
		return (s << 23) | (0xffu << 15) | 0x4000 | ((m >> 8) & 0x3fff);
	if (e == 0xff)
		return (s << 23) | KH_E8_PINF;
	rnd = keep + (((m >> 7) & 1) & ((m & 0x7f) || (keep & 1)));
	ea = e + ((rnd >> 15) & 1);
	if (ea >= 255)
		return (s << 23) | KH_E8_PINF;
	return (s << 23) | (ea << 15) | ((rnd >> 15) ? 0 : rnd & 0x7fff);
}

/* vec_cvt.v:136-147: exact; e = 0 is zero whatever m holds */
u32 ksim_e8_to_f32(u32 x)
{
	if (!E8_EXP(x))
		return (u32)E8_SGN(x) << 31;
	return (x & 0xffffff) << 8;
}
