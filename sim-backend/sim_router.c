// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The router: XY dimension-order routing on clamped coordinates, with the
 * outward hop at the border in priority west > east > north > south >
 * local (noc_inport.v), and per-output round-robin arbitration.
 */
#include "sim_router.h"
#include "sim_util.h"

static unsigned int clamp_u(unsigned int v, unsigned int lo, unsigned int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

unsigned int kh_route(const struct kh_router *r, unsigned int dx,
		      unsigned int dy)
{
	unsigned int cx = clamp_u(dx, r->lo, r->hi_x);
	unsigned int cy = clamp_u(dy, r->lo, r->hi_y);

	if (cx != r->x)
		return cx > r->x ? KH_PORT_E : KH_PORT_W;
	if (cy != r->y)
		return cy > r->y ? KH_PORT_S : KH_PORT_N;
	/* at the clamped router: one outward hop, or local */
	if (dx < r->lo)
		return KH_PORT_W;
	if (dx > r->hi_x)
		return KH_PORT_E;
	if (dy < r->lo)
		return KH_PORT_N;
	if (dy > r->hi_y)
		return KH_PORT_S;
	return KH_PORT_L;
}

static struct kh_router_in *sink_in(const struct kh_sink *s)
{
	return kh_container_of(s, struct kh_router_in, sink);
}

static bool kh_rin_busy(const struct kh_sink *s)
{
	/* a plain full signal, no margin (sync_fifo, USE_ADV_FEATURES(0)) */
	return kh_fifo_full(&sink_in(s)->q);
}

static void kh_rin_take(struct kh_sink *s, const struct kh_flit *f)
{
	struct kh_router_in *in = sink_in(s);

	if (kh_fifo_push(&in->q, f))
		in->r->held++;
}

static const struct kh_sink_ops kh_rin_ops = {
	.busy = kh_rin_busy,
	.take = kh_rin_take,
};

/* The destination byte {dst_x,dst_y} of a flit: header bits [287:280]. */
static inline unsigned int kh_dst_yx(const struct kh_flit *f)
{
	return (unsigned int)(f->w[4] >> 24) & 0xff;
}

static unsigned int kh_router_tick(struct kh_node *n)
{
	struct kh_router *r = kh_container_of(n, struct kh_router, node);
	u8 want[KH_PORTS] = { 0 };	/* per output: the inputs routed there */
	bool progress = false;
	unsigned int i, o;

	if (!r->held)
		return 0;	/* output registers keep the node awake */
	for (i = 0; i < KH_PORTS; i++) {
		const struct kh_flit *h = kh_fifo_head(&r->in[i].q);

		if (h)
			want[r->route[kh_dst_yx(h)]] |= 1u << i;
	}
	for (o = 0; o < KH_PORTS; o++) {
		if (!want[o] || !kh_link_free(&r->out[o]))
			continue;
		/* round robin: the first input after the last one granted */
		for (i = 1; i <= KH_PORTS; i++) {
			unsigned int c = r->rr[o] + i;

			if (c >= KH_PORTS)
				c -= KH_PORTS;
			if (!(want[o] & (1u << c)))
				continue;
			kh_link_load(&r->out[o], kh_fifo_head(&r->in[c].q));
			kh_fifo_pop(&r->in[c].q);
			r->held--;
			r->rr[o] = c;
			r->grants++;
			progress = true;
			break;
		}
	}
	if (progress)
		return KH_TICK_AWAKE | KH_TICK_PROGRESS;
	return r->held ? KH_TICK_AWAKE : 0;
}

static const struct kh_node_ops kh_router_ops = {
	.tick = kh_router_tick,
};

int kh_router_init(struct kh_router *r, struct kh_sched *s, unsigned int x,
		   unsigned int y, unsigned int lo, unsigned int hi_x,
		   unsigned int hi_y, u32 fifo_depth)
{
	unsigned int i;
	int e;

	e = kh_sched_add(s, &r->node, &kh_router_ops);
	if (e)
		return e;
	r->x = x;
	r->y = y;
	r->lo = lo;
	r->hi_x = hi_x;
	r->hi_y = hi_y;
	for (i = 0; i < 256; i++)
		r->route[i] = kh_route(r, i >> 4, i & 15);
	for (i = 0; i < KH_PORTS; i++) {
		r->in[i].sink.ops = &kh_rin_ops;
		r->in[i].sink.node = &r->node;
		r->in[i].r = r;
		/* round robin starts at input 0 */
		r->rr[i] = KH_PORTS - 1;
		e = kh_fifo_init(&r->in[i].q, fifo_depth);
		if (e)
			return e;
		e = kh_node_add_out(&r->node, &r->out[i]);
		if (e)
			return e;
	}
	return 0;
}

void kh_router_fini(struct kh_router *r)
{
	unsigned int i;

	for (i = 0; i < KH_PORTS; i++)
		kh_fifo_fini(&r->in[i].q);
}

void kh_router_reset(struct kh_router *r)
{
	unsigned int i;

	for (i = 0; i < KH_PORTS; i++) {
		kh_fifo_clear(&r->in[i].q);
		r->out[i].valid = false;
		r->rr[i] = KH_PORTS - 1;
	}
	r->held = 0;
}
