// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The permute crossbar (docs/spec/pool-vector.md "The permute crossbar";
 * seed 002 §3.6): a full 2N-input lane mux over the lanes of two source
 * registers, N = 64, 32 or 16 lanes of 8, 16 or 32 bits.
 *
 *   vpsel    SEL, 2N -> N: vd[i] = (va ++ vb)[vd[i] mod 2N]
 *   vpshfl   SHFL, N -> N: vd[i] = va[vb[i] mod N]
 *   vpdsel   DSEL, the dual-output butterfly: v[rd] = the even lanes of
 *            va ++ vb, v[rd + 1] = the odd ones
 *   vpdilv   its inverse, the interleave: (v[rd] ++ v[rd + 1])[2j] = va[j],
 *            [2j + 1] = vb[j]
 *   vpcmprs  DCMPRS: the lanes of va whose predicate bit is set, packed
 *            from lane 0, the lanes above them 0
 *
 * (va ++ vb) is the 2N-lane concatenation, va's lanes first.  Every result
 * is made in a scratch pair before any register is written: a destination
 * may be a source, and SEL reads its index vector from vd itself.
 */
#include "pool.h"

/* lane j (0 .. 2n - 1) of the concatenation a ++ b of n-lane registers */
static u32 ksim_pool_perm_cat(const u64 *a, const u64 *b, unsigned int bits,
			      unsigned int n, unsigned int j)
{
	return j < n ? ksim_pv_lane(a, bits, j) :
		       ksim_pv_lane(b, bits, j - n);
}

/**
 * ksim_pool_vec_perm() - one permute: vpsel, vpshfl, vpcmprs (KSIM_PV_PERM)
 * or vpdsel, vpdilv (KSIM_PV_DSEL, two destinations v[rd], v[rd + 1])
 * @v: the core's coprocessor state
 * @o: the K_VEC op: W an integer width code, funct7 in the aux field
 */
void ksim_pool_vec_perm(struct ksim_pool_vec *v, const struct ksim_pool_op *o)
{
	unsigned int w = KSIM_PV_W(o->imm), f7 = KSIM_PV_AUX(o->imm);
	unsigned int bits = KH_PV_LANE_BITS(w), n = KH_PV_LANES(w), i, j;
	const u64 *a = v->v[o->rs1], *b = v->v[o->rs2], *d = v->v[o->rd];
	u64 r[2][KSIM_PV_VWORDS], pred;
	u32 x;

	memset(r, 0, sizeof(r));
	switch (f7) {
	case KH_PV_PSEL:
		for (i = 0; i < n; i++) {
			j = ksim_pv_lane(d, bits, i) % (2 * n);
			x = ksim_pool_perm_cat(a, b, bits, n, j);
			ksim_pv_set_lane(r[0], bits, i, x);
		}
		break;
	case KH_PV_PSHFL:
		for (i = 0; i < n; i++) {
			j = ksim_pv_lane(b, bits, i) % n;
			x = ksim_pv_lane(a, bits, j);
			ksim_pv_set_lane(r[0], bits, i, x);
		}
		break;
	case KH_PV_PDSEL:
		/* lane j of a ++ b to lane j / 2 of the even or odd output */
		for (j = 0; j < 2 * n; j++) {
			x = ksim_pool_perm_cat(a, b, bits, n, j);
			ksim_pv_set_lane(r[j & 1], bits, j / 2, x);
		}
		break;
	case KH_PV_PDILV:
		/* lane j of the pair's 2n is a's (j even) or b's lane j / 2 */
		for (j = 0; j < 2 * n; j++) {
			x = ksim_pv_lane(j & 1 ? b : a, bits, j / 2);
			ksim_pv_set_lane(r[j / n], bits, j % n, x);
		}
		break;
	default:
		/* KH_PV_PCMPRS + k; bits [n-1:0] of b[k] are the lanes' */
		pred = v->vb[f7 - KH_PV_PCMPRS];
		for (i = 0, j = 0; i < n; i++) {
			if (!((pred >> i) & 1))
				continue;
			x = ksim_pv_lane(a, bits, i);
			ksim_pv_set_lane(r[0], bits, j++, x);
		}
		break;
	}
	memcpy(v->v[o->rd], r[0], sizeof(r[0]));
	if (KSIM_PV_OP(o->imm) == KSIM_PV_DSEL)
		memcpy(v->v[o->rd + 1], r[1], sizeof(r[1]));
}
