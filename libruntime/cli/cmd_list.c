// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku list: the kohaku devices, usable or not and why (kernel: every
 * node under /dev/accel; sim: the built-in cards, or the one --map or
 * KOHAKU_DEVICE names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_cmd_list(const struct kohaku_cli_opts *o)
{
	struct kohaku_device_entry *l = NULL, one;
	char err[KOHAKU_ERRMSG_MAX] = "";
	enum kohaku_backend b = o->map ? KOHAKU_BACKEND_SIM : o->backend;
	const char *d = o->map ? o->map : o->device;
	unsigned int n = 0, i, usable = 0;
	bool single = false;
	int r;

	if (b == KOHAKU_BACKEND_ENV) {
		const char *e = getenv("KOHAKU_BACKEND");

		if (e && *e && kohaku_backend_parse(e, &b) < 0) {
			fprintf(stderr, "%s: KOHAKU_BACKEND='%s' is not a backend: "
				"use kernel or sim\n", CLI_PROG, e);
			return EXIT_NODEV;
		}
		if (!e || !*e)
			b = KOHAKU_BACKEND_KERNEL;
	}
	if (b == KOHAKU_BACKEND_SIM && d) {
		kohaku_device *dev;
		struct drm_kohaku_get_info info;

		memset(&one, 0, sizeof(one));
		one.backend = KOHAKU_BACKEND_SIM;
		one.index = -1;
		snprintf(one.driver, sizeof(one.driver), "kohaku (in-process)");
		r = kohaku_open(KOHAKU_BACKEND_SIM, d, &dev, err, sizeof(err));
		if (r == 0) {
			kohaku_get_info(dev, &info);
			snprintf(one.path, sizeof(one.path), "%s",
				 kohaku_device_path(dev));
			snprintf(one.name, sizeof(one.name), "%s", info.name);
			one.n_meshes = info.n_meshes;
			one.n_nodes = info.n_nodes;
			kohaku_close(dev);
		} else {
			one.status = r;
			snprintf(one.path, sizeof(one.path), "sim:%s", d);
			snprintf(one.message, sizeof(one.message), "%s", err);
			err[0] = '\0';
		}
		l = &one;
		n = 1;
		single = true;
	} else {
		r = kohaku_list_devices(b, &l, &n, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "%s: listing devices failed: %s\n",
				CLI_PROG, err);
			return EXIT_NODEV;
		}
	}
	for (i = 0; i < n; i++)
		usable += l[i].status == 0;

	if (o->json) {
		printf("{\"backend\": \"%s\", \"devices\": [",
		       kohaku_backend_name(b));
		for (i = 0; i < n; i++) {
			printf("%s{\"path\": ", i ? ", " : "");
			cli_json_str(l[i].path);
			printf(", \"index\": %d, \"usable\": %s, \"driver\": ",
			       l[i].index, l[i].status ? "false" : "true");
			cli_json_str(l[i].driver);
			printf(", \"name\": ");
			cli_json_str(l[i].name);
			printf(", \"meshes\": %u, \"nodes\": %u, \"error\": ",
			       l[i].n_meshes, l[i].n_nodes);
			cli_json_str(l[i].message);
			printf("}");
		}
		printf("], \"usable\": %u, \"note\": ", usable);
		cli_json_str(err);
		printf("}\n");
	} else {
		for (i = 0; i < n; i++) {
			if (l[i].status == 0)
				printf("%-20s %-20s %-20s %u mesh%s, %u node%s\n",
				       l[i].path, l[i].driver, l[i].name,
				       l[i].n_meshes,
				       l[i].n_meshes == 1 ? "" : "es",
				       l[i].n_nodes, l[i].n_nodes == 1 ? "" : "s");
			else
				printf("%-20s %-20s not usable: %s\n", l[i].path,
				       l[i].driver[0] ? l[i].driver : "-",
				       l[i].message);
		}
		if (!usable)
			fprintf(stderr, "%s: %s\n", CLI_PROG,
				err[0] ? err : "no usable kohaku device");
	}
	if (!single)
		kohaku_free_device_list(l);
	return usable ? EXIT_OK : EXIT_NODEV;
}
