// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CU_DATA bursts from the orchestrator mailbox (kohakutpu.md 2.5, 5.7): a
 * descriptor flit, then up to 256 data flits, each one TX kick.  The
 * descriptor asks for SIG_DATA_RECEIVED, addressed to the agent, and the
 * burst is complete when the node's NODE_STATUS count moves on with that
 * code: the port contract allows no second burst into a receiver before
 * the first completes.  Called with the mesh lock held and nothing else on
 * the dispatcher (the firmware loader holds the mesh for itself).
 */
#include "kh_priv.h"

/* Room in the TX FIFO: TX_KICK is ignored while it is full. */
static int kh_mbox_tx_room(struct kh_mesh *m, u64 deadline)
{
	while (kh_rd(m, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL) {
		if (kh_now(m->kd) >= deadline)
			return -ETIMEDOUT;
		kh_relax(m->kd);
	}
	return 0;
}

/* SIG_DATA_RECEIVED from the node: its count past @baseline, that code */
static int kh_data_wait_ack(struct kh_mesh *m, const struct kh_node *n,
			    u16 baseline, u64 deadline)
{
	u8 yx = KH_YX(n->x, n->y);
	u64 ns;

	for (;;) {
		ns = kh_ns_lo(m, yx);
		if ((ns & KH_NS_VALID) && KH_NS_COUNT(ns) != baseline)
			break;
		if (kh_now(m->kd) >= deadline) {
			kh_err(m->kd, "mesh %u: node (%u,%u) did not acknowledge a CU_DATA burst\n",
			       m->id, n->x, n->y);
			return -ETIMEDOUT;
		}
		kh_relax(m->kd);
	}
	ns = kh_ns_word(m, yx, ns);
	if (KH_NS_CODE(ns) != KH_SIG_DATA_RECEIVED ||
	    KH_NS_COUNT(ns) != ((baseline + 1) & 0xffff)) {
		kh_err(m->kd, "mesh %u: node (%u,%u) answered a CU_DATA burst with signal 0x%x (count %u after %u)\n",
		       m->id, n->x, n->y, KH_NS_CODE(ns), KH_NS_COUNT(ns),
		       baseline);
		return -EIO;
	}
	return 0;
}

static void kh_data_hdr(struct kh_mesh *m, struct kh_flit *f,
			const struct kh_node *n, unsigned int last)
{
	kh_flit_hdr(f, n->x, n->y, m->agent_x, m->agent_y, KH_T_CU_DATA, 0, last);
}

/*
 * Send @n_flits 32-byte granules from @data (zeros when NULL) into buffer
 * @buf of node @n from granule @offset, and wait until the node has them.
 */
int kh_data_burst(struct kh_mesh *m, const struct kh_node *n, u8 buf,
		  u32 offset, const u8 *data, u32 n_flits)
{
	u64 deadline = kh_now(m->kd) + KH_DATA_TIMEOUT_NS;
	struct kh_flit f = { { 0 } };
	u16 baseline;
	u64 ns;
	u32 i = 0;
	int ret;

	lockdep_assert_held(&m->lock);
	if (!n_flits || n_flits > KH_DATA_MAX_FLITS)
		return -EINVAL;
	ns = kh_ns_lo(m, KH_YX(n->x, n->y));
	baseline = KH_NS_COUNT(ns);

	kh_data_hdr(m, &f, n, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, offset);
	kh_flit_set(&f, KH_DATA_LEN, n_flits - 1);
	kh_flit_set(&f, KH_DATA_FLAGS, KH_DATAF_SIGNAL);
	kh_flit_set(&f, KH_DATA_ACK_X, m->agent_x);
	kh_flit_set(&f, KH_DATA_ACK_Y, m->agent_y);
	ret = kh_mbox_tx_room(m, deadline);
	if (ret)
		goto out;
	kh_mbox_send(m, &f);

	for (i = 0; i < n_flits; i++) {
		unsigned int w;

		memset(&f, 0, sizeof(f));
		kh_data_hdr(m, &f, n, i == n_flits - 1);
		for (w = 0; data && w < KH_PAYLOAD_BYTES / 8; w++) {
			const u8 *b = data + (size_t)i * KH_PAYLOAD_BYTES + w * 8;
			u64 v = 0;
			int k;

			for (k = 7; k >= 0; k--)
				v = v << 8 | b[k];
			f.w[w] = v;
		}
		ret = kh_mbox_tx_room(m, deadline);
		if (ret)
			goto out;
		kh_mbox_send(m, &f);
	}
	ret = kh_data_wait_ack(m, n, baseline, deadline);
out:
	if (ret == -ETIMEDOUT && i < n_flits)
		kh_err(m->kd, "mesh %u: the mailbox stayed full sending a CU_DATA burst to (%u,%u)\n",
		       m->id, n->x, n->y);
	return ret;
}

/* One 32-bit word: a one-flit burst whose data flit carries it in [31:0]. */
int kh_data_word(struct kh_mesh *m, const struct kh_node *n, u8 buf,
		 u32 index, u32 value)
{
	u8 gran[KH_PAYLOAD_BYTES] = { 0 };

	gran[0] = value;
	gran[1] = value >> 8;
	gran[2] = value >> 16;
	gran[3] = value >> 24;
	return kh_data_burst(m, n, buf, index, gran, 1);
}
