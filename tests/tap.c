// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The TAP harness behind tests/tap.h. */
#include "tap.h"

struct tap_test *tap_tests;
int tap_cur_failed;
const char *tap_skip_reason;

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void tap_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_cur_failed = 1;
	printf("#   FAILED %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

int tap_main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	int n = 0, failed = 0;
	struct tap_test *t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	for (t = tap_tests; t; t = t->next) {
		if (filter && !strstr(t->name, filter))
			continue;
		tap_cur_failed = 0;
		tap_skip_reason = NULL;
		t->fn();
		n++;
		if (tap_skip_reason)
			printf("ok %d - %s # SKIP %s\n", n, t->name,
			       tap_skip_reason);
		else if (tap_cur_failed)
			printf("not ok %d - %s\n", n, t->name);
		else
			printf("ok %d - %s\n", n, t->name);
		failed += tap_cur_failed;
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
