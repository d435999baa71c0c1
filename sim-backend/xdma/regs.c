// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The XDMA register space (BAR1, 64 KiB; PG195 "Register Space"): bits
 * [15:12] of an offset select the target block, [11:8] the channel, [7:0]
 * the register.  Each kind of block is a register table (lib/regs.h); a
 * block or a channel the card does not have reads 0 and ignores writes,
 * as do the unused registers of a block.  Control and the interrupt mask
 * have write-1-to-set and write-1-to-clear aliases (which read as the
 * register they change: the three share one field); status is
 * write-1-to-clear, and its alias at 0x44 clears on read; busy (status
 * [0]) is the engine's state and cannot be cleared.  The IRQ block's
 * table is irq.c's.
 */
#include "xdma.h"

/* control [27:0] less the reserved [8:7] and [24] */
#define KSIM_XDMA_CTRL_MASK	0x0efffe7fu
#define KSIM_XDMA_SGC_MASK	0x000f000fu
/* SGDMA credits [9:0] */
#define KSIM_XDMA_CREDIT_MASK	0x3ffu

#define KSIM_XDMA_CH(field)	KSIM_REG_FIELD(struct ksim_xdma_chan, field)

static u32 ksim_xdma_id(unsigned int target)
{
	return KH_XDMA_ID(target, 0, KSIM_XDMA_VERSION);
}

/* ---- H2C and C2H channels (the device is the channel) ---- */

static u64 ksim_xdma_ch_id(void *dev, unsigned int i)
{
	const struct ksim_xdma_chan *ch = dev;

	return ksim_xdma_id(ch->c2h ? KH_XDMA_T_C2H : KH_XDMA_T_H2C);
}

/* control and its aliases: RUN's edges start and stop the channel */
static void ksim_xdma_ctrl_post(void *dev, unsigned int i, u64 old, u64 v)
{
	if (v != old)
		ksim_xdma_ctrl_changed(dev, (u32)old);
}

static u64 ksim_xdma_status_read(void *dev, unsigned int i)
{
	const struct ksim_xdma_chan *ch = dev;

	return ch->status | (ksim_xdma_busy(ch) ? KH_XDMA_STATUS_BUSY : 0);
}

/* status bits cleared, by a write or by reading the RC alias */
static void ksim_xdma_status_post(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_xdma_chan *ch = dev;

	if (v != old) {
		ksim_xdma_status_cleared(ch);
		ksim_xdma_irq_eval(ch->x);
	}
}

static void ksim_xdma_mask_post(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_xdma_chan *ch = dev;

	ksim_xdma_irq_eval(ch->x);
}

/* R(c, name, offset, registers, the rest of its struct ksim_reg) */
#define KSIM_XDMA_CH_REGS(R, c)						\
	R(c, ID, KH_XDMA_CH_ID, 1, .ro = KSIM_REG_ALL,			\
	  .read = ksim_xdma_ch_id)					\
	R(c, CTRL, KH_XDMA_CH_CTRL, 1, KSIM_XDMA_CH(ctrl),		\
	  .ro = ~KSIM_XDMA_CTRL_MASK, .post_write = ksim_xdma_ctrl_post) \
	R(c, CTRL_W1S, KH_XDMA_CH_CTRL_W1S, 1, KSIM_XDMA_CH(ctrl),	\
	  .ro = ~KSIM_XDMA_CTRL_MASK, .w1s = KSIM_XDMA_CTRL_MASK,	\
	  .post_write = ksim_xdma_ctrl_post)				\
	R(c, CTRL_W1C, KH_XDMA_CH_CTRL_W1C, 1, KSIM_XDMA_CH(ctrl),	\
	  .w1c = KSIM_REG_ALL, .post_write = ksim_xdma_ctrl_post)	\
	R(c, STATUS, KH_XDMA_CH_STATUS, 1, KSIM_XDMA_CH(status),	\
	  .w1c = KSIM_REG_ALL, .read = ksim_xdma_status_read,		\
	  .post_write = ksim_xdma_status_post)				\
	R(c, STATUS_RC, KH_XDMA_CH_STATUS_RC, 1, KSIM_XDMA_CH(status),	\
	  .ro = KSIM_REG_ALL, .rc = KSIM_REG_ALL,			\
	  .read = ksim_xdma_status_read, .post_write = ksim_xdma_status_post) \
	R(c, COMPLETED, KH_XDMA_CH_COMPLETED, 1, KSIM_XDMA_CH(completed), \
	  .ro = KSIM_REG_ALL)						\
	R(c, ALIGN, KH_XDMA_CH_ALIGN, 1, .ro = KSIM_REG_ALL,		\
	  .reset = KSIM_XDMA_ALIGNMENTS)				\
	R(c, WB_LO, KH_XDMA_CH_WB_LO, 1, KSIM_XDMA_CH(wb))		\
	R(c, WB_HI, KH_XDMA_CH_WB_HI, 1, KSIM_XDMA_CH(wb), .lsb = 32)	\
	R(c, IRQ_MASK, KH_XDMA_CH_IRQ_MASK, 1, KSIM_XDMA_CH(irq_mask),	\
	  .ro = ~KSIM_XDMA_STAT_MASK, .post_write = ksim_xdma_mask_post) \
	R(c, IRQ_MASK_W1S, KH_XDMA_CH_IRQ_MASK_W1S, 1,			\
	  KSIM_XDMA_CH(irq_mask), .ro = ~KSIM_XDMA_STAT_MASK,		\
	  .w1s = KSIM_XDMA_STAT_MASK, .post_write = ksim_xdma_mask_post) \
	R(c, IRQ_MASK_W1C, KH_XDMA_CH_IRQ_MASK_W1C, 1,			\
	  KSIM_XDMA_CH(irq_mask), .w1c = KSIM_REG_ALL,			\
	  .post_write = ksim_xdma_mask_post)

KSIM_REGS(ksim_xdma_ch_regs, 4, KSIM_XDMA_CH_REGS);

const struct ksim_regs ksim_xdma_ch_regs = {
	.name = "channel", KSIM_REGS_INIT(ksim_xdma_ch_regs),
};

/* ---- the channels' SGDMA blocks (the device is the channel) ---- */

static u64 ksim_xdma_sg_id(void *dev, unsigned int i)
{
	const struct ksim_xdma_chan *ch = dev;

	return ksim_xdma_id(ch->c2h ? KH_XDMA_T_C2H_SGDMA :
			    KH_XDMA_T_H2C_SGDMA);
}

#define KSIM_XDMA_SG_REGS(R, c)						\
	R(c, ID, KH_XDMA_SG_ID, 1, .ro = KSIM_REG_ALL,			\
	  .read = ksim_xdma_sg_id)					\
	R(c, DESC_LO, KH_XDMA_SG_DESC_LO, 1, KSIM_XDMA_CH(sg_desc))	\
	R(c, DESC_HI, KH_XDMA_SG_DESC_HI, 1, KSIM_XDMA_CH(sg_desc),	\
	  .lsb = 32)							\
	R(c, DESC_ADJ, KH_XDMA_SG_DESC_ADJ, 1, KSIM_XDMA_CH(sg_adj),	\
	  .ro = ~(u64)KH_XDMA_DESC_ADJ_MAX)				\
	R(c, DESC_CREDIT, KH_XDMA_SG_DESC_CREDIT, 1,			\
	  KSIM_XDMA_CH(sg_credit), .ro = ~(u64)KSIM_XDMA_CREDIT_MASK)

KSIM_REGS(ksim_xdma_sg_regs, 4, KSIM_XDMA_SG_REGS);

const struct ksim_regs ksim_xdma_sg_regs = {
	.name = "sgdma", KSIM_REGS_INIT(ksim_xdma_sg_regs),
};

/* ---- the config block: fixed values (docs/spec/xdma.md) ---- */

static u64 ksim_xdma_msi_en(void *dev, unsigned int i)
{
	const struct ksim_xdma *x = dev;

	/* MSI-X is on when the host takes the vectors */
	return x->n_vectors ? 2 : 0;
}

#define KSIM_XDMA_CFG_REGS(R, c)					\
	R(c, ID, KH_XDMA_CFG_ID, 1, .ro = KSIM_REG_ALL,			\
	  .reset = KH_XDMA_ID(KH_XDMA_T_CONFIG, 0, KSIM_XDMA_VERSION))	\
	R(c, BUSDEV, KH_XDMA_CFG_BUSDEV, 1, .ro = KSIM_REG_ALL,		\
	  .reset = KSIM_XDMA_CFG_BUSDEV)				\
	R(c, MAX_PAYLOAD, KH_XDMA_CFG_MAX_PAYLOAD, 1, .ro = KSIM_REG_ALL, \
	  .reset = KSIM_XDMA_CFG_MPS)					\
	R(c, MAX_READ, KH_XDMA_CFG_MAX_READ, 1, .ro = KSIM_REG_ALL,	\
	  .reset = KSIM_XDMA_CFG_MRRS)					\
	R(c, SYSTEM_ID, KH_XDMA_CFG_SYSTEM_ID, 1, .ro = KSIM_REG_ALL,	\
	  .reset = KSIM_XDMA_CFG_SYSID)					\
	R(c, MSI_EN, KH_XDMA_CFG_MSI_EN, 1, .ro = KSIM_REG_ALL,		\
	  .read = ksim_xdma_msi_en)					\
	R(c, DATA_WIDTH, KH_XDMA_CFG_DATA_WIDTH, 1, .ro = KSIM_REG_ALL,	\
	  .reset = KSIM_XDMA_CFG_WIDTH)

KSIM_REGS(ksim_xdma_cfg_regs, 4, KSIM_XDMA_CFG_REGS);

const struct ksim_regs ksim_xdma_cfg_regs = {
	.name = "config", KSIM_REGS_INIT(ksim_xdma_cfg_regs),
};

/* ---- SGDMA common: the halt bits (the device is the engine) ---- */

static void ksim_xdma_sgc_post(void *dev, unsigned int i, u64 old, u64 v)
{
	if (v != old)
		ksim_xdma_halt_changed(dev);
}

#define KSIM_XDMA_SGC	KSIM_REG_FIELD(struct ksim_xdma, sgc_ctrl)

#define KSIM_XDMA_SGC_REGS(R, c)					\
	R(c, ID, KH_XDMA_SGC_ID, 1, .ro = KSIM_REG_ALL,			\
	  .reset = KH_XDMA_ID(KH_XDMA_T_SGDMA_COMMON, 0, KSIM_XDMA_VERSION)) \
	R(c, CTRL, KH_XDMA_SGC_CTRL, 1, KSIM_XDMA_SGC,			\
	  .ro = ~KSIM_XDMA_SGC_MASK, .post_write = ksim_xdma_sgc_post)	\
	R(c, CTRL_W1S, KH_XDMA_SGC_CTRL_W1S, 1, KSIM_XDMA_SGC,		\
	  .ro = ~KSIM_XDMA_SGC_MASK, .w1s = KSIM_XDMA_SGC_MASK,		\
	  .post_write = ksim_xdma_sgc_post)				\
	R(c, CTRL_W1C, KH_XDMA_SGC_CTRL_W1C, 1, KSIM_XDMA_SGC,		\
	  .w1c = KSIM_REG_ALL, .post_write = ksim_xdma_sgc_post)

KSIM_REGS(ksim_xdma_sgc_regs, 4, KSIM_XDMA_SGC_REGS);

const struct ksim_regs ksim_xdma_sgc_regs = {
	.name = "sgdma_common", KSIM_REGS_INIT(ksim_xdma_sgc_regs),
};

/* ---- decode ---- */

/* the register table of each target; the others have none */
static const struct ksim_regs *const ksim_xdma_block_regs[16] = {
	[KH_XDMA_T_H2C] = &ksim_xdma_ch_regs,
	[KH_XDMA_T_C2H] = &ksim_xdma_ch_regs,
	[KH_XDMA_T_IRQ] = &ksim_xdma_irq_regs,
	[KH_XDMA_T_CONFIG] = &ksim_xdma_cfg_regs,
	[KH_XDMA_T_H2C_SGDMA] = &ksim_xdma_sg_regs,
	[KH_XDMA_T_C2H_SGDMA] = &ksim_xdma_sg_regs,
	[KH_XDMA_T_SGDMA_COMMON] = &ksim_xdma_sgc_regs,
};

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

/* The table of the block at off and its device; NULL: nothing there. */
static const struct ksim_regs *ksim_xdma_block(struct ksim_xdma *x, u32 off,
					       void **dev)
{
	unsigned int target = (off >> 12) & 0xf, chan = (off >> 8) & 0xf;
	const struct ksim_regs *t = ksim_xdma_block_regs[target];

	if (t == &ksim_xdma_ch_regs || t == &ksim_xdma_sg_regs)
		*dev = ksim_xdma_chan_of(x, target, chan);
	else
		*dev = chan ? NULL : x;		/* one block of each */
	return *dev ? t : NULL;
}

int ksim_xdma_reg_name(u32 off, char *b, size_t n)
{
	static const char *const block[16] = {
		[KH_XDMA_T_H2C] = "h2c", [KH_XDMA_T_C2H] = "c2h",
		[KH_XDMA_T_IRQ] = "irq", [KH_XDMA_T_CONFIG] = "config",
		[KH_XDMA_T_H2C_SGDMA] = "h2c_sgdma",
		[KH_XDMA_T_C2H_SGDMA] = "c2h_sgdma",
		[KH_XDMA_T_SGDMA_COMMON] = "sgdma_common",
	};
	unsigned int target = (off >> 12) & 0xf, chan = (off >> 8) & 0xf;
	const struct ksim_regs *t = ksim_xdma_block_regs[target];
	char name[24];

	if (!t)
		return snprintf(b, n, "0x%x", off);
	if (ksim_reg_name(t, off & 0xff, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "0x%x", off & 0xff);
	if (t == &ksim_xdma_ch_regs || t == &ksim_xdma_sg_regs)
		return snprintf(b, n, "%s%u %s", block[target], chan, name);
	return snprintf(b, n, "%s %s", block[target], name);
}

u32 ksim_xdma_read(struct ksim_xdma *x, u32 off)
{
	void *dev = NULL;
	const struct ksim_regs *t = ksim_xdma_block(x, off, &dev);

	return t ? (u32)ksim_reg_read(t, dev, off & 0xff) : 0;
}

void ksim_xdma_write(struct ksim_xdma *x, u32 off, u32 v)
{
	void *dev = NULL;
	const struct ksim_regs *t = ksim_xdma_block(x, off, &dev);

	if (t)
		ksim_reg_write(t, dev, off & 0xff, v);
}

void ksim_xdma_regs_reset(struct ksim_xdma *x)
{
	unsigned int i;

	for (i = 0; i < KSIM_XDMA_CHANS; i++) {
		ksim_regs_reset(&ksim_xdma_ch_regs, &x->ch[i]);
		ksim_regs_reset(&ksim_xdma_sg_regs, &x->ch[i]);
	}
	ksim_regs_reset(&ksim_xdma_irq_regs, x);
	ksim_regs_reset(&ksim_xdma_sgc_regs, x);
}
