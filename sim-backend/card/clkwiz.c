// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The clock wizard of one mesh (PG065 registers, kohakutpu.md §8.5) and the
 * mesh reset its lock drives (§12.4).
 *
 * The registers 0x200-0x258 (CLKCFG0/1, then divide, phase and duty per
 * CLKOUTn) hold a configuration that takes effect only on LOAD: 0x3 (SEN
 * with SADDR) applies the registers, 0x1 the built configuration.  A LOAD
 * that changes the running configuration, and any SW_RST write of 0xA
 * (which also returns the registers to the built values), drop `locked`
 * for KH_CLK_LOCK_CYCLES; the mesh's proc_sys_reset holds resetn low
 * while unlocked and releases it KH_RST_RELEASE_CYCLES after relock.
 * Duty registers read back 0 and ignore a write of 0, as on the IP.  The
 * model does not slow the mesh down: it runs at 300 MHz whatever the
 * dividers say.
 */
#include "clkwiz.h"
#include "card.h"
#include "reset.h"

static bool ksim_clk_is_duty(u32 off)
{
	return off >= KH_CLK_DUTY(0) && off <= KH_CLK_DUTY(KH_CLK_OUTPUTS - 1) &&
	       (off - KH_CLK_DUTY(0)) % 0x0c == 0;
}

static bool ksim_clk_is_cfg(u32 off)
{
	return off >= KH_CLK_CFG0 && off < KH_CLK_LOAD;
}

/* The built configuration: 300/600/300/300 MHz, 50 % duty. */
static void ksim_clk_built(u32 *cfg)
{
	unsigned int n;
	static const u8 div[KH_CLK_OUTPUTS] = { 4, 2, 4, 4, 1, 1, 1 };

	memset(cfg, 0, sizeof(u32) * KSIM_CLKWIZ_CFG);
	cfg[0] = KH_CLK_CFG0_BUILT;
	for (n = 0; n < KH_CLK_OUTPUTS; n++) {
		cfg[(KH_CLK_DIV(n) - KH_CLK_CFG0) / 4] = div[n];
		cfg[(KH_CLK_DUTY(n) - KH_CLK_CFG0) / 4] = KH_CLK_DUTY_50;
	}
}

void ksim_clkwiz_init(struct ksim_clkwiz *w)
{
	memset(w, 0, sizeof(*w));
	ksim_clk_built(&w->reg[KH_CLK_CFG0 / 4]);
	ksim_clk_built(w->run);
}

static bool ksim_clkwiz_locked(const struct ksim_card *c, unsigned int mesh)
{
	return c->sched.now >= c->clkwiz[mesh].lock_at;
}

u32 ksim_clkwiz_read(struct ksim_card *c, unsigned int mesh, u32 off)
{
	const struct ksim_clkwiz *w = &c->clkwiz[mesh];

	if (off == KH_CLK_STATUS)
		return ksim_clkwiz_locked(c, mesh) ? KH_CLK_LOCKED : 0;
	if (off == KH_CLK_SW_RST || off == KH_CLK_LOAD || ksim_clk_is_duty(off))
		return 0;	/* duty reads back 0 (PG065) */
	if (off / 4 >= KSIM_CLKWIZ_REGS)
		return 0;
	return w->reg[off / 4];
}

/* Lose lock now: the mesh is held in reset until it relocks. */
static void ksim_clkwiz_unlock(struct ksim_card *c, unsigned int mesh)
{
	struct ksim_clkwiz *w = &c->clkwiz[mesh];
	u64 now = c->sched.now;

	w->lock_at = now + KH_CLK_LOCK_CYCLES;
	w->relocks++;
	ksim_mesh_reset_hold(c->mesh[mesh], w->lock_at + KH_RST_RELEASE_CYCLES);
	ksim_mesh_log(c->mesh[mesh],
		    "clock wizard: lock lost at cycle %llu, mesh in reset until %llu",
		    now, w->lock_at + KH_RST_RELEASE_CYCLES);
}

void ksim_clkwiz_write(struct ksim_card *c, unsigned int mesh, u32 off,
		     u32 v)
{
	struct ksim_clkwiz *w = &c->clkwiz[mesh];
	u32 next[KSIM_CLKWIZ_CFG];

	switch (off) {
	case KH_CLK_STATUS:
		return;		/* read only */
	case KH_CLK_SW_RST:
		if (v != KH_CLK_SW_RST_KEY)
			return;
		ksim_clk_built(&w->reg[KH_CLK_CFG0 / 4]);
		ksim_clk_built(w->run);
		ksim_clkwiz_unlock(c, mesh);
		return;
	case KH_CLK_LOAD:
		if (!(v & KH_CLK_LOAD_SEN))
			return;
		if (v & KH_CLK_LOAD_SADDR)
			memcpy(next, &w->reg[KH_CLK_CFG0 / 4], sizeof(next));
		else
			ksim_clk_built(next);
		if (!memcmp(next, w->run, sizeof(next)))
			return;	/* nothing changed: the MMCM keeps lock */
		memcpy(w->run, next, sizeof(next));
		ksim_clkwiz_unlock(c, mesh);
		return;
	}
	if (ksim_clk_is_duty(off) && !v)
		return;		/* the IP rejects a duty of 0 */
	if (ksim_clk_is_cfg(off) || off / 4 < KSIM_CLKWIZ_REGS)
		w->reg[off / 4] = v;
}
