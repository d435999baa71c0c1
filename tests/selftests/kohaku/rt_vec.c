// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vec unit, the vector core (docs/spec/vec.md), through libkohaku: the
 * CU_INST builders (IMEM, DESC with its 40-bit split, RUN) and the kernel
 * word builders against the spec's bit layout and the RTL bench's literal
 * words, and their refusals; kernels loaded with IMEM/DESC and started
 * with RUN through SUBMIT on every vec unit, their FP16 results bit-exact
 * against a host reference; a kernel's fault code as the job's FAULT with
 * the node; IMEM and DESC retiring with result 0 and RUN with the kernel's
 * cycle count (the model's trace and CU_DBG).
 *
 * The runtime tests' maps (KOHAKU_TEST_MAP) have no vec unit: on sim each
 * test makes its own card (KohakuTPU's shipped map, mesh_2x2_8+2: vec
 * units at (3,1) and (3,2)) unless KOHAKU_DEVICE names one; on the kernel
 * backend it uses the device under test and skips unless that has vec
 * units (tests/vm runs it on a mesh_2x2_8+2 card).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "kohaku/kh_vec.h"

/* on a card of its own: KohakuTPU's shipped map, the built-in mesh_2x2_8+2 */
#define MAX_VEC	16

/* a device with vec units: their table in nd, n of them, or SKIP */
#define VT_OPEN(dev, nd, n)						\
	struct drm_kohaku_node nd[MAX_VEC];				\
	unsigned int n;							\
	kohaku_device *dev = rt_open_card("mesh_2x2_8+2");	\
	REQUIRE(dev != NULL);						\
	n = rt_nodes_of(dev, KH_CU_VC, nd, MAX_VEC);			\
	if (!n) {							\
		rt_close_card(dev);					\
		SKIP(return, "no vec unit on this device");			\
	}

/* ---- builders ---- */

/* the payload with bit p set: w[p / 64] bit p % 64 */
static void bit_of(uint64_t w[4], unsigned int p)
{
	memset(w, 0, 4 * sizeof(uint64_t));
	w[p / 64] |= 1ULL << (p % 64);
}

static bool same(const struct kohaku_inst *i, const uint64_t w[4])
{
	return i->w[0] == w[0] && i->w[1] == w[1] && i->w[2] == w[2] &&
	       i->w[3] == w[3];
}

TEST_F(rt, cu_inst_builders_match_the_spec_bit_table)
{
	struct kohaku_inst in;
	uint64_t want[4];
	unsigned int b, op, addr, ad, fld;
	uint32_t word;
	uint64_t val;

	/* IMEM: [255:252] = 1, [251:243] address, [31:0] the word */
	CHECK_EQ(kohaku_inst_vec_imem(&in, 0x1ab, 0xdeadbeef), 0);
	CHECK_EQ(in.w[3], (1ULL << 60) | (0x1abULL << 51));
	CHECK_EQ(in.w[2], 0);
	CHECK_EQ(in.w[1], 0);
	CHECK_EQ(in.w[0], 0xdeadbeefULL);
	/* RUN: [255:252] = 3, [251:243] pc */
	CHECK_EQ(kohaku_inst_vec_run(&in, 0x155), 0);
	CHECK_EQ(in.w[3], (3ULL << 60) | (0x155ULL << 51));
	CHECK(!in.w[0] && !in.w[1] && !in.w[2]);
	/* DESC: [251:249] ad, [248:246] fld, value[33:0] at [245:212],
	 * value[39:34] at [68:63] */
	CHECK_EQ(kohaku_inst_vec_desc(&in, 5, 3, 0xabc1234567ULL), 0);
	CHECK_EQ(in.w[3], (2ULL << 60) | (5ULL << 57) | (3ULL << 54) |
		 ((0xabc1234567ULL & 0x3ffffffffULL) << 20));
	CHECK_EQ(in.w[2], 0);
	CHECK_EQ(in.w[1], (0xabc1234567ULL >> 34) >> 1);
	CHECK_EQ(in.w[0], ((0xabc1234567ULL >> 34) & 1) << 63);
	/* each bit alone lands where the table says */
	for (b = 0; b < 40; b++) {
		uint64_t w0[4], d[4];

		CHECK_EQ(kohaku_inst_vec_desc(&in, 0, 0, 1ULL << b), 0);
		bit_of(w0, b < 34 ? 212 + b : 63 + (b - 34));
		kohaku_inst_vec_desc(&in, 0, 0, 0);
		bit_of(d, 253);		/* opcode 2 = [253] of [255:252] */
		kohaku_inst_vec_desc(&in, 0, 0, 1ULL << b);
		CHECK_MSG(in.w[0] == w0[0] && in.w[1] == w0[1] &&
			  in.w[2] == w0[2] && in.w[3] == (w0[3] | d[3]),
			  "DESC value bit %u", b);
	}
	for (b = 0; b < 9; b++) {
		bit_of(want, 243 + b);
		want[3] |= 1ULL << 60;
		kohaku_inst_vec_imem(&in, 1u << b, 0);
		CHECK_MSG(same(&in, want), "IMEM address bit %u", b);
	}
	for (b = 0; b < 32; b++) {
		bit_of(want, b);
		want[3] |= 1ULL << 60;
		kohaku_inst_vec_imem(&in, 0, 1u << b);
		CHECK_MSG(same(&in, want), "IMEM word bit %u", b);
	}
	for (b = 0; b < 3; b++) {
		bit_of(want, 249 + b);
		want[3] |= 2ULL << 60;
		kohaku_inst_vec_desc(&in, 1u << b, 0, 0);
		CHECK_MSG(same(&in, want), "DESC ad bit %u", b);
		bit_of(want, 246 + b);
		want[3] |= 2ULL << 60;
		kohaku_inst_vec_desc(&in, 0, 1u << b, 0);
		CHECK_MSG(same(&in, want), "DESC fld bit %u", b);
	}
	/* the dimension helper: {stride[17:0], bound[15:0]} in value */
	CHECK_EQ(kohaku_inst_vec_desc_dim(&in, 2, 1, -1, 5), 0);
	kohaku_inst_vec_decode(&in, &op, &addr, &word, &ad, &fld, &val);
	CHECK_EQ(op, KH_VEC_CU_DESC);
	CHECK_EQ(ad, 2);
	CHECK_EQ(fld, KH_VEC_FLD_DIM(1));
	CHECK_EQ(val, (0x3ffffULL << 16) | 5);
	CHECK_EQ(kohaku_inst_vec_desc_dim(&in, 7, 3, (1 << 17) - 1, 0xffff), 0);
	kohaku_inst_vec_decode(&in, NULL, NULL, NULL, &ad, &fld, &val);
	CHECK_EQ(ad, 7);
	CHECK_EQ(fld, 4);
	CHECK_EQ(val, (0x1ffffULL << 16) | 0xffff);
	CHECK_EQ(kohaku_inst_vec_desc_base(&in, 4, 0xffffffffffULL), 0);
	kohaku_inst_vec_decode(&in, &op, NULL, NULL, &ad, &fld, &val);
	CHECK_EQ(op, KH_VEC_CU_DESC);
	CHECK_EQ(fld, KH_VEC_FLD_BASE);
	CHECK_EQ(val, 0xffffffffffULL);
	/* decode of IMEM and RUN */
	kohaku_inst_vec_imem(&in, 511, 0x80000001u);
	kohaku_inst_vec_decode(&in, &op, &addr, &word, NULL, NULL, NULL);
	CHECK_EQ(op, KH_VEC_CU_IMEM);
	CHECK_EQ(addr, 511);
	CHECK_EQ(word, 0x80000001u);
	/* the raw form: any opcode, e.g. the no-ops */
	CHECK_EQ(kohaku_inst_vec_raw(&in, 15, 0x1ff), 0);
	CHECK_EQ(in.w[3], (15ULL << 60) | (0x1ffULL << 51));
	/* imem_words: consecutive addresses */
	{
		struct kohaku_inst many[3];
		const uint32_t k[3] = { 1, 2, 3 };

		CHECK_EQ(kohaku_inst_vec_imem_words(many, 509, k, 3), 0);
		for (b = 0; b < 3; b++) {
			kohaku_inst_vec_decode(&many[b], &op, &addr, &word, NULL,
					       NULL, NULL);
			CHECK(op == KH_VEC_CU_IMEM && addr == 509 + b &&
			      word == k[b]);
		}
	}
}

TEST_F(rt, cu_inst_builders_refuse_what_does_not_fit)
{
	struct kohaku_inst in, was;
	struct kohaku_inst many[4];
	const uint32_t k[4] = { 0 };

	memset(&in, 0x5a, sizeof(in));
	was = in;
	CHECK_ERR(kohaku_inst_vec_imem(&in, 512, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_imem(NULL, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_run(&in, 512), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_raw(&in, 16, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_raw(&in, 0, 512), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc(&in, 8, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc(&in, 0, 8, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc(&in, 0, 0, 1ULL << 40), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc_base(&in, 0, 1ULL << 40), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc_dim(&in, 0, 4, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc_dim(&in, 0, 0, 1 << 17, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc_dim(&in, 0, 0, -(1 << 17) - 1, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc_dim(&in, 0, 0, 0, 0x10000), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_desc_dim(&in, 8, 0, 0, 1), -EINVAL);
	CHECK(!memcmp(&in, &was, sizeof(in)));	/* nothing written */
	CHECK_ERR(kohaku_inst_vec_imem_words(many, 510, k, 3), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_imem_words(many, 513, k, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_vec_imem_words(many, 0, NULL, 1), -EINVAL);
	/* the edges that fit */
	CHECK_EQ(kohaku_inst_vec_imem_words(many, 508, k, 4), 0);
	CHECK_EQ(kohaku_inst_vec_desc_dim(&in, 0, 0, -(1 << 17), 0), 0);
	CHECK_EQ(kohaku_inst_vec_run(&in, 511), 0);
}

static uint32_t alu_w(unsigned int op, unsigned int vd, unsigned int va,
		      unsigned int vb, unsigned int vc, unsigned int sa,
		      unsigned int sb, unsigned int sc, unsigned int pr,
		      unsigned int pm)
{
	struct kohaku_vec_alu f = {
		.op = (uint8_t)op, .vd = (uint8_t)vd, .va = (uint8_t)va,
		.vb = (uint8_t)vb, .vc = (uint8_t)vc, .sa = (uint8_t)sa,
		.sb = (uint8_t)sb, .sc = (uint8_t)sc, .pr = (uint8_t)pr,
		.pm = (uint8_t)pm,
	};
	uint32_t w = 0xffffffffu;

	CHECK_EQ(kohaku_vec_alu(&w, &f), 0);
	return w;
}

TEST_F(rt, kernel_words_match_the_spec_and_the_rtl_bench)
{
	uint32_t w, w2[2];

	/* vec.md: [31:27] op, [26:25] sa, [24:23] sb, [22:21] sc,
	 * [20:17] vd, [16:13] va, [12:9] vb, [8:5] vc, [4:3] pr, [2:1] pm */
	CHECK_EQ(alu_w(31, 0, 0, 0, 0, 0, 0, 0, 0, 0), 31u << 27);
	CHECK_EQ(alu_w(0, 0, 0, 0, 0, 3, 0, 0, 0, 0), 3u << 25);
	CHECK_EQ(alu_w(0, 0, 0, 0, 0, 0, 3, 0, 0, 0), 3u << 23);
	CHECK_EQ(alu_w(0, 0, 0, 0, 0, 0, 0, 3, 0, 0), 3u << 21);
	CHECK_EQ(alu_w(0, 15, 0, 0, 0, 0, 0, 0, 0, 0), 15u << 17);
	CHECK_EQ(alu_w(0, 0, 15, 0, 0, 0, 0, 0, 0, 0), 15u << 13);
	CHECK_EQ(alu_w(0, 0, 0, 15, 0, 0, 0, 0, 0, 0), 15u << 9);
	CHECK_EQ(alu_w(0, 0, 0, 0, 15, 0, 0, 0, 0, 0), 15u << 5);
	CHECK_EQ(alu_w(0, 0, 0, 0, 0, 0, 0, 0, 3, 0), 3u << 3);
	CHECK_EQ(alu_w(0, 0, 0, 0, 0, 0, 0, 0, 0, 3), 3u << 1);
	/* the addressed form: [26:24] dtype, [23:21] ad, [20:17] vd,
	 * [13:0] signed offset */
	CHECK_EQ(kohaku_vec_mem(&w, 0, 7, 0, 0, 0), 0);
	CHECK_EQ(w, 7u << 24);
	CHECK_EQ(kohaku_vec_mem(&w, 0, 0, 7, 0, 0), 0);
	CHECK_EQ(w, 7u << 21);
	CHECK_EQ(kohaku_vec_mem(&w, 0, 0, 0, 15, 0), 0);
	CHECK_EQ(w, 15u << 17);
	CHECK_EQ(kohaku_vec_mem(&w, 0, 0, 0, 0, -1), 0);
	CHECK_EQ(w, 0x3fffu);
	CHECK_EQ(kohaku_vec_mem(&w, 0, 0, 0, 0, -8192), 0);
	CHECK_EQ(w, 0x2000u);
	CHECK_EQ(kohaku_vec_mem(&w, 0, 0, 0, 0, 8191), 0);
	CHECK_EQ(w, 0x1fffu);

	/* the literal kernel words of KohakuTPU's tests/vector/vec_cu_tb.v
	 * (model_vec.c checks the model against the same ones) */
	CHECK_EQ(kohaku_vec_vseti(w2, 0, 128), 0);
	CHECK_EQ(w2[0], 0xD0000000u);
	CHECK_EQ(w2[1], 128);
	CHECK_EQ(kohaku_vec_vsetvl(&w, 0), 0);
	CHECK_EQ(w, 0xC0000000u);
	CHECK_EQ(kohaku_vec_vsetmode(&w, KH_VEC_MODE_FLAT), 0);
	CHECK_EQ(w, 0xC8000000u);
	CHECK_EQ(kohaku_vec_vsetmode(&w, KH_VEC_MODE_D4), 0);
	CHECK_EQ(w, 0xC8004000u);
	CHECK_EQ(kohaku_vec_vfill(&w, 0, 0), 0);
	CHECK_EQ(w, 0xE8000000u);
	CHECK_EQ(kohaku_vec_vbar(), 0xE0000000u);
	CHECK_EQ(kohaku_vec_vld(&w, 0, 1, 0, KH_VEC_DT_FP16), 0);
	CHECK_EQ(w, 0xA1200000u);
	CHECK_EQ(kohaku_vec_vld(&w, 1, 2, 0, KH_VEC_DT_FP16), 0);
	CHECK_EQ(w, 0xA1420000u);
	/* the bench's VADD names v1 in vb and vc: the unit reads c */
	CHECK_EQ(kohaku_vec_vadd(&w, 2, 0, 1), 0);
	CHECK_EQ(w, 0x18040220u);
	CHECK_EQ(kohaku_vec_vst(&w, 2, 3, 0, KH_VEC_DT_FP16), 0);
	CHECK_EQ(w, 0xA9640000u);
	CHECK_EQ(kohaku_vec_vdrain(&w, 4, 0), 0);
	CHECK_EQ(w, 0xF0800000u);
	CHECK_EQ(kohaku_vec_vhalt(), 0xF8000000u);
	CHECK_EQ(kohaku_vec_vseti_k3(w2, 0x428000), 0);
	CHECK_EQ(w2[0], 0xD6000000u);
	CHECK_EQ(w2[1], 0x428000u);
	CHECK_EQ(kohaku_vec_vdrain(&w, 0, 64), 0);
	CHECK_EQ(w, 0xF0000040u);
	CHECK_EQ(kohaku_vec_vdrain_node(&w, 1, 64, 3, 3, 0, 1), 0);
	CHECK_EQ(w, 0xF3266040u);

	/* the other ops, field by field */
	CHECK_EQ(kohaku_vec_vsub(&w, 4, 5, 6), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VSUB << 27) | (4u << 17) | (5u << 13) | (6u << 9) |
		 (6u << 5));
	CHECK_EQ(kohaku_vec_vmul(&w, 7, 8, 9), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VMUL << 27) | (7u << 17) | (8u << 13) | (9u << 9));
	CHECK_EQ(kohaku_vec_vfma(&w, 3, 0, 1, 2), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VFMA << 27) | (3u << 17) | (0u << 13) | (1u << 9) |
		 (2u << 5));
	CHECK_EQ(kohaku_vec_vmax(&w, 15, 14, 13), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VMAX << 27) | (15u << 17) | (14u << 13) | (13u << 9));
	CHECK_EQ(kohaku_vec_vmin(&w, 1, 2, 3), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VMIN << 27) | (1u << 17) | (2u << 13) | (3u << 9));
	CHECK_EQ(kohaku_vec_vld(&w, 5, 6, -3, KH_VEC_DT_FP32), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VLD << 27) | (2u << 24) | (6u << 21) | (5u << 17) |
		 0x3ffdu);
	CHECK_EQ(kohaku_vec_vfill(&w, 7, 511), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VFILL << 27) | (7u << 21) | 511u);
	CHECK_EQ(kohaku_vec_vloop(&w, 2, 15), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VLOOP << 27) | (2u << 13) | (15u << 9));
	CHECK_EQ(kohaku_vec_vseti(w2, 15, 0xffffff), 0);
	CHECK_EQ(w2[0], ((uint32_t)KH_VEC_VSETI << 27) | (15u << 17));
	CHECK_EQ(w2[1], 0xffffffu);
	CHECK_EQ(kohaku_vec_vdrain_node(&w, 0, 0, 15, 15, 15, 0), 0);
	CHECK_EQ(w, ((uint32_t)KH_VEC_VDRAIN << 27) | (1u << 24) | (15u << 17) |
		 (15u << 13) | (15u << 9));
}

TEST_F(rt, kernel_word_builders_refuse_what_does_not_fit)
{
	struct kohaku_vec_alu f;
	uint32_t w = 0x12345678u, w2[2] = { 1, 2 };

	memset(&f, 0, sizeof(f));
	f.op = 32;
	CHECK_ERR(kohaku_vec_alu(&w, &f), -EINVAL);
	f.op = 0;
	f.vd = 16;
	CHECK_ERR(kohaku_vec_alu(&w, &f), -EINVAL);
	f.vd = 0;
	f.sa = 4;
	CHECK_ERR(kohaku_vec_alu(&w, &f), -EINVAL);
	f.sa = 0;
	f.pr = 4;
	CHECK_ERR(kohaku_vec_alu(&w, &f), -EINVAL);
	f.pr = 0;
	f.pm = 4;
	CHECK_ERR(kohaku_vec_alu(&w, &f), -EINVAL);
	CHECK_ERR(kohaku_vec_alu(NULL, &f), -EINVAL);
	CHECK_ERR(kohaku_vec_alu(&w, NULL), -EINVAL);
	CHECK_ERR(kohaku_vec_mem(&w, 32, 0, 0, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_mem(&w, 0, 8, 0, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_mem(&w, 0, 0, 8, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_mem(&w, 0, 0, 0, 16, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_mem(&w, 0, 0, 0, 0, 8192), -EINVAL);
	CHECK_ERR(kohaku_vec_mem(&w, 0, 0, 0, 0, -8193), -EINVAL);
	CHECK_ERR(kohaku_vec_vadd(&w, 16, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vsub(&w, 0, 16, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vmul(&w, 0, 0, 16), -EINVAL);
	CHECK_ERR(kohaku_vec_vfma(&w, 0, 0, 0, 16), -EINVAL);
	CHECK_ERR(kohaku_vec_vmax(&w, 0, 0, 99), -EINVAL);
	CHECK_ERR(kohaku_vec_vmin(&w, 99, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vld(&w, 0, 0, 0, 0), -EINVAL);	/* F_DTYPE */
	CHECK_ERR(kohaku_vec_vld(&w, 0, 0, 0, 3), -EINVAL);
	CHECK_ERR(kohaku_vec_vst(&w, 0, 0, 0, 7), -EINVAL);
	CHECK_ERR(kohaku_vec_vst(&w, 0, 8, 0, KH_VEC_DT_FP16), -EINVAL);
	CHECK_ERR(kohaku_vec_vld(&w, 0, 0, 9000, KH_VEC_DT_FP16), -EINVAL);
	CHECK_ERR(kohaku_vec_vfill(&w, 0, 512), -EINVAL);
	CHECK_ERR(kohaku_vec_vfill(&w, 8, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vdrain(&w, 0, 512), -EINVAL);
	CHECK_ERR(kohaku_vec_vdrain_node(&w, 0, 0, 16, 0, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vdrain_node(&w, 0, 0, 0, 16, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vdrain_node(&w, 0, 0, 0, 0, 16, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vdrain_node(&w, 0, 512, 0, 0, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vsetvl(&w, 16), -EINVAL);
	CHECK_ERR(kohaku_vec_vsetmode(&w, 4), -EINVAL);
	CHECK_ERR(kohaku_vec_vloop(&w, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vloop(&w, 0, 16), -EINVAL);
	CHECK_ERR(kohaku_vec_vloop(&w, 16, 1), -EINVAL);
	CHECK_EQ(w, 0x12345678u);	/* nothing written */
	CHECK_ERR(kohaku_vec_vseti(w2, 0, 0x1000000), -EINVAL);
	CHECK_ERR(kohaku_vec_vseti(w2, 16, 0), -EINVAL);
	CHECK_ERR(kohaku_vec_vseti_k3(w2, 0x1000000), -EINVAL);
	CHECK(w2[0] == 1 && w2[1] == 2);
}

TEST_F(rt, fault_codes_in_words)
{
	char b[160];

	CHECK(strstr(kohaku_vec_fault_describe(KH_VEC_F_VL, b, sizeof(b)),
		     "F_VL") != NULL);
	CHECK(strstr(b, "code 7") != NULL);
	CHECK(strstr(kohaku_vec_fault_describe(KH_VEC_F_NM_SEED, b, sizeof(b)),
		     "not modelled") != NULL);
	CHECK(strstr(kohaku_vec_fault_describe(0x1234, b, sizeof(b)),
		     "0x00001234") != NULL);
	CHECK_EQ(kohaku_vec_fault_describe(1, NULL, 0)[0], 0);
}

/* ---- kernels through the driver ---- */

/* FP16 from its definition */
static float f16_to_float(uint16_t h)
{
	unsigned int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else
		v = e ? ldexpf((float)(1024 + m), (int)e - 25) :
			ldexpf((float)m, -24);
	return (h & 0x8000) ? -v : v;
}

/* only for values FP16 holds exactly (the tests' data and results) */
static uint16_t float_to_f16_exact(float f)
{
	unsigned int s = signbit(f) ? 0x8000 : 0;
	float a = fabsf(f);
	int ex;

	if (a == 0)
		return (uint16_t)s;
	ex = ilogbf(a);
	if (ex < -14)
		return (uint16_t)(s | (unsigned int)ldexpf(a, 24));
	return (uint16_t)(s | ((unsigned int)(ex + 15) << 10) |
			  ((unsigned int)ldexpf(a, 10 - ex) & 0x3ff));
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* halves in [-16, 16], with +0 and -0 now and then */
static uint16_t half_val(uint32_t *s)
{
	uint32_t r = lcg(s);

	if (r % 11 == 0)
		return (r & 0x100) ? 0x8000 : 0;
	return float_to_f16_exact((float)((int)(r % 65) - 32) * 0.5f);
}

/*
 * The unit's op on exact operands: the value is the float result (exact
 * here); a zero's sign per docs/spec/vec.md: every op goes through the FMA
 * as a*b + c, a zero product with a zero addend takes the addend's sign,
 * an exact cancellation is +0, and VMUL/VMAX/VMIN/VMOV add +0.
 */
static uint16_t ref_op(unsigned int op, uint16_t ha, uint16_t hb, uint16_t hc)
{
	float a = f16_to_float(ha), b = f16_to_float(hb), c = f16_to_float(hc);
	float p, add, r;

	switch (op) {
	case KH_VEC_VADD:
		p = a; add = c; break;
	case KH_VEC_VSUB:
		p = a; add = -c; break;
	case KH_VEC_VFMA:
		p = a * b; add = c; break;
	case KH_VEC_VMUL:
		p = a * b; add = 0.0f; break;
	case KH_VEC_VMAX:
		p = a < b ? b : a; add = 0.0f; break;
	default:	/* VMIN */
		p = a > b ? b : a; add = 0.0f; break;
	}
	r = p + add;
	if (r != 0)
		return float_to_f16_exact(r);
	if (p == 0 && add == 0)
		return signbit(add) ? 0x8000 : 0;
	return 0;	/* an exact cancellation */
}

/* one unit's kernel: in = a, b, c (128 FP16 each); out = n_out vectors */
struct vt_buf {
	uint32_t hin, hout;
	uint64_t ain, aout;
};

#define N	KH_VEC_VLMAX
#define VW	(N * 2 / KH_VEC_WORD_BYTES)	/* L1 words a vector: 8 */
#define GUARD	64

static int vt_bufs(kohaku_device *dev, const struct drm_kohaku_node *nd,
		   const uint16_t *in, unsigned int n_in, unsigned int n_out,
		   struct vt_buf *b)
{
	unsigned char g[8 * N * 2 + GUARD];
	int r;

	memset(b, 0, sizeof(*b));
	memset(g, 0xa5, sizeof(g));
	r = kohaku_bo_create(dev, nd->mesh, n_in * N * 2, &b->hin, &b->ain);
	if (!r)
		r = kohaku_bo_create(dev, nd->mesh, n_out * N * 2 + GUARD,
				     &b->hout, &b->aout);
	if (!r)
		r = kohaku_bo_write(dev, b->hin, 0, in, n_in * N * 2);
	if (!r)
		r = kohaku_bo_write(dev, b->hout, 0, g, n_out * N * 2 + GUARD);
	return r;
}

static void vt_bufs_free(kohaku_device *dev, struct vt_buf *b)
{
	if (b->hin)
		kohaku_bo_free(dev, b->hin);
	if (b->hout)
		kohaku_bo_free(dev, b->hout);
}

/* descriptors 0 (DRAM in), 1 (L1 words), 2 (DRAM out), every field */
static unsigned int vt_descs(struct kohaku_inst *inst, const struct vt_buf *b,
			     unsigned int n_in, unsigned int n_out)
{
	const struct { uint64_t base; int32_t stride; uint32_t bound; } d[3] = {
		{ b->ain, KH_VEC_WORD_BYTES, n_in * VW },
		{ 0, 1, VW },
		{ b->aout, KH_VEC_WORD_BYTES, n_out * VW },
	};
	unsigned int k, dim, n = 0;

	for (k = 0; k < 3; k++) {
		CHECK_EQ(kohaku_inst_vec_desc_base(&inst[n++], k, d[k].base), 0);
		for (dim = 0; dim < KH_VEC_DIMS; dim++)
			CHECK_EQ(kohaku_inst_vec_desc_dim(&inst[n++], k, dim,
							  dim ? 0 : d[k].stride,
							  dim ? 1 : d[k].bound), 0);
	}
	return n;
}

/*
 * The kernel: fill n_in vectors into L1 0.., load them into v0.., run the
 * ALU words ops (results in v8.., one per op), store them after the
 * inputs, drain them; VHALT.  Returns the number of kernel words.
 */
static unsigned int vt_kernel(uint32_t *k, unsigned int n_in,
			      const uint32_t *ops, unsigned int n_ops)
{
	unsigned int n = 0, i;

	CHECK_EQ(kohaku_vec_vseti(&k[n], 0, N), 0);
	n += 2;
	CHECK_EQ(kohaku_vec_vsetvl(&k[n++], 0), 0);
	CHECK_EQ(kohaku_vec_vsetmode(&k[n++], KH_VEC_MODE_FLAT), 0);
	CHECK_EQ(kohaku_vec_vfill(&k[n++], 0, 0), 0);
	k[n++] = kohaku_vec_vbar();
	for (i = 0; i < n_in; i++)
		CHECK_EQ(kohaku_vec_vld(&k[n++], i, 1, (int32_t)(i * VW),
					KH_VEC_DT_FP16), 0);
	for (i = 0; i < n_ops; i++)
		k[n++] = ops[i];
	for (i = 0; i < n_ops; i++)
		CHECK_EQ(kohaku_vec_vst(&k[n++], 8 + i, 1,
					(int32_t)((n_in + i) * VW),
					KH_VEC_DT_FP16), 0);
	CHECK_EQ(kohaku_vec_vdrain(&k[n++], 2, n_in * VW), 0);
	k[n++] = kohaku_vec_vhalt();
	return n;
}

/* the whole program: IMEM the kernel at 0, the descriptors, RUN 0 */
static unsigned int vt_program(struct kohaku_inst *inst, const struct vt_buf *b,
			       unsigned int n_in, const uint32_t *ops,
			       unsigned int n_ops)
{
	uint32_t k[64];
	unsigned int nk = vt_kernel(k, n_in, ops, n_ops), n;

	CHECK_EQ(kohaku_inst_vec_imem_words(inst, 0, k, nk), 0);
	n = nk;
	n += vt_descs(&inst[n], b, n_in, n_ops);
	CHECK_EQ(kohaku_inst_vec_run(&inst[n++], 0), 0);
	return n;
}

static void vt_prog(struct kohaku_program *p, const struct drm_kohaku_node *nd,
		    const struct kohaku_inst *inst, unsigned int n, uint8_t txn)
{
	memset(p, 0, sizeof(*p));
	p->mesh = nd->mesh;
	p->x = nd->x;
	p->y = nd->y;
	p->txn = txn;
	p->n_insts = n;
	p->insts = inst;
}

/* the results against ref_op for every element; bad elements */
static unsigned int vt_check(kohaku_device *dev, const struct drm_kohaku_node *nd,
			     const struct vt_buf *b, const uint16_t *in,
			     const unsigned int *op_of, const unsigned int (*args)[3],
			     unsigned int n_ops)
{
	unsigned char out[8 * N * 2 + GUARD];
	uint16_t got;
	unsigned int i, j, bad = 0;

	if (kohaku_bo_read(dev, b->hout, 0, out, n_ops * N * 2 + GUARD)) {
		CHECK_MSG(0, "read back: %s", kohaku_last_error(dev));
		return 1;
	}
	for (j = 0; j < n_ops; j++)
		for (i = 0; i < N; i++) {
			uint16_t want = ref_op(op_of[j], in[args[j][0] * N + i],
					       in[args[j][1] * N + i],
					       in[args[j][2] * N + i]);

			memcpy(&got, &out[(j * N + i) * 2], 2);
			if (got != want && bad++ < 4)
				CHECK_MSG(0, "unit (%u,%u) op %u [%u]: 0x%04x, "
					  "expected 0x%04x (a 0x%04x b 0x%04x "
					  "c 0x%04x)", nd->x, nd->y, op_of[j], i,
					  got, want, in[args[j][0] * N + i],
					  in[args[j][1] * N + i],
					  in[args[j][2] * N + i]);
		}
	for (i = 0; i < GUARD; i++)
		if (out[n_ops * N * 2 + i] != 0xa5) {
			CHECK_MSG(0, "unit (%u,%u): the guard past the result "
				  "changed at +%u", nd->x, nd->y, i);
			bad++;
			break;
		}
	return bad;
}

/* the CLI's demo kernel: s = x + y, f = x*y + s */
static void demo_ops(uint32_t ops[2], unsigned int op_of[2],
		     unsigned int args[2][3])
{
	CHECK_EQ(kohaku_vec_vadd(&ops[0], 8, 0, 1), 0);
	CHECK_EQ(kohaku_vec_vfma(&ops[1], 9, 0, 1, 8), 0);
	op_of[0] = KH_VEC_VADD;
	args[0][0] = 0; args[0][1] = 0; args[0][2] = 1;	/* a + c */
	op_of[1] = KH_VEC_VFMA;
	args[1][0] = 0; args[1][1] = 1; args[1][2] = 2;	/* c: the sum */
}

TEST_F(rt, demo_kernel_on_every_unit_bit_exact)
{
	struct kohaku_inst inst[MAX_VEC][64];
	struct kohaku_program p[MAX_VEC];
	struct vt_buf b[MAX_VEC];
	uint16_t in[MAX_VEC][3 * N];
	struct kohaku_job_status st;
	uint32_t ops[2];
	unsigned int op_of[2], args[2][3], u, i, n, pass;
	uint32_t seed = 7;
	VT_OPEN(dev, nd, nv);

	demo_ops(ops, op_of, args);
	/* each unit alone, then all of them in one job */
	for (pass = 0; pass < 2; pass++) {
		for (u = 0; u < nv; u++) {
			for (i = 0; i < 2 * N; i++)
				in[u][i] = half_val(&seed);
			/* element-wise s for the reference's third operand */
			for (i = 0; i < N; i++)
				in[u][2 * N + i] = ref_op(KH_VEC_VADD, in[u][i],
							  0, in[u][N + i]);
			REQUIRE(vt_bufs(dev, &nd[u], in[u], 2, 2, &b[u]) == 0);
			n = vt_program(inst[u], &b[u], 2, ops, 2);
			vt_prog(&p[u], &nd[u], inst[u], n, (uint8_t)u);
			if (pass == 0) {
				CHECK_EQ(rt_run(dev, &p[u], 1, &st), 0);
				CHECK_MSG(st.status == KOHAKU_JOB_DONE,
					  "unit (%u,%u): %s", nd[u].x, nd[u].y,
					  kohaku_job_status_name(st.status));
			}
		}
		if (pass == 1) {
			CHECK_EQ(rt_run(dev, p, nv, &st), 0);
			CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		}
		for (u = 0; u < nv; u++) {
			CHECK_EQ(vt_check(dev, &nd[u], &b[u], in[u], op_of,
					  (const unsigned int (*)[3])args, 2), 0);
			vt_bufs_free(dev, &b[u]);
		}
	}
	check_diag("%u vec unit%s, each alone and all in one job", nv,
		 nv == 1 ? "" : "s");
	rt_close_card(dev);
}

TEST_F(rt, elementwise_ops_bit_exact_with_signed_zeros)
{
	struct kohaku_inst inst[96];
	struct kohaku_program p;
	struct kohaku_job_status st;
	struct vt_buf b;
	uint16_t in[3 * N];
	uint32_t ops[6];
	unsigned int op_of[6] = { KH_VEC_VADD, KH_VEC_VSUB, KH_VEC_VMUL,
				  KH_VEC_VFMA, KH_VEC_VMAX, KH_VEC_VMIN };
	unsigned int args[6][3] = {
		{ 0, 0, 1 }, { 0, 0, 1 }, { 0, 1, 0 },
		{ 0, 1, 2 }, { 0, 1, 0 }, { 0, 1, 0 },
	};
	unsigned int u, i, n;
	uint32_t seed = 99;
	VT_OPEN(dev, nd, nv);

	CHECK_EQ(kohaku_vec_vadd(&ops[0], 8, 0, 1), 0);
	CHECK_EQ(kohaku_vec_vsub(&ops[1], 9, 0, 1), 0);
	CHECK_EQ(kohaku_vec_vmul(&ops[2], 10, 0, 1), 0);
	CHECK_EQ(kohaku_vec_vfma(&ops[3], 11, 0, 1, 2), 0);
	CHECK_EQ(kohaku_vec_vmax(&ops[4], 12, 0, 1), 0);
	CHECK_EQ(kohaku_vec_vmin(&ops[5], 13, 0, 1), 0);
	for (u = 0; u < nv; u++) {
		for (i = 0; i < 3 * N; i++)
			in[i] = half_val(&seed);
		/* both zero, each sign, at the start: the zero-sign rules */
		in[0] = 0; in[N] = 0x8000; in[2 * N] = 0x8000;
		in[1] = 0x8000; in[N + 1] = 0; in[2 * N + 1] = 0;
		in[2] = 0x8000; in[N + 2] = 0x8000; in[2 * N + 2] = 0;
		in[3] = 0x4000; in[N + 3] = 0xc000; in[2 * N + 3] = 0x4000;
		REQUIRE(vt_bufs(dev, &nd[u], in, 3, 6, &b) == 0);
		n = vt_program(inst, &b, 3, ops, 6);
		vt_prog(&p, &nd[u], inst, n, 1);
		CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK_EQ(vt_check(dev, &nd[u], &b, in, op_of,
				  (const unsigned int (*)[3])args, 6), 0);
		vt_bufs_free(dev, &b);
	}
	rt_close_card(dev);
}

TEST_F(rt, kernel_fault_is_a_job_fault_with_the_node)
{
	struct kohaku_inst inst[8];
	struct kohaku_job_status st;
	uint32_t k[8];
	unsigned int u;
	char d[256], d2[256];
	VT_OPEN(dev, nd, nv);

	for (u = 0; u < nv; u++) {
		/* VSETVL of 0: F_VL */
		CHECK_EQ(kohaku_vec_vseti(k, 1, 0), 0);
		CHECK_EQ(kohaku_vec_vsetvl(&k[2], 1), 0);
		k[3] = kohaku_vec_vhalt();
		CHECK_EQ(kohaku_inst_vec_imem_words(inst, 100, k, 4), 0);
		CHECK_EQ(kohaku_inst_vec_run(&inst[4], 100), 0);
		CHECK_EQ(rt_run_on(dev, &nd[u], inst, 5, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.fault_code, KH_VEC_F_VL);
		CHECK_EQ(st.fault_flags, KOHAKU_FAULT_NODE_KNOWN |
			 KOHAKU_FAULT_CODE_KNOWN);
		CHECK_EQ(st.fault_mesh, nd[u].mesh);
		CHECK_EQ(st.fault_x, nd[u].x);
		CHECK_EQ(st.fault_y, nd[u].y);
		CHECK_EQ(st.n_faults, 1);
		kohaku_job_describe(&st, sizeof(st), d, sizeof(d));
		check_diag("%s: %s", d,
			 kohaku_vec_fault_describe(st.fault_code, d2, sizeof(d2)));
		/* a VLD of dtype 0 (the raw form): F_DTYPE */
		CHECK_EQ(kohaku_vec_mem(&k[0], KH_VEC_VLD, 0, 0, 0, 0), 0);
		k[1] = kohaku_vec_vhalt();
		CHECK_EQ(kohaku_inst_vec_imem_words(inst, 100, k, 2), 0);
		CHECK_EQ(kohaku_inst_vec_run(&inst[2], 100), 0);
		CHECK_EQ(rt_run_on(dev, &nd[u], inst, 3, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.fault_code, KH_VEC_F_DTYPE);
		CHECK_EQ(st.fault_flags, KOHAKU_FAULT_NODE_KNOWN |
			 KOHAKU_FAULT_CODE_KNOWN);
		CHECK_EQ(st.fault_x, nd[u].x);
		CHECK_EQ(st.fault_y, nd[u].y);
		CHECK_EQ(st.n_faults, 1);
		/* the same RUN mid-program: the node and the count are known,
		 * the code only when no later completion hid it (runtime.md) */
		CHECK_EQ(kohaku_inst_vec_imem(&inst[3], 200, k[1]), 0);
		CHECK_EQ(rt_run_on(dev, &nd[u], inst, 4, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
		if (st.fault_flags & KOHAKU_FAULT_CODE_KNOWN)
			CHECK_EQ(st.fault_code, KH_VEC_F_DTYPE);
		CHECK_EQ(st.fault_x, nd[u].x);
		CHECK_EQ(st.fault_y, nd[u].y);
		CHECK_EQ(st.n_faults, 1);
		/* and the unit runs a good kernel after */
		k[0] = kohaku_vec_vhalt();
		CHECK_EQ(kohaku_inst_vec_imem(&inst[0], 0, k[0]), 0);
		CHECK_EQ(kohaku_inst_vec_run(&inst[1], 0), 0);
		CHECK_EQ(rt_run_on(dev, &nd[u], inst, 2, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	}
	rt_close_card(dev);
}

/* the node's retired count and CU_DBG, live */
static bool live(kohaku_device *dev, const struct drm_kohaku_node *q,
		 uint32_t *retired, uint64_t *dbg)
{
	struct drm_kohaku_node t[64];
	unsigned int n = 0, i;

	if (kohaku_nodes(dev, KOHAKU_NODES_LIVE, t, 64, sizeof(*t), &n))
		return false;
	for (i = 0; i < n && i < 64; i++)
		if (t[i].mesh == q->mesh && t[i].x == q->x && t[i].y == q->y) {
			*retired = t[i].retired;
			*dbg = t[i].dbg;
			return true;
		}
	return false;
}

/*
 * The retire events of (x, y) in the model's trace, in order: code and
 * arg (exec_result; txn for a batch's last).  -1 when there is no trace.
 */
static int trace_retires(kohaku_device *dev, const struct drm_kohaku_node *q,
			 unsigned int *code, uint32_t *arg, unsigned int cap)
{
	char *text = NULL, *line, *save = NULL;
	int n = 0;

	if (kohaku_sim_read(dev, "trace", &text))
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long cyc;
		unsigned int mesh, x, y, c, a;

		if (sscanf(line, "%llu %u retire %u,%u code=0x%x arg=0x%x",
			   &cyc, &mesh, &x, &y, &c, &a) != 6)
			continue;
		if (mesh != q->mesh || x != q->x || y != q->y)
			continue;
		if ((unsigned int)n < cap) {
			code[n] = c;
			arg[n] = a;
		}
		n++;
	}
	free(text);
	return n;
}

TEST_F(rt, imem_desc_retire_0_and_run_reports_cycles)
{
	/*
	 * Cycle counts from vec.md's timing (model_vec.c has the same): a
	 * lone VHALT 5; VSETI, VSETVL, VHALT 15; VMOV at VL 64: 4 beats,
	 * the lanes empty 79 cycles later, 87.
	 */
	struct { uint32_t k[6]; unsigned int nk; uint32_t cycles; } ks[3];
	struct kohaku_inst inst[16];
	struct kohaku_job_status st;
	unsigned int u, j, i, n, code[32];
	uint32_t arg[32], r0, r1;
	uint64_t dbg;
	int nt;
	bool traced;
	VT_OPEN(dev, nd, nv);

	ks[0].k[0] = kohaku_vec_vhalt();
	ks[0].nk = 1;
	ks[0].cycles = 5;
	kohaku_vec_vseti(ks[1].k, 0, 64);
	kohaku_vec_vsetvl(&ks[1].k[2], 0);
	ks[1].k[3] = kohaku_vec_vhalt();
	ks[1].nk = 4;
	ks[1].cycles = 15;
	{
		struct kohaku_vec_alu f = { .op = KH_VEC_VMOV, .vd = 1 };

		kohaku_vec_alu(&ks[2].k[0], &f);
	}
	/*
	 * VHALT after it in every slot a D2/D4 chain could reach: the mode
	 * is an earlier job's, and the driver lets a non-administrator's
	 * RUN execute only words its own job loaded (docs/spec/vec.md)
	 */
	for (j = 1; j < 5; j++)
		ks[2].k[j] = kohaku_vec_vhalt();
	ks[2].nk = 5;
	ks[2].cycles = 87;	/* at VL 64, which kernel 1 left */

	traced = kohaku_sim_command(dev, "trace on events=unit") == 0;
	if (!traced)
		check_diag("no model trace here (%s): exec_result from CU_DBG only",
			 kohaku_last_error(dev));
	for (u = 0; u < nv; u++)
		for (j = 0; j < 3; j++) {
			/* IMEM the kernel, a DESC, RUN, and a no-op last so
			 * RUN's completion is an INST_COMPLETE with its result */
			CHECK_EQ(kohaku_inst_vec_imem_words(inst, 300, ks[j].k,
							    ks[j].nk), 0);
			n = ks[j].nk;
			CHECK_EQ(kohaku_inst_vec_desc_dim(&inst[n++], 7, 3, -5,
							  9), 0);
			CHECK_EQ(kohaku_inst_vec_run(&inst[n++], 300), 0);
			CHECK_EQ(kohaku_inst_vec_raw(&inst[n++], 0, 0), 0);
			REQUIRE(live(dev, &nd[u], &r0, &dbg));
			if (traced)
				CHECK_EQ(kohaku_sim_command(dev, "trace clear"), 0);
			CHECK_EQ(rt_run_on(dev, &nd[u], inst, n, &st), 0);
			CHECK_EQ(st.status, KOHAKU_JOB_DONE);
			CHECK_EQ(st.n_faults, 0);
			REQUIRE(live(dev, &nd[u], &r1, &dbg));
			CHECK_EQ(r1 - r0, n);
			/* CU_DBG = {0, the last RUN's cycles} */
			CHECK_MSG(dbg == ks[j].cycles, "unit (%u,%u) kernel %u: "
				  "CU_DBG %llu, expected %u", nd[u].x, nd[u].y,
				  j, (unsigned long long)dbg, ks[j].cycles);
			if (!traced)
				continue;
			nt = trace_retires(dev, &nd[u], code, arg, 32);
			CHECK_EQ(nt, (int)n);
			if (nt != (int)n)
				continue;
			for (i = 0; i + 2 < n; i++)	/* IMEMs and the DESC */
				CHECK_MSG(code[i] == KH_SIG_INST_COMPLETE &&
					  arg[i] == 0, "retire %u: code %#x "
					  "arg %#x", i, code[i], arg[i]);
			CHECK_EQ(code[n - 2], KH_SIG_INST_COMPLETE);
			CHECK_EQ(arg[n - 2], ks[j].cycles);	/* RUN */
			CHECK_EQ(code[n - 1], KH_SIG_BATCH_COMPLETE);
		}
	if (traced)
		kohaku_sim_command(dev, "trace off");
	rt_close_card(dev);
}

/* ---- what a job may reach (ABI 0.8; docs/spec/vec.md) ---- */

#define RW	8				/* words a reach job copies */
#define RB	(RW * KH_VEC_WORD_BYTES)	/* 256 bytes */
#define R_FILL	0	/* the VFILL's IMEM address: its operand */
#define R_DRAIN	2	/* the VDRAIN's */
#define R_RUN	14	/* the RUN's instruction index */

struct rdesc {
	uint64_t base;
	int32_t stride;
	uint32_t bound;
};

/*
 * IMEM 0-3: VFILL descriptor 0 -> L1 0, VBAR, drain (VDRAIN descriptor 2
 * from L1 0, or the word given), VHALT; DESC 0 and 2, every field; RUN 0
 * (instruction R_RUN).  The fill and drain walk dimension 0 only.
 */
static unsigned int reach_prog(struct kohaku_inst *inst, const struct rdesc *fill,
			       const struct rdesc *drain, uint32_t drain_word)
{
	const struct rdesc *d[2] = { fill, drain };
	const unsigned int ad[2] = { 0, 2 };
	unsigned int n, j, dim;
	uint32_t k[4];

	CHECK_EQ(kohaku_vec_vfill(&k[0], 0, 0), 0);
	k[1] = kohaku_vec_vbar();
	if (drain_word)
		k[2] = drain_word;
	else
		CHECK_EQ(kohaku_vec_vdrain(&k[2], 2, 0), 0);
	k[3] = kohaku_vec_vhalt();
	CHECK_EQ(kohaku_inst_vec_imem_words(inst, 0, k, 4), 0);
	n = 4;
	for (j = 0; j < 2; j++) {
		CHECK_EQ(kohaku_inst_vec_desc_base(&inst[n++], ad[j], d[j]->base), 0);
		for (dim = 0; dim < KH_VEC_DIMS; dim++)
			CHECK_EQ(kohaku_inst_vec_desc_dim(&inst[n++], ad[j], dim,
							  dim ? 0 : d[j]->stride,
							  dim ? 1 : d[j]->bound), 0);
	}
	CHECK_EQ(kohaku_inst_vec_run(&inst[n++], 0), 0);
	return n;
}

/* SUBMIT a vec program through the raw ioctl; the request is left in *s */
static int raw_vec(kohaku_device *dev, const struct drm_kohaku_node *nd,
		   const struct kohaku_inst *inst, unsigned int n, uint32_t flags,
		   const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		   struct drm_kohaku_submit *s)
{
	return rt_submit_on(dev, nd, inst, n, flags, bos, n_bos, s);
}

static void vwait(kohaku_device *dev, uint64_t job, uint32_t want)
{
	struct kohaku_job_status st;

	CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, want);
}

/* refused with why at RUN, operand op (an IMEM address), and nothing ran */
#define VREFUSED(dev, nd, s, ret, why, inst_, op, addr, len, before) do {	\
		CHECK_ERR(ret, -EACCES);					\
		CHECK_EQ((s).refused_why, why);					\
		CHECK_EQ((s).refused_program, 0);				\
		CHECK_EQ((s).refused_inst, inst_);				\
		CHECK_EQ((s).refused_operand, op);				\
		CHECK_EQ((s).refused_addr, (uint64_t)(addr));			\
		CHECK_EQ((s).refused_len, (uint64_t)(len));			\
		CHECK_EQ(rt_jobs_done(dev, (nd)->mesh), before);			\
	} while (0)

/* an input BO of RB bytes (a pattern) and an output BO of RB (0xa5) */
struct rbufs {
	uint32_t hin, hout;
	uint64_t ain, aout;
	unsigned char in[RB];
};

static void rbufs_make(kohaku_device *dev, unsigned int mesh, struct rbufs *b,
		       unsigned int seed)
{
	unsigned char g[RB];
	unsigned int i;

	for (i = 0; i < RB; i++)
		b->in[i] = (unsigned char)(i * 13 + seed);
	memset(g, 0xa5, sizeof(g));
	REQUIRE(kohaku_bo_create(dev, mesh, RB, &b->hin, &b->ain) == 0);
	REQUIRE(kohaku_bo_create(dev, mesh, RB, &b->hout, &b->aout) == 0);
	CHECK_OK(dev, kohaku_bo_write(dev, b->hin, 0, b->in, RB));
	CHECK_OK(dev, kohaku_bo_write(dev, b->hout, 0, g, RB));
}

static void rbufs_free(kohaku_device *dev, struct rbufs *b)
{
	kohaku_bo_free(dev, b->hin);
	kohaku_bo_free(dev, b->hout);
}

/* the output BO holds the input's words in order (rev: reversed) */
static bool rbufs_copied(kohaku_device *dev, const struct rbufs *b, bool rev)
{
	unsigned char out[RB];
	unsigned int w;

	if (kohaku_bo_read(dev, b->hout, 0, out, RB))
		return false;
	for (w = 0; w < RW; w++)
		if (memcmp(&out[w * 32], &b->in[(rev ? RW - 1 - w : w) * 32], 32))
			return false;
	return true;
}

/* both BOs as they were made */
static bool rbufs_untouched(kohaku_device *dev, const struct rbufs *b)
{
	unsigned char out[RB], g[RB];

	memset(g, 0xa5, sizeof(g));
	if (kohaku_bo_read(dev, b->hout, 0, out, RB) || memcmp(out, g, RB))
		return false;
	if (kohaku_bo_read(dev, b->hin, 0, out, RB) || memcmp(out, b->in, RB))
		return false;
	return true;
}

TEST_F(rt, reach_vec_inside_runs_bit_exact)
{
	struct drm_kohaku_job_bo bos[2] = {
		{ .flags = KOHAKU_JOB_BO_READ }, { .flags = KOHAKU_JOB_BO_WRITE },
	};
	struct kohaku_inst inst[16];
	struct drm_kohaku_submit s;
	struct rdesc f, d;
	struct rbufs b;
	unsigned int n;
	VT_OPEN(dev, nd, nv);

	(void)nv;
	rbufs_make(dev, nd[0].mesh, &b, 1);
	bos[0].handle = b.hin;
	bos[1].handle = b.hout;
	/* by a list: the input read only, the output write only */
	f = (struct rdesc){ b.ain, 32, RW };
	d = (struct rdesc){ b.aout, 32, RW };
	n = reach_prog(inst, &f, &d, 0);
	CHECK_EQ(n, R_RUN + 1);
	CHECK_OK(dev, raw_vec(dev, &nd[0], inst, n, 0, bos, 2, &s));
	CHECK_EQ(s.refused_why, 0);
	vwait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK(rbufs_copied(dev, &b, false));
	/* a negative stride from the input's last word: its words reversed;
	 * an unaligned base inside the output (MAG aligns it down), FILE_BOS */
	f = (struct rdesc){ b.ain + RB - 32, -32, RW };
	d = (struct rdesc){ b.aout + 5, 32, RW };
	n = reach_prog(inst, &f, &d, 0);
	CHECK_OK(dev, raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS,
			      NULL, 0, &s));
	vwait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK(rbufs_copied(dev, &b, true));
	rbufs_free(dev, &b);
	rt_close_card(dev);
}

TEST_F(rt, reach_vec_outside_refused_nothing_sent)
{
	struct drm_kohaku_job_bo bos[2] = {
		{ .flags = KOHAKU_JOB_BO_READ }, { .flags = KOHAKU_JOB_BO_WRITE },
	};
	struct kohaku_inst inst[16];
	struct drm_kohaku_submit s;
	struct rdesc f, d;
	struct rbufs b;
	uint64_t before;
	uint32_t hz;
	uint64_t az;
	unsigned int n;
	int ret;
	VT_OPEN(dev, nd, nv);

	(void)nv;
	rbufs_make(dev, nd[0].mesh, &b, 2);
	bos[0].handle = b.hin;
	bos[1].handle = b.hout;
	before = rt_jobs_done(dev, nd[0].mesh);
	f = (struct rdesc){ b.ain, 32, RW };
	d = (struct rdesc){ b.aout, 32, RW };

	/* the fill one word (element) past the input's end */
	f.base = b.ain + 32;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, 0, bos, 2, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_FILL,
		 b.ain + 32, RB, before);
	/* the drain one byte before the output (aligned down: a word before) */
	f.base = b.ain;
	d.base = b.aout - 1;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, 0, bos, 2, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_DRAIN,
		 b.aout - 32, RB, before);
	/* the drain one element past the output's end, through FILE_BOS */
	d.base = b.aout;
	d.bound = RW + 1;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_DRAIN,
		 b.aout, RB + 32, before);
	/* a negative stride one word below the output's start (the first BO
	 * may sit at address 0: below it is the wrap, next) */
	d.bound = RW;
	f = (struct rdesc){ b.aout + RB - 32, -32, RW + 1 };
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_FILL,
		 b.aout - 32, RB + 32, before);
	/* below address 0: the walk wraps */
	f = (struct rdesc){ 32, -64, 2 };
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, 0, bos, 2, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_WRAPS, R_RUN, R_FILL,
		 (uint64_t)-32, 96, before);
	/* the drain into the input, named read only */
	f = (struct rdesc){ b.ain, 32, RW };
	d.base = b.ain;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, 0, bos, 2, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_INTENT, R_RUN, R_DRAIN,
		 b.ain, RB, before);
	/* the fill from the output, named write only */
	f.base = b.aout;
	d.base = b.aout;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, 0, bos, 2, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_INTENT, R_RUN, R_FILL,
		 b.aout, RB, before);
	/* the input's BO not named at all */
	f.base = b.ain;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, 0, &bos[1], 1, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_FILL,
		 b.ain, RB, before);
	/* spanning the output and another BO of the file (FILE_BOS) */
	CHECK_OK(dev, kohaku_bo_create(dev, nd[0].mesh, 4096, &hz, &az));
	d = (struct rdesc){ b.aout + RB - 32, 32, 2 };
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_DRAIN,
		 b.aout + RB - 32, 64, before);
	CHECK_OK(dev, kohaku_bo_free(dev, hz));
	/* nothing of any refused job reached the card */
	CHECK(rbufs_untouched(dev, &b));
	CHECK_EQ(rt_jobs_done(dev, nd[0].mesh), before);
	rbufs_free(dev, &b);
	rt_close_card(dev);
}

TEST_F(rt, reach_vec_other_files_buffer_refused)
{
	struct kohaku_inst inst[16];
	struct drm_kohaku_submit s;
	kohaku_device *other = NULL;
	struct rdesc f, d;
	struct rbufs b, o;
	uint64_t before;
	unsigned int n;
	int ret;
	VT_OPEN(dev, nd, nv);

	(void)nv;
	rbufs_make(dev, nd[0].mesh, &b, 3);
	CHECK_OK(dev, kohaku_reopen(dev, &other));
	REQUIRE(other);
	rbufs_make(other, nd[0].mesh, &o, 4);
	before = rt_jobs_done(dev, nd[0].mesh);
	/* the other file's output as this job's sink */
	f = (struct rdesc){ b.ain, 32, RW };
	d = (struct rdesc){ o.aout, 32, RW };
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_DRAIN,
		 o.aout, RB, before);
	/* or its input, to read */
	f.base = o.ain;
	d.base = b.aout;
	n = reach_prog(inst, &f, &d, 0);
	ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_OUTSIDE, R_RUN, R_FILL,
		 o.ain, RB, before);
	CHECK(rbufs_untouched(other, &o));
	CHECK(rbufs_untouched(dev, &b));
	rbufs_free(other, &o);
	kohaku_close(other);
	rbufs_free(dev, &b);
	rt_close_card(dev);
}

TEST_F(rt, reach_vec_run_on_an_earlier_jobs_state_needs_admin)
{
	struct kohaku_inst inst[16];
	struct drm_kohaku_submit s;
	kohaku_device *u;
	struct rdesc f, d;
	struct rbufs b;
	uint64_t before;
	uint32_t k[3];
	unsigned int n;
	int ret;
	VT_OPEN(dev, nd, nv);

	(void)nv;
	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	rbufs_make(u, nd[0].mesh, &b, 5);
	f = (struct rdesc){ b.ain, 32, RW };
	d = (struct rdesc){ b.aout, 32, RW };
	/* the whole program in one job runs */
	n = reach_prog(inst, &f, &d, 0);
	CHECK_OK(u, raw_vec(u, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s));
	vwait(u, s.job_id, KOHAKU_JOB_DONE);
	CHECK(rbufs_copied(u, &b, false));
	before = rt_jobs_done(u, nd[0].mesh);
	/* RUN alone: the kernel words are the earlier job's */
	ret = raw_vec(u, &nd[0], &inst[R_RUN], 1, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(u, &nd[0], s, ret, KOHAKU_REFUSED_UNCHECKABLE, 0, 0, 0, 0, before);
	/* the kernel and RUN, the descriptors the earlier job's */
	inst[4] = inst[R_RUN];
	ret = raw_vec(u, &nd[0], inst, 5, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(u, &nd[0], s, ret, KOHAKU_REFUSED_UNCHECKABLE, 4, R_FILL, 0, 0, before);
	/* descriptor 2's base alone: its dimensions the earlier job's */
	n = reach_prog(inst, &f, &d, 0);
	inst[10] = inst[R_RUN];
	ret = raw_vec(u, &nd[0], inst, 11, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(u, &nd[0], s, ret, KOHAKU_REFUSED_UNCHECKABLE, 10, R_DRAIN, 2, 0, before);
	/* an ALU word in the mode an earlier job left: in D2/D4 it would take
	 * the VHALT as a chain stage and run IMEM 2 on */
	{
		struct kohaku_vec_alu a = { .op = KH_VEC_VMOV, .vd = 1 };

		CHECK_EQ(kohaku_vec_alu(&k[0], &a), 0);
		k[1] = kohaku_vec_vhalt();
		CHECK_EQ(kohaku_inst_vec_imem_words(inst, 0, k, 2), 0);
		CHECK_EQ(kohaku_inst_vec_run(&inst[2], 0), 0);
		ret = raw_vec(u, &nd[0], inst, 3, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
		VREFUSED(u, &nd[0], s, ret, KOHAKU_REFUSED_UNCHECKABLE, 2, 2, 0, 0,
			 before);
		/* with the mode set first it runs */
		CHECK_EQ(kohaku_vec_vsetmode(&k[0], KH_VEC_MODE_FLAT), 0);
		CHECK_EQ(kohaku_vec_alu(&k[1], &a), 0);
		k[2] = kohaku_vec_vhalt();
		CHECK_EQ(kohaku_inst_vec_imem_words(inst, 0, k, 3), 0);
		CHECK_EQ(kohaku_inst_vec_run(&inst[3], 0), 0);
		CHECK_OK(u, raw_vec(u, &nd[0], inst, 4, KOHAKU_SUBMIT_FILE_BOS,
				    NULL, 0, &s));
		vwait(u, s.job_id, KOHAKU_JOB_DONE);
	}
	/* the administrator's RUN alone is not checked: it runs (unless
	 * this whole process opens unprivileged) */
	if (!getenv("KOHAKU_UNPRIVILEGED")) {
		CHECK_EQ(kohaku_inst_vec_run(&inst[0], 0), 0);
		CHECK_OK(dev, raw_vec(dev, &nd[0], inst, 1, KOHAKU_SUBMIT_FILE_BOS,
				      NULL, 0, &s));
		vwait(dev, s.job_id, KOHAKU_JOB_DONE);
	}
	rbufs_free(u, &b);
	kohaku_close(u);
	rt_close_card(dev);
}

/* a vec unit beside a POOL unit (2,0), a DXA unit (1,0), another vec (2,1) */
#define VEC_NODE_CARD					\
	"profile ship\n"				\
	"xxx  dxa  gp   xxx\n"				\
	"mag  vec  vec  scr\n"				\
	"xxx  scr  null xxx\n"

TEST_F(rt, reach_vec_drain_to_pool_dxa_or_no_node_refused)
{
	static const struct { unsigned int x, y; } bad[] = {
		{ 2, 0 }, { 1, 0 }, { 3, 0 }, { 15, 15 },
	};
	struct drm_kohaku_node nd[MAX_VEC];
	struct kohaku_inst inst[16];
	struct drm_kohaku_submit s;
	struct rdesc f, d;
	struct rbufs b;
	uint64_t before;
	unsigned int n, i, nv;
	uint32_t w;
	kohaku_device *dev;
	int ret;

	if (getenv("KOHAKU_DEVICE") || strcmp(getenv("KOHAKU_BACKEND"), "sim"))
		SKIP(return, "needs the in-process card with vec, POOL and DXA units");
	dev = rt_open_card(VEC_NODE_CARD);
	REQUIRE(dev != NULL);
	nv = rt_nodes_of(dev, KH_CU_VC, nd, MAX_VEC);
	REQUIRE(nv == 2);
	rbufs_make(dev, nd[0].mesh, &b, 6);
	before = rt_jobs_done(dev, nd[0].mesh);
	f = (struct rdesc){ b.ain, 32, RW };
	d = (struct rdesc){ 0, 32, RW };	/* CU_DATA offset 0, no ack */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(kohaku_vec_vdrain_node(&w, 2, 0, bad[i].x, bad[i].y, 0, 0), 0);
		n = reach_prog(inst, &f, &d, w);
		ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
		VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_NODE, R_RUN, R_DRAIN,
			 bad[i].y << 8 | bad[i].x, 0, before);
	}
	/* a sink in another mesh (the base's [33:26] nonzero) */
	CHECK_EQ(kohaku_vec_vdrain_node(&w, 2, 0, nd[1].x, nd[1].y, 0, 0), 0);
	d.base = 5ULL << 26;
	n = reach_prog(inst, &f, &d, w);
	ret = raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	VREFUSED(dev, &nd[0], s, ret, KOHAKU_REFUSED_NODE, R_RUN, R_DRAIN,
		 5ULL << 26, 0, before);
	/* the other vec unit's L1 takes it */
	d.base = 0;
	n = reach_prog(inst, &f, &d, w);
	CHECK_OK(dev, raw_vec(dev, &nd[0], inst, n, KOHAKU_SUBMIT_FILE_BOS,
			      NULL, 0, &s));
	vwait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(rt_jobs_done(dev, nd[0].mesh), before + 1);
	rbufs_free(dev, &b);
	rt_close_card(dev);
}

RT_TEST_MAIN
