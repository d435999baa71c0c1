/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/bug.h> for userspace builds of driver/core.  What a kernel debug
 * option would report (lockdep, the refcount checks, BUG_ON()) aborts the
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

#endif /* KH_OS_LINUX_BUG_H */
