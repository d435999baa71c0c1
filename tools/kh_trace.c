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
 * one for the host), one track per unit, link and orchestrator: a unit's
 * instructions are spans from accept to retire, hops are one cycle on
 * their link, everything else is an instant.  Time is the mesh clock's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static int n_events;

static const char *const type_names[16] = {
	"MEM_RD_REQ", "MEM_WR_REQ", "MEM_RD_RESP", "MEM_WR_ACK",
	"MEM_WR_DATA", "CU_INST", "CU_SIGNAL", "CU_CTRL", "CU_DATA",
	"type 0x9", "type 0xa", "type 0xb", "type 0xc", "type 0xd",
	"type 0xe", "ERROR",
};

static void emit_sep(void)
{
	fputs(n_events++ ? ",\n" : "\n", out);
}

static double us(unsigned long long cycles)
{
	return cycles / mhz;
}

static void json_str(const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, out);
	}
	fputc('"', out);
}

static struct track *track(int pid, const char *name)
{
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
		emit_sep();
		fprintf(out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":",
			pid);
		if (pid)
			fprintf(out, "\"mesh %d\"}}", pid - 1);
		else
			fputs("\"host\"}}", out);
	}
	emit_sep();
	fprintf(out, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
		pid, tid);
	json_str(name);
	fputs("}}", out);
	return t;
}

/* args: the rest of the line's key=value words as strings */
static void emit_args(char *rest)
{
	char *w, *save = NULL;
	int first = 1, k = 0;

	fputs(",\"args\":{", out);
	for (w = strtok_r(rest, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		char *eq = strchr(w, '=');
		char key[16];

		if (!first)
			fputc(',', out);
		first = 0;
		if (eq) {
			*eq = 0;
			json_str(w);
			fputc(':', out);
			json_str(eq + 1);
		} else {
			snprintf(key, sizeof(key), "w%d", k++);
			json_str(key);
			fputc(':', out);
			json_str(w);
		}
	}
	fputc('}', out);
}

static void span(struct track *t, const char *name, unsigned long long at,
		 unsigned long long cycles, char *rest)
{
	emit_sep();
	fprintf(out, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f,\"name\":",
		t->pid, t->tid, us(at), us(cycles ? cycles : 1));
	json_str(name);
	emit_args(rest);
	fputc('}', out);
}

static void instant(struct track *t, const char *name,
		    unsigned long long at, char *rest)
{
	emit_sep();
	fprintf(out, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d,\"ts\":%.4f,\"name\":",
		t->pid, t->tid, us(at));
	json_str(name);
	emit_args(rest);
	fputc('}', out);
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

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	while (fgets(buf, sizeof(buf), in))
		line(buf);
	/* spans still open: an instruction in flight at the end */
	for (i = 0; i < n_tracks; i++)
		if (tracks[i].open) {
			char rest[] = "in_flight=1";

			span(&tracks[i], "inst (in flight)", tracks[i].open_at, 1,
			     rest);
		}
	fputs("\n]}\n", out);
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
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: kh-trace [-o OUT.json] [TRACE.txt]\n"
					"       kh-trace --demo MAP [-o OUT.json]\n");
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
