/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Compute-unit identities and instruction encodings.  A CU_INST payload
 * belongs to the unit it is sent to: the same bits mean different things at
 * different cu_types, so an encoder must know the destination's type.
 * Field positions are KH_FIELD(hi, lo) of the whole flit, for kh_flit_get().
 * SX and null encodings: docs/spec/units.md.
 */
#ifndef _UAPI_KOHAKU_KH_UNITS_H
#define _UAPI_KOHAKU_KH_UNITS_H

#include <linux/types.h>

/* ---- cu_type values (CU_CAPS[63:48]), two ASCII characters ---- */
#define KH_CU_TYPE(a, b)	((__u16)(((a) << 8) | (b)))
#define KH_CU_NULL		0x0000	/* noc_cu_null default */
#define KH_CU_MG		KH_CU_TYPE('M', 'G')	/* matmul cluster */
#define KH_CU_VC		KH_CU_TYPE('V', 'C')	/* vector core */
#define KH_CU_MX		KH_CU_TYPE('M', 'X')	/* legacy matmul */
#define KH_CU_RV		KH_CU_TYPE('R', 'V')	/* rv_pe controller */
#define KH_CU_SX		KH_CU_TYPE('S', 'X')	/* saxpy example */

/* framework-wide CU_CTRL constant: the completion queue depth of the base */
#define KH_CU_SIG_DEPTH		16

/*
 * ---- SX saxpy unit (saxpy_cu): one instruction, y[0:n] = a * x[0:n] + y[0:n]
 *
 * On the card the arithmetic is saxpy_cu's integer datapath,
 * y = i2f(f2i(a) * f2i(x) + f2i(y)), exact only for whole values below 2^23
 * (docs/spec/units.md gives f2i and i2f bit by bit); a binary32 fused
 * multiply-add is the model's declared variant (card parameter sx_fma 1),
 * which marks itself in CU_DBG[63:32] with KH_SX_DBG_FMA.
 */
#define KH_SX_OPCODE		KH_FIELD(255, 248)
#define KH_SX_N			KH_FIELD(247, 224)	/* element count, 24 bits */
#define KH_SX_A			KH_FIELD(223, 192)	/* binary32 bit pattern */
#define KH_SX_X_ADDR		KH_FIELD(191, 128)	/* mesh address; the unit keeps [39:0] */
#define KH_SX_Y_ADDR		KH_FIELD(127, 64)
#define KH_SX_OP_SAXPY		0x01
/* what the unit keeps of an address: bits [39:0], from the word's first byte */
#define KH_SX_ADDR_KEEP		(((1ULL << 40) - 1) & ~31ULL)
#define KH_SX_N_MAX		64	/* N_MAX: 8 lines, MAG's write-burst ceiling */
#define KH_SX_NBUF		1
#define KH_SX_LINE_BYTES	32	/* 8 elements per memory word */
#define KH_SX_VERSION		0x01	/* saxpy_cu's CU_VERSION parameter */

/* the txn tags of its memory requests */
#define KH_SX_TAG_X		0x10
#define KH_SX_TAG_Y		0x20
#define KH_SX_TAG_W		0x30

/* SX fault codes (SIG_FAULT arg) */
#define KH_SX_FAULT_BAD_OP	0xbad00001u	/* opcode other than SAXPY */
#define KH_SX_FAULT_TOO_BIG	0xbad00002u	/* n > KH_SX_N_MAX */

/* CU_DBG: [31:0] elements computed since reset; [63:32] 0, or this tag on
 * the model's FMA variant (not what the card does) */
#define KH_SX_DBG_ELEMS(d)	((__u32)(d))
#define KH_SX_DBG_FMA		0x464d41u	/* "FMA" */

/* ---- null unit: retires everything, result = XOR of the 8 payload words */
#define KH_NULL_NBUF		1
#define KH_NULL_VERSION		0x04	/* noc_cu_null's CU_VERSION at HEAD */

#endif /* _UAPI_KOHAKU_KH_UNITS_H */
