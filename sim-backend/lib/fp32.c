// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * binary32 fused multiply-add, round to nearest even, no flags: the SX
 * unit's datapath (units/sx.c).  The arithmetic is softfp.c's, shared
 * with the POOL cores' FPU.
 */
#include "fp32.h"
#include "softfp.h"

u32 ksim_fp32_fma(u32 a, u32 b, u32 c)
{
	unsigned int flags = 0;

	return ksim_sf_fma(&ksim_sf_binary32, a, b, c, KSIM_SF_RNE, &flags);
}
