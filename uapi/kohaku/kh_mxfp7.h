/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * MXFP7, the matmul cluster's operand format, and MAG's FP16 -> MXFP7
 * conversion (docs/spec/mxfp7.md; the packing, scale choice, rounding and
 * specials are this project's definition).
 *
 * An element is an int7 q in a block of KBLOCK elements sharing one E5M3
 * scale byte S = {E[4:0], M[2:0]}: value = 2^(E - SBIAS) * (1 + M/8) * q.
 * An entry is 4 lanes x 32 elements in four 256-bit words: word w = lane w,
 * element k at bits [7k+6:7k], the scale at [231:224], [255:232] = 0.
 */
#ifndef _UAPI_KOHAKU_KH_MXFP7_H
#define _UAPI_KOHAKU_KH_MXFP7_H

#include <linux/types.h>

#define KH_MX_SBIAS		20	/* scale exponent bias */
#define KH_MX_KBLOCK		32	/* elements sharing one scale, along K */
#define KH_MX_ANCHOR		40	/* cluster accumulator anchor; unused by MAG */
#define KH_MX_LANES		4	/* blocks (words) per entry */
#define KH_MX_ENTRY_ELEMS	128	/* elements per entry */
#define KH_MX_INT_BITS		7
#define KH_MX_INT_MAX		63	/* the converter produces -63..63 */
#define KH_MX_SCALE_BIT		224	/* the scale byte's position in a word */
#define KH_MX_WORD_BYTES	32
#define KH_MX_SRC_BEATS		8	/* FP16 beats in per entry */
#define KH_MX_SRC_BYTES		256	/* 128 binary16 values */
#define KH_MX_OUT_WORDS		4	/* response words out per entry */
#define KH_MX_OUT_BYTES		128

/* scale byte fields */
#define KH_MX_SCALE_E(s)	(((s) >> 3) & 0x1f)
#define KH_MX_SCALE_M(s)	((s) & 0x7)
#define KH_MX_SCALE(e, m)	((__u8)((((e) & 0x1f) << 3) | ((m) & 0x7)))

/*
 * Source value j (0..127, bytes 2j..2j+1 of the 256) goes to lane, k:
 * A layout: lane j / 32, k j % 32; B layout: lane j % 4, k j / 4.
 */
#define KH_MX_A_LANE(j)		((j) / KH_MX_KBLOCK)
#define KH_MX_A_K(j)		((j) % KH_MX_KBLOCK)
#define KH_MX_B_LANE(j)		((j) % KH_MX_LANES)
#define KH_MX_B_K(j)		((j) / KH_MX_LANES)

#endif /* _UAPI_KOHAKU_KH_MXFP7_H */
