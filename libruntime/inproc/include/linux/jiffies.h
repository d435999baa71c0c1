/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/jiffies.h> for userspace builds of driver/core.  The in-process
 * host sleeps on CLOCK_MONOTONIC with nanoseconds, so its jiffy is one
 * nanosecond: a timeout converts exactly, clamped where the kernel's is.
 */
#ifndef KH_OS_LINUX_JIFFIES_H
#define KH_OS_LINUX_JIFFIES_H

#include <limits.h>

#include <linux/types.h>

#define MAX_JIFFY_OFFSET	((LONG_MAX >> 1) - 1)

static inline unsigned long nsecs_to_jiffies(u64 n)
{
	return n > MAX_JIFFY_OFFSET ? MAX_JIFFY_OFFSET : (unsigned long)n;
}

static inline unsigned long usecs_to_jiffies(unsigned int us)
{
	return nsecs_to_jiffies((u64)us * 1000);
}

static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return nsecs_to_jiffies((u64)ms * 1000000);
}

#endif /* KH_OS_LINUX_JIFFIES_H */
