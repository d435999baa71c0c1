// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The protocol checker (docs/spec/fault-injection.md "check"): each rule
 * of seed 001 §8.3 caught on a test unit that breaks it on purpose, and
 * not on the real units; lost and duplicated flits found by the tag
 * accounting (model components broken by hand, and the drop/dup knobs);
 * rule 10 exercised instead (sources interleaved at a unit); the RTL's
 * null unit caught by rule 6; and a run with the checker on is the same
 * run as with it off.
 */
#include "mhelp.h"
#include "base.h"
#include "router.h"
#include "util.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* ---- misbehaving test units ---- */

/* "wdl": the test source, but it withdraws a flit its link was refused */
static struct ksim_link *wdl_link;
static bool wdl_withdrew;

static bool wdl_tick(struct ksim_unit *u)
{
	if (wdl_link && wdl_link->valid && wdl_link->stalls && !wdl_withdrew) {
		wdl_link->valid = false;	/* gives up: rule 1 */
		wdl_withdrew = true;
		return true;
	}
	return mh_unit_src.tick(u);
}

static const struct ksim_unit_type t_wdl = {
	.token = "wdl", .name = "withdraws on the link",
	.cu_type = KH_CU_TYPE('T', '1'), .n_buffers = 1, .priv_size = 128,
	.tick = wdl_tick,
};

/* "wds": offers a different flit each time send_* refuses it */
struct t_wds {
	u32 left, attempt;
};

static bool wds_tick(struct ksim_unit *u)
{
	struct t_wds *s = ksim_unit_priv(u);
	struct kh_flit f;

	if (!s->left) {
		if (!ksim_unit_inst(u))
			return false;
		ksim_unit_inst_accept(u);
		s->left = 8;
		return true;
	}
	memset(&f, 0, sizeof(f));
	ksim_unit_hdr(u, &f, 2, 1, KH_T_CU_DATA, 0, 1);
	f.w[0] = s->attempt++;		/* rule 1: not the same flit again */
	if (ksim_unit_send(u, &f) && !--s->left)
		ksim_unit_retire(u, 0, false);
	return true;
}

static const struct ksim_unit_type t_wds = {
	.token = "wds", .name = "withdraws on send_*",
	.cu_type = KH_CU_TYPE('T', '2'), .n_buffers = 1,
	.priv_size = sizeof(struct t_wds), .tick = wds_tick,
};

/* "dbl": takes a flit, then makes its feeder hold it again (rule 2) */
static struct ksim_link *dbl_feed;
static struct ksim_node *dbl_feeder;
static unsigned int dbl_got;

static bool dbl_tick(struct ksim_unit *u)
{
	if (!ksim_unit_recv(u))
		return false;
	ksim_unit_recv_pop(u);
	if (dbl_feed && !dbl_got) {
		dbl_feed->valid = true;	/* "accepted", but the sender holds */
		ksim_node_wake(dbl_feeder);
	}
	dbl_got++;
	return true;
}

static const struct ksim_unit_type t_dbl = {
	.token = "dbl", .name = "accepts outside valid && !busy",
	.cu_type = KH_CU_TYPE('T', '3'), .n_buffers = 1, .tick = dbl_tick,
};

/* "bsf": busy computed from the offered flit (rule 3), installed by hand */
static struct ksim_link *bsf_feed;
static const struct ksim_sink_ops *bsf_inner;

static bool bsf_busy(const struct ksim_sink *s)
{
	if (bsf_feed && bsf_feed->valid &&
	    kh_flit_get(&bsf_feed->reg, KH_HDR_TYPE) == KH_T_CU_DATA)
		return true;
	return bsf_inner->busy(s);
}

static void bsf_take(struct ksim_sink *s, const struct kh_flit *f)
{
	bsf_inner->take(s, f);
}

static const struct ksim_sink_ops bsf_ops = {
	.busy = bsf_busy,
	.take = bsf_take,
};

/* "hrx": holds whatever it receives and waits for nothing (rule 4) */
static bool hrx_tick(struct ksim_unit *u)
{
	return false;
}

static const struct ksim_unit_type t_hrx = {
	.token = "hrx", .name = "blocks on receive",
	.cu_type = KH_CU_TYPE('T', '4'), .n_buffers = 1, .tick = hrx_tick,
};

/* "hlu": busy computing, pops only MEM_RD_RESP (rule 5) */
static bool hlu_tick(struct ksim_unit *u)
{
	const struct kh_flit *f = ksim_unit_recv(u);

	if (f && kh_flit_get(f, KH_HDR_TYPE) == KH_T_MEM_RD_RESP)
		ksim_unit_recv_pop(u);
	return true;	/* always something to do: never idle */
}

static const struct ksim_unit_type t_hlu = {
	.token = "hlu", .name = "holds unknown types",
	.cu_type = KH_CU_TYPE('T', '5'), .n_buffers = 1, .tick = hlu_tick,
	.recv_types = 1u << KH_T_MEM_RD_RESP,
};

/* "fcs": sends a framework completion code itself (rule 8) */
struct t_fcs {
	u8 step;
	u8 code;
};

static bool fcs_tick(struct ksim_unit *u)
{
	struct t_fcs *s = ksim_unit_priv(u);
	const struct kh_flit *in;
	struct kh_flit f;

	switch (s->step) {
	case 0:
		in = ksim_unit_inst(u);
		if (!in)
			return false;
		s->code = kh_flit_get(in, KH_FIELD(255, 248));
		ksim_unit_inst_accept(u);
		s->step = 1;
		return true;
	case 1:
		memset(&f, 0, sizeof(f));
		ksim_unit_hdr(u, &f, 0, 1, KH_T_CU_SIGNAL, 0, 1);
		kh_flit_set(&f, KH_SIG_CODE, s->code);
		if (!ksim_unit_send(u, &f))
			return false;
		s->step = 2;
		return true;
	default:
		ksim_unit_retire(u, 0, false);
		s->step = 0;
		return true;
	}
}

static const struct ksim_unit_type t_fcs = {
	.token = "fcs", .name = "sends framework codes",
	.cu_type = KH_CU_TYPE('T', '8'), .n_buffers = 1,
	.priv_size = sizeof(struct t_fcs), .tick = fcs_tick,
};

/* "ovr": one MEM_RD_REQ of [255:248]+1 beats, then drains and retires */
struct t_ovr {
	u8 step;
	u32 beats, got;
};

static bool ovr_tick(struct ksim_unit *u)
{
	struct t_ovr *s = ksim_unit_priv(u);
	const struct kh_flit *in;
	struct kh_flit f;
	unsigned int mx, my;

	if (ksim_unit_recv(u)) {
		ksim_unit_recv_pop(u);
		s->got++;
	}
	switch (s->step) {
	case 0:
		in = ksim_unit_inst(u);
		if (!in)
			return false;
		s->beats = kh_flit_get(in, KH_FIELD(255, 248)) + 1;
		s->got = 0;
		ksim_unit_inst_accept(u);
		s->step = 1;
		return true;
	case 1:
		ksim_unit_mag_port(u, &mx, &my);
		memset(&f, 0, sizeof(f));
		ksim_unit_hdr(u, &f, mx, my, KH_T_MEM_RD_REQ, 0, 1);
		kh_flit_set(&f, KH_MEM_ADDR, 0x1000);
		kh_flit_set(&f, KH_MEM_LEN, s->beats - 1);
		if (!ksim_unit_send(u, &f))
			return false;
		s->step = 2;
		return true;
	default:
		if (s->got < s->beats)
			return false;
		ksim_unit_retire(u, s->got, false);
		s->step = 0;
		return true;
	}
}

static const struct ksim_unit_type t_ovr = {
	.token = "ovr", .name = "asks for more than it can absorb",
	.cu_type = KH_CU_TYPE('T', '9'), .n_buffers = 1,
	.priv_size = sizeof(struct t_ovr), .tick = ovr_tick,
};

static const struct ksim_unit_type *const chk_types[] = {
	&t_wdl, &t_wds, &t_dbl, &t_hrx, &t_hlu, &t_fcs, &t_ovr,
	&mh_unit_snk, &mh_unit_src, &mh_unit_hng, &mh_unit_eqd, &mh_unit_spu,
};

static struct ksim_card *card_of(const char *desc)
{
	return mh_card_types(desc, chk_types,
			     sizeof(chk_types) / sizeof(chk_types[0]));
}

/* Violations of one rule so far. */
static u64 nrule(struct ksim_card *c, unsigned int rule)
{
	return ksim_check_count(c, rule);
}

static void expect_begin(void)
{
	mh_expect_violations = true;
	mh_violations = 0;
}

static void expect_end(void)
{
	mh_expect_violations = false;
}

/* a CU_DATA from the mailbox to (x, y) */
static void send_data(struct ksim_card *c, unsigned int x, unsigned int y,
		      unsigned int type)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 1, type, 0, 1);
	f.w[0] = 0x1234;
	mh_mb_send(c, &f);
}

static void send_inst(struct ksim_card *c, unsigned int x, unsigned int y,
		      u64 payload_top)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_INST, 0x42, 0);
	kh_flit_set(&f, KH_FIELD(255, 248), payload_top);
	mh_mb_send(c, &f);
}

/* the backpressured corridor: (1,0) sends to a sink at (2,1) */
static const char corridor_fmt[] =
	"param router_fifo 1\n"
	"param recv_depth 1\n"
	"xxx %s xxx\n"
	"mag nul snk\n"
	"xxx nul xxx\n";

/* ---- rule 1 ---- */

TEST_F(model, rule1_link_withdrawal)
{
	char desc[256];
	struct ksim_card *c;
	struct kh_flit f;

	snprintf(desc, sizeof(desc), corridor_fmt, "wdl");
	mh_sink_period = 100000;
	c = card_of(desc);
	REQUIRE(c);
	wdl_link = ksim_endpoint_link(c, 0, 1, 0);
	wdl_withdrew = false;
	REQUIRE(wdl_link);
	expect_begin();
	mh_src_inst(&f, 2, 1, 10, KH_T_CU_DATA, 1);
	kh_flit_set(&f, KH_HDR_DST_X, 1);
	kh_flit_set(&f, KH_HDR_DST_Y, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 2000);
	CHECK(wdl_withdrew);
	CHECK_EQ(nrule(c, 1), 1);
	CHECK(strstr(mh_last_violation, "rule 1") &&
	      strstr(mh_last_violation, "link 1,0") &&
	      strstr(mh_last_violation, "withdrawn"));
	ksim_card_destroy(c);
	expect_end();
	wdl_link = NULL;
	mh_sink_period = 7;
}

TEST_F(model, rule1_send_path_withdrawal)
{
	char desc[256];
	struct ksim_card *c;

	snprintf(desc, sizeof(desc), corridor_fmt, "wds");
	mh_sink_period = 100000;
	c = card_of(desc);
	REQUIRE(c);
	expect_begin();
	send_inst(c, 1, 0, 0);
	ksim_run(c, 2000);
	CHECK(nrule(c, 1) >= 1);
	CHECK(strstr(mh_last_violation, "rule 1") &&
	      strstr(mh_last_violation, "unit (1,0) wds") &&
	      strstr(mh_last_violation, "send_*"));
	ksim_card_destroy(c);
	expect_end();
	mh_sink_period = 7;
}

/* The real test source, same corridor: it holds, nothing is flagged. */
TEST_F(model, rule1_holding_sender_not_flagged)
{
	char desc[256];
	struct ksim_card *c;
	struct kh_flit f;
	struct ksim_link *l;

	snprintf(desc, sizeof(desc), corridor_fmt, "src");
	mh_sink_period = 50;
	c = card_of(desc);
	REQUIRE(c);
	mh_violations = 0;
	mh_src_inst(&f, 2, 1, 20, KH_T_CU_DATA, 1);
	kh_flit_set(&f, KH_HDR_DST_X, 1);
	kh_flit_set(&f, KH_HDR_DST_Y, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 5000);
	l = ksim_endpoint_link(c, 0, 1, 0);
	REQUIRE(l);
	CHECK(l->stalls > 100);		/* it was refused, and held */
	CHECK_EQ(ksim_check_audit(c), 0);
	CHECK_EQ(mh_violations, 0);
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

/* ---- rule 2 ---- */

TEST_F(model, rule2_taken_twice)
{
	static const char map[] =
		"xxx nul xxx\n"
		"mag nul dbl\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);

	REQUIRE(c);
	dbl_feed = ksim_router_link(c, 0, 1, 1, KSIM_PORT_E);
	dbl_feeder = &ksim_container_of(dbl_feed, struct ksim_router,
				      out[KSIM_PORT_E])->node;
	dbl_got = 0;
	expect_begin();
	send_data(c, 2, 1, KH_T_CU_DATA);
	ksim_run(c, 2000);
	CHECK_EQ(dbl_got, 2);		/* the flit arrived twice */
	CHECK_EQ(nrule(c, 2), 1);
	CHECK(strstr(mh_last_violation, "rule 2") &&
	      strstr(mh_last_violation, "R1,1.E") &&
	      strstr(mh_last_violation, "duplicated"));
	ksim_card_destroy(c);
	expect_end();
	dbl_feed = NULL;
}

/* ---- rule 3 ---- */

TEST_F(model, rule3_busy_from_the_flit)
{
	static const char map[] =
		"xxx nul xxx\n"
		"mag nul snk\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);
	struct ksim_unit *u;

	REQUIRE(c);
	u = ksim_unit_at(c, 0, 2, 1);
	REQUIRE(u);
	bsf_inner = u->sink.ops;
	u->sink.ops = &bsf_ops;
	bsf_feed = ksim_router_link(c, 0, 1, 1, KSIM_PORT_E);
	expect_begin();
	send_data(c, 2, 1, KH_T_MEM_WR_ACK);	/* not refused */
	ksim_run(c, 500);
	CHECK_EQ(nrule(c, 3), 0);
	send_data(c, 2, 1, KH_T_CU_DATA);	/* refused for its type */
	ksim_run(c, 500);
	CHECK_EQ(nrule(c, 3), 1);
	CHECK(strstr(mh_last_violation, "rule 3") &&
	      strstr(mh_last_violation, "R1,1.E"));
	u->sink.ops = bsf_inner;
	ksim_run(c, 500);
	ksim_card_destroy(c);
	expect_end();
	bsf_feed = NULL;
}

/* ---- rules 4 and 5 ---- */

TEST_F(model, rule4_blocked_receive_path)
{
	static const char map[] =
		"check on recv_bound=5000\n"
		"xxx hrx xxx\n"
		"mag nul snk\n"
		"xxx nul xxx\n";
	struct ksim_card *c;

	mh_sink_period = 100000;	/* holds too, but with a timer */
	c = card_of(map);
	REQUIRE(c);
	expect_begin();
	send_data(c, 1, 0, KH_T_CU_DATA);
	send_data(c, 2, 1, KH_T_CU_DATA);
	send_data(c, 2, 1, KH_T_CU_DATA);
	ksim_run(c, 1500);
	CHECK_EQ(ksim_check_audit(c), 0);	/* not yet past the bound */
	ksim_run(c, 10000);			/* skipped: judged lazily */
	CHECK_EQ(ksim_check_audit(c), 1);
	CHECK_EQ(nrule(c, 4), 1);
	CHECK(strstr(mh_last_violation, "rule 4") &&
	      strstr(mh_last_violation, "unit (1,0) hrx"));
	ksim_card_destroy(c);
	expect_end();
	mh_sink_period = 7;
}

TEST_F(model, rule5_unknown_type_held)
{
	static const char map[] =
		"check on unknown_bound=500\n"
		"xxx hlu xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);

	REQUIRE(c);
	expect_begin();
	send_data(c, 1, 0, 0x9);	/* a type it does not handle */
	ksim_run(c, 400);
	CHECK_EQ(nrule(c, 5), 0);
	ksim_run(c, 400);
	CHECK_EQ(nrule(c, 5), 1);
	CHECK(strstr(mh_last_violation, "rule 5") &&
	      strstr(mh_last_violation, "type 0x9"));
	CHECK_EQ(nrule(c, 4), 0);	/* it was never idle */
	ksim_card_destroy(c);
	expect_end();
}

/* ---- rules 6 and 7 ---- */

TEST_F(model, rule6_null_rtl_variant)
{
	static const char map[] =
		"xxx null null! xxx\n"
		"mag nul  nul   nul\n"
		"xxx nul  nul   xxx\n";
	struct ksim_card *c = card_of(map);
	struct ksim_unit_stats us;

	REQUIRE(c);
	expect_begin();
	send_inst(c, 1, 0, 0);
	send_inst(c, 2, 0, 0);
	send_inst(c, 2, 0, 0);
	ksim_run(c, 3000);
	/* the contract's null unit signals; the RTL's loses every completion */
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 1);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 0)), 0);
	ksim_unit_stats(c, 0, 2, 0, &us);
	CHECK_EQ(us.retired, 2);
	CHECK_EQ(us.signals, 0);
	CHECK_EQ(nrule(c, 6), 2);
	CHECK(strstr(mh_last_violation, "rule 6") &&
	      strstr(mh_last_violation, "unit (2,0) null!") &&
	      strstr(mh_last_violation, "loses this completion"));
	CHECK_EQ(ksim_check_audit(c), 2);	/* and nothing else */
	ksim_card_destroy(c);
	expect_end();
}

TEST_F(model, rule7_twice_and_never)
{
	static const char map[] =
		"check on retire_bound=5000\n"
		"xxx hng xxx\n"
		"mag nul spu\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);

	REQUIRE(c);
	expect_begin();
	send_inst(c, 2, 1, 0);
	ksim_run(c, 1000);
	CHECK_EQ(nrule(c, 7), 1);
	CHECK(strstr(mh_last_violation, "unit (2,1) spu") &&
	      strstr(mh_last_violation, "retired twice"));
	send_inst(c, 1, 0, 0);
	ksim_run(c, 4000);
	CHECK_EQ(ksim_check_audit(c), 1);
	ksim_run(c, 2000);
	CHECK_EQ(ksim_check_audit(c), 2);
	CHECK(strstr(mh_last_violation, "unit (1,0) hng") &&
	      strstr(mh_last_violation, "never retires"));
	ksim_card_destroy(c);
	expect_end();
}

/* ---- rules 8 and 9 ---- */

TEST_F(model, rule8_framework_codes)
{
	static const char map[] =
		"xxx fcs xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);
	static const unsigned int codes[] = { 0x03, 0x40, 0x00, 0x01, 0x04 };
	unsigned int i;

	REQUIRE(c);
	expect_begin();
	for (i = 0; i < 5; i++) {
		send_inst(c, 1, 0, codes[i]);
		ksim_run(c, 500);
		/* SIG_DATA_RECEIVED and unit codes are the unit's own */
		CHECK_EQ(nrule(c, 8), i < 2 ? 0 : i - 1);
	}
	CHECK(strstr(mh_last_violation, "rule 8") &&
	      strstr(mh_last_violation, "code 0x04"));
	ksim_card_destroy(c);
	expect_end();
}

TEST_F(model, rule9_outstanding_requests)
{
	static const char map[] =
		"param recv_depth 16\n"
		"xxx ovr xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);

	REQUIRE(c);
	expect_begin();
	send_inst(c, 1, 0, 15);		/* 16 beats: exactly what fits */
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 1);
	CHECK_EQ(nrule(c, 9), 0);
	send_inst(c, 1, 0, 16);		/* 17 beats: one too many */
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 2);
	CHECK_EQ(nrule(c, 9), 1);
	CHECK(strstr(mh_last_violation, "rule 9") &&
	      strstr(mh_last_violation, "17 MEM_RD_RESP beats"));
	ksim_card_destroy(c);
	expect_end();
}

/* ---- lost and duplicated flits ---- */

/*
 * Flits from (1,0) to a sink at (3,1): link 1,0 (an endpoint into router
 * (1,1)), R1,1.E (router to router), R2,1.E = 3,1.in (into the sink).
 */
static struct ksim_card *stream_card(const char *extra, unsigned int n)
{
	char desc[512];
	struct ksim_card *c;
	struct kh_flit f;

	snprintf(desc, sizeof(desc),
		 "%s"
		 "xxx src nul xxx\n"
		 "mag nul nul snk\n"
		 "xxx nul nul xxx\n", extra);
	mh_sink_period = 3;
	c = card_of(desc);
	if (!c)
		return NULL;
	mh_src_inst(&f, 3, 1, n, KH_T_CU_DATA, 1);
	kh_flit_set(&f, KH_HDR_DST_X, 1);
	kh_flit_set(&f, KH_HDR_DST_Y, 0);
	mh_mb_send(c, &f);
	return c;
}

static u32 sink_count(struct ksim_card *c)
{
	return ((struct mh_sink *)ksim_unit_priv(ksim_unit_at(c, 0, 3, 1)))->n;
}

TEST_F(model, lost_flits_under_drop_knobs)
{
	static const char *const links[] = { "1,0", "R1,1.E", "3,1.in" };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		char extra[128];
		struct ksim_card *c;

		snprintf(extra, sizeof(extra),
			 "inject drop link=%s type=CU_DATA count=2 after=3\n",
			 links[i]);
		c = stream_card(extra, 10);
		REQUIRE(c);
		mh_violations = 0;
		ksim_run(c, 3000);
		CHECK_EQ(sink_count(c), 8);
		/* found by the audit, and put down to the knob */
		CHECK_EQ(ksim_check_audit(c), 0);
		CHECK_MSG(ksim_check_count(c, KSIM_CHK_LOST_INJ) == 2,
			  "%s: lost_injected %llu", links[i],
			  (unsigned long long)ksim_check_count(c, KSIM_CHK_LOST_INJ));
		CHECK_EQ(ksim_check_count(c, KSIM_CHK_LOST), 0);
		CHECK_EQ(mh_violations, 0);
		ksim_card_destroy(c);
	}
	mh_sink_period = 7;
}

TEST_F(model, duplicated_flits_under_dup_knobs)
{
	static const char *const links[] = { "1,0", "R1,1.E", "3,1.in" };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		char extra[128];
		struct ksim_card *c;

		snprintf(extra, sizeof(extra),
			 "inject dup link=%s count=1 after=4\n", links[i]);
		c = stream_card(extra, 10);
		REQUIRE(c);
		mh_violations = 0;
		ksim_run(c, 3000);
		CHECK_EQ(sink_count(c), 11);
		CHECK_EQ(ksim_check_audit(c), 0);
		CHECK_MSG(ksim_check_count(c, KSIM_CHK_DUP_INJ) == 1,
			  "%s: dup_injected %llu", links[i],
			  (unsigned long long)ksim_check_count(c, KSIM_CHK_DUP_INJ));
		CHECK_EQ(mh_violations, 0);
		ksim_card_destroy(c);
	}
	mh_sink_period = 7;
}

/* A router that loses or copies a flit of its own (broken by hand). */
TEST_F(model, lost_and_duplicated_in_a_router)
{
	struct ksim_card *c;
	struct ksim_router *r;
	struct ksim_fifo *q;
	unsigned int p;

	c = stream_card("param router_fifo 4\nparam recv_depth 1\n", 12);
	REQUIRE(c);
	mh_sink_period = 100000;
	ksim_run(c, 200);		/* the corridor is full, R1,1 holds */
	r = (struct ksim_router *)ksim_container_of(
		ksim_router_link(c, 0, 1, 1, KSIM_PORT_E), struct ksim_router,
		out[KSIM_PORT_E]);
	q = NULL;
	for (p = 0; p < KSIM_PORTS; p++)
		if (r->in[p].q.count >= 2)
			q = &r->in[p].q;
	REQUIRE(q);
	expect_begin();
	CHECK_EQ(ksim_check_audit(c), 0);
	/* lose the head of an input FIFO */
	ksim_fifo_pop(q);
	r->held--;
	CHECK_EQ(ksim_check_audit(c), 1);
	CHECK_EQ(ksim_check_count(c, KSIM_CHK_LOST), 1);
	CHECK(strstr(mh_last_violation, "lost flit") &&
	      strstr(mh_last_violation, "last crossed link 1,0") &&
	      strstr(mh_last_violation, "nowhere in the mesh"));
	/* and copy the new head behind itself */
	ksim_fifo_push(q, ksim_fifo_head(q));
	r->held++;
	CHECK_EQ(ksim_check_audit(c), 2);
	CHECK_EQ(ksim_check_count(c, KSIM_CHK_DUP), 1);
	CHECK(strstr(mh_last_violation, "duplicated flit") &&
	      strstr(mh_last_violation, "router (1,1)"));
	ksim_card_destroy(c);
	expect_end();
	mh_sink_period = 7;
}

/* Flits to tied-off ports are the hardware's drop, not lost ones. */
TEST_F(model, tieoff_drops_are_not_lost)
{
	static const char map[] =
		"xxx nul xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card_of(map);
	unsigned int i;

	REQUIRE(c);
	mh_violations = 0;
	for (i = 0; i < 5; i++)
		send_data(c, 2, 1, KH_T_CU_DATA);
	ksim_run(c, 1000);
	CHECK_EQ(ksim_check_audit(c), 0);
	CHECK_EQ(ksim_check_count(c, KSIM_CHK_TIEOFF), 5);
	CHECK_EQ(ksim_check_count(c, KSIM_CHK_BORN), 5);
	CHECK_EQ(mh_violations, 0);
	ksim_card_destroy(c);
}

/* ---- rule 10: sources interleaved at a unit ---- */

TEST_F(model, rule10_interleaved_sources)
{
	static const char map[] =
		"xxx src sax src xxx\n"
		"mag src null src src\n"
		"mag nul src nul nul\n"
		"xxx nul nul nul xxx\n";
	static const unsigned int srcs[][2] = {
		{ 1, 0 }, { 3, 0 }, { 1, 1 }, { 3, 1 }, { 4, 1 }, { 2, 2 },
	};
	enum { K = 11, N = K * KH_SX_N_MAX };	/* 11 instructions */
	struct ksim_card *c = card_of(map);
	struct ksim_unit_stats us;
	u32 x[N], y[N], got[N];
	struct kh_flit f;
	unsigned int i;

	REQUIRE(c);
	mh_fast_host(c);
	mh_violations = 0;
	for (i = 0; i < N; i++) {
		x[i] = 0x3f800000 + (i << 12);
		y[i] = 0x40000000 + (i << 11);
	}
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x10000), x, sizeof(x));
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x20000), y, sizeof(y));
	/* every source sprays the SX unit and the null unit */
	for (i = 0; i < 6; i++) {
		mh_src_inst(&f, srcs[i][0], srcs[i][1], 40,
			    i & 1 ? KH_T_CU_DATA : KH_T_MEM_WR_ACK, 1);
		kh_flit_set(&f, KH_FIELD(247, 244), i < 3 ? 2 : 2);
		kh_flit_set(&f, KH_FIELD(243, 240), i < 3 ? 0 : 1);
		kh_flit_set(&f, KH_HDR_DST_X, srcs[i][0]);
		kh_flit_set(&f, KH_HDR_DST_Y, srcs[i][1]);
		mh_mb_send(c, &f);
	}
	for (i = 0; i < K; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 2, 0, 0, 0, KH_T_CU_INST, 7, i == K - 1);
		kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
		kh_flit_set(&f, KH_SX_N, KH_SX_N_MAX);
		kh_flit_set(&f, KH_SX_A, 0x3fc00000);
		kh_flit_set(&f, KH_SX_X_ADDR, 0x10000 + i * KH_SX_N_MAX * 4);
		kh_flit_set(&f, KH_SX_Y_ADDR, 0x20000 + i * KH_SX_N_MAX * 4);
		mh_mb_send(c, &f);
	}
	for (i = 0; i < 20; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 2, 1, 0, 0, KH_T_CU_INST, i, 0);
		f.w[0] = i;
		mh_mb_send(c, &f);
	}
	ksim_run(c, 200000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 0)), K);
	CHECK_EQ(KH_NS_CODE(mh_ns(c, 2, 0)), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 1)), 20);
	ksim_dma_read(c, KH_CARD_ADDR(0, 0x20000), got, sizeof(got));
	for (i = 0; i < N; i++) {
		u32 w = mh_sx_rtl(0x3fc00000, x[i], y[i]);

		if (got[i] != w) {
			CHECK_MSG(0, "y[%u] = 0x%08x, expected 0x%08x", i,
				  got[i], w);
			break;
		}
	}
	/* the junk was taken and dropped, in whatever order it came */
	ksim_unit_stats(c, 0, 2, 0, &us);
	CHECK_EQ(us.dropped, 40);	/* the CU_DATA; acks are dropped silently */
	ksim_unit_stats(c, 0, 2, 1, &us);
	CHECK_EQ(us.dropped, 120);
	CHECK_EQ(ksim_check_audit(c), 0);
	CHECK_EQ(mh_violations, 0);
	ksim_card_destroy(c);
}

/* ---- the checker changes nothing ---- */

struct outcome {
	u64 cycles, stepped, flits, stalls;
	u64 ns[4];
	u64 ctr[4];
	u32 y[64];
};

static void workload(unsigned int flags, struct outcome *o)
{
	struct ksim_opts opts;
	struct ksim_card *c = NULL;
	struct ksim_stats st;
	struct kh_flit f, r;
	char err[128];
	u32 x[64];
	unsigned int i;

	memset(&opts, 0, sizeof(opts));
	opts.extra_types = mh_test_types;
	opts.n_extra = mh_n_test_types;
	opts.flags = flags & KSIM_CHECK;
	REQUIRE(!ksim_card_create_opts(ksim_builtin_desc("sx_null_2x2"),
					 &opts, &c, err, sizeof(err)));
	if (flags & 2)
		REQUIRE(!ksim_command(c, "trace on size=1024", err,
					sizeof(err)));
	for (i = 0; i < 64; i++)
		x[i] = 0x3f000000 + i * 0x10000;
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x4000), x, sizeof(x));
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x8000), x, sizeof(x));
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 1, 0, 0, KH_T_CU_INST, 5, 1);
	kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
	kh_flit_set(&f, KH_SX_N, 64);
	kh_flit_set(&f, KH_SX_A, 0x40400000);
	kh_flit_set(&f, KH_SX_X_ADDR, 0x4000);
	kh_flit_set(&f, KH_SX_Y_ADDR, 0x8000);
	mh_mb_send(c, &f);
	for (i = 0; i < 4; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 2, 1, 0, 0, KH_T_CU_INST, i, i == 3);
		mh_mb_send(c, &f);
	}
	mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_COUNTERS, 3, &r);
	o->ctr[0] = mh_ctrl_value(&r);
	ksim_run(c, 20000);
	mh_ctrl_read(c, 1, 1, KH_CTRL_IDX_COUNTERS, 4, &r);
	o->ctr[1] = mh_ctrl_value(&r);
	mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_COUNTERS, 5, &r);
	o->ctr[2] = mh_ctrl_value(&r);
	o->ctr[3] = kh_flit_get(&r, KH_HDR_TXN) | (r.w[4] >> 32) << 8;
	o->ns[0] = mh_ns(c, 1, 1);
	o->ns[1] = mh_ns(c, 2, 1);
	o->ns[2] = mh_rd(c, KH_ORC_SIG_DONE);
	o->ns[3] = mh_rd(c, KH_ORC_RX_FLIT(4));
	ksim_dma_read(c, KH_CARD_ADDR(0, 0x8000), o->y, sizeof(o->y));
	if (flags & KSIM_CHECK)
		CHECK_EQ(ksim_check_audit(c), 0);
	ksim_get_stats(c, 0, &st);
	o->cycles = ksim_cycles(c);
	o->stepped = st.cycles_stepped;
	o->flits = st.link_flits;
	o->stalls = st.link_stalls;
	ksim_card_destroy(c);
}

TEST_F(model, checker_and_trace_change_nothing)
{
	struct outcome a, b, t;

	workload(0, &a);
	workload(KSIM_CHECK, &b);
	workload(KSIM_CHECK | 2, &t);
	CHECK(a.cycles > 10000);
	CHECK_EQ(a.ns[0] & 0xffff00, 0x100);	/* one signal */
	CHECK(!memcmp(&a, &b, sizeof(a)));
	CHECK(!memcmp(&a, &t, sizeof(a)));
	/* no tag ever reaches what a host reads */
	CHECK_EQ(a.ctr[3] >> 8, 0);
}

CHECK_TEST_MAIN
