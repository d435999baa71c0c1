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

struct ksim_node;
struct ksim_link;
struct ksim_sched;

struct ksim_node_ops {
	unsigned int (*tick)(struct ksim_node *n);
};

struct ksim_node {
	const struct ksim_node_ops *ops;
	struct ksim_sched *sched;
	struct ksim_link *out[KSIM_NODE_OUT_MAX];
	unsigned int n_out;
	bool active;		/* awake: ticked every cycle */
	bool listed;		/* on the scheduler's awake list */
	u64 timer;		/* wake at this cycle; KSIM_NEVER for none */
};

struct ksim_sched {
	u64 now;
	u64 next_timer;		/* <= every node's timer */
	struct ksim_node **all;
	unsigned int n_all;
	unsigned int cap_all;
	struct ksim_node **active;
	unsigned int n_active;
	u64 cycles_stepped;	/* cycles actually simulated (not skipped) */
	u64 cycles_skipped;
	bool step_all;		/* benchmark baseline: all awake, no skip */
	bool stop;		/* ksim_sched_run() returns at the next cycle */
	/* the protocol checker's end-of-cycle look (sim_check.c), or NULL */
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

void ksim_node_wake(struct ksim_node *n);
/* Wake n at cycle `at` (replacing an earlier request); KSIM_NEVER cancels. */
void ksim_node_timer(struct ksim_node *n, u64 at);
int ksim_node_add_out(struct ksim_node *n, struct ksim_link *l);

static inline u64 ksim_node_now(const struct ksim_node *n)
{
	return n->sched->now;
}

#endif /* KSIM_SCHED_H */
