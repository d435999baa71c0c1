// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cycle scheduler: two-phase cycles over the awake nodes, timers, and
 * the fixed-point idle skip (see sim_sched.h).
 */
#include "sim_sched.h"
#include "sim_link.h"
#include "sim_util.h"

void ksim_sched_init(struct ksim_sched *s)
{
	memset(s, 0, sizeof(*s));
	s->next_timer = KSIM_NEVER;
}

void ksim_sched_fini(struct ksim_sched *s)
{
	ksim_plat_free(s->all);
	ksim_plat_free(s->active);
	s->all = NULL;
	s->active = NULL;
}

int ksim_sched_add(struct ksim_sched *s, struct ksim_node *n,
		 const struct ksim_node_ops *ops)
{
	if (s->n_all == s->cap_all) {
		unsigned int ncap = s->cap_all ? s->cap_all * 2 : 64;
		struct ksim_node **na = ksim_plat_zalloc(sizeof(*na) * ncap);

		if (!na)
			return -ENOMEM;
		if (s->n_all)
			memcpy(na, s->all, sizeof(*na) * s->n_all);
		ksim_plat_free(s->all);
		s->all = na;
		s->cap_all = ncap;
	}
	memset(n, 0, sizeof(*n));
	n->ops = ops;
	n->sched = s;
	n->timer = KSIM_NEVER;
	s->all[s->n_all++] = n;
	return 0;
}

int ksim_sched_finalize(struct ksim_sched *s)
{
	s->active = ksim_plat_zalloc(sizeof(*s->active) * (s->n_all + 1));
	return s->active ? 0 : -ENOMEM;
}

int ksim_node_add_out(struct ksim_node *n, struct ksim_link *l)
{
	if (n->n_out >= KSIM_NODE_OUT_MAX)
		return -EINVAL;
	n->out[n->n_out++] = l;
	return 0;
}

void ksim_node_wake(struct ksim_node *n)
{
	struct ksim_sched *s = n->sched;

	n->active = true;
	if (n->listed || !s->active)
		return;	/* before finalize the card lists awake nodes itself */
	n->listed = true;
	s->active[s->n_active++] = n;
}

void ksim_node_timer(struct ksim_node *n, u64 at)
{
	n->timer = at;
	if (at < n->sched->next_timer)
		n->sched->next_timer = at;
}

/* Wake every node whose timer is due and find the next one. */
static void ksim_sched_fire_timers(struct ksim_sched *s)
{
	u64 next = KSIM_NEVER;
	unsigned int i;

	for (i = 0; i < s->n_all; i++) {
		struct ksim_node *n = s->all[i];

		if (n->timer <= s->now) {
			n->timer = KSIM_NEVER;
			ksim_node_wake(n);
		} else if (n->timer < next) {
			next = n->timer;
		}
	}
	s->next_timer = next;
}

static bool ksim_node_holds(const struct ksim_node *n)
{
	unsigned int i;

	for (i = 0; i < n->n_out; i++)
		if (n->out[i]->valid)
			return true;
	return false;
}

/* One cycle; returns whether anything on the card changed. */
static bool ksim_sched_step(struct ksim_sched *s)
{
	bool progress = false;
	unsigned int i, j, n;

	if (s->now >= s->next_timer)
		ksim_sched_fire_timers(s);

	/* phase A: transfers (receivers woken here join the list) */
	n = s->n_active;
	for (i = 0; i < n; i++) {
		struct ksim_node *nd = s->active[i];

		for (j = 0; j < nd->n_out; j++)
			if (nd->out[j]->valid &&
			    ksim_link_step(nd->out[j], s->now))
				progress = true;
	}

	/* phase B: ticks */
	n = s->n_active;
	for (i = 0; i < n; i++) {
		struct ksim_node *nd = s->active[i];
		unsigned int r = nd->ops->tick(nd);

		if (r & KSIM_TICK_PROGRESS)
			progress = true;
		if (!r && !ksim_node_holds(nd) && !s->step_all)
			nd->active = false;
	}
	if (s->post_cycle)
		s->post_cycle(s->post_ctx);

	/* compact the awake list, keeping order (determinism) */
	for (i = 0, j = 0; i < s->n_active; i++) {
		if (s->active[i]->active)
			s->active[j++] = s->active[i];
		else
			s->active[i]->listed = false;
	}
	s->n_active = j;

	s->now++;
	s->cycles_stepped++;
	return progress;
}

static void ksim_sched_skip(struct ksim_sched *s, u64 span)
{
	unsigned int i, j;

	for (i = 0; i < s->n_active; i++) {
		struct ksim_node *nd = s->active[i];

		for (j = 0; j < nd->n_out; j++)
			ksim_link_stall_span(nd->out[j], s->now, span);
	}
	s->now += span;
	s->cycles_skipped += span;
}

void ksim_sched_run(struct ksim_sched *s, u64 cycles)
{
	u64 end = s->now + cycles;

	if (end < s->now)
		end = KSIM_NEVER;
	s->stop = false;
	while (s->now < end && !s->stop) {
		if (ksim_sched_step(s) || s->step_all)
			continue;
		/*
		 * Nothing changed: the card is at a fixed point until a timer
		 * fires.
		 */
		if (s->now < end && !s->stop) {
			u64 to = ksim_min_u64(s->next_timer, end);

			if (to > s->now)
				ksim_sched_skip(s, to - s->now);
		}
	}
}
