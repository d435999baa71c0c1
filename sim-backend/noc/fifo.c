// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Flit FIFOs with storage that grows up to the logical depth. */
#include "fifo.h"

/* Storage allocated up front; deeper FIFOs grow when they fill. */
#define KSIM_FIFO_INITIAL_CAP	32

int ksim_fifo_init(struct ksim_fifo *q, u32 depth)
{
	memset(q, 0, sizeof(*q));
	if (!depth)
		return -EINVAL;
	q->depth = depth;
	q->cap = depth < KSIM_FIFO_INITIAL_CAP ? depth : KSIM_FIFO_INITIAL_CAP;
	q->buf = ksim_plat_zalloc(sizeof(*q->buf) * q->cap);
	return q->buf ? 0 : -ENOMEM;
}

void ksim_fifo_fini(struct ksim_fifo *q)
{
	ksim_plat_free(q->buf);
	q->buf = NULL;
	q->cap = 0;
	q->count = 0;
}

static bool ksim_fifo_grow(struct ksim_fifo *q)
{
	u32 ncap = q->cap * 2;
	struct kh_flit *nb;
	u32 i;

	if (ncap > q->depth || ncap < q->cap)
		ncap = q->depth;
	nb = ksim_plat_zalloc(sizeof(*nb) * ncap);
	if (!nb)
		return false;
	for (i = 0; i < q->count; i++)
		nb[i] = *ksim_fifo_at(q, i);
	ksim_plat_free(q->buf);
	q->buf = nb;
	q->cap = ncap;
	q->head = 0;
	return true;
}

bool ksim_fifo_push_grow(struct ksim_fifo *q, const struct kh_flit *f)
{
	if (!ksim_fifo_grow(q))
		return false;
	/* after the grow the entries start at 0: the tail is count */
	q->buf[q->count++] = *f;
	return true;
}
