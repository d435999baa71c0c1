// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector core vec_cu (token `vec`, cu_type 'VC'; docs/spec/vec.md):
 * the unit type and the CU instruction handling of vec_cu.v:440-500.
 *
 *   IMEM  writes one instruction-memory word, DESC one descriptor field;
 *         both retire the cycle after they are taken, result 0.
 *   RUN   starts the kernel at pc and retires when it halts (result =
 *         kernel cycles) or faults (SIG_FAULT, result = the fault code).
 *   any other opcode retires as a no-op, result 0, like IMEM.
 *
 * No instruction is taken while a kernel runs.  CU_CAPS reports
 * N_BUFFERS = 2 as vec_cu.v:137 does, though only buffer 0 is accepted.
 * CU_DBG [31:0] is the kernel cycle count, cleared at RUN; the model
 * updates it at each kernel word, so a read during a run sees the count
 * as of the last word executed.
 */
#include "vec.h"
#include "table.h"
#include <kohaku/kh_regs.h>
#include <kohaku/kh_units.h>

static int ksim_vec_init(struct ksim_unit *u)
{
	struct ksim_vec *v = ksim_unit_priv(u);

	/* vec_core.v:386-406 and vec_agu.v:51-58: what reset sets */
	v->vl = KH_VEC_VLMAX;
	v->vmode = KH_VEC_MODE_FLAT;
	v->kreg[1] = KH_E8_ONE;
	v->kreg[2] = KH_E8_MINUS_ONE;
	ksim_vec_agu_reset(&v->agu);
	ksim_unit_mag_port(u, &v->mx, &v->my);
	return 0;
}

/**
 * ksim_vec_finish() - the kernel reaches S_HALT or S_FAULT
 * @u: the unit.
 * @v: the core.
 * @at: the cycle of that state.
 * @fault: S_FAULT.
 * @code: the fault code.
 *
 * vec_cu sees halted/fault the cycle after and raises exec_done the cycle
 * after that.
 */
void ksim_vec_finish(struct ksim_unit *u, struct ksim_vec *v, u64 at,
		     bool fault, u32 code)
{
	v->cycles = (u32)(at - v->t0 + 1);
	ksim_unit_set_dbg(u, v->cycles);
	v->fault = fault;
	v->result = fault ? code : v->cycles;
	v->ret_at = at + 2;
	v->cst = KSIM_VEC_C_DONE;
}

static void ksim_vec_accept(struct ksim_unit *u, struct ksim_vec *v,
			    const struct kh_flit *f, u64 now)
{
	u32 op = (u32)kh_flit_get(f, KH_VEC_CU_OP);
	u32 addr = (u32)kh_flit_get(f, KH_VEC_CU_ADDR);

	v->fault = false;
	v->result = 0;
	v->ret_at = now + 1;
	v->cst = KSIM_VEC_C_RET;
	switch (op) {
	case KH_VEC_CU_IMEM:
		v->imem[addr] = (u32)kh_flit_get(f, KH_VEC_CU_WORD);
		break;
	case KH_VEC_CU_DESC:
		ksim_vec_agu_write(&v->agu, (u32)kh_flit_get(f, KH_VEC_CU_AD),
				   (u32)kh_flit_get(f, KH_VEC_CU_FLD),
				   kh_flit_get(f, KH_VEC_CU_VAL_LO) |
				   kh_flit_get(f, KH_VEC_CU_VAL_HI) <<
				   KH_VEC_CU_VAL_LO_BITS);
		break;
	case KH_VEC_CU_RUN:
		v->cst = KSIM_VEC_C_RUN;
		ksim_unit_set_dbg(u, 0);
		/* S_IDLE sees start the cycle after; a pending cd_err faults */
		ksim_vec_kernel_start(v, addr, now + 1);
		if (v->cd_err) {
			v->cd_err = false;
			ksim_vec_finish(u, v, now + 1, true, KH_VEC_F_CUDATA);
		}
		break;
	default:
		break;		/* retires as a no-op */
	}
	ksim_unit_inst_accept(u);
}

static bool ksim_vec_tick(struct ksim_unit *u)
{
	struct ksim_vec *v = ksim_unit_priv(u);
	u64 now = ksim_unit_now(u);
	const struct kh_flit *f;
	bool did = ksim_vec_receive(u, v);

	did |= ksim_vec_send(u, v, now);
	switch (v->cst) {
	case KSIM_VEC_C_IDLE:
		f = ksim_unit_inst(u);
		if (f) {
			ksim_vec_accept(u, v, f, now);
			did = true;
		}
		break;
	default:
		break;
	}
	if (v->cst == KSIM_VEC_C_RUN)
		did |= ksim_vec_kernel_step(u, v, now);
	if (v->cst == KSIM_VEC_C_RET || v->cst == KSIM_VEC_C_DONE) {
		if (now >= v->ret_at) {
			ksim_unit_retire(u, v->result, v->fault);
			v->cst = KSIM_VEC_C_IDLE;
			did = true;
		} else {
			ksim_unit_timer(u, v->ret_at);
		}
	}
	if (ksim_unit_cd_acks(u) || (v->sq_n && ksim_vec_sendq_next(v) <= now))
		ksim_unit_timer(u, now + 1);
	else if (v->sq_n)
		ksim_unit_timer(u, ksim_vec_sendq_next(v));
	return did;
}

const struct ksim_unit_type ksim_unit_vec = {
	.token = "vec",
	.name = "vector core",
	.cu_type = KH_CU_VC,
	.cu_version = KH_VEC_VERSION,	/* vec_cu.v:137 */
	.n_buffers = KH_VEC_NBUF,
	.priv_size = sizeof(struct ksim_vec),
	.init = ksim_vec_init,
	.tick = ksim_vec_tick,
	.cudata = &ksim_vec_cd,
	.clk_out = KH_CLK_OUT_VEC,
};
