// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku: list KohakuAccel cards, show their capabilities and node tables,
 * load the POOL firmware, show the DXA units' slots, run the saxpy
 * example, the mat, vec and DXA demos or a firmware kernel, validate a
 * device, watch it (top), and use the device model's knobs (sim).
 * Usage: kohaku --help.
 *
 * This file: the usage text, dispatching to the commands (cmd_*.c) with
 * the check of what each takes, and opening the device the arguments name.
 * The arguments are parsed in args.c.
 *
 * Exit codes: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or
 * backend, 4 the device did not answer as expected (timeout, fault).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_usage(FILE *f)
{
	fprintf(f,
"usage: %s [--backend sim|kernel] [--device DEV] [--map NAME|PATH] [--json]\n"
"              [-o FILE] COMMAND [ARGS]\n"
"       %s [--backend B] [--device DEV] [--map M] [--json] --version\n"
"\n"
"commands:\n"
"  list              kohaku devices: the nodes under /dev/accel (each with why\n"
"                    it is or is not usable) and the PCI functions 10ee:903f,\n"
"                    bound or not ($KOHAKU_PCI_MATCH adds ids), or the\n"
"                    simulated cards\n"
"  info              capabilities, meshes and memory of the device\n"
"  examine           one report of the device: info, the node table, the\n"
"                    POOL firmware, the DXA units' slots (counts by state);\n"
"                    runs no job; --json: one object with \"schema\": 1\n"
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
"  validate          numbered checks, each PASS, FAIL or SKIP: open, ABI,\n"
"                    enumerate, BO pattern, BO bandwidth, saxpy on every SX\n"
"                    unit, null on every null unit, firmware (POOL units:\n"
"                    RUNNING and ping), the model's checker (a simulated\n"
"                    card); exit 0 only when no step fails\n"
"  top [--interval MS] [--count N] [--csv]\n"
"                    a live view every MS (default 1000): per node busy\n"
"                    cycles and instructions retired in the interval, hung\n"
"                    or not, jobs per second per mesh; --count N stops after\n"
"                    N samples; --csv: a header line, then a row per node\n"
"  sim trace|stats|knobs|check\n"
"                    the device model's event trace, counters, active knobs,\n"
"                    protocol checker report (exit 1 on violations)\n"
"  sim inject SPEC   set a fault-injection knob (docs/spec/fault-injection.md)\n"
"                    sim commands refuse a device that is not simulated\n"
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
"  --json            machine-readable output: one JSON object; a failure\n"
"                    prints {\"error\": ..., \"exit\": N, \"command\": ...}\n"
"  -o, --output=FILE write what the command prints on stdout to FILE\n"
"  --version         the tool's and libkohaku's versions, the ABI it was\n"
"                    built with, and the device's (when one opens): driver\n"
"                    name, version and date, firmware on POOL units\n"
"  -h, --help        this text\n"
"\n"
"Options go before or after the command, as --opt VALUE or --opt=VALUE;\n"
"-- ends them.  A command refuses an option it does not take and any\n"
"argument past its own.  Numbers (--n, --timeout, --interval, --count) are\n"
"decimal or 0x hex;\n"
"a leading 0 is still decimal (--n 010 is ten).  --a is a finite number\n"
"(no NaN or infinity).\n"
"\n"
"exit status: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or\n"
"backend, 4 the device did not answer as expected (timeout, fault)\n",
		CLI_PROG, CLI_PROG);
}

void cli_die_usage(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error("%s (see %s --help)", msg, CLI_PROG);
	exit(cli_json_error_exit(EXIT_USAGE));
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
	r = kohaku_nodes_alloc(*dev, flags, nd, n);
	if (r < 0) {
		cli_error("%s", kohaku_last_error(*dev));
		kohaku_close(*dev);
		return EXIT_DEVICE;
	}
	return 0;
}

/* ---- dispatch ---- */

#define CLI_TAKES_RUN	(CLI_TAKES_N | CLI_TAKES_A | CLI_TAKES_NODE | \
			 CLI_TAKES_TIMEOUT)
#define CLI_TAKES_ALL	(CLI_TAKES_RUN | CLI_TAKES_LIVE | CLI_TAKES_MAILBOX | \
			 CLI_TAKES_INTERVAL | CLI_TAKES_COUNT | CLI_TAKES_CSV)

enum kohaku_cli_cmd_id {
	CLI_CMD_LIST, CLI_CMD_INFO, CLI_CMD_EXAMINE, CLI_CMD_NODES, CLI_CMD_DXA, CLI_CMD_HELP,
	CLI_CMD_RUN_SAXPY, CLI_CMD_RUN_MAT, CLI_CMD_RUN_VEC, CLI_CMD_RUN_DXA,
	CLI_CMD_RUN_CPU, CLI_CMD_RUN_POOL, CLI_CMD_RUN_OTHER,
	CLI_CMD_FW_INFO, CLI_CMD_FW_LOAD, CLI_CMD_FW_OTHER,
	CLI_CMD_VALIDATE, CLI_CMD_TOP, CLI_CMD_SIM_INJECT, CLI_CMD_SIM_READ,
	CLI_CMD_SIM_OTHER,
};

/*
 * A command: its first word, its second (NULL: any or none; "*" a POOL
 * kernel), the words it takes (max_pos, the command's own counted) and
 * its options.  The *_OTHER ones are what is left of a group: its
 * function names what is wrong (which example, which fw subcommand).
 */
struct kohaku_cli_cmd {
	const char *name, *sub;
	enum kohaku_cli_cmd_id id;
	unsigned int max_pos;
	unsigned int takes;
};

static const struct kohaku_cli_cmd cli_cmds[] = {
	{ "list", NULL, CLI_CMD_LIST, 1, 0 },
	{ "info", NULL, CLI_CMD_INFO, 1, 0 },
	{ "examine", NULL, CLI_CMD_EXAMINE, 1, 0 },
	{ "nodes", NULL, CLI_CMD_NODES, 1, CLI_TAKES_LIVE },
	{ "dxa", NULL, CLI_CMD_DXA, 1, CLI_TAKES_NODE },
	{ "help", NULL, CLI_CMD_HELP, 1, 0 },
	{ "run", "saxpy", CLI_CMD_RUN_SAXPY, 2, CLI_TAKES_RUN },
	{ "run", "mat-demo", CLI_CMD_RUN_MAT, 2,
	  CLI_TAKES_NODE | CLI_TAKES_TIMEOUT },
	{ "run", "vec-demo", CLI_CMD_RUN_VEC, 2,
	  CLI_TAKES_NODE | CLI_TAKES_TIMEOUT },
	{ "run", "dxa-copy", CLI_CMD_RUN_DXA, 2,
	  CLI_TAKES_NODE | CLI_TAKES_TIMEOUT },
	{ "run", "cpu-demo", CLI_CMD_RUN_CPU, 2,
	  CLI_TAKES_N | CLI_TAKES_NODE | CLI_TAKES_TIMEOUT },
	{ "run", "*", CLI_CMD_RUN_POOL, 2,
	  CLI_TAKES_N | CLI_TAKES_NODE | CLI_TAKES_TIMEOUT },
	{ "run", NULL, CLI_CMD_RUN_OTHER, ~0u, CLI_TAKES_ALL },
	{ "fw", "info", CLI_CMD_FW_INFO, 2, 0 },
	{ "fw", "load", CLI_CMD_FW_LOAD, 3, CLI_TAKES_MAILBOX },
	{ "fw", NULL, CLI_CMD_FW_OTHER, ~0u, CLI_TAKES_ALL },
	{ "validate", NULL, CLI_CMD_VALIDATE, 1, 0 },
	{ "top", NULL, CLI_CMD_TOP, 1,
	  CLI_TAKES_INTERVAL | CLI_TAKES_COUNT | CLI_TAKES_CSV },
	/* sim inject SPEC: the spec's words, any number of them */
	{ "sim", "inject", CLI_CMD_SIM_INJECT, ~0u, 0 },
	{ "sim", "trace", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", "stats", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", "knobs", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", "check", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", NULL, CLI_CMD_SIM_OTHER, ~0u, CLI_TAKES_ALL },
};

static bool cli_cmd_matches(const struct kohaku_cli_cmd *c,
			    const struct kohaku_cli_opts *o)
{
	const char *sub = o->n_pos > 1 ? o->pos[1] : NULL;

	if (strcmp(c->name, o->pos[0]))
		return false;
	if (!c->sub)
		return true;
	if (!sub)
		return false;
	if (!strcmp(c->sub, "*"))
		return cli_is_pool_kernel(sub);
	return !strcmp(c->sub, sub);
}

static const struct kohaku_cli_cmd *cli_find_cmd(const struct kohaku_cli_opts *o)
{
	size_t i;

	for (i = 0; i < sizeof(cli_cmds) / sizeof(cli_cmds[0]); i++)
		if (cli_cmd_matches(&cli_cmds[i], o))
			return &cli_cmds[i];
	cli_die_usage("unknown command '%s'", o->pos[0]);
}

/* refuse the words past the command's and the options it does not take */
static void cli_check_cmd(const struct kohaku_cli_cmd *c,
			  const struct kohaku_cli_opts *o)
{
	static char label[128];

	snprintf(label, sizeof(label), "%s%s%s", c->name, c->sub ? " " : "",
		 c->sub ? o->pos[1] : "");
	cli_json_errors(o->json, label);
	if (o->n_pos > c->max_pos)
		cli_die_usage("%s: unexpected argument '%s'", label,
			      o->pos[c->max_pos]);
	cli_check_takes(o, label, c->takes);
}

/* sim inject SPEC...: the words after inject as one spec */
static int cli_sim_inject_words(const struct kohaku_cli_opts *o)
{
	char spec[1024] = "";
	size_t len = 0;
	unsigned int i;

	for (i = 2; i < o->n_pos; i++) {
		int k = snprintf(spec + len, sizeof(spec) - len, "%s%s",
				 i > 2 ? " " : "", o->pos[i]);

		if (k < 0 || (size_t)k >= sizeof(spec) - len)
			cli_die_usage("sim inject: the spec is too long");
		len += (size_t)k;
	}
	return cli_cmd_sim(o, "inject", len ? spec : NULL);
}

static int cli_dispatch(const struct kohaku_cli_cmd *c,
			const struct kohaku_cli_opts *o)
{
	const char *arg1 = o->n_pos > 1 ? o->pos[1] : NULL;
	const char *arg2 = o->n_pos > 2 ? o->pos[2] : NULL;

	switch (c->id) {
	case CLI_CMD_LIST:
		return cli_cmd_list(o);
	case CLI_CMD_INFO:
		return cli_cmd_info(o);
	case CLI_CMD_EXAMINE:
		return cli_cmd_examine(o);
	case CLI_CMD_NODES:
		return cli_cmd_nodes(o);
	case CLI_CMD_DXA:
		return cli_cmd_dxa(o);
	case CLI_CMD_HELP:
		cli_usage(stdout);
		return EXIT_OK;
	case CLI_CMD_RUN_SAXPY:
	case CLI_CMD_RUN_OTHER:
		return cli_cmd_run(o, arg1);
	case CLI_CMD_RUN_MAT:
		return cli_cmd_run_mat(o);
	case CLI_CMD_RUN_VEC:
		return cli_cmd_run_vec(o);
	case CLI_CMD_RUN_DXA:
		return cli_cmd_run_dxa(o);
	case CLI_CMD_RUN_CPU:
		return cli_cmd_run_cpu(o);
	case CLI_CMD_RUN_POOL:
		return cli_cmd_run_pool(o, arg1);
	case CLI_CMD_FW_INFO:
	case CLI_CMD_FW_LOAD:
	case CLI_CMD_FW_OTHER:
		return cli_cmd_fw(o, arg1, arg2);
	case CLI_CMD_VALIDATE:
		return cli_cmd_validate(o);
	case CLI_CMD_TOP:
		return cli_cmd_top(o);
	case CLI_CMD_SIM_INJECT:
		return cli_sim_inject_words(o);
	case CLI_CMD_SIM_READ:
	case CLI_CMD_SIM_OTHER:
		return cli_cmd_sim(o, arg1, arg2);
	}
	return EXIT_USAGE;
}

/*
 * -o FILE: stdout becomes FILE (created or truncated); one that cannot be
 * opened is refused (exit 2) naming it.
 */
static void cli_open_output(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		cli_die_usage("-o/--output: cannot open '%s': %s", path,
			      strerror(errno));
	fflush(stdout);
	if (dup2(fileno(f), STDOUT_FILENO) < 0)
		cli_die_usage("-o/--output: '%s': %s", path, strerror(errno));
	fclose(f);
}

int main(int argc, char **argv)
{
	struct kohaku_cli_opts o;
	const struct kohaku_cli_cmd *c;
	int i, r;

	/* --json before parsing, so that a refused argument says so in JSON */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			cli_json_errors(true, NULL);
	cli_parse_args(argc, argv, &o);
	cli_json_errors(o.json, NULL);
	if (o.output)
		cli_open_output(o.output);
	if (o.map && o.backend == KOHAKU_BACKEND_KERNEL)
		cli_die_usage("--map describes a simulated card; it cannot be "
			      "used with --backend kernel");
	if (o.map && o.device)
		cli_die_usage("--map and --device both name the simulated "
			      "card; give one");
	if (o.version) {
		if (o.n_pos)
			cli_die_usage("--version: unexpected argument '%s'",
				      o.pos[0]);
		cli_check_takes(&o, "--version", 0);
		cli_json_errors(o.json, "--version");
		r = cli_json_error_exit(cli_cmd_version(&o));
		free(o.pos);
		return r;
	}
	if (!o.n_pos) {
		cli_usage(stderr);
		return EXIT_USAGE;
	}
	c = cli_find_cmd(&o);
	cli_check_cmd(c, &o);
	r = cli_json_error_exit(cli_dispatch(c, &o));
	free(o.pos);
	return r;
}
