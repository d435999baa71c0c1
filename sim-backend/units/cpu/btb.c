// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit's branch predictor (rv_bpred.v): 32 entries of {valid,
 * 2-bit counter, 8-bit tag, target}, indexed by pc[6:2], tagged by
 * pc[14:7].  A prediction is taken when the entry is valid, its tag is
 * the PC's and the counter's top bit is set (rv_bpred.v:143).  Every
 * resolve of a branch or jump rewrites the whole entry (valid, the PC's
 * tag, the target; the counter from the entry's old one whatever its
 * tag: +1 taken, -1 not, 3 for a jump; rv_bpred.v:94-102), one cycle
 * after EX (the update is registered, rv_bpred.v:126-136), so a lookup
 * presented in cycle L sees the resolves of EX cycles up to L - 2, and a
 * resolve's counter is computed from the table as it stood when the
 * resolve before it had not been written yet if that one was in the
 * previous cycle (the read-first mirror, rv_bpred.v:166-173).
 *
 * Resolves are kept in a short queue of pending writes and folded into
 * the table once no later lookup can predate them.  The power-on sweep
 * (32 cycles after reset, rv_bpred.v:72-77) is not modelled: the table
 * is clean at reset.
 */
#include "cpu.h"

static unsigned int ksim_cpu_btb_idx(u32 pc)
{
	return (pc >> 2) & (KH_CPU_BTB_ENTRIES - 1);
}

static u8 ksim_cpu_btb_tag(u32 pc)
{
	return (u8)(pc >> 7);
}

void ksim_cpu_btb_reset(struct ksim_cpu *s)
{
	unsigned int i;

	for (i = 0; i < KH_CPU_BTB_ENTRIES; i++) {
		s->btb[i].valid = false;
		s->btb[i].cnt = 1;
		s->btb[i].tag = 0;
		s->btb[i].target = 0;
	}
	s->btbq_n = 0;
}

/* Entry idx as a read presented in cycle `at` returns it. */
static struct ksim_cpu_btb_ent ksim_cpu_btb_read(const struct ksim_cpu *s,
						 unsigned int idx, u64 at)
{
	struct ksim_cpu_btb_ent e = s->btb[idx];
	unsigned int i;

	for (i = 0; i < s->btbq_n; i++)
		if (s->btbq[i].idx == idx && s->btbq[i].w < at)
			e = s->btbq[i].e;
	return e;
}

bool ksim_cpu_btb_predict(struct ksim_cpu *s, u32 pc, u64 at, u32 *target)
{
	struct ksim_cpu_btb_ent e = ksim_cpu_btb_read(s, ksim_cpu_btb_idx(pc),
						      at);

	*target = e.target;
	return e.valid && e.tag == ksim_cpu_btb_tag(pc) && (e.cnt & 2);
}

void ksim_cpu_btb_resolve(struct ksim_cpu *s, u32 pc, bool taken, bool jump,
			  u32 target, u64 at)
{
	unsigned int idx = ksim_cpu_btb_idx(pc);
	struct ksim_cpu_btb_ent o = ksim_cpu_btb_read(s, idx, at);
	struct ksim_cpu_btb_upd *q;

	/* fold the oldest into the table: no lookup reaches back that far */
	while (s->btbq_n &&
	       (s->btbq_n == KSIM_CPU_BTB_Q || s->btbq[0].w + 16 < at)) {
		s->btb[s->btbq[0].idx] = s->btbq[0].e;
		memmove(&s->btbq[0], &s->btbq[1],
			--s->btbq_n * sizeof(s->btbq[0]));
	}
	q = &s->btbq[s->btbq_n++];
	q->w = at + 1;
	q->idx = idx;
	q->e.valid = true;
	q->e.tag = ksim_cpu_btb_tag(pc);
	q->e.target = target & ~1u;
	if (jump)
		q->e.cnt = 3;
	else if (taken)
		q->e.cnt = o.cnt == 3 ? 3 : o.cnt + 1;
	else
		q->e.cnt = o.cnt == 0 ? 0 : o.cnt - 1;
}
