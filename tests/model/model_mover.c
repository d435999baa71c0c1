// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The memory mover (docs/spec/mover.md) through AUX_CFG and AUX_STAT:
 * copy over 1-, 2- and 3-D walks (negative strides too), gather through
 * an index buffer, the counter-based generator against an independent
 * implementation, fill at each element width, padding and cropping
 * windows, every fault code, busy / moves done / fault in AUX_STAT, GO
 * while busy, timing, L2 staging, and the MAG counts it does not touch.
 */
#include "mclient.h"
#include "harness.h"

CHECK_FIXTURE(model)

static const char ship_map[] =
	"profile ship\n"
	"param dram_mib 16\n"
	"xxx  mcl  xxx\n"
	"mag  mcl  nul\n"
	"xxx  mcl  xxx\n";

static const char rtl_map[] =
	"profile rtl\n"
	"xxx  mcl  xxx\n"
	"mag  mcl  nul\n"
	"xxx  mcl  xxx\n";

static void walk(struct ksim_card *c, unsigned int w, u64 base,
		 unsigned int ndims)
{
	mc_cfg(c, 0, KH_MV_WALK_BASE,
	       w | ((base & ((1ULL << 40) - 1)) << 4) | ((u64)ndims << 44));
}

static void dim(struct ksim_card *c, unsigned int w, unsigned int d,
		unsigned int count, s32 stride)
{
	mc_cfg(c, 0, KH_MV_WALK_DIM, w | (d << 1) | ((u64)count << 4) |
	       ((u64)(u32)stride << 20));
}

/* A 1-D walk of n words from base. */
static void walk1(struct ksim_card *c, unsigned int w, u64 base,
		  unsigned int n)
{
	walk(c, w, base, 1);
	dim(c, w, 0, n, 32);
}

static void go(struct ksim_card *c, unsigned int mode, unsigned int ew)
{
	mc_cfg(c, 0, KH_MV_CMD, mode | (ew << 3) | KH_MV_GO);
}

/* Poll AUX_STAT until the mover is idle; the last value. */
static u64 wait_idle(struct ksim_card *c)
{
	unsigned int i;
	u64 s = 0;

	for (i = 0; i < 100000; i++) {
		s = mc_aux(c, 0);
		if (!(s & KH_AUX_BUSY))
			break;
	}
	return s;
}

static void put_words(struct ksim_card *c, u64 addr, u64 tag,
		      unsigned int n)
{
	u64 w[4];
	unsigned int k, j;

	for (k = 0; k < n; k++) {
		for (j = 0; j < 4; j++)
			w[j] = tag + k * 4 + j;
		CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, addr + 32 * k), w,
					  32), 0);
	}
}

/* Word `k` of the tagged pattern is at addr? */
static bool word_is(struct ksim_card *c, u64 addr, u64 tag, unsigned int k)
{
	u64 w[4];
	unsigned int j;

	if (ksim_dma_read(c, KH_CARD_ADDR(0, addr), w, 32))
		return false;
	for (j = 0; j < 4; j++)
		if (w[j] != tag + k * 4 + j)
			return false;
	return true;
}

static bool word_zero(struct ksim_card *c, u64 addr)
{
	u64 w[4];

	ksim_dma_read(c, KH_CARD_ADDR(0, addr), w, 32);
	return !(w[0] | w[1] | w[2] | w[3]);
}

TEST_F(model, copy_1d_and_status)
{
	struct ksim_card *c = mc_card(ship_map);
	u64 s0, s, t0, t1 = 0;
	unsigned int k;

	REQUIRE(c);
	put_words(c, 0x1000, 0x100, 16);
	s0 = mc_aux(c, 0);
	CHECK_EQ(s0 & (KH_AUX_BUSY | 0xf0), 0);
	mh_fast_host(c);
	walk1(c, 0, 0x1000, 16);
	walk1(c, 1, 0x8000, 16);
	go(c, KH_MV_MODE_COPY, 2);
	t0 = ksim_cycles(c);
	CHECK(mc_aux(c, 0) & KH_AUX_BUSY);
	while (mc_aux(c, 0) & KH_AUX_BUSY)
		t1 = ksim_cycles(c);
	/* the read latency, a word a cycle, the last BRESP */
	CHECK_MSG(t1 - t0 >= 30 + 16 + 20 - 2 && t1 - t0 <= 30 + 16 + 20 + 6,
		  "busy for %llu cycles", (unsigned long long)(t1 - t0));
	s = mc_aux(c, 0);
	CHECK_EQ(KH_AUX_MOVES(s), KH_AUX_MOVES(s0) + 1);
	CHECK_EQ(KH_AUX_FAULT(s), 0);
	/* the mover's traffic is not in the ports' read/write counts */
	CHECK_EQ(KH_AUX_RD_COUNT(s), KH_AUX_RD_COUNT(s0));
	CHECK_EQ(KH_AUX_WR_COUNT(s), KH_AUX_WR_COUNT(s0));
	for (k = 0; k < 16; k++)
		CHECK_MSG(word_is(c, 0x8000 + 32 * k, 0x100, k), "word %u", k);
	CHECK(word_zero(c, 0x8000 + 32 * 16));
	ksim_card_destroy(c);
}

TEST_F(model, copy_walks_in_several_dims)
{
	struct ksim_card *c = mc_card(ship_map);
	unsigned int k, i, j, l;

	REQUIRE(c);
	put_words(c, 0x10000, 0x200, 64);
	/* 2-D: 3 rows of 4 words, rows 8 words apart -> 12 contiguous */
	walk(c, 0, 0x10000, 2);
	dim(c, 0, 0, 4, 32);
	dim(c, 0, 1, 3, 256);
	walk1(c, 1, 0x20000, 12);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 4; j++)
			CHECK(word_is(c, 0x20000 + 32 * (i * 4 + j), 0x200,
				      i * 8 + j));
	/* a negative stride: reversed */
	walk(c, 0, 0x10000 + 32 * 9, 1);
	dim(c, 0, 0, 10, -32);
	walk1(c, 1, 0x30000, 10);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	for (k = 0; k < 10; k++)
		CHECK(word_is(c, 0x30000 + 32 * k, 0x200, 9 - k));
	/* 3-D source, dim 0 innermost; the destination transposes dims */
	walk(c, 0, 0x10000, 3);
	dim(c, 0, 0, 2, 32);
	dim(c, 0, 1, 3, 64);
	dim(c, 0, 2, 2, 512);
	walk(c, 1, 0x40000, 3);
	dim(c, 1, 0, 2, 32 * 6);	/* dst: dim 0 is the slowest address */
	dim(c, 1, 1, 3, 32);
	dim(c, 1, 2, 2, 32 * 3);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	for (l = 0; l < 2; l++)
		for (j = 0; j < 3; j++)
			for (i = 0; i < 2; i++)
				CHECK(word_is(c, 0x40000 + 32 * (i * 6 + l * 3 + j),
					      0x200, i + j * 2 + l * 16));
	/* ndims 0: one word at the base */
	walk(c, 0, 0x10000 + 32 * 5, 0);
	walk(c, 1, 0x50000, 0);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	CHECK(word_is(c, 0x50000, 0x200, 5));
	CHECK(word_zero(c, 0x50020));
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 4);
	ksim_card_destroy(c);
}

TEST_F(model, gather_through_the_index_buffer)
{
	static const u32 idx[5] = { 5, 0, 3, 3, 7 };
	struct ksim_card *c = mc_card(ship_map);
	unsigned int j, w;

	REQUIRE(c);
	put_words(c, 0x30000, 0x300, 16);	/* rows of 2 words, pitch 64 */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x20000), idx, 20), 0);
	walk(c, 0, 0x30000, 0);
	walk1(c, 1, 0x60000, 10);
	mc_cfg(c, 0, KH_MV_INDEX, 0x20000 | (5ULL << 40));
	mc_cfg(c, 0, KH_MV_GATHER, 64 | (2ULL << 32));
	go(c, KH_MV_MODE_GATHER, 2);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	for (j = 0; j < 5; j++)
		for (w = 0; w < 2; w++)
			CHECK_MSG(word_is(c, 0x60000 + 32 * (j * 2 + w), 0x300,
					  idx[j] * 2 + w), "row %u word %u", j, w);
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 1);
	/* index count x words must be the destination's length */
	walk1(c, 1, 0x60000, 9);
	go(c, KH_MV_MODE_GATHER, 2);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_INDEX_LEN);
	mc_cfg(c, 0, KH_MV_INDEX, 0x20000);		/* count 0 */
	walk1(c, 1, 0x60000, 0);
	go(c, KH_MV_MODE_GATHER, 2);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_INDEX_LEN);
	mc_cfg(c, 0, KH_MV_INDEX, 0x20000 | (5ULL << 40));
	mc_cfg(c, 0, KH_MV_GATHER, 64);			/* words 0 */
	go(c, KH_MV_MODE_GATHER, 2);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_INDEX_LEN);
	/* an index past the DRAM: range, after the rows before it */
	{
		u32 bad[2] = { 1, 0x10000000 };

		CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x21000), bad, 8), 0);
	}
	mc_cfg(c, 0, KH_MV_INDEX, 0x21000 | (2ULL << 40));
	mc_cfg(c, 0, KH_MV_GATHER, 64 | (1ULL << 32));
	walk1(c, 1, 0x70000, 2);
	go(c, KH_MV_MODE_GATHER, 2);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), KH_MV_FAULT_RANGE);
	CHECK(word_is(c, 0x70000, 0x300, 2));
	CHECK(word_zero(c, 0x70020));
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 1);	/* faults do not count */
	ksim_card_destroy(c);
}

/* The generator, written from the spec text. */
static u64 ref_mix(u64 seed, u64 k)
{
	u64 z = seed + (k + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

TEST_F(model, generate_counter_based_prng)
{
	struct ksim_card *c = mc_card(ship_map);
	unsigned int ew, n, e, b;
	u8 got[4 * 32];

	REQUIRE(c);
	mc_cfg(c, 0, KH_MV_SEED, 0x0123456789abcdefULL);
	for (ew = 0; ew < 3; ew++) {
		unsigned int esz = 1u << ew;

		walk1(c, 1, 0x80000 + 0x1000 * ew, 4);
		go(c, KH_MV_MODE_GENERATE, ew);
		CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x80000 + 0x1000 * ew),
					 got, sizeof(got)), 0);
		for (n = 0, e = 0; n < sizeof(got); n += esz, e++) {
			u64 v = ref_mix(0x0123456789abcdefULL, e), g = 0;

			for (b = 0; b < esz; b++)
				g |= (u64)got[n + b] << (8 * b);
			CHECK_MSG(g == (v & ((1ULL << (8 * esz)) - 1)),
				  "ew %u element %u", ew, e);
		}
	}
	/* cropping skips words without shifting the sequence */
	mc_cfg(c, 0, KH_MV_AXIS_WIN, 1 | (0ULL << 2) | (2ULL << 18));
	mc_cfg(c, 0, KH_MV_AXIS, 1 | (1ULL << 2));
	walk1(c, 1, 0x90000, 4);
	go(c, KH_MV_MODE_GENERATE, 2);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x90000), got, sizeof(got)), 0);
	for (e = 0; e < 16; e++) {
		u32 g;

		memcpy(&g, got + 4 * e, 4);
		CHECK_EQ(g, (u32)ref_mix(0x0123456789abcdefULL, e));
	}
	for (e = 64; e < 128; e++)
		CHECK_EQ(got[e], 0);
	ksim_card_destroy(c);
}

TEST_F(model, fill_at_each_element_width)
{
	static const u8 want[3][4] = {
		{ 0xd4, 0xd4, 0xd4, 0xd4 },
		{ 0xd4, 0xc3, 0xd4, 0xc3 },
		{ 0xd4, 0xc3, 0xb2, 0xa1 },
	};
	struct ksim_card *c = mc_card(ship_map);
	unsigned int ew, i;
	u8 got[64];

	REQUIRE(c);
	mc_cfg(c, 0, KH_MV_IMM, 0xa1b2c3d4);
	for (ew = 0; ew < 3; ew++) {
		walk1(c, 1, 0xa0000 + 0x100 * ew, 2);
		go(c, KH_MV_MODE_FILL, ew);
		CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0xa0000 + 0x100 * ew),
					 got, 64), 0);
		for (i = 0; i < 64; i++)
			CHECK_EQ(got[i], want[ew][i % 4]);
	}
	ksim_card_destroy(c);
}

TEST_F(model, windows_pad_the_source_and_crop_the_destination)
{
	struct ksim_card *c = mc_card(ship_map);
	u64 w[4];
	unsigned int k;

	REQUIRE(c);
	put_words(c, 0x1000, 0x400, 8);
	mc_cfg(c, 0, KH_MV_IMM, 0x77);
	/* source window on dim 0: coordinates -1..4, inside 0..3 */
	mc_cfg(c, 0, KH_MV_AXIS_WIN, 0 | ((u64)(u16)-1 << 2) | (4ULL << 18));
	mc_cfg(c, 0, KH_MV_AXIS, 0 | (1ULL << 2));
	walk1(c, 0, 0x1000 - 32, 6);
	walk1(c, 1, 0x2000, 6);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	for (k = 1; k <= 4; k++)
		CHECK(word_is(c, 0x2000 + 32 * k, 0x400, k - 1));
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x2000), w, 32), 0);
	CHECK_EQ(w[0], 0x7777777777777777ULL);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x20a0), w, 32), 0);
	CHECK_EQ(w[3], 0x7777777777777777ULL);
	/* a window on dim 1 of the source: whole rows of padding */
	mc_cfg(c, 0, KH_MV_AXIS_WIN, 0 | (0ULL << 18));	/* window 0 off */
	mc_cfg(c, 0, KH_MV_AXIS_WIN, 2 | (1ULL << 2) | (2ULL << 18));
	mc_cfg(c, 0, KH_MV_AXIS, 2 | (1ULL << 2));
	walk(c, 0, 0x1000, 2);
	dim(c, 0, 0, 2, 32);
	dim(c, 0, 1, 3, 64);
	walk1(c, 1, 0x3000, 6);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	/* rows 0 and 1 are coordinates 1, 2: row 0 in, row 1 out (extent 2) */
	CHECK(word_is(c, 0x3000, 0x400, 0));
	CHECK(word_is(c, 0x3020, 0x400, 1));
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x3040), w, 32), 0);
	CHECK_EQ(w[0], 0x7777777777777777ULL);
	mc_cfg(c, 0, KH_MV_AXIS_WIN, 2 | (0ULL << 18));	/* window 2 off */
	/* a destination window: positions 5..7 cropped */
	mc_cfg(c, 0, KH_MV_AXIS_WIN, 1 | (0ULL << 2) | (5ULL << 18));
	mc_cfg(c, 0, KH_MV_AXIS, 1 | (1ULL << 2));
	walk1(c, 1, 0x1000, 8);
	go(c, KH_MV_MODE_FILL, 2);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x1080), w, 32), 0);
	CHECK_EQ(w[0], 0x0000007700000077ULL);
	for (k = 5; k < 8; k++)
		CHECK(word_is(c, 0x1000 + 32 * k, 0x400, k));
	ksim_card_destroy(c);
}

TEST_F(model, mode_and_element_width_faults)
{
	struct ksim_card *c = mc_card(ship_map);
	unsigned int m;
	u64 s;

	REQUIRE(c);
	walk1(c, 1, 0x1000, 1);
	/* transpose is not implemented: mode fault, at GO, never busy */
	go(c, KH_MV_MODE_TRANSPOSE, 0);
	s = mc_aux(c, 0);
	CHECK_EQ(KH_AUX_FAULT(s), KH_MV_FAULT_MODE);
	CHECK_EQ(s & KH_AUX_BUSY, 0);
	for (m = 5; m < 8; m++) {
		go(c, m, 0);
		CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_MODE);
	}
	go(c, KH_MV_MODE_FILL, 3);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_EW);
	go(c, KH_MV_MODE_TRANSPOSE, 3);		/* the mode is checked first */
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_MODE);
	/* the next good GO clears the fault */
	go(c, KH_MV_MODE_FILL, 0);
	s = wait_idle(c);
	CHECK_EQ(KH_AUX_FAULT(s), 0);
	CHECK_EQ(KH_AUX_MOVES(s), 1);
	/* without GO, CMD only stores */
	mc_cfg(c, 0, KH_MV_CMD, KH_MV_MODE_TRANSPOSE);
	CHECK_EQ(mc_aux(c, 0), s);
	ksim_card_destroy(c);
}

TEST_F(model, alignment_and_length_faults)
{
	struct ksim_card *c = mc_card(ship_map);

	REQUIRE(c);
	walk1(c, 1, 0x1010, 1);			/* destination base */
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	walk(c, 1, 0x1000, 1);
	dim(c, 1, 0, 2, 48);			/* destination stride */
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	walk1(c, 1, 0x1000, 2);
	walk(c, 0, 0x2000, 1);
	dim(c, 0, 0, 2, -16);			/* source stride */
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	go(c, KH_MV_MODE_FILL, 0);		/* fill ignores the source */
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	walk(c, 0, 0x2004, 0);			/* gather: source base */
	mc_cfg(c, 0, KH_MV_INDEX, 0x3000 | (2ULL << 40));
	mc_cfg(c, 0, KH_MV_GATHER, 64 | (1ULL << 32));
	go(c, KH_MV_MODE_GATHER, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	walk(c, 0, 0x2000, 0);
	mc_cfg(c, 0, KH_MV_GATHER, 40 | (1ULL << 32));	/* pitch */
	go(c, KH_MV_MODE_GATHER, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	mc_cfg(c, 0, KH_MV_GATHER, 64 | (1ULL << 32));
	mc_cfg(c, 0, KH_MV_INDEX, 0x3008 | (2ULL << 40));	/* index base */
	go(c, KH_MV_MODE_GATHER, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	mc_cfg(c, 0, KH_MV_INDEX, 0x3000 | (2ULL << 40));
	go(c, KH_MV_MODE_GATHER, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	/* alignment is checked before lengths; lengths: copy and ndims */
	walk1(c, 0, 0x2000, 3);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_INDEX_LEN);
	walk1(c, 1, 0x1008, 2);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_ALIGN);
	walk(c, 1, 0x1000, 7);
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), KH_MV_FAULT_INDEX_LEN);
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 2);
	ksim_card_destroy(c);
}

TEST_F(model, range_and_axi_faults)
{
	struct ksim_card *c = mc_card(ship_map);
	u64 s;

	REQUIRE(c);
	put_words(c, 0x1000, 0x500, 4);
	/* a walk running past the 16 MiB DRAM: the words before it move */
	walk1(c, 0, 0x1000, 4);
	walk1(c, 1, (16u << 20) - 64, 4);
	go(c, KH_MV_MODE_COPY, 0);
	s = wait_idle(c);
	CHECK_EQ(KH_AUX_FAULT(s), KH_MV_FAULT_RANGE);
	CHECK(word_is(c, (16u << 20) - 64, 0x500, 0));
	CHECK(word_is(c, (16u << 20) - 32, 0x500, 1));
	/* below address 0 */
	walk(c, 0, 0x20, 1);
	dim(c, 0, 0, 4, -32);
	walk1(c, 1, 0x4000, 4);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), KH_MV_FAULT_RANGE);
	CHECK(word_zero(c, 0x4000 + 64));
	/* L2 staging past its 2 MiB */
	walk1(c, 1, KH_MADDR_AP(0, 0, (2u << 20) - 32), 2);
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), KH_MV_FAULT_RANGE);
	/* apertures nobody answers: AXI */
	walk1(c, 1, KH_MADDR_AP(0, 1, 0), 2);
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), KH_MV_FAULT_AXI);
	walk1(c, 0, KH_MADDR_AP(0, 5, 0), 2);
	walk1(c, 1, 0x5000, 2);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), KH_MV_FAULT_AXI);
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 0);
	ksim_card_destroy(c);

	/* no L2 staging (profile rtl): aperture 0 is AXI too */
	c = mc_card(rtl_map);
	REQUIRE(c);
	walk1(c, 1, KH_MADDR_AP(0, 0, 0), 1);
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), KH_MV_FAULT_AXI);
	ksim_card_destroy(c);
}

TEST_F(model, go_while_busy_is_ignored)
{
	struct ksim_card *c = mc_card(ship_map);
	u64 s;

	REQUIRE(c);
	mh_fast_host(c);
	mc_cfg(c, 0, KH_MV_IMM, 0x11);
	walk1(c, 1, 0x1000, 200);
	go(c, KH_MV_MODE_FILL, 0);
	CHECK(mc_aux(c, 0) & KH_AUX_BUSY);
	/* a second GO (with new registers) while the first runs */
	mc_cfg(c, 0, KH_MV_IMM, 0x22);
	walk1(c, 1, 0x9000, 1);
	go(c, KH_MV_MODE_FILL, 0);
	s = wait_idle(c);
	CHECK_EQ(KH_AUX_MOVES(s), 1);
	CHECK(word_zero(c, 0x9000));
	/* the first ran with its own copy of the registers */
	{
		u8 b[32];

		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x1000 + 199 * 32), b,
					 32), 0);
		CHECK_EQ(b[0], 0x11);
	}
	/* the stored registers take effect at the next GO */
	go(c, KH_MV_MODE_FILL, 0);
	CHECK_EQ(KH_AUX_MOVES(wait_idle(c)), 2);
	CHECK(!word_zero(c, 0x9000));
	ksim_card_destroy(c);
}

TEST_F(model, to_and_from_l2_staging)
{
	struct ksim_card *c = mc_card(ship_map);
	unsigned int k;
	u8 b[32];

	REQUIRE(c);
	put_words(c, 0x1000, 0x600, 8);
	walk1(c, 0, 0x1000, 8);
	walk1(c, 1, KH_MADDR_AP(0, 0, 0x400), 8);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_AP(0, 0, 0x400 + 32 * 3), b, 32), 0);
	CHECK_EQ(b[0], (0x600 + 12) & 0xff);
	walk1(c, 0, KH_MADDR_AP(0, 0, 0x400), 8);
	walk1(c, 1, 0x7000, 8);
	go(c, KH_MV_MODE_COPY, 0);
	CHECK_EQ(KH_AUX_FAULT(wait_idle(c)), 0);
	for (k = 0; k < 8; k++)
		CHECK(word_is(c, 0x7000 + 32 * k, 0x600, k));
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
