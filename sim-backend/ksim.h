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

struct ksim_card;

/*
 * Create a card from a card description: a mesh map in the KohakuTPU map
 * format, optionally with directives (docs/spec/card-description.md).  On
 * failure returns a negative errno and writes a message naming the line and
 * the problem into err.
 */
int ksim_card_create(const char *desc, struct ksim_card **out,
		       char *err, size_t errlen);
void ksim_card_destroy(struct ksim_card *card);

/* BAR0 access at a byte offset; 8-aligned (unaligned reads return ~0). */
u64 ksim_read64(struct ksim_card *card, u32 offset);
void ksim_write64(struct ksim_card *card, u32 offset, u64 value);

/*
 * Host DMA through the XDMA engine.  card_addr is a card bus address
 * (KH_CARD_ADDR).  Writes reach memory as whole 32-byte words, as on the
 * card: bytes of a partly covered word outside [addr, addr+len) are written
 * with zeros.  Returns 0 or a negative errno (-EINVAL for an address no
 * window decodes; the card would hang there).  Addresses with [39] = 1 are
 * MAG's apertures (docs/model.md "Host apertures"); one nothing answers,
 * or a quantising upload cut mid-entry, hangs that XDMA direction on a
 * card: -EIO, now and for every later transfer that way until the mesh
 * is reset.
 */
int ksim_dma_write(struct ksim_card *card, u64 card_addr,
		     const void *buf, size_t len);
int ksim_dma_read(struct ksim_card *card, u64 card_addr, void *buf,
		    size_t len);

/* Simulated time. */
u64 ksim_cycles(const struct ksim_card *card);
u32 ksim_clock_mhz(const struct ksim_card *card);
void ksim_run(struct ksim_card *card, u64 cycles);

/* Card-wide facts a host needs to describe the card to the driver. */
unsigned int ksim_mesh_count(const struct ksim_card *card);
u64 ksim_mesh_dram_size(const struct ksim_card *card, unsigned int mesh);

/*
 * The card's one XDMA user interrupt (usr_irq_req[0]) when a mesh has the
 * interrupt addon (docs/spec/irq-addon.md): the level, the OR over meshes
 * of IRQ_STAT & IRQ_EN.  It is low on cards without the addon.
 *
 * A host may register fn, called with ctx from inside stepping (any
 * access or ksim_run) in the cycle the line rises; it must not call
 * back into the model, only note the event.  NULL removes it.  The model
 * steps only when it is accessed, so the line cannot rise while nobody
 * touches the card: a host that wants interrupts without polling must
 * keep stepping it (e.g. a kernel thread calling ksim_run), later
 * driver work.
 */
bool ksim_irq_line(const struct ksim_card *card);
typedef void (*ksim_irq_fn)(void *ctx);
void ksim_set_irq_callback(struct ksim_card *card, ksim_irq_fn fn,
			     void *ctx);

/*
 * The model's knobs (docs/spec/fault-injection.md): fault injection, the
 * protocol checker and the event trace.  Nothing a card has; hosts offer
 * them to tests (libkohaku's kohaku_sim_*, kohaku_sim.ko's debugfs).
 *
 * ksim_card_create_flags() is ksim_card_create() with the checker
 * (KSIM_CHECK) on from the start; a description's `check off` still
 * wins.  ksim_command() takes one line as a description directive
 * would: "inject ...", "check on|off ...", "trace on|off|clear ...";
 * ksim_inject() the words after "inject".  Both return 0 or -EINVAL
 * with a message in err.
 *
 * The text functions write at most len bytes, NUL-terminated, and return
 * the length the whole text needs (like snprintf), so a host can size its
 * buffer.  ksim_check_report() audits first and returns the number of
 * violations.  ksim_trace_text() formats events from index *pos on, one
 * line each, as many whole lines as fit, and moves *pos past them (start
 * at 0: the first line is a header); it returns the bytes written.
 */
#define KSIM_CHECK	1u

int ksim_card_create_flags(const char *desc, unsigned int flags,
			     struct ksim_card **out, char *err,
			     size_t errlen);
int ksim_command(struct ksim_card *card, const char *line, char *err,
		   size_t errlen);
int ksim_inject(struct ksim_card *card, const char *spec, char *err,
		  size_t errlen);
size_t ksim_dump_knobs(struct ksim_card *card, char *buf, size_t len);
size_t ksim_dump_stats(struct ksim_card *card, char *buf, size_t len);
u64 ksim_check_report(struct ksim_card *card, char *buf, size_t len);
size_t ksim_trace_text(struct ksim_card *card, u64 *pos, char *buf,
			 size_t len);

/* Built-in card descriptions by name ("saxpy", "ship_2x2", ...); NULL if none. */
const char *ksim_builtin_desc(const char *name);
/* Names of the built-in descriptions, NULL-terminated. */
const char *const *ksim_builtin_names(void);

#endif /* KSIM_H */
