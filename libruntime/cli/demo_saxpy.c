// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run saxpy: y = a*x + y on every SX unit (or the --node ones), each
 * on its own vectors in its mesh, 64 elements an instruction (KH_SX_N_MAX);
 * every element checked bit-exact against the unit's own arithmetic
 * (kohaku_sx_element() for the datapath its CU_DBG names), and the memory
 * past y[n-1] checked untouched.  validate's saxpy step runs it too.  The
 * rest of the run is demo.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "kohaku/kh_units.h"

#define GUARD_BYTES	64

enum { BO_X, BO_Y };

/* a unit's program, kept until the run is freed */
struct kohaku_cli_saxpy {
	struct kohaku_inst *inst;
};

static float x_val(unsigned long i, unsigned int u)
{
	return (float)((long)(i % 97) - 48) * 0.3f + (float)i * 1e-3f +
	       (float)u * 0.125f;
}

static float y_val(unsigned long i, unsigned int u)
{
	return (float)(i % 13) * 0.77f - 3.1f + (float)u;
}

static uint32_t fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

/* what the unit writes: its own arithmetic (docs/spec/units.md) */
static uint32_t expect_bits(const struct drm_kohaku_node *nd, float a, float x,
			    float y)
{
	return kohaku_sx_element(kohaku_sx_datapath_of(nd), fbits(a), fbits(x),
				 fbits(y));
}

/* SX instructions for n elements: one per KH_SX_N_MAX */
static unsigned int sx_insts(unsigned long n)
{
	return n ? (unsigned int)((n + KH_SX_N_MAX - 1) / KH_SX_N_MAX) : 1;
}

static void saxpy_check_params(const struct kohaku_cli_demo *d,
			       const struct kohaku_cli_demo_params *p)
{
	if (p->n > (unsigned long)KH_SX_N_MAX * KOHAKU_MAX_JOB_INSTS)
		cli_die_usage("run saxpy: --n %lu is too large: at most %lu, "
			      "what one job holds (%u instructions of %u "
			      "elements)", p->n,
			      (unsigned long)KH_SX_N_MAX * KOHAKU_MAX_JOB_INSTS,
			      KOHAKU_MAX_JOB_INSTS, KH_SX_N_MAX);
}

static void saxpy_intro(const struct kohaku_cli_demo_ctx *c,
			unsigned int n_units)
{
	unsigned long n = c->p.n;

	printf("\nsaxpy: y = a*x + y, n = %lu (%u instruction%s of up to %u), "
	       "a = %g, on %u SX unit%s\n", n, sx_insts(n),
	       sx_insts(n) == 1 ? "" : "s", KH_SX_N_MAX, (double)c->p.a,
	       n_units, n_units == 1 ? "" : "s");
}

/* x and y, y with its guard after it, and the program */
static int saxpy_setup(const struct kohaku_cli_demo_ctx *c,
		       struct kohaku_cli_run *r, struct kohaku_program *p)
{
	struct kohaku_cli_saxpy *s = r->priv;
	unsigned long n = c->p.n, i;
	size_t vbytes = n * sizeof(float);
	unsigned int n_insts = sx_insts(n), k;
	float *hx = NULL, *hy = NULL;
	int err;

	s->inst = calloc(n_insts, sizeof(*s->inst));
	hx = malloc(vbytes + 4);
	hy = malloc(vbytes + GUARD_BYTES);
	if (!s->inst || !hx || !hy) {
		err = cli_run_failed(r, EXIT_DEVICE, "out of memory");
		goto out;
	}
	err = cli_run_bo(c, r, vbytes ? vbytes : 4);
	if (err >= 0)
		err = cli_run_bo(c, r, vbytes + GUARD_BYTES);
	if (err < 0)
		goto out;
	for (i = 0; i < n; i++) {
		hx[i] = x_val(i, r->index);
		hy[i] = y_val(i, r->index);
	}
	memset((char *)hy + vbytes, CLI_GUARD_BYTE, GUARD_BYTES);
	err = vbytes ? cli_run_write(c, r, BO_X, hx, vbytes) : 0;
	if (!err)
		err = cli_run_write(c, r, BO_Y, hy, vbytes + GUARD_BYTES);
	if (err < 0)
		goto out;
	/* the unit takes 64 elements an instruction: one program of many */
	for (k = 0; k < n_insts; k++) {
		uint64_t off = (uint64_t)k * KH_SX_N_MAX * sizeof(float);
		unsigned long left = n - (unsigned long)k * KH_SX_N_MAX;

		err = kohaku_inst_saxpy(&s->inst[k], left > KH_SX_N_MAX ?
					KH_SX_N_MAX : (uint32_t)left, c->p.a,
					r->addr[BO_X] + off, r->addr[BO_Y] + off);
		if (err < 0) {
			err = cli_run_failed(r, EXIT_USAGE, "cannot encode saxpy "
					     "instruction %u", k);
			goto out;
		}
	}
	p->insts = s->inst;
	p->n_insts = n_insts;
out:
	free(hx);
	free(hy);
	return err;
}

static void saxpy_check(const struct kohaku_cli_demo_ctx *c,
			struct kohaku_cli_run *r)
{
	unsigned long n = c->p.n, i;
	size_t vbytes = n * sizeof(float);
	float a = c->p.a;
	unsigned int u = r->index;
	uint32_t *got = cli_run_read(c, r, BO_Y, vbytes + GUARD_BYTES);

	if (!got)
		return;
	for (i = 0; i < n; i++)
		if (got[i] != expect_bits(r->node, a, x_val(i, u), y_val(i, u)))
			cli_run_mismatch(r, i);
	r->guard_ok = cli_guard_ok((char *)got + vbytes, GUARD_BYTES);
	if (r->bad) {
		i = r->first_bad;
		cli_run_failed(r, EXIT_WRONG, "%lu of %lu elements differ from the "
			       "unit's arithmetic; first y[%lu] = 0x%08x, "
			       "expected 0x%08x (%a * %a + %a)", r->bad, n, i,
			       got[i], expect_bits(r->node, a, x_val(i, u),
						   y_val(i, u)),
			       (double)a, (double)x_val(i, u),
			       (double)y_val(i, u));
	} else if (!r->guard_ok) {
		cli_run_failed(r, EXIT_WRONG, "memory just past y[%lu] was "
			       "changed", n - 1);
	}
	free(got);
}

static void saxpy_report(const struct kohaku_cli_demo_ctx *c,
			 struct json_object *rep)
{
	json_object_object_add(rep, "n", json_object_new_uint64(c->p.n));
	json_object_object_add(rep, "a", cli_json_float(c->p.a));
}

static void saxpy_print_ok(const struct kohaku_cli_demo_ctx *c,
			   const struct kohaku_cli_run *r)
{
	printf(": ok, %lu/%lu elements bit-exact against the %s, memory past "
	       "y[n-1] untouched", c->p.n, c->p.n,
	       kohaku_sx_datapath_name(kohaku_sx_datapath_of(r->node)));
}

static void saxpy_json(const struct kohaku_cli_demo_ctx *c,
		       const struct kohaku_cli_run *r, struct json_object *j)
{
	json_object_object_add(j, "datapath", json_object_new_string(
		kohaku_sx_datapath_of(r->node) == KOHAKU_SX_DATAPATH_FMA ?
		"fma" : "rtl"));
	cli_run_json_checked(j, r);
	cli_run_json_times(j, r);
}

static void saxpy_release(const struct kohaku_cli_demo_ctx *c,
			  struct kohaku_cli_run *r)
{
	struct kohaku_cli_saxpy *s = r->priv;

	free(s->inst);
}

const struct kohaku_cli_demo cli_demo_saxpy = {
	.name = "saxpy",
	.what = "run saxpy",
	.cu_type = KH_CU_SX,
	.unit = "SX",
	.hint = "try --map saxpy",
	.line = "SX",
	.pass = "every element matches",
	.takes = CLI_TAKES_N | CLI_TAKES_A | CLI_TAKES_NODE | CLI_TAKES_TIMEOUT,
	.n_default = 1000,
	.wall = true,
	.refused_usage = true,
	.priv_size = sizeof(struct kohaku_cli_saxpy),
	.check_params = saxpy_check_params,
	.intro = saxpy_intro,
	.setup = saxpy_setup,
	.check = saxpy_check,
	.report = saxpy_report,
	.print_ok = saxpy_print_ok,
	.json = saxpy_json,
	.release = saxpy_release,
};
