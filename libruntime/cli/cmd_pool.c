// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku run <kernel>: one of the POOL firmware's kernels (ping, copy,
 * fill, crc32, vadd, sum, hist) on every POOL unit (or the --node ones),
 * each on its own data in its mesh, all submitted before the first wait;
 * every result checked against the same computation on the host.  --n is
 * bytes (copy, fill, crc32, hist) or elements (vadd: int32, sum: int64).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"
#include "kohaku/kh_pool.h"

#define POOL_DEFAULT_N	65536
#define FILL_PATTERN	0x6b6f6861u	/* "ahok" */

struct kohaku_cli_pool_kernel {
	const char *name;
	const char *what;
	unsigned int elem;	/* bytes per --n */
	unsigned int multiple;	/* --n must be a multiple of this */
	unsigned int inputs;	/* input buffers of n * elem bytes */
	size_t out_fixed;	/* result bytes, or 0: n * elem */
};

static const struct kohaku_cli_pool_kernel kernels[] = {
	{ "ping", "the firmware answers", 1, 1, 0, 32 },
	{ "copy", "dst = src", 1, 32, 1, 0 },
	{ "fill", "dst = pattern", 1, 32, 0, 0 },
	{ "crc32", "CRC-32 of src", 1, 1, 1, 32 },
	{ "vadd", "c = a + b, int32", 4, 8, 2, 0 },
	{ "sum", "sum of src, int64", 8, 4, 1, 32 },
	{ "hist", "256-bin byte histogram", 1, 1, 1, 1024 },
};

bool cli_is_pool_kernel(const char *what)
{
	size_t i;

	for (i = 0; what && i < sizeof(kernels) / sizeof(kernels[0]); i++)
		if (!strcmp(what, kernels[i].name))
			return true;
	return false;
}

static const struct kohaku_cli_pool_kernel *find_kernel(const char *what)
{
	size_t i;

	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		if (!strcmp(what, kernels[i].name))
			return &kernels[i];
	return NULL;
}

static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static size_t out_bytes(const struct kohaku_cli_pool_kernel *k, unsigned long n)
{
	return k->out_fixed ? k->out_fixed : (size_t)n * k->elem;
}

static int build(const struct kohaku_cli_pool_kernel *k, struct kohaku_cli_pool_run *u,
		 unsigned long n, struct kohaku_inst *inst)
{
	const char *w = k->name;

	if (!strcmp(w, "ping"))
		return kohaku_inst_pool_ping(inst, (uint32_t)u->addr[0]);
	if (!strcmp(w, "copy"))
		return kohaku_inst_pool_copy(inst, u->addr[0], u->addr[2], n);
	if (!strcmp(w, "fill"))
		return kohaku_inst_pool_fill(inst, u->addr[2], FILL_PATTERN, n);
	if (!strcmp(w, "crc32"))
		return kohaku_inst_pool_crc32(inst, u->addr[0], u->addr[2], n);
	if (!strcmp(w, "vadd"))
		return kohaku_inst_pool_vadd_i32(inst, u->addr[0], u->addr[1],
						 u->addr[2], n);
	if (!strcmp(w, "sum"))
		return kohaku_inst_pool_sum_i64(inst, u->addr[0], u->addr[2], n);
	return kohaku_inst_pool_hist256(inst, u->addr[0], u->addr[2], n);
}

static int setup(kohaku_device *dev, const struct kohaku_cli_pool_kernel *k,
		 unsigned long n, unsigned int ui, uint32_t timeout_ms,
		 struct kohaku_cli_pool_run *u)
{
	size_t in = (size_t)n * k->elem;
	struct kohaku_inst inst;
	uint32_t seed = 0x9e3779b9u ^ (ui * 2654435761u);
	unsigned int b;
	size_t i;
	int r = 0;

	for (b = 0; b < k->inputs && !r; b++) {
		u->in[b] = malloc(in ? in : 1);
		if (!u->in[b])
			return -ENOMEM;
		for (i = 0; i < in; i++)
			u->in[b][i] = (unsigned char)xorshift(&seed);
		r = kohaku_bo_create(dev, u->node->mesh, in ? in : 32, &u->bo[b],
				     &u->addr[b]);
		if (!r && in)
			r = kohaku_bo_write(dev, u->bo[b], 0, u->in[b], in);
	}
	if (!r)
		r = kohaku_bo_create(dev, u->node->mesh, out_bytes(k, n), &u->bo[2],
				     &u->addr[2]);
	if (r < 0)
		goto fail;
	if (!strcmp(k->name, "ping"))
		u->addr[0] = seed;	/* the value to echo */
	r = build(k, u, n, &inst);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s: --n %lu breaks the kernel's rules",
			 k->name, n);
		u->exit = EXIT_USAGE;
		return r;
	}
	r = cli_submit_on(dev, u->node, (uint8_t)ui, &inst, 1, timeout_ms, &u->job);
	if (r < 0)
		goto fail;
	u->submitted = true;
	return 0;
fail:
	snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
	u->exit = EXIT_DEVICE;
	return r;
}

/* the device's answer against the host's; 0 when they agree */
static int check(const struct kohaku_cli_pool_kernel *k, struct kohaku_cli_pool_run *u,
		 unsigned long n, const unsigned char *got)
{
	const char *w = k->name;
	size_t i;

	if (!strcmp(w, "ping")) {
		snprintf(u->result, sizeof(u->result), "answered");
		return 0;
	}
	if (!strcmp(w, "copy") || !strcmp(w, "fill")) {
		for (i = 0; i < n; i++) {
			unsigned char want = !strcmp(w, "copy") ? u->in[0][i] :
					     (unsigned char)(FILL_PATTERN >> (8 * (i % 4)));

			if (got[i] != want) {
				snprintf(u->why, sizeof(u->why),
					 "byte %zu is 0x%02x, expected 0x%02x", i,
					 got[i], want);
				return -1;
			}
		}
		snprintf(u->result, sizeof(u->result), "%lu bytes match", n);
		return 0;
	}
	if (!strcmp(w, "crc32")) {
		uint32_t want = crc32(0, u->in[0], n), have;

		memcpy(&have, got, 4);
		snprintf(u->result, sizeof(u->result), "crc32 0x%08x", have);
		if (have != want) {
			snprintf(u->why, sizeof(u->why), "crc32 0x%08x, zlib says 0x%08x",
				 have, want);
			return -1;
		}
		return 0;
	}
	if (!strcmp(w, "vadd")) {
		for (i = 0; i < n; i++) {
			int32_t a, b, c;

			memcpy(&a, u->in[0] + 4 * i, 4);
			memcpy(&b, u->in[1] + 4 * i, 4);
			memcpy(&c, got + 4 * i, 4);
			if (c != (int32_t)((uint32_t)a + (uint32_t)b)) {
				snprintf(u->why, sizeof(u->why), "c[%zu] = %d, expected %d",
					 i, c, (int32_t)((uint32_t)a + (uint32_t)b));
				return -1;
			}
		}
		snprintf(u->result, sizeof(u->result), "%lu sums match", n);
		return 0;
	}
	if (!strcmp(w, "sum")) {
		uint64_t want = 0, have;
		int64_t e;

		for (i = 0; i < n; i++) {
			memcpy(&e, u->in[0] + 8 * i, 8);
			want += (uint64_t)e;
		}
		memcpy(&have, got, 8);
		snprintf(u->result, sizeof(u->result), "sum %lld", (long long)have);
		if (have != want) {
			snprintf(u->why, sizeof(u->why), "sum %lld, expected %lld",
				 (long long)have, (long long)want);
			return -1;
		}
		return 0;
	}
	{
		uint32_t want[256] = { 0 }, have;

		for (i = 0; i < n; i++)
			want[u->in[0][i]]++;
		for (i = 0; i < 256; i++) {
			memcpy(&have, got + 4 * i, 4);
			if (have != want[i]) {
				snprintf(u->why, sizeof(u->why),
					 "bin %zu counts %u, expected %u", i, have,
					 want[i]);
				return -1;
			}
		}
		snprintf(u->result, sizeof(u->result), "256 bins match");
		return 0;
	}
}

static void finish(kohaku_device *dev, const struct kohaku_cli_pool_kernel *k,
		   unsigned long n, uint32_t timeout_ms, struct kohaku_cli_pool_run *u)
{
	size_t ob = out_bytes(k, n);
	unsigned char *got;
	char fault[160];
	int r;

	r = kohaku_wait(dev, u->job, (timeout_ms ? timeout_ms :
				      KOHAKU_JOB_TIMEOUT_DEFAULT_MS) + 1000, &u->st);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
		return;
	}
	if (u->st.status != KOHAKU_JOB_DONE) {
		kohaku_job_describe(&u->st, u->why, sizeof(u->why));
		if (u->st.fault_flags & KOHAKU_FAULT_CODE_KNOWN)
			snprintf(u->why + strlen(u->why), sizeof(u->why) - strlen(u->why),
				 " [%s]", kohaku_pool_fault_describe(u->st.fault_code,
								    fault, sizeof(fault)));
		u->exit = EXIT_DEVICE;
		return;
	}
	got = malloc(ob);
	if (!got) {
		u->exit = EXIT_DEVICE;
		return;
	}
	r = kohaku_bo_read(dev, u->bo[2], 0, got, ob);
	if (r < 0) {
		snprintf(u->why, sizeof(u->why), "%s", kohaku_last_error(dev));
		u->exit = EXIT_DEVICE;
	} else if (check(k, u, n, got)) {
		u->exit = EXIT_WRONG;
	}
	free(got);
}

static void report(const struct kohaku_cli_opts *o, const struct kohaku_cli_pool_kernel *k,
		   const struct kohaku_cli_pool_run *u, unsigned int i)
{
	const struct drm_kohaku_node *q = u->node;

	if (o->json) {
		struct json_object *j = cli_json_unit(q, !u->exit);

		json_object_object_add(j, "status", json_object_new_string(
			u->submitted ? kohaku_job_status_name(u->st.status) :
			"NOT_SUBMITTED"));
		json_object_object_add(j, "device_ns",
				       json_object_new_uint64(u->st.device_ns));
		json_object_object_add(j, "result",
				       json_object_new_string(u->result));
		json_object_object_add(j, "error", json_object_new_string(u->why));
		cli_report_unit(o, j);
		return;
	}
	if (!u->exit)
		printf("POOL mesh %u (%u,%u): ok, %s (host agrees); device %.3f us\n",
		       q->mesh, q->x, q->y, u->result, u->st.device_ns / 1e3);
	else
		printf("POOL mesh %u (%u,%u): FAILED: %s\n", q->mesh, q->x, q->y,
		       u->why);
	(void)k;
}

void cli_pool_units(kohaku_device *dev, const char *what, unsigned long n,
		    uint32_t timeout_ms, struct kohaku_cli_pool_run *runs,
		    unsigned int n_runs, kohaku_cli_progress_fn *progress, void *arg)
{
	const struct kohaku_cli_pool_kernel *k = find_kernel(what);
	unsigned int i;

	for (i = 0; i < n_runs; i++)
		setup(dev, k, n, i, timeout_ms, &runs[i]);
	for (i = 0; i < n_runs; i++) {
		if (runs[i].submitted)
			finish(dev, k, n, timeout_ms, &runs[i]);
		if (progress)
			progress(i + 1, n_runs, arg);
	}
}

void cli_pool_free(kohaku_device *dev, struct kohaku_cli_pool_run *runs,
		   unsigned int n_runs)
{
	unsigned int i, b;

	for (i = 0; i < n_runs; i++)
		for (b = 0; b < 3; b++) {
			if (runs[i].bo[b])
				kohaku_bo_free(dev, runs[i].bo[b]);
			if (b < 2)
				free(runs[i].in[b]);
		}
}

int cli_cmd_run_pool(const struct kohaku_cli_opts *o, const char *what)
{
	const struct kohaku_cli_pool_kernel *k = find_kernel(what);
	const struct drm_kohaku_node **sel = NULL;
	struct drm_kohaku_node *nd = NULL;
	struct kohaku_cli_pool_run *runs = NULL;
	unsigned long n = o->n_given ? o->n : POOL_DEFAULT_N;
	unsigned int n_nodes = 0, n_runs = 0, i;
	kohaku_device *dev;
	int ret;

	if (n % k->multiple || (uint64_t)n * k->elem > 0x7fffffffu)
		cli_die_usage("run %s: --n %lu must be a multiple of %u (and below 2 GiB)",
			      k->name, n, k->multiple);
	ret = cli_open_nodes(o, 0, &dev, &nd, &n_nodes);
	if (ret)
		return ret;
	sel = calloc(n_nodes ? n_nodes : 1, sizeof(*sel));
	runs = calloc(n_nodes ? n_nodes : 1, sizeof(*runs));
	if (!sel || !runs) {
		ret = EXIT_DEVICE;
		goto out;
	}
	ret = cli_select_units(o, nd, n_nodes, KH_CU_GP, what, sel, &n_runs);
	if (ret)
		goto out;
	cli_print_device_nodes(o, dev, nd, n_nodes, "", true);
	if (!o->json)
		printf("\n%s: %s, n = %lu, on %u POOL unit%s\n", k->name, k->what,
		       n, n_runs, n_runs == 1 ? "" : "s");
	if (!n_runs) {
		cli_report_end(o, false, "no POOL unit on this device");
		fprintf(stderr, "%s: run %s: this device has no POOL unit (cu_type 0x%04x); try --map pool\n",
			CLI_PROG, what, KH_CU_GP);
		ret = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < n_runs; i++)
		runs[i].node = sel[i];
	cli_pool_units(dev, what, n, o->timeout_ms, runs, n_runs, NULL, NULL);
	cli_report_set(o, "kernel", json_object_new_string(k->name));
	cli_report_set(o, "n", json_object_new_uint64(n));
	cli_report_set(o, "units", NULL);
	for (i = 0; i < n_runs; i++) {
		report(o, k, &runs[i], i);
		if (runs[i].exit > ret || (ret == EXIT_OK && runs[i].exit))
			ret = runs[i].exit;
	}
	cli_print_verdict(o, k->name, ret, "the host agrees");
	cli_pool_free(dev, runs, n_runs);
out:
	free(sel);
	free(runs);
	free(nd);
	kohaku_close(dev);
	return ret;
}
