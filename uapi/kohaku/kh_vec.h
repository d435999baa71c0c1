/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The KohakuTPU vector core `vec_cu` / `vec_core` (map token `vec`,
 * cu_type 'VC', KH_CU_VC in kh_units.h): every encoding constant, once.
 * docs/spec/vec.md is the unit as the device model has it; the RTL
 * (src/kohakutpu/vector/vec_cu.v, vec_core.v, vec_agu.v, vec_cvt.v,
 * vec_alu.v, vec_lanes.v of KohakuBlueleaf/KohakuTPU 7703ee8) is the truth.
 *
 * Two encodings: the 256-bit CU_INST payload that loads and starts a
 * kernel (IMEM, DESC, RUN), and the 32-bit kernel word in the core's
 * instruction memory.  CU_INST fields are KH_FIELD(hi, lo) of the whole
 * flit for kh_flit_get(); kernel-word fields are KH_VEC_W(hi, lo) of the
 * 32-bit word, read with KH_VEC_GET().
 */
#ifndef _UAPI_KOHAKU_KH_VEC_H
#define _UAPI_KOHAKU_KH_VEC_H

#include <linux/types.h>
#include <kohaku/kh_flit.h>

/* ---- identity (CU_CAPS) ---- */
/**
 * define KH_VEC_NBUF - CU_CAPS n_buffers, as the RTL reports it
 *
 * vec_cu.v line 137.  The unit accepts CU_DATA into buffer 0 only (the flat L1,
 * KH_VEC_CU_DATA_BUFS); 2 is what the RTL's parameter says, not how many
 * buffers there are.
 */
#define KH_VEC_NBUF		2
/* CU_CAPS [47:40]: vec_cu wires CU_VERSION 8'h04 into its base (vec_cu.v:137) */
#define KH_VEC_VERSION		0x04
#define KH_VEC_CU_DATA_BUFS	1	/* buffers actually accepted: 0 */

/**
 * DOC: CU_INST payload
 *
 * vec_cu.v:157-164.  Opcode [255:252]: IMEM [251:243] address and [31:0]
 * word; DESC [251:249] descriptor, [248:246] field, value [33:0] at
 * [245:212] and [39:34] at [68:63]; RUN [251:243] start pc.
 */
#define KH_VEC_CU_OP		KH_FIELD(255, 252)
#define KH_VEC_CU_ADDR		KH_FIELD(251, 243)	/* IMEM word / RUN start pc */
#define KH_VEC_CU_WORD		KH_FIELD(31, 0)		/* IMEM: the kernel word */
#define KH_VEC_CU_AD		KH_FIELD(251, 249)	/* DESC: descriptor 0-7 */
#define KH_VEC_CU_FLD		KH_FIELD(248, 246)	/* DESC: field */
#define KH_VEC_CU_VAL_LO	KH_FIELD(245, 212)	/* DESC: value [33:0] */
#define KH_VEC_CU_VAL_HI	KH_FIELD(68, 63)	/* DESC: value [39:34] */
#define KH_VEC_CU_VAL_LO_BITS	34

#define KH_VEC_CU_IMEM		1	/* write one IMEM word; retires, result 0 */
#define KH_VEC_CU_DESC		2	/* write one descriptor field; result 0 */
#define KH_VEC_CU_RUN		3	/* run from pc; retires at VHALT */
/* every other CU opcode (0, 4-15) retires as a no-op with result 0 */

/* DESC fields: 0 the base (40 bits), 1-4 dimension k-1; 5-7 ignored */
#define KH_VEC_FLD_BASE		0
#define KH_VEC_FLD_DIM(k)	(1 + (k))
#define KH_VEC_DIMS		4
#define KH_VEC_DIM_STRIDE_SHIFT	16
#define KH_VEC_DIM_STRIDE_MASK	0x3ffffULL
#define KH_VEC_DIM_BOUND_MASK	0xffffULL
/**
 * KH_VEC_DIM - a DESC dimension value
 * @stride: signed, 18 bits, in the walk's units (bytes for VFILL/VDRAIN,
 *	L1 words otherwise).
 * @bound: entries, 16 bits; 0 reads as 1.
 */
#define KH_VEC_DIM(stride, bound) \
	((((__u64)(stride) & KH_VEC_DIM_STRIDE_MASK) << KH_VEC_DIM_STRIDE_SHIFT) | \
	 ((__u64)(bound) & KH_VEC_DIM_BOUND_MASK))

/* ---- machine sizes ---- */
#define KH_VEC_IMEM_WORDS	512
#define KH_VEC_L1_WORDS		512	/* 256-bit words: 16 KiB */
#define KH_VEC_DESCS		8
#define KH_VEC_VREGS		16
#define KH_VEC_SREGS		16
#define KH_VEC_KREGS		4
#define KH_VEC_PREGS		4
#define KH_VEC_VLMAX		128
#define KH_VEC_LANES		16	/* elements per register chunk */
#define KH_VEC_WALK_MAX		256	/* VFILL/VDRAIN entries; more is F_LEN */
#define KH_VEC_WORD_BYTES	32

/**
 * DOC: the kernel word
 *
 * vec_core.v:247-263.  A field is KH_VEC_W(hi, lo) of the 32-bit word;
 * KH_VEC_GET() reads one, KH_VEC_PUT() places a value in one.
 */
#define KH_VEC_W(hi, lo)	(((hi) << 8) | (lo))
#define KH_VEC_GET(w, f) \
	(((__u32)(w) >> ((f) & 0xff)) & \
	 ((2u << (((f) >> 8) - ((f) & 0xff))) - 1u))
#define KH_VEC_PUT(f, v) \
	(((__u32)(v) & ((2u << (((f) >> 8) - ((f) & 0xff))) - 1u)) << ((f) & 0xff))

#define KH_VEC_OP		KH_VEC_W(31, 27)
#define KH_VEC_SA		KH_VEC_W(26, 25)	/* operand sources (ALU) */
#define KH_VEC_SB		KH_VEC_W(24, 23)
#define KH_VEC_SC		KH_VEC_W(22, 21)
#define KH_VEC_VD		KH_VEC_W(20, 17)
#define KH_VEC_VA		KH_VEC_W(16, 13)
#define KH_VEC_VB		KH_VEC_W(12, 9)
#define KH_VEC_VC		KH_VEC_W(8, 5)
#define KH_VEC_PR		KH_VEC_W(4, 3)		/* predicate register */
#define KH_VEC_PM		KH_VEC_W(2, 1)		/* predicate mode */
/* the addressed overlay: VLD, VST, VCVT, VSHUF, VBCAST, VFILL, VDRAIN */
#define KH_VEC_DT		KH_VEC_W(26, 24)
#define KH_VEC_AD		KH_VEC_W(23, 21)
#define KH_VEC_OFF		KH_VEC_W(13, 0)		/* signed; VFILL/VDRAIN: L1 word [8:0] */
/* VDRAIN's peer overlay (vec_core.v:259-263) */
#define KH_VEC_ND		KH_VEC_W(24, 24)	/* 1: sink is a node (CU_DATA) */
#define KH_VEC_ND_SIG		KH_VEC_W(25, 25)	/* signal_on_complete */
#define KH_VEC_ND_X		KH_VEC_W(20, 17)
#define KH_VEC_ND_Y		KH_VEC_W(16, 13)
#define KH_VEC_ND_BUF		KH_VEC_W(12, 9)
/* VLOOP: count S[va], body vb words; VSETMODE: mode in va[1:0] */

/* operand sources */
#define KH_VEC_SRC_V		0
#define KH_VEC_SRC_S		1
#define KH_VEC_SRC_C		2	/* the chain: not at a chain head */
#define KH_VEC_SRC_K		3

/* predicate modes: 0 every lane, 1 where P[pr], 2 and 3 where !P[pr] */
#define KH_VEC_PM_ALL		0
#define KH_VEC_PM_TRUE		1
#define KH_VEC_PM_FALSE		2

/* VMODE (vec_core.v:96, vec_lanes.v:87) */
#define KH_VEC_MODE_FLAT	0
#define KH_VEC_MODE_D2		1
#define KH_VEC_MODE_D4		2
#define KH_VEC_MODE_TREE	3

/* memory dtypes (vec_cvt.v:159) */
#define KH_VEC_DT_FP16		1
#define KH_VEC_DT_FP32		2

/* VRED kinds, in the vc field */
#define KH_VEC_RED_SUM		0
#define KH_VEC_RED_MAX		1
#define KH_VEC_RED_MIN		2
#define KH_VEC_RED_SUMSQ	3
#define KH_VEC_RED_DOT		4
#define KH_VEC_RED_EXPSUM	5
#define KH_VEC_RED_ANY		6
#define KH_VEC_RED_ALL		7

/* kernel opcodes */
#define KH_VEC_VMOV		0x00
#define KH_VEC_VNEG		0x01
#define KH_VEC_VABS		0x02
#define KH_VEC_VADD		0x03
#define KH_VEC_VSUB		0x04
#define KH_VEC_VMUL		0x05
#define KH_VEC_VFMA		0x06
#define KH_VEC_VFNMA		0x07
#define KH_VEC_VMAX		0x08
#define KH_VEC_VMIN		0x09
#define KH_VEC_VSEL		0x0a
#define KH_VEC_VCMPLT		0x0b
#define KH_VEC_VCMPGT		0x0c
#define KH_VEC_VCMPEQ		0x0d
#define KH_VEC_VEXP2		0x0e
#define KH_VEC_VLOG2		0x0f
#define KH_VEC_VINV		0x10
#define KH_VEC_VRSQRT		0x11
#define KH_VEC_VCVT		0x12
#define KH_VEC_VRED		0x13
#define KH_VEC_VLD		0x14
#define KH_VEC_VST		0x15
#define KH_VEC_VBCAST		0x16
#define KH_VEC_VSHUF		0x17
#define KH_VEC_VSETVL		0x18
#define KH_VEC_VSETMODE		0x19
#define KH_VEC_VSETI		0x1a
#define KH_VEC_VLOOP		0x1b
#define KH_VEC_VBAR		0x1c
#define KH_VEC_VFILL		0x1d
#define KH_VEC_VDRAIN		0x1e
#define KH_VEC_VHALT		0x1f
#define KH_VEC_IS_ALU(op)	((op) <= KH_VEC_VRSQRT)

/**
 * DOC: E8M15
 *
 * The lanes' 24-bit format {s, e[7:0], m[14:0]}: FP32's top 24 bits; e = 0
 * is zero whatever m holds, e = 255 infinity or NaN; no subnormals.
 */
#define KH_E8_SIGN		0x800000u
#define KH_E8_EXP_SHIFT		15
#define KH_E8_EXP_MASK		0xffu
#define KH_E8_MAN_MASK		0x7fffu
#define KH_E8_ONE		0x3f8000u	/* 1.0; K1 at reset */
#define KH_E8_MINUS_ONE		0xbf8000u	/* K2 at reset */
#define KH_E8_NAN		0x7fc000u	/* every NaN an ALU produces */
#define KH_E8_PINF		0x7f8000u

/**
 * DOC: fault codes
 *
 * The SIG_FAULT arg of a RUN.  1-9 are vec_core.v:107-109's.  0x80 and up
 * are the device model's own: a kernel that needs something the model does
 * not model faults with one of them instead of computing a guess
 * (docs/spec/vec.md "Not modelled").
 */
#define KH_VEC_F_DTYPE		1	/* VLD/VST/VCVT dtype not FP16/FP32 */
#define KH_VEC_F_VSRC		2	/* a later chain stage named a V source */
#define KH_VEC_F_CHAIN		3	/* an ALU op's source is C (the chain) */
#define KH_VEC_F_OPCODE		4	/* VRED SUM..EXPSUM outside TREE */
#define KH_VEC_F_LEN		5	/* VFILL/VDRAIN walk > 256 entries */
#define KH_VEC_F_LOOP		6	/* VLOOP inside an active loop */
#define KH_VEC_F_VL		7	/* VSETVL of 0 or > 128 */
#define KH_VEC_F_REDVL		8	/* VRED SUM..EXPSUM with VL % 16 != 0 */
#define KH_VEC_F_CUDATA		9	/* a CU_DATA burst was rejected */
#define KH_VEC_F_NM_CHAIN	0x80	/* ALU op in TREE mode */
#define KH_VEC_F_NM_SEED	0x81	/* VEXP2, VLOG2, VINV, VRSQRT (or 0x12-0x13 as a chain stage) */
#define KH_VEC_F_NM_TREE	0x82	/* VRED EXPSUM in TREE mode */
/* 0x83 unused */
#define KH_VEC_F_NM_PHAZ	0x84	/* predicate read while a compare's write is in flight */
#define KH_VEC_F_NM_VST32	0x85	/* FP32 VST while a fill or CU_DATA may land */

/* ---- the MAG traffic it sends (vec_cu.v:385-430) ---- */
#define KH_VEC_WR_TXN		0x01	/* every MEM_WR_REQ / MEM_WR_DATA */
/* a fill's MEM_RD_REQ carries L1 word [7:0] as txn; [8] is kept per tag */

#endif /* _UAPI_KOHAKU_KH_VEC_H */
