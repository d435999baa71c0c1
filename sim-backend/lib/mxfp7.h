/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * FP16 -> MXFP7 conversion in integer code (docs/spec/mxfp7.md): MAG's
 * read-path transform (QUANT) and the quantising upload share it.
 */
#ifndef KSIM_MXFP7_H
#define KSIM_MXFP7_H

#include "ksim_plat.h"
#include <kohaku/kh_mxfp7.h>

/*
 * One block of KH_MX_KBLOCK binary16 bit patterns: returns the scale byte
 * and writes the int7 values (-63..63) to q.
 */
u8 ksim_mxfp7_block(const u16 *h, s8 *q);

/*
 * One entry: KH_MX_SRC_BYTES of little-endian binary16 in, KH_MX_OUT_BYTES
 * (four 32-byte words) out; blayout selects the B-operand packing.
 */
void ksim_mxfp7_entry(const u8 *src, bool blayout, u8 *out);

#endif /* KSIM_MXFP7_H */
