// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Timeouts, faults and recovery, proven with the model's knobs
 * (docs/spec/fault-injection.md) through kohaku_sim_inject(): in-process
 * they go to the model, on the kernel backend to the kohaku_sim.ko card's
 * debugfs files.  What the driver must do is docs/driver-core.md's:
 *
 *  - busy held high for a while: the job still completes once it clears;
 *  - a unit that faults: FAULT, with the node and the code;
 *  - DRAM errors: DONE with wrong data (MAG reports nothing, so neither
 *    can the driver; the model's DDR controller shows no ECC status);
 *  - a corrupted CU_CTRL reply (src or txn): rejected, never taken for
 *    another node's;
 *  - a CU_CTRL reply lost at bring-up: the node is left out, and when it
 *    was the confirming read the driver says so;
 *  - a unit that never retires: TIMEOUT, the node HUNG (or the mesh
 *    WEDGED), every other node still usable;
 *  - a mesh reset (`inject reset`, the clock wizard's SW_RST) under a job:
 *    the job is ABORTED at once with the reason, the reset's stale hung
 *    marks are gone, and the mesh runs jobs again, bit-exact;
 *  - after a reset the mesh's POOL units run no firmware: their jobs are
 *    refused at SUBMIT, saying so, until a firmware load;
 *  - the protocol checker's violations reach the test.
 *
 * Destructive on a shared kernel card (hung nodes, lost replies): like
 * rt_timeout it runs there only with KOHAKU_TEST_DESTRUCTIVE=1, on the
 * throwaway cards tests/vm/guest-init.sh makes.  Bring-up needs a card
 * made with the knob in its description: in-process the test makes it; in
 * the VM KOHAKU_TEST_BRINGUP_DEVICE names one.
 */
#include <fcntl.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"
#include "kohaku/kh_regs.h"

#define RT_FAULTS_OPEN(dev)	RT_DESTRUCTIVE_OPEN(dev)

/*
 * Automatic recovery on @mesh after at most @max hangs in a row (0: off);
 * returns the setting it replaced, for the test to put back (a kernel
 * card outlives the test).
 */
static unsigned int recover_set(kohaku_device *dev, unsigned int mesh,
				unsigned int max)
{
	struct drm_kohaku_mesh_set s;
	struct drm_kohaku_clocks c;

	memset(&c, 0, sizeof(c));
	CHECK_OK(dev, kohaku_clocks(dev, mesh, &c, sizeof(c)));
	memset(&s, 0, sizeof(s));
	s.set = KOHAKU_MESH_SET_RECOVER;
	s.mesh = mesh;
	s.recover_max = max;
	CHECK_OK(dev, kohaku_mesh_set(dev, &s));
	return c.recover_max;
}

static void clear_knobs(kohaku_device *dev)
{
	CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
}

TEST_F(rt, busy_held_then_the_job_completes)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	unsigned long bad;
	int r;
	RT_FAULTS_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	/* the mesh at its run clocks first: raising it resets the mesh */
	REQUIRE(rt_saxpy_job(dev, &sx[0], 8, 0, NULL, &st, &bad) == 0);
	/* 1 ms of the mesh clock: longer than the whole job takes */
	r = rt_saxpy_job(dev, &sx[0], KH_SX_N_MAX, 0,
		      "busy node=%u,%u cycles=300000", &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "%d %s: %s", r,
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(bad, 0);
	CHECK_MSG(st.device_ns >= 900000, "device_ns %llu: the job did not wait",
		  (unsigned long long)st.device_ns);
	clear_knobs(dev);
	kohaku_close(dev);
}

TEST_F(rt, faulting_unit_reports_node_and_code)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	unsigned long bad;
	int r;
	RT_FAULTS_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(!rt_inject_at(dev, "fault node=%u,%u code=0x1234", sx[0].x, sx[0].y));
	r = rt_saxpy_job(dev, &sx[0], 40, 0, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_FAULT, "%d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK_EQ(st.fault_code, 0x1234);
	CHECK_EQ(st.fault_flags, KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(st.fault_x, sx[0].x);
	CHECK_EQ(st.fault_y, sx[0].y);
	CHECK_EQ(st.n_faults, 1);
	CHECK(strstr(kohaku_last_error(dev), "FAULT") != NULL);
	/* the knob is spent: the same unit is fine again */
	r = rt_saxpy_job(dev, &sx[0], 40, 0, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "after: %d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK_EQ(bad, 0);
	clear_knobs(dev);
	kohaku_close(dev);
}

TEST_F(rt, dram_errors_are_not_reported)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct kohaku_job_status st;
	struct rt_vec v;
	char spec[128];
	uint32_t *gy;
	unsigned long i;
	int r;
	RT_FAULTS_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 9, &v) == 0);
	/* the first 32-byte word of y reads as zeros, once */
	snprintf(spec, sizeof(spec), "dram mesh=%u op=read addr=0x%llx len=32",
		 sx[0].mesh,
		 (unsigned long long)(v.ay & ((1ULL << 36) - 1)));
	CHECK_OK(dev, kohaku_sim_inject(dev, spec));
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.5f);
	r = rt_run(dev, &p, 1, &st);
	/* MAG answers OKAY whatever DRAM says: the driver sees a good job */
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "%d %s", r,
		  kohaku_job_status_name(st.status));
	gy = malloc(64 * 4);
	REQUIRE(gy);
	CHECK_OK(dev, kohaku_bo_read(dev, v.hy, 0, gy, 64 * 4));
	for (i = 0; i < 64; i++) {
		float x = rt_x(i, 9), y = i < 8 ? 0.0f : rt_y(i, 9);

		CHECK_MSG(gy[i] == rt_saxpy_bits(v.dp, 1.5f, x, y),
			  "y[%lu] = 0x%08x, expected 0x%08x (%s)", i, gy[i],
			  rt_saxpy_bits(v.dp, 1.5f, x, y),
			  i < 8 ? "y read as zeros" : "untouched by the error");
	}
	free(gy);
	check_diag("DONE with wrong data in y[0..7]: the card reports no DRAM "
		 "error (no status in MEM_RD_RESP, AXI errors dropped in MAG); "
		 "the model's DDR controller ECC status stays 0, so the driver "
		 "cannot see it");
	rt_vec_free(dev, &v);
	clear_knobs(dev);
	kohaku_close(dev);
}

static int live_nodes(kohaku_device *dev, struct drm_kohaku_node *nd,
		      unsigned int cap, unsigned int *n)
{
	return kohaku_nodes(dev, KOHAKU_NODES_LIVE, nd, cap, sizeof(*nd), n);
}

TEST_F(rt, corrupted_ctrl_reply_is_rejected)
{
	struct drm_kohaku_node a[32], b[32];
	unsigned int n, m, i;
	int r;
	RT_FAULTS_OPEN(dev);

	/* both maps have nodes at (1,0) and (1,2) */
	REQUIRE(!live_nodes(dev, a, 32, &n));
	/* the reply from (1,0) claims to come from (1,2) */
	REQUIRE(!rt_inject_at(dev, "ctrl node=%u,%u field=src xor=0x20", 1, 0));
	r = live_nodes(dev, b, 32, &m);
	CHECK_MSG(r < 0, "a reply from the wrong src was taken (%d)", r);
	check_diag("src corrupted: %d (%s)", r, kohaku_last_error(dev));
	/* spent: everything reads as before, (1,2) is still itself */
	REQUIRE(!live_nodes(dev, b, 32, &m));
	CHECK_EQ(m, n);
	for (i = 0; i < n && i < 32; i++) {
		CHECK_EQ(b[i].x, a[i].x);
		CHECK_EQ(b[i].y, a[i].y);
		CHECK_EQ(b[i].cu_type, a[i].cu_type);
		CHECK_EQ(b[i].caps_reg, a[i].caps_reg);
	}
	/* a reply with another txn is no answer to our request */
	REQUIRE(!rt_inject_at(dev, "ctrl node=%u,%u field=txn xor=0x5a", 1, 2));
	r = live_nodes(dev, b, 32, &m);
	CHECK_MSG(r < 0, "a reply with the wrong txn was taken (%d)", r);
	check_diag("txn corrupted: %d (%s)", r, kohaku_last_error(dev));
	r = live_nodes(dev, b, 32, &m);
	check_diag("the next live read: %d (%s)", r, r ? kohaku_last_error(dev) : "");
	clear_knobs(dev);
	kohaku_close(dev);
}

/* ---- bring-up: a card made with the knob in its description ---- */

static const char bringup_desc[] =
	"# the reply to the confirming CAPS read of (1,2) is lost\n"
	"inject ctrl node=1,2 field=drop after=1\n"
	"xxx sax xxx\n"
	"mag nul nul\n"
	"xxx sax xxx\n";

static const char bringup_first_desc[] =
	"# the reply to the first CAPS read of (1,2) is lost\n"
	"inject ctrl node=1,2 field=drop\n"
	"xxx sax xxx\n"
	"mag nul nul\n"
	"xxx sax xxx\n";

/* Open a sim card from text with the driver's warnings caught. */
static kohaku_device *open_logged(const char *desc, char *log, size_t len)
{
	char err[KOHAKU_ERRMSG_MAX], path[] = "/tmp/rt_faults.XXXXXX";
	kohaku_device *dev = NULL;
	int fd = mkstemp(path), save = dup(2), r;
	ssize_t n;

	log[0] = 0;
	if (fd < 0 || save < 0)
		return NULL;
	unlink(path);
	setenv("KOHAKU_LOG", "warn", 1);
	fflush(stderr);
	dup2(fd, 2);
	r = kohaku_open(KOHAKU_BACKEND_SIM, desc, &dev, err, sizeof(err));
	fflush(stderr);
	dup2(save, 2);
	close(save);
	unsetenv("KOHAKU_LOG");
	n = pread(fd, log, len - 1, 0);
	log[n > 0 ? n : 0] = 0;
	close(fd);
	if (r)
		check_fail_at(__FILE__, __LINE__, "open: %d: %s", r, err);
	return dev;
}

static bool has_node(kohaku_device *dev, unsigned int x, unsigned int y)
{
	struct drm_kohaku_node nd[16];
	unsigned int n, i;

	if (kohaku_nodes(dev, 0, nd, 16, sizeof(*nd), &n))
		return false;
	for (i = 0; i < n && i < 16; i++)
		if (nd[i].x == x && nd[i].y == y)
			return true;
	return false;
}

TEST_F(rt, ctrl_reply_lost_at_bringup)
{
	const char *kdev = getenv("KOHAKU_TEST_BRINGUP_DEVICE");
	kohaku_device *dev;
	static char log[16384];
	char err[KOHAKU_ERRMSG_MAX];
	int r;

	if (!strcmp(getenv("KOHAKU_BACKEND") ? getenv("KOHAKU_BACKEND") : "", "kernel")) {
		FILE *f;

		if (!kdev || !*kdev)
			SKIP(return, "kernel backend: set KOHAKU_TEST_BRINGUP_DEVICE to a card made from this test's bring-up description");
		r = kohaku_open(KOHAKU_BACKEND_KERNEL, kdev, &dev, err, sizeof(err));
		REQUIRE(r == 0);
		CHECK(has_node(dev, 1, 0));
		CHECK(!has_node(dev, 1, 2));
		/* the driver said so, in the kernel log */
		/* its own lines only: the last 200 of all no longer fit log */
		f = popen("dmesg | grep -F 'not confirmed' | tail -n 20", "r");
		REQUIRE(f);
		log[fread(log, 1, sizeof(log) - 1, f)] = 0;
		pclose(f);
		CHECK_MSG(strstr(log, "node (1,2) CU_CAPS") &&
			  strstr(log, "not confirmed"), "no warning in dmesg");
		(kohaku_close)(dev);
		return;
	}
	/*
	 * On a 32-bit control path (GRID_HI unread) the probe also asks
	 * every coordinate beyond (1,2) that is clamped onto it, so its
	 * second request is not the confirming read: only the first part.
	 */
	if (!rt_ctrl32_env()) {
		dev = open_logged(bringup_desc, log, sizeof(log));
		REQUIRE(dev);
		CHECK(has_node(dev, 1, 0));
		CHECK(!has_node(dev, 1, 2));
		CHECK_MSG(strstr(log, "mesh 0: node (1,2) CU_CAPS 0x") &&
			  strstr(log, "not confirmed (-110"), "driver log: %s", log);
		/* the card still works */
		CHECK(rt_good_saxpy(dev));
		(kohaku_close)(dev);
	}

	/* the first read's reply lost: the node is left out without a word */
	dev = open_logged(bringup_first_desc, log, sizeof(log));
	REQUIRE(dev);
	CHECK(has_node(dev, 1, 0));
	CHECK(!has_node(dev, 1, 2));
	check_diag("first CAPS reply of (1,2) lost: the driver left it out%s",
		 strstr(log, "(1,2)") ? ", and said so" :
		 " and said nothing (it cannot tell it from an empty coordinate)");
	(kohaku_close)(dev);
}

/* ---- the checker ---- */

TEST_F(rt, checker_violations_reach_the_test)
{
	static const char desc[] =
		"xxx null! xxx\n"
		"mag nul   nul\n"
		"xxx nul   xxx\n";
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct kohaku_job_status st;
	uint32_t words[8] = { 1 };
	char err[KOHAKU_ERRMSG_MAX], *report;
	kohaku_device *dev = NULL;
	uint64_t job;

	if (!strcmp(getenv("KOHAKU_BACKEND") ? getenv("KOHAKU_BACKEND") : "", "kernel"))
		SKIP(return, "in-process only: it makes its own card");
	setenv("KOHAKU_SIM_CHECK", "1", 0);
	REQUIRE(kohaku_open(KOHAKU_BACKEND_SIM, desc, &dev, err, sizeof(err)) == 0);
	kohaku_inst_null(&inst, words);
	memset(&p, 0, sizeof(p));
	p.x = 1;
	p.y = 0;
	p.n_insts = 1;
	p.insts = &inst;
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 20, &job));
	CHECK_OK(dev, kohaku_wait(dev, job, 5000, &st, sizeof(st)));
	/* the RTL's null unit loses its completion: the job cannot end well */
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	CHECK(kohaku_sim_check(dev) >= 1);
	REQUIRE(!kohaku_sim_read(dev, "check", &report));
	CHECK_MSG(strstr(report, "rule 6") && strstr(report, "unit (1,0) null!"),
		  "%s", report);
	free(report);
	/* the real close: rt_close would (rightly) fail this test */
	(kohaku_close)(dev);
}

/* ---- a unit that never retires, last: the node stays hung ---- */

TEST_F(rt, hung_unit_times_out_others_carry_on)
{
	struct drm_kohaku_node sx[16], nu[16], nd[32];
	struct drm_kohaku_get_info in;
	struct kohaku_job_status st;
	unsigned int n_sx, n_null, n, i;
	unsigned long bad;
	bool hung = false, wedged;
	int r;
	unsigned int recover;
	RT_FAULTS_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	n_null = rt_nodes_of(dev, KH_CU_NULL, nu, 16);
	REQUIRE(n_sx > 0);
	/* the marks themselves: no automatic recovery (rt_recover.c has it) */
	recover = recover_set(dev, sx[0].mesh, 0);
	REQUIRE(!rt_inject_at(dev, "hang node=%u,%u", sx[0].x, sx[0].y));
	r = rt_saxpy_job(dev, &sx[0], 64, 20, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_TIMEOUT, "%d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK(strstr(kohaku_last_error(dev), "TIMEOUT") != NULL);
	/*
	 * A job queued now, to the same node, before the mesh's recovery
	 * window has decided anything: once the node is declared hung it is
	 * aborted without being dispatched (or the mesh is wedged).
	 */
	if (n_sx > 1) {
		struct kohaku_program p;
		struct kohaku_inst inst;
		struct rt_vec v;

		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 16, 6, &v) == 0);
		rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.5f);
		r = rt_run(dev, &p, 1, &st);
		check_diag("a job queued to (%u,%u) before it was declared hung: %d %s (device %llu ms)",
			 sx[0].x, sx[0].y, r, kohaku_job_status_name(st.status),
			 (unsigned long long)(st.device_ns / 1000000));
		/*
		 * It must not be dispatched into the hung unit and time out;
		 * a slow process may come after the window and be refused.
		 */
		CHECK_MSG((r == 0 && st.status != KOHAKU_JOB_TIMEOUT &&
			   st.status != KOHAKU_JOB_DONE) || r == -EIO, "%d %s", r,
			  kohaku_job_status_name(st.status));
		rt_vec_free(dev, &v);
	}
	/* another unit on the mesh runs (after the recovery window) */
	for (i = 1; i < n_sx && i < 3; i++) {
		r = rt_saxpy_job(dev, &sx[i], 500, 0, NULL, &st, &bad);
		if (r == -ETIMEDOUT)	/* still queued behind recovery */
			r = rt_saxpy_job(dev, &sx[i], 500, 30000, NULL, &st, &bad);
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE && !bad,
			  "SX (%u,%u) after the hang: %d %s, %lu bad", sx[i].x,
			  sx[i].y, r, kohaku_job_status_name(st.status), bad);
	}
	CHECK_OK(dev, kohaku_nodes(dev, 0, nd, 32, sizeof(*nd), &n));
	for (i = 0; i < n && i < 32; i++)
		if (nd[i].x == sx[0].x && nd[i].y == sx[0].y)
			hung = nd[i].flags & KOHAKU_NODE_HUNG;
	memset(&in, 0, sizeof(in));
	CHECK_OK(dev, kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
	wedged = in.mesh[sx[0].mesh].flags & KOHAKU_MESH_WEDGED;
	/* everything was pushed, the instruction owes its signal: HUNG */
	CHECK_MSG(hung && !wedged, "node %s, mesh %s", hung ? "hung" : "not hung",
		  wedged ? "wedged" : "not wedged");
	r = rt_saxpy_job(dev, &sx[0], 16, 0, NULL, &st, &bad);
	CHECK_MSG(r == -EIO, "the hung node took a job: %d", r);
	if (n_null) {
		struct kohaku_program p;
		struct kohaku_inst insts[4];
		uint32_t w[8] = { 7, 1, 2 };

		for (i = 0; i < 4; i++)
			kohaku_inst_null(&insts[i], w);
		memset(&p, 0, sizeof(p));
		p.mesh = nu[0].mesh;
		p.x = nu[0].x;
		p.y = nu[0].y;
		p.n_insts = 4;
		p.insts = insts;
		r = rt_run(dev, &p, 1, &st);
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
			  "null (%u,%u) after the hang: %d %s", nu[0].x, nu[0].y,
			  r, kohaku_job_status_name(st.status));
	}
	recover_set(dev, sx[0].mesh, recover);
	clear_knobs(dev);
	kohaku_close(dev);
}

static int inject_reset(kohaku_device *dev, unsigned int mesh)
{
	char spec[32];

	snprintf(spec, sizeof(spec), "reset mesh=%u", mesh);
	return kohaku_sim_inject(dev, spec);
}

static uint64_t mesh_param(kohaku_device *dev, uint32_t param,
			   unsigned int mesh)
{
	struct drm_kohaku_get_param g;

	memset(&g, 0, sizeof(g));
	g.param = param;
	g.index = mesh;
	CHECK_OK(dev, kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g));
	return g.value;
}

static bool node_hung(kohaku_device *dev, const struct drm_kohaku_node *nd)
{
	struct drm_kohaku_node now;

	return rt_node_now(dev, nd, &now) && (now.flags & KOHAKU_NODE_HUNG);
}

/*
 * On a kernel card the tests share one card: an earlier test may have left
 * the node hung.  A reset first, seen by a job, starts from a clean mesh;
 * the resets counted from here.
 */
static uint64_t clean_mesh(kohaku_device *dev, const struct drm_kohaku_node *nd)
{
	clear_knobs(dev);
	CHECK_OK(dev, inject_reset(dev, nd->mesh));
	rt_saxpy_ok(dev, nd, "after a first reset");
	return mesh_param(dev, KOHAKU_PARAM_MESH_RESETS, nd->mesh);
}

/*
 * With automatic recovery off: a unit held busy past its job's limit and
 * the recovery window is marked hung; once it has signalled everything it
 * owed it takes jobs again, without a reset, and its next job is exact;
 * memory freed while it owed (the timed-out job's vectors) is not handed
 * out again meanwhile (the late instruction writes there).
 */
TEST_F(rt, a_hung_node_that_returns_what_it_owed_takes_jobs_again)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	unsigned int recover, i;
	unsigned long bad;
	uint64_t resets;
	struct rt_vec v0, v1;
	struct kohaku_program p0;
	struct kohaku_inst i0;
	uint64_t job, ax0, ay0;
	unsigned int n_sx;
	uint32_t h;
	void *big;
	int r;
	RT_FAULTS_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	if (n_sx < 1) {
		kohaku_close(dev);
		SKIP(return, "one SX unit on this card");
	}
	resets = clean_mesh(dev, &sx[0]);
	recover = recover_set(dev, sx[0].mesh, 0);
	/* 1.2 s of the card's clock: past the 100 ms limit and the 1 s window */
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 4, &v0) == 0);
	rt_prog_saxpy(&p0, &i0, 1, &sx[0], &v0, 1.5f);
	REQUIRE(!rt_inject_at(dev, "busy node=%u,%u cycles=360000000", sx[0].x, sx[0].y));
	CHECK_OK(dev, kohaku_submit(dev, &p0, 1, 100, &job));
	CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
	/* its vectors freed at once: the late instruction still writes there */
	ax0 = v0.ax;
	ay0 = v0.ay;
	rt_vec_free(dev, &v0);
	/*
	 * Hung once the 1 s window has passed (the engine's polls move the
	 * card's time meanwhile); looked at through GET_INFO's flags, not a
	 * live node read, which the held unit would not answer.
	 */
	for (i = 0; i < 1000 && !node_hung(dev, &sx[0]); i++) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}
	CHECK(node_hung(dev, &sx[0]));
	r = rt_saxpy_job(dev, &sx[0], 16, 0, NULL, &st, &bad);
	CHECK_MSG(r == -EIO, "the hung node took a job: %d", r);
	/*
	 * Another unit's job meanwhile, on vectors allocated now: the memory
	 * the timed-out job freed must not be among them, or the late
	 * instruction would write over them when the unit wakes.
	 */
	if (n_sx > 1) {
		struct kohaku_program p;
		struct kohaku_inst inst;

		REQUIRE(rt_vec_setup(dev, sx[1].mesh, 64, 5, &v1) == 0);
		check_diag("freed while owed: x 0x%llx y 0x%llx; allocated after: x 0x%llx y 0x%llx",
			   (unsigned long long)ax0, (unsigned long long)ay0,
			   (unsigned long long)v1.ax, (unsigned long long)v1.ay);
		CHECK_MSG(v1.ax != ax0 && v1.ay != ay0 && v1.ax != ay0 && v1.ay != ax0,
			  "memory a hung unit may still write was handed out again: 0x%llx 0x%llx",
			  (unsigned long long)v1.ax, (unsigned long long)v1.ay);
		rt_prog_saxpy(&p, &inst, 1, &sx[1], &v1, 1.5f);
		r = rt_run(dev, &p, 1, &st);
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "the other unit: %d %s",
			  r, kohaku_job_status_name(st.status));
	}
	/*
	 * The card's time passes while it is used: buffer writes (the DMA
	 * engine, not the mesh) carry it past the unit's hold; then SUBMIT
	 * finds the node has signalled what it owed.
	 */
	big = malloc(16u << 20);
	REQUIRE(big);
	memset(big, 0x5a, 16u << 20);
	REQUIRE(kohaku_bo_create(dev, sx[0].mesh, 16u << 20, &h, NULL) == 0);
	for (i = 0; i < 200; i++) {
		CHECK_OK(dev, kohaku_bo_write(dev, h, 0, big, 16u << 20));
		if (!node_hung(dev, &sx[0]))
			break;
		r = rt_saxpy_job(dev, &sx[0], 16, 0, NULL, &st, &bad);
		if (r != -EIO)
			break;
	}
	check_diag("%u buffer writes of 16 MiB until the node was back", i + 1);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	free(big);
	if (n_sx > 1) {
		CHECK_MSG(rt_vec_check(dev, &v1, 1.5f, 1) == 0,
			  "the other unit's vectors changed when the hung unit woke");
		rt_vec_free(dev, &v1);
	}
	r = rt_saxpy_job(dev, &sx[0], 64, 0, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE && bad == 0,
		  "after the node returned what it owed: %d %s, %lu bad: %s", r,
		  kohaku_job_status_name(st.status), bad, kohaku_last_error(dev));
	/* no reset did it */
	CHECK_EQ(mesh_param(dev, KOHAKU_PARAM_MESH_RESETS, sx[0].mesh), resets);
	recover_set(dev, sx[0].mesh, recover);
	clear_knobs(dev);
	kohaku_close(dev);
}

TEST_F(rt, mesh_reset_aborts_the_running_job_at_once)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	uint64_t job, resets;
	char why[512];
	int r;
	RT_FAULTS_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	resets = clean_mesh(dev, &sx[0]);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 7, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.5f);
	/* the unit never retires: only the reset can end the job early */
	REQUIRE(!rt_inject_at(dev, "hang node=%u,%u", sx[0].x, sx[0].y));
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 10000, &job));
	r = kohaku_wait(dev, job, 2, &st, sizeof(st));
	CHECK_MSG(r == -ETIMEDOUT && st.status == KOHAKU_JOB_RUNNING,
		  "before the reset: %d %s", r, kohaku_job_status_name(st.status));
	CHECK_OK(dev, inject_reset(dev, sx[0].mesh));
	r = kohaku_wait(dev, job, 20000, &st, sizeof(st));
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_ABORTED,
		  "after the reset: %d %s: %s", r,
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(st.reason, KOHAKU_JOB_WHY_MESH_RESET);
	/*
	 * At once, not at its 10 s limit (ABORTED already says the reset
	 * ended it, a limit would be TIMEOUT).  The bound is loose: device
	 * time also runs while this process gets to the inject, as fast as
	 * the engine's polls move it: on a kernel card under TCG 148 ms in
	 * one run, in-process under valgrind (one thread at a time) 1.34 s
	 * in one fresh-clone `make test`; the driver itself looks every 1 ms.
	 */
	CHECK_MSG(st.device_ns < 5000000000ULL, "ended after %llu ns of device time",
		  (unsigned long long)st.device_ns);
	check_diag("the job ended %llu us of device time after it started",
		   (unsigned long long)st.device_ns / 1000);
	kohaku_job_describe(&st, sizeof(st), why, sizeof(why));
	CHECK_MSG(strstr(why, "ABORTED: its mesh was reset") != NULL, "%s", why);
	CHECK_MSG(strstr(kohaku_last_error(dev), "mesh was reset") != NULL, "%s",
		  kohaku_last_error(dev));
	CHECK_EQ(mesh_param(dev, KOHAKU_PARAM_MESH_RESETS, sx[0].mesh), resets + 1);
	CHECK_EQ(mesh_param(dev, KOHAKU_PARAM_MESH_JOBS_PENDING, sx[0].mesh), 0);
	/* the reset ended the hang: the node is not marked and runs again */
	CHECK(!node_hung(dev, &sx[0]));
	rt_saxpy_ok(dev, &sx[0], "after the reset");
	rt_vec_free(dev, &v);
	clear_knobs(dev);
	kohaku_close(dev);
}

TEST_F(rt, mesh_reset_clears_stale_hung_marks)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	unsigned long bad;
	uint64_t resets;
	int r;
	unsigned int recover;
	RT_FAULTS_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	recover = recover_set(dev, sx[0].mesh, 0);
	resets = clean_mesh(dev, &sx[0]);
	REQUIRE(!rt_inject_at(dev, "hang node=%u,%u", sx[0].x, sx[0].y));
	r = rt_saxpy_job(dev, &sx[0], 64, 20, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_TIMEOUT, "%d %s", r,
		  kohaku_job_status_name(st.status));
	/*
	 * Queued behind the recovery window: aborted once the node is hung;
	 * or, when this process comes after the window has passed (a slow
	 * one, valgrind), refused at SUBMIT for the hung node.
	 */
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 16, 6, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.5f);
	memset(&st, 0, sizeof(st));
	r = rt_run(dev, &p, 1, &st);
	CHECK_MSG((r == 0 && st.status == KOHAKU_JOB_ABORTED &&
		   st.reason == KOHAKU_JOB_WHY_NODE_HUNG) || r == -EIO,
		  "%d %s (reason %u)", r, kohaku_job_status_name(st.status), st.reason);
	rt_vec_free(dev, &v);
	CHECK(node_hung(dev, &sx[0]));
	r = rt_saxpy_job(dev, &sx[0], 16, 0, NULL, &st, &bad);
	CHECK_MSG(r == -EIO, "the hung node took a job: %d", r);
	/* the reset cleared the unit: the mark is stale and goes */
	CHECK_OK(dev, inject_reset(dev, sx[0].mesh));
	rt_saxpy_ok(dev, &sx[0], "after the reset");
	CHECK(!node_hung(dev, &sx[0]));
	CHECK_EQ(mesh_param(dev, KOHAKU_PARAM_MESH_RESETS, sx[0].mesh), resets + 1);
	recover_set(dev, sx[0].mesh, recover);
	clear_knobs(dev);
	kohaku_close(dev);
}

TEST_F(rt, mesh_reset_between_jobs)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	uint64_t irqs, resets;
	unsigned int i;
	bool irq_card;
	int r;
	RT_FAULTS_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	resets = clean_mesh(dev, &sx[0]);
	/* jobs complete by interrupt on cards with the IRQ addon */
	irq_card = (mesh_param(dev, KOHAKU_PARAM_MESH_CAPS_REG, sx[0].mesh) &
		    KH_CAPS_IRQ_ADDON) &&
		   mesh_param(dev, KOHAKU_PARAM_IRQ_VECTORS, 0);
	check_diag("%s", irq_card ? "jobs complete by interrupt: checked after each reset" :
		   "no interrupt addon on this card: the interrupt check is not made");
	/*
	 * A job submitted straight after the reset (its vectors are already
	 * in place): its writes would land in the reset window and be lost;
	 * the driver holds it until the mesh is back.  Twice, so the second
	 * reset finds the first one's state rebuilt.
	 */
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 8, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.5f);
	for (i = 0; i < 2; i++) {
		irqs = mesh_param(dev, KOHAKU_PARAM_IRQS, 0);
		CHECK_OK(dev, inject_reset(dev, sx[0].mesh));
		r = rt_run(dev, &p, 1, &st);
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
			  "a job straight after reset %u: %d %s: %s", i + 1, r,
			  kohaku_job_status_name(st.status), kohaku_last_error(dev));
		/*
		 * The reset cleared IRQ_EN; the job completed by interrupt
		 * again.  Read before the vectors are read back: their DMA
		 * raises interrupts of its own.
		 */
		if (irq_card)
			CHECK_MSG(mesh_param(dev, KOHAKU_PARAM_IRQS, 0) > irqs,
				  "no interrupt during the job after reset %u",
				  i + 1);
		CHECK_EQ(rt_vec_check(dev, &v, 1.5f, i + 1), 0);
		CHECK_EQ(mesh_param(dev, KOHAKU_PARAM_MESH_RESETS, sx[0].mesh),
			 resets + i + 1);
	}
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

/*
 * Another agent's SW_RST while a long job (16,384 saxpy instructions)
 * runs on one SX unit and a short one (8) waits for another: whether the
 * reset lands before the short job is dispatched, during it or after, the
 * short job ends DONE with exact results or ABORTED for the reset, never
 * FAULT from a credit count the reset left stale; the long one ends
 * ABORTED (or DONE if it got through first).  The reset is injected after
 * a growing pause, so it lands at many points of the two jobs.
 */
TEST_F(rt, reset_under_a_long_job_never_faults_the_next)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st[2];
	struct kohaku_program p[2];
	struct rt_vec v[2];
	struct kohaku_inst *li, si[8];
	unsigned int n, i, k, done_after = 0, aborted = 0;
	uint64_t job[2];
	RT_FAULTS_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	if (n < 2) {
		kohaku_close(dev);
		SKIP(return, "one SX unit on this card");
	}
	clear_knobs(dev);
	li = calloc(KOHAKU_MAX_JOB_INSTS, sizeof(*li));
	REQUIRE(li);
	for (i = 0; i < 8; i++) {
		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 30 + i, &v[0]) == 0);
		REQUIRE(rt_vec_setup(dev, sx[1].mesh, 64, 50 + i, &v[1]) == 0);
		for (k = 0; k < KOHAKU_MAX_JOB_INSTS; k++)
			REQUIRE(kohaku_inst_saxpy(&li[k], 64, 1.0f, v[0].ax, v[0].ay) == 0);
		memset(&p[0], 0, sizeof(p[0]));
		p[0].mesh = sx[0].mesh;
		p[0].x = sx[0].x;
		p[0].y = sx[0].y;
		p[0].n_insts = KOHAKU_MAX_JOB_INSTS;
		p[0].insts = li;
		rt_prog_saxpy(&p[1], si, 8, &sx[1], &v[1], 1.5f);
		CHECK_OK(dev, kohaku_submit(dev, &p[0], 1, 60000, &job[0]));
		CHECK_OK(dev, kohaku_submit(dev, &p[1], 1, 60000, &job[1]));
		/* a pause of i * 0.4 ms of wall time, then the reset */
		if (i) {
			struct timespec ts = { 0, (long)i * 400000 };

			nanosleep(&ts, NULL);
		}
		CHECK_OK(dev, inject_reset(dev, sx[0].mesh));
		for (k = 0; k < 2; k++) {
			memset(&st[k], 0, sizeof(st[k]));
			CHECK_OK(dev, kohaku_wait(dev, job[k], 60000, &st[k], sizeof(st[k])));
		}
		check_diag("reset after %u.%u ms: long %s, short %s", i * 4 / 10,
			   i * 4 % 10, kohaku_job_status_name(st[0].status),
			   kohaku_job_status_name(st[1].status));
		CHECK_MSG(st[1].status == KOHAKU_JOB_DONE ||
			  (st[1].status == KOHAKU_JOB_ABORTED &&
			   st[1].reason == KOHAKU_JOB_WHY_MESH_RESET),
			  "the short job after a reset at %u: %s (%u faults)", i,
			  kohaku_job_status_name(st[1].status), st[1].n_faults);
		if (st[1].status == KOHAKU_JOB_DONE) {
			CHECK_EQ(rt_vec_check(dev, &v[1], 1.5f, 8), 0);
			done_after += st[0].status == KOHAKU_JOB_ABORTED;
		} else {
			aborted++;
		}
		CHECK_MSG(st[0].status == KOHAKU_JOB_ABORTED ||
			  st[0].status == KOHAKU_JOB_DONE, "the long job: %s",
			  kohaku_job_status_name(st[0].status));
		rt_vec_free(dev, &v[0]);
		rt_vec_free(dev, &v[1]);
	}
	check_diag("short job DONE after the long one was aborted: %u; aborted itself: %u",
		   done_after, aborted);
	/* and alone: the reset lands before, during or after its dispatch */
	done_after = aborted = 0;
	for (i = 0; i < 16; i++) {
		struct timespec ts = { 0, (long)i * 30000 };

		REQUIRE(rt_vec_setup(dev, sx[1].mesh, 64, 70 + i, &v[1]) == 0);
		rt_prog_saxpy(&p[1], si, 8, &sx[1], &v[1], 1.5f);
		CHECK_OK(dev, kohaku_submit(dev, &p[1], 1, 60000, &job[1]));
		nanosleep(&ts, NULL);
		CHECK_OK(dev, inject_reset(dev, sx[1].mesh));
		memset(&st[1], 0, sizeof(st[1]));
		CHECK_OK(dev, kohaku_wait(dev, job[1], 60000, &st[1], sizeof(st[1])));
		CHECK_MSG(st[1].status == KOHAKU_JOB_DONE ||
			  (st[1].status == KOHAKU_JOB_ABORTED &&
			   st[1].reason == KOHAKU_JOB_WHY_MESH_RESET),
			  "a short job with a reset %u us after its SUBMIT: %s (%u faults)",
			  i * 30, kohaku_job_status_name(st[1].status), st[1].n_faults);
		if (st[1].status == KOHAKU_JOB_DONE)
			done_after += !rt_vec_check(dev, &v[1], 1.5f, 8);
		else
			aborted++;
		rt_vec_free(dev, &v[1]);
	}
	check_diag("alone: DONE and exact %u, ABORTED by the reset %u", done_after,
		   aborted);
	CHECK_EQ(done_after + aborted, 16);
	free(li);
	kohaku_close(dev);
}

/*
 * After a mesh reset the driver boots the firmware it keeps again on the
 * mesh's POOL units: a job for one submitted straight after the reset is
 * taken, waits for the boot and runs.
 */
TEST_F(rt, pool_firmware_runs_again_after_a_reset)
{
	struct drm_kohaku_node gp[16];
	struct drm_kohaku_fw_load out;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	const unsigned char *img;
	unsigned int i;
	size_t len;
	int r;
	RT_FAULTS_OPEN(dev);

	if (rt_nodes_of(dev, KH_CU_GP, gp, 16) == 0) {
		kohaku_close(dev);
		SKIP(return, "no POOL unit on this card");
	}
	img = rt_fw_image(&len);
	REQUIRE(img);
	clear_knobs(dev);
	REQUIRE(kohaku_inst_pool_ping(&inst, 0x77) == 0);
	if (rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_RUNNING)
		CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &out, sizeof(out)));
	REQUIRE(rt_fw_state(dev, &gp[0]) == KOHAKU_FW_STATE_RUNNING);
	for (i = 0; i < 2; i++) {
		CHECK_OK(dev, inject_reset(dev, gp[0].mesh));
		memset(&st, 0, sizeof(st));
		r = rt_run_on(dev, &gp[0], &inst, 1, &st);
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
			  "a POOL job straight after reset %u: %d %s: %s", i + 1, r,
			  kohaku_job_status_name(st.status), kohaku_last_error(dev));
		CHECK_EQ(rt_fw_state(dev, &gp[0]), KOHAKU_FW_STATE_RUNNING);
	}
	kohaku_close(dev);
}

/*
 * With no firmware image kept (none loaded since bring-up) a job for a
 * POOL unit is refused at SUBMIT (EIO, and a message that says so), not
 * accepted to end FAULT with the unit's NOFW code; once loaded it runs,
 * and runs again after a reset.  In-process only: a card whose driver has
 * never loaded firmware (KOHAKU_FIRMWARE=none at open).
 */
TEST_F(rt, pool_job_refused_while_no_firmware_runs)
{
	struct drm_kohaku_node gp[16];
	struct drm_kohaku_fw_load out;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	const unsigned char *img;
	kohaku_device *dev;
	size_t len;
	int r;

	if (!getenv("KOHAKU_BACKEND") || strcmp(getenv("KOHAKU_BACKEND"), "sim"))
		SKIP(return, "needs a card with no firmware ever loaded: in-process (KOHAKU_BACKEND=sim) only");
	setenv("KOHAKU_FIRMWARE", "none", 1);
	dev = rt_open();
	unsetenv("KOHAKU_FIRMWARE");
	REQUIRE(dev != NULL);
	if (rt_nodes_of(dev, KH_CU_GP, gp, 16) == 0) {
		kohaku_close(dev);
		SKIP(return, "no POOL unit on this card");
	}
	img = rt_fw_image(&len);
	REQUIRE(img);
	REQUIRE(kohaku_inst_pool_ping(&inst, 0x77) == 0);
	CHECK_EQ(rt_fw_state(dev, &gp[0]), KOHAKU_FW_STATE_ABSENT);
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, &gp[0], &inst, 1, &st);
	CHECK_MSG(r == -EIO, "a job for a unit without firmware: %d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK_MSG(strstr(kohaku_last_error(dev), "no firmware runs there") &&
		  strstr(kohaku_last_error(dev), "kohaku fw load"), "%s",
		  kohaku_last_error(dev));
	CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &out, sizeof(out)));
	CHECK_EQ(rt_fw_state(dev, &gp[0]), KOHAKU_FW_STATE_RUNNING);
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, &gp[0], &inst, 1, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "after the load: %d %s: %s",
		  r, kohaku_job_status_name(st.status), kohaku_last_error(dev));
	/* the image is kept now: a reset brings it back by itself */
	CHECK_OK(dev, inject_reset(dev, gp[0].mesh));
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, &gp[0], &inst, 1, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "after the reset: %d %s: %s",
		  r, kohaku_job_status_name(st.status), kohaku_last_error(dev));
	kohaku_close(dev);
}

/*
 * A firmware image that passes every check and writes DRAM with no job
 * (test/idle-writer.fw: core 1 loads and stores in a loop for ever) kept
 * MAG's landed-write counter moving, so the driver's read-after-write
 * settle held every job of the mesh, on any unit, to its full limit.  A
 * POOL unit with bounds (version 2) refuses every one of those accesses
 * (no region is granted with no job): a saxpy on the same mesh takes its
 * usual time, bit exact.  The driver learns of the refusals when a POOL
 * job of the unit ends (BOUNDS_FAULT, "with no job present"), says so,
 * resets the mesh and leaves its POOL units without firmware; a firmware
 * load brings them back.
 */
TEST_F(rt, firmware_writing_with_no_job_holds_no_job)
{
	struct drm_kohaku_node gp[16], sx;
	struct kohaku_job_status st;
	struct drm_kohaku_fw_load out;
	struct kohaku_inst inst;
	const unsigned char *img;
	char path[512], d[256];
	const char *fw = getenv("KOHAKU_TEST_FW");
	unsigned long bad = 0;
	unsigned int ngp, i;
	size_t len;
	int r;
	RT_FAULTS_OPEN(dev);

	ngp = rt_nodes_of(dev, KH_CU_GP, gp, 16);
	for (i = 0; i < ngp; i++)
		if (rt_nodes_of(dev, KH_CU_SX, &sx, 1) && sx.mesh == gp[i].mesh)
			break;
	if (!ngp || i == ngp) {
		kohaku_close(dev);
		SKIP(return, "no mesh with a POOL unit and an SX unit");
	}
	snprintf(path, sizeof(path), "%s", fw && *fw ? fw : "/lib/firmware/kohaku/pool.fw");
	*strrchr(path, '/') = '\0';
	strncat(path, "/test/idle-writer.fw", sizeof(path) - strlen(path) - 1);
	if (access(path, R_OK)) {
		kohaku_close(dev);
		SKIP(return, "no test image %s (make firmware)", path);
	}
	clear_knobs(dev);
	CHECK_OK(dev, kohaku_fw_load_file(dev, path, 0, &out, sizeof(out)));
	REQUIRE(rt_fw_state(dev, &gp[i]) == KOHAKU_FW_STATE_RUNNING);
	/* nothing of the firmware's reaches memory: nothing to wait for */
	r = rt_saxpy_job(dev, &sx, 64, 2000, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE && !bad,
		  "saxpy beside the firmware: %d %s, %lu bad: %s", r,
		  kohaku_job_status_name(st.status), bad, kohaku_last_error(dev));
	CHECK_MSG(st.device_ns < 1000000, "it took %llu ns of device time",
		  (unsigned long long)st.device_ns);
	/*
	 * A job on the unit: core 1's refusals while it is present are the
	 * job's (the unit cannot tell one core's work from another's)
	 */
	REQUIRE(kohaku_inst_pool_ping(&inst, 0x77) == 0);
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, &gp[i], &inst, 1, &st);
	CHECK_MSG(r == 0 && (st.status == KOHAKU_JOB_DONE ||
			     (st.status == KOHAKU_JOB_FAULT &&
			      st.fault_code == KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_BOUNDS))),
		  "a POOL job beside core 1: %d %s (%s): %s", r,
		  kohaku_job_status_name(st.status),
		  kohaku_pool_fault_describe(st.fault_code, d, sizeof(d)),
		  kohaku_last_error(dev));
	/* the refusals before it were with no job: the firmware is stopped */
	r = rt_saxpy_job(dev, &sx, 64, 2000, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE && !bad,
		  "the next saxpy: %d %s, %lu bad", r, kohaku_job_status_name(st.status), bad);
	CHECK_EQ(rt_fw_state(dev, &gp[i]), KOHAKU_FW_STATE_ABSENT);
	/* a load of the real image runs POOL jobs again */
	img = rt_fw_image(&len);
	REQUIRE(img);
	CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &out, sizeof(out)));
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, &gp[i], &inst, 1, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "a POOL job after the load: %d %s: %s",
		  r, kohaku_job_status_name(st.status), kohaku_last_error(dev));
	kohaku_close(dev);
}

RT_TEST_MAIN
