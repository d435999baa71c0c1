/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * TEST_ABORTS(fixture, name): a test that must end in the abort of the
 * userspace builds' checks (lockdep, refcount, BUG_ON: kh_os_bug() in
 * libruntime/inproc/include/linux/bug.h).  The kselftest harness takes any
 * SIGABRT for a failed assertion of its own, so the test turns the abort
 * into SIGUSR1 and expects that.  Include after harness.h.
 */
#ifndef EXPECT_ABORT_H
#define EXPECT_ABORT_H

#include <signal.h>

static inline void expect_abort_handler(int sig)
{
	signal(SIGUSR1, SIG_DFL);
	raise(SIGUSR1);
}

#define TEST_ABORTS(fixture, name)					\
	static void name##_body(struct __test_metadata *_metadata);	\
	TEST_F_SIGNAL(fixture, name, SIGUSR1)				\
	{								\
		signal(SIGABRT, expect_abort_handler);			\
		name##_body(_metadata);					\
	}								\
	static void name##_body(struct __test_metadata *_metadata)

#endif /* EXPECT_ABORT_H */
