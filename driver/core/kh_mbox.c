// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The orchestrator mailbox: one CU_CTRL exchange at a time, following the
 * card's discovery procedure (kohakutpu.md 12.1): drain RX, send, bounded
 * poll, and accept a reply only with op 2, the index and txn asked, and src
 * equal to the coordinate asked.  A request that got no reply is remembered
 * per coordinate, because a second one to a node whose reply is still
 * pending would be silently dropped by the node (seed 001 3.1.1).
 */
#include "kh_priv.h"

static void kh_mbox_read_rx(struct kh_mesh *m, struct kh_flit *f)
{
	unsigned int w;

	for (w = 0; w < KH_FLIT_WORDS; w++)
		f->w[w] = kh_rd(m, KH_ORC_RX_FLIT(w));
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
		m->ctrl_lost[yx] = 0;
}

void kh_mbox_drain(struct kh_mesh *m)
{
	struct kh_flit f;
	unsigned int n;

	for (n = 0; n < KH_RX_DRAIN_MAX && !kh_rx_empty(m); n++) {
		kh_mbox_read_rx(m, &f);
		kh_mbox_note_late(m, &f);
		kh_dbg(m->kd, "mesh %u: dropped stale RX flit type %llu from (%llu,%llu)\n",
		       m->id, kh_flit_get(&f, KH_HDR_TYPE),
		       kh_flit_get(&f, KH_HDR_SRC_X), kh_flit_get(&f, KH_HDR_SRC_Y));
	}
}

/* TX_KICK is ignored while a program runs or TX is full: wait for neither. */
int kh_mbox_wait_idle(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;
	u64 deadline = kh_now(kd) + KH_MBOX_IDLE_TIMEOUT_NS;

	for (;;) {
		if (!(kh_rd(m, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN) &&
		    !(kh_rd(m, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL))
			return 0;
		if (kh_now(kd) >= deadline)
			return -EBUSY;
		kh_relax(kh_simulated(kd));
	}
}

static u8 kh_next_txn(struct kh_mesh *m)
{
	if (++m->txn == 0)
		m->txn = 1;
	return m->txn;
}

/*
 * What a popped flit means for the exchange (x, y, index, txn):
 * 0 = the reply, -EADDRNOTAVAIL = our own request echoed (x, y is the agent
 * or a memory port), -ENXIO = answered by another node (the coordinate is
 * clamped onto it), -EBADMSG = the node's reply with a damaged txn or
 * index, 1 = unrelated.
 */
static int kh_ctrl_classify(const struct kh_flit *f, u8 x, u8 y, u8 index,
			    u8 txn)
{
	u64 sx = kh_flit_get(f, KH_HDR_SRC_X), sy = kh_flit_get(f, KH_HDR_SRC_Y);

	if (kh_flit_get(f, KH_HDR_TYPE) != KH_T_CU_CTRL)
		return 1;
	/*
	 * The node asked holds one reply and had only our request: a reply
	 * from it with another txn or index is ours, damaged.
	 */
	if (kh_flit_get(f, KH_CTRL_OP) == KH_CTRL_OP_REPLY && sx == x && sy == y &&
	    (kh_flit_get(f, KH_HDR_TXN) != txn ||
	     kh_flit_get(f, KH_CTRL_INDEX) != index))
		return -EBADMSG;
	if (kh_flit_get(f, KH_HDR_TXN) != txn ||
	    kh_flit_get(f, KH_CTRL_INDEX) != index)
		return 1;
	if (kh_flit_get(f, KH_CTRL_OP) == KH_CTRL_OP_REPLY)
		return (sx == x && sy == y) ? 0 : -ENXIO;
	if (kh_flit_get(f, KH_CTRL_OP) == KH_CTRL_OP_READ && sx == 0 && sy == 0 &&
	    kh_flit_get(f, KH_HDR_DST_X) == x && kh_flit_get(f, KH_HDR_DST_Y) == y)
		return -EADDRNOTAVAIL;
	return 1;
}

int kh_ctrl_read(struct kh_mesh *m, u8 x, u8 y, u8 index, u64 *value)
{
	struct kh_device *kd = m->kd;
	struct kh_flit f = { { 0 } };
	u8 yx = KH_YX(x, y), txn;
	unsigned int w;
	u64 deadline;
	int ret;

	ret = kh_mbox_wait_idle(m);
	if (ret) {
		kh_err(kd, "mesh %u: the dispatcher did not go idle; cannot send CU_CTRL to (%u,%u)\n",
		       m->id, x, y);
		return ret;
	}
	kh_mbox_drain(m);
	if (m->ctrl_lost[yx]) {
		kh_warn(kd, "mesh %u: node (%u,%u) never answered CU_CTRL txn %u; not sending another (it would be dropped)\n",
			m->id, x, y, m->ctrl_lost[yx]);
		return -EBUSY;
	}

	txn = kh_next_txn(m);
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_CTRL, txn, 1);
	kh_flit_set(&f, KH_CTRL_OP, KH_CTRL_OP_READ);
	kh_flit_set(&f, KH_CTRL_INDEX, index);
	for (w = 0; w < KH_FLIT_WORDS; w++)
		kh_wr(m, KH_ORC_TX_FLIT(w), f.w[w]);
	kh_wr(m, KH_ORC_TX_KICK, 1);

	deadline = kh_now(kd) + KH_CTRL_TIMEOUT_NS;
	for (;;) {
		if (!kh_rx_empty(m)) {
			kh_mbox_read_rx(m, &f);
			ret = kh_ctrl_classify(&f, x, y, index, txn);
			if (ret == 0) {
				*value = kh_flit_get(&f, KH_CTRL_VALUE);
				return 0;
			}
			if (ret == -EBADMSG)
				kh_warn(kd, "mesh %u: node (%u,%u) answered CU_CTRL txn %u index %u with txn %llu index %llu; reply discarded\n",
					m->id, x, y, txn, index,
					kh_flit_get(&f, KH_HDR_TXN),
					kh_flit_get(&f, KH_CTRL_INDEX));
			if (ret < 0)
				return ret;
			kh_mbox_note_late(m, &f);
			continue;
		}
		if (kh_now(kd) >= deadline) {
			m->ctrl_lost[yx] = txn;
			return -ETIMEDOUT;
		}
		kh_relax(kh_simulated(kd));
	}
}
