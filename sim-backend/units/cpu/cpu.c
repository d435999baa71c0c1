// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cpu unit (token `cpu`, cu_type 'RV', KohakuAccel rv_pe): the unit
 * type, the cycle, the kick and the retirement (rv_pe.v:292-358,
 * rv_core.v:208-251; docs/spec/cpu.md).
 *
 * The kick.  The head CU_INST is taken only while the receive path is
 * quiet (nothing in the receive FIFO, no granule being walked, no CU_DATA
 * burst open), so a kick never overtakes the image it announces
 * (rv_pe.v:299, 319-334).  An instruction with opcode 1 starts the core
 * at its PC with its argument: cycle and retirement counters and the halt
 * cause cleared; registers, windows, the L1 and the predictor keep what
 * they hold.  Any other opcode retires two cycles later without running
 * anything, with what the last halt left (rv_pe.v:338-341, 350-354).
 *
 * The retirement.  Once the core has halted, its pipeline is empty, the
 * requestor is idle (nothing held, no fill, no push waiting) and no write
 * is unacknowledged (rv_pe.v:347-348), the instruction retires two cycles
 * later: exec_result = a0 for ECALL and EBREAK, the faulting PC for a
 * fault; exec_fault for EBREAK and a fault (rv_pe.v:350-354,
 * rv_core.v:214-222).  Dirty L1 lines are NOT written back by a halt: a
 * program flushes (KH_CPU_CTL_FLUSH) what the host must see.
 *
 * CU_DBG = {ret_ctr, cyc_ctr} (rv_pe.v:143): instructions retired and
 * cycles run since the last kick, frozen at the halt.
 *
 * A mesh reset keeps what the RTL's arrays keep without a reset clause
 * (the two windows, the register file and a0's copy, the L1's lines) and
 * clears the rest: states, counters, the halt cause, the L1's tags, the
 * predictor.
 */
#include "cpu.h"
#include "table.h"
#include <kohaku/kh_units.h>

struct ksim_cpu *ksim_cpu_of(struct ksim_unit *u)
{
	if (!u || ksim_unit_type_of(u) != &ksim_unit_cpu)
		return NULL;
	return ksim_unit_priv(u);
}

/* Everything a reset clears, and nothing it keeps. */
static void ksim_cpu_power_on(struct ksim_unit *u, struct ksim_cpu *s)
{
	unsigned int i;

	s->kst = KSIM_CPU_K_IDLE;
	s->run = s->halted = false;
	s->cause = KH_CPU_CAUSE_NONE;
	s->halt_pc = 0;
	s->boot = s->halt_at = 0;
	s->cyc_final = 0;
	s->ret = 0;
	s->wbq_n = 0;
	s->t_next = s->t_look = 0;
	for (i = 0; i < 32; i++)
		s->ready[i] = 0;
	memset(&s->mem, 0, sizeof(s->mem));
	s->ct = KSIM_CPU_CT_IDLE;
	ksim_cpu_l1_reset(s);
	s->miss_req = false;
	s->rst = KSIM_CPU_S_IDLE;
	s->out_valid = false;
	s->rd_pend = false;
	s->rd_tag = 0;
	s->n_out = 0;
	s->pq_valid = false;
	s->gw_free = 0;
	s->gw_next = KH_CPU_GRANULE_WORDS;
	ksim_cpu_btb_reset(s);
	ksim_unit_mag_port(u, &s->mx, &s->my);
	ksim_unit_set_dbg(u, 0);
}

static int ksim_cpu_init(struct ksim_unit *u)
{
	ksim_cpu_power_on(u, ksim_unit_priv(u));
	return 0;
}

static void ksim_cpu_reset(struct ksim_unit *u)
{
	ksim_cpu_power_on(u, ksim_unit_priv(u));
}

/* The kick's state machine, in cycle now. */
static bool ksim_cpu_kick(struct ksim_unit *u, struct ksim_cpu *s, u64 now,
			  bool quiet)
{
	const struct kh_flit *f;
	unsigned int i, op;
	u32 pc, arg;

	switch (s->kst) {
	case KSIM_CPU_K_IDLE:
		f = ksim_unit_inst(u);
		if (!f || !quiet)
			return false;
		op = kh_flit_get(f, KH_CPU_INST_OP);
		pc = (u32)kh_flit_get(f, KH_CPU_INST_PC);
		arg = (u32)kh_flit_get(f, KH_CPU_INST_ARG);
		ksim_unit_inst_accept(u);
		if (op != KH_CPU_OP_KICK) {
			s->kst = KSIM_CPU_K_DONE;
			s->done_at = now + 2;
			return true;
		}
		s->pc = pc;
		s->arg = arg;
		/* boot_v next cycle; the first fetch is out the one after */
		ksim_cpu_retired(s, now);
		s->ret = 0;
		s->boot = now + 2;
		s->t_next = s->t_look = now + 4;
		s->run = true;
		s->halted = false;
		s->cause = KH_CPU_CAUSE_NONE;
		for (i = 0; i < 32; i++)
			s->ready[i] = 0;
		s->kst = KSIM_CPU_K_RUN;
		return true;
	case KSIM_CPU_K_RUN:
		if (!s->halted || now < s->halt_at + 3 ||
		    !ksim_cpu_req_idle(s) || s->n_out)
			return false;
		s->kst = KSIM_CPU_K_DONE;
		s->done_at = now + 2;
		return true;
	default:
		if (now < s->done_at)
			return false;
		ksim_unit_retire(u, s->cause == KH_CPU_CAUSE_FAULT ?
				 s->halt_pc : s->x[10],
				 s->cause == KH_CPU_CAUSE_EBREAK ||
				 s->cause == KH_CPU_CAUSE_FAULT);
		s->kst = KSIM_CPU_K_IDLE;
		return true;
	}
}

static bool ksim_cpu_busy(const struct ksim_cpu *s, u64 now)
{
	return s->run || s->kst != KSIM_CPU_K_IDLE || s->wbq_n ||
	       !ksim_cpu_req_idle(s) || s->n_out || s->l1 != KSIM_CPU_L_IDLE ||
	       now < s->gw_free || s->mem.kind != KSIM_CPU_M_NONE ||
	       s->ct != KSIM_CPU_CT_IDLE || s->resp_valid;
}

static bool ksim_cpu_tick(struct ksim_unit *u)
{
	struct ksim_cpu *s = ksim_unit_priv(u);
	u64 now = ksim_unit_now(u);
	bool quiet = ksim_cpu_rx_quiet(u, s);
	bool did;

	did = ksim_cpu_rx(u, s, now);
	did |= ksim_cpu_req(u, s);
	did |= ksim_cpu_mem(u, s, now);
	did |= ksim_cpu_l1(s, now);
	did |= ksim_cpu_ex(u, s, now);
	did |= ksim_cpu_kick(u, s, now, quiet);
	ksim_unit_set_dbg(u, (u64)ksim_cpu_retired(s, now) << 32 |
			     ksim_cpu_cycles(s, now));
	return did || ksim_cpu_busy(s, now);
}

const struct ksim_unit_type ksim_unit_cpu = {
	.token = "cpu",
	.name = "control processor",
	.cu_type = KH_CU_RV,
	.cu_version = KH_CPU_VERSION,
	.cu_version_fixed = true,	/* rv_pe.v:133 */
	.n_buffers = KH_CPU_NBUF,
	.priv_size = sizeof(struct ksim_cpu),
	.init = ksim_cpu_init,
	.tick = ksim_cpu_tick,
	.reset = ksim_cpu_reset,
	.recv_types = (1u << KH_T_MEM_RD_RESP) | (1u << KH_T_MEM_WR_ACK) |
		      (1u << KH_T_CU_DATA),
	.cudata = &ksim_cpu_cd,
};
