// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit's NoC requestor (rv_noc_req.v): the only source of the
 * unit's outbound flits.  One flit is held in `out` (send_flit) until the
 * base takes it; a new one is chosen in a cycle the register is free
 * (rv_noc_req.v:128), in priority order (rv_noc_req.v:132-143):
 *
 *   a line fill   one MEM_RD_REQ to the MAG port: an entry read of one
 *                 32-byte entry (STREAM, count 1, entry_words 1, len 0),
 *                 txn the 4-bit rotating tag; only with no read
 *                 outstanding
 *   a write-back  MEM_WR_REQ (txn 0x20, len 0), then its MEM_WR_DATA
 *                 (last) in the next free cycle; only with no write
 *                 unacknowledged (WR_MAX 1): the count goes up when the
 *                 descriptor is chosen, down on each MEM_WR_ACK
 *   a push        a CU_DATA descriptor to the store's (x, y) (buffer 4 or
 *                 5, offset = the granule, len 0, flags 0, ack 0, txn
 *                 0), then one data flit (last) carrying {sel, be, data}
 *                 in payload [38:0]
 *
 * The physical address is DRAM_BASE | addr[30:0] with DRAM_BASE 0 in the
 * modelled build (rv_noc_req.v:149-150).  A response whose txn[3:0] is
 * not the outstanding tag is dropped (rv_noc_req.v:264, 277).
 */
#include "cpu.h"

bool ksim_cpu_req_idle(const struct ksim_cpu *s)
{
	return s->rst == KSIM_CPU_S_IDLE && !s->out_valid && !s->rd_pend &&
	       !s->pq_valid;
}

void ksim_cpu_req_resp(struct ksim_unit *u, struct ksim_cpu *s,
		       const struct kh_flit *f, u64 now)
{
	unsigned int txn = kh_flit_get(f, KH_HDR_TXN);

	if (!s->rd_pend || (txn & KH_CPU_TXN_FILL_MASK) != s->rd_tag) {
		ksim_unit_drop(u, f, "MEM_RD_RESP with no matching fill");
		return;
	}
	ksim_payload_to_bytes(s->resp_data, f->w);
	s->resp_valid = true;
	s->resp_at = now + 1;
	s->rd_pend = false;
	s->rd_tag = (s->rd_tag + 1) & KH_CPU_TXN_FILL_MASK;
}

void ksim_cpu_req_ack(struct ksim_unit *u, struct ksim_cpu *s,
		      const struct kh_flit *f)
{
	if (!s->n_out) {
		ksim_unit_drop(u, f, "MEM_WR_ACK with no write outstanding");
		return;
	}
	s->n_out--;
}

static void ksim_cpu_req_mem(struct ksim_unit *u, struct ksim_cpu *s,
			     struct kh_flit *f, unsigned int type,
			     unsigned int txn, u32 addr)
{
	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(u, f, s->mx, s->my, type, txn, 0);
	kh_flit_set(f, KH_MEM_ADDR, addr & KH_CPU_DRAM_MASK);
	kh_flit_set(f, KH_MEM_LEN, 0);
}

/* One cycle.  True when anything moved. */
bool ksim_cpu_req(struct ksim_unit *u, struct ksim_cpu *s)
{
	bool did = false, tx_free;

	s->fill_taken = s->wb_taken = false;
	s->pq_ready = !s->pq_valid;
	if (s->out_valid && ksim_unit_send(u, &s->out)) {
		s->out_valid = false;
		did = true;
	}
	tx_free = !s->out_valid;
	if (!tx_free)
		return did;
	if (s->rst == KSIM_CPU_S_DATA) {
		s->out = s->hold;
		s->out_valid = true;
		s->rst = KSIM_CPU_S_IDLE;
		return true;
	}
	if (s->fill_valid && !s->rd_pend) {
		ksim_cpu_req_mem(u, s, &s->out, KH_T_MEM_RD_REQ, s->rd_tag,
				 s->fill_addr);
		kh_flit_set(&s->out, KH_MEM_FLAGS, KH_MEMF_STREAM);
		kh_flit_set(&s->out, KH_MEM_COUNT, 1);
		kh_flit_set(&s->out, KH_MEM_ENTRY_WORDS, 1);
		s->out_valid = true;
		s->rd_pend = true;
		s->fill_taken = true;
		s->fills++;
		return true;
	}
	if (s->wb_valid && s->n_out < 1) {
		ksim_cpu_req_mem(u, s, &s->out, KH_T_MEM_WR_REQ, KH_CPU_TXN_WB,
				 s->wb_addr);
		memset(&s->hold, 0, sizeof(s->hold));
		ksim_unit_hdr(u, &s->hold, s->mx, s->my, KH_T_MEM_WR_DATA,
			      KH_CPU_TXN_WB, 1);
		ksim_bytes_to_payload(s->hold.w, s->wb_data);
		s->out_valid = true;
		s->n_out++;
		s->rst = KSIM_CPU_S_DATA;
		s->wb_taken = true;
		s->writebacks++;
		return true;
	}
	if (s->pq_valid) {
		memset(&s->out, 0, sizeof(s->out));
		ksim_unit_hdr(u, &s->out, s->pq_x, s->pq_y, KH_T_CU_DATA, 0, 0);
		kh_flit_set(&s->out, KH_DATA_BUF_ID,
			    s->pq_win ? KH_CPU_BUF_IMEM_W : KH_CPU_BUF_SPAD_W);
		kh_flit_set(&s->out, KH_DATA_OFFSET, s->pq_gran);
		memset(&s->hold, 0, sizeof(s->hold));
		ksim_unit_hdr(u, &s->hold, s->pq_x, s->pq_y, KH_T_CU_DATA, 0, 1);
		kh_flit_set(&s->hold, KH_CPU_WORD_SEL, s->pq_sel);
		kh_flit_set(&s->hold, KH_CPU_WORD_BE, s->pq_be);
		kh_flit_set(&s->hold, KH_CPU_WORD_DATA, s->pq_data);
		s->out_valid = true;
		s->pq_valid = false;
		s->rst = KSIM_CPU_S_DATA;
		s->pushes++;
		return true;
	}
	return did;
}
