// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The data path's benchmark (not a test): BO_WRITE and BO_READ bytes per
 * second through libkohaku, in-process and through kohaku.ko when a kernel
 * device is given (the VM: tests/vm/run-vm.sh with KOHAKU_VM_BENCH=dma),
 * against memcpy of the same bytes in the same run; per size, the
 * scenarios interleaved, min and median over reps of wall and CPU time.
 *
 *   kh_bench_dma [-r REPS] [-b sim|kernel|both] [-m MAP] [-d DEVICE]
 *                [-s MAX_BYTES]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_stats.h"
#include "kohaku.h"

static unsigned int reps = 7;
static size_t max_size = 64u << 20;
static const char *map = "saxpy", *kdevice, *backend = "sim";

static void stat2(struct bench_series *s, double *wmin, double *wmed, double *cmed)
{
	double w[BENCH_MAX_REPS], c[BENCH_MAX_REPS];

	memcpy(w, s->wall, sizeof(w));
	memcpy(c, s->cpu, sizeof(c));
	*wmin = bench_min(w, s->n);
	*wmed = bench_median(w, s->n);
	*cmed = bench_median(c, s->n);
}

enum { S_MEMCPY, S_WRITE, S_READ, S_N };
static const char *const names[S_N] = { "memcpy", "BO_WRITE", "BO_READ" };

static int run_one(kohaku_device *dev, unsigned int sc, uint32_t h,
		   unsigned char *src, unsigned char *dst, size_t n,
		   struct bench_series *s)
{
	double w0 = bench_now(CLOCK_MONOTONIC), c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	int r = 0;

	if (sc == S_MEMCPY)
		memcpy(dst, src, n);
	else if (sc == S_WRITE)
		r = kohaku_bo_write(dev, h, 0, src, n);
	else
		r = kohaku_bo_read(dev, h, 0, dst, n);
	bench_add(s, bench_now(CLOCK_MONOTONIC) - w0,
		  bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0);
	if (r)
		fprintf(stderr, "kh_bench_dma: %s of %zu bytes: %s\n", names[sc], n,
			kohaku_last_error(dev));
	return r;
}

static int bench_backend(enum kohaku_backend b, const char *device)
{
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev;
	unsigned char *src, *dst;
	size_t n;
	uint32_t h;
	uint64_t a;
	int r;

	r = kohaku_open(b, device, &dev, err, sizeof(err));
	if (r) {
		fprintf(stderr, "kh_bench_dma: %s\n", err);
		return 1;
	}
	src = aligned_alloc(4096, max_size);
	dst = aligned_alloc(4096, max_size);
	if (!src || !dst || kohaku_bo_create(dev, 0, max_size, &h, &a)) {
		fprintf(stderr, "kh_bench_dma: no memory for %zu bytes\n", max_size);
		return 1;
	}
	memset(src, 0x5a, max_size);
	memset(dst, 0xa5, max_size);	/* every page touched before timing */
	printf("# %s (%s backend): %u reps, min and median; MB/s from the median wall time\n",
	       kohaku_device_path(dev), kohaku_backend_name(b), reps);
	printf("%-10s %-9s %10s %10s %10s %10s %8s\n", "size", "scenario", "wall min",
	       "wall med", "cpu med", "MB/s", "/memcpy");
	for (n = 4096; n <= max_size; n *= 4) {
		struct bench_series s[S_N] = { 0 };
		double wmin, wmed, cmed, mc_med = 0;
		unsigned int i, sc;

		for (i = 0; i < reps && i < BENCH_MAX_REPS; i++)
			for (sc = 0; sc < S_N; sc++)
				if (run_one(dev, sc, h, src, dst, n, &s[sc]))
					return 1;
		for (sc = 0; sc < S_N; sc++) {
			stat2(&s[sc], &wmin, &wmed, &cmed);
			if (sc == S_MEMCPY)
				mc_med = wmed;
			printf("%-10zu %-9s %9.1fus %9.1fus %9.1fus %10.0f %7.2fx\n", n,
			       names[sc], wmin * 1e6, wmed * 1e6, cmed * 1e6,
			       n / wmed / 1e6, mc_med / wmed);
		}
	}
	kohaku_bo_free(dev, h);
	kohaku_close(dev);
	free(src);
	free(dst);
	return 0;
}

int main(int argc, char **argv)
{
	int i, r = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-b") && i + 1 < argc)
			backend = argv[++i];
		else if (!strcmp(argv[i], "-m") && i + 1 < argc)
			map = argv[++i];
		else if (!strcmp(argv[i], "-d") && i + 1 < argc)
			kdevice = argv[++i];
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			max_size = strtoull(argv[++i], NULL, 0);
		else {
			fprintf(stderr, "usage: %s [-r REPS] [-b sim|kernel|both] [-m MAP] [-d DEVICE] [-s MAX_BYTES]\n",
				argv[0]);
			return 2;
		}
	}
	if (!reps || reps > BENCH_MAX_REPS)
		reps = 7;
	if (strcmp(backend, "kernel"))
		r |= bench_backend(KOHAKU_BACKEND_SIM, map);
	if (strcmp(backend, "sim"))
		r |= bench_backend(KOHAKU_BACKEND_KERNEL, kdevice);
	return r;
}
