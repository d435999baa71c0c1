// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Mesh leases (ABI 0.8, KOHAKU_CAP_LEASE; docs/abi.md "Mesh leases"): an
 * unprivileged file's cpu job is refused UNCHECKABLE without the lease and
 * runs with it (its stores land in its buffer); while it is held another
 * file's BO_CREATE and SUBMIT on the mesh are EBUSY, an administrator's
 * included, and work again after GIVE and after the holder closes; TAKE
 * is refused while another file has a BO there or a job not yet final
 * and works twice over; other files stay out after GIVE until the jobs
 * that ran under the lease are final;
 * bad flags, reserved and mesh are EINVAL, as is a GIVE of a mesh not
 * held.  On the built-in cpu_2x1 card (in-process), or the device under
 * test with cpu units on kohaku.ko.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "kohaku-asm.h"
#include "kohaku/kh_cpu.h"

#define MAX_CPU		16

static int lease(kohaku_device *dev, unsigned int mesh, uint32_t flags,
		 uint64_t reserved)
{
	struct drm_kohaku_mesh_lease a;

	memset(&a, 0, sizeof(a));
	a.mesh = mesh;
	a.flags = flags;
	a.reserved[1] = reserved;
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_MESH_LEASE, &a);
}

/* a device with cpu units: the first in nd, or SKIP */
#define LEASE_OPEN(dev, nd)						\
	struct drm_kohaku_node nd;					\
	kohaku_device *dev = rt_open_card("cpu_2x1");			\
	REQUIRE(dev != NULL);						\
	if (!rt_nodes_of(dev, KH_CU_RV, &nd, 1)) {			\
		rt_close_card(dev);					\
		SKIP(return, "no cpu unit on this device");		\
	}

/* a one-instruction cpu job (KICK at 0) through SUBMIT, FILE_BOS */
static int kick(kohaku_device *dev, const struct drm_kohaku_node *nd,
		struct drm_kohaku_submit *s)
{
	static struct kohaku_inst in;

	kohaku_inst_cpu_kick(&in, 0, 0);
	return rt_submit_on(dev, nd, &in, 1, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, s);
}

static int bo(kohaku_device *dev, unsigned int mesh, uint32_t *h,
	      uint64_t *addr)
{
	uint64_t a;

	return kohaku_bo_create(dev, mesh, 4096, h, addr ? addr : &a);
}

/* wait for a raw SUBMIT's job; its status (~0 if the wait failed) */
static uint32_t wait_job(kohaku_device *dev, uint64_t id)
{
	struct kohaku_job_status st;

	memset(&st, 0, sizeof(st));
	if (kohaku_wait(dev, id, KOHAKU_JOB_TIMEOUT_DEFAULT_MS + 2000, &st, sizeof(st)))
		return ~0u;
	return st.status;
}

static bool final(uint32_t status)
{
	return status == KOHAKU_JOB_DONE || status == KOHAKU_JOB_FAULT;
}

TEST_F(rt, lease_bad_arguments)
{
	kohaku_device *u;
	LEASE_OPEN(dev, nd);

	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	CHECK_ERR(lease(u, nd.mesh, 0, 0), -EINVAL);
	CHECK_ERR(lease(u, nd.mesh, KOHAKU_LEASE_TAKE | KOHAKU_LEASE_GIVE, 0), -EINVAL);
	CHECK_ERR(lease(u, nd.mesh, 1u << 2, 0), -EINVAL);
	CHECK_ERR(lease(u, nd.mesh, KOHAKU_LEASE_TAKE, 1), -EINVAL);
	CHECK_ERR(lease(u, KOHAKU_MAX_MESHES, KOHAKU_LEASE_TAKE, 0), -EINVAL);
	CHECK_ERR(lease(u, ~0u, KOHAKU_LEASE_TAKE, 0), -EINVAL);
	/* GIVE of a mesh this file does not hold */
	CHECK_ERR(lease(u, nd.mesh, KOHAKU_LEASE_GIVE, 0), -EINVAL);
	/* none of those took it: another file still creates BOs there */
	{
		uint32_t h;

		CHECK_OK(dev, bo(dev, nd.mesh, &h, NULL));
		CHECK_OK(dev, kohaku_bo_free(dev, h));
	}
	/* the library's call and its words */
	CHECK_EQ(kohaku_mesh_lease(u, nd.mesh, 1), 0);
	CHECK_EQ(kohaku_mesh_lease(u, nd.mesh, 1), 0);	/* twice is fine */
	CHECK_EQ(kohaku_mesh_lease(u, nd.mesh, 0), 0);
	CHECK_ERR(kohaku_mesh_lease(u, nd.mesh, 0), -EINVAL);
	CHECK(strstr(kohaku_last_error(u), "lease") != NULL);
	kohaku_close(u);
	rt_close_card(dev);
}

TEST_F(rt, lease_runs_an_unprivileged_files_cpu_job)
{
	static uint32_t words[64];
	struct kohaku_job_status st;
	struct drm_kohaku_submit s;
	struct kohaku_rv_asm a;
	struct kohaku_program p;
	struct kohaku_data d;
	struct kohaku_inst in;
	uint64_t dev_addr;
	uint32_t h, cpu_addr, got[4] = { 0 };
	kohaku_device *u;
	LEASE_OPEN(dev, nd);

	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	/* without the lease: refused, nothing sent */
	CHECK_ERR(kick(u, &nd, &s), -EACCES);
	CHECK_EQ(s.refused_why, KOHAKU_REFUSED_UNCHECKABLE);

	CHECK_OK(u, kohaku_mesh_lease(u, nd.mesh, 1));
	CHECK_OK(u, bo(u, nd.mesh, &h, &dev_addr));
	CHECK_OK(u, kohaku_bo_write(u, h, 0, (uint32_t[4]){ 0 }, 16));
	REQUIRE(kohaku_cpu_dram_addr(nd.mesh, dev_addr, 16, &cpu_addr) == 0);
	/* store 0x1ea5e0 + k to the BO's first words, flush, halt */
	kohaku_rv_asm_init(&a, words, 64, 0);
	kohaku_rv_asm_li(&a, KOHAKU_RV_S0, KH_CPU_CTL_BASE);
	kohaku_rv_sw(&a, KOHAKU_RV_ZERO, KOHAKU_RV_S0, KH_CPU_CTL_INVAL);
	kohaku_rv_asm_li(&a, KOHAKU_RV_A1, cpu_addr);
	kohaku_rv_asm_li(&a, KOHAKU_RV_T0, 0x1ea5e0);
	for (int k = 0; k < 4; k++) {
		kohaku_rv_addi(&a, KOHAKU_RV_T1, KOHAKU_RV_T0, k);
		kohaku_rv_sw(&a, KOHAKU_RV_T1, KOHAKU_RV_A1, 4 * k);
	}
	kohaku_rv_sw(&a, KOHAKU_RV_ZERO, KOHAKU_RV_S0, KH_CPU_CTL_FLUSH);
	kohaku_rv_addi(&a, KOHAKU_RV_A0, KOHAKU_RV_ZERO, 0);
	kohaku_rv_ecall(&a);
	REQUIRE(kohaku_rv_asm_image(&a, &d) == 0);
	CHECK_EQ(kohaku_inst_cpu_kick(&in, 0, 0), 0);
	memset(&p, 0, sizeof(p));
	p.mesh = nd.mesh;
	p.x = nd.x;
	p.y = nd.y;
	p.n_insts = 1;
	p.insts = &in;
	p.data = &d;
	p.n_data = 1;
	CHECK_EQ(rt_run(u, &p, 1, &st), 0);
	CHECK_MSG(st.status == KOHAKU_JOB_DONE, "status %s: %s",
		  kohaku_job_status_name(st.status), kohaku_last_error(u));
	CHECK_OK(u, kohaku_bo_read(u, h, 0, got, sizeof(got)));
	for (int k = 0; k < 4; k++)
		CHECK_EQ(got[k], 0x1ea5e0 + k);
	/* the raw kick passes too while held */
	CHECK_EQ(kick(u, &nd, &s), 0);
	CHECK_EQ(wait_job(u, s.job_id), KOHAKU_JOB_DONE);
	/* given back: refused again */
	CHECK_OK(u, kohaku_mesh_lease(u, nd.mesh, 0));
	CHECK_ERR(kick(u, &nd, &s), -EACCES);
	CHECK_EQ(s.refused_why, KOHAKU_REFUSED_UNCHECKABLE);
	CHECK_OK(u, kohaku_bo_free(u, h));
	kohaku_close(u);
	rt_close_card(dev);
}

TEST_F(rt, lease_keeps_other_files_out)
{
	struct drm_kohaku_submit s;
	uint32_t h, h2;
	kohaku_device *u, *v;
	LEASE_OPEN(dev, nd);

	u = rt_reopen_unprivileged(dev);
	v = rt_reopen_unprivileged(dev);
	REQUIRE(u && v);
	CHECK_OK(u, kohaku_mesh_lease(u, nd.mesh, 1));
	/* the holder's own buffers are fine */
	CHECK_OK(u, bo(u, nd.mesh, &h, NULL));
	/* another file's BO_CREATE and SUBMIT there: EBUSY */
	CHECK_ERR(bo(v, nd.mesh, &h2, NULL), -EBUSY);
	check_diag("%s", kohaku_last_error(v));
	CHECK(strstr(kohaku_last_error(v), "MESH_LEASE") != NULL);
	CHECK_ERR(bo(dev, nd.mesh, &h2, NULL), -EBUSY);
	/* an administrator's job (it passes the check) is kept out too */
	CHECK_ERR(kick(dev, &nd, &s), -EBUSY);
	/* another TAKE: EBUSY */
	CHECK_ERR(lease(v, nd.mesh, KOHAKU_LEASE_TAKE, 0), -EBUSY);
	/* given back: fine again */
	CHECK_OK(u, kohaku_mesh_lease(u, nd.mesh, 0));
	CHECK_OK(v, bo(v, nd.mesh, &h2, NULL));
	/* it ran (a FAULT: nothing loaded at pc 0 of a fresh unit) */
	CHECK_EQ(kick(dev, &nd, &s), 0);
	CHECK(final(wait_job(dev, s.job_id)));
	/* TAKE while another file has a BO there: EBUSY, until it frees it */
	CHECK_ERR(kohaku_mesh_lease(u, nd.mesh, 1), -EBUSY);
	check_diag("%s", kohaku_last_error(u));
	CHECK(strstr(kohaku_last_error(u), "lease") != NULL);
	CHECK_OK(v, kohaku_bo_free(v, h2));
	CHECK_EQ(lease(u, nd.mesh, KOHAKU_LEASE_TAKE, 0), 0);
	CHECK_ERR(bo(v, nd.mesh, &h2, NULL), -EBUSY);
	/* the holder closes: the lease ends with it */
	kohaku_close(u);
	CHECK_OK(v, bo(v, nd.mesh, &h2, NULL));
	/* it ran (a FAULT: nothing loaded at pc 0 of a fresh unit) */
	CHECK_EQ(kick(dev, &nd, &s), 0);
	CHECK(final(wait_job(dev, s.job_id)));
	/* and v, holding a BO, cannot be leased out from under by dev */
	CHECK_ERR(lease(dev, nd.mesh, KOHAKU_LEASE_TAKE, 0), -EBUSY);
	CHECK_OK(v, kohaku_bo_free(v, h2));
	kohaku_close(v);
	/* nobody else there now: the administrator's file may take it */
	CHECK_EQ(lease(dev, nd.mesh, KOHAKU_LEASE_TAKE, 0), 0);
	CHECK_EQ(lease(dev, nd.mesh, KOHAKU_LEASE_GIVE, 0), 0);
	rt_close_card(dev);
}

/* a cpu program that counts down from n, then halts: a job that lasts */
static void spin_prog(struct kohaku_program *p, const struct drm_kohaku_node *nd,
		      uint32_t *words, struct kohaku_data *d,
		      struct kohaku_inst *in, uint32_t n)
{
	struct kohaku_rv_asm a;

	kohaku_rv_asm_init(&a, words, 16, 0x400);
	kohaku_rv_asm_li(&a, KOHAKU_RV_T0, n);
	kohaku_rv_addi(&a, KOHAKU_RV_T0, KOHAKU_RV_T0, -1);
	kohaku_rv_bne(&a, KOHAKU_RV_T0, KOHAKU_RV_ZERO, -4);
	kohaku_rv_addi(&a, KOHAKU_RV_A0, KOHAKU_RV_ZERO, 0);
	kohaku_rv_ecall(&a);
	CHECK_EQ(kohaku_rv_asm_image(&a, d), 0);
	CHECK_EQ(kohaku_inst_cpu_kick(in, 0x400, 0), 0);
	memset(p, 0, sizeof(*p));
	p->mesh = nd->mesh;
	p->x = nd->x;
	p->y = nd->y;
	p->n_insts = 1;
	p->insts = in;
	p->data = d;
	p->n_data = 1;
}

TEST_F(rt, lease_waits_for_unfinished_jobs)
{
	static uint32_t words[16];
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_data d;
	struct kohaku_inst in;
	uint64_t job;
	uint32_t h;
	kohaku_device *u, *v;
	LEASE_OPEN(dev, nd);

	u = rt_reopen_unprivileged(dev);
	v = rt_reopen_unprivileged(dev);
	REQUIRE(u && v);
	/* another file's job not waited for yet: TAKE is EBUSY until it is final */
	/*
	 * 4M turns, about 27 ms of device time (the diagnostic below): the
	 * two ioctls after each SUBMIT take microseconds, so the job is still
	 * on the unit when they look (in-process the card runs on in a
	 * worker while nobody waits)
	 */
	spin_prog(&p, &nd, words, &d, &in, 4000000);
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 0, &job));
	CHECK_ERR(kohaku_mesh_lease(u, nd.mesh, 1), -EBUSY);
	check_diag("%s", kohaku_last_error(u));
	CHECK(strstr(kohaku_last_error(u), "another file") != NULL);
	CHECK_OK(dev, kohaku_wait(dev, job, KOHAKU_JOB_TIMEOUT_DEFAULT_MS + 2000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	check_diag("the spinning job: %llu ns of device time",
		   (unsigned long long)st.device_ns);
	CHECK_OK(u, kohaku_mesh_lease(u, nd.mesh, 1));
	/* the holder's cpu job outlives its GIVE: others stay out until it is final */
	CHECK_OK(u, kohaku_submit(u, &p, 1, 0, &job));
	CHECK_OK(u, kohaku_mesh_lease(u, nd.mesh, 0));
	CHECK_ERR(bo(v, nd.mesh, &h, NULL), -EBUSY);
	check_diag("%s", kohaku_last_error(v));
	CHECK(strstr(kohaku_last_error(v), "lease that ended") != NULL);
	CHECK_OK(u, kohaku_wait(u, job, KOHAKU_JOB_TIMEOUT_DEFAULT_MS + 2000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(v, bo(v, nd.mesh, &h, NULL));
	CHECK_OK(v, kohaku_bo_free(v, h));
	kohaku_close(v);
	kohaku_close(u);
	rt_close_card(dev);
}

RT_TEST_MAIN
