// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The matmul cluster unit (token `mat`, cu_type 'MG', version 4, N_BUFFERS
 * 2; RTL src/kohakutpu/matmul/mx_cluster_cu.v; docs/spec/mat.md): the unit
 * type, the sequencer and retirement.
 *
 * The sequencer (L765-912): S_IDLE takes an instruction (0 in n means 1);
 * FILL sends its descriptor and waits until n entries have completed;
 * GEMM starts the sweep when the accumulator is free (the manager only,
 * when gm*gn >= 5) and no peer stream is open, and retires as the sweep
 * starts; DRAIN starts when the GEMM path is idle and no peer stream is
 * open, and retires when the last write has left the unit; any other
 * opcode goes straight to S_DONE.  S_DONE retires with exec_result =
 * {16'd0, fills + gemms + drains} and exec_fault = a CU_DATA burst was
 * rejected since the last retirement.
 *
 * An emitting GEMM also waits for the drain path to be idle; a fused DRAIN
 * does not wait for the GEMM path (its sub-tiles come out of the sweep).
 *
 * Refused by the model (retired with exec_fault and exec_result
 * KSIM_MAT_FAULT_UNMODELLED, nothing else done): DRAIN with dfin != 0 (a
 * drain to another mesh).
 */
#include "mat.h"
#include "table.h"
#include <kohaku/kh_regs.h>

static int ksim_mat_init(struct ksim_unit *u)
{
	struct ksim_mat *m = ksim_unit_priv(u);

	ksim_unit_mag_port(u, &m->mx, &m->my);
	return 0;
}

static void ksim_mat_decode(struct ksim_mat_inst *in, const struct kh_flit *f)
{
	in->op = kh_flit_get(f, KH_MAT_OP);
	in->addr = kh_flit_get(f, KH_MAT_ADDR_LO) |
		   kh_flit_get(f, KH_MAT_ADDR_HI) << KH_MAT_ADDR_LO_BITS;
	in->n = kh_flit_get(f, KH_MAT_N);
	if (!in->n)
		in->n = 1;
	in->sel = kh_flit_get(f, KH_MAT_SEL);
	in->acc = kh_flit_get(f, KH_MAT_ACC);
	in->gm = kh_flit_get(f, KH_MAT_GM);
	in->gn = kh_flit_get(f, KH_MAT_GN);
	in->nk = kh_flit_get(f, KH_MAT_NK);
	in->anchor = kh_flit_get(f, KH_MAT_ANCHOR);
	in->peers = kh_flit_get(f, KH_MAT_PEERS);
	in->npeer = kh_flit_get(f, KH_MAT_NPEER);
	in->preq = kh_flit_get(f, KH_MAT_PREQ);
	in->eoff = kh_flit_get(f, KH_MAT_EOFF);
	in->aoff = kh_flit_get(f, KH_MAT_AOFF);
	in->boff = kh_flit_get(f, KH_MAT_BOFF);
	in->emit = kh_flit_get(f, KH_MAT_EMIT);
	in->fuse = kh_flit_get(f, KH_MAT_FUSE);
	in->abank = kh_flit_get(f, KH_MAT_ABANK);
	in->bbank = kh_flit_get(f, KH_MAT_BBANK);
	in->fbank = kh_flit_get(f, KH_MAT_FBANK);
	in->dnode = kh_flit_get(f, KH_MAT_DNODE);
	in->dx = kh_flit_get(f, KH_MAT_DST_X);
	in->dy = kh_flit_get(f, KH_MAT_DST_Y);
	in->dbuf = kh_flit_get(f, KH_MAT_DBUF);
	in->dflags = kh_flit_get(f, KH_MAT_DFLAGS);
	in->dacky = kh_flit_get(f, KH_MAT_DACK_Y);
	in->dackx = kh_flit_get(f, KH_MAT_DACK_X);
	in->dmesh = kh_flit_get(f, KH_MAT_DMESH);
	in->dfin = kh_flit_get(f, KH_MAT_DFIN);
}

/* `i_wide`: gm * gn >= REUSE_MIN, from the raw fields (L378-382) */
static bool ksim_mat_wide(const struct ksim_mat_inst *in)
{
	unsigned int gm = in->gm ? in->gm : 1, gn = in->gn ? in->gn : 1;

	return gm * gn >= KSIM_MAT_REUSE_MIN;
}

static void ksim_mat_goto(struct ksim_mat *m, u8 st, u64 at)
{
	m->st = st;
	m->st_at = at;
}

/* CU_DBG: [63:32] cycles the array computed, [31:0] cycles in S_FILL */
static void ksim_mat_dbg(struct ksim_unit *u, struct ksim_mat *m)
{
	u64 now = ksim_unit_now(u), comp = m->ctr_comp;
	u32 fill = m->ctr_fill;

	if (m->st == KSIM_MAT_FILL && now > m->st_at)
		fill += (u32)(now - m->st_at);
	if (now > m->comp_from)
		comp += (now < m->comp_to ? now : m->comp_to) - m->comp_from;
	ksim_unit_set_dbg(u, (u64)(u32)comp << 32 | fill);
}

static void ksim_mat_accept(struct ksim_unit *u, struct ksim_mat *m,
			    const struct kh_flit *f)
{
	u64 now = ksim_unit_now(u);
	struct ksim_mat_inst *in = &m->in;

	ksim_mat_decode(in, f);
	ksim_unit_inst_accept(u);
	m->req_done = false;
	m->rcv_ent = 0;
	switch (in->op) {
	case KH_MAT_OP_FILL:
		ksim_mat_goto(m, KSIM_MAT_FILL, now + 1);
		break;
	case KH_MAT_OP_GEMM:
		ksim_mat_goto(m, KSIM_MAT_GEMM, now + 1);
		break;
	case KH_MAT_OP_DRAIN:
		ksim_mat_goto(m, in->dfin ? KSIM_MAT_REFUSE : KSIM_MAT_DRAIN,
			      now + 1);
		break;
	default:
		ksim_mat_goto(m, KSIM_MAT_DONE, now + 1);
		break;
	}
}

static void ksim_mat_retire(struct ksim_unit *u, struct ksim_mat *m)
{
	u16 cnt = (u16)(m->nfill + m->ngemm + m->ndrain);

	m->done_pend = true;
	if (m->st == KSIM_MAT_REFUSE) {
		m->done_result = KSIM_MAT_FAULT_UNMODELLED;
		m->done_fault = true;
	} else {
		m->done_result = cnt;
		m->done_fault = m->fault;
	}
	m->fault = false;
	m->st = KSIM_MAT_IDLE;
}

/* The sequencer's cycle, on the registered state (before this cycle's
 * receive and drain steps). */
static bool ksim_mat_seq(struct ksim_unit *u, struct ksim_mat *m)
{
	u64 now = ksim_unit_now(u);
	const struct kh_flit *f;
	bool busy;

	if (now < m->st_at)
		return false;
	switch (m->st) {
	case KSIM_MAT_IDLE:
		f = ksim_unit_inst(u);
		if (!f)
			return false;
		ksim_mat_accept(u, m, f);
		return true;
	case KSIM_MAT_FILL:
		if (m->rcv_ent == m->in.n) {
			m->nfill++;
			m->ctr_fill += (u32)(now + 1 - m->st_at);
			ksim_mat_goto(m, KSIM_MAT_DONE, now + 1);
			return true;
		}
		return false;
	case KSIM_MAT_GEMM:
		/* w_base and the destination follow S_GEMM with emit (L1037) */
		if (m->in.emit)
			m->wdst = m->in;
		busy = ksim_mat_wide(&m->in) ? ksim_mat_sweep_busy(u, m) :
					       ksim_mat_gemm_busy(u, m);
		if (busy || m->peer_open_r ||
		    (m->in.emit && ksim_mat_drain_busy(m)))
			return false;
		ksim_mat_sweep_start(u, m);
		ksim_mat_comp(m, now + 2, m->acu_busy_to);
		ksim_mat_goto(m, KSIM_MAT_GWAIT, now + 2);
		return true;
	case KSIM_MAT_GWAIT:
		m->ngemm++;
		ksim_mat_goto(m, KSIM_MAT_DONE, now + 1);
		return true;
	case KSIM_MAT_DRAIN:
		m->wdst = m->in;	/* latched from the first cycle (L1037) */
		if ((!m->in.fuse && ksim_mat_gemm_busy(u, m)) || m->peer_open_r)
			return false;
		ksim_mat_drain_start(u, m);
		ksim_mat_goto(m, KSIM_MAT_DWAIT, now + 2);
		return true;
	case KSIM_MAT_DWAIT:
		if (ksim_mat_drain_busy(m) || !ksim_mat_w_idle(m))
			return false;
		m->ndrain++;
		ksim_mat_goto(m, KSIM_MAT_DONE, now + 1);
		return true;
	case KSIM_MAT_DONE:
	case KSIM_MAT_REFUSE:
		ksim_mat_retire(u, m);
		return true;
	}
	return false;
}

/* One flit out per cycle: the completion signal, the FILL descriptor,
 * then the write port (L969-981). */
static bool ksim_mat_send(struct ksim_unit *u, struct ksim_mat *m)
{
	struct kh_flit f;

	if (!ksim_unit_send_ready(u))
		return false;
	if (ksim_unit_cd_ack(u, &f)) {
		if (!ksim_unit_send(u, &f))
			return false;
		ksim_unit_cd_ack_pop(u);
		return true;
	}
	if (m->st == KSIM_MAT_FILL && !m->req_done &&
	    ksim_unit_now(u) > m->st_at) {
		if (!ksim_mat_fill_send(u, m))
			return false;
		m->req_done = true;
		return true;
	}
	return ksim_mat_wb_send(u, m);
}

static bool ksim_mat_tick(struct ksim_unit *u)
{
	struct ksim_mat *m = ksim_unit_priv(u);
	bool did = false, busy, pk_was, open_next;
	u64 now = ksim_unit_now(u), wake, ack_at;
	unsigned int buf;

	ksim_mat_dq_account(m, now);
	/* last edge's exec_done is seen by the base in this cycle */
	if (m->done_pend) {
		ksim_unit_retire(u, m->done_result, m->done_fault);
		m->done_pend = false;
		did = true;
	}
	did |= ksim_mat_sweep_step(u, m);
	did |= ksim_mat_seq(u, m);
	pk_was = m->pk_pend;
	open_next = (ksim_unit_cd_open(u, &buf) && buf == KH_MAT_BUF_PEER) ||
		    m->pk_pend;
	did |= ksim_mat_recv(u, m);
	did |= ksim_mat_peer_step(u, m, pk_was, open_next);
	did |= ksim_mat_drain_step(u, m);
	did |= ksim_mat_send(u, m);
	ksim_mat_dbg(u, m);
	/* wake at the earliest of: a state's start, the end of a busy window
	 * something waits on, the sweep's next command (one timer: the
	 * last ksim_unit_timer() wins) */
	wake = KSIM_MAT_NEVER;
	if (m->st_at > now)
		wake = m->st_at;
	busy = m->st == KSIM_MAT_GEMM || m->st == KSIM_MAT_DRAIN ||
	       m->pk_pend || m->peer_open_r || m->p_open;
	if (busy && ksim_mat_gemm_busy(u, m)) {
		u64 end = m->acu_busy_to > m->mgr_busy_to ? m->acu_busy_to :
			  m->mgr_busy_to;

		/* a wide GEMM waits for the manager only */
		if (m->st == KSIM_MAT_GEMM && ksim_mat_wide(&m->in) &&
		    m->mgr_busy_to > now)
			end = m->mgr_busy_to;

		if (end < wake)
			wake = end;
	}
	if (m->run && m->next_issue < wake)
		wake = m->next_issue;
	ack_at = ksim_unit_cd_ack_at(u);
	if (ack_at > now && ack_at < wake)
		wake = ack_at;
	if (m->dq_inc < m->dq_count) {
		u64 at = m->dq[(m->dq_head + m->dq_inc) % KSIM_MAT_DQ].inc_at;

		if (at < wake)
			wake = at > now ? at : now + 1;
	}
	if (wake != KSIM_MAT_NEVER)
		ksim_unit_timer(u, wake);
	return did || ksim_unit_cd_acks(u) ||
	       (m->st == KSIM_MAT_FILL && !m->req_done);
}

const struct ksim_unit_type ksim_unit_mat = {
	.token = "mat",
	.name = "matmul cluster",
	.cu_type = KH_CU_MG,
	.cu_version = KH_MAT_VERSION,	/* mx_cluster_cu.v:238 */
	.n_buffers = KH_MAT_NBUF,
	.priv_size = sizeof(struct ksim_mat),
	.init = ksim_mat_init,
	.tick = ksim_mat_tick,
	.recv_types = (1u << KH_T_MEM_RD_RESP) | (1u << KH_T_MEM_WR_ACK) |
		      (1u << KH_T_CU_DATA),
	.cudata = &ksim_mat_cd,
	.clk_out = KH_CLK_OUT_MAT2X,	/* mat1x = mat2x / 2 */
};
