// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Building a mesh from a parsed map: routers on the inner grid, each of
 * their five ports wired to a neighbour router, the endpoint on that side
 * (a unit, a MAG port), or the mesh's tie-off.
 */
#include "mesh.h"
#include "base.h"
#include "l2.h"
#include "mag.h"
#include "router.h"
#include "util.h"

struct ksim_router *ksim_mesh_router(struct ksim_mesh *m, unsigned int x,
				 unsigned int y)
{
	if (x < m->lo || x > m->hi_x || y < m->lo || y > m->hi_y)
		return NULL;
	return &m->routers[(y - m->lo) * m->nrx + (x - m->lo)];
}

/* The MAG port index for a unit on row y (nearest row, lower on a tie). */
static unsigned int ksim_mesh_unit_mag_port(const struct ksim_mesh *m,
					    unsigned int y)
{
	unsigned int i, best = 0, bd = ~0u;

	for (i = 0; i < m->mag->n_ports; i++) {
		unsigned int py = m->mag->port[i].y;
		unsigned int d = py > y ? py - y : y - py;

		/* ports are sorted by row: the first at the least distance */
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

static const int ksim_dx[KSIM_PORTS] = { 0, 1, 0, -1, 0 };
static const int ksim_dy[KSIM_PORTS] = { -1, 0, 1, 0, 0 };
static const unsigned int ksim_opposite[KSIM_PORTS] = {
	KSIM_PORT_S, KSIM_PORT_W, KSIM_PORT_N, KSIM_PORT_E, KSIM_PORT_L
};

static struct ksim_mag_port *ksim_mesh_mag_port_at(struct ksim_mesh *m,
					       unsigned int y)
{
	unsigned int i;

	for (i = 0; i < m->mag->n_ports; i++)
		if (m->mag->port[i].y == y)
			return &m->mag->port[i];
	return NULL;
}

/* Wire router r's port d to whatever is on that side. */
static void ksim_mesh_wire(struct ksim_mesh *m, struct ksim_router *r,
			 unsigned int d)
{
	unsigned int nx = (unsigned int)((int)r->x + ksim_dx[d]);
	unsigned int ny = (unsigned int)((int)r->y + ksim_dy[d]);
	struct ksim_router *nb = d == KSIM_PORT_L ? NULL : ksim_mesh_router(m, nx, ny);
	struct ksim_sink *rx = &m->tieoff.sink;
	struct ksim_unit *u = m->unit[ny][nx];
	struct ksim_l2 *a = m->l2[ny][nx];
	struct ksim_mag_port *mp;

	if (nb) {
		ksim_link_init(&r->out[d], &nb->in[ksim_opposite[d]].sink, m->id,
			     KSIM_LINK_ROUTER, r->x, r->y, d);
		return;
	}
	/* every endpoint's inbound port sits behind its reset gate */
	if (u && a) {
		/* router <-> adapter <-> unit */
		rx = ksim_mesh_gate(m, nx, ny, &a->rsink);
		ksim_link_init(&a->rout, &r->in[d].sink, m->id, KSIM_LINK_ENDPOINT,
			     nx, ny, KSIM_PORT_L);
		ksim_link_init(&a->cout, &u->sink, m->id, KSIM_LINK_L2, nx, ny,
			     KSIM_PORT_L);
		ksim_link_init(&u->out, &a->csink, m->id, KSIM_LINK_ENDPOINT,
			     nx, ny, KSIM_PORT_L);
	} else if (u) {
		rx = ksim_mesh_gate(m, nx, ny, &u->sink);
		ksim_link_init(&u->out, &r->in[d].sink, m->id, KSIM_LINK_ENDPOINT,
			     nx, ny, KSIM_PORT_L);
	} else if (nx == 0) {
		mp = ksim_mesh_mag_port_at(m, ny);
		if (mp) {
			rx = ksim_mesh_gate(m, nx, ny, &mp->sink);
			ksim_link_init(&mp->out, &r->in[d].sink, m->id,
				     KSIM_LINK_ENDPOINT, nx, ny, KSIM_PORT_L);
		}
	}
	ksim_link_init(&r->out[d], rx, m->id, KSIM_LINK_ROUTER, r->x, r->y, d);
}

/*
 * The wizard's outputs as clock domains (kohakutpu.md 8.5): CLKOUT0 noc
 * clocks the routers, the L2 adapters and every unit not named below;
 * CLKOUT1 mat2x the mat units (their mat1x is mat2x / 2: the same ratio to
 * its built clock); CLKOUT2 the vec units; CLKOUT3 the MAG, its memory
 * ports, the mover, and the orchestrator and interlink the MAG's node
 * ticks.  The reset block is card time (the wizard's lock).
 */
static int ksim_mesh_clk_init(struct ksim_mesh *m)
{
	unsigned int o;
	int e;

	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++) {
		e = ksim_clkdom_init(m->sched, &m->clk[o]);
		if (e)
			return e;
		m->clk_num[o] = m->clk_den[o] = 1;
	}
	return 0;
}

unsigned int ksim_unit_clk_out(const struct ksim_unit_type *t)
{
	return t->clk_out < KH_CLK_MESH_OUTPUTS ? t->clk_out : KH_CLK_OUT_NOC;
}

struct ksim_mesh *ksim_mesh_create(const struct ksim_mesh_wiring *w,
				   unsigned int id,
				   const struct ksim_desc_mesh *dm, int *err)
{
	const struct ksim_params *p;
	struct ksim_mesh *m = ksim_plat_zalloc(sizeof(*m));
	u8 rows[KSIM_MAG_PORTS_MAX];
	unsigned int x, y, d, n_mag = 0;
	int e;

	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	m->sched = w->sched;
	m->log = w->log;
	m->irq = w->irq;
	m->params = dm->p;
	m->p = p = &m->params;
	m->id = id;
	m->w = dm->w;
	m->h = dm->h;
	m->lo = 1;
	m->hi_x = dm->w - 2;
	m->hi_y = dm->h - 2;
	m->nrx = dm->w - 2;
	m->nry = dm->h - 2;
	ksim_tieoff_init(&m->tieoff);
	e = ksim_mesh_clk_init(m);
	if (!e)
		e = ksim_mesh_rst_init(m);
	if (!e)
		e = ksim_dram_init(&m->dram, p->dram_bytes);
	if (e)
		goto fail;

	m->routers = ksim_plat_zalloc(sizeof(*m->routers) * m->nrx * m->nry);
	if (!m->routers) {
		e = -ENOMEM;
		goto fail;
	}
	for (y = m->lo; y <= m->hi_y; y++)
		for (x = m->lo; x <= m->hi_x; x++) {
			e = ksim_router_init(ksim_mesh_router(m, x, y), m->sched,
					   x, y, m->lo, m->hi_x, m->hi_y,
					   p->router_fifo);
			if (e)
				goto fail;
			ksim_mesh_router(m, x, y)->node.dom =
				&m->clk[KH_CLK_OUT_NOC];
		}

	for (y = 0; y < m->h; y++)
		if (dm->kind[y][0] == KSIM_CELL_MAG && n_mag < KSIM_MAG_PORTS_MAX)
			rows[n_mag++] = (u8)y;
	if (!n_mag) {
		e = -EINVAL;
		goto fail;
	}
	m->mag = ksim_mag_create(m, rows, n_mag, &e);
	if (!m->mag)
		goto fail;
	m->mag->node.dom = &m->clk[KH_CLK_OUT_MAG];

	/* what the units are given: their MAG port by row, once MAG is there */
	m->uenv.sched = m->sched;
	m->uenv.log = m->log;
	m->uenv.p = p;
	m->uenv.id = id;
	for (y = 0; y < m->h; y++) {
		const struct ksim_mag_port *mp =
			&m->mag->port[ksim_mesh_unit_mag_port(m, y)];

		m->uenv.mag_x[y] = mp->x;
		m->uenv.mag_y[y] = mp->y;
	}

	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++) {
			if (dm->kind[y][x] != KSIM_CELL_UNIT)
				continue;
			m->unit[y][x] = ksim_unit_create(&m->uenv, dm->type[y][x],
							 x, y, &e);
			if (!m->unit[y][x])
				goto fail;
			m->unit[y][x]->node.dom =
				&m->clk[ksim_unit_clk_out(dm->type[y][x])];
			if (!dm->l2[y][x])
				continue;
			m->l2[y][x] = ksim_l2_create(m, x, y, dm->l2_base[y][x],
						   &e);
			if (!m->l2[y][x])
				goto fail;
			m->l2[y][x]->node.dom = &m->clk[KH_CLK_OUT_NOC];
		}

	for (y = m->lo; y <= m->hi_y; y++)
		for (x = m->lo; x <= m->hi_x; x++)
			for (d = 0; d < KSIM_PORTS; d++)
				ksim_mesh_wire(m, ksim_mesh_router(m, x, y), d);
	return m;
fail:
	ksim_mesh_destroy(m);
	*err = e;
	return NULL;
}

void ksim_mesh_destroy(struct ksim_mesh *m)
{
	unsigned int x, y;

	if (!m)
		return;
	for (y = 0; y < KSIM_MAP_MAX; y++)
		for (x = 0; x < KSIM_MAP_MAX; x++) {
			ksim_unit_destroy(m->unit[y][x]);
			ksim_l2_destroy(m->l2[y][x]);
		}
	ksim_mag_destroy(m->mag);
	if (m->routers) {
		for (y = 0; y < m->nrx * m->nry; y++)
			ksim_router_fini(&m->routers[y]);
		ksim_plat_free(m->routers);
	}
	ksim_dram_fini(&m->dram);
	ksim_mesh_rst_fini(m);
	ksim_plat_free(m);
}
