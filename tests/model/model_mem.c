// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MAG's unit path, driven by memory-client units (mclient.h): entry and
 * stream reads (tags, word indices, last, sizes), the 8-bit txn wrap,
 * multicast order and identical payloads, QUANT reads in both layouts,
 * the entry engine running concurrently with writes while a plain read
 * blocks them, memory ports on their rows, unit-path aperture faults,
 * and the L2 staging aperture from a unit.
 */
#include "mclient.h"
#include "mxfp7.h"
#include "util.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* 2 x 2 routers, two MAG ports (rows 1 and 2), memory clients around */
static const char mem_map[] =
	"profile ship\n"
	"xxx  mcl  mcl  xxx\n"
	"mag  mcl  mcl  mcl\n"
	"mag  mcl  mcl  mcl\n"
	"xxx  mcl  mcl  xxx\n";

static const char mem_map_rtl[] =
	"profile rtl\n"
	"xxx  mcl  mcl  xxx\n"
	"mag  mcl  mcl  mcl\n"
	"mag  mcl  mcl  mcl\n"
	"xxx  mcl  mcl  xxx\n";

/* 64 words at addr: word k's u64 j = tag + k * 4 + j */
static void fill_words(struct ksim_card *c, u64 addr, u64 tag,
		       unsigned int n)
{
	u64 w[4];
	unsigned int k, j;

	for (k = 0; k < n; k++) {
		for (j = 0; j < 4; j++)
			w[j] = tag + k * 4 + j;
		CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, addr + k * 32),
					  w, 32), 0);
	}
}

static bool is_word(const struct kh_flit *f, u64 tag, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < 4; j++)
		if (f->w[j] != tag + k * 4 + j)
			return false;
	return true;
}

static void check_resp(const struct mc_rec *r, unsigned int txn,
		       unsigned int w, bool last, unsigned int py)
{
	CHECK_EQ(kh_flit_get(&r->f, KH_HDR_TYPE), KH_T_MEM_RD_RESP);
	CHECK_EQ(kh_flit_get(&r->f, KH_HDR_TXN), txn & 0xff);
	CHECK_EQ(kh_flit_get(&r->f, KH_HDR_RSVD), w);
	CHECK_EQ(kh_flit_get(&r->f, KH_HDR_LAST), last);
	CHECK_EQ(kh_flit_get(&r->f, KH_HDR_SRC_X), 0);
	CHECK_EQ(kh_flit_get(&r->f, KH_HDR_SRC_Y), py);
}

TEST_F(model, stream_read_tags_and_word_indices)
{
	struct ksim_card *c = mc_card(mem_map);
	struct mc_client *a;
	struct kh_flit f;
	unsigned int i, w, n;

	REQUIRE(c);
	a = mc_at(c, 0, 1, 1);
	REQUIRE(a);
	fill_words(c, 0x10000, 0x1000, 16);
	/* 3 entries of 2 words: txn + i, rsvd = word, last on word 1 */
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x10000, 0, 0x40);
	mc_entry(&f, KH_MEMF_STREAM, 3, 2);
	mc_send(c, 0, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 6, 5000));
	for (i = 0, n = 0; i < 3; i++)
		for (w = 0; w < 2; w++, n++) {
			check_resp(&a->rec[n], 0x40 + i, w, w == 1, 1);
			CHECK_MSG(is_word(&a->rec[n].f, 0x1000, i * 2 + w),
				  "entry %u word %u payload", i, w);
		}
	/* entry_words 0 and 7 mean 4; count 0 means 1 */
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x10000 + 4 * 32, 0, 0x50);
	mc_entry(&f, KH_MEMF_STREAM, 0, 0);
	mc_send(c, 0, 1, 1, &f);
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x10000, 0, 0x60);
	mc_entry(&f, KH_MEMF_STREAM, 2, 7);
	mc_send(c, 0, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 6 + 4 + 8, 5000));
	ksim_run(c, 500);
	CHECK_EQ(a->n, 18);
	for (w = 0; w < 4; w++) {
		check_resp(&a->rec[6 + w], 0x50, w, w == 3, 1);
		CHECK(is_word(&a->rec[6 + w].f, 0x1000, 4 + w));
	}
	for (i = 0; i < 2; i++)
		for (w = 0; w < 4; w++) {
			check_resp(&a->rec[10 + i * 4 + w], 0x60 + i, w, w == 3, 1);
			CHECK(is_word(&a->rec[10 + i * 4 + w].f, 0x1000, i * 4 + w));
		}
	ksim_card_destroy(c);
}

TEST_F(model, stream_txn_wraps_at_8_bits)
{
	struct ksim_card *c = mc_card(mem_map);
	struct mc_client *a;
	struct kh_flit f;
	unsigned int i;

	REQUIRE(c);
	a = mc_at(c, 0, 1, 1);
	REQUIRE(a);
	fill_words(c, 0x0, 0x77, 8);
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x0, 0, 0xfe);
	mc_entry(&f, KH_MEMF_STREAM, 4, 1);
	mc_send(c, 0, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 4, 5000));
	for (i = 0; i < 4; i++) {
		check_resp(&a->rec[i], 0xfe + i, 0, 1, 1);
		CHECK(is_word(&a->rec[i].f, 0x77, i));
	}
	CHECK_EQ(kh_flit_get(&a->rec[2].f, KH_HDR_TXN), 0x00);
	ksim_card_destroy(c);
}

/* ---- multicast ---- */

struct order_log {
	unsigned int n;
	u8 dyx[64], txn[64], w[64];
};

static void order_xfer(void *ctx, const struct ksim_link *l, u64 now)
{
	struct order_log *o = ctx;

	if (kh_flit_get(&l->reg, KH_HDR_TYPE) != KH_T_MEM_RD_RESP || o->n >= 64)
		return;
	o->dyx[o->n] = KH_YX(kh_flit_get(&l->reg, KH_HDR_DST_X),
			     kh_flit_get(&l->reg, KH_HDR_DST_Y));
	o->txn[o->n] = kh_flit_get(&l->reg, KH_HDR_TXN);
	o->w[o->n] = kh_flit_get(&l->reg, KH_HDR_RSVD);
	o->n++;
}

TEST_F(model, multicast_order_and_identical_payloads)
{
	static const struct ksim_link_hook hook = { NULL, order_xfer };
	static const u8 dst[4][2] = { { 1, 1 }, { 2, 1 }, { 3, 2 }, { 1, 3 } };
	struct ksim_card *c = mc_card(mem_map);
	struct order_log o = { 0 };
	struct mc_client *cl[4];
	struct ksim_link *pl;
	struct kh_flit f;
	unsigned int d, i, w, n;
	u16 rd0;

	REQUIRE(c);
	for (d = 0; d < 4; d++) {
		cl[d] = mc_at(c, 0, dst[d][0], dst[d][1]);
		REQUIRE(cl[d]);
	}
	pl = ksim_endpoint_link(c, 0, 0, 1);
	REQUIRE(pl);
	pl->hook = &hook;
	pl->hook_ctx = &o;
	fill_words(c, 0x3000, 0xabc00, 8);
	rd0 = KH_AUX_RD_COUNT(mc_aux(c, 0));
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x3000, 0, 0x10);
	mc_entry(&f, KH_MEMF_STREAM, 2, 4);
	for (d = 1; d < 4; d++)
		mc_peer(&f, d - 1, dst[d][0], dst[d][1]);
	mc_send(c, 0, 1, 1, &f);
	for (d = 0; d < 4; d++)
		REQUIRE(mc_wait(c, cl[d], 8, 5000));
	/* entry by entry: the requester, then peers 1, 2, 3 */
	CHECK_EQ(o.n, 32);
	for (i = 0, n = 0; i < 2; i++)
		for (d = 0; d < 4; d++)
			for (w = 0; w < 4; w++, n++) {
				CHECK_EQ(o.dyx[n], KH_YX(dst[d][0], dst[d][1]));
				CHECK_EQ(o.txn[n], 0x10 + i);
				CHECK_EQ(o.w[n], w);
			}
	/* everybody got the same words, tags and indices */
	for (d = 0; d < 4; d++) {
		CHECK_EQ(cl[d]->n, 8);
		for (n = 0; n < 8; n++) {
			check_resp(&cl[d]->rec[n], 0x10 + n / 4, n % 4, n % 4 == 3, 1);
			CHECK(is_word(&cl[d]->rec[n].f, 0xabc00, n));
		}
	}
	/* read once per entry, not once per destination */
	CHECK_EQ((u16)(KH_AUX_RD_COUNT(mc_aux(c, 0)) - rd0), 2);
	pl->hook = NULL;
	ksim_card_destroy(c);
}

/* ---- QUANT ---- */

static u64 rng = 0x5bd1e9955bd1e995ULL;

static u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static void rnd_fp16(u8 *buf, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		/* finite values over a few binades per block of 32 */
		u16 h = (u16)(((rnd() & 1) << 15) |
			      ((10 + (i / 32) % 8 + rnd() % 3) << 10) |
			      (rnd() & 0x3ff));

		buf[2 * i] = (u8)h;
		buf[2 * i + 1] = (u8)(h >> 8);
	}
}

static void quant_case(unsigned int flags, bool blayout)
{
	struct ksim_card *c = mc_card(mem_map);
	u8 src[3 * 256], want[3][128];
	struct mc_client *a;
	struct kh_flit f;
	unsigned int i, w;

	REQUIRE(c);
	a = mc_at(c, 0, 1, 2);
	REQUIRE(a);
	rnd_fp16(src, sizeof(src) / 2);
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, 0x8000), src, sizeof(src)), 0);
	for (i = 0; i < 3; i++)
		ksim_mxfp7_entry(src + 256 * i, blayout, want[i]);
	/* 3 entries of 8 FP16 beats at addr + i * 256, 4 words out each */
	mc_req(&f, KH_T_MEM_RD_REQ, 2, 1, 2, 0x8000, 0, 0x20);
	mc_entry(&f, flags, 3, 1);	/* entry_words is ignored with QUANT */
	mc_send(c, 0, 1, 2, &f);
	REQUIRE(mc_wait(c, a, 12, 5000));
	for (i = 0; i < 3; i++)
		for (w = 0; w < 4; w++) {
			const struct mc_rec *r = &a->rec[i * 4 + w];
			u8 got[32];

			check_resp(r, 0x20 + i, w, w == 3, 2);
			ksim_payload_to_bytes(got, r->f.w);
			CHECK_MSG(!memcmp(got, want[i] + 32 * w, 32),
				  "%c entry %u word %u", blayout ? 'B' : 'A', i, w);
		}
	/* QUANT without STREAM: one entry whatever count says */
	mc_req(&f, KH_T_MEM_RD_REQ, 2, 1, 2, 0x8000 + 256, 0, 0x30);
	mc_entry(&f, flags & ~KH_MEMF_STREAM, 3, 0);
	mc_send(c, 0, 1, 2, &f);
	REQUIRE(mc_wait(c, a, 16, 5000));
	ksim_run(c, 500);
	CHECK_EQ(a->n, 16);
	for (w = 0; w < 4; w++) {
		u8 got[32];

		check_resp(&a->rec[12 + w], 0x30, w, w == 3, 2);
		ksim_payload_to_bytes(got, a->rec[12 + w].f.w);
		CHECK(!memcmp(got, want[1] + 32 * w, 32));
	}
	ksim_card_destroy(c);
}

TEST_F(model, quant_read_a_layout)
{
	quant_case(KH_MEMF_QUANT | KH_MEMF_STREAM, false);
}

TEST_F(model, quant_read_b_layout)
{
	quant_case(KH_MEMF_QUANT | KH_MEMF_BLAYOUT | KH_MEMF_STREAM, true);
}

/* ---- read/write concurrency ---- */

/* Cycle of the ack at the writer, and of the reader's last word. */
static void race(bool entry, u64 *ack_at, u64 *last_at)
{
	struct ksim_card *c = mc_card(mem_map);
	struct mc_client *rd, *wr;
	struct kh_flit f;
	unsigned int i;

	*ack_at = *last_at = 0;
	REQUIRE(c);
	rd = mc_at(c, 0, 1, 1);
	wr = mc_at(c, 0, 2, 1);
	REQUIRE(rd && wr);
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x0, entry ? 0 : 159, 1);
	if (entry)
		mc_entry(&f, KH_MEMF_STREAM, 40, 4);	/* 160 words */
	mc_send(c, 0, 1, 1, &f);
	ksim_run(c, 40);	/* the read is on the bus */
	mc_req(&f, KH_T_MEM_WR_REQ, 1, 2, 1, 0x100000, 0, 9);
	mc_send(c, 0, 2, 1, &f);
	mc_data(&f, 1, 2, 1, 0x99, 1);
	mc_send(c, 0, 2, 1, &f);
	REQUIRE(mc_wait(c, rd, 160, 20000));
	REQUIRE(mc_wait(c, wr, 1, 20000));
	CHECK_EQ(kh_flit_get(&wr->rec[0].f, KH_HDR_TYPE), KH_T_MEM_WR_ACK);
	*ack_at = wr->rec[0].at;
	*last_at = rd->rec[159].at;
	for (i = 0; i < 160; i++)
		CHECK_EQ(kh_flit_get(&rd->rec[i].f, KH_HDR_TYPE), KH_T_MEM_RD_RESP);
	ksim_card_destroy(c);
}

TEST_F(model, entry_reads_run_concurrently_with_writes)
{
	u64 ack, last;

	race(true, &ack, &last);
	CHECK_MSG(ack < last, "stream read: ack at %llu, last word at %llu",
		  (unsigned long long)ack, (unsigned long long)last);
	check_diag("stream read of 160 words: write acked at %llu, last word %llu",
		 (unsigned long long)ack, (unsigned long long)last);
}

TEST_F(model, plain_read_blocks_write_issue)
{
	u64 ack, last;

	race(false, &ack, &last);
	CHECK_MSG(ack > last, "plain read: ack at %llu, last beat at %llu",
		  (unsigned long long)ack, (unsigned long long)last);
	check_diag("plain read of 160 beats: write acked at %llu, last beat %llu",
		 (unsigned long long)ack, (unsigned long long)last);
}

/* ---- ports on rows ---- */

TEST_F(model, ports_answer_on_their_rows)
{
	struct ksim_card *c = mc_card(mem_map);
	struct ksim_link *p1, *p2;
	struct mc_client *a;
	struct kh_flit f;
	u64 n1, n2;

	REQUIRE(c);
	a = mc_at(c, 0, 1, 2);
	p1 = ksim_endpoint_link(c, 0, 0, 1);
	p2 = ksim_endpoint_link(c, 0, 0, 2);
	REQUIRE(a && p1 && p2);
	/* a read to the row-2 port is answered from (0,2) */
	mc_req(&f, KH_T_MEM_RD_REQ, 2, 1, 2, 0x0, 0, 5);
	mc_send(c, 0, 1, 2, &f);
	REQUIRE(mc_wait(c, a, 1, 2000));
	check_resp(&a->rec[0], 5, 0, 1, 2);
	/* agent traffic for row 2 leaves by the row-2 port */
	n1 = p1->flits;
	n2 = p2->flits;
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 2, 0, 0, KH_T_CU_DATA, 0, 1);
	mh_mb_send(c, &f);
	REQUIRE(mc_wait(c, a, 2, 2000));
	CHECK_EQ(p2->flits, n2 + 1);
	CHECK_EQ(p1->flits, n1);
	CHECK_EQ(kh_flit_get(&a->rec[1].f, KH_HDR_TYPE), KH_T_CU_DATA);
	/* a row without a port: port 0 */
	kh_flit_hdr(&f, 1, 3, 0, 0, KH_T_CU_DATA, 0, 1);
	mh_mb_send(c, &f);
	REQUIRE(mc_wait(c, mc_at(c, 0, 1, 3), 1, 2000));
	CHECK_EQ(p1->flits, n1 + 1);
	ksim_card_destroy(c);
}

/* ---- apertures on the unit path ---- */

TEST_F(model, unserved_apertures_fault_on_the_unit_path)
{
	static const unsigned int aps[] = { 1, 2, 3, 4, 5, 6, 15 };
	struct ksim_card *c = mc_card(mem_map);
	struct ksim_stats st;
	struct mc_client *a;
	struct kh_flit f;
	unsigned int i;

	REQUIRE(c);
	a = mc_at(c, 0, 1, 1);
	REQUIRE(a);
	for (i = 0; i < KSIM_ARRAY_SIZE(aps); i++) {
		/* plain and entry reads: no response at all */
		mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, KH_MADDR_AP(0, aps[i], 0x40),
		       0, i);
		mc_send(c, 0, 1, 1, &f);
		mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, KH_MADDR_AP(0, aps[i], 0x40),
		       0, 0x80 + i);
		mc_entry(&f, KH_MEMF_STREAM, 2, 1);
		mc_send(c, 0, 1, 1, &f);
	}
	/* a write there: no ack, and nothing lands anywhere */
	mc_req(&f, KH_T_MEM_WR_REQ, 1, 1, 1, KH_MADDR_AP(0, 2, 0x40), 0, 0x33);
	mc_send(c, 0, 1, 1, &f);
	mc_data(&f, 1, 1, 1, 0x4444, 1);
	mc_send(c, 0, 1, 1, &f);
	ksim_run(c, 5000);
	CHECK_EQ(a->n, 0);
	ksim_get_stats(c, 0, &st);
	/* per plain read, per entry, per write */
	CHECK_EQ(st.mag_ap_faults, KSIM_ARRAY_SIZE(aps) * 3 + 1);
	/* the port still serves everything else */
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, 0x40, 0, 0x77);
	mc_send(c, 0, 1, 1, &f);
	REQUIRE(mc_wait(c, a, 1, 2000));
	CHECK_EQ(kh_flit_get(&a->rec[0].f, KH_HDR_TXN), 0x77);
	CHECK_EQ(a->rec[0].f.w[0], 0);
	ksim_card_destroy(c);

	/* without L2 staging (profile rtl) aperture 0 faults too */
	c = mc_card(mem_map_rtl);
	REQUIRE(c);
	a = mc_at(c, 0, 1, 1);
	mc_req(&f, KH_T_MEM_RD_REQ, 1, 1, 1, KH_MADDR_AP(0, 0, 0), 0, 1);
	mc_send(c, 0, 1, 1, &f);
	ksim_run(c, 2000);
	CHECK_EQ(a->n, 0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_ap_faults, 1);
	ksim_card_destroy(c);
}

TEST_F(model, l2_staging_from_a_unit)
{
	struct ksim_card *c = mc_card(mem_map);
	struct mc_client *a;
	struct kh_flit f;
	u64 dram[8];
	unsigned int n;

	REQUIRE(c);
	a = mc_at(c, 0, 2, 2);
	REQUIRE(a);
	mc_req(&f, KH_T_MEM_WR_REQ, 2, 2, 2, KH_MADDR_AP(0, 0, 0x100), 1, 4);
	mc_send(c, 0, 2, 2, &f);
	mc_data(&f, 2, 2, 2, 0x5100, 0);
	mc_send(c, 0, 2, 2, &f);
	mc_data(&f, 2, 2, 2, 0x5200, 1);
	mc_send(c, 0, 2, 2, &f);
	REQUIRE(mc_wait(c, a, 1, 2000));
	CHECK_EQ(kh_flit_get(&a->rec[0].f, KH_HDR_TYPE), KH_T_MEM_WR_ACK);
	/* a plain read and an entry read of aperture 0 see it */
	mc_req(&f, KH_T_MEM_RD_REQ, 2, 2, 2, KH_MADDR_AP(0, 0, 0x100), 1, 5);
	mc_send(c, 0, 2, 2, &f);
	mc_req(&f, KH_T_MEM_RD_REQ, 2, 2, 2, KH_MADDR_AP(0, 0, 0x100), 0, 6);
	mc_entry(&f, KH_MEMF_STREAM, 1, 2);
	mc_send(c, 0, 2, 2, &f);
	/* the RAM address wraps at its size (2 MiB) */
	mc_req(&f, KH_T_MEM_RD_REQ, 2, 2, 2,
	       KH_MADDR_AP(0, 0, (2u << 20) + 0x120), 0, 7);
	mc_send(c, 0, 2, 2, &f);
	REQUIRE(mc_wait(c, a, 6, 2000));
	for (n = 1; n < 5; n++)
		CHECK_EQ(a->rec[n].f.w[1], (n % 2 ? 0x5100 : 0x5200) + 1);
	CHECK_EQ(a->rec[5].f.w[3], 0x5203);
	/* DRAM at the same offset is untouched */
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, 0x100), dram, 64), 0);
	CHECK_EQ(dram[0] | dram[4], 0);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
