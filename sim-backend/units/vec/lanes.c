// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lanes in FLAT mode (vec_lanes.v, vec_core.v:495-512 and 636-661):
 * an ALU op issues one beat per register chunk of 16 elements, ceil(VL/16)
 * beats, element c*16+s in lane s.  A V source reads the register, S and K
 * the scalar or constant as it stood at issue (vec_core.v:290-297), C is
 * F_CHAIN at a chain head, which FLAT always is.
 *
 * Write-back per element: only below VL (the tail mask), and with pm 1
 * only where P[pr] is set, with pm 2 or 3 only where it is clear.  A
 * compare writes no vector: it writes P[pr] below VL and leaves the rest.
 *
 * Timing: the first beat waits until nothing is pending on the registers
 * named va, vb, vc and vd (whatever the sources are; vec_core.v:279), then
 * one beat a cycle; a write lands KSIM_VEC_WB_LAT after its beat, and
 * the lanes read empty (what VLD/VST/VSETMODE/VHALT wait for)
 * KSIM_VEC_DRAIN_LAT after the last.  The
 * scoreboard counts vector writes only, so a predicate is read at its
 * beat whether or not the compare that writes it has landed: the model
 * refuses such a read (KH_VEC_F_NM_PHAZ) rather than guess the bits.
 */
#include "vec.h"

u32 ksim_vec_nchunk(const struct ksim_vec *v)
{
	return (v->vl >> 4) + ((v->vl & 15) ? 1 : 0);
}

static u64 ksim_vec_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * Whether predicate register p read at `read_at` (its chunk 0; or all of
 * it at once) may still see bits a compare has not written yet.
 */
bool ksim_vec_pred_stale(const struct ksim_vec *v, u32 p, u64 read_at,
			 bool all_chunks)
{
	u64 land;

	if (!v->preg_nw[p])
		return false;
	land = v->preg_bw[p] + KSIM_VEC_WB_LAT + KSIM_VEC_PHAZ_MARGIN;
	if (all_chunks)
		land += v->preg_nw[p] - 1;
	return read_at < land;
}

static u32 ksim_vec_src(const struct ksim_vec *v, u32 sel, u32 r, u32 i,
			u32 scalar)
{
	return sel == KH_VEC_SRC_V ? v->vreg[r][i] : scalar;
}

static u32 ksim_vec_pick(const struct ksim_vec *v, u32 sel, u32 r)
{
	if (sel == KH_VEC_SRC_S)
		return v->sreg[r];
	if (sel == KH_VEC_SRC_K)
		return v->kreg[r & 3];
	return 0;
}

/**
 * ksim_vec_alu_exec() - an ALU op (0x00-0x0d) in FLAT mode, at EXEC cycle t
 * @v: the core.
 * @w: the kernel word.
 * @t: its EXEC cycle.
 * @code: set to a fault code when the model refuses it.
 *
 * Return: the cycle of the S_F1 that follows, or the S_FAULT cycle.
 */
u64 ksim_vec_alu_exec(struct ksim_vec *v, u32 w, u64 t, u32 *code)
{
	u32 op = KH_VEC_GET(w, KH_VEC_OP);
	u32 sa = KH_VEC_GET(w, KH_VEC_SA), sb = KH_VEC_GET(w, KH_VEC_SB);
	u32 sc = KH_VEC_GET(w, KH_VEC_SC);
	u32 vd = KH_VEC_GET(w, KH_VEC_VD), va = KH_VEC_GET(w, KH_VEC_VA);
	u32 vb = KH_VEC_GET(w, KH_VEC_VB), vc = KH_VEC_GET(w, KH_VEC_VC);
	u32 pr = KH_VEC_GET(w, KH_VEC_PR), pm = KH_VEC_GET(w, KH_VEC_PM);
	u32 ka = ksim_vec_pick(v, sa, va), kb = ksim_vec_pick(v, sb, vb);
	u32 kc = ksim_vec_pick(v, sc, vc);
	u32 n = ksim_vec_nchunk(v), c, s;
	bool cmp = op >= KH_VEC_VCMPLT && op <= KH_VEC_VCMPEQ;
	u64 b0 = t + 1;

	b0 = ksim_vec_max(b0, v->vreg_free[va]);
	b0 = ksim_vec_max(b0, v->vreg_free[vb]);
	b0 = ksim_vec_max(b0, v->vreg_free[vc]);
	b0 = ksim_vec_max(b0, v->vreg_free[vd]);
	/* pmask is taken in the d stage, two cycles after the beat's issue */
	if (pm != KH_VEC_PM_ALL && !cmp && ksim_vec_pred_stale(v, pr, b0 + 2, false)) {
		*code = KH_VEC_F_NM_PHAZ;
		return t + 1;
	}

	for (c = 0; c < n; c++)
		for (s = 0; s < KH_VEC_LANES; s++) {
			u32 i = c * KH_VEC_LANES + s, r;
			bool p, tail = c < (v->vl >> 4) || s < (v->vl & 15);

			r = ksim_e8_alu(op, ksim_vec_src(v, sa, va, i, ka),
					ksim_vec_src(v, sb, vb, i, kb),
					ksim_vec_src(v, sc, vc, i, kc), &p);
			if (!tail)
				continue;
			if (cmp)
				v->preg[pr][i] = p;
			else if (pm == KH_VEC_PM_ALL ||
				 (pm == KH_VEC_PM_TRUE) == !!v->preg[pr][i])
				v->vreg[vd][i] = r;
		}

	if (cmp) {
		v->preg_bw[pr] = b0;
		v->preg_nw[pr] = n;
	} else {
		v->vreg_free[vd] = ksim_vec_max(v->vreg_free[vd],
						 b0 + n - 1 + KSIM_VEC_WB_LAT);
	}
	v->lanes_idle = ksim_vec_max(v->lanes_idle,
				     b0 + n - 1 + KSIM_VEC_DRAIN_LAT);
	/* n beats, then the S_ALU cycle that sees bcnt == nbeat */
	return b0 + n + 1;
}
