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
 * The program drops the unit's L1 first and flushes it last, as a
 * program that stands on its own does (the driver's flush after every job
 * does both too: docs/spec/cpu.md "The driver's L1 flush").  Every output
 * word is checked against the same sums in C, and the words past them
 * untouched; CU_DBG, read live (the program's: the driver reads it before
 * its stub's kick), gives the instructions retired (checked against the
 * count the program's path takes) and the cycles.  The rest of the run is
 * demo.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "kohaku-asm.h"
#include "kohaku/kh_cpu.h"
#include "kohaku/kh_units.h"

#define CD_N_DEFAULT	1024
#define CD_N_MAX	65536		/* 256 KiB: seconds on the model */
#define CD_TAIL		8		/* checksum, coreid, then guard */
#define CD_PROG_WORDS	64
#define CD_ARG_GRANULE	0		/* where the two addresses go */

enum { BO_IN, BO_OUT };

/* a unit's program, what the job sends with it, and the checksum */
struct kohaku_cli_cpu {
	uint32_t prog[CD_PROG_WORDS];
	struct kohaku_rv_asm a;
	unsigned int loop, done;	/* word indices: the loop, after it */
	uint32_t spad[KH_CPU_GRANULE_WORDS];
	struct kohaku_data data[2];
	struct kohaku_inst kick;
	uint32_t chk;
};

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
static int cd_assemble(struct kohaku_cli_cpu *v)
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
static uint32_t cd_retired(const struct kohaku_cli_cpu *v,
			   unsigned long n)
{
	return v->loop + (uint32_t)n * (v->done - v->loop) +
	       (v->a.n - v->done);
}

static void cd_check_params(const struct kohaku_cli_demo *d,
			    const struct kohaku_cli_demo_params *p)
{
	if (p->n > CD_N_MAX)
		cli_die_usage("run cpu-demo: --n %lu is more than %u words", p->n,
			      CD_N_MAX);
}

static void cd_intro(const struct kohaku_cli_demo_ctx *c, unsigned int n_units)
{
	printf("\ncpu-demo: inclusive prefix sums and a checksum of %lu "
	       "32-bit words, by an RV32I\n  program on %u cpu unit%s "
	       "(image and arguments sent as the job's data,\n  the "
	       "count as the kick's argument; checked against the same "
	       "sums in C)\n", c->p.n, n_units, n_units == 1 ? "" : "s");
}

/* the buffers: the input, and the output with its tail of guard words */
static int cd_bufs(const struct kohaku_cli_demo_ctx *c,
		   struct kohaku_cli_run *r, unsigned long n)
{
	size_t in_b = n ? n * 4 : 4, out_b = (n + CD_TAIL) * 4;
	uint32_t *in = malloc(in_b);
	void *out = malloc(out_b);
	unsigned long i;
	int err;

	if (!in || !out) {
		err = cli_run_failed(r, EXIT_DEVICE, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		in[i] = cd_in(i, r->index);
	memset(out, CLI_GUARD_BYTE, out_b);
	err = cli_run_bo(c, r, in_b);
	if (err >= 0)
		err = cli_run_bo(c, r, out_b);
	if (err >= 0)
		err = n ? cli_run_write(c, r, BO_IN, in, n * 4) : 0;
	if (!err)
		err = cli_run_write(c, r, BO_OUT, out, out_b);
out:
	free(in);
	free(out);
	return err;
}

/* the arguments: the two buffers as the cpu addresses them */
static int cd_args(struct kohaku_cli_run *r, unsigned long n)
{
	struct kohaku_cli_cpu *v = r->priv;
	uint32_t cin, cout;
	int err;

	err = kohaku_cpu_dram_addr(r->node->mesh, r->addr[BO_IN], n * 4, &cin);
	if (!err)
		err = kohaku_cpu_dram_addr(r->node->mesh, r->addr[BO_OUT],
					   (n + CD_TAIL) * 4, &cout);
	if (err)
		return cli_run_failed(r, EXIT_USAGE, "the buffers are out of the "
				      "cpu's reach (%s): it addresses the first "
				      "2 GiB of its own mesh", kohaku_strerror(err));
	v->spad[0] = cin;
	v->spad[1] = cout;
	return kohaku_cpu_data(&v->data[1], KH_CPU_BUF_SPAD, CD_ARG_GRANULE,
			       v->spad, KH_CPU_GRANULE_WORDS);
}

static int cd_setup(const struct kohaku_cli_demo_ctx *c,
		    struct kohaku_cli_run *r, struct kohaku_program *p)
{
	struct kohaku_cli_cpu *v = r->priv;
	unsigned long n = c->p.n;

	if (cd_bufs(c, r, n) < 0)
		return -1;
	if (cd_assemble(v) < 0)
		return cli_run_failed(r, EXIT_USAGE, "cannot assemble the "
				      "program: %s", kohaku_rv_asm_error(&v->a));
	if (cd_args(r, n) < 0 ||
	    kohaku_inst_cpu_kick(&v->kick, v->a.origin, (uint32_t)n) < 0) {
		if (!r->why[0])
			snprintf(r->why, sizeof(r->why), "cannot build the job");
		r->exit = EXIT_USAGE;
		return -1;
	}
	p->n_insts = 1;
	p->insts = &v->kick;
	p->data = v->data;
	p->n_data = 2;
	return 0;
}

/* a fault's code is the faulting PC (EBREAK's: a0) */
static void cd_describe(const struct kohaku_job_status *st, char *why,
			size_t len)
{
	char d[512];

	kohaku_job_describe(st, sizeof(*st), d, sizeof(d));
	snprintf(why, len, "%s%s", d, st->status == KOHAKU_JOB_FAULT ?
		 " (the cpu's code is the faulting pc)" : "");
}

/* every output word against the sums in C, and the guard */
static void cd_check(const struct kohaku_cli_demo_ctx *c,
		     struct kohaku_cli_run *r)
{
	struct kohaku_cli_cpu *v = r->priv;
	unsigned long n = c->p.n, i;
	uint32_t sum = 0, chk = 0, coreid, want = 0, bad_got = 0;
	uint32_t *got = cli_run_read(c, r, BO_OUT, (n + CD_TAIL) * 4);

	if (!got)
		return;
	coreid = (uint32_t)((r->node->y & 0xf) << 4 | (r->node->x & 0xf));
	for (i = 0; i < n + 2; i++) {
		if (i < n) {
			sum += cd_in(i, r->index);
			chk = cd_fold(chk, sum);
		}
		if (got[i] == (i < n ? sum : i == n ? chk : coreid))
			continue;
		if (!r->bad) {
			bad_got = got[i];
			want = i < n ? sum : i == n ? chk : coreid;
		}
		cli_run_mismatch(r, i);
	}
	v->chk = chk;
	r->guard_ok = cli_guard_ok(got + n + 2, (CD_TAIL - 2) * 4);
	free(got);
	if (r->bad) {
		i = r->first_bad;
		cli_run_failed(r, EXIT_WRONG, "%lu of %lu words differ from the "
			       "host; first %s = 0x%08x, expected 0x%08x", r->bad,
			       n + 2, i < n ? "a prefix sum" : i == n ?
			       "the checksum" : "COREID", bad_got, want);
	} else if (!r->guard_ok) {
		cli_run_failed(r, EXIT_WRONG, "the %u words past the result were "
			       "changed", CD_TAIL - 2);
	}
}

/* CU_DBG: {instructions retired, cycles}; the first against the path */
static void cd_check_dbg(const struct kohaku_cli_demo_ctx *c,
			 struct kohaku_cli_run *r)
{
	uint32_t retired = KH_CPU_DBG_RETIRED(r->dbg);

	if (r->dbg_known && retired != cd_retired(r->priv, c->p.n))
		cli_run_failed(r, EXIT_WRONG, "CU_DBG counts %u instructions "
			       "retired; the program's path is %u", retired,
			       cd_retired(r->priv, c->p.n));
}

static void cd_report(const struct kohaku_cli_demo_ctx *c,
		      struct json_object *rep)
{
	json_object_object_add(rep, "n", json_object_new_uint64(c->p.n));
}

static void cd_print_ok(const struct kohaku_cli_demo_ctx *c,
			const struct kohaku_cli_run *r)
{
	const struct kohaku_cli_cpu *v = r->priv;

	printf(": ok, %lu/%lu prefix sums, the checksum 0x%08x and COREID "
	       "match the host, memory past them untouched; ", c->p.n, c->p.n,
	       v->chk);
	if (r->dbg_known)
		printf("%u instructions in %u cycles (CU_DBG)",
		       (uint32_t)KH_CPU_DBG_RETIRED(r->dbg),
		       (uint32_t)KH_CPU_DBG_CYCLES(r->dbg));
	else
		printf("CU_DBG unknown");
}

static void cd_json(const struct kohaku_cli_demo_ctx *c,
		    const struct kohaku_cli_run *r, struct json_object *j)
{
	const struct kohaku_cli_cpu *v = r->priv;
	char chk[16];

	snprintf(chk, sizeof(chk), "0x%08x", v->chk);
	cli_run_json_checked(j, r);
	json_object_object_add(j, "checksum", json_object_new_string(chk));
	json_object_object_add(j, "instructions", r->dbg_known ?
			       json_object_new_int64(KH_CPU_DBG_RETIRED(r->dbg)) :
			       NULL);
	json_object_object_add(j, "cycles", r->dbg_known ?
			       json_object_new_int64(KH_CPU_DBG_CYCLES(r->dbg)) :
			       NULL);
	cli_run_json_times(j, r);
}

const struct kohaku_cli_demo cli_demo_cpu = {
	.name = "cpu-demo",
	.what = "run cpu-demo",
	.cu_type = KH_CU_RV,
	.unit = "cpu",
	.type_named = true,
	.hint = "try --map cpu_2x1 (the cpu unit is KohakuAccel's rv_pe)",
	.line = "cpu",
	.pass = "every word matches",
	.takes = CLI_TAKES_N | CLI_TAKES_NODE | CLI_TAKES_TIMEOUT,
	.n_default = CD_N_DEFAULT,
	.wall = true,
	.dbg = true,
	.refused_usage = true,
	.priv_size = sizeof(struct kohaku_cli_cpu),
	.check_params = cd_check_params,
	.intro = cd_intro,
	.setup = cd_setup,
	.describe = cd_describe,
	.check = cd_check,
	.check_dbg = cd_check_dbg,
	.report = cd_report,
	.print_ok = cd_print_ok,
	.json = cd_json,
};
