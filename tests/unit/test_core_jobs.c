// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The job engine of driver/core against a scripted fake card: every state a
 * job can end in, and the recovery after a timeout, a hung node or a wedged
 * dispatcher (docs/driver-core.md "Dispatch and credit", "Timeouts and
 * recovery"; uapi/drm/kohaku_accel.h).  WAIT itself is test_core_wait.c.
 * The card runs routers 1..2 with a node of inst_depth 16 on each and the
 * agent at (0,1); an instruction takes 200 ns unless a test says otherwise.
 */
#include "check.h"
#include "core_rig.h"
#include "harness.h"

CHECK_FIXTURE(core)

#define LONG_MS		60000	/* a limit no test reaches */
#define WALL_MS		10000	/* how long a test waits for the worker */

static u32 mesh_flags(struct rig *r)
{
	struct drm_kohaku_get_info info;

	CHECK_EQ(rig_info(r, &info), 0);
	return info.mesh[0].flags;
}

TEST_F(core, job_goes_queued_running_done)
{
	struct rig_prog a = { 1, 1, 0x11, 3 }, b = { 2, 1, 0x22, 2 };
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;
	u64 ja, jb;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 0);	/* A runs until the test lets it finish */
	REQUIRE(rig_submit(&r, &a, 1, LONG_MS, &ja) == 0);
	REQUIRE(rig_submit(&r, &b, 1, LONG_MS, &jb) == 0);
	CHECK(ja && jb && ja != jb);
	REQUIRE(fake_wait_pushed(r.fc, 1, 1, 3, WALL_MS));

	CHECK_EQ(rig_wait(&r, ja, 0, &w), -ETIMEDOUT);
	CHECK_EQ(w.status, KOHAKU_JOB_RUNNING);
	CHECK_EQ(rig_wait(&r, jb, 0, &w), -ETIMEDOUT);
	CHECK_EQ(w.status, KOHAKU_JOB_QUEUED);

	fake_release(r.fc, 1, 1);
	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	rig_check_done(&w);
	CHECK(w.device_ns > 0);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);
	rig_check_done(&w);
	/* two instructions of 200 ns and the 2 us settle window, no more than setup */
	CHECK_MSG(w.device_ns >= 2 * 200 + KH_SETTLE_NS && w.device_ns < 20000,
		  "device_ns %llu", (unsigned long long)w.device_ns);

	rig_check_received(&r, &a, 0);
	rig_check_received(&r, &b, 0);
	fake_observe(r.fc, &o);
	CHECK_EQ(o.n_kicks, 2);
	CHECK_EQ(o.kick[0].dst, KH_YX(1, 1));
	CHECK_EQ(o.kick[0].len, 3);
	CHECK_EQ(o.kick[1].dst, KH_YX(2, 1));
	CHECK_EQ(o.kick[1].len, 2);
	/* credit is seeded once per job, with the target's inst_depth */
	CHECK_EQ(o.n_cred, 2);
	CHECK_EQ(o.cred[0].value, 16);
	CHECK_EQ(o.cred[1].value, 16);
	rig_down(&r);
}

TEST_F(core, job_reports_its_device_time)
{
	struct rig_prog p = { 2, 2, 0x12, 4 };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_exec_ns(r.fc, 2, 2, 50000);
	REQUIRE(rig_submit(&r, &p, 1, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	rig_check_done(&w);
	CHECK_MSG(w.device_ns >= 4 * 50000 + KH_SETTLE_NS &&
		  w.device_ns < 4 * 50000 + 20000,
		  "device_ns %llu", (unsigned long long)w.device_ns);
	rig_down(&r);
}

/*
 * A driver bound before left PROG_BASE pointing at its own staged flits:
 * the first chunk, at slot 0, must still write it (the registers hold what
 * the last host wrote, not zero).
 */
TEST_F(core, the_first_kick_writes_every_prog_register)
{
	struct rig_prog p = { 2, 2, 0x12, 3 };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_prog_regs(r.fc, KH_YX(1, 1), 64, 3);
	REQUIRE(rig_submit(&r, &p, 1, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	rig_check_done(&w);
	rig_down(&r);
}

/* The last instruction faults: the core saw it, so node and code are known. */
TEST_F(core, fault_on_the_last_instruction_is_reported_with_node_and_code)
{
	struct rig_prog p[2] = { { 1, 1, 0x21, 2 }, { 1, 2, 0x22, 3 } };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_inst_sig(r.fc, 1, 2, 2, KH_SIG_FAULT, 0xbeef);
	REQUIRE(rig_submit(&r, p, 2, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(w.fault_mesh, 0);
	CHECK_EQ(w.fault_x, 1);
	CHECK_EQ(w.fault_y, 2);
	CHECK_EQ(w.fault_code, 0xbeef);
	CHECK_EQ(w.n_faults, 1);
	rig_down(&r);
}

/*
 * An earlier instruction faults: it returns no credit, so the core counts
 * it from PROG_CRED at the end even when later signals overwrote the
 * SIG_FAULT in NODE_STATUS before any poll saw it.
 */
TEST_F(core, fault_on_an_earlier_instruction_is_counted_from_credit)
{
	struct rig_prog hidden = { 2, 2, 0x31, 3 }, seen = { 2, 1, 0x32, 3 };
	struct rig_prog two[2] = { { 1, 1, 0x33, 2 }, { 1, 2, 0x34, 1 } };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);

	/* all three signal within 40 ns of the kick: the core sees only the last */
	fake_exec_ns(r.fc, 2, 2, 5);
	fake_inst_sig(r.fc, 2, 2, 0, KH_SIG_FAULT, 0x77);
	REQUIRE(rig_submit(&r, &hidden, 1, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);
	/* one target: the node is known; its code is not */
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(w.fault_mesh, 0);
	CHECK_EQ(w.fault_x, 2);
	CHECK_EQ(w.fault_y, 2);
	CHECK_EQ(w.fault_code, 0);

	/* the next instruction takes 100 us: the core's polls see the fault */
	fake_inst_sig(r.fc, 2, 1, 0, KH_SIG_FAULT, 0x78);
	fake_inst_ns(r.fc, 2, 1, 1, 100000);
	REQUIRE(rig_submit(&r, &seen, 1, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);	/* seen and counted, once */
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(w.fault_x, 2);
	CHECK_EQ(w.fault_y, 1);
	CHECK_EQ(w.fault_code, 0x78);

	/* hidden on one of two targets: counted, but neither node nor code known */
	fake_exec_ns(r.fc, 1, 1, 5);
	fake_inst_sig(r.fc, 1, 1, 0, KH_SIG_FAULT, 0x79);
	REQUIRE(rig_submit(&r, two, 2, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);
	CHECK_EQ(w.fault_flags, 0);
	CHECK_EQ(w.fault_mesh, KOHAKU_COORD_NONE);
	CHECK_EQ(w.fault_x, KOHAKU_COORD_NONE);
	CHECK_EQ(w.fault_code, 0);
	rig_down(&r);
}

/*
 * NODE_STATUS keeps a node's last signal across jobs (and mesh resets):
 * while a slow job's first instruction runs, the core's polls see the
 * SIG_FAULT an earlier program left there, which is not this job's.
 */
TEST_F(core, a_fault_left_in_the_mirror_is_not_the_jobs)
{
	struct rig_prog p = { 2, 2, 0x35, 2 };
	struct drm_kohaku_wait w;
	struct rig r;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_node_status(r.fc, 2, 2, ((u64)KH_SIG_FAULT << 56) |
			 (0xdeadULL << 24) | (5ULL << 8) | KH_NS_VALID);
	fake_exec_ns(r.fc, 2, 2, 20000);
	CHECK_EQ(rig_run(&r, &p, 1, &w), 0);
	rig_check_done(&w);
	rig_down(&r);
}

TEST_F(core, out_of_protocol_completion_is_an_error)
{
	struct rig_prog wrong_txn = { 1, 1, 0x41, 2 }, no_batch = { 2, 1, 0x42, 1 };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_inst_sig(r.fc, 1, 1, 1, KH_SIG_BATCH_COMPLETE, 0x40);
	REQUIRE(rig_submit(&r, &wrong_txn, 1, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_ERROR);
	CHECK(rig_logged(&r, "SIG_BATCH_COMPLETE with another program's txn", NULL));

	/* the last instruction signals a plain INST_COMPLETE */
	fake_inst_sig(r.fc, 2, 1, 0, KH_SIG_INST_COMPLETE, 0);
	REQUIRE(rig_submit(&r, &no_batch, 1, 0, &j) == 0);
	CHECK_EQ(rig_wait_final(&r, j, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_ERROR);
	CHECK(rig_logged(&r, "was not a completion", NULL));
	rig_down(&r);
}

/* A slow job times out, drains within the recovery window: nobody is hung. */
TEST_F(core, timeout_then_drain_keeps_the_node)
{
	struct rig_prog slow = { 1, 1, 0x51, 2 }, next = { 1, 1, 0x52, 1 };
	struct drm_kohaku_node nodes[4];
	struct drm_kohaku_wait w;
	struct rig r;
	u64 j1, j2;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_inst_ns(r.fc, 1, 1, 0, 3000000);
	REQUIRE(rig_submit(&r, &slow, 1, 1, &j1) == 0);
	REQUIRE(rig_submit(&r, &next, 1, 0, &j2) == 0);
	CHECK_EQ(rig_wait_final(&r, j1, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_TIMEOUT);
	CHECK_MSG(w.device_ns >= 1000000 && w.device_ns < 1000000 + 20000,
		  "device_ns %llu", (unsigned long long)w.device_ns);
	CHECK_EQ(rig_wait_final(&r, j2, &w), 0);
	rig_check_done(&w);
	CHECK(rig_logged(&r, "drained after its timeout", NULL));
	CHECK_EQ(rig_nodes(&r, nodes, 4), 4);
	CHECK_EQ(nodes[0].flags, 0);
	rig_down(&r);
}

/*
 * A node never finishes: the job is TIMEOUT at its timeout_ms of device
 * time, the node HUNG one recovery window later; a job queued for it
 * meanwhile is ABORTED, a new one refused, and its outstanding instructions
 * stay out of every later seed, so that when it wakes up after all, its
 * late credit overcommits nobody.
 */
TEST_F(core, timeout_then_hung_node)
{
	struct rig_prog a = { 1, 1, 0x61, 3 }, b = { 1, 1, 0x62, 1 };
	struct rig_prog c = { 2, 1, 0x63, 1 }, e = { 2, 1, 0x64, 40 };
	struct drm_kohaku_node nodes[4];
	struct fake_node_obs no;
	struct drm_kohaku_wait w;
	struct fake_obs o;
	struct rig r;
	u64 ja, jb, jc, je;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 1);	/* retires instruction 0, then nothing */
	REQUIRE(rig_submit(&r, &a, 1, 1, &ja) == 0);
	REQUIRE(rig_submit(&r, &b, 1, 0, &jb) == 0);
	REQUIRE(rig_submit(&r, &c, 1, 0, &jc) == 0);

	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_TIMEOUT);
	CHECK_MSG(w.device_ns >= 1000000 && w.device_ns < 1000000 + 20000,
		  "device_ns %llu", (unsigned long long)w.device_ns);
	CHECK(rig_logged(&r, "timed out: node (1,1) retired 1 of 3", NULL));
	/* WAIT names the node that had not finished */
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(w.fault_mesh, 0);
	CHECK_EQ(w.fault_x, 1);
	CHECK_EQ(w.fault_y, 1);
	CHECK_EQ(w.n_faults, 0);

	/* the recovery window is a second of device time: let it pass quickly */
	fake_set_step(r.fc, 1000000);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_ABORTED);
	CHECK_EQ(rig_wait_final(&r, jc, &w), 0);
	rig_check_done(&w);
	fake_set_step(r.fc, FAKE_STEP_NS);
	CHECK(rig_logged(&r, "node (1,1) is hung with 2 instructions outstanding", NULL));
	fake_observe(r.fc, &o);
	CHECK_EQ(o.n_kicks, 2);			/* A and C; B never went out */
	CHECK_EQ(o.cred[o.n_cred - 1].value, 16 - 2);

	CHECK_EQ(rig_submit(&r, &b, 1, 0, NULL), -EIO);
	CHECK_EQ(rig_nodes(&r, nodes, 4), 4);
	CHECK_EQ(nodes[0].flags, KOHAKU_NODE_HUNG);
	CHECK_EQ(nodes[1].flags, 0);
	CHECK_EQ(mesh_flags(&r), KOHAKU_MESH_PRESENT | KOHAKU_MESH_READY);

	/*
	 * It wakes: one more SIG_INST_COMPLETE (a credit) lands 2 us from now,
	 * while E runs with 14 of (2,1)'s 16 entries seeded.
	 */
	fake_exec_ns(r.fc, 1, 1, 2000);
	fake_release(r.fc, 1, 1);
	REQUIRE(rig_submit(&r, &e, 1, 0, &je) == 0);
	CHECK_EQ(rig_wait_final(&r, je, &w), 0);
	rig_check_done(&w);
	fake_node_observe(r.fc, 2, 1, &no);
	CHECK_EQ(no.max_outstanding, 15);
	rig_down(&r);
}

/*
 * A job after a node was declared hung has a non-last instruction fault,
 * its SIG_FAULT overwritten before any poll (the whole program runs within
 * one access step): the fault is known only from the credit it did not
 * return.  Once without, once with the hung node waking up meanwhile and
 * returning one credit of the earlier job's.  The docs: the counter is
 * exactly seed - lasts - faults since the seed, the verdict is FAULT when
 * any fault was counted, and n_faults counts the instructions that raised
 * SIG_FAULT.
 */
TEST_F(core, late_credit_from_a_woken_node_hides_no_fault)
{
	struct rig_prog a = { 1, 1, 0xa1, 3 }, b = { 2, 1, 0xa2, 1 };
	struct rig_prog e0 = { 2, 2, 0xa3, 14 }, e = { 2, 1, 0xa4, 14 };
	struct drm_kohaku_wait w;
	struct rig r;
	u64 ja, jb;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 1);
	REQUIRE(rig_submit(&r, &a, 1, 1, &ja) == 0);
	REQUIRE(rig_submit(&r, &b, 1, 0, &jb) == 0);
	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_TIMEOUT);
	fake_set_step(r.fc, 1000000);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);	/* after (1,1) is hung */
	rig_check_done(&w);
	fake_set_step(r.fc, FAKE_STEP_NS);
	REQUIRE(rig_logged(&r, "node (1,1) is hung with 2", NULL));

	/* 14 instructions within the seed of 14; the sixth faults, unseen */
	fake_exec_ns(r.fc, 2, 2, 5);
	fake_inst_sig(r.fc, 2, 2, 5, KH_SIG_FAULT, 0x99);
	CHECK_EQ(rig_submit(&r, &e0, 1, 0, &ja), 0);
	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN);

	/* the same, while (1,1) returns one SIG_INST_COMPLETE 2 us from now */
	fake_exec_ns(r.fc, 1, 1, 2000);
	fake_release(r.fc, 1, 1);
	fake_exec_ns(r.fc, 2, 1, 5);
	fake_inst_sig(r.fc, 2, 1, 1 + 5, KH_SIG_FAULT, 0x99);
	CHECK_EQ(rig_submit(&r, &e, 1, 0, &jb), 0);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(w.n_faults, 1);
	CHECK_EQ(w.fault_flags, KOHAKU_FAULT_NODE_KNOWN);
	rig_down(&r);
}

/* The dispatcher holds flits for a node that never answers: the mesh is lost. */
TEST_F(core, timeout_with_flits_in_the_dispatcher_wedges_the_mesh)
{
	struct rig_prog a = { 1, 1, 0x71, 24 }, b = { 2, 1, 0x72, 1 };
	struct fake_node_obs no;
	struct drm_kohaku_wait w;
	struct rig r;
	u64 ja, jb;

	REQUIRE(rig_up(&r, rig_card(2, 16)) == 0);
	fake_hang(r.fc, 1, 1, 0);
	REQUIRE(rig_submit(&r, &a, 1, 1, &ja) == 0);
	REQUIRE(rig_submit(&r, &b, 1, 0, &jb) == 0);
	CHECK_EQ(rig_wait_final(&r, ja, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_TIMEOUT);
	fake_node_observe(r.fc, 1, 1, &no);
	CHECK_EQ(no.pushed, 16);	/* the seed, then credit 0 with 8 left */

	fake_set_step(r.fc, 1000000);
	CHECK_EQ(rig_wait_final(&r, jb, &w), 0);
	CHECK_EQ(w.status, KOHAKU_JOB_ABORTED);
	fake_set_step(r.fc, FAKE_STEP_NS);
	CHECK_EQ(mesh_flags(&r), KOHAKU_MESH_PRESENT | KOHAKU_MESH_WEDGED);
	CHECK(rig_logged(&r, "mesh 0 is wedged", NULL));
	CHECK_EQ(rig_submit(&r, &b, 1, 0, NULL), -EIO);
	rig_down(&r);
}

CHECK_TEST_MAIN
