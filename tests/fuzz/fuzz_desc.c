// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the card-description parser (sim-backend/card/desc.c,
 * the lexer, the parameter and unit tables) on any bytes, as kohaku_sim's
 * new_card and the sim backend's description files take them: the text
 * check first (ksim_desc_text_check), then the card.  It must never crash,
 * leak, or hit undefined behaviour; a refusal has a message in printable
 * ASCII (the input's bytes escaped); an accepted description makes a card
 * with meshes and memory that runs a few cycles and goes away.
 *
 * Seeds: the built-in descriptions (FUZZ_WRITE_SEEDS=DIR writes them
 * there and exits) and the KohakuTPU maps of the model tests
 * (tests/run-all.sh; tests/fuzz/README.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksim.h"
#include "fuzz_promise.h"

/* larger than any description worth parsing, as the sim backend's limit */
#define FUZZ_DESC_MAX	(64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* FUZZ_WRITE_SEEDS=DIR: the built-in descriptions as seed files, then exit */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_WRITE_SEEDS");
	const char *const *names = ksim_builtin_names();
	char path[4096];
	FILE *f;

	if (!dir)
		return 0;
	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/builtin-%s.txt", dir, *names);
		f = fopen(path, "w");
		if (!f || fputs(ksim_builtin_desc(*names), f) < 0) {
			perror(path);
			exit(1);
		}
		fclose(f);
	}
	exit(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct ksim_card *c = NULL;
	char err[256], *text;
	unsigned int i, n;
	int e;

	if (len > FUZZ_DESC_MAX)
		return 0;
	err[0] = 0;
	if (ksim_desc_text_check((const char *)data, len, err, sizeof(err))) {
		promise_message(err, sizeof(err));
		return 0;
	}
	text = malloc(len + 1);
	if (!text)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	e = ksim_card_create(text, &c, err, sizeof(err));
	free(text);
	if (e) {
		promise(c == NULL);
		if (e == -EINVAL)
			promise_message(err, sizeof(err));
		return 0;
	}
	n = ksim_mesh_count(c);
	promise(n >= 1);
	for (i = 0; i < n; i++)
		promise(ksim_mesh_dram_size(c, i) > 0);
	ksim_run(c, 64);
	ksim_card_destroy(c);
	return 0;
}
