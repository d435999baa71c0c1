// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku: list KohakuAccel cards, show their capabilities and node tables,
 * load the POOL firmware, show the DXA units' slots, run the saxpy
 * example, the mat, vec and DXA demos or a firmware kernel, validate a
 * device, watch it (top), show and set a mesh's clocks and reset it
 * (clocks, reset), and use the device model's knobs (sim).
 * Usage: kohaku --help.
 *
 * This file: dispatching to the commands (cmd_*.c) and the run demos
 * (demo.h) with the check of the words and options each takes, and -o.
 * The arguments are parsed in args.c, the usage is usage.c's, the device
 * and units a command runs on select.c's.
 *
 * Exit codes: 0 ok, 1 wrong answer, 2 refused or bad usage (and output
 * that could not be written: cli_output_close), 3 no device or backend, 4
 * the device did not answer as expected (timeout, fault).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo.h"

/* ---- dispatch ---- */

#define CLI_TAKES_ALL	(CLI_TAKES_N | CLI_TAKES_A | CLI_TAKES_NODE | \
			 CLI_TAKES_TIMEOUT | CLI_TAKES_LIVE | CLI_TAKES_MAILBOX | \
			 CLI_TAKES_INTERVAL | CLI_TAKES_COUNT | CLI_TAKES_CSV | \
			 CLI_TAKES_MESH | CLI_TAKES_CLK_SET | CLI_TAKES_ARENA | \
			 CLI_TAKES_IN | CLI_TAKES_OUT | CLI_TAKES_TEST)

enum kohaku_cli_cmd_id {
	CLI_CMD_LIST, CLI_CMD_INFO, CLI_CMD_EXAMINE, CLI_CMD_NODES, CLI_CMD_DXA,
	CLI_CMD_HELP, CLI_CMD_RUN_DEMO, CLI_CMD_RUN_OTHER,
	CLI_CMD_FW_INFO, CLI_CMD_FW_LOAD, CLI_CMD_FW_OTHER,
	CLI_CMD_VALIDATE, CLI_CMD_TOP, CLI_CMD_SIM_INJECT, CLI_CMD_SIM_READ,
	CLI_CMD_SIM_OTHER, CLI_CMD_CLOCKS, CLI_CMD_CLOCKS_SET, CLI_CMD_RESET,
	CLI_CMD_RUN_ARTIFACT, CLI_CMD_CDI,
};

/*
 * A command: its first word, its second (NULL: any or none; "*" a demo's
 * name), the words it takes (max_pos, the command's own counted) and its
 * options (a demo's are the demo's own).  The *_OTHER ones are what is
 * left of a group: its function names what is wrong (which example, which
 * fw subcommand).
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
	/* help [COMMAND [SUB]] */
	{ "help", NULL, CLI_CMD_HELP, 3, 0 },
	/* run NAME: a demo (demo.h), taking the options it says */
	{ "run", "*", CLI_CMD_RUN_DEMO, 2, 0 },
	{ "run", NULL, CLI_CMD_RUN_OTHER, ~0u, CLI_TAKES_ALL },
	{ "fw", "info", CLI_CMD_FW_INFO, 2, 0 },
	{ "fw", "load", CLI_CMD_FW_LOAD, 3, CLI_TAKES_MAILBOX },
	{ "fw", NULL, CLI_CMD_FW_OTHER, ~0u, CLI_TAKES_ALL },
	{ "validate", NULL, CLI_CMD_VALIDATE, 1, CLI_TAKES_TEST },
	{ "top", NULL, CLI_CMD_TOP, 1,
	  CLI_TAKES_INTERVAL | CLI_TAKES_COUNT | CLI_TAKES_CSV },
	/* sim inject SPEC: the spec's words, any number of them */
	{ "sim", "inject", CLI_CMD_SIM_INJECT, ~0u, 0 },
	{ "sim", "trace", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", "stats", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", "knobs", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", "check", CLI_CMD_SIM_READ, 2, 0 },
	{ "sim", NULL, CLI_CMD_SIM_OTHER, ~0u, CLI_TAKES_ALL },
	{ "clocks", "set", CLI_CMD_CLOCKS_SET, 2,
	  CLI_TAKES_MESH | CLI_TAKES_CLK_SET },
	{ "clocks", NULL, CLI_CMD_CLOCKS, 1, CLI_TAKES_MESH },
	{ "reset", NULL, CLI_CMD_RESET, 1, CLI_TAKES_MESH },
	/* run-artifact FILE: a compiler artifact (cmd_artifact.c) */
	{ "run-artifact", NULL, CLI_CMD_RUN_ARTIFACT, 2,
	  CLI_TAKES_MESH | CLI_TAKES_ARENA | CLI_TAKES_IN | CLI_TAKES_OUT |
	  CLI_TAKES_TIMEOUT },
	/* cdi: a CDI spec for /etc/cdi (cmd_cdi.c) */
	{ "cdi", NULL, CLI_CMD_CDI, 1, 0 },
};

/* the demos `run NAME` runs, and the POOL kernels */
static const struct kohaku_cli_demo *const cli_demos[] = {
	&cli_demo_saxpy,
	&cli_demo_mat,
	&cli_demo_vec,
	&cli_demo_cpu,
	&cli_demo_dxa_copy,
};

static const struct kohaku_cli_demo *cli_find_demo(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(cli_demos) / sizeof(cli_demos[0]); i++)
		if (!strcmp(name, cli_demos[i]->name))
			return cli_demos[i];
	return cli_pool_demo(name);
}

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
		return cli_find_demo(sub) != NULL;
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
	cli_check_takes(o, label, c->id == CLI_CMD_RUN_DEMO ?
			cli_find_demo(o->pos[1])->takes : c->takes);
}

/* run with no demo, or one that is none: refused */
static void __attribute__((noreturn)) cli_run_other(const char *what)
{
	if (!what)
		cli_die_usage("run: which example? (run saxpy, run mat-demo, "
			      "run vec-demo, run cpu-demo, run KERNEL)");
	cli_die_usage("run: unknown example '%s' (run saxpy, run "
		      "mat-demo, run vec-demo, run cpu-demo, run KERNEL)",
		      what);
}

/*
 * help [CMD [SUB]] (the words from pos[first]) and CMD [SUB] --help: the
 * whole usage, or CMD's part of it (usage.c).  A POOL kernel's name is the
 * usage's "run KERNEL".  A CMD that is no command is refused, exit 2, as
 * it is without --help: help that exits 0 would hide a typo in a script.
 */
static int cli_help(const struct kohaku_cli_opts *o, unsigned int first)
{
	const char *cmd = o->n_pos > first ? o->pos[first] : NULL;
	const char *sub = o->n_pos > first + 1 ? o->pos[first + 1] : NULL;

	if (!cmd) {
		cli_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "run") && sub && cli_pool_demo(sub))
		sub = "KERNEL";
	if (cli_usage_cmd(stdout, cmd, sub))
		cli_die_usage("%sunknown command '%s'", first ? "help: " : "",
			      cmd);
	return EXIT_OK;
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
		return cli_help(o, 1);
	case CLI_CMD_RUN_DEMO:
		return cli_demo_run(o, cli_find_demo(arg1));
	case CLI_CMD_RUN_OTHER:
		cli_run_other(arg1);
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
	case CLI_CMD_CLOCKS:
		return cli_cmd_clocks(o);
	case CLI_CMD_CLOCKS_SET:
		return cli_cmd_clocks_set(o);
	case CLI_CMD_RESET:
		return cli_cmd_reset(o);
	case CLI_CMD_RUN_ARTIFACT:
		return cli_cmd_run_artifact(o, arg1);
	case CLI_CMD_CDI:
		return cli_cmd_cdi(o);
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

/* every return from main: the output checked (cli_output_close) */
static int cli_exit(struct kohaku_cli_opts *o, int r)
{
	r = cli_output_close(o->output, r);
	free(o->pos);
	return r;
}

/*
 * A kohaku run from a build tree (build/kohaku) finds that tree's POOL
 * firmware (build/firmware/kohaku/pool.fw, `make firmware`) for the
 * in-process cards it makes: KOHAKU_FIRMWARE_PATH, when neither it nor
 * KOHAKU_FIRMWARE is set, becomes the firmware/ beside the executable if
 * the image is there.  An installed kohaku has none beside it, so its
 * cards search /lib/firmware as kohaku.ko does.
 */
static void cli_intree_firmware(void)
{
	char exe[PATH_MAX], dir[PATH_MAX + 16], img[PATH_MAX + 40];
	const char *p = getenv("KOHAKU_FIRMWARE_PATH"), *f = getenv("KOHAKU_FIRMWARE");
	struct stat st;
	ssize_t n;
	char *slash;

	if ((p && *p) || (f && *f))
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	snprintf(dir, sizeof(dir), "%s/firmware", exe);
	snprintf(img, sizeof(img), "%s/kohaku/pool.fw", dir);
	if (!stat(img, &st) && S_ISREG(st.st_mode))
		setenv("KOHAKU_FIRMWARE_PATH", dir, 0);
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
	cli_intree_firmware();
	cli_parse_args(argc, argv, &o);
	cli_json_errors(o.json, NULL);
	cli_progress_init(o.quiet);
	/* cdi writes its -o FILE itself: whole, or not at all */
	if (o.output && !(o.n_pos && !strcmp(o.pos[0], "cdi") && !o.help &&
			  !o.version))
		cli_open_output(o.output);
	/*
	 * --help before anything else is checked: `kohaku run saxpy --node
	 * 9,9 --help` is asking what --node means, not running
	 */
	if (o.help) {
		r = cli_json_error_exit(cli_help(&o, o.n_pos > 1 &&
				       !strcmp(o.pos[0], "help")));
		return cli_exit(&o, r);
	}
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
		return cli_exit(&o, r);
	}
	if (!o.n_pos) {
		cli_usage(stderr);
		return cli_exit(&o, EXIT_USAGE);
	}
	c = cli_find_cmd(&o);
	cli_check_cmd(c, &o);
	r = cli_json_error_exit(cli_dispatch(c, &o));
	return cli_exit(&o, r);
}
