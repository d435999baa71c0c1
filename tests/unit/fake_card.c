// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The scripted fake card of fake_card.h: one mesh's orchestrator window and
 * the nodes behind it, as a discrete-event simulation in the fake's own
 * device time.  It models what the driver core relies on and nothing more:
 * the register map of kohakutpu.md 4.2, the mailbox (a request to a node is
 * answered once, to the port's one reply slot, 3.1), the dispatcher (pushes
 * staged flits while it has credit, 4.3), the nodes (execute in order, each
 * instruction signals once into NODE_STATUS, 4.5), and the landed-write
 * counter of AUX_STAT (4.6).
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_card_int.h"

static void fake_violation(struct fake_card *fc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fake_violation(struct fake_card *fc, const char *fmt, ...)
{
	va_list ap;

	if (!fc->obs.violations++) {
		va_start(ap, fmt);
		vsnprintf(fc->obs.violation, sizeof(fc->obs.violation), fmt, ap);
		va_end(ap);
	}
}

static u16 fake_depth(const struct fake_port *p)
{
	return (p->caps >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK;
}

/* ---- the nodes ---- */

static u64 fake_inst_time(const struct fake_port *p, u32 nth)
{
	if (nth < FAKE_SCRIPT && p->inst_ns[nth] != FAKE_UNSET)
		return p->inst_ns[nth];
	return p->exec_ns;
}

/* A unit runs its instructions in order, one at a time, from start on. */
u64 fake_schedule(struct fake_port *p, u32 nth, u64 start)
{
	if (nth >= p->hang_at || p->busy_until == FAKE_NEVER) {
		p->busy_until = FAKE_NEVER;
		return FAKE_NEVER;
	}
	if (p->busy_until > start)
		start = p->busy_until;
	p->busy_until = start + fake_inst_time(p, nth);
	return p->busy_until;
}

/* The dispatcher gets credit back, or is kicked: it pushes from t on. */
static void fake_push_from(struct fake_card *fc, u64 t)
{
	if (fc->next_push < t + fc->push_ns)
		fc->next_push = t + fc->push_ns;
}

static void fake_receive(struct fake_card *fc, u8 yx, const struct kh_flit *f,
			 u64 t)
{
	struct fake_port *p = &fc->port[yx];
	struct fake_node_obs *o = &p->obs;
	struct fake_inst *in;
	u32 nth;

	if (kh_flit_get(f, KH_HDR_TYPE) != KH_T_CU_INST)
		fake_violation(fc, "dispatched a flit of type %llu to (%u,%u)",
			       kh_flit_get(f, KH_HDR_TYPE), KH_YX_X(yx), KH_YX_Y(yx));
	if (p->kind != FAKE_NODE) {
		fake_violation(fc, "dispatched an instruction to (%u,%u), which is no node",
			       KH_YX_X(yx), KH_YX_Y(yx));
		return;
	}
	if (p->count >= fake_depth(p))
		fake_violation(fc, "node (%u,%u) got an instruction with %u of its %u FIFO entries taken",
			       KH_YX_X(yx), KH_YX_Y(yx), p->count, fake_depth(p));
	if (p->count >= FAKE_FIFO)
		return;
	nth = o->pushed++;
	in = &p->fifo[(p->head + p->count++) % FAKE_FIFO];
	in->nth = nth;
	in->txn = kh_flit_get(f, KH_HDR_TXN);
	in->last = kh_flit_get(f, KH_HDR_LAST);
	in->done_at = fake_schedule(p, nth, t);
	if (p->count > o->max_outstanding)
		o->max_outstanding = p->count;
	if (nth < FAKE_LOG) {
		o->txn[nth] = in->txn;
		o->last[nth] = in->last;
		o->w0[nth] = f->w[0];
		o->w1[nth] = f->w[1];
		o->w3[nth] = f->w[3];
	}
}

/* The unit retires its oldest instruction at t and signals it. */
static void fake_retire(struct fake_card *fc, u8 yx, u64 t)
{
	struct fake_port *p = &fc->port[yx];
	struct fake_inst *in = &p->fifo[p->head];
	unsigned int code = in->last ? KH_SIG_BATCH_COMPLETE : KH_SIG_INST_COMPLETE;
	u32 arg = in->last ? in->txn : 0;
	unsigned int i;

	if (in->nth < FAKE_SCRIPT && p->sig_code[in->nth] >= 0) {
		code = p->sig_code[in->nth];
		arg = p->sig_arg[in->nth];
	}
	p->head = (p->head + 1) % FAKE_FIFO;
	p->count--;
	p->obs.done++;
	if (in->nth < FAKE_LOG)
		p->obs.signalled_at[in->nth] = t;
	p->node_status = ((u64)code << 56) | ((u64)arg << 24) |
			 ((u64)((KH_NS_COUNT(p->node_status) + 1) & 0xffff) << 8) |
			 KH_NS_VALID;
	fc->sig_done++;
	if (code == KH_SIG_INST_COMPLETE) {
		if (!fc->credit++ && fc->run)
			fake_push_from(fc, t);
	}
	if (code == KH_SIG_BATCH_COMPLETE && fc->aux_arm_n) {
		for (i = 1; i <= fc->aux_arm_n && fc->n_aux < FAKE_AUX; i++)
			fc->aux_at[fc->n_aux++] = t + i * fc->aux_arm_interval;
		fc->aux_arm_n = 0;
	}
}

/* ---- the dispatcher ---- */

static void fake_push(struct fake_card *fc, u64 t)
{
	struct kh_flit f;

	memcpy(f.w, fc->stage[fc->slot % KH_ORC_STAGE_FLITS], sizeof(f.w));
	f.w[4] &= 0xffffffffULL;
	fc->credit--;
	fc->slot++;
	if (!--fc->left)
		fc->run = false;
	fc->next_push = t + fc->push_ns;
	fake_receive(fc, fc->run_dst, &f, t);
}

/* is the staging slot one the running dispatcher has still to read */
static bool fake_stage_busy(const struct fake_card *fc, unsigned int slot)
{
	unsigned int i;

	for (i = 0; fc->run && i < fc->left; i++)
		if ((fc->slot + i) % KH_ORC_STAGE_FLITS == slot)
			return true;
	return false;
}

/* ---- the mailbox ---- */

static void fake_deliver(struct fake_card *fc, struct fake_reply_ev *r)
{
	r->used = false;
	fc->port[r->port].pending = false;
	fc->inflight--;
	if (r->lose)
		return;
	if (fc->rx_count == KH_ORC_RX_DEPTH) {
		fc->rx_overflow = true;
		return;
	}
	fc->rx[(fc->rx_head + fc->rx_count++) % KH_ORC_RX_DEPTH] = r->f;
}

static void fake_reply_send(struct fake_card *fc, u8 port, const struct kh_flit *f,
			    bool lose)
{
	unsigned int i;

	for (i = 0; i < FAKE_REPLIES; i++) {
		struct fake_reply_ev *r = &fc->reply[i];

		if (r->used)
			continue;
		r->used = true;
		r->lose = lose;
		r->port = port;
		r->at = fc->now + fc->port[port].reply_delay;
		r->f = *f;
		fc->port[port].pending = true;
		if (++fc->inflight > fc->obs.ctrl_max_inflight)
			fc->obs.ctrl_max_inflight = fc->inflight;
		return;
	}
	fake_violation(fc, "more than %d CU_CTRL replies on the way", FAKE_REPLIES);
}

/* A node's own reply to a CU_CTRL read (kohakutpu.md 2.5, 3.2). */
static void fake_node_answer(struct fake_card *fc, u8 yx, const struct kh_flit *req)
{
	struct fake_port *p = &fc->port[yx];
	unsigned int nth = p->n_requests++;
	unsigned int act = nth < FAKE_SCRIPT ? p->act[nth] : FAKE_REPLY_OK;
	unsigned int index = kh_flit_get(req, KH_CTRL_INDEX);
	unsigned int txn = kh_flit_get(req, KH_HDR_TXN);
	u8 src = act == FAKE_REPLY_BAD_SRC ? p->bad_src : yx;
	struct kh_flit f = { { 0 } };
	u64 value = 0;

	if (index == KH_CTRL_IDX_CAPS)
		value = p->n_caps++ && p->caps_later_set ? p->caps_later : p->caps;
	else if (index <= KH_CTRL_IDX_DBG)
		value = p->regs[index];
	if (act == FAKE_REPLY_BAD_TXN)
		txn = (txn + 0x80) & 0xff;
	kh_flit_hdr(&f, kh_flit_get(req, KH_HDR_SRC_X), kh_flit_get(req, KH_HDR_SRC_Y),
		    KH_YX_X(src), KH_YX_Y(src), KH_T_CU_CTRL, txn, 1);
	kh_flit_set(&f, KH_CTRL_OP, KH_CTRL_OP_REPLY);
	kh_flit_set(&f, KH_CTRL_INDEX, index);
	kh_flit_set(&f, KH_CTRL_VALUE, value);
	fake_reply_send(fc, yx, &f, act == FAKE_REPLY_LOSE);
}

/* A flit out of the TX FIFO, into the mesh. */
static void fake_tx_out(struct fake_card *fc, struct kh_flit f)
{
	struct fake_port *p;
	unsigned int i;
	u8 yx, asked;

	/* a 32-bit path sends its instructions this way, to the agent's signals */
	if (fc->ctrl32 && kh_flit_get(&f, KH_HDR_TYPE) == KH_T_CU_INST) {
		yx = KH_YX(kh_flit_get(&f, KH_HDR_SRC_X), kh_flit_get(&f, KH_HDR_SRC_Y));
		if (fc->port[yx].kind != FAKE_ECHO)
			fake_violation(fc, "an instruction with src (%u,%u): its signals go there, not to the agent",
				       KH_YX_X(yx), KH_YX_Y(yx));
		fc->obs.mbox_insts++;
		fake_receive(fc, KH_YX(kh_flit_get(&f, KH_HDR_DST_X),
				       kh_flit_get(&f, KH_HDR_DST_Y)), &f, fc->now);
		return;
	}
	if (kh_flit_get(&f, KH_HDR_TYPE) != KH_T_CU_CTRL) {
		fake_violation(fc, "the mailbox sent a flit of type %llu",
			       kh_flit_get(&f, KH_HDR_TYPE));
		return;
	}
	fc->obs.ctrl_requests++;
	yx = KH_YX(kh_flit_get(&f, KH_HDR_DST_X), kh_flit_get(&f, KH_HDR_DST_Y));
	asked = yx;
	if (fc->port[yx].kind == FAKE_CLAMP)
		yx = fc->port[yx].port;
	p = &fc->port[yx];
	for (i = 0; i < 256; i++)
		if (fc->port[i].pending &&
		    fc->port[i].pending_txn == kh_flit_get(&f, KH_HDR_TXN))
			fake_violation(fc, "CU_CTRL txn %llu reused while (%u,%u) may still answer it",
				       kh_flit_get(&f, KH_HDR_TXN), KH_YX_X(i), KH_YX_Y(i));
	if (p->pending) {
		/*
		 * The RTL accepts and discards it (ctrl_hit && !ctrl_pend).
		 * A coordinate asked again while its request is out, or a
		 * node's own request and a clamped one sharing its one reply
		 * slot, is the core's mistake; two clamped requests meeting
		 * at a port (the 32-bit path's wide probe) only lose one of
		 * them, which is no node's.
		 */
		if (asked == p->pending_yx ||
		    (p->kind == FAKE_NODE && (asked == yx || p->pending_yx == yx)))
			fake_violation(fc, "CU_CTRL to (%llu,%llu) (port (%u,%u)) while one is pending there",
				       kh_flit_get(&f, KH_HDR_DST_X),
				       kh_flit_get(&f, KH_HDR_DST_Y),
				       KH_YX_X(yx), KH_YX_Y(yx));
		return;
	}
	p->pending_txn = kh_flit_get(&f, KH_HDR_TXN);
	p->pending_yx = asked;
	switch (p->kind) {
	case FAKE_NODE:
		fake_node_answer(fc, yx, &f);
		break;
	case FAKE_ECHO:
		fake_reply_send(fc, yx, &f, false);
		break;
	default:
		/* nobody there: no reply, ever */
		p->pending = true;
		break;
	}
}

static void fake_tx_kick(struct fake_card *fc)
{
	struct kh_flit f;

	memcpy(f.w, fc->tx, sizeof(f.w));
	f.w[4] &= 0xffffffffULL;
	if (!fc->tx_hold) {
		fake_tx_out(fc, f);
		return;
	}
	if (fc->n_tx_held == KH_ORC_TX_DEPTH) {
		fake_violation(fc, "TX_KICK into a full TX FIFO (ignored)");
		return;
	}
	fc->tx_held[fc->n_tx_held++] = f;
}

void fake_tx_stuck(struct fake_card *fc, bool on)
{
	unsigned int i;

	pthread_mutex_lock(&fc->lock);
	fc->tx_hold = on;
	if (!on) {
		for (i = 0; i < fc->n_tx_held; i++)
			fake_tx_out(fc, fc->tx_held[i]);
		fc->n_tx_held = 0;
	}
	pthread_mutex_unlock(&fc->lock);
}

/* ---- time: everything due by now happens, in time order ---- */

static void fake_run(struct fake_card *fc)
{
	for (;;) {
		enum { NONE, PUSH, RETIRE, REPLY, AUX } what = NONE;
		u64 t = FAKE_NEVER;
		unsigned int i, which = 0;

		if (fc->run && fc->credit && fc->next_push < t) {
			t = fc->next_push;
			what = PUSH;
		}
		for (i = 0; i < fc->n_nodes; i++) {
			struct fake_port *p = &fc->port[fc->nodes[i]];

			if (p->count && p->fifo[p->head].done_at < t) {
				t = p->fifo[p->head].done_at;
				what = RETIRE;
				which = fc->nodes[i];
			}
		}
		for (i = 0; i < FAKE_REPLIES; i++) {
			if (fc->reply[i].used && fc->reply[i].at < t) {
				t = fc->reply[i].at;
				what = REPLY;
				which = i;
			}
		}
		for (i = 0; i < fc->n_aux; i++) {
			if (fc->aux_at[i] < t) {
				t = fc->aux_at[i];
				what = AUX;
				which = i;
			}
		}
		if (what == NONE || t > fc->now)
			return;
		switch (what) {
		case PUSH:
			fake_push(fc, t);
			break;
		case RETIRE:
			fake_retire(fc, which, t);
			break;
		case REPLY:
			fake_deliver(fc, &fc->reply[which]);
			break;
		case AUX:
			fc->aux_wr++;
			fc->obs.last_aux_at = t;
			fc->aux_at[which] = fc->aux_at[--fc->n_aux];
			break;
		default:
			break;
		}
	}
}

/* ---- the register window ---- */

static u64 fake_reg_read(struct fake_card *fc, u32 off)
{
	const struct kh_flit *h = &fc->rx[fc->rx_head];
	unsigned int w;

	switch (off) {
	case KH_ORC_CTRL:
		return fc->ctrl;
	case KH_ORC_CAPS:
		return fc->caps;
	case KH_ORC_STATUS:
		return (fc->run || fc->n_tx_held ? KH_ORC_STATUS_BUSY : 0) |
		       KH_ORC_STATUS_READY;
	case KH_ORC_PROG_DST:
		return fc->prog_dst;
	case KH_ORC_PROG_LEN:
		return fc->prog_len;
	case KH_ORC_PROG_BASE:
		return fc->prog_base;
	case KH_ORC_PROG_STAT:
		return (fc->run ? KH_PROG_STAT_RUN : 0) | ((u64)fc->left << 1) |
		       ((u64)fc->credit << 17);
	case KH_ORC_PROG_CRED:
		return fc->credit;
	case KH_ORC_SIG_DONE:
		return fc->sig_done;
	case KH_ORC_AUX_STAT:
		return (u64)fc->aux_wr << 8;
	case KH_ORC_TX_STATUS:
		/* the fake's TX FIFO drains at once, unless held */
		return fc->n_tx_held == KH_ORC_TX_DEPTH ? KH_TX_STATUS_FULL : 0;
	case KH_ORC_RX_STATUS:
		return (fc->rx_count ? 0 : KH_RX_STATUS_EMPTY) |
		       (fc->rx_overflow ? KH_RX_STATUS_OVERFLOW : 0);
	}
	if (off >= KH_ORC_TX_FLIT(0) && off < KH_ORC_TX_FLIT(KH_FLIT_WORDS))
		return fc->tx[(off - KH_ORC_TX_FLIT(0)) / 8];
	if (off >= KH_ORC_RX_FLIT(0) && off < KH_ORC_RX_FLIT(KH_FLIT_WORDS)) {
		w = (off - KH_ORC_RX_FLIT(0)) / 8;
		fc->obs.rx_flit_reads[w]++;
		return fc->rx_count ? h->w[w] : 0;
	}
	if (off >= KH_ORC_NODE_STATUS(0) && off < KH_ORC_STAGE(0))
		return fc->port[(off >> 3) & 0xff].node_status;
	return 0;	/* STAGE is write-only; the rest reads 0 */
}

static void fake_stage_write(struct fake_card *fc, u32 off, u64 v)
{
	u32 rel = off - KH_ORC_STAGE(0);
	unsigned int slot = rel / KH_FLIT_BYTES, w = (rel % KH_FLIT_BYTES) / 8;

	if (slot >= KH_ORC_STAGE_FLITS) {
		fake_violation(fc, "STAGE write past slot %u (0x%x)",
			       KH_ORC_STAGE_FLITS - 1, off);
		return;
	}
	if (fake_stage_busy(fc, slot))
		fake_violation(fc, "STAGE slot %u written while the dispatcher has it to read",
			       slot);
	fc->stage[slot][w] = v;
	fc->obs.stage_writes++;
}

static void fake_reg_write(struct fake_card *fc, u32 off, u64 v)
{
	struct fake_obs *o = &fc->obs;

	switch (off) {
	case KH_ORC_CTRL:
		fc->ctrl = v;
		break;
	case KH_ORC_PROG_DST:
		fc->prog_dst = v;
		return;
	case KH_ORC_PROG_LEN:
		fc->prog_len = v;
		return;
	case KH_ORC_PROG_BASE:
		fc->prog_base = v;
		return;
	case KH_ORC_PROG_KICK:
		if (fc->run || !fc->prog_len) {
			fake_violation(fc, "PROG_KICK the orchestrator ignores (%s)",
				       fc->run ? "running" : "LEN 0");
			return;
		}
		fc->run = true;
		fc->run_dst = fc->prog_dst;
		fc->left = fc->prog_len;
		fc->slot = fc->prog_base;
		fc->next_push = 0;
		fake_push_from(fc, fc->now);
		if (o->n_kicks < FAKE_LOG)
			o->kick[o->n_kicks] = (struct fake_kick){
				fc->prog_dst, fc->prog_base, fc->prog_len, fc->now };
		o->n_kicks++;
		return;
	case KH_ORC_PROG_CRED:
		/* a host write always wins */
		fc->credit = v;
		if (fc->credit && fc->run)
			fake_push_from(fc, fc->now);
		if (o->n_cred < FAKE_LOG)
			o->cred[o->n_cred] = (struct fake_cred){ v, fc->now };
		o->n_cred++;
		return;
	case KH_ORC_SIG_DONE:
		fc->sig_done = 0;
		return;
	case KH_ORC_TX_KICK:
		if (fc->run) {
			fake_violation(fc, "TX_KICK while the dispatcher runs (ignored)");
			return;
		}
		fake_tx_kick(fc);
		return;
	case KH_ORC_RX_POP:
		if (fc->rx_count) {
			fc->rx_head = (fc->rx_head + 1) % KH_ORC_RX_DEPTH;
			fc->rx_count--;
		}
		return;
	}
	if (off >= KH_ORC_TX_FLIT(0) && off < KH_ORC_TX_FLIT(KH_FLIT_WORDS)) {
		fc->tx[(off - KH_ORC_TX_FLIT(0)) / 8] = v;
		o->tx_flit_writes[(off - KH_ORC_TX_FLIT(0)) / 8]++;
	} else if (off >= KH_ORC_STAGE(0)) {
		fake_stage_write(fc, off, v);
	}
}

/* an access: device time passes, what was due happens, then the access */
static bool fake_access(struct fake_card *fc, u32 offset, u32 *off)
{
	fc->now += fc->step;
	fake_run(fc);
	if (offset < KH_MESH_BASE(0) || offset >= KH_MESH_BASE(0) + KH_MESH_SIZE)
		return false;
	*off = (offset - KH_MESH_BASE(0)) & KH_ORC_DECODE_MASK;
	return true;
}

/*
 * The core polls a simulated card without sleeping, so while a test holds a
 * job its worker spins here.  Now and then it lets the test's own thread
 * run: under valgrind, which runs one thread at a time, a spinning thread
 * would otherwise keep it waiting for seconds.  Device time is per access,
 * so this changes nothing the core sees.
 */
static void fake_unlock(struct fake_card *fc)
{
	bool yield = !(++fc->accesses % 64);

	pthread_mutex_unlock(&fc->lock);
	if (yield)
		sched_yield();
}

static u64 fake_read64(void *ctx, u32 offset)
{
	struct fake_card *fc = ctx;
	u64 v = 0;
	u32 off;

	pthread_mutex_lock(&fc->lock);
	if (fake_access(fc, offset, &off))
		v = fake_reg_read(fc, off);
	fake_unlock(fc);
	return v;
}

static void fake_write64(void *ctx, u32 offset, u64 value)
{
	struct fake_card *fc = ctx;
	u32 off;

	pthread_mutex_lock(&fc->lock);
	if (fake_access(fc, offset, &off))
		fake_reg_write(fc, off, value);
	else
		fake_violation(fc, "write to BAR0+0x%x, outside mesh 0", offset);
	fake_unlock(fc);
}

/* is this clock read the one fake_trap_arm*() is waiting for */
static bool fake_trap_catches(struct fake_card *fc)
{
	if (!fc->trap.armed || fc->trap.caught ||
	    !!pthread_equal(pthread_self(), fc->trap.owner) != fc->trap.self)
		return false;
	if (fc->trap.skip) {
		fc->trap.skip--;
		return false;
	}
	return true;
}

static u64 fake_now_ns(void *ctx)
{
	struct fake_card *fc = ctx;
	u64 t;

	pthread_mutex_lock(&fc->lock);
	if (fake_trap_catches(fc)) {
		fc->trap.caught = true;
		pthread_cond_broadcast(&fc->trap.cond);
		while (fc->trap.armed)
			pthread_cond_wait(&fc->trap.cond, &fc->lock);
	} else if (fc->trap.armed && fc->trap.caught) {
		fc->trap.reads++;
		pthread_cond_broadcast(&fc->trap.cond);
	}
	t = fc->now;
	pthread_mutex_unlock(&fc->lock);
	return t;
}

static void fake_idle_ns(void *ctx, u64 ns)
{
	fake_jump(ctx, ns);
}

/*
 * The 32-bit path (fake_set_ctrl32()): a beat at off (4-aligned), as the
 * orchestrator decodes it.  The clock wizard's STATUS reads locked.
 */
static u32 fake_read32(void *ctx, unsigned int bar, u32 offset)
{
	struct fake_card *fc = ctx;
	u32 off, v = 0;

	pthread_mutex_lock(&fc->lock);
	if (bar || (offset & 3)) {
		fake_violation(fc, "32-bit read of BAR%u+0x%x", bar, offset);
	} else if (fake_access(fc, offset, &off)) {
		if (!(off & 4))
			v = (u32)fake_reg_read(fc, off);
		else if (KH_ORC_HI_READABLE(off & ~7u))
			v = fake_reg_read(fc, off & ~7u) >> 32;
		/* the interrupt addon answers here; the shipped RTL reads 0 */
		else if ((off & KH_ORC_DECODE_MASK) == KH_ORC_CAPS + 4)
			v = fake_reg_read(fc, off & ~7u) & KH_CAPS_IRQ_ADDON ?
			    fake_reg_read(fc, off & ~7u) >> 32 : 0;
		else
			fake_violation(fc, "read of 0x%x: a named register's upper half reads 0",
				       off);
	} else if (offset == KH_CLKWIZ_BASE(0) + KH_CLK_STATUS) {
		v = KH_CLK_LOCKED;
	} else if (offset >= KH_CLKWIZ_BASE(0) &&
		   offset < KH_CLKWIZ_BASE(0) + sizeof(fc->wiz)) {
		v = fc->wiz[(offset - KH_CLKWIZ_BASE(0)) / 4];
	}
	fake_unlock(fc);
	return v;
}

static void fake_write32(void *ctx, unsigned int bar, u32 offset, u32 value)
{
	struct fake_card *fc = ctx;
	u64 beat = (u64)value << 32 | value;
	u32 off, w;

	pthread_mutex_lock(&fc->lock);
	if (!bar && !(offset & 3) && offset >= KH_CLKWIZ_BASE(0) &&
	    offset < KH_CLKWIZ_BASE(0) + sizeof(fc->wiz)) {
		/* the wizard: stored; a LOAD counted (the fake mesh is not reset) */
		fc->wiz[(offset - KH_CLKWIZ_BASE(0)) / 4] = value;
		if (offset == KH_CLKWIZ_BASE(0) + KH_CLK_LOAD) {
			unsigned int i;

			/*
			 * A retune resets the mesh (kohakutpu.md 12.4): no
			 * request from before it is answered any more.
			 */
			fc->wiz_loads++;
			fc->wiz[KH_CLK_LOAD / 4] = 0;
			for (i = 0; i < 256; i++)
				fc->port[i].pending = false;
		}
		if (offset == KH_CLKWIZ_BASE(0) + KH_CLK_DUTY(0) && !value)
			fake_violation(fc, "duty 0 written to the wizard: a read-merge-write?");
	} else if (bar || (offset & 3) || !fake_access(fc, offset, &off)) {
		fake_violation(fc, "32-bit write to BAR%u+0x%x, outside mesh 0",
			       bar, offset);
	} else if (off >= KH_ORC_TX_FLIT(0) && off < KH_ORC_TX_FLIT(KH_FLIT_WORDS)) {
		/* the byte enables: the addressed half alone */
		w = (off - KH_ORC_TX_FLIT(0)) / 8;
		if (off & 4)
			fc->tx[w] = (fc->tx[w] & 0xffffffffULL) | (beat & ~0xffffffffULL);
		else
			fc->tx[w] = (fc->tx[w] & ~0xffffffffULL) | value;
		fc->obs.tx_half_writes++;
	} else if (off >= KH_ORC_STAGE(0)) {
		fake_violation(fc, "STAGE written on a 32-bit path (0x%x): the word takes the value twice",
			       off);
		fake_stage_write(fc, off & ~7u, beat);
	} else if (off & 4) {
		fake_violation(fc, "32-bit write at 0x%x: the orchestrator ignores it", off);
	} else {
		/* the whole bus word, the value on both halves */
		fake_reg_write(fc, off, beat);
	}
	fake_unlock(fc);
}

static const struct kh_hw_ops fake_ops = {
	.read64 = fake_read64,
	.write64 = fake_write64,
	.now_ns = fake_now_ns,
	.idle_ns = fake_idle_ns,
};

static const struct kh_hw_ops fake_ops32 = {
	.bar_read32 = fake_read32,
	.bar_write32 = fake_write32,
	.now_ns = fake_now_ns,
	.idle_ns = fake_idle_ns,
};

/* ---- the card's life ---- */

struct fake_card *fake_card_create(unsigned int grid_lo, unsigned int grid_hi)
{
	struct fake_card *fc = calloc(1, sizeof(*fc));
	unsigned int i, k;

	if (!fc)
		return NULL;
	pthread_mutex_init(&fc->lock, NULL);
	pthread_cond_init(&fc->trap.cond, NULL);
	fc->step = FAKE_STEP_NS;
	fc->push_ns = 10;
	/* the wizard's built configuration: 300/600/300/300 MHz */
	fc->wiz[KH_CLK_CFG0 / 4] = KH_CLK_CFG0_BUILT;
	for (i = 0; i < KH_CLK_MESH_OUTPUTS; i++)
		fc->wiz[KH_CLK_DIV(i) / 4] = KH_CLK_BUILT_DIV(i);
	fc->caps = KH_FLIT_WIDTH | ((u64)KH_POS_WIDTH << 16) |
		   ((u64)grid_lo << 24) | ((u64)grid_hi << 32);
	for (i = 0; i < 256; i++) {
		struct fake_port *p = &fc->port[i];

		p->reply_delay = 1000;
		p->exec_ns = 200;
		p->hang_at = ~0u;
		for (k = 0; k < FAKE_SCRIPT; k++) {
			p->inst_ns[k] = FAKE_UNSET;
			p->sig_code[k] = -1;
		}
		for (k = 0; k < FAKE_LOG; k++)
			p->obs.signalled_at[k] = FAKE_NEVER;
	}
	return fc;
}

void fake_card_destroy(struct fake_card *fc)
{
	unsigned int i;

	if (!fc)
		return;
	for (i = 0; i < 256; i++)
		free(fc->port[i].fifo);
	pthread_cond_destroy(&fc->trap.cond);
	pthread_mutex_destroy(&fc->lock);
	free(fc);
}

void fake_card_hw(struct fake_card *fc, struct kh_hw *hw)
{
	memset(hw, 0, sizeof(*hw));
	hw->ops = fc->ctrl32 ? &fake_ops32 : &fake_ops;
	hw->ctx = fc;
	hw->flags = KH_HW_SIMULATED | (fc->ctrl32 ? KH_HW_CTRL32 : 0);
	hw->mesh_mem_size[0] = 1 << 20;
	if (fc->ctrl32)
		hw->bar_size[0] = KH_BAR0_SIZE;
}

void fake_set_ctrl32(struct fake_card *fc)
{
	fc->ctrl32 = true;
}

u64 fake_caps(u16 cu_type, u8 version, u8 n_buffers, u16 inst_depth)
{
	return ((u64)cu_type << KH_CAPS_CU_TYPE_SHIFT) |
	       ((u64)version << KH_CAPS_VERSION_SHIFT) |
	       ((u64)(n_buffers & KH_CAPS_NBUF_MASK) << KH_CAPS_NBUF_SHIFT) |
	       ((u64)inst_depth << KH_CAPS_DEPTH_SHIFT);
}
