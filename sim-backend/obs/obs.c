// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The observers' hub (obs/obs.h): their list, in the order they registered
 * (the order every hook reaches them), one record per link and per unit
 * (struct ksim_obs_link, ksim_obs_unit), built once the card is wired,
 * and the watch ops the parts report through, which pass each report to
 * every observer in that order.  The model's objects point at the hub
 * only while an observer watches them (ksim_obs_attach()).  The commands
 * that drive the observers are in obs/command.c.
 */
#include "obs.h"
#include "base.h"
#include "mag.h"
#include "router.h"
#include "topo.h"
#include "util.h"

/* every registered observer that has op, in the order of registration */
#define ksim_for_each_observer(o, i, ob, op)				\
	for ((i) = 0; (i) < (o)->n_list; (i)++)				\
		if (((ob) = (o)->list[i])->ops->op)

static struct ksim_obs_link *ksim_hub_link(struct ksim_link_watch *w)
{
	return ksim_container_of(w, struct ksim_obs_link, watch);
}

static struct ksim_obs_unit *ksim_hub_unit(struct ksim_unit_watch *w)
{
	return ksim_container_of(w, struct ksim_obs_unit, watch);
}

static struct ksim_obs *ksim_hub_of_mesh(struct ksim_mesh_watch *w)
{
	return ksim_container_of(w, struct ksim_obs, mesh_watch);
}

static struct ksim_obs *ksim_hub_of_xdma(struct ksim_xdma_watch *w)
{
	return ksim_container_of(w, struct ksim_obs, xdma_watch);
}

/* ---- links ---- */

static void ksim_hub_link_refused(struct ksim_link_watch *w,
				  struct ksim_link *l, u64 now)
{
	struct ksim_obs_link *ol = ksim_hub_link(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ol->obs, i, ob, link_refused)
		ob->ops->link_refused(ob, ol, now);
}

static unsigned int ksim_hub_link_xfer(struct ksim_link_watch *w,
				       struct ksim_link *l, u64 now,
				       struct kh_flit *copy)
{
	struct ksim_obs_link *ol = ksim_hub_link(w);
	struct ksim_obs *o = ol->obs;
	struct ksim_observer *ob;
	unsigned int act = 0, i;
	u32 t;

	/* the checker's tags, the drop/dup knobs, the trace (obs/obs.h) */
	ksim_for_each_observer(o, i, ob, link_xfer)
		act |= ob->ops->link_xfer(ob, ol, now, act);
	if (act & KSIM_XFER_DROP)
		ksim_for_each_observer(o, i, ob, link_dropped)
			ob->ops->link_dropped(ob, ol);
	t = ksim_flit_tag(&l->reg);
	if (t && ol->cls != KSIM_LC_HOP && ol->cls != KSIM_LC_BIRTH) {
		/* an endpoint never sees a tag */
		*copy = l->reg;
		ksim_flit_set_tag(copy, 0);
		act |= KSIM_XFER_COPY;
	}
	return act;
}

static void ksim_hub_link_taken(struct ksim_link_watch *w, struct ksim_link *l,
				u64 now)
{
	struct ksim_obs_link *ol = ksim_hub_link(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ol->obs, i, ob, link_taken)
		ob->ops->link_taken(ob, ol, now);
}

static const struct ksim_link_watch_ops ksim_hub_link_ops = {
	.refused = ksim_hub_link_refused,
	.xfer = ksim_hub_link_xfer,
	.taken = ksim_hub_link_taken,
};

/* ---- units ---- */

static bool ksim_hub_unit_busy(struct ksim_unit_watch *w,
			       const struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	/* card time: the busy knobs' windows are set in global cycles */
	ksim_for_each_observer(ou->obs, i, ob, unit_busy)
		if (ob->ops->unit_busy(ob, ou, u->node.sched->now))
			return true;
	return false;
}

static void ksim_hub_unit_pre(struct ksim_unit_watch *w, struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_pre)
		ob->ops->unit_pre(ob, ou);
}

static void ksim_hub_unit_send(struct ksim_unit_watch *w, struct ksim_unit *u,
			       const struct kh_flit *f, bool ready)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_send)
		ob->ops->unit_send(ob, ou, f, ready);
}

static void ksim_hub_unit_pop(struct ksim_unit_watch *w, struct ksim_unit *u,
			      const struct kh_flit *head)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_pop)
		ob->ops->unit_pop(ob, ou, head);
}

static void ksim_hub_unit_done(struct ksim_unit_watch *w, struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_done)
		ob->ops->unit_done(ob, ou);
}

static void ksim_hub_unit_post(struct ksim_unit_watch *w, struct ksim_unit *u,
			       bool unit_progress)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_post)
		ob->ops->unit_post(ob, ou, unit_progress);
}

/* A request captured (then its reply, built) or dropped. */
static void ksim_hub_unit_ctrl(struct ksim_unit_watch *w, struct ksim_unit *u,
			       const struct kh_flit *req, bool dropped)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_ctrl)
		ob->ops->unit_ctrl(ob, ou, req, dropped);
	if (dropped)
		return;
	ksim_for_each_observer(ou->obs, i, ob, unit_reply)
		ob->ops->unit_reply(ob, ou, &u->ctrl_reply);
}

static bool ksim_hub_unit_ctrl_send(struct ksim_unit_watch *w,
				    struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	bool lost = false;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_reply_out)
		lost = ob->ops->unit_reply_out(ob, ou, lost);
	return lost;
}

static void ksim_hub_unit_drop(struct ksim_unit_watch *w, struct ksim_unit *u,
			       const struct kh_flit *f)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_drop)
		ob->ops->unit_drop(ob, ou, f);
}

static void ksim_hub_unit_reset(struct ksim_unit_watch *w, struct ksim_unit *u)
{
	struct ksim_obs_unit *ou = ksim_hub_unit(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(ou->obs, i, ob, unit_reset)
		ob->ops->unit_reset(ob, ou);
}

static const struct ksim_unit_watch_ops ksim_hub_unit_ops = {
	.busy = ksim_hub_unit_busy,
	.pre = ksim_hub_unit_pre,
	.send = ksim_hub_unit_send,
	.pop = ksim_hub_unit_pop,
	.done = ksim_hub_unit_done,
	.post = ksim_hub_unit_post,
	.ctrl = ksim_hub_unit_ctrl,
	.ctrl_send = ksim_hub_unit_ctrl_send,
	.drop = ksim_hub_unit_drop,
	.reset = ksim_hub_unit_reset,
};

/* ---- MAG, the orchestrator, mesh reset ---- */

static void ksim_hub_mem_read(struct ksim_mesh_watch *w,
			      struct ksim_mag_port *mp, u64 a, u8 *buf)
{
	struct ksim_obs *o = ksim_hub_of_mesh(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, mem_read)
		ob->ops->mem_read(ob, mp, a, buf);
}

static bool ksim_hub_mem_write(struct ksim_mesh_watch *w,
			       struct ksim_mag_port *mp, u64 a)
{
	struct ksim_obs *o = ksim_hub_of_mesh(w);
	struct ksim_observer *ob;
	bool lost = false;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, mem_write)
		if (ob->ops->mem_write(ob, mp, a))
			lost = true;
	return lost;
}

static void ksim_hub_mem_nodata(struct ksim_mesh_watch *w,
				struct ksim_mag_port *mp,
				const struct kh_flit *f)
{
	struct ksim_obs *o = ksim_hub_of_mesh(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, mem_nodata)
		ob->ops->mem_nodata(ob, mp, f);
}

static void ksim_hub_orch(struct ksim_mesh_watch *w, struct ksim_orch *orc,
			  unsigned int ev, const struct kh_flit *f)
{
	struct ksim_obs *o = ksim_hub_of_mesh(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, orch)
		ob->ops->orch(ob, orc, ev, f);
}

static void ksim_hub_mesh_reset(struct ksim_mesh_watch *w, struct ksim_mesh *m)
{
	struct ksim_obs *o = ksim_hub_of_mesh(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, mesh_reset)
		ob->ops->mesh_reset(ob, m->id);
}

static const struct ksim_mesh_watch_ops ksim_hub_mesh_ops = {
	.mem_read = ksim_hub_mem_read,
	.mem_write = ksim_hub_mem_write,
	.mem_nodata = ksim_hub_mem_nodata,
	.orch = ksim_hub_orch,
	.reset = ksim_hub_mesh_reset,
};

/* ---- the card's DMA: the XDMA engine, the bulk copy ---- */

static int ksim_hub_xdma_knob(struct ksim_xdma_watch *w, unsigned int c2h,
			      unsigned int event)
{
	struct ksim_obs *o = ksim_hub_of_xdma(w);
	struct ksim_observer *ob;
	unsigned int i;
	int e;

	ksim_for_each_observer(o, i, ob, xdma_knob) {
		e = ob->ops->xdma_knob(ob, c2h, event);
		if (e >= 0)
			return e;
	}
	return -1;
}

static void ksim_hub_xdma_event(struct ksim_xdma_watch *w,
				const struct ksim_xdma_event *ev)
{
	struct ksim_obs *o = ksim_hub_of_xdma(w);
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, xdma_event)
		ob->ops->xdma_event(ob, ev);
}

static const struct ksim_xdma_watch_ops ksim_hub_xdma_ops = {
	.knob = ksim_hub_xdma_knob,
	.event = ksim_hub_xdma_event,
};

void ksim_obs_dma(struct ksim_obs *o, bool write, u64 addr, size_t len,
		  int result, u32 cost)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, dma)
		ob->ops->dma(ob, write, addr, len, result, cost);
}

void ksim_obs_host_reg(struct ksim_obs *o, unsigned int mesh, u32 off, u64 v,
		       unsigned int flags)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, host_reg)
		ob->ops->host_reg(ob, mesh, off, v, flags);
}

void ksim_obs_event(struct ksim_obs *o, const struct ksim_trace_ev *ev)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, event)
		ob->ops->event(ob, ev);
}

/* ---- life cycle ---- */

struct ksim_obs *ksim_obs_create(const struct ksim_obs_wiring *w, int *err)
{
	struct ksim_obs *o = ksim_plat_zalloc(sizeof(*o));

	if (!o) {
		*err = -ENOMEM;
		return NULL;
	}
	o->w = *w;
	o->mesh_watch.ops = &ksim_hub_mesh_ops;
	o->xdma_watch.ops = &ksim_hub_xdma_ops;
	return o;
}

int ksim_obs_register(struct ksim_obs *o, struct ksim_observer *ob)
{
	if (o->n_list >= KSIM_OBSERVERS_MAX)
		return -ENOSPC;
	ob->obs = o;
	o->list[o->n_list++] = ob;
	return 0;
}

static bool ksim_is_router_node(const struct ksim_obs *o,
				const struct ksim_node *n)
{
	unsigned int m, i;

	for (m = 0; n && m < o->w.n_mesh; m++) {
		const struct ksim_mesh *me = o->w.mesh[m];

		for (i = 0; i < me->nrx * me->nry; i++)
			if (n == &me->routers[i].node)
				return true;
	}
	return false;
}

static void ksim_obs_link_init(struct ksim_obs *o, struct ksim_obs_link *ol,
			       struct ksim_link *l, struct ksim_node *sender)
{
	struct ksim_mesh *m = l->mesh < o->w.n_mesh ? o->w.mesh[l->mesh] : NULL;
	bool rx_router = l->rx && ksim_is_router_node(o, l->rx->node);

	ol->watch.ops = &ksim_hub_link_ops;
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

int ksim_obs_start(struct ksim_obs *o)
{
	struct ksim_sched *s = o->w.sched;
	struct ksim_observer *ob;
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
	for (m = 0, k = 0; m < o->w.n_mesh; m++)
		for (y = 0; y < KSIM_MAP_MAX; y++)
			for (x = 0; x < KSIM_MAP_MAX; x++)
				if (o->w.mesh[m]->unit[y][x])
					k++;
	o->units = ksim_plat_zalloc(sizeof(*o->units) * (k + 1));
	if (!o->units)
		return -ENOMEM;
	for (m = 0; m < o->w.n_mesh; m++)
		for (y = 0; y < KSIM_MAP_MAX; y++)
			for (x = 0; x < KSIM_MAP_MAX; x++) {
				struct ksim_unit *u = o->w.mesh[m]->unit[y][x];
				struct ksim_obs_unit *ou;

				if (!u)
					continue;
				ou = &o->units[o->n_units++];
				ou->watch.ops = &ksim_hub_unit_ops;
				ou->obs = o;
				ou->u = u;
				ksim_for_each_observer(o, i, ob, unit_reset)
					ob->ops->unit_reset(ob, ou);
			}
	return 0;
}

void ksim_obs_destroy(struct ksim_obs *o)
{
	struct ksim_observer *ob;
	unsigned int i;

	if (!o)
		return;
	/* in order: the checker's last audit may tell the trace */
	ksim_for_each_observer(o, i, ob, fini)
		ob->ops->fini(ob);
	ksim_plat_free(o->links);
	ksim_plat_free(o->units);
	ksim_plat_free(o);
}

/* ---- which objects are watched ---- */

static bool ksim_watches_link(struct ksim_obs *o, const struct ksim_obs_link *ol)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, watch_link)
		if (ob->ops->watch_link(ob, ol))
			return true;
	return false;
}

static bool ksim_watches_unit(struct ksim_obs *o, const struct ksim_obs_unit *ou)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, watch_unit)
		if (ob->ops->watch_unit(ob, ou))
			return true;
	return false;
}

static bool ksim_watches_mesh(struct ksim_obs *o, unsigned int mesh)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, watch_mesh)
		if (ob->ops->watch_mesh(ob, mesh))
			return true;
	return false;
}

static bool ksim_watches_regs(struct ksim_obs *o)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, watch_regs)
		if (ob->ops->watch_regs(ob))
			return true;
	return false;
}

static bool ksim_watches_card(struct ksim_obs *o)
{
	struct ksim_observer *ob;
	unsigned int i;

	ksim_for_each_observer(o, i, ob, watch_card)
		if (ob->ops->watch_card(ob))
			return true;
	return false;
}

void ksim_obs_attach(struct ksim_obs *o)
{
	unsigned int i;

	for (i = 0; i < o->n_links; i++)
		o->links[i].l->obs = ksim_watches_link(o, &o->links[i]) ?
				     &o->links[i].watch : NULL;
	for (i = 0; i < o->n_units; i++)
		o->units[i].u->obs = ksim_watches_unit(o, &o->units[i]) ?
				     &o->units[i].watch : NULL;
	for (i = 0; i < o->w.n_mesh; i++)
		o->w.mesh[i]->obs = ksim_watches_mesh(o, i) ? &o->mesh_watch
							    : NULL;
	o->dma_watched = ksim_watches_card(o);
	o->regs_watched = ksim_watches_regs(o);
	o->w.xdma->obs = o->dma_watched ? &o->xdma_watch : NULL;
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

void ksim_obs_unit_name(const struct ksim_obs_unit *ou, char *buf, size_t len)
{
	const struct ksim_unit *u = ou->u;

	snprintf(buf, len, "mesh %u unit (%u,%u) %s", u->mesh->id, u->x, u->y,
		 u->type->token);
}
