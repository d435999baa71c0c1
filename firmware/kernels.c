// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernels of firmware API 1.0 (docs/spec/pool.md "Jobs for the
 * firmware", kh_pool.h KH_POOL_K_*), SPMD over the eight cores, and the
 * dispatch by kernel id to them and to API 1.1's kernels on the vector
 * unit (vkernels.c; HIST256 counts there too).
 *
 * Each checks its arguments first, the same way on every core, so that
 * all agree to refuse a job before any side effect; then probes the last
 * word of every range it touches (fw_probe: all cores agree on a range
 * past the mesh's DRAM too); then does this core's share.  Bulk data
 * moves by iDMA through DataRAM; results are written by iDMA as whole
 * 32-byte words.
 */
#include "fw.h"

/* a reduction kernel gives a core at least this much, or uses fewer */
#define FW_SHARE_MIN	1024u

/* HIST256 under this many bytes: core 0 alone (8 rounds cost more) */
#define FW_HIST_MIN	2048u
#define FW_HIST_SLICE	(FW_HIST_BINS / KH_POOL_CORES)	/* bins per core */

static u32 fw_res[FW_WORD / 4] FW_ALIGNED(64);	/* a 32-byte result */

static u64 fw_round(u64 n)
{
	return (n + FW_WORD - 1) & ~(u64)(FW_WORD - 1);
}

/*
 * A range of mesh DRAM a kernel may name: 32-byte aligned, a plain mesh
 * address (no special aperture, mesh id in [37:36]), not crossing into
 * the next mesh's addresses.
 */
int fw_range_ok(u64 a, u64 len)
{
	const u64 plain = (KH_MADDR_MESH_MASK << KH_MADDR_MESH_SHIFT) |
			  KH_MADDR_LOCAL_MASK;

	if (a & (FW_WORD - 1) || a & ~plain)
		return 0;
	return (a & KH_MADDR_LOCAL_MASK) + len <= KH_MADDR_LOCAL_MASK + 1;
}

int fw_overlap(u64 a, u64 alen, u64 b, u64 blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

/* the cores a reduction over `bytes` uses: 1..8 */
static u32 fw_used(u64 bytes)
{
	u64 n = bytes / FW_SHARE_MIN;

	if (n >= KH_POOL_CORES)
		return KH_POOL_CORES;
	return n ? (u32)n : 1;
}

/* write fw_res to the result word; core 0's last step */
static void fw_put_res(u64 res)
{
	fw_idma(res, fw_res, FW_WORD, KH_POOL_IDMA_TO_DRAM, 0);
	fw_idma_wait_all();
}

/* ---- PING ---- */

static u32 k_ping(const struct fw_job *j, u32 *result)
{
	*result = j->w[6] ^ KH_POOL_PING_XOR;
	return 0;
}

/* ---- COPY: w1:w0 src, w3:w2 dst, w6 bytes ---- */

static u32 k_copy(const struct fw_job *j, u32 *result)
{
	u64 src = fw_arg64(j, 0), dst = fw_arg64(j, 2), n = j->w[6];
	u64 probe[2], off;
	struct fw_share s;
	u32 i, code;

	if (n % FW_WORD || !fw_range_ok(src, n) || !fw_range_ok(dst, n) ||
	    (src != dst && fw_overlap(src, n, dst, n)))
		return KH_POOL_FW_ARGS;
	if (!n)
		return 0;
	probe[0] = src + n - FW_WORD;
	probe[1] = dst + n - FW_WORD;
	code = fw_probe(probe, 2);
	if (code)
		return code;
	fw_split(n, KH_POOL_CORES, &s);
	/* in and out per slot; the queue runs in order, so no waits */
	for (off = 0, i = 0; off < s.len; off += FW_SLOT, i++) {
		u32 len = s.len - off < FW_SLOT ? (u32)(s.len - off) : FW_SLOT;
		u8 *buf = fw_slot(i % fw_nslots);

		fw_idma(src + s.off + off, buf, len, 0, 0);
		fw_idma(dst + s.off + off, buf, len, KH_POOL_IDMA_TO_DRAM, 0);
	}
	fw_idma_wait_all();
	fw_barrier();
	return 0;
}

/* ---- FILL: w1:w0 dst, w2 pattern, w6 bytes ---- */

static u32 k_fill(const struct fw_job *j, u32 *result)
{
	u64 dst = fw_arg64(j, 0), n = j->w[6], probe, off;
	struct fw_share s;
	u32 code;

	if (n % FW_WORD || !fw_range_ok(dst, n))
		return KH_POOL_FW_ARGS;
	if (!n)
		return 0;
	probe = dst + n - FW_WORD;
	code = fw_probe(&probe, 1);
	if (code)
		return code;
	fw_split(n, KH_POOL_CORES, &s);
	for (off = 0; off < s.len; off += KH_POOL_IDMA_MAX_LEN) {
		u32 len = s.len - off < KH_POOL_IDMA_MAX_LEN ?
			  (u32)(s.len - off) : KH_POOL_IDMA_MAX_LEN;

		fw_idma(dst + s.off + off, fw_slot(0), len,
			KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL, j->w[2]);
	}
	fw_idma_wait_all();
	fw_barrier();
	return 0;
}

/* ---- the reductions' common start: check, probe ---- */

/*
 * src of `bytes` (any count: whole words are read), a result of `rlen`
 * bytes that must not overlap it (it is the cores' meeting place).
 */
static u32 fw_reduce_args(u64 src, u64 bytes, u64 res, u32 rlen)
{
	u64 probe[2];
	u32 n = 0;

	if (!fw_range_ok(src, fw_round(bytes)) || !fw_range_ok(res, rlen) ||
	    fw_overlap(src, fw_round(bytes), res, rlen))
		return KH_POOL_FW_ARGS;
	if (bytes)
		probe[n++] = src + fw_round(bytes) - FW_WORD;
	probe[n++] = res + rlen - FW_WORD;
	return fw_probe(probe, n);
}

/* ---- CRC32: w1:w0 src, w3:w2 result, w6 bytes ---- */

static void crc_chunk(const u8 *p, u32 len, void *ctx)
{
	u32 *crc = ctx;

	*crc = fw_crc32_raw(*crc, p, len);
}

static void crc_combine(u32 *acc, const u32 *in)
{
	acc[0] ^= in[0];
}

/*
 * zlib's crc32(D) is ~R(~0, D), R the raw register.  Split D into the
 * cores' shares D0..D7: R(~0, D) = XOR over k of shift(Rk, bytes after
 * Dk), with R0 = R(~0, D0) and Rk = R(0, Dk) for k > 0 (R is affine in
 * its start value).  So each core runs its share and shifts its own
 * value (fw_crc32_shift) at once, and core 0 only XORs.
 */
static u32 k_crc32(const struct fw_job *j, u32 *result)
{
	u64 src = fw_arg64(j, 0), res = fw_arg64(j, 2), n = j->w[6];
	struct fw_share s;
	u32 code, used, crc;

	code = fw_reduce_args(src, n, res, FW_WORD);
	if (code)
		return code;
	used = fw_used(n);
	fw_split(n, used, &s);
	crc = fw_core ? 0 : ~0u;
	if (s.len)
		fw_stream(src + s.off, s.len, crc_chunk, &crc);
	memset(fw_res, 0, sizeof(fw_res));
	fw_res[0] = fw_crc32_shift(crc, n - s.off - s.len);
	fw_chain(res, fw_res, used, crc_combine);
	if (!fw_core) {
		fw_res[0] = ~fw_res[0];
		fw_put_res(res);
	}
	return 0;
}

/* ---- SUM_I64: w1:w0 src, w3:w2 result, w6 elements ---- */

static void sum_chunk(const u8 *p, u32 len, void *ctx)
{
	const u64 *q = (const u64 *)p;
	u64 s0 = 0, s1 = 0, *acc = ctx;
	u32 n = len / 8;

	for (; n >= 4; n -= 4, q += 4) {
		s0 += q[0] + q[2];
		s1 += q[1] + q[3];
	}
	while (n--)
		s0 += *q++;
	*acc += s0 + s1;
}

static void sum_combine(u32 *acc, const u32 *in)
{
	u64 v = ((u64)acc[1] << 32 | acc[0]) + ((u64)in[1] << 32 | in[0]);

	acc[0] = (u32)v;
	acc[1] = (u32)(v >> 32);
}

static u32 k_sum(const struct fw_job *j, u32 *result)
{
	u64 src = fw_arg64(j, 0), res = fw_arg64(j, 2);
	u64 n = (u64)j->w[6] * 8, sum = 0;
	struct fw_share s;
	u32 code, used;

	if (j->w[6] % 4)
		return KH_POOL_FW_ARGS;
	code = fw_reduce_args(src, n, res, FW_WORD);
	if (code)
		return code;
	used = fw_used(n);
	fw_split(n, used, &s);
	if (s.len)
		fw_stream(src + s.off, s.len, sum_chunk, &sum);
	memset(fw_res, 0, sizeof(fw_res));
	fw_res[0] = (u32)sum;
	fw_res[1] = (u32)(sum >> 32);
	fw_chain(res, fw_res, used, sum_combine);
	if (!fw_core)
		fw_put_res(res);
	return 0;
}

/* ---- HIST256: w1:w0 src, w3:w2 result (1 KiB), w6 bytes ---- */

/*
 * Each core counts its share into its own fw_hist (on the vector
 * unit's scatter-increment, vkernels.c); then eight rounds
 * add them into the result, a 128-byte slice (32 bins) per core and
 * round: in round r core c owns slice (c + r) % 8, so the slices of one
 * round are disjoint and every slice passes every core once.  Round 0
 * stores, the others load, add and store.  A small input is counted by
 * core 0 alone.
 */
static u32 k_hist(const struct fw_job *j, u32 *result)
{
	u64 src = fw_arg64(j, 0), res = fw_arg64(j, 2), n = j->w[6];
	const u32 slice = FW_HIST_SLICE * 4;
	struct fw_share s;
	u32 code, r, i;
	u32 *tmp;

	code = fw_reduce_args(src, n, res, sizeof(fw_hist));
	if (code)
		return code;
	memset(fw_hist, 0, sizeof(fw_hist));
	if (n < FW_HIST_MIN) {
		if (fw_core)
			return 0;
		if (n)
			fw_stream(src, n, fw_hist_chunk, NULL);
		fw_idma(res, fw_hist, sizeof(fw_hist), KH_POOL_IDMA_TO_DRAM, 0);
		fw_idma_wait_all();
		return 0;
	}
	fw_split(n, KH_POOL_CORES, &s);
	fw_stream(src + s.off, s.len, fw_hist_chunk, NULL);
	tmp = (u32 *)fw_slot(0);
	for (r = 0; r < KH_POOL_CORES; r++) {
		u32 k = (fw_core + r) % KH_POOL_CORES;
		u32 *mine = fw_hist + k * FW_HIST_SLICE;
		u64 at = res + k * slice;

		if (r) {
			fw_idma(at, tmp, slice, 0, 0);
			fw_idma_wait_all();
			for (i = 0; i < FW_HIST_SLICE; i++)
				tmp[i] += mine[i];
		} else {
			memcpy(tmp, mine, slice);
		}
		fw_idma(at, tmp, slice, KH_POOL_IDMA_TO_DRAM, 0);
		fw_idma_wait_all();
		fw_barrier();
	}
	return 0;
}

/* ---- VADD_I32: w1:w0 a, w3:w2 b, w5:w4 c, w6 elements ---- */

static void vadd(s32 *x, const s32 *y, u32 n)
{
	for (; n >= 8; n -= 8, x += 8, y += 8) {
		x[0] += y[0];
		x[1] += y[1];
		x[2] += y[2];
		x[3] += y[3];
		x[4] += y[4];
		x[5] += y[5];
		x[6] += y[6];
		x[7] += y[7];
	}
}

/**
 * fw_pair_stream() - this core's share of two streams through DataRAM:
 * a's and b's chunks land in a pair of slots (every pair in flight at
 * once), fn works on each pair, and the slot that holds the result (b's
 * with out_b, else a's) goes out to c
 * @a: the first source's mesh address
 * @b: the second's
 * @c: where the results go (a or b exactly, or disjoint: each core reads a
 *     chunk before it writes it)
 * @s: this core's share of the bytes
 * @out_b: 1: the result is in b's slot, 0: in a's
 * @fn: the work on one chunk of len bytes
 */
void fw_pair_stream(u64 a, u64 b, u64 c, const struct fw_share *s, u32 out_b,
		    void (*fn)(u8 *as, u8 *bs, u32 len))
{
	u16 mark[FW_MAX_SLOTS / 2];
	u32 npairs = fw_nslots / 2, chunks, pushed = 0, i;

	chunks = (u32)((s->len + FW_SLOT - 1) / FW_SLOT);
	for (i = 0; i < chunks; i++) {
		u64 off = (u64)i * FW_SLOT;
		u32 len, k = i % npairs;

		while (pushed < chunks && pushed < i + npairs) {
			u64 po = (u64)pushed * FW_SLOT;
			u32 pl = s->len - po < FW_SLOT ? (u32)(s->len - po) :
				 FW_SLOT;
			u32 pk = pushed % npairs;

			fw_idma(a + s->off + po, fw_slot(2 * pk), pl, 0, 0);
			fw_idma(b + s->off + po, fw_slot(2 * pk + 1), pl, 0, 0);
			mark[pk] = fw_idma_mark();
			pushed++;
		}
		len = s->len - off < FW_SLOT ? (u32)(s->len - off) : FW_SLOT;
		fw_idma_wait(mark[k]);
		fn(fw_slot(2 * k), fw_slot(2 * k + 1), len);
		fw_idma(c + s->off + off, fw_slot(2 * k + out_b), len,
			KH_POOL_IDMA_TO_DRAM, 0);
	}
	fw_idma_wait_all();
}

static void vadd_chunk(u8 *as, u8 *bs, u32 len)
{
	vadd((s32 *)as, (const s32 *)bs, len / 4);
}

/*
 * The sum replaces a's chunk and goes out to c.  c may be a or b exactly
 * but no partial overlap.  Wrapping int32 adds: the sums are done as u32.
 */
static u32 k_vadd(const struct fw_job *j, u32 *result)
{
	u64 a = fw_arg64(j, 0), b = fw_arg64(j, 2), c = fw_arg64(j, 4);
	u64 n = (u64)j->w[6] * 4, probe[3];
	struct fw_share s;
	u32 code;

	if (j->w[6] % 8 || !fw_range_ok(a, n) || !fw_range_ok(b, n) ||
	    !fw_range_ok(c, n) || (c != a && fw_overlap(a, n, c, n)) ||
	    (c != b && fw_overlap(b, n, c, n)))
		return KH_POOL_FW_ARGS;
	if (!n)
		return 0;
	probe[0] = a + n - FW_WORD;
	probe[1] = b + n - FW_WORD;
	probe[2] = c + n - FW_WORD;
	code = fw_probe(probe, 3);
	if (code)
		return code;
	fw_split(n, KH_POOL_CORES, &s);
	fw_pair_stream(a, b, c, &s, 0, vadd_chunk);
	fw_barrier();
	return 0;
}

/* ---- DELAY: w6 cycles, core 0 ---- */

static u32 k_delay(const struct fw_job *j, u32 *result)
{
	u32 start;

	if (fw_core)
		return 0;
	start = csr_read(KH_POOL_CSR_CYCLE);
	while (csr_read(KH_POOL_CSR_CYCLE) - start < j->w[6])
		;
	return 0;
}

/* ---- TRAP: w6 the core, w5 how ---- */

static void FW_NORETURN fw_trap(u32 how)
{
	u32 v;

	switch (how) {
	case KH_POOL_TRAP_ILLEGAL:
		asm volatile(".word 0");	/* all zeros: illegal */
		break;
	case KH_POOL_TRAP_MISALIGN:
		asm volatile("lw %0, 2(%1)" : "=r"(v) : "r"(KH_POOL_DRAM_BASE));
		break;
	case KH_POOL_TRAP_ACCESS:
		/* between IRAM and DataRAM: no memory */
		asm volatile("lw %0, 0(%1)" : "=r"(v)
			     : "r"(KH_POOL_IRAM_BASE + KH_POOL_IRAM_SIZE));
		break;
	case KH_POOL_TRAP_EBREAK:
		asm volatile("ebreak");
		break;
	case KH_POOL_TRAP_ECALL:
		asm volatile("ecall");
		break;
	}
	fw_fatal();
}

static u32 k_trap(const struct fw_job *j, u32 *result)
{
	if (j->w[6] >= KH_POOL_CORES || j->w[5] > KH_POOL_TRAP_ECALL)
		return KH_POOL_FW_ARGS;
	if (fw_core == j->w[6])
		fw_trap(j->w[5]);
	return FW_NO_RETIRE;
}

fw_kernel_fn fw_kernel(u32 id)
{
	switch (id) {
	case KH_POOL_K_PING:
		return k_ping;
	case KH_POOL_K_COPY:
		return k_copy;
	case KH_POOL_K_FILL:
		return k_fill;
	case KH_POOL_K_CRC32:
		return k_crc32;
	case KH_POOL_K_VADD_I32:
		return k_vadd;
	case KH_POOL_K_SUM_I64:
		return k_sum;
	case KH_POOL_K_HIST256:
		return k_hist;
	case KH_POOL_K_DELAY:
		return k_delay;
	case KH_POOL_K_GEMV_I8:
		return k_gemv;
	case KH_POOL_K_AXPY_F32:
		return k_axpy;
	case KH_POOL_K_SOFTMAX_F32:
		return k_softmax;
	case KH_POOL_K_COPY_U:
		return k_copyu;
	case KH_POOL_K_TRAP:
		return k_trap;
	}
	return NULL;
}
