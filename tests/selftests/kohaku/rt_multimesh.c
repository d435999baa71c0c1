// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A four-mesh card (the built-in `quad`) through the driver: every mesh
 * enumerated with its own CAPS, device memory per mesh and isolated, jobs
 * on all meshes in flight at once, and a job spanning meshes refused.
 *
 * The card is made here, so these run on the sim backend; on the kernel
 * backend they skip unless KOHAKU_TEST_QUAD names a kohaku_sim card built
 * from `quad` (tests/vm does).
 */
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "kohaku/kh_regs.h"

static kohaku_device *open_quad(void)
{
	const char *b = getenv("KOHAKU_BACKEND"), *q = getenv("KOHAKU_TEST_QUAD");
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev = NULL;
	int r;

	if (b && !strcmp(b, "kernel")) {
		if (!q || !*q)
			return NULL;
		r = kohaku_open(KOHAKU_BACKEND_KERNEL, q, &dev, err, sizeof(err));
	} else {
		r = kohaku_open(KOHAKU_BACKEND_SIM, "quad", &dev, err, sizeof(err));
	}
	if (r)
		check_fail_at(__FILE__, __LINE__, "open the quad card: %s", err);
	return dev;
}

#define QUAD_OPEN(dev)							\
	kohaku_device *dev = open_quad();				\
	do {								\
		const char *b_ = getenv("KOHAKU_BACKEND");		\
		if (!dev && b_ && !strcmp(b_, "kernel") &&		\
		    !getenv("KOHAKU_TEST_QUAD"))			\
			SKIP(return, "no quad card (set KOHAKU_TEST_QUAD)");	\
	} while (0);							\
	REQUIRE(dev != NULL)

TEST_F(rt, four_meshes_enumerated)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_node *nd = NULL;
	unsigned int n = 0, i, per[4] = { 0 };
	QUAD_OPEN(dev);

	CHECK_OK(dev, kohaku_get_info(dev, &in, sizeof(in)));
	CHECK_EQ(in.n_meshes, 4);
	for (i = 0; i < 4; i++) {
		CHECK(in.mesh[i].flags & KOHAKU_MESH_PRESENT);
		CHECK(in.mesh[i].flags & KOHAKU_MESH_READY);
		CHECK_EQ(in.mesh[i].flit_width, 288);
		if (in.caps & KOHAKU_CAP_CTRL32)
			CHECK_EQ(in.mesh[i].caps_reg >> 32, 0);
		else
			CHECK_EQ(KH_CAPS_GRID_HI(in.mesh[i].caps_reg),
				 in.mesh[i].grid_hi);
		CHECK(in.mesh[i].n_nodes > 0);
	}
	CHECK_OK(dev, kohaku_nodes_alloc(dev, 0, &nd, sizeof(*nd), &n));
	CHECK_EQ(n, in.n_nodes);
	for (i = 0; i < n; i++) {
		REQUIRE(nd[i].mesh < 4);
		per[nd[i].mesh]++;
		/* mesh then y then x order */
		if (i)
			CHECK(nd[i - 1].mesh < nd[i].mesh ||
			      (nd[i - 1].mesh == nd[i].mesh &&
			       (nd[i - 1].y < nd[i].y ||
				(nd[i - 1].y == nd[i].y && nd[i - 1].x < nd[i].x))));
	}
	for (i = 0; i < 4; i++)
		CHECK_EQ(per[i], in.mesh[i].n_nodes);
	free(nd);
	rt_close(dev);
}

/*
 * Closing a card with memory freed under a job on another mesh: the range
 * waits for the job (a deferred release) and must go back to its own
 * mesh's allocator before that allocator is torn down, else it leaks (the
 * kernel's kmemleak saw it after an unbind; here LeakSanitizer and
 * valgrind would).  Sim only: it closes the card itself.
 */
TEST_F(rt, close_with_memory_freed_under_another_meshs_job)
{
	struct drm_kohaku_node sx[32], *on1 = NULL;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	unsigned int n, i;
	uint64_t job;
	uint32_t h[4];
	const char *b = getenv("KOHAKU_BACKEND");

	if (b && !strcmp(b, "kernel"))
		SKIP(return, "closes the card: in-process only (the VM unbinds cards for this)");
	QUAD_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 32);
	for (i = 0; i < n && !on1; i++)
		if (sx[i].mesh == 1)
			on1 = &sx[i];
	REQUIRE(on1 != NULL);
	REQUIRE(rt_vec_setup(dev, 1, 1ul << 16, 4, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, on1, &v, 2.0f);
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 0, &job));
	/* buffers on mesh 0, freed while mesh 1's job is unfinished */
	for (i = 0; i < 4; i++) {
		CHECK_OK(dev, kohaku_bo_create(dev, 0, 4096 << i, &h[i], NULL));
		CHECK_OK(dev, kohaku_bo_free(dev, h[i]));
	}
	/* close with the job running and the vectors still held */
	rt_close(dev);
	/* the host side of the vectors (their BOs went with the card) */
	v.hx = v.hy = 0;
	rt_vec_free(NULL, &v);
}

TEST_F(rt, device_memory_is_per_mesh)
{
	uint32_t h[4];
	uint64_t a[4];
	unsigned int i;
	uint8_t buf[64], back[64];
	QUAD_OPEN(dev);

	for (i = 0; i < 4; i++) {
		CHECK_OK(dev, kohaku_bo_create(dev, i, 4096, &h[i], &a[i]));
		/* the address units use names the mesh */
		CHECK_EQ(a[i] >> KH_MADDR_MESH_SHIFT, i);
		memset(buf, 0x10 + i, sizeof(buf));
		CHECK_OK(dev, kohaku_bo_write(dev, h[i], 0, buf, sizeof(buf)));
	}
	for (i = 0; i < 4; i++) {
		memset(buf, 0x10 + i, sizeof(buf));
		CHECK_OK(dev, kohaku_bo_read(dev, h[i], 0, back, sizeof(back)));
		CHECK(!memcmp(buf, back, sizeof(buf)));
		CHECK_OK(dev, kohaku_bo_free(dev, h[i]));
	}
	rt_close(dev);
}

/* the first SX unit of the mesh in sx[0..n), or NULL */
static const struct drm_kohaku_node *first_sx(const struct drm_kohaku_node *sx,
					      unsigned int n, unsigned int mesh)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (sx[i].mesh == mesh)
			return &sx[i];
	return NULL;
}

TEST_F(rt, jobs_on_every_mesh_at_once)
{
	struct drm_kohaku_node sx[64];
	struct kohaku_program p[4];
	struct kohaku_inst inst[4];
	struct kohaku_job_status st;
	struct rt_vec v[4];
	uint64_t job[4];
	unsigned int n, i, mesh, used = 0;
	int r;
	QUAD_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 64);
	/* the first SX unit of each mesh */
	for (mesh = 0; mesh < 4; mesh++) {
		const struct drm_kohaku_node *on = first_sx(sx, n, mesh);

		if (!on)
			continue;
		REQUIRE(rt_vec_setup(dev, mesh, 777, 20 + mesh, &v[used]) == 0);
		rt_prog_saxpy(&p[used], &inst[used], 1, on, &v[used], 0.75f);
		CHECK_OK(dev, kohaku_submit(dev, &p[used], 1, 0, &job[used]));
		used++;
	}
	REQUIRE(used >= 2);
	/* waited in reverse: every mesh advanced meanwhile */
	for (i = used; i-- > 0;) {
		r = kohaku_wait(dev, job[i], 10000, &st, sizeof(st));
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "mesh job %u: %d %s",
			  i, r, kohaku_job_status_name(st.status));
		CHECK_EQ(rt_vec_check(dev, &v[i], 0.75f, 1), 0);
		rt_vec_free(dev, &v[i]);
	}
	rt_close(dev);
}

/* a reset resets one mesh: its job ends ABORTED, the others' finish */
TEST_F(rt, a_mesh_reset_leaves_the_other_meshes_alone)
{
	struct drm_kohaku_node sx[64];
	struct drm_kohaku_get_param g;
	struct kohaku_program p[4];
	struct kohaku_inst inst[4];
	struct kohaku_job_status st;
	struct rt_vec v[4];
	uint64_t job[4];
	unsigned int n, i, mesh, used = 0, on[4];
	char spec[64];
	int r;
	QUAD_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 64);
	for (mesh = 0; mesh < 4; mesh++) {
		const struct drm_kohaku_node *nd = first_sx(sx, n, mesh);

		if (!nd)
			continue;
		REQUIRE(rt_vec_setup(dev, mesh, 777, 30 + mesh, &v[used]) == 0);
		rt_prog_saxpy(&p[used], &inst[used], 1, nd, &v[used], 0.5f);
		/* mesh 1's unit never retires: its job runs until the reset */
		if (mesh == 1) {
			snprintf(spec, sizeof(spec), "hang node=%u,%u mesh=1",
				 nd->x, nd->y);
			CHECK_OK(dev, kohaku_sim_inject(dev, spec));
		}
		CHECK_OK(dev, kohaku_submit(dev, &p[used], 1, 10000, &job[used]));
		on[used++] = mesh;
	}
	REQUIRE(used >= 3 && on[1] == 1);
	r = kohaku_wait(dev, job[1], 5, &st, sizeof(st));
	CHECK_MSG(r == -ETIMEDOUT, "mesh 1's job before the reset: %d %s", r,
		  kohaku_job_status_name(st.status));
	CHECK_OK(dev, kohaku_sim_inject(dev, "reset mesh=1"));
	for (i = 0; i < used; i++) {
		r = kohaku_wait(dev, job[i], 20000, &st, sizeof(st));
		if (on[i] == 1) {
			CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_ABORTED &&
				  st.reason == KOHAKU_JOB_WHY_MESH_RESET,
				  "mesh 1: %d %s reason %u", r,
				  kohaku_job_status_name(st.status), st.reason);
			/* at once, not at its 10 s limit (see rt_faults) */
			CHECK(st.device_ns < 1000000000ULL);
		} else {
			CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
				  "mesh %u: %d %s", on[i], r,
				  kohaku_job_status_name(st.status));
			CHECK_EQ(rt_vec_check(dev, &v[i], 0.5f, 1), 0);
		}
		memset(&g, 0, sizeof(g));
		g.param = KOHAKU_PARAM_MESH_RESETS;
		g.index = on[i];
		CHECK_OK(dev, kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g));
		CHECK_EQ(g.value, on[i] == 1);
		rt_vec_free(dev, &v[i]);
	}
	CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	rt_close(dev);
}

TEST_F(rt, a_job_spanning_meshes_is_refused)
{
	struct drm_kohaku_node sx[64];
	struct kohaku_program p[2];
	struct kohaku_inst inst[2];
	struct rt_vec v;
	unsigned int n, i, j;
	uint64_t job;
	QUAD_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_SX, sx, 64);
	for (i = 0; i < n && sx[i].mesh != sx[0].mesh + 1; i++)
		;
	REQUIRE(i < n);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 8, 1, &v) == 0);
	for (j = 0; j < 2; j++)
		rt_prog_saxpy(&p[j], &inst[j], 1, j ? &sx[i] : &sx[0], &v, 1.0f);
	CHECK_EQ(kohaku_submit(dev, p, 2, 0, &job), -EINVAL);
	CHECK(strstr(kohaku_last_error(dev), "mesh") != NULL);
	rt_vec_free(dev, &v);
	CHECK(rt_good_saxpy(dev));
	rt_close(dev);
}

RT_TEST_MAIN
