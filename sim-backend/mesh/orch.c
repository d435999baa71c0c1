// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The orchestrator's register map, dispatcher, mailbox and status mirror,
 * with the RTL's quirks: the dispatcher rewrites only dst and src; one
 * 16-bit credit counter, +1 per SIG_INST_COMPLETE from any node, -1 per
 * pushed flit, unchanged when both happen, and a host write always wins;
 * SIG_DONE counts every signal; NODE_STATUS survives reset; a staging slot
 * index past STAGE_FLITS wraps onto stale data.
 */
#include "orch.h"
#include "mag.h"
#include "mesh.h"
#include "util.h"

#define KSIM_ORC_STAGE_BASE	0x2000u

/* An event for the mesh's watcher, which is there (its one test is the caller's). */
static void ksim_orch_watch(struct ksim_orch *o, unsigned int ev,
			    const struct kh_flit *f)
{
	struct ksim_mesh_watch *w = o->mag->mesh->obs;

	w->ops->orch(w, o, ev, f);
}

/* An interrupt-addon event: IRQ_STAT bits set whatever IRQ_EN says. */
static void ksim_orch_irq_event(struct ksim_orch *o, u64 bits)
{
	if (!o->p->irq)
		return;		/* shipped RTL: nothing ever sets IRQ_STAT */
	o->irq_stat |= bits;
	o->irq_ev |= bits;
}

/* Re-evaluate this mesh's contribution to the card's IRQ line. */
static void ksim_orch_irq_update(struct ksim_orch *o)
{
	bool level = (o->irq_stat & o->irq_en & KH_IRQ_ALL) != 0;

	if (level != o->irq_level) {
		o->irq_level = level;
		ksim_irq_set(&o->irq, level);
	}
}

int ksim_orch_init(struct ksim_orch *o, struct ksim_mag *mag,
		 const struct ksim_params *p, unsigned int x, unsigned int y,
		 unsigned int grid_hi)
{
	int e;

	memset(o, 0, sizeof(*o));
	o->mag = mag;
	o->p = p;
	o->x = x;
	o->y = y;
	o->grid_hi = grid_hi;
	o->irq = mag->mesh->irq;
	e = ksim_fifo_init(&o->tx, p->tx_depth);
	if (!e)
		e = ksim_fifo_init(&o->rx, p->rx_depth);
	if (e)
		return e;
	o->stage = ksim_plat_zalloc(sizeof(*o->stage) * p->stage_flits);
	return o->stage ? 0 : -ENOMEM;
}

void ksim_orch_fini(struct ksim_orch *o)
{
	ksim_fifo_fini(&o->tx);
	ksim_fifo_fini(&o->rx);
	ksim_plat_free(o->stage);
	o->stage = NULL;
}

void ksim_orch_reset(struct ksim_orch *o)
{
	o->ctrl = 0;
	o->irq_en = 0;
	o->irq_stat = 0;
	o->irq_ev = 0;
	o->prog_dst = 0;
	o->prog_len = 0;
	o->prog_base = 0;
	o->credit = 0;
	o->left = 0;
	o->slot = 0;
	o->prog_run = false;
	o->sig_done = 0;
	o->cred_inc = 0;
	memset(o->tx_flit, 0, sizeof(o->tx_flit));
	ksim_fifo_clear(&o->tx);
	ksim_fifo_clear(&o->rx);
	o->rx_overflow = false;
	o->wr_pending = false;
	ksim_orch_irq_update(o);
	/* NODE_STATUS and the staging RAM have no reset clause */
}

static u64 ksim_orch_caps(const struct ksim_orch *o)
{
	return KH_FLIT_WIDTH | ((u64)KH_POS_WIDTH << 16) | (1ULL << 24) |
	       ((u64)o->grid_hi << 32) | (o->p->irq ? KH_CAPS_IRQ_ADDON : 0);
}

u64 ksim_orch_read(const struct ksim_orch *o, u32 off)
{
	off &= KH_ORC_DECODE_MASK;
	switch (off) {
	case KH_ORC_CTRL:
		return o->ctrl;
	case KH_ORC_STATUS:
		return (!ksim_fifo_empty(&o->tx) || o->prog_run ?
			KH_ORC_STATUS_BUSY : 0) | KH_ORC_STATUS_READY;
	case KH_ORC_CAPS:
		return ksim_orch_caps(o);
	case KH_ORC_IRQ_STAT:
		return o->irq_stat;	/* 0 without the addon */
	case KH_ORC_IRQ_EN:
		return o->irq_en;
	case KH_ORC_PROG_DST:
		return o->prog_dst;
	case KH_ORC_PROG_LEN:
		return o->prog_len;
	case KH_ORC_PROG_STAT:
		return (o->prog_run ? KH_PROG_STAT_RUN : 0) |
		       ((u64)o->left << 1) | ((u64)o->credit << 17);
	case KH_ORC_PROG_CRED:
		return o->credit;
	case KH_ORC_PROG_BASE:
		return o->prog_base;
	case KH_ORC_SIG_DONE:
		return o->sig_done;
	case KH_ORC_AUX_STAT:
		return ksim_mag_aux_stat(o->mag);
	case KH_ORC_TX_STATUS:
		return ksim_fifo_full(&o->tx) ? KH_TX_STATUS_FULL : 0;
	case KH_ORC_RX_STATUS:
		return (ksim_fifo_empty(&o->rx) ? KH_RX_STATUS_EMPTY : 0) |
		       (o->rx_overflow ? KH_RX_STATUS_OVERFLOW : 0);
	}
	if (off >= KH_ORC_TX_FLIT(0) && off < KH_ORC_TX_FLIT(KH_FLIT_WORDS))
		return o->tx_flit[(off - KH_ORC_TX_FLIT(0)) / 8];
	if (off >= KH_ORC_RX_FLIT(0) && off < KH_ORC_RX_FLIT(KH_FLIT_WORDS)) {
		const struct kh_flit *h = ksim_fifo_head(&o->rx);

		return h ? h->w[(off - KH_ORC_RX_FLIT(0)) / 8] : 0;
	}
	if (off >= KH_ORC_NODE_STATUS(0) && off < KSIM_ORC_STAGE_BASE)
		/* 0x1800-0x1fff alias 0x1000-0x17ff: index = raddr[10:3] */
		return o->node_status[(off >> 3) & 0xff];
	if (off >= KH_ORC_AUX_STATW(0) && off < KH_ORC_AUX_STATW(16))
		return ksim_mag_aux_statw(o->mag, (off - KH_ORC_AUX_STATW(0)) / 8);
	/* STAGE is write-only, AUX_CFG write-only, the rest reads 0 */
	return 0;
}

void ksim_orch_host_write(struct ksim_orch *o, u32 off, u64 val)
{
	if (o->wr_pending)
		ksim_mesh_log(o->mag->mesh, "orchestrator: write 0x%x overtaken",
			    o->wr_off);
	o->wr_pending = true;
	o->wr_off = off & KH_ORC_DECODE_MASK;
	o->wr_val = val;
	ksim_node_wake(&o->mag->node);
}

static void ksim_orch_stage_write(struct ksim_orch *o, u32 off, u64 val)
{
	u32 rel = off - KSIM_ORC_STAGE_BASE;
	/* the RAM address is the slot number truncated: past the end wraps */
	u32 slot = (rel / KH_FLIT_BYTES) % o->p->stage_flits;
	u32 word = (rel % KH_FLIT_BYTES) / 8;

	o->stage[slot][word] = val;
}

void ksim_orch_agent_take(struct ksim_orch *o, const struct kh_flit *f)
{
	if (kh_flit_get(f, KH_HDR_TYPE) == KH_T_CU_SIGNAL) {
		/* absorbed, never queued: the status mirror by {src_y,src_x} */
		unsigned int code = kh_flit_get(f, KH_SIG_CODE);
		unsigned int idx = KH_YX(kh_flit_get(f, KH_HDR_SRC_X),
					 kh_flit_get(f, KH_HDR_SRC_Y));
		u64 ns = o->node_status[idx];
		u64 count = (KH_NS_COUNT(ns) + 1) & 0xffff;

		o->node_status[idx] = ((u64)code << 56) |
				      (kh_flit_get(f, KH_SIG_ARG) << 24) |
				      (count << 8) | KH_NS_VALID;
		o->sig_done++;
		o->signals++;
		if (ksim_unlikely(o->mag->mesh->obs))
			ksim_orch_watch(o, KSIM_ORCH_SIGNAL, f);
		if (code == KH_SIG_INST_COMPLETE)
			o->cred_inc++;
		ksim_orch_irq_event(o, KH_IRQ_SIGNAL |
				  (code == KH_SIG_FAULT ? KH_IRQ_FAULT : 0));
		return;
	}
	if (ksim_fifo_push(&o->rx, f)) {
		ksim_orch_irq_event(o, KH_IRQ_RX);
	} else {
		/* accepted and dropped: the agent never stalls memory */
		o->rx_overflow = true;
		o->rx_dropped++;
		if (ksim_unlikely(o->mag->mesh->obs))
			ksim_orch_watch(o, KSIM_ORCH_RX_DROP, f);
		ksim_orch_irq_event(o, KH_IRQ_RX_OVERFLOW);
		ksim_mesh_log(o->mag->mesh,
			    "agent: RX full, dropped a type 0x%x flit from (%u,%u)",
			    (unsigned int)kh_flit_get(f, KH_HDR_TYPE),
			    (unsigned int)kh_flit_get(f, KH_HDR_SRC_X),
			    (unsigned int)kh_flit_get(f, KH_HDR_SRC_Y));
	}
}

static bool ksim_orch_push_tx(struct ksim_orch *o, const u64 *w)
{
	struct kh_flit f;
	unsigned int i;

	for (i = 0; i < KH_FLIT_WORDS; i++)
		f.w[i] = w[i];
	f.w[4] &= 0xffffffffULL;	/* a flit is 288 bits */
	return ksim_fifo_push(&o->tx, &f);
}

/* Apply the latched host write; returns whether it wrote the credit. */
static bool ksim_orch_apply_write(struct ksim_orch *o, bool run0, bool tx_full0,
				u16 *cred)
{
	u32 off = o->wr_off;
	u64 v = o->wr_val;

	o->wr_pending = false;
	switch (off) {
	case KH_ORC_CTRL:
		o->ctrl = v;
		return false;
	case KH_ORC_IRQ_EN:
		o->irq_en = v;
		return false;
	case KH_ORC_IRQ_STAT:
		/* W1C; an event in this cycle wins over its clear */
		o->irq_stat &= ~(v & ~o->irq_ev);
		return false;
	case KH_ORC_PROG_DST:
		o->prog_dst = (u8)v;
		return false;
	case KH_ORC_PROG_LEN:
		o->prog_len = (u16)v;
		return false;
	case KH_ORC_PROG_BASE:
		o->prog_base = (u16)v;
		return false;
	case KH_ORC_PROG_KICK:
		if (!run0 && o->prog_len) {
			o->prog_run = true;
			o->left = o->prog_len;
			o->slot = o->prog_base;
		}
		return false;
	case KH_ORC_PROG_CRED:
		*cred = (u16)v;
		return true;
	case KH_ORC_SIG_DONE:
		o->sig_done = 0;	/* any write clears */
		return false;
	case KH_ORC_TX_KICK:
		/* the mailbox and the dispatcher share the TX FIFO */
		if (!run0 && !tx_full0 && ksim_orch_push_tx(o, o->tx_flit) &&
		    ksim_unlikely(o->mag->mesh->obs))
			ksim_orch_watch(o, KSIM_ORCH_MBOX, ksim_fifo_at(&o->tx,
							       o->tx.count - 1));
		return false;
	case KH_ORC_RX_POP:
		ksim_fifo_pop(&o->rx);
		return false;
	}
	if (off >= KH_ORC_TX_FLIT(0) && off < KH_ORC_TX_FLIT(KH_FLIT_WORDS)) {
		o->tx_flit[(off - KH_ORC_TX_FLIT(0)) / 8] = v;
	} else if (off >= KSIM_ORC_STAGE_BASE) {
		ksim_orch_stage_write(o, off, v);
	} else if (off >= KH_ORC_AUX_CFG(0) && off < KH_ORC_AUX_CFG(0x100)) {
		/* aux_cfg_addr = waddr[7:0]: 0x00-0x7f mover, 0x80-0xff interlink */
		ksim_mag_aux_cfg(o->mag, off - KH_ORC_AUX_CFG(0), v);
	}
	return false;
}

bool ksim_orch_tick(struct ksim_orch *o, u32 tx_count0)
{
	bool run0 = o->prog_run;
	bool tx_full0 = tx_count0 >= o->tx.depth;
	u16 cred0 = o->credit, host_cred = 0;
	bool pushed = false, host_wrote = false, progress = false;

	/* the dispatcher: one staged flit per cycle, from cycle-start state */
	if (run0 && !tx_full0 && cred0 != 0) {
		struct kh_flit f;
		unsigned int i;

		for (i = 0; i < KH_FLIT_WORDS; i++)
			f.w[i] = o->stage[o->slot % o->p->stage_flits][i];
		f.w[4] &= 0xffffffffULL;
		kh_flit_set(&f, KH_HDR_DST_X, KH_YX_X(o->prog_dst));
		kh_flit_set(&f, KH_HDR_DST_Y, KH_YX_Y(o->prog_dst));
		kh_flit_set(&f, KH_HDR_SRC_X, o->x);
		kh_flit_set(&f, KH_HDR_SRC_Y, o->y);
		if (ksim_fifo_push(&o->tx, &f)) {
			pushed = true;
			o->dispatched++;
			o->slot++;
			if (ksim_unlikely(o->mag->mesh->obs))
				ksim_orch_watch(o, KSIM_ORCH_DISPATCH, &f);
			if (--o->left == 0) {
				o->prog_run = false;
				ksim_orch_irq_event(o, KH_IRQ_PROG_DONE);
			}
		}
		progress = true;
	}

	if (o->wr_pending) {
		host_wrote = ksim_orch_apply_write(o, run0, tx_full0, &host_cred);
		progress = true;
	}

	if (host_wrote)
		o->credit = host_cred;		/* a host write always wins */
	else
		o->credit = (u16)(cred0 - (pushed ? 1 : 0) + o->cred_inc);
	if (o->cred_inc)
		progress = true;
	o->cred_inc = 0;
	if (o->irq_ev)
		progress = true;
	ksim_orch_irq_update(o);
	o->irq_ev = 0;
	return progress;
}

bool ksim_orch_pending(const struct ksim_orch *o)
{
	return o->wr_pending || !ksim_fifo_empty(&o->tx) || o->cred_inc ||
	       (o->prog_run && o->credit && !ksim_fifo_full(&o->tx));
}
