/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A link: one direction of a mesh port, modelled as the seed 001 §2
 * handshake literally.  The sender's output register lives in the link
 * (reg, valid); the receiver is a sink with a busy() that depends on the
 * receiver's own state only.  In every cycle where valid is held and busy
 * is low the receiver takes the flit, exactly once; in every other cycle
 * the sender keeps holding it.  Each link counts the flits it carried and
 * the cycles its sender was stalled, and lets a checker observe every
 * offer and every transfer through a hook, and its watcher (the
 * observers) every refusal and transfer through struct ksim_link_watch.
 */
#ifndef KSIM_LINK_H
#define KSIM_LINK_H

#include "ksim_plat.h"
#include "sched.h"
#include <kohaku/kh_flit.h>

struct ksim_node;
struct ksim_sink;
struct ksim_link;
struct ksim_link_watch;

struct ksim_sink_ops {
	/* noc_in_busy: the receiver's own state, never the offered flit */
	bool (*busy)(const struct ksim_sink *s);
	/* called exactly in the cycles where valid && !busy */
	void (*take)(struct ksim_sink *s, const struct kh_flit *f);
};

struct ksim_sink {
	const struct ksim_sink_ops *ops;
	struct ksim_node *node;	/* woken when it takes a flit (next cycle
				   when node->take_next, or as its take()
				   decides when node->take_self); may be NULL */
};

/*
 * Observation hooks for a protocol checker.  offer() is called for cycles
 * in which the sender held a flit the receiver did not take (cycles > 1 for
 * a skipped idle span); transfer() for the cycle in which it was taken,
 * before the sender may load the next flit.
 */
struct ksim_link_hook {
	void (*offer)(void *ctx, const struct ksim_link *l, u64 now, u64 cycles);
	void (*transfer)(void *ctx, const struct ksim_link *l, u64 now);
};

/* ksim_link_watch_ops.xfer() result bits, acted on by ksim_link_step() */
#define KSIM_XFER_DROP	1u	/* the receiver does not take the flit */
#define KSIM_XFER_KEEP	2u	/* the sender keeps holding it (a duplicate) */
#define KSIM_XFER_COPY	4u	/* the receiver takes the copy, tag stripped */
#define KSIM_XFER_TAKEN	8u	/* call taken() after the take */

/*
 * What a link reports to whoever watches it (the observers implement it,
 * obs/obs.c): refused() a cycle its sender held a flit the receiver did
 * not take; xfer() the cycle the receiver takes it, before it does:
 * KSIM_XFER_* bits, with *copy filled for KSIM_XFER_COPY; taken() right
 * after the take, when xfer() asked for it.
 */
struct ksim_link_watch_ops {
	void (*refused)(struct ksim_link_watch *w, struct ksim_link *l, u64 now);
	unsigned int (*xfer)(struct ksim_link_watch *w, struct ksim_link *l,
			     u64 now, struct kh_flit *copy);
	void (*taken)(struct ksim_link_watch *w, struct ksim_link *l, u64 now);
};

struct ksim_link_watch {
	const struct ksim_link_watch_ops *ops;
};

/* Where a link runs, for diagnostics and checkers. */
#define KSIM_LINK_ROUTER		0	/* from a router output port */
#define KSIM_LINK_ENDPOINT	1	/* from an endpoint (unit, MAG port) */
#define KSIM_LINK_L2		2	/* from an L2 adapter to its unit */

struct ksim_link {
	struct kh_flit reg;	/* the sender's output register */
	bool valid;
	u8 bit;			/* this register's bit in owner->held */
	struct ksim_node *owner;	/* the sender (ksim_node_add_out) */
	struct ksim_sink *rx;
	u64 flits;		/* transfers */
	u64 stalls;		/* cycles valid was held against busy */
	u8 mesh;
	u8 kind;		/* KSIM_LINK_* */
	u8 x, y;		/* the sender's coordinate */
	u8 port;		/* router output port (KSIM_PORT_*) */
	const struct ksim_link_hook *hook;
	void *hook_ctx;
	/* its watcher: NULL while nothing observes it (one test a step) */
	struct ksim_link_watch *obs;
	u64 drops;		/* transfers a drop knob lost (in flits) */
	u64 dups;		/* transfers a dup knob repeated */
};

static inline bool ksim_link_free(const struct ksim_link *l)
{
	return !l->valid;
}

/*
 * valid and the owner's held bit change together: the scheduler visits
 * only the registers whose bit is set.  A link not yet given an owner
 * (ksim_node_add_out() sets the bit from valid) has none to keep.
 */
static inline void ksim_link_set_valid(struct ksim_link *l, bool v)
{
	l->valid = v;
	if (!l->owner)
		return;
	if (v)
		l->owner->held |= l->bit;
	else
		l->owner->held &= ~l->bit;
}

/* The sender loads its output register; only when ksim_link_free(). */
static inline void ksim_link_load(struct ksim_link *l, const struct kh_flit *f)
{
	l->reg = *f;
	ksim_link_set_valid(l, true);
}

/* The sender's register emptied by a reset. */
static inline void ksim_link_clear(struct ksim_link *l)
{
	ksim_link_set_valid(l, false);
}

void ksim_link_init(struct ksim_link *l, struct ksim_sink *rx, unsigned int mesh,
		  unsigned int kind, unsigned int x, unsigned int y,
		  unsigned int port);
/* ksim_link_step() with a hook or a watcher on the link */
bool ksim_link_step_obs(struct ksim_link *l, u64 now);

/* Both paths of ksim_link_step(): the sender holds against busy, */
static inline void ksim_link_refused(struct ksim_link *l)
{
	l->stalls++;
}

/*
 * or the receiver took the flit: the register empties (unless a dup knob
 * keeps it) and a dormant sender looks again.
 */
static inline void ksim_link_taken(struct ksim_link *l, bool keep)
{
	l->flits++;
	ksim_link_set_valid(l, keep);
	l->owner->dormant = false;
}

/*
 * A receiver took a flit: wake its node now, at the next cycle
 * (take_next), or not at all when its take() arranges it (take_self).
 */
static inline void ksim_sink_woken(struct ksim_sink *rx)
{
	struct ksim_node *n = rx->node;

	if (!n || n->take_self)
		return;
	if (n->take_next)
		ksim_node_wake_next(n);
	else
		ksim_node_wake_fast(n);
}

/*
 * Phase A of a cycle, for a link that holds a flit: returns true when the
 * flit was transferred.  busy is sampled before the receiver has changed
 * this cycle: each sink has exactly one inbound link, and phase A runs
 * before any node ticks.  Emptying the register wakes a dormant sender.
 */
static inline bool ksim_link_step(struct ksim_link *l, u64 now)
{
	struct ksim_sink *rx = l->rx;

	if (__builtin_expect(l->hook || l->obs, 0))
		return ksim_link_step_obs(l, now);
	if (rx->ops->busy(rx)) {
		ksim_link_refused(l);
		return false;
	}
	rx->ops->take(rx, &l->reg);
	ksim_sink_woken(rx);
	ksim_link_taken(l, false);
	return true;
}

/* A skipped idle span: a held flit stalled for `cycles` more cycles. */
void ksim_link_stall_span(struct ksim_link *l, u64 now, u64 cycles);

/*
 * A tied-off port (`xxx`, `nul`, an unpopulated ring position): busy is
 * always low and whatever it takes is dropped, as the hardware's tie-off
 * does.  One per mesh, counting what it swallowed.
 */
struct ksim_tieoff {
	struct ksim_sink sink;
	u64 dropped;
};

void ksim_tieoff_init(struct ksim_tieoff *t);

#endif /* KSIM_LINK_H */
