// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL cores' vector coprocessor, first slice (docs/spec/pool-vector.md;
 * seed 002 §1.3, §3.1, §3.3, §3.5): programs of the custom-opcode words
 * (uapi/kohaku/kh_pool_vec.h's encoders) run on core 0 of a gp unit, their
 * results stored to DataRAM and checked against references written here
 * from the seed and the spec, lane by lane in plain C (bytes and
 * __int128, not the model's word tricks).  Random inputs from a fixed
 * seed, with the lanes' edge values (0, 1, -1, the signed extremes) mixed
 * in at a quarter of the lanes.
 *
 * Every instruction of the slice: the lane ALU in three widths (wrap,
 * saturation, carries stopped at lane bounds), compares into predicates
 * and the predicated select, the moves, vl/vs; the quad-MAC in each width,
 * mode and signedness with the accumulators' 24/48/96-bit lanes wrapping
 * both ways, the seed's own 520 vector, the pack; cpenable and the
 * disabled trap leaving every state untouched; misaligned and
 * out-of-reach vector accesses.
 */
#include "mpool.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_BASE		10	/* x10: DataRAM */
#define R_OUT		11	/* x11: DataRAM + OUT_BYTES, scalar results */
#define IN_ROW		64	/* inputs from DataRAM row 64 (0x1000) */
#define OUT_ROW		256	/* vector results from row 256 (0x4000) */
#define OUT_BYTES	0xc000	/* scalar results */

#define VL(vd, rs1, row)	KH_PV_ENC_VL(vd, rs1, row)
#define VS(vs, rs1, row)	KH_PV_ENC_VS(vs, rs1, row)
#define VALU(f7, w, d, a, b)	KH_PV_ENC_ALU(f7, w, d, a, b)
#define VMOVE(f7, d, a, b)	KH_PV_ENC_MOVE(f7, d, a, b)
#define CPEN(xs)		CSRRW(0, KH_PV_CSR_CPENABLE, xs)
#define FPW(f7, t, d, a, b)	KH_PV_ENC_FP(f7, t, d, a, b)

typedef unsigned __int128 u128;
typedef __int128 s128;

static struct mp_card m;
static struct mp_prog pg;
static u64 rng_state = 0x0123456789abcdefull;

static u64 rnd(void)
{
	return mp_rand(&rng_state);
}

static bool open_card(void)
{
	if (m.c)
		return true;
	return mp_open(&m, MP_MAP_ONE, 1, 0);
}

/* x10 DataRAM, x11 the scalar results, the coprocessor enabled */
static void prolog(void)
{
	mp_vec_prolog(&pg, R_BASE);
	mp_li(&pg, R_OUT, KH_POOL_DRAM_BASE + OUT_BYTES);
}

/* ---- the references: lanes of 64-byte little-endian registers ---- */

static u64 mask(unsigned int bits)
{
	return bits == 64 ? ~0ull : (1ull << bits) - 1;
}

static s64 sx(u64 x, unsigned int bits)
{
	x &= mask(bits);
	if (bits < 64 && (x >> (bits - 1)) & 1)
		return (s64)(x | ~mask(bits));
	return (s64)x;
}

/* a lane: an edge value a quarter of the time, else random */
static u64 rlane(unsigned int bits)
{
	u64 mk = mask(bits);

	switch (rnd() % 16) {
	case 0: return 0;
	case 1: return 1;
	case 2: return mk;		/* -1 */
	case 3: return mk >> 1;		/* the signed max */
	default:
		if (rnd() % 12 == 0)
			return (mk >> 1) + 1;	/* the signed min */
		return rnd() & mk;
	}
}

static void rvec(u8 *v, unsigned int bits)
{
	unsigned int i;

	for (i = 0; i < 512 / bits; i++)
		mp_lset(v, bits, i, rlane(bits));
}

static void poke_row(unsigned int row, const u8 *v)
{
	ksim_pool_poke_dram(m.p, 0, row * 64, v, 64);
}

static const u8 *row_at(unsigned int row)
{
	return m.p->core[0].dram + row * 64;
}

/* seed 002 §3.1 lanes, saturation per width (pool-vector.md custom-0) */
static u64 ref_alu(unsigned int f7, unsigned int bits, u64 a, u64 b)
{
	u64 mk = mask(bits);
	s64 sa = sx(a, bits), sb = sx(b, bits);
	s64 smax = (s64)(mk >> 1), smin = -smax - 1, r;
	unsigned int sh = (unsigned int)(b % bits);

	switch (f7) {
	case KH_PV_VADD: return (a + b) & mk;
	case KH_PV_VSUB: return (a - b) & mk;
	case KH_PV_VADDS:
	case KH_PV_VSUBS:
		r = f7 == KH_PV_VADDS ? sa + sb : sa - sb;
		r = r > smax ? smax : r < smin ? smin : r;
		return (u64)r & mk;
	case KH_PV_VADDUS: return a + b > mk ? mk : a + b;
	case KH_PV_VSUBUS: return b > a ? 0 : a - b;
	case KH_PV_VAND: return a & b;
	case KH_PV_VOR: return a | b;
	case KH_PV_VXOR: return a ^ b;
	case KH_PV_VSLL: return (a << sh) & mk;
	case KH_PV_VSRL: return a >> sh;
	case KH_PV_VSRA: return (u64)(sa >> sh) & mk;
	case KH_PV_VMIN: return sa < sb ? a : b;
	case KH_PV_VMAX: return sa > sb ? a : b;
	case KH_PV_VMINU: return a < b ? a : b;
	case KH_PV_VMAXU: return a > b ? a : b;
	case KH_PV_VEQ: return a == b;
	case KH_PV_VNE: return a != b;
	case KH_PV_VLT: return sa < sb;
	case KH_PV_VLE: return sa <= sb;
	case KH_PV_VLTU: return a < b;
	default: return a <= b;		/* KH_PV_VLEU */
	}
}

static const unsigned int alu_ops[] = {
	KH_PV_VADD, KH_PV_VSUB, KH_PV_VADDS, KH_PV_VSUBS, KH_PV_VADDUS,
	KH_PV_VSUBUS, KH_PV_VAND, KH_PV_VOR, KH_PV_VXOR, KH_PV_VSLL,
	KH_PV_VSRL, KH_PV_VSRA, KH_PV_VMIN, KH_PV_VMAX, KH_PV_VMINU,
	KH_PV_VMAXU,
};
#define NALU	(sizeof(alu_ops) / sizeof(alu_ops[0]))

static const unsigned int cmp_ops[] = {
	KH_PV_VEQ, KH_PV_VNE, KH_PV_VLT, KH_PV_VLE, KH_PV_VLTU, KH_PV_VLEU,
};
#define NCMP	(sizeof(cmp_ops) / sizeof(cmp_ops[0]))

#define NPAIR	12

/* pairs 0..3 the edges the seed's saturation and carry-break are about */
static void make_pair(unsigned int j, unsigned int bits, u8 *a, u8 *b)
{
	u64 mk = mask(bits);
	unsigned int i;

	rvec(a, bits);
	rvec(b, bits);
	for (i = 0; j < 4 && i < 512 / bits; i++) {
		switch (j) {
		case 0:		/* signed max + 1, max + max: overflow */
			mp_lset(a, bits, i, mk >> 1);
			mp_lset(b, bits, i, i & 1 ? mk >> 1 : 1);
			break;
		case 1:		/* signed min - 1, min - max */
			mp_lset(a, bits, i, (mk >> 1) + 1);
			mp_lset(b, bits, i, i & 1 ? mk >> 1 : 1);
			break;
		case 2:		/* all ones + 1: a carry out of every lane */
			mp_lset(a, bits, i, mk);
			mp_lset(b, bits, i, i & 1 ? mk : 1);
			break;
		default:	/* 0 - 1: a borrow out of every lane */
			mp_lset(a, bits, i, 0);
			mp_lset(b, bits, i, i & 1 ? mk : 1);
			break;
		}
	}
}

TEST_F(model, alu_every_op_every_width)
{
	u8 a[NPAIR][64], b[NPAIR][64];
	unsigned int w, j, o, i, bad;

	REQUIRE(open_card());
	for (w = KH_PV_W8; w <= KH_PV_W32; w++) {
		unsigned int bits = KH_PV_LANE_BITS(w);

		prolog();
		for (j = 0; j < NPAIR; j++) {
			make_pair(j, bits, a[j], b[j]);
			poke_row(IN_ROW + 2 * j, a[j]);
			poke_row(IN_ROW + 2 * j + 1, b[j]);
			mp_emit(&pg, VL(1, R_BASE, IN_ROW + 2 * j));
			mp_emit(&pg, VL(2, R_BASE, IN_ROW + 2 * j + 1));
			for (o = 0; o < NALU; o++) {
				mp_emit(&pg, VALU(alu_ops[o], w, 3, 1, 2));
				mp_emit(&pg, VS(3, R_BASE,
						OUT_ROW + j * (NALU + 1) + o));
			}
			/* the destination one of the sources */
			mp_emit(&pg, VALU(KH_PV_VSUB, w, 2, 2, 1));
			mp_emit(&pg, VS(2, R_BASE,
					OUT_ROW + j * (NALU + 1) + NALU));
		}
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		REQUIRE(m.p->halted == 0);
		bad = 0;
		for (j = 0; j < NPAIR; j++)
			for (o = 0; o <= NALU; o++) {
				const u8 *got = row_at(OUT_ROW + j * (NALU + 1) + o);

				for (i = 0; i < 512 / bits; i++) {
					u64 x = mp_lget(a[j], bits, i);
					u64 y = mp_lget(b[j], bits, i);
					u64 want = o < NALU ?
						ref_alu(alu_ops[o], bits, x, y) :
						ref_alu(KH_PV_VSUB, bits, y, x);
					u64 g = mp_lget(got, bits, i);

					if (g != want && bad++ < 6)
						CHECK_MSG(0, "w%u op %#x pair %u lane %u: %llx, %llx -> %llx, want %llx",
							  bits, o < NALU ? alu_ops[o] : 0x101,
							  j, i, (unsigned long long)x,
							  (unsigned long long)y,
							  (unsigned long long)g,
							  (unsigned long long)want);
				}
			}
		CHECK_EQ(bad, 0);
	}
}

TEST_F(model, compares_into_predicates_and_select)
{
	u8 a[NPAIR][64], b[NPAIR][64];
	u64 selp[NPAIR];
	unsigned int w, j, o, i, k, bad;

	REQUIRE(open_card());
	for (w = KH_PV_W8; w <= KH_PV_W32; w++) {
		unsigned int bits = KH_PV_LANE_BITS(w), lanes = 512 / bits;

		prolog();
		for (j = 0, k = 0; j < NPAIR; j++) {
			make_pair(j, bits, a[j], b[j]);
			if (j == 4)	/* equal lanes for veq, vle */
				memcpy(b[j], a[j], 64);
			if (j == 5)
				for (i = 0; i < lanes; i += 2)
					mp_lset(b[j], bits, i, mp_lget(a[j], bits, i));
			poke_row(IN_ROW + 2 * j, a[j]);
			poke_row(IN_ROW + 2 * j + 1, b[j]);
			mp_emit(&pg, VL(1, R_BASE, IN_ROW + 2 * j));
			mp_emit(&pg, VL(2, R_BASE, IN_ROW + 2 * j + 1));
			for (o = 0; o < NCMP; o++) {
				/* a stale predicate: the bits above the lanes clear */
				mp_li(&pg, 6, 0xffffffffu);
				mp_emit(&pg, VMOVE(KH_PV_VMVXB, 7 + o, 6, 6));
				mp_emit(&pg, VALU(cmp_ops[o], w, 7 + o, 1, 2));
				mp_emit(&pg, VMOVE(KH_PV_VMVBX, 5, 7 + o, 0));
				mp_emit(&pg, SW(5, R_OUT, k++ * 4));
				mp_emit(&pg, VMOVE(KH_PV_VMVBX, 5, 7 + o, 1));
				mp_emit(&pg, SW(5, R_OUT, k++ * 4));
			}
			/* select on a random predicate, then on vlt's */
			selp[j] = rnd();
			mp_li(&pg, 6, (u32)selp[j]);
			mp_li(&pg, 7, (u32)(selp[j] >> 32));
			mp_emit(&pg, VMOVE(KH_PV_VMVXB, 15, 6, 7));
			mp_emit(&pg, VALU(KH_PV_VSEL + 15, w, 4, 1, 2));
			mp_emit(&pg, VS(4, R_BASE, OUT_ROW + 2 * j));
			mp_emit(&pg, VALU(KH_PV_VSEL + 9, w, 4, 1, 2));
			mp_emit(&pg, VS(4, R_BASE, OUT_ROW + 2 * j + 1));
		}
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		REQUIRE(m.p->halted == 0);
		bad = 0;
		for (j = 0, k = 0; j < NPAIR; j++) {
			u64 plt = 0;

			for (o = 0; o < NCMP; o++, k += 2) {
				u64 want = 0, got;

				for (i = 0; i < lanes; i++)
					want |= ref_alu(cmp_ops[o], bits,
							mp_lget(a[j], bits, i),
							mp_lget(b[j], bits, i)) << i;
				if (cmp_ops[o] == KH_PV_VLT)
					plt = want;
				got = mp_dword(&m, 0, OUT_BYTES + k * 4) |
				      (u64)mp_dword(&m, 0, OUT_BYTES + k * 4 + 4) << 32;
				if (got != want && bad++ < 6)
					CHECK_MSG(0, "w%u cmp %#x pair %u: %016llx, want %016llx",
						  bits, cmp_ops[o], j,
						  (unsigned long long)got,
						  (unsigned long long)want);
			}
			for (i = 0; i < lanes; i++) {
				u64 x = mp_lget(a[j], bits, i), y = mp_lget(b[j], bits, i);
				u64 w1 = (selp[j] >> i) & 1 ? x : y;
				u64 w2 = (plt >> i) & 1 ? x : y;

				if ((mp_lget(row_at(OUT_ROW + 2 * j), bits, i) != w1 ||
				     mp_lget(row_at(OUT_ROW + 2 * j + 1), bits, i) != w2) &&
				    bad++ < 6)
					CHECK_MSG(0, "w%u vsel pair %u lane %u", bits, j, i);
			}
		}
		CHECK_EQ(bad, 0);
	}
}

TEST_F(model, moves_splat_extract_and_the_small_files)
{
	static const u32 sv[] = { 0, 1, 0x80, 0xffff8001u, 0x12345678u,
				  0xffffffffu };
	static const u32 idx[] = { 0, 1, 15, 16, 31, 32, 63, 64, 69,
				   0xffffffffu };
	u8 a[64];
	unsigned int w, i, j, k = 0, bits, lanes;

	REQUIRE(open_card());
	prolog();
	rvec(a, 8);
	poke_row(IN_ROW, a);
	mp_emit(&pg, VL(1, R_BASE, IN_ROW));
	mp_emit(&pg, VMOVE(KH_PV_VMV, 20, 1, 0));
	mp_emit(&pg, VS(20, R_BASE, OUT_ROW));
	for (w = 0; w <= KH_PV_W32; w++) {
		for (i = 0; i < 6; i++) {
			mp_li(&pg, 2, sv[i]);
			mp_emit(&pg, VMOVE(KH_PV_VSPLAT + w, 21, 2, 0));
			mp_emit(&pg, VS(21, R_BASE, OUT_ROW + 1 + w * 6 + i));
		}
		for (i = 0; i < 10; i++) {
			mp_li(&pg, 2, idx[i]);
			mp_emit(&pg, VMOVE(KH_PV_VEXT + w, 5, 1, 2));
			mp_emit(&pg, SW(5, R_OUT, k++ * 4));
			mp_emit(&pg, VMOVE(KH_PV_VEXTU + w, 5, 1, 2));
			mp_emit(&pg, SW(5, R_OUT, k++ * 4));
		}
		/* x0 stays 0 */
		mp_emit(&pg, VMOVE(KH_PV_VEXT + w, 0, 1, 0));
	}
	/* the predicate and radix files, both halves, the last register */
	mp_li(&pg, 6, 0x89abcdefu);
	mp_li(&pg, 7, 0x01234567u);
	mp_emit(&pg, VMOVE(KH_PV_VMVXP, 15, 6, 7));
	mp_emit(&pg, VMOVE(KH_PV_VMVXB, 15, 7, 6));
	for (j = 0; j < 2; j++) {
		mp_emit(&pg, VMOVE(KH_PV_VMVPX, 5, 15, j));
		mp_emit(&pg, SW(5, R_OUT, k++ * 4));
		mp_emit(&pg, VMOVE(KH_PV_VMVBX, 5, 15, j));
		mp_emit(&pg, SW(5, R_OUT, k++ * 4));
	}
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	CHECK_EQ(memcmp(row_at(OUT_ROW), a, 64), 0);
	CHECK_EQ(m.p->core[0].x[0], 0);
	for (w = 0, k = 0; w <= KH_PV_W32; w++) {
		bits = KH_PV_LANE_BITS(w);
		lanes = 512 / bits;
		for (i = 0; i < 6; i++)
			for (j = 0; j < lanes; j++)
				CHECK_MSG(mp_lget(row_at(OUT_ROW + 1 + w * 6 + i), bits, j) ==
					  (sv[i] & mask(bits)),
					  "vsplat w%u %08x lane %u", bits, sv[i], j);
		for (i = 0; i < 10; i++, k += 2) {
			u64 l = mp_lget(a, bits, idx[i] % lanes);

			CHECK_MSG(mp_dword(&m, 0, OUT_BYTES + k * 4) == (u32)sx(l, bits),
				  "vext w%u idx %u", bits, idx[i]);
			CHECK_MSG(mp_dword(&m, 0, OUT_BYTES + k * 4 + 4) == (u32)l,
				  "vextu w%u idx %u", bits, idx[i]);
		}
	}
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES + k * 4), 0x89abcdefu);
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES + k * 4 + 4), 0x01234567u);
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES + k * 4 + 8), 0x01234567u);
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES + k * 4 + 12), 0x89abcdefu);
}

TEST_F(model, vl_vs_rows_offsets_and_iram)
{
	u8 a[64], b[64];

	REQUIRE(open_card());
	prolog();
	rvec(a, 8);
	rvec(b, 8);
	poke_row(IN_ROW + 3, a);
	poke_row(IN_ROW - 5, b);
	mp_li(&pg, 1, KH_POOL_DRAM_BASE + IN_ROW * 64);
	mp_emit(&pg, VL(1, 1, 3));		/* positive rows */
	mp_emit(&pg, VL(2, 1, (u32)-5));	/* negative rows */
	mp_emit(&pg, VS(1, 1, OUT_ROW - IN_ROW));
	mp_emit(&pg, VS(2, 1, OUT_ROW - IN_ROW + 1));
	mp_emit(&pg, VL(3, 0, 0));		/* IRAM: the program */
	mp_emit(&pg, VS(3, R_BASE, OUT_ROW + 2));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	CHECK_EQ(memcmp(row_at(OUT_ROW), a, 64), 0);
	CHECK_EQ(memcmp(row_at(OUT_ROW + 1), b, 64), 0);
	CHECK_EQ(memcmp(row_at(OUT_ROW + 2), pg.w, 64), 0);
}

/* ---- the quad-MAC (seed 002 §3.3) ---- */

/* an accumulator lane (A bits at byte A/8 * i) of the model's w[n] */
static u128 acc_lane(unsigned int n, unsigned int abits, unsigned int i)
{
	const u8 *l = m.p->core[0].vec.wv[n] + abits / 8 * i;
	u128 r = 0;
	unsigned int k;

	for (k = 0; k < abits / 8; k++)
		r |= (u128)l[k] << (8 * k);
	return r;
}

static u128 mask128(unsigned int bits)
{
	return ((u128)1 << bits) - 1;
}

/* s_i = sum tap_k * radix byte k, exact */
static s128 ref_dot(u8 (*tap)[64], u64 pr, unsigned int bits, unsigned int i,
		    bool ut, bool us)
{
	s128 s = 0;
	unsigned int k;

	for (k = 0; k < 4; k++) {
		u64 t = mp_lget(tap[k], bits, i);
		s128 tv = ut ? (s128)t : (s128)sx(t, bits);
		u8 r = (u8)(pr >> (8 * k));
		s128 rv = us ? (s128)r : (s128)(s8)r;

		s += tv * rv;
	}
	return s;
}

static s128 ref_pack(u128 lane, unsigned int abits, unsigned int bits,
		     u32 shift, bool round)
{
	unsigned int s = shift % 128;
	s128 a = (s128)(lane << (128 - abits)) >> (128 - abits);
	s128 hi = ((s128)1 << (bits - 1)) - 1, lo = -hi - 1;

	if (round && s)
		a += (s128)1 << (s - 1);
	a >>= s;
	return a > hi ? hi : a < lo ? lo : a;
}

TEST_F(model, quad_mac_the_seeds_520)
{
	unsigned int w, i;

	REQUIRE(open_card());
	for (w = KH_PV_W8; w <= KH_PV_W32; w++) {
		unsigned int abits = KH_PV_ACC_BITS(w);

		prolog();
		for (i = 0; i < 4; i++) {
			mp_emit(&pg, ADDI(2, 0, 10 * (i + 1)));	/* 10 20 30 40 */
			mp_emit(&pg, VMOVE(KH_PV_VSPLAT + w, 4 + i, 2, 0));
		}
		/*
		 * the seed's radix bytes [3, 5, 7, 11] are its b32_pr word
		 * written most significant byte first: 0x0305070b, byte 0 =
		 * 11 (10*11 + 20*7 + 30*5 + 40*3 = 520; the other pairing
		 * would give 780)
		 */
		mp_li(&pg, 6, 0x0305070bu);
		mp_emit(&pg, VMOVE(KH_PV_VMVXP, 1, 6, 0));
		mp_emit(&pg, KH_PV_ENC_QMAC(w, 2, 4, 1, KH_PV_MAC_SET, 0));
		mp_emit(&pg, KH_PV_ENC_PACK(w, 8, 2, 0, 0));
		mp_emit(&pg, VMOVE(KH_PV_VEXT + w, 5, 8, 0));
		mp_emit(&pg, SW(5, R_OUT, 0));
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		REQUIRE(m.p->halted == 0);
		for (i = 0; i < KH_PV_LANES(w); i++)
			CHECK_MSG(acc_lane(2, abits, i) == 520,
				  "w%u lane %u", KH_PV_LANE_BITS(w), i);
		/* 8-bit lanes: the pack saturates 520 to 127 */
		CHECK_EQ(mp_dword(&m, 0, OUT_BYTES), w == KH_PV_W8 ? 127 : 0x208);
	}
}

#define NTAP	20	/* v8..v27 */

TEST_F(model, quad_mac_widths_modes_signedness_wrap_and_pack)
{
	static const u32 shifts[] = { 0, 1, 7, 8, 15, 16, 23, 31, 40, 47,
				      63, 64, 65, 95, 100, 127, 131 };
	static const unsigned int seq[5] = {
		KH_PV_MAC_SET, KH_PV_MAC_SUB, KH_PV_MAC_ADD, KH_PV_MAC_SUB,
		KH_PV_MAC_ADD,
	};
	/* taps: v8, v12, v16, v20, and v30 (v30 v31 v0 v1, mod 32) */
	static const unsigned int tap0[5] = { 8, 12, 16, 20, 30 };
	u8 tap[32][64];
	u64 pr[4];
	unsigned int w, f, q, i, k, s, bad;
	const unsigned int nsh = sizeof(shifts) / sizeof(shifts[0]);

	REQUIRE(open_card());
	for (w = KH_PV_W8; w <= KH_PV_W32; w++) {
		unsigned int bits = KH_PV_LANE_BITS(w), abits = KH_PV_ACC_BITS(w);
		unsigned int lanes = KH_PV_LANES(w), wraps = 0;
		u128 acc[4][64];

		prolog();
		for (k = 0; k < 32; k++) {
			if ((k >= 8 && k < 8 + NTAP) || k >= 30 || k < 2) {
				rvec(tap[k], bits);
				poke_row(IN_ROW + k, tap[k]);
				mp_emit(&pg, VL(k, R_BASE, IN_ROW + k));
			}
		}
		for (k = 0; k < 4; k++) {
			pr[k] = rnd();
			mp_li(&pg, 6, (u32)pr[k]);
			mp_li(&pg, 7, (u32)(pr[k] >> 32));
			mp_emit(&pg, VMOVE(KH_PV_VMVXP, 12 + k, 6, 7));
		}
		/* accumulator f: signedness combination f */
		for (f = 0; f < 4; f++)
			for (q = 0; q < 5; q++)
				mp_emit(&pg, KH_PV_ENC_QMAC(w, f, tap0[q],
							    12 + (q + f) % 4, seq[q],
							    f * KH_PV_MAC_UT));
		for (f = 0; f < 4; f++)
			for (s = 0; s < nsh; s++) {
				mp_li(&pg, 5, shifts[s]);
				mp_emit(&pg, KH_PV_ENC_PACK(w, 2, f, 5, 0));
				mp_emit(&pg, VS(2, R_BASE, OUT_ROW + (f * nsh + s) * 2));
				mp_emit(&pg, KH_PV_ENC_PACK(w, 3, f, 5, 1));
				mp_emit(&pg, VS(3, R_BASE, OUT_ROW + (f * nsh + s) * 2 + 1));
			}
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		REQUIRE(m.p->halted == 0);
		bad = 0;
		for (f = 0; f < 4; f++)
			for (i = 0; i < lanes; i++) {
				bool ut = f & 1, us = f & 2;
				u128 a = 0;

				for (q = 0; q < 5; q++) {
					u8 t4[4][64];
					s128 d;

					for (k = 0; k < 4; k++)
						memcpy(t4[k], tap[(tap0[q] + k) % 32], 64);
					d = ref_dot(t4, pr[(q + f) % 4], bits, i, ut, us);
					if (seq[q] == KH_PV_MAC_SET)
						a = (u128)d;
					else if (seq[q] == KH_PV_MAC_ADD)
						a += (u128)d;
					else
						a -= (u128)d;
					/* crossed the lane's top or bottom? */
					if (seq[q] != KH_PV_MAC_SET &&
					    (a & ~mask128(abits)) != 0 &&
					    (a & ~mask128(abits)) != ~mask128(abits))
						wraps++;
					a &= mask128(abits);
				}
				acc[f][i] = a;
				if (acc_lane(f, abits, i) != a && bad++ < 6)
					CHECK_MSG(0, "vqmac w%u flags %u lane %u: %016llx%016llx want %016llx%016llx",
						  bits, f, i,
						  (unsigned long long)(acc_lane(f, abits, i) >> 64),
						  (unsigned long long)acc_lane(f, abits, i),
						  (unsigned long long)(a >> 64),
						  (unsigned long long)a);
			}
		CHECK_EQ(bad, 0);
		/* the random sequence went below zero and back: lanes wrapped */
		CHECK_MSG(wraps > 0, "w%u: no lane wrapped", bits);
		for (f = 0; f < 4; f++)
			for (s = 0; s < nsh; s++)
				for (i = 0; i < lanes; i++) {
					u64 g0 = mp_lget(row_at(OUT_ROW + (f * nsh + s) * 2), bits, i);
					u64 g1 = mp_lget(row_at(OUT_ROW + (f * nsh + s) * 2 + 1), bits, i);
					u64 w0 = (u64)ref_pack(acc[f][i], abits, bits, shifts[s], false) & mask(bits);
					u64 w1 = (u64)ref_pack(acc[f][i], abits, bits, shifts[s], true) & mask(bits);

					if ((g0 != w0 || g1 != w1) && bad++ < 6)
						CHECK_MSG(0, "vpack w%u acc %u shift %u lane %u: %llx %llx, want %llx %llx",
							  bits, f, shifts[s], i,
							  (unsigned long long)g0,
							  (unsigned long long)g1,
							  (unsigned long long)w0,
							  (unsigned long long)w1);
				}
		CHECK_EQ(bad, 0);
	}
}

/*
 * 24-bit lanes wrap at the top: 127 * 127 * 4 = 64516 added 301 times is
 * 19419316, past 2^24; every lane the same, so a carry leaking into the
 * next lane shows.
 */
TEST_F(model, quad_mac_24bit_lanes_wrap_upward)
{
	unsigned int i;
	u32 loop;
	u128 want = (u128)(301 * 64516) & mask128(24);

	REQUIRE(open_card());
	prolog();
	mp_emit(&pg, ADDI(2, 0, 127));
	for (i = 0; i < 4; i++)
		mp_emit(&pg, VMOVE(KH_PV_VSPLAT + KH_PV_W8, 4 + i, 2, 0));
	mp_li(&pg, 6, 0x7f7f7f7fu);
	mp_emit(&pg, VMOVE(KH_PV_VMVXP, 3, 6, 0));
	mp_emit(&pg, KH_PV_ENC_QMAC(KH_PV_W8, 1, 4, 3, KH_PV_MAC_SET, 0));
	mp_emit(&pg, ADDI(8, 0, 300));
	loop = mp_here(&pg);
	mp_emit(&pg, KH_PV_ENC_QMAC(KH_PV_W8, 1, 4, 3, KH_PV_MAC_ADD, 0));
	mp_emit(&pg, ADDI(8, 8, -1));
	mp_emit(&pg, BNE(8, 0, loop - mp_here(&pg)));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	for (i = 0; i < 64; i++)
		CHECK_MSG(acc_lane(1, 24, i) == want, "lane %u: %06llx want %06llx",
			  i, (unsigned long long)acc_lane(1, 24, i),
			  (unsigned long long)want);
}

/* ---- cpenable and the disabled trap (seed 002 §3.2) ---- */

TEST_F(model, cpenable_reset_value_and_writable_bits)
{
	REQUIRE(open_card());
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_emit(&pg, CSRR(5, KH_PV_CSR_CPENABLE));
	mp_emit(&pg, SW(5, R_BASE, 0x100));
	mp_emit(&pg, ADDI(1, 0, -1));
	mp_emit(&pg, CSRRW(5, KH_PV_CSR_CPENABLE, 1));
	mp_emit(&pg, CSRR(6, KH_PV_CSR_CPENABLE));
	mp_emit(&pg, SW(6, R_BASE, 0x104));
	mp_emit(&pg, CSRRCI(0, KH_PV_CSR_CPENABLE, 2));
	mp_emit(&pg, CSRR(6, KH_PV_CSR_CPENABLE));
	mp_emit(&pg, SW(6, R_BASE, 0x108));
	mp_emit(&pg, CSRRSI(0, KH_PV_CSR_CPENABLE, 2));
	mp_emit(&pg, CSRR(6, KH_PV_CSR_CPENABLE));
	mp_emit(&pg, SW(6, R_BASE, 0x10c));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	CHECK_EQ(mp_dword(&m, 0, 0x100), 0);
	CHECK_EQ(mp_dword(&m, 0, 0x104), KH_PV_CPENABLE_CP1);
	CHECK_EQ(mp_dword(&m, 0, 0x108), 0);
	CHECK_EQ(mp_dword(&m, 0, 0x10c), KH_PV_CPENABLE_CP1);
}

static void expect_trap(const char *what, unsigned int cause, u32 pc)
{
	u64 trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);

	CHECK_MSG(m.p->halted == 1 && (trap & KH_POOL_TRAP_VALID) &&
		  KH_POOL_TRAP_CAUSE(trap) == cause &&
		  KH_POOL_TRAP_PC(trap) == pc,
		  "%s: halted %02x TRAP %016llx, want cause %u pc %08x", what,
		  m.p->halted, (unsigned long long)trap, cause, pc);
}

/* state worth disturbing: registers, predicates, radix, an accumulator */
static void busy_state(const u8 *a, const u8 *b)
{
	poke_row(IN_ROW, a);
	poke_row(IN_ROW + 1, b);
	poke_row(OUT_ROW, b);
	mp_emit(&pg, VL(1, R_BASE, IN_ROW));
	mp_emit(&pg, VL(2, R_BASE, IN_ROW + 1));
	mp_li(&pg, 6, 0x04030201u);
	mp_li(&pg, 7, 0xdeadbeefu);
	mp_emit(&pg, VMOVE(KH_PV_VMVXP, 0, 6, 7));
	mp_emit(&pg, VMOVE(KH_PV_VMVXB, 0, 7, 6));
	mp_emit(&pg, KH_PV_ENC_QMAC(KH_PV_W16, 0, 0, 0, KH_PV_MAC_SET, 0));
	mp_li(&pg, 5, 0x5555u);
}

TEST_F(model, disabled_coprocessor_traps_before_any_effect)
{
	const u32 words[] = {
		VL(3, R_BASE, IN_ROW),
		VS(1, R_BASE, OUT_ROW),
		VALU(KH_PV_VADD, KH_PV_W8, 1, 1, 2),
		VALU(KH_PV_VEQ, KH_PV_W16, 0, 1, 1),
		VALU(KH_PV_VSEL, KH_PV_W32, 2, 1, 2),
		VMOVE(KH_PV_VMV, 2, 1, 0),
		VMOVE(KH_PV_VSPLAT, 1, 5, 0),
		VMOVE(KH_PV_VEXT + KH_PV_W8, 5, 1, 0),
		VMOVE(KH_PV_VMVXB, 0, 0, 0),
		VMOVE(KH_PV_VMVBX, 5, 0, 1),
		VMOVE(KH_PV_VMVXP, 0, 0, 0),
		VMOVE(KH_PV_VMVPX, 5, 0, 0),
		KH_PV_ENC_QMAC(KH_PV_W16, 0, 0, 0, KH_PV_MAC_ADD, 0),
		KH_PV_ENC_PACK(KH_PV_W16, 1, 0, 0, 1),
		/* the second slice's: FPU, Engine A, permutes, moves, memory */
		VALU(KH_PV_VDIV4U, KH_PV_W32, 1, 1, 2),
		FPW(KH_PV_FMADD, KH_PV_WF32, 1, 1, 2),
		FPW(KH_PV_FMUL | KH_PV_FNOFLAGS, KH_PV_WF16, 1, 1, 2),
		FPW(KH_PV_FTRUNC, KH_PV_WF32, 1, 2, 0),
		FPW(KH_PV_FCVT, KH_PV_WF16, 1, 1, 2),
		FPW(KH_PV_FRECIP0, KH_PV_WF32, 1, 2, 0),
		FPW(KH_PV_FRECIPQ, KH_PV_WF32, 1, 2, 0),
		FPW(KH_PV_PSEL, KH_PV_W8, 1, 1, 2),
		FPW(KH_PV_PDSEL, KH_PV_W16, 1, 1, 2),
		FPW(KH_PV_PCMPRS, KH_PV_W32, 1, 2, 0),
		VMOVE(KH_PV_VWFCR, 0, 5, 0),
		VMOVE(KH_PV_VRFSR, 5, 0, 0),
		VMOVE(KH_PV_VMVVW, 0, 1, 2),
		VMOVE(KH_PV_VMVVU, 0, 1, 0),
		VMOVE(KH_PV_VMVVG, 0, 1, 0),
		/* x11 is past core 0's mailbox row; v0's offsets are 0 */
		KH_PV_ENC_ALIGN(KH_PV_VLAP, 0, R_OUT, 0),
		KH_PV_ENC_ALIGN(KH_PV_VLA, 1, R_OUT, 0),
		KH_PV_ENC_ALIGN(KH_PV_VSA, 0, R_OUT, 1),
		KH_PV_ENC_ALIGN(KH_PV_VSAF, 0, R_OUT, 0),
		KH_PV_ENC_GS(KH_PV_F3_GS32, KH_PV_GATHERA, 0, 0, R_OUT, 0),
		KH_PV_ENC_GS(KH_PV_F3_GS16, KH_PV_SCATTERINC, 0, 1, R_OUT, 0),
	};
	static struct ksim_pool_vec base;
	u32 bx[33];
	u8 a[64], b[64], dram[KH_POOL_DRAM_SIZE];
	unsigned int i;
	u32 at;

	REQUIRE(open_card());
	rvec(a, 8);
	rvec(b, 8);
	/* never enabled since reset: the first vector instruction traps */
	mp_init(&pg);
	mp_emit(&pg, NOP);
	mp_emit(&pg, VALU(KH_PV_VADD, KH_PV_W8, 1, 1, 1));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	expect_trap("after reset", KH_POOL_CAUSE_CP_DISABLED, 4);

	/* the baseline: the state before the instruction, then halt */
	prolog();
	busy_state(a, b);
	mp_emit(&pg, CPEN(0));
	at = mp_here(&pg);
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	base = m.p->core[0].vec;
	memcpy(bx, m.p->core[0].x, sizeof(bx));
	memcpy(dram, m.p->core[0].dram, sizeof(dram));

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char what[32];

		snprintf(what, sizeof(what), "word %08x", words[i]);
		/* DataRAM survives resets: the last enabled run's stores out */
		memcpy(m.p->core[0].dram, dram, sizeof(dram));
		prolog();
		busy_state(a, b);
		mp_emit(&pg, CPEN(0));
		mp_emit(&pg, words[i]);
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		expect_trap(what, KH_POOL_CAUSE_CP_DISABLED, at);
		/* the architectural state: the timing (sched) is not */
		CHECK_MSG(!memcmp(&m.p->core[0].vec, &base,
				  offsetof(struct ksim_pool_vec, sched)),
			  "%s: vector state changed", what);
		CHECK_MSG(!memcmp(m.p->core[0].x, bx, sizeof(bx)),
			  "%s: scalar registers changed", what);
		CHECK_MSG(!memcmp(m.p->core[0].dram, dram, sizeof(dram)),
			  "%s: DataRAM changed", what);
		/* and enabled, the same word runs */
		prolog();
		busy_state(a, b);
		mp_emit(&pg, words[i]);
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		CHECK_MSG(m.p->halted == 0, "%s: traps when enabled", what);
	}
}

/* ---- vector accesses: aligned rows of what the core alone sees ---- */

TEST_F(model, misaligned_and_unreachable_vector_accesses_trap)
{
	static const u32 offs[] = { 1, 2, 4, 8, 16, 32, 48, 63 };
	static const struct {
		const char *what;
		u32 addr;
		bool st;
		unsigned int cause;
	} far[] = {
		{ "vl window", KH_POOL_WIN_BASE, false, KH_POOL_CAUSE_LOAD_FAULT },
		{ "vs window", KH_POOL_WIN_BASE, true, KH_POOL_CAUSE_STORE_FAULT },
		{ "vs IRAM", 0x100, true, KH_POOL_CAUSE_STORE_FAULT },
		{ "vl mailbox row", KH_POOL_DRAM_BASE, false,
		  KH_POOL_CAUSE_LOAD_FAULT },
		{ "vs mailbox row", KH_POOL_DRAM_BASE, true,
		  KH_POOL_CAUSE_STORE_FAULT },
		{ "vl past DataRAM", KH_POOL_DRAM_BASE + KH_POOL_DRAM_SIZE,
		  false, KH_POOL_CAUSE_LOAD_FAULT },
		{ "vl between", 0x40000, false, KH_POOL_CAUSE_LOAD_FAULT },
		{ "vs misaligned window", KH_POOL_WIN_BASE + 8, true,
		  KH_POOL_CAUSE_STORE_MISALIGNED },
	};
	u8 a[64], row[64];
	unsigned int i, st;
	u32 at;

	REQUIRE(open_card());
	rvec(a, 8);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		for (st = 0; st < 2; st++) {
			char what[32];

			snprintf(what, sizeof(what), "%s +%u", st ? "vs" : "vl",
				 offs[i]);
			prolog();
			poke_row(IN_ROW, a);
			poke_row(IN_ROW + 2, a);
			mp_emit(&pg, VL(1, R_BASE, IN_ROW));
			mp_li(&pg, 2, KH_POOL_DRAM_BASE + (IN_ROW + 1) * 64 + offs[i]);
			at = mp_here(&pg);
			mp_emit(&pg, st ? VS(1, 2, 0) : VL(1, 2, 0));
			mp_halt(&pg);
			/* the row the access would touch: not a's */
			memset(row, 0xa5, 64);
			poke_row(IN_ROW + 1, row);
			REQUIRE(mp_exec(&m, &pg));
			expect_trap(what, st ? KH_POOL_CAUSE_STORE_MISALIGNED :
					       KH_POOL_CAUSE_LOAD_MISALIGNED, at);
			CHECK_MSG(!memcmp(m.p->core[0].vec.v[1], row_at(IN_ROW + 2), 64),
				  "%s: v1 changed", what);
			CHECK_MSG(!memcmp(row_at(IN_ROW + 1), row, 64),
				  "%s: memory changed", what);
		}
	for (i = 0; i < sizeof(far) / sizeof(far[0]); i++) {
		prolog();
		mp_li(&pg, 2, far[i].addr);
		at = mp_here(&pg);
		mp_emit(&pg, far[i].st ? VS(1, 2, 0) : VL(1, 2, 0));
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		expect_trap(far[i].what, far[i].cause, at);
	}
}

/* ---- decode: reserved fields, and the latency table as data ---- */

TEST_F(model, reserved_fields_are_illegal_and_stages_are_the_seeds)
{
	static const struct {
		u32 w;
		unsigned int stage;	/* 0: illegal */
	} t[] = {
		{ VALU(KH_PV_VADD, KH_PV_W8, 1, 2, 3), KH_PV_STAGE_ALU },
		{ VALU(KH_PV_VSEL + 15, KH_PV_W32, 1, 2, 3), KH_PV_STAGE_ALU },
		{ VALU(KH_PV_VLEU, KH_PV_W16, 15, 2, 3), KH_PV_STAGE_ALU },
		{ VL(1, 2, 3), KH_PV_STAGE_LOAD },
		{ VS(1, 2, 3), KH_PV_STAGE_STORE },
		{ VMOVE(KH_PV_VEXT, 1, 2, 3), KH_PV_STAGE_V2S },
		{ VMOVE(KH_PV_VMVPX, 1, 2, 1), KH_PV_STAGE_V2S },
		{ KH_PV_ENC_QMAC(KH_PV_W32, 3, 31, 15, KH_PV_MAC_SUB, 12),
		  KH_PV_STAGE_MAC },
		{ KH_PV_ENC_PACK(KH_PV_W8, 1, 3, 9, 1), KH_PV_STAGE_PACK },
		{ VMOVE(KH_PV_VRFCR, 1, 0, 0), KH_PV_STAGE_V2S },
		{ VMOVE(KH_PV_VWFSR, 0, 5, 0), KH_PV_STAGE_ALU },
		{ VMOVE(KH_PV_VMVVW, 3, 31, 2), KH_PV_STAGE_MAC },
		{ VMOVE(KH_PV_VMVWV, 31, 3, 2), KH_PV_STAGE_MAC },
		{ VMOVE(KH_PV_VMVVU, 3, 31, 0), KH_PV_STAGE_ALU },
		{ VMOVE(KH_PV_VMVGV, 31, 7, 0), KH_PV_STAGE_ALU },
		{ FPW(KH_PV_FMADD, KH_PV_WF32, 1, 2, 3), KH_PV_STAGE_FMA },
		{ FPW(KH_PV_FSUB | KH_PV_FNOFLAGS, KH_PV_WF16, 1, 2, 3),
		  KH_PV_STAGE_FMA },
		{ FPW(KH_PV_FFLOAT, KH_PV_WF16, 1, 2, 0), KH_PV_STAGE_CVT },
		{ FPW(KH_PV_FCVT, KH_PV_WF16, 1, 2, 3), KH_PV_STAGE_CVT },
		{ FPW(KH_PV_FTRUNCU, KH_PV_WF32, 1, 2, 0), KH_PV_STAGE_TRUNC },
		{ FPW(KH_PV_FRSQRT0, KH_PV_WF16, 1, 2, 0), KH_PV_STAGE_TAB },
		{ FPW(KH_PV_FRECIPQ, KH_PV_WF32, 1, 2, 0), KH_PV_STAGE_FMA },
		{ FPW(KH_PV_PSEL, KH_PV_W16, 1, 2, 3), KH_PV_STAGE_PERM },
		{ FPW(KH_PV_PDSEL, KH_PV_W8, 30, 2, 3), KH_PV_STAGE_PERM },
		{ FPW(KH_PV_PCMPRS + 15, KH_PV_W32, 1, 2, 0), KH_PV_STAGE_PERM },
		{ KH_PV_ENC_ALIGN(KH_PV_VLA, 31, 5, 3), KH_PV_STAGE_LOAD },
		{ KH_PV_ENC_ALIGN(KH_PV_VSA, 3, 5, 31), KH_PV_STAGE_STORE },
		{ KH_PV_ENC_ALIGN(KH_PV_VSAF, 3, 5, 0), KH_PV_STAGE_STORE },
		{ KH_PV_ENC_GS(KH_PV_F3_GS16, KH_PV_GATHERA, 15, 7, 5, 31),
		  KH_PV_STAGE_LOAD },
		{ KH_PV_ENC_GS(KH_PV_F3_GS32, KH_PV_GATHERD, 0, 31, 0, 7),
		  KH_PV_STAGE_ALU },
		{ KH_PV_ENC_GS(KH_PV_F3_GS32, KH_PV_SCATTERINC, 15, 31, 5, 31),
		  KH_PV_STAGE_STORE },
		{ VALU(KH_PV_VDIV4U, KH_PV_W32, 1, 2, 3), KH_PV_STAGE_DIVSTEP },
		/* illegal: */
		{ VALU(KH_PV_VDIV4U, KH_PV_W16, 1, 2, 3), 0 },	/* 32 only */
		{ KH_PV_ENC_ALIGN(KH_PV_VLAP, 4, 5, 0), 0 },	/* u4 */
		{ KH_PV_ENC_ALIGN(KH_PV_VLAP, 0, 5, 1), 0 },	/* rs2 */
		{ KH_PV_ENC_ALIGN(KH_PV_VLA, 1, 5, 4), 0 },	/* u4 */
		{ KH_PV_ENC_ALIGN(KH_PV_VSA, 4, 5, 1), 0 },
		{ KH_PV_ENC_ALIGN(0x05, 0, 5, 0), 0 },
		{ KH_PV_ENC_GS(KH_PV_F3_GS16, KH_PV_GATHERA, 0, 8, 5, 1), 0 },
		{ KH_PV_ENC_GS(KH_PV_F3_GS16, KH_PV_GATHERD, 0, 1, 5, 1), 0 },
		{ KH_PV_ENC_GS(KH_PV_F3_GS16, KH_PV_GATHERD, 1, 1, 0, 1), 0 },
		{ KH_PV_ENC_GS(KH_PV_F3_GS16, KH_PV_GATHERD, 0, 1, 0, 8), 0 },
		{ KH_PV_ENC_GS(KH_PV_F3_GS32, 4, 0, 1, 5, 1), 0 },
		{ VMOVE(KH_PV_VRFCR, 1, 2, 0), 0 },		/* rs1 != 0 */
		{ VMOVE(KH_PV_VWFCR, 1, 2, 0), 0 },		/* rd != 0 */
		{ VMOVE(KH_PV_VMVVW, 4, 1, 0), 0 },		/* w4 */
		{ VMOVE(KH_PV_VMVVW, 0, 1, 3), 0 },		/* third 3 */
		{ VMOVE(KH_PV_VMVWV, 1, 4, 0), 0 },
		{ VMOVE(KH_PV_VMVVU, 4, 1, 0), 0 },		/* u4 */
		{ VMOVE(KH_PV_VMVUV, 1, 3, 1), 0 },		/* rs2 != 0 */
		{ VMOVE(KH_PV_VMVGV, 1, 8, 0), 0 },		/* g8 */
		{ VMOVE(0x1e, 1, 2, 0), 0 },
		{ FPW(0x05, KH_PV_WF32, 1, 2, 3), 0 },		/* a hole */
		{ FPW(KH_PV_FTRUNC, KH_PV_WF32, 1, 2, 3), 0 },	/* rs2 */
		{ FPW(KH_PV_FCVT, KH_PV_WF32, 1, 2, 3), 0 },	/* widen: rs2 */
		{ FPW(KH_PV_FRECIPQ, KH_PV_WF16, 1, 2, 0), 0 },	/* SP only */
		{ FPW(KH_PV_FMADD, 6, 1, 2, 3), 0 },		/* type 6 */
		{ FPW(KH_PV_FMADD, 7, 1, 2, 3), 0 },
		{ FPW(KH_PV_PDSEL, KH_PV_W8, 31, 2, 3), 0 },	/* no v32 */
		{ FPW(KH_PV_PCMPRS + 16, KH_PV_W8, 1, 2, 0), 0 },
		{ FPW(KH_PV_PCMPRS, KH_PV_W8, 1, 2, 3), 0 },	/* rs2 */
		{ FPW(0x04, KH_PV_W8, 1, 2, 3), 0 },		/* a hole */
		{ VALU(KH_PV_VADD, 3, 1, 2, 3), 0 },		/* width 3 */
		{ VALU(KH_PV_VADD, 4, 1, 2, 3), 0 },		/* FP: later */
		{ VALU(0x06, KH_PV_W8, 1, 2, 3), 0 },		/* a hole */
		{ VALU(KH_PV_VEQ, KH_PV_W8, 16, 2, 3), 0 },	/* b16 */
		{ VALU(0x50, KH_PV_W8, 1, 2, 3), 0 },		/* past vsel */
		{ VMOVE(KH_PV_VMV, 1, 2, 3), 0 },		/* rs2 != 0 */
		{ VMOVE(KH_PV_VMV + 1, 1, 2, 0), 0 },
		{ VMOVE(KH_PV_VSPLAT + 3, 1, 2, 0), 0 },
		{ VMOVE(KH_PV_VSPLAT, 1, 2, 1), 0 },
		{ VMOVE(KH_PV_VMVXB, 16, 2, 3), 0 },
		{ VMOVE(KH_PV_VMVPX, 1, 16, 0), 0 },
		{ VMOVE(KH_PV_VMVBX, 1, 2, 2), 0 },
		{ VMOVE(0x14, 1, 2, 0), 0 },
		{ KH_PV_ENC_R(KH_PV_OPC_MEM, 0, 0, 0, 6, 0), 0 },
		{ KH_PV_ENC_QMAC(KH_PV_W8, 4, 0, 0, 0, 0), 0 },	/* w4 */
		{ KH_PV_ENC_QMAC(KH_PV_W8, 0, 0, 16, 0, 0), 0 },	/* p16 */
		{ KH_PV_ENC_QMAC(KH_PV_W8, 0, 0, 0, 3, 0), 0 },	/* mode 3 */
		{ KH_PV_ENC_QMAC(3, 0, 0, 0, 0, 0), 0 },
		{ KH_PV_ENC_PACK(KH_PV_W8, 1, 4, 0, 0), 0 },	/* w4 */
		{ KH_PV_ENC_PACK(KH_PV_W8, 1, 0, 0, 2), 0 },
		{ KH_PV_ENC_R(KH_PV_OPC_MAC, 0x20, 0, 0, 0, 0), 0 },
		{ KH_PV_ENC_R(KH_PV_OPC_FP, 0, 0, 0, 3, 0), 0 },
	};
	unsigned int i;
	u32 at;

	REQUIRE(open_card());
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct ksim_pool_op o;
		u8 k;

		memset(&o, 0, sizeof(o));
		k = ksim_pool_vec_decode(t[i].w, &o);
		if (!t[i].stage) {
			CHECK_MSG(k == KSIM_POOL_K_ILLEGAL, "%08x decodes", t[i].w);
			/* illegal also with the unit enabled */
			prolog();
			at = mp_here(&pg);
			mp_emit(&pg, t[i].w);
			mp_halt(&pg);
			REQUIRE(mp_exec(&m, &pg));
			expect_trap("reserved", KH_POOL_CAUSE_ILLEGAL, at);
			continue;
		}
		CHECK_MSG(k == KSIM_POOL_K_VEC, "%08x illegal", t[i].w);
		CHECK_MSG(ksim_pool_vec_stage(&o) == t[i].stage,
			  "%08x stage %u, want %u", t[i].w,
			  ksim_pool_vec_stage(&o), t[i].stage);
	}
	/* the table's numbers are seed 002 §5.1's */
	CHECK_EQ(KH_PV_STAGE_READ, 10);
	CHECK_EQ(KH_PV_STAGE_LOAD, 10);
	CHECK_EQ(KH_PV_STAGE_ALU, 11);
	CHECK_EQ(KH_PV_STAGE_MAC, 12);
	CHECK_EQ(KH_PV_STAGE_FMA, 13);
}

/*
 * Save and restore (pool-vector.md custom-1 0x14..0x1D): every file goes
 * out to memory and comes back bit for bit: a wide accumulator as three
 * vector registers, valign and gvr as one each, FCR and FSR through
 * scalars with their undefined bits dropped.
 */
TEST_F(model, save_and_restore_every_file)
{
	u8 a[3][64], g[64], u[64];
	const u8 *acc;
	unsigned int k;

	REQUIRE(open_card());
	prolog();
	for (k = 0; k < 3; k++) {
		rvec(a[k], 8);
		poke_row(IN_ROW + k, a[k]);
		mp_emit(&pg, VL(1 + k, R_BASE, IN_ROW + k));
		/* w2's thirds from v1..v3 */
		mp_emit(&pg, VMOVE(KH_PV_VMVVW, 2, 1 + k, k));
	}
	rvec(g, 8);
	rvec(u, 8);
	poke_row(IN_ROW + 3, g);
	poke_row(IN_ROW + 4, u);
	mp_emit(&pg, VL(4, R_BASE, IN_ROW + 3));
	mp_emit(&pg, VMOVE(KH_PV_VMVVG, 7, 4, 0));
	mp_emit(&pg, VL(5, R_BASE, IN_ROW + 4));
	mp_emit(&pg, VMOVE(KH_PV_VMVVU, 3, 5, 0));
	/* out again through other registers, in another order */
	for (k = 0; k < 3; k++) {
		mp_emit(&pg, VMOVE(KH_PV_VMVWV, 10 + k, 2, 2 - k));
		mp_emit(&pg, VS(10 + k, R_BASE, OUT_ROW + k));
	}
	mp_emit(&pg, VMOVE(KH_PV_VMVGV, 13, 7, 0));
	mp_emit(&pg, VS(13, R_BASE, OUT_ROW + 3));
	mp_emit(&pg, VMOVE(KH_PV_VMVUV, 14, 3, 0));
	mp_emit(&pg, VS(14, R_BASE, OUT_ROW + 4));
	/* FCR and FSR: all ones in, the defined bits back */
	mp_li(&pg, 6, 0xffffffffu);
	mp_emit(&pg, VMOVE(KH_PV_VWFCR, 0, 6, 0));
	mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, 6, 0));
	mp_emit(&pg, VMOVE(KH_PV_VRFCR, 5, 0, 0));
	mp_emit(&pg, SW(5, R_OUT, 0));
	mp_emit(&pg, VMOVE(KH_PV_VRFSR, 5, 0, 0));
	mp_emit(&pg, SW(5, R_OUT, 4));
	/* and 0 clears them */
	mp_emit(&pg, VMOVE(KH_PV_VWFSR, 0, 0, 0));
	mp_emit(&pg, VMOVE(KH_PV_VRFSR, 5, 0, 0));
	mp_emit(&pg, SW(5, R_OUT, 8));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	acc = m.p->core[0].vec.wv[2];
	for (k = 0; k < 3; k++) {
		CHECK_MSG(!memcmp(acc + 64 * k, a[k], 64), "w2 third %u", k);
		CHECK_MSG(!memcmp(row_at(OUT_ROW + k), a[2 - k], 64),
			  "vmvwv third %u", 2 - k);
	}
	CHECK_EQ(memcmp(row_at(OUT_ROW + 3), g, 64), 0);
	CHECK_EQ(memcmp(row_at(OUT_ROW + 4), u, 64), 0);
	/* the seed's pack: RM [9:8], enables [6:2]; flags [14:10] */
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES), 0x37c);
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES + 4), 0x7c00);
	CHECK_EQ(mp_dword(&m, 0, OUT_BYTES + 8), 0);
	CHECK_EQ(KH_PV_FCR_MASK | KH_PV_FSR_MASK, 0x7f7c);
}

/*
 * The divide step (pool-vector.md "custom-0", seed 002 §5.1's
 * DIVN_2X32X16U_4STEPN): four vdiv4u on R:Q with R < d give Q = R:Q / d
 * and R = R:Q % d, checked against C's division; two rounds of four give
 * a 32-bit quotient; a 16-bit divisor taken from the lane's low half.
 */
TEST_F(model, divide_steps_give_quotient_and_remainder)
{
	u32 nn[16], dd[16], n2[16];
	u8 a[64], b[64], c[64];
	unsigned int i, k;

	REQUIRE(open_card());
	for (i = 0; i < 16; i++) {
		u32 d = (u32)(rnd() % 0xffff) + 1;

		if (i == 0)
			d = 1;
		if (i == 1)
			d = 0xffff;
		/* R < d: the quotient fits 16 bits */
		nn[i] = (u32)((rnd() % d) << 16 | (rnd() & 0xffff));
		if (i == 2)
			nn[i] = 0;
		dd[i] = d | (u32)(rnd() << 16);		/* the high half ignored */
		n2[i] = (u32)rnd();			/* any 32-bit dividend */
		mp_lset(a, 32, i, nn[i]);
		mp_lset(b, 32, i, dd[i]);
		mp_lset(c, 32, i, n2[i] >> 16);		/* round 1: R = 0 */
	}
	poke_row(IN_ROW, a);
	poke_row(IN_ROW + 1, b);
	poke_row(IN_ROW + 2, c);
	prolog();
	mp_emit(&pg, VL(1, R_BASE, IN_ROW));
	mp_emit(&pg, VL(2, R_BASE, IN_ROW + 1));
	mp_emit(&pg, VL(3, R_BASE, IN_ROW + 2));
	for (k = 0; k < 4; k++)
		mp_emit(&pg, VALU(KH_PV_VDIV4U, KH_PV_W32, 1, 1, 2));
	mp_emit(&pg, VS(1, R_BASE, OUT_ROW));
	for (k = 0; k < 4; k++)
		mp_emit(&pg, VALU(KH_PV_VDIV4U, KH_PV_W32, 3, 3, 2));
	mp_emit(&pg, VS(3, R_BASE, OUT_ROW + 1));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	for (i = 0; i < 16; i++) {
		u32 d = dd[i] & 0xffff, got = (u32)mp_lget(row_at(OUT_ROW), 32, i);

		CHECK_MSG(got == ((nn[i] % d) << 16 | nn[i] / d),
			  "lane %u: %08x / %04x gave %08x", i, nn[i], d, got);
		/* round 1 of the 32-bit quotient: (n >> 16) / d */
		got = (u32)mp_lget(row_at(OUT_ROW + 1), 32, i);
		CHECK_MSG(got == (((n2[i] >> 16) % d) << 16 | (n2[i] >> 16) / d),
			  "lane %u: round 1 of %08x / %04x gave %08x", i, n2[i],
			  d, got);
	}
}

CHECK_TEST_MAIN
