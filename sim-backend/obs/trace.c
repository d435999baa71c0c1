// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The event trace (docs/spec/fault-injection.md "trace", docs/model.md
 * "Observability"): a ring of fixed-size events, a power of two long, the
 * oldest overwritten when it is full; and one text line per event.
 */
#include "trace.h"
#include "card.h"
#include "inject.h"
#include "router.h"
#include "tbuf.h"
#include "util.h"
#include "xdma.h"

struct ksim_trace {
	u32 mask;		/* size - 1 */
	u64 head;		/* events ever written */
	struct ksim_trace_ev *ev;
};

static const char *const ksim_class_name[] = {
	"hop", "unit", "ctrl", "orch", "dma", "drop", "inject", "check", "reg",
};

static int ksim_trace_alloc(struct ksim_obs *o, u64 want)
{
	struct ksim_trace *t = o->tr;
	u32 size = 1;

	if (want > KSIM_TRACE_MAX)
		want = KSIM_TRACE_MAX;
	while (size < want)
		size <<= 1;
	if (t && t->mask + 1 == size)
		return 0;
	if (!t) {
		t = ksim_plat_zalloc(sizeof(*t));
		if (!t)
			return -ENOMEM;
		o->tr = t;
	}
	ksim_plat_free(t->ev);
	t->ev = ksim_plat_zalloc(sizeof(*t->ev) * size);
	t->head = 0;
	t->mask = size - 1;
	if (!t->ev) {
		ksim_plat_free(t);
		o->tr = NULL;
		return -ENOMEM;
	}
	return 0;
}

void ksim_trace_free(struct ksim_obs *o)
{
	if (!o->tr)
		return;
	ksim_plat_free(o->tr->ev);
	ksim_plat_free(o->tr);
	o->tr = NULL;
	o->trace_on = false;
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

int ksim_trace_command(struct ksim_obs *o, const struct ksim_words *w,
		     unsigned int first, char *err, size_t errlen)
{
	struct ksim_word key, val;
	u64 size = o->tr ? o->tr->mask + 1 : KSIM_TRACE_DEFAULT;
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
			o->trace_on = false;
		else if (o->tr)
			o->tr->head = 0;
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
	e = ksim_trace_alloc(o, size);
	if (e)
		return ksim_refuse(err, errlen, "trace on: out of memory");
	o->trace_mask = mask;
	o->trace_on = true;
	ksim_obs_attach(o);
	return 0;
}

struct ksim_trace_ev *ksim_trace_new_ev(struct ksim_obs *o, unsigned int kind)
{
	struct ksim_trace *t = o->tr;
	struct ksim_trace_ev *ev = &t->ev[t->head++ & t->mask];

	memset(ev, 0, sizeof(*ev));
	ev->cycle = o->card->sched.now;
	ev->kind = kind;
	return ev;
}

void ksim_trace_inject(struct ksim_obs *o, u64 now, const struct ksim_knob *k,
		     u32 a, u64 v)
{
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(o, KSIM_TRC_INJECT))
		return;
	ev = ksim_trace_new_ev(o, KSIM_TR_INJECT);
	ev->cycle = now;
	ev->mesh = k->mesh;
	ev->x = k->link ? k->link->l->x : k->x;
	ev->y = k->link ? k->link->l->y : k->y;
	ev->c = k->kind;
	ev->e = k->id;
	ev->a = a;
	ev->v = v;
}

void ksim_obs_trace_viol(struct ksim_obs *o, u64 cycle, unsigned int rule,
		       unsigned int mesh, unsigned int x, unsigned int y)
{
	struct ksim_trace_ev *ev;

	if (!ksim_trace_wants(o, KSIM_TRC_CHECK))
		return;
	ev = ksim_trace_new_ev(o, KSIM_TR_VIOL);
	ev->cycle = cycle;
	ev->mesh = mesh;
	ev->x = x;
	ev->y = y;
	ev->c = rule;
}

void ksim_trace_bounds(struct ksim_card *card, u64 *first, u64 *end)
{
	struct ksim_trace *t = card->obs ? card->obs->tr : NULL;

	*first = *end = 0;
	if (!t)
		return;
	*end = t->head;
	*first = t->head > (u64)t->mask + 1 ? t->head - t->mask - 1 : 0;
}

int ksim_trace_get(struct ksim_card *card, u64 idx,
		     struct ksim_trace_ev *ev)
{
	u64 first, end;

	ksim_trace_bounds(card, &first, &end);
	if (idx < first || idx >= end)
		return -ENOENT;
	*ev = card->obs->tr->ev[idx & card->obs->tr->mask];
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
static int ksim_reg_ev_line(const struct ksim_trace_ev *ev, char *b, size_t n)
{
	const char *dir = ev->d & KSIM_TRR_WRITE ? "write" : "read";
	char name[80];

	ksim_bar_reg_name(ev->d & KSIM_TRR_BAR1 ? 1 : 0, ev->a,
			  ev->d & KSIM_TRR_WIDE, name, sizeof(name));
	if (ev->d & KSIM_TRR_WIDE)
		return snprintf(b, n, " %s %s=0x%016llx\n", name, dir,
				(unsigned long long)ev->v);
	return snprintf(b, n, " %s %s=0x%08llx\n", name, dir,
			(unsigned long long)ev->v);
}

static int ksim_ev_line(const struct ksim_trace_ev *ev, char *b, size_t n)
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
		return k + ksim_reg_ev_line(ev, b, n);
	}
	return k + snprintf(b, n, "\n");
}

static void ksim_trace_format(struct ksim_obs *o, u64 *pos,
			      struct ksim_tbuf *tb)
{
	struct ksim_card *card = o->card;
	struct ksim_trace_ev ev;
	u64 first, end;
	char line[200];
	int n;

	ksim_trace_bounds(card, &first, &end);
	if (*pos == 0) {
		n = snprintf(line, sizeof(line),
			     "# kohaku-sim trace v1 clock_mhz=%u size=%u events=%llu first=%llu\n",
			     card->clock_mhz, o->tr ? o->tr->mask + 1 : 0,
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
		if (ksim_trace_get(card, *pos - 1, &ev))
			break;
		n = ksim_ev_line(&ev, line, sizeof(line));
		if (n < 0 || (size_t)n >= sizeof(line) ||
		    tb->len - tb->pos <= (size_t)n)
			break;
		ksim_tb_printf(tb, "%s", line);
		(*pos)++;
	}
}

size_t ksim_trace_text(struct ksim_card *card, u64 *pos, char *buf,
		       size_t len)
{
	struct ksim_tbuf tb;

	ksim_tb_init(&tb, buf, len);
	ksim_trace_format(card->obs, pos, &tb);
	return tb.pos;
}
