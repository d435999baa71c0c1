// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DRAIN and the write-back port.
 *
 * The drain sequencer (mx_cluster_node.v L274-347): tile addresses
 * 0 .. n-1 (mod TILES), one OP_EMIT per cycle, or, when the drain goes to
 * a node's buffer 2, one OP_SEND every other cycle; at most DQ_LIMIT (112)
 * granules outstanding.  EMIT hands out the tile value as 16 FP16 (lane
 * r*4+c at bits [16l+15:16l]); SEND the 352-bit FP22 sub-tile as two
 * granules (low 256 bits, then the rest).  A tile value with exponent 0
 * is zero (mx_fpacc_align's pass rule).  Granule i of the drain is
 * `drain_idx` i.
 *
 * The write port (mx_cluster_cu.v L914-1090): granules are collected into
 * one of two banks of 8 while the other is sent; a bank is handed to the
 * sender when full, or when the drain has nothing left.  A burst is one
 * descriptor then its granules, one flit per cycle: MEM_WR_REQ at
 * addr + first*32 (len = granules - 1, flags 0) and MEM_WR_DATA to the
 * unit's MAG port, or, with dnode, a CU_DATA descriptor {dbuf, addr[20:5] +
 * first, len, dflags, dack_y, dack_x} and CU_DATA data to (dst_x, dst_y);
 * txn 0x02, last on the final data flit.
 */
#include "mat.h"

#define KSIM_MAT_W_IDLE		0
#define KSIM_MAT_W_REQ		1
#define KSIM_MAT_W_DATA		2

bool ksim_mat_drain_busy(const struct ksim_mat *m)
{
	return m->d_run || m->d_out || m->d_wait;
}

bool ksim_mat_w_idle(const struct ksim_mat *m)
{
	return m->w_st == KSIM_MAT_W_IDLE && !m->w_fill;
}

/* Drop the emits the accumulator will never produce (LOAD won). */
static void ksim_mat_dq_drop_phantoms(struct ksim_mat *m)
{
	unsigned int i, n = 0, inc = 0;

	for (i = 0; i < m->dq_count; i++) {
		struct ksim_mat_gran *g = &m->dq[(m->dq_head + i) % KSIM_MAT_DQ];

		if (g->ready == KSIM_MAT_NEVER)
			continue;
		if (i < m->dq_inc)
			inc++;
		m->dq[(m->dq_head + n++) % KSIM_MAT_DQ] = *g;
	}
	m->dq_count = n;
	m->dq_inc = inc;
}

void ksim_mat_drain_start(struct ksim_unit *u, struct ksim_mat *m)
{
	m->wdst = m->in;		/* w_base and the destination (L1037) */
	m->d_n = m->in.n;
	if (m->in.fuse) {
		/* a barrier on the emitted sub-tiles (node L309-315) */
		m->d_wait = m->d_pop < m->d_n;
		return;
	}
	m->d_run = true;
	m->d_send = m->in.dnode && m->in.dbuf == KH_MAT_BUF_PEER;
	m->d_iss = m->d_got = m->d_pop = 0;
	m->d_out = 0;
	m->d_gap = false;
	m->d_fused = false;
	ksim_mat_dq_drop_phantoms(m);
	m->dq_inc = m->dq_count;
	m->d_next = ksim_unit_now(u) + 2;
}

/* An emitting sweep starts: the node's counters restart (L302-308). */
void ksim_mat_fused_start(struct ksim_mat *m)
{
	m->wdst = m->in;		/* latched in S_GEMM with emit (L1037) */
	m->d_iss = m->d_got = m->d_pop = 0;
	m->d_out = 0;
	m->d_fused = true;
	m->d_send = false;
	m->d_gap = false;
	m->d_run = false;
	m->dq_inc = m->dq_count;
}

void ksim_mat_dq_push(struct ksim_mat *m, const u64 *w, u64 ready,
		      u64 inc_at)
{
	struct ksim_mat_gran *g =
		&m->dq[(m->dq_head + m->dq_count) % KSIM_MAT_DQ];

	memcpy(g->w, w, sizeof(g->w));
	g->idx = ready == KSIM_MAT_NEVER ? m->d_got : m->d_got++;
	g->ready = ready;
	g->inc_at = inc_at;
	m->dq_count++;
}

/* d_out counts an issued granule from its inc_at on. */
void ksim_mat_dq_account(struct ksim_mat *m, u64 now)
{
	while (m->dq_inc < m->dq_count &&
	       m->dq[(m->dq_head + m->dq_inc) % KSIM_MAT_DQ].inc_at <= now) {
		m->d_out++;
		m->dq_inc++;
	}
}

static void ksim_mat_drain_issue(struct ksim_unit *u, struct ksim_mat *m)
{
	unsigned int t = m->d_iss & KSIM_MAT_TAW_MASK, l;
	u64 now = ksim_unit_now(u), w[4] = { 0 }, p[8] = { 0 };

	for (l = 0; l < KSIM_MAT_LANES; l++) {
		u32 v = ksim_mat_fp22_add(m->tile[t][l], 0, false, true);

		if (m->d_send) {
			unsigned int b = l * KH_MAT_FP22_BITS;

			p[b / 64] |= (u64)v << (b % 64);
			if (b % 64 > 64 - KH_MAT_FP22_BITS)
				p[b / 64 + 1] |= (u64)v >> (64 - b % 64);
		} else {
			w[l / 4] |= (u64)ksim_mat_fp22_to_fp16(v) << (16 * (l % 4));
		}
	}
	if (m->d_send) {
		ksim_mat_dq_push(m, p, now + KSIM_MAT_SEND_LAT, now + 1);
		ksim_mat_dq_push(m, p + 4, now + KSIM_MAT_SEND_LAT + 1, now + 1);
		m->d_gap = true;
	} else {
		ksim_mat_dq_push(m, w, now + KSIM_MAT_EMIT_LAT, now + 1);
	}
	ksim_mat_acu_cmd(u, m);
	if (++m->d_iss == m->d_n)
		m->d_run = false;
}

bool ksim_mat_drain_step(struct ksim_unit *u, struct ksim_mat *m)
{
	bool busy = ksim_mat_drain_busy(m);	/* as registered at the edge */
	u64 now = ksim_unit_now(u);

	if (m->d_wait && m->d_pop >= m->d_n)
		m->d_wait = false;
	if (m->d_run && now >= m->d_next) {
		if (m->d_gap)
			m->d_gap = false;
		else if (m->d_out < KSIM_MAT_DQ_LIMIT)
			ksim_mat_drain_issue(u, m);
	}
	if (m->dq_count && m->dq[m->dq_head].ready <= now &&
	    m->w_fill < KH_MAT_WBURST) {
		struct ksim_mat_gran *g = &m->dq[m->dq_head];

		if (!m->w_fill)
			m->w_cfirst = g->idx;
		m->wb[m->w_cb][m->w_fill++] = *g;
		m->dq_head = (m->dq_head + 1) % KSIM_MAT_DQ;
		m->dq_count--;
		if (m->dq_inc)
			m->dq_inc--;
		m->d_out--;
		m->d_pop++;
	} else if (m->w_st == KSIM_MAT_W_IDLE && m->w_fill &&
		   (m->w_fill == KH_MAT_WBURST || !busy)) {
		m->w_sb = m->w_cb;
		m->w_len = m->w_fill;
		m->w_sfirst = m->w_cfirst;
		m->w_send = 0;
		m->w_st = KSIM_MAT_W_REQ;
		m->w_cb ^= 1;
		m->w_fill = 0;
		m->w_at = now + 2;	/* the descriptor leaves two cycles on */
	}
	return m->d_run || m->d_wait || m->w_fill ||
	       m->w_st != KSIM_MAT_W_IDLE ||
	       (m->dq_count && m->dq[m->dq_head].ready != KSIM_MAT_NEVER);
}

bool ksim_mat_wb_send(struct ksim_unit *u, struct ksim_mat *m)
{
	const struct ksim_mat_inst *d = &m->wdst;
	unsigned int dx = d->dnode ? d->dx : m->mx, dy = d->dnode ? d->dy : m->my;
	struct kh_flit f;
	bool last;

	if (m->w_st == KSIM_MAT_W_IDLE ||
	    (m->w_st == KSIM_MAT_W_REQ && ksim_unit_now(u) < m->w_at))
		return false;
	memset(&f, 0, sizeof(f));
	if (m->w_st == KSIM_MAT_W_REQ) {
		ksim_unit_hdr(u, &f, dx, dy,
			      d->dnode ? KH_T_CU_DATA : KH_T_MEM_WR_REQ,
			      KH_MAT_DRAIN_TXN, 0);
		if (d->dnode) {
			kh_flit_set(&f, KH_DATA_BUF_ID, d->dbuf);
			kh_flit_set(&f, KH_DATA_OFFSET,
				    ((d->addr >> 5) + m->w_sfirst) & 0xffff);
			kh_flit_set(&f, KH_DATA_LEN, m->w_len - 1);
			kh_flit_set(&f, KH_DATA_FLAGS, d->dflags);
			kh_flit_set(&f, KH_DATA_ACK_Y, d->dacky);
			kh_flit_set(&f, KH_DATA_ACK_X, d->dackx);
		} else {
			kh_flit_set(&f, KH_MEM_ADDR, d->addr +
				    (u64)m->w_sfirst * KH_MAT_GRANULE);
			kh_flit_set(&f, KH_MEM_LEN, m->w_len - 1);
		}
		if (!ksim_unit_send(u, &f))
			return false;
		m->w_st = KSIM_MAT_W_DATA;
		return true;
	}
	last = m->w_send + 1 == m->w_len;
	ksim_unit_hdr(u, &f, dx, dy,
		      d->dnode ? KH_T_CU_DATA : KH_T_MEM_WR_DATA,
		      KH_MAT_DRAIN_TXN, last);
	memcpy(f.w, m->wb[m->w_sb][m->w_send].w, 4 * sizeof(u64));
	if (!ksim_unit_send(u, &f))
		return false;
	if (last)
		m->w_st = KSIM_MAT_W_IDLE;
	else
		m->w_send++;
	return true;
}
