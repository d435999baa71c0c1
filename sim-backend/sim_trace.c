// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The event trace (docs/spec/fault-injection.md "trace", docs/model.md
 * "Observability"): a ring of fixed-size events, a power of two long, the
 * oldest overwritten when it is full; and one text line per event.
 */
#include "sim_trace.h"
#include "sim_card.h"
#include "sim_inject.h"
#include "sim_router.h"
#include "sim_util.h"

struct kh_trace {
	u32 mask;		/* size - 1 */
	u64 head;		/* events ever written */
	struct kh_sim_trace_ev *ev;
};

static const char *const kh_class_name[] = {
	"hop", "unit", "ctrl", "orch", "dma", "drop", "inject", "check",
};

static const char *const kh_knob_word[KH_KNOB_KINDS] = {
	"drop", "dup", "busy", "fault", "hang", "ctrl", "dram",
};

static const char kh_port_letter[KH_PORTS] = { 'N', 'E', 'S', 'W', 'L' };

static int kh_terr(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return -EINVAL;
}

static int kh_trace_alloc(struct kh_obs *o, u64 want)
{
	struct kh_trace *t = o->tr;
	u32 size = 1;

	if (want > KH_TRACE_MAX)
		want = KH_TRACE_MAX;
	while (size < want)
		size <<= 1;
	if (t && t->mask + 1 == size)
		return 0;
	if (!t) {
		t = kh_plat_zalloc(sizeof(*t));
		if (!t)
			return -ENOMEM;
		o->tr = t;
	}
	kh_plat_free(t->ev);
	t->ev = kh_plat_zalloc(sizeof(*t->ev) * size);
	t->head = 0;
	t->mask = size - 1;
	if (!t->ev) {
		kh_plat_free(t);
		o->tr = NULL;
		return -ENOMEM;
	}
	return 0;
}

void kh_trace_free(struct kh_obs *o)
{
	if (!o->tr)
		return;
	kh_plat_free(o->tr->ev);
	kh_plat_free(o->tr);
	o->tr = NULL;
	o->trace_on = false;
}

/* "hop,unit,..." -> KH_TRC_* */
static int kh_trace_classes(const struct kh_word *val, u32 *mask, char *err,
			    size_t errlen)
{
	struct kh_word one = { val->s, 0 };
	unsigned int j;
	size_t k;

	*mask = 0;
	for (k = 0; k <= val->n; k++) {
		if (k < val->n && val->s[k] != ',') {
			one.n++;
			continue;
		}
		for (j = 0; j < KH_ARRAY_SIZE(kh_class_name); j++)
			if (kh_word_is(&one, kh_class_name[j]))
				break;
		if (kh_word_is(&one, "all")) {
			*mask = KH_TRC_ALL;
		} else if (j < KH_ARRAY_SIZE(kh_class_name)) {
			*mask |= 1u << j;
		} else {
			if (err && errlen)
				snprintf(err, errlen,
					 "trace on: unknown event class '%.*s' (hop, unit, ctrl, orch, dma, drop, inject, check, all)",
					 kh_word_len(&one), one.s);
			return -EINVAL;
		}
		one.s = val->s + k + 1;
		one.n = 0;
	}
	return 0;
}

int kh_trace_command(struct kh_obs *o, const struct kh_words *w,
		     unsigned int first, char *err, size_t errlen)
{
	struct kh_word key, val;
	u64 size = o->tr ? o->tr->mask + 1 : KH_TRACE_DEFAULT;
	u32 mask = KH_TRC_ALL;
	unsigned int i;
	int e;

	if (first >= w->n)
		return kh_terr(err, errlen, "trace: on, off or clear?");
	if (kh_word_is(&w->w[first], "off") ||
	    kh_word_is(&w->w[first], "clear")) {
		if (w->n != first + 1)
			return kh_terr(err, errlen, "trace off/clear: takes nothing more");
		if (kh_word_is(&w->w[first], "off"))
			o->trace_on = false;
		else if (o->tr)
			o->tr->head = 0;
		kh_obs_attach(o);
		return 0;
	}
	if (!kh_word_is(&w->w[first], "on"))
		return kh_terr(err, errlen, "trace: on, off or clear?");
	for (i = first + 1; i < w->n; i++) {
		if (!kh_word_kv(&w->w[i], &key, &val))
			return kh_terr(err, errlen, "trace on: options are size=N and events=LIST");
		if (kh_word_is(&key, "size")) {
			if (!kh_word_u64(&val, &size) || !size ||
			    size > KH_TRACE_MAX)
				return kh_terr(err, errlen, "trace on: size is 1..4194304 events");
		} else if (kh_word_is(&key, "events")) {
			e = kh_trace_classes(&val, &mask, err, errlen);
			if (e)
				return e;
		} else {
			return kh_terr(err, errlen, "trace on: options are size=N and events=LIST");
		}
	}
	e = kh_trace_alloc(o, size);
	if (e)
		return kh_terr(err, errlen, "trace on: out of memory");
	o->trace_mask = mask;
	o->trace_on = true;
	kh_obs_attach(o);
	return 0;
}

struct kh_sim_trace_ev *kh_trace_ev(struct kh_obs *o, unsigned int kind)
{
	struct kh_trace *t = o->tr;
	struct kh_sim_trace_ev *ev = &t->ev[t->head++ & t->mask];

	memset(ev, 0, sizeof(*ev));
	ev->cycle = o->card->sched.now;
	ev->kind = kind;
	return ev;
}

void kh_trace_inject(struct kh_obs *o, u64 now, const struct kh_knob *k,
		     u32 a, u64 v)
{
	struct kh_sim_trace_ev *ev;

	if (!kh_trace_wants(o, KH_TRC_INJECT))
		return;
	ev = kh_trace_ev(o, KH_TR_INJECT);
	ev->cycle = now;
	ev->mesh = k->mesh;
	ev->x = k->link ? k->link->l->x : k->x;
	ev->y = k->link ? k->link->l->y : k->y;
	ev->c = k->kind;
	ev->e = k->id;
	ev->a = a;
	ev->v = v;
}

void kh_obs_trace_viol(struct kh_obs *o, u64 cycle, unsigned int rule,
		       unsigned int mesh, unsigned int x, unsigned int y)
{
	struct kh_sim_trace_ev *ev;

	if (!kh_trace_wants(o, KH_TRC_CHECK))
		return;
	ev = kh_trace_ev(o, KH_TR_VIOL);
	ev->cycle = cycle;
	ev->mesh = mesh;
	ev->x = x;
	ev->y = y;
	ev->c = rule;
}

void kh_sim_trace_bounds(struct kh_sim_card *card, u64 *first, u64 *end)
{
	struct kh_trace *t = card->obs ? card->obs->tr : NULL;

	*first = *end = 0;
	if (!t)
		return;
	*end = t->head;
	*first = t->head > (u64)t->mask + 1 ? t->head - t->mask - 1 : 0;
}

int kh_sim_trace_get(struct kh_sim_card *card, u64 idx,
		     struct kh_sim_trace_ev *ev)
{
	u64 first, end;

	kh_sim_trace_bounds(card, &first, &end);
	if (idx < first || idx >= end)
		return -ENOENT;
	*ev = card->obs->tr->ev[idx & card->obs->tr->mask];
	return 0;
}

/* ---- text ---- */

static void kh_link_name(const struct kh_sim_trace_ev *ev, char *b,
			 size_t n)
{
	if (ev->c < KH_PORTS)
		snprintf(b, n, "R%u,%u.%c", ev->x, ev->y, kh_port_letter[ev->c]);
	else if (ev->c == 0xff)
		snprintf(b, n, "%u,%u", ev->x, ev->y);
	else
		snprintf(b, n, "%u,%u.l2", ev->x, ev->y);
}

static const char *const kh_tr_word[KH_TR_KINDS] = {
	[KH_TR_HOP] = "hop", [KH_TR_ACCEPT] = "accept",
	[KH_TR_RETIRE] = "retire", [KH_TR_CTRL_REQ] = "ctrl_req",
	[KH_TR_CTRL_LOST] = "ctrl_lost", [KH_TR_CTRL_REPLY] = "ctrl_reply",
	[KH_TR_DISPATCH] = "dispatch", [KH_TR_MBOX] = "mbox",
	[KH_TR_SIGNAL] = "signal", [KH_TR_RX_DROP] = "drop",
	[KH_TR_UNIT_DROP] = "drop", [KH_TR_MEM_NODATA] = "drop",
	[KH_TR_DMA] = "dma", [KH_TR_INJECT] = "inject",
	[KH_TR_VIOL] = "violation",
};

static int kh_ev_line(const struct kh_sim_trace_ev *ev, char *b, size_t n)
{
	char name[24];
	int k;

	if (ev->kind == KH_TR_DMA)
		k = snprintf(b, n, "%llu - %s", (unsigned long long)ev->cycle,
			     ev->c ? "dma_write" : "dma_read");
	else if (ev->kind < KH_TR_KINDS)
		k = snprintf(b, n, "%llu %u %s", (unsigned long long)ev->cycle,
			     ev->mesh, kh_tr_word[ev->kind]);
	else
		k = snprintf(b, n, "%llu %u ?", (unsigned long long)ev->cycle,
			     ev->mesh);
	if (k < 0 || (size_t)k >= n)
		return k;
	b += k;
	n -= k;
	switch (ev->kind) {
	case KH_TR_HOP:
		kh_link_name(ev, name, sizeof(name));
		return k + snprintf(b, n, " %s type=0x%x txn=0x%02llx src=%u,%u dst=%u,%u tag=%u%s%s%s%s\n",
			name, ev->d & 0xf, (unsigned long long)ev->v,
			KH_YX_X(ev->b), KH_YX_Y(ev->b), KH_YX_X(ev->b >> 8),
			KH_YX_Y(ev->b >> 8), ev->a,
			ev->d & 0x10 ? " deliver" : "",
			ev->d & 0x20 ? " tieoff" : "",
			ev->d & 0x40 ? " drop" : "", ev->d & 0x80 ? " dup" : "");
	case KH_TR_ACCEPT:
		return k + snprintf(b, n, " %u,%u txn=0x%02x last=%u\n", ev->x,
				    ev->y, ev->c, ev->d);
	case KH_TR_RETIRE:
		if (ev->c == 0xff)
			return k + snprintf(b, n, " %u,%u code=none arg=0x%08x txn=0x%02x\n",
					    ev->x, ev->y, ev->a, ev->b);
		if (ev->c == 0xfe)
			return k + snprintf(b, n, " %u,%u code=hang arg=0x%08x txn=0x%02x\n",
					    ev->x, ev->y, ev->a, ev->b);
		return k + snprintf(b, n, " %u,%u code=0x%02x arg=0x%08x txn=0x%02x\n",
				    ev->x, ev->y, ev->c, ev->a, ev->b);
	case KH_TR_CTRL_REQ:
	case KH_TR_CTRL_LOST:
		return k + snprintf(b, n, " %u,%u idx=%u txn=0x%02x from=%u,%u\n",
				    ev->x, ev->y, ev->c, ev->d,
				    KH_YX_X(ev->b), KH_YX_Y(ev->b));
	case KH_TR_CTRL_REPLY:
		return k + snprintf(b, n, " %u,%u idx=%u txn=0x%02x to=%u,%u value=0x%016llx%s\n",
				    ev->x, ev->y, ev->c, ev->d,
				    KH_YX_X(ev->b), KH_YX_Y(ev->b),
				    (unsigned long long)ev->v,
				    ev->e ? " lost" : "");
	case KH_TR_DISPATCH:
		return k + snprintf(b, n, " %u,%u txn=0x%02x left=%u\n", ev->x,
				    ev->y, ev->c, ev->b);
	case KH_TR_MBOX:
		return k + snprintf(b, n, " %u,%u type=0x%x txn=0x%02x\n",
				    ev->x, ev->y, ev->d, ev->c);
	case KH_TR_SIGNAL:
		return k + snprintf(b, n, " %u,%u code=0x%02x arg=0x%08x\n",
				    ev->x, ev->y, ev->c, ev->a);
	case KH_TR_RX_DROP:
		return k + snprintf(b, n, " agent_rx type=0x%x from=%u,%u\n",
				    ev->d, ev->x, ev->y);
	case KH_TR_UNIT_DROP:
		return k + snprintf(b, n, " unit %u,%u type=0x%x from=%u,%u\n",
				    ev->x, ev->y, ev->d, KH_YX_X(ev->b),
				    KH_YX_Y(ev->b));
	case KH_TR_MEM_NODATA:
		return k + snprintf(b, n, " mag_data %u,%u from=%u,%u\n",
				    ev->x, ev->y, KH_YX_X(ev->b),
				    KH_YX_Y(ev->b));
	case KH_TR_DMA:
		return k + snprintf(b, n, " addr=0x%llx len=%u cycles=%u%s\n",
				    (unsigned long long)ev->v, ev->a, ev->e,
				    ev->d ? " failed" : "");
	case KH_TR_INJECT:
		return k + snprintf(b, n, " %u %s %u,%u a=0x%x v=0x%llx\n", ev->e,
				    ev->c < KH_KNOB_KINDS ? kh_knob_word[ev->c]
							  : "?",
				    ev->x, ev->y, ev->a,
				    (unsigned long long)ev->v);
	case KH_TR_VIOL:
		return k + snprintf(b, n, " rule=%u %u,%u\n", ev->c, ev->x,
				    ev->y);
	}
	return k + snprintf(b, n, "\n");
}

void kh_trace_text(struct kh_obs *o, u64 *pos, struct kh_tbuf *tb)
{
	struct kh_sim_card *card = o->card;
	struct kh_sim_trace_ev ev;
	u64 first, end;
	char line[200];
	int n;

	kh_sim_trace_bounds(card, &first, &end);
	if (*pos == 0) {
		n = snprintf(line, sizeof(line),
			     "# kohaku-sim trace v1 clock_mhz=%u size=%u events=%llu first=%llu\n",
			     card->clock_mhz, o->tr ? o->tr->mask + 1 : 0,
			     (unsigned long long)end,
			     (unsigned long long)first);
		if (n < 0 || tb->len - tb->pos <= (size_t)n)
			return;
		kh_tb_printf(tb, "%s", line);
		*pos = 1;
	}
	if (*pos - 1 < first) {
		n = snprintf(line, sizeof(line),
			     "# %llu events lost (overwritten)\n",
			     (unsigned long long)(first - (*pos - 1)));
		if (n < 0 || tb->len - tb->pos <= (size_t)n)
			return;
		kh_tb_printf(tb, "%s", line);
		*pos = first + 1;
	}
	while (*pos - 1 < end) {
		if (kh_sim_trace_get(card, *pos - 1, &ev))
			break;
		n = kh_ev_line(&ev, line, sizeof(line));
		if (n < 0 || (size_t)n >= sizeof(line) ||
		    tb->len - tb->pos <= (size_t)n)
			break;
		kh_tb_printf(tb, "%s", line);
		(*pos)++;
	}
}
