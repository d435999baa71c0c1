// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run saxpy: y = a*x + y on every SX unit (or the --node ones), each
 * on its own vectors in its mesh, all submitted before the first wait so
 * the units run side by side, 64 elements an instruction (KH_SX_N_MAX);
 * every element checked bit-exact against the unit's own arithmetic
 * (kohaku_sx_element() for the datapath its CU_DBG names), and the memory
 * past y[n-1] checked untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "kohaku/kh_units.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define GUARD_BYTES	64
#define GUARD_BYTE	0xa5

static float x_val(unsigned long i, unsigned int u)
{
	return (float)((long)(i % 97) - 48) * 0.3f + (float)i * 1e-3f +
	       (float)u * 0.125f;
}

static float y_val(unsigned long i, unsigned int u)
{
	return (float)(i % 13) * 0.77f - 3.1f + (float)u;
}

static uint32_t fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

/* what the unit writes: its own arithmetic (docs/spec/units.md) */
static uint32_t expect_bits(const struct drm_kohaku_node *nd, float a, float x,
			    float y)
{
	return kohaku_sx_element(kohaku_sx_datapath_of(nd), fbits(a), fbits(x),
				 fbits(y));
}

/* SX instructions for n elements: one per KH_SX_N_MAX */
static unsigned int sx_insts(unsigned long n)
{
	return n ? (unsigned int)((n + KH_SX_N_MAX - 1) / KH_SX_N_MAX) : 1;
}

static int run_setup(kohaku_device *dev, const struct kohaku_cli_opts *o,
		     struct kohaku_cli_unit_run *u, unsigned int ui, float *hx,
		     unsigned char *hyb)
{
	size_t vbytes = o->n * sizeof(float);
	unsigned long i;
	float *hy = (float *)hyb;
	unsigned int n_insts = sx_insts(o->n), k;
	struct kohaku_inst *inst;
	int r;

	inst = calloc(n_insts, sizeof(*inst));
	if (!inst) {
		snprintf(u->why, sizeof(u->why), "out of memory");
		u->exit = EXIT_DEVICE;
		return -ENOMEM;
	}
	r = kohaku_bo_create(dev, u->node->mesh, vbytes ? vbytes : 4, &u->hx,
			     &u->ax);
	if (r == 0)
		r = kohaku_bo_create(dev, u->node->mesh, vbytes + GUARD_BYTES,
				     &u->hy, &u->ay);
	if (r < 0)
		goto fail;
	for (i = 0; i < o->n; i++) {
		hx[i] = x_val(i, ui);
		hy[i] = y_val(i, ui);
	}
	memset(hyb + vbytes, GUARD_BYTE, GUARD_BYTES);
	if (vbytes)
		r = kohaku_bo_write(dev, u->hx, 0, hx, vbytes);
	if (r == 0)
		r = kohaku_bo_write(dev, u->hy, 0, hyb, vbytes + GUARD_BYTES);
	if (r < 0)
		goto fail;
	/* the unit takes 64 elements an instruction: one program of many */
	for (k = 0; k < n_insts; k++) {
		uint64_t off = (uint64_t)k * KH_SX_N_MAX * sizeof(float);
		unsigned long left = o->n - (unsigned long)k * KH_SX_N_MAX;

		r = kohaku_inst_saxpy(&inst[k], left > KH_SX_N_MAX ? KH_SX_N_MAX :
				      (uint32_t)left, o->a, u->ax + off,
				      u->ay + off);
		if (r < 0) {
			snprintf(u->why, sizeof(u->why),
				 "cannot encode saxpy instruction %u", k);
			u->exit = EXIT_USAGE;
			free(inst);
			return r;
		}
	}
	u->t0 = now_s();
	r = cli_submit_on(dev, u->node, (uint8_t)ui, inst, n_insts,
			  o->timeout_ms, &u->job);
	if (r < 0)
		goto fail;
	free(inst);
	u->submitted = true;
	return 0;
fail:
	free(inst);
	snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
	u->exit = r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
	return r;
}

static void run_finish(kohaku_device *dev, const struct kohaku_cli_opts *o,
		       struct kohaku_cli_unit_run *u, unsigned int ui,
		       unsigned char *hyb)
{
	size_t vbytes = o->n * sizeof(float);
	const uint32_t *got = (const uint32_t *)hyb;
	unsigned long i;
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
	memset(hyb, 0, vbytes + GUARD_BYTES);
	r = kohaku_bo_read(dev, u->hy, 0, hyb, vbytes + GUARD_BYTES);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
		return;
	}
	for (i = 0; i < o->n; i++) {
		uint32_t want = expect_bits(u->node, o->a, x_val(i, ui),
					    y_val(i, ui));

		if (got[i] != want) {
			if (!u->bad)
				u->first_bad = i;
			u->bad++;
		}
	}
	u->guard_ok = true;
	for (i = 0; i < GUARD_BYTES; i++)
		if (hyb[vbytes + i] != GUARD_BYTE)
			u->guard_ok = false;
	if (u->bad) {
		i = u->first_bad;
		snprintf(u->why, sizeof(u->why),
			 "%lu of %lu elements differ from the unit's arithmetic; "
			 "first y[%lu] = 0x%08x, expected 0x%08x (%a * %a + %a)",
			 u->bad, o->n, i, got[i],
			 expect_bits(u->node, o->a, x_val(i, ui), y_val(i, ui)),
			 (double)o->a, (double)x_val(i, ui),
			 (double)y_val(i, ui));
		u->exit = EXIT_WRONG;
	} else if (!u->guard_ok) {
		snprintf(u->why, sizeof(u->why),
			 "memory just past y[%lu] was changed", o->n - 1);
		u->exit = EXIT_WRONG;
	}
}

int cli_saxpy_units(kohaku_device *dev, const struct kohaku_cli_opts *o,
		    struct kohaku_cli_unit_run *runs, unsigned int n_runs,
		    kohaku_cli_progress_fn *progress, void *arg)
{
	float *hx = malloc(o->n * sizeof(float) + 4);
	unsigned char *hyb = malloc(o->n * sizeof(float) + GUARD_BYTES);
	unsigned int i;

	if (!hx || !hyb) {
		free(hx);
		free(hyb);
		return EXIT_DEVICE;
	}
	/* submit everything first, so the units run side by side */
	for (i = 0; i < n_runs; i++)
		run_setup(dev, o, &runs[i], i, hx, hyb);
	for (i = 0; i < n_runs; i++) {
		if (runs[i].submitted)
			run_finish(dev, o, &runs[i], i, hyb);
		if (progress)
			progress(i + 1, n_runs, arg);
	}
	free(hx);
	free(hyb);
	return EXIT_OK;
}

void cli_saxpy_free(kohaku_device *dev, struct kohaku_cli_unit_run *runs,
		    unsigned int n_runs)
{
	unsigned int i;

	for (i = 0; i < n_runs; i++) {
		if (runs[i].hx)
			kohaku_bo_free(dev, runs[i].hx);
		if (runs[i].hy)
			kohaku_bo_free(dev, runs[i].hy);
	}
}

int cli_cmd_run(const struct kohaku_cli_opts *o, const char *what)
{
	struct drm_kohaku_node *nd = NULL;
	struct kohaku_cli_unit_run *runs = NULL;
	unsigned int n_nodes = 0, n_runs = 0, i;
	kohaku_device *dev;
	int r, ret = EXIT_OK;

	if (!what)
		cli_die_usage("run: which example? (run saxpy, run mat-demo, "
			      "run vec-demo, run cpu-demo, run KERNEL)");
	if (strcmp(what, "saxpy"))
		cli_die_usage("run: unknown example '%s' (run saxpy, run "
			      "mat-demo, run vec-demo, run cpu-demo, run KERNEL)",
			      what);
	if (o->n > (unsigned long)KH_SX_N_MAX * KOHAKU_MAX_JOB_INSTS)
		cli_die_usage("run saxpy: --n %lu is more than one job holds: "
			      "%u instructions of %u elements", o->n,
			      KOHAKU_MAX_JOB_INSTS, KH_SX_N_MAX);

	r = cli_open_nodes(o, 0, &dev, &nd, &n_nodes);
	if (r)
		return r;
	runs = calloc(n_nodes ? n_nodes : 1, sizeof(*runs));
	if (!runs) {
		cli_error("out of memory");
		ret = EXIT_DEVICE;
		goto out;
	}
	/* the units: every SX unit, or the named ones */
	{
		const struct drm_kohaku_node **sel = calloc(n_nodes ? n_nodes : 1,
							    sizeof(*sel));

		if (!sel) {
			ret = EXIT_DEVICE;
			goto out;
		}
		ret = cli_select_units(o, nd, n_nodes, KH_CU_SX, "run saxpy", sel,
				       &n_runs);
		for (i = 0; i < n_runs; i++)
			runs[i].node = sel[i];
		free(sel);
		if (ret)
			goto out;
	}

	cli_print_device_nodes(o, dev, nd, n_nodes, "", true);
	if (!o->json)
		printf("\nsaxpy: y = a*x + y, n = %lu (%u instruction%s of up to %u), "
		       "a = %g, on %u SX unit%s\n", o->n, sx_insts(o->n),
		       sx_insts(o->n) == 1 ? "" : "s", KH_SX_N_MAX, (double)o->a,
		       n_runs, n_runs == 1 ? "" : "s");
	if (!n_runs) {
		cli_report_end(o, false, "no SX unit on this device");
		fprintf(stderr, "%s: run saxpy: this device has no SX unit "
			"(cu_type 0x%04x); try --map saxpy\n", CLI_PROG,
			KH_CU_SX);
		ret = EXIT_USAGE;
		goto out;
	}
	if (cli_saxpy_units(dev, o, runs, n_runs, NULL, NULL)) {
		cli_error("out of memory");
		ret = EXIT_DEVICE;
		goto out;
	}
	cli_report_set(o, "n", json_object_new_uint64(o->n));
	cli_report_set(o, "a", cli_json_double(o->a, "%.9g"));
	cli_report_set(o, "units", NULL);
	for (i = 0; i < n_runs; i++) {
		struct kohaku_cli_unit_run *u = &runs[i];
		const struct drm_kohaku_node *q = u->node;
		double wall_ms = u->submitted ? (u->t1 - u->t0) * 1e3 : 0;
		double dev_us = u->st.device_ns / 1e3;

		if (u->exit > ret || (ret == EXIT_OK && u->exit))
			ret = u->exit;
		if (o->json) {
			struct json_object *j = cli_json_unit(q, !u->exit);

			json_object_object_add(j, "datapath", json_object_new_string(
				kohaku_sx_datapath_of(q) == KOHAKU_SX_DATAPATH_FMA ?
				"fma" : "rtl"));
			cli_json_checked(j, u->submitted, u->st.status, u->bad,
					 u->guard_ok);
			json_object_object_add(j, "wall_ms",
					       cli_json_double(wall_ms, "%.3f"));
			json_object_object_add(j, "device_ns",
					       json_object_new_uint64(u->st.device_ns));
			json_object_object_add(j, "error",
					       json_object_new_string(u->why));
			cli_report_unit(o, j);
			continue;
		}
		if (!u->exit)
			printf("SX mesh %u (%u,%u): ok, %lu/%lu elements bit-exact "
			       "against the %s, memory past y[n-1] untouched; wall "
			       "%.3f ms, device %.3f us\n", q->mesh, q->x, q->y,
			       o->n, o->n,
			       kohaku_sx_datapath_name(kohaku_sx_datapath_of(q)),
			       wall_ms, dev_us);
		else if (u->submitted)
			printf("SX mesh %u (%u,%u): FAILED: %s; wall %.3f ms, device "
			       "%.3f us\n", q->mesh, q->x, q->y, u->why, wall_ms,
			       dev_us);
		else
			printf("SX mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x,
			       q->y, u->why);
	}
	cli_print_verdict(o, "saxpy", ret, "every element matches");
	cli_saxpy_free(dev, runs, n_runs);
out:
	free(runs);
	free(nd);
	kohaku_close(dev);
	return ret;
}
