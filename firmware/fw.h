/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The POOL firmware (firmware/README.md): what its files share.  Every
 * number about the cluster comes from uapi/kohaku/kh_pool.h.
 *
 * Each core has its own DataRAM at the same address, so a global is
 * per-core state; cores share nothing but mesh DRAM and the barrier.
 */
#ifndef FW_H
#define FW_H

#include <linux/types.h>
#include <kohaku/kh_pool.h>
#include <kohaku/kh_fw.h>
#include <kohaku/kh_pool_vec.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define NULL		((void *)0)
#define FW_ALIGNED(n)	__attribute__((aligned(n)))
/* not cleared at boot (pool.ld.S .noinit): written before it is read */
#define FW_NOINIT	__attribute__((section(".noinit")))
#define FW_NORETURN	__attribute__((noreturn))
#define FW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FW_WORD		KH_POOL_WORD_BYTES	/* 32: the memory path's word */

/* the firmware's version, from firmware/VERSION through the Makefile */
#define FW_VERSION	KH_FW_VERSION(FW_VERSION_MAJOR, FW_VERSION_MINOR, \
				      FW_VERSION_PATCH)

/* ---- CSRs (numbers from kh_pool.h; csr must be a constant) ---- */
#define csr_read(csr) ({						\
	u32 __v;							\
	asm volatile("csrr %0, %1" : "=r"(__v) : "i"(csr) : "memory");	\
	__v;								\
})
#define csr_write(csr, val)						\
	asm volatile("csrw %0, %1" : : "i"(csr), "r"((u32)(val)) : "memory")

static inline void fw_wfi(void)
{
	asm volatile("wfi" : : : "memory");
}

/* arrive at the cluster barrier and wait for every running core */
static inline void fw_barrier(void)
{
	csr_write(KH_POOL_CSR_BARRIER, 0);
}

/* ---- per-core state (main.c) ---- */
extern u32 fw_core;		/* this core's id, 0..7 */

/*
 * The last job's profile on this core, for bench/kh_bench_kernels.c: the
 * first words of .bss (pool.ld.S puts them at DataRAM + 64 and asserts
 * it), read from the model's DataRAM.  job: cycles in the kernel; loop:
 * cycles in its vector inner loops; units: what those loops did (quads,
 * rows, chunks: per kernel, docs/spec/pool.md "Figures").
 */
struct fw_prof {
	u32 job, loop, units, calls;
};
extern struct fw_prof fw_prof;
#define FW_PROF_BEGIN()	csr_read(KH_POOL_CSR_CYCLE)
#define FW_PROF_END(t0, n) do {						\
	fw_prof.loop += csr_read(KH_POOL_CSR_CYCLE) - (t0);		\
	fw_prof.units += (n);						\
	fw_prof.calls++;						\
} while (0)

/* ---- a job (main.c) ---- */
struct fw_job {
	u32 w[8];		/* the CU_INST payload, w[7] opcode and kernel */
	u32 seq;		/* its sequence number */
};

static inline u64 fw_arg64(const struct fw_job *j, unsigned int lo)
{
	return (u64)j->w[lo + 1] << 32 | j->w[lo];
}

/*
 * A kernel: checks its arguments (the same on every core, before any side
 * effect), does its share, and returns 0 with the value core 0 retires
 * the job with in *result, or a KH_POOL_FW_* code core 0 faults it with.
 * A kernel does its own closing barrier when it has side effects: the
 * dispatch loop adds none.
 */
typedef u32 (*fw_kernel_fn)(const struct fw_job *j, u32 *result);
/* a kernel's code: core 0 retires nothing (TRAP: the unit retires it) */
#define FW_NO_RETIRE	(~0u)
fw_kernel_fn fw_kernel(u32 id);

/* ---- the boot spine (main.c): start.S's per-core reset table ---- */
void FW_NORETURN fw_boot_core0(u32 core);
void FW_NORETURN fw_boot_core(u32 core);

/* ---- the DataRAM buffers (main.c, placed by pool.ld.S) ---- */
extern u8 __slots_start[], __slots_end[];
#define FW_SLOT		4096		/* one chunk */
#define FW_MIN_SLOTS	12		/* pool.ld asserts they fit */
#define FW_MAX_SLOTS	14		/* an even number: VADD takes pairs */
#define FW_STACK_SIZE	2048		/* at the top of each DataRAM */
#define FW_HIST_BINS	256		/* HIST256's bins, before the slots */
extern u32 fw_hist[FW_HIST_BINS];	/* placed by pool.ld.S */
extern u32 fw_nslots;
u8 *fw_slot(u32 i);

/* ---- iDMA (main.c) ---- */
void fw_idma(u64 dram, const void *dataram, u32 len, u32 flags, u32 pattern);
u16 fw_idma_mark(void);			/* descriptors pushed so far */
void fw_idma_wait(u16 mark);		/* until those up to mark are done */
void fw_idma_wait_all(void);
u32 fw_probe(const u64 *words, u32 n);	/* 0 or KH_POOL_FW_IDMA */
void FW_NORETURN fw_fatal(void);

/* ---- splitting work (main.c) ---- */
struct fw_share {
	u64 off;	/* byte offset of this core's share */
	u64 len;	/* its bytes (0: none) */
};
void fw_split(u64 bytes, u32 ncores, struct fw_share *s);
void fw_stream(u64 src, u64 len, void (*fn)(const u8 *p, u32 len, void *ctx),
	       void *ctx);
void fw_chain(u64 word, u32 *mine, u32 used,
	      void (*combine)(u32 *acc, const u32 *in));
void fw_pair_stream(u64 a, u64 b, u64 c, const struct fw_share *s, u32 out_b,
		    void (*fn)(u8 *as, u8 *bs, u32 len));

/* ---- argument rules (kernels.c), shared with the vector kernels ---- */
int fw_range_ok(u64 a, u64 len);
int fw_overlap(u64 a, u64 alen, u64 b, u64 blen);

/* ---- the kernels on the vector unit (vkernels.c, API 1.1) ---- */
u32 k_gemv(const struct fw_job *j, u32 *result);
u32 k_axpy(const struct fw_job *j, u32 *result);
u32 k_softmax(const struct fw_job *j, u32 *result);
u32 k_copyu(const struct fw_job *j, u32 *result);
void fw_hist_chunk(const u8 *p, u32 len, void *ctx);

/* ---- CRC-32 (crc32.c) ---- */
u32 fw_crc32_raw(u32 crc, const u8 *p, u32 len);
u32 fw_crc32_shift(u32 crc, u64 bytes);

/* ---- freestanding C (lib.c) ---- */
void *memset(void *s, int c, __SIZE_TYPE__ n);
void *memcpy(void *d, const void *s, __SIZE_TYPE__ n);

#endif /* FW_H */
