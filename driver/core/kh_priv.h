/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * driver/core internals shared between its files.  Nothing here is seen by
 * the hosts (they use kh_core.h).
 *
 * Locking: one mutex per device (kd->lock) covers all hardware access and
 * every structure below.  Waits on the device drop it between polls.
 */
#ifndef KH_PRIV_H
#define KH_PRIV_H

#include "kh_core.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_regs.h"
#include "kohaku/kh_units.h"

#define kh_err(kd, fmt, ...)	kh_os_err((kd)->osdev, fmt, ##__VA_ARGS__)
#define kh_warn(kd, fmt, ...)	kh_os_warn((kd)->osdev, fmt, ##__VA_ARGS__)
#define kh_info(kd, fmt, ...)	kh_os_info((kd)->osdev, fmt, ##__VA_ARGS__)
#define kh_dbg(kd, fmt, ...)	kh_os_dbg((kd)->osdev, fmt, ##__VA_ARGS__)

/* Device-time limits of the bring-up and mailbox paths (docs/driver-core.md). */
#define KH_CTRL_TIMEOUT_NS	100000ULL	/* one CU_CTRL round trip */
#define KH_MBOX_IDLE_TIMEOUT_NS	2000000ULL	/* dispatcher idle before a TX */
#define KH_RX_DRAIN_MAX		32		/* stale RX flits popped per drain */
#define KH_SETTLE_NS		2000ULL		/* read-after-write guard window */
#define KH_RECOVER_NS		1000000000ULL	/* a timed-out job gets this to drain */
#define KH_CHUNK_FLITS		(KH_ORC_STAGE_FLITS / 2)	/* staging ping-pong */
#define KH_BO_MAX_PER_FILE	4096
#define KH_BOUNCE_BYTES		65536

struct kh_device;
struct kh_file;

struct kh_node {
	struct kh_mesh *mesh;
	u8 x, y;
	u16 cu_type;
	u8 cu_version;
	u8 n_buffers;
	u16 inst_depth;
	u8 flags;		/* KOHAKU_NODE_* */
	u64 caps_reg;
	/* CU_STATUS, CU_COUNTERS, CU_DBG as last read */
	u64 status_reg;
	u64 counters_reg;
	u64 dbg_reg;
};

/* A free or used extent of one mesh's device memory. */
struct kh_extent {
	struct list_head link;
	u64 start;
	u64 len;
};

struct kh_mem {
	struct list_head free;	/* sorted by start, coalesced */
	u64 size;
	u64 free_bytes;
};

enum kh_mesh_run {
	KH_RUN_IDLE,		/* nothing on the device */
	KH_RUN_DISPATCH,	/* sending chunks */
	KH_RUN_COLLECT,		/* everything sent, counting signals */
	KH_RUN_SETTLE,		/* signals in; waiting for writes to land */
	KH_RUN_RECOVER,		/* the job timed out; waiting for it to drain */
};

struct kh_mesh {
	struct kh_device *kd;
	unsigned int id;
	u32 base;		/* BAR0 offset of the control window */
	u32 flags;		/* KOHAKU_MESH_* */
	u64 caps;
	u8 grid_lo, grid_hi, pos_width;
	u8 agent_x, agent_y;
	u8 cu_version;
	u16 min_inst_depth;
	struct kh_node *nodes;
	unsigned int n_nodes;
	s16 node_at[256];	/* {y,x} -> index in nodes, -1 if none */
	/* a CU_CTRL that never got its reply, per {y,x}: its txn, or 0 */
	u8 ctrl_lost[256];
	u8 txn;			/* last mailbox txn used */
	bool rx_overflow_seen;	/* RX overflow is sticky: warn once */
	struct kh_mem mem;

	/* job engine */
	struct list_head queue;	/* jobs waiting for the mesh */
	struct kh_job *job;	/* the job on the device, if any */
	enum kh_mesh_run run;
	/* instructions hung nodes still hold: credit they may yet return */
	u32 late_credit;
};

struct kh_prog {
	struct kh_node *node;
	u8 txn;
	u32 n;			/* instructions */
	const struct kohaku_inst *insts;
	u32 sent;		/* instructions staged */
	u32 pushed;		/* sent by the dispatcher, finished kicks only */
	u16 baseline;		/* NODE_STATUS count before the job */
	u32 seen;		/* signals counted so far */
	bool finished;
};

struct kh_chunk {
	struct kh_prog *prog;
	u32 first;		/* index of its first instruction */
	u32 len;
	u32 slot;		/* staging slot of its first flit */
	bool valid;
};

struct kh_job {
	u64 id;
	struct kh_file *file;	/* NULL once the file let go of it */
	struct kh_mesh *mesh;
	struct list_head file_link;
	struct list_head mesh_link;
	bool on_mesh;		/* queued or on the device */
	unsigned int waiters;	/* WAITs in progress (they drop the lock) */
	u32 status;		/* KOHAKU_JOB_* */
	u32 n_progs;
	struct kh_prog *progs;
	struct kohaku_inst *insts;
	u64 timeout_ns;
	u64 t_start, t_end, deadline;

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
	u32 pushed_at_seed;	/* pushed and lasts when credit was seeded */
	u32 lasts_at_seed;
	u32 lost_faults;	/* non-last instructions that faulted */
	u64 recover_deadline;

	/* settle state */
	u16 aux_wr;
	u64 aux_since;

	/* outcome */
	u8 fault_flags;		/* KOHAKU_FAULT_* */
	u8 fault_x, fault_y;
	u32 fault_code;
	u32 n_faults;		/* faulting last instructions + lost_faults */
	const char *why;	/* for ERROR/ABORTED/TIMEOUT logs */
};

struct kh_bo {
	struct list_head link;
	u32 handle;
	struct kh_mesh *mesh;
	struct kh_extent ext;	/* start, len in mesh-local bytes */
	u64 size;		/* as asked, before rounding */
};

/* Memory freed while jobs that may use it were unfinished. */
struct kh_deferred {
	struct list_head link;
	struct kh_mesh *mesh;
	u64 start, len;
	u64 after_job;		/* release once every job <= this is final */
};

struct kh_file {
	struct kh_device *kd;
	struct list_head link;
	struct list_head bos;
	struct list_head jobs;
	u32 next_handle;
	unsigned int n_bos;
	unsigned int n_jobs;
};

struct kh_device {
	struct kh_hw hw;
	struct kh_os_dev *osdev;
	char name[32];
	kh_mutex lock;
	unsigned int n_meshes;
	struct kh_mesh mesh[KH_MAX_MESHES];
	struct list_head files;
	struct list_head deferred;
	u64 next_job_id;
	bool unplugged;		/* the host is tearing the device down */
	u8 *bounce;		/* KH_BOUNCE_BYTES for BO transfers */
};

/* register access (kh_dev.c) */
static inline u64 kh_rd(struct kh_mesh *m, u32 off)
{
	return m->kd->hw.ops->read64(m->kd->hw.ctx, m->base + off);
}

static inline void kh_wr(struct kh_mesh *m, u32 off, u64 v)
{
	m->kd->hw.ops->write64(m->kd->hw.ctx, m->base + off, v);
}

static inline u64 kh_now(struct kh_device *kd)
{
	return kd->hw.ops->now_ns(kd->hw.ctx);
}

static inline bool kh_simulated(struct kh_device *kd)
{
	return kd->hw.flags & KH_HW_SIMULATED;
}

static inline bool kh_has_dma(struct kh_device *kd)
{
	return kd->hw.ops->dma_read && kd->hw.ops->dma_write;
}

/* ioctl handlers that live with the state they report (kh_dev.c) */
int kh_ioctl_get_info(struct kh_file *kf, void *arg);
int kh_ioctl_nodes(struct kh_file *kf, void *arg);

/* kh_util.c */
bool kh_all_zero(const void *p, size_t n);
u64 kh_ms_to_ns(u32 ms);

/* kh_mbox.c: the mailbox path, one CU_CTRL exchange at a time */
int kh_mbox_wait_idle(struct kh_mesh *m);
void kh_mbox_drain(struct kh_mesh *m);
int kh_ctrl_read(struct kh_mesh *m, u8 x, u8 y, u8 index, u64 *value);

/* kh_enum.c */
int kh_mesh_probe(struct kh_mesh *m);
int kh_mesh_enumerate(struct kh_mesh *m);
int kh_node_refresh(struct kh_node *n);
struct kh_node *kh_mesh_node(struct kh_mesh *m, u8 x, u8 y);
void kh_node_to_uapi(const struct kh_node *n, struct drm_kohaku_node *out);

/* kh_mem.c */
int kh_mem_init(struct kh_mem *mem, u64 size);
void kh_mem_fini(struct kh_mem *mem);
int kh_mem_alloc(struct kh_mem *mem, u64 len, u64 *start);
void kh_mem_release(struct kh_mem *mem, u64 start, u64 len);

/* kh_bo.c */
int kh_bo_create(struct kh_file *kf, struct drm_kohaku_bo_create *a);
int kh_bo_free(struct kh_file *kf, struct drm_kohaku_bo_free *a);
int kh_bo_info(struct kh_file *kf, struct drm_kohaku_bo_info *a);
int kh_bo_write(struct kh_file *kf, struct drm_kohaku_bo_rw *a);
int kh_bo_read(struct kh_file *kf, struct drm_kohaku_bo_rw *a);
void kh_bo_release_all(struct kh_file *kf);
void kh_deferred_reap(struct kh_device *kd);
void kh_deferred_release_all(struct kh_device *kd);

/* kh_job.c */
int kh_job_submit(struct kh_file *kf, struct drm_kohaku_submit *a);
int kh_job_wait(struct kh_file *kf, struct drm_kohaku_wait *a);
void kh_job_release_all(struct kh_file *kf);
void kh_job_put(struct kh_job *job);
u64 kh_oldest_unfinished_job(struct kh_device *kd);
bool kh_job_final(const struct kh_job *job);

/* kh_dispatch.c: the job engine of one mesh */
void kh_mesh_step(struct kh_mesh *m);
void kh_mesh_abort_queue(struct kh_mesh *m, const char *why);

#endif /* KH_PRIV_H */
