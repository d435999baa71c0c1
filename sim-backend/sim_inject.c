// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Fault injection (docs/spec/fault-injection.md "inject"): parsing the
 * knobs, and applying them where the model calls in: link transfers, a
 * unit's busy, exec_done and CU_CTRL replies, MAG's DRAM beats.
 */
#include "sim_inject.h"
#include "sim_base.h"
#include "sim_card.h"
#include "sim_check.h"
#include "sim_mag.h"
#include "sim_router.h"
#include "sim_trace.h"
#include "sim_util.h"

static const char *const kh_knob_name[KH_KNOB_KINDS] = {
	[KH_KNOB_DROP] = "drop", [KH_KNOB_DUP] = "dup",
	[KH_KNOB_BUSY] = "busy", [KH_KNOB_FAULT] = "fault",
	[KH_KNOB_HANG] = "hang", [KH_KNOB_CTRL] = "ctrl",
	[KH_KNOB_DRAM] = "dram",
};

static const char *const kh_type_names[16] = {
	"MEM_RD_REQ", "MEM_WR_REQ", "MEM_RD_RESP", "MEM_WR_ACK",
	"MEM_WR_DATA", "CU_INST", "CU_SIGNAL", "CU_CTRL", "CU_DATA",
	NULL, NULL, NULL, NULL, NULL, NULL, "ERROR",
};

static const char *const kh_field_name[] = { "value", "txn", "src", "drop" };
static const char *const kh_op_name[] = { "any", "read", "write" };
static const char kh_port_letter[KH_PORTS] = { 'N', 'E', 'S', 'W', 'L' };

enum {
	O_MESH, O_LINK, O_NODE, O_TYPE, O_COUNT, O_AFTER, O_CYCLES, O_CODE,
	O_FIELD, O_XOR, O_OP, O_ADDR, O_LEN, O_DATA, O_N
};

static const char *const kh_opt_name[O_N] = {
	"mesh", "link", "node", "type", "count", "after", "cycles", "code",
	"field", "xor", "op", "addr", "len", "data",
};

#define B(o)	(1u << (o))
static const u32 kh_allowed[KH_KNOB_KINDS] = {
	[KH_KNOB_DROP] = B(O_MESH) | B(O_LINK) | B(O_TYPE) | B(O_COUNT) |
			 B(O_AFTER),
	[KH_KNOB_DUP] = B(O_MESH) | B(O_LINK) | B(O_TYPE) | B(O_COUNT) |
			B(O_AFTER),
	[KH_KNOB_BUSY] = B(O_MESH) | B(O_NODE) | B(O_CYCLES) | B(O_AFTER),
	[KH_KNOB_FAULT] = B(O_MESH) | B(O_NODE) | B(O_CODE) | B(O_COUNT) |
			  B(O_AFTER),
	[KH_KNOB_HANG] = B(O_MESH) | B(O_NODE) | B(O_COUNT) | B(O_AFTER),
	[KH_KNOB_CTRL] = B(O_MESH) | B(O_NODE) | B(O_FIELD) | B(O_XOR) |
			 B(O_COUNT) | B(O_AFTER),
	[KH_KNOB_DRAM] = B(O_MESH) | B(O_OP) | B(O_ADDR) | B(O_LEN) |
			 B(O_DATA) | B(O_COUNT) | B(O_AFTER),
};

static const u32 kh_required[KH_KNOB_KINDS] = {
	[KH_KNOB_DROP] = B(O_LINK), [KH_KNOB_DUP] = B(O_LINK),
	[KH_KNOB_BUSY] = B(O_NODE), [KH_KNOB_FAULT] = B(O_NODE),
	[KH_KNOB_HANG] = B(O_NODE), [KH_KNOB_CTRL] = B(O_NODE) | B(O_FIELD),
};

#define kh_ierr(err, errlen, fmt, ...)					\
	({								\
		if ((err) && (errlen))					\
			snprintf((err), (errlen), fmt, ##__VA_ARGS__);	\
		-EINVAL;						\
	})

static u64 kh_now(const struct kh_obs *o)
{
	return o->card->sched.now;
}

static int kh_word_pick(const struct kh_word *w, const char *const *names,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && kh_word_is(w, names[i]))
			return (int)i;
	return -1;
}

static struct kh_obs_link *kh_obs_link_of(struct kh_obs *o,
					  const struct kh_link *l)
{
	unsigned int i;

	for (i = 0; l && i < o->n_links; i++)
		if (o->links[i].l == l)
			return &o->links[i];
	return NULL;
}

static struct kh_obs_unit *kh_obs_unit_of(struct kh_obs *o,
					  const struct kh_unit *u)
{
	unsigned int i;

	for (i = 0; u && i < o->n_units; i++)
		if (o->units[i].u == u)
			return &o->units[i];
	return NULL;
}

/* "RX,Y.P", "X,Y" (what the endpoint sends), "X,Y.in" (what it receives) */
static struct kh_obs_link *kh_find_link(struct kh_obs *o, unsigned int mesh,
					const struct kh_word *w)
{
	struct kh_sim_card *card = o->card;
	struct kh_word c = *w;
	const struct kh_mesh *m;
	unsigned int x, y, i;
	size_t dot;

	for (dot = 0; dot < c.n && c.s[dot] != '.'; dot++)
		;
	if (c.n && c.s[0] == 'R') {
		struct kh_word xy = { c.s + 1, dot - 1 };
		int port = -1;

		if (dot + 2 != c.n || !kh_word_xy(&xy, &x, &y))
			return NULL;
		for (i = 0; i < KH_PORTS; i++)
			if (c.s[dot + 1] == kh_port_letter[i])
				port = (int)i;
		if (port < 0)
			return NULL;
		return kh_obs_link_of(o, kh_sim_router_link(card, mesh, x, y,
							    port));
	}
	c.n = dot;
	if (!kh_word_xy(&c, &x, &y))
		return NULL;
	if (dot == w->n)
		return kh_obs_link_of(o, kh_sim_endpoint_link(card, mesh, x, y));
	if (w->n - dot != 3 || memcmp(w->s + dot, ".in", 3) ||
	    mesh >= card->n_mesh)
		return NULL;
	/* the router port facing (x, y) (its endpoint may sit behind a gate) */
	m = card->mesh[mesh];
	if (x == 0)
		return kh_obs_link_of(o, kh_sim_router_link(card, mesh, 1, y,
							    KH_PORT_W));
	if (x == m->w - 1)
		return kh_obs_link_of(o, kh_sim_router_link(card, mesh, x - 1,
							    y, KH_PORT_E));
	if (y == 0)
		return kh_obs_link_of(o, kh_sim_router_link(card, mesh, x, 1,
							    KH_PORT_N));
	if (y == m->h - 1)
		return kh_obs_link_of(o, kh_sim_router_link(card, mesh, x,
							    y - 1, KH_PORT_S));
	return kh_obs_link_of(o, kh_sim_router_link(card, mesh, x, y,
						    KH_PORT_L));
}

static bool kh_parse_type(const struct kh_word *v, s8 *type)
{
	u64 n;
	int i = kh_word_pick(v, kh_type_names, 16);

	if (i >= 0) {
		*type = (s8)i;
		return true;
	}
	if (kh_word_is(v, "any")) {
		*type = -1;
		return true;
	}
	if (!kh_word_u64(v, &n) || n > 15)
		return false;
	*type = (s8)n;
	return true;
}

static bool kh_parse_count(const struct kh_word *v, u64 *n, bool *forever)
{
	if (kh_word_is(v, "forever")) {
		*forever = true;
		*n = 0;
		return true;
	}
	*forever = false;
	return kh_word_u64(v, n);
}

static void kh_knob_link_in(struct kh_obs *o, struct kh_knob *k)
{
	struct kh_knob **p = &o->knobs, **h;

	while (*p)
		p = &(*p)->next;
	*p = k;
	if (k->link)
		h = &k->link->knobs;
	else if (k->unit)
		h = &k->unit->knobs;
	else
		h = &o->mesh[k->mesh].dram;
	while (*h)
		h = &(*h)->next_here;
	*h = k;
}

static int kh_inject_add(struct kh_obs *o, const struct kh_words *w,
			 unsigned int first, char *err, size_t errlen)
{
	const struct kh_word *kw = &w->w[first];
	struct kh_sim_card *card = o->card;
	struct kh_word link = { NULL, 0 }, key, val;
	unsigned int i, seen = 0, x = 0, y = 0;
	struct kh_knob kk, *k;
	const char *kn, *isnt;
	int kind, opt, which;
	u64 n;

	kind = kh_word_pick(kw, kh_knob_name, KH_KNOB_KINDS);
	if (kind < 0)
		return kh_ierr(err, errlen, "inject: unknown knob '%.*s' (drop, dup, busy, fault, hang, ctrl, dram, clear)",
			       kh_word_len(kw), kw->s);
	kn = kh_knob_name[kind];
	memset(&kk, 0, sizeof(kk));
	kk.kind = kind;
	kk.type = -1;
	kk.count = 1;
	kk.code = 0xfa17;
	kk.xor = 1;
	kk.len = ~0ULL;
	kk.until = 1000;	/* busy: cycles, until resolved below */
	for (i = first + 1; i < w->n; i++) {
		if (!kh_word_kv(&w->w[i], &key, &val))
			return kh_ierr(err, errlen, "inject %s: '%.*s' is not name=value",
				       kn, kh_word_len(&w->w[i]), w->w[i].s);
		opt = kh_word_pick(&key, kh_opt_name, O_N);
		if (opt < 0 || !(kh_allowed[kind] & B(opt)))
			return kh_ierr(err, errlen, "inject %s: unknown option '%.*s'",
				       kn, kh_word_len(&key), key.s);
		if (seen & B(opt))
			return kh_ierr(err, errlen, "inject %s: option '%s' given twice",
				       kn, kh_opt_name[opt]);
		seen |= B(opt);
		which = opt;
		isnt = NULL;
		switch (opt) {
		case O_MESH:
			if (!kh_word_u64(&val, &n) || n >= card->n_mesh)
				return kh_ierr(err, errlen, "inject %s: no mesh '%.*s' (the card has %u)",
					       kn, kh_word_len(&val), val.s,
					       card->n_mesh);
			kk.mesh = (u8)n;
			break;
		case O_LINK:
			link = val;
			break;
		case O_NODE:
			if (!kh_word_xy(&val, &x, &y))
				isnt = "X,Y";
			break;
		case O_TYPE:
			if (!kh_parse_type(&val, &kk.type))
				return kh_ierr(err, errlen, "inject %s: unknown flit type '%.*s'",
					       kn, kh_word_len(&val), val.s);
			break;
		case O_COUNT:
			if (!kh_parse_count(&val, &kk.count, &kk.forever))
				isnt = "a number or 'forever'";
			break;
		case O_CYCLES:
			if (!kh_parse_count(&val, &kk.until, &kk.forever))
				isnt = "a number or 'forever'";
			break;
		case O_AFTER:
			if (!kh_word_u64(&val, &kk.after))
				isnt = "a number";
			break;
		case O_CODE:
			if (!kh_word_u64(&val, &kk.code) || kk.code > 0xffffffffULL)
				isnt = "a 32-bit number";
			break;
		case O_FIELD:
			opt = kh_word_pick(&val, kh_field_name, 4);
			if (opt < 0)
				isnt = "value, txn, src or drop";
			kk.field = (u8)opt;
			break;
		case O_XOR:
			if (!kh_word_u64(&val, &kk.xor))
				isnt = "a number";
			break;
		case O_OP:
			opt = kh_word_pick(&val, kh_op_name, 3);
			if (opt < 0)
				isnt = "read, write or any";
			kk.op = (u8)opt;
			break;
		case O_ADDR:
			if (!kh_word_u64(&val, &kk.addr))
				isnt = "a number";
			break;
		case O_LEN:
			if (!kh_word_u64(&val, &kk.len) || !kk.len)
				isnt = "a nonzero number";
			break;
		case O_DATA:
			if (kh_word_is(&val, "zero")) {
				kk.data_mode = KH_DD_ZERO;
			} else if (kh_word_is(&val, "ones")) {
				kk.data_mode = KH_DD_ONES;
			} else if (kh_word_u64(&val, &n) && n <= 0xffffffffULL) {
				kk.data_mode = KH_DD_PATTERN;
				kk.data = (u32)n;
			} else {
				isnt = "zero, ones or a 32-bit pattern";
			}
			break;
		}
		/* one wording for every value that does not parse */
		if (isnt)
			return kh_ierr(err, errlen, "inject %s: %s '%.*s' is not %s",
				       kn, kh_opt_name[which], kh_word_len(&val),
				       val.s, isnt);
	}
	for (opt = 0; opt < O_N; opt++)
		if ((kh_required[kind] & B(opt)) && !(seen & B(opt)))
			return kh_ierr(err, errlen, "inject %s: needs %s=", kn,
				       kh_opt_name[opt]);
	if (seen & B(O_LINK)) {
		kk.link = kh_find_link(o, kk.mesh, &link);
		if (!kk.link)
			return kh_ierr(err, errlen, "inject %s: no link %.*s in mesh %u (RX,Y.P, X,Y or X,Y.in)",
				       kn, kh_word_len(&link), link.s, kk.mesh);
	}
	if (seen & B(O_NODE)) {
		kk.unit = kh_obs_unit_of(o, kh_sim_unit_at(card, kk.mesh, x, y));
		if (!kk.unit)
			return kh_ierr(err, errlen, "inject %s: no unit at (%u,%u) in mesh %u",
				       kn, x, y, kk.mesh);
		kk.x = x;
		kk.y = y;
	}
	if (kind == KH_KNOB_CTRL && !(seen & B(O_XOR)) && kk.field == KH_CF_SRC)
		kk.xor = 0x01;
	if (kind == KH_KNOB_BUSY) {
		u64 cyc = kk.until;

		kk.from = kh_now(o) + kk.after;
		kk.until = kk.forever ? KH_NEVER : kk.from + cyc;
	}
	k = kh_plat_zalloc(sizeof(*k));
	if (!k)
		return kh_ierr(err, errlen, "inject %s: out of memory", kn);
	*k = kk;
	k->id = ++o->next_knob;
	kh_knob_link_in(o, k);
	kh_obs_attach(o);
	kh_inject_timer(o);
	return 0;
}

static u64 kh_knob_busy_cycles(const struct kh_knob *k, u64 now)
{
	u64 e;

	if (now <= k->from)
		return 0;
	e = now < k->until ? now : k->until;
	return e - k->from;
}

static void kh_knob_unlink(struct kh_obs *o, struct kh_knob *k)
{
	struct kh_knob **h;

	if (k->link)
		h = &k->link->knobs;
	else if (k->unit)
		h = &k->unit->knobs;
	else
		h = &o->mesh[k->mesh].dram;
	while (*h && *h != k)
		h = &(*h)->next_here;
	if (*h)
		*h = k->next_here;
	if (k->kind == KH_KNOB_BUSY)
		k->unit->busy_cycles += kh_knob_busy_cycles(k, kh_now(o));
}

static int kh_inject_clear(struct kh_obs *o, u32 id)
{
	struct kh_knob **p = &o->knobs, *k;
	bool found = false;

	while (*p) {
		k = *p;
		if (id && k->id != id) {
			p = &k->next;
			continue;
		}
		*p = k->next;
		kh_knob_unlink(o, k);
		kh_plat_free(k);
		found = true;
	}
	kh_obs_attach(o);
	kh_inject_timer(o);
	return found || !id ? 0 : -ENOENT;
}

int kh_inject_command(struct kh_obs *o, const struct kh_words *w,
		      unsigned int first, char *err, size_t errlen)
{
	u64 id = 0;

	if (first >= w->n)
		return kh_ierr(err, errlen, "inject: which knob? (drop, dup, busy, fault, hang, ctrl, dram, clear)");
	if (kh_word_is(&w->w[first], "clear")) {
		if (w->n > first + 2 ||
		    (w->n == first + 2 && (!kh_word_u64(&w->w[first + 1], &id) ||
					   !id || id > 0xffffffffULL)))
			return kh_ierr(err, errlen, "inject clear: takes nothing or one knob id");
		if (kh_inject_clear(o, (u32)id))
			return kh_ierr(err, errlen, "inject clear: no knob %llu",
				       (unsigned long long)id);
		return 0;
	}
	return kh_inject_add(o, w, first, err, errlen);
}

void kh_inject_free(struct kh_obs *o)
{
	struct kh_knob *k = o->knobs, *n;

	for (; k; k = n) {
		n = k->next;
		kh_plat_free(k);
	}
	o->knobs = NULL;
}

/* ---- listing ---- */

static void kh_list_count(struct kh_tbuf *tb, const struct kh_knob *k)
{
	kh_tb_printf(tb, " after=%llu passed=%llu hits=%llu left=",
		     (unsigned long long)k->after,
		     (unsigned long long)k->passed,
		     (unsigned long long)k->hits);
	if (k->forever)
		kh_tb_printf(tb, "forever");
	else
		kh_tb_printf(tb, "%llu", (unsigned long long)
			     (k->count > k->hits ? k->count - k->hits : 0));
}

void kh_inject_list(struct kh_obs *o, struct kh_tbuf *tb)
{
	const struct kh_knob *k;
	u64 now = kh_now(o);

	for (k = o->knobs; k; k = k->next) {
		kh_tb_printf(tb, "%u %s mesh=%u", k->id, kh_knob_name[k->kind],
			     k->mesh);
		switch (k->kind) {
		case KH_KNOB_DROP:
		case KH_KNOB_DUP:
			kh_tb_printf(tb, " link=%s type=", k->link->name);
			if (k->type < 0)
				kh_tb_printf(tb, "any");
			else if (kh_type_names[k->type])
				kh_tb_printf(tb, "%s", kh_type_names[k->type]);
			else
				kh_tb_printf(tb, "%d", k->type);
			kh_list_count(tb, k);
			break;
		case KH_KNOB_BUSY:
			kh_tb_printf(tb, " node=%u,%u from=%llu until=", k->x,
				     k->y, (unsigned long long)k->from);
			if (k->until == KH_NEVER)
				kh_tb_printf(tb, "forever");
			else
				kh_tb_printf(tb, "%llu",
					     (unsigned long long)k->until);
			kh_tb_printf(tb, " %s", now < k->from ? "waiting" :
				     now < k->until ? "active" : "over");
			break;
		case KH_KNOB_FAULT:
			kh_tb_printf(tb, " node=%u,%u code=0x%llx", k->x, k->y,
				     (unsigned long long)k->code);
			kh_list_count(tb, k);
			break;
		case KH_KNOB_HANG:
			kh_tb_printf(tb, " node=%u,%u", k->x, k->y);
			kh_list_count(tb, k);
			break;
		case KH_KNOB_CTRL:
			kh_tb_printf(tb, " node=%u,%u field=%s", k->x, k->y,
				     kh_field_name[k->field]);
			if (k->field != KH_CF_DROP)
				kh_tb_printf(tb, " xor=0x%llx",
					     (unsigned long long)k->xor);
			kh_list_count(tb, k);
			break;
		case KH_KNOB_DRAM:
			kh_tb_printf(tb, " op=%s addr=0x%llx len=0x%llx data=",
				     kh_op_name[k->op],
				     (unsigned long long)k->addr,
				     (unsigned long long)k->len);
			if (k->data_mode == KH_DD_ZERO)
				kh_tb_printf(tb, "zero");
			else if (k->data_mode == KH_DD_ONES)
				kh_tb_printf(tb, "ones");
			else
				kh_tb_printf(tb, "0x%08x", k->data);
			kh_list_count(tb, k);
			break;
		}
		kh_tb_printf(tb, "\n");
	}
}

/* ---- acting ---- */

/* One event for k: true when the knob acts on it. */
static bool kh_knob_fire(struct kh_knob *k)
{
	if (k->passed < k->after) {
		k->passed++;
		return false;
	}
	if (!k->forever && k->hits >= k->count)
		return false;
	k->hits++;
	return true;
}

unsigned int kh_inject_link_xfer(struct kh_obs_link *ol, u64 now)
{
	struct kh_link *l = ol->l;
	unsigned int type = kh_flit_get(&l->reg, KH_HDR_TYPE);
	struct kh_knob *k;

	if (ol->kept) {
		/* the kept copy going out is not another event */
		ol->kept = false;
		return 0;
	}
	for (k = ol->knobs; k; k = k->next_here) {
		if (k->type >= 0 && (unsigned int)k->type != type)
			continue;
		if (!kh_knob_fire(k))
			continue;
		kh_trace_inject(ol->obs, now, k, type, kh_flit_tag(&l->reg));
		if (k->kind == KH_KNOB_DROP) {
			l->drops++;
			if (ol->obs->check_on)
				kh_check_dropped(ol);
			return KH_XFER_DROP;
		}
		l->dups++;
		ol->kept = true;
		ol->inj_dup_tag = kh_flit_tag(&l->reg);
		return KH_XFER_KEEP;
	}
	return 0;
}

bool kh_inject_unit_busy(const struct kh_obs_unit *ou, u64 now)
{
	const struct kh_knob *k;

	for (k = ou->knobs; k; k = k->next_here)
		if (k->kind == KH_KNOB_BUSY && now >= k->from && now < k->until)
			return true;
	return false;
}

/* Cycles the busy knobs of ou held it, to `now` (removed ones included). */
u64 kh_inject_busy_cycles(const struct kh_obs_unit *ou, u64 now)
{
	const struct kh_knob *k;
	u64 n = ou->busy_cycles;

	for (k = ou->knobs; k; k = k->next_here)
		if (k->kind == KH_KNOB_BUSY)
			n += kh_knob_busy_cycles(k, now);
	return n;
}

void kh_inject_unit_done(struct kh_obs_unit *ou)
{
	struct kh_unit *u = ou->u;
	struct kh_knob *k;
	u64 now = kh_now(ou->obs);

	for (k = ou->knobs; k; k = k->next_here) {
		if (k->kind != KH_KNOB_FAULT && k->kind != KH_KNOB_HANG)
			continue;
		if (!kh_knob_fire(k))
			continue;
		kh_trace_inject(ou->obs, now, k, u->cur_txn, 0);
		if (k->kind == KH_KNOB_FAULT) {
			u->p_fault = true;
			u->p_result = (u32)k->code;
			ou->faults_injected++;
		} else {
			u->p_done = false;
			ou->hung = true;
			ou->hangs_injected++;
		}
		return;
	}
}

void kh_inject_unit_ctrl(struct kh_obs_unit *ou, struct kh_flit *r)
{
	struct kh_knob *k;
	unsigned int yx;

	for (k = ou->knobs; k; k = k->next_here) {
		if (k->kind != KH_KNOB_CTRL || !kh_knob_fire(k))
			continue;
		kh_trace_inject(ou->obs, kh_now(ou->obs), k,
				kh_flit_get(r, KH_HDR_TXN),
				kh_flit_get(r, KH_CTRL_INDEX));
		ou->ctrl_corrupted++;
		switch (k->field) {
		case KH_CF_VALUE:
			kh_flit_set(r, KH_CTRL_VALUE,
				    kh_flit_get(r, KH_CTRL_VALUE) ^ k->xor);
			break;
		case KH_CF_TXN:
			kh_flit_set(r, KH_HDR_TXN,
				    kh_flit_get(r, KH_HDR_TXN) ^ k->xor);
			break;
		case KH_CF_SRC:
			yx = KH_YX(kh_flit_get(r, KH_HDR_SRC_X),
				   kh_flit_get(r, KH_HDR_SRC_Y)) ^ (u8)k->xor;
			kh_flit_set(r, KH_HDR_SRC_X, KH_YX_X(yx));
			kh_flit_set(r, KH_HDR_SRC_Y, KH_YX_Y(yx));
			break;
		case KH_CF_DROP:
			ou->ctrl_drop = true;
			break;
		}
		return;
	}
}

static struct kh_knob *kh_dram_hit(struct kh_obs *o, struct kh_mag_port *mp,
				   u64 a, unsigned int op)
{
	struct kh_knob *k;

	for (k = o->mesh[mp->mag->mesh->id].dram; k; k = k->next_here) {
		if (k->op != KH_DOP_ANY && k->op != op)
			continue;
		if (a < k->addr || a - k->addr >= k->len)
			continue;
		if (kh_knob_fire(k))
			return k;
	}
	return NULL;
}

void kh_inject_mem_read(struct kh_obs *o, struct kh_mag_port *mp, u64 a,
			u8 *buf)
{
	struct kh_knob *k = kh_dram_hit(o, mp, a, KH_DOP_READ);
	unsigned int i;

	if (!k)
		return;
	o->mesh[mp->mag->mesh->id].dram_rd_errors++;
	kh_trace_inject(o, kh_now(o), k, 0, a);
	switch (k->data_mode) {
	case KH_DD_ZERO:
		memset(buf, 0, KH_PAYLOAD_BYTES);
		break;
	case KH_DD_ONES:
		memset(buf, 0xff, KH_PAYLOAD_BYTES);
		break;
	default:
		for (i = 0; i < KH_PAYLOAD_BYTES; i++)
			buf[i] = (u8)(k->data >> (8 * (i & 3)));
		break;
	}
}

bool kh_inject_mem_write(struct kh_obs *o, struct kh_mag_port *mp, u64 a)
{
	struct kh_knob *k = kh_dram_hit(o, mp, a, KH_DOP_WRITE);

	if (!k)
		return false;
	o->mesh[mp->mag->mesh->id].dram_wr_errors++;
	kh_trace_inject(o, kh_now(o), k, 1, a);
	return true;
}

void kh_inject_timer(struct kh_obs *o)
{
	const struct kh_knob *k;
	u64 now = kh_now(o), t = KH_NEVER;

	for (k = o->knobs; k; k = k->next) {
		if (k->kind != KH_KNOB_BUSY)
			continue;
		if (k->from > now)
			t = kh_min_u64(t, k->from);
		else if (k->until > now)
			t = kh_min_u64(t, k->until);
	}
	kh_node_timer(&o->node, t);
}
