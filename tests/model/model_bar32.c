// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The host's 32-bit path to a mesh control window (docs/spec/xdma.md
 * "BAR0 in 32 bits"; the card's only path: kohakutpu.md 8.2), one rule a
 * test, each against noc_orchestrator.v: a 32-bit access is one beat on
 * the orchestrator's 64-bit bus, at the address the host gave, with the
 * 32 bits on both halves of the word and the addressed half's byte
 * enables.  The named registers take a beat at +0 whole and ignore one at
 * +4 (a case on the whole address), and read 0 at +4; TX_FLIT takes the
 * enables, so a flit is composed half by half; a STAGE word is overwritten
 * whole with the replicated beat at +0 and at +4; AUX_CFG pulses its
 * client at the beat's address, which the mover and the interlink decode
 * onto the register around it; RX_FLIT, NODE_STATUS (and its alias) and
 * AUX_STATW read both halves.
 */
#include "mclient.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* null units at (1,1) and (1,2); the agent at (0,1) */
static const char map[] =
	"profile rtl\n"
	"xxx  nul  xxx\n"
	"mag  null nul\n"
	"xxx  null xxx\n";

/* two meshes with an interlink, for AUX_CFG and AUX_STATW */
#define MAP3	"xxx  mcl  xxx\n" "mag  mcl  nul\n" "xxx  mcl  xxx\n"
static const char duo[] = "profile ship\nparam dram_mib 16\nmesh 0\n" MAP3
			  "mesh 1\n" MAP3;

static void w32(struct ksim_card *c, u32 off, u32 v)
{
	ksim_bar_write32(c, 0, KH_MESH_BASE(0) + off, v);
}

static u32 r32(struct ksim_card *c, u32 off)
{
	return ksim_bar_read32(c, 0, KH_MESH_BASE(0) + off);
}

/* a 64-bit register as the 32-bit path reads it: +0, then +4 */
static u64 r32x2(struct ksim_card *c, u32 off)
{
	u64 lo = r32(c, off);

	return lo | (u64)r32(c, off + 4) << 32;
}

/* a CU_CTRL read of the agent's own coordinate: it comes back unmodified */
static void echo_req(struct kh_flit *f, unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 1, 0, 0, KH_T_CU_CTRL, txn, 1);
	kh_flit_set(f, KH_CTRL_OP, KH_CTRL_OP_READ);
}

/* one instruction for a null unit, which answers SIG_BATCH_COMPLETE(txn) */
static void null_inst(struct kh_flit *f, unsigned int x, unsigned int y,
		      unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, x, y, 0, 1, KH_T_CU_INST, txn, 1);
}

/* Run a one-flit program from staging slot 0 to (x, y) with credit 1. */
static void dispatch1(struct ksim_card *c, unsigned int x, unsigned int y)
{
	mh_wr(c, KH_ORC_PROG_CRED, 1);
	mh_prog(c, x, y, 0, 1);
}

TEST_F(model, named_register_takes_the_whole_beat_at_plus_0)
{
	struct ksim_card *c = mh_card(map);

	REQUIRE(c);
	/* CTRL <= s_axi_wdata (line 430): the 32 bits on both halves */
	mh_wr(c, KH_ORC_CTRL, 0x1111111122222222ULL);
	w32(c, KH_ORC_CTRL, 0x33);
	CHECK_EQ(mh_rd(c, KH_ORC_CTRL), 0x0000003300000033ULL);
	/* a field narrower than the beat keeps its bits: PROG_LEN [15:0] */
	w32(c, KH_ORC_PROG_LEN, 0xabcd1234);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_LEN), 0x1234);
	w32(c, KH_ORC_PROG_DST, KH_YX(1, 2));
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_DST), KH_YX(1, 2));
	ksim_card_destroy(c);
}

TEST_F(model, named_register_ignores_a_beat_at_plus_4)
{
	struct ksim_card *c = mh_card(map);
	struct kh_flit f;

	REQUIRE(c);
	mh_wr(c, KH_ORC_CTRL, 0x1111111122222222ULL);
	w32(c, KH_ORC_CTRL + 4, 0x44);
	CHECK_EQ(mh_rd(c, KH_ORC_CTRL), 0x1111111122222222ULL);
	w32(c, KH_ORC_PROG_LEN + 4, 7);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_LEN), 0);
	/* a kick at +4 starts nothing; at +0 it does */
	null_inst(&f, 1, 1, 9);
	mh_stage(c, 0, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 1);
	mh_wr(c, KH_ORC_PROG_DST, KH_YX(1, 1));
	mh_wr(c, KH_ORC_PROG_BASE, 0);
	mh_wr(c, KH_ORC_PROG_LEN, 1);
	w32(c, KH_ORC_PROG_KICK + 4, 1);
	ksim_run(c, 200);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 1)), 0);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_STAT), 1ULL << 17);
	w32(c, KH_ORC_PROG_KICK, 1);
	CHECK(mh_wait_count(c, 1, 1, 1, 200));
	/* PROG_CRED at +4: no write; SIG_DONE at +4: no clear */
	w32(c, KH_ORC_PROG_CRED + 4, 5);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), 0);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 1);
	w32(c, KH_ORC_SIG_DONE + 4, 0);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 1);
	w32(c, KH_ORC_SIG_DONE, 0);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	/* TX_KICK and RX_POP at +4 do nothing */
	echo_req(&f, 3);
	mh_mb_load(c, &f);
	w32(c, KH_ORC_TX_KICK + 4, 1);
	ksim_run(c, 200);
	CHECK(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY);
	w32(c, KH_ORC_TX_KICK, 1);
	ksim_run(c, 200);
	REQUIRE(!(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY));
	w32(c, KH_ORC_RX_POP + 4, 1);
	CHECK(!(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY));
	w32(c, KH_ORC_RX_POP, 1);
	CHECK(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY);
	ksim_card_destroy(c);
}

TEST_F(model, named_register_reads_0_at_plus_4)
{
	struct ksim_card *c = mh_card(map);
	u64 caps;

	REQUIRE(c);
	caps = mh_rd(c, KH_ORC_CAPS);
	REQUIRE(caps >> 32);
	/* reg_rd's case (line 491) does not match the +4 address */
	CHECK_EQ(r32(c, KH_ORC_CAPS), (u32)caps);
	CHECK_EQ(r32(c, KH_ORC_CAPS + 4), 0);
	mh_wr(c, KH_ORC_CTRL, 0x1111111122222222ULL);
	CHECK_EQ(r32(c, KH_ORC_CTRL), 0x22222222);
	CHECK_EQ(r32(c, KH_ORC_CTRL + 4), 0);
	/* PROG_STAT's credit [32:17]: bit 15 of it is out of reach */
	mh_wr(c, KH_ORC_PROG_CRED, 0x8001);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_STAT) >> 32, 1);
	CHECK_EQ(r32x2(c, KH_ORC_PROG_STAT), 1ULL << 17);
	ksim_card_destroy(c);
}

/*
 * The interrupt addon's orchestrator answers at CAPS + 4 with CAPS's high
 * half, so that a 32-bit host sees CAPS[40] (irq-addon.md "Discovery");
 * without the addon it is the shipped RTL's 0 (above).
 */
TEST_F(model, caps_high_half_at_plus_4_with_the_irq_addon)
{
	static const char irq_map[] = "profile rtl\nparam irq 1\n"
				      "xxx  null xxx\n" "mag  null nul\n"
				      "xxx  null xxx\n";
	struct ksim_card *c = mh_card(irq_map);
	u64 caps;

	REQUIRE(c);
	caps = mh_rd(c, KH_ORC_CAPS);
	REQUIRE(caps & KH_CAPS_IRQ_ADDON);
	CHECK_EQ(r32(c, KH_ORC_CAPS), (u32)caps);
	CHECK_EQ(r32(c, KH_ORC_CAPS + 4), (u32)(caps >> 32));
	CHECK_EQ(r32x2(c, KH_ORC_CAPS), caps);
	/* only CAPS: its neighbours' +4 still read 0 */
	mh_wr(c, KH_ORC_IRQ_EN, 0x1f);
	CHECK_EQ(r32(c, KH_ORC_IRQ_EN), 0x1f);
	CHECK_EQ(r32(c, KH_ORC_IRQ_EN + 4), 0);
	CHECK_EQ(r32(c, KH_ORC_STATUS + 4), 0);
	ksim_card_destroy(c);
}

TEST_F(model, node_status_and_its_alias_read_both_halves)
{
	struct ksim_card *c = mh_card(map);
	struct kh_flit f;
	u64 ns;

	REQUIRE(c);
	null_inst(&f, 1, 2, 0xa5);
	mh_stage(c, 0, &f);
	dispatch1(c, 1, 2);
	REQUIRE(mh_wait_count(c, 1, 2, 1, 200));
	ns = mh_ns(c, 1, 2);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0xa5);
	CHECK_EQ(r32x2(c, KH_ORC_NODE_STATUS(KH_YX(1, 2))), ns);
	CHECK_EQ(r32x2(c, KH_ORC_NODE_ALIAS + KH_YX(1, 2) * 8), ns);
	ksim_card_destroy(c);
}

TEST_F(model, tx_flit_is_composed_half_by_half)
{
	struct ksim_card *c = mh_card(map);
	struct kh_flit f, got;
	unsigned int w;

	REQUIRE(c);
	/* the payload words halves that differ, so a lost or doubled half shows */
	echo_req(&f, 0x3c);
	f.w[0] = 0x0123456789abcdefULL;
	f.w[1] = 0xfedcba9876543210ULL;
	f.w[2] = 0x00000000ffffffffULL;
	for (w = 0; w < KH_FLIT_WORDS; w++)
		mh_wr(c, KH_ORC_TX_FLIT(w), 0x5555555555555555ULL);
	for (w = 0; w < KH_FLIT_WORDS; w++) {
		w32(c, KH_ORC_TX_FLIT(w), (u32)f.w[w]);
		w32(c, KH_ORC_TX_FLIT(w) + 4, (u32)(f.w[w] >> 32));
	}
	w32(c, KH_ORC_TX_KICK, 1);
	ksim_run(c, 200);
	REQUIRE(!(r32(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY));
	/* and RX_FLIT reads back both halves of each word (is_rx_fl, line 477) */
	for (w = 0; w < KH_FLIT_WORDS; w++)
		got.w[w] = r32x2(c, KH_ORC_RX_FLIT(w));
	for (w = 0; w < KH_FLIT_WORDS; w++)
		CHECK_EQ(got.w[w], f.w[w]);
	w32(c, KH_ORC_RX_POP, 1);
	/* one half alone leaves the other as it was (the strobes, line 418) */
	mh_wr(c, KH_ORC_TX_FLIT(1), 0x1111111122222222ULL);
	w32(c, KH_ORC_TX_FLIT(1) + 4, 0x33333333);
	CHECK_EQ(mh_rd(c, KH_ORC_TX_FLIT(1)), 0x3333333322222222ULL);
	w32(c, KH_ORC_TX_FLIT(1), 0x44444444);
	CHECK_EQ(mh_rd(c, KH_ORC_TX_FLIT(1)), 0x3333333344444444ULL);
	ksim_card_destroy(c);
}

TEST_F(model, stage_word_takes_the_replicated_beat_whole)
{
	struct ksim_card *c = mh_card(map);
	struct kh_flit f, got;

	REQUIRE(c);
	/*
	 * A CU_CTRL flit to the agent, staged and dispatched to the agent's
	 * own coordinate, comes back into RX as the dispatcher sent it: the
	 * staging RAM's words, dst and src rewritten.
	 */
	echo_req(&f, 0x21);
	f.w[0] = 0x0123456789abcdefULL;
	f.w[1] = 0xfedcba9876543210ULL;
	mh_stage(c, 0, &f);
	/* stage_ram[(waddr - A_STAGE) >> 3] <= s_axi_wdata (lines 379, 415) */
	w32(c, KH_ORC_STAGE(0), 0xdeadbeef);
	w32(c, KH_ORC_STAGE(0) + 8 + 4, 0xcafef00d);
	dispatch1(c, 0, 1);
	REQUIRE(mh_mb_recv(c, &got, 200));
	CHECK_EQ(got.w[0], 0xdeadbeefdeadbeefULL);
	CHECK_EQ(got.w[1], 0xcafef00dcafef00dULL);
	CHECK_EQ(got.w[2], f.w[2]);
	CHECK_EQ(kh_flit_get(&got, KH_HDR_TYPE), KH_T_CU_CTRL);
	CHECK_EQ(kh_flit_get(&got, KH_HDR_TXN), 0x21);
	/*
	 * The header word's upper half is past the 288-bit flit, so a header
	 * written at +0 or at +4 is whole: only a payload word with two equal
	 * halves can be staged through this path.
	 */
	w32(c, KH_ORC_STAGE(0) + 32 + 4, (u32)f.w[4]);
	dispatch1(c, 0, 1);
	REQUIRE(mh_mb_recv(c, &got, 200));
	CHECK_EQ(kh_flit_get(&got, KH_HDR_TXN), 0x21);
	ksim_card_destroy(c);
}

/* AUX_CFG of mesh m through the 32-bit path */
static void cfg32(struct ksim_card *c, unsigned int m, u32 off, u32 v)
{
	ksim_bar_write32(c, 0, KH_MESH_BASE(m) + KH_ORC_AUX_CFG(off), v);
}

TEST_F(model, aux_cfg_pulses_at_the_beat_address)
{
	struct ksim_card *c = mc_card(duo);
	u64 b;
	u32 got[8];
	unsigned int i;

	REQUIRE(c);
	/*
	 * A doorbell rung at +0 and at +4: the interlink decodes {addr[7:3],
	 * 3'b000} (mag_ilink.v:226) and takes dst [1:0], tag [15:8].
	 */
	cfg32(c, 0, KH_IL_DOORBELL, 1 | 0x5a << 8);
	ksim_run(c, 500);
	b = mc_statw(c, 1, KH_IL_W_BELLS(0));
	CHECK_EQ(KH_IL_BELLS_COUNT(b), 1);
	CHECK_EQ(KH_IL_BELLS_TAG(b), 0x5a);
	cfg32(c, 0, KH_IL_DOORBELL + 4, 1 | 0x5b << 8);
	ksim_run(c, 500);
	/* AUX_STATW reads both halves (is_auxst, line 479) */
	b = (u64)ksim_bar_read32(c, 0, KH_MESH_BASE(1) +
				 KH_ORC_AUX_STATW(KH_IL_W_BELLS(0))) |
	    (u64)ksim_bar_read32(c, 0, KH_MESH_BASE(1) +
				 KH_ORC_AUX_STATW(KH_IL_W_BELLS(0)) + 4) << 32;
	CHECK_EQ(KH_IL_BELLS_COUNT(b), 2);
	CHECK_EQ(KH_IL_BELLS_TAG(b), 0x5b);
	/*
	 * The mover (reg_sel = {cfg_addr[7:3], 3'b000}, mm_mover.v:154): IMM
	 * written at +4 holds the beat's low half, and GO at +0 starts a
	 * fill of one word at 0x8000 (the walk set up 64 bits wide: its
	 * fields do not fit a 32-bit beat).
	 */
	mc_cfg(c, 0, KH_MV_WALK_BASE, 1 | (0x8000ULL << 4) | (1ULL << 44));
	mc_cfg(c, 0, KH_MV_WALK_DIM, 1 | (1ULL << 4) | (32ULL << 20));
	cfg32(c, 0, KH_MV_IMM + 4, 0xa1b2c3d4);
	cfg32(c, 0, KH_MV_CMD, KH_MV_MODE_FILL | 2 << 3 | KH_MV_GO);
	for (i = 0; i < 10000 && (mc_aux(c, 0) & KH_AUX_BUSY); i++)
		;
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), 0);
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 1);
	REQUIRE(!ksim_dma_read(c, KH_CARD_ADDR(0, 0x8000), got, 32));
	for (i = 0; i < 8; i++)
		CHECK_EQ(got[i], 0xa1b2c3d4);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
