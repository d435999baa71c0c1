// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL unit's bounds, version 2 (docs/spec/pool.md "Bounds: the
 * regions the driver programs (version 2)"; the model's bounds.c): the
 * registers 0xf0-0xf7 through real CU_CTRL flits, window loads and stores
 * and iDMA descriptors inside, across and outside the regions with
 * hand-assembled programs, BOUNDS_FAULT's record, and the job present at
 * a refusal retiring KH_POOL_UNIT_BOUNDS whatever its firmware says.
 */
#include "mpool.h"
#include "ksim_int.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_BASE	10
#define WB	0x00400000u		/* the tests' win_base */
#define GR(a)	((u64)(a) >> KH_POOL_REGION_SHIFT)
#define RW	(KH_POOL_REGION_R | KH_POOL_REGION_W)
#define BF_ADDR_MASK	((1ull << 40) - 1)

static struct mp_prog pg;
static u32 win_base = WB;		/* win_one()'s */

/* A card whose unit has the bounds as at power-on: nothing reachable. */
static bool bopen(struct mp_card *m)
{
	if (!mp_open(m, MP_MAP_ONE, 1, 0))
		return false;
	ksim_pool_reg_write(m->p, KH_CTRL_IDX_POOL_BOUNDS_EN, 0);
	return true;
}

static u64 bf_take(struct mp_card *m)
{
	return mp_reg(m, KH_CTRL_IDX_POOL_BOUNDS_FAULT);
}

static void region(struct mp_card *m, unsigned int n, u64 local, u64 bytes,
		   u64 rw)
{
	mp_reg_wr(m, KH_CTRL_IDX_POOL_REGION(n),
		  KH_POOL_REGION(GR(local), GR(bytes), rw));
}

static void bounds_en(struct mp_card *m, u64 v)
{
	mp_reg_wr(m, KH_CTRL_IDX_POOL_BOUNDS_EN, v);
}

static void dram_set(struct mp_card *m, u64 local, const void *p, size_t n)
{
	REQUIRE(!ksim_dma_write(m->c, KH_CARD_ADDR(0, local), p, n));
}

static u32 dram32(struct mp_card *m, u64 local)
{
	u8 b[4];

	memset(b, 0, sizeof(b));
	CHECK(!ksim_dma_read(m->c, KH_CARD_ADDR(0, local), b, 4));
	return ksim_pool_rd32(b);
}

/* local's 256 bytes: byte i = seed + i */
static void dram_paint(struct mp_card *m, u64 local, u8 seed)
{
	u8 b[256];
	unsigned int i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (u8)(seed + i);
	dram_set(m, local, b, sizeof(b));
}

static bool dram_painted(struct mp_card *m, u64 local, u8 seed)
{
	u8 b[256];
	unsigned int i;

	if (ksim_dma_read(m->c, KH_CARD_ADDR(0, local), b, sizeof(b)))
		return false;
	for (i = 0; i < sizeof(b); i++)
		if (b[i] != (u8)(seed + i))
			return false;
	return true;
}

enum { A_LW, A_SW, A_SB, A_LB };

/*
 * One window access on core alone: win_base = win_base, x4 = 0x5a5a5a5a, then
 * the access (LW/LB into x4, SW/SB of v) at the window's byte off, timed
 * by the cycle CSR around it and around the same access to DataRAM;
 * FENCE.  The core's DataRAM 0x100 gets x4, 0x104 the window access's
 * cycles, 0x108 the DataRAM access's, 0x10c 1.  Returns x4.
 */
static u32 win_one(struct mp_card *m, unsigned int core, unsigned int kind,
		   u32 off, u32 v)
{
	u32 acc, dacc, zero = 0;

	switch (kind) {
	case A_LW:
		acc = LW(4, 2, 0);
		dacc = LW(7, R_BASE, 0x200);
		break;
	case A_LB:
		acc = LB(4, 2, 0);
		dacc = LB(7, R_BASE, 0x200);
		break;
	case A_SW:
		acc = SW(3, 2, 0);
		dacc = SW(3, R_BASE, 0x200);
		break;
	default:
		acc = SB(3, 2, 0);
		dacc = SB(3, R_BASE, 0x200);
		break;
	}
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_li(&pg, 1, win_base);
	mp_emit(&pg, CSRW(KH_POOL_CSR_WIN_BASE, 1));
	mp_li(&pg, 2, KH_POOL_WIN_BASE + off);
	mp_li(&pg, 3, v);
	mp_li(&pg, 4, 0x5a5a5a5a);
	mp_emit(&pg, CSRR(5, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, acc);
	mp_emit(&pg, CSRR(6, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, dacc);
	mp_emit(&pg, CSRR(8, KH_POOL_CSR_CYCLE));
	mp_emit(&pg, FENCE);
	mp_emit(&pg, SW(4, R_BASE, 0x100));
	mp_emit(&pg, SUB(9, 8, 6));
	mp_emit(&pg, SUB(6, 6, 5));
	mp_emit(&pg, SW(6, R_BASE, 0x104));
	mp_emit(&pg, SW(9, R_BASE, 0x108));
	mp_emit(&pg, ADDI(9, 0, 1));
	mp_emit(&pg, SW(9, R_BASE, 0x10c));
	mp_halt(&pg);
	ksim_pool_set_runstall(m->p, 0xffff);
	ksim_pool_poke_dram(m->p, core, 0x10c, &zero, 4);
	mp_start(m, &pg, 1u << core);
	CHECK(mp_wait_word(m, core, 0x10c, 1000000));
	CHECK_EQ(m->p->halted, 0);
	return mp_dword(m, core, 0x100);
}

/* The unit's flits out (MEM requests: it sends nothing else here). */
static u64 flits_out(struct mp_card *m)
{
	struct ksim_unit_stats st;

	memset(&st, 0, sizeof(st));
	CHECK(!ksim_unit_stats(m->c, 0, m->x, m->y, &st));
	return st.flits_out;
}

static u64 bf_want(bool write, bool idma, bool idle, unsigned int core,
		   unsigned int count, u64 addr)
{
	return KH_POOL_BF_VALID | (write ? KH_POOL_BF_WRITE : 0) |
	       (idma ? KH_POOL_BF_IDMA : 0) | (idle ? KH_POOL_BF_IDLE : 0) |
	       (u64)core << 56 | (u64)count << 40 | (addr & BF_ADDR_MASK);
}

TEST_F(model, bounds_registers)
{
	struct mp_card m;
	unsigned int i;
	u64 f;

	/* power-on, as the card comes (not mp_open's grant) */
	memset(&m, 0, sizeof(m));
	m.c = mh_card(MP_MAP_ONE);
	REQUIRE(m.c);
	m.x = 1;
	m.p = mp_unit(&m, 1, 0);
	REQUIRE(m.p);
	CHECK_EQ(KH_POOL_CAPS_VERSION(mp_reg(&m, KH_CTRL_IDX_POOL_CAPS)),
		 KH_POOL_VERSION_BOUNDS);
	for (i = 0xf0; i <= 0xf7; i++)
		CHECK_MSG(mp_reg(&m, i) == 0, "index 0x%x at power-on", i);
	/* RW, unused bits read 0; the reply carries the value before */
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_REGION(0), ~0ull), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_REGION(0)), (1ull << 50) - 1);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_REGION(5),
			   KH_POOL_REGION(0x123456, 0x10, KH_POOL_REGION_R) |
			   1ull << 63 | 1ull << 50), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_REGION(5)),
		 KH_POOL_REGION(0x123456, 0x10, KH_POOL_REGION_R));
	for (i = 1; i < 5; i++)
		CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_REGION(i)), 0);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_BOUNDS_EN, ~0ull), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_BOUNDS_EN),
		 KH_POOL_BOUNDS_ALL | 0x3f);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_BOUNDS_EN, 0x20),
		 KH_POOL_BOUNDS_ALL | 0x3f);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_BOUNDS_EN), 0x20);
	/* BOUNDS_FAULT is read-only */
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_BOUNDS_FAULT, 0x1234), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_BOUNDS_FAULT), 0);
	/* a refusal (region 5 only: granule 0x123456 on); a read clears it */
	CHECK_EQ(win_one(&m, 3, A_LW, 0x48, 0), 0);
	f = bf_want(false, false, true, 3, 1, WB + 0x48);
	CHECK_EQ(ksim_pool_reg(m.p, KH_CTRL_IDX_POOL_BOUNDS_FAULT), f);
	CHECK_EQ(ksim_pool_reg(m.p, KH_CTRL_IDX_POOL_BOUNDS_FAULT), f);
	CHECK_EQ(bf_take(&m), f);
	CHECK_EQ(bf_take(&m), 0);
	/* a write request is a read too: its reply carries it, and clears */
	win_one(&m, 3, A_LW, 0x48, 0);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_BOUNDS_FAULT, ~0ull), f);
	CHECK_EQ(bf_take(&m), 0);
	/* a core reset (RUNSTALL [15:8]; win_one did it too) keeps them */
	win_one(&m, 3, A_LW, 0x48, 0);
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0x00ff);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_REGION(0)), (1ull << 50) - 1);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_REGION(5)),
		 KH_POOL_REGION(0x123456, 0x10, KH_POOL_REGION_R));
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_BOUNDS_EN), 0x20);
	CHECK_EQ(ksim_pool_reg(m.p, KH_CTRL_IDX_POOL_BOUNDS_FAULT), f);
	/* a mesh reset clears every one */
	REQUIRE(!ksim_mesh_reset(m.c, 0));
	ksim_run(m.c, 20000);
	for (i = 0xf0; i <= 0xf7; i++)
		CHECK_MSG(mp_reg(&m, i) == 0, "index 0x%x after a mesh reset",
			  i);
	mp_close(&m);
}

TEST_F(model, window_refused_with_no_region)
{
	struct mp_card m;
	u64 out0;

	REQUIRE(bopen(&m));
	dram_paint(&m, WB, 0x30);
	out0 = flits_out(&m);
	/* a store first: refused, dropped, a DataRAM store's time */
	win_one(&m, 2, A_SB, 0x13, 0x77);
	CHECK_EQ(mp_dword(&m, 2, 0x104), mp_dword(&m, 2, 0x108));
	/* a load reads 0 in a DataRAM load's time */
	CHECK_EQ(win_one(&m, 2, A_LW, 0x40, 0), 0);
	CHECK_EQ(mp_dword(&m, 2, 0x104), mp_dword(&m, 2, 0x108));
	CHECK_EQ(mp_dword(&m, 2, 0x104), 1 + KH_POOL_LAT_LOAD);
	CHECK_EQ(win_one(&m, 2, A_LB, 0x41, 0), 0);
	win_one(&m, 2, A_SW, 0x80, 0x11223344);
	/* nothing left the unit; nothing in DRAM or the write buffer */
	CHECK_EQ(flits_out(&m), out0);
	CHECK(dram_painted(&m, WB, 0x30));
	CHECK_EQ(m.p->core[2].wb_count, 0);
	CHECK_EQ(m.p->port.rd_out, 0);
	/* the first one, counted with the rest; no job: idle */
	CHECK_EQ(bf_take(&m), bf_want(true, false, true, 2, 4, WB + 0x13));
	CHECK_EQ(bf_take(&m), 0);
	/* the count saturates: 0x10005 refused loads on core 5 */
	mp_init(&pg);
	mp_li(&pg, 1, WB);
	mp_emit(&pg, CSRW(KH_POOL_CSR_WIN_BASE, 1));
	mp_li(&pg, 2, KH_POOL_WIN_BASE + 0x64);
	mp_li(&pg, 5, 0x10005);
	mp_emit(&pg, LW(4, 2, 0));
	mp_emit(&pg, ADDI(5, 5, -1));
	mp_emit(&pg, BNE(5, 0, (u32)-8));
	mp_halt(&pg);
	mp_start(&m, &pg, 1u << 5);
	REQUIRE(mp_settle(&m, 1u << 5, 10000000));
	CHECK_EQ(bf_take(&m), bf_want(false, false, true, 5, 0xffff,
				      WB + 0x64));
	CHECK_EQ(flits_out(&m), out0);
	mp_close(&m);
}

TEST_F(model, window_regions)
{
	struct mp_card m;
	unsigned int i;

	REQUIRE(bopen(&m));
	for (i = 0; i < 0x10000; i += 0x1000)
		dram_paint(&m, WB + i, (u8)(i >> 8));
	dram_paint(&m, WB + 0x1f00, 0x90);
	dram_paint(&m, WB - 0x100, 0xa0);
	/* 0: R [WB, +8K); 1: RW [WB + 16K, +4K); 2: W [WB + 24K, +4K);
	 * 3: RW of 0 granules at WB + 32K; 4: RW [WB + 40K, +4K), off */
	region(&m, 0, WB, 0x2000, KH_POOL_REGION_R);
	region(&m, 1, WB + 0x4000, 0x1000, RW);
	region(&m, 2, WB + 0x6000, 0x1000, KH_POOL_REGION_W);
	region(&m, 3, WB + 0x8000, 0, RW);
	region(&m, 4, WB + 0xa000, 0x1000, RW);
	bounds_en(&m, 0x0f);
	/* R: a load inside reads DRAM, a store is refused */
	CHECK_EQ(win_one(&m, 0, A_LW, 0x10, 0), 0x13121110);
	CHECK_EQ(bf_take(&m), 0);
	win_one(&m, 0, A_SW, 0x20, 0xdeadbeef);
	CHECK_EQ(dram32(&m, WB + 0x20), 0x23222120);
	CHECK_EQ(bf_take(&m), bf_want(true, false, true, 0, 1, WB + 0x20));
	/* the region's last word passes, the next word is refused */
	CHECK_EQ(win_one(&m, 0, A_LW, 0x1ffc, 0), 0x8f8e8d8c);
	CHECK_EQ(win_one(&m, 0, A_LB, 0x1fe0, 0), 0x70);
	CHECK_EQ(bf_take(&m), 0);
	CHECK_EQ(win_one(&m, 0, A_LB, 0x2000, 0), 0);
	CHECK_EQ(bf_take(&m), bf_want(false, false, true, 0, 1, WB + 0x2000));
	/* and the word before its start (a window 1 MiB lower) */
	win_base = WB - KH_POOL_WIN_ALIGN;
	CHECK_EQ(win_one(&m, 0, A_LW, KH_POOL_WIN_ALIGN - 4, 0), 0);
	CHECK_EQ(win_one(&m, 0, A_LW, KH_POOL_WIN_ALIGN, 0), 0x03020100);
	win_base = WB;
	CHECK_EQ(bf_take(&m), bf_want(false, false, true, 0, 1, WB - 4));
	/* RW: a store lands, to the region's last word; one past is refused */
	win_one(&m, 1, A_SW, 0x4024, 0xcafef00d);
	CHECK_EQ(dram32(&m, WB + 0x4024), 0xcafef00d);
	CHECK_EQ(win_one(&m, 1, A_LW, 0x4024, 0), 0xcafef00d);
	win_one(&m, 1, A_SB, 0x4fff, 0x5e);
	CHECK_EQ(dram32(&m, WB + 0x4ffc) >> 24, 0x5e);
	CHECK_EQ(bf_take(&m), 0);
	win_one(&m, 1, A_SB, 0x5000, 0x5e);
	CHECK_EQ(dram32(&m, WB + 0x5000), 0x53525150);
	CHECK_EQ(bf_take(&m), bf_want(true, false, true, 1, 1, WB + 0x5000));
	/* W alone: a store reads its word first, so it needs R too */
	win_one(&m, 0, A_SW, 0x6000, 0x12345678);
	CHECK_EQ(win_one(&m, 0, A_LW, 0x6004, 0), 0);
	CHECK_EQ(dram32(&m, WB + 0x6000), 0x63626160);
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 2);
	/* a region of 0 granules holds nothing */
	CHECK_EQ(win_one(&m, 0, A_LW, 0x8000, 0), 0);
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 1);
	/* a region not enabled allows nothing, until it is */
	CHECK_EQ(win_one(&m, 0, A_LW, 0xa000, 0), 0);
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 1);
	bounds_en(&m, 0x1f);
	CHECK_EQ(win_one(&m, 0, A_LW, 0xa000, 0), 0xa3a2a1a0);
	CHECK_EQ(bf_take(&m), 0);
	/* BOUNDS_ALL: version 1's reach, the R-only region's store lands */
	bounds_en(&m, KH_POOL_BOUNDS_ALL);
	win_one(&m, 0, A_SW, 0x20, 0xdeadbeef);
	CHECK_EQ(dram32(&m, WB + 0x20), 0xdeadbeef);
	CHECK_EQ(win_one(&m, 0, A_LW, 0xf000, 0), 0xf3f2f1f0);
	CHECK_EQ(bf_take(&m), 0);
	mp_close(&m);
}

/* One descriptor on core; its idma_status. */
static u32 idma_one(struct mp_card *m, unsigned int core, u64 dram,
		    u32 dataram, u32 len, u32 flags, u32 pattern)
{
	mp_idma_run(m, core, 1);
	mp_desc(m, core, 0, dram, dataram, len, flags, pattern);
	CHECK(mp_wait_word(m, core, 8, 2000000));
	return mp_dword(m, core, 4);
}

static bool st_ok(u32 st, unsigned int done)
{
	return !(st & KH_POOL_IDMA_ERROR) && KH_POOL_IDMA_DONE(st) == done;
}

static bool st_err(u32 st, unsigned int cause)
{
	return (st & KH_POOL_IDMA_ERROR) && KH_POOL_IDMA_CAUSE(st) == cause &&
	       KH_POOL_IDMA_DONE(st) == 0 && KH_POOL_IDMA_PENDING(st) == 0;
}

TEST_F(model, idma_bounds)
{
	struct mp_card m;
	static u8 src[16384], pre[8192];
	const u32 dr = KH_POOL_DRAM_BASE + 0x2000;
	const u64 a = 0x400000, b = 0x500000, c = 0x600000;
	u64 out0;
	unsigned int i;
	u32 st;

	REQUIRE(bopen(&m));
	for (i = 0; i < sizeof(src); i++)
		src[i] = (u8)(i * 7 + 3);
	dram_set(&m, a, src, sizeof(src));
	for (i = 0; i < sizeof(pre); i++)
		pre[i] = (u8)(i ^ 0x5c);
	dram_set(&m, b, pre, sizeof(pre));
	region(&m, 0, a, 0x4000, KH_POOL_REGION_R);
	region(&m, 1, b, 0x2000, KH_POOL_REGION_W);
	region(&m, 2, c, 0x1000, KH_POOL_REGION_R);
	region(&m, 3, c + 0x1000, 0x1000, KH_POOL_REGION_R);
	bounds_en(&m, 0x0f);
	/* a read inside an R region runs */
	st = idma_one(&m, 3, KH_MADDR(0, a), dr, 16384, 0, 0);
	CHECK_MSG(st_ok(st, 1), "status %08x", st);
	CHECK(!memcmp(m.p->core[3].dram + 0x2000, src, 16384));
	CHECK_EQ(bf_take(&m), 0);
	/* a write into it (R only) stops the engine, writes nothing */
	memset(m.p->core[3].dram + 0x2000, 0xee, 4096);
	out0 = flits_out(&m);
	st = idma_one(&m, 3, KH_MADDR(0, a + 0x1000), dr, 4096,
		      KH_POOL_IDMA_TO_DRAM, 0);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_BOUNDS), "status %08x", st);
	CHECK_EQ(flits_out(&m), out0);
	{
		u8 back[16384];

		REQUIRE(!ksim_dma_read(m.c, KH_CARD_ADDR(0, a), back,
				       sizeof(back)));
		CHECK(!memcmp(back, src, sizeof(src)));
	}
	CHECK_EQ(bf_take(&m), bf_want(true, true, true, 3, 1, a + 0x1000));
	/* W alone: a fill (direction 1) runs, a read does not */
	st = idma_one(&m, 4, KH_MADDR(0, b), 0, 8192,
		      KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL, 0x0badf00d);
	CHECK_MSG(st_ok(st, 1), "status %08x", st);
	CHECK_EQ(dram32(&m, b), 0x0badf00d);
	CHECK_EQ(dram32(&m, b + 8188), 0x0badf00d);
	st = idma_one(&m, 4, KH_MADDR(0, b), dr, 32, 0, 0);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_BOUNDS), "status %08x", st);
	CHECK_EQ(bf_take(&m), bf_want(false, true, true, 4, 1, b));
	/* past a region's end: refused whole, nothing moves */
	st = idma_one(&m, 4, KH_MADDR(0, b + 0x1fe0), 0, 64,
		      KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL, 1);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_BOUNDS), "status %08x", st);
	CHECK_EQ(dram32(&m, b + 0x1fe0), 0x0badf00d);
	CHECK_EQ(bf_take(&m), bf_want(true, true, true, 4, 1, b + 0x1fe0));
	/* two regions that touch are two: a range across both is refused */
	st = idma_one(&m, 0, KH_MADDR(0, c + 0x800), dr, 4096, 0, 0);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_BOUNDS), "status %08x", st);
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 1);
	st = idma_one(&m, 0, KH_MADDR(0, c), dr, 4096, 0, 0);
	CHECK_MSG(st_ok(st, 1), "status %08x", st);
	st = idma_one(&m, 0, KH_MADDR(0, c + 0x1000), dr, 4096, 0, 0);
	CHECK_MSG(st_ok(st, 1), "status %08x", st);
	CHECK_EQ(bf_take(&m), 0);
	/* another mesh's address is outside every region */
	st = idma_one(&m, 6, KH_MADDR(1, a), dr, 32, 0, 0);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_BOUNDS), "status %08x", st);
	CHECK_EQ(bf_take(&m), bf_want(false, true, true, 6, 1,
				      KH_MADDR(1, a)));
	/* the older rules come first: alignment, range */
	st = idma_one(&m, 0, KH_MADDR(0, 0x700008), dr, 32, 0, 0);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_ALIGN), "status %08x", st);
	st = idma_one(&m, 0, KH_MADDR(0, KH_MESH_DRAM_SIZE), dr, 32, 0, 0);
	CHECK_MSG(st_err(st, KH_POOL_IDMA_ERR_RANGE), "status %08x", st);
	CHECK_EQ(bf_take(&m), 0);
	/* BOUNDS_ALL: everything as in version 1 */
	bounds_en(&m, KH_POOL_BOUNDS_ALL | 0x0f);
	st = idma_one(&m, 3, KH_MADDR(0, a + 0x1000), dr, 4096,
		      KH_POOL_IDMA_TO_DRAM, 0);
	CHECK_MSG(st_ok(st, 1), "status %08x", st);
	CHECK_EQ(dram32(&m, a + 0x1000), 0xeeeeeeee);
	st = idma_one(&m, 3, KH_MADDR(0, 0x700000), dr, 64, 0, 0);
	CHECK_MSG(st_ok(st, 1), "status %08x", st);
	CHECK_EQ(bf_take(&m), 0);
	CHECK_EQ(m.p->port.rd_out, 0);
	CHECK_EQ(m.p->port.wr_out, 0);
	mp_close(&m);
}

/*
 * A job server on core 0: at start one refused window store (no job
 * present); then per job, by w5's bits: [0] a window load at win_base 0
 * (local 0), [1] push the iDMA descriptor at DataRAM 0x1000 and wait for
 * it (an error cleared), [2] EBREAK; then job_fault with w6 when w4 is
 * nonzero, else job_retire with w6 ^ PING_XOR.
 */
static void bounds_server(struct mp_prog *p)
{
	u32 top, b_job, b_win, b_dma, b_trap, b_fault, wait, b_err, b_pend;

	mp_init(p);
	mp_li(p, 2, KH_POOL_WIN_BASE);
	mp_emit(p, SW(0, 2, 0x40));		/* idle: refused */
	top = mp_here(p);
	mp_emit(p, CSRR(1, KH_POOL_CSR_JOB_STATUS));
	mp_emit(p, ANDI(1, 1, 1));
	b_job = mp_here(p);
	mp_emit(p, BNE(1, 0, 0));
	mp_emit(p, WFI);
	mp_emit(p, JAL(0, top - mp_here(p)));
	mp_patch(p, b_job, mp_here(p));
	mp_emit(p, CSRR(3, KH_POOL_CSR_JOB_W0 + 6));
	mp_emit(p, CSRR(6, KH_POOL_CSR_JOB_W0 + 5));
	mp_emit(p, ANDI(7, 6, 1));
	b_win = mp_here(p);
	mp_emit(p, BEQ(7, 0, 0));
	mp_emit(p, LW(4, 2, 0));
	mp_patch(p, b_win, mp_here(p));
	mp_emit(p, ANDI(7, 6, 2));
	b_dma = mp_here(p);
	mp_emit(p, BEQ(7, 0, 0));
	mp_emit(p, LUI(8, KH_POOL_DRAM_BASE + 0x1000));
	mp_emit(p, CSRW(KH_POOL_CSR_IDMA_PUSH, 8));
	wait = mp_here(p);
	mp_emit(p, CSRR(8, KH_POOL_CSR_IDMA_STATUS));
	mp_emit(p, SRLI(9, 8, 24));
	mp_emit(p, ANDI(9, 9, 1));
	b_err = mp_here(p);
	mp_emit(p, BNE(9, 0, 0));
	mp_emit(p, SRLI(9, 8, 16));
	mp_emit(p, ANDI(9, 9, 0x3f));
	b_pend = mp_here(p);
	mp_emit(p, BEQ(9, 0, 0));
	mp_emit(p, WFI);
	mp_emit(p, JAL(0, wait - mp_here(p)));
	mp_patch(p, b_err, mp_here(p));
	mp_emit(p, CSRRWI(0, KH_POOL_CSR_IDMA_CTRL, KH_POOL_IDMA_CLEAR));
	mp_patch(p, b_pend, mp_here(p));
	mp_patch(p, b_dma, mp_here(p));
	mp_emit(p, ANDI(7, 6, 4));
	b_trap = mp_here(p);
	mp_emit(p, BEQ(7, 0, 0));
	mp_emit(p, EBREAK);
	mp_patch(p, b_trap, mp_here(p));
	mp_emit(p, CSRR(7, KH_POOL_CSR_JOB_W0 + 4));
	b_fault = mp_here(p);
	mp_emit(p, BNE(7, 0, 0));
	mp_emit(p, LUI(5, KH_POOL_PING_XOR));
	mp_emit(p, XOR(3, 3, 5));
	mp_emit(p, CSRW(KH_POOL_CSR_JOB_RETIRE, 3));
	mp_emit(p, JAL(0, top - mp_here(p)));
	mp_patch(p, b_fault, mp_here(p));
	mp_emit(p, CSRW(KH_POOL_CSR_JOB_FAULT, 3));
	mp_emit(p, JAL(0, top - mp_here(p)));
}

static u64 job(struct mp_card *m, u32 w6, u32 w5, u32 w4)
{
	unsigned int base = KH_NS_COUNT(mm_ns(m->c, 0, m->x, m->y));
	u32 w[8];

	memset(w, 0, sizeof(w));
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_PING);
	w[6] = w6;
	w[5] = w5;
	w[4] = w4;
	mp_inst(m, w, 0x51, false);
	return mp_wait_ns(m, base + 1, 2000000);
}

static void job_ok(u64 ns, u32 w6)
{
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), w6 ^ KH_POOL_PING_XOR);
}

static void job_bounds(u64 ns)
{
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
					      KH_POOL_UNIT_BOUNDS));
}

TEST_F(model, job_at_a_refusal_retires_unit_bounds)
{
	struct mp_card m;
	u64 f;

	REQUIRE(bopen(&m));
	bounds_server(&pg);
	mp_start(&m, &pg, 1);
	REQUIRE(mp_settle(&m, 1, 100000));
	/* the refusal with no job present faults no job */
	CHECK_EQ(bf_take(&m), bf_want(true, false, true, 0, 1, 0x40));
	job_ok(job(&m, 1, 0, 0), 1);
	/* a job's refused load: retired with its result, faults BOUNDS */
	job_bounds(job(&m, 2, 1, 0));
	f = bf_take(&m);
	CHECK_EQ(f, bf_want(false, false, false, 0, 1, 0));
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_TRAP), 0);
	/* the next job retires normally */
	job_ok(job(&m, 3, 0, 0), 3);
	/* faulted by the firmware with its own code: BOUNDS too */
	job_bounds(job(&m, 0x77, 1, 1));
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 1);
	CHECK_EQ(KH_NS_ARG(job(&m, 0x77, 0, 1)),
		 KH_POOL_FAULT(KH_POOL_CLASS_FW, 0x77));
	/* an iDMA refusal in a job: the same, recorded as the iDMA's */
	mp_desc(&m, 0, 0, KH_MADDR(0, 0x300000), KH_POOL_DRAM_BASE + 0x2000,
		64, KH_POOL_IDMA_TO_DRAM, 0);
	job_bounds(job(&m, 4, 2, 0));
	CHECK_EQ(bf_take(&m), bf_want(true, true, false, 0, 1, 0x300000));
	job_ok(job(&m, 5, 0, 0), 5);
	/* granted, the same accesses are no refusal */
	region(&m, 0, 0, 0x1000, RW);
	region(&m, 1, 0x300000, 0x1000, KH_POOL_REGION_W);
	bounds_en(&m, 0x03);
	job_ok(job(&m, 6, 3, 0), 6);
	CHECK_EQ(bf_take(&m), 0);
	/* revoked between jobs: BOUNDS again, then normal */
	bounds_en(&m, 0);
	job_bounds(job(&m, 7, 3, 0));
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 2);
	job_ok(job(&m, 8, 0, 0), 8);
	/*
	 * A refusal, then a trap: the unit retires the job with the trap's
	 * code (the cluster is halted, which says more), and the pending
	 * BOUNDS goes with that job: the next one faults HALTED.
	 */
	f = KH_NS_ARG(job(&m, 9, 5, 0));
	CHECK_EQ(f, KH_POOL_FAULT_TRAP(0, KH_POOL_CAUSE_EBREAK));
	CHECK_EQ(KH_POOL_BF_COUNT(bf_take(&m)), 1);
	CHECK_EQ(KH_NS_ARG(job(&m, 10, 0, 0)),
		 KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_HALTED));
	CHECK(!m.p->bounds_job);
	mp_close(&m);
}

/*
 * A refusal in a job the host ends by putting every core in reset (the
 * driver's recovery): NOFW, and the next job, on a fresh firmware, owes
 * nothing.
 */
TEST_F(model, job_ended_by_a_reset_forgets_the_refusal)
{
	struct mp_card m;
	unsigned int base;
	u32 w[8];
	u64 ns;

	REQUIRE(bopen(&m));
	/* core 0: one refused window load, then sleeps on */
	mp_init(&pg);
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_JOB_STATUS));
	mp_emit(&pg, ANDI(1, 1, 1));
	mp_emit(&pg, BNE(1, 0, 12));
	mp_emit(&pg, WFI);
	mp_emit(&pg, JAL(0, (u32)-16));
	mp_li(&pg, 2, KH_POOL_WIN_BASE);
	mp_emit(&pg, LW(4, 2, 0));
	mp_halt(&pg);
	mp_start(&m, &pg, 1);
	base = KH_NS_COUNT(mm_ns(m.c, 0, m.x, m.y));
	memset(w, 0, sizeof(w));
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_PING);
	mp_inst(&m, w, 0x51, false);
	ksim_run(m.c, 5000);
	CHECK(m.p->job);
	CHECK(m.p->bounds_job);
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	ns = mp_wait_ns(&m, base + 1, 100000);
	CHECK_EQ(KH_NS_ARG(ns), KH_POOL_FAULT(KH_POOL_CLASS_UNIT,
					      KH_POOL_UNIT_NOFW));
	CHECK(!m.p->bounds_job);
	CHECK_EQ(bf_take(&m), bf_want(false, false, false, 0, 1, 0));
	mp_close(&m);
}

CHECK_TEST_MAIN
