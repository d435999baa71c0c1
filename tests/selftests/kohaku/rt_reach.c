// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a job may reach (ABI 0.8, KOHAKU_CAP_JOB_BOS): SUBMIT checks every
 * memory operand against the buffers the job names.  For the SX unit: an
 * operand one byte (one element) outside its buffer, in another file's
 * buffer, in a buffer named read-only and written, spanning two buffers;
 * each refused EACCES with the refused_* fields naming the program, the
 * instruction, the operand and the address, and nothing sent to the card
 * (the mesh's job count and the vectors unchanged).  The same job inside
 * its buffers runs bit-exact, by a list and by KOHAKU_SUBMIT_FILE_BOS.
 * The list's own refusals; the unprivileged opener (in-process:
 * KOHAKU_UNPRIVILEGED=1): ABI 0.7's form checked against nothing, no
 * KOHAKU_SUBMIT_UNCHECKED (EPERM), no administrator's command; the
 * administrator's 0.7 form and UNCHECKED run as before.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"

#define N	64	/* one SX instruction's elements */

struct reach {
	kohaku_device *dev;
	struct drm_kohaku_node sx;
	struct rt_vec v;
};

static bool reach_setup(struct reach *r, kohaku_device *dev)
{
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	if (!rt_nodes_of(dev, KH_CU_SX, &r->sx, 1))
		return false;
	return !rt_vec_setup(dev, r->sx.mesh, N, 3, &r->v);
}

/* SUBMIT one saxpy through the raw ioctl; the request is left in *s */
static int raw_saxpy(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     uint64_t x, uint64_t y, uint32_t flags,
		     const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		     struct drm_kohaku_submit *s)
{
	static struct kohaku_inst insts[2];

	memset(insts, 0, sizeof(insts));
	/* n 0 retires touching no memory: its addresses are not looked at */
	kohaku_inst_saxpy(&insts[0], 0, 1.0f, 0xdead000, 0xdead000);
	kohaku_inst_saxpy(&insts[1], N, 1.5f, x, y);
	return rt_submit_on(dev, nd, insts, 2, flags, bos, n_bos, s);
}

static void wait_final(kohaku_device *dev, uint64_t job, uint32_t want)
{
	struct kohaku_job_status st;

	CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, want);
}

/* refused with why at instruction 1, operand op, and nothing ran */
static void check_refused(struct reach *r, const struct drm_kohaku_submit *s,
			  int ret, uint32_t why, uint32_t op, uint64_t addr,
			  uint64_t before)
{
	CHECK_ERR(ret, -EACCES);
	CHECK_EQ(s->refused_why, why);
	CHECK_EQ(s->refused_program, 0);
	CHECK_EQ(s->refused_inst, 1);
	CHECK_EQ(s->refused_operand, op);
	CHECK_EQ(s->refused_addr, addr);
	CHECK_EQ(s->refused_len, N * 4);
	CHECK_EQ(rt_jobs_done(r->dev, r->sx.mesh), before);
}

TEST_F(rt, reach_sx_inside_runs_bit_exact)
{
	struct drm_kohaku_job_bo bos[2] = {
		{ .handle = 0, .flags = KOHAKU_JOB_BO_READ },
		{ .handle = 0, .flags = KOHAKU_JOB_BO_RW },
	};
	struct drm_kohaku_submit s;
	struct reach r;
	RT_OPEN(dev);

	if (!reach_setup(&r, dev)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	bos[0].handle = r.v.hx;
	bos[1].handle = r.v.hy;
	/* by a list: y first in the list, any order goes */
	CHECK_OK(dev, raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, bos, 2, &s));
	CHECK_EQ(s.refused_why, 0);
	wait_final(dev, s.job_id, KOHAKU_JOB_DONE);
	/* by the file's BOs */
	CHECK_OK(dev, raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay,
				KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s));
	wait_final(dev, s.job_id, KOHAKU_JOB_DONE);
	rt_vec_free(dev, &r.v);
	kohaku_close(dev);
}

TEST_F(rt, reach_sx_outside_refused_nothing_sent)
{
	struct drm_kohaku_job_bo bos[2] = {
		{ .flags = KOHAKU_JOB_BO_READ }, { .flags = KOHAKU_JOB_BO_RW },
	};
	struct drm_kohaku_submit s;
	uint64_t before, x_end, x_last;
	uint32_t hz;
	uint64_t az;
	struct reach r;
	char y0[N * 4], y1[N * 4];
	int ret;
	RT_OPEN(dev);

	if (!reach_setup(&r, dev)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	bos[0].handle = r.v.hx;
	bos[1].handle = r.v.hy;
	CHECK_OK(dev, kohaku_bo_read(dev, r.v.hy, 0, y0, sizeof(y0)));
	before = rt_jobs_done(dev, r.sx.mesh);

	/* one byte short: x in a BO of N * 4 - 1 bytes */
	{
		uint32_t hs;
		uint64_t as;
		struct drm_kohaku_job_bo sb[2] = {
			{ .flags = KOHAKU_JOB_BO_READ }, { .handle = r.v.hy, .flags = KOHAKU_JOB_BO_RW },
		};

		CHECK_OK(dev, kohaku_bo_create(dev, r.sx.mesh, N * 4 - 1, &hs, &as));
		sb[0].handle = hs;
		ret = raw_saxpy(dev, &r.sx, as, r.v.ay, 0, sb, 2, &s);
		check_refused(&r, &s, ret, KOHAKU_REFUSED_OUTSIDE, 0, as, before);
		CHECK_OK(dev, kohaku_bo_free(dev, hs));
	}
	/* x one word past its BO's end (x is exactly N floats): refused */
	x_end = r.v.ax + N * 4;
	ret = raw_saxpy(dev, &r.sx, r.v.ax + 32, r.v.ay, 0, bos, 2, &s);
	check_refused(&r, &s, ret, KOHAKU_REFUSED_OUTSIDE, 0, r.v.ax + 32, before);
	/* by FILE_BOS: past the BO is past every BO of the file there */
	x_last = x_end;
	ret = raw_saxpy(dev, &r.sx, x_last, r.v.ay, KOHAKU_SUBMIT_FILE_BOS,
			NULL, 0, &s);
	CHECK_ERR(ret, -EACCES);
	CHECK_EQ(s.refused_inst, 1);

	/* y named to read only, and written */
	bos[1].flags = KOHAKU_JOB_BO_READ;
	ret = raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, bos, 2, &s);
	CHECK_ERR(ret, -EACCES);
	check_refused(&r, &s, ret, KOHAKU_REFUSED_INTENT, 1, r.v.ay, before);
	bos[1].flags = KOHAKU_JOB_BO_RW;

	/* x's BO not named at all */
	ret = raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, &bos[1], 1, &s);
	check_refused(&r, &s, ret, KOHAKU_REFUSED_OUTSIDE, 0, r.v.ax, before);

	/* x spanning its BO and the next one of the file (if adjacent, still two) */
	CHECK_OK(dev, kohaku_bo_create(dev, r.sx.mesh, 4096, &hz, &az));
	ret = raw_saxpy(dev, &r.sx, r.v.ax + 4096 - 64, r.v.ay,
			KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	CHECK_ERR(ret, -EACCES);
	CHECK_EQ(s.refused_why, KOHAKU_REFUSED_OUTSIDE);
	CHECK_OK(dev, kohaku_bo_free(dev, hz));

	/* nothing of any refused job reached the card */
	CHECK_EQ(rt_jobs_done(dev, r.sx.mesh), before);
	CHECK_OK(dev, kohaku_bo_read(dev, r.v.hy, 0, y1, sizeof(y1)));
	CHECK(!memcmp(y0, y1, sizeof(y0)));
	rt_vec_free(dev, &r.v);
	kohaku_close(dev);
}

TEST_F(rt, reach_sx_other_files_buffer_refused)
{
	struct drm_kohaku_submit s;
	kohaku_device *other = NULL;
	struct reach r, o;
	uint64_t before;
	char y0[N * 4], y1[N * 4];
	int ret;
	RT_OPEN(dev);

	if (!reach_setup(&r, dev)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	CHECK_OK(dev, kohaku_reopen(dev, &other));
	REQUIRE(other);
	REQUIRE(reach_setup(&o, other));
	CHECK_OK(other, kohaku_bo_read(other, o.v.hy, 0, y0, sizeof(y0)));
	before = rt_jobs_done(dev, r.sx.mesh);
	/* the other file's y, as this file's job's y, through FILE_BOS */
	ret = raw_saxpy(dev, &r.sx, r.v.ax, o.v.ay, KOHAKU_SUBMIT_FILE_BOS,
			NULL, 0, &s);
	CHECK_ERR(ret, -EACCES);
	CHECK_EQ(s.refused_why, KOHAKU_REFUSED_OUTSIDE);
	CHECK_EQ(s.refused_addr, o.v.ay);
	/* or its x, to read */
	ret = raw_saxpy(dev, &r.sx, o.v.ax, r.v.ay, KOHAKU_SUBMIT_FILE_BOS,
			NULL, 0, &s);
	check_refused(&r, &s, ret, KOHAKU_REFUSED_OUTSIDE, 0, o.v.ax, before);
	/* naming its handle names nothing of this file */
	{
		struct drm_kohaku_job_bo b = { .handle = o.v.hy, .flags = KOHAKU_JOB_BO_RW };

		if (o.v.hy != r.v.hx && o.v.hy != r.v.hy)
			CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, o.v.ay, 0, &b, 1, &s),
				  -ENOENT);
	}
	CHECK_OK(other, kohaku_bo_read(other, o.v.hy, 0, y1, sizeof(y1)));
	CHECK(!memcmp(y0, y1, sizeof(y0)));
	CHECK_EQ(rt_jobs_done(dev, r.sx.mesh), before);
	rt_vec_free(other, &o.v);
	kohaku_close(other);
	rt_vec_free(dev, &r.v);
	kohaku_close(dev);
}

TEST_F(rt, reach_bo_list_refusals)
{
	struct drm_kohaku_job_bo b[2];
	struct drm_kohaku_submit s;
	struct reach r;
	RT_OPEN(dev);

	if (!reach_setup(&r, dev)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	memset(b, 0, sizeof(b));
	b[0].handle = r.v.hx;
	b[0].flags = KOHAKU_JOB_BO_READ;
	b[1].handle = r.v.hy;
	b[1].flags = KOHAKU_JOB_BO_RW;
	/* flags 0, unknown flags, reserved */
	b[0].flags = 0;
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 2, &s), -EINVAL);
	b[0].flags = 4;
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 2, &s), -EINVAL);
	b[0].flags = KOHAKU_JOB_BO_READ;
	b[0].reserved = 1;
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 2, &s), -EINVAL);
	b[0].reserved = 0;
	/* a handle twice */
	b[1].handle = r.v.hx;
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 2, &s), -EINVAL);
	/* no such handle */
	b[1].handle = 0xfffff;
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 2, &s), -ENOENT);
	b[1].handle = r.v.hy;
	/* a list with FILE_BOS; a count without a pointer and the reverse; too many */
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, KOHAKU_SUBMIT_FILE_BOS,
			    b, 2, &s), -EINVAL);
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, NULL, 2, &s), -EINVAL);
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 0, &s), -EINVAL);
	CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b,
			    KOHAKU_MAX_JOB_BOS + 1, &s), -EINVAL);
	/* a pointer to nothing (in-process only NULL faults, refused above) */
	if (strcmp(getenv("KOHAKU_BACKEND"), "sim"))
		CHECK_ERR(raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0,
				    (const struct drm_kohaku_job_bo *)(uintptr_t)8, 2, &s),
			  -EFAULT);
	/* and the good list still runs */
	CHECK_OK(dev, raw_saxpy(dev, &r.sx, r.v.ax, r.v.ay, 0, b, 2, &s));
	wait_final(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(rt_vec_check(dev, &r.v, 1.5f, 1), 0);
	rt_vec_free(dev, &r.v);
	kohaku_close(dev);
}

/* the library: its default names the file's BOs, its message says where */
TEST_F(rt, reach_library_names_and_says)
{
	struct kohaku_job_bo jb[2];
	struct kohaku_submit_args a;
	struct kohaku_program p;
	struct kohaku_inst in;
	uint64_t job;
	struct reach r;
	RT_OPEN(dev);

	if (!reach_setup(&r, dev)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	kohaku_inst_saxpy(&in, N, 1.5f, r.v.ax, r.v.ay);
	rt_prog_on(&p, &r.sx, &in, 1);
	memset(&a, 0, sizeof(a));
	a.programs = &p;
	a.n_programs = 1;
	jb[0].handle = r.v.hx;
	jb[0].access = KOHAKU_JOB_BO_READ;
	a.bos = jb;
	a.n_bos = 1;
	CHECK_ERR(kohaku_submit_ex(dev, &a, &job), -EACCES);
	CHECK(strstr(kohaku_last_error(dev), "instruction 0, operand 1") != NULL);
	CHECK(strstr(kohaku_last_error(dev), "no buffer the job names") != NULL);
	jb[1].handle = r.v.hy;
	jb[1].access = KOHAKU_JOB_BO_RW;
	a.n_bos = 2;
	CHECK_OK(dev, kohaku_submit_ex(dev, &a, &job));
	wait_final(dev, job, KOHAKU_JOB_DONE);
	/* no list: every BO of the file */
	a.bos = NULL;
	a.n_bos = 0;
	CHECK_OK(dev, kohaku_submit_ex(dev, &a, &job));
	wait_final(dev, job, KOHAKU_JOB_DONE);
	CHECK_EQ(rt_vec_check(dev, &r.v, 1.5f, 2), 0);
	rt_vec_free(dev, &r.v);
	kohaku_close(dev);
}

#define open_unprivileged(dev)	rt_reopen_unprivileged(dev)

TEST_F(rt, reach_legacy_form_and_privilege)
{
	struct drm_kohaku_submit s;
	kohaku_device *u;
	struct reach r, ur;
	uint64_t outside;
	RT_OPEN(dev);

	if (!reach_setup(&r, dev)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	/* past y's size but in its 4 KiB allocation: no BO's bytes, nobody's */
	outside = r.v.ay + 2048;
	/* the administrator's 0.7 form is not checked */
	CHECK_OK(dev, raw_saxpy(dev, &r.sx, r.v.ax, outside, 0, NULL, 0, &s));
	wait_final(dev, s.job_id, KOHAKU_JOB_DONE);
	/* nor UNCHECKED */
	CHECK_OK(dev, raw_saxpy(dev, &r.sx, r.v.ax, outside,
				KOHAKU_SUBMIT_UNCHECKED, NULL, 0, &s));
	wait_final(dev, s.job_id, KOHAKU_JOB_DONE);

	u = open_unprivileged(dev);
	REQUIRE(u);
	REQUIRE(reach_setup(&ur, u));
	/* the 0.7 form from an unprivileged opener names no buffer */
	CHECK_ERR(raw_saxpy(u, &ur.sx, ur.v.ax, ur.v.ay, 0, NULL, 0, &s), -EACCES);
	CHECK_EQ(s.refused_why, KOHAKU_REFUSED_OUTSIDE);
	CHECK_ERR(raw_saxpy(u, &ur.sx, ur.v.ax, ur.v.ay, KOHAKU_SUBMIT_UNCHECKED,
			    NULL, 0, &s), -EPERM);
	/* its own buffers by FILE_BOS run; the administrator's do not */
	CHECK_OK(u, raw_saxpy(u, &ur.sx, ur.v.ax, ur.v.ay, KOHAKU_SUBMIT_FILE_BOS,
			      NULL, 0, &s));
	wait_final(u, s.job_id, KOHAKU_JOB_DONE);
	CHECK_ERR(raw_saxpy(u, &ur.sx, ur.v.ax, r.v.ay, KOHAKU_SUBMIT_FILE_BOS,
			    NULL, 0, &s), -EACCES);
	/* an administrator's command: EACCES, as DRM_ROOT_ONLY answers */
	{
		struct drm_kohaku_reset rs;

		memset(&rs, 0, sizeof(rs));
		rs.mesh = ur.sx.mesh;
		CHECK_ERR(rt_ioctl(u, DRM_IOCTL_KOHAKU_RESET, &rs), -EACCES);
	}
	rt_vec_free(u, &ur.v);
	kohaku_close(u);
	rt_vec_free(dev, &r.v);
	kohaku_close(dev);
}

/* a unit the driver cannot check: the administrator's only */
TEST_F(rt, reach_cpu_needs_admin)
{
	struct drm_kohaku_node nd;
	struct drm_kohaku_submit s;
	struct drm_kohaku_program p;
	struct kohaku_inst in;
	kohaku_device *dev, *u;

	dev = rt_open_card("cpu_2x1");
	REQUIRE(dev);
	if (!rt_nodes_of(dev, KH_CU_RV, &nd, 1)) {
		rt_close_card(dev);
		SKIP(return, "no cpu unit on this device");
	}
	u = open_unprivileged(dev);
	REQUIRE(u);
	kohaku_inst_cpu_kick(&in, 0, 0);
	memset(&p, 0, sizeof(p));
	p.mesh = nd.mesh;
	p.x = nd.x;
	p.y = nd.y;
	p.n_insts = 1;
	p.insts_ptr = (uintptr_t)&in;
	memset(&s, 0, sizeof(s));
	s.n_programs = 1;
	s.programs_ptr = (uintptr_t)&p;
	s.program_size = sizeof(p);
	s.flags = KOHAKU_SUBMIT_FILE_BOS;
	CHECK_ERR(rt_ioctl(u, DRM_IOCTL_KOHAKU_SUBMIT, &s), -EACCES);
	CHECK_EQ(s.refused_why, KOHAKU_REFUSED_UNCHECKABLE);
	CHECK_EQ(s.refused_program, 0);
	kohaku_close(u);
	rt_close_card(dev);
}

RT_TEST_MAIN
