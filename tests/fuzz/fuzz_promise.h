/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What every fuzz target checks of the code under it, besides ASan and
 * UBSan: a broken promise aborts, which libFuzzer reports as a crash.
 */
#ifndef KH_FUZZ_PROMISE_H
#define KH_FUZZ_PROMISE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline void promise(bool ok)
{
	if (!ok)
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
