// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Job builders for the POOL firmware's kernels (API 1.1, docs/spec/pool.md
 * "Jobs for the firmware") and its fault codes in words.  Payload word k
 * (w0..w7) is placed with kh_pool_set_w(), the layout uapi/kohaku/kh_pool.h
 * defines once; the checks are the firmware's own argument rules, so a bad
 * job is refused here with EINVAL instead of faulting on the unit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_pool_vec.h"

#define ALIGNED(a)	(!((a) % KH_POOL_WORD_BYTES))

KH_RT_EXPORT void kohaku_inst_pool(struct kohaku_inst *inst, unsigned int kernel,
				   const uint32_t args[7])
{
	unsigned int k;

	memset(inst, 0, sizeof(*inst));
	for (k = 0; args && k < 7; k++)
		kh_pool_set_w(inst->w, k, args[k]);
	kh_pool_set_w(inst->w, 7, KH_POOL_W7(KH_POOL_OP_JOB, kernel));
}

/* w1:w0 = a, w3:w2 = b, w5:w4 = c, w6 = n */
static void pool_args(struct kohaku_inst *inst, unsigned int kernel,
		      uint64_t a, uint64_t b, uint64_t c, uint32_t n)
{
	const uint32_t args[7] = {
		(uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32),
		(uint32_t)c, (uint32_t)(c >> 32), n,
	};

	kohaku_inst_pool(inst, kernel, args);
}

KH_RT_EXPORT int kohaku_inst_pool_ping(struct kohaku_inst *inst, uint32_t value)
{
	if (!inst)
		return -EINVAL;
	pool_args(inst, KH_POOL_K_PING, 0, 0, 0, value);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_copy(struct kohaku_inst *inst, uint64_t src,
				       uint64_t dst, uint32_t bytes)
{
	if (!inst || !ALIGNED(src) || !ALIGNED(dst) || !ALIGNED(bytes))
		return -EINVAL;
	pool_args(inst, KH_POOL_K_COPY, src, dst, 0, bytes);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_fill(struct kohaku_inst *inst, uint64_t dst,
				       uint32_t pattern, uint32_t bytes)
{
	if (!inst || !ALIGNED(dst) || !ALIGNED(bytes))
		return -EINVAL;
	pool_args(inst, KH_POOL_K_FILL, dst, pattern, 0, bytes);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_crc32(struct kohaku_inst *inst, uint64_t src,
					uint64_t result, uint32_t bytes)
{
	if (!inst || !ALIGNED(src) || !ALIGNED(result))
		return -EINVAL;
	pool_args(inst, KH_POOL_K_CRC32, src, result, 0, bytes);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_vadd_i32(struct kohaku_inst *inst, uint64_t a,
					   uint64_t b, uint64_t c, uint32_t n)
{
	if (!inst || !ALIGNED(a) || !ALIGNED(b) || !ALIGNED(c) || n % 8)
		return -EINVAL;
	pool_args(inst, KH_POOL_K_VADD_I32, a, b, c, n);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_sum_i64(struct kohaku_inst *inst, uint64_t src,
					  uint64_t result, uint32_t n)
{
	if (!inst || !ALIGNED(src) || !ALIGNED(result) || n % 4)
		return -EINVAL;
	pool_args(inst, KH_POOL_K_SUM_I64, src, result, 0, n);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_hist256(struct kohaku_inst *inst, uint64_t src,
					  uint64_t result, uint32_t bytes)
{
	if (!inst || !ALIGNED(src) || !ALIGNED(result))
		return -EINVAL;
	pool_args(inst, KH_POOL_K_HIST256, src, result, 0, bytes);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_gemv_i8(struct kohaku_inst *inst, uint64_t a,
					  uint64_t x, uint64_t y, uint32_t m,
					  uint32_t k)
{
	if (!inst || !ALIGNED(a) || !ALIGNED(x) || !ALIGNED(y) || m % 64 ||
	    m > 0xffff || k % 4 || k > KH_POOL_GEMV_KMAX || (m && !k))
		return -EINVAL;
	pool_args(inst, KH_POOL_K_GEMV_I8, a, x, y, KH_POOL_GEMV_W6(m, k));
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_axpy_f32(struct kohaku_inst *inst, uint64_t x,
					   uint64_t y, float a, uint32_t n)
{
	uint32_t bits;

	if (!inst || !ALIGNED(x) || !ALIGNED(y) || n % 16)
		return -EINVAL;
	memcpy(&bits, &a, 4);
	/* w4 is c's low word in pool_args: a rides there */
	pool_args(inst, KH_POOL_K_AXPY_F32, x, y, bits, n);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_softmax_f32(struct kohaku_inst *inst,
					      uint64_t src, uint64_t dst,
					      uint32_t l, uint32_t rows)
{
	if (!inst || !ALIGNED(src) || !ALIGNED(dst) || !l || l % 16 ||
	    l > KH_POOL_SOFTMAX_LMAX)
		return -EINVAL;
	pool_args(inst, KH_POOL_K_SOFTMAX_F32, src, dst, l, rows);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_copy_u(struct kohaku_inst *inst, uint64_t src,
					 uint64_t dst, uint32_t bytes)
{
	if (!inst)
		return -EINVAL;
	pool_args(inst, KH_POOL_K_COPY_U, src, dst, 0, bytes);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_delay(struct kohaku_inst *inst, uint32_t cycles)
{
	if (!inst)
		return -EINVAL;
	pool_args(inst, KH_POOL_K_DELAY, 0, 0, 0, cycles);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_pool_trap(struct kohaku_inst *inst, unsigned int core,
				       unsigned int how)
{
	const uint32_t args[7] = { 0, 0, 0, 0, 0, how, core };

	if (!inst || core >= KH_POOL_CORES || how > KH_POOL_TRAP_ECALL)
		return -EINVAL;
	kohaku_inst_pool(inst, KH_POOL_K_TRAP, args);
	return 0;
}

static const char *cause_name(unsigned int cause)
{
	switch (cause) {
	case KH_POOL_CAUSE_FETCH_MISALIGNED:
		return "misaligned instruction fetch";
	case KH_POOL_CAUSE_FETCH_FAULT:
		return "instruction fetch outside IRAM";
	case KH_POOL_CAUSE_ILLEGAL:
		return "illegal instruction";
	case KH_POOL_CAUSE_EBREAK:
		return "ebreak";
	case KH_POOL_CAUSE_LOAD_MISALIGNED:
		return "misaligned load";
	case KH_POOL_CAUSE_LOAD_FAULT:
		return "load outside every memory";
	case KH_POOL_CAUSE_STORE_MISALIGNED:
		return "misaligned store";
	case KH_POOL_CAUSE_STORE_FAULT:
		return "store outside the writable memories";
	case KH_POOL_CAUSE_ECALL:
		return "ecall";
	case KH_POOL_CAUSE_CP_DISABLED:
		return "vector instruction with the coprocessor disabled";
	}
	return "unknown cause";
}

static const char *fw_code_name(unsigned int code)
{
	switch (code) {
	case KH_POOL_FW_KERNEL:
		return "unknown kernel";
	case KH_POOL_FW_ARGS:
		return "an argument breaks the kernel's rules";
	case KH_POOL_FW_IDMA:
		return "an iDMA descriptor failed";
	case KH_POOL_FW_OPCODE:
		return "an opcode the firmware does not take";
	}
	return "unknown firmware code";
}

static const char *unit_code_name(unsigned int code)
{
	switch (code) {
	case KH_POOL_UNIT_LOAD:
		return "a LOAD or CU_DATA burst broke a rule";
	case KH_POOL_UNIT_HALTED:
		return "a core trapped earlier: reload the firmware";
	case KH_POOL_UNIT_NOFW:
		return "no firmware runs (every core stalled or in reset)";
	case KH_POOL_UNIT_BOUNDS:
		return "the firmware reached memory outside the job's buffers; "
		       "the unit's bounds refused it (the driver's log names "
		       "the core and the address)";
	}
	return "unknown unit code";
}

KH_RT_EXPORT const char *kohaku_pool_fault_describe(uint32_t code, char *buf,
						    size_t len)
{
	if (!buf || !len)
		return "";
	switch (KH_POOL_FAULT_CLASS(code)) {
	case KH_POOL_CLASS_FW:
		snprintf(buf, len, "firmware: %s (code %u)",
			 fw_code_name(KH_POOL_FAULT_CODE(code)),
			 KH_POOL_FAULT_CODE(code));
		break;
	case KH_POOL_CLASS_TRAP:
		snprintf(buf, len, "trap: core %u, %s (cause %u)",
			 KH_POOL_FAULT_CORE(code), cause_name(code & 0xff),
			 code & 0xff);
		break;
	case KH_POOL_CLASS_UNIT:
		snprintf(buf, len, "unit: %s (code %u)",
			 unit_code_name(code & 0xff), code & 0xff);
		break;
	default:
		snprintf(buf, len, "fault 0x%08x (no POOL fault class)", code);
		break;
	}
	return buf;
}
