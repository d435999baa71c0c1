// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MAG memory ports and the agent.
 *
 * Inbound, every port demultiplexes by type: MEM_RD_REQ to the read queue,
 * MEM_WR_REQ/MEM_WR_DATA to the write queue, everything else to the agent
 * (the orchestrator), which never stalls memory.  A port's noc_in_busy is
 * either queue at Q_DEPTH - Q_MARGIN or more: its own state only.
 *
 * Writes are reassembled per source coordinate in WR_SLOTS slots; a
 * descriptor finding no free slot stalls the write queue (the hardware
 * hangs there), data finding no open slot is dropped.  One engine per port
 * serves plain reads and write issue in turn (a plain read shares the
 * write FSM): a read waits the DRAM latency and sends one MEM_RD_RESP per
 * beat; a write puts its beats on the bus, lands after the write latency,
 * and then sends MEM_WR_ACK.  Outbound, agent traffic goes first.
 */
#include "sim_mag.h"
#include "sim_util.h"

static struct kh_mag_port *sink_port(const struct kh_sink *s)
{
	return kh_container_of(s, struct kh_mag_port, sink);
}

static bool kh_port_busy(const struct kh_sink *s)
{
	const struct kh_mag_port *mp = sink_port(s);
	const struct kh_sim_params *p = mp->mag->mesh->p;
	u32 lim = p->q_depth - p->q_margin;

	return mp->rdq.count >= lim || mp->wrq.count >= lim;
}

static void kh_port_take(struct kh_sink *s, const struct kh_flit *f)
{
	struct kh_mag_port *mp = sink_port(s);
	bool ok = true;

	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_MEM_RD_REQ:
		ok = kh_fifo_push(&mp->rdq, f);
		break;
	case KH_T_MEM_WR_REQ:
	case KH_T_MEM_WR_DATA:
		ok = kh_fifo_push(&mp->wrq, f);
		break;
	default:
		kh_orch_agent_take(&mp->mag->orch, f);
		break;
	}
	if (!ok)
		kh_mesh_log(mp->mag->mesh, "MAG port %u: out of memory, flit lost",
			    mp->idx);
}

static const struct kh_sink_ops kh_port_sink_ops = {
	.busy = kh_port_busy,
	.take = kh_port_take,
};

u64 kh_mag_aux_stat(const struct kh_mag *g)
{
	/* [63:40] moves, [7:4] mover fault, [0] busy: no mover in v0 */
	return ((u64)g->rd_count << 24) | ((u64)g->wr_count << 8);
}

/* The local address a unit's 40-bit address decodes to. */
static u64 kh_port_local(struct kh_mag_port *mp, u64 addr)
{
	unsigned int mesh = (addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK;

	/*
	 * [37:36] naming another mesh aliases to local memory (the RTL also
	 * sets interlink fault RD_REMOTE); the special aperture [39] is
	 * treated as local until apertures are modelled.
	 */
	if (mesh != mp->mag->mesh->id)
		mp->remote_alias++;
	return addr & KH_MADDR_LOCAL_MASK & ~(u64)(KH_PAYLOAD_BYTES - 1);
}

/* ---- write intake: one flit per cycle from the write queue ---- */

static int kh_port_free_slot(const struct kh_mag_port *mp)
{
	u32 i;

	for (i = 0; i < mp->mag->mesh->p->wr_slots; i++)
		if (mp->slots[i].state == KH_SLOT_FREE)
			return (int)i;
	return -1;
}

static int kh_port_open_slot(const struct kh_mag_port *mp, unsigned int sx,
			     unsigned int sy)
{
	int best = -1;
	u32 i;

	for (i = 0; i < mp->mag->mesh->p->wr_slots; i++) {
		const struct kh_mag_slot *sl = &mp->slots[i];

		if (sl->state != KH_SLOT_FILL || sl->sx != sx || sl->sy != sy)
			continue;
		if (best < 0 || (s32)(sl->seq - mp->slots[best].seq) < 0)
			best = (int)i;
	}
	return best;
}

static bool kh_port_intake(struct kh_mag_port *mp)
{
	const struct kh_flit *f = kh_fifo_head(&mp->wrq);
	u32 nslots = mp->mag->mesh->p->wr_slots;
	unsigned int sx, sy;
	struct kh_mag_slot *sl;
	int i;

	if (!f)
		return false;
	sx = kh_flit_get(f, KH_HDR_SRC_X);
	sy = kh_flit_get(f, KH_HDR_SRC_Y);
	if (kh_flit_get(f, KH_HDR_TYPE) == KH_T_MEM_WR_REQ) {
		i = kh_port_free_slot(mp);
		if (i < 0) {
			/* no free slot: the write path stalls (a hang) */
			if (mp->slot_stall_since == KH_NEVER)
				mp->slot_stall_since = kh_node_now(&mp->mag->node);
			return false;
		}
		if (mp->slot_stall_since != KH_NEVER) {
			mp->slot_stall_cycles += kh_node_now(&mp->mag->node) -
						 mp->slot_stall_since;
			mp->slot_stall_since = KH_NEVER;
		}
		sl = &mp->slots[i];
		sl->state = KH_SLOT_FILL;
		sl->sx = sx;
		sl->sy = sy;
		sl->txn = kh_flit_get(f, KH_HDR_TXN);
		/* WBURST = 8 is a fixed constant: a larger len aliases */
		sl->len = kh_flit_get(f, KH_MEM_LEN) & (KH_MEM_WBURST - 1);
		sl->got = 0;
		sl->seq = mp->seq++;
		sl->addr = kh_flit_get(f, KH_MEM_ADDR);
	} else {
		i = kh_port_open_slot(mp, sx, sy);
		if (i < 0) {
			mp->data_dropped++;
			kh_mesh_log(mp->mag->mesh,
				    "MAG port %u: MEM_WR_DATA from (%u,%u) matches no open slot, dropped",
				    mp->idx, sx, sy);
		} else {
			sl = &mp->slots[i];
			kh_payload_to_bytes(sl->data[sl->got], f->w);
			if (++sl->got == sl->len + 1u) {
				sl->state = KH_SLOT_READY;
				mp->ready[(mp->ready_head + mp->ready_count) %
					  nslots] = (u16)i;
				mp->ready_count++;
			}
		}
	}
	kh_fifo_pop(&mp->wrq);
	return true;
}

/* ---- the engine ---- */

static bool kh_port_engine(struct kh_mag_port *mp, u64 now)
{
	const struct kh_sim_params *p = mp->mag->mesh->p;
	u32 nslots = p->wr_slots;

	switch (mp->fsm) {
	case KH_FSM_IDLE: {
		bool rd = !kh_fifo_empty(&mp->rdq), wr = mp->ready_count != 0;

		if (rd && (!wr || !mp->prefer_write)) {
			const struct kh_flit *f = kh_fifo_head(&mp->rdq);
			unsigned int flags = kh_flit_get(f, KH_MEM_FLAGS);

			if (flags & (KH_MEMF_STREAM | KH_MEMF_QUANT))
				kh_mesh_log(mp->mag->mesh,
					    "MAG port %u: entry/stream read not modelled, served as a plain read",
					    mp->idx);
			mp->rd_sx = kh_flit_get(f, KH_HDR_SRC_X);
			mp->rd_sy = kh_flit_get(f, KH_HDR_SRC_Y);
			mp->rd_txn = kh_flit_get(f, KH_HDR_TXN);
			mp->rd_addr = kh_port_local(mp,
						    kh_flit_get(f, KH_MEM_ADDR));
			mp->rd_beats = kh_flit_get(f, KH_MEM_LEN) + 1;
			mp->rd_sent = 0;
			kh_fifo_pop(&mp->rdq);
			mp->reads++;
			mp->mag->rd_count++;
			mp->fsm = KH_FSM_RD_WAIT;
			mp->fsm_until = now + p->mem_rd_latency;
			mp->prefer_write = true;
			return true;
		}
		if (wr) {
			struct kh_mag_slot *sl;

			mp->wr_slot = mp->ready[mp->ready_head];
			mp->ready_head = (mp->ready_head + 1) % nslots;
			mp->ready_count--;
			sl = &mp->slots[mp->wr_slot];
			sl->state = KH_SLOT_ISSUED;
			mp->fsm = KH_FSM_WR_ISSUE;
			mp->fsm_until = now + sl->len + 1;	/* W beats */
			mp->prefer_write = false;
			return true;
		}
		return false;
	}
	case KH_FSM_RD_WAIT:
		if (now < mp->fsm_until)
			return false;
		mp->fsm = KH_FSM_RD_SEND;
		return true;
	case KH_FSM_WR_ISSUE: {
		struct kh_mag_land *l;

		if (now < mp->fsm_until)
			return false;
		l = &mp->land[(mp->land_head + mp->land_count) % nslots];
		l->slot = mp->wr_slot;
		l->at = now + p->mem_wr_latency;
		mp->land_count++;
		mp->fsm = KH_FSM_IDLE;
		return true;
	}
	default:
		return false;
	}
}

/* BVALID: the data is in DRAM, the ack may go. */
static bool kh_port_land(struct kh_mag_port *mp, u64 now)
{
	struct kh_mesh *m = mp->mag->mesh;
	u32 nslots = m->p->wr_slots;
	bool progress = false;

	while (mp->land_count && mp->land[mp->land_head].at <= now) {
		u16 si = mp->land[mp->land_head].slot;
		struct kh_mag_slot *sl = &mp->slots[si];
		u64 a = kh_port_local(mp, sl->addr);
		unsigned int b;

		for (b = 0; b <= sl->len; b++, a += KH_PAYLOAD_BYTES) {
			if (!kh_dram_in_range(&m->dram, a, KH_PAYLOAD_BYTES)) {
				mp->out_of_range++;
				continue;
			}
			kh_dram_write(&m->dram, a, sl->data[b],
				      KH_PAYLOAD_BYTES);
		}
		mp->writes++;
		mp->mag->wr_count++;
		sl->state = KH_SLOT_ACK;
		mp->ackq[(mp->ack_head + mp->ack_count) % nslots] = si;
		mp->ack_count++;
		mp->land_head = (mp->land_head + 1) % nslots;
		mp->land_count--;
		progress = true;
	}
	return progress;
}

/* Engine traffic into the port's output register (agent went first). */
static bool kh_port_output(struct kh_mag_port *mp)
{
	struct kh_mesh *m = mp->mag->mesh;
	u32 nslots = m->p->wr_slots;
	struct kh_flit f;

	if (!kh_link_free(&mp->out))
		return false;
	memset(&f, 0, sizeof(f));
	if (mp->ack_count) {
		u16 si = mp->ackq[mp->ack_head];
		struct kh_mag_slot *sl = &mp->slots[si];

		/* payload zero: MEM_WR_ACK has no status */
		kh_flit_hdr(&f, sl->sx, sl->sy, mp->x, mp->y, KH_T_MEM_WR_ACK,
			    sl->txn, 1);
		kh_link_load(&mp->out, &f);
		sl->state = KH_SLOT_FREE;
		mp->ack_head = (mp->ack_head + 1) % nslots;
		mp->ack_count--;
		return true;
	}
	if (mp->fsm == KH_FSM_RD_SEND) {
		u64 a = mp->rd_addr + (u64)mp->rd_sent * KH_PAYLOAD_BYTES;
		u8 buf[KH_PAYLOAD_BYTES];

		if (kh_dram_in_range(&m->dram, a, KH_PAYLOAD_BYTES)) {
			kh_dram_read(&m->dram, a, buf, sizeof(buf));
		} else {
			memset(buf, 0, sizeof(buf));
			mp->out_of_range++;
		}
		kh_flit_hdr(&f, mp->rd_sx, mp->rd_sy, mp->x, mp->y,
			    KH_T_MEM_RD_RESP, mp->rd_txn,
			    mp->rd_sent + 1 == mp->rd_beats);
		kh_bytes_to_payload(f.w, buf);
		kh_link_load(&mp->out, &f);
		if (++mp->rd_sent == mp->rd_beats)
			mp->fsm = KH_FSM_IDLE;
		return true;
	}
	return false;
}

static bool kh_port_pending(const struct kh_mag_port *mp)
{
	return !kh_fifo_empty(&mp->rdq) || !kh_fifo_empty(&mp->wrq) ||
	       mp->ready_count || mp->land_count || mp->ack_count ||
	       mp->fsm != KH_FSM_IDLE;
}

static u64 kh_port_deadline(const struct kh_mag_port *mp)
{
	u64 t = KH_NEVER;

	if (mp->fsm == KH_FSM_RD_WAIT || mp->fsm == KH_FSM_WR_ISSUE)
		t = mp->fsm_until;
	if (mp->land_count)
		t = kh_min_u64(t, mp->land[mp->land_head].at);
	return t;
}

/* The port the agent sends a flit to row dy by: that row's, else port 0. */
static unsigned int kh_mag_agent_port(const struct kh_mag *g, unsigned int dy)
{
	unsigned int i;

	for (i = 0; i < g->n_ports; i++)
		if (g->port[i].y == dy)
			return i;
	return 0;
}

static unsigned int kh_mag_tick(struct kh_node *n)
{
	struct kh_mag *g = kh_container_of(n, struct kh_mag, node);
	struct kh_orch *o = &g->orch;
	u64 now = kh_node_now(n), t = KH_NEVER;
	u32 tx0 = o->tx.count;
	bool progress = false, pending = false;
	unsigned int i;

	/* agent outbound first: it has priority at every port */
	if (!kh_fifo_empty(&o->tx)) {
		const struct kh_flit *h = kh_fifo_head(&o->tx);
		struct kh_mag_port *mp =
			&g->port[kh_mag_agent_port(g, kh_flit_get(h, KH_HDR_DST_Y))];

		if (kh_link_free(&mp->out)) {
			kh_link_load(&mp->out, h);
			kh_fifo_pop(&o->tx);
			progress = true;
		}
	}
	if (kh_orch_tick(o, tx0))
		progress = true;

	for (i = 0; i < g->n_ports; i++) {
		struct kh_mag_port *mp = &g->port[i];

		if (kh_port_intake(mp))
			progress = true;
		if (kh_port_engine(mp, now))
			progress = true;
		if (kh_port_land(mp, now))
			progress = true;
		if (kh_port_output(mp))
			progress = true;
		if (kh_port_pending(mp))
			pending = true;
		t = kh_min_u64(t, kh_port_deadline(mp));
	}
	kh_node_timer(n, t);
	if (kh_orch_pending(o))
		pending = true;
	if (progress)
		return KH_TICK_AWAKE | KH_TICK_PROGRESS;
	return pending ? KH_TICK_AWAKE : 0;
}

static const struct kh_node_ops kh_mag_node_ops = {
	.tick = kh_mag_tick,
};

static int kh_port_init(struct kh_mag_port *mp, struct kh_mag *g,
			unsigned int idx, unsigned int y)
{
	const struct kh_sim_params *p = g->mesh->p;
	int e;

	mp->mag = g;
	mp->idx = idx;
	mp->x = 0;
	mp->y = y;
	mp->sink.ops = &kh_port_sink_ops;
	mp->sink.node = &g->node;
	mp->slot_stall_since = KH_NEVER;
	e = kh_fifo_init(&mp->rdq, p->q_depth);
	if (!e)
		e = kh_fifo_init(&mp->wrq, p->q_depth);
	if (e)
		return e;
	mp->slots = kh_plat_zalloc(sizeof(*mp->slots) * p->wr_slots);
	mp->ready = kh_plat_zalloc(sizeof(*mp->ready) * p->wr_slots);
	mp->land = kh_plat_zalloc(sizeof(*mp->land) * p->wr_slots);
	mp->ackq = kh_plat_zalloc(sizeof(*mp->ackq) * p->wr_slots);
	if (!mp->slots || !mp->ready || !mp->land || !mp->ackq)
		return -ENOMEM;
	return kh_node_add_out(&g->node, &mp->out);
}

static void kh_port_fini(struct kh_mag_port *mp)
{
	kh_fifo_fini(&mp->rdq);
	kh_fifo_fini(&mp->wrq);
	kh_plat_free(mp->slots);
	kh_plat_free(mp->ready);
	kh_plat_free(mp->land);
	kh_plat_free(mp->ackq);
}

struct kh_mag *kh_mag_create(struct kh_mesh *m, const u8 *rows,
			     unsigned int n_ports, int *err)
{
	struct kh_mag *g = kh_plat_zalloc(sizeof(*g));
	unsigned int i;
	int e;

	if (!g) {
		*err = -ENOMEM;
		return NULL;
	}
	g->mesh = m;
	g->n_ports = n_ports;
	e = kh_sched_add(m->sched, &g->node, &kh_mag_node_ops);
	for (i = 0; !e && i < n_ports; i++)
		e = kh_port_init(&g->port[i], g, i, rows[i]);
	if (!e)
		e = kh_orch_init(&g->orch, g, m->p, 0, rows[0],
				 m->hi_x > m->hi_y ? m->hi_x : m->hi_y);
	if (e) {
		*err = e;
		kh_mag_destroy(g);
		return NULL;
	}
	return g;
}

void kh_mag_destroy(struct kh_mag *g)
{
	unsigned int i;

	if (!g)
		return;
	for (i = 0; i < g->n_ports; i++)
		kh_port_fini(&g->port[i]);
	kh_orch_fini(&g->orch);
	kh_plat_free(g);
}

void kh_mag_reset(struct kh_mag *g)
{
	const struct kh_sim_params *p = g->mesh->p;
	unsigned int i;

	for (i = 0; i < g->n_ports; i++) {
		struct kh_mag_port *mp = &g->port[i];

		kh_fifo_clear(&mp->rdq);
		kh_fifo_clear(&mp->wrq);
		memset(mp->slots, 0, sizeof(*mp->slots) * p->wr_slots);
		mp->ready_head = mp->ready_count = 0;
		mp->land_head = mp->land_count = 0;
		mp->ack_head = mp->ack_count = 0;
		mp->fsm = KH_FSM_IDLE;
		mp->prefer_write = false;
		mp->out.valid = false;
		mp->slot_stall_since = KH_NEVER;
	}
	g->rd_count = 0;
	g->wr_count = 0;
	kh_orch_reset(&g->orch);
	kh_node_timer(&g->node, KH_NEVER);
}
