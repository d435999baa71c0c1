// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card's documented dispatch and completion procedure (kohakutpu.md
 * 12.2) run against the model step by step, as a host would, with the
 * register values expected at each step:
 *
 *  1. stage slot-contiguous flits, one bulk write;
 *  2. seed PROG_CRED <= min(inst_depth) once per round;
 *  3. per node: PROG_STAT[0] == 0, then PROG_DST, PROG_BASE, PROG_LEN,
 *     PROG_KICK; kick every node before waiting on any;
 *  4. wait for NODE_STATUS count == baseline + n with the code checked, so
 *     SIG_FAULT is caught, its arg the unit's fault code;
 *  5. the staging RAM must not be overwritten while prog_run = 1 (shown:
 *     the dispatcher sends what is there when it gets to it);
 *  6. a node kicked twice in a round is awaited once, for the total.
 */
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* Stage one null instruction at slot; staged dst/src are don't-care. */
static void stage_null(struct ksim_card *c, unsigned int slot,
		       unsigned int txn, bool last, u64 word)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 15, 15, 15, 15, KH_T_CU_INST, txn, last);
	f.w[0] = word;
	mh_stage(c, slot, &f);
}

static void stage_null_prog(struct ksim_card *c, unsigned int base,
			    unsigned int n, unsigned int txn)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		stage_null(c, base + i, txn, i == n - 1, 0x1000 + base + i);
}

/* inst_depth as CU_CAPS reports it, through the mailbox */
static unsigned int inst_depth_of(struct ksim_card *c, unsigned int x,
				  unsigned int y)
{
	struct kh_flit r;

	if (!mh_ctrl_read(c, x, y, KH_CTRL_IDX_CAPS, 0x61, &r))
		return 0;
	return (mh_ctrl_value(&r) >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK;
}

/* Step 3: wait for the dispatcher, then kick one node. */
static void kick(struct ksim_card *c, unsigned int x, unsigned int y,
		 unsigned int base, unsigned int len)
{
	unsigned int polls = 0;

	while ((mh_rd(c, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN) && polls < 10000)
		polls++;
	CHECK_MSG(polls < 10000, "PROG_STAT[0] never dropped before kicking (%u,%u)",
		  x, y);
	mh_wr(c, KH_ORC_PROG_DST, KH_YX(x, y));
	mh_wr(c, KH_ORC_PROG_BASE, base);
	mh_wr(c, KH_ORC_PROG_LEN, len);
	mh_wr(c, KH_ORC_PROG_KICK, 1);
}

static void one_round(const char *desc, unsigned int ax, unsigned int ay,
		      unsigned int bx, unsigned int by)
{
	struct ksim_card *c = mh_card(desc);
	unsigned int da, db, cred, base_a, base_b;
	u64 ns;

	REQUIRE(c);
	/* 1: A = 5 + 2 instructions (two kicks), B = 3, slot-contiguous */
	stage_null_prog(c, 0, 5, 0x21);
	stage_null_prog(c, 5, 3, 0x32);
	stage_null_prog(c, 8, 2, 0x22);
	/* STAGE is write-only */
	CHECK_EQ(mh_rd(c, KH_ORC_STAGE(0)), 0);
	/* 2: one seed for the round, the smaller FIFO of the two */
	da = inst_depth_of(c, ax, ay);
	db = inst_depth_of(c, bx, by);
	REQUIRE(da && db);
	cred = da < db ? da : db;
	base_a = KH_NS_COUNT(mh_ns(c, ax, ay));
	base_b = KH_NS_COUNT(mh_ns(c, bx, by));
	mh_wr(c, KH_ORC_SIG_DONE, 0);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	mh_wr(c, KH_ORC_PROG_CRED, cred);
	CHECK_EQ(KH_PROG_STAT_CRED(mh_rd(c, KH_ORC_PROG_STAT)), cred);
	/* 3: kick every node before waiting on any */
	kick(c, ax, ay, 0, 5);
	kick(c, bx, by, 5, 3);
	kick(c, ax, ay, 8, 2);
	/* 4 and 6: A awaited once, for 7; B for 3 */
	CHECK(mh_wait_count(c, ax, ay, (base_a + 7) & 0xffff, 5000));
	CHECK(mh_wait_count(c, bx, by, (base_b + 3) & 0xffff, 5000));
	ksim_run(c, 2000);
	ns = mh_ns(c, ax, ay);
	CHECK_EQ(KH_NS_COUNT(ns), (base_a + 7) & 0xffff);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0x22);		/* the second kick's txn */
	ns = mh_ns(c, bx, by);
	CHECK_EQ(KH_NS_COUNT(ns), (base_b + 3) & 0xffff);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0x32);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 10);
	/* three programs ended: three credits are gone for good */
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), cred - 3);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_STAT), (u64)(cred - 3) << 17);
	CHECK_EQ(mh_rd(c, KH_ORC_STATUS), KH_ORC_STATUS_READY);
	ksim_card_destroy(c);
}

TEST_F(model, a_round_on_the_rtl_card)
{
	one_round("sx_null_2x2", 2, 1, 3, 2);
}

TEST_F(model, a_round_on_the_ship_card)
{
	/* the ship card's L2 adapters sit in every link: same procedure */
	one_round("ship_2x2", 3, 1, 3, 2);
}

TEST_F(model, sig_fault_is_caught_by_the_code)
{
	struct ksim_card *c = mh_card("saxpy");
	unsigned int base;
	struct kh_flit f;
	u64 ns;

	REQUIRE(c);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x5a, 1);
	kh_flit_set(&f, KH_SX_OPCODE, 0x77);	/* not SAXPY */
	mh_stage(c, 0, &f);
	base = KH_NS_COUNT(mh_ns(c, 1, 0));
	mh_wr(c, KH_ORC_PROG_CRED, 1);
	kick(c, 1, 0, 0, 1);
	CHECK(mh_wait_count(c, 1, 0, base + 1, 5000));
	ns = mh_ns(c, 1, 0);
	/* the count alone would call this done: the code says otherwise */
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), KH_SX_FAULT_BAD_OP);
	/* a fault returns no credit either */
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_CRED), 0);
	ksim_card_destroy(c);
}

TEST_F(model, staging_overwritten_while_running_is_what_goes_out)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	unsigned int base;
	u64 st;

	REQUIRE(c);
	stage_null_prog(c, 0, 2, 0x11);
	base = KH_NS_COUNT(mh_ns(c, 2, 1));
	/* no credit: the dispatcher holds the program, prog_run = 1 */
	mh_wr(c, KH_ORC_PROG_CRED, 0);
	kick(c, 2, 1, 0, 2);
	ksim_run(c, 100);
	st = mh_rd(c, KH_ORC_PROG_STAT);
	CHECK_EQ(st, KH_PROG_STAT_RUN | (2 << 1));
	CHECK(mh_rd(c, KH_ORC_STATUS) & KH_ORC_STATUS_BUSY);
	/* a kick and a mailbox send are ignored while it runs */
	mh_wr(c, KH_ORC_PROG_LEN, 1);
	mh_wr(c, KH_ORC_PROG_KICK, 1);
	CHECK_EQ(KH_PROG_STAT_LEFT(mh_rd(c, KH_ORC_PROG_STAT)), 2);
	/* the hazard: restage the last flit under the running program */
	stage_null(c, 1, 0x99, true, 0xdead);
	mh_wr(c, KH_ORC_PROG_CRED, 2);
	CHECK(mh_wait_count(c, 2, 1, base + 2, 5000));
	CHECK_EQ(KH_NS_ARG(mh_ns(c, 2, 1)), 0x99);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN, 0);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
