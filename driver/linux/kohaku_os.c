// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: what driver/core asks of its host that the kernel has no
 * name for (kh_os.h), but the DMA mapping (kohaku_os_dma.c): whether a
 * waiter may run the engine's work itself.  In the kernel it may not.
 */

#include <linux/workqueue.h>

#include "kh_os.h"

/* ---- the engine's work: never run inline here ---- */

bool kh_work_claim(struct workqueue_struct *wq, struct work_struct *w)
{
	return false;
}

void kh_work_unclaim(struct workqueue_struct *wq, struct work_struct *w)
{
}
