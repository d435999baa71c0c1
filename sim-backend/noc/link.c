// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The hold-until-taken link handshake, and the tied-off port. */
#include "link.h"
#include "sched.h"
#include "util.h"

void ksim_link_init(struct ksim_link *l, struct ksim_sink *rx, unsigned int mesh,
		  unsigned int kind, unsigned int x, unsigned int y,
		  unsigned int port)
{
	struct ksim_node *owner = l->owner;
	u8 bit = l->bit;

	/* the owner (ksim_node_add_out()) may come first: kept */
	memset(l, 0, sizeof(*l));
	l->owner = owner;
	l->bit = bit;
	if (owner)
		owner->held &= ~bit;
	l->rx = rx;
	l->mesh = mesh;
	l->kind = kind;
	l->x = x;
	l->y = y;
	l->port = port;
}

bool ksim_link_step_obs(struct ksim_link *l, u64 now)
{
	const struct kh_flit *f = &l->reg;
	struct kh_flit copy;
	unsigned int act = 0;

	if (!l->valid)
		return false;
	if (l->rx->ops->busy(l->rx)) {
		ksim_link_refused(l);
		if (l->hook && l->hook->offer)
			l->hook->offer(l->hook_ctx, l, now, 1);
		if (ksim_unlikely(l->obs))
			l->obs->ops->refused(l->obs, l, now);
		return false;
	}
	if (l->hook && l->hook->transfer)
		l->hook->transfer(l->hook_ctx, l, now);
	if (ksim_unlikely(l->obs)) {
		/* its watcher: the checker, drop/dup knobs, the trace */
		act = l->obs->ops->xfer(l->obs, l, now, &copy);
		if (act & KSIM_XFER_COPY)
			f = &copy;
	}
	if (!(act & KSIM_XFER_DROP)) {
		l->rx->ops->take(l->rx, f);
		if (act & KSIM_XFER_TAKEN)
			l->obs->ops->taken(l->obs, l, now);
		ksim_sink_woken(l->rx);
	}
	/* a dup knob: the sender still holds it */
	ksim_link_taken(l, act & KSIM_XFER_KEEP);
	return true;
}

void ksim_link_stall_span(struct ksim_link *l, u64 now, u64 cycles)
{
	if (!l->valid || !cycles)
		return;
	l->stalls += cycles;
	if (l->hook && l->hook->offer)
		l->hook->offer(l->hook_ctx, l, now, cycles);
}

static bool ksim_tieoff_busy(const struct ksim_sink *s)
{
	return false;
}

static void ksim_tieoff_take(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_tieoff *t = (struct ksim_tieoff *)s;

	t->dropped++;
}

static const struct ksim_sink_ops ksim_tieoff_ops = {
	.busy = ksim_tieoff_busy,
	.take = ksim_tieoff_take,
};

void ksim_tieoff_init(struct ksim_tieoff *t)
{
	memset(t, 0, sizeof(*t));
	t->sink.ops = &ksim_tieoff_ops;
}
