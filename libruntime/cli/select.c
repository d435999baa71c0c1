// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a command runs on: the device the options name (--backend,
 * --device, --map), with its node table, and the units: every unit of one
 * type, or the ones --node names (each checked to be of that type, with
 * the right ones listed when it is not).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/*
 * --map's backend: kohakud's card when --backend or KOHAKU_BACKEND says
 * daemon, else the simulated card in this process
 */
enum kohaku_backend cli_map_backend(const struct kohaku_cli_opts *o)
{
	enum kohaku_backend b = o->backend;
	const char *e = getenv("KOHAKU_BACKEND");

	if (b == KOHAKU_BACKEND_ENV && e && !strcmp(e, "daemon"))
		b = KOHAKU_BACKEND_DAEMON;
	return b == KOHAKU_BACKEND_DAEMON ? b : KOHAKU_BACKEND_SIM;
}

const char *cli_file_kind(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	}
	return "not a regular file";
}

/*
 * KOHAKU_FIRMWARE (the sim backend's POOL image, read at open): a FIFO
 * there would block the open forever (nothing writes it), a directory or
 * a device is no image.  Only a regular file is taken; anything else is
 * refused before the open, by stat (which never blocks), naming what it
 * is.  Not for --backend kernel (kohaku.ko's firmware is the kernel's).
 */
static int cli_check_fw_env(enum kohaku_backend b)
{
	const char *file = getenv("KOHAKU_FIRMWARE");
	const char *env = getenv("KOHAKU_BACKEND");
	struct stat st;

	if (b == KOHAKU_BACKEND_KERNEL ||
	    (b == KOHAKU_BACKEND_ENV && env && !strcmp(env, "kernel")))
		return 0;
	if (!file || !*file || !strcmp(file, "none") || stat(file, &st) ||
	    S_ISREG(st.st_mode))
		return 0;
	cli_error("KOHAKU_FIRMWARE=%s is %s, not a regular file: the POOL "
		  "firmware image is read from a regular file only (e.g. "
		  "build/firmware/pool.fw after `make firmware`; "
		  "KOHAKU_FIRMWARE=none loads none)", file,
		  cli_file_kind(st.st_mode));
	return EXIT_USAGE;
}

int cli_open_dev(const struct kohaku_cli_opts *o, kohaku_device **dev)
{
	char err[KOHAKU_ERRMSG_MAX];
	enum kohaku_backend b = o->backend;
	const char *d = o->device;
	int r;

	if (o->map) {
		d = o->map;
		b = cli_map_backend(o);
	}
	r = cli_check_fw_env(b);
	if (r)
		return r;
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
	r = kohaku_nodes_alloc(*dev, flags, nd, sizeof(**nd), n);
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

int cli_check_mesh(const struct kohaku_cli_opts *o,
		   const struct drm_kohaku_get_info *in)
{
	char have[64] = "";
	size_t len = 0;
	unsigned int m;

	if (!(o->given & CLI_TAKES_MESH))
		return -1;
	if (o->mesh < KOHAKU_MAX_MESHES &&
	    (in->mesh[o->mesh].flags & KOHAKU_MESH_PRESENT))
		return (int)o->mesh;
	for (m = 0; m < KOHAKU_MAX_MESHES; m++)
		if (in->mesh[m].flags & KOHAKU_MESH_PRESENT)
			len += (size_t)snprintf(have + len, sizeof(have) - len,
						"%s%u", len ? ", " : "", m);
	cli_die_usage("--mesh: mesh %u is not present on this device (%s: %s)",
		      o->mesh, len ? "its meshes" : "it has no mesh",
		      len ? have : "none");
}
