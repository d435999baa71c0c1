// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Bring-up of the driver core on a scripted fake card: CAPS, enumeration
 * through the mailbox with many CU_CTRL reads in flight, the agent found by
 * its self-echo, and every way a coordinate can fail to be a node
 * (docs/driver-core.md "Bring-up", kohakutpu.md 3, 4.2 and 12.1).
 */
#include "check.h"
#include "core_rig.h"
#include "harness.h"

CHECK_FIXTURE(core)

#define MG	0x4d47
#define VC	0x5643
#define SX	0x5358

#define CAPS_1_2	(KH_FLIT_WIDTH | ((u64)KH_POS_WIDTH << 16) | (1ULL << 24) | (2ULL << 32))

static void check_node(const struct drm_kohaku_node *n, unsigned int x,
		       unsigned int y, u64 caps)
{
	CHECK_EQ(n->mesh, 0);
	CHECK_EQ(n->x, x);
	CHECK_EQ(n->y, y);
	CHECK_EQ(n->caps_reg, caps);
	CHECK_EQ(n->cu_type, (caps >> KH_CAPS_CU_TYPE_SHIFT) & KH_CAPS_CU_TYPE_MASK);
	CHECK_EQ(n->cu_version, (caps >> KH_CAPS_VERSION_SHIFT) & KH_CAPS_VERSION_MASK);
	CHECK_EQ(n->n_buffers, (caps >> KH_CAPS_NBUF_SHIFT) & KH_CAPS_NBUF_MASK);
	CHECK_EQ(n->inst_depth, (caps >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK);
	CHECK_EQ(n->flags, 0);
}

/*
 * Grid 1..2, span 0..3: nodes on the four routers and on the east edge
 * port (3,2); memory ports echoing at (0,1) and (0,2); the corners (0,0)
 * and (3,3) clamped onto the ports beside them (never asked: a corner has
 * no port of its own).  Replies come back in the reverse order of the
 * requests.
 */
TEST_F(core, bringup_finds_the_declared_nodes)
{
	static const struct { u8 x, y; u64 caps; } want[] = {
		{ 1, 1, 0 }, { 2, 1, 0 }, { 1, 2, 0 }, { 2, 2, 0 }, { 3, 2, 0 },
	};
	struct fake_card *fc = fake_card_create(1, 2);
	u64 caps[5] = {
		fake_caps(MG, 4, 3, 16), fake_caps(MG, 4, 3, 16),
		fake_caps(VC, 4, 2, 32), fake_caps(VC, 4, 2, 8),
		fake_caps(SX, 4, 1, 16),
	};
	struct drm_kohaku_get_info info;
	struct drm_kohaku_node nodes[8];
	struct fake_obs o;
	struct rig r;
	unsigned int i;

	REQUIRE(fc);
	/* declared out of order: the table must come out y then x */
	for (i = 5; i-- > 0;) {
		fake_node(fc, want[i].x, want[i].y, caps[i]);
		fake_regs(fc, want[i].x, want[i].y,
			  (u64)(10 + i) << KH_STATUS_SPACE_SHIFT,
			  ((u64)(100 + i) << KH_CTR_RETIRED_SHIFT) | (1000 + i),
			  0xdb000000ULL + i);
		fake_reply_delay(fc, want[i].x, want[i].y, 5000 - 1000 * i);
	}
	fake_echo(fc, 0, 1);
	fake_echo(fc, 0, 2);
	fake_clamp(fc, 0, 0, 0, 1);
	fake_clamp(fc, 3, 3, 3, 2);
	REQUIRE(rig_up(&r, fc) == 0);

	fake_observe(fc, &o);
	/*
	 * 12 edge and inner coordinates together (corners have no port), 5
	 * confirmations, 5 CU_STATUS reads (is anything left running?)
	 */
	CHECK_EQ(o.ctrl_requests, 12 + 5 + 5);
	CHECK_MSG(o.ctrl_max_inflight > 1 && o.ctrl_max_inflight <= KH_CTRL_INFLIGHT,
		  "%u CU_CTRL in flight at most", o.ctrl_max_inflight);
	/*
	 * a CAPS request is its header word and the kick; a CU_STATUS one
	 * word 3 too (its index); a CAPS reply is words 3 and 4, a STATUS
	 * reply words 2 to 4
	 */
	for (i = 0; i < 3; i++)
		CHECK_MSG(o.tx_flit_writes[i] <= 1, "TX_FLIT[%u] written %u times",
			  i, o.tx_flit_writes[i]);
	CHECK_MSG(o.tx_flit_writes[3] <= 1 + 5, "TX_FLIT[3] written %u times",
		  o.tx_flit_writes[3]);
	CHECK_EQ(o.tx_flit_writes[4], o.ctrl_requests);
	for (i = 0; i < 2; i++)
		CHECK_EQ(o.rx_flit_reads[i], 0);
	CHECK_EQ(o.rx_flit_reads[2], 5);
	/* 7 answer or echo in the span, 5 confirm, 5 status: each read once */
	CHECK_EQ(o.rx_flit_reads[3], 17);
	CHECK_EQ(o.rx_flit_reads[4], 17);

	CHECK_EQ(rig_info(&r, &info), 0);
	CHECK_EQ(info.n_meshes, 1);
	CHECK_EQ(info.n_nodes, 5);
	CHECK_EQ(info.mesh[0].flags, KOHAKU_MESH_PRESENT | KOHAKU_MESH_READY);
	CHECK_EQ(info.mesh[0].n_nodes, 5);
	CHECK_EQ(info.mesh[0].caps_reg, CAPS_1_2);
	CHECK_EQ(info.mesh[0].grid_lo, 1);
	CHECK_EQ(info.mesh[0].grid_hi, 2);
	CHECK_EQ(info.mesh[0].pos_width, 4);
	CHECK_EQ(info.mesh[0].flit_width, 288);
	/* the lowest echoing west-edge port, not the corner clamped onto it */
	CHECK_EQ(info.mesh[0].agent_x, 0);
	CHECK_EQ(info.mesh[0].agent_y, 1);
	CHECK_EQ(info.mesh[0].cu_version, 4);
	CHECK_EQ(info.mesh[0].min_inst_depth, 8);
	for (i = 1; i < KOHAKU_MAX_MESHES; i++)
		CHECK_EQ(info.mesh[i].flags, 0);

	/* NODES reads the status registers at first use, pipelined */
	CHECK_EQ(rig_nodes(&r, nodes, 8), 5);
	for (i = 0; i < 5; i++) {
		check_node(&nodes[i], want[i].x, want[i].y, caps[i]);
		CHECK_EQ(nodes[i].busy, 0);
		CHECK_EQ(nodes[i].inst_space, 10 + i);
		CHECK_EQ(nodes[i].retired, 100 + i);
		CHECK_EQ(nodes[i].busy_cycles, 1000 + i);
		CHECK_EQ(nodes[i].dbg, 0xdb000000ULL + i);
	}
	fake_observe(fc, &o);
	CHECK_EQ(o.ctrl_requests, 22 + 3 * 5);
	rig_down(&r);
}

/*
 * Grid 1..3, span 0..4.  Of the nine routers only (1,1), (2,3) and (3,3)
 * answer as nodes should; the edge port (4,3) is a node too, with the
 * corner (4,4) clamped onto it.
 */
TEST_F(core, bringup_leaves_out_what_does_not_answer_right)
{
	struct fake_card *fc = fake_card_create(1, 3);
	struct drm_kohaku_get_info info;
	struct drm_kohaku_node nodes[8];
	unsigned int x, y;
	struct fake_obs o;
	struct rig r;

	REQUIRE(fc);
	for (y = 1; y <= 3; y++)
		for (x = 1; x <= 3; x++)
			fake_node(fc, x, y, fake_caps(MG, 4, 3, 8 * (x + y)));
	fake_node(fc, 4, 3, fake_caps(SX, 4, 1, 4));
	fake_echo(fc, 0, 1);
	fake_clamp(fc, 0, 0, 0, 1);
	fake_clamp(fc, 4, 4, 4, 3);
	/* the confirming read disagrees */
	fake_caps_later(fc, 2, 1, fake_caps(MG, 4, 3, 7));
	/* the first reply is lost: an empty coordinate, as far as anyone knows */
	fake_reply(fc, 3, 1, 0, FAKE_REPLY_LOSE);
	/* the confirming reply is lost */
	fake_reply(fc, 1, 2, 1, FAKE_REPLY_LOSE);
	/* the first reply is damaged: another txn */
	fake_reply(fc, 2, 2, 0, FAKE_REPLY_BAD_TXN);
	/* the first reply names another source */
	fake_reply(fc, 3, 2, 0, FAKE_REPLY_BAD_SRC);
	fake_reply_src(fc, 3, 2, 9, 9);
	/* the first reply comes after the core's 100 us */
	fake_reply_delay(fc, 1, 3, 150000);
	REQUIRE(rig_up(&r, fc) == 0);

	CHECK_EQ(rig_info(&r, &info), 0);
	CHECK_EQ(info.n_nodes, 4);
	CHECK_EQ(info.mesh[0].flags, KOHAKU_MESH_PRESENT | KOHAKU_MESH_READY);
	CHECK_EQ(info.mesh[0].agent_x, 0);
	CHECK_EQ(info.mesh[0].agent_y, 1);
	CHECK_EQ(info.mesh[0].min_inst_depth, 4);
	CHECK_EQ(rig_nodes(&r, nodes, 8), 4);
	check_node(&nodes[0], 1, 1, fake_caps(MG, 4, 3, 16));
	check_node(&nodes[1], 2, 3, fake_caps(MG, 4, 3, 40));
	check_node(&nodes[2], 3, 3, fake_caps(MG, 4, 3, 48));
	check_node(&nodes[3], 4, 3, fake_caps(SX, 4, 1, 4));

	/* what could not be trusted is reported; an unanswered coordinate is not */
	CHECK(rig_logged(&r, "node (2,1) CU_CAPS", "not confirmed"));
	CHECK(rig_logged(&r, "node (1,2) CU_CAPS", "not confirmed"));
	CHECK(rig_logged(&r, "node (2,2) answered CU_CTRL", NULL));
	CHECK(!rig_logged(&r, "(3,1)", NULL));
	CHECK(!rig_logged(&r, "(4,4)", NULL));

	fake_observe(fc, &o);
	CHECK_MSG(o.ctrl_max_inflight > 1, "at most %u CU_CTRL in flight",
		  o.ctrl_max_inflight);
	rig_down(&r);
}

/* A late reply holds its node's slot: no second request until it is drained. */
TEST_F(core, mailbox_waits_for_a_late_reply_before_asking_again)
{
	struct fake_card *fc = fake_card_create(1, 1);
	struct drm_kohaku_nodes a = { 0 };
	struct drm_kohaku_node n;
	struct fake_obs o;
	unsigned int before;
	struct rig r;

	REQUIRE(fc);
	fake_node(fc, 1, 1, fake_caps(SX, 4, 1, 16));
	fake_regs(fc, 1, 1, 7ULL << KH_STATUS_SPACE_SHIFT, 42ULL << 32, 99);
	fake_echo(fc, 0, 1);
	REQUIRE(rig_up(&r, fc) == 0);
	a.flags = KOHAKU_NODES_LIVE;
	a.capacity = 1;
	a.node_size = sizeof(n);
	a.nodes_ptr = (uintptr_t)&n;

	/* CU_STATUS answers after the 100 us the core waits */
	fake_reply_delay(fc, 1, 1, 150000);
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), -ETIMEDOUT);
	fake_observe(fc, &o);
	before = o.ctrl_requests;
	/* the reply is still on its way: the core must not ask the node again */
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), -EBUSY);
	CHECK(rig_logged(&r, "node (1,1) never answered CU_CTRL", NULL));
	fake_observe(fc, &o);
	CHECK_EQ(o.ctrl_requests, before);

	/* once it has come and been drained the node is asked again */
	fake_reply_delay(fc, 1, 1, 1000);
	fake_jump(fc, 100000);
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), 0);
	CHECK_EQ(n.inst_space, 7);
	CHECK_EQ(n.retired, 42);
	CHECK_EQ(n.dbg, 99);

	/* a damaged reply frees the node's slot at once: the next read goes out */
	fake_reply(fc, 1, 1, 7, FAKE_REPLY_BAD_TXN);	/* bring-up's CU_STATUS counts */
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), -EBADMSG);
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), 0);
	CHECK_EQ(n.inst_space, 7);
	rig_down(&r);
}

/*
 * A reply 100 ms late keeps its txn out of use: 300 more requests to the
 * other node wrap the 8-bit txn, and none of them may carry the txn the
 * late reply will come back with (the fake card checks every request).
 */
TEST_F(core, mailbox_keeps_the_txn_of_a_late_reply_out_of_use)
{
	struct fake_card *fc = fake_card_create(1, 1);
	struct drm_kohaku_nodes a = { 0 };
	struct drm_kohaku_node n[2];
	struct fake_obs o;
	unsigned int i, before;
	struct rig r;

	REQUIRE(fc);
	fake_node(fc, 1, 1, fake_caps(SX, 4, 1, 16));
	fake_node(fc, 2, 1, fake_caps(SX, 4, 1, 16));	/* the east edge port */
	fake_regs(fc, 1, 1, 3ULL << KH_STATUS_SPACE_SHIFT, 0, 0);
	fake_regs(fc, 2, 1, 4ULL << KH_STATUS_SPACE_SHIFT, 0, 0);
	fake_echo(fc, 0, 1);
	REQUIRE(rig_up(&r, fc) == 0);
	a.flags = KOHAKU_NODES_LIVE;
	a.capacity = 2;
	a.node_size = sizeof(n[0]);
	a.nodes_ptr = (uintptr_t)n;

	fake_reply_delay(fc, 2, 1, 100000000);
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), -ETIMEDOUT);
	fake_observe(fc, &o);
	before = o.ctrl_requests;
	for (i = 0; i < 100; i++)
		CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), -EBUSY);
	fake_observe(fc, &o);
	CHECK_EQ(o.ctrl_requests - before, 3 * 100);	/* (1,1) only */
	CHECK(fake_now(fc) < 100000000);

	/* the late reply arrives and is drained: both nodes answer again */
	fake_reply_delay(fc, 2, 1, 1000);
	fake_jump(fc, 100000000);
	CHECK_EQ(kh_ioctl_call(r.kf, DRM_KOHAKU_NODES, &a), 0);
	CHECK_EQ(n[0].inst_space, 3);
	CHECK_EQ(n[1].inst_space, 4);
	rig_down(&r);
}

/*
 * Work left on a unit from before the driver (the card has no soft reset):
 * bring-up waits for it, and a unit busy past the wait is hung, not handed
 * to this driver's jobs.
 */
TEST_F(core, bringup_waits_out_work_left_from_before)
{
	struct fake_card *fc = fake_card_create(1, 1);
	struct drm_kohaku_node nodes[4];
	struct rig r;
	unsigned int i, n;

	REQUIRE(fc);
	fake_node(fc, 1, 0, fake_caps(SX, 4, 1, 16));
	fake_node(fc, 1, 2, fake_caps(SX, 4, 1, 16));
	/* (1,2) is still busy, 3 instructions queued, and stays so */
	fake_regs(fc, 1, 2, KH_STATUS_BUSY | (13ULL << KH_STATUS_SPACE_SHIFT), 0, 0);
	fake_regs(fc, 1, 0, 16ULL << KH_STATUS_SPACE_SHIFT, 0, 0);
	fake_echo(fc, 0, 1);
	REQUIRE(rig_up(&r, fc) == 0);
	CHECK(rig_logged(&r, "still busy with work from before this driver", NULL));
	CHECK(rig_logged(&r, "node (1,2) is still busy after 100 ms", NULL));
	n = rig_nodes(&r, nodes, 4);
	REQUIRE(n == 2);
	for (i = 0; i < n; i++)
		CHECK_EQ(!!(nodes[i].flags & KOHAKU_NODE_HUNG), nodes[i].y == 2);
	rig_down(&r);
}

TEST_F(core, bringup_refuses_mixed_versions)
{
	struct fake_card *fc = fake_card_create(1, 2);
	struct drm_kohaku_get_info info;
	struct rig_prog p = { 1, 1, 0x10, 1 };
	struct rig r;

	REQUIRE(fc);
	fake_node(fc, 1, 1, fake_caps(MG, 4, 3, 16));
	fake_node(fc, 2, 2, fake_caps(VC, 3, 2, 16));
	fake_echo(fc, 0, 1);
	REQUIRE(rig_up(&r, fc) == 0);
	CHECK_EQ(rig_info(&r, &info), 0);
	CHECK_EQ(info.n_nodes, 2);
	CHECK_EQ(info.mesh[0].flags, KOHAKU_MESH_PRESENT | KOHAKU_MESH_MIXED_VERSION);
	CHECK(rig_logged(&r, "node (2,2) has cu_version 3", NULL));
	CHECK_EQ(rig_submit(&r, &p, 1, 0, NULL), -EIO);
	rig_down(&r);
}

/* A program still running from before the driver: the mailbox is unusable. */
TEST_F(core, bringup_finds_the_dispatcher_stuck)
{
	struct fake_card *fc = rig_card(1, 16);
	struct drm_kohaku_get_info info;
	struct fake_obs o;
	struct rig r;

	REQUIRE(fc);
	fake_stuck_dispatcher(fc, 5);
	REQUIRE(rig_up(&r, fc) == 0);
	CHECK_EQ(rig_info(&r, &info), 0);
	CHECK_EQ(info.mesh[0].flags, KOHAKU_MESH_PRESENT | KOHAKU_MESH_WEDGED);
	CHECK_EQ(info.n_nodes, 0);
	CHECK(rig_logged(&r, "stuck in the dispatcher (5 flits left", NULL));
	fake_observe(fc, &o);
	CHECK_EQ(o.ctrl_requests, 0);
	rig_down(&r);
}

TEST_F(core, probe_refuses_a_card_without_mesh_0)
{
	struct fake_card *fc = fake_card_create(0, 2);	/* GRID_LO 0: not valid */
	struct kh_device *kd = NULL;
	struct device *od = kh_os_dev_create("fake");
	struct kh_hw hw;

	REQUIRE(fc && od);
	fake_card_hw(fc, &hw);
	CHECK_EQ(kh_device_probe(&hw, od, "fake", &kd), -ENODEV);
	CHECK(kd == NULL);
	kh_os_dev_destroy(od);
	fake_card_destroy(fc);
}

CHECK_TEST_MAIN
