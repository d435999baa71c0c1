// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The SX saxpy unit (token `sax`, cu_type 'SX'; docs/spec/units.md):
 * y[0:n] = a * x[0:n] + y[0:n] over binary32 in DRAM, one instruction.
 *
 * Per chunk of up to 8 lines (recv_depth / 2 if smaller): a plain
 * MEM_RD_REQ for the x lines (txn 0) and one for the y lines (txn 1) to
 * the unit's MAG port; when every response is in, the fused multiply-adds;
 * then one MEM_WR_REQ and the chunk's MEM_WR_DATA beats.  Elements past n
 * in the last line keep the y value read.  MEM_WR_ACK and every other
 * unexpected flit are dropped.  The instruction retires when the last
 * MEM_WR_DATA has been taken by the send path, with exec_result = n.
 */
#include "ksim_unit.h"
#include "sim_fp32.h"
#include "sim_params.h"
#include "sim_units.h"
#include "sim_util.h"
#include <kohaku/kh_units.h>

#define SX_LINE_ELEMS		8
#define SX_MAX_CHUNK		KH_MEM_WBURST	/* lines per chunk */
#define SX_TXN_X		0x00
#define SX_TXN_Y		0x01
#define SX_TXN_W		0x02

enum ksim_sx_state {
	SX_IDLE,
	SX_RETIRE,		/* retire next cycle with result/fault */
	SX_REQ_X,
	SX_REQ_Y,
	SX_WAIT,
	SX_WR_REQ,
	SX_WR_DATA,
};

struct ksim_sx {
	u8 state;
	bool fault;
	u32 result;
	u32 n;			/* elements */
	u32 a;
	u64 x, y;		/* 40-bit addresses */
	u32 lines;		/* total lines */
	u32 line;		/* first line of the current chunk */
	u32 chunk;		/* lines in the current chunk */
	u32 got_x, got_y;
	u32 sent;		/* data beats sent */
	u32 elems;		/* CU_DBG [31:0], cumulative */
	u32 maxchunk;
	unsigned int mx, my;	/* MAG port */
	u32 xb[SX_MAX_CHUNK][SX_LINE_ELEMS];
	u32 yb[SX_MAX_CHUNK][SX_LINE_ELEMS];
};

static int ksim_sx_init(struct ksim_unit *u)
{
	struct ksim_sx *s = ksim_unit_priv(u);
	u32 half = ksim_unit_params(u)->recv_depth / 2;

	/* outstanding responses (2 x chunk) must fit the receive FIFO */
	s->maxchunk = half < 1 ? 1 : half > SX_MAX_CHUNK ? SX_MAX_CHUNK : half;
	ksim_unit_mag_port(u, &s->mx, &s->my);
	return 0;
}

static void ksim_sx_accept(struct ksim_unit *u, struct ksim_sx *s,
			 const struct kh_flit *f)
{
	unsigned int op = kh_flit_get(f, KH_SX_OPCODE);
	const u64 amask = (1ULL << 40) - 1;

	s->n = kh_flit_get(f, KH_SX_N);
	s->a = kh_flit_get(f, KH_SX_A);
	s->x = kh_flit_get(f, KH_SX_X_ADDR) & amask;
	s->y = kh_flit_get(f, KH_SX_Y_ADDR) & amask;
	ksim_unit_inst_accept(u);

	/* order of checks: opcode, alignment, then n = 0 */
	s->fault = false;
	s->result = s->n;
	if (op != KH_SX_OP_SAXPY) {
		s->fault = true;
		s->result = KH_SX_FAULT_OPCODE;
	} else if ((s->x | s->y) & (KH_SX_LINE_BYTES - 1)) {
		s->fault = true;
		s->result = KH_SX_FAULT_ALIGN;
	}
	if (s->fault || !s->n) {
		/* never retire in the accept cycle (seed 001 §4) */
		s->state = SX_RETIRE;
		return;
	}
	s->lines = (s->n + SX_LINE_ELEMS - 1) / SX_LINE_ELEMS;
	s->line = 0;
	s->state = SX_REQ_X;
}

static void ksim_sx_start_chunk(struct ksim_sx *s)
{
	s->chunk = ksim_min_u32(s->maxchunk, s->lines - s->line);
	s->got_x = s->got_y = 0;
	s->sent = 0;
}

static bool ksim_sx_send_rd(struct ksim_unit *u, struct ksim_sx *s, u64 base,
			  unsigned int txn)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	ksim_unit_hdr(u, &f, s->mx, s->my, KH_T_MEM_RD_REQ, txn, 1);
	kh_flit_set(&f, KH_MEM_ADDR, base + (u64)s->line * KH_SX_LINE_BYTES);
	kh_flit_set(&f, KH_MEM_LEN, s->chunk - 1);
	return ksim_unit_send(u, &f);
}

/* Take one response off the receive path (or drop what is not one). */
static bool ksim_sx_receive(struct ksim_unit *u, struct ksim_sx *s)
{
	const struct kh_flit *f = ksim_unit_recv(u);
	unsigned int type, txn, i;

	if (!f)
		return false;
	type = kh_flit_get(f, KH_HDR_TYPE);
	txn = kh_flit_get(f, KH_HDR_TXN);
	if (type == KH_T_MEM_RD_RESP && s->state == SX_WAIT &&
	    txn == SX_TXN_X && s->got_x < s->chunk) {
		for (i = 0; i < SX_LINE_ELEMS; i++)
			s->xb[s->got_x][i] = ksim_payload_u32(f->w, i);
		s->got_x++;
	} else if (type == KH_T_MEM_RD_RESP && s->state == SX_WAIT &&
		   txn == SX_TXN_Y && s->got_y < s->chunk) {
		for (i = 0; i < SX_LINE_ELEMS; i++)
			s->yb[s->got_y][i] = ksim_payload_u32(f->w, i);
		s->got_y++;
	} else if (type == KH_T_MEM_WR_ACK) {
		/* nobody consumes acks; dropping them is the contract */
	} else {
		ksim_unit_drop(u, f, "unexpected on the SX receive path");
	}
	ksim_unit_recv_pop(u);
	return true;
}

static void ksim_sx_compute(struct ksim_sx *s)
{
	u32 l, i;

	for (l = 0; l < s->chunk; l++)
		for (i = 0; i < SX_LINE_ELEMS; i++) {
			u32 e = (s->line + l) * SX_LINE_ELEMS + i;

			if (e < s->n)
				s->yb[l][i] = ksim_fp32_fma(s->a, s->xb[l][i],
							  s->yb[l][i]);
		}
}

static bool ksim_sx_tick(struct ksim_unit *u)
{
	struct ksim_sx *s = ksim_unit_priv(u);
	bool did = ksim_sx_receive(u, s);
	const struct kh_flit *f;
	struct kh_flit w;

	switch (s->state) {
	case SX_IDLE:
		f = ksim_unit_inst(u);
		if (!f)
			break;
		ksim_sx_accept(u, s, f);
		if (s->state == SX_REQ_X)
			ksim_sx_start_chunk(s);
		return true;
	case SX_RETIRE:
		ksim_unit_retire(u, s->result, s->fault);
		s->state = SX_IDLE;
		return true;
	case SX_REQ_X:
		if (ksim_sx_send_rd(u, s, s->x, SX_TXN_X)) {
			s->state = SX_REQ_Y;
			did = true;
		}
		break;
	case SX_REQ_Y:
		if (ksim_sx_send_rd(u, s, s->y, SX_TXN_Y)) {
			s->state = SX_WAIT;
			did = true;
		}
		break;
	case SX_WAIT:
		if (s->got_x < s->chunk || s->got_y < s->chunk)
			break;
		ksim_sx_compute(s);
		s->state = SX_WR_REQ;
		return true;
	case SX_WR_REQ:
		memset(&w, 0, sizeof(w));
		ksim_unit_hdr(u, &w, s->mx, s->my, KH_T_MEM_WR_REQ, SX_TXN_W, 0);
		kh_flit_set(&w, KH_MEM_ADDR,
			    s->y + (u64)s->line * KH_SX_LINE_BYTES);
		kh_flit_set(&w, KH_MEM_LEN, s->chunk - 1);
		if (ksim_unit_send(u, &w)) {
			s->state = SX_WR_DATA;
			did = true;
		}
		break;
	case SX_WR_DATA: {
		unsigned int i;
		bool last = s->sent + 1 == s->chunk;

		memset(&w, 0, sizeof(w));
		ksim_unit_hdr(u, &w, s->mx, s->my, KH_T_MEM_WR_DATA, SX_TXN_W,
			    last);
		for (i = 0; i < SX_LINE_ELEMS; i++)
			ksim_payload_set_u32(w.w, i, s->yb[s->sent][i]);
		if (!ksim_unit_send(u, &w))
			break;
		did = true;
		if (!last) {
			s->sent++;
			break;
		}
		s->elems += ksim_min_u32(s->n - s->line * SX_LINE_ELEMS,
				       s->chunk * SX_LINE_ELEMS);
		ksim_unit_set_dbg(u, s->elems);
		s->line += s->chunk;
		if (s->line < s->lines) {
			ksim_sx_start_chunk(s);
			s->state = SX_REQ_X;
		} else {
			/* the last beat has been taken: retire now */
			ksim_unit_retire(u, s->n, false);
			s->state = SX_IDLE;
		}
		break;
	}
	}
	return did;
}

const struct ksim_unit_type ksim_unit_sx = {
	.token = "sax",
	.name = "saxpy unit",
	.cu_type = KH_CU_SX,
	.n_buffers = KH_SX_NBUF,
	.priv_size = sizeof(struct ksim_sx),
	.init = ksim_sx_init,
	.tick = ksim_sx_tick,
};
