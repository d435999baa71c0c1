// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run cpu-demo: on every cpu unit (KohakuAccel's rv_pe, or the
 * --node ones) an RV32I program, assembled with libkohaku's encoders,
 * loaded by the job's data (image into the instruction window, two
 * addresses into the scratchpad) and kicked with the element count as the
 * kick's argument, all submitted before the first wait:
 *
 *   out[i] = in[0] + ... + in[i]        (32-bit, wrapping), i < n
 *   c = rotl(c, 5) ^ out[i]             the checksum, c = 0 first
 *   out[n] = c, out[n + 1] = COREID
 *   store to CTL_FLUSH, a0 = c, ECALL
 *
 * The program drops the unit's L1 first (a line from an earlier program
 * would be stale: the L1 is not coherent) and flushes it last (a halt
 * does not write it back).  Every output word is checked against the
 * same sums in C, and the words past them untouched; CU_DBG, read live,
 * gives the instructions retired (checked against the count the
 * program's path takes) and the cycles.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "kohaku/kh_cpu.h"
#include "kohaku/kh_units.h"

#define CD_N_DEFAULT	1024
#define CD_N_MAX	65536		/* 256 KiB: seconds on the model */
#define CD_TAIL		8		/* checksum, coreid, then guard */
#define CD_GUARD	0xa5a5a5a5u
#define CD_PROG_WORDS	64
#define CD_ARG_GRANULE	0		/* where the two addresses go */

/* one cpu unit's run */
struct kohaku_cli_cpu_run {
	const struct drm_kohaku_node *node;
	uint32_t hin, hout;
	uint64_t ain, aout;
	/* the program and what the job sends with it */
	uint32_t prog[CD_PROG_WORDS];
	struct kohaku_rv_asm a;
	unsigned int loop, done;	/* word indices: the loop, after it */
	uint32_t spad[KH_CPU_GRANULE_WORDS];
	struct kohaku_data data[2];
	struct kohaku_inst kick;
	uint64_t job;
	bool submitted;
	double t0, t1;
	struct kohaku_job_status st;
	unsigned long bad, first_bad;
	bool guard_ok;
	uint32_t chk;
	uint32_t retired, cycles;
	bool dbg_known;
	int exit;
	char why[KOHAKU_ERRMSG_MAX];
};

static double cd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the input: a multiplicative hash, so sums wrap and every bit moves */
static uint32_t cd_in(unsigned long i, unsigned int u)
{
	uint32_t x = (uint32_t)(i + 1) * 2654435761u + u * 40503u;

	return x ^ (x >> 13);
}

static uint32_t cd_fold(uint32_t c, uint32_t v)
{
	return ((c << 5) | (c >> 27)) ^ v;
}

/*
 * The program (the comment at the top); s0 the control words, s1 the
 * arguments, a1 in, a2 out, a3 the count, a4 the sum, a5 the checksum.
 */
static int cd_assemble(struct kohaku_cli_cpu_run *v)
{
	struct kohaku_rv_asm *a = &v->a;
	int loop, done;

	kohaku_rv_asm_init(a, v->prog, CD_PROG_WORDS, 0);
	loop = kohaku_rv_asm_label(a);
	done = kohaku_rv_asm_label(a);
	kohaku_rv_asm_li(a, KOHAKU_RV_S0, KH_CPU_CTL_BASE);
	kohaku_rv_asm_li(a, KOHAKU_RV_S1, KH_CPU_SPAD_BASE +
			 CD_ARG_GRANULE * KH_CPU_GRANULE_BYTES);
	kohaku_rv_sw(a, KOHAKU_RV_ZERO, KOHAKU_RV_S0, KH_CPU_CTL_INVAL);
	kohaku_rv_lw(a, KOHAKU_RV_A1, KOHAKU_RV_S1, 0);
	kohaku_rv_lw(a, KOHAKU_RV_A2, KOHAKU_RV_S1, 4);
	kohaku_rv_lw(a, KOHAKU_RV_A3, KOHAKU_RV_S0, KH_CPU_CTL_ARG);
	kohaku_rv_addi(a, KOHAKU_RV_A4, KOHAKU_RV_ZERO, 0);
	kohaku_rv_addi(a, KOHAKU_RV_A5, KOHAKU_RV_ZERO, 0);
	kohaku_rv_asm_branch(a, KOHAKU_RV_EQ, KOHAKU_RV_A3, KOHAKU_RV_ZERO,
			     done);
	v->loop = a->n;
	kohaku_rv_asm_bind(a, loop);
	kohaku_rv_lw(a, KOHAKU_RV_T0, KOHAKU_RV_A1, 0);
	kohaku_rv_add(a, KOHAKU_RV_A4, KOHAKU_RV_A4, KOHAKU_RV_T0);
	kohaku_rv_sw(a, KOHAKU_RV_A4, KOHAKU_RV_A2, 0);
	kohaku_rv_slli(a, KOHAKU_RV_T0, KOHAKU_RV_A5, 5);
	kohaku_rv_srli(a, KOHAKU_RV_T1, KOHAKU_RV_A5, 27);
	kohaku_rv_or(a, KOHAKU_RV_A5, KOHAKU_RV_T0, KOHAKU_RV_T1);
	kohaku_rv_xor(a, KOHAKU_RV_A5, KOHAKU_RV_A5, KOHAKU_RV_A4);
	kohaku_rv_addi(a, KOHAKU_RV_A1, KOHAKU_RV_A1, 4);
	kohaku_rv_addi(a, KOHAKU_RV_A2, KOHAKU_RV_A2, 4);
	kohaku_rv_addi(a, KOHAKU_RV_A3, KOHAKU_RV_A3, -1);
	kohaku_rv_asm_branch(a, KOHAKU_RV_NE, KOHAKU_RV_A3, KOHAKU_RV_ZERO,
			     loop);
	v->done = a->n;
	kohaku_rv_asm_bind(a, done);
	kohaku_rv_sw(a, KOHAKU_RV_A5, KOHAKU_RV_A2, 0);
	kohaku_rv_lw(a, KOHAKU_RV_T0, KOHAKU_RV_S0, KH_CPU_CTL_COREID);
	kohaku_rv_sw(a, KOHAKU_RV_T0, KOHAKU_RV_A2, 4);
	kohaku_rv_addi(a, KOHAKU_RV_A0, KOHAKU_RV_A5, 0);
	kohaku_rv_sw(a, KOHAKU_RV_ZERO, KOHAKU_RV_S0, KH_CPU_CTL_FLUSH);
	kohaku_rv_ecall(a);
	return kohaku_rv_asm_image(a, &v->data[0]);
}

/* the instructions the program retires for n elements */
static uint32_t cd_retired(const struct kohaku_cli_cpu_run *v,
			   unsigned long n)
{
	return v->loop + (uint32_t)n * (v->done - v->loop) +
	       (v->a.n - v->done);
}

static void cd_fail(kohaku_device *dev, struct kohaku_cli_cpu_run *v, int r)
{
	snprintf(v->why, sizeof(v->why), "%s", kohaku_last_error(dev));
	v->exit = r == -EINVAL ? EXIT_USAGE : EXIT_DEVICE;
}

/* the BOs: the input, and the output with its tail of guard words */
static int cd_bufs(kohaku_device *dev, struct kohaku_cli_cpu_run *v,
		   unsigned long n, unsigned int ui)
{
	size_t in_b = n ? n * 4 : 4, out_b = (n + CD_TAIL) * 4;
	uint32_t *in = malloc(in_b), *out = malloc(out_b);
	unsigned long i;
	int r = -ENOMEM;

	if (in && out) {
		for (i = 0; i < n; i++)
			in[i] = cd_in(i, ui);
		for (i = 0; i < n + CD_TAIL; i++)
			out[i] = CD_GUARD;
		r = kohaku_bo_create(dev, v->node->mesh, in_b, &v->hin, &v->ain);
		if (!r)
			r = kohaku_bo_create(dev, v->node->mesh, out_b, &v->hout,
					     &v->aout);
		if (!r && n)
			r = kohaku_bo_write(dev, v->hin, 0, in, n * 4);
		if (!r)
			r = kohaku_bo_write(dev, v->hout, 0, out, out_b);
	}
	free(in);
	free(out);
	return r;
}

/* the arguments: the two BOs as the cpu addresses them */
static int cd_args(struct kohaku_cli_cpu_run *v, unsigned long n)
{
	uint32_t cin, cout;
	int r;

	r = kohaku_cpu_dram_addr(v->node->mesh, v->ain, n * 4, &cin);
	if (!r)
		r = kohaku_cpu_dram_addr(v->node->mesh, v->aout,
					 (n + CD_TAIL) * 4, &cout);
	if (r) {
		snprintf(v->why, sizeof(v->why), "the buffers are out of the "
			 "cpu's reach (%s): it addresses the first 2 GiB of its "
			 "own mesh", kohaku_strerror(r));
		return r;
	}
	memset(v->spad, 0, sizeof(v->spad));
	v->spad[0] = cin;
	v->spad[1] = cout;
	return kohaku_cpu_data(&v->data[1], KH_CPU_BUF_SPAD, CD_ARG_GRANULE,
			       v->spad, KH_CPU_GRANULE_WORDS);
}

static void cd_setup(kohaku_device *dev, const struct kohaku_cli_opts *o,
		     struct kohaku_cli_cpu_run *v, unsigned long n,
		     unsigned int ui)
{
	struct kohaku_program p;
	int r;

	r = cd_bufs(dev, v, n, ui);
	if (r < 0) {
		cd_fail(dev, v, r);
		return;
	}
	if (cd_assemble(v) < 0) {
		snprintf(v->why, sizeof(v->why), "cannot assemble the program: "
			 "%s", kohaku_rv_asm_error(&v->a));
		v->exit = EXIT_USAGE;
		return;
	}
	if (cd_args(v, n) < 0 ||
	    kohaku_inst_cpu_kick(&v->kick, v->a.origin, (uint32_t)n) < 0) {
		if (!v->why[0])
			snprintf(v->why, sizeof(v->why), "cannot build the job");
		v->exit = EXIT_USAGE;
		return;
	}
	memset(&p, 0, sizeof(p));
	p.mesh = v->node->mesh;
	p.x = v->node->x;
	p.y = v->node->y;
	p.txn = (uint8_t)ui;
	p.n_insts = 1;
	p.insts = &v->kick;
	p.data = v->data;
	p.n_data = 2;
	v->t0 = cd_now();
	r = kohaku_submit(dev, &p, 1, o->timeout_ms, &v->job);
	if (r < 0) {
		cd_fail(dev, v, r);
		return;
	}
	v->submitted = true;
}

/* every output word against the sums in C, and the guard */
static void cd_compare(struct kohaku_cli_cpu_run *v, const uint32_t *got,
		       unsigned long n, unsigned int ui)
{
	uint32_t sum = 0, chk = 0, coreid, want = 0, bad_got = 0;
	unsigned long i;

	coreid = (uint32_t)((v->node->y & 0xf) << 4 | (v->node->x & 0xf));
	for (i = 0; i < n + 2; i++) {
		if (i < n) {
			sum += cd_in(i, ui);
			chk = cd_fold(chk, sum);
		}
		if (got[i] == (i < n ? sum : i == n ? chk : coreid))
			continue;
		if (!v->bad++) {
			v->first_bad = i;
			bad_got = got[i];
			want = i < n ? sum : i == n ? chk : coreid;
		}
	}
	v->chk = chk;
	v->guard_ok = true;
	for (i = n + 2; i < n + CD_TAIL; i++)
		if (got[i] != CD_GUARD)
			v->guard_ok = false;
	if (v->bad) {
		i = v->first_bad;
		snprintf(v->why, sizeof(v->why), "%lu of %lu words differ from "
			 "the host; first %s = 0x%08x, expected 0x%08x", v->bad,
			 n + 2, i < n ? "a prefix sum" : i == n ? "the checksum" :
			 "COREID", bad_got, want);
		v->exit = EXIT_WRONG;
	} else if (!v->guard_ok) {
		snprintf(v->why, sizeof(v->why), "the %u words past the result "
			 "were changed", CD_TAIL - 2);
		v->exit = EXIT_WRONG;
	}
}

static void cd_finish(kohaku_device *dev, const struct kohaku_cli_opts *o,
		      struct kohaku_cli_cpu_run *v, unsigned long n,
		      unsigned int ui)
{
	uint32_t *got;
	int r;

	r = cli_wait_final(dev, v->job, o->timeout_ms, &v->st);
	v->t1 = cd_now();
	if (r < 0) {
		cd_fail(dev, v, r);
		v->exit = EXIT_DEVICE;
		return;
	}
	if (v->st.status != KOHAKU_JOB_DONE) {
		char d[512];

		/* a fault's code is the faulting PC (EBREAK's: a0) */
		kohaku_job_describe(&v->st, d, sizeof(d));
		snprintf(v->why, sizeof(v->why), "%s%s", d,
			 v->st.status == KOHAKU_JOB_FAULT ? " (the cpu's code "
			 "is the faulting pc)" : "");
		v->exit = EXIT_DEVICE;
		return;
	}
	got = malloc((n + CD_TAIL) * 4);
	r = got ? kohaku_bo_read(dev, v->hout, 0, got, (n + CD_TAIL) * 4) :
		  -ENOMEM;
	if (r < 0) {
		free(got);
		cd_fail(dev, v, r);
		v->exit = EXIT_DEVICE;
		return;
	}
	cd_compare(v, got, n, ui);
	free(got);
}

/* CU_DBG of each unit, read live: {instructions retired, cycles} */
static void cd_dbg(kohaku_device *dev, struct kohaku_cli_cpu_run *runs,
		   unsigned int n_runs, unsigned long n)
{
	struct drm_kohaku_node *nd = NULL;
	unsigned int cnt = 0, i, j;

	if (kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &nd, &cnt) < 0)
		return;
	for (i = 0; i < n_runs; i++) {
		struct kohaku_cli_cpu_run *v = &runs[i];

		for (j = 0; j < cnt; j++)
			if (nd[j].mesh == v->node->mesh && nd[j].x == v->node->x &&
			    nd[j].y == v->node->y && !v->exit && v->submitted) {
				v->retired = KH_CPU_DBG_RETIRED(nd[j].dbg);
				v->cycles = KH_CPU_DBG_CYCLES(nd[j].dbg);
				v->dbg_known = true;
			}
		if (v->dbg_known && v->retired != cd_retired(v, n)) {
			snprintf(v->why, sizeof(v->why), "CU_DBG counts %u "
				 "instructions retired; the program's path is %u",
				 v->retired, cd_retired(v, n));
			v->exit = EXIT_WRONG;
		}
	}
	free(nd);
}

static void cd_print_json(const struct kohaku_cli_opts *o,
			  const struct kohaku_cli_cpu_run *v)
{
	struct json_object *j = cli_json_unit(v->node, !v->exit);
	char chk[16];

	snprintf(chk, sizeof(chk), "0x%08x", v->chk);
	cli_json_checked(j, v->submitted, v->st.status, v->bad,
			 v->guard_ok);
	json_object_object_add(j, "checksum", json_object_new_string(chk));
	json_object_object_add(j, "instructions", v->dbg_known ?
			       json_object_new_int64(v->retired) : NULL);
	json_object_object_add(j, "cycles", v->dbg_known ?
			       json_object_new_int64(v->cycles) : NULL);
	json_object_object_add(j, "wall_ms", cli_json_double(
		v->submitted ? (v->t1 - v->t0) * 1e3 : 0.0, "%.3f"));
	json_object_object_add(j, "device_ns",
			       json_object_new_uint64(v->st.device_ns));
	json_object_object_add(j, "error", json_object_new_string(v->why));
	cli_report_unit(o, j);
}

static void cd_print_text(const struct kohaku_cli_cpu_run *v, unsigned long n)
{
	const struct drm_kohaku_node *q = v->node;
	double wall_ms = v->submitted ? (v->t1 - v->t0) * 1e3 : 0;
	double dev_us = v->st.device_ns / 1e3;

	if (!v->exit) {
		printf("cpu mesh %u (%u,%u): ok, %lu/%lu prefix sums, the "
		       "checksum 0x%08x and COREID match the host, memory past "
		       "them untouched; ", q->mesh, q->x, q->y, n, n, v->chk);
		if (v->dbg_known)
			printf("%u instructions in %u cycles (CU_DBG)",
			       v->retired, v->cycles);
		else
			printf("CU_DBG unknown");
		printf("; wall %.3f ms, device %.3f us\n", wall_ms, dev_us);
	} else if (v->submitted) {
		printf("cpu mesh %u (%u,%u): FAILED: %s; wall %.3f ms, device "
		       "%.3f us\n", q->mesh, q->x, q->y, v->why, wall_ms, dev_us);
	} else {
		printf("cpu mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x, q->y,
		       v->why);
	}
}

/* no cpu unit: said on stderr (and as the JSON's error), EXIT_USAGE */
int cli_cmd_run_cpu(const struct kohaku_cli_opts *o)
{
	struct kohaku_cli_demo_units d;
	struct kohaku_cli_cpu_run *runs;
	unsigned int n_runs, i;
	unsigned long n = o->n_given ? o->n : CD_N_DEFAULT;
	kohaku_device *dev;
	int ret;

	if (n > CD_N_MAX)
		cli_die_usage("run cpu-demo: --n %lu is more than %u words", n,
			      CD_N_MAX);
	ret = cli_demo_open(o, &d, KH_CU_RV, "run cpu-demo", sizeof(*runs),
			    offsetof(struct kohaku_cli_cpu_run, node));
	dev = d.dev;
	n_runs = d.n_sel;
	runs = d.runs;
	if (ret)
		goto out;
	if (!o->json)
		printf("\ncpu-demo: inclusive prefix sums and a checksum of %lu "
		       "32-bit words, by an RV32I\n  program on %u cpu unit%s "
		       "(image and arguments sent as the job's data,\n  the "
		       "count as the kick's argument; checked against the same "
		       "sums in C)\n", n, n_runs, n_runs == 1 ? "" : "s");
	if (!n_runs) {
		ret = cli_demo_none(o, "cpu-demo", "cpu", KH_CU_RV,
				    "try --map cpu_2x1 (the cpu unit is KohakuAccel's rv_pe)");
		goto out;
	}
	/* submit everything first, so the units run side by side */
	for (i = 0; i < n_runs; i++)
		cd_setup(dev, o, &runs[i], n, i);
	for (i = 0; i < n_runs; i++)
		if (runs[i].submitted)
			cd_finish(dev, o, &runs[i], n, i);
	cd_dbg(dev, runs, n_runs, n);

	cli_report_set(o, "n", json_object_new_uint64(n));
	cli_report_set(o, "units", NULL);
	for (i = 0; i < n_runs; i++) {
		if (runs[i].exit > ret || (ret == EXIT_OK && runs[i].exit))
			ret = runs[i].exit;
		if (o->json)
			cd_print_json(o, &runs[i]);
		else
			cd_print_text(&runs[i], n);
	}
	cli_print_verdict(o, "cpu-demo", ret, "every word matches");
	for (i = 0; i < n_runs; i++) {
		if (runs[i].hin)
			kohaku_bo_free(dev, runs[i].hin);
		if (runs[i].hout)
			kohaku_bo_free(dev, runs[i].hout);
	}
out:
	cli_demo_close(&d);
	return ret;
}
