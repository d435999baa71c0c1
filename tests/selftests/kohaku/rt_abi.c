// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ABI's growth rule (ABI 0.2, docs/abi.md): a command's struct may be
 * shorter (an older program: zero-extended in, truncated out) or longer (a
 * newer one: taken when the tail is zero, E2BIG otherwise), for every
 * command; the same for the element sizes of NODES and SUBMIT; a command
 * without a write direction reads nothing, one without a read direction
 * writes nothing back, as drm_ioctl() does.  And GET_PARAM against
 * GET_INFO.  Every check passes on kohaku.ko (DRM's copying) and
 * in-process (libkohaku's copy of it).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "rt_test.h"


static unsigned long resize(unsigned long c, unsigned int size)
{
	return _IOC(_IOC_DIR(c), _IOC_TYPE(c), _IOC_NR(c), size);
}

/* a longer struct with a nonzero tail: E2BIG for every command */
TEST_F(rt, longer_struct_nonzero_tail)
{
	unsigned char buf[512];
	unsigned int i;
	RT_OPEN(dev);

	for (i = 0; i < RT_N_CMDS; i++) {
		unsigned int sz = _IOC_SIZE(rt_cmds[i].cmd);
		int r;

		memset(buf, 0, sizeof(buf));
		buf[sz + 5] = 1;
		r = rt_ioctl(dev, resize(rt_cmds[i].cmd, sz + 8), buf);
		CHECK_MSG(r == -E2BIG, "%s with %u bytes, tail nonzero: %d, expected -E2BIG",
			  rt_cmds[i].name, sz + 8, r);
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/* a longer struct with a zero tail: the command works, the tail stays 0 */
TEST_F(rt, longer_struct_zero_tail)
{
	struct {
		struct drm_kohaku_get_info in;
		uint8_t tail[24];
	} big;
	struct drm_kohaku_get_info ref;
	unsigned int i;
	RT_OPEN(dev);

	memset(&ref, 0, sizeof(ref));
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &ref));
	memset(&big, 0, sizeof(big));
	CHECK_OK(dev, rt_ioctl(dev, resize(DRM_IOCTL_KOHAKU_GET_INFO, sizeof(big)),
			       &big));
	CHECK_EQ(big.in.abi_version, ref.abi_version);
	CHECK_EQ(big.in.n_nodes, ref.n_nodes);
	CHECK_EQ(big.in.mesh[0].mem_size, ref.mesh[0].mem_size);
	for (i = 0; i < sizeof(big.tail); i++)
		CHECK_EQ(big.tail[i], 0);
	kohaku_close(dev);
}

/* a shorter struct: zero-extended in, only its bytes written back */
TEST_F(rt, shorter_struct_truncated)
{
	uint8_t buf[sizeof(struct drm_kohaku_get_info)];
	struct drm_kohaku_get_info *in = (void *)buf;
	unsigned int i, n = 16;	/* flags, abi_version, caps */
	RT_OPEN(dev);

	memset(buf, 0xa5, sizeof(buf));
	memset(buf, 0, n);
	CHECK_OK(dev, rt_ioctl(dev, resize(DRM_IOCTL_KOHAKU_GET_INFO, n), buf));
	CHECK_EQ(in->abi_version, KOHAKU_ABI_VERSION);
	CHECK_EQ(!!(in->caps & KOHAKU_CAP_SIMULATED), rt_simulated());
	for (i = n; i < sizeof(buf); i++)
		if (buf[i] != 0xa5)
			break;
	CHECK_MSG(i == sizeof(buf), "byte %u past the caller's struct written", i);
	kohaku_close(dev);
}

/*
 * ABI 0.1's SUBMIT (48 bytes, no fences) from an older program: the new
 * fields read as zero and the job runs.  Likewise a program table and a
 * node table at a newer, longer stride.
 */
struct submit_0_1 {
	uint32_t flags, n_programs;
	uint64_t programs_ptr;
	uint32_t program_size, timeout_ms;
	uint64_t job_id;
	uint64_t reserved[2];
};

struct program_next {
	struct drm_kohaku_program p;
	uint64_t later_field;
};

TEST_F(rt, old_and_new_element_sizes)
{
	struct drm_kohaku_node sx[16];
	struct program_next pn[2];
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	struct kohaku_program kp;
	struct submit_0_1 s1;
	struct rt_vec v;
	int r;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 5, &v) == 0);
	rt_prog_saxpy(&kp, &inst, 1, &sx[0], &v, 3.0f);
	memset(pn, 0, sizeof(pn));
	pn[0].p.mesh = kp.mesh;
	pn[0].p.x = kp.x;
	pn[0].p.y = kp.y;
	pn[0].p.n_insts = 1;
	pn[0].p.insts_ptr = (uintptr_t)&inst;

	memset(&s1, 0, sizeof(s1));
	s1.n_programs = 1;
	s1.programs_ptr = (uintptr_t)pn;
	s1.program_size = sizeof(pn[0]);	/* a newer program entry, tail 0 */
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_SUBMIT,
					    struct submit_0_1), &s1));
	CHECK(s1.job_id != 0);
	r = kohaku_wait(dev, s1.job_id, 60000, &st, sizeof(st));
	CHECK_EQ(r, 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(rt_vec_check(dev, &v, 3.0f, 1), 0);

	/* the newer entry's unknown field set: E2BIG, nothing runs */
	pn[0].later_field = 1;
	s1.job_id = 0;
	CHECK_ERR(rt_ioctl(dev, DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_SUBMIT,
					struct submit_0_1), &s1), -E2BIG);
	rt_vec_free(dev, &v);

	/* NODES at a longer stride: each entry written, its tail zeroed */
	{
		struct {
			struct drm_kohaku_node n;
			uint8_t tail[16];
		} wide[16];
		struct drm_kohaku_node ref[16];
		struct drm_kohaku_nodes q;
		unsigned int i, k, count;

		CHECK_OK(dev, kohaku_nodes(dev, 0, ref, 16, sizeof(*ref), &count));
		memset(wide, 0xee, sizeof(wide));
		memset(&q, 0, sizeof(q));
		q.capacity = 16;
		q.node_size = sizeof(wide[0]);
		q.nodes_ptr = (uintptr_t)wide;
		CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &q));
		CHECK_EQ(q.count, count);
		for (i = 0; i < count && i < 16; i++) {
			CHECK_EQ(wide[i].n.x, ref[i].x);
			CHECK_EQ(wide[i].n.y, ref[i].y);
			CHECK_EQ(wide[i].n.caps_reg, ref[i].caps_reg);
			for (k = 0; k < sizeof(wide[i].tail); k++)
				CHECK_EQ(wide[i].tail[k], 0);
		}
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/* drm_ioctl()'s directions: no IOC_IN reads nothing, no IOC_OUT writes nothing */
TEST_F(rt, directions)
{
	struct drm_kohaku_get_info in;
	RT_OPEN(dev);

	/* _IOR: nothing is read, so a nonzero flags is not seen */
	memset(&in, 0, sizeof(in));
	in.flags = 1;
	CHECK_OK(dev, rt_ioctl(dev, _IOC(_IOC_READ, DRM_IOCTL_BASE,
					 DRM_COMMAND_BASE + DRM_KOHAKU_GET_INFO,
					 sizeof(in)), &in));
	CHECK_EQ(in.abi_version, KOHAKU_ABI_VERSION);
	CHECK_EQ(in.flags, 0);
	/* _IOW: it runs, nothing comes back */
	memset(&in, 0, sizeof(in));
	CHECK_OK(dev, rt_ioctl(dev, _IOC(_IOC_WRITE, DRM_IOCTL_BASE,
					 DRM_COMMAND_BASE + DRM_KOHAKU_GET_INFO,
					 sizeof(in)), &in));
	CHECK_EQ(in.abi_version, 0);
	kohaku_close(dev);
}

static uint64_t param(kohaku_device *dev, uint32_t p, uint32_t index)
{
	struct drm_kohaku_get_param g = { .param = p, .index = index };

	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g));
	return g.value;
}

TEST_F(rt, get_param_agrees_with_get_info)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_get_param g;
	unsigned int m;
	uint64_t t0, t1;
	RT_OPEN(dev);

	memset(&in, 0, sizeof(in));
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
	CHECK_EQ(param(dev, KOHAKU_PARAM_ABI_VERSION, 0), KOHAKU_ABI_VERSION);
	CHECK_EQ(param(dev, KOHAKU_PARAM_CAPS, 0), in.caps);
	CHECK_EQ(param(dev, KOHAKU_PARAM_N_MESHES, 0), in.n_meshes);
	CHECK_EQ(param(dev, KOHAKU_PARAM_N_NODES, 0), in.n_nodes);
	CHECK_EQ(param(dev, KOHAKU_PARAM_MAX_JOBS, 0), KOHAKU_MAX_JOBS);
	CHECK_EQ(param(dev, KOHAKU_PARAM_MAX_PROGRAMS, 0), KOHAKU_MAX_PROGRAMS);
	CHECK_EQ(param(dev, KOHAKU_PARAM_MAX_JOB_INSTS, 0), KOHAKU_MAX_JOB_INSTS);
	CHECK_EQ(param(dev, KOHAKU_PARAM_MAX_IN_FENCES, 0), KOHAKU_MAX_IN_FENCES);
	CHECK_EQ(param(dev, KOHAKU_PARAM_MAX_BOS, 0), KOHAKU_MAX_BOS);
	CHECK_EQ(param(dev, KOHAKU_PARAM_JOB_TIMEOUT_MS, 0),
		 KOHAKU_JOB_TIMEOUT_DEFAULT_MS);
	t0 = param(dev, KOHAKU_PARAM_DEVICE_TIME_NS, 0);
	CHECK(rt_good_saxpy(dev));
	t1 = param(dev, KOHAKU_PARAM_DEVICE_TIME_NS, 0);
	CHECK(t1 > t0);
	for (m = 0; m < in.n_meshes; m++) {
		const struct drm_kohaku_mesh_info *mi = &in.mesh[m];

		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_FLAGS, m), mi->flags);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_N_NODES, m), mi->n_nodes);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_CAPS_REG, m), mi->caps_reg);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_CU_VERSION, m), mi->cu_version);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_MIN_INST_DEPTH, m),
			 mi->min_inst_depth);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_MEM_SIZE, m), mi->mem_size);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_JOBS_PENDING, m), 0);
		CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_RESETS, m), 0);
		/* the clocks: GET_PARAM says what CLOCKS says (ABI 0.7) */
		{
			struct drm_kohaku_clocks c;
			unsigned int o;

			memset(&c, 0, sizeof(c));
			CHECK_OK(dev, kohaku_clocks(dev, m, &c, sizeof(c)));
			CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_CLK_PROFILE, m), c.profile);
			CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_CLK_POLICY, m), c.policy);
			CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_CLK_RETUNES, m), c.retunes);
			for (o = 0; o < 4; o++)
				CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_CLK_NOC_MHZ + o, m),
					 c.mhz[o]);
			CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_RECOVERIES, m), c.recoveries);
			CHECK_EQ(param(dev, KOHAKU_PARAM_MESH_RESETS_ASKED, m), 0);
			/* device time at each profile only grows */
			CHECK(param(dev, KOHAKU_PARAM_MESH_CLK_LOW_NS, m) +
			      param(dev, KOHAKU_PARAM_MESH_CLK_MID_NS, m) +
			      param(dev, KOHAKU_PARAM_MESH_CLK_SHIP_NS, m) >=
			      c.ns_at[0] + c.ns_at[1] + c.ns_at[2]);
		}
	}
	/* the saxpy above is counted on its mesh */
	CHECK(param(dev, KOHAKU_PARAM_MESH_JOBS_DONE, 0) >= 1);
	/* refusals: unknown parameter, absent mesh, an index where none is taken */
	memset(&g, 0, sizeof(g));
	g.param = KOHAKU_PARAM_IRQS + 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g), -EINVAL);
	g.param = KOHAKU_PARAM_MESH_CLK_SHIP_NS + 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g), -EINVAL);
	g.param = 0xffffffffu;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g), -EINVAL);
	g.param = KOHAKU_PARAM_MESH_FLAGS;
	g.index = KOHAKU_MAX_MESHES;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g), -EINVAL);
	g.param = KOHAKU_PARAM_N_NODES;
	g.index = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g), -EINVAL);
	g.param = KOHAKU_PARAM_MAX_BOS;		/* per file, not per mesh */
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g), -EINVAL);
	kohaku_close(dev);
}

RT_TEST_MAIN
