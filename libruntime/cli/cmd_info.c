// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku info and kohaku nodes: what the device is, its capabilities and
 * meshes (GET_INFO), and its node table (NODES, --live re-read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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

int cli_cmd_info(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_get_info in;
	kohaku_device *dev;
	unsigned int m;
	int r;

	r = cli_open_dev(o, &dev);
	if (r)
		return r;
	kohaku_get_info(dev, &in);
	if (o->json) {
		printf("{\"path\": ");
		cli_json_str(kohaku_device_path(dev));
		printf(", \"backend\": \"%s\", \"name\": ",
		       kohaku_backend_name(kohaku_device_backend(dev)));
		cli_json_str(in.name);
		printf(", \"abi_version\": \"%u.%u\", \"caps\": %llu, "
		       "\"simulated\": %s, \"dma\": %s, \"irq\": %s, "
		       "\"fences\": %s, \"firmware\": %s, \"job_data\": %s, "
		       "\"n_meshes\": %u, \"n_nodes\": %u, \"meshes\": [",
		       KOHAKU_ABI_VERSION_MAJOR(in.abi_version),
		       in.abi_version & 0xffff, (unsigned long long)in.caps,
		       in.caps & KOHAKU_CAP_SIMULATED ? "true" : "false",
		       in.caps & KOHAKU_CAP_DMA ? "true" : "false",
		       in.caps & KOHAKU_CAP_IRQ ? "true" : "false",
		       in.caps & KOHAKU_CAP_FENCES ? "true" : "false",
		       in.caps & KOHAKU_CAP_FIRMWARE ? "true" : "false",
		       in.caps & KOHAKU_CAP_JOB_DATA ? "true" : "false",
		       in.n_meshes, in.n_nodes);
		for (m = 0; m < in.n_meshes && m < KOHAKU_MAX_MESHES; m++) {
			const struct drm_kohaku_mesh_info *mi = &in.mesh[m];

			printf("%s{\"mesh\": %u, \"flags\": %u, \"n_nodes\": %u, "
			       "\"grid_lo\": %u, \"grid_hi\": %u, \"pos_width\": %u, "
			       "\"agent\": [%u, %u], \"cu_version\": %u, "
			       "\"flit_width\": %u, \"min_inst_depth\": %u, "
			       "\"caps_reg\": \"0x%016llx\", \"mem_size\": %llu, "
			       "\"mem_free\": %llu}", m ? ", " : "", m, mi->flags,
			       mi->n_nodes, mi->grid_lo, mi->grid_hi,
			       mi->pos_width, mi->agent_x, mi->agent_y,
			       mi->cu_version, mi->flit_width,
			       mi->min_inst_depth,
			       (unsigned long long)mi->caps_reg,
			       (unsigned long long)mi->mem_size,
			       (unsigned long long)mi->mem_free);
		}
		printf("]}\n");
	} else {
		printf("device      %s (%s backend)\n", kohaku_device_path(dev),
		       kohaku_backend_name(kohaku_device_backend(dev)));
		printf("name        %s\n", in.name);
		printf("abi         %u.%u (libkohaku %u.%u)\n",
		       KOHAKU_ABI_VERSION_MAJOR(in.abi_version),
		       in.abi_version & 0xffff, KOHAKU_ABI_MAJOR,
		       KOHAKU_ABI_MINOR);
		printf("caps        0x%llx%s%s%s%s%s%s\n", (unsigned long long)in.caps,
		       in.caps & KOHAKU_CAP_SIMULATED ? " simulated" : "",
		       in.caps & KOHAKU_CAP_DMA ? " dma" : "",
		       in.caps & KOHAKU_CAP_IRQ ? " irq" : " polling",
		       in.caps & KOHAKU_CAP_FENCES ? " fences" : "",
		       in.caps & KOHAKU_CAP_FIRMWARE ? " firmware" : "",
		       in.caps & KOHAKU_CAP_JOB_DATA ? " job-data" : "");
		printf("meshes      %u\n", in.n_meshes);
		printf("nodes       %u\n", in.n_nodes);
		for (m = 0; m < in.n_meshes && m < KOHAKU_MAX_MESHES; m++) {
			const struct drm_kohaku_mesh_info *mi = &in.mesh[m];
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
	cli_print_device_nodes(o, dev, nd, n, o->live ? " (live)" : "", false);
	if (o->json)
		printf("}\n");
	free(nd);
	kohaku_close(dev);
	return EXIT_OK;
}
