// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The job engine's bookkeeping against a scripted fake card: completions in
 * any order and at any moment, credit (one shared counter, never more in
 * flight than a FIFO holds, reseeded only when it is provably lost), the
 * staging ping-pong, and the read-after-write settle window
 * (docs/driver-core.md "Dispatch and credit", "Read after write";
 * kohakutpu.md 4.3-4.5, 12.2-12.3).  The fake card checks on its own that
 * no node ever holds more instructions than its inst_depth and that no
 * staging slot is written while the dispatcher has yet to read it.
 */
#include "check.h"
#include "core_rig.h"
#include "harness.h"

CHECK_FIXTURE(core)


/* Two targets of one job: the one dispatched first finishes last. */
TEST_F(core, programs_finish_in_the_opposite_order)
{
	struct rig_prog p[2] = { { 1, 1, 0x11, 2 }, { 2, 1, 0x12, 2 } };
	struct fake_node_obs slow, fast;
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_exec_ns(r.fc, 1, 1, 20000);
	CHECK_EQ(rig_run(&r, p, 2, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	CHECK_EQ(w.n_faults, 0);
	fake_observe(r.fc, &o);
	fake_node_observe(r.fc, 1, 1, &slow);
	fake_node_observe(r.fc, 2, 1, &fast);
	REQUIRE(o.n_kicks == 2);
	CHECK_EQ(o.kick[0].dst, KH_YX(1, 1));
	CHECK_EQ(o.kick[1].dst, KH_YX(2, 1));
	CHECK(fast.signalled_at[1] < slow.signalled_at[0]);
	/* reported only after the slow one, started before the first kick */
	CHECK(o.cred[0].at + w.device_ns >= slow.signalled_at[1] + KH_SETTLE_NS);
	rig_check_received(&r, &p[0], 0);
	rig_check_received(&r, &p[1], 0);
	rig_down(&r);
}

/* Jobs queue in submission order and are reported whatever order they are waited in. */
TEST_F(core, jobs_waited_in_reverse_order)
{
	struct rig_prog p[4] = {
		{ 1, 1, 0x21, 3 }, { 2, 1, 0x22, 2 }, { 1, 1, 0x23, 4 }, { 2, 2, 0x24, 1 },
	};
	static const u8 dst[4] = { KH_YX(1, 1), KH_YX(2, 1), KH_YX(1, 1), KH_YX(2, 2) };
	struct drm_kohaku_wait w;
	struct fake_node_obs no;
	struct fake_obs o;
	struct rig r;
	u64 j[4];
	int i;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	for (i = 0; i < 4; i++)
		REQUIRE(rig_submit(&r, &p[i], 1, 0, &j[i]) == 0);
	for (i = 3; i >= 0; i--) {
		CHECK_EQ(rig_wait_final(&r, j[i], &w), 0);
		CHECK_EQ(w.status, KOHAKU_JOB_DONE);
		CHECK(w.device_ns > 0);
	}
	fake_observe(r.fc, &o);
	REQUIRE(o.n_kicks == 4);
	for (i = 0; i < 4; i++)
		CHECK_EQ(o.kick[i].dst, dst[i]);
	rig_check_received(&r, &p[0], 0);
	rig_check_received(&r, &p[2], 3);
	rig_check_received(&r, &p[1], 0);
	rig_check_received(&r, &p[3], 0);
	fake_node_observe(r.fc, 1, 1, &no);
	CHECK_EQ(no.count, 7);
	rig_down(&r);
}

/*
 * Everything lands between two accesses of the core: the whole program is
 * pushed and signalled within one access step.  The counts start just
 * below the 16-bit wrap, and (2,1)'s mirror still shows a SIG_FAULT from
 * before the driver: neither may fool the core.
 */
TEST_F(core, signals_land_between_polls)
{
	struct rig_prog p[2] = { { 1, 1, 0x31, 10 }, { 2, 1, 0x32, 3 } };
	struct fake_node_obs a, b;
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_push_ns(r.fc, 1);
	fake_exec_ns(r.fc, 1, 1, 1);
	fake_exec_ns(r.fc, 2, 1, 1);
	fake_node_status(r.fc, 1, 1, ((u64)KH_SIG_BATCH_COMPLETE << 56) |
			 (0xfffaULL << 8) | KH_NS_VALID);
	fake_node_status(r.fc, 2, 1, ((u64)KH_SIG_FAULT << 56) | (0xdeadULL << 24) |
			 (0xffffULL << 8) | KH_NS_VALID);
	CHECK_EQ(rig_run(&r, p, 2, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	CHECK_EQ(w.n_faults, 0);
	CHECK_EQ(w.fault_flags, 0);
	fake_observe(r.fc, &o);
	fake_node_observe(r.fc, 1, 1, &a);
	fake_node_observe(r.fc, 2, 1, &b);
	CHECK_EQ(a.count, 0x0004);
	CHECK_EQ(b.count, 0x0002);
	REQUIRE(o.n_kicks == 2);
	CHECK(a.signalled_at[9] - o.kick[0].at < FAKE_STEP_NS);
	CHECK(b.signalled_at[2] - o.kick[1].at < FAKE_STEP_NS);
	rig_down(&r);
}

/*
 * inst_depth 2 and three one-instruction programs: the two lasts eat the
 * seed for good, the third waits at credit 0 until every pushed
 * instruction has signalled, and only then is credit written again.
 */
TEST_F(core, credit_is_reseeded_only_when_every_push_has_signalled)
{
	struct rig_prog p[3] = { { 1, 1, 0x41, 1 }, { 2, 1, 0x42, 1 }, { 1, 2, 0x43, 1 } };
	struct fake_card *fc = fake_card_create(1, 2);
	struct fake_node_obs slow, third;
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;

	REQUIRE(fc);
	fake_node(fc, 1, 1, RIG_CAPS(2));
	fake_node(fc, 2, 1, RIG_CAPS(2));
	fake_node(fc, 1, 2, RIG_CAPS(2));
	fake_echo(fc, 0, 1);
	fake_exec_ns(fc, 2, 1, 50000);
	REQUIRE(rig_up(&r, fc) == 0);
	CHECK_EQ(rig_run(&r, p, 3, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	CHECK_EQ(w.n_faults, 0);
	fake_observe(fc, &o);
	fake_node_observe(fc, 2, 1, &slow);
	fake_node_observe(fc, 1, 2, &third);
	CHECK_EQ(o.n_kicks, 3);
	REQUIRE(o.n_cred == 2);
	CHECK_EQ(o.cred[0].value, 2);
	CHECK_EQ(o.cred[1].value, 2);
	CHECK_MSG(o.cred[1].at > slow.signalled_at[0],
		  "reseeded at %llu, (2,1) signalled at %llu",
		  (unsigned long long)o.cred[1].at,
		  (unsigned long long)slow.signalled_at[0]);
	CHECK(third.signalled_at[0] > o.cred[1].at);
	rig_down(&r);
}

/*
 * More instructions than inst_depth: credit flows back with every
 * SIG_INST_COMPLETE and the node never holds more than its FIFO, but
 * holds that many.  Then two faults in a row eat the seed: the core
 * counts them from the credit left and reseeds.
 */
TEST_F(core, credit_never_exceeds_inst_depth)
{
	struct rig_prog many = { 1, 1, 0x51, 10 }, faulty = { 2, 1, 0x52, 4 };
	struct drm_kohaku_wait w;
	struct fake_node_obs no;
	struct fake_obs o;
	struct rig r;

	REQUIRE(rig_up(&r, rig_card(2, 2)) == 0);
	CHECK_EQ(rig_run(&r, &many, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	fake_node_observe(r.fc, 1, 1, &no);
	CHECK_EQ(no.max_outstanding, 2);
	rig_check_received(&r, &many, 0);
	fake_observe(r.fc, &o);
	CHECK_EQ(o.n_cred, 1);

	fake_inst_sig(r.fc, 2, 1, 0, KH_SIG_FAULT, 0x55);
	fake_inst_sig(r.fc, 2, 1, 1, KH_SIG_FAULT, 0x55);
	CHECK_EQ(rig_run(&r, &faulty, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 2);
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(w.fault_x, 2);
	CHECK_EQ(w.fault_y, 1);
	CHECK_EQ(w.fault_code, 0x55);
	fake_observe(r.fc, &o);
	CHECK_EQ(o.n_cred, 3);		/* seed, reseed after the faults */
	CHECK_EQ(o.cred[2].value, 2);
	fake_node_observe(r.fc, 2, 1, &no);
	CHECK_EQ(no.pushed, 4);
	CHECK(no.max_outstanding <= 2);
	rig_down(&r);
}

/* Programs longer than half the staging RAM go out in alternating halves. */
TEST_F(core, long_programs_ping_pong_through_the_staging_ram)
{
	static const struct fake_kick want[] = {
		{ KH_YX(1, 1), 0, 64, 0 }, { KH_YX(1, 1), 64, 64, 0 },
		{ KH_YX(1, 1), 0, 64, 0 }, { KH_YX(1, 1), 64, 8, 0 },
		{ KH_YX(2, 1), 0, 64, 0 }, { KH_YX(2, 1), 64, 6, 0 },
	};
	struct rig_prog p[2] = { { 1, 1, 0x61, 200 }, { 2, 1, 0x62, 70 } };
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;
	unsigned int i;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	CHECK_EQ(rig_run(&r, p, 2, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	fake_observe(r.fc, &o);
	REQUIRE(o.n_kicks == ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		CHECK_EQ(o.kick[i].dst, want[i].dst);
		CHECK_EQ(o.kick[i].base, want[i].base);
		CHECK_EQ(o.kick[i].len, want[i].len);
	}
	rig_check_received(&r, &p[0], 0);
	rig_check_received(&r, &p[1], 0);
	CHECK_EQ(o.n_cred, 1);
	rig_down(&r);
}

/*
 * Writes keep landing for 5 us after the last SIG_BATCH_COMPLETE: the job
 * is reported only once AUX_STAT's counter has been still for the 2 us
 * settle window after the last of them.
 */
TEST_F(core, verdict_waits_for_landed_writes_to_settle)
{
	struct rig_prog quiet = { 1, 1, 0x71, 1 }, busy = { 1, 1, 0x72, 1 };
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;
	u64 d_quiet;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	CHECK_EQ(rig_run(&r, &quiet, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	d_quiet = w.device_ns;

	fake_aux_after_batch(r.fc, 5, 1000);
	CHECK_EQ(rig_run(&r, &busy, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_DONE);
	fake_observe(r.fc, &o);
	REQUIRE(o.n_cred == 2 && o.last_aux_at);
	/* the job began before its credit was written */
	CHECK_MSG(o.cred[1].at + w.device_ns >= o.last_aux_at + KH_SETTLE_NS,
		  "reported at most at %llu, last write landed at %llu",
		  (unsigned long long)(o.cred[1].at + w.device_ns),
		  (unsigned long long)o.last_aux_at);
	CHECK_MSG(w.device_ns >= d_quiet + 4000,
		  "device_ns %llu with writes landing, %llu without",
		  (unsigned long long)w.device_ns, (unsigned long long)d_quiet);
	rig_down(&r);
}

CHECK_TEST_MAIN
