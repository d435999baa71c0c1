// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware's boot spine and dispatch loop (firmware/README.md),
 * and what the kernels share: the iDMA queue, the chunk slots, splitting
 * work across the cores, streaming a source through DataRAM, and passing
 * partial results between cores through a word of mesh DRAM.
 */
#include "fw.h"

u32 fw_core;
u32 fw_nslots;
struct fw_prof fw_prof __attribute__((section(".bss.fw_prof")));

/* the boot mailbox: core 0's DataRAM words 0..2 (kh_pool.h) */
#define FW_MBOX		((volatile u32 *)KH_POOL_DRAM_BASE)

static struct kh_pool_idma_desc fw_desc FW_ALIGNED(64);
static u16 fw_issued;		/* descriptors pushed, as the done counter */
static u32 fw_scratch[16] FW_ALIGNED(64);	/* probes, chain words */

u8 *fw_slot(u32 i)
{
	return __slots_start + i * FW_SLOT;
}

/* ---- iDMA ---- */

/*
 * Queue one descriptor (len <= KH_POOL_IDMA_MAX_LEN).  The engine copies
 * it at once, so one descriptor in DataRAM serves every push, and runs
 * the queue in order: a descriptor reading a slot finishes before a later
 * one writes it.
 */
void fw_idma(u64 dram, const void *dataram, u32 len, u32 flags, u32 pattern)
{
	fw_desc.dram = dram;
	fw_desc.dataram = (u32)dataram;
	fw_desc.len = len;
	fw_desc.flags = flags;
	fw_desc.pattern = pattern;
	csr_write(KH_POOL_CSR_IDMA_PUSH, &fw_desc);
	fw_issued++;
}

u16 fw_idma_mark(void)
{
	return fw_issued;
}

/*
 * A descriptor failing after fw_probe() passed would leave this core
 * unable to tell the others, which wait for it at the next barrier: stop
 * the core instead (the job faults with class trap, cause EBREAK, at
 * this function's PC).  It does not happen: every range was probed.
 */
void FW_NORETURN fw_fatal(void)
{
	for (;;)
		asm volatile("ebreak");
}

static u32 fw_idma_wait_err(u16 mark)
{
	for (;;) {
		u32 st = csr_read(KH_POOL_CSR_IDMA_STATUS);

		if (st & KH_POOL_IDMA_ERROR)
			return 1;
		if ((s16)(u16)(KH_POOL_IDMA_DONE(st) - mark) >= 0)
			return 0;
		fw_wfi();
	}
}

void fw_idma_wait(u16 mark)
{
	if (fw_idma_wait_err(mark))
		fw_fatal();
}

void fw_idma_wait_all(void)
{
	fw_idma_wait(fw_issued);
}

/*
 * Read the 32-byte words at `words` (the last word of each range a job
 * touches).  Every core probes the same words, so all see the same
 * answer and agree on the job's fate without talking: a range past the
 * mesh's DRAM fails here, before any side effect, or not at all.
 */
u32 fw_probe(const u64 *words, u32 n)
{
	u32 i, st;

	for (i = 0; i < n; i++)
		fw_idma(words[i], fw_scratch, FW_WORD, 0, 0);
	if (!fw_idma_wait_err(fw_issued))
		return 0;
	csr_write(KH_POOL_CSR_IDMA_CTRL, KH_POOL_IDMA_CLEAR);
	st = csr_read(KH_POOL_CSR_IDMA_STATUS);
	fw_issued = KH_POOL_IDMA_DONE(st);	/* the rest was dropped */
	return KH_POOL_FW_IDMA;
}

/* ---- splitting and streaming ---- */

/*
 * This core's share of `bytes` split over cores 0..ncores-1 in whole
 * 32-byte words, as evenly as words allow; the last share ends at
 * `bytes` exactly.  A core at or past ncores gets nothing.
 */
void fw_split(u64 bytes, u32 ncores, struct fw_share *s)
{
	u32 words = (u32)((bytes + FW_WORD - 1) / FW_WORD);
	u32 base = words / ncores, rem = words % ncores, c = fw_core;
	u64 off, end;

	s->off = 0;
	s->len = 0;
	if (c >= ncores)
		return;
	off = ((u64)c * base + (c < rem ? c : rem)) * FW_WORD;
	end = off + ((u64)base + (c < rem)) * FW_WORD;
	if (end > bytes)
		end = bytes;
	if (off < end) {
		s->off = off;
		s->len = end - off;
	}
}

/*
 * Read [src, src + len) through the slots, FW_SLOT at a time, every slot
 * in flight at once, and hand each chunk to fn as it lands.  Reads whole
 * 32-byte words: the last chunk may read up to 31 bytes past len.  fn may
 * queue descriptors of its own (GEMV writes its results as it goes): each
 * chunk is waited for by the mark its own push left.
 */
void fw_stream(u64 src, u64 len, void (*fn)(const u8 *p, u32 len, void *ctx),
	       void *ctx)
{
	u32 nchunks = (u32)((len + FW_SLOT - 1) / FW_SLOT);
	u32 pushed = 0, i;
	u16 mark[FW_MAX_SLOTS];

	for (i = 0; i < nchunks; i++) {
		u32 n;

		while (pushed < nchunks && pushed < i + fw_nslots) {
			u64 off = (u64)pushed * FW_SLOT;
			u64 left = len - off;

			n = left < FW_SLOT ? (u32)left : FW_SLOT;
			fw_idma(src + off, fw_slot(pushed % fw_nslots),
				(n + FW_WORD - 1) & ~(FW_WORD - 1), 0, 0);
			mark[pushed % fw_nslots] = fw_idma_mark();
			pushed++;
		}
		fw_idma_wait(mark[i % fw_nslots]);
		n = len - (u64)i * FW_SLOT < FW_SLOT ?
		    (u32)(len - (u64)i * FW_SLOT) : FW_SLOT;
		fn(fw_slot(i % fw_nslots), n, ctx);
	}
}

/*
 * Gather a 32-byte value from each of cores 0..used-1 into core 0's
 * `mine`, through the one 32-byte word of mesh DRAM at `word` (a job's
 * result word): cores have no memory in common but DRAM, and a word
 * takes one writer at a time.  Core used-1 stores its value; each core
 * below it in turn loads the word, combines its own value in, and stores
 * it; core 0 loads and combines last.  One barrier per step, taken by
 * every core; nothing when used is 1.
 */
void fw_chain(u64 word, u32 *mine, u32 used,
	      void (*combine)(u32 *acc, const u32 *in))
{
	u32 k;

	for (k = used - 1; k >= 1; k--) {
		if (fw_core == k) {
			if (k != used - 1) {
				fw_idma(word, fw_scratch, FW_WORD, 0, 0);
				fw_idma_wait_all();
				combine(mine, fw_scratch);
			}
			fw_idma(word, mine, FW_WORD, KH_POOL_IDMA_TO_DRAM, 0);
			fw_idma_wait_all();
		}
		fw_barrier();
	}
	if (fw_core == 0 && used > 1) {
		fw_idma(word, fw_scratch, FW_WORD, 0, 0);
		fw_idma_wait_all();
		combine(mine, fw_scratch);
	}
}

/* ---- the dispatch loop ---- */

#ifdef FW_TEST_ROGUE
/*
 * The test image test/rogue.fw (never pool.fw): after a FILL, core 0
 * also writes where the job's w5:w4 points (a mesh address the real FILL
 * ignores, so the driver's check of FILL never looks at it): the pattern
 * word through the DRAM window at w5:w4 (4-aligned), and one 32-byte iDMA
 * fill at the word after w5:w4's.  A firmware bug reaching outside the
 * job's buffers: the unit's bounds (version 2, docs/spec/pool.md
 * "Bounds") refuse both and the job retires KH_POOL_UNIT_BOUNDS although
 * this code retires it with its result.  An iDMA error is cleared and
 * ignored, so the firmware takes the next job as pool.fw does.
 */
static void fw_rogue(const struct fw_job *j)
{
	u64 a = fw_arg64(j, 4), local = a & KH_MADDR_LOCAL_MASK;
	u32 st;

	if (!a)
		return;
	/* the window reaches the unit's own mesh, win_base 1 MiB aligned */
	csr_write(KH_POOL_CSR_WIN_BASE, (u32)local & ~(KH_POOL_WIN_ALIGN - 1));
	*(volatile u32 *)(KH_POOL_WIN_BASE +
			  ((u32)local & (KH_POOL_WIN_ALIGN - 4))) = j->w[2];
	asm volatile("fence" : : : "memory");
	fw_idma((a & ~(u64)(FW_WORD - 1)) + FW_WORD, fw_scratch, FW_WORD,
		KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL, j->w[2]);
	if (fw_idma_wait_err(fw_issued)) {
		csr_write(KH_POOL_CSR_IDMA_CTRL, KH_POOL_IDMA_CLEAR);
		st = csr_read(KH_POOL_CSR_IDMA_STATUS);
		fw_issued = KH_POOL_IDMA_DONE(st);
	}
}
#endif

static void fw_run(const struct fw_job *j)
{
	u32 op = KH_POOL_W7_OPCODE(j->w[7]);
	u32 code, result = 0;
	fw_kernel_fn fn;

	if (op != KH_POOL_OP_JOB) {
		code = KH_POOL_FW_OPCODE;
	} else {
		fn = fw_kernel(KH_POOL_W7_SEL(j->w[7]));
		memset(&fw_prof, 0, sizeof(fw_prof));
		fw_prof.job = csr_read(KH_POOL_CSR_CYCLE);
		code = fn ? fn(j, &result) : KH_POOL_FW_KERNEL;
		fw_prof.job = csr_read(KH_POOL_CSR_CYCLE) - fw_prof.job;
	}
	if (fw_core || code == FW_NO_RETIRE)
		return;
#ifdef FW_TEST_ROGUE
	if (op == KH_POOL_OP_JOB && KH_POOL_W7_SEL(j->w[7]) == KH_POOL_K_FILL &&
	    !code)
		fw_rogue(j);
#endif
	if (code)
		csr_write(KH_POOL_CSR_JOB_FAULT,
			  KH_POOL_FAULT(KH_POOL_CLASS_FW, code));
	else
		csr_write(KH_POOL_CSR_JOB_RETIRE, result);
}

static void fw_read_job(struct fw_job *j)
{
	j->w[0] = csr_read(KH_POOL_CSR_JOB_W0 + 0);
	j->w[1] = csr_read(KH_POOL_CSR_JOB_W0 + 1);
	j->w[2] = csr_read(KH_POOL_CSR_JOB_W0 + 2);
	j->w[3] = csr_read(KH_POOL_CSR_JOB_W0 + 3);
	j->w[4] = csr_read(KH_POOL_CSR_JOB_W0 + 4);
	j->w[5] = csr_read(KH_POOL_CSR_JOB_W0 + 5);
	j->w[6] = csr_read(KH_POOL_CSR_JOB_W0 + 6);
	j->w[7] = csr_read(KH_POOL_CSR_JOB_W0 + 7);
}

/*
 * Every core: sleep until a job is present that this core has not run,
 * read it, run its share.  Core 0 retires every job (fw_run); a job
 * stays present until then, so a core done early sleeps on its sequence
 * number.  A job without barriers (PING, DELAY, a refused one) may be
 * retired before a slow core reads it: that core reads the status again
 * after the payload and starts over when it changed, so it never runs one
 * job's payload under another's sequence number.
 */
static void FW_NORETURN fw_dispatch(void)
{
	struct fw_job j;
	u32 last = ~0u;		/* no sequence number is ~0 */

#ifdef FW_TEST_IDLE_WRITER
	/*
	 * The test image test/idle-writer.fw (never pool.fw): core 1 writes
	 * a word near the top of the DRAM window for ever, job or no job,
	 * now and then, as a firmware bug would; the other cores take jobs.
	 * The driver must not let it hold every job of the mesh.
	 */
	if (fw_core == 1) {
		volatile u32 *w = (volatile u32 *)(KH_POOL_WIN_BASE + 0x3ff00000u);
		u32 k;

		for (;;) {
			*w = *w + 1;
			for (k = 0; k < 50; k++)
				asm volatile("" ::: "memory");
		}
	}
#endif
	for (;;) {
		u32 st = csr_read(KH_POOL_CSR_JOB_STATUS);

		if (!(st & KH_POOL_JOB_PRESENT) ||
		    KH_POOL_JOB_SEQ(st) == last) {
			fw_wfi();
			continue;
		}
		fw_read_job(&j);
		if (csr_read(KH_POOL_CSR_JOB_STATUS) != st)
			continue;
		j.seq = KH_POOL_JOB_SEQ(st);
		last = j.seq;
		fw_run(&j);
	}
}

static void fw_boot_common(u32 core)
{
	u32 n = (u32)(__slots_end - __slots_start) / FW_SLOT;

	fw_core = core;
	fw_nslots = n < FW_MAX_SLOTS ? n & ~1u : FW_MAX_SLOTS;
	/*
	 * The vector unit (CP1) on for good: the kernels of API 1.1 use it,
	 * and enabling it once here is cheaper than per job.  Nothing else
	 * runs on these cores, so there is no vector state to save for
	 * anyone (pool-vector.md "Enabling").
	 */
	csr_write(KH_PV_CSR_CPENABLE, KH_PV_CPENABLE_CP1);
}

/*
 * Core 0: publish the versions, then READY; wait for the host's CLAIM
 * (a CU_DATA word write, which wakes no WFI: poll); release the others
 * from the boot barrier.
 */
void FW_NORETURN fw_boot_core0(u32 core)
{
	fw_boot_common(core);
	FW_MBOX[KH_POOL_MBOX_FW_VERSION] = FW_VERSION;
	FW_MBOX[KH_POOL_MBOX_API] = KH_POOL_API(KH_POOL_API_MAJOR,
						KH_POOL_API_MINOR);
	FW_MBOX[KH_POOL_MBOX_BOOT] = KH_POOL_BOOT_READY;
	while (FW_MBOX[KH_POOL_MBOX_BOOT] != KH_POOL_BOOT_CLAIM)
		;
	fw_barrier();
	fw_dispatch();
}

/* Cores 1..7: wait at the barrier until core 0 has seen CLAIM. */
void FW_NORETURN fw_boot_core(u32 core)
{
	fw_boot_common(core);
	fw_barrier();
	fw_dispatch();
}
