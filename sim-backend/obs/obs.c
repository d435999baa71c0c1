// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Observability: the glue between the model and its observers (the
 * protocol checker, fault injection, the event trace): their life cycle
 * with the card, and the hooks the model calls.  The commands that drive
 * them are in obs/command.c, the counters in obs/stats.c.
 *
 * The observers keep one record per link (struct ksim_obs_link) and per
 * unit (struct ksim_obs_unit), built once the card is wired, and point the
 * model's objects at them only while something observes them
 * (ksim_obs_attach()).
 */
#include "obs.h"
#include "base.h"
#include "card.h"
#include "checker.h"
#include "inject.h"
#include "mag.h"
#include "router.h"
#include "topo.h"
#include "trace.h"
#include "util.h"

/* ---- life cycle ---- */

static unsigned int ksim_obs_tick(struct ksim_node *n)
{
	struct ksim_obs *o = ksim_container_of(n, struct ksim_obs, node);

	/* a busy knob's edge: re-arm for the next one */
	ksim_inject_timer(o);
	return KSIM_TICK_IDLE;	/* until the timer */
}

static const struct ksim_node_ops ksim_obs_node_ops = {
	.tick = ksim_obs_tick,
};

int ksim_obs_create(struct ksim_card *card)
{
	struct ksim_obs *o = ksim_plat_zalloc(sizeof(*o));
	int e;

	if (!o)
		return -ENOMEM;
	o->card = card;
	e = ksim_sched_add(&card->sched, &o->node, &ksim_obs_node_ops);
	if (e) {
		ksim_plat_free(o);
		return e;
	}
	card->obs = o;
	return 0;
}

static bool ksim_is_router_node(const struct ksim_card *card,
			      const struct ksim_node *n)
{
	unsigned int m, i;

	for (m = 0; n && m < card->n_mesh; m++) {
		const struct ksim_mesh *me = card->mesh[m];

		for (i = 0; i < me->nrx * me->nry; i++)
			if (n == &me->routers[i].node)
				return true;
	}
	return false;
}

static void ksim_obs_link_init(struct ksim_obs *o, struct ksim_obs_link *ol,
			     struct ksim_link *l, struct ksim_node *sender)
{
	struct ksim_card *card = o->card;
	struct ksim_mesh *m = l->mesh < card->n_mesh ? card->mesh[l->mesh] : NULL;
	bool rx_router = l->rx && ksim_is_router_node(card, l->rx->node);

	ol->obs = o;
	ol->l = l;
	ol->sender = sender;
	ol->rxnode = l->rx ? l->rx->node : NULL;
	if (l->kind == KSIM_LINK_ROUTER)
		ol->cls = rx_router ? KSIM_LC_HOP :
			  m && l->rx == &m->tieoff.sink ? KSIM_LC_TIEOFF :
			  KSIM_LC_DELIVER;
	else
		ol->cls = rx_router ? KSIM_LC_BIRTH : KSIM_LC_DIRECT;
	if (l->kind == KSIM_LINK_ROUTER && l->port < KSIM_PORTS)
		snprintf(ol->name, sizeof(ol->name), "R%u,%u.%c", l->x, l->y,
			 ksim_port_letter(l->port));
	else if (l->kind == KSIM_LINK_ENDPOINT &&
		 (!m || l != ksim_mesh_l2_link(m, l->x, l->y, false)))
		snprintf(ol->name, sizeof(ol->name), "%u,%u", l->x, l->y);
	else if (l->kind == KSIM_LINK_ENDPOINT)
		snprintf(ol->name, sizeof(ol->name), "%u,%u.l2", l->x, l->y);
	else
		snprintf(ol->name, sizeof(ol->name), "%u,%u.l2u", l->x, l->y);
}

static int ksim_obs_tables(struct ksim_obs *o)
{
	struct ksim_card *card = o->card;
	struct ksim_sched *s = &card->sched;
	unsigned int i, j, k, m, x, y;

	for (i = 0, k = 0; i < s->n_all; i++)
		k += s->all[i]->n_out;
	o->links = ksim_plat_zalloc(sizeof(*o->links) * (k + 1));
	if (!o->links)
		return -ENOMEM;
	for (i = 0; i < s->n_all; i++)
		for (j = 0; j < s->all[i]->n_out; j++)
			ksim_obs_link_init(o, &o->links[o->n_links++],
					 s->all[i]->out[j], s->all[i]);
	for (m = 0, k = 0; m < card->n_mesh; m++)
		for (y = 0; y < KSIM_MAP_MAX; y++)
			for (x = 0; x < KSIM_MAP_MAX; x++)
				if (card->mesh[m]->unit[y][x])
					k++;
	o->units = ksim_plat_zalloc(sizeof(*o->units) * (k + 1));
	if (!o->units)
		return -ENOMEM;
	for (m = 0; m < card->n_mesh; m++)
		for (y = 0; y < KSIM_MAP_MAX; y++)
			for (x = 0; x < KSIM_MAP_MAX; x++) {
				struct ksim_unit *u = card->mesh[m]->unit[y][x];
				struct ksim_obs_unit *ou;

				if (!u)
					continue;
				ou = &o->units[o->n_units++];
				ou->obs = o;
				ou->u = u;
				ou->retire_code = 0xff;
				ksim_check_unit_reset(ou);
			}
	return 0;
}

int ksim_obs_start(struct ksim_card *card, const struct ksim_desc *d,
		 const struct ksim_opts *opts, char *err, size_t errlen)
{
	struct ksim_obs *o = card->obs;
	int e;

	e = ksim_obs_tables(o);
	if (e)
		return e;
	if (opts) {
		o->violation = opts->violation;
		o->violation_ctx = opts->violation_ctx;
		if (opts->flags & KSIM_CHECK) {
			e = ksim_check_enable(o, true);
			if (e)
				return e;
		}
	}
	if (d) {
		e = ksim_command_lines(o, d, err, errlen);
		if (e)
			return e;
	}
	ksim_obs_attach(o);
	return 0;
}

void ksim_obs_destroy(struct ksim_card *card)
{
	struct ksim_obs *o = card->obs;

	if (!o)
		return;
	if (o->check_on && o->links)
		ksim_chk_audit(o);	/* the last word on lost flits */
	card->sched.post_cycle = NULL;
	ksim_check_free(o);
	ksim_trace_free(o);
	ksim_inject_free(o);
	ksim_plat_free(o->links);
	ksim_plat_free(o->units);
	ksim_plat_free(o);
	card->obs = NULL;
}

void ksim_obs_mesh_reset(struct ksim_card *card, unsigned int mesh)
{
	struct ksim_obs *o = card->obs;

	if (o && o->check_on)
		ksim_check_mesh_reset(o, mesh);
}

void ksim_obs_attach(struct ksim_obs *o)
{
	struct ksim_card *card = o->card;
	bool all = o->check_on || o->trace_on;
	unsigned int i;

	for (i = 0; i < o->n_links; i++)
		o->links[i].l->obs = all || o->links[i].knobs ? &o->links[i]
							       : NULL;
	for (i = 0; i < o->n_units; i++)
		o->units[i].u->obs = all || o->units[i].knobs ? &o->units[i]
							      : NULL;
	for (i = 0; i < card->n_mesh; i++)
		card->mesh[i]->obs = o->trace_on || o->mesh[i].dram ? o : NULL;
}

/* ---- the records of links and units ---- */

struct ksim_obs_link *ksim_obs_link_of(struct ksim_obs *o,
				       const struct ksim_link *l)
{
	unsigned int i;

	for (i = 0; l && i < o->n_links; i++)
		if (o->links[i].l == l)
			return &o->links[i];
	return NULL;
}

struct ksim_obs_unit *ksim_obs_unit_of(struct ksim_obs *o,
				       const struct ksim_unit *u)
{
	unsigned int i;

	for (i = 0; u && i < o->n_units; i++)
		if (o->units[i].u == u)
			return &o->units[i];
	return NULL;
}

/* ---- links ---- */

void ksim_obs_link_refused(struct ksim_link *l, u64 now)
{
	struct ksim_obs_link *ol = l->obs;

	if (ol->obs->check_on)
		ksim_check_refused(ol, now);
}

unsigned int ksim_obs_link_xfer(struct ksim_link *l, u64 now,
			      struct kh_flit *copy)
{
	struct ksim_obs_link *ol = l->obs;
	struct ksim_obs *o = ol->obs;
	unsigned int act = 0;
	u32 t;

	if (o->check_on)
		act |= ksim_check_xfer(ol, now);
	if (ol->knobs)
		act |= ksim_inject_link_xfer(ol, now);
	t = ksim_flit_tag(&l->reg);
	if (o->trace_on &&
	    (ksim_trace_wants(o, KSIM_TRC_HOP) ||
	     (ol->cls == KSIM_LC_TIEOFF && ksim_trace_wants(o, KSIM_TRC_DROP)) ||
	     ((act & (KSIM_XFER_DROP | KSIM_XFER_KEEP)) &&
	      ksim_trace_wants(o, KSIM_TRC_INJECT)))) {
		struct ksim_trace_ev *ev = ksim_trace_new_ev(o, KSIM_TR_HOP);
		const struct kh_flit *f = &l->reg;

		ev->mesh = l->mesh;
		ev->x = l->x;
		ev->y = l->y;
		ev->c = l->kind == KSIM_LINK_ROUTER ? l->port :
			l->kind == KSIM_LINK_ENDPOINT ? 0xff : 0xfe;
		ev->d = (kh_flit_get(f, KH_HDR_TYPE) & 0xf) |
			(ol->cls == KSIM_LC_DELIVER ? 0x10 : 0) |
			(ol->cls == KSIM_LC_TIEOFF ? 0x20 : 0) |
			(act & KSIM_XFER_DROP ? 0x40 : 0) |
			(act & KSIM_XFER_KEEP ? 0x80 : 0);
		ev->a = t;
		ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
			      kh_flit_get(f, KH_HDR_SRC_Y)) |
			(KH_YX(kh_flit_get(f, KH_HDR_DST_X),
			       kh_flit_get(f, KH_HDR_DST_Y)) << 8);
		ev->v = kh_flit_get(f, KH_HDR_TXN);
	}
	if (t && ol->cls != KSIM_LC_HOP && ol->cls != KSIM_LC_BIRTH) {
		/* an endpoint never sees a tag */
		*copy = l->reg;
		ksim_flit_set_tag(copy, 0);
		act |= KSIM_XFER_COPY;
	}
	return act;
}

void ksim_obs_link_taken(struct ksim_link *l, u64 now)
{
	struct ksim_obs_link *ol = l->obs;

	if (ol->obs->check_on)
		ksim_check_taken(ol, now);
}

/* ---- units ---- */

void ksim_obs_unit_name(const struct ksim_obs_unit *ou, char *buf, size_t len)
{
	const struct ksim_unit *u = ou->u;

	snprintf(buf, len, "mesh %u unit (%u,%u) %s", u->mesh->id, u->x, u->y,
		 u->type->token);
}

bool ksim_obs_unit_busy(const struct ksim_unit *u)
{
	const struct ksim_obs_unit *ou = u->obs;

	return ou->knobs && ksim_inject_unit_busy(ou, u->node.sched->now);
}

void ksim_obs_unit_pre(struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = u->obs;

	ou->retire_code = 0xff;
	ou->accept_traced = false;
	if (ou->obs->check_on)
		ksim_check_unit_pre(ou);
}

void ksim_obs_unit_send(struct ksim_unit *u, const struct kh_flit *f, bool ready)
{
	struct ksim_obs_unit *ou = u->obs;

	if (ou->obs->check_on)
		ksim_check_unit_send(ou, f, ready);
}

void ksim_obs_unit_pop(struct ksim_unit *u, const struct kh_flit *head)
{
	struct ksim_obs_unit *ou = u->obs;

	if (ou->obs->check_on)
		ksim_check_unit_pop(ou, head);
}

static void ksim_trace_accept(struct ksim_obs_unit *ou)
{
	struct ksim_unit *u = ou->u;
	struct ksim_trace_ev *ev = ksim_trace_new_ev(ou->obs, KSIM_TR_ACCEPT);

	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->c = u->cur_txn;
	ev->d = u->cur_last;
	ou->accept_traced = true;
}

static void ksim_trace_retire(struct ksim_obs_unit *ou);

void ksim_obs_unit_done(struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = u->obs;
	struct ksim_obs *o = ou->obs;

	if (ou->knobs && u->in_flight)
		ksim_inject_unit_done(ou);
	if (ksim_trace_wants(o, KSIM_TRC_UNIT))
		ksim_trace_retire(ou);
	if (o->check_on)
		ksim_check_unit_done(ou);
}

static void ksim_trace_retire(struct ksim_obs_unit *ou)
{
	struct ksim_unit *u = ou->u;
	struct ksim_trace_ev *ev;

	if (u->p_accept)
		ksim_trace_accept(ou);	/* the accept first, in one cycle */
	ev = ksim_trace_new_ev(ou->obs, KSIM_TR_RETIRE);
	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->b = u->cur_txn;
	ev->a = u->p_result;
	if (!u->p_done)
		ev->c = 0xfe;		/* a hang knob swallowed it */
	else if (!u->in_flight)
		ev->c = 0xff;		/* no completion */
	else if (u->p_fault)
		ev->c = KH_SIG_FAULT;
	else if (u->cur_last)
		ev->c = KH_SIG_BATCH_COMPLETE;
	else
		ev->c = KH_SIG_INST_COMPLETE;
	if (ev->c == KH_SIG_BATCH_COMPLETE)
		ev->a = u->cur_txn;
}

void ksim_obs_unit_post(struct ksim_unit *u, bool unit_progress)
{
	struct ksim_obs_unit *ou = u->obs;
	struct ksim_obs *o = ou->obs;

	if (o->check_on)
		ksim_check_unit_post(ou, unit_progress);
	if (u->p_accept && !ou->accept_traced && ksim_trace_wants(o, KSIM_TRC_UNIT))
		ksim_trace_accept(ou);
}

void ksim_obs_unit_ctrl(struct ksim_unit *u, const struct kh_flit *req,
		      bool dropped)
{
	struct ksim_obs_unit *ou = u->obs;
	struct ksim_obs *o = ou->obs;

	if (ksim_trace_wants(o, KSIM_TRC_CTRL)) {
		struct ksim_trace_ev *ev =
			ksim_trace_new_ev(o, dropped ? KSIM_TR_CTRL_LOST : KSIM_TR_CTRL_REQ);

		ev->mesh = u->mesh->id;
		ev->x = u->x;
		ev->y = u->y;
		ev->c = kh_flit_get(req, KH_CTRL_INDEX);
		ev->d = kh_flit_get(req, KH_HDR_TXN);
		ev->b = KH_YX(kh_flit_get(req, KH_HDR_SRC_X),
			      kh_flit_get(req, KH_HDR_SRC_Y));
	}
	if (!dropped && ou->knobs)
		ksim_inject_unit_ctrl(ou, &u->ctrl_reply);
}

bool ksim_obs_unit_ctrl_send(struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = u->obs;
	struct ksim_obs *o = ou->obs;
	bool lost = ou->ctrl_drop;

	ou->ctrl_drop = false;
	if (ksim_trace_wants(o, KSIM_TRC_CTRL)) {
		struct ksim_trace_ev *ev = ksim_trace_new_ev(o, KSIM_TR_CTRL_REPLY);
		const struct kh_flit *r = &u->ctrl_reply;

		ev->mesh = u->mesh->id;
		ev->x = u->x;
		ev->y = u->y;
		ev->c = kh_flit_get(r, KH_CTRL_INDEX);
		ev->d = kh_flit_get(r, KH_HDR_TXN);
		ev->b = KH_YX(kh_flit_get(r, KH_HDR_DST_X),
			      kh_flit_get(r, KH_HDR_DST_Y));
		ev->v = kh_flit_get(r, KH_CTRL_VALUE);
		ev->e = lost;
	}
	return lost;
}

void ksim_obs_unit_drop(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_obs_unit *ou = u->obs;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(ou->obs, KSIM_TRC_DROP))
		return;
	ev = ksim_trace_new_ev(ou->obs, KSIM_TR_UNIT_DROP);
	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->d = kh_flit_get(f, KH_HDR_TYPE);
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y));
}

void ksim_obs_unit_reset(struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = u->obs;

	ou->hung = false;
	ou->ctrl_drop = false;
	ksim_check_unit_reset(ou);
}

/* ---- MAG, orchestrator, host DMA ---- */

void ksim_obs_mem_read(struct ksim_mag_port *mp, u64 a, u8 *buf)
{
	struct ksim_obs *o = mp->mag->mesh->obs;

	if (o->mesh[mp->mag->mesh->id].dram)
		ksim_inject_mem_read(o, mp, a, buf);
}

bool ksim_obs_mem_write(struct ksim_mag_port *mp, u64 a)
{
	struct ksim_obs *o = mp->mag->mesh->obs;

	return o->mesh[mp->mag->mesh->id].dram &&
	       ksim_inject_mem_write(o, mp, a);
}

void ksim_obs_mem_nodata(struct ksim_mag_port *mp, const struct kh_flit *f)
{
	struct ksim_obs *o = mp->mag->mesh->obs;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(o, KSIM_TRC_DROP))
		return;
	ev = ksim_trace_new_ev(o, KSIM_TR_MEM_NODATA);
	ev->mesh = mp->mag->mesh->id;
	ev->x = mp->x;
	ev->y = mp->y;
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y));
}

void ksim_obs_orch(struct ksim_orch *orc, unsigned int what,
		 const struct kh_flit *f)
{
	struct ksim_mesh *m = orc->mag->mesh;
	struct ksim_obs *o = m->obs;
	struct ksim_trace_ev *ev;
	u32 cls = what == KSIM_OBS_RX_DROP ? KSIM_TRC_DROP : KSIM_TRC_ORCH;
	static const u8 kind[] = {
		[KSIM_OBS_DISPATCH] = KSIM_TR_DISPATCH, [KSIM_OBS_MBOX] = KSIM_TR_MBOX,
		[KSIM_OBS_SIGNAL] = KSIM_TR_SIGNAL, [KSIM_OBS_RX_DROP] = KSIM_TR_RX_DROP,
	};

	if (what >= KSIM_ARRAY_SIZE(kind) || !ksim_trace_wants(o, cls))
		return;
	ev = ksim_trace_new_ev(o, kind[what]);
	ev->mesh = m->id;
	ev->c = kh_flit_get(f, KH_HDR_TXN);
	ev->d = kh_flit_get(f, KH_HDR_TYPE);
	if (what == KSIM_OBS_DISPATCH || what == KSIM_OBS_MBOX) {
		ev->x = kh_flit_get(f, KH_HDR_DST_X);
		ev->y = kh_flit_get(f, KH_HDR_DST_Y);
		ev->b = orc->left;
	} else {
		ev->x = kh_flit_get(f, KH_HDR_SRC_X);
		ev->y = kh_flit_get(f, KH_HDR_SRC_Y);
	}
	if (what == KSIM_OBS_SIGNAL) {
		ev->c = kh_flit_get(f, KH_SIG_CODE);
		ev->a = kh_flit_get(f, KH_SIG_ARG);
	}
}

void ksim_obs_dma(struct ksim_card *card, bool write, u64 addr, size_t len,
		int result)
{
	struct ksim_obs *o = card->obs;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(o, KSIM_TRC_DMA))
		return;
	ev = ksim_trace_new_ev(o, KSIM_TR_DMA);
	ev->v = addr;
	ev->a = len > 0xffffffffULL ? 0xffffffffu : (u32)len;
	ev->c = write;
	ev->d = result != 0;
	ev->e = card->timing.dma_cycles +
		(u32)((len + KH_HOST_GRANULE - 1) / KH_HOST_GRANULE);
	ev->mesh = 0xff;
}
