// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One vector instruction (docs/spec/pool-vector.md): the loads and stores,
 * the moves between the scalar and the vector files, and the dispatch to
 * the lane ALU (vec_alu.c) and the MAC (vec_mac.c).  The interpreter calls
 * it for a K_VEC op once cpenable[1] is known set.
 *
 * A trap is decided before anything is written (seed 002 §3.2's precise
 * squash, and the scalar loads' and stores' rule): misalignment first,
 * then the address.
 */
#include "pool.h"

/**
 * ksim_pool_vec_at() - where a vector access of size bytes at a lands: a
 * row (vl, vs, the valign streams) or a SuperGather element
 * @p: the unit (IRAM)
 * @c: the core
 * @a: the address
 * @size: the access's bytes, a power of two: 64, 4 or 2
 * @st: a store
 * @cause: set when it traps
 *
 * Vector accesses reach only what the core alone sees (pool-vector.md
 * "custom-1"): not the window, not core 0's mailbox row, which run at
 * their mesh cycle.  Misalignment is checked first.
 *
 * Return: the DataRAM's or IRAM's bytes, or NULL with *cause set.
 */
u8 *ksim_pool_vec_at(struct ksim_pool *p, struct ksim_pool_core *c, u32 a,
		     unsigned int size, bool st, unsigned int *cause)
{
	u32 off = a - KH_POOL_DRAM_BASE;

	if (a & (size - 1)) {
		*cause = st ? KH_POOL_CAUSE_STORE_MISALIGNED :
			      KH_POOL_CAUSE_LOAD_MISALIGNED;
		return NULL;
	}
	/* aligned and inside: the whole access is (the sizes are multiples) */
	if (off < KH_POOL_DRAM_SIZE && (off >= KH_PV_MEM_ALIGN ||
					!ksim_pool_mbox_bytes(c)))
		return c->dram + off;
	if (!st && a < KH_POOL_IRAM_SIZE)
		return p->iram + a;
	*cause = st ? KH_POOL_CAUSE_STORE_FAULT : KH_POOL_CAUSE_LOAD_FAULT;
	return NULL;
}

/* the signed row count of a load or store, in bytes */
static u32 ksim_pool_vec_off(u32 imm)
{
	u32 rows = KSIM_PV_AUX(imm);

	return ((rows ^ 0x800) - 0x800) * KH_PV_MEM_ALIGN;
}

static void ksim_pool_vec_splat(u64 *r, unsigned int w, u32 x)
{
	u64 word;
	unsigned int k;

	switch (w) {
	case KH_PV_W8:
		word = (x & 0xff) * 0x0101010101010101ull;
		break;
	case KH_PV_W16:
		word = (x & 0xffff) * 0x0001000100010001ull;
		break;
	default:
		word = (u64)x << 32 | x;
		break;
	}
	for (k = 0; k < KSIM_PV_VWORDS; k++)
		r[k] = word;
}

/* vext, vextu: a lane to a scalar */
static u32 ksim_pool_vec_ext(const u64 *r, unsigned int w, u32 idx, bool sx)
{
	unsigned int bits = KH_PV_LANE_BITS(w);
	u32 v = ksim_pv_lane(r, bits, idx % KH_PV_LANES(w));

	if (sx && bits < 32)
		v = (v ^ (1u << (bits - 1))) - (1u << (bits - 1));
	return v;
}

/**
 * ksim_pool_vec_exec() - execute one vector instruction
 * @p: the unit (IRAM, for loads from it)
 * @c: the core, its coprocessor enabled
 * @o: a K_VEC op
 * @cause: set when it traps
 *
 * Return: true when it retired, false when it trapped (nothing changed).
 */
bool ksim_pool_vec_exec(struct ksim_pool *p, struct ksim_pool_core *c,
			const struct ksim_pool_op *o, unsigned int *cause)
{
	struct ksim_pool_vec *v = &c->vec;
	unsigned int w = KSIM_PV_W(o->imm);
	u32 *x = c->x;
	u8 *b;

	switch (KSIM_PV_OP(o->imm)) {
	case KSIM_PV_VL:
		b = ksim_pool_vec_at(p, c, x[o->rs1] + ksim_pool_vec_off(o->imm),
				     KH_PV_MEM_ALIGN, false, cause);
		if (!b)
			return false;
		ksim_pv_load(v->v[o->rd], b);
		break;
	case KSIM_PV_VS:
		b = ksim_pool_vec_at(p, c, x[o->rs1] + ksim_pool_vec_off(o->imm),
				     KH_PV_MEM_ALIGN, true, cause);
		if (!b)
			return false;
		ksim_pv_store(v->v[o->rs2], b);
		break;
	case KSIM_PV_VMV:
		memcpy(v->v[o->rd], v->v[o->rs1], sizeof(v->v[0]));
		break;
	case KSIM_PV_SPLAT:
		ksim_pool_vec_splat(v->v[o->rd], w, x[o->rs1]);
		break;
	case KSIM_PV_EXT:
	case KSIM_PV_EXTU:
		x[o->rd] = ksim_pool_vec_ext(v->v[o->rs1], w, x[o->rs2],
					     KSIM_PV_OP(o->imm) == KSIM_PV_EXT);
		break;
	case KSIM_PV_MVXB:
		v->vb[o->rd] = (u64)x[o->rs2] << 32 | x[o->rs1];
		break;
	case KSIM_PV_MVBX:
		x[o->rd] = (u32)(v->vb[o->rs1] >> (32 * o->rs2));
		break;
	case KSIM_PV_MVXP:
		v->pr[o->rd] = (u64)x[o->rs2] << 32 | x[o->rs1];
		break;
	case KSIM_PV_MVPX:
		x[o->rd] = (u32)(v->pr[o->rs1] >> (32 * o->rs2));
		break;
	case KSIM_PV_RFCR:
		x[o->rd] = v->fcr;
		break;
	case KSIM_PV_WFCR:
		v->fcr = x[o->rs1] & KH_PV_FCR_MASK;
		break;
	case KSIM_PV_RFSR:
		x[o->rd] = v->fsr;
		break;
	case KSIM_PV_WFSR:
		v->fsr = x[o->rs1] & KH_PV_FSR_MASK;
		break;
	case KSIM_PV_MVVW:
		ksim_pv_store(v->v[o->rs1], v->wv[o->rd] + KH_PV_VBYTES * o->rs2);
		break;
	case KSIM_PV_MVWV:
		ksim_pv_load(v->v[o->rd], v->wv[o->rs1] + KH_PV_VBYTES * o->rs2);
		break;
	case KSIM_PV_MVVU:
		memcpy(v->va[o->rd], v->v[o->rs1], sizeof(v->va[0]));
		break;
	case KSIM_PV_MVUV:
		memcpy(v->v[o->rd], v->va[o->rs1], sizeof(v->v[0]));
		break;
	case KSIM_PV_MVVG:
		memcpy(v->gvr[o->rd], v->v[o->rs1], sizeof(v->gvr[0]));
		break;
	case KSIM_PV_MVGV:
		memcpy(v->v[o->rd], v->gvr[o->rs1], sizeof(v->v[0]));
		break;
	case KSIM_PV_FMA:
	case KSIM_PV_FCVT:
	case KSIM_PV_FTRUNC:
		ksim_pool_vec_fp(v, o);
		break;
	case KSIM_PV_FTAB:
	case KSIM_PV_FTABQ:
		ksim_pool_vec_tab(v, o);
		break;
	case KSIM_PV_PERM:
	case KSIM_PV_DSEL:
		ksim_pool_vec_perm(v, o);
		break;
	case KSIM_PV_VLAP ... KSIM_PV_VSAF:
		return ksim_pool_vec_stream(p, c, o, cause);
	case KSIM_PV_GATHERA ... KSIM_PV_SCATTERINC:
		return ksim_pool_vec_gather(p, c, o, cause);
	case KSIM_PV_QMAC:
		ksim_pool_vec_qmac(v, o);
		break;
	case KSIM_PV_PACK:
		ksim_pool_vec_pack(v, o, x[o->rs2]);
		break;
	default:
		ksim_pool_vec_alu(v, o);
		break;
	}
	return true;
}

/**
 * ksim_pool_vec_reset() - the coprocessor's state at reset: all zero
 * @v: the state
 *
 * cpenable 0 (disabled), FCR's round mode RNE (0), every register 0.
 */
void ksim_pool_vec_reset(struct ksim_pool_vec *v)
{
	memset(v, 0, sizeof(*v));
}
