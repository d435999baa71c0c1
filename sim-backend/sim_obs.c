// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Observability: the glue between the model and its observers (the
 * protocol checker, fault injection, the event trace), the commands that
 * drive them (docs/spec/fault-injection.md), the text dumps, and the
 * benchmark's stepping switch.
 *
 * The observers keep one record per link (struct ksim_obs_link) and per
 * unit (struct ksim_obs_unit), built once the card is wired, and point the
 * model's objects at them only while something observes them
 * (ksim_obs_attach()).
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

static const char ksim_port_letter[KSIM_PORTS] = { 'N', 'E', 'S', 'W', 'L' };

/* ---- text buffers ---- */

void ksim_tb_init(struct ksim_tbuf *t, char *b, size_t len)
{
	t->b = b;
	t->len = len;
	t->pos = 0;
	t->need = 0;
	if (b && len)
		b[0] = 0;
}

void ksim_tb_printf(struct ksim_tbuf *t, const char *fmt, ...)
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

static bool ksim_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

int ksim_cmd_split(const char *line, size_t len, struct ksim_words *w)
{
	size_t i = 0, b;

	w->n = 0;
	while (i < len && line[i] && line[i] != '#') {
		while (i < len && line[i] && ksim_blank(line[i]))
			i++;
		if (i >= len || !line[i] || line[i] == '#')
			break;
		b = i;
		while (i < len && line[i] && line[i] != '#' && !ksim_blank(line[i]))
			i++;
		if (w->n == KSIM_CMD_WORDS)
			return -E2BIG;
		w->w[w->n].s = line + b;
		w->w[w->n].n = i - b;
		w->n++;
	}
	return 0;
}

bool ksim_word_is(const struct ksim_word *w, const char *lit)
{
	size_t n = strlen(lit);

	return w->n == n && !memcmp(w->s, lit, n);
}

bool ksim_word_u64(const struct ksim_word *w, u64 *v)
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

bool ksim_word_kv(const struct ksim_word *w, struct ksim_word *k,
		struct ksim_word *v)
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

bool ksim_word_xy(const struct ksim_word *w, unsigned int *x, unsigned int *y)
{
	struct ksim_word a = *w, b;
	u64 vx, vy;
	size_t i;

	for (i = 0; i < w->n && w->s[i] != ','; i++)
		;
	if (i == w->n)
		return false;
	a.n = i;
	b.s = w->s + i + 1;
	b.n = w->n - i - 1;
	if (!ksim_word_u64(&a, &vx) || !ksim_word_u64(&b, &vy) || vx > 15 ||
	    vy > 15)
		return false;
	*x = (unsigned int)vx;
	*y = (unsigned int)vy;
	return true;
}

int ksim_word_len(const struct ksim_word *w)
{
	return (int)(w->n < 40 ? w->n : 40);
}

/* ---- life cycle ---- */

static unsigned int ksim_obs_tick(struct ksim_node *n)
{
	struct ksim_obs *o = ksim_container_of(n, struct ksim_obs, node);

	/* a busy knob's edge: re-arm for the next one */
	ksim_inject_timer(o);
	return 0;
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
			 ksim_port_letter[l->port]);
	else if (l->kind == KSIM_LINK_ENDPOINT &&
		 l != ksim_l2_link(card, l->mesh, l->x, l->y, false))
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

static int ksim_obs_line(struct ksim_obs *o, const char *line, size_t len,
		       char *err, size_t errlen);

int ksim_obs_start(struct ksim_card *card, const struct ksim_desc *d,
		 const struct ksim_opts *opts, char *err, size_t errlen)
{
	struct ksim_obs *o = card->obs;
	unsigned int i;
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
	for (i = 0; d && i < d->n_obs; i++) {
		e = ksim_obs_line(o, d->obs[i].s, d->obs[i].n, err, errlen);
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

/* ---- commands ---- */

static int ksim_check_command(struct ksim_obs *o, const struct ksim_words *w,
			    unsigned int first, char *err, size_t errlen)
{
	u64 b[3] = { KSIM_CHK_RECV_BOUND, KSIM_CHK_UNKNOWN_BOUND,
		     KSIM_CHK_RETIRE_BOUND };
	static const char *const bn[3] = {
		"recv_bound", "unknown_bound", "retire_bound",
	};
	struct ksim_word k, v;
	unsigned int i, j;
	int e;

	if (first < w->n && ksim_word_is(&w->w[first], "off") &&
	    w->n == first + 1) {
		e = ksim_check_enable(o, false);
		ksim_obs_attach(o);
		return e;
	}
	if (first >= w->n || !ksim_word_is(&w->w[first], "on")) {
		if (err && errlen)
			snprintf(err, errlen, "check: on [recv_bound=C] [unknown_bound=C] [retire_bound=C], or off");
		return -EINVAL;
	}
	for (i = first + 1; i < w->n; i++) {
		if (!ksim_word_kv(&w->w[i], &k, &v))
			j = 3;
		else
			for (j = 0; j < 3 && !ksim_word_is(&k, bn[j]); j++)
				;
		if (j == 3 || !ksim_word_u64(&v, &b[j]) || !b[j]) {
			if (err && errlen)
				snprintf(err, errlen, "check on: '%.*s' is not recv_bound=C, unknown_bound=C or retire_bound=C (C > 0)",
					 ksim_word_len(&w->w[i]), w->w[i].s);
			return -EINVAL;
		}
	}
	e = ksim_check_enable(o, true);
	if (e) {
		if (err && errlen)
			snprintf(err, errlen, "check on: out of memory");
		return e;
	}
	ksim_check_bounds(o, b[0], b[1], b[2]);
	ksim_obs_attach(o);
	return 0;
}

static int ksim_obs_words(struct ksim_obs *o, const struct ksim_words *w,
			unsigned int first, char *err, size_t errlen)
{
	const struct ksim_word *v = &w->w[first];

	if (err && errlen)
		err[0] = 0;
	if (first >= w->n) {
		if (err && errlen)
			snprintf(err, errlen, "empty command (inject, check or trace)");
		return -EINVAL;
	}
	if (ksim_word_is(v, "inject"))
		return ksim_inject_command(o, w, first + 1, err, errlen);
	if (ksim_word_is(v, "check"))
		return ksim_check_command(o, w, first + 1, err, errlen);
	if (ksim_word_is(v, "trace"))
		return ksim_trace_command(o, w, first + 1, err, errlen);
	if (err && errlen)
		snprintf(err, errlen, "unknown command '%.*s' (inject, check or trace)",
			 ksim_word_len(v), v->s);
	return -EINVAL;
}

static int ksim_obs_line(struct ksim_obs *o, const char *line, size_t len,
		       char *err, size_t errlen)
{
	struct ksim_words w;

	if (ksim_cmd_split(line, len, &w)) {
		if (err && errlen)
			snprintf(err, errlen, "too many words (at most %u)",
				 KSIM_CMD_WORDS);
		return -EINVAL;
	}
	return ksim_obs_words(o, &w, 0, err, errlen);
}

int ksim_command(struct ksim_card *card, const char *line, char *err,
		   size_t errlen)
{
	if (!line) {
		if (err && errlen)
			snprintf(err, errlen, "no command");
		return -EINVAL;
	}
	return ksim_obs_line(card->obs, line, strlen(line), err, errlen);
}

int ksim_inject(struct ksim_card *card, const char *spec, char *err,
		  size_t errlen)
{
	struct ksim_words w;

	if (!spec || ksim_cmd_split(spec, strlen(spec), &w)) {
		if (err && errlen)
			snprintf(err, errlen, "inject: no spec, or too many words");
		return -EINVAL;
	}
	if (w.n && ksim_word_is(&w.w[0], "inject"))
		return ksim_inject_command(card->obs, &w, 1, err, errlen);
	return ksim_inject_command(card->obs, &w, 0, err, errlen);
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

/* ---- dumps ---- */

size_t ksim_dump_knobs(struct ksim_card *card, char *buf, size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_inject_list(card->obs, &tb);
	return tb.need;
}

u64 ksim_check_report(struct ksim_card *card, char *buf, size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_chk_report(card->obs, &tb);
	return ksim_check_violations(card->obs);
}

size_t ksim_trace_text(struct ksim_card *card, u64 *pos, char *buf,
			 size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_trace_format(card->obs, pos, &tb);
	return tb.pos;
}

u64 ksim_check_count(struct ksim_card *card, unsigned int what)
{
	return ksim_chk_count(card->obs, what);
}

u64 ksim_check_audit(struct ksim_card *card)
{
	ksim_chk_audit(card->obs);
	return ksim_check_violations(card->obs);
}

static struct ksim_obs_unit *ksim_obs_unit_find(struct ksim_obs *o,
					    const struct ksim_unit *u)
{
	unsigned int i;

	for (i = 0; i < o->n_units; i++)
		if (o->units[i].u == u)
			return &o->units[i];
	return NULL;
}

int ksim_unit_stats(struct ksim_card *card, unsigned int mesh,
		      unsigned int x, unsigned int y,
		      struct ksim_unit_stats *st)
{
	struct ksim_unit *u = ksim_unit_at(card, mesh, x, y);
	struct ksim_obs_unit *ou;

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
	st->busy_cycles = ksim_unit_busy_cycles(u);
	ou = ksim_obs_unit_find(card->obs, u);
	if (ou) {
		st->faults_injected = ou->faults_injected;
		st->hangs_injected = ou->hangs_injected;
		st->ctrl_corrupted = ou->ctrl_corrupted;
		st->busy_forced = ksim_inject_busy_cycles(ou, card->sched.now);
	}
	return 0;
}

size_t ksim_dump_stats(struct ksim_card *card, char *buf, size_t len)
{
	struct ksim_obs *o = card->obs;
	struct ksim_unit_stats us;
	struct ksim_stats st;
	struct ksim_tbuf tb;
	unsigned int m, i;

	ksim_tb_init(&tb, buf, len);
	ksim_tb_printf(&tb, "card cycles=%llu stepped=%llu skipped=%llu meshes=%u clock_mhz=%u checker=%s trace=%s knobs=%u\n",
		     (unsigned long long)card->sched.now,
		     (unsigned long long)card->sched.cycles_stepped,
		     (unsigned long long)card->sched.cycles_skipped,
		     card->n_mesh, card->clock_mhz,
		     o->check_on ? "on" : "off", o->trace_on ? "on" : "off",
		     o->next_knob);
	for (m = 0; m < card->n_mesh; m++) {
		ksim_get_stats(card, m, &st);
		ksim_tb_printf(&tb, "mesh %u flits=%llu stalls=%llu tieoff_dropped=%llu ctrl_dropped=%llu unit_dropped=%llu lost_completions=%llu signals=%llu dispatched=%llu agent_rx_dropped=%llu\n",
			     m, (unsigned long long)st.link_flits,
			     (unsigned long long)st.link_stalls,
			     (unsigned long long)st.tieoff_dropped,
			     (unsigned long long)st.ctrl_dropped,
			     (unsigned long long)st.unit_dropped,
			     (unsigned long long)st.lost_completions,
			     (unsigned long long)st.signals,
			     (unsigned long long)st.dispatched,
			     (unsigned long long)st.agent_rx_dropped);
		ksim_tb_printf(&tb, "mesh %u mag_reads=%llu mag_writes=%llu mag_data_dropped=%llu mag_slot_stalls=%llu mag_out_of_range=%llu dram_rd_errors=%llu dram_wr_errors=%llu dram_pages=%llu resets=%llu\n",
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
		const struct ksim_obs_link *ol = &o->links[i];
		const struct ksim_link *l = ol->l;

		ksim_tb_printf(&tb, "link %u %s flits=%llu stalls=%llu drops=%llu dups=%llu%s\n",
			     l->mesh, ol->name, (unsigned long long)l->flits,
			     (unsigned long long)l->stalls,
			     (unsigned long long)l->drops,
			     (unsigned long long)l->dups,
			     ol->cls == KSIM_LC_TIEOFF ? " tieoff" : "");
	}
	for (i = 0; i < o->n_units; i++) {
		const struct ksim_unit *u = o->units[i].u;

		ksim_unit_stats(card, u->mesh->id, u->x, u->y, &us);
		ksim_tb_printf(&tb, "unit %u %u,%u %s accepted=%llu retired=%llu lost_completions=%llu signals=%llu sent=%llu received=%llu dropped=%llu ctrl_dropped=%llu busy_cycles=%llu faults_injected=%llu hangs_injected=%llu ctrl_corrupted=%llu busy_forced=%llu\n",
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
		ksim_tb_printf(&tb, "checker violations=%llu born=%llu delivered=%llu lost_injected=%llu dup_injected=%llu\n",
			     (unsigned long long)ksim_check_violations(o),
			     (unsigned long long)ksim_chk_count(o, KSIM_CHK_BORN),
			     (unsigned long long)ksim_chk_count(o, KSIM_CHK_DELIVERED),
			     (unsigned long long)ksim_chk_count(o, KSIM_CHK_LOST_INJ),
			     (unsigned long long)ksim_chk_count(o, KSIM_CHK_DUP_INJ));
	return tb.need;
}

/* ---- the benchmark ---- */

void ksim_set_step_all(struct ksim_card *card, bool on)
{
	unsigned int i;

	card->sched.step_all = on;
	if (on)
		for (i = 0; i < card->sched.n_all; i++)
			ksim_node_wake(card->sched.all[i]);
}
