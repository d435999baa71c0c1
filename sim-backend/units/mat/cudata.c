// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The receive path (mx_cluster_cu.v L548-697): one flit per cycle,
 * dispatched by type.
 *
 *   MEM_RD_RESP  taken only in S_FILL (held at the head otherwise);
 *                placed at entry {fbank, txn}, word rsvd[1:0].
 *   CU_DATA      held while a peer sub-tile is pending, else to the shared
 *                receiver (units/cudata.c) with the policy below: held too
 *                while a completion signal is pending (cd_take, L611).
 *                One descriptor then len + 1 data flits, framed by count,
 *                whatever their source (the RTL compares it only in
 *                simulation, L1123).  buf 0/1 -> L1 A/B at granule off
 *                (entry off[10:2], word off[1:0]); buf 2 -> the peer
 *                register, a sub-tile per even/odd granule pair.  A burst
 *                that does not fit (L596-602) is counted out with its
 *                writes suppressed and sets the fault reported at the next
 *                retirement.  On the last flit, flags[0] owes
 *                SIG_DATA_RECEIVED, rejected or not (L671-681), sent from
 *                the next cycle (sg_valid is a register, L979).
 *   MEM_WR_ACK   dropped (the RTL drops it at the port, ahead of the FIFO).
 *   other        dropped and counted.
 *
 * The peer register waits for the accumulator (mx_cluster_node.v
 * L263-272, L358-363): `p_open` follows `peer_open` once the GEMM path is
 * idle, and OP_ADD_PEER issues when no drain is running.
 */
#include "mat.h"

static bool ksim_mat_cd_fits(struct ksim_unit *u, unsigned int buf, u32 off,
			     u32 len)
{
	unsigned int end = off + len;

	switch (buf) {
	case KH_MAT_BUF_L1A:
		return end < KH_MAT_GA * 4;
	case KH_MAT_BUF_L1B:
		return end < KH_MAT_GB * 4;
	case KH_MAT_BUF_PEER:
		return end < KH_MAT_TILES * 2 && !(off & 1);
	default:
		return false;
	}
}

/* fault_r: reported at the next retirement (L647, L666) */
static void ksim_mat_cd_refuse(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_mat *m = ksim_unit_priv(u);

	m->fault = true;
}

static void ksim_mat_cd_word(struct ksim_unit *u, unsigned int buf, u32 off,
			     const struct kh_flit *f)
{
	struct ksim_mat *m = ksim_unit_priv(u);

	if (buf == KH_MAT_BUF_PEER) {
		if (!(off & 1)) {
			memcpy(m->pk, f->w, 4 * sizeof(u64));
		} else {
			m->pk[4] = f->w[0];
			m->pk[5] = f->w[1] & 0xffffffffULL;	/* [351:320] */
			m->pk_idx = off >> 1;
			m->pk_pend = true;
		}
	} else if (buf <= KH_MAT_BUF_L1B) {
		ksim_mat_place(m, f, buf & 1, (off >> 2) & 0x1ff, off & 3);
	}
}

const struct ksim_cd_policy ksim_mat_cd = {
	.ok = ksim_mat_cd_fits,
	.word = ksim_mat_cd_word,
	.refuse = ksim_mat_cd_refuse,
	.foreign = KSIM_CD_FOREIGN_SPLICES,
	.ack = KSIM_CD_ACK_ON_FLAG,
	.acks = 1,
	.ack_lat = 1,
	.hold = true,
};

bool ksim_mat_recv(struct ksim_unit *u, struct ksim_mat *m)
{
	const struct kh_flit *f = ksim_unit_recv(u);
	unsigned int word;

	if (!f)
		return false;
	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_MEM_RD_RESP:
		if (m->st != KSIM_MAT_FILL)
			return false;		/* held until a FILL */
		word = kh_flit_get(f, KH_HDR_RSVD_LO);
		ksim_mat_place(m, f, m->in.sel,
			       (m->in.fbank ? KH_MAT_BANK : 0) +
			       kh_flit_get(f, KH_HDR_TXN), word);
		if (word == 3)
			m->rcv_ent++;
		break;
	case KH_T_CU_DATA:
		if (m->pk_pend || !ksim_unit_cd_take(u, f))
			return false;
		break;
	case KH_T_MEM_WR_ACK:
		break;
	default:
		ksim_unit_drop(u, f, "not a type the matmul cluster takes");
		break;
	}
	ksim_unit_recv_pop(u);
	return true;
}

/* lane l of a 352-bit peer sub-tile: bits [22l+21 : 22l] */
u32 ksim_mat_peer_lane(const u64 *p, unsigned int l)
{
	unsigned int b = l * KH_MAT_FP22_BITS, i = b / 64, sh = b % 64;
	u64 v = p[i] >> sh;

	if (sh > 64 - KH_MAT_FP22_BITS)
		v |= p[i + 1] << (64 - sh);
	return (u32)(v & 0x3fffff);
}

/*
 * The peer gate and OP_ADD_PEER, on the values registered at the start of
 * the cycle: pk_was and open_next are pk_pend and the peer_open_r input
 * as they stood before this cycle's receive.
 */
bool ksim_mat_peer_step(struct ksim_unit *u, struct ksim_mat *m, bool pk_was,
			bool open_next)
{
	bool open_r = m->peer_open_r, p_open = m->p_open;
	unsigned int l, t;

	m->p_open = open_r && (p_open || !ksim_mat_gemm_busy(u, m));
	m->peer_open_r = open_next;
	if (pk_was && p_open && !m->d_run && !m->d_wait && !m->d_out) {
		t = m->pk_idx & KSIM_MAT_TAW_MASK;
		for (l = 0; l < KSIM_MAT_LANES; l++) {
			u32 v = ksim_mat_peer_lane(m->pk, l);

			m->tile[t][l] = ksim_mat_fp22_add(m->tile[t][l], v,
							  false, false);
		}
		ksim_mat_acu_cmd(u, m);
		m->pk_pend = false;
	}
	return m->pk_pend || m->peer_open_r || m->p_open || open_r || p_open;
}
