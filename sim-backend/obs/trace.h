/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The event trace: a bounded ring of events stamped in mesh cycles
 * (struct ksim_trace_ev, obs/events.h), and its text form.  An observer
 * (obs/obs.h), the last one registered: it records what happened.
 */
#ifndef KSIM_TRACE_H
#define KSIM_TRACE_H

#include "obs.h"
#include "tbuf.h"

/* event classes, for `trace on events=...` */
#define KSIM_TRC_HOP	(1u << 0)
#define KSIM_TRC_UNIT	(1u << 1)
#define KSIM_TRC_CTRL	(1u << 2)
#define KSIM_TRC_ORCH	(1u << 3)
#define KSIM_TRC_DMA	(1u << 4)
#define KSIM_TRC_DROP	(1u << 5)
#define KSIM_TRC_INJECT	(1u << 6)
#define KSIM_TRC_CHECK	(1u << 7)
#define KSIM_TRC_ALL	0xffu		/* `all`: the classes above */
/*
 * Host register accesses, opt-in: named only, never in `all` (nor the
 * default), so that a trace taken as before reads as before.
 */
#define KSIM_TRC_REG	(1u << 8)

#define KSIM_TRACE_DEFAULT	65536u
#define KSIM_TRACE_MAX		(1u << 22)

struct ksim_trace;

/* A trace, off, registered with the hub (card/card.c, before finalize). */
struct ksim_trace *ksim_trace_create(struct ksim_obs *o, int *err);
bool ksim_trace_on(const struct ksim_trace *t);

/* Events [first, end) are in the ring; 0 with ev filled, or -ENOENT. */
void ksim_trace_ring_bounds(const struct ksim_trace *t, u64 *first, u64 *end);
int ksim_trace_ring_get(const struct ksim_trace *t, u64 idx,
			struct ksim_trace_ev *ev);
/* Events from *pos on as text, whole lines (ksim_trace_text()). */
void ksim_trace_format(const struct ksim_trace *t, u64 *pos,
		       struct ksim_tbuf *tb);

#endif /* KSIM_TRACE_H */
