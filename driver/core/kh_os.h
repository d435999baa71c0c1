/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * driver/core's only OS boundary.  The core is compiled into kohaku.ko and
 * into libkohaku's in-process backend; everything it needs from its host is
 * declared here: types, allocation, locks and their assertions, sleeping
 * waits, a worker, fences and the host file's syncobjs, ID maps, time-bounded
 * polling, logging and the user copy of ioctl arguments.
 *
 * The kernel half is mostly the kernel's own helpers, inline; what is not
 * lives in driver/linux/kohaku_os.c.  The userspace half is implemented by
 * libkohaku's in-process host (libruntime/inproc/kh_os_*.c).
 */
#ifndef KH_OS_H
#define KH_OS_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <asm/barrier.h>

#ifdef __KERNEL__

#include <linux/mm.h>
#include <linux/delay.h>
#include <asm/barrier.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <linux/refcount.h>
#include <linux/compiler.h>
#include <linux/crc32.h>

/* CRC-32 (IEEE 802.3) as zlib's crc32(): start with 0, chain the result. */
static inline u32 kh_crc32(u32 crc, const void *p, size_t n)
{
	return ~crc32_le(~crc, p, n);
}

/* The host's device, for log prefixes: a struct device in the kernel. */
struct kh_os_dev;
#define kh_os_err(od, fmt, ...)	 dev_err((struct device *)(od), fmt, ##__VA_ARGS__)
#define kh_os_warn(od, fmt, ...) dev_warn((struct device *)(od), fmt, ##__VA_ARGS__)
#define kh_os_info(od, fmt, ...) dev_info((struct device *)(od), fmt, ##__VA_ARGS__)
#define kh_os_dbg(od, fmt, ...)	 dev_dbg((struct device *)(od), fmt, ##__VA_ARGS__)

#else /* userspace: libkohaku's in-process backend */

#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <pthread.h>
#include <sys/ioctl.h>

/* CRC-32 (IEEE 802.3): zlib's crc32() */
u32 kh_crc32(u32 crc, const void *p, size_t n);

/*
 * Userspace log sink: a struct kh_os_dev is supplied by the host (libkohaku)
 * and collects the messages a kernel host would print to dmesg.
 */
struct kh_os_dev;
__printf(3, 4) void kh_os_log(struct kh_os_dev *od, int level, const char *fmt, ...);
#define KH_LOG_ERR	3
#define KH_LOG_WARN	4
#define KH_LOG_INFO	6
#define KH_LOG_DBG	7
#define kh_os_err(od, fmt, ...)	 kh_os_log((od), KH_LOG_ERR, fmt, ##__VA_ARGS__)
#define kh_os_warn(od, fmt, ...) kh_os_log((od), KH_LOG_WARN, fmt, ##__VA_ARGS__)
#define kh_os_info(od, fmt, ...) kh_os_log((od), KH_LOG_INFO, fmt, ##__VA_ARGS__)
#define kh_os_dbg(od, fmt, ...)	 kh_os_log((od), KH_LOG_DBG, fmt, ##__VA_ARGS__)

#endif /* __KERNEL__ */

/* ---- host memory the card's DMA engine reaches (both hosts) ---- */

/**
 * struct kh_dma_mem - host memory allocated for the card's DMA engine
 * @cpu: the host's view of it.
 * @bus: the card's: the bus address descriptors name.
 * @size: bytes.
 * @os: the host's own handle.
 *
 * Coherent: what the CPU writes the card sees and the other way round,
 * with no sync calls (descriptor rings, write-back words, bounce lines).
 */
struct kh_dma_mem {
	void *cpu;
	u64 bus;
	size_t size;
	void *os;
};

/* Zeroed, page aligned; 0 or -ENOMEM. */
int kh_dma_alloc(struct kh_os_dev *od, size_t size, struct kh_dma_mem *m);
void kh_dma_free(struct kh_os_dev *od, struct kh_dma_mem *m);

/*
 * A caller's buffer pinned and mapped for the card: its bus segments in
 * order, each contiguous for the card (at least page by page, merged where
 * the host's mapping merges them).  to_card: the card reads it (BO_WRITE);
 * else the card writes it, and unmapping marks the pages dirty.
 */
struct kh_user_dma;
int kh_user_dma_map(struct kh_os_dev *od, void __user *p, size_t len,
		    bool to_card, struct kh_user_dma **out);
unsigned int kh_user_dma_count(const struct kh_user_dma *u);
void kh_user_dma_seg(const struct kh_user_dma *u, unsigned int i, u64 *bus,
		     size_t *len);
void kh_user_dma_unmap(struct kh_user_dma *u);

/* ---- the engine's work run inline (both hosts) ---- */

/*
 * Inline stepping: may the calling thread run work item @w of @wq itself,
 * now (it is not running)?  The in-process host lets a waiter whose card
 * lives in its own process do so while nobody else does (true: claimed),
 * sparing two thread switches a job; the workqueue's thread then runs only
 * when nobody waits.  kohaku.ko never does: waiters sleep and the worker
 * alone touches the card.  Unclaim hands a kick that came meanwhile back
 * to the workqueue.
 */
bool kh_work_claim(struct workqueue_struct *wq, struct work_struct *w);
void kh_work_unclaim(struct workqueue_struct *wq, struct work_struct *w);

/* ---- the driver's timeline (both hosts) ---- */

/*
 * Trace hooks at the points of a job's life, the mailbox and DMA: the
 * kernel's tracepoints (driver/linux/kohaku_trace.h, events/kohaku/ in
 * tracefs); no-ops in the in-process host.
 */
enum kh_trace_what {
	KH_TRACE_SUBMIT,	/* queued by SUBMIT; arg: programs */
	KH_TRACE_DISPATCH,	/* on the device; arg: the credit seed */
	KH_TRACE_RETIRE,	/* final; arg: KOHAKU_JOB_* status */
	KH_TRACE_TIMEOUT,	/* out of time; arg: its limit in ms */
};
void kh_trace_job(struct kh_os_dev *od, enum kh_trace_what what, u32 mesh,
		  u64 job, u32 arg);
/* a job's first error: at node (x,y), with WAIT's fault code */
void kh_trace_fault(struct kh_os_dev *od, u32 mesh, u64 job, u32 x, u32 y,
		    u32 code);
/* a CU_CTRL request (reply false), or its outcome (reply true) */
void kh_trace_mbox(struct kh_os_dev *od, u32 mesh, u32 x, u32 y, u32 index,
		   bool write, bool reply, u32 txn, u64 value, int result);
/* one XDMA transfer and its result */
void kh_trace_dma(struct kh_os_dev *od, bool to_card, u64 bytes, u32 descs,
		  int result);

#endif /* KH_OS_H */
