/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The matmul cluster unit `mat` (cu_type 'MG', RTL mx_cluster_cu): its
 * CU_INST encoding, CU_DATA buffers, accumulator format and limits, as
 * KohakuTPU's RTL has them (src/kohakutpu/matmul/mx_cluster_cu.v, built
 * with PUMP=1 in every ship top: two K blocks per sweep command; the ship
 * tops' parameters, kohakutpu.md §9).  docs/spec/mat.md is the unit as the
 * model implements it.  Field positions are KH_FIELD(hi, lo) of the whole
 * flit, for kh_flit_get() (kh_flit.h).
 */
#ifndef _UAPI_KOHAKU_KH_MAT_H
#define _UAPI_KOHAKU_KH_MAT_H

#include <linux/types.h>

/**
 * DOC: mat identity
 *
 * CU_CAPS of a cluster: cu_type 'MG' (KH_CU_MG in kh_units.h), version 4,
 * N_BUFFERS 2 although three buffer ids (0, 1, 2) are accepted
 * (mx_cluster_cu.v L238: an RTL quirk the model reproduces).
 */
#define KH_MAT_VERSION		0x04
#define KH_MAT_NBUF		2

/**
 * DOC: mat CU_INST fields
 *
 * mx_cluster_cu.v L21-60 and L260-326.  The 40-bit address is
 * {addr_hi, addr_lo}: addr_hi [68:63] is addr[39:34] (L263).
 */
#define KH_MAT_OP		KH_FIELD(255, 252)	/* opcode */
#define KH_MAT_ADDR_LO		KH_FIELD(251, 218)	/* addr[33:0] */
#define KH_MAT_N		KH_FIELD(217, 202)	/* FILL entries, DRAIN sub-tiles; 0 means 1 */
#define KH_MAT_SEL		KH_FIELD(201, 201)	/* FILL: 0 = L1 A, 1 = L1 B */
#define KH_MAT_ACC		KH_FIELD(200, 200)	/* GEMM: accumulate, no LOAD */
#define KH_MAT_GM		KH_FIELD(199, 192)	/* GEMM: row groups; 0 means 1 */
#define KH_MAT_GN		KH_FIELD(191, 184)	/* GEMM: column groups; 0 means 1 */
#define KH_MAT_NK		KH_FIELD(183, 176)	/* GEMM: K blocks; 0 means 1 */
#define KH_MAT_ANCHOR		KH_FIELD(175, 168)	/* GEMM: output exponent anchor */
#define KH_MAT_PEERS		KH_FIELD(167, 144)	/* FILL: 3 x {y,x} */
#define KH_MAT_NPEER		KH_FIELD(143, 142)	/* FILL: peers present */
#define KH_MAT_PREQ		KH_FIELD(141, 141)	/* FILL: already MXFP7, no QUANT */
#define KH_MAT_EOFF		KH_FIELD(140, 133)	/* FILL: first L1 entry (txn) */
#define KH_MAT_AOFF		KH_FIELD(132, 125)	/* GEMM: base entry in L1 A */
#define KH_MAT_BOFF		KH_FIELD(124, 117)	/* GEMM: base entry in L1 B */
#define KH_MAT_EMIT		KH_FIELD(116, 116)	/* GEMM: hand out the last K block */
#define KH_MAT_FUSE		KH_FIELD(115, 115)	/* DRAIN: wait for the emitted */
#define KH_MAT_ABANK		KH_FIELD(114, 114)	/* GEMM: L1 A bank */
#define KH_MAT_BBANK		KH_FIELD(113, 113)	/* GEMM: L1 B bank */
#define KH_MAT_FBANK		KH_FIELD(112, 112)	/* FILL: bank written */
#define KH_MAT_DNODE		KH_FIELD(111, 111)	/* DRAIN: CU_DATA to a node */
#define KH_MAT_DST_X		KH_FIELD(110, 107)
#define KH_MAT_DST_Y		KH_FIELD(106, 103)
#define KH_MAT_DBUF		KH_FIELD(102, 95)	/* DRAIN: the node's buffer id */
#define KH_MAT_DFLAGS		KH_FIELD(94, 87)	/* DRAIN: descriptor flags */
#define KH_MAT_DACK_Y		KH_FIELD(86, 83)
#define KH_MAT_DACK_X		KH_FIELD(82, 79)
#define KH_MAT_DMESH		KH_FIELD(78, 77)	/* DRAIN: far mesh when dfin != 0 */
#define KH_MAT_DFIN		KH_FIELD(76, 69)	/* DRAIN: {fin_y, fin_x}; 0 = local (nonzero: not modelled) */
#define KH_MAT_ADDR_HI		KH_FIELD(68, 63)	/* addr[39:34] */
#define KH_MAT_ADDR_LO_BITS	34

/**
 * DOC: mat opcodes
 *
 * Any other opcode retires as a no-op (L816), with exec_result the
 * cumulative count of FILL, GEMM and DRAIN retired before it.
 */
#define KH_MAT_OP_FILL		1
#define KH_MAT_OP_GEMM		2
#define KH_MAT_OP_DRAIN		3

/**
 * DOC: mat CU_DATA buffers
 *
 * buf_id 0 = L1 A and 1 = L1 B in granules (4 per entry, payload as a
 * MEM_RD_RESP word), limit GA * 4; 2 = peer accumulate into the resident
 * tile, two granules per sub-tile (even offset first), limit TILES * 2.
 * Anything else, an odd peer offset, or offset + len at or past the limit
 * is rejected (counted out, acked, exec_fault at the next retirement):
 * L596-602.
 */
#define KH_MAT_BUF_L1A		0
#define KH_MAT_BUF_L1B		1
#define KH_MAT_BUF_PEER		2

/**
 * DOC: mat sizes (ship tops)
 *
 * TILES 4096 sub-tiles of 4 x 4, L1 A and B 512 entries each (two banks
 * of 256), an entry = 4 rows (A) or columns (B) x 32 K of MXFP7.
 */
#define KH_MAT_TILES		4096
#define KH_MAT_GA		512
#define KH_MAT_GB		512
#define KH_MAT_BANK		256	/* entries per L1 bank */
#define KH_MAT_SUB		4	/* a sub-tile is 4 x 4 */
#define KH_MAT_KBLOCK		32	/* K per entry */
#define KH_MAT_GRANULE		32	/* bytes per drained FP16 sub-tile */
#define KH_MAT_WBURST		8	/* granules per write burst */
#define KH_MAT_DRAIN_TXN	0x02	/* MEM_WR_REQ / CU_DATA txn when dfin = 0 */

/**
 * DOC: mat accumulator float FP22
 *
 * S1 E7 M14, bias 63 (ACC_MW 14, mx_fpacc.v): sign [21], exponent
 * [20:14], fraction [13:0]; exponent 0 is zero, no subnormals, 127 with
 * all-ones fraction is the saturated maximum.  A peer sub-tile is 16 of
 * them, lane r*4+c at bits [22*l+21 : 22*l] of 352 bits: granule 2t
 * carries [255:0], granule 2t+1 carries [351:256] in its [95:0].
 */
#define KH_MAT_FP22_BITS	22
#define KH_MAT_FP22_MW		14
#define KH_MAT_FP22_BIAS	63
#define KH_MAT_FP22_SIGN	(1u << 21)
#define KH_MAT_FP22_EXP(v)	(((v) >> 14) & 0x7f)
#define KH_MAT_FP22_FRAC(v)	((v) & 0x3fff)
#define KH_MAT_PEER_BITS	352

#endif /* _UAPI_KOHAKU_KH_MAT_H */
