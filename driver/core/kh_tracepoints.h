/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The driver's tracepoints: its timeline of jobs, mailbox requests and
 * DMA, for ftrace and trace-cmd (events/kohaku/ of kohaku.ko, instantiated
 * by driver/linux/kohaku_trace.c).  The core calls trace_kohaku_*() where
 * things happen; in the userspace builds <linux/tracepoint.h> of
 * libruntime/inproc/include makes each an empty inline.  A string field is
 * filled by kohaku_assign_str(dst, src), which kohaku_trace.c's
 * kohaku_compat.h makes the kernel's __assign_str() (its source argument
 * went in 6.10); only that file expands the events' TP_fast_assign.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kohaku

#if !defined(KH_TRACEPOINTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define KH_TRACEPOINTS_H

#include <linux/device.h>
#include <linux/tracepoint.h>

#include "drm/kohaku_accel.h"

#define kohaku_show_job_status(s)					\
	__print_symbolic(s, { KOHAKU_JOB_QUEUED, "queued" },		\
			 { KOHAKU_JOB_RUNNING, "running" },		\
			 { KOHAKU_JOB_DONE, "done" },			\
			 { KOHAKU_JOB_FAULT, "fault" },		\
			 { KOHAKU_JOB_TIMEOUT, "timeout" },		\
			 { KOHAKU_JOB_ABORTED, "aborted" },		\
			 { KOHAKU_JOB_ERROR, "error" })

/*
 * A job's step on its mesh: the events below differ in what arg is (the
 * class prints it as kohaku_retire does, the others with their own names).
 */
DECLARE_EVENT_CLASS(kohaku_job,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 arg),
	TP_ARGS(dev, mesh, job, arg),
	TP_STRUCT__entry(
		__string(dev, dev_name(dev))
		__field(u32, mesh)
		__field(u64, job)
		__field(u32, arg)
	),
	TP_fast_assign(
		kohaku_assign_str(dev, dev_name(dev));
		__entry->mesh = mesh;
		__entry->job = job;
		__entry->arg = arg;
	),
	TP_printk("dev=%s mesh=%u job=%llu status=%s", __get_str(dev),
		  __entry->mesh, __entry->job,
		  kohaku_show_job_status(__entry->arg))
);

/* SUBMIT queued a job on its mesh, with this many programs */
DEFINE_EVENT_PRINT(kohaku_job, kohaku_submit,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 arg),
	TP_ARGS(dev, mesh, job, arg),
	TP_printk("dev=%s mesh=%u job=%llu programs=%u", __get_str(dev),
		  __entry->mesh, __entry->job, __entry->arg)
);

/* the job went on the device; credit: the dispatcher's seed */
DEFINE_EVENT_PRINT(kohaku_job, kohaku_dispatch,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 arg),
	TP_ARGS(dev, mesh, job, arg),
	TP_printk("dev=%s mesh=%u job=%llu credit=%u", __get_str(dev),
		  __entry->mesh, __entry->job, __entry->arg)
);

/* the job is final, with its status (KOHAKU_JOB_*) */
DEFINE_EVENT(kohaku_job, kohaku_retire,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 arg),
	TP_ARGS(dev, mesh, job, arg)
);

/* the job ran out of time: its limit in ms */
DEFINE_EVENT_PRINT(kohaku_job, kohaku_timeout,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 arg),
	TP_ARGS(dev, mesh, job, arg),
	TP_printk("dev=%s mesh=%u job=%llu limit_ms=%u", __get_str(dev),
		  __entry->mesh, __entry->job, __entry->arg)
);

/* the job is to end in error: at node (x,y), with WAIT's fault code */
TRACE_EVENT(kohaku_fault,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 x, u32 y,
		 u32 code),
	TP_ARGS(dev, mesh, job, x, y, code),
	TP_STRUCT__entry(
		__string(dev, dev_name(dev))
		__field(u32, mesh)
		__field(u64, job)
		__field(u32, x)
		__field(u32, y)
		__field(u32, code)
	),
	TP_fast_assign(
		kohaku_assign_str(dev, dev_name(dev));
		__entry->mesh = mesh;
		__entry->job = job;
		__entry->x = x;
		__entry->y = y;
		__entry->code = code;
	),
	TP_printk("dev=%s mesh=%u job=%llu node=%u,%u code=0x%x",
		  __get_str(dev), __entry->mesh, __entry->job, __entry->x,
		  __entry->y, __entry->code)
);

/*
 * A POOL unit's bounds granted for a job (kh_pool_bounds.c): BOUNDS_EN
 * (KH_POOL_BOUNDS_ALL: none) and the regions written.
 */
TRACE_EVENT(kohaku_pool_bounds,
	TP_PROTO(struct device *dev, u32 mesh, u64 job, u32 x, u32 y,
		 u32 en, u32 regions),
	TP_ARGS(dev, mesh, job, x, y, en, regions),
	TP_STRUCT__entry(
		__string(dev, dev_name(dev))
		__field(u32, mesh)
		__field(u64, job)
		__field(u32, x)
		__field(u32, y)
		__field(u32, en)
		__field(u32, regions)
	),
	TP_fast_assign(
		kohaku_assign_str(dev, dev_name(dev));
		__entry->mesh = mesh;
		__entry->job = job;
		__entry->x = x;
		__entry->y = y;
		__entry->en = en;
		__entry->regions = regions;
	),
	TP_printk("dev=%s mesh=%u job=%llu node=%u,%u en=0x%x regions=%u",
		  __get_str(dev), __entry->mesh, __entry->job, __entry->x,
		  __entry->y, __entry->en, __entry->regions)
);

/*
 * A CU_CTRL request through the orchestrator mailbox (reply=0), or what
 * came of it (reply=1: result 0 and the value read, or an errno).
 */
TRACE_EVENT(kohaku_mailbox,
	TP_PROTO(struct device *dev, u32 mesh, u32 x, u32 y, u32 index,
		 bool write, bool reply, u32 txn, u64 value, int result),
	TP_ARGS(dev, mesh, x, y, index, write, reply, txn, value, result),
	TP_STRUCT__entry(
		__string(dev, dev_name(dev))
		__field(u32, mesh)
		__field(u32, x)
		__field(u32, y)
		__field(u32, index)
		__field(bool, write)
		__field(bool, reply)
		__field(u32, txn)
		__field(u64, value)
		__field(int, result)
	),
	TP_fast_assign(
		kohaku_assign_str(dev, dev_name(dev));
		__entry->mesh = mesh;
		__entry->x = x;
		__entry->y = y;
		__entry->index = index;
		__entry->write = write;
		__entry->reply = reply;
		__entry->txn = txn;
		__entry->value = value;
		__entry->result = result;
	),
	TP_printk("dev=%s mesh=%u node=%u,%u %s %s index=%u txn=%u value=0x%llx result=%d",
		  __get_str(dev), __entry->mesh, __entry->x, __entry->y,
		  __entry->write ? "write" : "read",
		  __entry->reply ? "reply" : "request", __entry->index,
		  __entry->txn, __entry->value, __entry->result)
);

/* one XDMA transfer: its direction, bytes, descriptors, and result */
TRACE_EVENT(kohaku_dma,
	TP_PROTO(struct device *dev, bool to_card, u64 bytes, u32 descs,
		 int result),
	TP_ARGS(dev, to_card, bytes, descs, result),
	TP_STRUCT__entry(
		__string(dev, dev_name(dev))
		__field(bool, to_card)
		__field(u64, bytes)
		__field(u32, descs)
		__field(int, result)
	),
	TP_fast_assign(
		kohaku_assign_str(dev, dev_name(dev));
		__entry->to_card = to_card;
		__entry->bytes = bytes;
		__entry->descs = descs;
		__entry->result = result;
	),
	TP_printk("dev=%s %s bytes=%llu descs=%u result=%d", __get_str(dev),
		  __entry->to_card ? "h2c" : "c2h", __entry->bytes,
		  __entry->descs, __entry->result)
);

#endif /* KH_TRACEPOINTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE kh_tracepoints
#include <trace/define_trace.h>
