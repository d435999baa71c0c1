/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * MXFP7, the matmul cluster's operand format, and MAG's FP16 -> MXFP7
 * conversion, as KohakuTPU's RTL has them (docs/spec/mxfp7.md; RTL
 * src/kohakutpu/transform/mx_quant.v, the cluster's L1 placement in
 * src/kohakutpu/matmul/mx_cluster_cu.v L727-752).
 *
 * An element is an int7 q in a block of KBLOCK elements sharing one E5M3
 * scale byte S = {E[4:0], M[2:0]}: value = 2^(E - SBIAS) * (1 + M/8) * q.
 * A block is 32 consecutive source values (a lane).  An entry is 4 lanes x
 * 32 elements in four 256-bit words: word w carries K-slice w (elements
 * 8w..8w+7 of every lane), 32 elements packed MSB first from bit 255, and
 * the four scale bytes in [31:0] (lane 0 at [31:24]), in every word.
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
#define KH_MX_WORD_ELEMS	32	/* elements per word: 4 lanes x 8 */
#define KH_MX_SLICE		8	/* K values per lane per word */
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
 * Element o (0..31) of a word sits at bits [255 - 7o : 249 - 7o].  It is
 * lane o / 8, K offset o % 8 in the A packing (BLAYOUT 0), and lane o % 4,
 * K offset o / 4 in the B packing (BLAYOUT 1); the K index is 8w + offset
 * in word w.  The scale byte of lane l is byte 3 - l of every word.
 */
#define KH_MX_ELEM_LSB(o)	(249 - 7 * (o))
#define KH_MX_A_LANE(o)		((o) / KH_MX_SLICE)
#define KH_MX_A_KK(o)		((o) % KH_MX_SLICE)
#define KH_MX_B_LANE(o)		((o) % KH_MX_LANES)
#define KH_MX_B_KK(o)		((o) / KH_MX_LANES)
#define KH_MX_SCALE_BYTE(l)	(3 - (l))

#endif /* _UAPI_KOHAKU_KH_MXFP7_H */
