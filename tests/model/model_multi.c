// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Multi-mesh cards and the card's discovery procedure (kohakutpu.md
 * §12.1) run step by step as a host would, with the register values
 * expected at each step.
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define CAPS_3X3	0x0000000101040120ULL

TEST_F(model, four_windows_own_caps_and_maps)
{
	struct ksim_card *c = mh_card("quad");
	static const u64 caps[4] = {
		KH_CAPS_SHIP, KH_CAPS_SHIP, CAPS_3X3, KH_CAPS_SHIP
	};
	unsigned int n;

	REQUIRE(c);
	CHECK_EQ(ksim_mesh_count(c), 4);
	for (n = 0; n < 4; n++) {
		CHECK_EQ(mm_rd(c, n, KH_ORC_CAPS), caps[n]);
		CHECK_EQ(mm_rd(c, n, KH_ORC_STATUS), KH_ORC_STATUS_READY);
		CHECK_EQ(mm_rd(c, n, KH_ORC_RX_STATUS), KH_RX_STATUS_EMPTY);
		CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(n)) >> 32,
			 KH_CLK_LOCKED);
		CHECK_EQ(mm_ddrc_rd(c, n, KH_DDRC_ECC_ONOFF), 1);
	}
	/* each mesh answers with its own map */
	CHECK_EQ(mm_ctrl_rd(c, 0, 3, 1, KH_CTRL_IDX_CAPS) >> 48, KH_CU_NULL);
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_CAPS) >> 48, KH_CU_SX);
	CHECK_EQ(mm_ctrl_rd(c, 1, 3, 1, KH_CTRL_IDX_CAPS) >> 48, KH_CU_SX);
	CHECK_EQ(mm_ctrl_rd(c, 1, 2, 0, KH_CTRL_IDX_CAPS) >> 48, KH_CU_NULL);
	CHECK_EQ(mm_ctrl_rd(c, 2, 1, 2, KH_CTRL_IDX_CAPS) >> 48, KH_CU_SX);
	CHECK_EQ(mm_ctrl_rd(c, 2, 2, 1, KH_CTRL_IDX_CAPS), ~0ULL);	/* nul */
	CHECK_EQ(mm_ctrl_rd(c, 3, 2, 1, KH_CTRL_IDX_CAPS) >> 48, KH_CU_SX);
	CHECK_EQ(mm_ctrl_rd(c, 3, 2, 2, KH_CTRL_IDX_CAPS) >> 48, KH_CU_NULL);
	/* only mesh 0 has L2 adapters */
	CHECK_EQ(KH_L2_CAPS_SLOT(mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_L2_CAPS)),
		 KH_L2_SLOT_ID);
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 0, KH_CTRL_IDX_L2_CAPS), 0);
	/* one mesh's registers are its own */
	mm_wr(c, 2, KH_ORC_CTRL, 0x2222);
	for (n = 0; n < 4; n++)
		CHECK_EQ(mm_rd(c, n, KH_ORC_CTRL), n == 2 ? 0x2222 : 0);
	ksim_card_destroy(c);
}

TEST_F(model, absent_windows_read_zero)
{
	struct ksim_card *c = mh_card("mesh 0\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n"
					"mesh 1\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	unsigned int n;

	REQUIRE(c);
	CHECK_EQ(ksim_mesh_count(c), 2);
	for (n = 0; n < 4; n++) {
		u64 want = n < 2 ? CAPS_3X3 : 0;

		CHECK_EQ(mm_rd(c, n, KH_ORC_CAPS), want);
		mm_wr(c, n, KH_ORC_CTRL, 5);
		CHECK_EQ(mm_rd(c, n, KH_ORC_CTRL), n < 2 ? 5 : 0);
		CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(n)) >> 32,
			 n < 2 ? KH_CLK_LOCKED : 0);
		CHECK_EQ(mm_ddrc_rd(c, n, KH_DDRC_ECC_ONOFF), n < 2 ? 1 : 0);
		CHECK_EQ(ksim_mesh_dram_size(c, n), n < 2 ? 4ULL << 30 : 0);
	}
	/* v5's GPIO window is gone: unmapped space reads 0 */
	CHECK_EQ(ksim_read64(c, 0x400000), 0);
	ksim_card_destroy(c);
}

static u64 agent_read_word(struct ksim_card *c, unsigned int n, u64 addr)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 1, 0, 0, KH_T_MEM_RD_REQ, 4, 0);
	kh_flit_set(&f, KH_MEM_ADDR, KH_MADDR(n, addr));
	mm_mb_send(c, n, &f);
	if (!mm_mb_recv(c, n, &f, 20))
		return ~0ULL;
	return f.w[0];
}

TEST_F(model, dma_lands_in_its_mesh_only)
{
	struct ksim_card *c = mh_card("quad");
	u64 v, in;
	unsigned int n, m;

	REQUIRE(c);
	for (n = 0; n < 4; n++) {
		v = 0x1111111111111111ULL * (n + 1);
		CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(n, 0x1000), &v, 8), 0);
	}
	for (n = 0; n < 4; n++) {
		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(n, 0x1000), &in, 8), 0);
		CHECK_EQ(in, 0x1111111111111111ULL * (n + 1));
		/* and the mesh's own MAG sees it there */
		CHECK_EQ(agent_read_word(c, n, 0x1000),
			 0x1111111111111111ULL * (n + 1));
	}
	v = 0xabcdefULL;
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(2, 0x20000), &v, 8), 0);
	for (m = 0; m < 4; m++) {
		CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(m, 0x20000), &in, 8), 0);
		CHECK_EQ(in, m == 2 ? 0xabcdefULL : 0);
		CHECK_EQ(agent_read_word(c, m, 0x20000), m == 2 ? 0xabcdefULL : 0);
	}
	/* the mesh number appears twice; a mismatch would hang a card */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(1, 0) ^ (3ULL << 36), &in, 8),
		 -EINVAL);
	ksim_card_destroy(c);
}

/* ---- discovery, kohakutpu.md 12.1, as a host does it ---- */

/* want[y][x]: NODE | cu_type where the map has a unit (null is 0x0000) */
#define NODE	0x10000u

struct disc_node {
	bool found;
	u16 cu_type;
	u64 caps;
};

/* Steps 3.1-3.5 for one coordinate: the reply, or 0 when none counts. */
static int disc_probe(struct ksim_card *c, unsigned int n, unsigned int x,
		      unsigned int y, unsigned int txn, struct kh_flit *r)
{
	struct kh_flit f;
	unsigned int i, pops = 0;

	/* 3.1 drain RX: pop while RX_STATUS[16] = 0, at most 32 pops */
	while (!(mm_rd(c, n, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY) &&
	       pops < 32) {
		mm_wr(c, n, KH_ORC_RX_POP, 1);
		pops++;
	}
	/* 3.2 the five words of a CU_CTRL read */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_CTRL, txn, 1);
	kh_flit_set(&f, KH_CTRL_INDEX, KH_CTRL_IDX_CAPS);
	for (i = 0; i < KH_FLIT_WORDS; i++)
		mm_wr(c, n, KH_ORC_TX_FLIT(i), f.w[i]);
	/* 3.3 TX_STATUS[16] and PROG_STAT[0] first, then TX_KICK */
	CHECK_EQ(mm_rd(c, n, KH_ORC_TX_STATUS), 0);
	CHECK_EQ(mm_rd(c, n, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN, 0);
	mm_wr(c, n, KH_ORC_TX_KICK, 1);
	/* 3.4 a bounded poll of RX_STATUS[16], the five words, RX_POP */
	for (i = 0; i < 20; i++)
		if (!(mm_rd(c, n, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY))
			break;
	if (i == 20)
		return -1;	/* nothing came back */
	for (i = 0; i < KH_FLIT_WORDS; i++)
		r->w[i] = mm_rd(c, n, KH_ORC_RX_FLIT(i));
	mm_wr(c, n, KH_ORC_RX_POP, 1);
	/* 3.5 op, index, txn and src */
	if (kh_flit_get(r, KH_CTRL_OP) != KH_CTRL_OP_REPLY ||
	    kh_flit_get(r, KH_CTRL_INDEX) != KH_CTRL_IDX_CAPS ||
	    kh_flit_get(r, KH_HDR_TXN) != txn ||
	    kh_flit_get(r, KH_HDR_SRC_X) != x ||
	    kh_flit_get(r, KH_HDR_SRC_Y) != y)
		return 0;
	return 1;
}

/*
 * Run discovery on window n.  want[y][x] is the cu_type a map holds
 * (0 for none); returns the number of nodes found.
 */
static unsigned int discover(struct ksim_card *c, unsigned int n,
			     const u32 want[16][16], unsigned int w,
			     unsigned int h, u64 caps_want, u32 inst_depth)
{
	struct disc_node found[16][16];
	struct kh_flit r, r2;
	u64 caps, v;
	unsigned int x, y, lo, hi, nodes = 0;
	u8 version = 0;
	int k;

	/* 1. CAPS, read twice: [15:0] = 288, 0 < [23:16] <= 8 */
	caps = mm_rd(c, n, KH_ORC_CAPS);
	CHECK_EQ(mm_rd(c, n, KH_ORC_CAPS), caps);
	CHECK_EQ(caps, caps_want);
	CHECK_EQ(KH_CAPS_FLIT_WIDTH(caps), 288);
	CHECK(KH_CAPS_POS_WIDTH(caps) > 0 && KH_CAPS_POS_WIDTH(caps) <= 8);
	lo = KH_CAPS_GRID_LO(caps);
	hi = KH_CAPS_GRID_HI(caps);
	/* 2. a write/read-back preflight in scratch DRAM (the last MiB) */
	v = 0x5a5a0000 + n;
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(n, (4ULL << 30) - (1 << 20)),
				  &v, 8), 0);
	v = 0;
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(n, (4ULL << 30) - (1 << 20)),
				 &v, 8), 0);
	CHECK_EQ(v, 0x5a5a0000 + n);
	/* 3. the span GRID_LO-1 .. GRID_HI+1 on both axes */
	memset(found, 0, sizeof(found));
	for (y = lo - 1; y <= hi + 1; y++)
		for (x = lo - 1; x <= hi + 1; x++) {
			k = disc_probe(c, n, x, y, 1, &r);
			if (x < w && y < h && want[y][x])
				CHECK_MSG(k == 1, "mesh %u (%u,%u): %d", n, x, y, k);
			else
				CHECK_MSG(k != 1, "mesh %u (%u,%u) answered", n, x, y);
			if (k != 1)
				continue;
			/* 3.5 confirm with a second read that agrees */
			CHECK_EQ(disc_probe(c, n, x, y, 2, &r2), 1);
			CHECK_EQ(mh_ctrl_value(&r2), mh_ctrl_value(&r));
			found[y][x].found = true;
			found[y][x].caps = mh_ctrl_value(&r);
			found[y][x].cu_type = found[y][x].caps >> 48;
			CHECK_EQ(NODE | found[y][x].cu_type, want[y][x]);
			CHECK_EQ((found[y][x].caps >> 20) & 0xffff, inst_depth);
			nodes++;
		}
	for (y = lo - 1; y <= hi + 1; y++)
		for (x = lo - 1; x <= hi + 1; x++) {
			if (!found[y][x].found)
				continue;
			/* 4. CU_STATUS idle with inst_space = inst_depth ... */
			v = mm_ctrl_rd(c, n, x, y, KH_CTRL_IDX_STATUS);
			CHECK_EQ(v, (u64)inst_depth << 32);
			/* ... CU_COUNTERS and CU_DBG untouched */
			CHECK_EQ(mm_ctrl_rd(c, n, x, y, KH_CTRL_IDX_COUNTERS), 0);
			CHECK_EQ(mm_ctrl_rd(c, n, x, y, KH_CTRL_IDX_DBG), 0);
			/* 5. one cu_version across the mesh */
			if (!version)
				version = found[y][x].caps >> 40;
			CHECK_EQ((u8)(found[y][x].caps >> 40), version);
		}
	CHECK_EQ(version, 4);
	/* 7. interlink caps: 0 (absent) or 'IL' with this mesh's id */
	v = mm_rd(c, n, KH_ORC_AUX_STATW(0));
	CHECK(v == 0 || ((v & 0xffff) == KH_IL_CAPS_MAGIC &&
			 ((v >> 20) & 3) == n));
	/* the agent's coordinate echoes the request: op 0, rejected */
	CHECK_EQ(disc_probe(c, n, 0, lo, 3, &r), 0);
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_OP), KH_CTRL_OP_READ);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_X), 0);
	return nodes;
}

static void fill_want(u32 want[16][16], struct ksim_card *c, unsigned int n,
		      unsigned int *w, unsigned int *h, const char *const *rows)
{
	unsigned int x = 0, y;

	memset(want, 0, sizeof(u32) * 256);
	for (y = 0; rows[y]; y++)
		for (x = 0; rows[y][x]; x++)
			want[y][x] = rows[y][x] == 'S' ? NODE | KH_CU_SX :
				     rows[y][x] == 'N' ? NODE | KH_CU_NULL : 0;
	*h = y;
	*w = x;
}

TEST_F(model, discovery_on_a_ship_card)
{
	static const char *const rows[] = { ".SS.", ".SSN", ".SSN", ".SS.", NULL };
	struct ksim_card *c = mh_card("ship_2x2");
	struct kh_flit r;
	u32 want[16][16];
	unsigned int w, h, x, y;

	REQUIRE(c);
	fill_want(want, c, 0, &w, &h, rows);
	CHECK_EQ(discover(c, 0, want, w, h, KH_CAPS_SHIP, 512), 10);
	/* the corner (3,0) is clamped onto (3,1), which answers as itself */
	CHECK_EQ(disc_probe(c, 0, 3, 0, 5, &r), 0);
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_OP), KH_CTRL_OP_REPLY);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_X), 3);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_Y), 1);
	/* 8. the L2 adapters: CAPS, then BASE, then CTRL = 1 */
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			u64 base = want[y][x] == (NODE | KH_CU_NULL) ? KH_L2_VEC_BASE :
							     KH_L2_CU_BASE;

			if (!want[y][x])
				continue;
			CHECK_EQ(mm_ctrl_rd(c, 0, x, y, KH_CTRL_IDX_L2_CAPS),
				 KH_L2_CAPS(KH_L2_SHIP_BITS, KH_L2_SHIP_DEPTH));
			CHECK_EQ(mm_ctrl_wr(c, 0, x, y, KH_CTRL_IDX_L2_BASE, base),
				 base);
			CHECK_EQ(mm_ctrl_wr(c, 0, x, y, KH_CTRL_IDX_L2_CTRL, 1), 0);
			CHECK_EQ(mm_ctrl_rd(c, 0, x, y, KH_CTRL_IDX_L2_CTRL), 1);
			CHECK_EQ(mm_ctrl_rd(c, 0, x, y, KH_CTRL_IDX_L2_STAT), 0);
		}
	ksim_card_destroy(c);
}

TEST_F(model, discovery_on_a_four_mesh_card)
{
	static const char *const m0[] = { ".SS.", ".SSN", ".SSN", ".SS.", NULL };
	static const char *const m1[] = { ".SN.", ".SNS", ".NSN", ".NS.", NULL };
	static const char *const m2[] = { ".S.", "...", ".S.", NULL };
	static const char *const m3[] = { ".SN.", ".NS.", ".SN.", NULL };
	static const char *const *const maps[4] = { m0, m1, m2, m3 };
	static const unsigned int nodes[4] = { 10, 10, 2, 6 };
	static const u64 caps[4] = {
		KH_CAPS_SHIP, KH_CAPS_SHIP, CAPS_3X3, KH_CAPS_SHIP
	};
	struct ksim_card *c = mh_card("quad");
	u32 want[16][16];
	unsigned int n, w, h, win;

	REQUIRE(c);
	/* 1. probe every candidate window; accept on CAPS */
	for (win = 0, n = 0; win < 4; win++) {
		u64 cp = mm_rd(c, win, KH_ORC_CAPS);

		if (KH_CAPS_FLIT_WIDTH(cp) == 288 && KH_CAPS_POS_WIDTH(cp) &&
		    KH_CAPS_POS_WIDTH(cp) <= 8)
			n++;
	}
	CHECK_EQ(n, 4);
	for (n = 0; n < 4; n++) {
		fill_want(want, c, n, &w, &h, maps[n]);
		CHECK_EQ(discover(c, n, want, w, h, caps[n], 512), nodes[n]);
	}
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
