// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Instruction builders for the units' CU_INST encodings.  Every field is
 * placed with kh_flit_set() and the field macros of uapi/kohaku/kh_units.h:
 * the flit's payload [255:0] is words 0..3 of a struct kh_flit, which is
 * exactly struct kohaku_inst (w[k] = payload bits [64k+63:64k]).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_units.h"

_Static_assert(sizeof(struct kohaku_inst) == KH_PAYLOAD_BYTES,
	       "an instruction is one flit payload");

static void inst_from_flit(struct kohaku_inst *inst, const struct kh_flit *f)
{
	unsigned int k;

	for (k = 0; k < 4; k++)
		inst->w[k] = f->w[k];
}

static void flit_from_inst(struct kh_flit *f, const struct kohaku_inst *inst)
{
	unsigned int k;

	memset(f, 0, sizeof(*f));
	for (k = 0; k < 4; k++)
		f->w[k] = inst->w[k];
}

KH_RT_EXPORT int kohaku_inst_sx(struct kohaku_inst *inst, unsigned int opcode,
				uint32_t n, uint32_t a_bits, uint64_t x_addr,
				uint64_t y_addr)
{
	struct kh_flit f;

	if (!inst)
		return -EINVAL;
	if (n > 0xffffff || opcode > 0xff)
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	kh_flit_set(&f, KH_SX_OPCODE, opcode);
	kh_flit_set(&f, KH_SX_N, n);
	kh_flit_set(&f, KH_SX_A, a_bits);
	kh_flit_set(&f, KH_SX_X_ADDR, x_addr);
	kh_flit_set(&f, KH_SX_Y_ADDR, y_addr);
	inst_from_flit(inst, &f);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_saxpy(struct kohaku_inst *inst, uint32_t n,
				   float a, uint64_t x_addr, uint64_t y_addr)
{
	uint32_t bits;

	if (n > KH_SX_N_MAX || x_addr % KH_SX_LINE_BYTES ||
	    y_addr % KH_SX_LINE_BYTES)
		return -EINVAL;
	memcpy(&bits, &a, sizeof(bits));
	return kohaku_inst_sx(inst, KH_SX_OP_SAXPY, n, bits, x_addr, y_addr);
}

KH_RT_EXPORT enum kohaku_sx_datapath
kohaku_sx_datapath_of(const struct drm_kohaku_node *nd)
{
	return nd && nd->cu_type == KH_CU_SX &&
	       (uint32_t)(nd->dbg >> 32) == KH_SX_DBG_FMA ?
	       KOHAKU_SX_DATAPATH_FMA : KOHAKU_SX_DATAPATH_RTL;
}

KH_RT_EXPORT const char *kohaku_sx_datapath_name(enum kohaku_sx_datapath dp)
{
	return dp == KOHAKU_SX_DATAPATH_FMA ?
	       "binary32 FMA (the model's variant, not the card)" :
	       "integer datapath (saxpy_cu, as the card computes)";
}

/* saxpy_cu's f2i: truncate toward zero; bits past 31 are lost */
static uint32_t sx_f2i(uint32_t b)
{
	uint32_t e = (b >> 23) & 0xff, mag;
	uint64_t m = 0x800000u | (b & 0x7fffff);

	if (!e)
		mag = 0;
	else if (e >= 150)
		mag = e - 150 >= 32 ? 0 : (uint32_t)(m << (e - 150));
	else
		mag = 150 - e >= 32 ? 0 : (uint32_t)(m >> (150 - e));
	return b >> 31 ? 0u - mag : mag;
}

/* saxpy_cu's i2f: exponent from the top set bit of |v| in [23:0] only */
static uint32_t sx_i2f(uint32_t v)
{
	uint32_t mag = v >> 31 ? 0u - v : v, low = mag & 0xffffff;
	int p = low ? 31 - __builtin_clz(low) : 0;

	if (!mag)
		return 0;
	return (v & 0x80000000u) | ((uint32_t)(127 + p) & 0xff) << 23 |
	       ((mag << (23 - p)) & 0x7fffff);
}

KH_RT_EXPORT uint32_t kohaku_sx_element(enum kohaku_sx_datapath dp,
					uint32_t a_bits, uint32_t x_bits,
					uint32_t y_bits)
{
	float a, x, y, r;
	uint32_t bits;

	if (dp != KOHAKU_SX_DATAPATH_FMA)
		return sx_i2f(sx_f2i(a_bits) * sx_f2i(x_bits) + sx_f2i(y_bits));
	memcpy(&a, &a_bits, 4);
	memcpy(&x, &x_bits, 4);
	memcpy(&y, &y_bits, 4);
	r = fmaf(a, x, y);
	if (isnan(r))
		return 0x7fc00000u;
	memcpy(&bits, &r, 4);
	return bits;
}

KH_RT_EXPORT void kohaku_inst_sx_decode(const struct kohaku_inst *inst,
					unsigned int *opcode, uint32_t *n,
					uint32_t *a_bits, uint64_t *x_addr,
					uint64_t *y_addr)
{
	struct kh_flit f;

	flit_from_inst(&f, inst);
	if (opcode)
		*opcode = (unsigned int)kh_flit_get(&f, KH_SX_OPCODE);
	if (n)
		*n = (uint32_t)kh_flit_get(&f, KH_SX_N);
	if (a_bits)
		*a_bits = (uint32_t)kh_flit_get(&f, KH_SX_A);
	if (x_addr)
		*x_addr = kh_flit_get(&f, KH_SX_X_ADDR);
	if (y_addr)
		*y_addr = kh_flit_get(&f, KH_SX_Y_ADDR);
}

KH_RT_EXPORT void kohaku_inst_null(struct kohaku_inst *inst,
				   const uint32_t words[8])
{
	unsigned int k;

	for (k = 0; k < 4; k++)
		inst->w[k] = (uint64_t)words[2 * k] |
			     ((uint64_t)words[2 * k + 1] << 32);
}

KH_RT_EXPORT uint32_t kohaku_inst_null_result(const struct kohaku_inst *inst)
{
	uint32_t r = 0;
	unsigned int k;

	for (k = 0; k < 4; k++)
		r ^= (uint32_t)inst->w[k] ^ (uint32_t)(inst->w[k] >> 32);
	return r;
}
