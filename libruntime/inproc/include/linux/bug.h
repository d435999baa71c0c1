/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/bug.h> for userspace builds of driver/core.  What a kernel debug
 * option would report (lockdep, the refcount checks, BUG_ON()), and a
 * broken assumption the kernel warns about (WARN_ON_ONCE()), aborts the
 * process here, with the place and the reason on stderr: a test that hits
 * it fails at once and loudly (libruntime/inproc/kh_os_mutex.c).
 */
#ifndef KH_OS_LINUX_BUG_H
#define KH_OS_LINUX_BUG_H

#include <linux/compiler.h>

__printf(3, 4) __attribute__((noreturn))
void kh_os_bug(const char *file, int line, const char *fmt, ...);

#define BUG_ON(cond)							\
	do {								\
		if (unlikely(cond))					\
			kh_os_bug(__FILE__, __LINE__, "BUG_ON(%s)", #cond); \
	} while (0)

/* the kernel warns once and goes on; a test should stop at the first */
#define WARN_ON_ONCE(cond)						\
	({								\
		bool __kh_warn = !!(cond);				\
		if (unlikely(__kh_warn))				\
			kh_os_bug(__FILE__, __LINE__, "WARN_ON_ONCE(%s)", #cond); \
		__kh_warn;						\
	})

#endif /* KH_OS_LINUX_BUG_H */
