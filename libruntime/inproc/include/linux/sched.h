/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/sched.h> for userspace builds of driver/core: the system's (clone
 * flags), cond_resched() (nothing to yield to: the in-process card runs in
 * the caller's thread) and current.
 */
#ifndef KH_OS_LINUX_SCHED_H
#define KH_OS_LINUX_SCHED_H

#include_next <linux/sched.h>

struct task_struct;

#define current		((struct task_struct *)NULL)

static inline void cond_resched(void)
{
}

#endif /* KH_OS_LINUX_SCHED_H */
