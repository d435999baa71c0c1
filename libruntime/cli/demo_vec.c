// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run vec-demo: on every vec unit (or the --node ones), two FP16
 * vectors of 128 elements in DRAM, a kernel loaded with IMEM, its
 * descriptors with DESC and started with RUN, all through SUBMIT:
 *
 *   VSETI S0 128; VSETVL S0; VSETMODE FLAT
 *   VFILL  d0 -> L1 0..15          x, y (FP16, 16 a 32-byte word)
 *   VBAR
 *   VLD    v0 = L1 0..7;  VLD v1 = L1 8..15
 *   VADD   v2 = v0 + v1
 *   VFMA   v3 = v0 * v1 + v2
 *   VST    v2 -> L1 16..23; VST v3 -> L1 24..31
 *   VDRAIN d2 <- L1 16..31         s = x + y, f = x*y + (x + y)
 *   VHALT
 *
 * The data are halves in [-16, 16] (never -0): every E8M15 result is then
 * exact and so is its FP16 form (|f| <= 288 in quarters needs 11 bits), so
 * the host's reference is plain float arithmetic and FP16 from its
 * definition, independent of the unit's rounding (docs/spec/vec.md).
 * Every element is checked bit for bit, and the 64 bytes past the result;
 * the kernel's cycle count is RUN's exec_result, which the unit keeps in
 * CU_DBG (demo.c reads it live from NODES after the jobs).  The rest of
 * the run is demo.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "kohaku/kh_units.h"
#include "kohaku/kh_vec.h"

#define VD_N		KH_VEC_VLMAX		/* elements a vector */
#define VD_VBYTES	(VD_N * 2)		/* FP16 */
#define VD_WORDS	(VD_VBYTES / KH_VEC_WORD_BYTES)	/* 8 L1 words */
#define VD_GUARD	64
#define VD_MAX_INSTS	64
#define VD_OUT_BYTES	(2 * VD_VBYTES + VD_GUARD)

enum { BO_IN, BO_OUT };

/* a unit's program */
struct kohaku_cli_vec {
	struct kohaku_inst inst[VD_MAX_INSTS];
};

/* the data: halves in [-16, 16]; (k - 32) / 2 for k = 32 is +0, never -0 */
static float vd_x(unsigned int i, unsigned int u)
{
	return (float)((int)((i * 7 + u * 3) % 65) - 32) * 0.5f;
}

static float vd_y(unsigned int i, unsigned int u)
{
	return (float)((int)((i * 11 + 5 + u * 13) % 65) - 32) * 0.5f;
}

/* binary32 -> binary16, round to nearest even (IEEE 754's conversion) */
static uint16_t vd_f16(float f)
{
	uint32_t b, s, e, m;
	int ex;

	memcpy(&b, &f, 4);
	s = (b >> 16) & 0x8000;
	e = (b >> 23) & 0xff;
	m = b & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
	ex = (int)e - 127;
	if (ex > 15)
		return (uint16_t)(s | 0x7c00);
	if (ex >= -14) {
		uint32_t h = ((uint32_t)(ex + 15) << 10) | (m >> 13);
		uint32_t rem = m & 0x1fff;

		if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
			h++;	/* may carry into the exponent, or to inf */
		return (uint16_t)(s | h);
	}
	if (ex < -25 || !e)
		return (uint16_t)s;
	{
		/* subnormal: value = (1.m) * 2^ex, units of 2^-24 */
		uint32_t sig = m | 0x800000, sh = (uint32_t)(-ex - 14 + 13);
		uint32_t h = sig >> sh, rem = sig & ((1u << sh) - 1);
		uint32_t half = 1u << (sh - 1);

		if (rem > half || (rem == half && (h & 1)))
			h++;
		return (uint16_t)(s | h);
	}
}

/* the two results of element i on unit u, as FP16 */
static void vd_expect(unsigned int i, unsigned int u, uint16_t *s,
		      uint16_t *f)
{
	float x = vd_x(i, u), y = vd_y(i, u), sum = x + y;

	*s = vd_f16(sum);
	*f = vd_f16(x * y + sum);
}

/* the job: 14 kernel words by IMEM, descriptors 0-2 by DESC, RUN */
static int vd_program(struct kohaku_inst *inst, unsigned int *n, uint64_t ain,
		      uint64_t aout)
{
	uint32_t k[16];
	unsigned int nk = 0, ni = 0, d, dim;
	const struct { uint64_t base; int32_t stride; uint32_t bound; } desc[3] = {
		{ ain, KH_VEC_WORD_BYTES, 2 * VD_WORDS },	/* x, y */
		{ 0, 1, VD_WORDS },				/* L1 words */
		{ aout, KH_VEC_WORD_BYTES, 2 * VD_WORDS },	/* s, f */
	};
	int r = 0;

	r |= kohaku_vec_vseti(&k[nk], 0, VD_N);
	nk += 2;
	r |= kohaku_vec_vsetvl(&k[nk++], 0);
	r |= kohaku_vec_vsetmode(&k[nk++], KH_VEC_MODE_FLAT);
	r |= kohaku_vec_vfill(&k[nk++], 0, 0);
	k[nk++] = kohaku_vec_vbar();
	r |= kohaku_vec_vld(&k[nk++], 0, 1, 0, KH_VEC_DT_FP16);
	r |= kohaku_vec_vld(&k[nk++], 1, 1, VD_WORDS, KH_VEC_DT_FP16);
	r |= kohaku_vec_vadd(&k[nk++], 2, 0, 1);
	r |= kohaku_vec_vfma(&k[nk++], 3, 0, 1, 2);
	r |= kohaku_vec_vst(&k[nk++], 2, 1, 2 * VD_WORDS, KH_VEC_DT_FP16);
	r |= kohaku_vec_vst(&k[nk++], 3, 1, 3 * VD_WORDS, KH_VEC_DT_FP16);
	r |= kohaku_vec_vdrain(&k[nk++], 2, 2 * VD_WORDS);
	k[nk++] = kohaku_vec_vhalt();
	r |= kohaku_inst_vec_imem_words(&inst[ni], 0, k, nk);
	ni += nk;
	/* every field of the three: a dimension left by an earlier kernel
	 * would lengthen the walk */
	for (d = 0; d < 3; d++) {
		r |= kohaku_inst_vec_desc_base(&inst[ni++], d, desc[d].base);
		for (dim = 0; dim < KH_VEC_DIMS; dim++)
			r |= kohaku_inst_vec_desc_dim(&inst[ni++], d, dim,
						      dim ? 0 : desc[d].stride,
						      dim ? 1 : desc[d].bound);
	}
	r |= kohaku_inst_vec_run(&inst[ni++], 0);
	*n = ni;
	return r ? -EINVAL : 0;
}

static void vd_intro(const struct kohaku_cli_demo_ctx *c, unsigned int n_units)
{
	printf("\nvec-demo: s = x + y and f = x*y + s, %u FP16 elements "
	       "each, on %u vec unit%s\n"
	       "  (data: halves in [-16, 16], so every E8M15 result is "
	       "exact and the host\n"
	       "  reference is plain float math, then FP16 by IEEE "
	       "754's round to nearest even)\n", VD_N, n_units,
	       n_units == 1 ? "" : "s");
}

static int vd_setup(const struct kohaku_cli_demo_ctx *c,
		    struct kohaku_cli_run *r, struct kohaku_program *p)
{
	struct kohaku_cli_vec *v = r->priv;
	uint16_t in[2 * VD_N];
	unsigned char out[VD_OUT_BYTES];
	unsigned int i, n;
	int err;

	for (i = 0; i < VD_N; i++) {
		in[i] = vd_f16(vd_x(i, r->index));
		in[VD_N + i] = vd_f16(vd_y(i, r->index));
	}
	memset(out, CLI_GUARD_BYTE, sizeof(out));
	err = cli_run_bo(c, r, sizeof(in));
	if (err >= 0)
		err = cli_run_bo(c, r, sizeof(out));
	if (err >= 0)
		err = cli_run_write(c, r, BO_IN, in, sizeof(in));
	if (!err)
		err = cli_run_write(c, r, BO_OUT, out, sizeof(out));
	if (err < 0)
		return err;
	if (vd_program(v->inst, &n, r->addr[BO_IN], r->addr[BO_OUT]) < 0)
		return cli_run_failed(r, EXIT_USAGE, "cannot encode the kernel "
				      "(a BO address past 40 bits?)");
	p->insts = v->inst;
	p->n_insts = n;
	return 0;
}

/* a fault's code in the vec unit's words */
static void vd_describe(const struct kohaku_job_status *st, char *why,
			size_t len)
{
	char d[512], f[256];

	kohaku_job_describe(st, sizeof(*st), d, sizeof(d));
	if (st->status == KOHAKU_JOB_FAULT &&
	    (st->fault_flags & KOHAKU_FAULT_CODE_KNOWN))
		snprintf(why, len, "%s: %s", d,
			 kohaku_vec_fault_describe(st->fault_code, f, sizeof(f)));
	else
		snprintf(why, len, "%s", d);
}

static void vd_check(const struct kohaku_cli_demo_ctx *c,
		     struct kohaku_cli_run *r)
{
	unsigned char *out = cli_run_read(c, r, BO_OUT, VD_OUT_BYTES);
	unsigned int ui = r->index, i, e;
	uint16_t got[2 * VD_N], s, f;

	if (!out)
		return;
	memcpy(got, out, sizeof(got));
	r->guard_ok = cli_guard_ok(out + 2 * VD_VBYTES, VD_GUARD);
	free(out);
	for (i = 0; i < 2 * VD_N; i++) {
		vd_expect(i % VD_N, ui, &s, &f);
		if (got[i] != (i < VD_N ? s : f))
			cli_run_mismatch(r, i);
	}
	if (r->bad) {
		i = (unsigned int)r->first_bad;
		e = i % VD_N;
		vd_expect(e, ui, &s, &f);
		cli_run_failed(r, EXIT_WRONG, "%lu of %u elements differ from the "
			       "host; first %s[%u] = 0x%04x, expected 0x%04x "
			       "(x = %g, y = %g)", r->bad, 2 * VD_N,
			       i < VD_N ? "x+y" : "x*y+(x+y)", e, got[i],
			       i < VD_N ? s : f, (double)vd_x(e, ui),
			       (double)vd_y(e, ui));
	} else if (!r->guard_ok) {
		cli_run_failed(r, EXIT_WRONG, "the %u bytes past the result were "
			       "changed", VD_GUARD);
	}
}

static void vd_report(const struct kohaku_cli_demo_ctx *c,
		      struct json_object *rep)
{
	json_object_object_add(rep, "n", json_object_new_int(VD_N));
}

/* the kernel's cycles: RUN's exec_result, CU_DBG[31:0] */
static void vd_print_ok(const struct kohaku_cli_demo_ctx *c,
			const struct kohaku_cli_run *r)
{
	printf(": ok, %u/%u elements bit-exact against the host, memory past "
	       "the result untouched; kernel ", 2 * VD_N, 2 * VD_N);
	if (r->dbg_known)
		printf("%u cycles (RUN's exec_result, CU_DBG)",
		       (uint32_t)r->dbg);
	else
		printf("cycles unknown");
}

static void vd_json(const struct kohaku_cli_demo_ctx *c,
		    const struct kohaku_cli_run *r, struct json_object *j)
{
	cli_run_json_checked(j, r);
	json_object_object_add(j, "kernel_cycles", r->dbg_known ?
			       json_object_new_int64((uint32_t)r->dbg) : NULL);
	cli_run_json_times(j, r);
}

const struct kohaku_cli_demo cli_demo_vec = {
	.name = "vec-demo",
	.what = "run vec-demo",
	.cu_type = KH_CU_VC,
	.unit = "vec",
	.type_named = true,
	.hint = "try a map with `vec` tokens, e.g. --map mesh_2x2_8+2",
	.line = "vec",
	.pass = "every element matches",
	.takes = CLI_TAKES_NODE | CLI_TAKES_TIMEOUT,
	.wall = true,
	.dbg = true,
	.refused_usage = true,
	.priv_size = sizeof(struct kohaku_cli_vec),
	.intro = vd_intro,
	.setup = vd_setup,
	.describe = vd_describe,
	.check = vd_check,
	.report = vd_report,
	.print_ok = vd_print_ok,
	.json = vd_json,
};
