// SPDX-License-Identifier: GPL-2.0 OR MIT
/* GET_INFO and NODES: the capability query and the exact node table. */
#include <string.h>

#include "rt_test.h"
#include "kohaku/kh_pool.h"
#include "kohaku/kh_regs.h"

TEST_F(rt, get_info_abi_and_caps)
{
	struct drm_kohaku_get_info in;
	RT_OPEN(dev);

	memset(&in, 0xcc, sizeof(in));
	in.flags = 0;
	memset(in.reserved, 0, sizeof(in.reserved));
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
	CHECK_EQ(KOHAKU_ABI_VERSION_MAJOR(in.abi_version), KOHAKU_ABI_MAJOR);
	CHECK_EQ(in.abi_version, KOHAKU_ABI_VERSION);
	/* both backends run the device model here; on PCI it is a card */
	CHECK_EQ(!!(in.caps & KOHAKU_CAP_SIMULATED), rt_simulated());
	CHECK(in.caps & KOHAKU_CAP_DMA);
	CHECK(in.caps & KOHAKU_CAP_FENCES);
	CHECK(in.caps & KOHAKU_CAP_JOB_DATA);
	CHECK(in.caps & KOHAKU_CAP_JOB_BOS);
	CHECK(in.caps & KOHAKU_CAP_LEASE);
	/* ABI 0.9: fixed BOs and peer signals work on every card */
	CHECK(in.caps & KOHAKU_CAP_BO_FIXED);
	CHECK(in.caps & KOHAKU_CAP_PEER_SIGNALS);
	/* firmware: exactly when the card has POOL units */
	CHECK_EQ(!!(in.caps & KOHAKU_CAP_FIRMWARE), rt_map_count(rt_map(), KH_CU_GP) > 0);
	CHECK_EQ(in.caps & ~(KOHAKU_CAP_SIMULATED | KOHAKU_CAP_DMA | KOHAKU_CAP_IRQ |
			     KOHAKU_CAP_FENCES | KOHAKU_CAP_FIRMWARE |
			     KOHAKU_CAP_JOB_DATA | KOHAKU_CAP_CTRL32 |
			     KOHAKU_CAP_JOB_BOS | KOHAKU_CAP_LEASE |
			     KOHAKU_CAP_BO_FIXED | KOHAKU_CAP_PEER_SIGNALS), 0);
	/* in-process, the 32-bit control path is KOHAKU_SIM_CTRL's to choose */
	if (kohaku_device_backend(dev) == KOHAKU_BACKEND_SIM)
		CHECK_EQ(!!(in.caps & KOHAKU_CAP_CTRL32), rt_ctrl32_env());
	/*
	 * job events by interrupt only where CAPS says the addon is there: on
	 * a 32-bit path the addon's orchestrator answers at CAPS + 4
	 * (irq-addon.md "Discovery"), the shipped one reads 0 there
	 */
	if (in.caps & KOHAKU_CAP_IRQ)
		CHECK(in.mesh[0].caps_reg & KH_CAPS_IRQ_ADDON);
	CHECK_EQ(in.n_meshes, 1);
	CHECK_EQ(in.n_nodes, rt_map()->n_nodes);
	CHECK(memchr(in.name, '\0', sizeof(in.name)) != NULL);
	CHECK(in.name[0] != '\0');
	/* reserved is zero on output; so is the padding of unused fields */
	CHECK_EQ(in.reserved[0] | in.reserved[1] | in.reserved[2] | in.reserved[3], 0);
	CHECK_EQ(in.flags, 0);
	kohaku_close(dev);
}

TEST_F(rt, get_info_mesh_geometry)
{
	const struct rt_map *m = rt_map();
	struct drm_kohaku_get_info in;
	const struct drm_kohaku_mesh_info *mi;
	unsigned int i;
	RT_OPEN(dev);

	memset(&in, 0, sizeof(in));
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
	mi = &in.mesh[0];
	CHECK(mi->flags & KOHAKU_MESH_PRESENT);
	CHECK(mi->flags & KOHAKU_MESH_READY);
	CHECK(!(mi->flags & KOHAKU_MESH_WEDGED));
	CHECK(!(mi->flags & KOHAKU_MESH_MIXED_VERSION));
	CHECK_EQ(mi->n_nodes, m->n_nodes);
	CHECK_EQ(mi->grid_lo, m->grid_lo);
	CHECK_EQ(mi->grid_hi, m->grid_hi);
	CHECK_EQ(mi->pos_width, KH_POS_WIDTH);
	CHECK_EQ(mi->agent_x, m->agent_x);
	CHECK_EQ(mi->agent_y, m->agent_y);
	CHECK_EQ(mi->cu_version, m->cu_version);
	CHECK_EQ(mi->flit_width, KH_FLIT_WIDTH);
	CHECK_EQ(mi->min_inst_depth, m->inst_depth);
	/* the raw CAPS register agrees with the decoded fields */
	CHECK_EQ(KH_CAPS_FLIT_WIDTH(mi->caps_reg), mi->flit_width);
	CHECK_EQ(KH_CAPS_POS_WIDTH(mi->caps_reg), mi->pos_width);
	CHECK_EQ(KH_CAPS_GRID_LO(mi->caps_reg), mi->grid_lo);
	/*
	 * a 32-bit control path reads CAPS's upper half as 0 (grid_hi is
	 * found by enumeration), unless the interrupt addon's orchestrator
	 * answers at CAPS + 4 with it (irq-addon.md "Discovery")
	 */
	if ((in.caps & KOHAKU_CAP_CTRL32) && !rt_map()->irq)
		CHECK_EQ(mi->caps_reg >> 32, 0);
	else
		CHECK_EQ(KH_CAPS_GRID_HI(mi->caps_reg), mi->grid_hi);
	CHECK_EQ(!!(mi->caps_reg & KH_CAPS_IRQ_ADDON), !!rt_map()->irq);
	CHECK(mi->mem_size > 0);
	CHECK(mi->mem_size <= KH_MESH_DRAM_SIZE);
	CHECK_EQ(mi->mem_size % KOHAKU_BO_ALIGN, 0);
	CHECK(mi->mem_free <= mi->mem_size);
	CHECK_EQ(mi->reserved[0] | mi->reserved[1], 0);
	for (i = 1; i < KOHAKU_MAX_MESHES; i++) {
		CHECK_EQ(in.mesh[i].flags, 0);
		CHECK_EQ(in.mesh[i].n_nodes, 0);
		CHECK_EQ(in.mesh[i].mem_size, 0);
	}
	kohaku_close(dev);
}

TEST_F(rt, get_info_library_copy_matches)
{
	struct drm_kohaku_get_info a, b;
	RT_OPEN(dev);

	memset(&b, 0, sizeof(b));
	CHECK_OK(dev, kohaku_get_info(dev, &a, sizeof(a)));
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &b));
	CHECK_EQ(a.abi_version, b.abi_version);
	CHECK_EQ(a.n_nodes, b.n_nodes);
	CHECK(!strcmp(a.name, b.name));
	kohaku_close(dev);
}

TEST_F(rt, nodes_exact_table)
{
	const struct rt_map *m = rt_map();
	struct drm_kohaku_node nd[32];
	struct drm_kohaku_nodes req;
	unsigned int i, n_sx = 0, n_null = 0;
	RT_OPEN(dev);

	memset(nd, 0xee, sizeof(nd));
	memset(&req, 0, sizeof(req));
	req.capacity = 32;
	req.node_size = sizeof(nd[0]);
	req.nodes_ptr = (uintptr_t)nd;
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req));
	CHECK_EQ(req.count, m->n_nodes);
	REQUIRE(req.count == m->n_nodes);
	for (i = 0; i < m->n_nodes; i++) {
		const struct rt_exp_node *e = &m->nodes[i];
		const struct drm_kohaku_node *q = &nd[i];
		uint16_t t = (uint16_t)((q->caps_reg >> KH_CAPS_CU_TYPE_SHIFT) &
					KH_CAPS_CU_TYPE_MASK);

		CHECK_MSG(q->mesh == 0 && q->x == e->x && q->y == e->y &&
			  q->cu_type == e->cu_type,
			  "node %u: mesh %u (%u,%u) type 0x%04x, expected mesh 0 "
			  "(%u,%u) type 0x%04x", i, q->mesh, q->x, q->y,
			  q->cu_type, e->x, e->y, e->cu_type);
		CHECK_EQ(q->cu_version, m->cu_version);
		CHECK_EQ(q->n_buffers, e->cu_type == KH_CU_GP ? KH_POOL_NBUF : 1);
		CHECK_EQ(q->inst_depth, m->inst_depth);
		CHECK_EQ(q->inst_space, m->inst_depth);	/* idle */
		CHECK_EQ(q->busy, 0);
		CHECK_EQ(q->flags, 0);
		/* the raw CU_CAPS agrees with the decoded fields */
		CHECK_EQ(t, q->cu_type);
		CHECK_EQ((q->caps_reg >> KH_CAPS_VERSION_SHIFT) & KH_CAPS_VERSION_MASK,
			 q->cu_version);
		CHECK_EQ((q->caps_reg >> KH_CAPS_NBUF_SHIFT) & KH_CAPS_NBUF_MASK,
			 q->n_buffers);
		CHECK_EQ((q->caps_reg >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK,
			 q->inst_depth);
		n_sx += q->cu_type == KH_CU_SX;
		n_null += q->cu_type == KH_CU_NULL;
	}
	CHECK_EQ(n_sx, rt_map_count(m, KH_CU_SX));
	CHECK_EQ(n_null, rt_map_count(m, KH_CU_NULL));
	/* entries past count are not touched */
	for (i = m->n_nodes; i < 32; i++)
		CHECK_EQ(nd[i].mesh, 0xee);
	CHECK_EQ(req.reserved[0] | req.reserved[1], 0);
	kohaku_close(dev);
}

TEST_F(rt, nodes_capacity_smaller_than_count)
{
	const struct rt_map *m = rt_map();
	struct drm_kohaku_node nd[4];
	struct drm_kohaku_nodes req;
	RT_OPEN(dev);

	memset(nd, 0xab, sizeof(nd));
	memset(&req, 0, sizeof(req));
	req.capacity = 1;
	req.node_size = sizeof(nd[0]);
	req.nodes_ptr = (uintptr_t)nd;
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req));
	CHECK_EQ(req.count, m->n_nodes);
	CHECK_EQ(nd[0].x, m->nodes[0].x);
	CHECK_EQ(nd[0].y, m->nodes[0].y);
	CHECK_EQ(nd[0].cu_type, m->nodes[0].cu_type);
	/* only capacity entries copied */
	CHECK_EQ(nd[1].mesh, 0xab);
	CHECK_EQ(nd[1].x, 0xab);
	CHECK_EQ(nd[1].caps_reg, 0xababababababababULL);

	/* capacity without a buffer: EFAULT, never a write through NULL */
	memset(&req, 0, sizeof(req));
	req.capacity = 2;
	req.node_size = sizeof(nd[0]);
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req), -EFAULT);

	/* capacity 0 and no buffer: just the count */
	memset(&req, 0, sizeof(req));
	req.node_size = sizeof(nd[0]);
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req));
	CHECK_EQ(req.count, m->n_nodes);

	/* the library's count query */
	{
		unsigned int c = 0;

		CHECK_OK(dev, kohaku_nodes(dev, 0, NULL, 0, sizeof(struct drm_kohaku_node), &c));
		CHECK_EQ(c, m->n_nodes);
	}
	kohaku_close(dev);
}

TEST_F(rt, nodes_bad_node_size)
{
	struct drm_kohaku_node nd[32];
	struct drm_kohaku_nodes req;
	/* below ABI 0.1's entry, or far past any this driver could have */
	unsigned int sizes[] = { 0, 1, KOHAKU_NODE_SIZE_MIN - 1,
				 KOHAKU_NODE_SIZE_MIN - 8, 4096, 0xffffffffu };
	unsigned int i;
	RT_OPEN(dev);

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&req, 0, sizeof(req));
		req.capacity = 4;
		req.node_size = sizes[i];
		req.nodes_ptr = (uintptr_t)nd;
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_NODES, &req), -EINVAL);
	}
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, nodes_live_counters_move)
{
	struct drm_kohaku_node before[32], after[32];
	struct drm_kohaku_node sx[16];
	struct kohaku_program p;
	struct kohaku_inst inst[3];
	struct kohaku_job_status st;
	struct rt_vec v;
	unsigned int n, i, k = 0;
	RT_OPEN(dev);

	REQUIRE(rt_nodes_of(dev, KH_CU_SX, sx, 16) > 0);
	CHECK_OK(dev, kohaku_nodes(dev, KOHAKU_NODES_LIVE, before, 32, sizeof(*before), &n));
	REQUIRE(rt_vec_setup(dev, sx[0].mesh, 64, 1, &v) == 0);
	rt_prog_saxpy(&p, inst, 3, &sx[0], &v, 0.5f);
	CHECK_OK(dev, rt_run(dev, &p, 1, &st));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(dev, kohaku_nodes(dev, KOHAKU_NODES_LIVE, after, 32, sizeof(*after), &n));
	for (i = 0; i < n; i++)
		if (after[i].x == sx[0].x && after[i].y == sx[0].y)
			k = i;
	CHECK_EQ(after[k].retired - before[k].retired, 3);
	CHECK(after[k].busy_cycles > before[k].busy_cycles);
	CHECK_EQ(after[k].busy, 0);
	CHECK_EQ(after[k].inst_space, after[k].inst_depth);
	/* SX CU_DBG [31:0] counts elements processed */
	CHECK_EQ((uint32_t)after[k].dbg - (uint32_t)before[k].dbg, 3 * 64);
	CHECK_EQ(after[k].dbg >> 32, 0);
	/* the other nodes did nothing */
	for (i = 0; i < n; i++)
		if (i != k)
			CHECK_EQ(after[i].retired, before[i].retired);
	CHECK_EQ(rt_vec_check(dev, &v, 0.5f, 3), 0);
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

TEST_F(rt, nodes_type_names)
{
	char buf[16];

	CHECK(!strcmp(kohaku_cu_type_name(KH_CU_SX, buf, sizeof(buf)), "SX"));
	CHECK(!strcmp(kohaku_cu_type_name(KH_CU_NULL, buf, sizeof(buf)), "null"));
	CHECK(!strcmp(kohaku_cu_type_name(0x0102, buf, sizeof(buf)), "0x0102"));
}

RT_TEST_MAIN
