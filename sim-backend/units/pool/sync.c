// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The instructions that meet the outside, executed at their mesh cycle
 * (the interpreter stops in front of them, iss_exec.c): the job CSRs, the
 * barrier, the iDMA CSRs, WFI, FENCE, the window accesses (window.c) and
 * core 0's accesses to its boot mailbox, which the host reads and writes
 * too (BOOT/FW_VERSION/API_VERSION, the CLAIM word); and traps (docs/spec/pool.md "The cores", "The cluster barrier",
 * "Faults").
 *
 * WFI.  Each core keeps a wake-up event, set when a job is presented, when
 * one of its iDMA descriptors completes or fails and when the cluster
 * leaves the barrier; WFI consumes it, or waits for the next one.  So a
 * WFI returns at every event the spec names, and at once when one came
 * since the core's last WFI: a job presented between the firmware's look at
 * job_status and its WFI is never slept through (an early return, which
 * WFI allows).
 */
#include "pool.h"

/* The instruction at c->pc retires now; the core goes on lat cycles on. */
void ksim_pool_done(struct ksim_pool *p, struct ksim_pool_core *c,
		    unsigned int lat)
{
	c->pc += 4;
	c->t = p->now + lat;
	c->instret++;
	p->executed++;
	c->wait = KSIM_POOL_W_NONE;
}

/* The instruction at c->pc executes again next cycle (a retry). */
void ksim_pool_again(struct ksim_pool *p, struct ksim_pool_core *c)
{
	c->wait = KSIM_POOL_W_NONE;
	c->pend = KSIM_POOL_P_EXT;
	if (c->t < p->now + 1)
		c->t = p->now + 1;
}

/* Wake-up events for the cores in mask: a WFI there returns now. */
void ksim_pool_event(struct ksim_pool *p, unsigned int mask)
{
	unsigned int i;

	for (i = 0; i < KH_POOL_CORES; i++) {
		struct ksim_pool_core *c = &p->core[i];

		if (!((mask >> i) & 1))
			continue;
		if (c->wait == KSIM_POOL_W_WFI)
			ksim_pool_done(p, c, KH_POOL_LAT_ALU);
		else
			c->ev = true;
	}
}

/*
 * Release the barrier when every running core has arrived: the ones
 * waiting go on (stalled ones when they are let go), the count goes up,
 * and every core gets a wake-up event.
 */
void ksim_pool_barrier_eval(struct ksim_pool *p)
{
	unsigned int i;

	if (!p->bar_in || (ksim_pool_running(p) & ~p->bar_in & KSIM_POOL_ALL))
		return;
	for (i = 0; i < KH_POOL_CORES; i++)
		if ((p->bar_in >> i) & 1)
			ksim_pool_done(p, &p->core[i], KH_POOL_LAT_ALU);
	p->bar_in = 0;
	p->bar_count++;
	ksim_pool_event(p, KSIM_POOL_ALL);
}

void ksim_pool_trap(struct ksim_pool *p, struct ksim_pool_core *c,
		    unsigned int cause, u32 pc)
{
	unsigned int id = c->id;

	c->pend = KSIM_POOL_P_NONE;
	c->wait = KSIM_POOL_W_NONE;
	c->pc = pc;
	p->halted |= 1u << id;
	if (!(p->trap & KH_POOL_TRAP_VALID))
		p->trap = KH_POOL_TRAP_VALID | ((u64)id << 56) |
			  ((u64)(cause & 0xff) << 48) | pc;
	p->dead = true;
	if (p->job)
		ksim_pool_job_end(p, KH_POOL_FAULT_TRAP(id, cause), true);
	/* one running core fewer: the others may be through the barrier */
	ksim_pool_barrier_eval(p);
}

/* CSR read values of the group that meets the outside. */
static u32 ksim_pool_csrx_read(struct ksim_pool *p, struct ksim_pool_core *c,
			       unsigned int csr)
{
	switch (csr) {
	case KH_POOL_CSR_JOB_STATUS:
		return ksim_pool_job_status(p);
	case KH_POOL_CSR_BARRIER:
		return p->bar_count;
	case KH_POOL_CSR_IDMA_STATUS:
		return ksim_pool_idma_status(c);
	default:
		if (csr >= KH_POOL_CSR_JOB_W0 && csr < KH_POOL_CSR_JOB_W0 + 8)
			return p->job ? p->jw[csr - KH_POOL_CSR_JOB_W0] : 0;
		return 0;	/* the write-only ones read 0 */
	}
}

static void ksim_pool_csrx(struct ksim_pool *p, struct ksim_pool_core *c,
			   const struct ksim_pool_op *o)
{
	unsigned int csr = o->imm >> 20, f3 = (o->imm >> 12) & 7;
	bool write = (f3 & 3) == 1 || o->rs1;
	u32 old = ksim_pool_csrx_read(p, c, csr);
	u32 src = (f3 & 4) ? o->rs1 : c->x[o->rs1];
	u32 nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;

	c->x[o->rd] = old;
	if (!write) {
		ksim_pool_done(p, c, KH_POOL_LAT_ALU);
		return;
	}
	switch (csr) {
	case KH_POOL_CSR_JOB_RETIRE:
		ksim_pool_job_fw_end(p, nv, false);
		break;
	case KH_POOL_CSR_JOB_FAULT:
		ksim_pool_job_fw_end(p, KH_POOL_FAULT(KH_POOL_CLASS_FW,
						      nv & 0xffff), true);
		break;
	case KH_POOL_CSR_BARRIER:
		c->wait = KSIM_POOL_W_BARRIER;
		p->bar_in |= 1u << c->id;
		ksim_pool_barrier_eval(p);
		return;
	case KH_POOL_CSR_IDMA_PUSH:
		ksim_pool_idma_push(p, c, nv);
		return;		/* done, or waits for room */
	case KH_POOL_CSR_IDMA_CTRL:
		if (nv & KH_POOL_IDMA_CLEAR)
			ksim_pool_idma_clear(p, c);
		break;
	default:
		break;
	}
	ksim_pool_done(p, c, KH_POOL_LAT_ALU);
}

void ksim_pool_ext(struct ksim_pool *p, struct ksim_pool_core *c)
{
	const struct ksim_pool_op *o = &p->dec[c->pc >> 2];
	u32 a;

	if (c->t < p->now)
		c->t = p->now;
	switch (o->k) {
	case KSIM_POOL_K_CSRX:
		ksim_pool_csrx(p, c, o);
		break;
	case KSIM_POOL_K_WFI:
		if (c->ev) {
			c->ev = false;
			ksim_pool_done(p, c, KH_POOL_LAT_ALU);
		} else {
			c->wait = KSIM_POOL_W_WFI;
		}
		break;
	case KSIM_POOL_K_FENCE:
		if (c->wb_count)
			c->wait = KSIM_POOL_W_FENCE;
		else
			ksim_pool_done(p, c, KH_POOL_LAT_ALU);
		break;
	default:	/* a load or store: the window, or core 0's mailbox */
		a = c->x[o->rs1] + o->imm;
		if (a - KH_POOL_DRAM_BASE < KH_POOL_DRAM_SIZE) {
			ksim_pool_dram_access(c, o, a);
			ksim_pool_done(p, c, ksim_pool_is_store(o->k) ?
				       KH_POOL_LAT_STORE : KH_POOL_LAT_LOAD);
		} else {
			ksim_pool_win_access(p, c, o);
		}
		break;
	}
}
