/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The one adapter from the device model to the register-access seam
 * (hwif/kh_hw.h): a model card offered as a struct kh_hw.  Both hosts of
 * the model use it, kohaku_sim.ko and libkohaku's in-process backend, so
 * a simulated card behaves the same under the kernel driver and in-process:
 * same locking, same device time, same DRAM sizes.
 *
 * The adapter owns the card and the card's lock.  The model is not
 * thread-safe; every op takes the lock, and a host that calls the model
 * itself (its knobs: ksim_command(), ksim_dump_stats(), ksim_trace_text(),
 * ...) does so between ksim_hw_lock() and ksim_hw_unlock().
 *
 * kernel-doc for each function is in ksim_hw.c.
 */
#ifndef KSIM_HW_H
#define KSIM_HW_H

#include "kh_hw.h"
#include "ksim.h"

struct ksim_hw;

/*
 * ksim_hw_create() flags.  KSIM_HW_POLL: the host takes no interrupt
 * vectors (struct kh_hw.n_irqs is 0, the core polls for everything; the
 * card's XDMA config block reads MSI-X off).  Hosts select it from
 * kohaku_sim.ko's irq=poll and the in-process KOHAKU_SIM_IRQ=poll.
 * KSIM_HW_CTRL32: the control space in 32-bit accesses only, as a card's
 * host has it (KH_HW_CTRL32; no read64/write64 ops); from kohaku_sim.ko's
 * ctrl=32 and the in-process KOHAKU_SIM_CTRL=32.
 */
#define KSIM_HW_POLL	1u
#define KSIM_HW_CTRL32	2u

struct ksim_hw *ksim_hw_create(struct ksim_card *card,
			       const struct ksim_host_ops *host,
			       void *host_ctx, unsigned int flags);
void ksim_hw_destroy(struct ksim_hw *sh);
const struct kh_hw *ksim_hw_get(const struct ksim_hw *sh);
struct ksim_card *ksim_hw_lock(struct ksim_hw *sh);
void ksim_hw_unlock(struct ksim_hw *sh);

#endif /* KSIM_HW_H */
