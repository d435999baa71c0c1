// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL unit's instruction-set simulator benchmark (docs/spec/pool.md,
 * docs/model.md "The POOL unit"): simulated instructions per second of
 * wall time, against baselines measured in the same run.  Not a test: the
 * numbers depend on the machine.
 *
 *   alu1     one core on a tight ALU/branch loop (addi, xor, add, slli,
 *            addi, bne: 6 instructions an iteration), a gp unit on a card,
 *            the whole model (scheduler, base, quanta) included
 *   mem8     all eight cores on a DataRAM loop (lw, add, sw, addi, bne
 *            over 4 KiB past the boot mailbox, 40 % memory instructions),
 *            the same card
 *   vec1     one core on a vector loop (docs/spec/pool-vector.md): two
 *            vl, a quad-MAC, an FMA, two vector adds, then addi, bne: 8
 *            instructions an iteration, 6 of them vector, the scoreboard
 *            and co-issue included; its cycles show the bundles
 *   native   the alu1 loop's arithmetic as plain C (the machine's ceiling)
 *   naive    the alu1 program on a minimal interpreter that decodes the raw
 *            word with a switch at every instruction (no predecode, no
 *            timing, no card): what predecoding buys
 *
 * Each runs `reps` times (default 5); min and median of the wall time and
 * the CPU time are reported, with the median's instructions per second.
 *
 *   kh_bench_iss [-n ITERATIONS] [-r REPS] [-s SCENARIO]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ksim_int.h"
#include "units/pool/pool.h"

static double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- a few RV32 encodings ---- */

static u32 enc_i(u32 imm, unsigned int rs1, unsigned int f3, unsigned int rd,
		 unsigned int op)
{
	return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static u32 enc_r(unsigned int f7, unsigned int rs2, unsigned int rs1,
		 unsigned int f3, unsigned int rd)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33;
}

static u32 enc_b(u32 off, unsigned int rs1, unsigned int rs2, unsigned int f3)
{
	return ((off >> 12) & 1) << 31 | ((off >> 5) & 0x3f) << 25 |
	       rs2 << 20 | rs1 << 15 | f3 << 12 | ((off >> 1) & 0xf) << 8 |
	       ((off >> 11) & 1) << 7 | 0x63;
}

#define ADDI(d, a, i)	enc_i(i, a, 0, d, 0x13)
#define SLLI(d, a, s)	enc_i(s, a, 1, d, 0x13)
#define LW(d, a, i)	enc_i(i, a, 2, d, 0x03)
#define SW(s, a, i)	((((i) >> 5) & 0x7f) << 25 | (s) << 20 | (a) << 15 | \
			 2 << 12 | ((i) & 0x1f) << 7 | 0x23)
#define ADD(d, a, b)	enc_r(0, b, a, 0, d)
#define XOR(d, a, b)	enc_r(0, b, a, 4, d)
#define BNE(a, b, o)	enc_b(o, a, b, 1)
#define LUI(d, i)	(((i) & 0xfffff000u) | (d) << 7 | 0x37)
#define WFI		0x10500073u

/* t0 = n; loop: a0 += 1; a1 ^= a0; a2 += a1; a3 = a2 << 3; t0--; bnez */
static unsigned int prog_alu(u32 *w, u32 n)
{
	unsigned int i = 0;

	w[i++] = LUI(5, n + ((n & 0x800) << 1));
	w[i++] = ADDI(5, 5, n & 0xfff);
	w[i++] = ADDI(10, 10, 1);		/* 8: loop */
	w[i++] = XOR(11, 11, 10);
	w[i++] = ADD(12, 12, 11);
	w[i++] = SLLI(13, 12, 3);
	w[i++] = ADDI(5, 5, -1);
	w[i++] = BNE(5, 0, (u32)-20);
	w[i++] = WFI;
	return i;
}

/*
 * n passes over 4 KiB of DataRAM: loop: a0 = *p; a1 += a0; *p = a1;
 * p += 4; bne p, end.
 */
static unsigned int prog_mem(u32 *w, u32 n)
{
	unsigned int i = 0;

	w[i++] = LUI(5, n + ((n & 0x800) << 1));
	w[i++] = ADDI(5, 5, n & 0xfff);
	/*
	 * 4 KiB from DataRAM + 4 KiB: core 0's first 32 bytes are its boot
	 * mailbox, whose accesses the model runs at their mesh cycle
	 */
	w[i++] = LUI(7, KH_POOL_DRAM_BASE + 0x2000);	/* end */
	w[i++] = LUI(6, KH_POOL_DRAM_BASE + 0x1000);	/* 12: outer */
	w[i++] = LW(10, 6, 0);				/* 16: inner */
	w[i++] = ADD(11, 11, 10);
	w[i++] = SW(11, 6, 0);
	w[i++] = ADDI(6, 6, 4);
	w[i++] = BNE(6, 7, (u32)-16);
	w[i++] = ADDI(5, 5, -1);
	w[i++] = BNE(5, 0, (u32)-28);
	w[i++] = WFI;
	return i;
}

/*
 * t0 = n; cpenable = CP1; loop: v1 = row 64, v2 = row 65, w0 += quad-MAC
 * of v4..v7, v8 = v8 + v9 * v10 (binary32), v12 = v13 + v14, v15 = v13 +
 * v14 (bytes); t0--; bnez.  The loads and the MAC co-issue with an ALU op
 * (F3), the second add and the FMA with the next (the FMA chain through
 * v8 sets the pace: 3 cycles).
 */
static unsigned int prog_vec(u32 *w, u32 n)
{
	unsigned int i = 0;

	w[i++] = LUI(5, n + ((n & 0x800) << 1));
	w[i++] = ADDI(5, 5, n & 0xfff);
	w[i++] = LUI(6, KH_POOL_DRAM_BASE);
	w[i++] = ADDI(7, 0, KH_PV_CPENABLE_CP1);
	w[i++] = enc_i(KH_PV_CSR_CPENABLE, 7, 1, 0, 0x73);	/* csrw */
	w[i++] = KH_PV_ENC_VL(1, 6, 64);			/* 20: loop */
	w[i++] = KH_PV_ENC_VL(2, 6, 65);
	w[i++] = KH_PV_ENC_QMAC(KH_PV_W8, 0, 4, 0, KH_PV_MAC_ADD, 0);
	w[i++] = KH_PV_ENC_FP(KH_PV_FMADD, KH_PV_WF32, 8, 9, 10);
	w[i++] = KH_PV_ENC_ALU(KH_PV_VADD, KH_PV_W8, 12, 13, 14);
	w[i++] = KH_PV_ENC_ALU(KH_PV_VADD, KH_PV_W8, 15, 13, 14);
	w[i++] = ADDI(5, 5, -1);
	w[i++] = BNE(5, 0, (u32)-28);
	w[i++] = WFI;
	return i;
}

/* ---- the model ---- */

static struct ksim_card *bench_card(struct ksim_pool **p)
{
	static const char map[] =
		"xxx gp  xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_card *c = NULL;
	char err[256];

	if (ksim_card_create(map, &c, err, sizeof(err))) {
		fprintf(stderr, "kh_bench_iss: card: %s\n", err);
		exit(2);
	}
	*p = ksim_pool_of(ksim_unit_at(c, 0, 1, 0));
	if (!*p) {
		fprintf(stderr, "kh_bench_iss: no gp unit\n");
		exit(2);
	}
	return c;
}

/* Run prog on the cores in mask until each sleeps in WFI. */
static u64 run_model(const u32 *prog, unsigned int len, unsigned int mask,
		     u64 *cycles)
{
	struct ksim_pool *p;
	struct ksim_card *c = bench_card(&p);
	u64 instr = 0;
	unsigned int i;
	bool all;

	ksim_pool_set_runstall(p, KH_POOL_RESET_ALL | KH_POOL_STALL_ALL);
	ksim_pool_poke_iram(p, 0, prog, len * 4);
	ksim_pool_set_runstall(p, (~mask & 0xff) << KH_POOL_RESET_SHIFT |
				  (~mask & 0xff));
	do {
		ksim_run(c, 1u << 22);
		all = true;
		for (i = 0; i < KH_POOL_CORES; i++)
			if (((mask >> i) & 1) &&
			    p->core[i].wait != KSIM_POOL_W_WFI)
				all = false;
	} while (!all);
	/* the cores' own clocks: the card's runs on to its chunk's end */
	*cycles = 0;
	for (i = 0; i < KH_POOL_CORES; i++) {
		instr += p->core[i].instret;
		if (((mask >> i) & 1) && p->core[i].t - p->core[i].t0 > *cycles)
			*cycles = p->core[i].t - p->core[i].t0;
	}
	ksim_card_destroy(c);
	return instr;
}

/* ---- the baselines ---- */

static u64 run_native(u32 n)
{
	u32 a0 = 0, a1 = 0, a2 = 0, a3 = 0, t0 = n;

	do {
		a0 += 1;
		a1 ^= a0;
		a2 += a1;
		a3 = a2 << 3;
		/* keep every value live, as the simulated registers are */
		__asm__ volatile("" : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3));
	} while (--t0);
	__asm__ volatile("" : : "r"(a3));
	return 6ULL * n;
}

/* An interpreter without predecode: the raw word decoded every time. */
static u64 run_naive(const u32 *prog)
{
	u32 x[32] = { 0 }, pc = 0, w, imm;
	u64 n = 0;
	unsigned int rd, rs1, rs2;

	for (;;) {
		w = prog[pc >> 2];
		rd = (w >> 7) & 31;
		rs1 = (w >> 15) & 31;
		rs2 = (w >> 20) & 31;
		n++;
		switch (w & 0x7f) {
		case 0x37:
			x[rd] = w & 0xfffff000u;
			break;
		case 0x13:
			imm = (u32)((int32_t)w >> 20);
			switch ((w >> 12) & 7) {
			case 0:
				x[rd] = x[rs1] + imm;
				break;
			case 1:
				x[rd] = x[rs1] << (imm & 31);
				break;
			}
			break;
		case 0x33:
			switch ((w >> 12) & 7) {
			case 0:
				x[rd] = x[rs1] + x[rs2];
				break;
			case 4:
				x[rd] = x[rs1] ^ x[rs2];
				break;
			}
			break;
		case 0x63:
			if (x[rs1] != x[rs2]) {
				imm = ((w >> 31) << 12) | (((w >> 7) & 1) << 11) |
				      (((w >> 25) & 0x3f) << 5) |
				      (((w >> 8) & 0xf) << 1);
				imm = (imm ^ 0x1000) - 0x1000;
				pc += imm;
				x[0] = 0;
				continue;
			}
			break;
		default:	/* WFI */
			return n - 1;
		}
		x[0] = 0;
		pc += 4;
	}
}

/* ---- the harness ---- */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, const char *what, u64 instr, u64 cycles,
		   double *wall, double *cpu, unsigned int reps)
{
	double wmed, cmed;

	qsort(wall, reps, sizeof(*wall), cmp_d);
	qsort(cpu, reps, sizeof(*cpu), cmp_d);
	wmed = wall[reps / 2];
	cmed = cpu[reps / 2];
	printf("%-7s %-40s %12llu instr  wall min %.3f med %.3f s  cpu min %.3f med %.3f s  %8.1f M instr/s",
	       name, what, (unsigned long long)instr, wall[0], wmed, cpu[0],
	       cmed, instr / wmed / 1e6);
	if (cycles)
		printf("  %8.1f M cycles/s", cycles / wmed / 1e6);
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned int reps = 5, r, len;
	u32 n = 20000000, prog[64];
	const char *only = NULL;
	double wall[64], cpu[64], w0, c0;
	u64 instr = 0, cyc = 0;
	int opt;

	while ((opt = getopt(argc, argv, "n:r:s:")) != -1) {
		switch (opt) {
		case 'n':
			n = (u32)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 's':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-n ITERATIONS] [-r REPS] [-s alu1|vec1|mem8|native|naive]\n",
				argv[0]);
			return 2;
		}
	}
	if (!reps || reps > 64 || n < 2 || n > 0x7fffffff) {
		fprintf(stderr, "kh_bench_iss: 1 <= reps <= 64, 2 <= n\n");
		return 2;
	}
	printf("# kh_bench_iss: %u iterations, %u runs each, min and median\n",
	       n, reps);

#define RUN(name, what, body) do {					\
		if (!only || !strcmp(only, name)) {			\
			for (r = 0; r < reps; r++) {			\
				w0 = now_s(CLOCK_MONOTONIC);		\
				c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);	\
				body;					\
				wall[r] = now_s(CLOCK_MONOTONIC) - w0;	\
				cpu[r] = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0; \
			}						\
			report(name, what, instr, cyc, wall, cpu, reps); \
		}							\
	} while (0)

	len = prog_alu(prog, n);
	RUN("alu1", "one core, ALU/branch loop, the model",
	    instr = run_model(prog, len, 1, &cyc));
	len = prog_vec(prog, n / 4);
	RUN("vec1", "one core, vector loop (6 of 8 vector), the model",
	    instr = run_model(prog, len, 1, &cyc));
	cyc = 0;
	len = prog_alu(prog, n);	/* the naive interpreter's program */
	RUN("native", "the same arithmetic in C", instr = run_native(n));
	RUN("naive", "switch on raw bits, no predecode, no card",
	    instr = run_naive(prog));
	len = prog_mem(prog, n / 1024 + 1);
	RUN("mem8", "8 cores, DataRAM lw/add/sw loop, the model",
	    instr = run_model(prog, len, 0xff, &cyc));
	return 0;
}
