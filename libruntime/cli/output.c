// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What several kohaku commands print, as text or as JSON (--json): JSON
 * strings, and the node table with the device line above it.
 */
#include <stdio.h>

#include "cli.h"
#include "kohaku/kh_units.h"

void cli_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void type_str(uint16_t t, char *buf, size_t len)
{
	char n[16];

	kohaku_cu_type_name(t, n, sizeof(n));
	if (t == KH_CU_NULL || n[0] == '0')
		snprintf(buf, len, "0x%04x %s", t, n);
	else
		snprintf(buf, len, "0x%04x '%s'", t, n);
}

static void print_nodes(const struct kohaku_cli_opts *o,
			const struct drm_kohaku_node *nd, unsigned int n,
			bool trailing_comma)
{
	unsigned int i;

	if (o->json) {
		printf("\"nodes\": [");
		for (i = 0; i < n; i++) {
			char tn[16];

			kohaku_cu_type_name(nd[i].cu_type, tn, sizeof(tn));
			printf("%s{\"mesh\": %u, \"x\": %u, \"y\": %u, "
			       "\"cu_type\": %u, \"type\": ", i ? ", " : "",
			       nd[i].mesh, nd[i].x, nd[i].y, nd[i].cu_type);
			cli_json_str(tn);
			printf(", \"cu_version\": %u, \"n_buffers\": %u, "
			       "\"inst_depth\": %u, \"inst_space\": %u, "
			       "\"busy\": %u, \"retired\": %u, "
			       "\"busy_cycles\": %u, \"flags\": %u, "
			       "\"caps_reg\": \"0x%016llx\", \"dbg\": \"0x%016llx\"}",
			       nd[i].cu_version, nd[i].n_buffers,
			       nd[i].inst_depth, nd[i].inst_space, nd[i].busy,
			       nd[i].retired, nd[i].busy_cycles, nd[i].flags,
			       (unsigned long long)nd[i].caps_reg,
			       (unsigned long long)nd[i].dbg);
		}
		printf("]%s", trailing_comma ? ", " : "");
		return;
	}
	printf("%-4s %-7s %-12s %3s %4s %10s %10s %4s %10s %11s %s\n", "mesh",
	       "node", "type", "ver", "nbuf", "inst_depth", "inst_space",
	       "busy", "retired", "busy_cycles", "flags");
	for (i = 0; i < n; i++) {
		char coord[16], ts[32];

		snprintf(coord, sizeof(coord), "(%u,%u)", nd[i].x, nd[i].y);
		type_str(nd[i].cu_type, ts, sizeof(ts));
		printf("%-4u %-7s %-12s %3u %4u %10u %10u %4u %10u %11u %s\n",
		       nd[i].mesh, coord, ts, nd[i].cu_version, nd[i].n_buffers,
		       nd[i].inst_depth, nd[i].inst_space, nd[i].busy,
		       nd[i].retired, nd[i].busy_cycles,
		       nd[i].flags & KOHAKU_NODE_HUNG ? "HUNG" : "-");
	}
}

void cli_print_device_nodes(const struct kohaku_cli_opts *o,
			    const kohaku_device *dev,
			    const struct drm_kohaku_node *nd, unsigned int n,
			    const char *note, bool more)
{
	if (o->json) {
		printf("{\"path\": ");
		cli_json_str(kohaku_device_path(dev));
		printf(", ");
		print_nodes(o, nd, n, more);
		return;
	}
	printf("%s: %u node%s%s\n", kohaku_device_path(dev), n,
	       n == 1 ? "" : "s", note);
	print_nodes(o, nd, n, false);
}

void cli_print_verdict(const struct kohaku_cli_opts *o, const char *name,
		       int ret, const char *pass)
{
	if (o->json)
		printf("], \"ok\": %s}\n", ret ? "false" : "true");
	else
		printf("%s: %s%s%s\n", name, ret == EXIT_OK ? "PASS (" : "",
		       ret == EXIT_OK ? pass : ret == EXIT_WRONG ?
		       "FAIL (wrong answer)" :
		       "FAIL (the device did not run it as expected)",
		       ret == EXIT_OK ? ")" : "");
}
