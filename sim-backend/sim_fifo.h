/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A FIFO of flits with a logical depth (what the hardware has) and a
 * storage capacity that grows on demand up to that depth, so that a card
 * described with deep FIFOs costs memory only for what is actually queued.
 */
#ifndef KH_SIM_FIFO_H
#define KH_SIM_FIFO_H

#include "kh_plat.h"
#include <kohaku/kh_flit.h>

struct kh_fifo {
	struct kh_flit *buf;
	u32 cap;	/* allocated entries */
	u32 depth;	/* logical depth: full at depth entries */
	u32 head;
	u32 count;
};

int kh_fifo_init(struct kh_fifo *q, u32 depth);
void kh_fifo_fini(struct kh_fifo *q);
/* Returns false only when growing the storage failed (out of memory). */
bool kh_fifo_push(struct kh_fifo *q, const struct kh_flit *f);

static inline bool kh_fifo_empty(const struct kh_fifo *q)
{
	return q->count == 0;
}

static inline bool kh_fifo_full(const struct kh_fifo *q)
{
	return q->count >= q->depth;
}

static inline u32 kh_fifo_space(const struct kh_fifo *q)
{
	return q->count >= q->depth ? 0 : q->depth - q->count;
}

static inline const struct kh_flit *kh_fifo_head(const struct kh_fifo *q)
{
	return q->count ? &q->buf[q->head] : NULL;
}

/* The i-th entry from the head (i < count). */
static inline const struct kh_flit *kh_fifo_at(const struct kh_fifo *q, u32 i)
{
	u32 k = q->head + i;

	if (k >= q->cap)
		k -= q->cap;
	return &q->buf[k];
}

static inline void kh_fifo_pop(struct kh_fifo *q)
{
	if (!q->count)
		return;
	q->head = q->head + 1 == q->cap ? 0 : q->head + 1;
	q->count--;
}

static inline void kh_fifo_clear(struct kh_fifo *q)
{
	q->head = 0;
	q->count = 0;
}

#endif /* KH_SIM_FIFO_H */
