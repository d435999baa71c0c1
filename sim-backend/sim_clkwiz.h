/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The per-mesh BAR0 windows beside the mesh control window: the clock
 * wizard (PG065; its lock drives the mesh's resetn) and the DDR
 * controller's control/ECC registers.  Both are 32-bit register files;
 * BAR0's 64-bit accesses reach two registers at once (sim_bar.c).
 */
#ifndef KH_SIM_CLKWIZ_H
#define KH_SIM_CLKWIZ_H

#include "kh_plat.h"
#include <kohaku/kh_regs.h>

struct kh_sim_card;

#define KH_CLKWIZ_REGS		(0x800 / 4)	/* stored clock-wizard space */
/* the reconfiguration registers 0x200-0x258: CFG0/1, then per output */
#define KH_CLKWIZ_CFG		((KH_CLK_LOAD - KH_CLK_CFG0) / 4)

struct kh_clkwiz {
	u32 reg[KH_CLKWIZ_REGS];	/* what the registers hold */
	u32 run[KH_CLKWIZ_CFG];		/* the configuration the MMCM runs */
	u64 lock_at;			/* locked from this cycle on */
	u32 relocks;			/* lock drops */
};

void kh_clkwiz_init(struct kh_clkwiz *w);
u32 kh_clkwiz_read(struct kh_sim_card *c, unsigned int mesh, u32 off);
void kh_clkwiz_write(struct kh_sim_card *c, unsigned int mesh, u32 off,
		     u32 v);
bool kh_clkwiz_locked(const struct kh_sim_card *c, unsigned int mesh);

/* The DDR controller window: a MIG-style control/ECC register set. */
struct kh_ddrc {
	u32 ecc_en_irq;
	u32 ecc_onoff;
	u32 ce_cnt;
};

void kh_ddrc_init(struct kh_ddrc *d);
u32 kh_ddrc_read(const struct kh_ddrc *d, u32 off);
void kh_ddrc_write(struct kh_ddrc *d, u32 off, u32 v);

#endif /* KH_SIM_CLKWIZ_H */
