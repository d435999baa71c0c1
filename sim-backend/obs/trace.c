// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The event trace (docs/spec/fault-injection.md "trace", docs/model.md
 * "Observability"): a ring of fixed-size events, a power of two long, the
 * oldest overwritten when it is full; and one text line per event.  An
 * observer (obs/obs.h), the last one registered: it records what the
 * parts report and what the other observers did (a violation, a knob
 * firing: ksim_obs_event()), after they did it.
 */
#include "trace.h"
#include "base.h"
#include "inject.h"
#include "mag.h"
#include "router.h"
#include "util.h"

struct ksim_trace {
	struct ksim_observer ob;	/* registered with the hub */
	bool on;
	u32 cls;		/* KSIM_TRC_*: the classes recorded */
	u32 mask;		/* size - 1 */
	u64 head;		/* events ever written */
	struct ksim_trace_ev *ev;	/* the ring; NULL until the first on */
};

static const char *const ksim_class_name[] = {
	"hop", "unit", "ctrl", "orch", "dma", "drop", "inject", "check", "reg",
};

static struct ksim_trace *ksim_trace_of(struct ksim_observer *ob)
{
	return ksim_container_of(ob, struct ksim_trace, ob);
}

static bool ksim_trace_wants(const struct ksim_trace *t, u32 cls)
{
	return t->on && (t->cls & cls);
}

static int ksim_trace_alloc(struct ksim_trace *t, u64 want)
{
	u32 size = 1;

	if (want > KSIM_TRACE_MAX)
		want = KSIM_TRACE_MAX;
	while (size < want)
		size <<= 1;
	if (t->ev && t->mask + 1 == size)
		return 0;
	ksim_plat_free(t->ev);
	t->ev = ksim_plat_zalloc(sizeof(*t->ev) * size);
	t->head = 0;
	t->mask = size - 1;
	if (!t->ev) {
		t->mask = 0;
		t->on = false;
		return -ENOMEM;
	}
	return 0;
}

static void ksim_trace_fini(struct ksim_observer *ob)
{
	struct ksim_trace *t = ksim_trace_of(ob);

	ksim_plat_free(t->ev);
	ksim_plat_free(t);
}

/* "hop,unit,..." -> KSIM_TRC_* */
static int ksim_trace_classes(const struct ksim_word *val, u32 *mask, char *err,
			    size_t errlen)
{
	struct ksim_word rest = *val, one;
	unsigned int j;
	bool more;

	*mask = 0;
	do {
		more = ksim_word_cut(&rest, ',', &one, &rest);
		for (j = 0; j < KSIM_ARRAY_SIZE(ksim_class_name); j++)
			if (ksim_word_is(&one, ksim_class_name[j]))
				break;
		if (ksim_word_is(&one, "all"))
			*mask = KSIM_TRC_ALL;
		else if (j < KSIM_ARRAY_SIZE(ksim_class_name))
			*mask |= 1u << j;
		else
			return ksim_refuse(err, errlen,
					   "trace on: unknown event class '%.*s' (hop, unit, ctrl, orch, dma, drop, inject, check, all, reg)",
					   ksim_cmd_quote(&one), one.s);
	} while (more);
	return 0;
}

static int ksim_trace_command(struct ksim_observer *ob,
			      const struct ksim_words *w, unsigned int first,
			      char *err, size_t errlen)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_obs *o = t->ob.obs;
	struct ksim_word key, val;
	u64 size = t->ev ? t->mask + 1 : KSIM_TRACE_DEFAULT;
	u32 mask = KSIM_TRC_ALL;
	unsigned int i;
	int e;

	if (first >= w->n)
		return ksim_refuse(err, errlen, "trace: on, off or clear?");
	if (ksim_word_is(&w->w[first], "off") ||
	    ksim_word_is(&w->w[first], "clear")) {
		if (w->n != first + 1)
			return ksim_refuse(err, errlen, "trace off/clear: takes nothing more");
		if (ksim_word_is(&w->w[first], "off"))
			t->on = false;
		else
			t->head = 0;
		ksim_obs_attach(o);
		return 0;
	}
	if (!ksim_word_is(&w->w[first], "on"))
		return ksim_refuse(err, errlen, "trace: on, off or clear?");
	for (i = first + 1; i < w->n; i++) {
		if (!ksim_word_kv(&w->w[i], &key, &val))
			return ksim_refuse(err, errlen, "trace on: options are size=N and events=LIST");
		if (ksim_word_is(&key, "size")) {
			if (!ksim_word_num(&val, KSIM_TRACE_MAX, &size) || !size)
				return ksim_refuse(err, errlen, "trace on: size is 1..4194304 events");
		} else if (ksim_word_is(&key, "events")) {
			e = ksim_trace_classes(&val, &mask, err, errlen);
			if (e)
				return e;
		} else {
			return ksim_refuse(err, errlen, "trace on: options are size=N and events=LIST");
		}
	}
	e = ksim_trace_alloc(t, size);
	if (e)
		return ksim_refuse(err, errlen, "trace on: out of memory");
	t->cls = mask;
	t->on = true;
	ksim_obs_attach(o);
	return 0;
}

/* The next event slot, kind and cycle filled in, the rest zero. */
static struct ksim_trace_ev *ksim_trace_new_ev(struct ksim_trace *t,
					       unsigned int kind)
{
	struct ksim_trace_ev *ev = &t->ev[t->head++ & t->mask];

	memset(ev, 0, sizeof(*ev));
	ev->cycle = ksim_obs_now(t->ob.obs);
	ev->kind = kind;
	return ev;
}

void ksim_trace_ring_bounds(const struct ksim_trace *t, u64 *first, u64 *end)
{
	*first = *end = 0;
	if (!t->ev)
		return;
	*end = t->head;
	*first = t->head > (u64)t->mask + 1 ? t->head - t->mask - 1 : 0;
}

int ksim_trace_ring_get(const struct ksim_trace *t, u64 idx,
			struct ksim_trace_ev *ev)
{
	u64 first, end;

	ksim_trace_ring_bounds(t, &first, &end);
	if (idx < first || idx >= end)
		return -ENOENT;
	*ev = t->ev[idx & t->mask];
	return 0;
}

/* ---- text ---- */

static void ksim_link_name(const struct ksim_trace_ev *ev, char *b,
			 size_t n)
{
	if (ev->c < KSIM_PORTS)
		snprintf(b, n, "R%u,%u.%c", ev->x, ev->y, ksim_port_letter(ev->c));
	else if (ev->c == 0xff)
		snprintf(b, n, "%u,%u", ev->x, ev->y);
	else
		snprintf(b, n, "%u,%u.l2", ev->x, ev->y);
}

static const char *const ksim_tr_word[KSIM_TR_KINDS] = {
	[KSIM_TR_HOP] = "hop", [KSIM_TR_ACCEPT] = "accept",
	[KSIM_TR_RETIRE] = "retire", [KSIM_TR_CTRL_REQ] = "ctrl_req",
	[KSIM_TR_CTRL_LOST] = "ctrl_lost", [KSIM_TR_CTRL_REPLY] = "ctrl_reply",
	[KSIM_TR_DISPATCH] = "dispatch", [KSIM_TR_MBOX] = "mbox",
	[KSIM_TR_SIGNAL] = "signal", [KSIM_TR_RX_DROP] = "drop",
	[KSIM_TR_UNIT_DROP] = "drop", [KSIM_TR_MEM_NODATA] = "drop",
	[KSIM_TR_DMA] = "dma", [KSIM_TR_INJECT] = "inject",
	[KSIM_TR_VIOL] = "violation", [KSIM_TR_XDMA] = "xdma",
	[KSIM_TR_REG] = "reg",
};

/* the rest of an XDMA engine event's line */
static int ksim_xdma_ev_line(const struct ksim_trace_ev *ev, char *b, size_t n)
{
	switch (ev->c) {
	case KSIM_XT_RUN:
		return snprintf(b, n, " run desc=0x%llx adj=%u\n",
				(unsigned long long)ev->v, ev->a);
	case KSIM_XT_DESC:
		return snprintf(b, n, " desc n=%u card=0x%llx len=%u cycles=%u\n",
				ev->b, (unsigned long long)ev->v, ev->a, ev->e);
	case KSIM_XT_STOP:
		return snprintf(b, n, " stop status=0x%08x completed=%u\n",
				ev->a, ev->b);
	case KSIM_XT_WEDGE:
		return snprintf(b, n, " wedge status=0x%08x card=0x%llx\n",
				ev->a, (unsigned long long)ev->v);
	case KSIM_XT_IRQ:
		return snprintf(b, n, " vector=%u%s\n", ev->a,
				ev->e ? " lost" : "");
	}
	return snprintf(b, n, "\n");
}

/* the rest of a register access's line: the register, the value */
static int ksim_reg_ev_line(const struct ksim_trace *t,
			    const struct ksim_trace_ev *ev, char *b, size_t n)
{
	const char *dir = ev->d & KSIM_TRR_WRITE ? "write" : "read";
	char name[80];

	t->ob.obs->w.reg_name(ev->d & KSIM_TRR_BAR1 ? 1 : 0, ev->a,
			  ev->d & KSIM_TRR_WIDE, name, sizeof(name));
	if (ev->d & KSIM_TRR_WIDE)
		return snprintf(b, n, " %s %s=0x%016llx\n", name, dir,
				(unsigned long long)ev->v);
	return snprintf(b, n, " %s %s=0x%08llx\n", name, dir,
			(unsigned long long)ev->v);
}

static int ksim_ev_line(const struct ksim_trace *t,
			const struct ksim_trace_ev *ev, char *b, size_t n)
{
	char name[24];
	int k;

	if (ev->kind == KSIM_TR_DMA)
		k = snprintf(b, n, "%llu - %s", (unsigned long long)ev->cycle,
			     ev->c ? "dma_write" : "dma_read");
	else if (ev->kind == KSIM_TR_XDMA)
		k = snprintf(b, n, "%llu - xdma %s", (unsigned long long)ev->cycle,
			     ev->c == KSIM_XT_IRQ ? "irq" : ev->d ? "c2h" : "h2c");
	else if (ev->kind == KSIM_TR_REG && ev->mesh == 0xff)
		k = snprintf(b, n, "%llu - reg", (unsigned long long)ev->cycle);
	else if (ev->kind < KSIM_TR_KINDS)
		k = snprintf(b, n, "%llu %u %s", (unsigned long long)ev->cycle,
			     ev->mesh, ksim_tr_word[ev->kind]);
	else
		k = snprintf(b, n, "%llu %u ?", (unsigned long long)ev->cycle,
			     ev->mesh);
	if (k < 0 || (size_t)k >= n)
		return k;
	b += k;
	n -= k;
	switch (ev->kind) {
	case KSIM_TR_HOP:
		ksim_link_name(ev, name, sizeof(name));
		return k + snprintf(b, n, " %s type=0x%x txn=0x%02llx src=%u,%u dst=%u,%u tag=%u%s%s%s%s\n",
			name, ev->d & 0xf, (unsigned long long)ev->v,
			KH_YX_X(ev->b), KH_YX_Y(ev->b), KH_YX_X(ev->b >> 8),
			KH_YX_Y(ev->b >> 8), ev->a,
			ev->d & 0x10 ? " deliver" : "",
			ev->d & 0x20 ? " tieoff" : "",
			ev->d & 0x40 ? " drop" : "", ev->d & 0x80 ? " dup" : "");
	case KSIM_TR_ACCEPT:
		return k + snprintf(b, n, " %u,%u txn=0x%02x last=%u\n", ev->x,
				    ev->y, ev->c, ev->d);
	case KSIM_TR_RETIRE:
		if (ev->c == 0xff)
			return k + snprintf(b, n, " %u,%u code=none arg=0x%08x txn=0x%02x\n",
					    ev->x, ev->y, ev->a, ev->b);
		if (ev->c == 0xfe)
			return k + snprintf(b, n, " %u,%u code=hang arg=0x%08x txn=0x%02x\n",
					    ev->x, ev->y, ev->a, ev->b);
		return k + snprintf(b, n, " %u,%u code=0x%02x arg=0x%08x txn=0x%02x\n",
				    ev->x, ev->y, ev->c, ev->a, ev->b);
	case KSIM_TR_CTRL_REQ:
	case KSIM_TR_CTRL_LOST:
		return k + snprintf(b, n, " %u,%u idx=%u txn=0x%02x from=%u,%u\n",
				    ev->x, ev->y, ev->c, ev->d,
				    KH_YX_X(ev->b), KH_YX_Y(ev->b));
	case KSIM_TR_CTRL_REPLY:
		return k + snprintf(b, n, " %u,%u idx=%u txn=0x%02x to=%u,%u value=0x%016llx%s\n",
				    ev->x, ev->y, ev->c, ev->d,
				    KH_YX_X(ev->b), KH_YX_Y(ev->b),
				    (unsigned long long)ev->v,
				    ev->e ? " lost" : "");
	case KSIM_TR_DISPATCH:
		return k + snprintf(b, n, " %u,%u txn=0x%02x left=%u\n", ev->x,
				    ev->y, ev->c, ev->b);
	case KSIM_TR_MBOX:
		return k + snprintf(b, n, " %u,%u type=0x%x txn=0x%02x\n",
				    ev->x, ev->y, ev->d, ev->c);
	case KSIM_TR_SIGNAL:
		return k + snprintf(b, n, " %u,%u code=0x%02x arg=0x%08x\n",
				    ev->x, ev->y, ev->c, ev->a);
	case KSIM_TR_RX_DROP:
		return k + snprintf(b, n, " agent_rx type=0x%x from=%u,%u\n",
				    ev->d, ev->x, ev->y);
	case KSIM_TR_UNIT_DROP:
		return k + snprintf(b, n, " unit %u,%u type=0x%x from=%u,%u\n",
				    ev->x, ev->y, ev->d, KH_YX_X(ev->b),
				    KH_YX_Y(ev->b));
	case KSIM_TR_MEM_NODATA:
		return k + snprintf(b, n, " mag_data %u,%u from=%u,%u\n",
				    ev->x, ev->y, KH_YX_X(ev->b),
				    KH_YX_Y(ev->b));
	case KSIM_TR_DMA:
		return k + snprintf(b, n, " addr=0x%llx len=%u cycles=%u%s\n",
				    (unsigned long long)ev->v, ev->a, ev->e,
				    ev->d ? " failed" : "");
	case KSIM_TR_INJECT:
		return k + snprintf(b, n, " %u %s %u,%u a=0x%x v=0x%llx\n", ev->e,
				    ksim_knob_kind_name(ev->c), ev->x, ev->y, ev->a,
				    (unsigned long long)ev->v);
	case KSIM_TR_VIOL:
		return k + snprintf(b, n, " rule=%u %u,%u\n", ev->c, ev->x,
				    ev->y);
	case KSIM_TR_XDMA:
		return k + ksim_xdma_ev_line(ev, b, n);
	case KSIM_TR_REG:
		return k + ksim_reg_ev_line(t, ev, b, n);
	}
	return k + snprintf(b, n, "\n");
}

void ksim_trace_format(const struct ksim_trace *t, u64 *pos,
		       struct ksim_tbuf *tb)
{
	struct ksim_trace_ev ev;
	u64 first, end;
	char line[200];
	int n;

	ksim_trace_ring_bounds(t, &first, &end);
	if (*pos == 0) {
		n = snprintf(line, sizeof(line),
			     "# kohaku-sim trace v1 clock_mhz=%u size=%u events=%llu first=%llu\n",
			     t->ob.obs->w.clock_mhz, t->ev ? t->mask + 1 : 0,
			     (unsigned long long)end,
			     (unsigned long long)first);
		if (n < 0 || tb->len - tb->pos <= (size_t)n)
			return;
		ksim_tb_printf(tb, "%s", line);
		*pos = 1;
	}
	if (*pos - 1 < first) {
		n = snprintf(line, sizeof(line),
			     "# %llu events lost (overwritten)\n",
			     (unsigned long long)(first - (*pos - 1)));
		if (n < 0 || tb->len - tb->pos <= (size_t)n)
			return;
		ksim_tb_printf(tb, "%s", line);
		*pos = first + 1;
	}
	while (*pos - 1 < end) {
		if (ksim_trace_ring_get(t, *pos - 1, &ev))
			break;
		n = ksim_ev_line(t, &ev, line, sizeof(line));
		if (n < 0 || (size_t)n >= sizeof(line) ||
		    tb->len - tb->pos <= (size_t)n)
			break;
		ksim_tb_printf(tb, "%s", line);
		(*pos)++;
	}
}

/* ---- what the parts report ---- */

static unsigned int ksim_trace_link_xfer(struct ksim_observer *ob,
					 struct ksim_obs_link *ol, u64 now,
					 unsigned int act)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_link *l = ol->l;
	struct ksim_trace_ev *ev;
	const struct kh_flit *f = &l->reg;

	if (!ksim_trace_wants(t, KSIM_TRC_HOP) &&
	    !(ol->cls == KSIM_LC_TIEOFF && ksim_trace_wants(t, KSIM_TRC_DROP)) &&
	    !((act & (KSIM_XFER_DROP | KSIM_XFER_KEEP)) &&
	      ksim_trace_wants(t, KSIM_TRC_INJECT)))
		return 0;
	ev = ksim_trace_new_ev(t, KSIM_TR_HOP);
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
	ev->a = ksim_flit_tag(f);
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y)) |
		(KH_YX(kh_flit_get(f, KH_HDR_DST_X),
		       kh_flit_get(f, KH_HDR_DST_Y)) << 8);
	ev->v = kh_flit_get(f, KH_HDR_TXN);
	return 0;
}

static void ksim_trace_unit_pre(struct ksim_observer *ob,
				struct ksim_obs_unit *ou)
{
	ou->accept_traced = false;
}

static void ksim_trace_accept(struct ksim_trace *t, struct ksim_obs_unit *ou)
{
	struct ksim_unit *u = ou->u;
	struct ksim_trace_ev *ev = ksim_trace_new_ev(t, KSIM_TR_ACCEPT);

	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->c = u->cur_txn;
	ev->d = u->cur_last;
	ou->accept_traced = true;
}

/* exec_done, as the knobs left it */
static void ksim_trace_unit_done(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_unit *u = ou->u;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_UNIT))
		return;
	if (u->p_accept)
		ksim_trace_accept(t, ou);	/* the accept first, in one cycle */
	ev = ksim_trace_new_ev(t, KSIM_TR_RETIRE);
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

static void ksim_trace_unit_post(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou, bool unit_progress)
{
	struct ksim_trace *t = ksim_trace_of(ob);

	if (ou->u->p_accept && !ou->accept_traced &&
	    ksim_trace_wants(t, KSIM_TRC_UNIT))
		ksim_trace_accept(t, ou);
}

static void ksim_trace_unit_ctrl(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou,
				 const struct kh_flit *req, bool dropped)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_unit *u = ou->u;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_CTRL))
		return;
	ev = ksim_trace_new_ev(t, dropped ? KSIM_TR_CTRL_LOST : KSIM_TR_CTRL_REQ);
	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->c = kh_flit_get(req, KH_CTRL_INDEX);
	ev->d = kh_flit_get(req, KH_HDR_TXN);
	ev->b = KH_YX(kh_flit_get(req, KH_HDR_SRC_X),
		      kh_flit_get(req, KH_HDR_SRC_Y));
}

static bool ksim_trace_reply_out(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou, bool lost)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_unit *u = ou->u;
	const struct kh_flit *r = &u->ctrl_reply;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_CTRL))
		return lost;
	ev = ksim_trace_new_ev(t, KSIM_TR_CTRL_REPLY);
	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->c = kh_flit_get(r, KH_CTRL_INDEX);
	ev->d = kh_flit_get(r, KH_HDR_TXN);
	ev->b = KH_YX(kh_flit_get(r, KH_HDR_DST_X),
		      kh_flit_get(r, KH_HDR_DST_Y));
	ev->v = kh_flit_get(r, KH_CTRL_VALUE);
	ev->e = lost;
	return lost;
}

static void ksim_trace_unit_drop(struct ksim_observer *ob,
				 struct ksim_obs_unit *ou,
				 const struct kh_flit *f)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_unit *u = ou->u;
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_DROP))
		return;
	ev = ksim_trace_new_ev(t, KSIM_TR_UNIT_DROP);
	ev->mesh = u->mesh->id;
	ev->x = u->x;
	ev->y = u->y;
	ev->d = kh_flit_get(f, KH_HDR_TYPE);
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y));
}

static void ksim_trace_mem_nodata(struct ksim_observer *ob,
				  struct ksim_mag_port *mp,
				  const struct kh_flit *f)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_DROP))
		return;
	ev = ksim_trace_new_ev(t, KSIM_TR_MEM_NODATA);
	ev->mesh = mp->mag->mesh->id;
	ev->x = mp->x;
	ev->y = mp->y;
	ev->b = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
		      kh_flit_get(f, KH_HDR_SRC_Y));
}

static void ksim_trace_orch(struct ksim_observer *ob, struct ksim_orch *orc,
			    unsigned int what, const struct kh_flit *f)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_mesh *m = orc->mag->mesh;
	struct ksim_trace_ev *ev;
	u32 cls = what == KSIM_ORCH_RX_DROP ? KSIM_TRC_DROP : KSIM_TRC_ORCH;
	static const u8 kind[] = {
		[KSIM_ORCH_DISPATCH] = KSIM_TR_DISPATCH,
		[KSIM_ORCH_MBOX] = KSIM_TR_MBOX,
		[KSIM_ORCH_SIGNAL] = KSIM_TR_SIGNAL,
		[KSIM_ORCH_RX_DROP] = KSIM_TR_RX_DROP,
	};

	if (what >= KSIM_ARRAY_SIZE(kind) || !ksim_trace_wants(t, cls))
		return;
	ev = ksim_trace_new_ev(t, kind[what]);
	ev->mesh = m->id;
	ev->c = kh_flit_get(f, KH_HDR_TXN);
	ev->d = kh_flit_get(f, KH_HDR_TYPE);
	if (what == KSIM_ORCH_DISPATCH || what == KSIM_ORCH_MBOX) {
		ev->x = kh_flit_get(f, KH_HDR_DST_X);
		ev->y = kh_flit_get(f, KH_HDR_DST_Y);
		ev->b = orc->left;
	} else {
		ev->x = kh_flit_get(f, KH_HDR_SRC_X);
		ev->y = kh_flit_get(f, KH_HDR_SRC_Y);
	}
	if (what == KSIM_ORCH_SIGNAL) {
		ev->c = kh_flit_get(f, KH_SIG_CODE);
		ev->a = kh_flit_get(f, KH_SIG_ARG);
	}
}

static void ksim_trace_dma(struct ksim_observer *ob, bool write, u64 addr,
			   size_t len, int result, u32 cost)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_DMA))
		return;
	ev = ksim_trace_new_ev(t, KSIM_TR_DMA);
	ev->v = addr;
	ev->a = len > 0xffffffffULL ? 0xffffffffu : (u32)len;
	ev->c = write;
	ev->d = result != 0;
	ev->e = cost +
		(u32)((len + KH_HOST_GRANULE - 1) / KH_HOST_GRANULE);
	ev->mesh = 0xff;
}

static void ksim_trace_xdma_event(struct ksim_observer *ob,
				  const struct ksim_xdma_event *x)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(t, KSIM_TRC_DMA))
		return;
	ev = ksim_trace_new_ev(t, KSIM_TR_XDMA);
	ev->c = x->what;
	ev->d = x->c2h;
	ev->a = x->a;
	ev->b = x->b;
	ev->e = x->e;
	ev->v = x->v;
}

/* a host register access (opt-in class reg) */
static void ksim_trace_host_reg(struct ksim_observer *ob, unsigned int mesh,
				u32 off, u64 v, unsigned int flags)
{
	struct ksim_trace_ev *ev = ksim_trace_new_ev(ksim_trace_of(ob),
						     KSIM_TR_REG);

	ev->mesh = mesh;
	ev->a = off;
	ev->v = v;
	ev->d = flags;
}

/* another observer's event: a violation (class check), a knob (inject) */
static void ksim_trace_event(struct ksim_observer *ob,
			     const struct ksim_trace_ev *ev)
{
	struct ksim_trace *t = ksim_trace_of(ob);
	u32 cls = ev->kind == KSIM_TR_VIOL ? KSIM_TRC_CHECK : KSIM_TRC_INJECT;

	if (!ksim_trace_wants(t, cls))
		return;
	t->ev[t->head++ & t->mask] = *ev;
}

/* ---- the observer ---- */

static bool ksim_trace_watch_link(struct ksim_observer *ob,
				  const struct ksim_obs_link *ol)
{
	return ksim_trace_of(ob)->on;
}

static bool ksim_trace_watch_unit(struct ksim_observer *ob,
				  const struct ksim_obs_unit *ou)
{
	return ksim_trace_of(ob)->on;
}

static bool ksim_trace_watch_mesh(struct ksim_observer *ob, unsigned int mesh)
{
	return ksim_trace_of(ob)->on;
}

static bool ksim_trace_watch_card(struct ksim_observer *ob)
{
	return ksim_trace_of(ob)->on;
}

static bool ksim_trace_watch_regs(struct ksim_observer *ob)
{
	return ksim_trace_wants(ksim_trace_of(ob), KSIM_TRC_REG);
}

static const struct ksim_observer_ops ksim_trace_ops = {
	.name = "trace",
	.command = ksim_trace_command,
	.fini = ksim_trace_fini,
	.watch_link = ksim_trace_watch_link,
	.watch_unit = ksim_trace_watch_unit,
	.watch_mesh = ksim_trace_watch_mesh,
	.watch_card = ksim_trace_watch_card,
	.watch_regs = ksim_trace_watch_regs,
	.link_xfer = ksim_trace_link_xfer,
	.unit_pre = ksim_trace_unit_pre,
	.unit_done = ksim_trace_unit_done,
	.unit_post = ksim_trace_unit_post,
	.unit_ctrl = ksim_trace_unit_ctrl,
	.unit_reply_out = ksim_trace_reply_out,
	.unit_drop = ksim_trace_unit_drop,
	.mem_nodata = ksim_trace_mem_nodata,
	.orch = ksim_trace_orch,
	.dma = ksim_trace_dma,
	.xdma_event = ksim_trace_xdma_event,
	.host_reg = ksim_trace_host_reg,
	.event = ksim_trace_event,
};

struct ksim_trace *ksim_trace_create(struct ksim_obs *o, int *err)
{
	struct ksim_trace *t = ksim_plat_zalloc(sizeof(*t));

	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	t->ob.ops = &ksim_trace_ops;
	*err = ksim_obs_register(o, &t->ob);
	if (*err) {
		ksim_plat_free(t);
		return NULL;
	}
	return t;
}

bool ksim_trace_on(const struct ksim_trace *t)
{
	return t->on;
}
