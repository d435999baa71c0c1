// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware's kernels on the vector unit (firmware/vkernels.c,
 * docs/spec/pool-vector.md), measured on the model against the latency
 * table: for each kernel, the cycles its vector inner loop took on the
 * cores (the firmware's own profile, struct fw_prof at DataRAM + 64: the
 * loop's cycles by the cycle CSR, and the work it did) against the cycles
 * the rules of pool-vector.md "Timing" and "Issue and the scoreboard"
 * give the same compiled loop (worked out below, per loop, from
 * `riscv64-unknown-elf-objdump -d build/firmware/pool.elf`), and the share
 * of the seed's peak issue the loop reached: of the class that bounds it
 * (2 memory ops, 1 store, 1 quad-MAC, 2 FMAs a cycle) and of all five
 * slots.  Not a test: a change to the firmware's code changes the
 * figures, and the predictions must be worked out again.
 *
 * The firmware is booted on a one-unit card of the model by poking its
 * sections into the unit (the bench needs none of the driver's boot), the
 * jobs go in by the mesh mailbox, every kernel on all eight cores at once.
 *
 *   kh_bench_kernels [-f build/firmware/pool.fw]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksim_int.h"
#include "units/pool/pool.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_fw.h>
#include <kohaku/kh_regs.h>

#define UX		1	/* the unit's node */
#define UY		0
#define FW_PROF_OFF	64	/* fw.h struct fw_prof, pool.ld.S asserts */
#define A_BASE		0x0100000ull
#define B_BASE		0x0900000ull
#define C_BASE		0x1100000ull

static u64 rng = 0x2545f4914f6cdd1dull;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

static u32 get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static void die(const char *what)
{
	fprintf(stderr, "kh_bench_kernels: %s\n", what);
	exit(2);
}

/* ---- the card and the firmware ---- */

static struct ksim_card *card;
static struct ksim_pool *pool;

static u64 mesh_rd(u32 off)
{
	return ksim_read64(card, KH_MESH_BASE(0) + off);
}

static void boot(const char *path)
{
	static const char map[] =
		"param dram_mib 64\n"
		"xxx gp  xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_timing t = { 1, 1, 1 };
	char err[256];
	unsigned int n, i, k;
	u8 *im;
	long len;
	FILE *f = fopen(path, "rb");
	u32 zero[8] = { 0 };

	if (!f)
		die("no firmware image (make firmware; -f FILE)");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	im = malloc(len);
	if (!im || fread(im, 1, len, f) != (size_t)len ||
	    len < KH_FW_HEADER_SIZE || get32(im) != KH_FW_MAGIC)
		die("not a firmware image");
	fclose(f);
	if (ksim_card_create(map, &card, err, sizeof(err)))
		die(err);
	ksim_set_timing(card, &t);
	pool = ksim_pool_of(ksim_unit_at(card, 0, UX, UY));
	if (!pool)
		die("no POOL unit");
	ksim_pool_set_runstall(pool, KH_POOL_RESET_ALL | KH_POOL_STALL_ALL);
	n = im[offsetof(struct kh_fw_header, n_sections)] |
	    im[offsetof(struct kh_fw_header, n_sections) + 1] << 8;
	for (i = 0; i < n; i++) {
		const u8 *r = im + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
		u32 dest = get32(r + offsetof(struct kh_fw_section, dest));
		u32 size = get32(r + offsetof(struct kh_fw_section, size));
		u32 foff = get32(r + offsetof(struct kh_fw_section,
					      file_offset));
		u8 *data = calloc(1, size);

		if (!data)
			die("out of memory");
		if (!(r[1] & KH_FW_S_ZERO))
			memcpy(data, im + foff, size);
		if (r[0] == KH_FW_T_IRAM)
			ksim_pool_poke_iram(pool, dest, data, size);
		for (k = 0; k < KH_POOL_CORES; k++)
			if (r[0] == KH_FW_T_DATARAM_ALL ||
			    r[0] == KH_FW_T_DATARAM(k))
				ksim_pool_poke_dram(pool, k,
						    dest - KH_POOL_DRAM_BASE,
						    data, size);
		free(data);
	}
	ksim_pool_poke_dram(pool, 0, 0, zero, sizeof(zero));
	/* no bounds (version 1's reach): the kernels' loops are measured */
	ksim_pool_reg_write(pool, KH_CTRL_IDX_POOL_BOUNDS_EN,
			    KH_POOL_BOUNDS_ALL);
	pool->reset_pc = get32(im + offsetof(struct kh_fw_header, entry));
	free(im);
	ksim_pool_set_runstall(pool, 0);
	for (i = 0; i < 100000; i++) {
		ksim_run(card, 64);
		if (get32(pool->core[0].dram + 4 * KH_POOL_MBOX_BOOT) ==
		    KH_POOL_BOOT_READY)
			break;
	}
	if (i == 100000)
		die("the firmware never said READY");
	zero[0] = KH_POOL_BOOT_CLAIM;
	ksim_pool_poke_dram(pool, 0, 4 * KH_POOL_MBOX_BOOT, zero, 4);
}

static void put(u64 a, const void *p, size_t n)
{
	if (ksim_dma_write(card, KH_CARD_ADDR(0, a), p, n))
		die("dma write");
}

static void get(u64 a, void *p, size_t n)
{
	if (ksim_dma_read(card, KH_CARD_ADDR(0, a), p, n))
		die("dma read");
}

static void addr(u32 w[8], unsigned int lo, u64 local)
{
	u64 a = KH_MADDR(0, local);

	w[lo] = (u32)a;
	w[lo + 1] = (u32)(a >> 32);
}

struct prof {
	u64 job;	/* the slowest core's kernel cycles */
	u64 loop;	/* the inner loops' cycles, all cores */
	u64 units;	/* their work, all cores */
	u64 calls;
	unsigned int cores;	/* cores whose loop ran */
};

/* run one job on all eight cores; its profile */
static void job(u32 w[8], struct prof *pr)
{
	u64 ns = mesh_rd(KH_ORC_NODE_STATUS(KH_YX(UX, UY)));
	struct kh_flit f;
	unsigned int i, k;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, UX, UY, 0, 0, KH_T_CU_INST, 0x40, 0);
	for (k = 0; k < 8; k++)
		f.w[k / 2] |= (u64)w[k] << (32 * (k % 2));
	for (i = 0; i < KH_FLIT_WORDS; i++)
		ksim_write64(card, KH_MESH_BASE(0) + KH_ORC_TX_FLIT(i), f.w[i]);
	ksim_write64(card, KH_MESH_BASE(0) + KH_ORC_TX_KICK, 1);
	for (i = 0; i < 4000000; i++) {
		u64 now = mesh_rd(KH_ORC_NODE_STATUS(KH_YX(UX, UY)));

		if (KH_NS_COUNT(now) != KH_NS_COUNT(ns)) {
			ns = now;
			break;
		}
		ksim_run(card, 64);
	}
	if (KH_NS_CODE(ns) != KH_SIG_INST_COMPLETE)
		die("a job failed");
	memset(pr, 0, sizeof(*pr));
	for (k = 0; k < KH_POOL_CORES; k++) {
		const u8 *p = pool->core[k].dram + FW_PROF_OFF;

		if (get32(p) > pr->job)
			pr->job = get32(p);
		pr->loop += get32(p + 4);
		pr->units += get32(p + 8);
		pr->calls += get32(p + 12);
		pr->cores += get32(p + 8) != 0;
	}
}

/* ---- the kernels, each with its loop's prediction ---- */

struct kernel {
	const char *name;
	const char *unit;	/* what one unit of the loop's work is */
	double pred;		/* predicted cycles a unit, steady state */
	double bound;		/* the binding class's cycles a unit at peak */
	const char *bclass;	/* that class */
	double ops;		/* vector instructions a unit */
	const char *size;
	void (*run)(struct prof *pr);
};

static void run_gemv(struct prof *pr)
{
	const u32 m = 512, k = 2032;	/* a panel a core, two drains */
	u8 *a = malloc((size_t)m * k), x[2048];
	u32 w[8] = { 0 }, i;

	for (i = 0; i < m * k; i++)
		a[i] = (u8)rnd();
	for (i = 0; i < sizeof(x); i++)
		x[i] = (u8)rnd();
	put(A_BASE, a, (size_t)m * k);
	put(B_BASE, x, sizeof(x));
	addr(w, 0, A_BASE);
	addr(w, 2, B_BASE);
	addr(w, 4, C_BASE);
	w[6] = KH_POOL_GEMV_W6(m, k);
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_GEMV_I8);
	job(w, pr);
	free(a);
}

static void run_axpy(struct prof *pr)
{
	const u32 n = 65536;
	u32 *x = malloc(4 * n), w[8] = { 0 }, i;

	for (i = 0; i < n; i++)
		x[i] = 0x3f800000u | (rnd() & 0x007fffffu);
	put(A_BASE, x, 4 * n);
	put(B_BASE, x, 4 * n);
	addr(w, 0, A_BASE);
	addr(w, 2, B_BASE);
	w[4] = 0x3fc00000u;
	w[6] = n;
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_AXPY_F32);
	job(w, pr);
	free(x);
}

static void run_softmax(struct prof *pr)
{
	const u32 l = 1024, rows = 64;
	float *s = malloc(4 * l * rows);
	u32 w[8] = { 0 }, i;

	for (i = 0; i < l * rows; i++)
		s[i] = (float)((double)rnd() / 4294967296.0 * 40.0 - 20.0);
	put(A_BASE, s, 4 * l * rows);
	addr(w, 0, A_BASE);
	addr(w, 2, B_BASE);
	w[4] = l;
	w[6] = rows;
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_SOFTMAX_F32);
	job(w, pr);
	free(s);
}

static void run_hist(struct prof *pr)
{
	const u32 n = 262144;
	u8 *s = malloc(n);
	u32 w[8] = { 0 }, i;

	for (i = 0; i < n; i++)
		s[i] = (u8)rnd();
	put(A_BASE, s, n);
	addr(w, 0, A_BASE);
	addr(w, 2, C_BASE);
	w[6] = n;
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_HIST256);
	job(w, pr);
	free(s);
}

static void run_copyu(struct prof *pr)
{
	const u32 n = 262144;
	u8 *s = malloc(n + 64);
	u32 w[8] = { 0 }, i;

	for (i = 0; i < n + 64; i++)
		s[i] = (u8)rnd();
	put(A_BASE, s, n + 64);
	addr(w, 0, A_BASE + 7);
	addr(w, 2, B_BASE + 45);
	w[6] = n;
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_COPY_U);
	job(w, pr);
	get(B_BASE + 45, s, 64);	/* (the tests check the bytes) */
	free(s);
}

/*
 * The predictions, from the compiled loops and the rules (scalar: ALU 1,
 * DataRAM load 2, taken branch 3; vector: a bundle a cycle, operands
 * ready at issue + result stage - 10, F3/F11 slots):
 *
 * gemv, 4 quads a step: 4 lw x 2 = 8; bundles {vmvxp x2, vl x2} {vmvxp
 * x2, vl x2} {vl x2, vqmac} {vl x2} {vl x2, vqmac} {vl x2} {vl x2,
 * vqmac} {vl x2} {vqmac} = 9; addi x3 + bltu 3 = 6: 23 / 4 = 5.75 a quad.
 * Bound: 4 loads a quad at 2 a cycle = 2.  6 vector ops a quad.
 *
 * axpy, 8 rows a step, each store where its FMA's result is ready,
 * paired with a load: {Lx0 Ly0} {Lx1 Ly1} {Lx2 Ly2 F0 F1} {Lx3 Ly3 F2}
 * {Lx4 Ly4 F3} {S0 Lx5 F4} {S1 Ly5} {S2 Lx6 F5} {S3 Ly6} {S4 Lx7 F6}
 * {S5 Ly7} {F7} {S6} and S7 two cycles after F7's result stage = 15; li
 * + addi x3 + bltu 3 = 7: 22 / 8 = 2.75 a row.  Bound: 3 memory ops a
 * row at 2 a cycle = 1.5.  4 ops a row.
 *
 * softmax, the exponentials' loop, two registers a step, their ops
 * interleaved (sm_exp2): each is a chain through FMAs (13), a trunc (12)
 * and a convert (13); the pair issues {vl x2, vmv x2} 1, vfmadd x2 2,
 * vminu x2 5, vfsub x2 6, vftrunc x2 9, vffloat x2 11, {vfsub x2, vmv
 * x2} 14 (F11: two FMAs and two ALU ops), vmv x2 15, then six Horner
 * steps {vfmadd x2, vmv x2} at 17, 20, 23, 26, 29, 32 (the vsll pair with
 * the last), vadd x2 35, {vfadd x2, vs} 36, vs 37 = 37; mv + addi x2 +
 * bgeu 3 = 6: 43 / 2 = 21.5 a register.  Bound: 10 FMA-class ops a
 * register at 2 a cycle = 5.  25 ops a register.
 *
 * hist, two rows a step, the second's shifts and masks riding in the
 * first's scatters' bundles: {vl x2} {vand, vsrl x2} {vsrl, vand x2,
 * vscatterinc} {vscatterinc, vand, vsrl x2} {vscatterinc, vsrl, vand x2}
 * then five scatters alone = 10; addi + bne 3 = 4: 14 / 2 = 7 a row.
 * Bound: 4 scatters a row at 1 store a cycle = 4.  11 ops a row.
 *
 * copyu, 8 rows a step: {vla} {vla, vsa} x 7 {vsa} = 9 (each valign
 * register chains one a cycle, written at 10; one store a cycle); mv +
 * addi + bgeu 3 = 5: 14 / 8 = 1.75 a row.  Bound: 1 store a row at 1 a
 * cycle = 1.  2 ops a row.
 */
static const struct kernel kernels[] = {
	{ "gemv", "quad", 23.0 / 4, 2, "load", 6, "512 x 2032 int8",
	  run_gemv },
	{ "axpy", "row", 22.0 / 8, 1.5, "memory", 4, "65536 floats",
	  run_axpy },
	{ "softmax", "register", 43.0 / 2, 5, "FMA", 25, "64 rows of 1024",
	  run_softmax },
	{ "hist", "row", 14.0 / 2, 4, "store", 11, "256 KiB", run_hist },
	{ "copyu", "row", 14.0 / 8, 1, "store", 2, "256 KiB, +7 -> +45",
	  run_copyu },
};

int main(int argc, char **argv)
{
	const char *path = "build/firmware/pool.fw";
	unsigned int i;

	if (argc == 3 && !strcmp(argv[1], "-f"))
		path = argv[2];
	else if (argc != 1)
		die("usage: kh_bench_kernels [-f IMAGE]");
	boot(path);
	printf("kh_bench_kernels: %s, every kernel on all eight cores; the "
	       "vector inner loops\n", path);
	printf("%-8s %-20s %8s %5s %9s %8s %6s %8s %8s %6s %7s %6s\n",
	       "kernel", "size", "job", "cores", "loop", "units", "calls",
	       "cyc/unit", "predict", "ratio", "bound", "ops/5");
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++) {
		const struct kernel *k = &kernels[i];
		struct prof pr;
		double per;

		k->run(&pr);
		if (!pr.units)
			die("no loop ran");
		per = (double)pr.loop / pr.units;
		printf("%-8s %-20s %8llu %5u %9llu %8llu %6llu %8.2f %8.2f "
		       "%6.3f %6.1f%% %5.1f%%\n", k->name, k->size,
		       (unsigned long long)pr.job, pr.cores,
		       (unsigned long long)pr.loop,
		       (unsigned long long)pr.units,
		       (unsigned long long)pr.calls, per, k->pred,
		       per / k->pred, 100 * k->bound / per,
		       100 * k->ops / per / 5);
	}
	printf("job: the slowest core's cycles in the kernel; loop: all "
	       "cores' cycles in the inner loops (with each call's set-up);\n"
	       "units: gemv quads (4 columns x 64 rows), axpy and hist and "
	       "copyu 64-byte rows, softmax 16-lane registers of the exp "
	       "loop;\n"
	       "predict: cycles a unit by the latency table (the loop's steady "
	       "state); bound: the share of the binding class's peak\n"
	       "(gemv loads 2/cycle, axpy memory 2/cycle, softmax FMA "
	       "2/cycle, hist and copyu stores 1/cycle); ops/5: vector ops a "
	       "cycle of the 5 slots\n");
	ksim_card_destroy(card);
	return 0;
}
