/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The card's DMA engine, the Xilinx DMA/Bridge Subsystem for PCI Express
 * (XDMA, PG195) in DMA mode, as the card configures it (kohakutpu.md 8.2:
 * one H2C and one C2H channel, a 512-bit M_AXI, the AXI-Lite master on
 * BAR0, so this register space is BAR1).  docs/spec/xdma.md is the
 * contract, uapi/kohaku/kh_xdma.h its numbers; docs/model.md "XDMA" says
 * what the model keeps and why.
 *
 * One concern a file:
 *
 *   regs.c    the register space: the block decode, and the register
 *             tables (lib/regs.h) of the channels, their SGDMA blocks,
 *             the config block and the SGDMA common block
 *   engine.c  the SGDMA engine: descriptor fetch, data, completion,
 *             poll-mode write-back, errors, the wedge and its recovery,
 *             simulated time
 *   irq.c     the IRQ block: enables, requests, pending, vectors,
 *             delivery to the host's handler
 *
 * The engine is a node on the card's scheduler: it acts at the cycles its
 * phases end (a descriptor fetch, a descriptor's data), so it runs forward
 * whenever the card does (a register access, ksim_run(), the host's idle
 * time), deterministically.  Data moves through the card bus it is given
 * (struct ksim_cardbus below; the card's side is card/cardbus.c) in
 * memcpy-sized chunks.
 */
#ifndef KSIM_XDMA_H
#define KSIM_XDMA_H

#include "host.h"
#include "log.h"
#include "regs.h"
#include "sched.h"
#include <kohaku/kh_xdma.h>

/* the channels the card has: H2C 0 and C2H 0 (kohakutpu.md 8.2) */
#define KSIM_XDMA_H2C		0
#define KSIM_XDMA_C2H		1
#define KSIM_XDMA_CHANS		2
#define KSIM_XDMA_N_H2C		1	/* channel interrupt bits: H2C, then C2H */

/* the identifiers' version: PG195 "6: 2017.1 to current release" */
#define KSIM_XDMA_VERSION	0x06
/*
 * Alignments (0x4c): the IP's values for an AXI-MM channel, address
 * alignment 1, length granularity 1, 64 address bits.  The card's 32-byte
 * word rule is MAG's, not the engine's (docs/spec/xdma.md).
 */
#define KSIM_XDMA_ALIGNMENTS	((1u << 16) | (1u << 8) | 64u)
/* the config block (docs/spec/xdma.md "Config block") */
#define KSIM_XDMA_CFG_BUSDEV	0x0100u	/* 01:00.0 */
#define KSIM_XDMA_CFG_MPS	1u	/* 256 bytes */
#define KSIM_XDMA_CFG_MRRS	2u	/* 512 bytes */
#define KSIM_XDMA_CFG_SYSID	0xff01u	/* PG195's default */
#define KSIM_XDMA_CFG_WIDTH	3u	/* 512 bits */
/* status bits and the interrupt mask: [23:9] and [6:1] */
#define KSIM_XDMA_STAT_MASK	0x00fffe7eu

/* user interrupts: xdma_num_usr_irq 1 (kohakutpu.md 8.2) */
#define KSIM_XDMA_N_USER	1

/*
 * Timing, in mesh cycles (300 MHz).  Data moves at 32 bytes a cycle, MAG's
 * 256-bit host window at the card clock: 9.6 GB/s, under the 10.8 GB/s one
 * H2C engine peaks at and the ~12.6 GB/s Gen3 x16 gives (kohakutpu.md 8.4).
 * A descriptor fetch and an H2C data read start with a host round trip,
 * the card's DMA cost (struct ksim_timing.dma_cycles, 150 = 500 ns).
 */
#define KSIM_XDMA_BEAT		32	/* bytes a cycle */
/* data moves through a bounce buffer of this size, card-address aligned */
#define KSIM_XDMA_CHUNK		65536u
/* the most descriptors one fetch brings: the first and 63 adjacent */
#define KSIM_XDMA_BLOCK		(KH_XDMA_DESC_ADJ_MAX + 1)

/* what a channel is doing */
enum ksim_xdma_state {
	KSIM_XS_IDLE,		/* not busy */
	KSIM_XS_FETCH,		/* a descriptor block is being fetched */
	KSIM_XS_HALTED,		/* the SGDMA common halt holds the next fetch */
	KSIM_XS_DATA,		/* the current descriptor's data moves */
	KSIM_XS_WEDGED,		/* busy for good: see engine.c */
};

/* why a channel is wedged */
enum ksim_xdma_wedge {
	KSIM_XW_NONE,
	KSIM_XW_ERROR,		/* the card side answered with an error */
	KSIM_XW_HANG,		/* the card side never answered */
};

/*
 * Where a stray transfer (inject xdma error=stray) goes instead of the
 * descriptor's host address: bus address 0, which no DMA mapping ever
 * gives a driver behind an IOMMU (Linux's iommu-dma starts its IOVA space
 * at page 1), so the IOMMU stops it; a host without one decides alone.
 */
#define KSIM_XDMA_STRAY_BUS	0ULL

/* the knobs' errors (the knob: xdma watch ops' knob(), inject xdma error=...) */
enum ksim_xdma_err {
	KSIM_XE_MAGIC,		/* the next descriptor fetched has a bad magic */
	KSIM_XE_FETCH,		/* the next descriptor fetch fails in host memory */
	KSIM_XE_HOST,		/* the next data transfer fails in host memory */
	KSIM_XE_SLVERR,		/* ... gets SLVERR on the card side: wedges */
	KSIM_XE_STRAY,		/* ... goes to host address KSIM_XDMA_STRAY_BUS */
	KSIM_XE_KINDS
};

struct ksim_xdma;
struct ksim_xdma_watch;

/* what the engine reports (the trace's class dma): see enum ksim_xdma_trace */
struct ksim_xdma_event {
	u8 what;		/* enum ksim_xdma_trace */
	u8 c2h;			/* the channel */
	u16 b;
	u32 a, e;
	u64 v;
};

/*
 * What the engine reports to whoever watches it (the observers, obs/obs.c,
 * implement it): knob() asks whether a fault knob acts on this event of
 * channel c2h (event: KSIM_XE_MAGIC a descriptor fetched, KSIM_XE_FETCH
 * a descriptor block fetch, KSIM_XE_HOST a descriptor's data transfer)
 * and returns its enum ksim_xdma_err, or -1; event() is told what the
 * engine did.
 */
struct ksim_xdma_watch_ops {
	int (*knob)(struct ksim_xdma_watch *w, unsigned int c2h,
		    unsigned int event);
	void (*event)(struct ksim_xdma_watch *w,
		      const struct ksim_xdma_event *ev);
};

struct ksim_xdma_watch {
	const struct ksim_xdma_watch_ops *ops;
};

/**
 * struct ksim_cardbus_ops - the card bus as the engine's M_AXI reaches it
 * @probe: what an access of @len bytes at @addr would answer before it
 *	moves anything: 0, or one of the errnos below (-EIO only for an
 *	earlier hang).
 * @write: an H2C write of @len bytes at @addr.
 * @read: a C2H read of @len bytes at @addr.
 * @release: the cycle a window held in reset (-EAGAIN at @addr) is
 *	released.
 *
 * What an access answers (card/cardbus.c):
 *
 *   0          done
 *   -ENXIO     no window of the card bus decodes the address: the
 *              interconnect answers DECERR
 *   -EINVAL    a mesh window decodes it but nothing behind answers ([37:36]
 *              naming another mesh, [38], past the DRAM): the access hangs
 *   -EAGAIN    MAG's host window is held in reset with its mesh: the
 *              access waits for the release (@release)
 *   -EIO       that XDMA direction hangs in MAG (an aperture nothing
 *              serves, a quantising upload cut mid-entry, or an earlier
 *              such hang), until the hung mesh is reset
 *   -ENOMEM    the model could not allocate a DRAM page
 */
struct ksim_cardbus_ops {
	int (*probe)(void *ctx, u64 addr, size_t len, bool write);
	int (*write)(void *ctx, u64 addr, const void *buf, size_t len);
	int (*read)(void *ctx, u64 addr, void *buf, size_t len);
	u64 (*release)(void *ctx, u64 addr);
};

/*
 * The card bus handle, as QEMU's AddressSpace: what the engine's data and
 * descriptors' card addresses reach.  The card gives the engine one when
 * it builds it, so the engine never names the card.
 */
struct ksim_cardbus {
	const struct ksim_cardbus_ops *ops;
	void *ctx;
};

/*
 * What the card gives the engine when it builds it (card/card.c): its
 * scheduler, its diagnostics budget, the card bus, and the host round trip
 * in cycles (the card's DMA cost, struct ksim_timing.dma_cycles, which a
 * test may change at any time: read through the pointer).
 */
struct ksim_xdma_wiring {
	struct ksim_sched *sched;
	struct ksim_log *log;
	const struct ksim_cardbus *bus;
	const u32 *round_trip;
};

/**
 * struct ksim_xdma_chan - one channel: its registers and its run
 * @x: the engine.
 * @c2h: the direction (0: H2C, 1: C2H).
 * @state: enum ksim_xdma_state.
 * @wedge: enum ksim_xdma_wedge, while @state is KSIM_XS_WEDGED.
 * @restart: RUN rose again while the channel was still finishing.
 * @stopping: RUN fell while a fetch or a descriptor was in flight: the
 *	channel stops when it is done.
 * @ctrl: control [27:0].
 * @status: status, busy excluded ([0] is @state != IDLE).
 * @completed: completed descriptor count.
 * @irq_mask: the interrupt enable mask.
 * @wb: the poll-mode write-back address.
 * @sg_desc: the first descriptor's address (SGDMA 0x80/0x84).
 * @sg_adj: the adjacent count (SGDMA 0x88, [5:0]).
 * @sg_credit: credits (SGDMA 0x8c, [9:0]; stream channels only: storage).
 * @due: the cycle the current phase ends.
 * @fetch_addr: the next (or current) descriptor block's address.
 * @fetch_n: how many descriptors it holds.
 * @n_run: descriptors fetched in the current block.
 * @i_run: the current one.
 * @run: the block.
 * @runs: statistics: runs started.
 * @descs: descriptors completed.
 * @bytes: bytes moved.
 * @errors: runs stopped by an error.
 * @wedges: times the channel wedged.
 * @stalls: data phases that waited for a mesh's reset to end.
 */
struct ksim_xdma_chan {
	struct ksim_xdma *x;
	u8 c2h;
	u8 state;
	u8 wedge;
	bool restart, stopping;
	u32 ctrl, status, completed, irq_mask;
	u64 wb;
	u64 sg_desc;
	u32 sg_adj, sg_credit;
	u64 due;
	u64 fetch_addr;
	u32 fetch_n;
	u32 n_run, i_run;
	struct kh_xdma_desc run[KSIM_XDMA_BLOCK];
	u64 runs, descs, bytes, errors, wedges, stalls;
};

/**
 * struct ksim_xdma - the card's XDMA function
 * @node: the engine's node on the card's scheduler.
 * @log: the card's diagnostics budget.
 * @bus: the card bus.
 * @round_trip: the host round trip, in cycles.
 * @ch: H2C 0 and C2H 0.
 * @sgc_ctrl: SGDMA common control (the halt bits).
 * @user_en: IRQ block user interrupt enable mask [15:0].
 * @chan_en: channel interrupt enable mask [7:0].
 * @user_vec: user interrupt vector registers (0x80-0x8c), 5-bit fields.
 * @chan_vec: channel interrupt vector registers (0xa0-0xa4).
 * @user_pend: user interrupts pending as last evaluated.
 * @chan_pend: channel interrupts pending as last evaluated.
 * @usr_irq: the level of user interrupt 0, the card's IRQ addon line
 *	(ksim_xdma_usr_irq(), a struct ksim_irq_pin's handler).
 * @stop_on_msi: a message stops the scheduler's run (ksim_run_until_irq()).
 * @n_vectors: MSI-X vectors the host takes; 0: it polls.
 * @msi: the host's handler, called with the vector; NULL: none.
 * @msi_arg: its argument.
 * @host: the host's memory callbacks; NULL: no host memory.
 * @host_ctx: their context.
 * @bounce: data on its way between host and card memory.
 * @wb_faults: statistics: write-backs host memory refused.
 * @irqs: MSI-X messages delivered.
 * @irqs_lost: messages to a vector past @n_vectors, or with no handler.
 * @obs: its watcher (fault knobs, the trace): NULL while nothing observes
 *	the engine, so each report is one test.
 */
struct ksim_xdma {
	struct ksim_node node;
	struct ksim_log *log;
	const struct ksim_cardbus *bus;
	const u32 *round_trip;
	struct ksim_xdma_chan ch[KSIM_XDMA_CHANS];
	u32 sgc_ctrl;
	u32 user_en, chan_en;
	u32 user_vec[4], chan_vec[2];
	u32 user_pend, chan_pend;
	bool usr_irq;
	bool stop_on_msi;
	unsigned int n_vectors;
	ksim_msi_fn msi;
	void *msi_arg;
	const struct ksim_host_ops *host;
	void *host_ctx;
	u8 *bounce;
	u64 wb_faults, irqs, irqs_lost;
	struct ksim_xdma_watch *obs;
};

/* ---- life cycle (engine.c) ---- */
struct ksim_xdma *ksim_xdma_create(const struct ksim_xdma_wiring *w, int *err);
void ksim_xdma_destroy(struct ksim_xdma *x);

/* ---- registers (regs.c): byte offsets in BAR1 ---- */
u32 ksim_xdma_read(struct ksim_xdma *x, u32 off);
void ksim_xdma_write(struct ksim_xdma *x, u32 off, u32 v);
/* every register to its reset value (at creation) */
void ksim_xdma_regs_reset(struct ksim_xdma *x);
/* "h2c0 CTRL_W1S", "irq USER_VEC[1]": a BAR1 offset for a trace */
int ksim_xdma_reg_name(u32 off, char *b, size_t n);
/*
 * The register tables, at offsets in their block: a channel's (the
 * device is the struct ksim_xdma_chan), a channel's SGDMA block (the
 * same), the config and SGDMA common blocks (the struct ksim_xdma).
 */
extern const struct ksim_regs ksim_xdma_ch_regs, ksim_xdma_sg_regs,
	ksim_xdma_cfg_regs, ksim_xdma_sgc_regs;

/* ---- the engine (engine.c), for regs.c ---- */
/* control changed from old: RUN's edges start and stop the channel */
void ksim_xdma_ctrl_changed(struct ksim_xdma_chan *ch, u32 old);
/* status bits were cleared: a wedged channel may be released */
void ksim_xdma_status_cleared(struct ksim_xdma_chan *ch);
/* the SGDMA common halt bits changed */
void ksim_xdma_halt_changed(struct ksim_xdma *x);
/* busy: the channel is not idle */
static inline bool ksim_xdma_busy(const struct ksim_xdma_chan *ch)
{
	return ch->state != KSIM_XS_IDLE;
}

/* what the engine reports (struct ksim_xdma_event; the trace's KSIM_TR_XDMA) */
enum ksim_xdma_trace {
	KSIM_XT_RUN,		/* v first descriptor, a adjacent */
	KSIM_XT_DESC,		/* v card address, b completed before, a len, e cycles */
	KSIM_XT_STOP,		/* a status, b completed */
	KSIM_XT_WEDGE,		/* a status, v card address */
	KSIM_XT_IRQ,		/* a vector, e 1: not delivered */
};

/* Report ev to the watcher; only while x->obs is set (test it first). */
static inline void ksim_xdma_note(struct ksim_xdma *x,
				  const struct ksim_xdma_event *ev)
{
	x->obs->ops->event(x->obs, ev);
}

/* ---- the IRQ block (irq.c) ---- */
/* its register table; the device is the struct ksim_xdma */
extern const struct ksim_regs ksim_xdma_irq_regs;
/* a channel's status, mask or an enable changed: deliver what rose */
void ksim_xdma_irq_eval(struct ksim_xdma *x);
/* user interrupt n's level (a struct ksim_irq_pin's handler; n is 0) */
void ksim_xdma_usr_irq(void *opaque, unsigned int n, bool level);

#endif /* KSIM_XDMA_H */
