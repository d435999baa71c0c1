// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Kernel-host tests: what only kohaku.ko adds around driver/core.  Run in
 * the VM by tests/vm/run-vm.sh against each simulated card, with the
 * runtime tests' environment (KOHAKU_BACKEND=kernel, KOHAKU_DEVICE,
 * KOHAKU_TEST_MAP).  run-vm.sh builds it against the static libkohaku.
 *
 *  - jobs finish with nobody waiting (the poll worker);
 *  - closing a file with a job on the device leaves the card usable;
 *  - a waiter killed in WAIT goes at once, the card stays usable;
 *  - unbinding the card with a file open and a job running: the file's
 *    ioctls fail with ENODEV, close is clean, a rebound card works;
 *  - unbinding while another thread sits in a long WAIT: the WAIT ends
 *    at once with ENODEV instead of holding the unbind until it is done;
 *  - unbinding while another thread moves 64 MiB chunks by DMA: the
 *    transfer ends (ENODEV, or done), the unbind is not held, a rebound
 *    card moves data again;
 *  - fdinfo under load: a file's DRM client keys count its BOs, its
 *    memory and its jobs, the engine time grows while its job runs, and
 *    another file of the same process shows only its own use.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_test.h"

#define LONG_N		(1ul << 18)	/* some 0.5 s of polling under TCG */
#define WORKER_N	65536

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Submit a saxpy of n elements on the first SX unit; 0 or fails the test. */
static int submit_saxpy(kohaku_device *dev, unsigned long n, struct rt_vec *v,
			uint64_t *id)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_program p;
	struct kohaku_inst inst;
	int r;

	if (!rt_nodes_of(dev, KH_CU_SX, sx, 16)) {
		check_fail_at(__FILE__, __LINE__, "no SX unit");
		return -1;
	}
	if (rt_vec_setup(dev, sx[0].mesh, n, 9, v))
		return -1;
	rt_prog_saxpy(&p, &inst, 1, &sx[0], v, 1.5f);
	r = kohaku_submit(dev, &p, 1, 0, id);
	if (r) {
		check_fail_at(__FILE__, __LINE__, "submit: %d: %s", r,
			    kohaku_last_error(dev));
		return -1;
	}
	return 0;
}

TEST_F(rt, job_finishes_with_nobody_waiting)
{
	struct kohaku_job_status st;
	struct rt_vec v;
	unsigned int looks;
	uint64_t id;
	int r = -ETIMEDOUT;
	RT_OPEN(dev);

	REQUIRE(submit_saxpy(dev, WORKER_N, &v, &id) == 0);
	/*
	 * Only look (WAIT with timeout 0), four times a second: a look moves
	 * a simulated card on by a few cycles only, far from enough to run
	 * the job; the driver's poll worker must do it.
	 */
	for (looks = 1; looks <= 40; looks++) {
		usleep(250000);
		r = kohaku_wait(dev, id, 0, &st, sizeof(st));
		if (r != -ETIMEDOUT)
			break;
	}
	check_diag("final after %u look(s), %.2f s", looks, looks * 0.25);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
		  "wait: %d status %s: %s", r, kohaku_job_status_name(st.status),
		  kohaku_last_error(dev));
	if (r == 0)
		CHECK(rt_vec_check(dev, &v, 1.5f, 1) == 0);
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

TEST_F(rt, close_with_a_job_on_the_device)
{
	struct rt_vec v;
	kohaku_device *other;
	uint64_t id;
	RT_OPEN(dev);

	REQUIRE(kohaku_reopen(dev, &other) == 0);
	REQUIRE(submit_saxpy(other, LONG_N, &v, &id) == 0);
	kohaku_close(other);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, killed_waiter_goes_at_once)
{
	int pfd[2], status;
	double t0, dt;
	pid_t pid;
	char c;
	RT_OPEN(dev);

	REQUIRE(pipe(pfd) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct kohaku_job_status st;
		struct rt_vec v;
		kohaku_device *mine;
		uint64_t id;

		if (kohaku_reopen(dev, &mine) ||
		    submit_saxpy(mine, LONG_N, &v, &id))
			_exit(2);
		if (write(pfd[1], "w", 1) != 1)
			_exit(2);
		kohaku_wait(mine, id, 600000, &st, sizeof(st));
		_exit(3);
	}
	close(pfd[1]);
	REQUIRE(read(pfd[0], &c, 1) == 1);
	close(pfd[0]);
	usleep(100000);
	t0 = now_s();
	kill(pid, SIGKILL);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	dt = now_s() - t0;
	check_diag("the killed waiter was gone after %.3f s", dt);
	CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		  "child status 0x%x", status);
	CHECK_MSG(dt < 5.0, "a killed waiter took %.1f s to go", dt);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/* kohaku_sim.N of an accel node, from sysfs; 0 or -1 */
static int card_of(const char *node, char *card, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	const char *base = strrchr(node, '/');

	snprintf(path, sizeof(path), "/sys/class/accel/%s/device",
		 base ? base + 1 : node);
	if (!realpath(path, real))
		return -1;
	base = strrchr(real, '/');
	if (!base || strncmp(base + 1, "kohaku_sim.", 11))
		return -1;
	snprintf(card, len, "%s", base + 1);
	return 0;
}

static int sysfs_write(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -errno;
}

/* the accel node of a bound card, /dev/accel/accelN */
static int accel_of(const char *card, char *node, size_t len)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/kohaku_sim/%s/accel/accel%u", card, i);
		if (access(path, F_OK) == 0) {
			snprintf(node, len, "/dev/accel/accel%u", i);
			return 0;
		}
	}
	return -1;
}

TEST_F(rt, unbind_with_a_file_open_and_a_job_running)
{
	const char *drv = "/sys/bus/platform/drivers/kohaku";
	char card[64], file[PATH_MAX], node[PATH_MAX], err[256];
	struct drm_kohaku_get_info info;
	struct kohaku_job_status st;
	struct rt_vec v;
	uint64_t id;
	int r;
	RT_OPEN(dev);

	if (card_of(kohaku_device_path(dev), card, sizeof(card))) {
		kohaku_close(dev);
		SKIP(return, "not a kohaku_sim card");
	}
	REQUIRE(submit_saxpy(dev, LONG_N, &v, &id) == 0);

	snprintf(file, sizeof(file), "%s/unbind", drv);
	r = sysfs_write(file, card);
	CHECK_MSG(r == 0, "unbind %s: %s", card, strerror(-r));
	/* the file stays open, emptied: its ioctls find no device */
	r = kohaku_wait(dev, id, 0, &st, sizeof(st));
	CHECK_MSG(r == -ENODEV, "WAIT after unbind: %d (%s)", r,
		  kohaku_strerror(r));
	memset(&info, 0, sizeof(info));
	r = rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &info);
	CHECK_MSG(r == -ENODEV, "GET_INFO after unbind: %d (%s)", r,
		  kohaku_strerror(r));
	kohaku_close(dev);

	snprintf(file, sizeof(file), "%s/bind", drv);
	r = sysfs_write(file, card);
	REQUIRE(r == 0);
	REQUIRE(accel_of(card, node, sizeof(node)) == 0);
	r = kohaku_open(KOHAKU_BACKEND_KERNEL, node, &dev, err, sizeof(err));
	CHECK_MSG(r == 0, "open %s after rebind: %s", node, err);
	if (r == 0) {
		CHECK(rt_good_saxpy(dev));
		kohaku_close(dev);
	}
}

struct waiter {
	kohaku_device *dev;
	uint64_t id;
	int r;
	double took;
};

static void *wait_long(void *arg)
{
	struct waiter *w = arg;
	struct kohaku_job_status st;
	double t0 = now_s();

	w->r = kohaku_wait(w->dev, w->id, 600000, &st, sizeof(st));
	w->took = now_s() - t0;
	return NULL;
}

TEST_F(rt, unbind_ends_a_wait_in_progress)
{
	const char *drv = "/sys/bus/platform/drivers/kohaku";
	char card[64], file[PATH_MAX], node[PATH_MAX], err[256];
	struct waiter w = { 0 };
	struct rt_vec v;
	pthread_t th;
	double t0;
	int r;
	RT_OPEN(dev);

	if (card_of(kohaku_device_path(dev), card, sizeof(card))) {
		kohaku_close(dev);
		SKIP(return, "not a kohaku_sim card");
	}
	/* some 15 s of polling under TCG: far longer than the test waits */
	REQUIRE(submit_saxpy(dev, KH_SX_N_MAX * KOHAKU_MAX_JOB_INSTS, &v, &w.id) == 0);
	w.dev = dev;
	REQUIRE(pthread_create(&th, NULL, wait_long, &w) == 0);
	usleep(300000);
	t0 = now_s();
	snprintf(file, sizeof(file), "%s/unbind", drv);
	r = sysfs_write(file, card);
	CHECK_MSG(r == 0, "unbind %s: %s", card, strerror(-r));
	pthread_join(th, NULL);
	check_diag("unbind took %.2f s, the WAIT returned %d after %.2f s",
		 now_s() - t0, w.r, w.took);
	CHECK_MSG(w.r == -ENODEV, "WAIT across unbind: %d (%s)", w.r,
		  kohaku_strerror(w.r));
	CHECK_MSG(now_s() - t0 < 5.0, "unbind held for %.1f s by a WAIT",
		  now_s() - t0);
	kohaku_close(dev);

	snprintf(file, sizeof(file), "%s/bind", drv);
	REQUIRE(sysfs_write(file, card) == 0);
	REQUIRE(accel_of(card, node, sizeof(node)) == 0);
	r = kohaku_open(KOHAKU_BACKEND_KERNEL, node, &dev, err, sizeof(err));
	CHECK_MSG(r == 0, "open %s after rebind: %s", node, err);
	if (r == 0) {
		CHECK(rt_good_saxpy(dev));
		kohaku_close(dev);
	}
}

struct mover {
	kohaku_device *dev;
	uint32_t h;
	unsigned char *buf;
	size_t n;
	int r;
	unsigned int rounds;
	volatile int stop;
};

static void *move_data(void *arg)
{
	struct mover *m = arg;

	while (!m->stop) {
		m->r = (m->rounds & 1) ? kohaku_bo_read(m->dev, m->h, 0, m->buf, m->n) :
					 kohaku_bo_write(m->dev, m->h, 0, m->buf, m->n);
		if (m->r)
			break;
		m->rounds++;
	}
	return NULL;
}

TEST_F(rt, unbind_with_a_dma_in_flight)
{
	const char *drv = "/sys/bus/platform/drivers/kohaku";
	char card[64], file[PATH_MAX], node[PATH_MAX], err[256];
	struct mover m = { 0 };
	unsigned char small[4096];
	uint64_t a;
	pthread_t th;
	double t0;
	int r;
	RT_OPEN(dev);

	if (card_of(kohaku_device_path(dev), card, sizeof(card))) {
		kohaku_close(dev);
		SKIP(return, "not a kohaku_sim card");
	}
	m.dev = dev;
	m.n = 64u << 20;
	m.buf = malloc(m.n);
	REQUIRE(m.buf);
	memset(m.buf, 0x3c, m.n);
	REQUIRE(kohaku_bo_create(dev, 0, m.n, &m.h, &a) == 0);
	REQUIRE(pthread_create(&th, NULL, move_data, &m) == 0);
	usleep(200000);
	t0 = now_s();
	snprintf(file, sizeof(file), "%s/unbind", drv);
	r = sysfs_write(file, card);
	CHECK_MSG(r == 0, "unbind %s: %s", card, strerror(-r));
	m.stop = 1;
	pthread_join(th, NULL);
	check_diag("unbind took %.2f s after %u transfers of 64 MiB; the last returned %d",
		 now_s() - t0, m.rounds, m.r);
	CHECK_MSG(m.r == 0 || m.r == -ENODEV, "a transfer across unbind: %d (%s)",
		  m.r, kohaku_strerror(m.r));
	CHECK_MSG(now_s() - t0 < 10.0, "unbind held for %.1f s by a DMA",
		  now_s() - t0);
	kohaku_close(dev);
	free(m.buf);

	snprintf(file, sizeof(file), "%s/bind", drv);
	REQUIRE(sysfs_write(file, card) == 0);
	REQUIRE(accel_of(card, node, sizeof(node)) == 0);
	r = kohaku_open(KOHAKU_BACKEND_KERNEL, node, &dev, err, sizeof(err));
	CHECK_MSG(r == 0, "open %s after rebind: %s", node, err);
	if (r == 0) {
		uint32_t h;

		REQUIRE(kohaku_bo_create(dev, 0, sizeof(small), &h, &a) == 0);
		memset(small, 0x77, sizeof(small));
		CHECK_EQ(kohaku_bo_write(dev, h, 0, small, sizeof(small)), 0);
		memset(small, 0, sizeof(small));
		CHECK_EQ(kohaku_bo_read(dev, h, 0, small, sizeof(small)), 0);
		CHECK_EQ(small[4095], 0x77);
		kohaku_bo_free(dev, h);
		kohaku_close(dev);
	}
}

/* ---- fdinfo: the DRM client usage keys of a busy file ---- */

struct fd_use {
	unsigned long long engine_ns, total_kib, jobs, bos;
	bool has_driver;
};

/* the keys of /proc/self/fdinfo/<fd> this driver prints; 0 or -1 */
static int fdinfo_read(int fd, struct fd_use *u)
{
	char path[64], line[256];
	FILE *f;

	memset(u, 0, sizeof(*u));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strcmp(line, "drm-driver:\tkohaku\n"))
			u->has_driver = true;
		sscanf(line, "drm-engine-mesh:\t%llu ns", &u->engine_ns);
		sscanf(line, "drm-total-memory:\t%llu KiB", &u->total_kib);
		sscanf(line, "kohaku-jobs:\t%llu", &u->jobs);
		sscanf(line, "kohaku-bos:\t%llu", &u->bos);
	}
	fclose(f);
	return 0;
}

TEST_F(rt, fdinfo_under_load)
{
	struct fd_use idle, busy, later, done, other_use;
	struct kohaku_job_status st;
	kohaku_device *other;
	struct rt_vec v;
	uint64_t id;
	int r;
	RT_OPEN(dev);

	other = rt_open();
	if (!other) {
		kohaku_close(dev);
		return;
	}
	REQUIRE(fdinfo_read(kohaku_device_fd(dev), &idle) == 0);
	CHECK(idle.has_driver);
	CHECK_EQ(idle.jobs, 0);
	CHECK_EQ(idle.bos, 0);
	CHECK_EQ(idle.engine_ns, 0);

	/* two vectors of LONG_N floats: the file holds 2 MiB of card memory */
	REQUIRE(submit_saxpy(dev, LONG_N, &v, &id) == 0);
	REQUIRE(fdinfo_read(kohaku_device_fd(dev), &busy) == 0);
	usleep(100000);
	REQUIRE(fdinfo_read(kohaku_device_fd(dev), &later) == 0);
	check_diag("running: engine %llu ns, then %llu ns 0.1 s later; %llu KiB in %llu BOs",
		busy.engine_ns, later.engine_ns, later.total_kib, later.bos);
	CHECK_EQ(busy.bos, 2);
	CHECK(busy.total_kib >= 2 * LONG_N * 4 / 1024);
	/* kohaku-jobs counts the file's finished jobs */
	r = kohaku_wait(dev, id, 0, &st, sizeof(st));
	if (r == -ETIMEDOUT) {	/* still running: its time grows as it runs */
		CHECK_EQ(later.jobs, 0);
		CHECK_MSG(later.engine_ns > busy.engine_ns,
			  "engine time did not grow: %llu then %llu",
			  busy.engine_ns, later.engine_ns);
	} else {
		check_diag("the job was done within 0.1 s: no reading under load");
	}
	/* the other file of this process has used nothing */
	REQUIRE(fdinfo_read(kohaku_device_fd(other), &other_use) == 0);
	CHECK_EQ(other_use.jobs, 0);
	CHECK_EQ(other_use.bos, 0);
	CHECK_EQ(other_use.engine_ns, 0);
	CHECK_EQ(other_use.total_kib, 0);

	if (r == -ETIMEDOUT)
		r = kohaku_wait(dev, id, 60000, &st, sizeof(st));
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "wait: %d: %s", r,
		  kohaku_last_error(dev));
	REQUIRE(fdinfo_read(kohaku_device_fd(dev), &done) == 0);
	CHECK(done.engine_ns >= later.engine_ns);
	CHECK(done.engine_ns > 0);
	CHECK_EQ(done.jobs, 1);
	rt_vec_free(dev, &v);
	REQUIRE(fdinfo_read(kohaku_device_fd(dev), &done) == 0);
	CHECK_EQ(done.bos, 0);
	CHECK_EQ(done.total_kib, 0);
	check_diag("done: engine %llu ns over 1 job; BOs freed", done.engine_ns);
	kohaku_close(other);
	kohaku_close(dev);
}

RT_TEST_MAIN
