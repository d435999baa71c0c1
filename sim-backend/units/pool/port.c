// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL unit's side of the memory path: everything it sends goes to
 * the MAG port of its row (ksim_unit_mag_port(), as the SX unit), one flit
 * per cycle on send_*, and everything it receives comes back on recv_*,
 * one flit per cycle.
 *
 * Out.  A write burst's MEM_WR_DATA beats follow its MEM_WR_REQ before any
 * other write starts (MAG reassembles per source: one open write per
 * source, kohakutpu.md 5.4); then CU_SIGNALs (SIG_DATA_RECEIVED); then the
 * requesters in turn, round robin: the eight cores' windows, the eight
 * iDMA engines, LOAD.  A read goes only while the beats in flight fit the
 * receive FIFO (recv_depth: the checker's rule 9, and a response never
 * waits for room), a write burst only while fewer than
 * min(KSIM_POOL_WR_MAX, wr_slots / 2) are unacked (MAG's write slots are
 * shared by every writer of the mesh).  A flit offered and refused is
 * offered again, unchanged, until taken (seed 001 §3).
 *
 * In.  MEM_RD_RESP and MEM_WR_ACK go to their requester by txn
 * (KSIM_POOL_TXN_*), CU_DATA to the shared receiver (policy in cudata.c,
 * its acks queued there until the send path takes them); anything
 * else, and a response nobody waits for, is dropped and counted.
 */
#include "pool.h"
#include "params.h"

bool ksim_pool_addr_ok(const struct ksim_pool *p, u64 addr, u64 len)
{
	u64 local = addr & KH_MADDR_LOCAL_MASK;

	/* DRAM only (no aperture, nothing above bit 39); any mesh id */
	if (addr & ~(KH_MADDR_LOCAL_MASK |
		     (KH_MADDR_MESH_MASK << KH_MADDR_MESH_SHIFT)))
		return false;
	return local <= p->dram_bytes && len <= p->dram_bytes - local;
}

bool ksim_pool_rd_ok(const struct ksim_pool *p, unsigned int beats)
{
	return p->port.rd_out + beats <= p->port.rd_max;
}

/* Beats for the next read of a requester with bytes_left to read. */
unsigned int ksim_pool_rd_beats(const struct ksim_pool *p, u32 bytes_left)
{
	u32 b = bytes_left / KSIM_POOL_WORD;

	b = ksim_min_u32(b, KSIM_POOL_BEATS);
	return ksim_min_u32(b, p->port.rd_max);
}

void ksim_pool_rd_req(struct ksim_pool *p, struct kh_flit *f, u64 addr,
		      unsigned int beats, unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(p->u, f, p->port.mx, p->port.my, KH_T_MEM_RD_REQ, txn, 1);
	kh_flit_set(f, KH_MEM_ADDR, addr);
	kh_flit_set(f, KH_MEM_LEN, beats - 1);
	p->port.rd_out += beats;
}

bool ksim_pool_wr_ok(const struct ksim_pool *p)
{
	return !p->port.wr_on && p->port.wr_out < p->port.wr_max;
}

void ksim_pool_wr_req(struct ksim_pool *p, struct kh_flit *f, u64 addr,
		      unsigned int beats, unsigned int txn,
		      const u8 (*data)[KSIM_POOL_WORD])
{
	struct ksim_pool_port *pt = &p->port;

	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(p->u, f, pt->mx, pt->my, KH_T_MEM_WR_REQ, txn, 0);
	kh_flit_set(f, KH_MEM_ADDR, addr);
	kh_flit_set(f, KH_MEM_LEN, beats - 1);
	memcpy(pt->wr_data, data, (size_t)beats * KSIM_POOL_WORD);
	pt->wr_on = true;
	pt->wr_beats = beats;
	pt->wr_sent = 0;
	pt->wr_txn = txn;
	pt->wr_out++;
}

#define KSIM_POOL_REQUESTERS	(2 * KH_POOL_CORES + 1)

/* Requester r's next flit, if it has one it may send now. */
static bool ksim_pool_req_flit(struct ksim_pool *p, unsigned int r,
			       struct kh_flit *f)
{
	if (r < KH_POOL_CORES)
		return ksim_pool_win_flit(p, &p->core[r], f);
	if (r < 2 * KH_POOL_CORES)
		return ksim_pool_idma_flit(p, &p->core[r - KH_POOL_CORES], f);
	return ksim_pool_load_flit(p, f);
}

/* Build the next flit to send; false if there is none. */
static bool ksim_pool_next_flit(struct ksim_pool *p, struct kh_flit *f)
{
	struct ksim_pool_port *pt = &p->port;
	unsigned int i, r;

	if (pt->wr_on) {
		bool last = pt->wr_sent + 1 == pt->wr_beats;

		memset(f, 0, sizeof(*f));
		ksim_unit_hdr(p->u, f, pt->mx, pt->my, KH_T_MEM_WR_DATA,
			      pt->wr_txn, last);
		ksim_bytes_to_payload(f->w, pt->wr_data[pt->wr_sent]);
		if (++pt->wr_sent == pt->wr_beats)
			pt->wr_on = false;
		return true;
	}
	if (ksim_unit_cd_ack(p->u, f)) {
		ksim_unit_cd_ack_pop(p->u);	/* held from here until taken */
		return true;
	}
	for (i = 0; i < KSIM_POOL_REQUESTERS; i++) {
		r = (pt->rr + i) % KSIM_POOL_REQUESTERS;
		if (ksim_pool_req_flit(p, r, f)) {
			pt->rr = (r + 1) % KSIM_POOL_REQUESTERS;
			return true;
		}
	}
	return false;
}

/* The send path's cycle: true when something was offered. */
bool ksim_pool_send(struct ksim_pool *p)
{
	struct ksim_pool_port *pt = &p->port;

	if (!pt->held) {
		if (!ksim_pool_next_flit(p, &pt->hflit))
			return false;
		pt->held = true;
	}
	if (ksim_unit_send(p->u, &pt->hflit))
		pt->held = false;
	return true;
}

static bool ksim_pool_rd_resp(struct ksim_pool *p, const struct kh_flit *f)
{
	unsigned int txn = kh_flit_get(f, KH_HDR_TXN), c, s;
	bool ok;

	if (txn < KH_POOL_CORES) {
		ok = ksim_pool_win_resp(p, &p->core[txn], f);
	} else if (txn >= KSIM_POOL_TXN_LOAD(0) &&
		   txn < KSIM_POOL_TXN_LOAD(KSIM_POOL_LOAD_SLOTS)) {
		ok = ksim_pool_load_beat(p, txn - KSIM_POOL_TXN_LOAD(0), f);
	} else if (txn >= KSIM_POOL_TXN_IDMA_RD(0, 0) &&
		   txn < KSIM_POOL_TXN_IDMA_RD(KH_POOL_CORES, 0)) {
		c = (txn - KSIM_POOL_TXN_IDMA_RD(0, 0)) / KSIM_POOL_IDMA_SLOTS;
		s = (txn - KSIM_POOL_TXN_IDMA_RD(0, 0)) % KSIM_POOL_IDMA_SLOTS;
		ok = ksim_pool_idma_beat(p, &p->core[c], s, f);
	} else {
		ok = false;
	}
	if (ok && p->port.rd_out)
		p->port.rd_out--;
	return ok;
}

static bool ksim_pool_wr_ack(struct ksim_pool *p, const struct kh_flit *f)
{
	unsigned int txn = kh_flit_get(f, KH_HDR_TXN);
	bool ok = false;

	if (txn >= KSIM_POOL_TXN_WIN_WR(0) &&
	    txn < KSIM_POOL_TXN_WIN_WR(KH_POOL_CORES))
		ok = ksim_pool_win_ack(p, &p->core[txn - KSIM_POOL_TXN_WIN_WR(0)]);
	else if (txn >= KSIM_POOL_TXN_IDMA_WR(0) &&
		 txn < KSIM_POOL_TXN_IDMA_WR(KH_POOL_CORES))
		ok = ksim_pool_idma_ack(p,
					&p->core[txn - KSIM_POOL_TXN_IDMA_WR(0)]);
	if (ok && p->port.wr_out)
		p->port.wr_out--;
	return ok;
}

/* The receive path's cycle: true when a flit was taken. */
bool ksim_pool_recv(struct ksim_pool *p)
{
	const struct kh_flit *f = ksim_unit_recv(p->u);
	bool ok = true;

	if (!f)
		return false;
	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_MEM_RD_RESP:
		if (!ksim_pool_rd_resp(p, f))
			ksim_unit_drop(p->u, f, "a read response nobody waits for");
		break;
	case KH_T_MEM_WR_ACK:
		if (!ksim_pool_wr_ack(p, f))
			ksim_unit_drop(p->u, f, "a write ack nobody waits for");
		break;
	case KH_T_CU_DATA:
		ok = ksim_unit_cd_take(p->u, f);
		break;
	default:
		ksim_unit_drop(p->u, f, "not for the POOL unit");
		break;
	}
	if (ok)
		ksim_unit_recv_pop(p->u);
	return true;
}
