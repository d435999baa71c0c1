/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The card side of host DMA: what XDMA's M_AXI reaches on the card bus,
 * the mesh memory windows at KH_CARD_ADDR() (kohakutpu.md 8.3) and MAG's
 * host window behind them (5.8).  The card gives the XDMA engine the card
 * bus as a handle (struct ksim_cardbus, xdma/xdma.h, where what an access
 * answers is listed); the model-only bulk copy of ksim.h
 * (ksim_dma_write()/ksim_dma_read()) goes the same way.
 *
 * Writes are whole 32-byte words: the bytes of a partly covered word
 * outside the range are written as zero (the host path forces every
 * strobe on).
 */
#ifndef KSIM_CARDBUS_H
#define KSIM_CARDBUS_H

#include "xdma.h"

/* The card bus's ops; their context is the card. */
extern const struct ksim_cardbus_ops ksim_cardbus_ops;

#endif /* KSIM_CARDBUS_H */
