// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Bring-up of one mesh: check its control window, then enumerate every
 * coordinate of the span GRID_LO-1 .. GRID_HI+1 through the mailbox
 * (kohakutpu.md 12.1).  A node is a coordinate that answers CU_CAPS twice
 * with the same value and its own source coordinate.  On a 32-bit control
 * path CAPS's GRID_HI [39:32] reads 0 (a named register, docs/spec/xdma.md
 * "BAR0 in 32 bits"), so the span is every coordinate there is, asked in
 * an order that keeps a clamped request off a node's reply slot
 * (kh_probe_wide()).  Also here: NODE_STATUS read whole in halves.
 */
#include "kh_priv.h"

/*
 * The whole NODE_STATUS word of {y,x} on a 32-bit control path, given its
 * low half as just read: the high half (code, arg[31:8]), then the low half
 * again.  The count is in the low half and moves with every signal, so a
 * low half unchanged across the high read means no signal landed between
 * the two, and the halves are one word; else again.  Each retry is a signal
 * the node sent, and a node signals no more than it was given: it ends.
 * On a 64-bit path lo is the word already.
 */
u64 kh_ns_word(struct kh_mesh *m, u8 yx, u64 lo)
{
	u32 off = KH_ORC_NODE_STATUS(yx), hi, again;

	lockdep_assert_held(&m->lock);
	if (!kh_ctrl32(m->kd))
		return lo;
	for (;;) {
		hi = kh_rd32(m, off + 4);
		again = kh_rd32(m, off);
		if (again == (u32)lo)
			return (u64)hi << 32 | again;
		lo = again;
	}
}

/* On a 32-bit control path GRID_HI reads 0: the enumeration finds the span. */
static bool kh_caps_valid(u64 caps, bool ctrl32)
{
	unsigned int pw = KH_CAPS_POS_WIDTH(caps);
	unsigned int lo = KH_CAPS_GRID_LO(caps), hi = KH_CAPS_GRID_HI(caps);

	if (KH_CAPS_FLIT_WIDTH(caps) != KH_FLIT_WIDTH || !pw || pw > 8 ||
	    lo < 1 || lo > 14)
		return false;
	return ctrl32 || (hi >= lo && hi <= 14);
}

/* CAPS is the only register known before anything runs: read it twice. */
int kh_mesh_probe(struct kh_mesh *m)
{
	u64 c1 = kh_rd(m, KH_ORC_CAPS);
	u64 c2 = kh_rd(m, KH_ORC_CAPS);

	/*
	 * On a 32-bit path CAPS[63:32] reads 0 on the shipped RTL, and is
	 * CAPS's high half on an orchestrator with the interrupt addon
	 * (irq-addon.md "Discovery"): either way the word is whole.
	 */
	if (kh_ctrl32(m->kd)) {
		c1 |= (u64)kh_rd32(m, KH_ORC_CAPS + 4) << 32;
		c2 |= (u64)kh_rd32(m, KH_ORC_CAPS + 4) << 32;
	}

	if (c1 != c2) {
		kh_warn(m->kd, "mesh %u: CAPS read 0x%016llx then 0x%016llx; ignoring this mesh\n",
			m->id, c1, c2);
		return -EIO;
	}
	if (!kh_caps_valid(c1, kh_ctrl32(m->kd))) {
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
	m->grid_hi = KH_CAPS_GRID_HI(c1);	/* 0 on a 32-bit path: enumeration's */
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

/*
 * Re-read CU_STATUS, CU_COUNTERS and CU_DBG of nodes[first, first+count) of
 * a mesh, pipelined: every node's three reads in flight with the others'.
 */
int kh_mesh_refresh_nodes(struct kh_mesh *m, unsigned int first,
			  unsigned int count)
{
	static const u8 idx[] = { KH_CTRL_IDX_STATUS, KH_CTRL_IDX_COUNTERS,
				  KH_CTRL_IDX_DBG };
	struct kh_ctrl_req *req;
	unsigned int i, k, n = count * ARRAY_SIZE(idx);
	int ret;

	lockdep_assert_held(&m->lock);
	if (!count)
		return 0;
	req = kvcalloc(n, sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	/* index-major, so that one node's reads do not queue behind each other */
	for (k = 0; k < ARRAY_SIZE(idx); k++) {
		for (i = 0; i < count; i++) {
			struct kh_ctrl_req *r = &req[k * count + i];

			r->x = m->nodes[first + i].x;
			r->y = m->nodes[first + i].y;
			r->index = idx[k];
		}
	}
	ret = kh_ctrl_read_many(m, req, n);
	for (i = 0; !ret && i < count; i++) {
		struct kh_node *nd = &m->nodes[first + i];

		for (k = 0; k < ARRAY_SIZE(idx); k++) {
			struct kh_ctrl_req *r = &req[k * count + i];

			if (r->result) {
				kh_warn(m->kd, "mesh %u: node (%u,%u) did not answer a status read (%d)\n",
					m->id, nd->x, nd->y, r->result);
				ret = r->result;
				break;
			}
		}
		if (ret)
			break;
		nd->status_reg = req[i].value;
		nd->counters_reg = req[count + i].value;
		nd->dbg_reg = req[2 * count + i].value;
		nd->regs_read = true;
	}
	/* a POOL unit's TRAP too: which core trapped, why and where */
	for (i = 0, n = 0; !ret && i < count; i++) {
		if (m->nodes[first + i].cu_type != KH_CU_GP)
			continue;
		req[n].x = m->nodes[first + i].x;
		req[n].y = m->nodes[first + i].y;
		req[n].index = KH_CTRL_IDX_POOL_TRAP;
		req[n].write = false;
		n++;
	}
	if (!ret && n)
		ret = kh_ctrl_read_many(m, req, n);
	for (k = 0; !ret && k < n; k++) {
		if (req[k].result) {
			ret = req[k].result;
			break;
		}
		kh_mesh_node(m, req[k].x, req[k].y)->fw_trap = req[k].value;
	}
	kvfree(req);
	return ret;
}

int kh_node_refresh(struct kh_node *n)
{
	return kh_mesh_refresh_nodes(n->mesh, n - n->mesh->nodes, 1);
}

static void kh_node_decode(struct kh_node *n, u64 caps)
{
	n->caps_reg = caps;
	n->cu_type = (caps >> KH_CAPS_CU_TYPE_SHIFT) & KH_CAPS_CU_TYPE_MASK;
	n->cu_version = (caps >> KH_CAPS_VERSION_SHIFT) & KH_CAPS_VERSION_MASK;
	n->n_buffers = (caps >> KH_CAPS_NBUF_SHIFT) & KH_CAPS_NBUF_MASK;
	n->inst_depth = (caps >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK;
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

/* Nodes in y then x order, the order NODES reports, and the index by {y,x}. */
static void kh_mesh_sort_nodes(struct kh_mesh *m)
{
	unsigned int i, j;

	for (i = 1; i < m->n_nodes; i++) {
		struct kh_node t = m->nodes[i];

		for (j = i; j && KH_YX(m->nodes[j - 1].x, m->nodes[j - 1].y) >
			     KH_YX(t.x, t.y); j--)
			m->nodes[j] = m->nodes[j - 1];
		m->nodes[j] = t;
	}
	for (i = 0; i < m->n_nodes; i++)
		m->node_at[KH_YX(m->nodes[i].x, m->nodes[i].y)] = i;
}

/* CAPS of every coordinate in req (distinct, none aliasing another), pipelined */
static int kh_caps_batch(struct kh_mesh *m, struct kh_ctrl_req *req,
			 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		req[i].index = KH_CTRL_IDX_CAPS;
	return kh_ctrl_read_many(m, req, n);
}

/*
 * Probe the span for CU_CAPS, every request in one batch: every coordinate
 * but the four corners is a distinct endpoint (a router's local port, or
 * an edge router's outward port).  A corner has no port (a mesh's corners
 * are always empty): XY routing clamps a request there onto an edge port
 * (kohakutpu.md 6) that is asked at its own coordinate anyway, and a second
 * request in flight to that node would be dropped, so corners are not
 * asked.  The edge goes first: its empty ports are the coordinates that
 * never answer, and their timeouts then run while the inside is asked.
 */
static unsigned int kh_probe_span(struct kh_mesh *m, unsigned int lo,
				  unsigned int hi, struct kh_ctrl_req *req,
				  int *ret)
{
	unsigned int x, y, n = 0, pass;

	for (pass = 0; pass < 2; pass++) {
		for (y = lo; y <= hi; y++) {
			for (x = lo; x <= hi; x++) {
				bool ex = x == lo || x == hi, ey = y == lo || y == hi;

				if ((ex && ey) || (ex || ey) != !pass)
					continue;
				req[n].x = x;
				req[n].y = y;
				n++;
			}
		}
	}
	*ret = kh_caps_batch(m, req, n);
	return n;
}

/*
 * One batch of the wide probe (below), asked: key 0 the row y = 0 but for
 * (0,0), key k > 0 the coordinates of x + y = k below it.
 */
static unsigned int kh_probe_batch(struct kh_mesh *m, unsigned int hi,
				   unsigned int key, struct kh_ctrl_req *req,
				   int *ret)
{
	unsigned int x, y, n = 0;

	for (y = 0; y <= hi; y++) {
		for (x = 0; x <= hi; x++) {
			if (key ? y && x + y == key : x && !y) {
				req[n].x = x;
				req[n].y = y;
				n++;
			}
		}
	}
	*ret = n ? kh_caps_batch(m, req, n) : 0;
	return n;
}

/*
 * The span on a 32-bit control path, whose GRID_HI is unknown: every
 * coordinate to hi (15 with 4-bit positions), in batches, each asked
 * once the one before has settled.  A coordinate off the routers' grid
 * is clamped onto a real endpoint (kohakutpu.md 6: XY routing to the
 * nearest router, then one outward hop, west > east > north > south),
 * which answers for it, and a second request in flight to a node is
 * dropped: no batch may hold a coordinate and one clamped onto it.  So
 * first the row y = 0 (its clamped members land on row 1, the north
 * hop being last), then the rest by x + y: a clamped request lands on an
 * endpoint of a smaller sum, asked in an earlier batch.  (0,0), a
 * corner, lands on the agent's port: not asked.  Clamped requests may
 * collide with each other; they are not nodes, and a dropped one times
 * out.  A reply from elsewhere to a request beyond the grid names the
 * edge of the grid (kh_probe_edge()).  Returns the requests asked.
 */
static unsigned int kh_probe_wide(struct kh_mesh *m, unsigned int hi,
				  struct kh_ctrl_req *req, int *ret)
{
	unsigned int key, n = 0;

	*ret = 0;
	for (key = 0; !*ret && key <= 2 * hi; key++)
		n += kh_probe_batch(m, hi, key, req + n, ret);
	return n;
}

/*
 * GRID_HI from the wide probe.  A node answering a request to somewhere
 * else names an edge by the hop that clamped it there (kohakutpu.md 6):
 * asked further east, it is on the east edge, X_HI + 1; asked further
 * south from its own column, it is at Y_HI in the west or east column (the
 * west or east hop took it there) or else on the south edge, Y_HI + 1.  An
 * axis no answer names has no node on its far edge, so every node lies
 * within it and its routers reach at least as far as the nodes found: that
 * is kept.  (Only the report needs GRID_HI: the nodes are what was found.)
 * The requests beyond the span are forgotten: they went to no node, or a
 * node dropped them, and nothing will answer them.
 */
static void kh_probe_edge(struct kh_mesh *m, const struct kh_ctrl_req *req,
			  unsigned int n)
{
	unsigned int i, sx, sy, nx = 0, ny = 0, x_hi = 0, y_hi = 0;

	for (i = 0; i < n; i++) {
		if (!req[i].result) {
			nx = max_t(unsigned int, nx, req[i].x);
			ny = max_t(unsigned int, ny, req[i].y);
		} else if (req[i].result == -ENXIO &&
			   req[i].x > KH_YX_X(req[i].value)) {
			x_hi = KH_YX_X(req[i].value) - 1;
		}
	}
	for (i = 0; i < n; i++) {
		sx = KH_YX_X(req[i].value);
		sy = KH_YX_Y(req[i].value);
		if (req[i].result != -ENXIO || req[i].x != sx || req[i].y <= sy)
			continue;
		y_hi = !sx || (x_hi && sx == x_hi + 1) ? sy : sy - 1;
	}
	m->grid_hi = max_t(unsigned int, x_hi ? x_hi : nx, y_hi ? y_hi : ny);
	m->grid_hi = min_t(unsigned int, max_t(unsigned int, m->grid_hi,
					       m->grid_lo), 14);
	for (i = 0; i < ARRAY_SIZE(m->ctrl_lost); i++)
		if (KH_YX_X(i) > m->grid_hi + 1u || KH_YX_Y(i) > m->grid_hi + 1u)
			m->ctrl_lost[i] = 0;
}

/* how long bring-up waits for work left on the units from before it */
#define KH_QUIESCE_NS		100000000ULL	/* 100 ms */

/*
 * Work left on the units from before this driver (a previous binding's
 * job, a crashed host; the card has no soft reset): its late signals would
 * land in this driver's jobs and its credit in this driver's counter.  Read
 * every node's CU_STATUS, pipelined, until none is busy (in flight, queued
 * or a completion unsent), for up to KH_QUIESCE_NS of device time; a node
 * still busy then is hung, owing what it still holds, as after a timeout.
 * An idle node's last signal is already in NODE_STATUS: it left the node
 * before the CU_STATUS reply did, on the same path to the agent.
 */
static int kh_mesh_quiesce(struct kh_mesh *m)
{
	u64 deadline = kh_now(m->kd) + KH_QUIESCE_NS;
	struct kh_ctrl_req *req;
	unsigned int i, n, waited = 0;
	int ret = 0;

	lockdep_assert_held(&m->lock);
	req = kvcalloc(m->n_nodes ? m->n_nodes : 1, sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	for (;;) {
		for (i = 0, n = 0; i < m->n_nodes; i++) {
			struct kh_node *nd = &m->nodes[i];

			if (waited && !(nd->status_reg & KH_STATUS_BUSY))
				continue;
			memset(&req[n], 0, sizeof(req[n]));
			req[n].x = nd->x;
			req[n].y = nd->y;
			req[n].index = KH_CTRL_IDX_STATUS;
			n++;
		}
		if (!n)
			break;
		ret = kh_ctrl_read_many(m, req, n);
		for (i = 0; !ret && i < n; i++) {
			struct kh_node *nd = kh_mesh_node(m, req[i].x, req[i].y);

			if (req[i].result) {
				ret = req[i].result;
				break;
			}
			nd->status_reg = req[i].value;
		}
		if (ret)
			break;
		for (i = 0, n = 0; i < m->n_nodes; i++)
			n += !!(m->nodes[i].status_reg & KH_STATUS_BUSY);
		if (!n)
			break;
		if (!waited++)
			kh_warn(m->kd, "mesh %u: %u node(s) still busy with work from before this driver; waiting for them\n",
				m->id, n);
		if (kh_now(m->kd) >= deadline) {
			for (i = 0; i < m->n_nodes; i++) {
				struct kh_node *nd = &m->nodes[i];
				u32 space = (nd->status_reg >> KH_STATUS_SPACE_SHIFT) &
					    KH_STATUS_SPACE_MASK;

				if (!(nd->status_reg & KH_STATUS_BUSY))
					continue;
				nd->flags |= KOHAKU_NODE_HUNG;
				nd->hung_left = nd->inst_depth - min_t(u32, space,
									nd->inst_depth) + 1;
				nd->hung_inst = nd->hung_left;
				nd->hung_mark = KH_NS_COUNT(kh_ns_lo(m,
							KH_YX(nd->x, nd->y)));
				nd->hung_last = false;
				kh_err(m->kd, "mesh %u: node (%u,%u) is still busy after %llu ms with work from before this driver; it is hung and takes no jobs\n",
				       m->id, nd->x, nd->y, KH_QUIESCE_NS / 1000000);
			}
			break;
		}
		kh_relax(m->kd);
	}
	if (!ret && waited)
		kh_info(m->kd, "mesh %u: the nodes went idle after %u status round(s)\n",
			m->id, waited);
	kvfree(req);
	return ret;
}

int kh_mesh_enumerate(struct kh_mesh *m)
{
	bool wide = kh_ctrl32(m->kd);
	unsigned int lo = wide ? 0 : m->grid_lo - 1;
	unsigned int hi = wide ? min_t(unsigned int, (1u << m->pos_width) - 1, 15) :
		min_t(unsigned int, m->grid_hi + 1, 15);
	unsigned int span = hi - lo + 1, n, i, k;
	struct kh_ctrl_req *req, *conf;
	bool agent_seen = false;
	int ret;

	lockdep_assert_held(&m->lock);
	memset(m->node_at, 0xff, sizeof(m->node_at));
	m->nodes = kvcalloc(span * span, sizeof(*m->nodes), GFP_KERNEL);
	req = kvcalloc(span * span * 2, sizeof(*req), GFP_KERNEL);
	if (!m->nodes || !req) {
		kvfree(req);
		return -ENOMEM;
	}
	conf = req + span * span;
	m->n_nodes = 0;
	m->tx_known = 0;
	if (kh_mbox_wait_idle(m)) {
		u64 ps = kh_rd(m, KH_ORC_PROG_STAT);

		kh_err(m->kd, "mesh %u: a program is stuck in the dispatcher (%u flits left, credit %u) since before this driver; the mailbox cannot be used, mesh is wedged until the card is reprogrammed\n",
		       m->id, KH_PROG_STAT_LEFT(ps), KH_PROG_STAT_CRED(ps));
		m->flags |= KOHAKU_MESH_WEDGED;
		kvfree(req);
		return 0;
	}

	if (wide)
		n = kh_probe_wide(m, hi, req, &ret);
	else
		n = kh_probe_span(m, lo, hi, req, &ret);
	if (wide && !ret)
		kh_probe_edge(m, req, n);
	/* the answers, confirmed by a second agreeing read */
	for (i = 0, k = 0; !ret && i < n; i++) {
		struct kh_ctrl_req *r = &req[i];

		if (r->result == -EADDRNOTAVAIL && r->x == lo &&
		    (!agent_seen || KH_YX(r->x, r->y) < KH_YX(m->agent_x, m->agent_y))) {
			/* the lowest echoing west-edge port hosts the agent */
			m->agent_x = r->x;
			m->agent_y = r->y;
			agent_seen = true;
		}
		if (!r->result) {
			conf[k].x = r->x;
			conf[k].y = r->y;
			k++;
		}
	}
	if (!ret)
		ret = kh_caps_batch(m, conf, k);
	for (i = 0; !ret && i < n; i++) {
		struct kh_ctrl_req *r = &req[i], *c = NULL;
		struct kh_node *nd;
		unsigned int j;

		if (r->result)
			continue;
		for (j = 0; j < k && !c; j++)
			if (conf[j].x == r->x && conf[j].y == r->y)
				c = &conf[j];
		if (!c || c->result || c->value != r->value) {
			kh_warn(m->kd, "mesh %u: node (%u,%u) CU_CAPS 0x%016llx not confirmed (%d, 0x%016llx); left out\n",
				m->id, r->x, r->y, r->value, c ? c->result : -ENOENT,
				c ? c->value : 0);
			continue;
		}
		nd = &m->nodes[m->n_nodes++];
		nd->mesh = m;
		nd->x = r->x;
		nd->y = r->y;
		kh_node_decode(nd, r->value);
	}
	kvfree(req);
	if (ret)
		return ret;
	kh_mesh_sort_nodes(m);
	if (!agent_seen)
		kh_warn(m->kd, "mesh %u: no CU_CTRL self-echo seen; assuming the agent at (%u,%u)\n",
			m->id, m->agent_x, m->agent_y);
	kh_check_versions(m);
	ret = kh_mesh_quiesce(m);
	if (ret)
		kh_warn(m->kd, "mesh %u: reading the nodes' status at bring-up failed (%d)\n",
			m->id, ret);
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
	/* a cpu unit's program's, not the driver's flush stub's after it */
	out->dbg = n->cpu_dbg_kept ? n->cpu_dbg : n->dbg_reg;
	out->fw_state = n->fw_state;
	out->fw_version = n->fw_version;
	out->fw_api = n->fw_api;
	out->fw_boot_ns = n->fw_boot_ns;
	out->fw_trap = n->fw_trap;
}

/*
 * After a reset the driver made: every node answers CU_CAPS as it did at
 * bring-up (same type, version and depths).  The node table is kept (jobs
 * queued name its nodes); a node that does not answer, or answers as
 * something else, is an error for the caller to wedge the mesh on.
 */
int kh_mesh_reverify(struct kh_mesh *m)
{
	struct kh_ctrl_req *req;
	unsigned int i;
	int ret;

	lockdep_assert_held(&m->lock);
	if (!m->n_nodes)
		return 0;
	req = kvcalloc(m->n_nodes, sizeof(*req), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	for (i = 0; i < m->n_nodes; i++) {
		req[i].x = m->nodes[i].x;
		req[i].y = m->nodes[i].y;
	}
	ret = kh_caps_batch(m, req, m->n_nodes);
	for (i = 0; !ret && i < m->n_nodes; i++) {
		struct kh_node *n = &m->nodes[i];

		if (req[i].result) {
			kh_err(m->kd, "mesh %u: node (%u,%u) did not answer after the reset (%d)\n",
			       m->id, n->x, n->y, req[i].result);
			ret = req[i].result;
		} else if (req[i].value != n->caps_reg) {
			kh_err(m->kd, "mesh %u: node (%u,%u) answers CU_CAPS 0x%016llx after the reset, 0x%016llx at bring-up\n",
			       m->id, n->x, n->y, req[i].value, n->caps_reg);
			ret = -EIO;
		}
		n->regs_read = false;
	}
	kvfree(req);
	return ret;
}
