/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The POOL unit: eight RV32IM+Zicsr cores that run firmware
 * (docs/spec/pool.md), and the API of the project's firmware for it.
 * Every number the model, the firmware, the driver and the runtime share
 * about the cluster is here, once.
 */
#ifndef _UAPI_KOHAKU_KH_POOL_H
#define _UAPI_KOHAKU_KH_POOL_H

#include <linux/types.h>
#include <kohaku/kh_flit.h>

/* ---- identity ---- */
#define KH_CU_GP		0x4750	/* 'GP', as KH_CU_TYPE('G', 'P') */
/* its CU_VERSION: the build number of the ship image it extends (0x04) */
#define KH_POOL_CU_VERSION	0x04
#define KH_POOL_CORES		8
#define KH_POOL_NBUF		9	/* IRAM and eight DataRAMs */

/* ---- the core's memory map (identity mapped, per core) ---- */
#define KH_POOL_IRAM_BASE	0x00000000u
#define KH_POOL_IRAM_SIZE	0x00010000u	/* 64 KiB, shared by the eight */
#define KH_POOL_DRAM_BASE	0x00080000u	/* the core's own DataRAM */
#define KH_POOL_DRAM_SIZE	0x00010000u	/* 64 KiB, four banks */
#define KH_POOL_DRAM_BANKS	4
#define KH_POOL_WIN_BASE	0x00100000u	/* the window onto mesh DRAM */
#define KH_POOL_WIN_SIZE	0x40000000u	/* 1 GiB */
#define KH_POOL_WIN_ALIGN	0x00100000u	/* win_base is 1 MiB aligned */
#define KH_POOL_WORD_BYTES	32		/* the memory path's word */

/* ---- CSRs ---- */
#define KH_POOL_CSR_MHARTID	0xf14
#define KH_POOL_CSR_PRID	0xfc0	/* [31:16] 'GP', [3:0] core id */
#define KH_POOL_CSR_CYCLE	0xc00
#define KH_POOL_CSR_INSTRET	0xc02
#define KH_POOL_CSR_CYCLEH	0xc80
#define KH_POOL_CSR_INSTRETH	0xc82
#define KH_POOL_CSR_JOB_STATUS	0x7c0	/* [0] present, [31:16] sequence */
#define KH_POOL_CSR_JOB_W0	0x7c1	/* ..0x7c8: payload word k */
#define KH_POOL_CSR_JOB_RETIRE	0x7c9	/* WO: exec_result */
#define KH_POOL_CSR_JOB_FAULT	0x7ca	/* WO: a fault code */
#define KH_POOL_CSR_BARRIER	0x7cb	/* W: arrive and wait; R: count */
#define KH_POOL_CSR_WIN_BASE	0x7cc
#define KH_POOL_CSR_IDMA_PUSH	0x7cd	/* WO: a descriptor's DataRAM address */
#define KH_POOL_CSR_IDMA_STATUS	0x7ce
#define KH_POOL_CSR_IDMA_CTRL	0x7cf	/* WO: [0] clear the error, drop the queue */
#define KH_POOL_CSR_NCORES	0x7d0

#define KH_POOL_PRID(core)	((0x4750u << 16) | ((core) & 0xfu))
#define KH_POOL_JOB_PRESENT	0x1u
#define KH_POOL_JOB_SEQ(s)	(((s) >> 16) & 0xffffu)

/* ---- iDMA ---- */
#define KH_POOL_IDMA_QUEUE	32
#define KH_POOL_IDMA_MAX_LEN	0x10000u
#define KH_POOL_IDMA_TO_DRAM	0x1u	/* flags[0]: DataRAM -> mesh DRAM */
#define KH_POOL_IDMA_FILL	0x2u	/* flags[1]: write the pattern */
#define KH_POOL_IDMA_DONE(s)	((s) & 0xffffu)
#define KH_POOL_IDMA_PENDING(s)	(((s) >> 16) & 0x3fu)
#define KH_POOL_IDMA_ERROR	(1u << 24)
#define KH_POOL_IDMA_CAUSE(s)	(((s) >> 28) & 0xfu)
#define KH_POOL_IDMA_CLEAR	0x1u
/* iDMA error causes */
#define KH_POOL_IDMA_ERR_ALIGN	1	/* dram, dataram or len misaligned */
#define KH_POOL_IDMA_ERR_RANGE	2	/* past DataRAM, or past the mesh's DRAM */
#define KH_POOL_IDMA_ERR_DESC	3	/* a reserved field or flag set, len 0 */
#define KH_POOL_IDMA_ERR_PUSH	4	/* the descriptor's own address is bad */
#define KH_POOL_IDMA_ERR_BOUNDS	5	/* outside the job's regions (v2) */

/**
 * struct kh_pool_idma_desc - one iDMA descriptor, in the core's DataRAM
 * @dram: the mesh address (mesh << 36 | local), 32-byte aligned.
 * @dataram: the core address in its DataRAM, 4-byte aligned.
 * @len: bytes, a multiple of 32, 32..64 KiB.
 * @flags: KH_POOL_IDMA_TO_DRAM, KH_POOL_IDMA_FILL (with TO_DRAM only).
 * @pattern: the fill word.
 * @reserved: zero.
 */
struct kh_pool_idma_desc {
	__u64 dram;
	__u32 dataram;
	__u32 len;
	__u32 flags;
	__u32 pattern;
	__u32 reserved[10];
};

/* ---- CU_CTRL addon window (op 0 read, op 1 write) ---- */
#define KH_CTRL_IDX_POOL_CAPS		0xe8	/* RO */
#define KH_CTRL_IDX_POOL_RUNSTALL	0xe9	/* RW [7:0] stall, [15:8] reset */
#define KH_CTRL_IDX_POOL_STATE		0xea	/* RO */
#define KH_CTRL_IDX_POOL_TRAP		0xeb	/* RO, the first trap */
#define KH_CTRL_IDX_POOL_RESET_PC	0xec	/* RW */
#define KH_CTRL_IDX_POOL_BOOT		0xed	/* RO core 0 DataRAM word 0 */
#define KH_CTRL_IDX_POOL_FW_VERSION	0xee	/* RO core 0 DataRAM word 1 */
#define KH_CTRL_IDX_POOL_API_VERSION	0xef	/* RO core 0 DataRAM word 2 */
#define KH_CTRL_IDX_IS_POOL(i)		((((i) & 0xff) >> 3) == (0xe8 >> 3))

#define KH_POOL_SLOT_ID			0x0003
#define KH_POOL_VERSION			2	/* 2: bounds (below) */
#define KH_POOL_CAPS_SLOT(c)		((unsigned int)(((c) >> 48) & 0xffff))
#define KH_POOL_CAPS_VERSION(c)		((unsigned int)(((c) >> 40) & 0xff))
#define KH_POOL_CAPS_CORES(c)		((unsigned int)(((c) >> 32) & 0xff))
#define KH_POOL_CAPS_IRAM_KIB(c)	((unsigned int)(((c) >> 16) & 0xffff))
#define KH_POOL_CAPS_DRAM_KIB(c)	((unsigned int)((c) & 0xffff))

#define KH_POOL_STALL_ALL		0xffull	/* RUNSTALL [7:0], the reset value */
#define KH_POOL_RESET_SHIFT		8	/* RUNSTALL [15:8] */
#define KH_POOL_RESET_ALL		(0xffull << KH_POOL_RESET_SHIFT)

#define KH_POOL_STATE_HALTED(s)		((unsigned int)((s) & 0xff))
#define KH_POOL_STATE_BARRIER(s)	((unsigned int)(((s) >> 8) & 0xff))
#define KH_POOL_STATE_STALLED(s)	((unsigned int)(((s) >> 16) & 0xff))
#define KH_POOL_STATE_RESET(s)		((unsigned int)(((s) >> 24) & 0xff))
#define KH_POOL_STATE_SEQ(s)		((unsigned int)(((s) >> 32) & 0xffff))
#define KH_POOL_STATE_JOB		(1ull << 48)

#define KH_POOL_TRAP_VALID		(1ull << 63)
#define KH_POOL_TRAP_CORE(t)		((unsigned int)(((t) >> 56) & 0x7))
#define KH_POOL_TRAP_CAUSE(t)		((unsigned int)(((t) >> 48) & 0xff))
#define KH_POOL_TRAP_PC(t)		((__u32)((t) & 0xffffffffull))

/* trap causes (the RISC-V mcause numbers) */
#define KH_POOL_CAUSE_FETCH_MISALIGNED	0
#define KH_POOL_CAUSE_FETCH_FAULT	1
#define KH_POOL_CAUSE_ILLEGAL		2
#define KH_POOL_CAUSE_EBREAK		3
#define KH_POOL_CAUSE_LOAD_MISALIGNED	4
#define KH_POOL_CAUSE_LOAD_FAULT	5
#define KH_POOL_CAUSE_STORE_MISALIGNED	6
#define KH_POOL_CAUSE_STORE_FAULT	7
#define KH_POOL_CAUSE_ECALL		11

/* ---- the boot mailbox: core 0's DataRAM words 0..2 ---- */
#define KH_POOL_BOOT_READY	0x6099cb34u
#define KH_POOL_BOOT_CLAIM	0x502b2da1u
#define KH_POOL_MBOX_BOOT	0	/* word index in core 0's DataRAM */
#define KH_POOL_MBOX_FW_VERSION	1
#define KH_POOL_MBOX_API	2	/* major << 16 | minor */

/* ---- CU_DATA buffers ---- */
#define KH_POOL_BUF_IRAM		4	/* offset: 32-byte granules */
#define KH_POOL_BUF_DATARAM(c)		(8 + (c))	/* granules */
#define KH_POOL_BUF_WORD(c)		(16 + (c))	/* offset: 32-bit words */
#define KH_POOL_LOAD_ALL_DRAM		0x0f	/* LOAD only: every DataRAM */

/* ---- CU_INST payload: w7 is payload [255:224], w0 [31:0] ---- */
#define KH_POOL_OPCODE		KH_FIELD(255, 252)
#define KH_POOL_SEL		KH_FIELD(251, 244)	/* LOAD target / kernel */
#define KH_POOL_OP_JOB		0x1
#define KH_POOL_OP_LOAD		0x2
#define KH_POOL_W7_OPCODE(w)	(((w) >> 28) & 0xfu)
#define KH_POOL_W7_SEL(w)	(((w) >> 20) & 0xffu)
#define KH_POOL_W7(op, sel)	((((__u32)(op) & 0xf) << 28) | \
				 (((__u32)(sel) & 0xff) << 20))
/*
 * Payload word j (w0..w7) of an instruction held as four 64-bit words, the
 * layout of struct kohaku_inst: word j is bits [32j+31:32j].
 */
static inline void kh_pool_set_w(__u64 *w4, unsigned int j, __u32 v)
{
	unsigned int sh = (j & 1) * 32;

	w4[j / 2] = (w4[j / 2] & ~(0xffffffffull << sh)) | ((__u64)v << sh);
}

static inline __u32 kh_pool_get_w(const __u64 *w4, unsigned int j)
{
	return (__u32)(w4[j / 2] >> ((j & 1) * 32));
}

/* LOAD: w6 target byte offset, w5 bytes, w1:w0 source mesh address */
#define KH_POOL_LOAD_W_OFFSET	6
#define KH_POOL_LOAD_W_LEN	5

/* ---- faults (SIG_FAULT arg) ---- */
#define KH_POOL_FAULT_CLASS(f)	(((f) >> 24) & 0xffu)
#define KH_POOL_CLASS_FW	0x01	/* [15:0] KH_POOL_FW_* */
#define KH_POOL_CLASS_TRAP	0x02	/* [19:16] core, [7:0] cause */
#define KH_POOL_CLASS_UNIT	0x03	/* [7:0] KH_POOL_UNIT_* */
#define KH_POOL_FAULT(cls, code) ((((__u32)(cls)) << 24) | ((code) & 0xffffffu))
#define KH_POOL_FAULT_TRAP(core, cause) \
	KH_POOL_FAULT(KH_POOL_CLASS_TRAP, (((core) & 0xf) << 16) | ((cause) & 0xff))
#define KH_POOL_FAULT_CORE(f)	(((f) >> 16) & 0xfu)
#define KH_POOL_FAULT_CODE(f)	((f) & 0xffffu)

#define KH_POOL_UNIT_LOAD	1	/* a LOAD or a CU_DATA burst broke a rule */
#define KH_POOL_UNIT_HALTED	2	/* a core trapped: reload the firmware */
#define KH_POOL_UNIT_NOFW	3	/* every core stalled or in reset */
#define KH_POOL_UNIT_BOUNDS	4	/* DRAM outside the job's regions (v2) */

/*
 * ---- bounds: the unit's version 2 (docs/spec/pool.md "Bounds") ----
 * The host's CU_CTRL unit addon block 0xf0-0xf7: six regions of the
 * unit's own mesh DRAM, in 4 KiB granules, that the driver programs for
 * each job.  A core's window load or store and an iDMA transfer reach
 * DRAM only inside an enabled region that allows the access; anything
 * else never leaves the unit (a load reads 0, a store is dropped, an
 * iDMA descriptor stops with KH_POOL_IDMA_ERR_BOUNDS) and the job present
 * retires with KH_POOL_UNIT_BOUNDS whatever the firmware says.  Reset
 * value: no region enabled, so a firmware reaches no DRAM at all.
 */
#define KH_POOL_VERSION_BOUNDS		2	/* POOL_CAPS version with bounds */
#define KH_POOL_REGIONS			6
#define KH_POOL_REGION_SHIFT		12	/* 4 KiB granules */
#define KH_CTRL_IDX_POOL_REGION(n)	(0xf0 + (n))	/* RW, n < 6 */
#define KH_CTRL_IDX_POOL_BOUNDS_EN	0xf6	/* RW */
#define KH_CTRL_IDX_POOL_BOUNDS_FAULT	0xf7	/* RO; a read clears it */
/* REGION(n): [23:0] first granule, [47:24] granules, [48] read, [49] write */
#define KH_POOL_REGION_R		(1ull << 48)
#define KH_POOL_REGION_W		(1ull << 49)
#define KH_POOL_REGION_FIRST(v)		((__u64)(v) & 0xffffffull)
#define KH_POOL_REGION_COUNT(v)		(((__u64)(v) >> 24) & 0xffffffull)
#define KH_POOL_REGION(first, count, rw) \
	(((__u64)(first) & 0xffffffull) | (((__u64)(count) & 0xffffffull) << 24) | (rw))
/* BOUNDS_EN: [5:0] the regions enabled, [31] no bounds at all */
#define KH_POOL_BOUNDS_ALL		(1u << 31)
/*
 * BOUNDS_FAULT: the first access refused since the last read: [63] valid,
 * [62] a write, [61] by an iDMA descriptor (else a window load or store),
 * [60] with no job present, [59:56] the core, [55:40] accesses refused
 * (saturating), [39:0] the first one's address (mesh-local for a window
 * access, the descriptor's [39:0] for the iDMA).
 */
#define KH_POOL_BF_VALID		(1ull << 63)
#define KH_POOL_BF_WRITE		(1ull << 62)
#define KH_POOL_BF_IDMA			(1ull << 61)
#define KH_POOL_BF_IDLE			(1ull << 60)
#define KH_POOL_BF_CORE(f)		((unsigned int)(((f) >> 56) & 0xf))
#define KH_POOL_BF_COUNT(f)		((unsigned int)(((f) >> 40) & 0xffff))
#define KH_POOL_BF_ADDR(f)		((__u64)(f) & 0xffffffffffull)

/*
 * ---- the firmware's API, version 1.1 (firmware/) ----
 * 1.1 added the kernels on the vector unit (0x08..0x0b,
 * docs/spec/pool-vector.md) and HIST256 counts with it; 1.0's kernels
 * and arguments are unchanged.
 */
#define KH_POOL_API_MAJOR	1
#define KH_POOL_API_MINOR	1
#define KH_POOL_API(maj, min)	((((__u32)(maj)) << 16) | ((min) & 0xffff))

#define KH_POOL_K_PING		0x00	/* w6 value: result w6 ^ 0x47500000 */
#define KH_POOL_K_COPY		0x01	/* w1:w0 src, w3:w2 dst, w6 bytes */
#define KH_POOL_K_FILL		0x02	/* w1:w0 dst, w2 pattern, w6 bytes */
#define KH_POOL_K_CRC32		0x03	/* w1:w0 src, w3:w2 result, w6 bytes */
#define KH_POOL_K_VADD_I32	0x04	/* w1:w0 a, w3:w2 b, w5:w4 c, w6 n */
#define KH_POOL_K_SUM_I64	0x05	/* w1:w0 src, w3:w2 result, w6 n */
#define KH_POOL_K_HIST256	0x06	/* w1:w0 src, w3:w2 result, w6 bytes */
#define KH_POOL_K_DELAY		0x07	/* w6 cycles: busy for that long */
/* API 1.1: the kernels on the vector unit (docs/spec/pool.md) */
#define KH_POOL_K_GEMV_I8	0x08	/* w1:w0 A, w3:w2 x, w5:w4 y, w6 M | K << 16 */
#define KH_POOL_K_AXPY_F32	0x09	/* w1:w0 x, w3:w2 y, w4 a, w6 n */
#define KH_POOL_K_SOFTMAX_F32	0x0a	/* w1:w0 src, w3:w2 dst, w4 L, w6 rows */
#define KH_POOL_K_COPY_U	0x0b	/* w1:w0 src, w3:w2 dst, w6 bytes, any */
#define KH_POOL_GEMV_M(w6)	((w6) & 0xffffu)	/* rows, 64 x n */
#define KH_POOL_GEMV_K(w6)	((w6) >> 16)		/* columns, 4 x n */
#define KH_POOL_GEMV_W6(m, k)	(((__u32)(k) << 16) | ((m) & 0xffffu))
#define KH_POOL_GEMV_KMAX	4096	/* x is staged whole in DataRAM */
#define KH_POOL_SOFTMAX_LMAX	1024	/* a row is staged whole in DataRAM */
#define KH_POOL_K_TRAP		0x7f	/* w6 core, w5 KH_POOL_TRAP_* */
#define KH_POOL_PING_XOR	0x47500000u

#define KH_POOL_TRAP_ILLEGAL	0	/* an illegal instruction */
#define KH_POOL_TRAP_MISALIGN	1	/* a misaligned load */
#define KH_POOL_TRAP_ACCESS	2	/* a load outside every memory */
#define KH_POOL_TRAP_EBREAK	3
#define KH_POOL_TRAP_ECALL	4

/* firmware fault codes (class KH_POOL_CLASS_FW) */
#define KH_POOL_FW_KERNEL	1	/* unknown kernel */
#define KH_POOL_FW_ARGS		2	/* an argument broke a rule */
#define KH_POOL_FW_IDMA		3	/* an iDMA descriptor failed */
#define KH_POOL_FW_OPCODE	4	/* an opcode the firmware does not take */

/* ---- timing (mesh cycles per instruction class) ---- */
#define KH_POOL_LAT_ALU		1
#define KH_POOL_LAT_BRANCH	1	/* not taken */
#define KH_POOL_LAT_TAKEN	3	/* taken, JAL, JALR */
#define KH_POOL_LAT_MUL		2
#define KH_POOL_LAT_DIV		12
#define KH_POOL_LAT_LOAD	2	/* DataRAM, IRAM */
#define KH_POOL_LAT_STORE	1
#define KH_POOL_LAT_IDMA_BYTES	16	/* DataRAM bytes per cycle */

#endif /* _UAPI_KOHAKU_KH_POOL_H */
