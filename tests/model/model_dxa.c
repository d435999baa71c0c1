// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA unit (token `dxa`) and the scratch unit (`scr`) on the built-in
 * card dxa_2x1 (docs/spec/dxa.md):
 *
 *   xxx  dxa  scr  xxx      dxa (1,0); scr (2,0), (1,1), (3,1), (1,2);
 *   mag  scr  sax  scr      an SX unit (2,1), a null unit (2,2); the MAG
 *   xxx  scr  null xxx      port and orchestrator at (0,1)
 *
 * Every copy is checked against an independent reference written from the
 * spec: a plain loop over the tile's linear index that decomposes it into
 * (i0..i4), applies the address formula and the out-of-bounds rule, and
 * places each element row-major or K-major; the line count is the number
 * of distinct 32-byte lines of its in-bounds elements (sorted and
 * counted).  What the receivers got is read back by the scratch unit's
 * COPY_OUT, itself checked against data the host wrote.  The protocol
 * checker is on throughout (mhelp.c).
 */
#include <stdlib.h>
#include "mhelp.h"
#include "mmesh.h"
#include "ksim_int.h"
#include "card.h"
#include "mesh.h"
#include "units/dxa/dxa.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define DX		1
#define DY		0
#define NSCR		4
#define SRC_BASE	0x100000ULL	/* the tensors */
#define SRC_BYTES	(1u << 20)
#define OUT_BASE	0x800000ULL	/* scratch copy-outs */
#define GR		32		/* a granule */

static const unsigned int SX_[NSCR] = { 2, 1, 3, 1 };
static const unsigned int SY_[NSCR] = { 0, 1, 1, 2 };

static u8 mem[SRC_BYTES];	/* DRAM [SRC_BASE, +SRC_BYTES) as written */
static u64 rng = 0x0dda0dda12345678ULL;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

/* ------------------------------------------------------------------ */
/* the card                                                            */

/*
 * The dxa_2x1 card, with `extra` parameters after its profile line (the
 * timing test turns the DRAM's refresh off: a refresh falling in one copy
 * and not the other is not the DXA's schedule).
 */
static struct ksim_card *dcard_with(const char *extra)
{
	static char desc[2048];
	const char *b = ksim_builtin_desc("dxa_2x1");
	const char *p = strstr(b, "profile ship\n");
	struct ksim_card *c;
	u32 i;

	if (!p)
		return NULL;
	p += strlen("profile ship\n");
	snprintf(desc, sizeof(desc), "%.*s%s%s", (int)(p - b), b, extra, p);
	c = mh_card(desc);
	if (!c)
		return NULL;
	mh_fast_host(c);
	for (i = 0; i < SRC_BYTES; i++)
		mem[i] = (u8)rnd();
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, SRC_BASE), mem, SRC_BYTES),
		 0);
	return c;
}

static struct ksim_card *dcard(void)
{
	return dcard_with("");
}

static struct ksim_dxa *dxa_of(struct ksim_card *c)
{
	return ksim_unit_priv(ksim_card_mesh(c, 0)->unit[DY][DX]);
}

static u64 ctl(struct ksim_card *c, unsigned int x, unsigned int y,
	       unsigned int idx)
{
	return mm_ctrl_rd(c, 0, x, y, idx);
}

static unsigned int ns_count(struct ksim_card *c, unsigned int x,
			     unsigned int y)
{
	return KH_NS_COUNT(mh_ns(c, x, y));
}

/* A CU_DATA burst from the host (src (0,0): acks go to the agent). */
static void burst(struct ksim_card *c, unsigned int x, unsigned int y,
		  unsigned int buf, unsigned int off, const u8 *data,
		  unsigned int n, bool sig)
{
	struct kh_flit f;
	unsigned int g;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_DATA, 0x11, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, off);
	kh_flit_set(&f, KH_DATA_LEN, n - 1);
	kh_flit_set(&f, KH_DATA_FLAGS, sig ? KH_DATAF_SIGNAL : 0);
	mh_mb_send(c, &f);
	for (g = 0; g < n; g++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_DATA, 0x11, g + 1 == n);
		ksim_bytes_to_payload(f.w, data + g * GR);
		mh_mb_send(c, &f);
	}
}

/* ------------------------------------------------------------------ */
/* descriptors and copies                                              */

struct td {
	u64 base;
	u32 size[5];
	u32 stride[4];
	u32 meta;
	u16 tile[5];
	u16 mstride;
	u32 cfill;
};

static void put(u8 *b, unsigned int at, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		b[at + i] = (u8)(v >> (8 * i));
}

static void td_bytes(const struct td *d, u8 *b)
{
	unsigned int i;

	memset(b, 0, KH_DXA_SLOT_BYTES);
	put(b, KH_DXA_D_BASE, d->base, 8);
	for (i = 0; i < 5; i++) {
		put(b, KH_DXA_D_SIZE(i), d->size[i], 4);
		put(b, KH_DXA_D_TILE(i), d->tile[i], 2);
	}
	for (i = 0; i < 4; i++)
		put(b, KH_DXA_D_STRIDE(i), d->stride[i], 4);
	put(b, KH_DXA_D_META, d->meta, 4);
	put(b, KH_DXA_D_MSTRIDE, d->mstride, 2);
	put(b, KH_DXA_D_CFILL, d->cfill, 4);
}

/* Write slot s from raw bytes; true when acknowledged. */
static bool slot_raw(struct ksim_card *c, unsigned int s, const u8 *b)
{
	unsigned int n = ns_count(c, DX, DY);

	burst(c, DX, DY, KH_DXA_BUF_TABLE, s * KH_DXA_SLOT_GRANULES, b,
	      KH_DXA_SLOT_GRANULES, true);
	return mh_wait_count(c, DX, DY, n + 1, 400) &&
	       KH_NS_CODE(mh_ns(c, DX, DY)) == KH_SIG_DATA_RECEIVED &&
	       KH_NS_ARG(mh_ns(c, DX, DY)) == KH_DXA_BUF_TABLE;
}

static bool slot_write(struct ksim_card *c, unsigned int s,
		       const struct td *d)
{
	u8 b[KH_DXA_SLOT_BYTES];

	td_bytes(d, b);
	return slot_raw(c, s, b);
}

struct tk {
	unsigned int op, slot, nrecv, zero;
	u32 coord[5];
	u32 recv[4];
};

static void copy_flit(struct kh_flit *f, const struct tk *k)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, DX, DY, 0, 0, KH_T_CU_INST, 0x21, 0);
	kh_flit_set(f, KH_DXA_INST_OP, k->op ? k->op : KH_DXA_OP_COPY);
	kh_flit_set(f, KH_DXA_INST_SLOT, k->slot);
	kh_flit_set(f, KH_DXA_INST_NRECV, k->nrecv - 1);
	kh_flit_set(f, KH_DXA_INST_ZERO, k->zero);
	for (i = 0; i < 5; i++)
		kh_flit_set(f, KH_DXA_INST_COORD(i), k->coord[i]);
	for (i = 0; i < 4; i++)
		kh_flit_set(f, KH_DXA_INST_RECV(i), k->recv[i]);
}

/* Run one COPY; NODE_STATUS after its completion, 0 if none came. */
static u64 copy_run(struct ksim_card *c, const struct tk *k,
		    unsigned int polls)
{
	unsigned int n = ns_count(c, DX, DY);
	struct kh_flit f;

	copy_flit(&f, k);
	mh_mb_send(c, &f);
	if (!mh_wait_count(c, DX, DY, n + 1, polls))
		return 0;
	return mh_ns(c, DX, DY);
}

/* ------------------------------------------------------------------ */
/* the scratch unit                                                    */

static u64 scr_inst(struct ksim_card *c, unsigned int i, unsigned int op,
		    u32 first, u32 count, u64 addr)
{
	unsigned int n = ns_count(c, SX_[i], SY_[i]);
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, SX_[i], SY_[i], 0, 0, KH_T_CU_INST, 0x31, 0);
	kh_flit_set(&f, KH_SCR_INST_OP, op);
	kh_flit_set(&f, KH_SCR_INST_COUNT, count - 1);
	kh_flit_set(&f, KH_SCR_INST_FIRST, first);
	kh_flit_set(&f, KH_SCR_INST_ADDR, addr);
	mh_mb_send(c, &f);
	if (!mh_wait_count(c, SX_[i], SY_[i], n + 1, 20000))
		return 0;
	return mh_ns(c, SX_[i], SY_[i]);
}

/* Granules [first, first + n) of scratch unit i, through DRAM. */
static void scr_read(struct ksim_card *c, unsigned int i, u32 first, u32 n,
		     u8 *out)
{
	u64 a = OUT_BASE + (u64)i * 0x10000, ns;

	ns = scr_inst(c, i, KH_SCR_OP_COPY_OUT, first, n, KH_MADDR(0, a));
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_INST_COMPLETE && KH_NS_ARG(ns) == n,
		  "scr %u COPY_OUT %u+%u: signal %#x arg %#x", i, first, n,
		  KH_NS_CODE(ns), KH_NS_ARG(ns));
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, a), out, n * GR), 0);
}

/* ------------------------------------------------------------------ */
/* the reference                                                       */

struct tref {
	u8 out[KH_DXA_MAX_TILE_BYTES];
	u32 elems, gran, lines;
};

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void ref_copy(const struct td *d, const u32 *coord, struct tref *r)
{
	static u64 lines[KH_DXA_MAX_TILE_BYTES];
	unsigned int R = d->meta & 7, eb = 1u << ((d->meta >> 3) & 3), k;
	bool km = d->meta & KH_DXA_META_KMAJOR;
	u32 ext[5], cc[5], lin, n = 0, i;

	r->elems = 1;
	for (k = 0; k < 5; k++) {
		ext[k] = k < R ? d->tile[k] : 1;
		cc[k] = k < R ? coord[k] : 0;
		r->elems *= ext[k];
	}
	r->gran = (r->elems * eb + GR - 1) / GR;
	memset(r->out, 0, sizeof(r->out));
	for (lin = 0; lin < r->elems; lin++) {
		u32 ix[5], rem = lin, dst;
		u64 a;
		bool oob = false;

		for (k = 0; k < 5; k++) {
			ix[k] = rem % ext[k];
			rem /= ext[k];
		}
		a = d->base + (u64)(cc[0] + ix[0]) * eb;
		for (k = 0; k < R; k++)
			if ((u64)cc[k] + ix[k] >= d->size[k])
				oob = true;
		for (k = 1; k < R; k++)
			a += (u64)(cc[k] + ix[k]) * d->stride[k - 1];
		dst = km ? (ix[0] * ext[1] + ix[1]) * eb : lin * eb;
		for (i = 0; i < eb; i++) {
			if (oob) {
				r->out[dst + i] = i < 4 ? (u8)(d->cfill >> (8 * i)) : 0;
				continue;
			}
			REQUIRE(a >= SRC_BASE && a - SRC_BASE + eb <= SRC_BYTES);
			r->out[dst + i] = mem[a - SRC_BASE + i];
		}
		if (!oob)
			lines[n++] = a >> 5;
	}
	qsort(lines, n, sizeof(lines[0]), cmp_u64);
	r->lines = 0;
	for (i = 0; i < n; i++)
		if (!i || lines[i] != lines[i - 1])
			r->lines++;
}

struct ctrs {
	u64 tr, rd, sv, lw;
};

static void ctrs_of(struct ksim_card *c, struct ctrs *t)
{
	t->tr = ctl(c, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS);
	t->rd = ctl(c, DX, DY, KH_CTRL_IDX_DXA_GMEM_READS);
	t->sv = ctl(c, DX, DY, KH_CTRL_IDX_DXA_GMEM_SAVED);
	t->lw = ctl(c, DX, DY, KH_CTRL_IDX_DXA_LOCAL_WRITES);
}

/*
 * Copy descriptor d at coord to nrecv receivers (scratch unit rs[r] at
 * granule off[r]) and check everything against the reference.  Return:
 * the number of mismatches.
 */
static unsigned int check_copy(struct ksim_card *c, const struct td *d,
			       const u32 *coord, unsigned int nrecv,
			       const unsigned int *rs, const u32 *off,
			       const char *what)
{
	static struct tref r;
	static u8 got[KH_DXA_MAX_TILE_BYTES];
	struct ctrs a, b;
	struct tk k;
	unsigned int i, bad = 0, slot = rnd() % KH_DXA_SLOTS;
	u64 ns;

	ref_copy(d, coord, &r);
	if (!slot_write(c, slot, d)) {
		CHECK_MSG(0, "%s: slot write not acknowledged", what);
		return 1;
	}
	memset(&k, 0, sizeof(k));
	k.slot = slot;
	k.nrecv = nrecv;
	memcpy(k.coord, coord, sizeof(k.coord));
	for (i = 0; i < nrecv; i++)
		k.recv[i] = KH_DXA_RECV(SX_[rs[i]], SY_[rs[i]], KH_SCR_BUF,
					off[i]);
	ctrs_of(c, &a);
	ns = copy_run(c, &k, 400000);
	ctrs_of(c, &b);
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_INST_COMPLETE &&
		  KH_NS_ARG(ns) == r.elems,
		  "%s: signal %#x arg %#x, want complete with %u elements",
		  what, KH_NS_CODE(ns), KH_NS_ARG(ns), r.elems);
	CHECK_MSG(b.tr - a.tr == 1, "%s: transfers +%llu", what,
		  (unsigned long long)(b.tr - a.tr));
	CHECK_MSG(b.rd - a.rd == r.lines, "%s: %llu lines read, want %u",
		  what, (unsigned long long)(b.rd - a.rd), r.lines);
	CHECK_MSG(b.sv - a.sv == (u64)r.lines * (nrecv - 1),
		  "%s: %llu reads saved, want %u", what,
		  (unsigned long long)(b.sv - a.sv), r.lines * (nrecv - 1));
	CHECK_MSG(b.lw - a.lw == (u64)r.gran * nrecv,
		  "%s: %llu data flits, want %u", what,
		  (unsigned long long)(b.lw - a.lw), r.gran * nrecv);
	for (i = 0; i < nrecv; i++) {
		u32 at = (off[i] + i * d->mstride) & 0xffff, g;

		scr_read(c, rs[i], at, r.gran, got);
		for (g = 0; g < r.gran * GR; g++)
			if (got[g] != r.out[g]) {
				if (bad++ < 4)
					CHECK_MSG(0, "%s: receiver %u byte %u: %02x want %02x",
						  what, i, g, got[g], r.out[g]);
			}
	}
	return bad;
}

static unsigned int check1(struct ksim_card *c, const struct td *d,
			   const u32 *coord, const char *what)
{
	static const unsigned int rs[1] = { 0 };
	static const u32 off[1] = { 0 };

	return check_copy(c, d, coord, 1, rs, off, what);
}

/* A dense rank-R tensor at SRC_BASE + pad: strides from the sizes. */
static void dense(struct td *d, unsigned int R, unsigned int lg,
		  const u32 *size, const u16 *tile, u32 pad)
{
	unsigned int k, eb = 1u << lg;
	u64 st = (u64)size[0] * eb;

	memset(d, 0, sizeof(*d));
	d->base = SRC_BASE + pad;
	d->meta = KH_DXA_META(R, lg, 0);
	for (k = 0; k < 5; k++) {
		d->size[k] = size[k];
		d->tile[k] = tile[k];
	}
	for (k = 1; k < R; k++) {
		d->stride[k - 1] = (u32)st;
		st *= size[k];
	}
	REQUIRE(pad + st <= SRC_BYTES);
	d->cfill = rnd();
}

/* ------------------------------------------------------------------ */
/* identity, the table                                                 */

TEST_F(model, identity_and_caps)
{
	struct ksim_card *c = dcard();
	u64 caps;
	unsigned int i;

	REQUIRE(c);
	caps = ctl(c, DX, DY, KH_CTRL_IDX_CAPS);
	CHECK_EQ(caps >> KH_CAPS_CU_TYPE_SHIFT & 0xffff, KH_CU_DX);
	CHECK_EQ(caps >> KH_CAPS_VERSION_SHIFT & 0xff, 1);
	CHECK_EQ(caps >> KH_CAPS_NBUF_SHIFT & 0xf, 1);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_CAPS), KH_DXA_CAPS);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_CAPS) >> 48, KH_DXA_SLOT_ID);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DBG), 0);
	for (i = 0; i < NSCR; i++) {
		caps = ctl(c, SX_[i], SY_[i], KH_CTRL_IDX_CAPS);
		CHECK_EQ(caps >> KH_CAPS_CU_TYPE_SHIFT & 0xffff, KH_CU_SC);
		CHECK_EQ(caps >> KH_CAPS_NBUF_SHIFT & 0xf, 1);
	}
	/* the SX and null units are still where the map puts them */
	CHECK_EQ(ctl(c, 2, 1, KH_CTRL_IDX_CAPS) >> 48, KH_CU_SX);
	CHECK_EQ(ctl(c, 2, 2, KH_CTRL_IDX_CAPS) >> 48, KH_CU_NULL);
	ksim_card_destroy(c);
}

TEST_F(model, table_write_and_readback)
{
	struct ksim_card *c = dcard();
	static u8 t[KH_DXA_SLOTS][KH_DXA_SLOT_BYTES];
	unsigned int s, w, i, bad = 0;

	REQUIRE(c);
	/* every word reads 0 before anything is written */
	for (w = 0; w < KH_DXA_TABLE_WORDS; w += 9) {
		mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, w);
		CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_DATA), 0);
	}
	for (s = 0; s < KH_DXA_SLOTS; s++) {
		for (i = 0; i < KH_DXA_SLOT_BYTES; i++)
			t[s][i] = (u8)rnd();
		CHECK_MSG(slot_raw(c, s, t[s]), "slot %u not acknowledged", s);
	}
	for (w = 0; w < KH_DXA_TABLE_WORDS; w++) {
		u64 want = 0, got;

		/* a write's reply carries the value before it */
		got = mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, w);
		CHECK_EQ(got, w ? w - 1 : 126);	/* the first loop's last */
		for (i = 0; i < 8; i++)
			want |= (u64)t[w / 8][(w % 8) * 8 + i] << (8 * i);
		got = ctl(c, DX, DY, KH_CTRL_IDX_DXA_DATA);
		if (got != want && bad++ < 4)
			CHECK_MSG(0, "word %u: %016llx want %016llx", w,
				  (unsigned long long)got,
				  (unsigned long long)want);
	}
	CHECK_EQ(bad, 0);
	/* DXA_SEL keeps 7 bits; DATA, CAPS and the counters are read-only */
	mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, 128 + 5);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_SEL), 5);
	mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_DATA, 0x1234);
	mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS, 0x1234);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS), 0);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_CAPS), KH_DXA_CAPS);
	ksim_card_destroy(c);
}

TEST_F(model, table_refusals)
{
	struct ksim_card *c = dcard();
	u8 b[4 * GR], z[KH_DXA_SLOT_BYTES];
	unsigned int i, n;
	struct {
		unsigned int buf, off, len;
		const char *what;
	} bad[] = {
		{ 0, 1, 2, "odd offset" },
		{ 0, 2, 4, "two slots in one burst" },
		{ 0, 2, 1, "one granule" },
		{ 0, 2, 3, "three granules" },
		{ 1, 2, 2, "buffer 1" },
		{ 0, 32, 2, "offset 32, past the table" },
		{ 0, 30, 4, "running past granule 31" },
	};

	REQUIRE(c);
	memset(z, 0, sizeof(z));
	for (i = 0; i < sizeof(b); i++)
		b[i] = (u8)(rnd() | 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = ns_count(c, DX, DY);
		burst(c, DX, DY, bad[i].buf, bad[i].off, b, bad[i].len, true);
		ksim_run(c, 200);
		CHECK_MSG(ns_count(c, DX, DY) == n, "%s: acknowledged",
			  bad[i].what);
	}
	/* nothing landed anywhere in the table */
	for (i = 0; i < KH_DXA_TABLE_WORDS; i++) {
		mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, i);
		if (ctl(c, DX, DY, KH_CTRL_IDX_DXA_DATA)) {
			CHECK_MSG(0, "table word %u written by a refused burst", i);
			break;
		}
	}
	/* framing held: a good write after them lands */
	CHECK(slot_raw(c, 1, b));
	mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, 8);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_DATA) & 0xff, b[0]);
	/* without flags[0] a write lands and is not acknowledged */
	n = ns_count(c, DX, DY);
	burst(c, DX, DY, 0, 2 * 3, b + GR, 2, false);
	ksim_run(c, 200);
	CHECK_EQ(ns_count(c, DX, DY), n);
	mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, 3 * 8);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_DATA) & 0xff, b[GR]);
	(void)z;
	ksim_card_destroy(c);
}

/* ------------------------------------------------------------------ */
/* copies                                                              */

/* Ranks 1-5, every element size, random shapes with OOB somewhere. */
TEST_F(model, rowmajor_ranks_and_sizes)
{
	struct ksim_card *c = dcard();
	unsigned int R, lg, rep, k, bad = 0;
	char what[64];

	REQUIRE(c);
	for (R = 1; R <= 5; R++)
		for (lg = 0; lg < 4; lg++)
			for (rep = 0; rep < 3; rep++) {
				u32 size[5] = { 1, 1, 1, 1, 1 }, coord[5] = { 0 };
				u16 tile[5] = { 1, 1, 1, 1, 1 };
				u32 cap = (KH_DXA_MAX_TILE_BYTES >> lg), elems = 1;
				struct td d;

				for (k = 0; k < R; k++) {
					size[k] = 1 + rnd() % (k ? 9 : 70);
					tile[k] = 1 + rnd() % (k ? 4 : 40);
					if (elems * tile[k] > cap)
						tile[k] = 1;
					elems *= tile[k];
					/* on the edge a third of the time */
					coord[k] = rnd() % 3 ? rnd() % size[k] :
						   size[k] - 1;
				}
				dense(&d, R, lg, size, tile, (rnd() % 64) << lg);
				snprintf(what, sizeof(what), "rank %u eb %u #%u", R,
					 1u << lg, rep);
				bad += check1(c, &d, coord, what);
			}
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* A rank-5 tile straddling the edge of each dimension in turn. */
TEST_F(model, oob_each_dimension)
{
	struct ksim_card *c = dcard();
	unsigned int dim, lg, bad = 0;
	char what[64];

	REQUIRE(c);
	for (lg = 0; lg < 4; lg++)
		for (dim = 0; dim < 5; dim++) {
			u32 size[5] = { 13, 5, 4, 3, 3 }, coord[5] = { 1, 1, 1, 1, 0 };
			u16 tile[5] = { 6, 3, 2, 2, 2 };
			struct td d;

			coord[dim] = size[dim] - 1;	/* one in, the rest out */
			dense(&d, 5, lg, size, tile, 0);
			d.cfill = 0xc0ffee00u | dim;
			snprintf(what, sizeof(what), "OOB dim %u eb %u", dim, 1u << lg);
			bad += check1(c, &d, coord, what);
		}
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* Coordinates at every edge: 0, flush with the end, one in, all out, max. */
TEST_F(model, tile_edges)
{
	struct ksim_card *c = dcard();
	u32 size[5] = { 40, 7, 1, 1, 1 };
	u16 tile[5] = { 16, 3, 1, 1, 1 };
	unsigned int e0, e1, bad = 0;
	char what[64];

	REQUIRE(c);
	for (e0 = 0; e0 < 5; e0++)
		for (e1 = 0; e1 < 5; e1++) {
			u32 edge[2][5] = {
				{ 0, 40 - 16, 39, 40, KH_DXA_COORD_MAX },
				{ 0, 7 - 3, 6, 7, KH_DXA_COORD_MAX },
			};
			u32 coord[5] = { edge[0][e0], edge[1][e1], 0, 0, 0 };
			struct td d;

			dense(&d, 2, 2, size, tile, 32);
			snprintf(what, sizeof(what), "edges %u,%u", e0, e1);
			bad += check1(c, &d, coord, what);
		}
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* K-major: ranks 1 and 2, every element size, with OOB. */
TEST_F(model, kmajor)
{
	struct ksim_card *c = dcard();
	unsigned int lg, R, rep, bad = 0;
	char what[64];

	REQUIRE(c);
	for (R = 1; R <= 2; R++)
		for (lg = 0; lg < 4; lg++)
			for (rep = 0; rep < 3; rep++) {
				u32 size[5] = { 30 + rnd() % 20, 9 + rnd() % 9, 1, 1, 1 };
				u16 tile[5] = { 5 + rnd() % 20, R > 1 ? 3 + rnd() % 9 : 1,
						1, 1, 1 };
				u32 coord[5] = { rnd() % size[0], rnd() % size[1], 0, 0, 0 };
				struct td d;

				dense(&d, R, lg, size, tile, 0);
				d.meta |= KH_DXA_META_KMAJOR;
				snprintf(what, sizeof(what), "K-major rank %u eb %u #%u",
					 R, 1u << lg, rep);
				bad += check1(c, &d, coord, what);
			}
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* 1-4 receivers at the four scratch units, and two at one unit. */
TEST_F(model, multicast)
{
	struct ksim_card *c = dcard();
	u32 size[5] = { 64, 32, 1, 1, 1 }, coord[5] = { 5, 30, 0, 0, 0 };
	u16 tile[5] = { 20, 6, 1, 1, 1 };
	static const unsigned int rs[4] = { 0, 1, 2, 3 }, same[4] = { 2, 2, 2, 2 };
	u32 off[4] = { 3, 100, 0, 250 - 15 };
	unsigned int n, bad = 0;
	char what[64];
	struct td d;

	REQUIRE(c);
	dense(&d, 2, 2, size, tile, 4);	/* 480 bytes: 15 granules */
	for (n = 1; n <= 4; n++) {
		d.mstride = 0;
		snprintf(what, sizeof(what), "%u receivers", n);
		bad += check_copy(c, &d, coord, n, rs, off, what);
	}
	/* mstride: receiver r at offset + r * mstride of one unit */
	{
		u32 off0[4] = { 7, 7, 7, 7 };

		d.mstride = 16;
		for (n = 2; n <= 4; n++) {
			snprintf(what, sizeof(what), "%u receivers, one unit, mstride 16", n);
			bad += check_copy(c, &d, coord, n, same, off0, what);
		}
		/* an mstride that wraps the 16-bit offset */
		d.mstride = 0xfff0;
		off0[0] = off0[1] = 0x20;
		snprintf(what, sizeof(what), "mstride wrapping");
		bad += check_copy(c, &d, coord, 2, same, off0, what);
	}
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/*
 * The line count on its own: an unaligned row, a tile partly out of
 * bounds (lines with only OOB elements are not read), rows sharing lines,
 * rows at stride 0 (one line for all), the whole tile out (nothing read).
 */
TEST_F(model, line_reads)
{
	struct ksim_card *c = dcard();
	struct ksim_dxa *x = dxa_of(c);
	struct td d;
	u32 size[5] = { 64, 8, 1, 1, 1 }, coord[5] = { 0 };
	u16 tile[5] = { 64, 1, 1, 1, 1 };
	unsigned int bad = 0;
	u64 r0;

	REQUIRE(c);
	/* 64 x 4 bytes from 4 bytes into a line: 9 lines */
	dense(&d, 1, 2, size, tile, 4);
	r0 = x->gmem_reads;
	bad += check1(c, &d, coord, "unaligned row");
	CHECK_EQ(x->gmem_reads - r0, 9);
	/* the last 40 elements out of bounds: 24 x 4 bytes from +4 = 4 lines */
	size[0] = 24;
	dense(&d, 1, 2, size, tile, 4);
	r0 = x->gmem_reads;
	bad += check1(c, &d, coord, "OOB tail");
	CHECK_EQ(x->gmem_reads - r0, 4);
	/* rows of 16 bytes at stride 16: two rows a line, 8 rows = 4 lines */
	memset(&d, 0, sizeof(d));
	d.base = SRC_BASE + 0x400;
	d.meta = KH_DXA_META(2, 2, 0);
	d.size[0] = 4;
	d.size[1] = 8;
	d.stride[0] = 16;
	d.tile[0] = 4;
	d.tile[1] = 8;
	r0 = x->gmem_reads;
	bad += check1(c, &d, coord, "rows sharing lines");
	CHECK_EQ(x->gmem_reads - r0, 4);
	/* stride 0: eight rows, one line */
	d.stride[0] = 0;
	r0 = x->gmem_reads;
	bad += check1(c, &d, coord, "stride 0");
	CHECK_EQ(x->gmem_reads - r0, 1);
	/* K-major too */
	d.meta |= KH_DXA_META_KMAJOR;
	d.stride[0] = 16;
	r0 = x->gmem_reads;
	bad += check1(c, &d, coord, "rows sharing lines, K-major");
	CHECK_EQ(x->gmem_reads - r0, 4);
	/* all out of bounds: no read, cfill everywhere */
	d.meta = KH_DXA_META(2, 2, 0);
	coord[1] = 8;
	r0 = x->gmem_reads;
	bad += check1(c, &d, coord, "all out of bounds");
	CHECK_EQ(x->gmem_reads - r0, 0);
	/* summed latency: at least the DRAM latency per line */
	CHECK(ctl(c, DX, DY, KH_CTRL_IDX_DXA_GMEM_LAT) >= 30 * x->gmem_reads);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_GMEM_READS), x->gmem_reads);
	/* CU_DBG = {transfers, reads} */
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DBG),
		 ctl(c, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS) << 32 | x->gmem_reads);
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* A queue of copies back to back, and a table write while one runs. */
TEST_F(model, back_to_back)
{
	struct ksim_card *c = dcard();
	u32 size[5] = { 100, 1, 1, 1, 1 };
	u16 tile[5] = { 64, 1, 1, 1, 1 };
	static struct tref r;
	static u8 got[KH_DXA_MAX_TILE_BYTES];
	struct kh_flit f;
	struct td d;
	struct tk k;
	unsigned int n, i, g, bad = 0;

	REQUIRE(c);
	dense(&d, 1, 3, size, tile, 0);	/* 512 bytes */
	CHECK(slot_write(c, 5, &d));
	memset(&k, 0, sizeof(k));
	k.slot = 5;
	k.nrecv = 1;
	n = ns_count(c, DX, DY);
	for (i = 0; i < 4; i++) {
		k.coord[0] = i * 10;
		k.recv[0] = KH_DXA_RECV(SX_[i], SY_[i], 0, 16 * i);
		copy_flit(&f, &k);
		mh_mb_send(c, &f);
	}
	/* rewriting slot 5 mid-way changes nothing already taken */
	{
		struct td e = d;
		u8 b[KH_DXA_SLOT_BYTES];

		e.base += 8;
		td_bytes(&e, b);
		burst(c, DX, DY, 0, 2 * 6, b, 2, false);
	}
	CHECK(mh_wait_count(c, DX, DY, n + 4, 100000));
	for (i = 0; i < 4; i++) {
		u32 co[5] = { i * 10, 0, 0, 0, 0 };

		ref_copy(&d, co, &r);
		scr_read(c, i, 16 * i, r.gran, got);
		for (g = 0; g < r.gran * GR; g++)
			if (got[g] != r.out[g])
				bad++;
	}
	CHECK_EQ(bad, 0);
	/* the perf counters are in the card's counter dump too */
	{
		static char dump[16384];
		char want[64];

		ksim_dump_stats(c, dump, sizeof(dump));
		snprintf(want, sizeof(want), " dxa_transfers=4 dxa_gmem_reads=%llu",
			 (unsigned long long)dxa_of(c)->gmem_reads);
		CHECK(strstr(dump, want) != NULL);
	}
	ksim_card_destroy(c);
}

/*
 * Random descriptors: any rank, element size and layout, strides that
 * overlap rows or are 0, coordinates in and out of bounds, 1-4 receivers
 * at random offsets.
 */
TEST_F(model, random_descriptors)
{
	struct ksim_card *c = dcard();
	unsigned int rep, k, bad = 0;
	char what[64];

	REQUIRE(c);
	for (rep = 0; rep < 60; rep++) {
		unsigned int R = 1 + rnd() % 5, lg = rnd() % 4, eb = 1u << lg;
		unsigned int n = 1 + rnd() % 4, gran;
		static const unsigned int rs[4] = { 0, 1, 2, 3 };
		u32 coord[5] = { 0 }, off[4], elems = 1;
		struct td d;

		memset(&d, 0, sizeof(d));
		d.base = SRC_BASE + (u64)(rnd() % 4096) * eb;
		d.meta = KH_DXA_META(R, lg, R <= 2 && (rnd() & 1));
		d.cfill = rnd();
		for (k = 0; k < R; k++) {
			d.size[k] = 1 + rnd() % (k ? 8 : 300);
			d.tile[k] = 1 + rnd() % (k ? 4 : 64);
			while (elems * d.tile[k] * eb > KH_DXA_MAX_TILE_BYTES)
				d.tile[k] = d.tile[k] / 2 ? d.tile[k] / 2 : 1;
			elems *= d.tile[k];
			coord[k] = rnd() % d.size[k];
			if (k)
				d.stride[k - 1] = (rnd() % 3 ? rnd() % 2048 : 0) * eb;
		}
		/* one dimension in three cases on or past its edge */
		if (!(rnd() % 3)) {
			k = rnd() % R;
			coord[k] = d.size[k] - 1 + rnd() % 2;
		}
		gran = (elems * eb + GR - 1) / GR;
		for (k = 0; k < n; k++)
			off[k] = rnd() % (KH_SCR_GRANULES - gran + 1);
		snprintf(what, sizeof(what), "random #%u (rank %u eb %u%s, %u recv)",
			 rep, R, eb, d.meta & KH_DXA_META_KMAJOR ? " K" : "", n);
		bad += check_copy(c, &d, coord, n, rs, off, what);
	}
	check_diag("60 random copies: %llu lines read, %llu cycles",
		 (unsigned long long)dxa_of(c)->gmem_reads,
		 (unsigned long long)ksim_cycles(c));
	CHECK_EQ(bad, 0);
	ksim_card_destroy(c);
}

/* ------------------------------------------------------------------ */
/* faults                                                              */

static void expect_fault(u64 ns, u32 code, const char *what)
{
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_FAULT && KH_NS_ARG(ns) == code,
		  "%s: signal %#x arg %#x, want SIG_FAULT %#x", what,
		  KH_NS_CODE(ns), KH_NS_ARG(ns), code);
}

/* The first six codes: decided before anything is read or sent. */
TEST_F(model, faults_before_anything)
{
	struct ksim_card *c = dcard();
	u32 size[5] = { 64, 8, 4, 1, 1 };
	u16 tile[5] = { 8, 2, 2, 1, 1 };
	struct {
		const char *what;
		u32 code;
		int field;	/* which change */
	} cases[] = {
		{ "op 2", KH_DXA_FAULT_BAD_OP, 0 },
		{ "op 0", KH_DXA_FAULT_BAD_OP, 1 },
		{ "[245:240] not 0", KH_DXA_FAULT_BAD_OP, 2 },
		{ "never written", KH_DXA_FAULT_EMPTY_SLOT, 3 },
		{ "written empty", KH_DXA_FAULT_EMPTY_SLOT, 4 },
		{ "rank 6", KH_DXA_FAULT_BAD_META, 5 },
		{ "rank 7", KH_DXA_FAULT_BAD_META, 6 },
		{ "swizzle", KH_DXA_FAULT_BAD_META, 7 },
		{ "interleave", KH_DXA_FAULT_BAD_META, 8 },
		{ "L2 promotion", KH_DXA_FAULT_BAD_META, 9 },
		{ "meta [31:12]", KH_DXA_FAULT_BAD_META, 10 },
		{ "base bit 40", KH_DXA_FAULT_BAD_META, 11 },
		{ "base not element-aligned", KH_DXA_FAULT_BAD_META, 12 },
		{ "stride not element-aligned", KH_DXA_FAULT_BAD_META, 13 },
		{ "K-major rank 3", KH_DXA_FAULT_KMAJOR_RANK, 14 },
		{ "tile 0 in dim 0", KH_DXA_FAULT_ZERO_TILE, 15 },
		{ "tile 0 in dim 2", KH_DXA_FAULT_ZERO_TILE, 16 },
		{ "8 KiB + 1 element", KH_DXA_FAULT_TILE_TOO_BIG, 17 },
		{ "65535^2 elements", KH_DXA_FAULT_TILE_TOO_BIG, 18 },
	};
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u64 g0 = ctl(c, SX_[0], SY_[0], KH_CTRL_IDX_DBG), ns;
		struct ctrs a, b;
		struct td d;
		struct tk k;
		unsigned int slot = 2;

		dense(&d, 3, 2, size, tile, 0);
		memset(&k, 0, sizeof(k));
		k.slot = slot;
		k.nrecv = 1;
		k.recv[0] = KH_DXA_RECV(SX_[0], SY_[0], 0, 0);
		switch (cases[i].field) {
		case 0: k.op = 2; break;
		case 1: k.op = 0xf; break;
		case 2: k.zero = 0x20; break;
		case 3: k.slot = 15; break;
		case 4: d.meta = KH_DXA_META(0, 2, 0); break;
		case 5: d.meta = KH_DXA_META(6, 2, 0); break;
		case 6: d.meta = KH_DXA_META(7, 2, 0); break;
		case 7: d.meta |= KH_DXA_META_SWIZZLE & (1u << 7); break;
		case 8: d.meta |= KH_DXA_META_INTERLEAVE & (1u << 8); break;
		case 9: d.meta |= KH_DXA_META_L2PROMO; break;
		case 10: d.meta |= 1u << 31; break;
		case 11: d.base |= 1ULL << 40; break;
		case 12: d.base += 2; break;
		case 13: d.stride[1] += 2; break;
		case 14: d.meta |= KH_DXA_META_KMAJOR; break;
		case 15: d.tile[0] = 0; break;
		case 16: d.tile[2] = 0; break;
		case 17:
			d.meta = KH_DXA_META(2, 0, 0);
			d.tile[0] = 129;
			d.tile[1] = 64;	/* 8256 bytes */
			break;
		case 18:
			d.meta = KH_DXA_META(2, 3, 0);
			d.tile[0] = d.tile[1] = 0xffff;
			break;
		}
		if (cases[i].field != 3)
			CHECK(slot_write(c, slot, &d));
		ctrs_of(c, &a);
		ns = copy_run(c, &k, 2000);
		ctrs_of(c, &b);
		expect_fault(ns, cases[i].code, cases[i].what);
		CHECK_MSG(b.rd == a.rd && b.lw == a.lw && b.tr == a.tr,
			  "%s: read %llu, sent %llu", cases[i].what,
			  (unsigned long long)(b.rd - a.rd),
			  (unsigned long long)(b.lw - a.lw));
		CHECK_EQ(ctl(c, SX_[0], SY_[0], KH_CTRL_IDX_DBG), g0);
		/* the fault retires one cycle after the accept */
		CHECK_EQ(dxa_of(c)->t_first_req, 0);
	}
	/* the exact 8 KiB limit is no fault */
	{
		u32 sz[5] = { 256, 32, 1, 1, 1 }, co[5] = { 0 };
		u16 tl[5] = { 256, 32, 1, 1, 1 };
		struct td d;

		dense(&d, 2, 0, sz, tl, 0);
		CHECK_EQ(check1(c, &d, co, "8 KiB tile"), 0);
	}
	ksim_card_destroy(c);
}

/*
 * NO_ACK: a receiver that refuses (a buffer it does not take, a burst past
 * its end, a unit that drops everything); the others still got theirs.
 */
TEST_F(model, no_ack)
{
	struct ksim_card *c = dcard();
	struct ksim_dxa *x = dxa_of(c);
	u32 size[5] = { 64, 1, 1, 1, 1 }, coord[5] = { 0 };
	u16 tile[5] = { 64, 1, 1, 1, 1 };
	static struct tref r;
	static u8 got[KH_DXA_MAX_TILE_BYTES];
	struct td d;
	struct tk k;
	unsigned int t, g, bad = 0;
	u64 ns;

	REQUIRE(c);
	dense(&d, 1, 2, size, tile, 0);	/* 8 granules */
	ref_copy(&d, coord, &r);
	CHECK(slot_write(c, 0, &d));
	for (t = 0; t < 4; t++) {
		u64 tr = ctl(c, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS);

		memset(&k, 0, sizeof(k));
		k.nrecv = 2;
		k.recv[0] = KH_DXA_RECV(SX_[1], SY_[1], 0, 40);
		switch (t) {
		case 0:	/* scr buffer 1 */
			k.recv[1] = KH_DXA_RECV(SX_[2], SY_[2], 1, 0);
			break;
		case 1:	/* past granule 255 */
			k.recv[1] = KH_DXA_RECV(SX_[2], SY_[2], 0, 250);
			break;
		case 2:	/* the null unit */
			k.recv[1] = KH_DXA_RECV(2, 2, 0, 0);
			break;
		case 3:	/* the refusing receiver first */
			k.recv[1] = k.recv[0];
			k.recv[0] = KH_DXA_RECV(SX_[2], SY_[2], 2, 0);
			break;
		}
		ns = copy_run(c, &k, 20000);
		expect_fault(ns, KH_DXA_FAULT_NO_ACK, "refusing receiver");
		/*
		 * when the refusing receiver's time is up: KH_DXA_ACK_TIMEOUT
		 * after its own last flit (receiver 0's is a burst before the
		 * last), seen by the host once the fault's signal has crossed
		 * the mesh (three edges a router) and a few polls later
		 */
		{
			u64 due = x->t_last_send + KH_DXA_ACK_TIMEOUT -
				  (t == 3 ? r.gran + 1 : 0);

			CHECK_MSG(ksim_cycles(c) >= due && ksim_cycles(c) < due + 16,
				  "NO_ACK seen at %llu, due at %llu",
				  (unsigned long long)ksim_cycles(c),
				  (unsigned long long)due);
		}
		CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS), tr);
		/* the good receiver's ack was matched to it, by its source */
		CHECK_EQ(x->acked[t == 3 ? 1 : 0], true);
		CHECK_EQ(x->acked[t == 3 ? 0 : 1], false);
		scr_read(c, 1, 40, r.gran, got);
		for (g = 0; g < r.gran * GR; g++)
			if (got[g] != r.out[g])
				bad++;
		memset(got, 0, sizeof(got));
		burst(c, SX_[1], SY_[1], 0, 40, got, r.gran, false);
	}
	CHECK_EQ(bad, 0);
	/* the scratch unit counted the refused bursts */
	CHECK_EQ(ctl(c, SX_[2], SY_[2], KH_CTRL_IDX_DBG) & 0xffffffff, 3);
	/* the unit works on after it */
	CHECK_EQ(check1(c, &d, coord, "after NO_ACK"), 0);
	ksim_card_destroy(c);
}

/* STALL: reads nobody answers (an aperture MAG does not serve). */
TEST_F(model, stall)
{
	struct ksim_card *c = dcard();
	struct ksim_dxa *x = dxa_of(c);
	u32 size[5] = { 64, 1, 1, 1, 1 }, coord[5] = { 0 };
	u16 tile[5] = { 64, 1, 1, 1, 1 };
	struct td d;
	struct tk k;
	u64 ns, t0;

	REQUIRE(c);
	dense(&d, 1, 2, size, tile, 0);
	d.base = KH_MADDR_AP(0, 1, 0x1000);
	CHECK(slot_write(c, 4, &d));
	memset(&k, 0, sizeof(k));
	k.slot = 4;
	k.nrecv = 1;
	k.recv[0] = KH_DXA_RECV(SX_[0], SY_[0], 0, 0);
	t0 = ksim_cycles(c);
	ns = copy_run(c, &k, 10);
	CHECK_EQ(ns, 0);
	ksim_run(c, KH_DXA_STALL_TIMEOUT + 100);
	ns = mh_ns(c, DX, DY);
	expect_fault(ns, KH_DXA_FAULT_STALL, "unanswered reads");
	CHECK(ksim_cycles(c) - t0 >= KH_DXA_STALL_TIMEOUT);
	CHECK_EQ(x->max_out, KH_DXA_MAX_INFLIGHT);
	/* the unit works on after it */
	dense(&d, 1, 2, size, tile, 0);
	CHECK_EQ(check1(c, &d, coord, "after STALL"), 0);
	ksim_card_destroy(c);
}

/* ------------------------------------------------------------------ */
/* timing                                                              */

TEST_F(model, timing)
{
	struct ksim_card *c = dcard_with("param dram_refi 0\n");
	struct ksim_dxa *x = dxa_of(c);
	u32 size[5] = { 512, 32, 1, 1, 1 }, coord[5] = { 0 };
	u16 tile[5] = { 256, 1, 1, 1, 1 };
	static const unsigned int same[2] = { 0, 0 };
	u32 off[2] = { 0, 0 };
	u64 one, two;
	unsigned int G;
	struct td d;

	REQUIRE(c);
	/* 256 x 4 bytes: 32 lines, 32 granules */
	dense(&d, 1, 2, size, tile, 0);
	d.mstride = 64;
	G = 32;
	CHECK_EQ(check_copy(c, &d, coord, 1, same, off, "timing, 1"), 0);
	one = x->t_done - x->t_accept;
	/* setup: the first read three cycles after the accept */
	CHECK_EQ(x->t_first_req, x->t_accept + 1 + KSIM_DXA_SETUP_CYCLES);
	CHECK_EQ(x->max_out, KH_DXA_MAX_INFLIGHT);
	/* row-major: a line is placed the cycle after it arrives */
	CHECK_EQ(x->t_placed, x->t_last_resp + 1);
	/* the burst the cycle after, one flit a cycle */
	CHECK_EQ(x->t_first_send, x->t_placed + 1);
	CHECK_EQ(x->t_last_send - x->t_first_send + 1, G + 1);
	CHECK_EQ(check_copy(c, &d, coord, 2, same, off, "timing, 2"), 0);
	two = x->t_done - x->t_accept;
	CHECK_EQ(x->t_last_send - x->t_first_send + 1, 2 * (G + 1));
	/* a second receiver at the same node costs its burst, no more */
	CHECK_EQ(two - one, G + 1);
	/* K-major: one element a cycle, 8 in the last line */
	size[0] = 8;
	size[1] = 32;
	tile[0] = 8;
	tile[1] = 32;
	dense(&d, 2, 2, size, tile, 0);
	d.meta |= KH_DXA_META_KMAJOR;
	CHECK_EQ(check_copy(c, &d, coord, 1, same, off, "timing, K-major"), 0);
	CHECK_EQ(x->t_placed, x->t_last_resp + 8);
	/* the same tile row-major: one cycle a line */
	d.meta &= ~KH_DXA_META_KMAJOR;
	CHECK_EQ(check_copy(c, &d, coord, 1, same, off, "timing, row-major"), 0);
	CHECK_EQ(x->t_placed, x->t_last_resp + 1);
	/* a tile all out of bounds: bursts right after setup */
	coord[1] = 32;
	CHECK_EQ(check_copy(c, &d, coord, 1, same, off, "timing, all OOB"), 0);
	CHECK_EQ(x->t_first_send, x->t_accept + 1 + KSIM_DXA_SETUP_CYCLES);
	ksim_card_destroy(c);
}

/* ------------------------------------------------------------------ */
/* the scratch unit                                                    */

TEST_F(model, scr_copy_out)
{
	struct ksim_card *c = dcard();
	static u8 in[KH_SCR_GRANULES * GR], out[KH_SCR_GRANULES * GR];
	static const u32 cnt[] = { 1, 7, 8, 9, 17, 64, 256 };
	unsigned int i, n, w0, w1;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (u8)rnd();
	n = ns_count(c, SX_[3], SY_[3]);
	burst(c, SX_[3], SY_[3], 0, 0, in, KH_SCR_GRANULES, true);
	CHECK(mh_wait_count(c, SX_[3], SY_[3], n + 1, 20000));
	ns = mh_ns(c, SX_[3], SY_[3]);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(KH_NS_ARG(ns), KH_SCR_BUF);
	CHECK_EQ(ctl(c, SX_[3], SY_[3], KH_CTRL_IDX_DBG),
		 (u64)KH_SCR_GRANULES << 32);
	for (i = 0; i < sizeof(cnt) / sizeof(cnt[0]); i++) {
		u32 first = cnt[i] == 256 ? 0 : rnd() % (257 - cnt[i]);

		w0 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
		memset(out, 0, sizeof(out));
		scr_read(c, 3, first, cnt[i], out);
		w1 = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
		CHECK_MSG(!memcmp(out, in + first * GR, cnt[i] * GR),
			  "COPY_OUT %u granules from %u", cnt[i], first);
		/* bursts of at most 8 beats: ceil(n / 8) writes */
		CHECK_EQ((w1 - w0) & 0xffff, (cnt[i] + 7) / 8);
	}
	/* a burst without flags[0] lands, unacknowledged */
	n = ns_count(c, SX_[3], SY_[3]);
	burst(c, SX_[3], SY_[3], 0, 10, in + 100 * GR, 3, false);
	ksim_run(c, 200);
	CHECK_EQ(ns_count(c, SX_[3], SY_[3]), n);
	scr_read(c, 3, 10, 3, out);
	CHECK(!memcmp(out, in + 100 * GR, 3 * GR));
	ksim_card_destroy(c);
}

TEST_F(model, scr_refusals_and_faults)
{
	struct ksim_card *c = dcard();
	static u8 in[16 * GR], out[16 * GR], z[16 * GR];
	unsigned int i, n;

	REQUIRE(c);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (u8)(rnd() | 1);
	memset(z, 0, sizeof(z));
	/* buffer 1; past granule 255 (250 + 7 granules); neither lands */
	n = ns_count(c, SX_[0], SY_[0]);
	burst(c, SX_[0], SY_[0], 1, 0, in, 4, true);
	burst(c, SX_[0], SY_[0], 0, 250, in, 7, true);
	ksim_run(c, 300);
	CHECK_EQ(ns_count(c, SX_[0], SY_[0]), n);
	CHECK_EQ(ctl(c, SX_[0], SY_[0], KH_CTRL_IDX_DBG), 2);
	scr_read(c, 0, 0, 4, out);
	CHECK(!memcmp(out, z, 4 * GR));
	scr_read(c, 0, 240, 16, out);
	CHECK(!memcmp(out, z, 16 * GR));
	/* flush with the end is taken: 249 + 7 = 256 */
	n = ns_count(c, SX_[0], SY_[0]);
	burst(c, SX_[0], SY_[0], 0, 249, in, 7, true);
	CHECK(mh_wait_count(c, SX_[0], SY_[0], n + 1, 2000));
	scr_read(c, 0, 249, 7, out);
	CHECK(!memcmp(out, in, 7 * GR));
	CHECK_EQ(ctl(c, SX_[0], SY_[0], KH_CTRL_IDX_DBG), 7ULL << 32 | 2);
	/* faults: op, range, alignment; nothing written */
	n = KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT));
	expect_fault(scr_inst(c, 0, 2, 0, 1, KH_MADDR(0, OUT_BASE)),
		     KH_SCR_FAULT_BAD_OP, "scr op 2");
	expect_fault(scr_inst(c, 0, 0, 0, 1, KH_MADDR(0, OUT_BASE)),
		     KH_SCR_FAULT_BAD_OP, "scr op 0");
	expect_fault(scr_inst(c, 0, 1, 250, 7, KH_MADDR(0, OUT_BASE)),
		     KH_SCR_FAULT_RANGE, "scr 250 + 7");
	expect_fault(scr_inst(c, 0, 1, 0xffff, 1, KH_MADDR(0, OUT_BASE)),
		     KH_SCR_FAULT_RANGE, "scr first 0xffff");
	expect_fault(scr_inst(c, 0, 1, 0, 1, KH_MADDR(0, OUT_BASE + 16)),
		     KH_SCR_FAULT_ALIGN, "scr addr + 16");
	ksim_run(c, 200);
	CHECK_EQ(KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)), n);
	/* 249 + 7 is not past the end */
	scr_read(c, 0, 249, 7, out);
	ksim_card_destroy(c);
}

TEST_F(model, scr_ctrl_readback)
{
	struct ksim_card *c = dcard();
	static u8 in[KH_SCR_GRANULES * GR];
	unsigned int i, w, n, bad = 0;

	REQUIRE(c);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (u8)rnd();
	n = ns_count(c, SX_[1], SY_[1]);
	burst(c, SX_[1], SY_[1], 0, 0, in, KH_SCR_GRANULES, true);
	CHECK(mh_wait_count(c, SX_[1], SY_[1], n + 1, 20000));
	for (w = 0; w < KH_SCR_GRANULES * GR / 8; w += 7) {
		u64 want = 0;

		mm_ctrl_wr(c, 0, SX_[1], SY_[1], KH_CTRL_IDX_SCR_SEL, w);
		for (i = 0; i < 8; i++)
			want |= (u64)in[w * 8 + i] << (8 * i);
		if (ctl(c, SX_[1], SY_[1], KH_CTRL_IDX_SCR_DATA) != want)
			bad++;
	}
	CHECK_EQ(bad, 0);
	mm_ctrl_wr(c, 0, SX_[1], SY_[1], KH_CTRL_IDX_SCR_SEL, 1024 + 3);
	CHECK_EQ(ctl(c, SX_[1], SY_[1], KH_CTRL_IDX_SCR_SEL), 3);
	/* the rest of the addon window reads 0 */
	CHECK_EQ(ctl(c, SX_[1], SY_[1], 0xf2), 0);
	ksim_card_destroy(c);
}

/* A mesh reset keeps the table and the scratch buffers, not the counters. */
TEST_F(model, reset_keeps_table_and_buffers)
{
	struct ksim_card *c = dcard();
	u32 size[5] = { 64, 1, 1, 1, 1 }, coord[5] = { 0 };
	u16 tile[5] = { 64, 1, 1, 1, 1 };
	static u8 in[4 * GR], out[4 * GR];
	unsigned int i, n;
	struct td d;

	REQUIRE(c);
	dense(&d, 1, 2, size, tile, 0);
	CHECK_EQ(check1(c, &d, coord, "before reset"), 0);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (u8)rnd();
	n = ns_count(c, SX_[2], SY_[2]);
	burst(c, SX_[2], SY_[2], 0, 100, in, 4, true);
	CHECK(mh_wait_count(c, SX_[2], SY_[2], n + 1, 2000));
	mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, 9);
	CHECK_EQ(ksim_mesh_reset(c, 0), 0);
	for (i = 0; i < 1000 && ksim_mesh_in_reset(c, 0); i++)
		ksim_run(c, 100);
	CHECK(!ksim_mesh_in_reset(c, 0));
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_TRANSFERS), 0);
	CHECK_EQ(ctl(c, DX, DY, KH_CTRL_IDX_DXA_SEL), 0);
	CHECK_EQ(ctl(c, SX_[2], SY_[2], KH_CTRL_IDX_DBG), 0);
	scr_read(c, 2, 100, 4, out);
	CHECK(!memcmp(out, in, sizeof(in)));
	/* the slot written before the reset still copies: no table write now */
	{
		static struct tref r;
		static u8 got[KH_DXA_MAX_TILE_BYTES];
		struct tk k;
		u64 ns;

		ref_copy(&d, coord, &r);
		memset(&k, 0, sizeof(k));
		k.nrecv = 1;
		for (i = 0; i < KH_DXA_SLOTS; i++) {
			u8 b[KH_DXA_SLOT_BYTES], t[KH_DXA_SLOT_BYTES];
			unsigned int w, j;

			td_bytes(&d, b);
			for (w = 0; w < 8; w++) {
				u64 v;

				mm_ctrl_wr(c, 0, DX, DY, KH_CTRL_IDX_DXA_SEL, i * 8 + w);
				v = ctl(c, DX, DY, KH_CTRL_IDX_DXA_DATA);
				for (j = 0; j < 8; j++)
					t[w * 8 + j] = (u8)(v >> (8 * j));
			}
			if (!memcmp(b, t, sizeof(b)))
				break;
		}
		CHECK(i < KH_DXA_SLOTS);
		k.slot = i;
		k.recv[0] = KH_DXA_RECV(SX_[3], SY_[3], 0, 0);
		ns = copy_run(c, &k, 100000);
		CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
		scr_read(c, 3, 0, r.gran, got);
		CHECK(!memcmp(got, r.out, r.gran * GR));
	}
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
