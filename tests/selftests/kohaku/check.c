// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The checks behind check.h, reporting into the kselftest harness. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kselftest.h"
#include "check.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

/*
 * The harness forks each test; its exit code and skip reason live in
 * memory the harness shares between its processes, so a failure from a
 * helper or a helper thread reaches the report.  Before any test (main)
 * there is none.
 */
static int *check_exit_code;
static char *check_reason;
static size_t check_reason_len;

void check_begin(int *exit_code, char *reason, size_t reason_len)
{
	check_exit_code = exit_code;
	check_reason = reason;
	check_reason_len = reason_len;
}

/*
 * The harness ends a test's process with _exit(), where LeakSanitizer's
 * exit-time check does not run: under ASan, check the test's process here.
 */
void check_end(void)
{
#if defined(__SANITIZE_ADDRESS__)
	if (__lsan_do_recoverable_leak_check())
		check_fail_at(__FILE__, __LINE__,
			      "LeakSanitizer: this test leaked memory (above)");
#endif
	check_exit_code = NULL;
}

void check_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (check_exit_code)
		*check_exit_code = KSFT_FAIL;
	printf("#   FAILED %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void check_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void check_skip(const char *reason)
{
	if (!check_exit_code || *check_exit_code == KSFT_FAIL)
		return;
	*check_exit_code = KSFT_SKIP;
	if (check_reason)
		snprintf(check_reason, check_reason_len, "%s", reason);
}

bool check_failed(void)
{
	return check_exit_code && *check_exit_code == KSFT_FAIL;
}

unsigned int check_timeout_scale(void)
{
	const char *s = getenv("KOHAKU_TEST_TIMEOUT_SCALE");
	unsigned long v = s ? strtoul(s, NULL, 10) : 1;

	return v >= 1 && v <= 100 ? v : 1;
}
