/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The model's time against the RTL's, for model_timing and
 * model_timing_units (docs/model.md "Timing against the RTL").
 */
#ifndef MTIMING_H
#define MTIMING_H

#include "mhelp.h"

/* One figure of the table: the RTL's, and the model's pinned. */
struct mt_figure {
	const char *what;
	u64 rtl, model;
};

/*
 * Print the figure beside the RTL's; true when `got` is the pinned figure
 * and within 10 % of the RTL's, else false with the reason printed.
 */
bool mt_figure(const struct mt_figure *f, u64 got);

/*
 * The cycle of the first CU_SIGNAL from (x, y) at or after `from`, from
 * the card's trace (the map has "trace on ... events=orch" or all events),
 * or 0: the orchestrator's NODE_STATUS update, the RTL's `in_is_signal`.
 */
u64 mt_signal_at(struct ksim_card *c, unsigned int x, unsigned int y, u64 from);

/* CU_COUNTERS busy cycles of (x, y) on mesh 0 so far. */
u64 mt_busy(struct ksim_card *c, unsigned int x, unsigned int y);

#endif /* MTIMING_H */
