/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Helpers for the POOL unit's tests: an RV32IM encoder (no toolchain
 * needed), a program builder, and a card with one or more gp units whose
 * IRAM, DataRAM and RUNSTALL the tests reach directly or through real
 * CU_CTRL / CU_DATA / CU_INST flits.
 */
#ifndef KH_MPOOL_H
#define KH_MPOOL_H

#include "mmesh.h"
#include "units/pool/pool.h"

/* ---- the encoder ---- */
u32 rv_r(unsigned int f7, unsigned int rs2, unsigned int rs1, unsigned int f3,
	 unsigned int rd, unsigned int op);
u32 rv_i(u32 imm, unsigned int rs1, unsigned int f3, unsigned int rd,
	 unsigned int op);
u32 rv_s(u32 imm, unsigned int rs2, unsigned int rs1, unsigned int f3);
u32 rv_b(u32 off, unsigned int rs1, unsigned int rs2, unsigned int f3);
u32 rv_u(u32 imm, unsigned int rd, unsigned int op);
u32 rv_j(u32 off, unsigned int rd);

#define RV_OP		0x33
#define RV_OPIMM	0x13
#define RV_LOAD		0x03
#define RV_SYSTEM	0x73

#define ADD(d, a, b)	rv_r(0x00, b, a, 0, d, RV_OP)
#define SUB(d, a, b)	rv_r(0x20, b, a, 0, d, RV_OP)
#define SLL(d, a, b)	rv_r(0x00, b, a, 1, d, RV_OP)
#define SLT(d, a, b)	rv_r(0x00, b, a, 2, d, RV_OP)
#define SLTU(d, a, b)	rv_r(0x00, b, a, 3, d, RV_OP)
#define XOR(d, a, b)	rv_r(0x00, b, a, 4, d, RV_OP)
#define SRL(d, a, b)	rv_r(0x00, b, a, 5, d, RV_OP)
#define SRA(d, a, b)	rv_r(0x20, b, a, 5, d, RV_OP)
#define OR(d, a, b)	rv_r(0x00, b, a, 6, d, RV_OP)
#define AND(d, a, b)	rv_r(0x00, b, a, 7, d, RV_OP)
#define MUL(d, a, b)	rv_r(0x01, b, a, 0, d, RV_OP)
#define MULH(d, a, b)	rv_r(0x01, b, a, 1, d, RV_OP)
#define MULHSU(d, a, b)	rv_r(0x01, b, a, 2, d, RV_OP)
#define MULHU(d, a, b)	rv_r(0x01, b, a, 3, d, RV_OP)
#define DIV(d, a, b)	rv_r(0x01, b, a, 4, d, RV_OP)
#define DIVU(d, a, b)	rv_r(0x01, b, a, 5, d, RV_OP)
#define REM(d, a, b)	rv_r(0x01, b, a, 6, d, RV_OP)
#define REMU(d, a, b)	rv_r(0x01, b, a, 7, d, RV_OP)
#define ADDI(d, a, i)	rv_i(i, a, 0, d, RV_OPIMM)
#define SLTI(d, a, i)	rv_i(i, a, 2, d, RV_OPIMM)
#define SLTIU(d, a, i)	rv_i(i, a, 3, d, RV_OPIMM)
#define XORI(d, a, i)	rv_i(i, a, 4, d, RV_OPIMM)
#define ORI(d, a, i)	rv_i(i, a, 6, d, RV_OPIMM)
#define ANDI(d, a, i)	rv_i(i, a, 7, d, RV_OPIMM)
#define SLLI(d, a, s)	rv_i((s) & 0x1f, a, 1, d, RV_OPIMM)
#define SRLI(d, a, s)	rv_i((s) & 0x1f, a, 5, d, RV_OPIMM)
#define SRAI(d, a, s)	rv_i(0x400 | ((s) & 0x1f), a, 5, d, RV_OPIMM)
#define LB(d, a, i)	rv_i(i, a, 0, d, RV_LOAD)
#define LH(d, a, i)	rv_i(i, a, 1, d, RV_LOAD)
#define LW(d, a, i)	rv_i(i, a, 2, d, RV_LOAD)
#define LBU(d, a, i)	rv_i(i, a, 4, d, RV_LOAD)
#define LHU(d, a, i)	rv_i(i, a, 5, d, RV_LOAD)
#define SB(s, a, i)	rv_s(i, s, a, 0)
#define SH(s, a, i)	rv_s(i, s, a, 1)
#define SW(s, a, i)	rv_s(i, s, a, 2)
#define BEQ(a, b, o)	rv_b(o, a, b, 0)
#define BNE(a, b, o)	rv_b(o, a, b, 1)
#define BLT(a, b, o)	rv_b(o, a, b, 4)
#define BGE(a, b, o)	rv_b(o, a, b, 5)
#define BLTU(a, b, o)	rv_b(o, a, b, 6)
#define BGEU(a, b, o)	rv_b(o, a, b, 7)
#define LUI(d, i)	rv_u(i, d, 0x37)
#define AUIPC(d, i)	rv_u(i, d, 0x17)
#define JAL(d, o)	rv_j(o, d)
#define JALR(d, a, i)	rv_i(i, a, 0, d, 0x67)
#define CSRRW(d, c, a)	rv_i(c, a, 1, d, RV_SYSTEM)
#define CSRRS(d, c, a)	rv_i(c, a, 2, d, RV_SYSTEM)
#define CSRRC(d, c, a)	rv_i(c, a, 3, d, RV_SYSTEM)
#define CSRRWI(d, c, u)	rv_i(c, u, 5, d, RV_SYSTEM)
#define CSRRSI(d, c, u)	rv_i(c, u, 6, d, RV_SYSTEM)
#define CSRRCI(d, c, u)	rv_i(c, u, 7, d, RV_SYSTEM)
#define CSRR(d, c)	CSRRS(d, c, 0)
#define CSRW(c, a)	CSRRW(0, c, a)
#define FENCE		0x0ff0000fu
#define FENCE_I		0x0000100fu
#define ECALL		0x00000073u
#define EBREAK		0x00100073u
#define WFI		0x10500073u
#define NOP		ADDI(0, 0, 0)

/* ---- programs ---- */
#define MP_PROG_MAX	4096

struct mp_prog {
	u32 w[MP_PROG_MAX];
	unsigned int n;
};

void mp_init(struct mp_prog *p);
/* The byte address of the next word. */
u32 mp_here(const struct mp_prog *p);
void mp_emit(struct mp_prog *p, u32 w);
/* rd = v (LUI + ADDI, always two words). */
void mp_li(struct mp_prog *p, unsigned int rd, u32 v);
/* Patch the branch or JAL at byte address at to jump to target. */
void mp_patch(struct mp_prog *p, u32 at, u32 target);
/* The end of a test program: WFI forever. */
void mp_halt(struct mp_prog *p);
/*
 * A vector test's start (docs/spec/pool-vector.md): a fresh program whose
 * x[base] is DataRAM's address and whose core has the coprocessor enabled
 * (cpenable CP1, through x1).
 */
void mp_vec_prolog(struct mp_prog *p, unsigned int base);
/* xorshift64: the tests' random numbers, from a seed of their own */
u64 mp_rand(u64 *state);
/*
 * Lane i of bits (8 .. 64) of a register held as its 64 little-endian
 * bytes, byte by byte: the vector tests' references, apart from the
 * model's own word tricks
 */
u64 mp_lget(const u8 *v, unsigned int bits, unsigned int i);
void mp_lset(u8 *v, unsigned int bits, unsigned int i, u64 x);

/* ---- a card with gp units ---- */
struct mp_card {
	struct ksim_card *c;
	unsigned int x, y;	/* the unit tests talk to */
	struct ksim_pool *p;
};

/* One gp unit at (1, 0) of a 1-router map, ship parameters (or rtl). */
#define MP_MAP_ONE \
	"xxx gp  xxx\n" \
	"mag nul nul\n" \
	"xxx nul xxx\n"

/*
 * A card from desc, the unit tests talk to at (x, y), with no bounds
 * (BOUNDS_EN = KH_POOL_BOUNDS_ALL, version 1's reach; the other gp units
 * of the card keep their power-on 0: no DRAM).
 */
bool mp_open(struct mp_card *m, const char *desc, unsigned int x,
	     unsigned int y);
void mp_close(struct mp_card *m);
struct ksim_pool *mp_unit(struct mp_card *m, unsigned int x, unsigned int y);

/*
 * All cores to reset, prog into IRAM (directly), then the cores in run
 * (mask) out of reset and run-stall at RESET_PC 0; the others stay
 * stalled and in reset.
 */
void mp_start(struct mp_card *m, const struct mp_prog *prog, unsigned int run);
/* Run until every core in mask sleeps in WFI or has trapped; false on timeout. */
bool mp_settle(struct mp_card *m, unsigned int mask, u64 max_cycles);
/* Run prog on core 0 alone until it settles; true if it did. */
bool mp_exec(struct mp_card *m, const struct mp_prog *prog);
u32 mp_dword(struct mp_card *m, unsigned int core, u32 off);
/* Run until core's DataRAM word at off is nonzero; false on timeout. */
bool mp_wait_word(struct mp_card *m, unsigned int core, u32 off,
		  u64 max_cycles);

/* CU_CTRL through the mailbox (real flits). */
u64 mp_reg(struct mp_card *m, unsigned int idx);
u64 mp_reg_wr(struct mp_card *m, unsigned int idx, u64 v);

/* A job (CU_INST) through the mailbox; w[7] holds the opcode. */
void mp_inst(struct mp_card *m, const u32 *w, unsigned int txn, bool last);
/* Wait for NODE_STATUS to count to want; the NODE_STATUS value, or 0. */
u64 mp_wait_ns(struct mp_card *m, unsigned int want, u64 max_cycles);
/* A CU_DATA burst from the mailbox: a descriptor, n data flits, 500 cycles. */
void mp_cudata(struct mp_card *m, unsigned int buf, unsigned int off,
	       unsigned int n, unsigned int flags, const u8 *data);

/* ---- the iDMA ---- */
/* Descriptor i of core's queue-to-be, at its DataRAM 0x1000 + 64 i. */
void mp_desc(struct mp_card *m, unsigned int core, unsigned int i, u64 dram,
	     u32 dataram, u32 len, u32 flags, u32 pattern);
/*
 * core alone runs a program that pushes n descriptors (mp_desc's, poked
 * before the run), waits until all n completed or an error, stores
 * idma_status at its DataRAM 4, then 1 at 8 (mp_wait_word(m, core, 8)).
 */
void mp_idma_run(struct mp_card *m, unsigned int core, u32 n);

#endif /* KH_MPOOL_H */
