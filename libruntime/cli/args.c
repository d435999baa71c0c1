// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kohaku CLI's arguments: getopt_long over the whole command line, so
 * the global options and a command's own options may come before or after
 * the command, as `--opt value` or `--opt=value`; `--` ends the options.
 * What a command takes is checked by main.c's dispatch (cli_check_takes).
 *
 * Numbers (--n, --timeout) are decimal or 0x hexadecimal.  A leading zero
 * never means octal: `--n 010` is ten.  Signs, spaces and trailing text are
 * refused.  --a is a finite float (strtof's syntax): NaN and infinities are
 * refused, negative values are fine (y = a*x + y).
 *
 * --mesh is a number here; whether the device has that mesh is the
 * command's check (cli_check_mesh).  --policy is auto or fixed, --profile,
 * --idle and --run a profile (low, mid, ship; any case), --idle-ms
 * 1..3600000, --recover 0..100: anything else is refused here, naming the
 * option.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

enum {
	CLI_OPT_BACKEND = 256,
	CLI_OPT_DEVICE,
	CLI_OPT_MAP,
	CLI_OPT_JSON,
	CLI_OPT_VERSION,
	CLI_OPT_LIVE,
	CLI_OPT_N,
	CLI_OPT_A,
	CLI_OPT_MAILBOX,
	CLI_OPT_NODE,
	CLI_OPT_TIMEOUT,
	CLI_OPT_INTERVAL,
	CLI_OPT_COUNT,
	CLI_OPT_CSV,
	CLI_OPT_OUTPUT,
	CLI_OPT_MESH,
	CLI_OPT_POLICY,
	CLI_OPT_PROFILE,
	CLI_OPT_IDLE,
	CLI_OPT_RUN,
	CLI_OPT_IDLE_MS,
	CLI_OPT_RECOVER,
	CLI_OPT_ARENA,
	CLI_OPT_IN,
	CLI_OPT_OUT,
	CLI_OPT_QUIET,
	CLI_OPT_TEST,
};

static const struct option cli_longopts[] = {
	{ "backend", required_argument, NULL, CLI_OPT_BACKEND },
	{ "device", required_argument, NULL, CLI_OPT_DEVICE },
	{ "map", required_argument, NULL, CLI_OPT_MAP },
	{ "json", no_argument, NULL, CLI_OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, CLI_OPT_VERSION },
	{ "live", no_argument, NULL, CLI_OPT_LIVE },
	{ "n", required_argument, NULL, CLI_OPT_N },
	{ "a", required_argument, NULL, CLI_OPT_A },
	{ "mailbox", no_argument, NULL, CLI_OPT_MAILBOX },
	{ "node", required_argument, NULL, CLI_OPT_NODE },
	{ "timeout", required_argument, NULL, CLI_OPT_TIMEOUT },
	{ "interval", required_argument, NULL, CLI_OPT_INTERVAL },
	{ "count", required_argument, NULL, CLI_OPT_COUNT },
	{ "csv", no_argument, NULL, CLI_OPT_CSV },
	{ "output", required_argument, NULL, CLI_OPT_OUTPUT },
	{ "mesh", required_argument, NULL, CLI_OPT_MESH },
	{ "policy", required_argument, NULL, CLI_OPT_POLICY },
	{ "profile", required_argument, NULL, CLI_OPT_PROFILE },
	{ "idle", required_argument, NULL, CLI_OPT_IDLE },
	{ "run", required_argument, NULL, CLI_OPT_RUN },
	{ "idle-ms", required_argument, NULL, CLI_OPT_IDLE_MS },
	{ "recover", required_argument, NULL, CLI_OPT_RECOVER },
	{ "arena", required_argument, NULL, CLI_OPT_ARENA },
	{ "in", required_argument, NULL, CLI_OPT_IN },
	{ "out", required_argument, NULL, CLI_OPT_OUT },
	{ "quiet", no_argument, NULL, CLI_OPT_QUIET },
	{ "test", required_argument, NULL, CLI_OPT_TEST },
	{ NULL, 0, NULL, 0 },
};

/* the command options, by their CLI_TAKES_* bit */
static const struct {
	unsigned int bit;
	const char *name;
} cli_cmd_opts[] = {
	{ CLI_TAKES_LIVE, "--live" },
	{ CLI_TAKES_N, "--n" },
	{ CLI_TAKES_A, "--a" },
	{ CLI_TAKES_NODE, "--node" },
	{ CLI_TAKES_TIMEOUT, "--timeout" },
	{ CLI_TAKES_MAILBOX, "--mailbox" },
	{ CLI_TAKES_INTERVAL, "--interval" },
	{ CLI_TAKES_COUNT, "--count" },
	{ CLI_TAKES_CSV, "--csv" },
	{ CLI_TAKES_MESH, "--mesh" },
	{ CLI_TAKES_POLICY, "--policy" },
	{ CLI_TAKES_PROFILE, "--profile" },
	{ CLI_TAKES_IDLE, "--idle" },
	{ CLI_TAKES_RUN, "--run" },
	{ CLI_TAKES_IDLE_MS, "--idle-ms" },
	{ CLI_TAKES_RECOVER, "--recover" },
	{ CLI_TAKES_ARENA, "--arena" },
	{ CLI_TAKES_IN, "--in" },
	{ CLI_TAKES_OUT, "--out" },
	{ CLI_TAKES_TEST, "--test" },
};

void cli_check_takes(const struct kohaku_cli_opts *o, const char *cmd,
		     unsigned int takes)
{
	size_t i;

	for (i = 0; i < sizeof(cli_cmd_opts) / sizeof(cli_cmd_opts[0]); i++)
		if ((o->given & cli_cmd_opts[i].bit) &&
		    !(takes & cli_cmd_opts[i].bit))
			cli_die_usage("%s does not take %s", cmd,
				      cli_cmd_opts[i].name);
}

/*
 * A number: decimal digits, or 0x and hex digits; never a sign, a space,
 * octal or trailing text.  Dies naming opt unless it is at most max.
 */
unsigned long cli_parse_number(const char *opt, const char *s,
			       unsigned long max)
{
	const char *digits = s;
	int base = 10;
	unsigned long v;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = s + 2;
		base = 16;
	}
	if (!isxdigit((unsigned char)digits[0]) ||
	    (base == 10 && !isdigit((unsigned char)digits[0])))
		cli_die_usage("%s: '%s' is not a non-negative integer (decimal "
			      "or 0x hex)", opt, s);
	errno = 0;
	v = strtoul(digits, &end, base);
	if (*end)
		cli_die_usage("%s: '%s' is not a non-negative integer (decimal "
			      "or 0x hex)", opt, s);
	if (errno == ERANGE || v > max)
		cli_die_usage("%s: '%s' is too large (at most %lu)", opt, s,
			      max);
	return v;
}

/* A finite float: strtof's syntax, all of s, neither NaN nor infinite. */
static float cli_parse_float(const char *opt, const char *s)
{
	char *end;
	float v;

	errno = 0;
	v = strtof(s, &end);
	if (end == s || *end || isspace((unsigned char)s[0]))
		cli_die_usage("%s: '%s' is not a number", opt, s);
	if (!isfinite(v))
		cli_die_usage("%s: '%s' is not a finite number (NaN and "
			      "infinities make no sense here)", opt, s);
	return v;
}

static void cli_parse_backend(struct kohaku_cli_opts *o, const char *s)
{
	if (kohaku_backend_parse(s, &o->backend) < 0)
		cli_die_usage("--backend '%s': use sim or kernel", s);
}

static void cli_parse_node(struct kohaku_cli_opts *o, const char *s)
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

/*
 * --test NAME[,NAME...]: each name kept (argv's own memory, split at the
 * commas in place); whether it is a step is validate's to check
 */
static void cli_parse_tests(struct kohaku_cli_opts *o, const char *v)
{
	char *s = (char *)v, *tok, *save = NULL;

	if (!v[strspn(v, ",")])
		cli_die_usage("--test needs a name (%s)",
			      cli_validate_test_names());
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->n_tests >= MAX_TESTS)
			cli_die_usage("--test: at most %d names", MAX_TESTS);
		o->tests[o->n_tests++] = tok;
	}
}

/* a profile the governor takes: low, mid or ship (not default, not other) */
static unsigned int cli_parse_profile(const char *opt, const char *s)
{
	int p = kohaku_clk_profile_parse(s);

	if (p < KOHAKU_CLK_PROFILE_LOW || p > KOHAKU_CLK_PROFILE_SHIP)
		cli_die_usage("%s: '%s' is not a clock profile (low, mid or "
			      "ship)", opt, s);
	return (unsigned int)p;
}

static unsigned int cli_parse_policy(const char *s)
{
	static const char *const names[] = KOHAKU_CLK_POLICY_NAMES;

	if (!strcasecmp(s, names[KOHAKU_CLK_POLICY_AUTO]))
		return KOHAKU_CLK_POLICY_AUTO;
	if (!strcasecmp(s, names[KOHAKU_CLK_POLICY_FIXED]))
		return KOHAKU_CLK_POLICY_FIXED;
	cli_die_usage("--policy: '%s' is not a clock policy (auto or fixed)",
		      s);
}

/*
 * What getopt_long refused: a short option (opt, its letter), or the long
 * one in word (unknown, ambiguous, a value missing or one too many).
 */
static void cli_die_bad_option(const char *word, int opt)
{
	const struct option *lo;
	size_t len;
	int prefixes = 0;

	/* getopt's optopt: a letter for a short option; 0 or a val for long */
	if (opt == 'o' && !strcmp(word, "-o"))
		cli_die_usage("-o needs a value");
	if ((opt > 0 && opt < 256 && opt != 'h') || strncmp(word, "--", 2))
		cli_die_usage("unknown option '-%c'", opt > 0 ? opt : '?');
	word += 2;
	len = strcspn(word, "=");
	for (lo = cli_longopts; lo->name; lo++) {
		if (strlen(lo->name) == len && !strncmp(lo->name, word, len)) {
			if (lo->has_arg == no_argument)
				cli_die_usage("--%s takes no value", lo->name);
			cli_die_usage("--%s needs a value", lo->name);
		}
		prefixes += !strncmp(lo->name, word, len);
	}
	if (prefixes > 1)
		cli_die_usage("option '--%.*s' is ambiguous", (int)len, word);
	cli_die_usage("unknown option '--%.*s'", (int)len, word);
}

/* one option getopt_long returned; false for one it did not know */
static bool cli_take_option(struct kohaku_cli_opts *o, int c, const char *v)
{
	switch (c) {
	case CLI_OPT_BACKEND:
		cli_parse_backend(o, v);
		break;
	case CLI_OPT_DEVICE:
		o->device = v;
		break;
	case CLI_OPT_MAP:
		o->map = v;
		break;
	case CLI_OPT_JSON:
		o->json = true;
		break;
	case CLI_OPT_VERSION:
		o->version = true;
		break;
	case CLI_OPT_LIVE:
		o->live = true;
		o->given |= CLI_TAKES_LIVE;
		break;
	case CLI_OPT_N:
		o->n = cli_parse_number("--n", v, ULONG_MAX);
		o->n_given = true;
		o->given |= CLI_TAKES_N;
		break;
	case CLI_OPT_A:
		o->a = cli_parse_float("--a", v);
		o->given |= CLI_TAKES_A;
		break;
	case CLI_OPT_MAILBOX:
		o->mailbox = true;
		o->given |= CLI_TAKES_MAILBOX;
		break;
	case CLI_OPT_NODE:
		cli_parse_node(o, v);
		o->given |= CLI_TAKES_NODE;
		break;
	case CLI_OPT_TIMEOUT:
		o->timeout_ms = (unsigned int)cli_parse_number("--timeout", v,
							       0xffffffffUL);
		o->given |= CLI_TAKES_TIMEOUT;
		break;
	case CLI_OPT_INTERVAL:
		o->interval_ms = (unsigned int)cli_parse_number("--interval", v,
								KOHAKU_CLK_IDLE_MS_MAX);
		if (!o->interval_ms)
			cli_die_usage("--interval: '%s': at least 1 ms", v);
		o->given |= CLI_TAKES_INTERVAL;
		break;
	case CLI_OPT_COUNT:
		o->count = cli_parse_number("--count", v, 0xffffffffUL);
		o->given |= CLI_TAKES_COUNT;
		break;
	case CLI_OPT_CSV:
		o->csv = true;
		o->given |= CLI_TAKES_CSV;
		break;
	case CLI_OPT_MESH:
		o->mesh = (unsigned int)cli_parse_number("--mesh", v,
							 0xffffffffUL);
		o->given |= CLI_TAKES_MESH;
		break;
	case CLI_OPT_POLICY:
		o->policy = cli_parse_policy(v);
		o->given |= CLI_TAKES_POLICY;
		break;
	case CLI_OPT_PROFILE:
		o->profile = cli_parse_profile("--profile", v);
		o->given |= CLI_TAKES_PROFILE;
		break;
	case CLI_OPT_IDLE:
		o->idle = cli_parse_profile("--idle", v);
		o->given |= CLI_TAKES_IDLE;
		break;
	case CLI_OPT_RUN:
		o->run = cli_parse_profile("--run", v);
		o->given |= CLI_TAKES_RUN;
		break;
	case CLI_OPT_IDLE_MS:
		o->idle_ms = (unsigned int)cli_parse_number("--idle-ms", v,
							    KOHAKU_CLK_IDLE_MS_MAX);
		if (!o->idle_ms)
			cli_die_usage("--idle-ms: '%s': at least 1 ms", v);
		o->given |= CLI_TAKES_IDLE_MS;
		break;
	case CLI_OPT_RECOVER:
		o->recover = (unsigned int)cli_parse_number("--recover", v, KOHAKU_RECOVER_MAX);
		o->given |= CLI_TAKES_RECOVER;
		break;
	case CLI_OPT_ARENA:
		if (o->n_arena >= MAX_XFER)
			cli_die_usage("--arena: at most %d", MAX_XFER);
		o->arena[o->n_arena++] = v;
		o->given |= CLI_TAKES_ARENA;
		break;
	case CLI_OPT_IN:
		if (o->n_in >= MAX_XFER)
			cli_die_usage("--in: at most %d", MAX_XFER);
		o->in[o->n_in++] = v;
		o->given |= CLI_TAKES_IN;
		break;
	case CLI_OPT_OUT:
		if (o->n_out >= MAX_XFER)
			cli_die_usage("--out: at most %d", MAX_XFER);
		o->out[o->n_out++] = v;
		o->given |= CLI_TAKES_OUT;
		break;
	case 'q':
	case CLI_OPT_QUIET:
		o->quiet = true;
		break;
	case CLI_OPT_TEST:
		cli_parse_tests(o, v);
		o->given |= CLI_TAKES_TEST;
		break;
	case 'o':
	case CLI_OPT_OUTPUT:
		o->output = v;
		break;
	default:
		return false;
	}
	return true;
}

void cli_parse_args(int argc, char **argv, struct kohaku_cli_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	/* saxpy's a; each demo has its own n (demo.h) */
	o->a = 1.7f;
	o->pos = calloc((size_t)argc + 1, sizeof(*o->pos));
	if (!o->pos) {
		cli_error("out of memory");
		exit(EXIT_DEVICE);
	}
	opterr = 0;
	/*
	 * "-": every word in order, the commands as 1 (POSIXLY_CORRECT cannot
	 * stop the options at the command); "h": -h; "q": -q; "o:": -o FILE.
	 */
	while ((c = getopt_long(argc, argv, "-hqo:", cli_longopts, NULL)) != -1) {
		if (c == 1) {
			o->pos[o->n_pos++] = optarg;
		} else if (c == 'h') {
			/* main.c prints it: which help depends on the command */
			o->help = true;
		} else if (c == '?' || c == ':') {
			cli_die_bad_option(argv[optind - 1], optopt);
		} else if (!cli_take_option(o, c, optarg)) {
			cli_die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	while (optind < argc)
		o->pos[o->n_pos++] = argv[optind++];
}
