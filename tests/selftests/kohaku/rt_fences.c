// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Fences (ABI 0.2): SUBMIT's out-syncobj and in-syncobjs, waiting on many
 * jobs at once with DRM_IOCTL_SYNCOBJ_WAIT (kohaku_syncobj_wait), poll()
 * on the file descriptor a syncobj exports (kohaku_syncobj_fd), and the
 * DRM core's own refusals.  The same code runs on kohaku.ko (the DRM core's
 * syncobjs) and in-process (libkohaku's).
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"

#define N_JOBS	6

struct fjob {
	struct rt_vec v;
	struct kohaku_program p;
	struct kohaku_inst inst;
	uint32_t so;
	uint64_t id;
};

/* a saxpy of n elements on node nd, its fence into a new syncobj */
static bool fjob_submit(kohaku_device *dev, const struct drm_kohaku_node *nd,
			struct fjob *j, unsigned long n, unsigned int salt,
			const uint32_t *in, unsigned int n_in)
{
	struct kohaku_submit_args a;

	memset(j, 0, sizeof(*j));
	if (rt_vec_setup(dev, nd->mesh, n, salt, &j->v))
		return false;
	rt_prog_saxpy(&j->p, &j->inst, 1, nd, &j->v, 1.5f);
	if (kohaku_syncobj_create(dev, &j->so)) {
		check_fail_at(__FILE__, __LINE__, "syncobj: %s", kohaku_last_error(dev));
		return false;
	}
	memset(&a, 0, sizeof(a));
	a.programs = &j->p;
	a.n_programs = 1;
	a.in_syncobjs = in;
	a.n_in_syncobjs = n_in;
	a.out_syncobj = j->so;
	if (kohaku_submit_ex(dev, &a, &j->id)) {
		check_fail_at(__FILE__, __LINE__, "submit: %s", kohaku_last_error(dev));
		return false;
	}
	return true;
}

/* WAIT reports it final with this status, once; the data is right if DONE */
static void fjob_finish(kohaku_device *dev, struct fjob *j, uint32_t status)
{
	struct kohaku_job_status st;

	CHECK_OK(dev, kohaku_wait(dev, j->id, 60000, &st, sizeof(st)));
	CHECK_MSG(st.status == status, "job %llu: %s, expected %s",
		  (unsigned long long)j->id, kohaku_job_status_name(st.status),
		  kohaku_job_status_name(status));
	if (status == KOHAKU_JOB_DONE)
		CHECK_EQ(rt_vec_check(dev, &j->v, 1.5f, 1), 0);
	CHECK_ERR(kohaku_wait(dev, j->id, 0, &st, sizeof(st)), -ENOENT);
	CHECK_OK(dev, kohaku_syncobj_destroy(dev, j->so));
	rt_vec_free(dev, &j->v);
}

TEST_F(rt, out_fences_wait_all)
{
	struct drm_kohaku_node sx[16];
	struct fjob *j = calloc(N_JOBS, sizeof(*j));
	uint32_t h[N_JOBS];
	unsigned int i, n_sx;
	RT_OPEN(dev);

	REQUIRE(j);
	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n_sx > 0);
	for (i = 0; i < N_JOBS; i++) {
		REQUIRE(fjob_submit(dev, &sx[i % n_sx], &j[i], 100 + 37 * i, i,
				    NULL, 0));
		h[i] = j[i].so;
	}
	/* once they all signalled, every job is final: WAIT(0) sees it */
	CHECK_OK(dev, kohaku_syncobj_wait(dev, h, N_JOBS, KOHAKU_SYNCOBJ_WAIT_ALL,
					  60000, NULL));
	for (i = 0; i < N_JOBS; i++)
		fjob_finish(dev, &j[i], KOHAKU_JOB_DONE);
	free(j);
	kohaku_close(dev);
}

TEST_F(rt, out_fences_wait_any)
{
	struct drm_kohaku_node sx[16];
	struct fjob j[2];
	struct kohaku_job_status st;
	unsigned int first = 99;
	uint32_t h[2];
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	/* a long job, then a short one: a mesh runs its jobs in order */
	REQUIRE(fjob_submit(dev, &sx[0], &j[0], 20000, 1, NULL, 0));
	REQUIRE(fjob_submit(dev, &sx[0], &j[1], 8, 2, NULL, 0));
	h[0] = j[1].so;
	h[1] = j[0].so;
	CHECK_OK(dev, kohaku_syncobj_wait(dev, h, 2, 0, 60000, &first));
	/* whichever it names has signalled; the long one was first in line */
	CHECK(first == 0 || first == 1);
	CHECK_OK(dev, kohaku_wait(dev, first ? j[0].id : j[1].id, 60000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(dev, kohaku_syncobj_wait(dev, h, 2, KOHAKU_SYNCOBJ_WAIT_ALL,
					  60000, NULL));
	/* the short job cannot have finished before the long one */
	CHECK_OK(dev, kohaku_syncobj_wait(dev, &h[1], 1, 0, 0, NULL));
	CHECK_EQ(rt_vec_check(dev, &j[0].v, 1.5f, 1), 0);
	CHECK_EQ(rt_vec_check(dev, &j[1].v, 1.5f, 1), 0);
	/* the job the wait reported was forgotten; the other is not yet */
	fjob_finish(dev, &j[first ? 1 : 0], KOHAKU_JOB_DONE);
	CHECK_OK(dev, kohaku_syncobj_destroy(dev, j[first ? 0 : 1].so));
	rt_vec_free(dev, &j[first ? 0 : 1].v);
	kohaku_close(dev);
}

TEST_F(rt, out_fence_poll_fd)
{
	struct drm_kohaku_node sx[16];
	struct pollfd pfd;
	struct fjob j;
	int fd = -1, fd2 = -1, r;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(fjob_submit(dev, &sx[0], &j, 4096, 7, NULL, 0));
	CHECK_OK(dev, kohaku_syncobj_fd(dev, j.so, &fd));
	REQUIRE(fd >= 0);
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	r = poll(&pfd, 1, 60000);
	CHECK_EQ(r, 1);
	CHECK(pfd.revents & POLLIN);
	/* final by then: WAIT with 0 reports it */
	fjob_finish(dev, &j, KOHAKU_JOB_DONE);
	/* still readable after the syncobj is gone: the fd holds the fence */
	pfd.revents = 0;
	CHECK_EQ(poll(&pfd, 1, 0), 1);
	close(fd);

	/* a syncobj created signalled exports a readable fd at once */
	{
		struct drm_syncobj_create c = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };

		CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_SYNCOBJ_CREATE, &c));
		CHECK_OK(dev, kohaku_syncobj_fd(dev, c.handle, &fd2));
		pfd.fd = fd2;
		pfd.revents = 0;
		CHECK_EQ(poll(&pfd, 1, 0), 1);
		close(fd2);
		CHECK_OK(dev, kohaku_syncobj_destroy(dev, c.handle));
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, in_fences_order_jobs)
{
	struct drm_kohaku_node sx[16];
	struct fjob a, b;
	unsigned int n_sx;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, 16);
	REQUIRE(n_sx > 0);
	REQUIRE(fjob_submit(dev, &sx[0], &a, 5000, 11, NULL, 0));
	/* b waits for a's fence: a's result is in y before b starts */
	REQUIRE(fjob_submit(dev, &sx[n_sx - 1], &b, 64, 12, &a.so, 1));
	CHECK_OK(dev, kohaku_syncobj_wait(dev, &b.so, 1, 0, 60000, NULL));
	/* b signalled: a had to before it */
	CHECK_OK(dev, kohaku_syncobj_wait(dev, &a.so, 1, 0, 0, NULL));
	fjob_finish(dev, &a, KOHAKU_JOB_DONE);
	fjob_finish(dev, &b, KOHAKU_JOB_DONE);
	kohaku_close(dev);
}

/* a job whose in-fence signals an error never runs: ABORTED */
TEST_F(rt, in_fence_error_aborts)
{
	struct drm_kohaku_node sx[16];
	struct fjob a, b, c;
	uint64_t bad = 0;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	memset(&a, 0, sizeof(a));
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 8, 21, &a.v) == 0);
	/* an unknown SX opcode faults: a ends FAULT, its fence with an error */
	kohaku_inst_sx(&a.inst, 0x7f, 8, 0, a.v.ax, a.v.ay);
	a.p.mesh = sx[0].mesh;
	a.p.x = sx[0].x;
	a.p.y = sx[0].y;
	a.p.n_insts = 1;
	a.p.insts = &a.inst;
	REQUIRE(kohaku_syncobj_create(dev, &a.so) == 0);
	{
		struct kohaku_submit_args args = {
			.programs = &a.p, .n_programs = 1, .out_syncobj = a.so,
		};

		CHECK_OK(dev, kohaku_submit_ex(dev, &args, &bad));
	}
	a.id = bad;
	REQUIRE(fjob_submit(dev, &sx[0], &b, 8, 22, &a.so, 1));
	/* and c waits for b: the abort carries on down the chain */
	REQUIRE(fjob_submit(dev, &sx[0], &c, 8, 23, &b.so, 1));
	CHECK_OK(dev, kohaku_syncobj_wait(dev, &c.so, 1, 0, 60000, NULL));
	fjob_finish(dev, &a, KOHAKU_JOB_FAULT);
	fjob_finish(dev, &b, KOHAKU_JOB_ABORTED);
	fjob_finish(dev, &c, KOHAKU_JOB_ABORTED);
	/* the mesh is fine */
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, in_fence_signalled_stub)
{
	struct drm_kohaku_node sx[16];
	struct drm_syncobj_create c = { .flags = DRM_SYNCOBJ_CREATE_SIGNALED };
	struct fjob j;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_SYNCOBJ_CREATE, &c));
	REQUIRE(fjob_submit(dev, &sx[0], &j, 99, 31, &c.handle, 1));
	CHECK_OK(dev, kohaku_syncobj_wait(dev, &j.so, 1, 0, 60000, NULL));
	fjob_finish(dev, &j, KOHAKU_JOB_DONE);
	CHECK_OK(dev, kohaku_syncobj_destroy(dev, c.handle));
	kohaku_close(dev);
}

/* the refusals: each leaves the file usable */
TEST_F(rt, fence_refusals)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_submit_args a;
	struct kohaku_program p;
	struct kohaku_inst inst;
	uint32_t empty, many[KOHAKU_MAX_IN_FENCES + 1], bogus = 0x7fff1234;
	struct rt_vec v;
	uint64_t id;
	unsigned int i;
	int fd;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 8, 41, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.0f);
	REQUIRE(kohaku_syncobj_create(dev, &empty) == 0);
	memset(&a, 0, sizeof(a));
	a.programs = &p;
	a.n_programs = 1;

	/* an in-syncobj no job was submitted on: EINVAL (DRM's rule) */
	a.in_syncobjs = &empty;
	a.n_in_syncobjs = 1;
	CHECK_ERR(kohaku_submit_ex(dev, &a, &id), -EINVAL);
	/* a handle this file does not have */
	a.in_syncobjs = &bogus;
	CHECK_ERR(kohaku_submit_ex(dev, &a, &id), -ENOENT);
	a.in_syncobjs = NULL;
	a.n_in_syncobjs = 0;
	a.out_syncobj = bogus;
	CHECK_ERR(kohaku_submit_ex(dev, &a, &id), -ENOENT);
	a.out_syncobj = 0;
	/* too many */
	for (i = 0; i < KOHAKU_MAX_IN_FENCES + 1; i++)
		many[i] = empty;
	a.in_syncobjs = many;
	a.n_in_syncobjs = KOHAKU_MAX_IN_FENCES + 1;
	CHECK_ERR(kohaku_submit_ex(dev, &a, &id), -EINVAL);
	/* a NULL handle array */
	a.in_syncobjs = NULL;
	a.n_in_syncobjs = 1;
	CHECK_ERR(kohaku_submit_ex(dev, &a, &id), -EFAULT);

	/* waiting on an empty syncobj, or a bad handle */
	CHECK_ERR(kohaku_syncobj_wait(dev, &empty, 1, 0, 0, NULL), -EINVAL);
	CHECK_ERR(kohaku_syncobj_wait(dev, &bogus, 1, 0, 0, NULL), -ENOENT);
	CHECK_ERR(kohaku_syncobj_fd(dev, empty, &fd), -EINVAL);
	CHECK_ERR(kohaku_syncobj_destroy(dev, bogus), -EINVAL);

	CHECK_OK(dev, kohaku_syncobj_destroy(dev, empty));
	rt_vec_free(dev, &v);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/* another open file's syncobjs are not this one's */
TEST_F(rt, fences_per_file)
{
	struct drm_kohaku_node sx[16];
	kohaku_device *other = NULL;
	struct fjob j;
	uint32_t mine;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(kohaku_reopen(dev, &other) == 0);
	REQUIRE(fjob_submit(dev, &sx[0], &j, 8, 51, NULL, 0));
	/* handle numbers are per file: other's handle 1 is not dev's */
	REQUIRE(kohaku_syncobj_create(other, &mine) == 0);
	CHECK_ERR(kohaku_syncobj_wait(other, &j.so, 1, 0, 0, NULL),
		  j.so == mine ? -EINVAL : -ENOENT);
	CHECK_OK(dev, kohaku_syncobj_wait(dev, &j.so, 1, 0, 60000, NULL));
	fjob_finish(dev, &j, KOHAKU_JOB_DONE);
	CHECK_OK(other, kohaku_syncobj_destroy(other, mine));
	kohaku_close(other);
	kohaku_close(dev);
}

RT_TEST_MAIN
