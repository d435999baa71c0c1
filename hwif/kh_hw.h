/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The register-access seam: the one interface between a card and the driver
 * core.  A host fills a struct kh_hw for each card it offers: kohaku.ko's PCI
 * binding with MMIO on the card's BARs (the control space and the XDMA
 * engine's registers) and its MSI-X vectors, the device model's adapter
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
 * @read64: read the 64-bit register at byte @offset (8-aligned) of BAR0,
 *	the AXI-Lite control space, in one access.  NULL on a host with
 *	KH_HW_CTRL32, which has no such access.
 * @write64: write @value to the 64-bit BAR0 register at byte @offset, in
 *	one access; NULL with KH_HW_CTRL32.
 * @bar_read32: read the 32-bit register at byte @offset (4-aligned) of BAR
 *	@bar (< KH_HW_MAX_BARS, with a nonzero &kh_hw.bar_size): the XDMA
 *	register space is one of them, found by its identifiers; with
 *	KH_HW_CTRL32 BAR0 too, the control space, each access one beat on
 *	the orchestrator's bus (docs/spec/xdma.md "BAR0 in 32 bits").
 * @bar_write32: write @value there.
 * @now_ns: device time in nanoseconds: wall time on a card, simulated time
 *	on the model.  Every device timeout of the core is measured with it.
 * @idle_ns: optional.  The core has nothing to ask the card for @ns of device
 *	time (only waiters with a deadline are left, or a DMA is in flight).
 *	The model runs itself forward by that much, as a card runs while its
 *	host sleeps, or less when it interrupts the host first (the host
 *	would wake then); NULL on a card, where the core simply sleeps.
 * @irq_attach: optional: how a host that delivers the card's interrupts by
 *	calling (a simulated card) learns whom to call.  Its host (kohaku.ko's
 *	platform binding, the in-process backend) registers @fn(@arg, vector)
 *	before the core enables any interrupt, NULL to detach; vector is the
 *	number the driver programmed into the card's XDMA IRQ block.  The card
 *	calls @fn with its own lock held: @fn must not call back into the ops,
 *	sleep, or take a lock the ops take.  A PCI card's interrupts are MSI-X
 *	vectors its binding requests itself, so this is NULL there.
 *
 * Every op may be called from any thread and with the core's locks held; a
 * host serialises its own access to the card inside the ops.
 *
 * Host memory for the card's DMA engine is named by bus addresses (what
 * the host's DMA mapping gives, dma_addr_t): the card reaches it by itself,
 * as a card does through PCIe; a simulated card through its host's memory
 * callbacks (sim-backend/ksim.h), never through this table.
 */
struct kh_hw_ops {
	__u64 (*read64)(void *ctx, __u32 offset);
	void (*write64)(void *ctx, __u32 offset, __u64 value);
	__u32 (*bar_read32)(void *ctx, unsigned int bar, __u32 offset);
	void (*bar_write32)(void *ctx, unsigned int bar, __u32 offset, __u32 value);
	__u64 (*now_ns)(void *ctx);
	void (*idle_ns)(void *ctx, __u64 ns);
	void (*irq_attach)(void *ctx, void (*fn)(void *arg, unsigned int vector),
			   void *arg);
};

/* struct kh_hw.flags */
/**
 * KH_HW_SIMULATED - the card is the device model
 *
 * Time passes on it only when it is accessed.
 */
#define KH_HW_SIMULATED		(1u << 0)
/**
 * KH_HW_CTRL32 - the control space is reached in 32-bit accesses only
 *
 * As on a card: the host's only path to BAR0 is the XDMA's AXI-Lite
 * master, 32 bits wide, then a 32-bit station port and a 32-to-64 width
 * converter in front of the orchestrator's 64-bit slave (kohakutpu.md 8.2,
 * 8.3).  The orchestrator takes each access as one beat at the address
 * given: a named register ignores a write at +4 and reads 0 there, TX_FLIT
 * takes the byte enables, a STAGE word is overwritten whole, RX_FLIT and
 * NODE_STATUS read in halves (docs/spec/xdma.md "BAR0 in 32 bits").  The
 * core then uses @bar_read32/@bar_write32 on BAR 0 alone (@read64 and
 * @write64 may be NULL): it reads the halves a register has, writes only
 * registers whose fields fit in 32 bits, composes flits half by half, and
 * sends instructions through the mailbox with flow control of its own,
 * because the staging RAM cannot be loaded this way (docs/driver-core.md
 * "A control path of 32 bits").  kohaku.ko's PCI binding sets it; the
 * simulated hosts offer it as an option.
 */
#define KH_HW_CTRL32		(1u << 1)

/* the most meshes a card has (uapi KH_MAX_MESHES) */
#define KH_HW_MAX_MESHES	4
/* PCI BARs */
#define KH_HW_MAX_BARS		6

/**
 * struct kh_hw - one card as a host offers it to the driver core
 * @ops: the access functions.
 * @ctx: passed to every op.
 * @flags: KH_HW_*.
 * @mesh_mem_size: DRAM per mesh in bytes; 0 means the card's
 *	KH_MESH_DRAM_SIZE.
 * @bar_size: bytes of each BAR, 0 when absent; BAR0 is the control space.
 * @n_irqs: interrupt vectors the host delivers (kh_device_irq()); 0: the
 *	core polls for everything.
 */
struct kh_hw {
	const struct kh_hw_ops *ops;
	void *ctx;
	__u32 flags;
	__u64 mesh_mem_size[KH_HW_MAX_MESHES];
	__u32 bar_size[KH_HW_MAX_BARS];
	unsigned int n_irqs;
};

#endif /* KH_HW_H */
