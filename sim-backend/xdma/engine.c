// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The SGDMA engine (PG195 "Scatter Gather DMA"; docs/spec/xdma.md "How a
 * transfer runs").  A channel runs from the rising edge of control RUN:
 * status and the completed count are cleared, and the engine fetches the
 * descriptor at the SGDMA first-descriptor address with its adjacent
 * count (one block: the first and up to 63 more, contiguous).  It takes a
 * block's descriptors in order; the block's last descriptor names the next
 * block (its next address and nxt_adj).  For each descriptor it checks the
 * magic (MAGIC_STOPPED), moves the data between host memory (the host's
 * callbacks, struct ksim_host_ops) and the card bus it is given (struct
 * ksim_cardbus), counts it in the completed count, logs DESC_COMPLETED
 * and writes the count back (poll mode) for one flagged COMPLETED, and
 * stops at one flagged STOP (DESC_STOPPED).  A status bit is logged only when control enables it
 * (PG195: ie_*), and every event then goes through the interrupt mask to
 * the IRQ block (irq.c).
 *
 * Errors stop the channel (busy clear): a block not 32-byte aligned or
 * crossing a 4 KiB boundary, or host memory refusing a descriptor fetch
 * (desc_error, unsupported request); host memory refusing data (H2C
 * read_error, C2H write_error: unsupported request); a bad magic.  The
 * card side answering with an error (DECERR from the card bus, a SLVERR
 * knob) logs the card-side error (H2C write_error, C2H read_error) and
 * wedges the channel: busy stays set and nothing more completes, as the
 * card's Python host saw on SLVERR (kohakutpu.md 5.6).  The card side not
 * answering at all (an address a mesh window decodes to nothing, a MAG
 * host-window hang) wedges it the same way with nothing logged.  A wedged
 * channel is recovered by clearing RUN and clearing the logged errors
 * (reading status-RC or writing them 1 to status), in either order: it
 * goes idle at the access that completes the pair.  A MAG hang stays in
 * MAG until its mesh is reset, so the next transfer that way wedges again.
 *
 * Clearing RUN stops a busy channel once its current descriptor (or the
 * fetch in flight) is done, even when RUN is set again meanwhile (that
 * starts a new run once it is idle); IDLE_STOPPED is logged when the
 * channel is idle after RUN was cleared, at once for an idle one.  A data
 * phase into a mesh held in reset waits for the release.
 *
 * Time (mesh cycles): a fetch takes a host round trip
 * (struct ksim_timing.dma_cycles, at least 1); a descriptor's data takes
 * ceil(len / 32) cycles, plus a host round trip for H2C (its reads).  The
 * data moves, and the descriptor completes, in the phase's last cycle.
 */
#include "xdma.h"
#include "util.h"

/* the engine has no mesh clock: card time */
static u64 ksim_xdma_now(const struct ksim_xdma *x)
{
	return ksim_node_now(&x->node);
}

static u64 ksim_xdma_round_trip(const struct ksim_xdma *x)
{
	u32 c = *x->round_trip;

	return c ? c : 1;
}

static const char *ksim_xdma_name(const struct ksim_xdma_chan *ch)
{
	return ch->c2h ? "c2h" : "h2c";
}

static bool ksim_xdma_halted(const struct ksim_xdma_chan *ch)
{
	return ch->x->sgc_ctrl & (ch->c2h ? KH_XDMA_SGC_HALT_C2H(0) :
				  KH_XDMA_SGC_HALT_H2C(0));
}

/* the engine's timer: the earliest phase end */
static void ksim_xdma_arm(struct ksim_xdma *x)
{
	u64 t = KSIM_NEVER;
	unsigned int i;

	for (i = 0; i < KSIM_XDMA_CHANS; i++) {
		const struct ksim_xdma_chan *ch = &x->ch[i];

		if ((ch->state == KSIM_XS_FETCH || ch->state == KSIM_XS_DATA) &&
		    ch->due < t)
			t = ch->due;
	}
	ksim_node_timer(&x->node, t);
}

/* ---- host memory ---- */

static int ksim_xdma_host_read(struct ksim_xdma *x, u64 bus, void *dst,
			       size_t n)
{
	if (!x->host || !x->host->mem_read || bus + n < bus)
		return -EFAULT;
	return x->host->mem_read(x->host_ctx, bus, dst, n);
}

static int ksim_xdma_host_write(struct ksim_xdma *x, u64 bus,
				const void *src, size_t n)
{
	if (!x->host || !x->host->mem_write || bus + n < bus)
		return -EFAULT;
	return x->host->mem_write(x->host_ctx, bus, src, n);
}

/* the host's pointer to a contiguous range, where it offers one; else NULL */
static void *ksim_xdma_host_map(struct ksim_xdma *x, u64 bus, size_t n)
{
	if (!x->host || !x->host->mem_map || bus + n < bus)
		return NULL;
	return x->host->mem_map(x->host_ctx, bus, n);
}

/* ---- status, stopping, the wedge ---- */

static void ksim_xdma_log(struct ksim_xdma_chan *ch, u32 bits)
{
	ch->status |= bits & ch->ctrl & KSIM_XDMA_STAT_MASK;
}

/*
 * Poll mode: the completed count (and the error flag) to host memory.  The
 * host polls the word while the card runs, from another thread or CPU (a
 * thread stepping the card for its own work completes another's transfer):
 * where the host offers its pointer to the word and the word is aligned,
 * it is stored whole and after the data before it, as the card's one
 * posted 4-byte write lands; else through the host's copy.
 */
static void ksim_xdma_writeback(struct ksim_xdma_chan *ch, bool error)
{
	u32 w = KH_XDMA_WB_COUNT(ch->completed) | (error ? KH_XDMA_WB_ERROR : 0);
	u8 b[4] = { (u8)w, (u8)(w >> 8), (u8)(w >> 16), (u8)(w >> 24) };
	void *p;

	if (!(ch->ctrl & KH_XDMA_CTRL_POLL_WB))
		return;
	p = ksim_xdma_host_map(ch->x, ch->wb, sizeof(b));
	if (p && !((uintptr_t)p & (sizeof(b) - 1))) {
		ksim_plat_store_le32(p, w);
		return;
	}
	/* a posted write: nothing on the card learns that it failed */
	if (ksim_xdma_host_write(ch->x, ch->wb, b, sizeof(b)))
		ch->x->wb_faults++;
}

static void ksim_xdma_start(struct ksim_xdma_chan *ch);

/* The channel goes idle, logging bits (IDLE_STOPPED when RUN is clear). */
static void ksim_xdma_idle(struct ksim_xdma_chan *ch, u32 bits)
{
	struct ksim_xdma *x = ch->x;

	if (ch->stopping || !(ch->ctrl & KH_XDMA_CTRL_RUN))
		bits |= KH_XDMA_CTRL_IDLE_STOPPED;
	ch->state = KSIM_XS_IDLE;
	ch->wedge = KSIM_XW_NONE;
	ch->stopping = false;
	ksim_xdma_log(ch, bits);
	if (ksim_unlikely(x->obs))
		ksim_xdma_note(x, &(struct ksim_xdma_event){
			.what = KSIM_XT_STOP, .c2h = ch->c2h,
			.a = ch->status, .b = (u16)ch->completed });
	if (ch->restart && (ch->ctrl & KH_XDMA_CTRL_RUN)) {
		ksim_xdma_start(ch);
		return;
	}
	ch->restart = false;
	ksim_xdma_arm(x);
	ksim_xdma_irq_eval(x);
}

/* An error that stops the channel. */
static void ksim_xdma_fail(struct ksim_xdma_chan *ch, u32 bits)
{
	ch->errors++;
	ksim_xdma_writeback(ch, true);
	ksim_xdma_idle(ch, bits);
}

/* The card side answered with an error, or not at all: busy for good. */
static void ksim_xdma_wedge(struct ksim_xdma_chan *ch, unsigned int why,
			    u32 bits, u64 addr)
{
	struct ksim_xdma *x = ch->x;

	ch->state = KSIM_XS_WEDGED;
	ch->wedge = (u8)why;
	ch->wedges++;
	ksim_xdma_log(ch, bits);
	if (ksim_log_ok(x->log))
		ksim_plat_log("xdma %s: card address 0x%llx %s: the channel is wedged until RUN and its errors are cleared\n",
			      ksim_xdma_name(ch), (unsigned long long)addr,
			      why == KSIM_XW_ERROR ? "answered with an error" :
			      "never answered");
	if (ksim_unlikely(x->obs))
		ksim_xdma_note(x, &(struct ksim_xdma_event){
			.what = KSIM_XT_WEDGE, .c2h = ch->c2h,
			.a = ch->status, .v = addr });
	ksim_xdma_arm(x);
	ksim_xdma_irq_eval(x);
}

void ksim_xdma_status_cleared(struct ksim_xdma_chan *ch)
{
	if (ch->state == KSIM_XS_WEDGED && !(ch->ctrl & KH_XDMA_CTRL_RUN) &&
	    !(ch->status & KH_XDMA_ERRORS))
		ksim_xdma_idle(ch, 0);
}

/* ---- fetching descriptors ---- */

static void ksim_xdma_fetch(struct ksim_xdma_chan *ch)
{
	struct ksim_xdma *x = ch->x;

	if (ksim_xdma_halted(ch)) {
		ch->state = KSIM_XS_HALTED;
	} else {
		ch->state = KSIM_XS_FETCH;
		ch->due = ksim_xdma_now(x) + ksim_xdma_round_trip(x);
	}
	ksim_xdma_arm(x);
}

static void ksim_xdma_start(struct ksim_xdma_chan *ch)
{
	struct ksim_xdma *x = ch->x;

	ch->status = 0;
	ch->completed = 0;
	ch->restart = false;
	ch->stopping = false;
	ch->runs++;
	ch->fetch_addr = ch->sg_desc;
	ch->fetch_n = ch->sg_adj + 1;
	if (ksim_unlikely(x->obs))
		ksim_xdma_note(x, &(struct ksim_xdma_event){
			.what = KSIM_XT_RUN, .c2h = ch->c2h,
			.v = ch->sg_desc, .a = ch->sg_adj });
	ksim_xdma_fetch(ch);
	ksim_xdma_irq_eval(x);
}

static u32 ksim_xdma_le32(const u8 *b)
{
	return b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static u64 ksim_xdma_le64(const u8 *b)
{
	return ksim_xdma_le32(b) | (u64)ksim_xdma_le32(b + 4) << 32;
}

static void ksim_xdma_desc_begin(struct ksim_xdma_chan *ch);

/* A knob's error for this event of the channel, or -1. */
static int ksim_xdma_knob(struct ksim_xdma_chan *ch, unsigned int event)
{
	struct ksim_xdma_watch *w = ch->x->obs;

	if (!w)
		return -1;
	return w->ops->knob(w, ch->c2h, event);
}

/* The block fetched: check it, read it, take its first descriptor. */
static void ksim_xdma_fetched(struct ksim_xdma_chan *ch)
{
	struct ksim_xdma *x = ch->x;
	u64 a = ch->fetch_addr;
	u32 n = ch->fetch_n, i;
	size_t bytes = (size_t)n * sizeof(struct kh_xdma_desc);

	if (ch->stopping) {
		ksim_xdma_idle(ch, 0);
		return;
	}
	if ((a & (KH_XDMA_DESC_BLOCK_ALIGN - 1)) ||
	    (a & (KH_XDMA_DESC_BOUNDARY - 1)) + bytes > KH_XDMA_DESC_BOUNDARY ||
	    ksim_xdma_knob(ch, KSIM_XE_FETCH) >= 0 ||
	    ksim_xdma_host_read(x, a, x->bounce, bytes)) {
		ksim_xdma_fail(ch, KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR));
		return;
	}
	for (i = 0; i < n; i++) {
		const u8 *b = x->bounce + i * sizeof(struct kh_xdma_desc);
		struct kh_xdma_desc *d = &ch->run[i];

		d->control = ksim_xdma_le32(b);
		d->len = ksim_xdma_le32(b + 4);
		d->src = ksim_xdma_le64(b + 8);
		d->dst = ksim_xdma_le64(b + 16);
		d->next = ksim_xdma_le64(b + 24);
		/* a knob: this descriptor arrives with its magic corrupted */
		if (ksim_xdma_knob(ch, KSIM_XE_MAGIC) >= 0)
			d->control ^= 0xffffu << 16;
	}
	ch->n_run = n;
	ch->i_run = 0;
	ksim_xdma_desc_begin(ch);
}

/* ---- moving a descriptor's data ---- */

enum {
	KSIM_XM_OK,
	KSIM_XM_STALL,		/* the mesh window is held in reset */
	KSIM_XM_HOST,		/* host memory refused */
	KSIM_XM_DECERR,		/* the card bus decoded nothing */
	KSIM_XM_SLVERR,		/* the card side answered SLVERR (a knob) */
	KSIM_XM_HANG,		/* the card side never answered */
};

static unsigned int ksim_xdma_move(struct ksim_xdma_chan *ch, u64 host,
				   u64 card, u64 len)
{
	struct ksim_xdma *x = ch->x;
	void *p;
	u64 o, n;
	int e;

	e = x->bus->ops->probe(x->bus->ctx, card, len, !ch->c2h);
	if (e == -EAGAIN)
		return KSIM_XM_STALL;
	if (e == -ENXIO)
		return KSIM_XM_DECERR;
	if (e)
		return KSIM_XM_HANG;
	e = ksim_xdma_knob(ch, KSIM_XE_HOST);
	if (e == KSIM_XE_HOST)
		return KSIM_XM_HOST;
	if (e == KSIM_XE_SLVERR)
		return KSIM_XM_SLVERR;
	/* a knob: the data goes to an address the driver never mapped */
	if (e == KSIM_XE_STRAY)
		host = KSIM_XDMA_STRAY_BUS;
	/* chunks end at card addresses KSIM_XDMA_CHUNK aligned: whole words */
	for (o = 0; o < len; o += n) {
		n = KSIM_XDMA_CHUNK - ((card + o) & (KSIM_XDMA_CHUNK - 1));
		if (n > len - o)
			n = len - o;
		p = ksim_xdma_host_map(x, host + o, n);
		if (!ch->c2h) {
			if (!p && ksim_xdma_host_read(x, host + o, x->bounce, n))
				return KSIM_XM_HOST;
			e = x->bus->ops->write(x->bus->ctx, card + o,
					       p ?: x->bounce, n);
		} else {
			e = x->bus->ops->read(x->bus->ctx, card + o,
					      p ?: x->bounce, n);
			if (!e && !p &&
			    ksim_xdma_host_write(x, host + o, x->bounce, n))
				return KSIM_XM_HOST;
		}
		/* a page the model could not allocate is counted in DRAM */
		if (e && e != -ENOMEM)
			return KSIM_XM_HANG;	/* MAG's host window hung */
		ch->bytes += n;
	}
	return KSIM_XM_OK;
}

static void ksim_xdma_desc_begin(struct ksim_xdma_chan *ch)
{
	struct ksim_xdma *x = ch->x;
	const struct kh_xdma_desc *d = &ch->run[ch->i_run];
	u64 len = d->len & KH_XDMA_DESC_LEN_MAX;
	u64 cycles = (len + KSIM_XDMA_BEAT - 1) / KSIM_XDMA_BEAT;

	if ((d->control >> 16) != KH_XDMA_DESC_MAGIC) {
		ksim_xdma_fail(ch, KH_XDMA_CTRL_MAGIC_STOPPED);
		return;
	}
	if (!ch->c2h)
		cycles += ksim_xdma_round_trip(x);
	ch->state = KSIM_XS_DATA;
	ch->due = ksim_xdma_now(x) + cycles;
	if (ksim_unlikely(x->obs))
		ksim_xdma_note(x, &(struct ksim_xdma_event){
			.what = KSIM_XT_DESC, .c2h = ch->c2h,
			.v = ch->c2h ? d->src : d->dst, .a = (u32)len,
			.b = (u16)ch->completed, .e = (u32)cycles });
	ksim_xdma_arm(x);
}

/* the card side's error group: H2C write_error, C2H read_error */
static u32 ksim_xdma_card_err(const struct ksim_xdma_chan *ch, u32 code)
{
	return ch->c2h ? KH_XDMA_READ_ERR(code) : KH_XDMA_WRITE_ERR(code);
}

/* The current descriptor's data phase ended. */
static void ksim_xdma_desc_done(struct ksim_xdma_chan *ch)
{
	struct ksim_xdma *x = ch->x;
	const struct kh_xdma_desc *d = &ch->run[ch->i_run];
	u64 len = d->len & KH_XDMA_DESC_LEN_MAX;
	u64 card = ch->c2h ? d->src : d->dst, host = ch->c2h ? d->dst : d->src;
	u32 host_err = ch->c2h ? KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR) :
				 KH_XDMA_READ_ERR(KH_XDMA_ERR_UR);
	u32 bits = 0;

	switch (ksim_xdma_move(ch, host, card, len)) {
	case KSIM_XM_STALL:
		ch->stalls++;
		ch->due = x->bus->ops->release(x->bus->ctx, card);
		if (ch->due <= ksim_xdma_now(x))
			ch->due = ksim_xdma_now(x) + 1;
		ksim_xdma_arm(x);
		return;
	case KSIM_XM_HOST:
		ksim_xdma_fail(ch, host_err);
		return;
	case KSIM_XM_DECERR:
		ksim_xdma_wedge(ch, KSIM_XW_ERROR,
				ksim_xdma_card_err(ch, KH_XDMA_ERR_DECERR), card);
		return;
	case KSIM_XM_SLVERR:
		ksim_xdma_wedge(ch, KSIM_XW_ERROR,
				ksim_xdma_card_err(ch, KH_XDMA_ERR_SLVERR), card);
		return;
	case KSIM_XM_HANG:
		ksim_xdma_wedge(ch, KSIM_XW_HANG, 0, card);
		return;
	}
	ch->completed++;
	ch->descs++;
	if (d->control & KH_XDMA_DESC_COMPLETED) {
		bits |= KH_XDMA_CTRL_DESC_COMPLETED;
		ksim_xdma_writeback(ch, false);
	}
	if (d->control & KH_XDMA_DESC_STOP) {
		ksim_xdma_idle(ch, bits | KH_XDMA_CTRL_DESC_STOPPED);
		return;
	}
	if (bits) {
		ksim_xdma_log(ch, bits);
		ksim_xdma_irq_eval(x);
	}
	if (ch->stopping) {
		ksim_xdma_idle(ch, 0);
		return;
	}
	if (++ch->i_run < ch->n_run) {
		ksim_xdma_desc_begin(ch);
		return;
	}
	/* the block's last descriptor names the next block */
	ch->fetch_addr = d->next;
	ch->fetch_n = ((d->control >> KH_XDMA_DESC_ADJ_SHIFT) &
		       KH_XDMA_DESC_ADJ_MAX) + 1;
	ksim_xdma_fetch(ch);
}

/* ---- the node ---- */

static unsigned int ksim_xdma_tick(struct ksim_node *n)
{
	struct ksim_xdma *x = ksim_container_of(n, struct ksim_xdma, node);
	u64 now = ksim_xdma_now(x);
	unsigned int i;

	for (i = 0; i < KSIM_XDMA_CHANS; i++) {
		struct ksim_xdma_chan *ch = &x->ch[i];

		/* each step moves due on or ends the phase: bounded */
		for (;;) {
			if (ch->state == KSIM_XS_FETCH && ch->due <= now)
				ksim_xdma_fetched(ch);
			else if (ch->state == KSIM_XS_DATA && ch->due <= now)
				ksim_xdma_desc_done(ch);
			else
				break;
		}
	}
	ksim_xdma_arm(x);
	return KSIM_TICK_IDLE;	/* until the timer or the host */
}

static const struct ksim_node_ops ksim_xdma_node_ops = {
	.tick = ksim_xdma_tick,
};

/* ---- what regs.c tells the engine ---- */

void ksim_xdma_ctrl_changed(struct ksim_xdma_chan *ch, u32 old)
{
	u32 rose = ch->ctrl & ~old, fell = old & ~ch->ctrl;

	if (rose & KH_XDMA_CTRL_RUN) {
		if (ksim_xdma_busy(ch))
			ch->restart = true;	/* once the channel is idle */
		else
			ksim_xdma_start(ch);
		return;
	}
	if (!(fell & KH_XDMA_CTRL_RUN))
		return;
	ch->restart = false;
	switch (ch->state) {
	case KSIM_XS_IDLE:
		/* the engine is idle after RUN was cleared */
		ksim_xdma_log(ch, KH_XDMA_CTRL_IDLE_STOPPED);
		ksim_xdma_irq_eval(ch->x);
		break;
	case KSIM_XS_HALTED:
		ksim_xdma_idle(ch, 0);		/* nothing in flight */
		break;
	case KSIM_XS_WEDGED:
		ksim_xdma_status_cleared(ch);
		break;
	default:
		/* a fetch or a descriptor in flight finishes first */
		ch->stopping = true;
		break;
	}
}

void ksim_xdma_halt_changed(struct ksim_xdma *x)
{
	unsigned int i;

	for (i = 0; i < KSIM_XDMA_CHANS; i++)
		if (x->ch[i].state == KSIM_XS_HALTED &&
		    !ksim_xdma_halted(&x->ch[i]))
			ksim_xdma_fetch(&x->ch[i]);
}

/* ---- life cycle ---- */

struct ksim_xdma *ksim_xdma_create(const struct ksim_xdma_wiring *w, int *err)
{
	struct ksim_xdma *x = ksim_plat_zalloc(sizeof(*x));
	unsigned int i;
	int e;

	if (!x) {
		*err = -ENOMEM;
		return NULL;
	}
	x->bounce = ksim_plat_zalloc(KSIM_XDMA_CHUNK);
	if (!x->bounce) {
		ksim_plat_free(x);
		*err = -ENOMEM;
		return NULL;
	}
	x->log = w->log;
	x->bus = w->bus;
	x->round_trip = w->round_trip;
	for (i = 0; i < KSIM_XDMA_CHANS; i++) {
		x->ch[i].x = x;
		x->ch[i].c2h = i == KSIM_XDMA_C2H;
	}
	ksim_xdma_regs_reset(x);
	e = ksim_sched_add(w->sched, &x->node, &ksim_xdma_node_ops);
	if (e) {
		ksim_plat_free(x->bounce);
		ksim_plat_free(x);
		*err = e;
		return NULL;
	}
	return x;
}

void ksim_xdma_destroy(struct ksim_xdma *x)
{
	if (!x)
		return;
	ksim_plat_free(x->bounce);
	ksim_plat_free(x);
}
