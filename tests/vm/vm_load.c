// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Load on one card from many processes, in the VM through /dev/accel
 * (tests/vm/run-vm.sh builds it static; guest-init.sh runs it):
 *
 *   vm_load DEVICE PROCS JOBS
 *	PROCS processes, each with a file of its own, run JOBS saxpy jobs
 *	of 256 elements each, writing their vectors before every job and
 *	reading the result after (BO traffic), on the card's SX units in
 *	turn, and check every element against the unit's arithmetic.  One
 *	more process, the victim, keeps long jobs and buffers on the card
 *	and is killed (SIGKILL) in the middle of one.  Afterwards the card's
 *	free memory is what it was before: the victim's buffers were
 *	reclaimed once its jobs were done, nobody else's result was wrong.
 *	Prints one line per process and a summary; exits 0 when all is well.
 *
 *   vm_load [-d MIB] [-r FILE] DEVICE PROCS 0
 *	PROCS processes run jobs until the device goes away (an unbind, a
 *	hot removal, or the card's module unloaded under them): each must
 *	then see ENODEV (or EIO for its job in flight), close cleanly and
 *	exit 0.  With -d, one more process keeps a transfer of MIB MiB in
 *	flight: it writes a buffer object of that size and reads it back,
 *	comparing every byte, until a transfer fails the same way; it says
 *	how long the failing one had been under way.  With -r, FILE is
 *	created once every process has finished one job (or transfer) and
 *	is in its next: the moment for the caller to take the device away;
 *	it holds a line "PID worker" or "PID mover" for each process.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kohaku.h"
#include "kohaku/kh_units.h"

#define N_ELEM		256
#define MAX_SX		16

static const char *path;
/* the write end of the pipe on which each process says it is under way */
static int ready_wr = -1;

/*
 * A process has finished its first round and is in its next ('r'), or
 * ends ('x': whether it got under way or not, so that the parent never
 * waits for one that cannot say 'r' any more).
 */
static void say(char c)
{
	if (ready_wr >= 0 && write(ready_wr, &c, 1) != 1)
		perror("vm_load: ready pipe");
}

static void under_way(bool *said)
{
	if (!*said)
		say('r');
	*said = true;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static kohaku_device *open_dev(void)
{
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev;

	if (kohaku_open(KOHAKU_BACKEND_KERNEL, path, &dev, err, sizeof(err))) {
		fprintf(stderr, "vm_load: %s\n", err);
		return NULL;
	}
	return dev;
}

static unsigned int sx_units(kohaku_device *dev, struct drm_kohaku_node *sx)
{
	struct drm_kohaku_node nd[64];
	unsigned int n = 0, i, k = 0;

	if (kohaku_nodes(dev, 0, nd, 64, sizeof(*nd), &n))
		return 0;
	for (i = 0; i < n && i < 64 && k < MAX_SX; i++)
		if (nd[i].cu_type == KH_CU_SX)
			sx[k++] = nd[i];
	return k;
}

/* the device went away under a process: the errnos that may say so */
static bool gone(int r)
{
	return r == -ENODEV || r == -EIO;
}

/*
 * One worker: jobs saxpy jobs (0: until the device goes).  Returns the
 * process's exit status: 0 all good, 1 a wrong result or an unexpected
 * error.
 */
static int worker(unsigned int id, unsigned long jobs)
{
	uint32_t x[N_ELEM], y[N_ELEM], out[N_ELEM], a = 0x3fc00000;	/* 1.5 */
	struct drm_kohaku_node sx[MAX_SX];
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst in[N_ELEM / 64];
	unsigned long j, bad = 0, done = 0;
	unsigned int n_sx, i, k;
	uint64_t ax, ay, job;
	uint32_t hx, hy;
	kohaku_device *dev = open_dev();
	double t0 = now_s();
	const char *op = "";
	bool said = false;
	int r = 0;

	if (!dev)
		return 1;
	n_sx = sx_units(dev, sx);
	if (!n_sx || kohaku_bo_create(dev, sx[0].mesh, sizeof(x), &hx, &ax) ||
	    kohaku_bo_create(dev, sx[0].mesh, sizeof(y), &hy, &ay)) {
		fprintf(stderr, "vm_load %u: setup: %s\n", id, kohaku_last_error(dev));
		kohaku_close(dev);
		return 1;
	}
	for (k = 0; k < N_ELEM / 64; k++)
		kohaku_inst_saxpy(&in[k], 64, 1.5f, ax + k * 256, ay + k * 256);
	for (j = 0; !jobs || j < jobs; j++) {
		for (i = 0; i < N_ELEM; i++) {
			x[i] = 0x3f800000u + ((id * 7919u + j * 31u + i) & 0xffff) * 64;
			y[i] = 0x40000000u + ((id * 104729u + j * 17u + i) & 0xffff) * 32;
		}
		if (j)
			under_way(&said);
		op = "BO write: ";
		r = kohaku_bo_write(dev, hx, 0, x, sizeof(x));
		if (!r)
			r = kohaku_bo_write(dev, hy, 0, y, sizeof(y));
		memset(&p, 0, sizeof(p));
		p.mesh = sx[j % n_sx].mesh;
		p.x = sx[j % n_sx].x;
		p.y = sx[j % n_sx].y;
		p.insts = in;
		p.n_insts = N_ELEM / 64;
		p.txn = j;
		if (!r) {
			op = "SUBMIT: ";
			r = kohaku_submit(dev, &p, 1, 0, &job);
		}
		if (!r) {
			op = "WAIT (the job in flight): ";
			r = kohaku_wait(dev, job, 30000, &st, sizeof(st));
		}
		if (!r && st.status != KOHAKU_JOB_DONE)
			r = -EPROTO;
		if (!r) {
			op = "BO read: ";
			r = kohaku_bo_read(dev, hy, 0, out, sizeof(out));
		}
		if (r)
			break;
		for (i = 0; i < N_ELEM; i++)
			if (out[i] != kohaku_sx_element(kohaku_sx_datapath_of(&sx[j % n_sx]),
							 a, x[i], y[i]))
				bad++;
		done++;
	}
	printf("vm_load %u: %lu jobs in %.1f s, %lu wrong elements%s%s%s\n", id,
	       done, now_s() - t0, bad, r ? ", then " : "", r ? op : "",
	       r ? kohaku_last_error(dev) : "");
	if (!jobs) {	/* until the device went: it must say so, nothing else */
		kohaku_close(dev);
		return bad || !gone(r) ? 1 : 0;
	}
	kohaku_bo_free(dev, hx);
	kohaku_bo_free(dev, hy);
	kohaku_close(dev);
	return bad || r ? 1 : 0;
}

/*
 * -d: a buffer object of mib MiB written whole and read back whole, every
 * byte compared, until a transfer fails because the device went.
 */
static int mover(unsigned int mib)
{
	size_t size = (size_t)mib << 20, i;
	unsigned char *w = malloc(size), *r = malloc(size);
	kohaku_device *dev = open_dev();
	unsigned long rounds = 0, bad = 0;
	const char *op = "BO_CREATE";
	double t0 = now_s(), ts = t0;
	bool said = false;
	uint64_t addr;
	uint32_t h;
	int ret;

	if (!dev || !w || !r)
		return 1;
	ret = kohaku_bo_create(dev, 0, size, &h, &addr);
	while (!ret) {
		if (rounds)
			under_way(&said);
		for (i = 0; i < size; i += 4096)
			w[i] = (unsigned char)(rounds * 13 + i / 4096);
		op = "BO_WRITE";
		ts = now_s();
		ret = kohaku_bo_write(dev, h, 0, w, size);
		if (ret)
			break;
		op = "BO_READ";
		ts = now_s();
		ret = kohaku_bo_read(dev, h, 0, r, size);
		if (ret)
			break;
		bad += memcmp(w, r, size) != 0;
		rounds++;
	}
	printf("vm_load dma: %lu rounds of %u MiB each way in %.1f s, %lu differed; then %s of %u MiB, under way for %.0f ms, failed: %d (%s)\n",
	       rounds, mib, now_s() - t0, bad, op, mib, (now_s() - ts) * 1000,
	       ret, kohaku_last_error(dev));
	kohaku_close(dev);
	free(w);
	free(r);
	return bad || !rounds || !gone(ret) ? 1 : 0;
}

/* long jobs and buffers on the card, until killed */
static int victim(int ready_fd)
{
	struct drm_kohaku_node sx[MAX_SX];
	struct kohaku_job_status st;
	struct kohaku_program p;
	static struct kohaku_inst in[4096];
	uint64_t ax, ay, job;
	uint32_t hx, hy, i;
	kohaku_device *dev = open_dev();

	if (!dev || !sx_units(dev, sx))
		return 1;
	/* 1 MiB vectors, 4096 instructions of 64 elements: a long job */
	if (kohaku_bo_create(dev, sx[0].mesh, 1 << 20, &hx, &ax) ||
	    kohaku_bo_create(dev, sx[0].mesh, 1 << 20, &hy, &ay))
		return 1;
	for (i = 0; i < 4096; i++)
		kohaku_inst_saxpy(&in[i], 64, 2.0f, ax + i * 256, ay + i * 256);
	memset(&p, 0, sizeof(p));
	p.mesh = sx[0].mesh;
	p.x = sx[0].x;
	p.y = sx[0].y;
	p.insts = in;
	p.n_insts = 4096;
	if (kohaku_submit(dev, &p, 1, 0, &job))
		return 1;
	if (write(ready_fd, "r", 1) != 1)
		return 1;
	for (;;) {	/* more of them, until the signal */
		kohaku_wait(dev, job, 60000, &st, sizeof(st));
		if (kohaku_submit(dev, &p, 1, 0, &job))
			pause();
	}
}

/* -r: the file, written whole under another name first: "PID worker|mover" */
static void say_ready(const char *file, const pid_t *pid, unsigned int procs,
		      unsigned int dma_mib)
{
	char tmp[4096];
	unsigned int i;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		return;
	}
	for (i = 0; i < procs + !!dma_mib; i++)
		fprintf(f, "%d %s\n", (int)pid[i], i < procs ? "worker" : "mover");
	if (fclose(f) || rename(tmp, file))
		perror(file);
}

static uint64_t mem_free(void)
{
	struct drm_kohaku_get_info in;
	kohaku_device *dev = open_dev();
	uint64_t v = 0;

	if (dev && !kohaku_get_info(dev, &in, sizeof(in)))
		v = in.mesh[0].mem_free;
	if (dev)
		kohaku_close(dev);
	return v;
}

int main(int argc, char **argv)
{
	unsigned int procs, i, failed = 0, dma_mib = 0, n_ready;
	const char *ready_file = NULL;
	unsigned long jobs;
	pid_t pid[65], vpid = -1;
	int pfd[2], rfd[2] = { -1, -1 }, st, opt;
	uint64_t free0, free1 = 0;
	double t0, dt;
	char c;

	while ((opt = getopt(argc, argv, "d:r:")) != -1) {
		switch (opt) {
		case 'd':
			dma_mib = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			ready_file = optarg;
			break;
		default:
			return 2;
		}
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: vm_load [-d MIB] [-r FILE] DEVICE PROCS JOBS (JOBS 0: until the device goes)\n");
		return 2;
	}
	path = argv[optind];
	procs = strtoul(argv[optind + 1], NULL, 0);
	jobs = strtoul(argv[optind + 2], NULL, 0);
	if (!procs || procs > 64 || ((dma_mib || ready_file) && jobs)) {
		fprintf(stderr, "vm_load: PROCS is 1..64; -d and -r want JOBS 0\n");
		return 2;
	}
	if (ready_file && pipe(rfd))
		return 1;
	ready_wr = rfd[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	free0 = jobs ? mem_free() : 0;
	if (jobs) {
		if (pipe(pfd))
			return 1;
		vpid = fork();
		if (vpid == 0) {
			close(pfd[0]);
			_exit(victim(pfd[1]));
		}
		close(pfd[1]);
		/* the victim has its long job on the card */
		if (read(pfd[0], &c, 1) != 1) {
			printf("vm_load: the victim did not start its job\n");
			failed++;
		}
	}
	t0 = now_s();
	for (i = 0; i < procs + !!dma_mib; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			int ret = i < procs ? worker(i, jobs) : mover(dma_mib);

			say('x');
			_exit(ret);
		}
	}
	if (ready_file) {
		/* every process under way: the caller may take the device */
		close(rfd[1]);
		for (n_ready = 0; n_ready < procs + !!dma_mib &&
		     read(rfd[0], &c, 1) == 1 && c == 'r'; n_ready++)
			;
		if (n_ready == procs + !!dma_mib)
			say_ready(ready_file, pid, procs, dma_mib);
		else
			printf("vm_load: only %u of %u processes got under way\n",
			       n_ready, procs + !!dma_mib);
		close(rfd[0]);
	}
	if (vpid > 0) {
		usleep(200000);
		kill(vpid, SIGKILL);
		waitpid(vpid, &st, 0);
		printf("vm_load: the victim was killed in the middle of its job\n");
	}
	for (i = 0; i < procs + !!dma_mib; i++) {
		waitpid(pid[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	dt = now_s() - t0;
	if (jobs) {
		/* the victim's last job ends on its own; then its memory is back */
		for (i = 0; i < 600; i++) {
			free1 = mem_free();
			if (free1 == free0)
				break;
			usleep(100000);
		}
		printf("vm_load: card memory free %llu before, %llu after\n",
		       (unsigned long long)free0, (unsigned long long)free1);
		if (free1 != free0)
			failed++;
		printf("vm_load: %u processes x %lu jobs in %.1f s: %.0f jobs/s, %u failed\n",
		       procs, jobs, dt, procs * jobs / dt, failed);
	} else {
		printf("vm_load: %u processes%s until the device went, %.1f s: %u failed\n",
		       procs, dma_mib ? " and a mover" : "", dt, failed);
	}
	return failed ? 1 : 0;
}
