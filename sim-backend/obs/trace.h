/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The event trace: a bounded ring of events stamped in mesh cycles
 * (ksim_int.h struct ksim_trace_ev), and its text form.
 */
#ifndef KSIM_TRACE_H
#define KSIM_TRACE_H

#include "ksim_int.h"
#include "lex.h"
#include "obs.h"

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

struct ksim_knob;

/* words w[first..] after "trace" */
int ksim_trace_command(struct ksim_obs *o, const struct ksim_words *w,
		     unsigned int first, char *err, size_t errlen);
void ksim_trace_free(struct ksim_obs *o);

static inline bool ksim_trace_wants(const struct ksim_obs *o, u32 cls)
{
	return o->trace_on && (o->trace_mask & cls);
}

/* The next event slot, kind and cycle filled in, the rest zero. */
struct ksim_trace_ev *ksim_trace_new_ev(struct ksim_obs *o, unsigned int kind);
void ksim_trace_inject(struct ksim_obs *o, u64 now, const struct ksim_knob *k,
		     u32 a, u64 v);

#endif /* KSIM_TRACE_H */
