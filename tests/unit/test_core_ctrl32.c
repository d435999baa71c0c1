// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The driver core on a 32-bit control path (KH_HW_CTRL32, docs/driver-core.md
 * "A control path of 32 bits") against the scripted fake card in that mode
 * (fake_set_ctrl32()), which takes each access as the orchestrator takes a
 * beat and flags a write it would ignore, a read of a half that reads 0 and
 * any STAGE write.  Bring-up without GRID_HI (the whole span, asked so that
 * no clamped request meets a node's own, GRID_HI from the clamped replies);
 * jobs through the mailbox, payload whole after its halves, in order, never
 * more instructions at a node than its inst_depth, which a slow node fills
 * exactly; faults that leave no signal counted from PROG_CRED; a hung node
 * after a timeout, its late signals kept out of the books; the TX FIFO
 * holding a timed-out job's flits wedges the mesh.
 */
#include "check.h"
#include "core_rig.h"
#include "harness.h"

CHECK_FIXTURE(core)

static u32 mesh_flags(struct rig *r)
{
	struct drm_kohaku_get_info info;

	return rig_info(r, &info) ? 0 : info.mesh[0].flags;
}

/*
 * Where XY routing takes a request for (x,y) off a grid of routers 1..hi
 * (kohakutpu.md 6): the nearest router, then one outward hop, west >
 * east > north > south.
 */
static void clamp_all(struct fake_card *fc, unsigned int hi)
{
	unsigned int x, y, cx, cy, px, py;

	for (y = 0; y < 16; y++) {
		for (x = 0; x < 16; x++) {
			cx = x < 1 ? 1 : x > hi ? hi : x;
			cy = y < 1 ? 1 : y > hi ? hi : y;
			if (x < 1)
				px = 0, py = cy;
			else if (x > hi)
				px = hi + 1, py = cy;
			else if (y < 1)
				px = cx, py = 0;
			else if (y > hi)
				px = cx, py = hi + 1;
			else
				continue;
			if (px != x || py != y)
				fake_clamp(fc, x, y, px, py);
		}
	}
}

/*
 * A rig_card() on a 32-bit path, every coordinate off its grid clamped as
 * the routers do (a card's probe asks them all).
 */
static struct fake_card *card32(unsigned int grid_hi, u16 depth)
{
	struct fake_card *fc = rig_card(grid_hi, depth);

	if (fc) {
		fake_set_ctrl32(fc);
		clamp_all(fc, grid_hi);
	}
	return fc;
}

TEST_F(core, bringup_on_a_shipped_caps_without_its_upper_half)
{
	struct drm_kohaku_get_info info;
	struct drm_kohaku_node nodes[8];
	struct fake_obs o;
	struct rig r;

	REQUIRE(rig_up(&r, card32(2, 8)) == 0);
	REQUIRE(rig_info(&r, &info) == 0);
	CHECK(info.caps & KOHAKU_CAP_CTRL32);
	CHECK(!(info.caps & KOHAKU_CAP_IRQ));
	CHECK_EQ(info.n_nodes, 4);
	CHECK_EQ(info.mesh[0].caps_reg >> 32, 0);
	CHECK_EQ(info.mesh[0].grid_lo, 1);
	CHECK_EQ(info.mesh[0].grid_hi, 2);
	CHECK_EQ(info.mesh[0].agent_x, 0);
	CHECK_EQ(info.mesh[0].agent_y, 1);
	CHECK_EQ(info.mesh[0].flags, KOHAKU_MESH_PRESENT | KOHAKU_MESH_READY);
	CHECK_EQ(rig_nodes(&r, nodes, 8), 4);
	/* every coordinate of 4-bit positions was asked but (0,0) */
	fake_observe(r.fc, &o);
	CHECK(o.ctrl_requests >= 16 * 16 - 1);
	CHECK_EQ(o.stage_writes, 0);
	CHECK_EQ(o.n_kicks, 0);
	rig_down(&r);
}

/*
 * Nodes on the north, east and south edges too, slow to answer: requests
 * clamped onto a node meet none of its own (the fake flags that), and the
 * nodes' answers for the coordinates beyond them give GRID_HI.
 */
TEST_F(core, wide_probe_keeps_clamped_requests_off_a_node)
{
	struct fake_card *fc = card32(2, 8);
	struct drm_kohaku_get_info info;
	struct drm_kohaku_node nodes[8];
	struct rig r;

	REQUIRE(fc);
	fake_node(fc, 1, 0, RIG_CAPS(8));
	fake_node(fc, 3, 1, RIG_CAPS(8));
	fake_node(fc, 2, 3, RIG_CAPS(8));
	/* slow to answer: a clamped request holds the slot a while */
	fake_reply_delay(fc, 1, 0, 50000);
	fake_reply_delay(fc, 3, 1, 50000);
	fake_reply_delay(fc, 2, 3, 50000);
	REQUIRE(rig_up(&r, fc) == 0);
	REQUIRE(rig_info(&r, &info) == 0);
	CHECK_EQ(info.n_nodes, 7);
	CHECK_EQ(info.mesh[0].grid_hi, 2);
	CHECK_EQ(rig_nodes(&r, nodes, 8), 7);
	CHECK_EQ(nodes[0].x, 1);
	CHECK_EQ(nodes[0].y, 0);
	CHECK_EQ(nodes[6].x, 2);
	CHECK_EQ(nodes[6].y, 3);
	rig_down(&r);
}

/*
 * Three programs through the mailbox: each node gets its instructions in
 * order, every payload word whole after its halves, the slow one never
 * more than its inst_depth of 8 outstanding and that many once; nothing
 * staged, nothing kicked.
 */
TEST_F(core, jobs_go_through_the_mailbox)
{
	struct rig_prog p[3] = {
		{ 1, 1, 0x81, 40 }, { 2, 1, 0x82, 40 }, { 1, 2, 0x83, 3 },
	};
	struct drm_kohaku_wait w;
	struct fake_node_obs no;
	struct fake_obs o;
	struct rig r;
	unsigned int i;

	REQUIRE(rig_up(&r, card32(2, 8)) == 0);
	fake_exec_ns(r.fc, 1, 1, 20000);
	CHECK_EQ(rig_run(&r, p, 3, &w), 0);
	rig_check_done(&w);
	for (i = 0; i < 3; i++)
		rig_check_received(&r, &p[i], 0);
	fake_node_observe(r.fc, 1, 1, &no);
	CHECK_EQ(no.max_outstanding, 8);
	fake_node_observe(r.fc, 2, 1, &no);
	CHECK(no.max_outstanding <= 8);
	fake_observe(r.fc, &o);
	CHECK_EQ(o.mbox_insts, 83);
	CHECK_EQ(o.n_kicks, 0);
	CHECK_EQ(o.stage_writes, 0);
	/* the counter of completions set to 0, once */
	REQUIRE(o.n_cred == 1);
	CHECK_EQ(o.cred[0].value, 0);
	/* a second job of the same: the known-zero halves are not written */
	CHECK_EQ(rig_run(&r, &p[2], 1, &w), 0);
	rig_check_done(&w);
	rig_check_received(&r, &p[2], 3);
	rig_down(&r);
}

/*
 * Faults whose SIG_FAULT is overwritten before any poll (the whole
 * program runs within one access step) are counted from PROG_CRED: it
 * counts the SIG_INST_COMPLETEs, so the non-last instructions that sent
 * none faulted.  A fault of the last one is seen in NODE_STATUS.
 */
TEST_F(core, faults_are_counted_from_the_completions)
{
	struct rig_prog a = { 2, 2, 0x91, 12 }, b = { 2, 1, 0x92, 3 };
	struct drm_kohaku_wait w;
	struct rig r;

	REQUIRE(rig_up(&r, card32(2, 16)) == 0);
	fake_exec_ns(r.fc, 2, 2, 1);
	fake_inst_sig(r.fc, 2, 2, 3, KH_SIG_FAULT, 0x77);
	fake_inst_sig(r.fc, 2, 2, 7, KH_SIG_FAULT, 0x77);
	CHECK_EQ(rig_run(&r, &a, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 2);
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(w.fault_x, 2);
	CHECK_EQ(w.fault_y, 2);

	fake_inst_sig(r.fc, 2, 1, 2, KH_SIG_FAULT, 0x66);
	CHECK_EQ(rig_run(&r, &b, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(w.fault_code, 0x66);
	rig_down(&r);
}

/*
 * A node stops after its first instruction: TIMEOUT, then HUNG a recovery
 * window later with what it was sent and never signalled; when it wakes,
 * its late SIG_INST_COMPLETE lands in a later job's counter and hides
 * none of that job's faults.
 */
TEST_F(core, timeout_then_hung_node_then_late_signals)
{
	struct rig_prog a = { 1, 1, 0xa1, 3 }, b = { 2, 1, 0xa2, 1 };
	struct rig_prog e = { 2, 2, 0xa3, 6 };
	struct drm_kohaku_node nodes[4];
	struct drm_kohaku_wait w;
	struct rig r;
	u64 ja, jb;

	REQUIRE(rig_up(&r, card32(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 1);
	REQUIRE(rig_submit(&r, &a, 1, 1, &ja) == 0);
	REQUIRE(rig_submit(&r, &b, 1, 0, &jb) == 0);
	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_TIMEOUT);
	CHECK(rig_logged(&r, "timed out: node (1,1) retired 1 of 3", NULL));
	fake_set_step(r.fc, 1000000);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);
	rig_check_done(&w);
	fake_set_step(r.fc, FAKE_STEP_NS);
	CHECK(rig_logged(&r, "node (1,1) is hung with 2 instructions outstanding", NULL));
	CHECK_EQ(rig_nodes(&r, nodes, 4), 4);
	CHECK_EQ(nodes[0].flags, KOHAKU_NODE_HUNG);
	CHECK_EQ(mesh_flags(&r), KOHAKU_MESH_PRESENT | KOHAKU_MESH_READY);

	/* it wakes: one SIG_INST_COMPLETE 2 us from now, while E faults once */
	fake_exec_ns(r.fc, 1, 1, 2000);
	fake_release(r.fc, 1, 1);
	fake_exec_ns(r.fc, 2, 2, 1000);
	fake_inst_sig(r.fc, 2, 2, 1, KH_SIG_FAULT, 0x44);
	CHECK_EQ(rig_run(&r, &e, 1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);
	rig_down(&r);
}

/*
 * The TX FIFO still holds a timed-out job's flits a recovery window later
 * (the fake's FIFO never drains while the test holds it): the mesh is
 * wedged, as with flits in the dispatcher.
 */
TEST_F(core, timeout_with_flits_held_in_tx_wedges_the_mesh)
{
	struct rig_prog a = { 1, 1, 0xb1, 4 }, b = { 2, 1, 0xb2, 1 };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 ja, jb;

	REQUIRE(rig_up(&r, card32(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 0);
	fake_tx_stuck(r.fc, true);
	REQUIRE(rig_submit(&r, &a, 1, 1, &ja) == 0);
	REQUIRE(rig_submit(&r, &b, 1, 0, &jb) == 0);
	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_TIMEOUT);
	fake_set_step(r.fc, 1000000);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_ABORTED);
	fake_set_step(r.fc, FAKE_STEP_NS);
	CHECK_EQ(mesh_flags(&r), KOHAKU_MESH_PRESENT | KOHAKU_MESH_WEDGED);
	CHECK(rig_logged(&r, "TX FIFO still holds flits", NULL));
	fake_tx_stuck(r.fc, false);
	rig_down(&r);
}

CHECK_TEST_MAIN
