// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CU_CTRL and retirement in noc_cu_base: the register layouts, the one
 * pending reply (a second request in the window is consumed and never
 * answered), answers from a busy unit, busy cycles accruing while the card
 * skips idle time, and the retirement rules the RTL enforces the hard way
 * (same-cycle accept + retire loses the completion; spurious retires are
 * counted but signal nothing).
 */
#include <time.h>
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* RTL parameters: the layouts below expect a 32-deep instruction FIFO */
static const char hng_map[] =
	"profile rtl\n"
	"xxx hng xxx\n"
	"mag nul eqd\n"
	"xxx spu xxx\n";

TEST_F(model, ctrl_register_layouts)
{
	struct ksim_card *c = mh_card("saxpy");
	struct kh_flit r;
	u64 v;

	REQUIRE(c);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_CAPS, 0x11, &r));
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_OP), KH_CTRL_OP_REPLY);
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_INDEX), 0);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x11);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_LAST), 1);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_RSVD), 0);
	CHECK_EQ(r.w[0] | r.w[1], 0);	/* [175:0] zero */
	CHECK_EQ(r.w[2] & 0xffffffffffffULL, 0);
	v = mh_ctrl_value(&r);
	/* the saxpy_mesh top: saxpy_cu's version 1, INST_DEPTH 512 */
	CHECK_EQ(v, ((u64)KH_CU_SX << 48) | (1ULL << 40) | (1ULL << 36) |
		    (512ULL << 20));
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_STATUS, 0x12, &r));
	CHECK_EQ(mh_ctrl_value(&r), 512ULL << 32);	/* idle, 512 free */
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_COUNTERS, 0x13, &r));
	CHECK_EQ(mh_ctrl_value(&r), 0);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_DBG, 0x14, &r));
	CHECK_EQ(mh_ctrl_value(&r), 0);
	REQUIRE(mh_ctrl_read(c, 1, 0, 4, 0x15, &r));
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_INDEX), 4);
	CHECK_EQ(mh_ctrl_value(&r), 0);
	REQUIRE(mh_ctrl_read(c, 1, 0, 0xe0, 0x16, &r));
	CHECK_EQ(mh_ctrl_value(&r), 0);
	ksim_card_destroy(c);
}

TEST_F(model, second_ctrl_dropped_mailbox)
{
	struct ksim_card *c = mh_card("saxpy");
	struct ksim_stats st;
	struct kh_flit f, r;

	REQUIRE(c);
	mh_fast_host(c);	/* two kicks one cycle apart */
	mh_ctrl_req(&f, 1, 2, KH_CTRL_IDX_CAPS, 0x21);
	mh_mb_load(c, &f);
	mh_mb_kick(c);
	mh_mb_kick(c);
	ksim_run(c, 1000);
	CHECK_EQ(mh_mb_count(c), 1);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.ctrl_dropped, 1);
	/* after the reply a new request is answered */
	REQUIRE(mh_ctrl_read(c, 1, 2, KH_CTRL_IDX_STATUS, 0x22, &r));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x22);
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_INDEX), KH_CTRL_IDX_STATUS);
	CHECK_EQ(mh_mb_count(c), 0);
	/* spaced requests are both answered: only the pending window loses */
	mh_ctrl_req(&f, 1, 2, KH_CTRL_IDX_CAPS, 0x23);
	mh_mb_load(c, &f);
	mh_mb_kick(c);
	ksim_run(c, 50);
	mh_mb_kick(c);
	ksim_run(c, 1000);
	CHECK_EQ(mh_mb_count(c), 2);
	ksim_card_destroy(c);
}

/*
 * The dispatcher reads a staged flit a 64-bit word an edge, five edges a
 * flit (noc_orchestrator.v), so two requests it sends back to back reach
 * the unit five edges apart: the first's reply has left by then, and both
 * are answered.  Only the mailbox (two kicks one cycle apart, above) can
 * land a request in the pending window.
 */
TEST_F(model, dispatched_ctrl_requests_are_both_answered)
{
	struct ksim_card *c = mh_card("saxpy");
	struct ksim_stats st;
	struct kh_flit f, r;

	REQUIRE(c);
	mh_ctrl_req(&f, 0, 0, KH_CTRL_IDX_CAPS, 0x31);
	mh_stage(c, 0, &f);
	mh_ctrl_req(&f, 0, 0, KH_CTRL_IDX_DBG, 0x32);
	mh_stage(c, 1, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 2);
	mh_prog(c, 1, 0, 0, 2);
	REQUIRE(mh_mb_recv(c, &r, 200));
	/* the reply goes to the orchestrator's coordinate (src rewritten) */
	CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_X), 0);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_Y), 1);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x31);
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_INDEX), KH_CTRL_IDX_CAPS);
	REQUIRE(mh_mb_recv(c, &r, 200));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x32);
	CHECK_EQ(kh_flit_get(&r, KH_CTRL_INDEX), KH_CTRL_IDX_DBG);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.ctrl_dropped, 0);
	ksim_card_destroy(c);
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

TEST_F(model, busy_unit_answers_and_accrues_while_skipped)
{
	struct ksim_card *c = mh_card(hng_map);
	struct ksim_stats st;
	struct kh_flit f, r;
	u64 busy0, busy1;
	double t0;

	REQUIRE(c);
	mh_expect_violations = true;	/* hng breaks rule 7 on purpose */
	mh_violations = 0;
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 0, KH_T_CU_INST, 9, 1);
	mh_mb_send(c, &f);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_STATUS, 1, &r));
	CHECK(mh_ctrl_value(&r) & KH_STATUS_BUSY);
	CHECK_EQ((mh_ctrl_value(&r) >> 32) & 0xffff, 32);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_COUNTERS, 2, &r));
	busy0 = mh_ctrl_value(&r) & 0xffffffffULL;
	CHECK_EQ(mh_ctrl_value(&r) >> 32, 0);
	t0 = wall();
	ksim_run(c, 1000000000ULL);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_COUNTERS, 3, &r));
	busy1 = mh_ctrl_value(&r) & 0xffffffffULL;
	CHECK_MSG(busy1 - busy0 >= 1000000000ULL && busy1 - busy0 < 1000010000ULL,
		  "busy cycles %llu -> %llu", (unsigned long long)busy0,
		  (unsigned long long)busy1);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_DBG, 4, &r));
	CHECK_EQ(mh_ctrl_value(&r), 0x4e4e);
	CHECK_MSG(wall() - t0 < 1.0, "a hung second took %.2f s", wall() - t0);
	ksim_get_stats(c, 0, &st);
	CHECK(st.cycles_skipped > 999000000ULL);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 0);
	ksim_card_destroy(c);
	CHECK(mh_violations == 1 && strstr(mh_last_violation, "rule 7"));
	mh_expect_violations = false;
}

TEST_F(model, full_instruction_fifo_blocks_ctrl)
{
	static const char map[] =
		"param inst_depth 4\n"
		"xxx hng xxx\n"
		"mag nul nul\n"
		"xxx nul xxx\n";
	struct ksim_card *c = mh_card(map);
	struct kh_flit f, r;
	unsigned int i;

	REQUIRE(c);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 0, KH_T_CU_INST, 1, 0);
	/* one in flight forever, then four fill the FIFO: busy for good */
	for (i = 0; i < 5; i++)
		mh_mb_send(c, &f);
	ksim_run(c, 1000);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_STATUS, 5, &r) == 0);
	ksim_run(c, 100000);
	CHECK_EQ(mh_mb_count(c), 0);
	ksim_card_destroy(c);
}

TEST_F(model, same_cycle_retire_loses_the_completion)
{
	struct ksim_card *c = mh_card(hng_map);
	struct ksim_stats st;
	struct kh_flit f, r;

	REQUIRE(c);
	mh_expect_violations = true;	/* eqd breaks rule 6 on purpose */
	mh_violations = 0;
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 2, 1, 0, 0, KH_T_CU_INST, 1, 0);
	mh_mb_send(c, &f);
	mh_mb_send(c, &f);
	ksim_run(c, 1000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 1)), 0);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_COUNTERS, 1, &r));
	CHECK_EQ(mh_ctrl_value(&r) >> 32, 2);	/* both retirements counted */
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_STATUS, 2, &r));
	/* in_flight was cleared by the done arm: the unit is idle */
	CHECK_EQ(mh_ctrl_value(&r) & KH_STATUS_BUSY, 0);
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.lost_completions, 2);
	ksim_card_destroy(c);
	CHECK(mh_violations == 2 && strstr(mh_last_violation, "rule 6"));
	mh_expect_violations = false;
}

TEST_F(model, spurious_retire_counted_not_signalled)
{
	struct ksim_card *c = mh_card(hng_map);
	struct kh_flit f, r;
	u64 ns;

	REQUIRE(c);
	mh_expect_violations = true;	/* spu breaks rule 7 on purpose */
	mh_violations = 0;
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 2, 0, 0, KH_T_CU_INST, 4, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 1000);
	ns = mh_ns(c, 1, 2);
	CHECK_EQ(KH_NS_COUNT(ns), 1);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 102);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 1);
	REQUIRE(mh_ctrl_read(c, 1, 2, KH_CTRL_IDX_COUNTERS, 1, &r));
	CHECK_EQ(mh_ctrl_value(&r) >> 32, 2);
	ksim_card_destroy(c);
	CHECK(mh_violations == 1 && strstr(mh_last_violation, "rule 7"));
	mh_expect_violations = false;
}

CHECK_TEST_MAIN
