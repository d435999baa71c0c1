// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card as a host sees it: BAR0 decode, CAPS, the time each access
 * costs, and host DMA (window decode, round trip, whole-word writes).
 */
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

TEST_F(model, caps_saxpy)
{
	struct ksim_card *c = mh_card("saxpy");

	REQUIRE(c);
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS), 0x0000000101040120ULL);
	CHECK_EQ(mh_rd(c, KH_ORC_STATUS), KH_ORC_STATUS_READY);
	CHECK_EQ(mh_rd(c, KH_ORC_RX_STATUS), KH_RX_STATUS_EMPTY);
	CHECK_EQ(mh_rd(c, KH_ORC_TX_STATUS), 0);
	ksim_card_destroy(c);
}

TEST_F(model, bar_decode)
{
	struct ksim_card *c = mh_card("saxpy");

	REQUIRE(c);
	/* absent meshes read 0, writes ignored */
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(1) + KH_ORC_CAPS), 0);
	ksim_write64(c, KH_MESH_BASE(1) + KH_ORC_CTRL, 5);
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(1) + KH_ORC_CTRL), 0);
	CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(2)), 0);
	/* unaligned reads return all ones */
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(0) + 4), ~0ULL);
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_CAPS + 1), ~0ULL);
	/* DDR controller window reads 0 */
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(0)), 0);
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(0) + 0x1000), 0);
	/* stored registers; the window decodes only the low 16 bits */
	mh_wr(c, KH_ORC_CTRL, 0x1234567890abcdefULL);
	CHECK_EQ(mh_rd(c, KH_ORC_CTRL), 0x1234567890abcdefULL);
	mh_wr(c, KH_ORC_IRQ_EN, 0x1f);
	CHECK_EQ(mh_rd(c, KH_ORC_IRQ_EN), 0x1f);
	mh_wr(c, KH_ORC_IRQ_STAT, ~0ULL);
	CHECK_EQ(mh_rd(c, KH_ORC_IRQ_STAT), 0);
	mh_wr(c, KH_ORC_TX_FLIT(2), 0xabcdULL);
	CHECK_EQ(mh_rd(c, KH_ORC_TX_FLIT(2)), 0xabcd);
	CHECK_EQ(mh_rd(c, KH_ORC_AUX_STATW(0)), 0);
	CHECK_EQ(mh_rd(c, 0x0600), 0);
	/* the clock wizard: STATUS locked, the rest stored, in 32-bit beats */
	CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(0)) >> 32, KH_CLK_LOCKED);
	ksim_bar_write32(c, 0, KH_CLKWIZ_BASE(0) + KH_CLK_CFG0, 0xa01);
	ksim_bar_write32(c, 0, KH_CLKWIZ_BASE(0) + KH_CLK_CFG0 + 4, 5);
	CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(0) + KH_CLK_CFG0),
		 0x0000000500000a01ULL);
	/* a 64-bit write is refused, and the checker reports it */
	mh_expect_violations = true;
	mh_violations = 0;
	ksim_write64(c, KH_CLKWIZ_BASE(0) + KH_CLK_CFG0, 0x0000000600000b02ULL);
	CHECK_EQ(mh_violations, 1);
	CHECK(strstr(mh_last_violation, "64-bit write to the clock wizard"));
	mh_expect_violations = false;
	CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(0) + KH_CLK_CFG0),
		 0x0000000500000a01ULL);
	CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(0)) >> 32, KH_CLK_LOCKED);
	ksim_card_destroy(c);
}

TEST_F(model, access_costs)
{
	struct ksim_card *c = mh_card("saxpy");
	u8 buf[100];
	u64 t;

	REQUIRE(c);
	t = ksim_cycles(c);
	mh_rd(c, KH_ORC_CAPS);
	CHECK_EQ(ksim_cycles(c) - t, 150);
	t = ksim_cycles(c);
	mh_wr(c, KH_ORC_CTRL, 1);
	CHECK_EQ(ksim_cycles(c) - t, 30);
	t = ksim_cycles(c);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0), buf, 100), 0);
	CHECK_EQ(ksim_cycles(c) - t, 150 + 4);
	t = ksim_cycles(c);
	ksim_run(c, 12345);
	CHECK_EQ(ksim_cycles(c) - t, 12345);
	/* idle time is skipped, not stepped */
	ksim_run(c, 3000000000ULL);
	CHECK_EQ(ksim_cycles(c) - t, 3000012345ULL);
	ksim_card_destroy(c);
}

TEST_F(model, dma_round_trip)
{
	struct ksim_card *c = mh_card("saxpy");
	static u8 out[8192], in[8192];
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < sizeof(out); i++)
		out[i] = (u8)(i * 7 + 3);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x3000), out, sizeof(out)), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x3000), in, sizeof(in)), 0);
	CHECK(!memcmp(in, out, sizeof(in)));
	/* unaligned reads are fine; unwritten memory reads 0 */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x3001), in, 5), 0);
	CHECK(!memcmp(in, out + 1, 5));
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0xfffff000ULL), in, 64), 0);
	for (i = 0; i < 64; i++)
		CHECK_EQ(in[i], 0);
	/* the last word of DRAM */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, (4ULL << 30) - 32), out, 32), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, (4ULL << 30) - 32), in, 32), 0);
	CHECK(!memcmp(in, out, 32));
	ksim_card_destroy(c);
}

TEST_F(model, dma_partial_word_zeroes)
{
	struct ksim_card *c = mh_card("saxpy");
	u8 ones[96], in[96], x[3] = { 0xa1, 0xa2, 0xa3 };
	unsigned int i;

	REQUIRE(c);
	memset(ones, 0xff, sizeof(ones));
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x100), ones, 96), 0);
	/* 3 bytes in the middle of the second word: its rest becomes 0 */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x120 + 10), x, 3), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x100), in, 96), 0);
	for (i = 0; i < 96; i++) {
		u8 want = i < 32 || i >= 64 ? 0xff :
			  i >= 42 && i < 45 ? x[i - 42] : 0;

		CHECK_MSG(in[i] == want, "byte %u: %02x, want %02x", i, in[i],
			  want);
	}
	/* a range straddling two words zeroes the head of one, tail of other */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x100), ones, 96), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x100 + 30), x, 3), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x100), in, 96), 0);
	CHECK_EQ(in[29], 0);
	CHECK_EQ(in[30], 0xa1);
	CHECK_EQ(in[32], 0xa3);
	CHECK_EQ(in[33], 0);
	CHECK_EQ(in[63], 0);
	CHECK_EQ(in[64], 0xff);
	ksim_card_destroy(c);
}

TEST_F(model, dma_decode_errors)
{
	struct ksim_card *c = mh_card("saxpy");
	u8 b[64] = { 0 };

	REQUIRE(c);
	/* window 1 (mesh 0) but [37:36] = 1 */
	CHECK_EQ(ksim_dma_write(c, (1ULL << 40) | (1ULL << 36), b, 32), -EINVAL);
	CHECK_EQ(ksim_dma_read(c, (1ULL << 40) | (1ULL << 36), b, 32), -EINVAL);
	/* mesh 1 is absent */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(1, 0), b, 32), -EINVAL);
	/* window 0, and bits above the windows */
	CHECK_EQ(ksim_dma_read(c, 0x1000, b, 32), -EINVAL);
	CHECK_EQ(ksim_dma_read(c, (1ULL << 44) | KH_CARD_ADDR(0, 0), b, 32), -EINVAL);
	/* past the DRAM */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 4ULL << 30), b, 32), -EINVAL);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, (4ULL << 30) - 16), b, 32), -EINVAL);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0), b, 0), 0);
	/* [38] is reserved (the apertures at [39]: model_aperture) */
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0) | (1ULL << 38), b, 32), -EINVAL);
	ksim_card_destroy(c);
}

TEST_F(model, dma_does_not_wait_for_mesh_writes)
{
	struct ksim_card *c = mh_card("saxpy");
	struct kh_flit f;
	u8 in[32];
	unsigned int i;

	REQUIRE(c);
	mh_fast_host(c);
	/* a write from the agent: descriptor + one beat to 0x500 */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 1, 0, 0, KH_T_MEM_WR_REQ, 9, 0);
	kh_flit_set(&f, KH_MEM_ADDR, 0x500);
	mh_mb_send(c, &f);
	kh_flit_hdr(&f, 0, 1, 0, 0, KH_T_MEM_WR_DATA, 0, 1);
	for (i = 0; i < 4; i++)
		f.w[i] = 0x1111111111111111ULL * (i + 1);
	mh_mb_send(c, &f);
	/* read back at once: the write has not landed yet */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x500), in, 32), 0);
	CHECK_EQ(in[0], 0);
	ksim_run(c, 200);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x500), in, 32), 0);
	CHECK_EQ(in[0], 0x11);
	CHECK_EQ(in[31], 0x44);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
