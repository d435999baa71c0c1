/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Fault injection: the knobs of docs/spec/fault-injection.md "inject".
 * Every knob counts its events from the moment it is set, so a spec and a
 * host access sequence always give the same run.
 */
#ifndef KSIM_INJECT_H
#define KSIM_INJECT_H

#include "lex.h"
#include "obs.h"

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

/* words w[first..] after "inject": a knob, or "clear [ID]" */
int ksim_inject_command(struct ksim_obs *o, const struct ksim_words *w,
		      unsigned int first, char *err, size_t errlen);
/* "drop", "dup", ... for enum ksim_knob_kind; "?" past it */
const char *ksim_knob_kind_name(unsigned int kind);
void ksim_inject_free(struct ksim_obs *o);
/* the observer node's timer: the next busy knob edge */
void ksim_inject_timer(struct ksim_obs *o);

unsigned int ksim_inject_link_xfer(struct ksim_obs_link *ol, u64 now);
bool ksim_inject_unit_busy(const struct ksim_obs_unit *ou, u64 now);
void ksim_inject_unit_done(struct ksim_obs_unit *ou);
void ksim_inject_unit_ctrl(struct ksim_obs_unit *ou, struct kh_flit *reply);
void ksim_inject_mem_read(struct ksim_obs *o, struct ksim_mag_port *mp, u64 a,
			u8 *buf);
bool ksim_inject_mem_write(struct ksim_obs *o, struct ksim_mag_port *mp, u64 a);
u64 ksim_inject_busy_cycles(const struct ksim_obs_unit *ou, u64 now);
/*
 * An event of the XDMA engine's channel (c2h 0 or 1): event is
 * KSIM_XE_MAGIC (a descriptor fetched), KSIM_XE_FETCH (a descriptor block
 * fetch) or KSIM_XE_HOST (a descriptor's data transfer, the event of host
 * and slverr knobs).  Returns the error of the knob that acts on it, or -1.
 */
int ksim_inject_xdma(struct ksim_obs *o, unsigned int c2h, unsigned int event);

#endif /* KSIM_INJECT_H */
