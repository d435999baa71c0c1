// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sequencer (vec_core.v:383-878): one kernel word at a time, each at
 * the cycle of its S_EXEC state.  A word costs S_F1, S_F2, S_DEC, S_EXEC
 * (the first of a run starts at S_F2: S_IDLE takes S_F1's place) and then
 * its own states; `cycles` counts from the first S_F2 to S_HALT or
 * S_FAULT inclusive and is the RUN's exec_result and CU_DBG.
 *
 * S_F1 is where a rejected CU_DATA burst is reported (F_CUDATA) and where
 * the hardware loop closes: at pc == lp_end with lp_cnt > 1 the count
 * drops and pc goes back to lp_top, else the loop ends.  So a body runs
 * max(count, 1) times, and a loop whose end the pc jumps over (a VSETI
 * immediate at lp_end) never closes.
 */
#include "vec.h"

/* S_F1 at cycle f: the loop, and the next EXEC three states later */
static void ksim_vec_f1(struct ksim_vec *v, u64 f)
{
	if (v->lp_act && v->pc == v->lp_end) {
		if (v->lp_cnt > 1) {
			v->lp_cnt--;
			v->pc = v->lp_top;
		} else {
			v->lp_act = false;
		}
	}
	v->kst = KSIM_VEC_K_EXEC;
	v->kt = f + 3;
	v->from_f1 = true;
}

void ksim_vec_kernel_start(struct ksim_vec *v, u32 pc, u64 t0)
{
	v->pc = pc & (KH_VEC_IMEM_WORDS - 1);
	v->t0 = t0;
	v->lp_act = false;
	v->kst = KSIM_VEC_K_EXEC;
	v->kt = t0 + 2;		/* S_F2, S_DEC, S_EXEC */
	v->from_f1 = false;
}

static bool ksim_vec_fault(struct ksim_unit *u, struct ksim_vec *v, u64 at,
			   u32 code)
{
	ksim_vec_finish(u, v, at, true, code);
	return true;
}

/* VRED (vec_core.v:541-567): ANY/ALL here, the tree kinds in lanes.c */
static u64 ksim_vec_red(struct ksim_vec *v, u32 w, u64 t, u32 *code)
{
	u32 kind = KH_VEC_GET(w, KH_VEC_VC) & 7, p = v->g_pr, i, hit = 0;
	u32 bits = v->vl >= KH_VEC_VLMAX ? KH_VEC_VLMAX : v->vl;

	/* p_bits is preg[g_pr] as it stood: the pr of the word before */
	v->g_pr = KH_VEC_GET(w, KH_VEC_PR);
	if (kind >= KH_VEC_RED_ANY) {
		if (ksim_vec_pred_stale(v, p, t, 0, 0)) {
			*code = KH_VEC_F_NM_PHAZ;
			return t + 1;
		}
		for (i = 0; i < bits; i++)
			hit += v->preg[p][i];
		if (kind == KH_VEC_RED_ANY ? hit != 0 : hit == bits)
			v->sreg[KH_VEC_GET(w, KH_VEC_VD)] = KH_E8_ONE;
		else
			v->sreg[KH_VEC_GET(w, KH_VEC_VD)] = 0;
		return t + 1;
	}
	if (v->vl & 15)
		*code = KH_VEC_F_REDVL;
	else if (v->vmode != KH_VEC_MODE_TREE)
		*code = KH_VEC_F_OPCODE;
	else
		return ksim_vec_tree_red(v, w, t, code);
	return t + 1;
}

/*
 * An ALU word at its EXEC cycle t: in D2/D4 the next 1 or 3 words are
 * gathered as the chain's later stages, one per S_GA..S_GD (4 cycles,
 * vec_core.v:608-634), each latching its pr; a V source in one of them is
 * F_VSRC at its S_GD.  A later stage whose opcode reaches vec_alu as a
 * table seed (0x0e-0x13: VCVT and VRED map onto INV and RSQRT) is refused.
 */
static u64 ksim_vec_chain(struct ksim_vec *v, u32 w, u64 t, u32 *code)
{
	u32 d = v->vmode == KH_VEC_MODE_D2 ? 2 : v->vmode == KH_VEC_MODE_D4 ? 4 : 1;
	u32 ws[4], j, op;

	ws[0] = w;
	for (j = 1; j < d; j++) {
		ws[j] = v->imem[v->pc];
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		v->g_pr = KH_VEC_GET(ws[j], KH_VEC_PR);
		op = KH_VEC_GET(ws[j], KH_VEC_OP);
		if (KH_VEC_GET(ws[j], KH_VEC_SA) == KH_VEC_SRC_V ||
		    KH_VEC_GET(ws[j], KH_VEC_SB) == KH_VEC_SRC_V ||
		    KH_VEC_GET(ws[j], KH_VEC_SC) == KH_VEC_SRC_V) {
			*code = KH_VEC_F_VSRC;
			return t + 4 * j + 1;
		}
		if (op >= KH_VEC_VEXP2 && op <= KH_VEC_VRED) {
			*code = KH_VEC_F_NM_SEED;
			return t + 4 * j + 1;
		}
	}
	return ksim_vec_alu_exec(v, ws, d, t, code);
}

/*
 * The word at pc, at its EXEC cycle t.  Return: the S_F1 cycle after it
 * (*code 0), the S_FAULT cycle (*code set), or 0 when it left kst in a
 * waiting state.
 */
static u64 ksim_vec_exec(struct ksim_unit *u, struct ksim_vec *v, u32 w,
			 u64 t, u32 *code)
{
	u32 op = KH_VEC_GET(w, KH_VEC_OP), va = KH_VEC_GET(w, KH_VEC_VA);
	u32 vd = KH_VEC_GET(w, KH_VEC_VD), s;
	u64 e;

	if (KH_VEC_IS_ALU(op)) {
		v->g_pr = KH_VEC_GET(w, KH_VEC_PR);
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		if (KH_VEC_GET(w, KH_VEC_SA) == KH_VEC_SRC_C ||
		    KH_VEC_GET(w, KH_VEC_SB) == KH_VEC_SRC_C ||
		    KH_VEC_GET(w, KH_VEC_SC) == KH_VEC_SRC_C)
			*code = KH_VEC_F_CHAIN;
		else if (v->vmode == KH_VEC_MODE_TREE)
			*code = KH_VEC_F_NM_CHAIN;
		else if (op >= KH_VEC_VEXP2)
			*code = KH_VEC_F_NM_SEED;
		if (*code)
			return t + 1;
		return ksim_vec_chain(v, w, t, code);
	}
	switch (op) {
	case KH_VEC_VCVT:
	case KH_VEC_VLD:
	case KH_VEC_VST:
	case KH_VEC_VSHUF:
	case KH_VEC_VBCAST:
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		return ksim_vec_ldst_exec(u, v, w, t, code);
	case KH_VEC_VRED:
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		return ksim_vec_red(v, w, t, code);
	case KH_VEC_VSETVL:
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		s = v->sreg[va];
		if (!s || s > KH_VEC_VLMAX) {
			*code = KH_VEC_F_VL;
			return t + 1;
		}
		v->vl = s;
		return t + 1;
	case KH_VEC_VSETMODE:
		/* held in EXEC until the lanes are empty */
		e = t > v->lanes_idle ? t : v->lanes_idle;
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		v->vmode = va & 3;
		return e + 1;
	case KH_VEC_VSETI:
		/* S_SETI, S_SETI2 reads the next word; pc skips it */
		s = v->imem[(v->pc + 1) & (KH_VEC_IMEM_WORDS - 1)] & 0xffffff;
		if (KH_VEC_GET(w, KH_VEC_SA) == KH_VEC_SRC_K)
			v->kreg[3] = s;
		else
			v->sreg[vd] = s;
		v->pc = (v->pc + 2) & (KH_VEC_IMEM_WORDS - 1);
		return t + 3;
	case KH_VEC_VLOOP:
		if (v->lp_act) {
			*code = KH_VEC_F_LOOP;
			return t + 1;
		}
		v->lp_act = true;
		v->lp_cnt = v->sreg[va];
		v->lp_top = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		v->lp_end = (v->pc + 1 + KH_VEC_GET(w, KH_VEC_VB)) &
			    (KH_VEC_IMEM_WORDS - 1);
		v->pc = v->lp_top;
		return t + 1;
	case KH_VEC_VBAR:
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		v->kst = KSIM_VEC_K_BAR;
		v->kt = t + 1;
		return 0;
	case KH_VEC_VFILL:
		if (v->fill_out) {
			/* a second fill waits in EXEC rather than alias the tags */
			v->kst = KSIM_VEC_K_HOLD;
			v->kt = t;
			return 0;
		}
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		return ksim_vec_mem_start(v, w, t, code);
	case KH_VEC_VDRAIN:
		v->pc = (v->pc + 1) & (KH_VEC_IMEM_WORDS - 1);
		return ksim_vec_mem_start(v, w, t, code);
	default:		/* VHALT */
		v->kst = KSIM_VEC_K_HALT;
		v->kt = t + 1;
		return 0;
	}
}

/* The cycle from which S_BAR / S_WAITP may see fill_out == 0. */
static u64 ksim_vec_fill_clear(const struct ksim_vec *v, u64 from)
{
	return from > v->fill_zero_at ? from : v->fill_zero_at;
}

/**
 * ksim_vec_kernel_step() - run the kernel up to the mesh's cycle
 * @u: the unit.
 * @v: the core.
 * @now: the cycle.
 *
 * Executes every word whose EXEC cycle has come, and arms a timer for the
 * next one.
 *
 * Return: true when anything changed.
 */
bool ksim_vec_kernel_step(struct ksim_unit *u, struct ksim_vec *v, u64 now)
{
	bool did = false;
	u64 r, f1;
	u32 code;

	while (v->cst == KSIM_VEC_C_RUN) {
		code = 0;
		switch (v->kst) {
		case KSIM_VEC_K_EXEC:
			if (now < v->kt) {
				ksim_unit_timer(u, v->kt);
				return did;
			}
			did = true;
			if (v->from_f1 && v->cd_err) {
				/* reported at the S_F1 before this word */
				v->cd_err = false;
				return ksim_vec_fault(u, v, v->kt - 2,
						      KH_VEC_F_CUDATA);
			}
			ksim_unit_set_dbg(u, v->kt - v->t0 + 1);
			r = ksim_vec_exec(u, v, v->imem[v->pc], v->kt, &code);
			if (code)
				return ksim_vec_fault(u, v, r, code);
			if (r)
				ksim_vec_f1(v, r);
			break;
		case KSIM_VEC_K_HOLD:
			if (v->fill_out)
				return did;
			v->kt = ksim_vec_fill_clear(v, v->kt);
			v->kst = KSIM_VEC_K_EXEC;
			did = true;
			break;
		case KSIM_VEC_K_FILL:
		case KSIM_VEC_K_DRAIN:
			if (!ksim_vec_mem_step(u, v, now, &f1)) {
				if (v->mem_next != ~0ULL && v->mem_next > now)
					ksim_unit_timer(u, v->mem_next);
				else if (v->mem_next != ~0ULL)
					ksim_unit_timer(u, v->mem_last + 3);
				return did;
			}
			did = true;
			ksim_vec_f1(v, f1);
			break;
		case KSIM_VEC_K_BAR:
			if (v->fill_out)
				return did;
			did = true;
			ksim_vec_f1(v, ksim_vec_fill_clear(v, v->kt) + 1);
			break;
		default:	/* KSIM_VEC_K_HALT: S_WAITP */
			if (v->fill_out)
				return did;
			r = ksim_vec_fill_clear(v, v->kt);
			if (r < v->lanes_idle)
				r = v->lanes_idle;
			ksim_vec_finish(u, v, r + 1, false, 0);
			return true;
		}
	}
	return did;
}
