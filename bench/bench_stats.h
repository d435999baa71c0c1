/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The benchmarks' clock and statistics: a series of wall and CPU times per
 * scenario, one entry per rep, summarised by its min and median (these
 * machines are shared and noisy, so a mean would mostly measure neighbours).
 */
#ifndef KOHAKU_BENCH_STATS_H
#define KOHAKU_BENCH_STATS_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_REPS	64

struct bench_series {
	double wall[BENCH_MAX_REPS], cpu[BENCH_MAX_REPS];
	unsigned int n;
};

static inline double bench_now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* one rep's times; the series holds BENCH_MAX_REPS at most */
static inline void bench_add(struct bench_series *s, double wall, double cpu)
{
	if (s->n >= BENCH_MAX_REPS)
		return;
	s->wall[s->n] = wall;
	s->cpu[s->n] = cpu;
	s->n++;
}

/* the median of n values (sorted in place); 0 for none */
static inline double bench_median(double *v, unsigned int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* the least of n values (sorted in place); 0 for none */
static inline double bench_min(double *v, unsigned int n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp);
	return v[0];
}

#endif
