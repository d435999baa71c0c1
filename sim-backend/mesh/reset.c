// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Mesh reset: the hold (every node of the mesh cleared at once), the
 * release, and the gate that holds every endpoint's noc_in_busy high
 * until the recovery window is over.
 */
#include "reset.h"
#include "l2.h"
#include "mag.h"
#include "mesh.h"
#include "router.h"
#include "util.h"
#include <kohaku/kh_regs.h>

/* the gate a sink is in; const for a const sink (busy()) */
#define sink_gate(s)	ksim_container_of(s, struct ksim_gate, sink)

/* card time: the reset block follows the wizard's lock, not a mesh clock */
static u64 ksim_mesh_now(const struct ksim_mesh *m)
{
	return m->sched->now;
}

bool ksim_mesh_held_in_reset(const struct ksim_mesh *m)
{
	return ksim_mesh_now(m) < m->rst.release;
}

bool ksim_mesh_recovering(const struct ksim_mesh *m)
{
	return ksim_mesh_now(m) < m->rst.ready;
}

static bool ksim_gate_busy(const struct ksim_sink *s)
{
	const struct ksim_gate *g = sink_gate(s);

	/* the XPM FIFOs fold wr_rst_busy into busy: held for the window */
	return ksim_mesh_recovering(g->mesh) || g->inner->ops->busy(g->inner);
}

static void ksim_gate_take(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_gate *g = sink_gate(s);

	if (ksim_mesh_recovering(g->mesh)) {
		/* a sender that ignored busy: the FIFO in reset loses it */
		g->mesh->rst.gate_dropped++;
		ksim_mesh_log(g->mesh,
			    "a type 0x%x flit was pushed into an endpoint in reset and lost",
			    (unsigned int)kh_flit_get(f, KH_HDR_TYPE));
		return;
	}
	g->inner->ops->take(g->inner, f);
}

static const struct ksim_sink_ops ksim_gate_ops = {
	.busy = ksim_gate_busy,
	.take = ksim_gate_take,
};

/*
 * The reset's node: nothing to do but be stepped when a window ends, so
 * that a flit held against a gate moves in the cycle the gate opens (the
 * scheduler would skip over it otherwise).
 */
static unsigned int ksim_rst_tick(struct ksim_node *n)
{
	return KSIM_TICK_IDLE;	/* until the next window's timer */
}

static const struct ksim_node_ops ksim_rst_node_ops = {
	.tick = ksim_rst_tick,
};

int ksim_mesh_rst_init(struct ksim_mesh *m)
{
	m->rst.gates = ksim_plat_zalloc(sizeof(*m->rst.gates) * m->w * m->h);
	if (!m->rst.gates)
		return -ENOMEM;
	return ksim_sched_add(m->sched, &m->rst.node, &ksim_rst_node_ops);
}

void ksim_mesh_rst_fini(struct ksim_mesh *m)
{
	ksim_plat_free(m->rst.gates);
	m->rst.gates = NULL;
}

struct ksim_sink *ksim_mesh_gate(struct ksim_mesh *m, unsigned int x,
			     unsigned int y, struct ksim_sink *inner)
{
	struct ksim_gate *g = &m->rst.gates[y * m->w + x];

	g->inner = inner;
	g->mesh = m;
	g->sink.ops = &ksim_gate_ops;
	g->sink.node = inner->node;
	return &g->sink;
}

/* resetn asserted: every node with a reset clause is cleared at once */
static void ksim_mesh_reset_state(struct ksim_mesh *m)
{
	unsigned int x, y;

	/* what was in flight is gone: the checker forgets it */
	if (ksim_unlikely(m->obs))
		m->obs->ops->reset(m->obs, m);
	for (y = 0; y < m->nrx * m->nry; y++)
		ksim_router_reset(&m->routers[y]);
	ksim_mag_reset(m->mag);
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++) {
			if (m->unit[y][x])
				ksim_unit_reset(m->unit[y][x]);
			if (m->l2[y][x])
				ksim_l2_reset(m->l2[y][x]);
		}
}

void ksim_mesh_clk_set(struct ksim_mesh *m, unsigned int out, u32 num,
		       u32 den)
{
	m->clk_num[out] = num;
	m->clk_den[out] = den;
}

/*
 * The mesh's clocks take their new rates: everything they clock has just
 * been cleared, so rebasing them (sched.h) loses nothing.
 */
static void ksim_mesh_clk_apply(struct ksim_mesh *m)
{
	unsigned int o;

	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++)
		ksim_clkdom_set_rate(&m->clk[o], m->clk_num[o], m->clk_den[o]);
}

void ksim_mesh_reset_hold(struct ksim_mesh *m, u64 release)
{
	u64 now = ksim_mesh_now(m);

	if (release < now)
		release = now;
	ksim_mesh_reset_state(m);
	ksim_mesh_clk_apply(m);
	m->rst.release = release;
	m->rst.ready = release + KH_RST_RECOVERY_CYCLES;
	m->rst.resets++;
	/* a step at the end of the window, for flits held against a gate */
	ksim_node_timer(&m->rst.node, m->rst.ready);
}
