/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The card: up to four meshes on one scheduler, the XDMA engine, the
 * per-mesh clock wizards and DDR controllers, the observers, and the
 * host's view.  Only card/ includes this header: every other part is
 * given what it needs of the card when the card builds it (card/card.c).
 */
#ifndef KSIM_CARD_H
#define KSIM_CARD_H

#include "ksim_int.h"
#include "clkwiz.h"
#include "xdma.h"
#include "mesh.h"
#include "obs.h"
#include "params.h"
#include "sched.h"
#include <kohaku/kh_regs.h>

#define KSIM_CLOCK_MHZ	300
#define KSIM_LOG_BUDGET	200		/* diagnostics per card */

struct ksim_card {
	struct ksim_params p;		/* the card-wide parameters */
	struct ksim_sched sched;
	unsigned int n_mesh;
	struct ksim_mesh *mesh[KH_MAX_MESHES];
	u32 clock_mhz;
	struct ksim_timing timing;
	struct ksim_clkwiz clkwiz[KH_MAX_MESHES];
	struct ksim_ddrc ddrc[KH_MAX_MESHES];
	/* the XDMA user interrupt: OR over meshes of IRQ_STAT & IRQ_EN */
	u32 irq_in;			/* bit n: mesh n's level (card/irq.c) */
	bool irq_line;
	struct ksim_irq_pin irq_out;	/* the line, into the XDMA engine */
	ksim_irq_fn irq_fn;
	void *irq_ctx;
	u64 irq_rises;
	struct ksim_log log;		/* diagnostics, KSIM_LOG_BUDGET lines */
	/* the observers (obs/obs.h): their hub, and each of them */
	struct ksim_obs *obs;
	struct ksim_check *chk;
	struct ksim_injector *inj;
	struct ksim_trace *tr;
	struct ksim_xdma *xdma;		/* the DMA engine, BAR1 (xdma/xdma.h) */
	struct ksim_cardbus bus;		/* what it reaches (card/cardbus.c) */
	/* what the host asked of the card: its cost, counted */
	u64 host_reads, host_writes, host_dmas, host_dma_bytes;
};

/* Present meshes only. */
struct ksim_mesh *ksim_card_mesh(struct ksim_card *c, unsigned int n);
struct ksim_desc;
/* The description's inject/check/trace lines, once built (card/knobs.c). */
int ksim_card_command_lines(struct ksim_card *card, const struct ksim_desc *d,
			    char *err, size_t errlen);
/* Mesh n's IRQ addon level (a struct ksim_irq_pin's handler, card/irq.c). */
void ksim_card_irq_in(void *opaque, unsigned int mesh, bool level);
/*
 * For a trace line, the register(s) a host access of BAR bar reaches:
 * "orch PROG_KICK", "orch PROG_STAT.hi" (a 32-bit half), "clkwiz
 * SW_RST+STATUS" (a 64-bit access of two), "xdma h2c0 STATUS_RC", or the
 * offset in hex ("none 0x400000": nothing decodes it).  As snprintf.
 */
int ksim_bar_reg_name(unsigned int bar, u32 off, bool wide, char *b, size_t n);

#endif /* KSIM_CARD_H */
