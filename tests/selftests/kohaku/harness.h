/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Every test suite of the project on the kernel's kselftest harness
 * (tools/testing/selftests/kselftest_harness.h, from Debian's
 * linux-source-6.12: the build extracts it, tests/selftests/kselftest.mk).
 * A suite's tests are TEST_F(fixture, name) on a fixture made by
 * CHECK_FIXTURE(fixture); the harness runs each in a process of its own (a
 * crash or a hang loses that test only), under a per-test timeout (30 s
 * unless TEST_F_TIMEOUT says; KOHAKU_TEST_TIMEOUT_SCALE multiplies them,
 * for the sanitizers, valgrind and slow VMs), printing KTAP; its options
 * select tests (-l lists them, -t NAME runs one).  The fixture hands the
 * test's exit code to check.c, so check.h's checks work in helpers and
 * helper threads, and runs LeakSanitizer at the end under ASan.
 *
 * Include once per test binary: FIXTURE_SETUP defines functions.
 */
#ifndef KH_HARNESS_H
#define KH_HARNESS_H

#include "../kselftest_harness.h"
#include "check.h"

/* a fixture with nothing in it but the checks' plumbing */
#define CHECK_FIXTURE(name)						\
	FIXTURE(name) {							\
		int unused;						\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		check_begin(&_metadata->exit_code,			\
			    _metadata->results->reason,			\
			    sizeof(_metadata->results->reason));	\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		check_end();						\
	}

/* scale every test's timeout, then run the harness */
static inline int check_harness_run(int argc, char **argv)
{
	unsigned int scale = check_timeout_scale();
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= scale;
	return test_harness_run(argc, argv);
}

#define CHECK_TEST_MAIN							\
	int main(int argc, char **argv)					\
	{								\
		return check_harness_run(argc, argv);			\
	}

#endif /* KH_HARNESS_H */
