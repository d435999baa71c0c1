// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector core's side of the mesh behind noc_cu_base (vec_cu.v:238-438).
 *
 * Receive: one flit per cycle, demultiplexed by type.  A MEM_RD_RESP is a
 * fill response: it lands at L1 word {fill_bank[txn], txn} and counts
 * fill_out down (a stray response counts it below zero and wraps it, so
 * the next VBAR or VHALT waits for good, as on the card).  A CU_DATA
 * descriptor opens a burst into L1 buffer 0; its data flits land from
 * `offset` on.  A burst naming another buffer or running to or past
 * L1_DEPTH (offset + len >= 512, vec_cu.v:258-259) is counted out to its
 * end, lands nothing, sends no SIG_DATA_RECEIVED even when asked, and
 * leaves cd_err for the kernel (fault 9 at the next instruction
 * boundary or RUN).  A data flit from a source other than the burst's is
 * a second burst interleaved: it is dropped, the rest of the burst with
 * it, and cd_err set.  Everything else (MEM_WR_ACK included) is taken and
 * ignored.  While a SIG_DATA_RECEIVED waits for the send path nothing is
 * taken (vec_cu.v:309).
 *
 * Send: the DATA_RECEIVED signal first, then the memory traffic in order;
 * the signal never splits a MEM_WR_REQ from its MEM_WR_DATA (it waits for
 * W_IDLE, vec_cu.v:274).
 */
#include "vec.h"

static void ksim_vec_cudata(struct ksim_unit *u, struct ksim_vec *v,
			    const struct kh_flit *f)
{
	u32 sx = (u32)kh_flit_get(f, KH_HDR_SRC_X);
	u32 sy = (u32)kh_flit_get(f, KH_HDR_SRC_Y);

	if (!v->cd_st) {
		u32 buf = (u32)kh_flit_get(f, KH_DATA_BUF_ID);
		u32 off = (u32)kh_flit_get(f, KH_DATA_OFFSET);
		u32 len = (u32)kh_flit_get(f, KH_DATA_LEN);
		u32 ack = (u32)(kh_flit_get(f, KH_DATA_ACK_Y) << 4 |
				kh_flit_get(f, KH_DATA_ACK_X));
		bool bad = buf != 0 || off + len >= KH_VEC_L1_WORDS;

		v->cd_st = true;
		v->cd_left = len;
		v->cd_ptr = off & (KH_VEC_L1_WORDS - 1);
		v->cd_drop = bad;
		v->cd_sig = (kh_flit_get(f, KH_DATA_FLAGS) & KH_DATAF_SIGNAL) &&
			    !bad;
		if (bad)
			v->cd_err = true;
		v->sg_buf = buf;
		v->sg_x = ack ? (ack & 0xf) : sx;
		v->sg_y = ack ? (ack >> 4) : sy;
		v->cd_sx = sx;
		v->cd_sy = sy;
		return;
	}
	if (sx != v->cd_sx || sy != v->cd_sy) {
		ksim_unit_drop(u, f, "vec: CU_DATA from a second sender");
		v->cd_err = true;
		v->cd_drop = true;
		v->cd_sig = false;
	} else if (!v->cd_drop) {
		memcpy(v->l1[v->cd_ptr], f->w, sizeof(v->l1[0]));
	}
	v->cd_ptr = (v->cd_ptr + 1) & (KH_VEC_L1_WORDS - 1);
	if (v->cd_left == 0) {
		v->cd_st = false;
		if (v->cd_sig)
			v->sg_pend = true;
	} else {
		v->cd_left--;
	}
}

/* Take one flit off the receive FIFO.  Return: true when one was taken. */
bool ksim_vec_receive(struct ksim_unit *u, struct ksim_vec *v)
{
	const struct kh_flit *f;
	u32 type, txn;

	if (v->sg_pend)
		return false;
	f = ksim_unit_recv(u);
	if (!f)
		return false;
	type = (u32)kh_flit_get(f, KH_HDR_TYPE);
	txn = (u32)kh_flit_get(f, KH_HDR_TXN);
	if (type == KH_T_MEM_RD_RESP) {
		memcpy(v->l1[(u32)v->fill_bank[txn] << 8 | txn], f->w,
		       sizeof(v->l1[0]));
		/* rr_valid the next cycle, fill_out seen the one after */
		if (--v->fill_out == 0)
			v->fill_zero_at = ksim_unit_now(u) + 2;
	} else if (type == KH_T_CU_DATA) {
		ksim_vec_cudata(u, v, f);
	} else if (type != KH_T_MEM_WR_ACK) {
		ksim_unit_drop(u, f, "vec: not a fill response or CU_DATA");
	}
	ksim_unit_recv_pop(u);
	return true;
}

bool ksim_vec_sendq_push(struct ksim_vec *v, const struct kh_flit *f, u64 at,
			 bool ready)
{
	u32 i;

	if (v->sq_n == KSIM_VEC_SENDQ)
		return false;
	i = (v->sq_head + v->sq_n) % KSIM_VEC_SENDQ;
	v->sendq[i] = *f;
	v->send_at[i] = at;
	v->sq_ready[i] = ready;
	v->sq_n++;
	return true;
}

/* The cycle the queue's head may go, or ~0 when it is empty. */
u64 ksim_vec_sendq_next(const struct ksim_vec *v)
{
	return v->sq_n ? v->send_at[v->sq_head] : ~0ULL;
}

/* One flit out, if any may go.  Return: true when one went. */
bool ksim_vec_send(struct ksim_unit *u, struct ksim_vec *v, u64 now)
{
	const struct kh_flit *h = v->sq_n ? &v->sendq[v->sq_head] : NULL;
	bool mid_write = h && kh_flit_get(h, KH_HDR_TYPE) == KH_T_MEM_WR_DATA;

	if (!ksim_unit_send_ready(u))
		return false;
	if (v->sg_pend && !mid_write) {
		struct kh_flit s;

		memset(&s, 0, sizeof(s));
		ksim_unit_hdr(u, &s, v->sg_x, v->sg_y, KH_T_CU_SIGNAL, 0, 1);
		kh_flit_set(&s, KH_SIG_CODE, KH_SIG_DATA_RECEIVED);
		kh_flit_set(&s, KH_SIG_ARG, v->sg_buf);
		if (!ksim_unit_send(u, &s))
			return false;
		v->sg_pend = false;
		return true;
	}
	if (!h || v->send_at[v->sq_head] > now)
		return false;
	if (!ksim_unit_send(u, h))
		return false;
	/*
	 * rd/wr_req_ready pulse the cycle after a request (or a peer drain's
	 * data flit) goes: the core issues again at +2
	 */
	if (v->sq_ready[v->sq_head])
		v->mem_next = now + 2;
	v->sq_head = (v->sq_head + 1) % KSIM_VEC_SENDQ;
	v->sq_n--;
	return true;
}
