// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Observability: the host-facing commands and text dumps of the protocol
 * checker (sim_check.c), fault injection (sim_inject.c) and the event
 * trace (sim_trace.c), and the benchmark's stepping switch.
 */
#include "sim_card.h"

void kh_sim_set_step_all(struct kh_sim_card *card, bool on)
{
	unsigned int i;

	card->sched.step_all = on;
	if (on)
		for (i = 0; i < card->sched.n_all; i++)
			kh_node_wake(card->sched.all[i]);
}
