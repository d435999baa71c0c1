// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card's XDMA engine (docs/spec/xdma.md): found by its identifiers on
 * whichever BAR answers, as Xilinx's own driver finds its config BAR; one
 * H2C and one C2H channel, each with a descriptor ring, a poll-mode
 * write-back word and bounce lines in coherent host memory.  A transfer is
 * one descriptor list: written to the ring, the first address and its
 * adjacent run given to the channel's SGDMA registers, RUN set; it is done
 * when the write-back word counts every descriptor (or flags an error).
 * The wait sleeps for the channel's interrupt where interrupts are wired,
 * polls the write-back word otherwise, and on a simulated card lets device
 * time pass (hw idle_ns), which is what moves the model's engine.  Every
 * wait has a deadline in device time; a channel that does not stop is
 * wedged, and its transfers fail with EIO from then on.
 */
#include "kh_priv.h"
#include "kh_xdma_engine.h"
#include "kh_tracepoints.h"

/* a transfer's deadline: a fixed part and the bytes at a floor rate */
#define KH_XDMA_TIMEOUT_NS	1000000000ULL
#define KH_XDMA_FLOOR_BPS	50000000ULL	/* 50 MB/s */
/*
 * A simulated card is let run this much at once while a transfer is on: up
 * to its interrupt when it has one (idle_ns stops there), else in short
 * steps, as a polling host looks often.
 */
#define KH_XDMA_SIM_STEP_NS	20000ULL
#define KH_XDMA_SIM_POLL_NS	1000ULL
/* stopping a channel: it must go idle within this */
#define KH_XDMA_STOP_NS		1000000ULL
#define KH_XDMA_DESCS_PER_PAGE	(KH_XDMA_DESC_BOUNDARY / sizeof(struct kh_xdma_desc))

static u32 kh_xr(struct kh_device *kd, u32 off)
{
	return kd->hw.ops->bar_read32(kd->hw.ctx, kd->xdma.bar, off);
}

static void kh_xw(struct kh_device *kd, u32 off, u32 v)
{
	kd->hw.ops->bar_write32(kd->hw.ctx, kd->xdma.bar, off, v);
}

static bool kh_xdma_id_is(u32 id, unsigned int target)
{
	return KH_XDMA_ID_SUBSYS_OF(id) == KH_XDMA_ID_SUBSYS &&
	       KH_XDMA_ID_TARGET_OF(id) == target;
}

/* The XDMA register space answers with its IRQ and config identifiers. */
static bool kh_xdma_bar_is_ours(struct kh_device *kd, int bar)
{
	const struct kh_hw_ops *ops = kd->hw.ops;

	if (kd->hw.bar_size[bar] < KH_XDMA_BAR_SIZE)
		return false;
	return kh_xdma_id_is(ops->bar_read32(kd->hw.ctx, bar,
					     KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0)),
			     KH_XDMA_T_IRQ) &&
	       kh_xdma_id_is(ops->bar_read32(kd->hw.ctx, bar,
					     KH_XDMA_BLOCK(KH_XDMA_T_CONFIG, 0)),
			     KH_XDMA_T_CONFIG);
}

/* memory-mapped channels of one direction that answer */
static unsigned int kh_xdma_count(struct kh_device *kd, unsigned int target)
{
	unsigned int c, n = 0;
	u32 id;

	for (c = 0; c < KH_XDMA_MAX_CHANNELS; c++) {
		id = kh_xr(kd, KH_XDMA_BLOCK(target, c) + KH_XDMA_CH_ID);
		if (kh_xdma_id_is(id, target) && !(id & KH_XDMA_ID_STREAM))
			n++;
	}
	return n;
}

/* one lock class for both channels (one call site): never nested */
static void kh_xdma_chan_lock_init(struct kh_xdma_chan *ch)
{
	mutex_init(&ch->lock);
}

static int kh_xdma_chan_init(struct kh_device *kd, struct kh_xdma_chan *ch,
			     bool to_card, u32 irq_bit)
{
	unsigned int target = to_card ? KH_XDMA_T_H2C : KH_XDMA_T_C2H;
	u32 id = kh_xr(kd, KH_XDMA_BLOCK(target, 0) + KH_XDMA_CH_ID);
	int ret;

	ch->name = to_card ? "H2C" : "C2H";
	ch->to_card = to_card;
	ch->regs = KH_XDMA_BLOCK(target, 0);
	ch->sg = KH_XDMA_BLOCK(to_card ? KH_XDMA_T_H2C_SGDMA : KH_XDMA_T_C2H_SGDMA, 0);
	ch->irq_bit = irq_bit;
	ch->present = kh_xdma_id_is(id, target) && !(id & KH_XDMA_ID_STREAM);
	if (!ch->present)
		return 0;
	ret = kh_dma_alloc(kd->dev, KH_XDMA_RING_DESCS * sizeof(struct kh_xdma_desc),
			   &ch->ring);
	if (!ret)
		ret = kh_dma_alloc(kd->dev, 64, &ch->wb);
	if (!ret)
		ret = kh_dma_alloc(kd->dev, KH_XDMA_BOUNCE_LINES * KH_HOST_GRANULE,
				   &ch->bounce);
	if (ret)
		return ret;
	/* quiet: stopped, nothing latched, no interrupt */
	kh_xw(kd, ch->regs + KH_XDMA_CH_CTRL, 0);
	kh_xw(kd, ch->regs + KH_XDMA_CH_IRQ_MASK, 0);
	kh_xr(kd, ch->regs + KH_XDMA_CH_STATUS_RC);
	return 0;
}

static void kh_xdma_chan_fini(struct kh_device *kd, struct kh_xdma_chan *ch)
{
	kh_dma_free(kd->dev, &ch->ring);
	kh_dma_free(kd->dev, &ch->wb);
	kh_dma_free(kd->dev, &ch->bounce);
}

int kh_xdma_probe(struct kh_device *kd)
{
	struct kh_xdma *x = &kd->xdma;
	unsigned int n_h2c, n_c2h;
	u32 align;
	int bar, ret;

	x->bar = -1;
	init_waitqueue_head(&x->wq);
	kh_xdma_chan_lock_init(&x->h2c);
	kh_xdma_chan_lock_init(&x->c2h);
	if (!kd->hw.ops->bar_read32 || !kd->hw.ops->bar_write32)
		return 0;
	for (bar = 0; bar < KH_HW_MAX_BARS && x->bar < 0; bar++)
		if (kh_xdma_bar_is_ours(kd, bar))
			x->bar = bar;
	if (x->bar < 0) {
		kh_info(kd, "no XDMA engine answers on any BAR: BO data cannot be moved\n");
		return 0;
	}
	x->version = KH_XDMA_ID_VERSION_OF(kh_xr(kd, KH_XDMA_BLOCK(KH_XDMA_T_CONFIG, 0)));
	n_h2c = kh_xdma_count(kd, KH_XDMA_T_H2C);
	n_c2h = kh_xdma_count(kd, KH_XDMA_T_C2H);
	/* quiet: no interrupt from the engine until the host wires them */
	kh_xw(kd, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) + KH_XDMA_IRQ_CHAN_EN_W1C, ~0u);
	kh_xw(kd, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) + KH_XDMA_IRQ_USER_EN_W1C, ~0u);
	ret = kh_xdma_chan_init(kd, &x->h2c, true, KH_XDMA_IRQ_BIT_H2C(0));
	if (!ret)
		ret = kh_xdma_chan_init(kd, &x->c2h, false, KH_XDMA_IRQ_BIT_C2H(n_h2c, 0));
	if (ret) {
		kh_err(kd, "XDMA: no memory for the descriptor rings\n");
		return ret;
	}
	align = x->h2c.present ? kh_xr(kd, x->h2c.regs + KH_XDMA_CH_ALIGN) : 0;
	x->addr_align = KH_XDMA_ALIGN_ADDR(align) ? KH_XDMA_ALIGN_ADDR(align) : 1;
	kh_info(kd, "XDMA on BAR %d: IP version %u, %u H2C and %u C2H channels, host address alignment %u\n",
		x->bar, x->version, n_h2c, n_c2h, x->addr_align);
	if (!x->h2c.present || !x->c2h.present)
		kh_err(kd, "XDMA: H2C channel 0 %s, C2H channel 0 %s: BO data cannot be moved\n",
		       x->h2c.present ? "present" : "absent",
		       x->c2h.present ? "present" : "absent");
	return 0;
}

void kh_xdma_fini(struct kh_device *kd)
{
	struct kh_xdma *x = &kd->xdma;

	if (x->bar >= 0 && !READ_ONCE(kd->unplugged)) {
		kh_xw(kd, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) + KH_XDMA_IRQ_CHAN_EN_W1C, ~0u);
		kh_xw(kd, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) + KH_XDMA_IRQ_USER_EN_W1C, ~0u);
	}
	kh_xdma_chan_fini(kd, &x->h2c);
	kh_xdma_chan_fini(kd, &x->c2h);
	mutex_destroy(&x->h2c.lock);
	mutex_destroy(&x->c2h.lock);
}

bool kh_xdma_usable(struct kh_device *kd)
{
	return kd->xdma.bar >= 0 && kd->xdma.h2c.present && kd->xdma.c2h.present;
}

/* Put vector v in field i of a vector-number register bank at base. */
static void kh_xdma_set_vector(struct kh_device *kd, u32 base, unsigned int i,
			       unsigned int v)
{
	u32 off = base + (i / 4) * 4, r = kh_xr(kd, off);

	r &= ~(KH_XDMA_IRQ_VEC_MASK << KH_XDMA_IRQ_VEC_SHIFT(i));
	r |= (v & KH_XDMA_IRQ_VEC_MASK) << KH_XDMA_IRQ_VEC_SHIFT(i);
	kh_xw(kd, off, r);
}

/*
 * The host has wired the card's interrupts (kh_device_irq): the channels
 * get vectors 0 and 1, the user interrupt 2 (sharing when fewer are
 * offered), and the engine's completions and errors interrupt.
 */
int kh_xdma_irq_enable(struct kh_device *kd)
{
	struct kh_xdma *x = &kd->xdma;
	u32 irq = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	unsigned int n = kd->hw.n_irqs;
	struct kh_xdma_chan *chs[2] = { &x->h2c, &x->c2h };
	unsigned int i;

	if (!kh_xdma_usable(kd) || !n)
		return -ENODEV;
	for (i = 0; i < 2; i++) {
		struct kh_xdma_chan *ch = chs[i];
		unsigned int bit = __builtin_ctz(ch->irq_bit);

		ch->vector = i % n;
		kh_xdma_set_vector(kd, irq + KH_XDMA_IRQ_CHAN_VEC(0), bit, ch->vector);
		kh_xw(kd, ch->regs + KH_XDMA_CH_IRQ_MASK,
		      KH_XDMA_CTRL_DESC_STOPPED | KH_XDMA_CTRL_DESC_COMPLETED |
		      KH_XDMA_ERRORS);
		kh_xw(kd, irq + KH_XDMA_IRQ_CHAN_EN_W1S, ch->irq_bit);
	}
	x->user_vector = 2 % n;
	kh_xdma_set_vector(kd, irq + KH_XDMA_IRQ_USER_VEC(0), 0, x->user_vector);
	WRITE_ONCE(x->irq_on, true);
	kh_info(kd, "XDMA interrupts: H2C vector %u, C2H vector %u, user vector %u\n",
		x->h2c.vector, x->c2h.vector, x->user_vector);
	return 0;
}

/* The card's user interrupt (the orchestrator's IRQ addon line) on. */
void kh_xdma_user_enable(struct kh_device *kd)
{
	kh_xw(kd, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) + KH_XDMA_IRQ_USER_EN_W1S, 1);
}

/* From the host's interrupt handler: count, wake; no register access. */
void kh_xdma_irq(struct kh_device *kd, unsigned int vector)
{
	struct kh_xdma *x = &kd->xdma;

	if (!READ_ONCE(x->irq_on))
		return;
	if (vector == x->h2c.vector)
		WRITE_ONCE(x->h2c.irqs, x->h2c.irqs + 1);
	if (vector == x->c2h.vector)
		WRITE_ONCE(x->c2h.irqs, x->c2h.irqs + 1);
	if (vector == x->h2c.vector || vector == x->c2h.vector)
		wake_up_all(&x->wq);
}

/* The ring's descriptors for the pieces: a list ending in STOP. */
static void kh_xdma_fill_ring(struct kh_xdma_chan *ch,
			      const struct kh_xdma_seg *segs, unsigned int n)
{
	struct kh_xdma_desc *d = ch->ring.cpu;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int nx = i + 1, adj = 0;
		u32 flags = 0;

		if (nx < n) {
			/* contiguous after the next one, inside its 4 KiB page */
			unsigned int in_page = KH_XDMA_DESCS_PER_PAGE - 1 -
					       nx % KH_XDMA_DESCS_PER_PAGE;

			adj = min_t(unsigned int, n - nx - 1, in_page);
			adj = min_t(unsigned int, adj, KH_XDMA_DESC_ADJ_MAX);
		} else {
			flags = KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED;
		}
		d[i].control = KH_XDMA_DESC_CONTROL(adj, flags);
		d[i].len = segs[i].len;
		d[i].src = ch->to_card ? segs[i].host : segs[i].card;
		d[i].dst = ch->to_card ? segs[i].card : segs[i].host;
		d[i].next = nx < n ? ch->ring.bus + nx * sizeof(*d) : 0;
	}
}

/* Stop the channel; false when it does not go idle: wedged. */
static bool kh_xdma_stop(struct kh_device *kd, struct kh_xdma_chan *ch)
{
	u64 deadline = kh_now(kd) + KH_XDMA_STOP_NS;

	kh_xw(kd, ch->regs + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	while (kh_xr(kd, ch->regs + KH_XDMA_CH_STATUS) & KH_XDMA_STATUS_BUSY) {
		if (kh_now(kd) >= deadline)
			return false;
		if (kh_simulated(kd) && kd->hw.ops->idle_ns)
			kd->hw.ops->idle_ns(kd->hw.ctx, 1000);
		else
			kh_relax(kd);
	}
	return true;
}

/* Until the write-back word counts n or flags an error, or the deadline. */
static int kh_xdma_wait(struct kh_device *kd, struct kh_xdma_chan *ch,
			unsigned int n, u64 deadline)
{
	u32 *wb = ch->wb.cpu;
	bool sim = kh_simulated(kd);
	unsigned int round;
	u32 w;

	for (round = 1;; round++) {
		w = READ_ONCE(*wb);
		if ((w & KH_XDMA_WB_ERROR) || KH_XDMA_WB_COUNT(w) >= n) {
			dma_rmb();	/* the data after the count */
			return 0;
		}
		if (kh_now(kd) >= deadline)
			return -ETIMEDOUT;
		/* a wedged channel logs its error but writes nothing back */
		if (!(round % 16) &&
		    (kh_xr(kd, ch->regs + KH_XDMA_CH_STATUS) & KH_XDMA_ERRORS))
			return 0;
		if (READ_ONCE(kd->unplugged))
			return -ENODEV;
		if (sim && kd->hw.ops->idle_ns) {
			/* the model's engine moves only while its time passes */
			kd->hw.ops->idle_ns(kd->hw.ctx,
					    READ_ONCE(kd->xdma.irq_on) ?
					    KH_XDMA_SIM_STEP_NS : KH_XDMA_SIM_POLL_NS);
		} else if (READ_ONCE(kd->xdma.irq_on)) {
			u32 seen = READ_ONCE(ch->irqs);

			wait_event_interruptible_timeout(kd->xdma.wq,
							 READ_ONCE(ch->irqs) != seen ||
							 READ_ONCE(kd->unplugged) ||
							 (READ_ONCE(*wb) & KH_XDMA_WB_ERROR) ||
							 KH_XDMA_WB_COUNT(READ_ONCE(*wb)) >= n,
							 kh_timeout(1000000));
		} else {
			kh_relax(kd);
		}
	}
}

static const char *kh_xdma_why(u32 status, bool to_card)
{
	if (status & KH_XDMA_CTRL_MAGIC_STOPPED)
		return "a descriptor's magic was wrong";
	if (status & KH_XDMA_CTRL_DESC_ERROR)
		return "a descriptor could not be fetched";
	if (status & KH_XDMA_CTRL_ALIGN_MISMATCH)
		return "an address broke the engine's alignment";
	if (status & KH_XDMA_CTRL_INVALID_LEN)
		return "a descriptor's length was invalid";
	if (status & KH_XDMA_CTRL_READ_ERROR)
		return to_card ? "reading host memory failed" :
				 "the card answered a read with an error";
	if (status & KH_XDMA_CTRL_WRITE_ERROR)
		return to_card ? "the card answered a write with an error" :
				 "writing host memory failed";
	return "the engine stopped short";
}

int kh_xdma_run(struct kh_device *kd, struct kh_xdma_chan *ch,
		const struct kh_xdma_seg *segs, unsigned int n)
{
	u64 bytes = 0, deadline;
	unsigned int i;
	u32 status, done;
	int ret;

	lockdep_assert_held(&ch->lock);
	if (!n)
		return 0;
	if (n > KH_XDMA_RING_DESCS)
		return -E2BIG;
	if (ch->wedged) {
		kh_err(kd, "XDMA %s channel is wedged since an earlier transfer; the card needs a reset\n",
		       ch->name);
		return -EIO;
	}
	for (i = 0; i < n; i++)
		bytes += segs[i].len;
	kh_xdma_fill_ring(ch, segs, n);
	WRITE_ONCE(*(u32 *)ch->wb.cpu, 0);

	kh_xr(kd, ch->regs + KH_XDMA_CH_STATUS_RC);	/* nothing stale */
	kh_xw(kd, ch->sg + KH_XDMA_SG_DESC_LO, (u32)ch->ring.bus);
	kh_xw(kd, ch->sg + KH_XDMA_SG_DESC_HI, (u32)(ch->ring.bus >> 32));
	kh_xw(kd, ch->sg + KH_XDMA_SG_DESC_ADJ,
	      min_t(unsigned int, n - 1,
		    min_t(unsigned int, KH_XDMA_DESCS_PER_PAGE - 1, KH_XDMA_DESC_ADJ_MAX)));
	kh_xw(kd, ch->regs + KH_XDMA_CH_WB_LO, (u32)ch->wb.bus);
	kh_xw(kd, ch->regs + KH_XDMA_CH_WB_HI, (u32)(ch->wb.bus >> 32));
	/* the control word's event bits log into status; RUN starts it */
	kh_xw(kd, ch->regs + KH_XDMA_CH_CTRL,
	      KH_XDMA_CTRL_RUN | KH_XDMA_CTRL_POLL_WB | KH_XDMA_CTRL_DESC_STOPPED |
	      KH_XDMA_CTRL_DESC_COMPLETED | KH_XDMA_CTRL_IDLE_STOPPED |
	      KH_XDMA_ERRORS);

	deadline = kh_now(kd) + KH_XDMA_TIMEOUT_NS +
		   bytes * 1000000000ULL / KH_XDMA_FLOOR_BPS;
	ret = kh_xdma_wait(kd, ch, n, deadline);
	status = kh_xr(kd, ch->regs + KH_XDMA_CH_STATUS_RC);
	done = kh_xr(kd, ch->regs + KH_XDMA_CH_COMPLETED);
	if (!kh_xdma_stop(kd, ch)) {
		ch->wedged = true;
		kh_err(kd, "XDMA %s channel does not stop (status 0x%08x): wedged until the card is reset\n",
		       ch->name, status);
		ret = -EIO;
	}
	if (!ret && ((status & KH_XDMA_ERRORS) || done < n ||
		     (READ_ONCE(*(u32 *)ch->wb.cpu) & KH_XDMA_WB_ERROR)))
		ret = -EIO;
	if (ret) {
		ch->errors++;
		kh_err(kd, "XDMA %s transfer of %llu bytes in %u descriptors failed: %s (status 0x%08x, %u done)\n",
		       ch->name, bytes, n, ret == -ETIMEDOUT ?
		       "no completion within its deadline" : ret == -ENODEV ?
		       "the device is going away" :
		       kh_xdma_why(status, ch->to_card), status, done);
		ret = ret == -ENODEV ? ret : -EIO;
		trace_kohaku_dma(kd->dev, ch->to_card, bytes, n, ret);
		return ret;
	}
	ch->bytes += bytes;
	trace_kohaku_dma(kd->dev, ch->to_card, bytes, n, 0);
	return 0;
}

/* GET_PARAM's (and sysfs's) view of the engine and the interrupts */
u64 kh_xdma_param(struct kh_device *kd, u32 param)
{
	struct kh_xdma *x = &kd->xdma;

	switch (param) {
	case KOHAKU_PARAM_DMA_CHANNELS:
		return kh_xdma_usable(kd) ? 2 : 0;
	case KOHAKU_PARAM_DMA_BYTES_TO_CARD:
		return READ_ONCE(x->h2c.bytes);
	case KOHAKU_PARAM_DMA_BYTES_FROM_CARD:
		return READ_ONCE(x->c2h.bytes);
	case KOHAKU_PARAM_DMA_ERRORS:
		return READ_ONCE(x->h2c.errors) + READ_ONCE(x->c2h.errors);
	case KOHAKU_PARAM_IRQ_VECTORS:
		return READ_ONCE(x->irq_on) ? kd->hw.n_irqs : 0;
	case KOHAKU_PARAM_IRQS:
		return READ_ONCE(x->irqs);
	}
	return 0;
}
