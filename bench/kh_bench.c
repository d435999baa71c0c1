// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The device model's benchmark: simulated mesh cycles per second of wall
 * time, under saturating traffic and idle, against a baseline measured in
 * the same run.  Not a test: the numbers depend on the machine.
 *
 *   baseline   the saxpy map (a 1x1 router mesh) with every node forced
 *              awake and idle skipping off: the cost of one empty cycle
 *   saxpy      the saxpy map, both SX units running saxpys back to back
 *              (8 instructions of 64 elements a kick; the one MAG port
 *              busy)
 *   2x2        sx_null_2x2 (the shape of mesh_2x2_8+2 with SX and null
 *              units): five SX units running saxpys back to back and
 *              the dispatcher kept busy flooding the five null units
 *   idle       10^9 cycles of an idle card (skipped)
 *
 * Each scenario runs `reps` times (default 3); the median is reported.
 * Ratios are cycle costs relative to the baseline's empty cycle.
 *
 *   kh_bench [-c CYCLES] [-r REPS] [-s SCENARIO] [-k]
 *
 * -k turns the protocol checker on in every card (its cost).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ksim_int.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>
#include <kohaku/kh_units.h>

#define SX_INSTS	8		/* SX instructions per kick, per unit */
#define SX_N		(SX_INSTS * KH_SX_N_MAX)	/* elements per kick */
#define NULL_SLOTS	64		/* staging slots 0..63: null flood */
#define SX_SLOT0	64		/* 64..127: 8 SX units x SX_INSTS */

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned int card_flags;	/* -k: the protocol checker on */

static struct ksim_card *card(const char *name)
{
	const char *d = ksim_builtin_desc(name);
	struct ksim_card *c = NULL;
	char err[256];

	if (ksim_card_create_flags(d ? d : name, card_flags, &c, err,
				     sizeof(err))) {
		fprintf(stderr, "kh_bench: card %s: %s\n", name, err);
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

static u64 rng = 0x9e3779b97f4a7c15ULL;

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

static void sx_stage(struct ksim_card *c, struct sx_job *j, unsigned int k)
{
	u64 xa = 0x1000000ULL + (u64)k * 0x1000000ULL;
	u64 ya = xa + 0x800000ULL;
	struct kh_flit f;
	unsigned int i;

	fill(c, xa, SX_N);
	fill(c, ya, SX_N);
	j->slot = SX_SLOT0 + k * SX_INSTS;
	/* 64 elements an instruction (N_MAX), SX_INSTS of them in a row */
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
		stage(c, j->slot + i, &f);
	}
}

static bool sx_idle(struct ksim_card *c, const struct sx_job *j)
{
	u64 ns = rd(c, KH_ORC_NODE_STATUS(KH_YX(j->x, j->y)));

	return KH_NS_COUNT(ns) == (j->issued & 0xffff);
}

struct result {
	u64 cycles, stepped, flits, sigs;
	double secs;
};

static void stats_of(struct ksim_card *c, struct result *r)
{
	struct ksim_stats st;

	ksim_get_stats(c, 0, &st);
	r->stepped = st.cycles_stepped;
	r->flits = st.link_flits;
	r->sigs = st.signals;
}

/*
 * Keep every SX unit running saxpys and, when the map has null units,
 * the dispatcher flooding them, for `cycles` cycles.
 */
static void saturate(const char *map, const unsigned int (*sx)[2],
		     unsigned int n_sx, const unsigned int (*nu)[2],
		     unsigned int n_null, u64 cycles, struct result *r)
{
	struct ksim_card *c = card(map);
	struct sx_job jobs[8];
	struct result r0;
	unsigned int k, next_null = 0;
	struct kh_flit f;
	u64 end;
	double t0;

	fast_host(c);
	for (k = 0; k < n_sx; k++) {
		jobs[k].x = sx[k][0];
		jobs[k].y = sx[k][1];
		jobs[k].issued = 0;
		sx_stage(c, &jobs[k], k);
	}
	for (k = 0; k < NULL_SLOTS; k++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, k, 0);
		f.w[0] = k * 0x01010101ULL;
		stage(c, k, &f);
	}
	wr(c, KH_ORC_PROG_CRED, 32);
	stats_of(c, &r0);
	r0.cycles = ksim_cycles(c);
	end = r0.cycles + cycles;
	t0 = wall();
	while (ksim_cycles(c) < end) {
		ksim_run(c, 200);
		if (rd(c, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN)
			continue;
		for (k = 0; k < n_sx; k++)
			if (sx_idle(c, &jobs[k]))
				break;
		if (k < n_sx) {
			kick(c, jobs[k].x, jobs[k].y, jobs[k].slot, SX_INSTS);
			jobs[k].issued += SX_INSTS;
		} else if (n_null) {
			kick(c, nu[next_null][0], nu[next_null][1], 0,
			     NULL_SLOTS);
			next_null = (next_null + 1) % n_null;
		}
	}
	r->secs = wall() - t0;
	stats_of(c, r);
	r->cycles = ksim_cycles(c) - r0.cycles;
	r->stepped -= r0.stepped;
	r->flits -= r0.flits;
	r->sigs -= r0.sigs;
	ksim_card_destroy(c);
}

static void baseline(u64 cycles, struct result *r)
{
	struct ksim_card *c = card("saxpy");
	struct result r0;
	double t0;

	ksim_set_step_all(c, true);
	stats_of(c, &r0);
	t0 = wall();
	ksim_run(c, cycles);
	r->secs = wall() - t0;
	stats_of(c, r);
	r->cycles = cycles;
	r->stepped -= r0.stepped;
	r->flits = 0;
	ksim_card_destroy(c);
}

static void idle(const char *map, struct result *r)
{
	struct ksim_card *c = card(map);
	struct result r0;
	double t0;

	ksim_run(c, 1000);	/* settle the initial wake-ups */
	stats_of(c, &r0);
	t0 = wall();
	ksim_run(c, 1000000000ULL);
	r->secs = wall() - t0;
	stats_of(c, r);
	r->cycles = 1000000000ULL;
	r->stepped -= r0.stepped;
	r->flits = 0;
	ksim_card_destroy(c);
}

static const unsigned int saxpy_sx[][2] = { { 1, 0 }, { 1, 2 } };
static const unsigned int q_sx[][2] = {
	{ 1, 0 }, { 1, 1 }, { 3, 1 }, { 2, 2 }, { 2, 3 },
};
static const unsigned int q_null[][2] = {
	{ 2, 0 }, { 2, 1 }, { 1, 2 }, { 3, 2 }, { 1, 3 },
};

static int cmp_res(const void *a, const void *b)
{
	const struct result *x = a, *y = b;
	double rx = x->cycles / x->secs, ry = y->cycles / y->secs;

	return rx < ry ? -1 : rx > ry;
}

enum { S_BASE, S_SAXPY, S_2X2, S_IDLE, S_IDLE2, S_N };
static const char *const s_name[S_N] = {
	"baseline", "saxpy", "2x2", "idle", "idle-2x2",
};

static void run(int s, u64 cycles, struct result *r)
{
	switch (s) {
	case S_BASE:
		baseline(cycles, r);
		break;
	case S_SAXPY:
		saturate("saxpy", saxpy_sx, 2, NULL, 0, cycles, r);
		break;
	case S_2X2:
		saturate("sx_null_2x2", q_sx, 5, q_null, 5, cycles, r);
		break;
	case S_IDLE:
		idle("saxpy", r);
		break;
	case S_IDLE2:
		idle("sx_null_2x2", r);
		break;
	}
}

int main(int argc, char **argv)
{
	struct result res[S_N][9], med[S_N];
	u64 cycles = 6000000;
	unsigned int reps = 3, i;
	const char *only = NULL;
	double base_cost;
	int s, o;

	while ((o = getopt(argc, argv, "c:r:s:k")) != -1) {
		switch (o) {
		case 'k':
			card_flags = KSIM_CHECK;
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
			fprintf(stderr, "usage: kh_bench [-c CYCLES] [-r REPS] [-s SCENARIO] [-k]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > 9)
		reps = 3;
	printf("kh_bench: %llu cycles per saturated run, median of %u, checker %s (wall time, one core; noisy machines vary)\n",
	       (unsigned long long)cycles, reps, card_flags ? "on" : "off");
	for (s = 0; s < S_N; s++) {
		if (only && s != S_BASE && strcmp(only, s_name[s]))
			continue;
		for (i = 0; i < reps; i++)
			run(s, cycles, &res[s][i]);
		qsort(res[s], reps, sizeof(res[s][0]), cmp_res);
		med[s] = res[s][reps / 2];
	}
	base_cost = med[S_BASE].secs / med[S_BASE].cycles;
	printf("%-10s %12s %12s %9s %14s %9s %9s %9s\n", "scenario", "cycles",
	       "stepped", "wall_s", "cycles/s", "flits/cyc", "signals",
	       "x_base");
	for (s = 0; s < S_N; s++) {
		const struct result *r = &med[s];

		if (only && s != S_BASE && strcmp(only, s_name[s]))
			continue;
		if (s == S_IDLE || s == S_IDLE2) {
			printf("%-10s %12llu %12llu %9.6f %14.3g %9s %9s %9.2g\n",
			       s_name[s], (unsigned long long)r->cycles,
			       (unsigned long long)r->stepped, r->secs,
			       r->cycles / r->secs, "-", "-",
			       r->secs / r->cycles / base_cost);
			printf("%-10s 10^9 idle cycles in %.2f us\n", "",
			       r->secs * 1e6);
			continue;
		}
		printf("%-10s %12llu %12llu %9.4f %14.0f %9.2f %9llu %9.2f\n",
		       s_name[s], (unsigned long long)r->cycles,
		       (unsigned long long)r->stepped, r->secs,
		       r->cycles / r->secs,
		       r->stepped ? (double)r->flits / r->stepped : 0.0,
		       (unsigned long long)r->sigs,
		       r->secs / r->cycles / base_cost);
	}
	return 0;
}
