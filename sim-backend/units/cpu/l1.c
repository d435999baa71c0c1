// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit's internal L1 (rv_l1.v): 128 lines of 32 bytes over the
 * DRAM window, direct mapped (index addr[11:5], tag addr[30:12]), write
 * back, write allocate, one blocking miss.  Nothing outside the unit
 * writes it and nothing keeps it coherent: a line read once is served
 * from here until it is evicted or invalidated, and a store stays here
 * until the line is evicted or flushed (rv_l1.v:4-9, 28-33).  Lines, tags
 * and dirty bits persist across kicks; a mesh reset clears the tags.
 *
 * One state per RTL state, stepped once per cycle (rv_l1.v:200-315):
 *
 *   miss, victim dirty: EV_RD 9 cycles, EV_SEND until the requestor takes
 *                       the write-back, then F_REQ
 *   miss, clean:        F_REQ until the requestor takes the fill, F_WAIT
 *                       for the response (seen the cycle after it is
 *                       received), F_WR 8 cycles, then the access hits
 *   flush-all:          S_SCAN, S_TEST per line; a dirty one S_RD 9
 *                       cycles and S_SEND; then S_DRAIN until no write is
 *                       unacknowledged, REPROBE
 *   invalidate-all:     I_SCAN one line per cycle, REPROBE
 *
 * The MEM stage (mem.c) presents a miss in `miss_req`; the requestor
 * (req.c) takes `fill_valid` / `wb_valid` and says so in `fill_taken` /
 * `wb_taken` before this runs in the same cycle.  The power-on sweep
 * after reset (one line per cycle, rv_l1.v:169-171) is not modelled.
 */
#include "cpu.h"

bool ksim_cpu_l1_hit(const struct ksim_cpu *s, u32 addr)
{
	const struct ksim_cpu_line *l = &s->line[KSIM_CPU_L1_IDX(addr)];

	return l->valid && l->tag == KSIM_CPU_L1_TAG(addr);
}

bool ksim_cpu_l1_sweeping(const struct ksim_cpu *s)
{
	switch (s->l1) {
	case KSIM_CPU_L_S_SCAN:
	case KSIM_CPU_L_S_TEST:
	case KSIM_CPU_L_S_RD:
	case KSIM_CPU_L_S_SEND:
	case KSIM_CPU_L_S_DRAIN:
	case KSIM_CPU_L_I_SCAN:
		return true;
	default:
		return false;
	}
}

void ksim_cpu_l1_reset(struct ksim_cpu *s)
{
	unsigned int i;

	for (i = 0; i < KH_CPU_L1_LINES; i++) {
		s->line[i].valid = false;
		s->line[i].dirty = false;
	}
	s->l1 = KSIM_CPU_L_IDLE;
	s->fill_valid = s->wb_valid = false;
	s->resp_valid = false;
}

static u32 ksim_cpu_line_addr(const struct ksim_cpu *s, unsigned int idx)
{
	return (s->line[idx].tag << 12) | (idx << 5);
}

/* A dirty line out to the requestor. */
static void ksim_cpu_l1_wb(struct ksim_cpu *s, unsigned int idx)
{
	s->wb_addr = ksim_cpu_line_addr(s, idx);
	memcpy(s->wb_data, s->line[idx].b, sizeof(s->wb_data));
	s->wb_valid = true;
}

static void ksim_cpu_l1_fill_req(struct ksim_cpu *s)
{
	s->fill_addr = s->miss_addr & KH_CPU_DRAM_MASK & ~31u;
	s->fill_valid = true;
	s->l1 = KSIM_CPU_L_F_REQ;
}

/* One cycle.  True when anything moved. */
bool ksim_cpu_l1(struct ksim_cpu *s, u64 now)
{
	struct ksim_cpu_line *l;
	bool flush = s->ct != KSIM_CPU_CT_IDLE && s->ct_pulse_at == now;

	switch (s->l1) {
	case KSIM_CPU_L_IDLE:
		if (flush) {
			s->scan = 0;
			s->l1 = s->ct_inval ? KSIM_CPU_L_I_SCAN : KSIM_CPU_L_S_SCAN;
			return true;
		}
		if (!s->miss_req)
			return false;
		s->vic = KSIM_CPU_L1_IDX(s->miss_addr);
		l = &s->line[s->vic];
		if (l->valid && l->dirty) {
			s->l1_cnt = 0;
			s->l1 = KSIM_CPU_L_EV_RD;
		} else {
			ksim_cpu_l1_fill_req(s);
		}
		return true;
	case KSIM_CPU_L_EV_RD:
	case KSIM_CPU_L_S_RD:
		/* eight word reads, the last word one cycle behind */
		if (++s->l1_cnt < 9)
			return true;
		if (s->l1 == KSIM_CPU_L_EV_RD) {
			ksim_cpu_l1_wb(s, s->vic);
			s->l1 = KSIM_CPU_L_EV_SEND;
		} else {
			ksim_cpu_l1_wb(s, s->scan);
			s->l1 = KSIM_CPU_L_S_SEND;
		}
		return true;
	case KSIM_CPU_L_EV_SEND:
		if (!s->wb_taken)
			return false;
		s->wb_valid = false;
		/* no dirty clear: the fill rewrites the whole line */
		ksim_cpu_l1_fill_req(s);
		return true;
	case KSIM_CPU_L_F_REQ:
		if (!s->fill_taken)
			return false;
		s->fill_valid = false;
		s->l1 = KSIM_CPU_L_F_WAIT;
		return true;
	case KSIM_CPU_L_F_WAIT:
		if (!s->resp_valid || now < s->resp_at)
			return false;
		s->resp_valid = false;
		l = &s->line[s->vic];
		memcpy(l->b, s->resp_data, sizeof(l->b));
		l->tag = KSIM_CPU_L1_TAG(s->miss_addr);
		l->valid = true;
		l->dirty = false;
		s->l1_cnt = 0;
		s->l1 = KSIM_CPU_L_F_WR;
		return true;
	case KSIM_CPU_L_F_WR:
		if (++s->l1_cnt == 8)
			s->l1 = KSIM_CPU_L_IDLE;
		return true;
	case KSIM_CPU_L_S_SCAN:
		s->l1 = s->scan == KH_CPU_L1_LINES ? KSIM_CPU_L_S_DRAIN :
						     KSIM_CPU_L_S_TEST;
		return true;
	case KSIM_CPU_L_S_TEST:
		/* dirty implies valid: only a store hit sets it */
		if (s->line[s->scan].dirty) {
			s->l1_cnt = 0;
			s->l1 = KSIM_CPU_L_S_RD;
		} else {
			s->scan++;
			s->l1 = KSIM_CPU_L_S_SCAN;
		}
		return true;
	case KSIM_CPU_L_S_SEND:
		if (!s->wb_taken)
			return false;
		s->wb_valid = false;
		s->line[s->scan].dirty = false;
		s->scan++;
		s->l1 = KSIM_CPU_L_S_SCAN;
		return true;
	case KSIM_CPU_L_S_DRAIN:
		if (s->n_out)
			return false;
		s->l1 = KSIM_CPU_L_REPROBE;
		return true;
	case KSIM_CPU_L_I_SCAN:
		if (s->scan == KH_CPU_L1_LINES) {
			s->l1 = KSIM_CPU_L_REPROBE;
		} else {
			s->line[s->scan].valid = false;
			s->line[s->scan].dirty = false;
			s->scan++;
		}
		return true;
	case KSIM_CPU_L_REPROBE:
	default:
		s->l1 = KSIM_CPU_L_IDLE;
		return true;
	}
}
