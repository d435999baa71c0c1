// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The internal face's calls about one mesh (ksim_int.h): lookups of a
 * unit or a link, the tests' link hook, and mesh reset.  Each picks the
 * mesh by its index and hands the call to mesh/, which answers (its
 * topology, mesh/topo.h; its reset, mesh/reset.h): the card only knows
 * which mesh is which.
 */
#include "card.h"
#include "topo.h"

struct ksim_unit *ksim_unit_at(struct ksim_card *card, unsigned int mesh,
			       unsigned int x, unsigned int y)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	return m ? ksim_mesh_unit_at(m, x, y) : NULL;
}

struct ksim_link *ksim_router_link(struct ksim_card *card,
				   unsigned int mesh, unsigned int x,
				   unsigned int y, unsigned int port)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	return m ? ksim_mesh_router_link(m, x, y, port) : NULL;
}

struct ksim_link *ksim_endpoint_link(struct ksim_card *card,
				     unsigned int mesh, unsigned int x,
				     unsigned int y)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	return m ? ksim_mesh_endpoint_link(m, x, y) : NULL;
}

struct ksim_link *ksim_l2_link(struct ksim_card *card, unsigned int mesh,
			       unsigned int x, unsigned int y, bool to_unit)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	return m ? ksim_mesh_l2_link(m, x, y, to_unit) : NULL;
}

struct ksim_hook_arg {
	const struct ksim_link_hook *hook;
	void *ctx;
};

static void ksim_set_hook(struct ksim_link *l, void *arg)
{
	struct ksim_hook_arg *a = arg;

	l->hook = a->hook;
	l->hook_ctx = a->ctx;
}

void ksim_set_link_hook(struct ksim_card *card,
			  const struct ksim_link_hook *hook, void *ctx)
{
	struct ksim_hook_arg a = { hook, ctx };
	unsigned int i;

	for (i = 0; i < card->n_mesh; i++)
		ksim_mesh_for_links(card->mesh[i], ksim_set_hook, &a);
}


int ksim_mesh_reset(struct ksim_card *card, unsigned int mesh)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	if (!m)
		return -EINVAL;
	/* a resetn pulse: released at once (card time), then the FIFOs recover */
	ksim_mesh_reset_hold(m, card->sched.now);
	return 0;
}

bool ksim_mesh_in_reset(struct ksim_card *card, unsigned int mesh)
{
	struct ksim_mesh *m = ksim_card_mesh(card, mesh);

	return m && ksim_mesh_recovering(m);
}
