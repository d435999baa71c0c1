// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The matmul cluster unit `mat` (docs/spec/mat.md) on a card with two
 * clusters and a MAG port, against an independent reference in host
 * doubles: the quantiser as compiler/kohakutpu/hw/mxfp7.py formulates it,
 * exact int7 dot products, FP22 (S1 E7 M14) rounding to nearest even with
 * the RTL's documented alignment (8 guard bits, a sticky for what falls
 * off), FP16 rounding with flush and saturation.  One test per behaviour:
 * FILL through MAG's QUANT path into L1 (and preq, banks, the tag wrap),
 * GEMM blocks against the reference, DRAIN bursts to DRAM, DRAIN to a
 * node's buffer 2 (peer accumulate), CU_DATA buffers and rejections, the
 * signal's hold on the receive path, a second sender spliced in,
 * unknown opcodes, exec_result, the model's refusals, and timing.
 */
#include <math.h>
#include "mhelp.h"
#include "base.h"
#include "mxfp7.h"
#include "units/mat/mat.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define MAP	"xxx mat xxx\nmag nul nul\nxxx mat xxx\n"
#define UX	1
#define UY0	0
#define UY1	2
#define A_BASE	0x100000ULL
#define B_BASE	0x200000ULL
#define C_BASE	0x400000ULL

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* ---------------------------------------------------------- reference */

static int anchor_shift;	/* 40 - anchor */

static const long long recip_py[16] = {
	[8] = 4096, [9] = 3641, [10] = 3277, [11] = 2979,
	[12] = 2731, [13] = 2520, [14] = 2341, [15] = 2185,
};

/* mxfp7.py quantise_fp16, one block of 32: the scale byte and q[] */
static unsigned int ref_block(const u16 *h, int *q)
{
	long long peak = 0, sig_p, m8, es, ep;
	unsigned int i, ef;

	for (i = 0; i < 32; i++)
		if ((h[i] & 0x7fff) > peak)
			peak = h[i] & 0x7fff;
	ef = (unsigned int)(peak >> 10) & 0x1f;
	sig_p = ef ? (1024 | (peak & 0x3ff)) : (peak & 0x3ff);
	ep = ef ? ef : 1;
	while (sig_p && sig_p < 1024) {
		sig_p *= 2;
		ep--;
	}
	m8 = (sig_p + 125) / 126;
	es = m8 >= 16 ? ep - 20 : ep - 21;
	m8 = m8 == 17 ? 9 : m8 == 16 ? 8 : m8;
	es = es < -20 ? -20 : es > 11 ? 11 : es;
	if (!sig_p) {
		es = 0;
		m8 = 8;
	}
	for (i = 0; i < 32; i++) {
		long long e = (h[i] >> 10) & 0x1f, f = h[i] & 0x3ff;
		long long sig = e ? (1024 | f) : f, prod, sh, mag;

		if (!e)
			e = 1;
		prod = sig * recip_py[m8];
		sh = 37 + es - e;
		mag = sh > 40 ? 0 : (prod >> sh) + ((prod >> (sh - 1)) & 1);
		q[i] = (int)(mag > 63 ? 63 : mag);
		if (h[i] & 0x8000)
			q[i] = -q[i];
	}
	return (unsigned int)(((es + 20) << 3) | (m8 - 8));
}

/* an entry's 4 lanes of 32 FP16 (lane = row of A or column of B) */
struct ref_ent {
	int q[4][32];
	unsigned int s[4];
};

static void ref_entry(const u16 *src, struct ref_ent *e)
{
	unsigned int l;

	for (l = 0; l < 4; l++)
		e->s[l] = ref_block(src + 32 * l, e->q[l]);
}

/* round |x| to 15 significant bits, nearest even, `lost` as a sticky */
static double rnd15(double x, bool lost)
{
	double a = fabs(x), sc, q, fr;
	int e;

	if (a == 0)
		return 0;
	e = ilogb(a);
	sc = ldexp(a, 14 - e);
	q = floor(sc);
	fr = sc - q;
	if (fr > 0.5 || (fr == 0.5 && (lost || fmod(q, 2) == 1)))
		q += 1;
	return copysign(ldexp(q, e - 14), x);
}

/* FP22 a + b as mx_fpacc_align/round document it */
static double add22(double a, double b)
{
	double big, small, grid, t;
	bool lost;

	if (a == 0)
		return b;
	if (b == 0)
		return a;
	big = fabs(a) >= fabs(b) ? a : b;
	small = fabs(a) >= fabs(b) ? b : a;
	grid = ldexp(1, ilogb(big) - 14 - 8);
	t = floor(fabs(small) / grid) * grid;
	lost = t != fabs(small);
	if ((big < 0) != (small < 0))
		t = fabs(big) - t;
	else
		t = fabs(big) + t;
	return t == 0 ? 0 : copysign(rnd15(t, lost), big);
}

static u16 to_fp16(double v)
{
	double a = fabs(v), sc, q, fr;
	unsigned int s = signbit(v) ? 0x8000 : 0;
	int e;

	if (a == 0)
		return (u16)s;
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
		return (u16)s;
	if (e > 15)
		return (u16)(s | 0x7bff);
	return (u16)(s | ((e + 15) << 10) | ((unsigned int)q & 0x3ff));
}

/* K block: row i of A entry ea against column j of B entry eb, as the
 * exact integer x = sum * (8 + Ma)(8 + Mb) at exponent e (anchor applied) */
static void block_term(const struct ref_ent *ea, const struct ref_ent *eb,
		       unsigned int i, unsigned int j, long long *x, int *e)
{
	long long c = 0;
	unsigned int k;

	for (k = 0; k < 32; k++)
		c += ea->q[i][k] * eb->q[j][k];
	*x = c * (8 + (ea->s[i] & 7)) * (8 + (eb->s[j] & 7));
	*e = (int)(ea->s[i] >> 3) + (int)(eb->s[j] >> 3) - 40 + anchor_shift - 6;
}

/* One command of the double-pumped sweep: K blocks kb and kb + 1 merged
 * in fixed point, the smaller exponent's term truncated toward zero
 * (shift at most 30), then rounded to FP22; a lone block alone. */
static double pair_partial(const struct ref_ent *a0, const struct ref_ent *b0,
			   const struct ref_ent *a1, const struct ref_ent *b1,
			   bool single, unsigned int i, unsigned int j)
{
	long long x0, x1, big, small, t;
	int e0, e1, sh;

	block_term(a0, b0, i, j, &x0, &e0);
	if (single)
		return rnd15(ldexp((double)x0, e0), false);
	block_term(a1, b1, i, j, &x1, &e1);
	big = e1 >= e0 ? x1 : x0;
	small = e1 >= e0 ? x0 : x1;
	sh = abs(e1 - e0);
	if (sh > 30)
		sh = 30;
	t = llabs(small) >> sh;
	t = small < 0 ? -t : t;
	return rnd15(ldexp((double)(big + t), e1 >= e0 ? e1 : e0), false);
}

static u16 rnd_fp16(int elo, int ehi)
{
	unsigned int e = (unsigned int)(elo + (int)(rnd() % (u64)(ehi - elo + 1)));

	if (rnd() % 16 == 0)
		return 0;
	return (u16)(((rnd() & 1) << 15) | (e << 10) | (rnd() & 0x3ff));
}

/* ---------------------------------------------------------- the card */

struct matf {
	unsigned int op;
	u64 addr;
	unsigned int n, sel, acc, gm, gn, nk, anchor, preq, eoff, aoff, boff;
	unsigned int emit, fuse, abank, bbank, fbank, dnode, dx, dy, dbuf;
	unsigned int dflags, dacky, dackx, dmesh, dfin, npeer;
	u32 peers;
};

static void mat_flit(struct kh_flit *f, unsigned int x, unsigned int y,
		     const struct matf *m, unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, x, y, 0, 0, KH_T_CU_INST, txn, 0);
	kh_flit_set(f, KH_MAT_OP, m->op);
	kh_flit_set(f, KH_MAT_ADDR_LO, m->addr & ((1ULL << 34) - 1));
	kh_flit_set(f, KH_MAT_ADDR_HI, m->addr >> 34);
	kh_flit_set(f, KH_MAT_N, m->n);
	kh_flit_set(f, KH_MAT_SEL, m->sel);
	kh_flit_set(f, KH_MAT_ACC, m->acc);
	kh_flit_set(f, KH_MAT_GM, m->gm);
	kh_flit_set(f, KH_MAT_GN, m->gn);
	kh_flit_set(f, KH_MAT_NK, m->nk);
	kh_flit_set(f, KH_MAT_ANCHOR, m->anchor);
	kh_flit_set(f, KH_MAT_PEERS, m->peers);
	kh_flit_set(f, KH_MAT_NPEER, m->npeer);
	kh_flit_set(f, KH_MAT_PREQ, m->preq);
	kh_flit_set(f, KH_MAT_EOFF, m->eoff);
	kh_flit_set(f, KH_MAT_AOFF, m->aoff);
	kh_flit_set(f, KH_MAT_BOFF, m->boff);
	kh_flit_set(f, KH_MAT_EMIT, m->emit);
	kh_flit_set(f, KH_MAT_FUSE, m->fuse);
	kh_flit_set(f, KH_MAT_ABANK, m->abank);
	kh_flit_set(f, KH_MAT_BBANK, m->bbank);
	kh_flit_set(f, KH_MAT_FBANK, m->fbank);
	kh_flit_set(f, KH_MAT_DNODE, m->dnode);
	kh_flit_set(f, KH_MAT_DST_X, m->dx);
	kh_flit_set(f, KH_MAT_DST_Y, m->dy);
	kh_flit_set(f, KH_MAT_DBUF, m->dbuf);
	kh_flit_set(f, KH_MAT_DFLAGS, m->dflags);
	kh_flit_set(f, KH_MAT_DACK_Y, m->dacky);
	kh_flit_set(f, KH_MAT_DACK_X, m->dackx);
	kh_flit_set(f, KH_MAT_DMESH, m->dmesh);
	kh_flit_set(f, KH_MAT_DFIN, m->dfin);
}

/* Issue one instruction to (x, y) and wait for its completion. */
static u64 mat_run(struct ksim_card *c, unsigned int y, const struct matf *m)
{
	unsigned int base = KH_NS_COUNT(mh_ns(c, UX, y));
	struct kh_flit f;

	mat_flit(&f, UX, y, m, 0x42);
	mh_mb_send(c, &f);
	CHECK_MSG(mh_wait_count(c, UX, y, base + 1, 200000),
		  "mat (%u,%u) op %u: no completion", UX, y, m->op);
	return mh_ns(c, UX, y);
}

static struct ksim_mat *mat_of(struct ksim_card *c, unsigned int y)
{
	return ksim_unit_priv(ksim_unit_at(c, 0, UX, y));
}

static void put_fp16(struct ksim_card *c, u64 addr, const u16 *v, size_t n)
{
	u8 *b = malloc(2 * n);
	size_t i;

	REQUIRE(b);
	for (i = 0; i < n; i++) {
		b[2 * i] = (u8)v[i];
		b[2 * i + 1] = (u8)(v[i] >> 8);
	}
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, addr), b, 2 * n), 0);
	free(b);
}

/* Wait for `writes` more bursts to land (AUX_STAT write count). */
static void wait_writes(struct ksim_card *c, unsigned int base,
			unsigned int writes)
{
	unsigned int i;

	for (i = 0; i < 2000; i++)
		if (((KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)) - base) &
		     0xffff) >= writes)
			return;
	CHECK_MSG(0, "writes did not land");
}

/* Operands: A is gm row groups x nk K blocks, B gn column groups x nk. */
struct gemm {
	unsigned int gm, gn, nk;
	u16 *a, *b;			/* entries of 128 FP16, as uploaded */
	struct ref_ent *ra, *rb;
};

static void gemm_make(struct gemm *g, unsigned int gm, unsigned int gn,
		      unsigned int nk, int elo, int ehi)
{
	unsigned int i;

	g->gm = gm;
	g->gn = gn;
	g->nk = nk;
	g->a = calloc((size_t)gm * nk * 128, 2);
	g->b = calloc((size_t)gn * nk * 128, 2);
	g->ra = calloc((size_t)gm * nk, sizeof(*g->ra));
	g->rb = calloc((size_t)gn * nk, sizeof(*g->rb));
	REQUIRE(g->a && g->b && g->ra && g->rb);
	for (i = 0; i < gm * nk * 128; i++)
		g->a[i] = rnd_fp16(elo, ehi);
	for (i = 0; i < gn * nk * 128; i++)
		g->b[i] = rnd_fp16(elo, ehi);
	for (i = 0; i < gm * nk; i++)
		ref_entry(g->a + 128 * i, &g->ra[i]);
	for (i = 0; i < gn * nk; i++)
		ref_entry(g->b + 128 * i, &g->rb[i]);
}

static void gemm_free(struct gemm *g)
{
	free(g->a);
	free(g->b);
	free(g->ra);
	free(g->rb);
}

/* The reference tile value of sub-tile (gi, hi), lane (i, j), after a
 * GEMM over K blocks [k0, k1) (nk = k1 - k0) onto `acc` (or opened when
 * `load`): one FP22 add per pair of K blocks. */
static double ref_elem(const struct gemm *g, unsigned int gi, unsigned int hi,
		       unsigned int i, unsigned int j, unsigned int k0,
		       unsigned int k1, double acc, bool load)
{
	unsigned int kb;

	for (kb = k0; kb < k1; kb += 2) {
		const struct ref_ent *a0 = &g->ra[gi * g->nk + kb];
		const struct ref_ent *b0 = &g->rb[hi * g->nk + kb];
		bool single = kb + 1 >= k1;
		double p = pair_partial(a0, b0, single ? a0 : a0 + 1,
					single ? b0 : b0 + 1, single, i, j);

		acc = (kb == k0 && load) ? p : add22(acc, p);
	}
	return acc;
}

/* FILL A and B of a gemm into cluster y from DRAM through QUANT. */
static void gemm_fill(struct ksim_card *c, unsigned int y, struct gemm *g,
		      unsigned int aoff, unsigned int boff)
{
	struct matf m = { .op = KH_MAT_OP_FILL };
	u64 ns;

	put_fp16(c, A_BASE, g->a, (size_t)g->gm * g->nk * 128);
	put_fp16(c, B_BASE, g->b, (size_t)g->gn * g->nk * 128);
	m.addr = A_BASE;
	m.n = g->gm * g->nk;
	m.eoff = aoff;
	ns = mat_run(c, y, &m);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	m.addr = B_BASE;
	m.n = g->gn * g->nk;
	m.sel = 1;
	m.eoff = boff;
	ns = mat_run(c, y, &m);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
}

/* DRAIN n sub-tiles of cluster y to C_BASE and read them back. */
static void drain_to(struct ksim_card *c, unsigned int y, unsigned int n,
		     u16 *out)
{
	struct matf m = { .op = KH_MAT_OP_DRAIN, .addr = C_BASE, .n = n };
	unsigned int w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)), i;
	u8 *b = malloc(32 * n);
	u64 ns;

	REQUIRE(b);
	ns = mat_run(c, y, &m);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	/* a burst of 8 sub-tiles per MEM_WR_REQ */
	wait_writes(c, w0, (n + 7) / 8);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, C_BASE), b, 32 * n), 0);
	for (i = 0; i < 16 * n; i++)
		out[i] = (u16)(b[2 * i] | (b[2 * i + 1] << 8));
	free(b);
}

static unsigned long fails;

static void check_l1(struct ksim_mat *m, unsigned int sel, unsigned int idx,
		     const struct ref_ent *r, const char *what)
{
	const struct ksim_mat_ent *e = &m->l1[sel][idx];
	unsigned int l, k;

	for (l = 0; l < 4; l++) {
		if (e->s[l] != r->s[l] && fails++ < 10)
			check_fail_at(__FILE__, __LINE__,
				    "%s L1 %c[%u] lane %u: scale %02x, want %02x",
				    what, sel ? 'B' : 'A', idx, l, e->s[l],
				    r->s[l]);
		for (k = 0; k < 32; k++)
			if (e->q[l * 32 + k] != r->q[l][k] && fails++ < 10)
				check_fail_at(__FILE__, __LINE__,
					    "%s L1 %c[%u] lane %u k %u: %d, want %d",
					    what, sel ? 'B' : 'A', idx, l, k,
					    e->q[l * 32 + k], r->q[l][k]);
	}
}

/* ---------------------------------------------------------- tests */

TEST_F(model, caps_and_identity)
{
	struct ksim_card *c = mh_card(MAP);
	struct kh_flit r;
	u64 caps;

	REQUIRE(c);
	REQUIRE(mh_ctrl_read(c, UX, UY0, KH_CTRL_IDX_CAPS, 1, &r));
	caps = mh_ctrl_value(&r);
	CHECK_EQ((caps >> KH_CAPS_CU_TYPE_SHIFT) & 0xffff, KH_CU_MG);
	CHECK_EQ((caps >> KH_CAPS_VERSION_SHIFT) & 0xff, KH_MAT_VERSION);
	/* N_BUFFERS 2, though buffer 2 is accepted (RTL quirk) */
	CHECK_EQ((caps >> KH_CAPS_NBUF_SHIFT) & 0xf, 2);
	ksim_card_destroy(c);
}

TEST_F(model, fill_from_dram_through_quant_into_l1)
{
	struct ksim_card *c = mh_card(MAP);
	struct gemm g;
	struct ksim_mat *m;
	unsigned int i;

	REQUIRE(c);
	gemm_make(&g, 3, 2, 2, 0, 30);		/* every binade, zeros */
	gemm_fill(c, UY0, &g, 10, 200);
	m = mat_of(c, UY0);
	fails = 0;
	for (i = 0; i < 6; i++)
		check_l1(m, 0, 10 + i, &g.ra[i], "A");
	for (i = 0; i < 4; i++)
		check_l1(m, 1, 200 + i, &g.rb[i], "B");
	CHECK_EQ(fails, 0);
	gemm_free(&g);
	ksim_card_destroy(c);
}

TEST_F(model, fill_preq_bank_and_tag_wrap)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf f = { .op = KH_MAT_OP_FILL };
	u16 src[10 * 128];
	struct ref_ent r[10];
	struct ksim_mat *m;
	unsigned int i;
	u8 *b = malloc(sizeof(src));

	REQUIRE(c && b);
	for (i = 0; i < 10 * 128; i++)
		src[i] = rnd_fp16(5, 25);
	for (i = 0; i < 10; i++)
		ref_entry(src + 128 * i, &r[i]);
	for (i = 0; i < 10 * 128; i++) {
		b[2 * i] = (u8)src[i];
		b[2 * i + 1] = (u8)(src[i] >> 8);
	}
	/* quantised on upload (aperture 5, B packing), fetched with preq */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_AP(0, KH_AP_QUANT_B, 0x300000),
				b, sizeof(src)), 0);
	f.addr = 0x300000;
	f.n = 10;
	f.sel = 1;
	f.preq = 1;
	f.eoff = 250;			/* the tag wraps: 250..255, 0..3 */
	f.fbank = 1;
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY1, &f)), KH_SIG_INST_COMPLETE);
	m = mat_of(c, UY1);
	fails = 0;
	for (i = 0; i < 10; i++)
		check_l1(m, 1, 256 + ((250 + i) & 0xff), &r[i], "preq");
	CHECK_EQ(fails, 0);
	/* bank 0 and side A untouched */
	CHECK_EQ(m->l1[1][250].s[0], 0);
	CHECK_EQ(m->l1[0][256 + 250].s[0], 0);
	/* n = 0 means 1 entry */
	f.n = 0;
	f.eoff = 7;
	f.fbank = 0;
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY1, &f)), KH_SIG_INST_COMPLETE);
	fails = 0;
	check_l1(m, 1, 7, &r[0], "n=0");
	CHECK_EQ(fails, 0);
	CHECK_EQ(m->l1[1][8].s[0], 0);
	free(b);
	ksim_card_destroy(c);
}

/* n >= 256: the descriptor carries n[7:0] entries, the sequencer waits
 * for n with an 8-bit counter, so the FILL never retires (RTL L838). */
TEST_F(model, fill_of_256_entries_hangs_as_the_rtl)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	struct matf f = { .op = KH_MAT_OP_FILL, .addr = A_BASE, .n = 256,
			  .eoff = 9 };
	struct ksim_mat *m = mat_of(c, UY0);
	u16 src[128];
	struct kh_flit fl;
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 128; i++)
		src[i] = 0x3c00;		/* 1.0 */
	put_fp16(c, A_BASE, src, 128);
	mat_flit(&fl, UX, UY0, &f, 1);
	mh_mb_send(c, &fl);
	ksim_run(c, 20000);
	CHECK_EQ(u->n_accepted, 1);
	CHECK_EQ(u->n_retired, 0);
	CHECK_EQ(m->st, KSIM_MAT_FILL);
	CHECK_EQ(m->rcv_ent, 1);		/* count 0 is one entry at MAG */
	CHECK_EQ(m->l1[0][9].q[0], 57);
	ksim_card_destroy(c);
}

/* One GEMM over gm x gn x nk, drained, every element bit-exact. */
static void gemm_case(unsigned int gm, unsigned int gn, unsigned int nk,
		      int elo, int ehi, unsigned int anchor)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf m = { .op = KH_MAT_OP_GEMM, .anchor = KH_MX_ANCHOR };
	unsigned int n = gm * gn, t, l, bad = 0;
	struct gemm g;
	u16 *out = calloc((size_t)n * 16, 2);

	REQUIRE(c && out);
	gemm_make(&g, gm, gn, nk, elo, ehi);
	gemm_fill(c, UY0, &g, 3, 17);
	anchor_shift = 40 - (int)anchor;
	m.anchor = anchor;
	m.gm = gm;
	m.gn = gn;
	m.nk = nk;
	m.aoff = 3;
	m.boff = 17;
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &m)), KH_SIG_INST_COMPLETE);
	drain_to(c, UY0, n, out);
	for (t = 0; t < n; t++)
		for (l = 0; l < 16; l++) {
			double v = ref_elem(&g, t / gn, t % gn, l / 4, l % 4,
					    0, nk, 0, true);
			u16 want = to_fp16(v);

			if (out[16 * t + l] != want && bad++ < 5)
				CHECK_MSG(0, "%ux%ux%u: sub-tile %u lane %u = %04x, want %04x (%g)",
					  gm, gn, nk, t, l, out[16 * t + l],
					  want, v);
		}
	CHECK_EQ(bad, 0);
	anchor_shift = 0;
	gemm_free(&g);
	free(out);
	ksim_card_destroy(c);
}

TEST_F(model, gemm_blocks_against_the_reference)
{
	gemm_case(1, 1, 1, 10, 20, 40);
	gemm_case(1, 1, 4, 10, 20, 40);	/* paced: 4 idle cycles per issue */
	gemm_case(2, 1, 3, 12, 18, 40);
	gemm_case(2, 2, 5, 8, 22, 40);
	gemm_case(3, 5, 4, 13, 17, 40);	/* wide */
	gemm_case(4, 4, 8, 14, 16, 40);	/* a long K: many FP22 adds */
	/* every binade: FP16 flush and saturation on the way out */
	gemm_case(2, 3, 3, 0, 30, 40);
	/* another anchor scales the result by 2^(40 - anchor) */
	gemm_case(2, 2, 2, 10, 20, 46);
	gemm_case(2, 2, 2, 10, 20, 35);
}

/* acc: K split over two GEMMs chained onto one resident tile; banks. */
TEST_F(model, gemm_acc_chains_k_and_banks)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf m = { .op = KH_MAT_OP_GEMM, .anchor = KH_MX_ANCHOR };
	struct matf f = { .op = KH_MAT_OP_FILL };
	unsigned int t, l, bad = 0;
	struct gemm g;
	u16 out[4 * 16];

	REQUIRE(c);
	gemm_make(&g, 2, 2, 4, 10, 20);
	put_fp16(c, A_BASE, g.a, 2 * 4 * 128);
	put_fp16(c, B_BASE, g.b, 2 * 4 * 128);
	/* everything in bank 1 of both sides */
	f.addr = A_BASE;
	f.n = 8;
	f.fbank = 1;
	mat_run(c, UY0, &f);
	f.addr = B_BASE;
	f.sel = 1;
	mat_run(c, UY0, &f);
	/* entries g*4 + kb in bank 1: per sub-tile, K blocks 0-1 opened
	 * (acc 0), then 2-3 chained on (acc 1) */
	m.gm = m.gn = 1;
	m.nk = 2;
	m.abank = m.bbank = 1;
	for (t = 0; t < 4; t++) {
		unsigned int gi = t / 2, hi = t % 2;

		m.acc = 0;
		m.aoff = gi * 4;
		m.boff = hi * 4;
		/* the tile address is g*gn + h = 0: drain each one */
		mat_run(c, UY0, &m);
		m.acc = 1;
		m.aoff = gi * 4 + 2;
		m.boff = hi * 4 + 2;
		mat_run(c, UY0, &m);
		drain_to(c, UY0, 1, out + 16 * t);
	}
	for (t = 0; t < 4; t++)
		for (l = 0; l < 16; l++) {
			unsigned int gi = t / 2, hi = t % 2;
			double v = ref_elem(&g, gi, hi, l / 4, l % 4, 0, 2, 0,
					    true);
			u16 want;

			v = ref_elem(&g, gi, hi, l / 4, l % 4, 2, 4, v, false);
			want = to_fp16(v);
			if (out[16 * t + l] != want && bad++ < 5)
				CHECK_MSG(0, "acc: sub-tile %u lane %u = %04x, want %04x",
					  t, l, out[16 * t + l], want);
		}
	CHECK_EQ(bad, 0);
	gemm_free(&g);
	ksim_card_destroy(c);
}

/* DRAIN: bursts of 8, the tail burst, sub-tile t at addr + 32 t. */
TEST_F(model, drain_bursts_to_dram)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf m = { .op = KH_MAT_OP_DRAIN, .addr = C_BASE };
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	struct ksim_mat *mm = mat_of(c, UY0);
	unsigned int t, l, w0, n = 21;
	u8 b[32 * 22];

	REQUIRE(c);
	/* known tile contents: 1.0 * (t + 1) in lane l's position */
	for (t = 0; t < n + 1; t++)
		for (l = 0; l < 16; l++)
			mm->tile[t][l] = ((u32)(63 + 4) << 14) |
					 ((t * 16 + l) & 0x3fff);
	mm->tile[3][5] = KH_MAT_FP22_SIGN | (20u << 14);	/* tiny: -0 */
	mm->tile[4][6] = 0x7f << 14;			/* 2^64: saturates */
	mm->tile[5][7] = 7;				/* exponent 0: zero */
	memset(b, 0xa5, sizeof(b));
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, C_BASE), b, sizeof(b)), 0);
	w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
	m.n = n;
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &m)), 1);
	/* retired with nothing left in the unit */
	CHECK_EQ(mm->w_st, 0);
	CHECK_EQ(mm->dq_count, 0);
	CHECK_EQ(u->dropped, 0);
	wait_writes(c, w0, 3);		/* 8 + 8 + 5 */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, C_BASE), b, sizeof(b)), 0);
	for (t = 0; t < n; t++)
		for (l = 0; l < 16; l++) {
			u16 got = (u16)(b[32 * t + 2 * l] | (b[32 * t + 2 * l + 1] << 8));
			double v = ldexp(1 + ((t * 16 + l) & 0x3fff) / 16384.0, 4);
			u16 want = to_fp16(v);

			if (t == 3 && l == 5)
				want = 0x8000;
			if (t == 4 && l == 6)
				want = 0x7bff;
			if (t == 5 && l == 7)
				want = 0;
			CHECK_MSG(got == want, "t %u l %u: %04x want %04x", t, l,
				  got, want);
		}
	/* nothing past the last sub-tile */
	CHECK_EQ(b[32 * n], 0xa5);
	ksim_card_destroy(c);
}

/* CU_DATA into buffers 0 and 1, the signal, and each rejection rule. */
static void send_burst(struct ksim_card *c, unsigned int y, unsigned int buf,
		       unsigned int off, unsigned int len, unsigned int flags,
		       u64 (*data)[4])
{
	struct kh_flit f;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, UX, y, 0, 0, KH_T_CU_DATA, 0x77, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, off);
	kh_flit_set(&f, KH_DATA_LEN, len);
	kh_flit_set(&f, KH_DATA_FLAGS, flags);
	mh_mb_send(c, &f);
	for (i = 0; i <= len; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, UX, y, 0, 0, KH_T_CU_DATA, 0x77, i == len);
		memcpy(f.w, data[i], sizeof(data[i]));
		mh_mb_send(c, &f);
	}
}

TEST_F(model, cu_data_buffers_and_rejections)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf nop = { .op = 0 };
	struct ksim_mat *m = mat_of(c, UY0);
	u64 data[8][4], ns;
	unsigned int i, k, base;
	u8 fp[128];
	u16 src[128];
	struct ref_ent r;

	REQUIRE(c);
	/* a quantised entry (A packing) as four granules, as MAG sends it */
	for (i = 0; i < 128; i++)
		src[i] = rnd_fp16(10, 20);
	ref_entry(src, &r);
	{
		u8 in[256];

		for (i = 0; i < 128; i++) {
			in[2 * i] = (u8)src[i];
			in[2 * i + 1] = (u8)(src[i] >> 8);
		}
		ksim_mxfp7_entry(in, false, fp);
	}
	for (i = 0; i < 4; i++)
		for (k = 0; k < 4; k++)
			memcpy(&data[i][k], fp + 32 * i + 8 * k, 8);
	/* buffer 0, entry 300 = granule 1200, with the signal */
	base = KH_NS_COUNT(mh_ns(c, UX, UY0));
	send_burst(c, UY0, KH_MAT_BUF_L1A, 4 * 300, 3, KH_DATAF_SIGNAL, data);
	CHECK(mh_wait_count(c, UX, UY0, base + 1, 10000));
	ns = mh_ns(c, UX, UY0);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(KH_NS_ARG(ns), KH_MAT_BUF_L1A);
	fails = 0;
	check_l1(m, 0, 300, &r, "cu_data A");
	CHECK_EQ(fails, 0);
	/* the scales come from word 0 only: other words' scale bytes differ */
	for (i = 1; i < 4; i++)
		data[i][0] ^= 0xffffffffULL;
	send_burst(c, UY0, KH_MAT_BUF_L1A, 4 * 301, 3, 0, data);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &nop)), KH_SIG_INST_COMPLETE);
	for (k = 0; k < 4; k++)
		CHECK_EQ(m->l1[0][301].s[k], r.s[k]);
	for (i = 1; i < 4; i++)
		data[i][0] ^= 0xffffffffULL;
	/* buffer 1: the same bytes placed in the B packing, no signal */
	send_burst(c, UY0, KH_MAT_BUF_L1B, 4 * 511, 3, 0, data);
	ns = mat_run(c, UY0, &nop);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(m->l1[1][511].s[2], r.s[2]);
	/* element o = 5 of word 0 is lane 1 k 1 in B, lane 0 k 5 in A */
	CHECK_EQ(m->l1[1][511].q[1 * 32 + 1], r.q[0][5]);
	/* rejections: past the end, unknown buffer, odd peer offset, peer
	 * past the tile; each still acked, counted out, faults once */
	send_burst(c, UY0, KH_MAT_BUF_L1A, 4 * 511 + 1, 3, KH_DATAF_SIGNAL, data);
	CHECK(mh_wait_count(c, UX, UY0, base + 4, 10000));
	CHECK_EQ(KH_NS_CODE(mh_ns(c, UX, UY0)), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(m->l1[0][511].s[0], 0);	/* not written */
	ns = mat_run(c, UY0, &nop);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), 0);		/* exec_result: the count */
	ns = mat_run(c, UY0, &nop);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);	/* once */
	send_burst(c, UY0, 3, 0, 0, 0, data);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &nop)), KH_SIG_FAULT);
	send_burst(c, UY0, KH_MAT_BUF_PEER, 1, 1, 0, data);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &nop)), KH_SIG_FAULT);
	send_burst(c, UY0, KH_MAT_BUF_PEER, 2 * 4096 - 2, 3, 0, data);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &nop)), KH_SIG_FAULT);
	/* the last granule in range is accepted */
	send_burst(c, UY0, KH_MAT_BUF_PEER, 2 * 4096 - 2, 0, 0, data);
	send_burst(c, UY0, KH_MAT_BUF_L1B, 4 * 512 - 4, 3, 0, data);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &nop)), KH_SIG_INST_COMPLETE);
	CHECK_EQ(m->l1[1][511].s[2], r.s[2]);
	CHECK_EQ(ksim_unit_at(c, 0, UX, UY0)->dropped, 0);
	ksim_card_destroy(c);
}

/*
 * A CU_DATA flit straight into the cluster's receive FIFO, from (sx, 0): a
 * descriptor of len + 1 flits into L1 A at off when desc, else data.
 */
static void recv_push(struct ksim_unit *u, unsigned int sx, bool desc,
		      unsigned int off, unsigned int len, unsigned int flags)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, UX, UY0, sx, 0, KH_T_CU_DATA, 0x77, !desc);
	if (desc) {
		kh_flit_set(&f, KH_DATA_BUF_ID, KH_MAT_BUF_L1A);
		kh_flit_set(&f, KH_DATA_OFFSET, off);
		kh_flit_set(&f, KH_DATA_LEN, len);
		kh_flit_set(&f, KH_DATA_FLAGS, flags);
	}
	REQUIRE(ksim_fifo_push(&u->recv, &f));
	ksim_node_wake(&u->node);
}

/*
 * The completion signal holds the receive path (L611, L681, L979): the
 * last flit of a burst that asks for it is taken in cycle T, sg_valid
 * rises and the signal is offered at T + 1, and no CU_DATA flit is taken
 * while it is set: the next burst's descriptor goes at T + 2.
 */
TEST_F(model, cu_data_signal_holds_the_receive_path)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	u64 t_last = 0, t_sig = 0, t_desc = 0, now, sent;
	u32 space, was;
	unsigned int i;

	REQUIRE(c);
	ksim_run(c, 100);
	recv_push(u, 0, true, 0, 0, KH_DATAF_SIGNAL);
	recv_push(u, 0, false, 0, 0, 0);
	recv_push(u, 0, true, 4, 0, 0);
	recv_push(u, 0, false, 0, 0, 0);
	sent = u->n_sent;
	was = ksim_fifo_space(&u->recv);
	for (i = 0; i < 20; i++) {
		ksim_run(c, 1);
		now = ksim_cycles(c) - 1;
		space = ksim_fifo_space(&u->recv);
		if (space != was && !ksim_unit_cd_open(u, NULL) && !t_last)
			t_last = now;		/* the first burst's last flit */
		else if (space != was && t_last && !t_desc)
			t_desc = now;		/* the second's descriptor */
		if (u->n_sent != sent && !t_sig)
			t_sig = now;
		was = space;
	}
	REQUIRE(t_last);
	CHECK_EQ(t_sig, t_last + 1);
	CHECK_EQ(t_desc, t_last + 2);
	ksim_card_destroy(c);
}

/*
 * One stream at a time, framed by count, whatever the source: the RTL
 * compares a data flit's source only in simulation (L1123), so a second
 * sender's flit is spliced into the open burst as its data.
 */
TEST_F(model, cu_data_second_sender_is_spliced)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	unsigned int base;

	REQUIRE(c);
	ksim_run(c, 100);
	base = KH_NS_COUNT(mh_ns(c, UX, UY0));
	recv_push(u, 0, true, 0, 1, KH_DATAF_SIGNAL);
	recv_push(u, 0, false, 0, 0, 0);
	ksim_run(c, 20);
	CHECK(ksim_unit_cd_open(u, NULL));
	recv_push(u, 2, false, 0, 0, 0);	/* from (2, 0) */
	ksim_run(c, 20);
	CHECK(!ksim_unit_cd_open(u, NULL));	/* the burst is complete */
	CHECK_EQ(u->dropped, 0);
	CHECK(mh_wait_count(c, UX, UY0, base + 1, 10000));
	CHECK_EQ(KH_NS_CODE(mh_ns(c, UX, UY0)), KH_SIG_DATA_RECEIVED);
	ksim_card_destroy(c);
}

/* DRAIN to a node's buffer 2: FP22 pairs accumulated into its tile. */
TEST_F(model, drain_to_node_peer_accumulate)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf m = { .op = KH_MAT_OP_GEMM, .anchor = KH_MX_ANCHOR };
	struct matf d = { .op = KH_MAT_OP_DRAIN };
	unsigned int t, l, bad = 0, n = 6;
	struct gemm g0, g1;
	u16 out[6 * 16];
	u64 ns;

	REQUIRE(c);
	gemm_make(&g0, 2, 3, 2, 10, 20);
	gemm_make(&g1, 2, 3, 2, 10, 20);
	gemm_fill(c, UY0, &g0, 0, 0);
	gemm_fill(c, UY1, &g1, 0, 0);
	m.gm = 2;
	m.gn = 3;
	m.nk = 2;
	mat_run(c, UY0, &m);
	mat_run(c, UY1, &m);
	/* (1,0) -> (1,2) buffer 2 at sub-tile 0: granule addr[20:5] = 0 */
	d.n = n;
	d.dnode = 1;
	d.dx = UX;
	d.dy = UY1;
	d.dbuf = KH_MAT_BUF_PEER;
	d.dflags = KH_DATAF_SIGNAL;
	d.dacky = 1;			/* the signal to the orchestrator */
	ns = mat_run(c, UY0, &d);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 4);		/* 2 FILL, GEMM, DRAIN */
	/* bursts of 8 granules = 4 sub-tiles: two signals from (1,2) */
	CHECK(mh_wait_count(c, UX, UY1, 3 + 2, 20000));
	CHECK_EQ(KH_NS_CODE(mh_ns(c, UX, UY1)), KH_SIG_DATA_RECEIVED);
	drain_to(c, UY1, n, out);
	for (t = 0; t < n; t++)
		for (l = 0; l < 16; l++) {
			double a = ref_elem(&g0, t / 3, t % 3, l / 4, l % 4, 0,
					    2, 0, true);
			double b = ref_elem(&g1, t / 3, t % 3, l / 4, l % 4, 0,
					    2, 0, true);
			u16 want = to_fp16(add22(b, a));

			if (out[16 * t + l] != want && bad++ < 5)
				CHECK_MSG(0, "peer: t %u l %u = %04x want %04x",
					  t, l, out[16 * t + l], want);
		}
	CHECK_EQ(bad, 0);
	gemm_free(&g0);
	gemm_free(&g1);
	ksim_card_destroy(c);
}

/* addr_hi [68:63] is addr[39:34]: a DRAIN into the L2 staging aperture */
TEST_F(model, drain_to_a_40_bit_address)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf d = { .op = KH_MAT_OP_DRAIN, .n = 2 };
	struct ksim_mat *m = mat_of(c, UY0);
	unsigned int l;
	u8 b[64];

	REQUIRE(c);
	for (l = 0; l < 16; l++) {
		m->tile[0][l] = (63u << 14) | (l << 10);	/* 1 + l/16 */
		m->tile[1][l] = (64u << 14);			/* 2 */
	}
	d.addr = KH_MADDR_AP(0, KH_AP_L2_STAGE, 0x2000);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &d)), KH_SIG_INST_COMPLETE);
	ksim_run(c, 2000);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, KH_AP_L2_STAGE, 0x2000), b,
			       sizeof(b)), 0);
	for (l = 0; l < 16; l++) {
		CHECK_EQ(b[2 * l] | b[2 * l + 1] << 8, 0x3c00 | (l << 6));
		CHECK_EQ(b[32 + 2 * l] | b[32 + 2 * l + 1] << 8, 0x4000);
	}
	ksim_card_destroy(c);
}

TEST_F(model, noop_opcodes_and_exec_result)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf f = { .op = KH_MAT_OP_FILL, .addr = A_BASE, .n = 1 };
	struct matf g = { .op = KH_MAT_OP_GEMM };
	struct matf d = { .op = KH_MAT_OP_DRAIN, .addr = C_BASE, .n = 1 };
	static const unsigned int nops[] = { 0, 4, 7, 15 };
	struct ksim_mat *m = mat_of(c, UY0);
	unsigned int i;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 4; i++) {
		struct matf n = { .op = nops[i], .addr = A_BASE, .n = 3 };

		ns = mat_run(c, UY0, &n);
		CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
		CHECK_EQ(KH_NS_ARG(ns), 0);
	}
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &f)), 1);
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &g)), 2);
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &d)), 3);
	{
		struct matf z = { .op = 9 };

		CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &z)), 3);
	}
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &g)), 4);
	CHECK_EQ(m->nfill, 1);
	CHECK_EQ(m->ngemm, 2);
	CHECK_EQ(m->ndrain, 1);
	/* a no-op never touched L1 or the tile */
	CHECK_EQ(m->l1[0][1].s[0], 0);
	ksim_card_destroy(c);
}

TEST_F(model, refused_features_fault_loudly)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf r = { .op = KH_MAT_OP_DRAIN, .dfin = 0x12, .n = 1 };
	struct ksim_mat *m = mat_of(c, UY0);
	u64 ns;

	REQUIRE(c);
	ns = mat_run(c, UY0, &r);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KSIM_MAT_FAULT_UNMODELLED);
	CHECK_EQ(m->ngemm + m->ndrain, 0);
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &(struct matf){ .op = 0 })), 0);
	ksim_card_destroy(c);
}

/* emit: the last K block hands each sub-tile out; a fused DRAIN waits. */
TEST_F(model, gemm_emit_and_fused_drain)
{
	struct ksim_card *c = mh_card(MAP);
	struct matf m = { .op = KH_MAT_OP_GEMM, .anchor = KH_MX_ANCHOR,
			  .gm = 3, .gn = 4, .nk = 3, .emit = 1,
			  .addr = C_BASE };
	struct matf d = { .op = KH_MAT_OP_DRAIN, .fuse = 1, .n = 12,
			  .addr = C_BASE };
	unsigned int t, l, bad = 0, w0;
	struct gemm g;
	u16 out[12 * 16], again[12 * 16];
	u8 b[12 * 32];

	REQUIRE(c);
	gemm_make(&g, 3, 4, 3, 10, 20);
	gemm_fill(c, UY0, &g, 0, 0);
	w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &m)), 3);
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &d)), 4);
	CHECK_EQ(mat_of(c, UY0)->w_st, 0);	/* everything left */
	wait_writes(c, w0, 2);			/* 8 + 4 */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, C_BASE), b, sizeof(b)), 0);
	for (t = 0; t < 12 * 16; t++)
		out[t] = (u16)(b[2 * t] | (b[2 * t + 1] << 8));
	for (t = 0; t < 12; t++)
		for (l = 0; l < 16; l++) {
			u16 want = to_fp16(ref_elem(&g, t / 4, t % 4, l / 4,
						    l % 4, 0, 3, 0, true));

			if (out[16 * t + l] != want && bad++ < 5)
				CHECK_MSG(0, "emit: t %u l %u = %04x want %04x",
					  t, l, out[16 * t + l], want);
		}
	CHECK_EQ(bad, 0);
	/* the emitted values were written back to the tile too */
	memset(again, 0, sizeof(again));
	{
		struct matf p = { .op = KH_MAT_OP_DRAIN, .n = 12,
				  .addr = C_BASE + 0x10000 };
		unsigned int w1 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));

		mat_run(c, UY0, &p);
		wait_writes(c, w1, 2);
		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, C_BASE + 0x10000), b,
				       sizeof(b)), 0);
		for (t = 0; t < 12 * 16; t++)
			again[t] = (u16)(b[2 * t] | (b[2 * t + 1] << 8));
	}
	CHECK(!memcmp(out, again, sizeof(out)));
	gemm_free(&g);
	ksim_card_destroy(c);
}

/* 256 emitted sub-tiles against a write port of 8 per burst: the sweep
 * holds at DQ_LIMIT outstanding and every value still arrives. */
TEST_F(model, emit_stalls_the_sweep)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	struct ksim_mat *mm = mat_of(c, UY0);
	struct matf m = { .op = KH_MAT_OP_GEMM, .anchor = KH_MX_ANCHOR,
			  .gm = 32, .gn = 32, .nk = 1, .acc = 1, .emit = 1,
			  .addr = C_BASE };
	struct matf d = { .op = KH_MAT_OP_DRAIN, .fuse = 1, .n = 1024,
			  .addr = C_BASE };
	unsigned int t, l, bad = 0, w0;
	struct gemm g;
	struct kh_flit f;
	u8 *b = malloc(1024 * 32);
	u64 acc_at;

	REQUIRE(c && b);
	gemm_make(&g, 32, 32, 1, 10, 20);
	gemm_fill(c, UY0, &g, 0, 0);
	w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
	mat_flit(&f, UX, UY0, &m, 1);
	mh_mb_send(c, &f);
	while (u->n_accepted < 3)
		ksim_run(c, 1);
	acc_at = ksim_cycles(c) - 1;
	while (!mm->run)
		ksim_run(c, 1);
	while (mm->run)
		ksim_run(c, 1);
	/* without the stall the last command would issue at +3 + 1023 */
	CHECK(mm->mgr_busy_to - 13 > acc_at + 3 + 1023 + 50);
	CHECK(mm->d_out <= KSIM_MAT_DQ);
	CHECK_EQ(KH_NS_ARG(mat_run(c, UY0, &d)), 4);
	wait_writes(c, w0, 128);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, C_BASE), b, 1024 * 32), 0);
	for (t = 0; t < 1024; t++)
		for (l = 0; l < 16; l++) {
			u16 got = (u16)(b[32 * t + 2 * l] | (b[32 * t + 2 * l + 1] << 8));
			u16 want = to_fp16(ref_elem(&g, t / 32, t % 32, l / 4,
						    l % 4, 0, 1, 0, false));

			if (got != want && bad++ < 5)
				CHECK_MSG(0, "stall: t %u l %u = %04x want %04x",
					  t, l, got, want);
		}
	CHECK_EQ(bad, 0);
	free(b);
	gemm_free(&g);
	ksim_card_destroy(c);
}

/* emit on a sweep whose last K block is also its LOAD: LOAD wins, nothing
 * is handed out, the node still counts them (RTL, mgr L373-377); a plain
 * DRAIN restarts the node and drains the tile. */
TEST_F(model, emit_on_a_loading_sweep_hands_nothing_out)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_mat *mm = mat_of(c, UY0);
	struct matf m = { .op = KH_MAT_OP_GEMM, .anchor = KH_MX_ANCHOR,
			  .gm = 1, .gn = 2, .nk = 1, .emit = 1,
			  .addr = C_BASE };
	unsigned int t, l;
	struct gemm g;
	u16 out[2 * 16];
	u8 b[64];

	REQUIRE(c);
	gemm_make(&g, 1, 2, 1, 10, 20);
	gemm_fill(c, UY0, &g, 0, 0);
	memset(b, 0xa5, sizeof(b));
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, C_BASE), b, sizeof(b)), 0);
	CHECK_EQ(KH_NS_CODE(mat_run(c, UY0, &m)), KH_SIG_INST_COMPLETE);
	ksim_run(c, 500);
	CHECK_EQ(mm->d_out, 2);
	CHECK(ksim_mat_drain_busy(mm));
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, C_BASE), b, sizeof(b)), 0);
	CHECK_EQ(b[0], 0xa5);
	CHECK_EQ(b[63], 0xa5);
	drain_to(c, UY0, 2, out);
	for (t = 0; t < 2; t++)
		for (l = 0; l < 16; l++)
			CHECK_EQ(out[16 * t + l],
				 to_fp16(ref_elem(&g, 0, t, l / 4, l % 4, 0, 1,
						  0, true)));
	gemm_free(&g);
	ksim_card_destroy(c);
}

/* Step the card until (x, y) has retired `want` instructions. */
static u64 step_until_retired(struct ksim_card *c, struct ksim_unit *u,
			      u64 want, u64 max)
{
	u64 t0 = ksim_cycles(c);

	while (u->n_retired < want && ksim_cycles(c) - t0 < max)
		ksim_run(c, 1);
	return ksim_cycles(c);
}

TEST_F(model, timing_gemm_retires_as_the_sweep_starts)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	struct ksim_mat *m = mat_of(c, UY0);
	struct matf g = { .op = KH_MAT_OP_GEMM, .gm = 16, .gn = 16, .nk = 4 };
	struct matf g1 = { .op = KH_MAT_OP_GEMM, .gm = 1, .gn = 1, .nk = 200 };
	struct kh_flit f;
	u64 acc_at, ret_at, busy_end;

	REQUIRE(c);
	mat_flit(&f, UX, UY0, &g, 1);
	mh_mb_send(c, &f);
	while (!u->n_accepted)
		ksim_run(c, 1);
	acc_at = ksim_cycles(c) - 1;	/* the cycle it was accepted in */
	ret_at = step_until_retired(c, u, 1, 100000) - 1;
	/* S_GEMM, the start, S_GWAIT two cycles, S_DONE 4 on: its exec_done
	 * is the base's the edge after, 5 on */
	CHECK_EQ(ret_at - acc_at, 5);
	CHECK(m->run);
	/* the sweep: 16 x 16 x 4 / 2 K blocks a command = 512 commands, one
	 * per cycle, + 27 of pipeline */
	CHECK_EQ(m->acu_busy_to - acc_at, 1 + 2 + 511 + 12 + 16);
	/* a second sweep waits for the manager, not for the cascade */
	mat_flit(&f, UX, UY0, &g, 2);
	mh_mb_send(c, &f);
	ksim_run(c, 1100);
	CHECK_EQ(u->n_retired, 2);
	/* paced: 1x1 with nk 200 (100 commands) issues every 5th cycle */
	ksim_run(c, 2000);
	mat_flit(&f, UX, UY0, &g1, 3);
	mh_mb_send(c, &f);
	while (u->n_accepted < 3)
		ksim_run(c, 1);
	acc_at = ksim_cycles(c) - 1;
	ret_at = step_until_retired(c, u, 3, 1000) - 1;
	CHECK_EQ(m->mgr_busy_to - acc_at, 1 + 2 + 99 * 5 + 12 + 1);
	/* retired 5 cycles on (S_DONE 4) although its commands are 5 apart */
	CHECK_EQ(ret_at - acc_at, 5);
	/* a narrow GEMM behind it waits for the accumulator: it starts the
	 * cycle gemm_busy falls and retires 4 cycles later (S_DONE 3, the base the edge after) */
	busy_end = m->acu_busy_to;
	g1.nk = 3;
	mat_flit(&f, UX, UY0, &g1, 4);
	mh_mb_send(c, &f);
	while (u->n_accepted < 4)
		ksim_run(c, 1);
	CHECK(ksim_cycles(c) - 1 < busy_end - 30);
	ret_at = step_until_retired(c, u, 4, 1000) - 1;
	CHECK_EQ(ret_at, busy_end + 4);
	ksim_card_destroy(c);
}

TEST_F(model, timing_drain_retires_when_the_last_write_left)
{
	struct ksim_card *c = mh_card(MAP);
	struct ksim_unit *u = ksim_unit_at(c, 0, UX, UY0);
	struct matf d = { .op = KH_MAT_OP_DRAIN, .addr = C_BASE, .n = 16 };
	struct kh_flit f;
	u64 acc_at, ret_at, sent0;

	REQUIRE(c);
	mat_flit(&f, UX, UY0, &d, 1);
	mh_mb_send(c, &f);
	while (!u->n_accepted)
		ksim_run(c, 1);
	acc_at = ksim_cycles(c);
	sent0 = u->n_sent;
	ret_at = step_until_retired(c, u, 1, 100000);
	/* 2 bursts of a descriptor and 8 data flits have left */
	CHECK_EQ(u->n_sent - sent0, 18);
	/* issues at +3..+18, granule t at the port at +17 + t, bank 0 full
	 * and handed over at +25, its descriptor at +27 and data to +35; bank
	 * 1 full at +34, handed over when the sender is free at +36, out at
	 * +38..+46; the write port idle at +47, S_DONE at +48, its exec_done
	 * the base's at +49 */
	CHECK_EQ(ret_at - acc_at, 49);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
