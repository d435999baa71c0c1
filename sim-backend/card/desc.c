// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card-description parser (docs/spec/card-description.md).  It works
 * in place on the text, keeps nothing big on the stack, and reports the
 * first problem as "line N: ...".  Directives (`profile`, `param`, `l2`)
 * apply card-wide before the first `mesh` line and per mesh after it; a
 * description without `mesh` lines is a one-mesh card.  A known unit token
 * without a model is refused only once the whole description checked out,
 * so a KohakuTPU map is proven valid before it is refused by name.  Lines
 * are split into words, and numbers read, by the lexer the commands use
 * too (lib/lex.h).
 */
#include "ksim.h"
#include "desc.h"
#include "util.h"

#define KSIM_L2_DIRS		64			/* `l2` lines per section */

enum ksim_l2_kind {
	KSIM_L2D_ALL,
	KSIM_L2D_NONE,
	KSIM_L2D_AT,
};

struct ksim_l2_dir {
	u8 kind;
	u8 x, y;
	u64 base;
	unsigned int line;
};

/* What one scope (card-wide, or one mesh section) has said so far. */
struct ksim_scope {
	struct ksim_params *p;
	bool configured;		/* a param or l2 line was seen */
	unsigned int mem_ports_line;
	unsigned int n_l2;
	struct ksim_l2_dir l2[KSIM_L2_DIRS];
};

struct ksim_parse {
	struct ksim_desc *d;
	const struct ksim_unit_types *types;
	char *err;
	size_t errlen;
	unsigned int line;
	bool sections;			/* a `mesh` line was seen */
	int cur;			/* the mesh being described, or -1 */
	unsigned int rows;		/* of the current mesh */
	unsigned int last_row_line;
	struct ksim_scope card, mesh;
	/* the first known unit token without a model */
	unsigned int nomodel_line;
	const struct ksim_unit_type *nomodel;
	/* the line's words: a row's worth stored, all of them counted */
	struct ksim_word tok[KSIM_MAP_MAX];
	unsigned int ntok;
};

/* a refusal of the current line: "line N: ..." */
#define ksim_perr(ps, fmt, ...)						\
	ksim_refuse((ps)->err, (ps)->errlen, "line %u: " fmt, (ps)->line, \
		    ##__VA_ARGS__)

/* "%.*s" of a word in a message */
static int ksim_desc_quote(const struct ksim_word *t)
{
	return ksim_word_quote(t, KSIM_DESC_QUOTE);
}

/* ---- profile and param directives ---- */

enum {
	KSIM_P_INST_DEPTH,
	KSIM_P_RECV_DEPTH,
	KSIM_P_ROUTER_FIFO,
	KSIM_P_TX_DEPTH,
	KSIM_P_RX_DEPTH,
	KSIM_P_STAGE_FLITS,
	KSIM_P_WR_SLOTS,
	KSIM_P_Q_DEPTH,
	KSIM_P_Q_MARGIN,
	KSIM_P_MEM_PORTS,
	KSIM_P_CU_VERSION,
	KSIM_P_DRAM_MIB,
	KSIM_P_MEM_RD_LATENCY,
	KSIM_P_MEM_WR_LATENCY,
	KSIM_P_DRAM_REFI,
	KSIM_P_DRAM_RFC,
	KSIM_P_IRQ,
	KSIM_P_L2_DEPTH,
	KSIM_P_L2_BITS,
	KSIM_P_MAG_L2_KIB,
	KSIM_P_ILINK,
	KSIM_P_IL_HOP_LATENCY,
	KSIM_P_SX_FMA,
};

static const struct {
	const char *name;
	u32 min, max;
} ksim_param_table[] = {
	[KSIM_P_INST_DEPTH] = { "inst_depth", 1, 65535 },
	[KSIM_P_RECV_DEPTH] = { "recv_depth", 1, 65535 },
	[KSIM_P_ROUTER_FIFO] = { "router_fifo", 1, 65535 },
	[KSIM_P_TX_DEPTH] = { "tx_depth", 1, 4096 },
	[KSIM_P_RX_DEPTH] = { "rx_depth", 1, 4096 },
	[KSIM_P_STAGE_FLITS] = { "stage_flits", 1, 1024 },
	[KSIM_P_WR_SLOTS] = { "wr_slots", 1, 256 },
	[KSIM_P_Q_DEPTH] = { "q_depth", 2, 4096 },
	[KSIM_P_Q_MARGIN] = { "q_margin", 0, 4095 },
	[KSIM_P_MEM_PORTS] = { "mem_ports", 1, KSIM_MAG_PORTS_MAX },
	[KSIM_P_CU_VERSION] = { "cu_version", 0, 255 },
	[KSIM_P_DRAM_MIB] = { "dram_mib", 1, 4096 },
	[KSIM_P_MEM_RD_LATENCY] = { "mem_rd_latency", 1, 100000 },
	[KSIM_P_MEM_WR_LATENCY] = { "mem_wr_latency", 1, 100000 },
	[KSIM_P_DRAM_REFI] = { "dram_refi", 0, 1000000 },
	[KSIM_P_DRAM_RFC] = { "dram_rfc", 0, 100000 },
	[KSIM_P_IRQ] = { "irq", 0, 1 },
	[KSIM_P_L2_DEPTH] = { "l2_depth", 1, 65536 },
	[KSIM_P_L2_BITS] = { "l2_bits", 5, 40 },
	[KSIM_P_MAG_L2_KIB] = { "mag_l2_kib", 0, 1048576 },
	[KSIM_P_ILINK] = { "ilink", 0, 1 },
	[KSIM_P_IL_HOP_LATENCY] = { "il_hop_latency", 1, 100000 },
	[KSIM_P_SX_FMA] = { "sx_fma", 0, 1 },
};

static struct ksim_scope *ksim_scope_of(struct ksim_parse *ps)
{
	return ps->cur < 0 ? &ps->card : &ps->mesh;
}

static int ksim_parse_profile(struct ksim_parse *ps)
{
	struct ksim_scope *sc = ksim_scope_of(ps);
	const struct ksim_word *name = &ps->tok[1];

	if (ps->ntok != 2)
		return ksim_perr(ps, "'profile' takes one name, got %u",
				 ps->ntok - 1);
	if (sc->configured)
		return ksim_perr(ps, "'profile' after 'param' or 'l2' lines in this section; put it first");
	if (ksim_word_is(name, "ship"))
		ksim_params_ship(sc->p);
	else if (ksim_word_is(name, "rtl"))
		ksim_params_rtl(sc->p);
	else
		return ksim_perr(ps, "unknown profile '%.*s' (profiles: ship, rtl)",
				 ksim_desc_quote(name), name->s);
	sc->mem_ports_line = 0;
	return 0;
}

static int ksim_parse_param(struct ksim_parse *ps)
{
	struct ksim_scope *sc = ksim_scope_of(ps);
	struct ksim_params *p = sc->p;
	const struct ksim_word *name = &ps->tok[1], *val = &ps->tok[2];
	unsigned int i;
	u64 n;
	u32 v;

	if (ps->ntok < 3)
		return ksim_perr(ps, "'param' needs a name and a value");
	if (ps->ntok > 3)
		return ksim_perr(ps, "'param %.*s' takes one value, got %u",
				 ksim_desc_quote(name), name->s, ps->ntok - 2);
	for (i = 0; i < KSIM_ARRAY_SIZE(ksim_param_table); i++)
		if (ksim_word_is(name, ksim_param_table[i].name))
			break;
	if (i == KSIM_ARRAY_SIZE(ksim_param_table))
		return ksim_perr(ps, "unknown parameter '%.*s'", ksim_desc_quote(name),
				 name->s);
	if (i == KSIM_P_CU_VERSION && ksim_word_is(val, "module"))
		n = KSIM_CU_VERSION_MODULE;	/* each unit its module's own */
	else if (!ksim_word_num(val, ksim_param_table[i].max, &n) ||
		 n < ksim_param_table[i].min)
		return ksim_perr(ps, "parameter '%s' value '%.*s' is not a number in %u..%u",
				 ksim_param_table[i].name, ksim_desc_quote(val), val->s,
				 ksim_param_table[i].min, ksim_param_table[i].max);
	v = (u32)n;
	sc->configured = true;
	switch (i) {
	case KSIM_P_INST_DEPTH:
		p->inst_depth = v;
		break;
	case KSIM_P_RECV_DEPTH:
		p->recv_depth = v;
		break;
	case KSIM_P_ROUTER_FIFO:
		p->router_fifo = v;
		break;
	case KSIM_P_TX_DEPTH:
		p->tx_depth = v;
		break;
	case KSIM_P_RX_DEPTH:
		p->rx_depth = v;
		break;
	case KSIM_P_STAGE_FLITS:
		p->stage_flits = v;
		break;
	case KSIM_P_WR_SLOTS:
		p->wr_slots = v;
		break;
	case KSIM_P_Q_DEPTH:
	case KSIM_P_Q_MARGIN:
		if (i == KSIM_P_Q_DEPTH)
			p->q_depth = v;
		else
			p->q_margin = v;
		/* the port raises busy at q_depth - q_margin: at least 1 */
		if (p->q_margin >= p->q_depth)
			return ksim_perr(ps, "q_margin %u leaves no room in q_depth %u",
					 p->q_margin, p->q_depth);
		break;
	case KSIM_P_MEM_PORTS:
		p->mem_ports = v;
		sc->mem_ports_line = ps->line;
		break;
	case KSIM_P_CU_VERSION:
		p->cu_version = v;
		break;
	case KSIM_P_SX_FMA:
		p->sx_fma = v;
		break;
	case KSIM_P_DRAM_MIB:
		p->dram_bytes = (u64)v << 20;
		break;
	case KSIM_P_MEM_RD_LATENCY:
		p->mem_rd_latency = v;
		break;
	case KSIM_P_MEM_WR_LATENCY:
		p->mem_wr_latency = v;
		break;
	case KSIM_P_DRAM_REFI:
		p->dram_refi = v;
		break;
	case KSIM_P_DRAM_RFC:
		p->dram_rfc = v;
		break;
	case KSIM_P_IRQ:
		p->irq = v;
		break;
	case KSIM_P_L2_DEPTH:
		if (v & (v - 1))
			return ksim_perr(ps, "parameter 'l2_depth' value '%.*s' is not a power of two",
					 ksim_desc_quote(val), val->s);
		p->l2_depth = v;
		break;
	case KSIM_P_L2_BITS:
		p->l2_bits = v;
		break;
	case KSIM_P_MAG_L2_KIB:
		p->mag_l2_kib = v;
		break;
	case KSIM_P_ILINK:
		p->ilink = v;
		break;
	case KSIM_P_IL_HOP_LATENCY:
		p->il_hop_latency = v;
		break;
	}
	return 0;
}

/* l2 all [BASE] | l2 none | l2 X Y [BASE] */
static int ksim_parse_l2(struct ksim_parse *ps)
{
	struct ksim_scope *sc = ksim_scope_of(ps);
	struct ksim_l2_dir *l;
	unsigned int nb = 1;	/* index of the optional base token */
	u64 x, y, base = 0;

	if (sc->n_l2 == KSIM_L2_DIRS)
		return ksim_perr(ps, "more than %u 'l2' lines in one section",
				 KSIM_L2_DIRS);
	l = &sc->l2[sc->n_l2];
	memset(l, 0, sizeof(*l));
	l->line = ps->line;
	if (ps->ntok >= 2 && ksim_word_is(&ps->tok[1], "all")) {
		l->kind = KSIM_L2D_ALL;
		nb = 2;
	} else if (ps->ntok == 2 && ksim_word_is(&ps->tok[1], "none")) {
		l->kind = KSIM_L2D_NONE;
		nb = 2;
	} else if (ps->ntok >= 3) {
		if (!ksim_word_num(&ps->tok[1], KSIM_MAP_MAX - 1, &x))
			return ksim_perr(ps, "'l2' x '%.*s' is not a number in 0..15",
					 ksim_desc_quote(&ps->tok[1]), ps->tok[1].s);
		if (!ksim_word_num(&ps->tok[2], KSIM_MAP_MAX - 1, &y))
			return ksim_perr(ps, "'l2' y '%.*s' is not a number in 0..15",
					 ksim_desc_quote(&ps->tok[2]), ps->tok[2].s);
		l->kind = KSIM_L2D_AT;
		l->x = (u8)x;
		l->y = (u8)y;
		nb = 3;
	} else {
		return ksim_perr(ps, "'l2' needs 'all', 'none' or X Y, then an optional base");
	}
	if (ps->ntok > nb + 1)
		return ksim_perr(ps, "'l2' has %u words, at most %u",
				 ps->ntok, nb + 1);
	if (l->kind != KSIM_L2D_NONE && ps->ntok == nb + 1 &&
	    !ksim_word_num(&ps->tok[nb], KH_L2_BASE_MASK, &base))
		return ksim_perr(ps, "'l2' base '%.*s' is not a 40-bit number",
				 ksim_desc_quote(&ps->tok[nb]), ps->tok[nb].s);
	l->base = base;
	sc->configured = true;
	sc->n_l2++;
	return 0;
}

/* ---- mesh sections ---- */

static void ksim_scope_begin(struct ksim_scope *sc, struct ksim_params *p)
{
	sc->p = p;
	sc->configured = false;
	sc->n_l2 = 0;
}

/* Mesh cur starts: its parameters start as the card-wide ones. */
static void ksim_mesh_begin(struct ksim_parse *ps, int n)
{
	struct ksim_desc_mesh *dm = &ps->d->mesh[n];

	ps->cur = n;
	ps->rows = 0;
	dm->p = ps->d->p;
	ksim_scope_begin(&ps->mesh, &dm->p);
	ps->mesh.mem_ports_line = ps->card.mem_ports_line;
}

static int ksim_parse_end_mesh(struct ksim_parse *ps);

static int ksim_parse_mesh(struct ksim_parse *ps)
{
	u64 n;
	int e;

	if (ps->ntok != 2)
		return ksim_perr(ps, "'mesh' takes one number, got %u",
				 ps->ntok - 1);
	if (!ps->sections && ps->cur >= 0)
		return ksim_perr(ps, "'mesh' section after map rows that belong to no section");
	if (!ksim_word_num(&ps->tok[1], KH_MAX_MESHES - 1, &n))
		return ksim_perr(ps, "mesh '%.*s' is not a number in 0..3",
				 ksim_desc_quote(&ps->tok[1]), ps->tok[1].s);
	if (n != (u64)(ps->cur + 1))
		return ksim_perr(ps, "mesh %u out of order, expected mesh %d",
				 (unsigned int)n, ps->cur + 1);
	if (ps->cur >= 0) {
		unsigned int line = ps->line;

		e = ksim_parse_end_mesh(ps);
		if (e)
			return e;
		ps->line = line;
	}
	ps->sections = true;
	ksim_mesh_begin(ps, (int)n);
	return 0;
}

/* ---- map rows ---- */

/* What a cell held, for messages about cells checked after the fact. */
static const char *ksim_cell_token(const struct ksim_desc_mesh *dm,
				 unsigned int x, unsigned int y)
{
	switch (dm->kind[y][x]) {
	case KSIM_CELL_TIEOFF:
		return "nul";
	case KSIM_CELL_MAG:
		return "mag";
	case KSIM_CELL_UNIT:
		return dm->type[y][x]->token;
	default:
		return "xxx";
	}
}

static int ksim_parse_row(struct ksim_parse *ps)
{
	struct ksim_desc_mesh *dm;
	unsigned int x, y;

	if (ps->cur < 0)
		ksim_mesh_begin(ps, 0);	/* a plain map: one mesh */
	dm = &ps->d->mesh[ps->cur];
	y = ps->rows;
	if (ps->rows == 0) {
		if (ps->ntok < KSIM_MAP_MIN)
			return ksim_perr(ps, "row has %u tokens; a map is at least 3 x 3",
					 ps->ntok);
		if (ps->ntok > KSIM_MAP_MAX)
			return ksim_perr(ps, "row has %u tokens; a map is at most 16 x 16",
					 ps->ntok);
		dm->w = ps->ntok;
	} else if (ps->ntok != dm->w) {
		return ksim_perr(ps, "row has %u tokens, expected %u", ps->ntok,
				 dm->w);
	}
	if (ps->rows == KSIM_MAP_MAX)
		return ksim_perr(ps, "map has more than 16 rows; a map is at most 16 x 16");

	for (x = 0; x < dm->w; x++) {
		const struct ksim_word *t = &ps->tok[x];
		bool corner = (x == 0 || x == dm->w - 1) && y == 0;
		const struct ksim_unit_type *ut = NULL;
		u8 kind;

		if (ksim_word_is(t, "xxx")) {
			kind = KSIM_CELL_EMPTY;
		} else if (ksim_word_is(t, "nul")) {
			kind = KSIM_CELL_TIEOFF;
		} else if (ksim_word_is(t, "mag")) {
			kind = KSIM_CELL_MAG;
		} else {
			ut = ksim_unit_lookup(ps->types, t);
			if (!ut)
				return ksim_perr(ps, "unknown token '%.*s'",
						 ksim_desc_quote(t), t->s);
			/* refused by name once the rest checked out */
			if (!ut->tick && !ps->nomodel) {
				ps->nomodel = ut;
				ps->nomodel_line = ps->line;
			}
			kind = KSIM_CELL_UNIT;
		}
		if (corner && kind != KSIM_CELL_EMPTY)
			return ksim_perr(ps, "corner (%u,%u) must be 'xxx', not '%.*s'",
					 x, y, ksim_desc_quote(t), t->s);
		if (kind == KSIM_CELL_MAG) {
			if (x != 0)
				return ksim_perr(ps, "'mag' at (%u,%u) is not on the west edge (x = 0)",
						 x, y);
			if (dm->n_mag == KSIM_MAG_PORTS_MAX)
				return ksim_perr(ps, "more than 4 'mag' ports");
			dm->n_mag++;
		}
		dm->kind[y][x] = kind;
		dm->type[y][x] = ut;
	}
	ps->rows++;
	ps->last_row_line = ps->line;
	return 0;
}

/* Apply one scope's l2 lines to mesh n, whose map is complete. */
static int ksim_apply_l2(struct ksim_parse *ps, const struct ksim_scope *sc, int n)
{
	struct ksim_desc_mesh *dm = &ps->d->mesh[n];
	unsigned int i, x, y;

	for (i = 0; i < sc->n_l2; i++) {
		const struct ksim_l2_dir *l = &sc->l2[i];

		switch (l->kind) {
		case KSIM_L2D_NONE:
			memset(dm->l2, 0, sizeof(dm->l2));
			break;
		case KSIM_L2D_ALL:
			for (y = 0; y < dm->h; y++)
				for (x = 0; x < dm->w; x++)
					if (dm->kind[y][x] == KSIM_CELL_UNIT) {
						dm->l2[y][x] = 1;
						dm->l2_base[y][x] = l->base;
					}
			break;
		default:
			x = l->x;
			y = l->y;
			if (x >= dm->w || y >= dm->h ||
			    dm->kind[y][x] != KSIM_CELL_UNIT) {
				ps->line = l->line;
				if (ps->sections)
					return ksim_perr(ps, "'l2' at (%u,%u): mesh %d has no unit there",
							 x, y, n);
				return ksim_perr(ps, "'l2' at (%u,%u): no unit there",
						 x, y);
			}
			dm->l2[y][x] = 1;
			dm->l2_base[y][x] = l->base;
			break;
		}
	}
	return 0;
}

static int ksim_parse_end_mesh(struct ksim_parse *ps)
{
	struct ksim_desc_mesh *dm = &ps->d->mesh[ps->cur];
	unsigned int y = ps->rows - 1, x;
	int e;

	if (!ps->rows)
		return ksim_perr(ps, "mesh %d has no map rows", ps->cur);
	ps->line = ps->last_row_line;
	if (ps->rows < KSIM_MAP_MIN)
		return ksim_perr(ps, "map has %u rows; a map is at least 3 x 3",
				 ps->rows);
	for (x = 0; x < dm->w; x += dm->w - 1)
		if (dm->kind[y][x] != KSIM_CELL_EMPTY)
			return ksim_perr(ps, "corner (%u,%u) must be 'xxx', not '%s'",
					 x, y, ksim_cell_token(dm, x, y));
	if (!dm->n_mag)
		return ksim_perr(ps, "no 'mag' in the map; a mesh needs at least one memory port");
	if (dm->p.mem_ports && dm->p.mem_ports != dm->n_mag)
		return ksim_perr(ps, "map has %u 'mag' port%s, but 'param mem_ports' (line %u) says %u",
				 dm->n_mag, dm->n_mag == 1 ? "" : "s",
				 ps->mesh.mem_ports_line, dm->p.mem_ports);
	dm->h = ps->rows;
	e = ksim_apply_l2(ps, &ps->card, ps->cur);
	if (!e)
		e = ksim_apply_l2(ps, &ps->mesh, ps->cur);
	if (e)
		return e;
	ps->d->n_mesh = ps->cur + 1;
	return 0;
}

static int ksim_parse_end(struct ksim_parse *ps)
{
	int e;

	if (ps->cur < 0) {
		if (ps->line > 1)
			ps->line--;	/* the last line there was */
		return ksim_perr(ps, "no map rows");
	}
	if (!ps->rows)
		ps->line--;
	e = ksim_parse_end_mesh(ps);
	if (e)
		return e;
	if (ps->nomodel) {
		ps->line = ps->nomodel_line;
		return ksim_perr(ps, "token '%s' (%s) has no model yet",
				 ps->nomodel->token, ps->nomodel->name);
	}
	return 0;
}

static int ksim_parse_directive(struct ksim_parse *ps, const struct ksim_word *w)
{
	if (ksim_word_is(w, "mesh"))
		return ksim_parse_mesh(ps);
	if (ps->rows)
		return ksim_perr(ps, "directive '%.*s' after the map rows",
				 ksim_desc_quote(w), w->s);
	if (ksim_word_is(w, "profile"))
		return ksim_parse_profile(ps);
	if (ksim_word_is(w, "param"))
		return ksim_parse_param(ps);
	return ksim_parse_l2(ps);
}

/*
 * inject, check, trace (docs/spec/fault-injection.md): kept as text, the
 * whole line (the command lexer drops its comment), and applied once the
 * card is built (obs/command.c), wherever they stand.
 */
static bool ksim_is_obs_directive(const struct ksim_word *w)
{
	return ksim_word_is(w, "inject") || ksim_word_is(w, "check") || ksim_word_is(w, "trace");
}

static int ksim_parse_obs(struct ksim_parse *ps, const char *b, const char *e)
{
	struct ksim_desc *d = ps->d;

	if (d->n_obs == KSIM_DESC_OBS_MAX)
		return ksim_perr(ps, "more than %u inject/check/trace lines",
				 KSIM_DESC_OBS_MAX);
	d->obs[d->n_obs].s = b;
	d->obs[d->n_obs].n = (u32)(e - b);
	d->obs[d->n_obs].line = ps->line;
	d->n_obs++;
	return 0;
}

static bool ksim_is_directive(const struct ksim_word *w)
{
	return ksim_word_is(w, "param") || ksim_word_is(w, "profile") ||
	       ksim_word_is(w, "mesh") || ksim_word_is(w, "l2");
}

int ksim_desc_parse(const char *text, const struct ksim_unit_types *types,
		  struct ksim_desc *d, char *err, size_t errlen)
{
	struct ksim_parse *ps;
	const char *s = text;
	int e = 0;

	ps = ksim_plat_zalloc(sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	memset(d, 0, sizeof(*d));
	/* a description without a profile is a shipped top (issue 3) */
	ksim_params_ship(&d->p);
	ps->d = d;
	ps->types = types;
	ps->err = err;
	ps->errlen = errlen;
	ps->cur = -1;
	ksim_scope_begin(&ps->card, &d->p);
	if (err && errlen)
		err[0] = 0;
	/*
	 * A UTF-8 byte order mark at the very start is what Windows editors
	 * (Notepad) write at the head of a "UTF-8" file; it is no part of the
	 * text, so it is skipped rather than read as the start of the first
	 * token ("unknown token '\xef\xbb\xbfxxx'").  Anywhere else it stays
	 * a token's bytes and is refused as one.
	 */
	if ((u8)s[0] == 0xef && (u8)s[1] == 0xbb && (u8)s[2] == 0xbf)
		s += 3;

	for (ps->line = 1; *s; ps->line++) {
		const char *eol = s, *bol = s;

		while (*eol && *eol != '\n')
			eol++;
		ps->ntok = ksim_lex_split(bol, eol - bol, ps->tok,
					  KSIM_ARRAY_SIZE(ps->tok));
		s = *eol ? eol + 1 : eol;
		if (!ps->ntok)
			continue;
		if (ksim_is_obs_directive(&ps->tok[0]))
			e = ksim_parse_obs(ps, bol, eol);
		else if (ksim_is_directive(&ps->tok[0]))
			e = ksim_parse_directive(ps, &ps->tok[0]);
		else
			e = ksim_parse_row(ps);
		if (e)
			break;
	}
	if (!e)
		e = ksim_parse_end(ps);
	ksim_plat_free(ps);
	return e;
}

int ksim_desc_text_check(const char *text, size_t len, char *err,
			 size_t errlen)
{
	unsigned int line = 1;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = text[i];

		if (c == '\n')
			line++;
		if (!c)
			return ksim_refuse(err, errlen,
					   "line %u: a NUL byte (at byte %zu): a card description is text",
					   line, i);
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') ||
		    c == 0x7f)
			return ksim_refuse(err, errlen,
					   "line %u: control byte 0x%02x (at byte %zu): a card description is text",
					   line, c, i);
	}
	return 0;
}
