// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku: list KohakuAccel cards, show their capabilities and node tables,
 * load the POOL firmware, show the DXA units' slots, and run the saxpy
 * example, the mat, vec and DXA demos or a firmware kernel.
 * Usage: kohaku --help.
 *
 * This file: the arguments, the usage text, dispatching to the commands
 * (cmd_*.c), and opening the device the arguments name.
 *
 * Exit codes: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or
 * backend, 4 the device did not answer as expected (timeout, fault).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: %s [--backend sim|kernel] [--device DEV] [--map NAME|PATH] [--json]\n"
"              COMMAND [ARGS]\n"
"\n"
"commands:\n"
"  list              kohaku devices: the nodes under /dev/accel (each with why\n"
"                    it is or is not usable) and the PCI functions 10ee:903f,\n"
"                    bound or not ($KOHAKU_PCI_MATCH adds ids), or the\n"
"                    simulated cards\n"
"  info              capabilities, meshes and memory of the device\n"
"  nodes [--live]    the enumerated node table (--live re-reads status and\n"
"                    counters)\n"
"  run saxpy [--n N] [--a A] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    y = a*x + y on every SX unit (or the named ones), each\n"
"                    on its own vectors, checked bit-exact against the\n"
"                    unit's arithmetic (saxpy_cu's integer datapath)\n"
"  run mat-demo [--node [M:]X,Y ...] [--timeout MS]\n"
"                    one GEMM block (8x64 by 64x8, FP16) on every mat unit\n"
"                    (or the named ones): FILL, GEMM, DRAIN, checked\n"
"                    bit-exact against libkohaku's host reference\n"
"  run vec-demo [--node [M:]X,Y ...] [--timeout MS]\n"
"                    on every vec unit (or the named ones): x + y and\n"
"                    x*y + (x + y) over 128 FP16 elements by a kernel loaded\n"
"                    with IMEM/DESC/RUN, checked bit-exact on the host\n"
"  run dxa-copy [--node [M:]X,Y ...] [--timeout MS]\n"
"                    on every DXA unit (or the named ones): one tile of a\n"
"                    matrix, past its edges (filled), multicast to two\n"
"                    scratch units, copied out and checked against a C loop\n"
"  run cpu-demo [--n N] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    on every cpu unit (rv_pe, or the named ones): an RV32I\n"
"                    program loaded as the job's data computes the prefix\n"
"                    sums and a checksum of N 32-bit words (default 1024),\n"
"                    checked against C; instructions and cycles from CU_DBG\n"
"  run KERNEL [--n N] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    a POOL firmware kernel on every POOL unit (or the named\n"
"                    ones), checked against the host: ping, copy, fill,\n"
"                    crc32, hist (N bytes), vadd (N int32), sum (N int64);\n"
"                    N defaults to 65536\n"
"  dxa [--node [M:]X,Y ...]\n"
"                    every DXA unit's 16 descriptor slots: the driver's state\n"
"                    and the 64 bytes the unit holds, decoded\n"
"  fw info           the POOL units' firmware: state, version, boot time\n"
"  fw load FILE [--mailbox]\n"
"                    boot a firmware image on every POOL unit (--mailbox:\n"
"                    through CU_DATA bursts, not LOAD from device memory)\n"
"  help              this text\n"
"\n"
"options:\n"
"  --backend B       kernel (a kohaku device node) or sim (the device model in\n"
"                    this process); default: $KOHAKU_BACKEND, else kernel\n"
"  --device DEV      kernel: /dev/accel/accelN or N; sim: as --map;\n"
"                    default: $KOHAKU_DEVICE\n"
"  --map NAME|PATH   sim card description: a built-in name (saxpy,\n"
"                    sx_null_2x2, pool, ...: `kohaku list --backend sim`) or\n"
"                    a description file; implies --backend sim\n"
"  --json            machine-readable output\n"
"\n"
"exit status: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or\n"
"backend, 4 the device did not answer as expected (timeout, fault)\n",
		CLI_PROG);
}

void cli_die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", CLI_PROG);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see %s --help)\n", CLI_PROG);
	exit(EXIT_USAGE);
}

/* ---- arguments ---- */

static const char *need_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		cli_die_usage("%s needs a value", argv[*i]);
	return argv[++*i];
}

static unsigned long parse_ulong(const char *opt, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-')
		cli_die_usage("%s: '%s' is not a non-negative integer", opt, s);
	return v;
}

static void parse_backend(struct kohaku_cli_opts *o, const char *s)
{
	if (kohaku_backend_parse(s, &o->backend) < 0)
		cli_die_usage("--backend '%s': use sim or kernel", s);
}

static void parse_node(struct kohaku_cli_opts *o, const char *s)
{
	int mesh = 0, x, y, k;
	char tail;

	if (o->n_sel >= MAX_SEL)
		cli_die_usage("--node: at most %d nodes", MAX_SEL);
	if (strchr(s, ':'))
		k = sscanf(s, "%d:%d,%d%c", &mesh, &x, &y, &tail) == 3;
	else
		k = sscanf(s, "%d,%d%c", &x, &y, &tail) == 2;
	if (!k || mesh < 0 || mesh > 3 || x < 0 || x > 15 || y < 0 || y > 15)
		cli_die_usage("--node: '%s' is not a node coordinate X,Y or "
			      "M:X,Y", s);
	o->sel[o->n_sel].mesh = mesh;
	o->sel[o->n_sel].x = x;
	o->sel[o->n_sel].y = y;
	o->n_sel++;
}

/* ---- the device the arguments name ---- */

int cli_open_dev(const struct kohaku_cli_opts *o, kohaku_device **dev)
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
		fprintf(stderr, "%s: cannot open a device: %s\n", CLI_PROG,
			err);
		return r == -EPROTO ? EXIT_USAGE : EXIT_NODEV;
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
	r = kohaku_nodes_alloc(*dev, flags, nd, n);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", CLI_PROG, kohaku_last_error(*dev));
		kohaku_close(*dev);
		return EXIT_DEVICE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct kohaku_cli_opts o;
	const char *pos[4];
	int n_pos = 0, i;

	memset(&o, 0, sizeof(o));
	o.n = 1000;
	o.a = 1.7f;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--backend")) {
			parse_backend(&o, need_arg(argc, argv, &i));
		} else if (!strncmp(a, "--backend=", 10)) {
			parse_backend(&o, a + 10);
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
			o.n_given = true;
		} else if (!strcmp(a, "--a")) {
			const char *v = need_arg(argc, argv, &i);
			char *end;

			o.a = strtof(v, &end);
			if (end == v || *end)
				cli_die_usage("--a: '%s' is not a number", v);
		} else if (!strcmp(a, "--mailbox")) {
			o.mailbox = true;
		} else if (!strcmp(a, "--node")) {
			parse_node(&o, need_arg(argc, argv, &i));
		} else if (!strcmp(a, "--timeout")) {
			unsigned long t = parse_ulong("--timeout",
						      need_arg(argc, argv, &i));

			if (t > 0xffffffffUL)
				cli_die_usage("--timeout: too large");
			o.timeout_ms = (unsigned int)t;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else if (a[0] == '-' && a[1]) {
			cli_die_usage("unknown option '%s'", a);
		} else {
			if (n_pos >= 4)
				cli_die_usage("too many arguments");
			pos[n_pos++] = a;
		}
	}
	if (o.map && o.backend == KOHAKU_BACKEND_KERNEL)
		cli_die_usage("--map describes a simulated card; it cannot be "
			      "used with --backend kernel");
	if (o.map && o.device)
		cli_die_usage("--map and --device both name the simulated "
			      "card; give one");
	if (!n_pos) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(pos[0], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(pos[0], "list") && n_pos == 1)
		return cli_cmd_list(&o);
	if (!strcmp(pos[0], "info") && n_pos == 1)
		return cli_cmd_info(&o);
	if (!strcmp(pos[0], "nodes") && n_pos == 1)
		return cli_cmd_nodes(&o);
	if (!strcmp(pos[0], "run") && n_pos == 2 && !strcmp(pos[1], "mat-demo"))
		return cli_cmd_run_mat(&o);
	if (!strcmp(pos[0], "run") && n_pos == 2 && !strcmp(pos[1], "vec-demo"))
		return cli_cmd_run_vec(&o);
	if (!strcmp(pos[0], "run") && n_pos == 2 && !strcmp(pos[1], "dxa-copy"))
		return cli_cmd_run_dxa(&o);
	if (!strcmp(pos[0], "dxa") && n_pos == 1)
		return cli_cmd_dxa(&o);
	if (!strcmp(pos[0], "run") && n_pos == 2 && !strcmp(pos[1], "cpu-demo"))
		return cli_cmd_run_cpu(&o);
	if (!strcmp(pos[0], "run") && n_pos == 2 && cli_is_pool_kernel(pos[1]))
		return cli_cmd_run_pool(&o, pos[1]);
	if (!strcmp(pos[0], "run") && n_pos <= 2)
		return cli_cmd_run(&o, n_pos > 1 ? pos[1] : NULL);
	if (!strcmp(pos[0], "fw") && n_pos <= 3)
		return cli_cmd_fw(&o, n_pos > 1 ? pos[1] : NULL,
				  n_pos > 2 ? pos[2] : NULL);
	cli_die_usage("unknown command '%s'", pos[0]);
}
