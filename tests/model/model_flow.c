// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hold until taken, under backpressure: thirteen sources send numbered
 * flits across the mesh into one slow sink (shallow FIFOs everywhere), and
 * every flit must arrive exactly once, in per-source order.  A checker
 * hook on every link also verifies the handshake itself: a held flit never
 * changes, and the flit taken is the flit that was offered.
 */
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define N_PER_SRC	300

static const char flow_map[] =
	"param recv_depth 2\n"
	"param router_fifo 2\n"
	"param inst_depth 2\n"
	"xxx src src src xxx\n"
	"mag src snk src src\n"
	"mag src src src src\n"
	"xxx src src src xxx\n";

struct held {
	const struct ksim_link *l;
	struct kh_flit f;
	bool valid;
};

struct checker {
	struct held h[64];
	unsigned int n;
	u64 offers, transfers, changed;
};

static struct held *chk_find(struct checker *c, const struct ksim_link *l)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->h[i].l == l)
			return &c->h[i];
	if (c->n == 64)
		return NULL;
	c->h[c->n].l = l;
	return &c->h[c->n++];
}

static void chk_offer(void *ctx, const struct ksim_link *l, u64 now, u64 cycles)
{
	struct checker *c = ctx;
	struct held *h = chk_find(c, l);

	c->offers += cycles;
	if (!h)
		return;
	if (h->valid && memcmp(&h->f, &l->reg, sizeof(h->f)))
		c->changed++;	/* a held flit changed: a withdrawal */
	h->f = l->reg;
	h->valid = true;
}

static void chk_transfer(void *ctx, const struct ksim_link *l, u64 now)
{
	struct checker *c = ctx;
	struct held *h = chk_find(c, l);

	c->transfers++;
	if (!h)
		return;
	if (h->valid && memcmp(&h->f, &l->reg, sizeof(h->f)))
		c->changed++;
	h->valid = false;
}

static const struct ksim_link_hook chk_hook = {
	.offer = chk_offer,
	.transfer = chk_transfer,
};

static struct checker chk;

TEST_F(model, many_sources_one_slow_sink)
{
	struct ksim_card *c;
	struct ksim_unit *snk;
	struct mh_sink *s;
	struct ksim_stats st;
	struct ksim_link *into_sink;
	unsigned int x, y, nsrc = 0, i;
	u64 next[16][16];
	u32 got[16][16];

	mh_sink_period = 3;
	c = mh_card(flow_map);
	REQUIRE(c);
	memset(&chk, 0, sizeof(chk));
	ksim_set_link_hook(c, &chk_hook, &chk);
	memset(next, 0, sizeof(next));
	memset(got, 0, sizeof(got));
	for (y = 0; y < 4; y++)
		for (x = 0; x < 5; x++) {
			struct ksim_unit *u = ksim_unit_at(c, 0, x, y);
			struct kh_flit f;

			if (!u || ksim_unit_type_of(u) != &mh_unit_src)
				continue;
			mh_src_inst(&f, 2, 1, N_PER_SRC, KH_T_CU_DATA, 1);
			kh_flit_set(&f, KH_HDR_DST_X, x);
			kh_flit_set(&f, KH_HDR_DST_Y, y);
			mh_mb_send(c, &f);
			nsrc++;
		}
	CHECK_EQ(nsrc, 13);
	snk = ksim_unit_at(c, 0, 2, 1);
	REQUIRE(snk);
	s = ksim_unit_priv(snk);
	ksim_run(c, 100000);

	CHECK_EQ(s->n, nsrc * N_PER_SRC);
	for (i = 0; i < s->n; i++) {
		const struct mh_sink_rec *r = &s->rec[i];

		CHECK_EQ(r->type, KH_T_CU_DATA);
		/* per-source order: each source's sequence counts up by one */
		if (r->seq != next[r->sy][r->sx]) {
			CHECK_MSG(0, "flit %u from (%u,%u): seq %llu, expected %llu",
				  i, r->sx, r->sy, (unsigned long long)r->seq,
				  (unsigned long long)next[r->sy][r->sx]);
			break;
		}
		next[r->sy][r->sx]++;
		got[r->sy][r->sx]++;
	}
	for (y = 0; y < 4; y++)
		for (x = 0; x < 5; x++) {
			struct ksim_unit *u = ksim_unit_at(c, 0, x, y);
			u64 ns;

			if (!u || ksim_unit_type_of(u) != &mh_unit_src)
				continue;
			CHECK_MSG(got[y][x] == N_PER_SRC,
				  "(%u,%u) delivered %u of %u", x, y, got[y][x],
				  N_PER_SRC);
			ns = mh_ns(c, x, y);
			CHECK_EQ(KH_NS_COUNT(ns), 1);
			CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
			CHECK_EQ(KH_NS_ARG(ns), 0x5a);
		}
	ksim_get_stats(c, 0, &st);
	into_sink = ksim_router_link(c, 0, 2, 1, KSIM_PORT_L);
	REQUIRE(into_sink);
	CHECK_EQ(into_sink->flits, nsrc * N_PER_SRC);
	CHECK_MSG(into_sink->stalls > 1000, "sink link stalls %llu",
		  (unsigned long long)into_sink->stalls);
	CHECK(st.link_stalls > into_sink->stalls);
	CHECK_EQ(st.tieoff_dropped, 0);
	CHECK_EQ(st.unit_dropped, 0);
	CHECK_EQ(chk.changed, 0);
	CHECK_EQ(chk.transfers, st.link_flits);
	CHECK_EQ(chk.offers, st.link_stalls);
	check_diag("%u flits, %llu link stalls, %llu cycles (%llu skipped)",
		 s->n, (unsigned long long)st.link_stalls,
		 (unsigned long long)ksim_cycles(c),
		 (unsigned long long)st.cycles_skipped);
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

/*
 * A receive FIFO the unit stops draining stalls its instruction stream too
 * (seed 001 §3.1), and the stall is bounded: it clears when the unit
 * drains.
 */
TEST_F(model, full_receive_fifo_blocks_instructions)
{
	static const char map[] =
		"param recv_depth 2\n"
		"xxx src xxx\n"
		"mag nul snk\n"
		"xxx nul xxx\n";
	struct ksim_card *c;
	struct ksim_unit *snk;
	struct mh_sink *s;
	struct kh_flit f, r;

	mh_sink_period = 100000;
	c = mh_card(map);
	REQUIRE(c);
	snk = ksim_unit_at(c, 0, 2, 1);
	s = ksim_unit_priv(snk);
	mh_src_inst(&f, 2, 1, 20, KH_T_CU_DATA, 1);
	kh_flit_set(&f, KH_HDR_DST_X, 1);
	kh_flit_set(&f, KH_HDR_DST_Y, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 5000);
	/* the sink took one, holds two, and its port is busy: CU_CTRL waits */
	CHECK_EQ(s->n, 1);
	CHECK(!mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 3, &r));
	mh_sink_period = 1;
	ksim_run(c, 200000);	/* the sink's timer fires, it drains */
	CHECK_EQ(s->n, 20);
	/* the delayed CU_CTRL reply arrived meanwhile */
	CHECK(mh_mb_recv(c, &r, 5));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 3);
	CHECK_EQ(mh_ctrl_value(&r) >> 48, KH_CU_TYPE('T', 'S'));
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

CHECK_TEST_MAIN
