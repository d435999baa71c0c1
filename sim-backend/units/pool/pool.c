// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL unit (token `gp`, cu_type 'GP'; docs/spec/pool.md): eight
 * RV32IM+Zicsr cores sharing one IRAM, each with its DataRAM, a window
 * onto mesh DRAM and an iDMA engine, a cluster barrier, run-stall and
 * reset, jobs through CSRs.  This file: the unit's life cycle and tick,
 * run-stall and per-core reset, the CU_CTRL addon registers 0xe8-0xef and
 * the door to the bounds' 0xf0-0xf7 (bounds.c).  pool.h says which file
 * holds the rest and how time works.
 *
 * A tick, at mesh cycle now: a LOAD/NOFW/HALTED retirement due; one
 * received flit; the barrier (run-stall may have changed who runs); a job
 * present while all eight cores are in reset retires NOFW; every
 * core due runs (sync.c executes what meets the outside, iss_exec.c the
 * rest, up to KSIM_POOL_QUANTUM cycles ahead); the iDMA engines; one flit
 * out; the next instruction.  Then the timer for the earliest core or
 * engine due: a core in WFI, at the barrier, stalled or in reset, or
 * waiting for a response costs nothing.
 *
 * Power-on and mesh reset: RUNSTALL 0x00ff (every core stalled, none in
 * reset), RESET_PC 0, TRAP clear, the bounds' registers 0 (no region: no
 * DRAM reachable), registers, queues and counters cleared.
 * IRAM and the DataRAMs keep their contents across a mesh reset, as block
 * RAMs without a reset clause do (the model's DRAM and SRAMs likewise);
 * they are zero when the card is created.
 */
#include "pool.h"
#include "params.h"
#include "table.h"

struct ksim_pool *ksim_pool_of(struct ksim_unit *u)
{
	if (!u || ksim_unit_type_of(u) != &ksim_unit_pool)
		return NULL;
	return ksim_unit_priv(u);
}

/* IRAM bytes [off, off + len) changed: decode them again when run. */
void ksim_pool_iram_written(struct ksim_pool *p, u32 off, u32 len)
{
	u32 i;

	for (i = off / 4; i < (off + len + 3) / 4 && i < KSIM_POOL_IRAM_WORDS; i++)
		p->dec[i].k = KSIM_POOL_K_UNDEC;
}

static void ksim_pool_power_on(struct ksim_unit *u, struct ksim_pool *p)
{
	const struct ksim_params *pr = ksim_unit_params(u);
	u64 now = ksim_unit_now(u);
	unsigned int i;

	memset(p, 0, offsetof(struct ksim_pool, core));
	p->u = u;
	p->now = now;
	p->dram_bytes = pr->dram_bytes;
	p->mesh = ksim_unit_mesh(u);
	ksim_unit_mag_port(u, &p->port.mx, &p->port.my);
	p->port.rd_max = pr->recv_depth;
	p->port.wr_max = ksim_min_u32(KSIM_POOL_WR_MAX, pr->wr_slots / 2);
	if (!p->port.wr_max)
		p->port.wr_max = 1;
	p->stall = (u8)KH_POOL_STALL_ALL;
	for (i = 0; i < KH_POOL_CORES; i++) {
		struct ksim_pool_core *c = &p->core[i];

		memset(c, 0, offsetof(struct ksim_pool_core, dram));
		c->id = i;
		c->t = c->t0 = now;
		c->dma.done_at = KSIM_POOL_NEVER;
	}
	memset(p->dec, 0, sizeof(p->dec));
	p->dec[KSIM_POOL_IRAM_WORDS].k = KSIM_POOL_K_FETCHF;
}

static int ksim_pool_init(struct ksim_unit *u)
{
	ksim_pool_power_on(u, ksim_unit_priv(u));
	return 0;
}

static void ksim_pool_reset(struct ksim_unit *u)
{
	ksim_pool_power_on(u, ksim_unit_priv(u));
}

/* ---- run-stall and reset ---- */

static void ksim_pool_core_reset(struct ksim_pool *p, struct ksim_pool_core *c)
{
	ksim_pool_win_reset(c);
	ksim_pool_idma_reset(c);
	memset(c->x, 0, sizeof(c->x));
	ksim_pool_vec_reset(&c->vec);
	c->pc = p->reset_pc;
	c->win_base = 0;
	c->instret = 0;
	c->wait = KSIM_POOL_W_NONE;
	c->pend = KSIM_POOL_P_NONE;
	c->ev = false;
	p->halted &= ~(1u << c->id);
	p->bar_in &= ~(1u << c->id);
}

void ksim_pool_set_runstall(struct ksim_pool *p, u64 v)
{
	u8 nst = (u8)(v & KH_POOL_STALL_ALL);
	u8 nrst = (u8)((v & KH_POOL_RESET_ALL) >> KH_POOL_RESET_SHIFT);
	unsigned int i;

	p->now = ksim_unit_now(p->u);
	for (i = 0; i < KH_POOL_CORES; i++) {
		struct ksim_pool_core *c = &p->core[i];
		u8 bit = 1u << i;

		if ((nrst & bit) && !(p->rst & bit))
			ksim_pool_core_reset(p, c);
		if (!(nrst & bit) && (p->rst & bit)) {
			/* out of reset: from RESET_PC, the next cycle */
			c->pc = p->reset_pc;
			c->t = c->t0 = p->now + 1;
		}
		if (!(nst & bit) && (p->stall & bit) && c->t <= p->now)
			c->t = p->now + 1;
	}
	p->stall = nst;
	p->rst = nrst;
	if (nrst == KSIM_POOL_ALL) {
		/* the whole cluster in reset: the firmware is being reloaded */
		p->trap = 0;
		p->dead = false;
	}
	ksim_pool_barrier_eval(p);
	/* be ticked this cycle (a CU_CTRL flit wakes the unit anyway) */
	ksim_unit_timer(p->u, p->now);
}

/* ---- the CU_CTRL addon windows 0xe8-0xef and 0xf0-0xf7 ---- */

/* A peek: the tests' door and the first half of a CU_CTRL read. */
u64 ksim_pool_reg(struct ksim_pool *p, unsigned int idx)
{
	const u8 *mb = p->core[0].dram;

	if (ksim_pool_bounds_idx(idx))
		return ksim_pool_bounds_reg(p, idx, false);
	switch (idx) {
	case KH_CTRL_IDX_POOL_CAPS:
		return (u64)KH_POOL_SLOT_ID << 48 | (u64)KH_POOL_VERSION << 40 |
		       (u64)KH_POOL_CORES << 32 |
		       (u64)(KH_POOL_IRAM_SIZE / 1024) << 16 |
		       KH_POOL_DRAM_SIZE / 1024;
	case KH_CTRL_IDX_POOL_RUNSTALL:
		return p->stall | (u64)p->rst << KH_POOL_RESET_SHIFT;
	case KH_CTRL_IDX_POOL_STATE:
		return p->halted | (u64)p->bar_in << 8 | (u64)p->stall << 16 |
		       (u64)p->rst << 24 | (u64)p->seq << 32 |
		       (p->job ? KH_POOL_STATE_JOB : 0);
	case KH_CTRL_IDX_POOL_TRAP:
		return p->trap;
	case KH_CTRL_IDX_POOL_RESET_PC:
		return p->reset_pc;
	case KH_CTRL_IDX_POOL_BOOT:
		return ksim_pool_rd32(mb + 4 * KH_POOL_MBOX_BOOT);
	case KH_CTRL_IDX_POOL_FW_VERSION:
		return ksim_pool_rd32(mb + 4 * KH_POOL_MBOX_FW_VERSION);
	case KH_CTRL_IDX_POOL_API_VERSION:
		return ksim_pool_rd32(mb + 4 * KH_POOL_MBOX_API);
	default:
		return 0;
	}
}

void ksim_pool_reg_write(struct ksim_pool *p, unsigned int idx, u64 val)
{
	if (idx == KH_CTRL_IDX_POOL_RUNSTALL)
		ksim_pool_set_runstall(p, val);
	else if (idx == KH_CTRL_IDX_POOL_RESET_PC &&
		 val < KH_POOL_IRAM_SIZE && !(val & 3))
		p->reset_pc = (u32)val;
	else if (ksim_pool_bounds_idx(idx))
		ksim_pool_bounds_write(p, idx, val);
	/* the read-only ones ignore writes */
}

/*
 * The request is captured: the reply carries the register as it stands.
 * BOUNDS_FAULT is cleared by it (pool.md "Bounds"), whatever the op: the
 * reply is the read, the write half is ignored as on every RO index.
 */
static bool ksim_pool_ctrl_read(struct ksim_unit *u, unsigned int idx,
				u64 *val)
{
	struct ksim_pool *p = ksim_unit_priv(u);

	if (ksim_pool_bounds_idx(idx)) {
		*val = ksim_pool_bounds_reg(p, idx, true);
		return true;
	}
	if (!KH_CTRL_IDX_IS_POOL(idx))
		return false;
	*val = ksim_pool_reg(p, idx);
	return true;
}

static void ksim_pool_ctrl_write(struct ksim_unit *u, unsigned int idx,
				 u64 val)
{
	ksim_pool_reg_write(ksim_unit_priv(u), idx, val);
}

/* ---- the tick ---- */

static void ksim_pool_run_cores(struct ksim_pool *p)
{
	unsigned int i;

	for (i = 0; i < KH_POOL_CORES; i++) {
		struct ksim_pool_core *c = &p->core[i];

		while (ksim_pool_runs(p, i) && c->wait == KSIM_POOL_W_NONE &&
		       c->t <= p->now) {
			if (c->pend == KSIM_POOL_P_EXT) {
				c->pend = KSIM_POOL_P_NONE;
				ksim_pool_ext(p, c);
			} else if (c->pend == KSIM_POOL_P_TRAP) {
				ksim_pool_trap(p, c, c->trap_cause, c->trap_pc);
			} else {
				ksim_pool_iss_run(p, c, p->now + KSIM_POOL_QUANTUM);
			}
		}
	}
}

/* The earliest cycle a core or an engine is due without any input. */
static u64 ksim_pool_next_time(const struct ksim_pool *p)
{
	u64 next = KSIM_POOL_NEVER, t;
	unsigned int i;

	for (i = 0; i < KH_POOL_CORES; i++) {
		const struct ksim_pool_core *c = &p->core[i];

		if (ksim_pool_runs(p, i) && c->wait == KSIM_POOL_W_NONE &&
		    c->t < next)
			next = c->t;
		t = ksim_pool_idma_next(p, c);
		if (t < next)
			next = t;
	}
	return next;
}

static bool ksim_pool_tick(struct ksim_unit *u)
{
	struct ksim_pool *p = ksim_unit_priv(u);
	bool busy = false;
	unsigned int i;

	p->now = ksim_unit_now(u);
	if (p->inst == KSIM_POOL_I_RETIRE && p->now > p->accept_at) {
		ksim_pool_retire(p, p->ret_result, p->ret_fault);
		busy = true;
	}
	if (ksim_pool_recv(p))
		busy = true;
	ksim_pool_barrier_eval(p);
	/* the whole cluster put in reset under a job: nobody can finish it */
	if (p->job && p->rst == KSIM_POOL_ALL && p->now > p->accept_at) {
		ksim_pool_job_end(p, KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
						   KH_POOL_UNIT_NOFW), true);
		busy = true;
	}
	ksim_pool_run_cores(p);
	for (i = 0; i < KH_POOL_CORES; i++)
		ksim_pool_idma_tick(p, &p->core[i]);
	if (ksim_pool_send(p))
		busy = true;
	if (p->inst == KSIM_POOL_I_NONE) {
		ksim_pool_accept(p);
		if (p->inst != KSIM_POOL_I_NONE)
			busy = true;
	}
	ksim_unit_set_dbg(u, p->executed);
	ksim_unit_timer(u, ksim_pool_next_time(p));
	return busy;
}

/* ---- the tests' and the benchmark's door ---- */

void ksim_pool_poke_iram(struct ksim_pool *p, u32 off, const void *buf,
			 u32 len)
{
	if (off > KH_POOL_IRAM_SIZE || len > KH_POOL_IRAM_SIZE - off)
		return;
	memcpy(p->iram + off, buf, len);
	ksim_pool_iram_written(p, off, len);
}

void ksim_pool_poke_dram(struct ksim_pool *p, unsigned int core, u32 off,
			 const void *buf, u32 len)
{
	if (core >= KH_POOL_CORES || off > KH_POOL_DRAM_SIZE ||
	    len > KH_POOL_DRAM_SIZE - off)
		return;
	memcpy(p->core[core].dram + off, buf, len);
}

/*
 * A firmware the host has claimed (CLAIM in core 0's boot mailbox) runs
 * the job API, which reaches DRAM for a job only; raw core programs (the
 * model's own tests) and a boot in progress may reach it any time.
 */
static bool ksim_pool_mem_in_job(struct ksim_unit *u)
{
	const struct ksim_pool *p = ksim_unit_priv(u);
	const u8 *w = p->core[0].dram + KH_POOL_MBOX_BOOT * 4;

	return ((u32)w[0] | (u32)w[1] << 8 | (u32)w[2] << 16 | (u32)w[3] << 24) ==
	       KH_POOL_BOOT_CLAIM;
}

const struct ksim_unit_type ksim_unit_pool = {
	.token = "gp",
	.name = "POOL firmware cluster",
	.cu_type = KH_CU_GP,
	.cu_version = KH_POOL_CU_VERSION,
	.n_buffers = KH_POOL_NBUF,
	.priv_size = sizeof(struct ksim_pool),
	.init = ksim_pool_init,
	.tick = ksim_pool_tick,
	.reset = ksim_pool_reset,
	.ctrl_read = ksim_pool_ctrl_read,
	.ctrl_write = ksim_pool_ctrl_write,
	.cudata = &ksim_pool_cd,
	.mem_in_job = ksim_pool_mem_in_job,
};
