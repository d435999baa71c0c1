/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Fault injection: the knobs of docs/spec/fault-injection.md "inject".
 * Every knob counts its events from the moment it is set, so a spec and a
 * host access sequence always give the same run.  An observer
 * (obs/obs.h), registered after the checker and before the trace.
 */
#ifndef KSIM_INJECT_H
#define KSIM_INJECT_H

#include "obs.h"
#include "tbuf.h"

enum ksim_knob_kind {
	KSIM_KNOB_DROP,
	KSIM_KNOB_DUP,
	KSIM_KNOB_BUSY,
	KSIM_KNOB_FAULT,
	KSIM_KNOB_HANG,
	KSIM_KNOB_CTRL,
	KSIM_KNOB_DRAM,
	KSIM_KNOB_XDMA,
	KSIM_KNOB_KINDS
};

enum ksim_ctrl_field { KSIM_CF_VALUE, KSIM_CF_TXN, KSIM_CF_SRC, KSIM_CF_DROP };
enum ksim_dram_op { KSIM_DOP_ANY, KSIM_DOP_READ, KSIM_DOP_WRITE };
enum ksim_dram_data { KSIM_DD_ZERO, KSIM_DD_ONES, KSIM_DD_PATTERN };

struct ksim_knob {
	struct ksim_knob *next;		/* every knob of the card, by id */
	struct ksim_knob *next_here;	/* on the same link, unit or mesh */
	u32 id;
	u8 kind, mesh, x, y;
	s8 type;			/* flit type, -1 any */
	u8 field, op, data_mode;
	u8 xerr, xdir;			/* xdma: enum ksim_xdma_err, 1 H2C 2 C2H 3 both */
	bool forever;			/* count=forever (cycles=forever) */
	u64 count, after, passed, hits;
	u64 code, xor, addr, len;
	u32 data;
	u64 from, until;		/* busy */
	struct ksim_obs_link *link;
	struct ksim_obs_unit *unit;
};

struct ksim_injector;

/* An injector, no knob set, registered with the hub (card/card.c, before finalize). */
struct ksim_injector *ksim_inject_create(struct ksim_obs *o, int *err);
/* words w[first..] after "inject": a knob, or "clear [ID]", or "reset" */
int ksim_inject_command(struct ksim_injector *inj, const struct ksim_words *w,
			unsigned int first, char *err, size_t errlen);
/* the knobs set, one line each (ksim_dump_knobs()) */
void ksim_inject_list(struct ksim_injector *inj, struct ksim_tbuf *tb);
/* "drop", "dup", ... for enum ksim_knob_kind; "?" past it */
const char *ksim_knob_kind_name(unsigned int kind);
/* the injector's node's timer: the next busy knob edge */
void ksim_inject_timer(struct ksim_injector *inj);

/* counters (card/stats.c) */
u32 ksim_inject_knobs_set(const struct ksim_injector *inj);
void ksim_inject_dram_errors(const struct ksim_injector *inj,
			     unsigned int mesh, u64 *rd, u64 *wr);
/* Cycles the busy knobs of ou held it, to `now` (removed ones included). */
u64 ksim_inject_busy_cycles(const struct ksim_obs_unit *ou, u64 now);

#endif /* KSIM_INJECT_H */
