/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/sched/signal.h> for userspace builds of driver/core: no signal is
 * ever pending for the core in-process (the application's own handlers
 * run as they would around any library call); in kohakud, a client that
 * is gone is its calls' fatal signal (<kh_os_caller.h>).
 */
#ifndef KH_OS_LINUX_SCHED_SIGNAL_H
#define KH_OS_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>
#include <kh_os_caller.h>

static inline int signal_pending(struct task_struct *p)
{
	return kh_os_signal_pending();
}

#endif /* KH_OS_LINUX_SCHED_SIGNAL_H */
