// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The per-core iDMA engines (docs/spec/pool.md "Per-core iDMA"; seed 002
 * §4.3: one channel, 32 outstanding, 64-byte descriptors, a 128-bit
 * DataRAM master).
 *
 * idma_push copies the descriptor out of DataRAM into the queue at once.
 * The engine takes the queue in order and checks a descriptor when it
 * starts it, in this order: a reserved word or flag, fill without
 * direction 1, len 0 (KH_POOL_IDMA_ERR_DESC); dram, len or (not fill)
 * dataram misaligned (ERR_ALIGN); len past 64 KiB, dram past the mesh's
 * DRAM or not DRAM, the DataRAM range (not fill) (ERR_RANGE); then the
 * bounds (version 2, bounds.c): the whole dram range in one enabled region
 * with R (direction 0) or W (direction 1, fill included), on the unit's
 * own mesh (ERR_BOUNDS; the refusal is recorded in BOUNDS_FAULT and
 * faults the job present).  A push of an address that is not a 64-aligned
 * descriptor in DataRAM is ERR_PUSH at once.  An error stops the engine:
 * the queue (the running descriptor included) is dropped, and pushes are
 * ignored until idma_ctrl clears it.
 *
 * DRAM -> DataRAM: up to KSIM_POOL_IDMA_SLOTS reads of up to 8 beats in
 * flight; each beat goes into DataRAM as it arrives, the DataRAM port
 * taking 2 cycles per 32-byte beat (16 B a cycle), and the descriptor
 * completes when its last beat is written.  DataRAM -> DRAM: the engine
 * reads a burst of up to 8 beats out of DataRAM (2 cycles a beat; a fill
 * burst needs no DataRAM) and hands it to the port, which sends it as one
 * MEM_WR_REQ + its beats; the descriptor completes when every burst is
 * acked, so its data is in DRAM for everyone.  A completion or an error is
 * the core's wake-up event.
 */
#include "pool.h"

static struct ksim_pool_dsc *ksim_pool_idma_cur(struct ksim_pool_core *c)
{
	return &c->dma.q[c->dma.head];
}

/* Forget the queue and the running descriptor; what is in flight drains. */
static void ksim_pool_idma_drop(struct ksim_pool_core *c)
{
	struct ksim_pool_idma *d = &c->dma;
	unsigned int i;

	for (i = 0; i < KSIM_POOL_IDMA_SLOTS; i++)
		if (d->rs[i].busy)
			d->rs[i].discard = true;
	d->ack_orphans += d->ack_n;
	d->ack_n = 0;
	d->ack_head = 0;
	d->bst = false;
	d->run = false;
	d->head = d->count = 0;
	d->done_at = KSIM_POOL_NEVER;
}

static void ksim_pool_idma_error(struct ksim_pool *p, struct ksim_pool_core *c,
				 unsigned int cause)
{
	ksim_pool_idma_drop(c);
	c->dma.err = true;
	c->dma.cause = cause;
	ksim_pool_event(p, 1u << c->id);
}

void ksim_pool_idma_push(struct ksim_pool *p, struct ksim_pool_core *c,
			 u32 addr)
{
	struct ksim_pool_idma *d = &c->dma;
	struct ksim_pool_dsc *q;
	const u8 *b;
	u32 off = addr - KH_POOL_DRAM_BASE;
	unsigned int i;

	if (d->err) {
		ksim_pool_done(p, c, KH_POOL_LAT_ALU);	/* ignored */
		return;
	}
	if ((addr & (sizeof(struct kh_pool_idma_desc) - 1)) ||
	    off >= KH_POOL_DRAM_SIZE) {
		ksim_pool_idma_error(p, c, KH_POOL_IDMA_ERR_PUSH);
		ksim_pool_done(p, c, KH_POOL_LAT_ALU);
		return;
	}
	if (d->count == KH_POOL_IDMA_QUEUE) {
		c->wait = KSIM_POOL_W_PUSH;	/* the push again at a completion */
		return;
	}
	b = c->dram + off;
	q = &d->q[(d->head + d->count) % KH_POOL_IDMA_QUEUE];
	q->dram = (u64)ksim_pool_rd32(b) | (u64)ksim_pool_rd32(b + 4) << 32;
	q->dataram = ksim_pool_rd32(b + 8);
	q->len = ksim_pool_rd32(b + 12);
	q->flags = ksim_pool_rd32(b + 16);
	q->pattern = ksim_pool_rd32(b + 20);
	q->reserved = false;
	for (i = 24; i < sizeof(struct kh_pool_idma_desc); i += 4)
		if (ksim_pool_rd32(b + i))
			q->reserved = true;
	d->count++;
	ksim_pool_done(p, c, KH_POOL_LAT_ALU);
}

void ksim_pool_idma_clear(struct ksim_pool *p, struct ksim_pool_core *c)
{
	ksim_pool_idma_drop(c);
	c->dma.err = false;
	c->dma.cause = 0;
	if (c->wait == KSIM_POOL_W_PUSH)
		ksim_pool_again(p, c);
}

u32 ksim_pool_idma_status(const struct ksim_pool_core *c)
{
	const struct ksim_pool_idma *d = &c->dma;

	return d->done | (u32)d->count << 16 |
	       (d->err ? KH_POOL_IDMA_ERROR : 0) | (u32)(d->cause & 0xf) << 28;
}

/* The error cause of descriptor q, or 0. */
static unsigned int ksim_pool_idma_check(const struct ksim_pool *p,
					 const struct ksim_pool_dsc *q)
{
	bool fill = q->flags & KH_POOL_IDMA_FILL;

	if (q->reserved ||
	    (q->flags & ~(KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL)) ||
	    (fill && !(q->flags & KH_POOL_IDMA_TO_DRAM)) || !q->len)
		return KH_POOL_IDMA_ERR_DESC;
	if ((q->dram & (KSIM_POOL_WORD - 1)) || (q->len & (KSIM_POOL_WORD - 1)) ||
	    (!fill && (q->dataram & 3)))
		return KH_POOL_IDMA_ERR_ALIGN;
	if (q->len > KH_POOL_IDMA_MAX_LEN || !ksim_pool_addr_ok(p, q->dram, q->len))
		return KH_POOL_IDMA_ERR_RANGE;
	if (!fill && (q->dataram - KH_POOL_DRAM_BASE >= KH_POOL_DRAM_SIZE ||
		      q->dataram - KH_POOL_DRAM_BASE + q->len > KH_POOL_DRAM_SIZE))
		return KH_POOL_IDMA_ERR_RANGE;
	if (!ksim_pool_bounds_ok(p, q->dram, q->len,
				 (q->flags & KH_POOL_IDMA_TO_DRAM) ?
				 KH_POOL_REGION_W : KH_POOL_REGION_R))
		return KH_POOL_IDMA_ERR_BOUNDS;
	return 0;
}

static void ksim_pool_idma_complete(struct ksim_pool *p,
				    struct ksim_pool_core *c)
{
	struct ksim_pool_idma *d = &c->dma;

	d->run = false;
	d->done_at = KSIM_POOL_NEVER;
	d->done++;
	d->head = (d->head + 1) % KH_POOL_IDMA_QUEUE;
	d->count--;
	if (c->wait == KSIM_POOL_W_PUSH)
		ksim_pool_again(p, c);
	ksim_pool_event(p, 1u << c->id);
}

/* The engine's cycle: completions due, the next descriptor, a burst. */
void ksim_pool_idma_tick(struct ksim_pool *p, struct ksim_pool_core *c)
{
	struct ksim_pool_idma *d = &c->dma;
	struct ksim_pool_dsc *q;
	unsigned int cause, beats, i;

	if (d->run && d->done_at <= p->now)
		ksim_pool_idma_complete(p, c);
	if (!d->run && d->count && !d->err) {
		q = ksim_pool_idma_cur(c);
		cause = ksim_pool_idma_check(p, q);
		if (cause == KH_POOL_IDMA_ERR_BOUNDS)
			ksim_pool_bounds_refuse(p, c->id,
						q->flags & KH_POOL_IDMA_TO_DRAM,
						true, q->dram);
		if (cause) {
			ksim_pool_idma_error(p, c, cause);
			return;
		}
		d->run = true;
		d->issued = d->landed = 0;
		d->done_at = KSIM_POOL_NEVER;
	}
	if (!d->run)
		return;
	q = ksim_pool_idma_cur(c);
	if (!(q->flags & KH_POOL_IDMA_TO_DRAM) || d->bst || d->issued == q->len)
		return;
	/* DataRAM -> DRAM: read the next burst out of DataRAM (or fill it) */
	beats = ksim_min_u32((q->len - d->issued) / KSIM_POOL_WORD,
			     KSIM_POOL_BEATS);
	d->bst = true;
	d->bst_beats = beats;
	d->bst_addr = q->dram + d->issued;
	if (q->flags & KH_POOL_IDMA_FILL) {
		for (i = 0; i < beats * KSIM_POOL_WORD; i += 4)
			ksim_pool_wr32(&d->bst_data[0][0] + i, q->pattern);
		d->bst_at = p->now;
	} else {
		memcpy(d->bst_data, c->dram + (q->dataram - KH_POOL_DRAM_BASE) +
		       d->issued, (size_t)beats * KSIM_POOL_WORD);
		if (d->pt < p->now)
			d->pt = p->now;
		d->pt += beats * (KSIM_POOL_WORD / KH_POOL_LAT_IDMA_BYTES);
		d->bst_at = d->pt;
	}
	d->issued += beats * KSIM_POOL_WORD;
}

bool ksim_pool_idma_flit(struct ksim_pool *p, struct ksim_pool_core *c,
			 struct kh_flit *f)
{
	struct ksim_pool_idma *d = &c->dma;
	struct ksim_pool_dsc *q = ksim_pool_idma_cur(c);
	unsigned int s, beats;

	if (!d->run)
		return false;
	if (q->flags & KH_POOL_IDMA_TO_DRAM) {
		if (!d->bst || d->bst_at > p->now || !ksim_pool_wr_ok(p) ||
		    d->ack_n == KSIM_POOL_WR_MAX)
			return false;
		ksim_pool_wr_req(p, f, d->bst_addr, d->bst_beats,
				 KSIM_POOL_TXN_IDMA_WR(c->id),
				 (const u8 (*)[KSIM_POOL_WORD])d->bst_data);
		d->ack_bytes[(d->ack_head + d->ack_n) % KSIM_POOL_WR_MAX] =
			d->bst_beats * KSIM_POOL_WORD;
		d->ack_n++;
		d->bst = false;
		return true;
	}
	if (d->issued == q->len)
		return false;
	for (s = 0; s < KSIM_POOL_IDMA_SLOTS; s++)
		if (!d->rs[s].busy)
			break;
	beats = ksim_pool_rd_beats(p, q->len - d->issued);
	if (s == KSIM_POOL_IDMA_SLOTS || !ksim_pool_rd_ok(p, beats))
		return false;
	ksim_pool_rd_req(p, f, q->dram + d->issued, beats,
			 KSIM_POOL_TXN_IDMA_RD(c->id, s));
	d->rs[s].busy = true;
	d->rs[s].discard = false;
	d->rs[s].beats = beats;
	d->rs[s].got = 0;
	d->rs[s].off = q->dataram - KH_POOL_DRAM_BASE + d->issued;
	d->issued += beats * KSIM_POOL_WORD;
	return true;
}

bool ksim_pool_idma_beat(struct ksim_pool *p, struct ksim_pool_core *c,
			 unsigned int s, const struct kh_flit *f)
{
	struct ksim_pool_idma *d = &c->dma;
	struct ksim_pool_rslot *r = &d->rs[s];

	if (!r->busy)
		return false;
	if (!r->discard) {
		ksim_payload_to_bytes(c->dram + r->off + r->got * KSIM_POOL_WORD,
				      f->w);
		if (d->pt < p->now)
			d->pt = p->now;
		d->pt += KSIM_POOL_WORD / KH_POOL_LAT_IDMA_BYTES;
		d->landed += KSIM_POOL_WORD;
		if (d->run && d->landed == ksim_pool_idma_cur(c)->len)
			d->done_at = d->pt;
	}
	if (++r->got == r->beats)
		r->busy = false;
	return true;
}

bool ksim_pool_idma_ack(struct ksim_pool *p, struct ksim_pool_core *c)
{
	struct ksim_pool_idma *d = &c->dma;

	if (d->ack_orphans) {
		d->ack_orphans--;
		return true;
	}
	if (!d->ack_n)
		return false;
	d->landed += d->ack_bytes[d->ack_head];
	d->ack_head = (d->ack_head + 1) % KSIM_POOL_WR_MAX;
	d->ack_n--;
	if (d->run && d->landed == ksim_pool_idma_cur(c)->len)
		d->done_at = p->now;
	return true;
}

/* A core reset: the engine, its queue, its error and its count cleared. */
void ksim_pool_idma_reset(struct ksim_pool_core *c)
{
	ksim_pool_idma_drop(c);
	c->dma.err = false;
	c->dma.cause = 0;
	c->dma.done = 0;
	c->dma.pt = 0;
}

/* When the engine next needs a tick without any input, or NEVER. */
u64 ksim_pool_idma_next(const struct ksim_pool *p,
			const struct ksim_pool_core *c)
{
	const struct ksim_pool_idma *d = &c->dma;
	u64 t = KSIM_POOL_NEVER;

	if (d->run && d->done_at != KSIM_POOL_NEVER)
		t = d->done_at;
	if (d->bst && d->bst_at > p->now && d->bst_at < t)
		t = d->bst_at;
	if (!d->run && d->count && !d->err)
		t = p->now + 1;
	return t;
}
