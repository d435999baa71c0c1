// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL core's interpreter: the hot loop of the unit.
 *
 * ksim_pool_iss_run() executes a core's predecoded instructions on its own
 * clock (c->t, charged per docs/spec/pool.md "Timing", KH_POOL_LAT_*)
 * until the clock reaches limit or the next instruction meets the outside:
 * a window load or store, a CSR of the job/barrier/iDMA group, WFI, a
 * FENCE with posted writes (all KSIM_POOL_P_EXT: sync.c executes them at
 * their mesh cycle), or a trap (KSIM_POOL_P_TRAP: the unit publishes it at
 * its cycle).  What it runs touches only the core's registers, its
 * DataRAM, IRAM (read) and its own CSRs, which nothing else sees
 * meanwhile.
 *
 * Each handler is a case of one switch over the predecoded kind; x0 is
 * never a destination (rd 0 is decoded as 32), branch targets are
 * resolved, and a fall-through past IRAM lands on the sentinel entry
 * KSIM_POOL_K_FETCHF, so the loop tests only the clock and a jump's target.
 */
#include "pool.h"

bool ksim_pool_is_store(unsigned int k)
{
	return k >= KSIM_POOL_K_SB && k <= KSIM_POOL_K_SW;
}

unsigned int ksim_pool_access_size(unsigned int k)
{
	switch (k) {
	case KSIM_POOL_K_LB:
	case KSIM_POOL_K_LBU:
	case KSIM_POOL_K_SB:
		return 1;
	case KSIM_POOL_K_LH:
	case KSIM_POOL_K_LHU:
	case KSIM_POOL_K_SH:
		return 2;
	default:
		return 4;
	}
}

/* A load's result from the bytes at b (sign or zero extended). */
u32 ksim_pool_load_value(unsigned int k, const u8 *b)
{
	switch (k) {
	case KSIM_POOL_K_LB:
		return (u32)(s32)(s8)b[0];
	case KSIM_POOL_K_LBU:
		return b[0];
	case KSIM_POOL_K_LH:
		return (u32)(s32)(s16)(u16)(b[0] | b[1] << 8);
	case KSIM_POOL_K_LHU:
		return (u32)(b[0] | b[1] << 8);
	default:
		return ksim_pool_rd32(b);
	}
}

enum {
	KSIM_POOL_M_DONE,	/* the access is done */
	KSIM_POOL_M_EXT,	/* the window: stop in front of it */
	KSIM_POOL_M_TRAP,	/* *cause */
};

/*
 * Every load or store the DataRAM fast path did not take: any width, the
 * IRAM (loads only, 32-bit aligned), the window, misalignment (checked
 * first) and everything else (an access fault).
 */
static int ksim_pool_mem_slow(struct ksim_pool *p, struct ksim_pool_core *c,
			      const struct ksim_pool_op *o, u32 a,
			      unsigned int *cause)
{
	bool st = ksim_pool_is_store(o->k);
	unsigned int size = ksim_pool_access_size(o->k);
	u32 v = c->x[o->rs2];
	u8 *b;

	if (a & (size - 1)) {
		*cause = st ? KH_POOL_CAUSE_STORE_MISALIGNED :
			      KH_POOL_CAUSE_LOAD_MISALIGNED;
		return KSIM_POOL_M_TRAP;
	}
	if (a - KH_POOL_DRAM_BASE < KH_POOL_DRAM_SIZE) {
		b = c->dram + (a - KH_POOL_DRAM_BASE);
		if (!st) {
			c->x[o->rd] = ksim_pool_load_value(o->k, b);
		} else if (size == 1) {
			b[0] = (u8)v;
		} else if (size == 2) {
			b[0] = (u8)v;
			b[1] = (u8)(v >> 8);
		} else {
			ksim_pool_wr32(b, v);
		}
		return KSIM_POOL_M_DONE;
	}
	if (a - KH_POOL_WIN_BASE < KH_POOL_WIN_SIZE)
		return KSIM_POOL_M_EXT;
	if (!st && a < KH_POOL_IRAM_SIZE && !(a & 3)) {
		c->x[o->rd] = ksim_pool_load_value(o->k, p->iram + a);
		return KSIM_POOL_M_DONE;
	}
	*cause = st ? KH_POOL_CAUSE_STORE_FAULT : KH_POOL_CAUSE_LOAD_FAULT;
	return KSIM_POOL_M_TRAP;
}

/*
 * A CSR of the core's own (K_CSR): the read value goes to rd, a write
 * (win_base only; the decoder made every other write illegal) takes
 * effect.  t is the instruction's cycle, n the instructions retired
 * before it in this run.
 */
static void ksim_pool_csr_own(struct ksim_pool_core *c,
			      const struct ksim_pool_op *o, u64 t, u64 n)
{
	unsigned int csr = o->imm >> 20, f3 = (o->imm >> 12) & 7;
	u64 cyc = t - c->t0, ret = c->instret + n;
	u32 old, src, nv;

	switch (csr) {
	case KH_POOL_CSR_MHARTID:
		old = c->id;
		break;
	case KH_POOL_CSR_PRID:
		old = KH_POOL_PRID(c->id);
		break;
	case KH_POOL_CSR_CYCLE:
		old = (u32)cyc;
		break;
	case KH_POOL_CSR_CYCLEH:
		old = (u32)(cyc >> 32);
		break;
	case KH_POOL_CSR_INSTRET:
		old = (u32)ret;
		break;
	case KH_POOL_CSR_INSTRETH:
		old = (u32)(ret >> 32);
		break;
	case KH_POOL_CSR_NCORES:
		old = KH_POOL_CORES;
		break;
	default:	/* KH_POOL_CSR_WIN_BASE */
		old = c->win_base;
		src = (f3 & 4) ? o->rs1 : c->x[o->rs1];
		nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
		if ((f3 & 3) == 1 || o->rs1)
			c->win_base = nv & ~(KH_POOL_WIN_ALIGN - 1);
		break;
	}
	c->x[o->rd] = old;
}

void ksim_pool_iss_run(struct ksim_pool *p, struct ksim_pool_core *c,
		       u64 limit)
{
	const struct ksim_pool_op *dec = p->dec;
	u32 *x = c->x;
	u8 *dm = c->dram;
	u32 pc = c->pc, npc, a, v;
	u64 t = c->t, n = 0;
	unsigned int cause = 0;
	const struct ksim_pool_op *o;

	while (t < limit) {
		o = &dec[pc >> 2];
		switch (o->k) {
		case KSIM_POOL_K_UNDEC:
			ksim_pool_decode(p, pc >> 2);
			continue;
		case KSIM_POOL_K_LI:
			x[o->rd] = o->imm;
			goto next;
		case KSIM_POOL_K_ADDI:
			x[o->rd] = x[o->rs1] + o->imm;
			goto next;
		case KSIM_POOL_K_SLTI:
			x[o->rd] = (s32)x[o->rs1] < (s32)o->imm;
			goto next;
		case KSIM_POOL_K_SLTIU:
			x[o->rd] = x[o->rs1] < o->imm;
			goto next;
		case KSIM_POOL_K_XORI:
			x[o->rd] = x[o->rs1] ^ o->imm;
			goto next;
		case KSIM_POOL_K_ORI:
			x[o->rd] = x[o->rs1] | o->imm;
			goto next;
		case KSIM_POOL_K_ANDI:
			x[o->rd] = x[o->rs1] & o->imm;
			goto next;
		case KSIM_POOL_K_SLLI:
			x[o->rd] = x[o->rs1] << o->imm;
			goto next;
		case KSIM_POOL_K_SRLI:
			x[o->rd] = x[o->rs1] >> o->imm;
			goto next;
		case KSIM_POOL_K_SRAI:
			x[o->rd] = (u32)((s32)x[o->rs1] >> o->imm);
			goto next;
		case KSIM_POOL_K_ADD:
			x[o->rd] = x[o->rs1] + x[o->rs2];
			goto next;
		case KSIM_POOL_K_SUB:
			x[o->rd] = x[o->rs1] - x[o->rs2];
			goto next;
		case KSIM_POOL_K_SLL:
			x[o->rd] = x[o->rs1] << (x[o->rs2] & 31);
			goto next;
		case KSIM_POOL_K_SLT:
			x[o->rd] = (s32)x[o->rs1] < (s32)x[o->rs2];
			goto next;
		case KSIM_POOL_K_SLTU:
			x[o->rd] = x[o->rs1] < x[o->rs2];
			goto next;
		case KSIM_POOL_K_XOR:
			x[o->rd] = x[o->rs1] ^ x[o->rs2];
			goto next;
		case KSIM_POOL_K_SRL:
			x[o->rd] = x[o->rs1] >> (x[o->rs2] & 31);
			goto next;
		case KSIM_POOL_K_SRA:
			x[o->rd] = (u32)((s32)x[o->rs1] >> (x[o->rs2] & 31));
			goto next;
		case KSIM_POOL_K_OR:
			x[o->rd] = x[o->rs1] | x[o->rs2];
			goto next;
		case KSIM_POOL_K_AND:
			x[o->rd] = x[o->rs1] & x[o->rs2];
			goto next;
		case KSIM_POOL_K_MUL:
			x[o->rd] = x[o->rs1] * x[o->rs2];
			t += KH_POOL_LAT_MUL - 1;
			goto next;
		case KSIM_POOL_K_MULH:
			/* the exact product fits in 64 bits: its high word */
			x[o->rd] = (u32)(((u64)(s64)(s32)x[o->rs1] *
					  (u64)(s64)(s32)x[o->rs2]) >> 32);
			t += KH_POOL_LAT_MUL - 1;
			goto next;
		case KSIM_POOL_K_MULHSU:
			x[o->rd] = (u32)(((u64)(s64)(s32)x[o->rs1] *
					  (u64)x[o->rs2]) >> 32);
			t += KH_POOL_LAT_MUL - 1;
			goto next;
		case KSIM_POOL_K_MULHU:
			x[o->rd] = (u32)(((u64)x[o->rs1] * x[o->rs2]) >> 32);
			t += KH_POOL_LAT_MUL - 1;
			goto next;
		case KSIM_POOL_K_DIV:
			a = x[o->rs1];
			v = x[o->rs2];
			if (!v)
				x[o->rd] = ~0u;
			else if (a == 0x80000000u && v == ~0u)
				x[o->rd] = a;
			else
				x[o->rd] = (u32)((s32)a / (s32)v);
			t += KH_POOL_LAT_DIV - 1;
			goto next;
		case KSIM_POOL_K_DIVU:
			v = x[o->rs2];
			x[o->rd] = v ? x[o->rs1] / v : ~0u;
			t += KH_POOL_LAT_DIV - 1;
			goto next;
		case KSIM_POOL_K_REM:
			a = x[o->rs1];
			v = x[o->rs2];
			if (!v)
				x[o->rd] = a;
			else if (a == 0x80000000u && v == ~0u)
				x[o->rd] = 0;
			else
				x[o->rd] = (u32)((s32)a % (s32)v);
			t += KH_POOL_LAT_DIV - 1;
			goto next;
		case KSIM_POOL_K_REMU:
			a = x[o->rs1];
			v = x[o->rs2];
			x[o->rd] = v ? a % v : a;
			t += KH_POOL_LAT_DIV - 1;
			goto next;
		case KSIM_POOL_K_BEQ:
			if (x[o->rs1] == x[o->rs2])
				goto branch;
			goto next;
		case KSIM_POOL_K_BNE:
			if (x[o->rs1] != x[o->rs2])
				goto branch;
			goto next;
		case KSIM_POOL_K_BLT:
			if ((s32)x[o->rs1] < (s32)x[o->rs2])
				goto branch;
			goto next;
		case KSIM_POOL_K_BGE:
			if ((s32)x[o->rs1] >= (s32)x[o->rs2])
				goto branch;
			goto next;
		case KSIM_POOL_K_BLTU:
			if (x[o->rs1] < x[o->rs2])
				goto branch;
			goto next;
		case KSIM_POOL_K_BGEU:
			if (x[o->rs1] >= x[o->rs2])
				goto branch;
			goto next;
		case KSIM_POOL_K_JAL:
			npc = o->imm;
			if (npc & 3)
				goto misfetch;
			x[o->rd] = pc + 4;
			goto jump;
		case KSIM_POOL_K_JALR:
			npc = (x[o->rs1] + o->imm) & ~1u;
			if (npc & 3)
				goto misfetch;
			x[o->rd] = pc + 4;
			goto jump;
		case KSIM_POOL_K_LW:
			a = x[o->rs1] + o->imm;
			v = a - KH_POOL_DRAM_BASE;
			if (ksim_pool_likely(v < KH_POOL_DRAM_SIZE && !(a & 3))) {
				x[o->rd] = ksim_pool_rd32(dm + v);
				t += KH_POOL_LAT_LOAD - 1;
				goto next;
			}
			goto mem;
		case KSIM_POOL_K_LBU:
			a = x[o->rs1] + o->imm;
			v = a - KH_POOL_DRAM_BASE;
			if (ksim_pool_likely(v < KH_POOL_DRAM_SIZE)) {
				x[o->rd] = dm[v];
				t += KH_POOL_LAT_LOAD - 1;
				goto next;
			}
			goto mem;
		case KSIM_POOL_K_SW:
			a = x[o->rs1] + o->imm;
			v = a - KH_POOL_DRAM_BASE;
			if (ksim_pool_likely(v < KH_POOL_DRAM_SIZE && !(a & 3))) {
				ksim_pool_wr32(dm + v, x[o->rs2]);
				t += KH_POOL_LAT_STORE - 1;
				goto next;
			}
			goto mem;
		case KSIM_POOL_K_SB:
			a = x[o->rs1] + o->imm;
			v = a - KH_POOL_DRAM_BASE;
			if (ksim_pool_likely(v < KH_POOL_DRAM_SIZE)) {
				dm[v] = (u8)x[o->rs2];
				t += KH_POOL_LAT_STORE - 1;
				goto next;
			}
			goto mem;
		case KSIM_POOL_K_LB:
		case KSIM_POOL_K_LH:
		case KSIM_POOL_K_LHU:
		case KSIM_POOL_K_SH:
			a = x[o->rs1] + o->imm;
			goto mem;
		case KSIM_POOL_K_NOP:
			goto next;
		case KSIM_POOL_K_FENCE:
			if (c->wb_count)
				goto ext;	/* posted writes: wait for acks */
			goto next;
		case KSIM_POOL_K_CSR:
			ksim_pool_csr_own(c, o, t, n);
			goto next;
		case KSIM_POOL_K_CSRX:
		case KSIM_POOL_K_WFI:
			goto ext;
		case KSIM_POOL_K_ECALL:
			cause = KH_POOL_CAUSE_ECALL;
			goto trap;
		case KSIM_POOL_K_EBREAK:
			cause = KH_POOL_CAUSE_EBREAK;
			goto trap;
		case KSIM_POOL_K_FETCHF:
			cause = KH_POOL_CAUSE_FETCH_FAULT;
			goto trap;
		default:	/* KSIM_POOL_K_ILLEGAL */
			cause = KH_POOL_CAUSE_ILLEGAL;
			goto trap;
		}
mem:
		switch (ksim_pool_mem_slow(p, c, o, a, &cause)) {
		case KSIM_POOL_M_DONE:
			t += ksim_pool_is_store(o->k) ? KH_POOL_LAT_STORE - 1 :
							KH_POOL_LAT_LOAD - 1;
			goto next;
		case KSIM_POOL_M_EXT:
			goto ext;
		default:
			goto trap;
		}
next:
		pc += 4;
		t += KH_POOL_LAT_ALU;
		n++;
		continue;
branch:
		npc = o->imm;
		if (npc & 3)
			goto misfetch;
jump:
		/* the jump retires; a target past IRAM faults on its fetch */
		pc = npc;
		t += KH_POOL_LAT_TAKEN;
		n++;
		if (ksim_pool_unlikely(pc >= KH_POOL_IRAM_SIZE)) {
			cause = KH_POOL_CAUSE_FETCH_FAULT;
			goto trap;
		}
		continue;
misfetch:
		/* reported on the jump, which does not retire (RISC-V) */
		cause = KH_POOL_CAUSE_FETCH_MISALIGNED;
		goto trap;
	}
	goto out;
ext:
	c->pend = KSIM_POOL_P_EXT;
	goto out;
trap:
	c->pend = KSIM_POOL_P_TRAP;
	c->trap_cause = cause;
	c->trap_pc = pc;
out:
	c->pc = pc;
	c->t = t;
	c->instret += n;
	p->executed += n;
}
