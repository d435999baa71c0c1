// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kohaku CLI's usage: the text --help and `kohaku help` print (and
 * kohaku with no command, on stderr), a command's part of it (`kohaku help
 * CMD`, `kohaku CMD --help`), and the way every refusal of the command
 * line ends: the message, a pointer to --help, exit 2.  The tables below
 * are the one place the commands and options are described for the user:
 * the whole usage and a command's help are both printed from them, so the
 * two cannot drift apart.  man/kohaku.1 says the same at length.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * A command's lines in the usage: cmd is its first word, sub its second
 * (NULL: none; "a|b" stands for each of a and b), text what --help prints
 * for it.  A group (run, fw, clocks, sim) is several entries with the
 * same cmd, in the order --help lists them.
 */
struct kohaku_cli_help_cmd {
	const char *cmd, *sub, *text;
};

static const struct kohaku_cli_help_cmd cli_help_cmds[] = {
	{ "list", NULL,
"  list              kohaku devices: the nodes under /dev/accel (kohaku's\n"
"                    render nodes under /dev/dri before Linux 6.2), each with\n"
"                    why it is or is not usable, and the PCI functions 10ee:903f,\n"
"                    bound or not ($KOHAKU_PCI_MATCH adds ids), or the\n"
"                    simulated cards\n" },
	{ "info", NULL,
"  info              capabilities, meshes and memory of the device\n" },
	{ "examine", NULL,
"  examine           one report of the device: info, the node table, the\n"
"                    POOL firmware, the DXA units' slots (counts by state);\n"
"                    runs no job; --json: one object with \"schema\": 1\n" },
	{ "nodes", NULL,
"  nodes [--live]    the enumerated node table (--live re-reads status and\n"
"                    counters)\n" },
	{ "run", "saxpy",
"  run saxpy [--n N] [--a A] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    y = a*x + y on every SX unit (or the named ones), each\n"
"                    on its own vectors, checked bit-exact against the\n"
"                    unit's arithmetic (saxpy_cu's integer datapath)\n" },
	{ "run", "mat-demo",
"  run mat-demo [--node [M:]X,Y ...] [--timeout MS]\n"
"                    one GEMM block (8x64 by 64x8, FP16) on every mat unit\n"
"                    (or the named ones): FILL, GEMM, DRAIN, checked\n"
"                    bit-exact against libkohaku's host reference\n" },
	{ "run", "vec-demo",
"  run vec-demo [--node [M:]X,Y ...] [--timeout MS]\n"
"                    on every vec unit (or the named ones): x + y and\n"
"                    x*y + (x + y) over 128 FP16 elements by a kernel loaded\n"
"                    with IMEM/DESC/RUN, checked bit-exact on the host\n" },
	{ "run", "dxa-copy",
"  run dxa-copy [--node [M:]X,Y ...] [--timeout MS]\n"
"                    on every DXA unit (or the named ones): one tile of a\n"
"                    matrix, past its edges (filled), multicast to two\n"
"                    scratch units, copied out and checked against a C loop\n" },
	{ "run", "cpu-demo",
"  run cpu-demo [--n N] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    on every cpu unit (rv_pe, or the named ones): an RV32I\n"
"                    program loaded as the job's data computes the prefix\n"
"                    sums and a checksum of N 32-bit words (default 1024),\n"
"                    checked against C; instructions and cycles from CU_DBG\n" },
	{ "run", "KERNEL",
"  run KERNEL [--n N] [--node [M:]X,Y ...] [--timeout MS]\n"
"                    a POOL firmware kernel on every POOL unit (or the named\n"
"                    ones), checked against the host: ping, copy, fill,\n"
"                    crc32, hist (N bytes), vadd (N int32), sum (N int64);\n"
"                    on the cores' vector unit: gemv (N rows of 256 int8,\n"
"                    default 1024), axpy (N floats, bit for bit against\n"
"                    fmaf), softmax (N rows of 256 floats, default 256,\n"
"                    within 2^-13), copyu (N bytes at odd offsets);\n"
"                    N defaults to 65536 otherwise\n" },
	{ "run-artifact", NULL,
"  run-artifact FILE [--mesh M] [--arena MESH:ADDR:SIZE ...]\n"
"             [--in ADDR=FILE ...] [--out ADDR:LEN=FILE ...] [--timeout MS]\n"
"                    a KohakuTPU compiler artifact (JSON; docs/spec/artifact.md)\n"
"                    on mesh M (default 0): its arenas made at their fixed\n"
"                    addresses (default 64 MiB at 0x18000000 of the mesh),\n"
"                    each --in file written at ADDR (in an arena), every round\n"
"                    run as one job, each --out range read into FILE once all\n"
"                    finished DONE; prints rounds, device time and status.\n"
"                    Exit 2 for a refused artifact or operand, 4 for a round\n"
"                    that did not finish DONE\n" },
	{ "dxa", NULL,
"  dxa [--node [M:]X,Y ...]\n"
"                    every DXA unit's 16 descriptor slots: the driver's state\n"
"                    and the 64 bytes the unit holds, decoded\n" },
	{ "fw", "info",
"  fw info           the POOL units' firmware: state, version, boot time\n" },
	{ "fw", "load",
"  fw load FILE [--mailbox]\n"
"                    boot a firmware image on every POOL unit (--mailbox:\n"
"                    through CU_DATA bursts, not LOAD from device memory)\n" },
	{ "validate", NULL,
"  validate [--test NAME[,NAME] ...]\n"
"                    numbered steps, each PASS, WARN, FAIL or SKIP.  Checks:\n"
"                    open, abi, enumerate, bo (a pattern read back),\n"
"                    bandwidth.  A compute step per unit type, the run\n"
"                    demo's job and check on every unit of it, SKIP when the\n"
"                    card has none: mat, vec, cpu, firmware (POOL: RUNNING,\n"
"                    ping), dxa, saxpy (SX), null.  Then checker (the\n"
"                    model's protocol checker, a simulated card).\n"
"                    WARN: passed, with something to say: units of the type\n"
"                    left out (marked hung; on a mesh not READY; DXA with no\n"
"                    scratch unit on its mesh), firmware API older than the\n"
"                    driver's, a checker not turned on first.  Verdict:\n"
"                    FAIL (a step failed; exit its code), NOTHING COMPUTED\n"
"                    (no compute step ran a job; exit 5), WARN or PASS (exit\n"
"                    0).  --test: only those steps; --json: one object,\n"
"                    \"schema\": 2\n" },
	{ "top", NULL,
"  top [--interval MS] [--count N] [--csv]\n"
"                    a live view every MS (default 1000): per node busy\n"
"                    cycles and instructions retired in the interval, hung\n"
"                    or not, jobs per second and clock (profile and NoC MHz,\n"
"                    \"ship 300MHz\") per mesh; --count N stops after N\n"
"                    samples (0, the default: until interrupted); --csv: a\n"
"                    header line, then a row per node (the mesh's clock\n"
"                    last, mesh_clock); --json: JSON Lines, one object per\n"
"                    sample on a line of its own (not one JSON document)\n" },
	{ "clocks", NULL,
"  clocks [--mesh M] each mesh's clocks (or mesh M's): the governor's policy\n"
"                    (auto, fixed, none), the profile now and each output's\n"
"                    MHz (noc, mat2x, vec, mag), the idle, run and fixed\n"
"                    profiles, idle_ms, retunes, device time at each\n"
"                    profile, resets, recoveries, the recovery limit\n" },
	{ "clocks", "set",
"  clocks set --mesh M [--policy auto|fixed] [--profile P] [--idle P]\n"
"             [--run P] [--idle-ms N] [--recover N]\n"
"                    govern mesh M's clocks (P: low 100, mid 200, ship 300\n"
"                    MHz NoC): auto runs jobs at the run profile and drops\n"
"                    to the idle one after idle-ms without a job; fixed\n"
"                    keeps --profile (which implies --policy fixed);\n"
"                    --recover N resets a hung mesh at most N times in a\n"
"                    row (0: off); then prints the mesh's clocks.  A retune\n"
"                    resets the mesh: the driver makes it only while no job\n"
"                    is on it.  Needs root on kohaku.ko\n" },
	{ "reset", NULL,
"  reset [--mesh M]  reset mesh M (default: every mesh, one after the other):\n"
"                    its job ends ABORTED, hung marks are cleared, the POOL\n"
"                    units boot the firmware again; prints jobs aborted,\n"
"                    hung marks cleared, POOL units running firmware, the\n"
"                    device time it took.  Needs root on kohaku.ko; exit 4\n"
"                    when the mesh did not come back\n" },
	{ "sim", "trace|stats|knobs|check",
"  sim trace|stats|knobs|check\n"
"                    the device model's event trace, counters, active knobs,\n"
"                    protocol checker report (exit 1 on violations)\n" },
	{ "sim", "inject",
"  sim inject SPEC   set a fault-injection knob (docs/spec/fault-injection.md)\n"
"                    sim commands refuse a device that is not simulated\n" },
	{ "cdi", NULL,
"  cdi [-o FILE]     a Container Device Interface spec (CDI 0.5.0, JSON) of\n"
"                    kohaku.ko's nodes, for /etc/cdi/kohaku.json: kind\n"
"                    kohaku.io/card, a device per node named N (as --device\n"
"                    N: /dev/accel/accelN) and \"all\"; podman run --device\n"
"                    kohaku.io/card=0.  No kohaku node: exit 3, nothing\n"
"                    written; -o FILE is replaced whole or left as it was\n" },
	{ "help", NULL,
"  help [COMMAND [SUB]]\n"
"                    this text, or only COMMAND's (and the options it\n"
"                    takes), as `kohaku COMMAND --help` prints it\n" },
};

/*
 * An option only some commands take, described once: cmds lists their
 * first words (space-separated); a command's help prints the paragraphs
 * whose list names it.
 */
struct kohaku_cli_help_opt {
	const char *cmds, *text;
};

static const struct kohaku_cli_help_opt cli_help_opts[] = {
	{ "clocks reset run-artifact",
"  --mesh M          clocks, clocks set, reset, run-artifact: the mesh (one the\n"
"                    device has)\n" },
	{ "run-artifact",
"  --arena MESH:ADDR:SIZE, --in ADDR=FILE, --out ADDR:LEN=FILE\n"
"                    run-artifact: an arena (ADDR a device address or the\n"
"                    mesh's local offset; repeatable), a file written before\n"
"                    the run, a range read into FILE after it (each at most 16)\n" },
	{ "validate",
"  --test NAME[,NAME...]\n"
"                    validate: only the steps named (repeatable): open, abi,\n"
"                    enumerate, bo, bandwidth, mat, vec, cpu, firmware, dxa,\n"
"                    saxpy, null, checker; an unknown one is exit 2\n" },
	{ "clocks",
"  --policy auto|fixed, --profile P, --idle P, --run P (P: low, mid, ship),\n"
"  --idle-ms N (1..3600000), --recover N (0..100)\n"
"                    clocks set: what to set (at least one)\n" },
};

#define CLI_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* the options every command takes, as the usage's first line names them */
#define CLI_USAGE_GLOBAL \
	"[--backend sim|kernel|daemon] [--device DEV] [--map NAME|PATH] [--json]\n" \
	"              [-o FILE] [-q|--quiet]"

void cli_usage(FILE *f)
{
	size_t i;

	fprintf(f,
"usage: %s " CLI_USAGE_GLOBAL " COMMAND [ARGS]\n"
"       %s [--backend B] [--device DEV] [--map M] [--json] --version\n"
"       %s help COMMAND, %s COMMAND --help: that command's text alone\n"
"\n"
"commands:\n", CLI_PROG, CLI_PROG, CLI_PROG, CLI_PROG);
	for (i = 0; i < CLI_ARRAY_SIZE(cli_help_cmds); i++)
		fputs(cli_help_cmds[i].text, f);
	fputs(
"\n"
"options:\n"
"  --backend B       kernel (a kohaku device node), sim (the device model in\n"
"                    this process) or daemon (a card kohakud shares between\n"
"                    processes, kohakud(8)); default: $KOHAKU_BACKEND, else\n"
"                    kernel\n"
"  --device DEV      kernel: /dev/accel/accelN or N (before Linux 6.2\n"
"                    /dev/dri/renderDN); sim: as --map; daemon:NAME:\n"
"                    kohakud's card NAME; default: $KOHAKU_DEVICE\n"
"  --map NAME|PATH   sim card description: a built-in name (saxpy,\n"
"                    sx_null_2x2, pool, ...: `kohaku list --backend sim`) or\n"
"                    a description file; implies --backend sim, or kohakud's\n"
"                    card of that name with --backend daemon\n"
"  --json            machine-readable output: one JSON object (top: JSON\n"
"                    Lines, an object per sample); a failure prints\n"
"                    {\"error\": ..., \"exit\": N, \"command\": ...}; a byte\n"
"                    that is not UTF-8 is written \\u00XX\n"
"  -o, --output=FILE write what the command prints on stdout to FILE\n"
"  -q, --quiet       say less: run prints no node table, no intro and no\n"
"                    line of a unit that passed (failures and the verdict\n"
"                    stay); validate only WARN and FAIL lines and the\n"
"                    verdict; no progress line.  Without it, a wait on the\n"
"                    device past a second draws a progress line on stderr\n"
"                    when stderr is a terminal (cleared at the end)\n"
"  --version         the tool's and libkohaku's versions, the ABI it was\n"
"                    built with, and the device's (when one opens): driver\n"
"                    name, version and date, firmware on POOL units\n"
"  -h, --help        this text (after a command: that command's)\n"
"\n", f);
	for (i = 0; i < CLI_ARRAY_SIZE(cli_help_opts); i++)
		fputs(cli_help_opts[i].text, f);
	fputs(
"\n"
"Options go before or after the command, as --opt VALUE or --opt=VALUE;\n"
"-- ends them.  A command refuses an option it does not take and any\n"
"argument past its own.  Numbers (--n, --timeout, --interval, --count,\n"
"--mesh, --idle-ms, --recover, run-artifact's addresses and sizes) are\n"
"decimal or 0x hex;\n"
"a leading 0 is still decimal (--n 010 is ten).  --a is a finite number\n"
"(no NaN or infinity).\n"
"\n"
"exit status: 0 ok, 1 wrong answer, 2 refused or bad usage, 3 no device or\n"
"backend, 4 the device did not answer as expected (timeout, fault; a\n"
"mesh a reset did not bring back), 5 validate computed nothing; output\n"
"that could not be written (to stdout or -o FILE: a full disk) makes an\n"
"exit 0 a 2, with a message\n", f);
}

/* word is one of list's '|'-separated words */
static bool cli_help_word_in(const char *list, const char *word)
{
	size_t len = strlen(word);

	while (list) {
		if (!strncmp(list, word, len) &&
		    (list[len] == '|' || list[len] == '\0'))
			return true;
		list = strchr(list, '|');
		if (list)
			list++;
	}
	return false;
}

/* word is one of list's space-separated words */
static bool cli_help_cmd_in(const char *list, const char *word)
{
	size_t len = strlen(word);

	while (*list) {
		if (!strncmp(list, word, len) &&
		    (list[len] == ' ' || list[len] == '\0'))
			return true;
		list += strcspn(list, " ");
		list += strspn(list, " ");
	}
	return false;
}

int cli_usage_cmd(FILE *f, const char *cmd, const char *sub)
{
	bool narrow = false, found = false;
	size_t i;

	for (i = 0; i < CLI_ARRAY_SIZE(cli_help_cmds); i++) {
		const struct kohaku_cli_help_cmd *h = &cli_help_cmds[i];

		if (strcmp(h->cmd, cmd))
			continue;
		found = true;
		if (sub && h->sub && cli_help_word_in(h->sub, sub))
			narrow = true;
	}
	if (!found)
		return -1;
	fprintf(f, "usage: %s " CLI_USAGE_GLOBAL " %s ...\n\n", CLI_PROG,
		cmd);
	/*
	 * SUB names one entry of a group (help run saxpy, clocks set --help):
	 * that one alone; any other SUB (or none) is the whole group, so that
	 * a misspelt one still shows what there is
	 */
	for (i = 0; i < CLI_ARRAY_SIZE(cli_help_cmds); i++) {
		const struct kohaku_cli_help_cmd *h = &cli_help_cmds[i];

		if (strcmp(h->cmd, cmd))
			continue;
		if (narrow && !(h->sub && cli_help_word_in(h->sub, sub)))
			continue;
		fputs(h->text, f);
	}
	found = false;
	for (i = 0; i < CLI_ARRAY_SIZE(cli_help_opts); i++) {
		if (!cli_help_cmd_in(cli_help_opts[i].cmds, cmd))
			continue;
		fputs(found ? "" : "\noptions:\n", f);
		fputs(cli_help_opts[i].text, f);
		found = true;
	}
	fprintf(f, "\nEvery command takes --backend, --device, --map, --json, "
		"-o and -q;\n%s --help: those options, the forms of numbers and "
		"the exit status.\n", CLI_PROG);
	return 0;
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
