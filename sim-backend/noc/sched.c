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
	s->pend_at = KSIM_NEVER;
}

void ksim_sched_fini(struct ksim_sched *s)
{
	ksim_plat_free(s->all);
	ksim_plat_free(s->active);
	ksim_plat_free(s->next);
	ksim_plat_free(s->timed);
	s->all = NULL;
	s->active = NULL;
	s->next = NULL;
	s->n_next = 0;
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
	s->next = ksim_plat_zalloc(sizeof(*s->next) * (s->n_all + 1));
	return s->active && s->next ? 0 : -ENOMEM;
}

/* ---- clock domains ---- */

static u32 ksim_gcd(u32 a, u32 b)
{
	while (b) {
		u32 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* floor(k * num / den), without overflow: k may be ~2^64 after a skip */
static u64 ksim_clkdom_floor(const struct ksim_clkdom *d, u64 k)
{
	return (k / d->den) * d->num + (k % d->den) * d->num / d->den;
}

/* k cycles after the base is an edge */
static bool ksim_clkdom_edge_at(const struct ksim_clkdom *d, u64 k)
{
	return (k % d->den) * d->num % d->den < d->num;
}

u64 ksim_clkdom_local(const struct ksim_clkdom *d, u64 g)
{
	if (g < d->base_g)
		return d->base_l;
	return d->base_l + ksim_clkdom_floor(d, g - d->base_g);
}

/* the first k with floor(k * num / den) >= j: ceil(j * den / num) */
u64 ksim_clkdom_global(const struct ksim_clkdom *d, u64 l)
{
	u64 j, q, r, k, room;

	if (l <= d->base_l)
		return d->base_g;
	j = l - d->base_l;
	q = j / d->num;
	r = j % d->num;
	room = KSIM_NEVER - 1 - d->base_g;
	if (q > room / d->den)
		return KSIM_NEVER - 1;	/* beyond any run: as good as never */
	k = q * d->den + (r * d->den + d->num - 1) / d->num;
	return k > room ? KSIM_NEVER - 1 : d->base_g + k;
}

u64 ksim_clkdom_next_edge(const struct ksim_clkdom *d, u64 g)
{
	if (g < d->base_g)
		return d->base_g;
	if (ksim_clkdom_edge_at(d, g - d->base_g))
		return g;
	return ksim_clkdom_global(d, ksim_clkdom_local(d, g) + 1);
}

/* d's edges in the global cycles [g, g + span) */
static u64 ksim_clkdom_edges(const struct ksim_clkdom *d, u64 g, u64 span)
{
	u64 n;

	if (!span)
		return 0;
	n = ksim_clkdom_local(d, g + span - 1) - ksim_clkdom_local(d, g);
	return n + ksim_clkdom_edge_at(d, g - d->base_g);
}

/* d's state for the scheduler's current cycle, from the formula */
static void ksim_clkdom_sync(struct ksim_clkdom *d)
{
	u64 g = d->sched->now, k = g - d->base_g;

	d->lag = d->base_g - d->base_l;
	d->now = ksim_clkdom_local(d, g);
	d->acc = (u32)((k % d->den) * d->num % d->den);
	d->edge = d->acc < d->num;
}

/* the slow list, in registration order (the order of nothing visible) */
static void ksim_sched_list_slow(struct ksim_sched *s)
{
	unsigned int i;

	s->n_slow = 0;
	for (i = 0; i < s->n_doms; i++)
		if (s->doms[i]->slow)
			s->slow[s->n_slow++] = s->doms[i];
}

int ksim_clkdom_init(struct ksim_sched *s, struct ksim_clkdom *d)
{
	if (s->n_doms == KSIM_SCHED_DOMS_MAX)
		return -ENOSPC;
	memset(d, 0, sizeof(*d));
	d->sched = s;
	d->num = d->den = 1;
	d->base_g = d->base_l = s->now;
	d->idx = s->n_doms;
	s->doms[s->n_doms++] = d;
	ksim_clkdom_sync(d);
	return 0;
}

void ksim_clkdom_set_rate(struct ksim_clkdom *d, u32 num, u32 den)
{
	struct ksim_sched *s = d->sched;
	u64 g = s->now, l;
	u32 c;

	if (!num || !den || num > den)
		num = den = 1;
	c = ksim_gcd(num, den);
	num /= c;
	den /= c;
	if (num == d->num && den == d->den)
		return;
	/*
	 * The current cycle becomes an edge: the count of the edge it was,
	 * or the one after the last edge, so that the count never repeats.
	 */
	l = ksim_clkdom_local(d, g);
	if (!ksim_clkdom_edge_at(d, g - d->base_g))
		l++;
	d->base_g = g;
	d->base_l = l;
	d->num = num;
	d->den = den;
	d->slow = num < den;
	d->pend = false;
	ksim_clkdom_sync(d);
	ksim_sched_list_slow(s);
	s->pend_at = g;	/* no skip on a stale wait */
}

/* the first edge of any slow domain from the current cycle on */
static u64 ksim_sched_next_edge(const struct ksim_sched *s)
{
	u64 t = KSIM_NEVER;
	unsigned int i;

	for (i = 0; i < s->n_slow; i++) {
		const struct ksim_clkdom *d = s->slow[i];

		t = ksim_min_u64(t, d->edge ? s->now :
				 ksim_clkdom_global(d, d->now + 1));
	}
	return t;
}

/* The next cycle's edges; the earliest edge a held-back node waits for. */
static void ksim_sched_clk_advance(struct ksim_sched *s)
{
	u64 pend = KSIM_NEVER;
	unsigned int i;

	for (i = 0; i < s->n_slow; i++) {
		struct ksim_clkdom *d = s->slow[i];

		d->acc += d->num;
		if (d->acc >= d->den) {
			d->acc -= d->den;
			d->now++;
		}
		d->edge = d->acc < d->num;
		if (!d->pend)
			continue;
		d->pend = false;
		pend = ksim_min_u64(pend, d->edge ? s->now :
				    ksim_clkdom_global(d, d->now + 1));
	}
	s->pend_at = pend;
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

	if (n->dom && at != KSIM_NEVER)
		at = n->dom->slow ? ksim_clkdom_global(n->dom, at) :
		     at + ksim_min_u64(n->dom->lag, KSIM_NEVER - 1 - at);
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

/*
 * One cycle; returns whether anything on the card changed.  With doms, a
 * node whose domain has no edge this cycle is passed over, and its domain
 * told that the node waits for its next edge (the idle skip stops there);
 * without, the path of a card at its built clocks.
 */
static inline __attribute__((__always_inline__))
bool ksim_sched_step_(struct ksim_sched *s, const bool doms)
{
	struct ksim_node **act = s->active;
	bool progress = false, slept = false;
	unsigned int i, j, n;

	if (doms)
		s->full_busy = false;

	if (s->now >= s->next_timer)
		ksim_sched_fire_timers(s);
	/* the last cycle's next-cycle wake-ups, in their order */
	if (s->n_next) {
		for (i = 0; i < s->n_next; i++) {
			s->next[i]->wake_next = false;
			ksim_node_wake_fast(s->next[i]);
		}
		s->n_next = 0;
	}

	/*
	 * phase A: transfers, in awake-list then port order (receivers woken
	 * here join the list); only registers that hold a flit are visited
	 */
	n = s->n_active;
	for (i = 0; i < n; i++) {
		struct ksim_node *nd = act[i];
		unsigned int m = nd->held;

		if (doms && !ksim_node_edge(nd)) {
			if (m)
				nd->dom->pend = true;
			continue;
		}
		if (doms && m && !ksim_node_slow(nd))
			s->full_busy = true;
		for (j = 0; m; j++, m >>= 1)
			if ((m & 1) && ksim_link_step(nd->out[j], s->now))
				progress = true;
	}

	/* phase B: ticks; a dormant node's tick would change nothing */
	n = s->n_active;
	for (i = 0; i < n; i++) {
		struct ksim_node *nd = act[i];
		unsigned int r;

		if (doms && !ksim_node_edge(nd)) {
			if (!nd->dormant)
				nd->dom->pend = true;
			continue;
		}
		if (nd->dormant)
			continue;
		r = nd->ops->tick(nd);
		if (doms && !ksim_node_slow(nd) &&
		    (r & (KSIM_TICK_PROGRESS | KSIM_TICK_AWAKE)))
			s->full_busy = true;
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
	if (doms)
		ksim_sched_clk_advance(s);
	return progress;
}

static bool ksim_sched_step(struct ksim_sched *s)
{
	return ksim_sched_step_(s, false);
}

static __attribute__((__noinline__)) bool ksim_sched_step_dom(struct ksim_sched *s)
{
	return ksim_sched_step_(s, true);
}


/*
 * A held flit stalls once per cycle its sender offers it: every cycle of
 * the span, or the sender's edges in it.
 */
static void ksim_sched_skip(struct ksim_sched *s, u64 span)
{
	unsigned int i, j;

	for (i = 0; i < s->n_active; i++) {
		struct ksim_node *nd = s->active[i];
		u64 n = span;

		if (!nd->held)
			continue;
		if (nd->dom && nd->dom->slow)
			n = ksim_clkdom_edges(nd->dom, s->now, span);
		for (j = 0; j < nd->n_out; j++)
			if ((nd->held & (1u << j)) && n)
				ksim_link_stall_span(nd->out[j], s->now, n);
	}
	s->now += span;
	s->cycles_skipped += span;
	for (i = 0; i < s->n_slow; i++)
		ksim_clkdom_sync(s->slow[i]);
}

void ksim_sched_run(struct ksim_sched *s, u64 cycles)
{
	u64 end = s->now + cycles;

	if (end < s->now)
		end = KSIM_NEVER;
	s->stop = false;
	while (s->now < end && !s->stop) {
		bool progress = s->n_slow ? ksim_sched_step_dom(s) :
			       ksim_sched_step(s);

		if (s->step_all)
			continue;
		if (progress) {
			/*
			 * Only slow clocks have anything to do: nothing happens
			 * before one of them has an edge or a timer fires.
			 */
			if (s->n_slow && !s->full_busy && s->now < end &&
			    !s->stop) {
				u64 to = ksim_min_u64(s->next_timer, end);

				to = ksim_min_u64(to, ksim_sched_next_edge(s));
				if (to > s->now)
					ksim_sched_skip(s, to - s->now);
			}
			continue;
		}
		/*
		 * Nothing changed: the card is at a fixed point until a timer
		 * fires, or a node a slow clock held back reaches its edge.
		 */
		if (s->now < end && !s->stop) {
			u64 to = ksim_min_u64(s->next_timer, end);

			if (s->n_slow)
				to = ksim_min_u64(to, s->pend_at);
			if (to > s->now)
				ksim_sched_skip(s, to - s->now);
		}
	}
}
