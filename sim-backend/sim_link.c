// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The hold-until-taken link handshake, and the tied-off port. */
#include "sim_link.h"
#include "sim_obs.h"
#include "sim_sched.h"

void kh_link_init(struct kh_link *l, struct kh_sink *rx, unsigned int mesh,
		  unsigned int kind, unsigned int x, unsigned int y,
		  unsigned int port)
{
	memset(l, 0, sizeof(*l));
	l->rx = rx;
	l->mesh = mesh;
	l->kind = kind;
	l->x = x;
	l->y = y;
	l->port = port;
}

bool kh_link_step(struct kh_link *l, u64 now)
{
	const struct kh_flit *f = &l->reg;
	struct kh_flit copy;
	unsigned int act = 0;

	if (!l->valid)
		return false;
	/*
	 * busy is sampled before the receiver has changed this cycle: each
	 * sink has exactly one inbound link, and phase A runs before any
	 * node ticks.
	 */
	if (l->rx->ops->busy(l->rx)) {
		l->stalls++;
		if (l->hook && l->hook->offer)
			l->hook->offer(l->hook_ctx, l, now, 1);
		if (kh_unlikely(l->obs))
			kh_obs_link_refused(l, now);
		return false;
	}
	if (l->hook && l->hook->transfer)
		l->hook->transfer(l->hook_ctx, l, now);
	if (kh_unlikely(l->obs)) {
		/* the checker, drop/dup knobs, the trace (sim_obs.h) */
		act = kh_obs_link_xfer(l, now, &copy);
		if (act & KH_XFER_COPY)
			f = &copy;
	}
	if (!(act & KH_XFER_DROP)) {
		l->rx->ops->take(l->rx, f);
		if (act & KH_XFER_TAKEN)
			kh_obs_link_taken(l, now);
		if (l->rx->node)
			kh_node_wake(l->rx->node);
	}
	l->valid = false;
	l->flits++;
	if (act & KH_XFER_KEEP)
		l->valid = true;	/* a dup knob: the sender still holds it */
	return true;
}

void kh_link_stall_span(struct kh_link *l, u64 now, u64 cycles)
{
	if (!l->valid || !cycles)
		return;
	l->stalls += cycles;
	if (l->hook && l->hook->offer)
		l->hook->offer(l->hook_ctx, l, now, cycles);
}

static bool kh_tieoff_busy(const struct kh_sink *s)
{
	return false;
}

static void kh_tieoff_take(struct kh_sink *s, const struct kh_flit *f)
{
	struct kh_tieoff *t = (struct kh_tieoff *)s;

	t->dropped++;
}

static const struct kh_sink_ops kh_tieoff_ops = {
	.busy = kh_tieoff_busy,
	.take = kh_tieoff_take,
};

void kh_tieoff_init(struct kh_tieoff *t)
{
	memset(t, 0, sizeof(*t));
	t->sink.ops = &kh_tieoff_ops;
}
