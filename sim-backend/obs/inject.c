// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Fault injection (docs/spec/fault-injection.md "inject"): parsing the
 * knobs, and applying them where the model reports through the observers'
 * hub (obs/obs.h; the injector is registered after the checker, before
 * the trace): link transfers, a unit's busy, exec_done and CU_CTRL
 * replies, MAG's DRAM beats, the XDMA engine's events.  A knob that fires
 * is an event every observer is told (the trace records it).
 */
#include "inject.h"
#include "base.h"
#include "mag.h"
#include "router.h"
#include "topo.h"
#include "util.h"

struct ksim_injector {
	struct ksim_observer ob;	/* registered with the hub */
	struct ksim_node node;		/* a timer for the busy knobs' edges */
	struct ksim_knob *knobs;	/* every knob, in id order */
	struct ksim_knob *xdma;		/* xdma knobs (the card's engine) */
	u32 next_knob;
	struct {
		struct ksim_knob *dram;	/* dram knobs */
		u64 dram_rd_errors, dram_wr_errors;
	} mesh[KH_MAX_MESHES];
};

static const char *const ksim_knob_name[KSIM_KNOB_KINDS] = {
	[KSIM_KNOB_DROP] = "drop", [KSIM_KNOB_DUP] = "dup",
	[KSIM_KNOB_BUSY] = "busy", [KSIM_KNOB_FAULT] = "fault",
	[KSIM_KNOB_HANG] = "hang", [KSIM_KNOB_CTRL] = "ctrl",
	[KSIM_KNOB_DRAM] = "dram", [KSIM_KNOB_XDMA] = "xdma",
};

static const char *const ksim_type_names[16] = {
	"MEM_RD_REQ", "MEM_WR_REQ", "MEM_RD_RESP", "MEM_WR_ACK",
	"MEM_WR_DATA", "CU_INST", "CU_SIGNAL", "CU_CTRL", "CU_DATA",
	NULL, NULL, NULL, NULL, NULL, NULL, "ERROR",
};

static const char *const ksim_field_name[] = { "value", "txn", "src", "drop" };
static const char *const ksim_op_name[] = { "any", "read", "write" };
static const char *const ksim_xerr_name[KSIM_XE_KINDS] = {
	[KSIM_XE_MAGIC] = "magic", [KSIM_XE_FETCH] = "fetch",
	[KSIM_XE_HOST] = "host", [KSIM_XE_SLVERR] = "slverr",
	[KSIM_XE_STRAY] = "stray",
};
static const char *const ksim_xdir_name[] = { NULL, "h2c", "c2h", "any" };

enum {
	O_MESH, O_LINK, O_NODE, O_TYPE, O_COUNT, O_AFTER, O_CYCLES, O_CODE,
	O_FIELD, O_XOR, O_OP, O_ADDR, O_LEN, O_DATA, O_ERROR, O_DIR, O_N
};

static const char *const ksim_opt_name[O_N] = {
	"mesh", "link", "node", "type", "count", "after", "cycles", "code",
	"field", "xor", "op", "addr", "len", "data", "error", "dir",
};

#define B(o)	(1u << (o))
static const u32 ksim_allowed[KSIM_KNOB_KINDS] = {
	[KSIM_KNOB_DROP] = B(O_MESH) | B(O_LINK) | B(O_TYPE) | B(O_COUNT) |
			 B(O_AFTER),
	[KSIM_KNOB_DUP] = B(O_MESH) | B(O_LINK) | B(O_TYPE) | B(O_COUNT) |
			B(O_AFTER),
	[KSIM_KNOB_BUSY] = B(O_MESH) | B(O_NODE) | B(O_CYCLES) | B(O_AFTER),
	[KSIM_KNOB_FAULT] = B(O_MESH) | B(O_NODE) | B(O_CODE) | B(O_COUNT) |
			  B(O_AFTER),
	[KSIM_KNOB_HANG] = B(O_MESH) | B(O_NODE) | B(O_COUNT) | B(O_AFTER),
	[KSIM_KNOB_CTRL] = B(O_MESH) | B(O_NODE) | B(O_FIELD) | B(O_XOR) |
			 B(O_COUNT) | B(O_AFTER),
	[KSIM_KNOB_DRAM] = B(O_MESH) | B(O_OP) | B(O_ADDR) | B(O_LEN) |
			 B(O_DATA) | B(O_COUNT) | B(O_AFTER),
	[KSIM_KNOB_XDMA] = B(O_ERROR) | B(O_DIR) | B(O_COUNT) | B(O_AFTER),
};

static const u32 ksim_required[KSIM_KNOB_KINDS] = {
	[KSIM_KNOB_DROP] = B(O_LINK), [KSIM_KNOB_DUP] = B(O_LINK),
	[KSIM_KNOB_BUSY] = B(O_NODE), [KSIM_KNOB_FAULT] = B(O_NODE),
	[KSIM_KNOB_HANG] = B(O_NODE), [KSIM_KNOB_CTRL] = B(O_NODE) | B(O_FIELD),
	[KSIM_KNOB_XDMA] = B(O_ERROR),
};

static struct ksim_injector *ksim_inject_of(struct ksim_observer *ob)
{
	return ksim_container_of(ob, struct ksim_injector, ob);
}

static u64 ksim_now(const struct ksim_injector *inj)
{
	return ksim_obs_now(inj->ob.obs);
}

/* A knob fired: every observer is told (the trace records it). */
static void ksim_knob_event(struct ksim_injector *inj, u64 now,
			    const struct ksim_knob *k, u32 a, u64 v)
{
	struct ksim_trace_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = KSIM_TR_INJECT;
	ev.cycle = now;
	ev.mesh = k->mesh;
	ev.x = k->link ? k->link->l->x : k->x;
	ev.y = k->link ? k->link->l->y : k->y;
	ev.c = k->kind;
	ev.e = k->id;
	ev.a = a;
	ev.v = v;
	ksim_obs_event(inj->ob.obs, &ev);
}

static int ksim_word_pick(const struct ksim_word *w, const char *const *names,
			unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && ksim_word_is(w, names[i]))
			return (int)i;
	return -1;
}

const char *ksim_knob_kind_name(unsigned int kind)
{
	return kind < KSIM_KNOB_KINDS ? ksim_knob_name[kind] : "?";
}

/* "RX,Y.P", "X,Y" (what the endpoint sends), "X,Y.in" (what it receives) */
static struct ksim_obs_link *ksim_find_link(struct ksim_obs *o, unsigned int mesh,
					const struct ksim_word *w)
{
	struct ksim_mesh *m = mesh < o->w.n_mesh ? o->w.mesh[mesh] : NULL;
	struct ksim_word c, suffix;
	unsigned int x, y, i;
	bool dot = ksim_word_cut(w, '.', &c, &suffix);

	if (c.n && c.s[0] == 'R') {
		struct ksim_word xy = { c.s + 1, c.n - 1 };
		int port = -1;

		if (!m || !dot || suffix.n != 1 ||
		    !ksim_word_xy(&xy, KSIM_MAP_MAX - 1, &x, &y))
			return NULL;
		for (i = 0; i < KSIM_PORTS; i++)
			if (suffix.s[0] == ksim_port_letter(i))
				port = (int)i;
		if (port < 0)
			return NULL;
		return ksim_obs_link_of(o, ksim_mesh_router_link(m, x, y,
								 port));
	}
	if (!m || !ksim_word_xy(&c, KSIM_MAP_MAX - 1, &x, &y))
		return NULL;
	if (!dot)
		return ksim_obs_link_of(o, ksim_mesh_endpoint_link(m, x, y));
	if (!ksim_word_is(&suffix, "in"))
		return NULL;
	/* the router port facing (x, y) (its endpoint may sit behind a gate) */
	if (x == 0)
		return ksim_obs_link_of(o, ksim_mesh_router_link(m, 1, y,
								 KSIM_PORT_W));
	if (x == m->w - 1)
		return ksim_obs_link_of(o, ksim_mesh_router_link(m, x - 1,
							    y, KSIM_PORT_E));
	if (y == 0)
		return ksim_obs_link_of(o, ksim_mesh_router_link(m, x, 1,
								 KSIM_PORT_N));
	if (y == m->h - 1)
		return ksim_obs_link_of(o, ksim_mesh_router_link(m, x,
							    y - 1, KSIM_PORT_S));
	return ksim_obs_link_of(o, ksim_mesh_router_link(m, x, y,
							 KSIM_PORT_L));
}

static bool ksim_parse_type(const struct ksim_word *v, s8 *type)
{
	u64 n;
	int i = ksim_word_pick(v, ksim_type_names, 16);

	if (i >= 0) {
		*type = (s8)i;
		return true;
	}
	if (ksim_word_is(v, "any")) {
		*type = -1;
		return true;
	}
	if (!ksim_word_num(v, 15, &n))
		return false;
	*type = (s8)n;
	return true;
}

static bool ksim_parse_count(const struct ksim_word *v, u64 *n, bool *forever)
{
	if (ksim_word_is(v, "forever")) {
		*forever = true;
		*n = 0;
		return true;
	}
	*forever = false;
	return ksim_word_u64(v, n);
}

static void ksim_knob_link_in(struct ksim_injector *inj, struct ksim_knob *k)
{
	struct ksim_knob **p = &inj->knobs, **h;

	while (*p)
		p = &(*p)->next;
	*p = k;
	if (k->link)
		h = &k->link->knobs;
	else if (k->unit)
		h = &k->unit->knobs;
	else if (k->kind == KSIM_KNOB_XDMA)
		h = &inj->xdma;
	else
		h = &inj->mesh[k->mesh].dram;
	while (*h)
		h = &(*h)->next_here;
	*h = k;
}

static int ksim_inject_add(struct ksim_injector *inj,
			   const struct ksim_words *w, unsigned int first,
			   char *err, size_t errlen)
{
	const struct ksim_word *kw = &w->w[first];
	struct ksim_obs *o = inj->ob.obs;
	struct ksim_word link = { NULL, 0 }, key, val;
	unsigned int i, seen = 0, x = 0, y = 0;
	struct ksim_knob kk, *k;
	const char *kn, *isnt;
	int kind, opt, which;
	u64 n;

	kind = ksim_word_pick(kw, ksim_knob_name, KSIM_KNOB_KINDS);
	if (kind < 0)
		return ksim_refuse(err, errlen, "inject: unknown knob '%.*s' (drop, dup, busy, fault, hang, ctrl, dram, xdma, reset, clear)",
				   ksim_cmd_quote(kw), kw->s);
	kn = ksim_knob_name[kind];
	memset(&kk, 0, sizeof(kk));
	kk.kind = kind;
	kk.type = -1;
	kk.count = 1;
	kk.code = 0xfa17;
	kk.xor = 1;
	kk.len = ~0ULL;
	kk.until = 1000;	/* busy: cycles, until resolved below */
	kk.xdir = 3;		/* xdma: either channel */
	for (i = first + 1; i < w->n; i++) {
		if (!ksim_word_kv(&w->w[i], &key, &val))
			return ksim_refuse(err, errlen, "inject %s: '%.*s' is not name=value",
					   kn, ksim_cmd_quote(&w->w[i]), w->w[i].s);
		opt = ksim_word_pick(&key, ksim_opt_name, O_N);
		if (opt < 0 || !(ksim_allowed[kind] & B(opt)))
			return ksim_refuse(err, errlen, "inject %s: unknown option '%.*s'",
					   kn, ksim_cmd_quote(&key), key.s);
		if (seen & B(opt))
			return ksim_refuse(err, errlen, "inject %s: option '%s' given twice",
					   kn, ksim_opt_name[opt]);
		seen |= B(opt);
		which = opt;
		isnt = NULL;
		switch (opt) {
		case O_MESH:
			if (!ksim_word_u64(&val, &n) || n >= o->w.n_mesh)
				return ksim_refuse(err, errlen, "inject %s: no mesh '%.*s' (the card has %u)",
						   kn, ksim_cmd_quote(&val), val.s,
						   o->w.n_mesh);
			kk.mesh = (u8)n;
			break;
		case O_LINK:
			link = val;
			break;
		case O_NODE:
			if (!ksim_word_xy(&val, KSIM_MAP_MAX - 1, &x, &y))
				isnt = "X,Y";
			break;
		case O_TYPE:
			if (!ksim_parse_type(&val, &kk.type))
				return ksim_refuse(err, errlen, "inject %s: unknown flit type '%.*s'",
						   kn, ksim_cmd_quote(&val), val.s);
			break;
		case O_COUNT:
			if (!ksim_parse_count(&val, &kk.count, &kk.forever))
				isnt = "a number or 'forever'";
			break;
		case O_CYCLES:
			if (!ksim_parse_count(&val, &kk.until, &kk.forever))
				isnt = "a number or 'forever'";
			break;
		case O_AFTER:
			if (!ksim_word_u64(&val, &kk.after))
				isnt = "a number";
			break;
		case O_CODE:
			if (!ksim_word_num(&val, 0xffffffffULL, &kk.code))
				isnt = "a 32-bit number";
			break;
		case O_FIELD:
			opt = ksim_word_pick(&val, ksim_field_name, 4);
			if (opt < 0)
				isnt = "value, txn, src or drop";
			kk.field = (u8)opt;
			break;
		case O_XOR:
			if (!ksim_word_u64(&val, &kk.xor))
				isnt = "a number";
			break;
		case O_OP:
			opt = ksim_word_pick(&val, ksim_op_name, 3);
			if (opt < 0)
				isnt = "read, write or any";
			kk.op = (u8)opt;
			break;
		case O_ADDR:
			if (!ksim_word_u64(&val, &kk.addr))
				isnt = "a number";
			break;
		case O_LEN:
			if (!ksim_word_u64(&val, &kk.len) || !kk.len)
				isnt = "a nonzero number";
			break;
		case O_DATA:
			if (ksim_word_is(&val, "zero")) {
				kk.data_mode = KSIM_DD_ZERO;
			} else if (ksim_word_is(&val, "ones")) {
				kk.data_mode = KSIM_DD_ONES;
			} else if (ksim_word_num(&val, 0xffffffffULL, &n)) {
				kk.data_mode = KSIM_DD_PATTERN;
				kk.data = (u32)n;
			} else {
				isnt = "zero, ones or a 32-bit pattern";
			}
			break;
		case O_ERROR:
			opt = ksim_word_pick(&val, ksim_xerr_name, KSIM_XE_KINDS);
			if (opt < 0)
				isnt = "magic, fetch, host, slverr or stray";
			kk.xerr = (u8)opt;
			break;
		case O_DIR:
			opt = ksim_word_pick(&val, ksim_xdir_name, 4);
			if (opt < 0)
				isnt = "h2c, c2h or any";
			kk.xdir = (u8)opt;
			break;
		}
		/* one wording for every value that does not parse */
		if (isnt)
			return ksim_refuse(err, errlen, "inject %s: %s '%.*s' is not %s",
					   kn, ksim_opt_name[which], ksim_cmd_quote(&val),
					   val.s, isnt);
	}
	for (opt = 0; opt < O_N; opt++)
		if ((ksim_required[kind] & B(opt)) && !(seen & B(opt)))
			return ksim_refuse(err, errlen, "inject %s: needs %s=", kn,
					   ksim_opt_name[opt]);
	if (seen & B(O_LINK)) {
		kk.link = ksim_find_link(o, kk.mesh, &link);
		if (!kk.link)
			return ksim_refuse(err, errlen, "inject %s: no link %.*s in mesh %u (RX,Y.P, X,Y or X,Y.in)",
					   kn, ksim_cmd_quote(&link), link.s, kk.mesh);
	}
	if (seen & B(O_NODE)) {
		kk.unit = ksim_obs_unit_of(o, ksim_mesh_unit_at(o->w.mesh[kk.mesh],
								x, y));
		if (!kk.unit)
			return ksim_refuse(err, errlen, "inject %s: no unit at (%u,%u) in mesh %u",
					   kn, x, y, kk.mesh);
		kk.x = x;
		kk.y = y;
	}
	if (kind == KSIM_KNOB_CTRL && !(seen & B(O_XOR)) && kk.field == KSIM_CF_SRC)
		kk.xor = 0x01;
	if (kind == KSIM_KNOB_BUSY) {
		u64 cyc = kk.until;

		kk.from = ksim_now(inj) + kk.after;
		kk.until = kk.forever ? KSIM_NEVER : kk.from + cyc;
	}
	k = ksim_plat_zalloc(sizeof(*k));
	if (!k)
		return ksim_refuse(err, errlen, "inject %s: out of memory", kn);
	*k = kk;
	k->id = ++inj->next_knob;
	ksim_knob_link_in(inj, k);
	ksim_obs_attach(o);
	ksim_inject_timer(inj);
	return 0;
}

static u64 ksim_knob_busy_cycles(const struct ksim_knob *k, u64 now)
{
	u64 e;

	if (now <= k->from)
		return 0;
	e = now < k->until ? now : k->until;
	return e - k->from;
}

static void ksim_knob_unlink(struct ksim_injector *inj, struct ksim_knob *k)
{
	struct ksim_knob **h;

	if (k->link)
		h = &k->link->knobs;
	else if (k->unit)
		h = &k->unit->knobs;
	else if (k->kind == KSIM_KNOB_XDMA)
		h = &inj->xdma;
	else
		h = &inj->mesh[k->mesh].dram;
	while (*h && *h != k)
		h = &(*h)->next_here;
	if (*h)
		*h = k->next_here;
	if (k->kind == KSIM_KNOB_BUSY)
		k->unit->busy_cycles += ksim_knob_busy_cycles(k, ksim_now(inj));
}

static int ksim_inject_clear(struct ksim_injector *inj, u32 id)
{
	struct ksim_knob **p = &inj->knobs, *k;
	bool found = false;

	while (*p) {
		k = *p;
		if (id && k->id != id) {
			p = &k->next;
			continue;
		}
		*p = k->next;
		ksim_knob_unlink(inj, k);
		ksim_plat_free(k);
		found = true;
	}
	ksim_obs_attach(inj->ob.obs);
	ksim_inject_timer(inj);
	return found || !id ? 0 : -ENOENT;
}

/*
 * "inject reset [mesh=M]": now, the mesh's clock wizard takes an SW_RST
 * write of 0xA, as from another agent on the card's bus (a management
 * tool retuning the clock): lock drops and the mesh is held in reset and
 * recovers exactly as docs/model.md "The clock wizard and mesh reset"
 * says.  An event, not a knob: nothing is listed, nothing to clear.
 */
static int ksim_inject_reset(struct ksim_injector *inj,
			     const struct ksim_words *w, unsigned int first,
			     char *err, size_t errlen)
{
	struct ksim_obs *o = inj->ob.obs;
	struct ksim_word key, val;
	u64 mesh = 0;

	if (w->n > first + 2)
		return ksim_refuse(err, errlen, "inject reset: takes only mesh=M");
	if (w->n == first + 2) {
		if (!ksim_word_kv(&w->w[first + 1], &key, &val) ||
		    !ksim_word_is(&key, "mesh"))
			return ksim_refuse(err, errlen, "inject reset: unknown option '%.*s' (only mesh=M)",
					   ksim_cmd_quote(&w->w[first + 1]),
					   w->w[first + 1].s);
		if (!ksim_word_u64(&val, &mesh) || mesh >= o->w.n_mesh)
			return ksim_refuse(err, errlen, "inject reset: no mesh '%.*s' (the card has %u)",
					   ksim_cmd_quote(&val), val.s,
					   o->w.n_mesh);
	}
	o->w.wizard_reset(o->w.ctx, (unsigned int)mesh);
	return 0;
}

int ksim_inject_command(struct ksim_injector *inj, const struct ksim_words *w,
			unsigned int first, char *err, size_t errlen)
{
	u64 id = 0;

	if (first >= w->n)
		return ksim_refuse(err, errlen, "inject: which knob? (drop, dup, busy, fault, hang, ctrl, dram, xdma, reset, clear)");
	if (ksim_word_is(&w->w[first], "reset"))
		return ksim_inject_reset(inj, w, first, err, errlen);
	if (ksim_word_is(&w->w[first], "clear")) {
		if (w->n > first + 2 ||
		    (w->n == first + 2 &&
		     (!ksim_word_num(&w->w[first + 1], 0xffffffffULL, &id) || !id)))
			return ksim_refuse(err, errlen, "inject clear: takes nothing or one knob id");
		if (ksim_inject_clear(inj, (u32)id))
			return ksim_refuse(err, errlen, "inject clear: no knob %llu",
					   (unsigned long long)id);
		return 0;
	}
	return ksim_inject_add(inj, w, first, err, errlen);
}

static int ksim_inject_command_op(struct ksim_observer *ob,
				  const struct ksim_words *w,
				  unsigned int first, char *err, size_t errlen)
{
	return ksim_inject_command(ksim_inject_of(ob), w, first, err, errlen);
}

static void ksim_inject_fini(struct ksim_observer *ob)
{
	struct ksim_injector *inj = ksim_inject_of(ob);
	struct ksim_knob *k = inj->knobs, *n;

	for (; k; k = n) {
		n = k->next;
		ksim_plat_free(k);
	}
	ksim_plat_free(inj);
}

/* ---- listing ---- */

static void ksim_list_count(struct ksim_tbuf *tb, const struct ksim_knob *k)
{
	ksim_tb_printf(tb, " after=%llu passed=%llu hits=%llu left=",
		     (unsigned long long)k->after,
		     (unsigned long long)k->passed,
		     (unsigned long long)k->hits);
	if (k->forever)
		ksim_tb_printf(tb, "forever");
	else
		ksim_tb_printf(tb, "%llu", (unsigned long long)
			     (k->count > k->hits ? k->count - k->hits : 0));
}

void ksim_inject_list(struct ksim_injector *inj, struct ksim_tbuf *tb)
{
	const struct ksim_knob *k;
	u64 now = ksim_now(inj);

	for (k = inj->knobs; k; k = k->next) {
		ksim_tb_printf(tb, "%u %s mesh=%u", k->id, ksim_knob_name[k->kind],
			     k->mesh);
		switch (k->kind) {
		case KSIM_KNOB_DROP:
		case KSIM_KNOB_DUP:
			ksim_tb_printf(tb, " link=%s type=", k->link->name);
			if (k->type < 0)
				ksim_tb_printf(tb, "any");
			else if (ksim_type_names[k->type])
				ksim_tb_printf(tb, "%s", ksim_type_names[k->type]);
			else
				ksim_tb_printf(tb, "%d", k->type);
			ksim_list_count(tb, k);
			break;
		case KSIM_KNOB_BUSY:
			ksim_tb_printf(tb, " node=%u,%u from=%llu until=", k->x,
				     k->y, (unsigned long long)k->from);
			if (k->until == KSIM_NEVER)
				ksim_tb_printf(tb, "forever");
			else
				ksim_tb_printf(tb, "%llu",
					     (unsigned long long)k->until);
			ksim_tb_printf(tb, " %s", now < k->from ? "waiting" :
				     now < k->until ? "active" : "over");
			break;
		case KSIM_KNOB_FAULT:
			ksim_tb_printf(tb, " node=%u,%u code=0x%llx", k->x, k->y,
				     (unsigned long long)k->code);
			ksim_list_count(tb, k);
			break;
		case KSIM_KNOB_HANG:
			ksim_tb_printf(tb, " node=%u,%u", k->x, k->y);
			ksim_list_count(tb, k);
			break;
		case KSIM_KNOB_CTRL:
			ksim_tb_printf(tb, " node=%u,%u field=%s", k->x, k->y,
				     ksim_field_name[k->field]);
			if (k->field != KSIM_CF_DROP)
				ksim_tb_printf(tb, " xor=0x%llx",
					     (unsigned long long)k->xor);
			ksim_list_count(tb, k);
			break;
		case KSIM_KNOB_DRAM:
			ksim_tb_printf(tb, " op=%s addr=0x%llx len=0x%llx data=",
				     ksim_op_name[k->op],
				     (unsigned long long)k->addr,
				     (unsigned long long)k->len);
			if (k->data_mode == KSIM_DD_ZERO)
				ksim_tb_printf(tb, "zero");
			else if (k->data_mode == KSIM_DD_ONES)
				ksim_tb_printf(tb, "ones");
			else
				ksim_tb_printf(tb, "0x%08x", k->data);
			ksim_list_count(tb, k);
			break;
		case KSIM_KNOB_XDMA:
			ksim_tb_printf(tb, " error=%s dir=%s",
				     ksim_xerr_name[k->xerr],
				     ksim_xdir_name[k->xdir]);
			ksim_list_count(tb, k);
			break;
		}
		ksim_tb_printf(tb, "\n");
	}
}

u32 ksim_inject_knobs_set(const struct ksim_injector *inj)
{
	return inj->next_knob;
}

void ksim_inject_dram_errors(const struct ksim_injector *inj,
			     unsigned int mesh, u64 *rd, u64 *wr)
{
	*rd = inj->mesh[mesh].dram_rd_errors;
	*wr = inj->mesh[mesh].dram_wr_errors;
}

/* ---- acting ---- */

/* One event for k: true when the knob acts on it. */
static bool ksim_knob_fire(struct ksim_knob *k)
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

static unsigned int ksim_inject_link_xfer(struct ksim_observer *ob,
					  struct ksim_obs_link *ol, u64 now,
					  unsigned int act)
{
	struct ksim_link *l = ol->l;
	unsigned int type = kh_flit_get(&l->reg, KH_HDR_TYPE);
	struct ksim_knob *k;

	if (!ol->knobs)
		return 0;
	if (ol->kept) {
		/* the kept copy going out is not another event */
		ol->kept = false;
		return 0;
	}
	for (k = ol->knobs; k; k = k->next_here) {
		if (k->type >= 0 && (unsigned int)k->type != type)
			continue;
		if (!ksim_knob_fire(k))
			continue;
		ksim_knob_event(ksim_inject_of(ob), now, k, type,
				ksim_flit_tag(&l->reg));
		if (k->kind == KSIM_KNOB_DROP) {
			l->drops++;
			return KSIM_XFER_DROP;
		}
		l->dups++;
		ol->kept = true;
		ol->inj_dup_tag = ksim_flit_tag(&l->reg);
		return KSIM_XFER_KEEP;
	}
	return 0;
}

static bool ksim_inject_unit_busy(struct ksim_observer *ob,
				  const struct ksim_obs_unit *ou, u64 now)
{
	const struct ksim_knob *k;

	for (k = ou->knobs; k; k = k->next_here)
		if (k->kind == KSIM_KNOB_BUSY && now >= k->from && now < k->until)
			return true;
	return false;
}

/* Cycles the busy knobs of ou held it, to `now` (removed ones included). */
u64 ksim_inject_busy_cycles(const struct ksim_obs_unit *ou, u64 now)
{
	const struct ksim_knob *k;
	u64 n = ou->busy_cycles;

	for (k = ou->knobs; k; k = k->next_here)
		if (k->kind == KSIM_KNOB_BUSY)
			n += ksim_knob_busy_cycles(k, now);
	return n;
}

static void ksim_inject_unit_done(struct ksim_observer *ob,
				  struct ksim_obs_unit *ou)
{
	struct ksim_injector *inj = ksim_inject_of(ob);
	struct ksim_unit *u = ou->u;
	struct ksim_knob *k;
	u64 now = ksim_now(inj);

	if (!u->in_flight)
		return;	/* nothing to fault or hang */
	for (k = ou->knobs; k; k = k->next_here) {
		if (k->kind != KSIM_KNOB_FAULT && k->kind != KSIM_KNOB_HANG)
			continue;
		if (!ksim_knob_fire(k))
			continue;
		ksim_knob_event(inj, now, k, u->cur_txn, 0);
		if (k->kind == KSIM_KNOB_FAULT) {
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

static void ksim_inject_unit_ctrl(struct ksim_observer *ob,
				  struct ksim_obs_unit *ou, struct kh_flit *r)
{
	struct ksim_injector *inj = ksim_inject_of(ob);
	struct ksim_knob *k;
	unsigned int yx;

	for (k = ou->knobs; k; k = k->next_here) {
		if (k->kind != KSIM_KNOB_CTRL || !ksim_knob_fire(k))
			continue;
		ksim_knob_event(inj, ksim_now(inj), k,
				kh_flit_get(r, KH_HDR_TXN),
				kh_flit_get(r, KH_CTRL_INDEX));
		ou->ctrl_corrupted++;
		switch (k->field) {
		case KSIM_CF_VALUE:
			kh_flit_set(r, KH_CTRL_VALUE,
				    kh_flit_get(r, KH_CTRL_VALUE) ^ k->xor);
			break;
		case KSIM_CF_TXN:
			kh_flit_set(r, KH_HDR_TXN,
				    kh_flit_get(r, KH_HDR_TXN) ^ k->xor);
			break;
		case KSIM_CF_SRC:
			yx = KH_YX(kh_flit_get(r, KH_HDR_SRC_X),
				   kh_flit_get(r, KH_HDR_SRC_Y)) ^ (u8)k->xor;
			kh_flit_set(r, KH_HDR_SRC_X, KH_YX_X(yx));
			kh_flit_set(r, KH_HDR_SRC_Y, KH_YX_Y(yx));
			break;
		case KSIM_CF_DROP:
			ou->ctrl_drop = true;
			break;
		}
		return;
	}
}

static struct ksim_knob *ksim_dram_hit(struct ksim_injector *inj,
				       struct ksim_mag_port *mp, u64 a,
				       unsigned int op)
{
	struct ksim_knob *k;

	for (k = inj->mesh[mp->mag->mesh->id].dram; k; k = k->next_here) {
		if (k->op != KSIM_DOP_ANY && k->op != op)
			continue;
		if (a < k->addr || a - k->addr >= k->len)
			continue;
		if (ksim_knob_fire(k))
			return k;
	}
	return NULL;
}

static void ksim_inject_mem_read(struct ksim_observer *ob,
				 struct ksim_mag_port *mp, u64 a, u8 *buf)
{
	struct ksim_injector *inj = ksim_inject_of(ob);
	struct ksim_knob *k;
	unsigned int i;

	if (!inj->mesh[mp->mag->mesh->id].dram)
		return;
	k = ksim_dram_hit(inj, mp, a, KSIM_DOP_READ);
	if (!k)
		return;
	inj->mesh[mp->mag->mesh->id].dram_rd_errors++;
	ksim_knob_event(inj, ksim_now(inj), k, 0, a);
	switch (k->data_mode) {
	case KSIM_DD_ZERO:
		memset(buf, 0, KH_PAYLOAD_BYTES);
		break;
	case KSIM_DD_ONES:
		memset(buf, 0xff, KH_PAYLOAD_BYTES);
		break;
	default:
		for (i = 0; i < KH_PAYLOAD_BYTES; i++)
			buf[i] = (u8)(k->data >> (8 * (i & 3)));
		break;
	}
}

static bool ksim_inject_mem_write(struct ksim_observer *ob,
				  struct ksim_mag_port *mp, u64 a)
{
	struct ksim_injector *inj = ksim_inject_of(ob);
	struct ksim_knob *k;

	if (!inj->mesh[mp->mag->mesh->id].dram)
		return false;
	k = ksim_dram_hit(inj, mp, a, KSIM_DOP_WRITE);
	if (!k)
		return false;
	inj->mesh[mp->mag->mesh->id].dram_wr_errors++;
	ksim_knob_event(inj, ksim_now(inj), k, 1, a);
	return true;
}

static int ksim_inject_xdma(struct ksim_observer *ob, unsigned int c2h,
			    unsigned int event)
{
	struct ksim_injector *inj = ksim_inject_of(ob);
	struct ksim_knob *k;

	for (k = inj->xdma; k; k = k->next_here) {
		unsigned int ev = k->xerr == KSIM_XE_SLVERR ||
				  k->xerr == KSIM_XE_STRAY ? KSIM_XE_HOST :
				  k->xerr;

		if (ev != event || !(k->xdir & (1u << c2h)))
			continue;
		if (!ksim_knob_fire(k))
			continue;
		ksim_knob_event(inj, ksim_now(inj), k, c2h, k->xerr);
		return k->xerr;
	}
	return -1;
}

void ksim_inject_timer(struct ksim_injector *inj)
{
	const struct ksim_knob *k;
	u64 now = ksim_now(inj), t = KSIM_NEVER;

	for (k = inj->knobs; k; k = k->next) {
		if (k->kind != KSIM_KNOB_BUSY)
			continue;
		if (k->from > now)
			t = ksim_min_u64(t, k->from);
		else if (k->until > now)
			t = ksim_min_u64(t, k->until);
	}
	ksim_node_timer(&inj->node, t);
}

/* ---- the observer ---- */

static unsigned int ksim_inject_tick(struct ksim_node *n)
{
	struct ksim_injector *inj = ksim_container_of(n, struct ksim_injector,
						      node);

	/* a busy knob's edge: re-arm for the next one */
	ksim_inject_timer(inj);
	return KSIM_TICK_IDLE;	/* until the timer */
}

static const struct ksim_node_ops ksim_inject_node_ops = {
	.tick = ksim_inject_tick,
};

static bool ksim_inject_watch_link(struct ksim_observer *ob,
				   const struct ksim_obs_link *ol)
{
	return ol->knobs;
}

static bool ksim_inject_watch_unit(struct ksim_observer *ob,
				   const struct ksim_obs_unit *ou)
{
	return ou->knobs;
}

static bool ksim_inject_watch_mesh(struct ksim_observer *ob, unsigned int mesh)
{
	return ksim_inject_of(ob)->mesh[mesh].dram;
}

static bool ksim_inject_watch_card(struct ksim_observer *ob)
{
	return ksim_inject_of(ob)->xdma;
}

static bool ksim_inject_unit_busy_op(struct ksim_observer *ob,
				     const struct ksim_obs_unit *ou, u64 now)
{
	return ou->knobs && ksim_inject_unit_busy(ob, ou, now);
}

static void ksim_inject_unit_reply(struct ksim_observer *ob,
				   struct ksim_obs_unit *ou,
				   struct kh_flit *reply)
{
	if (ou->knobs)
		ksim_inject_unit_ctrl(ob, ou, reply);
}

/* the reply leaves: a ctrl knob with field=drop loses it */
static bool ksim_inject_reply_out(struct ksim_observer *ob,
				  struct ksim_obs_unit *ou, bool lost)
{
	bool drop = ou->ctrl_drop;

	ou->ctrl_drop = false;
	return lost || drop;
}

static void ksim_inject_unit_done_op(struct ksim_observer *ob,
				     struct ksim_obs_unit *ou)
{
	if (ou->knobs)
		ksim_inject_unit_done(ob, ou);
}

static void ksim_inject_unit_reset(struct ksim_observer *ob,
				   struct ksim_obs_unit *ou)
{
	ou->hung = false;
	ou->ctrl_drop = false;
}

static const struct ksim_observer_ops ksim_inject_ops = {
	.name = "inject",
	.command = ksim_inject_command_op,
	.fini = ksim_inject_fini,
	.watch_link = ksim_inject_watch_link,
	.watch_unit = ksim_inject_watch_unit,
	.watch_mesh = ksim_inject_watch_mesh,
	.watch_card = ksim_inject_watch_card,
	.link_xfer = ksim_inject_link_xfer,
	.unit_busy = ksim_inject_unit_busy_op,
	.unit_done = ksim_inject_unit_done_op,
	.unit_reply = ksim_inject_unit_reply,
	.unit_reply_out = ksim_inject_reply_out,
	.unit_reset = ksim_inject_unit_reset,
	.mem_read = ksim_inject_mem_read,
	.mem_write = ksim_inject_mem_write,
	.xdma_knob = ksim_inject_xdma,
};

struct ksim_injector *ksim_inject_create(struct ksim_obs *o, int *err)
{
	struct ksim_injector *inj = ksim_plat_zalloc(sizeof(*inj));

	if (!inj) {
		*err = -ENOMEM;
		return NULL;
	}
	inj->ob.ops = &ksim_inject_ops;
	*err = ksim_sched_add(o->w.sched, &inj->node, &ksim_inject_node_ops);
	if (!*err)
		*err = ksim_obs_register(o, &inj->ob);
	if (*err) {
		ksim_plat_free(inj);
		return NULL;
	}
	return inj;
}
