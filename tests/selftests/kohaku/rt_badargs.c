// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * uapi negative tests: every refusal the ABI promises, each followed by a
 * good saxpy on the same open file to show the device is still usable.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "rt_test.h"


TEST_F(rt, ioctl_unknown_command)
{
	unsigned char buf[256];
	unsigned long c[] = {
		DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_NUM_IOCTLS, struct drm_kohaku_wait),
		DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_NUM_IOCTLS, struct drm_kohaku_get_info),
		DRM_IO(DRM_COMMAND_BASE + DRM_KOHAKU_NUM_IOCTLS + 1),
		DRM_IOWR(DRM_COMMAND_END - 1, struct drm_kohaku_nodes),
	};
	unsigned int i;
	RT_OPEN(dev);

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int r;

		memset(buf, 0, sizeof(buf));
		r = rt_ioctl(dev, c[i], buf);
		CHECK_MSG(r == -ENOTTY, "command 0x%08lx: %d (%s), expected -ENOTTY",
			  c[i], r, kohaku_strerror(r));
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, ioctl_null_argument)
{
	unsigned int i;
	RT_OPEN(dev);

	for (i = 0; i < RT_N_CMDS; i++) {
		unsigned long c = rt_cmds[i].cmd;
		int r = rt_ioctl(dev, c, NULL);

		CHECK_MSG(r == -EFAULT, "%s with a NULL argument: %d, expected -EFAULT",
			  rt_cmds[i].name, r);
		/*
		 * a newer caller's longer struct: its tail is never looked
		 * for past NULL (no pointer computed from NULL)
		 */
		c = _IOC(_IOC_DIR(c), _IOC_TYPE(c), _IOC_NR(c), _IOC_SIZE(c) + 8);
		r = rt_ioctl(dev, c, NULL);
		CHECK_MSG(r == -EFAULT, "%s, 8 bytes longer, with a NULL argument: %d, expected -EFAULT",
			  rt_cmds[i].name, r);
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, ioctl_nonzero_flags_pad_reserved)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_nodes nr;
	struct drm_kohaku_node nd[16];
	unsigned int k;
	RT_OPEN(dev);

	memset(&in, 0, sizeof(in));
	in.flags = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in), -EINVAL);
	for (k = 0; k < 4; k++) {
		memset(&in, 0, sizeof(in));
		in.reserved[k] = 1ULL << (k * 16);
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in), -EINVAL);
	}
	memset(&nr, 0, sizeof(nr));
	nr.capacity = 16;
	nr.node_size = sizeof(nd[0]);
	nr.nodes_ptr = (uintptr_t)nd;
	nr.flags = KOHAKU_NODES_LIVE << 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &nr), -EINVAL);
	nr.flags = 0x80000000u;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &nr), -EINVAL);
	nr.flags = 0;
	nr.reserved[1] = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &nr), -EINVAL);
	nr.reserved[1] = 0;
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &nr));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/* a valid one-program SUBMIT on the first SX unit, for mutating */
struct sub {
	struct drm_kohaku_submit s;
	struct drm_kohaku_program p[KOHAKU_MAX_PROGRAMS + 2];
	struct kohaku_inst inst[4];
	struct rt_vec v;
	struct drm_kohaku_node sx[16];
	unsigned int n_sx;
};

static bool sub_init(kohaku_device *dev, struct sub *b)
{
	memset(b, 0, sizeof(*b));
	b->n_sx = rt_nodes_of(dev, KH_CU_SX, b->sx, 16);
	if (!b->n_sx || rt_vec_setup(dev, b->sx[0].mesh, 16, 1, &b->v))
		return false;
	kohaku_inst_saxpy(&b->inst[0], 16, 2.0f, b->v.ax, b->v.ay);
	b->inst[1] = b->inst[2] = b->inst[3] = b->inst[0];
	b->p[0].mesh = b->sx[0].mesh;
	b->p[0].x = b->sx[0].x;
	b->p[0].y = b->sx[0].y;
	b->p[0].n_insts = 1;
	b->p[0].insts_ptr = (uintptr_t)b->inst;
	b->s.n_programs = 1;
	b->s.programs_ptr = (uintptr_t)b->p;
	b->s.program_size = sizeof(b->p[0]);
	return true;
}

static void sub_reset(struct sub *b)
{
	unsigned int i;

	memset(&b->s, 0, sizeof(b->s));
	b->s.n_programs = 1;
	b->s.programs_ptr = (uintptr_t)b->p;
	b->s.program_size = sizeof(b->p[0]);
	for (i = 0; i < KOHAKU_MAX_PROGRAMS + 2; i++) {
		memset(&b->p[i], 0, sizeof(b->p[i]));
		b->p[i].mesh = b->sx[0].mesh;
		b->p[i].x = b->sx[0].x;
		b->p[i].y = b->sx[0].y;
		b->p[i].n_insts = 1;
		b->p[i].insts_ptr = (uintptr_t)b->inst;
	}
}

static int submit(kohaku_device *dev, struct sub *b)
{
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, &b->s);
}

static void wait_done(kohaku_device *dev, uint64_t job)
{
	struct kohaku_job_status st;

	CHECK_OK(dev, kohaku_wait(dev, job, KOHAKU_JOB_TIMEOUT_DEFAULT_MS * 2, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
}

TEST_F(rt, submit_bad_arguments)
{
	struct sub *b = malloc(sizeof(*b));
	int r;
	RT_OPEN(dev);

	REQUIRE(b);
	REQUIRE(sub_init(dev, b));

	/* the unmutated one is good */
	sub_reset(b);
	CHECK_OK(dev, submit(dev, b));
	CHECK(b->s.job_id != 0);
	wait_done(dev, b->s.job_id);

	sub_reset(b);
	b->s.flags = KOHAKU_SUBMIT_FLAGS + 1;	/* past the flags of ABI 0.8 */
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->s.flags = KOHAKU_SUBMIT_FILE_BOS | KOHAKU_SUBMIT_UNCHECKED;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->s.refused_pad = 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->s.reserved[0] = 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->s.reserved[1] = 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	/* below ABI 0.1's struct; past ours with the next entry's bytes */
	sub_reset(b);
	b->s.program_size = KOHAKU_PROGRAM_SIZE_MIN - 8;
	CHECK_ERR(submit(dev, b), -EINVAL);
	/* ABI 0.4's struct, without the data fields: taken */
	sub_reset(b);
	b->s.program_size = KOHAKU_PROGRAM_SIZE_MIN;
	CHECK_OK(dev, submit(dev, b));
	wait_done(dev, b->s.job_id);
	sub_reset(b);
	b->s.program_size = sizeof(b->p[0]) + 8;
	CHECK_ERR(submit(dev, b), -E2BIG);
	sub_reset(b);
	b->s.program_size = 0;
	CHECK_ERR(submit(dev, b), -EINVAL);

	/* n_programs 0 and too many */
	sub_reset(b);
	b->s.n_programs = 0;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->s.n_programs = KOHAKU_MAX_PROGRAMS + 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->s.n_programs = 0xffffffffu;
	CHECK_ERR(submit(dev, b), -EINVAL);

	/* per-program fields */
	sub_reset(b);
	b->p[0].flags = 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->p[0].pad = 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->p[0].reserved = 1;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->p[0].n_insts = 0;
	CHECK_ERR(submit(dev, b), -EINVAL);
	sub_reset(b);
	b->p[0].n_insts = KOHAKU_MAX_JOB_INSTS + 1;	/* before any copy */
	r = submit(dev, b);
	CHECK_MSG(r == -EINVAL || r == -E2BIG || r == -EFAULT,
		  "n_insts %u: %d", KOHAKU_MAX_JOB_INSTS + 1, r);

	/* targets that are not enumerated nodes */
	{
		static const struct { uint8_t mesh, x, y; } bad[] = {
			{ 0, 0, 0 }, { 0, 15, 15 }, { 0, 0, 1 } /* the MAG port */,
			{ 1, 1, 0 }, { 3, 1, 0 }, { 4, 1, 0 }, { 0xff, 1, 0 },
			{ 0, 0xff, 0xff }, { 0, 16, 0 },
			/* aliases of (1,0) and (1,2) if the driver masked to 4 bits */
			{ 0, 17, 0 }, { 0, 1, 16 }, { 0, 0x11, 0x12 }, { 0, 1, 0x12 },
		};
		unsigned int i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			sub_reset(b);
			b->p[0].mesh = bad[i].mesh;
			b->p[0].x = bad[i].x;
			b->p[0].y = bad[i].y;
			r = submit(dev, b);
			CHECK_MSG(r == -EINVAL, "target mesh %u (%u,%u): %d, "
				  "expected -EINVAL", bad[i].mesh, bad[i].x,
				  bad[i].y, r);
		}
		/* a tied-off port is not a node either (the saxpy map's (1,1)) */
		if (!strcmp(rt_map()->name, "saxpy")) {
			sub_reset(b);
			b->p[0].x = 1;
			b->p[0].y = 1;
			CHECK_ERR(submit(dev, b), -EINVAL);
			sub_reset(b);
			b->p[0].x = 2;
			b->p[0].y = 1;
			CHECK_ERR(submit(dev, b), -EINVAL);
		}
	}

	/* duplicate target */
	sub_reset(b);
	b->s.n_programs = 2;
	CHECK_ERR(submit(dev, b), -EINVAL);
	if (b->n_sx > 1) {
		sub_reset(b);
		b->s.n_programs = 3;
		b->p[1].x = b->sx[1].x;
		b->p[1].y = b->sx[1].y;
		CHECK_ERR(submit(dev, b), -EINVAL);	/* p[2] repeats p[0] */
	}
	/* one bad program among good ones refuses the whole job */
	if (b->n_sx > 1) {
		sub_reset(b);
		b->s.n_programs = 2;
		b->p[1].x = b->sx[1].x;
		b->p[1].y = b->sx[1].y;
		b->p[1].n_insts = 0;
		CHECK_ERR(submit(dev, b), -EINVAL);
	}

	/*
	 * NULL pointers: EFAULT before any pointer is computed from NULL
	 * (undefined in C: the sanitizer builds abort on it in-process)
	 */
	sub_reset(b);
	b->s.programs_ptr = 0;
	CHECK_ERR(submit(dev, b), -EFAULT);
	sub_reset(b);
	b->s.programs_ptr = 0;
	b->s.n_programs = 2;
	CHECK_ERR(submit(dev, b), -EFAULT);
	sub_reset(b);
	b->s.programs_ptr = 0;
	b->s.program_size = sizeof(b->p[0]) + 8;	/* a newer caller's */
	CHECK_ERR(submit(dev, b), -EFAULT);
	sub_reset(b);
	b->p[0].insts_ptr = 0;
	CHECK_ERR(submit(dev, b), -EFAULT);
	sub_reset(b);
	b->s.n_in_syncobjs = 1;				/* in_syncobjs_ptr 0 */
	CHECK_ERR(submit(dev, b), -EFAULT);

	/* nothing refused left a job behind: the one good job id is gone */
	{
		struct drm_kohaku_wait w;

		memset(&w, 0, sizeof(w));
		w.job_id = b->s.job_id;
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);
	}
	rt_vec_free(dev, &b->v);
	free(b);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, submit_invalid_user_pointers_kernel)
{
	struct sub *b = malloc(sizeof(*b));
	void *page;
	RT_OPEN(dev);

	REQUIRE(b);
	if (kohaku_device_backend(dev) != KOHAKU_BACKEND_KERNEL) {
		free(b);
		kohaku_close(dev);
		SKIP(return, "in-process copies trust the pointer; only NULL faults");
	}
	REQUIRE(sub_init(dev, b));
	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(page != MAP_FAILED);
	sub_reset(b);
	b->s.programs_ptr = (uintptr_t)page;
	CHECK_ERR(submit(dev, b), -EFAULT);
	sub_reset(b);
	b->p[0].insts_ptr = (uintptr_t)page;
	CHECK_ERR(submit(dev, b), -EFAULT);
	sub_reset(b);
	b->p[0].insts_ptr = (uintptr_t)page - 16;	/* runs into the hole */
	CHECK_ERR(submit(dev, b), -EFAULT);
	{
		struct drm_kohaku_bo_rw rw;

		memset(&rw, 0, sizeof(rw));
		rw.handle = b->v.hy;
		rw.size = 64;
		rw.data_ptr = (uintptr_t)page;
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_WRITE, &rw), -EFAULT);
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_READ, &rw), -EFAULT);
	}
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, page), -EFAULT);
	munmap(page, 4096);
	rt_vec_free(dev, &b->v);
	free(b);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, wait_bad_arguments)
{
	struct sub *b = malloc(sizeof(*b));
	struct drm_kohaku_wait w;
	kohaku_device *dev2 = NULL;
	uint64_t job;
	unsigned int k;
	int r;
	RT_OPEN(dev);

	REQUIRE(b);
	REQUIRE(sub_init(dev, b));

	/* never-made job ids */
	memset(&w, 0, sizeof(w));
	w.job_id = 0;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);
	w.job_id = ~0ULL;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);
	w.job_id = 12345678;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);

	sub_reset(b);
	CHECK_OK(dev, submit(dev, b));
	job = b->s.job_id;

	/* flags, pad, reserved */
	memset(&w, 0, sizeof(w));
	w.job_id = job;
	w.flags = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -EINVAL);
	w.flags = 0x80000000u;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -EINVAL);
	for (k = 0; k < 2; k++) {
		memset(&w, 0, sizeof(w));
		w.job_id = job;
		if (k)
			w.reserved = 1ULL << 40;
		else
			w.reason_pad = 1;
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -EINVAL);
	}
	/* out fields are outputs: garbage in them is not refused */
	memset(&w, 0, sizeof(w));
	w.job_id = job;
	w.status = 77;
	w.fault_flags = 0xff;
	w.n_faults = 5;
	w.device_ns = ~0ULL;
	w.reason = 9;
	w.timeout_ms = 0;
	r = rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w);
	CHECK_MSG(r == 0 || r == -ETIMEDOUT, "WAIT with garbage outputs: %d", r);
	if (r == 0)
		job = 0;	/* it finished and is gone */

	if (!job) {
		sub_reset(b);
		CHECK_OK(dev, submit(dev, b));
		job = b->s.job_id;
	}
	/* another file's job */
	CHECK_OK(dev, kohaku_reopen(dev, &dev2));
	if (dev2) {
		memset(&w, 0, sizeof(w));
		w.job_id = job;
		w.timeout_ms = 100;
		CHECK_ERR(rt_ioctl(dev2, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);
		kohaku_close(dev2);
	}

	/* the owner waits it once; a second WAIT gets ENOENT */
	wait_done(dev, job);
	memset(&w, 0, sizeof(w));
	w.job_id = job;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);
	w.timeout_ms = 1000;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w), -ENOENT);
	CHECK(strstr(kohaku_last_error(dev), "job") != NULL);

	rt_vec_free(dev, &b->v);
	free(b);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, wait_timeout_zero_on_running_job)
{
	enum { N = 1 << 18 };
	struct drm_kohaku_node sx[16];
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct drm_kohaku_wait w;
	struct kohaku_job_status st;
	struct rt_vec v;
	uint64_t job;
	int r;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, N, 4, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 1.25f);
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 0, &job));
	memset(&w, 0, sizeof(w));
	w.job_id = job;
	w.timeout_ms = 0;
	r = rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w);
	CHECK_MSG(r == -ETIMEDOUT || r == 0, "WAIT 0 ms: %d", r);
	if (r == -ETIMEDOUT) {
		/* the job goes on and reports where it is */
		CHECK_MSG(w.status == KOHAKU_JOB_QUEUED || w.status == KOHAKU_JOB_RUNNING,
			  "status after ETIMEDOUT: %u", w.status);
		/* the library's wait says the same */
		r = kohaku_wait(dev, job, 0, &st, sizeof(st));
		if (r == -ETIMEDOUT)
			CHECK(st.status == KOHAKU_JOB_QUEUED ||
			      st.status == KOHAKU_JOB_RUNNING);
		if (r != 0)
			CHECK_OK(dev, kohaku_wait(dev, job,
						  KOHAKU_JOB_TIMEOUT_DEFAULT_MS * 2, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	} else {
		check_diag("WAIT 0 ms found the job final already (status %u)", w.status);
		CHECK(w.status >= KOHAKU_JOB_DONE);
	}
	CHECK_EQ(rt_vec_check(dev, &v, 1.25f, 1), 0);
	rt_vec_free(dev, &v);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, too_many_unwaited_jobs)
{
	struct sub *b = malloc(sizeof(*b));
	uint64_t jobs[KOHAKU_MAX_JOBS];
	unsigned int i, n = 0;
	int r;
	RT_OPEN(dev);

	REQUIRE(b);
	REQUIRE(sub_init(dev, b));
	for (i = 0; i < KOHAKU_MAX_JOBS; i++) {
		sub_reset(b);
		r = submit(dev, b);
		CHECK_MSG(r == 0, "job %u of %u: %d: %s", i + 1, KOHAKU_MAX_JOBS,
			  r, kohaku_last_error(dev));
		if (r)
			break;
		jobs[n++] = b->s.job_id;
	}
	sub_reset(b);
	r = submit(dev, b);
	/* the ABI's answer (docs/abi.md): EBUSY, until a job is waited */
	CHECK_MSG(r == -EBUSY, "job %u: %d, expected EBUSY", KOHAKU_MAX_JOBS + 1, r);
	if (r == 0)
		jobs[n < KOHAKU_MAX_JOBS ? n++ : n - 1] = b->s.job_id;
	/* one waited for, one more fits; then it is full again */
	if (n == KOHAKU_MAX_JOBS) {
		wait_done(dev, jobs[0]);
		sub_reset(b);
		r = submit(dev, b);
		CHECK_MSG(r == 0, "a job after one was waited for: %d: %s", r,
			  kohaku_last_error(dev));
		if (r == 0)
			jobs[0] = b->s.job_id;
		sub_reset(b);
		CHECK_EQ(submit(dev, b), -EBUSY);
	}
	for (i = 0; i < n; i++)
		wait_done(dev, jobs[i]);
	rt_vec_free(dev, &b->v);
	free(b);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, close_with_jobs_outstanding)
{
	struct sub *b = malloc(sizeof(*b));
	kohaku_device *dev2 = NULL;
	unsigned int i;
	RT_OPEN(dev);

	REQUIRE(b);
	CHECK_OK(dev, kohaku_reopen(dev, &dev2));
	REQUIRE(dev2);
	REQUIRE(sub_init(dev2, b));
	for (i = 0; i < 4; i++) {
		sub_reset(b);
		CHECK_OK(dev2, submit(dev2, b));
	}
	/* closed without waiting, BOs still allocated */
	kohaku_close(dev2);
	free(b);
	CHECK(rt_good_saxpy(dev));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

RT_TEST_MAIN
