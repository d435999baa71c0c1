// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The model's adapter to the register-access seam (ksim_hw.h): the one
 * place where a model card becomes a struct kh_hw, for every host.
 *
 * Device time is the card's cycle count at its mesh clock.  Converting
 * between cycles and nanoseconds multiplies by 1000 or by the clock in
 * MHz before dividing, which overflows u64 long before the results do,
 * and a u64 divided by a variable needs a helper in a 32-bit kernel.  So
 * both conversions go through whole microseconds (quotient and remainder
 * by ksim_plat_div_u64_rem()) and saturate instead of wrapping.
 */
#include "ksim_hw.h"

#define KSIM_HW_U64_MAX		(~(u64)0)

/**
 * struct ksim_hw - a model card behind the register-access seam
 * @hw: what the host hands to the driver core; its ctx points back here.
 * @lock: serialises every call into @card: the ops, and the host's own
 *	calls between ksim_hw_lock() and ksim_hw_unlock().
 * @card: the model card, owned.
 */
struct ksim_hw {
	struct kh_hw hw;
	struct ksim_plat_mutex lock;
	struct ksim_card *card;
};

/* cycles * 1000 / mhz, rounded down: device time never runs ahead. */
static u64 ksim_hw_cycles_to_ns(u64 cycles, u32 mhz)
{
	u32 rem, unused;
	u64 us, ns;

	us = ksim_plat_div_u64_rem(cycles, mhz, &rem);
	/* rem < mhz < 2^32: rem * 1000 fits */
	if (__builtin_mul_overflow(us, (u64)1000, &ns) ||
	    __builtin_add_overflow(ns, ksim_plat_div_u64_rem((u64)rem * 1000,
							     mhz, &unused),
				   &ns))
		return KSIM_HW_U64_MAX;
	return ns;
}

/*
 * ns * mhz / 1000, rounded up: after idling ns the device clock has moved
 * at least ns, so a deadline ns away is reached, never missed by one
 * partial cycle again and again.
 */
static u64 ksim_hw_ns_to_cycles(u64 ns, u32 mhz)
{
	u64 us, cycles, part;
	u32 rem, prem;

	us = ksim_plat_div_u64_rem(ns, 1000, &rem);
	/* rem < 1000: rem * mhz < 2^42 fits */
	part = ksim_plat_div_u64_rem((u64)rem * mhz, 1000, &prem);
	if (prem)
		part++;
	if (__builtin_mul_overflow(us, (u64)mhz, &cycles) ||
	    __builtin_add_overflow(cycles, part, &cycles))
		return KSIM_HW_U64_MAX;
	return cycles;
}

/* a card always has a clock; a 0 would only divide by zero */
static u32 ksim_hw_mhz(const struct ksim_hw *sh)
{
	u32 mhz = ksim_clock_mhz(sh->card);

	return mhz ? mhz : 1;
}

/* ---- the ops ---- */

static __u64 ksim_hw_read64(void *ctx, __u32 offset)
{
	struct ksim_hw *sh = ctx;
	u64 v;

	ksim_plat_mutex_lock(&sh->lock);
	v = ksim_read64(sh->card, offset);
	ksim_plat_mutex_unlock(&sh->lock);
	return v;
}

static void ksim_hw_write64(void *ctx, __u32 offset, __u64 value)
{
	struct ksim_hw *sh = ctx;

	ksim_plat_mutex_lock(&sh->lock);
	ksim_write64(sh->card, offset, value);
	ksim_plat_mutex_unlock(&sh->lock);
}

static __u32 ksim_hw_bar_read32(void *ctx, unsigned int bar, __u32 offset)
{
	struct ksim_hw *sh = ctx;
	u32 v;

	ksim_plat_mutex_lock(&sh->lock);
	v = ksim_bar_read32(sh->card, bar, offset);
	ksim_plat_mutex_unlock(&sh->lock);
	return v;
}

static void ksim_hw_bar_write32(void *ctx, unsigned int bar, __u32 offset,
				__u32 value)
{
	struct ksim_hw *sh = ctx;

	ksim_plat_mutex_lock(&sh->lock);
	ksim_bar_write32(sh->card, bar, offset, value);
	ksim_plat_mutex_unlock(&sh->lock);
}

/* The card calls fn with the lock held, from inside its stepping. */
static void ksim_hw_irq_attach(void *ctx,
			       void (*fn)(void *arg, unsigned int vector),
			       void *arg)
{
	struct ksim_hw *sh = ctx;

	ksim_plat_mutex_lock(&sh->lock);
	ksim_set_msi(sh->card, sh->hw.n_irqs, fn, arg);
	ksim_plat_mutex_unlock(&sh->lock);
}

static __u64 ksim_hw_now_ns(void *ctx)
{
	struct ksim_hw *sh = ctx;
	u64 cycles;
	u32 mhz;

	ksim_plat_mutex_lock(&sh->lock);
	cycles = ksim_cycles(sh->card);
	mhz = ksim_hw_mhz(sh);
	ksim_plat_mutex_unlock(&sh->lock);
	return ksim_hw_cycles_to_ns(cycles, mhz);
}

/* The card runs only when touched: nobody asking is time passing anyway. */
static void ksim_hw_idle_ns(void *ctx, __u64 ns)
{
	struct ksim_hw *sh = ctx;

	ksim_plat_mutex_lock(&sh->lock);
	/* a sleeping host wakes at the card's interrupt */
	ksim_run_until_irq(sh->card, ksim_hw_ns_to_cycles(ns, ksim_hw_mhz(sh)));
	ksim_plat_mutex_unlock(&sh->lock);
}

static const struct kh_hw_ops ksim_hw_ops = {
	.read64		= ksim_hw_read64,
	.write64	= ksim_hw_write64,
	.bar_read32	= ksim_hw_bar_read32,
	.bar_write32	= ksim_hw_bar_write32,
	.now_ns		= ksim_hw_now_ns,
	.idle_ns	= ksim_hw_idle_ns,
	.irq_attach	= ksim_hw_irq_attach,
};

/* a card's host: BAR0 in 32-bit accesses alone (KSIM_HW_CTRL32) */
static const struct kh_hw_ops ksim_hw_ops32 = {
	.bar_read32	= ksim_hw_bar_read32,
	.bar_write32	= ksim_hw_bar_write32,
	.now_ns		= ksim_hw_now_ns,
	.idle_ns	= ksim_hw_idle_ns,
	.irq_attach	= ksim_hw_irq_attach,
};

/* ---- the host's side ---- */

/**
 * ksim_hw_create() - offer a model card at the register-access seam
 * @card: a card from ksim_card_create() or ksim_card_create_flags().
 * @host: the host's memory, for the card's DMA engine
 *	(struct ksim_host_ops: bus addresses as the host's DMA mapping gives
 *	them); NULL: the engine reaches no host memory.
 * @host_ctx: passed to @host's callbacks.
 * @flags: KSIM_HW_POLL: offer no interrupt vectors; KSIM_HW_CTRL32: the
 *	control space in 32-bit accesses only (KH_HW_CTRL32), as a card's
 *	host has it: the ops have no read64 and no write64.
 *
 * On success the adapter owns @card: ksim_hw_destroy() destroys it, and
 * the host reaches it only through the ops or between ksim_hw_lock() and
 * ksim_hw_unlock().  On failure @card is still the caller's.
 *
 * The struct kh_hw (ksim_hw_get()) has all of struct kh_hw_ops, the flag
 * KH_HW_SIMULATED, each mesh's DRAM size from ksim_mesh_dram_size(), the
 * BAR sizes (BAR0 the control space, BAR1 the XDMA registers) and n_irqs,
 * the MSI-X vectors the card offers (4; 0 with KSIM_HW_POLL).  The
 * irq_attach op registers the handler the card calls with a vector number
 * from inside its stepping, under the adapter's lock.  Device time (the
 * now_ns op) is ksim_cycles() * 1000 / ksim_clock_mhz() ns; the idle_ns
 * op runs the card forward by the ns it is given, or to the end of the
 * cycle in which the card sends an interrupt (ksim_run_until_irq()).
 *
 * Context: may sleep (allocates).
 * Return: the adapter, or NULL when out of memory.
 */
struct ksim_hw *ksim_hw_create(struct ksim_card *card,
			       const struct ksim_host_ops *host,
			       void *host_ctx, unsigned int flags)
{
	struct ksim_hw *sh;
	unsigned int m, n;

	sh = ksim_plat_zalloc(sizeof(*sh));
	if (!sh)
		return NULL;
	sh->card = card;
	ksim_plat_mutex_init(&sh->lock);
	sh->hw.ops = flags & KSIM_HW_CTRL32 ? &ksim_hw_ops32 : &ksim_hw_ops;
	sh->hw.ctx = sh;
	sh->hw.flags = KH_HW_SIMULATED |
		       (flags & KSIM_HW_CTRL32 ? KH_HW_CTRL32 : 0);
	n = ksim_mesh_count(card);
	for (m = 0; m < n && m < KH_HW_MAX_MESHES; m++)
		sh->hw.mesh_mem_size[m] = ksim_mesh_dram_size(card, m);
	for (m = 0; m < KH_HW_MAX_BARS; m++)
		sh->hw.bar_size[m] = ksim_bar_size(m);
	sh->hw.n_irqs = flags & KSIM_HW_POLL ? 0 : KSIM_MSI_VECTORS;
	ksim_set_host_ops(card, host, host_ctx);
	ksim_set_msi(card, sh->hw.n_irqs, NULL, NULL);
	return sh;
}

/**
 * ksim_hw_destroy() - destroy the adapter and its card
 * @sh: the adapter, or NULL (nothing to do).
 *
 * The driver core must be done with the card first (kh_device_remove(),
 * or kohaku.ko unbound): nothing may call the ops any more.
 *
 * Context: may sleep.
 */
void ksim_hw_destroy(struct ksim_hw *sh)
{
	if (!sh)
		return;
	ksim_card_destroy(sh->card);
	ksim_plat_mutex_destroy(&sh->lock);
	ksim_plat_free(sh);
}

/**
 * ksim_hw_get() - the card as the driver core takes it
 * @sh: the adapter.
 *
 * The core copies the struct (kh_device_probe(), and kohaku.ko's platform
 * data); its ctx stays valid until ksim_hw_destroy().
 *
 * Return: the card's struct kh_hw.
 */
const struct kh_hw *ksim_hw_get(const struct ksim_hw *sh)
{
	return &sh->hw;
}

/**
 * ksim_hw_lock() - take the card's lock, to call the model directly
 * @sh: the adapter.
 *
 * For what a host offers beyond the seam (the model's knobs, its checker,
 * trace and counters), under the same lock as the ops: the driver may be
 * using the card at the same time.  Do not call the ops, nor anything that
 * calls them, while holding it.
 *
 * Context: may sleep.
 * Return: the card, usable until ksim_hw_unlock().
 */
struct ksim_card *ksim_hw_lock(struct ksim_hw *sh)
{
	ksim_plat_mutex_lock(&sh->lock);
	return sh->card;
}

/**
 * ksim_hw_unlock() - release the lock taken by ksim_hw_lock()
 * @sh: the adapter.
 */
void ksim_hw_unlock(struct ksim_hw *sh)
{
	ksim_plat_mutex_unlock(&sh->lock);
}
