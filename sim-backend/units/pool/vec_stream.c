// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector unit's memory beyond vl/vs (docs/spec/pool-vector.md
 * "Unaligned streams: valign", "SuperGather"; seed 002 §3.5, §3.6): the
 * valign load and store streams, which only ever touch whole aligned
 * rows (the flush excepted, a masked row), and the two-phase gather, the
 * scatter and the scatter-increment.  Every address of an instruction is
 * checked before anything is written, the address increment included.
 */
#include "pool.h"

/**
 * ksim_pool_vec_stream() - a valign stream instruction
 * @p: the unit (IRAM)
 * @c: the core
 * @o: a KSIM_PV_VLAP .. KSIM_PV_VSAF op
 * @cause: set when it traps
 *
 * Return: true when it retired, false when it trapped (nothing changed).
 */
bool ksim_pool_vec_stream(struct ksim_pool *p, struct ksim_pool_core *c,
			  const struct ksim_pool_op *o, unsigned int *cause)
{
	struct ksim_pool_vec *v = &c->vec;
	unsigned int op = KSIM_PV_OP(o->imm);
	u32 a = c->x[o->rs1], off = a & (KH_PV_MEM_ALIGN - 1);
	u32 row = a - off;
	u8 cat[2 * KH_PV_VBYTES], *m;
	bool st = op == KSIM_PV_VSA || op == KSIM_PV_VSAF;

	m = ksim_pool_vec_at(p, c, row, KH_PV_MEM_ALIGN, st, cause);
	if (!m)
		return false;
	switch (op) {
	case KSIM_PV_VLAP:
	case KSIM_PV_VSAP:
		ksim_pv_load(v->va[o->rd], m);
		break;
	case KSIM_PV_VLA:
		/* bytes off..off+63 of u ++ row; the row is the new residue */
		ksim_pv_store(v->va[o->rs2], cat);
		memcpy(cat + KH_PV_VBYTES, m, KH_PV_VBYTES);
		ksim_pv_load(v->v[o->rd], cat + off);
		ksim_pv_load(v->va[o->rs2], m);
		break;
	case KSIM_PV_VSA:
		/*
		 * u's head bytes, then the data; u becomes the data rotated
		 * up by off bytes: its head is the data's tail, for the next
		 */
		ksim_pv_store(v->va[o->rd], cat);
		ksim_pv_store(v->v[o->rs2], cat + off);
		memcpy(m, cat, KH_PV_VBYTES);
		memcpy(cat, cat + KH_PV_VBYTES, off);
		ksim_pv_load(v->va[o->rd], cat);
		break;
	case KSIM_PV_VSAF:
		ksim_pv_store(v->va[o->rd], cat);
		memcpy(m, cat, off);
		return true;
	}
	if (op != KSIM_PV_VSAP)
		c->x[o->rs1] = a + KH_PV_MEM_ALIGN;
	return true;
}

static u32 ksim_pv_get(const u8 *b, unsigned int size)
{
	return size == 4 ? ksim_pool_rd32(b) : (u32)(b[0] | b[1] << 8);
}

static void ksim_pv_put(u8 *b, unsigned int size, u32 x)
{
	if (size == 4) {
		ksim_pool_wr32(b, x);
	} else {
		b[0] = (u8)x;
		b[1] = (u8)(x >> 8);
	}
}

/**
 * ksim_pool_vec_gather() - a SuperGather instruction
 * @p: the unit (IRAM)
 * @c: the core
 * @o: a KSIM_PV_GATHERA .. KSIM_PV_SCATTERINC op (W = KH_PV_W16 or W32)
 * @cause: set when it traps
 *
 * Return: true when it retired, false when it trapped (nothing changed).
 */
bool ksim_pool_vec_gather(struct ksim_pool *p, struct ksim_pool_core *c,
			  const struct ksim_pool_op *o, unsigned int *cause)
{
	struct ksim_pool_vec *v = &c->vec;
	unsigned int op = KSIM_PV_OP(o->imm), w = KSIM_PV_W(o->imm);
	unsigned int bits = KH_PV_LANE_BITS(w), size = bits / 8;
	unsigned int n = KH_PV_LANES(w), i;
	u64 pred = v->vb[KH_PV_GS_PRED(KSIM_PV_AUX(o->imm))];
	bool st = op != KSIM_PV_GATHERA;
	u8 *at[KH_PV_LANES(KH_PV_W16)];
	u64 g[KSIM_PV_VWORDS];

	if (op == KSIM_PV_GATHERD) {
		memcpy(v->v[o->rd], v->gvr[o->rs2], sizeof(v->v[0]));
		return true;
	}
	/* every lane taking part is checked before any is touched */
	for (i = 0; i < n; i++) {
		u32 a = c->x[o->rs1] + ksim_pv_lane(v->v[o->rs2], bits, i) * size;

		at[i] = NULL;
		if (!((pred >> i) & 1))
			continue;
		at[i] = ksim_pool_vec_at(p, c, a, size, st, cause);
		if (!at[i])
			return false;
	}
	switch (op) {
	case KSIM_PV_GATHERA:
		memset(g, 0, sizeof(g));
		for (i = 0; i < n; i++)
			if (at[i])
				ksim_pv_set_lane(g, bits, i,
						 ksim_pv_get(at[i], size));
		memcpy(v->gvr[o->rd], g, sizeof(g));
		break;
	case KSIM_PV_SCATTER:
		/* in lane order: of two lanes with one address the higher lands */
		for (i = 0; i < n; i++)
			if (at[i])
				ksim_pv_put(at[i], size,
					    ksim_pv_lane(v->v[o->rd], bits, i));
		break;
	case KSIM_PV_SCATTERINC:
		/* every lane adds: a histogram's conflicting lanes all count */
		for (i = 0; i < n; i++)
			if (at[i])
				ksim_pv_put(at[i], size,
					    ksim_pv_get(at[i], size) +
					    ksim_pv_lane(v->v[o->rd], bits, i));
		break;
	}
	return true;
}
