// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohakud's clients (docs/kohakud.md): several processes on one card, a
 * client killed in the middle of a job, and clients that break the
 * protocol (garbage, a message cut short, a length past the limit, one
 * that never answers), after each of which kohakud still serves the
 * others; a job's fence polled in another process.  Skipped unless the suite runs against kohakud
 * (KOHAKU_BACKEND=daemon).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_test.h"
#include "rt_internal.h"
#include "kohaku/kh_daemon.h"

#define N_CLIENTS	8
#define JOBS_EACH	4

static bool on_daemon(void)
{
	const char *b = getenv("KOHAKU_BACKEND");

	return b && !strcmp(b, "daemon");
}

#define NEED_DAEMON()							\
	do {								\
		if (!on_daemon())					\
			SKIP(return, "not on kohakud (KOHAKU_BACKEND=daemon)"); \
	} while (0)

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* kohakud's socket, as libkohaku finds it */
static int sock_connect(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *e = getenv("KOHAKU_DAEMON_SOCKET");
	const char *run = getenv("XDG_RUNTIME_DIR");
	int fd;

	if (e && *e)
		snprintf(a.sun_path, sizeof(a.sun_path), "%s", e);
	else if (run && *run)
		snprintf(a.sun_path, sizeof(a.sun_path), "%s/kohaku/%s", run,
			 KH_DAEMON_SOCKET_NAME);
	else
		snprintf(a.sun_path, sizeof(a.sun_path), "/tmp/kohaku-%u/%s",
			 (unsigned int)getuid(), KH_DAEMON_SOCKET_NAME);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * kohakud closes fd within ms, and says why before: a WELCOME or a BYE of
 * a negative status (want) among what came before the end
 */
static bool closed_within(int fd, int ms, int want)
{
	double end = now_s() + ms / 1000.0;
	static unsigned char buf[1 << 16];
	size_t got = 0, at;

	while (now_s() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(fd, buf + got, sizeof(buf) - got);
		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		for (at = 0; at + sizeof(struct kh_daemon_hdr) <= got;) {
			struct kh_daemon_hdr h;
			int32_t st;

			memcpy(&h, buf + at, sizeof(h));
			if (h.len < sizeof(h) || at + h.len > got)
				break;
			if ((h.type == KH_DAEMON_WELCOME &&
			     h.len >= sizeof(struct kh_daemon_welcome)) ||
			    (h.type == KH_DAEMON_BYE &&
			     h.len >= sizeof(struct kh_daemon_bye))) {
				memcpy(&st, buf + at + sizeof(h), sizeof(st));
				if (st == want)
					return true;
			}
			at += h.len;
		}
		check_diag("closed without a WELCOME or BYE of status %d "
			   "(%zu bytes came)", want, got);
		return false;
	}
	check_diag("not closed within %d ms", ms);
	return false;
}

/* the card still serves: a new client's saxpy is right */
static void still_serves(const char *when)
{
	struct drm_kohaku_node sx[4];
	kohaku_device *dev = rt_open();

	if (!dev)
		return;
	if (rt_nodes_of(dev, KH_CU_SX, sx, 4))
		rt_saxpy_ok(dev, &sx[0], when);
	rt_close(dev);
}

/* one client process: its own file, its own BOs, JOBS_EACH saxpys right */
static int client_main(unsigned int k)
{
	struct drm_kohaku_node sx[8];
	kohaku_device *dev = NULL;
	struct kohaku_bo_info bi;
	uint32_t h;
	uint64_t addr;
	unsigned int i, n;
	char err[KOHAKU_ERRMSG_MAX];

	if (kohaku_open(KOHAKU_BACKEND_ENV, rt_map()->name, &dev, err,
			sizeof(err)))
		return 10;
	n = rt_nodes_of(dev, KH_CU_SX, sx, 8);
	if (!n)
		return 11;
	/* a handle of this file's is none of another's: each made one */
	if (kohaku_bo_create(dev, sx[0].mesh, 4096, &h, &addr))
		return 12;
	if (kohaku_bo_info(dev, h + 1, &bi, sizeof(bi)) != -ENOENT &&
	    kohaku_bo_info(dev, h + 1, &bi, sizeof(bi)) != 0)
		return 13;
	for (i = 0; i < JOBS_EACH; i++) {
		struct kohaku_job_status st;
		unsigned long bad = 0;

		if (rt_saxpy_job(dev, &sx[(k + i) % n], 64 + k, 0, NULL, &st,
				 &bad) || st.status != KOHAKU_JOB_DONE || bad)
			return 20 + (int)i;
	}
	if (kohaku_bo_free(dev, h))
		return 14;
	kohaku_close(dev);
	return 0;
}

TEST_F(rt, eight_processes_share_one_card)
{
	pid_t pid[N_CLIENTS];
	unsigned int k;

	NEED_DAEMON();
	fflush(stdout);
	for (k = 0; k < N_CLIENTS; k++) {
		pid[k] = fork();
		REQUIRE(pid[k] >= 0);
		if (!pid[k])
			_exit(client_main(k));
	}
	for (k = 0; k < N_CLIENTS; k++) {
		int st = 0;

		CHECK(waitpid(pid[k], &st, 0) == pid[k]);
		CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			  "client %u: %s %d", k, WIFEXITED(st) ? "exit" : "signal",
			  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
}

/*
 * The files open on the test's card, as kohakud counts them (its CARDS,
 * what `kohakud --list` prints: "CARD\tNAMED\tFILES" per card); -1 when
 * it cannot tell
 */
static int card_files(void)
{
	char err[KOHAKU_ERRMSG_MAX], *text = NULL, *l;
	const char *name = rt_map()->name;
	int files = -1;

	if (kh_rt_daemon_cards(&text, err, sizeof(err)) < 0) {
		check_diag("kohakud's cards: %s", err);
		return -1;
	}
	for (l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		char card[256], named[256];
		int n;

		if (sscanf(l, "%255[^\t]\t%255[^\t]\t%d", card, named, &n) == 3 &&
		    !strcmp(named, name))
			files = n;
	}
	free(text);
	return files;
}

/*
 * A range near the top of the mesh's memory, for a fixed-address BO: taken
 * (EBUSY for anyone else) while its file is open, free once it closes
 */
static uint64_t top_range(kohaku_device *dev, unsigned int mesh)
{
	struct drm_kohaku_get_info in;

	memset(&in, 0, sizeof(in));
	if (kohaku_get_info(dev, &in, sizeof(in)) || in.mesh[mesh].mem_size < (64u << 20))
		return 0;
	return ((uint64_t)mesh << 36) + in.mesh[mesh].mem_size - (16u << 20);
}

TEST_F(rt, a_client_killed_mid_job_frees_its_objects)
{
	struct drm_kohaku_node sx[4];
	uint64_t at;
	uint32_t h = 0;
	int p[2], st, r = -1, files, now = -1;
	double end;
	pid_t pid;
	char c;

	NEED_DAEMON();
	RT_OPEN(dev);
	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 4) > 0);
	at = top_range(dev, sx[0].mesh);
	REQUIRE(at != 0);
	REQUIRE(pipe(p) == 0);
	fflush(stdout);
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid) {
		kohaku_device *d;
		struct kohaku_job_status js;
		struct kohaku_submit_args sa;
		struct kohaku_job_bo jb[2];
		struct kohaku_program pr;
		struct kohaku_inst in;
		char err[KOHAKU_ERRMSG_MAX], knob[64];
		struct rt_vec v;
		uint32_t hk;
		uint64_t id;

		if (kohaku_open(KOHAKU_BACKEND_ENV, rt_map()->name, &d, err,
				sizeof(err)) ||
		    kohaku_bo_create_at(d, sx[0].mesh, at, 1 << 20, &hk) ||
		    rt_vec_setup(d, sx[0].mesh, 256, 9, &v))
			_exit(1);
		/*
		 * a job that runs until it is killed (its unit held busy),
		 * naming its vectors alone: the fixed buffer is no job's, so
		 * it is freed the moment the file closes
		 */
		rt_prog_saxpy(&pr, &in, 1, &sx[0], &v, 1.5f);
		jb[0] = (struct kohaku_job_bo){ v.hx, KOHAKU_JOB_BO_READ };
		jb[1] = (struct kohaku_job_bo){ v.hy, KOHAKU_JOB_BO_RW };
		memset(&sa, 0, sizeof(sa));
		sa.programs = &pr;
		sa.n_programs = 1;
		sa.bos = jb;
		sa.n_bos = 2;
		/* no timeout in the test's time: the mesh is shared after it */
		sa.timeout_ms = 600000;
		snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=forever",
			 sx[0].x, sx[0].y);
		if (kohaku_sim_inject(d, knob) || kohaku_submit_ex(d, &sa, &id))
			_exit(2);
		if (write(p[1], "b", 1) != 1)
			_exit(3);
		kohaku_wait(d, id, 600000, &js, sizeof(js));
		_exit(4);
	}
	close(p[1]);
	CHECK(read(p[0], &c, 1) == 1);
	close(p[0]);
	CHECK_ERR(kohaku_bo_create_at(dev, sx[0].mesh, at, 1 << 20, &h), -EBUSY);
	files = card_files();
	CHECK_MSG(files >= 2, "kohakud counts %d files on the card, with the "
		  "client's and this one open", files);
	usleep(300 * 1000);	/* into its wait */
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the client "
		  "ended before it was killed: %s %d", WIFEXITED(st) ? "exit" :
		  "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	/*
	 * the killed client's file is closed while its job still runs (the
	 * unit is held busy): its wait in kohakud ended as a killed process's
	 * ioctl does
	 */
	for (end = now_s() + 10; now_s() < end; usleep(50 * 1000))
		if ((now = card_files()) == files - 1)
			break;
	CHECK_MSG(now == files - 1, "the killed client's file is still open "
		  "after 10 s: kohakud counts %d files, %d before", now, files);
	/*
	 * its buffers are freed, held back while its job runs (it may use
	 * them), anyone's again once the job ends
	 */
	CHECK_ERR(kohaku_bo_create_at(dev, sx[0].mesh, at, 1 << 20, &h), -EBUSY);
	CHECK(kohaku_sim_inject(dev, "clear") == 0);
	for (end = now_s() + 10; now_s() < end; usleep(50 * 1000)) {
		r = kohaku_bo_create_at(dev, sx[0].mesh, at, 1 << 20, &h);
		if (r != -EBUSY)
			break;
	}
	CHECK_MSG(r == 0, "the killed client's buffer is still taken 10 s "
		  "after its job was let go: %d: %s", r, kohaku_last_error(dev));
	if (!r)
		CHECK_OK(dev, kohaku_bo_free(dev, h));
	rt_saxpy_ok(dev, &sx[0], "after a client was killed mid-job");
	rt_close(dev);
}

TEST_F(rt, garbage_gets_a_closed_connection)
{
	static const char junk[] = "GET / HTTP/1.1\r\nHost: kohaku\r\n\r\n";
	int fd;

	NEED_DAEMON();
	fd = sock_connect();
	REQUIRE(fd >= 0);
	CHECK(write(fd, junk, sizeof(junk)) == (ssize_t)sizeof(junk));
	CHECK_MSG(closed_within(fd, 3000, -EPROTO), "kohakud kept a "
		  "connection that sent garbage, or said nothing");
	close(fd);
	still_serves("after a client sent garbage");
}

TEST_F(rt, a_huge_length_gets_a_closed_connection)
{
	struct kh_daemon_hdr h = { .type = KH_DAEMON_HELLO, .len = 0x7fffffff };
	int fd;

	NEED_DAEMON();
	fd = sock_connect();
	REQUIRE(fd >= 0);
	CHECK(write(fd, &h, sizeof(h)) == (ssize_t)sizeof(h));
	CHECK_MSG(closed_within(fd, 3000, -EPROTO), "kohakud kept a "
		  "connection that announced 2 GiB, or said nothing");
	close(fd);
	still_serves("after a client announced a huge message");
}

TEST_F(rt, a_message_cut_short_is_dropped)
{
	struct kh_daemon_hello h = {
		.hdr = { .type = KH_DAEMON_HELLO, .len = sizeof(h) },
		.proto = KH_DAEMON_PROTO,
	};
	int fd;

	NEED_DAEMON();
	fd = sock_connect();
	REQUIRE(fd >= 0);
	/* half a HELLO, then the client is gone */
	CHECK(write(fd, &h, sizeof(h) / 2) == (ssize_t)(sizeof(h) / 2));
	close(fd);
	still_serves("after a client sent half a message");
	/* half a HELLO, and the client waits: kohakud does not hang on it */
	fd = sock_connect();
	REQUIRE(fd >= 0);
	CHECK(write(fd, &h, sizeof(h) / 2) == (ssize_t)(sizeof(h) / 2));
	still_serves("while a client sits on half a message");
	close(fd);
}

/* a HELLO on the test's card with a memfd: a client by hand */
static int hello(void)
{
	struct kh_daemon_hello h = {
		.hdr = { .type = KH_DAEMON_HELLO, .len = sizeof(h) },
		.proto = KH_DAEMON_PROTO,
		.shm_size = KH_DAEMON_SHM_SIZE,
	};
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &h, .iov_len = sizeof(h) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct kh_daemon_welcome w;
	const char *name = rt_map()->name;
	struct cmsghdr *cm;
	int fd = sock_connect(), mfd;

	if (fd < 0)
		return -1;
	mfd = memfd_create("rt_clients", MFD_CLOEXEC);
	if (mfd < 0 || ftruncate(mfd, KH_DAEMON_SHM_SIZE) ||
	    pwrite(mfd, name, strlen(name), 0) != (ssize_t)strlen(name))
		return -1;
	h.device_len = (uint32_t)strlen(name);
	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &mfd, sizeof(int));
	if (sendmsg(fd, &mh, 0) != (ssize_t)sizeof(h) ||
	    recv(fd, &w, sizeof(w), MSG_WAITALL) != (ssize_t)sizeof(w) ||
	    w.hdr.type != KH_DAEMON_WELCOME || w.status) {
		close(fd);
		fd = -1;
	}
	close(mfd);
	return fd;
}

TEST_F(rt, a_client_that_never_answers_is_dropped)
{
	struct kh_daemon_sim m = {
		.hdr = { .type = KH_DAEMON_SIM_READ, .len = sizeof(m) },
		.what = KH_DAEMON_READ_STATS,
	};
	double t0;
	int fd;

	NEED_DAEMON();
	fd = hello();
	REQUIRE(fd >= 0);
	/* the stats come through a CB_ALLOC that this client never answers */
	CHECK(write(fd, &m, sizeof(m)) == (ssize_t)sizeof(m));
	t0 = now_s();
	still_serves("while a client does not answer");
	CHECK_MSG(closed_within(fd, KH_DAEMON_CLIENT_TIMEOUT_MS + 3000,
				-ETIMEDOUT),
		  "kohakud kept a client that did not answer for %u ms",
		  KH_DAEMON_CLIENT_TIMEOUT_MS + 3000);
	CHECK(now_s() - t0 >= KH_DAEMON_CLIENT_TIMEOUT_MS / 1000.0 - 1);
	close(fd);
	still_serves("after a client that did not answer");
}

TEST_F(rt, a_busy_slot_or_a_stray_reply_gets_a_closed_connection)
{
	struct kh_daemon_cb_reply r = {
		.hdr = { .type = KH_DAEMON_CB_REPLY, .len = sizeof(r), .slot = 3 },
	};
	struct kh_daemon_hdr bad = { .type = KH_DAEMON_IOCTL, .len = 16,
				     .slot = KH_DAEMON_SLOTS };
	int fd;

	NEED_DAEMON();
	fd = hello();
	REQUIRE(fd >= 0);
	CHECK(write(fd, &r, sizeof(r)) == (ssize_t)sizeof(r));
	CHECK_MSG(closed_within(fd, 3000, -EPROTO), "a reply to nothing was "
		  "taken");
	close(fd);
	fd = hello();
	REQUIRE(fd >= 0);
	CHECK(write(fd, &bad, sizeof(bad)) == (ssize_t)sizeof(bad));
	CHECK_MSG(closed_within(fd, 3000, -EPROTO), "a call in slot %u was taken",
		  KH_DAEMON_SLOTS);
	close(fd);
	still_serves("after protocol errors");
}

/*
 * A job's fence as a file another process polls: the sync file kohakud
 * exported, passed to a child by fork, is not readable while the unit is
 * held busy, and becomes readable when the job ends
 */
TEST_F(rt, a_fence_polled_in_another_process)
{
	struct drm_kohaku_node sx[4];
	struct kohaku_submit_args a;
	struct kohaku_job_status js;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	char knob[64];
	uint32_t so;
	uint64_t id;
	int fd = -1, st = 0, go[2];
	pid_t pid;
	char c;

	NEED_DAEMON();
	RT_OPEN(dev);
	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 4) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 256, 3, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.5f);
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=forever",
		 sx[0].x, sx[0].y);
	CHECK_OK(dev, kohaku_sim_inject(dev, knob));
	CHECK_OK(dev, kohaku_syncobj_create(dev, &so));
	memset(&a, 0, sizeof(a));
	a.programs = &p;
	a.n_programs = 1;
	a.out_syncobj = so;
	CHECK_OK(dev, kohaku_submit_ex(dev, &a, &id));
	CHECK_OK(dev, kohaku_syncobj_fd(dev, so, &fd));
	REQUIRE(fd >= 0);
	REQUIRE(pipe(go) == 0);
	fflush(stdout);
	pid = fork();
	REQUIRE(pid >= 0);
	if (!pid) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };

		/* held busy: not signalled */
		if (poll(&pf, 1, 200) != 0)
			_exit(1);
		if (write(go[1], "g", 1) != 1)
			_exit(2);
		/* the parent lets the unit go: signalled within 30 s */
		pf.revents = 0;
		_exit(poll(&pf, 1, 30000) == 1 && (pf.revents & POLLIN) ? 0 : 3);
	}
	close(go[1]);
	CHECK(read(go[0], &c, 1) == 1);
	close(go[0]);
	CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's poll: "
		  "%s %d", WIFEXITED(st) ? "exit" : "signal",
		  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	CHECK_OK(dev, kohaku_wait(dev, id, 30000, &js, sizeof(js)));
	CHECK_EQ(js.status, KOHAKU_JOB_DONE);
	CHECK_EQ(rt_vec_check(dev, &v, 1.5f, 1), 0);
	close(fd);
	CHECK_OK(dev, kohaku_syncobj_destroy(dev, so));
	rt_vec_free(dev, &v);
	rt_close(dev);
}

TEST_F(rt, the_model_knobs_are_the_shared_cards)
{
	char *text = NULL;

	NEED_DAEMON();
	RT_OPEN(a);
	RT_OPEN(b);
	/* a trace started by one client is the other's to read */
	CHECK_OK(a, kohaku_sim_command(a, "trace on"));
	still_serves("with the trace on");
	CHECK_OK(b, kohaku_sim_read(b, "trace", &text));
	CHECK_MSG(text && strlen(text) > 0, "the other client's trace is empty");
	free(text);
	CHECK_OK(b, kohaku_sim_command(b, "trace off"));
	CHECK_ERR(kohaku_sim_command(a, "bogus"), -EINVAL);
	CHECK(strstr(kohaku_last_error(a), "bogus") != NULL);
	rt_close(b);
	rt_close(a);
}

TEST_HARNESS_MAIN
