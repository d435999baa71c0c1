// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The router: XY dimension-order routing on clamped coordinates, with the
 * outward hop at the border in priority west > east > north > south >
 * local (noc_inport.v), and per-output round-robin arbitration.
 */
#include "router.h"
#include "util.h"

static unsigned int clamp_u(unsigned int v, unsigned int lo, unsigned int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

unsigned int ksim_route(const struct ksim_router *r, unsigned int dx,
		      unsigned int dy)
{
	unsigned int cx = clamp_u(dx, r->lo, r->hi_x);
	unsigned int cy = clamp_u(dy, r->lo, r->hi_y);

	if (cx != r->x)
		return cx > r->x ? KSIM_PORT_E : KSIM_PORT_W;
	if (cy != r->y)
		return cy > r->y ? KSIM_PORT_S : KSIM_PORT_N;
	/* at the clamped router: one outward hop, or local */
	if (dx < r->lo)
		return KSIM_PORT_W;
	if (dx > r->hi_x)
		return KSIM_PORT_E;
	if (dy < r->lo)
		return KSIM_PORT_N;
	if (dy > r->hi_y)
		return KSIM_PORT_S;
	return KSIM_PORT_L;
}

/* the input a sink is in; const for a const sink (busy()) */
#define sink_in(s)	ksim_container_of(s, struct ksim_router_in, sink)

static bool ksim_rin_busy(const struct ksim_sink *s)
{
	/* a plain full signal, no margin (sync_fifo, USE_ADV_FEATURES(0)) */
	return ksim_fifo_full(&sink_in(s)->q);
}

/* The destination byte {dst_x,dst_y} of a flit: header bits [287:280]. */
static inline unsigned int ksim_dst_yx(const struct kh_flit *f)
{
	return (unsigned int)(f->w[4] >> 24) & 0xff;
}

/* bit i of every output's 5-bit group of ksim_router.want */
#define KSIM_WANT_INPUT(i)	(0x108421u << (i))

static void ksim_rin_take(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_router_in *in = sink_in(s);
	struct ksim_router *r = in->r;
	bool was_empty = ksim_fifo_empty(&in->q);
	unsigned int i = in - r->in;

	if (!ksim_fifo_push(&in->q, f))
		return;
	in->at[1] = in->at[0];
	in->at[0] = ksim_node_now(&r->node);
	r->held++;
	if (was_empty) {	/* a new head */
		r->want |= 1u << (KSIM_PORTS * r->route[ksim_dst_yx(f)] + i);
		in->head_ok = in->at[0] + KSIM_ROUTER_PIPE;
		if (in->head_ok > r->ok_max)
			r->ok_max = in->head_ok;
	}
	/*
	 * Nothing to do before the head can be granted, two edges on: a
	 * router that does not tick this cycle sleeps till then (a timer
	 * already set is an earlier head's), one that ticks sets it itself.
	 */
	if ((!r->node.active || r->node.dormant) &&
	    r->node.timer == KSIM_NEVER)
		ksim_node_timer(&r->node, in->at[0] + KSIM_ROUTER_PIPE);
}

static const struct ksim_sink_ops ksim_rin_ops = {
	.busy = ksim_rin_busy,
	.take = ksim_rin_take,
};

/*
 * Round robin: among the inputs in mask m (5 bits), the first one after
 * the last one granted (rr), cyclically.
 */
static inline unsigned int ksim_rr_pick(unsigned int m, unsigned int rr)
{
	unsigned int k = rr + 1;	/* 1..5 */
	unsigned int rot = ((m >> k) | (m << (KSIM_PORTS - k))) & 0x1f;
	unsigned int c = k + __builtin_ctz(rot);

	return c >= KSIM_PORTS ? c - KSIM_PORTS : c;
}

/*
 * The inputs whose head is still in the FIFO or the hold register's load
 * (KSIM_ROUTER_PIPE): pushed less than two edges ago.
 */
static unsigned int ksim_router_young(const struct ksim_router *r, u64 now,
				      u64 *ready)
{
	unsigned int young = 0, i;

	for (i = 0; i < KSIM_PORTS; i++) {
		u64 ok = r->in[i].head_ok;

		if (ok > now && r->in[i].q.count) {
			young |= 1u << i;
			if (ok < *ready)
				*ready = ok;
		}
	}
	return young;
}

/*
 * A pop's new head: pushed at the last push (one left), the one before
 * (two), or before both (older: grantable now).
 */
static void ksim_router_new_head(struct ksim_router *r,
				 struct ksim_router_in *in)
{
	u32 n = in->q.count;

	in->head_ok = n == 1 ? in->at[0] + KSIM_ROUTER_PIPE :
		      n == 2 ? in->at[1] + KSIM_ROUTER_PIPE : 0;
	if (in->head_ok > r->ok_max)
		r->ok_max = in->head_ok;
}

static unsigned int ksim_router_tick(struct ksim_node *n)
{
	struct ksim_router *r = ksim_container_of(n, struct ksim_router, node);
	/* the heads' routes at the start of the cycle: one grant per input */
	u32 want = r->want;
	unsigned int popped = 0, young = 0, i, o;
	u64 now, ready = KSIM_NEVER;

	/*
	 * Idle until a flit arrives or an output register empties: the
	 * router's next tick depends on nothing else (no time, no timer).
	 */
	if (!r->held)
		return KSIM_TICK_IDLE;	/* output registers keep it awake */
	now = ksim_node_now(&r->node);
	if (r->ok_max > now) {
		young = ksim_router_young(r, now, &ready);
		/* bit i of every output's group: KSIM_WANT_INPUT(i) */
		want &= ~(0x108421u * young);
	}
	for (o = 0; want >> (KSIM_PORTS * o); o++) {
		unsigned int m = (want >> (KSIM_PORTS * o)) & 0x1f, c;

		if (!m || !ksim_link_free(&r->out[o]))
			continue;
		c = ksim_rr_pick(m, r->rr[o]);
		ksim_link_load(&r->out[o], ksim_fifo_head(&r->in[c].q));
		ksim_fifo_pop(&r->in[c].q);
		r->held--;
		r->rr[o] = c;
		r->grants++;
		popped |= 1u << c;
	}
	if (popped) {
		/* the popped inputs' new heads */
		for (i = 0; popped; i++, popped >>= 1) {
			const struct kh_flit *h;

			if (!(popped & 1))
				continue;
			r->want &= ~KSIM_WANT_INPUT(i);
			h = ksim_fifo_head(&r->in[i].q);
			if (h) {
				r->want |= 1u << (KSIM_PORTS *
						  r->route[ksim_dst_yx(h)] + i);
				ksim_router_new_head(r, &r->in[i]);
			}
		}
		return KSIM_TICK_AWAKE | KSIM_TICK_PROGRESS;
	}
	/*
	 * A young head becomes grantable by time alone: nothing changes
	 * before then unless a flit arrives or an output empties, so sleep
	 * on a timer till then.
	 */
	if (young) {
		/* next cycle (the usual: woken the cycle after the take) */
		if (ready == now + 1)
			return KSIM_TICK_AWAKE | KSIM_TICK_PROGRESS;
		ksim_node_timer(&r->node, ready);
	}
	/*
	 * Blocked (every wanted output register is held), or empty: the next
	 * tick is the same until a flit arrives or an output empties.
	 */
	return r->held ? KSIM_TICK_AWAKE | KSIM_TICK_IDLE : KSIM_TICK_IDLE;
}

static const struct ksim_node_ops ksim_router_ops = {
	.tick = ksim_router_tick,
};

int ksim_router_init(struct ksim_router *r, struct ksim_sched *s, unsigned int x,
		   unsigned int y, unsigned int lo, unsigned int hi_x,
		   unsigned int hi_y, u32 fifo_depth)
{
	unsigned int i;
	int e;

	e = ksim_sched_add(s, &r->node, &ksim_router_ops);
	if (e)
		return e;
	/* a head is grantable two edges on: the take sets the wake-up */
	r->node.take_self = true;
	r->x = x;
	r->y = y;
	r->lo = lo;
	r->hi_x = hi_x;
	r->hi_y = hi_y;
	for (i = 0; i < 256; i++)
		r->route[i] = ksim_route(r, i >> 4, i & 15);
	for (i = 0; i < KSIM_PORTS; i++) {
		r->in[i].sink.ops = &ksim_rin_ops;
		r->in[i].sink.node = &r->node;
		r->in[i].r = r;
		/* round robin starts at input 0 */
		r->rr[i] = KSIM_PORTS - 1;
		e = ksim_fifo_init(&r->in[i].q, fifo_depth);
		if (e)
			return e;
		e = ksim_node_add_out(&r->node, &r->out[i]);
		if (e)
			return e;
	}
	return 0;
}

void ksim_router_fini(struct ksim_router *r)
{
	unsigned int i;

	for (i = 0; i < KSIM_PORTS; i++)
		ksim_fifo_fini(&r->in[i].q);
}

void ksim_router_reset(struct ksim_router *r)
{
	unsigned int i;

	for (i = 0; i < KSIM_PORTS; i++) {
		ksim_fifo_clear(&r->in[i].q);
		ksim_link_clear(&r->out[i]);
		r->rr[i] = KSIM_PORTS - 1;
		r->in[i].at[0] = r->in[i].at[1] = 0;
		r->in[i].head_ok = 0;
	}
	r->ok_max = 0;
	r->held = 0;
	r->want = 0;
}
