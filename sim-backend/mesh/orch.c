// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The orchestrator's register map, dispatcher, mailbox and status mirror,
 * with the RTL's quirks: the dispatcher rewrites only dst and src; one
 * 16-bit credit counter, +1 per SIG_INST_COMPLETE from any node, -1 per
 * pushed flit, unchanged when both happen, and a host write always wins;
 * SIG_DONE counts every signal; NODE_STATUS survives reset; a staging slot
 * index past STAGE_FLITS wraps onto stale data.  The register map is a
 * table (lib/regs.h, kohakutpu.md §4.2): a host write is latched and
 * applied through it in the orchestrator's next cycle, where the hooks see
 * that cycle's start (a kick while running is ignored).
 *
 * The host's 32-bit path (card/bar.c) reaches the table in beats: an
 * address that may be 4 past a register's, the bus word, byte enables.
 * What each register does with one is its decode in the RTL's AXI FSMs
 * (src/kohakuaccel/noc/ctrl/noc_orchestrator.v): the named registers are
 * a case on the whole address (lines 429-446 writing, 491-510 reading),
 * so a beat at +4 decodes nothing; STAGE, TX_FLIT and AUX_CFG (writes,
 * lines 367-380) and RX_FLIT, AUX_STATW and NODE_STATUS (reads, lines
 * 476-479, 534) are decoded by range, the .span registers; of them only
 * TX_FLIT honours the byte enables (lines 416-420, .strobes).
 */
#include "orch.h"
#include "mag.h"
#include "mesh.h"
#include "util.h"

/* 64-bit words per staged flit: a 288-bit flit is five AXI beats */
#define KSIM_ORCH_FLIT_WORDS	5

/* aux_cfg_addr = waddr[7:0]: 0x00-0x7f the mover, 0x80-0xff the interlink */
#define KSIM_ORC_AUX_CFG_BYTES	0x100u

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
	/* the registers, but NODE_STATUS (keep) */
	ksim_regs_reset(&ksim_orch_regs, o);
	o->irq_ev = 0;
	o->left = 0;
	o->slot = 0;
	o->prog_run = false;
	o->word = 0;
	o->disp_pend = false;
	o->cred_inc = 0;
	ksim_fifo_clear(&o->tx);
	ksim_fifo_clear(&o->rx);
	o->rx_overflow = false;
	o->wr_pending = false;
	ksim_orch_irq_update(o);
	/* NODE_STATUS and the staging RAM have no reset clause */
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

/* ---- the register map (kohakutpu.md §4.2): hooks, then the table ---- */

static u64 ksim_orch_status(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return (!ksim_fifo_empty(&o->tx) || o->prog_run ?
		KH_ORC_STATUS_BUSY : 0) | KH_ORC_STATUS_READY;
}

static u64 ksim_orch_caps(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return KH_FLIT_WIDTH | ((u64)KH_POS_WIDTH << 16) | (1ULL << 24) |
	       ((u64)o->grid_hi << 32) | (o->p->irq ? KH_CAPS_IRQ_ADDON : 0);
}

/* irq-addon.md: W1C, but an event in the write's cycle beats its clear */
static u64 ksim_orch_irq_stat_w1c(void *dev, unsigned int i, u64 old, u64 v)
{
	const struct ksim_orch *o = dev;

	return v | (old & o->irq_ev);
}

/* ignored while running (from the cycle's start) or with LEN = 0 */
static void ksim_orch_prog_kick(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_orch *o = dev;

	if (!o->run0 && o->prog_len) {
		o->prog_run = true;
		o->left = o->prog_len;
		o->slot = o->prog_base;
		o->word = 0;
	}
}

static u64 ksim_orch_prog_stat(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return (o->prog_run ? KH_PROG_STAT_RUN : 0) |
	       ((u64)o->left << 1) | ((u64)o->credit << 17);
}

/* a host write of the credit overrides the cycle's arithmetic */
static void ksim_orch_prog_cred(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_orch *o = dev;

	o->cred_written = true;
}

/* §4.2 SIG_DONE "R / W-clear": any write clears, whatever its value */
static u64 ksim_orch_sig_done_clear(void *dev, unsigned int i, u64 old, u64 v)
{
	return 0;
}

static u64 ksim_orch_aux_stat(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return ksim_mag_aux_stat(o->mag);
}

static u64 ksim_orch_aux_statw(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return ksim_mag_aux_statw(o->mag, i);
}

/* the mailbox and the dispatcher share the TX FIFO */
static void ksim_orch_tx_kick(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_orch *o = dev;

	if (!o->run0 && !o->tx_full0 && ksim_orch_push_tx(o, o->tx_flit) &&
	    ksim_unlikely(o->mag->mesh->obs))
		ksim_orch_watch(o, KSIM_ORCH_MBOX, ksim_fifo_at(&o->tx,
						       o->tx.count - 1));
}

static u64 ksim_orch_tx_status(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return ksim_fifo_full(&o->tx) ? KH_TX_STATUS_FULL : 0;
}

static u64 ksim_orch_rx_flit(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;
	const struct kh_flit *h = ksim_fifo_head(&o->rx);

	return h ? h->w[i] : 0;
}

static void ksim_orch_rx_pop(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_orch *o = dev;

	ksim_fifo_pop(&o->rx);
}

static u64 ksim_orch_rx_status(void *dev, unsigned int i)
{
	const struct ksim_orch *o = dev;

	return (ksim_fifo_empty(&o->rx) ? KH_RX_STATUS_EMPTY : 0) |
	       (o->rx_overflow ? KH_RX_STATUS_OVERFLOW : 0);
}

/*
 * One pulse per write, the window offset as the client address:
 * aux_cfg_addr <= waddr[7:0] (noc_orchestrator.v:426), the beat's own
 * address, so a 32-bit write at +4 pulses a misaligned one (kohakutpu.md
 * 8.4), which the clients decode (mesh/mover.c, mesh/ilink.c).
 */
static void ksim_orch_aux_cfg(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_orch *o = dev;

	ksim_mag_aux_cfg(o->mag, o->wr_off & (KSIM_ORC_AUX_CFG_BYTES - 1), v);
}

/*
 * Word i of the staging RAM past its base: the RAM address is the slot
 * number truncated, so a slot past the end wraps onto a low one.
 */
static void ksim_orch_stage(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_orch *o = dev;
	u32 slot = (i / KH_FLIT_WORDS) % o->p->stage_flits;

	o->stage[slot][i % KH_FLIT_WORDS] = v;
}

#define KSIM_ORC(field)		KSIM_REG_FIELD(struct ksim_orch, field)
#define KSIM_ORC_RUN(field, n)	KSIM_REG_ARRAY(struct ksim_orch, field, n)

/*
 * R(c, name, offset, registers, the rest of its struct ksim_reg); every
 * other offset reads 0 and ignores writes.  IRQ_STAT is 0 without the
 * addon (nothing sets it); AUX_STATW[0..15] are the interlink's, 0
 * without one; RX_FLIT is the head of RX, 0 when empty; AUX_CFG and STAGE
 * are write-only (read 0), STAGE the words of the slots up to the end of
 * the decoded window.  NODE_STATUS is LUTRAM set by an initial block, no
 * reset clause; 0x1800-0x1fff alias it, index = raddr[10:3] ([INFERRED]).
 * .span: the RTL decodes it by range (noc_orchestrator.v: is_tx_fl 368,
 * is_stage 375, is_aux 380 writing; is_rx_fl 477, is_node 478, is_auxst
 * 479 reading), so a 32-bit beat at +4 reaches it; every other register
 * is a case on waddr[15:0]/raddr[15:0] and a beat at +4 decodes nothing.
 * .strobes: TX_FLIT alone takes the byte enables (lines 416-420); STAGE
 * stores the whole bus word (line 415), and so does every named register.
 */
#define KSIM_ORC_REGS(R, c)						\
	R(c, CTRL, KH_ORC_CTRL, 1, KSIM_ORC(ctrl))			\
	R(c, STATUS, KH_ORC_STATUS, 1, .ro = KSIM_REG_ALL,		\
	  .read = ksim_orch_status)					\
	R(c, CAPS, KH_ORC_CAPS, 1, .ro = KSIM_REG_ALL,			\
	  .read = ksim_orch_caps)					\
	R(c, IRQ_STAT, KH_ORC_IRQ_STAT, 1, KSIM_ORC(irq_stat),		\
	  .w1c = KSIM_REG_ALL, .pre_write = ksim_orch_irq_stat_w1c)	\
	R(c, IRQ_EN, KH_ORC_IRQ_EN, 1, KSIM_ORC(irq_en))		\
	R(c, PROG_DST, KH_ORC_PROG_DST, 1, KSIM_ORC(prog_dst))		\
	R(c, PROG_LEN, KH_ORC_PROG_LEN, 1, KSIM_ORC(prog_len))		\
	R(c, PROG_KICK, KH_ORC_PROG_KICK, 1,				\
	  .post_write = ksim_orch_prog_kick)				\
	R(c, PROG_STAT, KH_ORC_PROG_STAT, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_orch_prog_stat)					\
	R(c, PROG_CRED, KH_ORC_PROG_CRED, 1, KSIM_ORC(credit),		\
	  .post_write = ksim_orch_prog_cred)				\
	R(c, PROG_BASE, KH_ORC_PROG_BASE, 1, KSIM_ORC(prog_base))	\
	R(c, SIG_DONE, KH_ORC_SIG_DONE, 1, KSIM_ORC(sig_done),		\
	  .pre_write = ksim_orch_sig_done_clear)			\
	R(c, AUX_STAT, KH_ORC_AUX_STAT, 1, .ro = KSIM_REG_ALL,		\
	  .read = ksim_orch_aux_stat)					\
	R(c, AUX_STATW, KH_ORC_AUX_STATW(0), 16, .ro = KSIM_REG_ALL,	\
	  .read = ksim_orch_aux_statw, .span = true)			\
	R(c, TX_FLIT, KH_ORC_TX_FLIT(0), KH_FLIT_WORDS,			\
	  KSIM_ORC_RUN(tx_flit, KH_FLIT_WORDS), .span = true,		\
	  .strobes = true)						\
	R(c, TX_KICK, KH_ORC_TX_KICK, 1, .post_write = ksim_orch_tx_kick) \
	R(c, TX_STATUS, KH_ORC_TX_STATUS, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_orch_tx_status)					\
	R(c, RX_FLIT, KH_ORC_RX_FLIT(0), KH_FLIT_WORDS, .ro = KSIM_REG_ALL, \
	  .read = ksim_orch_rx_flit, .span = true)			\
	R(c, RX_POP, KH_ORC_RX_POP, 1, .post_write = ksim_orch_rx_pop)	\
	R(c, RX_STATUS, KH_ORC_RX_STATUS, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_orch_rx_status)					\
	R(c, AUX_CFG, KH_ORC_AUX_CFG(0), KSIM_ORC_AUX_CFG_BYTES / 8,	\
	  .post_write = ksim_orch_aux_cfg, .span = true)		\
	R(c, NODE_STATUS, KH_ORC_NODE_STATUS(0), KH_ORC_NODE_ENTRIES,	\
	  KSIM_ORC_RUN(node_status, KH_ORC_NODE_ENTRIES),		\
	  .ro = KSIM_REG_ALL, .keep = true, .span = true)		\
	R(c, NODE_ALIAS, KH_ORC_NODE_ALIAS, KH_ORC_NODE_ENTRIES,	\
	  KSIM_ORC_RUN(node_status, KH_ORC_NODE_ENTRIES),		\
	  .ro = KSIM_REG_ALL, .keep = true, .span = true)		\
	R(c, STAGE, KH_ORC_STAGE(0),					\
	  (KH_ORC_DECODE_MASK + 1 - KH_ORC_STAGE(0)) / 8,		\
	  .post_write = ksim_orch_stage, .span = true)

KSIM_REGS(ksim_orch_regs, 8, KSIM_ORC_REGS);

const struct ksim_regs ksim_orch_regs = {
	.name = "orch", KSIM_REGS_INIT(ksim_orch_regs),
};

u64 ksim_orch_read(struct ksim_orch *o, u32 off)
{
	return ksim_reg_read(&ksim_orch_regs, o, off & KH_ORC_DECODE_MASK);
}

u64 ksim_orch_read_beat(struct ksim_orch *o, u32 off)
{
	off &= KH_ORC_DECODE_MASK;
	/*
	 * The interrupt addon's orchestrator also decodes a beat at CAPS + 4
	 * (irq-addon.md "Discovery"), so that a 32-bit host can see CAPS[40];
	 * the shipped RTL's case does not match there and reads 0.
	 */
	if (off == KH_ORC_CAPS + 4 && o->p->irq)
		return ksim_orch_caps(o, 0);
	return ksim_reg_read_beat(&ksim_orch_regs, o, off);
}

void ksim_orch_host_write(struct ksim_orch *o, u32 off, u64 val, u8 strb)
{
	if (o->wr_pending)
		ksim_mesh_log(o->mag->mesh, "orchestrator: write 0x%x overtaken",
			    o->wr_off);
	o->wr_pending = true;
	o->wr_off = off & KH_ORC_DECODE_MASK;
	o->wr_val = val;
	o->wr_strb = strb;
	ksim_node_wake(&o->mag->node);
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

bool ksim_orch_tick(struct ksim_orch *o, u32 tx_count0)
{
	bool run0 = o->prog_run;
	bool tx_full0 = tx_count0 >= o->tx.depth;
	u16 cred0 = o->credit;
	bool pushed = false, progress = false;

	/* disp_push: the flit the last edge completed goes into TX */
	if (o->disp_pend) {
		o->disp_pend = false;
		if (ksim_fifo_push(&o->tx, &o->disp_flit)) {
			pushed = true;
			o->dispatched++;
			if (ksim_unlikely(o->mag->mesh->obs))
				ksim_orch_watch(o, KSIM_ORCH_DISPATCH,
						&o->disp_flit);
		}
		progress = true;
	}
	/*
	 * The dispatcher, from cycle-start state: one 64-bit word of the
	 * staged flit an edge while running, TX not full and credit left
	 * (disp_can); the fifth completes the flit.
	 */
	if (run0 && !tx_full0 && cred0 != 0) {
		if (++o->word == KSIM_ORCH_FLIT_WORDS) {
			struct kh_flit *f = &o->disp_flit;
			unsigned int i;

			o->word = 0;
			for (i = 0; i < KH_FLIT_WORDS; i++)
				f->w[i] = o->stage[o->slot % o->p->stage_flits][i];
			f->w[4] &= 0xffffffffULL;
			kh_flit_set(f, KH_HDR_DST_X, KH_YX_X(o->prog_dst));
			kh_flit_set(f, KH_HDR_DST_Y, KH_YX_Y(o->prog_dst));
			kh_flit_set(f, KH_HDR_SRC_X, o->x);
			kh_flit_set(f, KH_HDR_SRC_Y, o->y);
			o->disp_pend = true;
			o->slot++;
			if (--o->left == 0) {
				o->prog_run = false;
				ksim_orch_irq_event(o, KH_IRQ_PROG_DONE);
			}
		}
		progress = true;
	}

	if (o->wr_pending) {
		/* the latched host write, seen from the cycle's start */
		o->wr_pending = false;
		o->run0 = run0;
		o->tx_full0 = tx_full0;
		if (o->wr_strb == KSIM_REG_STRB_ALL)
			ksim_reg_write(&ksim_orch_regs, o, o->wr_off, o->wr_val);
		else
			ksim_reg_write_beat(&ksim_orch_regs, o, o->wr_off,
					    o->wr_val, o->wr_strb);
		progress = true;
	}

	if (o->cred_written)
		o->cred_written = false;	/* a host write always wins */
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
	       o->disp_pend ||
	       (o->prog_run && o->credit && !ksim_fifo_full(&o->tx));
}
