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
	u8 n_out;
	u32 idx;		/* registration order */
	u64 timer;		/* wake at this cycle; KSIM_NEVER for none */
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
	unsigned long *timed;	/* bit idx: all[idx] has a timer */
	u64 cycles_stepped;	/* cycles actually simulated (not skipped) */
	u64 cycles_skipped;
	bool step_all;		/* benchmark baseline: all awake, no skip */
	bool stop;		/* ksim_sched_run() returns at the next cycle */
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

/* Wake n at cycle `at` (replacing an earlier request); KSIM_NEVER cancels. */
void ksim_node_timer(struct ksim_node *n, u64 at);

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
 * Wake n: it is ticked the next time phase B reaches it.  Whoever changed
 * n's state from outside a tick (the host, a test bench loading a link by
 * hand) wakes it, so the held mask is read again from the links here.
 */
void ksim_node_wake(struct ksim_node *n);
int ksim_node_add_out(struct ksim_node *n, struct ksim_link *l);

static inline u64 ksim_node_now(const struct ksim_node *n)
{
	return n->sched->now;
}

#endif /* KSIM_SCHED_H */
