// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA unit (docs/spec/dxa.md) from the command line.
 *
 * kohaku dxa [--node [M:]X,Y]: every DXA unit's 16 slots (or the named
 * units'): the state the driver knows (free, owned, set) and the slot's 64
 * bytes as the unit holds them, read through CU_CTRL (DXA_GET with
 * KOHAKU_DXA_GET_DEVICE, which any file may do at any slot), decoded.
 *
 * kohaku run dxa-copy [--node [M:]X,Y]: on every DXA unit (or the named
 * ones), a 37 x 50 matrix of u32 in DRAM, rows 256 bytes apart; one slot
 * set to it, its last tile of 8 x 16 (rows 32..39, columns 48..63: both
 * edges out of bounds, filled with 0xf111f111) copied by one COPY to two
 * scratch units of the mesh at once (multicast: the second 16 granules
 * further on); then each scratch unit's granules written back to a BO by
 * COPY_OUT, read, and compared with a plain C loop over the matrix, with
 * the bytes past the result checked untouched.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kohaku/kh_dxa.h"

#define DC_ROWS		37
#define DC_COLS		50
#define DC_PITCH	256			/* bytes between rows */
#define DC_TROWS	8
#define DC_TCOLS	16
#define DC_R0		32			/* the tile's first row */
#define DC_C0		48			/* ... and column */
#define DC_FILL		0xf111f111u
#define DC_TILE_BYTES	(DC_TROWS * DC_TCOLS * 4)
#define DC_GRANULES	(DC_TILE_BYTES / KOHAKU_DATA_GRANULE)	/* 16 */
#define DC_MAX_RECV	2
#define DC_GUARD	64
#define DC_GUARD_BYTE	0xa5

static const char *dc_state(uint32_t s)
{
	switch (s) {
	case KOHAKU_DXA_SLOT_FREE:
		return "free";
	case KOHAKU_DXA_SLOT_OWNED:
		return "owned";
	case KOHAKU_DXA_SLOT_SET:
		return "set";
	default:
		return "?";
	}
}

/* ---- kohaku dxa ---- */

int cli_cmd_dxa(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_node *nd = NULL;
	const struct drm_kohaku_node **sel = NULL;
	unsigned int n = 0, n_sel = 0, i, s;
	struct json_object *j = NULL, *ja = NULL;
	kohaku_device *dev;
	char text[512];
	int r, ret;

	r = cli_open_nodes(o, 0, &dev, &nd, &n);
	if (r)
		return r;
	sel = calloc(n ? n : 1, sizeof(*sel));
	if (!sel) {
		cli_error("out of memory");
		ret = EXIT_DEVICE;
		goto out;
	}
	ret = cli_select_units(o, nd, n, KH_CU_DX, "dxa", sel, &n_sel);
	if (ret)
		goto out;
	if (o->json) {
		j = json_object_new_object();
		ja = json_object_new_array();
		json_object_object_add(j, "path",
				       json_object_new_string(kohaku_device_path(dev)));
		json_object_object_add(j, "units", ja);
	}
	if (!n_sel) {
		if (o->json) {
			json_object_object_add(j, "ok", json_object_new_boolean(1));
			cli_json_print(j);
			j = NULL;
		} else {
			printf("%s: no DXA unit (cu_type 0x%04x 'DX') on this "
			       "device\n", kohaku_device_path(dev), KH_CU_DX);
		}
		goto out;
	}
	for (i = 0; i < n_sel; i++) {
		const struct drm_kohaku_node *q = sel[i];
		struct json_object *uj, *sa = NULL;

		if (o->json) {
			uj = json_object_new_object();
			sa = json_object_new_array();
			json_object_object_add(uj, "mesh", json_object_new_int64(q->mesh));
			json_object_object_add(uj, "x", json_object_new_int64(q->x));
			json_object_object_add(uj, "y", json_object_new_int64(q->y));
			json_object_object_add(uj, "slots", sa);
			json_object_array_add(ja, uj);
		} else
			printf("%sDXA unit mesh %u (%u,%u): %u slots, as the unit "
			       "holds them (read through CU_CTRL)\n", i ? "\n" : "",
			       q->mesh, q->x, q->y, KH_DXA_SLOTS);
		for (s = 0; s < KH_DXA_SLOTS; s++) {
			struct drm_kohaku_dxa_slot g;
			unsigned int b;

			r = kohaku_dxa_get(dev, q->mesh, q->x, q->y, s,
					   KOHAKU_DXA_GET_DEVICE, &g);
			if (r < 0) {
				fprintf(stderr, "%s: %s\n", CLI_PROG,
					kohaku_last_error(dev));
				if (j) {
					json_object_object_add(j, "ok",
						json_object_new_boolean(0));
					cli_json_print(j);
					j = NULL;
				}
				ret = EXIT_DEVICE;
				goto out;
			}
			kohaku_dxa_describe(g.table, text, sizeof(text));
			if (sa) {
				struct json_object *sj = json_object_new_object();
				char hex[2 * sizeof(g.table) + 1];

				for (b = 0; b < sizeof(g.table); b++)
					snprintf(hex + 2 * b, 3, "%02x", g.table[b]);
				json_object_object_add(sj, "slot",
						       json_object_new_int64(s));
				json_object_object_add(sj, "state",
					json_object_new_string(dc_state(g.state)));
				json_object_object_add(sj, "table",
						       json_object_new_string(hex));
				json_object_object_add(sj, "decoded",
						       json_object_new_string(text));
				json_object_array_add(sa, sj);
			} else {
				printf("  slot %2u  %-5s  %s\n", s, dc_state(g.state),
				       text);
			}
		}
	}
	if (j) {
		json_object_object_add(j, "ok", json_object_new_boolean(1));
		cli_json_print(j);
		j = NULL;
	}
out:
	json_object_put(j);
	free(sel);
	free(nd);
	kohaku_close(dev);
	return ret;
}

/* ---- kohaku run dxa-copy ---- */

struct kohaku_cli_dxa_run {
	const struct drm_kohaku_node *node;
	const struct drm_kohaku_node *scr[DC_MAX_RECV];
	unsigned int n_scr;
	uint32_t hmat, hout;
	uint64_t amat, aout;
	unsigned int slot;
	bool have_slot;
	bool table_ok;
	unsigned long bad;
	unsigned long first_bad;
	bool guard_ok;
	uint64_t device_ns;
	int exit;
	char why[KOHAKU_ERRMSG_MAX];
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

static void dc_fail(kohaku_device *dev, struct kohaku_cli_dxa_run *v, int r)
{
	snprintf(v->why, sizeof(v->why), "%s", kohaku_last_error(dev));
	v->exit = r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
}

static int dc_job(kohaku_device *dev, const struct kohaku_cli_opts *o,
		  struct kohaku_cli_dxa_run *v, const struct kohaku_program *p,
		  unsigned int n, const char *what)
{
	struct kohaku_job_status st;
	uint64_t job;
	int r;

	r = kohaku_submit(dev, p, n, o->timeout_ms, &job);
	if (r < 0) {
		dc_fail(dev, v, r);
		return r;
	}
	r = cli_wait_final(dev, job, o->timeout_ms, &st);
	if (r < 0) {
		dc_fail(dev, v, r);
		v->exit = EXIT_DEVICE;
		return r;
	}
	v->device_ns += st.device_ns;
	if (st.status != KOHAKU_JOB_DONE) {
		char d[512], f[160] = "";

		kohaku_job_describe(&st, d, sizeof(d));
		if (st.status == KOHAKU_JOB_FAULT &&
		    (st.fault_flags & KOHAKU_FAULT_CODE_KNOWN))
			kohaku_dxa_fault_describe(st.fault_code, f, sizeof(f));
		snprintf(v->why, sizeof(v->why), "%s: %s%s%s", what, d,
			 *f ? ": " : "", f);
		v->exit = EXIT_DEVICE;
		return -EIO;
	}
	return 0;
}

static void dc_run(kohaku_device *dev, const struct kohaku_cli_opts *o,
		   struct kohaku_cli_dxa_run *v, unsigned int ui)
{
	const size_t mat_bytes = (size_t)DC_ROWS * DC_PITCH;
	const size_t out_bytes = (size_t)DC_MAX_RECV * DC_TILE_BYTES + DC_GUARD;
	const struct drm_kohaku_node *q = v->node;
	struct kohaku_program p[DC_MAX_RECV];
	struct kohaku_inst copy, out[DC_MAX_RECV];
	struct kohaku_dxa_recv recv[DC_MAX_RECV];
	struct drm_kohaku_dxa_desc d;
	struct drm_kohaku_dxa_slot drv, unit;
	const uint32_t coords[5] = { DC_C0, DC_R0, 0, 0, 0 };
	uint32_t *mat = NULL;
	unsigned char *got = NULL;
	unsigned int k, i0, i1, e;
	int r;

	mat = calloc(1, mat_bytes);
	got = malloc(out_bytes);
	if (!mat || !got) {
		snprintf(v->why, sizeof(v->why), "out of memory");
		v->exit = EXIT_DEVICE;
		goto done;
	}
	for (i1 = 0; i1 < DC_ROWS; i1++)
		for (i0 = 0; i0 < DC_COLS; i0++)
			mat[i1 * (DC_PITCH / 4) + i0] = dc_elem(i1, i0, ui);
	memset(got, DC_GUARD_BYTE, out_bytes);
	r = kohaku_bo_create(dev, q->mesh, mat_bytes, &v->hmat, &v->amat);
	if (!r)
		r = kohaku_bo_create(dev, q->mesh, out_bytes, &v->hout, &v->aout);
	if (!r)
		r = kohaku_bo_write(dev, v->hmat, 0, mat, mat_bytes);
	if (!r)
		r = kohaku_bo_write(dev, v->hout, 0, got, out_bytes);
	if (!r)
		r = kohaku_dxa_alloc(dev, q->mesh, q->x, q->y, &v->slot);
	if (r < 0) {
		dc_fail(dev, v, r);
		goto done;
	}
	v->have_slot = true;
	/* the matrix: DC_COLS columns (dimension 0), DC_ROWS rows */
	r = kohaku_dxa_desc_2d(&d, v->hmat, 0, 4, DC_COLS, DC_ROWS, DC_PITCH,
			       DC_TCOLS, DC_TROWS);
	if (!r)
		r = kohaku_dxa_set_cfill(&d, DC_FILL);
	if (!r)
		r = kohaku_dxa_set_multicast(&d, DC_GRANULES);
	if (r < 0) {
		snprintf(v->why, sizeof(v->why), "cannot build the descriptor");
		v->exit = EXIT_USAGE;
		goto done;
	}
	r = kohaku_dxa_set(dev, q->mesh, q->x, q->y, v->slot, &d);
	if (r < 0) {
		dc_fail(dev, v, r);
		goto done;
	}
	/* one COPY: receiver r gets its burst at granule r * DC_GRANULES */
	for (k = 0; k < v->n_scr; k++) {
		recv[k].x = v->scr[k]->x;
		recv[k].y = v->scr[k]->y;
		recv[k].buf = KH_SCR_BUF;
		recv[k].offset = 0;
	}
	if (kohaku_inst_dxa_copy(&copy, v->slot, coords, recv, v->n_scr) < 0) {
		snprintf(v->why, sizeof(v->why), "cannot encode the COPY");
		v->exit = EXIT_USAGE;
		goto done;
	}
	memset(p, 0, sizeof(p));
	p[0].mesh = q->mesh;
	p[0].x = q->x;
	p[0].y = q->y;
	p[0].n_insts = 1;
	p[0].insts = &copy;
	if (dc_job(dev, o, v, p, 1, "the DXA copy") < 0)
		goto done;
	/* what the driver wrote and what the unit holds */
	r = kohaku_dxa_get(dev, q->mesh, q->x, q->y, v->slot, 0, &drv);
	if (!r)
		r = kohaku_dxa_get(dev, q->mesh, q->x, q->y, v->slot,
				   KOHAKU_DXA_GET_DEVICE, &unit);
	if (r < 0) {
		dc_fail(dev, v, r);
		goto done;
	}
	v->table_ok = !memcmp(drv.table, unit.table, sizeof(drv.table));
	/* each scratch unit's granules back to DRAM, side by side */
	memset(p, 0, sizeof(p));
	for (k = 0; k < v->n_scr; k++) {
		r = kohaku_inst_scr_copy_out(&out[k], k * DC_GRANULES, DC_GRANULES,
					     v->aout + (uint64_t)k * DC_TILE_BYTES);
		if (r < 0) {
			snprintf(v->why, sizeof(v->why),
				 "cannot encode COPY_OUT (a BO address past 40 bits?)");
			v->exit = EXIT_USAGE;
			goto done;
		}
		p[k].mesh = v->scr[k]->mesh;
		p[k].x = v->scr[k]->x;
		p[k].y = v->scr[k]->y;
		p[k].txn = (uint8_t)k;
		p[k].n_insts = 1;
		p[k].insts = &out[k];
	}
	if (dc_job(dev, o, v, p, v->n_scr, "the scratch units' COPY_OUT") < 0)
		goto done;
	r = kohaku_bo_read(dev, v->hout, 0, got, out_bytes);
	if (r < 0) {
		dc_fail(dev, v, r);
		v->exit = EXIT_DEVICE;
		goto done;
	}
	for (k = 0; k < v->n_scr; k++)
		for (e = 0; e < DC_TROWS * DC_TCOLS; e++) {
			uint32_t w;

			memcpy(&w, got + k * DC_TILE_BYTES + e * 4, 4);
			if (w != dc_expect(e % DC_TCOLS, e / DC_TCOLS, ui)) {
				if (!v->bad)
					v->first_bad = k * DC_TROWS * DC_TCOLS + e;
				v->bad++;
			}
		}
	v->guard_ok = true;
	for (e = (unsigned int)(v->n_scr * DC_TILE_BYTES); e < out_bytes; e++)
		if (got[e] != DC_GUARD_BYTE)
			v->guard_ok = false;
	if (v->bad) {
		unsigned int f = (unsigned int)v->first_bad % (DC_TROWS * DC_TCOLS);
		uint32_t w;

		memcpy(&w, got + v->first_bad * 4, 4);
		snprintf(v->why, sizeof(v->why),
			 "%lu of %u elements differ from the host's reference; "
			 "first: scratch unit %lu, tile row %u column %u = "
			 "0x%08x, expected 0x%08x", v->bad,
			 v->n_scr * DC_TROWS * DC_TCOLS,
			 v->first_bad / (DC_TROWS * DC_TCOLS), f / DC_TCOLS,
			 f % DC_TCOLS, w, dc_expect(f % DC_TCOLS, f / DC_TCOLS, ui));
		v->exit = EXIT_WRONG;
	} else if (!v->guard_ok) {
		snprintf(v->why, sizeof(v->why),
			 "the bytes past the copied-out tiles were changed");
		v->exit = EXIT_WRONG;
	} else if (!v->table_ok) {
		snprintf(v->why, sizeof(v->why),
			 "the unit's copy of slot %u differs from what the "
			 "driver says it wrote", v->slot);
		v->exit = EXIT_WRONG;
	}
done:
	free(mat);
	free(got);
}

/* up to DC_MAX_RECV scratch units of the DXA unit's mesh */
static unsigned int dc_scr_of(const struct drm_kohaku_node *nd, unsigned int n,
			      const struct drm_kohaku_node *q,
			      const struct drm_kohaku_node **out)
{
	unsigned int i, k = 0;

	for (i = 0; i < n && k < DC_MAX_RECV; i++)
		if (nd[i].cu_type == KH_CU_SC && nd[i].mesh == q->mesh)
			out[k++] = &nd[i];
	return k;
}

int cli_cmd_run_dxa(const struct kohaku_cli_opts *o)
{
	struct kohaku_cli_demo_units d;
	struct kohaku_cli_dxa_run *runs;
	unsigned int n_runs, i;
	kohaku_device *dev;
	int ret;

	ret = cli_demo_open(o, &d, KH_CU_DX, "run dxa-copy", sizeof(*runs),
			    offsetof(struct kohaku_cli_dxa_run, node));
	dev = d.dev;
	n_runs = d.n_sel;
	runs = d.runs;
	for (i = 0; i < n_runs; i++)
		runs[i].n_scr = dc_scr_of(d.nd, d.n_nodes, d.sel[i], runs[i].scr);
	if (ret)
		goto out;
	if (!o->json)
		printf("\ndxa-copy: the %u x %u tile at row %u, column %u of a "
		       "%u x %u u32 matrix\n  (rows %u bytes apart; rows %u.. and "
		       "columns %u.. are past the edge: filled with 0x%08x),\n"
		       "  multicast to the scratch units, copied out and "
		       "compared with a C reference, on %u DXA unit%s\n",
		       DC_TROWS, DC_TCOLS, DC_R0, DC_C0, DC_ROWS, DC_COLS,
		       DC_PITCH, DC_ROWS, DC_COLS, DC_FILL, n_runs,
		       n_runs == 1 ? "" : "s");
	if (!n_runs) {
		ret = cli_demo_none(o, "dxa-copy", "DXA", KH_CU_DX,
				    "try a card with `dxa` and `scr` tokens, e.g. --map dxa_2x1");
		goto out;
	}
	for (i = 0; i < n_runs; i++) {
		if (!runs[i].n_scr) {
			snprintf(runs[i].why, sizeof(runs[i].why),
				 "no scratch unit (cu_type 0x%04x 'SC') on mesh %u "
				 "to copy to", KH_CU_SC, runs[i].node->mesh);
			runs[i].exit = EXIT_USAGE;
			continue;
		}
		dc_run(dev, o, &runs[i], i);
	}

	if (o->json) {
		struct json_object *t = json_object_new_array();

		json_object_array_add(t, json_object_new_int(DC_TROWS));
		json_object_array_add(t, json_object_new_int(DC_TCOLS));
		cli_report_set(o, "tile", t);
		cli_report_set(o, "units", NULL);
	}
	for (i = 0; i < n_runs; i++) {
		struct kohaku_cli_dxa_run *v = &runs[i];
		const struct drm_kohaku_node *q = v->node;
		unsigned int k;

		if (v->exit > ret || (ret == EXIT_OK && v->exit))
			ret = v->exit;
		if (o->json) {
			struct json_object *j = cli_json_unit(q, !v->exit);
			struct json_object *ra = json_object_new_array();

			for (k = 0; k < v->n_scr; k++) {
				struct json_object *xy = json_object_new_array();

				json_object_array_add(xy,
					json_object_new_int64(v->scr[k]->x));
				json_object_array_add(xy,
					json_object_new_int64(v->scr[k]->y));
				json_object_array_add(ra, xy);
			}
			json_object_object_add(j, "receivers", ra);
			json_object_object_add(j, "mismatches",
					       json_object_new_uint64(v->bad));
			json_object_object_add(j, "tail_untouched",
					       json_object_new_boolean(v->guard_ok));
			json_object_object_add(j, "table_matches",
					       json_object_new_boolean(v->table_ok));
			json_object_object_add(j, "device_ns",
					       json_object_new_uint64(v->device_ns));
			json_object_object_add(j, "error",
					       json_object_new_string(v->why));
			cli_report_unit(o, j);
			continue;
		}
		if (!v->exit) {
			printf("dxa mesh %u (%u,%u) slot %u: ok, to %u scratch "
			       "unit%s", q->mesh, q->x, q->y, v->slot, v->n_scr,
			       v->n_scr == 1 ? "" : "s");
			for (k = 0; k < v->n_scr; k++)
				printf(" (%u,%u)", v->scr[k]->x, v->scr[k]->y);
			printf(": %u/%u elements match the reference, memory "
			       "past them untouched, the unit's slot is what the "
			       "driver wrote; device %.3f us\n",
			       v->n_scr * DC_TROWS * DC_TCOLS,
			       v->n_scr * DC_TROWS * DC_TCOLS, v->device_ns / 1e3);
		} else {
			printf("dxa mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x,
			       q->y, v->why);
		}
	}
	cli_print_verdict(o, "dxa-copy", ret, "every element matches");
	for (i = 0; i < n_runs; i++) {
		if (runs[i].have_slot)
			kohaku_dxa_free(dev, runs[i].node->mesh, runs[i].node->x,
					runs[i].node->y, runs[i].slot);
		if (runs[i].hmat)
			kohaku_bo_free(dev, runs[i].hmat);
		if (runs[i].hout)
			kohaku_bo_free(dev, runs[i].hout);
	}
out:
	cli_demo_close(&d);
	return ret;
}
