// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The quad-MAC and the pack (docs/spec/pool-vector.md "custom-2"; seed
 * 002 §3.3): each output lane is the exact 4-tap dot product of the four
 * tap registers' lanes with the radix register's four bytes, written,
 * added to or subtracted from the wide accumulator's lane of three times
 * the source width, modulo the lane (never saturating).  The pack narrows
 * an accumulator back into a vector register, shifting, rounding and
 * saturating.
 *
 * The accumulator's lanes are 3, 6 or 12 bytes, little-endian; they are
 * added byte by byte with the carry stopping at the lane's last byte,
 * which is the wrap.  A dot product is at most 4 x 2^32 x 2^8 = 2^42 in
 * magnitude, so it fits an s64; only the 96-bit lanes need more, and they
 * get it from the byte chain (and, in the pack, a two-word number).
 */
#include "pool.h"

/* bytes of an accumulator lane, by source width code: 24, 48, 96 bits */
static const u8 ksim_pool_wv_bytes[3] = { 3, 6, 12 };

/* lane += s (sign-extended), or lane = s when set, modulo the lane */
static void ksim_pool_wv_acc(u8 *lane, unsigned int nb, s64 s, bool set)
{
	u64 u = (u64)s;
	unsigned int ext = s < 0 ? 0xff : 0, carry = 0, k, sb, t;

	for (k = 0; k < nb; k++) {
		sb = k < 8 ? (unsigned int)(u >> (8 * k)) & 0xff : ext;
		if (set) {
			lane[k] = (u8)sb;
			continue;
		}
		t = lane[k] + sb + carry;
		lane[k] = (u8)t;
		carry = t >> 8;
	}
}

/* lane i of bits of register r, sign- or zero-extended */
static s64 ksim_pool_vec_tap(const u64 *r, unsigned int bits, unsigned int i,
			     bool uns)
{
	unsigned int pos = bits * i;
	u64 m = (1ull << bits) - 1, t = (r[pos / 64] >> (pos % 64)) & m;

	if (uns)
		return (s64)t;
	return (s64)((t ^ (1ull << (bits - 1))) - (1ull << (bits - 1)));
}

/**
 * ksim_pool_vec_qmac() - vqmac: the 4-tap quad-MAC into a wide accumulator
 * @v: the core's coprocessor state
 * @o: the K_VEC op (rd the accumulator, rs1 the first tap, rs2 the radix)
 */
void ksim_pool_vec_qmac(struct ksim_pool_vec *v, const struct ksim_pool_op *o)
{
	unsigned int w = KSIM_PV_W(o->imm), f7 = KSIM_PV_AUX(o->imm);
	unsigned int bits = KH_PV_LANE_BITS(w), nb = ksim_pool_wv_bytes[w];
	unsigned int mode = f7 & 3, i, k;
	bool ut = f7 & KH_PV_MAC_UT, us = f7 & KH_PV_MAC_US;
	u64 pr = v->pr[o->rs2];
	s64 rb[4];
	u8 *acc = v->wv[o->rd];

	for (k = 0; k < 4; k++)
		rb[k] = us ? (s64)(u8)(pr >> (8 * k)) : (s64)(s8)(pr >> (8 * k));
	for (i = 0; i < KH_PV_LANES(w); i++) {
		s64 s = 0;

		for (k = 0; k < 4; k++)
			s += ksim_pool_vec_tap(v->v[(o->rs1 + k) % KH_PV_NVEC],
					       bits, i, ut) * rb[k];
		if (mode == KH_PV_MAC_SUB)
			s = -s;
		ksim_pool_wv_acc(acc + nb * i, nb, s, mode == KH_PV_MAC_SET);
	}
}

/* a 128-bit two's complement number: the pack's arithmetic */
struct ksim_pool_i128 {
	u64 lo, hi;
};

static void ksim_pool_i128_add(struct ksim_pool_i128 *a, u64 lo, u64 hi)
{
	u64 l = a->lo + lo;

	a->hi += hi + (l < lo);
	a->lo = l;
}

/* arithmetic shift right by s, 0..127 */
static void ksim_pool_i128_sar(struct ksim_pool_i128 *a, unsigned int s)
{
	u64 sign = (u64)((s64)a->hi >> 63);

	if (!s)
		return;
	if (s >= 64) {
		a->lo = (u64)((s64)a->hi >> (s - 64));
		a->hi = sign;
		return;
	}
	a->lo = a->lo >> s | a->hi << (64 - s);
	a->hi = (u64)((s64)a->hi >> s);
}

/**
 * ksim_pool_vec_pack() - vpack: narrow a wide accumulator into v[rd]
 * @v: the core's coprocessor state
 * @o: the K_VEC op (rd the vector, rs1 the accumulator)
 * @shift: x[rs2], the right shift (taken mod 128)
 */
void ksim_pool_vec_pack(struct ksim_pool_vec *v, const struct ksim_pool_op *o,
			u32 shift)
{
	unsigned int w = KSIM_PV_W(o->imm), bits = KH_PV_LANE_BITS(w);
	unsigned int nb = ksim_pool_wv_bytes[w], s = shift % 128, i, k;
	bool round = KSIM_PV_AUX(o->imm) & KH_PV_PACK_ROUND;
	const u8 *acc = v->wv[o->rs1];
	s64 hi = (s64)((1ull << (bits - 1)) - 1), lo = -hi - 1, y;
	u64 r[KSIM_PV_VWORDS] = { 0 }, m = (1ull << bits) - 1;

	for (i = 0; i < KH_PV_LANES(w); i++) {
		struct ksim_pool_i128 a = { 0, 0 };
		const u8 *l = acc + nb * i;
		unsigned int pos = bits * i;

		for (k = 0; k < nb; k++) {
			if (k < 8)
				a.lo |= (u64)l[k] << (8 * k);
			else
				a.hi |= (u64)l[k] << (8 * (k - 8));
		}
		/* sign-extend the lane's top bit up through 128 */
		if (l[nb - 1] & 0x80) {
			if (nb < 8)
				a.lo |= ~0ull << (8 * nb);
			a.hi |= nb <= 8 ? ~0ull : ~0ull << (8 * (nb - 8));
		}
		if (round && s)
			ksim_pool_i128_add(&a, s > 64 ? 0 : 1ull << (s - 1),
					   s > 64 ? 1ull << (s - 65) : 0);
		ksim_pool_i128_sar(&a, s);
		/* saturate: does it fit 64 bits, and then the lane? */
		if (a.hi != (u64)((s64)a.lo >> 63))
			y = (s64)a.hi < 0 ? lo : hi;
		else
			y = (s64)a.lo < lo ? lo : (s64)a.lo > hi ? hi : (s64)a.lo;
		r[pos / 64] |= ((u64)y & m) << (pos % 64);
	}
	memcpy(v->v[o->rd], r, sizeof(r));
}
