// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Builders for the vec unit, the vector core (docs/spec/vec.md): the
 * CU_INST payloads that load and start a kernel (IMEM, DESC, RUN), placed
 * with kh_flit_set() and uapi/kohaku/kh_vec.h's KH_VEC_CU_* fields, and the
 * 32-bit kernel words, placed with KH_VEC_PUT().  Every field is checked
 * against its width first: a value that does not fit is -EINVAL and
 * nothing is written.  Its fault codes in words.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_vec.h"

/* the width of a kernel-word field KH_VEC_W(hi, lo) */
#define VW_BITS(f)	((((f) >> 8) - ((f) & 0xff)) + 1)
#define FITS(v, f)	((uint64_t)(v) < (1ULL << VW_BITS(f)))

#define CU_ADDR_MAX	KH_VEC_IMEM_WORDS	/* [251:243], 9 bits */
#define DESC_VAL_BITS	40
#define OFF_MIN		(-(1 << 13))
#define OFF_MAX		((1 << 13) - 1)

static void vec_inst(struct kohaku_inst *inst, const struct kh_flit *f)
{
	unsigned int k;

	for (k = 0; k < 4; k++)
		inst->w[k] = f->w[k];
}

static void vec_flit(struct kh_flit *f, unsigned int op)
{
	memset(f, 0, sizeof(*f));
	kh_flit_set(f, KH_VEC_CU_OP, op);
}

KH_RT_EXPORT int kohaku_inst_vec_raw(struct kohaku_inst *inst,
				     unsigned int opcode, unsigned int addr)
{
	struct kh_flit f;

	if (!inst || opcode > 15 || addr >= CU_ADDR_MAX)
		return -EINVAL;
	vec_flit(&f, opcode);
	kh_flit_set(&f, KH_VEC_CU_ADDR, addr);
	vec_inst(inst, &f);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_vec_imem(struct kohaku_inst *inst,
				      unsigned int addr, uint32_t word)
{
	struct kh_flit f;

	if (!inst || addr >= KH_VEC_IMEM_WORDS)
		return -EINVAL;
	vec_flit(&f, KH_VEC_CU_IMEM);
	kh_flit_set(&f, KH_VEC_CU_ADDR, addr);
	kh_flit_set(&f, KH_VEC_CU_WORD, word);
	vec_inst(inst, &f);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_vec_imem_words(struct kohaku_inst *insts,
					    unsigned int at,
					    const uint32_t *words,
					    unsigned int n)
{
	unsigned int i;

	if (!insts || (n && !words) || at > KH_VEC_IMEM_WORDS ||
	    n > KH_VEC_IMEM_WORDS - at)
		return -EINVAL;
	for (i = 0; i < n; i++)
		kohaku_inst_vec_imem(&insts[i], at + i, words[i]);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_vec_desc(struct kohaku_inst *inst,
				      unsigned int ad, unsigned int fld,
				      uint64_t value)
{
	struct kh_flit f;

	if (!inst || ad >= KH_VEC_DESCS || fld > 7 ||
	    value >> DESC_VAL_BITS)
		return -EINVAL;
	vec_flit(&f, KH_VEC_CU_DESC);
	kh_flit_set(&f, KH_VEC_CU_AD, ad);
	kh_flit_set(&f, KH_VEC_CU_FLD, fld);
	kh_flit_set(&f, KH_VEC_CU_VAL_LO,
		    value & ((1ULL << KH_VEC_CU_VAL_LO_BITS) - 1));
	kh_flit_set(&f, KH_VEC_CU_VAL_HI, value >> KH_VEC_CU_VAL_LO_BITS);
	vec_inst(inst, &f);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_vec_desc_base(struct kohaku_inst *inst,
					   unsigned int ad, uint64_t base)
{
	return kohaku_inst_vec_desc(inst, ad, KH_VEC_FLD_BASE, base);
}

KH_RT_EXPORT int kohaku_inst_vec_desc_dim(struct kohaku_inst *inst,
					  unsigned int ad, unsigned int dim,
					  int32_t stride, uint32_t bound)
{
	if (dim >= KH_VEC_DIMS || stride < -(1 << 17) ||
	    stride > (1 << 17) - 1 || bound > KH_VEC_DIM_BOUND_MASK)
		return -EINVAL;
	return kohaku_inst_vec_desc(inst, ad, KH_VEC_FLD_DIM(dim),
				    KH_VEC_DIM(stride, bound));
}

KH_RT_EXPORT int kohaku_inst_vec_run(struct kohaku_inst *inst, unsigned int pc)
{
	if (pc >= KH_VEC_IMEM_WORDS)
		return -EINVAL;
	return kohaku_inst_vec_raw(inst, KH_VEC_CU_RUN, pc);
}

KH_RT_EXPORT void kohaku_inst_vec_decode(const struct kohaku_inst *inst,
					 unsigned int *opcode,
					 unsigned int *addr, uint32_t *word,
					 unsigned int *ad, unsigned int *fld,
					 uint64_t *value)
{
	struct kh_flit f;
	unsigned int k;

	memset(&f, 0, sizeof(f));
	for (k = 0; k < 4; k++)
		f.w[k] = inst->w[k];
	if (opcode)
		*opcode = (unsigned int)kh_flit_get(&f, KH_VEC_CU_OP);
	if (addr)
		*addr = (unsigned int)kh_flit_get(&f, KH_VEC_CU_ADDR);
	if (word)
		*word = (uint32_t)kh_flit_get(&f, KH_VEC_CU_WORD);
	if (ad)
		*ad = (unsigned int)kh_flit_get(&f, KH_VEC_CU_AD);
	if (fld)
		*fld = (unsigned int)kh_flit_get(&f, KH_VEC_CU_FLD);
	if (value)
		*value = kh_flit_get(&f, KH_VEC_CU_VAL_LO) |
			 kh_flit_get(&f, KH_VEC_CU_VAL_HI) <<
			 KH_VEC_CU_VAL_LO_BITS;
}

/* ---- kernel words ---- */

KH_RT_EXPORT int kohaku_vec_alu(uint32_t *w, const struct kohaku_vec_alu *f)
{
	if (!w || !f || !FITS(f->op, KH_VEC_OP) || !FITS(f->vd, KH_VEC_VD) ||
	    !FITS(f->va, KH_VEC_VA) || !FITS(f->vb, KH_VEC_VB) ||
	    !FITS(f->vc, KH_VEC_VC) || !FITS(f->sa, KH_VEC_SA) ||
	    !FITS(f->sb, KH_VEC_SB) || !FITS(f->sc, KH_VEC_SC) ||
	    !FITS(f->pr, KH_VEC_PR) || !FITS(f->pm, KH_VEC_PM))
		return -EINVAL;
	*w = KH_VEC_PUT(KH_VEC_OP, f->op) | KH_VEC_PUT(KH_VEC_SA, f->sa) |
	     KH_VEC_PUT(KH_VEC_SB, f->sb) | KH_VEC_PUT(KH_VEC_SC, f->sc) |
	     KH_VEC_PUT(KH_VEC_VD, f->vd) | KH_VEC_PUT(KH_VEC_VA, f->va) |
	     KH_VEC_PUT(KH_VEC_VB, f->vb) | KH_VEC_PUT(KH_VEC_VC, f->vc) |
	     KH_VEC_PUT(KH_VEC_PR, f->pr) | KH_VEC_PUT(KH_VEC_PM, f->pm);
	return 0;
}

KH_RT_EXPORT int kohaku_vec_mem(uint32_t *w, unsigned int op,
				unsigned int dtype, unsigned int ad,
				unsigned int vd, int32_t off)
{
	if (!w || !FITS(op, KH_VEC_OP) || !FITS(dtype, KH_VEC_DT) ||
	    !FITS(ad, KH_VEC_AD) || !FITS(vd, KH_VEC_VD) || off < OFF_MIN ||
	    off > OFF_MAX)
		return -EINVAL;
	*w = KH_VEC_PUT(KH_VEC_OP, op) | KH_VEC_PUT(KH_VEC_DT, dtype) |
	     KH_VEC_PUT(KH_VEC_AD, ad) | KH_VEC_PUT(KH_VEC_VD, vd) |
	     KH_VEC_PUT(KH_VEC_OFF, (uint32_t)off);
	return 0;
}

/* an elementwise op on V registers, every lane */
static int vec_op3(uint32_t *w, unsigned int op, unsigned int vd,
		   unsigned int va, unsigned int vb, unsigned int vc)
{
	struct kohaku_vec_alu f;

	if (vd >= KH_VEC_VREGS || va >= KH_VEC_VREGS || vb >= KH_VEC_VREGS ||
	    vc >= KH_VEC_VREGS)
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	f.op = (uint8_t)op;
	f.vd = (uint8_t)vd;
	f.va = (uint8_t)va;
	f.vb = (uint8_t)vb;
	f.vc = (uint8_t)vc;
	return kohaku_vec_alu(w, &f);
}

KH_RT_EXPORT int kohaku_vec_vadd(uint32_t *w, unsigned int vd, unsigned int va,
				 unsigned int vb)
{
	return vec_op3(w, KH_VEC_VADD, vd, va, vb, vb);
}

KH_RT_EXPORT int kohaku_vec_vsub(uint32_t *w, unsigned int vd, unsigned int va,
				 unsigned int vb)
{
	return vec_op3(w, KH_VEC_VSUB, vd, va, vb, vb);
}

KH_RT_EXPORT int kohaku_vec_vmul(uint32_t *w, unsigned int vd, unsigned int va,
				 unsigned int vb)
{
	return vec_op3(w, KH_VEC_VMUL, vd, va, vb, 0);
}

KH_RT_EXPORT int kohaku_vec_vmax(uint32_t *w, unsigned int vd, unsigned int va,
				 unsigned int vb)
{
	return vec_op3(w, KH_VEC_VMAX, vd, va, vb, 0);
}

KH_RT_EXPORT int kohaku_vec_vmin(uint32_t *w, unsigned int vd, unsigned int va,
				 unsigned int vb)
{
	return vec_op3(w, KH_VEC_VMIN, vd, va, vb, 0);
}

KH_RT_EXPORT int kohaku_vec_vfma(uint32_t *w, unsigned int vd, unsigned int va,
				 unsigned int vb, unsigned int vc)
{
	return vec_op3(w, KH_VEC_VFMA, vd, va, vb, vc);
}

static int vec_ldst(uint32_t *w, unsigned int op, unsigned int vd,
		    unsigned int ad, int32_t off, unsigned int dtype)
{
	if (dtype != KH_VEC_DT_FP16 && dtype != KH_VEC_DT_FP32)
		return -EINVAL;
	return kohaku_vec_mem(w, op, dtype, ad, vd, off);
}

KH_RT_EXPORT int kohaku_vec_vld(uint32_t *w, unsigned int vd, unsigned int ad,
				int32_t off, unsigned int dtype)
{
	return vec_ldst(w, KH_VEC_VLD, vd, ad, off, dtype);
}

KH_RT_EXPORT int kohaku_vec_vst(uint32_t *w, unsigned int vd, unsigned int ad,
				int32_t off, unsigned int dtype)
{
	return vec_ldst(w, KH_VEC_VST, vd, ad, off, dtype);
}

KH_RT_EXPORT int kohaku_vec_vfill(uint32_t *w, unsigned int ad, unsigned int l1)
{
	if (l1 >= KH_VEC_L1_WORDS)
		return -EINVAL;
	return kohaku_vec_mem(w, KH_VEC_VFILL, 0, ad, 0, (int32_t)l1);
}

KH_RT_EXPORT int kohaku_vec_vdrain(uint32_t *w, unsigned int ad,
				   unsigned int l1)
{
	if (l1 >= KH_VEC_L1_WORDS)
		return -EINVAL;
	return kohaku_vec_mem(w, KH_VEC_VDRAIN, 0, ad, 0, (int32_t)l1);
}

KH_RT_EXPORT int kohaku_vec_vdrain_node(uint32_t *w, unsigned int ad,
					unsigned int l1, unsigned int x,
					unsigned int y, unsigned int buf,
					int signal)
{
	if (!w || !FITS(ad, KH_VEC_AD) || l1 >= KH_VEC_L1_WORDS ||
	    !FITS(x, KH_VEC_ND_X) || !FITS(y, KH_VEC_ND_Y) ||
	    !FITS(buf, KH_VEC_ND_BUF))
		return -EINVAL;
	*w = KH_VEC_PUT(KH_VEC_OP, KH_VEC_VDRAIN) | KH_VEC_PUT(KH_VEC_ND, 1) |
	     KH_VEC_PUT(KH_VEC_ND_SIG, signal ? 1 : 0) |
	     KH_VEC_PUT(KH_VEC_AD, ad) | KH_VEC_PUT(KH_VEC_ND_X, x) |
	     KH_VEC_PUT(KH_VEC_ND_Y, y) | KH_VEC_PUT(KH_VEC_ND_BUF, buf) |
	     l1;
	return 0;
}

KH_RT_EXPORT int kohaku_vec_vsetvl(uint32_t *w, unsigned int sreg)
{
	if (sreg >= KH_VEC_SREGS)
		return -EINVAL;
	return vec_op3(w, KH_VEC_VSETVL, 0, sreg, 0, 0);
}

KH_RT_EXPORT int kohaku_vec_vsetmode(uint32_t *w, unsigned int mode)
{
	if (mode > KH_VEC_MODE_TREE)
		return -EINVAL;
	return vec_op3(w, KH_VEC_VSETMODE, 0, mode, 0, 0);
}

static int vec_seti(uint32_t w[2], unsigned int sreg, unsigned int sa,
		    uint32_t value)
{
	struct kohaku_vec_alu f;

	if (!w || sreg >= KH_VEC_SREGS || value > 0xffffff)
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	f.op = KH_VEC_VSETI;
	f.vd = (uint8_t)sreg;
	f.sa = (uint8_t)sa;
	kohaku_vec_alu(&w[0], &f);
	w[1] = value;
	return 0;
}

KH_RT_EXPORT int kohaku_vec_vseti(uint32_t w[2], unsigned int sreg,
				  uint32_t value)
{
	return vec_seti(w, sreg, KH_VEC_SRC_V, value);
}

KH_RT_EXPORT int kohaku_vec_vseti_k3(uint32_t w[2], uint32_t value)
{
	return vec_seti(w, 0, KH_VEC_SRC_K, value);
}

KH_RT_EXPORT int kohaku_vec_vloop(uint32_t *w, unsigned int sreg,
				  unsigned int body)
{
	if (sreg >= KH_VEC_SREGS || !body || body > 15)
		return -EINVAL;
	return vec_op3(w, KH_VEC_VLOOP, 0, sreg, body, 0);
}

KH_RT_EXPORT uint32_t kohaku_vec_vbar(void)
{
	return KH_VEC_PUT(KH_VEC_OP, KH_VEC_VBAR);
}

KH_RT_EXPORT uint32_t kohaku_vec_vhalt(void)
{
	return KH_VEC_PUT(KH_VEC_OP, KH_VEC_VHALT);
}

static const char *vec_fault_name(uint32_t code)
{
	switch (code) {
	case KH_VEC_F_DTYPE:
		return "F_DTYPE: VLD/VST/VCVT dtype not FP16 or FP32";
	case KH_VEC_F_VSRC:
		return "F_VSRC: a later chain stage names a V source";
	case KH_VEC_F_CHAIN:
		return "F_CHAIN: an ALU op with a C (chain) source";
	case KH_VEC_F_OPCODE:
		return "F_OPCODE: VRED SUM..EXPSUM outside TREE mode";
	case KH_VEC_F_LEN:
		return "F_LEN: a VFILL/VDRAIN walk of more than 256 entries";
	case KH_VEC_F_LOOP:
		return "F_LOOP: VLOOP inside an active loop";
	case KH_VEC_F_VL:
		return "F_VL: VSETVL of 0 or more than 128";
	case KH_VEC_F_REDVL:
		return "F_REDVL: VRED SUM..EXPSUM with VL not a multiple of 16";
	case KH_VEC_F_CUDATA:
		return "F_CUDATA: a CU_DATA burst was rejected";
	case KH_VEC_F_NM_CHAIN:
		return "not modelled: an ALU op in TREE mode";
	case KH_VEC_F_NM_SEED:
		return "not modelled: VEXP2/VLOG2/VINV/VRSQRT (or VCVT/VRED as a chain stage)";
	case KH_VEC_F_NM_TREE:
		return "not modelled: VRED EXPSUM";
	case KH_VEC_F_NM_PHAZ:
		return "not modelled: a predicate read racing the compare that writes it";
	case KH_VEC_F_NM_VST32:
		return "not modelled: an FP32 VST while a fill or CU_DATA word may land";
	}
	return NULL;
}

KH_RT_EXPORT const char *kohaku_vec_fault_describe(uint32_t code, char *buf,
						   size_t len)
{
	const char *name = vec_fault_name(code);

	if (!buf || !len)
		return "";
	if (name)
		snprintf(buf, len, "%s (code %u)", name, code);
	else
		snprintf(buf, len, "fault 0x%08x (no vec kernel fault code)",
			 code);
	return buf;
}
