// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The orchestrator mailbox: CU_CTRL reads following the card's discovery
 * procedure (kohakutpu.md 12.1), many in flight at once.  A reply is
 * accepted only with op 2, the index and txn asked, and src equal to the
 * coordinate asked; replies are matched to requests by txn, and at most one
 * request is outstanding per coordinate, because a second one to a node
 * whose reply is still pending would be silently dropped by the node (seed
 * 001 3.1.1).  A request that got no reply is remembered per coordinate,
 * and its txn is not reused while it may still come back.
 *
 * Cost is what the host pays in register accesses (each a PCIe round trip
 * on a card, 30-150 cycles on the model), so the mailbox writes only the
 * TX_FLIT words that change between requests and reads only the RX_FLIT
 * words a reply's fields live in; on a 32-bit control path (KH_HW_CTRL32)
 * only the halves: TX_FLIT takes a write at +4 into its upper half (its
 * byte enables, noc_orchestrator.v:416-420) and RX_FLIT answers a read
 * there.  Called with the mesh lock held.
 */
#include "kh_priv.h"
#include "kh_tracepoints.h"

/* RX_FLIT words that hold a CU_CTRL reply's fields: value, op and index, header */
#define KH_RX_W_VALUE_LO	2	/* value[15:0] at flit [191:176] */
#define KH_RX_W_CTRL		3	/* op, index, value[63:16] */
#define KH_RX_W_HDR		4

/*
 * RX_FLIT word w, of which a 32-bit control path reads only the halves
 * asked for (lo, hi); one read either way on a 64-bit one.
 */
static u64 kh_rx_word(struct kh_mesh *m, unsigned int w, bool lo, bool hi)
{
	u64 v = 0;

	if (!kh_ctrl32(m->kd))
		return kh_rd(m, KH_ORC_RX_FLIT(w));
	if (lo)
		v = kh_rd32(m, KH_ORC_RX_FLIT(w));
	if (hi)
		v |= (u64)kh_rd32(m, KH_ORC_RX_FLIT(w) + 4) << 32;
	return v;
}

/*
 * The head of RX, popped: value[15:0] is in word 2's upper half, op, index
 * and value[63:16] across word 3, the header in word 4's lower half (its
 * upper half is past the 288-bit flit).
 */
static void kh_mbox_read_rx(struct kh_mesh *m, struct kh_flit *f, bool value_lo)
{
	memset(f, 0, sizeof(*f));
	if (value_lo)
		f->w[KH_RX_W_VALUE_LO] = kh_rx_word(m, KH_RX_W_VALUE_LO, false, true);
	f->w[KH_RX_W_CTRL] = kh_rx_word(m, KH_RX_W_CTRL, true, true);
	f->w[KH_RX_W_HDR] = kh_rx_word(m, KH_RX_W_HDR, true, false);
	kh_wr(m, KH_ORC_RX_POP, 1);
}

static bool kh_rx_empty(struct kh_mesh *m)
{
	u64 st = kh_rd(m, KH_ORC_RX_STATUS);

	if ((st & KH_RX_STATUS_OVERFLOW) && !m->rx_overflow_seen) {
		m->rx_overflow_seen = true;
		kh_warn(m->kd, "mesh %u: RX FIFO overflowed at least once; flits to the agent were dropped\n",
			m->id);
	}
	return st & KH_RX_STATUS_EMPTY;
}

/* A coordinate's outstanding request is lost (or found again). */
static void kh_ctrl_mark_lost(struct kh_mesh *m, u8 yx, u8 txn)
{
	m->ctrl_lost[yx] = txn;
}

/*
 * Any reply from a node proves its one reply slot has emptied, whatever
 * txn it carries (a late reply, or one corrupted on the way): the node may
 * be asked again.
 */
static void kh_mbox_note_late(struct kh_mesh *m, const struct kh_flit *f)
{
	u8 yx = KH_YX(kh_flit_get(f, KH_HDR_SRC_X), kh_flit_get(f, KH_HDR_SRC_Y));

	if (kh_flit_get(f, KH_HDR_TYPE) == KH_T_CU_CTRL &&
	    kh_flit_get(f, KH_CTRL_OP) == KH_CTRL_OP_REPLY)
		kh_ctrl_mark_lost(m, yx, 0);
}

void kh_mbox_drain(struct kh_mesh *m)
{
	struct kh_flit f;
	unsigned int n;

	lockdep_assert_held(&m->lock);
	for (n = 0; n < KH_RX_DRAIN_MAX && !kh_rx_empty(m); n++) {
		kh_mbox_read_rx(m, &f, false);
		kh_mbox_note_late(m, &f);
		kh_dbg(m->kd, "mesh %u: dropped stale RX flit type %llu from (%llu,%llu)\n",
		       m->id, kh_flit_get(&f, KH_HDR_TYPE),
		       kh_flit_get(&f, KH_HDR_SRC_X), kh_flit_get(&f, KH_HDR_SRC_Y));
	}
}

/*
 * The mailbox is usable: the mesh out of any reset seen, and neither a
 * program running nor TX full (TX_KICK is ignored then).
 */
int kh_mbox_wait_idle(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;
	u64 deadline = kh_now(kd) + KH_MBOX_IDLE_TIMEOUT_NS;

	lockdep_assert_held(&m->lock);
	/*
	 * A mesh seen in a reset drops what reaches it until its wizard
	 * relocks (kohakutpu.md 12.4): a CU_CTRL request sent now would be
	 * lost and its node marked as owing the reply.  Wait for the mesh
	 * (bounded: kh_mesh_reset_wait wedges one that does not come back).
	 */
	while (kh_mesh_reset_wait(m))
		kh_relax(kd);
	for (;;) {
		if (!(kh_rd(m, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN) &&
		    !(kh_rd(m, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL))
			return 0;
		if (kh_now(kd) >= deadline)
			return -EBUSY;
		kh_relax(kd);
	}
}

/* A txn no outstanding or lost request holds. */
static u8 kh_next_txn(struct kh_mesh *m, const struct kh_ctrl_req *req,
		      unsigned int n)
{
	unsigned int tries, i;
	bool used;

	for (tries = 0; tries < 255; tries++) {
		if (++m->txn == 0)
			m->txn = 1;
		used = false;
		for (i = 0; i < n && !used; i++)
			used = req[i].result > 0 && req[i].txn == m->txn;
		for (i = 0; i < ARRAY_SIZE(m->ctrl_lost) && !used; i++)
			used = m->ctrl_lost[i] == m->txn;
		if (!used)
			break;
	}
	return m->txn;
}

#define KH_TX_HALF(w, h)	(1u << (2 * (w) + (h)))

/*
 * Does half h (0 low, 1 high) of TX_FLIT word w hold the zero v is?  A
 * mesh reset clears the registers without the driver seeing it, so only a
 * zero the driver itself last wrote is known to be there still.
 */
static bool kh_tx_zero(const struct kh_mesh *m, unsigned int w,
		       unsigned int h, u32 v)
{
	return !v && (m->tx_known & KH_TX_HALF(w, h)) &&
	       !(u32)(m->tx_word[w] >> (32 * h));
}

/* A 32-bit control path: half h of word w, unless it holds that zero. */
static void kh_tx_half(struct kh_mesh *m, unsigned int w, unsigned int h,
		       u32 v)
{
	u64 mask = 0xffffffffULL << (32 * h);

	if (kh_tx_zero(m, w, h, v))
		return;
	kh_wr32(m, KH_ORC_TX_FLIT(w) + 4 * h, v);
	m->tx_word[w] = (m->tx_word[w] & ~mask) | ((u64)v << (32 * h));
	m->tx_known |= KH_TX_HALF(w, h);
}

/*
 * Write what TX_FLIT may not hold of f, and kick: the words, or on a
 * 32-bit control path the halves (word 4's upper half lies past the flit
 * and is never written), that are not a zero the driver last wrote: the
 * payload of every CU_CTRL read, the zero halves of instructions.
 */
void kh_mbox_send(struct kh_mesh *m, const struct kh_flit *f)
{
	bool half = kh_ctrl32(m->kd);
	unsigned int w;

	for (w = 0; w < KH_FLIT_WORDS; w++) {
		if (half) {
			kh_tx_half(m, w, 0, (u32)f->w[w]);
			if (w < KH_FLIT_WORDS - 1)
				kh_tx_half(m, w, 1, f->w[w] >> 32);
			continue;
		}
		if (kh_tx_zero(m, w, 0, (u32)f->w[w]) &&
		    kh_tx_zero(m, w, 1, f->w[w] >> 32))
			continue;
		kh_wr(m, KH_ORC_TX_FLIT(w), f->w[w]);
		m->tx_word[w] = f->w[w];
		m->tx_known |= KH_TX_HALF(w, 0) | KH_TX_HALF(w, 1);
	}
	kh_wr(m, KH_ORC_TX_KICK, 1);
}

static void kh_ctrl_send(struct kh_mesh *m, struct kh_ctrl_req *r, u8 txn)
{
	struct kh_flit f = { { 0 } };

	kh_flit_hdr(&f, r->x, r->y, 0, 0, KH_T_CU_CTRL, txn, 1);
	kh_flit_set(&f, KH_CTRL_OP, r->write ? KH_CTRL_OP_WRITE : KH_CTRL_OP_READ);
	kh_flit_set(&f, KH_CTRL_INDEX, r->index);
	if (r->write)
		kh_flit_set(&f, KH_CTRL_VALUE, r->value);
	r->txn = txn;
	trace_kohaku_mailbox(m->kd->dev, m->id, r->x, r->y, r->index, r->write,
			     false, txn, r->write ? r->value : 0, 0);
	kh_mbox_send(m, &f);
}

/*
 * What a popped flit means for request r:
 * 0 = the reply, -EADDRNOTAVAIL = our own request echoed (the coordinate is
 * the agent or a memory port), -ENXIO = answered by another node (the
 * coordinate is clamped onto it), -EBADMSG = the node's reply with a damaged
 * txn or index, 1 = not about r.
 */
static int kh_ctrl_classify(const struct kh_flit *f, const struct kh_ctrl_req *r)
{
	u64 sx = kh_flit_get(f, KH_HDR_SRC_X), sy = kh_flit_get(f, KH_HDR_SRC_Y);
	bool txn_ok = kh_flit_get(f, KH_HDR_TXN) == r->txn;
	bool index_ok = kh_flit_get(f, KH_CTRL_INDEX) == r->index;
	u64 op = kh_flit_get(f, KH_CTRL_OP);

	if (kh_flit_get(f, KH_HDR_TYPE) != KH_T_CU_CTRL)
		return 1;
	/*
	 * The node asked holds one reply and had only our request: a reply
	 * from it with another txn or index is ours, damaged.
	 */
	if (op == KH_CTRL_OP_REPLY && sx == r->x && sy == r->y &&
	    (!txn_ok || !index_ok))
		return -EBADMSG;
	if (!txn_ok || !index_ok)
		return 1;
	if (op == KH_CTRL_OP_REPLY)
		return (sx == r->x && sy == r->y) ? 0 : -ENXIO;
	if (op == KH_CTRL_OP_READ && sx == 0 && sy == 0 &&
	    kh_flit_get(f, KH_HDR_DST_X) == r->x &&
	    kh_flit_get(f, KH_HDR_DST_Y) == r->y)
		return -EADDRNOTAVAIL;
	return 1;
}

/*
 * CU_CAPS is [19:0] = 0 by the port contract (kohakutpu.md 3.2), so a
 * CAPS reply's value lives in word 3 alone; every other index needs
 * value[15:0] from word 2 as well.
 */
static bool kh_ctrl_needs_lo(const struct kh_ctrl_req *req, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (req[i].result > 0 && req[i].txn && req[i].index != KH_CTRL_IDX_CAPS)
			return true;
	return false;
}

/* A popped flit: settle the request it answers, if any. */
static void kh_ctrl_take(struct kh_mesh *m, struct kh_ctrl_req *req,
			 unsigned int n, const struct kh_flit *f)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		struct kh_ctrl_req *r = &req[i];

		if (r->result <= 0 || !r->txn)
			continue;
		ret = kh_ctrl_classify(f, r);
		if (ret > 0)
			continue;
		if (ret == -EBADMSG)
			kh_warn(m->kd, "mesh %u: node (%u,%u) answered CU_CTRL txn %u index %u with txn %llu index %llu; reply discarded\n",
				m->id, r->x, r->y, r->txn, r->index,
				kh_flit_get(f, KH_HDR_TXN),
				kh_flit_get(f, KH_CTRL_INDEX));
		if (!ret)
			r->value = kh_flit_get(f, KH_CTRL_VALUE);
		else if (ret == -ENXIO)
			r->value = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
					 kh_flit_get(f, KH_HDR_SRC_Y));
		r->result = ret;
		trace_kohaku_mailbox(m->kd->dev, m->id, r->x, r->y, r->index,
				     r->write, true, r->txn, ret ? 0 : r->value,
				     ret);
		return;
	}
	kh_mbox_note_late(m, f);
}

/* may request i go out now: no other request to its coordinate is */
static bool kh_ctrl_may_send(const struct kh_ctrl_req *req, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < i; k++)
		if (req[k].result > 0 && req[k].x == req[i].x && req[k].y == req[i].y)
			return false;
	return true;
}

int kh_ctrl_read_many(struct kh_mesh *m, struct kh_ctrl_req *req,
		      unsigned int n)
{
	struct kh_device *kd = m->kd;
	u64 deadline[KH_CTRL_INFLIGHT];
	unsigned int slot_of[KH_CTRL_INFLIGHT];
	unsigned int next = 0, out = 0, left = n, s;
	struct kh_flit f;
	bool moved;
	int ret;

	lockdep_assert_held(&m->lock);
	for (s = 0; s < n; s++) {
		req[s].txn = 0;
		req[s].result = 1;
	}
	ret = kh_mbox_wait_idle(m);
	if (ret) {
		kh_err(kd, "mesh %u: the dispatcher did not go idle; cannot send CU_CTRL\n",
		       m->id);
		return ret;
	}
	kh_mbox_drain(m);

	while (left) {
		u64 now;

		moved = false;
		/* fill the window, in order, one request per coordinate */
		for (; out < KH_CTRL_INFLIGHT && next < n; next++) {
			struct kh_ctrl_req *r = &req[next];
			u8 yx = KH_YX(r->x, r->y);

			if (!kh_ctrl_may_send(req, next))
				break;
			moved = true;
			if (m->ctrl_lost[yx]) {
				kh_warn(kd, "mesh %u: node (%u,%u) never answered CU_CTRL txn %u; not sending another (it would be dropped)\n",
					m->id, r->x, r->y, m->ctrl_lost[yx]);
				r->result = -EBUSY;
				left--;
				continue;
			}
			kh_ctrl_send(m, r, kh_next_txn(m, req, n));
			slot_of[out] = next;
			deadline[out] = kh_now(kd) + KH_CTRL_TIMEOUT_NS;
			out++;
		}
		/* take what arrived */
		while (out && !kh_rx_empty(m)) {
			kh_mbox_read_rx(m, &f, kh_ctrl_needs_lo(req, n));
			kh_ctrl_take(m, req, n, &f);
			moved = true;
		}
		/* retire what is settled or timed out, keeping the window packed */
		now = out ? kh_now(kd) : 0;
		for (s = 0; s < out; ) {
			struct kh_ctrl_req *r = &req[slot_of[s]];

			if (r->result > 0 && now >= deadline[s]) {
				kh_ctrl_mark_lost(m, KH_YX(r->x, r->y), r->txn);
				r->result = -ETIMEDOUT;
			}
			if (r->result > 0) {
				s++;
				continue;
			}
			left--;
			out--;
			slot_of[s] = slot_of[out];
			deadline[s] = deadline[out];
		}
		if (left && !moved)
			kh_relax(kd);
	}
	return 0;
}

/*
 * An addon register write (op 1): the node answers with the register's
 * value as the request found it, before the write (docs/spec/l2-adapter.md),
 * which the caller gets back.  The base registers take no writes.
 */
int kh_ctrl_write(struct kh_mesh *m, u8 x, u8 y, u8 index, u64 value,
		  u64 *readback)
{
	struct kh_ctrl_req r = { .x = x, .y = y, .index = index, .write = true,
				 .value = value };
	int ret;

	ret = kh_ctrl_read_many(m, &r, 1);
	if (ret)
		return ret;
	if (!r.result && readback)
		*readback = r.value;
	return r.result;
}

int kh_ctrl_read(struct kh_mesh *m, u8 x, u8 y, u8 index, u64 *value)
{
	struct kh_ctrl_req r = { .x = x, .y = y, .index = index };
	int ret;

	ret = kh_ctrl_read_many(m, &r, 1);
	if (ret)
		return ret;
	if (!r.result)
		*value = r.value;
	return r.result;
}
