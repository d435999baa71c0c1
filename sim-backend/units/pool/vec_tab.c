// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Engine A, the in-core seed tables (docs/spec/pool-vector.md "Engine A";
 * seed 002 §3.4): vfrecip0 and vfrsqrt0 look a lane's reciprocal or
 * reciprocal square root up in one of two baked 128 x 8-bit tables, for
 * binary32 and binary16 lanes alike (a ~2^-7 Newton seed), and vfrecipq
 * takes a binary32 reciprocal to within 2.5 ulp by quadratic interpolation
 * over 64 segments of the significand (the QLI refine).
 *
 * The model is a kernel module too, so all of it is integer arithmetic:
 * the tables are literals, generated once from the exact rational formula
 * given with each (in integer arithmetic), and the test recomputes every
 * byte and word of them in double precision.  Nothing here raises an FSR
 * flag: Engine A rides the 'N' path (seed 002 §3.4).
 */
#include "pool.h"

/*
 * RECIP_Data8[i] = round(256 / (1 + (i + 0.5) / 128)) = round(65536 / (257 +
 * 2i)), the seed's formula, for the significands 1 + i/128 .. 1 + (i+1)/128:
 * 0xff down to 0x80 (the seed's prose says 0x81 for the last; its formula
 * gives 128.25, and the formula is followed).  No entry is a tie.
 */
const u8 ksim_pool_recip_data8[128] = {
	0xff, 0xfd, 0xfb, 0xf9, 0xf7, 0xf5, 0xf4, 0xf2,
	0xf0, 0xee, 0xed, 0xeb, 0xe9, 0xe8, 0xe6, 0xe4,
	0xe3, 0xe1, 0xe0, 0xde, 0xdd, 0xdb, 0xda, 0xd8,
	0xd7, 0xd5, 0xd4, 0xd3, 0xd1, 0xd0, 0xcf, 0xcd,
	0xcc, 0xcb, 0xca, 0xc8, 0xc7, 0xc6, 0xc5, 0xc4,
	0xc2, 0xc1, 0xc0, 0xbf, 0xbe, 0xbd, 0xbc, 0xbb,
	0xba, 0xb9, 0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3,
	0xb2, 0xb1, 0xb0, 0xaf, 0xae, 0xad, 0xac, 0xab,
	0xaa, 0xa9, 0xa8, 0xa8, 0xa7, 0xa6, 0xa5, 0xa4,
	0xa3, 0xa3, 0xa2, 0xa1, 0xa0, 0x9f, 0x9f, 0x9e,
	0x9d, 0x9c, 0x9c, 0x9b, 0x9a, 0x99, 0x99, 0x98,
	0x97, 0x97, 0x96, 0x95, 0x95, 0x94, 0x93, 0x93,
	0x92, 0x91, 0x91, 0x90, 0x8f, 0x8f, 0x8e, 0x8e,
	0x8d, 0x8c, 0x8c, 0x8b, 0x8b, 0x8a, 0x89, 0x89,
	0x88, 0x88, 0x87, 0x87, 0x86, 0x85, 0x85, 0x84,
	0x84, 0x83, 0x83, 0x82, 0x82, 0x81, 0x81, 0x80,
};

/*
 * RSQRT_Data8 [INFERRED]: two 64-entry halves by the parity of the unbiased
 * exponent e of x = 1.f x 2^e, each indexed by the top 6 bits of f, the
 * entry round(256 / sqrt(m)) at the segment's midpoint m:
 *
 *   [0..63]    e odd,  m = 2 (1 + (j + 0.5) / 64) in [2, 4): 0xb4 .. 0x80
 *   [64..127]  e even, m =    1 + (j + 0.5) / 64  in [1, 2): 0xff .. 0xb5
 *
 * (round(sqrt(2^22 / (129 + 2j))) and round(sqrt(2^23 / (129 + 2j)))).
 * Odd first: both biases are odd, so an odd e is an even biased exponent,
 * and the index is then the encoding's exponent LSB and top six fraction
 * bits as they stand, bits [23:17] of a binary32, [10:4] of a binary16.
 */
const u8 ksim_pool_rsqrt_data8[128] = {
	/* e odd, m in [2, 4) */
	0xb4, 0xb3, 0xb2, 0xb0, 0xaf, 0xae, 0xac, 0xab,
	0xaa, 0xa9, 0xa8, 0xa7, 0xa6, 0xa4, 0xa3, 0xa2,
	0xa1, 0xa0, 0x9f, 0x9e, 0x9e, 0x9d, 0x9c, 0x9b,
	0x9a, 0x99, 0x98, 0x97, 0x97, 0x96, 0x95, 0x94,
	0x93, 0x93, 0x92, 0x91, 0x90, 0x90, 0x8f, 0x8e,
	0x8e, 0x8d, 0x8c, 0x8c, 0x8b, 0x8a, 0x8a, 0x89,
	0x89, 0x88, 0x87, 0x87, 0x86, 0x86, 0x85, 0x84,
	0x84, 0x83, 0x83, 0x82, 0x82, 0x81, 0x81, 0x80,
	/* e even, m in [1, 2) */
	0xff, 0xfd, 0xfb, 0xf9, 0xf7, 0xf6, 0xf4, 0xf2,
	0xf1, 0xef, 0xed, 0xec, 0xea, 0xe9, 0xe7, 0xe6,
	0xe4, 0xe3, 0xe1, 0xe0, 0xdf, 0xdd, 0xdc, 0xdb,
	0xda, 0xd8, 0xd7, 0xd6, 0xd5, 0xd4, 0xd3, 0xd2,
	0xd0, 0xcf, 0xce, 0xcd, 0xcc, 0xcb, 0xca, 0xc9,
	0xc8, 0xc7, 0xc6, 0xc6, 0xc5, 0xc4, 0xc3, 0xc2,
	0xc1, 0xc0, 0xbf, 0xbf, 0xbe, 0xbd, 0xbc, 0xbb,
	0xbb, 0xba, 0xb9, 0xb8, 0xb8, 0xb7, 0xb6, 0xb5,
};

/*
 * The QLI refine's tables [INFERRED] (the seed's fp_recip_qli_lut1/lut2
 * {A, gx}, whose content it does not give): on segment s of the
 * significand, x in [1 + s/64, 1 + (s+1)/64), with centre m = d/128
 * (d = 129 + 2s) and t = x - m, 1/x ~ A - G t + C t^2, the quadratic that
 * interpolates 1/x at the segment's three Chebyshev nodes m and m +- h,
 * h^2 = 3/4 (1/128)^2:
 *
 *   A = 1/m = 128/d,  G = 1/(m^2 - h^2) = 65536/(4d^2 - 3),
 *   C = 1/(m (m^2 - h^2)) = 2^23/(d (4d^2 - 3)),
 *
 * each below 1, held with 32 fraction bits: lut1[s] = round(2^39 / d),
 * lut2[s] = { round(2^48 / (4d^2 - 3)), round(2^55 / (d (4d^2 - 3))) }.
 */
const u32 ksim_pool_qli_lut1[64] = {
	/* A by segment */
	0xfe03f810, 0xfa232cf2, 0xf6603d98, 0xf2b9d648,
	0xef2eb720, 0xebbdb2a6, 0xe865ac7b, 0xe525982b,
	0xe1fc780e, 0xdee95c4d, 0xdbeb61ef, 0xd901b203,
	0xd62b80d6, 0xd3680d37, 0xd0b69fcc, 0xce168a77,
	0xcb8727c0, 0xc907da4f, 0xc6980c6a, 0xc4372f85,
	0xc1e4bbd6, 0xbfa02fe8, 0xbd691047, 0xbb3ee722,
	0xb92143fa, 0xb70fbb5a, 0xb509e68b, 0xb30f6353,
	0xb11fd3b8, 0xaf3addc7, 0xad602b58, 0xab8f69e3,
	0xa9c84a48, 0xa80a80a8, 0xa655c439, 0xa4a9cf1e,
	0xa3065e40, 0xa16b312f, 0x9fd809fe, 0x9e4cad24,
	0x9cc8e161, 0x9b4c6f9f, 0x99d722db, 0x9868c80a,
	0x97012e02, 0x95a02568, 0x94458094, 0x92f11384,
	0x91a2b3c5, 0x905a3863, 0x8f1779da, 0x8dda5202,
	0x8ca29c04, 0x8b70344a, 0x8a42f870, 0x891ac73b,
	0x87f78088, 0x86d90544, 0x85bf3761, 0x84a9f9c8,
	0x83993052, 0x828cbfbf, 0x81848da9, 0x80808081,
};

/* { G, C } by segment */
const u32 ksim_pool_qli_lut2[64][2] = {
	{ 0xfc0ec8ce, 0xfa1a93a7 }, { 0xf46b74ae, 0xeed2858d },
	{ 0xed1fad72, 0xe435959a }, { 0xe6264cbc, 0xda3746dc },
	{ 0xdf7a8bb2, 0xd0cc304c }, { 0xd917fad5, 0xc7e9e175 },
	{ 0xd2fa7a9c, 0xbf86ca16 }, { 0xcd1e34ca, 0xb79a2482 },
	{ 0xc77f9668, 0xb01be258 }, { 0xc21b4a52, 0xa9049b46 },
	{ 0xbcee3444, 0xa24d7da7 }, { 0xb7f56c5c, 0x9bf040ba },
	{ 0xb32e3b05, 0x95e71847 }, { 0xae961541, 0x902ca980 },
	{ 0xaa2a9946, 0x8abc010a }, { 0xa5e98b66, 0x859089fb },
	{ 0xa1d0d33d, 0x80a605c1 }, { 0x9dde791b, 0x7bf884cb },
	{ 0x9a10a3a8, 0x77845fed }, { 0x966595b9, 0x73463260 },
	{ 0x92dbac53, 0x6f3ad451 }, { 0x8f715cd6, 0x6b5f55f6 },
	{ 0x8c253350, 0x67b0fb0d }, { 0x88f5d0f1, 0x642d36d0 },
	{ 0x85e1ea9f, 0x60d1a839 }, { 0x82e847a3, 0x5d9c16a0 },
	{ 0x8007c078, 0x5a8a6ea7 }, { 0x7d3f3da6, 0x579abf67 },
	{ 0x7a8db6bb, 0x54cb37db }, { 0x77f23157, 0x521a2483 },
	{ 0x756bc048, 0x4f85ed3a }, { 0x72f982b5, 0x4d0d133d },
	{ 0x709aa35d, 0x4aae2f54 }, { 0x6e4e57e0, 0x4867f02a },
	{ 0x6c13e018, 0x463918c0 }, { 0x69ea8577, 0x44207f03 },
	{ 0x67d19a7c, 0x421d0a7f }, { 0x65c87a26, 0x402db32b },
	{ 0x63ce8775, 0x3e518049 }, { 0x61e32cf9, 0x3c878767 },
	{ 0x6005dc5c, 0x3aceeb65 }, { 0x5e360e00, 0x3926db9a },
	{ 0x5c73409e, 0x378e9300 }, { 0x5abcf8ea, 0x36055777 },
	{ 0x5912c142, 0x348a7913 }, { 0x5774295a, 0x331d5173 },
	{ 0x55e0c5f7, 0x31bd432a }, { 0x545830a6, 0x3069b933 },
	{ 0x52da077e, 0x2f222665 }, { 0x5165ece0, 0x2de60501 },
	{ 0x4ffb8740, 0x2cb4d638 }, { 0x4e9a80ed, 0x2b8e21c3 },
	{ 0x4d4287e2, 0x2a71757f }, { 0x4bf34d8f, 0x295e6512 },
	{ 0x4aac86b7, 0x28548991 }, { 0x496deb3a, 0x27538131 },
	{ 0x483735f6, 0x265aeefc }, { 0x4708249e, 0x256a7a88 },
	{ 0x45e07797, 0x2481cfb8 }, { 0x44bff1d5, 0x23a09e7d },
	{ 0x43a658c0, 0x22c69a9a }, { 0x42937411, 0x21f37b72 },
	{ 0x41870db8, 0x2126fbcf }, { 0x4080f1c3, 0x2060d9bb },
};

/*
 * The unbiased exponent of a finite nonzero lane, its fraction in *f: a
 * subnormal is normalised (never flushed), its leading one shifted up to
 * the hidden bit's place and dropped.
 */
static s32 ksim_pool_tab_norm(u32 *f, u32 ef, unsigned int fb, s32 bias)
{
	s32 e = 1 - bias;

	if (ef)
		return (s32)ef - bias;
	while (!(*f & (1u << fb))) {
		*f <<= 1;
		e--;
	}
	*f &= (1u << fb) - 1;
	return e;
}

/*
 * A seed's encoding: sig the significand with its hidden bit at fb, be
 * the biased exponent.  Above the range it is infinity.  Below the normal
 * range it is the subnormal, exact: a seed is at most two places below
 * (be >= -1, 1/x of the largest binade), and its 8 significant bits leave
 * fb - 7 >= 3 zeros at the bottom to shift out.
 */
static u32 ksim_pool_tab_pack(u32 sig, s32 be, unsigned int fb, u32 emax)
{
	if (be >= (s32)emax)
		return emax << fb;
	if (be >= 1)
		return ((u32)(be - 1) << fb) + sig;
	return sig >> (1 - be);
}

/*
 * vfrecip0 / vfrsqrt0 on one lane of fb fraction and eb exponent bits.
 * The specials first: a NaN gives the canonical quiet NaN, 1/+-0 = +-inf,
 * 1/+-inf = +-0, rsqrt(+-0) = +-inf and rsqrt(+inf) = +0 (IEEE 754's
 * rSqrt), the rsqrt of anything else negative a NaN.
 */
static u32 ksim_pool_tab_seed(u32 x, unsigned int fb, unsigned int eb,
			      bool rsqrt)
{
	u32 emax = (1u << eb) - 1, sign = x & (1u << (fb + eb));
	u32 ef = (x >> fb) & emax, f = x & ((1u << fb) - 1);
	u32 inf = emax << fb, qnan = inf | 1u << (fb - 1), t;
	s32 bias = (s32)(emax >> 1), e, re;

	if (ef == emax) {
		if (f || (rsqrt && sign))
			return qnan;
		return sign;
	}
	if (!ef && !f)
		return sign | inf;
	if (rsqrt && sign)
		return qnan;
	e = ksim_pool_tab_norm(&f, ef, fb, bias);
	if (rsqrt) {
		/* e = 2k or 2k + 1: 2^-k / sqrt(m), m = 1.f or 2 x 1.f */
		t = ksim_pool_rsqrt_data8[(e & 1 ? 0 : 64) | f >> (fb - 6)];
		re = -(e >> 1) - 1;	/* -floor(e/2) - 1, negative e too */
	} else {
		t = ksim_pool_recip_data8[f >> (fb - 7)];
		re = -e - 1;
	}
	/* the entry t/256 in (1/2, 1) is the significand t/128, one lower */
	return sign | ksim_pool_tab_pack(t << (fb - 7), re + bias, fb, emax);
}

/**
 * ksim_pool_vec_seed32() - vfrecip0.s / vfrsqrt0.s on one binary32 lane
 * @x: the lane
 * @rsqrt: the reciprocal square root's table, else the reciprocal's
 *
 * Return: the seed, a binary32 whose significand is the table's byte (7
 * fraction bits, the rest 0); no FSR flag (pool-vector.md "Engine A").
 */
u32 ksim_pool_vec_seed32(u32 x, bool rsqrt)
{
	return ksim_pool_tab_seed(x, 23, 8, rsqrt);
}

/**
 * ksim_pool_vec_seed16() - vfrecip0.h / vfrsqrt0.h on one binary16 lane
 * @x: the lane
 * @rsqrt: the reciprocal square root's table, else the reciprocal's
 *
 * Return: the seed, from the same tables by the top 7 (6) fraction bits.
 */
u16 ksim_pool_vec_seed16(u16 x, bool rsqrt)
{
	return (u16)ksim_pool_tab_seed(x, 10, 5, rsqrt);
}

/* y >> sh rounded to nearest, ties to even (1 <= sh < 64) */
static u64 ksim_pool_tab_rne(u64 y, unsigned int sh)
{
	u64 q = y >> sh, r = y & ((1ull << sh) - 1), half = 1ull << (sh - 1);

	if (r > half || (r == half && (q & 1)))
		q++;
	return q;
}

/**
 * ksim_pool_vec_recipq32() - vfrecipq.s on one binary32 lane
 * @x: the lane
 *
 * The reciprocal by quadratic interpolation (ksim_pool_qli_lut1/2) on
 * the top 6 fraction bits, evaluated in fixed point with 40 fraction bits
 * and rounded once, to nearest even, whatever FCR's round mode (it is an
 * approximation, not an IEEE operation).  A power of two's reciprocal is
 * exact: the significand 1.0 sits on a segment's edge, where the
 * interpolation is furthest off.  Results below the normal range are
 * rounded subnormals, above it infinity; the specials are vfrecip0's.
 *
 * Return: 1/x within 2.5 ulp (pool-vector.md gives the measured figure).
 */
u32 ksim_pool_vec_recipq32(u32 x)
{
	u32 sign = x & 0x80000000u, ef = (x >> 23) & 0xff, f = x & 0x7fffff;
	u32 bits, seg;
	unsigned int sh;
	s32 e, t, be;
	u64 y, at, d1;

	if (ef == 0xff || (!ef && !f))
		return ksim_pool_tab_seed(x, 23, 8, false);
	e = ksim_pool_tab_norm(&f, ef, 23, 127);
	if (!f) {
		y = 1ull << 40;
	} else {
		/* t = x - m in units of 2^-23, |t| <= 2^16 */
		seg = f >> 17;
		t = (s32)(f & 0x1ffff) - 0x10000;
		at = t < 0 ? (u64)-t : (u64)t;
		y = (u64)ksim_pool_qli_lut1[seg] << 8;
		d1 = (ksim_pool_qli_lut2[seg][0] * at) >> 15;
		y = t < 0 ? y + d1 : y - d1;
		/* C t^2: C < 2^32 and t^2 <= 2^32, so the product fits */
		y += (ksim_pool_qli_lut2[seg][1] * (at * at)) >> 38;
	}
	/* y = 1/1.f in (1/2, 1] x 2^40: a 24-bit significand, 2^-e-1 or 2^-e */
	if (y >> 40) {
		be = 127 - e;
		sh = 17;
	} else {
		be = 126 - e;
		sh = 16;
	}
	if (be >= 255)
		return sign | 0x7f800000u;
	if (be < 1) {
		/* a subnormal: rounded once, from all of y's bits */
		sh += 1 - be;
		be = 1;
	}
	/* a significand rounded up to 2^24 carries into the exponent */
	bits = ((u32)(be - 1) << 23) + (u32)ksim_pool_tab_rne(y, sh);
	if (bits > 0x7f800000u)
		bits = 0x7f800000u;
	return sign | bits;
}

/* one lane of an instruction: hp binary16, q the QLI refine */
static u32 ksim_pool_tab_lane(u32 x, bool hp, bool q, bool rsqrt)
{
	if (hp)
		return ksim_pool_vec_seed16((u16)x, rsqrt);
	if (q)
		return ksim_pool_vec_recipq32(x);
	return ksim_pool_vec_seed32(x, rsqrt);
}

/**
 * ksim_pool_vec_tab() - one Engine A instruction: vfrecip0, vfrsqrt0
 * (binary32 or binary16 lanes) or vfrecipq (binary32)
 * @v: the core's coprocessor state
 * @o: a K_VEC op, KSIM_PV_FTAB or KSIM_PV_FTABQ (funct7 in the aux field)
 *
 * Lane by lane, va into vd (which may be va); FSR is left alone.
 */
void ksim_pool_vec_tab(struct ksim_pool_vec *v, const struct ksim_pool_op *o)
{
	bool q = KSIM_PV_OP(o->imm) == KSIM_PV_FTABQ;
	bool rsqrt = KSIM_PV_AUX(o->imm) == KH_PV_FRSQRT0;
	bool hp = KSIM_PV_W(o->imm) == KH_PV_WF16;
	unsigned int k, s, step = hp ? 16 : 32;
	const u64 *a = v->v[o->rs1];
	u64 r[KSIM_PV_VWORDS];

	for (k = 0; k < KSIM_PV_VWORDS; k++) {
		r[k] = 0;
		for (s = 0; s < 64; s += step)
			r[k] |= (u64)ksim_pool_tab_lane((u32)(a[k] >> s), hp, q,
							rsqrt) << s;
	}
	memcpy(v->v[o->rd], r, sizeof(r));
}
