// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DRAM window (docs/spec/pool.md "The DRAM window"): a core's load or
 * store at 0x0010_0000 + off is mesh DRAM at win_base + off, in the mesh
 * the unit sits in (KH_MADDR, as the SX unit addresses memory).
 *
 * A load reads the 32-byte word holding it with a one-beat MEM_RD_REQ and
 * the core waits for the MEM_RD_RESP (2 cycles after it).  A store reads
 * the word the same way, merges its bytes and posts the word to the
 * core's write buffer; the buffer sends each word as a one-beat
 * MEM_WR_REQ + MEM_WR_DATA and holds it until its MEM_WR_ACK.  Since MAG
 * orders neither a read against a write nor anything across requesters
 * (kohakutpu.md 5.5), a load or store to a word the buffer holds takes the
 * word from the buffer (the newest copy) instead of reading DRAM, as a
 * write buffer with forwarding does; a store to the newest entry while it
 * is still unsent merges into it.  Eight entries (seed 002 §1.5's write
 * buffer); a store finding them all taken waits for an ack.  FENCE waits
 * until the buffer is empty: every write acked, so in DRAM for everyone.
 *
 * Before anything is sent, two checks in this order: an address past the
 * mesh's DRAM traps (access fault, as in version 1); then the bounds
 * (bounds.c, pool.md "Bounds"): the whole 32-byte word must lie in an
 * enabled region with R (a load) or R and W (a store, which reads the
 * word it merges into).  A refused load reads 0, a refused store is
 * dropped, each retiring with its DataRAM latency; no MEM request, nothing
 * in the write buffer.  The bounds come before the buffer's forwarding
 * too: a word in the buffer was allowed when stored, but the regions the
 * host set since are what count, and checking first keeps it one rule.
 *
 * A core reset forgets its buffer and its read; the replies still come
 * and are counted off (win_rd_out, wb_orphans).
 */
#include "pool.h"

static unsigned int ksim_pool_wb_idx(const struct ksim_pool_core *c,
				     unsigned int i)
{
	return (c->wb_head + i) % KSIM_POOL_WB_DEPTH;
}

/* The newest buffer entry holding word, as an age index, or -1. */
static int ksim_pool_wb_find(const struct ksim_pool_core *c, u64 word)
{
	int i;

	for (i = c->wb_count - 1; i >= 0; i--)
		if (c->wb[ksim_pool_wb_idx(c, i)].addr == word)
			return i;
	return -1;
}

static void ksim_pool_merge(u8 *w, unsigned int off, unsigned int size,
			    u32 v)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		w[off + i] = (u8)(v >> (8 * i));
}

void ksim_pool_win_access(struct ksim_pool *p, struct ksim_pool_core *c,
			  const struct ksim_pool_op *o)
{
	bool st = ksim_pool_is_store(o->k);
	unsigned int size = ksim_pool_access_size(o->k);
	u32 a = c->x[o->rs1] + o->imm;
	u64 local = (u64)c->win_base + (a - KH_POOL_WIN_BASE);
	struct ksim_pool_wbe *e;
	int i;

	if (local >= p->dram_bytes) {
		ksim_pool_trap(p, c, st ? KH_POOL_CAUSE_STORE_FAULT :
					  KH_POOL_CAUSE_LOAD_FAULT, c->pc);
		return;
	}
	c->win_word = KH_MADDR(p->mesh, local & ~(u64)(KSIM_POOL_WORD - 1));
	c->win_off = local & (KSIM_POOL_WORD - 1);
	if (!ksim_pool_bounds_ok(p, c->win_word, KSIM_POOL_WORD,
				 st ? KH_POOL_REGION_R | KH_POOL_REGION_W :
				      KH_POOL_REGION_R)) {
		ksim_pool_bounds_refuse(p, c->id, st, false, local);
		if (!st)
			c->x[o->rd] = 0;
		ksim_pool_done(p, c, st ? KH_POOL_LAT_STORE : KH_POOL_LAT_LOAD);
		return;
	}
	i = ksim_pool_wb_find(c, c->win_word);
	if (!st) {
		if (i >= 0) {
			e = &c->wb[ksim_pool_wb_idx(c, i)];
			c->x[o->rd] = ksim_pool_load_value(o->k,
							   e->data + c->win_off);
			ksim_pool_done(p, c, KH_POOL_LAT_LOAD);
			return;
		}
		c->win_need_rd = true;
		c->win_live = true;
		c->wait = KSIM_POOL_W_WIN;
		return;
	}
	/* the newest entry, still unsent: merge into it */
	if (i >= 0 && i == c->wb_count - 1 && i >= c->wb_sent && !c->wb_res) {
		e = &c->wb[ksim_pool_wb_idx(c, i)];
		ksim_pool_merge(e->data, c->win_off, size, c->x[o->rs2]);
		ksim_pool_done(p, c, KH_POOL_LAT_STORE);
		return;
	}
	if (c->wb_count == KSIM_POOL_WB_DEPTH) {
		c->wait = KSIM_POOL_W_WB;	/* the store again at an ack */
		return;
	}
	e = &c->wb[ksim_pool_wb_idx(c, c->wb_count)];
	e->addr = c->win_word;
	c->wb_count++;
	if (i >= 0) {
		memcpy(e->data, c->wb[ksim_pool_wb_idx(c, i)].data,
		       KSIM_POOL_WORD);
		ksim_pool_merge(e->data, c->win_off, size, c->x[o->rs2]);
		ksim_pool_done(p, c, KH_POOL_LAT_STORE);
		return;
	}
	/* read the word first; the entry waits for it */
	c->wb_res = true;
	c->win_need_rd = true;
	c->win_live = true;
	c->wait = KSIM_POOL_W_WIN;
}

bool ksim_pool_win_flit(struct ksim_pool *p, struct ksim_pool_core *c,
			struct kh_flit *f)
{
	unsigned int i;

	if (c->win_need_rd) {
		if (!ksim_pool_rd_ok(p, 1))
			return false;
		ksim_pool_rd_req(p, f, c->win_word, 1,
				 KSIM_POOL_TXN_WIN_RD(c->id));
		c->win_need_rd = false;
		c->win_rd_out = true;
		return true;
	}
	if (c->wb_sent == c->wb_count ||
	    (c->wb_res && c->wb_sent + 1 == c->wb_count) || !ksim_pool_wr_ok(p))
		return false;
	i = ksim_pool_wb_idx(c, c->wb_sent);
	ksim_pool_wr_req(p, f, c->wb[i].addr, 1, KSIM_POOL_TXN_WIN_WR(c->id),
			 (const u8 (*)[KSIM_POOL_WORD])c->wb[i].data);
	c->wb_sent++;
	return true;
}

bool ksim_pool_win_resp(struct ksim_pool *p, struct ksim_pool_core *c,
			const struct kh_flit *f)
{
	const struct ksim_pool_op *o;
	u8 w[KSIM_POOL_WORD];

	if (!c->win_rd_out)
		return false;
	c->win_rd_out = false;
	if (!c->win_live)
		return true;	/* the core was reset meanwhile */
	c->win_live = false;
	ksim_payload_to_bytes(w, f->w);
	o = &p->dec[c->pc >> 2];
	if (!ksim_pool_is_store(o->k)) {
		c->x[o->rd] = ksim_pool_load_value(o->k, w + c->win_off);
		ksim_pool_done(p, c, KH_POOL_LAT_LOAD);
		return true;
	}
	ksim_pool_merge(w, c->win_off, ksim_pool_access_size(o->k),
			c->x[o->rs2]);
	memcpy(c->wb[ksim_pool_wb_idx(c, c->wb_count - 1)].data, w,
	       KSIM_POOL_WORD);
	c->wb_res = false;
	ksim_pool_done(p, c, KH_POOL_LAT_STORE);
	return true;
}

bool ksim_pool_win_ack(struct ksim_pool *p, struct ksim_pool_core *c)
{
	if (c->wb_orphans) {
		c->wb_orphans--;
		return true;
	}
	if (!c->wb_sent)
		return false;
	c->wb_head = (c->wb_head + 1) % KSIM_POOL_WB_DEPTH;
	c->wb_count--;
	c->wb_sent--;
	if (c->wait == KSIM_POOL_W_WB)
		ksim_pool_again(p, c);
	else if (c->wait == KSIM_POOL_W_FENCE && !c->wb_count)
		ksim_pool_done(p, c, KH_POOL_LAT_ALU);
	return true;
}

void ksim_pool_win_reset(struct ksim_pool_core *c)
{
	c->win_need_rd = false;
	c->win_live = false;
	c->wb_orphans += c->wb_sent;
	c->wb_head = c->wb_count = c->wb_sent = 0;
	c->wb_res = false;
}
