// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The matmul cluster unit `mat` (cu_type 'MG', docs/spec/mat.md): its
 * CU_INST encoders (FILL, GEMM, DRAIN, and a raw one), their decode, and a
 * host reference of one GEMM block as the unit computes it, bit for bit:
 * FP16 operands quantised as MAG's QUANT path does (docs/spec/mxfp7.md),
 * exact int7 dot products per K block of 32, the pumped merge of two K
 * blocks in fixed point, FP22 (S1 E7 M14) accumulation and FP16 output
 * rounding.  The reference is a port of the independent one of
 * tests/model/model_mat.c (host doubles, every value exact in them).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_mat.h"
#include "kohaku/kh_mxfp7.h"

#define FITS(v, bits)	((uint64_t)(v) < (1ULL << (bits)))
#define FIELD_W(f)	(KH_FIELD_HI(f) - KH_FIELD_LO(f) + 1)

/* ---- encoders ---- */

/* every field fits its width (the 40-bit address included) */
static bool mat_fits(unsigned int op, const struct kohaku_mat_fields *m)
{
	return FITS(op, FIELD_W(KH_MAT_OP)) &&
	       FITS(m->addr, KH_MAT_ADDR_LO_BITS + FIELD_W(KH_MAT_ADDR_HI)) &&
	       FITS(m->n, FIELD_W(KH_MAT_N)) && FITS(m->sel, 1) &&
	       FITS(m->acc, 1) && FITS(m->gm, 8) && FITS(m->gn, 8) &&
	       FITS(m->nk, 8) && FITS(m->anchor, 8) &&
	       FITS(m->peers, FIELD_W(KH_MAT_PEERS)) &&
	       FITS(m->npeer, FIELD_W(KH_MAT_NPEER)) && FITS(m->preq, 1) &&
	       FITS(m->eoff, 8) && FITS(m->aoff, 8) && FITS(m->boff, 8) &&
	       FITS(m->emit, 1) && FITS(m->fuse, 1) && FITS(m->abank, 1) &&
	       FITS(m->bbank, 1) && FITS(m->fbank, 1) && FITS(m->dnode, 1) &&
	       FITS(m->dst_x, 4) && FITS(m->dst_y, 4) && FITS(m->dbuf, 8) &&
	       FITS(m->dflags, 8) && FITS(m->dack_y, 4) &&
	       FITS(m->dack_x, 4) && FITS(m->dmesh, 2) && FITS(m->dfin, 8);
}

KH_RT_EXPORT int kohaku_inst_mat(struct kohaku_inst *inst, unsigned int op,
				 const struct kohaku_mat_fields *m)
{
	struct kh_flit f;
	unsigned int k;

	if (!inst || !m || !mat_fits(op, m))
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	kh_flit_set(&f, KH_MAT_OP, op);
	kh_flit_set(&f, KH_MAT_ADDR_LO,
		    m->addr & ((1ULL << KH_MAT_ADDR_LO_BITS) - 1));
	kh_flit_set(&f, KH_MAT_ADDR_HI, m->addr >> KH_MAT_ADDR_LO_BITS);
	kh_flit_set(&f, KH_MAT_N, m->n);
	kh_flit_set(&f, KH_MAT_SEL, m->sel);
	kh_flit_set(&f, KH_MAT_ACC, m->acc);
	kh_flit_set(&f, KH_MAT_GM, m->gm);
	kh_flit_set(&f, KH_MAT_GN, m->gn);
	kh_flit_set(&f, KH_MAT_NK, m->nk);
	kh_flit_set(&f, KH_MAT_ANCHOR, m->anchor);
	kh_flit_set(&f, KH_MAT_PEERS, m->peers);
	kh_flit_set(&f, KH_MAT_NPEER, m->npeer);
	kh_flit_set(&f, KH_MAT_PREQ, m->preq);
	kh_flit_set(&f, KH_MAT_EOFF, m->eoff);
	kh_flit_set(&f, KH_MAT_AOFF, m->aoff);
	kh_flit_set(&f, KH_MAT_BOFF, m->boff);
	kh_flit_set(&f, KH_MAT_EMIT, m->emit);
	kh_flit_set(&f, KH_MAT_FUSE, m->fuse);
	kh_flit_set(&f, KH_MAT_ABANK, m->abank);
	kh_flit_set(&f, KH_MAT_BBANK, m->bbank);
	kh_flit_set(&f, KH_MAT_FBANK, m->fbank);
	kh_flit_set(&f, KH_MAT_DNODE, m->dnode);
	kh_flit_set(&f, KH_MAT_DST_X, m->dst_x);
	kh_flit_set(&f, KH_MAT_DST_Y, m->dst_y);
	kh_flit_set(&f, KH_MAT_DBUF, m->dbuf);
	kh_flit_set(&f, KH_MAT_DFLAGS, m->dflags);
	kh_flit_set(&f, KH_MAT_DACK_Y, m->dack_y);
	kh_flit_set(&f, KH_MAT_DACK_X, m->dack_x);
	kh_flit_set(&f, KH_MAT_DMESH, m->dmesh);
	kh_flit_set(&f, KH_MAT_DFIN, m->dfin);
	for (k = 0; k < 4; k++)
		inst->w[k] = f.w[k];
	return 0;
}

/* the value of a count field where 0 means 1 */
static unsigned int one_if_zero(unsigned int v)
{
	return v ? v : 1;
}

/* the destination fields (DRAIN, and an emitting GEMM) are all zero */
static bool no_dest(const struct kohaku_mat_fields *m)
{
	return !m->dnode && !m->dst_x && !m->dst_y && !m->dbuf && !m->dflags &&
	       !m->dack_y && !m->dack_x && !m->dmesh && !m->dfin;
}

static bool dest_ok(const struct kohaku_mat_fields *m)
{
	/* to memory: whole 32-byte sub-tiles; to a node: none of memory's */
	if (m->addr % KH_MAT_GRANULE)
		return false;
	/* dmesh only means something with dfin (a far mesh) */
	return m->dfin || !m->dmesh;
}

KH_RT_EXPORT int kohaku_inst_mat_fill(struct kohaku_inst *inst,
				      const struct kohaku_mat_fields *m)
{
	if (!inst || !m || !mat_fits(KH_MAT_OP_FILL, m))
		return -EINVAL;
	/* n >= 256 never retires (mat.md "FILL"): the encoder limits it */
	if (m->n > KOHAKU_MAT_FILL_MAX || m->addr % KH_MAT_GRANULE)
		return -EINVAL;
	if (m->peers >> (8 * m->npeer))		/* peers past npeer */
		return -EINVAL;
	if (m->acc || m->gm || m->gn || m->nk || m->anchor || m->aoff ||
	    m->boff || m->emit || m->fuse || m->abank || m->bbank || !no_dest(m))
		return -EINVAL;
	return kohaku_inst_mat(inst, KH_MAT_OP_FILL, m);
}

KH_RT_EXPORT int kohaku_inst_mat_gemm(struct kohaku_inst *inst,
				      const struct kohaku_mat_fields *m)
{
	unsigned int gm, gn, nk;

	if (!inst || !m || !mat_fits(KH_MAT_OP_GEMM, m))
		return -EINVAL;
	gm = one_if_zero(m->gm);
	gn = one_if_zero(m->gn);
	nk = one_if_zero(m->nk);
	/* the tiles and the L1 entries a sweep reads, without wrapping */
	if (gm * gn > KH_MAT_TILES || gm * nk > KH_MAT_BANK ||
	    gn * nk > KH_MAT_BANK)
		return -EINVAL;
	if (m->n || m->sel || m->peers || m->npeer || m->preq || m->eoff ||
	    m->fuse || m->fbank)
		return -EINVAL;
	if (m->emit ? !dest_ok(m) : (m->addr || !no_dest(m)))
		return -EINVAL;
	return kohaku_inst_mat(inst, KH_MAT_OP_GEMM, m);
}

KH_RT_EXPORT int kohaku_inst_mat_drain(struct kohaku_inst *inst,
				       const struct kohaku_mat_fields *m)
{
	if (!inst || !m || !mat_fits(KH_MAT_OP_DRAIN, m))
		return -EINVAL;
	if (one_if_zero(m->n) > KH_MAT_TILES || !dest_ok(m))
		return -EINVAL;
	if (m->sel || m->acc || m->gm || m->gn || m->nk || m->anchor ||
	    m->peers || m->npeer || m->preq || m->eoff || m->aoff || m->boff ||
	    m->emit || m->abank || m->bbank || m->fbank)
		return -EINVAL;
	return kohaku_inst_mat(inst, KH_MAT_OP_DRAIN, m);
}

KH_RT_EXPORT unsigned int kohaku_inst_mat_decode(const struct kohaku_inst *inst,
						 struct kohaku_mat_fields *m)
{
	struct kh_flit f;
	unsigned int k;

	memset(&f, 0, sizeof(f));
	for (k = 0; k < 4; k++)
		f.w[k] = inst->w[k];
	if (m) {
		memset(m, 0, sizeof(*m));
		m->addr = kh_flit_get(&f, KH_MAT_ADDR_LO) |
			  kh_flit_get(&f, KH_MAT_ADDR_HI) << KH_MAT_ADDR_LO_BITS;
		m->n = (uint32_t)kh_flit_get(&f, KH_MAT_N);
		m->sel = (uint8_t)kh_flit_get(&f, KH_MAT_SEL);
		m->acc = (uint8_t)kh_flit_get(&f, KH_MAT_ACC);
		m->gm = (uint8_t)kh_flit_get(&f, KH_MAT_GM);
		m->gn = (uint8_t)kh_flit_get(&f, KH_MAT_GN);
		m->nk = (uint8_t)kh_flit_get(&f, KH_MAT_NK);
		m->anchor = (uint8_t)kh_flit_get(&f, KH_MAT_ANCHOR);
		m->peers = (uint32_t)kh_flit_get(&f, KH_MAT_PEERS);
		m->npeer = (uint8_t)kh_flit_get(&f, KH_MAT_NPEER);
		m->preq = (uint8_t)kh_flit_get(&f, KH_MAT_PREQ);
		m->eoff = (uint8_t)kh_flit_get(&f, KH_MAT_EOFF);
		m->aoff = (uint8_t)kh_flit_get(&f, KH_MAT_AOFF);
		m->boff = (uint8_t)kh_flit_get(&f, KH_MAT_BOFF);
		m->emit = (uint8_t)kh_flit_get(&f, KH_MAT_EMIT);
		m->fuse = (uint8_t)kh_flit_get(&f, KH_MAT_FUSE);
		m->abank = (uint8_t)kh_flit_get(&f, KH_MAT_ABANK);
		m->bbank = (uint8_t)kh_flit_get(&f, KH_MAT_BBANK);
		m->fbank = (uint8_t)kh_flit_get(&f, KH_MAT_FBANK);
		m->dnode = (uint8_t)kh_flit_get(&f, KH_MAT_DNODE);
		m->dst_x = (uint8_t)kh_flit_get(&f, KH_MAT_DST_X);
		m->dst_y = (uint8_t)kh_flit_get(&f, KH_MAT_DST_Y);
		m->dbuf = (uint8_t)kh_flit_get(&f, KH_MAT_DBUF);
		m->dflags = (uint8_t)kh_flit_get(&f, KH_MAT_DFLAGS);
		m->dack_y = (uint8_t)kh_flit_get(&f, KH_MAT_DACK_Y);
		m->dack_x = (uint8_t)kh_flit_get(&f, KH_MAT_DACK_X);
		m->dmesh = (uint8_t)kh_flit_get(&f, KH_MAT_DMESH);
		m->dfin = (uint8_t)kh_flit_get(&f, KH_MAT_DFIN);
	}
	return (unsigned int)kh_flit_get(&f, KH_MAT_OP);
}

/* ---- one GEMM block: shapes, layouts, the program ---- */

KH_RT_EXPORT int kohaku_mat_shape_check(unsigned int m, unsigned int n,
					unsigned int k)
{
	unsigned int gm = m / KH_MAT_SUB, gn = n / KH_MAT_SUB,
		     nk = k / KH_MAT_KBLOCK;

	if (!m || !n || !k || m % KH_MAT_SUB || n % KH_MAT_SUB ||
	    k % KH_MAT_KBLOCK)
		return -EINVAL;
	/* each operand in one L1 bank, one sweep, one drain */
	if (gm * nk > KH_MAT_BANK || gn * nk > KH_MAT_BANK ||
	    gm > 255 || gn > 255 || nk > 255 || gm * gn > KH_MAT_TILES)
		return -EINVAL;
	return 0;
}

KH_RT_EXPORT int kohaku_mat_pack_a(const uint16_t *a, unsigned int m,
				   unsigned int k, uint16_t *out)
{
	unsigned int nk = k / KH_MAT_KBLOCK, g, kb, l, i;

	if (!a || !out || !m || !k || m % KH_MAT_SUB || k % KH_MAT_KBLOCK)
		return -EINVAL;
	/* entry g*nk + kb: rows 4g..4g+3 (lanes), K 32kb..32kb+31 */
	for (g = 0; g < m / KH_MAT_SUB; g++)
		for (kb = 0; kb < nk; kb++)
			for (l = 0; l < KH_MAT_SUB; l++)
				for (i = 0; i < KH_MAT_KBLOCK; i++)
					out[((size_t)g * nk + kb) * KH_MX_ENTRY_ELEMS +
					    l * KH_MAT_KBLOCK + i] =
						a[((size_t)g * KH_MAT_SUB + l) * k +
						  kb * KH_MAT_KBLOCK + i];
	return 0;
}

KH_RT_EXPORT int kohaku_mat_pack_b(const uint16_t *b, unsigned int k,
				   unsigned int n, uint16_t *out)
{
	unsigned int nk = k / KH_MAT_KBLOCK, h, kb, l, i;

	if (!b || !out || !n || !k || n % KH_MAT_SUB || k % KH_MAT_KBLOCK)
		return -EINVAL;
	/* entry h*nk + kb: columns 4h..4h+3 (lanes), each K-contiguous */
	for (h = 0; h < n / KH_MAT_SUB; h++)
		for (kb = 0; kb < nk; kb++)
			for (l = 0; l < KH_MAT_SUB; l++)
				for (i = 0; i < KH_MAT_KBLOCK; i++)
					out[((size_t)h * nk + kb) * KH_MX_ENTRY_ELEMS +
					    l * KH_MAT_KBLOCK + i] =
						b[((size_t)kb * KH_MAT_KBLOCK + i) * n +
						  h * KH_MAT_SUB + l];
	return 0;
}

KH_RT_EXPORT int kohaku_mat_unpack_c(const uint16_t *tiles, unsigned int m,
				     unsigned int n, uint16_t *c)
{
	unsigned int gn = n / KH_MAT_SUB, t, r, j;

	if (!tiles || !c || !m || !n || m % KH_MAT_SUB || n % KH_MAT_SUB)
		return -EINVAL;
	/* sub-tile t = g*gn + h, lane r*4 + j: row-major 4x4 */
	for (t = 0; t < (m / KH_MAT_SUB) * gn; t++)
		for (r = 0; r < KH_MAT_SUB; r++)
			for (j = 0; j < KH_MAT_SUB; j++)
				c[((size_t)(t / gn) * KH_MAT_SUB + r) * n +
				  (t % gn) * KH_MAT_SUB + j] =
					tiles[(size_t)t * 16 + r * KH_MAT_SUB + j];
	return 0;
}

/* FILLs of one operand, at most fill_max entries each: entry e of the
 * operand (at addr + 256 e) into L1 entry e of bank 0 */
static int fill_chunks(struct kohaku_inst *insts, unsigned int cap,
		       unsigned int *at, uint64_t addr, unsigned int entries,
		       unsigned int sel, unsigned int fill_max)
{
	struct kohaku_mat_fields f;
	unsigned int e, chunk;
	int r;

	for (e = 0; e < entries; e += chunk) {
		chunk = entries - e < fill_max ? entries - e : fill_max;
		if (*at >= cap)
			return -ENOSPC;
		memset(&f, 0, sizeof(f));
		f.addr = addr + (uint64_t)e * KH_MX_SRC_BYTES;
		f.n = chunk;
		f.sel = (uint8_t)sel;
		f.eoff = (uint8_t)e;
		r = kohaku_inst_mat_fill(&insts[(*at)++], &f);
		if (r)
			return r;
	}
	return 0;
}

KH_RT_EXPORT int kohaku_mat_gemm_program(struct kohaku_inst *insts,
					 unsigned int cap, uint64_t a_addr,
					 uint64_t b_addr, uint64_t c_addr,
					 unsigned int m, unsigned int n,
					 unsigned int k, unsigned int fill_max)
{
	unsigned int gm = m / KH_MAT_SUB, gn = n / KH_MAT_SUB,
		     nk = k / KH_MAT_KBLOCK, at = 0;
	struct kohaku_mat_fields f;
	int r;

	if (!fill_max)
		fill_max = KOHAKU_MAT_FILL_SHIP;
	if (!insts || fill_max > KOHAKU_MAT_FILL_MAX ||
	    kohaku_mat_shape_check(m, n, k))
		return -EINVAL;
	r = fill_chunks(insts, cap, &at, a_addr, gm * nk, 0, fill_max);
	if (!r)
		r = fill_chunks(insts, cap, &at, b_addr, gn * nk, 1, fill_max);
	if (r)
		return r;
	if (at + 2 > cap)
		return -ENOSPC;
	memset(&f, 0, sizeof(f));
	f.gm = (uint8_t)gm;
	f.gn = (uint8_t)gn;
	f.nk = (uint8_t)nk;
	f.anchor = KH_MX_ANCHOR;
	r = kohaku_inst_mat_gemm(&insts[at++], &f);
	memset(&f, 0, sizeof(f));
	f.addr = c_addr;
	f.n = gm * gn;
	if (!r)
		r = kohaku_inst_mat_drain(&insts[at++], &f);
	return r ? r : (int)at;
}

/* ---- the reference ---- */

/* recip(m8) of mx_quant.v, m8 = 8..15 */
static const long long mat_recip[16] = {
	[8] = 4096, [9] = 3641, [10] = 3277, [11] = 2979,
	[12] = 2731, [13] = 2520, [14] = 2341, [15] = 2185,
};

/* a lane (one block of 32 along K): its E5M3 scale and int7 values */
struct kh_rt_mx_block {
	int q[KH_MAT_KBLOCK];
	unsigned int s;
};

/* MAG's quantiser (mxfp7.md, as mxfp7.py formulates it), one block */
static void mx_block(const uint16_t *h, size_t stride, struct kh_rt_mx_block *b)
{
	long long peak = 0, sig_p, m8, es, ep;
	unsigned int i, ef;

	for (i = 0; i < KH_MAT_KBLOCK; i++)
		if ((h[i * stride] & 0x7fff) > peak)
			peak = h[i * stride] & 0x7fff;
	ef = (unsigned int)(peak >> 10) & 0x1f;
	sig_p = ef ? (1024 | (peak & 0x3ff)) : (peak & 0x3ff);
	ep = ef ? ef : 1;
	while (sig_p && sig_p < 1024) {
		sig_p *= 2;
		ep--;
	}
	/* ceil(sig / 126): 9..15 below 1890, 16 up to 2016 (m8 8, exponent
	 * up by one), 17 above (m8 9) */
	m8 = (sig_p + 125) / 126;
	es = m8 >= 16 ? ep - 20 : ep - 21;
	m8 = m8 == 17 ? 9 : m8 == 16 ? 8 : m8;
	es = es < -20 ? -20 : es > 11 ? 11 : es;
	if (!sig_p) {
		es = 0;
		m8 = 8;
	}
	for (i = 0; i < KH_MAT_KBLOCK; i++) {
		uint16_t v = h[i * stride];
		long long e = (v >> 10) & 0x1f, fr = v & 0x3ff;
		long long sig = e ? (1024 | fr) : fr, prod, sh, mag;

		if (!e)
			e = 1;
		prod = sig * mat_recip[m8];
		sh = 37 + es - e;
		/* half up on the bit below; t >= 8 (sh > 40) is zero */
		mag = sh > 40 ? 0 : (prod >> sh) + ((prod >> (sh - 1)) & 1);
		b->q[i] = (int)(mag > KH_MX_INT_MAX ? KH_MX_INT_MAX : mag);
		if (v & 0x8000)
			b->q[i] = -b->q[i];
	}
	b->s = (unsigned int)(((es + KH_MX_SBIAS) << 3) | (m8 - 8));
}

/* round |x| to 15 significant bits, nearest even, `lost` as a sticky */
static double fp22_round(double x, bool lost)
{
	double a = fabs(x), sc, q, fr;
	int e;

	if (a == 0)
		return 0;
	e = ilogb(a);
	sc = ldexp(a, KH_MAT_FP22_MW - e);
	q = floor(sc);
	fr = sc - q;
	if (fr > 0.5 || (fr == 0.5 && (lost || fmod(q, 2) == 1)))
		q += 1;
	return copysign(ldexp(q, e - KH_MAT_FP22_MW), x);
}

/* FP22 a + b (mx_fpacc_align/round): the smaller truncated to 8 guard
 * bits below the larger's LSB, what fell off only a sticky */
static double fp22_add(double a, double b)
{
	double big, small, grid, t;
	bool lost;

	if (a == 0)
		return b;
	if (b == 0)
		return a;
	big = fabs(a) >= fabs(b) ? a : b;
	small = fabs(a) >= fabs(b) ? b : a;
	grid = ldexp(1, ilogb(big) - KH_MAT_FP22_MW - 8);
	t = floor(fabs(small) / grid) * grid;
	lost = t != fabs(small);
	if ((big < 0) != (small < 0))
		t = fabs(big) - t;
	else
		t = fabs(big) + t;
	return t == 0 ? 0 : copysign(fp22_round(t, lost), big);
}

/* mx_fpacc_to_fp16: nearest even, flush below normal, saturate */
static uint16_t fp22_to_fp16(double v)
{
	double a = fabs(v), sc, q, fr;
	unsigned int s = signbit(v) ? 0x8000 : 0;
	int e;

	if (a == 0)
		return (uint16_t)s;
	e = ilogb(a);
	sc = ldexp(a, 10 - e);
	q = floor(sc);
	fr = sc - q;
	if (fr > 0.5 || (fr == 0.5 && fmod(q, 2) == 1))
		q += 1;
	if (q == 2048) {
		q = 1024;
		e++;
	}
	if (e < -14)
		return (uint16_t)s;
	if (e > 15)
		return (uint16_t)(s | 0x7bff);
	return (uint16_t)(s | ((e + 15) << 10) | ((unsigned int)q & 0x3ff));
}

/* one K block of a row against a column: the exact integer
 * sum * (8 + Ma)(8 + Mb) at exponent Ea + Eb - anchor - 6 */
static void block_term(const struct kh_rt_mx_block *a,
		       const struct kh_rt_mx_block *b, long long *x, int *e)
{
	long long c = 0;
	unsigned int i;

	for (i = 0; i < KH_MAT_KBLOCK; i++)
		c += a->q[i] * b->q[i];
	*x = c * (8 + KH_MX_SCALE_M(a->s)) * (8 + KH_MX_SCALE_M(b->s));
	*e = (int)KH_MX_SCALE_E(a->s) + (int)KH_MX_SCALE_E(b->s) -
	     KH_MX_ANCHOR - 6;
}

/* one sweep command: K blocks kb and kb + 1 merged in fixed point (the
 * smaller exponent's term shifted right, at most 30, truncated with no
 * sticky), then rounded to FP22; a lone block alone */
static double pair_partial(const struct kh_rt_mx_block *a,
			   const struct kh_rt_mx_block *b, bool single)
{
	long long x0, x1, big, small, t;
	int e0, e1, sh;

	block_term(&a[0], &b[0], &x0, &e0);
	if (single)
		return fp22_round(ldexp((double)x0, e0), false);
	block_term(&a[1], &b[1], &x1, &e1);
	big = e1 >= e0 ? x1 : x0;
	small = e1 >= e0 ? x0 : x1;
	sh = abs(e1 - e0);
	if (sh > 30)
		sh = 30;
	t = llabs(small) >> sh;
	t = small < 0 ? -t : t;
	return fp22_round(ldexp((double)(big + t), e1 >= e0 ? e1 : e0), false);
}

KH_RT_EXPORT int kohaku_mat_gemm_ref(const uint16_t *a, const uint16_t *b,
				     unsigned int m, unsigned int n,
				     unsigned int k, uint16_t *c)
{
	unsigned int nk = k / KH_MAT_KBLOCK, i, j, kb;
	struct kh_rt_mx_block *qa, *qb;

	if (!a || !b || !c || kohaku_mat_shape_check(m, n, k))
		return -EINVAL;
	qa = calloc((size_t)m * nk, sizeof(*qa));
	qb = calloc((size_t)n * nk, sizeof(*qb));
	if (!qa || !qb) {
		free(qa);
		free(qb);
		return -ENOMEM;
	}
	/* a lane of A is a row, of B a column, 32 K each: blocks [i][kb] */
	for (i = 0; i < m; i++)
		for (kb = 0; kb < nk; kb++)
			mx_block(a + (size_t)i * k + kb * KH_MAT_KBLOCK, 1,
				 &qa[(size_t)i * nk + kb]);
	for (j = 0; j < n; j++)
		for (kb = 0; kb < nk; kb++)
			mx_block(b + (size_t)kb * KH_MAT_KBLOCK * n + j, n,
				 &qb[(size_t)j * nk + kb]);
	/* the sweep: K blocks two at a time, LOAD on the first, then FP22 adds */
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			double acc = 0;

			for (kb = 0; kb < nk; kb += 2) {
				double p = pair_partial(&qa[(size_t)i * nk + kb],
							&qb[(size_t)j * nk + kb],
							kb + 1 >= nk);

				acc = kb ? fp22_add(acc, p) : p;
			}
			c[(size_t)i * n + j] = fp22_to_fp16(acc);
		}
	free(qa);
	free(qb);
	return 0;
}
