/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Intrinsics for the POOL cores' vector coprocessor
 * (docs/spec/pool-vector.md): one macro per instruction, emitting the
 * word through the assembler's `.insn` directive (binutils 2.40, Debian
 * 12's riscv64-unknown-elf-as, takes `.insn r/i/s` with numeric opcode,
 * funct3 and funct7), every number from uapi/kohaku/kh_pool_vec.h.
 *
 * Vector, predicate, radix, accumulator, valign and gvr register numbers
 * are compile-time constants (printed as "x<n>": the assembler encodes
 * the number into the field, whatever the field means to the unit).
 * Scalar operands (addresses, values, shifts) are C expressions in "r"
 * operands, so the compiler allocates them; the valign streams advance
 * their address register, so theirs are "+r".
 *
 * The unit must be enabled first: cpenable bit CP1 (CSR 0x7e0), which
 * the boot spine sets on every core (main.c fw_boot_common), so kernels
 * never pay for it.
 *
 * Ordering: every macro is `asm volatile`, so they keep their order among
 * themselves; those that touch memory clobber "memory", so C accesses are
 * not moved across them.  The unit co-issues consecutive vector
 * instructions only (pool-vector.md "Issue and the scoreboard"): a scalar
 * instruction between two ends the bundle.  A schedule that must hold
 * goes into one asm statement (PV_ASM below), where the compiler cannot
 * put anything between.
 */
#ifndef FW_PV_H
#define FW_PV_H

#include <kohaku/kh_pool_vec.h>

#define PV_STR_(x)	#x
#define PV_STR(x)	PV_STR_(x)

/* ---- the raw forms ---- */

/* an R type word, every field a constant */
#define PV_R(opc, f3, f7, rd, rs1, rs2)					\
	asm volatile(".insn r %0, %1, %2, x%3, x%4, x%5"		\
		     : : "i"(opc), "i"(f3), "i"(f7), "i"(rd), "i"(rs1),	\
		       "i"(rs2))

/* ---- custom-0: the vector ALU (funct3 the width) ---- */

#define pv_alu(f7, w, vd, va, vb)	PV_R(KH_PV_OPC_ALU, w, f7, vd, va, vb)
#define pv_vadd(w, vd, va, vb)		pv_alu(KH_PV_VADD, w, vd, va, vb)
#define pv_vsub(w, vd, va, vb)		pv_alu(KH_PV_VSUB, w, vd, va, vb)
#define pv_vand(vd, va, vb)	pv_alu(KH_PV_VAND, KH_PV_W32, vd, va, vb)
#define pv_vor(vd, va, vb)	pv_alu(KH_PV_VOR, KH_PV_W32, vd, va, vb)
#define pv_vxor(vd, va, vb)	pv_alu(KH_PV_VXOR, KH_PV_W32, vd, va, vb)
#define pv_vsll(w, vd, va, vb)		pv_alu(KH_PV_VSLL, w, vd, va, vb)
#define pv_vsrl(w, vd, va, vb)		pv_alu(KH_PV_VSRL, w, vd, va, vb)
#define pv_vsra(w, vd, va, vb)		pv_alu(KH_PV_VSRA, w, vd, va, vb)
#define pv_vmin(w, vd, va, vb)		pv_alu(KH_PV_VMIN, w, vd, va, vb)
#define pv_vmax(w, vd, va, vb)		pv_alu(KH_PV_VMAX, w, vd, va, vb)
#define pv_vminu(w, vd, va, vb)		pv_alu(KH_PV_VMINU, w, vd, va, vb)
#define pv_vmaxu(w, vd, va, vb)		pv_alu(KH_PV_VMAXU, w, vd, va, vb)
#define pv_veq(w, bd, va, vb)		pv_alu(KH_PV_VEQ, w, bd, va, vb)
#define pv_vlt(w, bd, va, vb)		pv_alu(KH_PV_VLT, w, bd, va, vb)
#define pv_vltu(w, bd, va, vb)		pv_alu(KH_PV_VLTU, w, bd, va, vb)
/* vd = b[k] lane bit ? va : vb */
#define pv_vsel(w, vd, va, vb, k)	pv_alu(KH_PV_VSEL + (k), w, vd, va, vb)

/* ---- custom-1: loads, stores (64-byte aligned; rows of 64 bytes) ---- */

/* v[vd] = the 64 bytes at p + rows * 64 */
#define pv_vl(vd, p, rows)						\
	asm volatile(".insn i %0, %1, x%2, %3(%4)"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_VL), "i"(vd),	\
		       "i"(rows),	\
		       "r"(p) : "memory")
/* the 64 bytes at p + rows * 64 = v[vs] */
#define pv_vs(vs, p, rows)						\
	asm volatile(".insn s %0, %1, x%2, %3(%4)"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_VS), "i"(vs),	\
		       "i"(rows), "r"(p) : "memory")

/* ---- custom-1 funct3 2: the moves ---- */

#define pv_move(f7, rd, rs1, rs2)					\
	PV_R(KH_PV_OPC_MEM, KH_PV_F3_MOVE, f7, rd, rs1, rs2)
#define pv_vmv(vd, va)			pv_move(KH_PV_VMV, vd, va, 0)
/* every lane of v[vd] = x mod 2^W */
#define pv_vsplat(w, vd, x)						\
	asm volatile(".insn r %0, %1, %2, x%3, %4, x0"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_MOVE),	\
		       "i"(KH_PV_VSPLAT + (w)), "i"(vd), "r"((u32)(x)))
/* lane i (mod lanes) of v[va], sign- or zero-extended (an 8-cycle gap) */
#define pv_vext_(f7, va, i) ({						\
	u32 __r;							\
	asm volatile(".insn r %1, %2, %3, %0, x%4, %5"			\
		     : "=r"(__r)					\
		     : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_MOVE), "i"(f7),	\
		       "i"(va), "r"((u32)(i)));				\
	__r;								\
})
#define pv_vext(w, va, i)	pv_vext_(KH_PV_VEXT + (w), va, i)
#define pv_vextu(w, va, i)	pv_vext_(KH_PV_VEXTU + (w), va, i)
/* b[bd] / p[pd] = hi:lo */
#define pv_mvx_(f7, d, lo, hi)						\
	asm volatile(".insn r %0, %1, %2, x%3, %4, %5"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_MOVE),	\
		       "i"(f7), "i"(d), "r"((u32)(lo)), "r"((u32)(hi)))
#define pv_vmvxb(bd, lo, hi)		pv_mvx_(KH_PV_VMVXB, bd, lo, hi)
#define pv_vmvxp(pd, lo, hi)		pv_mvx_(KH_PV_VMVXP, pd, lo, hi)
/* FCR / FSR from a scalar */
#define pv_wcsr_(f7, x)							\
	asm volatile(".insn r %0, %1, %2, x0, %3, x0"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_MOVE),	\
		       "i"(f7), "r"((u32)(x)))
#define pv_vwfcr(x)			pv_wcsr_(KH_PV_VWFCR, x)
#define pv_vwfsr(x)			pv_wcsr_(KH_PV_VWFSR, x)
#define pv_rcsr_(f7) ({							\
	u32 __r;							\
	asm volatile(".insn r %1, %2, %3, %0, x0, x0"			\
		     : "=r"(__r)					\
		     : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_MOVE),	\
		       "i"(f7));					\
	__r;								\
})
#define pv_vrfcr()			pv_rcsr_(KH_PV_VRFCR)
#define pv_vrfsr()			pv_rcsr_(KH_PV_VRFSR)
/* third k (0..2) of w[wd] = v[va]; v[vd] = third k of w[wa] */
#define pv_vmvvw(wd, va, k)		pv_move(KH_PV_VMVVW, wd, va, k)
#define pv_vmvwv(vd, wa, k)		pv_move(KH_PV_VMVWV, vd, wa, k)
#define pv_vmvvu(ud, va)		pv_move(KH_PV_VMVVU, ud, va, 0)
#define pv_vmvuv(vd, ua)		pv_move(KH_PV_VMVUV, vd, ua, 0)
#define pv_vmvvg(gd, va)		pv_move(KH_PV_VMVVG, gd, va, 0)
#define pv_vmvgv(vd, ga)		pv_move(KH_PV_VMVGV, vd, ga, 0)

/* ---- custom-1 funct3 3: the valign streams (p advances by 64) ---- */

#define pv_align_(f7, rd, p, rs2)					\
	asm volatile(".insn r %1, %2, %3, x%4, %0, x%5"			\
		     : "+r"(p)						\
		     : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_ALIGN),		\
		       "i"(f7), "i"(rd), "i"(rs2) : "memory")
/* u[ud] = row(p); p += 64 */
#define pv_vlap(ud, p)			pv_align_(KH_PV_VLAP, ud, p, 0)
/* v[vd] = the 64 bytes at the stream's offset; u[ua] moves on; p += 64 */
#define pv_vla(vd, ua, p)		pv_align_(KH_PV_VLA, vd, p, ua)
/* u[ud] = row(p), the head kept */
#define pv_vsap(ud, p)							\
	asm volatile(".insn r %0, %1, %2, x%3, %4, x0"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_ALIGN),	\
		       "i"(KH_PV_VSAP), "i"(ud), "r"(p) : "memory")
/* row(p) = u[ud] head ++ v[vs]; u[ud] = v[vs]'s rest; p += 64 */
#define pv_vsa(vs, ud, p)		pv_align_(KH_PV_VSA, ud, p, vs)
/* the head bytes of row(p) = u[ud]'s, the rest kept */
#define pv_vsaf(ud, p)							\
	asm volatile(".insn r %0, %1, %2, x%3, %4, x0"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(KH_PV_F3_ALIGN),	\
		       "i"(KH_PV_VSAF), "i"(ud), "r"(p) : "memory")

/* ---- custom-1 funct3 4, 5: SuperGather (f3 KH_PV_F3_GS16 / _GS32) ---- */

#define pv_gs_(f3, op, k, rd, base, vo)					\
	asm volatile(".insn r %0, %1, %2, x%3, %4, x%5"			\
		     : : "i"(KH_PV_OPC_MEM), "i"(f3),			\
		       "i"(KH_PV_GS_F7(op, k)), "i"(rd), "r"(base),	\
		       "i"(vo) : "memory")
/* g[gd] lane i = the element at base + v[vo] lane i x size (b[k] lanes) */
#define pv_vgathera(f3, gd, vo, base, k)				\
	pv_gs_(f3, KH_PV_GATHERA, k, gd, base, vo)
/* v[vd] = g[gs] */
#define pv_vgatherd(f3, vd, gs)						\
	PV_R(KH_PV_OPC_MEM, f3, KH_PV_GS_F7(KH_PV_GATHERD, 0), vd, 0, gs)
#define pv_vscatter(f3, vs, vo, base, k)				\
	pv_gs_(f3, KH_PV_SCATTER, k, vs, base, vo)
/* the element at base + v[vo] lane i x size += v[vs] lane i (b[k] lanes) */
#define pv_vscatterinc(f3, vs, vo, base, k)				\
	pv_gs_(f3, KH_PV_SCATTERINC, k, vs, base, vo)

/* ---- custom-2: the quad-MAC and the pack ---- */

/* w[wd] (mode) sum over k of v[va + k] lanes x byte k of p[pr] */
#define pv_vqmac(w, wd, va, pr, mode, flags)				\
	PV_R(KH_PV_OPC_MAC, w, KH_PV_QMAC_F7(mode, flags), wd, va, pr)
/* v[vd] = w[wa]'s lanes >> x, (rounded,) saturated to W */
#define pv_vpack(w, vd, wa, x, round)					\
	asm volatile(".insn r %0, %1, %2, x%3, x%4, %5"			\
		     : : "i"(KH_PV_OPC_MAC), "i"(w),			\
		       "i"(KH_PV_PACK_F7(round)), "i"(vd), "i"(wa),	\
		       "r"((u32)(x)))

/* ---- custom-3: the FPU, Engine A, the permute crossbar ---- */

#define pv_fp(f7, t, vd, va, vb)	PV_R(KH_PV_OPC_FP, t, f7, vd, va, vb)
/* vd = vd + va x vb, one rounding (FCR's mode) */
#define pv_vfmadd(t, vd, va, vb)	pv_fp(KH_PV_FMADD, t, vd, va, vb)
#define pv_vfmsub(t, vd, va, vb)	pv_fp(KH_PV_FMSUB, t, vd, va, vb)
#define pv_vfmul(t, vd, va, vb)		pv_fp(KH_PV_FMUL, t, vd, va, vb)
#define pv_vfadd(t, vd, va, vb)		pv_fp(KH_PV_FADD, t, vd, va, vb)
#define pv_vfsub(t, vd, va, vb)		pv_fp(KH_PV_FSUB, t, vd, va, vb)
#define pv_vffloat(t, vd, va)		pv_fp(KH_PV_FFLOAT, t, vd, va, 0)
#define pv_vftrunc(t, vd, va)		pv_fp(KH_PV_FTRUNC, t, vd, va, 0)
#define pv_vfrecip0(t, vd, va)		pv_fp(KH_PV_FRECIP0, t, vd, va, 0)
#define pv_vfrsqrt0(t, vd, va)		pv_fp(KH_PV_FRSQRT0, t, vd, va, 0)
#define pv_vfrecipq(vd, va)	pv_fp(KH_PV_FRECIPQ, KH_PV_WF32, vd, va, 0)
#define pv_vpsel(w, vd, va, vb)		pv_fp(KH_PV_PSEL, w, vd, va, vb)
#define pv_vpshfl(w, vd, va, vb)	pv_fp(KH_PV_PSHFL, w, vd, va, vb)

#endif /* FW_PV_H */
