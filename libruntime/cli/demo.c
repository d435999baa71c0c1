// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The one program every run demo is (demo.h): open the device, select the
 * units, set up and submit a job on each (all before the first wait, so
 * the units run side by side, unless the demo's units share something and
 * must take turns), wait for each, check it, read CU_DBG when the demo
 * wants it, then print a line per unit or the JSON report, the verdict,
 * and free.  The demo's hooks fill in what is its own; the helpers below
 * are what the hooks share, so that a failure is said the same way by
 * every demo.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- jobs ---- */

int cli_wait_final(kohaku_device *dev, uint64_t job, uint32_t timeout_ms,
		   struct kohaku_job_status *st)
{
	uint32_t limit = timeout_ms ? timeout_ms : KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	int tries, r = -ETIMEDOUT;

	/* the job's own limit, and a second for the host; a slow host may
	 * need the wait again before the device's time has passed */
	for (tries = 0; tries < 4 && r == -ETIMEDOUT; tries++)
		r = kohaku_wait(dev, job, limit + 1000, st, sizeof(*st));
	return r;
}

/* ---- for the hooks ---- */

int cli_run_dev_error(const struct kohaku_cli_demo_ctx *c,
		      struct kohaku_cli_run *r, int err)
{
	snprintf(r->why, sizeof(r->why), "%s", kohaku_last_error(c->dev));
	r->exit = err == -EINVAL && c->demo->refused_usage ? EXIT_USAGE :
		  EXIT_DEVICE;
	return err;
}

int cli_run_failed(struct kohaku_cli_run *r, int exit, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	r->exit = exit;
	return -1;
}

int cli_run_bo(const struct kohaku_cli_demo_ctx *c, struct kohaku_cli_run *r,
	       size_t size)
{
	unsigned int i = r->n_bo;
	int err;

	err = kohaku_bo_create(c->dev, r->node->mesh, size, &r->bo[i],
			       &r->addr[i]);
	if (err < 0)
		return cli_run_dev_error(c, r, err);
	r->n_bo++;
	return (int)i;
}

int cli_run_write(const struct kohaku_cli_demo_ctx *c,
		  struct kohaku_cli_run *r, unsigned int i, const void *data,
		  size_t len)
{
	int err = kohaku_bo_write(c->dev, r->bo[i], 0, data, len);

	return err < 0 ? cli_run_dev_error(c, r, err) : 0;
}

void *cli_run_read(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *r, unsigned int i, size_t len)
{
	void *buf = malloc(len ? len : 1);
	int err;

	if (!buf) {
		cli_run_failed(r, EXIT_DEVICE, "out of memory");
		return NULL;
	}
	err = kohaku_bo_read(c->dev, r->bo[i], 0, buf, len);
	if (err < 0) {
		cli_run_failed(r, EXIT_DEVICE, "%s", kohaku_last_error(c->dev));
		free(buf);
		return NULL;
	}
	return buf;
}

void cli_run_mismatch(struct kohaku_cli_run *r, unsigned long i)
{
	if (!r->bad++)
		r->first_bad = i;
}

bool cli_guard_ok(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i] != CLI_GUARD_BYTE)
			return false;
	return true;
}

double cli_run_wall_ms(const struct kohaku_cli_run *r)
{
	return r->submitted ? (r->t1 - r->t0) * 1e3 : 0;
}

void cli_run_json_checked(struct json_object *j,
			  const struct kohaku_cli_run *r)
{
	json_object_object_add(j, "status", json_object_new_string(
		r->submitted ? kohaku_job_status_name(r->st.status) :
		"NOT_SUBMITTED"));
	json_object_object_add(j, "mismatches", json_object_new_uint64(r->bad));
	json_object_object_add(j, "tail_untouched",
			       json_object_new_boolean(r->guard_ok));
}

void cli_run_json_times(struct json_object *j, const struct kohaku_cli_run *r)
{
	json_object_object_add(j, "wall_ms",
			       cli_json_fixed(cli_run_wall_ms(r), 3));
	json_object_object_add(j, "device_ns",
			       json_object_new_uint64(r->st.device_ns));
}

/* ---- one unit's job ---- */

static void demo_submit(const struct kohaku_cli_demo_ctx *c,
			struct kohaku_cli_run *r)
{
	struct kohaku_program p;
	int err;

	memset(&p, 0, sizeof(p));
	if (c->demo->setup(c, r, &p) < 0)
		return;
	p.mesh = r->node->mesh;
	p.x = r->node->x;
	p.y = r->node->y;
	p.txn = (uint8_t)r->index;
	r->t0 = now_s();
	err = kohaku_submit(c->dev, &p, 1, c->p.timeout_ms, &r->job);
	if (err < 0) {
		cli_run_dev_error(c, r, err);
		return;
	}
	r->submitted = true;
}

static void demo_finish(const struct kohaku_cli_demo_ctx *c,
			struct kohaku_cli_run *r)
{
	int err;

	err = cli_wait_final(c->dev, r->job, c->p.timeout_ms, &r->st);
	r->t1 = now_s();
	if (err < 0) {
		cli_run_failed(r, EXIT_DEVICE, "%s", kohaku_last_error(c->dev));
		return;
	}
	if (r->st.status != KOHAKU_JOB_DONE) {
		if (c->demo->describe)
			c->demo->describe(&r->st, r->why, sizeof(r->why));
		else
			kohaku_job_describe(&r->st, sizeof(r->st), r->why, sizeof(r->why));
		r->exit = EXIT_DEVICE;
		return;
	}
	if (c->demo->check)
		c->demo->check(c, r);
}

/* CU_DBG of every unit whose run went well, read live after all of them */
static void demo_dbg(const struct kohaku_cli_demo_ctx *c,
		     struct kohaku_cli_run *runs, unsigned int n_runs)
{
	struct drm_kohaku_node *nd = NULL;
	unsigned int n = 0, i, j;

	if (kohaku_nodes_alloc(c->dev, KOHAKU_NODES_LIVE, &nd, sizeof(*nd), &n) < 0)
		return;
	for (i = 0; i < n_runs; i++) {
		struct kohaku_cli_run *r = &runs[i];

		for (j = 0; j < n && !r->exit && r->submitted; j++)
			if (nd[j].mesh == r->node->mesh &&
			    nd[j].x == r->node->x && nd[j].y == r->node->y) {
				r->dbg = nd[j].dbg;
				r->dbg_known = true;
			}
		if (c->demo->check_dbg)
			c->demo->check_dbg(c, r);
	}
	free(nd);
}

int cli_demo_units(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *runs, unsigned int n_runs,
		   kohaku_cli_progress_fn *progress, void *arg)
{
	const struct kohaku_cli_demo *d = c->demo;
	unsigned int i;

	for (i = 0; i < n_runs; i++) {
		runs[i].index = i;
		runs[i].priv = calloc(1, d->priv_size);
		if (!runs[i].priv)
			return EXIT_DEVICE;
	}
	cli_progress_begin(d->name);
	cli_progress_units(0, n_runs);
	for (i = 0; i < n_runs && !d->serial; i++)
		demo_submit(c, &runs[i]);
	for (i = 0; i < n_runs; i++) {
		if (d->serial)
			demo_submit(c, &runs[i]);
		if (runs[i].submitted)
			demo_finish(c, &runs[i]);
		cli_progress_units(i + 1, n_runs);
		if (progress)
			progress(i + 1, n_runs, arg);
	}
	if (d->dbg)
		demo_dbg(c, runs, n_runs);
	cli_progress_end();
	return EXIT_OK;
}

void cli_demo_free(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *runs, unsigned int n_runs)
{
	unsigned int i, b;

	for (i = 0; i < n_runs; i++) {
		if (runs[i].priv && c->demo->release)
			c->demo->release(c, &runs[i]);
		for (b = 0; b < runs[i].n_bo; b++)
			kohaku_bo_free(c->dev, runs[i].bo[b]);
		free(runs[i].priv);
	}
}

/* ---- kohaku run NAME ---- */

/*
 * The JSON report: {"path", "nodes", the demo's members, "units": [...],
 * "ok"}, or with no unit {"path", "nodes", "units": [], "error", "ok"}.
 * Once it is begun the command's output is this object, failures
 * included (cli_json_started).
 */
static struct json_object *demo_report(const struct kohaku_cli_demo_ctx *c)
{
	struct json_object *j = json_object_new_object();

	cli_json_started();
	json_object_object_add(j, "path", json_object_new_string(
		kohaku_device_path(c->dev)));
	json_object_object_add(j, "nodes", cli_json_nodes(c->nd, c->n_nodes));
	return j;
}

/* the device has no unit the demo runs on: said, and EXIT_USAGE */
static int demo_none(struct json_object *rep, const struct kohaku_cli_demo *d)
{
	char tn[16], named[24] = "";

	if (rep) {
		char e[64];

		snprintf(e, sizeof(e), "no %s unit on this device", d->unit);
		json_object_object_add(rep, "units", json_object_new_array());
		json_object_object_add(rep, "error", json_object_new_string(e));
		json_object_object_add(rep, "ok",
				       json_object_new_boolean(false));
		cli_json_print(rep);
	}
	if (d->type_named)
		snprintf(named, sizeof(named), " '%s'",
			 kohaku_cu_type_name(d->cu_type, tn, sizeof(tn)));
	fprintf(stderr, "%s: run %s: this device has no %s unit (cu_type "
		"0x%04x%s); %s\n", CLI_PROG, d->name, d->unit, d->cu_type, named,
		d->hint);
	return EXIT_USAGE;
}

/* a unit's member of the report's "units" */
static struct json_object *demo_json(const struct kohaku_cli_demo_ctx *c,
				     const struct kohaku_cli_run *r)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "mesh", json_object_new_int64(r->node->mesh));
	json_object_object_add(j, "x", json_object_new_int64(r->node->x));
	json_object_object_add(j, "y", json_object_new_int64(r->node->y));
	json_object_object_add(j, "ok", json_object_new_boolean(!r->exit));
	c->demo->json(c, r, j);
	json_object_object_add(j, "error", json_object_new_string(r->why));
	return j;
}

/* a unit's line */
static void demo_line(const struct kohaku_cli_demo_ctx *c,
		      const struct kohaku_cli_run *r)
{
	const struct kohaku_cli_demo *d = c->demo;
	const struct drm_kohaku_node *q = r->node;

	printf("%s mesh %u (%u,%u)", d->line, q->mesh, q->x, q->y);
	if (!r->exit) {
		d->print_ok(c, r);
	} else {
		printf(": FAILED: %s", r->why);
		/* the times of a job that ran, where the demo gives them */
		if (!d->wall || !r->submitted) {
			printf("\n");
			return;
		}
	}
	if (d->wall)
		printf("; wall %.3f ms, device %.3f us\n", cli_run_wall_ms(r),
		       r->st.device_ns / 1e3);
	else
		printf("; device %.3f us\n", r->st.device_ns / 1e3);
}

/* the last line, "NAME: PASS (...)" or "NAME: FAIL (...)", or "ok" */
static void demo_verdict(struct json_object *rep,
			 const struct kohaku_cli_demo *d, int ret)
{
	if (rep) {
		json_object_object_add(rep, "ok", json_object_new_boolean(!ret));
		cli_json_print(rep);
		return;
	}
	if (ret == EXIT_OK)
		printf("%s: PASS (%s)\n", d->name, d->pass);
	else
		printf("%s: FAIL (%s)\n", d->name, ret == EXIT_WRONG ?
		       "wrong answer" :
		       "the device did not run it as expected");
}

int cli_demo_run(const struct kohaku_cli_opts *o,
		 const struct kohaku_cli_demo *d)
{
	struct kohaku_cli_demo_ctx c;
	struct drm_kohaku_node *nd = NULL;
	const struct drm_kohaku_node **sel = NULL;
	struct kohaku_cli_run *runs = NULL;
	struct json_object *rep = NULL, *units = NULL;
	unsigned int n = 0, n_runs = 0, i;
	int ret;

	memset(&c, 0, sizeof(c));
	c.demo = d;
	c.p.n = o->n_given ? o->n : d->n_default;
	c.p.a = o->a;
	c.p.timeout_ms = o->timeout_ms;
	if (d->check_params)
		d->check_params(d, &c.p);
	ret = cli_open_nodes(o, 0, &c.dev, &nd, &n);
	if (ret)
		return ret;
	c.nd = nd;
	c.n_nodes = n;
	sel = calloc(n ? n : 1, sizeof(*sel));
	runs = calloc(n ? n : 1, sizeof(*runs));
	if (!sel || !runs) {
		cli_error("out of memory");
		ret = EXIT_DEVICE;
		goto out;
	}
	ret = cli_select_units(o, nd, n, d->cu_type, d->what, sel, &n_runs);
	if (ret)
		goto out;
	if (n_runs && d->ready) {
		ret = d->ready(&c, sel, n_runs);
		if (ret)
			goto out;
	}
	if (o->json) {
		rep = demo_report(&c);
	} else if (!o->quiet) {
		cli_print_device_nodes(c.dev, nd, n, "");
		d->intro(&c, n_runs);
	}
	if (!n_runs) {
		ret = demo_none(rep, d);
		rep = NULL;
		goto out;
	}
	for (i = 0; i < n_runs; i++)
		runs[i].node = sel[i];
	if (cli_demo_units(&c, runs, n_runs, NULL, NULL)) {
		cli_error("out of memory");
		ret = EXIT_DEVICE;
		goto out_free;
	}
	if (rep) {
		if (d->report)
			d->report(&c, rep);
		units = json_object_new_array();
		json_object_object_add(rep, "units", units);
	}
	for (i = 0; i < n_runs; i++) {
		if (runs[i].exit > ret)
			ret = runs[i].exit;
		if (rep)
			json_object_array_add(units, demo_json(&c, &runs[i]));
		else if (!o->quiet || runs[i].exit)
			demo_line(&c, &runs[i]);
	}
	demo_verdict(rep, d, ret);
	rep = NULL;
out_free:
	cli_demo_free(&c, runs, n_runs);
out:
	json_object_put(rep);
	free(runs);
	free(sel);
	free(nd);
	kohaku_close(c.dev);
	return ret;
}
