// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit's receive path (rv_pe.v:153-290, 470-491): one flit a
 * cycle off the receive FIFO while no granule is being walked into a
 * window (recv_ready = !gw_busy, rv_pe.v:183), classified by type:
 *
 *   MEM_RD_RESP  to the requestor (a line fill)
 *   MEM_WR_ACK   to the requestor (counted, then dropped)
 *   CU_DATA      the window writer below
 *   anything     dropped (and counted)
 *
 * The window writer is the shared receiver (units/cudata.c) with the
 * policy below; it reassembles one burst at a time.  In its idle state
 * any CU_DATA flit is a descriptor; its buffer must be 0, 1 (granules)
 * or 4, 5 (one word per data flit; 2 and 6 only in DSP builds) and
 * offset + len < 256, else the burst is counted out and discarded: no
 * fault, no signal, no ack (rv_pe.v:205-211, 271; a $display is all the
 * RTL does).  Then len + 1 data flits from the descriptor's source are
 * counted; a CU_DATA flit from another source meanwhile is taken and
 * dropped (rv_pe.v:218-219, 484-487), and `last` is not checked.  A
 * granule is written as eight words, so recv_ready is low for the eight
 * cycles after a granule flit, while its words are written one a cycle
 * (rv_pe.v:259-262, 276-283).  A word flit writes the word at
 * {offset, sel}: into the scratchpad with its byte enables, into the
 * instruction window whole (rv_pe.v:213-249).  Nothing the unit
 * receives raises SIG_DATA_RECEIVED, whatever the descriptor's flags.
 */
#include "cpu.h"

bool ksim_cpu_rx_quiet(struct ksim_unit *u, struct ksim_cpu *s)
{
	return !ksim_unit_recv(u) && ksim_unit_now(u) >= s->gw_free &&
	       !ksim_unit_cd_open(u, NULL);
}

static bool ksim_cpu_buf_ok(unsigned int buf)
{
	return buf == KH_CPU_BUF_SPAD || buf == KH_CPU_BUF_IMEM ||
	       buf == KH_CPU_BUF_SPAD_W || buf == KH_CPU_BUF_IMEM_W;
}

static bool ksim_cpu_buf_imem(unsigned int buf)
{
	return buf == KH_CPU_BUF_IMEM || buf == KH_CPU_BUF_IMEM_W;
}

/* both windows are 256 granules: rejected, never wrapped */
static bool ksim_cpu_cd_ok(struct ksim_unit *u, unsigned int buf, u32 off,
			   u32 len)
{
	return ksim_cpu_buf_ok(buf) && off + len < KH_CPU_WINDOW_GRANULES;
}

static void ksim_cpu_cd_refuse(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_cpu *s = ksim_unit_priv(u);

	s->refused++;
	ksim_unit_drop(u, f, "CU_DATA burst does not fit a window");
}

static void ksim_cpu_cd_word(struct ksim_unit *u, unsigned int buf, u32 off,
			     const struct kh_flit *f)
{
	struct ksim_cpu *s = ksim_unit_priv(u);
	u64 now = ksim_unit_now(u);
	unsigned int base = (off & (KH_CPU_WINDOW_GRANULES - 1)) *
			    KH_CPU_GRANULE_WORDS;
	bool imem = ksim_cpu_buf_imem(buf);
	u32 *win = imem ? s->imem : s->spad;
	unsigned int i;

	if (buf == KH_CPU_BUF_SPAD || buf == KH_CPU_BUF_IMEM) {
		/* word k lands in cycle now + 1 + k (ksim_cpu_gw()) */
		for (i = 0; i < KH_CPU_GRANULE_WORDS; i++)
			s->gw_buf[i] = ksim_payload_u32(f->w, i);
		s->gw_win = win;
		s->gw_base = base;
		s->gw_next = 0;
		s->gw_free = now + 1 + KH_CPU_GRANULE_WORDS;
	} else {
		unsigned int a = base + kh_flit_get(f, KH_CPU_WORD_SEL);
		unsigned int be = imem ? 0xf : kh_flit_get(f, KH_CPU_WORD_BE);
		u32 d = kh_flit_get(f, KH_CPU_WORD_DATA), m = 0;

		for (i = 0; i < 4; i++)
			if (be & (1u << i))
				m |= 0xffu << (8 * i);
		win[a] = (win[a] & ~m) | (d & m);
	}
}

const struct ksim_cd_policy ksim_cpu_cd = {
	.ok = ksim_cpu_cd_ok,
	.word = ksim_cpu_cd_word,
	.refuse = ksim_cpu_cd_refuse,
	.foreign = KSIM_CD_FOREIGN_DROP,
	.ack = KSIM_CD_ACK_NEVER,
};

/*
 * The granule walk (rv_pe.v:228-240, 259-262): one word a cycle, word k
 * in the (k + 1)th cycle after the flit was taken.  The unit ticks every
 * cycle of the walk (ksim_cpu_busy()), so each lands in its own cycle,
 * before the MEM stage of that cycle reads (the scratchpad's write-to-
 * read bypass, rv_spad.v:98-113).
 */
static bool ksim_cpu_gw(struct ksim_cpu *s, u64 now)
{
	bool did = false;

	while (s->gw_next < KH_CPU_GRANULE_WORDS &&
	       s->gw_free - KH_CPU_GRANULE_WORDS + s->gw_next <= now) {
		s->gw_win[s->gw_base + s->gw_next] = s->gw_buf[s->gw_next];
		s->gw_next++;
		did = true;
	}
	return did;
}

/* One flit off the receive FIFO, if recv_ready.  True when one was. */
bool ksim_cpu_rx(struct ksim_unit *u, struct ksim_cpu *s, u64 now)
{
	const struct kh_flit *f;

	if (ksim_cpu_gw(s, now) || now < s->gw_free)
		return false;
	f = ksim_unit_recv(u);
	if (!f)
		return false;
	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_MEM_RD_RESP:
		ksim_cpu_req_resp(u, s, f, now);
		break;
	case KH_T_MEM_WR_ACK:
		ksim_cpu_req_ack(u, s, f);
		break;
	case KH_T_CU_DATA:
		if (!ksim_unit_cd_take(u, f))
			return false;
		break;
	default:
		ksim_unit_drop(u, f, "flit type not consumed by the cpu unit");
		break;
	}
	ksim_unit_recv_pop(u);
	return true;
}
