// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card's life cycle and its time.  The card is the one part that
 * knows every other: it builds them and wires them, QEMU's way, each
 * given the handles it needs and nothing else (docs/model.md "Wiring"):
 *
 *   - each mesh (struct ksim_mesh_wiring): the scheduler, the log handle,
 *     its orchestrator's IRQ pin into the card's input n (card/irq.c);
 *     the mesh passes on what its units need (struct ksim_unit_env) and
 *     MAG its converged path to the mover and the interlink
 *     (struct ksim_cv);
 *   - the interlink: the meshes, to join neighbours on the chain;
 *   - the XDMA engine (struct ksim_xdma_wiring): the scheduler, the log
 *     handle, the card bus (struct ksim_cardbus, card/cardbus.c) and the
 *     host round trip; the card's IRQ line is wired into its user
 *     interrupt 0;
 *   - the observers (struct ksim_obs_wiring): the scheduler, the meshes,
 *     the engine, the clock and the wizard reset; the checker, the
 *     injector and the trace registered in that order (obs/obs.h).
 *
 * Time passes only here and in the host accesses that run the card
 * (card/bar.c, the bulk copy of card/cardbus.c): ksim_run() and
 * ksim_run_until_irq() step the one scheduler all meshes share.  The
 * rest of the card's faces are in card/irq.c (interrupts), card/knobs.c
 * (the observers'), card/meshes.c (one mesh's) and card/stats.c.
 */
#include "card.h"
#include "cardbus.h"
#include "checker.h"
#include "desc.h"
#include "ilink.h"
#include "inject.h"
#include "trace.h"
#include "util.h"

struct ksim_mesh *ksim_card_mesh(struct ksim_card *c, unsigned int n)
{
	return n < c->n_mesh ? c->mesh[n] : NULL;
}

/* `inject reset`: the mesh's wizard takes an SW_RST write of the key. */
static void ksim_card_wizard_reset(void *ctx, unsigned int mesh)
{
	ksim_clkwiz_write(ctx, mesh, KH_CLK_SW_RST, KH_CLK_SW_RST_KEY);
}

/*
 * The observers, given what they read of the card, and registered in the
 * order every hook reaches them (obs/obs.h): the checker tags flits, the
 * knobs act, the trace records what happened.
 */
static int ksim_card_observers(struct ksim_card *c,
			       const struct ksim_opts *opts)
{
	struct ksim_obs_wiring w;
	int e;

	memset(&w, 0, sizeof(w));
	w.sched = &c->sched;
	w.mesh = c->mesh;
	w.n_mesh = c->n_mesh;
	w.xdma = c->xdma;
	w.clock_mhz = c->clock_mhz;
	w.wizard_reset = ksim_card_wizard_reset;
	w.reg_name = ksim_bar_reg_name;
	w.ctx = c;
	if (opts) {
		w.violation = opts->violation;
		w.violation_ctx = opts->violation_ctx;
	}
	c->obs = ksim_obs_create(&w, &e);
	if (!c->obs)
		return e;
	c->chk = ksim_check_create(c->obs, &e);
	if (c->chk)
		c->inj = ksim_inject_create(c->obs, &e);
	if (c->inj)
		c->tr = ksim_trace_create(c->obs, &e);
	return c->tr ? 0 : e;
}

int ksim_card_create_opts(const char *desc, const struct ksim_opts *opts,
			    struct ksim_card **out, char *err,
			    size_t errlen)
{
	struct ksim_unit_types types = { NULL, 0 };
	struct ksim_mesh_wiring mw;
	struct ksim_xdma_wiring xw;
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
	ksim_log_init(&c->log, KSIM_LOG_BUDGET);
	ksim_sched_init(&c->sched);
	for (i = 0; i < KH_MAX_MESHES; i++) {
		ksim_clkwiz_init(&c->clkwiz[i], c, i);
		ksim_ddrc_init(&c->ddrc[i]);
	}
	mw.sched = &c->sched;
	mw.log = &c->log;
	mw.irq.set = ksim_card_irq_in;
	mw.irq.opaque = c;
	for (i = 0; i < d->n_mesh; i++) {
		/* its orchestrator's addon line: the card's input i */
		mw.irq.n = i;
		c->mesh[i] = ksim_mesh_create(&mw, i, &d->mesh[i], &e);
		if (!c->mesh[i])
			goto fail_sched;
		c->n_mesh++;
	}
	/* the interlink joins neighbouring meshes on the chain */
	e = ksim_ilink_connect(c->mesh, c->n_mesh);
	if (e)
		goto fail_sched;
	/* the DMA engine (BAR1) and the card bus it reaches */
	c->bus.ops = &ksim_cardbus_ops;
	c->bus.ctx = c;
	xw.sched = &c->sched;
	xw.log = &c->log;
	xw.bus = &c->bus;
	xw.round_trip = &c->timing.dma_cycles;
	c->xdma = ksim_xdma_create(&xw, &e);
	if (!c->xdma)
		goto fail_sched;
	/* the IRQ addon line is its user interrupt 0 */
	c->irq_out.set = ksim_xdma_usr_irq;
	c->irq_out.opaque = c->xdma;
	/* the observers: before the scheduler is finalized (a node) */
	e = ksim_card_observers(c, opts);
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
	e = ksim_obs_start(c->obs);
	if (!e && opts && (opts->flags & KSIM_CHECK))
		e = ksim_check_enable(c->chk, true);
	if (!e)
		e = ksim_card_command_lines(c, d, err, errlen);
	if (e)
		goto fail_sched;
	ksim_obs_attach(c->obs);
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
	ksim_obs_destroy(card->obs);	/* first: the checker's last audit reads the mesh */
	for (i = 0; i < KH_MAX_MESHES; i++)
		ksim_mesh_destroy(card->mesh[i]);
	ksim_xdma_destroy(card->xdma);
	ksim_sched_fini(&card->sched);
	ksim_plat_free(card);
}

void ksim_set_host_ops(struct ksim_card *card,
		       const struct ksim_host_ops *ops, void *ctx)
{
	card->xdma->host = ops;
	card->xdma->host_ctx = ctx;
}

/* card time: one cycle of the built 300 MHz, whatever the meshes run at */
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
	card->xdma->stop_on_msi = false;
	ksim_sched_run(&card->sched, cycles);
}

void ksim_run_until_irq(struct ksim_card *card, u64 cycles)
{
	card->xdma->stop_on_msi = true;
	ksim_sched_run(&card->sched, cycles);
	card->xdma->stop_on_msi = false;
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
