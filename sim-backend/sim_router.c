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

static struct ksim_router_in *sink_in(const struct ksim_sink *s)
{
	return ksim_container_of(s, struct ksim_router_in, sink);
}

static bool ksim_rin_busy(const struct ksim_sink *s)
{
	/* a plain full signal, no margin (sync_fifo, USE_ADV_FEATURES(0)) */
	return ksim_fifo_full(&sink_in(s)->q);
}

static void ksim_rin_take(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_router_in *in = sink_in(s);

	if (ksim_fifo_push(&in->q, f))
		in->r->held++;
}

static const struct ksim_sink_ops ksim_rin_ops = {
	.busy = ksim_rin_busy,
	.take = ksim_rin_take,
};

/* The destination byte {dst_x,dst_y} of a flit: header bits [287:280]. */
static inline unsigned int ksim_dst_yx(const struct kh_flit *f)
{
	return (unsigned int)(f->w[4] >> 24) & 0xff;
}

static unsigned int ksim_router_tick(struct ksim_node *n)
{
	struct ksim_router *r = ksim_container_of(n, struct ksim_router, node);
	u8 want[KSIM_PORTS] = { 0 };	/* per output: the inputs routed there */
	bool progress = false;
	unsigned int i, o;

	/*
	 * Idle until a flit arrives or an output register empties: the
	 * router's next tick depends on nothing else (no time, no timer).
	 */
	if (!r->held)
		return KSIM_TICK_IDLE;	/* output registers keep it awake */
	for (i = 0; i < KSIM_PORTS; i++) {
		const struct kh_flit *h = ksim_fifo_head(&r->in[i].q);

		if (h)
			want[r->route[ksim_dst_yx(h)]] |= 1u << i;
	}
	for (o = 0; o < KSIM_PORTS; o++) {
		if (!want[o] || !ksim_link_free(&r->out[o]))
			continue;
		/* round robin: the first input after the last one granted */
		for (i = 1; i <= KSIM_PORTS; i++) {
			unsigned int c = r->rr[o] + i;

			if (c >= KSIM_PORTS)
				c -= KSIM_PORTS;
			if (!(want[o] & (1u << c)))
				continue;
			ksim_link_load(&r->out[o], ksim_fifo_head(&r->in[c].q));
			ksim_fifo_pop(&r->in[c].q);
			r->held--;
			r->rr[o] = c;
			r->grants++;
			progress = true;
			break;
		}
	}
	if (progress)
		return KSIM_TICK_AWAKE | KSIM_TICK_PROGRESS;
	/* blocked: every wanted output register is held */
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
	}
	r->held = 0;
}
