// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: compiler artifacts (docs/spec/artifact.md) from
 * arbitrary bytes.  Each input is parsed (libkohaku's JSON reader and the
 * artifact parser); one that parses is checked and run on a fresh
 * in-process saxpy card, opened unprivileged (every job checked against
 * the buffers it names), with an arena at the compiler's address
 * (0x18000000, 64 KiB) and canaries around it: a buffer right below it,
 * one right above it, and one elsewhere, each filled with a pattern.
 * Jobs get a short limit (20 ms of device time); an artifact of more than
 * 64 rounds or 256 kicks is parsed and checked but not run (time).
 *
 * Promises: a refused parse is -EINVAL (or -ENOMEM) with a message in
 * printable ASCII, and *out NULL; an accepted one has at least one round
 * and its counts within the format's limits; the check and the run return
 * 0 or an errno the API names, with a printable message when not 0; a run
 * that returns 0 finished every round DONE; nothing accepted writes memory
 * outside the arena: every canary reads back its pattern after the run;
 * the run returns (no hang: every job has its limit).
 *
 * FUZZ_ARTIFACT_TRACE=1 build/fuzz/fuzz_artifact INPUT prints what the
 * parse, the check and the run returned, and their messages.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku.h"
#include "fuzz_promise.h"

#define ARENA		KOHAKU_ARTIFACT_ARENA_OFFSET
#define ARENA_SIZE	(64u * 1024)
#define CANARY_SIZE	(64u * 1024)
#define MAX_RUN_ROUNDS	64
#define MAX_RUN_KICKS	256

static void fill(uint8_t *b, size_t n, unsigned int salt)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 131 + salt * 17 + (i >> 8));
}

static bool run_err_ok(int r)
{
	switch (r) {
	case 0: case -EINVAL: case -ENXIO: case -ERANGE: case -ENODEV:
	case -E2BIG: case -EACCES: case -EIO: case -ETIMEDOUT: case -ECANCELED:
	case -ENOMEM:
		return true;
	}
	return false;
}

static void run_one(const struct kohaku_artifact *a,
		    const struct kohaku_artifact_info *in)
{
	static uint8_t want[CANARY_SIZE], got[CANARY_SIZE];
	char err[KOHAKU_ERRMSG_MAX];
	struct kohaku_artifact_result res;
	struct kohaku_artifact_run args;
	kohaku_device *dev = NULL;
	uint32_t arena, canary[3];
	uint64_t addr;
	unsigned int k;
	int r;

	setenv("KOHAKU_UNPRIVILEGED", "1", 1);
	if (kohaku_open(KOHAKU_BACKEND_SIM, "saxpy", &dev, err, sizeof(err))) {
		fprintf(stderr, "fuzz_artifact: cannot open the saxpy card: %s\n",
			err);
		abort();
	}
	promise(!kohaku_bo_create_at(dev, 0, ARENA, ARENA_SIZE, &arena));
	promise(!kohaku_bo_create_at(dev, 0, ARENA - CANARY_SIZE, CANARY_SIZE,
				     &canary[0]));
	promise(!kohaku_bo_create_at(dev, 0, ARENA + ARENA_SIZE, CANARY_SIZE,
				     &canary[1]));
	promise(!kohaku_bo_create(dev, 0, CANARY_SIZE, &canary[2], &addr));
	for (k = 0; k < 3; k++) {
		fill(want, sizeof(want), k);
		promise(!kohaku_bo_write(dev, canary[k], 0, want, sizeof(want)));
	}

	r = kohaku_artifact_check(dev, a, 0);
	if (getenv("FUZZ_ARTIFACT_TRACE"))
		fprintf(stderr, "check: %d %s\n", r, r ? kohaku_last_error(dev) : "");
	promise(run_err_ok(r));
	if (r)
		promise_message(kohaku_last_error(dev), KOHAKU_ERRMSG_MAX);

	memset(&args, 0, sizeof(args));
	args.arenas = &arena;
	args.n_arenas = 1;
	args.timeout_ms = 20;
	r = kohaku_artifact_run(dev, a, &args, &res, sizeof(res));
	if (getenv("FUZZ_ARTIFACT_TRACE"))
		fprintf(stderr, "run: %d, %u of %u rounds DONE, failed round %d: "
			"%s\n", r, res.rounds, in->n_rounds, (int)res.failed_round,
			r ? kohaku_last_error(dev) : "");
	promise(run_err_ok(r));
	if (r) {
		promise_message(kohaku_last_error(dev), KOHAKU_ERRMSG_MAX);
		promise(res.rounds < in->n_rounds);
	} else {
		promise(res.rounds == in->n_rounds);
		promise(res.failed_round == UINT32_MAX);
	}
	/* nothing outside the arena changed */
	for (k = 0; k < 3; k++) {
		fill(want, sizeof(want), k);
		promise(!kohaku_bo_read(dev, canary[k], 0, got, sizeof(got)));
		promise(!memcmp(want, got, sizeof(got)));
	}
	kohaku_close(dev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[KOHAKU_ERRMSG_MAX];
	struct kohaku_artifact *a = (struct kohaku_artifact *)&err;
	struct kohaku_artifact_info in;
	int r;

	setenv("KOHAKU_SIM_CHECK", "0", 0);
	r = kohaku_artifact_parse((const char *)data, size, &a, err, sizeof(err));
	if (getenv("FUZZ_ARTIFACT_TRACE"))
		fprintf(stderr, "parse: %d %s\n", r, err);
	if (r) {
		promise(r == -EINVAL || r == -ENOMEM);
		promise(a == NULL);
		promise_message(err, sizeof(err));
		return 0;
	}
	promise(a != NULL && err[0] == '\0');
	kohaku_artifact_info(a, &in, sizeof(in));
	promise(in.machine != NULL);
	promise(in.n_rounds >= 1 && in.n_rounds <= in.n_steps + 1);
	promise(in.n_kicks <= in.n_steps);
	if (in.n_rounds <= MAX_RUN_ROUNDS && in.n_kicks <= MAX_RUN_KICKS)
		run_one(a, &in);
	kohaku_artifact_free(a);
	return 0;
}
