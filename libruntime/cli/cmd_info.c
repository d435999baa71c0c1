// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku info and kohaku nodes: what the device is, its capabilities and
 * meshes (GET_INFO), and its node table (NODES, --live re-read).
 * kohaku examine: both, the POOL firmware and the DXA slots in one report
 * (schema CLI_SCHEMA; it runs no job).  JSON through json-c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kohaku/kh_dxa.h"
#include "kohaku/kh_fw.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_units.h"

static void mesh_flags_str(unsigned int f, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s",
		 f & KOHAKU_MESH_PRESENT ? "present " : "",
		 f & KOHAKU_MESH_READY ? "ready " : "",
		 f & KOHAKU_MESH_WEDGED ? "WEDGED " : "",
		 f & KOHAKU_MESH_MIXED_VERSION ? "MIXED-VERSION " : "",
		 f ? "" : "absent");
	if (strlen(buf) && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
}

#define J_ADD(j, k, v)	json_object_object_add((j), (k), (v))
#define J_INT(v)	json_object_new_int64((int64_t)(v))
#define J_BOOL(v)	json_object_new_boolean(!!(v))

/* info's JSON object: schema CLI_SCHEMA, the device, caps and meshes */
static struct json_object *info_json(kohaku_device *dev,
				     const struct drm_kohaku_get_info *in)
{
	struct json_object *j = json_object_new_object(), *ma;
	char abi[24];
	unsigned int m;

	snprintf(abi, sizeof(abi), "%u.%u",
		 KOHAKU_ABI_VERSION_MAJOR(in->abi_version),
		 in->abi_version & 0xffff);
	J_ADD(j, "schema", J_INT(CLI_SCHEMA));
	J_ADD(j, "path", json_object_new_string(kohaku_device_path(dev)));
	J_ADD(j, "backend", json_object_new_string(
		kohaku_backend_name(kohaku_device_backend(dev))));
	J_ADD(j, "name", json_object_new_string(in->name));
	J_ADD(j, "abi_version", json_object_new_string(abi));
	J_ADD(j, "caps", json_object_new_uint64(in->caps));
	J_ADD(j, "simulated", J_BOOL(in->caps & KOHAKU_CAP_SIMULATED));
	J_ADD(j, "dma", J_BOOL(in->caps & KOHAKU_CAP_DMA));
	J_ADD(j, "irq", J_BOOL(in->caps & KOHAKU_CAP_IRQ));
	J_ADD(j, "fences", J_BOOL(in->caps & KOHAKU_CAP_FENCES));
	J_ADD(j, "firmware", J_BOOL(in->caps & KOHAKU_CAP_FIRMWARE));
	J_ADD(j, "job_data", J_BOOL(in->caps & KOHAKU_CAP_JOB_DATA));
	J_ADD(j, "ctrl32", J_BOOL(in->caps & KOHAKU_CAP_CTRL32));
	J_ADD(j, "job_bos", J_BOOL(in->caps & KOHAKU_CAP_JOB_BOS));
	J_ADD(j, "n_meshes", J_INT(in->n_meshes));
	J_ADD(j, "n_nodes", J_INT(in->n_nodes));
	ma = json_object_new_array();
	for (m = 0; m < in->n_meshes && m < KOHAKU_MAX_MESHES; m++) {
		const struct drm_kohaku_mesh_info *mi = &in->mesh[m];
		struct json_object *o = json_object_new_object(), *ag;

		J_ADD(o, "mesh", J_INT(m));
		J_ADD(o, "flags", J_INT(mi->flags));
		J_ADD(o, "n_nodes", J_INT(mi->n_nodes));
		J_ADD(o, "grid_lo", J_INT(mi->grid_lo));
		J_ADD(o, "grid_hi", J_INT(mi->grid_hi));
		J_ADD(o, "pos_width", J_INT(mi->pos_width));
		ag = json_object_new_array();
		json_object_array_add(ag, J_INT(mi->agent_x));
		json_object_array_add(ag, J_INT(mi->agent_y));
		J_ADD(o, "agent", ag);
		J_ADD(o, "cu_version", J_INT(mi->cu_version));
		J_ADD(o, "flit_width", J_INT(mi->flit_width));
		J_ADD(o, "min_inst_depth", J_INT(mi->min_inst_depth));
		J_ADD(o, "caps_reg", cli_json_hex64(mi->caps_reg));
		J_ADD(o, "mem_size", json_object_new_uint64(mi->mem_size));
		J_ADD(o, "mem_free", json_object_new_uint64(mi->mem_free));
		json_object_array_add(ma, o);
	}
	J_ADD(j, "meshes", ma);
	return j;
}

static void info_text(kohaku_device *dev, const struct drm_kohaku_get_info *in)
{
	unsigned int m;

	printf("device      %s (%s backend)\n", kohaku_device_path(dev),
	       kohaku_backend_name(kohaku_device_backend(dev)));
	printf("name        %s\n", in->name);
	printf("abi         %u.%u (the driver's; libkohaku %s was built for "
	       "driver ABI %u.%u)\n", KOHAKU_ABI_VERSION_MAJOR(in->abi_version),
	       in->abi_version & 0xffff, kohaku_version(), KOHAKU_ABI_MAJOR,
	       KOHAKU_ABI_MINOR);
	printf("caps        0x%llx%s%s%s%s%s%s%s%s\n", (unsigned long long)in->caps,
	       in->caps & KOHAKU_CAP_SIMULATED ? " simulated" : "",
	       in->caps & KOHAKU_CAP_DMA ? " dma" : "",
	       in->caps & KOHAKU_CAP_IRQ ? " irq" : " polling",
	       in->caps & KOHAKU_CAP_FENCES ? " fences" : "",
	       in->caps & KOHAKU_CAP_FIRMWARE ? " firmware" : "",
	       in->caps & KOHAKU_CAP_JOB_DATA ? " job-data" : "",
	       in->caps & KOHAKU_CAP_CTRL32 ? " ctrl32" : "",
	       in->caps & KOHAKU_CAP_JOB_BOS ? " job-bos" : "");
	printf("meshes      %u\n", in->n_meshes);
	printf("nodes       %u\n", in->n_nodes);
	for (m = 0; m < in->n_meshes && m < KOHAKU_MAX_MESHES; m++) {
		const struct drm_kohaku_mesh_info *mi = &in->mesh[m];
		char fl[96];

		mesh_flags_str(mi->flags, fl, sizeof(fl));
		printf("mesh %u      %s; %u nodes; grid %u..%u, pos_width %u; "
		       "agent (%u,%u); cu_version %u; flit %u bits; "
		       "min inst_depth %u\n", m, fl, mi->n_nodes,
		       mi->grid_lo, mi->grid_hi, mi->pos_width,
		       mi->agent_x, mi->agent_y, mi->cu_version,
		       mi->flit_width, mi->min_inst_depth);
		printf("            CAPS 0x%016llx; memory %llu MiB, %llu MiB "
		       "free\n", (unsigned long long)mi->caps_reg,
		       (unsigned long long)(mi->mem_size >> 20),
		       (unsigned long long)(mi->mem_free >> 20));
	}
}

int cli_cmd_info(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info in;
	kohaku_device *dev;
	int r;

	r = cli_open_dev(o, &dev);
	if (r)
		return r;
	kohaku_get_info(dev, &in, sizeof(in));
	if (o->json)
		cli_json_print(info_json(dev, &in));
	else
		info_text(dev, &in);
	kohaku_close(dev);
	return EXIT_OK;
}

/* ---- kohaku examine ---- */

/* the POOL firmware: kohaku_fw_info and the units' states */
static struct json_object *examine_fw(const struct kohaku_cli_opts *o,
				      kohaku_device *dev,
				      const struct drm_kohaku_node *nd,
				      unsigned int n)
{
	struct json_object *j, *pa;
	struct kohaku_fw_info fi;
	unsigned int i;

	if (kohaku_fw_info(dev, &fi, sizeof(fi)) < 0) {
		if (!o->json)
			printf("firmware    (unknown: %s)\n",
			       kohaku_last_error(dev));
		return NULL;
	}
	if (!o->json) {
		printf("firmware    %u POOL unit%s, %u running", fi.units,
		       fi.units == 1 ? "" : "s", fi.running);
		if (fi.fw_version)
			printf(", version %u.%u.%u (API %u.%u)",
			       KH_FW_VERSION_MAJOR(fi.fw_version),
			       KH_FW_VERSION_MINOR(fi.fw_version),
			       KH_FW_VERSION_PATCH(fi.fw_version),
			       fi.fw_api >> 16, fi.fw_api & 0xffff);
		printf("; driver API %u.%u%s%s\n", fi.driver_api >> 16,
		       fi.driver_api & 0xffff, fi.status[0] ? "; " : "",
		       fi.status);
		for (i = 0; i < n; i++)
			if (nd[i].cu_type == KH_CU_GP)
				printf("            POOL mesh %u (%u,%u): %s\n",
				       nd[i].mesh, nd[i].x, nd[i].y,
				       kohaku_fw_state_name(nd[i].fw_state));
		return NULL;
	}
	j = json_object_new_object();
	J_ADD(j, "units", J_INT(fi.units));
	J_ADD(j, "running", J_INT(fi.running));
	J_ADD(j, "fw_version", J_INT(fi.fw_version));
	J_ADD(j, "fw_api", J_INT(fi.fw_api));
	J_ADD(j, "driver_api", J_INT(fi.driver_api));
	J_ADD(j, "status", json_object_new_string(fi.status));
	pa = json_object_new_array();
	for (i = 0; i < n; i++) {
		struct json_object *u;

		if (nd[i].cu_type != KH_CU_GP)
			continue;
		u = json_object_new_object();
		J_ADD(u, "mesh", J_INT(nd[i].mesh));
		J_ADD(u, "x", J_INT(nd[i].x));
		J_ADD(u, "y", J_INT(nd[i].y));
		J_ADD(u, "state", json_object_new_string(
			kohaku_fw_state_name(nd[i].fw_state)));
		J_ADD(u, "fw_version", J_INT(nd[i].fw_version));
		J_ADD(u, "fw_api", J_INT(nd[i].fw_api));
		J_ADD(u, "boot_ns", json_object_new_uint64(nd[i].fw_boot_ns));
		J_ADD(u, "trap", json_object_new_uint64(nd[i].fw_trap));
		json_object_array_add(pa, u);
	}
	J_ADD(j, "pool", pa);
	return j;
}

/* the DXA units' slots, counted by the driver's state */
static struct json_object *examine_dxa(const struct kohaku_cli_opts *o,
				       kohaku_device *dev,
				       const struct drm_kohaku_node *nd,
				       unsigned int n)
{
	struct json_object *a = o->json ? json_object_new_array() : NULL;
	unsigned int i, s, k = 0;

	for (i = 0; i < n; i++) {
		unsigned int cnt[3] = { 0, 0, 0 }, bad = 0;

		if (nd[i].cu_type != KH_CU_DX)
			continue;
		k++;
		for (s = 0; s < KH_DXA_SLOTS; s++) {
			struct drm_kohaku_dxa_slot g;

			if (kohaku_dxa_get(dev, nd[i].mesh, nd[i].x, nd[i].y, s,
					   KOHAKU_DXA_GET_DEVICE, &g, sizeof(g)) < 0)
				bad++;
			else if (g.state == KOHAKU_DXA_SLOT_FREE)
				cnt[0]++;
			else if (g.state == KOHAKU_DXA_SLOT_OWNED)
				cnt[1]++;
			else
				cnt[2]++;
		}
		if (a) {
			struct json_object *u = json_object_new_object();

			J_ADD(u, "mesh", J_INT(nd[i].mesh));
			J_ADD(u, "x", J_INT(nd[i].x));
			J_ADD(u, "y", J_INT(nd[i].y));
			J_ADD(u, "free", J_INT(cnt[0]));
			J_ADD(u, "owned", J_INT(cnt[1]));
			J_ADD(u, "set", J_INT(cnt[2]));
			J_ADD(u, "unreadable", J_INT(bad));
			json_object_array_add(a, u);
		} else {
			printf("dxa         mesh %u (%u,%u): %u slots free, %u "
			       "owned, %u set%s\n", nd[i].mesh, nd[i].x,
			       nd[i].y, cnt[0], cnt[1], cnt[2],
			       bad ? " (some unreadable)" : "");
		}
	}
	if (!a && !k)
		printf("dxa         no DXA unit\n");
	return a;
}

int cli_cmd_examine(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_node *nd;
	struct json_object *j = NULL, *fw, *dxa;
	kohaku_device *dev;
	unsigned int n;
	int r;

	r = cli_open_nodes(o, KOHAKU_NODES_LIVE, &dev, &nd, &n);
	if (r)
		return r;
	kohaku_get_info(dev, &in, sizeof(in));
	if (o->json) {
		j = json_object_new_object();
		J_ADD(j, "schema", J_INT(CLI_SCHEMA));
		J_ADD(j, "info", info_json(dev, &in));
		J_ADD(j, "nodes", cli_json_nodes(nd, n));
	} else {
		printf("schema      %d (kohaku examine)\n", CLI_SCHEMA);
		info_text(dev, &in);
		printf("\n");
		cli_print_device_nodes(dev, nd, n, " (live)");
		printf("\n");
	}
	fw = examine_fw(o, dev, nd, n);
	dxa = examine_dxa(o, dev, nd, n);
	if (j) {
		J_ADD(j, "firmware", fw);
		J_ADD(j, "dxa", dxa);
		cli_json_print(j);
	}
	free(nd);
	kohaku_close(dev);
	return EXIT_OK;
}

int cli_cmd_nodes(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_node *nd;
	kohaku_device *dev;
	unsigned int n;
	int r;

	r = cli_open_nodes(o, o->live ? KOHAKU_NODES_LIVE : 0, &dev, &nd, &n);
	if (r)
		return r;
	if (o->json) {
		struct json_object *j = json_object_new_object();

		J_ADD(j, "path", json_object_new_string(kohaku_device_path(dev)));
		J_ADD(j, "nodes", cli_json_nodes(nd, n));
		cli_json_print(j);
	} else {
		cli_print_device_nodes(dev, nd, n, o->live ? " (live)" : "");
	}
	free(nd);
	kohaku_close(dev);
	return EXIT_OK;
}
