/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The register-access ops table: the one seam between driver/core and a
 * card.  A PCI card fills it with BAR0 MMIO and the XDMA engine; a simulated
 * card (kohaku_sim.ko, or libkohaku's in-process sim backend) fills it with
 * the device model's entry points.  The core never learns which it has,
 * except through the flags below.
 */
#ifndef KH_HW_H
#define KH_HW_H

#include "kh_os.h"

struct kh_hw_ops {
	/* BAR0 access at a byte offset, 8-aligned */
	u64 (*read64)(void *ctx, u32 offset);
	void (*write64)(void *ctx, u32 offset, u64 value);
	/*
	 * Host DMA to/from a card bus address (KH_CARD_ADDR).  Whole 32-byte
	 * words only: addr and len are multiples of KH_HOST_GRANULE.  Return 0
	 * or a negative errno (-EOPNOTSUPP when the card has no DMA path yet).
	 */
	int (*dma_write)(void *ctx, u64 card_addr, const void *buf, size_t len);
	int (*dma_read)(void *ctx, u64 card_addr, void *buf, size_t len);
	/*
	 * Device time in nanoseconds: wall time on a card, simulated time on
	 * the model.  Every device timeout in the core is measured with it.
	 */
	u64 (*now_ns)(void *ctx);
};

/* kh_hw.flags */
#define KH_HW_SIMULATED		(1u << 0)	/* time passes only with accesses */
#define KH_HW_IRQ		(1u << 1)	/* the host delivers IRQ_STAT events */

struct kh_hw {
	const struct kh_hw_ops *ops;
	void *ctx;
	u32 flags;
	/* DRAM per mesh in bytes; 0 means the card's KH_MESH_DRAM_SIZE */
	u64 mesh_mem_size[4];
};

#endif /* KH_HW_H */
