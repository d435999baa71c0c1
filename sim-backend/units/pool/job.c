// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CU_INST on the POOL unit (docs/spec/pool.md "Loading", "Jobs for the
 * firmware", "Faults"): the instruction the base offers is taken at the
 * end of a cycle in which nothing is in flight, and then
 *
 *   - with a refused CU_DATA burst since the last retirement, it retires
 *     the next cycle faulting KH_POOL_UNIT_LOAD (every retirement does:
 *     ksim_pool_retire());
 *   - a LOAD (opcode 0x2) runs here, in the unit;
 *   - with a core trapped since the last full reset, it retires the next
 *     cycle faulting KH_POOL_UNIT_HALTED;
 *   - with no core out of run-stall and reset, KH_POOL_UNIT_NOFW;
 *   - else it is the job in the job CSRs, with the next sequence number,
 *     until a core writes job_retire or job_fault (or a core traps); every
 *     core gets a wake-up event.
 *
 * Never retired in its accept cycle (seed 001 §4): the immediate ones
 * wait a cycle, a job is seen by the cores from the next cycle on.
 */
#include "pool.h"

u32 ksim_pool_job_status(const struct ksim_pool *p)
{
	return (u32)p->seq << 16 | (p->job ? KH_POOL_JOB_PRESENT : 0);
}

/*
 * Every retirement: a pending UNIT_LOAD replaces its code.  A bounds
 * refusal belongs to the job present at it only (bounds.c), so it is
 * forgotten here whatever path retires that job; the firmware's own
 * retirement of it carries UNIT_BOUNDS (ksim_pool_job_fw_end()).
 */
void ksim_pool_retire(struct ksim_pool *p, u32 result, bool fault)
{
	if (p->load_fault) {
		result = KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_LOAD);
		fault = true;
		p->load_fault = false;
	}
	ksim_unit_retire(p->u, result, fault);
	p->inst = KSIM_POOL_I_NONE;
	p->job = false;
	p->bounds_job = false;
}

/* job_retire / job_fault, a trap, all cores reset: the present job retires. */
void ksim_pool_job_end(struct ksim_pool *p, u32 value, bool fault)
{
	if (!p->job)
		return;		/* nothing present: ignored */
	ksim_pool_retire(p, value, fault);
}

/*
 * job_retire / job_fault: the firmware retires the present job.  A job
 * that met a bounds refusal retires UNIT_BOUNDS whatever the firmware
 * writes (pool.md "What a refused access does"), as a pending UNIT_LOAD
 * is carried; UNIT_LOAD, checked after, still wins (pool.md "Faults": the
 * order of the checks).  The unit's own retirements of it (a trap's, the
 * reset's NOFW) keep their code: they say more about the cluster, and the
 * driver reads BOUNDS_FAULT at the job's end anyway.
 */
void ksim_pool_job_fw_end(struct ksim_pool *p, u32 value, bool fault)
{
	if (p->job && p->bounds_job) {
		value = KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_BOUNDS);
		fault = true;
	}
	ksim_pool_job_end(p, value, fault);
}

static void ksim_pool_later(struct ksim_pool *p, u32 result, bool fault)
{
	p->inst = KSIM_POOL_I_RETIRE;
	p->ret_result = result;
	p->ret_fault = fault;
}

/* ---- LOAD ---- */

/* Every core the target needs in reset, as a mask; 0: no such target. */
static u8 ksim_pool_load_cores(unsigned int tgt)
{
	if (tgt == KH_POOL_BUF_IRAM || tgt == KH_POOL_LOAD_ALL_DRAM)
		return KSIM_POOL_ALL;
	if (tgt >= KH_POOL_BUF_DATARAM(0) &&
	    tgt < KH_POOL_BUF_DATARAM(KH_POOL_CORES))
		return 1u << (tgt - KH_POOL_BUF_DATARAM(0));
	return 0;
}

static void ksim_pool_load_start(struct ksim_pool *p, const u32 *w)
{
	struct ksim_pool_load *ld = &p->ld;
	u8 need;

	memset(ld, 0, sizeof(*ld));
	ld->tgt = KH_POOL_W7_SEL(w[7]);
	ld->off = w[KH_POOL_LOAD_W_OFFSET];
	ld->len = w[KH_POOL_LOAD_W_LEN];
	ld->src = (u64)w[1] << 32 | w[0];
	need = ksim_pool_load_cores(ld->tgt);
	/* every memory is 64 KiB (KH_POOL_IRAM_SIZE == KH_POOL_DRAM_SIZE) */
	if (!need || (p->rst & need) != need ||
	    ((ld->off | ld->len | ld->src) & (KSIM_POOL_WORD - 1)) ||
	    ld->off > KH_POOL_IRAM_SIZE || ld->len > KH_POOL_IRAM_SIZE - ld->off ||
	    !ksim_pool_addr_ok(p, ld->src, ld->len)) {
		ksim_pool_later(p, KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
						 KH_POOL_UNIT_LOAD), true);
		return;
	}
	if (!ld->len) {
		ksim_pool_later(p, 0, false);
		return;
	}
	p->inst = KSIM_POOL_I_LOAD;
}

bool ksim_pool_load_flit(struct ksim_pool *p, struct kh_flit *f)
{
	struct ksim_pool_load *ld = &p->ld;
	unsigned int s, beats;

	if (p->inst != KSIM_POOL_I_LOAD || ld->issued == ld->len)
		return false;
	for (s = 0; s < KSIM_POOL_LOAD_SLOTS; s++)
		if (!ld->rs[s].busy)
			break;
	beats = ksim_pool_rd_beats(p, ld->len - ld->issued);
	if (s == KSIM_POOL_LOAD_SLOTS || !ksim_pool_rd_ok(p, beats))
		return false;
	ksim_pool_rd_req(p, f, ld->src + ld->issued, beats,
			 KSIM_POOL_TXN_LOAD(s));
	ld->rs[s].busy = true;
	ld->rs[s].beats = beats;
	ld->rs[s].got = 0;
	ld->rs[s].off = ld->off + ld->issued;
	ld->issued += beats * KSIM_POOL_WORD;
	return true;
}

bool ksim_pool_load_beat(struct ksim_pool *p, unsigned int s,
			 const struct kh_flit *f)
{
	struct ksim_pool_load *ld = &p->ld;
	struct ksim_pool_rslot *r = &ld->rs[s];
	u32 off;
	unsigned int i;

	if (!r->busy || p->inst != KSIM_POOL_I_LOAD)
		return false;
	off = r->off + r->got * KSIM_POOL_WORD;
	if (ld->tgt == KH_POOL_BUF_IRAM) {
		ksim_payload_to_bytes(p->iram + off, f->w);
		ksim_pool_iram_written(p, off, KSIM_POOL_WORD);
	} else if (ld->tgt == KH_POOL_LOAD_ALL_DRAM) {
		for (i = 0; i < KH_POOL_CORES; i++)
			ksim_payload_to_bytes(p->core[i].dram + off, f->w);
	} else {
		ksim_payload_to_bytes(p->core[ld->tgt -
				      KH_POOL_BUF_DATARAM(0)].dram + off, f->w);
	}
	if (++r->got == r->beats)
		r->busy = false;
	ld->landed += KSIM_POOL_WORD;
	if (ld->landed == ld->len)
		ksim_pool_retire(p, ld->len, false);
	return true;
}

/* ---- the next instruction ---- */

void ksim_pool_accept(struct ksim_pool *p)
{
	const struct kh_flit *f;
	unsigned int i;
	u32 w[8];

	if (p->inst != KSIM_POOL_I_NONE)
		return;
	f = ksim_unit_inst(p->u);
	if (!f)
		return;
	for (i = 0; i < 8; i++)
		w[i] = ksim_payload_u32(f->w, i);
	ksim_unit_inst_accept(p->u);
	p->accept_at = p->now;
	if (p->load_fault)
		ksim_pool_later(p, 0, false);	/* faults UNIT_LOAD */
	else if (KH_POOL_W7_OPCODE(w[7]) == KH_POOL_OP_LOAD)
		ksim_pool_load_start(p, w);
	else if (p->dead)
		ksim_pool_later(p, KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
						 KH_POOL_UNIT_HALTED), true);
	else if (!(ksim_pool_running(p) & KSIM_POOL_ALL))
		ksim_pool_later(p, KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
						 KH_POOL_UNIT_NOFW), true);
	else {
		memcpy(p->jw, w, sizeof(w));
		p->job = true;
		p->seq++;
		p->inst = KSIM_POOL_I_JOB;
		ksim_pool_event(p, KSIM_POOL_ALL);
	}
}
