/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * An interrupt pin, as QEMU's qemu_irq: a part that drives a level is
 * given a pin when the card builds it and sets its level there; whoever
 * wired the pin (the card) decides what the level reaches.  So a part
 * never names what it interrupts: the orchestrator's addon line goes into
 * the card's line (card/irq.c), which goes into the XDMA engine's user
 * interrupt 0 (xdma/irq.c), each through a pin.
 */
#ifndef KSIM_IRQ_H
#define KSIM_IRQ_H

#include "ksim_plat.h"

struct ksim_irq_pin {
	/* the receiver's input n took this level; NULL: not connected */
	void (*set)(void *opaque, unsigned int n, bool level);
	void *opaque;
	unsigned int n;
};

/* Drive the pin's level (the receiver sees every call; a part calls on change). */
static inline void ksim_irq_set(const struct ksim_irq_pin *pin, bool level)
{
	if (pin->set)
		pin->set(pin->opaque, pin->n, level);
}

#endif /* KSIM_IRQ_H */
