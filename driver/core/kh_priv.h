/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * driver/core internals shared between its files.  Nothing here is seen by
 * the hosts (they use kh_core.h).
 *
 * Locking (docs/driver-core.md "Locking"), in this order of nesting:
 *   kf->lock       a file's BO and job tables
 *   m->lock        one mesh: its job queue and the job on it, dispatch and
 *                  credit state, the mailbox, its nodes' live registers,
 *                  its DXA units' descriptor slots
 *   kd->jobs_lock  job ids, the unfinished-jobs list, deferred frees
 *   mem->lock      one mesh's allocator
 * Two locks of one class are never held together.  The waiter list and
 * the engine's worker have leaf locks.  DMA and copies from user memory run
 * with none of these held.  Nothing declares this order: lockdep learns it
 * (the kernel's, and the userspace builds' own, kh_os_mutex.c), and
 * reports a lock taken against it.
 */
#ifndef KH_PRIV_H
#define KH_PRIV_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-fence.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <asm/barrier.h>

#include "kh_core.h"
#include "kh_os.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_regs.h"
#include "kohaku/kh_units.h"
#include "kohaku/kh_fw.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_dxa.h"
#include "kh_xdma_engine.h"

/* messages about a device: the host's device names it */
#define kh_err(kd, fmt, ...)	dev_err((kd)->dev, fmt, ##__VA_ARGS__)
#define kh_warn(kd, fmt, ...)	dev_warn((kd)->dev, fmt, ##__VA_ARGS__)
#define kh_info(kd, fmt, ...)	dev_info((kd)->dev, fmt, ##__VA_ARGS__)
#define kh_dbg(kd, fmt, ...)	dev_dbg((kd)->dev, fmt, ##__VA_ARGS__)

/* Device-time limits of the bring-up and mailbox paths (docs/driver-core.md). */
#define KH_CTRL_TIMEOUT_NS	100000ULL	/* one CU_CTRL round trip */
#define KH_MBOX_IDLE_TIMEOUT_NS	2000000ULL	/* dispatcher idle before a TX */
#define KH_RX_DRAIN_MAX		32		/* stale RX flits popped per drain */
#define KH_CTRL_INFLIGHT	8		/* CU_CTRL requests out at once */
#define KH_SETTLE_NS		2000ULL		/* read-after-write guard window */
/*
 * The longest the settle waits once every unit of the job has retired:
 * writes still landing after it are nobody's job (kh_settled()).
 */
#define KH_SETTLE_MAX_NS	1000000ULL
#define KH_RECOVER_NS		1000000000ULL	/* a timed-out job gets this to drain */
/*
 * The cpu units' L1 flush after a job's programs (kh_cpu_flush.c) may run
 * this far past the job's limit: a sweep of 128 dirty lines, each
 * write-back waiting for the last one's ack, is well inside it.
 */
#define KH_CPU_FLUSH_NS		10000000ULL
#define KH_RESET_CHECK_NS	1000000ULL	/* a running job's mesh: reset canary */
#define KH_RESET_WAIT_NS	100000000ULL	/* a reset mesh gets this to relock */
/*
 * What the driver keeps in the orchestrator's CTRL (stored only, cleared by
 * a mesh reset): "kohaku" and a version byte.  Not the reset value.
 */
#define KH_CTRL_CANARY		0x6b6f68616b750001ULL
#define KH_CHUNK_FLITS		(KH_ORC_STAGE_FLITS / 2)	/* staging ping-pong */
#define KH_MAX_NODES_PER_MESH	256		/* a 16x16 span */
#define KH_BOUNCE_BYTES		65536
/* a waiter on a simulated card re-checks device time at least this often */
#define KH_WAIT_SLICE_NS	100000000ULL
/* with nothing in flight, a simulated card's time is let pass this much at once */
#define KH_IDLE_STEP_NS		1000000ULL

struct kh_device;
struct kh_file;
struct kh_dxa_slot;

struct kh_node {
	struct kh_mesh *mesh;
	u8 x, y;
	u16 cu_type;
	u8 cu_version;
	u8 n_buffers;
	u16 inst_depth;
	u8 flags;		/* KOHAKU_NODE_*; under mesh->lock */
	/*
	 * A hung node may wake and signal the instructions it still owes,
	 * returning credit into a later job's counter: hung_left signals
	 * owed, hung_mark its NODE_STATUS count when last looked at, and
	 * hung_last when the last one owed is a program's last (its signal
	 * returns no credit).  Under mesh->lock.
	 */
	u32 hung_left;
	u16 hung_mark;
	bool hung_last;
	/*
	 * Of hung_left, how many may be instructions' signals (the node's
	 * share of late_credit) and how many may be peer signals
	 * (SIG_DATA_RECEIVED of other units' CU_DATA: no credit, but a later
	 * job on it would count them as its own).  Both are hung_left for
	 * none and the other, but not knowing which signals seen were which
	 * (NODE_STATUS keeps a count), they may add up to more.  Under
	 * mesh->lock.
	 */
	u32 hung_inst;
	u32 hung_peer;
	u64 caps_reg;
	/*
	 * CU_STATUS, CU_COUNTERS, CU_DBG as last read, under mesh->lock; not
	 * read at bring-up (three exchanges a node) but when first asked for.
	 */
	bool regs_read;
	u64 status_reg;
	u64 counters_reg;
	u64 dbg_reg;
	/* a POOL unit's firmware (kh_fw.c), under mesh->lock */
	u8 fw_state;		/* KOHAKU_FW_STATE_* */
	u32 fw_version, fw_api;
	u64 fw_boot_ns;
	u64 fw_trap;
	bool pool_bounds;	/* POOL_CAPS version >= 2, read at its boot */
	/* a DXA unit's KH_DXA_SLOTS descriptor slots (kh_dxa.c), under mesh->lock */
	struct kh_dxa_slot *dxa;
	/*
	 * A cpu unit: CU_DBG of the last job's program, read before the
	 * driver's flush stub cleared it (kh_cpu_flush.c); NODES reports it
	 * while cpu_dbg_kept.  Under mesh->lock.
	 */
	bool cpu_dbg_kept;
	u64 cpu_dbg;
};

/* A free extent of one mesh's device memory. */
struct kh_extent {
	struct list_head link;
	u64 start;
	u64 len;
};

struct kh_mem {
	struct mutex lock;
	struct list_head free;	/* sorted by start, coalesced */
	u64 size;
	u64 free_bytes;
};

enum kh_mesh_run {
	KH_RUN_IDLE,		/* nothing on the device */
	KH_RUN_DATA,		/* sending the programs' CU_DATA first */
	KH_RUN_DISPATCH,	/* sending chunks */
	KH_RUN_COLLECT,		/* everything sent, counting signals */
	KH_RUN_FLUSH,		/* every program retired: the cpu units' L1 flush */
	KH_RUN_SETTLE,		/* signals in; waiting for writes to land */
	KH_RUN_RECOVER,		/* the job timed out; waiting for it to drain */
};

/* a register this driver has not written since probe: it holds anything */
#define KH_REG_UNKNOWN		(~0ULL)

/*
 * A mesh's clocks under the governor (kh_clk.c), under mesh->lock.
 * @profile: KOHAKU_CLK_PROFILE_* the wizard holds, as last read or set.
 * @busy_ns: device time a job was last queued for or dispatched on it.
 * @since_ns: device time @profile took effect (for @ns_at).
 */
struct kh_clk {
	u8 policy, profile, idle, run, fixed;
	u32 idle_ms;
	u32 retunes;
	u64 busy_ns;
	u64 since_ns;
	u64 ns_at[KH_CLK_PROFILES];
};

extern struct kh_mesh_defaults kh_mesh_defaults;
#define KH_CLK_NEVER		(~0ULL)	/* kh_clk.busy_ns: no job since bring-up */
/* the maintenance worker looks again at most this often (device time) */
#define KH_MAINT_MIN_NS		1000000ULL

struct kh_mesh {
	struct kh_device *kd;
	unsigned int id;
	u32 base;		/* BAR0 offset of the control window */
	struct mutex lock;

	/* set at bring-up, then read-only except flags (under lock) */
	u32 flags;		/* KOHAKU_MESH_* */
	u64 caps;
	u8 grid_lo, grid_hi, pos_width;
	u8 agent_x, agent_y;
	u8 cu_version;
	u16 min_inst_depth;
	struct kh_node *nodes;
	unsigned int n_nodes;
	s16 node_at[256];	/* {y,x} -> index in nodes, -1 if none */

	/* the mailbox (kh_mbox.c), under lock */
	u8 ctrl_lost[256];	/* a CU_CTRL that never got its reply: its txn */
	u8 txn;			/* last mailbox txn used */
	bool rx_overflow_seen;	/* RX overflow is sticky: warn once */
	u64 tx_word[KH_FLIT_WORDS];	/* TX_FLIT as last written */
	u16 tx_known;		/* bit 2w + h: half h of tx_word[w] was written */

	struct kh_mem mem;
	bool mem_ready;		/* mem initialised (present meshes only) */

	/* the job engine, under lock */
	u64 (*stage)[KH_FLIT_WORDS];	/* the staging RAM as last written */
	u8 *stage_known;	/* per slot, bit w: stage[slot][w] was written */
	u64 prog_reg[3];	/* PROG_DST, _BASE, _LEN as last written, or KH_REG_UNKNOWN */
	bool disp_idle;		/* the dispatcher holds nothing of ours or anyone's */
	struct list_head queue;	/* jobs waiting for the mesh, in id order */
	struct kh_job *job;	/* the job on the device, if any */
	enum kh_mesh_run run;
	u32 late_credit;	/* instructions hung nodes still hold */
	u32 late_peers;		/* peer signals hung nodes may still send */
	u64 fence_context;
	u64 fence_seqno;
	u32 jobs_pending;	/* queued + running */
	/*
	 * The mesh lease (MESH_LEASE, kh_lease.c): the file holding it, the
	 * BOs open files hold on the mesh, and unfinished jobs that passed
	 * SUBMIT by the lease (other files stay out while there are any).
	 * lease is written with WRITE_ONCE: kh_check_begin() peeks at it.
	 */
	const struct kh_file *lease;
	u32 n_bos;
	u32 lease_jobs;
	u64 jobs_done;
	/*
	 * The firmware loader has the mesh: no job but its own starts, and
	 * it uses the mailbox between steps with the lock dropped.
	 */
	bool fw_hold;
	/*
	 * A load waits for the jobs queued before it: jobs with an id from
	 * fw_gate on wait behind it (0: no gate).
	 */
	u64 fw_gate;

	/* mesh reset (kh_reset.c), under lock */
	bool resetting;		/* seen; waiting for it to relock */
	u64 reset_seen_ns;	/* device time it was seen */
	u64 reset_check_ns;	/* a running job: next canary read */
	u32 resets;		/* resets seen since bring-up */
	bool planned;		/* the reset waited out is the governor's retune */
	u32 fw_stopped;		/* POOL units the last reset stopped */

	/* the driver's own work on the mesh (kh_maint.c), under lock */
	struct kh_clk clk;
	bool maint_hold;	/* held for it: only the driver's jobs run */
	bool fw_reboot;		/* its POOL units boot the kept image again */
	bool unbidden_said;	/* writes with no job: warned once */
	bool recover_due;	/* a hang left it: reset before the next job */
	u32 recoveries;		/* automatic recoveries since bring-up */
	u32 recover_run;	/* ... in a row, with no job completing between */
	u32 recover_max;	/* the limit of recover_run; 0: no recovery */
	u32 resets_asked;	/* DRM_KOHAKU_RESET */
	/*
	 * The mesh hung recover_max times in a row with its POOL firmware:
	 * the kept image is not booted again on it until a firmware load.
	 */
	bool fw_quarantine;
	const char *fw_quarantine_why;	/* what the stopped firmware did */
};

/*
 * Hung units of @m still owe instructions: memory freed on the mesh is
 * kept from reuse (kh_bo_put, kh_deferred_release) until they are back.
 */
static inline bool kh_mesh_owes(const struct kh_mesh *m)
{
	return READ_ONCE(m->late_credit) != 0;
}

/* The driver has the mesh (a firmware load, a reset): only its own jobs run. */
static inline bool kh_mesh_held(const struct kh_mesh *m)
{
	return m->fw_hold || m->maint_hold;
}


/**
 * struct kh_pool_bounds - a POOL unit's regions for one job (kh_pool_bounds.c)
 * @region: REGION0.. as written, KH_POOL_REGION() each.
 * @n: regions used.
 * @en: BOUNDS_EN to write: the @n regions, or KH_POOL_BOUNDS_ALL for a job
 *	the driver does not check.
 * @granted: written at dispatch; revoked when the job leaves the mesh.
 */
struct kh_pool_bounds {
	u64 region[KH_POOL_REGIONS];
	u32 n;
	u32 en;
	bool granted;
};

struct kh_prog {
	struct kh_node *node;
	u8 txn;
	u32 n;			/* instructions */
	/*
	 * SIG_DATA_RECEIVED the node owes beyond its instructions' signals
	 * (drm_kohaku_program.peer_signals): acknowledgements of other
	 * programs' CU_DATA, which the dispatcher never pushed and which
	 * return no credit (kh_prog_insts_seen()).
	 */
	u32 peer;
	const struct kohaku_inst *insts;
	u32 sent;		/* instructions staged */
	u32 pushed;		/* sent by the dispatcher, finished kicks only */
	u16 baseline;		/* NODE_STATUS count before the job */
	u32 seen;		/* signals counted so far, peer signals included */
	bool insts_in;		/* this job's SIG_BATCH_COMPLETE seen: all n are in */
	bool finished;
	struct kh_pool_bounds bounds;	/* a POOL unit's (docs/spec/pool.md "Bounds") */
	/*
	 * A cpu program with a kick: the driver flushes its unit's L1 after
	 * the job's programs (kh_cpu_flush.c); stub is 1 once the stub's
	 * kick is sent, a signal the node owes beyond the program's n.
	 */
	bool cpu_flush;
	u8 stub;
};

/*
 * One data entry of a program (struct drm_kohaku_data), in the job's own
 * copy: sent as bursts of at most KH_DATA_MAX_FLITS granules.
 */
struct kh_data_seg {
	struct kh_node *node;
	u8 buf;
	u32 offset;		/* granule of the first byte */
	u32 n;			/* granules */
	const u8 *bytes;	/* n * KOHAKU_DATA_GRANULE, in job->data */
};

/*
 * An entry the driver adds to program @prog's data (a DXA unit's slots):
 * @size bytes of kernel memory at @bytes, copied into the job.
 */
struct kh_data_add {
	u32 prog;
	u8 buf;
	u32 offset;		/* granule */
	u32 size;		/* bytes, whole granules */
	const u8 *bytes;
};

/* Where the data phase is: a burst is open from its descriptor to its last flit. */
struct kh_data_cursor {
	u32 seg;		/* the entry being sent */
	u32 done;		/* its granules sent in finished bursts */
	u32 burst;		/* granules in the open burst, 0: none open */
	u32 sent;		/* of which sent */
	bool wait_ack;		/* the burst is out; its SIG_DATA_RECEIVED is due */
	u16 baseline;		/* the node's NODE_STATUS count before the burst */
	u64 deadline;		/* for the acknowledgement */
};

struct kh_chunk {
	struct kh_prog *prog;
	u32 first;		/* index of its first instruction */
	u32 len;
	u32 slot;		/* staging slot of its first flit */
	bool valid;
};

/*
 * A job.  References: the file's table until WAIT reports it final or the
 * file closes, the mesh while it is queued or on the device, and each
 * waiter.  status is written under the mesh lock and published with
 * release semantics once final: a reader that sees a final status sees the
 * whole outcome.
 */
struct kh_job {
	refcount_t ref;
	u64 id;
	struct kh_mesh *mesh;
	struct list_head mesh_link;	/* in mesh->queue while queued */
	struct list_head live_link;	/* in kd->unfinished until final */
	struct list_head file_link;	/* in its file's jobs until reaped */
	u32 status;		/* KOHAKU_JOB_* */
	u32 n_progs;
	struct kh_prog *progs;
	struct kohaku_inst *insts;
	u64 timeout_ns;
	u64 t_start, t_end, deadline;
	u32 clk_need;		/* its file's clk_run when it was submitted */

	/* fences: the job's own, and what it waits for before dispatch */
	struct dma_fence *fence;
	struct dma_fence **in_fences;
	u32 n_in_fences;
	u32 in_next;		/* the first in-fence not seen signalled */
	struct dma_fence_cb in_cb;
	bool in_cb_armed;

	/* CU_DATA sent before the first instruction (KH_RUN_DATA) */
	u8 *data;
	struct kh_data_seg *segs;
	u32 n_segs;
	struct kh_data_cursor dc;

	/* dispatch state */
	u32 next_prog;		/* first program with instructions left */
	struct kh_chunk kicked;	/* handed to the dispatcher last */
	struct kh_chunk staged;	/* written to STAGE, not kicked yet */
	u16 seed;		/* credit written at start and at each reseed */
	u32 pushed;		/* instructions the dispatcher has sent */
	u32 lasts;		/* ... of which were a program's last */
	u32 pushed_done;	/* the same, counting finished kicks only */
	u32 lasts_done;
	u32 kick_pushed;	/* sent so far of the kick in progress */
	u32 lasts_at_seed;	/* lasts when credit was last seeded */
	u32 lost_faults;	/* non-last instructions that faulted */
	u64 recover_deadline;

	/*
	 * The cpu units' L1 flush (KH_RUN_FLUSH, kh_cpu_flush.c): the stubs'
	 * kicks sent (from the mailbox: no credit taken, none returned), and
	 * where the sending is: the program, the flit of its three.
	 */
	u32 stubs;
	u32 flush_prog;
	u8 flush_flit;
	bool flush_begun;	/* CU_DBG read, the sending begun */

	/* settle state */
	u16 aux_wr;
	u64 aux_since;
	u64 settle_from;	/* when every unit had retired */

	/* outcome */
	u8 fault_flags;		/* KOHAKU_FAULT_* */
	u8 fault_x, fault_y;
	u32 fault_code;
	u32 n_faults;		/* faulting last instructions + lost_faults */
	const char *why;	/* for ERROR/ABORTED/TIMEOUT logs */
	u32 why_code;		/* KOHAKU_JOB_WHY_*, for ERROR */
	bool internal;		/* the driver's own (firmware LOAD), no file */
	/* its file, for the lease (compared, never followed; NULL once closed) */
	const struct kh_file *owner;
	bool leased;		/* passed SUBMIT by its file's lease */
};

struct kh_bo {
	refcount_t ref;
	u32 handle;
	struct kh_mesh *mesh;
	u64 start, len;		/* mesh-local bytes, as allocated */
	u64 size;		/* as asked, before rounding */
};

/* the address units use for the BO's first byte */
static inline u64 kh_bo_dev_addr(const struct kh_bo *bo)
{
	return KH_MADDR(bo->mesh->id, bo->start);
}

/* Memory freed while jobs that may use it were unfinished. */
struct kh_deferred {
	struct list_head link;
	struct kh_mesh *mesh;
	u64 start, len;
	u64 after_job;		/* release once every job <= this is final */
};

struct kh_file {
	struct kh_device *kd;
	struct drm_file *file;	/* the host's file: its syncobjs */
	struct mutex lock;
	struct xarray bos;		/* handle -> struct kh_bo */
	u32 next_handle;
	/*
	 * its jobs nobody has waited for, in id order: a list, as there are
	 * at most KOHAKU_MAX_JOBS (an xarray keyed by the device's ids
	 * allocated and freed a path of nodes a job, through RCU)
	 */
	struct list_head jobs;		/* struct kh_job, file_link */
	unsigned int n_bos;
	unsigned int n_jobs;
	bool admin;		/* the opener: kh_file_open() */
	/* its BOs on each mesh (under lock and that mesh's lock) */
	u32 mesh_bos[KH_MAX_MESHES];
	u32 clk_run;		/* KOHAKU_CLK_PROFILE_* its jobs need, or _DEFAULT */
	/* jobs WAIT has reaped from the table: their device time (fdinfo) */
	u64 reaped_ns;
	u64 reaped_jobs;
};

/* A WAIT with a device-time deadline, so the engine can let time pass. */
struct kh_timed_wait {
	struct list_head link;
	u64 deadline;
	struct kh_job *job;	/* its deadline matters only while this runs */
};

struct kh_device {
	struct kh_hw hw;
	struct device *dev;		/* the host's: messages, DMA mapping */
	char name[32];
	unsigned int n_meshes;
	struct kh_mesh mesh[KH_MAX_MESHES];
	bool unplugged;		/* the host is tearing the device down */

	/* jobs: ids, what is unfinished, memory waiting for them */
	struct mutex jobs_lock;
	u64 next_job_id;
	struct list_head unfinished;	/* struct kh_job, in id order */
	struct list_head deferred;

	/* the progress engine (kh_engine.c) and its waiters */
	struct workqueue_struct *engine_wq;
	struct work_struct engine;
	atomic_t engine_run;		/* 1: a runner has the engine */
	atomic_t engine_kicks;		/* kicks so far, for its runner */
	wait_queue_head_t waitq;	/* woken when a job turns final */
	struct mutex timed_lock;
	struct list_head timed;		/* struct kh_timed_wait */
	u64 next_deadline;		/* the nearest of timed, or ~0 */
	u32 wake_gen;			/* bumped when a deadline passes */

	/* the card's DMA engine (kh_xdma.c), its interrupts (kh_irq.c) */
	struct kh_xdma xdma;
	bool irq_jobs;			/* job events come by interrupt */

	/* firmware (kh_fw.c): the image the POOL units run, under fw_lock */
	struct mutex fw_lock;
	bool fw_loading;	/* a load is under way (kh_engine_idle) */
	unsigned int fw_units;		/* POOL units; set at bring-up */
	unsigned int dxa_units;		/* DXA units; set at bring-up */
	u8 *fw_image;			/* a copy, to restore after a failed load */
	size_t fw_len;
	u32 fw_version, fw_api;
	char fw_name[KH_FW_NAME_LEN + 1];

	/* the driver's own work on the meshes (kh_maint.c) */
	struct mutex maint_lock;	/* one at a time; before fw_lock */
	struct workqueue_struct *maint_wq;
	struct delayed_work maint;
	bool maint_again;		/* kicked since the pass began */
};

/*
 * The POOL units' firmware stopped by a reset or a retune is on its way
 * back: the driver boots the image it keeps once the mesh is out of it.
 */
static inline bool kh_fw_coming(const struct kh_mesh *m)
{
	return READ_ONCE(m->kd->fw_image) && !m->fw_quarantine &&
	       (m->fw_reboot || (m->resetting && m->fw_stopped));
}

/* May @job (at the head of the queue) start, as far as the driver's own work goes? */
static inline bool kh_mesh_lets(const struct kh_mesh *m, const struct kh_job *job)
{
	return job->internal ||
	       (!kh_mesh_held(m) && !(m->fw_gate && job->id >= m->fw_gate));
}

/* The control space is reached in 32-bit accesses (KH_HW_CTRL32): a card. */
static inline bool kh_ctrl32(struct kh_device *kd)
{
	return kd->hw.flags & KH_HW_CTRL32;
}

/* register access: one 32-bit access to the mesh's control window */
static inline u32 kh_rd32(struct kh_mesh *m, u32 off)
{
	return m->kd->hw.ops->bar_read32(m->kd->hw.ctx, 0, m->base + off);
}

static inline void kh_wr32(struct kh_mesh *m, u32 off, u32 v)
{
	m->kd->hw.ops->bar_write32(m->kd->hw.ctx, 0, m->base + off, v);
}

/*
 * A register's value: one 64-bit read, or on a 32-bit control path its low
 * half and, where a read at +4 reaches it (KH_ORC_HI_READABLE: RX_FLIT,
 * AUX_STATW, NODE_STATUS), its high half.  Every other register's high half
 * reads 0 on that path, so it is not asked for.  Two reads are not one: a
 * register that moves under them (NODE_STATUS) is kh_ns_word()'s.
 */
static inline u64 kh_rd(struct kh_mesh *m, u32 off)
{
	u64 v;

	if (!kh_ctrl32(m->kd))
		return m->kd->hw.ops->read64(m->kd->hw.ctx, m->base + off);
	v = kh_rd32(m, off);
	if (KH_ORC_HI_READABLE(off))
		v |= (u64)kh_rd32(m, off + 4) << 32;
	return v;
}

/*
 * A register write: one 64-bit write, or on a 32-bit control path one
 * write at +0, which the orchestrator stores whole (a write at +4 would be
 * ignored).  So on that path only registers whose fields fit in 32 bits;
 * TX_FLIT is kh_mbox_send()'s, and STAGE and AUX_CFG are not written.
 */
static inline void kh_wr(struct kh_mesh *m, u32 off, u64 v)
{
	if (!kh_ctrl32(m->kd))
		m->kd->hw.ops->write64(m->kd->hw.ctx, m->base + off, v);
	else
		kh_wr32(m, off, (u32)v);
}

/*
 * NODE_STATUS of {y,x} in one read: on a 32-bit control path its low half,
 * where the count and the valid bit are; the whole word on a 64-bit one.
 * kh_ns_word() makes it whole when the code or arg is wanted.
 */
static inline u64 kh_ns_lo(struct kh_mesh *m, u8 yx)
{
	if (kh_ctrl32(m->kd))
		return kh_rd32(m, KH_ORC_NODE_STATUS(yx));
	return kh_rd(m, KH_ORC_NODE_STATUS(yx));
}

static inline u64 kh_now(struct kh_device *kd)
{
	return kd->hw.ops->now_ns(kd->hw.ctx);
}

static inline bool kh_simulated(struct kh_device *kd)
{
	return kd->hw.flags & KH_HW_SIMULATED;
}

/*
 * Between two polls of the device.  A simulated card only advances when it
 * is accessed, so sleeping would only waste wall time.
 */
static inline void kh_relax(struct kh_device *kd)
{
	if (kh_simulated(kd))
		cond_resched();
	else
		usleep_range(2, 10);
}

/* a sleep's timeout for a span of device time: at least a jiffy */
static inline long kh_timeout(u64 ns)
{
	return max_t(long, nsecs_to_jiffies(ns), 1);
}

static inline bool kh_has_dma(struct kh_device *kd)
{
	return kh_xdma_usable(kd);
}

static inline bool kh_mesh_present(struct kh_device *kd, unsigned int i)
{
	return i < kd->n_meshes && (kd->mesh[i].flags & KOHAKU_MESH_PRESENT);
}

/* kh_util.c */
bool kh_all_zero(const void *p, size_t n);
u64 kh_ms_to_ns(u32 ms);
/* copy one array element of the caller's size in, as the ABI's size rule says */
int kh_user_zero(const u8 __user *src, size_t n);
int kh_copy_elem_in(void *dst, size_t size, const void __user *src,
		    size_t usize);

/* kh_ioctl.c: the handlers, each on a kernel-space copy of its struct */
int kh_ioctl_get_info(struct kh_file *kf, void *arg);
int kh_ioctl_get_param(struct kh_file *kf, void *arg);
int kh_ioctl_nodes(struct kh_file *kf, void *arg);

/* kh_mbox.c: the orchestrator mailbox */
int kh_mbox_wait_idle(struct kh_mesh *m);
void kh_mbox_drain(struct kh_mesh *m);
/* write the TX_FLIT words that changed and kick; the TX FIFO has room */
void kh_mbox_send(struct kh_mesh *m, const struct kh_flit *f);
int kh_ctrl_read(struct kh_mesh *m, u8 x, u8 y, u8 index, u64 *value);

/*
 * Many CU_CTRL reads in flight at once (kh_mbox.c): each request names a
 * coordinate and an index; replies are matched by src and txn.
 */
struct kh_ctrl_req {
	u8 x, y, index;
	bool write;		/* op 1 with @value; else a read */
	u8 txn;			/* 0: not sent yet */
	int result;		/* 1 pending, 0 or a kh_ctrl_read() error */
	u64 value;		/* the write's value; the reply's; -ENXIO: who answered, {y,x} */
};
int kh_ctrl_read_many(struct kh_mesh *m, struct kh_ctrl_req *req,
		      unsigned int n);
int kh_ctrl_write(struct kh_mesh *m, u8 x, u8 y, u8 index, u64 value,
		  u64 *readback);

/* kh_mbox_data.c: CU_DATA bursts from the mailbox */
#define KH_DATA_MAX_FLITS	256	/* data flits per burst */
/* a burst's data lands at the node's pace: this much device time at most */
#define KH_DATA_TIMEOUT_NS	2000000ULL
int kh_data_burst(struct kh_mesh *m, const struct kh_node *n, u8 buf,
		  u32 offset, const u8 *data, u32 n_flits);
int kh_data_word(struct kh_mesh *m, const struct kh_node *n, u8 buf,
		 u32 index, u32 value);

/* kh_enum.c */
/* the whole NODE_STATUS word of {y,x}, given what kh_ns_lo() just read */
u64 kh_ns_word(struct kh_mesh *m, u8 yx, u64 lo);
int kh_mesh_probe(struct kh_mesh *m);
int kh_mesh_enumerate(struct kh_mesh *m);
int kh_node_refresh(struct kh_node *n);
int kh_mesh_refresh_nodes(struct kh_mesh *m, unsigned int first,
			  unsigned int count);
struct kh_node *kh_mesh_node(struct kh_mesh *m, u8 x, u8 y);
void kh_node_to_uapi(const struct kh_node *n, struct drm_kohaku_node *out);

/* kh_mem.c */
int kh_mem_init(struct kh_mem *mem, u64 size);
void kh_mem_fini(struct kh_mem *mem);
int kh_mem_alloc(struct kh_mem *mem, u64 len, u64 *start);
int kh_mem_alloc_at(struct kh_mem *mem, u64 start, u64 len);
void kh_mem_release(struct kh_mem *mem, u64 start, u64 len);
void kh_mem_usage(struct kh_mem *mem, u64 *size, u64 *free_bytes);

/* kh_bo.c */
int kh_bo_create(struct kh_file *kf, void *arg);
int kh_bo_free(struct kh_file *kf, void *arg);
int kh_bo_info(struct kh_file *kf, void *arg);
int kh_bo_write(struct kh_file *kf, void *arg);
int kh_bo_read(struct kh_file *kf, void *arg);
void kh_bo_release_all(struct kh_file *kf);
void kh_deferred_release_all(struct kh_device *kd);

/* kh_submit.c: SUBMIT and WAIT, on top of the engine */
int kh_job_submit(struct kh_file *kf, void *arg);
int kh_job_wait(struct kh_file *kf, void *arg);
/* file close: queued jobs never run; one on the device runs out */
void kh_job_release_all(struct kh_file *kf);
/*
 * The driver's own job of one program (the firmware loader's LOADs): runs
 * ahead of the queue, even while the mesh is held for the loader, and is
 * waited for here.  @fault gets the SIG_FAULT code, if any.
 */
int kh_job_run_internal(struct kh_node *n, const struct kohaku_inst *insts,
			u32 n_insts, u64 timeout_ns, u32 *status, u32 *fault);

/* kh_job.c: the job object, its references and its ends */
/* a job's fence, on a mesh's timeline; NULL without memory */
struct dma_fence *kh_fence_create(u64 context, u64 seqno);
void kh_job_put(struct kh_job *job);
bool kh_job_is_final(const struct kh_job *job);
/* a job's outcome is known: status published, fence signalled, waiters woken */
void kh_job_finalize(struct kh_job *job, u32 status);
/* the job is off the device for good: memory freed under it may be reused */
void kh_job_unlist(struct kh_device *kd, struct kh_job *job);
void kh_deferred_release(struct kh_device *kd);
/*
 * a queued job that never runs: off the queue, ABORTED with why (code
 * KOHAKU_JOB_WHY_*, for WAIT), the mesh's ref put
 */
void kh_job_abort(struct kh_job *job, u32 code, const char *why);
/* the job ends ABORTED with why (KOHAKU_JOB_WHY_* code), wherever it is */
void kh_job_end_aborted(struct kh_job *job, u32 code, const char *why);
/* the first of the job's targets marked hung, or NULL */
struct kh_node *kh_job_hung_target(const struct kh_job *job);
struct kh_node *kh_job_fwless_target(const struct kh_job *job);
bool kh_job_on_fw_unit(const struct kh_job *job);
void kh_job_error(struct kh_job *job, const struct kh_node *n, u32 code,
		  const char *why);

/* kh_job_data.c: the CU_DATA a job sends before its instructions */
int kh_job_data_build(struct kh_device *kd, struct kh_job *job,
		      const struct drm_kohaku_program *p, u32 n_progs,
		      const struct kh_data_add *add, u32 n_add);
int kh_job_data_step(struct kh_mesh *m, struct kh_job *job);
void kh_job_data_cut(struct kh_mesh *m, struct kh_job *job);

/*
 * kh_cpu_flush.c: the driver's L1 flush of the cpu units after every job
 * that kicked one (docs/spec/cpu.md "The driver's L1 flush")
 */
/* SUBMIT: a job's data entry @d for node @n leaves the stub's granule alone */
int kh_cpu_data_check(struct kh_device *kd, const struct kh_node *n,
		      const struct drm_kohaku_data *d, u32 prog, u32 i);
/* dispatch: which programs get the flush (kh_prog.cpu_flush) */
void kh_cpu_flush_mark(struct kh_job *job);
/* a program of the job still to be flushed */
bool kh_cpu_flush_wanted(const struct kh_job *job);
/* send the stubs (every program retired): true once all are out */
bool kh_cpu_flush_send(struct kh_mesh *m, struct kh_job *job);
/* the stub's own signal, the node's last (@raw: its NODE_STATUS word) */
void kh_cpu_flush_done(struct kh_mesh *m, struct kh_job *job,
		       const struct kh_prog *p, u64 raw);
/* the job leaves the mesh with a stub's burst open: its node takes no more */
void kh_cpu_flush_cut(struct kh_mesh *m, struct kh_job *job);

/* kh_dxa.c: the DXA units' descriptor slots (ABI 0.5) */
int kh_dxa_mesh_init(struct kh_mesh *m);
void kh_dxa_mesh_fini(struct kh_mesh *m);
int kh_dxa_alloc(struct kh_file *kf, void *arg);
int kh_dxa_free(struct kh_file *kf, void *arg);
int kh_dxa_set(struct kh_file *kf, void *arg);
int kh_dxa_get(struct kh_file *kf, void *arg);
void kh_dxa_release_all(struct kh_file *kf);
/*
 * SUBMIT: check the programs for DXA units (job->progs and insts filled)
 * and give the slots they name as data entries (*add, kvfree() it); each
 * slot's tensor must lie in a buffer the job names (@c, kh_check.h).
 */
struct kh_check;
/*
 * kh_check.c: why the node at (x, y) of @m takes no CU_DATA a user's job
 * sends (no node, a POOL unit, a DXA unit), or NULL when it does.
 */
const char *kh_node_refuses_data(struct kh_mesh *m, unsigned int x, unsigned int y);
int kh_dxa_job_data(struct kh_file *kf, struct kh_job *job, struct kh_check *c,
		    struct kh_data_add **add, u32 *n_add);

/* kh_fw.c: firmware for the POOL units */
void kh_fw_init(struct kh_device *kd);
void kh_fw_fini(struct kh_device *kd);
unsigned int kh_fw_running(struct kh_device *kd);
int kh_fw_load(struct kh_device *kd, const void *data, size_t len, u32 flags,
	       u32 timeout_ms, struct drm_kohaku_fw_load *out);
int kh_ioctl_fw_load(struct kh_file *kf, void *arg);

/* kh_engine.c: the device's progress engine */
/* between two passes with the job interrupt on, until it comes or a pause */
#define KH_IRQ_REST_NS		1000000ULL	/* a card: 1 ms at most */
#define KH_IRQ_SIM_STEP_NS	500ULL		/* the model: in 0.5 us steps ... */
#define KH_IRQ_SIM_STEPS	10		/* ... 5 us at most */
/* SUBMIT steps a simulated card itself for at most this much host time */
#define KH_SUBMIT_STEP_NS	2000000ULL
void kh_engine_prepare(struct kh_device *kd);
int kh_engine_init(struct kh_device *kd);
void kh_engine_fini(struct kh_device *kd);
void kh_engine_destroy(struct kh_device *kd);
void kh_engine_kick(struct kh_device *kd);
/* SUBMIT queued @job: run it (a simulated card, inline) or kick the worker */
void kh_engine_submitted(struct kh_device *kd, struct kh_job *job);
/* an in-fence's callback (kh_dispatch.c arms it): kicks the engine */
void kh_engine_fence_cb(struct dma_fence *f, struct dma_fence_cb *cb);
/* Sleep until the job is final, its deadline in device time, or unplug. */
int kh_engine_wait_job(struct kh_device *kd, struct kh_job *job,
		       u64 deadline);

/* kh_dispatch.c: the job engine of one mesh, called with m->lock held */
void kh_mesh_step(struct kh_mesh *m);
struct kh_node *kh_mesh_hung_target(struct kh_mesh *m, const struct kh_job *job);

/* kh_mesh.c: a mesh's job state, below the engine and reset; m->lock held */
/* the job on the mesh leaves it: the mesh takes the next one */
void kh_mesh_job_off(struct kh_mesh *m, struct kh_job *job);
void kh_mesh_abort_queue(struct kh_mesh *m, u32 code, const char *why);
bool kh_mesh_busy(struct kh_mesh *m);
void kh_mesh_wedge(struct kh_mesh *m, const char *why);
unsigned int kh_mesh_hung_nodes(const struct kh_mesh *m);
/* IRQ_EN: the mesh's job events on the user interrupt (the IRQ addon) */
void kh_mesh_irq_enable(struct kh_mesh *m);
/* ... again after a mesh reset, when the device takes jobs by interrupt */
void kh_mesh_irq_rearm(struct kh_mesh *m);

/* kh_reset.c: mesh resets, seen through a canary in CTRL */
void kh_mesh_canary_write(struct kh_mesh *m);
bool kh_mesh_reset_check(struct kh_mesh *m);
bool kh_mesh_reset_wait(struct kh_mesh *m);
void kh_mesh_planned_reset(struct kh_mesh *m);
void kh_mesh_reset_missed(struct kh_mesh *m);
void kh_mesh_reset_now(struct kh_mesh *m, const char *by, u32 code,
		       const char *why);
bool kh_mesh_reset_wait_out(struct kh_mesh *m);
int kh_mesh_reverify(struct kh_mesh *m);

/* kh_clk.c: the clock governor */
void kh_clk_init(struct kh_mesh *m);
void kh_clk_after_reset(struct kh_mesh *m);
bool kh_clk_reachable(const struct kh_device *kd);
void kh_clk_sw_rst(struct kh_mesh *m);
bool kh_clk_want(struct kh_mesh *m);
bool kh_clk_settle(struct kh_mesh *m);
u64 kh_clk_idle_in(struct kh_mesh *m);
bool kh_clk_watch(struct kh_mesh *m);
void kh_clk_busy(struct kh_mesh *m);
bool kh_clk_raise(struct kh_mesh *m, struct kh_job *job);
bool kh_clk_raise_to(struct kh_mesh *m, unsigned int want);
void kh_clk_report(struct kh_mesh *m, struct drm_kohaku_clocks *a);
int kh_ioctl_clocks(struct kh_file *kf, void *arg);
int kh_ioctl_mesh_set(struct kh_file *kf, void *arg);

/* kh_maint.c: resets the driver makes, recovery, firmware after a reset */
int kh_maint_init(struct kh_device *kd);
void kh_maint_fini(struct kh_device *kd);
void kh_maint_kick(struct kh_device *kd);
bool kh_maint_pending(struct kh_device *kd);
void kh_maint_after_reset(struct kh_mesh *m);
void kh_maint_recover(struct kh_mesh *m, const char *why);
void kh_maint_unbidden_writes(struct kh_mesh *m, const struct kh_job *job);
void kh_maint_fw_strays(struct kh_mesh *m, const struct kh_node *n);

/* kh_pool_bounds.c: a POOL unit's regions, granted per job */
int kh_pool_bounds_probe(struct kh_node *n);
int kh_pool_bounds_grant(struct kh_mesh *m, struct kh_job *job);
void kh_pool_bounds_revoke(struct kh_mesh *m, struct kh_job *job);
void kh_maint_job_done(struct kh_mesh *m);
int kh_ioctl_reset(struct kh_file *kf, void *arg);
unsigned int kh_fw_reboot_mesh(struct kh_mesh *m);

/* kh_lease.c: mesh leases (MESH_LEASE) */
int kh_ioctl_mesh_lease(struct kh_file *kf, void *arg);
int kh_lease_busy(struct kh_mesh *m, const struct kh_file *kf, const char *cmd);
bool kh_lease_held(struct kh_mesh *m, const struct kh_file *kf);
void kh_lease_bo_count(struct kh_file *kf, struct kh_mesh *m, int delta);
void kh_lease_release_all(struct kh_file *kf);

#endif /* KH_PRIV_H */
