// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The XDMA register space (BAR1, 64 KiB; PG195 "Register Space"): bits
 * [15:12] of an offset select the target block, [11:8] the channel, [7:0]
 * the register.  A block or a channel the card does not have reads 0 and
 * ignores writes, as do the unused registers of a block.  Control and the
 * interrupt mask have write-1-to-set and write-1-to-clear aliases (which
 * read as the register they change); status is write-1-to-clear, and its
 * alias at 0x44 clears on read; busy (status [0]) is the engine's state
 * and cannot be cleared.  The IRQ block is irq.c's.
 */
#include "xdma.h"

/* control [27:0] less the reserved [8:7] and [24] */
#define KSIM_XDMA_CTRL_MASK	0x0efffe7fu
#define KSIM_XDMA_SGC_MASK	0x000f000fu

static u32 ksim_xdma_id(unsigned int target)
{
	return KH_XDMA_ID(target, 0, KSIM_XDMA_VERSION);
}

static u32 ksim_xdma_status(const struct ksim_xdma_chan *ch)
{
	return ch->status | (ksim_xdma_busy(ch) ? KH_XDMA_STATUS_BUSY : 0);
}

static u32 ksim_xdma_chan_read(struct ksim_xdma_chan *ch, unsigned int target,
			       u32 reg)
{
	u32 v;

	switch (reg) {
	case KH_XDMA_CH_ID:
		return ksim_xdma_id(target);
	case KH_XDMA_CH_CTRL:
	case KH_XDMA_CH_CTRL_W1S:
	case KH_XDMA_CH_CTRL_W1C:
		return ch->ctrl;
	case KH_XDMA_CH_STATUS:
		return ksim_xdma_status(ch);
	case KH_XDMA_CH_STATUS_RC:
		v = ksim_xdma_status(ch);
		if (ch->status) {
			ch->status = 0;
			ksim_xdma_status_cleared(ch);
			ksim_xdma_irq_eval(ch->x);
		}
		return v;
	case KH_XDMA_CH_COMPLETED:
		return ch->completed;
	case KH_XDMA_CH_ALIGN:
		return KSIM_XDMA_ALIGNMENTS;
	case KH_XDMA_CH_WB_LO:
		return (u32)ch->wb;
	case KH_XDMA_CH_WB_HI:
		return (u32)(ch->wb >> 32);
	case KH_XDMA_CH_IRQ_MASK:
	case KH_XDMA_CH_IRQ_MASK_W1S:
	case KH_XDMA_CH_IRQ_MASK_W1C:
		return ch->irq_mask;
	}
	return 0;
}

static void ksim_xdma_chan_write(struct ksim_xdma_chan *ch, u32 reg, u32 v)
{
	u32 old = ch->ctrl;

	if (ksim_xdma_w1s_w1c(&ch->ctrl, reg, KH_XDMA_CH_CTRL, v,
			      KSIM_XDMA_CTRL_MASK)) {
		if (ch->ctrl != old)
			ksim_xdma_ctrl_changed(ch, old);
		return;
	}
	if (ksim_xdma_w1s_w1c(&ch->irq_mask, reg, KH_XDMA_CH_IRQ_MASK, v,
			      KSIM_XDMA_STAT_MASK)) {
		ksim_xdma_irq_eval(ch->x);
		return;
	}
	switch (reg) {
	case KH_XDMA_CH_STATUS:
		if (ch->status & v) {
			ch->status &= ~v;
			ksim_xdma_status_cleared(ch);
			ksim_xdma_irq_eval(ch->x);
		}
		return;
	case KH_XDMA_CH_WB_LO:
		ch->wb = (ch->wb & ~0xffffffffULL) | v;
		return;
	case KH_XDMA_CH_WB_HI:
		ch->wb = (ch->wb & 0xffffffffULL) | ((u64)v << 32);
		return;
	default:
		return;	/* read only, or nothing there */
	}
}

static u32 ksim_xdma_sg_read(const struct ksim_xdma_chan *ch,
			     unsigned int target, u32 reg)
{
	switch (reg) {
	case KH_XDMA_SG_ID:
		return ksim_xdma_id(target);
	case KH_XDMA_SG_DESC_LO:
		return (u32)ch->sg_desc;
	case KH_XDMA_SG_DESC_HI:
		return (u32)(ch->sg_desc >> 32);
	case KH_XDMA_SG_DESC_ADJ:
		return ch->sg_adj;
	case KH_XDMA_SG_DESC_CREDIT:
		return ch->sg_credit;
	}
	return 0;
}

static void ksim_xdma_sg_write(struct ksim_xdma_chan *ch, u32 reg, u32 v)
{
	switch (reg) {
	case KH_XDMA_SG_DESC_LO:
		ch->sg_desc = (ch->sg_desc & ~0xffffffffULL) | v;
		break;
	case KH_XDMA_SG_DESC_HI:
		ch->sg_desc = (ch->sg_desc & 0xffffffffULL) | ((u64)v << 32);
		break;
	case KH_XDMA_SG_DESC_ADJ:
		ch->sg_adj = v & KH_XDMA_DESC_ADJ_MAX;
		break;
	case KH_XDMA_SG_DESC_CREDIT:
		ch->sg_credit = v & 0x3ff;
		break;
	}
}

static u32 ksim_xdma_cfg_read(const struct ksim_xdma *x, u32 reg)
{
	switch (reg) {
	case KH_XDMA_CFG_ID:
		return ksim_xdma_id(KH_XDMA_T_CONFIG);
	case KH_XDMA_CFG_BUSDEV:
		return KSIM_XDMA_CFG_BUSDEV;
	case KH_XDMA_CFG_MAX_PAYLOAD:
		return KSIM_XDMA_CFG_MPS;
	case KH_XDMA_CFG_MAX_READ:
		return KSIM_XDMA_CFG_MRRS;
	case KH_XDMA_CFG_SYSTEM_ID:
		return KSIM_XDMA_CFG_SYSID;
	case KH_XDMA_CFG_MSI_EN:
		/* MSI-X is on when the host takes the vectors */
		return x->n_vectors ? 2 : 0;
	case KH_XDMA_CFG_DATA_WIDTH:
		return KSIM_XDMA_CFG_WIDTH;
	}
	return 0;
}

static u32 ksim_xdma_sgc_read(const struct ksim_xdma *x, u32 reg)
{
	switch (reg) {
	case KH_XDMA_SGC_ID:
		return ksim_xdma_id(KH_XDMA_T_SGDMA_COMMON);
	case KH_XDMA_SGC_CTRL:
	case KH_XDMA_SGC_CTRL_W1S:
	case KH_XDMA_SGC_CTRL_W1C:
		return x->sgc_ctrl;
	}
	return 0;
}

static void ksim_xdma_sgc_write(struct ksim_xdma *x, u32 reg, u32 v)
{
	u32 old = x->sgc_ctrl;

	if (ksim_xdma_w1s_w1c(&x->sgc_ctrl, reg, KH_XDMA_SGC_CTRL, v,
			      KSIM_XDMA_SGC_MASK) && x->sgc_ctrl != old)
		ksim_xdma_halt_changed(x);
}

/* the channel a channel or SGDMA block names; NULL for an absent one */
static struct ksim_xdma_chan *ksim_xdma_chan_of(struct ksim_xdma *x,
						unsigned int target,
						unsigned int chan)
{
	if (chan)
		return NULL;	/* one channel each way */
	switch (target) {
	case KH_XDMA_T_H2C:
	case KH_XDMA_T_H2C_SGDMA:
		return &x->ch[KSIM_XDMA_H2C];
	case KH_XDMA_T_C2H:
	case KH_XDMA_T_C2H_SGDMA:
		return &x->ch[KSIM_XDMA_C2H];
	}
	return NULL;
}

u32 ksim_xdma_read(struct ksim_xdma *x, u32 off)
{
	unsigned int target = (off >> 12) & 0xf, chan = (off >> 8) & 0xf;
	struct ksim_xdma_chan *ch = ksim_xdma_chan_of(x, target, chan);
	u32 reg = off & 0xff;

	switch (target) {
	case KH_XDMA_T_H2C:
	case KH_XDMA_T_C2H:
		return ch ? ksim_xdma_chan_read(ch, target, reg) : 0;
	case KH_XDMA_T_H2C_SGDMA:
	case KH_XDMA_T_C2H_SGDMA:
		return ch ? ksim_xdma_sg_read(ch, target, reg) : 0;
	case KH_XDMA_T_IRQ:
		return chan ? 0 : ksim_xdma_irq_read(x, reg);
	case KH_XDMA_T_CONFIG:
		return chan ? 0 : ksim_xdma_cfg_read(x, reg);
	case KH_XDMA_T_SGDMA_COMMON:
		return chan ? 0 : ksim_xdma_sgc_read(x, reg);
	}
	return 0;
}

void ksim_xdma_write(struct ksim_xdma *x, u32 off, u32 v)
{
	unsigned int target = (off >> 12) & 0xf, chan = (off >> 8) & 0xf;
	struct ksim_xdma_chan *ch = ksim_xdma_chan_of(x, target, chan);
	u32 reg = off & 0xff;

	switch (target) {
	case KH_XDMA_T_H2C:
	case KH_XDMA_T_C2H:
		if (ch)
			ksim_xdma_chan_write(ch, reg, v);
		break;
	case KH_XDMA_T_H2C_SGDMA:
	case KH_XDMA_T_C2H_SGDMA:
		if (ch)
			ksim_xdma_sg_write(ch, reg, v);
		break;
	case KH_XDMA_T_IRQ:
		if (!chan)
			ksim_xdma_irq_write(x, reg, v);
		break;
	case KH_XDMA_T_SGDMA_COMMON:
		if (!chan)
			ksim_xdma_sgc_write(x, reg, v);
		break;
	}
}
