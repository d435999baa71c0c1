// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The GEMM sweep as the ship tops build it: mx_cluster_mgr_pump.v (PUMP=1:
 * L1 and the cascade at twice the unit clock, two K blocks per command).
 * K outermost, in steps of two:
 *
 *	for kb = 0, 2, .. < nk: for g < gm: for h < gn: one command
 *
 * (0 in gm, gn or nk means 1, L233-235), one command per cycle, paced when
 * gm * gn < 5 and nk > 1 so that a tile address recurs no sooner than
 * REUSE_MIN (4 idle cycles at 1x1, 2 at 1x2, 1 at the other small shapes).
 * A command reads L1 A entries {abank, (aoff + g*nk + kb) mod 256} and the
 * next one in the bank (kb + 1), B likewise (L130-135, L236-241), is
 * `single` when kb + 1 >= nk (odd nk: the phase-1 entry is read and
 * discarded), and LOADs (kb = 0 and not acc) or ADDs its 16 merged values
 * into tile address g*gn + h.
 *
 * With emit, every command of the last pair (kb + 2 >= nk) is OP_ADD_EMIT
 * unless it is also the tile's LOAD (LOAD wins, mgr L373-377: the value is
 * never handed out, though the node counts it): the summed value goes to
 * the drain queue as FP16, and the sweep holds while the queue has
 * DQ_LIMIT outstanding (`emit_stall`, node_pump L321).
 *
 * The model computes a command at its issue cycle, reading L1 as it is
 * then (the RTL reads it one to two cycles later).  Without emit the
 * issues are a fixed schedule, caught up on every tick; with emit the
 * sweep is stepped cycle by cycle against the drain queue.  The
 * accumulate order is the RTL's, which the reuse distance makes equivalent
 * to the RTL's pipelined write-back.  Busy: the manager until its last
 * command's pair reaches the accumulator (issue + 12), the accumulator 16
 * cycles after that (its 10 pumped stages and the REUSE_MIN tail); both
 * estimated from the pump's stages (mat.h KSIM_MAT_*).
 */
#include "mat.h"

/* A compute-busy interval [from, to) joins CU_DBG [63:32] (ctr_comp). */
void ksim_mat_comp(struct ksim_mat *m, u64 from, u64 to)
{
	if (from > m->comp_to) {
		m->ctr_comp += (u32)(m->comp_to - m->comp_from);
		m->comp_from = from;
	}
	if (to > m->comp_to)
		m->comp_to = to;
}

/* A drain or peer command reaches the accumulator next cycle. */
void ksim_mat_acu_cmd(const struct ksim_unit *u, struct ksim_mat *m)
{
	u64 at = ksim_unit_now(u) + 1, end = at + KSIM_MAT_ACU_BUSY;

	if (end > m->acu_busy_to)
		m->acu_busy_to = end;
	ksim_mat_comp(m, at, end);
}

bool ksim_mat_sweep_busy(const struct ksim_unit *u, const struct ksim_mat *m)
{
	return m->run || ksim_unit_now(u) < m->mgr_busy_to;
}

bool ksim_mat_gemm_busy(const struct ksim_unit *u, const struct ksim_mat *m)
{
	return ksim_mat_sweep_busy(u, m) || ksim_unit_now(u) < m->acu_busy_to;
}

void ksim_mat_sweep_start(struct ksim_unit *u, struct ksim_mat *m)
{
	struct ksim_mat_inst *s = &m->sw;
	bool one, two, small;
	u64 n, last;

	*s = m->in;
	if (!s->gm)
		s->gm = 1;
	if (!s->gn)
		s->gn = 1;
	if (!s->nk)
		s->nk = 1;
	one = s->gm == 1 && s->gn == 1;
	two = (s->gm == 1 && s->gn == 2) || (s->gm == 2 && s->gn == 1);
	small = (s->gm == 1 && s->gn <= 4) || (s->gn == 1 && s->gm <= 4) ||
		(s->gm == 2 && s->gn == 2);
	m->pace_n = (s->nk <= 1 || !small) ? 0 : one ? 4 : two ? 2 : 1;
	m->kb = m->g = m->h = 0;
	m->pace = 0;
	m->run = true;
	/* gemm_start is seen a cycle later; run, and the first issue, after */
	m->next_issue = ksim_unit_now(u) + 2;
	if (s->emit) {
		/* stalls make the schedule unknown: busy follows the issues */
		ksim_mat_fused_start(m);
		return;
	}
	n = (u64)s->gm * s->gn * ((s->nk + 1u) / KSIM_MAT_KSTEP);
	last = m->next_issue + (n - 1) * (m->pace_n + 1u);
	m->mgr_busy_to = last + KSIM_MAT_SWEEP_LAT + 1;
	if (last + KSIM_MAT_SWEEP_LAT + KSIM_MAT_ACU_BUSY > m->acu_busy_to)
		m->acu_busy_to = last + KSIM_MAT_SWEEP_LAT + KSIM_MAT_ACU_BUSY;
}

/* L1 entry {bank, (base + idx) mod 256}: offsets wrap inside the bank */
static const struct ksim_mat_ent *ksim_mat_l1(const struct ksim_mat *m,
					      unsigned int side, bool bank,
					      unsigned int off)
{
	return &m->l1[side][((bank ? KH_MAT_BANK : 0) + (off & 0xff)) %
			     KH_MAT_GA];
}

/*
 * One command of the double-pumped sweep (mx_cluster_mgr_pump.v): K blocks
 * kb (phase 0) and kb + 1 (phase 1, the next entry in the bank), or kb
 * alone when kb + 1 >= nk (`single`, L250-268).
 */
static void ksim_mat_issue(struct ksim_mat *m, u64 at)
{
	const struct ksim_mat_inst *s = &m->sw;
	unsigned int a = s->aoff + m->g * s->nk + m->kb;
	unsigned int b = s->boff + m->h * s->nk + m->kb;
	unsigned int t = (m->g * s->gn + m->h) & KSIM_MAT_TAW_MASK, l;
	bool load = m->kb == 0 && !s->acc;
	bool last = m->kb + KSIM_MAT_KSTEP >= s->nk;
	bool emit = s->emit && last;
	u32 v[KSIM_MAT_LANES];
	u64 w[4] = { 0 };

	ksim_mat_chain_pair(ksim_mat_l1(m, 0, s->abank, a),
			    ksim_mat_l1(m, 1, s->bbank, b),
			    ksim_mat_l1(m, 0, s->abank, a + 1),
			    ksim_mat_l1(m, 1, s->bbank, b + 1),
			    m->kb + 1 >= s->nk, s->anchor, v);
	for (l = 0; l < KSIM_MAT_LANES; l++) {
		m->tile[t][l] = ksim_mat_fp22_add(m->tile[t][l], v[l], load,
						  false);
		if (emit)
			w[l / 4] |= (u64)ksim_mat_fp22_to_fp16(m->tile[t][l]) <<
				    (16 * (l % 4));
	}
	if (emit)
		ksim_mat_dq_push(m, w, load ? KSIM_MAT_NEVER :
				 at + KSIM_MAT_FUSED_LAT,
				 at + KSIM_MAT_FUSED_INC);
	if (m->h + 1 == s->gn) {
		m->h = 0;
		if (m->g + 1 == s->gm) {
			m->g = 0;
			if (last)
				m->run = false;
			m->kb += KSIM_MAT_KSTEP;
		} else {
			m->g++;
		}
	} else {
		m->h++;
	}
}

/* Emit mode, one cycle (mgr L251-281): held while d_out >= DQ_LIMIT. */
static void ksim_mat_emit_cycle(struct ksim_mat *m, u64 at)
{
	u64 end = at + KSIM_MAT_SWEEP_LAT + KSIM_MAT_ACU_BUSY;

	if (m->d_out >= KSIM_MAT_DQ_LIMIT)
		return;
	if (m->pace) {
		m->pace--;
		return;
	}
	ksim_mat_issue(m, at);
	m->pace = m->pace_n;
	m->mgr_busy_to = at + KSIM_MAT_SWEEP_LAT + 1;
	if (end > m->acu_busy_to)
		m->acu_busy_to = end;
	ksim_mat_comp(m, at, end);
}

bool ksim_mat_sweep_step(struct ksim_unit *u, struct ksim_mat *m)
{
	u64 now = ksim_unit_now(u);

	if (m->sw.emit) {
		/* ticked every cycle while it runs: d_out is this cycle's */
		while (m->run && m->next_issue <= now)
			ksim_mat_emit_cycle(m, m->next_issue++);
		return m->run;
	}
	while (m->run && m->next_issue <= now) {
		ksim_mat_issue(m, m->next_issue);
		m->next_issue += m->pace_n + 1u;
	}
	return false;
}
