/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A built mesh's topology, read only: the unit at a coordinate, and the
 * links named by their sender.  The card's internal face (ksim_int.h:
 * ksim_unit_at(), ksim_router_link(), ...) picks the mesh and asks here,
 * and so do the observers (obs/), which are given the meshes and never
 * read the card.
 */
#ifndef KSIM_TOPO_H
#define KSIM_TOPO_H

#include "mesh.h"

/* The unit at (x, y), or NULL. */
struct ksim_unit *ksim_mesh_unit_at(const struct ksim_mesh *m, unsigned int x,
				    unsigned int y);
/* Router (x, y)'s output port (KSIM_PORT_*, noc/router.h), or NULL. */
struct ksim_link *ksim_mesh_router_link(struct ksim_mesh *m, unsigned int x,
					unsigned int y, unsigned int port);
/* What the endpoint at (x, y) sends on (a unit or a MAG port), or NULL. */
struct ksim_link *ksim_mesh_endpoint_link(struct ksim_mesh *m, unsigned int x,
					  unsigned int y);
/*
 * The output link of the L2 adapter on the unit at (x, y): to the unit
 * (to_unit) or to the router; NULL without an adapter.
 */
struct ksim_link *ksim_mesh_l2_link(struct ksim_mesh *m, unsigned int x,
				    unsigned int y, bool to_unit);
/* Call fn on every link of the mesh: routers, units, MAG ports, adapters. */
void ksim_mesh_for_links(struct ksim_mesh *m,
			 void (*fn)(struct ksim_link *l, void *arg), void *arg);

#endif /* KSIM_TOPO_H */
