// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a POOL unit's job reaches (ABI 0.8, kh_check.c): the firmware's
 * kernels of API 1.1 (docs/spec/pool.md "Jobs for the firmware",
 * uapi/kohaku/kh_pool.h KH_POOL_K_*), decoded as the firmware uses their
 * arguments (firmware/kernels.c, firmware/vkernels.c): each operand's
 * bytes must lie in one buffer the job names, with the access the kernel
 * makes.  docs/spec/pool.md "What a job may reach" has the table.
 *
 * The ranges are checked whatever the firmware's own rules would say of
 * the arguments (alignment, overlap, the counts' limits): a job the
 * firmware refuses before any side effect is checked as if it ran, so
 * nothing here depends on those rules holding.  A kernel with a count of
 * zero reaches nothing, except the reductions' result, which the firmware
 * writes for an empty input too.  Every range a kernel touches has its
 * last word read first (fw_probe(), firmware/main.c), outputs included.
 *
 * What the driver cannot tell the reach of runs an administrator's jobs
 * only: a kernel id API 1.1 does not define (the firmware is whatever an
 * administrator loaded, FW_LOAD being theirs alone), an opcode other than
 * KH_POOL_OP_JOB, and LOAD, the unit's own copy into IRAM and the
 * DataRAMs, which the driver's firmware loader sends (kh_fw_boot.c,
 * through kh_job_run_internal(), which SUBMIT's check never sees).
 */
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/overflow.h>

#include "kh_priv.h"
#include "kh_check.h"

#define KH_POOL_W	KH_POOL_WORD_BYTES	/* the iDMA's word */
#define KH_POOL_HIST_BYTES	(256 * 4)	/* HIST256's result: 256 u32 */

static u64 kh_pool_arg64(const struct kohaku_inst *in, unsigned int lo)
{
	return (u64)kh_pool_get_w(in->w, lo + 1) << 32 | kh_pool_get_w(in->w, lo);
}

/*
 * An operand's bytes [addr, addr + n), used as @access.  The iDMA moves the
 * 32-byte words that hold them (the memory path's word): the rest of the
 * first and last word lies in the same KOHAKU_BO_ALIGN granule as the
 * bytes, so in the allocation of the buffer that holds them, which no
 * other buffer shares (kh_mem.c); COPY_U writes those bytes back as it
 * read them.
 */
static int kh_pool_bytes(struct kh_check *c, u32 inst, u32 op, const char *what,
			 u64 addr, u64 n, u32 access)
{
	return kh_check_mem(c, inst, op, what, addr, n, access);
}

/*
 * An output's bytes: written, and those in its last word read first (the
 * probe, fw_probe()); with @head those in its first word too when @addr
 * lies inside a word (COPY_U reads the head word to keep its bytes).
 */
static int kh_pool_out(struct kh_check *c, u32 inst, u32 op, const char *what,
		       u64 addr, u64 n, bool head)
{
	const u64 mask = ~(u64)(KH_POOL_W - 1);
	u64 end, lo, hi;
	int ret;

	ret = kh_pool_bytes(c, inst, op, what, addr, n, KOHAKU_JOB_BO_WRITE);
	if (ret || !n)
		return ret;
	/* [addr, end) lies in one buffer: nothing below wraps */
	end = addr + n;
	lo = max_t(u64, addr, (end - 1) & mask);
	ret = kh_pool_bytes(c, inst, op, what, lo, end - lo, KOHAKU_JOB_BO_READ);
	if (ret || !head || !(addr & ~mask))
		return ret;
	hi = min_t(u64, end, (addr & mask) + KH_POOL_W);
	return kh_pool_bytes(c, inst, op, what, addr, hi - addr, KOHAKU_JOB_BO_READ);
}

/*
 * A memory operand of a kernel: @len bytes at @addr (its words), used as
 * @access; an output (@out) is written, its last word read first, and with
 * @head its first word too when @addr lies inside it.
 */
struct kh_pool_opnd {
	const char *what;
	u64 addr, len;
	u32 access;
	bool out, head;
};

static void kh_pool_in(struct kh_pool_opnd *o, const char *what, u64 addr,
		       u64 len, u32 access)
{
	o->what = what;
	o->addr = addr;
	o->len = len;
	o->access = access;
}

static void kh_pool_to(struct kh_pool_opnd *o, const char *what, u64 addr,
		       u64 len, bool head)
{
	kh_pool_in(o, what, addr, len, KOHAKU_JOB_BO_WRITE);
	o->out = true;
	o->head = head;
}

/*
 * One firmware job: its kernel's memory operands in the API's order
 * (kh_pool.h KH_POOL_K_*), -1 for a kernel API 1.1 does not define.
 */
static int kh_pool_kernel(const struct kohaku_inst *in, struct kh_pool_opnd *o)
{
	u32 w4 = kh_pool_get_w(in->w, 4), w6 = kh_pool_get_w(in->w, 6);
	u64 a0 = kh_pool_arg64(in, 0), a2 = kh_pool_arg64(in, 2);
	u64 a4 = kh_pool_arg64(in, 4), n, m, k;
	const u32 r = KOHAKU_JOB_BO_READ, rw = KOHAKU_JOB_BO_RW;

	switch (KH_POOL_W7_SEL(kh_pool_get_w(in->w, 7))) {
	case KH_POOL_K_PING:
	case KH_POOL_K_DELAY:
	case KH_POOL_K_TRAP:
		return 0;
	case KH_POOL_K_COPY:		/* w1:w0 src, w3:w2 dst, w6 bytes */
		kh_pool_in(&o[0], "COPY src", a0, w6, r);
		kh_pool_to(&o[1], "COPY dst", a2, w6, false);
		return 2;
	case KH_POOL_K_FILL:		/* w1:w0 dst, w2 pattern, w6 bytes */
		kh_pool_to(&o[0], "FILL dst", a0, w6, false);
		return 1;
	case KH_POOL_K_CRC32:		/* w1:w0 src, w3:w2 result, w6 bytes */
		kh_pool_in(&o[0], "CRC32 src", a0, w6, r);
		kh_pool_in(&o[1], "CRC32 result", a2, KH_POOL_W, rw);
		return 2;
	case KH_POOL_K_VADD_I32:	/* a, b, c, w6 elements of 4 bytes */
		n = (u64)w6 * 4;
		kh_pool_in(&o[0], "VADD_I32 a", a0, n, r);
		kh_pool_in(&o[1], "VADD_I32 b", a2, n, r);
		kh_pool_to(&o[2], "VADD_I32 c", a4, n, false);
		return 3;
	case KH_POOL_K_SUM_I64:		/* src, result, w6 elements of 8 bytes */
		kh_pool_in(&o[0], "SUM_I64 src", a0, (u64)w6 * 8, r);
		kh_pool_in(&o[1], "SUM_I64 result", a2, KH_POOL_W, rw);
		return 2;
	case KH_POOL_K_HIST256:		/* src, result (256 u32), w6 bytes */
		kh_pool_in(&o[0], "HIST256 src", a0, w6, r);
		kh_pool_in(&o[1], "HIST256 result", a2, KH_POOL_HIST_BYTES, rw);
		return 2;
	case KH_POOL_K_GEMV_I8:		/* A, x, y, w6 = M | K << 16 */
		m = KH_POOL_GEMV_M(w6);
		k = KH_POOL_GEMV_K(w6);
		if (!m)			/* retires before the probes */
			return 0;
		kh_pool_in(&o[0], "GEMV_I8 A", a0, m * k, r);
		kh_pool_in(&o[1], "GEMV_I8 x", a2, k, r);
		kh_pool_to(&o[2], "GEMV_I8 y", a4, m * 4, false);
		return 3;
	case KH_POOL_K_AXPY_F32:	/* x, y, w4 a, w6 elements of 4 bytes */
		n = (u64)w6 * 4;
		kh_pool_in(&o[0], "AXPY_F32 x", a0, n, r);
		kh_pool_in(&o[1], "AXPY_F32 y", a2, n, rw);
		return 2;
	case KH_POOL_K_SOFTMAX_F32:	/* src, dst, w4 L, w6 rows of L * 4 bytes */
		if (check_mul_overflow((u64)w6 * w4, (u64)4, &n))
			n = U64_MAX;
		kh_pool_in(&o[0], "SOFTMAX_F32 src", a0, n, r);
		kh_pool_to(&o[1], "SOFTMAX_F32 dst", a2, n, false);
		return 2;
	case KH_POOL_K_COPY_U:		/* src, dst: any byte addresses, w6 bytes */
		kh_pool_in(&o[0], "COPY_U src", a0, w6, r);
		kh_pool_to(&o[1], "COPY_U dst", a2, w6, true);
		return 2;
	}
	return -1;
}

/*
 * A POOL program: every instruction a job for the firmware (opcode
 * KH_POOL_OP_JOB) of a kernel the table knows, else an administrator's.
 */
int kh_check_pool(struct kh_check *c, const struct kh_prog *pr)
{
	struct kh_pool_opnd o[3];
	u32 i, op;
	int n, j, ret;

	for (i = 0; i < pr->n; i++) {
		const struct kohaku_inst *in = &pr->insts[i];

		op = KH_POOL_W7_OPCODE(kh_pool_get_w(in->w, 7));
		memset(o, 0, sizeof(o));
		n = op == KH_POOL_OP_JOB ? kh_pool_kernel(in, o) : -1;
		if (n < 0) {
			/* an administrator's: the driver cannot tell its reach */
			ret = kh_check_admin_only(c, i,
				op == KH_POOL_OP_LOAD ? "is a LOAD, which rewrites the firmware's IRAM or DataRAM" :
				op != KH_POOL_OP_JOB ? "has an opcode the firmware's API does not define" :
				"names a kernel firmware API 1.1 does not define");
			if (ret)
				return ret;
			continue;
		}
		for (j = 0; j < n; j++) {
			if (o[j].out)
				ret = kh_pool_out(c, i, j, o[j].what, o[j].addr,
						  o[j].len, o[j].head);
			else
				ret = kh_pool_bytes(c, i, j, o[j].what, o[j].addr,
						    o[j].len, o[j].access);
			if (ret)
				return ret;
		}
	}
	return 0;
}
