// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The interlink (docs/spec/interlink.md).  Each mesh's interlink lives in
 * its MAG and is ticked by it.  A lane (one direction of a link) is shared
 * by two MAGs: the sender pushes beats onto its wire with an arrival time
 * at least one cycle ahead and takes credit returns off it; the receiver
 * moves arrived beats into its per-class receive FIFO and pushes credit
 * returns, also a hop ahead.  Because every exchange is at least a cycle
 * in the future, the order in which the two MAGs tick never matters.
 *
 * Routing: the chain positions 0..3 hold meshes 0, 1, 3, 2 (CH_SEQ); a
 * beat moves one position toward its destination mesh per hop, as the
 * "forward" class until the last hop, which is "stop".  At the
 * destination, a remote CU_DATA flit is injected at its final coordinate
 * (txn = {fin_y, fin_x}) through the MAG port on that row, src preserved;
 * a posted write lands in memory after the write latency; a doorbell
 * counts once every write that arrived before it has landed.
 */
#include "ilink.h"
#include "mag.h"
#include "mesh.h"
#include "util.h"

#define KSIM_IL_EG_CAP	(KSIM_IL_EG_DEPTH + 16)	/* room for doorbells */
#define KSIM_IL_LOOP	2			/* stop source: loopback */

static const u8 ksim_ch_seq[KH_MAX_MESHES] = { 0, 1, 3, 2 };

/* A mesh's chain position: CH_SEQ = mesh 0, 1, 3, 2. */
static unsigned int ksim_il_pos_of(unsigned int mesh)
{
	unsigned int i;

	for (i = 0; i < KH_MAX_MESHES; i++)
		if (ksim_ch_seq[i] == (mesh & 3))
			break;
	return i;
}

/* ---- beat queues ---- */

static int ksim_ilq_init(struct ksim_il_q *q, u32 cap)
{
	q->b = ksim_plat_zalloc(sizeof(*q->b) * cap);
	q->cap = cap;
	q->head = 0;
	q->count = 0;
	return q->b ? 0 : -ENOMEM;
}

static void ksim_ilq_fini(struct ksim_il_q *q)
{
	ksim_plat_free(q->b);
	q->b = NULL;
}

static struct ksim_il_beat *ksim_ilq_head(struct ksim_il_q *q)
{
	return q->count ? &q->b[q->head] : NULL;
}

static struct ksim_il_beat *ksim_ilq_push(struct ksim_il_q *q)
{
	struct ksim_il_beat *b;

	if (q->count >= q->cap)
		return NULL;
	b = &q->b[(q->head + q->count) % q->cap];
	q->count++;
	return b;
}

static void ksim_ilq_pop(struct ksim_il_q *q)
{
	if (!q->count)
		return;
	q->head = (q->head + 1) % q->cap;
	q->count--;
}

static void ksim_ilq_clear(struct ksim_il_q *q)
{
	q->head = 0;
	q->count = 0;
}

/* ---- lanes ---- */

static void ksim_lane_clear(struct ksim_il_lane *l)
{
	unsigned int c;

	ksim_ilq_clear(&l->wire);
	for (c = 0; c < KSIM_IL_CLASSES; c++) {
		ksim_ilq_clear(&l->rxq[c]);
		l->credits[c] = KSIM_IL_RX_BEATS;
		l->freed[c] = 0;
	}
	l->cret_head = 0;
	l->cret_count = 0;
	l->stall_since = KSIM_NEVER;
	l->rr = false;
}

static struct ksim_il_lane *ksim_lane_create(struct ksim_ilink *tx,
					 struct ksim_ilink *rx, unsigned int link)
{
	struct ksim_il_lane *l = ksim_plat_zalloc(sizeof(*l));
	int e;

	if (!l)
		return NULL;
	l->tx = tx;
	l->rx = rx;
	l->link = link;
	e = ksim_ilq_init(&l->wire, KSIM_IL_RING);
	if (!e)
		e = ksim_ilq_init(&l->rxq[KSIM_IL_STOP], KSIM_IL_RX_BEATS);
	if (!e)
		e = ksim_ilq_init(&l->rxq[KSIM_IL_FWD], KSIM_IL_RX_BEATS);
	if (e) {
		ksim_ilq_fini(&l->wire);
		ksim_ilq_fini(&l->rxq[KSIM_IL_STOP]);
		ksim_plat_free(l);
		return NULL;
	}
	ksim_lane_clear(l);
	return l;
}

static void ksim_lane_destroy(struct ksim_il_lane *l)
{
	if (!l)
		return;
	ksim_ilq_fini(&l->wire);
	ksim_ilq_fini(&l->rxq[KSIM_IL_STOP]);
	ksim_ilq_fini(&l->rxq[KSIM_IL_FWD]);
	ksim_plat_free(l);
}

/*
 * Card time, not the MAG's clock: a lane is shared by two meshes whose
 * clocks may differ, so the arrival times on its wire and its credit
 * returns are global cycles both ends read alike (docs/model.md "Mesh
 * clocks").  The MAG's node still ticks the interlink on its own edges.
 */
static u64 ksim_il_now(const struct ksim_ilink *il)
{
	return il->mag->node.sched->now;
}

static u64 ksim_lane_stalls(const struct ksim_il_lane *l, u64 now)
{
	return l->stalls + (l->stall_since != KSIM_NEVER ?
			    now - l->stall_since : 0);
}

/* A receive slot freed at the receiver: credits go back in batches. */
static void ksim_lane_free(struct ksim_il_lane *l, unsigned int cls, u64 now)
{
	struct ksim_il_cret *cr;

	if (++l->freed[cls] < KSIM_IL_CRED_BATCH)
		return;
	l->freed[cls] -= KSIM_IL_CRED_BATCH;
	/* bounded: at most RING / CRED_BATCH batches are ever outstanding */
	cr = &l->cret[(l->cret_head + l->cret_count) % KSIM_IL_CRET_RING];
	l->cret_count++;
	cr->at = now + l->rx->hop_latency;
	cr->cls = cls;
	cr->n = KSIM_IL_CRED_BATCH;
	ksim_node_wake(&l->tx->mag->node);
}

/* ---- life cycle ---- */

static struct ksim_ilink *ksim_ilink_create(struct ksim_mag *g,
					    const struct ksim_cv *cv)
{
	struct ksim_ilink *il = ksim_plat_zalloc(sizeof(*il));

	if (!il)
		return NULL;
	il->mag = g;
	il->cv = cv;
	il->param_id = g->mesh->id & 3;
	il->pos = ksim_il_pos_of(g->mesh->id);
	il->hop_latency = g->mesh->p->il_hop_latency ?
			  g->mesh->p->il_hop_latency : 1;
	if (ksim_ilq_init(&il->eg, KSIM_IL_EG_CAP) ||
	    ksim_ilq_init(&il->loop, KSIM_IL_EG_DEPTH) ||
	    ksim_ilq_init(&il->land, KSIM_IL_LAND_DEPTH)) {
		ksim_ilink_destroy(il);
		return NULL;
	}
	il->enable = true;
	il->mesh_id = il->param_id;
	il->eg_block_since = KSIM_NEVER;
	return il;
}

void ksim_ilink_destroy(struct ksim_ilink *il)
{
	if (!il)
		return;
	ksim_lane_destroy(il->out[0]);
	ksim_lane_destroy(il->out[1]);
	ksim_ilq_fini(&il->eg);
	ksim_ilq_fini(&il->loop);
	ksim_ilq_fini(&il->land);
	ksim_plat_free(il);
}

int ksim_ilink_connect(struct ksim_mesh *const *mesh, unsigned int n_mesh)
{
	struct ksim_ilink *at[KH_MAX_MESHES] = { NULL };
	unsigned int i, p;

	for (i = 0; i < n_mesh; i++) {
		struct ksim_mesh *m = mesh[i];

		if (!m->p->ilink)
			continue;
		m->mag->il = ksim_ilink_create(m->mag, &m->mag->cv);
		if (!m->mag->il)
			return -ENOMEM;
		at[ksim_il_pos_of(i)] = m->mag->il;
	}
	/* neighbours on the chain are joined when both exist */
	for (p = 0; p + 1 < KH_MAX_MESHES; p++) {
		struct ksim_ilink *a = at[p], *b = at[p + 1];

		if (!a || !b)
			continue;
		a->out[1] = ksim_lane_create(a, b, 1);
		b->out[0] = ksim_lane_create(b, a, 0);
		if (!a->out[1] || !b->out[0])
			return -ENOMEM;
		b->in[0] = a->out[1];
		a->in[1] = b->out[0];
	}
	return 0;
}

void ksim_ilink_reset(struct ksim_ilink *il)
{
	unsigned int x;

	il->enable = true;
	il->mesh_id = il->param_id;
	il->faults = 0;
	memset(il->bells, 0, sizeof(il->bells));
	memset(il->bell_tag, 0, sizeof(il->bell_tag));
	il->bells_sent = 0;
	il->forwarded = 0;
	il->eg_blocks = 0;
	il->eg_block_since = KSIM_NEVER;
	ksim_ilq_clear(&il->eg);
	ksim_ilq_clear(&il->loop);
	ksim_ilq_clear(&il->land);
	il->writes_in = 0;
	il->writes_landed = 0;
	memset(il->bell_wait, 0, sizeof(il->bell_wait));
	memset(il->frame, 0, sizeof(il->frame));
	/* both sides of this mesh's links: beats in flight are lost */
	for (x = 0; x < 2; x++) {
		if (il->out[x]) {
			ksim_lane_clear(il->out[x]);
			il->out[x]->tx_beats = 0;
			il->out[x]->stalls = 0;
		}
		if (il->in[x]) {
			ksim_lane_clear(il->in[x]);
			il->in[x]->rx_beats = 0;
		}
	}
}

/* ---- registers ---- */

void ksim_ilink_fault(struct ksim_ilink *il, unsigned int bit)
{
	il->faults |= bit;
}

static void ksim_ilink_ring(struct ksim_ilink *il, unsigned int dst,
			  unsigned int tag)
{
	struct ksim_il_beat *b;

	if (!il->enable) {
		ksim_mesh_log(il->mag->mesh, "interlink: disabled, doorbell to mesh %u not rung",
			    dst);
		return;
	}
	b = ksim_ilq_push(&il->eg);
	if (!b) {
		ksim_mesh_log(il->mag->mesh, "interlink: egress full, doorbell to mesh %u lost",
			    dst);
		return;
	}
	memset(b, 0, sizeof(*b));
	b->kind = KSIM_ILB_BELL;
	b->src_mesh = il->mesh_id;
	b->dst_mesh = dst;
	b->tag = tag;
	il->bells_sent++;
}

/* [0] enable; [1] clears the doorbell words, [2] the sticky faults */
static void ksim_il_ctrl(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_ilink *il = dev;

	il->enable = v & KH_IL_CTRL_ENABLE;
	if (v & KH_IL_CTRL_CLR_BELLS) {
		memset(il->bells, 0, sizeof(il->bells));
		memset(il->bell_tag, 0, sizeof(il->bell_tag));
	}
	if (v & KH_IL_CTRL_CLR_FAULTS)
		il->faults = 0;
}

static void ksim_il_mesh_id(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_ilink *il = dev;

	il->mesh_id = v & 3;
}

/* [1:0] destination mesh, [15:8] tag: rings */
static void ksim_il_doorbell(void *dev, unsigned int i, u64 old, u64 v)
{
	ksim_ilink_ring(dev, v & 3, (v >> 8) & 0xff);
}

/*
 * R(c, name, offset, registers, the rest of its struct ksim_reg): the
 * client offsets 0x80-0xff, writes only; nothing else decodes.
 */
#define KSIM_IL_REGS(R, c)						\
	R(c, CTRL, KH_IL_CTRL, 1, .post_write = ksim_il_ctrl)		\
	R(c, MESH_ID, KH_IL_MESH_ID, 1, .post_write = ksim_il_mesh_id)	\
	R(c, DOORBELL, KH_IL_DOORBELL, 1, .post_write = ksim_il_doorbell)

KSIM_REGS(ksim_ilink_regs, 8, KSIM_IL_REGS);

/*
 * The decode is cfg_sel = {cfg_addr[7:3], 3'b000} (mag_ilink.v:226): a
 * pulse at a misaligned client address (a 32-bit AUX_CFG write at +4,
 * kohakutpu.md 8.4) writes the register around it, with the whole word.
 */
const struct ksim_regs ksim_ilink_regs = {
	.name = "ilink", .span = true, KSIM_REGS_INIT(ksim_ilink_regs),
};

void ksim_ilink_cfg(struct ksim_ilink *il, u32 off, u64 v)
{
	ksim_reg_write_beat(&ksim_ilink_regs, il, off, v, KSIM_REG_STRB_ALL);
}

static u64 ksim_lane_credits(const struct ksim_il_lane *l)
{
	return l ? l->credits[KSIM_IL_STOP] + l->credits[KSIM_IL_FWD] : 0;
}

u64 ksim_ilink_statw(const struct ksim_ilink *il, unsigned int i)
{
	const struct ksim_il_lane *o0 = il->out[0], *o1 = il->out[1];
	u64 now = ksim_il_now(il);

	switch (i) {
	case KH_IL_W_CAPS:
		return il->enable ? KH_IL_CAPS(il->mesh_id) : 0;
	case KH_IL_W_FAULTS:
		return il->faults;
	case KH_IL_W_BELLS(0):
	case KH_IL_W_BELLS(1):
	case KH_IL_W_BELLS(2):
	case KH_IL_W_BELLS(3):
		return il->bells[i - KH_IL_W_BELLS(0)] |
		       ((u64)il->bell_tag[i - KH_IL_W_BELLS(0)] << 32);
	case KH_IL_W_TX(0):
		return o0 ? o0->tx_beats : 0;
	case KH_IL_W_RX(0):
		return il->in[0] ? il->in[0]->rx_beats : 0;
	case KH_IL_W_TX(1):
		return o1 ? o1->tx_beats : 0;
	case KH_IL_W_RX(1):
		return il->in[1] ? il->in[1]->rx_beats : 0;
	case KH_IL_W_STALLS(0):
		return o0 ? ksim_lane_stalls(o0, now) : 0;
	case KH_IL_W_STALLS(1):
		return o1 ? ksim_lane_stalls(o1, now) : 0;
	case KH_IL_W_FORWARDED:
		return il->forwarded;
	case KH_IL_W_CREDITS:
		return (ksim_lane_credits(o1) << 32) | ksim_lane_credits(o0);
	case KH_IL_W_BELLS_SENT:
		return il->bells_sent;
	case KH_IL_W_EG_BLOCKS:
		return il->eg_blocks + (il->eg_block_since != KSIM_NEVER ?
					now - il->eg_block_since : 0);
	default:
		return 0;
	}
}

/* ---- egress from the mesh ---- */

bool ksim_ilink_full(const struct ksim_ilink *il)
{
	return il->eg.count >= KSIM_IL_EG_DEPTH;
}

void ksim_ilink_take(struct ksim_ilink *il, const struct kh_flit *f)
{
	unsigned int sx = kh_flit_get(f, KH_HDR_SRC_X);
	unsigned int sy = kh_flit_get(f, KH_HDR_SRC_Y);
	unsigned int src = KH_YX(sx, sy);
	struct ksim_il_beat *b;

	/* remote CU_DATA is framed per source: a descriptor, then len + 1 */
	if (kh_flit_get(f, KH_HDR_TYPE) == KH_T_CU_DATA) {
		if (!il->frame[src]) {
			if (!kh_flit_get(f, KH_DATA_ACK_X) &&
			    !kh_flit_get(f, KH_DATA_ACK_Y)) {
				ksim_ilink_fault(il, KH_IL_FAULT_ACK0);
				ksim_mesh_log(il->mag->mesh,
					    "interlink: remote CU_DATA from (%u,%u) names no ack (ACK0)",
					    sx, sy);
			}
			il->frame[src] = kh_flit_get(f, KH_DATA_LEN) + 1;
		} else {
			il->frame[src]--;
		}
	}
	if (!il->enable) {
		ksim_ilink_fault(il, KH_IL_FAULT_INJ);
		il->inj_dropped++;
		ksim_mesh_log(il->mag->mesh, "interlink: disabled, remote flit from (%u,%u) dropped",
			    sx, sy);
		return;
	}
	/* the port held busy while the egress was full: there is room */
	b = ksim_ilq_push(&il->eg);
	if (!b)
		return;
	memset(b, 0, sizeof(*b));
	b->kind = KSIM_ILB_DATA;
	b->src_mesh = il->mesh_id;
	b->dst_mesh = kh_flit_get(f, KH_HDR_RSVD_LO);
	b->f = *f;
}

int ksim_ilink_post_write(struct ksim_ilink *il, u64 addr, const u8 *data)
{
	struct ksim_il_beat *b;

	if (!il->enable) {
		ksim_ilink_fault(il, KH_IL_FAULT_AXI);
		return -EIO;
	}
	b = ksim_ilink_full(il) ? NULL : ksim_ilq_push(&il->eg);
	if (!b)
		return -EAGAIN;
	memset(b, 0, sizeof(*b));
	b->kind = KSIM_ILB_WRITE;
	b->src_mesh = il->mesh_id;
	b->dst_mesh = (addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK;
	b->addr = addr;
	ksim_bytes_to_payload(b->f.w, data);
	return 0;
}

/* ---- routing ---- */

#define KSIM_IL_HERE	(-1)
#define KSIM_IL_NOWHERE	2

/* Here, the out lane (0 toward position - 1, 1 toward + 1), or nowhere. */
static int ksim_il_route(const struct ksim_ilink *il, unsigned int dst)
{
	unsigned int p = ksim_il_pos_of(il->mesh_id), q = ksim_il_pos_of(dst);
	int x;

	if (q == p)
		return KSIM_IL_HERE;
	x = q > p ? 1 : 0;
	return il->out[x] ? x : KSIM_IL_NOWHERE;
}

static unsigned int ksim_il_class(const struct ksim_ilink *il, int x,
				unsigned int dst)
{
	unsigned int p = ksim_il_pos_of(il->mesh_id);
	unsigned int next = x ? p + 1 : p - 1;

	return next == ksim_il_pos_of(dst) ? KSIM_IL_STOP : KSIM_IL_FWD;
}

static void ksim_il_switch_drop(struct ksim_ilink *il, const struct ksim_il_beat *b)
{
	ksim_ilink_fault(il, KH_IL_FAULT_SWITCH);
	il->switch_dropped++;
	ksim_mesh_log(il->mag->mesh, "interlink: no link toward mesh %u, beat dropped (SWITCH)",
		    b->dst_mesh);
}

/* ---- the destination side ---- */

static void ksim_il_inj_drop(struct ksim_ilink *il, const char *why)
{
	ksim_ilink_fault(il, KH_IL_FAULT_INJ);
	il->inj_dropped++;
	ksim_mesh_log(il->mag->mesh, "interlink: inbound beat dropped: %s (INJ)",
		    why);
}

/* Handle the head of one stop source; true when it was consumed. */
static bool ksim_il_stop(struct ksim_ilink *il, unsigned int s,
		       struct ksim_il_beat *b, u64 now)
{
	struct ksim_il_beat *l;
	struct kh_flit f;
	unsigned int fin;

	if (!il->enable) {
		ksim_il_inj_drop(il, "interlink disabled");
		return true;
	}
	switch (b->kind) {
	case KSIM_ILB_DATA:
		fin = kh_flit_get(&b->f, KH_HDR_TXN);
		if (!fin) {
			ksim_il_inj_drop(il, "final coordinate (txn) is 0");
			return true;
		}
		/* at {fin_y, fin_x}, src and everything else preserved */
		f = b->f;
		kh_flit_set(&f, KH_HDR_DST_X, KH_YX_X(fin));
		kh_flit_set(&f, KH_HDR_DST_Y, KH_YX_Y(fin));
		kh_flit_set(&f, KH_HDR_RSVD, 0);
		if (!ksim_cv_inject(il->cv, &f))
			return false;
		il->injected++;
		return true;
	case KSIM_ILB_WRITE:
		l = ksim_ilq_push(&il->land);
		if (!l)
			return false;
		*l = *b;
		l->at = now + il->mag->mesh->p->mem_wr_latency;
		il->writes_in++;
		return true;
	default:
		/* completes when landed: after every write that came first */
		if (!il->bell_wait[s]) {
			il->bell_wait[s] = true;
			il->bell_snap[s] = il->writes_in;
		}
		if (il->writes_landed < il->bell_snap[s])
			return false;
		il->bell_wait[s] = false;
		il->bells[b->src_mesh & 3]++;
		il->bell_tag[b->src_mesh & 3] = b->tag;
		return true;
	}
}

static bool ksim_il_land(struct ksim_ilink *il, u64 now)
{
	struct ksim_mag *g = il->mag;
	struct ksim_il_beat *b;
	bool progress = false;

	while ((b = ksim_ilq_head(&il->land)) && b->at <= now) {
		u8 buf[KH_PAYLOAD_BYTES];
		unsigned int tgt;
		u64 off;

		ksim_payload_to_bytes(buf, b->f.w);
		tgt = ksim_cv_decode(il->cv, b->addr, &off);
		if (tgt == KSIM_CV_NONE || !ksim_cv_write(il->cv, tgt, off, buf)) {
			ksim_ilink_fault(il, KH_IL_FAULT_AXI);
			ksim_mesh_log(g->mesh, "interlink: inbound write at 0x%010llx failed (AXI)",
				    (unsigned long long)b->addr);
		}
		il->writes_landed++;
		ksim_ilq_pop(&il->land);
		progress = true;
	}
	return progress;
}

/* ---- the transmit side ---- */

static void ksim_il_send(struct ksim_ilink *il, struct ksim_il_lane *l,
		       const struct ksim_il_beat *b, unsigned int cls, u64 now)
{
	struct ksim_il_beat *w = ksim_ilq_push(&l->wire);

	/* credits bound the wire: there is always room */
	if (!w)
		return;
	*w = *b;
	w->cls = cls;
	w->at = now + il->hop_latency;
	l->credits[cls]--;
	l->tx_beats++;
	ksim_node_wake(&l->rx->mag->node);
}

static void ksim_il_lazy(u64 *acc, u64 *since, bool on, u64 now)
{
	if (on && *since == KSIM_NEVER)
		*since = now;
	else if (!on && *since != KSIM_NEVER) {
		*acc += now - *since;
		*since = KSIM_NEVER;
	}
}

/* One beat onto out lane x: local egress or a forward, round robin. */
static bool ksim_il_tx(struct ksim_ilink *il, int x, u64 now, bool *eg_blocked)
{
	struct ksim_il_lane *l = il->out[x];
	struct ksim_il_beat *cand[3];
	struct ksim_il_lane *from[3] = { NULL, NULL, NULL };
	unsigned int cls[3], n = 0, i, k;
	bool want = false, local = false;
	struct ksim_il_beat *b;
	int y;

	b = ksim_ilq_head(&il->eg);
	if (b && ksim_il_route(il, b->dst_mesh) == x) {
		cand[n] = b;
		cls[n++] = ksim_il_class(il, x, b->dst_mesh);
		local = true;
	}
	for (y = 1 - x, k = 0; k < 2; k++, y = 1 - y) {
		struct ksim_il_lane *in = il->in[y];

		b = in ? ksim_ilq_head(&in->rxq[KSIM_IL_FWD]) : NULL;
		if (b && ksim_il_route(il, b->dst_mesh) == x) {
			from[n] = in;
			cand[n] = b;
			cls[n++] = ksim_il_class(il, x, b->dst_mesh);
		}
	}
	for (k = 0; k < n; k++) {
		i = (k + l->rr) % n;
		if (!l->credits[cls[i]]) {
			want = true;
			continue;
		}
		ksim_il_send(il, l, cand[i], cls[i], now);
		if (from[i]) {
			ksim_ilq_pop(&from[i]->rxq[KSIM_IL_FWD]);
			ksim_lane_free(from[i], KSIM_IL_FWD, now);
			il->forwarded++;
		} else {
			ksim_ilq_pop(&il->eg);
			local = false;
		}
		l->rr = !l->rr;
		ksim_il_lazy(&l->stalls, &l->stall_since, false, now);
		*eg_blocked |= local;
		return true;
	}
	ksim_il_lazy(&l->stalls, &l->stall_since, want, now);
	*eg_blocked |= local;
	return false;
}

/* The egress head that goes nowhere on a link: loopback or SWITCH. */
static bool ksim_il_eg_local(struct ksim_ilink *il)
{
	struct ksim_il_beat *b = ksim_ilq_head(&il->eg), *lb;
	int r;

	if (!b)
		return false;
	r = ksim_il_route(il, b->dst_mesh);
	if (r == KSIM_IL_NOWHERE) {
		ksim_il_switch_drop(il, b);
		ksim_ilq_pop(&il->eg);
		return true;
	}
	if (r != KSIM_IL_HERE)
		return false;
	lb = ksim_ilq_push(&il->loop);
	if (!lb)
		return false;
	*lb = *b;
	ksim_ilq_pop(&il->eg);
	return true;
}

/* A forward beat with nowhere to go (ids misconfigured): drop or stop. */
static bool ksim_il_fwd_fixup(struct ksim_ilink *il, struct ksim_il_lane *in,
			    u64 now)
{
	struct ksim_il_beat *b = ksim_ilq_head(&in->rxq[KSIM_IL_FWD]), *lb;
	int r;

	if (!b)
		return false;
	r = ksim_il_route(il, b->dst_mesh);
	if (r == KSIM_IL_NOWHERE) {
		ksim_il_switch_drop(il, b);
	} else if (r == KSIM_IL_HERE) {
		lb = ksim_ilq_push(&il->loop);
		if (!lb)
			return false;
		*lb = *b;
	} else {
		return false;
	}
	ksim_ilq_pop(&in->rxq[KSIM_IL_FWD]);
	ksim_lane_free(in, KSIM_IL_FWD, now);
	return true;
}

bool ksim_ilink_tick(struct ksim_ilink *il, u64 now, u64 *deadline)
{
	bool progress = false, eg_blocked = false;
	struct ksim_il_beat *b;
	unsigned int s;
	int x;

	for (x = 0; x < 2; x++) {
		struct ksim_il_lane *o = il->out[x], *in = il->in[x];

		/* credits coming back to my senders */
		while (o && o->cret_count && o->cret[o->cret_head].at <= now) {
			const struct ksim_il_cret *cr = &o->cret[o->cret_head];

			o->credits[cr->cls] += cr->n;
			o->cret_head = (o->cret_head + 1) % KSIM_IL_CRET_RING;
			o->cret_count--;
			progress = true;
		}
		if (o && o->cret_count)
			*deadline = ksim_min_u64(*deadline,
					       o->cret[o->cret_head].at);
		/* beats arriving at my receivers */
		while (in && (b = ksim_ilq_head(&in->wire)) && b->at <= now) {
			struct ksim_il_beat *r = ksim_ilq_push(&in->rxq[b->cls]);

			if (r)
				*r = *b;
			in->rx_beats++;
			ksim_ilq_pop(&in->wire);
			progress = true;
		}
		b = in ? ksim_ilq_head(&in->wire) : NULL;
		if (b)
			*deadline = ksim_min_u64(*deadline, b->at);
	}

	/* beats for this mesh: one per source per cycle, in order */
	for (s = 0; s <= KSIM_IL_LOOP; s++) {
		struct ksim_il_lane *in = s < KSIM_IL_LOOP ? il->in[s] : NULL;
		struct ksim_il_q *q = s < KSIM_IL_LOOP ?
				      (in ? &in->rxq[KSIM_IL_STOP] : NULL) :
				      &il->loop;

		b = q ? ksim_ilq_head(q) : NULL;
		if (!b || !ksim_il_stop(il, s, b, now))
			continue;
		ksim_ilq_pop(q);
		if (in)
			ksim_lane_free(in, KSIM_IL_STOP, now);
		progress = true;
	}
	if (ksim_il_land(il, now))
		progress = true;
	b = ksim_ilq_head(&il->land);
	if (b)
		*deadline = ksim_min_u64(*deadline, b->at);

	/* the switch: egress for nowhere or here, then each link's beat */
	if (ksim_il_eg_local(il))
		progress = true;
	for (x = 0; x < 2; x++)
		if (il->in[x] && ksim_il_fwd_fixup(il, il->in[x], now))
			progress = true;
	for (x = 0; x < 2; x++)
		if (il->out[x] && ksim_il_tx(il, x, now, &eg_blocked))
			progress = true;
	ksim_il_lazy(&il->eg_blocks, &il->eg_block_since, eg_blocked, now);
	return progress;
}

bool ksim_ilink_pending(const struct ksim_ilink *il)
{
	unsigned int x;

	if (il->eg.count || il->loop.count)
		return true;
	for (x = 0; x < 2; x++)
		if (il->in[x] && (il->in[x]->rxq[KSIM_IL_STOP].count ||
				  il->in[x]->rxq[KSIM_IL_FWD].count))
			return true;
	return false;
}
