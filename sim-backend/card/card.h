/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The card: up to four meshes on one scheduler, and the host's view. */
#ifndef KSIM_CARD_H
#define KSIM_CARD_H

#include "ksim_int.h"
#include "clkwiz.h"
#include "mesh.h"
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
	struct ksim_node rst_node;	/* wakes the card when a reset ends */
	/* ksim_run_until_irq(): an MSI-X message stops the run */
	bool stop_on_irq;
	/* the XDMA user interrupt: OR over meshes of IRQ_STAT & IRQ_EN */
	bool irq_line;
	ksim_irq_fn irq_fn;
	void *irq_ctx;
	u64 irq_rises;
	u32 log_left;
	struct ksim_obs *obs;		/* checker, knobs, trace (obs/obs.h) */
	struct ksim_xdma *xdma;		/* the DMA engine, BAR1 (xdma/xdma.h) */
	/* what the host asked of the card: its cost, counted */
	u64 host_reads, host_writes, host_dmas, host_dma_bytes;
};

struct ksim_sched *ksim_card_sched(struct ksim_card *c);
/* Present meshes only. */
struct ksim_mesh *ksim_card_mesh(struct ksim_card *c, unsigned int n);
/* A mesh's reset window changed: be stepped when the next one ends. */
void ksim_card_rst_timer(struct ksim_card *c);
/*
 * For a trace line, the register(s) a host access of BAR bar reaches:
 * "orch PROG_KICK", "orch PROG_STAT.hi" (a 32-bit half), "clkwiz
 * SW_RST+STATUS" (a 64-bit access of two), "xdma h2c0 STATUS_RC", or the
 * offset in hex ("none 0x400000": nothing decodes it).  As snprintf.
 */
int ksim_bar_reg_name(unsigned int bar, u32 off, bool wide, char *b, size_t n);

#endif /* KSIM_CARD_H */
