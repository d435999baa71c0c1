// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kh-trace: the device model's event trace (docs/model.md "Observability")
 * as a Chrome trace-event JSON timeline, for chrome://tracing or Perfetto.
 *
 *   kh-trace [-o OUT.json] [TRACE.txt]     convert (stdin when no file)
 *   kh-trace --demo MAP [-o OUT.json]      run one saxpy on every SX unit
 *                                          and one null instruction on
 *                                          every null unit of a built-in
 *                                          card, traced, and convert
 *
 * The text comes from ksim_trace_text(), libkohaku's
 * kohaku_sim_read(dev, "trace", ...) or kohaku_sim.ko's debugfs file
 * /sys/kernel/debug/kohaku_sim/cardN/trace.  One process per mesh (and
 * one for the host), one track per unit, link and orchestrator, and one
 * for the host's register accesses (events=reg): a unit's instructions
 * are spans from accept to retire, hops are one cycle on their link,
 * everything else is an instant.  Time is the mesh clock's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "json_put.h"
#include "ksim_int.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>
#include <kohaku/kh_units.h>

#define MAX_TRACKS	4096

struct track {
	int pid;
	char name[40];
	int tid;
	/* an open instruction span (units) */
	int open;
	unsigned long long open_at;
	char open_txn[8];
};

static struct track tracks[MAX_TRACKS];
static int n_tracks;
static double mhz = 300.0;
static FILE *out;
static struct json_object *events;
static int n_events;

/* as the kohaku CLI prints JSON (libruntime/cli/cli.h's CLI_JSON_FLAGS) */
#define KH_TRACE_JSON_FLAGS	(JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

static const char *const type_names[16] = {
	"MEM_RD_REQ", "MEM_WR_REQ", "MEM_RD_RESP", "MEM_WR_ACK",
	"MEM_WR_DATA", "CU_INST", "CU_SIGNAL", "CU_CTRL", "CU_DATA",
	"type 0x9", "type 0xa", "type 0xb", "type 0xc", "type 0xd",
	"type 0xe", "ERROR",
};

/* an event: a new object appended to the traceEvents array */
static struct json_object *emit(const char *ph)
{
	struct json_object *e = json_object_new_object();

	json_object_object_add(e, "ph", json_object_new_string(ph));
	json_object_array_add(events, e);
	n_events++;
	return e;
}

static double us(unsigned long long cycles)
{
	return cycles / mhz;
}

/* microseconds, printed with 4 decimals as before */
static struct json_object *us_json(double v)
{
	char b[48];

	snprintf(b, sizeof(b), "%.4f", v);
	return json_object_new_double_s(v, b);
}

static void add_int(struct json_object *e, const char *k, int v)
{
	json_object_object_add(e, k, json_object_new_int(v));
}

static void add_str(struct json_object *e, const char *k, const char *v)
{
	json_object_object_add(e, k, json_object_new_string(v));
}

static struct track *track(int pid, const char *name)
{
	struct json_object *e, *args;
	struct track *t;
	int i, tid = 1;

	for (i = 0; i < n_tracks; i++) {
		if (tracks[i].pid == pid && !strcmp(tracks[i].name, name))
			return &tracks[i];
		if (tracks[i].pid == pid)
			tid++;
	}
	if (n_tracks == MAX_TRACKS)
		return &tracks[MAX_TRACKS - 1];
	t = &tracks[n_tracks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (tid == 1) {
		char pn[32];

		e = emit("M");
		add_str(e, "name", "process_name");
		add_int(e, "pid", pid);
		snprintf(pn, sizeof(pn), "mesh %d", pid - 1);
		args = json_object_new_object();
		add_str(args, "name", pid ? pn : "host");
		json_object_object_add(e, "args", args);
	}
	e = emit("M");
	add_str(e, "name", "thread_name");
	add_int(e, "pid", pid);
	add_int(e, "tid", tid);
	args = json_object_new_object();
	add_str(args, "name", name);
	json_object_object_add(e, "args", args);
	return t;
}

/* args: the rest of the line's key=value words as strings */
static void emit_args(struct json_object *e, char *rest)
{
	struct json_object *args = json_object_new_object();
	char *w, *save = NULL;
	int k = 0;

	for (w = strtok_r(rest, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(w, '=');
		char key[16];

		if (eq) {
			*eq = 0;
			add_str(args, w, eq + 1);
		} else {
			snprintf(key, sizeof(key), "w%d", k++);
			add_str(args, key, w);
		}
	}
	json_object_object_add(e, "args", args);
}

static void span(struct track *t, const char *name, unsigned long long at,
		 unsigned long long cycles, char *rest)
{
	struct json_object *e = emit("X");

	add_int(e, "pid", t->pid);
	add_int(e, "tid", t->tid);
	json_object_object_add(e, "ts", us_json(us(at)));
	json_object_object_add(e, "dur", us_json(us(cycles ? cycles : 1)));
	add_str(e, "name", name);
	emit_args(e, rest);
}

static void instant(struct track *t, const char *name,
		    unsigned long long at, char *rest)
{
	struct json_object *e = emit("i");

	add_str(e, "s", "t");
	add_int(e, "pid", t->pid);
	add_int(e, "tid", t->tid);
	json_object_object_add(e, "ts", us_json(us(at)));
	add_str(e, "name", name);
	emit_args(e, rest);
}

static const char *field(const char *rest, const char *key, char *buf,
			 size_t len)
{
	const char *p = strstr(rest, key);

	buf[0] = 0;
	if (p) {
		size_t n;

		p += strlen(key);
		n = strcspn(p, " \n");
		snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
	}
	return buf;
}

static void line(char *l)
{
	unsigned long long cyc;
	char mesh[8], ev[24], where[40], name[64], tmp[32];
	struct track *t;
	int pid, off = 0;
	char *rest;

	if (l[0] == '#') {
		const char *m = strstr(l, "clock_mhz=");

		if (m)
			mhz = atof(m + 10);
		return;
	}
	if (sscanf(l, "%llu %7s %23s %n", &cyc, mesh, ev, &off) < 3 || !off)
		return;
	rest = l + off;
	pid = mesh[0] == '-' ? 0 : atoi(mesh) + 1;
	if (!strncmp(ev, "dma_", 4)) {
		t = track(0, "dma");
		span(t, ev, cyc, strtoull(field(rest, "cycles=", tmp, sizeof(tmp)),
					  NULL, 0), rest);
		return;
	}
	where[0] = 0;
	sscanf(rest, "%39s", where);
	if (!strcmp(ev, "xdma")) {
		/* "h2c desc ... cycles=N": a span; the rest instants */
		snprintf(name, sizeof(name), "xdma %s", where);
		t = track(0, name);
		name[0] = 0;
		sscanf(rest + strlen(where), "%63s", name);
		if (strstr(rest, "cycles="))
			span(t, name, cyc,
			     strtoull(field(rest, "cycles=", tmp, sizeof(tmp)),
				      NULL, 0), rest);
		else
			instant(t, name, cyc, rest);
		return;
	}
	if (!strcmp(ev, "hop")) {
		unsigned int type = strtoul(field(rest, "type=", tmp, sizeof(tmp)),
					    NULL, 0) & 15;

		snprintf(name, sizeof(name), "link %s", where);
		t = track(pid, name);
		snprintf(name, sizeof(name), "%s%s%s", type_names[type],
			 strstr(rest, " drop") ? " (dropped)" :
			 strstr(rest, " dup") ? " (duplicated)" : "",
			 strstr(rest, " tieoff") ? " (tie-off)" : "");
		span(t, name, cyc, 1, rest);
		return;
	}
	if (!strcmp(ev, "accept") || !strcmp(ev, "retire") ||
	    !strncmp(ev, "ctrl_", 5)) {
		snprintf(name, sizeof(name), "unit %s", where);
		t = track(pid, name);
		if (!strcmp(ev, "accept")) {
			t->open = 1;
			t->open_at = cyc;
			field(rest, "txn=", t->open_txn, sizeof(t->open_txn));
			return;
		}
		if (!strcmp(ev, "retire") && t->open) {
			snprintf(name, sizeof(name), "inst txn=%s", t->open_txn);
			t->open = 0;
			span(t, name, t->open_at, cyc + 1 - t->open_at, rest);
			return;
		}
		instant(t, ev, cyc, rest);
		return;
	}
	if (!strcmp(ev, "dispatch") || !strcmp(ev, "mbox") ||
	    !strcmp(ev, "signal")) {
		t = track(pid, "orchestrator");
		snprintf(name, sizeof(name), "%s %s", ev, where);
		instant(t, name, cyc, rest);
		return;
	}
	if (!strcmp(ev, "reg")) {
		/* "orch PROG_KICK write=0x1": the register and direction */
		char *eq;

		t = track(pid, "registers");
		snprintf(name, sizeof(name), "%s", rest);
		eq = strchr(name, '=');
		if (eq)
			*eq = 0;
		instant(t, name, cyc, rest);
		return;
	}
	if (!strcmp(ev, "violation")) {
		t = track(pid, "checker");
		snprintf(name, sizeof(name), "violation %s",
			 field(rest, "rule=", tmp, sizeof(tmp)));
		instant(t, name, cyc, rest);
		return;
	}
	/* drop, inject and anything newer */
	t = track(pid, ev);
	snprintf(name, sizeof(name), "%s %s", ev, where);
	instant(t, name, cyc, rest);
}

static int convert(FILE *in)
{
	char buf[512];
	int i;

	struct json_object *root = json_object_new_object();

	events = json_object_new_array();
	add_str(root, "displayTimeUnit", "ns");
	json_object_object_add(root, "traceEvents", events);
	while (fgets(buf, sizeof(buf), in))
		line(buf);
	/* spans still open: an instruction in flight at the end */
	for (i = 0; i < n_tracks; i++)
		if (tracks[i].open) {
			char rest[] = "in_flight=1";

			span(&tracks[i], "inst (in flight)", tracks[i].open_at, 1,
			     rest);
		}
	/* strict UTF-8: a trace's bytes (a unit's name) may be any */
	cli_json_put(json_object_to_json_string_ext(root, KH_TRACE_JSON_FLAGS),
		     out);
	fputc('\n', out);
	json_object_put(root);
	return 0;
}

/* ---- --demo ---- */

static void wr(struct ksim_card *c, u32 off, u64 v)
{
	ksim_write64(c, KH_MESH_BASE(0) + off, v);
}

static FILE *demo(const char *map)
{
	const char *d = ksim_builtin_desc(map);
	struct ksim_card *c;
	char err[256];
	FILE *tf = tmpfile();
	unsigned int x, y, k = 0, i;
	static char buf[1 << 16];
	u64 pos = 0;
	size_t n;

	if (!d) {
		fprintf(stderr, "kh-trace: no built-in card '%s'\n", map);
		exit(2);
	}
	if (!tf || ksim_card_create(d, &c, err, sizeof(err)) ||
	    ksim_command(c, "trace on size=1048576", err, sizeof(err))) {
		fprintf(stderr, "kh-trace: %s\n", err);
		exit(2);
	}
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++) {
			struct ksim_unit *u = ksim_unit_at(c, 0, x, y);
			struct kh_flit f;
			u16 t;

			if (!u)
				continue;
			t = ksim_unit_type_of(u)->cu_type;
			memset(&f, 0, sizeof(f));
			kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_INST, k, 1);
			if (t == KH_CU_SX) {
				kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
				kh_flit_set(&f, KH_SX_N, 64);
				kh_flit_set(&f, KH_SX_A, 0x40000000);
				kh_flit_set(&f, KH_SX_X_ADDR, 0x100000 + k * 0x1000);
				kh_flit_set(&f, KH_SX_Y_ADDR, 0x200000 + k * 0x1000);
			}
			for (i = 0; i < KH_FLIT_WORDS; i++)
				wr(c, KH_ORC_TX_FLIT(i), f.w[i]);
			wr(c, KH_ORC_TX_KICK, 1);
			k++;
		}
	ksim_run(c, 20000);
	while ((n = ksim_trace_text(c, &pos, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, tf);
	ksim_card_destroy(c);
	rewind(tf);
	return tf;
}

int main(int argc, char **argv)
{
	const char *outp = NULL, *inp = NULL, *map = NULL;
	FILE *in = stdin;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			outp = argv[++i];
		} else if (!strcmp(argv[i], "--demo") && i + 1 < argc) {
			map = argv[++i];
		} else if (!strcmp(argv[i], "--version")) {
			/* the tree's one version (tools.mk: kohaku.h's) */
			printf("kh-trace %s (kohaku %s)\n", KH_VERSION,
			       KH_VERSION);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: kh-trace [-o OUT.json] [TRACE.txt]\n"
					"       kh-trace --demo MAP [-o OUT.json]\n"
					"       kh-trace --version\n");
			return 2;
		} else {
			inp = argv[i];
		}
	}
	out = outp ? fopen(outp, "w") : stdout;
	if (!out) {
		perror(outp);
		return 1;
	}
	if (map)
		in = demo(map);
	else if (inp && strcmp(inp, "-"))
		in = fopen(inp, "r");
	if (!in) {
		perror(inp);
		return 1;
	}
	convert(in);
	if (outp)
		fclose(out);
	return 0;
}
