// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The clock wizard and the mesh reset its lock drives (kohakutpu.md §8.5,
 * §12.4; seed 001 §6), and the DDR controller window.
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

static const char two_null[] =
	"mesh 0\nxxx null xxx\nmag nul nul\nxxx null xxx\n"
	"mesh 1\nxxx null xxx\nmag nul nul\nxxx null xxx\n";

static bool locked(struct ksim_card *c, unsigned int n)
{
	return mm_clk_rd(c, n, KH_CLK_STATUS) & KH_CLK_LOCKED;
}

/* noc_in_busy of the endpoint router (1,1)'s port faces */
static bool ep_busy(struct ksim_card *c, unsigned int n, unsigned int port)
{
	struct ksim_link *l = ksim_router_link(c, n, 1, 1, port);

	return l->rx->ops->busy(l->rx);
}

static void zero_cost_reads(struct ksim_card *c)
{
	struct ksim_timing t = { 0, 1, 1 };

	ksim_set_timing(c, &t);
}

TEST_F(model, wizard_registers)
{
	struct ksim_card *c = mh_card(two_null);
	unsigned int i;

	REQUIRE(c);
	/* the 32-in-64 convention: STATUS is bit 32 of the word at 0 */
	CHECK_EQ(ksim_read64(c, KH_CLKWIZ_BASE(0)), (u64)KH_CLK_LOCKED << 32);
	/* the built configuration, 300/600/300/300 */
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_CFG0), KH_CLK_CFG0_BUILT);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(0)), 4);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(1)), 2);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(2)), 4);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(3)), 4);
	/* duty reads back 0 */
	for (i = 0; i < KH_CLK_OUTPUTS; i++)
		CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DUTY(i)), 0);
	mm_clk_wr(c, 0, KH_CLK_PHASE(1), 0x123);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_PHASE(1)), 0x123);
	mm_clk_wr(c, 0, KH_CLK_PHASE(1), 0);
	/* a LOAD that changes nothing keeps lock */
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK(locked(c, 0));
	/* a duty of 0 is rejected (and reported): nothing changed, lock kept */
	mh_expect_violations = true;
	mh_violations = 0;
	mm_clk_wr(c, 0, KH_CLK_DUTY(2), 0);
	CHECK_EQ(mh_violations, 1);
	mh_expect_violations = false;
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK(locked(c, 0));
	/* 50000 is what it was: still nothing changed */
	mm_clk_wr(c, 0, KH_CLK_DUTY(2), KH_CLK_DUTY_50);
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK(locked(c, 0));
	/* 60000 is a change */
	mm_clk_wr(c, 0, KH_CLK_DUTY(2), 60000);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DUTY(2)), 0);
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK(!locked(c, 0));
	CHECK(locked(c, 1));
	ksim_run(c, KH_CLK_LOCK_CYCLES);
	CHECK(locked(c, 0));
	/* LOAD without SEN, STATUS and a wrong SW_RST key do nothing */
	mm_clk_wr(c, 0, KH_CLK_DIV(0), 8);
	mm_clk_wr(c, 0, KH_CLK_LOAD, 2);
	mm_clk_wr(c, 0, KH_CLK_STATUS, 0);
	mm_clk_wr(c, 0, KH_CLK_SW_RST, 5);
	CHECK(locked(c, 0));
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(0)), 8);
	/* LOAD 0x1 loads the built values: a change from the 60 % duty */
	mm_clk_wr(c, 0, KH_CLK_LOAD, 1);
	CHECK(!locked(c, 0));
	ksim_run(c, KH_CLK_LOCK_CYCLES);
	CHECK(locked(c, 0));
	/* SW_RST 0xA: the registers return to the built values, lock drops */
	mm_clk_wr(c, 0, KH_CLK_SW_RST, KH_CLK_SW_RST_KEY);
	CHECK(!locked(c, 0));
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(0)), 4);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_SW_RST), 0);
	ksim_card_destroy(c);
}

TEST_F(model, retune_resets_that_mesh_only)
{
	struct ksim_card *c = mh_card(two_null);
	struct ksim_stats st;
	struct ksim_link *l;
	struct kh_flit f;
	u64 ns0, ns1, t, v = 0x77;
	unsigned int n;

	REQUIRE(c);
	for (n = 0; n < 2; n++) {
		mm_null_prog(c, n, 1, 0, 3, 8);
		ksim_run(c, 2000);
		CHECK_EQ(KH_NS_COUNT(mm_ns(c, n, 1, 0)), 3);
		CHECK_EQ(mm_rd(c, n, KH_ORC_SIG_DONE), 3);
		CHECK_EQ(mm_ctrl_rd(c, n, 1, 0, KH_CTRL_IDX_COUNTERS) >> 32, 3);
		mm_wr(c, n, KH_ORC_IRQ_EN, 0x3);
	}
	ns0 = mm_ns(c, 0, 1, 0);
	ns1 = mm_ns(c, 1, 1, 0);
	zero_cost_reads(c);

	/* retune mesh 1: CLKOUT0 / 8, then LOAD */
	mm_clk_wr(c, 1, KH_CLK_DIV(0), 8);
	CHECK(locked(c, 1));
	mm_clk_wr(c, 1, KH_CLK_LOAD, KH_CLK_LOAD_SEN | KH_CLK_LOAD_SADDR);
	t = ksim_cycles(c) - 1;	/* the cycle the LOAD landed in */
	CHECK(!locked(c, 1));
	CHECK(locked(c, 0));
	CHECK(ksim_mesh_in_reset(c, 1));
	CHECK(!ksim_mesh_in_reset(c, 0));
	/* in reset: busy held on every endpoint, unit and MAG port */
	CHECK(ep_busy(c, 1, KSIM_PORT_N));
	CHECK(ep_busy(c, 1, KSIM_PORT_S));
	CHECK(ep_busy(c, 1, KSIM_PORT_W));
	CHECK(!ep_busy(c, 0, KSIM_PORT_N));
	CHECK(!ep_busy(c, 0, KSIM_PORT_W));
	/* what resets, what does not */
	CHECK_EQ(mm_rd(c, 1, KH_ORC_SIG_DONE), 0);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_PROG_DST), 0);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_PROG_LEN), 0);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_PROG_CRED), 0);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_PROG_STAT), 0);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_IRQ_EN), 0);
	CHECK_EQ(mm_ns(c, 1, 1, 0), ns1);		/* no reset clause */
	CHECK_EQ(mm_rd(c, 0, KH_ORC_SIG_DONE), 3);	/* the other mesh */
	CHECK_EQ(mm_rd(c, 0, KH_ORC_IRQ_EN), 0x3);
	CHECK_EQ(mm_ns(c, 0, 1, 0), ns0);
	/* host writes are lost, DMA to the mesh hangs */
	mm_wr(c, 1, KH_ORC_CTRL, 7);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_CTRL), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(1, 0x40), &v, 8), -EIO);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x40), &v, 8), 0);

	/* lock returns after KH_CLK_LOCK_CYCLES ... */
	ksim_run(c, t + KH_CLK_LOCK_CYCLES - 1 - ksim_cycles(c));
	CHECK(!locked(c, 1));
	ksim_run(c, 1);
	CHECK(locked(c, 1));
	/* ... resetn KH_RST_RELEASE_CYCLES later ... */
	ksim_run(c, KH_RST_RELEASE_CYCLES);
	CHECK(ksim_mesh_in_reset(c, 1));	/* still recovering */
	CHECK(ep_busy(c, 1, KSIM_PORT_N));
	/* a sender that ignores busy in the window loses its flit */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 1, KH_T_CU_INST, 9, 1);
	l = ksim_router_link(c, 1, 1, 1, KSIM_PORT_N);
	l->rx->ops->take(l->rx, &f);
	/* ... and the endpoints recover KH_RST_RECOVERY_CYCLES after that */
	ksim_run(c, KH_RST_RECOVERY_CYCLES - 1);
	CHECK(ep_busy(c, 1, KSIM_PORT_N));
	ksim_run(c, 1);
	CHECK_EQ(ksim_cycles(c), t + KH_CLK_LOCK_CYCLES +
		 KH_RST_RELEASE_CYCLES + KH_RST_RECOVERY_CYCLES);
	CHECK(!ksim_mesh_in_reset(c, 1));
	CHECK(!ep_busy(c, 1, KSIM_PORT_N));
	CHECK(!ep_busy(c, 1, KSIM_PORT_W));
	ksim_get_stats(c, 1, &st);
	CHECK_EQ(st.reset_dropped, 1);
	CHECK_EQ(st.reset_host_dropped, 1);
	CHECK_EQ(st.resets, 1);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.resets, 0);

	/* usable again: counters start from 0, NODE_STATUS from its count */
	mh_fast_host(c);
	ksim_run(c, 1000);
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 0, KH_CTRL_IDX_COUNTERS), 0);
	CHECK_EQ(KH_NS_COUNT(mm_ns(c, 1, 1, 0)), 3);	/* the lost flit ran nowhere */
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 2, KH_CTRL_IDX_COUNTERS), 0);
	mm_null_prog(c, 1, 1, 2, 2, 8);
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mm_ns(c, 1, 1, 2)), 2);
	CHECK_EQ(mm_rd(c, 1, KH_ORC_SIG_DONE), 2);
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 2, KH_CTRL_IDX_COUNTERS) >> 32, 2);
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_COUNTERS) >> 32, 3);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(1, 0x40), &v, 8), 0);
	ksim_card_destroy(c);
}

TEST_F(model, a_flit_held_against_a_gate_moves_when_it_opens)
{
	struct ksim_card *c = mh_card(two_null);
	u64 t;

	REQUIRE(c);
	mh_fast_host(c);
	/* a reset pulse: released at once, the FIFOs recover for 8 cycles */
	CHECK_EQ(ksim_mesh_reset(c, 1), 0);
	t = ksim_cycles(c);
	CHECK(ksim_mesh_in_reset(c, 1));
	CHECK(ep_busy(c, 1, KSIM_PORT_N));
	ksim_run(c, KH_RST_RECOVERY_CYCLES);
	CHECK_EQ(ksim_cycles(c), t + KH_RST_RECOVERY_CYCLES);
	CHECK(!ksim_mesh_in_reset(c, 1));
	CHECK(!ep_busy(c, 1, KSIM_PORT_N));
	CHECK(locked(c, 1));	/* a pulse is not a relock */
	CHECK_EQ(ksim_mesh_reset(c, 4), -EINVAL);
	ksim_card_destroy(c);
}

TEST_F(model, ddr_controller_window)
{
	struct ksim_card *c = mh_card(two_null);
	unsigned int i;

	REQUIRE(c);
	CHECK_EQ(mm_ddrc_rd(c, 0, KH_DDRC_ECC_STATUS), 0);
	CHECK_EQ(mm_ddrc_rd(c, 0, KH_DDRC_ECC_EN_IRQ), 0);
	CHECK_EQ(mm_ddrc_rd(c, 0, KH_DDRC_ECC_ONOFF), 1);
	CHECK_EQ(mm_ddrc_rd(c, 0, KH_DDRC_CE_CNT), 0);
	/* {reg[off + 4], reg[off]}: ECC_ONOFF is the low half at 8 */
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(0) + 8), 1);
	ksim_write64(c, KH_DDRC_BASE(1) + 0, 0xffffffffffffffffULL);
	CHECK_EQ(mm_ddrc_rd(c, 1, KH_DDRC_ECC_STATUS), 0);
	CHECK_EQ(mm_ddrc_rd(c, 1, KH_DDRC_ECC_EN_IRQ), 3);
	CHECK_EQ(mm_ddrc_rd(c, 0, KH_DDRC_ECC_EN_IRQ), 0);
	ksim_write64(c, KH_DDRC_BASE(1) + 8, 0x1ff00000000ULL);
	CHECK_EQ(mm_ddrc_rd(c, 1, KH_DDRC_ECC_ONOFF), 0);
	CHECK_EQ(mm_ddrc_rd(c, 1, KH_DDRC_CE_CNT), 0xff);
	/* first-failing words, fault injection and the rest read 0 */
	for (i = 0; i < 4; i++)
		ksim_write64(c, KH_DDRC_BASE(1) + KH_DDRC_FI_D(2 * i), ~0ULL);
	ksim_write64(c, KH_DDRC_BASE(1) + KH_DDRC_FI_ECC, ~0ULL);
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(1) + KH_DDRC_FI_D(0)), 0);
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(1) + KH_DDRC_CE_FFD(0)), 0);
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(1) + KH_DDRC_CE_FFA(0)), 0);
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(1) + KH_DDRC_UE_FFA(0)), 0);
	CHECK_EQ(ksim_read64(c, KH_DDRC_BASE(1) + 0x8000), 0);
	/* a mesh reset leaves the controller alone */
	ksim_mesh_reset(c, 1);
	CHECK_EQ(mm_ddrc_rd(c, 1, KH_DDRC_CE_CNT), 0xff);
	/* absent mesh */
	CHECK_EQ(mm_ddrc_rd(c, 2, KH_DDRC_ECC_ONOFF), 0);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
