// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The lock-order checking of the userspace builds of driver/core
 * (<linux/mutex.h> and <linux/lockdep.h> in libruntime/inproc/include,
 * libruntime/inproc/kh_os_mutex.c): one lock class per mutex_init() call
 * site, the order between classes learned as locks are taken, and a lock
 * that would close a cycle, a second lock of a class held, an assertion
 * or an unlock of a lock not held each abort at once.  Each test that
 * breaks a rule must die of the checker's abort, in a process of its own
 * (the harness forks per test, so each starts with nothing learned).  The last
 * ones run the driver core itself on a fake card first: the order its
 * SUBMIT takes the file's, the mesh's and the jobs' locks in is learned,
 * and taking two of them the other way round aborts.
 */
#include <pthread.h>

#include "check.h"
#include "core_rig.h"
#include "harness.h"
#include "expect_abort.h"

CHECK_FIXTURE(lockdep)

/* three locks, three init sites: three classes */
struct abc {
	struct mutex a, b, c;
};

static void abc_init(struct abc *l)
{
	mutex_init(&l->a);
	mutex_init(&l->b);
	mutex_init(&l->c);
}

static void take2(struct mutex *x, struct mutex *y)
{
	mutex_lock(x);
	mutex_lock(y);
	mutex_unlock(y);
	mutex_unlock(x);
}

/* every lock of this site is of one class */
static void same_class_init(struct mutex *m)
{
	mutex_init(m);
}

TEST_F(lockdep, one_order_kept_is_quiet)
{
	struct abc l;
	int i;

	abc_init(&l);
	for (i = 0; i < 3; i++) {
		take2(&l.a, &l.b);
		take2(&l.b, &l.c);
		take2(&l.a, &l.c);
		/* unlocked in any order */
		mutex_lock(&l.a);
		mutex_lock(&l.b);
		mutex_lock(&l.c);
		lockdep_assert_held(&l.a);
		lockdep_assert_held(&l.b);
		mutex_unlock(&l.a);
		lockdep_assert_held(&l.c);
		mutex_unlock(&l.c);
		mutex_unlock(&l.b);
	}
	/* two locks of one class, one after the other, never nested */
	{
		struct mutex x, y;

		same_class_init(&x);
		same_class_init(&y);
		take2(&l.a, &x);
		take2(&l.a, &y);
		mutex_destroy(&x);
		mutex_destroy(&y);
	}
	mutex_destroy(&l.a);
	mutex_destroy(&l.b);
	mutex_destroy(&l.c);
}

TEST_ABORTS(lockdep, ab_then_ba_aborts)
{
	struct abc l;

	abc_init(&l);
	take2(&l.a, &l.b);
	take2(&l.b, &l.a);	/* no deadlock this time: caught all the same */
	CHECK_MSG(0, "an AB-BA inversion went unseen");
}

static void *take_ab(void *arg)
{
	struct abc *l = arg;

	take2(&l->a, &l->b);
	return NULL;
}

TEST_ABORTS(lockdep, inversion_across_threads_aborts)
{
	struct abc l;
	pthread_t t;

	abc_init(&l);
	REQUIRE(pthread_create(&t, NULL, take_ab, &l) == 0);
	pthread_join(t, NULL);
	take2(&l.b, &l.a);
	CHECK_MSG(0, "an inversion against another thread's order went unseen");
}

TEST_ABORTS(lockdep, three_class_cycle_aborts)
{
	struct abc l;

	abc_init(&l);
	take2(&l.a, &l.b);
	take2(&l.b, &l.c);
	take2(&l.c, &l.a);	/* c -> a closes a -> b -> c */
	CHECK_MSG(0, "a cycle of three classes went unseen");
}

TEST_ABORTS(lockdep, two_of_one_class_nested_aborts)
{
	struct mutex x, y;

	same_class_init(&x);
	same_class_init(&y);
	take2(&x, &y);
	CHECK_MSG(0, "two locks of one class nested went unseen");
}

TEST_ABORTS(lockdep, assert_held_of_a_free_lock_aborts)
{
	struct abc l;

	abc_init(&l);
	lockdep_assert_held(&l.a);
	CHECK_MSG(0, "lockdep_assert_held() of a free lock passed");
}

static void *hold_a(void *arg)
{
	struct abc *l = arg;

	mutex_lock(&l->a);
	return NULL;
}

TEST_ABORTS(lockdep, assert_held_of_another_threads_lock_aborts)
{
	struct abc l;
	pthread_t t;

	abc_init(&l);
	REQUIRE(pthread_create(&t, NULL, hold_a, &l) == 0);
	pthread_join(t, NULL);
	lockdep_assert_held(&l.a);
	CHECK_MSG(0, "lockdep_assert_held() of another thread's lock passed");
}

TEST_ABORTS(lockdep, unlock_of_a_free_lock_aborts)
{
	struct abc l;

	abc_init(&l);
	mutex_unlock(&l.a);
	CHECK_MSG(0, "mutex_unlock() of a free lock passed");
}

TEST_ABORTS(lockdep, destroy_of_a_held_lock_aborts)
{
	struct abc l;

	abc_init(&l);
	mutex_lock(&l.a);
	mutex_destroy(&l.a);
	CHECK_MSG(0, "mutex_destroy() of a held lock passed");
}

/* the driver core runs a job: SUBMIT takes the file's lock, then the mesh's */
static void core_run_one(struct rig *r)
{
	struct rig_prog p = { .x = 1, .y = 1, .txn = 1, .n = 2 };
	struct drm_kohaku_wait w;

	REQUIRE(rig_up(r, rig_card(2, 16)) == 0);
	REQUIRE(rig_run(r, &p, 1, &w) == 0);
	rig_check_done(&w);
}

TEST_F(lockdep, the_core_keeps_its_order)
{
	struct rig r;

	core_run_one(&r);
	/* the documented nesting (docs/driver-core.md "Locking") is quiet */
	mutex_lock(&r.kf->lock);
	mutex_lock(&r.kd->mesh[0].lock);
	mutex_lock(&r.kd->jobs_lock);
	mutex_unlock(&r.kd->jobs_lock);
	mutex_unlock(&r.kd->mesh[0].lock);
	mutex_unlock(&r.kf->lock);
	rig_down(&r);
}

TEST_ABORTS(lockdep, the_core_mesh_lock_before_the_file_lock_aborts)
{
	struct rig r;

	core_run_one(&r);
	mutex_lock(&r.kd->mesh[0].lock);
	mutex_lock(&r.kf->lock);	/* SUBMIT took them the other way */
	CHECK_MSG(0, "the file's lock under the mesh's went unseen");
}

TEST_ABORTS(lockdep, the_core_jobs_lock_before_a_mesh_lock_aborts)
{
	struct rig r;

	core_run_one(&r);
	mutex_lock(&r.kd->jobs_lock);
	mutex_lock(&r.kd->mesh[0].lock);
	CHECK_MSG(0, "a mesh's lock under the jobs lock went unseen");
}

CHECK_TEST_MAIN
