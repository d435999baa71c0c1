// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the core's trace hooks (kh_trace_*() in kh_os.h) as the
 * tracepoints of kohaku_trace.h.
 */
#include "kh_core.h"

#define CREATE_TRACE_POINTS
#include "kohaku_trace.h"

void kh_trace_job(struct kh_os_dev *od, enum kh_trace_what what, u32 mesh,
		  u64 job, u32 arg)
{
	struct device *dev = (struct device *)od;

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

void kh_trace_fault(struct kh_os_dev *od, u32 mesh, u64 job, u32 x, u32 y,
		    u32 code)
{
	trace_kohaku_fault((struct device *)od, mesh, job, x, y, code);
}

void kh_trace_mbox(struct kh_os_dev *od, u32 mesh, u32 x, u32 y, u32 index,
		   bool write, bool reply, u32 txn, u64 value, int result)
{
	trace_kohaku_mailbox((struct device *)od, mesh, x, y, index, write,
			     reply, txn, value, result);
}

void kh_trace_dma(struct kh_os_dev *od, bool to_card, u64 bytes, u32 descs,
		  int result)
{
	trace_kohaku_dma((struct device *)od, to_card, bytes, descs, result);
}
