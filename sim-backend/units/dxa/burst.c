// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The bursts and their acknowledgements (docs/spec/dxa.md "CU_INST: a
 * copy", "Faults").
 *
 * Once every line is placed, receiver r = 0 .. n-1 in turn gets one
 * CU_DATA burst, one flit per cycle: the descriptor {buf_id, offset +
 * r * mstride (16 bits, wrapping), len = granules - 1, flags[0] = 1, ack
 * = this unit's coordinate} with txn r and last 0, then the granules of
 * the staging buffer, last on the final one (seed 003's serial multicast
 * replay: receivers x granules beats).
 *
 * A receiver's SIG_DATA_RECEIVED is matched by its source to the first
 * receiver at that coordinate whose burst has gone and is not yet
 * acknowledged (flits between two nodes stay in order, so two receivers
 * at one node are acknowledged in the order they were sent).  Anything
 * else is dropped.  The copy retires the cycle after the last ack, with
 * exec_result = the tile's element count.
 *
 * NO_ACK: a receiver has KH_DXA_ACK_TIMEOUT cycles from its last flit.
 * When one runs out no new burst starts; a burst under way is finished
 * first (a receiver framing by count would otherwise take the next
 * sender's flits for the rest of it), then the copy faults.  STALL: no
 * read answered and no flit sent for KH_DXA_STALL_TIMEOUT cycles ends the
 * copy where it is (the flit held in the send register, if any, is still
 * offered until taken: a flit offered is never withdrawn).
 */
#include "dxa.h"

void ksim_dxa_burst_start(struct ksim_dxa *x)
{
	unsigned int r;

	x->state = KSIM_DXA_SEND;
	x->b_r = x->b_g = 0;
	x->b_desc_sent = false;
	x->no_ack = false;
	for (r = 0; r < KH_DXA_MAX_RECV; r++)
		x->b_sent[r] = x->acked[r] = false;
}

bool ksim_dxa_burst_ready(const struct ksim_dxa *x)
{
	return x->state == KSIM_DXA_SEND &&
	       !(x->no_ack && !x->b_desc_sent);
}

void ksim_dxa_burst_flit(struct ksim_dxa *x, struct kh_flit *f, u8 *kind)
{
	u32 rv = x->recv[x->b_r];

	memset(f, 0, sizeof(*f));
	if (!x->b_desc_sent) {
		ksim_unit_hdr(x->u, f, KH_DXA_RECV_X(rv), KH_DXA_RECV_Y(rv),
			      KH_T_CU_DATA, x->b_r, 0);
		kh_flit_set(f, KH_DATA_BUF_ID, KH_DXA_RECV_BUF(rv));
		kh_flit_set(f, KH_DATA_OFFSET,
			    (KH_DXA_RECV_OFF(rv) + x->b_r * x->d.mstride) &
			    0xffff);
		kh_flit_set(f, KH_DATA_LEN, x->granules - 1);
		kh_flit_set(f, KH_DATA_FLAGS, KH_DATAF_SIGNAL);
		kh_flit_set(f, KH_DATA_ACK_X, ksim_unit_x(x->u));
		kh_flit_set(f, KH_DATA_ACK_Y, ksim_unit_y(x->u));
		*kind = KSIM_DXA_OUT_DESC;
		return;
	}
	ksim_unit_hdr(x->u, f, KH_DXA_RECV_X(rv), KH_DXA_RECV_Y(rv),
		      KH_T_CU_DATA, x->b_r, x->b_g + 1 == x->granules);
	ksim_bytes_to_payload(f->w, x->stage + x->b_g * KSIM_DXA_GRANULE);
	*kind = KSIM_DXA_OUT_DATA;
}

static bool ksim_dxa_all_acked(const struct ksim_dxa *x)
{
	unsigned int r;

	for (r = 0; r < x->nrecv; r++)
		if (!x->acked[r])
			return false;
	return true;
}

static void ksim_dxa_finish(struct ksim_dxa *x)
{
	x->state = KSIM_DXA_DONE;
	x->transfers++;
	x->t_done = ksim_unit_now(x->u);
}

void ksim_dxa_burst_taken(struct ksim_dxa *x, u8 kind)
{
	u64 now = ksim_unit_now(x->u);

	if (x->state != KSIM_DXA_SEND)
		return;		/* held across a STALL */
	x->last_progress = now;
	if (!x->t_first_send)
		x->t_first_send = now;
	x->t_last_send = now;
	if (kind == KSIM_DXA_OUT_DESC) {
		x->b_desc_sent = true;
		return;
	}
	x->local_writes++;
	if (++x->b_g < x->granules)
		return;
	x->b_sent[x->b_r] = true;
	x->ack_by[x->b_r] = now + KH_DXA_ACK_TIMEOUT;
	x->b_g = 0;
	x->b_desc_sent = false;
	if (++x->b_r == x->nrecv)
		x->state = KSIM_DXA_ACK;
}

void ksim_dxa_ack(struct ksim_dxa *x, const struct kh_flit *f)
{
	unsigned int sx = kh_flit_get(f, KH_HDR_SRC_X);
	unsigned int sy = kh_flit_get(f, KH_HDR_SRC_Y);
	unsigned int r;

	if (kh_flit_get(f, KH_SIG_CODE) != KH_SIG_DATA_RECEIVED ||
	    (x->state != KSIM_DXA_SEND && x->state != KSIM_DXA_ACK)) {
		x->stale++;
		ksim_unit_drop(x->u, f, "dxa: a signal no copy waits for");
		return;
	}
	for (r = 0; r < x->nrecv; r++) {
		if (!x->b_sent[r] || x->acked[r] ||
		    KH_DXA_RECV_X(x->recv[r]) != sx ||
		    KH_DXA_RECV_Y(x->recv[r]) != sy)
			continue;
		x->acked[r] = true;
		if (x->state == KSIM_DXA_ACK && ksim_dxa_all_acked(x))
			ksim_dxa_finish(x);
		return;
	}
	x->stale++;
	ksim_unit_drop(x->u, f, "dxa: an ack from no receiver waiting");
}

/*
 * The watchdogs, once a cycle while a copy is in flight.  Return: false
 * with a timer set for the next deadline, true when the copy ended.
 */
bool ksim_dxa_watch(struct ksim_dxa *x)
{
	u64 now = ksim_unit_now(x->u), next;
	unsigned int r;

	if (x->state != KSIM_DXA_READ && x->state != KSIM_DXA_SEND &&
	    x->state != KSIM_DXA_ACK)
		return false;
	next = x->last_progress + KH_DXA_STALL_TIMEOUT;
	if (now >= next) {
		ksim_dxa_fail(x, KH_DXA_FAULT_STALL);
		return true;
	}
	for (r = 0; r < x->nrecv; r++) {
		if (!x->b_sent[r] || x->acked[r])
			continue;
		if (now >= x->ack_by[r])
			x->no_ack = true;
		else
			next = ksim_min_u64(next, x->ack_by[r]);
	}
	/* a descriptor offered and not yet taken starts a burst too */
	if (x->no_ack && (x->state == KSIM_DXA_ACK ||
			  (!x->b_desc_sent &&
			   x->out_kind != KSIM_DXA_OUT_DESC))) {
		ksim_dxa_fail(x, KH_DXA_FAULT_NO_ACK);
		return true;
	}
	ksim_unit_timer(x->u, next);
	return false;
}
