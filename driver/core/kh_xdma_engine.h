/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The card's XDMA engine as the driver core drives it (kh_xdma.c) and
 * the data path built on it (kh_dma.c).  The engine's registers and
 * descriptors, the contract, are uapi/kohaku/kh_xdma.h; docs/spec/xdma.md.
 */
#ifndef KH_XDMA_ENGINE_H
#define KH_XDMA_ENGINE_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "kh_os.h"
#include "kohaku/kh_xdma.h"

struct kh_device;

/* descriptors one transfer may use: a 4 MiB chunk of pages, its bounces */
#define KH_XDMA_RING_DESCS	4096
/* bounce lines per transfer: 32 bytes each */
#define KH_XDMA_BOUNCE_LINES	2048

/**
 * struct kh_xdma_seg - one piece of a transfer
 * @host: the host bus address.
 * @card: the card address.
 * @len: bytes, at most KH_XDMA_DESC_LEN_MAX.
 */
struct kh_xdma_seg {
	u64 host;
	u64 card;
	u32 len;
};

/**
 * struct kh_xdma_chan - one channel: H2C (to the card) or C2H
 * @name: "H2C" or "C2H", for messages.
 * @present: its identifier answered at bring-up.
 * @to_card: H2C.
 * @regs: the channel block's offset in the XDMA BAR.
 * @sg: its SGDMA block's.
 * @irq_bit: its bit in the IRQ block's channel registers.
 * @vector: the interrupt vector it was given.
 * @lock: one transfer at a time.
 * @ring: the descriptor ring, KH_XDMA_RING_DESCS of them.
 * @wb: the poll-mode write-back word (and a spare line).
 * @bounce: KH_XDMA_BOUNCE_LINES bounce lines.
 * @irqs: interrupts taken (set from the interrupt handler).
 * @bytes: bytes moved since bring-up.
 * @errors: transfers that failed.
 * @wedged: the channel stopped answering; every transfer fails with EIO.
 */
struct kh_xdma_chan {
	const char *name;
	bool present;
	bool to_card;
	u32 regs, sg;
	u32 irq_bit;
	unsigned int vector;
	struct mutex lock;
	struct kh_dma_mem ring, wb, bounce;
	u32 irqs;
	u64 bytes;
	u32 errors;
	bool wedged;
};

/**
 * struct kh_xdma - the engine of one card
 * @bar: its BAR, or -1 when the card has none (no host DMA path).
 * @version: the IP version byte of its identifiers.
 * @addr_align: host addresses a descriptor may name, a multiple of this.
 * @irq_on: interrupts are wired and enabled (else everything polls).
 * @user_vector: the vector of the card's user interrupt.
 * @irqs: interrupts taken, every vector.
 * @user_irqs: user interrupts taken.
 * @h2c: the channel to the card.
 * @c2h: the channel from it.
 * @wq: woken by a channel interrupt.
 */
struct kh_xdma {
	int bar;
	u8 version;
	u32 addr_align;
	bool irq_on;
	unsigned int user_vector;
	u32 irqs;
	u32 user_irqs;
	struct kh_xdma_chan h2c, c2h;
	wait_queue_head_t wq;
};

/* kh_xdma.c */
int kh_xdma_probe(struct kh_device *kd);
void kh_xdma_fini(struct kh_device *kd);
bool kh_xdma_usable(struct kh_device *kd);
/* Move the pieces (all one direction, the channel's); 0 or -EIO/-ETIMEDOUT. */
int kh_xdma_run(struct kh_device *kd, struct kh_xdma_chan *ch,
		const struct kh_xdma_seg *segs, unsigned int n);
void kh_xdma_irq(struct kh_device *kd, unsigned int vector);
int kh_xdma_irq_enable(struct kh_device *kd);
void kh_xdma_user_enable(struct kh_device *kd);
u64 kh_xdma_param(struct kh_device *kd, u32 param);

/* kh_dma.c: the data path of BOs and of the core's own buffers */
int kh_dma_user(struct kh_device *kd, u64 card, void __user *p, size_t len,
		bool to_card);
int kh_dma_kernel(struct kh_device *kd, u64 card, void *buf, size_t len,
		  bool to_card);
int kh_dma_zero(struct kh_device *kd, u64 card, u64 len);

#endif /* KH_XDMA_ENGINE_H */
