/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The register-access seam: the one interface between a card and the driver
 * core.  A host fills a struct kh_hw for each card it offers: kohaku.ko's PCI
 * binding with BAR0 MMIO and the XDMA engine, the device model's adapter
 * (sim-backend/ksim_hw.c, used by kohaku_sim.ko and by libkohaku's
 * in-process backend) with the model's entry points.  driver/core includes
 * this header and nothing of the model; the model includes it and nothing of
 * driver/core.  It depends on no header of either side.
 */
#ifndef KH_HW_H
#define KH_HW_H

#include <linux/types.h>
#ifndef __KERNEL__
#include <stddef.h>
#endif

/**
 * struct kh_hw_ops - how the driver core reaches one card
 * @read64: read the 64-bit BAR0 register at byte @offset (8-aligned).
 * @write64: write @value to the 64-bit BAR0 register at byte @offset.
 * @dma_write: host DMA of @len bytes at @buf to card bus address @card_addr
 *	(KH_CARD_ADDR of uapi/kohaku/kh_regs.h).  Whole 32-byte words only:
 *	@card_addr and @len are multiples of KH_HOST_GRANULE.  Returns 0 or a
 *	negative errno.  NULL when the card has no host DMA path.
 * @dma_read: the other direction, with the same rules as @dma_write.
 * @now_ns: device time in nanoseconds: wall time on a card, simulated time
 *	on the model.  Every device timeout of the core is measured with it.
 * @idle_ns: optional.  The core has nothing to ask the card for @ns of device
 *	time (only waiters with a deadline are left).  The model runs itself
 *	forward by that much, as a card runs while its host sleeps; NULL on a
 *	card, where the core simply sleeps.
 *
 * Every op may be called from any thread and with the core's locks held; a
 * host serialises its own access to the card inside the ops.
 */
struct kh_hw_ops {
	__u64 (*read64)(void *ctx, __u32 offset);
	void (*write64)(void *ctx, __u32 offset, __u64 value);
	int (*dma_write)(void *ctx, __u64 card_addr, const void *buf, size_t len);
	int (*dma_read)(void *ctx, __u64 card_addr, void *buf, size_t len);
	__u64 (*now_ns)(void *ctx);
	void (*idle_ns)(void *ctx, __u64 ns);
};

/* struct kh_hw.flags */
/**
 * KH_HW_SIMULATED - the card is the device model
 *
 * Time passes on it only when it is accessed.
 */
#define KH_HW_SIMULATED		(1u << 0)

/* the most meshes a card has (uapi KH_MAX_MESHES) */
#define KH_HW_MAX_MESHES	4

/**
 * struct kh_hw - one card as a host offers it to the driver core
 * @ops: the access functions.
 * @ctx: passed to every op.
 * @flags: KH_HW_*.
 * @mesh_mem_size: DRAM per mesh in bytes; 0 means the card's
 *	KH_MESH_DRAM_SIZE.
 */
struct kh_hw {
	const struct kh_hw_ops *ops;
	void *ctx;
	__u32 flags;
	__u64 mesh_mem_size[KH_HW_MAX_MESHES];
};

#endif /* KH_HW_H */
