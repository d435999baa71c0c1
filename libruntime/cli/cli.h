/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kohaku CLI's shared pieces: its options, exit codes, and the helpers
 * more than one command uses.  main.c dispatches the arguments args.c
 * parses; each cmd_*.c is one command group, each demo_*.c one run demo
 * (demo.h); usage.c is the usage, select.c the device and units a command
 * runs on, output.c what several commands print.
 */
#ifndef KOHAKU_CLI_H
#define KOHAKU_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <json.h>

#include "kohaku.h"

/* the program's name, first in every message */
#define CLI_PROG	"kohaku"
/*
 * the tool's version (kohaku --version): the tree's one version, kohaku.h's
 * KOHAKU_LIB_VERSION_* (the CLI is built and released with the library)
 */
#define CLI_STR_(x)	#x
#define CLI_STR(x)	CLI_STR_(x)
#define CLI_VERSION	CLI_STR(KOHAKU_LIB_VERSION_MAJOR) "." \
			CLI_STR(KOHAKU_LIB_VERSION_MINOR) "." \
			CLI_STR(KOHAKU_LIB_VERSION_PATCH)

/* exit codes (docs/runtime.md "The kohaku CLI") */
#define EXIT_OK		0
#define EXIT_WRONG	1
#define EXIT_USAGE	2
#define EXIT_NODEV	3
#define EXIT_DEVICE	4
/* validate only: no step failed, but no unit computed anything */
#define EXIT_NOTHING	5

/* --node given at most this often */
#define MAX_SEL		64
/* --arena, --in, --out: each given at most this often */
#define MAX_XFER	16

/*
 * The command options (args.c), a bit each: which were given
 * (kohaku_cli_opts.given) and which a command takes (main.c's table).
 * --backend, --device, --map and --json go with every command.
 */
#define CLI_TAKES_LIVE		(1u << 0)
#define CLI_TAKES_N		(1u << 1)
#define CLI_TAKES_A		(1u << 2)
#define CLI_TAKES_NODE		(1u << 3)
#define CLI_TAKES_TIMEOUT	(1u << 4)
#define CLI_TAKES_MAILBOX	(1u << 5)
#define CLI_TAKES_INTERVAL	(1u << 6)
#define CLI_TAKES_COUNT		(1u << 7)
#define CLI_TAKES_CSV		(1u << 8)
/* clocks, clocks set, reset: the mesh; clocks set: what to set */
#define CLI_TAKES_MESH		(1u << 9)
#define CLI_TAKES_POLICY	(1u << 10)
#define CLI_TAKES_PROFILE	(1u << 11)
#define CLI_TAKES_IDLE		(1u << 12)
#define CLI_TAKES_RUN		(1u << 13)
#define CLI_TAKES_IDLE_MS	(1u << 14)
#define CLI_TAKES_RECOVER	(1u << 15)
/* run-artifact: --arena, --in, --out (each repeatable) */
#define CLI_TAKES_ARENA		(1u << 16)
#define CLI_TAKES_IN		(1u << 17)
#define CLI_TAKES_OUT		(1u << 18)
/* validate: --test NAME[,NAME...] (repeatable) */
#define CLI_TAKES_TEST		(1u << 19)
/* validate --test: names given at most this often */
#define MAX_TESTS	32
/* the options of clocks set that set something */
#define CLI_TAKES_CLK_SET	(CLI_TAKES_POLICY | CLI_TAKES_PROFILE | \
				 CLI_TAKES_IDLE | CLI_TAKES_RUN | \
				 CLI_TAKES_IDLE_MS | CLI_TAKES_RECOVER)

struct kohaku_cli_opts {
	enum kohaku_backend backend;
	const char *device;
	const char *map;
	bool json;
	/*
	 * --quiet: run drops the node table, the intro and a passing unit's
	 * line; validate its header and PASS and SKIP lines; no progress
	 */
	bool quiet;
	bool version;
	/* -h/--help: the usage, or the command's part of it (main.c) */
	bool help;
	/* -o/--output FILE: stdout goes there (main.c opens it) */
	const char *output;
	/* the words that are not options, in order (argc of them at most) */
	const char **pos;
	unsigned int n_pos;
	/* CLI_TAKES_* of the command options given */
	unsigned int given;
	bool live;
	/* --n: the run demos' (each has its default when not given) */
	unsigned long n;
	bool n_given;
	/* fw load */
	bool mailbox;
	float a;
	unsigned int timeout_ms;
	/* top */
	unsigned int interval_ms;
	unsigned long count;
	bool csv;
	unsigned int n_sel;
	struct { int mesh, x, y; } sel[MAX_SEL];
	/*
	 * --mesh M (CLI_TAKES_MESH in given; whether the device has it is
	 * the command's to check: cli_check_mesh), and clocks set's values:
	 * KOHAKU_CLK_POLICY_*, KOHAKU_CLK_PROFILE_LOW..SHIP, ms, resets
	 */
	unsigned int mesh;
	unsigned int policy;
	unsigned int profile, idle, run;
	unsigned int idle_ms;
	unsigned int recover;
	/* run-artifact: the words of --arena, --in and --out, in order */
	const char *arena[MAX_XFER], *in[MAX_XFER], *out[MAX_XFER];
	unsigned int n_arena, n_in, n_out;
	/* validate --test: the names, each comma list split */
	const char *tests[MAX_TESTS];
	unsigned int n_tests;
};

/*
 * args.c: parse argv into o (defaults first); --help sets o->help, a bad
 * option or value exits EXIT_USAGE naming it
 */
void cli_parse_args(int argc, char **argv, struct kohaku_cli_opts *o);
/* args.c: exit EXIT_USAGE naming the first option given cmd does not take */
void cli_check_takes(const struct kohaku_cli_opts *o, const char *cmd,
		     unsigned int takes);
/*
 * args.c: s as a number, decimal or 0x hex (never octal: "010" is ten), at
 * most max; else exit EXIT_USAGE naming opt
 */
unsigned long cli_parse_number(const char *opt, const char *s,
			       unsigned long max);
/*
 * select.c: --mesh against the device: o->mesh when it is given and one of
 * the device's meshes (else a usage error naming --mesh and the meshes
 * there are); -1 when --mesh was not given.  in: the device's GET_INFO.
 */
int cli_check_mesh(const struct kohaku_cli_opts *o,
		   const struct drm_kohaku_get_info *in);
/* usage.c: the usage text */
void cli_usage(FILE *f);
/*
 * usage.c: command cmd's part of the usage (sub, when one entry of its
 * group has that word, that entry's alone) and the options it takes;
 * -1, printing nothing, when there is no command cmd
 */
int cli_usage_cmd(FILE *f, const char *cmd, const char *sub);
/* cmd_version.c: --version: tool, library, ABI, driver, firmware */
int cli_cmd_version(const struct kohaku_cli_opts *o);
/* usage.c: a usage error on stderr, then exit(EXIT_USAGE) */
void cli_die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
/*
 * select.c: what a file that is not a regular one is, in words ("a FIFO",
 * "a directory", ...), from its st_mode
 */
const char *cli_file_kind(unsigned int mode);
/*
 * select.c: open the device the options name; 0 or an exit code (said).
 * A KOHAKU_FIRMWARE that is not a regular file is refused first (exit 2).
 */
/* --map's backend: daemon when --backend or KOHAKU_BACKEND says so, else sim */
enum kohaku_backend cli_map_backend(const struct kohaku_cli_opts *o);
int cli_open_dev(const struct kohaku_cli_opts *o, kohaku_device **dev);
/*
 * select.c: cli_open_dev, then the node table (kohaku_nodes_alloc with
 * flags); 0 or an exit code, said on stderr (nothing is left open).
 */
int cli_open_nodes(const struct kohaku_cli_opts *o, unsigned int flags,
		   kohaku_device **dev, struct drm_kohaku_node **nd,
		   unsigned int *n);

/*
 * select.c: the units of cu_type to run on: every one, or those --node
 * names (each must be one; else a message and EXIT_USAGE).  out has room
 * for n entries.
 */
int cli_select_units(const struct kohaku_cli_opts *o,
		     const struct drm_kohaku_node *nd, unsigned int n,
		     uint16_t cu_type, const char *what,
		     const struct drm_kohaku_node **out, unsigned int *n_out);

/*
 * output.c: JSON through json-c.  CLI_JSON_FLAGS: how every object is
 * printed (one line, ", " and ": " between members, '/' not escaped).
 * cli_json_print: j on a line of stdout, then j released.
 */
#define CLI_JSON_FLAGS	(JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)
void cli_json_print(struct json_object *j);
/* output.c: the node table as a JSON array (the "nodes" member) */
struct json_object *cli_json_nodes(const struct drm_kohaku_node *nd,
				   unsigned int n);
/* output.c: a 64-bit register as the string "0x%016llx" */
struct json_object *cli_json_hex64(uint64_t v);
/*
 * output.c: a number as the CLI always printed it: with that many
 * decimals ("%.3f"), or a float's nine significant digits ("%.9g", enough
 * to read the same float back)
 */
struct json_object *cli_json_fixed(double v, int decimals);
struct json_object *cli_json_float(float v);
/*
 * output.c: errors.  cli_json_errors: under --json, a failure also
 * prints {"error": ..., "exit": N, "command": ...} on stdout (cmd: the
 * command's words, "" before one is known).  cli_error: the message on
 * stderr as "kohaku: ...", kept for that object.  cli_json_error_exit:
 * print the object when --json and a message was kept (at most once);
 * returns ret.
 */
void cli_json_errors(bool json, const char *cmd);
/* output.c: the command prints its own JSON object from here on, failures
 * included: no error object after it */
void cli_json_started(void);
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_json_error_exit(int ret);
/*
 * output.c: the end of every command: stdout flushed and closed; a write
 * that failed on the way (ferror, fflush, fclose) is said on stderr
 * (naming path, -o's FILE, or stdout when NULL) and turns an EXIT_OK ret
 * into EXIT_USAGE (another ret is kept).  Returns the exit status.
 */
int cli_output_close(const char *path, int ret);
/*
 * output.c: stdout flushed now (a live view's sample); false once a write
 * to it failed, its errno kept for cli_output_close's message
 */
bool cli_output_flush(void);
/*
 * output.c: the node table as `nodes` and the run demos print it: the
 * line "PATH: N nodes<note>", then the table
 */
void cli_print_device_nodes(const kohaku_device *dev,
			    const struct drm_kohaku_node *nd, unsigned int n,
			    const char *note);

/*
 * The commands: list (cmd_list.c), info and nodes (cmd_info.c); the run
 * demos are demo.h's.  Each returns the exit code.
 */
int cli_cmd_list(const struct kohaku_cli_opts *o);
/* cmd_info.c: kohaku examine, the whole report (schema CLI_SCHEMA) */
#define CLI_SCHEMA	1
int cli_cmd_examine(const struct kohaku_cli_opts *o);
int cli_cmd_info(const struct kohaku_cli_opts *o);
int cli_cmd_nodes(const struct kohaku_cli_opts *o);
/* cmd_dxa.c: dxa, the DXA units' slots */
int cli_cmd_dxa(const struct kohaku_cli_opts *o);
/* cmd_fw.c: fw load FILE, fw info */
int cli_cmd_fw(const struct kohaku_cli_opts *o, const char *sub,
	       const char *arg);

/*
 * progress.c: a one-line progress indicator on stderr while the device
 * works, drawn once a wait passes a second, only when stderr is a
 * terminal and not --quiet (cli_progress_init, from main); begin with a
 * label, units done of total (optional), end clears the line
 */
void cli_progress_init(bool quiet);
void cli_progress_begin(const char *label);
void cli_progress_units(unsigned int done, unsigned int total);
void cli_progress_end(void);

/* cmd_validate.c, cmd_sim.c, cmd_top.c; cli_validate_test_names: the
 * names --test takes, ", "-separated */
const char *cli_validate_test_names(void);
int cli_cmd_validate(const struct kohaku_cli_opts *o);
int cli_cmd_sim(const struct kohaku_cli_opts *o, const char *sub,
		const char *arg);
int cli_cmd_top(const struct kohaku_cli_opts *o);
/*
 * cmd_clocks.c: clocks [--mesh M], clocks set --mesh M ..., reset [--mesh M];
 * cli_clock_str: a mesh's clock as top shows it ("ship 300MHz"), "-" when
 * it cannot be read
 */
int cli_cmd_clocks(const struct kohaku_cli_opts *o);
int cli_cmd_clocks_set(const struct kohaku_cli_opts *o);
int cli_cmd_reset(const struct kohaku_cli_opts *o);
void cli_clock_str(kohaku_device *dev, unsigned int mesh, char *buf,
		   size_t len);
/*
 * cmd_cdi.c: cdi, a Container Device Interface spec of kohaku.ko's nodes;
 * writes -o FILE itself (whole or not at all), so main.c leaves it
 */
int cli_cmd_cdi(const struct kohaku_cli_opts *o);
/* cmd_artifact.c: run-artifact FILE, a compiler artifact in its arenas */
int cli_cmd_run_artifact(const struct kohaku_cli_opts *o, const char *file);

#endif /* KOHAKU_CLI_H */
