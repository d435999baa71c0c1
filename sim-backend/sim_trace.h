/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The event trace: a bounded ring of events stamped in mesh cycles
 * (kh_sim_int.h struct kh_sim_trace_ev), and its text form.
 */
#ifndef KH_SIM_TRACE_H
#define KH_SIM_TRACE_H

#include "kh_sim_int.h"
#include "sim_obs.h"

/* event classes, for `trace on events=...` */
#define KH_TRC_HOP	(1u << 0)
#define KH_TRC_UNIT	(1u << 1)
#define KH_TRC_CTRL	(1u << 2)
#define KH_TRC_ORCH	(1u << 3)
#define KH_TRC_DMA	(1u << 4)
#define KH_TRC_DROP	(1u << 5)
#define KH_TRC_INJECT	(1u << 6)
#define KH_TRC_CHECK	(1u << 7)
#define KH_TRC_ALL	0xffu

#define KH_TRACE_DEFAULT	65536u
#define KH_TRACE_MAX		(1u << 22)

struct kh_knob;

/* words w[first..] after "trace" */
int kh_trace_command(struct kh_obs *o, const struct kh_words *w,
		     unsigned int first, char *err, size_t errlen);
void kh_trace_free(struct kh_obs *o);

static inline bool kh_trace_wants(const struct kh_obs *o, u32 cls)
{
	return o->trace_on && (o->trace_mask & cls);
}

/* The next event slot, kind and cycle filled in, the rest zero. */
struct kh_sim_trace_ev *kh_trace_ev(struct kh_obs *o, unsigned int kind);
void kh_trace_inject(struct kh_obs *o, u64 now, const struct kh_knob *k,
		     u32 a, u64 v);
void kh_trace_text(struct kh_obs *o, u64 *pos, struct kh_tbuf *tb);

#endif /* KH_SIM_TRACE_H */
