/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * IEEE 754-2008 binary32 and binary16 arithmetic in integer code: the
 * model is also built into a kernel module, where the FPU is off limits,
 * and a bit-exact model cannot lean on the host's rounding anyway.
 *
 * Values travel as their encodings in the low bits of a u32.  Every
 * operation takes a round mode (KSIM_SF_RNE ...) and ORs the IEEE flags
 * it raises (KSIM_SF_X_*) into *flags, so a caller can gather them across
 * lanes and operations and clear them when it wants.  The rules, chosen
 * as RISC-V's F extension and x86 SSE have them:
 *
 * - subnormal inputs and results are kept (no flush to zero);
 * - tininess is detected after rounding; Underflow is raised only for a
 *   tiny result that is also inexact;
 * - an overflowing result is infinity or the largest finite number, as
 *   the round mode points, with Overflow and Inexact;
 * - every NaN result is the format's canonical quiet NaN (sign 0, the
 *   quiet bit alone: 0x7fc00000, 0x7e00), whatever NaN came in;
 * - Invalid for a signalling NaN operand, inf * 0 (even with a quiet NaN
 *   addend) and inf - inf; DivZero is never raised (no division here).
 */
#ifndef KSIM_SOFTFP_H
#define KSIM_SOFTFP_H

#include "ksim_plat.h"

/* round modes */
#define KSIM_SF_RNE		0	/* to nearest, ties to even */
#define KSIM_SF_RTZ		1	/* toward zero */
#define KSIM_SF_RUP		2	/* toward +infinity */
#define KSIM_SF_RDN		3	/* toward -infinity */

/* the IEEE flags, as bits of *flags */
#define KSIM_SF_X_INVALID	(1u << 0)
#define KSIM_SF_X_DIVZERO	(1u << 1)
#define KSIM_SF_X_OVERFLOW	(1u << 2)
#define KSIM_SF_X_UNDERFLOW	(1u << 3)
#define KSIM_SF_X_INEXACT	(1u << 4)

/*
 * struct ksim_sf_fmt - a binary interchange format
 * @mbits: stored significand bits (23, 10)
 * @ebits: exponent bits (8, 5)
 */
struct ksim_sf_fmt {
	u8 mbits;
	u8 ebits;
};

extern const struct ksim_sf_fmt ksim_sf_binary32;
extern const struct ksim_sf_fmt ksim_sf_binary16;

u32 ksim_sf_qnan(const struct ksim_sf_fmt *f);
u32 ksim_sf_fma(const struct ksim_sf_fmt *f, u32 a, u32 b, u32 c,
		unsigned int rm, unsigned int *flags);
u32 ksim_sf_mul(const struct ksim_sf_fmt *f, u32 a, u32 b, unsigned int rm,
		unsigned int *flags);
u32 ksim_sf_add(const struct ksim_sf_fmt *f, u32 a, u32 b, unsigned int rm,
		unsigned int *flags);
u32 ksim_sf_sub(const struct ksim_sf_fmt *f, u32 a, u32 b, unsigned int rm,
		unsigned int *flags);
u32 ksim_sf_from_int(const struct ksim_sf_fmt *f, u32 x, bool is_signed,
		     unsigned int rm, unsigned int *flags);
u32 ksim_sf_to_int(const struct ksim_sf_fmt *f, u32 x, unsigned int bits,
		   bool is_signed, unsigned int *flags);
u32 ksim_sf_cvt(const struct ksim_sf_fmt *to, const struct ksim_sf_fmt *from,
		u32 x, unsigned int rm, unsigned int *flags);

#endif /* KSIM_SOFTFP_H */
