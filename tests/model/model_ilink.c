// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The interlink (docs/spec/interlink.md) on 4-mesh cards of memory
 * clients: caps and the live mesh id, remote CU_DATA over 1, 2 and 3 hops
 * along the chain 0-1-3-2 with src preserved, the per-hop latency, ACK0,
 * fault clearing, posted mover writes and doorbells that count only once
 * the writes before them have landed, RD_REMOTE aliasing, a disabled
 * interlink, SWITCH on a short chain, and credit flow control under a
 * stalled receiver.
 */
#include "mclient.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define MESH3(extra)				\
	"mesh 0\n" MAP3				\
	"mesh 1\n" MAP3				\
	"mesh 2\n" extra MAP3			\
	"mesh 3\n" MAP3
#define MAP3					\
	"xxx  mcl  xxx\n"			\
	"mag  mcl  nul\n"			\
	"xxx  mcl  xxx\n"

static const char quad[] = "profile ship\n" MESH3("");

static const char quad_slow2[] =
	"profile ship\n" MESH3("param mem_wr_latency 3000\n");

static const char quad_tight2[] =
	"profile ship\n"
	MESH3("param recv_depth 2\nparam router_fifo 2\n");

static const char duo[] = "profile ship\nmesh 0\n" MAP3 "mesh 1\n" MAP3;

static const char rtl_one[] = "profile rtl\n" MAP3;

/*
 * A remote CU_DATA burst from (ux, uy) of mesh src: a descriptor and n
 * data flits, all to the local MAG port (0,1) with rsvd = remote | dst
 * and txn = {fin_y, fin_x}; data word 0 = tag + i.
 */
static void burst(struct ksim_card *c, unsigned int src, unsigned int ux,
		  unsigned int uy, unsigned int dst, unsigned int fx,
		  unsigned int fy, unsigned int n, unsigned int ax,
		  unsigned int ay, u64 tag)
{
	struct kh_flit f;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 1, ux, uy, KH_T_CU_DATA, KH_YX(fx, fy), 0);
	kh_flit_set(&f, KH_HDR_RSVD, 4 | dst);
	kh_flit_set(&f, KH_DATA_LEN, n - 1);
	kh_flit_set(&f, KH_DATA_ACK_X, ax);
	kh_flit_set(&f, KH_DATA_ACK_Y, ay);
	mc_send(c, src, ux, uy, &f);
	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 0, 1, ux, uy, KH_T_CU_DATA, KH_YX(fx, fy),
			    i + 1 == n);
		kh_flit_set(&f, KH_HDR_RSVD, 4 | dst);
		f.w[0] = tag + i;
		f.w[3] = 0xda7a;
		mc_send(c, src, ux, uy, &f);
	}
}

/* The burst arrived whole at cl, as sent by (ux, uy): src preserved. */
static void check_burst(const struct mc_client *cl, unsigned int from,
			unsigned int ux, unsigned int uy, unsigned int fx,
			unsigned int fy, unsigned int n, u64 tag)
{
	unsigned int i;

	REQUIRE(cl->n >= from + n + 1);
	for (i = 0; i <= n; i++) {
		const struct kh_flit *f = &cl->rec[from + i].f;

		CHECK_EQ(kh_flit_get(f, KH_HDR_TYPE), KH_T_CU_DATA);
		CHECK_EQ(kh_flit_get(f, KH_HDR_SRC_X), ux);
		CHECK_EQ(kh_flit_get(f, KH_HDR_SRC_Y), uy);
		CHECK_EQ(kh_flit_get(f, KH_HDR_DST_X), fx);
		CHECK_EQ(kh_flit_get(f, KH_HDR_DST_Y), fy);
		CHECK_EQ(kh_flit_get(f, KH_HDR_RSVD), 0);
		CHECK_EQ(kh_flit_get(f, KH_HDR_TXN), KH_YX(fx, fy));
		CHECK_EQ(kh_flit_get(f, KH_HDR_LAST), i == n);
		if (i) {
			CHECK_EQ(f->w[0], tag + i - 1);
			CHECK_EQ(f->w[3], 0xda7a);
		} else {
			CHECK_EQ(kh_flit_get(f, KH_DATA_LEN), n - 1);
		}
	}
}

static u64 faults(struct ksim_card *c, unsigned int mesh)
{
	return mc_statw(c, mesh, KH_IL_W_FAULTS);
}

TEST_F(model, caps_mesh_id_and_enable)
{
	struct ksim_card *c = mc_card(quad);
	unsigned int m;

	REQUIRE(c);
	for (m = 0; m < 4; m++) {
		CHECK_EQ(mc_statw(c, m, KH_IL_W_CAPS), KH_IL_CAPS(m));
		CHECK_EQ(mc_statw(c, m, KH_IL_W_CAPS) & 0xffff, 0x494c);
		CHECK_EQ(faults(c, m), 0);
	}
	CHECK_EQ(KH_IL_CAPS(0), 0x1402494cULL);
	/* credits at rest: mesh 0 has only link 1, mesh 2 only link 0 */
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_CREDITS), 128ULL << 32);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_CREDITS), (128ULL << 32) | 128);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_CREDITS), 128);
	/* the live id is a register */
	mc_cfg(c, 1, KH_IL_MESH_ID, 2);
	CHECK_EQ(KH_IL_CAPS_MESH(mc_statw(c, 1, KH_IL_W_CAPS)), 2);
	mc_cfg(c, 1, KH_IL_MESH_ID, 1);
	/* disabled: caps read 0; enabled again */
	mc_cfg(c, 3, KH_IL_CTRL, 0);
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_CAPS), 0);
	mc_cfg(c, 3, KH_IL_CTRL, KH_IL_CTRL_ENABLE);
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_CAPS), KH_IL_CAPS(3));
	/* a reset restores enable and the id */
	mc_cfg(c, 2, KH_IL_CTRL, 0);
	mc_cfg(c, 2, KH_IL_MESH_ID, 0);
	CHECK_EQ(ksim_mesh_reset(c, 2), 0);
	ksim_run(c, 100);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_CAPS), KH_IL_CAPS(2));
	ksim_card_destroy(c);
	/* no interlink at all (profile rtl): every word reads 0 */
	c = mc_card(rtl_one);
	REQUIRE(c);
	for (m = 0; m < 16; m++)
		CHECK_EQ(mc_statw(c, 0, m), 0);
	mc_cfg(c, 0, KH_IL_CTRL, 1);
	CHECK_EQ(mc_statw(c, 0, 0), 0);
	ksim_card_destroy(c);
}

TEST_F(model, remote_cu_data_one_hop)
{
	struct ksim_card *c = mc_card(quad);
	struct ksim_stats st;
	struct mc_client *rx;

	REQUIRE(c);
	rx = mc_at(c, 1, 1, 2);
	REQUIRE(rx);
	burst(c, 0, 1, 1, 1, 1, 2, 3, 0, 1, 0x100);
	REQUIRE(mc_wait(c, rx, 4, 5000));
	check_burst(rx, 0, 1, 1, 1, 2, 3, 0x100);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_TX(1)), 4);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_RX(0)), 4);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_FORWARDED), 0);
	ksim_get_stats(c, 1, &st);
	CHECK_EQ(st.il_injected, 4);
	CHECK_EQ(faults(c, 0) | faults(c, 1), 0);
	/* a hop costs il_hop_latency (20) */
	CHECK_MSG(rx->rec[0].at - mc_at(c, 0, 1, 1)->sent_at[0] >= 20,
		  "one hop in %llu cycles",
		  (unsigned long long)(rx->rec[0].at -
				       mc_at(c, 0, 1, 1)->sent_at[0]));
	ksim_card_destroy(c);
}

/*
 * Meshes at different clocks (docs/model.md "Mesh clocks"): the lane
 * keeps card cycles, each MAG ticks it on its own edges; the beats arrive
 * whole, a hop no quicker than at ship.
 */
TEST_F(model, remote_cu_data_between_meshes_at_different_clocks)
{
	struct ksim_card *c = mc_card(quad);
	struct mc_client *rx;
	unsigned int m, o;
	u64 t0;

	REQUIRE(c);
	for (m = 0; m < 2; m++) {
		for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++)
			ksim_bar_write32(c, 0, KH_CLKWIZ_BASE(m) + KH_CLK_DIV(o),
					 KH_CLK_PROFILE_DIV(m, o));	/* low, mid */
		ksim_bar_write32(c, 0, KH_CLKWIZ_BASE(m) + KH_CLK_LOAD,
				 KH_CLK_LOAD_SEN | KH_CLK_LOAD_SADDR);
	}
	ksim_run(c, KH_CLK_LOCK_CYCLES + KH_RST_RELEASE_CYCLES +
		 KH_RST_RECOVERY_CYCLES);
	CHECK(!ksim_mesh_in_reset(c, 0));
	CHECK(!ksim_mesh_in_reset(c, 1));
	rx = mc_at(c, 1, 1, 2);
	REQUIRE(rx);
	t0 = ksim_cycles(c);
	burst(c, 0, 1, 1, 1, 1, 2, 3, 0, 1, 0x100);
	REQUIRE(mc_wait(c, rx, 4, 20000));
	check_burst(rx, 0, 1, 1, 1, 2, 3, 0x100);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_TX(1)), 4);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_RX(0)), 4);
	CHECK_EQ(faults(c, 0) | faults(c, 1), 0);
	/*
	 * the clients stamp their own unit's cycles, two different clocks
	 * here: card cycles for the whole burst instead
	 */
	check_diag("low to mid, one hop, 4 flits: %llu card cycles",
		   (unsigned long long)(ksim_cycles(c) - t0));
	CHECK(ksim_cycles(c) - t0 >= 20);
	ksim_card_destroy(c);
}

TEST_F(model, remote_cu_data_along_the_chain)
{
	struct ksim_card *c = mc_card(quad);
	struct mc_client *tx, *rx2, *rx3, *rx0;
	u64 lat;

	REQUIRE(c);
	tx = mc_at(c, 0, 1, 0);
	rx2 = mc_at(c, 2, 1, 1);
	rx3 = mc_at(c, 3, 1, 2);
	rx0 = mc_at(c, 0, 1, 2);
	REQUIRE(tx && rx2 && rx3 && rx0);
	/* mesh 0 -> mesh 2 is three hops: through 1 and 3 */
	burst(c, 0, 1, 0, 2, 1, 1, 5, 0, 1, 0x200);
	REQUIRE(mc_wait(c, rx2, 6, 10000));
	check_burst(rx2, 0, 1, 0, 1, 1, 5, 0x200);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_FORWARDED), 6);
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_FORWARDED), 6);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_FORWARDED), 0);
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_RX(0)), 6);	/* from mesh 1 */
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_TX(1)), 6);	/* to mesh 2 */
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_RX(0)), 6);
	lat = rx2->rec[0].at - tx->sent_at[0];
	CHECK_MSG(lat >= 3 * 20, "three hops in %llu cycles",
		  (unsigned long long)lat);
	check_diag("mesh 0 -> mesh 2 (3 hops): first flit after %llu cycles",
		 (unsigned long long)lat);
	/* mesh 0 -> mesh 3 is two hops: mesh 2 sees nothing */
	burst(c, 0, 1, 0, 3, 1, 2, 2, 0, 1, 0x300);
	REQUIRE(mc_wait(c, rx3, 3, 10000));
	check_burst(rx3, 0, 1, 0, 1, 2, 2, 0x300);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_FORWARDED), 6 + 3);
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_FORWARDED), 6);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_RX(0)), 6);
	/* and back: mesh 2 -> mesh 0, src (1,1) of mesh 2 preserved */
	burst(c, 2, 1, 1, 0, 1, 2, 4, 0, 1, 0x400);
	REQUIRE(mc_wait(c, rx0, 5, 10000));
	check_burst(rx0, 0, 1, 1, 1, 2, 4, 0x400);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_TX(0)), 5);
	CHECK_EQ(faults(c, 0) | faults(c, 1) | faults(c, 2) | faults(c, 3), 0);
	ksim_card_destroy(c);
}

TEST_F(model, missing_ack_sets_ack0_and_faults_clear)
{
	struct ksim_card *c = mc_card(quad);
	struct mc_client *rx;

	REQUIRE(c);
	rx = mc_at(c, 1, 1, 1);
	REQUIRE(rx);
	burst(c, 0, 1, 2, 1, 1, 1, 2, 0, 0, 0x500);
	REQUIRE(mc_wait(c, rx, 3, 5000));
	check_burst(rx, 0, 1, 2, 1, 1, 2, 0x500);	/* still carried */
	CHECK_EQ(faults(c, 0), KH_IL_FAULT_ACK0);	/* at the sender */
	CHECK_EQ(faults(c, 1), 0);
	/* data flits are not descriptors: a named ack, no new fault */
	mc_cfg(c, 0, KH_IL_CTRL, KH_IL_CTRL_ENABLE | KH_IL_CTRL_CLR_FAULTS);
	CHECK_EQ(faults(c, 0), 0);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_CAPS), KH_IL_CAPS(0));
	burst(c, 0, 1, 2, 1, 1, 1, 1, 0, 1, 0x600);
	REQUIRE(mc_wait(c, rx, 5, 5000));
	CHECK_EQ(faults(c, 0), 0);
	/* a clear without [0] also disables */
	mc_cfg(c, 0, KH_IL_CTRL, KH_IL_CTRL_CLR_FAULTS);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_CAPS), 0);
	ksim_card_destroy(c);
}

static void mv_fill_remote(struct ksim_card *c, unsigned int mesh, u64 dst,
			   unsigned int n, u32 imm)
{
	mc_cfg(c, mesh, KH_MV_IMM, imm);
	mc_cfg(c, mesh, KH_MV_WALK_BASE, 1 | (dst << 4) | (1ULL << 44));
	mc_cfg(c, mesh, KH_MV_WALK_DIM, 1 | ((u64)n << 4) | (32ULL << 20));
	mc_cfg(c, mesh, KH_MV_CMD, KH_MV_MODE_FILL | (2 << 3) | KH_MV_GO);
}

static bool landed(struct ksim_card *c, unsigned int mesh, u64 addr,
		   unsigned int n, u32 imm)
{
	u32 w[8];
	unsigned int k, j;

	for (k = 0; k < n; k++) {
		if (ksim_dma_read(c, KH_CARD_ADDR(mesh, addr + 32 * k), w, 32))
			return false;
		for (j = 0; j < 8; j++)
			if (w[j] != imm)
				return false;
	}
	return true;
}

TEST_F(model, doorbell_counts_after_earlier_writes_land)
{
	struct ksim_card *c = mc_card(quad_slow2);
	struct ksim_stats st;
	unsigned int polls = 0;
	u64 b;

	REQUIRE(c);
	/* 16 words from mesh 0's mover into mesh 2's DRAM, posted */
	mv_fill_remote(c, 0, KH_MADDR(2, 0x4000), 16, 0xfeedf00d);
	while (mc_aux(c, 0) & KH_AUX_BUSY)
		;
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 0)), 0);
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 0)), 1);
	/* answered locally: the move is done long before the words land */
	CHECK(!landed(c, 2, 0x4000, 1, 0xfeedf00d));
	CHECK(!landed(c, 0, 0x4000, 1, 0xfeedf00d));
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mover_remote_words, 16);
	/* the doorbell is behind them; it counts once they have landed */
	mc_cfg(c, 0, KH_IL_DOORBELL, 2 | (0x5a << 8));
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_BELLS_SENT), 1);
	do
		b = mc_statw(c, 2, KH_IL_W_BELLS(0));
	while (!KH_IL_BELLS_COUNT(b) && ++polls < 1000);
	CHECK_EQ(KH_IL_BELLS_COUNT(b), 1);
	CHECK_EQ(KH_IL_BELLS_TAG(b), 0x5a);
	CHECK_MSG(polls > 10, "the doorbell counted after %u polls", polls);
	CHECK(landed(c, 2, 0x4000, 16, 0xfeedf00d));
	/* other sources' counters are untouched */
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_BELLS(1)), 0);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_BELLS(3)), 0);
	/* a second ring, then clear the counters */
	mc_cfg(c, 0, KH_IL_DOORBELL, 2 | (0x5b << 8));
	ksim_run(c, 500);
	b = mc_statw(c, 2, KH_IL_W_BELLS(0));
	CHECK_EQ(KH_IL_BELLS_COUNT(b), 2);
	CHECK_EQ(KH_IL_BELLS_TAG(b), 0x5b);
	mc_cfg(c, 2, KH_IL_CTRL, KH_IL_CTRL_ENABLE | KH_IL_CTRL_CLR_BELLS);
	CHECK_EQ(mc_statw(c, 2, KH_IL_W_BELLS(0)), 0);
	CHECK_EQ(faults(c, 0) | faults(c, 2), 0);
	ksim_card_destroy(c);
}

TEST_F(model, rd_remote_aliases_locally)
{
	struct ksim_card *c = mc_card(quad);
	u64 mine[4] = { 0x11, 0x12, 0x13, 0x14 }, theirs[4] = { 0x31 };
	struct mc_client *a;
	struct kh_flit f;
	u64 w[4];

	REQUIRE(c);
	a = mc_at(c, 1, 1, 1);
	REQUIRE(a);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(1, 0x100), mine, 32), 0);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(3, 0x100), theirs, 32), 0);
	/* a read naming mesh 3 is served from mesh 1's memory */
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, KH_MADDR(3, 0x100), 0, 1);
	mc_send(c, 1, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 1, 2000));
	CHECK_EQ(a->rec[0].f.w[0], 0x11);
	CHECK_EQ(faults(c, 1), KH_IL_FAULT_RD_REMOTE);
	CHECK_EQ(faults(c, 3), 0);
	mc_cfg(c, 1, KH_IL_CTRL, KH_IL_CTRL_ENABLE | KH_IL_CTRL_CLR_FAULTS);
	/* so is a write: it lands locally */
	mc_req(&f, KH_T_MEM_WR_REQ, 1, 1, 1, KH_MADDR(0, 0x200), 0, 2);
	mc_send(c, 1, 1, 1, &f);
	mc_data(&f, 1, 1, 1, 0x77, 1);
	mc_send(c, 1, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 2, 2000));
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(1, 0x200), w, 32), 0);
	CHECK_EQ(w[0], 0x77);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x200), w, 32), 0);
	CHECK_EQ(w[0], 0);
	CHECK_EQ(faults(c, 1), KH_IL_FAULT_RD_REMOTE);
	mc_cfg(c, 1, KH_IL_CTRL, KH_IL_CTRL_ENABLE | KH_IL_CTRL_CLR_FAULTS);
	/* a request naming the mesh itself is no fault */
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, KH_MADDR(1, 0x100), 0, 3);
	mc_send(c, 1, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 3, 2000));
	CHECK_EQ(faults(c, 1), 0);
	/* the mover's source aliases too */
	mc_cfg(c, 1, KH_MV_WALK_BASE, 0 | (KH_MADDR(2, 0x100) << 4));
	mc_cfg(c, 1, KH_MV_WALK_BASE, 1 | (KH_MADDR(1, 0x300) << 4));
	mc_cfg(c, 1, KH_MV_CMD, KH_MV_MODE_COPY | KH_MV_GO);
	ksim_run(c, 200);
	CHECK_EQ(mc_aux(c, 1) & 0xf1, 0);
	CHECK_EQ(KH_AUX_MOVES(mc_aux(c, 1)), 1);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(1, 0x300), w, 32), 0);
	CHECK_EQ(w[3], 0x14);
	CHECK_EQ(faults(c, 1), KH_IL_FAULT_RD_REMOTE);
	/* but a bare destination names mesh 0: a remote write there */
	mc_cfg(c, 1, KH_MV_WALK_BASE, 0 | (KH_MADDR(1, 0x100) << 4));
	mc_cfg(c, 1, KH_MV_WALK_BASE, 1 | (0x300ULL << 4));
	mc_cfg(c, 1, KH_MV_CMD, KH_MV_MODE_COPY | KH_MV_GO);
	ksim_run(c, 500);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x300), w, 32), 0);
	CHECK_EQ(w[0], 0x11);
	ksim_card_destroy(c);
}

TEST_F(model, disabled_interlink)
{
	struct ksim_card *c = mc_card(quad);
	struct ksim_stats st;
	struct mc_client *rx1, *rx3;

	REQUIRE(c);
	rx1 = mc_at(c, 1, 1, 1);
	rx3 = mc_at(c, 3, 1, 1);
	REQUIRE(rx1 && rx3);
	mc_cfg(c, 1, KH_IL_CTRL, 0);
	/* for the disabled mesh: dropped there, INJ there */
	burst(c, 0, 1, 1, 1, 1, 1, 2, 0, 1, 0x700);
	ksim_run(c, 2000);
	CHECK_EQ(rx1->n, 0);
	CHECK_EQ(faults(c, 1), KH_IL_FAULT_INJ);
	ksim_get_stats(c, 1, &st);
	CHECK_EQ(st.il_inj_dropped, 3);
	/* through it: forwarded all the same */
	burst(c, 0, 1, 1, 3, 1, 1, 2, 0, 1, 0x800);
	REQUIRE(mc_wait(c, rx3, 3, 5000));
	check_burst(rx3, 0, 1, 1, 1, 1, 2, 0x800);
	/* from it: a unit's remote flits are dropped, the mover faults */
	burst(c, 1, 1, 1, 3, 1, 1, 1, 0, 1, 0x900);
	ksim_run(c, 2000);
	CHECK_EQ(rx3->n, 3);
	mv_fill_remote(c, 1, KH_MADDR(0, 0x1000), 2, 1);
	ksim_run(c, 500);
	CHECK_EQ(KH_AUX_FAULT(mc_aux(c, 1)), KH_MV_FAULT_AXI);
	CHECK_EQ(faults(c, 1), KH_IL_FAULT_INJ | KH_IL_FAULT_AXI);
	/* doorbells are not rung */
	mc_cfg(c, 1, KH_IL_DOORBELL, 0 | (1 << 8));
	ksim_run(c, 500);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_BELLS(1)), 0);
	CHECK_EQ(mc_statw(c, 1, KH_IL_W_BELLS_SENT), 0);
	ksim_card_destroy(c);
}

TEST_F(model, switch_fault_on_a_short_chain)
{
	struct ksim_card *c = mc_card(duo);
	struct ksim_stats st;

	REQUIRE(c);
	/* mesh 2 is at position 3: past mesh 1, the chain's end here */
	burst(c, 0, 1, 1, 2, 1, 1, 1, 0, 1, 0xa00);
	ksim_run(c, 2000);
	CHECK_EQ(faults(c, 1), KH_IL_FAULT_SWITCH);
	CHECK_EQ(faults(c, 0), 0);
	ksim_get_stats(c, 1, &st);
	CHECK_EQ(st.il_switch_dropped, 2);
	/* mesh 0 has no link 0 at all */
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_TX(0)), 0);
	/* to itself: looped back, injected here */
	burst(c, 0, 1, 1, 0, 1, 2, 1, 0, 1, 0xb00);
	REQUIRE(mc_wait(c, mc_at(c, 0, 1, 2), 2, 2000));
	check_burst(mc_at(c, 0, 1, 2), 0, 1, 1, 1, 2, 1, 0xb00);
	ksim_card_destroy(c);
}

TEST_F(model, credits_hold_back_a_stalled_receiver)
{
	struct ksim_card *c = mc_card(quad_tight2);
	struct mc_client *rx;
	u64 cr;

	REQUIRE(c);
	rx = mc_at(c, 2, 1, 1);
	REQUIRE(rx);
	rx->hold = true;
	/* 300 flits (two bursts) for a receiver that takes none */
	burst(c, 0, 1, 1, 2, 1, 1, 256, 0, 1, 0);
	burst(c, 0, 1, 1, 2, 1, 1, 42, 0, 1, 0x1000);
	ksim_run(c, 20000);
	CHECK_EQ(rx->n, 0);
	/* mesh 3's stop-class credits toward mesh 2 are used up */
	cr = mc_statw(c, 3, KH_IL_W_CREDITS);
	CHECK_MSG((cr & 0xffffffff) == 128 && (cr >> 32) == 64,
		  "mesh 3 credits %llx", (unsigned long long)cr);
	CHECK(mc_statw(c, 3, KH_IL_W_STALLS(1)) > 10000);
	CHECK(mc_statw(c, 0, KH_IL_W_EG_BLOCKS) > 10000);
	CHECK(mc_statw(c, 0, KH_IL_W_TX(1)) < 300);
	/*
	 * Released: everything arrives, in order, and the credits come home
	 * in batches of 8: the last 300 % 8 freed slots wait for a batch.
	 */
	rx->hold = false;
	ksim_unit_timer(ksim_unit_at(c, 2, 1, 1), ksim_cycles(c));
	REQUIRE(mc_wait(c, rx, 300, 50000));
	check_burst(rx, 0, 1, 1, 1, 1, 256, 0);
	check_burst(rx, 257, 1, 1, 1, 1, 42, 0x1000);
	ksim_run(c, 1000);
	CHECK_EQ(mc_statw(c, 3, KH_IL_W_CREDITS),
		 ((128ULL - 300 % 8) << 32) | 128);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_CREDITS), (128ULL - 300 % 8) << 32);
	CHECK_EQ(mc_statw(c, 0, KH_IL_W_TX(1)), 300);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
