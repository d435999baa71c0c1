/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Fault injection: the knobs of docs/spec/fault-injection.md "inject".
 * Every knob counts its events from the moment it is set, so a spec and a
 * host access sequence always give the same run.
 */
#ifndef KH_SIM_INJECT_H
#define KH_SIM_INJECT_H

#include "sim_obs.h"

enum kh_knob_kind {
	KH_KNOB_DROP,
	KH_KNOB_DUP,
	KH_KNOB_BUSY,
	KH_KNOB_FAULT,
	KH_KNOB_HANG,
	KH_KNOB_CTRL,
	KH_KNOB_DRAM,
	KH_KNOB_KINDS
};

enum kh_ctrl_field { KH_CF_VALUE, KH_CF_TXN, KH_CF_SRC, KH_CF_DROP };
enum kh_dram_op { KH_DOP_ANY, KH_DOP_READ, KH_DOP_WRITE };
enum kh_dram_data { KH_DD_ZERO, KH_DD_ONES, KH_DD_PATTERN };

struct kh_knob {
	struct kh_knob *next;		/* every knob of the card, by id */
	struct kh_knob *next_here;	/* on the same link, unit or mesh */
	u32 id;
	u8 kind, mesh, x, y;
	s8 type;			/* flit type, -1 any */
	u8 field, op, data_mode;
	bool forever;			/* count=forever (cycles=forever) */
	u64 count, after, passed, hits;
	u64 code, xor, addr, len;
	u32 data;
	u64 from, until;		/* busy */
	struct kh_obs_link *link;
	struct kh_obs_unit *unit;
};

/* words w[first..] after "inject": a knob, or "clear [ID]" */
int kh_inject_command(struct kh_obs *o, const struct kh_words *w,
		      unsigned int first, char *err, size_t errlen);
void kh_inject_list(struct kh_obs *o, struct kh_tbuf *tb);
void kh_inject_free(struct kh_obs *o);
/* the observer node's timer: the next busy knob edge */
void kh_inject_timer(struct kh_obs *o);

unsigned int kh_inject_link_xfer(struct kh_obs_link *ol, u64 now);
bool kh_inject_unit_busy(const struct kh_obs_unit *ou, u64 now);
void kh_inject_unit_done(struct kh_obs_unit *ou);
void kh_inject_unit_ctrl(struct kh_obs_unit *ou, struct kh_flit *reply);
void kh_inject_mem_read(struct kh_obs *o, struct kh_mag_port *mp, u64 a,
			u8 *buf);
bool kh_inject_mem_write(struct kh_obs *o, struct kh_mag_port *mp, u64 a);
u64 kh_inject_busy_cycles(const struct kh_obs_unit *ou, u64 now);

#endif /* KH_SIM_INJECT_H */
