// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * WAIT against a scripted fake card: its timeout in device time, what it
 * reports once and never again, unplug ending it, and the progress engine
 * letting a simulated card's time pass only when nothing is left to run
 * (docs/driver-core.md "The progress engine"; uapi/drm/kohaku_accel.h).
 * The card runs routers 1..2 with a node of inst_depth 16 on each.
 */
#include <pthread.h>
#include <time.h>

#include "check.h"
#include "core_rig.h"
#include "harness.h"

CHECK_FIXTURE(core)

#define LONG_MS		60000	/* a limit no test reaches */
#define WALL_MS		10000	/* how long a test waits for the worker */

TEST_F(core, wait_semantics)
{
	struct rig_prog a = { 1, 1, 0x81, 2 };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j, t0;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 0);
	REQUIRE(rig_submit(&r, &a, 1, LONG_MS, &j) == 0);
	REQUIRE(fake_wait_pushed(r.fc, 1, 1, 2, WALL_MS));

	/* 0 ms: just look */
	CHECK_EQ(rig_wait(&r, j, 0, &w), -ETIMEDOUT);
	CHECK_EQ(w.status, KOHAKU_JOB_RUNNING);
	CHECK_EQ(w.n_faults, 0);
	/* 1 ms of device time passes, then the job is still running */
	t0 = fake_now(r.fc);
	CHECK_EQ(rig_wait(&r, j, 1, &w), -ETIMEDOUT);
	CHECK_EQ(w.status, KOHAKU_JOB_RUNNING);
	CHECK(fake_now(r.fc) >= t0 + 1000000);

	fake_release(r.fc, 1, 1);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	rig_check_done(&w);
	/* reported once: the job is forgotten */
	CHECK_EQ(rig_wait(&r, j, 0, &w), -ENOENT);
	CHECK_EQ(rig_wait(&r, j, LONG_MS, &w), -ENOENT);
	CHECK_EQ(rig_wait(&r, j + 100, 0, &w), -ENOENT);
	rig_down(&r);
}

struct waiter {
	struct rig *r;
	u64 job;
	bool trap;		/* hold the waiter at its loop's first clock read */
	int ret;
	struct drm_kohaku_wait w;
};

static void *waiter_run(void *arg)
{
	struct waiter *wt = arg;

	/* WAIT reads the clock for its deadline, then in its loop */
	if (wt->trap)
		fake_trap_arm_self(wt->r->fc, 1);
	wt->ret = rig_wait(wt->r, wt->job, LONG_MS, &wt->w);
	return NULL;
}

TEST_F(core, unplug_ends_a_sleeping_wait)
{
	struct rig_prog a = { 1, 1, 0x91, 1 };
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	struct waiter wt = { .ret = 1 };
	pthread_t t;
	struct rig r;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 0);
	REQUIRE(rig_submit(&r, &a, 1, LONG_MS, &wt.job) == 0);
	REQUIRE(fake_wait_pushed(r.fc, 1, 1, 1, WALL_MS));
	wt.r = &r;
	REQUIRE(pthread_create(&t, NULL, waiter_run, &wt) == 0);
	nanosleep(&nap, NULL);
	rig_unplug(&r);
	pthread_join(t, NULL);
	CHECK_EQ(wt.ret, -ENODEV);
	CHECK_EQ(rig_submit(&r, &a, 1, 0, NULL), -ENODEV);
	rig_down(&r);
}

/* wait (wall time, at most WALL_MS) until n jobs of the mesh are final */
static bool jobs_done(struct rig *r, u64 n)
{
	struct drm_kohaku_get_param p = { .param = KOHAKU_PARAM_MESH_JOBS_DONE };
	struct timespec nap = { 0, 100000 };
	unsigned int i;

	for (i = 0; i <= WALL_MS * 10; i++) {
		if (kh_ioctl_call(r->kf, DRM_KOHAKU_GET_PARAM, &p) || p.value >= n)
			break;
		nanosleep(&nap, NULL);
	}
	return p.value >= n;
}

/*
 * A waiter sleeps on a running job; it has just checked that the job is
 * not final when the job finishes, and the engine, with nothing left on
 * the device, lets the card's time run to the waiter's deadline: WAIT must
 * still report the job, DONE well within its 60 s (docs/driver-core.md
 * "The progress engine"; uapi: ETIMEDOUT "when timeout_ms passed first").
 * The fake card holds the waiter at the clock read right after that check
 * until the engine's worker has finished the job and gone to sleep.
 */
TEST_F(core, wait_on_a_job_that_just_finished_reports_it)
{
	struct rig_prog a = { 1, 1, 0xa1, 1 };
	struct waiter wt = { .trap = true, .ret = 1 };
	pthread_t t;
	struct rig r;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 0);
	REQUIRE(rig_submit(&r, &a, 1, LONG_MS, &wt.job) == 0);
	REQUIRE(fake_wait_pushed(r.fc, 1, 1, 1, WALL_MS));
	wt.r = &r;
	REQUIRE(pthread_create(&t, NULL, waiter_run, &wt) == 0);
	REQUIRE(fake_trap_caught(r.fc, WALL_MS));
	fake_release(r.fc, 1, 1);
	CHECK(jobs_done(&r, 1));
	CHECK(rig_engine_asleep(&r, WALL_MS));
	fake_trap_release(r.fc);
	pthread_join(t, NULL);
	CHECK_MSG(wt.ret == 0, "WAIT(60000 ms) on a job that finished returned %d (status %u), device time now %llu ns",
		  wt.ret, wt.w.status, (unsigned long long)fake_now(r.fc));
	CHECK_EQ(wt.w.status, KOHAKU_JOB_DONE);
	rig_down(&r);
}

/*
 * The engine has found nothing to do and is about to let the card's time
 * run to the nearest waiter's deadline (kh_engine_idle()); just then a job
 * is submitted and waited for with a 60 s limit.  Nothing stops the job
 * from running, so the WAIT must report it DONE once the card lets it
 * finish (docs/driver-core.md "The progress engine": the card is run
 * forward with nothing on the device; "Time": a slow host never fails a
 * correct job).  The fake card holds the worker at the clock read that
 * begins kh_engine_idle() while the test submits and starts the waiter,
 * and holds the job's node until well after the worker was let go.
 */
TEST_F(core, idle_engine_does_not_skip_time_past_a_new_job)
{
	struct rig_prog first = { 1, 1, 0xb1, 1 }, next = { 2, 1, 0xb2, 1 };
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	struct drm_kohaku_wait w;
	struct waiter wt = { .ret = 1 };
	struct rig r;
	pthread_t t;
	u64 j;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	REQUIRE(rig_submit(&r, &first, 1, 0, &j) == 0);
	REQUIRE(jobs_done(&r, 1));

	/*
	 * The worker, kicked with nothing to do, goes to let the card's time
	 * pass (a WAIT on a final job no longer kicks it: the kick is the
	 * core's own, as an in-fence's callback would make it).  The
	 * maintenance worker, which the first job's clock raise kicked and
	 * which reads the card's clock too, is kept out of the trap: its
	 * pass begins with the lock held here (the first job is final when
	 * SUBMIT returns, so it may not have run yet).
	 */
	CHECK_EQ(rig_wait(&r, j, 0, &w), 0);
	mutex_lock(&r.kd->maint_lock);
	fake_trap_arm(r.fc);
	kh_engine_kick(r.kd);
	REQUIRE(fake_trap_caught(r.fc, WALL_MS));

	fake_hang(r.fc, 2, 1, 0);
	REQUIRE(rig_submit(&r, &next, 1, LONG_MS, &wt.job) == 0);
	wt.r = &r;
	REQUIRE(pthread_create(&t, NULL, waiter_run, &wt) == 0);
	/*
	 * Its second clock read comes after it registered its deadline; then
	 * it goes to sleep, which it has done long before 50 ms are over.
	 */
	CHECK(fake_trap_reads(r.fc, 2, WALL_MS));
	nanosleep(&nap, NULL);
	fake_trap_release(r.fc);
	mutex_unlock(&r.kd->maint_lock);
	/* the job runs for a while of wall time, then finishes */
	nanosleep(&nap, NULL);
	fake_release(r.fc, 2, 1);
	pthread_join(t, NULL);
	CHECK_MSG(wt.ret == 0, "WAIT(60000 ms) on a job that ran returned %d", wt.ret);
	rig_down(&r);
}

CHECK_TEST_MAIN
