// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit's MEM stage (rv_mem.v): the access of the load or store
 * that left EX last cycle, to the region its address decoded to there
 * (the decode and its faults are in core.c):
 *
 *   scratchpad   addr[12:2] of the 2048-word array, byte enables on a
 *                store; never stalls
 *   control      addr[7:2] selects a word (rv_mem.v:194-250); a load
 *                reads it as it stands this cycle; a store to FLUSH or
 *                INVAL starts the sweep and holds MEM until it is done
 *                (CT_IDLE -> WAIT -> RUN -> DONE, rv_mem.v:208-236), a
 *                store to any other word does nothing
 *   peer         a store goes into the requestor's one-entry push
 *                register; MEM holds while it is full (rv_mem.v:257-258,
 *                rv_noc_req.v:114-147, 253-262)
 *   DRAM         through the L1: a hit completes now, a miss holds MEM
 *                until the line is in (l1.c)
 *
 * A load's value is extracted in WB from the word by its size, sign and
 * addr[1:0] (rv_mem.v:288-317).  The stage also keeps the two counters
 * a program reads (rv_core.v:227-251): cycles since the kick (cyc_q,
 * counting while the core runs) and instructions retired (ret_q, one per
 * instruction leaving WB, the halting one included).
 */
#include "cpu.h"

void ksim_cpu_wb(struct ksim_cpu *s, u64 at)
{
	if (s->wbq_n == KSIM_CPU_WB_Q) {
		/* cannot happen: at most three are between EX and WB */
		s->ret++;
		s->retired_total++;
		memmove(&s->wbq[0], &s->wbq[1], --s->wbq_n * sizeof(s->wbq[0]));
	}
	s->wbq[s->wbq_n++] = at;
}

/* ret_q in cycle now: the instructions whose WB cycle is over. */
u32 ksim_cpu_retired(struct ksim_cpu *s, u64 now)
{
	unsigned int i = 0;

	while (i < s->wbq_n && s->wbq[i] < now)
		i++;
	if (i) {
		s->ret += i;
		s->retired_total += i;
		memmove(&s->wbq[0], &s->wbq[i],
			(s->wbq_n - i) * sizeof(s->wbq[0]));
		s->wbq_n -= i;
	}
	return s->ret;
}

/* cyc_q in cycle now. */
u32 ksim_cpu_cycles(const struct ksim_cpu *s, u64 now)
{
	if (!s->run)
		return s->cyc_final;
	return now >= s->boot ? (u32)(now - s->boot) : 0;
}

static u32 ksim_cpu_ctl_read(struct ksim_unit *u, struct ksim_cpu *s,
			     u32 addr, u64 now)
{
	switch (addr & 0xfc) {
	case KH_CPU_CTL_STATUS:
		return (ksim_cpu_l1_sweeping(s) ? KH_CPU_CTL_STATUS_SWEEP : 0) |
		       (s->n_out ? KH_CPU_CTL_STATUS_WROUT : 0);
	case KH_CPU_CTL_CAUSE:
		return s->cause;
	case KH_CPU_CTL_COREID:
		return ((ksim_unit_y(u) & 0xf) << 4) | (ksim_unit_x(u) & 0xf);
	case KH_CPU_CTL_ARG:
		return s->arg;
	case KH_CPU_CTL_CYCLE:
		return ksim_cpu_cycles(s, now);
	case KH_CPU_CTL_INSTRET:
		return ksim_cpu_retired(s, now);
	case KH_CPU_CTL_WROUT:
		return s->n_out & 0xffff;
	default:
		return 0;
	}
}

/* The loaded value from the 32-bit word w (rv_mem.v:297-317). */
static u32 ksim_cpu_extract(unsigned int f3, u32 addr, u32 w)
{
	u32 half = (addr & 2) ? w >> 16 : w & 0xffff;
	u32 byte = (w >> (8 * (addr & 3))) & 0xff;

	switch (f3) {
	case 0:
		return (byte ^ 0x80) - 0x80;
	case 1:
		return (half ^ 0x8000) - 0x8000;
	case 4:
		return byte;
	case 5:
		return half;
	default:
		return w;
	}
}

/* old with the bytes of d its byte enables select. */
static u32 ksim_cpu_merge(u32 old, unsigned int be, u32 d)
{
	u32 m = 0;
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (be & (1u << i))
			m |= 0xffu << (8 * i);
	return (old & ~m) | (d & m);
}

/* A line's word at b (little-endian bytes, as the memory word is). */
static u32 ksim_cpu_le32(const u8 *b)
{
	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static void ksim_cpu_put_le32(u8 *b, u32 v)
{
	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
	b[2] = (u8)(v >> 16);
	b[3] = (u8)(v >> 24);
}

/* The control-word handshake of a FLUSH/INVAL store.  True when done. */
static bool ksim_cpu_ct(struct ksim_cpu *s, bool inval, u64 now)
{
	switch (s->ct) {
	case KSIM_CPU_CT_IDLE:
		s->ct = KSIM_CPU_CT_WAIT;
		s->ct_inval = inval;
		s->ct_pulse_at = now + 1;
		return false;
	case KSIM_CPU_CT_WAIT:
		if (ksim_cpu_l1_sweeping(s))
			s->ct = KSIM_CPU_CT_RUN;
		return false;
	case KSIM_CPU_CT_RUN:
		if (!ksim_cpu_l1_sweeping(s))
			s->ct = KSIM_CPU_CT_DONE;
		return false;
	default:
		s->ct = KSIM_CPU_CT_IDLE;
		return true;
	}
}

/* The access, if it can complete in cycle now; its loaded word in *w. */
static bool ksim_cpu_access(struct ksim_unit *u, struct ksim_cpu *s,
			    struct ksim_cpu_mem *m, u64 now, u32 *w)
{
	u32 a = m->addr;
	u32 *p;
	u8 *b;

	switch (m->kind) {
	case KSIM_CPU_M_SPAD:
		p = &s->spad[(a >> 2) & (KH_CPU_SPAD_WORDS - 1)];
		if (m->store)
			*p = ksim_cpu_merge(*p, m->be, m->sdata);
		*w = *p;
		return true;
	case KSIM_CPU_M_CTL:
		if (m->store) {
			unsigned int idx = a & 0xfc;

			if (idx == KH_CPU_CTL_FLUSH || idx == KH_CPU_CTL_INVAL)
				return ksim_cpu_ct(s, idx == KH_CPU_CTL_INVAL,
						   now);
			return true;
		}
		*w = ksim_cpu_ctl_read(u, s, a, now);
		return true;
	case KSIM_CPU_M_PEER:
		if (!s->pq_ready)
			return false;
		s->pq_valid = true;
		s->pq_x = (a >> 24) & 0xf;
		s->pq_y = (a >> 20) & 0xf;
		s->pq_win = (a >> 19) & 1;
		s->pq_gran = (a >> 5) & 0x3fff;
		s->pq_sel = (a >> 2) & 7;
		s->pq_be = m->be;
		s->pq_data = m->sdata;
		return true;
	case KSIM_CPU_M_DRAM:
		if (s->l1 != KSIM_CPU_L_IDLE)
			return false;
		if (!ksim_cpu_l1_hit(s, a)) {
			s->miss_req = true;
			s->miss_addr = a;
			return false;
		}
		b = s->line[KSIM_CPU_L1_IDX(a)].b + (a & 0x1c);
		if (m->store) {
			ksim_cpu_put_le32(b, ksim_cpu_merge(ksim_cpu_le32(b),
							    m->be, m->sdata));
			s->line[KSIM_CPU_L1_IDX(a)].dirty = true;
		}
		*w = ksim_cpu_le32(b);
		return true;
	default:
		return true;
	}
}

/* The instruction in MEM, in cycle now.  True when it completed. */
bool ksim_cpu_mem(struct ksim_unit *u, struct ksim_cpu *s, u64 now)
{
	struct ksim_cpu_mem *m = &s->mem;
	u32 w = 0;

	s->miss_req = false;
	if (m->kind == KSIM_CPU_M_NONE || now < m->at)
		return false;
	if (!ksim_cpu_access(u, s, m, now, &w))
		return false;
	if (!m->store && m->rd) {
		s->x[m->rd] = ksim_cpu_extract(m->f3, m->addr, w);
		s->ready[m->rd] = now + 2;
	}
	ksim_cpu_wb(s, now + 1);
	m->kind = KSIM_CPU_M_NONE;
	/* the instruction held in EX behind it issues now at the earliest */
	if (s->t_next < now)
		s->t_next = now;
	return true;
}
