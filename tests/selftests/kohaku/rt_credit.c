// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The driver core's credit accounting (docs/driver-core.md, "Dispatch and
 * credit") on cards whose instruction FIFOs are tiny, so that every path of
 * it runs: more programs in a job than credit (each program's last
 * instruction keeps a credit for good), programs far longer than the FIFO,
 * faults in the middle of programs (they keep a credit too, and are counted
 * exactly from the counter), and a good job after all of it.
 *
 * Each test makes its own simulated card from a description, so these run
 * on the sim backend; on the kernel backend they skip (the same core runs
 * there, and tests/vm makes no cards per test).
 */
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"

/* sx_null_2x2 with FIFOs of 2: a seed of 2 credits for any job */
static const char tiny_desc[] =
	"param inst_depth 2\n"
	"param recv_depth 16\n"
	"xxx  sax  null xxx\n"
	"mag  sax  null sax\n"
	"mag  null sax  null\n"
	"xxx  null sax  xxx\n";

static kohaku_device *open_tiny(void)
{
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev = NULL;
	int r;

	r = kohaku_open(KOHAKU_BACKEND_SIM, tiny_desc, &dev, err, sizeof(err));
	if (r)
		check_fail_at(__FILE__, __LINE__, "open the tiny-FIFO card: %s", err);
	return dev;
}

#define TINY_OPEN(dev)							\
	kohaku_device *dev;						\
	do {								\
		const char *b = getenv("KOHAKU_BACKEND");		\
		if (b && !strcmp(b, "kernel"))				\
			SKIP(return, "makes its own simulated cards");		\
	} while (0);							\
	dev = open_tiny();						\
	REQUIRE(dev != NULL)

/* retired count of (x, y), read live */
static long retired_at(kohaku_device *dev, uint8_t x, uint8_t y)
{
	struct drm_kohaku_node nd[16];
	unsigned int n = 0, i;

	if (kohaku_nodes(dev, KOHAKU_NODES_LIVE, nd, 16, sizeof(*nd), &n))
		return -1;
	for (i = 0; i < n && i < 16; i++)
		if (nd[i].x == x && nd[i].y == y)
			return nd[i].retired;
	return -1;
}

static void null_prog(struct kohaku_program *p, struct kohaku_inst *insts,
		      unsigned int n, const struct drm_kohaku_node *nd,
		      uint8_t txn)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t w[8] = { i, txn, 0xc0ffee, 0, 0, 0, 0, i * 7 };

		kohaku_inst_null(&insts[i], w);
	}
	memset(p, 0, sizeof(*p));
	p->mesh = nd->mesh;
	p->x = nd->x;
	p->y = nd->y;
	p->txn = txn;
	p->n_insts = n;
	p->insts = insts;
}

TEST_F(rt, more_programs_than_credit)
{
	struct drm_kohaku_node nu[8];
	struct kohaku_program p[8];
	struct kohaku_inst inst[8];
	struct kohaku_job_status st;
	long before[8];
	unsigned int n, i;
	int r;
	TINY_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_NULL, nu, 8);
	REQUIRE(n == 5);
	for (i = 0; i < n; i++) {
		before[i] = retired_at(dev, nu[i].x, nu[i].y);
		null_prog(&p[i], &inst[i], 1, &nu[i], 0x10 + i);
	}
	/* five lasts against a seed of two: the core must reseed twice */
	r = rt_run(dev, p, n, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "%d %s: %s", r,
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(st.n_faults, 0);
	for (i = 0; i < n; i++)
		CHECK_EQ(retired_at(dev, nu[i].x, nu[i].y) - before[i], 1);
	kohaku_close(dev);
}

TEST_F(rt, programs_far_longer_than_the_fifo)
{
	enum { N = 300 };
	struct drm_kohaku_node nu[8];
	struct kohaku_program p[5];
	struct kohaku_inst *inst;
	struct kohaku_job_status st;
	unsigned int n, i;
	long before[5];
	int r;
	TINY_OPEN(dev);

	n = rt_nodes_of(dev, KH_CU_NULL, nu, 8);
	REQUIRE(n == 5);
	inst = calloc(5 * N, sizeof(*inst));
	REQUIRE(inst != NULL);
	for (i = 0; i < n; i++) {
		before[i] = retired_at(dev, nu[i].x, nu[i].y);
		/* lengths 1, N/4, N/2, ... so the kicks interleave unevenly */
		null_prog(&p[i], &inst[i * N], i ? N * i / 4 : 1, &nu[i], i);
	}
	r = rt_run(dev, p, n, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "%d %s: %s", r,
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	for (i = 0; i < n; i++)
		CHECK_EQ(retired_at(dev, nu[i].x, nu[i].y) - before[i],
			 p[i].n_insts);
	free(inst);
	kohaku_close(dev);
}

/* k saxpy instructions on one unit, bad opcodes at the listed indices */
static void sx_prog_with_faults(struct kohaku_program *p,
				struct kohaku_inst *inst, unsigned int k,
				const struct drm_kohaku_node *nd,
				struct rt_vec *v, float a,
				const unsigned int *bad, unsigned int n_bad)
{
	unsigned int i;

	rt_prog_saxpy(p, inst, k, nd, v, a);
	for (i = 0; i < n_bad; i++)
		kohaku_inst_sx(&inst[bad[i]], 0x7e, (uint32_t)v->n, rt_fbits(a),
			       v->ax, v->ay);
}

TEST_F(rt, mid_program_faults_are_counted_exactly)
{
	static const unsigned int bad[] = { 2, 5, 8 };
	struct drm_kohaku_node sx[8];
	struct kohaku_program p;
	struct kohaku_inst inst[10];
	struct kohaku_job_status st;
	struct rt_vec v;
	int r;
	TINY_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 8) == 5);
	REQUIRE(rt_vec_setup(dev, 0, 60, 3, &v) == 0);	/* one instruction each */
	sx_prog_with_faults(&p, inst, 10, &sx[0], &v, 1.25f, bad, 3);
	r = rt_run(dev, &p, 1, &st);
	CHECK_MSG(r == 0 || r == -EIO, "%d: %s", r, kohaku_last_error(dev));
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	/* three credits went missing: the core knows exactly three faulted */
	CHECK_EQ(st.n_faults, 3);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, sx[0].x);
	CHECK_EQ(st.fault_y, sx[0].y);
	if (st.fault_flags & KOHAKU_FAULT_CODE_KNOWN)
		CHECK_EQ(st.fault_code, KH_SX_FAULT_BAD_OP);
	/* the seven good instructions ran, in order */
	CHECK_EQ(rt_vec_check(dev, &v, 1.25f, 7), 0);
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

TEST_F(rt, faults_across_programs_and_a_good_job_after)
{
	static const unsigned int bad_a[] = { 1 };
	static const unsigned int bad_b[] = { 3 };	/* its last instruction */
	struct drm_kohaku_node sx[8], nu[8];
	struct kohaku_program p[3];
	struct kohaku_inst ia[4], ib[4], in[40];
	struct kohaku_job_status st;
	struct rt_vec va, vb;
	int r;
	TINY_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 8) == 5);
	REQUIRE(rt_nodes_of(dev, KH_CU_NULL, nu, 8) == 5);
	REQUIRE(rt_vec_setup(dev, 0, 64, 4, &va) == 0);
	REQUIRE(rt_vec_setup(dev, 0, 57, 5, &vb) == 0);
	sx_prog_with_faults(&p[0], ia, 4, &sx[1], &va, 0.5f, bad_a, 1);
	sx_prog_with_faults(&p[1], ib, 4, &sx[2], &vb, 2.0f, bad_b, 1);
	p[1].txn = 1;
	null_prog(&p[2], in, 40, &nu[0], 2);
	r = rt_run(dev, p, 3, &st);
	CHECK_MSG(r == 0 || r == -EIO, "%d: %s", r, kohaku_last_error(dev));
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.n_faults, 2);
	/* B's fault was its last signal: the core saw it in NODE_STATUS */
	CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(st.fault_code, KH_SX_FAULT_BAD_OP);
	CHECK_EQ(rt_vec_check(dev, &va, 0.5f, 3), 0);
	CHECK_EQ(rt_vec_check(dev, &vb, 2.0f, 3), 0);
	rt_vec_free(dev, &va);
	rt_vec_free(dev, &vb);
	/* nothing left over: a clean job on every SX unit is DONE */
	CHECK(rt_good_saxpy(dev));
	r = rt_run(dev, &p[2], 1, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE && st.n_faults == 0,
		  "%d %s n_faults %u", r, kohaku_job_status_name(st.status),
		  st.n_faults);
	kohaku_close(dev);
}

RT_TEST_MAIN
