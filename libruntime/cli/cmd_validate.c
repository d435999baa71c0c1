// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku validate: is this device usable?  Numbered steps, each PASS, FAIL
 * or SKIP (not applicable here), as xbutil validate and tt-smi do:
 *
 *   1 open       the device the options name
 *   2 abi        GET_INFO's ABI: major KOHAKU_ABI_MAJOR, minor at least the
 *                library's
 *   3 enumerate  every mesh READY, the node table listed
 *   4 bo         a pattern written to a BO on every mesh, read back, equal
 *   5 bandwidth  BO_WRITE and BO_READ of 4 MiB, MB/s (reported, no limit)
 *   6 saxpy      run saxpy's check on every SX unit (demo_saxpy.c)
 *   7 null       a null instruction job on every null unit
 *   8 firmware   POOL units: every one RUNNING, and the ping kernel on each
 *                (demo_pool.c); SKIP without POOL units
 *   9 checker    a simulated card: the model's protocol checker (turned
 *                on right after open) found 0 violations; SKIP on a real
 *                card
 *
 * Exit 0 only when no step failed; else the worst code a step gave.
 * --json: one object, {"schema": 1, "device": ..., "steps": [...],
 * "ok": ...}.  Progress ("... saxpy: 3/8 units") goes to stderr once a
 * step has taken more than a second.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_units.h"

#define VALIDATE_SCHEMA		1
#define VALIDATE_STEPS		9
#define BO_PATTERN_BYTES	(64 * 1024)
#define BANDWIDTH_BYTES		(4u * 1024 * 1024)

struct kohaku_cli_validate {
	const struct kohaku_cli_opts *o;
	unsigned int step;
	unsigned int passed, failed, skipped;
	int ret;
	/* the running step, for progress */
	const char *name;
	double t0;
	bool progress_said;
	/* validate turned the model's checker on before step 2 */
	bool checker_on;
	/* --json: the steps' array, printed in one object at the end */
	struct json_object *steps;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void step_start(struct kohaku_cli_validate *v, const char *name)
{
	v->name = name;
	v->t0 = now_s();
	v->progress_said = false;
}

/* kohaku_cli_progress_fn: "... NAME: D/T units" once the step is past a second */
static void step_progress(unsigned int done, unsigned int total, void *arg)
{
	struct kohaku_cli_validate *v = arg;

	if (now_s() - v->t0 < 1.0 && !v->progress_said)
		return;
	v->progress_said = true;
	fprintf(stderr, "... %s: %u/%u units\n", v->name, done, total);
}

/*
 * One step's line: result "PASS", "FAIL" or "SKIP"; code the exit code a
 * FAIL gives (EXIT_WRONG, EXIT_DEVICE, ...).
 */
static void step_end(struct kohaku_cli_validate *v, const char *result,
		     int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void step_end(struct kohaku_cli_validate *v, const char *result,
		     int code, const char *fmt, ...)
{
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	v->step++;
	if (!strcmp(result, "PASS")) {
		v->passed++;
	} else if (!strcmp(result, "SKIP")) {
		v->skipped++;
	} else {
		v->failed++;
		if (code > v->ret || v->ret == EXIT_OK)
			v->ret = code ? code : EXIT_WRONG;
	}
	if (v->steps) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "step", json_object_new_int64(v->step));
		json_object_object_add(j, "name", json_object_new_string(v->name));
		json_object_object_add(j, "result", json_object_new_string(result));
		json_object_object_add(j, "seconds",
				       cli_json_fixed(now_s() - v->t0, 3));
		json_object_object_add(j, "detail", json_object_new_string(detail));
		json_object_array_add(v->steps, j);
	} else {
		printf("%u/%u %-10s %s  %s\n", v->step, VALIDATE_STEPS, v->name,
		       result, detail);
	}
	fflush(stdout);
}

/* every step not run, after one that leaves nothing to check */
static void skip_rest(struct kohaku_cli_validate *v, const char *const *names,
		      const char *why)
{
	while (v->step < VALIDATE_STEPS) {
		step_start(v, names[v->step]);
		step_end(v, "SKIP", 0, "%s", why);
	}
}

static const char *const step_names[VALIDATE_STEPS] = {
	"open", "abi", "enumerate", "bo", "bandwidth", "saxpy", "null",
	"firmware", "checker",
};

static void step_abi(struct kohaku_cli_validate *v,
		     const struct drm_kohaku_get_info *gi)
{
	unsigned int major = gi->abi_version >> 16;
	unsigned int minor = gi->abi_version & 0xffff;

	step_start(v, "abi");
	if (major != KOHAKU_ABI_MAJOR || minor < KOHAKU_ABI_MINOR)
		step_end(v, "FAIL", EXIT_DEVICE, "the device speaks driver ABI "
			 "%u.%u; libkohaku %s needs %u.%u or a later minor",
			 major, minor, kohaku_version(), KOHAKU_ABI_MAJOR,
			 KOHAKU_ABI_MINOR);
	else
		step_end(v, "PASS", 0, "driver ABI %u.%u (libkohaku %s built "
			 "for %u.%u)", major, minor, kohaku_version(),
			 KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
}

static void step_enumerate(struct kohaku_cli_validate *v,
			   const struct drm_kohaku_get_info *gi,
			   const struct drm_kohaku_node *nd, unsigned int n)
{
	unsigned int m, i, sx = 0, null = 0, gp = 0;

	step_start(v, "enumerate");
	for (i = 0; i < n; i++) {
		sx += nd[i].cu_type == KH_CU_SX;
		null += nd[i].cu_type == KH_CU_NULL;
		gp += nd[i].cu_type == KH_CU_GP;
	}
	for (m = 0; m < gi->n_meshes && m < KOHAKU_MAX_MESHES; m++)
		if (!(gi->mesh[m].flags & KOHAKU_MESH_READY)) {
			step_end(v, "FAIL", EXIT_DEVICE, "mesh %u is not READY "
				 "(flags 0x%x%s)", m, gi->mesh[m].flags,
				 gi->mesh[m].flags & KOHAKU_MESH_WEDGED ?
				 ", wedged" : "");
			return;
		}
	if (!gi->n_meshes || !n) {
		step_end(v, "FAIL", EXIT_DEVICE, "%u mesh%s, %u nodes: nothing "
			 "to run on", gi->n_meshes,
			 gi->n_meshes == 1 ? "" : "es", n);
		return;
	}
	step_end(v, "PASS", 0, "%u mesh%s READY, %u nodes listed (%u SX, %u "
		 "null, %u POOL, %u other)", gi->n_meshes,
		 gi->n_meshes == 1 ? "" : "es", n, sx, null, gp,
		 n - sx - null - gp);
}

static uint8_t pattern_byte(size_t i, unsigned int mesh)
{
	return (uint8_t)((i * 131u) ^ (i >> 8) ^ (mesh * 0x5bu) ^ 0xa5u);
}

static void step_bo(struct kohaku_cli_validate *v, kohaku_device *dev,
		    const struct drm_kohaku_get_info *gi)
{
	unsigned char *w = malloc(BO_PATTERN_BYTES);
	unsigned char *r = malloc(BO_PATTERN_BYTES);
	unsigned int m;
	size_t i;

	step_start(v, "bo");
	if (!w || !r) {
		free(w);
		free(r);
		step_end(v, "FAIL", EXIT_DEVICE, "out of memory");
		return;
	}
	for (m = 0; m < gi->n_meshes && m < KOHAKU_MAX_MESHES; m++) {
		uint32_t h = 0;
		uint64_t addr;
		int e;

		for (i = 0; i < BO_PATTERN_BYTES; i++)
			w[i] = pattern_byte(i, m);
		memset(r, 0, BO_PATTERN_BYTES);
		e = kohaku_bo_create(dev, m, BO_PATTERN_BYTES, &h, &addr);
		if (!e)
			e = kohaku_bo_write(dev, h, 0, w, BO_PATTERN_BYTES);
		if (!e)
			e = kohaku_bo_read(dev, h, 0, r, BO_PATTERN_BYTES);
		if (e) {
			step_end(v, "FAIL", EXIT_DEVICE, "mesh %u: %s", m,
				 kohaku_last_error(dev));
			goto out;
		}
		kohaku_bo_free(dev, h);
		for (i = 0; i < BO_PATTERN_BYTES; i++)
			if (r[i] != w[i]) {
				step_end(v, "FAIL", EXIT_WRONG, "mesh %u: byte "
					 "%zu read back 0x%02x, written 0x%02x",
					 m, i, r[i], w[i]);
				goto out;
			}
	}
	step_end(v, "PASS", 0, "%u KiB pattern written and read back on %u "
		 "mesh%s", BO_PATTERN_BYTES / 1024, gi->n_meshes,
		 gi->n_meshes == 1 ? "" : "es");
out:
	free(w);
	free(r);
}

static void step_bandwidth(struct kohaku_cli_validate *v, kohaku_device *dev)
{
	unsigned char *buf = malloc(BANDWIDTH_BYTES);
	double t0, t1, t2;
	uint32_t h = 0;
	uint64_t addr;
	size_t i;
	int e;

	step_start(v, "bandwidth");
	if (!buf) {
		step_end(v, "FAIL", EXIT_DEVICE, "out of memory");
		return;
	}
	for (i = 0; i < BANDWIDTH_BYTES; i++)
		buf[i] = (unsigned char)(i * 7);
	e = kohaku_bo_create(dev, 0, BANDWIDTH_BYTES, &h, &addr);
	t0 = now_s();
	if (!e)
		e = kohaku_bo_write(dev, h, 0, buf, BANDWIDTH_BYTES);
	t1 = now_s();
	if (!e)
		e = kohaku_bo_read(dev, h, 0, buf, BANDWIDTH_BYTES);
	t2 = now_s();
	if (e)
		step_end(v, "FAIL", EXIT_DEVICE, "%u MiB on mesh 0: %s",
			 BANDWIDTH_BYTES >> 20, kohaku_last_error(dev));
	else
		step_end(v, "PASS", 0, "%u MiB on mesh 0: write %.1f MB/s, "
			 "read %.1f MB/s", BANDWIDTH_BYTES >> 20,
			 BANDWIDTH_BYTES / 1e6 / (t1 - t0 > 1e-9 ? t1 - t0 : 1e-9),
			 BANDWIDTH_BYTES / 1e6 / (t2 - t1 > 1e-9 ? t2 - t1 : 1e-9));
	if (h)
		kohaku_bo_free(dev, h);
	free(buf);
}

/* the units of cu_type, in sel; how many */
static unsigned int units_of(const struct drm_kohaku_node *nd, unsigned int n,
			     uint16_t cu_type, const struct drm_kohaku_node **sel)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (nd[i].cu_type == cu_type)
			sel[k++] = &nd[i];
	return k;
}

/*
 * Demo d with p on the n_runs units in sel; true when every unit's run
 * went well, else the step's FAIL said ("PREFIXK of N UNIT units failed;
 * mesh M (X,Y): why" of the first, with the worst code)
 */
static bool step_demo(struct kohaku_cli_validate *v, kohaku_device *dev,
		      const struct drm_kohaku_node *nd, unsigned int n,
		      const struct drm_kohaku_node **sel, unsigned int n_runs,
		      const struct kohaku_cli_demo *d,
		      const struct kohaku_cli_demo_params *p,
		      const char *prefix, const char *unit)
{
	struct kohaku_cli_demo_ctx c = { dev, nd, n, d, *p };
	struct kohaku_cli_run *runs = calloc(n_runs, sizeof(*runs));
	const struct kohaku_cli_run *first = NULL;
	unsigned int i, bad = 0;
	int worst = EXIT_OK;

	if (!runs) {
		step_end(v, "FAIL", EXIT_DEVICE, "out of memory");
		return false;
	}
	for (i = 0; i < n_runs; i++)
		runs[i].node = sel[i];
	if (cli_demo_units(&c, runs, n_runs, step_progress, v)) {
		step_end(v, "FAIL", EXIT_DEVICE, "out of memory");
		bad = n_runs;
	} else {
		for (i = 0; i < n_runs; i++)
			if (runs[i].exit) {
				if (!first)
					first = &runs[i];
				if (runs[i].exit > worst)
					worst = runs[i].exit;
				bad++;
			}
	}
	if (first)
		step_end(v, "FAIL", worst, "%s%u of %u %s units failed; mesh %u "
			 "(%u,%u): %s", prefix, bad, n_runs, unit,
			 first->node->mesh, first->node->x, first->node->y,
			 first->why);
	cli_demo_free(&c, runs, n_runs);
	free(runs);
	return !bad;
}

static void step_saxpy(struct kohaku_cli_validate *v, kohaku_device *dev,
		       const struct drm_kohaku_node *nd, unsigned int n,
		       const struct drm_kohaku_node **sel)
{
	const struct kohaku_cli_demo_params p = { .n = 1000, .a = 1.7f };
	unsigned int n_runs;

	step_start(v, "saxpy");
	n_runs = units_of(nd, n, KH_CU_SX, sel);
	if (!n_runs)
		step_end(v, "SKIP", 0, "no SX unit");
	else if (step_demo(v, dev, nd, n, sel, n_runs, &cli_demo_saxpy, &p,
			   "", "SX"))
		step_end(v, "PASS", 0, "%u SX unit%s: %lu elements each, "
			 "bit-exact", n_runs, n_runs == 1 ? "" : "s", p.n);
}

/* the null step as a demo: a null instruction, and DONE is the answer */
static int null_setup(const struct kohaku_cli_demo_ctx *c,
		      struct kohaku_cli_run *r, struct kohaku_program *p)
{
	struct kohaku_inst *inst = r->priv;
	uint32_t words[8];
	unsigned int k;

	for (k = 0; k < 8; k++)
		words[k] = 0x6e756c6cu ^ (r->index << 8) ^ k;
	kohaku_inst_null(inst, words);
	p->insts = inst;
	p->n_insts = 1;
	return 0;
}

static const struct kohaku_cli_demo null_demo = {
	.name = "null",
	.cu_type = KH_CU_NULL,
	.priv_size = sizeof(struct kohaku_inst),
	.setup = null_setup,
};

static void step_null(struct kohaku_cli_validate *v, kohaku_device *dev,
		      const struct drm_kohaku_node *nd, unsigned int n,
		      const struct drm_kohaku_node **sel)
{
	const struct kohaku_cli_demo_params p = { .n = 1 };
	unsigned int n_units;

	step_start(v, "null");
	n_units = units_of(nd, n, KH_CU_NULL, sel);
	if (!n_units)
		step_end(v, "SKIP", 0, "no null unit");
	else if (step_demo(v, dev, nd, n, sel, n_units, &null_demo, &p, "",
			   "null"))
		step_end(v, "PASS", 0, "%u null unit%s ran a null instruction",
			 n_units, n_units == 1 ? "" : "s");
}

static void step_firmware(struct kohaku_cli_validate *v, kohaku_device *dev,
			  const struct drm_kohaku_node *nd, unsigned int n,
			  const struct drm_kohaku_node **sel)
{
	const struct kohaku_cli_demo_params p = { .n = 1 };
	struct kohaku_fw_info fi;
	unsigned int n_runs, i;

	step_start(v, "firmware");
	n_runs = units_of(nd, n, KH_CU_GP, sel);
	if (!n_runs) {
		step_end(v, "SKIP", 0, "no POOL unit");
		return;
	}
	memset(&fi, 0, sizeof(fi));
	if (kohaku_fw_info(dev, &fi, sizeof(fi)) < 0) {
		step_end(v, "FAIL", EXIT_DEVICE, "fw info: %s",
			 kohaku_last_error(dev));
		return;
	}
	if (fi.running != fi.units || !fi.units) {
		step_end(v, "FAIL", EXIT_DEVICE, "%u of %u POOL units run the "
			 "firmware%s%s", fi.running, fi.units,
			 fi.status[0] ? "; " : "", fi.status);
		return;
	}
	for (i = 0; i < n_runs; i++)
		if (sel[i]->fw_state != KOHAKU_FW_STATE_RUNNING) {
			step_end(v, "FAIL", EXIT_DEVICE, "mesh %u (%u,%u): "
				 "firmware %s", sel[i]->mesh, sel[i]->x,
				 sel[i]->y, kohaku_fw_state_name(sel[i]->fw_state));
			return;
		}
	if (step_demo(v, dev, nd, n, sel, n_runs, cli_pool_demo("ping"), &p,
		      "ping: ", "POOL"))
		step_end(v, "PASS", 0, "%u POOL unit%s RUNNING firmware %u.%u "
			 "(version 0x%x), ping answered", n_runs,
			 n_runs == 1 ? "" : "s", fi.fw_api >> 16,
			 fi.fw_api & 0xffff, fi.fw_version);
}

static void step_checker(struct kohaku_cli_validate *v, kohaku_device *dev,
			 const struct drm_kohaku_get_info *gi)
{
	int r;

	step_start(v, "checker");
	if (!(gi->caps & KOHAKU_CAP_SIMULATED)) {
		step_end(v, "SKIP", 0, "a real card (no device model)");
		return;
	}
	r = kohaku_sim_check(dev);
	if (r == -EOPNOTSUPP || r == -EACCES || r == -EPERM || r == -ENOENT)
		step_end(v, "SKIP", 0, "the model's checker cannot be read "
			 "here: %s", kohaku_last_error(dev));
	else if (r < 0)
		step_end(v, "FAIL", EXIT_DEVICE, "%s", kohaku_last_error(dev));
	else if (r > 0)
		step_end(v, "FAIL", EXIT_WRONG, "the model's protocol checker "
			 "found %d violation%s (kohaku sim check)", r,
			 r == 1 ? "" : "s");
	else
		step_end(v, "PASS", 0, "the model's protocol checker found no "
			 "violation%s", v->checker_on ? " (on from step 2)" :
			 " (it could not be turned on: only what it saw before)");
}

int cli_cmd_validate(const struct kohaku_cli_opts *o)
{
	struct kohaku_cli_validate v;
	struct drm_kohaku_get_info gi;
	struct drm_kohaku_node *nd = NULL;
	const struct drm_kohaku_node **sel = NULL;
	unsigned int n = 0;
	kohaku_device *dev = NULL;
	int r;

	memset(&v, 0, sizeof(v));
	v.o = o;
	if (o->json) {
		/* a device that does not open is validate's step 1 */
		cli_json_started();
		v.steps = json_object_new_array();
	}
	else
		printf("kohaku validate: %u steps\n", VALIDATE_STEPS);

	step_start(&v, "open");
	r = cli_open_dev(o, &dev);
	if (r) {
		step_end(&v, "FAIL", r, "no device opened (see the message "
			 "above)");
		skip_rest(&v, step_names, "no device");
		goto done;
	}
	step_end(&v, "PASS", 0, "%s (%s backend)", kohaku_device_path(dev),
		 kohaku_device_backend(dev) == KOHAKU_BACKEND_SIM ? "sim" :
		 "kernel");

	memset(&gi, 0, sizeof(gi));
	kohaku_get_info(dev, &gi, sizeof(gi));
	/* the model's checker watches every step that follows */
	if (gi.caps & KOHAKU_CAP_SIMULATED)
		v.checker_on = kohaku_sim_command(dev, "check on") == 0;
	step_abi(&v, &gi);

	r = kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &nd, sizeof(*nd), &n);
	if (r < 0) {
		step_start(&v, "enumerate");
		step_end(&v, "FAIL", EXIT_DEVICE, "the node table: %s",
			 kohaku_last_error(dev));
		skip_rest(&v, step_names, "no node table");
		goto done;
	}
	step_enumerate(&v, &gi, nd, n);
	step_bo(&v, dev, &gi);
	step_bandwidth(&v, dev);
	sel = calloc(n ? n : 1, sizeof(*sel));
	if (!sel) {
		cli_error("out of memory");
		skip_rest(&v, step_names, "out of memory");
		v.failed++;
		v.ret = EXIT_DEVICE;
		goto done;
	}
	step_saxpy(&v, dev, nd, n, sel);
	step_null(&v, dev, nd, n, sel);
	step_firmware(&v, dev, nd, n, sel);
	step_checker(&v, dev, &gi);
done:
	if (o->json) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "schema",
				       json_object_new_int(VALIDATE_SCHEMA));
		json_object_object_add(j, "command",
				       json_object_new_string("validate"));
		json_object_object_add(j, "steps", v.steps);
		json_object_object_add(j, "passed", json_object_new_int64(v.passed));
		json_object_object_add(j, "failed", json_object_new_int64(v.failed));
		json_object_object_add(j, "skipped",
				       json_object_new_int64(v.skipped));
		json_object_object_add(j, "ok", json_object_new_boolean(!v.failed));
		cli_json_print(j);
	} else if (v.failed) {
		printf("validate: FAIL (%u of %u steps failed)\n", v.failed,
		       VALIDATE_STEPS);
	} else {
		printf("validate: PASS (%u passed, %u skipped)\n", v.passed,
		       v.skipped);
	}
	free(sel);
	free(nd);
	kohaku_close(dev);
	return v.failed ? (v.ret ? v.ret : EXIT_WRONG) : EXIT_OK;
}
