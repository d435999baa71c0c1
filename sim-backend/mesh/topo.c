// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A built mesh's topology, read only (mesh/topo.h): lookups by coordinate,
 * for the card's internal face and for the observers.
 */
#include "topo.h"
#include "l2.h"
#include "mag.h"
#include "router.h"

struct ksim_unit *ksim_mesh_unit_at(const struct ksim_mesh *m, unsigned int x,
				    unsigned int y)
{
	if (x >= m->w || y >= m->h)
		return NULL;
	return m->unit[y][x];
}

struct ksim_link *ksim_mesh_router_link(struct ksim_mesh *m, unsigned int x,
					unsigned int y, unsigned int port)
{
	struct ksim_router *r = ksim_mesh_router(m, x, y);

	return r && port < KSIM_PORTS ? &r->out[port] : NULL;
}

struct ksim_link *ksim_mesh_endpoint_link(struct ksim_mesh *m, unsigned int x,
					  unsigned int y)
{
	unsigned int i;

	if (x >= m->w || y >= m->h)
		return NULL;
	if (m->unit[y][x])
		return &m->unit[y][x]->out;
	for (i = 0; x == 0 && i < m->mag->n_ports; i++)
		if (m->mag->port[i].y == y)
			return &m->mag->port[i].out;
	return NULL;
}

struct ksim_link *ksim_mesh_l2_link(struct ksim_mesh *m, unsigned int x,
				    unsigned int y, bool to_unit)
{
	struct ksim_l2 *a;

	if (x >= m->w || y >= m->h)
		return NULL;
	a = m->l2[y][x];
	if (!a)
		return NULL;
	return to_unit ? &a->cout : &a->rout;
}

void ksim_mesh_for_links(struct ksim_mesh *m,
			 void (*fn)(struct ksim_link *l, void *arg), void *arg)
{
	unsigned int x, y, d;

	for (y = 0; y < m->nrx * m->nry; y++)
		for (d = 0; d < KSIM_PORTS; d++)
			fn(&m->routers[y].out[d], arg);
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++)
			if (m->unit[y][x])
				fn(&m->unit[y][x]->out, arg);
	for (x = 0; x < m->mag->n_ports; x++)
		fn(&m->mag->port[x].out, arg);
	for (y = 0; y < m->h; y++)
		for (x = 0; x < m->w; x++)
			if (m->l2[y][x]) {
				fn(&m->l2[y][x]->rout, arg);
				fn(&m->l2[y][x]->cout, arg);
			}
}
