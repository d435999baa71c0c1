// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA unit's benchmark (not a test): tiles copied from DRAM into
 * scratch units by the model's dxa unit, through libkohaku, against memcpy
 * of the same bytes in the same run.  Per tile size, the scenarios are
 * interleaved; each rep is one job of COPIES copies; min and median over
 * reps of wall and CPU time per copy, host bytes per second, and the
 * simulated bytes per cycle (tile bytes over the dxa unit's busy cycles,
 * CU_COUNTERS, so the figure is the unit's and not the host's).
 *
 *   kh_bench_dxa [-r REPS] [-m MAP] [-b sim|kernel] [-d DEVICE] [-c COPIES]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"
#include "kohaku.h"
#include "kohaku/kh_dxa.h"

static unsigned int reps = 5, copies = 32;
static const char *map = "dxa_2x1", *kdevice;
static enum kohaku_backend backend = KOHAKU_BACKEND_SIM;

#define MAX_RECV	4
#define MAX_NODES	64

struct card {
	kohaku_device *dev;
	struct drm_kohaku_node dx, scr[MAX_RECV];
	unsigned int n_scr, slot;
	uint32_t bo;
	uint64_t bo_addr;
};

enum { S_MEMCPY, S_DXA1, S_DXA4, S_N };
static const char *const names[S_N] = {
	"memcpy", "DXA, 1 receiver", "DXA, 4 receivers (multicast)"
};

/* the matrix the tiles come from: 256 rows of 256 fp32 */
#define COLS	256
#define ROWS	256
#define EB	4

static int find_units(struct card *c)
{
	struct drm_kohaku_node *nd;
	unsigned int n, i;
	int r = kohaku_nodes_alloc(c->dev, 0, &nd, sizeof(*nd), &n);

	if (r)
		return r;
	c->n_scr = 0;
	memset(&c->dx, 0, sizeof(c->dx));
	for (i = 0; i < n; i++) {
		if (nd[i].cu_type == KH_CU_DX && !c->dx.cu_type)
			c->dx = nd[i];
		else if (nd[i].cu_type == KH_CU_SC && c->n_scr < MAX_RECV &&
			 (!c->dx.cu_type || nd[i].mesh == c->dx.mesh))
			c->scr[c->n_scr++] = nd[i];
	}
	free(nd);
	if (!c->dx.cu_type || c->n_scr < MAX_RECV) {
		fprintf(stderr, "kh_bench_dxa: the card needs a dxa unit and %u "
			"scratch units on its mesh (the built-in dxa_2x1 has them)\n",
			MAX_RECV);
		return -ENODEV;
	}
	return 0;
}

static int card_open(struct card *c)
{
	char err[256];
	size_t bytes = (size_t)COLS * ROWS * EB;
	unsigned char *m;
	size_t i;
	int r;

	r = kohaku_open(backend, backend == KOHAKU_BACKEND_SIM ? map : kdevice,
			&c->dev, err, sizeof(err));
	if (r) {
		fprintf(stderr, "kh_bench_dxa: %s\n", err);
		return r;
	}
	r = find_units(c);
	if (!r)
		r = kohaku_bo_create(c->dev, c->dx.mesh, bytes, &c->bo, &c->bo_addr);
	m = malloc(bytes);
	if (!r && m) {
		for (i = 0; i < bytes; i++)
			m[i] = (unsigned char)(i * 13 + 7);
		r = kohaku_bo_write(c->dev, c->bo, 0, m, bytes);
	}
	free(m);
	if (!r)
		r = kohaku_dxa_alloc(c->dev, c->dx.mesh, c->dx.x, c->dx.y, &c->slot);
	if (r)
		fprintf(stderr, "kh_bench_dxa: setting up: %s\n",
			kohaku_last_error(c->dev));
	return r;
}

/* the dxa unit's busy cycles so far (CU_COUNTERS, live) */
static uint64_t dx_busy(struct card *c)
{
	struct drm_kohaku_node *nd;
	unsigned int n, i;
	uint64_t b = 0;

	if (kohaku_nodes_alloc(c->dev, KOHAKU_NODES_LIVE, &nd, sizeof(*nd), &n))
		return 0;
	for (i = 0; i < n; i++)
		if (nd[i].mesh == c->dx.mesh && nd[i].x == c->dx.x && nd[i].y == c->dx.y)
			b = nd[i].busy_cycles;
	free(nd);
	return b;
}

/* one job of `copies` tiles of tr x tc fp32 to n_recv scratch units */
static int dxa_job(struct card *c, unsigned int tc, unsigned int tr,
		   unsigned int n_recv, uint64_t *busy)
{
	struct kohaku_inst *in = calloc(copies, sizeof(*in));
	struct kohaku_dxa_recv rv[MAX_RECV];
	struct drm_kohaku_dxa_desc d;
	struct kohaku_program p;
	struct kohaku_job_status st;
	uint32_t coords[5] = { 0 };
	uint64_t b0;
	unsigned int i;
	int r;

	if (!in)
		return -ENOMEM;
	r = kohaku_dxa_desc_2d(&d, c->bo, 0, EB, COLS, ROWS, COLS * EB, tc, tr);
	if (!r)
		r = kohaku_dxa_set(c->dev, c->dx.mesh, c->dx.x, c->dx.y, c->slot, &d);
	for (i = 0; i < n_recv; i++)
		rv[i] = (struct kohaku_dxa_recv){ .x = c->scr[i].x, .y = c->scr[i].y,
						  .buf = KH_SCR_BUF, .offset = 0 };
	for (i = 0; !r && i < copies; i++) {
		/* walk the matrix so the reads are not one line over and over */
		coords[0] = (i * tc) % COLS;
		coords[1] = ((i * tc) / COLS * tr) % ROWS;
		r = kohaku_inst_dxa_copy(&in[i], c->slot, coords, rv, n_recv);
	}
	b0 = dx_busy(c);
	memset(&p, 0, sizeof(p));
	p.mesh = c->dx.mesh;
	p.x = c->dx.x;
	p.y = c->dx.y;
	p.n_insts = copies;
	p.insts = in;
	if (!r)
		r = kohaku_run(c->dev, &p, 1, 0, &st, sizeof(st));
	*busy = dx_busy(c) - b0;
	free(in);
	if (r)
		fprintf(stderr, "kh_bench_dxa: a copy job: %s\n",
			kohaku_last_error(c->dev));
	return r;
}

static void report(const char *what, size_t bytes, struct bench_series *s,
		   double base_med, uint64_t busy)
{
	double w[BENCH_MAX_REPS], cpu[BENCH_MAX_REPS];
	double wmin, wmed, cmed;

	memcpy(w, s->wall, sizeof(w));
	memcpy(cpu, s->cpu, sizeof(cpu));
	wmin = bench_min(w, s->n) / copies;
	wmed = bench_median(w, s->n) / copies;
	cmed = bench_median(cpu, s->n) / copies;
	printf("  %-30s %9.2f %9.2f %9.2f %10.1f %8.4f",
	       what, wmin * 1e6, wmed * 1e6, cmed * 1e6, bytes / wmed / 1e6,
	       base_med > 0 ? base_med / (wmed * copies) : 0);
	if (busy)
		printf(" %8.2f\n", (double)bytes * copies / busy);
	else
		printf("        -\n");
}

static int bench_tile(struct card *c, unsigned int tc, unsigned int tr)
{
	size_t bytes = (size_t)tc * tr * EB;
	unsigned char *src = malloc(bytes * copies), *dst = malloc(bytes * copies);
	struct bench_series s[S_N];
	uint64_t busy[S_N] = { 0 }, b;
	double w[BENCH_MAX_REPS], base;
	unsigned int rep, sc;
	int r = 0;

	if (!src || !dst) {
		free(src);
		free(dst);
		return -ENOMEM;
	}
	memset(s, 0, sizeof(s));
	memset(src, 0x5a, bytes * copies);
	for (rep = 0; rep < reps && !r; rep++) {
		for (sc = 0; sc < S_N && !r; sc++) {
			double w0 = bench_now(CLOCK_MONOTONIC);
			double c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);

			if (sc == S_MEMCPY)
				memcpy(dst, src, bytes * copies);
			else
				r = dxa_job(c, tc, tr, sc == S_DXA1 ? 1 : MAX_RECV, &b);
			bench_add(&s[sc], bench_now(CLOCK_MONOTONIC) - w0,
				  bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0);
			if (sc != S_MEMCPY)
				busy[sc] = b;
		}
	}
	if (!r) {
		memcpy(w, s[S_MEMCPY].wall, sizeof(w));
		base = bench_median(w, s[S_MEMCPY].n);
		printf("%u x %u fp32 tile (%zu bytes), %u copies per job\n", tr, tc,
		       bytes, copies);
		for (sc = 0; sc < S_N; sc++)
			report(names[sc], bytes, &s[sc], base, busy[sc]);
	}
	free(src);
	free(dst);
	return r;
}

int main(int argc, char **argv)
{
	static const unsigned int tiles[][2] = {
		{ 8, 8 }, { 32, 8 }, { 32, 32 }, { 64, 32 },
	};
	struct card c;
	unsigned int i;
	int opt, r = 0;

	while ((opt = getopt(argc, argv, "r:m:b:d:c:")) != -1) {
		switch (opt) {
		case 'r':
			reps = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			map = optarg;
			break;
		case 'b':
			backend = strcmp(optarg, "kernel") ? KOHAKU_BACKEND_SIM :
				  KOHAKU_BACKEND_KERNEL;
			break;
		case 'd':
			kdevice = optarg;
			break;
		case 'c':
			copies = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: %s [-r REPS] [-m MAP] [-b sim|kernel] "
				"[-d DEVICE] [-c COPIES]\n", argv[0]);
			return 2;
		}
	}
	if (!reps || reps > BENCH_MAX_REPS || !copies || copies > 4096) {
		fprintf(stderr, "kh_bench_dxa: -r 1..%u, -c 1..4096\n", BENCH_MAX_REPS);
		return 2;
	}
	memset(&c, 0, sizeof(c));
	if (card_open(&c))
		return 1;
	printf("kh_bench_dxa: %s, %u reps, scenarios interleaved; per copy: wall "
	       "min/median and CPU median in us, host MB/s at the median, memcpy's "
	       "median time over this one's, simulated bytes per dxa busy cycle\n",
	       kohaku_device_path(c.dev), reps);
	printf("  %-30s %9s %9s %9s %10s %8s %8s\n", "scenario", "wall min",
	       "wall med", "cpu med", "MB/s", "x memcpy", "B/cycle");
	for (i = 0; i < sizeof(tiles) / sizeof(tiles[0]) && !r; i++)
		r = bench_tile(&c, tiles[i][0], tiles[i][1]);
	kohaku_close(c.dev);
	return r ? 1 : 0;
}
