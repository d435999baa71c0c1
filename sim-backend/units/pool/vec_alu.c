// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector coprocessor's integer lane ALU (docs/spec/pool-vector.md
 * "custom-0"; seed 002 §3.1): 64 x 8, 32 x 16 or 16 x 32 bit lanes carved
 * from one 512-bit datapath by the instruction's width.
 *
 * Add and subtract work on whole 64-bit words the way the seed's segmented
 * adder does: the lanes' top bits are kept out of the carry chain and put
 * back by exclusive or, so no carry crosses a lane boundary.  The rest
 * (saturation, shifts, min/max, compares, select) go lane by lane.
 */
#include "pool.h"

/* the top bit of every lane of a width, across a 64-bit word */
static const u64 ksim_pool_vec_top[3] = {
	0x8080808080808080ull, 0x8000800080008000ull, 0x8000000080000000ull,
};

static u64 ksim_pool_vec_add64(u64 a, u64 b, u64 h)
{
	return ((a & ~h) + (b & ~h)) ^ ((a ^ b) & h);
}

static u64 ksim_pool_vec_sub64(u64 a, u64 b, u64 h)
{
	return ((a | h) - (b & ~h)) ^ ((a ^ ~b) & h);
}

static s64 ksim_pool_vec_sx(u32 a, unsigned int bits)
{
	return (s64)(((u64)a ^ (1ull << (bits - 1))) - (1ull << (bits - 1)));
}

/* v saturated to the signed range of bits, as a lane */
static u32 ksim_pool_vec_sat_s(s64 v, unsigned int bits)
{
	s64 hi = (s64)((1ull << (bits - 1)) - 1), lo = -hi - 1;

	if (v > hi)
		v = hi;
	else if (v < lo)
		v = lo;
	return (u32)v & (u32)((1ull << bits) - 1);
}

/* v (0 .. 2^(bits+1)) or negative, saturated to the unsigned range */
static u32 ksim_pool_vec_sat_u(s64 v, unsigned int bits)
{
	s64 hi = (s64)((1ull << bits) - 1);

	if (v > hi)
		v = hi;
	else if (v < 0)
		v = 0;
	return (u32)v;
}

/*
 * Four steps of unsigned restoring division (the seed's
 * DIVN_2X32X16U_4STEPN, §5.1): x = R:Q, each step shifts R:Q left by one
 * into a 17-bit trial remainder and, when it is at least the divisor,
 * subtracts it and sets the quotient bit.  With R < d at the start, four
 * ops (16 steps) leave the quotient of R:Q / d in Q and the remainder in R.
 */
static u32 ksim_pool_vec_div4u(u32 x, u32 d)
{
	unsigned int s;

	d &= 0xffff;
	for (s = 0; s < 4; s++) {
		u32 r = x >> 15, q = (x << 1) & 0xffff;

		if (r >= d) {
			r -= d;
			q |= 1;
		}
		x = r << 16 | q;
	}
	return x;
}

/* one lane of a lane-by-lane operation: a, b zero-extended lanes */
static u32 ksim_pool_vec_lane_op(unsigned int op, u32 a, u32 b,
				 unsigned int bits)
{
	s64 sa = ksim_pool_vec_sx(a, bits), sb = ksim_pool_vec_sx(b, bits);
	u32 m = (u32)((1ull << bits) - 1);
	unsigned int sh = b & (bits - 1);

	switch (op) {
	case KSIM_PV_ADDS:
		return ksim_pool_vec_sat_s(sa + sb, bits);
	case KSIM_PV_SUBS:
		return ksim_pool_vec_sat_s(sa - sb, bits);
	case KSIM_PV_ADDUS:
		return ksim_pool_vec_sat_u((s64)a + b, bits);
	case KSIM_PV_SUBUS:
		return ksim_pool_vec_sat_u((s64)a - b, bits);
	case KSIM_PV_SLL:
		return (u32)((u64)a << sh) & m;
	case KSIM_PV_SRL:
		return a >> sh;
	case KSIM_PV_SRA:
		return (u32)(sa >> sh) & m;
	case KSIM_PV_MIN:
		return sa < sb ? a : b;
	case KSIM_PV_MAX:
		return sa > sb ? a : b;
	case KSIM_PV_MINU:
		return a < b ? a : b;
	case KSIM_PV_MAXU:
		return a > b ? a : b;
	case KSIM_PV_DIV4U:
		return ksim_pool_vec_div4u(a, b);
	case KSIM_PV_EQ:
		return a == b;
	case KSIM_PV_NE:
		return a != b;
	case KSIM_PV_LT:
		return sa < sb;
	case KSIM_PV_LE:
		return sa <= sb;
	case KSIM_PV_LTU:
		return a < b;
	default:	/* KSIM_PV_LEU */
		return a <= b;
	}
}

/**
 * ksim_pool_vec_alu() - one custom-0 instruction
 * @v: the core's coprocessor state
 * @o: a K_VEC op of the ALU (KSIM_PV_ADD .. KSIM_PV_SEL)
 */
void ksim_pool_vec_alu(struct ksim_pool_vec *v, const struct ksim_pool_op *o)
{
	unsigned int op = KSIM_PV_OP(o->imm), w = KSIM_PV_W(o->imm);
	unsigned int bits = KH_PV_LANE_BITS(w), lanes = KH_PV_LANES(w);
	unsigned int per = 64 / bits, i, k;
	const u64 *a = v->v[o->rs1], *b = v->v[o->rs2];
	u64 h = ksim_pool_vec_top[w], m = (1ull << bits) - 1, r[KSIM_PV_VWORDS];
	u64 pred;

	switch (op) {
	case KSIM_PV_ADD:
		for (k = 0; k < KSIM_PV_VWORDS; k++)
			r[k] = ksim_pool_vec_add64(a[k], b[k], h);
		break;
	case KSIM_PV_SUB:
		for (k = 0; k < KSIM_PV_VWORDS; k++)
			r[k] = ksim_pool_vec_sub64(a[k], b[k], h);
		break;
	case KSIM_PV_AND:
		for (k = 0; k < KSIM_PV_VWORDS; k++)
			r[k] = a[k] & b[k];
		break;
	case KSIM_PV_OR:
		for (k = 0; k < KSIM_PV_VWORDS; k++)
			r[k] = a[k] | b[k];
		break;
	case KSIM_PV_XOR:
		for (k = 0; k < KSIM_PV_VWORDS; k++)
			r[k] = a[k] ^ b[k];
		break;
	case KSIM_PV_SEL:
		pred = v->vb[KSIM_PV_AUX(o->imm)];
		for (i = 0; i < lanes; i++) {
			u64 lm = m << (bits * (i % per));

			k = i / per;
			if (i == k * per)
				r[k] = 0;
			r[k] |= ((pred >> i) & 1 ? a[k] : b[k]) & lm;
		}
		break;
	case KSIM_PV_EQ ... KSIM_PV_LEU:
		/* into a predicate: bit i is lane i, the bits above cleared */
		pred = 0;
		for (i = 0; i < lanes; i++) {
			unsigned int s = bits * (i % per);

			k = i / per;
			pred |= (u64)ksim_pool_vec_lane_op(op,
					(u32)((a[k] >> s) & m),
					(u32)((b[k] >> s) & m), bits) << i;
		}
		v->vb[o->rd] = pred;
		return;
	default:
		for (k = 0; k < KSIM_PV_VWORDS; k++) {
			r[k] = 0;
			for (i = 0; i < per; i++) {
				unsigned int s = bits * i;

				r[k] |= (u64)ksim_pool_vec_lane_op(op,
						(u32)((a[k] >> s) & m),
						(u32)((b[k] >> s) & m),
						bits) << s;
			}
		}
		break;
	}
	memcpy(v->v[o->rd], r, sizeof(r));
}
