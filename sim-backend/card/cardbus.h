/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The card side of host DMA: what XDMA's M_AXI reaches on the card bus,
 * the mesh memory windows at KH_CARD_ADDR() (kohakutpu.md 8.3) and MAG's
 * host window behind them (5.8).  The XDMA engine (xdma/engine.c) moves
 * every descriptor's data through these, and so does the model-only bulk
 * copy of ksim.h (ksim_dma_write()/ksim_dma_read(), TRANSITION).
 *
 * Writes are whole 32-byte words: the bytes of a partly covered word
 * outside the range are written as zero (the host path forces every
 * strobe on).  What an access answers:
 *
 *   0          done
 *   -ENXIO     no window of the card bus decodes the address: the
 *              interconnect answers DECERR
 *   -EINVAL    a mesh window decodes it but nothing behind answers ([37:36]
 *              naming another mesh, [38], past the DRAM): the access hangs
 *   -EAGAIN    MAG's host window is held in reset with its mesh: the
 *              access waits for the release (ksim_dma_release())
 *   -EIO       that XDMA direction hangs in MAG (an aperture nothing
 *              serves, a quantising upload cut mid-entry, or an earlier
 *              such hang), until the hung mesh is reset
 *   -ENOMEM    the model could not allocate a DRAM page
 */
#ifndef KSIM_DMA_H
#define KSIM_DMA_H

#include "ksim_plat.h"

struct ksim_card;

/*
 * What an access of len bytes at addr would answer before it moves
 * anything: 0, or the errno above (-EIO only for an earlier hang).
 */
int ksim_dma_card_probe(struct ksim_card *c, u64 addr, size_t len, bool write);
/* An H2C write to / a C2H read from the card bus at addr. */
int ksim_dma_card_write(struct ksim_card *c, u64 addr, const void *buf,
			size_t len);
int ksim_dma_card_read(struct ksim_card *c, u64 addr, void *buf, size_t len);
/* The cycle a window held in reset (-EAGAIN at addr) is released. */
u64 ksim_dma_release(struct ksim_card *c, u64 addr);

#endif /* KSIM_DMA_H */
