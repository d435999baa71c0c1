// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The register file's whole-chunk port (vec_core.v:568-584, 701-788):
 * VLD, VST, VCVT, VSHUF, VBCAST.  Each waits in EXEC until the lanes are
 * empty, starts the walker on descriptor `ad` with the signed 14-bit
 * offset, and moves ceil(VL/16) whole chunks: all 16 elements of a chunk,
 * VL's tail included.
 *
 *   VLD    FP16: one L1 word per chunk (element e at bits [16e+15:16e]);
 *          FP32: two words per chunk, elements 0-7 then 8-15.  The L1
 *          address is the walk's address [8:0], one step per word.
 *   VST    the same layouts out.  FP32 as the RTL has it: the second
 *          word's write is issued the cycle after the first's step, before
 *          the walker has moved (vec_agu.v's address is combinational from
 *          counters that step a cycle late), so both halves go to the same
 *          word, the high one last, and the walk advances two per chunk.
 *          Elements 0-7 of every chunk are lost.  When a fill response or
 *          CU_DATA word lands in that cycle the store holds a cycle and the
 *          second half goes where it should; the model cannot know which
 *          happens while fills or a burst are in flight and refuses then
 *          (KH_VEC_F_NM_VST32).
 *   VCVT   vd = va through the dtype: FP16 rounds each element through
 *          FP16 and back, FP32 is the identity.
 *   VSHUF  vd[16c+i] = va[16c + (i + S[vb]) mod 16], a rotate per chunk.
 *   VBCAST sa = S: every element of every chunk = S[va]; otherwise
 *          S[vd] = element 0 of va (one chunk).
 *
 * Timing from the first EXEC with the lanes empty at e: S_AGW, then per
 * chunk VLD 4 states (8 at FP32), VST 3 (4), the others 3; then S_F1.
 */
#include "vec.h"

static void ksim_vec_chunk_from_l1(struct ksim_vec *v, u32 vd, u32 c, u32 dt,
				   u32 half, const u64 *w)
{
	u32 i, *e = &v->vreg[vd][c * KH_VEC_LANES];

	if (dt == KH_VEC_DT_FP16) {
		for (i = 0; i < KH_VEC_LANES; i++)
			e[i] = ksim_e8_from_f16(ksim_vec_l1_h(w, i));
		return;
	}
	for (i = 0; i < 8; i++)
		e[half * 8 + i] = ksim_e8_from_f32(ksim_payload_u32(w, i));
}

static void ksim_vec_chunk_to_l1(const struct ksim_vec *v, u32 vs, u32 c,
				 u32 dt, u32 half, u64 *w)
{
	const u32 *e = &v->vreg[vs][c * KH_VEC_LANES];
	u32 i;

	if (dt == KH_VEC_DT_FP16) {
		for (i = 0; i < KH_VEC_LANES; i++)
			ksim_vec_l1_set_h(w, i, ksim_e8_to_f16(e[i]));
		return;
	}
	for (i = 0; i < 8; i++)
		ksim_payload_set_u32(w, i, ksim_e8_to_f32(e[half * 8 + i]));
}

static void ksim_vec_shuf(struct ksim_vec *v, u32 vd, u32 va, u32 c, u32 k)
{
	u32 tmp[KH_VEC_LANES], i;

	for (i = 0; i < KH_VEC_LANES; i++)
		tmp[i] = v->vreg[va][c * KH_VEC_LANES + (i + k) % KH_VEC_LANES];
	memcpy(&v->vreg[vd][c * KH_VEC_LANES], tmp, sizeof(tmp));
}

/**
 * ksim_vec_ldst_exec() - VLD, VST, VCVT, VSHUF or VBCAST at EXEC cycle t
 * @u: the unit.
 * @v: the core.
 * @w: the kernel word.
 * @t: its EXEC cycle.
 * @code: set to a fault code on a fault.
 *
 * Return: the cycle of the S_F1 that follows, or the S_FAULT cycle.
 */
u64 ksim_vec_ldst_exec(struct ksim_unit *u, struct ksim_vec *v, u32 w, u64 t,
		       u32 *code)
{
	u32 op = KH_VEC_GET(w, KH_VEC_OP), dt = KH_VEC_GET(w, KH_VEC_DT);
	u32 vd = KH_VEC_GET(w, KH_VEC_VD), va = KH_VEC_GET(w, KH_VEC_VA);
	u32 vb = KH_VEC_GET(w, KH_VEC_VB), off = KH_VEC_GET(w, KH_VEC_OFF);
	u32 n = ksim_vec_nchunk(v), c, i, k = v->sreg[vb] & 15;
	bool fp32 = dt == KH_VEC_DT_FP32;
	u64 e = t > v->lanes_idle ? t : v->lanes_idle;

	if ((op == KH_VEC_VLD || op == KH_VEC_VST || op == KH_VEC_VCVT) &&
	    dt != KH_VEC_DT_FP16 && dt != KH_VEC_DT_FP32) {
		*code = KH_VEC_F_DTYPE;
		return t + 1;
	}
	if (op == KH_VEC_VST && fp32 &&
	    (v->fill_out || ksim_unit_cd_open(u, NULL))) {
		*code = KH_VEC_F_NM_VST32;
		return t + 1;
	}
	/* sign-extend the 14-bit offset */
	ksim_vec_agu_start(&v->agu, KH_VEC_GET(w, KH_VEC_AD),
			   (s32)(off ^ 0x2000) - 0x2000);

	switch (op) {
	case KH_VEC_VLD:
		for (c = 0; c < n; c++)
			for (i = 0; i < (fp32 ? 2u : 1u); i++) {
				u64 a = ksim_vec_agu_addr(&v->agu);

				ksim_vec_agu_step(&v->agu);
				ksim_vec_chunk_from_l1(v, vd, c, dt, i,
						       v->l1[(u32)a & (KH_VEC_L1_WORDS - 1)]);
			}
		return e + 2 + (fp32 ? 8 : 4) * n;
	case KH_VEC_VST:
		for (c = 0; c < n; c++) {
			u64 a = ksim_vec_agu_addr(&v->agu);

			ksim_vec_agu_step(&v->agu);
			ksim_vec_chunk_to_l1(v, vd, c, dt, 0,
					     v->l1[(u32)a & (KH_VEC_L1_WORDS - 1)]);
			if (!fp32)
				continue;
			/* the same address again: the walker has not moved yet */
			ksim_vec_agu_step(&v->agu);
			ksim_vec_chunk_to_l1(v, vd, c, dt, 1,
					     v->l1[(u32)a & (KH_VEC_L1_WORDS - 1)]);
		}
		return e + 2 + (fp32 ? 4 : 3) * n;
	case KH_VEC_VCVT:
		for (c = 0; c < n; c++)
			for (i = 0; i < KH_VEC_LANES; i++) {
				u32 x = v->vreg[va][c * KH_VEC_LANES + i];

				if (!fp32)
					x = ksim_e8_from_f16(ksim_e8_to_f16(x));
				v->vreg[vd][c * KH_VEC_LANES + i] = x;
			}
		return e + 2 + 3 * n;
	case KH_VEC_VSHUF:
		for (c = 0; c < n; c++)
			ksim_vec_shuf(v, vd, va, c, k);
		return e + 2 + 3 * n;
	default:		/* VBCAST */
		if (KH_VEC_GET(w, KH_VEC_SA) != KH_VEC_SRC_S) {
			v->sreg[vd] = v->vreg[va][0];
			return e + 2 + 3;
		}
		for (c = 0; c < n; c++)
			for (i = 0; i < KH_VEC_LANES; i++)
				v->vreg[vd][c * KH_VEC_LANES + i] = v->sreg[va];
		return e + 2 + 3 * n;
	}
}
