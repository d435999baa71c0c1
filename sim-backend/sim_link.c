// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The hold-until-taken link handshake, and the tied-off port. */
#include "sim_link.h"
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
		return false;
	}
	if (l->hook && l->hook->transfer)
		l->hook->transfer(l->hook_ctx, l, now);
	l->rx->ops->take(l->rx, &l->reg);
	l->valid = false;
	l->flits++;
	if (l->rx->node)
		kh_node_wake(l->rx->node);
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
