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
 * CU_DBG (read live from NODES after the jobs).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "kohaku/kh_units.h"
#include "kohaku/kh_vec.h"

#define VD_N		KH_VEC_VLMAX		/* elements a vector */
#define VD_VBYTES	(VD_N * 2)		/* FP16 */
#define VD_WORDS	(VD_VBYTES / KH_VEC_WORD_BYTES)	/* 8 L1 words */
#define VD_GUARD	64
#define VD_GUARD_BYTE	0xa5
#define VD_MAX_INSTS	64

/* one vec unit's run */
struct kohaku_cli_vec_run {
	const struct drm_kohaku_node *node;
	uint32_t hin, hout;
	uint64_t ain, aout;
	uint64_t job;
	bool submitted;
	double t0, t1;
	struct kohaku_job_status st;
	unsigned long bad;
	unsigned long first_bad;
	bool guard_ok;
	uint32_t cycles;
	bool cycles_known;
	int exit;
	char why[KOHAKU_ERRMSG_MAX];
};

static double vd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

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

static void vd_fail(kohaku_device *dev, struct kohaku_cli_vec_run *v, int r)
{
	snprintf(v->why, sizeof(v->why), "%s", kohaku_last_error(dev));
	v->exit = r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
}

static void vd_setup(kohaku_device *dev, const struct kohaku_cli_opts *o,
		     struct kohaku_cli_vec_run *v, unsigned int ui)
{
	struct kohaku_inst inst[VD_MAX_INSTS];
	uint16_t in[2 * VD_N];
	unsigned char out[2 * VD_VBYTES + VD_GUARD];
	unsigned int i, n;
	int r;

	for (i = 0; i < VD_N; i++) {
		in[i] = vd_f16(vd_x(i, ui));
		in[VD_N + i] = vd_f16(vd_y(i, ui));
	}
	memset(out, VD_GUARD_BYTE, sizeof(out));
	r = kohaku_bo_create(dev, v->node->mesh, sizeof(in), &v->hin, &v->ain);
	if (!r)
		r = kohaku_bo_create(dev, v->node->mesh, sizeof(out), &v->hout,
				     &v->aout);
	if (!r)
		r = kohaku_bo_write(dev, v->hin, 0, in, sizeof(in));
	if (!r)
		r = kohaku_bo_write(dev, v->hout, 0, out, sizeof(out));
	if (r < 0) {
		vd_fail(dev, v, r);
		return;
	}
	if (vd_program(inst, &n, v->ain, v->aout) < 0) {
		snprintf(v->why, sizeof(v->why),
			 "cannot encode the kernel (a BO address past 40 bits?)");
		v->exit = EXIT_USAGE;
		return;
	}
	v->t0 = vd_now();
	r = cli_submit_on(dev, v->node, (uint8_t)ui, inst, n, o->timeout_ms,
			  &v->job);
	if (r < 0) {
		vd_fail(dev, v, r);
		return;
	}
	v->submitted = true;
}

static void vd_finish(kohaku_device *dev, const struct kohaku_cli_opts *o,
		      struct kohaku_cli_vec_run *v, unsigned int ui)
{
	unsigned char out[2 * VD_VBYTES + VD_GUARD];
	uint16_t got[2 * VD_N];
	unsigned int i;
	int r;

	r = cli_wait_final(dev, v->job, o->timeout_ms, &v->st);
	v->t1 = vd_now();
	if (r < 0) {
		vd_fail(dev, v, r);
		v->exit = EXIT_DEVICE;
		return;
	}
	if (v->st.status != KOHAKU_JOB_DONE) {
		char d[512], f[256];

		kohaku_job_describe(&v->st, d, sizeof(d));
		if (v->st.status == KOHAKU_JOB_FAULT &&
		    (v->st.fault_flags & KOHAKU_FAULT_CODE_KNOWN))
			snprintf(v->why, sizeof(v->why), "%s: %s", d,
				 kohaku_vec_fault_describe(v->st.fault_code, f,
							   sizeof(f)));
		else
			snprintf(v->why, sizeof(v->why), "%s", d);
		v->exit = EXIT_DEVICE;
		return;
	}
	r = kohaku_bo_read(dev, v->hout, 0, out, sizeof(out));
	if (r < 0) {
		vd_fail(dev, v, r);
		v->exit = EXIT_DEVICE;
		return;
	}
	memcpy(got, out, sizeof(got));
	for (i = 0; i < 2 * VD_N; i++) {
		uint16_t s, f;

		vd_expect(i % VD_N, ui, &s, &f);
		if (got[i] != (i < VD_N ? s : f)) {
			if (!v->bad)
				v->first_bad = i;
			v->bad++;
		}
	}
	v->guard_ok = true;
	for (i = 0; i < VD_GUARD; i++)
		if (out[2 * VD_VBYTES + i] != VD_GUARD_BYTE)
			v->guard_ok = false;
	if (v->bad) {
		uint16_t s, f;
		unsigned int e = (unsigned int)v->first_bad % VD_N;

		i = (unsigned int)v->first_bad;
		vd_expect(e, ui, &s, &f);
		snprintf(v->why, sizeof(v->why),
			 "%lu of %u elements differ from the host; first %s[%u] "
			 "= 0x%04x, expected 0x%04x (x = %g, y = %g)", v->bad,
			 2 * VD_N, i < VD_N ? "x+y" : "x*y+(x+y)", e, got[i],
			 i < VD_N ? s : f, (double)vd_x(e, ui),
			 (double)vd_y(e, ui));
		v->exit = EXIT_WRONG;
	} else if (!v->guard_ok) {
		snprintf(v->why, sizeof(v->why),
			 "the %u bytes past the result were changed", VD_GUARD);
		v->exit = EXIT_WRONG;
	}
}

/* RUN's exec_result: CU_DBG[31:0] of each unit, read live */
static void vd_cycles(kohaku_device *dev, struct kohaku_cli_vec_run *runs,
		      unsigned int n_runs)
{
	struct drm_kohaku_node *nd = NULL;
	unsigned int n = 0, i, j;

	if (kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &nd, &n) < 0)
		return;
	for (i = 0; i < n_runs; i++)
		for (j = 0; j < n; j++)
			if (nd[j].mesh == runs[i].node->mesh &&
			    nd[j].x == runs[i].node->x &&
			    nd[j].y == runs[i].node->y && !runs[i].exit &&
			    runs[i].submitted) {
				runs[i].cycles = (uint32_t)nd[j].dbg;
				runs[i].cycles_known = true;
			}
	free(nd);
}

int cli_cmd_run_vec(const struct kohaku_cli_opts *o)
{
	struct kohaku_cli_demo_units d;
	struct kohaku_cli_vec_run *runs;
	unsigned int n_runs, i;
	kohaku_device *dev;
	int ret;

	ret = cli_demo_open(o, &d, KH_CU_VC, "run vec-demo", sizeof(*runs),
			    offsetof(struct kohaku_cli_vec_run, node));
	dev = d.dev;
	n_runs = d.n_sel;
	runs = d.runs;
	if (ret)
		goto out;
	if (!o->json)
		printf("\nvec-demo: s = x + y and f = x*y + s, %u FP16 elements "
		       "each, on %u vec unit%s\n"
		       "  (data: halves in [-16, 16], so every E8M15 result is "
		       "exact and the host\n"
		       "  reference is plain float math, then FP16 by IEEE "
		       "754's round to nearest even)\n", VD_N, n_runs,
		       n_runs == 1 ? "" : "s");
	if (!n_runs) {
		ret = cli_demo_none(o, "vec-demo", "vec", KH_CU_VC,
				    "try a map with `vec` tokens, e.g. --map mesh_2x2_8+2");
		goto out;
	}
	/* submit everything first, so the units run side by side */
	for (i = 0; i < n_runs; i++)
		vd_setup(dev, o, &runs[i], i);
	for (i = 0; i < n_runs; i++)
		if (runs[i].submitted)
			vd_finish(dev, o, &runs[i], i);
	vd_cycles(dev, runs, n_runs);

	cli_report_set(o, "n", json_object_new_int(VD_N));
	cli_report_set(o, "units", NULL);
	for (i = 0; i < n_runs; i++) {
		struct kohaku_cli_vec_run *v = &runs[i];
		const struct drm_kohaku_node *q = v->node;
		double wall_ms = v->submitted ? (v->t1 - v->t0) * 1e3 : 0;
		double dev_us = v->st.device_ns / 1e3;

		if (v->exit > ret || (ret == EXIT_OK && v->exit))
			ret = v->exit;
		if (o->json) {
			struct json_object *j = cli_json_unit(q, !v->exit);

			cli_json_checked(j, v->submitted, v->st.status, v->bad,
					 v->guard_ok);
			json_object_object_add(j, "kernel_cycles", v->cycles_known ?
					       json_object_new_int64(v->cycles) : NULL);
			json_object_object_add(j, "wall_ms",
					       cli_json_double(wall_ms, "%.3f"));
			json_object_object_add(j, "device_ns",
					       json_object_new_uint64(v->st.device_ns));
			json_object_object_add(j, "error",
					       json_object_new_string(v->why));
			cli_report_unit(o, j);
			continue;
		}
		if (!v->exit) {
			printf("vec mesh %u (%u,%u): ok, %u/%u elements bit-exact "
			       "against the host, memory past the result "
			       "untouched; kernel ", q->mesh, q->x, q->y,
			       2 * VD_N, 2 * VD_N);
			if (v->cycles_known)
				printf("%u cycles (RUN's exec_result, CU_DBG)",
				       v->cycles);
			else
				printf("cycles unknown");
			printf("; wall %.3f ms, device %.3f us\n", wall_ms,
			       dev_us);
		} else if (v->submitted) {
			printf("vec mesh %u (%u,%u): FAILED: %s; wall %.3f ms, "
			       "device %.3f us\n", q->mesh, q->x, q->y, v->why,
			       wall_ms, dev_us);
		} else {
			printf("vec mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x,
			       q->y, v->why);
		}
	}
	cli_print_verdict(o, "vec-demo", ret, "every element matches");
	for (i = 0; i < n_runs; i++) {
		if (runs[i].hin)
			kohaku_bo_free(dev, runs[i].hin);
		if (runs[i].hout)
			kohaku_bo_free(dev, runs[i].hout);
	}
out:
	cli_demo_close(&d);
	return ret;
}
