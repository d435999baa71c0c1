/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A minimal TAP test harness for every userspace test binary (in-process
 * and inside the VM, where the binaries are static and busybox is all there
 * is).  Usage:
 *
 *	TEST(name) { CHECK(x == 1); CHECK_EQ(a, b); }
 *	int main(int argc, char **argv) { return tap_main(argc, argv); }
 *
 * Each TEST is one TAP line; a CHECK that fails prints a diagnostic and marks
 * the test failed but lets it continue.  REQUIRE stops the test.  An optional
 * argument runs only the tests whose name contains it.  The exit status is 1
 * when any test failed.
 */
#ifndef KH_TAP_H
#define KH_TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <inttypes.h>

struct tap_test {
	const char *name;
	void (*fn)(void);
	struct tap_test *next;
};

extern struct tap_test *tap_tests;
extern int tap_cur_failed;
extern const char *tap_skip_reason;

#define TEST(name)							\
	static void test_##name(void);					\
	static struct tap_test tap_reg_##name = { #name, test_##name, NULL }; \
	__attribute__((constructor)) static void tap_add_##name(void)	\
	{								\
		struct tap_test **p = &tap_tests;			\
		while (*p)						\
			p = &(*p)->next;				\
		*p = &tap_reg_##name;					\
	}								\
	static void test_##name(void)

void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int tap_main(int argc, char **argv);

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			tap_fail_at(__FILE__, __LINE__, "%s", #cond);	\
	} while (0)

#define CHECK_MSG(cond, ...)						\
	do {								\
		if (!(cond))						\
			tap_fail_at(__FILE__, __LINE__, __VA_ARGS__);	\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b)						\
			tap_fail_at(__FILE__, __LINE__,			\
				    "%s == %s: %lld != %lld (0x%llx != 0x%llx)", \
				    #a, #b, _a, _b,			\
				    (unsigned long long)_a,		\
				    (unsigned long long)_b);		\
	} while (0)

#define REQUIRE(cond)							\
	do {								\
		if (!(cond)) {						\
			tap_fail_at(__FILE__, __LINE__, "required: %s", #cond); \
			return;						\
		}							\
	} while (0)

/* Mark the current test skipped (TAP "# SKIP") and return from it. */
#define SKIP(reason)							\
	do {								\
		tap_skip_reason = (reason);				\
		return;							\
	} while (0)

#endif /* KH_TAP_H */
