// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * pv.h against kh_pool_vec.h: every intrinsic, as the assembler encodes
 * it, next to the word the uapi's KH_PV_ENC_* macros build for the same
 * operands.  firmware/tools/pv-enc-check.sh compares the instructions
 * between pv_enc_begin and pv_enc_end with the table pv_enc_want, word
 * for word; `make firmware` runs it, so an intrinsic that drifts from the
 * encoding stops the build.  Never run: it is only assembled.
 *
 * The scalar operands sit in fixed registers (a0 = x10, a1 = x11, the
 * results a2 = x12), so that the expected words can name them.
 */
#include "fw.h"
#include "pv.h"

#define A0	10
#define A1	11
#define A2	12
#define MV(f7, rd, rs1, rs2)	KH_PV_ENC_MOVE(f7, rd, rs1, rs2)
#define GS(f3, op, k, rd, rs1, rs2)	KH_PV_ENC_GS(f3, op, k, rd, rs1, rs2)

const u32 pv_enc_want[] = {
	KH_PV_ENC_ALU(KH_PV_VADD, KH_PV_W8, 1, 2, 3),
	KH_PV_ENC_ALU(KH_PV_VSUB, KH_PV_W16, 4, 5, 6),
	KH_PV_ENC_ALU(KH_PV_VAND, KH_PV_W32, 7, 8, 9),
	KH_PV_ENC_ALU(KH_PV_VOR, KH_PV_W32, 10, 11, 12),
	KH_PV_ENC_ALU(KH_PV_VXOR, KH_PV_W32, 13, 14, 15),
	KH_PV_ENC_ALU(KH_PV_VSLL, KH_PV_W32, 16, 17, 18),
	KH_PV_ENC_ALU(KH_PV_VSRL, KH_PV_W16, 19, 20, 21),
	KH_PV_ENC_ALU(KH_PV_VSRA, KH_PV_W8, 22, 23, 24),
	KH_PV_ENC_ALU(KH_PV_VMIN, KH_PV_W32, 25, 26, 27),
	KH_PV_ENC_ALU(KH_PV_VMAX, KH_PV_W32, 28, 29, 30),
	KH_PV_ENC_ALU(KH_PV_VMINU, KH_PV_W8, 31, 0, 1),
	KH_PV_ENC_ALU(KH_PV_VMAXU, KH_PV_W16, 2, 3, 4),
	KH_PV_ENC_ALU(KH_PV_VEQ, KH_PV_W8, 5, 6, 7),
	KH_PV_ENC_ALU(KH_PV_VLT, KH_PV_W16, 8, 9, 10),
	KH_PV_ENC_ALU(KH_PV_VLTU, KH_PV_W32, 11, 12, 13),
	KH_PV_ENC_ALU(KH_PV_VSEL + 15, KH_PV_W32, 14, 15, 16),
	KH_PV_ENC_VL(17, A0, 0),
	KH_PV_ENC_VL(18, A0, -3),
	KH_PV_ENC_VS(19, A0, 2047),
	KH_PV_ENC_VS(20, A0, -2048),
	MV(KH_PV_VMV, 21, 22, 0),
	MV(KH_PV_VSPLAT + KH_PV_W16, 23, A0, 0),
	MV(KH_PV_VEXT + KH_PV_W8, A2, 24, A0),
	MV(KH_PV_VEXTU + KH_PV_W32, A2, 25, A1),
	MV(KH_PV_VMVXB, 15, A0, A1),
	MV(KH_PV_VMVXP, 14, A1, A0),
	MV(KH_PV_VWFCR, 0, A0, 0),
	MV(KH_PV_VWFSR, 0, A1, 0),
	MV(KH_PV_VRFCR, A2, 0, 0),
	MV(KH_PV_VRFSR, A2, 0, 0),
	MV(KH_PV_VMVVW, 3, 26, 2),
	MV(KH_PV_VMVWV, 27, 2, 1),
	MV(KH_PV_VMVVU, 3, 28, 0),
	MV(KH_PV_VMVUV, 29, 1, 0),
	MV(KH_PV_VMVVG, 7, 30, 0),
	MV(KH_PV_VMVGV, 31, 6, 0),
	KH_PV_ENC_ALIGN(KH_PV_VLAP, 2, A0, 0),
	KH_PV_ENC_ALIGN(KH_PV_VLA, 5, A0, 2),
	KH_PV_ENC_ALIGN(KH_PV_VSAP, 3, A1, 0),
	KH_PV_ENC_ALIGN(KH_PV_VSA, 3, A1, 5),
	KH_PV_ENC_ALIGN(KH_PV_VSAF, 3, A1, 0),
	GS(KH_PV_F3_GS16, KH_PV_GATHERA, 4, 6, A0, 7),
	GS(KH_PV_F3_GS32, KH_PV_GATHERD, 0, 8, 0, 6),
	GS(KH_PV_F3_GS16, KH_PV_SCATTER, 9, 10, A0, 11),
	GS(KH_PV_F3_GS32, KH_PV_SCATTERINC, 15, 12, A1, 13),
	KH_PV_ENC_QMAC(KH_PV_W8, 3, 4, 15, KH_PV_MAC_SET, 0),
	KH_PV_ENC_QMAC(KH_PV_W16, 2, 30, 1, KH_PV_MAC_ADD, KH_PV_MAC_UT),
	KH_PV_ENC_QMAC(KH_PV_W32, 1, 8, 2, KH_PV_MAC_SUB,
		       KH_PV_MAC_US | KH_PV_MAC_UT),
	KH_PV_ENC_PACK(KH_PV_W8, 9, 1, A0, KH_PV_PACK_ROUND),
	KH_PV_ENC_PACK(KH_PV_W16, 10, 3, A1, 0),
	KH_PV_ENC_FP(KH_PV_FMADD, KH_PV_WF32, 1, 2, 3),
	KH_PV_ENC_FP(KH_PV_FMSUB, KH_PV_WF16, 4, 5, 6),
	KH_PV_ENC_FP(KH_PV_FMUL, KH_PV_WF32, 7, 8, 9),
	KH_PV_ENC_FP(KH_PV_FADD, KH_PV_WF16, 10, 11, 12),
	KH_PV_ENC_FP(KH_PV_FSUB, KH_PV_WF32, 13, 14, 15),
	KH_PV_ENC_FP(KH_PV_FFLOAT, KH_PV_WF32, 16, 17, 0),
	KH_PV_ENC_FP(KH_PV_FTRUNC, KH_PV_WF16, 18, 19, 0),
	KH_PV_ENC_FP(KH_PV_FRECIP0, KH_PV_WF32, 20, 21, 0),
	KH_PV_ENC_FP(KH_PV_FRSQRT0, KH_PV_WF16, 22, 23, 0),
	KH_PV_ENC_FP(KH_PV_FRECIPQ, KH_PV_WF32, 24, 25, 0),
	KH_PV_ENC_FP(KH_PV_PSEL, KH_PV_W8, 26, 27, 28),
	KH_PV_ENC_FP(KH_PV_PSHFL, KH_PV_W32, 29, 30, 31),
};

void pv_enc(void);

void pv_enc(void)
{
	register u32 a0 asm("a0") = 0x1000;
	register u32 a1 asm("a1") = 0x2000;
	register u32 a2 asm("a2");

	asm volatile(".globl pv_enc_begin\npv_enc_begin:" : : "r"(a0),
		     "r"(a1));
	pv_vadd(KH_PV_W8, 1, 2, 3);
	pv_vsub(KH_PV_W16, 4, 5, 6);
	pv_vand(7, 8, 9);
	pv_vor(10, 11, 12);
	pv_vxor(13, 14, 15);
	pv_vsll(KH_PV_W32, 16, 17, 18);
	pv_vsrl(KH_PV_W16, 19, 20, 21);
	pv_vsra(KH_PV_W8, 22, 23, 24);
	pv_vmin(KH_PV_W32, 25, 26, 27);
	pv_vmax(KH_PV_W32, 28, 29, 30);
	pv_vminu(KH_PV_W8, 31, 0, 1);
	pv_vmaxu(KH_PV_W16, 2, 3, 4);
	pv_veq(KH_PV_W8, 5, 6, 7);
	pv_vlt(KH_PV_W16, 8, 9, 10);
	pv_vltu(KH_PV_W32, 11, 12, 13);
	pv_vsel(KH_PV_W32, 14, 15, 16, 15);
	pv_vl(17, a0, 0);
	pv_vl(18, a0, -3);
	pv_vs(19, a0, 2047);
	pv_vs(20, a0, -2048);
	pv_vmv(21, 22);
	pv_vsplat(KH_PV_W16, 23, a0);
	a2 = pv_vext(KH_PV_W8, 24, a0);
	asm volatile("" : : "r"(a2));
	a2 = pv_vextu(KH_PV_W32, 25, a1);
	asm volatile("" : : "r"(a2));
	pv_vmvxb(15, a0, a1);
	pv_vmvxp(14, a1, a0);
	pv_vwfcr(a0);
	pv_vwfsr(a1);
	a2 = pv_vrfcr();
	asm volatile("" : : "r"(a2));
	a2 = pv_vrfsr();
	asm volatile("" : : "r"(a2));
	pv_vmvvw(3, 26, 2);
	pv_vmvwv(27, 2, 1);
	pv_vmvvu(3, 28);
	pv_vmvuv(29, 1);
	pv_vmvvg(7, 30);
	pv_vmvgv(31, 6);
	pv_vlap(2, a0);
	pv_vla(5, 2, a0);
	pv_vsap(3, a1);
	pv_vsa(5, 3, a1);
	pv_vsaf(3, a1);
	pv_vgathera(KH_PV_F3_GS16, 6, 7, a0, 4);
	pv_vgatherd(KH_PV_F3_GS32, 8, 6);
	pv_vscatter(KH_PV_F3_GS16, 10, 11, a0, 9);
	pv_vscatterinc(KH_PV_F3_GS32, 12, 13, a1, 15);
	pv_vqmac(KH_PV_W8, 3, 4, 15, KH_PV_MAC_SET, 0);
	pv_vqmac(KH_PV_W16, 2, 30, 1, KH_PV_MAC_ADD, KH_PV_MAC_UT);
	pv_vqmac(KH_PV_W32, 1, 8, 2, KH_PV_MAC_SUB,
		 KH_PV_MAC_US | KH_PV_MAC_UT);
	pv_vpack(KH_PV_W8, 9, 1, a0, KH_PV_PACK_ROUND);
	pv_vpack(KH_PV_W16, 10, 3, a1, 0);
	pv_vfmadd(KH_PV_WF32, 1, 2, 3);
	pv_vfmsub(KH_PV_WF16, 4, 5, 6);
	pv_vfmul(KH_PV_WF32, 7, 8, 9);
	pv_vfadd(KH_PV_WF16, 10, 11, 12);
	pv_vfsub(KH_PV_WF32, 13, 14, 15);
	pv_vffloat(KH_PV_WF32, 16, 17);
	pv_vftrunc(KH_PV_WF16, 18, 19);
	pv_vfrecip0(KH_PV_WF32, 20, 21);
	pv_vfrsqrt0(KH_PV_WF16, 22, 23);
	pv_vfrecipq(24, 25);
	pv_vpsel(KH_PV_W8, 26, 27, 28);
	pv_vpshfl(KH_PV_W32, 29, 30, 31);
	asm volatile(".globl pv_enc_end\npv_enc_end:");
}
