// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Mesh reset: the hold, the release, and the gate that holds every
 * endpoint's noc_in_busy high until the recovery window is over.
 */
#include "sim_reset.h"
#include "sim_card.h"
#include "sim_mesh.h"
#include "sim_util.h"

static struct kh_gate *sink_gate(const struct kh_sink *s)
{
	return kh_container_of(s, struct kh_gate, sink);
}

static u64 kh_mesh_now(const struct kh_mesh *m)
{
	return m->sched->now;
}

bool kh_mesh_in_reset(const struct kh_mesh *m)
{
	return kh_mesh_now(m) < m->rst.release;
}

bool kh_mesh_recovering(const struct kh_mesh *m)
{
	return kh_mesh_now(m) < m->rst.ready;
}

static bool kh_gate_busy(const struct kh_sink *s)
{
	const struct kh_gate *g = sink_gate(s);

	/* the XPM FIFOs fold wr_rst_busy into busy: held for the window */
	return kh_mesh_recovering(g->mesh) || g->inner->ops->busy(g->inner);
}

static void kh_gate_take(struct kh_sink *s, const struct kh_flit *f)
{
	struct kh_gate *g = sink_gate(s);

	if (kh_mesh_recovering(g->mesh)) {
		/* a sender that ignored busy: the FIFO in reset loses it */
		g->mesh->rst.gate_dropped++;
		kh_mesh_log(g->mesh,
			    "a type 0x%x flit was pushed into an endpoint in reset and lost",
			    (unsigned int)kh_flit_get(f, KH_HDR_TYPE));
		return;
	}
	g->inner->ops->take(g->inner, f);
}

static const struct kh_sink_ops kh_gate_ops = {
	.busy = kh_gate_busy,
	.take = kh_gate_take,
};

int kh_mesh_rst_init(struct kh_mesh *m)
{
	m->rst.gates = kh_plat_zalloc(sizeof(*m->rst.gates) * m->w * m->h);
	return m->rst.gates ? 0 : -ENOMEM;
}

void kh_mesh_rst_fini(struct kh_mesh *m)
{
	kh_plat_free(m->rst.gates);
	m->rst.gates = NULL;
}

struct kh_sink *kh_mesh_gate(struct kh_mesh *m, unsigned int x,
			     unsigned int y, struct kh_sink *inner)
{
	struct kh_gate *g = &m->rst.gates[y * m->w + x];

	g->inner = inner;
	g->mesh = m;
	g->sink.ops = &kh_gate_ops;
	g->sink.node = inner->node;
	return &g->sink;
}

void kh_mesh_reset_hold(struct kh_mesh *m, u64 release)
{
	u64 now = kh_mesh_now(m);

	if (release < now)
		release = now;
	kh_mesh_reset(m);
	m->rst.release = release;
	m->rst.ready = release + KH_RST_RECOVERY_CYCLES;
	m->rst.resets++;
	/* a step at the end of the window, for flits held against a gate */
	kh_sim_card_rst_timer(m->card);
}
