// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The dispatcher and its credit, through the register interface only:
 * a program of n instructions seeded with credit c ends at c - 1 (the
 * batch completion returns none), NODE_STATUS advances by n with
 * SIG_BATCH_COMPLETE and arg = txn, SIG_DONE counts every signal; kick
 * rules, staging wrap, and what a mesh reset keeps.
 */
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* Stage n null-unit instructions from slot base, last on the final one. */
static void stage_null_prog(struct ksim_card *c, unsigned int base,
			    unsigned int n, unsigned int txn)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct kh_flit f;

		memset(&f, 0, sizeof(f));
		/* staged dst/src are don't-care: the dispatcher rewrites them */
		kh_flit_hdr(&f, 9, 9, 9, 9, KH_T_CU_INST, txn, i == n - 1);
		f.w[0] = 0x100 + i;
		mh_stage(c, base + i, &f);
	}
}

static void run_credit_case(const char *map, unsigned int ux, unsigned int uy,
			    unsigned int n, unsigned int cred)
{
	struct ksim_card *c = mh_card(map);
	unsigned int base;
	u64 ns, st;

	REQUIRE(c);
	base = KH_NS_COUNT(mh_ns(c, ux, uy));
	stage_null_prog(c, 0, n, 0x33);
	mh_wr(c, KH_ORC_SIG_DONE, 0);
	mh_wr(c, KH_ORC_PROG_CRED, cred);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), cred);
	mh_prog(c, ux, uy, 0, n);
	CHECK_MSG(mh_wait_count(c, ux, uy, base + n, 2000),
		  "n=%u c=%u: count %u", n, cred,
		  KH_NS_COUNT(mh_ns(c, ux, uy)));
	ksim_run(c, 1000);
	ns = mh_ns(c, ux, uy);
	CHECK_EQ(KH_NS_COUNT(ns), base + n);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0x33);
	CHECK(ns & KH_NS_VALID);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), n);
	/* n - 1 credits came back */
	CHECK_MSG(mh_rd(c, KH_ORC_PROG_CRED) == cred - 1,
		  "n=%u c=%u: PROG_CRED %llu", n, cred,
		  (unsigned long long)mh_rd(c, KH_ORC_PROG_CRED));
	st = mh_rd(c, KH_ORC_PROG_STAT);
	CHECK_EQ(st & KH_PROG_STAT_RUN, 0);
	CHECK_EQ(KH_PROG_STAT_LEFT(st), 0);
	CHECK_EQ(KH_PROG_STAT_CRED(st), cred - 1);
	CHECK_EQ(mh_rd(c, KH_ORC_STATUS), KH_ORC_STATUS_READY);
	ksim_card_destroy(c);
}

TEST_F(model, null_program_returns_n_minus_1)
{
	run_credit_case("sx_null_2x2", 2, 1, 10, 4);
	run_credit_case("sx_null_2x2", 3, 2, 40, 32);
	run_credit_case("sx_null_2x2", 1, 3, 5, 1);	/* one at a time */
	run_credit_case("sx_null_2x2", 2, 0, 1, 3);	/* batch only */
}

TEST_F(model, sx_program_returns_n_minus_1)
{
	struct ksim_card *c = mh_card("saxpy");
	unsigned int i, n = 3;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < n; i++) {
		struct kh_flit f;

		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x44, i == n - 1);
		kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
		kh_flit_set(&f, KH_SX_N, 16);
		kh_flit_set(&f, KH_SX_A, 0x3f800000);
		kh_flit_set(&f, KH_SX_X_ADDR, 0x1000);
		kh_flit_set(&f, KH_SX_Y_ADDR, 0x2000);
		mh_stage(c, 10 + i, &f);
	}
	mh_wr(c, KH_ORC_PROG_CRED, 2);
	mh_prog(c, 1, 2, 10, n);
	CHECK(mh_wait_count(c, 1, 2, n, 2000));
	ns = mh_ns(c, 1, 2);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0x44);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), 1);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), n);
	ksim_card_destroy(c);
}

TEST_F(model, kick_rules)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	struct kh_flit f;
	u64 st;

	REQUIRE(c);
	stage_null_prog(c, 0, 4, 0x55);
	/* LEN = 0: ignored */
	mh_wr(c, KH_ORC_PROG_CRED, 5);
	mh_prog(c, 2, 1, 0, 0);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN, 0);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), 5);
	/* no credit: the dispatcher stalls locally, and stays running */
	mh_wr(c, KH_ORC_PROG_CRED, 0);
	mh_prog(c, 2, 1, 0, 4);
	st = mh_rd(c, KH_ORC_PROG_STAT);
	CHECK(st & KH_PROG_STAT_RUN);
	CHECK_EQ(KH_PROG_STAT_LEFT(st), 4);
	CHECK(mh_rd(c, KH_ORC_STATUS) & KH_ORC_STATUS_BUSY);
	/* a kick while running is ignored; so is the mailbox */
	mh_wr(c, KH_ORC_PROG_LEN, 2);
	mh_wr(c, KH_ORC_PROG_KICK, 1);
	CHECK_EQ(KH_PROG_STAT_LEFT(mh_rd(c, KH_ORC_PROG_STAT)), 4);
	mh_ctrl_req(&f, 1, 0, KH_CTRL_IDX_CAPS, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 1000);
	CHECK_EQ(mh_mb_count(c), 0);
	/* one credit: one instruction, whose completion returns it... */
	mh_wr(c, KH_ORC_PROG_CRED, 1);
	CHECK(mh_wait_count(c, 2, 1, 4, 2000));
	st = mh_rd(c, KH_ORC_PROG_STAT);
	CHECK_EQ(st & KH_PROG_STAT_RUN, 0);
	CHECK_EQ(KH_PROG_STAT_CRED(st), 0);	/* 1 - 4 + 3 */
	/* the mailbox works again */
	mh_mb_send(c, &f);
	CHECK(mh_mb_recv(c, &f, 20));
	ksim_card_destroy(c);
}

TEST_F(model, staging_wraps)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	struct kh_flit f;
	u64 ns;

	REQUIRE(c);
	/* slots 126, 127 then 0, 1: the RAM index wraps at STAGE_FLITS */
	stage_null_prog(c, 126, 2, 0x10);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x10, 0);
	mh_stage(c, 0, &f);
	kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x77, 1);
	/* a write at "slot 129" (offset past 0x3400) lands in slot 1 */
	mh_stage(c, 129, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 8);
	mh_prog(c, 2, 2 - 1, 126, 4);
	CHECK(mh_wait_count(c, 2, 1, 4, 2000));
	ns = mh_ns(c, 2, 1);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0x77);
	/* STAGE is write-only */
	CHECK_EQ(mh_rd(c, KH_ORC_STAGE(0)), 0);
	ksim_card_destroy(c);
}

TEST_F(model, sig_done_and_node_status_registers)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	struct kh_flit f, r;
	u64 ns;

	REQUIRE(c);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 2, 0, 0, 0, KH_T_CU_INST, 0x66, 0);
	f.w[0] = 0x0000000300000005ULL;		/* XOR 6 */
	f.w[3] = 0xf0f0f0f000000000ULL;		/* ^ 0xf0f0f0f0 */
	mh_mb_send(c, &f);
	CHECK(mh_wait_count(c, 2, 0, 1, 100));
	ns = mh_ns(c, 2, 0);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0xf0f0f0f6);
	CHECK_EQ(mh_rd(c, KH_ORC_NODE_ALIAS + KH_YX(2, 0) * 8), ns);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 1);
	/* a completion returns a credit even with no program running */
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), 1);
	mh_wr(c, KH_ORC_SIG_DONE, 12345);	/* any write clears */
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	/* a completion routed to a unit, not the agent, is not counted */
	kh_flit_hdr(&f, 2, 0, 1, 1, KH_T_CU_INST, 0x67, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	CHECK(mh_ctrl_read(c, 2, 0, KH_CTRL_IDX_COUNTERS, 1, &r));
	CHECK_EQ(mh_ctrl_value(&r) >> 32, 2);
	ksim_card_destroy(c);
}

TEST_F(model, mesh_reset_keeps_node_status)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	struct kh_flit f, r;
	u64 ns;

	REQUIRE(c);
	stage_null_prog(c, 0, 3, 0x21);
	mh_wr(c, KH_ORC_PROG_CRED, 9);
	mh_prog(c, 2, 1, 0, 3);
	REQUIRE(mh_wait_count(c, 2, 1, 3, 1000));
	ns = mh_ns(c, 2, 1);
	CHECK_EQ(ksim_mesh_reset(c, 0), 0);
	CHECK_EQ(ksim_mesh_reset(c, 1), -EINVAL);
	CHECK_EQ(mh_ns(c, 2, 1), ns);		/* survives */
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), 0);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_DST), 0);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_COUNTERS, 1, &r));
	CHECK_EQ(mh_ctrl_value(&r) >> 32, 0);	/* counters reset */
	/* the staging RAM survives too: the same program runs again */
	mh_wr(c, KH_ORC_PROG_CRED, 9);
	mh_prog(c, 2, 1, 0, 3);
	CHECK(mh_wait_count(c, 2, 1, 6, 1000));
	(void)f;
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
