// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What several kohaku commands print, as text or as JSON (--json, built
 * with json-c): the node table, with the device line above it or as a
 * JSON array, and the error object of a failure under --json.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json_put.h"
#include "kohaku/kh_units.h"

void cli_json_print(struct json_object *j)
{
	cli_json_put(json_object_to_json_string_ext(j, CLI_JSON_FLAGS), stdout);
	putc('\n', stdout);
	json_object_put(j);
}

struct json_object *cli_json_hex64(uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "0x%016llx", (unsigned long long)v);
	return json_object_new_string(b);
}

struct json_object *cli_json_fixed(double v, int decimals)
{
	char b[64];

	snprintf(b, sizeof(b), "%.*f", decimals, v);
	return json_object_new_double_s(v, b);
}

struct json_object *cli_json_float(float v)
{
	char b[32];

	snprintf(b, sizeof(b), "%.9g", (double)v);
	return json_object_new_double_s(v, b);
}

struct json_object *cli_json_nodes(const struct drm_kohaku_node *nd,
				   unsigned int n)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct json_object *j = json_object_new_object();
		char tn[16];

		kohaku_cu_type_name(nd[i].cu_type, tn, sizeof(tn));
		json_object_object_add(j, "mesh", json_object_new_int64(nd[i].mesh));
		json_object_object_add(j, "x", json_object_new_int64(nd[i].x));
		json_object_object_add(j, "y", json_object_new_int64(nd[i].y));
		json_object_object_add(j, "cu_type",
				       json_object_new_int64(nd[i].cu_type));
		json_object_object_add(j, "type", json_object_new_string(tn));
		json_object_object_add(j, "cu_version",
				       json_object_new_int64(nd[i].cu_version));
		json_object_object_add(j, "n_buffers",
				       json_object_new_int64(nd[i].n_buffers));
		json_object_object_add(j, "inst_depth",
				       json_object_new_int64(nd[i].inst_depth));
		json_object_object_add(j, "inst_space",
				       json_object_new_int64(nd[i].inst_space));
		json_object_object_add(j, "busy", json_object_new_int64(nd[i].busy));
		json_object_object_add(j, "retired",
				       json_object_new_int64(nd[i].retired));
		json_object_object_add(j, "busy_cycles",
				       json_object_new_int64(nd[i].busy_cycles));
		json_object_object_add(j, "flags", json_object_new_int64(nd[i].flags));
		json_object_object_add(j, "caps_reg", cli_json_hex64(nd[i].caps_reg));
		json_object_object_add(j, "dbg", cli_json_hex64(nd[i].dbg));
		json_object_array_add(a, j);
	}
	return a;
}

/* ---- errors ---- */

static bool cli_err_json;
static bool cli_err_done;
static const char *cli_err_cmd = "";
static char cli_err_msg[1024];

void cli_json_errors(bool json, const char *cmd)
{
	cli_err_json = json;
	if (cmd)
		cli_err_cmd = cmd;
}

void cli_json_started(void)
{
	cli_err_done = true;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cli_err_msg, sizeof(cli_err_msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", CLI_PROG, cli_err_msg);
}

int cli_json_error_exit(int ret)
{
	struct json_object *j;

	if (!cli_err_json || cli_err_done || ret == EXIT_OK || !cli_err_msg[0])
		return ret;
	cli_err_done = true;
	j = json_object_new_object();
	json_object_object_add(j, "error", json_object_new_string(cli_err_msg));
	json_object_object_add(j, "exit", json_object_new_int(ret));
	json_object_object_add(j, "command", cli_err_cmd[0] ?
			       json_object_new_string(cli_err_cmd) : NULL);
	cli_json_print(j);
	fflush(stdout);
	return ret;
}

/*
 * A write to stdout that failed (a full disk, /dev/full, a pipe whose
 * reader left while SIGPIPE is ignored) leaves the stream's error flag
 * and nothing else: printf's result is checked nowhere, and exit()
 * flushes and closes stdout without a word.  So this is the end of every
 * command: flush, close (on NFS or a quota the error may only come with
 * the close of -o's file), and a failure anywhere on the way said and
 * made the exit status, so that a truncated report never exits 0.
 */
static int cli_out_errno;

bool cli_output_flush(void)
{
	if (fflush(stdout) == EOF && !cli_out_errno)
		cli_out_errno = errno;
	return !ferror(stdout);
}

int cli_output_close(const char *path, int ret)
{
	const char *why = NULL;

	if (!cli_output_flush())
		/* an earlier write's errno when it was caught (top) */
		why = cli_out_errno ? strerror(cli_out_errno) :
		      "a write was refused";
	if (fclose(stdout) == EOF && !why)
		why = strerror(errno);
	if (!why)
		return ret;
	/* stdout is lost: no JSON error object, the message on stderr */
	cli_err_done = true;
	if (path)
		cli_error("-o/--output: writing '%s' failed: %s; its contents "
			  "are incomplete", path, why);
	else
		cli_error("writing the output failed: %s; what was printed is "
			  "incomplete", why);
	return ret == EXIT_OK ? EXIT_USAGE : ret;
}

static void type_str(uint16_t t, char *buf, size_t len)
{
	char n[16];

	kohaku_cu_type_name(t, n, sizeof(n));
	if (t == KH_CU_NULL || n[0] == '0')
		snprintf(buf, len, "0x%04x %s", t, n);
	else
		snprintf(buf, len, "0x%04x '%s'", t, n);
}

static void print_nodes(const struct drm_kohaku_node *nd, unsigned int n)
{
	unsigned int i;

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

void cli_print_device_nodes(const kohaku_device *dev,
			    const struct drm_kohaku_node *nd, unsigned int n,
			    const char *note)
{
	printf("%s: %u node%s%s\n", kohaku_device_path(dev), n,
	       n == 1 ? "" : "s", note);
	print_nodes(nd, n);
}
