// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku dxa [--node [M:]X,Y]: every DXA unit's 16 slots (docs/spec/dxa.md;
 * or the named units'): the state the driver knows (free, owned, set) and
 * the slot's 64 bytes as the unit holds them, read through CU_CTRL
 * (DXA_GET with KOHAKU_DXA_GET_DEVICE, which any file may do at any slot),
 * decoded.  `kohaku run dxa-copy` is a demo (demo_dxa.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kohaku/kh_dxa.h"

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
					   KOHAKU_DXA_GET_DEVICE, &g, sizeof(g));
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
