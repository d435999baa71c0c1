// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The device model's benchmark: simulated mesh cycles per second, CPU time
 * and wall time, saturated, all-awake-idle and idle meshes from 1x1 to 8x8,
 * against a baseline measured in the same run.  Not a test: the numbers
 * depend on the machine.
 *
 *   baseline   the saxpy map (a 1x1 router mesh) with every node forced
 *              awake and idle skipping off: the cost of one empty cycle
 *   saxpy      the saxpy map, both SX units running saxpys back to back
 *              (8 instructions of 64 elements a kick; the one MAG port
 *              busy)
 *   saxpy-step the same with every cycle stepped (no idle skipping), as
 *              an RTL simulator runs it: the figure to set beside
 *              Verilator's, measured in the same run when
 *              KH_BENCH_VERILATOR names a Verilated saxpy_mesh
 *   sat-2x2    sx_null_2x2 (the shape of mesh_2x2_8+2 with SX and null
 *              units): SX units running saxpys back to back and the
 *              dispatcher flooding the null units (the former `2x2`)
 *   sat-4x4, sat-8x8   the same on generated N x N router meshes (SX and
 *              null units in a checkerboard on every port, MAG ports on
 *              the first four rows; the host polls the SX units in turn)
 *   awake-2x2, awake-4x4, awake-8x8   those meshes with every node forced
 *              awake and no traffic: the cost of an awake node with
 *              nothing to do (ns/node is per node per cycle)
 *   idle, idle-2x2   10^9 cycles of an idle card (skipped)
 *
 * Every scenario runs `reps` times (default 5), the scenarios interleaved
 * (rep 1 of each, then rep 2 of each, ...) so that a change in the
 * machine's load hits them alike; min and median of CPU time
 * (CLOCK_PROCESS_CPUTIME_ID) and wall time are reported.  x_base is a
 * scenario's median CPU cost per simulated cycle over the baseline's.
 *
 *   kh_bench [-c CYCLES] [-r REPS] [-s SCENARIO[,SCENARIO...]] [-k] [-t]
 *
 * -k turns the protocol checker on in every card (its cost).  -t runs
 * each traffic scenario once, short, with the checker and the trace on,
 * then once with both off, and prints the trace text, the card's counters
 * and the checker's report instead of timings:
 * the model's output to compare byte for byte before and after a change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ksim_int.h"
#include "card.h"
#include "util.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>
#include <kohaku/kh_units.h>

#define SX_INSTS	8		/* SX instructions per kick, per unit */
#define SX_SETS		8		/* staged instruction sets, shared */
#define SX_N		(SX_INSTS * KH_SX_N_MAX)	/* elements per kick */
#define NULL_SLOTS	64		/* staging slots 0..63: null flood */
#define SX_SLOT0	64		/* 64..127: SX_SETS x SX_INSTS */
#define MAX_UNITS	128
#define REPS_MAX	9

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned int card_flags;	/* -k: the protocol checker on */
static int dump;		/* -t: print trace and counters */
static int tracing;		/* -t: the trace on (first pass) */

/* A generated N x N router mesh: a checkerboard of SX and null units. */
static const char *gen_map(unsigned int n)
{
	static char buf[8][1024];
	char *p = buf[n & 7];
	unsigned int x, y, w = n + 2;
	size_t o = 0;

	o += snprintf(p + o, 1024 - o, "profile rtl\nparam cu_version 1\n");
	for (y = 0; y < w; y++) {
		for (x = 0; x < w; x++) {
			const char *t = (x + y) & 1 ? "null" : "sax";

			if ((y == 0 || y == w - 1) && (x == 0 || x == w - 1))
				t = "xxx";
			else if (x == 0 && y >= 1 && y <= 4 && y <= n)
				t = "mag";
			o += snprintf(p + o, 1024 - o, "%s ", t);
		}
		o += snprintf(p + o, 1024 - o, "\n");
	}
	return p;
}

/*
 * The scenarios' cards keep the memory they were first measured with: a
 * `profile rtl` card gets the DRAM latencies that profile had then (30 and
 * 20) rather than the RTL benches' 1-cycle memory it has now, so that a
 * scenario's work per cycle, and with it its cost, stays comparable from
 * one tree to the next (docs/model.md "Performance").
 */
static const char *bench_desc(const char *d)
{
	static const char prof[] = "profile rtl\n";
	static char buf[4096];
	const char *p = d ? strstr(d, prof) : NULL;

	if (!p)
		return d;
	p += sizeof(prof) - 1;
	snprintf(buf, sizeof(buf),
		 "%.*sparam mem_rd_latency 30\nparam mem_wr_latency 20\n%s",
		 (int)(p - d), d, p);
	return buf;
}

static struct ksim_card *card(const char *name)
{
	const char *d = ksim_builtin_desc(name);
	struct ksim_card *c = NULL;
	char err[256];

	if (!strcmp(name, "gen4x4"))
		d = gen_map(4);
	else if (!strcmp(name, "gen8x8"))
		d = gen_map(8);
	d = bench_desc(d);
	if (ksim_card_create_flags(d ? d : name, card_flags, &c, err,
				   sizeof(err))) {
		fprintf(stderr, "kh_bench: card %s: %s\n", name, err);
		exit(2);
	}
	if (tracing && ksim_command(c, "trace on size=4194304", err,
				 sizeof(err))) {
		fprintf(stderr, "kh_bench: trace: %s\n", err);
		exit(2);
	}
	return c;
}

static void fast_host(struct ksim_card *c)
{
	struct ksim_timing t = { 1, 1, 1 };

	ksim_set_timing(c, &t);
}

static u64 rd(struct ksim_card *c, u32 off)
{
	return ksim_read64(c, KH_MESH_BASE(0) + off);
}

static void wr(struct ksim_card *c, u32 off, u64 v)
{
	ksim_write64(c, KH_MESH_BASE(0) + off, v);
}

static void stage(struct ksim_card *c, unsigned int slot,
		  const struct kh_flit *f)
{
	unsigned int i;

	for (i = 0; i < KH_FLIT_WORDS; i++)
		wr(c, KH_ORC_STAGE(slot) + i * 8, f->w[i]);
}

static void kick(struct ksim_card *c, unsigned int x, unsigned int y,
		 unsigned int base, unsigned int len)
{
	wr(c, KH_ORC_PROG_DST, KH_YX(x, y));
	wr(c, KH_ORC_PROG_BASE, base);
	wr(c, KH_ORC_PROG_LEN, len);
	wr(c, KH_ORC_PROG_KICK, 1);
}

static u64 rng;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

/* Random binary32 values with exponents that keep products ordinary. */
static void fill(struct ksim_card *c, u64 local, u32 n)
{
	static u32 buf[4096];
	u32 i, k;

	for (i = 0; i < n; i += k) {
		k = n - i < 4096 ? n - i : 4096;
		for (u32 j = 0; j < k; j++)
			buf[j] = (rnd() & 0x807fffff) | ((110 + rnd() % 30) << 23);
		ksim_dma_write(c, KH_CARD_ADDR(0, local + (u64)i * 4), buf,
			       k * 4);
	}
}

struct sx_job {
	unsigned int x, y, slot;
	unsigned int issued;
};

/* Instruction set k: SX_INSTS saxpys of N_MAX elements in a row. */
static void sx_stage(struct ksim_card *c, unsigned int k)
{
	u64 xa = 0x1000000ULL + (u64)k * 0x1000000ULL;
	u64 ya = xa + 0x800000ULL;
	struct kh_flit f;
	unsigned int i;

	fill(c, xa, SX_N);
	fill(c, ya, SX_N);
	for (i = 0; i < SX_INSTS; i++) {
		u64 off = (u64)i * KH_SX_N_MAX * 4;

		memset(&f, 0, sizeof(f));
		/* last = 0: the completion returns its credit */
		kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x10 + k, 0);
		kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
		kh_flit_set(&f, KH_SX_N, KH_SX_N_MAX);
		kh_flit_set(&f, KH_SX_A, 0x40400000);	/* 3.0 */
		kh_flit_set(&f, KH_SX_X_ADDR, xa + off);
		kh_flit_set(&f, KH_SX_Y_ADDR, ya + off);
		stage(c, SX_SLOT0 + k * SX_INSTS + i, &f);
	}
}

static bool sx_idle(struct ksim_card *c, const struct sx_job *j)
{
	u64 ns = rd(c, KH_ORC_NODE_STATUS(KH_YX(j->x, j->y)));

	return KH_NS_COUNT(ns) == (j->issued & 0xffff);
}

struct result {
	u64 cycles, stepped, flits, sigs;
	unsigned int nodes;
	double cpu, wall;
};

static void stats_of(struct ksim_card *c, struct result *r)
{
	struct ksim_stats st;

	ksim_get_stats(c, 0, &st);
	r->stepped = st.cycles_stepped;
	r->flits = st.link_flits;
	r->sigs = st.signals;
	r->nodes = c->sched.n_all;
}

static void t_start(struct ksim_card *c, struct result *r0)
{
	stats_of(c, r0);
	r0->cycles = ksim_cycles(c);
	r0->cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	r0->wall = clock_s(CLOCK_MONOTONIC);
}

static void t_stop(struct ksim_card *c, const struct result *r0,
		   struct result *r)
{
	r->cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - r0->cpu;
	r->wall = clock_s(CLOCK_MONOTONIC) - r0->wall;
	stats_of(c, r);
	r->cycles = ksim_cycles(c) - r0->cycles;
	r->stepped -= r0->stepped;
	r->flits -= r0->flits;
	r->sigs -= r0->sigs;
}

/* -t: the trace and the counters of the run, as text. */
static void dump_card(struct ksim_card *c, const char *name)
{
	static char buf[1 << 16];
	u64 pos = 0;
	size_t n;

	printf("==== %s\n", name);
	while ((n = ksim_trace_text(c, &pos, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	n = ksim_dump_stats(c, buf, sizeof(buf));
	fwrite(buf, 1, n < sizeof(buf) ? n : sizeof(buf) - 1, stdout);
	ksim_check_report(c, buf, sizeof(buf));
	fputs(buf, stdout);
	printf("cycles %llu\n", (unsigned long long)ksim_cycles(c));
}

/*
 * Keep every SX unit of the map running saxpys and, when no SX unit is
 * idle, the dispatcher flooding the null units, for `cycles` cycles.  The
 * host looks every `chunk` cycles (one kick at a time: the dispatcher
 * runs one program).
 */
static void saturate(const char *map, u64 cycles, unsigned int chunk,
		     bool step_all, bool rotate, struct result *r)
{
	struct ksim_card *c = card(map);
	struct sx_job jobs[MAX_UNITS];
	unsigned int nu[MAX_UNITS][2];
	unsigned int k, n_sx = 0, n_null = 0, next_null = 0, x, y, i, k0 = 0;
	struct result r0;
	struct kh_flit f;
	u64 end;

	rng = 0x9e3779b97f4a7c15ULL;
	fast_host(c);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++) {
			struct ksim_unit *u = ksim_unit_at(c, 0, x, y);
			unsigned int t;

			if (!u)
				continue;
			t = ksim_unit_type_of(u)->cu_type;
			if (t == KH_CU_SX && n_sx < MAX_UNITS) {
				jobs[n_sx].x = x;
				jobs[n_sx].y = y;
				jobs[n_sx].slot = SX_SLOT0 +
						  (n_sx % SX_SETS) * SX_INSTS;
				jobs[n_sx++].issued = 0;
			} else if (t != KH_CU_SX && n_null < MAX_UNITS) {
				nu[n_null][0] = x;
				nu[n_null++][1] = y;
			}
		}
	for (k = 0; k < SX_SETS && k < n_sx; k++)
		sx_stage(c, k);
	for (k = 0; k < NULL_SLOTS; k++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, k, 0);
		f.w[0] = k * 0x01010101ULL;
		stage(c, k, &f);
	}
	wr(c, KH_ORC_PROG_CRED, 32);
	if (step_all)
		ksim_set_step_all(c, true);
	t_start(c, &r0);
	end = r0.cycles + cycles;
	while (ksim_cycles(c) < end) {
		ksim_run(c, chunk);
		if (rd(c, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN)
			continue;
		/* the first idle SX unit (from the last one kicked: rotate) */
		for (i = 0; i < n_sx; i++) {
			k = (k0 + i) % n_sx;
			if (sx_idle(c, &jobs[k]))
				break;
		}
		if (i < n_sx) {
			kick(c, jobs[k].x, jobs[k].y, jobs[k].slot, SX_INSTS);
			jobs[k].issued += SX_INSTS;
			if (rotate)
				k0 = k + 1;
		} else if (n_null) {
			kick(c, nu[next_null][0], nu[next_null][1], 0,
			     NULL_SLOTS);
			next_null = (next_null + 1) % n_null;
		}
	}
	t_stop(c, &r0, r);
	if (dump)
		dump_card(c, map);
	ksim_card_destroy(c);
}

/* Every node forced awake, idle skipping off, no traffic. */
static void awake(const char *map, u64 cycles, struct result *r)
{
	struct ksim_card *c = card(map);
	struct result r0;

	ksim_set_step_all(c, true);
	t_start(c, &r0);
	ksim_run(c, cycles);
	t_stop(c, &r0, r);
	ksim_card_destroy(c);
}

static void idle(const char *map, struct result *r)
{
	struct ksim_card *c = card(map);
	struct result r0;

	ksim_run(c, 1000);	/* settle the initial wake-ups */
	t_start(c, &r0);
	ksim_run(c, 1000000000ULL);
	t_stop(c, &r0, r);
	ksim_card_destroy(c);
}

/* The scenarios, in the table's order; S_* name the ones treated apart. */
enum { K_AWAKE, K_SAT, K_IDLE };

struct scenario {
	const char *name;
	unsigned int kind;	/* K_* */
	const char *map;
	unsigned int div;	/* cycles per run: -c / div */
	unsigned int chunk;	/* K_SAT: cycles between the host's looks */
	bool step_all;		/* K_SAT: every cycle stepped */
	bool rotate;		/* K_SAT: poll the SX units in turn */
};

#define AWAKE(n, m, d)	{ .name = n, .kind = K_AWAKE, .map = m, .div = d }
#define SAT(n, m, d, c, st, rot) { .name = n, .kind = K_SAT, .map = m, \
			   .div = d, .chunk = c, .step_all = st, .rotate = rot }
#define IDLE(n, m)	{ .name = n, .kind = K_IDLE, .map = m, .div = 1 }

static const struct scenario scen[] = {
	AWAKE("baseline", "saxpy", 1),
	SAT("saxpy", "saxpy", 1, 200, false, false),
	SAT("saxpy-step", "saxpy", 1, 200, true, false),
	SAT("sat-2x2", "sx_null_2x2", 1, 200, false, false),
	SAT("sat-4x4", "gen4x4", 4, 20, false, true),
	SAT("sat-8x8", "gen8x8", 16, 10, false, true),
	AWAKE("awake-2x2", "sx_null_2x2", 1),
	AWAKE("awake-4x4", "gen4x4", 4),
	AWAKE("awake-8x8", "gen8x8", 16),
	IDLE("idle", "saxpy"),
	IDLE("idle-2x2", "sx_null_2x2"),
};

#define S_BASE	0
#define S_N	((int)KSIM_ARRAY_SIZE(scen))

static void run(int s, u64 cycles, struct result *r)
{
	const struct scenario *sc = &scen[s];

	memset(r, 0, sizeof(*r));
	switch (sc->kind) {
	case K_AWAKE:
		awake(sc->map, cycles / sc->div, r);
		break;
	case K_SAT:
		saturate(sc->map, cycles / sc->div, sc->chunk, sc->step_all,
			 sc->rotate, r);
		break;
	default:
		idle(sc->map, r);
		break;
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* min and median of the per-cycle cost, in seconds */
static void summarize(const struct result *r, unsigned int n, bool cpu,
		      double *min, double *med)
{
	double v[REPS_MAX];
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] = (cpu ? r[i].cpu : r[i].wall) / r[i].cycles;
	qsort(v, n, sizeof(v[0]), cmp_d);
	*min = v[0];
	*med = v[n / 2];
}

static bool wanted(const char *only, int s)
{
	const char *p = only;
	size_t l = strlen(scen[s].name);

	if (!only || s == S_BASE)
		return true;
	while (p && *p) {
		if (!strncmp(p, scen[s].name, l) && (p[l] == ',' || !p[l]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static void print_table(struct result res[][REPS_MAX], unsigned int reps,
			const char *only)
{
	double bmin, bmed, wmin, wmed, base_cpu;
	int s;

	summarize(res[S_BASE], reps, true, &bmin, &base_cpu);
	printf("%-10s %11s %9s %6s %9s %9s %9s %9s %8s %7s %9s\n",
	       "scenario", "cycles", "stepped", "nodes", "Mcyc/s", "ns/cyc",
	       "ns/cyc", "wall", "flits", "x_base", "ns/node");
	printf("%-10s %11s %9s %6s %9s %9s %9s %9s %8s %7s %9s\n",
	       "", "(per run)", "(%)", "", "cpu,med", "cpu,min", "cpu,med",
	       "ns,med", "/cyc", "cpu,med", "cpu,med");
	for (s = 0; s < S_N; s++) {
		const struct result *r = &res[s][0];

		if (!wanted(only, s))
			continue;
		summarize(res[s], reps, true, &bmin, &bmed);
		summarize(res[s], reps, false, &wmin, &wmed);
		if (scen[s].kind == K_IDLE) {
			printf("%-10s %11llu %9llu %6u  10^9 idle cycles: cpu %.2f us (min %.2f), wall %.2f us (min %.2f)\n",
			       scen[s].name, (unsigned long long)r->cycles,
			       (unsigned long long)r->stepped, r->nodes,
			       bmed * 1e15, bmin * 1e15, wmed * 1e15,
			       wmin * 1e15);
			continue;
		}
		printf("%-10s %11llu %9.1f %6u %9.3f %9.1f %9.1f %9.1f %8.2f %7.2f %9.2f\n",
		       scen[s].name, (unsigned long long)r->cycles,
		       100.0 * r->stepped / r->cycles, r->nodes,
		       1e-6 / bmed, bmin * 1e9, bmed * 1e9, wmed * 1e9,
		       r->stepped ? (double)r->flits / r->stepped : 0.0,
		       bmed / base_cpu, bmed * 1e9 / r->nodes);
	}
}

static int scen_index(const char *name)
{
	int s;

	for (s = 0; s < S_N; s++)
		if (!strcmp(scen[s].name, name))
			return s;
	return -1;
}

/* median CPU seconds per cycle of a scenario */
static double med_cpu(struct result res[][REPS_MAX], unsigned int reps,
		      const char *name)
{
	double min, med;

	summarize(res[scen_index(name)], reps, true, &min, &med);
	return med;
}

/*
 * Verilator beside the model, when it is here: KH_BENCH_VERILATOR names a
 * Verilated simulation of KohakuTPU's saxpy_mesh top running both SX units
 * back to back (docs/model.md "Performance" says how to build one; nothing
 * of KohakuTPU is in this tree), run with "+cycles=N"; it prints "cycles
 * N" when it has simulated N.  Its CPU time is the child's (RUSAGE_CHILDREN),
 * run between the model's scenarios, rep by rep.
 */
static const char *verilator_cmd;

static double ru_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static int run_verilator(u64 cycles, struct result *r)
{
	char cmd[4096], line[256];
	unsigned long long n = 0;
	struct timespec t0, t1;
	double c0 = ru_cpu();
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s +cycles=%llu", verilator_cmd,
		 (unsigned long long)cycles);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		sscanf(line, "cycles %llu", &n);
	if (pclose(f) != 0 || !n)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	memset(r, 0, sizeof(*r));
	r->cycles = n;
	r->cpu = ru_cpu() - c0;
	r->wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return 0;
}

/* Issue 13's aims, against this run's medians. */

static void aim(const char *what, double v, double goal, bool at_least,
		const char *unit, const char *gap)
{
	bool met = at_least ? v >= goal : v <= goal;

	printf("  %-44s %9.2f %-9s %s %.2f: %s%s\n", what, v, unit,
	       at_least ? ">=" : "<=", goal, met ? "met" : "NOT met",
	       met ? "" : gap);
}

static void print_aims(struct result res[][REPS_MAX], unsigned int reps,
		       const struct result *vres)
{
	const struct result *a8 = &res[scen_index("awake-8x8")][0];
	double base = med_cpu(res, reps, "baseline");
	double s22 = med_cpu(res, reps, "sat-2x2");

	printf("aims (issue 13; CPU medians of this run):\n");
	aim("sat-2x2, M cycles/s", 1e-6 / s22, 3, true, "", "");
	aim("sat-8x8, M cycles/s", 1e-6 / med_cpu(res, reps, "sat-8x8"), 1,
	    true, "", "");
	aim("awake node with nothing to do, ns/cycle",
	    med_cpu(res, reps, "awake-8x8") * 1e9 / a8->nodes, 5, false, "",
	    "");
	if (vres) {
		double vmin, vmed;

		summarize(vres, reps, true, &vmin, &vmed);
		printf("  verilator (%s): %.3g cycles/s, CPU median of %u\n",
		       verilator_cmd, 1 / vmed, reps);
		aim("saxpy-step over Verilator, both measured here",
		    vmed / med_cpu(res, reps, "saxpy-step"), 50, true, "x", "");
	} else {
		printf("  saxpy-step over Verilator: not measured (set KH_BENCH_VERILATOR: docs/model.md \"Performance\")\n");
	}
	aim("sat-2x2 cost per cycle over the baseline", s22 / base, 2.5,
	    false, "x",
	    " (the baseline's 7 nodes are dormant, a flag test each; a saturated cycle's cost is its ticks and transfers: docs/model.md \"Performance\")");
}

int main(int argc, char **argv)
{
	static struct result res[KSIM_ARRAY_SIZE(scen)][REPS_MAX];
	static struct result vres[REPS_MAX];
	u64 cycles = 6000000;
	unsigned int reps = 5, i;
	const char *only = NULL;
	int s, o;

	while ((o = getopt(argc, argv, "c:r:s:kt")) != -1) {
		switch (o) {
		case 'k':
			card_flags = KSIM_CHECK;
			break;
		case 't':
			dump = 1;
			break;
		case 'c':
			cycles = strtoull(optarg, NULL, 0);
			break;
		case 'r':
			reps = strtoul(optarg, NULL, 0);
			break;
		case 's':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: kh_bench [-c CYCLES] [-r REPS] [-s SCENARIO[,...]] [-k] [-t]\n");
			return 2;
		}
	}
	if (dump) {
		struct result r;

		/* checker and trace on (the observers' paths), then off */
		static const u64 len[] = { 300000, 30000, 300000, 400000, 480000 };
		unsigned int k = 0;

		for (tracing = 1; tracing >= 0; tracing--) {
			card_flags = tracing ? KSIM_CHECK : 0;
			for (s = 0, k = 0; s < S_N; s++)
				if (scen[s].kind == K_SAT)
					run(s, len[k++], &r);
		}
		return 0;
	}
	if (reps < 1 || reps > REPS_MAX)
		reps = 5;
	verilator_cmd = getenv("KH_BENCH_VERILATOR");
	if (verilator_cmd && !*verilator_cmd)
		verilator_cmd = NULL;
	printf("kh_bench: %llu cycles per 1x1/2x2 run (4x4: /4, 8x8: /16), %u runs interleaved, checker %s\n",
	       (unsigned long long)cycles, reps, card_flags ? "on" : "off");
	for (i = 0; i < reps; i++) {
		for (s = 0; s < S_N; s++)
			if (wanted(only, s))
				run(s, cycles, &res[s][i]);
		/* a tenth of the cycles: Verilator is two orders slower */
		if (verilator_cmd && !only &&
		    run_verilator(cycles / 10, &vres[i])) {
			fprintf(stderr, "kh_bench: KH_BENCH_VERILATOR '%s' failed or printed no \"cycles N\"; not measured\n",
				verilator_cmd);
			verilator_cmd = NULL;
		}
	}
	print_table(res, reps, only);
	if (!only)
		print_aims(res, reps, verilator_cmd ? vres : NULL);
	return 0;
}
