// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card's interrupts (docs/model.md "The IRQ addon", "XDMA"): the one
 * line of the IRQ addon, the OR over meshes of each orchestrator's
 * IRQ_STAT & IRQ_EN, and the host's handles on it and on the XDMA
 * engine's MSI-X messages.
 *
 * Each mesh's orchestrator drives a pin into the card, input n for mesh n
 * (card/card.c wires them); the card keeps their levels and, when the OR
 * changes, counts a rise, tells the host's callback and drives its own
 * pin into the XDMA engine's user interrupt 0 (usr_irq_req[0]).
 */
#include "card.h"
#include "xdma.h"

void ksim_card_irq_in(void *opaque, unsigned int mesh, bool level)
{
	struct ksim_card *card = opaque;
	bool line;

	if (level)
		card->irq_in |= 1u << mesh;
	else
		card->irq_in &= ~(1u << mesh);
	line = card->irq_in != 0;
	if (line == card->irq_line)
		return;
	card->irq_line = line;
	if (line) {
		card->irq_rises++;
		if (card->irq_fn)
			card->irq_fn(card->irq_ctx);
	}
	/* the line is the XDMA user interrupt 0 */
	ksim_irq_set(&card->irq_out, line);
}

bool ksim_irq_line(const struct ksim_card *card)
{
	return card->irq_line;
}

void ksim_set_irq_callback(struct ksim_card *card, ksim_irq_fn fn,
			   void *ctx)
{
	card->irq_fn = fn;
	card->irq_ctx = ctx;
}

void ksim_set_msi(struct ksim_card *card, unsigned int n_vectors,
		  ksim_msi_fn fn, void *arg)
{
	struct ksim_xdma *x = card->xdma;

	x->n_vectors = n_vectors;
	x->msi = fn;
	x->msi_arg = arg;
}
