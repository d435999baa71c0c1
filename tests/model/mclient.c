// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The memory client test unit and the memory-side test helpers. */
#include "mclient.h"

static bool mcl_tick(struct ksim_unit *u)
{
	struct mc_client *c = ksim_unit_priv(u);
	const struct kh_flit *f = ksim_unit_recv(u);
	bool progress = false;

	if (f && !c->hold) {
		if (c->n < MC_LOG) {
			c->rec[c->n].at = ksim_unit_now(u);
			c->rec[c->n].f = *f;
			c->n++;
		}
		ksim_unit_recv_pop(u);
		progress = true;
	}
	if (c->sent < c->n_script &&
	    ksim_unit_send(u, &c->script[c->sent])) {
		c->sent_at[c->sent] = ksim_unit_now(u);
		c->sent++;
		progress = true;
	}
	return progress;
}

const struct ksim_unit_type mc_unit_mcl = {
	.token = "mcl", .name = "memory client", .cu_type = KH_CU_TYPE('T', 'M'),
	.n_buffers = 1, .priv_size = sizeof(struct mc_client), .tick = mcl_tick,
};

struct ksim_card *mc_card(const char *desc)
{
	static const struct ksim_unit_type *types[16];
	unsigned int i;

	for (i = 0; i < mh_n_test_types; i++)
		types[i] = mh_test_types[i];
	types[i++] = &mc_unit_mcl;
	return mh_card_types(desc, types, i);
}

struct mc_client *mc_at(struct ksim_card *c, unsigned int mesh,
			unsigned int x, unsigned int y)
{
	struct ksim_unit *u = ksim_unit_at(c, mesh, x, y);

	if (!u || ksim_unit_type_of(u) != &mc_unit_mcl)
		return NULL;
	return ksim_unit_priv(u);
}

void mc_send(struct ksim_card *c, unsigned int mesh, unsigned int x,
	     unsigned int y, const struct kh_flit *f)
{
	struct ksim_unit *u = ksim_unit_at(c, mesh, x, y);
	struct mc_client *cl = mc_at(c, mesh, x, y);

	if (!cl || cl->n_script >= MC_SCRIPT) {
		check_fail_at(__FILE__, __LINE__, "no room to script (%u,%u)", x, y);
		return;
	}
	cl->script[cl->n_script++] = *f;
	ksim_unit_timer(u, ksim_unit_now(u));
}

bool mc_wait(struct ksim_card *c, const struct mc_client *cl, u32 n,
	     u64 max_cycles)
{
	u64 end = ksim_cycles(c) + max_cycles;

	while (cl->n < n) {
		if (ksim_cycles(c) >= end)
			return false;
		ksim_run(c, 16);
	}
	return true;
}

void mc_req(struct kh_flit *f, unsigned int type, unsigned int py,
	    unsigned int sx, unsigned int sy, u64 addr, unsigned int len,
	    unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, py, sx, sy, type, txn, type == KH_T_MEM_RD_REQ);
	kh_flit_set(f, KH_MEM_ADDR, addr);
	kh_flit_set(f, KH_MEM_LEN, len);
}

void mc_entry(struct kh_flit *f, unsigned int flags, unsigned int count,
	      unsigned int entry_words)
{
	kh_flit_set(f, KH_MEM_FLAGS, flags);
	kh_flit_set(f, KH_MEM_COUNT, count);
	kh_flit_set(f, KH_MEM_ENTRY_WORDS, entry_words);
}

void mc_peer(struct kh_flit *f, unsigned int i, unsigned int x,
	     unsigned int y)
{
	u64 p = kh_flit_get(f, KH_MEM_PEER);

	p |= (u64)KH_YX(x, y) << (8 * i);
	kh_flit_set(f, KH_MEM_PEER, p);
	if (kh_flit_get(f, KH_MEM_NPEER) < i + 1)
		kh_flit_set(f, KH_MEM_NPEER, i + 1);
}

void mc_data(struct kh_flit *f, unsigned int py, unsigned int sx,
	     unsigned int sy, u64 pat, unsigned int last)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, py, sx, sy, KH_T_MEM_WR_DATA, 0, last);
	for (i = 0; i < 4; i++)
		f->w[i] = pat + i;
}

void mc_cfg(struct ksim_card *c, unsigned int mesh, u32 off, u64 v)
{
	ksim_write64(c, KH_MESH_BASE(mesh) + KH_ORC_AUX_CFG(off), v);
}

u64 mc_statw(struct ksim_card *c, unsigned int mesh, unsigned int i)
{
	return ksim_read64(c, KH_MESH_BASE(mesh) + KH_ORC_AUX_STATW(i));
}

u64 mc_aux(struct ksim_card *c, unsigned int mesh)
{
	return ksim_read64(c, KH_MESH_BASE(mesh) + KH_ORC_AUX_STAT);
}
