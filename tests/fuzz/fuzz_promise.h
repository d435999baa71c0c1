/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What every fuzz target checks of the code under it, besides ASan and
 * UBSan: a broken promise aborts, which libFuzzer reports as a crash.
 */
#ifndef KH_FUZZ_PROMISE_H
#define KH_FUZZ_PROMISE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the promise that broke, where, then abort() */
#define promise(ok)	promise_at((ok), #ok, __FILE__, __LINE__)

static inline void promise_at(bool ok, const char *what, const char *file,
			      int line)
{
	if (ok)
		return;
	fprintf(stderr, "%s:%d: broken promise: %s\n", file, line, what);
	abort();
}

/* a refusal names its reason in printable ASCII (no byte of the input raw) */
static inline void promise_message(const char *err, size_t len)
{
	size_t i, n = strnlen(err, len);

	promise(n > 0 && n < len);
	for (i = 0; i < n; i++)
		promise(err[i] >= 0x20 && err[i] < 0x7f);
}

#endif /* KH_FUZZ_PROMISE_H */
