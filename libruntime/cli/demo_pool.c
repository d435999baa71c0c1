// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run <kernel>: one of the POOL firmware's kernels (ping, copy,
 * fill, crc32, vadd, sum, hist; on the cores' vector unit: gemv, axpy,
 * softmax, copyu) on every POOL unit (or the --node ones), each on its
 * own data in its mesh; every result checked against the same
 * computation on the host.  --n is bytes (copy, fill, crc32, hist,
 * copyu), elements (vadd: int32, sum: int64, axpy: float) or rows (gemv:
 * of GEMV_K int8, softmax: of SOFTMAX_L floats).  Each kernel is a demo
 * of its own
 * (demo.h), all sharing the hooks below and differing in a struct
 * kohaku_cli_pool_kernel: its inputs, its result's size, its instruction
 * and its host check.  validate's firmware step runs ping.  The rest of
 * the run is demo.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <zlib.h>

#include "demo.h"
#include "kohaku/kh_pool.h"

#define POOL_DEFAULT_N	65536
#define FILL_PATTERN	0x6b6f6861u	/* "ahok" */
#define POOL_INPUTS	2
#define GEMV_K		256	/* gemv's columns: A is --n x 256 */
#define SOFTMAX_L	256	/* softmax's row length */
#define AXPY_A		-0.7071068f
#define COPYU_SRC	3	/* copyu: src and dst at these byte offsets */
#define COPYU_DST	45
/* softmax's bound against double precision (docs/spec/pool.md) */
#define SOFTMAX_REL	0x1p-13
#define SOFTMAX_ABS	0x1p-120

/* a unit's inputs (kept for the check), program and result in words */
struct kohaku_cli_pool {
	unsigned char *in[POOL_INPUTS];
	struct kohaku_inst inst;
	char result[128];
};

struct kohaku_cli_pool_kernel {
	const char *what;
	unsigned int elem;	/* bytes per --n */
	unsigned int multiple;	/* --n must be a multiple of this */
	unsigned int inputs;	/* input buffers of n * elem bytes */
	size_t out_fixed;	/* result bytes, or 0: n * elem */
	unsigned int out_elem;	/* result bytes per --n, when not elem */
	unsigned int result_in;	/* 0: the result buffer; b + 1: input b */
	unsigned int pad;	/* bytes past n * elem in every buffer */
	/* the inputs' bytes, when not random bytes */
	void (*gen)(unsigned char *buf, size_t len, uint32_t *seed);
	/* the instruction: in[] the inputs' addresses, seed ping's value */
	int (*build)(struct kohaku_inst *inst, const uint64_t *in, uint64_t out,
		     uint32_t n, uint32_t seed);
	/* the result got against the host's; a difference said in r */
	void (*check)(struct kohaku_cli_run *r, unsigned long n,
		      const unsigned char *got);
};

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static const struct kohaku_cli_pool_kernel *kernel_of(
	const struct kohaku_cli_demo_ctx *c)
{
	return c->demo->arg;
}

static size_t out_bytes(const struct kohaku_cli_pool_kernel *k, unsigned long n)
{
	if (k->out_fixed)
		return k->out_fixed;
	return (size_t)n * (k->out_elem ? k->out_elem : k->elem);
}

/* ---- the kernels: the instruction and the host's check ---- */

static int build_ping(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_ping(inst, seed);
}

static int build_copy(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_copy(inst, in[0], out, n);
}

static int build_fill(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_fill(inst, out, FILL_PATTERN, n);
}

static int build_crc32(struct kohaku_inst *inst, const uint64_t *in,
		       uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_crc32(inst, in[0], out, n);
}

static int build_vadd(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_vadd_i32(inst, in[0], in[1], out, n);
}

static int build_sum(struct kohaku_inst *inst, const uint64_t *in,
		     uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_sum_i64(inst, in[0], out, n);
}

static int build_hist(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_hist256(inst, in[0], out, n);
}

static int build_gemv(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_gemv_i8(inst, in[0], in[1], out, n, GEMV_K);
}

static int build_axpy(struct kohaku_inst *inst, const uint64_t *in,
		      uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_axpy_f32(inst, in[0], in[1], AXPY_A, n);
}

static int build_softmax(struct kohaku_inst *inst, const uint64_t *in,
			 uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_softmax_f32(inst, in[0], out, SOFTMAX_L, n);
}

static int build_copyu(struct kohaku_inst *inst, const uint64_t *in,
		       uint64_t out, uint32_t n, uint32_t seed)
{
	return kohaku_inst_pool_copy_u(inst, in[0] + COPYU_SRC,
				       out + COPYU_DST, n);
}

/* finite floats over many binades, both signs (fmaf's bits are checked) */
static void gen_floats(unsigned char *buf, size_t len, uint32_t *seed)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t r = xorshift(seed);
		uint32_t v = (r & 0x807fffffu) | (100u + (r >> 8) % 50) << 23;

		memcpy(buf + i, &v, 4);
	}
}

/* softmax's rows: values in [-20, 20) */
static void gen_logits(unsigned char *buf, size_t len, uint32_t *seed)
{
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		float f = (float)((double)xorshift(seed) / 4294967296.0 * 40.0 -
				  20.0);

		memcpy(buf + i, &f, 4);
	}
}

static void check_ping(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;

	snprintf(u->result, sizeof(u->result), "answered");
}

/* copy and fill: every byte, copy's from the input, fill's the pattern */
static void check_bytes(struct kohaku_cli_run *r, unsigned long n,
			const unsigned char *got, const unsigned char *src)
{
	struct kohaku_cli_pool *u = r->priv;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char want = src ? src[i] :
				     (unsigned char)(FILL_PATTERN >> (8 * (i % 4)));

		if (got[i] != want) {
			cli_run_failed(r, EXIT_WRONG, "byte %zu is 0x%02x, "
				       "expected 0x%02x", i, got[i], want);
			return;
		}
	}
	snprintf(u->result, sizeof(u->result), "%lu bytes match", n);
}

static void check_copy(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;

	check_bytes(r, n, got, u->in[0]);
}

static void check_fill(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	check_bytes(r, n, got, NULL);
}

static void check_crc32(struct kohaku_cli_run *r, unsigned long n,
			const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	uint32_t want = crc32(0, u->in[0], n), have;

	memcpy(&have, got, 4);
	snprintf(u->result, sizeof(u->result), "crc32 0x%08x", have);
	if (have != want)
		cli_run_failed(r, EXIT_WRONG, "crc32 0x%08x, zlib says 0x%08x",
			       have, want);
}

static void check_vadd(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	size_t i;

	for (i = 0; i < n; i++) {
		int32_t a, b, c;

		memcpy(&a, u->in[0] + 4 * i, 4);
		memcpy(&b, u->in[1] + 4 * i, 4);
		memcpy(&c, got + 4 * i, 4);
		if (c != (int32_t)((uint32_t)a + (uint32_t)b)) {
			cli_run_failed(r, EXIT_WRONG, "c[%zu] = %d, expected %d",
				       i, c, (int32_t)((uint32_t)a + (uint32_t)b));
			return;
		}
	}
	snprintf(u->result, sizeof(u->result), "%lu sums match", n);
}

static void check_sum(struct kohaku_cli_run *r, unsigned long n,
		      const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	uint64_t want = 0, have;
	int64_t e;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&e, u->in[0] + 8 * i, 8);
		want += (uint64_t)e;
	}
	memcpy(&have, got, 8);
	snprintf(u->result, sizeof(u->result), "sum %lld", (long long)have);
	if (have != want)
		cli_run_failed(r, EXIT_WRONG, "sum %lld, expected %lld",
			       (long long)have, (long long)want);
}

static void check_hist(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	uint32_t want[256] = { 0 }, have;
	size_t i;

	for (i = 0; i < n; i++)
		want[u->in[0][i]]++;
	for (i = 0; i < 256; i++) {
		memcpy(&have, got + 4 * i, 4);
		if (have != want[i]) {
			cli_run_failed(r, EXIT_WRONG, "bin %zu counts %u, "
				       "expected %u", i, have, want[i]);
			return;
		}
	}
	snprintf(u->result, sizeof(u->result), "256 bins match");
}

static void check_gemv(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	const signed char *a = (const signed char *)u->in[0];
	const signed char *x = (const signed char *)u->in[1];
	size_t i, j;

	for (i = 0; i < n; i++) {
		int32_t want = 0, have;

		/* panels of 64 rows, column-major */
		for (j = 0; j < GEMV_K; j++)
			want += a[((i / 64) * GEMV_K + j) * 64 + i % 64] * x[j];
		memcpy(&have, got + 4 * i, 4);
		if (have != want) {
			cli_run_failed(r, EXIT_WRONG,
				       "y[%zu] = %d, expected %d", i, have,
				       want);
			return;
		}
	}
	snprintf(u->result, sizeof(u->result), "%lu dot products of %u match",
		 n, GEMV_K);
}

static void check_axpy(struct kohaku_cli_run *r, unsigned long n,
		       const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	size_t i;

	for (i = 0; i < n; i++) {
		float x, y, have, want;

		memcpy(&x, u->in[0] + 4 * i, 4);
		memcpy(&y, u->in[1] + 4 * i, 4);
		memcpy(&have, got + 4 * i, 4);
		want = fmaf(AXPY_A, x, y);
		if (memcmp(&have, &want, 4)) {
			cli_run_failed(r, EXIT_WRONG, "y[%zu] = %a, fmaf "
				       "says %a", i, have, want);
			return;
		}
	}
	snprintf(u->result, sizeof(u->result), "%lu fmaf results, bit for bit",
		 n);
}

static void check_softmax(struct kohaku_cli_run *r, unsigned long n,
			  const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;
	double worst = 0;
	size_t row, i;

	for (row = 0; row < n; row++) {
		const unsigned char *s = u->in[0] + row * SOFTMAX_L * 4;
		double m = -INFINITY, sum = 0, e[SOFTMAX_L];
		float f;

		for (i = 0; i < SOFTMAX_L; i++) {
			memcpy(&f, s + 4 * i, 4);
			m = f > m ? f : m;
		}
		for (i = 0; i < SOFTMAX_L; i++) {
			memcpy(&f, s + 4 * i, 4);
			e[i] = exp((double)f - m);
			sum += e[i];
		}
		for (i = 0; i < SOFTMAX_L; i++) {
			double want = e[i] / sum, err;

			memcpy(&f, got + (row * SOFTMAX_L + i) * 4, 4);
			err = fabs(f - want);
			if (!(err <= SOFTMAX_REL * want + SOFTMAX_ABS)) {
				cli_run_failed(r, EXIT_WRONG, "row %zu [%zu] = "
					       "%.9g, expected %.9g (off by "
					       "%.3g relative)", row, i, f,
					       want, err / want);
				return;
			}
			if (want > SOFTMAX_ABS / SOFTMAX_REL &&
			    err / want > worst)
				worst = err / want;
		}
	}
	snprintf(u->result, sizeof(u->result), "%lu rows within 2^-13, worst "
		 "2^%.1f", n, worst ? log2(worst) : -INFINITY);
}

static void check_copyu(struct kohaku_cli_run *r, unsigned long n,
			const unsigned char *got)
{
	struct kohaku_cli_pool *u = r->priv;

	check_bytes(r, n, got + COPYU_DST, u->in[0] + COPYU_SRC);
}

static const struct kohaku_cli_pool_kernel
	k_ping = { "the firmware answers", 1, 1, 0, 32, .build = build_ping,
		   .check = check_ping },
	k_copy = { "dst = src", 1, 32, 1, 0, .build = build_copy,
		   .check = check_copy },
	k_fill = { "dst = pattern", 1, 32, 0, 0, .build = build_fill,
		   .check = check_fill },
	k_crc32 = { "CRC-32 of src", 1, 1, 1, 32, .build = build_crc32,
		    .check = check_crc32 },
	k_vadd = { "c = a + b, int32", 4, 8, 2, 0, .build = build_vadd,
		   .check = check_vadd },
	k_sum = { "sum of src, int64", 8, 4, 1, 32, .build = build_sum,
		  .check = check_sum },
	k_hist = { "256-bin byte histogram (vector scatter-increment)", 1, 1,
		   1, 1024, .build = build_hist, .check = check_hist },
	k_gemv = { "y = A x, int8 A (n x 256) and x, int32 y (quad-MAC)",
		   GEMV_K, 64, 2, 0, .out_elem = 4,
		   .build = build_gemv, .check = check_gemv },
	k_axpy = { "y = a x + y, binary32, one rounding (FMA)", 4, 16, 2, 32,
		   .result_in = 2, .gen = gen_floats, .build = build_axpy,
		   .check = check_axpy },
	k_softmax = { "softmax of rows of 256 floats (exp, seed reciprocal)",
		      SOFTMAX_L * 4, 1, 1, 0,
		      .gen = gen_logits, .build = build_softmax,
		      .check = check_softmax },
	k_copyu = { "dst + 45 = src + 3, any byte count (valign streams)", 1,
		    1, 1, 0, .out_elem = 1, .pad = 64, .build = build_copyu,
		    .check = check_copyu };

/* ---- the hooks every kernel shares ---- */

/* a buffer of n * elem bytes stays below 2 GiB (the kernels take n in 32 bits) */
#define POOL_BYTES_MAX	0x7fffffffUL

/*
 * --n against what fits, then its multiple: two messages, each about the
 * one thing wrong.  The bound is checked by division: the product n * elem
 * of a huge --n wrapped past 2^64 back under the limit (vadd --n 2^62 ran
 * on empty buffers and reported a wrong answer).
 */
static void pool_check_params(const struct kohaku_cli_demo *d,
			      const struct kohaku_cli_demo_params *p)
{
	const struct kohaku_cli_pool_kernel *k = d->arg;
	unsigned long max = POOL_BYTES_MAX / k->elem / k->multiple *
			    k->multiple;

	if (p->n > max)
		cli_die_usage("run %s: --n %lu is too large: at most %lu (%u "
			      "byte%s each, and a buffer stays below 2 GiB)",
			      d->name, p->n, max, k->elem,
			      k->elem == 1 ? "" : "s");
	if (p->n % k->multiple)
		cli_die_usage("run %s: --n %lu is not a multiple of %u",
			      d->name, p->n, k->multiple);
}

/*
 * No firmware runs on any of the units: every job would be refused at
 * submit, a line per unit saying only "load it first".  So say it once,
 * before anything is submitted, with where the host looked (fw_info's
 * status) and how to get an image: it is not built by `make` or `make
 * run`.  On the sim backend every command is a card of its own, so only
 * KOHAKU_FIRMWARE_PATH helps there (an earlier `kohaku fw load` is gone);
 * on kohaku.ko the image is loaded at bind, or by fw load.  Units of which
 * only some run firmware go on: their lines say which failed.  Exit 4, as
 * when the refused submits said it (tests/vm/guest-init.sh card 21): a
 * script's check of the status keeps working.
 */
static int pool_ready(const struct kohaku_cli_demo_ctx *c,
		      const struct drm_kohaku_node *const *sel, unsigned int n)
{
	struct kohaku_fw_info fi;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (sel[i]->fw_state == KOHAKU_FW_STATE_RUNNING)
			return 0;
	memset(&fi, 0, sizeof(fi));
	kohaku_fw_info(c->dev, &fi, sizeof(fi));
	if (kohaku_device_backend(c->dev) == KOHAKU_BACKEND_SIM)
		cli_error("run %s: no firmware runs on the POOL unit%s of %s "
			  "(%s).  Build it with `make firmware`, then run with "
			  "KOHAKU_FIRMWARE_PATH=build/firmware (or "
			  "KOHAKU_FIRMWARE=FILE): each kohaku command is a "
			  "simulated card of its own, loaded at open, so a "
			  "`kohaku fw load` before this one does not carry over "
			  "(kohakud keeps one card for every command: "
			  "docs/kohakud.md)",
			  c->demo->name, n == 1 ? "" : "s",
			  kohaku_device_path(c->dev),
			  fi.status[0] ? fi.status : "nothing loaded");
	else
		cli_error("run %s: no firmware runs on the POOL unit%s of %s "
			  "(%s).  Build it with `make firmware` and install it "
			  "(`sudo make install`: /lib/firmware/kohaku/pool.fw, "
			  "loaded when kohaku.ko binds), or load it now: "
			  "`kohaku fw load build/firmware/pool.fw`",
			  c->demo->name, n == 1 ? "" : "s",
			  kohaku_device_path(c->dev),
			  fi.status[0] ? fi.status : "nothing loaded");
	return EXIT_DEVICE;
}

static void pool_intro(const struct kohaku_cli_demo_ctx *c,
		       unsigned int n_units)
{
	printf("\n%s: %s, n = %lu, on %u POOL unit%s\n", c->demo->name,
	       kernel_of(c)->what, c->p.n, n_units, n_units == 1 ? "" : "s");
}

/* random inputs, each written as its buffer is made, then the result's */
static int pool_setup(const struct kohaku_cli_demo_ctx *c,
		      struct kohaku_cli_run *r, struct kohaku_program *p)
{
	const struct kohaku_cli_pool_kernel *k = kernel_of(c);
	struct kohaku_cli_pool *u = r->priv;
	unsigned long n = c->p.n;
	size_t in = (size_t)n * k->elem + k->pad, i;
	uint32_t seed = 0x9e3779b9u ^ (r->index * 2654435761u);
	unsigned int b;
	int err;

	for (b = 0; b < k->inputs; b++) {
		u->in[b] = malloc(in ? in : 1);
		if (!u->in[b])
			return cli_run_failed(r, EXIT_DEVICE, "out of memory");
		if (k->gen)
			k->gen(u->in[b], in, &seed);
		else
			for (i = 0; i < in; i++)
				u->in[b][i] = (unsigned char)xorshift(&seed);
		err = cli_run_bo(c, r, in > 32 ? in : 32);
		if (err >= 0 && in)
			err = cli_run_write(c, r, b, u->in[b], in);
		if (err < 0)
			return err;
	}
	/* no BO is empty: n = 0 still makes its buffers */
	err = cli_run_bo(c, r, out_bytes(k, n) + k->pad > 32 ?
			 out_bytes(k, n) + k->pad : 32);
	if (err < 0)
		return err;
	if (k->build(&u->inst, r->addr, r->addr[k->inputs], (uint32_t)n,
		     seed) < 0)
		return cli_run_failed(r, EXIT_USAGE, "%s: --n %lu breaks the "
				      "kernel's rules", c->demo->name, n);
	p->insts = &u->inst;
	p->n_insts = 1;
	return 0;
}

/* a fault's code in the firmware's words, when the unit gave one */
static void pool_describe(const struct kohaku_job_status *st, char *why,
			  size_t len)
{
	char fault[160];
	size_t l;

	kohaku_job_describe(st, sizeof(*st), why, len);
	l = strlen(why);
	if (st->fault_flags & KOHAKU_FAULT_CODE_KNOWN)
		snprintf(why + l, len - l, " [%s]", kohaku_pool_fault_describe(
			 st->fault_code, fault, sizeof(fault)));
}

static void pool_check(const struct kohaku_cli_demo_ctx *c,
		       struct kohaku_cli_run *r)
{
	const struct kohaku_cli_pool_kernel *k = kernel_of(c);
	unsigned char *got = k->result_in ?
		cli_run_read(c, r, k->result_in - 1, (size_t)c->p.n * k->elem) :
		cli_run_read(c, r, k->inputs, out_bytes(k, c->p.n) +
			     (k == &k_copyu ? COPYU_DST : 0));

	if (!got)
		return;
	k->check(r, c->p.n, got);
	free(got);
}

static void pool_report(const struct kohaku_cli_demo_ctx *c,
			struct json_object *rep)
{
	json_object_object_add(rep, "kernel",
			       json_object_new_string(c->demo->name));
	json_object_object_add(rep, "n", json_object_new_uint64(c->p.n));
}

static void pool_print_ok(const struct kohaku_cli_demo_ctx *c,
			  const struct kohaku_cli_run *r)
{
	const struct kohaku_cli_pool *u = r->priv;

	printf(": ok, %s (host agrees)", u->result);
}

static void pool_json(const struct kohaku_cli_demo_ctx *c,
		      const struct kohaku_cli_run *r, struct json_object *j)
{
	const struct kohaku_cli_pool *u = r->priv;

	json_object_object_add(j, "status", json_object_new_string(
		r->submitted ? kohaku_job_status_name(r->st.status) :
		"NOT_SUBMITTED"));
	json_object_object_add(j, "device_ns",
			       json_object_new_uint64(r->st.device_ns));
	json_object_object_add(j, "result", json_object_new_string(u->result));
}

static void pool_release(const struct kohaku_cli_demo_ctx *c,
			 struct kohaku_cli_run *r)
{
	struct kohaku_cli_pool *u = r->priv;
	unsigned int b;

	for (b = 0; b < POOL_INPUTS; b++)
		free(u->in[b]);
}

#define POOL_DEMO_N(n, k, def) {					\
	.name = n,							\
	.what = n,							\
	.cu_type = KH_CU_GP,						\
	.unit = "POOL",							\
	.hint = "try --map pool",					\
	.line = "POOL",							\
	.pass = "the host agrees",					\
	.takes = CLI_TAKES_N | CLI_TAKES_NODE | CLI_TAKES_TIMEOUT,	\
	.n_default = def,						\
	.priv_size = sizeof(struct kohaku_cli_pool),			\
	.arg = &k,							\
	.check_params = pool_check_params,				\
	.ready = pool_ready,						\
	.intro = pool_intro,						\
	.setup = pool_setup,						\
	.describe = pool_describe,					\
	.check = pool_check,						\
	.report = pool_report,						\
	.print_ok = pool_print_ok,					\
	.json = pool_json,						\
	.release = pool_release,					\
}
#define POOL_DEMO(n, k)	POOL_DEMO_N(n, k, POOL_DEFAULT_N)

static const struct kohaku_cli_demo pool_demos[] = {
	POOL_DEMO("ping", k_ping),
	POOL_DEMO("copy", k_copy),
	POOL_DEMO("fill", k_fill),
	POOL_DEMO("crc32", k_crc32),
	POOL_DEMO("vadd", k_vadd),
	POOL_DEMO("sum", k_sum),
	POOL_DEMO("hist", k_hist),
	POOL_DEMO_N("gemv", k_gemv, 1024),
	POOL_DEMO("axpy", k_axpy),
	POOL_DEMO_N("softmax", k_softmax, 256),
	POOL_DEMO("copyu", k_copyu),
};

const struct kohaku_cli_demo *cli_pool_demo(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(pool_demos) / sizeof(pool_demos[0]); i++)
		if (!strcmp(name, pool_demos[i].name))
			return &pool_demos[i];
	return NULL;
}
