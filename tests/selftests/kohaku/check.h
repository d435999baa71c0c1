/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Checks for every test suite of the project (model, driver core, runtime
 * and uapi), on the kernel's kselftest harness (harness.h).  They work
 * anywhere in a test's process: in the test body, in helpers and in
 * helper threads.  A failure prints "#   FAILED file:line: why" and fails
 * the running test, which goes on; REQUIRE fails and returns from the
 * calling function; check_skip() ends it as skipped.  The harness's own
 * EXPECT_* and ASSERT_* work too, in test bodies.
 *
 * This header has no harness in it, so helper files of a suite include it
 * alone.  It lives in the selftests directory because that directory must
 * stand alone in a kernel tree (README.md there).
 */
#ifndef KH_CHECK_H
#define KH_CHECK_H

#include <stdbool.h>
#include <stddef.h>

void check_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* a "# " diagnostic line of the TAP output */
void check_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * From a helper: the running test is skipped, for reason (it has failed
 * already, it stays failed).  A test body returns after it (SKIP does both).
 */
void check_skip(const char *reason);
/* whether the running test has failed so far */
bool check_failed(void);

/*
 * The harness side (harness.h): the running test's exit code and skip
 * reason (memory the harness shares between its processes), set by the
 * fixture; the leak check at its end; the timeouts' multiplier
 * (KOHAKU_TEST_TIMEOUT_SCALE, 1 to 100, default 1).
 */
void check_begin(int *exit_code, char *reason, size_t reason_len);
void check_end(void);
unsigned int check_timeout_scale(void);

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			check_fail_at(__FILE__, __LINE__, "%s", #cond);	\
	} while (0)

#define CHECK_MSG(cond, ...)						\
	do {								\
		if (!(cond))						\
			check_fail_at(__FILE__, __LINE__, __VA_ARGS__);	\
	} while (0)

/* compared as long long, so any two integer types compare as values */
#define CHECK_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b)						\
			check_fail_at(__FILE__, __LINE__,		\
				      "%s == %s: %lld != %lld (0x%llx != 0x%llx)", \
				      #a, #b, _a, _b,			\
				      (unsigned long long)_a,		\
				      (unsigned long long)_b);		\
	} while (0)

#define REQUIRE(cond)							\
	do {								\
		if (!(cond)) {						\
			check_fail_at(__FILE__, __LINE__, "required: %s", #cond); \
			return;						\
		}							\
	} while (0)

#endif /* KH_CHECK_H */
