// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The matmul cluster unit `mat` (docs/spec/mat.md) through libkohaku: the
 * CU_INST builders against the spec's bit table (positions written out
 * here, not taken from kh_mat.h), their refusals, the decode; then GEMM
 * blocks through the driver (FP16 A and B uploaded, FILLed through MAG's
 * QUANT path, one GEMM, DRAINed as FP16) bit-exact against the library's
 * host reference, kohaku_mat_gemm_ref(), for several shapes, on every mat
 * unit, one at a time and all in one job; the drained region and nothing
 * past it; the retirement count; the model's refusal of a far-mesh DRAIN
 * as a FAULT with its code.
 *
 * The runtime tests' maps (KOHAKU_TEST_MAP) have no mat unit, so on the
 * sim backend each test makes its own card from a description (the
 * shipped map, mesh_2x2_8+2: eight clusters, two vector cores); on the
 * kernel backend the device under test is used and the tests skip when it
 * has no mat unit (tests/vm runs them on a mesh_2x2_8+2 card).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"
#include "kohaku/kh_dxa.h"
#include "kohaku/kh_mat.h"
#include "kohaku/kh_mxfp7.h"
#include "kohaku/kh_pool.h"

/* on a card of its own: KohakuTPU's shipped map, the built-in mesh_2x2_8+2 */
#define MAX_MAT	16

/* open, and the mat units in nd[0..n), or SKIP */
#define MAT_OPEN(dev, nd, n)						\
	struct drm_kohaku_node nd[MAX_MAT];				\
	unsigned int n;							\
	kohaku_device *dev = rt_open_card("mesh_2x2_8+2");	\
	REQUIRE(dev != NULL);						\
	n = rt_nodes_of(dev, KH_CU_MG, nd, MAX_MAT);			\
	if (!n) {							\
		rt_close_card(dev);					\
		SKIP(return, "no mat unit on this card");			\
	}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* an FP16 with an exponent field in [elo, ehi], a zero now and then */
static uint16_t rnd_fp16(uint32_t *s, unsigned int elo, unsigned int ehi)
{
	unsigned int e = elo + rnd(s) % (ehi - elo + 1);

	if (rnd(s) % 16 == 0)
		return rnd(s) & 1 ? 0x8000 : 0;
	return (uint16_t)((rnd(s) & 1) << 15 | e << 10 | (rnd(s) & 0x3ff));
}

/* bits [hi:lo] of an instruction's payload */
static uint64_t bits(const struct kohaku_inst *in, unsigned int hi,
		     unsigned int lo)
{
	uint64_t v = 0;
	unsigned int b;

	for (b = hi + 1; b-- > lo;)
		v = v << 1 | ((in->w[b / 64] >> (b % 64)) & 1);
	return v;
}

static unsigned int popcount_inst(const struct kohaku_inst *in)
{
	unsigned int k, c = 0;

	for (k = 0; k < 4; k++)
		c += (unsigned int)__builtin_popcountll(in->w[k]);
	return c;
}

/* ---- builders ---- */

/* docs/spec/mat.md "CU_INST": a field, where it is, and how to set it */
struct field {
	const char *name;
	unsigned int hi, lo;
	void (*set)(struct kohaku_mat_fields *f, uint64_t v);
	uint64_t (*get)(const struct kohaku_mat_fields *f);
};

#define FIELD(nm, h, l)							\
	static void set_##nm(struct kohaku_mat_fields *f, uint64_t v)	\
	{								\
		f->nm = (__typeof__(f->nm))v;				\
	}								\
	static uint64_t get_##nm(const struct kohaku_mat_fields *f)	\
	{								\
		return f->nm;						\
	}
FIELD(n, 217, 202)
FIELD(sel, 201, 201)
FIELD(acc, 200, 200)
FIELD(gm, 199, 192)
FIELD(gn, 191, 184)
FIELD(nk, 183, 176)
FIELD(anchor, 175, 168)
FIELD(peers, 167, 144)
FIELD(npeer, 143, 142)
FIELD(preq, 141, 141)
FIELD(eoff, 140, 133)
FIELD(aoff, 132, 125)
FIELD(boff, 124, 117)
FIELD(emit, 116, 116)
FIELD(fuse, 115, 115)
FIELD(abank, 114, 114)
FIELD(bbank, 113, 113)
FIELD(fbank, 112, 112)
FIELD(dnode, 111, 111)
FIELD(dst_x, 110, 107)
FIELD(dst_y, 106, 103)
FIELD(dbuf, 102, 95)
FIELD(dflags, 94, 87)
FIELD(dack_y, 86, 83)
FIELD(dack_x, 82, 79)
FIELD(dmesh, 78, 77)
FIELD(dfin, 76, 69)

#define F(nm, h, l)	{ #nm, h, l, set_##nm, get_##nm }
static const struct field fields[] = {
	F(n, 217, 202), F(sel, 201, 201), F(acc, 200, 200), F(gm, 199, 192),
	F(gn, 191, 184), F(nk, 183, 176), F(anchor, 175, 168),
	F(peers, 167, 144), F(npeer, 143, 142), F(preq, 141, 141),
	F(eoff, 140, 133), F(aoff, 132, 125), F(boff, 124, 117),
	F(emit, 116, 116), F(fuse, 115, 115), F(abank, 114, 114),
	F(bbank, 113, 113), F(fbank, 112, 112), F(dnode, 111, 111),
	F(dst_x, 110, 107), F(dst_y, 106, 103), F(dbuf, 102, 95),
	F(dflags, 94, 87), F(dack_y, 86, 83), F(dack_x, 82, 79),
	F(dmesh, 78, 77), F(dfin, 76, 69),
};
#define N_FIELDS	(sizeof(fields) / sizeof(fields[0]))

TEST_F(rt, builders_against_the_bit_table)
{
	struct kohaku_mat_fields f, d;
	struct kohaku_inst in;
	unsigned int i, w;

	/* each field alone, all ones: exactly its bits, and it decodes */
	for (i = 0; i < N_FIELDS; i++) {
		const struct field *fl = &fields[i];
		uint64_t ones;

		w = fl->hi - fl->lo + 1;
		ones = (1ULL << w) - 1;
		memset(&f, 0, sizeof(f));
		fl->set(&f, ones);
		CHECK_EQ(kohaku_inst_mat(&in, 0, &f), 0);
		CHECK_MSG(bits(&in, fl->hi, fl->lo) == ones &&
			  popcount_inst(&in) == w,
			  "%s: not exactly bits [%u:%u]", fl->name, fl->hi, fl->lo);
		CHECK_EQ(kohaku_inst_mat_decode(&in, &d), 0);
		CHECK_MSG(fl->get(&d) == ones, "%s: decodes as 0x%llx", fl->name,
			  (unsigned long long)fl->get(&d));
		/* one past the width is refused */
		fl->set(&f, ones + 1);
		if (fl->get(&f) == ones + 1)
			CHECK_MSG(kohaku_inst_mat(&in, 0, &f) == -EINVAL,
				  "%s = 0x%llx accepted", fl->name,
				  (unsigned long long)(ones + 1));
	}
	/* op [255:252] */
	memset(&f, 0, sizeof(f));
	CHECK_EQ(kohaku_inst_mat(&in, 0xf, &f), 0);
	CHECK_EQ(bits(&in, 255, 252), 0xf);
	CHECK_EQ(popcount_inst(&in), 4);
	CHECK_EQ(kohaku_inst_mat(&in, 0x10, &f), -EINVAL);
	/* the 40-bit address: addr[33:0] at [251:218], addr[39:34] at [68:63] */
	f.addr = 0x3ffffffffULL;
	CHECK_EQ(kohaku_inst_mat(&in, 0, &f), 0);
	CHECK_EQ(bits(&in, 251, 218), 0x3ffffffffULL);
	CHECK_EQ(popcount_inst(&in), 34);
	f.addr = 0xfc00000000ULL;
	CHECK_EQ(kohaku_inst_mat(&in, 0, &f), 0);
	CHECK_EQ(bits(&in, 68, 63), 0x3f);
	CHECK_EQ(popcount_inst(&in), 6);
	f.addr = 0xa5c3f0e1d2ULL;
	CHECK_EQ(kohaku_inst_mat(&in, KH_MAT_OP_DRAIN, &f), 0);
	CHECK_EQ(kohaku_inst_mat_decode(&in, &d), KH_MAT_OP_DRAIN);
	CHECK_EQ(d.addr, 0xa5c3f0e1d2ULL);
	f.addr = 1ULL << 40;
	CHECK_EQ(kohaku_inst_mat(&in, 0, &f), -EINVAL);
	/* bits [62:0] are unused: never set */
	memset(&f, 0xff, sizeof(f));
	memset(&d, 0, sizeof(d));
	for (i = 0; i < N_FIELDS; i++)
		fields[i].set(&d, (1ULL << (fields[i].hi - fields[i].lo + 1)) - 1);
	d.addr = (1ULL << 40) - 1;
	CHECK_EQ(kohaku_inst_mat(&in, 0xf, &d), 0);
	CHECK_EQ(bits(&in, 62, 0), 0);
	CHECK_EQ(popcount_inst(&in), 256 - 63);
}

TEST_F(rt, checked_builders_and_their_refusals)
{
	struct kohaku_mat_fields f, d;
	struct kohaku_inst in;

	/* FILL */
	memset(&f, 0, sizeof(f));
	f.addr = 0x123456780ULL;
	f.n = 255;
	f.sel = 1;
	f.fbank = 1;
	f.eoff = 200;
	f.preq = 1;
	f.npeer = 2;
	f.peers = 0x2131;
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), 0);
	CHECK_EQ(kohaku_inst_mat_decode(&in, &d), KH_MAT_OP_FILL);
	CHECK(!memcmp(&f, &d, sizeof(f)));
	CHECK_EQ(bits(&in, 255, 252), 1);
	f.n = 256;			/* would never retire */
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), -EINVAL);
	f.n = 4;
	f.addr += 16;			/* not 32-byte aligned */
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), -EINVAL);
	f.addr -= 16;
	f.peers = 0x412131;		/* a third peer with npeer 2 */
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), -EINVAL);
	f.peers = 0;
	f.npeer = 0;
	f.gm = 1;			/* a GEMM field */
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), -EINVAL);
	f.gm = 0;
	f.dbuf = 2;			/* a DRAIN field */
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), -EINVAL);
	f.dbuf = 0;
	f.sel = 2;			/* does not fit */
	CHECK_EQ(kohaku_inst_mat_fill(&in, &f), -EINVAL);
	CHECK_EQ(kohaku_inst_mat_fill(NULL, &f), -EINVAL);
	CHECK_EQ(kohaku_inst_mat_fill(&in, NULL), -EINVAL);

	/* GEMM */
	memset(&f, 0, sizeof(f));
	f.gm = 16;
	f.gn = 16;
	f.nk = 16;
	f.anchor = KH_MX_ANCHOR;
	f.aoff = 3;
	f.boff = 250;
	f.abank = 1;
	f.bbank = 1;
	f.acc = 1;
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), 0);
	CHECK_EQ(kohaku_inst_mat_decode(&in, &d), KH_MAT_OP_GEMM);
	CHECK(!memcmp(&f, &d, sizeof(f)));
	f.nk = 17;			/* gm * nk = 272 entries > a bank */
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), -EINVAL);
	f.nk = 1;
	f.gm = 255;
	f.gn = 17;			/* 4335 tiles > 4096 */
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), -EINVAL);
	f.gn = 16;
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), 0);
	f.addr = 0x1000;		/* a destination without emit */
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), -EINVAL);
	f.emit = 1;
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), 0);
	f.addr = 0x1010;		/* emitted sub-tiles are 32 bytes */
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), -EINVAL);
	f.addr = 0x1000;
	f.eoff = 1;			/* a FILL field */
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), -EINVAL);
	f.eoff = 0;
	f.fuse = 1;			/* a DRAIN field */
	CHECK_EQ(kohaku_inst_mat_gemm(&in, &f), -EINVAL);

	/* DRAIN */
	memset(&f, 0, sizeof(f));
	f.addr = 0xfc00001000ULL;
	f.n = KH_MAT_TILES;
	f.fuse = 1;
	f.dnode = 1;
	f.dst_x = 2;
	f.dst_y = 3;
	f.dbuf = KH_MAT_BUF_PEER;
	f.dflags = 1;
	f.dack_x = 1;
	f.dack_y = 2;
	CHECK_EQ(kohaku_inst_mat_drain(&in, &f), 0);
	CHECK_EQ(kohaku_inst_mat_decode(&in, &d), KH_MAT_OP_DRAIN);
	CHECK(!memcmp(&f, &d, sizeof(f)));
	f.n = KH_MAT_TILES + 1;
	CHECK_EQ(kohaku_inst_mat_drain(&in, &f), -EINVAL);
	f.n = 1;
	f.dmesh = 1;			/* a far mesh without dfin */
	CHECK_EQ(kohaku_inst_mat_drain(&in, &f), -EINVAL);
	f.dfin = 0x11;
	CHECK_EQ(kohaku_inst_mat_drain(&in, &f), 0);
	f.aoff = 1;			/* a GEMM field */
	CHECK_EQ(kohaku_inst_mat_drain(&in, &f), -EINVAL);
	f.aoff = 0;
	f.addr = 0x1008;
	CHECK_EQ(kohaku_inst_mat_drain(&in, &f), -EINVAL);

	/* shapes */
	CHECK_EQ(kohaku_mat_shape_check(4, 4, 32), 0);
	CHECK_EQ(kohaku_mat_shape_check(4, 4, 48), -EINVAL);
	CHECK_EQ(kohaku_mat_shape_check(6, 4, 32), -EINVAL);
	CHECK_EQ(kohaku_mat_shape_check(4, 0, 32), -EINVAL);
	CHECK_EQ(kohaku_mat_shape_check(4 * 255, 4, 32), 0);
	CHECK_EQ(kohaku_mat_shape_check(4 * 256, 4, 32), -EINVAL);
	CHECK_EQ(kohaku_mat_shape_check(4 * 85, 4, 96), 0);	/* 255 entries */
	CHECK_EQ(kohaku_mat_shape_check(4 * 86, 4, 96), -EINVAL);
	CHECK_EQ(kohaku_mat_shape_check(4 * 64, 4 * 65, 32), -EINVAL);
	CHECK_EQ(kohaku_mat_shape_check(4 * 64, 4, 128), 0);	/* a whole bank */
}

TEST_F(rt, gemm_program)
{
	struct kohaku_inst in[KOHAKU_MAT_PROGRAM_MAX];
	struct kohaku_mat_fields d;
	unsigned int i, e;

	/* one FILL per operand: FILL A, FILL B, GEMM, DRAIN */
	CHECK_EQ(kohaku_mat_gemm_program(in, 4, 0x1000, 0x2000, 0x3000, 8, 12,
					 64, 0), 4);
	CHECK_EQ(kohaku_inst_mat_decode(&in[0], &d), KH_MAT_OP_FILL);
	CHECK(d.addr == 0x1000 && d.n == 4 && d.sel == 0 && d.eoff == 0);
	CHECK_EQ(kohaku_inst_mat_decode(&in[1], &d), KH_MAT_OP_FILL);
	CHECK(d.addr == 0x2000 && d.n == 6 && d.sel == 1 && d.eoff == 0);
	CHECK_EQ(kohaku_inst_mat_decode(&in[2], &d), KH_MAT_OP_GEMM);
	CHECK(d.gm == 2 && d.gn == 3 && d.nk == 2 && d.anchor == 40 &&
	      !d.acc && !d.aoff && !d.boff && !d.emit);
	CHECK_EQ(kohaku_inst_mat_decode(&in[3], &d), KH_MAT_OP_DRAIN);
	CHECK(d.addr == 0x3000 && d.n == 6 && !d.dnode);
	/* FILLs of at most 7 entries: 25 of A in 4, 15 of B in 3 */
	CHECK_EQ(kohaku_mat_gemm_program(in, KOHAKU_MAT_PROGRAM_MAX, 0x1000,
					 0x20000, 0x3000, 20, 12, 160, 7), 9);
	for (i = 0, e = 0; i < 4; i++, e += 7) {
		CHECK_EQ(kohaku_inst_mat_decode(&in[i], &d), KH_MAT_OP_FILL);
		CHECK(d.addr == 0x1000 + 256 * e && d.eoff == e && !d.sel &&
		      d.n == (i < 3 ? 7 : 4));
	}
	for (e = 0; i < 7; i++, e += 7) {
		CHECK_EQ(kohaku_inst_mat_decode(&in[i], &d), KH_MAT_OP_FILL);
		CHECK(d.addr == 0x20000 + 256 * e && d.eoff == e && d.sel &&
		      d.n == (i < 6 ? 7 : 1));
	}
	/* the default: FILLs of 128 (the ship's receive FIFO of 512 beats) */
	CHECK_EQ(kohaku_mat_gemm_program(in, KOHAKU_MAT_PROGRAM_MAX, 0, 0x40000,
					 0x80000, 4 * 64, 4, 128, 0), 5);
	CHECK_EQ(kohaku_inst_mat_decode(&in[1], &d), KH_MAT_OP_FILL);
	CHECK(d.n == 128 && d.eoff == 128 && d.addr == 128 * 256);
	/* refusals */
	CHECK_EQ(kohaku_mat_gemm_program(in, 3, 0, 0, 0, 4, 4, 32, 0), -ENOSPC);
	CHECK_EQ(kohaku_mat_gemm_program(in, 8, 0, 0, 0, 4, 4, 32, 256), -EINVAL);
	CHECK_EQ(kohaku_mat_gemm_program(in, 8, 16, 0, 0, 4, 4, 32, 0), -EINVAL);
	CHECK_EQ(kohaku_mat_gemm_program(in, 8, 0, 0, 8, 4, 4, 32, 0), -EINVAL);
	CHECK_EQ(kohaku_mat_gemm_program(in, 8, 0, 0, 0, 4, 4, 40, 0), -EINVAL);
	CHECK_EQ(kohaku_mat_gemm_program(NULL, 8, 0, 0, 0, 4, 4, 32, 0), -EINVAL);
}

/* the reference on cases whose answer follows from the rules alone */
TEST_F(rt, reference_small_cases)
{
	uint16_t a[8 * 64], b[64 * 4], c[32], c2[32];
	uint32_t seed = 77;
	unsigned int i;

	/* all zero gives +0 */
	memset(a, 0, sizeof(a));
	for (i = 0; i < 64 * 4; i++)
		b[i] = rnd_fp16(&seed, 10, 20);
	CHECK_EQ(kohaku_mat_gemm_ref(a, b, 8, 4, 64, c), 0);
	for (i = 0; i < 32; i++)
		CHECK_EQ(c[i], 0);
	/* huge operands saturate to 0x7bff with the product's sign */
	for (i = 0; i < 8 * 64; i++)
		a[i] = 0x7800;		/* 32768 */
	for (i = 0; i < 64 * 4; i++)
		b[i] = 0xf800;		/* -32768 */
	CHECK_EQ(kohaku_mat_gemm_ref(a, b, 8, 4, 64, c), 0);
	for (i = 0; i < 32; i++)
		CHECK_EQ(c[i], 0xfbff);
	/* tiny ones flush to a zero of the product's sign */
	for (i = 0; i < 8 * 64; i++)
		a[i] = 0x0400;		/* 2^-14 */
	for (i = 0; i < 64 * 4; i++)
		b[i] = 0x8400;
	CHECK_EQ(kohaku_mat_gemm_ref(a, b, 8, 4, 64, c), 0);
	for (i = 0; i < 32; i++)
		CHECK_EQ(c[i], 0x8000);
	/* the quantiser, the merge and every rounding are sign-symmetric:
	 * -A gives -C bit for bit (a zero stays +0) */
	for (i = 0; i < 8 * 64; i++)
		a[i] = rnd_fp16(&seed, 8, 22);
	for (i = 0; i < 64 * 4; i++)
		b[i] = rnd_fp16(&seed, 8, 22);
	CHECK_EQ(kohaku_mat_gemm_ref(a, b, 8, 4, 64, c), 0);
	for (i = 0; i < 8 * 64; i++)
		a[i] ^= 0x8000;
	CHECK_EQ(kohaku_mat_gemm_ref(a, b, 8, 4, 64, c2), 0);
	for (i = 0; i < 32; i++)
		CHECK_MSG(c2[i] == (c[i] ? c[i] ^ 0x8000 : 0),
			  "C[%u] = 0x%04x, -C 0x%04x", i, c[i], c2[i]);
	CHECK_EQ(kohaku_mat_gemm_ref(a, b, 8, 4, 33, c), -EINVAL);
	CHECK_EQ(kohaku_mat_gemm_ref(NULL, b, 8, 4, 64, c), -EINVAL);
}

static double h2d(uint16_t h)
{
	int e = (h >> 10) & 0x1f, f = h & 0x3ff;
	double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);

	return h & 0x8000 ? -v : v;
}

/* the layouts and the reference compute A . B, not a transpose of it:
 * close to the exact product in doubles, within MXFP7's precision (an
 * element is off by at most 1/2 of its block's step, 1/57 of its peak) */
TEST_F(rt, reference_is_the_matrix_product)
{
	enum { M = 12, N = 8, K = 96 };
	static uint16_t a[M * K], b[K * N], c[M * N];
	uint32_t seed = 99;
	unsigned int i, j, k, bad = 0;

	for (i = 0; i < M * K; i++)
		a[i] = rnd_fp16(&seed, 12, 17);
	for (i = 0; i < K * N; i++)
		b[i] = rnd_fp16(&seed, 12, 17);
	/* one distinctive row and column, so a transpose cannot agree */
	for (k = 0; k < K; k++) {
		a[5 * K + k] = 0x4800;		/* 8.0 */
		b[k * N + 2] = k < 32 ? 0x3c00 : 0;
	}
	REQUIRE(kohaku_mat_gemm_ref(a, b, M, N, K, c) == 0);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			double exact = 0, mag = 0, got = h2d(c[i * N + j]);

			for (k = 0; k < K; k++) {
				exact += h2d(a[i * K + k]) * h2d(b[k * N + j]);
				mag += fabs(h2d(a[i * K + k]) * h2d(b[k * N + j]));
			}
			if (fabs(got - exact) > 0.04 * mag + 1e-3 && bad++ < 3)
				check_fail_at(__FILE__, __LINE__,
					    "C[%u][%u] = %g, exact %g (sum |ab| %g)",
					    i, j, got, exact, mag);
		}
	CHECK_EQ(bad, 0);
	/* row 5 x column 2: 32 x 8.0 x 1.0 = 256; MXFP7 holds 8.0 as 57 x
	 * 2^-3 x 9/8 = 8.016 and 1.0 as 1.002, so about 257: within 1% */
	CHECK_MSG(fabs(h2d(c[5 * N + 2]) - 256) < 2.6, "C[5][2] = %g",
		  h2d(c[5 * N + 2]));
}

/* ---- through the driver ---- */

#define GUARD	64
#define GUARD_B	0x5a

/* one GEMM on one unit: operands, BOs, and the expected C */
struct mat_job {
	const struct drm_kohaku_node *nd;
	unsigned int m, n, k;
	uint16_t *a, *b, *pa, *pb, *want;
	uint32_t ha, hb, hc;
	uint64_t aa, ab, ac;
	struct kohaku_inst insts[KOHAKU_MAT_PROGRAM_MAX];
	unsigned int n_insts;
};

static int job_setup(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     unsigned int m, unsigned int n, unsigned int k,
		     unsigned int elo, unsigned int ehi, uint32_t seed,
		     unsigned int fill_max, struct mat_job *j)
{
	size_t cb = (size_t)m * n * 2;
	unsigned char *fill;
	unsigned int i;
	int r;

	memset(j, 0, sizeof(*j));
	j->nd = nd;
	j->m = m;
	j->n = n;
	j->k = k;
	j->a = malloc((size_t)m * k * 2);
	j->b = malloc((size_t)k * n * 2);
	j->pa = malloc((size_t)m * k * 2);
	j->pb = malloc((size_t)k * n * 2);
	j->want = malloc(cb);
	if (!j->a || !j->b || !j->pa || !j->pb || !j->want)
		return -ENOMEM;
	seed = seed * 2654435761u + 1;
	for (i = 0; i < m * k; i++)
		j->a[i] = rnd_fp16(&seed, elo, ehi);
	for (i = 0; i < k * n; i++)
		j->b[i] = rnd_fp16(&seed, elo, ehi);
	r = kohaku_mat_gemm_ref(j->a, j->b, m, n, k, j->want);
	if (!r)
		r = kohaku_mat_pack_a(j->a, m, k, j->pa);
	if (!r)
		r = kohaku_mat_pack_b(j->b, k, n, j->pb);
	if (!r)
		r = kohaku_bo_create(dev, nd->mesh, (uint64_t)m * k * 2, &j->ha,
				     &j->aa);
	if (!r)
		r = kohaku_bo_create(dev, nd->mesh, (uint64_t)k * n * 2, &j->hb,
				     &j->ab);
	if (!r)
		r = kohaku_bo_create(dev, nd->mesh, cb + GUARD, &j->hc, &j->ac);
	if (!r)
		r = kohaku_bo_write(dev, j->ha, 0, j->pa, (uint64_t)m * k * 2);
	if (!r)
		r = kohaku_bo_write(dev, j->hb, 0, j->pb, (uint64_t)k * n * 2);
	/* C's region and its tail: a pattern the drain must replace exactly */
	fill = malloc(cb + GUARD);
	if (!fill)
		return -ENOMEM;
	memset(fill, GUARD_B, cb + GUARD);
	if (!r)
		r = kohaku_bo_write(dev, j->hc, 0, fill, cb + GUARD);
	free(fill);
	if (!r)
		r = kohaku_mat_gemm_program(j->insts, KOHAKU_MAT_PROGRAM_MAX, j->aa,
					    j->ab, j->ac, m, n, k, fill_max);
	if (r > 0) {
		j->n_insts = (unsigned int)r;
		r = 0;
	}
	return r;
}

/* the drained C against the reference; the guard past it untouched */
static unsigned long job_check(kohaku_device *dev, struct mat_job *j)
{
	size_t cb = (size_t)j->m * j->n * 2;
	unsigned char *raw = malloc(cb + GUARD);
	uint16_t *tiles = malloc(cb), *c = malloc(cb);
	unsigned long bad = 0;
	unsigned int i;

	if (!raw || !tiles || !c) {
		check_fail_at(__FILE__, __LINE__, "out of memory");
		bad = 1;
		goto out;
	}
	if (kohaku_bo_read(dev, j->hc, 0, raw, cb + GUARD)) {
		check_fail_at(__FILE__, __LINE__, "read C: %s",
			    kohaku_last_error(dev));
		bad = 1;
		goto out;
	}
	for (i = 0; i < cb / 2; i++)
		tiles[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
	kohaku_mat_unpack_c(tiles, j->m, j->n, c);
	for (i = 0; i < j->m * j->n; i++)
		if (c[i] != j->want[i] && bad++ < 3)
			check_fail_at(__FILE__, __LINE__,
				    "(%u,%u) %ux%ux%u: C[%u][%u] = 0x%04x, "
				    "reference 0x%04x", j->nd->x, j->nd->y,
				    j->m, j->n, j->k, i / j->n, i % j->n, c[i],
				    j->want[i]);
	for (i = 0; i < GUARD; i++)
		if (raw[cb + i] != GUARD_B) {
			check_fail_at(__FILE__, __LINE__,
				    "(%u,%u): byte %u past C changed", j->nd->x,
				    j->nd->y, i);
			bad++;
			break;
		}
out:
	free(raw);
	free(tiles);
	free(c);
	return bad;
}

static void job_free(kohaku_device *dev, struct mat_job *j)
{
	if (j->ha)
		kohaku_bo_free(dev, j->ha);
	if (j->hb)
		kohaku_bo_free(dev, j->hb);
	if (j->hc)
		kohaku_bo_free(dev, j->hc);
	free(j->a);
	free(j->b);
	free(j->pa);
	free(j->pb);
	free(j->want);
}

static long retired_of(kohaku_device *dev, const struct drm_kohaku_node *nd)
{
	struct drm_kohaku_node all[64];
	unsigned int n = 0, i;

	if (kohaku_nodes(dev, KOHAKU_NODES_LIVE, all, 64, sizeof(*all), &n))
		return -1;
	for (i = 0; i < n && i < 64; i++)
		if (all[i].mesh == nd->mesh && all[i].x == nd->x &&
		    all[i].y == nd->y)
			return all[i].retired;
	return -1;
}

/* one GEMM block on one unit, checked; the unit retires every instruction */
static void gemm_fill_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
			 unsigned int m, unsigned int n, unsigned int k,
			 unsigned int elo, unsigned int ehi, uint32_t seed,
			 unsigned int fill_max)
{
	struct kohaku_job_status st;
	struct mat_job j;
	long r0, r1;

	if (job_setup(dev, nd, m, n, k, elo, ehi, seed, fill_max, &j)) {
		check_fail_at(__FILE__, __LINE__, "setup %ux%ux%u: %s", m, n, k,
			    kohaku_last_error(dev));
		job_free(dev, &j);
		return;
	}
	r0 = retired_of(dev, nd);
	CHECK_OK(dev, rt_run_on(dev, nd, j.insts, j.n_insts, &st));
	CHECK_MSG(st.status == KOHAKU_JOB_DONE, "(%u,%u) %ux%ux%u: %s",
		  nd->x, nd->y, m, n, k, kohaku_job_status_name(st.status));
	r1 = retired_of(dev, nd);
	CHECK_EQ(r1 - r0, j.n_insts);
	if (st.status == KOHAKU_JOB_DONE)
		CHECK_EQ(job_check(dev, &j), 0);
	job_free(dev, &j);
}

static void gemm_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
		    unsigned int m, unsigned int n, unsigned int k,
		    unsigned int elo, unsigned int ehi, uint32_t seed)
{
	gemm_fill_on(dev, nd, m, n, k, elo, ehi, seed, 0);
}

TEST_F(rt, gemm_bit_exact_against_the_reference)
{
	MAT_OPEN(dev, nd, n);
	gemm_on(dev, &nd[0], 4, 4, 32, 10, 20, 1);	/* one block, one K */
	gemm_on(dev, &nd[0], 4, 4, 64, 10, 20, 2);	/* one merged pair */
	gemm_on(dev, &nd[0], 8, 12, 96, 8, 22, 3);	/* a lone third K block */
	gemm_on(dev, &nd[0], 16, 8, 256, 12, 18, 4);	/* many FP22 adds */
	gemm_on(dev, &nd[0], 20, 4, 32, 12, 18, 5);	/* 5 tiles: no pacing */
	/* every binade: flush to zero and saturation on the way out */
	gemm_on(dev, &nd[0], 8, 8, 128, 0, 30, 6);
	rt_close_card(dev);
}

/* random shapes on random units, up to a FILL of 255 entries */
TEST_F(rt, random_shapes)
{
	uint32_t s = 0x5eed;
	unsigned int t;

	MAT_OPEN(dev, nd, n);
	/* a whole L1 bank (64 row groups x 4 K blocks = 256 entries) in
	 * FILLs of 128, the ship's receive FIFO; in FILLs of 7 (an odd tail) */
	gemm_on(dev, &nd[0], 4 * 64, 8, 128, 10, 20, 500);
	gemm_fill_on(dev, &nd[1 % n], 4 * 5, 4 * 3, 32 * 5, 10, 20, 501, 7);
	for (t = 0; t < 24; t++) {
		unsigned int nk = 1 + rnd(&s) % 9, gm = 1 + rnd(&s) % 6,
			     gn = 1 + rnd(&s) % 6, elo = rnd(&s) % 20;

		gemm_on(dev, &nd[rnd(&s) % n], 4 * gm, 4 * gn, 32 * nk, elo,
			elo + 1 + rnd(&s) % (30 - elo), 600 + t);
	}
	rt_close_card(dev);
}

TEST_F(rt, every_unit_on_its_own)
{
	unsigned int i;

	MAT_OPEN(dev, nd, n);
	for (i = 0; i < n; i++)
		gemm_on(dev, &nd[i], 8, 8, 64, 10, 20, 100 + i);
	rt_close_card(dev);
}

TEST_F(rt, every_unit_in_one_job)
{
	static struct mat_job j[MAX_MAT];
	struct kohaku_program p[MAX_MAT];
	struct kohaku_job_status st;
	unsigned int i, ok = 0;

	MAT_OPEN(dev, nd, n);
	memset(p, 0, sizeof(p));
	for (i = 0; i < n; i++) {
		if (job_setup(dev, &nd[i], 12, 8, 160, 9, 21, 200 + i, 0, &j[i])) {
			check_fail_at(__FILE__, __LINE__, "setup: %s",
				    kohaku_last_error(dev));
			break;
		}
		p[i].mesh = nd[i].mesh;
		p[i].x = nd[i].x;
		p[i].y = nd[i].y;
		p[i].txn = (uint8_t)i;
		p[i].n_insts = j[i].n_insts;
		p[i].insts = j[i].insts;
		ok++;
	}
	if (ok == n) {
		CHECK_OK(dev, rt_run(dev, p, n, &st));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		CHECK(st.device_ns > 0);
		for (i = 0; st.status == KOHAKU_JOB_DONE && i < n; i++)
			CHECK_EQ(job_check(dev, &j[i]), 0);
	}
	for (i = 0; i < ok + (ok < n); i++)
		job_free(dev, &j[i]);
	rt_close_card(dev);
}

/* the same unit twice: a second program's GEMM LOADs over the first's
 * tiles (no stale accumulation); exec_result counts on */
TEST_F(rt, second_gemm_loads_over_the_first)
{
	MAT_OPEN(dev, nd, n);
	gemm_on(dev, &nd[n - 1], 8, 8, 64, 10, 20, 300);
	gemm_on(dev, &nd[n - 1], 8, 8, 64, 5, 25, 301);
	gemm_on(dev, &nd[n - 1], 4, 4, 32, 14, 16, 302);
	rt_close_card(dev);
}

/* the test's opener is not an administrator (in-process: KOHAKU_UNPRIVILEGED) */
static bool rt_mat_unprivileged(void)
{
	const char *b = getenv("KOHAKU_BACKEND"), *e = getenv("KOHAKU_UNPRIVILEGED");

	if (b && !strcmp(b, "sim"))
		return e && *e && strcmp(e, "0");
	return geteuid() != 0;
}

/*
 * exec_result is seen when an instruction faults: the model refuses a
 * DRAIN to another mesh (dfin != 0, not modelled) with exec_fault and
 * exec_result KSIM_MAT_FAULT_UNMODELLED (docs/spec/mat.md "Not
 * modelled"); the unit then runs a good GEMM.
 */
TEST_F(rt, unmodelled_far_drain_faults_then_the_unit_runs_on)
{
	struct kohaku_mat_fields f;
	struct kohaku_job_status st;
	struct kohaku_inst in;
	int r;

	MAT_OPEN(dev, nd, n);
	if (kohaku_sim_check(dev) < 0) {
		/* a card would send it to another mesh through the interlink */
		rt_close_card(dev);
		SKIP(return, "the model's refusal: needs a simulated card");
	}
	memset(&f, 0, sizeof(f));
	f.n = 1;
	f.dfin = 0x21;
	REQUIRE(kohaku_inst_mat_drain(&in, &f) == 0);
	r = rt_run_on(dev, &nd[0], &in, 1, &st);
	if (r == -EACCES && rt_mat_unprivileged()) {
		/* another mesh is an administrator's (mat.md "What a job may
		 * reach"); reach_mat_unprivileged_far_and_in_flight */
		gemm_on(dev, &nd[0], 4, 8, 64, 10, 20, 400);
		rt_close_card(dev);
		SKIP(return, "a far DRAIN is an administrator's; this opener is not one");
	}
	CHECK_EQ(r, 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.n_faults, 1);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, nd[0].x);
	CHECK_EQ(st.fault_y, nd[0].y);
	if (st.fault_flags & KOHAKU_FAULT_CODE_KNOWN)
		CHECK_EQ(st.fault_code, 0xBAD04D47u);
	gemm_on(dev, &nd[0], 4, 8, 64, 10, 20, 400);
	rt_close_card(dev);
}

/*
 * exec_result as the cumulative count (mat.md "S_DONE"): a DRAIN to the
 * unit's own buffer 7 is a CU_DATA burst it rejects.  Its descriptor comes
 * back through the router (three edges) after the one-flit DRAIN has
 * retired, so the fault is reported at the next retirement, a FILL's, and
 * a faulting retirement reports the count of FILL, GEMM and DRAIN retired
 * so far as its argument (an RTL quirk the model reproduces): 5 after
 * FILL, FILL, GEMM, DRAIN, FILL.  It is the node's last signal, so the
 * code is known.
 */
TEST_F(rt, exec_result_counts_in_a_rejected_burst_fault)
{
	struct kohaku_mat_fields f;
	struct kohaku_job_status st;
	struct kohaku_inst in[5];
	static struct mat_job j;
	uint32_t code[2] = { 0, 0 };
	long r0;
	int k;

	MAT_OPEN(dev, nd, n);
	r0 = retired_of(dev, &nd[0]);
	REQUIRE(job_setup(dev, &nd[0], 4, 4, 32, 10, 20, 700, 0, &j) == 0);
	REQUIRE(j.n_insts == 4);
	memcpy(in, j.insts, 3 * sizeof(in[0]));		/* FILL, FILL, GEMM */
	memset(&f, 0, sizeof(f));
	f.n = 1;
	f.dnode = 1;
	f.dst_x = nd[0].x;
	f.dst_y = nd[0].y;
	f.dbuf = 7;					/* no such buffer */
	CHECK_EQ(kohaku_inst_mat_drain(&in[3], &f), 0);
	in[4] = in[0];					/* a FILL again */
	/*
	 * The fault's argument is the unit's running count of FILL, GEMM and
	 * DRAIN since reset: twice the same five instructions, five apart.
	 * From a fresh unit (in-process, every test its own card) it is 5;
	 * on a card other tests used first it starts where they left it.
	 */
	for (k = 0; k < 2; k++) {
		CHECK_EQ(rt_run_on(dev, &nd[0], in, 5, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.n_faults, 1);
		CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
		CHECK_EQ(st.fault_x, nd[0].x);
		CHECK_EQ(st.fault_y, nd[0].y);
		code[k] = st.fault_code;
	}
	CHECK_EQ(code[1], code[0] + 5);
	if (r0 == 0)
		CHECK_EQ(code[0], 5);
	/* the fault was cleared by that retirement: the unit runs on */
	gemm_on(dev, &nd[0], 4, 4, 64, 10, 20, 701);
	job_free(dev, &j);
	rt_close_card(dev);
}

/* an unknown opcode retires as a no-op: the job is DONE */
TEST_F(rt, unknown_opcode_is_a_noop)
{
	struct kohaku_mat_fields f;
	struct kohaku_job_status st;
	struct kohaku_inst in;
	long r0;

	MAT_OPEN(dev, nd, n);
	memset(&f, 0, sizeof(f));
	REQUIRE(kohaku_inst_mat(&in, 0x7, &f) == 0);
	r0 = retired_of(dev, &nd[0]);
	CHECK_EQ(rt_run_on(dev, &nd[0], &in, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(retired_of(dev, &nd[0]) - r0, 1);
	rt_close_card(dev);
}

/*
 * ---- what a mat job may reach (ABI 0.8; docs/spec/mat.md "What a job
 * may reach") ----
 *
 * Raw SUBMITs of the 4x4x96 program (FILL A 3 entries = 768 bytes, FILL B
 * the same, GEMM 1x1x3, DRAIN 1 sub-tile into C of 32 + GUARD = 96 bytes)
 * and its variants, with a list of the BOs and their intents, or
 * KOHAKU_SUBMIT_FILE_BOS.
 */
#define RM_C_BYTES	(32 + GUARD)

/* SUBMIT programs on nodes nd[0..n_progs) through the raw ioctl */
static int rm_submit_n(kohaku_device *dev, const struct drm_kohaku_node *nd,
		       struct kohaku_inst *const *insts, const unsigned int *n,
		       unsigned int n_progs, uint32_t flags,
		       const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		       struct drm_kohaku_submit *s)
{
	struct drm_kohaku_program p[4];
	unsigned int i;

	memset(p, 0, sizeof(p));
	for (i = 0; i < n_progs && i < 4; i++) {
		p[i].mesh = nd[i].mesh;
		p[i].x = nd[i].x;
		p[i].y = nd[i].y;
		p[i].txn = (uint8_t)i;
		p[i].n_insts = n[i];
		p[i].insts_ptr = (uintptr_t)insts[i];
	}
	memset(s, 0, sizeof(*s));
	s->n_programs = n_progs;
	s->programs_ptr = (uintptr_t)p;
	s->program_size = sizeof(p[0]);
	s->flags = flags;
	s->bos_ptr = (uintptr_t)bos;
	s->n_bos = n_bos;
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, s);
}

static int rm_submit(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     struct kohaku_inst *insts, unsigned int n, uint32_t flags,
		     const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		     struct drm_kohaku_submit *s)
{
	return rm_submit_n(dev, nd, &insts, &n, 1, flags, bos, n_bos, s);
}

static void rm_wait(kohaku_device *dev, uint64_t job, uint32_t want)
{
	struct kohaku_job_status st;

	CHECK_OK(dev, kohaku_wait(dev, job, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, want);
}

/* refused EACCES as documented, at program 0 */
#define RM_REFUSED(s, ret, why, inst, op, addr, len) do {		\
	CHECK_ERR((ret), -EACCES);					\
	CHECK_EQ((s).refused_why, (why));				\
	CHECK_EQ((s).refused_program, 0);				\
	CHECK_EQ((s).refused_inst, (inst));				\
	CHECK_EQ((s).refused_operand, (op));				\
	CHECK_EQ((s).refused_addr, (uint64_t)(addr));			\
	CHECK_EQ((s).refused_len, (uint64_t)(len));			\
} while (0)

/* the program's instruction i rebuilt with one change */
static void rm_set(struct kohaku_inst *in, void (*edit)(struct kohaku_mat_fields *, uint64_t),
		   uint64_t v)
{
	struct kohaku_mat_fields f;
	unsigned int op = kohaku_inst_mat_decode(in, &f);

	edit(&f, v);
	REQUIRE(kohaku_inst_mat(in, op, &f) == 0);
}

static void ed_addr(struct kohaku_mat_fields *f, uint64_t v) { f->addr = v; }
static void ed_n(struct kohaku_mat_fields *f, uint64_t v) { f->n = (uint32_t)v; }
static void ed_preq(struct kohaku_mat_fields *f, uint64_t v) { f->preq = 1; f->n = (uint32_t)v; }
static void ed_gn(struct kohaku_mat_fields *f, uint64_t v) { f->gn = (uint8_t)v; }
static void ed_peer(struct kohaku_mat_fields *f, uint64_t v)
{
	f->npeer = (uint8_t)(v >> 24);
	f->peers = (uint32_t)(v & 0xffffff);
}
static void ed_emit(struct kohaku_mat_fields *f, uint64_t v) { f->emit = 1; f->addr = v; }
static void ed_fuse(struct kohaku_mat_fields *f, uint64_t v) { f->fuse = 1; f->addr = v; }
static void ed_dnode(struct kohaku_mat_fields *f, uint64_t v)
{
	f->dnode = 1;
	f->dst_x = v & 0xf;
	f->dst_y = (v >> 8) & 0xf;
	f->dbuf = (v >> 16) & 0xff;
}
static void ed_far(struct kohaku_mat_fields *f, uint64_t v)
{
	f->dfin = v & 0xff;
	f->dmesh = (v >> 8) & 3;
}

struct rm {
	kohaku_device *dev;
	const struct drm_kohaku_node *nd;
	struct mat_job j;
	struct kohaku_inst in[4];
	struct drm_kohaku_job_bo bos[3];
	unsigned char c0[RM_C_BYTES];
	uint64_t before;
};

static void rm_reset_c(struct rm *r)
{
	unsigned char g[RM_C_BYTES];

	memset(g, GUARD_B, sizeof(g));
	CHECK_OK(r->dev, kohaku_bo_write(r->dev, r->j.hc, 0, g, sizeof(g)));
}

static void rm_setup(struct rm *r, kohaku_device *dev,
		     const struct drm_kohaku_node *nd, uint32_t seed)
{
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->nd = nd;
	REQUIRE(job_setup(dev, nd, 4, 4, 96, 10, 20, seed, 0, &r->j) == 0);
	REQUIRE(r->j.n_insts == 4);
	r->bos[0].handle = r->j.ha;
	r->bos[0].flags = KOHAKU_JOB_BO_READ;
	r->bos[1].handle = r->j.hb;
	r->bos[1].flags = KOHAKU_JOB_BO_READ;
	r->bos[2].handle = r->j.hc;
	r->bos[2].flags = KOHAKU_JOB_BO_WRITE;
	CHECK_OK(dev, kohaku_bo_read(dev, r->j.hc, 0, r->c0, sizeof(r->c0)));
	r->before = rt_jobs_done(dev, nd->mesh);
}

/* a fresh copy of the program */
static void rm_prog(struct rm *r)
{
	memcpy(r->in, r->j.insts, sizeof(r->in));
}

/* nothing of a refused job reached the card */
static void rm_nothing_sent(struct rm *r)
{
	unsigned char c1[RM_C_BYTES];

	CHECK_EQ(rt_jobs_done(r->dev, r->nd->mesh), r->before);
	CHECK_OK(r->dev, kohaku_bo_read(r->dev, r->j.hc, 0, c1, sizeof(c1)));
	CHECK(!memcmp(r->c0, c1, sizeof(c1)));
}

/* two BOs of 4 KiB, the second starting where the first ends: true */
static bool rm_adjacent(kohaku_device *dev, unsigned int mesh, uint32_t h[2],
			uint64_t a[2])
{
	uint32_t hs[8];
	uint64_t as[8];
	unsigned int i, k;

	for (i = 0; i < 8; i++)
		if (kohaku_bo_create(dev, mesh, 4096, &hs[i], &as[i])) {
			check_fail_at(__FILE__, __LINE__, "BO_CREATE: %s",
				      kohaku_last_error(dev));
			while (i--)
				kohaku_bo_free(dev, hs[i]);
			return false;
		}
	for (i = 0; i < 8; i++)
		for (k = 0; k < 8; k++)
			if (as[k] == as[i] + 4096) {
				h[0] = hs[i];
				a[0] = as[i];
				h[1] = hs[k];
				a[1] = as[k];
				goto found;
			}
	for (i = 0; i < 8; i++)
		kohaku_bo_free(dev, hs[i]);
	return false;
found:
	for (i = 0; i < 8; i++)
		if (hs[i] != h[0] && hs[i] != h[1])
			kohaku_bo_free(dev, hs[i]);
	return true;
}

static bool rm_in_process(void)
{
	const char *b = getenv("KOHAKU_BACKEND");

	return b && !strcmp(b, "sim");
}

TEST_F(rt, reach_mat_inside_runs_bit_exact)
{
	struct drm_kohaku_submit s;
	struct rm r;
	MAT_OPEN(dev, nd, n);

	rm_setup(&r, dev, &nd[0], 900);
	/* by a list of the three BOs, each with the access the unit makes */
	rm_prog(&r);
	rm_reset_c(&r);
	CHECK_OK(dev, rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s));
	CHECK_EQ(s.refused_why, 0);
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(job_check(dev, &r.j), 0);
	/* by the file's BOs */
	rm_reset_c(&r);
	CHECK_OK(dev, rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS,
				NULL, 0, &s));
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(job_check(dev, &r.j), 0);
	/* the same C emitted by the GEMM (nk 3: the last pair ADDs) and a
	 * fused DRAIN waiting for its sub-tile: operand 0 of both */
	rm_set(&r.in[2], ed_emit, r.j.ac);
	rm_set(&r.in[3], ed_fuse, r.j.ac);
	rm_reset_c(&r);
	CHECK_OK(dev, rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s));
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(job_check(dev, &r.j), 0);
	/* FILL n 0 is one entry: the last 256 bytes of A */
	rm_prog(&r);
	rm_set(&r.in[0], ed_addr, r.j.aa + 768 - 256);
	rm_set(&r.in[0], ed_n, 0);
	CHECK_OK(dev, rm_submit(dev, &nd[0], r.in, 1, 0, r.bos, 3, &s));
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	/* preq reads 128 bytes an entry: 6 are A's 768 bytes */
	rm_prog(&r);
	rm_set(&r.in[0], ed_preq, 6);
	CHECK_OK(dev, rm_submit(dev, &nd[0], r.in, 1, 0, r.bos, 3, &s));
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	/* DRAIN n 0 is one sub-tile: C's last 32 bytes */
	rm_prog(&r);
	rm_set(&r.in[3], ed_addr, r.j.ac + RM_C_BYTES - 32);
	rm_set(&r.in[3], ed_n, 0);
	CHECK_OK(dev, rm_submit(dev, &nd[0], &r.in[3], 1, 0, r.bos, 3, &s));
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	job_free(dev, &r.j);
	rt_close_card(dev);
}

/* FILL with peers (operands 1..npeer): two clusters share both FILLs,
 * the lower {y,x} reads for both; each computes and drains its own C */
TEST_F(rt, reach_mat_fill_peers_inside_run_bit_exact)
{
	struct kohaku_inst in[2][4], *pi[2] = { in[0], in[1] };
	unsigned int cnt[2] = { 4, 4 }, i, k;
	struct drm_kohaku_submit s;
	struct rm r[2];
	MAT_OPEN(dev, nd, n);

	if (n < 2) {
		rt_close_card(dev);
		SKIP(return, "one mat unit");
	}
	rm_setup(&r[0], dev, &nd[0], 910);
	rm_setup(&r[1], dev, &nd[1], 911);
	for (i = 0; i < 2; i++) {
		memcpy(in[i], r[0].j.insts, sizeof(in[i]));
		for (k = 0; k < 2; k++)
			rm_set(&in[i][k], ed_peer, 1u << 24 |
			       ((unsigned int)nd[1 - i].y << 4 | nd[1 - i].x));
		rm_set(&in[i][3], ed_addr, r[i].j.ac);
		rm_reset_c(&r[i]);
	}
	/* node 1 computes node 0's A and B: its expected C is node 0's */
	memcpy(r[1].j.want, r[0].j.want, 4 * 4 * 2);
	CHECK_OK(dev, rm_submit_n(dev, nd, pi, cnt, 2, KOHAKU_SUBMIT_FILE_BOS,
				  NULL, 0, &s));
	rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(job_check(dev, &r[0].j), 0);
	CHECK_EQ(job_check(dev, &r[1].j), 0);
	job_free(dev, &r[0].j);
	job_free(dev, &r[1].j);
	rt_close_card(dev);
}

TEST_F(rt, reach_mat_fill_refused_nothing_sent)
{
	struct drm_kohaku_job_bo wo[3];
	struct drm_kohaku_submit s;
	kohaku_device *other = NULL;
	uint32_t hz[2];
	uint64_t az[2];
	struct rm r, o;
	int ret;
	MAT_OPEN(dev, nd, n);

	rm_setup(&r, dev, &nd[0], 920);
	/* one granule past A (768 bytes): 3 entries of 256 from aa + 32 */
	rm_prog(&r);
	rm_set(&r.in[0], ed_addr, r.j.aa + 32);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa + 32, 768);
	/* MAG reads whole words: aa + 33 is the word at aa + 32 */
	rm_set(&r.in[0], ed_addr, r.j.aa + 33);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa + 32, 768);
	/* FILL B (instruction 1) one entry too many: 4 x 256 */
	rm_prog(&r);
	rm_set(&r.in[1], ed_n, 4);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 1, 0, r.j.ab, 1024);
	/* preq: 128 bytes an entry, 7 are one entry past A */
	rm_prog(&r);
	rm_set(&r.in[0], ed_preq, 7);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa, 896);
	/* n 0 is one entry, 256 is one too (MAG's count is n[7:0], 0 means 1) */
	rm_prog(&r);
	rm_set(&r.in[0], ed_addr, r.j.aa + 768 - 224);
	rm_set(&r.in[0], ed_n, 0);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa + 768 - 224, 256);
	rm_set(&r.in[0], ed_n, 256);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa + 768 - 224, 256);
	/* addr[39:34] (ADDR_HI) is part of the address */
	rm_prog(&r);
	rm_set(&r.in[0], ed_addr, r.j.aa | 1ull << 38);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa | 1ull << 38, 768);
	/* A named to write only: FILL reads it */
	memcpy(wo, r.bos, sizeof(wo));
	wo[0].flags = KOHAKU_JOB_BO_WRITE;
	rm_prog(&r);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, wo, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_INTENT, 0, 0, r.j.aa, 768);
	/* A not named */
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, &r.bos[1], 2, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, r.j.aa, 768);
	/* another file's A, by this file's BOs */
	CHECK_OK(dev, kohaku_reopen(dev, &other));
	REQUIRE(other);
	rm_setup(&o, other, &nd[0], 921);
	r.before = o.before;
	rm_set(&r.in[0], ed_addr, o.j.aa);
	ret = rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, o.j.aa, 768);
	/* spanning two of the file's BOs, both named */
	if (rm_adjacent(dev, nd[0].mesh, hz, az)) {
		rm_set(&r.in[0], ed_addr, az[1] - 256);
		rm_set(&r.in[0], ed_n, 2);
		ret = rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS,
				NULL, 0, &s);
		RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 0, 0, az[1] - 256, 512);
		kohaku_bo_free(dev, hz[0]);
		kohaku_bo_free(dev, hz[1]);
	} else {
		printf("# no two adjacent BOs: spanning not tried\n");
	}
	/* a peer that is no node: operand 1; the second of two: operand 2 */
	rm_prog(&r);
	rm_set(&r.in[0], ed_peer, 1u << 24 | 0xff);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 0, 1, 0xf0f, 0);
	if (n > 1) {
		rm_set(&r.in[1], ed_peer, 2u << 24 | 0xee00 |
		       ((unsigned int)nd[1].y << 4 | nd[1].x));
		rm_set(&r.in[0], ed_peer, 0);
		ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
		RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 1, 2, 0xe0e, 0);
	}
	rm_nothing_sent(&r);
	rm_nothing_sent(&o);
	job_free(other, &o.j);
	kohaku_close(other);
	job_free(dev, &r.j);
	rt_close_card(dev);
}

TEST_F(rt, reach_mat_gemm_emit_refused_nothing_sent)
{
	struct drm_kohaku_job_bo ro[3];
	struct drm_kohaku_submit s;
	kohaku_device *other = NULL;
	uint32_t hz[2];
	uint64_t az[2];
	struct rm r, o;
	int ret;
	MAT_OPEN(dev, nd, n);

	rm_setup(&r, dev, &nd[0], 930);
	/* one granule past C: the emitted sub-tile at C's end */
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, r.j.ac + RM_C_BYTES);
	rm_set(&r.in[3], ed_fuse, r.j.ac + RM_C_BYTES);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 2, 0, r.j.ac + RM_C_BYTES, 32);
	/* two column groups emit two sub-tiles: 64 bytes from C's last 32 */
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, r.j.ac + RM_C_BYTES - 32);
	rm_set(&r.in[2], ed_gn, 2);
	rm_set(&r.in[3], ed_fuse, r.j.ac);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 2, 0, r.j.ac + RM_C_BYTES - 32, 64);
	/* C named read-only */
	memcpy(ro, r.bos, sizeof(ro));
	ro[2].flags = KOHAKU_JOB_BO_READ;
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, r.j.ac);
	rm_set(&r.in[3], ed_fuse, r.j.ac);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, ro, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_INTENT, 2, 0, r.j.ac, 32);
	/* another file's C */
	CHECK_OK(dev, kohaku_reopen(dev, &other));
	REQUIRE(other);
	rm_setup(&o, other, &nd[0], 931);
	r.before = o.before;
	rm_set(&r.in[2], ed_emit, o.j.ac);
	ret = rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 2, 0, o.j.ac, 32);
	/* spanning two BOs: gn 2 from the first's last sub-tile */
	if (rm_adjacent(dev, nd[0].mesh, hz, az)) {
		rm_set(&r.in[2], ed_emit, az[1] - 32);
		rm_set(&r.in[2], ed_gn, 2);
		ret = rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS,
				NULL, 0, &s);
		RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 2, 0, az[1] - 32, 64);
		kohaku_bo_free(dev, hz[0]);
		kohaku_bo_free(dev, hz[1]);
	} else {
		printf("# no two adjacent BOs: spanning not tried\n");
	}
	/* emitted to a node that is none: operand 1 */
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, 0);
	rm_set(&r.in[2], ed_dnode, 0x0f0f);
	rm_set(&r.in[3], ed_fuse, 0);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 2, 0 + 1, 0xf0f, 0);
	/* the emitted sub-tiles still in flight redirect to a later plain
	 * DRAIN: it covers the GEMM's two (64 bytes), not its own one */
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, r.j.ac);
	rm_set(&r.in[2], ed_gn, 2);
	rm_set(&r.in[3], ed_addr, r.j.ac + RM_C_BYTES - 32);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 3, 0, r.j.ac + RM_C_BYTES - 32, 64);
	rm_nothing_sent(&r);
	rm_nothing_sent(&o);
	job_free(other, &o.j);
	kohaku_close(other);
	job_free(dev, &r.j);
	rt_close_card(dev);
}

TEST_F(rt, reach_mat_drain_refused_nothing_sent)
{
	struct drm_kohaku_job_bo ro[3];
	struct drm_kohaku_submit s;
	kohaku_device *other = NULL;
	uint32_t hz[2];
	uint64_t az[2];
	struct rm r, o;
	int ret;
	MAT_OPEN(dev, nd, n);

	rm_setup(&r, dev, &nd[0], 940);
	/* one granule past C: n 4 is 128 bytes of its 96 */
	rm_prog(&r);
	rm_set(&r.in[3], ed_n, 4);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 3, 0, r.j.ac, 128);
	/* n 0 is one sub-tile, just past C; addr rounded down to the word */
	rm_set(&r.in[3], ed_n, 0);
	rm_set(&r.in[3], ed_addr, r.j.ac + RM_C_BYTES + 8);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 3, 0, r.j.ac + RM_C_BYTES, 32);
	/* a fused DRAIN covers its n: 3 from C's second sub-tile */
	rm_prog(&r);
	rm_set(&r.in[3], ed_fuse, r.j.ac + 32);
	rm_set(&r.in[3], ed_n, 3);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 3, 0, r.j.ac + 32, 96);
	/* C named read-only */
	memcpy(ro, r.bos, sizeof(ro));
	ro[2].flags = KOHAKU_JOB_BO_READ;
	rm_prog(&r);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, ro, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_INTENT, 3, 0, r.j.ac, 32);
	/* another file's C */
	CHECK_OK(dev, kohaku_reopen(dev, &other));
	REQUIRE(other);
	rm_setup(&o, other, &nd[0], 941);
	r.before = o.before;
	rm_set(&r.in[3], ed_addr, o.j.ac);
	ret = rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 3, 0, o.j.ac, 32);
	/* spanning two BOs */
	if (rm_adjacent(dev, nd[0].mesh, hz, az)) {
		rm_set(&r.in[3], ed_addr, az[1] - 32);
		rm_set(&r.in[3], ed_n, 2);
		ret = rm_submit(dev, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS,
				NULL, 0, &s);
		RM_REFUSED(s, ret, KOHAKU_REFUSED_OUTSIDE, 3, 0, az[1] - 32, 64);
		kohaku_bo_free(dev, hz[0]);
		kohaku_bo_free(dev, hz[1]);
	} else {
		printf("# no two adjacent BOs: spanning not tried\n");
	}
	/* to a node that is none: operand 1 */
	rm_prog(&r);
	rm_set(&r.in[3], ed_dnode, 0x020d0f);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 3, 1, 0xd0f, 0);
	rm_nothing_sent(&r);
	rm_nothing_sent(&o);
	job_free(other, &o.j);
	kohaku_close(other);
	job_free(dev, &r.j);
	rt_close_card(dev);
}

/*
 * An unprivileged opener: a DRAIN (or an emitting GEMM) to a far mesh is
 * refused (operand 2: the node as mesh << 16 | fin_y << 8 | fin_x), and a
 * program may not end with emitted sub-tiles nothing waited for; its own
 * good job runs bit-exact.
 */
TEST_F(rt, reach_mat_unprivileged_far_and_in_flight)
{
	struct drm_kohaku_submit s;
	kohaku_device *u;
	struct rm r;
	int ret;
	MAT_OPEN(dev, nd, n);

	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	rm_setup(&r, u, &nd[0], 950);
	rm_prog(&r);
	rm_set(&r.in[3], ed_far, 0x21);
	ret = rm_submit(u, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 3, 2, 0x0201, 0);
	rm_set(&r.in[3], ed_far, 0x2 << 8 | 0x10);
	ret = rm_submit(u, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 3, 2, 0x20100, 0);
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, r.j.ac);
	rm_set(&r.in[2], ed_far, 0x1 << 8);	/* dmesh alone */
	rm_set(&r.in[3], ed_fuse, r.j.ac);
	ret = rm_submit(u, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 2, 2, 0x10000, 0);
	/* an emission the program never waits for */
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, r.j.ac);
	ret = rm_submit(u, &nd[0], r.in, 3, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_UNCHECKABLE, 2, 0, r.j.ac, 32);
	/* a fused DRAIN of fewer than were emitted does not wait for all */
	rm_set(&r.in[2], ed_gn, 2);
	rm_set(&r.in[3], ed_fuse, r.j.ac);
	ret = rm_submit(u, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_UNCHECKABLE, 2, 0, r.j.ac, 64);
	rm_nothing_sent(&r);
	/* the good program, both ways */
	rm_prog(&r);
	CHECK_OK(u, rm_submit(u, &nd[0], r.in, 4, 0, r.bos, 3, &s));
	rm_wait(u, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(job_check(u, &r.j), 0);
	rm_set(&r.in[2], ed_emit, r.j.ac);
	rm_set(&r.in[3], ed_fuse, r.j.ac);
	rm_reset_c(&r);
	CHECK_OK(u, rm_submit(u, &nd[0], r.in, 4, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s));
	rm_wait(u, s.job_id, KOHAKU_JOB_DONE);
	CHECK_EQ(job_check(u, &r.j), 0);
	job_free(u, &r.j);
	kohaku_close(u);
	rt_close_card(dev);
}

/* a DRAIN (operand 1) or a FILL peer to a POOL or a DXA unit: refused */
#define RM_CARD								\
	"# two clusters beside a dxa and a gp unit (rt_mat reach tests)\n" \
	"profile ship\n"						\
	"xxx  dxa  gp   xxx\n"						\
	"mag  mat  mat  null\n"						\
	"xxx  sax  null xxx\n"

TEST_F(rt, reach_mat_drain_to_pool_or_dxa_refused)
{
	char path[] = "/tmp/rt_mat_reachXXXXXX";
	struct drm_kohaku_node gp, dx;
	struct drm_kohaku_submit s;
	kohaku_device *dev;
	struct drm_kohaku_node nd[4];
	struct rm r;
	unsigned int n;
	int fd, ret;

	if (!rm_in_process()) {
		SKIP(return, "a card of its own: in-process");
	}
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, RM_CARD, strlen(RM_CARD)) == (ssize_t)strlen(RM_CARD));
	close(fd);
	dev = rt_open_card(path);
	unlink(path);
	REQUIRE(dev);
	n = rt_nodes_of(dev, KH_CU_MG, nd, 4);
	REQUIRE(n >= 1);
	REQUIRE(rt_nodes_of(dev, KH_CU_GP, &gp, 1) == 1);
	REQUIRE(rt_nodes_of(dev, KH_CU_DX, &dx, 1) == 1);
	rm_setup(&r, dev, &nd[0], 960);
	rm_prog(&r);
	rm_set(&r.in[3], ed_dnode, 2u << 16 | gp.y << 8 | gp.x);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 3, 1, gp.y << 8 | gp.x, 0);
	rm_set(&r.in[3], ed_dnode, dx.y << 8 | dx.x);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 3, 1, dx.y << 8 | dx.x, 0);
	/* an emitting GEMM to the DXA unit */
	rm_prog(&r);
	rm_set(&r.in[2], ed_emit, 0);
	rm_set(&r.in[2], ed_dnode, dx.y << 8 | dx.x);
	rm_set(&r.in[3], ed_fuse, 0);
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 2, 1, dx.y << 8 | dx.x, 0);
	/* a FILL peer at the POOL unit */
	rm_prog(&r);
	rm_set(&r.in[1], ed_peer, 1u << 24 | (gp.y << 4 | gp.x));
	ret = rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s);
	RM_REFUSED(s, ret, KOHAKU_REFUSED_NODE, 1, 1, gp.y << 8 | gp.x, 0);
	rm_nothing_sent(&r);
	/* to the other cluster: runs */
	if (n > 1) {
		rm_prog(&r);
		rm_set(&r.in[3], ed_dnode, 2u << 16 | nd[1].y << 8 | nd[1].x);
		CHECK_OK(dev, rm_submit(dev, &nd[0], r.in, 4, 0, r.bos, 3, &s));
		rm_wait(dev, s.job_id, KOHAKU_JOB_DONE);
	}
	job_free(dev, &r.j);
	rt_close_card(dev);
}

RT_TEST_MAIN
