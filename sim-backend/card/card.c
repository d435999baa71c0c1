// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Card life cycle, simulated time, and the internal interface. */
#include "card.h"
#include "obs.h"
#include "base.h"
#include "desc.h"
#include "ilink.h"
#include "l2.h"
#include "mag.h"
#include "router.h"
#include "util.h"
#include "xdma.h"

struct ksim_sched *ksim_card_sched(struct ksim_card *c)
{
	return &c->sched;
}

struct ksim_mesh *ksim_card_mesh(struct ksim_card *c, unsigned int n)
{
	return n < c->n_mesh ? c->mesh[n] : NULL;
}

/* The reset node: nothing to do but be stepped when a window ends. */
static unsigned int ksim_rst_tick(struct ksim_node *n)
{
	struct ksim_card *c = ksim_container_of(n, struct ksim_card,
						 rst_node);

	ksim_card_rst_timer(c);
	return KSIM_TICK_IDLE;	/* until the timer */
}

static const struct ksim_node_ops ksim_rst_node_ops = {
	.tick = ksim_rst_tick,
};

void ksim_card_rst_timer(struct ksim_card *c)
{
	u64 next = KSIM_NEVER, now = c->sched.now;
	unsigned int i;

	for (i = 0; i < c->n_mesh; i++)
		if (c->mesh[i]->rst.ready > now &&
		    c->mesh[i]->rst.ready < next)
			next = c->mesh[i]->rst.ready;
	ksim_node_timer(&c->rst_node, next);
}

void ksim_irq_eval(struct ksim_card *card)
{
	bool line = false;
	unsigned int i;

	for (i = 0; i < card->n_mesh; i++)
		if (card->mesh[i]->mag->orch.irq_level)
			line = true;
	if (line == card->irq_line)
		return;
	card->irq_line = line;
	if (line) {
		card->irq_rises++;
		if (card->irq_fn)
			card->irq_fn(card->irq_ctx);
	}
	/* the line is the XDMA user interrupt 0 */
	if (card->xdma)
		ksim_xdma_irq_eval(card->xdma);
}

bool ksim_irq_line(const struct ksim_card *card)
{
	return card->irq_line;
}

void ksim_set_irq_callback(struct ksim_card *card, ksim_irq_fn fn,
			     void *ctx)
{
	card->irq_fn = fn;
	card->irq_ctx = ctx;
}

bool ksim_log_ok(struct ksim_card *card)
{
	if (!card->log_left)
		return false;
	if (--card->log_left == 0)
		ksim_plat_log("further model diagnostics suppressed\n");
	return true;
}

int ksim_card_create_opts(const char *desc, const struct ksim_opts *opts,
			    struct ksim_card **out, char *err,
			    size_t errlen)
{
	struct ksim_unit_types types = { NULL, 0 };
	struct ksim_card *c;
	struct ksim_desc *d;
	unsigned int i;
	int e;

	*out = NULL;
	if (!desc) {
		if (err && errlen)
			snprintf(err, errlen, "no card description");
		return -EINVAL;
	}
	if (opts) {
		types.extra = opts->extra_types;
		types.n_extra = opts->n_extra;
	}
	d = ksim_plat_zalloc(sizeof(*d));
	c = ksim_plat_zalloc(sizeof(*c));
	if (!d || !c) {
		e = -ENOMEM;
		goto fail;
	}
	e = ksim_desc_parse(desc, &types, d, err, errlen);
	if (e)
		goto fail;
	c->p = d->p;
	c->clock_mhz = KSIM_CLOCK_MHZ;
	c->timing.read_cycles = 150;
	c->timing.write_cycles = 30;
	c->timing.dma_cycles = 150;
	c->log_left = KSIM_LOG_BUDGET;
	ksim_sched_init(&c->sched);
	e = ksim_sched_add(&c->sched, &c->rst_node, &ksim_rst_node_ops);
	if (e)
		goto fail_sched;
	for (i = 0; i < KH_MAX_MESHES; i++) {
		ksim_clkwiz_init(&c->clkwiz[i], c, i);
		ksim_ddrc_init(&c->ddrc[i]);
	}
	for (i = 0; i < d->n_mesh; i++) {
		c->mesh[i] = ksim_mesh_create(c, i, &d->mesh[i], &e);
		if (!c->mesh[i])
			goto fail_sched;
		c->n_mesh++;
	}
	/* the interlink joins neighbouring meshes on the chain */
	e = ksim_ilink_connect_card(c);
	if (e)
		goto fail_sched;
	/* the DMA engine (BAR1) */
	e = ksim_xdma_create(c);
	if (e)
		goto fail_sched;
	/* the observers' node: before the scheduler is finalized */
	e = ksim_obs_create(c);
	if (e)
		goto fail_sched;
	e = ksim_sched_finalize(&c->sched);
	if (e)
		goto fail_sched;
	/* nodes that asked to be woken before the list existed */
	for (i = 0; i < c->sched.n_all; i++)
		if (c->sched.all[i]->active) {
			c->sched.all[i]->active = false;
			ksim_node_wake(c->sched.all[i]);
		}
	/* the checker, knobs and trace: opts, then the description's lines */
	e = ksim_obs_start(c, d, opts, err, errlen);
	if (e)
		goto fail_sched;
	ksim_plat_free(d);
	*out = c;
	return 0;
fail_sched:
	if (err && errlen && !err[0])
		snprintf(err, errlen, "cannot build the card: error %d", e);
	ksim_plat_free(d);
	ksim_card_destroy(c);
	return e;
fail:
	if (err && errlen && e == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	ksim_plat_free(d);
	ksim_plat_free(c);
	return e;
}

int ksim_card_create(const char *desc, struct ksim_card **out, char *err,
		       size_t errlen)
{
	return ksim_card_create_opts(desc, NULL, out, err, errlen);
}

int ksim_card_create_flags(const char *desc, unsigned int flags,
			   struct ksim_card **out, char *err,
			   size_t errlen)
{
	struct ksim_opts o;

	memset(&o, 0, sizeof(o));
	o.flags = flags;
	return ksim_card_create_opts(desc, &o, out, err, errlen);
}

void ksim_card_destroy(struct ksim_card *card)
{
	unsigned int i;

	if (!card)
		return;
	ksim_obs_destroy(card);	/* first: its last audit reads the mesh */
	for (i = 0; i < KH_MAX_MESHES; i++)
		ksim_mesh_destroy(card->mesh[i]);
	ksim_xdma_destroy(card);
	ksim_sched_fini(&card->sched);
	ksim_plat_free(card);
}

u64 ksim_cycles(const struct ksim_card *card)
{
	return card->sched.now;
}

u32 ksim_clock_mhz(const struct ksim_card *card)
{
	return card->clock_mhz;
}

void ksim_run(struct ksim_card *card, u64 cycles)
{
	card->stop_on_irq = false;
	ksim_sched_run(&card->sched, cycles);
}

void ksim_run_until_irq(struct ksim_card *card, u64 cycles)
{
	card->stop_on_irq = true;
	ksim_sched_run(&card->sched, cycles);
	card->stop_on_irq = false;
}

unsigned int ksim_mesh_count(const struct ksim_card *card)
{
	return card->n_mesh;
}

u64 ksim_mesh_dram_size(const struct ksim_card *card, unsigned int mesh)
{
	return mesh < card->n_mesh ? card->mesh[mesh]->dram.size : 0;
}

void ksim_get_timing(const struct ksim_card *card,
		       struct ksim_timing *t)
{
	*t = card->timing;
}

void ksim_set_timing(struct ksim_card *card,
		       const struct ksim_timing *t)
{
	card->timing = *t;
}

struct ksim_unit *ksim_unit_at(struct ksim_card *card, unsigned int mesh,
			       unsigned int x, unsigned int y)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	if (!m || x >= m->w || y >= m->h)
		return NULL;
	return m->unit[y][x];
}

struct ksim_link *ksim_router_link(struct ksim_card *card,
				   unsigned int mesh, unsigned int x,
				   unsigned int y, unsigned int port)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);
	struct ksim_router *r = m ? ksim_mesh_router(m, x, y) : NULL;

	return r && port < KSIM_PORTS ? &r->out[port] : NULL;
}

struct ksim_link *ksim_endpoint_link(struct ksim_card *card,
				     unsigned int mesh, unsigned int x,
				     unsigned int y)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);
	unsigned int i;

	if (!m || x >= m->w || y >= m->h)
		return NULL;
	if (m->unit[y][x])
		return &m->unit[y][x]->out;
	for (i = 0; x == 0 && i < m->mag->n_ports; i++)
		if (m->mag->port[i].y == y)
			return &m->mag->port[i].out;
	return NULL;
}

static void ksim_mesh_for_links(struct ksim_mesh *m,
			      void (*fn)(struct ksim_link *l, void *arg),
			      void *arg)
{
	unsigned int x, y, d;

	for (y = 0; y < m->nrx * m->nry; y++)
		for (d = 0; d < KSIM_PORTS; d++)
			fn(&m->routers[y].out[d], arg);
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++)
			if (m->unit[y][x])
				fn(&m->unit[y][x]->out, arg);
	for (x = 0; x < m->mag->n_ports; x++)
		fn(&m->mag->port[x].out, arg);
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++)
			if (m->l2[y][x]) {
				fn(&m->l2[y][x]->rout, arg);
				fn(&m->l2[y][x]->cout, arg);
			}
}

struct ksim_hook_arg {
	const struct ksim_link_hook *hook;
	void *ctx;
};

static void ksim_set_hook(struct ksim_link *l, void *arg)
{
	struct ksim_hook_arg *a = arg;

	l->hook = a->hook;
	l->hook_ctx = a->ctx;
}

void ksim_set_link_hook(struct ksim_card *card,
			  const struct ksim_link_hook *hook, void *ctx)
{
	struct ksim_hook_arg a = { hook, ctx };
	unsigned int i;

	for (i = 0; i < card->n_mesh; i++)
		ksim_mesh_for_links(card->mesh[i], ksim_set_hook, &a);
}

static void ksim_sum_link(struct ksim_link *l, void *arg)
{
	struct ksim_stats *st = arg;

	st->link_flits += l->flits;
	st->link_stalls += l->stalls;
}

int ksim_get_stats(struct ksim_card *card, unsigned int mesh,
		     struct ksim_stats *st)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);
	unsigned int x, y;

	memset(st, 0, sizeof(*st));
	if (!m)
		return -EINVAL;
	st->cycles_stepped = card->sched.cycles_stepped;
	st->cycles_skipped = card->sched.cycles_skipped;
	ksim_mesh_for_links(m, ksim_sum_link, st);
	st->tieoff_dropped = m->tieoff.dropped;
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++) {
			struct ksim_unit *u = m->unit[y][x];

			if (!u)
				continue;
			st->ctrl_dropped += u->ctrl_dropped;
			st->unit_dropped += u->dropped;
			st->lost_completions += u->lost_completions;
		}
	for (x = 0; x < m->mag->n_ports; x++) {
		struct ksim_mag_port *mp = &m->mag->port[x];

		st->mag_reads += mp->reads;
		st->mag_writes += mp->writes;
		st->mag_data_dropped += mp->data_dropped;
		st->mag_slot_stalls += mp->slot_stall_cycles;
		if (mp->slot_stall_since != KSIM_NEVER)
			st->mag_slot_stalls += card->sched.now -
					       mp->slot_stall_since;
		st->mag_out_of_range += mp->out_of_range;
		st->mag_remote_alias += mp->remote_alias;
	}
	st->agent_rx_dropped = m->mag->orch.rx_dropped;
	st->signals = m->mag->orch.signals;
	st->dispatched = m->mag->orch.dispatched;
	st->dram_pages = m->dram.pages;
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++) {
			struct ksim_l2 *a = m->l2[y][x];

			if (!a)
				continue;
			st->l2_served += a->n_served;
			st->l2_forwarded += a->n_fwd;
			st->l2_ctrl += a->ctrl_terminated;
			st->ctrl_dropped += a->ctrl_dropped;
		}
	st->reset_dropped = m->rst.gate_dropped;
	st->reset_host_dropped = m->rst.host_dropped;
	st->resets = m->rst.resets;
	st->irq_rises = card->irq_rises;
	for (x = 0; x < m->mag->n_ports; x++) {
		st->mag_entries += m->mag->port[x].entries;
		st->mag_ap_faults += m->mag->port[x].ap_faults;
	}
	st->mag_quant_uploads = m->mag->quant_entries;
	st->mag_host_hangs = m->mag->host_hangs;
	st->mover_words = m->mag->mv.words;
	st->mover_remote_words = m->mag->mv.remote_words;
	if (m->mag->il) {
		st->il_injected = m->mag->il->injected;
		st->il_inj_dropped = m->mag->il->inj_dropped;
		st->il_switch_dropped = m->mag->il->switch_dropped;
	}
	return 0;
}

void ksim_set_step_all(struct ksim_card *card, bool on)
{
	unsigned int i;

	card->sched.step_all = on;
	for (i = 0; i < card->sched.n_all; i++) {
		if (on)
			ksim_node_wake(card->sched.all[i]);
		else	/* ticked again, to fall asleep where they would */
			card->sched.all[i]->dormant = false;
	}
}

int ksim_mesh_reset(struct ksim_card *card, unsigned int mesh)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	if (!m)
		return -EINVAL;
	/* a resetn pulse: released at once, then the FIFOs recover */
	ksim_mesh_reset_hold(m, card->sched.now);
	return 0;
}

bool ksim_mesh_in_reset(struct ksim_card *card, unsigned int mesh)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	return m && ksim_mesh_recovering(m);
}

struct ksim_link *ksim_l2_link(struct ksim_card *card, unsigned int mesh,
			       unsigned int x, unsigned int y, bool to_unit)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);
	struct ksim_l2 *a;

	if (!m || x >= m->w || y >= m->h)
		return NULL;
	a = m->l2[y][x];
	if (!a)
		return NULL;
	return to_unit ? &a->cout : &a->rout;
}
