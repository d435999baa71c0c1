// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL core's interpreter: the hot loop of the unit.
 *
 * ksim_pool_iss_run() executes a core's predecoded instructions on its own
 * clock (c->t, charged per docs/spec/pool.md "Timing", KH_POOL_LAT_*)
 * until the clock reaches limit or the next instruction meets the outside:
 * a window load or store, core 0's load or store in its boot mailbox
 * (DataRAM bytes 0..31, which the host shares), a CSR of the
 * job/barrier/iDMA group, WFI, a FENCE with posted writes (all KSIM_POOL_P_EXT: sync.c executes them at
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

/* A load or store in the core's DataRAM at a (aligned, in range). */
void ksim_pool_dram_access(struct ksim_pool_core *c,
			   const struct ksim_pool_op *o, u32 a)
{
	unsigned int size = ksim_pool_access_size(o->k);
	u8 *b = c->dram + (a - KH_POOL_DRAM_BASE);
	u32 v = c->x[o->rs2];

	if (!ksim_pool_is_store(o->k)) {
		c->x[o->rd] = ksim_pool_load_value(o->k, b);
	} else if (size == 1) {
		b[0] = (u8)v;
	} else if (size == 2) {
		b[0] = (u8)v;
		b[1] = (u8)(v >> 8);
	} else {
		ksim_pool_wr32(b, v);
	}
}

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

	if (a & (size - 1)) {
		*cause = st ? KH_POOL_CAUSE_STORE_MISALIGNED :
			      KH_POOL_CAUSE_LOAD_MISALIGNED;
		return KSIM_POOL_M_TRAP;
	}
	if (a - KH_POOL_DRAM_BASE < KH_POOL_DRAM_SIZE) {
		/* core 0's boot mailbox: the host's too, at its cycle */
		if (a - KH_POOL_DRAM_BASE < ksim_pool_mbox_bytes(c))
			return KSIM_POOL_M_EXT;
		ksim_pool_dram_access(c, o, a);
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
 * (win_base and cpenable only; the decoder made every other write illegal) takes
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
	case KH_PV_CSR_CPENABLE:
		old = c->vec.cpenable;
		break;
	default:	/* KH_POOL_CSR_WIN_BASE */
		old = c->win_base;
		break;
	}
	/* the writable ones: CSRRW always, the others with rs1/uimm != 0 */
	if (csr == KH_POOL_CSR_WIN_BASE || csr == KH_PV_CSR_CPENABLE) {
		src = (f3 & 4) ? o->rs1 : c->x[o->rs1];
		nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
		if ((f3 & 3) == 1 || o->rs1) {
			if (csr == KH_PV_CSR_CPENABLE)
				c->vec.cpenable = nv & KH_PV_CPENABLE_CP1;
			else
				c->win_base = nv & ~(KH_POOL_WIN_ALIGN - 1);
		}
	}
	c->x[o->rd] = old;
}

/* Whether the branch of funct3 f3 is taken on a, b (the slow path). */
static bool ksim_pool_taken(unsigned int f3, u32 a, u32 b)
{
	switch (f3) {
	case 0:
		return a == b;
	case 1:
		return a != b;
	case 4:
		return (s32)a < (s32)b;
	case 5:
		return (s32)a >= (s32)b;
	case 6:
		return a < b;
	default:
		return a >= b;
	}
}

/*
 * The handlers: threaded code (a jump through a table of label addresses
 * at the end of each handler, GNU C's labels as values) in userspace; a
 * switch in the kernel, where indirect jumps go through retpolines and
 * objtool checks them.  The clock is tested at every taken jump: code runs
 * straight for at most IRAM's 16 Ki words, so a run passes its limit by a
 * bounded amount, the same every time.
 */
#if !defined(__KERNEL__) && !defined(KSIM_POOL_SWITCH)
#define KSIM_POOL_THREADED	/* -DKSIM_POOL_SWITCH tests the kernel's */
#endif

#ifdef KSIM_POOL_THREADED
#define KSIM_POOL_OP(k)		ksim_pool_l_##k:
#define KSIM_POOL_OP_DEFAULT(k)	ksim_pool_l_##k:
#define KSIM_POOL_DISPATCH()	goto *lbl[o->k]
#define KSIM_POOL_L(k)		[KSIM_POOL_K_##k] = &&ksim_pool_l_##k
#else
#define KSIM_POOL_OP(k)		case KSIM_POOL_K_##k:
#define KSIM_POOL_OP_DEFAULT(k)	default:
#define KSIM_POOL_DISPATCH()	goto dispatch
#endif

/*
 * The clock is t0 + n + e: n instructions retired in this run, e the
 * cycles they took beyond one each, so a one-cycle instruction costs only
 * its count.  The instruction retired after lat cycles; on to the next.
 */
#define KSIM_POOL_NEXT(lat)						\
	do {								\
		e += (u64)(lat) - 1;					\
		n++;							\
		o++;							\
		KSIM_POOL_DISPATCH();					\
	} while (0)

/* a taken jump to word idx (checked at decode, or by the caller) */
#define KSIM_POOL_JUMP(idx)						\
	do {								\
		o = dec + (idx);					\
		e += KH_POOL_LAT_TAKEN - 1;				\
		n++;							\
		if (ksim_pool_unlikely(n + e >= budget))		\
			goto out;					\
		KSIM_POOL_DISPATCH();					\
	} while (0)

#define KSIM_POOL_PC()		((u32)(o - dec) * 4)

void ksim_pool_iss_run(struct ksim_pool *p, struct ksim_pool_core *c,
		       u64 limit)
{
#ifdef KSIM_POOL_THREADED
	static const void *const lbl[KSIM_POOL_K_N] = {
		KSIM_POOL_L(UNDEC), KSIM_POOL_L(LI), KSIM_POOL_L(JAL),
		KSIM_POOL_L(JALR), KSIM_POOL_L(BEQ), KSIM_POOL_L(BNE),
		KSIM_POOL_L(BLT), KSIM_POOL_L(BGE), KSIM_POOL_L(BLTU),
		KSIM_POOL_L(BGEU), KSIM_POOL_L(LB), KSIM_POOL_L(LH),
		KSIM_POOL_L(LW), KSIM_POOL_L(LBU), KSIM_POOL_L(LHU),
		KSIM_POOL_L(SB), KSIM_POOL_L(SH), KSIM_POOL_L(SW),
		KSIM_POOL_L(ADDI), KSIM_POOL_L(SLTI), KSIM_POOL_L(SLTIU),
		KSIM_POOL_L(XORI), KSIM_POOL_L(ORI), KSIM_POOL_L(ANDI),
		KSIM_POOL_L(SLLI), KSIM_POOL_L(SRLI), KSIM_POOL_L(SRAI),
		KSIM_POOL_L(ADD), KSIM_POOL_L(SUB), KSIM_POOL_L(SLL),
		KSIM_POOL_L(SLT), KSIM_POOL_L(SLTU), KSIM_POOL_L(XOR),
		KSIM_POOL_L(SRL), KSIM_POOL_L(SRA), KSIM_POOL_L(OR),
		KSIM_POOL_L(AND), KSIM_POOL_L(MUL), KSIM_POOL_L(MULH),
		KSIM_POOL_L(MULHSU), KSIM_POOL_L(MULHU), KSIM_POOL_L(DIV),
		KSIM_POOL_L(DIVU), KSIM_POOL_L(REM), KSIM_POOL_L(REMU),
		KSIM_POOL_L(NOP), KSIM_POOL_L(FENCE), KSIM_POOL_L(CSR),
		KSIM_POOL_L(CSRX), KSIM_POOL_L(WFI), KSIM_POOL_L(ECALL),
		KSIM_POOL_L(EBREAK), KSIM_POOL_L(ILLEGAL), KSIM_POOL_L(FETCHF),
		KSIM_POOL_L(BRBAD), KSIM_POOL_L(JALBAD), KSIM_POOL_L(VEC),
	};
#endif
	const struct ksim_pool_op *const dec = p->dec;
	const struct ksim_pool_op *o = dec + (c->pc >> 2);
	u32 *const x = c->x;
	u8 *const dm = c->dram;
	/* DataRAM below lo is the boot mailbox (core 0): the slow path's */
	const u32 lo = ksim_pool_mbox_bytes(c), dsz = KH_POOL_DRAM_SIZE - lo;
	const u64 t0 = c->t, budget = limit - t0;
	u64 n = 0, e = 0;
	u32 a, v, tpc = 0;
	unsigned int cause = 0;

#ifdef KSIM_POOL_THREADED
	KSIM_POOL_DISPATCH();
	{
#else
dispatch:
	switch (o->k) {
#endif
	KSIM_POOL_OP(UNDEC)
		ksim_pool_decode(p, (u32)(o - dec));
		KSIM_POOL_DISPATCH();
	KSIM_POOL_OP(LI)
		x[o->rd] = o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(ADDI)
		x[o->rd] = x[o->rs1] + o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SLTI)
		x[o->rd] = (s32)x[o->rs1] < (s32)o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SLTIU)
		x[o->rd] = x[o->rs1] < o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(XORI)
		x[o->rd] = x[o->rs1] ^ o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(ORI)
		x[o->rd] = x[o->rs1] | o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(ANDI)
		x[o->rd] = x[o->rs1] & o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SLLI)
		x[o->rd] = x[o->rs1] << o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SRLI)
		x[o->rd] = x[o->rs1] >> o->imm;
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SRAI)
		x[o->rd] = (u32)((s32)x[o->rs1] >> o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(ADD)
		x[o->rd] = x[o->rs1] + x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SUB)
		x[o->rd] = x[o->rs1] - x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SLL)
		x[o->rd] = x[o->rs1] << (x[o->rs2] & 31);
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SLT)
		x[o->rd] = (s32)x[o->rs1] < (s32)x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SLTU)
		x[o->rd] = x[o->rs1] < x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(XOR)
		x[o->rd] = x[o->rs1] ^ x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SRL)
		x[o->rd] = x[o->rs1] >> (x[o->rs2] & 31);
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(SRA)
		x[o->rd] = (u32)((s32)x[o->rs1] >> (x[o->rs2] & 31));
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(OR)
		x[o->rd] = x[o->rs1] | x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(AND)
		x[o->rd] = x[o->rs1] & x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(MUL)
		x[o->rd] = x[o->rs1] * x[o->rs2];
		KSIM_POOL_NEXT(KH_POOL_LAT_MUL);
	KSIM_POOL_OP(MULH)
		/* the exact product fits in 64 bits: its high word */
		x[o->rd] = (u32)(((u64)(s64)(s32)x[o->rs1] *
				  (u64)(s64)(s32)x[o->rs2]) >> 32);
		KSIM_POOL_NEXT(KH_POOL_LAT_MUL);
	KSIM_POOL_OP(MULHSU)
		x[o->rd] = (u32)(((u64)(s64)(s32)x[o->rs1] *
				  (u64)x[o->rs2]) >> 32);
		KSIM_POOL_NEXT(KH_POOL_LAT_MUL);
	KSIM_POOL_OP(MULHU)
		x[o->rd] = (u32)(((u64)x[o->rs1] * x[o->rs2]) >> 32);
		KSIM_POOL_NEXT(KH_POOL_LAT_MUL);
	KSIM_POOL_OP(DIV)
		a = x[o->rs1];
		v = x[o->rs2];
		if (!v)
			x[o->rd] = ~0u;
		else if (a == 0x80000000u && v == ~0u)
			x[o->rd] = a;
		else
			x[o->rd] = (u32)((s32)a / (s32)v);
		KSIM_POOL_NEXT(KH_POOL_LAT_DIV);
	KSIM_POOL_OP(DIVU)
		v = x[o->rs2];
		x[o->rd] = v ? x[o->rs1] / v : ~0u;
		KSIM_POOL_NEXT(KH_POOL_LAT_DIV);
	KSIM_POOL_OP(REM)
		a = x[o->rs1];
		v = x[o->rs2];
		if (!v)
			x[o->rd] = a;
		else if (a == 0x80000000u && v == ~0u)
			x[o->rd] = 0;
		else
			x[o->rd] = (u32)((s32)a % (s32)v);
		KSIM_POOL_NEXT(KH_POOL_LAT_DIV);
	KSIM_POOL_OP(REMU)
		a = x[o->rs1];
		v = x[o->rs2];
		x[o->rd] = v ? a % v : a;
		KSIM_POOL_NEXT(KH_POOL_LAT_DIV);
	KSIM_POOL_OP(BEQ)
		if (x[o->rs1] == x[o->rs2])
			KSIM_POOL_JUMP(o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
	KSIM_POOL_OP(BNE)
		if (x[o->rs1] != x[o->rs2])
			KSIM_POOL_JUMP(o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
	KSIM_POOL_OP(BLT)
		if ((s32)x[o->rs1] < (s32)x[o->rs2])
			KSIM_POOL_JUMP(o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
	KSIM_POOL_OP(BGE)
		if ((s32)x[o->rs1] >= (s32)x[o->rs2])
			KSIM_POOL_JUMP(o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
	KSIM_POOL_OP(BLTU)
		if (x[o->rs1] < x[o->rs2])
			KSIM_POOL_JUMP(o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
	KSIM_POOL_OP(BGEU)
		if (x[o->rs1] >= x[o->rs2])
			KSIM_POOL_JUMP(o->imm);
		KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
	KSIM_POOL_OP(JAL)
		x[o->rd] = KSIM_POOL_PC() + 4;
		KSIM_POOL_JUMP(o->imm);
	KSIM_POOL_OP(JALR)
		a = (x[o->rs1] + o->imm) & ~1u;
		if (a & 3) {
			cause = KH_POOL_CAUSE_FETCH_MISALIGNED;
			goto trap;	/* on the jump, which does not retire */
		}
		x[o->rd] = KSIM_POOL_PC() + 4;
		if (ksim_pool_unlikely(a >= KH_POOL_IRAM_SIZE)) {
			tpc = a;
			goto jump_fault;
		}
		KSIM_POOL_JUMP(a / 4);
	KSIM_POOL_OP(BRBAD)
		if (!ksim_pool_taken(o->rd, x[o->rs1], x[o->rs2]))
			KSIM_POOL_NEXT(KH_POOL_LAT_BRANCH);
		if (o->imm & 3) {
			cause = KH_POOL_CAUSE_FETCH_MISALIGNED;
			goto trap;
		}
		tpc = o->imm;
		goto jump_fault;
	KSIM_POOL_OP(JALBAD)
		if (o->imm & 3) {
			cause = KH_POOL_CAUSE_FETCH_MISALIGNED;
			goto trap;
		}
		x[o->rd] = KSIM_POOL_PC() + 4;
		tpc = o->imm;
		goto jump_fault;
	KSIM_POOL_OP(LW)
		a = x[o->rs1] + o->imm;
		v = a - KH_POOL_DRAM_BASE;
		if (ksim_pool_likely(v - lo < dsz && !(a & 3))) {
			x[o->rd] = ksim_pool_rd32(dm + v);
			KSIM_POOL_NEXT(KH_POOL_LAT_LOAD);
		}
		goto mem;
	KSIM_POOL_OP(LBU)
		a = x[o->rs1] + o->imm;
		v = a - KH_POOL_DRAM_BASE;
		if (ksim_pool_likely(v - lo < dsz)) {
			x[o->rd] = dm[v];
			KSIM_POOL_NEXT(KH_POOL_LAT_LOAD);
		}
		goto mem;
	KSIM_POOL_OP(SW)
		a = x[o->rs1] + o->imm;
		v = a - KH_POOL_DRAM_BASE;
		if (ksim_pool_likely(v - lo < dsz && !(a & 3))) {
			ksim_pool_wr32(dm + v, x[o->rs2]);
			KSIM_POOL_NEXT(KH_POOL_LAT_STORE);
		}
		goto mem;
	KSIM_POOL_OP(SB)
		a = x[o->rs1] + o->imm;
		v = a - KH_POOL_DRAM_BASE;
		if (ksim_pool_likely(v - lo < dsz)) {
			dm[v] = (u8)x[o->rs2];
			KSIM_POOL_NEXT(KH_POOL_LAT_STORE);
		}
		goto mem;
	KSIM_POOL_OP(LB)
	KSIM_POOL_OP(LH)
	KSIM_POOL_OP(LHU)
	KSIM_POOL_OP(SH)
		a = x[o->rs1] + o->imm;
		goto mem;
	KSIM_POOL_OP(NOP)
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(FENCE)
		if (c->wb_count)
			goto ext;	/* posted writes: wait for their acks */
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(CSR)
		ksim_pool_csr_own(c, o, t0 + n + e, n);
		KSIM_POOL_NEXT(KH_POOL_LAT_ALU);
	KSIM_POOL_OP(CSRX)
	KSIM_POOL_OP(WFI)
		goto ext;
	KSIM_POOL_OP(VEC)
		/*
		 * seed 002 §3.2: with CP1 disabled the op is squashed before
		 * any effect (the precise Coprocessor1Exception)
		 */
		if (ksim_pool_unlikely(!(c->vec.cpenable & KH_PV_CPENABLE_CP1))) {
			cause = KH_POOL_CAUSE_CP_DISABLED;
			goto trap;
		}
		if (ksim_pool_unlikely(!ksim_pool_vec_exec(p, c, o, &cause)))
			goto trap;
		KSIM_POOL_NEXT(ksim_pool_vec_sched(&c->vec, o, t0 + n + e));
	KSIM_POOL_OP(ECALL)
		cause = KH_POOL_CAUSE_ECALL;
		goto trap;
	KSIM_POOL_OP(EBREAK)
		cause = KH_POOL_CAUSE_EBREAK;
		goto trap;
	KSIM_POOL_OP(FETCHF)
		cause = KH_POOL_CAUSE_FETCH_FAULT;
		goto trap;
	KSIM_POOL_OP_DEFAULT(ILLEGAL)
		cause = KH_POOL_CAUSE_ILLEGAL;
		goto trap;
	}
mem:
	switch (ksim_pool_mem_slow(p, c, o, a, &cause)) {
	case KSIM_POOL_M_DONE:
		KSIM_POOL_NEXT(ksim_pool_is_store(o->k) ? KH_POOL_LAT_STORE :
							  KH_POOL_LAT_LOAD);
	case KSIM_POOL_M_EXT:
		goto ext;
	default:
		goto trap;
	}
jump_fault:
	/* the jump retires; the fetch at its target faults */
	e += KH_POOL_LAT_TAKEN - 1;
	n++;
	c->pend = KSIM_POOL_P_TRAP;
	c->trap_cause = KH_POOL_CAUSE_FETCH_FAULT;
	c->trap_pc = tpc;
	c->pc = tpc;
	goto done;
ext:
	c->pend = KSIM_POOL_P_EXT;
	goto out;
trap:
	c->pend = KSIM_POOL_P_TRAP;
	c->trap_cause = cause;
	c->trap_pc = KSIM_POOL_PC();
out:
	c->pc = KSIM_POOL_PC();
done:
	c->t = t0 + n + e;
	c->instret += n;
	p->executed += n;
}
