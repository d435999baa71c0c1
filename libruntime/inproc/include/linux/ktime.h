/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/ktime.h> for userspace builds of driver/core: the host's
 * monotonic clock in nanoseconds (CLOCK_MONOTONIC, as the kernel's
 * ktime_get_ns()).  The core measures device time with the card's clock
 * (kh_now()); this one is the host's, for what the host's time bounds.
 */
#ifndef KH_OS_LINUX_KTIME_H
#define KH_OS_LINUX_KTIME_H

#include <time.h>

#include <linux/types.h>

static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

#endif /* KH_OS_LINUX_KTIME_H */
