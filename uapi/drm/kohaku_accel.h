/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Kohaku accel ioctl ABI (driver-private ioctls on /dev/accel/accelN).
 *
 * Rules every command follows (docs/abi.md):
 *  - the command number carries the caller's struct size.  A shorter
 *    struct (from a program built against an older header) is zero-extended
 *    on input and truncated on output; a longer one (a newer header) is
 *    accepted when every byte past this header's struct is zero, and
 *    refused with E2BIG otherwise;
 *  - "flags" fields: unknown bits are refused with EINVAL;
 *  - "pad" and "reserved" fields must be zero on input (EINVAL otherwise)
 *    and are zero on output;
 *  - handles and job ids belong to the open file that made them; another
 *    file's get ENOENT;
 *  - GET_INFO or GET_PARAM comes first: check the ABI major and the
 *    capability bits before anything else.
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
#define KOHAKU_ABI_MINOR	9
#define KOHAKU_ABI_VERSION	((KOHAKU_ABI_MAJOR << 16) | KOHAKU_ABI_MINOR)
#define KOHAKU_ABI_VERSION_MAJOR(v)	((v) >> 16)
#define KOHAKU_ABI_VERSION_MINOR(v)	((v) & 0xffff)
#define KOHAKU_DRIVER_NAME	"kohaku"

#define KOHAKU_MAX_MESHES	4
#define KOHAKU_MAX_PROGRAMS	64	/* targets per job */
#define KOHAKU_MAX_JOB_INSTS	16384	/* instructions per job, all targets */
#define KOHAKU_MAX_JOBS		64	/* unwaited jobs per open file */
#define KOHAKU_MAX_BOS		4096	/* BOs one open file holds, all meshes (ABI 0.8) */
#define KOHAKU_MAX_IN_FENCES	16	/* in-syncobjs per job */
#define KOHAKU_BO_ALIGN		4096	/* BO sizes and addresses */
#define KOHAKU_JOB_TIMEOUT_DEFAULT_MS	10000
#define KOHAKU_COORD_NONE	0xff	/* "no node" in fault reports */
#define KOHAKU_MAX_PROGRAM_DATA	16	/* data entries per program (ABI 0.5) */
#define KOHAKU_MAX_JOB_DATA	(256 * 1024)	/* bytes of data per job, all programs */
#define KOHAKU_DATA_GRANULE	32	/* bytes per CU_DATA data flit */
#define KOHAKU_MAX_JOB_BOS	256	/* buffers a job names (ABI 0.8) */

/* ---- GET_INFO ---- */

/* device capability bits (drm_kohaku_get_info.caps, KOHAKU_PARAM_CAPS) */
#define KOHAKU_CAP_SIMULATED	(1ULL << 0)	/* the card is the device model */
#define KOHAKU_CAP_DMA		(1ULL << 1)	/* BO_WRITE/BO_READ reach memory */
#define KOHAKU_CAP_IRQ		(1ULL << 2)	/* job completion by interrupt */
#define KOHAKU_CAP_FENCES	(1ULL << 3)	/* SUBMIT takes in/out syncobjs */
#define KOHAKU_CAP_FIRMWARE	(1ULL << 4)	/* POOL units present: FW_LOAD works */
#define KOHAKU_CAP_JOB_DATA	(1ULL << 5)	/* programs carry CU_DATA (ABI 0.5) */
#define KOHAKU_CAP_DXA		(1ULL << 6)	/* DXA units present: DXA_* work (ABI 0.5) */
/*
 * The control space is reached in 32-bit accesses (a card's host; a
 * simulated card by choice): CAPS's upper half reads 0, so caps_reg[63:32]
 * is 0, grid_hi is the span of the nodes found and the IRQ addon cannot be
 * seen (jobs complete by polling); instructions go through the mailbox
 * (ABI 0.6).
 */
#define KOHAKU_CAP_CTRL32	(1ULL << 7)
/*
 * SUBMIT checks every memory operand of a job against the buffers the job
 * names (ABI 0.8): KOHAKU_SUBMIT_FILE_BOS, bos_ptr, the refused_* fields.
 */
#define KOHAKU_CAP_JOB_BOS	(1ULL << 8)
/*
 * DRM_IOCTL_KOHAKU_MESH_LEASE works (ABI 0.8): a file holding a mesh by
 * an exclusive lease runs the units nothing bounds (the cpu) there.
 */
#define KOHAKU_CAP_LEASE	(1ULL << 9)
/* BO_CREATE takes KOHAKU_BO_FIXED: a buffer at an address the caller names (ABI 0.9) */
#define KOHAKU_CAP_BO_FIXED	(1ULL << 10)
/* a program may wait for its node's peer signals (drm_kohaku_program.peer_signals, ABI 0.9) */
#define KOHAKU_CAP_PEER_SIGNALS	(1ULL << 11)

/* mesh state bits (drm_kohaku_mesh_info.flags) */
#define KOHAKU_MESH_PRESENT	(1u << 0)	/* CAPS read valid twice */
#define KOHAKU_MESH_READY	(1u << 1)	/* enumerated; jobs accepted */
#define KOHAKU_MESH_WEDGED	(1u << 2)	/* dispatcher hung; reprogram */
#define KOHAKU_MESH_MIXED_VERSION (1u << 3)	/* cu_version differs: refused */

/**
 * struct drm_kohaku_mesh_info - one mesh as GET_INFO reports it
 * @flags: KOHAKU_MESH_* state bits.
 * @n_nodes: nodes enumerated on this mesh.
 * @grid_lo: lowest router coordinate, from CAPS.
 * @grid_hi: highest router coordinate, from CAPS.
 * @pos_width: coordinate width in bits, from CAPS.
 * @agent_x: x of the orchestrator (memory port 0) as discovery found it.
 * @agent_y: y of the orchestrator.
 * @cu_version: the mesh-wide build number; 0 when the mesh has no nodes.
 * @flit_width: flit width in bits, from CAPS (288).
 * @min_inst_depth: the credit a job on this mesh is seeded with at most.
 * @caps_reg: the raw CAPS register.
 * @mem_size: device memory the driver manages on this mesh, in bytes.
 * @mem_free: of which free now.
 * @reserved: zero.
 */
struct drm_kohaku_mesh_info {
	__u32 flags;
	__u16 n_nodes;
	__u8 grid_lo;
	__u8 grid_hi;
	__u8 pos_width;
	__u8 agent_x;
	__u8 agent_y;
	__u8 cu_version;
	__u16 flit_width;
	__u16 min_inst_depth;
	__u64 caps_reg;
	__u64 mem_size;
	__u64 mem_free;
	__u64 reserved[2];
};

/**
 * struct drm_kohaku_get_info - the device at a glance (DRM_IOCTL_KOHAKU_GET_INFO)
 * @flags: in: must be 0.
 * @abi_version: out: KOHAKU_ABI_VERSION of the driver.
 * @caps: out: KOHAKU_CAP_* bits: what works on this device.
 * @n_meshes: out: mesh windows present.
 * @n_nodes: out: enumerated nodes, all meshes.
 * @name: out: the device's name, NUL-terminated.
 * @mesh: out: per mesh, KOHAKU_MAX_MESHES entries (absent ones zero).
 * @reserved: zero.
 */
struct drm_kohaku_get_info {
	__u32 flags;
	__u32 abi_version;
	__u64 caps;
	__u32 n_meshes;
	__u32 n_nodes;
	char name[32];
	struct drm_kohaku_mesh_info mesh[KOHAKU_MAX_MESHES];
	__u64 reserved[4];
};

/* ---- GET_PARAM: one value at a time ---- */

#define KOHAKU_PARAM_ABI_VERSION	0	/* KOHAKU_ABI_VERSION */
#define KOHAKU_PARAM_CAPS		1	/* KOHAKU_CAP_* */
#define KOHAKU_PARAM_N_MESHES		2
#define KOHAKU_PARAM_N_NODES		3
#define KOHAKU_PARAM_DEVICE_TIME_NS	4	/* the device's clock now */
#define KOHAKU_PARAM_MAX_JOBS		5	/* unwaited jobs per open file */
#define KOHAKU_PARAM_MAX_PROGRAMS	6	/* programs per job */
#define KOHAKU_PARAM_MAX_JOB_INSTS	7	/* instructions per job */
#define KOHAKU_PARAM_MAX_IN_FENCES	8	/* in-syncobjs per job */
#define KOHAKU_PARAM_JOB_TIMEOUT_MS	9	/* SUBMIT's default timeout_ms */
#define KOHAKU_PARAM_FW_UNITS		10	/* POOL units on the device */
#define KOHAKU_PARAM_FW_RUNNING		11	/* ... running the firmware */
#define KOHAKU_PARAM_FW_VERSION		12	/* the loaded image's, 0 if none */
#define KOHAKU_PARAM_FW_API		13	/* its API, major << 16 | minor */
#define KOHAKU_PARAM_FW_DRIVER_API	14	/* the API major.minor the driver speaks */
#define KOHAKU_PARAM_MAX_BOS		15	/* KOHAKU_MAX_BOS: BOs per open file (ABI 0.8) */
/* the card's DMA engine and interrupts (ABI 0.4) */
#define KOHAKU_PARAM_DMA_CHANNELS	64	/* XDMA channels in use: 2, or 0 */
#define KOHAKU_PARAM_DMA_BYTES_TO_CARD	65	/* moved by H2C since bring-up */
#define KOHAKU_PARAM_DMA_BYTES_FROM_CARD 66	/* moved by C2H */
#define KOHAKU_PARAM_DMA_ERRORS		67	/* transfers that failed */
#define KOHAKU_PARAM_IRQ_VECTORS	68	/* interrupt vectors in use, 0: polling */
#define KOHAKU_PARAM_IRQS		69	/* interrupts taken, every vector */
/* per mesh, KOHAKU_PARAM_MESH_FIRST..LAST: index is the mesh */
#define KOHAKU_PARAM_MESH_FIRST		16
#define KOHAKU_PARAM_MESH_LAST		63
#define KOHAKU_PARAM_MESH_FLAGS		16	/* KOHAKU_MESH_* */
#define KOHAKU_PARAM_MESH_N_NODES	17
#define KOHAKU_PARAM_MESH_CAPS_REG	18
#define KOHAKU_PARAM_MESH_CU_VERSION	19
#define KOHAKU_PARAM_MESH_MIN_INST_DEPTH 20
#define KOHAKU_PARAM_MESH_MEM_SIZE	21
#define KOHAKU_PARAM_MESH_MEM_FREE	22
#define KOHAKU_PARAM_MESH_JOBS_PENDING	23	/* queued or running, all files (not the driver's own) */
#define KOHAKU_PARAM_MESH_JOBS_DONE	24	/* final since bring-up, any status (the same) */
#define KOHAKU_PARAM_MESH_RESETS	25	/* mesh resets the driver saw (ABI 0.6) */
/* the mesh's clocks and recovery (ABI 0.7): see struct drm_kohaku_clocks */
#define KOHAKU_PARAM_MESH_CLK_PROFILE	26	/* KOHAKU_CLK_PROFILE_* now */
#define KOHAKU_PARAM_MESH_CLK_POLICY	27	/* KOHAKU_CLK_POLICY_* */
#define KOHAKU_PARAM_MESH_CLK_RETUNES	28	/* retunes the driver made */
#define KOHAKU_PARAM_MESH_CLK_NOC_MHZ	29	/* CLKOUT0 as the wizard reads */
#define KOHAKU_PARAM_MESH_CLK_MAT2X_MHZ	30	/* CLKOUT1 */
#define KOHAKU_PARAM_MESH_CLK_VEC_MHZ	31	/* CLKOUT2 */
#define KOHAKU_PARAM_MESH_CLK_MAG_MHZ	32	/* CLKOUT3 */
#define KOHAKU_PARAM_MESH_RECOVERIES	33	/* automatic recoveries (resets after a hang) */
#define KOHAKU_PARAM_MESH_RESETS_ASKED	34	/* resets asked for (DRM_KOHAKU_RESET) */
#define KOHAKU_PARAM_MESH_CLK_LOW_NS	35	/* device time at the low profile */
#define KOHAKU_PARAM_MESH_CLK_MID_NS	36	/* ... at mid */
#define KOHAKU_PARAM_MESH_CLK_SHIP_NS	37	/* ... at ship */

/**
 * struct drm_kohaku_get_param - one value (DRM_IOCTL_KOHAKU_GET_PARAM)
 * @param: in: KOHAKU_PARAM_*; an unknown one gets EINVAL.
 * @index: in: the mesh, for KOHAKU_PARAM_MESH_*; 0 otherwise.  A mesh that
 *	is not present gets EINVAL.
 * @value: out.
 */
struct drm_kohaku_get_param {
	__u32 param;
	__u32 index;
	__u64 value;
};

/* ---- NODES: the enumerated node table ---- */

#define KOHAKU_NODE_HUNG	(1u << 0)	/* a job on it timed out, or work from before the driver outlasted bring-up */

/**
 * struct drm_kohaku_node - one enumerated node
 * @mesh: its mesh.
 * @x: its coordinate.
 * @y: its coordinate.
 * @n_buffers: CU_CAPS n_buffers.
 * @cu_type: CU_CAPS cu_type, two ASCII characters by convention.
 * @cu_version: CU_CAPS cu_version (the mesh-wide build number).
 * @flags: KOHAKU_NODE_* bits.
 * @inst_depth: instruction FIFO entries (CU_CAPS).
 * @inst_space: free entries, CU_STATUS as last read.
 * @retired: CU_COUNTERS[63:32] as last read.
 * @busy_cycles: CU_COUNTERS[31:0] as last read.
 * @busy: the CU_STATUS busy bit as last read.
 * @caps_reg: the raw CU_CAPS.
 * @dbg: the raw CU_DBG (unit-defined) as last read; for a cpu unit after
 *	a job that kicked it, the program's, read by the driver before its L1
 *	flush stub's kick cleared it (docs/spec/cpu.md), until the next kick.
 * @fw_state: KOHAKU_FW_STATE_*: KOHAKU_FW_STATE_NONE for a unit that runs
 *	no firmware (ABI 0.3).
 * @fw_pad: zero.
 * @fw_version: the firmware version the unit published at boot, 0 if none.
 * @fw_api: the firmware's API, major << 16 | minor, as it published it.
 * @fw_reserved: zero.
 * @fw_boot_ns: device time from releasing the cores to READY, last boot.
 * @fw_trap: the unit's TRAP register (KH_POOL_TRAP_*, kohaku/kh_pool.h)
 *	as last read (at boot, and with KOHAKU_NODES_LIVE): the first trap
 *	since its cores left reset.
 */
struct drm_kohaku_node {
	__u8 mesh;
	__u8 x;
	__u8 y;
	__u8 n_buffers;
	__u16 cu_type;
	__u8 cu_version;
	__u8 flags;
	__u16 inst_depth;
	__u16 inst_space;
	__u32 retired;
	__u32 busy_cycles;
	__u32 busy;
	__u64 caps_reg;
	__u64 dbg;
	__u8 fw_state;
	__u8 fw_pad[3];
	__u32 fw_version;
	__u32 fw_api;
	__u32 fw_reserved;
	__u64 fw_boot_ns;
	__u64 fw_trap;
};

/* what a unit's firmware is doing (drm_kohaku_node.fw_state) */
#define KOHAKU_FW_STATE_NONE	0	/* the unit runs no firmware */
#define KOHAKU_FW_STATE_ABSENT	1	/* a POOL unit, nothing loaded yet */
#define KOHAKU_FW_STATE_BOOTING	2	/* loading or waiting for READY */
#define KOHAKU_FW_STATE_RUNNING	3	/* claimed: it takes jobs */
#define KOHAKU_FW_STATE_FAILED	4	/* the last boot failed, none runs */

/* the smallest node_size the driver takes: ABI 0.1's struct drm_kohaku_node */
#define KOHAKU_NODE_SIZE_MIN	40

/* re-read CU_STATUS, CU_COUNTERS and CU_DBG now instead of as last read */
#define KOHAKU_NODES_LIVE	(1u << 0)

/**
 * struct drm_kohaku_nodes - the node table (DRM_IOCTL_KOHAKU_NODES)
 * @flags: in: KOHAKU_NODES_* bits.
 * @capacity: in: entries at @nodes_ptr.
 * @count: out: nodes in total; min(@count, @capacity) entries are written.
 * @node_size: in: the caller's sizeof(struct drm_kohaku_node), at least
 *	KOHAKU_NODE_SIZE_MIN.  Each entry is written with that stride; bytes
 *	past the driver's struct are zeroed.
 * @nodes_ptr: in: user pointer to @capacity entries of @node_size bytes.
 * @reserved: zero.
 */
struct drm_kohaku_nodes {
	__u32 flags;
	__u32 capacity;
	__u32 count;
	__u32 node_size;
	__u64 nodes_ptr;
	__u64 reserved[2];
};

/* ---- device memory (buffer objects in one mesh's DRAM) ---- */

/* BO_CREATE flags (drm_kohaku_bo_create.flags) */
#define KOHAKU_BO_FIXED		(1u << 0)	/* at dev_addr (ABI 0.9) */
#define KOHAKU_BO_CREATE_FLAGS	KOHAKU_BO_FIXED

/**
 * struct drm_kohaku_bo_create - allocate device memory (DRM_IOCTL_KOHAKU_BO_CREATE)
 * @flags: in: 0 or KOHAKU_BO_FIXED (ABI 0.9, KOHAKU_CAP_BO_FIXED).
 * @mesh: in: the mesh whose DRAM holds the BO.
 * @size: in: bytes; the allocation is rounded up to KOHAKU_BO_ALIGN.
 * @handle: out: nonzero, this open file's.
 * @pad: zero.
 * @dev_addr: out: the address units use (mesh << 36 | local offset).
 *	With KOHAKU_BO_FIXED, in as well: the address the BO must have,
 *	a multiple of KOHAKU_BO_ALIGN whose mesh bits are @mesh.
 * @reserved: zero.
 *
 * Refused with EINVAL for @size 0 or a mesh that is not present; ENOMEM
 * when the mesh has no free piece of the rounded size (a size larger
 * than the mesh's memory included) or the host is out of memory; ENOSPC
 * when the open file already holds KOHAKU_MAX_BOS BOs (KOHAKU_PARAM_MAX_BOS),
 * on every mesh together: BO_FREE of one makes room.
 *
 * KOHAKU_BO_FIXED (a compiler's arena: its artifacts carry absolute
 * addresses): EINVAL when @dev_addr is not aligned, names another mesh,
 * or the range is not wholly inside the memory the driver manages on the
 * mesh; EBUSY when any byte of the rounded range is taken, by any file's
 * BO or by memory freed but not yet reusable (BO_FREE's rule).  The
 * address is never moved: a BO is either where it was asked for or not
 * made.  @dev_addr is not read without the flag.
 */
struct drm_kohaku_bo_create {
	__u32 flags;
	__u32 mesh;
	__u64 size;
	__u32 handle;
	__u32 pad;
	__u64 dev_addr;
	__u64 reserved[2];
};

/**
 * struct drm_kohaku_bo_free - free a BO (DRM_IOCTL_KOHAKU_BO_FREE)
 * @handle: in.
 * @flags: in: must be 0.
 * @reserved: zero.
 *
 * The memory is reused only once every job submitted before the free is
 * final: a unit may still be writing into it.
 */
struct drm_kohaku_bo_free {
	__u32 handle;
	__u32 flags;
	__u64 reserved[2];
};

/**
 * struct drm_kohaku_bo_info - a BO's facts (DRM_IOCTL_KOHAKU_BO_INFO)
 * @handle: in.
 * @flags: in: must be 0.
 * @size: out: as created (the allocation is rounded up to 4 KiB).
 * @dev_addr: out: the address units use.
 * @mesh: out.
 * @pad: zero.
 * @reserved: zero.
 */
struct drm_kohaku_bo_info {
	__u32 handle;
	__u32 flags;
	__u64 size;
	__u64 dev_addr;
	__u32 mesh;
	__u32 pad;
	__u64 reserved[2];
};

/**
 * struct drm_kohaku_bo_rw - move data (DRM_IOCTL_KOHAKU_BO_WRITE, _BO_READ)
 * @handle: in.
 * @flags: in: must be 0.
 * @offset: in: byte offset in the BO; any alignment.
 * @size: in: bytes; @offset + @size within the BO's size.
 * @data_ptr: in: user buffer of @size bytes.
 * @reserved: zero.
 */
struct drm_kohaku_bo_rw {
	__u32 handle;
	__u32 flags;
	__u64 offset;
	__u64 size;
	__u64 data_ptr;
	__u64 reserved[2];
};

/* ---- jobs ---- */

/**
 * struct kohaku_inst - one CU_INST payload
 * @w: w[k] holds payload bits [64k+63:64k]; the unit decides what they mean.
 */
struct kohaku_inst {
	__u64 w[4];
};

/**
 * struct drm_kohaku_data - bytes for one CU_DATA buffer of a program's node
 * @data_ptr: user pointer to @size bytes.
 * @size: bytes: a multiple of KOHAKU_DATA_GRANULE, at least one granule.
 *	Granule k is data flit k; its bytes are the flit's payload, byte 0
 *	in payload bits [7:0] (the unit's spec says what a flit means).
 * @offset: the buffer offset of the first granule (the CU_DATA
 *	descriptor's offset; 16 bits): the driver sends bursts of at most
 *	256 granules, each at the offset where the previous one ended.
 * @buf_id: the buffer, one the unit publishes (its spec lists them).
 * @pad: zero.
 * @flags: must be 0.
 * @reserved: zero.
 *
 * Sent when the job is dispatched, before any instruction of the job, from
 * the orchestrator's mailbox.  A unit that acknowledges CU_DATA is asked
 * to, and each burst waits for its SIG_DATA_RECEIVED; a burst it does not
 * acknowledge within 2 ms of device time ends the job ERROR before any
 * instruction is sent.  The cpu unit (cu_type 'RV') never acknowledges:
 * its bursts are sent without, and the unit itself takes no kick before
 * it has taken every flit ahead of it; a burst it refuses is lost, as on
 * the card (docs/spec/cpu.md).
 */
struct drm_kohaku_data {
	__u64 data_ptr;
	__u32 size;
	__u32 offset;
	__u8 buf_id;
	__u8 pad[3];
	__u32 flags;
	__u64 reserved;
};

/**
 * struct drm_kohaku_program - the work of one job for one node
 * @mesh: the target's mesh; every program of a job is on one mesh.
 * @x: the target's coordinate.
 * @y: the target's coordinate.
 * @txn: the program id, echoed by the unit's SIG_BATCH_COMPLETE.
 * @n_insts: instructions, at least 1 (0 allowed with @peer_signals, ABI 0.9).
 * @insts_ptr: user pointer to @n_insts struct kohaku_inst.
 * @flags: must be 0.
 * @pad: zero.
 * @reserved: zero.
 * @data_ptr: in (ABI 0.5): user pointer to @n_data struct drm_kohaku_data,
 *	sent to the node before the job's instructions; 0 with @n_data 0.
 * @n_data: in: 0..KOHAKU_MAX_PROGRAM_DATA; all programs' data together at
 *	most KOHAKU_MAX_JOB_DATA bytes.  Refused (EINVAL) for a node that
 *	publishes no buffer and for a POOL unit (its firmware owns them).
 * @data_pad: zero.
 * @peer_signals: in (ABI 0.9, KOHAKU_CAP_PEER_SIGNALS): signals the node
 *	sends the orchestrator in this job beyond its own instructions'
 *	completions: one SIG_DATA_RECEIVED per CU_DATA burst another program
 *	of the job sends it asking for an acknowledgement to the
 *	orchestrator (a compiler artifact's await on a peer).  The job is
 *	final only once they have come too; the node's last signal is then
 *	a completion, a SIG_FAULT or a SIG_DATA_RECEIVED.  With
 *	@peer_signals nonzero, @n_insts may be 0: a node the job only sends
 *	to (and which KOHAKU_REFUSED_NODE then lets it send to).
 *	@n_insts + @peer_signals at most KOHAKU_MAX_JOB_INSTS.  Peer signals
 *	return no credit (kohakutpu.md 4.3).
 * @peer_pad: zero.
 */
struct drm_kohaku_program {
	__u8 mesh;
	__u8 x;
	__u8 y;
	__u8 txn;
	__u32 n_insts;
	__u64 insts_ptr;
	__u32 flags;
	__u32 pad;
	__u64 reserved;
	__u64 data_ptr;
	__u32 n_data;
	__u32 data_pad;
	__u32 peer_signals;
	__u32 peer_pad;
};

/* the smallest program_size the driver takes: ABI 0.1's struct */
#define KOHAKU_PROGRAM_SIZE_MIN	32

/* a buffer's use by a job (drm_kohaku_job_bo.flags, ABI 0.8) */
#define KOHAKU_JOB_BO_READ	(1u << 0)	/* units of the job may read it */
#define KOHAKU_JOB_BO_WRITE	(1u << 1)	/* units of the job may write it */
#define KOHAKU_JOB_BO_RW	(KOHAKU_JOB_BO_READ | KOHAKU_JOB_BO_WRITE)

/**
 * struct drm_kohaku_job_bo - a buffer a job uses (ABI 0.8)
 * @handle: a BO of the submitting file, on the job's mesh.
 * @flags: KOHAKU_JOB_BO_READ, KOHAKU_JOB_BO_WRITE, or both; not 0.
 * @reserved: zero.
 *
 * A handle named twice is refused (EINVAL): name it once with both bits.
 */
struct drm_kohaku_job_bo {
	__u32 handle;
	__u32 flags;
	__u64 reserved;
};

/* SUBMIT flags (drm_kohaku_submit.flags, ABI 0.8) */
/*
 * The job may use every BO of the submitting file on its mesh, to read and
 * to write, as if each were named with KOHAKU_JOB_BO_RW; no list beside it
 * (n_bos 0, else EINVAL).
 */
#define KOHAKU_SUBMIT_FILE_BOS	(1u << 0)
/*
 * No check of the job's memory operands at all, the form of ABI 0.7: for an
 * administrator only (CAP_SYS_ADMIN on kohaku.ko: EPERM otherwise), with
 * no buffer named (EINVAL).
 */
#define KOHAKU_SUBMIT_UNCHECKED	(1u << 1)
#define KOHAKU_SUBMIT_FLAGS	(KOHAKU_SUBMIT_FILE_BOS | KOHAKU_SUBMIT_UNCHECKED)

/* what an operand refused at SUBMIT was (drm_kohaku_submit.refused_why) */
#define KOHAKU_REFUSED_NONE	0
#define KOHAKU_REFUSED_OUTSIDE	1	/* its range lies in no buffer the job names */
#define KOHAKU_REFUSED_INTENT	2	/* in a buffer named without the access it makes (read, write) */
#define KOHAKU_REFUSED_WRAPS	3	/* its range wraps past the top of the address space */
#define KOHAKU_REFUSED_NODE	4	/* it sends data to a node the job has no program on */
#define KOHAKU_REFUSED_UNCHECKABLE 5	/* a unit whose programs the driver cannot check; needs an administrator */
/*
 * E2BIG, not EACCES: a POOL program reaches more separate buffers than its
 * unit's bounds hold (KH_POOL_REGIONS; buffers that touch, named with the
 * same access, count once); refused_inst/operand name the first operand
 * past them.
 */
#define KOHAKU_REFUSED_REGIONS	6
#define KOHAKU_REFUSED_MAX	6

/**
 * struct drm_kohaku_submit - queue a job (DRM_IOCTL_KOHAKU_SUBMIT)
 * @flags: in: KOHAKU_SUBMIT_* (ABI 0.8); 0 before.
 * @n_programs: in: 1..KOHAKU_MAX_PROGRAMS, one per target node.
 * @programs_ptr: in: user pointer to @n_programs entries of @program_size
 *	bytes (struct drm_kohaku_program).
 * @program_size: in: the caller's sizeof(struct drm_kohaku_program), at
 *	least KOHAKU_PROGRAM_SIZE_MIN; bytes past the driver's struct must be 0.
 * @timeout_ms: in: the job's limit in device time, counted from dispatch;
 *	0 means KOHAKU_JOB_TIMEOUT_DEFAULT_MS.
 * @job_id: out: nonzero, this open file's.
 * @reserved: zero.
 * @in_syncobjs_ptr: in (ABI 0.2): user pointer to @n_in_syncobjs __u32
 *	syncobj handles of this file.  The job is not dispatched before every
 *	fence they hold at SUBMIT time has signalled; a fence that signals
 *	with an error aborts the job (ABORTED).  A syncobj with no fence is
 *	refused (EINVAL).
 * @n_in_syncobjs: in: 0..KOHAKU_MAX_IN_FENCES.
 * @out_syncobj: in: a syncobj handle of this file that gets the job's
 *	fence, or 0.  The fence signals when the job is final, with error
 *	-EIO unless the job is DONE.
 * @bos_ptr: in (ABI 0.8): user pointer to @n_bos struct drm_kohaku_job_bo,
 *	the buffers the job's units may reach; 0 with @n_bos 0.  Every
 *	memory operand of every instruction must lie, whole, in one of them
 *	with the access it makes, else SUBMIT fails EACCES and fills the
 *	refused_* fields (docs/abi.md "What a job can reach").  A job with
 *	no flag and no buffer named is checked against no buffer, unless its
 *	opener is an administrator: then it is not checked (ABI 0.7's form).
 * @n_bos: in: 0..KOHAKU_MAX_JOB_BOS.
 * @refused_why: out: KOHAKU_REFUSED_*, when SUBMIT failed EACCES (E2BIG
 *	for KOHAKU_REFUSED_REGIONS); 0 otherwise.
 * @refused_program: out: with @refused_why, the index of the program
 *	(in @programs_ptr) that holds the refused instruction.
 * @refused_inst: out: with @refused_why, the instruction's index in its
 *	program (for job data, n_insts + the data entry's index).
 * @refused_operand: out: with @refused_why, the operand: its index in the
 *	instruction as the unit's spec lists them (docs/abi.md's table).
 * @refused_addr: out: with @refused_why, the operand's first byte (a
 *	device address), or for KOHAKU_REFUSED_NODE the node, as y << 8 | x.
 * @refused_pad: zero.
 * @refused_len: out: with @refused_why, the bytes the operand covers.
 */
struct drm_kohaku_submit {
	__u32 flags;
	__u32 n_programs;
	__u64 programs_ptr;
	__u32 program_size;
	__u32 timeout_ms;
	__u64 job_id;
	__u64 reserved[2];
	__u64 in_syncobjs_ptr;
	__u32 n_in_syncobjs;
	__u32 out_syncobj;
	__u64 bos_ptr;
	__u32 n_bos;
	__u32 refused_why;
	__u32 refused_program;
	__u32 refused_inst;
	__u32 refused_operand;
	__u32 refused_pad;
	__u64 refused_addr;
	__u64 refused_len;
};

/* job status (drm_kohaku_wait.status) */
#define KOHAKU_JOB_QUEUED	1	/* accepted, not dispatched yet */
#define KOHAKU_JOB_RUNNING	2
#define KOHAKU_JOB_DONE		3	/* every program retired cleanly */
#define KOHAKU_JOB_FAULT	4	/* a unit raised SIG_FAULT */
#define KOHAKU_JOB_TIMEOUT	5	/* did not finish within its limit */
#define KOHAKU_JOB_ABORTED	6	/* never ran, or its mesh was reset under it: see reason */
#define KOHAKU_JOB_ERROR	7	/* the device answered out of protocol */

/* why a job ended ERROR (ABI 0.5) or ABORTED (ABI 0.6): drm_kohaku_wait.reason */
#define KOHAKU_JOB_WHY_NONE		0
#define KOHAKU_JOB_WHY_DATA_REFUSED	1	/* ERROR: the node did not acknowledge the job's CU_DATA: a buffer it does not take, or past its end */
#define KOHAKU_JOB_WHY_DATA_PROTOCOL	2	/* ERROR: the node answered CU_DATA with another signal */
#define KOHAKU_JOB_WHY_BATCH_TXN	3	/* ERROR: SIG_BATCH_COMPLETE named another program's txn */
#define KOHAKU_JOB_WHY_NOT_COMPLETION	4	/* ERROR: a program's last signal was not a completion */
#define KOHAKU_JOB_WHY_MESH_RESET	5	/* ABORTED: its mesh was reset while the job was on it (a clock retune or a reset by another agent); its instructions were lost */
#define KOHAKU_JOB_WHY_MESH_WEDGED	6	/* ABORTED: its mesh is wedged (a dispatcher that never drains) */
#define KOHAKU_JOB_WHY_NODE_HUNG	7	/* ABORTED: a target node hung in an earlier job */
#define KOHAKU_JOB_WHY_IN_FENCE		8	/* ABORTED: an in-fence signalled an error */
#define KOHAKU_JOB_WHY_REMOVED		9	/* ABORTED: the device was removed */
#define KOHAKU_JOB_WHY_RESET_ASKED	10	/* ABORTED: a reset of its mesh was asked for (DRM_KOHAKU_RESET: `kohaku reset`, sysfs reset) while it ran (ABI 0.7) */
#define KOHAKU_JOB_WHY_MAX		10

/*
 * NODE_STATUS keeps only each node's last signal, so the driver always
 * knows how many instructions faulted (they return no credit) but knows
 * which node and which code only when it saw the SIG_FAULT itself.
 */
#define KOHAKU_FAULT_NODE_KNOWN	(1u << 0)
#define KOHAKU_FAULT_CODE_KNOWN	(1u << 1)

/**
 * struct drm_kohaku_wait - wait for a job (DRM_IOCTL_KOHAKU_WAIT)
 * @job_id: in.
 * @timeout_ms: in: device time to wait; 0 means just look.
 * @flags: in: must be 0.
 * @status: out: KOHAKU_JOB_*.
 * @fault_code: out: the SIG_FAULT argument when FAULT_CODE_KNOWN.
 * @fault_mesh: out: when FAULT_NODE_KNOWN, the faulting node (FAULT), or
 *	the first of the job's nodes that had not finished (TIMEOUT); else
 *	KOHAKU_COORD_NONE.
 * @fault_x: out: likewise.
 * @fault_y: out: likewise.
 * @fault_flags: out: KOHAKU_FAULT_* bits.
 * @n_faults: out: instructions that raised SIG_FAULT.
 * @device_ns: out: device time from dispatch to the job's end.
 * @reason: out: why a job ended ERROR (ABI 0.5) or ABORTED (ABI 0.6),
 *	KOHAKU_JOB_WHY_*; 0 otherwise (and for ABORTED from a driver older
 *	than 0.6).
 * @reason_pad: zero.
 * @reserved: zero.
 *
 * WAIT returns 0 once the job has a final status (DONE, FAULT, TIMEOUT,
 * ABORTED, ERROR) and forgets the job: a second WAIT on it gets ENOENT.  It
 * returns ETIMEDOUT when @timeout_ms passed first, with @status QUEUED or
 * RUNNING; the job goes on.  Waiters sleep: the device's progress engine
 * advances the job.
 */
struct drm_kohaku_wait {
	__u64 job_id;
	__u32 timeout_ms;
	__u32 flags;
	__u32 status;
	__u32 fault_code;
	__u8 fault_mesh;
	__u8 fault_x;
	__u8 fault_y;
	__u8 fault_flags;
	__u32 n_faults;
	__u64 device_ns;
	__u32 reason;
	__u32 reason_pad;
	__u64 reserved;
};

/* ---- FW_LOAD: boot firmware on the POOL units ---- */

/* why FW_LOAD failed (drm_kohaku_fw_load.reason) */
#define KOHAKU_FW_OK		0
#define KOHAKU_FW_ERR_TRUNCATED	1	/* shorter than its header says */
#define KOHAKU_FW_ERR_TOO_BIG	2	/* over KH_FW_MAX_IMAGE bytes */
#define KOHAKU_FW_ERR_MAGIC	3	/* not a Kohaku firmware image */
#define KOHAKU_FW_ERR_FORMAT	4	/* a format version this driver lacks */
#define KOHAKU_FW_ERR_CRC	5	/* the image's CRC-32 does not match */
#define KOHAKU_FW_ERR_HEADER	6	/* a header field breaks a rule */
#define KOHAKU_FW_ERR_API	7	/* API major differs from the driver's */
#define KOHAKU_FW_ERR_SECTION	8	/* section @detail breaks a rule */
#define KOHAKU_FW_ERR_RANGE	9	/* section @detail lies outside its memory */
#define KOHAKU_FW_ERR_SECTION_CRC 10	/* section @detail's CRC-32 does not match */
#define KOHAKU_FW_ERR_OVERLAP	11	/* section @detail overlaps an earlier one */
#define KOHAKU_FW_ERR_ENTRY	12	/* the entry point is outside IRAM code */
#define KOHAKU_FW_ERR_NO_UNITS	13	/* the device has no POOL unit */
#define KOHAKU_FW_ERR_BUSY	14	/* a job is queued or running on a unit */
#define KOHAKU_FW_ERR_LOAD	15	/* the unit refused or lost the load */
#define KOHAKU_FW_ERR_TIMEOUT	16	/* no READY within the boot timeout */
#define KOHAKU_FW_ERR_TRAP	17	/* a core trapped while booting */
#define KOHAKU_FW_ERR_VERSION	18	/* it published another version/API */
#define KOHAKU_FW_ERR_MAX	18

/* force the CU_DATA mailbox path rather than LOAD from device memory */
#define KOHAKU_FW_LOAD_MAILBOX	(1u << 0)
#define KOHAKU_FW_LOAD_FLAGS	KOHAKU_FW_LOAD_MAILBOX
/* how the sections went (drm_kohaku_fw_load.loaded_by) */
#define KOHAKU_FW_BY_LOAD	1
#define KOHAKU_FW_BY_MAILBOX	2
#define KOHAKU_FW_BOOT_TIMEOUT_DEFAULT_MS	100

/**
 * struct drm_kohaku_fw_load - load and boot a firmware image (DRM_IOCTL_KOHAKU_FW_LOAD)
 * @image_ptr: in: user pointer to the image (docs/spec/firmware-image.md).
 * @image_size: in: its bytes.
 * @flags: in: KOHAKU_FW_LOAD_* bits.
 * @timeout_ms: in: device time each unit gets from release to READY; 0
 *	means KOHAKU_FW_BOOT_TIMEOUT_DEFAULT_MS.
 * @n_units: out: POOL units now running the image.
 * @reason: out: KOHAKU_FW_OK, or why the load failed (KOHAKU_FW_ERR_*);
 *	written on failure too.
 * @detail: out: the section, for a section's reason; else 0.
 * @fw_version: out: the version the firmware published.
 * @fw_api: out: its API, major << 16 | minor.
 * @fail_mesh: out: the unit a boot failed on, for LOAD, TIMEOUT, TRAP and
 *	VERSION; else KOHAKU_COORD_NONE.
 * @fail_x: out: likewise.
 * @fail_y: out: likewise.
 * @pad: zero.
 * @loaded_by: out: how the sections reached the units: KOHAKU_FW_BY_LOAD
 *	(LOAD instructions from a copy in device memory) or
 *	KOHAKU_FW_BY_MAILBOX (CU_DATA bursts); 0 when nothing was loaded.
 * @boot_ns: out: device time from release to READY, the slowest unit.
 * @fail_trap: out: with KOHAKU_FW_ERR_TRAP, the failing unit's TRAP
 *	register (KH_POOL_TRAP_*: core, cause, PC), else 0.
 * @reserved: zero.
 *
 * The whole image is checked before the device is touched.  Every POOL
 * unit of the device is then loaded and booted; while a job is queued or
 * running on any of them FW_LOAD fails with EBUSY.  On a failure the
 * units are booted again with the image they ran before, if there was one.
 * Errors: EINVAL (a malformed image: @reason says which rule), E2BIG (over
 * KH_FW_MAX_IMAGE), EPROTO (API major mismatch), ENODEV (no POOL unit),
 * EBUSY, EIO (the load failed on the device), ETIMEDOUT (no READY).
 */
struct drm_kohaku_fw_load {
	__u64 image_ptr;
	__u32 image_size;
	__u32 flags;
	__u32 timeout_ms;
	__u32 n_units;
	__u32 reason;
	__u32 detail;
	__u32 fw_version;
	__u32 fw_api;
	__u8 fail_mesh;
	__u8 fail_x;
	__u8 fail_y;
	__u8 pad;
	__u32 loaded_by;
	__u64 boot_ns;
	__u64 fail_trap;
	__u64 reserved[2];
};

/* ---- DXA descriptor slots (ABI 0.5; docs/spec/dxa.md, docs/abi.md "DXA") ---- */

/* drm_kohaku_dxa_desc.flags */
#define KOHAKU_DXA_KMAJOR	(1u << 0)	/* K-major destination, rank 1-2 */
#define KOHAKU_DXA_DESC_FLAGS	KOHAKU_DXA_KMAJOR

/**
 * struct drm_kohaku_dxa_desc - what a DXA slot copies from, as a file sets it
 * @bo_handle: a BO of this file: the tensor lives in it.
 * @flags: KOHAKU_DXA_* bits.
 * @bo_offset: byte offset of element (0, 0, 0, 0, 0) in the BO; a multiple
 *	of @elem_bytes.
 * @size: extent of dimensions 0..@rank-1 in elements (the out-of-bounds
 *	limit), at least 1; 0 at and above @rank.
 * @stride: byte stride of dimensions 1..@rank-1 (dimension 0 is dense), a
 *	multiple of @elem_bytes; 0 at and above @rank.
 * @tile: the tile's extent, 1..65535 below @rank, 0 above; the tile is at
 *	most KH_DXA_MAX_TILE_BYTES.
 * @mstride: granules added to receiver r's offset, r = 0..3 (multicast).
 * @rank: 1..5.
 * @elem_bytes: 1, 2, 4 or 8.
 * @pad: zero.
 * @cfill: the value of an out-of-bounds element.
 * @reserved: zero.
 *
 * Every element the descriptor can reach, (@size[d] - 1) in each
 * dimension, must lie inside the BO, and the BO must be on the unit's
 * mesh: the unit reads nothing else.  Elements past @size are the unit's
 * out-of-bounds fill and are never read.
 */
struct drm_kohaku_dxa_desc {
	__u32 bo_handle;
	__u32 flags;
	__u64 bo_offset;
	__u32 size[5];
	__u32 stride[4];
	__u16 tile[5];
	__u16 mstride;
	__u8 rank;
	__u8 elem_bytes;
	__u16 pad;
	__u32 cfill;
	__u64 reserved[2];
};

/**
 * struct drm_kohaku_dxa_slot - one slot of one DXA unit
 *	(DRM_IOCTL_KOHAKU_DXA_ALLOC, _FREE, _SET, _GET)
 * @flags: in: 0, or for GET KOHAKU_DXA_GET_DEVICE.
 * @mesh: in: the DXA unit's mesh.
 * @x: in: its coordinate.
 * @y: in: its coordinate.
 * @slot: ALLOC: out, the slot this file now owns (0..15, what its copies
 *	name); FREE, SET, GET: in.
 * @state: out: KOHAKU_DXA_SLOT_* after the call; for GET the slot's state
 *	as the driver knows it, whoever owns it.
 * @pad: zero.
 * @desc: SET: in, checked whole before it is kept; GET: out, as set (all
 *	zero for a slot of another file, or one not set); ALLOC, FREE: out,
 *	zero.
 * @table: SET and GET: out: the slot's 64 bytes (docs/spec/dxa.md) as the
 *	driver will write them with the file's next copy through this slot
 *	(zero while it is not set); GET with KOHAKU_DXA_GET_DEVICE: as the
 *	unit holds them now, read through CU_CTRL (DXA_SEL, DXA_DATA).
 *
 * ALLOC takes a free slot of the unit for this file (EBUSY when all 16 are
 * taken); SET, GET and FREE work on this file's slots only (ENOENT for
 * another's or a free one), except GET with KOHAKU_DXA_GET_DEVICE, which
 * reads any slot of the unit (a tool's view of the unit: @table and
 * @state, no @desc).  @flags is 0 but for GET's KOHAKU_DXA_GET_DEVICE;
 * a node that is not a DXA unit, a slot past 15 or a nonzero @pad is
 * EINVAL.  A file's slots are freed when it closes.  The driver writes a
 * slot to the unit as job data of each job with a copy through it, so
 * what a job copies is what was set when it was submitted; a program for
 * a DXA unit carries no CU_DATA of its own.
 */
struct drm_kohaku_dxa_slot {
	__u32 flags;
	__u8 mesh;
	__u8 x;
	__u8 y;
	__u8 slot;
	__u32 state;
	__u32 pad;
	struct drm_kohaku_dxa_desc desc;
	__u8 table[64];
};

#define KOHAKU_DXA_GET_DEVICE	(1u << 0)	/* GET: read the unit's table */
#define KOHAKU_DXA_SLOT_FREE	0
#define KOHAKU_DXA_SLOT_OWNED	1	/* allocated, not set yet */
#define KOHAKU_DXA_SLOT_SET	2	/* allocated and set: copies may name it */

/* ---- CLOCKS, CLOCKS_SET: a mesh's clocks under the driver's governor (ABI 0.7) ---- */

/*
 * The board's profiles (kohakutpu.md 8.5; noc / mat2x / vec / mag MHz):
 * low 100/200/100/100, mid 200/400/200/200, ship 300/600/300/300 (the
 * built clocks).  OTHER: the wizard holds something else (set by another
 * agent on the card's bus).
 */
#define KOHAKU_CLK_PROFILE_LOW		0
#define KOHAKU_CLK_PROFILE_MID		1
#define KOHAKU_CLK_PROFILE_SHIP		2
#define KOHAKU_CLK_PROFILE_OTHER	0xff
#define KOHAKU_CLK_PROFILE_DEFAULT	0xfe	/* CLOCKS: the mesh's run profile */
/* their names, as sysfs, module parameters and the CLI spell them, by index */
#define KOHAKU_CLK_PROFILE_NAMES	{ "low", "mid", "ship" }
/* AUTO: the idle profile after idle_ms without a job, the run profile for jobs */
#define KOHAKU_CLK_POLICY_AUTO		0
#define KOHAKU_CLK_POLICY_FIXED		1	/* fixed_profile always */
#define KOHAKU_CLK_POLICY_NONE		2	/* no wizard the driver can reach: untouched */
#define KOHAKU_CLK_POLICY_NAMES		{ "auto", "fixed", "none" }
/* MESH_SET's limits */
#define KOHAKU_CLK_IDLE_MS_MAX		3600000u	/* idle_ms: 1..this */
#define KOHAKU_RECOVER_MAX		100u		/* recover_max: 0..this */

#define KOHAKU_CLOCKS_SET_FILE_RUN	(1u << 0)	/* CLOCKS: set file_run_profile */
#define KOHAKU_CLOCKS_FLAGS		KOHAKU_CLOCKS_SET_FILE_RUN

/**
 * struct drm_kohaku_clocks - one mesh's clocks (DRM_IOCTL_KOHAKU_CLOCKS)
 * @flags: in: KOHAKU_CLOCKS_*; others get EINVAL.
 * @mesh: in: the mesh; one that is not present gets EINVAL.
 * @file_run_profile: in with KOHAKU_CLOCKS_SET_FILE_RUN: the profile this
 *	open file's later jobs need (KOHAKU_CLK_PROFILE_LOW..SHIP, or
 *	_DEFAULT for the mesh's run profile); out: the file's setting.  A
 *	mesh runs a job at the highest of what it is at and what the job
 *	needs; it is lowered only by the governor's idle window.
 * @policy: out: KOHAKU_CLK_POLICY_*.
 * @profile: out: the profile now, KOHAKU_CLK_PROFILE_*.
 * @idle_profile: out: AUTO's profile after @idle_ms without a job.
 * @run_profile: out: AUTO's profile for a job that asks nothing else.
 * @fixed_profile: out: FIXED's profile.
 * @idle_ms: out: AUTO's idle window, in device time.
 * @mhz: out: CLKOUT0..3 (noc, mat2x, vec, mag) as read back from the
 *	mesh's clock wizard, in MHz; 0 when there is none to read.
 * @retunes: out: retunes the driver made on this mesh since bring-up.
 * @ns_at: out: device time spent at each profile (LOW, MID, SHIP) since
 *	bring-up, the current one up to now.
 * @resets: out: KOHAKU_PARAM_MESH_RESETS: resets seen, every cause but
 *	the driver's own retunes.
 * @recoveries: out: automatic recoveries (a mesh reset after a hang).
 * @recover_max: out: the recovery limit (struct drm_kohaku_mesh_set), 0: off.
 * @pad: zero.
 * @reserved: zero.
 */
struct drm_kohaku_clocks {
	__u32 flags;
	__u32 mesh;
	__u32 file_run_profile;
	__u32 policy;
	__u32 profile;
	__u32 idle_profile;
	__u32 run_profile;
	__u32 fixed_profile;
	__u32 idle_ms;
	__u32 mhz[4];
	__u32 retunes;
	__u64 ns_at[3];
	__u32 resets;
	__u32 recoveries;
	__u32 recover_max;
	__u32 pad;
	__u64 reserved[4];
};

#define KOHAKU_MESH_SET_POLICY	(1u << 0)
#define KOHAKU_MESH_SET_IDLE		(1u << 1)
#define KOHAKU_MESH_SET_RUN		(1u << 2)
#define KOHAKU_MESH_SET_FIXED		(1u << 3)
#define KOHAKU_MESH_SET_IDLE_MS	(1u << 4)
#define KOHAKU_MESH_SET_RECOVER	(1u << 5)
#define KOHAKU_MESH_SET_MASK		0x3fu

/**
 * struct drm_kohaku_mesh_set - govern a mesh's clocks and its recovery
 *	(DRM_IOCTL_KOHAKU_MESH_SET, administrator only)
 * @set: in: KOHAKU_MESH_SET_* bits: the fields below to take; 0 or
 *	unknown bits get EINVAL.
 * @mesh: in: the mesh.
 * @policy: in: KOHAKU_CLK_POLICY_AUTO or _FIXED.
 * @idle_profile: in: KOHAKU_CLK_PROFILE_LOW..SHIP.
 * @run_profile: in: the same.
 * @fixed_profile: in: the same.
 * @idle_ms: in: 1..3600000.
 * @recover_max: in: automatic recovery: at most this many mesh resets in a
 *	row after hangs with no job completing between them (then the mesh
 *	is left wedged for a person); 0 turns it off (a hung node stays
 *	marked until a reset).  At most 100.
 * @reserved: zero.
 *
 * The mesh is retuned to what the new settings want as soon as it has no
 * job on it (a retune resets the mesh, kohakutpu.md 12.4); the call does
 * not wait for that.  EOPNOTSUPP on a mesh whose wizard the driver cannot
 * reach (KOHAKU_CLK_POLICY_NONE).
 */
struct drm_kohaku_mesh_set {
	__u32 set;
	__u32 mesh;
	__u32 policy;
	__u32 idle_profile;
	__u32 run_profile;
	__u32 fixed_profile;
	__u32 idle_ms;
	__u32 recover_max;
	__u64 reserved[2];
};

/* ---- RESET: a mesh reset the caller asks for (ABI 0.7, administrator only) ---- */

/**
 * struct drm_kohaku_reset - reset one mesh (DRM_IOCTL_KOHAKU_RESET)
 * @flags: in: 0.
 * @mesh: in: the mesh.
 * @aborted: out: jobs the reset ended (the one on the mesh, ABORTED
 *	KOHAKU_JOB_WHY_RESET_ASKED); queued jobs are kept and run after.
 * @fw_units: out: POOL units running firmware again after it.
 * @hung_cleared: out: hung marks the reset cleared.
 * @pad: zero.
 * @device_ns: out: device time from the SW_RST write until the mesh took
 *	jobs again (relock, re-enumeration, clocks, firmware).
 * @reserved: zero.
 *
 * The mesh's clock wizard takes an SW_RST (the MMCM and every unit of the
 * mesh reset; device memory and NODE_STATUS are kept), its nodes are
 * enumerated again, hung marks and a wedge are cleared, the governor's
 * profile is applied again and the POOL units boot the firmware the
 * driver keeps.  Returns when the mesh takes jobs again; EIO (and the mesh
 * wedged) when it does not come back.
 */
struct drm_kohaku_reset {
	__u32 flags;
	__u32 mesh;
	__u32 aborted;
	__u32 fw_units;
	__u32 hung_cleared;
	__u32 pad;
	__u64 device_ns;
	__u64 reserved[2];
};

/* ---- MESH_LEASE: a mesh held by one open file (ABI 0.8) ---- */

#define KOHAKU_LEASE_TAKE	(1u << 0)	/* hold the mesh */
#define KOHAKU_LEASE_GIVE	(1u << 1)	/* let it go */

/**
 * struct drm_kohaku_mesh_lease - hold a mesh alone (DRM_IOCTL_KOHAKU_MESH_LEASE)
 * @mesh: in: the mesh.
 * @flags: in: KOHAKU_LEASE_TAKE or KOHAKU_LEASE_GIVE, exactly one.
 * @reserved: zero.
 *
 * TAKE succeeds only when no other open file has a BO on the mesh, no job
 * of another file (open or closed) is queued or running on it and no
 * other file holds it (EBUSY otherwise, the driver's debug log naming what
 * is in the way); taking it again is a no-op.  While it is held, another
 * file's BO_CREATE on the mesh and its SUBMIT of a job there get EBUSY,
 * and the holder's programs for units the driver cannot check (a cpu
 * unit, an unknown cu_type) pass SUBMIT as an administrator's do.  GIVE,
 * or closing the file, ends it (GIVE of a mesh the file does not hold is
 * EINVAL); other files stay out until every job that ran under it is
 * final.  Not an administrator's command: any opener may hold a mesh.
 */
struct drm_kohaku_mesh_lease {
	__u32 mesh;
	__u32 flags;
	__u64 reserved[2];
};

#define DRM_KOHAKU_GET_INFO	0x00
#define DRM_KOHAKU_NODES	0x01
#define DRM_KOHAKU_BO_CREATE	0x02
#define DRM_KOHAKU_BO_FREE	0x03
#define DRM_KOHAKU_BO_INFO	0x04
#define DRM_KOHAKU_BO_WRITE	0x05
#define DRM_KOHAKU_BO_READ	0x06
#define DRM_KOHAKU_SUBMIT	0x07
#define DRM_KOHAKU_WAIT		0x08
#define DRM_KOHAKU_GET_PARAM	0x09
#define DRM_KOHAKU_FW_LOAD	0x0a
#define DRM_KOHAKU_DXA_ALLOC	0x0b
#define DRM_KOHAKU_DXA_FREE	0x0c
#define DRM_KOHAKU_DXA_SET	0x0d
#define DRM_KOHAKU_DXA_GET	0x0e
#define DRM_KOHAKU_CLOCKS	0x0f
#define DRM_KOHAKU_MESH_SET	0x10
#define DRM_KOHAKU_RESET	0x11
#define DRM_KOHAKU_MESH_LEASE	0x12
#define DRM_KOHAKU_NUM_IOCTLS	0x13

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
#define DRM_IOCTL_KOHAKU_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_GET_PARAM, struct drm_kohaku_get_param)
#define DRM_IOCTL_KOHAKU_FW_LOAD \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_FW_LOAD, struct drm_kohaku_fw_load)
#define DRM_IOCTL_KOHAKU_DXA_ALLOC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_DXA_ALLOC, struct drm_kohaku_dxa_slot)
#define DRM_IOCTL_KOHAKU_DXA_FREE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_DXA_FREE, struct drm_kohaku_dxa_slot)
#define DRM_IOCTL_KOHAKU_DXA_SET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_DXA_SET, struct drm_kohaku_dxa_slot)
#define DRM_IOCTL_KOHAKU_DXA_GET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_DXA_GET, struct drm_kohaku_dxa_slot)
#define DRM_IOCTL_KOHAKU_CLOCKS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_CLOCKS, struct drm_kohaku_clocks)
#define DRM_IOCTL_KOHAKU_MESH_SET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_MESH_SET, struct drm_kohaku_mesh_set)
#define DRM_IOCTL_KOHAKU_RESET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_RESET, struct drm_kohaku_reset)
#define DRM_IOCTL_KOHAKU_MESH_LEASE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_KOHAKU_MESH_LEASE, struct drm_kohaku_mesh_lease)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_DRM_KOHAKU_ACCEL_H */
