// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL cores' FPU (docs/spec/pool-vector.md "The FPU"; seed 002 §3.2)
 * and the soft-float under it (sim-backend/lib/softfp.c), against
 * references that owe the model nothing:
 *
 * - binary32: the host's own arithmetic (fmaf, *, +, -, the integer
 *   conversions) under fesetround, its flags from fetestexcept.  x86 SSE
 *   detects tininess after rounding, as the model does; the one rule
 *   where it differs is kept apart below (inf * 0 + quiet NaN).
 * - binary16: an exact reference written here.  Every binary16 value is an
 *   integer multiple of 2^-24, so a*b + c is an integer multiple of 2^-48
 *   below 2^34: it is held exactly in __int128 (counted in 2^-50, where
 *   the binary32 values narrowing can meet fit too) and rounded by each
 *   mode by finding the binary16 neighbours of the exact value, a binary
 *   search over the encodings, not by shifting bits as the model does.
 *
 * NaN results compare as NaN, and the model's must be the canonical one.
 *
 * Two levels: the library called directly (millions of operations, the
 * flags of each one), and programs of custom-3 words run on core 0, the
 * results stored to DataRAM, where the lanes, FCR's round mode, FSR's
 * flags (sticky, ORed across the lanes, none for the N forms), the
 * converts' lane layouts and the saturation edges are checked, and the
 * CP1-disabled trap.
 */
#include <math.h>
#include <fenv.h>
#include "mpool.h"
#include "softfp.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_BASE		10	/* x10: DataRAM */
#define R_OUT		11	/* x11: the next scalar result */
#define R_PRESET	7	/* x7: the FSR value written before each op */
#define IN_ROW		64	/* inputs from DataRAM row 64 (0x1000) */
#define END_ROW		768	/* rows up to 0xc000 */
#define OUT_BYTES	0xc000	/* scalar results */

#define VL(vd, rs1, row)	KH_PV_ENC_VL(vd, rs1, row)
#define VS(vs, rs1, row)	KH_PV_ENC_VS(vs, rs1, row)
#define VMOVE(f7, d, a, b)	KH_PV_ENC_MOVE(f7, d, a, b)
#define VFP(f7, t, d, a, b)	KH_PV_ENC_FP(f7, t, d, a, b)
#define FSR_OF(fx)		((u32)(fx) << KH_PV_FSR_FX_SHIFT)

#define NV	KSIM_SF_X_INVALID
#define DZ	KSIM_SF_X_DIVZERO
#define OF	KSIM_SF_X_OVERFLOW
#define UF	KSIM_SF_X_UNDERFLOW
#define NX	KSIM_SF_X_INEXACT

typedef unsigned __int128 u128;
typedef __int128 s128;

static struct mp_card m;
static struct mp_prog pg;
static u64 rng_state = 0x2545f4914f6cdd1dull;

static u64 rnd(void)
{
	return mp_rand(&rng_state);
}

static const char *const rm_name[4] = { "rne", "rtz", "rup", "rdn" };

/* ---- the host: binary32 ---- */

static const int host_rm[4] = {
	[KH_PV_RM_RNE] = FE_TONEAREST,
	[KH_PV_RM_RTZ] = FE_TOWARDZERO,
	[KH_PV_RM_RUP] = FE_UPWARD,
	[KH_PV_RM_RDN] = FE_DOWNWARD,
};

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

static unsigned int host_flags(void)
{
	int e = fetestexcept(FE_ALL_EXCEPT);

	return (e & FE_INVALID ? NV : 0) | (e & FE_DIVBYZERO ? DZ : 0) |
	       (e & FE_OVERFLOW ? OF : 0) | (e & FE_UNDERFLOW ? UF : 0) |
	       (e & FE_INEXACT ? NX : 0);
}

/* vfmadd .. vfsub on one binary32 lane, the host's way */
static __attribute__((noinline)) u32 host32(unsigned int op, u32 d, u32 a,
					    u32 b, unsigned int rm,
					    unsigned int *fx)
{
	volatile float x = f_of(a), y = f_of(b), z = f_of(d), r;

	fesetround(host_rm[rm]);
	feclearexcept(FE_ALL_EXCEPT);
	switch (op) {
	case KH_PV_FMADD:
		r = fmaf(x, y, z);
		break;
	case KH_PV_FMSUB:
		r = fmaf(-x, y, z);
		break;
	case KH_PV_FMUL:
		r = x * y;
		break;
	case KH_PV_FADD:
		r = x + y;
		break;
	default:
		r = x - y;
		break;
	}
	*fx |= host_flags();
	fesetround(FE_TONEAREST);
	/*
	 * IEEE 754-2008 §7.2 leaves inf * 0 + quiet NaN's Invalid to the
	 * implementation: x86 raises none, RISC-V (and the model) does.
	 */
	if (op <= KH_PV_FMSUB && isnan(z) &&
	    ((isinf(x) && y == 0) || (x == 0 && isinf(y))))
		*fx |= NV;
	return b_of(r);
}

/* a 32-bit integer lane to binary32 */
static __attribute__((noinline)) u32 host_i2f(u32 v, bool sgn,
					      unsigned int rm,
					      unsigned int *fx)
{
	volatile s32 si = (s32)v;
	volatile u32 ui = v;
	volatile float r;

	fesetround(host_rm[rm]);
	feclearexcept(FE_ALL_EXCEPT);
	r = sgn ? (float)si : (float)ui;
	*fx |= host_flags();
	fesetround(FE_TONEAREST);
	return b_of(r);
}

/*
 * binary32 to a 32-bit integer toward zero; the host's cvttss2si where
 * the value is in range, the saturation (RISC-V's fcvt.w[u].s) outside.
 */
static __attribute__((noinline)) u32 host_trunc32(u32 a, bool sgn,
						  unsigned int *fx)
{
	volatile float x = f_of(a);
	u32 r;

	if (isnan(x)) {
		*fx |= NV;
		return sgn ? 0x7fffffffu : 0xffffffffu;
	}
	if (sgn ? x >= 2147483648.0f : x >= 4294967296.0f) {
		*fx |= NV;
		return sgn ? 0x7fffffffu : 0xffffffffu;
	}
	if (sgn ? x < -2147483648.0f : x <= -1.0f) {
		*fx |= NV;
		return sgn ? 0x80000000u : 0;
	}
	feclearexcept(FE_ALL_EXCEPT);
	r = sgn ? (u32)(s32)x : (u32)(s64)x;
	*fx |= host_flags();
	return r;
}

/* ---- the exact reference: binary16 ---- */

#define H_UNIT	50	/* exact magnitudes are counted in 2^-50 */

static bool h_nan(u32 h)
{
	return (h & 0x7fff) > 0x7c00;
}

static bool h_snan(u32 h)
{
	return h_nan(h) && !(h & 0x200);
}

static bool h_inf(u32 h)
{
	return (h & 0x7fff) == 0x7c00;
}

static bool h_zero(u32 h)
{
	return !(h & 0x7fff);
}

/* a finite binary16's magnitude, in 2^-24 */
static u64 h_units(u32 h)
{
	u32 e = (h >> 10) & 0x1f, f = h & 0x3ff;

	return e ? (u64)(f | 0x400) << (e - 1) : f;
}

/*
 * A magnitude x * 2^-50 (x > 0) of sign neg to binary16 by mode rm: the
 * largest encoding not above it, and the next one up (2^16 past 65504:
 * the next value with an unbounded exponent), then the mode's choice.
 */
static u32 ref16_round(bool neg, u128 x, unsigned int rm, unsigned int *fx)
{
	u32 s = neg ? 0x8000 : 0, lo = 0, hi = 0x7bff, k;
	u128 two16 = (u128)1 << (16 + H_UNIT), vlo, vhi;
	u128 min_normal = (u128)1 << (H_UNIT - 14);
	/* the largest 11-bit value below 2^-14, 2^-25 under it */
	u128 top = min_normal - ((u128)1 << (H_UNIT - 25));
	bool toward0 = rm == KH_PV_RM_RTZ || (rm == KH_PV_RM_RUP && neg) ||
		       (rm == KH_PV_RM_RDN && !neg);
	bool up, reaches;

	if (x >= two16) {	/* rounds to 2^16 or more in every mode */
		*fx |= OF | NX;
		return s | (toward0 ? 0x7bff : 0x7c00);
	}
	while (lo < hi) {
		k = (lo + hi + 1) / 2;
		if ((u128)h_units(k) << (H_UNIT - 24) <= x)
			lo = k;
		else
			hi = k - 1;
	}
	vlo = (u128)h_units(lo) << (H_UNIT - 24);
	if (vlo == x)
		return s | lo;
	*fx |= NX;
	vhi = lo == 0x7bff ? two16 : (u128)h_units(lo + 1) << (H_UNIT - 24);
	switch (rm) {
	case KH_PV_RM_RNE:
		up = 2 * x > vlo + vhi || (2 * x == vlo + vhi && (lo & 1));
		break;
	case KH_PV_RM_RTZ:
		up = false;
		break;
	case KH_PV_RM_RUP:
		up = !neg;
		break;
	default:
		up = neg;
		break;
	}
	/*
	 * Tiny after rounding: below 2^-14 unless rounding to 11 bits with
	 * an unbounded exponent lands on it, which only a value above top can.
	 */
	if (x < min_normal) {
		switch (rm) {
		case KH_PV_RM_RNE:	/* top is odd: its tie goes up */
			reaches = x >= top + ((u128)1 << (H_UNIT - 26));
			break;
		case KH_PV_RM_RTZ:
			reaches = false;
			break;
		case KH_PV_RM_RUP:
			reaches = !neg && x > top;
			break;
		default:
			reaches = neg && x > top;
			break;
		}
		if (!reaches)
			*fx |= UF;
	}
	if (lo + up == 0x7c00)
		*fx |= OF;
	return s | (lo + up);
}

/* a signed exact value in 2^-50 units, nonzero, to binary16 */
static u32 ref16_exact(s128 v, unsigned int rm, unsigned int *fx)
{
	return ref16_round(v < 0, (u128)(v < 0 ? -v : v), rm, fx);
}

static s128 h_exact(u32 h)
{
	s128 v = (s128)h_units(h) << (H_UNIT - 24);

	return h & 0x8000 ? -v : v;
}

/* the exact zero of a sum of opposite signs */
static u32 ref16_zero_sum(unsigned int rm)
{
	return rm == KH_PV_RM_RDN ? 0x8000 : 0;
}

static u32 ref16_fma(u32 a, u32 b, u32 c, unsigned int rm, unsigned int *fx)
{
	u32 sp = (a ^ b) & 0x8000, sc = c & 0x8000;
	bool inf0 = (h_inf(a) && h_zero(b)) || (h_zero(a) && h_inf(b));
	s128 p, v;

	if (h_nan(a) || h_nan(b) || h_nan(c)) {
		if (h_snan(a) || h_snan(b) || h_snan(c) || inf0)
			*fx |= NV;
		return 0x7e00;
	}
	if (inf0 || ((h_inf(a) || h_inf(b)) && h_inf(c) && sc != sp)) {
		*fx |= NV;
		return 0x7e00;
	}
	if (h_inf(a) || h_inf(b))
		return sp | 0x7c00;
	if (h_inf(c))
		return c;
	/* 2^-24 * 2^-24 = 2^-48: four units of 2^-50 */
	p = (s128)((u128)h_units(a) * h_units(b)) * 4;
	if (sp)
		p = -p;
	v = p + h_exact(c);
	if (!v) {
		if (!p && h_zero(c))
			return sp == sc ? sp : ref16_zero_sum(rm);
		return ref16_zero_sum(rm);
	}
	return ref16_exact(v, rm, fx);
}

static u32 ref16_mul(u32 a, u32 b, unsigned int rm, unsigned int *fx)
{
	u32 sp = (a ^ b) & 0x8000;
	bool inf0 = (h_inf(a) && h_zero(b)) || (h_zero(a) && h_inf(b));
	s128 p;

	if (h_nan(a) || h_nan(b) || inf0) {
		if (h_snan(a) || h_snan(b) || inf0)
			*fx |= NV;
		return 0x7e00;
	}
	if (h_inf(a) || h_inf(b))
		return sp | 0x7c00;
	if (h_zero(a) || h_zero(b))
		return sp;
	p = (s128)((u128)h_units(a) * h_units(b)) * 4;
	return ref16_exact(sp ? -p : p, rm, fx);
}

static u32 ref16_add(u32 a, u32 b, unsigned int rm, unsigned int *fx)
{
	s128 v;

	if (h_nan(a) || h_nan(b)) {
		if (h_snan(a) || h_snan(b))
			*fx |= NV;
		return 0x7e00;
	}
	if (h_inf(a) && h_inf(b) && (a ^ b) & 0x8000) {
		*fx |= NV;
		return 0x7e00;
	}
	if (h_inf(a))
		return a;
	if (h_inf(b))
		return b;
	v = h_exact(a) + h_exact(b);
	if (!v) {
		if (h_zero(a) && h_zero(b) && !((a ^ b) & 0x8000))
			return a;
		return ref16_zero_sum(rm);
	}
	return ref16_exact(v, rm, fx);
}

/* vfmadd .. vfsub on one binary16 lane */
static u32 ref16_op(unsigned int op, u32 d, u32 a, u32 b, unsigned int rm,
		    unsigned int *fx)
{
	switch (op) {
	case KH_PV_FMADD:
		return ref16_fma(a, b, d, rm, fx);
	case KH_PV_FMSUB:
		return ref16_fma(a ^ 0x8000, b, d, rm, fx);
	case KH_PV_FMUL:
		return ref16_mul(a, b, rm, fx);
	case KH_PV_FADD:
		return ref16_add(a, b, rm, fx);
	default:
		return ref16_add(a, b ^ 0x8000, rm, fx);
	}
}

/* a 16-bit integer lane to binary16 */
static u32 ref16_from_int(u32 v, bool sgn, unsigned int rm, unsigned int *fx)
{
	s64 n = sgn ? (s16)v : (s64)(u16)v;

	if (!n)
		return 0;
	return ref16_exact((s128)n * ((s128)1 << H_UNIT), rm, fx);
}

/* binary16 to a 16-bit integer toward zero, saturating */
static u32 ref16_trunc(u32 h, bool sgn, unsigned int *fx)
{
	u64 ip, lim_hi = sgn ? 32767 : 65535, lim_lo = sgn ? 32768 : 0;
	bool neg = h & 0x8000;

	if (h_nan(h)) {
		*fx |= NV;
		return (u32)lim_hi;
	}
	ip = h_inf(h) ? 1u << 20 : h_units(h) >> 24;
	if (neg ? ip > lim_lo : ip > lim_hi) {
		*fx |= NV;
		return neg ? (u32)(-lim_lo & 0xffff) : (u32)lim_hi;
	}
	if (!h_inf(h) && (h_units(h) & 0xffffff))
		*fx |= NX;
	return (u32)((neg ? 0 - ip : ip) & 0xffff);
}

/* binary16 to binary32: every value fits; a NaN is the canonical one */
static u32 ref_h2s(u32 h, unsigned int *fx)
{
	float v;

	if (h_nan(h)) {
		if (h_snan(h))
			*fx |= NV;
		return 0x7fc00000u;
	}
	if (h_inf(h))
		return h & 0x8000 ? 0xff800000u : 0x7f800000u;
	v = ldexpf((float)h_units(h), -24);
	return b_of(v) | (h & 0x8000 ? 0x80000000u : 0);
}

/* binary32 to binary16 by the exact reference */
static u32 ref_s2h(u32 s, unsigned int rm, unsigned int *fx)
{
	u32 e = (s >> 23) & 0xff, f = s & 0x7fffff;
	bool neg = s >> 31;
	u128 x;
	u64 mant;
	int ex;

	if (e == 0xff && f) {
		if (!(f & 0x400000))
			*fx |= NV;
		return 0x7e00;
	}
	if (e == 0xff)
		return neg ? 0xfc00 : 0x7c00;
	if (!e && !f)
		return neg ? 0x8000 : 0;
	mant = e ? f | 0x800000 : f;
	ex = e ? (int)e - 150 : -149;
	/*
	 * Beyond 2^17 every value rounds as 2^17 does, below 2^-26 as 2^-26
	 * does (under a quarter of the smallest subnormal): clamped so
	 * that the rest fits 2^-50 units.
	 */
	if (ex + 63 - __builtin_clzll(mant) >= 17)
		x = (u128)1 << (17 + H_UNIT);
	else if (ex + 63 - __builtin_clzll(mant) < -26)
		x = (u128)1 << (H_UNIT - 26);
	else
		x = (u128)mant << (ex + H_UNIT);
	return ref16_round(neg, x, rm, fx);
}

/* ---- one lane of any FPU instruction, by the references ---- */

static unsigned int t_bits(unsigned int t)
{
	return t == KH_PV_WF32 ? 32 : 16;
}

static bool is_unary(unsigned int t, unsigned int f7)
{
	return f7 >= KH_PV_FFLOAT && (f7 != KH_PV_FCVT || t == KH_PV_WF32);
}

/*
 * The instruction f7 on type t: out (64 bytes) from the old vd d and the
 * sources a, b; the flags of every lane ORed into *fx (N bit or not: the
 * caller knows the N forms raise none).
 */
static void ref_vec(unsigned int t, unsigned int f7, const u8 *d,
		    const u8 *a, const u8 *b, unsigned int rm, u8 *out,
		    unsigned int *fx)
{
	unsigned int bits = t_bits(t), lanes = 512 / bits, i, op;
	u32 x, y, z, r;
	bool sgn;

	memset(out, 0, 64);
	for (i = 0; i < lanes; i++) {
		x = (u32)mp_lget(a, bits, i);
		y = (u32)mp_lget(b, bits, i);
		z = (u32)mp_lget(d, bits, i);
		switch (f7) {
		case KH_PV_FFLOAT:
		case KH_PV_FUFLOAT:
			sgn = f7 == KH_PV_FFLOAT;
			r = bits == 32 ? host_i2f(x, sgn, rm, fx) :
				ref16_from_int(x, sgn, rm, fx);
			break;
		case KH_PV_FTRUNC:
		case KH_PV_FTRUNCU:
			sgn = f7 == KH_PV_FTRUNC;
			r = bits == 32 ? host_trunc32(x, sgn, fx) :
				ref16_trunc(x, sgn, fx);
			break;
		case KH_PV_FCVT:
			if (bits == 32) {
				r = ref_h2s((u32)mp_lget(a, 16, i), fx);
				break;
			}
			x = (u32)mp_lget(i < 16 ? a : b, 32, i % 16);
			r = ref_s2h(x, rm, fx);
			break;
		default:
			op = f7 & ~KH_PV_FNOFLAGS;
			r = bits == 32 ? host32(op, z, x, y, rm, fx) :
				ref16_op(op, z, x, y, rm, fx);
			break;
		}
		mp_lset(out, bits, i, r);
	}
}

static bool is_nan_t(unsigned int bits, u32 v)
{
	return bits == 32 ? (v & 0x7fffffffu) > 0x7f800000u : h_nan(v);
}

/*
 * A result lane against the reference: equal, or both NaN and the
 * model's the canonical quiet NaN.  The lane is a float unless the op
 * is a trunc (whose lanes are integers).
 */
static bool lane_ok(unsigned int bits, bool fp, u32 got, u32 want)
{
	if (fp && is_nan_t(bits, want))
		return got == (bits == 32 ? 0x7fc00000u : 0x7e00u);
	return got == want;
}

/* ---- inputs ---- */

static unsigned int mbits(unsigned int bits)
{
	return bits == 32 ? 23 : 10;
}

static int bias(unsigned int bits)
{
	return bits == 32 ? 127 : 15;
}

static int emax(unsigned int bits)	/* the largest finite exponent field */
{
	return bits == 32 ? 254 : 30;
}

/* sign, exponent field (clamped to the finite ones, 0 subnormal), mantissa */
static u32 fbits(unsigned int bits, bool neg, int e, u32 f)
{
	if (e < 0)
		e = 0;
	if (e > emax(bits))
		e = emax(bits);
	return (u32)neg << (bits - 1) | (u32)e << mbits(bits) |
	       (f & ((1u << mbits(bits)) - 1));
}

static const u32 sp32[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002,
	0x00400000, 0x807fffff, 0x007fffff, 0x00800000, 0x80800000,
	0x00800001, 0x00ffffff, 0x7f7fffff, 0xff7fffff, 0x7f000000,
	0x5f800000, 0x1f800000, 0x3f800000, 0xbf800000, 0x3f800001,
	0x3f7fffff, 0xbf800001, 0x40000000, 0x40400000, 0x3f000000,
	0x3eaaaaab, 0x34000000, 0x33800000, 0x2b800000, 0x1a000000,
	0x0d000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
	0x7f800001, 0x7fa00000, 0xffbfffff, 0x4b800000, 0xcb7fffff,
	0x4effffff, 0x5e7fffff, 0x1f000001, 0x3f400000, 0x00000003,
};

static const u32 sp16[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x0200, 0x83ff, 0x03ff,
	0x0400, 0x8400, 0x0401, 0x07ff, 0x7bff, 0xfbff, 0x7800, 0x5c00,
	0x2000, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0xbc01, 0x4000, 0x4200,
	0x3800, 0x3555, 0x1400, 0x1000, 0x0c00, 0x7c00, 0xfc00, 0x7e00,
	0xfe00, 0x7c01, 0x7d00, 0xfdff, 0x6400, 0xe3ff, 0x5bff, 0x2001,
	0x3a00, 0x0003,
};

#define N_SP32	(sizeof(sp32) / sizeof(sp32[0]))
#define N_SP16	(sizeof(sp16) / sizeof(sp16[0]))

static u32 special(unsigned int bits)
{
	return bits == 32 ? sp32[rnd() % N_SP32] : sp16[rnd() % N_SP16];
}

/* a value of a float type: specials, any bits, or a chosen range */
static u32 gen_val(unsigned int bits)
{
	u64 r = rnd();
	bool neg = r & 1;
	u32 f = (u32)(r >> 32);
	int b = bias(bits), mb = (int)mbits(bits);

	switch ((r >> 1) % 12) {
	case 0:
		return special(bits);
	case 1:
		return (u32)(r >> 16) & (u32)((1ull << bits) - 1);
	case 2:		/* subnormals and the smallest normals */
		return fbits(bits, neg, (int)((r >> 8) % 3), f);
	case 3:		/* near the top */
		return fbits(bits, neg, emax(bits) - (int)((r >> 8) % 3), f);
	case 4:		/* short mantissas: exact products and sums */
		return fbits(bits, neg, b - 6 + (int)((r >> 8) % 12),
			     f & ~((1u << (mb - 4)) - 1));
	default:	/* ordinary magnitudes */
		return fbits(bits, neg, b - 10 + (int)((r >> 8) % 20), f);
	}
}

/* a * b rounded to nearest, for building near-cancelling addends */
static u32 mul_rne(unsigned int bits, u32 a, u32 b)
{
	unsigned int fx = 0;

	return bits == 32 ? host32(KH_PV_FMUL, 0, a, b, KH_PV_RM_RNE, &fx) :
		ref16_mul(a, b, KH_PV_RM_RNE, &fx);
}

/*
 * One lane's operands (a, b, and d, the old vd the FMA adds to), in one
 * of the shapes where rounding and flags have something to get wrong.
 */
static void gen_triple(unsigned int bits, u32 *a, u32 *b, u32 *d)
{
	u32 sign = 1u << (bits - 1), p, f = (u32)rnd();
	int bs = bias(bits), mb = (int)mbits(bits), ea, ed;
	static const u32 mul3[] = { 0, 1, 2 };	/* 1, 1.25, 1.5 */

	switch (rnd() % 10) {
	case 0:		/* a * b + d near cancellation, d a few ulps off */
		*a = fbits(bits, rnd() & 1, bs - 4 + (int)(rnd() % 8), f);
		*b = fbits(bits, rnd() & 1, bs - 4 + (int)(rnd() % 8), f >> 7);
		p = mul_rne(bits, *a, *b);
		*d = (p ^ sign) + (u32)((int)(rnd() % 7) - 3);
		break;
	case 1:		/* a * b + d exactly zero: the sign of zero */
		*a = fbits(bits, rnd() & 1, bs - 3 + (int)(rnd() % 6),
			   f & ~((1u << (mb - 4)) - 1));
		*b = fbits(bits, rnd() & 1, bs - 3 + (int)(rnd() % 6),
			   (f >> 9) & ~((1u << (mb - 4)) - 1));
		*d = mul_rne(bits, *a, *b) ^ sign;
		break;
	case 2:		/* a * b an odd multiple of half d's last place: ties */
		ed = mb + 3 +
		     (int)(rnd() % (unsigned int)(emax(bits) - mb - 6));
		*d = fbits(bits, rnd() & 1, ed, f);
		ea = ed - mb - 1 + (int)(rnd() % 3) - 1;
		*a = fbits(bits, rnd() & 1, ea, 0);
		*b = fbits(bits, rnd() & 1, bs + (int)(rnd() % 2),
			   mul3[rnd() % 3] << (mb - 2));
		break;
	case 3:		/* a + b near cancellation, for vfadd/vfsub */
		*a = gen_val(bits);
		*b = (*a ^ (rnd() & 1 ? sign : 0)) +
		     (u32)((int)(rnd() % 5) - 2);
		*d = gen_val(bits);
		break;
	case 4:		/* products near the smallest normal */
		ea = 1 + (int)(rnd() % (unsigned int)bs);
		*a = fbits(bits, rnd() & 1, ea, f);
		*b = fbits(bits, rnd() & 1, bs + 1 - ea +
			   (int)(rnd() % (unsigned int)(2 * mb + 6)) - mb - 3,
			   f >> 5);
		*d = rnd() & 1 ? fbits(bits, rnd() & 1, (int)(rnd() % 2),
				       (u32)rnd()) : (rnd() & 1 ? sign : 0);
		break;
	case 5:		/* products near overflow */
		ea = bs + (int)(rnd() % (unsigned int)bs);
		*a = fbits(bits, rnd() & 1, ea, f);
		*b = fbits(bits, rnd() & 1, emax(bits) + bs - ea -
			   (int)(rnd() % 3) + 1, f >> 3);
		*d = fbits(bits, rnd() & 1, emax(bits) - (int)(rnd() % 3),
			   (u32)rnd());
		break;
	case 6:		/* just below the smallest normal: tiny or not? */
		*a = fbits(bits, rnd() & 1, bs, (u32)(rnd() % 4));
		*b = fbits(bits, rnd() & 1, 0, (u32)-1 - (u32)(rnd() % 4));
		*d = rnd() & 1 ? (rnd() & 1 ? sign : 0) :
			fbits(bits, rnd() & 1, 0, (u32)(rnd() % 3));
		break;
	default:
		*a = gen_val(bits);
		*b = gen_val(bits);
		*d = gen_val(bits);
		break;
	}
}

static void gen_fma_vec(unsigned int bits, u8 *a, u8 *b, u8 *d)
{
	unsigned int i;
	u32 x, y, z;

	for (i = 0; i < 512 / bits; i++) {
		gen_triple(bits, &x, &y, &z);
		mp_lset(a, bits, i, x);
		mp_lset(b, bits, i, y);
		mp_lset(d, bits, i, z);
	}
}

static const u32 int_edges32[] = {
	0, 1, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u,
	0x01000000u, 0x01000001u, 0x01000003u, 0xfeffffffu, 0xfefffffdu,
	0x7fffffc0u, 0x7fffff40u, 0xffffff80u, 0x00ffffffu, 0xffffffc0u,
	0x7fffff80u,
};

static const u32 int_edges16[] = {
	0, 1, 0xffff, 0x7fff, 0x8000, 0x8001, 0xffe0, 0xffef, 0xfff0,
	0xfff8, 0x0801, 0x0803, 0xf7ff, 0x7ff0, 0x7ff8, 0x07ff, 0x0fff,
};

/* an integer lane, edges a quarter of the time */
static u32 gen_int(unsigned int bits)
{
	if (rnd() % 4 == 0)
		return bits == 32 ?
			int_edges32[rnd() % (sizeof(int_edges32) / 4)] :
			int_edges16[rnd() % (sizeof(int_edges16) / 4)];
	if (rnd() % 3 == 0)	/* small magnitudes: exact */
		return (u32)((s32)(rnd() % 4096) - 2048) &
		       (u32)((1ull << bits) - 1);
	return (u32)rnd() & (u32)((1ull << bits) - 1);
}

static const u32 trunc_edges32[] = {
	0x4f000000, 0x4effffff, 0xcf000000, 0xcf000001, 0x4f800000,
	0x4f7fffff, 0xbf800000, 0xbf7fffff, 0xbf000000, 0x3f000000,
	0x80000000, 0x7fc00000, 0x7f800001, 0x7f800000, 0xff800000,
	0x3fc00000, 0x4b7fffff, 0xceffffff, 0x00000001, 0x3f7fffff,
};

static const u32 trunc_edges16[] = {
	0x7800, 0x77ff, 0xf800, 0xf801, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
	0x7e00, 0x7d00, 0xbc00, 0xbbff, 0xb800, 0x8000, 0x3e00, 0x3800,
	0x0001, 0x3bff, 0xf7ff, 0x6400,
};

/* a float lane for the truncs: the range edges, fractions, anything */
static u32 gen_trunc(unsigned int bits)
{
	u64 r = rnd();

	switch (r % 4) {
	case 0:
		return bits == 32 ?
			trunc_edges32[(r >> 8) % (sizeof(trunc_edges32) / 4)] :
			trunc_edges16[(r >> 8) % (sizeof(trunc_edges16) / 4)];
	case 1:
		return gen_val(bits);
	default:	/* from 1/4 to past the integer range */
		return fbits(bits, (r >> 4) & 1, bias(bits) - 2 +
			     (int)((r >> 8) % (bits + 4)), (u32)(r >> 32));
	}
}

static const u32 narrow_edges[] = {
	0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000,
	0xc77ff000, 0x33800000, 0x33000000, 0x33000001, 0xb3000000,
	0x387fc000, 0x387fe000, 0x387ff000, 0x38800000, 0x387fffff,
	0x3f801000, 0x3f803000, 0x3f801001, 0x7fa00000, 0xffc00000,
	0x00000001, 0x80000000, 0x7f7fffff, 0xff800000, 0x32ffffff,
};

/* a binary32 lane for vfcvt.h: mostly in binary16's range */
static u32 gen_narrow(void)
{
	u64 r = rnd();

	switch (r % 5) {
	case 0:
		return narrow_edges[(r >> 8) % (sizeof(narrow_edges) / 4)];
	case 1:
		return gen_val(32);
	case 2:		/* ties and near ties at binary16's precision */
		return fbits(32, (r >> 4) & 1, 127 - 27 + (int)((r >> 8) % 44),
			     ((u32)(r >> 32) & ~0x1fffu) | 0x1000 |
			     (u32)((r >> 20) % 2));
	default:
		return fbits(32, (r >> 4) & 1, 127 - 27 + (int)((r >> 8) % 44),
			     (u32)(r >> 32));
	}
}

/* ---- the programs ---- */

static bool open_card(void)
{
	if (m.c)
		return true;
	return mp_open(&m, MP_MAP_ONE, 1, 0);
}

static void poke_row(unsigned int row, const u8 *v)
{
	ksim_pool_poke_dram(m.p, 0, row * 64, v, 64);
}

static const u8 *row_at(unsigned int row)
{
	return m.p->core[0].dram + row * 64;
}

/* the coprocessor on, FCR = rm and every enable (which trap nothing) */
static void prolog(unsigned int rm)
{
	mp_vec_prolog(&pg, R_BASE);
	mp_li(&pg, R_OUT, KH_POOL_DRAM_BASE + OUT_BYTES);
	mp_li(&pg, 6, rm << KH_PV_FCR_RM_SHIFT |
		      KH_PV_FX_ALL << KH_PV_FCR_EN_SHIFT);
	mp_emit(&pg, VMOVE(KH_PV_VWFCR, 0, 6, 0));
}

/* x5 = FSR, stored at the next scalar result */
static void emit_fsr_out(void)
{
	mp_emit(&pg, VMOVE(KH_PV_VRFSR, 5, 0, 0));
	mp_emit(&pg, SW(5, R_OUT, 0));
	mp_emit(&pg, ADDI(R_OUT, R_OUT, 4));
}

/* a group: one set of operands, every op of a list applied to it */
struct grp {
	u8 a[64], b[64], d[64];
};

#define MAX_GRP	128

static struct grp groups[MAX_GRP];

struct tally {
	unsigned long lanes, insns;
	unsigned int bad;
};

/*
 * One instruction's result row and FSR against the reference: each lane,
 * and FSR = preset | the lanes' flags (preset alone for an N form).
 */
static void check_op(unsigned int t, unsigned int rm, unsigned int f7,
		     const struct grp *g, const u8 *got, u32 fsr, u32 preset,
		     struct tally *ty)
{
	unsigned int bits = t_bits(t), i, fx = 0;
	bool fp = f7 != KH_PV_FTRUNC && f7 != KH_PV_FTRUNCU;
	u8 want[64];
	u32 gl, wl;

	ref_vec(t, f7, g->d, g->a, g->b, rm, want, &fx);
	for (i = 0; i < 512 / bits; i++) {
		gl = (u32)mp_lget(got, bits, i);
		wl = (u32)mp_lget(want, bits, i);
		ty->lanes++;
		if (!lane_ok(bits, fp, gl, wl) && ty->bad++ < 8)
			CHECK_MSG(0, "%u-bit %s op %#x lane %u: d %x a %x b %x -> %x, want %x",
				  bits, rm_name[rm], f7, i,
				  (u32)mp_lget(g->d, bits, i),
				  (u32)mp_lget(g->a, bits, i),
				  (u32)mp_lget(g->b, bits, i), gl, wl);
	}
	if (f7 >= KH_PV_FFLOAT || !(f7 & KH_PV_FNOFLAGS))
		preset |= FSR_OF(fx);
	ty->insns++;
	if (fsr != preset && ty->bad++ < 8)
		CHECK_MSG(0, "%u-bit %s op %#x: FSR %#x, want %#x", bits,
			  rm_name[rm], f7, fsr, preset);
}

/*
 * Every op of ops[] on each of the n groups, type t, FCR's mode rm: for
 * each, FSR = preset, vd (v4) = d, the op, FSR and v4 stored, then
 * checked.  DivZero as the preset shows both that the flags are ORed
 * into FSR, not written, and that no op raises it.
 */
static void run_groups(unsigned int t, unsigned int rm, unsigned int n,
		       const unsigned int *ops, unsigned int nops, u32 preset,
		       struct tally *ty)
{
	unsigned int j, o, row, k = 0, per = 3 + nops;

	REQUIRE(IN_ROW + n * per <= END_ROW);
	prolog(rm);
	mp_li(&pg, R_PRESET, preset);
	for (j = 0; j < n; j++) {
		row = IN_ROW + j * per;
		poke_row(row, groups[j].a);
		poke_row(row + 1, groups[j].b);
		poke_row(row + 2, groups[j].d);
		mp_emit(&pg, VL(1, R_BASE, row));
		mp_emit(&pg, VL(2, R_BASE, row + 1));
		mp_emit(&pg, VL(3, R_BASE, row + 2));
		for (o = 0; o < nops; o++) {
			mp_emit(&pg, VMOVE(KH_PV_VMV, 4, 3, 0));
			mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, R_PRESET, 0));
			mp_emit(&pg, VFP(ops[o], t, 4, 1,
					 is_unary(t, ops[o]) ? 0 : 2));
			emit_fsr_out();
			mp_emit(&pg, VS(4, R_BASE, row + 3 + o));
		}
	}
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	for (j = 0; j < n; j++)
		for (o = 0; o < nops; o++, k++)
			check_op(t, rm, ops[o], &groups[j],
				 row_at(IN_ROW + j * per + 3 + o),
				 mp_dword(&m, 0, OUT_BYTES + 4 * k), preset,
				 ty);
}

static const unsigned int fma_ops[] = {
	KH_PV_FMADD, KH_PV_FMSUB, KH_PV_FMUL, KH_PV_FADD, KH_PV_FSUB,
	KH_PV_FMADD | KH_PV_FNOFLAGS, KH_PV_FMSUB | KH_PV_FNOFLAGS,
	KH_PV_FMUL | KH_PV_FNOFLAGS, KH_PV_FADD | KH_PV_FNOFLAGS,
	KH_PV_FSUB | KH_PV_FNOFLAGS,
};
#define N_FMA_OPS	(sizeof(fma_ops) / sizeof(fma_ops[0]))

/* ---- the library, called directly ---- */

static unsigned long fails;

static void lib_check(const char *what, unsigned int rm, u32 a, u32 b, u32 c,
		      bool fp, unsigned int bits, u32 got, unsigned int gfx,
		      u32 want, unsigned int wfx)
{
	if (lane_ok(bits, fp, got, want) && gfx == wfx)
		return;
	if (fails++ < 10)
		check_fail_at(__FILE__, __LINE__,
			      "%s %s (%x, %x, %x) = %x flags %#x, want %x flags %#x",
			      what, rm_name[rm], a, b, c, got, gfx, want, wfx);
}

/* the library's FMA-class op op (a KH_PV_F* without N) */
static u32 lib_op(const struct ksim_sf_fmt *f, unsigned int op, u32 d, u32 a,
		  u32 b, unsigned int rm, unsigned int *fx)
{
	u32 neg = 1u << (f->ebits + f->mbits);

	switch (op) {
	case KH_PV_FMADD:
		return ksim_sf_fma(f, a, b, d, rm, fx);
	case KH_PV_FMSUB:
		return ksim_sf_fma(f, a ^ neg, b, d, rm, fx);
	case KH_PV_FMUL:
		return ksim_sf_mul(f, a, b, rm, fx);
	case KH_PV_FADD:
		return ksim_sf_add(f, a, b, rm, fx);
	default:
		return ksim_sf_sub(f, a, b, rm, fx);
	}
}

static void lib_one(unsigned int bits, unsigned int op, u32 d, u32 a, u32 b,
		    unsigned int rm)
{
	const struct ksim_sf_fmt *f = bits == 32 ? &ksim_sf_binary32 :
						   &ksim_sf_binary16;
	unsigned int gfx = 0, wfx = 0;
	u32 got = lib_op(f, op, d, a, b, rm, &gfx);
	u32 want = bits == 32 ? host32(op, d, a, b, rm, &wfx) :
				ref16_op(op, d, a, b, rm, &wfx);
	static const char *const names[] = {
		"fma", "fms", "mul", "add", "sub",
	};

	lib_check(names[op], rm, a, b, d, true, bits, got, gfx, want, wfx);
}

/* every op on every triple of specials, then random shapes, each mode */
static void lib_ops(unsigned int bits, unsigned long nrand)
{
	const u32 *sp = bits == 32 ? sp32 : sp16;
	unsigned int nsp = bits == 32 ? N_SP32 : N_SP16, rm, i, j, k, op;
	unsigned long r;
	u32 a, b, d;

	fails = 0;
	for (rm = 0; rm < 4; rm++) {
		for (i = 0; i < nsp; i++)
			for (j = 0; j < nsp; j++) {
				for (k = 0; k < nsp; k++)
					lib_one(bits, KH_PV_FMADD, sp[k], sp[i],
						sp[j], rm);
				for (op = KH_PV_FMUL; op <= KH_PV_FSUB; op++)
					lib_one(bits, op, 0, sp[i], sp[j], rm);
			}
		for (r = 0; r < nrand; r++) {
			gen_triple(bits, &a, &b, &d);
			lib_one(bits, (unsigned int)(r % 5), d, a, b, rm);
		}
	}
	CHECK_EQ(fails, 0);
}

TEST_F(model, softfp_binary32_ops_against_the_host)
{
	lib_ops(32, 1500000);
}

TEST_F(model, softfp_binary16_ops_against_the_exact_reference)
{
	lib_ops(16, 1000000);
}

TEST_F(model, softfp_binary32_converts_against_the_host)
{
	unsigned int rm, gfx, wfx, s;
	unsigned long i;
	u32 x, got, want;

	fails = 0;
	for (rm = 0; rm < 4; rm++) {
		for (i = 0; i < 200000; i++) {
			x = i < 0x10000 ? (u32)i * 0x10001u ^ (u32)(i << 7) :
				gen_int(32);
			for (s = 0; s < 2; s++) {
				gfx = wfx = 0;
				got = ksim_sf_from_int(&ksim_sf_binary32, x, s,
						       rm, &gfx);
				want = host_i2f(x, s, rm, &wfx);
				lib_check(s ? "float" : "ufloat", rm, x, 0, 0,
					  true, 32, got, gfx, want, wfx);
			}
			x = gen_trunc(32);
			for (s = 0; s < 2; s++) {
				gfx = wfx = 0;
				got = ksim_sf_to_int(&ksim_sf_binary32, x, 32,
						     s, &gfx);
				want = host_trunc32(x, s, &wfx);
				lib_check(s ? "trunc" : "truncu", rm, x, 0, 0,
					  false, 32, got, gfx, want, wfx);
			}
			x = gen_narrow();
			gfx = wfx = 0;
			got = ksim_sf_cvt(&ksim_sf_binary16, &ksim_sf_binary32,
					  x, rm, &gfx);
			want = ref_s2h(x, rm, &wfx);
			lib_check("cvt.h", rm, x, 0, 0, true, 16, got, gfx,
				  want, wfx);
		}
		/* every binary16 widened: exact, whatever the mode */
		for (i = 0; i < 0x10000; i++) {
			gfx = wfx = 0;
			got = ksim_sf_cvt(&ksim_sf_binary32, &ksim_sf_binary16,
					  (u32)i, rm, &gfx);
			want = ref_h2s((u32)i, &wfx);
			lib_check("cvt.s", rm, (u32)i, 0, 0, true, 32, got, gfx,
				  want, wfx);
		}
	}
	CHECK_EQ(fails, 0);
}

TEST_F(model, softfp_binary16_converts_exhaustive)
{
	unsigned int rm, gfx, wfx, s;
	u32 x, got, want;

	fails = 0;
	for (x = 0; x < 0x10000; x++)
		for (s = 0; s < 2; s++) {
			for (rm = 0; rm < 4; rm++) {
				gfx = wfx = 0;
				got = ksim_sf_from_int(&ksim_sf_binary16,
						       s ? (u32)(s32)(s16)x : x,
						       s, rm, &gfx);
				want = ref16_from_int(x, s, rm, &wfx);
				lib_check(s ? "float" : "ufloat", rm, x, 0, 0,
					  true, 16, got, gfx, want, wfx);
			}
			gfx = wfx = 0;
			got = ksim_sf_to_int(&ksim_sf_binary16, x, 16, s, &gfx);
			want = ref16_trunc(x, s, &wfx);
			lib_check(s ? "trunc" : "truncu", 0, x, 0, 0, false, 16,
				  got, gfx, want, wfx);
		}
	CHECK_EQ(fails, 0);
}

/*
 * Tininess after rounding (RISC-V, x86 SSE): (1 + ulp) times the largest
 * subnormal is 2^emin (1 - 2^-2p'), just below the smallest normal;
 * rounded to nearest it becomes that normal, so it was not tiny: Inexact
 * without Underflow.  Toward zero it stays below: Underflow.  And an
 * exact subnormal result raises nothing.
 */
TEST_F(model, softfp_tininess_after_rounding)
{
	static const struct {
		unsigned int bits, rm;
		u32 a, b, c, r, fx;
	} t[] = {
		{ 32, KH_PV_RM_RNE, 0x3f800001, 0x007fffff, 0, 0x00800000, NX },
		{ 32, KH_PV_RM_RUP, 0x3f800001, 0x007fffff, 0, 0x00800000, NX },
		{ 32, KH_PV_RM_RTZ, 0x3f800001, 0x007fffff, 0, 0x007fffff,
		  UF | NX },
		{ 32, KH_PV_RM_RDN, 0x3f800001, 0x807fffff, 0x80000000,
		  0x80800000, NX },
		{ 32, KH_PV_RM_RNE, 0x3f800000, 0x007fffff, 0, 0x007fffff, 0 },
		{ 32, KH_PV_RM_RNE, 0x3f000000, 0x00000003, 0x00000001,
		  0x00000002, UF | NX },
		{ 16, KH_PV_RM_RNE, 0x3c01, 0x03ff, 0, 0x0400, NX },
		{ 16, KH_PV_RM_RTZ, 0x3c01, 0x03ff, 0, 0x03ff, UF | NX },
		{ 16, KH_PV_RM_RNE, 0x3c00, 0x03ff, 0x8001, 0x03fe, 0 },
	};
	unsigned int i, fx, wfx;
	u32 r;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fx = wfx = 0;
		r = ksim_sf_fma(t[i].bits == 32 ? &ksim_sf_binary32 :
				&ksim_sf_binary16, t[i].a, t[i].b, t[i].c,
				t[i].rm, &fx);
		CHECK_MSG(r == t[i].r && fx == t[i].fx,
			  "case %u: %x flags %#x, want %x flags %#x", i, r, fx,
			  t[i].r, t[i].fx);
		/* and the references agree */
		r = t[i].bits == 32 ?
			host32(KH_PV_FMADD, t[i].c, t[i].a, t[i].b, t[i].rm,
			       &wfx) :
			ref16_fma(t[i].a, t[i].b, t[i].c, t[i].rm, &wfx);
		CHECK_MSG(r == t[i].r && wfx == t[i].fx,
			  "case %u: the reference says %x flags %#x", i, r,
			  wfx);
	}
}

/* ---- the instructions ---- */

static void fma_every_mode(unsigned int t, unsigned int runs)
{
	unsigned int bits = t_bits(t), rm, run, j;
	unsigned int n = (END_ROW - IN_ROW) / (3 + N_FMA_OPS);
	struct tally ty = { 0 };

	REQUIRE(open_card());
	for (rm = 0; rm < 4; rm++) {
		unsigned long before = ty.lanes;

		for (run = 0; run < runs; run++) {
			for (j = 0; j < n; j++)
				gen_fma_vec(bits, groups[j].a, groups[j].b,
					    groups[j].d);
			run_groups(t, rm, n, fma_ops, N_FMA_OPS,
				   FSR_OF(KH_PV_FX_DIVZERO), &ty);
		}
		printf("# %u-bit %s: %lu lanes\n", bits, rm_name[rm],
		       ty.lanes - before);
	}
	CHECK_EQ(ty.bad, 0);
}

TEST_F(model, fpu_fma_class_binary32_every_mode)
{
	fma_every_mode(KH_PV_WF32, 16);
}

TEST_F(model, fpu_fma_class_binary16_every_mode)
{
	fma_every_mode(KH_PV_WF16, 8);
}

/* one program each for the integer conversions, the truncs and vfcvt */
static void cvt_run(unsigned int t, unsigned int rm, unsigned int n,
		    struct tally *ty)
{
	static const unsigned int f_ops[] = { KH_PV_FFLOAT, KH_PV_FUFLOAT };
	static const unsigned int t_ops[] = { KH_PV_FTRUNC, KH_PV_FTRUNCU };
	static const unsigned int c_ops[] = { KH_PV_FCVT };
	unsigned int bits = t_bits(t), j, i;

	for (j = 0; j < n; j++)
		for (i = 0; i < 512 / bits; i++) {
			mp_lset(groups[j].a, bits, i, gen_int(bits));
			mp_lset(groups[j].b, bits, i, (u32)rnd());
			mp_lset(groups[j].d, bits, i, (u32)rnd());
		}
	run_groups(t, rm, n, f_ops, 2, 0, ty);
	for (j = 0; j < n; j++)
		for (i = 0; i < 512 / bits; i++)
			mp_lset(groups[j].a, bits, i, gen_trunc(bits));
	run_groups(t, rm, n, t_ops, 2, FSR_OF(KH_PV_FX_DIVZERO), ty);
	for (j = 0; j < n; j++)
		for (i = 0; i < 16; i++) {
			if (t == KH_PV_WF32) {
				/* binary16 lanes 0..15, junk above */
				mp_lset(groups[j].a, 16, i, gen_val(16));
				mp_lset(groups[j].a, 16, 16 + i, (u32)rnd());
			} else {
				mp_lset(groups[j].a, 32, i, gen_narrow());
				mp_lset(groups[j].b, 32, i, gen_narrow());
			}
		}
	run_groups(t, rm, n, c_ops, 1, FSR_OF(KH_PV_FX_DIVZERO), ty);
}

static void cvt_every_mode(unsigned int t)
{
	unsigned int rm, run;
	struct tally ty = { 0 };

	REQUIRE(open_card());
	for (rm = 0; rm < 4; rm++) {
		unsigned long before = ty.lanes;

		for (run = 0; run < 4; run++)
			cvt_run(t, rm, 100, &ty);
		printf("# %u-bit converts %s: %lu lanes\n", t_bits(t),
		       rm_name[rm], ty.lanes - before);
	}
	CHECK_EQ(ty.bad, 0);
}

TEST_F(model, fpu_converts_binary32_every_mode)
{
	cvt_every_mode(KH_PV_WF32);
}

TEST_F(model, fpu_converts_binary16_every_mode)
{
	cvt_every_mode(KH_PV_WF16);
}

/* every lane of v[r] = x, bits wide */
static void emit_splat(unsigned int bits, unsigned int r, u32 x)
{
	mp_li(&pg, 6, x);
	mp_emit(&pg, VMOVE(KH_PV_VSPLAT + (bits == 32 ? KH_PV_W32 : KH_PV_W16),
			   r, 6, 0));
}

/*
 * The product enters the sum exact (seed 002 §3.2 QUIRK): a = 1 + 2^-12
 * (binary32) squares to 1 + 2^-11 + 2^-24, which rounds to 1 + 2^-11 (a
 * tie, to even); minus 1 + 2^-11 the fused result is 2^-24 in every
 * mode, the pre-rounded one 0 to nearest (2^-23 rounding up).  In
 * binary16 a = 1 + 2^-6: 2^-12 against 0.
 */
TEST_F(model, fpu_fma_rounds_once_not_the_product_first)
{
	static const struct {
		unsigned int t;
		u32 a, c, fused;
	} k[] = {
		{ KH_PV_WF32, 0x3f800800, 0xbf801000, 0x33800000 },
		{ KH_PV_WF16, 0x3c10, 0xbc20, 0x0c00 },
	};
	unsigned int i, rm, lane, bits, n = 0;

	REQUIRE(open_card());
	for (i = 0; i < 2; i++) {
		bits = t_bits(k[i].t);
		for (rm = 0; rm < 4; rm++) {
			prolog(rm);
			emit_splat(bits, 1, k[i].a);
			emit_splat(bits, 2, k[i].c);
			mp_emit(&pg, VFP(KH_PV_FMADD, k[i].t, 2, 1, 1));
			mp_emit(&pg, VS(2, R_BASE, IN_ROW));
			/* the two-step way, for contrast */
			emit_splat(bits, 2, k[i].c);
			mp_emit(&pg, VFP(KH_PV_FMUL, k[i].t, 3, 1, 1));
			mp_emit(&pg, VFP(KH_PV_FADD, k[i].t, 3, 3, 2));
			mp_emit(&pg, VS(3, R_BASE, IN_ROW + 1));
			mp_halt(&pg);
			REQUIRE(mp_exec(&m, &pg));
			REQUIRE(m.p->halted == 0);
			for (lane = 0; lane < 512 / bits; lane++, n++) {
				u64 g1 = mp_lget(row_at(IN_ROW), bits, lane);
				u64 g2 = mp_lget(row_at(IN_ROW + 1), bits, lane);

				CHECK_MSG(g1 == k[i].fused,
					  "%u-bit %s lane %u: %llx, want %x",
					  bits, rm_name[rm], lane,
					  (unsigned long long)g1, k[i].fused);
				/* rounded twice it is another number */
				CHECK(g2 != k[i].fused);
				if (rm == KH_PV_RM_RNE)
					CHECK_EQ(g2, 0);
			}
		}
	}
	CHECK_EQ(n, 4 * (16 + 32));
}

/* v[r] = x in lane `lane` and e in every other */
static void emit_lane_vec(unsigned int bits, unsigned int r, unsigned int lane,
			  u32 x, u32 e, unsigned int row)
{
	u8 v[64];
	unsigned int i;

	for (i = 0; i < 512 / bits; i++)
		mp_lset(v, bits, i, i == lane ? x : e);
	poke_row(row, v);
	mp_emit(&pg, VL(r, R_BASE, row));
}

/*
 * FSR (seed 002 §3.2): each flag is one bit for all the lanes (sticky OR),
 * from whichever lane raised it; it stays set through later instructions
 * that raise nothing until vwfsr clears it; the N forms neither raise nor
 * clear; FCR's enables, all set here, trap nothing.  One lane at a time
 * raises, the others compute 1 * 1 + 0 exactly.
 */
/* the values the flag steps use, by type */
struct flag_vals {
	u32 one, inf, big, third, tiny3, half, one_half;
};

static const struct flag_vals fv32 = {
	0x3f800000, 0x7f800000, 0x7f7fffff, 0x3eaaaaab, 0x00000003,
	0x3f000000, 0x3fc00000,
};

static const struct flag_vals fv16 = {
	0x3c00, 0x7c00, 0x7bff, 0x3555, 0x0003, 0x3800, 0x3e00,
};

/*
 * The steps of fpu_flags_sticky_ored_across_lanes, the flags raised in
 * lane `lane` alone (the others compute exactly); the FSR each leaves in
 * want[].  Return: the number of steps.
 */
static unsigned int emit_flag_steps(unsigned int t, unsigned int lane,
				    u32 *want)
{
	const struct flag_vals *c = t == KH_PV_WF32 ? &fv32 : &fv16;
	unsigned int bits = t_bits(t), row = IN_ROW, k = 0;

	mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, 0, 0));
	emit_splat(bits, 1, c->one);
	emit_splat(bits, 3, 0);
	/* inf * 0 + 0 in one lane, 1 * 1 + 0 in the others: Invalid */
	emit_lane_vec(bits, 2, lane, c->inf, c->one, row++);
	emit_lane_vec(bits, 5, lane, 0, c->one, row++);
	mp_emit(&pg, VMOVE(KH_PV_VMV, 4, 3, 0));
	mp_emit(&pg, VFP(KH_PV_FMADD, t, 4, 2, 5));
	emit_fsr_out();
	want[k++] = FSR_OF(NV);
	/* exact everywhere: nothing new, Invalid stays */
	mp_emit(&pg, VFP(KH_PV_FMUL, t, 4, 1, 1));
	emit_fsr_out();
	want[k++] = FSR_OF(NV);
	/* a third times a third: Inexact joins */
	emit_lane_vec(bits, 2, lane, c->third, c->one, row++);
	mp_emit(&pg, VFP(KH_PV_FMUL, t, 4, 2, 2));
	emit_fsr_out();
	want[k++] = FSR_OF(NV | NX);
	/* the N form overflowing: nothing changes */
	emit_lane_vec(bits, 2, lane, c->big, c->one, row++);
	mp_emit(&pg, VFP(KH_PV_FADD | KH_PV_FNOFLAGS, t, 4, 2, 2));
	emit_fsr_out();
	want[k++] = FSR_OF(NV | NX);
	/* flagged: Overflow (with Inexact) */
	mp_emit(&pg, VFP(KH_PV_FADD, t, 4, 2, 2));
	emit_fsr_out();
	want[k++] = FSR_OF(NV | NX | OF);
	/* vwfsr 0 clears; an N form's Invalid keeps it 0 */
	mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, 0, 0));
	emit_lane_vec(bits, 2, lane, c->inf, c->one, row++);
	emit_lane_vec(bits, 5, lane, 0, c->one, row++);
	mp_emit(&pg, VFP(KH_PV_FMUL | KH_PV_FNOFLAGS, t, 4, 2, 5));
	emit_fsr_out();
	want[k++] = 0;
	/* three smallest subnormals halved: Underflow and Inexact */
	emit_lane_vec(bits, 2, lane, c->tiny3, c->one, row++);
	emit_lane_vec(bits, 5, lane, c->half, c->one, row++);
	mp_emit(&pg, VFP(KH_PV_FMUL, t, 4, 2, 5));
	emit_fsr_out();
	want[k++] = FSR_OF(UF | NX);
	/* the N forms keep every flag set, too */
	mp_li(&pg, 6, KH_PV_FSR_MASK);
	mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, 6, 0));
	mp_emit(&pg, VFP(KH_PV_FMSUB | KH_PV_FNOFLAGS, t, 4, 1, 1));
	emit_fsr_out();
	want[k++] = KH_PV_FSR_MASK;
	/* a convert raises its flags (it has no N form): 1.5 is Inexact */
	mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, 0, 0));
	emit_lane_vec(bits, 2, lane, c->one_half, c->one, row++);
	mp_emit(&pg, VFP(KH_PV_FTRUNC, t, 4, 2, 0));
	emit_fsr_out();
	want[k++] = FSR_OF(NX);
	return k;
}

/*
 * FSR (seed 002 §3.2): each flag is one bit for all the lanes (sticky OR),
 * from whichever lane raised it; it stays set through later instructions
 * that raise nothing until vwfsr clears it; the N forms neither raise nor
 * clear; FCR's enables, all set here, trap nothing.
 */
TEST_F(model, fpu_flags_sticky_ored_across_lanes)
{
	static const unsigned int types[] = { KH_PV_WF32, KH_PV_WF16 };
	unsigned int ti, lane, k;
	u32 want[16], got;

	REQUIRE(open_card());
	for (ti = 0; ti < 2; ti++)
		for (lane = 0; lane < 512 / t_bits(types[ti]); lane++) {
			prolog(KH_PV_RM_RNE);
			k = emit_flag_steps(types[ti], lane, want);
			mp_halt(&pg);
			REQUIRE(mp_exec(&m, &pg));
			REQUIRE(m.p->halted == 0);
			while (k--) {
				got = mp_dword(&m, 0, OUT_BYTES + 4 * k);
				CHECK_MSG(got == want[k],
					  "%u-bit lane %u step %u: FSR %#x, want %#x",
					  t_bits(types[ti]), lane, k, got,
					  want[k]);
			}
			/* FCR kept what was written, enables and all */
			CHECK_EQ(m.p->core[0].vec.fcr,
				 KH_PV_FX_ALL << KH_PV_FCR_EN_SHIFT);
		}
}

/* lane i of a result row against the reference's */
static bool same(unsigned int bits, unsigned int row, const u8 *want,
		 unsigned int i)
{
	return lane_ok(bits, true, (u32)mp_lget(row_at(row), bits, i),
		       (u32)mp_lget(want, bits, i));
}

/*
 * The destination may be a source: every lane is computed before vd is
 * written.  vfmadd v1, v1, v1 is v1 + v1 * v1; vfcvt.h v1, v2, v1 narrows
 * the old v1 into lanes 16..31.
 */
TEST_F(model, fpu_destination_is_a_source)
{
	u8 a[64], b[64], want[64], w2[64];
	unsigned int i, fx = 0;

	REQUIRE(open_card());
	gen_fma_vec(32, a, b, want);
	prolog(KH_PV_RM_RNE);
	poke_row(IN_ROW, a);
	mp_emit(&pg, VL(1, R_BASE, IN_ROW));
	mp_emit(&pg, VFP(KH_PV_FMADD, KH_PV_WF32, 1, 1, 1));
	mp_emit(&pg, VS(1, R_BASE, IN_ROW + 1));
	for (i = 0; i < 16; i++) {
		mp_lset(a, 32, i, gen_narrow());
		mp_lset(b, 32, i, gen_narrow());
	}
	poke_row(IN_ROW + 2, a);
	poke_row(IN_ROW + 3, b);
	mp_emit(&pg, VL(1, R_BASE, IN_ROW + 2));
	mp_emit(&pg, VL(2, R_BASE, IN_ROW + 3));
	mp_emit(&pg, VFP(KH_PV_FCVT, KH_PV_WF16, 1, 2, 1));
	mp_emit(&pg, VS(1, R_BASE, IN_ROW + 4));
	/* and binary16 vfsub v3, v3, v3: 0 (+0; NaN lanes stay NaN) */
	poke_row(IN_ROW + 5, b);
	mp_emit(&pg, VL(3, R_BASE, IN_ROW + 5));
	mp_emit(&pg, VFP(KH_PV_FSUB, KH_PV_WF16, 3, 3, 3));
	mp_emit(&pg, VS(3, R_BASE, IN_ROW + 6));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	memcpy(a, row_at(IN_ROW), 64);
	ref_vec(KH_PV_WF32, KH_PV_FMADD, a, a, a, KH_PV_RM_RNE, want, &fx);
	for (i = 0; i < 16; i++)
		CHECK_MSG(same(32, IN_ROW + 1, want, i),
			  "vfmadd v1, v1, v1 lane %u", i);
	ref_vec(KH_PV_WF16, KH_PV_FCVT, want, row_at(IN_ROW + 3),
		row_at(IN_ROW + 2), KH_PV_RM_RNE, w2, &fx);
	for (i = 0; i < 32; i++)
		CHECK_MSG(same(16, IN_ROW + 4, w2, i),
			  "vfcvt.h v1, v2, v1 lane %u", i);
	ref_vec(KH_PV_WF16, KH_PV_FSUB, b, b, b, KH_PV_RM_RNE, w2, &fx);
	for (i = 0; i < 32; i++)
		CHECK_MSG(same(16, IN_ROW + 6, w2, i),
			  "vfsub v3, v3, v3 lane %u", i);
}

/*
 * With CP1 disabled an FPU word traps before any effect (seed 002 §3.2's
 * precise squash): no lane written, no flag raised, though inf * 0 would
 * raise Invalid.
 */
TEST_F(model, fpu_with_cp1_disabled_traps_before_any_effect)
{
	u64 trap;
	u32 at;

	REQUIRE(open_card());
	prolog(KH_PV_RM_RNE);
	emit_splat(32, 1, 0x7f800000);
	emit_splat(32, 2, 0x3f800000);
	mp_emit(&pg, CSRRCI(0, KH_PV_CSR_CPENABLE, 2));
	at = mp_here(&pg);
	mp_emit(&pg, VFP(KH_PV_FMUL, KH_PV_WF32, 2, 1, 0));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);
	CHECK_EQ(m.p->halted, 1);
	CHECK(trap & KH_POOL_TRAP_VALID);
	CHECK_EQ(KH_POOL_TRAP_CAUSE(trap), KH_POOL_CAUSE_CP_DISABLED);
	CHECK_EQ(KH_POOL_TRAP_PC(trap), at);
	CHECK_EQ(m.p->core[0].vec.fsr, 0);
	CHECK_EQ(m.p->core[0].vec.v[2][0], 0x3f8000003f800000ull);
}

CHECK_TEST_MAIN
