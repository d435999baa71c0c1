// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector core's side of the mesh behind noc_cu_base (vec_cu.v:238-438).
 *
 * Receive: one flit per cycle, demultiplexed by type.  A MEM_RD_RESP is a
 * fill response: it lands at L1 word {fill_bank[txn], txn} and counts
 * fill_out down (a stray response counts it below zero and wraps it, so
 * the next VBAR or VHALT waits for good, as on the card).  CU_DATA goes to
 * the shared receiver (units/cudata.c) with the policy below: a
 * descriptor opens a burst into L1 buffer 0; its data flits land from
 * `offset` on.  A burst naming another buffer or running to or past
 * L1_DEPTH (offset + len >= 512, vec_cu.v:258-259) is counted out to its
 * end, lands nothing, sends no SIG_DATA_RECEIVED even when asked
 * (vec_cu.v:325), and leaves cd_err for the kernel (fault 9 at the next
 * instruction boundary or RUN).  A data flit from a source other than the
 * burst's is a second burst interleaved (cd_alien, vec_cu.v:280-286,
 * 332-342): it is dropped, the rest of the burst with it, and cd_err set.
 * The signal's txn is 0 (vec_cu.v:380).  Everything else (MEM_WR_ACK
 * included) is taken and ignored.  While a SIG_DATA_RECEIVED waits for the
 * send path nothing at all is taken (recv_ready, vec_cu.v:305-309).
 *
 * Send: the DATA_RECEIVED signal first, then the memory traffic in order;
 * the signal never splits a MEM_WR_REQ from its MEM_WR_DATA (it waits for
 * W_IDLE, vec_cu.v:274).
 */
#include "vec.h"

/* the one flat L1: buffer 0, and offset + len must stay below its end */
static bool ksim_vec_cd_ok(struct ksim_unit *u, unsigned int buf, u32 off,
			   u32 len)
{
	return buf == 0 && off + len < KH_VEC_L1_WORDS;
}

static void ksim_vec_cd_word(struct ksim_unit *u, unsigned int buf, u32 off,
			     const struct kh_flit *f)
{
	struct ksim_vec *v = ksim_unit_priv(u);

	memcpy(v->l1[off & (KH_VEC_L1_WORDS - 1)], f->w, sizeof(v->l1[0]));
}

/* cd_fault: F_CUDATA at the next boundary */
static void ksim_vec_cd_refuse(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_vec *v = ksim_unit_priv(u);

	v->cd_err = true;
}

const struct ksim_cd_policy ksim_vec_cd = {
	.ok = ksim_vec_cd_ok,
	.word = ksim_vec_cd_word,
	.refuse = ksim_vec_cd_refuse,
	.foreign = KSIM_CD_FOREIGN_SPOILS,
	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,
	.ack_txn0 = true,
	.acks = 1,
};

/* Take one flit off the receive FIFO.  Return: true when one was taken. */
bool ksim_vec_receive(struct ksim_unit *u, struct ksim_vec *v)
{
	const struct kh_flit *f;
	u32 type, txn;

	if (ksim_unit_cd_acks(u))
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
		if (!ksim_unit_cd_take(u, f))
			return false;
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
	struct kh_flit s;

	if (!ksim_unit_send_ready(u))
		return false;
	if (!mid_write && ksim_unit_cd_ack(u, &s)) {
		if (!ksim_unit_send(u, &s))
			return false;
		ksim_unit_cd_ack_pop(u);
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
