// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Observability: the glue between the model and its observers (the
 * protocol checker, fault injection, the event trace), the commands that
 * drive them (docs/spec/fault-injection.md), the text dumps, and the
 * benchmark's stepping switch.
 *
 * The observers keep one record per link (struct kh_obs_link) and per
 * unit (struct kh_obs_unit), built once the card is wired, and point the
 * model's objects at them only while something observes them
 * (kh_obs_attach()).
 */
#include "sim_obs.h"
#include "sim_base.h"
#include "sim_card.h"
#include "sim_check.h"
#include "sim_desc.h"
#include "sim_inject.h"
#include "sim_mag.h"
#include "sim_router.h"
#include "sim_trace.h"
#include "sim_util.h"

static const char kh_port_letter[KH_PORTS] = { 'N', 'E', 'S', 'W', 'L' };

/* ---- text buffers ---- */

void kh_tb_init(struct kh_tbuf *t, char *b, size_t len)
{
	t->b = b;
	t->len = len;
	t->pos = 0;
	t->need = 0;
	if (b && len)
		b[0] = 0;
}

void kh_tb_printf(struct kh_tbuf *t, const char *fmt, ...)
{
	size_t room = t->len > t->pos ? t->len - t->pos : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? t->b + t->pos : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->need += n;
	if (!room)
		return;
	t->pos += (size_t)n < room ? (size_t)n : room - 1;
}

/* ---- words ---- */

static bool kh_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

int kh_cmd_split(const char *line, size_t len, struct kh_words *w)
{
	size_t i = 0, b;

	w->n = 0;
	while (i < len && line[i] && line[i] != '#') {
		while (i < len && line[i] && kh_blank(line[i]))
			i++;
		if (i >= len || !line[i] || line[i] == '#')
			break;
		b = i;
		while (i < len && line[i] && line[i] != '#' && !kh_blank(line[i]))
			i++;
		if (w->n == KH_CMD_WORDS)
			return -E2BIG;
		w->w[w->n].s = line + b;
		w->w[w->n].n = i - b;
		w->n++;
	}
	return 0;
}

bool kh_word_is(const struct kh_word *w, const char *lit)
{
	size_t n = strlen(lit);

	return w->n == n && !memcmp(w->s, lit, n);
}

bool kh_word_u64(const struct kh_word *w, u64 *v)
{
	unsigned int base = 10, d;
	size_t i = 0;
	u64 x = 0;

	if (w->n > 2 && w->s[0] == '0' && (w->s[1] == 'x' || w->s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= w->n)
		return false;
	for (; i < w->n; i++) {
		char c = w->s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		if (x > (~0ULL - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

bool kh_word_kv(const struct kh_word *w, struct kh_word *k,
		struct kh_word *v)
{
	size_t i;

	for (i = 0; i < w->n && w->s[i] != '='; i++)
		;
	if (i == w->n || !i)
		return false;
	k->s = w->s;
	k->n = i;
	v->s = w->s + i + 1;
	v->n = w->n - i - 1;
	return true;
}

bool kh_word_xy(const struct kh_word *w, unsigned int *x, unsigned int *y)
{
	struct kh_word a = *w, b;
	u64 vx, vy;
	size_t i;

	for (i = 0; i < w->n && w->s[i] != ','; i++)
		;
	if (i == w->n)
		return false;
	a.n = i;
	b.s = w->s + i + 1;
	b.n = w->n - i - 1;
	if (!kh_word_u64(&a, &vx) || !kh_word_u64(&b, &vy) || vx > 15 ||
	    vy > 15)
		return false;
	*x = (unsigned int)vx;
	*y = (unsigned int)vy;
	return true;
}

int kh_word_len(const struct kh_word *w)
{
	return (int)(w->n < 40 ? w->n : 40);
}

/* ---- life cycle ---- */

static unsigned int kh_obs_tick(struct kh_node *n)
{
	struct kh_obs *o = kh_container_of(n, struct kh_obs, node);

	/* a busy knob's edge: re-arm for the next one */
	kh_inject_timer(o);
	return 0;
}

static const struct kh_node_ops kh_obs_node_ops = {
	.tick = kh_obs_tick,
};

int kh_obs_create(struct kh_sim_card *card)
{
	struct kh_obs *o = kh_plat_zalloc(sizeof(*o));
	int e;

	if (!o)
		return -ENOMEM;
	o->card = card;
	e = kh_sched_add(&card->sched, &o->node, &kh_obs_node_ops);
	if (e) {
		kh_plat_free(o);
		return e;
	}
	card->obs = o;
	return 0;
}

static bool kh_is_router_node(const struct kh_sim_card *card,
			      const struct kh_node *n)
{
	unsigned int m, i;

	for (m = 0; n && m < card->n_mesh; m++) {
		const struct kh_mesh *me = card->mesh[m];

		for (i = 0; i < me->nrx * me->nry; i++)
			if (n == &me->routers[i].node)
				return true;
	}
	return false;
}

static void kh_obs_link_init(struct kh_obs *o, struct kh_obs_link *ol,
			     struct kh_link *l, struct kh_node *sender)
{
	struct kh_sim_card *card = o->card;
	struct kh_mesh *m = l->mesh < card->n_mesh ? card->mesh[l->mesh] : NULL;
	bool rx_router = l->rx && kh_is_router_node(card, l->rx->node);

	ol->obs = o;
	ol->l = l;
	ol->sender = sender;
	ol->rxnode = l->rx ? l->rx->node : NULL;
	if (l->kind == KH_LINK_ROUTER)
		ol->cls = rx_router ? KH_LC_HOP :
			  m && l->rx == &m->tieoff.sink ? KH_LC_TIEOFF :
			  KH_LC_DELIVER;
	else
		ol->cls = rx_router ? KH_LC_BIRTH : KH_LC_DIRECT;
	if (l->kind == KH_LINK_ROUTER && l->port < KH_PORTS)
		snprintf(ol->name, sizeof(ol->name), "R%u,%u.%c", l->x, l->y,
			 kh_port_letter[l->port]);
	else if (l->kind == KH_LINK_ENDPOINT &&
		 l != kh_sim_l2_link(card, l->mesh, l->x, l->y, false))
		snprintf(ol->name, sizeof(ol->name), "%u,%u", l->x, l->y);
	else if (l->kind == KH_LINK_ENDPOINT)
		snprintf(ol->name, sizeof(ol->name), "%u,%u.l2", l->x, l->y);
	else
		snprintf(ol->name, sizeof(ol->name), "%u,%u.l2u", l->x, l->y);
}

static int kh_obs_tables(struct kh_obs *o)
{
	struct kh_sim_card *card = o->card;
	struct kh_sched *s = &card->sched;
	unsigned int i, j, k, m, x, y;

	for (i = 0, k = 0; i < s->n_all; i++)
		k += s->all[i]->n_out;
	o->links = kh_plat_zalloc(sizeof(*o->links) * (k + 1));
	if (!o->links)
		return -ENOMEM;
	for (i = 0; i < s->n_all; i++)
		for (j = 0; j < s->all[i]->n_out; j++)
			kh_obs_link_init(o, &o->links[o->n_links++],
					 s->all[i]->out[j], s->all[i]);
	for (m = 0, k = 0; m < card->n_mesh; m++)
		for (y = 0; y < KH_MAP_MAX; y++)
			for (x = 0; x < KH_MAP_MAX; x++)
				if (card->mesh[m]->unit[y][x])
					k++;
	o->units = kh_plat_zalloc(sizeof(*o->units) * (k + 1));
	if (!o->units)
		return -ENOMEM;
	for (m = 0; m < card->n_mesh; m++)
		for (y = 0; y < KH_MAP_MAX; y++)
			for (x = 0; x < KH_MAP_MAX; x++) {
				struct kh_unit *u = card->mesh[m]->unit[y][x];
				struct kh_obs_unit *ou;

				if (!u)
					continue;
				ou = &o->units[o->n_units++];
				ou->obs = o;
				ou->u = u;
				ou->retire_code = 0xff;
				kh_check_unit_reset(ou);
			}
	return 0;
}

static int kh_obs_line(struct kh_obs *o, const char *line, size_t len,
		       char *err, size_t errlen);

int kh_obs_start(struct kh_sim_card *card, const struct kh_desc *d,
		 const struct kh_sim_opts *opts, char *err, size_t errlen)
{
	struct kh_obs *o = card->obs;
	unsigned int i;
	int e;

	e = kh_obs_tables(o);
	if (e)
		return e;
	if (opts) {
		o->violation = opts->violation;
		o->violation_ctx = opts->violation_ctx;
		if (opts->flags & KH_SIM_CHECK) {
			e = kh_check_enable(o, true);
			if (e)
				return e;
		}
	}
	for (i = 0; d && i < d->n_obs; i++) {
		e = kh_obs_line(o, d->obs[i].s, d->obs[i].n, err, errlen);
		if (e) {
			/* prefix the directive's line number */
			if (err && errlen) {
				char msg[200];

				snprintf(msg, sizeof(msg), "%s", err);
				snprintf(err, errlen, "line %u: %s",
					 d->obs[i].line, msg);
			}
			return e;
		}
	}
	kh_obs_attach(o);
	return 0;
}

void kh_obs_destroy(struct kh_sim_card *card)
{
	struct kh_obs *o = card->obs;

	if (!o)
		return;
	if (o->check_on && o->links)
		kh_check_audit(o);	/* the last word on lost flits */
	card->sched.post_cycle = NULL;
	kh_check_free(o);
	kh_trace_free(o);
	kh_inject_free(o);
	kh_plat_free(o->links);
	kh_plat_free(o->units);
	kh_plat_free(o);
	card->obs = NULL;
}

void kh_obs_mesh_reset(struct kh_sim_card *card, unsigned int mesh)
{
	struct kh_obs *o = card->obs;

	if (o && o->check_on)
		kh_check_mesh_reset(o, mesh);
}

void kh_obs_attach(struct kh_obs *o)
{
	struct kh_sim_card *card = o->card;
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

/* ---- links ---- */

void kh_obs_link_refused(struct kh_link *l, u64 now)
{
	struct kh_obs_link *ol = l->obs;

	if (ol->obs->check_on)
		kh_check_refused(ol, now);
}

unsigned int kh_obs_link_xfer(struct kh_link *l, u64 now,
			      struct kh_flit *copy)
{
	struct kh_obs_link *ol = l->obs;
	struct kh_obs *o = ol->obs;
	unsigned int act = 0;
	u32 t;

	if (o->check_on)
		act |= kh_check_xfer(ol, now);
	if (ol->knobs)
		act |= kh_inject_link_xfer(ol, now);
	t = kh_flit_tag(&l->reg);
	if (o->trace_on &&
	    (kh_trace_wants(o, KH_TRC_HOP) ||
	     (ol->cls == KH_LC_TIEOFF && kh_trace_wants(o, KH_TRC_DROP)) ||
	     ((act & (KH_XFER_DROP | KH_XFER_KEEP)) &&
	      kh_trace_wants(o, KH_TRC_INJECT)))) {
		struct kh_sim_trace_ev *ev = kh_trace_ev(o, KH_TR_HOP);
		const struct kh_flit *f = &l->reg;

		ev->mesh = l->mesh;
		ev->x = l->x;
		ev->y = l->y;
		ev->c = l->kind == KH_LINK_ROUTER ? l->port :
			l->kind == KH_LINK_ENDPOINT ? 0xff : 0xfe;
		ev->d = (kh_flit_get(f, KH_HDR_TYPE) & 0xf) |
			(ol->cls == KH_LC_DELIVER ? 0x10 : 0) |
			(ol->cls == KH_LC_TIEOFF ? 0x20 : 0) |
			(act & KH_XFER_DROP ? 0x40 : 0) |
			(act & KH_XFER_KEEP ? 0x80 : 0);
		ev->a = t;
		ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
			      kh_flit_get(f, KH_HDR_SRC_Y)) |
			(KH_YX(kh_flit_get(f, KH_HDR_DST_X),
			       kh_flit_get(f, KH_HDR_DST_Y)) << 8);
		ev->v = kh_flit_get(f, KH_HDR_TXN);
	}
	if (t && ol->cls != KH_LC_HOP && ol->cls != KH_LC_BIRTH) {
		/* an endpoint never sees a tag */
		*copy = l->reg;
		kh_flit_set_tag(copy, 0);
		act |= KH_XFER_COPY;
	}
	return act;
}

void kh_obs_link_taken(struct kh_link *l, u64 now)
{
	struct kh_obs_link *ol = l->obs;

	if (ol->obs->check_on)
		kh_check_taken(ol, now);
}

/* ---- units ---- */

void kh_obs_unit_name(const struct kh_obs_unit *ou, char *buf, size_t len)
{
	const struct kh_unit *u = ou->u;

	snprintf(buf, len, "mesh %u unit (%u,%u) %s", u->mesh->id, u->x, u->y,
		 u->type->token);
}

bool kh_obs_unit_busy(const struct kh_unit *u)
{
	const struct kh_obs_unit *ou = u->obs;

	return ou->knobs && kh_inject_unit_busy(ou, u->node.sched->now);
}

void kh_obs_unit_pre(struct kh_unit *u)
{
	struct kh_obs_unit *ou = u->obs;

	ou->retire_code = 0xff;
	ou->accept_traced = false;
	if (ou->obs->check_on)
		kh_check_unit_pre(ou);
}

void kh_obs_unit_send(struct kh_unit *u, const struct kh_flit *f, bool ready)
{
	struct kh_obs_unit *ou = u->obs;

	if (ou->obs->check_on)
		kh_check_unit_send(ou, f, ready);
}

void kh_obs_unit_pop(struct kh_unit *u, const struct kh_flit *head)
{
	struct kh_obs_unit *ou = u->obs;

	if (ou->obs->check_on)
		kh_check_unit_pop(ou, head);
}

static void kh_trace_accept(struct kh_obs_unit *ou)
{
	struct kh_unit *u = ou->u;
	struct kh_sim_trace_ev *ev = kh_trace_ev(ou->obs, KH_TR_ACCEPT);

	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->c = u->cur_txn;
	ev->d = u->cur_last;
	ou->accept_traced = true;
}

static void kh_trace_retire(struct kh_obs_unit *ou);

void kh_obs_unit_done(struct kh_unit *u)
{
	struct kh_obs_unit *ou = u->obs;
	struct kh_obs *o = ou->obs;

	if (ou->knobs && u->in_flight)
		kh_inject_unit_done(ou);
	if (kh_trace_wants(o, KH_TRC_UNIT))
		kh_trace_retire(ou);
	if (o->check_on)
		kh_check_unit_done(ou);
}

static void kh_trace_retire(struct kh_obs_unit *ou)
{
	struct kh_unit *u = ou->u;
	struct kh_sim_trace_ev *ev;

	if (u->p_accept)
		kh_trace_accept(ou);	/* the accept first, in one cycle */
	ev = kh_trace_ev(ou->obs, KH_TR_RETIRE);
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

void kh_obs_unit_post(struct kh_unit *u, bool unit_progress)
{
	struct kh_obs_unit *ou = u->obs;
	struct kh_obs *o = ou->obs;

	if (o->check_on)
		kh_check_unit_post(ou, unit_progress);
	if (u->p_accept && !ou->accept_traced && kh_trace_wants(o, KH_TRC_UNIT))
		kh_trace_accept(ou);
}

void kh_obs_unit_ctrl(struct kh_unit *u, const struct kh_flit *req,
		      bool dropped)
{
	struct kh_obs_unit *ou = u->obs;
	struct kh_obs *o = ou->obs;

	if (kh_trace_wants(o, KH_TRC_CTRL)) {
		struct kh_sim_trace_ev *ev =
			kh_trace_ev(o, dropped ? KH_TR_CTRL_LOST : KH_TR_CTRL_REQ);

		ev->mesh = u->mesh->id;
		ev->x = u->x;
		ev->y = u->y;
		ev->c = kh_flit_get(req, KH_CTRL_INDEX);
		ev->d = kh_flit_get(req, KH_HDR_TXN);
		ev->b = KH_YX(kh_flit_get(req, KH_HDR_SRC_X),
			      kh_flit_get(req, KH_HDR_SRC_Y));
	}
	if (!dropped && ou->knobs)
		kh_inject_unit_ctrl(ou, &u->ctrl_reply);
}

bool kh_obs_unit_ctrl_send(struct kh_unit *u)
{
	struct kh_obs_unit *ou = u->obs;
	struct kh_obs *o = ou->obs;
	bool lost = ou->ctrl_drop;

	ou->ctrl_drop = false;
	if (kh_trace_wants(o, KH_TRC_CTRL)) {
		struct kh_sim_trace_ev *ev = kh_trace_ev(o, KH_TR_CTRL_REPLY);
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

void kh_obs_unit_drop(struct kh_unit *u, const struct kh_flit *f)
{
	struct kh_obs_unit *ou = u->obs;
	struct kh_sim_trace_ev *ev;

	if (!kh_trace_wants(ou->obs, KH_TRC_DROP))
		return;
	ev = kh_trace_ev(ou->obs, KH_TR_UNIT_DROP);
	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->d = kh_flit_get(f, KH_HDR_TYPE);
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y));
}

void kh_obs_unit_reset(struct kh_unit *u)
{
	struct kh_obs_unit *ou = u->obs;

	ou->hung = false;
	ou->ctrl_drop = false;
	kh_check_unit_reset(ou);
}

/* ---- MAG, orchestrator, host DMA ---- */

void kh_obs_mem_read(struct kh_mag_port *mp, u64 a, u8 *buf)
{
	struct kh_obs *o = mp->mag->mesh->obs;

	if (o->mesh[mp->mag->mesh->id].dram)
		kh_inject_mem_read(o, mp, a, buf);
}

bool kh_obs_mem_write(struct kh_mag_port *mp, u64 a)
{
	struct kh_obs *o = mp->mag->mesh->obs;

	return o->mesh[mp->mag->mesh->id].dram &&
	       kh_inject_mem_write(o, mp, a);
}

void kh_obs_mem_nodata(struct kh_mag_port *mp, const struct kh_flit *f)
{
	struct kh_obs *o = mp->mag->mesh->obs;
	struct kh_sim_trace_ev *ev;

	if (!kh_trace_wants(o, KH_TRC_DROP))
		return;
	ev = kh_trace_ev(o, KH_TR_MEM_NODATA);
	ev->mesh = mp->mag->mesh->id;
	ev->x = mp->x;
	ev->y = mp->y;
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y));
}

void kh_obs_orch(struct kh_orch *orc, unsigned int what,
		 const struct kh_flit *f)
{
	struct kh_mesh *m = orc->mag->mesh;
	struct kh_obs *o = m->obs;
	struct kh_sim_trace_ev *ev;
	u32 cls = what == KH_OBS_RX_DROP ? KH_TRC_DROP : KH_TRC_ORCH;
	static const u8 kind[] = {
		[KH_OBS_DISPATCH] = KH_TR_DISPATCH, [KH_OBS_MBOX] = KH_TR_MBOX,
		[KH_OBS_SIGNAL] = KH_TR_SIGNAL, [KH_OBS_RX_DROP] = KH_TR_RX_DROP,
	};

	if (what >= KH_ARRAY_SIZE(kind) || !kh_trace_wants(o, cls))
		return;
	ev = kh_trace_ev(o, kind[what]);
	ev->mesh = m->id;
	ev->c = kh_flit_get(f, KH_HDR_TXN);
	ev->d = kh_flit_get(f, KH_HDR_TYPE);
	if (what == KH_OBS_DISPATCH || what == KH_OBS_MBOX) {
		ev->x = kh_flit_get(f, KH_HDR_DST_X);
		ev->y = kh_flit_get(f, KH_HDR_DST_Y);
		ev->b = orc->left;
	} else {
		ev->x = kh_flit_get(f, KH_HDR_SRC_X);
		ev->y = kh_flit_get(f, KH_HDR_SRC_Y);
	}
	if (what == KH_OBS_SIGNAL) {
		ev->c = kh_flit_get(f, KH_SIG_CODE);
		ev->a = kh_flit_get(f, KH_SIG_ARG);
	}
}

void kh_obs_dma(struct kh_sim_card *card, bool write, u64 addr, size_t len,
		int result)
{
	struct kh_obs *o = card->obs;
	struct kh_sim_trace_ev *ev;

	if (!kh_trace_wants(o, KH_TRC_DMA))
		return;
	ev = kh_trace_ev(o, KH_TR_DMA);
	ev->v = addr;
	ev->a = len > 0xffffffffULL ? 0xffffffffu : (u32)len;
	ev->c = write;
	ev->d = result != 0;
	ev->e = card->timing.dma_cycles +
		(u32)((len + KH_HOST_GRANULE - 1) / KH_HOST_GRANULE);
	ev->mesh = 0xff;
}

/* ---- commands ---- */

static int kh_check_command(struct kh_obs *o, const struct kh_words *w,
			    unsigned int first, char *err, size_t errlen)
{
	u64 b[3] = { KH_CHK_RECV_BOUND, KH_CHK_UNKNOWN_BOUND,
		     KH_CHK_RETIRE_BOUND };
	static const char *const bn[3] = {
		"recv_bound", "unknown_bound", "retire_bound",
	};
	struct kh_word k, v;
	unsigned int i, j;
	int e;

	if (first < w->n && kh_word_is(&w->w[first], "off") &&
	    w->n == first + 1) {
		e = kh_check_enable(o, false);
		kh_obs_attach(o);
		return e;
	}
	if (first >= w->n || !kh_word_is(&w->w[first], "on")) {
		if (err && errlen)
			snprintf(err, errlen, "check: on [recv_bound=C] [unknown_bound=C] [retire_bound=C], or off");
		return -EINVAL;
	}
	for (i = first + 1; i < w->n; i++) {
		if (!kh_word_kv(&w->w[i], &k, &v))
			j = 3;
		else
			for (j = 0; j < 3 && !kh_word_is(&k, bn[j]); j++)
				;
		if (j == 3 || !kh_word_u64(&v, &b[j]) || !b[j]) {
			if (err && errlen)
				snprintf(err, errlen, "check on: '%.*s' is not recv_bound=C, unknown_bound=C or retire_bound=C (C > 0)",
					 kh_word_len(&w->w[i]), w->w[i].s);
			return -EINVAL;
		}
	}
	e = kh_check_enable(o, true);
	if (e) {
		if (err && errlen)
			snprintf(err, errlen, "check on: out of memory");
		return e;
	}
	kh_check_bounds(o, b[0], b[1], b[2]);
	kh_obs_attach(o);
	return 0;
}

static int kh_obs_words(struct kh_obs *o, const struct kh_words *w,
			unsigned int first, char *err, size_t errlen)
{
	const struct kh_word *v = &w->w[first];

	if (err && errlen)
		err[0] = 0;
	if (first >= w->n) {
		if (err && errlen)
			snprintf(err, errlen, "empty command (inject, check or trace)");
		return -EINVAL;
	}
	if (kh_word_is(v, "inject"))
		return kh_inject_command(o, w, first + 1, err, errlen);
	if (kh_word_is(v, "check"))
		return kh_check_command(o, w, first + 1, err, errlen);
	if (kh_word_is(v, "trace"))
		return kh_trace_command(o, w, first + 1, err, errlen);
	if (err && errlen)
		snprintf(err, errlen, "unknown command '%.*s' (inject, check or trace)",
			 kh_word_len(v), v->s);
	return -EINVAL;
}

static int kh_obs_line(struct kh_obs *o, const char *line, size_t len,
		       char *err, size_t errlen)
{
	struct kh_words w;

	if (kh_cmd_split(line, len, &w)) {
		if (err && errlen)
			snprintf(err, errlen, "too many words (at most %u)",
				 KH_CMD_WORDS);
		return -EINVAL;
	}
	return kh_obs_words(o, &w, 0, err, errlen);
}

int kh_sim_command(struct kh_sim_card *card, const char *line, char *err,
		   size_t errlen)
{
	if (!line) {
		if (err && errlen)
			snprintf(err, errlen, "no command");
		return -EINVAL;
	}
	return kh_obs_line(card->obs, line, strlen(line), err, errlen);
}

int kh_sim_inject(struct kh_sim_card *card, const char *spec, char *err,
		  size_t errlen)
{
	struct kh_words w;

	if (!spec || kh_cmd_split(spec, strlen(spec), &w)) {
		if (err && errlen)
			snprintf(err, errlen, "inject: no spec, or too many words");
		return -EINVAL;
	}
	if (w.n && kh_word_is(&w.w[0], "inject"))
		return kh_inject_command(card->obs, &w, 1, err, errlen);
	return kh_inject_command(card->obs, &w, 0, err, errlen);
}

int kh_sim_card_create_flags(const char *desc, unsigned int flags,
			     struct kh_sim_card **out, char *err,
			     size_t errlen)
{
	struct kh_sim_opts o;

	memset(&o, 0, sizeof(o));
	o.flags = flags;
	return kh_sim_card_create_opts(desc, &o, out, err, errlen);
}

/* ---- dumps ---- */

size_t kh_sim_dump_knobs(struct kh_sim_card *card, char *buf, size_t len)
{
	struct kh_tbuf tb;

	kh_tb_init(&tb, buf, len);
	kh_inject_list(card->obs, &tb);
	return tb.need;
}

u64 kh_sim_check_report(struct kh_sim_card *card, char *buf, size_t len)
{
	struct kh_tbuf tb;

	kh_tb_init(&tb, buf, len);
	kh_check_report(card->obs, &tb);
	return kh_check_violations(card->obs);
}

size_t kh_sim_trace_text(struct kh_sim_card *card, u64 *pos, char *buf,
			 size_t len)
{
	struct kh_tbuf tb;

	kh_tb_init(&tb, buf, len);
	kh_trace_text(card->obs, pos, &tb);
	return tb.pos;
}

u64 kh_sim_check_count(struct kh_sim_card *card, unsigned int what)
{
	return kh_check_count(card->obs, what);
}

u64 kh_sim_check_audit(struct kh_sim_card *card)
{
	kh_check_audit(card->obs);
	return kh_check_violations(card->obs);
}

static struct kh_obs_unit *kh_obs_unit_find(struct kh_obs *o,
					    const struct kh_unit *u)
{
	unsigned int i;

	for (i = 0; i < o->n_units; i++)
		if (o->units[i].u == u)
			return &o->units[i];
	return NULL;
}

int kh_sim_unit_stats(struct kh_sim_card *card, unsigned int mesh,
		      unsigned int x, unsigned int y,
		      struct kh_sim_unit_stats *st)
{
	struct kh_unit *u = kh_sim_unit_at(card, mesh, x, y);
	struct kh_obs_unit *ou;

	memset(st, 0, sizeof(*st));
	if (!u)
		return -ENOENT;
	st->accepted = u->n_accepted;
	st->retired = u->n_retired;
	st->lost_completions = u->lost_completions;
	st->signals = u->n_signals;
	st->flits_out = u->n_sent;
	st->flits_in = u->n_taken;
	st->dropped = u->dropped;
	st->ctrl_dropped = u->ctrl_dropped;
	st->busy_cycles = kh_unit_busy_cycles(u);
	ou = kh_obs_unit_find(card->obs, u);
	if (ou) {
		st->faults_injected = ou->faults_injected;
		st->hangs_injected = ou->hangs_injected;
		st->ctrl_corrupted = ou->ctrl_corrupted;
		st->busy_forced = kh_inject_busy_cycles(ou, card->sched.now);
	}
	return 0;
}

size_t kh_sim_dump_stats(struct kh_sim_card *card, char *buf, size_t len)
{
	struct kh_obs *o = card->obs;
	struct kh_sim_unit_stats us;
	struct kh_sim_stats st;
	struct kh_tbuf tb;
	unsigned int m, i;

	kh_tb_init(&tb, buf, len);
	kh_tb_printf(&tb, "card cycles=%llu stepped=%llu skipped=%llu meshes=%u clock_mhz=%u checker=%s trace=%s knobs=%u\n",
		     (unsigned long long)card->sched.now,
		     (unsigned long long)card->sched.cycles_stepped,
		     (unsigned long long)card->sched.cycles_skipped,
		     card->n_mesh, card->clock_mhz,
		     o->check_on ? "on" : "off", o->trace_on ? "on" : "off",
		     o->next_knob);
	for (m = 0; m < card->n_mesh; m++) {
		kh_sim_get_stats(card, m, &st);
		kh_tb_printf(&tb, "mesh %u flits=%llu stalls=%llu tieoff_dropped=%llu ctrl_dropped=%llu unit_dropped=%llu lost_completions=%llu signals=%llu dispatched=%llu agent_rx_dropped=%llu\n",
			     m, (unsigned long long)st.link_flits,
			     (unsigned long long)st.link_stalls,
			     (unsigned long long)st.tieoff_dropped,
			     (unsigned long long)st.ctrl_dropped,
			     (unsigned long long)st.unit_dropped,
			     (unsigned long long)st.lost_completions,
			     (unsigned long long)st.signals,
			     (unsigned long long)st.dispatched,
			     (unsigned long long)st.agent_rx_dropped);
		kh_tb_printf(&tb, "mesh %u mag_reads=%llu mag_writes=%llu mag_data_dropped=%llu mag_slot_stalls=%llu mag_out_of_range=%llu dram_rd_errors=%llu dram_wr_errors=%llu dram_pages=%llu resets=%llu\n",
			     m, (unsigned long long)st.mag_reads,
			     (unsigned long long)st.mag_writes,
			     (unsigned long long)st.mag_data_dropped,
			     (unsigned long long)st.mag_slot_stalls,
			     (unsigned long long)st.mag_out_of_range,
			     (unsigned long long)o->mesh[m].dram_rd_errors,
			     (unsigned long long)o->mesh[m].dram_wr_errors,
			     (unsigned long long)st.dram_pages,
			     (unsigned long long)st.resets);
	}
	for (i = 0; i < o->n_links; i++) {
		const struct kh_obs_link *ol = &o->links[i];
		const struct kh_link *l = ol->l;

		kh_tb_printf(&tb, "link %u %s flits=%llu stalls=%llu drops=%llu dups=%llu%s\n",
			     l->mesh, ol->name, (unsigned long long)l->flits,
			     (unsigned long long)l->stalls,
			     (unsigned long long)l->drops,
			     (unsigned long long)l->dups,
			     ol->cls == KH_LC_TIEOFF ? " tieoff" : "");
	}
	for (i = 0; i < o->n_units; i++) {
		const struct kh_unit *u = o->units[i].u;

		kh_sim_unit_stats(card, u->mesh->id, u->x, u->y, &us);
		kh_tb_printf(&tb, "unit %u %u,%u %s accepted=%llu retired=%llu lost_completions=%llu signals=%llu sent=%llu received=%llu dropped=%llu ctrl_dropped=%llu busy_cycles=%llu faults_injected=%llu hangs_injected=%llu ctrl_corrupted=%llu busy_forced=%llu\n",
			     u->mesh->id, u->x, u->y, u->type->token,
			     (unsigned long long)us.accepted,
			     (unsigned long long)us.retired,
			     (unsigned long long)us.lost_completions,
			     (unsigned long long)us.signals,
			     (unsigned long long)us.flits_out,
			     (unsigned long long)us.flits_in,
			     (unsigned long long)us.dropped,
			     (unsigned long long)us.ctrl_dropped,
			     (unsigned long long)us.busy_cycles,
			     (unsigned long long)us.faults_injected,
			     (unsigned long long)us.hangs_injected,
			     (unsigned long long)us.ctrl_corrupted,
			     (unsigned long long)us.busy_forced);
	}
	if (o->chk)
		kh_tb_printf(&tb, "checker violations=%llu born=%llu delivered=%llu lost_injected=%llu dup_injected=%llu\n",
			     (unsigned long long)kh_check_violations(o),
			     (unsigned long long)kh_check_count(o, KH_CHK_BORN),
			     (unsigned long long)kh_check_count(o, KH_CHK_DELIVERED),
			     (unsigned long long)kh_check_count(o, KH_CHK_LOST_INJ),
			     (unsigned long long)kh_check_count(o, KH_CHK_DUP_INJ));
	return tb.need;
}

/* ---- the benchmark ---- */

void kh_sim_set_step_all(struct kh_sim_card *card, bool on)
{
	unsigned int i;

	card->sched.step_all = on;
	if (on)
		for (i = 0; i < card->sched.n_all; i++)
			kh_node_wake(card->sched.all[i]);
}
