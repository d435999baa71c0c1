/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/sched/signal.h> for userspace builds of driver/core: no signal is
 * ever pending for the core in-process (the application's own handlers
 * run as they would around any library call).
 */
#ifndef KH_OS_LINUX_SCHED_SIGNAL_H
#define KH_OS_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>

static inline int signal_pending(struct task_struct *p)
{
	return 0;
}

#endif /* KH_OS_LINUX_SCHED_SIGNAL_H */
