// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL core's instruction set (docs/spec/pool.md "The cores", "Memory
 * map", "Faults", "Timing"): programs assembled by mpool.c's encoder, run
 * on one core of a gp unit, results read from its DataRAM and registers
 * and checked against the RISC-V spec written out here independently of
 * the model (a reference per instruction).  Every RV32IM instruction with
 * edge values, Zicsr, x0, the traps (the core halts, TRAP holds the first,
 * SIG_FAULT class trap for a present job), WFI, the barrier and FENCE.
 */
#include "mpool.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_BASE	10	/* x10: DataRAM, where results go */

static const u32 vals[] = {
	0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 31, 32, 33,
	0x12345678, 0x87654321, 0xffffffe1,
};
#define NV	(sizeof(vals) / sizeof(vals[0]))

static const u32 imms[] = { 0, 1, 0xfff, 0x7ff, 0x800, 0x555, 0xaaa };
#define NI	(sizeof(imms) / sizeof(imms[0]))

static u32 sext12(u32 i)
{
	return ((i & 0xfff) ^ 0x800) - 0x800;
}

/* ---- the references, straight from the RISC-V unprivileged spec ---- */

enum { O_ADD, O_SUB, O_SLL, O_SLT, O_SLTU, O_XOR, O_SRL, O_SRA, O_OR, O_AND,
       O_MUL, O_MULH, O_MULHSU, O_MULHU, O_DIV, O_DIVU, O_REM, O_REMU, O_N };

static const char *const o_name[O_N] = {
	"add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
	"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
};

static u32 o_enc(unsigned int o, unsigned int d, unsigned int a,
		 unsigned int b)
{
	switch (o) {
	case O_ADD: return ADD(d, a, b);
	case O_SUB: return SUB(d, a, b);
	case O_SLL: return SLL(d, a, b);
	case O_SLT: return SLT(d, a, b);
	case O_SLTU: return SLTU(d, a, b);
	case O_XOR: return XOR(d, a, b);
	case O_SRL: return SRL(d, a, b);
	case O_SRA: return SRA(d, a, b);
	case O_OR: return OR(d, a, b);
	case O_AND: return AND(d, a, b);
	case O_MUL: return MUL(d, a, b);
	case O_MULH: return MULH(d, a, b);
	case O_MULHSU: return MULHSU(d, a, b);
	case O_MULHU: return MULHU(d, a, b);
	case O_DIV: return DIV(d, a, b);
	case O_DIVU: return DIVU(d, a, b);
	case O_REM: return REM(d, a, b);
	default: return REMU(d, a, b);
	}
}

static u32 ref_sra(u32 a, unsigned int s)
{
	s &= 31;
	if (!(a & 0x80000000u) || !s)
		return a >> s;
	return (a >> s) | ~(0xffffffffu >> s);
}

static u32 o_ref(unsigned int o, u32 a, u32 b)
{
	__int128 p;

	switch (o) {
	case O_ADD: return a + b;
	case O_SUB: return a - b;
	case O_SLL: return a << (b & 31);
	case O_SLT: return (int32_t)a < (int32_t)b;
	case O_SLTU: return a < b;
	case O_XOR: return a ^ b;
	case O_SRL: return a >> (b & 31);
	case O_SRA: return ref_sra(a, b);
	case O_OR: return a | b;
	case O_AND: return a & b;
	case O_MUL: return a * b;
	case O_MULH:
		p = (__int128)(int32_t)a * (int32_t)b;
		return (u32)(p >> 32);
	case O_MULHSU:
		p = (__int128)(int32_t)a * (__int128)b;
		return (u32)(p >> 32);
	case O_MULHU: return (u32)(((u64)a * b) >> 32);
	case O_DIV:
		if (!b)
			return 0xffffffffu;	/* -1 */
		if (a == 0x80000000u && b == 0xffffffffu)
			return a;		/* overflow: the dividend */
		return (u32)((int32_t)a / (int32_t)b);
	case O_DIVU: return b ? a / b : 0xffffffffu;
	case O_REM:
		if (!b)
			return a;
		if (a == 0x80000000u && b == 0xffffffffu)
			return 0;
		return (u32)((int32_t)a % (int32_t)b);
	default: return b ? a % b : a;
	}
}

static struct mp_card m;
static struct mp_prog pg;

static void prolog(void)
{
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
}

/* Store x3 as result k (k counts up from 0 in a program). */
static void st_res(unsigned int k)
{
	if (k && !(k % 256))
		mp_emit(&pg, ADDI(R_BASE, R_BASE, 1024));
	mp_emit(&pg, SW(3, R_BASE, (k % 256) * 4));
}

static bool open_card(void)
{
	if (m.c)
		return true;
	return mp_open(&m, MP_MAP_ONE, 1, 0);
}

TEST_F(model, rtype_every_op_every_pair)
{
	unsigned int o, i, j, k, bad;

	REQUIRE(open_card());
	for (o = 0; o < O_N; o++) {
		prolog();
		for (i = 0, k = 0; i < NV; i++)
			for (j = 0; j < NV; j++, k++) {
				mp_li(&pg, 1, vals[i]);
				mp_li(&pg, 2, vals[j]);
				mp_emit(&pg, o_enc(o, 3, 1, 2));
				st_res(k);
			}
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		CHECK_EQ(m.p->halted, 0);
		bad = 0;
		for (i = 0, k = 0; i < NV; i++)
			for (j = 0; j < NV; j++, k++) {
				u32 got = mp_dword(&m, 0, k * 4);
				u32 want = o_ref(o, vals[i], vals[j]);

				if (got != want && bad++ < 4)
					CHECK_MSG(0, "%s %08x, %08x = %08x, want %08x",
						  o_name[o], vals[i], vals[j],
						  got, want);
			}
		CHECK_EQ(bad, 0);
	}
}

TEST_F(model, rd_equal_to_a_source)
{
	REQUIRE(open_card());
	prolog();
	mp_li(&pg, 1, 5);
	mp_li(&pg, 2, 7);
	mp_emit(&pg, ADD(1, 1, 2));	/* x1 = 12 */
	mp_emit(&pg, SUB(2, 1, 2));	/* x2 = 5 */
	mp_emit(&pg, MUL(1, 1, 1));	/* x1 = 144 */
	mp_emit(&pg, SW(1, R_BASE, 0));
	mp_emit(&pg, SW(2, R_BASE, 4));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(mp_dword(&m, 0, 0), 144);
	CHECK_EQ(mp_dword(&m, 0, 4), 5);
}

TEST_F(model, itype_every_op)
{
	static const unsigned int f3s[6] = { 0, 2, 3, 4, 6, 7 };
	unsigned int f, i, j, k, bad = 0;

	REQUIRE(open_card());
	prolog();
	for (f = 0, k = 0; f < 6; f++)
		for (i = 0; i < NV; i++)
			for (j = 0; j < NI; j++, k++) {
				mp_li(&pg, 1, vals[i]);
				mp_emit(&pg, rv_i(imms[j], 1, f3s[f], 3, RV_OPIMM));
				st_res(k);
			}
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	for (f = 0, k = 0; f < 6; f++)
		for (i = 0; i < NV; i++)
			for (j = 0; j < NI; j++, k++) {
				u32 a = vals[i], im = sext12(imms[j]), want;

				switch (f3s[f]) {
				case 0: want = a + im; break;
				case 2: want = (int32_t)a < (int32_t)im; break;
				case 3: want = a < im; break;	/* imm sign-extended, compared unsigned */
				case 4: want = a ^ im; break;
				case 6: want = a | im; break;
				default: want = a & im; break;
				}
				if (mp_dword(&m, 0, k * 4) != want && bad++ < 4)
					CHECK_MSG(0, "op-imm f3 %u %08x, %03x = %08x, want %08x",
						  f3s[f], a, imms[j],
						  mp_dword(&m, 0, k * 4), want);
			}
	CHECK_EQ(bad, 0);
}

TEST_F(model, shift_immediates_and_register_shift_amounts)
{
	static const unsigned int sh[] = { 0, 1, 15, 31 };
	unsigned int i, s, k, bad = 0;

	REQUIRE(open_card());
	prolog();
	for (i = 0, k = 0; i < NV; i++)
		for (s = 0; s < 4; s++, k += 3) {
			mp_li(&pg, 1, vals[i]);
			mp_emit(&pg, SLLI(3, 1, sh[s]));
			mp_emit(&pg, SW(3, R_BASE, k * 4));
			mp_emit(&pg, SRLI(3, 1, sh[s]));
			mp_emit(&pg, SW(3, R_BASE, k * 4 + 4));
			mp_emit(&pg, SRAI(3, 1, sh[s]));
			mp_emit(&pg, SW(3, R_BASE, k * 4 + 8));
		}
	/* register amounts use [4:0] only: 0xffffffe1 shifts by 1, 32 by 0 */
	mp_li(&pg, 1, 0x80000001u);
	mp_li(&pg, 2, 0xffffffe1u);
	mp_emit(&pg, SLL(3, 1, 2));
	mp_emit(&pg, SW(3, R_BASE, 1024));
	mp_emit(&pg, SRA(3, 1, 2));
	mp_emit(&pg, SW(3, R_BASE, 1028));
	mp_li(&pg, 2, 32);
	mp_emit(&pg, SRL(3, 1, 2));
	mp_emit(&pg, SW(3, R_BASE, 1032));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	for (i = 0, k = 0; i < NV; i++)
		for (s = 0; s < 4; s++, k += 3) {
			u32 a = vals[i];

			if ((mp_dword(&m, 0, k * 4) != a << sh[s] ||
			     mp_dword(&m, 0, k * 4 + 4) != a >> sh[s] ||
			     mp_dword(&m, 0, k * 4 + 8) != ref_sra(a, sh[s])) &&
			    bad++ < 4)
				CHECK_MSG(0, "shifts of %08x by %u", a, sh[s]);
		}
	CHECK_EQ(bad, 0);
	CHECK_EQ(mp_dword(&m, 0, 1024), 0x00000002u);
	CHECK_EQ(mp_dword(&m, 0, 1028), 0xc0000000u);
	CHECK_EQ(mp_dword(&m, 0, 1032), 0x80000001u);
}

TEST_F(model, reserved_encodings_are_illegal)
{
	static const u32 bad[] = {
		0x00000000u,			/* all zero */
		0xffffffffu,			/* all one */
		/* the vector unit's reserved words (pool-vector.md), whatever cpenable */
		0x0000300bu,			/* custom-0, lane width code 3 */
		0x0000602bu,			/* custom-1 funct3 6 */
		0x0600005bu,			/* custom-2 vqmac mode 3 */
		0x0000307bu,			/* custom-3, lane type code 3 */
		0x02009093u | 0x00000000u,	/* slli with shamt[5] set */
		0x40001093u,			/* slli with funct7 0x20 */
		0x60005093u,			/* sr*i with funct7 0x30 */
		0x40001033u,			/* sll with funct7 0x20 */
		0x04000033u,			/* funct7 0x02 */
		0x00003003u,			/* ld: RV64 only */
		0x00006003u,			/* lwu: RV64 only */
		0x00003023u,			/* sd */
		0x00002063u,			/* branch funct3 2 */
		0x00001067u,			/* jalr funct3 1 */
		0x00004073u,			/* SYSTEM funct3 4 */
		0x30200073u,			/* mret: not in this core */
		0x00000001u,			/* a compressed encoding */
		0x00000053u,			/* OP-FP: no F */
		0x0000202fu,			/* AMO: no A */
		0x0000200fu,			/* MISC-MEM funct3 2 */
	};
	unsigned int i;

	REQUIRE(open_card());
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		u64 trap;

		mp_init(&pg);
		mp_emit(&pg, NOP);
		mp_emit(&pg, bad[i]);
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);
		CHECK_MSG(m.p->halted == 1 && trap & KH_POOL_TRAP_VALID &&
			  KH_POOL_TRAP_CAUSE(trap) == KH_POOL_CAUSE_ILLEGAL &&
			  KH_POOL_TRAP_PC(trap) == 4,
			  "word %08x: halted %02x TRAP %016llx", bad[i],
			  m.p->halted, (unsigned long long)trap);
	}
}

TEST_F(model, x0_is_never_written)
{
	REQUIRE(open_card());
	prolog();
	mp_li(&pg, 1, 0x1234);
	mp_emit(&pg, SW(1, R_BASE, 0));
	mp_emit(&pg, ADDI(0, 0, 5));
	mp_emit(&pg, ADD(0, 1, 1));
	mp_emit(&pg, LUI(0, 0x12345000));
	mp_emit(&pg, LW(0, R_BASE, 0));
	mp_emit(&pg, JAL(0, 8));
	mp_emit(&pg, EBREAK);		/* skipped */
	mp_emit(&pg, CSRR(0, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, ADD(3, 0, 0));
	mp_emit(&pg, SW(3, R_BASE, 4));
	mp_emit(&pg, SW(0, R_BASE, 8));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->halted, 0);
	CHECK_EQ(m.p->core[0].x[0], 0);
	CHECK_EQ(mp_dword(&m, 0, 4), 0);
	CHECK_EQ(mp_dword(&m, 0, 8), 0);
}

TEST_F(model, lui_auipc)
{
	u32 at;

	REQUIRE(open_card());
	prolog();
	mp_emit(&pg, LUI(1, 0xfffff000u));
	mp_emit(&pg, SW(1, R_BASE, 0));
	mp_emit(&pg, LUI(1, 0x80000000u));
	mp_emit(&pg, SW(1, R_BASE, 4));
	at = mp_here(&pg);
	mp_emit(&pg, AUIPC(2, 0x12345000u));
	mp_emit(&pg, SW(2, R_BASE, 8));
	mp_emit(&pg, AUIPC(2, 0xfffff000u));	/* pc - 4096 */
	mp_emit(&pg, SW(2, R_BASE, 12));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(mp_dword(&m, 0, 0), 0xfffff000u);
	CHECK_EQ(mp_dword(&m, 0, 4), 0x80000000u);
	CHECK_EQ(mp_dword(&m, 0, 8), at + 0x12345000u);
	CHECK_EQ(mp_dword(&m, 0, 12), at + 8 - 4096);
}

TEST_F(model, jal_jalr_links_and_low_bit)
{
	u32 j1, t1, j2, t2, j3;

	REQUIRE(open_card());
	prolog();
	j1 = mp_here(&pg);
	mp_emit(&pg, JAL(1, 0));		/* forward, patched */
	mp_emit(&pg, EBREAK);
	t1 = mp_here(&pg);
	mp_patch(&pg, j1, t1);
	mp_emit(&pg, SW(1, R_BASE, 0));		/* j1 + 4 */
	/* jalr to an odd address: bit 0 cleared */
	mp_li(&pg, 5, 0);			/* patched below */
	j2 = mp_here(&pg);
	mp_emit(&pg, JALR(6, 5, 1));
	mp_emit(&pg, EBREAK);
	t2 = mp_here(&pg);
	pg.w[(j2 - 8) / 4] = LUI(5, 0);
	pg.w[(j2 - 4) / 4] = ADDI(5, 0, t2);	/* x5 = t2, +1 in jalr */
	mp_emit(&pg, SW(6, R_BASE, 4));
	/* rd == rs1: the target is computed from the old value */
	mp_emit(&pg, ADDI(7, 0, 0));
	j3 = mp_here(&pg);
	mp_emit(&pg, ADDI(7, 0, j3 + 12));
	mp_emit(&pg, JALR(7, 7, 0));
	mp_emit(&pg, EBREAK);
	mp_emit(&pg, SW(7, R_BASE, 8));		/* j3 + 12 */
	/* a backward jal: a loop of 5 */
	mp_emit(&pg, ADDI(8, 0, 5));
	mp_emit(&pg, ADDI(9, 0, 0));
	mp_emit(&pg, ADDI(9, 9, 3));		/* loop: */
	mp_emit(&pg, ADDI(8, 8, -1));
	mp_emit(&pg, BEQ(8, 0, 8));
	mp_emit(&pg, JAL(0, (u32)-12));
	mp_emit(&pg, SW(9, R_BASE, 12));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->halted, 0);
	CHECK_EQ(mp_dword(&m, 0, 0), j1 + 4);
	CHECK_EQ(mp_dword(&m, 0, 4), j2 + 4);
	CHECK_EQ(mp_dword(&m, 0, 8), j3 + 8);
	CHECK_EQ(mp_dword(&m, 0, 12), 15);
}

TEST_F(model, branches_both_ways)
{
	unsigned int f, i, j, k, bad = 0;
	static const unsigned int f3s[6] = { 0, 1, 4, 5, 6, 7 };

	REQUIRE(open_card());
	for (f = 0; f < 6; f++) {
		prolog();
		for (i = 0, k = 0; i < NV; i++)
			for (j = 0; j < NV; j++, k++) {
				mp_li(&pg, 1, vals[i]);
				mp_li(&pg, 2, vals[j]);
				mp_emit(&pg, ADDI(3, 0, 0));
				mp_emit(&pg, rv_b(8, 1, 2, f3s[f]));
				mp_emit(&pg, ADDI(3, 0, 1));	/* not taken */
				st_res(k);
			}
		mp_halt(&pg);
		REQUIRE(pg.n < MP_PROG_MAX);
		REQUIRE(mp_exec(&m, &pg));
		for (i = 0, k = 0; i < NV; i++)
			for (j = 0; j < NV; j++, k++) {
				u32 a = vals[i], b = vals[j];
				bool t;

				switch (f3s[f]) {
				case 0: t = a == b; break;
				case 1: t = a != b; break;
				case 4: t = (int32_t)a < (int32_t)b; break;
				case 5: t = (int32_t)a >= (int32_t)b; break;
				case 6: t = a < b; break;
				default: t = a >= b; break;
				}
				if (mp_dword(&m, 0, k * 4) != !t && bad++ < 4)
					CHECK_MSG(0, "branch f3 %u %08x, %08x: taken %u, want %u",
						  f3s[f], a, b,
						  !mp_dword(&m, 0, k * 4), t);
			}
	}
	CHECK_EQ(bad, 0);
}

TEST_F(model, loads_stores_widths_and_sign_extension)
{
	u32 data;

	REQUIRE(open_card());
	prolog();
	mp_li(&pg, 1, 0x80ff7f01u);
	mp_emit(&pg, SW(1, R_BASE, 0x100));
	mp_emit(&pg, LB(2, R_BASE, 0x100));	/* 0x01 */
	mp_emit(&pg, SW(2, R_BASE, 0));
	mp_emit(&pg, LB(2, R_BASE, 0x102));	/* 0xff -> -1 */
	mp_emit(&pg, SW(2, R_BASE, 4));
	mp_emit(&pg, LBU(2, R_BASE, 0x102));
	mp_emit(&pg, SW(2, R_BASE, 8));
	mp_emit(&pg, LB(2, R_BASE, 0x103));	/* 0x80 -> sign */
	mp_emit(&pg, SW(2, R_BASE, 12));
	mp_emit(&pg, LH(2, R_BASE, 0x102));	/* 0x80ff */
	mp_emit(&pg, SW(2, R_BASE, 16));
	mp_emit(&pg, LHU(2, R_BASE, 0x102));
	mp_emit(&pg, SW(2, R_BASE, 20));
	mp_emit(&pg, LH(2, R_BASE, 0x100));	/* 0x7f01 */
	mp_emit(&pg, SW(2, R_BASE, 24));
	mp_emit(&pg, LW(2, R_BASE, 0x100));
	mp_emit(&pg, SW(2, R_BASE, 28));
	/* stores of each width, negative offsets */
	mp_emit(&pg, ADDI(5, R_BASE, 0x200));
	mp_li(&pg, 1, 0xa5a5a5a5u);
	mp_emit(&pg, SW(1, 5, -4));
	mp_li(&pg, 1, 0x11223344u);
	mp_emit(&pg, SB(1, 5, -4));
	mp_emit(&pg, SH(1, 5, -2));
	/* the top of DataRAM */
	mp_li(&pg, 6, KH_POOL_DRAM_BASE + KH_POOL_DRAM_SIZE - 4);
	mp_emit(&pg, SW(1, 6, 0));
	mp_emit(&pg, LW(2, 6, 0));
	mp_emit(&pg, SW(2, R_BASE, 32));
	/* loads from IRAM: 32-bit aligned, any width */
	mp_emit(&pg, JAL(0, 8));
	data = mp_here(&pg);
	mp_emit(&pg, 0x8091a2b3u);
	mp_emit(&pg, LW(2, 0, data));
	mp_emit(&pg, SW(2, R_BASE, 36));
	mp_emit(&pg, LB(2, 0, data));
	mp_emit(&pg, SW(2, R_BASE, 40));
	mp_emit(&pg, LHU(2, 0, data));
	mp_emit(&pg, SW(2, R_BASE, 44));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->halted, 0);
	CHECK_EQ(mp_dword(&m, 0, 0), 0x01);
	CHECK_EQ(mp_dword(&m, 0, 4), 0xffffffffu);
	CHECK_EQ(mp_dword(&m, 0, 8), 0xff);
	CHECK_EQ(mp_dword(&m, 0, 12), 0xffffff80u);
	CHECK_EQ(mp_dword(&m, 0, 16), 0xffff80ffu);
	CHECK_EQ(mp_dword(&m, 0, 20), 0x80ff);
	CHECK_EQ(mp_dword(&m, 0, 24), 0x7f01);
	CHECK_EQ(mp_dword(&m, 0, 28), 0x80ff7f01u);
	CHECK_EQ(mp_dword(&m, 0, 0x1fc), 0x3344a544u);
	CHECK_EQ(mp_dword(&m, 0, 32), 0x11223344u);
	CHECK_EQ(mp_dword(&m, 0, KH_POOL_DRAM_SIZE - 4), 0x11223344u);
	CHECK_EQ(mp_dword(&m, 0, 36), 0x8091a2b3u);
	CHECK_EQ(mp_dword(&m, 0, 40), 0xffffffb3u);
	CHECK_EQ(mp_dword(&m, 0, 44), 0xa2b3);
}

TEST_F(model, csr_reads_and_writes)
{
	REQUIRE(open_card());
	prolog();
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, SW(1, R_BASE, 0));
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_PRID));
	mp_emit(&pg, SW(1, R_BASE, 4));
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_NCORES));
	mp_emit(&pg, SW(1, R_BASE, 8));
	/* win_base: RW, 1 MiB aligned; the six forms */
	mp_li(&pg, 2, 0x12345678u);
	mp_emit(&pg, CSRRW(1, KH_POOL_CSR_WIN_BASE, 2));	/* old 0 */
	mp_emit(&pg, SW(1, R_BASE, 12));
	mp_li(&pg, 2, 0x0f000000u);
	mp_emit(&pg, CSRRS(1, KH_POOL_CSR_WIN_BASE, 2));	/* old 0x12300000 */
	mp_emit(&pg, SW(1, R_BASE, 16));
	mp_li(&pg, 2, 0x10000000u);
	mp_emit(&pg, CSRRC(1, KH_POOL_CSR_WIN_BASE, 2));	/* old 0x1f300000 */
	mp_emit(&pg, SW(1, R_BASE, 20));
	mp_emit(&pg, CSRRSI(1, KH_POOL_CSR_WIN_BASE, 0));	/* no write */
	mp_emit(&pg, SW(1, R_BASE, 24));
	mp_emit(&pg, CSRRWI(1, KH_POOL_CSR_WIN_BASE, 31));	/* low bits read 0 */
	mp_emit(&pg, SW(1, R_BASE, 28));
	mp_emit(&pg, CSRRSI(1, KH_POOL_CSR_WIN_BASE, 1));
	mp_emit(&pg, SW(1, R_BASE, 32));
	mp_emit(&pg, CSRRCI(1, KH_POOL_CSR_WIN_BASE, 1));
	mp_emit(&pg, SW(1, R_BASE, 36));
	/* read-only CSRs read with rs1 = x0 / uimm = 0: no trap */
	mp_emit(&pg, CSRRS(1, KH_POOL_CSR_MHARTID, 0));
	mp_emit(&pg, CSRRCI(1, KH_POOL_CSR_PRID, 0));
	/* instret and cycle: 2 instructions apart, cycle >= instret */
	mp_emit(&pg, CSRR(3, KH_POOL_CSR_INSTRET));
	mp_emit(&pg, CSRR(4, KH_POOL_CSR_INSTRET));
	mp_emit(&pg, CSRR(5, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, CSRR(6, KH_POOL_CSR_CYCLEH));
	mp_emit(&pg, CSRR(7, KH_POOL_CSR_INSTRETH));
	mp_emit(&pg, SW(3, R_BASE, 40));
	mp_emit(&pg, SW(4, R_BASE, 44));
	mp_emit(&pg, SW(5, R_BASE, 48));
	mp_emit(&pg, SW(6, R_BASE, 52));
	mp_emit(&pg, SW(7, R_BASE, 56));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->halted, 0);
	CHECK_EQ(mp_dword(&m, 0, 0), 0);
	CHECK_EQ(mp_dword(&m, 0, 4), KH_POOL_PRID(0));
	CHECK_EQ(mp_dword(&m, 0, 8), KH_POOL_CORES);
	CHECK_EQ(mp_dword(&m, 0, 12), 0);
	CHECK_EQ(mp_dword(&m, 0, 16), 0x12300000u);
	CHECK_EQ(mp_dword(&m, 0, 20), 0x1f300000u);
	CHECK_EQ(mp_dword(&m, 0, 24), 0x0f300000u);
	CHECK_EQ(mp_dword(&m, 0, 28), 0x0f300000u);
	CHECK_EQ(mp_dword(&m, 0, 32), 0);
	CHECK_EQ(mp_dword(&m, 0, 36), 0);
	CHECK_EQ(mp_dword(&m, 0, 44) - mp_dword(&m, 0, 40), 1);
	CHECK(mp_dword(&m, 0, 48) >= mp_dword(&m, 0, 44));
	CHECK_EQ(mp_dword(&m, 0, 52), 0);
	CHECK_EQ(mp_dword(&m, 0, 56), 0);
	CHECK_EQ(m.p->core[0].win_base, 0);
}

TEST_F(model, csr_ids_on_every_core)
{
	unsigned int i;

	REQUIRE(open_card());
	prolog();
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, CSRR(2, KH_POOL_CSR_PRID));
	mp_emit(&pg, SW(1, R_BASE, 0));
	mp_emit(&pg, SW(2, R_BASE, 4));
	mp_halt(&pg);
	mp_start(&m, &pg, 0xff);
	REQUIRE(mp_settle(&m, 0xff, 100000));
	for (i = 0; i < KH_POOL_CORES; i++) {
		CHECK_EQ(mp_dword(&m, i, 0), i);
		CHECK_EQ(mp_dword(&m, i, 4), KH_POOL_PRID(i));
	}
}

/* A program that traps at word `at`; checks TRAP, STATE and the halt. */
static void trap_case(const char *what, unsigned int cause, u32 pc)
{
	u64 trap, state;
	u64 ret;

	REQUIRE(mp_exec(&m, &pg));
	trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);
	state = mp_reg(&m, KH_CTRL_IDX_POOL_STATE);
	CHECK_MSG(trap & KH_POOL_TRAP_VALID, "%s: TRAP %016llx", what,
		  (unsigned long long)trap);
	CHECK_MSG(KH_POOL_TRAP_CAUSE(trap) == cause, "%s: cause %u, want %u",
		  what, KH_POOL_TRAP_CAUSE(trap), cause);
	CHECK_MSG(KH_POOL_TRAP_PC(trap) == pc, "%s: pc %08x, want %08x", what,
		  KH_POOL_TRAP_PC(trap), pc);
	CHECK_EQ(KH_POOL_TRAP_CORE(trap), 0);
	CHECK_MSG(KH_POOL_STATE_HALTED(state) == 1, "%s: STATE %016llx", what,
		  (unsigned long long)state);
	/* halted: nothing more runs */
	ret = m.p->core[0].instret;
	ksim_run(m.c, 5000);
	CHECK_EQ(m.p->core[0].instret, ret);
}

TEST_F(model, traps_every_cause)
{
	REQUIRE(open_card());
	prolog();
	mp_emit(&pg, ECALL);
	trap_case("ecall", KH_POOL_CAUSE_ECALL, 4);

	prolog();
	mp_emit(&pg, NOP);
	mp_emit(&pg, EBREAK);
	trap_case("ebreak", KH_POOL_CAUSE_EBREAK, 8);

	prolog();
	mp_emit(&pg, LW(1, R_BASE, 2));
	trap_case("misaligned lw", KH_POOL_CAUSE_LOAD_MISALIGNED, 4);

	prolog();
	mp_emit(&pg, LH(1, R_BASE, 1));
	trap_case("misaligned lh", KH_POOL_CAUSE_LOAD_MISALIGNED, 4);

	prolog();
	mp_emit(&pg, SW(1, R_BASE, 1));
	trap_case("misaligned sw", KH_POOL_CAUSE_STORE_MISALIGNED, 4);

	prolog();
	mp_emit(&pg, SH(1, R_BASE, 3));
	trap_case("misaligned sh", KH_POOL_CAUSE_STORE_MISALIGNED, 4);

	prolog();
	mp_li(&pg, 1, 0x00040000u);	/* between IRAM and DataRAM */
	mp_emit(&pg, LW(2, 1, 0));
	trap_case("load from nothing", KH_POOL_CAUSE_LOAD_FAULT, 12);

	prolog();
	mp_li(&pg, 1, KH_POOL_DRAM_BASE + KH_POOL_DRAM_SIZE);
	mp_emit(&pg, SB(2, 1, 0));
	trap_case("store past DataRAM", KH_POOL_CAUSE_STORE_FAULT, 12);

	prolog();
	mp_emit(&pg, SW(2, 0, 0x100));
	trap_case("store to IRAM", KH_POOL_CAUSE_STORE_FAULT, 4);

	prolog();
	mp_emit(&pg, LH(2, 0, 0x102));
	trap_case("IRAM load not 32-bit aligned", KH_POOL_CAUSE_LOAD_FAULT, 4);

	prolog();
	mp_li(&pg, 1, KH_POOL_WIN_BASE + KH_POOL_WIN_SIZE);
	mp_emit(&pg, LW(2, 1, 0));
	trap_case("load past the window", KH_POOL_CAUSE_LOAD_FAULT, 12);

	prolog();
	mp_emit(&pg, JAL(0, 6));
	trap_case("jal to 2 mod 4", KH_POOL_CAUSE_FETCH_MISALIGNED, 4);

	prolog();
	mp_emit(&pg, ADDI(1, 0, 0x102));
	mp_emit(&pg, JALR(5, 1, 0));
	trap_case("jalr to 2 mod 4", KH_POOL_CAUSE_FETCH_MISALIGNED, 8);
	CHECK_EQ(m.p->core[0].x[5], 0);	/* the jump did not retire */

	prolog();
	mp_emit(&pg, rv_b(6, 0, 0, 0));	/* beq x0, x0, +6 */
	trap_case("branch to 2 mod 4", KH_POOL_CAUSE_FETCH_MISALIGNED, 4);

	prolog();
	mp_li(&pg, 1, 0x20000);
	mp_emit(&pg, JALR(5, 1, 0));
	trap_case("jalr past IRAM", KH_POOL_CAUSE_FETCH_FAULT, 0x20000);
	CHECK_EQ(m.p->core[0].x[5], 16);	/* the jump did retire */

	prolog();
	mp_emit(&pg, JAL(0, (u32)-8));		/* to 0xfffffffc */
	trap_case("jal below 0", KH_POOL_CAUSE_FETCH_FAULT, 0xfffffffcu);

	/* falling off the end of IRAM */
	mp_init(&pg);
	mp_emit(&pg, JAL(0, KH_POOL_IRAM_SIZE - 4));
	mp_start(&m, &pg, 0);
	{
		u32 nop = NOP;

		ksim_pool_poke_iram(m.p, KH_POOL_IRAM_SIZE - 4, &nop, 4);
	}
	trap_case("fetch past IRAM", KH_POOL_CAUSE_FETCH_FAULT,
		  KH_POOL_IRAM_SIZE);

	/* CSRs: absent, read-only written, illegal in every form */
	prolog();
	mp_emit(&pg, CSRR(1, 0x300));		/* mstatus: absent */
	trap_case("absent csr", KH_POOL_CAUSE_ILLEGAL, 4);
	prolog();
	mp_emit(&pg, CSRR(1, 0xb00));		/* mcycle: absent */
	trap_case("mcycle", KH_POOL_CAUSE_ILLEGAL, 4);
	prolog();
	mp_emit(&pg, CSRRW(0, KH_POOL_CSR_MHARTID, 0));
	trap_case("csrrw mhartid", KH_POOL_CAUSE_ILLEGAL, 4);
	prolog();
	mp_emit(&pg, CSRRSI(1, KH_POOL_CSR_CYCLE, 1));
	trap_case("csrrsi cycle", KH_POOL_CAUSE_ILLEGAL, 4);
	prolog();
	mp_emit(&pg, ADDI(1, 0, 1));
	mp_emit(&pg, CSRRS(2, KH_POOL_CSR_JOB_STATUS, 1));
	trap_case("csrrs job_status", KH_POOL_CAUSE_ILLEGAL, 8);
	prolog();
	mp_emit(&pg, CSRRWI(0, KH_POOL_CSR_IDMA_STATUS, 0));
	trap_case("csrrwi idma_status", KH_POOL_CAUSE_ILLEGAL, 4);
	prolog();
	mp_emit(&pg, CSRRW(0, KH_POOL_CSR_JOB_W0 + 3, 0));
	trap_case("csrrw job_w3", KH_POOL_CAUSE_ILLEGAL, 4);
}

TEST_F(model, first_trap_kept_until_the_cluster_is_reset)
{
	u64 trap;

	REQUIRE(open_card());
	/* core 1 traps first (ebreak at 0), core 0 later (ecall after a loop) */
	mp_init(&pg);
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, BNE(1, 0, 24));
	mp_emit(&pg, ADDI(2, 0, 100));
	mp_emit(&pg, ADDI(2, 2, -1));
	mp_emit(&pg, BNE(2, 0, (u32)-4));
	mp_emit(&pg, ECALL);			/* core 0, at 20 */
	mp_emit(&pg, NOP);
	mp_emit(&pg, EBREAK);			/* core 1, at 28 */
	mp_start(&m, &pg, 3);
	REQUIRE(mp_settle(&m, 3, 100000));
	trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);
	CHECK_EQ(m.p->halted, 3);
	CHECK_EQ(KH_POOL_TRAP_CORE(trap), 1);
	CHECK_EQ(KH_POOL_TRAP_CAUSE(trap), KH_POOL_CAUSE_EBREAK);
	CHECK_EQ(KH_POOL_TRAP_PC(trap), 28);
	/* resetting one core does not clear TRAP; the whole cluster does */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0x01ff);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_TRAP), trap);
	CHECK_EQ(KH_POOL_STATE_HALTED(mp_reg(&m, KH_CTRL_IDX_POOL_STATE)), 2);
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_TRAP), 0);
	CHECK_EQ(KH_POOL_STATE_HALTED(mp_reg(&m, KH_CTRL_IDX_POOL_STATE)), 0);
}

/* The job CSRs: a job for the firmware (opcode 1). */
static void job_words(u32 *w, unsigned int kernel, u32 a6)
{
	memset(w, 0, 8 * sizeof(*w));
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, kernel);
	w[6] = a6;
	w[0] = 0x11110000u;
}

TEST_F(model, trap_with_a_job_present_faults_it)
{
	u32 w[8];
	unsigned int base;
	u64 ns;

	REQUIRE(open_card());
	/* core 0: wait for a job, read w6, trap by ecall */
	mp_init(&pg);
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_JOB_STATUS));	/* 0 */
	mp_emit(&pg, ANDI(1, 1, 1));
	mp_emit(&pg, BNE(1, 0, 12));
	mp_emit(&pg, WFI);
	mp_emit(&pg, JAL(0, (u32)-16));
	mp_emit(&pg, CSRR(2, KH_POOL_CSR_JOB_W0 + 6));	/* 20 */
	mp_emit(&pg, ECALL);				/* 24 */
	mp_start(&m, &pg, 1);
	REQUIRE(mp_settle(&m, 1, 10000));
	base = KH_NS_COUNT(mm_ns(m.c, 0, m.x, m.y));
	job_words(w, 3, 0xabcd);
	mp_inst(&m, w, 0x44, false);
	ns = mp_wait_ns(&m, base + 1, 100000);
	REQUIRE(ns);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_POOL_FAULT_TRAP(0, KH_POOL_CAUSE_ECALL));
	CHECK_EQ(m.p->core[0].x[2], 0xabcd);
	/* the next job: HALTED until reloaded */
	mp_inst(&m, w, 0x45, false);
	ns = mp_wait_ns(&m, base + 2, 100000);
	REQUIRE(ns);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
					      KH_POOL_UNIT_HALTED));
}

TEST_F(model, wfi_sleeps_until_a_job_and_costs_nothing)
{
	u32 w[8];
	u64 ret, stepped0, ns;
	struct ksim_stats st;
	unsigned int base;

	REQUIRE(open_card());
	mp_init(&pg);
	mp_emit(&pg, ADDI(5, 0, 0));
	mp_emit(&pg, WFI);				/* 4 */
	mp_emit(&pg, ADDI(5, 5, 1));
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_JOB_STATUS));
	mp_emit(&pg, ANDI(1, 1, 1));
	mp_emit(&pg, BEQ(1, 0, (u32)-16));
	mp_emit(&pg, CSRR(2, KH_POOL_CSR_JOB_W0 + 6));
	mp_emit(&pg, CSRW(KH_POOL_CSR_JOB_RETIRE, 2));
	mp_emit(&pg, JAL(0, (u32)-28));
	mp_start(&m, &pg, 1);
	REQUIRE(mp_settle(&m, 1, 10000));
	ret = m.p->core[0].instret;
	REQUIRE(!ksim_get_stats(m.c, 0, &st));
	stepped0 = st.cycles_stepped;
	ksim_run(m.c, 1000000);
	REQUIRE(!ksim_get_stats(m.c, 0, &st));
	CHECK_EQ(m.p->core[0].instret, ret);
	CHECK_MSG(st.cycles_stepped - stepped0 < 10,
		  "an idle WFI stepped %llu cycles",
		  (unsigned long long)(st.cycles_stepped - stepped0));
	CHECK_EQ(m.p->core[0].pc, 4);
	job_words(w, 0, 77);
	base = KH_NS_COUNT(mm_ns(m.c, 0, m.x, m.y));
	mp_inst(&m, w, 0x46, false);
	ns = mp_wait_ns(&m, base + 1, 100000);
	REQUIRE(ns);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 77);
	REQUIRE(mp_settle(&m, 1, 100000));
	CHECK_EQ(m.p->core[0].x[5], 1);
	CHECK_EQ(m.p->core[0].x[2], 77);
	CHECK_EQ(m.p->job, false);
	/* an event pending before WFI: it returns at once (no lost wake-up) */
	m.p->core[0].ev = true;
	m.p->core[0].wait = KSIM_POOL_W_NONE;
	m.p->core[0].pend = KSIM_POOL_P_EXT;	/* execute the WFI again */
	m.p->core[0].t = ksim_cycles(m.c);
	ksim_unit_timer(m.p->u, ksim_cycles(m.c));
	ksim_run(m.c, 100);
	CHECK_EQ(m.p->core[0].x[5], 2);
	CHECK_EQ(m.p->core[0].wait, KSIM_POOL_W_WFI);
}

TEST_F(model, barrier_all_running_cores)
{
	unsigned int i;

	REQUIRE(open_card());
	/* each core spins id * 50 times, then arrives twice */
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, ADDI(2, 0, 50));
	mp_emit(&pg, MUL(2, 2, 1));
	mp_emit(&pg, BEQ(2, 0, 12));
	mp_emit(&pg, ADDI(2, 2, -1));
	mp_emit(&pg, JAL(0, (u32)-8));
	mp_emit(&pg, CSRRW(3, KH_POOL_CSR_BARRIER, 0));	/* count before */
	mp_emit(&pg, CSRR(4, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, CSRRW(5, KH_POOL_CSR_BARRIER, 0));
	mp_emit(&pg, CSRR(6, KH_POOL_CSR_BARRIER));
	mp_emit(&pg, SW(3, R_BASE, 0));
	mp_emit(&pg, SW(5, R_BASE, 4));
	mp_emit(&pg, SW(6, R_BASE, 8));
	mp_halt(&pg);
	mp_start(&m, &pg, 0xff);
	REQUIRE(mp_settle(&m, 0xff, 200000));
	for (i = 0; i < KH_POOL_CORES; i++) {
		CHECK_EQ(mp_dword(&m, i, 0), 0);
		CHECK_EQ(mp_dword(&m, i, 4), 1);
		CHECK_EQ(mp_dword(&m, i, 8), 2);
		/* all leave the first barrier in one cycle */
		CHECK_EQ(m.p->core[i].x[4] + m.p->core[i].t0,
			 m.p->core[0].x[4] + m.p->core[0].t0);
	}
	/* only the running ones count: cores 2..7 stalled */
	mp_start(&m, &pg, 0x03);
	REQUIRE(mp_settle(&m, 0x03, 200000));
	CHECK_EQ(mp_dword(&m, 1, 8), 4);
	/* a core that traps releases the others */
	mp_init(&pg);
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, BEQ(1, 0, 8));
	mp_emit(&pg, CSRRW(3, KH_POOL_CSR_BARRIER, 0));
	mp_emit(&pg, ADDI(2, 0, 200));			/* 12 */
	mp_emit(&pg, ADDI(2, 2, -1));
	mp_emit(&pg, BNE(2, 0, (u32)-4));
	mp_emit(&pg, BEQ(1, 0, 12));
	mp_halt(&pg);
	mp_emit(&pg, EBREAK);				/* core 0 */
	mp_start(&m, &pg, 0x0f);
	REQUIRE(mp_settle(&m, 0x0f, 200000));
	CHECK_EQ(m.p->halted, 1);
	CHECK_EQ(m.p->bar_in, 0);
	CHECK_EQ(m.p->core[3].wait, KSIM_POOL_W_WFI);
}

TEST_F(model, fence_waits_for_posted_window_writes)
{
	u8 buf[128];
	u64 t_nofence, t_fence;

	REQUIRE(open_card());
	/* store to the window (win_base 0x100000), time with and without FENCE */
	prolog();
	mp_li(&pg, 1, 0x00100000u);
	mp_emit(&pg, CSRW(KH_POOL_CSR_WIN_BASE, 1));
	mp_li(&pg, 2, KH_POOL_WIN_BASE + 0x40);
	mp_li(&pg, 3, 0xcafef00du);
	mp_emit(&pg, CSRR(4, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, SW(3, 2, 0));
	mp_emit(&pg, CSRR(5, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, FENCE);
	mp_emit(&pg, CSRR(6, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, FENCE);				/* nothing posted: 1 cycle */
	mp_emit(&pg, CSRR(7, KH_POOL_CSR_CYCLE));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->halted, 0);
	t_nofence = m.p->core[0].x[5] - m.p->core[0].x[4];
	t_fence = m.p->core[0].x[6] - m.p->core[0].x[5];
	CHECK_MSG(t_fence > 10, "FENCE took %llu cycles",
		  (unsigned long long)t_fence);
	CHECK_MSG(t_nofence > 10, "the store's read took %llu cycles",
		  (unsigned long long)t_nofence);
	CHECK_EQ(m.p->core[0].x[7] - m.p->core[0].x[6], 2);
	CHECK_EQ(m.p->core[0].wb_count, 0);
	/* after the FENCE the word is in DRAM */
	CHECK_EQ(ksim_dma_read(m.c, KH_CARD_ADDR(0, 0x100000), buf, 128), 0);
	CHECK_EQ(ksim_pool_rd32(buf + 0x40), 0xcafef00du);
}

CHECK_TEST_MAIN
