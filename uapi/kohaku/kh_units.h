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

/* ---- SX saxpy unit: one instruction, y[0:n] = a * x[0:n] + y[0:n] ---- */
#define KH_SX_OPCODE		KH_FIELD(255, 248)
#define KH_SX_N			KH_FIELD(247, 224)	/* element count, 24 bits */
#define KH_SX_A			KH_FIELD(223, 192)	/* binary32 bit pattern */
#define KH_SX_X_ADDR		KH_FIELD(191, 128)	/* 40-bit mesh address, 32 B aligned */
#define KH_SX_Y_ADDR		KH_FIELD(127, 64)
#define KH_SX_OP_SAXPY		0x01
#define KH_SX_N_MAX		0xffffff
#define KH_SX_NBUF		1
#define KH_SX_LINE_BYTES	32	/* 8 elements per memory word */

/* SX fault codes (SIG_FAULT arg) */
#define KH_SX_FAULT_OPCODE	1	/* opcode other than SAXPY */
#define KH_SX_FAULT_ALIGN	2	/* x or y not 32-byte aligned */

/* ---- null unit: retires everything, result = XOR of the 8 payload words */
#define KH_NULL_NBUF		1

#endif /* _UAPI_KOHAKU_KH_UNITS_H */
