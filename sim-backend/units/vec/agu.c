// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vec_agu.v: eight descriptors, each a 40-bit base and four (stride,
 * bound) dimensions, and the one walker the core shares:
 *
 *   addr = base + off + sum_k idx_k * stride_k    (mod 2^40)
 *
 * A bound of 0 reads as 1.  A step advances dimension 0, carrying into
 * the next as the counters wrap; a step taken at the last index only ends
 * the walk, so every later step leaves the address where it is (a VLD
 * longer than its descriptor re-reads the last word).  The total is the
 * product of the bounds with the two partial products saturated to 16
 * bits (vec_agu.v:120-131), which can only make an illegal walk read as
 * longer than 256, never a legal one.
 */
#include "vec.h"

void ksim_vec_agu_reset(struct ksim_vec_agu *a)
{
	unsigned int d, k;

	memset(a, 0, sizeof(*a));
	for (d = 0; d < KH_VEC_DESCS; d++)
		for (k = 0; k < KH_VEC_DIMS; k++)
			a->bnd[d][k] = 1;
	for (k = 0; k < KH_VEC_DIMS; k++)
		a->cb[k] = 1;
}

/* A DESC instruction: field 0 the base, 1-4 a dimension, 5-7 nothing. */
void ksim_vec_agu_write(struct ksim_vec_agu *a, u32 ad, u32 fld, u64 val)
{
	ad &= KH_VEC_DESCS - 1;
	if (fld == KH_VEC_FLD_BASE) {
		a->base[ad] = val & KSIM_VEC_ADDR_MASK;
	} else if (fld <= KH_VEC_DIMS) {
		a->strd[ad][fld - 1] = (u32)((val >> KH_VEC_DIM_STRIDE_SHIFT) &
					     KH_VEC_DIM_STRIDE_MASK);
		a->bnd[ad][fld - 1] = (u16)(val & KH_VEC_DIM_BOUND_MASK);
	}
}

/* Latch descriptor `sel` and clear the counters (the walk's `start`). */
void ksim_vec_agu_start(struct ksim_vec_agu *a, u32 sel, s32 off)
{
	unsigned int k;

	sel &= KH_VEC_DESCS - 1;
	a->cbase = a->base[sel];
	a->off = (u64)(s64)off & KSIM_VEC_ADDR_MASK;
	for (k = 0; k < KH_VEC_DIMS; k++) {
		u32 st = a->strd[sel][k];

		a->cb[k] = a->bnd[sel][k] ? a->bnd[sel][k] : 1;
		/* 18-bit two's complement */
		a->cs[k] = (st & 0x20000) ? (s64)st - 0x40000 : (s64)st;
		a->idx[k] = 0;
		a->ps[k] = 0;
	}
	a->busy = true;
}

u64 ksim_vec_agu_addr(const struct ksim_vec_agu *a)
{
	return (a->cbase + a->off + a->ps[0] + a->ps[1] + a->ps[2] +
		a->ps[3]) & KSIM_VEC_ADDR_MASK;
}

static bool ksim_vec_agu_last(const struct ksim_vec_agu *a)
{
	unsigned int k;

	for (k = 0; k < KH_VEC_DIMS; k++)
		if (a->idx[k] != a->cb[k] - 1)
			return false;
	return true;
}

void ksim_vec_agu_step(struct ksim_vec_agu *a)
{
	unsigned int k;

	if (!a->busy)
		return;
	if (ksim_vec_agu_last(a)) {
		a->busy = false;
		return;
	}
	for (k = 0; k < KH_VEC_DIMS; k++) {
		/* the top dimension advances without a bound check (vec_agu.v:165) */
		if (k == KH_VEC_DIMS - 1 || a->idx[k] + 1 < a->cb[k]) {
			a->idx[k] = (a->idx[k] + 1) & 0xffff;
			a->ps[k] = (a->ps[k] + (u64)a->cs[k]) & KSIM_VEC_ADDR_MASK;
			return;
		}
		a->idx[k] = 0;
		a->ps[k] = 0;
	}
}

u32 ksim_vec_agu_total(const struct ksim_vec_agu *a)
{
	u32 t01 = a->cb[0] * a->cb[1], t23 = a->cb[2] * a->cb[3];
	u32 s01 = t01 >> 16 ? 0xffff : t01, s23 = t23 >> 16 ? 0xffff : t23;

	return s01 * s23;
}
