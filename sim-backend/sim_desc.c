// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card-description parser (docs/spec/card-description.md).  It works
 * in place on the text, keeps nothing big on the stack, and reports the
 * first problem as "line N: ...".
 */
#include "sim_desc.h"
#include "sim_util.h"

#define KH_DESC_MAX_TOK		(KH_MAP_MAX + 1)	/* enough to see "too many" */
#define KH_TOK_SHOW		32			/* token chars in messages */

struct kh_tok {
	const char *s;
	size_t n;
};

struct kh_parse {
	struct kh_desc *d;
	const struct kh_unit_types *types;
	char *err;
	size_t errlen;
	unsigned int line;
	unsigned int rows;
	unsigned int last_row_line;
	struct kh_tok tok[KH_DESC_MAX_TOK];
	unsigned int ntok;
};

#define kh_perr(ps, fmt, ...)						\
	({								\
		if ((ps)->err && (ps)->errlen)				\
			snprintf((ps)->err, (ps)->errlen, "line %u: " fmt, \
				 (ps)->line, ##__VA_ARGS__);		\
		-EINVAL;						\
	})

static int tok_len(const struct kh_tok *t)
{
	return (int)(t->n < KH_TOK_SHOW ? t->n : KH_TOK_SHOW);
}

static bool tok_is(const struct kh_tok *t, const char *s)
{
	size_t n = strlen(s);

	return t->n == n && !memcmp(t->s, s, n);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split [s, e) into tokens; counts all of them, stores the first few. */
static void kh_tokenize(struct kh_parse *ps, const char *s, const char *e)
{
	ps->ntok = 0;
	while (s < e) {
		const char *b;

		while (s < e && is_space(*s))
			s++;
		if (s >= e)
			break;
		b = s;
		while (s < e && !is_space(*s))
			s++;
		if (ps->ntok < KH_DESC_MAX_TOK) {
			ps->tok[ps->ntok].s = b;
			ps->tok[ps->ntok].n = (size_t)(s - b);
		}
		ps->ntok++;
	}
}

static bool kh_parse_u32(const struct kh_tok *t, u32 *out)
{
	u64 v = 0;
	size_t i = 0;
	unsigned int base = 10;

	if (t->n > 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= t->n)
		return false;
	for (; i < t->n; i++) {
		char c = t->s[i];
		unsigned int dgt;

		if (c >= '0' && c <= '9')
			dgt = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			dgt = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			dgt = c - 'A' + 10;
		else
			return false;
		v = v * base + dgt;
		if (v > 0xffffffffULL)
			return false;
	}
	*out = (u32)v;
	return true;
}

/* ---- param directives ---- */

enum {
	KH_P_INST_DEPTH,
	KH_P_RECV_DEPTH,
	KH_P_ROUTER_FIFO,
	KH_P_CU_VERSION,
	KH_P_DRAM_MIB,
	KH_P_WR_SLOTS,
	KH_P_MEM_RD_LATENCY,
	KH_P_MEM_WR_LATENCY,
};

static const struct {
	const char *name;
	u32 min, max;
} kh_params[] = {
	[KH_P_INST_DEPTH] = { "inst_depth", 1, 65535 },
	[KH_P_RECV_DEPTH] = { "recv_depth", 1, 65535 },
	[KH_P_ROUTER_FIFO] = { "router_fifo", 1, 65535 },
	[KH_P_CU_VERSION] = { "cu_version", 0, 255 },
	[KH_P_DRAM_MIB] = { "dram_mib", 1, 4096 },
	[KH_P_WR_SLOTS] = { "wr_slots", 1, 256 },
	[KH_P_MEM_RD_LATENCY] = { "mem_rd_latency", 1, 100000 },
	[KH_P_MEM_WR_LATENCY] = { "mem_wr_latency", 1, 100000 },
};

static int kh_parse_param(struct kh_parse *ps)
{
	struct kh_sim_params *p = &ps->d->p;
	const struct kh_tok *name = &ps->tok[1], *val = &ps->tok[2];
	unsigned int i;
	u32 v;

	if (ps->ntok < 3)
		return kh_perr(ps, "'param' needs a name and a value");
	if (ps->ntok > 3)
		return kh_perr(ps, "'param %.*s' takes one value, got %u",
			       tok_len(name), name->s, ps->ntok - 2);
	for (i = 0; i < KH_ARRAY_SIZE(kh_params); i++)
		if (tok_is(name, kh_params[i].name))
			break;
	if (i == KH_ARRAY_SIZE(kh_params))
		return kh_perr(ps, "unknown parameter '%.*s'", tok_len(name),
			       name->s);
	if (!kh_parse_u32(val, &v) || v < kh_params[i].min ||
	    v > kh_params[i].max)
		return kh_perr(ps, "parameter '%s' value '%.*s' is not a number in %u..%u",
			       kh_params[i].name, tok_len(val), val->s,
			       kh_params[i].min, kh_params[i].max);
	switch (i) {
	case KH_P_INST_DEPTH:
		p->inst_depth = v;
		break;
	case KH_P_RECV_DEPTH:
		p->recv_depth = v;
		break;
	case KH_P_ROUTER_FIFO:
		p->router_fifo = v;
		break;
	case KH_P_CU_VERSION:
		p->cu_version = v;
		break;
	case KH_P_DRAM_MIB:
		p->dram_bytes = (u64)v << 20;
		break;
	case KH_P_WR_SLOTS:
		p->wr_slots = v;
		break;
	case KH_P_MEM_RD_LATENCY:
		p->mem_rd_latency = v;
		break;
	case KH_P_MEM_WR_LATENCY:
		p->mem_wr_latency = v;
		break;
	}
	return 0;
}

/* ---- map rows ---- */

/* What a cell held, for messages about cells checked after the fact. */
static const char *kh_cell_token(const struct kh_desc_mesh *dm,
				 unsigned int x, unsigned int y)
{
	switch (dm->kind[y][x]) {
	case KH_CELL_TIEOFF:
		return "nul";
	case KH_CELL_MAG:
		return "mag";
	case KH_CELL_UNIT:
		return dm->type[y][x]->token;
	default:
		return "xxx";
	}
}

static int kh_parse_row(struct kh_parse *ps)
{
	struct kh_desc_mesh *dm = &ps->d->mesh[0];
	unsigned int x, y = ps->rows;

	if (ps->rows == 0) {
		if (ps->ntok < KH_MAP_MIN)
			return kh_perr(ps, "row has %u tokens; a map is at least 3 x 3",
				       ps->ntok);
		if (ps->ntok > KH_MAP_MAX)
			return kh_perr(ps, "row has %u tokens; a map is at most 16 x 16",
				       ps->ntok);
		dm->w = ps->ntok;
	} else if (ps->ntok != dm->w) {
		return kh_perr(ps, "row has %u tokens, expected %u", ps->ntok,
			       dm->w);
	}
	if (ps->rows == KH_MAP_MAX)
		return kh_perr(ps, "map has more than 16 rows; a map is at most 16 x 16");

	for (x = 0; x < dm->w; x++) {
		const struct kh_tok *t = &ps->tok[x];
		bool corner = (x == 0 || x == dm->w - 1) && y == 0;
		const struct kh_unit_type *ut = NULL;
		u8 kind;

		if (tok_is(t, "xxx")) {
			kind = KH_CELL_EMPTY;
		} else if (tok_is(t, "nul")) {
			kind = KH_CELL_TIEOFF;
		} else if (tok_is(t, "mag")) {
			kind = KH_CELL_MAG;
		} else {
			ut = kh_unit_lookup(ps->types, t->s, t->n);
			if (!ut)
				return kh_perr(ps, "unknown token '%.*s'",
					       tok_len(t), t->s);
			if (!ut->tick)
				return kh_perr(ps, "token '%s' (%s) has no model yet",
					       ut->token, ut->name);
			kind = KH_CELL_UNIT;
		}
		if (corner && kind != KH_CELL_EMPTY)
			return kh_perr(ps, "corner (%u,%u) must be 'xxx', not '%.*s'",
				       x, y, tok_len(t), t->s);
		if (kind == KH_CELL_MAG) {
			if (x != 0)
				return kh_perr(ps, "'mag' at (%u,%u) is not on the west edge (x = 0)",
					       x, y);
			if (dm->n_mag == KH_MAG_PORTS_MAX)
				return kh_perr(ps, "more than 4 'mag' ports");
			dm->n_mag++;
		}
		dm->kind[y][x] = kind;
		dm->type[y][x] = ut;
	}
	ps->rows++;
	ps->last_row_line = ps->line;
	return 0;
}

static int kh_parse_end(struct kh_parse *ps)
{
	struct kh_desc_mesh *dm = &ps->d->mesh[0];
	unsigned int y = ps->rows - 1, x;

	if (!ps->rows) {
		if (ps->line > 1)
			ps->line--;	/* the last line there was */
		return kh_perr(ps, "no map rows");
	}
	ps->line = ps->last_row_line;
	if (ps->rows < KH_MAP_MIN)
		return kh_perr(ps, "map has %u rows; a map is at least 3 x 3",
			       ps->rows);
	for (x = 0; x < dm->w; x += dm->w - 1)
		if (dm->kind[y][x] != KH_CELL_EMPTY)
			return kh_perr(ps, "corner (%u,%u) must be 'xxx', not '%s'",
				       x, y, kh_cell_token(dm, x, y));
	if (!dm->n_mag)
		return kh_perr(ps, "no 'mag' in the map; a mesh needs at least one memory port");
	dm->h = ps->rows;
	ps->d->n_mesh = 1;
	return 0;
}

int kh_desc_parse(const char *text, const struct kh_unit_types *types,
		  struct kh_desc *d, char *err, size_t errlen)
{
	struct kh_parse *ps;
	const char *s = text;
	int e = 0;

	ps = kh_plat_zalloc(sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	memset(d, 0, sizeof(*d));
	kh_sim_params_rtl(&d->p);
	ps->d = d;
	ps->types = types;
	ps->err = err;
	ps->errlen = errlen;
	if (err && errlen)
		err[0] = 0;

	for (ps->line = 1; *s; ps->line++) {
		const char *eol = s, *end;

		while (*eol && *eol != '\n')
			eol++;
		for (end = s; end < eol && *end != '#'; end++)
			;
		kh_tokenize(ps, s, end);
		s = *eol ? eol + 1 : eol;
		if (!ps->ntok)
			continue;
		if (tok_is(&ps->tok[0], "param")) {
			if (ps->rows) {
				e = kh_perr(ps, "directive 'param' after the map rows");
				break;
			}
			e = kh_parse_param(ps);
		} else {
			e = kh_parse_row(ps);
		}
		if (e)
			break;
	}
	if (!e)
		e = kh_parse_end(ps);
	kh_plat_free(ps);
	return e;
}
