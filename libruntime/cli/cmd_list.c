// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku list: the kohaku devices, usable or not and why (kernel: every
 * node under /dev/accel and kohaku's render nodes under /dev/dri, the
 * nodes before Linux 6.2; then the PCI functions with KohakuAccel's ids,
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

#define J_ADD(j, k, v)	json_object_object_add((j), (k), (v))
#define J_STR(v)	json_object_new_string(v)
#define J_INT(v)	json_object_new_int64((int64_t)(v))
#define J_BOOL(v)	json_object_new_boolean(!!(v))

static struct json_object *pci_json(const struct kohaku_cli_pci *p)
{
	struct json_object *j = json_object_new_object(), *fa;
	char id[24];
	unsigned int i;
	int b;

	snprintf(id, sizeof(id), "%04x:%04x", KH_PCI_VENDOR, KH_PCI_DEVICE);
	J_ADD(j, "ids", J_STR(id));
	J_ADD(j, "added", J_STR(p->added ? p->added : ""));
	fa = json_object_new_array();
	for (i = 0; i < p->n; i++) {
		const struct kohaku_pci_entry *e = &p->l[i];
		struct json_object *f = json_object_new_object(), *ba;

		J_ADD(f, "address", J_STR(e->address));
		snprintf(id, sizeof(id), "%04x:%04x", e->vendor, e->device);
		J_ADD(f, "id", J_STR(id));
		snprintf(id, sizeof(id), "%04x:%04x", e->subvendor, e->subdevice);
		J_ADD(f, "subsystem", J_STR(id));
		J_ADD(f, "revision", J_INT(e->revision));
		snprintf(id, sizeof(id), "0x%06x", e->class_code);
		J_ADD(f, "class", J_STR(id));
		J_ADD(f, "kohaku_ids", J_BOOL(e->kohaku_ids));
		ba = json_object_new_array();
		for (b = 0; b < 6; b++) {
			struct json_object *bj;

			if (!e->bar[b].size)
				continue;
			bj = json_object_new_object();
			J_ADD(bj, "bar", J_INT(b));
			J_ADD(bj, "size", json_object_new_uint64(e->bar[b].size));
			J_ADD(bj, "io", J_BOOL(e->bar[b].flags & KOHAKU_PCI_BAR_IO));
			J_ADD(bj, "64bit", J_BOOL(e->bar[b].flags & KOHAKU_PCI_BAR_64));
			J_ADD(bj, "prefetchable",
			      J_BOOL(e->bar[b].flags & KOHAKU_PCI_BAR_PREFETCH));
			json_object_array_add(ba, bj);
		}
		J_ADD(f, "bars", ba);
		J_ADD(f, "link_speed", J_STR(e->link_speed));
		J_ADD(f, "link_width", J_INT(e->link_width));
		J_ADD(f, "max_link_speed", J_STR(e->max_link_speed));
		J_ADD(f, "max_link_width", J_INT(e->max_link_width));
		J_ADD(f, "driver", J_STR(e->driver));
		J_ADD(f, "accel", J_STR(e->accel));
		J_ADD(f, "usable", J_BOOL(!e->status));
		J_ADD(f, "error", J_STR(e->message));
		json_object_array_add(fa, f);
	}
	J_ADD(j, "functions", fa);
	J_ADD(j, "error", J_STR(p->r < 0 ? p->note : ""));
	J_ADD(j, "note", J_STR(p->r < 0 ? "" : p->note));
	return j;
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
	enum kohaku_backend b = o->map ? cli_map_backend(o) : o->backend;
	const char *d = o->map ? o->map : o->device;
	unsigned int n = 0, i, usable = 0;
	bool single = false;
	int r;

	if (b == KOHAKU_BACKEND_ENV) {
		const char *e = getenv("KOHAKU_BACKEND");

		if (e && *e && kohaku_backend_parse(e, &b) < 0) {
			cli_error("KOHAKU_BACKEND='%s' is not a backend: "
				  "use kernel, sim or daemon", e);
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
			kohaku_get_info(dev, &info, sizeof(info));
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
		r = kohaku_list_devices(b, &l, &n, sizeof(*l), err, sizeof(err));
		if (r < 0) {
			cli_error("listing devices failed: %s", err);
			return EXIT_NODEV;
		}
	}
	for (i = 0; i < n; i++)
		usable += l[i].status == 0;
	memset(&pci, 0, sizeof(pci));
	if (b == KOHAKU_BACKEND_KERNEL) {
		const char *m = getenv("KOHAKU_PCI_MATCH");

		pci.added = m && *m ? m : NULL;
		pci.r = kohaku_pci_list(NULL, &pci.l, &pci.n, sizeof(*pci.l), pci.note,
					sizeof(pci.note));
	}

	if (o->json) {
		struct json_object *j = json_object_new_object();
		struct json_object *da = json_object_new_array();

		J_ADD(j, "backend", J_STR(kohaku_backend_name(b)));
		for (i = 0; i < n; i++) {
			struct json_object *dj = json_object_new_object();

			J_ADD(dj, "path", J_STR(l[i].path));
			J_ADD(dj, "index", J_INT(l[i].index));
			J_ADD(dj, "usable", J_BOOL(!l[i].status));
			J_ADD(dj, "driver", J_STR(l[i].driver));
			J_ADD(dj, "name", J_STR(l[i].name));
			J_ADD(dj, "meshes", J_INT(l[i].n_meshes));
			J_ADD(dj, "nodes", J_INT(l[i].n_nodes));
			J_ADD(dj, "error", J_STR(l[i].message));
			json_object_array_add(da, dj);
		}
		J_ADD(j, "devices", da);
		J_ADD(j, "usable", J_INT(usable));
		J_ADD(j, "note", J_STR(err));
		if (b == KOHAKU_BACKEND_KERNEL)
			J_ADD(j, "pci", pci_json(&pci));
		if (!usable) {
			/* as every failure under --json: error and exit */
			J_ADD(j, "error", J_STR(err[0] ? err :
					       "no usable kohaku device"));
			J_ADD(j, "exit", J_INT(EXIT_NODEV));
		}
		cli_json_print(j);
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
