// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The driver's benchmark (not a test): what a job costs a user, through
 * libkohaku's public API, on the in-process backend and on kohaku.ko when a
 * kernel device is there (the VM: KOHAKU_VM_BENCH=1 tests/vm/run-vm.sh),
 * side by side in one run:
 *
 *   syscall     getppid(2): the floor of any kernel round trip
 *   ioctl       GET_PARAM ABI_VERSION: a null ioctl through the backend
 *   job         submit + wait of one single-instruction job on a null unit
 *               (an SX saxpy of 8 elements where the card has none); then
 *               the same again with the SUBMIT and the WAIT timed apart
 *   sx64        submit + wait of one job of 64 instructions on an SX unit:
 *               saxpys of 8 elements, each on its own 32 bytes of two BOs
 *   8 threads   8 submitters, each submit + wait in a loop: jobs per second
 *   accesses    card register reads and writes per single-instruction job
 *               (simulated cards: the model counts them, "host" in its stats)
 *   bring-up    simulated cycles per enumerated node, meshes of 2x2 .. 14x14
 *
 * Scenarios are interleaved, each rep runs them all in turn on every
 * backend (the single operations' reps first, then those of 8 threads and
 * of the accesses); the min and the median over reps are reported, wall
 * time and CPU time, because these machines are shared and noisy.  With both backends, a last table puts
 * them side by side: each one's min and median, and kernel / in-process.
 *
 * -c picks the in-process card's control path: 64 (the model's 64-bit
 * accesses, the default), 32 (32-bit accesses only, as a card's host has
 * them: KOHAKU_SIM_CTRL=32, instructions through the mailbox), or both,
 * two in-process targets side by side ("sim" and "sim32"); the bring-up
 * table is measured on each path asked for.
 *
 *   kh_bench_jobs [-r REPS] [-n OPS] [-j JOBS] [-b sim|kernel|both]
 *                 [-c 64|32|both] [-m MAP] [-d DEVICE] [-s SCENARIO]
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "bench_stats.h"
#include "kohaku.h"

static unsigned int reps = 5, n_ops = 2000, n_jobs = 400;
static const char *map = "sx_null_2x2", *kdevice, *only;
/* the in-process card's control path: 64, 32 or both */
static const char *ctrl = "64";

/* The in-process backend reads KOHAKU_SIM_CTRL when a card is opened. */
static void sim_path(bool bits32)
{
	if (bits32)
		setenv("KOHAKU_SIM_CTRL", "32", 1);
	else
		unsetenv("KOHAKU_SIM_CTRL");
}

static bool want(const char *s)
{
	return !only || !strcmp(only, s);
}

/* ---- one backend's device and its single-instruction job ---- */

#define SX_INSTS	64	/* the sx64 job's instructions */

struct target {
	const char *label;
	kohaku_device *dev;
	struct kohaku_program prog;
	struct kohaku_inst inst;
	uint32_t bo[2];
	/* the sx64 job: n_insts 0 when the card has no SX unit */
	struct kohaku_program sx_prog;
	struct kohaku_inst sx_insts[SX_INSTS];
	uint32_t sx_bo[2];
	struct bench_series syscall, ioctl, job, submit, wait, threads, acc_r, acc_w;
	struct bench_series sx;
};

/* 64 saxpys of 8 elements on an SX unit, each on its own 32 bytes */
static int sx64_open(struct target *t, const struct drm_kohaku_node *sx)
{
	uint64_t ax, ay;
	unsigned int i;

	if (kohaku_bo_create(t->dev, sx->mesh, 4096, &t->sx_bo[0], &ax) ||
	    kohaku_bo_create(t->dev, sx->mesh, 4096, &t->sx_bo[1], &ay))
		return -ENOMEM;
	for (i = 0; i < SX_INSTS; i++)
		if (kohaku_inst_saxpy(&t->sx_insts[i], 8, 1.0f, ax + 32 * i,
				      ay + 32 * i))
			return -EINVAL;
	t->sx_prog.mesh = sx->mesh;
	t->sx_prog.x = sx->x;
	t->sx_prog.y = sx->y;
	t->sx_prog.n_insts = SX_INSTS;
	t->sx_prog.insts = t->sx_insts;
	return 0;
}

static int target_open(struct target *t, enum kohaku_backend b,
		       const char *device)
{
	struct drm_kohaku_node nd[64];
	unsigned int n, i, sx = ~0u, nul = ~0u;
	char err[KOHAKU_ERRMSG_MAX];
	uint64_t ax, ay;
	int r;

	r = kohaku_open(b, device, &t->dev, err, sizeof(err));
	if (r) {
		fprintf(stderr, "kh_bench_jobs: %s: %s\n", t->label, err);
		return r;
	}
	if (kohaku_nodes(t->dev, 0, nd, 64, sizeof(*nd), &n))
		return -EIO;
	for (i = 0; i < n && i < 64; i++) {
		if (nd[i].cu_type == 0 && nul == ~0u)
			nul = i;
		if (nd[i].cu_type == 0x5358 && sx == ~0u)
			sx = i;
	}
	memset(&t->prog, 0, sizeof(t->prog));
	memset(&t->sx_prog, 0, sizeof(t->sx_prog));
	if (sx != ~0u && sx64_open(t, &nd[sx])) {
		fprintf(stderr, "kh_bench_jobs: %s: the sx64 job's BOs\n", t->label);
		return -ENOMEM;
	}
	if (nul != ~0u) {
		uint32_t w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

		kohaku_inst_null(&t->inst, w);
		i = nul;
	} else if (sx != ~0u) {
		if (kohaku_bo_create(t->dev, nd[sx].mesh, 4096, &t->bo[0], &ax) ||
		    kohaku_bo_create(t->dev, nd[sx].mesh, 4096, &t->bo[1], &ay))
			return -ENOMEM;
		kohaku_inst_saxpy(&t->inst, 8, 1.0f, ax, ay);
		i = sx;
	} else {
		fprintf(stderr, "kh_bench_jobs: %s: no null or SX unit\n", t->label);
		return -ENODEV;
	}
	t->prog.mesh = nd[i].mesh;
	t->prog.x = nd[i].x;
	t->prog.y = nd[i].y;
	t->prog.n_insts = 1;
	t->prog.insts = &t->inst;
	return 0;
}

static int run_job(kohaku_device *dev, const struct kohaku_program *p)
{
	struct kohaku_job_status st;
	int r = kohaku_run(dev, p, 1, 0, &st, sizeof(st));

	if (r || st.status != KOHAKU_JOB_DONE) {
		fprintf(stderr, "kh_bench_jobs: a job failed (%d, %s): %s\n", r,
			kohaku_job_status_name(st.status), kohaku_last_error(dev));
		exit(1);
	}
	return 0;
}

/* per-op wall and CPU seconds of n calls of fn */
#define TIME_OPS(series, n, body)					\
	do {								\
		double w0 = bench_now(CLOCK_MONOTONIC);			\
		double c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);		\
		unsigned int _i;					\
		for (_i = 0; _i < (n); _i++) {				\
			body;						\
		}							\
		bench_add(series, (bench_now(CLOCK_MONOTONIC) - w0) / (n),	\
		    (bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0) / (n));	\
	} while (0)

struct thr {
	struct target *t;
	kohaku_device *dev;
	unsigned int jobs;
};

static void *thr_run(void *arg)
{
	struct thr *h = arg;
	unsigned int i;

	for (i = 0; i < h->jobs; i++)
		run_job(h->dev, &h->t->prog);
	return NULL;
}

/* 8 submitters on one device, each on a file of its own: jobs per second */
static void eight_threads(struct target *t)
{
	struct thr h[8];
	pthread_t th[8];
	double w0, c0;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		h[i].t = t;
		h[i].jobs = n_jobs / 8;
		if (kohaku_reopen(t->dev, &h[i].dev)) {
			fprintf(stderr, "kh_bench_jobs: reopen: %s\n",
				kohaku_last_error(t->dev));
			exit(1);
		}
	}
	w0 = bench_now(CLOCK_MONOTONIC);
	c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < 8; i++)
		pthread_create(&th[i], NULL, thr_run, &h[i]);
	for (i = 0; i < 8; i++)
		pthread_join(th[i], NULL);
	bench_add(&t->threads, (bench_now(CLOCK_MONOTONIC) - w0) / (8 * (n_jobs / 8)),
	    (bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0) / (8 * (n_jobs / 8)));
	for (i = 0; i < 8; i++)
		kohaku_close(h[i].dev);
}

/* a counter of the model's adapter from the card's stats text, or -1 */
static long long stat_field(kohaku_device *dev, const char *key)
{
	char *text, *p;
	long long v = -1;

	if (kohaku_sim_read(dev, "stats", &text))
		return -1;
	p = strstr(text, key);
	if (p)
		v = strtoll(p + strlen(key), NULL, 10);
	free(text);
	return v;
}

/* the host's register reads and writes so far, from the stats text */
static bool host_accesses(kohaku_device *dev, long long *r, long long *w)
{
	char *text, *p;
	bool ok;

	if (kohaku_sim_read(dev, "stats", &text))
		return false;
	p = strstr(text, "\nhost reads=");
	ok = p && sscanf(p + 1, "host reads=%lld writes=%lld", r, w) == 2;
	free(text);
	return ok;
}

static void accesses(struct target *t)
{
	long long r0, w0, r1, w1;

	if (!host_accesses(t->dev, &r0, &w0))
		return;
	run_job(t->dev, &t->prog);
	if (!host_accesses(t->dev, &r1, &w1))
		return;
	bench_add(&t->acc_r, r1 - r0, 0);
	bench_add(&t->acc_w, w1 - w0, 0);
}

/* the same job, its SUBMIT and its WAIT timed apart (wall time only) */
static void split_job(struct target *t)
{
	struct kohaku_job_status st;
	double ts = 0, tw = 0, t0, t1;
	unsigned int i;
	uint64_t id;

	for (i = 0; i < n_jobs; i++) {
		t0 = bench_now(CLOCK_MONOTONIC);
		if (kohaku_submit(t->dev, &t->prog, 1, 0, &id))
			exit(1);
		t1 = bench_now(CLOCK_MONOTONIC);
		if (kohaku_wait(t->dev, id, 60000, &st, sizeof(st)) || st.status != KOHAKU_JOB_DONE)
			exit(1);
		ts += t1 - t0;
		tw += bench_now(CLOCK_MONOTONIC) - t1;
	}
	bench_add(&t->submit, ts / n_jobs, 0);
	bench_add(&t->wait, tw / n_jobs, 0);
}

/* the single operations of one rep: what each costs alone */
static void one_rep(struct target *t)
{
	struct drm_kohaku_get_param g = { .param = KOHAKU_PARAM_ABI_VERSION };

	if (want("syscall"))
		TIME_OPS(&t->syscall, n_ops, (void)getppid());
	if (want("ioctl"))
		TIME_OPS(&t->ioctl, n_ops,
			 kohaku_ioctl(t->dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g));
	if (want("job"))
		TIME_OPS(&t->job, n_jobs, run_job(t->dev, &t->prog));
	if (want("job"))
		split_job(t);
	if (want("sx64") && t->sx_prog.n_insts)
		TIME_OPS(&t->sx, n_jobs / 4, run_job(t->dev, &t->sx_prog));
}

/*
 * The rest of a rep, after every rep of single operations: 8 threads and
 * their files leave the guest's kernel work for tens of ms after they end
 * (in the VM, a kernel sx64 job right after them took 5 ms instead of 1.1
 * once every 12 ms or so), which fell into the next rep's single jobs.
 */
static void load_rep(struct target *t)
{
	if (want("threads"))
		eight_threads(t);
	if (want("accesses"))
		accesses(t);
}

static void report_us(const char *label, const char *what, struct bench_series *s)
{
	double wmin, wmed, cmed;

	if (!s->n)
		return;
	wmin = bench_min(s->wall, s->n) * 1e6;
	wmed = bench_median(s->wall, s->n) * 1e6;
	cmed = bench_median(s->cpu, s->n) * 1e6;
	printf("%-8s %-10s %10.2f %10.2f %10.2f\n", label, what, wmin, wmed, cmed);
}

static void report(struct target *t)
{
	report_us(t->label, "syscall", &t->syscall);
	report_us(t->label, "ioctl", &t->ioctl);
	report_us(t->label, "job", &t->job);
	report_us(t->label, " submit", &t->submit);
	report_us(t->label, " wait", &t->wait);
	report_us(t->label, "sx64", &t->sx);
	report_us(t->label, "8threads", &t->threads);
	if (t->acc_r.n)
		printf("%-8s accesses per single-instruction job: %.0f reads + %.0f writes (median)\n",
		       t->label, bench_median(t->acc_r.wall, t->acc_r.n),
		       bench_median(t->acc_w.wall, t->acc_w.n));
}

/* one scenario of two backends: min and median each, and b / a of both */
static void side_row(const char *what, struct bench_series *a,
		     struct bench_series *b)
{
	double amin, amed, bmin, bmed;

	if (!a->n || !b->n)
		return;
	amin = bench_min(a->wall, a->n) * 1e6;
	amed = bench_median(a->wall, a->n) * 1e6;
	bmin = bench_min(b->wall, b->n) * 1e6;
	bmed = bench_median(b->wall, b->n) * 1e6;
	printf("%-9s %13.2f %13.2f %13.2f %13.2f %9.2fx %9.2fx\n", what,
	       amin, amed, bmin, bmed, bmin / amin, bmed / amed);
}

/* the wall times of two backends side by side: b against a */
static void side_by_side(struct target *a, struct target *b)
{
	char h[4][32];

	if (!a->job.n && !a->sx.n)
		return;
	snprintf(h[0], sizeof(h[0]), "%s min", a->label);
	snprintf(h[1], sizeof(h[1]), "%s median", a->label);
	snprintf(h[2], sizeof(h[2]), "%s min", b->label);
	snprintf(h[3], sizeof(h[3]), "%s median", b->label);
	printf("\n%s against %s, wall us per job (the min and the median of the reps)\n",
	       b->label, a->label);
	printf("%-9s %13s %13s %13s %13s %10s %10s\n", "scenario", h[0], h[1],
	       h[2], h[3], "ratio min", "ratio med");
	side_row("job", &a->job, &b->job);
	side_row(" submit", &a->submit, &b->submit);
	side_row(" wait", &a->wait, &b->wait);
	side_row("sx64", &a->sx, &b->sx);
	/* the one-line summary the VM bench's readers grep for */
	if (a->job.n && b->job.n)
		printf("%s / %s, single job: %.2fx at the median, %.2fx at the min\n",
		       b->label, a->label,
		       bench_median(b->job.wall, b->job.n) /
		       bench_median(a->job.wall, a->job.n),
		       bench_min(b->job.wall, b->job.n) /
		       bench_min(a->job.wall, a->job.n));
	if (a->sx.n && b->sx.n)
		printf("%s / %s, sx64 job: %.2fx at the median, %.2fx at the min\n",
		       b->label, a->label,
		       bench_median(b->sx.wall, b->sx.n) /
		       bench_median(a->sx.wall, a->sx.n),
		       bench_min(b->sx.wall, b->sx.n) /
		       bench_min(a->sx.wall, a->sx.n));
}

/* ---- bring-up: simulated cycles per node on generated N x N meshes ---- */

/*
 * An N x N router grid: SX and null units alternating inside, null units
 * on the north, south and east edges, two MAG ports on the west edge.
 */
static char *mesh_desc(unsigned int n)
{
	size_t len = (n + 2) * (n + 2) * 6 + 64;
	char *d = malloc(len), *p = d;
	unsigned int x, y;

	p += sprintf(p, "profile rtl\n");
	for (y = 0; y <= n + 1; y++) {
		for (x = 0; x <= n + 1; x++) {
			bool cx = x == 0 || x == n + 1, cy = y == 0 || y == n + 1;
			const char *tok;

			if (cx && cy)
				tok = "xxx";
			else if (x == 0)
				tok = y <= 2 ? "mag" : "xxx";
			else if (cx || cy)
				tok = "null";
			else
				tok = (x + y) % 2 ? "null" : "sax";
			p += sprintf(p, "%s%s", tok, x == n + 1 ? "\n" : " ");
		}
	}
	return d;
}

static void bringup(bool bits32)
{
	static const unsigned int sizes[] = { 2, 4, 6, 8, 10, 12, 14 };
	unsigned int i;

	sim_path(bits32);
	printf("\nbring-up (simulated cycles from power-on to a usable card), %s control path\n",
	       bits32 ? "32-bit" : "64-bit");
	printf("%-6s %6s %12s %12s\n", "mesh", "nodes", "cycles", "per node");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char err[KOHAKU_ERRMSG_MAX], *d = mesh_desc(sizes[i]);
		kohaku_device *dev;
		struct drm_kohaku_get_info in;
		long long cycles;

		if (kohaku_open(KOHAKU_BACKEND_SIM, d, &dev, err, sizeof(err))) {
			fprintf(stderr, "kh_bench_jobs: %ux%u: %s\n", sizes[i],
				sizes[i], err);
			free(d);
			exit(1);
		}
		free(d);
		kohaku_get_info(dev, &in, sizeof(in));
		cycles = stat_field(dev, "card cycles=");
		printf("%2ux%-3u %6u %12lld %12.0f\n", sizes[i], sizes[i],
		       in.n_nodes, cycles, (double)cycles / in.n_nodes);
		kohaku_close(dev);
	}
}

int main(int argc, char **argv)
{
	struct target t[3] = { { .label = "sim" }, { .label = "sim32" },
			       { .label = "kernel" } };
	const char *backends = "both";
	bool p64, p32;
	unsigned int i, k, nt = 0;
	int c;

	while ((c = getopt(argc, argv, "r:n:j:b:c:m:d:s:")) != -1) {
		switch (c) {
		case 'r': reps = atoi(optarg); break;
		case 'n': n_ops = atoi(optarg); break;
		case 'j': n_jobs = atoi(optarg); break;
		case 'b': backends = optarg; break;
		case 'c': ctrl = optarg; break;
		case 'm': map = optarg; break;
		case 'd': kdevice = optarg; break;
		case 's': only = optarg; break;
		default:
			fprintf(stderr, "usage: kh_bench_jobs [-r REPS] [-n OPS] [-j JOBS] [-b sim|kernel|both] [-c 64|32|both] [-m MAP] [-d DEVICE] [-s SCENARIO]\n");
			return 2;
		}
	}
	p64 = !strcmp(ctrl, "64") || !strcmp(ctrl, "both");
	p32 = !strcmp(ctrl, "32") || !strcmp(ctrl, "both");
	if (!reps || reps > BENCH_MAX_REPS || !n_ops || n_jobs < 8 || !(p64 || p32)) {
		fprintf(stderr, "kh_bench_jobs: 1..%u reps, ops > 0, jobs >= 8, -c 64, 32 or both\n",
			BENCH_MAX_REPS);
		return 2;
	}
	if (strcmp(backends, "kernel") && p64) {
		sim_path(false);
		if (!target_open(&t[nt], KOHAKU_BACKEND_SIM, map))
			nt++;
	}
	if (strcmp(backends, "kernel") && p32) {
		sim_path(true);
		t[nt] = t[1];
		if (!target_open(&t[nt], KOHAKU_BACKEND_SIM, map))
			nt++;
	}
	if (strcmp(backends, "sim")) {
		t[nt] = t[2];
		if (!target_open(&t[nt], KOHAKU_BACKEND_KERNEL, kdevice))
			nt++;
		else if (!strcmp(backends, "kernel"))
			return 1;
	}
	printf("kh_bench_jobs: %u reps of %u ops and %u jobs each, card %s\n",
	       reps, n_ops, n_jobs, map);
	/*
	 * interleaved: every rep runs every scenario on every backend, the
	 * single operations' reps first (load_rep())
	 */
	for (i = 0; i < reps; i++)
		for (k = 0; k < nt; k++)
			one_rep(&t[k]);
	for (i = 0; i < reps; i++)
		for (k = 0; k < nt; k++)
			load_rep(&t[k]);
	printf("\n%-8s %-10s %10s %10s %10s\n", "backend", "scenario",
	       "min us", "median us", "cpu us");
	for (k = 0; k < nt; k++)
		report(&t[k]);
	for (k = 1; k < nt; k++)
		side_by_side(&t[0], &t[k]);
	for (k = 0; k < nt; k++)
		kohaku_close(t[k].dev);
	if (want("bringup") && strcmp(backends, "kernel") && p64)
		bringup(false);
	if (want("bringup") && strcmp(backends, "kernel") && p32)
		bringup(true);
	return 0;
}
