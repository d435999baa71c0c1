/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * IEEE 754 binary32 arithmetic in integer code (the model is also built
 * into a kernel module, where the FPU is off limits).
 */
#ifndef KSIM_FP32_H
#define KSIM_FP32_H

#include "ksim_plat.h"

#define KSIM_FP32_QNAN	0x7fc00000u	/* every NaN result */

/*
 * a * b + c with one rounding, round to nearest even; subnormal inputs and
 * outputs are kept (no flush to zero); IEEE signed-zero and infinity
 * rules; any NaN result is KSIM_FP32_QNAN.
 */
u32 ksim_fp32_fma(u32 a, u32 b, u32 c);

#endif /* KSIM_FP32_H */
