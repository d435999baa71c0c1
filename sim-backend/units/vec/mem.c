// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * VFILL and VDRAIN (vec_core.v:585-600, 790-853; vec_cu.v:361-438).
 *
 * Both start the walker on descriptor `ad` (offset 0) and take the L1
 * start word from the offset field [8:0].  Three states later (the
 * walker's total is pipelined) S_MEM0 faults a walk of more than 256
 * entries (F_LEN); otherwise each entry is one 32-byte word:
 *
 *   VFILL   one plain MEM_RD_REQ (len 0, flags 0) to the unit's MAG port
 *           per entry, at the walk's byte address, txn = L1 word [7:0]
 *           (bit 8 kept per txn for the response).  Non-blocking: the
 *           kernel goes on once the last request is issued; fill_out
 *           counts the responses still to come, and VBAR, VHALT and the
 *           next VFILL wait for it to reach 0.
 *   VDRAIN  per entry a MEM_WR_REQ (txn 1, len 0, last 0) at the walk's
 *           address and one MEM_WR_DATA (txn 1, last 1) with L1 word
 *           l1_cur.  The kernel goes on once the last word is issued:
 *           VHALT does not wait for the flits to leave, let alone land.
 *   VDRAIN to a node ([24] set): the sink is node ([20:17], [16:13])'s
 *           CU_DATA port.  One descriptor for the whole walk, then one data
 *           flit per entry, `last` on the final one.  The descriptor's
 *           fields come from the walk's first address (the descriptor's
 *           base): offset [15:0], {ack_y, ack_x} [23:16], and for a sink in
 *           another mesh the mesh [25:24] and the final coordinate [33:26]
 *           (nonzero: every flit then carries it as txn and rsvd =
 *           {1, mesh}); buffer [12:9] and signal_on_complete [25] are the
 *           word's; len = total - 1.  The walk's other addresses are not
 *           used: a strided descriptor still sends consecutive words.
 *
 * One request goes per three cycles at best: the core's request is
 * taken the cycle after it is sent, and the next one issues the cycle
 * after that.
 */
#include "vec.h"

/**
 * ksim_vec_mem_start() - a VFILL or VDRAIN's EXEC at cycle t
 * @v: the core.
 * @w: the kernel word.
 * @t: its EXEC cycle.
 * @code: set to a fault code on a fault.
 *
 * Return: the S_FAULT cycle on a fault; otherwise 0, with kst, mem_left,
 * l1_cur and mem_next set for ksim_vec_mem_step().
 */
u64 ksim_vec_mem_start(struct ksim_vec *v, u32 w, u64 t, u32 *code)
{
	u32 op = KH_VEC_GET(w, KH_VEC_OP), total;
	u64 mem0 = t + 5;	/* S_AGW, S_MEMW1-3, S_MEM0 */

	ksim_vec_agu_start(&v->agu, KH_VEC_GET(w, KH_VEC_AD), 0);
	total = ksim_vec_agu_total(&v->agu);
	if (total > KH_VEC_WALK_MAX) {
		*code = KH_VEC_F_LEN;
		return mem0 + 1;
	}
	v->mem_left = total;
	v->l1_cur = KH_VEC_GET(w, KH_VEC_OFF) & (KH_VEC_L1_WORDS - 1);
	v->nd = op == KH_VEC_VDRAIN && KH_VEC_GET(w, KH_VEC_ND);
	if (v->nd) {
		u64 base = ksim_vec_agu_addr(&v->agu);

		v->nd_x = KH_VEC_GET(w, KH_VEC_ND_X);
		v->nd_y = KH_VEC_GET(w, KH_VEC_ND_Y);
		v->nd_buf = KH_VEC_GET(w, KH_VEC_ND_BUF);
		v->nd_sig = KH_VEC_GET(w, KH_VEC_ND_SIG);
		v->nd_off = (u32)(base & 0xffff);
		v->nd_ack = (u32)(base >> 16) & 0xff;
		v->nd_mesh = (u32)(base >> 24) & 3;
		v->nd_fin = (u32)(base >> 26) & 0xff;
		v->nd_len = (total - 1) & 0xff;
		v->nd_cnt = 0;
	}
	if (op == KH_VEC_VFILL) {
		v->kst = KSIM_VEC_K_FILL;
		v->mem_next = mem0 + 1;		/* S_FILL */
	} else {
		v->kst = KSIM_VEC_K_DRAIN;
		v->mem_next = mem0 + 3;		/* S_DRA, S_DRW, S_DRD */
	}
	v->mem_last = 0;
	return 0;
}

static void ksim_vec_mem_req(struct ksim_unit *u, struct ksim_vec *v,
			     struct kh_flit *f, u32 type, u32 txn, u32 last)
{
	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(u, f, v->mx, v->my, type, txn, last);
}

/* A peer drain's flit: vec_cu.v:395-414 (txn and rsvd name a remote sink) */
static void ksim_vec_nd_flit(struct ksim_unit *u, struct ksim_vec *v,
			     struct kh_flit *f, u32 last)
{
	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(u, f, v->nd_x, v->nd_y, KH_T_CU_DATA, v->nd_fin, last);
	if (v->nd_fin)
		kh_flit_set(f, KH_HDR_RSVD, 4 | v->nd_mesh);
}

static void ksim_vec_nd_issue(struct ksim_unit *u, struct ksim_vec *v,
			      u64 now, u32 word)
{
	struct kh_flit f;

	if (!v->nd_cnt) {
		/* the descriptor goes first and takes no request */
		ksim_vec_nd_flit(u, v, &f, 0);
		kh_flit_set(&f, KH_DATA_BUF_ID, v->nd_buf);
		kh_flit_set(&f, KH_DATA_OFFSET, v->nd_off);
		kh_flit_set(&f, KH_DATA_LEN, v->nd_len);
		kh_flit_set(&f, KH_DATA_FLAGS, v->nd_sig);
		kh_flit_set(&f, KH_DATA_ACK_Y, v->nd_ack >> 4);
		kh_flit_set(&f, KH_DATA_ACK_X, v->nd_ack & 15);
		ksim_vec_sendq_push(v, &f, now + 1, false);
	}
	ksim_vec_nd_flit(u, v, &f, (v->nd_cnt & 0xff) == v->nd_len);
	memcpy(&f.w[0], v->l1[word], sizeof(v->l1[0]));
	ksim_vec_sendq_push(v, &f, now + (v->nd_cnt ? 1 : 2), true);
	v->nd_cnt++;
}

/**
 * ksim_vec_mem_step() - issue the walk's next entry if it may go now
 * @u: the unit.
 * @v: the core.
 * @now: the cycle.
 * @f1: set to the S_F1 cycle once the last entry is issued.
 *
 * Return: true when the walk is complete (*f1 set).
 */
bool ksim_vec_mem_step(struct ksim_unit *u, struct ksim_vec *v, u64 now,
		       u64 *f1)
{
	struct kh_flit f;
	u64 addr;
	u32 tag;

	/* the last request must have left; the walk paces itself at 3 */
	if (now < v->mem_next || (v->mem_last && now < v->mem_last + 3))
		return false;
	addr = ksim_vec_agu_addr(&v->agu);
	tag = v->l1_cur;
	if (v->kst == KSIM_VEC_K_FILL) {
		ksim_vec_mem_req(u, v, &f, KH_T_MEM_RD_REQ, tag & 0xff, 1);
		kh_flit_set(&f, KH_MEM_ADDR, addr);
		v->fill_bank[tag & 0xff] = (u8)(tag >> 8);
		v->fill_out++;
		ksim_vec_sendq_push(v, &f, now + 1, true);
	} else if (v->nd) {
		ksim_vec_nd_issue(u, v, now, tag);
	} else {
		ksim_vec_mem_req(u, v, &f, KH_T_MEM_WR_REQ, KH_VEC_WR_TXN, 0);
		kh_flit_set(&f, KH_MEM_ADDR, addr);
		ksim_vec_sendq_push(v, &f, now + 1, true);
		ksim_vec_mem_req(u, v, &f, KH_T_MEM_WR_DATA, KH_VEC_WR_TXN, 1);
		memcpy(&f.w[0], v->l1[tag], sizeof(v->l1[0]));
		ksim_vec_sendq_push(v, &f, now + 2, false);
	}
	ksim_vec_agu_step(&v->agu);
	v->l1_cur = (v->l1_cur + 1) & (KH_VEC_L1_WORDS - 1);
	v->mem_last = now;
	v->mem_next = ~0ULL;	/* until the request leaves (port.c) */
	if (--v->mem_left)
		return false;
	/* S_FILL / S_DRA sees mem_left == 0 the next cycle */
	*f1 = now + 2;
	return true;
}
