// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The XDMA IRQ block (PG195 "IRQ Block Registers (0x2)"), a register
 * table (lib/regs.h): user and channel interrupt enables (each with W1S
 * and W1C aliases, which read as the mask), the requests and what is
 * pending (read only), and the vector number of every interrupt, 5 bits
 * in each byte of 0x80-0x8c (user) and 0xa0-0xa4 (channels: H2C channels,
 * then C2H).
 *
 * A channel requests an interrupt while its status has a bit its
 * interrupt mask enables (the status bits themselves are logged only when
 * control enables them, engine.c).  The user interrupt 0 is the card's
 * usr_irq_req[0], the orchestrator's IRQ addon line (docs/spec/irq-addon.md)
 * where the card has the addon, tied 0 otherwise (kohakutpu.md 8.2); the
 * other user interrupts are tied 0.  A request whose enable bit is set is
 * pending, and each time an interrupt becomes pending its vector is
 * signalled once (MSI-X is edge signalled): the host's handler is called
 * with the vector number, from inside the card's stepping, with the card's
 * lock held.  A vector the host did not take (past its vector count) is
 * not signalled, and counted.
 */
#include "xdma.h"
#include "util.h"

/* IRQ block masks: 16 user interrupts, 8 channels */
#define KSIM_XDMA_USER_MASK	0xffffu
#define KSIM_XDMA_CHAN_MASK	0xffu
#define KSIM_XDMA_VEC_BYTES	0x1f1f1f1fu

static u32 ksim_xdma_user_req(const struct ksim_xdma *x)
{
	return x->usr_irq ? 1u : 0;
}

static u32 ksim_xdma_chan_req(const struct ksim_xdma *x)
{
	u32 req = 0;
	unsigned int i;

	for (i = 0; i < KSIM_XDMA_CHANS; i++)
		if (x->ch[i].status & x->ch[i].irq_mask)
			req |= i == KSIM_XDMA_H2C ? KH_XDMA_IRQ_BIT_H2C(0) :
			       KH_XDMA_IRQ_BIT_C2H(KSIM_XDMA_N_H2C, 0);
	return req;
}

static unsigned int ksim_xdma_vec(const u32 *regs, unsigned int i)
{
	return (regs[i / 4] >> KH_XDMA_IRQ_VEC_SHIFT(i)) & KH_XDMA_IRQ_VEC_MASK;
}

static void ksim_xdma_signal(struct ksim_xdma *x, unsigned int vector)
{
	bool lost = vector >= x->n_vectors || !x->msi;

	if (ksim_unlikely(x->obs))
		ksim_xdma_note(x, &(struct ksim_xdma_event){
			.what = KSIM_XT_IRQ, .a = vector, .e = lost });
	if (lost) {
		x->irqs_lost++;
		return;
	}
	x->irqs++;
	x->msi(x->msi_arg, vector);
	/* a host asleep until an interrupt is awake from here */
	if (x->stop_on_msi)
		x->node.sched->stop = true;
}

void ksim_xdma_usr_irq(void *opaque, unsigned int n, bool level)
{
	struct ksim_xdma *x = opaque;

	x->usr_irq = level;
	ksim_xdma_irq_eval(x);
}

void ksim_xdma_irq_eval(struct ksim_xdma *x)
{
	u32 user = ksim_xdma_user_req(x) & x->user_en;
	u32 chan = ksim_xdma_chan_req(x) & x->chan_en;
	u32 rose_u = user & ~x->user_pend, rose_c = chan & ~x->chan_pend;
	unsigned int i;

	/* recorded first: a handler's view of the block is the new one */
	x->user_pend = user;
	x->chan_pend = chan;
	for (i = 0; rose_c && i < 8; i++)
		if (rose_c & (1u << i))
			ksim_xdma_signal(x, ksim_xdma_vec(x->chan_vec, i));
	for (i = 0; rose_u && i < 16; i++)
		if (rose_u & (1u << i))
			ksim_xdma_signal(x, ksim_xdma_vec(x->user_vec, i));
}

static u64 ksim_xdma_user_req_read(void *dev, unsigned int i)
{
	return ksim_xdma_user_req(dev);
}

static u64 ksim_xdma_chan_req_read(void *dev, unsigned int i)
{
	return ksim_xdma_chan_req(dev);
}

static u64 ksim_xdma_user_pend_read(void *dev, unsigned int i)
{
	const struct ksim_xdma *x = dev;

	return ksim_xdma_user_req(x) & x->user_en;
}

static u64 ksim_xdma_chan_pend_read(void *dev, unsigned int i)
{
	const struct ksim_xdma *x = dev;

	return ksim_xdma_chan_req(x) & x->chan_en;
}

/* an enable or its alias written: deliver what became pending */
static void ksim_xdma_en_post(void *dev, unsigned int i, u64 old, u64 v)
{
	ksim_xdma_irq_eval(dev);
}

#define KSIM_XDMA_X(field)	KSIM_REG_FIELD(struct ksim_xdma, field)

/*
 * R(c, name, offset, registers, the rest of its struct ksim_reg).  The
 * vectors take effect at the next signal: stored, no hook.  16 user
 * interrupts and 8 channel ones, a byte each, four to a register.
 */
#define KSIM_XDMA_IRQ_REGS(R, c)					\
	R(c, ID, KH_XDMA_IRQ_ID, 1, .ro = KSIM_REG_ALL,			\
	  .reset = KH_XDMA_ID(KH_XDMA_T_IRQ, 0, KSIM_XDMA_VERSION))	\
	R(c, USER_EN, KH_XDMA_IRQ_USER_EN, 1, KSIM_XDMA_X(user_en),	\
	  .ro = ~(u64)KSIM_XDMA_USER_MASK, .post_write = ksim_xdma_en_post) \
	R(c, USER_EN_W1S, KH_XDMA_IRQ_USER_EN_W1S, 1, KSIM_XDMA_X(user_en), \
	  .ro = ~(u64)KSIM_XDMA_USER_MASK, .w1s = KSIM_XDMA_USER_MASK,	\
	  .post_write = ksim_xdma_en_post)				\
	R(c, USER_EN_W1C, KH_XDMA_IRQ_USER_EN_W1C, 1, KSIM_XDMA_X(user_en), \
	  .w1c = KSIM_REG_ALL, .post_write = ksim_xdma_en_post)	\
	R(c, CHAN_EN, KH_XDMA_IRQ_CHAN_EN, 1, KSIM_XDMA_X(chan_en),	\
	  .ro = ~(u64)KSIM_XDMA_CHAN_MASK, .post_write = ksim_xdma_en_post) \
	R(c, CHAN_EN_W1S, KH_XDMA_IRQ_CHAN_EN_W1S, 1, KSIM_XDMA_X(chan_en), \
	  .ro = ~(u64)KSIM_XDMA_CHAN_MASK, .w1s = KSIM_XDMA_CHAN_MASK,	\
	  .post_write = ksim_xdma_en_post)				\
	R(c, CHAN_EN_W1C, KH_XDMA_IRQ_CHAN_EN_W1C, 1, KSIM_XDMA_X(chan_en), \
	  .w1c = KSIM_REG_ALL, .post_write = ksim_xdma_en_post)	\
	R(c, USER_REQ, KH_XDMA_IRQ_USER_REQ, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_xdma_user_req_read)				\
	R(c, CHAN_REQ, KH_XDMA_IRQ_CHAN_REQ, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_xdma_chan_req_read)				\
	R(c, USER_PEND, KH_XDMA_IRQ_USER_PEND, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_xdma_user_pend_read)				\
	R(c, CHAN_PEND, KH_XDMA_IRQ_CHAN_PEND, 1, .ro = KSIM_REG_ALL,	\
	  .read = ksim_xdma_chan_pend_read)				\
	R(c, USER_VEC, KH_XDMA_IRQ_USER_VEC(0), 16 / 4,			\
	  KSIM_REG_ARRAY(struct ksim_xdma, user_vec, 16 / 4),		\
	  .ro = ~(u64)KSIM_XDMA_VEC_BYTES)				\
	R(c, CHAN_VEC, KH_XDMA_IRQ_CHAN_VEC(0), 8 / 4,			\
	  KSIM_REG_ARRAY(struct ksim_xdma, chan_vec, 8 / 4),		\
	  .ro = ~(u64)KSIM_XDMA_VEC_BYTES)

KSIM_REGS(ksim_xdma_irq_regs, 4, KSIM_XDMA_IRQ_REGS);

const struct ksim_regs ksim_xdma_irq_regs = {
	.name = "irq", KSIM_REGS_INIT(ksim_xdma_irq_regs),
};
