/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the card's XDMA function needs of its host: host memory, where its
 * descriptors and data are, and a handler for its MSI-X messages.  The
 * host gives them to the card (ksim.h: ksim_set_host_ops(), ksim_set_msi()),
 * which passes them to the engine (xdma/), their only user.  The types
 * live here, on the engine's floor, so the engine need not see the card's
 * faces; ksim.h includes this header, so a host still needs ksim.h alone.
 */
#ifndef KSIM_HOST_H
#define KSIM_HOST_H

#include "ksim_plat.h"

/**
 * struct ksim_host_ops - how a simulated card reaches host memory
 * @mem_read: copy @n bytes at the host bus address @bus (what the host's
 *	DMA mapping gave the driver) to @dst.  Return 0, or a negative errno
 *	for an address that is not host memory the card may reach: the
 *	engine then logs the error a card would (docs/spec/xdma.md).
 * @mem_write: copy @n bytes from @src to the host bus address @bus; 0 or a
 *	negative errno as @mem_read.
 * @mem_map: optional: the host's own pointer to the @n bytes at @bus when
 *	they are one contiguous piece of its memory, so the engine moves data
 *	between them and mesh memory in one copy instead of two; NULL when
 *	they are not (the engine then uses @mem_read/@mem_write, which also
 *	say why).  What the card sees is the same either way.
 *
 * The card's DMA engine calls them from inside its stepping, with the
 * host's lock on the card held (ksim_hw.c): they must not call back into
 * the model.  @n is at most 64 KiB; a range may cross pages.
 */
struct ksim_host_ops {
	int (*mem_read)(void *ctx, u64 bus, void *dst, size_t n);
	int (*mem_write)(void *ctx, u64 bus, const void *src, size_t n);
	void *(*mem_map)(void *ctx, u64 bus, size_t n);
};

/**
 * typedef ksim_msi_fn - an MSI-X message of the card's XDMA function
 * @arg: what the host registered with ksim_set_msi().
 * @vector: the vector number the driver programmed into the IRQ block.
 *
 * Called from inside stepping; it must not call back into the model.
 */
typedef void (*ksim_msi_fn)(void *arg, unsigned int vector);

#endif /* KSIM_HOST_H */
