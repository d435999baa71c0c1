// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cycle scheduler: two-phase cycles over the awake nodes, timers, and
 * the fixed-point idle skip (see noc/sched.h).
 */
#include "sched.h"
#include "link.h"
#include "util.h"

#define KSIM_LONG_BITS	(8 * sizeof(unsigned long))

void ksim_sched_init(struct ksim_sched *s)
{
	memset(s, 0, sizeof(*s));
	s->next_timer = KSIM_NEVER;
}

void ksim_sched_fini(struct ksim_sched *s)
{
	ksim_plat_free(s->all);
	ksim_plat_free(s->active);
	ksim_plat_free(s->timed);
	s->all = NULL;
	s->active = NULL;
	s->timed = NULL;
}

int ksim_sched_add(struct ksim_sched *s, struct ksim_node *n,
		 const struct ksim_node_ops *ops)
{
	if (s->n_all == s->cap_all) {
		unsigned int ncap = s->cap_all ? s->cap_all * 2 : 64;
		struct ksim_node **na = ksim_plat_zalloc(sizeof(*na) * ncap);
		unsigned long *nt = ksim_plat_zalloc(ncap / 8);

		if (!na || !nt) {
			ksim_plat_free(na);
			ksim_plat_free(nt);
			return -ENOMEM;
		}
		if (s->n_all) {
			memcpy(na, s->all, sizeof(*na) * s->n_all);
			memcpy(nt, s->timed, s->cap_all / 8);
		}
		ksim_plat_free(s->all);
		ksim_plat_free(s->timed);
		s->all = na;
		s->timed = nt;
		s->cap_all = ncap;
	}
	memset(n, 0, sizeof(*n));
	n->ops = ops;
	n->sched = s;
	n->timer = KSIM_NEVER;
	n->idx = s->n_all;
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
	l->owner = n;
	l->bit = 1u << n->n_out;
	if (l->valid)
		n->held |= l->bit;
	n->out[n->n_out++] = l;
	return 0;
}

void ksim_node_wake(struct ksim_node *n)
{
	unsigned int i;

	n->held = 0;
	for (i = 0; i < n->n_out; i++)
		if (n->out[i]->valid)
			n->held |= 1u << i;
	ksim_node_wake_fast(n);
}

void ksim_node_timer(struct ksim_node *n, u64 at)
{
	struct ksim_sched *s = n->sched;
	unsigned long *w = &s->timed[n->idx / KSIM_LONG_BITS];
	unsigned long bit = 1UL << (n->idx % KSIM_LONG_BITS);

	if (at == n->timer)
		return;	/* bit and next_timer (<= every timer) already right */
	n->timer = at;
	if (at == KSIM_NEVER) {
		*w &= ~bit;
		return;
	}
	*w |= bit;
	if (at < s->next_timer)
		s->next_timer = at;
}

/*
 * Wake every node whose timer is due and find the next one: the nodes
 * with a timer, in registration order (the order of the wake-ups is the
 * order of the awake list).
 */
static void ksim_sched_fire_timers(struct ksim_sched *s)
{
	unsigned int words = (s->n_all + KSIM_LONG_BITS - 1) / KSIM_LONG_BITS;
	u64 next = KSIM_NEVER;
	unsigned int i;

	for (i = 0; i < words; i++) {
		unsigned long m = s->timed[i];

		while (m) {
			unsigned int b = __builtin_ctzl(m);
			struct ksim_node *n = s->all[i * KSIM_LONG_BITS + b];

			m &= m - 1;
			if (n->timer <= s->now) {
				n->timer = KSIM_NEVER;
				s->timed[i] &= ~(1UL << b);
				ksim_node_wake_fast(n);
			} else if (n->timer < next) {
				next = n->timer;
			}
		}
	}
	s->next_timer = next;
}

/* One cycle; returns whether anything on the card changed. */
static bool ksim_sched_step(struct ksim_sched *s)
{
	struct ksim_node **act = s->active;
	bool progress = false, slept = false;
	unsigned int i, j, n;

	if (s->now >= s->next_timer)
		ksim_sched_fire_timers(s);

	/*
	 * phase A: transfers, in awake-list then port order (receivers woken
	 * here join the list); only registers that hold a flit are visited
	 */
	n = s->n_active;
	for (i = 0; i < n; i++) {
		struct ksim_node *nd = act[i];
		unsigned int m = nd->held;

		for (j = 0; m; j++, m >>= 1)
			if ((m & 1) && ksim_link_step(nd->out[j], s->now))
				progress = true;
	}

	/* phase B: ticks; a dormant node's tick would change nothing */
	n = s->n_active;
	for (i = 0; i < n; i++) {
		struct ksim_node *nd = act[i];
		unsigned int r;

		if (nd->dormant)
			continue;
		r = nd->ops->tick(nd);
		if (r & KSIM_TICK_PROGRESS) {
			progress = true;
			continue;
		}
		if (!(r & KSIM_TICK_AWAKE) && !nd->held && !s->step_all) {
			nd->active = false;
			slept = true;
		} else if (r & KSIM_TICK_IDLE) {
			nd->dormant = true;
		}
	}
	if (s->post_cycle)
		s->post_cycle(s->post_ctx);

	/* compact the awake list, keeping order (determinism) */
	if (slept) {
		for (i = 0, j = 0; i < s->n_active; i++) {
			if (act[i]->active)
				act[j++] = act[i];
			else
				act[i]->listed = false;
		}
		s->n_active = j;
	}

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
			if (nd->held & (1u << j))
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
