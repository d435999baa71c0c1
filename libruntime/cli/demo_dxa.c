// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run dxa-copy: on every DXA unit (docs/spec/dxa.md; or the --node
 * ones), a 37 x 50 matrix of u32 in DRAM, rows 256 bytes apart; one slot
 * set to it, its last tile of 8 x 16 (rows 32..39, columns 48..63: both
 * edges out of bounds, filled with 0xf111f111) copied by one COPY to two
 * scratch units of the mesh at once (multicast: the second 16 granules
 * further on); then each scratch unit's granules written back to a BO by
 * COPY_OUT, read, and compared with a plain C loop over the matrix, with
 * the bytes past the result checked untouched, and the slot as the unit
 * holds it checked against what the driver wrote.
 *
 * Every DXA unit of a mesh copies to the same scratch units (the mesh's
 * first two), so the units take turns (demo->serial).  The COPY is the
 * job demo.c submits; the COPY_OUT is a second job the check runs.  The
 * rest of the run is demo.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "kohaku/kh_dxa.h"

#define DC_ROWS		37
#define DC_COLS		50
#define DC_PITCH	256			/* bytes between rows */
#define DC_TROWS	8
#define DC_TCOLS	16
#define DC_R0		32			/* the tile's first row */
#define DC_C0		48			/* ... and column */
#define DC_FILL		0xf111f111u
#define DC_TILE		(DC_TROWS * DC_TCOLS)	/* elements */
#define DC_TILE_BYTES	(DC_TILE * 4)
#define DC_GRANULES	(DC_TILE_BYTES / KOHAKU_DATA_GRANULE)	/* 16 */
#define DC_MAX_RECV	2
#define DC_GUARD	64
#define DC_MAT_BYTES	((size_t)DC_ROWS * DC_PITCH)
#define DC_OUT_BYTES	((size_t)DC_MAX_RECV * DC_TILE_BYTES + DC_GUARD)

enum { BO_MAT, BO_OUT };

/* a unit's receivers, its slot and the COPY */
struct kohaku_cli_dxa {
	const struct drm_kohaku_node *scr[DC_MAX_RECV];
	unsigned int n_scr;
	unsigned int slot;
	bool have_slot;
	bool table_ok;
	struct kohaku_inst copy;
};

static uint32_t dc_elem(unsigned int r, unsigned int c, unsigned int u)
{
	return (r << 16 | c) ^ (0x01000000u * (u + 1)) ^ ((r * 7 + c * 13) << 24);
}

/* what receiver element (i0, i1) of the tile must hold: the C reference */
static uint32_t dc_expect(unsigned int i0, unsigned int i1, unsigned int u)
{
	unsigned int r = DC_R0 + i1, c = DC_C0 + i0;

	return r < DC_ROWS && c < DC_COLS ? dc_elem(r, c, u) : DC_FILL;
}

/* up to DC_MAX_RECV scratch units of the DXA unit's mesh */
static unsigned int dc_scr_of(const struct kohaku_cli_demo_ctx *c,
			      const struct drm_kohaku_node *q,
			      const struct drm_kohaku_node **out)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->n_nodes && k < DC_MAX_RECV; i++)
		if (c->nd[i].cu_type == KH_CU_SC && c->nd[i].mesh == q->mesh)
			out[k++] = &c->nd[i];
	return k;
}

/* a job's status that is not DONE, said with the job's name */
static void dc_say(const char *what, const struct kohaku_job_status *st,
		   char *why, size_t len)
{
	char d[512], f[160] = "";

	kohaku_job_describe(st, sizeof(*st), d, sizeof(d));
	if (st->status == KOHAKU_JOB_FAULT &&
	    (st->fault_flags & KOHAKU_FAULT_CODE_KNOWN))
		kohaku_dxa_fault_describe(st->fault_code, f, sizeof(f));
	snprintf(why, len, "%s: %s%s%s", what, d, *f ? ": " : "", f);
}

static void dc_describe(const struct kohaku_job_status *st, char *why,
			size_t len)
{
	dc_say("the DXA copy", st, why, len);
}

static void dc_intro(const struct kohaku_cli_demo_ctx *c, unsigned int n_units)
{
	printf("\ndxa-copy: the %u x %u tile at row %u, column %u of a "
	       "%u x %u u32 matrix\n  (rows %u bytes apart; rows %u.. and "
	       "columns %u.. are past the edge: filled with 0x%08x),\n"
	       "  multicast to the scratch units, copied out and "
	       "compared with a C reference, on %u DXA unit%s\n",
	       DC_TROWS, DC_TCOLS, DC_R0, DC_C0, DC_ROWS, DC_COLS,
	       DC_PITCH, DC_ROWS, DC_COLS, DC_FILL, n_units,
	       n_units == 1 ? "" : "s");
}

/* the matrix and the guarded output, a slot set to the matrix, the COPY */
static int dc_setup(const struct kohaku_cli_demo_ctx *c,
		    struct kohaku_cli_run *r, struct kohaku_program *p)
{
	struct kohaku_cli_dxa *v = r->priv;
	const struct drm_kohaku_node *q = r->node;
	const uint32_t coords[5] = { DC_C0, DC_R0, 0, 0, 0 };
	struct kohaku_dxa_recv recv[DC_MAX_RECV];
	struct drm_kohaku_dxa_desc d;
	unsigned char out[DC_OUT_BYTES];
	uint32_t *mat;
	unsigned int k, i0, i1;
	int err;

	v->n_scr = dc_scr_of(c, q, v->scr);
	if (!v->n_scr)
		return cli_run_failed(r, EXIT_USAGE, "no scratch unit (cu_type "
				      "0x%04x 'SC') on mesh %u to copy to",
				      KH_CU_SC, q->mesh);
	mat = calloc(1, DC_MAT_BYTES);
	if (!mat)
		return cli_run_failed(r, EXIT_DEVICE, "out of memory");
	for (i1 = 0; i1 < DC_ROWS; i1++)
		for (i0 = 0; i0 < DC_COLS; i0++)
			mat[i1 * (DC_PITCH / 4) + i0] = dc_elem(i1, i0, r->index);
	memset(out, CLI_GUARD_BYTE, sizeof(out));
	err = cli_run_bo(c, r, DC_MAT_BYTES);
	if (err >= 0)
		err = cli_run_bo(c, r, sizeof(out));
	if (err >= 0)
		err = cli_run_write(c, r, BO_MAT, mat, DC_MAT_BYTES);
	free(mat);
	if (!err)
		err = cli_run_write(c, r, BO_OUT, out, sizeof(out));
	if (!err) {
		err = kohaku_dxa_alloc(c->dev, q->mesh, q->x, q->y, &v->slot);
		if (err < 0)
			cli_run_dev_error(c, r, err);
	}
	if (err < 0)
		return err;
	v->have_slot = true;
	/* the matrix: DC_COLS columns (dimension 0), DC_ROWS rows */
	err = kohaku_dxa_desc_2d(&d, r->bo[BO_MAT], 0, 4, DC_COLS, DC_ROWS,
				 DC_PITCH, DC_TCOLS, DC_TROWS);
	if (!err)
		err = kohaku_dxa_set_cfill(&d, DC_FILL);
	if (!err)
		err = kohaku_dxa_set_multicast(&d, DC_GRANULES);
	if (err < 0)
		return cli_run_failed(r, EXIT_USAGE, "cannot build the descriptor");
	err = kohaku_dxa_set(c->dev, q->mesh, q->x, q->y, v->slot, &d);
	if (err < 0)
		return cli_run_dev_error(c, r, err);
	/* one COPY: receiver r gets its burst at granule r * DC_GRANULES */
	for (k = 0; k < v->n_scr; k++) {
		recv[k].x = v->scr[k]->x;
		recv[k].y = v->scr[k]->y;
		recv[k].buf = KH_SCR_BUF;
		recv[k].offset = 0;
	}
	if (kohaku_inst_dxa_copy(&v->copy, v->slot, coords, recv, v->n_scr) < 0)
		return cli_run_failed(r, EXIT_USAGE, "cannot encode the COPY");
	p->insts = &v->copy;
	p->n_insts = 1;
	return 0;
}

/* each scratch unit's granules back to DRAM, side by side: one job */
static int dc_copy_out(const struct kohaku_cli_demo_ctx *c,
		       struct kohaku_cli_run *r)
{
	const struct kohaku_cli_dxa *v = r->priv;
	struct kohaku_program p[DC_MAX_RECV];
	struct kohaku_inst out[DC_MAX_RECV];
	struct kohaku_job_status st;
	uint64_t job;
	unsigned int k;
	int err;

	memset(p, 0, sizeof(p));
	for (k = 0; k < v->n_scr; k++) {
		if (kohaku_inst_scr_copy_out(&out[k], k * DC_GRANULES, DC_GRANULES,
					     r->addr[BO_OUT] +
					     (uint64_t)k * DC_TILE_BYTES) < 0)
			return cli_run_failed(r, EXIT_USAGE, "cannot encode "
					      "COPY_OUT (a BO address past 40 "
					      "bits?)");
		p[k].mesh = v->scr[k]->mesh;
		p[k].x = v->scr[k]->x;
		p[k].y = v->scr[k]->y;
		p[k].txn = (uint8_t)k;
		p[k].n_insts = 1;
		p[k].insts = &out[k];
	}
	err = kohaku_submit(c->dev, p, v->n_scr, c->p.timeout_ms, &job);
	if (err < 0)
		return cli_run_dev_error(c, r, err);
	err = cli_wait_final(c->dev, job, c->p.timeout_ms, &st);
	if (err < 0)
		return cli_run_failed(r, EXIT_DEVICE, "%s",
				      kohaku_last_error(c->dev));
	/* the run's device time is both jobs' */
	r->st.device_ns += st.device_ns;
	if (st.status != KOHAKU_JOB_DONE) {
		dc_say("the scratch units' COPY_OUT", &st, r->why, sizeof(r->why));
		r->exit = EXIT_DEVICE;
		return -1;
	}
	return 0;
}

/* the slot as the unit holds it, the tiles copied out, the guard */
static void dc_check(const struct kohaku_cli_demo_ctx *c,
		     struct kohaku_cli_run *r)
{
	struct kohaku_cli_dxa *v = r->priv;
	const struct drm_kohaku_node *q = r->node;
	struct drm_kohaku_dxa_slot drv, unit;
	unsigned char *got;
	unsigned int k, e, f;
	uint32_t w;
	int err;

	err = kohaku_dxa_get(c->dev, q->mesh, q->x, q->y, v->slot, 0, &drv, sizeof(drv));
	if (!err)
		err = kohaku_dxa_get(c->dev, q->mesh, q->x, q->y, v->slot,
				     KOHAKU_DXA_GET_DEVICE, &unit, sizeof(unit));
	if (err < 0) {
		cli_run_dev_error(c, r, err);
		return;
	}
	v->table_ok = !memcmp(drv.table, unit.table, sizeof(drv.table));
	if (dc_copy_out(c, r) < 0)
		return;
	got = cli_run_read(c, r, BO_OUT, DC_OUT_BYTES);
	if (!got)
		return;
	for (k = 0; k < v->n_scr; k++)
		for (e = 0; e < DC_TILE; e++) {
			memcpy(&w, got + k * DC_TILE_BYTES + e * 4, 4);
			if (w != dc_expect(e % DC_TCOLS, e / DC_TCOLS, r->index))
				cli_run_mismatch(r, k * DC_TILE + e);
		}
	r->guard_ok = cli_guard_ok(got + v->n_scr * DC_TILE_BYTES,
				   DC_OUT_BYTES - v->n_scr * DC_TILE_BYTES);
	memcpy(&w, got + r->first_bad * 4, 4);
	free(got);
	f = (unsigned int)(r->first_bad % DC_TILE);
	if (r->bad)
		cli_run_failed(r, EXIT_WRONG, "%lu of %u elements differ from the "
			       "host's reference; first: scratch unit %lu, tile "
			       "row %u column %u = 0x%08x, expected 0x%08x",
			       r->bad, v->n_scr * DC_TILE, r->first_bad / DC_TILE,
			       f / DC_TCOLS, f % DC_TCOLS, w,
			       dc_expect(f % DC_TCOLS, f / DC_TCOLS, r->index));
	else if (!r->guard_ok)
		cli_run_failed(r, EXIT_WRONG, "the bytes past the copied-out "
			       "tiles were changed");
	else if (!v->table_ok)
		cli_run_failed(r, EXIT_WRONG, "the unit's copy of slot %u differs "
			       "from what the driver says it wrote", v->slot);
}

static void dc_report(const struct kohaku_cli_demo_ctx *c,
		      struct json_object *rep)
{
	struct json_object *t = json_object_new_array();

	json_object_array_add(t, json_object_new_int(DC_TROWS));
	json_object_array_add(t, json_object_new_int(DC_TCOLS));
	json_object_object_add(rep, "tile", t);
}

static void dc_print_ok(const struct kohaku_cli_demo_ctx *c,
			const struct kohaku_cli_run *r)
{
	const struct kohaku_cli_dxa *v = r->priv;
	unsigned int k;

	printf(" slot %u: ok, to %u scratch unit%s", v->slot, v->n_scr,
	       v->n_scr == 1 ? "" : "s");
	for (k = 0; k < v->n_scr; k++)
		printf(" (%u,%u)", v->scr[k]->x, v->scr[k]->y);
	printf(": %u/%u elements match the reference, memory past them "
	       "untouched, the unit's slot is what the driver wrote",
	       v->n_scr * DC_TILE, v->n_scr * DC_TILE);
}

static void dc_json(const struct kohaku_cli_demo_ctx *c,
		    const struct kohaku_cli_run *r, struct json_object *j)
{
	const struct kohaku_cli_dxa *v = r->priv;
	struct json_object *ra = json_object_new_array();
	unsigned int k;

	for (k = 0; k < v->n_scr; k++) {
		struct json_object *xy = json_object_new_array();

		json_object_array_add(xy, json_object_new_int64(v->scr[k]->x));
		json_object_array_add(xy, json_object_new_int64(v->scr[k]->y));
		json_object_array_add(ra, xy);
	}
	json_object_object_add(j, "receivers", ra);
	json_object_object_add(j, "mismatches", json_object_new_uint64(r->bad));
	json_object_object_add(j, "tail_untouched",
			       json_object_new_boolean(r->guard_ok));
	json_object_object_add(j, "table_matches",
			       json_object_new_boolean(v->table_ok));
	json_object_object_add(j, "device_ns",
			       json_object_new_uint64(r->st.device_ns));
}

static void dc_release(const struct kohaku_cli_demo_ctx *c,
		       struct kohaku_cli_run *r)
{
	const struct kohaku_cli_dxa *v = r->priv;

	if (v->have_slot)
		kohaku_dxa_free(c->dev, r->node->mesh, r->node->x, r->node->y,
				v->slot);
}

const struct kohaku_cli_demo cli_demo_dxa_copy = {
	.name = "dxa-copy",
	.what = "run dxa-copy",
	.cu_type = KH_CU_DX,
	.unit = "DXA",
	.type_named = true,
	.hint = "try a card with `dxa` and `scr` tokens, e.g. --map dxa_2x1",
	.line = "dxa",
	.pass = "every element matches",
	.takes = CLI_TAKES_NODE | CLI_TAKES_TIMEOUT,
	.serial = true,
	.refused_usage = true,
	.priv_size = sizeof(struct kohaku_cli_dxa),
	.intro = dc_intro,
	.setup = dc_setup,
	.describe = dc_describe,
	.check = dc_check,
	.report = dc_report,
	.print_ok = dc_print_ok,
	.json = dc_json,
	.release = dc_release,
};
