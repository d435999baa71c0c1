// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Profiles and parameters: `profile ship` is the default and `rtl` the v0
 * values, and every parameter takes effect where a host can see it
 * (kohakutpu.md section 9; docs/spec/card-description.md).
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

static u64 caps_depth(struct ksim_card *c, unsigned int x, unsigned int y)
{
	return (mm_ctrl_rd(c, 0, x, y, KH_CTRL_IDX_CAPS) >> KH_CAPS_DEPTH_SHIFT) &
	       KH_CAPS_DEPTH_MASK;
}

TEST_F(model, default_profile_is_ship)
{
	static const char plain[] = "xxx sax xxx\nmag nul nul\nxxx sax xxx\n";
	struct ksim_card *c;

	c = mh_card(plain);
	REQUIRE(c);
	CHECK_EQ(caps_depth(c, 1, 0), 512);
	CHECK_EQ((mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_STATUS) >> 32) & 0xffff,
		 512);
	CHECK_EQ((mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_CAPS) >> 40) & 0xff, 4);
	ksim_card_destroy(c);
	c = mh_card("profile ship\n# same\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	REQUIRE(c);
	CHECK_EQ(caps_depth(c, 1, 0), 512);
	ksim_card_destroy(c);
	c = mh_card("profile rtl\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	REQUIRE(c);
	CHECK_EQ(caps_depth(c, 1, 0), 32);
	ksim_card_destroy(c);
	/* saxpy is its generated top (512), sx_null_2x2 the RTL defaults */
	c = mh_card("saxpy");
	REQUIRE(c);
	CHECK_EQ(caps_depth(c, 1, 2), 512);
	ksim_card_destroy(c);
	c = mh_card("sx_null_2x2");
	REQUIRE(c);
	CHECK_EQ(caps_depth(c, 2, 1), 32);
	ksim_card_destroy(c);
	c = mh_card("ship_2x2");
	REQUIRE(c);
	CHECK_EQ(caps_depth(c, 3, 1), 512);
	ksim_card_destroy(c);
}

/*
 * How many mailbox flits a mesh holds toward a sink that never drains
 * after its first: the TX FIFO, MAG port 0's output register, router
 * (1,1)'s west input FIFO, its north output register, the unit's receive
 * FIFO, and the one flit the sink took.
 */
static unsigned int capacity(const char *params)
{
	char desc[512];
	struct ksim_card *c;
	struct kh_flit f;
	unsigned int n = 0, i;

	snprintf(desc, sizeof(desc), "%sxxx snk xxx\nmag nul nul\nxxx nul xxx\n",
		 params);
	mh_sink_period = 1000000000;
	c = mh_card(desc);
	if (!c)
		return 0;
	mh_fast_host(c);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 1, KH_T_CU_DATA, 0, 1);
	mh_mb_load(c, &f);
	for (i = 0; i < 5000; i++) {
		ksim_run(c, 20);
		if (mh_rd(c, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL)
			break;
		mh_mb_kick(c);
		n++;
	}
	ksim_run(c, 1000);
	/* nothing more leaves: the count is exact */
	CHECK(mh_rd(c, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL);
	ksim_card_destroy(c);
	mh_sink_period = 7;
	return n;
}

TEST_F(model, fifo_depths_through_backpressure)
{
	/* router_fifo, recv_depth and tx_depth each add their depth */
	CHECK_EQ(capacity("param tx_depth 16\nparam router_fifo 4\nparam recv_depth 4\n"),
		 16 + 1 + 4 + 1 + 4 + 1);
	CHECK_EQ(capacity("param tx_depth 16\nparam router_fifo 8\nparam recv_depth 4\n"),
		 16 + 1 + 8 + 1 + 4 + 1);
	CHECK_EQ(capacity("param tx_depth 16\nparam router_fifo 4\nparam recv_depth 9\n"),
		 16 + 1 + 4 + 1 + 9 + 1);
	CHECK_EQ(capacity("param tx_depth 3\nparam router_fifo 4\nparam recv_depth 4\n"),
		 3 + 1 + 4 + 1 + 4 + 1);
	CHECK_EQ(capacity("profile rtl\n"), 16 + 1 + 32 + 1 + 16 + 1);
	CHECK_EQ(capacity(""), 16 + 1 + 512 + 1 + 512 + 1);
}

static void mem_req(struct kh_flit *f, unsigned int type, unsigned int sx,
		    unsigned int sy, u64 addr, unsigned int len,
		    unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 1, sx, sy, type, txn, 0);
	kh_flit_set(f, KH_MEM_ADDR, addr);
	kh_flit_set(f, KH_MEM_LEN, len);
}

static unsigned int rx_kept(const char *params, bool *overflow)
{
	char desc[256];
	struct ksim_card *c;
	struct kh_flit f;
	unsigned int n;

	snprintf(desc, sizeof(desc), "%sxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		 params);
	c = mh_card(desc);
	if (!c)
		return 0;
	/* 32 beats for the agent (src 0,0), nobody popping */
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0, 31, 3);
	mh_mb_send(c, &f);
	ksim_run(c, 2000);
	*overflow = mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_OVERFLOW;
	n = mh_mb_count(c);
	ksim_card_destroy(c);
	return n;
}

TEST_F(model, rx_depth_through_overflow)
{
	bool ov = false;

	CHECK_EQ(rx_kept("param rx_depth 8\n", &ov), 8);
	CHECK(ov);
	CHECK_EQ(rx_kept("", &ov), 16);
	CHECK(ov);
	CHECK_EQ(rx_kept("param rx_depth 40\n", &ov), 32);
	CHECK(!ov);
}

static u64 null_inst(struct kh_flit *f, u32 tag)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 0, 0, 0, KH_T_CU_INST, 1, 0);
	f->w[0] = tag;
	return tag;
}

TEST_F(model, stage_flits_through_the_slot_wrap)
{
	struct ksim_card *c = mh_card("param stage_flits 16\n"
					"xxx null xxx\nmag nul nul\nxxx nul xxx\n");
	struct kh_flit f;

	REQUIRE(c);
	/* a write past STAGE_FLITS lands on the low slot */
	null_inst(&f, 0xabc);
	mh_stage(c, 16 + 3, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 4);
	mh_prog(c, 1, 0, 3, 1);
	REQUIRE(mh_wait_count(c, 1, 0, 1, 200));
	CHECK_EQ(KH_NS_ARG(mh_ns(c, 1, 0)), 0xabc);
	/* and the dispatcher wraps from slot 15 to slot 0 */
	null_inst(&f, 0x111);
	mh_stage(c, 15, &f);
	null_inst(&f, 0x222);
	mh_stage(c, 0, &f);
	mh_prog(c, 1, 0, 15, 2);
	REQUIRE(mh_wait_count(c, 1, 0, 3, 200));
	CHECK_EQ(KH_NS_ARG(mh_ns(c, 1, 0)), 0x222);
	ksim_card_destroy(c);

	/*
	 * At the default 128 slots, slot 19 is its own: slot 3 still holds
	 * zeros, a type-0 flit the unit drops, so nothing completes.
	 */
	c = mh_card("xxx null xxx\nmag nul nul\nxxx nul xxx\n");
	REQUIRE(c);
	null_inst(&f, 0xabc);
	mh_stage(c, 16 + 3, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 4);
	mh_prog(c, 1, 0, 3, 1);
	ksim_run(c, 5000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 0);
	mh_prog(c, 1, 0, 19, 1);
	REQUIRE(mh_wait_count(c, 1, 0, 1, 200));
	CHECK_EQ(KH_NS_ARG(mh_ns(c, 1, 0)), 0xabc);
	ksim_card_destroy(c);
}

/* Does a write from the agent get its ack with `slots` held open? */
static bool write_acked(unsigned int wr_slots, unsigned int held)
{
	char desc[256];
	struct ksim_card *c;
	struct kh_flit f;
	unsigned int i;
	bool acked;

	snprintf(desc, sizeof(desc),
		 "param wr_slots %u\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		 wr_slots);
	c = mh_card(desc);
	if (!c)
		return false;
	/* descriptors from other sources whose data never comes */
	for (i = 0; i < held; i++) {
		mem_req(&f, KH_T_MEM_WR_REQ, 2 + i % 12, 5 + i / 12,
			0x100 * i, 0, 1);
		mh_mb_send(c, &f);
	}
	mem_req(&f, KH_T_MEM_WR_REQ, 0, 0, 0x8000, 0, 7);
	mh_mb_send(c, &f);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 1, 0, 0, KH_T_MEM_WR_DATA, 0, 1);
	f.w[0] = 0x77;
	mh_mb_send(c, &f);
	ksim_run(c, 20000);
	acked = mh_mb_recv(c, &f, 1) &&
		kh_flit_get(&f, KH_HDR_TYPE) == KH_T_MEM_WR_ACK;
	ksim_card_destroy(c);
	return acked;
}

TEST_F(model, wr_slots_through_the_exhaustion_hang)
{
	CHECK(write_acked(4, 3));
	CHECK(!write_acked(4, 4));
	CHECK(write_acked(8, 7));
	CHECK(!write_acked(8, 8));
	CHECK(write_acked(16, 15));	/* the default */
	CHECK(!write_acked(16, 16));
}

/* MEM_RD_REQs the MAG port took before its queue raised busy. */
static u64 port_intake(const char *params)
{
	char desc[256];
	struct ksim_card *c;
	struct kh_flit f;
	unsigned int i;
	u64 n;

	snprintf(desc, sizeof(desc),
		 "param mem_rd_latency 100000\n%sxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		 params);
	c = mh_card(desc);
	if (!c)
		return 0;
	for (i = 0; i < 40; i++) {
		mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x20 * i, 0, i);
		mh_mb_send(c, &f);
	}
	ksim_run(c, 5000);
	n = ksim_router_link(c, 0, 1, 1, KSIM_PORT_W)->flits;
	ksim_card_destroy(c);
	return n;
}

TEST_F(model, q_depth_and_margin_through_port_busy)
{
	u64 n;

	/* busy at q_depth - q_margin queued, plus the one being served */
	n = port_intake("param q_depth 8\nparam q_margin 2\n");
	CHECK_MSG(n >= 6 && n <= 7, "took %llu", (unsigned long long)n);
	n = port_intake("param q_depth 12\nparam q_margin 2\n");
	CHECK_MSG(n >= 10 && n <= 11, "took %llu", (unsigned long long)n);
	n = port_intake("param q_depth 12\nparam q_margin 0\n");
	CHECK_MSG(n >= 12 && n <= 13, "took %llu", (unsigned long long)n);
	CHECK_EQ(port_intake(""), 40);	/* 64 - 4 = 60 > 40 */
}

static u64 first_reply_at(const char *params, unsigned int type)
{
	char desc[256];
	struct ksim_card *c;
	struct kh_flit f;
	u64 t0, t = 0;

	snprintf(desc, sizeof(desc), "%sxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		 params);
	c = mh_card(desc);
	if (!c)
		return 0;
	mh_fast_host(c);
	mem_req(&f, type, 0, 0, 0x40, 0, 9);
	mh_mb_load(c, &f);
	if (type == KH_T_MEM_WR_REQ) {
		mh_mb_kick(c);
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 0, 1, 0, 0, KH_T_MEM_WR_DATA, 0, 1);
		mh_mb_load(c, &f);
	}
	t0 = ksim_cycles(c);
	mh_mb_kick(c);
	while (ksim_cycles(c) - t0 < 1000000)
		if (!(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY)) {
			t = ksim_cycles(c) - t0;
			break;
		}
	ksim_card_destroy(c);
	return t;
}

TEST_F(model, memory_latencies_take_effect)
{
	u64 a, b;

	a = first_reply_at("", KH_T_MEM_RD_REQ);
	b = first_reply_at("param mem_rd_latency 1030\n", KH_T_MEM_RD_REQ);
	CHECK_EQ(b - a, 1000);
	a = first_reply_at("", KH_T_MEM_WR_REQ);
	b = first_reply_at("param mem_wr_latency 520\n", KH_T_MEM_WR_REQ);
	CHECK_EQ(b - a, 500);
}

TEST_F(model, cu_version_dram_and_mem_ports)
{
	struct ksim_card *c = mh_card("param cu_version 0x33\nparam dram_mib 2\n"
					"param mem_ports 2\n"
					"xxx sax xxx\nmag nul nul\nmag nul nul\nxxx sax xxx\n");
	u8 b[64];

	REQUIRE(c);
	CHECK_EQ((mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_CAPS) >> 40) & 0xff, 0x33);
	CHECK_EQ(ksim_mesh_dram_size(c, 0), 2ULL << 20);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, (2 << 20) - 64), b, 64), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 2 << 20), b, 64), -EINVAL);
	CHECK(ksim_endpoint_link(c, 0, 0, 2) != NULL);	/* port 1 */
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
