// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The SX saxpy unit (token `sax`, cu_type 'SX'): KohakuTPU's saxpy_cu
 * (src/examples/saxpy/saxpy_cu.v) cycle by cycle; docs/spec/units.md and
 * docs/model.md "Units" cite the RTL line behind each rule.
 *
 * One instruction: y[0:n] = a * x[0:n] + y[0:n], n <= 64.  Accepted in
 * IDLE; then one plain MEM_RD_REQ of ceil(n/8) lines for x (tag 0x10), one
 * for y (tag 0x20); responses are taken whatever the state, sorted by type
 * and tag into 8-line buffers; once both operands are in, one element per
 * cycle; one MEM_WR_REQ (tag 0x30) and its beats, the tail of a partial
 * last line written back as read; then exec_done, the cycle after the last
 * beat was loaded into the send register (not when it was taken).  The
 * unit's outputs are registers: a flit loaded in one cycle is offered from
 * the next, and a new one is loaded only when the register is free or
 * being taken, exactly as `!send_valid || send_ready` does.
 *
 * The arithmetic is the RTL's integer datapath, y = i2f(f2i(a) * f2i(x) +
 * f2i(y)), in 32-bit two's complement; `param sx_fma 1` swaps in a
 * binary32 fused multiply-add, the variant the RTL's author suggests and
 * not what the card computes (it tags CU_DBG[63:32] so software can tell).
 */
#include "ksim_unit.h"
#include "fp32.h"
#include "params.h"
#include "table.h"
#include "util.h"
#include <kohaku/kh_units.h>

#define SX_LINE_ELEMS		8
#define SX_LINES		(KH_SX_N_MAX / SX_LINE_ELEMS)	/* xbuf/ybuf */
#define SX_ADDR_MASK		((1ULL << 40) - 1)	/* 40-bit registers */
#define SX_ELEMS_PER_CYCLE	1	/* S_COMP: one element a cycle */

enum ksim_sx_state {
	SX_IDLE,
	SX_RQX,
	SX_RQY,
	SX_WAIT,
	SX_COMP,
	SX_WREQ,
	SX_WDATA,
	SX_DONE,
};

struct ksim_sx {
	u8 state;
	bool fault;
	u32 fault_code;
	u32 n;			/* n_q: 24 bits */
	u32 a;
	u64 x, y;		/* x_addr, y_addr: 40 bits */
	u32 beats;		/* lines per operand, 1..8 */
	u32 xw, yw, wb;		/* 4-bit counters */
	u32 xw0, yw0;		/* xw, yw at the edge's start (S_WAIT reads) */
	u32 ei;			/* element being computed */
	u32 elements;		/* CU_DBG [31:0], cumulative */
	bool fma;		/* the declared variant */
	/* the send register: send_flit/send_valid */
	bool send_valid;
	struct kh_flit send;
	/* exec_done/exec_fault/exec_result, registered */
	bool done;
	bool done_fault;
	u32 done_result;
	unsigned int mx, my;	/* MEM_X, MEM_Y */
	u32 xb[SX_LINES][SX_LINE_ELEMS];
	u32 yb[SX_LINES][SX_LINE_ELEMS];
};

/*
 * f2i: truncate toward zero into 32 bits.  A zero exponent is 0 (so are
 * subnormals); from exponent 150 the significand shifts left and what
 * passes bit 31 is lost (inf and NaN shift out to 0); below it shifts
 * right.  The sign negates in two's complement.
 */
static u32 ksim_sx_f2i(u32 b)
{
	u32 e = (b >> 23) & 0xff, mag;
	u64 m = 0x800000u | (b & 0x7fffff);

	if (!e)
		mag = 0;
	else if (e >= 150)
		mag = e - 150 >= 32 ? 0 : (u32)(m << (e - 150));
	else
		mag = 150 - e >= 32 ? 0 : (u32)(m >> (150 - e));
	return b >> 31 ? 0u - mag : mag;
}

/*
 * i2f: the sign of v; the exponent from the highest set bit among bits
 * 0..23 of |v| only (bits above are ignored: 0 when none below is set);
 * the significand truncated.  0 for v = 0.
 */
static u32 ksim_sx_i2f(u32 v)
{
	u32 mag = v >> 31 ? 0u - v : v, p;

	if (!mag)
		return 0;
	/* the highest set bit among bits 0..23 */
	p = mag & 0xffffff ? 31 - __builtin_clz(mag & 0xffffff) : 0;
	return (v & 0x80000000u) | (((127 + p) & 0xff) << 23) |
	       ((mag << (23 - p)) & 0x7fffff);
}

static u32 ksim_sx_element(const struct ksim_sx *s, u32 x, u32 y)
{
	if (s->fma)
		return ksim_fp32_fma(s->a, x, y);
	return ksim_sx_i2f(ksim_sx_f2i(s->a) * ksim_sx_f2i(x) +
			   ksim_sx_f2i(y));
}

static int ksim_sx_init(struct ksim_unit *u)
{
	struct ksim_sx *s = ksim_unit_priv(u);

	s->fma = ksim_unit_params(u)->sx_fma;
	ksim_unit_mag_port(u, &s->mx, &s->my);
	ksim_unit_set_dbg(u, s->fma ? (u64)KH_SX_DBG_FMA << 32 : 0);
	return 0;
}

/* load the send register */
static void ksim_sx_load(struct ksim_unit *u, struct ksim_sx *s,
			 unsigned int type, unsigned int tag, bool last)
{
	memset(&s->send, 0, sizeof(s->send));
	ksim_unit_hdr(u, &s->send, s->mx, s->my, type, tag, last);
	s->send_valid = true;
}

static void ksim_sx_load_req(struct ksim_unit *u, struct ksim_sx *s,
			     unsigned int type, unsigned int tag, u64 addr)
{
	ksim_sx_load(u, s, type, tag, type == KH_T_MEM_RD_REQ);
	kh_flit_set(&s->send, KH_MEM_ADDR, addr);
	kh_flit_set(&s->send, KH_MEM_LEN, s->beats - 1);
}

static void ksim_sx_accept(struct ksim_unit *u, struct ksim_sx *s,
			   const struct kh_flit *f)
{
	unsigned int op = kh_flit_get(f, KH_SX_OPCODE);

	s->n = kh_flit_get(f, KH_SX_N);
	s->a = kh_flit_get(f, KH_SX_A);
	s->x = kh_flit_get(f, KH_SX_X_ADDR) & SX_ADDR_MASK;
	s->y = kh_flit_get(f, KH_SX_Y_ADDR) & SX_ADDR_MASK;
	/* n[6:3] + |n[2:0]: 4 bits, as the register is */
	s->beats = (((s->n >> 3) & 0xf) + !!(s->n & 7)) & 0xf;
	s->xw = s->yw = s->wb = s->ei = 0;
	s->fault = false;
	ksim_unit_inst_accept(u);
	if (op != KH_SX_OP_SAXPY) {
		s->fault = true;
		s->fault_code = KH_SX_FAULT_BAD_OP;
		s->state = SX_DONE;
	} else if (s->n > KH_SX_N_MAX) {
		s->fault = true;
		s->fault_code = KH_SX_FAULT_TOO_BIG;
		s->state = SX_DONE;
	} else {
		s->state = s->n ? SX_RQX : SX_DONE;
	}
}

/* Responses by type and tag, whatever the state; recv_ready is always 1. */
static bool ksim_sx_receive(struct ksim_unit *u, struct ksim_sx *s)
{
	const struct kh_flit *f = ksim_unit_recv(u);
	unsigned int type, txn, i;
	u32 *line = NULL;

	if (!f)
		return false;
	type = kh_flit_get(f, KH_HDR_TYPE);
	txn = kh_flit_get(f, KH_HDR_TXN);
	if (type == KH_T_MEM_RD_RESP && txn == KH_SX_TAG_X) {
		/* a 4-bit counter: a ninth line lands nowhere */
		if (s->xw < SX_LINES)
			line = s->xb[s->xw];
		s->xw = (s->xw + 1) & 0xf;
	} else if (type == KH_T_MEM_RD_RESP && txn == KH_SX_TAG_Y) {
		if (s->yw < SX_LINES)
			line = s->yb[s->yw];
		s->yw = (s->yw + 1) & 0xf;
	} else if (type != KH_T_MEM_WR_ACK) {
		ksim_unit_drop(u, f, "unexpected on the SX receive path");
	}
	if (line)
		for (i = 0; i < SX_LINE_ELEMS; i++)
			line[i] = ksim_payload_u32(f->w, i);
	ksim_unit_recv_pop(u);
	return true;
}

static u64 ksim_sx_dbg(const struct ksim_sx *s)
{
	return (s->fma ? (u64)KH_SX_DBG_FMA << 32 : 0) | s->elements;
}

/* One clock edge of the state machine; true when it did something. */
static bool ksim_sx_step(struct ksim_unit *u, struct ksim_sx *s)
{
	bool free = !s->send_valid;
	const struct kh_flit *f;
	unsigned int k;
	u32 *e;

	switch (s->state) {
	case SX_IDLE:
		f = ksim_unit_inst(u);
		if (!f)
			return false;
		ksim_sx_accept(u, s, f);
		return true;
	case SX_RQX:
		if (!free)
			return false;
		ksim_sx_load_req(u, s, KH_T_MEM_RD_REQ, KH_SX_TAG_X, s->x);
		s->state = SX_RQY;
		return true;
	case SX_RQY:
		if (!free)
			return false;
		ksim_sx_load_req(u, s, KH_T_MEM_RD_REQ, KH_SX_TAG_Y, s->y);
		s->state = SX_WAIT;
		return true;
	case SX_WAIT:
		/* the registers as the edge found them: a line received at
		 * this edge counts at the next (saxpy_cu.v S_WAIT) */
		if (s->xw0 != s->beats || s->yw0 != s->beats)
			return false;
		s->state = SX_COMP;
		return true;
	case SX_COMP:
		for (k = 0; k < SX_ELEMS_PER_CYCLE && s->state == SX_COMP; k++) {
			e = &s->yb[s->ei / SX_LINE_ELEMS][s->ei % SX_LINE_ELEMS];
			*e = ksim_sx_element(s, s->xb[s->ei / SX_LINE_ELEMS]
						       [s->ei % SX_LINE_ELEMS], *e);
			s->elements++;
			if (s->ei == s->n - 1)
				s->state = SX_WREQ;
			else
				s->ei++;
		}
		ksim_unit_set_dbg(u, ksim_sx_dbg(s));
		return true;
	case SX_WREQ:
		if (!free)
			return false;
		ksim_sx_load_req(u, s, KH_T_MEM_WR_REQ, KH_SX_TAG_W, s->y);
		s->state = SX_WDATA;
		return true;
	case SX_WDATA: {
		bool last = s->wb == s->beats - 1;
		unsigned int i;

		if (!free)
			return false;
		ksim_sx_load(u, s, KH_T_MEM_WR_DATA, KH_SX_TAG_W, last);
		for (i = 0; i < SX_LINE_ELEMS; i++)
			ksim_payload_set_u32(s->send.w, i,
					     s->yb[s->wb % SX_LINES][i]);
		if (last)
			s->state = SX_DONE;
		else
			s->wb++;
		return true;
	}
	case SX_DONE:
		s->done = true;
		s->done_fault = s->fault;
		s->done_result = s->fault ? s->fault_code : s->n;
		s->state = SX_IDLE;
		return true;
	}
	return false;
}

static bool ksim_sx_tick(struct ksim_unit *u)
{
	struct ksim_sx *s = ksim_unit_priv(u);
	bool did = false;

	/* last edge's exec_done is seen by the base in this cycle */
	if (s->done) {
		ksim_unit_retire(u, s->done_result, s->done_fault);
		s->done = false;
		did = true;
	}
	/* the send register is offered; taken means free for this edge */
	if (s->send_valid && ksim_unit_send(u, &s->send)) {
		s->send_valid = false;
		did = true;
	}
	s->xw0 = s->xw;
	s->yw0 = s->yw;
	did |= ksim_sx_receive(u, s);
	did |= ksim_sx_step(u, s);
	/* a loaded flit is offered next cycle; exec_done likewise */
	return did || s->send_valid || s->done;
}

const struct ksim_unit_type ksim_unit_sx = {
	.token = "sax",
	.name = "saxpy unit",
	.cu_type = KH_CU_SX,
	.cu_version = KH_SX_VERSION,
	.n_buffers = KH_SX_NBUF,
	.priv_size = sizeof(struct ksim_sx),
	.init = ksim_sx_init,
	.tick = ksim_sx_tick,
};
