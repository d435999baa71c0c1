/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The runtime + uapi tests' fixture on the kernel's kselftest harness
 * (harness.h): every test is TEST_F(rt, name) { ... }.  Include once per
 * test binary.
 */
#ifndef KH_RT_TEST_H
#define KH_RT_TEST_H

#include <string.h>

#include "harness.h"
#include "rt_common.h"

CHECK_FIXTURE(rt)

/*
 * main(): tests that open a device need a backend; without one they skip
 * as a whole (KSFT_SKIP), which is what a kselftest does on a machine
 * without its device.  Listing (-l) runs nothing and needs none.
 */
static inline int rt_harness_main(int argc, char **argv, bool need_device)
{
	const char *b = getenv("KOHAKU_BACKEND");
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-h"))
			need_device = false;
	if (need_device && (!b || !*b))
		ksft_exit_skip("KOHAKU_BACKEND is not set: run with "
			       "KOHAKU_BACKEND=sim or kernel "
			       "(tests/selftests/kohaku/README.md)\n");
	return check_harness_run(argc, argv);
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
