/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Kohaku accel ioctl ABI (driver-private ioctls on /dev/accel/accelN).
 *
 * Rules every command follows (docs/abi.md):
 *  - the command number carries the struct size; a command whose size does
 *    not match this header exactly is refused with EINVAL;
 *  - "flags" fields: unknown bits are refused with EINVAL;
 *  - "pad" and "reserved" fields must be zero on input (EINVAL otherwise)
 *    and are zero on output;
 *  - handles and job ids belong to the open file that made them; another
 *    file's get ENOENT;
 *  - GET_INFO comes first: check abi_version's major before anything else.
 *
 * Device time: timeouts are milliseconds of device time.  On a card that is
 * wall time; on the simulated card it is simulated time at the card's clock,
 * so a slow host never fails a correct job and a hang still times out.
 */
#ifndef _UAPI_DRM_KOHAKU_ACCEL_H
#define _UAPI_DRM_KOHAKU_ACCEL_H

#ifdef __KERNEL__
#include <drm/drm.h>
#else
#include <drm.h>
#endif

#if defined(__cplusplus)
extern "C" {
#endif

#define KOHAKU_ABI_MAJOR	0
#define KOHAKU_ABI_MINOR	1
#define KOHAKU_ABI_VERSION	((KOHAKU_ABI_MAJOR << 16) | KOHAKU_ABI_MINOR)
#define KOHAKU_ABI_VERSION_MAJOR(v)	((v) >> 16)
#define KOHAKU_DRIVER_NAME	"kohaku"

#define KOHAKU_MAX_MESHES	4
#define KOHAKU_MAX_PROGRAMS	64	/* targets per job */
#define KOHAKU_MAX_JOB_INSTS	16384	/* instructions per job, all targets */
#define KOHAKU_MAX_JOBS		64	/* unwaited jobs per open file */
#define KOHAKU_BO_ALIGN		4096	/* BO sizes and addresses */
#define KOHAKU_JOB_TIMEOUT_DEFAULT_MS	10000
#define KOHAKU_COORD_NONE	0xff	/* "no node" in fault reports */

/* ---- GET_INFO ---- */

/* device capability bits (drm_kohaku_get_info.caps) */
#define KOHAKU_CAP_SIMULATED	(1ULL << 0)	/* the card is the device model */
#define KOHAKU_CAP_DMA		(1ULL << 1)	/* BO_WRITE/BO_READ reach memory */
#define KOHAKU_CAP_IRQ		(1ULL << 2)	/* completion interrupts in use */

/* mesh state bits (drm_kohaku_mesh_info.flags) */
#define KOHAKU_MESH_PRESENT	(1u << 0)	/* CAPS read valid twice */
#define KOHAKU_MESH_READY	(1u << 1)	/* enumerated; jobs accepted */
#define KOHAKU_MESH_WEDGED	(1u << 2)	/* dispatcher hung; reprogram */
#define KOHAKU_MESH_MIXED_VERSION (1u << 3)	/* cu_version differs: refused */

struct drm_kohaku_mesh_info {
	__u32 flags;		/* KOHAKU_MESH_* */
	__u16 n_nodes;		/* enumerated nodes */
	__u8 grid_lo;		/* router grid, from CAPS */
	__u8 grid_hi;
	__u8 pos_width;
	__u8 agent_x;		/* orchestrator / MAG port 0 coordinate */
	__u8 agent_y;
	__u8 cu_version;	/* mesh-wide build number; 0 with no nodes */
	__u16 flit_width;
	__u16 min_inst_depth;	/* credit a job on this mesh is seeded with */
	__u64 caps_reg;		/* raw CAPS register */
	__u64 mem_size;		/* device memory the driver manages, bytes */
	__u64 mem_free;
	__u64 reserved[2];
};

struct drm_kohaku_get_info {
	__u32 flags;		/* in: must be 0 */
	__u32 abi_version;	/* out: KOHAKU_ABI_VERSION */
	__u64 caps;		/* out: KOHAKU_CAP_* */
	__u32 n_meshes;		/* out: mesh windows present */
	__u32 n_nodes;		/* out: enumerated nodes, all meshes */
	char name[32];		/* out: device name, NUL-terminated */
	struct drm_kohaku_mesh_info mesh[KOHAKU_MAX_MESHES];	/* out */
	__u64 reserved[4];
};

/* ---- NODES: the enumerated node table ---- */

#define KOHAKU_NODE_HUNG	(1u << 0)	/* a job on it timed out */

struct drm_kohaku_node {
	__u8 mesh;
	__u8 x;
	__u8 y;
	__u8 n_buffers;
	__u16 cu_type;		/* two ASCII characters by convention */
	__u8 cu_version;
	__u8 flags;		/* KOHAKU_NODE_* */
	__u16 inst_depth;	/* instruction FIFO entries */
	__u16 inst_space;	/* free entries when read */
	__u32 retired;		/* CU_COUNTERS[63:32] when read */
	__u32 busy_cycles;	/* CU_COUNTERS[31:0] when read */
	__u32 busy;		/* CU_STATUS busy bit when read */
	__u64 caps_reg;		/* raw CU_CAPS */
	__u64 dbg;		/* raw CU_DBG (unit-defined) when read */
};

/* re-read CU_STATUS, CU_COUNTERS and CU_DBG now instead of at enumeration */
#define KOHAKU_NODES_LIVE	(1u << 0)

struct drm_kohaku_nodes {
	__u32 flags;		/* in: KOHAKU_NODES_* */
	__u32 capacity;		/* in: entries at nodes_ptr */
	__u32 count;		/* out: nodes in total; min(count, capacity) copied */
	__u32 node_size;	/* in: sizeof(struct drm_kohaku_node) */
	__u64 nodes_ptr;	/* in: struct drm_kohaku_node[capacity] */
	__u64 reserved[2];
};

/* ---- device memory (buffer objects in one mesh's DRAM) ---- */

struct drm_kohaku_bo_create {
	__u32 flags;		/* in: must be 0 */
	__u32 mesh;		/* in */
	__u64 size;		/* in: bytes, rounded up to KOHAKU_BO_ALIGN */
	__u32 handle;		/* out: nonzero */
	__u32 pad;
	__u64 dev_addr;		/* out: the address units use (mesh << 36 | local) */
	__u64 reserved[2];
};

struct drm_kohaku_bo_free {
	__u32 handle;
	__u32 flags;		/* must be 0 */
	__u64 reserved[2];
};

struct drm_kohaku_bo_info {
	__u32 handle;		/* in */
	__u32 flags;		/* in: must be 0 */
	__u64 size;		/* out: as created (allocated: rounded up to 4 KiB) */
	__u64 dev_addr;		/* out */
	__u32 mesh;		/* out */
	__u32 pad;
	__u64 reserved[2];
};

/* BO_WRITE and BO_READ: any offset and size inside the BO */
struct drm_kohaku_bo_rw {
	__u32 handle;
	__u32 flags;		/* must be 0 */
	__u64 offset;
	__u64 size;
	__u64 data_ptr;		/* user buffer of size bytes */
	__u64 reserved[2];
};

/* ---- jobs ---- */

/* one CU_INST payload: w[k] holds payload bits [64k+63:64k] */
struct kohaku_inst {
	__u64 w[4];
};

/* one program: instructions for one target node */
struct drm_kohaku_program {
	__u8 mesh;
	__u8 x;
	__u8 y;
	__u8 txn;		/* program id, echoed by SIG_BATCH_COMPLETE */
	__u32 n_insts;		/* >= 1 */
	__u64 insts_ptr;	/* struct kohaku_inst[n_insts] */
	__u32 flags;		/* must be 0 */
	__u32 pad;
	__u64 reserved;
};

struct drm_kohaku_submit {
	__u32 flags;		/* must be 0 */
	__u32 n_programs;	/* 1..KOHAKU_MAX_PROGRAMS, one per target */
	__u64 programs_ptr;	/* struct drm_kohaku_program[n_programs] */
	__u32 program_size;	/* sizeof(struct drm_kohaku_program) */
	__u32 timeout_ms;	/* job limit in device time; 0 = default */
	__u64 job_id;		/* out: nonzero */
	__u64 reserved[2];
};

/* job status (drm_kohaku_wait.status) */
#define KOHAKU_JOB_QUEUED	1	/* accepted, not dispatched yet */
#define KOHAKU_JOB_RUNNING	2
#define KOHAKU_JOB_DONE		3	/* every program retired cleanly */
#define KOHAKU_JOB_FAULT	4	/* a unit raised SIG_FAULT */
#define KOHAKU_JOB_TIMEOUT	5	/* did not finish within its limit */
#define KOHAKU_JOB_ABORTED	6	/* never ran: its mesh is unusable */
#define KOHAKU_JOB_ERROR	7	/* the device answered out of protocol */

/*
 * NODE_STATUS keeps only each node's last signal, so the driver always
 * knows how many instructions faulted (they return no credit) but knows
 * which node and which code only when it saw the SIG_FAULT itself.
 */
#define KOHAKU_FAULT_NODE_KNOWN	(1u << 0)
#define KOHAKU_FAULT_CODE_KNOWN	(1u << 1)

struct drm_kohaku_wait {
	__u64 job_id;		/* in */
	__u32 timeout_ms;	/* in: device time to wait; 0 = just look */
	__u32 flags;		/* in: must be 0 */
	__u32 status;		/* out: KOHAKU_JOB_* */
	__u32 fault_code;	/* out: SIG_FAULT argument, if FAULT_CODE_KNOWN */
	__u8 fault_mesh;	/* out: faulting node if FAULT_NODE_KNOWN, */
	__u8 fault_x;		/*      else KOHAKU_COORD_NONE */
	__u8 fault_y;
	__u8 fault_flags;	/* out: KOHAKU_FAULT_* */
	__u32 n_faults;		/* out: instructions that raised SIG_FAULT */
	__u64 device_ns;	/* out: device time from dispatch to the end */
	__u64 reserved[2];
};

/*
 * WAIT returns 0 once the job has a final status (DONE, FAULT, TIMEOUT,
 * ABORTED, ERROR) and forgets the job: a second WAIT on it gets ENOENT.  It
 * returns ETIMEDOUT when timeout_ms passed first; the job goes on.
 */

#define DRM_KOHAKU_GET_INFO	0x00
#define DRM_KOHAKU_NODES	0x01
#define DRM_KOHAKU_BO_CREATE	0x02
#define DRM_KOHAKU_BO_FREE	0x03
#define DRM_KOHAKU_BO_INFO	0x04
#define DRM_KOHAKU_BO_WRITE	0x05
#define DRM_KOHAKU_BO_READ	0x06
#define DRM_KOHAKU_SUBMIT	0x07
#define DRM_KOHAKU_WAIT		0x08
#define DRM_KOHAKU_NUM_IOCTLS	0x09

#define DRM_IOCTL_KOHAKU_GET_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_GET_INFO, struct drm_kohaku_get_info)
#define DRM_IOCTL_KOHAKU_NODES \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_NODES, struct drm_kohaku_nodes)
#define DRM_IOCTL_KOHAKU_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_BO_CREATE, struct drm_kohaku_bo_create)
#define DRM_IOCTL_KOHAKU_BO_FREE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_BO_FREE, struct drm_kohaku_bo_free)
#define DRM_IOCTL_KOHAKU_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_BO_INFO, struct drm_kohaku_bo_info)
#define DRM_IOCTL_KOHAKU_BO_WRITE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_BO_WRITE, struct drm_kohaku_bo_rw)
#define DRM_IOCTL_KOHAKU_BO_READ \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_BO_READ, struct drm_kohaku_bo_rw)
#define DRM_IOCTL_KOHAKU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_SUBMIT, struct drm_kohaku_submit)
#define DRM_IOCTL_KOHAKU_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_WAIT, struct drm_kohaku_wait)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_DRM_KOHAKU_ACCEL_H */
