// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku list: the kohaku devices, usable or not and why (kernel: every
 * node under /dev/accel, then the PCI functions with KohakuAccel's ids,
 * bound to a driver or not; sim: the built-in cards, or the one --map or
 * KOHAKU_DEVICE names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kohaku/kh_regs.h"

/* the PCI functions (kernel backend): listed, or why not */
struct kohaku_cli_pci {
	struct kohaku_pci_entry *l;
	unsigned int n;
	int r;
	char note[KOHAKU_ERRMSG_MAX];
	const char *added;	/* KOHAKU_PCI_MATCH, or NULL */
};

static void pci_json(const struct kohaku_cli_pci *p)
{
	char id[16];
	unsigned int i;
	bool first;
	int b;

	printf(", \"pci\": {\"ids\": \"%04x:%04x\", \"added\": ",
	       KH_PCI_VENDOR, KH_PCI_DEVICE);
	cli_json_str(p->added ? p->added : "");
	printf(", \"functions\": [");
	for (i = 0; i < p->n; i++) {
		const struct kohaku_pci_entry *e = &p->l[i];

		printf("%s{\"address\": ", i ? ", " : "");
		cli_json_str(e->address);
		snprintf(id, sizeof(id), "%04x:%04x", e->vendor, e->device);
		printf(", \"id\": \"%s\", ", id);
		snprintf(id, sizeof(id), "%04x:%04x", e->subvendor, e->subdevice);
		printf("\"subsystem\": \"%s\", \"revision\": %u, "
		       "\"class\": \"0x%06x\", \"kohaku_ids\": %s, \"bars\": [",
		       id, e->revision, e->class_code,
		       e->kohaku_ids ? "true" : "false");
		for (b = 0, first = true; b < 6; b++) {
			if (!e->bar[b].size)
				continue;
			printf("%s{\"bar\": %d, \"size\": %llu, \"io\": %s, "
			       "\"64bit\": %s, \"prefetchable\": %s}",
			       first ? "" : ", ", b,
			       (unsigned long long)e->bar[b].size,
			       e->bar[b].flags & KOHAKU_PCI_BAR_IO ? "true" : "false",
			       e->bar[b].flags & KOHAKU_PCI_BAR_64 ? "true" : "false",
			       e->bar[b].flags & KOHAKU_PCI_BAR_PREFETCH ?
			       "true" : "false");
			first = false;
		}
		printf("], \"link_speed\": ");
		cli_json_str(e->link_speed);
		printf(", \"link_width\": %u, \"max_link_speed\": ",
		       e->link_width);
		cli_json_str(e->max_link_speed);
		printf(", \"max_link_width\": %u, \"driver\": ",
		       e->max_link_width);
		cli_json_str(e->driver);
		printf(", \"accel\": ");
		cli_json_str(e->accel);
		printf(", \"usable\": %s, \"error\": ",
		       e->status ? "false" : "true");
		cli_json_str(e->message);
		printf("}");
	}
	printf("], \"error\": ");
	cli_json_str(p->r < 0 ? p->note : "");
	printf(", \"note\": ");
	cli_json_str(p->r < 0 ? "" : p->note);
	printf("}");
}

static void pci_text(const struct kohaku_cli_pci *p, bool after)
{
	char link[96], bars[256];
	unsigned int i;

	if (p->r < 0) {
		fprintf(stderr, "%s: %s\n", CLI_PROG, p->note);
		return;
	}
	printf("%sPCI functions %04x:%04x%s%s: ", after ? "\n" : "",
	       KH_PCI_VENDOR, KH_PCI_DEVICE,
	       p->added ? " and KOHAKU_PCI_MATCH " : "",
	       p->added ? p->added : "");
	if (p->n)
		printf("%u\n", p->n);
	else
		printf("none\n");
	for (i = 0; i < p->n; i++) {
		const struct kohaku_pci_entry *e = &p->l[i];

		printf("%s %04x:%04x (subsystem %04x:%04x, rev %02x): link %s, "
		       "%s, driver %s%s%s\n", e->address, e->vendor, e->device,
		       e->subvendor, e->subdevice, e->revision,
		       kohaku_pci_link_describe(e, link, sizeof(link)),
		       kohaku_pci_bars_describe(e, bars, sizeof(bars)),
		       e->driver[0] ? e->driver : "-", e->accel[0] ? ", " : "",
		       e->accel);
		if (e->status)
			printf("    not usable: %s\n", e->message);
	}
}

int cli_cmd_list(const struct kohaku_cli_opts *o)
{
	struct kohaku_device_entry *l = NULL, one;
	struct kohaku_cli_pci pci;
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
	memset(&pci, 0, sizeof(pci));
	if (b == KOHAKU_BACKEND_KERNEL) {
		const char *m = getenv("KOHAKU_PCI_MATCH");

		pci.added = m && *m ? m : NULL;
		pci.r = kohaku_pci_list(NULL, &pci.l, &pci.n, pci.note,
					sizeof(pci.note));
	}

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
		if (b == KOHAKU_BACKEND_KERNEL)
			pci_json(&pci);
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
		if (b == KOHAKU_BACKEND_KERNEL)
			pci_text(&pci, n > 0);
		if (!usable)
			fprintf(stderr, "%s: %s\n", CLI_PROG,
				err[0] ? err : "no usable kohaku device");
		/* a card that is there but not usable is the likely answer */
		for (i = 0; !usable && i < pci.n; i++)
			if (pci.l[i].kohaku_ids && pci.l[i].status)
				fprintf(stderr, "%s: the KohakuAccel card at %s "
					"is not usable: %s\n", CLI_PROG,
					pci.l[i].address, pci.l[i].message);
	}
	kohaku_free_pci_list(pci.l);
	if (!single)
		kohaku_free_device_list(l);
	return usable ? EXIT_OK : EXIT_NODEV;
}
