/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* <linux/delay.h> for userspace builds of driver/core: usleep_range() sleeps at least min us. */
#ifndef KH_OS_LINUX_DELAY_H
#define KH_OS_LINUX_DELAY_H

#include <time.h>

static inline void usleep_range(unsigned long min, unsigned long max)
{
	struct timespec ts = { (time_t)(min / 1000000), (long)(min % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

#endif /* KH_OS_LINUX_DELAY_H */
