// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL cores' vector coprocessor, custom-3's Engine A and permute
 * crossbar (docs/spec/pool-vector.md "Engine A", "The permute crossbar";
 * seed 002 §3.4, §3.6).  Programs of custom-3 words run on core 0 of a gp
 * unit over rows of DataRAM, in place (vl, the op, vs), and the rows are
 * checked against references written here, independently of the model:
 *
 *   - the tables from their formulas in double precision (libm): the
 *     seed's RECIP_Data8 byte for byte, RSQRT_Data8 as the spec defines it
 *     (and every entry the best byte of its segment), the QLI's
 *     coefficients;
 *   - the seeds from a lane's value (ilogb, ldexp), not its bit fields: every
 *     index class of binary32 and every binary16 there is, subnormals,
 *     specials, random bits; their accuracy over 50k samples, as the seed
 *     measured it;
 *   - vfrecipq against 1/x in double: every significand of one binade
 *     (through the lane function, pool_vec.h), every binade, the specials,
 *     and the instruction against the lane function;
 *   - no FSR flag from any of them, whatever FCR holds;
 *   - each permute in each width against plain lane loops, with the
 *     destination one of the sources, SEL's index vector in vd, DCMPRS
 *     with none, some and all predicate bits, DSEL then DILV round trips.
 *
 * The measured figures (seed bits, QLI ulp) are printed as "#" lines.
 */
#include <math.h>
#include "mpool.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_BASE		10	/* x10: DataRAM */
#define FIRST_ROW	16	/* rows FIRST_ROW .. + MAX_ROWS - 1 of DataRAM */
#define MAX_ROWS	1000	/* a batch: 3 words a row, MP_PROG_MAX 4096 */

#define VL(vd, rs1, row)	KH_PV_ENC_VL(vd, rs1, row)
#define VS(vs, rs1, row)	KH_PV_ENC_VS(vs, rs1, row)
#define VFP(f7, w, d, a, b)	KH_PV_ENC_FP(f7, w, d, a, b)
#define VMOVE(f7, d, a, b)	KH_PV_ENC_MOVE(f7, d, a, b)

static struct mp_card m;
static struct mp_prog pg;
static u64 rng_state = 0x9e3779b97f4a7c15ull;

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

/* x10 DataRAM, the coprocessor enabled */
static void prolog(void)
{
	mp_vec_prolog(&pg, R_BASE);
}

static void poke_row(unsigned int row, const u8 *v)
{
	ksim_pool_poke_dram(m.p, 0, row * 64, v, 64);
}

static const u8 *row_at(unsigned int row)
{
	return m.p->core[0].dram + row * 64;
}

/* ---- lanes of 64-byte little-endian registers ---- */

/*
 * Run custom-3 op f7 on type w over n rows (<= MAX_ROWS) of in: each row
 * loaded, the op on it (into another register, or in place when alias),
 * stored back; out gets the rows.  False if the program did not finish.
 */
static bool run_rows(unsigned int f7, unsigned int w, const u8 *in,
		     unsigned int n, u8 *out, bool alias)
{
	unsigned int r;

	prolog();
	for (r = 0; r < n; r++) {
		poke_row(FIRST_ROW + r, in + 64 * r);
		mp_emit(&pg, VL(1, R_BASE, FIRST_ROW + r));
		mp_emit(&pg, VFP(f7, w, alias ? 1 : 2, 1, 0));
		mp_emit(&pg, VS(alias ? 1 : 2, R_BASE, FIRST_ROW + r));
	}
	mp_halt(&pg);
	if (!mp_exec(&m, &pg) || m.p->halted)
		return false;
	for (r = 0; r < n; r++)
		memcpy(out + 64 * r, row_at(FIRST_ROW + r), 64);
	return true;
}

/* any number of rows, in batches */
static bool run_all(unsigned int f7, unsigned int w, const u8 *in,
		    unsigned int n, u8 *out, bool alias)
{
	unsigned int r, k;

	for (r = 0; r < n; r += k) {
		k = n - r < MAX_ROWS ? n - r : MAX_ROWS;
		if (!run_rows(f7, w, in + 64 * r, k, out + 64 * r, alias))
			return false;
	}
	return true;
}

/* ---- floating point lanes as the host sees them ---- */

static float f32(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static u32 b32(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

static double h2d(u16 h)
{
	unsigned int e = (h >> 10) & 31, f = h & 1023;
	double v;

	if (e == 31)
		v = f ? NAN : INFINITY;
	else if (!e)
		v = ldexp(f, -24);
	else
		v = ldexp(1024 + f, (int)e - 25);
	return h >> 15 ? -v : v;
}

/* a double that binary16 holds exactly (or beyond its range: inf) */
static u16 d2h(double v, bool *exact)
{
	u16 s = signbit(v) ? 0x8000 : 0;
	double a = fabs(v), f;
	int e;

	if (isnan(v))
		return 0x7e00;
	if (a >= 65536.0)
		return s | 0x7c00;
	if (a == 0)
		return s;
	e = ilogb(a);
	if (e < -14) {
		f = a * 0x1p24;
		*exact = *exact && f == floor(f);
		return s | (u16)f;
	}
	f = (ldexp(a, -e) - 1) * 1024;
	*exact = *exact && f == floor(f);
	return s | (u16)((e + 15) << 10) | (u16)f;
}

/* a double that binary32 holds exactly (or beyond its range: inf) */
static u32 d2f(double v, bool *exact)
{
	if (fabs(v) >= 0x1p128)
		return (signbit(v) ? 0x80000000u : 0) | 0x7f800000u;
	*exact = *exact && (double)(float)v == v;
	return b32((float)v);
}

/* ---- the tables, from their formulas (pool-vector.md "Engine A") ---- */

/* the seed's RECIP_Data8 formula */
static double recip_t(unsigned int i)
{
	return round(256.0 / (1.0 + (i + 0.5) / 128.0));
}

/* RSQRT_Data8: m in [2, 4) for an odd unbiased exponent, [1, 2) even */
static double rsqrt_t(unsigned int j, bool odd)
{
	return round(256.0 / sqrt((odd ? 2.0 : 1.0) * (1.0 + (j + 0.5) / 64.0)));
}

/*
 * The seed of a lane's value v (a double: binary32 or binary16 widened),
 * from its exponent and significand as numbers, or NaN for a NaN result.
 */
static double ref_seed(double v, bool rsqrt)
{
	double a = fabs(v), mnt;
	int e;

	if (isnan(v) || (rsqrt && v < 0))
		return NAN;
	if (isinf(v))
		return copysign(0.0, v);
	if (v == 0)
		return copysign(INFINITY, v);
	e = ilogb(a);
	mnt = ldexp(a, -e);			/* [1, 2) */
	if (!rsqrt)
		return copysign(recip_t((unsigned int)((mnt - 1) * 128)) / 256 *
				ldexp(1, -e), v);
	if (e % 2)
		return rsqrt_t((unsigned int)((mnt - 1) * 64), true) / 256 *
		       ldexp(1, -(e - 1) / 2);
	return rsqrt_t((unsigned int)((mnt - 1) * 64), false) / 256 *
	       ldexp(1, -e / 2);
}

static u32 ref_seed32(u32 x, bool rsqrt, bool *exact)
{
	double r = ref_seed(f32(x), rsqrt);

	return isnan(r) ? 0x7fc00000u : d2f(r, exact);
}

static u16 ref_seed16(u16 x, bool rsqrt, bool *exact)
{
	return d2h(ref_seed(h2d(x), rsqrt), exact);
}

TEST_F(model, recip_data8_is_the_seeds_formula_byte_for_byte)
{
	unsigned int i;

	for (i = 0; i < 128; i++)
		CHECK_MSG(ksim_pool_recip_data8[i] == recip_t(i),
			  "RECIP_Data8[%u] = %#x, want %#x", i,
			  ksim_pool_recip_data8[i], (unsigned int)recip_t(i));
	/* monotone from 0xff; the formula ends at 0x80 (the prose says 0x81) */
	CHECK_EQ(ksim_pool_recip_data8[0], 0xff);
	CHECK_EQ(ksim_pool_recip_data8[127], 0x80);
	for (i = 1; i < 128; i++)
		CHECK(ksim_pool_recip_data8[i] <= ksim_pool_recip_data8[i - 1]);
}

/* the largest relative error of t/256 as 1/sqrt(x) over x in [lo, hi] */
static double seg_err(double t, double lo, double hi)
{
	return fmax(fabs(t / 256 * sqrt(lo) - 1), fabs(t / 256 * sqrt(hi) - 1));
}

TEST_F(model, rsqrt_data8_odd_half_first_each_entry_its_segments_best)
{
	unsigned int j, half, t, best;

	for (half = 0; half < 2; half++)
		for (j = 0; j < 64; j++) {
			bool odd = half == 0;
			double s = odd ? 2 : 1;
			double lo = s * (1 + j / 64.0), hi = s * (1 + (j + 1) / 64.0);
			unsigned int got = ksim_pool_rsqrt_data8[64 * half + j];

			CHECK_MSG(got == rsqrt_t(j, odd),
				  "RSQRT_Data8[%u] = %#x, want %#x",
				  64 * half + j, got, (unsigned int)rsqrt_t(j, odd));
			CHECK(got & 0x80);
			/* no other byte does better over the whole segment */
			for (best = 128, t = 129; t < 256; t++)
				if (seg_err(t, lo, hi) < seg_err(best, lo, hi))
					best = t;
			CHECK_MSG(seg_err(got, lo, hi) <= seg_err(best, lo, hi),
				  "RSQRT_Data8[%u] = %#x, %#x is better",
				  64 * half + j, got, best);
		}
	CHECK_EQ(ksim_pool_rsqrt_data8[0], 0xb4);
	CHECK_EQ(ksim_pool_rsqrt_data8[64], 0xff);
}

TEST_F(model, qli_coefficients_from_their_formulas)
{
	unsigned int s;

	for (s = 0; s < 64; s++) {
		double c = 1 + (s + 0.5) / 64, h2 = 0.75 / 16384;
		double q = c * c - h2;

		CHECK_MSG(ksim_pool_qli_lut1[s] == (u32)llround(0x1p32 / c),
			  "lut1[%u]", s);
		CHECK_MSG(ksim_pool_qli_lut2[s][0] == (u32)llround(0x1p32 / q),
			  "lut2[%u] G", s);
		CHECK_MSG(ksim_pool_qli_lut2[s][1] ==
			  (u32)llround(0x1p32 / (c * q)), "lut2[%u] C", s);
	}
}

/* the specials every Engine A op sees, binary32 */
static const u32 specials32[16] = {
	0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
	0x7fc00000u, 0x7f800001u, 0xffc12345u, 0x00000001u,
	0x807fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u,
	0xbf800000u, 0x40000000u, 0x3f000000u, 0x00400000u,
};

/*
 * Binary32 inputs, rows of 16: every index class (the top 7 fraction bits)
 * at binades that exercise the exponent's edges, both parities, random
 * low bits and signs; subnormals of every length; the specials; random bits.
 */
#define SEED_ROWS	(64 + 16 + 1 + 64)

static void seed_inputs32(u8 *in)
{
	static const u32 be[8] = { 1, 2, 100, 126, 127, 128, 253, 254 };
	unsigned int c, k, n = 0;

	for (k = 0; k < 8; k++)
		for (c = 0; c < 128; c++)
			mp_lset(in, 32, n++, (rnd() & 1) << 31 | be[k] << 23 |
				c << 16 | (rnd() & 0xffff));
	for (k = 0; k < 256; k++)
		mp_lset(in, 32, n++, (rnd() & 1) << 31 |
			((u32)(rnd() & 0x7fffff) >> (k % 23) | 1));
	for (k = 0; k < 16; k++)
		mp_lset(in, 32, n++, specials32[k]);
	for (k = 0; k < 1024; k++)
		mp_lset(in, 32, n++, (u32)rnd());
}

TEST_F(model, seeds_binary32_every_index_class_subnormals_specials)
{
	static u8 in[SEED_ROWS * 64], out[SEED_ROWS * 64];
	unsigned int op, i, bad = 0;

	REQUIRE(open_card());
	seed_inputs32(in);
	for (op = 0; op < 2; op++) {
		bool rs = op == 1;

		REQUIRE(run_all(rs ? KH_PV_FRSQRT0 : KH_PV_FRECIP0, KH_PV_WF32,
				in, SEED_ROWS, out, op == 1));
		for (i = 0; i < SEED_ROWS * 16; i++) {
			u32 x = (u32)mp_lget(in, 32, i), g = (u32)mp_lget(out, 32, i);
			bool exact = true;
			u32 want = ref_seed32(x, rs, &exact);

			CHECK_MSG(exact, "%08x: a seed binary32 cannot hold", x);
			if (g != want && bad++ < 8)
				CHECK_MSG(0, "%s %08x -> %08x, want %08x",
					  rs ? "vfrsqrt0.s" : "vfrecip0.s", x,
					  g, want);
		}
	}
	CHECK_EQ(bad, 0);
}

TEST_F(model, seeds_binary32_edges_spelled_out)
{
	static const struct {
		u32 x, recip, rsqrt;
	} t[] = {
		/* 1/1 = 0xff/128 x 2^-1; 1/sqrt(1) from the even half */
		{ 0x3f800000u, 0x3f7f0000u, 0x3f7f0000u },
		/* 1/2; 1/sqrt(2) from the odd half's first entry 0xb4 */
		{ 0x40000000u, 0x3eff0000u, 0x3f340000u },
		/* 0.5: e = -1, odd: -floor(-1/2) - 1 = 0, 0xb4/128 */
		{ 0x3f000000u, 0x3fff0000u, 0x3fb40000u },
		/* the last class: RECIP_Data8[127] = 0x80, the significand 1.0 */
		{ 0x3fffffffu, 0x3f000000u, 0x3f350000u },
		/* 2^127, 2^126: 1/x below the normal range, exact subnormals */
		{ 0x7f000000u, 0x003fc000u, 0x1fb40000u },
		{ 0x7e800000u, 0x007f8000u, 0x1fff0000u },
		/* the largest subnormal, normalised: 2^-127 x 1.11..1 */
		{ 0x007fffffu, 0x7e800000u, 0x5f000000u },
		/* 2^-128: 1/x = 0xff/128 x 2^127; 2^-129: beyond, inf */
		{ 0x00200000u, 0x7f7f0000u, 0x5f7f0000u },
		{ 0x00100000u, 0x7f800000u, 0x5fb40000u },
		/* the specials */
		{ 0x00000000u, 0x7f800000u, 0x7f800000u },
		{ 0x80000000u, 0xff800000u, 0xff800000u },
		{ 0x7f800000u, 0x00000000u, 0x00000000u },
		{ 0xff800000u, 0x80000000u, 0x7fc00000u },
		{ 0x7f800001u, 0x7fc00000u, 0x7fc00000u },
		{ 0xffc12345u, 0x7fc00000u, 0x7fc00000u },
		{ 0xbf800000u, 0xbf7f0000u, 0x7fc00000u },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		bool ex = true;

		CHECK_MSG(ksim_pool_vec_seed32(t[i].x, false) == t[i].recip,
			  "recip0 %08x: %08x, want %08x", t[i].x,
			  ksim_pool_vec_seed32(t[i].x, false), t[i].recip);
		CHECK_MSG(ksim_pool_vec_seed32(t[i].x, true) == t[i].rsqrt,
			  "rsqrt0 %08x: %08x, want %08x", t[i].x,
			  ksim_pool_vec_seed32(t[i].x, true), t[i].rsqrt);
		/* and the literals agree with the reference */
		CHECK(ref_seed32(t[i].x, false, &ex) == t[i].recip);
		CHECK(ref_seed32(t[i].x, true, &ex) == t[i].rsqrt);
	}
}

TEST_F(model, seeds_binary16_every_input)
{
	static u8 in[2048 * 64], out[2048 * 64];
	unsigned int op, i, bad = 0;

	REQUIRE(open_card());
	for (i = 0; i < 65536; i++)
		mp_lset(in, 16, i, i);
	for (op = 0; op < 2; op++) {
		bool rs = op == 1;

		REQUIRE(run_all(rs ? KH_PV_FRSQRT0 : KH_PV_FRECIP0, KH_PV_WF16,
				in, 2048, out, op == 0));
		for (i = 0; i < 65536; i++) {
			u16 g = (u16)mp_lget(out, 16, i);
			bool exact = true;
			u16 want = ref_seed16((u16)i, rs, &exact);

			CHECK_MSG(exact, "%04x: a seed binary16 cannot hold", i);
			if (g != want && bad++ < 8)
				CHECK_MSG(0, "%s %04x -> %04x, want %04x",
					  rs ? "vfrsqrt0.h" : "vfrecip0.h", i,
					  g, want);
		}
	}
	CHECK_EQ(bad, 0);
	/* the edges: 1/1, 1/sqrt(2), 1/65504 below normal, 1/2^-17 = inf */
	CHECK_EQ(ksim_pool_vec_seed16(0x3c00, false), 0x3bf8);
	CHECK_EQ(ksim_pool_vec_seed16(0x4000, true), 0x39a0);
	CHECK_EQ(ksim_pool_vec_seed16(0x7bff, false), 0x0100);
	CHECK_EQ(ksim_pool_vec_seed16(0x0080, false), 0x7c00);
	CHECK_EQ(ksim_pool_vec_seed16(0x0100, false), 0x7bf8);
	CHECK_EQ(ksim_pool_vec_seed16(0x8000, true), 0xfc00);
	CHECK_EQ(ksim_pool_vec_seed16(0xfc00, false), 0x8000);
	CHECK_EQ(ksim_pool_vec_seed16(0x7d00, true), 0x7e00);
}

/*
 * The seed's own measure (§3.4: "recip 7.0 bits, rsqrt 7.5 bits, 50k-sample
 * sweep"), over 50 000 random binary32 normals through the instruction, as
 * two figures: bits = -log2 of the largest relative error, and bits = 24 -
 * log2 of the largest error in binary32 ulps of the exact result (the
 * error against the result's binade).
 */
#define SWEEP_ROWS	3125	/* 50 000 lanes */

TEST_F(model, seed_accuracy_over_a_50k_sample_sweep)
{
	static u8 in[SWEEP_ROWS * 64], out[SWEEP_ROWS * 64];
	unsigned int op, i;

	REQUIRE(open_card());
	for (i = 0; i < SWEEP_ROWS * 16; i++)
		mp_lset(in, 32, i, (u32)(1 + rnd() % 253) << 23 |
			(u32)(rnd() & 0x7fffff));
	for (op = 0; op < 2; op++) {
		bool rs = op == 1;
		double rel = 0, bin = 0, brel, bbin;

		REQUIRE(run_all(rs ? KH_PV_FRSQRT0 : KH_PV_FRECIP0, KH_PV_WF32,
				in, SWEEP_ROWS, out, false));
		for (i = 0; i < SWEEP_ROWS * 16; i++) {
			double x = f32((u32)mp_lget(in, 32, i));
			double y = f32((u32)mp_lget(out, 32, i));
			double r = rs ? 1 / sqrt(x) : 1 / x;

			rel = fmax(rel, fabs(y / r - 1));
			bin = fmax(bin, fabs(y - r) / ldexp(1, ilogb(r) + 1));
		}
		brel = -log2(rel);
		bbin = -log2(bin);
		ksft_print_msg("%s seed, 50k samples: %.2f bits (relative), %.2f bits (24 - log2 ulp)\n",
			       rs ? "rsqrt" : "recip", brel, bbin);
		/* the seed's figures; relative, 7.31 is all 8 bits can give */
		CHECK(brel >= (rs ? 7.3 : 7.0));
		CHECK(bbin >= (rs ? 7.5 : 7.0));
	}
}

/* the ulp of binary32 at r (r finite, nonzero): subnormal spacing below */
static double ulp32(double r)
{
	int e = ilogb(fabs(r));

	return ldexp(1, (e < -126 ? -126 : e) - 23);
}

TEST_F(model, recipq_every_significand_of_a_binade)
{
	unsigned int f, far = 0, dist[3] = { 0, 0, 0 };
	double worst = 0;
	u32 wf = 0;

	for (f = 0; f < (1u << 23); f++) {
		u32 x = 0x3f800000u | f, y = ksim_pool_vec_recipq32(x);
		double r = 1.0 / f32(x), u = fabs(f32(y) - r) / ulp32(r);
		/* 1/x is never a binary32 midpoint: this is correctly rounded */
		u32 cr = b32((float)r), d = y > cr ? y - cr : cr - y;

		if (u > worst) {
			worst = u;
			wf = f;
		}
		if (d < 3)
			dist[d]++;
		else
			far++;
	}
	ksft_print_msg("vfrecipq.s over [1, 2): max %.4f ulp (at 1 + %#x / 2^23); %u correctly rounded, %u 1 ulp off, %u 2 ulp off, %u further\n",
		       worst, wf, dist[0], dist[1], dist[2], far);
	CHECK(worst < 2.45);
	CHECK_EQ(far, 0);
	/* the power of two is exact */
	CHECK_EQ(ksim_pool_vec_recipq32(0x3f800000u), 0x3f800000u);
}

TEST_F(model, recipq_every_binade_subnormals_and_specials)
{
	unsigned int e, k, bad = 0;
	double worst = 0;

	/* every biased exponent, random significands, both signs */
	for (e = 1; e < 255; e++)
		for (k = 0; k < 2048; k++) {
			u32 x = (u32)(rnd() & 1) << 31 | e << 23 |
				(u32)(rnd() & 0x7fffff);
			u32 y = ksim_pool_vec_recipq32(x);
			double r = 1.0 / f32(x), u;

			if (e == 254 && !(x & 0x7fffff))
				continue;	/* 2^127: below, exact */
			u = fabs(f32(y) - r) / ulp32(r);
			worst = fmax(worst, u);
			if (!(u < 2.45) && bad++ < 6)
				CHECK_MSG(0, "recipq %08x -> %08x: %.3f ulp",
					  x, y, u);
		}
	/* subnormal inputs: normalised; 1/x beyond 2^128 is inf */
	for (k = 0; k < 20000; k++) {
		u32 x = (u32)(rnd() & 0x7fffff) >> (rnd() % 23) | 1;
		u32 y = ksim_pool_vec_recipq32(x);
		double r = 1.0 / f32(x);

		if (r >= 0x1p128) {
			if (y != 0x7f800000u && bad++ < 6)
				CHECK_MSG(0, "recipq %08x -> %08x, want inf", x, y);
			continue;
		}
		worst = fmax(worst, fabs(f32(y) - r) / ulp32(r));
		if (!(fabs(f32(y) - r) / ulp32(r) < 2.45) && bad++ < 6)
			CHECK_MSG(0, "recipq %08x -> %08x", x, y);
	}
	CHECK_EQ(bad, 0);
	ksft_print_msg("vfrecipq.s over every binade: max %.4f ulp\n", worst);
	/* powers of two: exact wherever 1/x is a binary32 */
	for (e = 0; e < 277; e++) {
		double x = ldexp(1, (int)e - 149), r = 1 / x;
		u32 want = r >= 0x1p128 ? 0x7f800000u : b32((float)r);

		CHECK_MSG(ksim_pool_vec_recipq32(b32((float)x)) == want,
			  "recipq 2^%d", (int)e - 149);
		CHECK(ksim_pool_vec_recipq32(b32((float)-x)) ==
		      (want | 0x80000000u));
	}
	/* the specials, vfrecip0's */
	CHECK_EQ(ksim_pool_vec_recipq32(0x00000000u), 0x7f800000u);
	CHECK_EQ(ksim_pool_vec_recipq32(0x80000000u), 0xff800000u);
	CHECK_EQ(ksim_pool_vec_recipq32(0x7f800000u), 0x00000000u);
	CHECK_EQ(ksim_pool_vec_recipq32(0xff800000u), 0x80000000u);
	CHECK_EQ(ksim_pool_vec_recipq32(0x7f800001u), 0x7fc00000u);
	CHECK_EQ(ksim_pool_vec_recipq32(0xffffffffu), 0x7fc00000u);
	/* 1/max: a rounded subnormal */
	CHECK_EQ(ksim_pool_vec_recipq32(0x7f7fffffu), b32(1.0f / f32(0x7f7fffffu)));
}

#define RQ_ROWS	900

TEST_F(model, recipq_instruction_is_the_lane_function)
{
	static u8 in[RQ_ROWS * 64], out[RQ_ROWS * 64];
	unsigned int i, k, bad = 0;

	REQUIRE(open_card());
	for (i = 0; i < RQ_ROWS * 16; i++)
		mp_lset(in, 32, i, i < 16 ? specials32[i] : (u32)rnd());
	for (k = 0; k < 2; k++) {
		REQUIRE(run_all(KH_PV_FRECIPQ, KH_PV_WF32, in, RQ_ROWS, out,
				k == 1));
		for (i = 0; i < RQ_ROWS * 16; i++) {
			u32 x = (u32)mp_lget(in, 32, i), g = (u32)mp_lget(out, 32, i);

			if (g != ksim_pool_vec_recipq32(x) && bad++ < 6)
				CHECK_MSG(0, "vfrecipq.s lane %u: %08x -> %08x",
					  i, x, g);
		}
	}
	CHECK_EQ(bad, 0);
}

TEST_F(model, engine_a_raises_no_flag_under_any_round_mode)
{
	static const unsigned int ops[][2] = {
		{ KH_PV_FRECIP0, KH_PV_WF32 }, { KH_PV_FRSQRT0, KH_PV_WF32 },
		{ KH_PV_FRECIP0, KH_PV_WF16 }, { KH_PV_FRSQRT0, KH_PV_WF16 },
		{ KH_PV_FRECIPQ, KH_PV_WF32 },
	};
	u8 in[64], want[5][64];
	unsigned int rm, i, k;

	REQUIRE(open_card());
	/* specials, subnormals, negatives: every lane a would-be flag */
	for (i = 0; i < 16; i++)
		mp_lset(in, 32, i, specials32[i] ^ (i & 8 ? 0x80000000u : 0));
	for (rm = 0; rm < 4; rm++) {
		prolog();
		poke_row(FIRST_ROW, in);
		mp_li(&pg, 5, rm << KH_PV_FCR_RM_SHIFT |
			KH_PV_FX_ALL << KH_PV_FCR_EN_SHIFT);
		mp_emit(&pg, VMOVE(KH_PV_VWFCR, 0, 5, 0));
		mp_emit(&pg, VL(1, R_BASE, FIRST_ROW));
		for (k = 0; k < 5; k++) {
			mp_emit(&pg, VFP(ops[k][0], ops[k][1], 2, 1, 0));
			mp_emit(&pg, VS(2, R_BASE, FIRST_ROW + 1 + k));
		}
		mp_emit(&pg, VMOVE(KH_PV_VRFSR, 6, 0, 0));
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		REQUIRE(m.p->halted == 0);
		CHECK_MSG(m.p->core[0].x[6] == 0, "rm %u: FSR %08x", rm,
			  m.p->core[0].x[6]);
		CHECK_EQ(m.p->core[0].vec.fsr, 0);
		for (k = 0; k < 5; k++) {
			if (!rm)
				memcpy(want[k], row_at(FIRST_ROW + 1 + k), 64);
			CHECK_MSG(!memcmp(row_at(FIRST_ROW + 1 + k), want[k], 64),
				  "op %u differs under round mode %u", k, rm);
		}
	}
}

/* ---- the permute crossbar ---- */

/* the reference of one permute: a, b, d the sources (d: vd before) */
static void ref_perm(unsigned int f7, unsigned int bits, const u8 *a,
		     const u8 *b, const u8 *d, u64 pred, u8 *o0, u8 *o1)
{
	unsigned int n = 512 / bits, i, j;
	u64 cat[128];

	for (i = 0; i < n; i++) {
		cat[i] = mp_lget(a, bits, i);
		cat[n + i] = mp_lget(b, bits, i);
	}
	memset(o0, 0, 64);
	memset(o1, 0, 64);
	switch (f7) {
	case KH_PV_PSEL:
		for (i = 0; i < n; i++)
			mp_lset(o0, bits, i, cat[mp_lget(d, bits, i) % (2 * n)]);
		break;
	case KH_PV_PSHFL:
		for (i = 0; i < n; i++)
			mp_lset(o0, bits, i, mp_lget(a, bits, mp_lget(b, bits, i) % n));
		break;
	case KH_PV_PDSEL:
		for (i = 0; i < n; i++) {
			mp_lset(o0, bits, i, cat[2 * i]);
			mp_lset(o1, bits, i, cat[2 * i + 1]);
		}
		break;
	case KH_PV_PDILV:
		for (i = 0; i < n; i++) {
			u8 *hi = 2 * i < n ? o0 : o1;

			mp_lset(hi, bits, (2 * i) % n, mp_lget(a, bits, i));
			mp_lset(hi, bits, (2 * i + 1) % n, mp_lget(b, bits, i));
		}
		break;
	default:
		for (i = 0, j = 0; i < n; i++)
			if ((pred >> i) & 1)
				mp_lset(o0, bits, j++, mp_lget(a, bits, i));
		break;
	}
}

/* index lanes: small in-range ones, and large ones the mod must fold */
static void index_vec(u8 *v, unsigned int bits)
{
	unsigned int i;

	for (i = 0; i < 512 / bits; i++)
		mp_lset(v, bits, i, rnd() % 4 ? rnd() % (1024 / bits) :
			rnd() & ((1ull << bits) - 1));
}

static void rand_vec(u8 *v)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		v[i] = (u8)rnd();
}

#define NCASE	9

/*
 * One program per width: for each case the sources are loaded to v1 (va),
 * v2 (vb), v3 (vd, SEL's index), the op runs, v3 and v4 are stored.
 * Cases: 0 SEL, 1 SHFL, 2 DSEL, 3 DILV, 4..8 DCMPRS with b5 = 0, all ones,
 * random, random and a lone lane N-1, only bits at and above N.
 */
TEST_F(model, permutes_every_width_against_a_reference)
{
	static const unsigned int f7s[NCASE] = {
		KH_PV_PSEL, KH_PV_PSHFL, KH_PV_PDSEL, KH_PV_PDILV,
		KH_PV_PCMPRS + 5, KH_PV_PCMPRS + 5, KH_PV_PCMPRS + 5,
		KH_PV_PCMPRS + 5, KH_PV_PCMPRS + 5,
	};
	u8 a[NCASE][64], b[NCASE][64], d[NCASE][64], w0[64], w1[64];
	u64 pred[NCASE];
	unsigned int w, c, rep;

	REQUIRE(open_card());
	for (rep = 0; rep < 4; rep++)
		for (w = KH_PV_W8; w <= KH_PV_W32; w++) {
			unsigned int bits = KH_PV_LANE_BITS(w), n = 512 / bits;
			u64 all = n == 64 ? ~0ull : (1ull << n) - 1;

			prolog();
			for (c = 0; c < NCASE; c++) {
				unsigned int row = FIRST_ROW + 5 * c;

				rand_vec(a[c]);
				rand_vec(b[c]);
				rand_vec(d[c]);
				if (c == 0)
					index_vec(d[c], bits);
				if (c == 1)
					index_vec(b[c], bits);
				pred[c] = c == 4 ? 0 : c == 5 ? ~0ull :
					  c == 6 ? rnd() :
					  c == 7 ? (rnd() & all >> 1) | 1ull << (n - 1) :
					  ~all;
				poke_row(row, a[c]);
				poke_row(row + 1, b[c]);
				poke_row(row + 2, d[c]);
				mp_li(&pg, 6, (u32)pred[c]);
				mp_li(&pg, 7, (u32)(pred[c] >> 32));
				mp_emit(&pg, VMOVE(KH_PV_VMVXB, 5, 6, 7));
				mp_emit(&pg, VL(1, R_BASE, row));
				mp_emit(&pg, VL(2, R_BASE, row + 1));
				mp_emit(&pg, VL(3, R_BASE, row + 2));
				mp_emit(&pg, VL(4, R_BASE, row + 2));
				/* DCMPRS: one vector source, rs2 reserved */
				mp_emit(&pg, VFP(f7s[c], w, 3, 1,
						 c < 4 ? 2 : 0));
				mp_emit(&pg, VS(3, R_BASE, row + 3));
				mp_emit(&pg, VS(4, R_BASE, row + 4));
			}
			mp_halt(&pg);
			REQUIRE(mp_exec(&m, &pg));
			REQUIRE(m.p->halted == 0);
			for (c = 0; c < NCASE; c++) {
				unsigned int row = FIRST_ROW + 5 * c;
				bool two = f7s[c] == KH_PV_PDSEL ||
					   f7s[c] == KH_PV_PDILV;

				ref_perm(f7s[c], bits, a[c], b[c], d[c],
					 pred[c], w0, w1);
				CHECK_MSG(!memcmp(row_at(row + 3), w0, 64),
					  "w%u case %u: v[rd]", bits, c);
				/* v[rd + 1]: the second output, or untouched */
				CHECK_MSG(!memcmp(row_at(row + 4), two ? w1 : d[c], 64),
					  "w%u case %u: v[rd + 1]", bits, c);
			}
		}
}

/*
 * The destination one of the sources: every op with vd = va, SHFL with vd
 * = vb, SEL with va = vb = vd (its own index vector), DSEL/DILV with
 * v[rd] = va and v[rd + 1] = vb; then DSEL and DILV undo each other.
 */
TEST_F(model, permutes_with_aliased_registers_and_round_trips)
{
	u8 a[64], b[64], d[64], w0[64], w1[64], t0[64], t1[64];
	unsigned int w;
	u64 pred = rnd();

	REQUIRE(open_card());
	for (w = KH_PV_W8; w <= KH_PV_W32; w++) {
		unsigned int bits = KH_PV_LANE_BITS(w);

		rand_vec(a);
		index_vec(b, bits);
		index_vec(d, bits);
		prolog();
		poke_row(FIRST_ROW, a);
		poke_row(FIRST_ROW + 1, b);
		poke_row(FIRST_ROW + 2, d);
		mp_li(&pg, 6, (u32)pred);
		mp_li(&pg, 7, (u32)(pred >> 32));
		mp_emit(&pg, VMOVE(KH_PV_VMVXB, 15, 6, 7));
#define LOAD3	do {							\
			mp_emit(&pg, VL(1, R_BASE, FIRST_ROW));		\
			mp_emit(&pg, VL(2, R_BASE, FIRST_ROW + 1));	\
			mp_emit(&pg, VL(3, R_BASE, FIRST_ROW + 2));	\
		} while (0)
		/* 0: vpsel v1, v1, v2 (index = va) */
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PSEL, w, 1, 1, 2));
		mp_emit(&pg, VS(1, R_BASE, FIRST_ROW + 10));
		/* 1: vpsel v3, v3, v3 */
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PSEL, w, 3, 3, 3));
		mp_emit(&pg, VS(3, R_BASE, FIRST_ROW + 11));
		/* 2: vpshfl v1, v1, v2; 3: vpshfl v2, v1, v2 */
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PSHFL, w, 1, 1, 2));
		mp_emit(&pg, VS(1, R_BASE, FIRST_ROW + 12));
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PSHFL, w, 2, 1, 2));
		mp_emit(&pg, VS(2, R_BASE, FIRST_ROW + 13));
		/* 4: vpcmprs v1, v1, b15 */
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PCMPRS + 15, w, 1, 1, 0));
		mp_emit(&pg, VS(1, R_BASE, FIRST_ROW + 14));
		/* 5, 6: vpdsel v1, v1, v2; 7, 8: then vpdilv v1, v1, v2 */
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PDSEL, w, 1, 1, 2));
		mp_emit(&pg, VS(1, R_BASE, FIRST_ROW + 15));
		mp_emit(&pg, VS(2, R_BASE, FIRST_ROW + 16));
		mp_emit(&pg, VFP(KH_PV_PDILV, w, 1, 1, 2));
		mp_emit(&pg, VS(1, R_BASE, FIRST_ROW + 17));
		mp_emit(&pg, VS(2, R_BASE, FIRST_ROW + 18));
		/* 9, 10: vpdilv v2, v1, v2 (v[rd] = vb, v[rd+1] = v3); undone
		 * by vpdsel v1, v2, v3 */
		LOAD3;
		mp_emit(&pg, VFP(KH_PV_PDILV, w, 2, 1, 2));
		mp_emit(&pg, VS(2, R_BASE, FIRST_ROW + 19));
		mp_emit(&pg, VS(3, R_BASE, FIRST_ROW + 20));
		mp_emit(&pg, VFP(KH_PV_PDSEL, w, 1, 2, 3));
		mp_emit(&pg, VS(1, R_BASE, FIRST_ROW + 21));
		mp_emit(&pg, VS(2, R_BASE, FIRST_ROW + 22));
#undef LOAD3
		mp_halt(&pg);
		REQUIRE(mp_exec(&m, &pg));
		REQUIRE(m.p->halted == 0);

		ref_perm(KH_PV_PSEL, bits, a, b, a, 0, w0, w1);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 10), w0, 64), "w%u sel vd=va", bits);
		ref_perm(KH_PV_PSEL, bits, d, d, d, 0, w0, w1);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 11), w0, 64), "w%u sel all v3", bits);
		ref_perm(KH_PV_PSHFL, bits, a, b, NULL, 0, w0, w1);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 12), w0, 64), "w%u shfl vd=va", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 13), w0, 64), "w%u shfl vd=vb", bits);
		ref_perm(KH_PV_PCMPRS, bits, a, b, NULL, pred, w0, w1);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 14), w0, 64), "w%u cmprs vd=va", bits);
		ref_perm(KH_PV_PDSEL, bits, a, b, NULL, 0, w0, w1);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 15), w0, 64), "w%u dsel even", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 16), w1, 64), "w%u dsel odd", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 17), a, 64), "w%u dilv undoes dsel (va)", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 18), b, 64), "w%u dilv undoes dsel (vb)", bits);
		ref_perm(KH_PV_PDILV, bits, a, b, NULL, 0, t0, t1);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 19), t0, 64), "w%u dilv low", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 20), t1, 64), "w%u dilv high", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 21), a, 64), "w%u dsel undoes dilv (va)", bits);
		CHECK_MSG(!memcmp(row_at(FIRST_ROW + 22), b, 64), "w%u dsel undoes dilv (vb)", bits);
	}
}

/* SEL and SHFL spelled out: the lane reversal and the swap of halves */
TEST_F(model, permutes_spelled_out)
{
	u8 a[64], b[64], idx[64];
	unsigned int i;

	REQUIRE(open_card());
	for (i = 0; i < 64; i++) {
		a[i] = (u8)i;
		b[i] = (u8)(0x80 | i);
		idx[i] = (u8)(127 - 2 * i);	/* wraps: mod 128 */
	}
	prolog();
	poke_row(FIRST_ROW, a);
	poke_row(FIRST_ROW + 1, b);
	poke_row(FIRST_ROW + 2, idx);
	mp_emit(&pg, VL(1, R_BASE, FIRST_ROW));
	mp_emit(&pg, VL(2, R_BASE, FIRST_ROW + 1));
	mp_emit(&pg, VL(3, R_BASE, FIRST_ROW + 2));
	mp_emit(&pg, VFP(KH_PV_PSEL, KH_PV_W8, 3, 1, 2));
	mp_emit(&pg, VS(3, R_BASE, FIRST_ROW + 3));
	/* 8-bit lane indices 0..63 reversed, read as 32-bit lanes: mod 16 */
	mp_emit(&pg, VL(3, R_BASE, FIRST_ROW + 2));
	mp_emit(&pg, VFP(KH_PV_PSHFL, KH_PV_W32, 4, 1, 3));
	mp_emit(&pg, VS(4, R_BASE, FIRST_ROW + 4));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	REQUIRE(m.p->halted == 0);
	for (i = 0; i < 64; i++) {
		unsigned int j = (127 - 2 * i) & 127;

		CHECK_MSG(row_at(FIRST_ROW + 3)[i] == (j < 64 ? j : 0x80 | (j - 64)),
			  "vpsel.8 lane %u", i);
	}
	for (i = 0; i < 16; i++) {
		u32 l = (u32)mp_lget(idx, 32, i);

		CHECK_MSG(mp_lget(row_at(FIRST_ROW + 4), 32, i) ==
			  mp_lget(a, 32, l % 16), "vpshfl.32 lane %u", i);
	}
}

CHECK_TEST_MAIN
