// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the core's trace hooks (kh_trace_*() in kh_os.h) as the
 * tracepoints of kohaku_trace.h.
 */
#include "kh_core.h"
#include "kh_os.h"

#define CREATE_TRACE_POINTS
#include "kohaku_trace.h"

void kh_trace_job(struct device *dev, enum kh_trace_what what, u32 mesh,
		  u64 job, u32 arg)
{
	switch (what) {
	case KH_TRACE_SUBMIT:
		trace_kohaku_submit(dev, mesh, job, arg);
		break;
	case KH_TRACE_DISPATCH:
		trace_kohaku_dispatch(dev, mesh, job, arg);
		break;
	case KH_TRACE_RETIRE:
		trace_kohaku_retire(dev, mesh, job, arg);
		break;
	case KH_TRACE_TIMEOUT:
		trace_kohaku_timeout(dev, mesh, job, arg);
		break;
	}
}

void kh_trace_fault(struct device *dev, u32 mesh, u64 job, u32 x, u32 y,
		    u32 code)
{
	trace_kohaku_fault(dev, mesh, job, x, y, code);
}

void kh_trace_mbox(struct device *dev, u32 mesh, u32 x, u32 y, u32 index,
		   bool write, bool reply, u32 txn, u64 value, int result)
{
	trace_kohaku_mailbox(dev, mesh, x, y, index, write,
			     reply, txn, value, result);
}

void kh_trace_dma(struct device *dev, bool to_card, u64 bytes, u32 descs,
		  int result)
{
	trace_kohaku_dma(dev, to_card, bytes, descs, result);
}
