// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * noc_cu_base, seed 001 §3-§6 to the letter:
 *
 * - inbound: CU_INST -> instruction FIFO, CU_CTRL -> answered here,
 *   everything else -> receive FIFO; noc_in_busy = either FIFO full;
 * - CU_CTRL outside that backpressure, one pending reply, a request that
 *   arrives while one is pending is taken and discarded; indices above 3
 *   read 0 unless the unit has an addon window (ksim_unit_type.ctrl_read,
 *   the POOL unit's 0xe8-0xef), which also takes op 1 writes;
 * - outbound register shared in strict priority: CU_SIGNAL from the
 *   16-deep completion queue > CU_CTRL reply > the unit's send path;
 * - one instruction in flight: inst_valid = !inst_empty && !in_flight &&
 *   !sig_full; exec_done queues the completion addressed to the
 *   instruction's src, with the code chosen here (fault > batch > inst).
 */
#include "base.h"
#include "params.h"
#include "util.h"

/* the unit a sink is in; const for a const sink (busy()) */
#define sink_unit(s)	ksim_container_of(s, struct ksim_unit, sink)

static struct ksim_unit *node_unit(struct ksim_node *n)
{
	return ksim_container_of(n, struct ksim_unit, node);
}

/*
 * The unit's own clock (its wizard output, mesh.c): its latencies, timers
 * and the busy count in CU_COUNTERS are in its cycles.
 */
static u64 ksim_unit_now_(const struct ksim_unit *u)
{
	return ksim_node_now(&u->node);
}

u64 ksim_unit_busy_cycles(const struct ksim_unit *u)
{
	u64 c = u->busy_acc;

	if (u->busy)
		c += ksim_unit_now_(u) - u->busy_since;
	return c;
}

/* CU_CTRL register value at index idx, as the base would answer now. */
static u64 ksim_unit_ctrl_value(const struct ksim_unit *u, unsigned int idx)
{
	const struct ksim_params *p = u->mesh->p;
	u32 version = p->cu_version == KSIM_CU_VERSION_MODULE ||
		      u->type->cu_version_fixed ? u->type->cu_version :
		      p->cu_version;

	switch (idx) {
	case KH_CTRL_IDX_CAPS:
		return ((u64)u->type->cu_type << KH_CAPS_CU_TYPE_SHIFT) |
		       ((u64)(version & KH_CAPS_VERSION_MASK) <<
			KH_CAPS_VERSION_SHIFT) |
		       ((u64)(u->type->n_buffers & KH_CAPS_NBUF_MASK) <<
			KH_CAPS_NBUF_SHIFT) |
		       ((u64)(p->inst_depth & KH_CAPS_DEPTH_MASK) <<
			KH_CAPS_DEPTH_SHIFT);
	case KH_CTRL_IDX_STATUS:
		/* [62] error is tied 0 on every build */
		return (u->busy ? KH_STATUS_BUSY : 0) |
		       ((u64)(ksim_fifo_space(&u->inst) & KH_STATUS_SPACE_MASK)
			<< KH_STATUS_SPACE_SHIFT);
	case KH_CTRL_IDX_COUNTERS:
		return ((u64)u->retired << KH_CTR_RETIRED_SHIFT) |
		       (ksim_unit_busy_cycles(u) & KH_CTR_BUSY_MASK);
	case KH_CTRL_IDX_DBG:
		return u->dbg;
	default:
		return 0;
	}
}

/* ---- inbound: the mesh-facing port ---- */

static bool ksim_base_busy(const struct ksim_sink *s)
{
	const struct ksim_unit *u = sink_unit(s);

	if (ksim_unlikely(u->obs) && u->obs->ops->busy(u->obs, u))
		return true;	/* a busy knob */
	/* either FIFO full, whatever the offered flit is (§3.1) */
	return ksim_fifo_full(&u->inst) || ksim_fifo_full(&u->recv);
}

static void ksim_base_ctrl(struct ksim_unit *u, const struct kh_flit *req)
{
	unsigned int idx = kh_flit_get(req, KH_CTRL_INDEX);
	struct kh_flit *r = &u->ctrl_reply;
	bool addon = false;
	u64 v;

	if (u->ctrl_pend) {
		/* §3.1.1: taken off the link, discarded, never answered */
		u->ctrl_dropped++;
		if (ksim_unlikely(u->obs))
			u->obs->ops->ctrl(u->obs, u, req, true);
		ksim_mesh_log(u->mesh,
			    "(%u,%u): CU_CTRL index %u dropped, a reply is pending",
			    u->x, u->y, idx);
		return;
	}
	/* the value as it stands when the request is captured */
	v = ksim_unit_ctrl_value(u, idx);
	if (idx > KH_CTRL_IDX_DBG && u->type->ctrl_read)
		addon = u->type->ctrl_read(u, idx, &v);
	ksim_ctrl_reply(r, req, u->x, u->y, idx, v);
	u->ctrl_pend = true;
	u->ctrl_at = ksim_unit_now_(u);
	if (ksim_unlikely(u->obs))
		u->obs->ops->ctrl(u->obs, u, req, false);
	/* a unit's addon window takes op 1 writes; the base's four are RO */
	if (addon && u->type->ctrl_write &&
	    kh_flit_get(req, KH_CTRL_OP) == KH_CTRL_OP_WRITE)
		u->type->ctrl_write(u, idx, kh_flit_get(req, KH_CTRL_VALUE));
}

static void ksim_base_take(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_unit *u = sink_unit(s);
	bool ok = true;

	u->n_taken++;
	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_CU_INST:
		ok = ksim_fifo_push(&u->inst, f);
		u->inst_at = ksim_unit_now_(u);
		/*
		 * busy = !inst_empty from the next edge on; the node is not
		 * ticked in this cycle (the take wakes it for the next)
		 */
		if (ok && !u->busy) {
			u->busy = true;
			u->busy_since = u->inst_at + 1;
		}
		break;
	case KH_T_CU_CTRL:
		ksim_base_ctrl(u, f);
		break;
	default:
		ok = ksim_fifo_push(&u->recv, f);
		u->recv_at = ksim_unit_now_(u);
		break;
	}
	if (!ok)
		ksim_mesh_log(u->mesh, "(%u,%u): out of memory, flit lost",
			    u->x, u->y);
}

static const struct ksim_sink_ops ksim_base_sink_ops = {
	.busy = ksim_base_busy,
	.take = ksim_base_take,
};

/* ---- the unit-facing handshake ---- */

/* one push a cycle per FIFO: only a lone head can be this cycle's */
static bool ksim_base_inst_young(const struct ksim_unit *u)
{
	return u->inst.count == 1 && u->inst_at == u->tick_now;
}

static bool ksim_base_recv_young(const struct ksim_unit *u)
{
	return u->recv.count == 1 && u->recv_at == u->tick_now;
}

static bool ksim_base_inst_valid(const struct ksim_unit *u)
{
	return !ksim_fifo_empty(&u->inst) && !ksim_base_inst_young(u) &&
	       !u->in_flight && u->sig_count < KH_CU_SIG_DEPTH;
}

const struct kh_flit *ksim_unit_inst(struct ksim_unit *u)
{
	if (u->p_accept || !ksim_base_inst_valid(u))
		return NULL;
	return ksim_fifo_head(&u->inst);
}

void ksim_unit_inst_accept(struct ksim_unit *u)
{
	const struct kh_flit *f;

	if (u->p_accept || !ksim_base_inst_valid(u))
		return;	/* inst_ready without inst_valid does nothing */
	f = ksim_fifo_head(&u->inst);
	u->p_accept = true;
	u->cur_sx = kh_flit_get(f, KH_HDR_SRC_X);
	u->cur_sy = kh_flit_get(f, KH_HDR_SRC_Y);
	u->cur_txn = kh_flit_get(f, KH_HDR_TXN);
	u->cur_last = kh_flit_get(f, KH_HDR_LAST);
	ksim_fifo_pop(&u->inst);
	u->n_accepted++;
}

void ksim_unit_retire(struct ksim_unit *u, u32 result, bool fault)
{
	u->p_done = true;
	u->p_result = result;
	u->p_fault = fault;
}

const struct kh_flit *ksim_unit_recv(struct ksim_unit *u)
{
	if (u->p_pop || ksim_base_recv_young(u))
		return NULL;
	return ksim_fifo_head(&u->recv);
}

void ksim_unit_recv_pop(struct ksim_unit *u)
{
	if (u->p_pop || ksim_fifo_empty(&u->recv) || ksim_base_recv_young(u))
		return;
	if (ksim_unlikely(u->obs))
		u->obs->ops->pop(u->obs, u, ksim_fifo_head(&u->recv));
	ksim_fifo_pop(&u->recv);
	u->p_pop = true;
}

void ksim_unit_drop(struct ksim_unit *u, const struct kh_flit *f,
		  const char *why)
{
	u->dropped++;
	if (ksim_unlikely(u->obs))
		u->obs->ops->drop(u->obs, u, f);
	ksim_mesh_log(u->mesh, "(%u,%u) %s: dropped a type 0x%x flit from (%u,%u): %s",
		    u->x, u->y, u->type->token,
		    (unsigned int)kh_flit_get(f, KH_HDR_TYPE),
		    (unsigned int)kh_flit_get(f, KH_HDR_SRC_X),
		    (unsigned int)kh_flit_get(f, KH_HDR_SRC_Y), why);
}

bool ksim_unit_send_ready(const struct ksim_unit *u)
{
	return u->p_ready && !u->p_sent;
}

bool ksim_unit_send(struct ksim_unit *u, const struct kh_flit *f)
{
	if (ksim_unlikely(u->obs))
		u->obs->ops->send(u->obs, u, f, ksim_unit_send_ready(u));
	if (!ksim_unit_send_ready(u))
		return false;
	ksim_link_load(&u->out, f);
	u->p_sent = true;
	u->n_sent++;
	return true;
}

void ksim_unit_set_dbg(struct ksim_unit *u, u64 dbg)
{
	u->dbg = dbg;
}

void *ksim_unit_priv(struct ksim_unit *u)
{
	return u->priv;
}

const struct ksim_unit_type *ksim_unit_type_of(const struct ksim_unit *u)
{
	return u->type;
}

unsigned int ksim_unit_x(const struct ksim_unit *u)
{
	return u->x;
}

unsigned int ksim_unit_y(const struct ksim_unit *u)
{
	return u->y;
}

unsigned int ksim_unit_mesh(const struct ksim_unit *u)
{
	return u->mesh->id;
}

const struct ksim_params *ksim_unit_params(const struct ksim_unit *u)
{
	return u->mesh->p;
}

u64 ksim_unit_now(const struct ksim_unit *u)
{
	return ksim_unit_now_(u);
}

void ksim_unit_timer(struct ksim_unit *u, u64 at)
{
	ksim_node_timer(&u->node, at);
}

void ksim_unit_mag_port(const struct ksim_unit *u, unsigned int *x,
		      unsigned int *y)
{
	*x = u->mesh->mag_x[u->y];
	*y = u->mesh->mag_y[u->y];
}

void ksim_unit_hdr(const struct ksim_unit *u, struct kh_flit *f, unsigned int dx,
		 unsigned int dy, unsigned int type, unsigned int txn,
		 unsigned int last)
{
	kh_flit_hdr(f, dx, dy, u->x, u->y, type, txn, last);
}

/* ---- the cycle ---- */

static void ksim_base_send_sig(struct ksim_unit *u)
{
	const struct ksim_sig *s = &u->sigq[u->sig_head];
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, s->dx, s->dy, u->x, u->y, KH_T_CU_SIGNAL, s->txn, 1);
	kh_flit_set(&f, KH_SIG_CODE, s->code);
	kh_flit_set(&f, KH_SIG_ARG, s->arg);
	ksim_link_load(&u->out, &f);
	u->sig_head = (u->sig_head + 1) % KH_CU_SIG_DEPTH;
	u->sig_count--;
	u->n_signals++;
}

static void ksim_base_queue_sig(struct ksim_unit *u)
{
	struct ksim_sig *s;

	if (u->sig_count >= KH_CU_SIG_DEPTH) {
		/* cannot happen: inst_valid waits for a free entry */
		ksim_mesh_log(u->mesh, "(%u,%u): completion queue overflow",
			    u->x, u->y);
		return;
	}
	s = &u->sigq[(u->sig_head + u->sig_count) % KH_CU_SIG_DEPTH];
	u->sig_count++;
	s->dx = u->cur_sx;
	s->dy = u->cur_sy;
	s->txn = u->cur_txn;
	if (u->p_fault) {
		s->code = KH_SIG_FAULT;
		s->arg = u->p_result;
	} else if (u->cur_last) {
		s->code = KH_SIG_BATCH_COMPLETE;
		s->arg = u->cur_txn;
	} else {
		s->code = KH_SIG_INST_COMPLETE;
		s->arg = u->p_result;
	}
}

static unsigned int ksim_base_tick(struct ksim_node *n)
{
	struct ksim_unit *u = node_unit(n);
	bool progress = false, busy, unit_progress;
	u64 now = ksim_unit_now_(u);

	/* the outbound register: signal > CU_CTRL reply > unit */
	if (ksim_link_free(&u->out)) {
		if (u->sig_count) {
			ksim_base_send_sig(u);
			progress = true;
		} else if (u->ctrl_pend && u->ctrl_at < now) {
			/* a reply leaves at the earliest the cycle after capture */
			if (!ksim_unlikely(u->obs) ||
			    !u->obs->ops->ctrl_send(u->obs, u))
				ksim_link_load(&u->out, &u->ctrl_reply);
			u->ctrl_pend = false;
			progress = true;
		}
	}

	u->p_accept = u->p_done = u->p_fault = u->p_pop = u->p_sent = false;
	u->tick_now = now;
	u->p_ready = ksim_link_free(&u->out) && !u->sig_count && !u->ctrl_pend;
	if (ksim_unlikely(u->obs))
		u->obs->ops->pre(u->obs, u);
	unit_progress = u->type->tick(u);
	if (unit_progress)
		progress = true;
	if (u->p_accept || u->p_done || u->p_pop || u->p_sent)
		progress = true;

	/*
	 * exec_done: counted always; queued only if an instruction was in
	 * flight before this cycle.  The done arm clears in_flight after the
	 * accept arm set it, so a same-cycle accept + done loses the
	 * completion (§4).
	 */
	if (u->p_done && ksim_unlikely(u->obs))
		u->obs->ops->done(u->obs, u);	/* knobs may fault or hang it */
	if (u->p_done) {
		u->retired++;
		u->n_retired++;
		if (u->in_flight)
			ksim_base_queue_sig(u);
		else
			u->lost_completions++;
	}
	if (u->p_accept)
		u->in_flight = true;
	if (u->p_done)
		u->in_flight = false;

	busy = u->in_flight || !ksim_fifo_empty(&u->inst) || u->sig_count;
	if (busy != u->busy) {
		/* the new state holds from the next cycle on */
		if (busy)
			u->busy_since = now + 1;
		else
			u->busy_acc += now + 1 - u->busy_since;
		u->busy = busy;
	}
	if (ksim_unlikely(u->obs))
		u->obs->ops->post(u->obs, u, unit_progress);

	if (progress)
		return KSIM_TICK_AWAKE | KSIM_TICK_PROGRESS;
	/*
	 * Nothing changed and the unit waits for an instruction, a flit,
	 * send_ready or a timer (ksim_unit.h): the next tick is the same
	 * until one of those comes, all of which wake the node, unless a
	 * CU_CTRL reply is due by time alone or an observer looks at every
	 * tick.
	 */
	if (u->ctrl_pend || ksim_unlikely(u->obs))
		return u->ctrl_pend || u->sig_count ? KSIM_TICK_AWAKE : 0;
	return (u->sig_count ? KSIM_TICK_AWAKE : 0) | KSIM_TICK_IDLE;
}

static const struct ksim_node_ops ksim_base_node_ops = {
	.tick = ksim_base_tick,
};

/* ---- life cycle ---- */

struct ksim_unit *ksim_unit_create(const struct ksim_unit_env *m,
			       const struct ksim_unit_type *type,
			       unsigned int x, unsigned int y, int *err)
{
	struct ksim_unit *u = ksim_plat_zalloc(sizeof(*u));
	int e;

	if (!u) {
		*err = -ENOMEM;
		return NULL;
	}
	u->mesh = m;
	u->type = type;
	u->x = x;
	u->y = y;
	e = ksim_sched_add(m->sched, &u->node, &ksim_base_node_ops);
	if (!e)
		e = ksim_node_add_out(&u->node, &u->out);
	if (!e)
		e = ksim_fifo_init(&u->inst, m->p->inst_depth);
	if (!e)
		e = ksim_fifo_init(&u->recv, m->p->recv_depth);
	if (!e && type->priv_size) {
		u->priv = ksim_plat_zalloc(type->priv_size);
		if (!u->priv)
			e = -ENOMEM;
	}
	if (!e && type->cudata) {
		u->cd = ksim_plat_zalloc(sizeof(*u->cd));
		if (!u->cd)
			e = -ENOMEM;
	}
	if (e)
		goto fail;
	u->sink.ops = &ksim_base_sink_ops;
	u->sink.node = &u->node;
	/* the unit sees a flit the edge after it lands: woken then */
	u->node.take_next = true;
	if (type->init) {
		e = type->init(u);
		if (e)
			goto fail;
	}
	/* a unit starts awake once, to settle its initial state */
	ksim_node_wake(&u->node);
	return u;
fail:
	ksim_fifo_fini(&u->inst);
	ksim_fifo_fini(&u->recv);
	ksim_plat_free(u->cd);
	ksim_plat_free(u->priv);
	ksim_plat_free(u);
	*err = e;
	return NULL;
}

void ksim_unit_destroy(struct ksim_unit *u)
{
	if (!u)
		return;
	if (u->type->fini)
		u->type->fini(u);
	ksim_fifo_fini(&u->inst);
	ksim_fifo_fini(&u->recv);
	ksim_plat_free(u->cd);
	ksim_plat_free(u->priv);
	ksim_plat_free(u);
}

void ksim_unit_reset(struct ksim_unit *u)
{
	ksim_fifo_clear(&u->inst);
	ksim_fifo_clear(&u->recv);
	ksim_unit_cd_reset(u);
	ksim_link_clear(&u->out);
	u->sig_head = u->sig_count = 0;
	u->ctrl_pend = false;
	u->in_flight = false;
	u->retired = 0;
	u->busy = false;
	u->busy_acc = 0;
	u->busy_since = 0;
	u->dbg = 0;
	if (u->type->reset) {
		u->type->reset(u);
	} else {
		if (u->type->fini)
			u->type->fini(u);
		if (u->priv)
			memset(u->priv, 0, u->type->priv_size);
		if (u->type->init && u->type->init(u))
			ksim_mesh_log(u->mesh, "(%u,%u): unit init failed in reset",
				    u->x, u->y);
	}
	ksim_node_timer(&u->node, KSIM_NEVER);
	ksim_node_wake(&u->node);
	if (u->obs)
		u->obs->ops->reset(u->obs, u);
}
