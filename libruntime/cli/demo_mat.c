// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run mat-demo: one GEMM block on every mat unit (or the --node
 * ones), each on its own random FP16 matrices in its mesh: A (8 x 64) and
 * B (64 x 8) uploaded in the unit's entry layout, FILLed through MAG's
 * QUANT path, one GEMM, the four 4x4 sub-tiles DRAINed as FP16; every
 * element checked bit-exact against libkohaku's host reference
 * (kohaku_mat_gemm_ref) and the memory past C checked untouched.  The rest
 * of the run is demo.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "kohaku/kh_units.h"

/* the shape: 2 x 2 sub-tiles, two K blocks (one merged pair) */
#define DEMO_M		8
#define DEMO_N		8
#define DEMO_K		64
#define GUARD_BYTES	64
#define C_BYTES		(DEMO_M * DEMO_N * 2)
#define MAT_INSTS	4

enum { BO_A, BO_B, BO_C };

/* a unit's matrices, the host's answer and the program */
struct kohaku_cli_mat {
	uint16_t a[DEMO_M * DEMO_K], b[DEMO_K * DEMO_N], want[DEMO_M * DEMO_N];
	struct kohaku_inst insts[MAT_INSTS];
};

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

static void mat_intro(const struct kohaku_cli_demo_ctx *c, unsigned int n_units)
{
	printf("\nmat-demo: C (%ux%u) = A (%ux%u) . B (%ux%u), FP16 in "
	       "and out (MXFP7 through MAG's quantiser, FP22 "
	       "accumulation), on %u mat unit%s\n", DEMO_M, DEMO_N,
	       DEMO_M, DEMO_K, DEMO_K, DEMO_N, n_units,
	       n_units == 1 ? "" : "s");
}

static int mat_setup(const struct kohaku_cli_demo_ctx *c,
		     struct kohaku_cli_run *r, struct kohaku_program *p)
{
	struct kohaku_cli_mat *m = r->priv;
	uint16_t pa[DEMO_M * DEMO_K], pb[DEMO_K * DEMO_N];
	unsigned char cb[C_BYTES + GUARD_BYTES];
	uint32_t seed = 0x9e3779b9u ^ (r->index * 0x85ebca6bu + 1);
	unsigned int i;
	int err;

	for (i = 0; i < DEMO_M * DEMO_K; i++)
		m->a[i] = demo_fp16(&seed);
	for (i = 0; i < DEMO_K * DEMO_N; i++)
		m->b[i] = demo_fp16(&seed);
	err = kohaku_mat_gemm_ref(m->a, m->b, DEMO_M, DEMO_N, DEMO_K, m->want);
	if (!err)
		err = kohaku_mat_pack_a(m->a, DEMO_M, DEMO_K, pa);
	if (!err)
		err = kohaku_mat_pack_b(m->b, DEMO_K, DEMO_N, pb);
	if (err < 0)
		return cli_run_failed(r, EXIT_WRONG, "host reference: %s",
				      kohaku_strerror(err));
	memset(cb, CLI_GUARD_BYTE, sizeof(cb));
	err = cli_run_bo(c, r, sizeof(pa));
	if (err >= 0)
		err = cli_run_bo(c, r, sizeof(pb));
	if (err >= 0)
		err = cli_run_bo(c, r, sizeof(cb));
	if (err >= 0)
		err = cli_run_write(c, r, BO_A, pa, sizeof(pa));
	if (!err)
		err = cli_run_write(c, r, BO_B, pb, sizeof(pb));
	if (!err)
		err = cli_run_write(c, r, BO_C, cb, sizeof(cb));
	if (err < 0)
		return err;
	if (kohaku_mat_gemm_program(m->insts, MAT_INSTS, r->addr[BO_A],
				    r->addr[BO_B], r->addr[BO_C], DEMO_M, DEMO_N,
				    DEMO_K, 0) != MAT_INSTS)
		return cli_run_failed(r, EXIT_USAGE, "cannot encode the program");
	p->insts = m->insts;
	p->n_insts = MAT_INSTS;
	return 0;
}

static void mat_check(const struct kohaku_cli_demo_ctx *c,
		      struct kohaku_cli_run *r)
{
	const struct kohaku_cli_mat *m = r->priv;
	uint16_t tiles[DEMO_M * DEMO_N], got[DEMO_M * DEMO_N];
	unsigned char *raw = cli_run_read(c, r, BO_C, C_BYTES + GUARD_BYTES);
	unsigned int i, f;

	if (!raw)
		return;
	for (i = 0; i < DEMO_M * DEMO_N; i++)
		tiles[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
	kohaku_mat_unpack_c(tiles, DEMO_M, DEMO_N, got);
	for (i = 0; i < DEMO_M * DEMO_N; i++)
		if (got[i] != m->want[i])
			cli_run_mismatch(r, i);
	r->guard_ok = cli_guard_ok(raw + C_BYTES, GUARD_BYTES);
	free(raw);
	f = (unsigned int)r->first_bad;
	if (r->bad)
		cli_run_failed(r, EXIT_WRONG, "%lu of %u elements differ from the "
			       "host reference; first C[%u][%u] = 0x%04x, "
			       "expected 0x%04x", r->bad, DEMO_M * DEMO_N,
			       f / DEMO_N, f % DEMO_N, got[f], m->want[f]);
	else if (!r->guard_ok)
		cli_run_failed(r, EXIT_WRONG, "memory just past C (%u bytes) was "
			       "changed", C_BYTES);
}

static void mat_report(const struct kohaku_cli_demo_ctx *c,
		       struct json_object *rep)
{
	json_object_object_add(rep, "m", json_object_new_int(DEMO_M));
	json_object_object_add(rep, "n", json_object_new_int(DEMO_N));
	json_object_object_add(rep, "k", json_object_new_int(DEMO_K));
}

static void mat_print_ok(const struct kohaku_cli_demo_ctx *c,
			 const struct kohaku_cli_run *r)
{
	printf(": ok, %u/%u elements bit-exact against the host reference, "
	       "memory past C untouched", DEMO_M * DEMO_N, DEMO_M * DEMO_N);
}

static void mat_json(const struct kohaku_cli_demo_ctx *c,
		     const struct kohaku_cli_run *r, struct json_object *j)
{
	cli_run_json_checked(j, r);
	cli_run_json_times(j, r);
}

const struct kohaku_cli_demo cli_demo_mat = {
	.name = "mat-demo",
	.what = "run mat-demo",
	.cu_type = KH_CU_MG,
	.unit = "mat",
	.type_named = true,
	.hint = "try a map with `mat` tokens, e.g. --map mesh_2x2_8+2",
	.line = "MG",
	.pass = "every element matches",
	.takes = CLI_TAKES_NODE | CLI_TAKES_TIMEOUT,
	.wall = true,
	.refused_usage = true,
	.priv_size = sizeof(struct kohaku_cli_mat),
	.intro = mat_intro,
	.setup = mat_setup,
	.check = mat_check,
	.report = mat_report,
	.print_ok = mat_print_ok,
	.json = mat_json,
};
