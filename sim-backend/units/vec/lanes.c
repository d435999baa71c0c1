// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lanes (vec_lanes.v, vec_core.v:495-512, 608-661): an ALU op issues
 * one beat per register chunk of 16 elements and chain stage, ceil(VL/16)
 * x D beats (D = 1 FLAT, 2 D2, 4 D4), element c*16+s in lane s.  A V
 * source reads the register, S and K the scalar or constant as it stood
 * when the word was decoded (vec_core.v:290-297); C is the previous chain
 * stage (F_CHAIN at the head, vec_core.v:504).
 *
 * Write-back per element: only below VL (the tail mask), and with pm 1
 * only where P[pr] is set, with pm 2 or 3 only where it is clear.  A
 * compare writes no vector: it writes P[pr] below VL and leaves the rest.
 *
 * Timing: the first beat waits until nothing is pending on the registers
 * named va, vb, vc (the head's) and vd (the last word's) whatever the
 * sources are (vec_core.v:279), then one beat a cycle; a write lands
 * 3 + D * ALAT after its beat (vec_lanes.v:386-387), and the lanes read
 * empty (what VLD/VST/VSETMODE/VHALT wait for) KSIM_VEC_DRAIN_LAT after the
 * last.  The scoreboard counts vector writes only, so a predicate is read
 * at its beat whether or not the compare that writes it has landed: the
 * model refuses such a read (KH_VEC_F_NM_PHAZ) rather than guess the bits.
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
 * Whether predicate register p, read chunk by chunk from `read_at` every
 * `per` cycles (per 0: all of it at once), may still see bits the
 * compare that writes it has not written: the write of chunk c lands at
 * preg_bw + c * preg_dw + preg_wb.
 */
bool ksim_vec_pred_stale(const struct ksim_vec *v, u32 p, u64 read_at,
			 u32 per, u32 n)
{
	u32 nw = v->preg_nw[p], last;
	u64 land0 = v->preg_bw[p] + v->preg_wb[p] + KSIM_VEC_PHAZ_MARGIN;

	if (!nw)
		return false;
	if (!per)
		return read_at < land0 + (u64)(nw - 1) * v->preg_dw[p];
	/* both lines are straight: their ends decide */
	last = (n < nw ? n : nw) - 1;
	return read_at < land0 ||
	       read_at + (u64)last * per < land0 + (u64)last * v->preg_dw[p];
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
 * ksim_vec_alu_exec() - an ALU op, or a chain of them, at EXEC cycle t
 * @v: the core.
 * @w: the kernel words: the head, then the stages gathered after it.
 * @d: how many: 1 (FLAT), 2 (D2) or 4 (D4).
 * @t: the head's EXEC cycle.
 * @code: set to a fault code when the model refuses it.
 *
 * A chain (vec_lanes.v:8-21, 256-318) computes, per element, stage 0 on
 * the head's sources, then each later stage with C as the stage before's
 * result (its other sources S or K; a V source was refused as F_VSRC).
 * The head names the registers read and waited on (g_ra, g_rb, g_rc), the
 * last word the destination, pr, pm and whether it is a compare
 * (vec_core.v:612-633).  Any opcode may be a later stage: 0x14-0x1f go
 * through the ALU as a move of their a operand (vec_alu.v:183).
 *
 * Return: the cycle of the S_F1 that follows, or the S_FAULT cycle.
 */
u64 ksim_vec_alu_exec(struct ksim_vec *v, const u32 *w, u32 d, u64 t,
		      u32 *code)
{
	u32 h = w[0], l = w[d - 1];
	u32 va = KH_VEC_GET(h, KH_VEC_VA), vb = KH_VEC_GET(h, KH_VEC_VB);
	u32 vc = KH_VEC_GET(h, KH_VEC_VC), vd = KH_VEC_GET(l, KH_VEC_VD);
	u32 pr = KH_VEC_GET(l, KH_VEC_PR), pm = KH_VEC_GET(l, KH_VEC_PM);
	u32 lop = KH_VEC_GET(l, KH_VEC_OP), k[4][3];
	u32 n = ksim_vec_nchunk(v), nb = n * d, c, s, j;
	bool cmp = lop >= KH_VEC_VCMPLT && lop <= KH_VEC_VCMPEQ;
	u32 wb = 3 + d * KSIM_VEC_ALAT;
	/* S_GA..S_GD per gathered word, then S_ALU */
	u64 b0 = t + 1 + 4 * (d - 1);

	for (j = 0; j < d; j++) {
		k[j][0] = ksim_vec_pick(v, KH_VEC_GET(w[j], KH_VEC_SA),
					KH_VEC_GET(w[j], KH_VEC_VA));
		k[j][1] = ksim_vec_pick(v, KH_VEC_GET(w[j], KH_VEC_SB),
					KH_VEC_GET(w[j], KH_VEC_VB));
		k[j][2] = ksim_vec_pick(v, KH_VEC_GET(w[j], KH_VEC_SC),
					KH_VEC_GET(w[j], KH_VEC_VC));
	}
	b0 = ksim_vec_max(b0, v->vreg_free[va]);
	b0 = ksim_vec_max(b0, v->vreg_free[vb]);
	b0 = ksim_vec_max(b0, v->vreg_free[vc]);
	b0 = ksim_vec_max(b0, v->vreg_free[vd]);
	/* pmask is taken in the d stage, two cycles after the beat's issue */
	if (pm != KH_VEC_PM_ALL && !cmp &&
	    ksim_vec_pred_stale(v, pr, b0 + 2, d, n)) {
		*code = KH_VEC_F_NM_PHAZ;
		return t + 1;
	}

	for (c = 0; c < n; c++)
		for (s = 0; s < KH_VEC_LANES; s++) {
			u32 i = c * KH_VEC_LANES + s, x = 0, src[3];
			bool p = false, tail = c < (v->vl >> 4) || s < (v->vl & 15);

			for (j = 0; j < d; j++) {
				static const u32 sel[3] = { KH_VEC_SA, KH_VEC_SB, KH_VEC_SC };
				static const u32 reg[3] = { KH_VEC_VA, KH_VEC_VB, KH_VEC_VC };
				u32 q;

				for (q = 0; q < 3; q++) {
					u32 sq = KH_VEC_GET(w[j], sel[q]);

					src[q] = sq == KH_VEC_SRC_C ? x :
						 sq == KH_VEC_SRC_V ?
						 v->vreg[KH_VEC_GET(w[j], reg[q])][i] :
						 k[j][q];
				}
				x = ksim_e8_alu(KH_VEC_GET(w[j], KH_VEC_OP), src[0],
						src[1], src[2], &p);
			}
			if (!tail)
				continue;
			if (cmp)
				v->preg[pr][i] = p;
			else if (pm == KH_VEC_PM_ALL ||
				 (pm == KH_VEC_PM_TRUE) == !!v->preg[pr][i])
				v->vreg[vd][i] = x;
		}

	if (cmp) {
		v->preg_bw[pr] = b0;
		v->preg_nw[pr] = n;
		v->preg_dw[pr] = d;
		v->preg_wb[pr] = wb;
	} else {
		v->vreg_free[vd] = ksim_vec_max(v->vreg_free[vd],
						 b0 + nb - 1 + wb);
	}
	v->lanes_idle = ksim_vec_max(v->lanes_idle,
				     b0 + nb - 1 + KSIM_VEC_DRAIN_LAT);
	/* the beats, then the S_ALU cycle that sees bcnt == nbeat */
	return b0 + nb + 1;
}

/* one node of the tree: ADD is a + c, MAX/MIN a against b; c = b */
static u32 ksim_vec_comb(u32 op, u32 a, u32 b)
{
	bool p;

	return ksim_e8_alu(op, a, b, b, &p);
}

/* ALUs 8-14 over the eight leaves: pairs, then pairs of pairs */
static u32 ksim_vec_tree8(u32 op, const u32 *x)
{
	u32 l1[4], l2[2], i;

	for (i = 0; i < 4; i++)
		l1[i] = ksim_vec_comb(op, x[2 * i], x[2 * i + 1]);
	for (i = 0; i < 2; i++)
		l2[i] = ksim_vec_comb(op, l1[2 * i], l1[2 * i + 1]);
	return ksim_vec_comb(op, l2[0], l2[1]);
}

/**
 * ksim_vec_tree_red() - VRED SUM, MAX, MIN, SUMSQ, DOT in TREE mode
 * @v: the core.
 * @w: the kernel word.
 * @t: its EXEC cycle.
 * @code: set to a fault code when the model refuses it (EXPSUM).
 *
 * vec_lanes.v:321-357, 502-526.  One beat per chunk (SUM, MAX, MIN: the
 * eight leaves combine element pairs 2j, 2j+1 of va) or two (SUMSQ, DOT:
 * the leaves multiply va by vb over slices 8p..8p+7, so SUMSQ is a dot
 * product too and means a sum of squares only with vb = va).  Each beat's
 * tree result is combined by ALU 15 into its own one of sixteen rotating
 * accumulators (reset to 0, -inf or +inf); the tail beat then runs the
 * tree over the accumulators in pairs.  S[vd] gets the result.
 *
 * Return: the cycle of the S_F1 that follows, or the S_FAULT cycle.
 */
u64 ksim_vec_tree_red(struct ksim_vec *v, u32 w, u64 t, u32 *code)
{
	u32 kind = KH_VEC_GET(w, KH_VEC_VC) & 7;
	u32 va = KH_VEC_GET(w, KH_VEC_VA), vb = KH_VEC_GET(w, KH_VEC_VB);
	u32 op = kind == KH_VEC_RED_MAX ? KH_VEC_VMAX :
		 kind == KH_VEC_RED_MIN ? KH_VEC_VMIN : KH_VEC_VADD;
	u32 ident = kind == KH_VEC_RED_MAX ? (KH_E8_SIGN | KH_E8_PINF) :
		    kind == KH_VEC_RED_MIN ? KH_E8_PINF : 0;
	bool half = kind == KH_VEC_RED_SUMSQ || kind == KH_VEC_RED_DOT;
	u32 n = ksim_vec_nchunk(v), nb = half ? 2 * n : n;
	u32 acc[KH_VEC_LANES], x[8], k, j;
	u64 r;

	if (kind == KH_VEC_RED_EXPSUM) {
		/* its leaves are the VEXP2 table seed */
		*code = KH_VEC_F_NM_TREE;
		return t + 1;
	}
	for (k = 0; k < KH_VEC_LANES; k++)
		acc[k] = ident;
	for (k = 0; k < nb; k++) {
		const u32 *ea = &v->vreg[va][(half ? k / 2 : k) * KH_VEC_LANES];
		const u32 *eb = &v->vreg[vb][(half ? k / 2 : k) * KH_VEC_LANES];

		for (j = 0; j < 8; j++) {
			if (half) {
				bool p;
				u32 s = (k & 1) * 8 + j;

				x[j] = ksim_e8_alu(KH_VEC_VMUL, ea[s], eb[s], eb[s], &p);
			} else {
				x[j] = ksim_vec_comb(op, ea[2 * j], ea[2 * j + 1]);
			}
		}
		acc[k] = ksim_vec_comb(op, ksim_vec_tree8(op, x), acc[k]);
	}
	for (j = 0; j < 8; j++)
		x[j] = ksim_vec_comb(op, acc[2 * j], acc[2 * j + 1]);
	v->sreg[KH_VEC_GET(w, KH_VEC_VD)] = ksim_vec_tree8(op, x);

	/* beats t+1.., S_RDRAIN until the lanes are empty, the tail's 4 levels */
	r = t + nb + 2;
	if (r < t + nb + KSIM_VEC_DRAIN_LAT)
		r = t + nb + KSIM_VEC_DRAIN_LAT;
	v->lanes_idle = ksim_vec_max(v->lanes_idle, r + KSIM_VEC_DRAIN_LAT);
	return r + 2 + 4 * KSIM_VEC_ALAT + 1;
}
