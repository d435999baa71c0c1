// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector coprocessor's FPU (docs/spec/pool-vector.md "The FPU"; seed
 * 002 §3.2): the fused multiply-add and its add, subtract and multiply
 * forms on 16 binary32 or 32 binary16 lanes, the conversions to and from
 * integer lanes, and binary16 <-> binary32.  The arithmetic is
 * lib/softfp.c's, one lane at a time; this file maps the instruction onto
 * it: the round mode from FCR, the flags gathered over the lanes into
 * FSR's sticky bits (none for the N forms, seed 002 §3.2).
 *
 * Every lane is computed before the destination is written: it may be a
 * source (vfmadd's addend always is).
 */
#include "pool.h"
#include "softfp.h"

/* FCR's round mode field -> softfp's: the library knows nothing of FCR */
static const u8 ksim_pool_vec_rm[4] = {
	[KH_PV_RM_RNE] = KSIM_SF_RNE,
	[KH_PV_RM_RTZ] = KSIM_SF_RTZ,
	[KH_PV_RM_RUP] = KSIM_SF_RUP,
	[KH_PV_RM_RDN] = KSIM_SF_RDN,
};

/* softfp's flag bits are FSR's, in the same order (KH_PV_FX_*) */
_Static_assert(KSIM_SF_X_INVALID == KH_PV_FX_INVALID &&
	       KSIM_SF_X_DIVZERO == KH_PV_FX_DIVZERO &&
	       KSIM_SF_X_OVERFLOW == KH_PV_FX_OVERFLOW &&
	       KSIM_SF_X_UNDERFLOW == KH_PV_FX_UNDERFLOW &&
	       KSIM_SF_X_INEXACT == KH_PV_FX_INEXACT,
	       "softfp flags are not FSR's");

/* one lane of vfmadd .. vfsub (op without the N bit), d the old vd */
static u32 ksim_pool_vec_fma1(const struct ksim_sf_fmt *f, unsigned int op,
			      u32 d, u32 a, u32 b, unsigned int rm,
			      unsigned int *fx)
{
	u32 neg = 1u << (f->ebits + f->mbits);

	switch (op) {
	case KH_PV_FMADD:
		return ksim_sf_fma(f, a, b, d, rm, fx);
	case KH_PV_FMSUB:
		/* d - a*b: the product negated (the seed's negate_axb) */
		return ksim_sf_fma(f, a ^ neg, b, d, rm, fx);
	case KH_PV_FMUL:
		return ksim_sf_mul(f, a, b, rm, fx);
	case KH_PV_FADD:
		return ksim_sf_add(f, a, b, rm, fx);
	default:	/* KH_PV_FSUB */
		return ksim_sf_sub(f, a, b, rm, fx);
	}
}

/*
 * Lane i of vffloat, vfufloat (integer lanes of the type's width) or
 * vfcvt on type f, bits wide.
 */
static u32 ksim_pool_vec_cvt1(const struct ksim_sf_fmt *f, unsigned int bits,
			      unsigned int f7, const u64 *a, const u64 *b,
			      unsigned int i, unsigned int rm,
			      unsigned int *fx)
{
	u32 x;

	if (f7 == KH_PV_FCVT && bits == 16) {	/* va's 16 binary32, vb's */
		x = ksim_pv_lane(i < 16 ? a : b, 32, i % 16);
		return ksim_sf_cvt(f, &ksim_sf_binary32, x, rm, fx);
	}
	if (f7 == KH_PV_FCVT)			/* va's binary16 lanes 0..15 */
		return ksim_sf_cvt(f, &ksim_sf_binary16,
				   ksim_pv_lane(a, 16, i), rm, fx);
	x = ksim_pv_lane(a, bits, i);
	if (f7 == KH_PV_FFLOAT && bits < 32)	/* sign-extended to 32 bits */
		x = (x ^ 0x8000) - 0x8000;
	return ksim_sf_from_int(f, x, f7 == KH_PV_FFLOAT, rm, fx);
}

/**
 * ksim_pool_vec_fp() - one FPU instruction: FMA class, converts, truncs
 * @v: the coprocessor state
 * @o: a K_VEC op of KSIM_PV_FMA, KSIM_PV_FCVT or KSIM_PV_FTRUNC; its type
 *     (KH_PV_WF32 or KH_PV_WF16) in KSIM_PV_W, its funct7 in KSIM_PV_AUX
 *
 * Rounds by FCR's mode (the truncs toward zero whatever it says) and ORs
 * the flags of every lane into FSR, where they stay until vwfsr clears
 * them; FCR's enables trap nothing (the seed's imprecise exception is
 * status only).  The N forms of the FMA class leave FSR alone.
 */
void ksim_pool_vec_fp(struct ksim_pool_vec *v, const struct ksim_pool_op *o)
{
	unsigned int f7 = KSIM_PV_AUX(o->imm), i, lf, fx = 0;
	bool hp = KSIM_PV_W(o->imm) == KH_PV_WF16;
	const struct ksim_sf_fmt *f = hp ? &ksim_sf_binary16 :
					   &ksim_sf_binary32;
	unsigned int bits = hp ? 16 : 32, lanes = 512 / bits;
	unsigned int rm = ksim_pool_vec_rm[(v->fcr & KH_PV_FCR_RM) >>
					   KH_PV_FCR_RM_SHIFT];
	const u64 *d = v->v[o->rd], *a = v->v[o->rs1], *b = v->v[o->rs2];
	u64 r[KSIM_PV_VWORDS] = { 0 };
	u32 x;

	for (i = 0; i < lanes; i++) {
		lf = 0;
		switch (KSIM_PV_OP(o->imm)) {
		case KSIM_PV_FMA:
			x = ksim_pool_vec_fma1(f, f7 & ~KH_PV_FNOFLAGS,
					       ksim_pv_lane(d, bits, i),
					       ksim_pv_lane(a, bits, i),
					       ksim_pv_lane(b, bits, i),
					       rm, &lf);
			break;
		case KSIM_PV_FTRUNC:
			x = ksim_sf_to_int(f, ksim_pv_lane(a, bits, i),
					   bits, f7 == KH_PV_FTRUNC, &lf);
			break;
		default:	/* KSIM_PV_FCVT */
			x = ksim_pool_vec_cvt1(f, bits, f7, a, b, i, rm, &lf);
			break;
		}
		ksim_pv_set_lane(r, bits, i, x);
		fx |= lf;
	}
	memcpy(v->v[o->rd], r, sizeof(r));
	if (KSIM_PV_OP(o->imm) == KSIM_PV_FMA && (f7 & KH_PV_FNOFLAGS))
		return;		/* the N forms: no flag (seed 002 §3.2) */
	v->fsr |= fx << KH_PV_FSR_FX_SHIFT;
}
