// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MAG through the mailbox (a request from src (0,0) is answered to the
 * corner, which routes back to the agent): plain reads, writes and their
 * acks, AUX_STAT counters, reassembly by source, the RX overflow drop,
 * data with no slot, slot exhaustion hanging the write path, and address
 * aliasing.
 */
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

static void mem_req(struct kh_flit *f, unsigned int type, unsigned int sx,
		    unsigned int sy, u64 addr, unsigned int len,
		    unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 1, sx, sy, type, txn, type == KH_T_MEM_RD_REQ);
	kh_flit_set(f, KH_MEM_ADDR, addr);
	kh_flit_set(f, KH_MEM_LEN, len);
}

static void mem_data(struct kh_flit *f, unsigned int sx, unsigned int sy,
		     u64 pat, unsigned int last)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 1, sx, sy, KH_T_MEM_WR_DATA, 0, last);
	for (i = 0; i < 4; i++)
		f->w[i] = pat + i;
}

TEST_F(model, plain_read)
{
	struct ksim_card *c = mh_card("saxpy");
	u64 words[16], aux;
	struct kh_flit f, r;
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 16; i++)
		words[i] = 0x0101010101010101ULL * i + 0xabc;
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x4000), words, 128), 0);
	aux = mh_rd(c, KH_ORC_AUX_STAT);
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x4000, 3, 0x21);
	mh_mb_send(c, &f);
	for (i = 0; i < 4; i++) {
		REQUIRE(mh_mb_recv(c, &r, 20));
		CHECK_EQ(kh_flit_get(&r, KH_HDR_TYPE), KH_T_MEM_RD_RESP);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x21);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_LAST), i == 3);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_RSVD), 0);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_X), 0);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_Y), 1);
		CHECK(!memcmp(r.w, &words[i * 4], 32));
	}
	CHECK_EQ(mh_mb_count(c), 0);
	CHECK_EQ(KH_AUX_RD_COUNT(mh_rd(c, KH_ORC_AUX_STAT)),
		 KH_AUX_RD_COUNT(aux) + 1);
	CHECK_EQ(KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)), 0);
	ksim_card_destroy(c);
}

/* The DRAM latency is modelled, and a long run skipping idle time stops
 * at the timer that ends it. */
static u64 read_answered_after(struct ksim_card *c)
{
	struct kh_flit f;
	u64 t0, dt = 0;

	mh_fast_host(c);
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x0, 0, 1);
	mh_mb_send(c, &f);
	t0 = ksim_cycles(c);
	while (mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY) {
		dt = ksim_cycles(c) - t0;
		if (dt > 1000)
			break;
	}
	return dt;
}

TEST_F(model, read_latency_and_timers)
{
	struct ksim_card *c = mh_card("saxpy");
	struct kh_flit f;
	u64 dt1, dt30;

	REQUIRE(c);
	/* the saxpy card's memory answers the cycle after AR (axi_ram) */
	dt1 = read_answered_after(c);
	ksim_card_destroy(c);
	c = mh_card("profile rtl\nparam mem_rd_latency 30\n"
		    "xxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	REQUIRE(c);
	dt30 = read_answered_after(c);
	CHECK_MSG(dt1 < 30 && dt30 == dt1 + 29,
		  "read answered after %llu cycles at latency 1, %llu at 30",
		  (unsigned long long)dt1, (unsigned long long)dt30);
	CHECK_EQ(mh_mb_count(c), 1);
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x0, 0, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 1000000);
	CHECK_EQ(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY, 0);
	ksim_card_destroy(c);
}

TEST_F(model, write_ack_and_counters)
{
	struct ksim_card *c = mh_card("saxpy");
	struct kh_flit f, r;
	u64 in[8];

	REQUIRE(c);
	mem_req(&f, KH_T_MEM_WR_REQ, 0, 0, 0x6000, 1, 0x77);
	mh_mb_send(c, &f);
	mem_data(&f, 0, 0, 0x100, 0);
	mh_mb_send(c, &f);
	mem_data(&f, 0, 0, 0x200, 1);
	mh_mb_send(c, &f);
	REQUIRE(mh_mb_recv(c, &r, 20));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TYPE), KH_T_MEM_WR_ACK);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x77);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_LAST), 1);
	CHECK_EQ(r.w[0] | r.w[1] | r.w[2] | r.w[3], 0);	/* no status */
	CHECK_EQ(KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)), 1);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x6000), in, 64), 0);
	CHECK_EQ(in[0], 0x100);
	CHECK_EQ(in[3], 0x103);
	CHECK_EQ(in[4], 0x200);
	CHECK_EQ(in[7], 0x203);
	ksim_card_destroy(c);
}

TEST_F(model, reassembly_by_source)
{
	struct ksim_card *c = mh_card("saxpy");
	struct ksim_stats st;
	struct kh_flit f;
	u64 in[4];

	REQUIRE(c);
	/* two sources interleave; acks to (5,9) are routed to a tie-off */
	mem_req(&f, KH_T_MEM_WR_REQ, 0, 0, 0x7000, 0, 1);
	mh_mb_send(c, &f);
	mem_req(&f, KH_T_MEM_WR_REQ, 5, 9, 0x7100, 0, 2);
	mh_mb_send(c, &f);
	mem_data(&f, 5, 9, 0x59, 1);
	mh_mb_send(c, &f);
	mem_data(&f, 0, 0, 0x00, 1);
	mh_mb_send(c, &f);
	/* data with no open slot is dropped */
	mem_data(&f, 7, 7, 0x77, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x7000), in, 32), 0);
	CHECK_EQ(in[1], 0x01);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x7100), in, 32), 0);
	CHECK_EQ(in[1], 0x5a);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_data_dropped, 1);
	CHECK_EQ(st.mag_writes, 2);
	CHECK_EQ(mh_mb_count(c), 1);	/* the ack to (0,0) only */
	ksim_card_destroy(c);
}

/*
 * A lost data beat leaves its slot short forever; the source's next
 * descriptor opens a second slot, and the next data binds to the older
 * one (seed 001 §2): the first write lands with the wrong beat, the
 * second never does.
 */
TEST_F(model, short_write_binds_to_the_older_slot)
{
	struct ksim_card *c = mh_card("saxpy");
	struct ksim_stats st;
	struct kh_flit f, r;
	u64 in[8];

	REQUIRE(c);
	mem_req(&f, KH_T_MEM_WR_REQ, 0, 0, 0x8000, 1, 0xa1);	/* 2 beats */
	mh_mb_send(c, &f);
	mem_data(&f, 0, 0, 0x10, 0);				/* only 1 */
	mh_mb_send(c, &f);
	mem_req(&f, KH_T_MEM_WR_REQ, 0, 0, 0x9000, 0, 0xb2);
	mh_mb_send(c, &f);
	mem_data(&f, 0, 0, 0x20, 1);
	mh_mb_send(c, &f);
	REQUIRE(mh_mb_recv(c, &r, 20));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0xa1);	/* the first write */
	CHECK_EQ(mh_mb_count(c), 0);
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x8000), in, 64), 0);
	CHECK_EQ(in[0], 0x10);
	CHECK_EQ(in[4], 0x20);		/* the second write's data */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x9000), in, 32), 0);
	CHECK_EQ(in[0], 0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_writes, 1);
	ksim_card_destroy(c);
}

TEST_F(model, rx_overflow_drops)
{
	struct ksim_card *c = mh_card("saxpy");
	struct ksim_stats st;
	struct kh_flit f;

	REQUIRE(c);
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x0, 31, 3);	/* 32 beats */
	mh_mb_send(c, &f);
	ksim_run(c, 1000);
	CHECK(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_OVERFLOW);
	CHECK_EQ(mh_mb_count(c), 16);
	/* sticky: still set once drained */
	CHECK_EQ(mh_rd(c, KH_ORC_RX_STATUS),
		 KH_RX_STATUS_EMPTY | KH_RX_STATUS_OVERFLOW);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.agent_rx_dropped, 16);
	ksim_mesh_reset(c, 0);
	CHECK_EQ(mh_rd(c, KH_ORC_RX_STATUS), KH_RX_STATUS_EMPTY);
	ksim_card_destroy(c);
}

TEST_F(model, slot_exhaustion_hangs_writes)
{
	static const char map[] =
		"param wr_slots 2\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct ksim_card *c = mh_card(map);
	struct ksim_stats st;
	struct kh_flit f, r;

	REQUIRE(c);
	/* two descriptors whose data never comes hold both slots */
	mem_req(&f, KH_T_MEM_WR_REQ, 5, 9, 0x100, 0, 1);
	mh_mb_send(c, &f);
	mem_req(&f, KH_T_MEM_WR_REQ, 6, 9, 0x200, 0, 1);
	mh_mb_send(c, &f);
	mem_req(&f, KH_T_MEM_WR_REQ, 0, 0, 0x300, 0, 1);
	mh_mb_send(c, &f);
	mem_data(&f, 0, 0, 0x33, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 100000);
	CHECK_EQ(mh_mb_count(c), 0);	/* no ack: the write path hangs */
	ksim_get_stats(c, 0, &st);
	CHECK(st.mag_slot_stalls > 90000);
	CHECK_EQ(st.mag_writes, 0);
	/* even the data that would free a slot is stuck behind it */
	mem_data(&f, 5, 9, 0x59, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 1000);
	CHECK_EQ(mh_mb_count(c), 0);
	/* reads have their own queue and still work */
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x0, 0, 4);
	mh_mb_send(c, &f);
	CHECK(mh_mb_recv(c, &r, 20));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TYPE), KH_T_MEM_RD_RESP);
	ksim_card_destroy(c);
}

TEST_F(model, address_aliasing)
{
	static const char map[] =
		"param dram_mib 1\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct ksim_card *c = mh_card(map);
	struct ksim_stats st;
	struct kh_flit f, r;
	u64 w[4] = { 1, 2, 3, 4 };

	REQUIRE(c);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x40), w, 32), 0);
	/* [37:36] = 2 names another mesh: aliases to local memory */
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, KH_MADDR(2, 0x40), 0, 1);
	mh_mb_send(c, &f);
	REQUIRE(mh_mb_recv(c, &r, 20));
	CHECK_EQ(r.w[0], 1);
	CHECK_EQ(r.w[3], 4);
	/* an unaligned address is served from its 32-byte word */
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 0x4c, 0, 1);
	mh_mb_send(c, &f);
	REQUIRE(mh_mb_recv(c, &r, 20));
	CHECK_EQ(r.w[0], 1);
	/* past the 1 MiB DRAM: reads 0 and writes vanish, counted */
	mem_req(&f, KH_T_MEM_RD_REQ, 0, 0, 1ULL << 20, 0, 1);
	mh_mb_send(c, &f);
	REQUIRE(mh_mb_recv(c, &r, 20));
	CHECK_EQ(r.w[0] | r.w[1] | r.w[2] | r.w[3], 0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_remote_alias, 1);
	CHECK_EQ(st.mag_out_of_range, 1);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
