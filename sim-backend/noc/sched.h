/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The cycle scheduler.  Everything that holds state on a card is a node
 * (a router, an endpoint, the memory agent).  A cycle has two phases:
 *
 *   A. every link whose sender holds a flit transfers it if the receiver's
 *      busy, a function of the receiver's own state, is low (seed 001 §2);
 *      a receiver that takes a flit is woken;
 *   B. every awake node ticks: it updates its own state and may load its
 *      output registers.  A node touches no other node's state in a tick.
 *
 * Only awake nodes are visited, so a cycle costs what is active.  A node
 * sleeps when its tick reports nothing pending; a node holding a flit in an
 * output register stays awake.  A node whose future depends on time alone
 * (a memory latency, a unit's timer) sets a timer.
 *
 * Work proportional to activity: phase A visits only the output registers
 * that hold a flit (a per-node mask the links keep), and a node whose tick
 * said KSIM_TICK_IDLE is dormant: it keeps its place on the awake list (the
 * list's order is the order of events within a cycle, which the trace
 * records) but is not ticked until something it depends on changes: it is
 * woken (a flit taken, the host, a timer) or one of its output registers
 * is emptied.  Nodes with a timer are kept in a bitmap in registration
 * order, so firing timers visits only them, in the order a scan of every
 * node would.
 *
 * Idle skipping: a cycle in which no link transferred and no node made
 * progress leaves the whole card as it found it, so every following cycle
 * is the same until a timer fires; the scheduler jumps there (or to the end
 * of the run) and adds the skipped span to the stall count of every link
 * still offering a flit.  Per-node time counters (busy cycles) are computed
 * lazily from timestamps, so they accrue over skipped spans too.
 *
 * Clock domains: a node may belong to a clock domain (struct ksim_clkdom;
 * NULL = the card's clock, which has an edge every cycle).  A domain runs
 * at num/den of the card's clock (num <= den): edge k cycles after its base
 * iff (k * num) mod den < num, so a domain at 1/3 has an edge every third
 * cycle, at 2/3 two in three.  A node in a domain is ticked, and its output
 * registers offered (phase A), only on cycles where its domain has an edge;
 * a receiver in another domain takes what is offered whenever the sender
 * offers it (the model's CDC: docs/model.md "Mesh clocks").  A node's time
 * is its domain's: ksim_node_now() counts the domain's edges and
 * ksim_node_timer() takes such a count, so a latency of L is L of the
 * node's own cycles.  A cycle in which some domain has no edge is not a
 * fixed point for the nodes it holds back: the idle skip stops at their
 * next edge.  While every domain runs at full rate (the built clocks) the
 * scheduler takes the path it took before domains existed.
 */
#ifndef KSIM_SCHED_H
#define KSIM_SCHED_H

#include "ksim_plat.h"

#define KSIM_NEVER		(~0ULL)
#define KSIM_NODE_OUT_MAX		5

/* tick() result bits */
#define KSIM_TICK_AWAKE		1u	/* something pending: tick me next cycle */
#define KSIM_TICK_PROGRESS	2u	/* I changed state this cycle */
/*
 * My next tick changes nothing and returns the same until I am woken, an
 * output register of mine is emptied or my timer fires: skip it till then.
 * Only without KSIM_TICK_PROGRESS.
 */
#define KSIM_TICK_IDLE		4u

struct ksim_node;
struct ksim_link;
struct ksim_sched;

/*
 * A clock domain.  Its local count at global cycle g >= base_g is
 * base_l + floor((g - base_g) * num / den): the count of its last edge.
 * The rate changes only by ksim_clkdom_set_rate(), which rebases so that
 * the count stays continuous.  `now`, `acc` and `edge` describe the
 * scheduler's current cycle; they are kept only while the domain is slow
 * (at full rate the count is the card's cycle less `lag`).
 */
struct ksim_clkdom {
	struct ksim_sched *sched;
	u64 now;		/* slow: the local count at sched->now */
	u64 lag;		/* full rate: sched->now - the local count */
	u64 base_g, base_l;	/* the rebase: global cycle, local count */
	u32 num, den;		/* the rate, reduced; num <= den */
	u32 acc;		/* slow: (k * num) mod den at k = now - base_g */
	bool edge;		/* an edge in the current cycle */
	bool slow;		/* num < den */
	bool pend;		/* a node waits for its next edge (a step's) */
	unsigned int idx;	/* in the scheduler's list */
};

#define KSIM_SCHED_DOMS_MAX	32

struct ksim_node_ops {
	unsigned int (*tick)(struct ksim_node *n);
};

struct ksim_node {
	const struct ksim_node_ops *ops;
	struct ksim_sched *sched;
	u8 held;		/* bit i: out[i] holds a flit (ksim_link_*) */
	bool active;		/* awake: ticked every cycle */
	bool listed;		/* on the scheduler's awake list */
	bool dormant;		/* awake, but its tick is skipped (IDLE) */
	bool wake_next;		/* on the scheduler's next-cycle wake list */
	bool take_next;		/* a take wakes it next cycle, not this one */
	bool take_self;		/* a take wakes it not at all: take() decides */
	u8 n_out;
	u32 idx;		/* registration order */
	u64 timer;		/* wake at this global cycle; KSIM_NEVER: none */
	struct ksim_clkdom *dom;	/* its clock; NULL: the card's */
	struct ksim_link *out[KSIM_NODE_OUT_MAX];
};

struct ksim_sched {
	u64 now;
	u64 next_timer;		/* <= every node's timer */
	struct ksim_node **all;
	unsigned int n_all;
	unsigned int cap_all;
	struct ksim_node **active;
	unsigned int n_active;
	/* woken at the start of the next cycle (ksim_node_wake_next) */
	struct ksim_node **next;
	unsigned int n_next;
	unsigned long *timed;	/* bit idx: all[idx] has a timer */
	u64 cycles_stepped;	/* cycles actually simulated (not skipped) */
	u64 cycles_skipped;
	bool step_all;		/* benchmark baseline: all awake, no skip */
	bool stop;		/* ksim_sched_run() returns at the next cycle */
	/* the clock domains; the slow ones (num < den) on their own list */
	struct ksim_clkdom *doms[KSIM_SCHED_DOMS_MAX];
	unsigned int n_doms;
	struct ksim_clkdom *slow[KSIM_SCHED_DOMS_MAX];
	unsigned int n_slow;	/* 0: every domain at full rate, the old path */
	u64 pend_at;		/* the next edge a held-back node waits for */
	bool full_busy;		/* a step's: a node on a full clock is busy */
	/* the protocol checker's end-of-cycle look (obs/checker.c), or NULL */
	void (*post_cycle)(void *ctx);
	void *post_ctx;
};

void ksim_sched_init(struct ksim_sched *s);
void ksim_sched_fini(struct ksim_sched *s);
/* Register a node; all nodes are added before ksim_sched_finalize(). */
int ksim_sched_add(struct ksim_sched *s, struct ksim_node *n,
		 const struct ksim_node_ops *ops);
int ksim_sched_finalize(struct ksim_sched *s);
/* Run the card forward by `cycles` cycles, or until something sets stop. */
void ksim_sched_run(struct ksim_sched *s, u64 cycles);

/*
 * Wake n at its cycle `at` (replacing an earlier request): a count of its
 * domain's edges, the card's cycle without a domain; KSIM_NEVER cancels.
 */
void ksim_node_timer(struct ksim_node *n, u64 at);

/* A domain at full rate from the scheduler's current cycle on. */
int ksim_clkdom_init(struct ksim_sched *s, struct ksim_clkdom *d);
/*
 * Run d at num/den of the card's clock from the current cycle on (num <=
 * den, both > 0; den 0 is taken as 1/1).  Rebases d: the current cycle is
 * an edge and the local count continues from where it was.  Only where
 * everything d clocks is being reset (a retune resets the mesh).
 */
void ksim_clkdom_set_rate(struct ksim_clkdom *d, u32 num, u32 den);
/* d's local count at global cycle g (>= its base) */
u64 ksim_clkdom_local(const struct ksim_clkdom *d, u64 g);
/* the global cycle of d's edge whose local count is l */
u64 ksim_clkdom_global(const struct ksim_clkdom *d, u64 l);
/* the global cycle of d's first edge at or after global cycle g */
u64 ksim_clkdom_next_edge(const struct ksim_clkdom *d, u64 g);

/* The scheduler's own wake-ups: a flit taken, a timer. */
static inline void ksim_node_wake_fast(struct ksim_node *n)
{
	struct ksim_sched *s = n->sched;

	n->active = true;
	n->dormant = false;
	if (n->listed || !s->active)
		return;	/* before finalize the card lists awake nodes itself */
	n->listed = true;
	s->active[s->n_active++] = n;
}

/*
 * Wake n at the start of the next cycle: a receiver whose logic sees a
 * flit the edge after it lands (a first-word fall-through FIFO in front
 * of registered logic) is not ticked for it in the cycle of the take.
 */
static inline void ksim_node_wake_next(struct ksim_node *n)
{
	struct ksim_sched *s = n->sched;

	if (n->wake_next || !s->next)
		return;
	n->wake_next = true;
	s->next[s->n_next++] = n;
}

/*
 * Wake n: it is ticked the next time phase B reaches it.  Whoever changed
 * n's state from outside a tick (the host, a test bench loading a link by
 * hand) wakes it, so the held mask is read again from the links here.
 */
void ksim_node_wake(struct ksim_node *n);
int ksim_node_add_out(struct ksim_node *n, struct ksim_link *l);

/* n's time: its domain's local count, the card's cycle without one */
static inline u64 ksim_node_now(const struct ksim_node *n)
{
	const struct ksim_clkdom *d = n->dom;

	if (!d)
		return n->sched->now;
	return d->slow ? d->now : n->sched->now - d->lag;
}

/* n runs slower than the card's clock */
static inline bool ksim_node_slow(const struct ksim_node *n)
{
	return n->dom && n->dom->slow;
}

/* n's domain has an edge in the current cycle (always, without one) */
static inline bool ksim_node_edge(const struct ksim_node *n)
{
	return !n->dom || n->dom->edge;
}

#endif /* KSIM_SCHED_H */
