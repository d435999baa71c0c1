/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A FIFO of flits with a logical depth (what the hardware has) and a
 * storage capacity that grows on demand up to that depth, so that a card
 * described with deep FIFOs costs memory only for what is actually queued.
 */
#ifndef KSIM_FIFO_H
#define KSIM_FIFO_H

#include "ksim_plat.h"
#include <kohaku/kh_flit.h>

struct ksim_fifo {
	struct kh_flit *buf;
	u32 cap;	/* allocated entries */
	u32 depth;	/* logical depth: full at depth entries */
	u32 head;
	u32 count;
};

int ksim_fifo_init(struct ksim_fifo *q, u32 depth);
void ksim_fifo_fini(struct ksim_fifo *q);
/* Push when the storage is full but the FIFO is not: grow it first. */
bool ksim_fifo_push_grow(struct ksim_fifo *q, const struct kh_flit *f);

/*
 * Push at the tail; false when the FIFO is full (at its logical depth) or
 * growing the storage failed (out of memory).  The common case inline.
 */
static inline bool ksim_fifo_push(struct ksim_fifo *q, const struct kh_flit *f)
{
	u32 tail;

	if (q->count >= q->depth)
		return false;
	if (q->count == q->cap)
		return ksim_fifo_push_grow(q, f);
	tail = q->head + q->count;
	if (tail >= q->cap)
		tail -= q->cap;
	q->buf[tail] = *f;
	q->count++;
	return true;
}

static inline bool ksim_fifo_empty(const struct ksim_fifo *q)
{
	return q->count == 0;
}

static inline bool ksim_fifo_full(const struct ksim_fifo *q)
{
	return q->count >= q->depth;
}

static inline u32 ksim_fifo_space(const struct ksim_fifo *q)
{
	return q->count >= q->depth ? 0 : q->depth - q->count;
}

static inline const struct kh_flit *ksim_fifo_head(const struct ksim_fifo *q)
{
	return q->count ? &q->buf[q->head] : NULL;
}

/* The i-th entry from the head (i < count). */
static inline const struct kh_flit *ksim_fifo_at(const struct ksim_fifo *q, u32 i)
{
	u32 k = q->head + i;

	if (k >= q->cap)
		k -= q->cap;
	return &q->buf[k];
}

static inline void ksim_fifo_pop(struct ksim_fifo *q)
{
	if (!q->count)
		return;
	q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
	q->count--;
}

static inline void ksim_fifo_clear(struct ksim_fifo *q)
{
	q->head = 0;
	q->count = 0;
}

#endif /* KSIM_FIFO_H */
