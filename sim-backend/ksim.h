/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The KohakuAccel device model: its whole public interface.
 *
 * A simulated card presents exactly what a real card presents to a host:
 * BAR0 register reads and writes, and DMA into mesh memory through the XDMA
 * path at KH_CARD_ADDR(mesh, offset).  Nothing else is visible: hosts (the
 * in-process runtime backend, kohaku_sim.ko) adapt these calls to the
 * driver's register-access ops table.
 *
 * Time: the model is cycle-stepped at the card's mesh clock.  It runs only
 * when the host touches it: every register access and every DMA first runs
 * the card forward by that access's cost in cycles, as a real card runs
 * while the host is away.  A run is therefore deterministic, and a host that
 * polls a hung card still sees time pass.
 *
 * The model is not thread-safe; a host serialises calls on one card.
 * Portable C, integer arithmetic only, no libc beyond what the kernel has.
 */
#ifndef KSIM_H
#define KSIM_H

#include "ksim_plat.h"
/* struct ksim_host_ops, ksim_msi_fn: the XDMA engine's, below the card */
#include "host.h"

struct ksim_card;

/**
 * ksim_card_create() - create a card from a card description
 * @desc: the description: a mesh map in the KohakuTPU map format, optionally
 *	with directives (docs/spec/card-description.md).
 * @out: the new card; NULL on failure.
 * @err: on failure, a message naming the line and the problem; may be NULL.
 * @errlen: the size of @err.
 *
 * Return: 0, or a negative errno on failure.
 */
int ksim_card_create(const char *desc, struct ksim_card **out,
		       char *err, size_t errlen);
/**
 * ksim_desc_text_check() - refuse a description that is not text
 * @text: the bytes as read (a file, a sysfs write), which may hold a NUL.
 * @len: their number.
 * @err: on failure, the line and byte of the first bad byte; may be NULL.
 * @errlen: the size of @err.
 *
 * A description is text: a NUL byte would end it silently (the rest
 * ignored), a control byte other than tab, CR and LF is no part of one.
 * Callers holding bytes of their own check them before ksim_card_create().
 *
 * Return: 0, or -EINVAL.
 */
int ksim_desc_text_check(const char *text, size_t len, char *err,
			 size_t errlen);
/**
 * ksim_card_destroy() - destroy a card
 * @card: the card, or NULL (nothing to do).
 */
void ksim_card_destroy(struct ksim_card *card);

/**
 * ksim_read64() - a host read of BAR0
 * @card: the card.
 * @offset: byte offset in BAR0; 8-aligned.
 *
 * Runs the card forward by a read's cost first.
 *
 * Return: the register's value; ~0 for an unaligned read.
 */
u64 ksim_read64(struct ksim_card *card, u32 offset);
/**
 * ksim_write64() - a host write to BAR0
 * @card: the card.
 * @offset: byte offset in BAR0; 8-aligned.
 * @value: what is written.
 *
 * Runs the card forward by a write's cost first.
 */
void ksim_write64(struct ksim_card *card, u32 offset, u64 value);

/**
 * ksim_bar_read32() - a host 32-bit read of a BAR
 * @card: the card.
 * @bar: 0, the AXI-Lite control space, or 1, the XDMA register space
 *	(uapi/kohaku/kh_xdma.h).
 * @offset: byte offset in the BAR; 4-aligned.
 *
 * Runs the card forward by a read's cost first.  On BAR0 it reads the
 * half of the 64-bit register at @offset & ~7 that @offset names (the
 * low half at +0): what the card's 32-bit AXI-Lite master and the 32-to-64
 * upsizer give (kohakutpu.md 8.4).
 *
 * Return: the value; ~0 for an unaligned offset, one past the BAR, or a
 * BAR the card does not have.
 */
u32 ksim_bar_read32(struct ksim_card *card, unsigned int bar, u32 offset);
/**
 * ksim_bar_write32() - a host 32-bit write to a BAR
 * @card: the card.
 * @bar: 0 or 1, as for ksim_bar_read32().
 * @offset: byte offset in the BAR; 4-aligned (anything else is ignored).
 * @value: what is written.
 *
 * Runs the card forward by a write's cost first, landing in its last
 * cycle.  On BAR0 the DDR controller and clock wizard windows take it as
 * the 32-bit register it is; in a mesh control window, whose registers are
 * 64-bit and ignore byte strobes, a write at +0 writes the register with
 * the upper half 0 and a write at +4 is lost (kohakutpu.md 8.4).
 */
void ksim_bar_write32(struct ksim_card *card, unsigned int bar, u32 offset,
		      u32 value);
/**
 * ksim_bar_size() - the size of one of the card's BARs
 * @bar: the BAR.
 *
 * Return: 16 MiB for BAR0, 64 KiB for BAR1 (XDMA), 0 for the others.
 */
u32 ksim_bar_size(unsigned int bar);

/**
 * ksim_set_host_ops() - give the card its host's memory
 * @card: the card.
 * @ops: the callbacks, or NULL: every access to host memory fails.
 * @ctx: passed to them.
 */
void ksim_set_host_ops(struct ksim_card *card,
		       const struct ksim_host_ops *ops, void *ctx);

/* the MSI-X vectors the card's XDMA function offers (docs/spec/xdma.md) */
#define KSIM_MSI_VECTORS	4

/**
 * ksim_set_msi() - the interrupt vectors the host takes, and its handler
 * @card: the card.
 * @n_vectors: MSI-X vectors the host enabled: a message to a vector
 *	number past it is not delivered (counted); 0 for a host that polls
 *	(the config block then reads MSI-X off).
 * @fn: called with @arg and the vector number each time an XDMA interrupt
 *	(a channel's or the user interrupt) becomes pending; NULL for none.
 * @arg: passed to @fn.
 */
void ksim_set_msi(struct ksim_card *card, unsigned int n_vectors,
		  ksim_msi_fn fn, void *arg);

/**
 * ksim_dma_write() - a data phase of the XDMA engine, with no descriptor
 * @card: the card.
 * @card_addr: a card bus address (KH_CARD_ADDR).
 * @buf: the bytes to write.
 * @len: how many.
 *
 * Writes reach memory as whole 32-byte words, as on the card: bytes of a
 * partly covered word outside [addr, addr+len) are written with zeros.
 * Addresses with [39] = 1 are MAG's apertures (docs/model.md "Host
 * apertures"); one nothing answers, or a quantising upload cut mid-entry,
 * hangs that XDMA direction on a card: -EIO, now and for every later
 * transfer that way until the mesh is reset.
 *
 * Return: 0 or a negative errno (-EINVAL for an address no window decodes;
 * the card would hang there).
 *
 * The test bench's backdoor into mesh memory (model tests, tools): no
 * driver path uses it; the driver programs the engine (sim-backend/xdma/).
 */
int ksim_dma_write(struct ksim_card *card, u64 card_addr,
		     const void *buf, size_t len);
/**
 * ksim_dma_read() - a data phase of the XDMA engine, from the card
 * @card: the card.
 * @card_addr: a card bus address (KH_CARD_ADDR).
 * @buf: where the bytes go.
 * @len: how many.
 *
 * The other direction of ksim_dma_write(), with the same rules.
 *
 * Return: 0 or a negative errno, as ksim_dma_write().
 */
int ksim_dma_read(struct ksim_card *card, u64 card_addr, void *buf,
		    size_t len);

/**
 * ksim_cycles() - simulated time
 * @card: the card.
 *
 * Return: mesh clock cycles since the card was created.
 */
u64 ksim_cycles(const struct ksim_card *card);
/**
 * ksim_clock_mhz() - the card's mesh clock
 * @card: the card.
 *
 * Return: the clock in MHz.
 */
u32 ksim_clock_mhz(const struct ksim_card *card);
/**
 * ksim_run() - run the card forward with no access
 * @card: the card.
 * @cycles: how many mesh clock cycles.
 */
void ksim_run(struct ksim_card *card, u64 cycles);
/**
 * ksim_run_until_irq() - run the card forward until it interrupts its host
 * @card: the card.
 * @cycles: at most this many mesh clock cycles.
 *
 * As ksim_run(), but it returns at the end of the cycle in which the card
 * sent an MSI-X message, as a host sleeping until an interrupt wakes then.
 */
void ksim_run_until_irq(struct ksim_card *card, u64 cycles);

/**
 * ksim_mesh_count() - how many meshes the card has
 * @card: the card.
 *
 * A card-wide fact a host needs to describe the card to the driver.
 *
 * Return: the number of meshes, 1 to KH_MAX_MESHES.
 */
unsigned int ksim_mesh_count(const struct ksim_card *card);
/**
 * ksim_mesh_dram_size() - a mesh's memory
 * @card: the card.
 * @mesh: the mesh index.
 *
 * A card-wide fact a host needs to describe the card to the driver.
 *
 * Return: the mesh's DRAM in bytes; 0 past the last mesh.
 */
u64 ksim_mesh_dram_size(const struct ksim_card *card, unsigned int mesh);

/**
 * ksim_irq_line() - the card's one XDMA user interrupt (usr_irq_req[0])
 * @card: the card.
 *
 * For a card whose meshes have the interrupt addon
 * (docs/spec/irq-addon.md).
 *
 * Return: the level, the OR over meshes of IRQ_STAT & IRQ_EN; low on cards
 * without the addon.
 */
bool ksim_irq_line(const struct ksim_card *card);
/**
 * typedef ksim_irq_fn - called in the cycle the interrupt line rises
 * @ctx: what the host registered with ksim_set_irq_callback().
 *
 * Called from inside stepping; it must not call back into the model, only
 * note the event.
 */
typedef void (*ksim_irq_fn)(void *ctx);
/**
 * ksim_set_irq_callback() - be told when the interrupt line rises
 * @card: the card.
 * @fn: called with @ctx from inside stepping (any access or ksim_run()) in
 *	the cycle the line rises; it must not call back into the model, only
 *	note the event.  NULL removes it.
 * @ctx: passed to @fn.
 *
 * The model steps only when it is accessed, so the line cannot rise while
 * nobody touches the card: a host that wants interrupts without polling
 * must keep stepping it (e.g. a kernel thread calling ksim_run()), later
 * driver work.
 */
void ksim_set_irq_callback(struct ksim_card *card, ksim_irq_fn fn,
			     void *ctx);

/*
 * The model's knobs (docs/spec/fault-injection.md): fault injection, the
 * protocol checker and the event trace.  Nothing a card has; hosts offer
 * them to tests (libkohaku's kohaku_sim_*, kohaku_sim.ko's debugfs).
 *
 * The text functions write at most len bytes, NUL-terminated, and return
 * the length the whole text needs (like snprintf), so a host can size its
 * buffer.
 */
/* ksim_card_create_flags(): the protocol checker on from the start */
#define KSIM_CHECK	1u

/**
 * ksim_card_create_flags() - ksim_card_create(), with flags
 * @desc: the card description, as for ksim_card_create().
 * @flags: KSIM_CHECK: the protocol checker on from the start; a
 *	description's `check off` still wins.
 * @out: the new card; NULL on failure.
 * @err: on failure, a message naming the line and the problem; may be NULL.
 * @errlen: the size of @err.
 *
 * Return: 0, or a negative errno on failure.
 */
int ksim_card_create_flags(const char *desc, unsigned int flags,
			     struct ksim_card **out, char *err,
			     size_t errlen);
/**
 * ksim_command() - one knob command
 * @card: the card.
 * @line: one line as a description directive would have it:
 *	"inject ...", "check on|off ...", "trace on|off|clear ...".
 * @err: the message when the command is refused; may be NULL.
 * @errlen: the size of @err.
 *
 * Return: 0, or -EINVAL with a message in @err.
 */
int ksim_command(struct ksim_card *card, const char *line, char *err,
		   size_t errlen);
/**
 * ksim_inject() - inject a fault
 * @card: the card.
 * @spec: the words after "inject" of an inject command.
 * @err: the message when the spec is refused; may be NULL.
 * @errlen: the size of @err.
 *
 * Return: 0, or -EINVAL with a message in @err.
 */
int ksim_inject(struct ksim_card *card, const char *spec, char *err,
		  size_t errlen);
/**
 * ksim_dump_knobs() - the fault-injection knobs set on the card, as text
 * @card: the card.
 * @buf: where the text goes, NUL-terminated.
 * @len: at most this many bytes are written.
 *
 * Return: the length the whole text needs (like snprintf).
 */
size_t ksim_dump_knobs(struct ksim_card *card, char *buf, size_t len);
/**
 * ksim_dump_stats() - the card's counters, as text
 * @card: the card.
 * @buf: where the text goes, NUL-terminated.
 * @len: at most this many bytes are written.
 *
 * Return: the length the whole text needs (like snprintf).
 */
size_t ksim_dump_stats(struct ksim_card *card, char *buf, size_t len);
/**
 * ksim_check_report() - the protocol checker's report
 * @card: the card.
 * @buf: where the report goes, NUL-terminated.
 * @len: at most this many bytes are written.
 *
 * Audits the card first.
 *
 * Return: the number of violations.
 */
u64 ksim_check_report(struct ksim_card *card, char *buf, size_t len);
/**
 * ksim_trace_text() - the event trace, as text
 * @card: the card.
 * @pos: the index of the first event to format; moved past the events
 *	written.  Start at 0: the first line is a header.
 * @buf: where the text goes, NUL-terminated.
 * @len: at most this many bytes are written.
 *
 * Formats events from index *@pos on, one line each, as many whole lines
 * as fit.
 *
 * Return: the bytes written.
 */
size_t ksim_trace_text(struct ksim_card *card, u64 *pos, char *buf,
			 size_t len);

/**
 * ksim_builtin_desc() - a built-in card description by name
 * @name: "saxpy", "ship_2x2", ...
 *
 * Return: the description, or NULL if none has that name.
 */
const char *ksim_builtin_desc(const char *name);
/**
 * ksim_builtin_names() - the names of the built-in descriptions
 *
 * Return: the names, NULL-terminated.
 */
const char *const *ksim_builtin_names(void);

#endif /* KSIM_H */
