/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The POOL cores' vector coprocessor (docs/spec/pool-vector.md, seed 002
 * §1.3, §3, §5, §7): every encoding constant, register count and width,
 * the enable CSR, the trap cause and the latency table, once.  The model
 * (sim-backend/units/pool/vec*.c) and the firmware include this; nothing
 * else defines them.
 *
 * The instructions are RV32 words in the custom major opcodes, R, I or S
 * type (rd [11:7], funct3 [14:12], rs1 [19:15], rs2 [24:20], funct7
 * [31:25]); KH_PV_ENC_*() build them.
 */
#ifndef _UAPI_KOHAKU_KH_POOL_VEC_H
#define _UAPI_KOHAKU_KH_POOL_VEC_H

#include <linux/types.h>

/* ---- architectural state (seed 002 §1.3, §7) ---- */

/**
 * define KH_PV_NVEC - vector registers v0..v31 (seed 002 §1.3, 5 bit field)
 */
#define KH_PV_NVEC		32
/**
 * define KH_PV_VBYTES - bytes of a vector register (512 bits, seed 002 §3.1)
 */
#define KH_PV_VBYTES		64
/**
 * define KH_PV_NVB - predicate registers (vbool) b0..b15, 64 bits each
 */
#define KH_PV_NVB		16
/**
 * define KH_PV_NVALIGN - valign registers u0..u3, 512 bits each
 */
#define KH_PV_NVALIGN		4
/**
 * define KH_PV_NWV - wide accumulators (wvec) w0..w3 (seed 002 §1.3, 2 bit field)
 */
#define KH_PV_NWV		4
/**
 * define KH_PV_WVBYTES - bytes of a wide accumulator (1536 bits = 3 x 512)
 */
#define KH_PV_WVBYTES		192
/**
 * define KH_PV_NGVR - gather/scatter registers g0..g7, 512 bits each
 * (the file also holds FCR and FSR, seed 002 §3.2)
 */
#define KH_PV_NGVR		8
/**
 * define KH_PV_NPR - MAC radix registers (b32_pr) p0..p15, 64 bits each
 */
#define KH_PV_NPR		16

/* ---- enabling (seed 002 §1.2 CP1, §3.2 the precise squash) ---- */

/**
 * define KH_PV_CSR_CPENABLE - the coprocessor enable CSR, read write
 */
#define KH_PV_CSR_CPENABLE	0x7e0
/**
 * define KH_PV_CPENABLE_CP1 - cpenable bit 1, the vector coprocessor (CP1);
 * every other bit reads 0
 */
#define KH_PV_CPENABLE_CP1	(1u << 1)
/**
 * define KH_POOL_CAUSE_CP_DISABLED - trap cause of a vector instruction with
 * CP1 disabled (RISC V's custom cause range 24..31); nothing changes
 */
#define KH_POOL_CAUSE_CP_DISABLED	24

/* ---- the encoding: major opcodes ---- */

/**
 * define KH_PV_OPC_ALU - custom 0, the vector ALU (R type, funct3 = width)
 */
#define KH_PV_OPC_ALU		0x0b
/**
 * define KH_PV_OPC_MEM - custom 1, vector loads, stores and moves
 */
#define KH_PV_OPC_MEM		0x2b
/**
 * define KH_PV_OPC_MAC - custom 2, the integer quad MAC and the pack
 * (R type, funct3 = source width)
 */
#define KH_PV_OPC_MAC		0x5b
/**
 * define KH_PV_OPC_FP - custom 3, the floating point unit (FMA, converts,
 * Engine A's seed tables; funct3 KH_PV_WF32 or KH_PV_WF16) and the permute
 * crossbar (funct3 an integer width)
 */
#define KH_PV_OPC_FP		0x7b

/* ---- lane widths (funct3 of custom-0/custom-2, funct7[1:0] of moves) ---- */

/**
 * define KH_PV_W8 - 64 lanes of 8 bits (the Q7's 2NX8)
 */
#define KH_PV_W8		0
/**
 * define KH_PV_W16 - 32 lanes of 16 bits (NX16)
 */
#define KH_PV_W16		1
/**
 * define KH_PV_W32 - 16 lanes of 32 bits (N_2X32)
 */
#define KH_PV_W32		2
/**
 * define KH_PV_WF32 - 16 lanes of binary32 (the Q7's N_2XF32), custom 3 funct3
 */
#define KH_PV_WF32		4
/**
 * define KH_PV_WF16 - 32 lanes of binary16 (NXF16), custom 3 funct3
 */
#define KH_PV_WF16		5
/**
 * define KH_PV_LANE_BITS - a width code's lane bits, 8, 16, 32
 * @w: a width code, KH_PV_W8..KH_PV_W32
 */
#define KH_PV_LANE_BITS(w)	(8u << (w))
/**
 * define KH_PV_LANES - a width code's lane count, 64, 32, 16
 * @w: a width code
 */
#define KH_PV_LANES(w)		(64u >> (w))
/**
 * define KH_PV_ACC_BITS - accumulator lane bits for a source width code
 * @w: the source width code
 *
 * 24, 48, 96 (seed 002 §3.3).
 */
#define KH_PV_ACC_BITS(w)	(24u << (w))

/* ---- custom-0 funct7: the vector ALU ---- */

/** define KH_PV_VADD - lane add, wrapping */
#define KH_PV_VADD		0x00
/** define KH_PV_VSUB - lane subtract, wrapping */
#define KH_PV_VSUB		0x01
/** define KH_PV_VADDS - signed saturating add */
#define KH_PV_VADDS		0x02
/** define KH_PV_VSUBS - signed saturating subtract */
#define KH_PV_VSUBS		0x03
/** define KH_PV_VADDUS - unsigned saturating add */
#define KH_PV_VADDUS		0x04
/** define KH_PV_VSUBUS - unsigned saturating subtract */
#define KH_PV_VSUBUS		0x05
/** define KH_PV_VAND - bitwise and */
#define KH_PV_VAND		0x08
/** define KH_PV_VOR - bitwise or */
#define KH_PV_VOR		0x09
/** define KH_PV_VXOR - bitwise exclusive or */
#define KH_PV_VXOR		0x0a
/** define KH_PV_VSLL - shift left by the lane's amount mod width */
#define KH_PV_VSLL		0x10
/** define KH_PV_VSRL - logical shift right */
#define KH_PV_VSRL		0x11
/** define KH_PV_VSRA - arithmetic shift right */
#define KH_PV_VSRA		0x12
/** define KH_PV_VMIN - signed minimum */
#define KH_PV_VMIN		0x14
/** define KH_PV_VMAX - signed maximum */
#define KH_PV_VMAX		0x15
/** define KH_PV_VMINU - unsigned minimum */
#define KH_PV_VMINU		0x16
/** define KH_PV_VMAXU - unsigned maximum */
#define KH_PV_VMAXU		0x17
/** define KH_PV_VEQ - compare equal into predicate b[rd] */
#define KH_PV_VEQ		0x20
/** define KH_PV_VNE - compare not equal */
#define KH_PV_VNE		0x21
/** define KH_PV_VLT - compare signed less than */
#define KH_PV_VLT		0x22
/** define KH_PV_VLE - compare signed less or equal */
#define KH_PV_VLE		0x23
/** define KH_PV_VLTU - compare unsigned less than */
#define KH_PV_VLTU		0x24
/** define KH_PV_VLEU - compare unsigned less or equal */
#define KH_PV_VLEU		0x25
/**
 * define KH_PV_VDIV4U - four unsigned restoring divide steps on 32-bit
 * lanes (width KH_PV_W32 only): lane = R[31:16] : Q[15:0] of va, divisor
 * the low 16 bits of vb's lane (the seed's DIVN_2X32X16U_4STEPN)
 */
#define KH_PV_VDIV4U		0x30
/** define KH_PV_VSEL - predicated select, funct7 = KH_PV_VSEL + predicate */
#define KH_PV_VSEL		0x40

/* ---- custom-1: funct3 forms, and funct7 of the moves (funct3 2) ---- */

/** define KH_PV_F3_VL - vector load, I type, imm12 counts 64 byte rows */
#define KH_PV_F3_VL		0
/** define KH_PV_F3_VS - vector store, S type, imm12 counts 64 byte rows */
#define KH_PV_F3_VS		1
/** define KH_PV_F3_MOVE - the moves, R type, funct7 below */
#define KH_PV_F3_MOVE		2
/** define KH_PV_VMV - v[rd] = v[rs1] */
#define KH_PV_VMV		0x00
/** define KH_PV_VSPLAT - + width, every lane of v[rd] = x[rs1] */
#define KH_PV_VSPLAT		0x04
/** define KH_PV_VEXT - + width, x[rd] = lane x[rs2] of v[rs1], sign extended */
#define KH_PV_VEXT		0x08
/** define KH_PV_VEXTU - + width, the same, zero extended */
#define KH_PV_VEXTU		0x0c
/** define KH_PV_VMVXB - b[rd] = x[rs2],x[rs1] */
#define KH_PV_VMVXB		0x10
/** define KH_PV_VMVBX - x[rd] = half rs2 (0 low, 1 high) of b[rs1] */
#define KH_PV_VMVBX		0x11
/** define KH_PV_VMVXP - p[rd] = x[rs2],x[rs1] */
#define KH_PV_VMVXP		0x12
/** define KH_PV_VMVPX - x[rd] = half rs2 of p[rs1] */
#define KH_PV_VMVPX		0x13
/**
 * define KH_PV_F3_ALIGN - custom 1 funct3 3: the valign streams (R type,
 * funct7 below; x[rs1] the address, advanced by 64 where said)
 */
#define KH_PV_F3_ALIGN		3
/** define KH_PV_VLAP - prime a load stream: u[rd] = row(x[rs1]); x[rs1] += 64 */
#define KH_PV_VLAP		0x00
/**
 * define KH_PV_VLA - v[rd] = 64 bytes from x[rs1] - 64 (unaligned) out of
 * u[rs2] and row(x[rs1]); u[rs2] = that row; x[rs1] += 64
 */
#define KH_PV_VLA		0x01
/** define KH_PV_VSAP - prime a store stream: u[rd] = row(x[rs1]) */
#define KH_PV_VSAP		0x02
/**
 * define KH_PV_VSA - row(x[rs1]) = u[rd] head ++ v[rs2]; u[rd] = v[rs2]'s
 * rest; x[rs1] += 64
 */
#define KH_PV_VSA		0x03
/** define KH_PV_VSAF - flush: row(x[rs1]) head bytes = u[rd]'s, the rest kept */
#define KH_PV_VSAF		0x04
/**
 * define KH_PV_F3_GS16 - custom 1 funct3 4: SuperGather on 32 lanes of
 * 16 bits (R type, funct7 = op << 4 | predicate)
 */
#define KH_PV_F3_GS16		4
/** define KH_PV_F3_GS32 - custom 1 funct3 5: SuperGather on 16 lanes of 32 bits */
#define KH_PV_F3_GS32		5
/** define KH_PV_GS_OP - a SuperGather funct7's op, [6:4] */
#define KH_PV_GS_OP(f7)		(((f7) >> 4) & 7u)
/** define KH_PV_GS_PRED - a SuperGather funct7's predicate b[k], [3:0] */
#define KH_PV_GS_PRED(f7)	((f7) & 15u)
/**
 * define KH_PV_GATHERA - A phase: g[rd] lane i = element at x[rs1] +
 * v[rs2] lane i x size, for lanes whose predicate bit is set (else 0)
 */
#define KH_PV_GATHERA		0
/** define KH_PV_GATHERD - D phase: v[rd] = g[rs2]; rs1 = 0, predicate 0 */
#define KH_PV_GATHERD		1
/** define KH_PV_SCATTER - element at x[rs1] + v[rs2] lane i x size = v[rd] lane i */
#define KH_PV_SCATTER		2
/** define KH_PV_SCATTERINC - element at x[rs1] + v[rs2] lane i x size += v[rd] lane i */
#define KH_PV_SCATTERINC	3
/**
 * define KH_PV_GS_F7 - a SuperGather funct7
 * @op: KH_PV_GATHERA ... KH_PV_SCATTERINC
 * @pred: the predicate register, 0..15
 */
#define KH_PV_GS_F7(op, pred)	(((op) << 4) | ((pred) & 15u))
/** define KH_PV_VRFCR - x[rd] = FCR (the seed's RUR FCR) */
#define KH_PV_VRFCR		0x14
/** define KH_PV_VWFCR - FCR = x[rs1], its defined bits (WUR FCR) */
#define KH_PV_VWFCR		0x15
/** define KH_PV_VRFSR - x[rd] = FSR */
#define KH_PV_VRFSR		0x16
/** define KH_PV_VWFSR - FSR = x[rs1], its defined bits */
#define KH_PV_VWFSR		0x17
/** define KH_PV_VMVVW - third rs2 (0..2) of w[rd] = v[rs1] (save, restore) */
#define KH_PV_VMVVW		0x18
/** define KH_PV_VMVWV - v[rd] = third rs2 (0..2) of w[rs1] */
#define KH_PV_VMVWV		0x19
/** define KH_PV_VMVVU - valign u[rd] = v[rs1] */
#define KH_PV_VMVVU		0x1a
/** define KH_PV_VMVUV - v[rd] = valign u[rs1] */
#define KH_PV_VMVUV		0x1b
/** define KH_PV_VMVVG - gvr g[rd] = v[rs1] */
#define KH_PV_VMVVG		0x1c
/** define KH_PV_VMVGV - v[rd] = gvr g[rs1] */
#define KH_PV_VMVGV		0x1d
/** define KH_PV_MEM_ALIGN - a vector access's alignment, bytes */
#define KH_PV_MEM_ALIGN		64

/* ---- custom-2 funct7: the quad-MAC and the pack ---- */

/**
 * define KH_PV_MAC_OP - funct7[6,4], 0 quad MAC, 1 pack
 * @f7: a custom 2 funct7
 */
#define KH_PV_MAC_OP(f7)	(((f7) >> 4) & 7u)
/** define KH_PV_VQMAC - funct7[6,4] of vqmac */
#define KH_PV_VQMAC		0
/** define KH_PV_VPACK - funct7[6,4] of vpack */
#define KH_PV_VPACK		1
/** define KH_PV_MAC_SET - vqmac overwrites the lane (mode, funct7[1,0]) */
#define KH_PV_MAC_SET		0
/** define KH_PV_MAC_ADD - vqmac adds to the lane */
#define KH_PV_MAC_ADD		1
/** define KH_PV_MAC_SUB - vqmac subtracts from the lane */
#define KH_PV_MAC_SUB		2
/** define KH_PV_MAC_UT - funct7[2], the taps are unsigned */
#define KH_PV_MAC_UT		(1u << 2)
/** define KH_PV_MAC_US - funct7[3], the radix bytes are unsigned */
#define KH_PV_MAC_US		(1u << 3)
/** define KH_PV_PACK_ROUND - vpack funct7[0], round half up (else floor) */
#define KH_PV_PACK_ROUND	(1u << 0)
/**
 * define KH_PV_QMAC_F7 - vqmac's funct7 from mode and signedness flags
 * @mode: KH_PV_MAC_SET, _ADD or _SUB
 * @flags: KH_PV_MAC_UT, KH_PV_MAC_US or 0
 */
#define KH_PV_QMAC_F7(mode, flags)	(((mode) & 3u) | (flags))
/**
 * define KH_PV_PACK_F7 - vpack's funct7 (round, 0 or KH_PV_PACK_ROUND)
 * @round: KH_PV_PACK_ROUND or 0
 */
#define KH_PV_PACK_F7(round)	((KH_PV_VPACK << 4) | (round))

/* ---- FCR and FSR (seed 002 §3.2: the movscfv pack's bit positions) ---- */

/** define KH_PV_FCR_RM_SHIFT - FCR[9:8], the round mode */
#define KH_PV_FCR_RM_SHIFT	8
/** define KH_PV_FCR_RM - FCR's round mode field */
#define KH_PV_FCR_RM		(3u << KH_PV_FCR_RM_SHIFT)
/** define KH_PV_RM_RNE - round to nearest, ties to even (reset) */
#define KH_PV_RM_RNE		0
/** define KH_PV_RM_RTZ - round toward zero */
#define KH_PV_RM_RTZ		1
/** define KH_PV_RM_RUP - round toward +infinity */
#define KH_PV_RM_RUP		2
/** define KH_PV_RM_RDN - round toward -infinity */
#define KH_PV_RM_RDN		3
/** define KH_PV_FX_INVALID - the Invalid flag: FSR bit 10, FCR enable bit 2 */
#define KH_PV_FX_INVALID	(1u << 0)
/** define KH_PV_FX_DIVZERO - DivZero: FSR bit 11, enable bit 3 */
#define KH_PV_FX_DIVZERO	(1u << 1)
/** define KH_PV_FX_OVERFLOW - Overflow: FSR bit 12, enable bit 4 */
#define KH_PV_FX_OVERFLOW	(1u << 2)
/** define KH_PV_FX_UNDERFLOW - Underflow: FSR bit 13, enable bit 5 */
#define KH_PV_FX_UNDERFLOW	(1u << 3)
/** define KH_PV_FX_INEXACT - Inexact: FSR bit 14, enable bit 6 */
#define KH_PV_FX_INEXACT	(1u << 4)
/** define KH_PV_FX_ALL - the five flags, as KH_PV_FX_* bits */
#define KH_PV_FX_ALL		0x1fu
/** define KH_PV_FCR_EN_SHIFT - FCR[6:2], the five enables (KH_PV_FX_* << 2) */
#define KH_PV_FCR_EN_SHIFT	2
/** define KH_PV_FSR_FX_SHIFT - FSR[14:10], the five sticky flags */
#define KH_PV_FSR_FX_SHIFT	10
/** define KH_PV_FCR_MASK - FCR's defined bits: round mode and enables */
#define KH_PV_FCR_MASK		(KH_PV_FCR_RM | KH_PV_FX_ALL << KH_PV_FCR_EN_SHIFT)
/** define KH_PV_FSR_MASK - FSR's defined bits: the flags */
#define KH_PV_FSR_MASK		(KH_PV_FX_ALL << KH_PV_FSR_FX_SHIFT)

/* ---- custom-3 funct7 with funct3 KH_PV_WF32 / KH_PV_WF16: the FPU ---- */

/** define KH_PV_FMADD - vd = vd + va * vb, one rounding (the FMA) */
#define KH_PV_FMADD		0x00
/** define KH_PV_FMSUB - vd = vd - va * vb, one rounding */
#define KH_PV_FMSUB		0x01
/** define KH_PV_FMUL - vd = va * vb */
#define KH_PV_FMUL		0x02
/** define KH_PV_FADD - vd = va + vb */
#define KH_PV_FADD		0x03
/** define KH_PV_FSUB - vd = va - vb */
#define KH_PV_FSUB		0x04
/** define KH_PV_FNOFLAGS - funct7[3]: the N form, raises no FSR flag */
#define KH_PV_FNOFLAGS		0x08
/** define KH_PV_FFLOAT - vd = signed integer lanes of va converted, FCR rounding */
#define KH_PV_FFLOAT		0x10
/** define KH_PV_FUFLOAT - the same from unsigned integer lanes */
#define KH_PV_FUFLOAT		0x11
/** define KH_PV_FTRUNC - vd = va's lanes to signed integers toward zero, saturated */
#define KH_PV_FTRUNC		0x12
/** define KH_PV_FTRUNCU - the same to unsigned integers */
#define KH_PV_FTRUNCU		0x13
/**
 * define KH_PV_FCVT - SP: vd = binary16 lanes 0..15 of va widened;
 * HP: vd = lanes of va (0..15) then vb (16..31), binary32 narrowed
 */
#define KH_PV_FCVT		0x14
/** define KH_PV_FRECIP0 - Engine A: the reciprocal seed (RECIP_Data8) */
#define KH_PV_FRECIP0		0x20
/** define KH_PV_FRSQRT0 - Engine A: the reciprocal square root seed */
#define KH_PV_FRSQRT0		0x21
/** define KH_PV_FRECIPQ - the reciprocal's QLI refine (binary32 only) */
#define KH_PV_FRECIPQ		0x22

/* ---- custom-3 funct7 with an integer width: the permute crossbar ---- */

/** define KH_PV_PSEL - SEL 2N->N: vd[i] = (va ++ vb)[vd[i] mod 2N] */
#define KH_PV_PSEL		0x00
/** define KH_PV_PSHFL - SHFL N->N: vd[i] = va[vb[i] mod N] */
#define KH_PV_PSHFL		0x01
/** define KH_PV_PDSEL - DSEL: v[rd] = even lanes of va ++ vb, v[rd+1] = odd */
#define KH_PV_PDSEL		0x02
/** define KH_PV_PDILV - DSEL's inverse: v[rd], v[rd+1] = va, vb interleaved */
#define KH_PV_PDILV		0x03
/** define KH_PV_PCMPRS - DCMPRS + k: va's lanes with b[k] set, left packed */
#define KH_PV_PCMPRS		0x10

/* ---- building the words ---- */

/**
 * define KH_PV_ENC_R - an R type word
 * @opc: the major opcode
 * @f7: funct7
 * @rs2: rs2
 * @rs1: rs1
 * @f3: funct3
 * @rd: rd
 */
#define KH_PV_ENC_R(opc, f7, rs2, rs1, f3, rd)				\
	((((__u32)(f7) & 0x7f) << 25) | (((__u32)(rs2) & 0x1f) << 20) |	\
	 (((__u32)(rs1) & 0x1f) << 15) | (((__u32)(f3) & 7) << 12) |	\
	 (((__u32)(rd) & 0x1f) << 7) | (opc))
/**
 * define KH_PV_ENC_VL - vl vd, rows*64(rs1)
 * @vd: the vector destination
 * @rs1: the scalar base
 * @rows: the signed offset in 64 byte rows
 */
#define KH_PV_ENC_VL(vd, rs1, rows)					\
	((((__u32)(rows) & 0xfff) << 20) | (((__u32)(rs1) & 0x1f) << 15) | \
	 (KH_PV_F3_VL << 12) | (((__u32)(vd) & 0x1f) << 7) | KH_PV_OPC_MEM)
/**
 * define KH_PV_ENC_VS - vs vs, rows*64(rs1)
 * @vs: the vector stored
 * @rs1: the scalar base
 * @rows: the signed offset in 64 byte rows
 */
#define KH_PV_ENC_VS(vs, rs1, rows)					\
	(((((__u32)(rows) >> 5) & 0x7f) << 25) |			\
	 (((__u32)(vs) & 0x1f) << 20) | (((__u32)(rs1) & 0x1f) << 15) |	\
	 (KH_PV_F3_VS << 12) | (((__u32)(rows) & 0x1f) << 7) | KH_PV_OPC_MEM)
/**
 * define KH_PV_ENC_ALIGN - a valign stream op
 * @f7: KH_PV_VLAP ... KH_PV_VSAF
 * @rd: rd (a vector or valign register, per op)
 * @rs1: the address register
 * @rs2: rs2 (per op)
 */
#define KH_PV_ENC_ALIGN(f7, rd, rs1, rs2)				\
	KH_PV_ENC_R(KH_PV_OPC_MEM, f7, rs2, rs1, KH_PV_F3_ALIGN, rd)
/**
 * define KH_PV_ENC_GS - a SuperGather op
 * @f3: KH_PV_F3_GS16 or KH_PV_F3_GS32
 * @op: KH_PV_GATHERA ... KH_PV_SCATTERINC
 * @pred: the predicate register
 * @rd: g[rd] (gathera), v[rd] (the others: data)
 * @rs1: the base address register (0 for gatherd)
 * @rs2: the offset vector (g[rs2] for gatherd)
 */
#define KH_PV_ENC_GS(f3, op, pred, rd, rs1, rs2)			\
	KH_PV_ENC_R(KH_PV_OPC_MEM, KH_PV_GS_F7(op, pred), rs2, rs1, f3, rd)
/**
 * define KH_PV_ENC_ALU - a custom 0 op on width w
 * @f7: the operation
 * @w: the width code
 * @vd: destination (a predicate for compares)
 * @va: first source
 * @vb: second source
 */
#define KH_PV_ENC_ALU(f7, w, vd, va, vb)				\
	KH_PV_ENC_R(KH_PV_OPC_ALU, f7, vb, va, w, vd)
/**
 * define KH_PV_ENC_MOVE - a custom 1 move
 * @f7: the move
 * @rd: rd
 * @rs1: rs1
 * @rs2: rs2
 */
#define KH_PV_ENC_MOVE(f7, rd, rs1, rs2)				\
	KH_PV_ENC_R(KH_PV_OPC_MEM, f7, rs2, rs1, KH_PV_F3_MOVE, rd)
/**
 * define KH_PV_ENC_QMAC - vqmac.w w[wd], v[va..va+3], p[pr]
 * @w: the source width code
 * @wd: the accumulator
 * @va: the first of four tap registers
 * @pr: the radix register
 * @mode: KH_PV_MAC_SET, _ADD or _SUB
 * @flags: KH_PV_MAC_UT, KH_PV_MAC_US or 0
 */
#define KH_PV_ENC_QMAC(w, wd, va, pr, mode, flags)			\
	KH_PV_ENC_R(KH_PV_OPC_MAC, KH_PV_QMAC_F7(mode, flags), pr, va, w, wd)
/**
 * define KH_PV_ENC_FP - a custom 3 op
 * @f7: the operation (KH_PV_F* or KH_PV_P*)
 * @w: funct3: KH_PV_WF32 / KH_PV_WF16, or an integer width for a permute
 * @vd: destination
 * @va: first source
 * @vb: second source
 */
#define KH_PV_ENC_FP(f7, w, vd, va, vb)					\
	KH_PV_ENC_R(KH_PV_OPC_FP, f7, vb, va, w, vd)
/**
 * define KH_PV_ENC_PACK - vpack.w v[vd], w[wa], x[xs]
 * @w: the width code
 * @vd: the vector destination
 * @wa: the accumulator
 * @xs: the scalar holding the shift
 * @round: KH_PV_PACK_ROUND or 0
 */
#define KH_PV_ENC_PACK(w, vd, wa, xs, round)				\
	KH_PV_ENC_R(KH_PV_OPC_MAC, KH_PV_PACK_F7(round), xs, wa, w, vd)

/* ---- timing (seed 002 §2.3, §5.1, §7): result stages, as data ---- */

/** define KH_PV_STAGE_READ - vector operands are read at stage 10 */
#define KH_PV_STAGE_READ	10
/** define KH_PV_STAGE_WREAD - the wide accumulator is read (and written) at 12 */
#define KH_PV_STAGE_WREAD	12
/** define KH_PV_STAGE_FSR - FSR's sticky flags accumulate at stage 14 */
#define KH_PV_STAGE_FSR		14
/** define KH_PV_STAGE_LOAD - a vector load's result */
#define KH_PV_STAGE_LOAD	10
/** define KH_PV_STAGE_ALU - vector ALU, moves, compares, select */
#define KH_PV_STAGE_ALU		11
/** define KH_PV_STAGE_STORE - a vector store commits */
#define KH_PV_STAGE_STORE	11
/** define KH_PV_STAGE_MAC - quad MAC (the wvec (12,12) read modify write) */
#define KH_PV_STAGE_MAC		12
/** define KH_PV_STAGE_PACK - vpack (inferred, the wvec port's stage) */
#define KH_PV_STAGE_PACK	12
/** define KH_PV_STAGE_PERM - permute crossbar */
#define KH_PV_STAGE_PERM	12
/** define KH_PV_STAGE_DIVREAD - a divide step reads its inputs early, at 8 */
#define KH_PV_STAGE_DIVREAD	8
/** define KH_PV_STAGE_DIVSTEP - a divide step's result */
#define KH_PV_STAGE_DIVSTEP	12
/** define KH_PV_STAGE_TRUNC - the seed's TRUNC class (vftrunc, vftruncu) */
#define KH_PV_STAGE_TRUNC	12
/** define KH_PV_STAGE_TAB - Engine A's seed lookup (vr@10 -> vt@12) */
#define KH_PV_STAGE_TAB		12
/** define KH_PV_STAGE_FMA - SP/HP FMA */
#define KH_PV_STAGE_FMA		13
/** define KH_PV_STAGE_CVT - converts (vffloat, vfufloat, vfcvt) */
#define KH_PV_STAGE_CVT		13
/** define KH_PV_V2S_GAP - vector to scalar transfer gap, cycles (~8) */
#define KH_PV_V2S_GAP		8
/** define KH_PV_STAGE_V2S - the stage code recorded for vector to scalar moves */
#define KH_PV_STAGE_V2S		(KH_PV_STAGE_READ + KH_PV_V2S_GAP)

#endif /* _UAPI_KOHAKU_KH_POOL_VEC_H */
