// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku: list KohakuAccel cards, show their capabilities and node tables,
 * and run the saxpy example.  Usage: kohaku --help.
 *
 * Exit codes: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or
 * backend, 4 the device did not answer as expected (timeout, fault).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kohaku.h"
#include "kohaku/kh_units.h"

#define EXIT_OK		0
#define EXIT_WRONG	1
#define EXIT_USAGE	2
#define EXIT_NODEV	3
#define EXIT_DEVICE	4

#define MAX_SEL		64

static const char *prog = "kohaku";

struct opts {
	enum kohaku_backend backend;
	const char *device;
	const char *map;
	bool json;
	bool live;
	/* run saxpy */
	unsigned long n;
	float a;
	unsigned int timeout_ms;
	unsigned int n_sel;
	struct { int mesh, x, y; } sel[MAX_SEL];
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s [--backend sim|kernel] [--device DEV] [--map NAME|PATH] [--json]\n"
"              COMMAND [ARGS]\n"
"\n"
"commands:\n"
"  list              kohaku devices: the nodes under /dev/accel (each with why\n"
"                    it is or is not usable), or the simulated cards\n"
"  info              capabilities, meshes and memory of the device\n"
"  nodes [--live]    the enumerated node table (--live re-reads status and\n"
"                    counters)\n"
"  run saxpy [--n N] [--a A] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    y = a*x + y on every SX unit (or the named ones), each\n"
"                    on its own vectors, checked bit-exact against fmaf\n"
"  help              this text\n"
"\n"
"options:\n"
"  --backend B       kernel (a kohaku device node) or sim (the device model in\n"
"                    this process); default: $KOHAKU_BACKEND, else kernel\n"
"  --device DEV      kernel: /dev/accel/accelN or N; sim: as --map;\n"
"                    default: $KOHAKU_DEVICE\n"
"  --map NAME|PATH   sim card description: a built-in name (saxpy,\n"
"                    sx_null_2x2) or a description file; implies --backend sim\n"
"  --json            machine-readable output\n"
"\n"
"exit status: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or\n"
"backend, 4 the device did not answer as expected (timeout, fault)\n",
		prog);
}

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see %s --help)\n", prog);
	exit(EXIT_USAGE);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void json_str(const char *s)
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

static int open_dev(const struct opts *o, kohaku_device **dev)
{
	char err[KOHAKU_ERRMSG_MAX];
	enum kohaku_backend b = o->backend;
	const char *d = o->device;
	int r;

	if (o->map) {
		d = o->map;
		b = KOHAKU_BACKEND_SIM;
	}
	r = kohaku_open(b, d, dev, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "%s: cannot open a device: %s\n", prog, err);
		return r == -EPROTO ? EXIT_USAGE : EXIT_NODEV;
	}
	return 0;
}

/* ---- list ---- */

static int cmd_list(const struct opts *o)
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
				"use kernel or sim\n", prog, e);
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
			fprintf(stderr, "%s: listing devices failed: %s\n", prog,
				err);
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
			json_str(l[i].path);
			printf(", \"index\": %d, \"usable\": %s, \"driver\": ",
			       l[i].index, l[i].status ? "false" : "true");
			json_str(l[i].driver);
			printf(", \"name\": ");
			json_str(l[i].name);
			printf(", \"meshes\": %u, \"nodes\": %u, \"error\": ",
			       l[i].n_meshes, l[i].n_nodes);
			json_str(l[i].message);
			printf("}");
		}
		printf("], \"usable\": %u, \"note\": ", usable);
		json_str(err);
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
			fprintf(stderr, "%s: %s\n", prog,
				err[0] ? err : "no usable kohaku device");
	}
	if (!single)
		kohaku_free_device_list(l);
	return usable ? EXIT_OK : EXIT_NODEV;
}

/* ---- info ---- */

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

static int cmd_info(const struct opts *o)
{
	struct drm_kohaku_get_info in;
	kohaku_device *dev;
	unsigned int m;
	int r;

	r = open_dev(o, &dev);
	if (r)
		return r;
	kohaku_get_info(dev, &in);
	if (o->json) {
		printf("{\"path\": ");
		json_str(kohaku_device_path(dev));
		printf(", \"backend\": \"%s\", \"name\": ",
		       kohaku_backend_name(kohaku_device_backend(dev)));
		json_str(in.name);
		printf(", \"abi_version\": \"%u.%u\", \"caps\": %llu, "
		       "\"simulated\": %s, \"dma\": %s, \"irq\": %s, "
		       "\"n_meshes\": %u, \"n_nodes\": %u, \"meshes\": [",
		       KOHAKU_ABI_VERSION_MAJOR(in.abi_version),
		       in.abi_version & 0xffff, (unsigned long long)in.caps,
		       in.caps & KOHAKU_CAP_SIMULATED ? "true" : "false",
		       in.caps & KOHAKU_CAP_DMA ? "true" : "false",
		       in.caps & KOHAKU_CAP_IRQ ? "true" : "false",
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
		printf("caps        0x%llx%s%s%s\n", (unsigned long long)in.caps,
		       in.caps & KOHAKU_CAP_SIMULATED ? " simulated" : "",
		       in.caps & KOHAKU_CAP_DMA ? " dma" : "",
		       in.caps & KOHAKU_CAP_IRQ ? " irq" : " polling");
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

/* ---- nodes ---- */

static void type_str(uint16_t t, char *buf, size_t len)
{
	char n[16];

	kohaku_cu_type_name(t, n, sizeof(n));
	if (t == KH_CU_NULL || n[0] == '0')
		snprintf(buf, len, "0x%04x %s", t, n);
	else
		snprintf(buf, len, "0x%04x '%s'", t, n);
}

static void print_nodes(const struct opts *o, const struct drm_kohaku_node *nd,
			unsigned int n, bool trailing_comma)
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
			json_str(tn);
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

static int cmd_nodes(const struct opts *o)
{
	struct drm_kohaku_node *nd;
	kohaku_device *dev;
	unsigned int n;
	int r;

	r = open_dev(o, &dev);
	if (r)
		return r;
	r = kohaku_nodes_alloc(dev, o->live ? KOHAKU_NODES_LIVE : 0, &nd, &n);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", prog, kohaku_last_error(dev));
		kohaku_close(dev);
		return EXIT_DEVICE;
	}
	if (o->json) {
		printf("{\"path\": ");
		json_str(kohaku_device_path(dev));
		printf(", ");
		print_nodes(o, nd, n, false);
		printf("}\n");
	} else {
		printf("%s: %u node%s%s\n", kohaku_device_path(dev), n,
		       n == 1 ? "" : "s", o->live ? " (live)" : "");
		print_nodes(o, nd, n, false);
	}
	free(nd);
	kohaku_close(dev);
	return EXIT_OK;
}

/* ---- run saxpy ---- */

struct unit_run {
	const struct drm_kohaku_node *node;
	uint32_t hx, hy;
	uint64_t ax, ay;
	uint64_t job;
	bool submitted;
	double t0, t1;
	struct kohaku_job_status st;
	int wait_r;
	unsigned long bad;
	unsigned long first_bad;
	bool guard_ok;
	int exit;
	char why[KOHAKU_ERRMSG_MAX];
};

#define GUARD_BYTES	64
#define GUARD_BYTE	0xa5

static float x_val(unsigned long i, unsigned int u)
{
	return (float)((long)(i % 97) - 48) * 0.3f + (float)i * 1e-3f +
	       (float)u * 0.125f;
}

static float y_val(unsigned long i, unsigned int u)
{
	return (float)(i % 13) * 0.77f - 3.1f + (float)u;
}

static uint32_t fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

static uint32_t expect_bits(float a, float x, float y)
{
	float r = fmaf(a, x, y);

	return isnan(r) ? 0x7fc00000u : fbits(r);
}

static int run_setup(kohaku_device *dev, const struct opts *o,
		     struct unit_run *u, unsigned int ui, float *hx,
		     unsigned char *hyb)
{
	size_t vbytes = o->n * sizeof(float);
	unsigned long i;
	float *hy = (float *)hyb;
	struct kohaku_inst inst;
	struct kohaku_program p;
	int r;

	r = kohaku_bo_create(dev, u->node->mesh, vbytes ? vbytes : 4, &u->hx,
			     &u->ax);
	if (r == 0)
		r = kohaku_bo_create(dev, u->node->mesh, vbytes + GUARD_BYTES,
				     &u->hy, &u->ay);
	if (r < 0)
		goto fail;
	for (i = 0; i < o->n; i++) {
		hx[i] = x_val(i, ui);
		hy[i] = y_val(i, ui);
	}
	memset(hyb + vbytes, GUARD_BYTE, GUARD_BYTES);
	if (vbytes)
		r = kohaku_bo_write(dev, u->hx, 0, hx, vbytes);
	if (r == 0)
		r = kohaku_bo_write(dev, u->hy, 0, hyb, vbytes + GUARD_BYTES);
	if (r < 0)
		goto fail;
	r = kohaku_inst_saxpy(&inst, (uint32_t)o->n, o->a, u->ax, u->ay);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "cannot encode saxpy n=%lu",
			 o->n);
		u->exit = EXIT_USAGE;
		return r;
	}
	memset(&p, 0, sizeof(p));
	p.mesh = u->node->mesh;
	p.x = u->node->x;
	p.y = u->node->y;
	p.txn = (uint8_t)ui;
	p.n_insts = 1;
	p.insts = &inst;
	u->t0 = now_s();
	r = kohaku_submit(dev, &p, 1, o->timeout_ms, &u->job);
	if (r < 0)
		goto fail;
	u->submitted = true;
	return 0;
fail:
	snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
	u->exit = r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
	return r;
}

static void run_finish(kohaku_device *dev, const struct opts *o,
		       struct unit_run *u, unsigned int ui, unsigned char *hyb)
{
	uint32_t limit = o->timeout_ms ? o->timeout_ms :
			 KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	size_t vbytes = o->n * sizeof(float);
	const uint32_t *got = (const uint32_t *)hyb;
	unsigned long i;
	int tries, r;

	for (tries = 0; tries < 4; tries++) {
		r = kohaku_wait(dev, u->job, limit + 1000, &u->st);
		if (r != -ETIMEDOUT)
			break;
	}
	u->t1 = now_s();
	u->wait_r = r;
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
		return;
	}
	if (u->st.status != KOHAKU_JOB_DONE) {
		kohaku_job_describe(&u->st, u->why, sizeof(u->why));
		u->exit = EXIT_DEVICE;
		return;
	}
	memset(hyb, 0, vbytes + GUARD_BYTES);
	r = kohaku_bo_read(dev, u->hy, 0, hyb, vbytes + GUARD_BYTES);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
		return;
	}
	for (i = 0; i < o->n; i++) {
		uint32_t want = expect_bits(o->a, x_val(i, ui), y_val(i, ui));

		if (got[i] != want) {
			if (!u->bad)
				u->first_bad = i;
			u->bad++;
		}
	}
	u->guard_ok = true;
	for (i = 0; i < GUARD_BYTES; i++)
		if (hyb[vbytes + i] != GUARD_BYTE)
			u->guard_ok = false;
	if (u->bad) {
		i = u->first_bad;
		snprintf(u->why, sizeof(u->why),
			 "%lu of %lu elements differ from fmaf; first y[%lu] = "
			 "0x%08x, expected 0x%08x (%a * %a + %a)", u->bad, o->n,
			 i, got[i], expect_bits(o->a, x_val(i, ui), y_val(i, ui)),
			 (double)o->a, (double)x_val(i, ui),
			 (double)y_val(i, ui));
		u->exit = EXIT_WRONG;
	} else if (!u->guard_ok) {
		snprintf(u->why, sizeof(u->why),
			 "memory just past y[%lu] was changed", o->n - 1);
		u->exit = EXIT_WRONG;
	}
}

static int cmd_run(const struct opts *o, const char *what)
{
	struct drm_kohaku_node *nd = NULL;
	struct unit_run *runs = NULL;
	unsigned int n_nodes = 0, n_runs = 0, i, j;
	kohaku_device *dev;
	float *hx = NULL;
	unsigned char *hyb = NULL;
	int r, ret = EXIT_OK;

	if (!what)
		die_usage("run: which example? (run saxpy)");
	if (strcmp(what, "saxpy"))
		die_usage("run: unknown example '%s' (run saxpy)", what);
	if (o->n > KH_SX_N_MAX)
		die_usage("run saxpy: --n %lu is more than the SX unit's %u "
			  "elements", o->n, KH_SX_N_MAX);

	r = open_dev(o, &dev);
	if (r)
		return r;
	r = kohaku_nodes_alloc(dev, 0, &nd, &n_nodes);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", prog, kohaku_last_error(dev));
		kohaku_close(dev);
		return EXIT_DEVICE;
	}
	runs = calloc(n_nodes ? n_nodes : 1, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_DEVICE;
		goto out;
	}
	/* the units: every SX unit, or the named ones */
	if (!o->n_sel) {
		for (i = 0; i < n_nodes; i++)
			if (nd[i].cu_type == KH_CU_SX)
				runs[n_runs++].node = &nd[i];
	} else {
		for (j = 0; j < o->n_sel; j++) {
			const struct drm_kohaku_node *hit = NULL;

			for (i = 0; i < n_nodes; i++)
				if (nd[i].x == o->sel[j].x && nd[i].y == o->sel[j].y &&
				    nd[i].mesh == o->sel[j].mesh)
					hit = &nd[i];
			if (!hit || hit->cu_type != KH_CU_SX) {
				char tn[16];

				fprintf(stderr, "%s: run saxpy: mesh %d (%d,%d) is %s\n",
					prog, o->sel[j].mesh, o->sel[j].x,
					o->sel[j].y, hit ? "not an SX unit" :
					"not an enumerated node");
				if (hit)
					fprintf(stderr, "  (it is a %s unit)\n",
						kohaku_cu_type_name(hit->cu_type,
								    tn, sizeof(tn)));
				fprintf(stderr, "  SX units:");
				for (i = 0; i < n_nodes; i++)
					if (nd[i].cu_type == KH_CU_SX)
						fprintf(stderr, " %u:%u,%u",
							nd[i].mesh, nd[i].x, nd[i].y);
				fprintf(stderr, "\n");
				ret = EXIT_USAGE;
				goto out;
			}
			for (i = 0; i < n_runs; i++)
				if (runs[i].node == hit)
					break;
			if (i == n_runs && n_runs < n_nodes)
				runs[n_runs++].node = hit;
		}
	}

	if (o->json) {
		printf("{\"path\": ");
		json_str(kohaku_device_path(dev));
		printf(", ");
		print_nodes(o, nd, n_nodes, true);
	} else {
		printf("%s: %u node%s\n", kohaku_device_path(dev), n_nodes,
		       n_nodes == 1 ? "" : "s");
		print_nodes(o, nd, n_nodes, false);
		printf("\nsaxpy: y = a*x + y, n = %lu, a = %g, on %u SX unit%s\n",
		       o->n, (double)o->a, n_runs, n_runs == 1 ? "" : "s");
	}
	if (!n_runs) {
		if (o->json)
			printf("\"units\": [], \"error\": \"no SX unit on this "
			       "device\", \"ok\": false}\n");
		fprintf(stderr, "%s: run saxpy: this device has no SX unit "
			"(cu_type 0x%04x); try --map saxpy\n", prog, KH_CU_SX);
		ret = EXIT_USAGE;
		goto out;
	}
	hx = malloc(o->n * sizeof(float) + 4);
	hyb = malloc(o->n * sizeof(float) + GUARD_BYTES);
	if (!hx || !hyb) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_DEVICE;
		goto out;
	}
	/* submit everything first, so the units run side by side */
	for (i = 0; i < n_runs; i++)
		run_setup(dev, o, &runs[i], i, hx, hyb);
	for (i = 0; i < n_runs; i++)
		if (runs[i].submitted)
			run_finish(dev, o, &runs[i], i, hyb);

	if (o->json)
		printf("\"n\": %lu, \"a\": %.9g, \"units\": [", o->n, (double)o->a);
	for (i = 0; i < n_runs; i++) {
		struct unit_run *u = &runs[i];
		const struct drm_kohaku_node *q = u->node;
		double wall_ms = u->submitted ? (u->t1 - u->t0) * 1e3 : 0;
		double dev_us = u->st.device_ns / 1e3;

		if (u->exit > ret || (ret == EXIT_OK && u->exit))
			ret = u->exit;
		if (o->json) {
			printf("%s{\"mesh\": %u, \"x\": %u, \"y\": %u, \"ok\": %s, "
			       "\"status\": \"%s\", \"mismatches\": %lu, "
			       "\"tail_untouched\": %s, \"wall_ms\": %.3f, "
			       "\"device_ns\": %llu, \"error\": ",
			       i ? ", " : "", q->mesh, q->x, q->y,
			       u->exit ? "false" : "true",
			       u->submitted ? kohaku_job_status_name(u->st.status) :
			       "NOT_SUBMITTED", u->bad,
			       u->guard_ok ? "true" : "false", wall_ms,
			       (unsigned long long)u->st.device_ns);
			json_str(u->why);
			printf("}");
			continue;
		}
		if (!u->exit)
			printf("SX mesh %u (%u,%u): ok, %lu/%lu elements match fmaf "
			       "bit-exact, memory past y[n-1] untouched; wall %.3f "
			       "ms, device %.3f us\n", q->mesh, q->x, q->y, o->n,
			       o->n, wall_ms, dev_us);
		else if (u->submitted)
			printf("SX mesh %u (%u,%u): FAILED: %s; wall %.3f ms, device "
			       "%.3f us\n", q->mesh, q->x, q->y, u->why, wall_ms,
			       dev_us);
		else
			printf("SX mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x,
			       q->y, u->why);
	}
	if (o->json)
		printf("], \"ok\": %s}\n", ret ? "false" : "true");
	else
		printf("saxpy: %s\n", ret == EXIT_OK ? "PASS (every element matches)" :
		       ret == EXIT_WRONG ? "FAIL (wrong answer)" :
		       "FAIL (the device did not run it as expected)");
	for (i = 0; i < n_runs; i++) {
		if (runs[i].hx)
			kohaku_bo_free(dev, runs[i].hx);
		if (runs[i].hy)
			kohaku_bo_free(dev, runs[i].hy);
	}
out:
	free(hx);
	free(hyb);
	free(runs);
	free(nd);
	kohaku_close(dev);
	return ret;
}

/* ---- argument parsing ---- */

static const char *need_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		die_usage("%s needs a value", argv[*i]);
	return argv[++*i];
}

static unsigned long parse_ulong(const char *opt, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-')
		die_usage("%s: '%s' is not a non-negative integer", opt, s);
	return v;
}

static void parse_node(struct opts *o, const char *s)
{
	int mesh = 0, x, y, k;
	char tail;

	if (o->n_sel >= MAX_SEL)
		die_usage("--node: at most %d nodes", MAX_SEL);
	if (strchr(s, ':'))
		k = sscanf(s, "%d:%d,%d%c", &mesh, &x, &y, &tail) == 3;
	else
		k = sscanf(s, "%d,%d%c", &x, &y, &tail) == 2;
	if (!k || mesh < 0 || mesh > 3 || x < 0 || x > 15 || y < 0 || y > 15)
		die_usage("--node: '%s' is not a node coordinate X,Y or M:X,Y", s);
	o->sel[o->n_sel].mesh = mesh;
	o->sel[o->n_sel].x = x;
	o->sel[o->n_sel].y = y;
	o->n_sel++;
}

int main(int argc, char **argv)
{
	struct opts o;
	const char *pos[4];
	int n_pos = 0, i;

	memset(&o, 0, sizeof(o));
	o.n = 1000;
	o.a = 1.7f;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--backend")) {
			const char *v = need_arg(argc, argv, &i);

			if (kohaku_backend_parse(v, &o.backend) < 0)
				die_usage("--backend '%s': use sim or kernel", v);
		} else if (!strncmp(a, "--backend=", 10)) {
			if (kohaku_backend_parse(a + 10, &o.backend) < 0)
				die_usage("--backend '%s': use sim or kernel", a + 10);
		} else if (!strcmp(a, "--device")) {
			o.device = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--map")) {
			o.map = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--json")) {
			o.json = true;
		} else if (!strcmp(a, "--live")) {
			o.live = true;
		} else if (!strcmp(a, "--n")) {
			o.n = parse_ulong("--n", need_arg(argc, argv, &i));
		} else if (!strcmp(a, "--a")) {
			const char *v = need_arg(argc, argv, &i);
			char *end;

			o.a = strtof(v, &end);
			if (end == v || *end)
				die_usage("--a: '%s' is not a number", v);
		} else if (!strcmp(a, "--node")) {
			parse_node(&o, need_arg(argc, argv, &i));
		} else if (!strcmp(a, "--timeout")) {
			unsigned long t = parse_ulong("--timeout",
						      need_arg(argc, argv, &i));

			if (t > 0xffffffffUL)
				die_usage("--timeout: too large");
			o.timeout_ms = (unsigned int)t;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (a[0] == '-' && a[1]) {
			die_usage("unknown option '%s'", a);
		} else {
			if (n_pos >= 4)
				die_usage("too many arguments");
			pos[n_pos++] = a;
		}
	}
	if (o.map && o.backend == KOHAKU_BACKEND_KERNEL)
		die_usage("--map describes a simulated card; it cannot be used "
			  "with --backend kernel");
	if (o.map && o.device)
		die_usage("--map and --device both name the simulated card; "
			  "give one");
	if (!n_pos) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(pos[0], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(pos[0], "list") && n_pos == 1)
		return cmd_list(&o);
	if (!strcmp(pos[0], "info") && n_pos == 1)
		return cmd_info(&o);
	if (!strcmp(pos[0], "nodes") && n_pos == 1)
		return cmd_nodes(&o);
	if (!strcmp(pos[0], "run") && n_pos <= 2)
		return cmd_run(&o, n_pos > 1 ? pos[1] : NULL);
	die_usage("unknown command '%s'", pos[0]);
}
