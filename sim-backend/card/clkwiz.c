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
 * registers are a table (lib/regs.h), the rest of 0x000-0x7ff stored,
 * above it nothing.
 *
 * The mesh runs at what the MMCM runs: each of CLKOUT0-3 clocks one of the
 * mesh's clock domains (mesh.c) at its frequency over its built one, from
 * the reset the lock drop causes (reset.c).  The protocol checker reports
 * a driver that breaks the wizard's rules (docs/model.md "Mesh clocks"):
 * a 64-bit write (card/bar.c), a duty of 0, and a configuration LOAD
 * applies with a divide of 0, an output above its built frequency or the
 * VCO outside 600..1200 MHz.
 */
#include "clkwiz.h"
#include "card.h"
#include "checker.h"
#include "reset.h"
#include "util.h"

/* a wizard rule broken: the checker's to report, when it is on */
static void ksim_clkwiz_viol(struct ksim_clkwiz *w, const char *fmt, ...)
	__printf(2, 3);

static void ksim_clkwiz_viol(struct ksim_clkwiz *w, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (!w->card->chk || !ksim_check_on(w->card->chk))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksim_chk_clock(w->card->chk, w->mesh, msg);
}

void ksim_clkwiz_wide_write(struct ksim_card *c, unsigned int mesh, u32 off)
{
	ksim_clkwiz_viol(&c->clkwiz[mesh],
			 "a 64-bit write to the clock wizard at 0x%x: it takes single 32-bit beats; a read-merge-write faults the MMCM (kohakutpu.md 8.5)",
			 off);
}

/* an output's built frequency: 300 MHz, 600 for mat2x */
static u32 ksim_clk_built_mhz(unsigned int out)
{
	return KH_CLK_BUILT_MHZ(out);
}

/* the running configuration's word for register off */
static u32 ksim_clk_run(const struct ksim_clkwiz *w, u32 off)
{
	return w->run[(off - KH_CLK_CFG0) / 4];
}

/*
 * Output out's rate over its built clock, num/den = (100 M / D / div) /
 * built, checked; an output the MMCM cannot give as built (a divide of 0,
 * faster than built, where timing does not close) runs at the built rate.
 */
static void ksim_clk_rate(struct ksim_clkwiz *w, unsigned int out, u32 *num,
			  u32 *den)
{
	u32 cfg0 = ksim_clk_run(w, KH_CLK_CFG0);
	u32 m = KH_CLK_CFG0_MULT(cfg0), d = KH_CLK_CFG0_DIVCLK(cfg0);
	u32 div = KH_CLK_DIV_VALUE(ksim_clk_run(w, KH_CLK_DIV(out)));
	u32 built = ksim_clk_built_mhz(out);

	*num = *den = 1;
	if (!m || !d || !div) {
		ksim_clkwiz_viol(w, "CLKOUT%u: a divide of 0 (M %u, D %u, divide %u) loaded",
				 out, m, d, div);
		return;
	}
	if ((u64)KH_CLK_IN_MHZ * m > (u64)d * div * built) {
		ksim_clkwiz_viol(w, "CLKOUT%u: %u MHz loaded, above its built %u MHz (timing closes at the built clock): run at %u",
				 out, KH_CLK_IN_MHZ * m / (d * div), built, built);
		return;
	}
	*num = KH_CLK_IN_MHZ * m;
	*den = d * div * built;
}

/* The running configuration's rates, for the mesh's next reset. */
static void ksim_clk_apply(struct ksim_clkwiz *w)
{
	u32 cfg0 = ksim_clk_run(w, KH_CLK_CFG0);
	u32 m = KH_CLK_CFG0_MULT(cfg0), d = KH_CLK_CFG0_DIVCLK(cfg0);
	unsigned int o;
	u32 num, den;

	if (d && (KH_CLK_IN_MHZ * m < KH_CLK_VCO_MIN_MHZ * d ||
		  KH_CLK_IN_MHZ * m > KH_CLK_VCO_MAX_MHZ * d))
		ksim_clkwiz_viol(w, "the VCO at %u MHz (M %u, D %u), outside %u..%u MHz",
				 KH_CLK_IN_MHZ * m / d, m, d, KH_CLK_VCO_MIN_MHZ,
				 KH_CLK_VCO_MAX_MHZ);
	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++) {
		ksim_clk_rate(w, o, &num, &den);
		ksim_mesh_clk_set(w->card->mesh[w->mesh], o, num, den);
	}
}

static bool ksim_clkwiz_locked(const struct ksim_card *c, unsigned int mesh)
{
	return c->sched.now >= c->clkwiz[mesh].lock_at;
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

static void ksim_clk_built(u32 *cfg);

/* SW_RST: the key resets the MMCM and returns the registers to the built values */
static void ksim_clk_sw_rst(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_clkwiz *w = dev;

	if (v != KH_CLK_SW_RST_KEY)
		return;
	ksim_clk_built(&w->reg[KH_CLK_CFG0 / 4]);
	ksim_clk_built(w->run);
	ksim_clk_apply(w);
	ksim_clkwiz_unlock(w->card, w->mesh);
}

static u64 ksim_clk_status(void *dev, unsigned int i)
{
	const struct ksim_clkwiz *w = dev;

	return ksim_clkwiz_locked(w->card, w->mesh) ? KH_CLK_LOCKED : 0;
}

/* PG065 (kohakutpu.md §8.5): a duty register reads back 0 ... */
static u64 ksim_clk_duty_read(void *dev, unsigned int i)
{
	return 0;
}

/*
 * ... and the IP rejects a duty of 0: the register keeps its value.  A 0
 * is what a read-merge-write puts back (duty reads 0): reported.
 */
static u64 ksim_clk_duty_write(void *dev, unsigned int i, u64 old, u64 v)
{
	if (v)
		return v;
	ksim_clkwiz_viol(dev, "a duty register written 0 (a read-merge-write: duty reads back 0); kept %llu",
			 (unsigned long long)old);
	return old;
}

/* LOAD: SEN applies the registers (SADDR) or the built values */
static void ksim_clk_load(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_clkwiz *w = dev;
	u32 next[KSIM_CLKWIZ_CFG];

	if (!(v & KH_CLK_LOAD_SEN))
		return;
	if (v & KH_CLK_LOAD_SADDR)
		memcpy(next, &w->reg[KH_CLK_CFG0 / 4], sizeof(next));
	else
		ksim_clk_built(next);
	if (!memcmp(next, w->run, sizeof(next)))
		return;	/* nothing changed: the MMCM keeps lock */
	memcpy(w->run, next, sizeof(next));
	ksim_clk_apply(w);
	ksim_clkwiz_unlock(w->card, w->mesh);
}

/* the rest of 0x000-0x7ff holds what is written; above it, nothing */
static u64 ksim_clk_miss_read(void *dev, u32 off)
{
	const struct ksim_clkwiz *w = dev;

	return off / 4 < KSIM_CLKWIZ_REGS ? w->reg[off / 4] : 0;
}

static void ksim_clk_miss_write(void *dev, u32 off, u64 v)
{
	struct ksim_clkwiz *w = dev;

	if (off / 4 < KSIM_CLKWIZ_REGS)
		w->reg[off / 4] = (u32)v;
}

/* the storage of the register at off: its word of the register space */
#define KSIM_CLK_REG(off) \
	.data = offsetof(struct ksim_clkwiz, reg) + (off), .size = sizeof(u32)

/*
 * CLKOUTn: divide, phase and duty, reset to the built configuration
 * (divide div, phase 0, 50 % duty).
 */
#define KSIM_CLK_OUT(R, c, n, div)					\
	R(c, DIV##n, KH_CLK_DIV(n), 1, KSIM_CLK_REG(KH_CLK_DIV(n)),	\
	  .reset = (div))						\
	R(c, PHASE##n, KH_CLK_PHASE(n), 1, KSIM_CLK_REG(KH_CLK_PHASE(n))) \
	R(c, DUTY##n, KH_CLK_DUTY(n), 1, KSIM_CLK_REG(KH_CLK_DUTY(n)),	\
	  .reset = KH_CLK_DUTY_50, .read = ksim_clk_duty_read,		\
	  .pre_write = ksim_clk_duty_write)

/*
 * R(c, name, offset, registers, the rest of its struct ksim_reg).  The
 * reset values of CLKCFG0 and the outputs are the built configuration,
 * 300/600/300/300 MHz (VCO 1200 MHz: M 48, D 4); CLKCFG1 (0x204) has no
 * constant of its own and sits in the stored rest.
 */
#define KSIM_CLK_REGS(R, c)						\
	R(c, SW_RST, KH_CLK_SW_RST, 1, .post_write = ksim_clk_sw_rst)	\
	R(c, STATUS, KH_CLK_STATUS, 1, .ro = KSIM_REG_ALL,		\
	  .read = ksim_clk_status)					\
	R(c, CFG0, KH_CLK_CFG0, 1, KSIM_CLK_REG(KH_CLK_CFG0),		\
	  .reset = KH_CLK_CFG0_BUILT)					\
	KSIM_CLK_OUT(R, c, 0, KH_CLK_BUILT_DIV(0))					\
	KSIM_CLK_OUT(R, c, 1, KH_CLK_BUILT_DIV(1))					\
	KSIM_CLK_OUT(R, c, 2, KH_CLK_BUILT_DIV(2))					\
	KSIM_CLK_OUT(R, c, 3, KH_CLK_BUILT_DIV(3))					\
	KSIM_CLK_OUT(R, c, 4, 1)					\
	KSIM_CLK_OUT(R, c, 5, 1)					\
	KSIM_CLK_OUT(R, c, 6, 1)					\
	R(c, LOAD, KH_CLK_LOAD, 1, .post_write = ksim_clk_load)

KSIM_REGS(ksim_clkwiz_regs, 4, KSIM_CLK_REGS);

const struct ksim_regs ksim_clkwiz_regs = {
	.name = "clkwiz", KSIM_REGS_INIT(ksim_clkwiz_regs),
	.miss_read = ksim_clk_miss_read, .miss_write = ksim_clk_miss_write,
};

/* The built configuration: the table's reset values of 0x200-0x258. */
static void ksim_clk_built(u32 *cfg)
{
	const struct ksim_reg *r;

	memset(cfg, 0, sizeof(u32) * KSIM_CLKWIZ_CFG);
	for (r = ksim_clkwiz_regs.reg; r < ksim_clkwiz_regs.reg + ksim_clkwiz_regs.n;
	     r++)
		if (r->off >= KH_CLK_CFG0 && r->off < KH_CLK_LOAD)
			cfg[(r->off - KH_CLK_CFG0) / 4] = (u32)r->reset;
}

void ksim_clkwiz_init(struct ksim_clkwiz *w, struct ksim_card *card,
		      unsigned int mesh)
{
	memset(w, 0, sizeof(*w));
	w->card = card;
	w->mesh = mesh;
	ksim_clk_built(&w->reg[KH_CLK_CFG0 / 4]);
	ksim_clk_built(w->run);
}

u32 ksim_clkwiz_read(struct ksim_card *c, unsigned int mesh, u32 off)
{
	return (u32)ksim_reg_read(&ksim_clkwiz_regs, &c->clkwiz[mesh], off);
}

void ksim_clkwiz_write(struct ksim_card *c, unsigned int mesh, u32 off,
		     u32 v)
{
	ksim_reg_write(&ksim_clkwiz_regs, &c->clkwiz[mesh], off, v);
}
