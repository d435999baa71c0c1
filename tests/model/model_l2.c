// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The endpoint L2 staging adapter (docs/spec/l2-adapter.md): its CU_CTRL
 * registers through the mailbox, the unit never seeing 0xe0-0xe7, one
 * pending reply, and the unit's memory traffic served from the SRAM when
 * enabled, forwarded (and counted) when not.
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define BASE	0x40000ULL

static const char card[] =
	"l2 1 0 0x40000\n"
	"xxx sax xxx\nmag nul nul\nxxx sax xxx\n";

static u64 rd(struct ksim_card *c, unsigned int idx)
{
	return mm_ctrl_rd(c, 0, 1, 0, idx);
}

static u64 wr(struct ksim_card *c, unsigned int idx, u64 v)
{
	return mm_ctrl_wr(c, 0, 1, 0, idx, v);
}

TEST_F(model, registers_through_the_mailbox)
{
	struct ksim_card *c = mh_card(card);
	unsigned int i;

	REQUIRE(c);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CAPS), KH_L2_CAPS(18, 8192));
	CHECK_EQ(KH_L2_CAPS_SLOT(rd(c, KH_CTRL_IDX_L2_CAPS)), 2);
	CHECK_EQ(KH_L2_CAPS_VERSION(rd(c, KH_CTRL_IDX_L2_CAPS)), 1);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_BASE), BASE);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CTRL), 0);	/* disabled at reset */
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_STAT), 0);
	for (i = 0xe4; i <= 0xe7; i++)
		CHECK_EQ(rd(c, i), 0);
	/* op 1 writes; the reply is the value at capture, before the write */
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_BASE, 0xff00f0000000ULL), BASE);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_BASE), 0xf0000000ULL);	/* 40 bits */
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_CTRL, 3), 0);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CTRL), 1);
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_CTRL, 0), 1);
	/* read-only and unused indices ignore writes */
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_CAPS, 5), KH_L2_CAPS(18, 8192));
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CAPS), KH_L2_CAPS(18, 8192));
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_STAT, 5), 0);
	CHECK_EQ(wr(c, 0xe5, 5), 0);
	CHECK_EQ(rd(c, 0xe5), 0);
	/* the unit's own CU_CTRL passes through */
	CHECK_EQ(rd(c, KH_CTRL_IDX_CAPS) >> 48, KH_CU_SX);
	/* no adapter: the base answers every index past 3 with 0 */
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 2, KH_CTRL_IDX_L2_CAPS), 0);
	CHECK_EQ(mm_ctrl_wr(c, 0, 1, 2, KH_CTRL_IDX_L2_BASE, 5), 0);
	/* a mesh reset: registers back to their reset values */
	wr(c, KH_CTRL_IDX_L2_CTRL, 1);
	ksim_mesh_reset(c, 0);
	ksim_run(c, 100);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CTRL), 0);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_BASE), BASE);
	/* a described depth and window */
	ksim_card_destroy(c);
	c = mh_card("param l2_depth 1024\nl2 all\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	REQUIRE(c);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CAPS), KH_L2_CAPS(15, 1024));
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 2, KH_CTRL_IDX_L2_CAPS), KH_L2_CAPS(15, 1024));
	ksim_card_destroy(c);
}

TEST_F(model, the_unit_never_sees_the_addon_window)
{
	struct ksim_card *c = mh_card(card);
	struct ksim_stats st;
	struct ksim_link *to_unit;
	u64 n0;
	unsigned int i;

	REQUIRE(c);
	to_unit = ksim_l2_link(c, 0, 1, 0, true);
	REQUIRE(to_unit);
	n0 = to_unit->flits;
	for (i = 0xe0; i <= 0xe7; i++) {
		CHECK_EQ(rd(c, i) == ~0ULL, false);
		CHECK(wr(c, i, 0) != ~0ULL);
	}
	CHECK_EQ(to_unit->flits, n0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.l2_ctrl, 16);
	/* 0xdf and 0xe8 are not the window: they reach the base */
	CHECK_EQ(rd(c, 0xdf), 0);
	CHECK_EQ(rd(c, 0xe8), 0);
	CHECK_EQ(to_unit->flits, n0 + 2);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.l2_ctrl, 16);
	ksim_card_destroy(c);
}

TEST_F(model, one_pending_reply)
{
	struct ksim_card *c = mh_card(card);
	struct ksim_stats st;
	struct kh_flit f;
	unsigned int n = 0;

	REQUIRE(c);
	/*
	 * an addon read sent twice by the mailbox, one cycle apart: the
	 * second lands while the first's reply is pending and is lost (the
	 * dispatcher's flits come five edges apart, too late for that)
	 */
	mh_fast_host(c);
	mh_ctrl_req(&f, 1, 0, KH_CTRL_IDX_L2_CAPS, 1);
	mh_mb_load(c, &f);
	mh_mb_kick(c);
	mh_mb_kick(c);
	/* an addon read and a base read: both answered */
	mh_ctrl_req(&f, 0, 0, KH_CTRL_IDX_L2_STAT, 3);
	mh_stage(c, 2, &f);
	mh_ctrl_req(&f, 0, 0, KH_CTRL_IDX_CAPS, 4);
	mh_stage(c, 3, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 8);
	ksim_run(c, 500);
	while (mh_mb_recv(c, &f, 1)) {
		CHECK_EQ(kh_flit_get(&f, KH_HDR_TXN), 1);
		n++;
	}
	CHECK_EQ(n, 1);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.ctrl_dropped, 1);
	mh_prog(c, 1, 0, 2, 2);
	ksim_run(c, 500);
	CHECK_EQ(mh_mb_count(c), 2);
	ksim_card_destroy(c);
}

/* ---- memory traffic, driven by the SX unit behind the adapter ---- */

static void saxpy(struct ksim_card *c, u32 n, float a, u64 x, u64 y)
{
	struct kh_flit f;
	u32 ab;
	unsigned int count = KH_NS_COUNT(mh_ns(c, 1, 0));

	memcpy(&ab, &a, 4);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 1, KH_T_CU_INST, 1, 0);
	kh_flit_set(&f, KH_FIELD(255, 248), 1);
	kh_flit_set(&f, KH_FIELD(247, 224), n);
	kh_flit_set(&f, KH_FIELD(223, 192), ab);
	kh_flit_set(&f, KH_FIELD(191, 128), x);
	kh_flit_set(&f, KH_FIELD(127, 64), y);
	mh_mb_send(c, &f);
	CHECK(mh_wait_count(c, 1, 0, count + 1, 200));
	CHECK_EQ(KH_NS_CODE(mh_ns(c, 1, 0)), KH_SIG_INST_COMPLETE);
	ksim_run(c, 500);	/* the last write lands */
}

static void put(struct ksim_card *c, u64 addr, const float *v, unsigned int n)
{
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, addr), v, n * 4), 0);
}

static void get(struct ksim_card *c, u64 addr, float *v, unsigned int n)
{
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, addr), v, n * 4), 0);
}

TEST_F(model, served_from_sram_or_forwarded)
{
	struct ksim_card *c = mh_card(card);
	float x[8], y[8], v[8], w[8];
	unsigned int i;
	u64 s;

	REQUIRE(c);
	for (i = 0; i < 8; i++) {
		x[i] = (float)(i + 1);
		y[i] = 100.0f * (float)i;
	}
	put(c, BASE + 0x000, x, 8);
	put(c, BASE + 0x400, y, 8);
	put(c, 0x1000, x, 8);
	/* disabled: in-window traffic goes to DRAM and is counted */
	saxpy(c, 8, 2.0f, BASE, BASE + 0x400);
	get(c, BASE + 0x400, v, 8);
	for (i = 0; i < 8; i++)
		CHECK(v[i] == 2.0f * x[i] + y[i]);
	s = rd(c, KH_CTRL_IDX_L2_STAT);
	CHECK_EQ(KH_L2_STAT_SERVED(s), 0);
	CHECK_EQ(KH_L2_STAT_FORWARDED(s), 3);	/* read x, read y, write y */
	/* outside the window: not counted at all */
	saxpy(c, 8, 1.0f, 0x1000, 0x2000);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_STAT), s);

	/* bring-up, kohakutpu.md 3.3: BASE, then CTRL = 1 */
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_BASE, BASE), BASE);
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_CTRL, 1), 0);
	/* y in the window is now the SRAM's (zeros): y = 3 x + 0 there */
	saxpy(c, 8, 3.0f, 0x1000, BASE + 0x400);
	s = rd(c, KH_CTRL_IDX_L2_STAT);
	CHECK_EQ(KH_L2_STAT_SERVED(s), 2);	/* read y, write y */
	CHECK_EQ(KH_L2_STAT_FORWARDED(s), 3);
	/* DRAM under the window is untouched */
	get(c, BASE + 0x400, v, 8);
	for (i = 0; i < 8; i++)
		CHECK(v[i] == 2.0f * x[i] + y[i]);
	/* and reading the window reads the SRAM: 0x3000 += 1 * sram */
	saxpy(c, 8, 1.0f, BASE + 0x400, 0x3000);
	get(c, 0x3000, w, 8);
	for (i = 0; i < 8; i++)
		CHECK(w[i] == 3.0f * x[i]);
	CHECK_EQ(KH_L2_STAT_SERVED(rd(c, KH_CTRL_IDX_L2_STAT)), 3);

	/* the SRAM has no reset clause; the registers do */
	ksim_mesh_reset(c, 0);
	ksim_run(c, 100);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_STAT), 0);
	wr(c, KH_CTRL_IDX_L2_CTRL, 1);
	memset(w, 0, sizeof(w));
	put(c, 0x3000, w, 8);
	saxpy(c, 8, 1.0f, BASE + 0x400, 0x3000);
	get(c, 0x3000, w, 8);
	for (i = 0; i < 8; i++)
		CHECK(w[i] == 3.0f * x[i]);
	ksim_card_destroy(c);
}

TEST_F(model, unaligned_base_and_wrong_bits)
{
	struct ksim_card *c = mh_card("l2 1 0 0x40010\n"
					"xxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	REQUIRE(c);
	put(c, BASE, x, 8);
	/* the aligned block holding BASE is the window; BASE reads as set */
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_BASE), 0x40010);
	saxpy(c, 8, 1.0f, BASE, BASE + 0x3fc00);
	CHECK_EQ(KH_L2_STAT_FORWARDED(rd(c, KH_CTRL_IDX_L2_STAT)), 3);
	ksim_card_destroy(c);
	/* L2_BITS 10 on 8192 lines: a 1 KiB window, reported as given */
	c = mh_card("param l2_bits 10\nl2 1 0 0x40000\n"
		    "xxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	REQUIRE(c);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_CAPS), KH_L2_CAPS(10, 8192));
	saxpy(c, 8, 1.0f, BASE, BASE + 0x400);
	CHECK_EQ(KH_L2_STAT_FORWARDED(rd(c, KH_CTRL_IDX_L2_STAT)), 1);
	ksim_card_destroy(c);
}

TEST_F(model, ship_2x2_runs_with_adapters_enabled)
{
	struct ksim_card *c = mh_card("ship_2x2");
	float x[16], y[16], v[16];
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 16; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	put(c, 0x10000, x, 16);
	put(c, 0x20000, y, 16);
	CHECK_EQ(wr(c, KH_CTRL_IDX_L2_CTRL, 1), 0);
	/* outside the window every request is forwarded, uncounted */
	saxpy(c, 16, 2.0f, 0x10000, 0x20000);	/* whole values: exact */
	get(c, 0x20000, v, 16);
	for (i = 0; i < 16; i++)
		CHECK(v[i] == 2.0f * x[i] + 1.0f);
	CHECK_EQ(rd(c, KH_CTRL_IDX_L2_STAT), 0);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
