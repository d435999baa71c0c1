// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku validate: is this device usable?  Numbered steps, each PASS, WARN,
 * FAIL or SKIP, as xbutil validate and tt-smi do.  Checks of the device,
 * then a compute step for every unit type validate can run a job on (each
 * through the run demos' runner, demo.c's cli_demo_units), then the
 * model's checker:
 *
 *   open       the device the options name
 *   abi        GET_INFO's ABI: major KOHAKU_ABI_MAJOR, minor at least the
 *              library's
 *   enumerate  every mesh READY, the node table listed
 *   bo         a pattern written to a BO on every mesh, read back, equal
 *   bandwidth  BO_WRITE and BO_READ of 4 MiB, MB/s (reported, no limit)
 *   mat        mat-demo's GEMM block on every mat unit (demo_mat.c)
 *   vec        vec-demo's kernel on every vec unit (demo_vec.c)
 *   cpu        cpu-demo's RV32I program on every cpu unit (demo_cpu.c)
 *   firmware   POOL units: every one RUNNING, and the ping kernel on each
 *              (demo_pool.c)
 *   dxa        dxa-copy on every DXA unit with a scratch unit on its mesh
 *              (demo_dxa.c)
 *   saxpy      saxpy's check on every SX unit (demo_saxpy.c)
 *   null       a null instruction job on every null unit
 *   checker    a simulated card: the model's protocol checker (turned on
 *              right after open) found 0 violations; SKIP on a real card
 *
 * A compute step SKIPs when the card has no unit of its type.  WARN is a
 * step that passed with something the user should know, never a wrong
 * answer: some units of its type were not run (marked hung by the driver;
 * on a mesh that is not READY; a DXA unit with no scratch unit on its
 * mesh), the POOL firmware's API is an older minor than the driver's, or
 * the checker could not be turned on before the steps.  A step whose
 * every unit is hung FAILs; one whose every unit is on a mesh that is not
 * READY SKIPs (enumerate has FAILed for that mesh).
 *
 * The verdict: FAIL when a step failed (exit: the worst code a step
 * gave); else NOTHING COMPUTED (exit EXIT_NOTHING, 5) when compute steps
 * were to run and none computed anything (every one SKIP, or WARN with no
 * unit run); else WARN (exit 0) when a step warned; else PASS (exit 0).
 *
 * --test NAME[,NAME] (repeatable): only those steps, numbered among
 * themselves; open and the node table are still done first when a step
 * needs them, and said (stderr, and "error" in JSON) only when they fail.
 * --quiet: no header, no PASS or SKIP line; WARN and FAIL lines and the
 * verdict stay.  --json: one object, {"schema": 2, "command": "validate",
 * "steps": [{"step", "name", "kind", "result", "seconds", "detail"}...],
 * "passed", "warned", "failed", "skipped", "computed", "verdict", "exit",
 * "error", "ok"}.  Progress: the runner's, on a terminal (progress.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo.h"
#include "kohaku/kh_dxa.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_units.h"

#define VALIDATE_SCHEMA		2
#define BO_PATTERN_BYTES	(64 * 1024)
#define BANDWIDTH_BYTES		(4u * 1024 * 1024)

enum {
	S_OPEN, S_ABI, S_ENUMERATE, S_BO, S_BANDWIDTH, S_MAT, S_VEC, S_CPU,
	S_FIRMWARE, S_DXA, S_SAXPY, S_NULL, S_CHECKER, N_STEPS
};

/* the steps, in order: their names (--test's), and which compute */
static const struct {
	const char *name;
	bool compute;
} steps[N_STEPS] = {
	[S_OPEN] = { "open", false },
	[S_ABI] = { "abi", false },
	[S_ENUMERATE] = { "enumerate", false },
	[S_BO] = { "bo", false },
	[S_BANDWIDTH] = { "bandwidth", false },
	[S_MAT] = { "mat", true },
	[S_VEC] = { "vec", true },
	[S_CPU] = { "cpu", true },
	[S_FIRMWARE] = { "firmware", true },
	[S_DXA] = { "dxa", true },
	[S_SAXPY] = { "saxpy", true },
	[S_NULL] = { "null", true },
	[S_CHECKER] = { "checker", false },
};

const char *cli_validate_test_names(void)
{
	static char names[256];
	size_t len = 0;
	unsigned int i;

	if (names[0])
		return names;
	for (i = 0; i < N_STEPS; i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					i ? ", " : "", steps[i].name);
	return names;
}

struct kohaku_cli_validate {
	const struct kohaku_cli_opts *o;
	bool sel[N_STEPS];
	unsigned int n_sel;
	unsigned int shown;	/* steps numbered so far */
	unsigned int passed, warned, failed, skipped;
	/* compute steps selected, and those that computed */
	unsigned int compute_sel, computed;
	int ret;
	/* the running step */
	unsigned int idx;
	double t0;
	/* validate turned the model's checker on before step 2 */
	bool checker_on;
	/* the meshes GET_INFO says are READY (enumerate FAILs for another) */
	bool mesh_ready[KOHAKU_MAX_MESHES];
	/* a step not selected that failed: the first's words */
	char error[1100];
	/* --json: the steps' array, printed in one object at the end */
	struct json_object *steps;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void step_start(struct kohaku_cli_validate *v, unsigned int idx)
{
	v->idx = idx;
	v->t0 = now_s();
}

static void fail_code(struct kohaku_cli_validate *v, int code)
{
	v->failed++;
	if (code > v->ret || v->ret == EXIT_OK)
		v->ret = code ? code : EXIT_WRONG;
}

/*
 * One step's line: result "PASS", "WARN", "FAIL" or "SKIP"; code the exit
 * code a FAIL gives (EXIT_WRONG, EXIT_DEVICE, ...).  A step --test left
 * out says nothing, unless it failed (open, the node table: what the
 * selected ones need), on stderr.
 */
static void step_end(struct kohaku_cli_validate *v, const char *result,
		     int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void step_end(struct kohaku_cli_validate *v, const char *result,
		     int code, const char *fmt, ...)
{
	const char *name = steps[v->idx].name;
	char detail[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (!v->sel[v->idx]) {
		if (!strcmp(result, "FAIL")) {
			fail_code(v, code);
			cli_error("validate: %s: %s", name, detail);
			if (!v->error[0])
				snprintf(v->error, sizeof(v->error), "%s: %s",
					 name, detail);
		}
		return;
	}
	v->shown++;
	if (!strcmp(result, "PASS"))
		v->passed++;
	else if (!strcmp(result, "WARN"))
		v->warned++;
	else if (!strcmp(result, "SKIP"))
		v->skipped++;
	else
		fail_code(v, code);
	if (v->steps) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "step", json_object_new_int64(v->shown));
		json_object_object_add(j, "name", json_object_new_string(name));
		json_object_object_add(j, "kind", json_object_new_string(
			steps[v->idx].compute ? "compute" : "check"));
		json_object_object_add(j, "result", json_object_new_string(result));
		json_object_object_add(j, "seconds",
				       cli_json_fixed(now_s() - v->t0, 3));
		json_object_object_add(j, "detail", json_object_new_string(detail));
		json_object_array_add(v->steps, j);
	} else if (!v->o->quiet || !strcmp(result, "WARN") ||
		   !strcmp(result, "FAIL")) {
		printf("%u/%u %-10s %s  %s\n", v->shown, v->n_sel, name,
		       result, detail);
	}
	fflush(stdout);
}

/* every step from idx on, after one that leaves nothing to check */
static void skip_rest(struct kohaku_cli_validate *v, unsigned int idx,
		      const char *why)
{
	for (; idx < N_STEPS; idx++) {
		step_start(v, idx);
		step_end(v, "SKIP", 0, "%s", why);
	}
}

static void step_abi(struct kohaku_cli_validate *v,
		     const struct drm_kohaku_get_info *gi)
{
	unsigned int major = gi->abi_version >> 16;
	unsigned int minor = gi->abi_version & 0xffff;

	step_start(v, S_ABI);
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

/* the unit types validate computes on, with their words */
static const struct {
	uint16_t cu_type;
	const char *word;
} unit_types[] = {
	{ KH_CU_MG, "mat" }, { KH_CU_VC, "vec" }, { KH_CU_RV, "cpu" },
	{ KH_CU_GP, "POOL" }, { KH_CU_DX, "DXA" }, { KH_CU_SX, "SX" },
	{ KH_CU_NULL, "null" },
};

static void step_enumerate(struct kohaku_cli_validate *v,
			   const struct drm_kohaku_get_info *gi,
			   const struct drm_kohaku_node *nd, unsigned int n)
{
	char counts[256] = "";
	size_t len = 0;
	unsigned int m, i, t, known = 0;

	step_start(v, S_ENUMERATE);
	for (t = 0; t < sizeof(unit_types) / sizeof(unit_types[0]); t++) {
		unsigned int k = 0;

		for (i = 0; i < n; i++)
			k += nd[i].cu_type == unit_types[t].cu_type;
		known += k;
		len += (size_t)snprintf(counts + len, sizeof(counts) - len,
					"%u %s, ", k, unit_types[t].word);
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
	step_end(v, "PASS", 0, "%u mesh%s READY, %u nodes listed (%s%u "
		 "other)", gi->n_meshes, gi->n_meshes == 1 ? "" : "es", n,
		 counts, n - known);
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

	step_start(v, S_BO);
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

	step_start(v, S_BANDWIDTH);
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
	if (cli_demo_units(&c, runs, n_runs, NULL, NULL)) {
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

/* a DXA unit with no scratch unit on its mesh cannot run dxa-copy */
static bool dxa_has_scratch(const struct drm_kohaku_node *nd, unsigned int n,
			    const struct drm_kohaku_node *q)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (nd[i].cu_type == KH_CU_SC && nd[i].mesh == q->mesh)
			return true;
	return false;
}

/*
 * A compute step: the units of cu_type (none: SKIP), less those marked
 * hung and (dxa) those with no scratch unit on their mesh, run with demo
 * d.  PASS with what (a format taking the count and "s" or ""), or WARN
 * (forced by note: a sentence to add) when units were left out or note
 * says why; FAIL when a run failed or every unit is hung.  The step
 * computed when a unit ran and every run went well.
 */
static void step_units(struct kohaku_cli_validate *v, kohaku_device *dev,
		       const struct drm_kohaku_node *nd, unsigned int n,
		       const struct drm_kohaku_node **sel, unsigned int idx,
		       uint16_t cu_type, const char *unit,
		       const struct kohaku_cli_demo *d,
		       const struct kohaku_cli_demo_params *p,
		       const char *prefix, const char *what, const char *note)
{
	unsigned int i, total = 0, runs = 0, hung = 0, noscr = 0, down = 0;
	char done[512], left[512] = "";

	step_start(v, idx);
	for (i = 0; i < n; i++) {
		if (nd[i].cu_type != cu_type)
			continue;
		total++;
		if (nd[i].mesh >= KOHAKU_MAX_MESHES || !v->mesh_ready[nd[i].mesh])
			down++;
		else if (nd[i].flags & KOHAKU_NODE_HUNG)
			hung++;
		else if (cu_type == KH_CU_DX && !dxa_has_scratch(nd, n, &nd[i]))
			noscr++;
		else
			sel[runs++] = &nd[i];
	}
	if (!total) {
		step_end(v, "SKIP", 0, "no %s unit", unit);
		return;
	}
	if (down == total) {
		step_end(v, "SKIP", 0, "%u %s unit%s, on a mesh that is not READY "
			 "(enumerate): not run", total, unit,
			 total == 1 ? "" : "s");
		return;
	}
	if (hung + down == total) {
		step_end(v, "FAIL", EXIT_DEVICE, "every %s unit%s (%u) is marked "
			 "hung: nothing can run (kohaku reset)", unit,
			 down ? " on a READY mesh" : "", hung);
		return;
	}
	if (down)
		snprintf(left, sizeof(left), "; %u of %u %s unit%s on a mesh that "
			 "is not READY, not run", down, total, unit,
			 down == 1 ? "" : "s");
	if (hung)
		snprintf(left + strlen(left), sizeof(left) - strlen(left),
			 "; %u of %u %s unit%s marked hung, not run", hung, total,
			 unit, hung == 1 ? "" : "s");
	if (noscr)
		snprintf(left + strlen(left), sizeof(left) - strlen(left),
			 "; %u of %u %s unit%s with no scratch unit on %s mesh, "
			 "not run", noscr, total, unit, noscr == 1 ? "" : "s",
			 noscr == 1 ? "its" : "their");
	if (note)
		snprintf(left + strlen(left), sizeof(left) - strlen(left),
			 "; %s", note);
	if (!runs) {
		step_end(v, "WARN", 0, "nothing computed%s", left);
		return;
	}
	if (!step_demo(v, dev, nd, n, sel, runs, d, p, prefix, unit))
		return;
	v->computed++;
	snprintf(done, sizeof(done), what, runs, runs == 1 ? "" : "s");
	if (left[0])
		step_end(v, "WARN", 0, "%s%s", done, left);
	else
		step_end(v, "PASS", 0, "%s", done);
}

static struct kohaku_cli_demo_params demo_params(const struct kohaku_cli_demo *d)
{
	struct kohaku_cli_demo_params p = { .n = d->n_default, .a = 1.7f };

	return p;
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
	.n_default = 1,
	.priv_size = sizeof(struct kohaku_inst),
	.setup = null_setup,
};

/*
 * firmware: with POOL units, the firmware RUNNING on each (else FAIL, with
 * what to do), then ping through step_units; WARN for an image whose API
 * is an older minor than the driver's
 */
static void step_firmware(struct kohaku_cli_validate *v, kohaku_device *dev,
			  const struct drm_kohaku_node *nd, unsigned int n,
			  const struct drm_kohaku_node **sel)
{
	const struct kohaku_cli_demo *ping = cli_pool_demo("ping");
	struct kohaku_cli_demo_params p = demo_params(ping);
	struct kohaku_fw_info fi;
	unsigned int i, units = 0;
	char what[256], note[256];

	step_start(v, S_FIRMWARE);
	for (i = 0; i < n; i++)
		units += nd[i].cu_type == KH_CU_GP;
	if (!units) {
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
			 "firmware%s%s%s", fi.running, fi.units,
			 fi.status[0] ? "; " : "", fi.status,
			 fi.status[0] ? "" : " (kohaku fw load FILE)");
		return;
	}
	for (i = 0; i < n; i++)
		if (nd[i].cu_type == KH_CU_GP &&
		    !(nd[i].flags & KOHAKU_NODE_HUNG) &&
		    nd[i].mesh < KOHAKU_MAX_MESHES && v->mesh_ready[nd[i].mesh] &&
		    nd[i].fw_state != KOHAKU_FW_STATE_RUNNING) {
			step_end(v, "FAIL", EXIT_DEVICE, "mesh %u (%u,%u): "
				 "firmware %s", nd[i].mesh, nd[i].x, nd[i].y,
				 kohaku_fw_state_name(nd[i].fw_state));
			return;
		}
	snprintf(what, sizeof(what), "%%u POOL unit%%s RUNNING firmware %u.%u "
		 "(version 0x%x), ping answered", fi.fw_api >> 16,
		 fi.fw_api & 0xffff, fi.fw_version);
	/* an older minor runs, but what is newer than it does not */
	if (fi.fw_api >> 16 == fi.driver_api >> 16 &&
	    (fi.fw_api & 0xffff) < (fi.driver_api & 0xffff))
		snprintf(note, sizeof(note), "the image's API %u.%u is older "
			 "than the driver's %u.%u (a newer image: make "
			 "firmware, kohaku fw load)", fi.fw_api >> 16,
			 fi.fw_api & 0xffff, fi.driver_api >> 16,
			 fi.driver_api & 0xffff);
	else
		note[0] = '\0';
	step_units(v, dev, nd, n, sel, S_FIRMWARE, KH_CU_GP, "POOL", ping, &p,
		   "ping: ", what, note[0] ? note : NULL);
}

static void step_checker(struct kohaku_cli_validate *v, kohaku_device *dev,
			 const struct drm_kohaku_get_info *gi)
{
	int r;

	step_start(v, S_CHECKER);
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
	else if (v->checker_on)
		step_end(v, "PASS", 0, "the model's protocol checker found no "
			 "violation (on from step 2)");
	else
		step_end(v, "WARN", 0, "the model's protocol checker found no "
			 "violation, but it could not be turned on: only what "
			 "it saw before");
}

/* --test: the steps named (each must be one), or every step */
static void select_steps(struct kohaku_cli_validate *v,
			 const struct kohaku_cli_opts *o)
{
	unsigned int i, t;

	for (t = 0; t < o->n_tests; t++) {
		for (i = 0; i < N_STEPS; i++)
			if (!strcmp(o->tests[t], steps[i].name))
				break;
		if (i == N_STEPS)
			cli_die_usage("validate --test: unknown test '%s' (the "
				      "tests: %s)", o->tests[t],
				      cli_validate_test_names());
		v->sel[i] = true;
	}
	for (i = 0; i < N_STEPS; i++) {
		if (!o->n_tests)
			v->sel[i] = true;
		v->n_sel += v->sel[i];
		v->compute_sel += v->sel[i] && steps[i].compute;
	}
}

/* the verdict's words and the exit code */
static const char *verdict(const struct kohaku_cli_validate *v, int *ret)
{
	if (v->failed) {
		*ret = v->ret ? v->ret : EXIT_WRONG;
		return "FAIL";
	}
	if (v->compute_sel && !v->computed) {
		*ret = EXIT_NOTHING;
		return "NOTHING COMPUTED";
	}
	*ret = EXIT_OK;
	return v->warned ? "WARN" : "PASS";
}

int cli_cmd_validate(const struct kohaku_cli_opts *o)
{
	struct kohaku_cli_validate v;
	struct drm_kohaku_get_info gi;
	struct drm_kohaku_node *nd = NULL;
	const struct drm_kohaku_node **sel = NULL;
	struct kohaku_cli_demo_params pm = demo_params(&cli_demo_mat);
	struct kohaku_cli_demo_params pv = demo_params(&cli_demo_vec);
	struct kohaku_cli_demo_params pc = demo_params(&cli_demo_cpu);
	struct kohaku_cli_demo_params pd = demo_params(&cli_demo_dxa_copy);
	struct kohaku_cli_demo_params ps = demo_params(&cli_demo_saxpy);
	struct kohaku_cli_demo_params pn = demo_params(&null_demo);
	unsigned int n = 0;
	kohaku_device *dev = NULL;
	const char *word;
	char what[128];
	int r, ret;

	memset(&v, 0, sizeof(v));
	v.o = o;
	select_steps(&v, o);
	if (o->json) {
		/* a device that does not open is validate's step 1 */
		cli_json_started();
		v.steps = json_object_new_array();
	} else if (!o->quiet) {
		printf("kohaku validate: %u step%s\n", v.n_sel,
		       v.n_sel == 1 ? "" : "s");
	}

	step_start(&v, S_OPEN);
	r = cli_open_dev(o, &dev);
	if (r) {
		step_end(&v, "FAIL", r, "no device opened (see the message "
			 "above)");
		skip_rest(&v, S_ABI, "no device");
		goto done;
	}
	step_end(&v, "PASS", 0, "%s (%s backend)", kohaku_device_path(dev),
		 kohaku_device_backend(dev) == KOHAKU_BACKEND_SIM ? "sim" :
		 "kernel");

	memset(&gi, 0, sizeof(gi));
	kohaku_get_info(dev, &gi, sizeof(gi));
	for (r = 0; r < (int)gi.n_meshes && r < KOHAKU_MAX_MESHES; r++)
		v.mesh_ready[r] = gi.mesh[r].flags & KOHAKU_MESH_READY;
	/* the model's checker watches every step that follows */
	if (gi.caps & KOHAKU_CAP_SIMULATED)
		v.checker_on = kohaku_sim_command(dev, "check on") == 0;
	if (v.sel[S_ABI])
		step_abi(&v, &gi);

	r = kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &nd, sizeof(*nd), &n);
	if (r < 0) {
		step_start(&v, S_ENUMERATE);
		step_end(&v, "FAIL", EXIT_DEVICE, "the node table: %s",
			 kohaku_last_error(dev));
		skip_rest(&v, S_BO, "no node table");
		goto done;
	}
	if (v.sel[S_ENUMERATE])
		step_enumerate(&v, &gi, nd, n);
	if (v.sel[S_BO])
		step_bo(&v, dev, &gi);
	if (v.sel[S_BANDWIDTH])
		step_bandwidth(&v, dev);
	sel = calloc(n ? n : 1, sizeof(*sel));
	if (!sel) {
		cli_error("out of memory");
		skip_rest(&v, S_MAT, "out of memory");
		fail_code(&v, EXIT_DEVICE);
		goto done;
	}
	if (v.sel[S_MAT])
		step_units(&v, dev, nd, n, sel, S_MAT, KH_CU_MG, "mat",
			   &cli_demo_mat, &pm, "", "%u mat unit%s: an 8x64 by "
			   "64x8 FP16 GEMM block each, bit-exact", NULL);
	if (v.sel[S_VEC])
		step_units(&v, dev, nd, n, sel, S_VEC, KH_CU_VC, "vec",
			   &cli_demo_vec, &pv, "", "%u vec unit%s: a 128-element "
			   "FP16 kernel each, bit-exact", NULL);
	if (v.sel[S_CPU]) {
		snprintf(what, sizeof(what), "%%u cpu unit%%s: RV32I prefix "
			 "sums of %lu words each, checked", pc.n);
		step_units(&v, dev, nd, n, sel, S_CPU, KH_CU_RV, "cpu",
			   &cli_demo_cpu, &pc, "", what, NULL);
	}
	if (v.sel[S_FIRMWARE])
		step_firmware(&v, dev, nd, n, sel);
	if (v.sel[S_DXA])
		step_units(&v, dev, nd, n, sel, S_DXA, KH_CU_DX, "DXA",
			   &cli_demo_dxa_copy, &pd, "", "%u DXA unit%s: a tile "
			   "multicast to scratch units and copied out, checked",
			   NULL);
	if (v.sel[S_SAXPY]) {
		snprintf(what, sizeof(what), "%%u SX unit%%s: %lu elements "
			 "each, bit-exact", ps.n);
		step_units(&v, dev, nd, n, sel, S_SAXPY, KH_CU_SX, "SX",
			   &cli_demo_saxpy, &ps, "", what, NULL);
	}
	if (v.sel[S_NULL])
		step_units(&v, dev, nd, n, sel, S_NULL, KH_CU_NULL, "null",
			   &null_demo, &pn, "",
			   "%u null unit%s ran a null instruction", NULL);
	if (v.sel[S_CHECKER])
		step_checker(&v, dev, &gi);
done:
	word = verdict(&v, &ret);
	if (o->json) {
		struct json_object *j = json_object_new_object();

		json_object_object_add(j, "schema",
				       json_object_new_int(VALIDATE_SCHEMA));
		json_object_object_add(j, "command",
				       json_object_new_string("validate"));
		json_object_object_add(j, "steps", v.steps);
		json_object_object_add(j, "passed", json_object_new_int64(v.passed));
		json_object_object_add(j, "warned", json_object_new_int64(v.warned));
		json_object_object_add(j, "failed", json_object_new_int64(v.failed));
		json_object_object_add(j, "skipped",
				       json_object_new_int64(v.skipped));
		json_object_object_add(j, "computed",
				       json_object_new_int64(v.computed));
		json_object_object_add(j, "verdict", json_object_new_string(word));
		json_object_object_add(j, "exit", json_object_new_int(ret));
		json_object_object_add(j, "error", v.error[0] ?
				       json_object_new_string(v.error) : NULL);
		json_object_object_add(j, "ok",
				       json_object_new_boolean(ret == EXIT_OK));
		cli_json_print(j);
	} else if (v.error[0]) {
		printf("validate: FAIL (%s)\n", v.error);
	} else if (v.failed) {
		printf("validate: FAIL (%u of %u steps failed)\n", v.failed,
		       v.n_sel);
	} else if (ret == EXIT_NOTHING) {
		printf("validate: NOTHING COMPUTED (%u passed, %u warned, %u "
		       "skipped: no unit of a type validate runs jobs on "
		       "computed anything; exit %d)\n", v.passed, v.warned,
		       v.skipped, EXIT_NOTHING);
	} else if (v.warned) {
		printf("validate: WARN (%u passed, %u warned, %u skipped)\n",
		       v.passed, v.warned, v.skipped);
	} else {
		printf("validate: PASS (%u passed, %u skipped)\n", v.passed,
		       v.skipped);
	}
	free(sel);
	free(nd);
	kohaku_close(dev);
	return ret;
}
