// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Compiler artifacts through libkohaku (docs/spec/artifact.md): artifacts
 * written here as JSON text from the format, parsed, checked and run.
 *
 *  - parsing: the format's refusals, each with the step or flit named;
 *  - saxpy (any map with SX units): one artifact per step kind, a node
 *    kicked twice in a round, rounds separated by barriers where round k+1
 *    reads what round k wrote, more rounds than the run keeps in flight,
 *    a failing round that stops the rest, every check refusal, SUBMIT's
 *    refusal of an operand outside the arena named by round, step and
 *    flit, the arena taken by another open file (EBUSY);
 *  - mesh_2x2_8+2 (a card of its own): a GEMM on a mat unit checked
 *    against the host reference, a vec kernel, and a peer await: a mat
 *    DRAIN to another node acknowledged to the orchestrator.
 * Results are checked against host references, bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"
#include "kohaku/kh_mat.h"
#include "kohaku/kh_vec.h"

/* the compiler's arena: local offset 0x18000000 of the mesh */
#define ART_ARENA_OFF	KOHAKU_ARTIFACT_ARENA_OFFSET
#define ART_ARENA_SIZE	(1u << 20)

/* a payload (and the header above it) in decimal, as Python's json writes it */
static void dec288(const struct kohaku_inst *in, uint32_t hdr, char *out)
{
	uint64_t w[5];
	char tmp[100];
	int n = 0, k, zero;

	for (k = 0; k < 4; k++)
		w[k] = in->w[k];
	w[4] = hdr;
	do {
		unsigned __int128 rem = 0;

		for (k = 4; k >= 0; k--) {
			unsigned __int128 cur = rem << 64 | w[k];

			w[k] = (uint64_t)(cur / 10);
			rem = cur % 10;
		}
		tmp[n++] = (char)('0' + (int)rem);
		zero = !(w[0] | w[1] | w[2] | w[3] | w[4]);
	} while (!zero);
	for (k = 0; k < n; k++)
		out[k] = tmp[n - 1 - k];
	out[n] = '\0';
}

/*
 * {"machine": "test", "flits": [...], "steps": [steps], "meta": meta}; with
 * hdr, flit i comes with header hdr[i] above its payload.
 */
static char *art_json_hdr(const struct kohaku_inst *flits, const uint32_t *hdr,
			  unsigned int n, const char *steps, const char *meta)
{
	char *buf = NULL, d[100];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned int i;

	if (!f)
		return NULL;
	fprintf(f, "{\"machine\": \"test\", \"flits\": [");
	for (i = 0; i < n; i++) {
		dec288(&flits[i], hdr ? hdr[i] : 0, d);
		fprintf(f, "%s%s", i ? ", " : "", d);
	}
	fprintf(f, "], \"steps\": [%s], \"meta\": %s}", steps,
		meta ? meta : "{}");
	fclose(f);
	return buf;
}

static char *art_json(const struct kohaku_inst *flits, unsigned int n,
		      const char *steps, const char *meta)
{
	return art_json_hdr(flits, NULL, n, steps, meta);
}

/* parse text; 0 or the error with err filled */
static int art_parse(const char *text, struct kohaku_artifact **a, char *err)
{
	return kohaku_artifact_parse(text, strlen(text), a, err,
				     KOHAKU_ERRMSG_MAX);
}

/* ---- parsing ---- */

TEST_F(rt, parse_good_and_info)
{
	char err[KOHAKU_ERRMSG_MAX];
	struct kohaku_artifact *a = NULL;
	struct kohaku_artifact_info in;
	/* the largest payload, and defaults for machine, flits and meta */
	const char *t = "{\"flits\": [115792089237316195423570985008687907853269984665640564039457584007913129639935, 0, 1],"
		" \"steps\": [[\"seed\", 4], [\"kick\", 1, 0, 0, 3], [\"await\", 1, 0, 3],"
		" [\"barrier\"], [\"kick\", 1, 2, 1, 1], [\"barrier\"]], \"unknown\": {\"x\": [1.5e3, null, true]}}";

	CHECK_EQ(art_parse(t, &a, err), 0);
	CHECK_MSG(err[0] == '\0', "%s", err);
	REQUIRE(a != NULL);
	kohaku_artifact_info(a, &in, sizeof(in));
	CHECK(!strcmp(in.machine, "generic"));
	CHECK_EQ(in.n_flits, 3);
	CHECK_EQ(in.n_steps, 6);
	CHECK_EQ(in.n_rounds, 3);
	CHECK_EQ(in.n_kicks, 2);
	kohaku_artifact_free(a);
	kohaku_artifact_free(NULL);

	a = NULL;
	CHECK_EQ(art_parse("{\"steps\": [], \"machine\": \"saxpy-2\", \"meta\": "
			   "{\"unit\": \"SX\"}}", &a, err), 0);
	REQUIRE(a != NULL);
	kohaku_artifact_info(a, &in, sizeof(in));
	CHECK(!strcmp(in.machine, "saxpy-2"));
	CHECK_EQ(in.n_rounds, 1);
	kohaku_artifact_free(a);
}

static const struct {
	const char *text;
	const char *says;
} parse_bad[] = {
	{ "", "ends where a value" },
	{ "[]", "expected an object" },
	{ "{\"flits\": []}", "no \"steps\"" },
	{ "{\"steps\": [],}", "trailing comma" },
	{ "{\"steps\": [[\"barrier\"],]}", "trailing comma" },
	{ "{\"steps\": [], \"steps\": []}", "given twice" },
	{ "{\"steps\": [[\"seed\", NaN]]}", "NaN" },
	{ "{\"steps\": [[\"seed\", 01]]}", "leading zero" },
	{ "{\"steps\": [[\"seed\", +1]]}", "'+'" },
	{ "{\"steps\": [[\"seed\", 1.0]]}", "step 0 (seed): n is not an integer" },
	{ "{\"steps\": [[\"seed\", 1e3]]}", "not an integer" },
	{ "{\"steps\": [[\"seed\", -1]]}", "negative" },
	{ "{\"steps\": [[\"seed\", 4294967296]]}", "too large" },
	{ "{\"steps\": [[\"seed\", \"4\"]]}", "n is a string" },
	{ "{\"steps\": [[\"barrier\"], [\"kick\", 1, 0, 0]]}", "step 1 (kick): 3 arguments, expected 4" },
	{ "{\"steps\": [[\"jump\", 1]]}", "step 0: unknown step tag \"jump\"" },
	{ "{\"steps\": [[]]}", "step 0: an empty array" },
	{ "{\"steps\": [[1]]}", "the tag is a number" },
	{ "{\"steps\": {}}", "\"steps\" is an object" },
	{ "{\"steps\": [], \"flits\": [1, -2]}", "flit 1" },
	/* 2^256: bit 256, a header's reserved bit */
	{ "{\"steps\": [], \"flits\": [115792089237316195423570985008687907853269984665640564039457584007913129639936]}", "flit 0: header 0x00000001 above the payload is not a bare CU_INST header" },
	/* 2^288 */
	{ "{\"steps\": [], \"flits\": [497323236409786642155382248146820840100456150797347717440463976893159497012533375533056]}", "2^288 or more" },
	/* CU_INST with a destination: the routing is the driver's */
	{ "{\"steps\": [], \"flits\": [31085192268698624382177778979637929331048986142584482274718103051708974727223113154560]}", "flit 0: header 0x10005400 above the payload is not a bare CU_INST header" },
	{ "{\"steps\": [], \"flits\": [1.5]}", "not an integer" },
	{ "{\"steps\": [], \"flits\": 3}", "\"flits\" is a number" },
	{ "{\"steps\": [], \"machine\": 3}", "\"machine\" is a number" },
	{ "{\"steps\": [], \"meta\": {\"unit\": \"SXY\"}}", "meta \"unit\"" },
	{ "{\"steps\": [], \"meta\": {\"unit\": 7}}", "meta \"unit\"" },
	{ "{\"steps\": [], \"machine\": \"a\\qb\"}", "not a JSON escape" },
	{ "{\"steps\": [], \"machine\": \"\\ud800\"}", "surrogate" },
	{ "{\"steps\": [], \"machine\": \"\xc0\xaf\"}", "not UTF-8" },
	{ "{\"steps\": [], \"machine\": \"a\tb\"}", "control character" },
	{ "{\"steps\": []} x", "more text after" },
	{ "{\"steps\": [", "ends" },
	{ "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "nested more than" },
};

TEST_F(rt, parse_refusals_say_where)
{
	char err[KOHAKU_ERRMSG_MAX];
	struct kohaku_artifact *a;
	unsigned int i;

	for (i = 0; i < sizeof(parse_bad) / sizeof(parse_bad[0]); i++) {
		a = (struct kohaku_artifact *)1;
		CHECK_MSG(art_parse(parse_bad[i].text, &a, err) == -EINVAL,
			  "case %u accepted: %s", i, parse_bad[i].text);
		CHECK_MSG(a == NULL, "case %u: *out not NULL", i);
		CHECK_MSG(strstr(err, parse_bad[i].says) != NULL,
			  "case %u: '%s' does not say '%s'", i, err,
			  parse_bad[i].says);
	}
	/* a file: a directory is not one, a missing one is ENOENT */
	CHECK_EQ(kohaku_artifact_load("/", &a, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "not a regular file") != NULL);
	CHECK_EQ(kohaku_artifact_load("/nonexistent/a.json", &a, err,
				      sizeof(err)), -ENOENT);
}

/* ---- saxpy ---- */

struct sx_fix {
	kohaku_device *dev;
	struct drm_kohaku_node sx[16];
	unsigned int n_sx, mesh;
	uint32_t arena;
	uint64_t base;		/* the arena's device address */
	enum kohaku_sx_datapath dp;
};

/* the device, its SX units, an arena at the compiler's address; false: skip */
static bool sx_open(struct sx_fix *f)
{
	memset(f, 0, sizeof(*f));
	f->dev = rt_open();
	if (!f->dev)
		return false;
	f->n_sx = rt_nodes_of(f->dev, KH_CU_SX, f->sx, 16);
	if (!f->n_sx)
		return false;
	f->mesh = f->sx[0].mesh;
	f->base = (uint64_t)f->mesh << 36 | ART_ARENA_OFF;
	if (kohaku_bo_create_at(f->dev, f->mesh, f->base, ART_ARENA_SIZE,
				&f->arena)) {
		check_fail_at(__FILE__, __LINE__, "the arena: %s",
			      kohaku_last_error(f->dev));
		return false;
	}
	f->dp = rt_sx_datapath(f->dev);
	return true;
}

#define SX_OPEN(f)							\
	struct sx_fix f;						\
	if (!sx_open(&f)) {						\
		if (f.dev)						\
			kohaku_close(f.dev);				\
		SKIP(return, "no SX unit on this card");		\
	}

/* 64 floats of salt at arena offset off */
static void put_vec(struct sx_fix *f, uint64_t off, unsigned int salt,
		    float *host)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		host[i] = salt & 1 ? rt_x(i, salt) : rt_y(i, salt);
	CHECK_OK(f->dev, kohaku_bo_write(f->dev, f->arena, off, host,
					 64 * sizeof(float)));
}

/* y (64 at arena offset off) against want, bit for bit */
static unsigned int vec_bad(struct sx_fix *f, uint64_t off, const float *want)
{
	float got[64];
	unsigned int i, bad = 0;

	CHECK_OK(f->dev, kohaku_bo_read(f->dev, f->arena, off, got, sizeof(got)));
	for (i = 0; i < 64; i++)
		if (rt_fbits(got[i]) != rt_fbits(want[i])) {
			if (bad++ < 3)
				check_diag("element %u at +0x%llx: 0x%08x, expected "
					   "0x%08x", i, (unsigned long long)off,
					   rt_fbits(got[i]), rt_fbits(want[i]));
		}
	return bad;
}

/* y = a x + y on the host, as the unit computes it */
static void host_saxpy(struct sx_fix *f, float a, const float *x, float *y)
{
	unsigned int i;

	for (i = 0; i < 64; i++) {
		uint32_t b = rt_saxpy_bits(f->dp, a, x[i], y[i]);

		memcpy(&y[i], &b, 4);
	}
}

static struct kohaku_inst sx_inst(struct sx_fix *f, float a, uint64_t xo,
				  uint64_t yo)
{
	struct kohaku_inst in;

	memset(&in, 0, sizeof(in));
	CHECK_EQ(kohaku_inst_saxpy(&in, 64, a, f->base + xo, f->base + yo), 0);
	return in;
}

/* parse text and run it on the fixture's arena */
static int sx_run(struct sx_fix *f, const char *text,
		  struct kohaku_artifact_result *res)
{
	char err[KOHAKU_ERRMSG_MAX];
	struct kohaku_artifact *a = NULL;
	struct kohaku_artifact_run args = {
		.mesh = f->mesh, .arenas = &f->arena, .n_arenas = 1,
	};
	int r;

	r = art_parse(text, &a, err);
	CHECK_MSG(r == 0, "parse: %s\n%s", err, text);
	if (r)
		return r;
	r = kohaku_artifact_run(f->dev, a, &args, res, sizeof(*res));
	kohaku_artifact_free(a);
	return r;
}

TEST_F(rt, saxpy_seed_kick_await)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in;
	float x[64], y[64];
	char steps[256], *t;
	SX_OPEN(f);

	put_vec(&f, 0x0, 1, x);
	put_vec(&f, 0x1000, 2, y);
	in = sx_inst(&f, 2.5f, 0x0, 0x1000);
	snprintf(steps, sizeof(steps), "[\"seed\", %u], [\"kick\", %u, %u, 0, 1], "
		 "[\"await\", %u, %u, 1]", f.sx[0].inst_depth, f.sx[0].x,
		 f.sx[0].y, f.sx[0].x, f.sx[0].y);
	t = art_json(&in, 1, steps, "{\"unit\": \"SX\"}");
	REQUIRE(t != NULL);
	CHECK_OK(f.dev, sx_run(&f, t, &res));
	CHECK_EQ(res.rounds, 1);
	CHECK_EQ(res.failed_round, UINT32_MAX);
	CHECK_EQ(res.status.status, KOHAKU_JOB_DONE);
	CHECK(res.device_ns > 0);
	host_saxpy(&f, 2.5f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	free(t);
	kohaku_close(f.dev);
}

/* a kick alone (its job waits for it anyway), then a barrier alone */
TEST_F(rt, saxpy_kick_only_and_barriers)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in;
	float x[64], y[64];
	char steps[256], *t;
	SX_OPEN(f);

	put_vec(&f, 0x0, 3, x);
	put_vec(&f, 0x1000, 4, y);
	in = sx_inst(&f, -1.25f, 0x0, 0x1000);
	snprintf(steps, sizeof(steps), "[\"barrier\"], [\"kick\", %u, %u, 0, 1], "
		 "[\"barrier\"], [\"barrier\"]", f.sx[0].x, f.sx[0].y);
	t = art_json(&in, 1, steps, NULL);
	CHECK_OK(f.dev, sx_run(&f, t, &res));
	CHECK_EQ(res.rounds, 4);
	host_saxpy(&f, -1.25f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	free(t);
	/* no steps at all: one empty round */
	CHECK_OK(f.dev, sx_run(&f, "{\"steps\": []}", &res));
	CHECK_EQ(res.rounds, 1);
	kohaku_close(f.dev);
}

/* kicked twice in a round: one program, awaited once for the total */
TEST_F(rt, saxpy_node_kicked_twice)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in[3];
	float x[64], y[64], z[64];
	char steps[512], *t;
	SX_OPEN(f);

	put_vec(&f, 0x0, 5, x);
	put_vec(&f, 0x1000, 6, y);
	put_vec(&f, 0x2000, 8, z);
	in[0] = sx_inst(&f, 1.5f, 0x0, 0x1000);
	in[1] = sx_inst(&f, 3.0f, 0x0, 0x2000);
	in[2] = sx_inst(&f, 0.5f, 0x1000, 0x2000);	/* reads y after in[0] */
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, 1], "
		 "[\"kick\", %u, %u, 1, 2], [\"await\", %u, %u, 3]",
		 f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y);
	t = art_json(in, 3, steps, NULL);
	CHECK_OK(f.dev, sx_run(&f, t, &res));
	host_saxpy(&f, 1.5f, x, y);
	host_saxpy(&f, 3.0f, x, z);
	host_saxpy(&f, 0.5f, y, z);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	CHECK_EQ(vec_bad(&f, 0x2000, z), 0);
	free(t);
	/* an intermediate count is refused, naming the rule */
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, 1], "
		 "[\"kick\", %u, %u, 1, 2], [\"await\", %u, %u, 1]",
		 f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y);
	t = art_json(in, 3, steps, NULL);
	CHECK_ERR(sx_run(&f, t, &res), -EINVAL);
	CHECK_MSG(strstr(kohaku_last_error(f.dev), "step 2 (await") &&
		  strstr(kohaku_last_error(f.dev), "awaited once, for the total"),
		  "%s", kohaku_last_error(f.dev));
	free(t);
	kohaku_close(f.dev);
}

/*
 * Rounds with data dependencies: round 1 writes y, round 2 reads it into
 * z, round 3 reads z back into y, on two units (both when there are).
 */
TEST_F(rt, saxpy_rounds_depend_across_barriers)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in[3];
	const struct drm_kohaku_node *u1;
	float x[64], y[64], z[64];
	char steps[512], *t;
	SX_OPEN(f);

	u1 = &f.sx[f.n_sx > 1 ? 1 : 0];
	put_vec(&f, 0x0, 9, x);
	put_vec(&f, 0x1000, 10, y);
	put_vec(&f, 0x2000, 12, z);
	in[0] = sx_inst(&f, 2.0f, 0x0, 0x1000);
	in[1] = sx_inst(&f, 1.75f, 0x1000, 0x2000);
	in[2] = sx_inst(&f, -0.5f, 0x2000, 0x1000);
	snprintf(steps, sizeof(steps),
		 "[\"seed\", 1], [\"kick\", %u, %u, 0, 1], [\"await\", %u, %u, 1], "
		 "[\"barrier\"], [\"kick\", %u, %u, 1, 1], [\"await\", %u, %u, 1], "
		 "[\"barrier\"], [\"kick\", %u, %u, 2, 1]",
		 f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y, u1->x, u1->y,
		 u1->x, u1->y, f.sx[0].x, f.sx[0].y);
	t = art_json(in, 3, steps, NULL);
	CHECK_OK(f.dev, sx_run(&f, t, &res));
	CHECK_EQ(res.rounds, 3);
	host_saxpy(&f, 2.0f, x, y);
	host_saxpy(&f, 1.75f, y, z);
	host_saxpy(&f, -0.5f, z, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	CHECK_EQ(vec_bad(&f, 0x2000, z), 0);
	free(t);
	kohaku_close(f.dev);
}

/* more rounds than the run keeps in flight (KOHAKU_MAX_JOBS / 2) */
TEST_F(rt, saxpy_many_rounds)
{
	enum { ROUNDS = KOHAKU_MAX_JOBS + 7 };
	struct kohaku_artifact_result res;
	struct kohaku_inst in;
	float x[64], y[64];
	char *steps, *t;
	size_t len = 0;
	FILE *s;
	unsigned int i;
	SX_OPEN(f);

	put_vec(&f, 0x0, 13, x);
	put_vec(&f, 0x1000, 14, y);
	in = sx_inst(&f, 1.0f, 0x0, 0x1000);
	s = open_memstream(&steps, &len);
	REQUIRE(s != NULL);
	for (i = 0; i < ROUNDS; i++)
		fprintf(s, "%s[\"kick\", %u, %u, 0, 1], [\"await\", %u, %u, 1]",
			i ? ", [\"barrier\"], " : "", f.sx[0].x, f.sx[0].y,
			f.sx[0].x, f.sx[0].y);
	fclose(s);
	t = art_json(&in, 1, steps, NULL);
	CHECK_OK(f.dev, sx_run(&f, t, &res));
	CHECK_EQ(res.rounds, ROUNDS);
	for (i = 0; i < ROUNDS; i++)
		host_saxpy(&f, 1.0f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	free(t);
	free(steps);
	kohaku_close(f.dev);
}

/* a round that faults: the run stops there, the next round never runs */
TEST_F(rt, saxpy_failing_round_stops_the_rest)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in[2];
	float x[64], y[64];
	char steps[512], *t;
	SX_OPEN(f);

	put_vec(&f, 0x0, 15, x);
	put_vec(&f, 0x1000, 16, y);
	CHECK_EQ(kohaku_inst_sx(&in[0], 0x02, 64, 0, f.base, f.base + 0x1000), 0);
	in[1] = sx_inst(&f, 2.0f, 0x0, 0x1000);
	snprintf(steps, sizeof(steps),
		 "[\"kick\", %u, %u, 1, 1], [\"barrier\"], "
		 "[\"kick\", %u, %u, 0, 1], [\"barrier\"], [\"kick\", %u, %u, 1, 1]",
		 f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y);
	t = art_json(in, 2, steps, NULL);
	CHECK_ERR(sx_run(&f, t, &res), -EIO);
	CHECK_EQ(res.rounds, 1);
	CHECK_EQ(res.failed_round, 1);
	CHECK_EQ(res.status.status, KOHAKU_JOB_FAULT);
	CHECK_MSG(strstr(kohaku_last_error(f.dev), "round 1") &&
		  strstr(kohaku_last_error(f.dev), "FAULT"), "%s",
		  kohaku_last_error(f.dev));
	/* round 0 ran once, round 2 never */
	host_saxpy(&f, 2.0f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	free(t);
	kohaku_close(f.dev);
}

/*
 * Whole flits, as KohakuTPU's vector emitter writes them: type CU_INST and
 * a txn above the payload.  Taken, the txn becomes the program's; one
 * program with two txns, or a header with routing in it, is refused.
 */
TEST_F(rt, saxpy_flits_with_a_header)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in[2];
	uint32_t hdr[2] = { 0x5400, 0x5408 };	/* CU_INST, txn 0x40; the second with last */
	float x[64], y[64];
	char steps[512], *t;
	SX_OPEN(f);

	put_vec(&f, 0x0, 3, x);
	put_vec(&f, 0x1000, 4, y);
	in[0] = sx_inst(&f, 2.0f, 0x0, 0x1000);
	in[1] = sx_inst(&f, 1.0f, 0x0, 0x1000);
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, 2], "
		 "[\"await\", %u, %u, 2]", f.sx[0].x, f.sx[0].y, f.sx[0].x,
		 f.sx[0].y);
	t = art_json_hdr(in, hdr, 2, steps, NULL);
	CHECK_OK(f.dev, sx_run(&f, t, &res));
	CHECK_EQ(res.status.status, KOHAKU_JOB_DONE);
	host_saxpy(&f, 2.0f, x, y);
	host_saxpy(&f, 1.0f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	free(t);

	hdr[1] = 0x5410;			/* txn 0x41 */
	t = art_json_hdr(in, hdr, 2, steps, NULL);
	CHECK_ERR(sx_run(&f, t, &res), -EINVAL);
	CHECK_MSG(strstr(kohaku_last_error(f.dev), "a program has one txn"),
		  "%s", kohaku_last_error(f.dev));
	free(t);
	kohaku_close(f.dev);
}

/* every refusal of the check, by errno and step */
TEST_F(rt, saxpy_check_refusals)
{
	struct kohaku_inst in[2];
	struct kohaku_artifact *a;
	char err[KOHAKU_ERRMSG_MAX], steps[512], *t;
	unsigned int i, x, y, d;
	struct {
		const char *fmt;	/* %1$u x, %2$u y, %3$u depth + 1 */
		int err;
		const char *says;
	} cases[] = {
		{ "[\"kick\", 0, 0, 0, 1]", -ENXIO, "step 0 (kick 0,0): no node" },
		{ "[\"await\", 15, 15, 1]", -ENXIO, "step 0 (await 15,15): no node" },
		{ "[\"kick\", %1$u, %2$u, 127, 2]", -ERANGE, "staging RAM" },
		{ "[\"kick\", %1$u, %2$u, 1, 2]", -ERANGE, "passes the artifact's 2 payloads" },
		{ "[\"kick\", %1$u, %2$u, 0, 0]", -EINVAL, "nflits 0" },
		{ "[\"seed\", 0], [\"kick\", %1$u, %2$u, 0, 1]", -ERANGE, "step 0 (seed): seed 0" },
		{ "[\"seed\", %3$u], [\"kick\", %1$u, %2$u, 0, 1]", -ERANGE, "above the credit" },
		{ "[\"seed\", 1], [\"seed\", 1]", -EINVAL, "step 1 (seed): a second seed" },
		{ "[\"kick\", %1$u, %2$u, 0, 1], [\"seed\", 1]", -EINVAL, "a seed after a kick" },
		{ "[\"kick\", %1$u, %2$u, 0, 1], [\"await\", %1$u, %2$u, 1], [\"kick\", %1$u, %2$u, 1, 1]",
		  -EINVAL, "step 2 (kick %1$u,%2$u): a kick after an await in round 0: a barrier must separate them" },
		{ "[\"kick\", %1$u, %2$u, 0, 1], [\"await\", %1$u, %2$u, 1], [\"await\", %1$u, %2$u, 1]",
		  -EINVAL, "awaited twice" },
		{ "[\"await\", %1$u, %2$u, 0]", -EINVAL, "count 0" },
		{ "[\"barrier\"], [\"kick\", %1$u, %2$u, 0, 2], [\"await\", %1$u, %2$u, 1]",
		  -EINVAL, "step 2 (await %1$u,%2$u): count 1 is less than the 2 instructions round 1" },
	};
	SX_OPEN(f);

	x = f.sx[0].x;
	y = f.sx[0].y;
	d = f.sx[0].inst_depth + 1;
	in[0] = sx_inst(&f, 1.0f, 0, 0x1000);
	in[1] = in[0];
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char says[256];

		snprintf(steps, sizeof(steps), cases[i].fmt, x, y, d);
		snprintf(says, sizeof(says), cases[i].says, x, y, d);
		t = art_json(in, 2, steps, NULL);
		REQUIRE(art_parse(t, &a, err) == 0);
		CHECK_MSG(kohaku_artifact_check(f.dev, a, f.mesh) == cases[i].err,
			  "case %u (%s): %s", i, steps, kohaku_last_error(f.dev));
		CHECK_MSG(strstr(kohaku_last_error(f.dev), says) != NULL,
			  "case %u: '%s' does not say '%s'", i,
			  kohaku_last_error(f.dev), says);
		kohaku_artifact_free(a);
		free(t);
	}
	/* a unit type the card's node is not: ENODEV */
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, 1]", x, y);
	t = art_json(in, 2, steps, "{\"unit\": \"MG\"}");
	REQUIRE(art_parse(t, &a, err) == 0);
	CHECK_ERR(kohaku_artifact_check(f.dev, a, f.mesh), -ENODEV);
	CHECK_MSG(strstr(kohaku_last_error(f.dev), "is a SX unit; the artifact "
			 "is for MG units"), "%s", kohaku_last_error(f.dev));
	/* a mesh the card does not have */
	CHECK_ERR(kohaku_artifact_check(f.dev, a, 7), -EINVAL);
	kohaku_artifact_free(a);
	free(t);
	kohaku_close(f.dev);
}

/*
 * An operand outside the arena: SUBMIT refuses it (EACCES) and the message
 * names the round, the kick's step, the flit and the operand; the memory
 * outside the arena (a canary BO) is untouched.
 */
TEST_F(rt, saxpy_outside_the_arena_refused)
{
	struct kohaku_artifact_result res;
	struct kohaku_inst in[3];
	unsigned char canary[256], back[256];
	uint64_t caddr;
	uint32_t ch;
	char steps[512], *t, want[128];
	float x[64], y[64];
	SX_OPEN(f);

	CHECK_OK(f.dev, kohaku_bo_create(f.dev, f.mesh, 4096, &ch, &caddr));
	memset(canary, 0xa5, sizeof(canary));
	CHECK_OK(f.dev, kohaku_bo_write(f.dev, ch, 0, canary, sizeof(canary)));
	put_vec(&f, 0x0, 17, x);
	put_vec(&f, 0x1000, 18, y);
	in[0] = sx_inst(&f, 1.0f, 0x0, 0x1000);
	in[1] = sx_inst(&f, 1.0f, 0x0, 0x1000);
	CHECK_EQ(kohaku_inst_saxpy(&in[2], 64, 3.0f, f.base, caddr), 0);
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, 1], [\"barrier\"], "
		 "[\"seed\", 2], [\"kick\", %u, %u, 1, 2], [\"await\", %u, %u, 2]",
		 f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y, f.sx[0].x, f.sx[0].y);
	t = art_json(in, 3, steps, NULL);
	CHECK_ERR(sx_run(&f, t, &res), -EACCES);
	snprintf(want, sizeof(want), "round 1, step 3 (kick %u,%u), flit 2 (the "
		 "2nd instruction", f.sx[0].x, f.sx[0].y);
	CHECK_MSG(strstr(kohaku_last_error(f.dev), want) &&
		  strstr(kohaku_last_error(f.dev), "operand 1: 0x"), "%s",
		  kohaku_last_error(f.dev));
	CHECK_EQ(res.failed_round, 1);
	CHECK_EQ(res.rounds, 1);
	CHECK_OK(f.dev, kohaku_bo_read(f.dev, ch, 0, back, sizeof(back)));
	CHECK(!memcmp(canary, back, sizeof(back)));
	/* round 0 ran */
	host_saxpy(&f, 1.0f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	free(t);
	kohaku_close(f.dev);
}

/* a round past a job's limits: more instructions than KOHAKU_MAX_JOB_INSTS */
TEST_F(rt, saxpy_round_too_big)
{
	struct kohaku_inst in[128];
	struct kohaku_artifact *a;
	char err[KOHAKU_ERRMSG_MAX], *steps, *t;
	size_t len = 0;
	unsigned int i, kicks = KOHAKU_MAX_JOB_INSTS / 128 + 1;
	FILE *s;
	SX_OPEN(f);

	for (i = 0; i < 128; i++)
		in[i] = sx_inst(&f, 1.0f, 0, 0x1000);
	s = open_memstream(&steps, &len);
	REQUIRE(s != NULL);
	for (i = 0; i < kicks; i++)
		fprintf(s, "%s[\"kick\", %u, %u, 0, 128]", i ? ", " : "",
			f.sx[0].x, f.sx[0].y);
	fclose(s);
	t = art_json(in, 128, steps, NULL);
	REQUIRE(art_parse(t, &a, err) == 0);
	CHECK_ERR(kohaku_artifact_check(f.dev, a, f.mesh), -E2BIG);
	CHECK_MSG(strstr(kohaku_last_error(f.dev), "KOHAKU_MAX_JOB_INSTS") != NULL,
		  "%s", kohaku_last_error(f.dev));
	kohaku_artifact_free(a);
	free(t);
	free(steps);
	kohaku_close(f.dev);
}

/* the same artifact from a file */
TEST_F(rt, saxpy_from_a_file)
{
	struct kohaku_artifact_result res;
	struct kohaku_artifact_run args = { 0 };
	struct kohaku_artifact *a = NULL;
	struct kohaku_inst in;
	char err[KOHAKU_ERRMSG_MAX], steps[128], path[] = "/tmp/rt_artifact.XXXXXX", *t;
	float x[64], y[64];
	FILE *fp;
	int fd;
	SX_OPEN(f);

	put_vec(&f, 0x0, 21, x);
	put_vec(&f, 0x1000, 22, y);
	in = sx_inst(&f, 0.75f, 0x0, 0x1000);
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, 1]", f.sx[0].x,
		 f.sx[0].y);
	t = art_json(&in, 1, steps, NULL);
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	fp = fdopen(fd, "w");
	REQUIRE(fp != NULL);
	fputs(t, fp);
	fclose(fp);
	CHECK_EQ(kohaku_artifact_load(path, &a, err, sizeof(err)), 0);
	REQUIRE(a != NULL);
	args.mesh = f.mesh;
	args.arenas = &f.arena;
	args.n_arenas = 1;
	CHECK_OK(f.dev, kohaku_artifact_run(f.dev, a, &args, &res, sizeof(res)));
	host_saxpy(&f, 0.75f, x, y);
	CHECK_EQ(vec_bad(&f, 0x1000, y), 0);
	kohaku_artifact_free(a);
	/* a refusal from a file names the file */
	fp = fopen(path, "w");
	REQUIRE(fp != NULL);
	fputs("{\"steps\": [[\"kick\"]]}", fp);
	fclose(fp);
	CHECK_EQ(kohaku_artifact_load(path, &a, err, sizeof(err)), -EINVAL);
	CHECK_MSG(strstr(err, path) && strstr(err, "step 0 (kick): 0 arguments"),
		  "%s", err);
	unlink(path);
	free(t);
	kohaku_close(f.dev);
}

/* the arena's range is another open file's: EBUSY */
TEST_F(rt, arena_taken_by_another_file)
{
	kohaku_device *other = NULL;
	uint32_t h;
	SX_OPEN(f);

	CHECK_OK(f.dev, kohaku_reopen(f.dev, &other));
	REQUIRE(other != NULL);
	CHECK_ERR(kohaku_bo_create_at(other, f.mesh, f.base, ART_ARENA_SIZE, &h),
		  -EBUSY);
	CHECK(strstr(kohaku_last_error(other), "taken") != NULL);
	kohaku_close(other);
	kohaku_close(f.dev);
}

/* run's own refusals */
TEST_F(rt, run_bad_args)
{
	struct kohaku_artifact_result res;
	struct kohaku_artifact *a = NULL;
	struct kohaku_artifact_run args;
	char err[KOHAKU_ERRMSG_MAX];
	RT_OPEN(dev);

	REQUIRE(art_parse("{\"steps\": []}", &a, err) == 0);
	memset(&args, 0, sizeof(args));
	args.flags = 1;
	CHECK_ERR(kohaku_artifact_run(dev, a, &args, &res, sizeof(res)), -EINVAL);
	CHECK_EQ(res.failed_round, UINT32_MAX);
	args.flags = 0;
	args.n_arenas = KOHAKU_MAX_JOB_BOS + 1;
	CHECK_ERR(kohaku_artifact_run(dev, a, &args, &res, sizeof(res)), -EINVAL);
	args.n_arenas = 1;
	CHECK_ERR(kohaku_artifact_run(dev, a, &args, &res, sizeof(res)), -EFAULT);
	CHECK_ERR(kohaku_artifact_run(dev, a, NULL, &res, sizeof(res)), -EINVAL);
	CHECK_ERR(kohaku_artifact_check(dev, NULL, 0), -EINVAL);
	kohaku_artifact_free(a);
	kohaku_close(dev);
}

/* ---- mesh_2x2_8+2: mat, vec, and a peer's acknowledgement ---- */

#define CARD_OPEN(dev, cu, nd, n)					\
	kohaku_device *dev = rt_open_card("mesh_2x2_8+2");		\
	struct drm_kohaku_node nd[16];					\
	unsigned int n;							\
	REQUIRE(dev != NULL);						\
	n = rt_nodes_of(dev, cu, nd, 16);				\
	if (!n) {							\
		rt_close_card(dev);					\
		SKIP(return, "no such unit on this card");		\
	}

static uint16_t f16_of(unsigned int i, unsigned int salt)
{
	/* small FP16 values: sign, exponent 13..16, a few mantissa bits */
	unsigned int v = (i * 2654435761u + salt * 40503u) >> 7;

	return (uint16_t)((v & 0x8000) | (13 + (v >> 3) % 4) << 10 | (v & 0x3f0));
}

/* C = A B (8 x 8 by 64) on a mat unit, as an artifact, against the reference */
static void mat_gemm_artifact(kohaku_device *dev, const struct drm_kohaku_node *mg,
			      const struct drm_kohaku_node *peer, bool peer_await)
{
	enum { M = 8, N = 8, K = 64 };
	uint16_t a[M * K], b[K * N], pa[M * K], pb[K * N], c[M * N], ref[M * N],
		 tiles[M * N];
	struct kohaku_inst in[8];
	struct kohaku_artifact *art = NULL;
	struct kohaku_artifact_result res;
	struct kohaku_artifact_run args;
	struct kohaku_mat_fields fd;
	char err[KOHAKU_ERRMSG_MAX], steps[512], *t;
	uint64_t base = (uint64_t)mg->mesh << 36 | ART_ARENA_OFF;
	uint32_t arena;
	unsigned int i;
	int n, r;

	for (i = 0; i < M * K; i++)
		a[i] = f16_of(i, 1);
	for (i = 0; i < K * N; i++)
		b[i] = f16_of(i, 2);
	REQUIRE(kohaku_mat_pack_a(a, M, K, pa) == 0);
	REQUIRE(kohaku_mat_pack_b(b, K, N, pb) == 0);
	REQUIRE(kohaku_mat_gemm_ref(a, b, M, N, K, ref) == 0);
	CHECK_OK(dev, kohaku_bo_create_at(dev, mg->mesh, base, ART_ARENA_SIZE, &arena));
	CHECK_OK(dev, kohaku_bo_write(dev, arena, 0, pa, sizeof(pa)));
	CHECK_OK(dev, kohaku_bo_write(dev, arena, 0x4000, pb, sizeof(pb)));
	n = kohaku_mat_gemm_program(in, 8, base, base + 0x4000, base + 0x8000,
				    M, N, K, 0);
	REQUIRE(n > 0 && n < 8);
	if (peer) {
		/* and the first sub-tile to the peer's L1 A, acked to the orchestrator */
		memset(&fd, 0, sizeof(fd));
		fd.n = 1;
		fd.dnode = 1;
		fd.dst_x = peer->x;
		fd.dst_y = peer->y;
		fd.dbuf = KH_MAT_BUF_L1A;
		fd.dflags = 1;
		fd.dack_x = 0;		/* the orchestrator: the first MAG port, (0,1) */
		fd.dack_y = 1;
		REQUIRE(kohaku_inst_mat_drain(&in[n], &fd) == 0);
		n++;
	}
	if (peer && peer_await)
		snprintf(steps, sizeof(steps), "[\"seed\", 64], [\"kick\", %u, %u, 0, %d], "
			 "[\"await\", %u, %u, %d], [\"await\", %u, %u, 1]", mg->x, mg->y,
			 n, mg->x, mg->y, n, peer->x, peer->y);
	else
		snprintf(steps, sizeof(steps), "[\"seed\", 64], [\"kick\", %u, %u, 0, %d], "
			 "[\"await\", %u, %u, %d]", mg->x, mg->y, n, mg->x, mg->y, n);
	t = art_json(in, (unsigned int)n, steps, "{\"unit\": \"MG\"}");
	REQUIRE(art_parse(t, &art, err) == 0);
	memset(&args, 0, sizeof(args));
	args.mesh = mg->mesh;
	args.arenas = &arena;
	args.n_arenas = 1;
	args.timeout_ms = 2000;
	r = kohaku_artifact_run(dev, art, &args, &res, sizeof(res));
	CHECK_MSG(r == 0, "run: %d: %s", r, kohaku_last_error(dev));
	if (!r) {
		CHECK_OK(dev, kohaku_bo_read(dev, arena, 0x8000, tiles, sizeof(tiles)));
		REQUIRE(kohaku_mat_unpack_c(tiles, M, N, c) == 0);
		CHECK_MSG(!memcmp(c, ref, sizeof(c)), "C differs from the reference");
	}
	kohaku_artifact_free(art);
	free(t);
	kohaku_bo_free(dev, arena);
}

TEST_F(rt, mat_gemm_artifact)
{
	CARD_OPEN(dev, KH_CU_MG, nd, n);
	mat_gemm_artifact(dev, &nd[0], NULL, false);
	rt_close_card(dev);
}

/*
 * A peer await: the mat unit's DRAIN sends a sub-tile to another cluster
 * with an acknowledgement to the orchestrator; the artifact awaits that
 * node for 1 though the round never kicks it (a program of no instruction
 * with one peer signal, ABI 0.9).
 */
TEST_F(rt, mat_peer_await)
{
	struct drm_kohaku_get_info info;
	CARD_OPEN(dev, KH_CU_MG, nd, n);

	REQUIRE(n >= 2);
	CHECK_OK(dev, kohaku_get_info(dev, &info, sizeof(info)));
	if (!(info.caps & KOHAKU_CAP_PEER_SIGNALS)) {
		rt_close_card(dev);
		SKIP(return, "the driver counts no peer signals (ABI 0.9)");
	}
	mat_gemm_artifact(dev, &nd[0], &nd[1], true);
	rt_close_card(dev);
}

/*
 * A vec kernel (docs/spec/vec.md; the structure of `kohaku run vec-demo`):
 * IMEM words, DESC fields, RUN; s = x + y over 128 FP16 elements, values
 * whose sums are exact in FP16.
 */
TEST_F(rt, vec_kernel_artifact)
{
	enum { VN = 128, VW = VN * 2 / KH_VEC_WORD_BYTES };
	struct kohaku_inst in[64];
	struct kohaku_artifact *art = NULL;
	struct kohaku_artifact_result res;
	struct kohaku_artifact_run args;
	char err[KOHAKU_ERRMSG_MAX], steps[256], *t;
	uint32_t k[16], arena;
	uint16_t xy[2 * VN], out[VN];
	uint64_t base;
	unsigned int i, d, dim, nk = 0, ni = 0, bad = 0;
	int r = 0;
	CARD_OPEN(dev, KH_CU_VC, nd, n);

	base = (uint64_t)nd[0].mesh << 36 | ART_ARENA_OFF;
	for (i = 0; i < VN; i++) {
		xy[i] = (uint16_t)(0x3c00 + 2 * (i & 31));	/* 1 + (i&31)/512 */
		xy[VN + i] = (uint16_t)(0x4000 + (i & 31));	/* 2 + (i&31)/512 */
	}
	CHECK_OK(dev, kohaku_bo_create_at(dev, nd[0].mesh, base, ART_ARENA_SIZE, &arena));
	CHECK_OK(dev, kohaku_bo_write(dev, arena, 0, xy, sizeof(xy)));
	{
		const struct { uint64_t base; int32_t stride; uint32_t bound; } desc[3] = {
			{ base, KH_VEC_WORD_BYTES, 2 * VW },	/* x, y */
			{ 0, 1, VW },				/* L1 words */
			{ base + 0x2000, KH_VEC_WORD_BYTES, VW },	/* s */
		};

		r |= kohaku_vec_vseti(&k[nk], 0, VN);
		nk += 2;
		r |= kohaku_vec_vsetvl(&k[nk++], 0);
		r |= kohaku_vec_vsetmode(&k[nk++], KH_VEC_MODE_FLAT);
		r |= kohaku_vec_vfill(&k[nk++], 0, 0);
		k[nk++] = kohaku_vec_vbar();
		r |= kohaku_vec_vld(&k[nk++], 0, 1, 0, KH_VEC_DT_FP16);
		r |= kohaku_vec_vld(&k[nk++], 1, 1, VW, KH_VEC_DT_FP16);
		r |= kohaku_vec_vadd(&k[nk++], 2, 0, 1);
		r |= kohaku_vec_vst(&k[nk++], 2, 1, 2 * VW, KH_VEC_DT_FP16);
		r |= kohaku_vec_vdrain(&k[nk++], 2, 2 * VW);
		k[nk++] = kohaku_vec_vhalt();
		r |= kohaku_inst_vec_imem_words(&in[ni], 0, k, nk);
		ni += nk;
		for (d = 0; d < 3; d++) {
			r |= kohaku_inst_vec_desc_base(&in[ni++], d, desc[d].base);
			for (dim = 0; dim < KH_VEC_DIMS; dim++)
				r |= kohaku_inst_vec_desc_dim(&in[ni++], d, dim,
							      dim ? 0 : desc[d].stride,
							      dim ? 1 : desc[d].bound);
		}
		r |= kohaku_inst_vec_run(&in[ni++], 0);
	}
	REQUIRE(r == 0 && ni <= 64);
	snprintf(steps, sizeof(steps), "[\"kick\", %u, %u, 0, %u], [\"await\", %u, %u, %u]",
		 nd[0].x, nd[0].y, ni, nd[0].x, nd[0].y, ni);
	t = art_json(in, ni, steps, "{\"unit\": \"VC\"}");
	REQUIRE(art_parse(t, &art, err) == 0);
	memset(&args, 0, sizeof(args));
	args.mesh = nd[0].mesh;
	args.arenas = &arena;
	args.n_arenas = 1;
	args.timeout_ms = 2000;
	r = kohaku_artifact_run(dev, art, &args, &res, sizeof(res));
	CHECK_MSG(r == 0, "run: %d: %s", r, kohaku_last_error(dev));
	if (!r) {
		CHECK_OK(dev, kohaku_bo_read(dev, arena, 0x2000, out, sizeof(out)));
		for (i = 0; i < VN; i++) {
			/* 3 + 2 (i&31)/512: exact, 2 (i&31) ulps above 3 */
			uint16_t want = (uint16_t)(0x4200 + 2 * (i & 31));

			if (out[i] != want && bad++ < 3)
				check_diag("element %u: 0x%04x, expected 0x%04x", i,
					   out[i], want);
		}
		CHECK_EQ(bad, 0);
	}
	kohaku_artifact_free(art);
	free(t);
	rt_close_card(dev);
}

RT_TEST_MAIN
