// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run mat-demo: one GEMM block on every mat unit (or the --node
 * ones), each on its own random FP16 matrices in its mesh, all submitted
 * before the first wait: A (8 x 64) and B (64 x 8) uploaded in the unit's
 * entry layout, FILLed through MAG's QUANT path, one GEMM, the four 4x4
 * sub-tiles DRAINed as FP16; every element checked bit-exact against
 * libkohaku's host reference (kohaku_mat_gemm_ref) and the memory past C
 * checked untouched.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "kohaku/kh_units.h"

/* the shape: 2 x 2 sub-tiles, two K blocks (one merged pair) */
#define DEMO_M		8
#define DEMO_N		8
#define DEMO_K		64
#define GUARD_BYTES	64
#define GUARD_BYTE	0xa5
#define C_BYTES		(DEMO_M * DEMO_N * 2)

/* one mat unit's run: its matrices, BOs and job, and what came of it */
struct kohaku_cli_mat_run {
	const struct drm_kohaku_node *node;
	uint16_t a[DEMO_M * DEMO_K], b[DEMO_K * DEMO_N], want[DEMO_M * DEMO_N];
	uint32_t ha, hb, hc;
	uint64_t aa, ab, ac;
	uint64_t job;
	bool submitted;
	double t0, t1;
	struct kohaku_job_status st;
	unsigned long bad;
	bool guard_ok;
	int exit;
	char why[KOHAKU_ERRMSG_MAX];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* FP16 of magnitude 2^-5 .. 2^6, either sign, a zero now and then */
static uint16_t demo_fp16(uint32_t *s)
{
	if (rnd(s) % 16 == 0)
		return 0;
	return (uint16_t)((rnd(s) & 1) << 15 | (10 + rnd(s) % 12) << 10 |
			  (rnd(s) & 0x3ff));
}

static int mat_setup(kohaku_device *dev, const struct kohaku_cli_opts *o,
		     struct kohaku_cli_mat_run *u, unsigned int ui)
{
	uint16_t pa[DEMO_M * DEMO_K], pb[DEMO_K * DEMO_N];
	unsigned char c[C_BYTES + GUARD_BYTES];
	struct kohaku_inst insts[4];
	uint32_t seed = 0x9e3779b9u ^ (ui * 0x85ebca6bu + 1);
	unsigned int i;
	int r;

	for (i = 0; i < DEMO_M * DEMO_K; i++)
		u->a[i] = demo_fp16(&seed);
	for (i = 0; i < DEMO_K * DEMO_N; i++)
		u->b[i] = demo_fp16(&seed);
	r = kohaku_mat_gemm_ref(u->a, u->b, DEMO_M, DEMO_N, DEMO_K, u->want);
	if (!r)
		r = kohaku_mat_pack_a(u->a, DEMO_M, DEMO_K, pa);
	if (!r)
		r = kohaku_mat_pack_b(u->b, DEMO_K, DEMO_N, pb);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "host reference: %s",
			 kohaku_strerror(r));
		u->exit = EXIT_WRONG;
		return r;
	}
	memset(c, GUARD_BYTE, sizeof(c));
	r = kohaku_bo_create(dev, u->node->mesh, sizeof(pa), &u->ha, &u->aa);
	if (!r)
		r = kohaku_bo_create(dev, u->node->mesh, sizeof(pb), &u->hb,
				     &u->ab);
	if (!r)
		r = kohaku_bo_create(dev, u->node->mesh, sizeof(c), &u->hc,
				     &u->ac);
	if (!r)
		r = kohaku_bo_write(dev, u->ha, 0, pa, sizeof(pa));
	if (!r)
		r = kohaku_bo_write(dev, u->hb, 0, pb, sizeof(pb));
	if (!r)
		r = kohaku_bo_write(dev, u->hc, 0, c, sizeof(c));
	if (r < 0)
		goto fail;
	r = kohaku_mat_gemm_program(insts, 4, u->aa, u->ab, u->ac, DEMO_M,
				    DEMO_N, DEMO_K, 0);
	if (r != 4) {
		snprintf(u->why, sizeof(u->why), "cannot encode the program");
		u->exit = EXIT_USAGE;
		return r;
	}
	u->t0 = now_s();
	r = cli_submit_on(dev, u->node, (uint8_t)ui, insts, 4, o->timeout_ms,
			  &u->job);
	if (r < 0)
		goto fail;
	u->submitted = true;
	return 0;
fail:
	snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
	u->exit = r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
	return r;
}

static void mat_finish(kohaku_device *dev, const struct kohaku_cli_opts *o,
		       struct kohaku_cli_mat_run *u)
{
	unsigned char raw[C_BYTES + GUARD_BYTES];
	uint16_t tiles[DEMO_M * DEMO_N], got[DEMO_M * DEMO_N];
	unsigned int i, first = 0;
	int r;

	r = cli_wait_final(dev, u->job, o->timeout_ms, &u->st);
	u->t1 = now_s();
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
		return;
	}
	if (u->st.status != KOHAKU_JOB_DONE) {
		kohaku_job_describe(&u->st, u->why, sizeof(u->why));
		u->exit = EXIT_DEVICE;
		return;
	}
	r = kohaku_bo_read(dev, u->hc, 0, raw, sizeof(raw));
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
		return;
	}
	for (i = 0; i < DEMO_M * DEMO_N; i++)
		tiles[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
	kohaku_mat_unpack_c(tiles, DEMO_M, DEMO_N, got);
	for (i = 0; i < DEMO_M * DEMO_N; i++)
		if (got[i] != u->want[i] && !u->bad++)
			first = i;
	u->guard_ok = true;
	for (i = 0; i < GUARD_BYTES; i++)
		if (raw[C_BYTES + i] != GUARD_BYTE)
			u->guard_ok = false;
	if (u->bad) {
		snprintf(u->why, sizeof(u->why),
			 "%lu of %u elements differ from the host reference; "
			 "first C[%u][%u] = 0x%04x, expected 0x%04x", u->bad,
			 DEMO_M * DEMO_N, first / DEMO_N, first % DEMO_N,
			 got[first], u->want[first]);
		u->exit = EXIT_WRONG;
	} else if (!u->guard_ok) {
		snprintf(u->why, sizeof(u->why),
			 "memory just past C (%u bytes) was changed", C_BYTES);
		u->exit = EXIT_WRONG;
	}
}

static void mat_print(const struct kohaku_cli_opts *o,
		      const struct kohaku_cli_mat_run *u, unsigned int i)
{
	const struct drm_kohaku_node *q = u->node;
	double wall_ms = u->submitted ? (u->t1 - u->t0) * 1e3 : 0;
	double dev_us = u->st.device_ns / 1e3;

	if (o->json) {
		struct json_object *j = cli_json_unit(q, !u->exit);

		cli_json_checked(j, u->submitted, u->st.status, u->bad,
				 u->guard_ok);
		json_object_object_add(j, "wall_ms",
				       cli_json_double(wall_ms, "%.3f"));
		json_object_object_add(j, "device_ns",
				       json_object_new_uint64(u->st.device_ns));
		json_object_object_add(j, "error", json_object_new_string(u->why));
		cli_report_unit(o, j);
		return;
	}
	if (!u->exit)
		printf("MG mesh %u (%u,%u): ok, %u/%u elements bit-exact against "
		       "the host reference, memory past C untouched; wall %.3f "
		       "ms, device %.3f us\n", q->mesh, q->x, q->y,
		       DEMO_M * DEMO_N, DEMO_M * DEMO_N, wall_ms, dev_us);
	else if (u->submitted)
		printf("MG mesh %u (%u,%u): FAILED: %s; wall %.3f ms, device "
		       "%.3f us\n", q->mesh, q->x, q->y, u->why, wall_ms, dev_us);
	else
		printf("MG mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x, q->y,
		       u->why);
}

int cli_cmd_run_mat(const struct kohaku_cli_opts *o)
{
	struct kohaku_cli_demo_units d;
	struct kohaku_cli_mat_run *runs;
	unsigned int n_runs, i;
	kohaku_device *dev;
	int ret;

	ret = cli_demo_open(o, &d, KH_CU_MG, "run mat-demo", sizeof(*runs),
			    offsetof(struct kohaku_cli_mat_run, node));
	dev = d.dev;
	n_runs = d.n_sel;
	runs = d.runs;
	if (ret)
		goto out;
	if (!o->json)
		printf("\nmat-demo: C (%ux%u) = A (%ux%u) . B (%ux%u), FP16 in "
		       "and out (MXFP7 through MAG's quantiser, FP22 "
		       "accumulation), on %u mat unit%s\n", DEMO_M, DEMO_N,
		       DEMO_M, DEMO_K, DEMO_K, DEMO_N, n_runs,
		       n_runs == 1 ? "" : "s");
	if (!n_runs) {
		ret = cli_demo_none(o, "mat-demo", "mat", KH_CU_MG,
				    "try a map with `mat` tokens, e.g. --map mesh_2x2_8+2");
		goto out;
	}
	/* submit everything first, so the units run side by side */
	for (i = 0; i < n_runs; i++)
		mat_setup(dev, o, &runs[i], i);
	for (i = 0; i < n_runs; i++)
		if (runs[i].submitted)
			mat_finish(dev, o, &runs[i]);

	cli_report_set(o, "m", json_object_new_int(DEMO_M));
	cli_report_set(o, "n", json_object_new_int(DEMO_N));
	cli_report_set(o, "k", json_object_new_int(DEMO_K));
	cli_report_set(o, "units", NULL);
	for (i = 0; i < n_runs; i++) {
		if (runs[i].exit > ret || (ret == EXIT_OK && runs[i].exit))
			ret = runs[i].exit;
		mat_print(o, &runs[i], i);
	}
	cli_print_verdict(o, "mat-demo", ret, "every element matches");
	for (i = 0; i < n_runs; i++) {
		if (runs[i].ha)
			kohaku_bo_free(dev, runs[i].ha);
		if (runs[i].hb)
			kohaku_bo_free(dev, runs[i].hb);
		if (runs[i].hc)
			kohaku_bo_free(dev, runs[i].hc);
	}
out:
	cli_demo_close(&d);
	return ret;
}
