// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a command runs on: the device the options name (--backend,
 * --device, --map), with its node table, and the units: every unit of one
 * type, or the ones --node names (each checked to be of that type, with
 * the right ones listed when it is not); and a job of one program for one
 * of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_open_dev(const struct kohaku_cli_opts *o, kohaku_device **dev)
{
	char err[KOHAKU_ERRMSG_MAX];
	enum kohaku_backend b = o->backend;
	const char *d = o->device;
	int r;

	if (o->map) {
		d = o->map;
		b = KOHAKU_BACKEND_SIM;
	}
	r = kohaku_open(b, d, dev, err, sizeof(err));
	if (r < 0) {
		cli_error("cannot open a device: %s", err);
		/*
		 * refused, not absent: a description that describes no card,
		 * a device string that names none, another ABI
		 */
		return r == -EPROTO || r == -EINVAL ? EXIT_USAGE : EXIT_NODEV;
	}
	return 0;
}

int cli_open_nodes(const struct kohaku_cli_opts *o, unsigned int flags,
		   kohaku_device **dev, struct drm_kohaku_node **nd,
		   unsigned int *n)
{
	int r;

	r = cli_open_dev(o, dev);
	if (r)
		return r;
	r = kohaku_nodes_alloc(*dev, flags, nd, n);
	if (r < 0) {
		cli_error("%s", kohaku_last_error(*dev));
		kohaku_close(*dev);
		return EXIT_DEVICE;
	}
	return 0;
}

static void list_units(const struct drm_kohaku_node *nd, unsigned int n,
		       uint16_t cu_type)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (nd[i].cu_type == cu_type)
			fprintf(stderr, " %u:%u,%u", nd[i].mesh, nd[i].x, nd[i].y);
	fprintf(stderr, "\n");
}

int cli_select_units(const struct kohaku_cli_opts *o,
		     const struct drm_kohaku_node *nd, unsigned int n,
		     uint16_t cu_type, const char *what,
		     const struct drm_kohaku_node **out, unsigned int *n_out)
{
	char tn[16], want[16];
	unsigned int i, j, k;

	*n_out = 0;
	kohaku_cu_type_name(cu_type, want, sizeof(want));
	if (!o->n_sel) {
		for (i = 0; i < n; i++)
			if (nd[i].cu_type == cu_type)
				out[(*n_out)++] = &nd[i];
		return EXIT_OK;
	}
	for (j = 0; j < o->n_sel; j++) {
		const struct drm_kohaku_node *hit = NULL;

		for (i = 0; i < n; i++)
			if (nd[i].x == o->sel[j].x && nd[i].y == o->sel[j].y &&
			    nd[i].mesh == o->sel[j].mesh)
				hit = &nd[i];
		if (!hit || hit->cu_type != cu_type) {
			cli_error("%s: mesh %d (%d,%d) is %s", what,
				  o->sel[j].mesh, o->sel[j].x, o->sel[j].y,
				  hit ? "not the right kind of unit" :
				  "not an enumerated node");
			if (hit)
				fprintf(stderr, "  (it is a %s unit, not %s)\n",
					kohaku_cu_type_name(hit->cu_type, tn, sizeof(tn)),
					want);
			fprintf(stderr, "  %s units:", want);
			list_units(nd, n, cu_type);
			return EXIT_USAGE;
		}
		for (k = 0; k < *n_out; k++)
			if (out[k] == hit)
				break;
		if (k == *n_out)
			out[(*n_out)++] = hit;
	}
	return EXIT_OK;
}

int cli_submit_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
		  uint8_t txn, const struct kohaku_inst *insts, unsigned int n,
		  uint32_t timeout_ms, uint64_t *job)
{
	struct kohaku_program p;

	memset(&p, 0, sizeof(p));
	p.mesh = nd->mesh;
	p.x = nd->x;
	p.y = nd->y;
	p.txn = txn;
	p.n_insts = n;
	p.insts = insts;
	return kohaku_submit(dev, &p, 1, timeout_ms, job);
}

int cli_wait_final(kohaku_device *dev, uint64_t job, uint32_t timeout_ms,
		   struct kohaku_job_status *st)
{
	uint32_t limit = timeout_ms ? timeout_ms : KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	int tries, r = -ETIMEDOUT;

	/* the job's own limit, and a second for the host; a slow host may
	 * need the wait again before the device's time has passed */
	for (tries = 0; tries < 4 && r == -ETIMEDOUT; tries++)
		r = kohaku_wait(dev, job, limit + 1000, st);
	return r;
}

int cli_demo_open(const struct kohaku_cli_opts *o, struct kohaku_cli_demo_units *d,
		  uint16_t cu_type, const char *what, size_t run_size,
		  size_t node_off)
{
	unsigned int room, i;
	int r;

	memset(d, 0, sizeof(*d));
	r = cli_open_nodes(o, 0, &d->dev, &d->nd, &d->n_nodes);
	if (r)
		return r;
	room = d->n_nodes ? d->n_nodes : 1;
	d->runs = calloc(room, run_size);
	d->sel = calloc(room, sizeof(*d->sel));
	if (!d->runs || !d->sel) {
		cli_error("out of memory");
		return EXIT_DEVICE;
	}
	r = cli_select_units(o, d->nd, d->n_nodes, cu_type, what, d->sel,
			     &d->n_sel);
	/* each run's node pointer, at node_off in the demo's own struct */
	for (i = 0; i < d->n_sel; i++)
		memcpy((char *)d->runs + i * run_size + node_off, &d->sel[i],
		       sizeof(d->sel[i]));
	if (!r)
		cli_print_device_nodes(o, d->dev, d->nd, d->n_nodes, "", true);
	return r;
}

void cli_demo_close(struct kohaku_cli_demo_units *d)
{
	free(d->sel);
	free(d->runs);
	free(d->nd);
	kohaku_close(d->dev);
	memset(d, 0, sizeof(*d));
}

int cli_demo_none(const struct kohaku_cli_opts *o, const char *demo,
		  const char *unit, uint16_t cu_type, const char *hint)
{
	char tn[16];

	if (o->json) {
		char e[64];

		snprintf(e, sizeof(e), "no %s unit on this device", unit);
		cli_report_end(o, false, e);
	}
	fprintf(stderr, "%s: run %s: this device has no %s unit (cu_type 0x%04x "
		"'%s'); %s\n", CLI_PROG, demo, unit, cu_type,
		kohaku_cu_type_name(cu_type, tn, sizeof(tn)), hint);
	return EXIT_USAGE;
}
