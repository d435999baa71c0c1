// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Bring-up of one mesh: check its control window, then enumerate every
 * coordinate of the span GRID_LO-1 .. GRID_HI+1 through the mailbox
 * (kohakutpu.md 12.1).  A node is a coordinate that answers CU_CAPS twice
 * with the same value and its own source coordinate.
 */
#include "kh_priv.h"

static bool kh_caps_valid(u64 caps)
{
	unsigned int pw = KH_CAPS_POS_WIDTH(caps);
	unsigned int lo = KH_CAPS_GRID_LO(caps), hi = KH_CAPS_GRID_HI(caps);

	return KH_CAPS_FLIT_WIDTH(caps) == KH_FLIT_WIDTH && pw > 0 && pw <= 8 &&
	       lo >= 1 && hi >= lo && hi <= 14;
}

/* CAPS is the only register known before anything runs: read it twice. */
int kh_mesh_probe(struct kh_mesh *m)
{
	u64 c1 = kh_rd(m, KH_ORC_CAPS);
	u64 c2 = kh_rd(m, KH_ORC_CAPS);

	if (c1 != c2) {
		kh_warn(m->kd, "mesh %u: CAPS read 0x%016llx then 0x%016llx; ignoring this mesh\n",
			m->id, c1, c2);
		return -EIO;
	}
	if (!kh_caps_valid(c1)) {
		/* An absent mesh window reads 0; anything else is worth a word. */
		if (c1)
			kh_warn(m->kd, "mesh %u: CAPS 0x%016llx is not a KohakuAccel mesh (flit width %u, pos width %u, grid %u..%u)\n",
				m->id, c1, KH_CAPS_FLIT_WIDTH(c1),
				KH_CAPS_POS_WIDTH(c1), KH_CAPS_GRID_LO(c1),
				KH_CAPS_GRID_HI(c1));
		return -ENODEV;
	}
	m->caps = c1;
	m->pos_width = KH_CAPS_POS_WIDTH(c1);
	m->grid_lo = KH_CAPS_GRID_LO(c1);
	m->grid_hi = KH_CAPS_GRID_HI(c1);
	/* the convention until an echo confirms it: (GRID_LO - 1, GRID_LO) */
	m->agent_x = m->grid_lo - 1;
	m->agent_y = m->grid_lo;
	m->flags |= KOHAKU_MESH_PRESENT;
	return 0;
}

struct kh_node *kh_mesh_node(struct kh_mesh *m, u8 x, u8 y)
{
	s16 i;

	if (x > 15 || y > 15)
		return NULL;
	i = m->node_at[KH_YX(x, y)];
	return i < 0 ? NULL : &m->nodes[i];
}

int kh_node_refresh(struct kh_node *n)
{
	struct kh_mesh *m = n->mesh;
	int ret;

	ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_STATUS, &n->status_reg);
	if (!ret)
		ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_COUNTERS,
				   &n->counters_reg);
	if (!ret)
		ret = kh_ctrl_read(m, n->x, n->y, KH_CTRL_IDX_DBG, &n->dbg_reg);
	if (ret)
		kh_warn(m->kd, "mesh %u: node (%u,%u) did not answer a status read (%d)\n",
			m->id, n->x, n->y, ret);
	return ret;
}

static void kh_node_decode(struct kh_node *n, u64 caps)
{
	n->caps_reg = caps;
	n->cu_type = (caps >> KH_CAPS_CU_TYPE_SHIFT) & KH_CAPS_CU_TYPE_MASK;
	n->cu_version = (caps >> KH_CAPS_VERSION_SHIFT) & KH_CAPS_VERSION_MASK;
	n->n_buffers = (caps >> KH_CAPS_NBUF_SHIFT) & KH_CAPS_NBUF_MASK;
	n->inst_depth = (caps >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK;
}

/*
 * Probe one coordinate: 1 = a node (caps filled), 0 = nothing answers for
 * it, -EADDRNOTAVAIL = our request came back (the agent or a memory port).
 */
static int kh_probe_coord(struct kh_mesh *m, u8 x, u8 y, u64 *caps)
{
	u64 again;
	int ret;

	ret = kh_ctrl_read(m, x, y, KH_CTRL_IDX_CAPS, caps);
	if (ret == -EADDRNOTAVAIL)
		return ret;
	if (ret)
		return 0;
	ret = kh_ctrl_read(m, x, y, KH_CTRL_IDX_CAPS, &again);
	if (ret || again != *caps) {
		kh_warn(m->kd, "mesh %u: node (%u,%u) CU_CAPS 0x%016llx not confirmed (%d, 0x%016llx); left out\n",
			m->id, x, y, *caps, ret, again);
		return 0;
	}
	return 1;
}

static void kh_check_versions(struct kh_mesh *m)
{
	unsigned int i;

	m->cu_version = m->n_nodes ? m->nodes[0].cu_version : 0;
	m->min_inst_depth = 0;
	for (i = 0; i < m->n_nodes; i++) {
		struct kh_node *n = &m->nodes[i];

		if (n->cu_version != m->cu_version) {
			kh_err(m->kd, "mesh %u: node (%u,%u) has cu_version %u but (%u,%u) has %u; one image must have one build number, refusing the mesh\n",
			       m->id, n->x, n->y, n->cu_version,
			       m->nodes[0].x, m->nodes[0].y, m->cu_version);
			m->flags |= KOHAKU_MESH_MIXED_VERSION;
		}
		if (n->inst_depth &&
		    (!m->min_inst_depth || n->inst_depth < m->min_inst_depth))
			m->min_inst_depth = n->inst_depth;
	}
}

int kh_mesh_enumerate(struct kh_mesh *m)
{
	unsigned int lo = m->grid_lo - 1, hi = min_t(unsigned int, m->grid_hi + 1, 15);
	unsigned int span = hi - lo + 1, x, y;
	bool agent_seen = false;

	memset(m->node_at, 0xff, sizeof(m->node_at));
	m->nodes = kh_zalloc(sizeof(*m->nodes) * span * span);
	if (!m->nodes)
		return -ENOMEM;
	m->n_nodes = 0;
	if (kh_mbox_wait_idle(m)) {
		u64 ps = kh_rd(m, KH_ORC_PROG_STAT);

		kh_err(m->kd, "mesh %u: a program is stuck in the dispatcher (%u flits left, credit %u) since before this driver; the mailbox cannot be used, mesh is wedged until the card is reprogrammed\n",
		       m->id, KH_PROG_STAT_LEFT(ps), KH_PROG_STAT_CRED(ps));
		m->flags |= KOHAKU_MESH_WEDGED;
		return 0;
	}
	kh_mbox_drain(m);

	for (y = lo; y <= hi; y++) {
		for (x = lo; x <= hi; x++) {
			bool corner = (x == lo || x == hi) && (y == lo || y == hi);
			struct kh_node *n;
			u64 caps;
			int ret;

			ret = kh_probe_coord(m, x, y, &caps);
			if (ret == -EADDRNOTAVAIL && !corner && x == lo && !agent_seen) {
				/* the lowest echoing west-edge port hosts the agent */
				m->agent_x = x;
				m->agent_y = y;
				agent_seen = true;
			}
			if (ret <= 0)
				continue;
			n = &m->nodes[m->n_nodes];
			n->mesh = m;
			n->x = x;
			n->y = y;
			kh_node_decode(n, caps);
			m->node_at[KH_YX(x, y)] = m->n_nodes++;
			kh_node_refresh(n);
		}
	}
	if (!agent_seen)
		kh_warn(m->kd, "mesh %u: no CU_CTRL self-echo seen; assuming the agent at (%u,%u)\n",
			m->id, m->agent_x, m->agent_y);
	kh_check_versions(m);
	if (!(m->flags & KOHAKU_MESH_MIXED_VERSION))
		m->flags |= KOHAKU_MESH_READY;
	kh_info(m->kd, "mesh %u: grid %u..%u, agent (%u,%u), %u nodes, cu_version %u\n",
		m->id, m->grid_lo, m->grid_hi, m->agent_x, m->agent_y,
		m->n_nodes, m->cu_version);
	return 0;
}

void kh_node_to_uapi(const struct kh_node *n, struct drm_kohaku_node *out)
{
	memset(out, 0, sizeof(*out));
	out->mesh = n->mesh->id;
	out->x = n->x;
	out->y = n->y;
	out->n_buffers = n->n_buffers;
	out->cu_type = n->cu_type;
	out->cu_version = n->cu_version;
	out->flags = n->flags;
	out->inst_depth = n->inst_depth;
	out->inst_space = (n->status_reg >> KH_STATUS_SPACE_SHIFT) &
			  KH_STATUS_SPACE_MASK;
	out->busy = !!(n->status_reg & KH_STATUS_BUSY);
	out->retired = n->counters_reg >> KH_CTR_RETIRED_SHIFT;
	out->busy_cycles = n->counters_reg & KH_CTR_BUSY_MASK;
	out->caps_reg = n->caps_reg;
	out->dbg = n->dbg_reg;
}
