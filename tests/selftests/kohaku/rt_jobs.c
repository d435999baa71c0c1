// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Jobs: saxpy on every SX unit, multi-unit jobs, the null unit, faults. */
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"

#define MAX_UNITS 16

static const unsigned long sizes[] = { 0, 1, 7, 8, 9, 63, 64, 65, 1000, 4097 };

TEST_F(rt, saxpy_every_sx_unit_every_size)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	unsigned int n_sx, u, k;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (u = 0; u < n_sx; u++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			struct kohaku_program p;
			struct kohaku_inst inst;
			struct kohaku_job_status st;
			struct rt_vec v;
			float a = k & 1 ? -1.375f : 3.0999999f;
			int r;

			if (rt_vec_setup(dev, sx[u].mesh, sizes[k], u * 16 + k, &v))
				continue;
			rt_prog_saxpy(&p, &inst, 1, &sx[u], &v, a);
			p.txn = (uint8_t)(k * 17 + u);
			r = rt_run(dev, &p, 1, &st);
			CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
				  "SX (%u,%u) n=%lu: %d status %s: %s", sx[u].x,
				  sx[u].y, sizes[k], r,
				  kohaku_job_status_name(st.status),
				  kohaku_last_error(dev));
			if (r == 0 && st.status == KOHAKU_JOB_DONE) {
				CHECK_MSG(rt_vec_check(dev, &v, a, 1) == 0,
					  "SX (%u,%u) n=%lu: wrong answer",
					  sx[u].x, sx[u].y, sizes[k]);
				CHECK_EQ(st.fault_mesh, KOHAKU_COORD_NONE);
				CHECK_EQ(st.fault_flags, 0);
				CHECK_EQ(st.n_faults, 0);
				if (sizes[k])
					CHECK(st.device_ns > 0);
			}
			rt_vec_free(dev, &v);
		}
	}
	kohaku_close(dev);
}

TEST_F(rt, saxpy_all_sx_units_in_one_job)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_program p[MAX_UNITS];
	struct kohaku_inst inst[MAX_UNITS];
	struct rt_vec v[MAX_UNITS];
	struct kohaku_job_status st;
	unsigned int n_sx, u;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (u = 0; u < n_sx; u++) {
		REQUIRE(rt_vec_setup(dev, sx[u].mesh, 1000 + 8 * u + u, 40 + u,
				     &v[u]) == 0);
		rt_prog_saxpy(&p[u], &inst[u], 1, &sx[u], &v[u], 0.75f + u);
		p[u].txn = (uint8_t)(0xf0 + u);
	}
	CHECK_OK(dev, rt_run(dev, p, n_sx, &st));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	for (u = 0; u < n_sx; u++) {
		CHECK_MSG(rt_vec_check(dev, &v[u], 0.75f + u, 1) == 0,
			  "unit %u (%u,%u)", u, sx[u].x, sx[u].y);
		rt_vec_free(dev, &v[u]);
	}
	kohaku_close(dev);
}

TEST_F(rt, saxpy_program_of_many_instructions)
{
	/* more instructions than the FIFO holds: credits must come back */
	static const unsigned int counts[] = { 2, 31, 32, 33, 70 };
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_inst *inst = calloc(70, sizeof(*inst));
	unsigned int k;
	RT_OPEN(dev);

	REQUIRE(inst);
	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS) > 0);
	for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		struct kohaku_program p;
		struct kohaku_job_status st;
		struct rt_vec v;

		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 41, k, &v) == 0);
		rt_prog_saxpy(&p, inst, counts[k], &sx[0], &v, 1.0009765625f);
		CHECK_OK(dev, rt_run(dev, &p, 1, &st));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_MSG(rt_vec_check(dev, &v, 1.0009765625f, counts[k]) == 0,
			  "%u instructions", counts[k]);
		rt_vec_free(dev, &v);
	}
	free(inst);
	kohaku_close(dev);
}

TEST_F(rt, saxpy_many_jobs_in_flight)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	struct rt_vec v[6];
	struct kohaku_inst inst[6];
	uint64_t job[6];
	unsigned int n_sx, i;
	int k;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (i = 0; i < 6; i++) {
		struct kohaku_program p;

		REQUIRE(rt_vec_setup(dev, sx[i % n_sx].mesh, 200 + i, 60 + i, &v[i]) == 0);
		rt_prog_saxpy(&p, &inst[i], 1, &sx[i % n_sx], &v[i], -2.0f);
		CHECK_OK(dev, kohaku_submit(dev, &p, 1, 0, &job[i]));
		CHECK(job[i] != 0);
		if (i)
			CHECK(job[i] != job[i - 1]);
	}
	/* wait in reverse order */
	for (k = 5; k >= 0; k--) {
		struct kohaku_job_status st;

		CHECK_OK(dev, kohaku_wait(dev, job[k], KOHAKU_JOB_TIMEOUT_DEFAULT_MS * 2, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(rt_vec_check(dev, &v[k], -2.0f, 1), 0);
		rt_vec_free(dev, &v[k]);
	}
	kohaku_close(dev);
}

TEST_F(rt, saxpy_library_run_and_describe)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct kohaku_job_status st;
	struct rt_vec v;
	char buf[256];
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 9, 5, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 4.0f);
	CHECK_OK(dev, kohaku_run(dev, &p, 1, 1000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK(strstr(kohaku_job_describe(&st, sizeof(st), buf, sizeof(buf)), "DONE") != NULL);
	CHECK_EQ(rt_vec_check(dev, &v, 4.0f, 1), 0);
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

TEST_F(rt, saxpy_two_files_interleaved)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	kohaku_device *d[2];
	struct rt_vec v[2][3];
	struct kohaku_inst inst[2][3];
	uint64_t job[2][3];
	unsigned int n_sx, f, i;
	RT_OPEN(dev);

	d[0] = dev;
	CHECK_OK(dev, kohaku_reopen(dev, &d[1]));
	REQUIRE(d[1]);
	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (i = 0; i < 3; i++)
		for (f = 0; f < 2; f++) {
			struct kohaku_program p;
			const struct drm_kohaku_node *nd = &sx[(i + f) % n_sx];

			REQUIRE(rt_vec_setup(d[f], nd->mesh, 500 + 10 * i + f,
					     20 + 3 * i + f, &v[f][i]) == 0);
			rt_prog_saxpy(&p, &inst[f][i], 1, nd, &v[f][i], 0.25f + f);
			CHECK_OK(d[f], kohaku_submit(d[f], &p, 1, 0, &job[f][i]));
		}
	/* each file waits its own jobs; the other's ids are not its own */
	for (f = 0; f < 2; f++)
		for (i = 0; i < 3; i++) {
			struct kohaku_job_status st;

			CHECK(job[1 - f][i] != job[f][i]);
			CHECK_ERR(kohaku_wait(d[f], job[1 - f][i], 0, &st, sizeof(st)), -ENOENT);
		}
	for (f = 0; f < 2; f++)
		for (i = 0; i < 3; i++) {
			struct kohaku_job_status st;

			CHECK_OK(d[f], kohaku_wait(d[f], job[f][i],
						   KOHAKU_JOB_TIMEOUT_DEFAULT_MS * 2, &st, sizeof(st)));
			CHECK_EQ(st.status, KOHAKU_JOB_DONE);
			CHECK_EQ(rt_vec_check(d[f], &v[f][i], 0.25f + f, 1), 0);
			rt_vec_free(d[f], &v[f][i]);
		}
	kohaku_close(d[1]);
	kohaku_close(dev);
}

/*
 * A BO freed while a job that may write it is unfinished: its memory is not
 * handed out again until the job is final (docs/abi.md, device memory).
 */
TEST_F(rt, bo_freed_under_a_running_job_is_not_reused)
{
	enum { N = 1 << 17 };
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct kohaku_job_status st;
	struct rt_vec v;
	uint64_t job, addr, size;
	uint32_t h, y;
	char knob[64];
	bool held;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, N, 5, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 2.0f);
	/*
	 * On a simulated card the unit is held busy until the BO is asked
	 * for: a job's length alone raced the test's thread (the VM's poll
	 * mode ran it to the end first, CI)
	 */
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=forever", sx[0].x, sx[0].y);
	held = rt_destructive_ok(dev) && kohaku_sim_inject(dev, knob) == 0;
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 0, &job));
	/* free y while the unit works on it, then ask for the same size */
	y = v.hy;
	size = (uint64_t)N * 4 + RT_GUARD;
	CHECK_OK(dev, kohaku_bo_free(dev, y));
	v.hy = 0;
	CHECK_OK(dev, kohaku_bo_create(dev, sx[0].mesh, size, &h, &addr));
	CHECK_MSG(addr + size <= v.ay || v.ay + size <= addr,
		  "a BO freed under a running job was handed out again "
		  "(0x%llx, the job writes 0x%llx..)", (unsigned long long)addr,
		  (unsigned long long)v.ay);
	if (held)
		CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	CHECK_OK(dev, kohaku_wait(dev, job, KOHAKU_JOB_TIMEOUT_DEFAULT_MS * 2, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	rt_vec_free(dev, &v);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

static void null_words(uint32_t w[8], unsigned int seed)
{
	unsigned int k;

	for (k = 0; k < 8; k++)
		w[k] = (seed + 1) * 0x9e3779b9u ^ (k * 0x85ebca6bu);
}

TEST_F(rt, null_unit_programs)
{
	static const unsigned int counts[] = { 1, 2, 31, 32, 33, 100, 1000 };
	struct drm_kohaku_node nu[MAX_UNITS];
	struct kohaku_inst *inst = calloc(1000, sizeof(*inst));
	unsigned int n_null, u, k, i;
	RT_OPEN(dev);

	REQUIRE(inst);
	n_null = rt_nodes_of(dev, KH_CU_NULL, nu, MAX_UNITS);
	if (!n_null) {
		free(inst);
		kohaku_close(dev);
		SKIP(return, "this map has no null unit");
	}
	for (u = 0; u < n_null; u++) {
		for (k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
			struct kohaku_program p;
			struct kohaku_job_status st;
			uint32_t w[8];

			for (i = 0; i < counts[k]; i++) {
				null_words(w, i + k);
				kohaku_inst_null(&inst[i], w);
			}
			memset(&p, 0, sizeof(p));
			p.mesh = nu[u].mesh;
			p.x = nu[u].x;
			p.y = nu[u].y;
			p.txn = (uint8_t)(0x80 + k * 13 + u);	/* checked by the driver */
			p.n_insts = counts[k];
			p.insts = inst;
			CHECK_OK(dev, rt_run(dev, &p, 1, &st));
			CHECK_MSG(st.status == KOHAKU_JOB_DONE,
				  "null (%u,%u), %u insts: %s: %s", nu[u].x,
				  nu[u].y, counts[k],
				  kohaku_job_status_name(st.status),
				  kohaku_last_error(dev));
		}
	}
	free(inst);
	kohaku_close(dev);
}

TEST_F(rt, null_and_sx_units_in_one_job)
{
	struct drm_kohaku_node nu[MAX_UNITS], sx[MAX_UNITS];
	struct kohaku_program p[2 * MAX_UNITS];
	struct kohaku_inst ninst[MAX_UNITS][5], sinst[MAX_UNITS];
	struct rt_vec v[MAX_UNITS];
	struct kohaku_job_status st;
	unsigned int n_null, n_sx, i, k, np = 0;
	RT_OPEN(dev);

	n_null = rt_nodes_of(dev, KH_CU_NULL, nu, MAX_UNITS);
	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	if (!n_null) {
		kohaku_close(dev);
		SKIP(return, "this map has no null unit");
	}
	for (i = 0; i < n_sx; i++) {
		REQUIRE(rt_vec_setup(dev, sx[i].mesh, 333, 70 + i, &v[i]) == 0);
		rt_prog_saxpy(&p[np], &sinst[i], 1, &sx[i], &v[i], 1.5f);
		p[np++].txn = (uint8_t)i;
	}
	for (i = 0; i < n_null; i++) {
		for (k = 0; k < 5; k++) {
			uint32_t w[8];

			null_words(w, 100 + i * 5 + k);
			kohaku_inst_null(&ninst[i][k], w);
		}
		memset(&p[np], 0, sizeof(p[np]));
		p[np].mesh = nu[i].mesh;
		p[np].x = nu[i].x;
		p[np].y = nu[i].y;
		p[np].txn = (uint8_t)(200 + i);
		p[np].n_insts = 5;
		p[np].insts = ninst[i];
		np++;
	}
	CHECK_OK(dev, rt_run(dev, p, np, &st));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	for (i = 0; i < n_sx; i++) {
		CHECK_EQ(rt_vec_check(dev, &v[i], 1.5f, 1), 0);
		rt_vec_free(dev, &v[i]);
	}
	kohaku_close(dev);
}

static void check_fault(kohaku_device *dev, const struct drm_kohaku_node *nd,
			const struct kohaku_inst *inst, uint32_t code,
			const char *what)
{
	struct kohaku_program p;
	struct kohaku_job_status st;
	int r;

	memset(&p, 0, sizeof(p));
	p.mesh = nd->mesh;
	p.x = nd->x;
	p.y = nd->y;
	p.n_insts = 1;
	p.insts = inst;
	r = rt_run(dev, &p, 1, &st);
	CHECK_MSG(r == 0, "%s: %d: %s", what, r, kohaku_last_error(dev));
	CHECK_MSG(st.status == KOHAKU_JOB_FAULT, "%s: status %s, expected FAULT",
		  what, kohaku_job_status_name(st.status));
	CHECK_MSG(st.fault_code == code, "%s: fault code %u, expected %u", what,
		  st.fault_code, code);
	CHECK_MSG(st.fault_flags == (KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN),
		  "%s: fault_flags 0x%x", what, st.fault_flags);
	CHECK_MSG(st.n_faults == 1, "%s: n_faults %u", what, st.n_faults);
	CHECK_MSG(st.fault_mesh == nd->mesh && st.fault_x == nd->x &&
		  st.fault_y == nd->y,
		  "%s: fault at mesh %u (%u,%u), expected mesh %u (%u,%u)", what,
		  st.fault_mesh, st.fault_x, st.fault_y, nd->mesh, nd->x, nd->y);
	/* the library's message names the fault */
	CHECK(strstr(kohaku_last_error(dev), "FAULT") != NULL);
}

TEST_F(rt, sx_fault_bad_opcode)
{
	static const unsigned int ops[] = { 0x00, 0x02, 0x7f, 0xff };
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_inst inst;
	struct rt_vec v;
	unsigned int n_sx, u, k;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (u = 0; u < n_sx; u++) {
		REQUIRE(rt_vec_setup(dev, sx[u].mesh, 16, u, &v) == 0);
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			char what[64];

			CHECK_OK(dev, kohaku_inst_sx(&inst, ops[k], 16,
						     rt_fbits(2.0f), v.ax, v.ay));
			snprintf(what, sizeof(what), "SX (%u,%u) opcode 0x%02x",
				 sx[u].x, sx[u].y, ops[k]);
			check_fault(dev, &sx[u], &inst, KH_SX_FAULT_BAD_OP, what);
		}
		/* nothing was computed */
		CHECK_EQ(rt_vec_check(dev, &v, 2.0f, 0), 0);
		rt_vec_free(dev, &v);
	}
	/* the device still runs a good job */
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/*
 * NODE_STATUS keeps a node's last signal across jobs: a good job on a unit
 * whose previous job faulted must not inherit that fault while its own
 * signal is still on its way (a long saxpy keeps it on its way).
 */
TEST_F(rt, sx_good_job_after_fault_on_same_unit)
{
	static const unsigned long ns[] = { 8, 4096, 65536 };
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_inst bad, good;
	struct kohaku_program p;
	struct kohaku_job_status st;
	struct rt_vec v;
	unsigned int n_sx, u, k;
	int r;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (u = 0; u < n_sx; u++) {
		for (k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
			REQUIRE(rt_vec_setup(dev, sx[u].mesh, ns[k], 7 + k, &v) == 0);
			CHECK_OK(dev, kohaku_inst_sx(&bad, 0xee, 8, rt_fbits(1.0f),
						     v.ax, v.ay));
			check_fault(dev, &sx[u], &bad, KH_SX_FAULT_BAD_OP, "bad opcode");
			rt_prog_saxpy(&p, &good, 1, &sx[u], &v, 1.5f);
			r = rt_run(dev, &p, 1, &st);
			CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
				  "SX (%u,%u) n=%lu after a fault: %d %s (n_faults %u, "
				  "flags 0x%x, code %u): %s", sx[u].x, sx[u].y, ns[k],
				  r, kohaku_job_status_name(st.status), st.n_faults,
				  st.fault_flags, st.fault_code, kohaku_last_error(dev));
			CHECK_EQ(rt_vec_check(dev, &v, 1.5f, 1), 0);
			rt_vec_free(dev, &v);
		}
	}
	kohaku_close(dev);
}

/* n > 64 (N_MAX): FAULT_TOO_BIG, nothing touched (saxpy_cu.v:40, :146) */
TEST_F(rt, sx_fault_too_big)
{
	static const uint32_t big[] = { KH_SX_N_MAX + 1, 1000, 0xffffff };
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_inst inst;
	struct rt_vec v;
	unsigned int n_sx, u, k;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (u = 0; u < n_sx; u++) {
		REQUIRE(rt_vec_setup(dev, sx[u].mesh, 64, u, &v) == 0);
		/* the checked builder refuses; the raw one encodes it */
		CHECK_ERR(kohaku_inst_saxpy(&inst, KH_SX_N_MAX + 1, 1.0f, v.ax, v.ay),
			  -EINVAL);
		CHECK_ERR(kohaku_inst_sx(&inst, KH_SX_OP_SAXPY, 0x1000000,
					 rt_fbits(1.0f), v.ax, v.ay), -EINVAL);
		for (k = 0; k < sizeof(big) / sizeof(big[0]); k++) {
			CHECK_OK(dev, kohaku_inst_sx(&inst, KH_SX_OP_SAXPY, big[k],
						     rt_fbits(1.0f), v.ax, v.ay));
			check_fault(dev, &sx[u], &inst, KH_SX_FAULT_TOO_BIG, "n > 64");
		}
		CHECK_EQ(rt_vec_check(dev, &v, 1.0f, 0), 0);
		rt_vec_free(dev, &v);
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/*
 * The unit checks no alignment: an address inside a 32-byte word works on
 * that word (memory moves whole words), so x + 4 and y + 16 compute what
 * x and y do.  The checked builder still refuses them.
 */
TEST_F(rt, sx_unaligned_addresses_are_no_fault)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_program p;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	struct rt_vec v;
	unsigned int n_sx, u;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	REQUIRE(n_sx > 0);
	for (u = 0; u < n_sx; u++) {
		REQUIRE(rt_vec_setup(dev, sx[u].mesh, 64, 30 + u, &v) == 0);
		CHECK_ERR(kohaku_inst_saxpy(&inst, 8, 1.0f, v.ax + 4, v.ay), -EINVAL);
		CHECK_OK(dev, kohaku_inst_sx(&inst, KH_SX_OP_SAXPY, 64,
					     rt_fbits(0.5f), v.ax + 4, v.ay + 16));
		memset(&p, 0, sizeof(p));
		p.mesh = sx[u].mesh;
		p.x = sx[u].x;
		p.y = sx[u].y;
		p.n_insts = 1;
		p.insts = &inst;
		CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
		CHECK_MSG(st.status == KOHAKU_JOB_DONE, "status %s",
			  kohaku_job_status_name(st.status));
		CHECK_EQ(rt_vec_check(dev, &v, 0.5f, 1), 0);
		rt_vec_free(dev, &v);
	}
	kohaku_close(dev);
}

TEST_F(rt, sx_fault_in_a_multi_unit_job)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_program p[2];
	struct kohaku_inst good, bad;
	struct kohaku_job_status st;
	struct rt_vec v0, v1;
	unsigned int n_sx;
	RT_OPEN(dev);

	n_sx = rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS);
	if (n_sx < 2) {
		kohaku_close(dev);
		SKIP(return, "needs two SX units");
	}
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 100, 1, &v0) == 0);
	REQUIRE(rt_vec_setup(dev, sx[1].mesh, 100, 2, &v1) == 0);
	rt_prog_saxpy(&p[0], &good, 1, &sx[0], &v0, 2.0f);
	CHECK_OK(dev, kohaku_inst_sx(&bad, 0x55, 100, rt_fbits(2.0f), v1.ax, v1.ay));
	memset(&p[1], 0, sizeof(p[1]));
	p[1].mesh = sx[1].mesh;
	p[1].x = sx[1].x;
	p[1].y = sx[1].y;
	p[1].txn = 1;
	p[1].n_insts = 1;
	p[1].insts = &bad;
	CHECK_OK(dev, rt_run(dev, p, 2, &st));
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.n_faults, 1);
	/* a one-instruction program: its only signal is the fault */
	CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_code, KH_SX_FAULT_BAD_OP);
	CHECK_EQ(st.fault_x, sx[1].x);
	CHECK_EQ(st.fault_y, sx[1].y);
	rt_vec_free(dev, &v0);
	rt_vec_free(dev, &v1);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, sx_fault_mid_program_then_good_job)
{
	struct drm_kohaku_node sx[MAX_UNITS];
	struct kohaku_program p;
	struct kohaku_inst inst[3];
	struct kohaku_job_status st;
	struct rt_vec v;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, MAX_UNITS) > 0);
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 24, 9, &v) == 0);
	rt_prog_saxpy(&p, inst, 3, &sx[0], &v, 1.0f);
	CHECK_OK(dev, kohaku_inst_sx(&inst[1], 0x09, 24, rt_fbits(1.0f), v.ax, v.ay));
	CHECK_OK(dev, rt_run(dev, &p, 1, &st));
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_mesh, sx[0].mesh);
	CHECK_EQ(st.fault_x, sx[0].x);
	CHECK_EQ(st.fault_y, sx[0].y);
	CHECK_EQ(st.n_faults, 1);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);	/* one program */
	/*
	 * NODE_STATUS keeps only a node's last signal: the third instruction's
	 * SIG_BATCH_COMPLETE may overwrite the second one's SIG_FAULT, so the
	 * code is reported only when the driver saw it.
	 */
	if (st.fault_flags & KOHAKU_FAULT_CODE_KNOWN)
		CHECK_EQ(st.fault_code, KH_SX_FAULT_BAD_OP);
	else
		CHECK_EQ(st.fault_code, 0);
	check_diag("mid-program fault: code %s", st.fault_flags & KOHAKU_FAULT_CODE_KNOWN ?
		 "known" : "not known (overwritten by the last signal)");
	CHECK(strstr(kohaku_last_error(dev), "FAULT") != NULL);
	rt_vec_free(dev, &v);
	CHECK(rt_good_saxpy(dev));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

RT_TEST_MAIN
