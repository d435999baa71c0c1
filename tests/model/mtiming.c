// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The timing table's checks (mtiming.h). */
#include "mtiming.h"

bool mt_figure(const struct mt_figure *f, u64 got)
{
	u64 d = got > f->rtl ? got - f->rtl : f->rtl - got;
	bool ok = true;

	check_diag("%-40s RTL %4llu  model %4llu  ratio %.3f", f->what,
		   (unsigned long long)f->rtl, (unsigned long long)got,
		   (double)got / (double)f->rtl);
	if (got != f->model) {
		check_diag("%s: %llu cycles, pinned at %llu", f->what,
			   (unsigned long long)got,
			   (unsigned long long)f->model);
		ok = false;
	}
	if (d * 10 > f->rtl) {
		check_diag("%s: %llu cycles, more than 10 %% from the RTL's %llu",
			   f->what, (unsigned long long)got,
			   (unsigned long long)f->rtl);
		ok = false;
	}
	return ok;
}

u64 mt_signal_at(struct ksim_card *c, unsigned int x, unsigned int y, u64 from)
{
	struct ksim_trace_ev ev;
	u64 first, end, i;

	ksim_trace_bounds(c, &first, &end);
	for (i = first; i < end; i++)
		if (!ksim_trace_get(c, i, &ev) && ev.kind == KSIM_TR_SIGNAL &&
		    ev.x == x && ev.y == y && ev.cycle >= from)
			return ev.cycle;
	return 0;
}

u64 mt_busy(struct ksim_card *c, unsigned int x, unsigned int y)
{
	struct ksim_unit_stats us;

	if (ksim_unit_stats(c, 0, x, y, &us))
		return 0;
	return us.busy_cycles;
}
