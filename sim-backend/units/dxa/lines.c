// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Address generation and the reads (docs/spec/dxa.md "CU_INST: a copy").
 *
 * Element (i0..i4) of the tile is at base + (c0 + i0) * eb +
 * sum_{d>=1} (c_d + i_d) * stride[d-1], kept to the 40 bits of a MAG
 * address (the adders wrap); it is out of bounds when c_d + i_d >=
 * size[d] for a d below the rank, and then nothing is read for it.  At
 * setup the unit lists the distinct 32-byte lines of the in-bounds
 * elements in the order the tile first touches them, and which elements
 * each line feeds: a line is read once per copy however many rows and
 * receivers use it, and a line with no in-bounds element is not in the
 * list.  (The list is the model's shortcut for the address generator's
 * walk; the unit's visible behaviour is the requests it sends.)
 *
 * Reads: one plain MEM_RD_REQ of one beat per line, to the unit's MAG
 * port, one per cycle once setup is over, at most KH_DXA_MAX_INFLIGHT
 * outstanding: a tag is busy from its request until its line is placed.
 * txn = {copy generation [7:3], tag [2:0]}: an answer to a copy that
 * faulted (STALL) comes with an old generation and is dropped, whatever
 * the next copy has in flight.
 */
#include "dxa.h"

static u32 ksim_dxa_hash(u64 line)
{
	return (u32)(((line >> 5) * 0x9e3779b97f4a7c15ULL) >> 32) &
	       (KSIM_DXA_HASH - 1);
}

/* The index of line a in the list, added when new. */
static u16 ksim_dxa_line_of(struct ksim_dxa *x, u64 a)
{
	u32 h = ksim_dxa_hash(a);

	while (x->h_gen[h] == x->h_stamp) {
		if (x->line_addr[x->h_line[h]] == a)
			return x->h_line[h];
		h = (h + 1) & (KSIM_DXA_HASH - 1);
	}
	x->h_gen[h] = x->h_stamp;
	x->h_line[h] = (u16)x->n_lines;
	x->line_addr[x->n_lines] = a;
	x->line_first[x->n_lines + 1] = 0;
	return (u16)x->n_lines++;
}

/*
 * The in-bounds elements in tile order.  First pass: the line list and
 * each line's element count.  Second pass: each element into its line's
 * bucket (stable: a bucket stays in tile order).
 */
static void ksim_dxa_walk(struct ksim_dxa *x, bool second)
{
	const struct ksim_dxa_desc *d = &x->d;
	u32 i[KH_DXA_MAX_RANK] = { 0 }, lin = 0, k = 0, i0;
	unsigned int dim;

	for (;;) {
		u64 rb = d->base;
		bool in = true;

		for (dim = 1; dim < x->rank; dim++) {
			u32 cd = x->c[dim] + i[dim];

			if (cd >= d->size[dim])
				in = false;
			rb += (u64)cd * d->stride[dim - 1];
		}
		for (i0 = 0; in && i0 < x->ext[0]; i0++) {
			u32 c0 = x->c[0] + i0;
			u64 a;
			u16 l;

			if (c0 >= d->size[0])
				break;	/* the rest of the row is out too */
			a = (rb + (u64)c0 * x->eb) & KSIM_DXA_ADDR_MASK;
			if (!second) {
				l = ksim_dxa_line_of(x, a & ~(u64)(KSIM_DXA_LINE - 1));
				x->el_line[k++] = l;
				x->line_first[l + 1]++;
			} else {
				u32 at = x->line_first[x->el_line[k++]]++;

				x->el_lin[at] = (u16)(lin + i0);
				x->el_off[at] = (u8)(a & (KSIM_DXA_LINE - 1));
			}
		}
		lin += x->ext[0];
		for (dim = 1; dim < KH_DXA_MAX_RANK; dim++) {
			if (++i[dim] < x->ext[dim])
				break;
			i[dim] = 0;
		}
		if (dim == KH_DXA_MAX_RANK)
			return;
	}
}

void ksim_dxa_lines_build(struct ksim_dxa *x)
{
	u32 l;

	if (!++x->h_stamp) {
		memset(x->h_gen, 0, sizeof(x->h_gen));
		x->h_stamp = 1;
	}
	x->n_lines = 0;
	x->line_first[0] = 0;
	ksim_dxa_walk(x, false);
	/* counts to starts; the second pass leaves each at its end */
	for (l = 0; l < x->n_lines; l++)
		x->line_first[l + 1] += x->line_first[l];
	ksim_dxa_walk(x, true);
	for (l = x->n_lines; l; l--)
		x->line_first[l] = x->line_first[l - 1];
	x->line_first[0] = 0;
	x->rd_next = 0;
	x->rd_out = 0;
	x->pl_done = 0;
	x->pl_tag = -1;
	x->pl_head = x->pl_count = 0;
}

static int ksim_dxa_free_tag(const struct ksim_dxa *x)
{
	unsigned int t;

	for (t = 0; t < KH_DXA_MAX_INFLIGHT; t++)
		if (!x->tag[t].busy)
			return (int)t;
	return -1;
}

bool ksim_dxa_read_ready(const struct ksim_dxa *x)
{
	return x->state == KSIM_DXA_READ && x->rd_next < x->n_lines &&
	       ksim_dxa_free_tag(x) >= 0;
}

void ksim_dxa_read_flit(struct ksim_dxa *x, struct kh_flit *f)
{
	x->rd_tag = (unsigned int)ksim_dxa_free_tag(x);
	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(x->u, f, x->mx, x->my, KH_T_MEM_RD_REQ,
		      (x->gen << KSIM_DXA_TAG_BITS) | x->rd_tag, 1);
	kh_flit_set(f, KH_MEM_ADDR, x->line_addr[x->rd_next]);
	kh_flit_set(f, KH_MEM_LEN, 0);
}

void ksim_dxa_read_taken(struct ksim_dxa *x)
{
	struct ksim_dxa_tag *t = &x->tag[x->rd_tag];
	u64 now = ksim_unit_now(x->u);

	if (x->state != KSIM_DXA_READ)
		return;		/* held across a fault: its answer is stale */
	t->busy = true;
	t->have = false;
	t->line = x->rd_next++;
	t->req_at = now;
	if (!x->t_first_req)
		x->t_first_req = now;
	x->rd_out++;
	if (x->rd_out > x->max_out)
		x->max_out = x->rd_out;
	x->gmem_reads++;
	x->gmem_saved += x->nrecv - 1;
	x->last_progress = now;
}

void ksim_dxa_read_resp(struct ksim_dxa *x, const struct kh_flit *f)
{
	unsigned int txn = kh_flit_get(f, KH_HDR_TXN);
	struct ksim_dxa_tag *t = &x->tag[txn & KSIM_DXA_TAG_MASK];
	u64 now = ksim_unit_now(x->u);

	if (x->state != KSIM_DXA_READ || txn >> KSIM_DXA_TAG_BITS != x->gen ||
	    !t->busy || t->have) {
		x->stale++;
		ksim_unit_drop(x->u, f, "dxa: a read answer no copy waits for");
		return;
	}
	ksim_payload_to_bytes(t->data, f->w);
	t->have = true;
	x->gmem_lat += now - t->req_at;
	x->last_progress = now;
	x->t_last_resp = now;
	x->pl_order[(x->pl_head + x->pl_count) % KH_DXA_MAX_INFLIGHT] =
		txn & KSIM_DXA_TAG_MASK;
	x->pl_count++;
}
