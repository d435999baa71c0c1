/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The runtime + uapi tests on the kernel's kselftest harness
 * (tools/testing/selftests/kselftest_harness.h, from Debian's
 * linux-source-6.12: the build extracts it, kselftest.mk).  Every test is
 *
 *	TEST_F(rt, name) { ... }
 *
 * run by the harness in a process of its own (a fork per test, so a test
 * that crashes or hangs takes nothing else with it), under a per-test
 * timeout (TEST_F_TIMEOUT for the long ones; KOHAKU_TEST_TIMEOUT_SCALE
 * multiplies them all, for valgrind and slow VMs), printing TAP.  The
 * harness's options select tests: -l lists them, -t NAME runs one (see
 * README.md).  The fixture hands the test's exit code to rt_common.c, so
 * CHECK* and REQUIRE (rt_common.h) work in helpers and helper threads
 * too; under ASan its teardown runs LeakSanitizer on the test's process,
 * which the harness ends with _exit() (no leak check of its own).
 *
 * Include once per test binary: FIXTURE_SETUP defines functions.
 */
#ifndef KH_RT_TEST_H
#define KH_RT_TEST_H

#include "../kselftest_harness.h"
#include "rt_common.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define RT_LEAK_CHECK() __lsan_do_recoverable_leak_check()
#else
#define RT_LEAK_CHECK() 0
#endif

FIXTURE(rt) {
	/* the map the test runs on (KOHAKU_TEST_MAP) */
	const struct rt_map *map;
};

FIXTURE_SETUP(rt)
{
	rt_set_test(&_metadata->exit_code);
	self->map = rt_map();
}

FIXTURE_TEARDOWN(rt)
{
	if (RT_LEAK_CHECK())
		rt_fail_at(__FILE__, __LINE__,
			   "LeakSanitizer: this test leaked memory (above)");
	rt_set_test(NULL);
}

/*
 * main(): tests that open a device need a backend; without one they skip
 * as a whole (KSFT_SKIP), which is what a kselftest does on a machine
 * without its device.  Then the timeouts are scaled and the harness runs.
 */
static inline int rt_harness_main(int argc, char **argv, bool need_device)
{
	unsigned int scale = rt_timeout_scale();
	const char *b = getenv("KOHAKU_BACKEND");
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-h"))
			need_device = false;	/* listing runs nothing */
	if (need_device && (!b || !*b))
		ksft_exit_skip("KOHAKU_BACKEND is not set: run with "
			       "KOHAKU_BACKEND=sim or kernel "
			       "(tests/selftests/kohaku/README.md)\n");
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= scale;
	return test_harness_run(argc, argv);
}

#define RT_TEST_MAIN							\
	int main(int argc, char **argv)					\
	{								\
		return rt_harness_main(argc, argv, true);		\
	}

/* for binaries that test the library alone (rt_layout, rt_pci) */
#define RT_TEST_MAIN_NO_DEVICE						\
	int main(int argc, char **argv)					\
	{								\
		return rt_harness_main(argc, argv, false);		\
	}

#endif /* KH_RT_TEST_H */
