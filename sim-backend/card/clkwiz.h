/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The per-mesh BAR0 windows beside the mesh control window: the clock
 * wizard (PG065; its lock drives the mesh's resetn) and the DDR
 * controller's control/ECC registers.  Both are 32-bit register files;
 * BAR0's 64-bit accesses reach two registers at once (card/bar.c), except
 * a write to the wizard, which takes single 32-bit beats.
 */
#ifndef KSIM_CLKWIZ_H
#define KSIM_CLKWIZ_H

#include "ksim_plat.h"
#include "regs.h"
#include <kohaku/kh_regs.h>

struct ksim_card;

#define KSIM_CLKWIZ_REGS		(0x800 / 4)	/* stored clock-wizard space */
/* the reconfiguration registers 0x200-0x258: CFG0/1, then per output */
#define KSIM_CLKWIZ_CFG		((KH_CLK_LOAD - KH_CLK_CFG0) / 4)

struct ksim_clkwiz {
	struct ksim_card *card;		/* the card, and the mesh it clocks */
	unsigned int mesh;
	u32 reg[KSIM_CLKWIZ_REGS];	/* what the registers hold */
	u32 run[KSIM_CLKWIZ_CFG];		/* the configuration the MMCM runs */
	u64 lock_at;			/* locked from this cycle on */
	u32 relocks;			/* lock drops */
};

void ksim_clkwiz_init(struct ksim_clkwiz *w, struct ksim_card *card,
		      unsigned int mesh);
u32 ksim_clkwiz_read(struct ksim_card *c, unsigned int mesh, u32 off);
void ksim_clkwiz_write(struct ksim_card *c, unsigned int mesh, u32 off,
		     u32 v);
/* a 64-bit host write at off, refused (the wizard takes 32-bit beats) */
void ksim_clkwiz_wide_write(struct ksim_card *c, unsigned int mesh, u32 off);
/* the register table; the device is the struct ksim_clkwiz */
extern const struct ksim_regs ksim_clkwiz_regs;

/* The DDR controller window: a MIG-style control/ECC register set. */
struct ksim_ddrc {
	u32 ecc_en_irq;
	u32 ecc_onoff;
	u32 ce_cnt;
};

void ksim_ddrc_init(struct ksim_ddrc *d);
u32 ksim_ddrc_read(struct ksim_ddrc *d, u32 off);
void ksim_ddrc_write(struct ksim_ddrc *d, u32 off, u32 v);
/* the register table; the device is the struct ksim_ddrc */
extern const struct ksim_regs ksim_ddrc_regs;

#endif /* KSIM_CLKWIZ_H */
