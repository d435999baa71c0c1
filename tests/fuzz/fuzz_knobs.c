// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the model's command and fault-knob parser
 * (sim-backend/obs/command.c, obs/inject.c: what `kohaku sim inject`,
 * description directives and kohaku_sim's debugfs take) on any lines,
 * each given to ksim_command() on a fresh built-in card (sx_null_2x2),
 * which then runs a few hundred cycles with the knobs set and dumps them.
 * It must never crash, leak or hit undefined behaviour, and a refusal has
 * a message in printable ASCII.
 *
 * Seeds: tests/fuzz/seeds/knobs/ (the commands of the model's tests).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ksim.h"
#include "fuzz_promise.h"

#define FUZZ_LINES_MAX	16
#define FUZZ_LINE_MAX	512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct ksim_card *c = NULL;
	char line[FUZZ_LINE_MAX], err[256], dump[4096];
	size_t at = 0, n;
	unsigned int lines = 0;
	int e;

	if (ksim_card_create(ksim_builtin_desc("sx_null_2x2"), &c, err,
			     sizeof(err)))
		abort();
	while (at < len && lines++ < FUZZ_LINES_MAX) {
		const uint8_t *nl = memchr(data + at, '\n', len - at);

		n = (nl ? (size_t)(nl - data) : len) - at;
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, data + at, n);
		line[n] = '\0';
		at = nl ? (size_t)(nl - data) + 1 : len;
		err[0] = 0;
		e = ksim_command(c, line, err, sizeof(err));
		promise(e == 0 || e == -EINVAL);
		if (e && memchr(line, 0, n) == NULL)
			promise_message(err, sizeof(err));
	}
	ksim_run(c, 300);
	ksim_dump_knobs(c, dump, sizeof(dump));
	ksim_card_destroy(c);
	return 0;
}
