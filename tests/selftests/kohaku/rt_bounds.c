// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A POOL unit's bounds (docs/spec/pool.md "Bounds"): SUBMIT's check reads
 * the firmware's kernels, the unit's regions stop what the firmware
 * computes on its own.  The test image test/rogue.fw is pool.fw whose FILL
 * also writes, through the window and the iDMA, at the address in its
 * w5:w4, which the real FILL ignores and SUBMIT does not check: the job
 * faults with KH_POOL_UNIT_BOUNDS, nothing lands, and the firmware runs
 * on.  A program reaching more separate buffers than the unit has
 * regions is refused (E2BIG) with nothing sent; buffers that touch and are
 * used alike share one.  Skips on cards without POOL units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"
#include "kohaku/kh_pool.h"

#define PB	4096	/* each buffer: one region granule */

/* test/rogue.fw beside the image under test, or "" */
static void rogue_path(char *path, size_t len)
{
	const char *fw = getenv("KOHAKU_TEST_FW");

	snprintf(path, len, "%s", fw && *fw ? fw : "/lib/firmware/kohaku/pool.fw");
	*strrchr(path, '/') = '\0';
	strncat(path, "/test/rogue.fw", len - strlen(path) - 1);
	if (access(path, R_OK))
		*path = '\0';
}

/* one program on nd with the buffers named, run to a final status */
static int run_named(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     const struct kohaku_inst *insts, unsigned int n,
		     const struct kohaku_job_bo *bos, unsigned int n_bos,
		     uint32_t flags, struct kohaku_job_status *st)
{
	struct kohaku_submit_args a;
	struct kohaku_program p;
	uint64_t job;
	int r;

	rt_prog_on(&p, nd, insts, n);
	memset(&a, 0, sizeof(a));
	a.programs = &p;
	a.n_programs = 1;
	a.bos = bos;
	a.n_bos = n_bos;
	a.flags = flags;
	r = kohaku_submit_ex(dev, &a, &job);
	return r ? r : kohaku_wait(dev, job, 20000, st, sizeof(*st));
}

static void fill_bo(kohaku_device *dev, uint32_t h, unsigned char v)
{
	unsigned char b[PB];

	memset(b, v, sizeof(b));
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, b, sizeof(b)));
}

/* bytes of the BO that are not v */
static unsigned int bo_not(kohaku_device *dev, uint32_t h, unsigned char v)
{
	unsigned char b[PB];
	unsigned int i, n = 0;

	CHECK_OK(dev, kohaku_bo_read(dev, h, 0, b, sizeof(b)));
	for (i = 0; i < PB; i++)
		n += b[i] != v;
	return n;
}

/* the rogue FILL: dst, pattern, bytes, and the stray address in w5:w4 */
static void rogue_fill(struct kohaku_inst *in, uint64_t dst, uint32_t pat,
		       uint32_t bytes, uint64_t stray)
{
	const uint32_t w[7] = { (uint32_t)dst, (uint32_t)(dst >> 32), pat, 0,
				(uint32_t)stray, (uint32_t)(stray >> 32), bytes };

	kohaku_inst_pool(in, KH_POOL_K_FILL, w);
}

TEST_F(rt, bounds_stop_a_firmware_that_strays)
{
	struct drm_kohaku_fw_load out;
	struct kohaku_job_status st;
	struct kohaku_job_bo bo;
	struct kohaku_inst in;
	uint32_t ha, hv;
	uint64_t a, v;
	char path[512], d[256];
	int r;
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);

	(void)n;
	rogue_path(path, sizeof(path));
	if (!*path) {
		kohaku_close(dev);
		SKIP(return, "no test image test/rogue.fw (make firmware)");
	}
	if (!rt_destructive_ok(dev)) {
		kohaku_close(dev);
		SKIP(return, "loads another firmware: KOHAKU_TEST_DESTRUCTIVE=1");
	}
	CHECK_OK(dev, kohaku_fw_load_file(dev, path, 0, &out, sizeof(out)));
	REQUIRE(rt_fw_state(dev, &nd[0]) == KOHAKU_FW_STATE_RUNNING);
	CHECK_OK(dev, kohaku_bo_create(dev, nd[0].mesh, PB, &ha, &a));
	CHECK_OK(dev, kohaku_bo_create(dev, nd[0].mesh, PB, &hv, &v));
	fill_bo(dev, ha, 0);
	fill_bo(dev, hv, 0x11);
	bo.handle = ha;
	bo.access = KOHAKU_JOB_BO_RW;

	/* SUBMIT's check passes it: FILL's operand is in the named buffer */
	rogue_fill(&in, a, 0x5a5a5a5a, PB, v + 64);
	r = run_named(dev, &nd[0], &in, 1, &bo, 1, 0, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_FAULT &&
		  st.fault_code == KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_BOUNDS),
		  "%d %s 0x%08x (%s): %s", r, kohaku_job_status_name(st.status),
		  st.fault_code, kohaku_pool_fault_describe(st.fault_code, d, sizeof(d)),
		  kohaku_last_error(dev));
	check_diag("the stray FILL: %s", kohaku_pool_fault_describe(st.fault_code, d, sizeof(d)));
	CHECK_EQ(bo_not(dev, hv, 0x11), 0);	/* nothing landed */
	CHECK_EQ(bo_not(dev, ha, 0x5a), 0);	/* its own work did */

	/* the firmware runs on: the next jobs are as on any unit */
	REQUIRE(kohaku_inst_pool_ping(&in, 0x77) == 0);
	r = run_named(dev, &nd[0], &in, 1, NULL, 0, 0, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "ping after: %d %s",
		  r, kohaku_job_status_name(st.status));
	CHECK_EQ(rt_fw_state(dev, &nd[0]), KOHAKU_FW_STATE_RUNNING);
	rogue_fill(&in, a, 0x3c3c3c3c, PB, 0);
	r = run_named(dev, &nd[0], &in, 1, &bo, 1, 0, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "a FILL that stays: %d %s",
		  r, kohaku_job_status_name(st.status));
	CHECK_EQ(bo_not(dev, ha, 0x3c), 0);

	/* an administrator's unchecked job is not bounded: it lands */
	rogue_fill(&in, a, 0x5a5a5a5a, PB, v + 64);
	r = run_named(dev, &nd[0], &in, 1, NULL, 0, KOHAKU_SUBMIT_UNCHECKED, &st);
	if (r != -EPERM) {
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "unchecked: %d %s",
			  r, kohaku_job_status_name(st.status));
		CHECK(bo_not(dev, hv, 0x11) > 0);
	}
	kohaku_bo_free(dev, ha);
	kohaku_bo_free(dev, hv);
	rt_fw_reload(dev);
	kohaku_close(dev);
}

TEST_F(rt, bounds_count_separate_buffers)
{
	struct kohaku_job_status st;
	struct kohaku_job_bo bos[8];
	struct kohaku_inst in[8];
	uint32_t h[8];
	uint64_t a[8];
	unsigned int i;
	bool touch = true;
	int r;
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);

	(void)n;
	for (i = 0; i < 8; i++) {
		CHECK_OK(dev, kohaku_bo_create(dev, nd[0].mesh, PB, &h[i], &a[i]));
		fill_bo(dev, h[i], (unsigned char)(0x10 + i));
		bos[i].handle = h[i];
		bos[i].access = KOHAKU_JOB_BO_RW;
		if (i && a[i] != a[i - 1] + PB)
			touch = false;
	}
	/* COPY b0->b1, b2->b3, b4->b5: read, written, read...: six regions */
	for (i = 0; i < 3; i++)
		REQUIRE(kohaku_inst_pool_copy(&in[i], a[2 * i], a[2 * i + 1], PB) == 0);
	r = run_named(dev, &nd[0], in, 3, bos, 8, 0, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "six regions: %d %s: %s",
		  r, kohaku_job_status_name(st.status), kohaku_last_error(dev));
	for (i = 0; i < 3; i++)
		CHECK_EQ(bo_not(dev, h[2 * i + 1], (unsigned char)(0x10 + 2 * i)), 0);
	/* one copy more needs a seventh: refused, nothing sent */
	fill_bo(dev, h[7], 0x17);
	REQUIRE(kohaku_inst_pool_copy(&in[3], a[6], a[7], PB) == 0);
	r = run_named(dev, &nd[0], in, 4, bos, 8, 0, &st);
	CHECK_EQ(r, -E2BIG);
	CHECK_MSG(strstr(kohaku_last_error(dev), "instruction 3, operand 0") &&
		  strstr(kohaku_last_error(dev), "E2BIG"), "%s", kohaku_last_error(dev));
	check_diag("%s", kohaku_last_error(dev));
	CHECK_EQ(bo_not(dev, h[7], 0x17), 0);
	/* buffers that touch, written alike, are one region: eight FILLs */
	for (i = 0; i < 8; i++)
		REQUIRE(kohaku_inst_pool_fill(&in[i], a[i], 0x61616161u * 1, PB) == 0);
	r = run_named(dev, &nd[0], in, 8, bos, 8, 0, &st);
	if (touch) {
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "eight touching: %d %s: %s",
			  r, kohaku_job_status_name(st.status), kohaku_last_error(dev));
		for (i = 0; i < 8; i++)
			CHECK_EQ(bo_not(dev, h[i], 0x61), 0);
	} else {
		check_diag("the eight buffers do not touch: %d", r);
		CHECK_EQ(r, -E2BIG);
	}
	for (i = 0; i < 8; i++)
		kohaku_bo_free(dev, h[i]);
	kohaku_close(dev);
}

RT_TEST_MAIN
