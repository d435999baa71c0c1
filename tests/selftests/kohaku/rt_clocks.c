// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The mesh clock governor, the resets the driver makes and automatic
 * recovery (ABI 0.7; docs/driver-core.md "Mesh clocks", "Resets the driver
 * makes"), through libkohaku, on whatever card KOHAKU_TEST_MAP and
 * KOHAKU_BACKEND name:
 *
 *  - a mesh idles at its idle profile, a job raises it to the run profile
 *    and it drops back once idle_ms of device time has passed;
 *  - the outputs' MHz are read back from the wizard, profile by profile;
 *  - two meshes are governed each on its own;
 *  - device time scales with the clock (a job at low takes about three
 *    times its time at ship);
 *  - a retune never happens with a job on the mesh, and a planned retune
 *    aborts nothing and counts as no reset;
 *  - a reset asked for (DRM_KOHAKU_RESET) with a job running, queued and
 *    none;
 *  - automatic recovery after a hang, then a bit-exact job; its limit;
 *  - POOL firmware running again after a retune, an asked reset and a
 *    recovery.
 *
 * Every test changes the card: on a kernel card they run only with
 * KOHAKU_TEST_DESTRUCTIVE=1 and put back what they changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_test.h"
#include "kohaku/kh_regs.h"

/* every test changes the card's clocks or resets its meshes */
#define RT_CLK_OPEN(dev)	RT_DESTRUCTIVE_OPEN(dev)

static struct drm_kohaku_clocks clocks(kohaku_device *dev, unsigned int mesh)
{
	struct drm_kohaku_clocks c;

	memset(&c, 0, sizeof(c));
	CHECK_OK(dev, kohaku_clocks(dev, mesh, &c, sizeof(c)));
	return c;
}

static void mesh_set(kohaku_device *dev, unsigned int mesh, uint32_t set,
		     uint32_t policy, uint32_t profile, uint32_t idle_ms)
{
	struct drm_kohaku_mesh_set s;

	memset(&s, 0, sizeof(s));
	s.mesh = mesh;
	s.set = set;
	s.policy = policy;
	s.fixed_profile = profile;
	s.idle_ms = idle_ms;
	s.recover_max = profile;
	CHECK_OK(dev, kohaku_mesh_set(dev, &s));
}

/* what the tests change, and put back */
struct saved {
	struct drm_kohaku_clocks c;
	unsigned int mesh;
};

static struct saved save(kohaku_device *dev, unsigned int mesh)
{
	struct saved s = { clocks(dev, mesh), mesh };

	return s;
}

static void restore(kohaku_device *dev, const struct saved *s)
{
	struct drm_kohaku_mesh_set m;

	memset(&m, 0, sizeof(m));
	m.mesh = s->mesh;
	m.set = KOHAKU_MESH_SET_MASK;
	m.policy = s->c.policy;
	m.idle_profile = s->c.idle_profile;
	m.run_profile = s->c.run_profile;
	m.fixed_profile = s->c.fixed_profile;
	m.idle_ms = s->c.idle_ms;
	m.recover_max = s->c.recover_max;
	CHECK_OK(dev, kohaku_mesh_set(dev, &m));
	/* a card with the model's knobs: none left (a PCI card has none) */
	kohaku_sim_inject(dev, "clear");
}

/* Does the card take the model's knobs (kohaku_sim.ko, in-process)? */
static bool knobs(kohaku_device *dev)
{
	return kohaku_sim_inject(dev, "clear") == 0;
}

#define NEED_KNOBS(dev)							\
	do {								\
		if (!knobs(dev)) {					\
			kohaku_close(dev);				\
			SKIP(return, "needs the model's knobs (a simulated card)"); \
		}							\
	} while (0)

static bool mhz_are(const struct drm_kohaku_clocks *c, unsigned int p)
{
	unsigned int o;

	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++)
		if (c->mhz[o] != KH_CLK_VCO_MHZ / KH_CLK_PROFILE_DIV(p, o))
			return false;
	return true;
}

/*
 * Wait (a bounded number of looks) until the mesh is at @profile.  Each
 * look reads the wizard: on a simulated card that is what lets device
 * time pass while nothing else runs.
 */
static bool wait_profile(kohaku_device *dev, unsigned int mesh,
			 unsigned int profile, unsigned int looks)
{
	unsigned int i;

	for (i = 0; i < looks; i++) {
		if (clocks(dev, mesh).profile == profile)
			return true;
		if (kohaku_device_backend(dev) == KOHAKU_BACKEND_KERNEL || i % 64 == 63) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
	return false;
}

/* up to @looks reads of CLOCKS (as wait_profile()) for @mesh's resets to reach @resets */
static bool wait_resets(kohaku_device *dev, unsigned int mesh, uint64_t resets,
			unsigned int looks)
{
	unsigned int i;

	for (i = 0; i < looks; i++) {
		if (clocks(dev, mesh).resets >= resets)
			return true;
		if (kohaku_device_backend(dev) == KOHAKU_BACKEND_KERNEL || i % 64 == 63) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
	return false;
}

/* does a POOL unit of @mesh run firmware? */
static bool fw_running_on(kohaku_device *dev, unsigned int mesh)
{
	struct drm_kohaku_node all[64];
	unsigned int n, i;

	if (kohaku_nodes(dev, 0, all, 64, sizeof(*all), &n))
		return false;
	for (i = 0; i < n && i < 64; i++)
		if (all[i].mesh == mesh && all[i].fw_state == KOHAKU_FW_STATE_RUNNING)
			return true;
	return false;
}

TEST_F(rt, a_job_raises_its_mesh_and_the_mesh_drops_back)
{
	struct drm_kohaku_node sx[16];
	struct drm_kohaku_clocks c0, c1, c2;
	struct saved sv;
	RT_CLK_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	sv = save(dev, sx[0].mesh);
	c0 = clocks(dev, sx[0].mesh);
	CHECK_EQ(c0.policy, KOHAKU_CLK_POLICY_AUTO);
	CHECK_EQ(c0.run_profile, KOHAKU_CLK_PROFILE_SHIP);
	/* the wizard read back: the profile's divides, every output */
	CHECK_MSG(c0.profile < KH_CLK_PROFILES && mhz_are(&c0, c0.profile),
		  "profile %u: %u/%u/%u/%u MHz", c0.profile, c0.mhz[0], c0.mhz[1],
		  c0.mhz[2], c0.mhz[3]);
	/*
	 * A first job sees whatever an earlier user left (a reset of an
	 * idle mesh is seen at its next job); then a 1 ms idle window takes
	 * the mesh back to low by itself.
	 */
	rt_saxpy_ok(dev, &sx[0], "first");
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_IDLE_MS, 0, 0, 1);
	CHECK_MSG(wait_profile(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000),
		  "still %s after the idle window",
		  kohaku_clk_profile_name(clocks(dev, sx[0].mesh).profile));
	c0 = clocks(dev, sx[0].mesh);
	CHECK(mhz_are(&c0, KOHAKU_CLK_PROFILE_LOW));
	/* a job raises it to ship, and it drops back */
	rt_saxpy_ok(dev, &sx[0], "at the mesh's idle clocks");
	c1 = clocks(dev, sx[0].mesh);
	CHECK_EQ(c1.profile, KOHAKU_CLK_PROFILE_SHIP);
	CHECK(mhz_are(&c1, KOHAKU_CLK_PROFILE_SHIP));
	CHECK_EQ(c1.retunes, c0.retunes + 1);
	/* a planned retune is no reset */
	CHECK_EQ(c1.resets, c0.resets);
	CHECK_MSG(wait_profile(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000),
		  "still %s after the idle window",
		  kohaku_clk_profile_name(clocks(dev, sx[0].mesh).profile));
	c2 = clocks(dev, sx[0].mesh);
	CHECK(mhz_are(&c2, KOHAKU_CLK_PROFILE_LOW));
	CHECK_EQ(c2.retunes, c1.retunes + 1);
	CHECK(c2.ns_at[KOHAKU_CLK_PROFILE_SHIP] > c0.ns_at[KOHAKU_CLK_PROFILE_SHIP]);
	CHECK(c2.ns_at[KOHAKU_CLK_PROFILE_LOW] >= c0.ns_at[KOHAKU_CLK_PROFILE_LOW]);
	CHECK_EQ(c2.resets, c0.resets);
	/* and up again for the next job, which is exact */
	rt_saxpy_ok(dev, &sx[0], "after dropping back");
	restore(dev, &sv);
	kohaku_close(dev);
}

/*
 * Another agent's SW_RST on an idle mesh puts the built clocks (ship)
 * back with nothing to say so: the governor sees it within an idle window
 * and puts the idle profile on again, with no job to notice it.
 */
TEST_F(rt, an_idle_mesh_gets_its_idle_profile_back_after_another_agents_reset)
{
	struct drm_kohaku_node sx[16];
	struct drm_kohaku_clocks c0, c1;
	struct saved sv;
	char spec[32];
	RT_CLK_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	NEED_KNOBS(dev);
	sv = save(dev, sx[0].mesh);
	rt_saxpy_ok(dev, &sx[0], "first");
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_IDLE_MS, 0, 0, 2);
	REQUIRE(wait_profile(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000));
	c0 = clocks(dev, sx[0].mesh);
	snprintf(spec, sizeof(spec), "reset mesh=%u", sx[0].mesh);
	CHECK_OK(dev, kohaku_sim_inject(dev, spec));
	/*
	 * The profile read LOW before the reset too: first the driver must
	 * have seen the reset, or the wait below ends before it happened
	 * (asan, ctrl32, CI)
	 */
	CHECK_MSG(wait_resets(dev, sx[0].mesh, c0.resets + 1, 20000),
		  "the driver never saw the reset (%u resets)",
		  (unsigned int)clocks(dev, sx[0].mesh).resets);
	CHECK_MSG(wait_profile(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000),
		  "still %s after another agent's reset",
		  kohaku_clk_profile_name(clocks(dev, sx[0].mesh).profile));
	c1 = clocks(dev, sx[0].mesh);
	CHECK(mhz_are(&c1, KOHAKU_CLK_PROFILE_LOW));
	CHECK_EQ(c1.resets, c0.resets + 1);
	CHECK_EQ(c1.retunes, c0.retunes + 1);
	rt_saxpy_ok(dev, &sx[0], "after it");
	restore(dev, &sv);
	kohaku_close(dev);
}

TEST_F(rt, each_profile_programs_the_wizard)
{
	struct drm_kohaku_node sx[16];
	struct drm_kohaku_clocks c;
	struct saved sv;
	unsigned int p;
	RT_CLK_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	sv = save(dev, sx[0].mesh);
	for (p = 0; p < KH_CLK_PROFILES; p++) {
		mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_POLICY | KOHAKU_MESH_SET_FIXED,
			 KOHAKU_CLK_POLICY_FIXED, p, 0);
		CHECK_MSG(wait_profile(dev, sx[0].mesh, p, 20000), "never at %s",
			  kohaku_clk_profile_name(p));
		c = clocks(dev, sx[0].mesh);
		CHECK_MSG(mhz_are(&c, p), "%s: %u/%u/%u/%u MHz",
			  kohaku_clk_profile_name(p), c.mhz[0], c.mhz[1], c.mhz[2],
			  c.mhz[3]);
		/* a job at any profile is exact, and does not move it */
		rt_saxpy_ok(dev, &sx[0], kohaku_clk_profile_name(p));
		CHECK_EQ(clocks(dev, sx[0].mesh).profile, p);
	}
	restore(dev, &sv);
	kohaku_close(dev);
}

/*
 * A unit's time is its clock's: the same work takes three times the
 * device time at low and one and a half at mid.  The work is a POOL
 * unit's DELAY kernel of 300,000 of its cycles (1 ms at 300 MHz), so the
 * host's own accesses, which run at the card's fixed clocks, are a small
 * part of the job.  (A short SX job is mostly the host's staging writes;
 * model_mclk pins the mesh's own cycles, kick to completion, at exactly
 * 3x and 1.5x.)
 */
TEST_F(rt, device_time_scales_with_the_clock)
{
	struct drm_kohaku_node gp[16];
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	uint64_t ns[KH_CLK_PROFILES];
	struct saved sv;
	unsigned int p, k;
	double ratio;
	int r;
	RT_CLK_OPEN(dev);

	if (!rt_simulated()) {
		kohaku_close(dev);
		SKIP(return, "device time on a card is wall time: measured by bench, not here");
	}
	if (rt_nodes_of(dev, KH_CU_GP, gp, 16) == 0) {
		kohaku_close(dev);
		SKIP(return, "no POOL unit for a clock-bound kernel on this card");
	}
	REQUIRE(kohaku_inst_pool_delay(&inst, 300000) == 0);
	sv = save(dev, gp[0].mesh);
	/* an earlier user may have left it without firmware */
	if (rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_RUNNING) {
		struct drm_kohaku_fw_load fo;
		size_t len;
		const unsigned char *img = rt_fw_image(&len);

		REQUIRE(img);
		CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &fo, sizeof(fo)));
	}
	for (p = 0; p < KH_CLK_PROFILES; p++) {
		mesh_set(dev, gp[0].mesh, KOHAKU_MESH_SET_POLICY | KOHAKU_MESH_SET_FIXED,
			 KOHAKU_CLK_POLICY_FIXED, p, 0);
		REQUIRE(wait_profile(dev, gp[0].mesh, p, 20000));
		/* the first pays for the retune's reset and firmware boot */
		for (k = 0; k < 2; k++) {
			memset(&st, 0, sizeof(st));
			r = rt_run_on(dev, &gp[0], &inst, 1, &st);
			CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "DELAY at %s: %d %s: %s",
				  kohaku_clk_profile_name(p), r,
				  kohaku_job_status_name(st.status), kohaku_last_error(dev));
		}
		ns[p] = st.device_ns;
		check_diag("DELAY 300,000 at %s: %llu ns of device time",
			   kohaku_clk_profile_name(p), (unsigned long long)ns[p]);
	}
	ratio = (double)ns[KOHAKU_CLK_PROFILE_LOW] / ns[KOHAKU_CLK_PROFILE_SHIP];
	CHECK_MSG(ratio > 2.85 && ratio < 3.05, "low / ship = %.3f", ratio);
	ratio = (double)ns[KOHAKU_CLK_PROFILE_MID] / ns[KOHAKU_CLK_PROFILE_SHIP];
	CHECK_MSG(ratio > 1.43 && ratio < 1.53, "mid / ship = %.3f", ratio);
	restore(dev, &sv);
	kohaku_close(dev);
}

TEST_F(rt, two_meshes_are_governed_each_on_its_own)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_node sx[16];
	unsigned int n, other = ~0u, i;
	struct saved s0, s1;
	RT_CLK_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n > 0);
	memset(&in, 0, sizeof(in));
	CHECK_OK(dev, kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
	for (i = 0; i < in.n_meshes; i++)
		if (i != sx[0].mesh && (in.mesh[i].flags & KOHAKU_MESH_PRESENT))
			other = i;
	if (other == ~0u) {
		kohaku_close(dev);
		SKIP(return, "one mesh on this card");
	}
	s0 = save(dev, sx[0].mesh);
	s1 = save(dev, other);
	mesh_set(dev, other, KOHAKU_MESH_SET_POLICY | KOHAKU_MESH_SET_FIXED,
		 KOHAKU_CLK_POLICY_FIXED, KOHAKU_CLK_PROFILE_LOW, 0);
	REQUIRE(wait_profile(dev, other, KOHAKU_CLK_PROFILE_LOW, 20000));
	rt_saxpy_ok(dev, &sx[0], "with the other mesh at low");
	CHECK_EQ(clocks(dev, sx[0].mesh).profile, KOHAKU_CLK_PROFILE_SHIP);
	CHECK_EQ(clocks(dev, other).profile, KOHAKU_CLK_PROFILE_LOW);
	CHECK(mhz_are((struct drm_kohaku_clocks[]){ clocks(dev, other) },
		      KOHAKU_CLK_PROFILE_LOW));
	restore(dev, &s1);
	restore(dev, &s0);
	kohaku_close(dev);
}

/*
 * A retune asked for while a job runs waits for the job: the job ends
 * DONE, exact; only then does the mesh go to the new profile.
 */
TEST_F(rt, no_retune_while_a_job_is_on_the_mesh)
{
	struct drm_kohaku_node sx[16];
	struct drm_kohaku_clocks c0;
	struct kohaku_job_status st;
	struct kohaku_inst insts[64];
	struct kohaku_program p;
	struct rt_vec v;
	struct saved sv;
	uint64_t job;
	char knob[64];
	int r;
	RT_CLK_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	NEED_KNOBS(dev);
	sv = save(dev, sx[0].mesh);
	rt_saxpy_ok(dev, &sx[0], "first");
	c0 = clocks(dev, sx[0].mesh);
	REQUIRE(c0.profile == KOHAKU_CLK_PROFILE_SHIP);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 256, 9, &v) == 0);
	rt_prog_saxpy(&p, insts, 1, &sx[0], &v, 1.5f);
	/*
	 * The unit held busy until the knob is cleared: the job stays on the
	 * mesh however slow this process is (valgrind)
	 */
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=forever", sx[0].x, sx[0].y);
	CHECK_OK(dev, kohaku_sim_inject(dev, knob));
	/*
	 * A limit of an hour of device time: the engine's polls move the
	 * card's time while the job runs, and under valgrind they ran 20 s
	 * of it before this thread got to its next call (CI, stop 32)
	 */
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 3600 * 1000, &job));
	/* on the mesh before the new profile is asked for (looks, no waits) */
	do {
		struct timespec ts = { 0, 100000 };

		r = kohaku_wait(dev, job, 0, &st, sizeof(st));
		if (r == -ETIMEDOUT && st.status == KOHAKU_JOB_QUEUED)
			nanosleep(&ts, NULL);
	} while (r == -ETIMEDOUT && st.status == KOHAKU_JOB_QUEUED);
	REQUIRE(r == -ETIMEDOUT && st.status == KOHAKU_JOB_RUNNING);
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_POLICY | KOHAKU_MESH_SET_FIXED,
		 KOHAKU_CLK_POLICY_FIXED, KOHAKU_CLK_PROFILE_LOW, 0);
	/* some of the card's time while the job holds the mesh: no retune */
	r = kohaku_wait(dev, job, 5, &st, sizeof(st));
	CHECK_MSG(r == -ETIMEDOUT && st.status == KOHAKU_JOB_RUNNING, "%d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK_EQ(clocks(dev, sx[0].mesh).retunes, c0.retunes);
	CHECK_EQ(clocks(dev, sx[0].mesh).profile, KOHAKU_CLK_PROFILE_SHIP);
	CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	r = kohaku_wait(dev, job, 20000, &st, sizeof(st));
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "%d %s: %s", r,
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(rt_vec_check(dev, &v, 1.5f, 1), 0);
	CHECK(wait_profile(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000));
	CHECK_EQ(clocks(dev, sx[0].mesh).resets, c0.resets);
	rt_vec_free(dev, &v);
	restore(dev, &sv);
	kohaku_close(dev);
}

/*
 * A file asks for mid: its jobs raise an idle mesh to mid, not ship; a
 * job of another file with the default raises it on to ship; every job
 * queued across the retunes ends DONE.
 */
TEST_F(rt, a_file_asks_for_its_profile_and_retunes_abort_nothing)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	struct kohaku_inst insts[8][64];
	struct kohaku_program p[8];
	struct rt_vec v[8];
	uint64_t job[8], resets;
	struct saved sv;
	unsigned int i;
	RT_CLK_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	sv = save(dev, sx[0].mesh);
	resets = clocks(dev, sx[0].mesh).resets;
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_IDLE_MS, 0, 0, 1);
	REQUIRE(wait_profile(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000));
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_IDLE_MS, 0, 0, 60000);
	CHECK_OK(dev, kohaku_clocks_file_run(dev, sx[0].mesh, KOHAKU_CLK_PROFILE_MID));
	CHECK_EQ(clocks(dev, sx[0].mesh).file_run_profile, KOHAKU_CLK_PROFILE_MID);
	rt_saxpy_ok(dev, &sx[0], "asking for mid");
	CHECK_EQ(clocks(dev, sx[0].mesh).profile, KOHAKU_CLK_PROFILE_MID);
	/* queued together: mid ones, then default ones (ship) */
	for (i = 0; i < 8; i++) {
		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 128, 20 + i, &v[i]) == 0);
		rt_prog_saxpy(&p[i], insts[i], 1, &sx[0], &v[i], 1.5f);
		if (i == 4)
			CHECK_OK(dev, kohaku_clocks_file_run(dev, sx[0].mesh,
							     KOHAKU_CLK_PROFILE_DEFAULT));
		CHECK_OK(dev, kohaku_submit(dev, &p[i], 1, 20000, &job[i]));
	}
	for (i = 0; i < 8; i++) {
		CHECK_OK(dev, kohaku_wait(dev, job[i], 30000, &st, sizeof(st)));
		CHECK_MSG(st.status == KOHAKU_JOB_DONE, "job %u: %s", i,
			  kohaku_job_status_name(st.status));
		CHECK_EQ(rt_vec_check(dev, &v[i], 1.5f, 1), 0);
		rt_vec_free(dev, &v[i]);
	}
	CHECK_EQ(clocks(dev, sx[0].mesh).profile, KOHAKU_CLK_PROFILE_SHIP);
	CHECK_EQ(clocks(dev, sx[0].mesh).resets, resets);
	CHECK_ERR(kohaku_clocks_file_run(dev, sx[0].mesh, 7), -EINVAL);
	restore(dev, &sv);
	kohaku_close(dev);
}

TEST_F(rt, mesh_set_refuses_what_it_cannot_do)
{
	struct drm_kohaku_mesh_set s;
	struct drm_kohaku_clocks c;
	RT_CLK_OPEN(dev);

	memset(&s, 0, sizeof(s));
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);	/* nothing to set */
	s.set = 1u << 31;
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);
	s.set = KOHAKU_MESH_SET_FIXED;
	s.fixed_profile = 3;
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);
	s.set = KOHAKU_MESH_SET_IDLE_MS;
	s.idle_ms = 0;
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);
	s.set = KOHAKU_MESH_SET_RECOVER;
	s.recover_max = 101;
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);
	s.recover_max = 1;
	s.reserved[1] = 1;
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);
	s.reserved[1] = 0;
	s.mesh = KOHAKU_MAX_MESHES;
	CHECK_ERR(kohaku_mesh_set(dev, &s), -EINVAL);
	memset(&c, 0, sizeof(c));
	CHECK_ERR(kohaku_clocks(dev, KOHAKU_MAX_MESHES, &c, sizeof(c)), -EINVAL);
	kohaku_close(dev);
}

/* the SW_RST the caller asks for: with nothing, a job running, a job queued */
TEST_F(rt, reset_with_a_job_running_queued_and_none)
{
	struct drm_kohaku_node sx[16];
	struct drm_kohaku_reset out;
	struct drm_kohaku_clocks c0;
	struct kohaku_job_status st;
	struct kohaku_inst insts[2][64];
	struct kohaku_program p[2];
	struct rt_vec v[2];
	uint64_t job[2];
	unsigned int n;
	char knob[64];
	int r;
	RT_CLK_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n > 0);
	c0 = clocks(dev, sx[0].mesh);
	/* none */
	memset(&out, 0xff, sizeof(out));
	CHECK_OK(dev, kohaku_mesh_reset(dev, sx[0].mesh, &out, sizeof(out)));
	CHECK_EQ(out.aborted, 0);
	CHECK_EQ(out.hung_cleared, 0);
	CHECK(out.device_ns >= 100000);	/* the MMCM's lock time at least */
	CHECK_EQ(clocks(dev, sx[0].mesh).resets, c0.resets + 1);
	rt_saxpy_ok(dev, &sx[0], "after a reset with nothing on the mesh");
	if (!knobs(dev)) {
		kohaku_close(dev);
		SKIP(return, "the rest hangs a unit with the model's knob (a simulated card)");
	}
	/* running (a unit that never retires) and queued (another unit's) */
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 11, &v[0]) == 0);
	rt_prog_saxpy(&p[0], insts[0], 1, &sx[0], &v[0], 1.5f);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 12, &v[1]) == 0);
	rt_prog_saxpy(&p[1], insts[1], 1, &sx[n > 1 ? 1 : 0], &v[1], 1.5f);
	snprintf(knob, sizeof(knob), "hang node=%u,%u", sx[0].x, sx[0].y);
	CHECK_OK(dev, kohaku_sim_inject(dev, knob));
	CHECK_OK(dev, kohaku_submit(dev, &p[0], 1, 20000, &job[0]));
	CHECK_OK(dev, kohaku_submit(dev, &p[1], 1, 20000, &job[1]));
	r = kohaku_wait(dev, job[0], 2, &st, sizeof(st));
	CHECK_MSG(r == -ETIMEDOUT && st.status == KOHAKU_JOB_RUNNING, "%d %s", r,
		  kohaku_job_status_name(st.status));
	memset(&out, 0, sizeof(out));
	CHECK_OK(dev, kohaku_mesh_reset(dev, sx[0].mesh, &out, sizeof(out)));
	CHECK_EQ(out.aborted, 1);
	CHECK_OK(dev, kohaku_wait(dev, job[0], 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_ABORTED);
	CHECK_EQ(st.reason, KOHAKU_JOB_WHY_RESET_ASKED);
	/* the queued one ran after, exact */
	CHECK_OK(dev, kohaku_wait(dev, job[1], 20000, &st, sizeof(st)));
	CHECK_MSG(st.status == KOHAKU_JOB_DONE, "the queued job: %s",
		  kohaku_job_status_name(st.status));
	CHECK_EQ(rt_vec_check(dev, &v[1], 1.5f, 1), 0);
	CHECK_EQ(clocks(dev, sx[0].mesh).resets, c0.resets + 2);
	/* the reset ended the hang: the unit runs again */
	rt_saxpy_ok(dev, &sx[0], "after the reset that ended its hang");
	CHECK_ERR(kohaku_mesh_reset(dev, KOHAKU_MAX_MESHES, &out, sizeof(out)), -EINVAL);
	rt_vec_free(dev, &v[0]);
	rt_vec_free(dev, &v[1]);
	kohaku_close(dev);
}

/*
 * A node that misses its job's timeout: the job is TIMEOUT, the node hung
 * after the recovery window, and then the mesh is reset by itself: the
 * next job on the node runs and is exact.  With a limit of one, a second
 * hang straight after leaves the mesh wedged, saying why; a reset asked
 * for brings it back.
 */
TEST_F(rt, automatic_recovery_after_a_hang_and_its_limit)
{
	struct drm_kohaku_node sx[16];
	struct drm_kohaku_clocks c0, c1;
	struct drm_kohaku_get_info in;
	struct kohaku_job_status st;
	unsigned long bad;
	struct saved sv;
	char knob[64];
	int r, hangs;
	RT_CLK_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	NEED_KNOBS(dev);
	sv = save(dev, sx[0].mesh);
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_RECOVER, 0, 3, 0);
	c0 = clocks(dev, sx[0].mesh);
	snprintf(knob, sizeof(knob), "hang node=%u,%u", sx[0].x, sx[0].y);
	CHECK_OK(dev, kohaku_sim_inject(dev, knob));
	{
		struct kohaku_inst insts[64];
		struct kohaku_program p;
		struct rt_vec v;
		uint64_t job;

		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 13, &v) == 0);
		rt_prog_saxpy(&p, insts, 1, &sx[0], &v, 1.5f);
		CHECK_OK(dev, kohaku_submit(dev, &p, 1, 20, &job));
		CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
		rt_vec_free(dev, &v);
	}
	/* the next job waits for the recovery and runs, bit-exact */
	r = rt_saxpy_job(dev, &sx[0], 512, 0, NULL, &st, &bad);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE && bad == 0,
		  "after the hang: %d %s, %lu bad: %s", r,
		  kohaku_job_status_name(st.status), bad, kohaku_last_error(dev));
	c1 = clocks(dev, sx[0].mesh);
	CHECK_EQ(c1.recoveries, c0.recoveries + 1);
	CHECK_EQ(c1.resets, c0.resets + 1);

	/*
	 * A limit of one: the first hang recovers, the second in a row does
	 * not; on a mesh with POOL firmware running the second is recovered
	 * without the firmware first (firmware_that_keeps_hanging_its_mesh_
	 * is_stopped), and the third gives the mesh up.
	 */
	mesh_set(dev, sx[0].mesh, KOHAKU_MESH_SET_RECOVER, 0, 1, 0);
	hangs = 2 + (fw_running_on(dev, sx[0].mesh) ? 1 : 0);
	for (int i = 0; i < hangs; i++) {
		struct kohaku_inst insts[64];
		struct kohaku_program p;
		struct rt_vec v;
		uint64_t job;

		CHECK_OK(dev, kohaku_sim_inject(dev, knob));
		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 14, &v) == 0);
		rt_prog_saxpy(&p, insts, 1, &sx[0], &v, 1.5f);
		r = kohaku_submit(dev, &p, 1, 20, &job);
		if (!r) {
			CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
			CHECK_EQ(st.status, KOHAKU_JOB_TIMEOUT);
		}
		rt_vec_free(dev, &v);
	}
	/*
	 * Wait out the second's recovery window (the engine's polls move a
	 * simulated card's time meanwhile): the mesh is wedged.  No job in
	 * between: one completing would break the row.
	 */
	for (int i = 0; i < 3000; i++) {
		struct timespec ts = { 0, 10000000 };

		memset(&in, 0, sizeof(in));
		CHECK_OK(dev, kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
		if (in.mesh[sx[0].mesh].flags & KOHAKU_MESH_WEDGED)
			break;
		nanosleep(&ts, NULL);
	}
	CHECK_MSG(in.mesh[sx[0].mesh].flags & KOHAKU_MESH_WEDGED, "not wedged after the limit");
	r = rt_saxpy_job(dev, &sx[0], 64, 0, NULL, &st, &bad);
	CHECK_MSG(r == -EIO && strstr(kohaku_last_error(dev), "wedged"),
		  "on a wedged mesh: %d: %s", r, kohaku_last_error(dev));
	CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	CHECK_OK(dev, kohaku_mesh_reset(dev, sx[0].mesh, NULL, 0));
	rt_saxpy_ok(dev, &sx[0], "after the reset that cleared the wedge");
	restore(dev, &sv);
	kohaku_close(dev);
}


static void pool_ok(kohaku_device *dev, const struct drm_kohaku_node *gp,
		    const char *when)
{
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	int r;

	REQUIRE(kohaku_inst_pool_ping(&inst, 0x5a) == 0);
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, gp, &inst, 1, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "POOL job %s: %d %s: %s",
		  when, r, kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(rt_fw_state(dev, gp), KOHAKU_FW_STATE_RUNNING);
}

/*
 * The firmware the driver keeps boots again after every kind of reset: a
 * retune, a reset asked for, an automatic recovery (a DELAY kernel that
 * outlives its job's limit hangs the unit), another agent's SW_RST.
 */
TEST_F(rt, pool_firmware_runs_again_after_every_kind_of_reset)
{
	struct drm_kohaku_node gp[16];
	struct drm_kohaku_fw_load fo;
	struct drm_kohaku_reset out;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	const unsigned char *img;
	unsigned int i, n, on_mesh = 0;
	struct saved sv;
	char spec[32];
	size_t len;
	int r;
	RT_CLK_OPEN(dev);

	if (rt_nodes_of(dev, KH_CU_GP, gp, 16) == 0) {
		kohaku_close(dev);
		SKIP(return, "no POOL unit on this card");
	}
	img = rt_fw_image(&len);
	REQUIRE(img);
	sv = save(dev, gp[0].mesh);
	if (rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_RUNNING)
		CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &fo, sizeof(fo)));
	pool_ok(dev, &gp[0], "first");
	/* a retune: fixed at low, then at mid */
	mesh_set(dev, gp[0].mesh, KOHAKU_MESH_SET_POLICY | KOHAKU_MESH_SET_FIXED,
		 KOHAKU_CLK_POLICY_FIXED, KOHAKU_CLK_PROFILE_LOW, 0);
	REQUIRE(wait_profile(dev, gp[0].mesh, KOHAKU_CLK_PROFILE_LOW, 20000));
	pool_ok(dev, &gp[0], "at low, after the retune");
	mesh_set(dev, gp[0].mesh, KOHAKU_MESH_SET_FIXED, 0, KOHAKU_CLK_PROFILE_MID, 0);
	pool_ok(dev, &gp[0], "at mid");
	CHECK_EQ(clocks(dev, gp[0].mesh).profile, KOHAKU_CLK_PROFILE_MID);
	/* a reset asked for */
	memset(&out, 0, sizeof(out));
	CHECK_OK(dev, kohaku_mesh_reset(dev, gp[0].mesh, &out, sizeof(out)));
	/* every POOL unit of the mesh runs the firmware again */
	for (i = 0, n = rt_nodes_of(dev, KH_CU_GP, gp, 16); i < n; i++)
		on_mesh += gp[i].mesh == gp[0].mesh;
	CHECK_EQ(out.fw_units, on_mesh);
	CHECK_EQ(rt_fw_state(dev, &gp[0]), KOHAKU_FW_STATE_RUNNING);
	pool_ok(dev, &gp[0], "after the reset asked for");
	/* another agent's SW_RST (the model's knob, where there is one) */
	snprintf(spec, sizeof(spec), "reset mesh=%u", gp[0].mesh);
	if (!kohaku_sim_inject(dev, spec))
		pool_ok(dev, &gp[0], "after another agent's reset");
	/* a hang: DELAY past the job's limit; recovery resets the mesh */
	mesh_set(dev, gp[0].mesh, KOHAKU_MESH_SET_RECOVER, 0, 3, 0);
	REQUIRE(kohaku_inst_pool_delay(&inst, 0xffffffffu) == 0);
	memset(&st, 0, sizeof(st));
	{
		struct kohaku_program p;
		uint64_t job;

		rt_prog_on(&p, &gp[0], &inst, 1);
		CHECK_OK(dev, kohaku_submit(dev, &p, 1, 100, &job));
		r = kohaku_wait(dev, job, 20000, &st, sizeof(st));
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_TIMEOUT, "DELAY: %d %s", r,
			  kohaku_job_status_name(st.status));
	}
	pool_ok(dev, &gp[0], "after the recovery");
	CHECK(clocks(dev, gp[0].mesh).recoveries >= 1);
	restore(dev, &sv);
	kohaku_close(dev);
}

/*
 * POOL firmware that keeps hanging its mesh: with a limit of one
 * recovery in a row, the first hang is recovered with the firmware booted
 * again; the second, before the mesh is given up, is recovered without it
 * (its POOL units ABSENT, said so, the rest of the mesh working); a
 * firmware load brings them back.  The hang is a DELAY kernel past its
 * job's limit, as a firmware that loops would be.
 */
TEST_F(rt, firmware_that_keeps_hanging_its_mesh_is_stopped)
{
	struct drm_kohaku_node gp[16], sx[16];
	struct drm_kohaku_fw_load fo;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	const unsigned char *img;
	struct saved sv;
	unsigned int k, i, nsx;
	size_t len;
	int r;
	RT_CLK_OPEN(dev);

	if (rt_nodes_of(dev, KH_CU_GP, gp, 16) == 0) {
		kohaku_close(dev);
		SKIP(return, "no POOL unit on this card");
	}
	nsx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	img = rt_fw_image(&len);
	REQUIRE(img);
	sv = save(dev, gp[0].mesh);
	if (rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_RUNNING)
		CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &fo, sizeof(fo)));
	pool_ok(dev, &gp[0], "first");
	mesh_set(dev, gp[0].mesh, KOHAKU_MESH_SET_RECOVER, 0, 1, 0);
	REQUIRE(kohaku_inst_pool_delay(&inst, 0xffffffffu) == 0);
	for (k = 0; k < 2; k++) {
		struct kohaku_program p;
		uint64_t job;

		/* after the first recovery the firmware runs again */
		for (i = 0; i < 2000 && rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_RUNNING; i++) {
			struct timespec ts = { 0, 10000000 };

			nanosleep(&ts, NULL);
		}
		REQUIRE(rt_fw_state(dev, &gp[0]) == KOHAKU_FW_STATE_RUNNING);
		rt_prog_on(&p, &gp[0], &inst, 1);
		CHECK_OK(dev, kohaku_submit(dev, &p, 1, 100, &job));
		r = kohaku_wait(dev, job, 20000, &st, sizeof(st));
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_TIMEOUT, "hang %u: %d %s", k,
			  r, kohaku_job_status_name(st.status));
	}
	/* the second recovery: without the firmware */
	for (i = 0; i < 2000 && rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_ABSENT; i++) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}
	CHECK_EQ(rt_fw_state(dev, &gp[0]), KOHAKU_FW_STATE_ABSENT);
	/* the mesh works: not wedged */
	if (nsx && sx[0].mesh == gp[0].mesh)
		rt_saxpy_ok(dev, &sx[0], "after the firmware was stopped");
	REQUIRE(kohaku_inst_pool_ping(&inst, 1) == 0);
	memset(&st, 0, sizeof(st));
	r = rt_run_on(dev, &gp[0], &inst, 1, &st);
	CHECK_MSG(r == -EIO, "a POOL job with the firmware stopped: %d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &fo, sizeof(fo)));
	pool_ok(dev, &gp[0], "after the load");
	restore(dev, &sv);
	kohaku_close(dev);
}

/*
 * With automatic recovery off, a POOL unit taken out of service by a DELAY
 * kernel that outlives its limit is marked hung; a firmware load, through
 * LOAD instructions or through the mailbox, gives the same answer: it
 * resets the mesh's hung units, boots them, and they take jobs again.
 */
TEST_F(rt, a_load_brings_back_a_hung_pool_unit_by_either_path)
{
	static const uint32_t paths[2] = { 0, KOHAKU_FW_LOAD_MAILBOX };
	struct drm_kohaku_node gp[16], now;
	struct drm_kohaku_fw_load fo;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	const unsigned char *img;
	struct saved sv;
	unsigned int k, i;
	size_t len;
	int r;
	RT_CLK_OPEN(dev);

	if (rt_nodes_of(dev, KH_CU_GP, gp, 16) == 0) {
		kohaku_close(dev);
		SKIP(return, "no POOL unit on this card");
	}
	img = rt_fw_image(&len);
	REQUIRE(img);
	sv = save(dev, gp[0].mesh);
	if (rt_fw_state(dev, &gp[0]) != KOHAKU_FW_STATE_RUNNING)
		CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &fo, sizeof(fo)));
	mesh_set(dev, gp[0].mesh, KOHAKU_MESH_SET_RECOVER, 0, 0, 0);
	REQUIRE(kohaku_inst_pool_delay(&inst, 0xffffffffu) == 0);
	for (k = 0; k < 2; k++) {
		struct kohaku_program p;
		uint64_t job;

		rt_prog_on(&p, &gp[0], &inst, 1);
		CHECK_OK(dev, kohaku_submit(dev, &p, 1, 100, &job));
		r = kohaku_wait(dev, job, 20000, &st, sizeof(st));
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_TIMEOUT, "DELAY: %d %s", r,
			  kohaku_job_status_name(st.status));
		for (i = 0; i < 2000; i++) {
			struct timespec ts = { 0, 10000000 };

			if (rt_node_now(dev, &gp[0], &now) && (now.flags & KOHAKU_NODE_HUNG))
				break;
			nanosleep(&ts, NULL);
		}
		CHECK_MSG(now.flags & KOHAKU_NODE_HUNG, "not hung after the window");
		memset(&fo, 0, sizeof(fo));
		r = kohaku_fw_load(dev, img, len, paths[k], &fo, sizeof(fo));
		CHECK_MSG(r == 0 && fo.reason == KOHAKU_FW_OK, "load %s: %d reason %u: %s",
			  k ? "through the mailbox" : "by LOAD", r, fo.reason,
			  kohaku_last_error(dev));
		REQUIRE(rt_node_now(dev, &gp[0], &now));
		CHECK_EQ(now.flags & KOHAKU_NODE_HUNG, 0);
		CHECK_EQ(now.fw_state, KOHAKU_FW_STATE_RUNNING);
		pool_ok(dev, &gp[0], k ? "after a mailbox load" : "after a LOAD load");
	}
	restore(dev, &sv);
	kohaku_close(dev);
}

RT_TEST_MAIN
