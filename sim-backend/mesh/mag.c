// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MAG memory ports, the converged path, the host apertures and the agent.
 *
 * Inbound, every port demultiplexes by type: MEM_RD_REQ to the read queue,
 * MEM_WR_REQ/MEM_WR_DATA to the write queue, a flit with rsvd[2] = 1 to
 * the interlink, everything else to the agent (the orchestrator), which
 * never stalls memory.  A port's noc_in_busy is either queue at Q_DEPTH -
 * Q_MARGIN or more, or the interlink's egress full: MAG's own state only.
 *
 * Writes are reassembled per source coordinate in WR_SLOTS slots; a
 * descriptor finding no free slot stalls the write queue (the hardware
 * hangs there), data finding no open slot is dropped.  The write engine
 * serves write issue and plain reads in turn (a plain read shares the
 * write FSM): a read waits the DRAM latency and sends one MEM_RD_RESP per
 * beat; a write puts its beats on the bus, lands after the write latency,
 * and then sends MEM_WR_ACK.  Entry and stream reads (STREAM and/or QUANT)
 * have their own engine, running concurrently with the write engine: one
 * AXI burst per entry, converted once (QUANT: 8 beats of FP16 in, 4 words
 * of MXFP7 out), sent to the requester and then to each peer.  Outbound,
 * agent traffic goes first, then the interlink's injections, then acks,
 * then read data (plain beats and entry words alternating).
 *
 * Every access decodes its 40-bit address on the converged path: [39] = 0
 * is DRAM ([37:36] naming another mesh aliases locally and sets the
 * interlink's RD_REMOTE), aperture 0 is the L2 staging RAM, and any other
 * aperture is a fault on the unit path: the request gets no response (and
 * a write no ack), counted.
 */
#include "mag.h"
#include "ilink.h"
#include "mxfp7.h"
#include "util.h"

#define KSIM_MAG_ADDR_MASK	((1ULL << 40) - 1)

/* the port a sink is in; const for a const sink (busy()) */
#define sink_port(s)	ksim_container_of(s, struct ksim_mag_port, sink)

static bool ksim_port_busy(const struct ksim_sink *s)
{
	const struct ksim_mag_port *mp = sink_port(s);
	const struct ksim_params *p = mp->mag->mesh->p;
	u32 lim = p->q_depth - p->q_margin;

	return mp->rdq.count >= lim || mp->wrq.count >= lim ||
	       (mp->mag->il && ksim_ilink_full(mp->mag->il));
}

static void ksim_port_take(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_mag_port *mp = sink_port(s);
	bool ok = true;

	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_MEM_RD_REQ:
		ok = ksim_fifo_push(&mp->rdq, f);
		break;
	case KH_T_MEM_WR_REQ:
	case KH_T_MEM_WR_DATA:
		ok = ksim_fifo_push(&mp->wrq, f);
		break;
	default:
		if (kh_flit_get(f, KH_HDR_REMOTE) && mp->mag->il)
			ksim_ilink_take(mp->mag->il, f);
		else
			ksim_orch_agent_take(&mp->mag->orch, f);
		break;
	}
	if (!ok)
		ksim_mesh_log(mp->mag->mesh, "MAG port %u: out of memory, flit lost",
			    mp->idx);
}

static const struct ksim_sink_ops ksim_port_sink_ops = {
	.busy = ksim_port_busy,
	.take = ksim_port_take,
};

u64 ksim_mag_aux_stat(const struct ksim_mag *g)
{
	return ksim_mover_stat(&g->mv) | ((u64)g->rd_count << 24) |
	       ((u64)g->wr_count << 8);
}

void ksim_mag_aux_cfg(struct ksim_mag *g, u32 off, u64 v)
{
	off &= 0xff;
	if (off < KH_IL_CTRL)
		ksim_mover_cfg(&g->mv, off, v);
	else if (g->il)
		ksim_ilink_cfg(g->il, off, v);
	/* no interlink: nothing decodes 0x80-0xff */
}

u64 ksim_mag_aux_statw(const struct ksim_mag *g, unsigned int i)
{
	/* reads 0 when the interlink is absent */
	return g->il ? ksim_ilink_statw(g->il, i & 15) : 0;
}

/* This mesh's id as MAG compares it: the interlink's live id, if any. */
static unsigned int ksim_mag_mesh_id(const struct ksim_mag *g)
{
	return g->il ? g->il->mesh_id : g->mesh->id;
}

/* [37:36] naming another mesh: counted, interlink fault RD_REMOTE. */
static void ksim_mag_remote_alias(struct ksim_mag *g, u64 addr, u64 *count)
{
	unsigned int mesh = (addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK;

	if (mesh == ksim_mag_mesh_id(g))
		return;
	(*count)++;
	if (g->il)
		ksim_ilink_fault(g->il, KH_IL_FAULT_RD_REMOTE);
}

/*
 * ---- the converged path ----
 *
 * Decode a 40-bit address ([39] = 0: DRAM [35:0]; aperture 0: L2 staging
 * [31:0]; anything else: KSIM_CV_NONE), and access one 32-byte word at a
 * decoded offset.  L2 offsets wrap at its size; a read or a write past
 * the DRAM end returns false (read as zeros, the write dropped).  MAG's
 * children reach them through struct ksim_cv (mesh/cv.h).
 */

static unsigned int ksim_mag_cv_decode(const struct ksim_mag *g, u64 addr,
				       u64 *off)
{
	unsigned int ap;

	addr &= KSIM_MAG_ADDR_MASK & ~(u64)(KH_PAYLOAD_BYTES - 1);
	if (!(addr & KH_MADDR_SPECIAL)) {
		*off = addr & KH_MADDR_LOCAL_MASK;
		return KSIM_CV_DRAM;
	}
	ap = (addr >> KH_MADDR_APERTURE_SHIFT) & KH_MADDR_APERTURE_MASK;
	if (ap == KH_AP_L2_STAGE && g->l2.size) {
		*off = addr & KH_AP_OFFSET_MASK;
		return KSIM_CV_L2;
	}
	*off = 0;
	return KSIM_CV_NONE;
}

static u64 ksim_mag_cv_size(const struct ksim_mag *g, unsigned int tgt)
{
	switch (tgt) {
	case KSIM_CV_DRAM:
		return g->mesh->dram.size;
	case KSIM_CV_L2:
		return g->l2.size;
	default:
		return 0;
	}
}

static bool ksim_mag_cv_read(struct ksim_mag *g, unsigned int tgt, u64 off,
			     u8 *buf)
{
	struct ksim_dram *d = tgt == KSIM_CV_L2 ? &g->l2 : &g->mesh->dram;

	if (tgt == KSIM_CV_L2)
		off %= d->size;		/* the RAM address is truncated */
	if (tgt == KSIM_CV_NONE ||
	    !ksim_dram_in_range(d, off, KH_PAYLOAD_BYTES)) {
		memset(buf, 0, KH_PAYLOAD_BYTES);
		return false;
	}
	ksim_dram_read(d, off, buf, KH_PAYLOAD_BYTES);
	return true;
}

static bool ksim_mag_cv_write(struct ksim_mag *g, unsigned int tgt, u64 off,
			      const u8 *buf)
{
	struct ksim_dram *d = tgt == KSIM_CV_L2 ? &g->l2 : &g->mesh->dram;
	if (tgt == KSIM_CV_L2)
		off %= d->size;
	if (tgt == KSIM_CV_NONE ||
	    !ksim_dram_in_range(d, off, KH_PAYLOAD_BYTES))
		return false;
	ksim_dram_write(d, off, buf, KH_PAYLOAD_BYTES);
	return true;
}

/* A unit-path word read: zeros (counted) past the end of its target. */
static void ksim_port_read_word(struct ksim_mag_port *mp, unsigned int tgt,
			      u64 off, u8 *buf)
{
	if (!ksim_mag_cv_read(mp->mag, tgt, off, buf))
		mp->out_of_range++;
	else if (ksim_unlikely(mp->mag->mesh->obs) && tgt == KSIM_CV_DRAM)
		mp->mag->mesh->obs->ops->mem_read(mp->mag->mesh->obs, mp, off,
						  buf);	/* a dram knob */
}

static void ksim_port_ap_fault(struct ksim_mag_port *mp, const char *what,
			     unsigned int sx, unsigned int sy, u64 addr)
{
	mp->ap_faults++;
	ksim_mesh_log(mp->mag->mesh,
		    "MAG port %u: %s from (%u,%u) at 0x%010llx: aperture %u is not served, no response",
		    mp->idx, what, sx, sy, (unsigned long long)addr,
		    (unsigned int)((addr >> KH_MADDR_APERTURE_SHIFT) &
				   KH_MADDR_APERTURE_MASK));
}

/* ---- write intake: one flit per cycle from the write queue ---- */

static int ksim_port_free_slot(const struct ksim_mag_port *mp)
{
	u32 i;

	for (i = 0; i < mp->mag->mesh->p->wr_slots; i++)
		if (mp->slots[i].state == KSIM_SLOT_FREE)
			return (int)i;
	return -1;
}

static int ksim_port_open_slot(const struct ksim_mag_port *mp, unsigned int sx,
			     unsigned int sy)
{
	int best = -1;
	u32 i;

	for (i = 0; i < mp->mag->mesh->p->wr_slots; i++) {
		const struct ksim_mag_slot *sl = &mp->slots[i];

		if (sl->state != KSIM_SLOT_FILL || sl->sx != sx || sl->sy != sy)
			continue;
		if (best < 0 || (s32)(sl->seq - mp->slots[best].seq) < 0)
			best = (int)i;
	}
	return best;
}

static bool ksim_port_intake(struct ksim_mag_port *mp)
{
	const struct kh_flit *f = ksim_fifo_head(&mp->wrq);
	u32 nslots = mp->mag->mesh->p->wr_slots;
	unsigned int sx, sy;
	struct ksim_mag_slot *sl;
	int i;

	if (!f)
		return false;
	sx = kh_flit_get(f, KH_HDR_SRC_X);
	sy = kh_flit_get(f, KH_HDR_SRC_Y);
	if (kh_flit_get(f, KH_HDR_TYPE) == KH_T_MEM_WR_REQ) {
		i = ksim_port_free_slot(mp);
		if (i < 0) {
			/* no free slot: the write path stalls (a hang) */
			if (mp->slot_stall_since == KSIM_NEVER)
				mp->slot_stall_since = ksim_node_now(&mp->mag->node);
			return false;
		}
		if (mp->slot_stall_since != KSIM_NEVER) {
			mp->slot_stall_cycles += ksim_node_now(&mp->mag->node) -
						 mp->slot_stall_since;
			mp->slot_stall_since = KSIM_NEVER;
		}
		sl = &mp->slots[i];
		sl->state = KSIM_SLOT_FILL;
		sl->sx = sx;
		sl->sy = sy;
		sl->txn = kh_flit_get(f, KH_HDR_TXN);
		/* WBURST = 8 is a fixed constant: a larger len aliases */
		sl->len = kh_flit_get(f, KH_MEM_LEN) & (KH_MEM_WBURST - 1);
		sl->got = 0;
		sl->seq = mp->seq++;
		sl->addr = kh_flit_get(f, KH_MEM_ADDR);
	} else {
		i = ksim_port_open_slot(mp, sx, sy);
		if (i < 0) {
			mp->data_dropped++;
			if (ksim_unlikely(mp->mag->mesh->obs))
				mp->mag->mesh->obs->ops->mem_nodata(
					mp->mag->mesh->obs, mp, f);
			ksim_mesh_log(mp->mag->mesh,
				    "MAG port %u: MEM_WR_DATA from (%u,%u) matches no open slot, dropped",
				    mp->idx, sx, sy);
		} else {
			sl = &mp->slots[i];
			ksim_payload_to_bytes(sl->data[sl->got], f->w);
			if (++sl->got == sl->len + 1u) {
				sl->state = KSIM_SLOT_READY;
				sl->ready_at = ksim_node_now(&mp->mag->node);
				mp->ready[(mp->ready_head + mp->ready_count) %
					  nslots] = (u16)i;
				mp->ready_count++;
			}
		}
	}
	ksim_fifo_pop(&mp->wrq);
	return true;
}

/*
 * The mesh's DRAM data bus (docs/model.md "DRAM"): a burst's 512-bit
 * beats cross it one a cycle, from `want` or once the bursts before it
 * have crossed, whichever is later, and never during a refresh (the last
 * dram_rfc cycles of every dram_refi).  Every port's plain
 * and entry reads and its writes share it.  Returns the cycle its first
 * beat crosses.
 */
u64 ksim_mag_dram_burst(struct ksim_mag *g, u64 want, u32 beats256)
{
	const struct ksim_params *p = g->mesh->p;
	u64 t = ksim_max_u64(want, g->bus_free);

	if (p->dram_rfc < p->dram_refi &&
	    t % p->dram_refi >= p->dram_refi - p->dram_rfc)
		t += p->dram_refi - t % p->dram_refi;
	g->bus_free = t + (beats256 + 1) / 2;
	return t;
}

/* ---- the write engine (writes and plain reads) ---- */

static bool ksim_rd_is_entry(const struct kh_flit *f)
{
	return kh_flit_get(f, KH_MEM_FLAGS) & (KH_MEMF_STREAM | KH_MEMF_QUANT);
}

static bool ksim_port_engine(struct ksim_mag_port *mp, u64 now)
{
	const struct ksim_params *p = mp->mag->mesh->p;
	u32 nslots = p->wr_slots;

	switch (mp->fsm) {
	case KSIM_FSM_IDLE: {
		const struct kh_flit *f = ksim_fifo_head(&mp->rdq);
		bool rd = f && !ksim_rd_is_entry(f), wr = mp->ready_count != 0;

		/*
		 * A plain read wins S_IDLE over a ready write, every time
		 * (mag_mem_port.v S_IDLE: take_rd_p, else ws_issue): "a
		 * stalled read stalls a cluster, while a queued write has
		 * already been accepted".  A slot is ready the edge after
		 * its last beat is taken, so it is issued one later.
		 */
		if (rd) {
			u64 addr = kh_flit_get(f, KH_MEM_ADDR), off;
			unsigned int tgt;

			mp->rd_sx = kh_flit_get(f, KH_HDR_SRC_X);
			mp->rd_sy = kh_flit_get(f, KH_HDR_SRC_Y);
			mp->rd_txn = kh_flit_get(f, KH_HDR_TXN);
			mp->rd_beats = kh_flit_get(f, KH_MEM_LEN) + 1;
			mp->rd_sent = 0;
			ksim_fifo_pop(&mp->rdq);
			ksim_mag_remote_alias(mp->mag, addr, &mp->remote_alias);
			tgt = ksim_mag_cv_decode(mp->mag, addr, &off);
			if (tgt == KSIM_CV_NONE) {
				ksim_port_ap_fault(mp, "read", mp->rd_sx,
						 mp->rd_sy, addr);
				return true;
			}
			mp->rd_tgt = tgt;
			mp->rd_addr = off;
			mp->reads++;
			mp->mag->rd_count++;
			mp->fsm = KSIM_FSM_RD_WAIT;
			/* the AR at the RTL's take + 4, the first beat's flit
			 * loaded 2 edges after it crosses the bus */
			mp->fsm_until = ksim_mag_dram_burst(mp->mag,
					now + KSIM_MAG_PLAIN_PIPE - 2 +
					p->mem_rd_latency, mp->rd_beats) + 2;
			return true;
		}
		if (wr && mp->slots[mp->ready[mp->ready_head]].ready_at < now) {
			struct ksim_mag_slot *sl;

			mp->wr_slot = mp->ready[mp->ready_head];
			mp->ready_head = (mp->ready_head + 1) % nslots;
			mp->ready_count--;
			sl = &mp->slots[mp->wr_slot];
			sl->state = KSIM_SLOT_ISSUED;
			mp->fsm = KSIM_FSM_WR_ISSUE;
			/* AW, the W beats from the RTL's issue + 6, BVALID */
			mp->fsm_until = ksim_mag_dram_burst(mp->mag,
					now + KSIM_MAG_WR_PIPE + 1,
					sl->len + 1u) + sl->len +
					p->mem_wr_latency;
			return true;
		}
		return false;
	}
	case KSIM_FSM_RD_WAIT:
		if (now < mp->fsm_until)
			return false;
		mp->fsm = KSIM_FSM_RD_SEND;
		return true;
	case KSIM_FSM_WR_ISSUE: {
		struct ksim_mag_land *l;

		if (now < mp->fsm_until)
			return false;
		/* BVALID: the data is in, the ack follows (S_WR_ACK) */
		l = &mp->land[(mp->land_head + mp->land_count) % nslots];
		l->slot = mp->wr_slot;
		l->at = now;
		mp->land_count++;
		mp->fsm = KSIM_FSM_WR_ACK;
		mp->fsm_until = now + KSIM_MAG_ACK_PIPE;
		return true;
	}
	case KSIM_FSM_WR_ACK:
		/* a write nothing answered has no ack to wait for */
		if (!mp->ack_count && !mp->land_count) {
			mp->fsm = KSIM_FSM_IDLE;
			return true;
		}
		return false;
	default:
		return false;
	}
}

/* BVALID: the data is in memory, the ack may go. */
static bool ksim_port_land(struct ksim_mag_port *mp, u64 now)
{
	struct ksim_mag *g = mp->mag;
	u32 nslots = g->mesh->p->wr_slots;
	bool progress = false;

	while (mp->land_count && mp->land[mp->land_head].at <= now) {
		u16 si = mp->land[mp->land_head].slot;
		struct ksim_mag_slot *sl = &mp->slots[si];
		unsigned int tgt, b;
		u64 off;

		mp->land_head = (mp->land_head + 1) % nslots;
		mp->land_count--;
		progress = true;
		ksim_mag_remote_alias(g, sl->addr, &mp->remote_alias);
		tgt = ksim_mag_cv_decode(g, sl->addr, &off);
		if (tgt == KSIM_CV_NONE) {
			/* nothing answers: no BVALID, no ack, the slot frees */
			ksim_port_ap_fault(mp, "write", sl->sx, sl->sy, sl->addr);
			sl->state = KSIM_SLOT_FREE;
			continue;
		}
		for (b = 0; b <= sl->len; b++, off += KH_PAYLOAD_BYTES) {
			/* a dram knob loses the beat; MAG never knows */
			if (ksim_unlikely(g->mesh->obs) && tgt == KSIM_CV_DRAM &&
			    g->mesh->obs->ops->mem_write(g->mesh->obs, mp, off))
				continue;
			if (!ksim_mag_cv_write(g, tgt, off, sl->data[b]))
				mp->out_of_range++;
		}
		mp->writes++;
		g->wr_count++;
		sl->state = KSIM_SLOT_ACK;
		mp->ackq[(mp->ack_head + mp->ack_count) % nslots] = si;
		mp->ack_count++;
	}
	return progress;
}

/* ---- the entry/stream read engine ---- */

static void ksim_er_start(struct ksim_mag_port *mp, const struct kh_flit *f)
{
	struct ksim_mag_rd *er = &mp->er;
	unsigned int flags = kh_flit_get(f, KH_MEM_FLAGS);
	unsigned int ew = kh_flit_get(f, KH_MEM_ENTRY_WORDS);
	unsigned int np = kh_flit_get(f, KH_MEM_NPEER), i;
	u64 peer = kh_flit_get(f, KH_MEM_PEER);

	memset(er, 0, sizeof(*er));
	er->active = true;
	er->quant = flags & KH_MEMF_QUANT;
	er->blayout = flags & KH_MEMF_BLAYOUT;
	er->sx = kh_flit_get(f, KH_HDR_SRC_X);
	er->sy = kh_flit_get(f, KH_HDR_SRC_Y);
	er->txn = kh_flit_get(f, KH_HDR_TXN);
	er->dx[0] = er->sx;
	er->dy[0] = er->sy;
	for (i = 0; i < np; i++) {
		unsigned int yx = (peer >> (8 * i)) & 0xff;

		er->dx[i + 1] = KH_YX_X(yx);
		er->dy[i + 1] = KH_YX_Y(yx);
	}
	er->ndst = 1 + np;
	if (!ew || ew > KH_MEM_ENTRY_WORDS_MAX)
		ew = KH_MEM_ENTRY_WORDS_MAX;	/* 0 or > 4 means 4 */
	er->in_beats = er->quant ? KH_MX_SRC_BEATS : ew;
	er->out_words = er->quant ? KH_MX_OUT_WORDS : ew;
	er->count = 1;
	if (flags & KH_MEMF_STREAM) {
		er->count = kh_flit_get(f, KH_MEM_COUNT);
		if (!er->count)
			er->count = 1;		/* 0 means 1 */
	}
	er->addr = kh_flit_get(f, KH_MEM_ADDR);
	ksim_mag_remote_alias(mp->mag, er->addr, &mp->remote_alias);
}

static u64 ksim_er_entry_addr(const struct ksim_mag_rd *er, u32 i)
{
	return (er->addr + (u64)i * er->in_beats * KH_PAYLOAD_BYTES) &
	       KSIM_MAG_ADDR_MASK;
}

/*
 * The entry engine fetches one entry at a time (mag_mem_port.v `rs`): the
 * next entry's AR goes out the edge its predecessor's last beat is taken
 * (RS_FILL), and its beats are taken only once the predecessor has gone
 * to the emit buffer (RS_WAIT), the edge after (two with QUANT: q_start,
 * then r_ready).  The R beats reach the port 6 edges after the AR plus
 * the read latency (the dram port's request path and 512-to-256 gearbox,
 * as the plain path), one a cycle.  The quantiser (mx_quant) is done 9
 * edges after an entry's last beat (16 after its first); its result is
 * handed on 2 edges after (q_rdy), a raw entry's the edge after its last
 * beat.  Times here are the RTL's edges: a pop in model cycle P is the
 * RTL's take at P + 1 (as the plain path's KSIM_MAG_PLAIN_PIPE).
 */
static void ksim_er_schedule(struct ksim_mag_port *mp, u64 ar, u64 after)
{
	struct ksim_mag_rd *er = &mp->er;
	u32 lat = mp->mag->mesh->p->mem_rd_latency;
	u64 f, c, l;

	f = ksim_mag_dram_burst(mp->mag, ar + 4 + lat, er->in_beats) +
	    KSIM_MAG_ER_BEAT_PIPE - 4;
	c = ksim_max_u64(f, after + (er->quant ? 2 : 1));
	l = c + er->in_beats - 1;
	er->next_last = l;
	if (er->quant)
		er->next_ready = l + KSIM_MAG_QUANT_TAIL + 2;
	else
		er->next_ready = l + 1;
	er->next_on = true;
	er->next_i = er->fetch_i++;
	mp->reads++;
	mp->mag->rd_count++;
}

/*
 * Schedule the next entry when the engine has none in flight: the first
 * at the request's take, each other once its predecessor went to the
 * emit buffer (`after`).  An entry in an aperture nobody serves gets no
 * AR and no response.
 */
static void ksim_er_issue(struct ksim_mag_port *mp, u64 ar, u64 after)
{
	struct ksim_mag_rd *er = &mp->er;
	u64 off;

	while (er->fetch_i < er->count && !er->next_on) {
		u64 a = ksim_er_entry_addr(er, er->fetch_i);

		if (ksim_mag_cv_decode(mp->mag, a, &off) == KSIM_CV_NONE) {
			ksim_port_ap_fault(mp, "entry read", er->sx, er->sy, a);
			er->fetch_i++;
			continue;
		}
		ksim_er_schedule(mp, ar, after);
		return;
	}
}

/* The head entry into the send buffer, converted once. */
static void ksim_er_load(struct ksim_mag_port *mp)
{
	struct ksim_mag_rd *er = &mp->er;
	u32 i = er->next_i;
	u8 src[KH_MX_SRC_BYTES];
	u64 a = ksim_er_entry_addr(er, i), off;
	unsigned int tgt = ksim_mag_cv_decode(mp->mag, a, &off), b;

	for (b = 0; b < er->in_beats; b++)
		ksim_port_read_word(mp, tgt,
				  off + (u64)b * KH_PAYLOAD_BYTES,
				  er->quant ? src + b * KH_PAYLOAD_BYTES :
				  er->buf[b]);
	if (er->quant)
		ksim_mxfp7_entry(src, er->blayout, &er->buf[0][0]);
	er->have = true;
	er->send_i = i;
	er->pos = 0;
	er->next_on = false;
	mp->entries++;
}

static bool ksim_er_done(const struct ksim_mag_rd *er)
{
	return er->fetch_i >= er->count && !er->next_on && !er->have;
}

static bool ksim_er_step(struct ksim_mag_port *mp, u64 now)
{
	struct ksim_mag_rd *er = &mp->er;
	const struct kh_flit *f;
	bool progress = false;

	if (!er->active) {
		f = ksim_fifo_head(&mp->rdq);
		if (!f || !ksim_rd_is_entry(f))
			return false;
		ksim_er_start(mp, f);
		ksim_fifo_pop(&mp->rdq);
		/* taken (and its AR out) at the RTL's next edge */
		ksim_er_issue(mp, now + 1, now + 1);
		progress = true;
	}
	if (!er->have && er->next_on && er->next_ready <= now &&
	    er->free_at <= now) {
		ksim_er_load(mp);
		/* RS_WAIT hands it on: the next entry's AR went out at the
		 * last beat, its beats are taken from now */
		ksim_er_issue(mp, er->next_last, now);
		progress = true;
	}
	if (ksim_er_done(er))
		er->active = false;	/* e.g. every entry faulted */
	return progress;
}

/* One entry word into the output register. */
static void ksim_er_send(struct ksim_mag_port *mp)
{
	struct ksim_mag_rd *er = &mp->er;
	unsigned int d = er->pos / er->out_words, w = er->pos % er->out_words;
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	/* same txn and word indices for the requester and every peer */
	kh_flit_hdr(&f, er->dx[d], er->dy[d], mp->x, mp->y, KH_T_MEM_RD_RESP,
		    er->txn + er->send_i, w + 1 == er->out_words);
	kh_flit_set(&f, KH_HDR_RSVD_LO, w);
	ksim_bytes_to_payload(f.w, er->buf[w]);
	ksim_link_load(&mp->out, &f);
	if (++er->pos == (u32)er->ndst * er->out_words) {
		er->have = false;
		/* e_act falls with the last word: RS_WAIT's next edge */
		er->free_at = ksim_node_now(&mp->mag->node) + 1;
		if (ksim_er_done(er))
			er->active = false;
	}
}

/* Engine traffic into the port's output register (agent went first). */
static bool ksim_port_output(struct ksim_mag_port *mp)
{
	struct ksim_mesh *m = mp->mag->mesh;
	u32 nslots = m->p->wr_slots;
	bool plain, entry;
	struct kh_flit f;

	if (!ksim_link_free(&mp->out))
		return false;
	memset(&f, 0, sizeof(f));
	if (mp->ack_count && (mp->fsm != KSIM_FSM_WR_ACK ||
			      ksim_node_now(&mp->mag->node) >= mp->fsm_until)) {
		u16 si = mp->ackq[mp->ack_head];
		struct ksim_mag_slot *sl = &mp->slots[si];

		/* payload zero: MEM_WR_ACK has no status */
		kh_flit_hdr(&f, sl->sx, sl->sy, mp->x, mp->y, KH_T_MEM_WR_ACK,
			    sl->txn, 1);
		ksim_link_load(&mp->out, &f);
		sl->state = KSIM_SLOT_FREE;
		mp->ack_head = (mp->ack_head + 1) % nslots;
		mp->ack_count--;
		if (mp->fsm == KSIM_FSM_WR_ACK)
			mp->fsm = KSIM_FSM_IDLE;	/* S_WR_ACK -> S_IDLE */
		return true;
	}
	plain = mp->fsm == KSIM_FSM_RD_SEND;
	entry = mp->er.have;
	if (entry && (!plain || mp->out_turn)) {
		ksim_er_send(mp);
		mp->out_turn = false;
		return true;
	}
	if (plain) {
		u64 a = mp->rd_addr + (u64)mp->rd_sent * KH_PAYLOAD_BYTES;
		u8 buf[KH_PAYLOAD_BYTES];

		ksim_port_read_word(mp, mp->rd_tgt, a, buf);
		kh_flit_hdr(&f, mp->rd_sx, mp->rd_sy, mp->x, mp->y,
			    KH_T_MEM_RD_RESP, mp->rd_txn,
			    mp->rd_sent + 1 == mp->rd_beats);
		ksim_bytes_to_payload(f.w, buf);
		ksim_link_load(&mp->out, &f);
		if (++mp->rd_sent == mp->rd_beats)
			mp->fsm = KSIM_FSM_IDLE;
		mp->out_turn = true;
		return true;
	}
	return false;
}

static bool ksim_port_pending(const struct ksim_mag_port *mp, u64 now)
{
	const struct ksim_mag_rd *er = &mp->er;

	return !ksim_fifo_empty(&mp->rdq) || !ksim_fifo_empty(&mp->wrq) ||
	       mp->ready_count || mp->land_count || mp->ack_count ||
	       mp->fsm != KSIM_FSM_IDLE || er->have ||
	       (er->next_on && er->next_ready <= now);
}

/*
 * Nothing queued, nothing in either engine, nothing to send: every stage
 * of the port would find nothing to do (and ksim_port_pending() would say
 * false, ksim_port_deadline() never), so the tick skips the port.
 */
static bool ksim_port_quiet(const struct ksim_mag_port *mp)
{
	return ksim_fifo_empty(&mp->rdq) && ksim_fifo_empty(&mp->wrq) &&
	       !mp->ready_count && !mp->land_count && !mp->ack_count &&
	       mp->fsm == KSIM_FSM_IDLE && !mp->er.active && !mp->er.have &&
	       !mp->er.next_on;
}

static u64 ksim_port_deadline(const struct ksim_mag_port *mp)
{
	u64 t = KSIM_NEVER;

	if (mp->fsm == KSIM_FSM_RD_WAIT || mp->fsm == KSIM_FSM_WR_ISSUE ||
	    mp->fsm == KSIM_FSM_WR_ACK)
		t = mp->fsm_until;
	if (mp->land_count)
		t = ksim_min_u64(t, mp->land[mp->land_head].at);
	/* a ready slot is issued the edge after it became ready */
	if (mp->ready_count && mp->fsm == KSIM_FSM_IDLE)
		t = ksim_min_u64(t, mp->slots[mp->ready[mp->ready_head]].ready_at + 1);
	if (mp->er.next_on)
		t = ksim_min_u64(t, mp->er.next_ready);
	return t;
}

/* The port the agent sends a flit to row dy by: that row's, else port 0. */
static unsigned int ksim_mag_agent_port(const struct ksim_mag *g, unsigned int dy)
{
	unsigned int i;

	for (i = 0; i < g->n_ports; i++)
		if (g->port[i].y == dy)
			return i;
	return 0;
}

/* Load a flit into the output register of the port on its dst row. */
static bool ksim_mag_inject(struct ksim_mag *g, const struct kh_flit *f)
{
	struct ksim_mag_port *mp =
		&g->port[ksim_mag_agent_port(g, kh_flit_get(f, KH_HDR_DST_Y))];

	if (!ksim_link_free(&mp->out))
		return false;
	ksim_link_load(&mp->out, f);
	return true;
}

/* ---- the converged path as MAG's children reach it (mesh/cv.h) ---- */

static unsigned int ksim_cv_op_decode(void *ctx, u64 addr, u64 *off)
{
	return ksim_mag_cv_decode(ctx, addr, off);
}

static u64 ksim_cv_op_size(void *ctx, unsigned int tgt)
{
	return ksim_mag_cv_size(ctx, tgt);
}

static bool ksim_cv_op_read(void *ctx, unsigned int tgt, u64 off, u8 *buf)
{
	return ksim_mag_cv_read(ctx, tgt, off, buf);
}

static bool ksim_cv_op_write(void *ctx, unsigned int tgt, u64 off,
			     const u8 *buf)
{
	return ksim_mag_cv_write(ctx, tgt, off, buf);
}

static unsigned int ksim_cv_op_mesh_id(void *ctx)
{
	return ksim_mag_mesh_id(ctx);
}

static void ksim_cv_op_remote_alias(void *ctx, u64 addr, u64 *count)
{
	ksim_mag_remote_alias(ctx, addr, count);
}

static bool ksim_cv_op_inject(void *ctx, const struct kh_flit *f)
{
	return ksim_mag_inject(ctx, f);
}

static const struct ksim_cv_ops ksim_mag_cv_ops = {
	.decode = ksim_cv_op_decode,
	.size = ksim_cv_op_size,
	.read = ksim_cv_op_read,
	.write = ksim_cv_op_write,
	.mesh_id = ksim_cv_op_mesh_id,
	.remote_alias = ksim_cv_op_remote_alias,
	.inject = ksim_cv_op_inject,
};

/* n's local count at its first edge at or after global cycle g */
static u64 ksim_mag_local_at(const struct ksim_node *n, u64 g)
{
	const struct ksim_clkdom *d = n->dom;

	if (!d)
		return g;
	g = ksim_clkdom_next_edge(d, g);
	return ksim_clkdom_local(d, g);
}

static unsigned int ksim_mag_tick(struct ksim_node *n)
{
	struct ksim_mag *g = ksim_container_of(n, struct ksim_mag, node);
	struct ksim_orch *o = &g->orch;
	u64 now = ksim_node_now(n), t = KSIM_NEVER;
	u32 tx0 = o->tx.count;
	bool progress = false, pending = false;
	unsigned int i;

	/* agent outbound first: it has priority at every port */
	if (!ksim_fifo_empty(&o->tx) && ksim_mag_inject(g, ksim_fifo_head(&o->tx))) {
		ksim_fifo_pop(&o->tx);
		progress = true;
	}
	if (ksim_orch_tick(o, tx0))
		progress = true;
	/* then the interlink's injections; then the engines */
	if (g->il) {
		/* the interlink keeps card time (ilink.c): its deadline too */
		u64 il_t = KSIM_NEVER;

		if (ksim_ilink_tick(g->il, n->sched->now, &il_t))
			progress = true;
		if (ksim_ilink_pending(g->il))
			pending = true;
		if (il_t != KSIM_NEVER)
			t = ksim_min_u64(t, ksim_mag_local_at(n, il_t));
	}
	if (ksim_mover_tick(&g->mv, now, &t))
		progress = true;

	for (i = 0; i < g->n_ports; i++) {
		struct ksim_mag_port *mp = &g->port[i];
		unsigned int fsm0;

		if (ksim_port_quiet(mp))
			continue;	/* no stage has anything: no deadline */
		if (ksim_port_intake(mp))
			progress = true;
		if (ksim_port_engine(mp, now))
			progress = true;
		if (ksim_port_land(mp, now))
			progress = true;
		fsm0 = mp->fsm;
		if (ksim_port_output(mp)) {
			progress = true;
			/*
			 * The last beat or the ack left: S_IDLE is the next
			 * edge, whose take is this model cycle's.
			 */
			if (fsm0 != KSIM_FSM_IDLE && mp->fsm == KSIM_FSM_IDLE)
				ksim_port_engine(mp, now);
		}
		if (ksim_er_step(mp, now))
			progress = true;
		if (ksim_port_pending(mp, now))
			pending = true;
		t = ksim_min_u64(t, ksim_port_deadline(mp));
	}
	ksim_node_timer(n, t);
	if (ksim_orch_pending(o))
		pending = true;
	if (progress)
		return KSIM_TICK_AWAKE | KSIM_TICK_PROGRESS;
	/*
	 * Nothing moved: what is pending waits for a flit, the host (both
	 * wake the node), an output register to empty or the deadline set
	 * above.  The interlink looks at its peer mesh's state, which wakes
	 * nobody here: with one, tick every cycle.
	 */
	if (g->il)
		return pending ? KSIM_TICK_AWAKE : 0;
	return (pending ? KSIM_TICK_AWAKE : 0) | KSIM_TICK_IDLE;
}

static const struct ksim_node_ops ksim_mag_node_ops = {
	.tick = ksim_mag_tick,
};

/* ---- the host window's apertures ([39] = 1) ---- */

static int ksim_mag_host_hang(struct ksim_mag *g, unsigned int dir, u64 addr,
			    const char *why)
{
	g->host_hang |= dir;
	g->host_hangs++;
	ksim_mesh_log(g->mesh,
		    "host %s at 0x%010llx: %s; the card's host channel hangs (DMA fails with -EIO until the mesh is reset)",
		    dir == KSIM_MAG_HANG_H2C ? "write" : "read",
		    (unsigned long long)addr, why);
	return -EIO;
}

/*
 * Whole 32-byte words covering [addr, addr + len): word i of the range
 * with the bytes outside it zero (the host path forces every strobe).
 */
static void ksim_host_word(u64 addr, const u8 *in, size_t len, u64 w, u8 *word)
{
	u64 b = w < addr ? addr : w;
	u64 e = w + KH_PAYLOAD_BYTES < addr + len ? w + KH_PAYLOAD_BYTES :
		addr + len;

	memset(word, 0, KH_PAYLOAD_BYTES);
	if (e > b)
		memcpy(word + (b - w), in + (b - addr), (size_t)(e - b));
}

/*
 * The quantising upload: the source beats go out in AXI bursts that never
 * cross a 4 KiB boundary; in each burst every 8 beats of FP16 become 4
 * words written at the burst's destination (its address & ([37:36] | low
 * 32 bits)) + 128 per entry.  A burst whose beats are not a multiple of 8
 * leaves an entry waiting for beats that never come: the host AXI hangs.
 */
static int ksim_mag_quant_upload(struct ksim_mag *g, u64 addr, const u8 *in,
			       size_t len)
{
	bool blayout = (addr >> KH_MADDR_APERTURE_SHIFT) & 1;
	u64 w = addr & ~(u64)(KH_PAYLOAD_BYTES - 1), end = addr + len;
	u8 src[KH_MX_SRC_BYTES], out[KH_MX_OUT_BYTES];

	while (w < end) {
		u64 bend = (w | (KH_HOST_BOUNDARY - 1)) + 1, dst, beats, e, i;

		if (bend > end)
			bend = (end + KH_PAYLOAD_BYTES - 1) &
			       ~(u64)(KH_PAYLOAD_BYTES - 1);
		beats = (bend - w) / KH_PAYLOAD_BYTES;
		dst = w & KH_AP_QUANT_DST_MASK & KH_MADDR_LOCAL_MASK;
		for (e = 0; e + KH_MX_SRC_BEATS <= beats; e += KH_MX_SRC_BEATS) {
			for (i = 0; i < KH_MX_SRC_BEATS; i++)
				ksim_host_word(addr, in, len,
					     w + (e + i) * KH_PAYLOAD_BYTES,
					     src + i * KH_PAYLOAD_BYTES);
			ksim_mxfp7_entry(src, blayout, out);
			g->quant_entries++;
			for (i = 0; i < KH_MX_OUT_WORDS; i++) {
				u64 o = dst + (e / 2 + i) * KH_PAYLOAD_BYTES;

				/* past the DRAM: the AXI error is ignored */
				ksim_mag_cv_write(g, KSIM_CV_DRAM, o,
						out + i * KH_PAYLOAD_BYTES);
			}
		}
		if (beats % KH_MX_SRC_BEATS)
			return ksim_mag_host_hang(g, KSIM_MAG_HANG_H2C, w,
						"a quantising-upload burst is not a multiple of 8 beats");
		w = bend;
	}
	return 0;
}

int ksim_mag_host_write(struct ksim_mag *g, u64 addr, const void *buf,
		      size_t len)
{
	unsigned int ap = (addr >> KH_MADDR_APERTURE_SHIFT) &
			  KH_MADDR_APERTURE_MASK;
	u64 w, end = addr + len, off;
	u8 word[KH_PAYLOAD_BYTES];

	if (ap == KH_AP_QUANT_A || ap == KH_AP_QUANT_B)
		return ksim_mag_quant_upload(g, addr, buf, len);
	if (ksim_mag_cv_decode(g, addr, &off) != KSIM_CV_L2)
		return ksim_mag_host_hang(g, KSIM_MAG_HANG_H2C, addr,
					"no aperture answers");
	for (w = addr & ~(u64)(KH_PAYLOAD_BYTES - 1); w < end;
	     w += KH_PAYLOAD_BYTES) {
		ksim_host_word(addr, buf, len, w, word);
		ksim_mag_cv_decode(g, w, &off);
		ksim_mag_cv_write(g, KSIM_CV_L2, off, word);
	}
	return 0;
}

int ksim_mag_host_read(struct ksim_mag *g, u64 addr, void *buf, size_t len)
{
	u64 w, end = addr + len, off;
	u8 word[KH_PAYLOAD_BYTES], *out = buf;

	if (ksim_mag_cv_decode(g, addr, &off) != KSIM_CV_L2)
		return ksim_mag_host_hang(g, KSIM_MAG_HANG_C2H, addr,
					"no aperture answers");
	for (w = addr & ~(u64)(KH_PAYLOAD_BYTES - 1); w < end;
	     w += KH_PAYLOAD_BYTES) {
		u64 b = w < addr ? addr : w;
		u64 e = w + KH_PAYLOAD_BYTES < end ? w + KH_PAYLOAD_BYTES :
			end;

		ksim_mag_cv_decode(g, w, &off);
		ksim_mag_cv_read(g, KSIM_CV_L2, off, word);
		memcpy(out + (b - addr), word + (b - w), (size_t)(e - b));
	}
	return 0;
}

/* ---- life cycle ---- */

static int ksim_port_init(struct ksim_mag_port *mp, struct ksim_mag *g,
			unsigned int idx, unsigned int y)
{
	const struct ksim_params *p = g->mesh->p;
	int e;

	mp->mag = g;
	mp->idx = idx;
	mp->x = 0;
	mp->y = y;
	mp->sink.ops = &ksim_port_sink_ops;
	mp->sink.node = &g->node;
	mp->slot_stall_since = KSIM_NEVER;
	e = ksim_fifo_init(&mp->rdq, p->q_depth);
	if (!e)
		e = ksim_fifo_init(&mp->wrq, p->q_depth);
	if (e)
		return e;
	mp->slots = ksim_plat_zalloc(sizeof(*mp->slots) * p->wr_slots);
	mp->ready = ksim_plat_zalloc(sizeof(*mp->ready) * p->wr_slots);
	mp->land = ksim_plat_zalloc(sizeof(*mp->land) * p->wr_slots);
	mp->ackq = ksim_plat_zalloc(sizeof(*mp->ackq) * p->wr_slots);
	if (!mp->slots || !mp->ready || !mp->land || !mp->ackq)
		return -ENOMEM;
	return ksim_node_add_out(&g->node, &mp->out);
}

static void ksim_port_fini(struct ksim_mag_port *mp)
{
	ksim_fifo_fini(&mp->rdq);
	ksim_fifo_fini(&mp->wrq);
	ksim_plat_free(mp->slots);
	ksim_plat_free(mp->ready);
	ksim_plat_free(mp->land);
	ksim_plat_free(mp->ackq);
}

struct ksim_mag *ksim_mag_create(struct ksim_mesh *m, const u8 *rows,
			     unsigned int n_ports, int *err)
{
	struct ksim_mag *g = ksim_plat_zalloc(sizeof(*g));
	u64 l2 = (u64)m->p->mag_l2_kib << 10;
	unsigned int i;
	int e;

	if (!g) {
		*err = -ENOMEM;
		return NULL;
	}
	g->mesh = m;
	g->cv.ops = &ksim_mag_cv_ops;
	g->cv.ctx = g;
	g->n_ports = n_ports;
	ksim_mover_init(&g->mv, g, &g->cv);
	e = ksim_sched_add(m->sched, &g->node, &ksim_mag_node_ops);
	for (i = 0; !e && i < n_ports; i++)
		e = ksim_port_init(&g->port[i], g, i, rows[i]);
	if (!e)
		e = ksim_orch_init(&g->orch, g, m->p, 0, rows[0],
				 m->hi_x > m->hi_y ? m->hi_x : m->hi_y);
	/* the L2 staging RAM: sparse pages, like DRAM */
	if (!e && l2)
		e = ksim_dram_init(&g->l2, l2);
	if (e) {
		*err = e;
		ksim_mag_destroy(g);
		return NULL;
	}
	return g;
}

void ksim_mag_destroy(struct ksim_mag *g)
{
	unsigned int i;

	if (!g)
		return;
	for (i = 0; i < g->n_ports; i++)
		ksim_port_fini(&g->port[i]);
	ksim_orch_fini(&g->orch);
	ksim_dram_fini(&g->l2);
	ksim_ilink_destroy(g->il);
	ksim_plat_free(g);
}

void ksim_mag_reset(struct ksim_mag *g)
{
	const struct ksim_params *p = g->mesh->p;
	unsigned int i;

	for (i = 0; i < g->n_ports; i++) {
		struct ksim_mag_port *mp = &g->port[i];

		ksim_fifo_clear(&mp->rdq);
		ksim_fifo_clear(&mp->wrq);
		memset(mp->slots, 0, sizeof(*mp->slots) * p->wr_slots);
		mp->ready_head = mp->ready_count = 0;
		mp->land_head = mp->land_count = 0;
		mp->ack_head = mp->ack_count = 0;
		mp->fsm = KSIM_FSM_IDLE;
		mp->out_turn = false;
		memset(&mp->er, 0, sizeof(mp->er));
		ksim_link_clear(&mp->out);
		mp->slot_stall_since = KSIM_NEVER;
	}
	g->rd_count = 0;
	g->bus_free = 0;
	g->wr_count = 0;
	/* a reset ends the hung host transaction; L2 contents survive */
	g->host_hang = 0;
	ksim_mover_reset(&g->mv);
	if (g->il)
		ksim_ilink_reset(g->il);
	ksim_orch_reset(&g->orch);
	ksim_node_timer(&g->node, KSIM_NEVER);
}
