// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A COPY instruction taken, its slot latched, and the first six faults
 * decided before anything is read or sent (docs/spec/dxa.md "Faults"), in
 * the order of their codes: the first that holds is the one reported.
 *
 * BAD_META also covers what the spec leaves open and a line-based reader
 * cannot serve: a base or a stride (of a dimension below the rank) that is
 * not a multiple of the element size would put an element across two
 * lines (the spec's "Decided while modelling").
 *
 * The slot is copied at accept: a table write during the copy changes the
 * next copy, never this one.  Dimensions at and above the rank have extent
 * 1 and coordinate 0 whatever the slot and the instruction hold.
 */
#include "dxa.h"

void ksim_dxa_fail(struct ksim_dxa *x, u32 code)
{
	unsigned int t;

	x->fault = true;
	x->fault_code = code;
	x->state = KSIM_DXA_DONE;
	/* reads still out are the old generation's: dropped when they come */
	for (t = 0; t < KH_DXA_MAX_INFLIGHT; t++)
		x->tag[t].busy = x->tag[t].have = false;
	x->pl_tag = -1;
	x->pl_head = x->pl_count = 0;
}

/* The fault code for the latched slot and instruction, or 0. */
static u32 ksim_dxa_check(const struct ksim_dxa *x, unsigned int op,
			  unsigned int zero)
{
	const struct ksim_dxa_desc *d = &x->d;
	unsigned int rank = KH_DXA_META_RANK(d->meta), i;
	u64 elems = 1;

	if (op != KH_DXA_OP_COPY || zero)
		return KH_DXA_FAULT_BAD_OP;
	if (!rank)
		return KH_DXA_FAULT_EMPTY_SLOT;
	if (rank > KH_DXA_MAX_RANK || (d->meta & KH_DXA_META_RESERVED) ||
	    d->base > KSIM_DXA_ADDR_MASK)
		return KH_DXA_FAULT_BAD_META;
	if (d->base % x->eb)
		return KH_DXA_FAULT_BAD_META;
	for (i = 0; i + 1 < rank; i++)
		if (d->stride[i] % x->eb)
			return KH_DXA_FAULT_BAD_META;
	if ((d->meta & KH_DXA_META_KMAJOR) && rank > 2)
		return KH_DXA_FAULT_KMAJOR_RANK;
	for (i = 0; i < rank; i++)
		if (!d->tile[i])
			return KH_DXA_FAULT_ZERO_TILE;
	for (i = 0; i < rank; i++)
		elems *= d->tile[i];
	if (elems * x->eb > KH_DXA_MAX_TILE_BYTES)
		return KH_DXA_FAULT_TILE_TOO_BIG;
	return 0;
}

void ksim_dxa_accept(struct ksim_dxa *x, const struct kh_flit *f)
{
	struct ksim_unit *u = x->u;
	unsigned int op = kh_flit_get(f, KH_DXA_INST_OP);
	unsigned int slot = kh_flit_get(f, KH_DXA_INST_SLOT);
	unsigned int zero = kh_flit_get(f, KH_DXA_INST_ZERO), i;
	u64 now = ksim_unit_now(u);
	u32 code;

	ksim_unit_inst_accept(u);
	x->t_accept = now;
	x->t_first_req = x->t_last_resp = x->t_placed = 0;
	x->t_first_send = x->t_last_send = 0;
	x->t_done = 0;
	x->max_out = 0;
	x->gen = (x->gen + 1) & (0xff >> KSIM_DXA_TAG_BITS);
	x->fault = false;
	x->last_progress = now;
	/* no receiver of this copy has been sent to or answered yet */
	for (i = 0; i < KH_DXA_MAX_RECV; i++)
		x->b_sent[i] = x->acked[i] = false;
	x->no_ack = false;
	ksim_dxa_desc_decode(x->table[slot], &x->d);
	x->nrecv = kh_flit_get(f, KH_DXA_INST_NRECV) + 1;
	for (i = 0; i < KH_DXA_MAX_RECV; i++)
		x->recv[i] = kh_flit_get(f, KH_DXA_INST_RECV(i));
	x->rank = KH_DXA_META_RANK(x->d.meta);
	x->eb = 1u << KH_DXA_META_ESIZE(x->d.meta);
	x->kmajor = x->d.meta & KH_DXA_META_KMAJOR;
	code = ksim_dxa_check(x, op, zero);
	if (code) {
		/* exec_done the next cycle: nothing read, nothing sent */
		ksim_dxa_fail(x, code);
		return;
	}
	x->elems = 1;
	for (i = 0; i < KH_DXA_MAX_RANK; i++) {
		bool in = i < x->rank;

		x->ext[i] = in ? x->d.tile[i] : 1;
		x->c[i] = in ? (u32)kh_flit_get(f, KH_DXA_INST_COORD(i)) : 0;
		x->elems *= x->ext[i];
	}
	x->granules = (x->elems * x->eb + KSIM_DXA_GRANULE - 1) /
		      KSIM_DXA_GRANULE;
	ksim_dxa_lines_build(x);
	ksim_dxa_stage_init(x);
	x->state = KSIM_DXA_SETUP;
	x->ready_at = now + 1 + KSIM_DXA_SETUP_CYCLES;
}
