// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The staging buffer: the tile as the receivers get it (docs/spec/dxa.md
 * "CU_INST: a copy"), 8 KiB, one copy for every receiver.
 *
 * At setup every element reads cfill (its low eb bytes: truncated for 1
 * and 2, zero-extended for 8) and the tail of the last granule 0; in the
 * card that is a valid bit per element and a mux at the burst, so it costs
 * no cycle.  Each line, as it arrives, overwrites its in-bounds elements:
 * row-major at byte lin * eb (lin = i0 + tile0 * (i1 + tile1 * ...)),
 * K-major (rank 1 or 2) at (i0 * tile1 + i1) * eb.
 *
 * Timing (spec, "Timing"; seed 003 section 4): one line in placement at a
 * time, in arrival order, from the cycle after it arrived; row-major one
 * cycle per row segment the line feeds (a line is a granule: one cycle
 * unless rows share it), K-major one cycle per element.  Its tag is free
 * once it is placed.
 */
#include "dxa.h"

void ksim_dxa_stage_init(struct ksim_dxa *x)
{
	u32 e, b, bytes = x->elems * x->eb;
	u8 fill[8];

	for (b = 0; b < 8; b++)
		fill[b] = b < 4 ? (u8)(x->d.cfill >> (8 * b)) : 0;
	for (e = 0; e < x->elems; e++)
		memcpy(x->stage + e * x->eb, fill, x->eb);
	memset(x->stage + bytes, 0, x->granules * KSIM_DXA_GRANULE - bytes);
}

/* Where tile element lin lands in the staging buffer. */
static u32 ksim_dxa_dest(const struct ksim_dxa *x, u32 lin)
{
	if (x->kmajor)
		return ((lin % x->ext[0]) * x->ext[1] + lin / x->ext[0]) *
		       x->eb;
	return lin * x->eb;
}

/* Cycles to place line l. */
static u32 ksim_dxa_cost(const struct ksim_dxa *x, u32 l)
{
	u32 e, n = 0;

	if (x->kmajor)
		return x->line_first[l + 1] - x->line_first[l];
	for (e = x->line_first[l]; e < x->line_first[l + 1]; e++)
		if (e == x->line_first[l] ||
		    x->el_lin[e] / x->ext[0] != x->el_lin[e - 1] / x->ext[0] ||
		    x->el_lin[e] != x->el_lin[e - 1] + 1)
			n++;
	return n;
}

static void ksim_dxa_place(struct ksim_dxa *x, struct ksim_dxa_tag *t)
{
	u32 e;

	for (e = x->line_first[t->line]; e < x->line_first[t->line + 1]; e++)
		memcpy(x->stage + ksim_dxa_dest(x, x->el_lin[e]),
		       t->data + x->el_off[e], x->eb);
}

/* One cycle of placement.  Return: true when it did something. */
bool ksim_dxa_place_step(struct ksim_dxa *x)
{
	struct ksim_dxa_tag *t;

	if (x->pl_tag < 0) {
		if (!x->pl_count)
			return false;
		x->pl_tag = (int)x->pl_order[x->pl_head];
		x->pl_head = (x->pl_head + 1) % KH_DXA_MAX_INFLIGHT;
		x->pl_count--;
		x->pl_left = ksim_dxa_cost(x, x->tag[x->pl_tag].line);
	}
	if (--x->pl_left)
		return true;
	t = &x->tag[x->pl_tag];
	ksim_dxa_place(x, t);
	t->busy = t->have = false;
	x->pl_tag = -1;
	x->rd_out--;
	if (++x->pl_done == x->n_lines)
		x->t_placed = ksim_unit_now(x->u);
	return true;
}
