/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The protocol checker: seed 001 §8.3's "must never do" list and the
 * conservation of flits, observed from outside the endpoints
 * (docs/spec/fault-injection.md "check").
 */
#ifndef KH_SIM_CHECK_H
#define KH_SIM_CHECK_H

#include "sim_obs.h"

/* what the checker counts; KH_CHK_R1..R9 are the rules of §8.3 */
enum kh_chk_count {
	KH_CHK_R1 = 1,		/* withdrew an offered flit */
	KH_CHK_R2,		/* accepted outside valid && !busy */
	KH_CHK_R3,		/* busy depends on the offered flit */
	KH_CHK_R4,		/* blocked on the receive path */
	KH_CHK_R5,		/* held a flit of an unknown type */
	KH_CHK_R6,		/* exec_done in the inst_ready cycle */
	KH_CHK_R7,		/* retired twice or never */
	KH_CHK_R8,		/* sent a framework completion code */
	KH_CHK_R9,		/* more requests out than recv can absorb */
	KH_CHK_LOST,		/* a flit vanished */
	KH_CHK_DUP,		/* a flit seen twice */
	KH_CHK_N_VIOL,		/* the above are violations */
	KH_CHK_LOST_INJ = KH_CHK_N_VIOL, /* losses a drop knob caused */
	KH_CHK_DUP_INJ,		/* duplicates a dup knob caused */
	KH_CHK_BORN,		/* flits followed */
	KH_CHK_DELIVERED,
	KH_CHK_TIEOFF,		/* dropped by a tied-off port */
	KH_CHK_WITHDRAWN,	/* lost to a rule 1 withdrawal */
	KH_CHK_N
};

#define KH_CHK_RECV_BOUND	100000ULL
#define KH_CHK_UNKNOWN_BOUND	1000ULL
#define KH_CHK_RETIRE_BOUND	10000000ULL
#define KH_CHK_AUDIT_PERIOD	65536ULL

int kh_check_enable(struct kh_obs *o, bool on);
void kh_check_free(struct kh_obs *o);
void kh_check_bounds(struct kh_obs *o, u64 recv, u64 unknown, u64 retire);

/* links */
void kh_check_refused(struct kh_obs_link *ol, u64 now);
unsigned int kh_check_xfer(struct kh_obs_link *ol, u64 now);
void kh_check_taken(struct kh_obs_link *ol, u64 now);
/* a drop knob ate the transfer in progress */
void kh_check_dropped(struct kh_obs_link *ol);
/* the scheduler's end-of-cycle hook */
void kh_check_post_cycle(void *ctx);

/* units */
void kh_check_unit_pre(struct kh_obs_unit *ou);
void kh_check_unit_send(struct kh_obs_unit *ou, const struct kh_flit *f,
			bool ready);
void kh_check_unit_pop(struct kh_obs_unit *ou, const struct kh_flit *head);
void kh_check_unit_done(struct kh_obs_unit *ou);
void kh_check_unit_post(struct kh_obs_unit *ou, bool unit_progress);
void kh_check_unit_reset(struct kh_obs_unit *ou);

/* find lost and duplicated flits; judge sleeping units */
void kh_check_audit(struct kh_obs *o);
void kh_check_mesh_reset(struct kh_obs *o, unsigned int mesh);
u64 kh_check_count(const struct kh_obs *o, unsigned int what);
u64 kh_check_violations(const struct kh_obs *o);

struct kh_tbuf;
void kh_check_report(struct kh_obs *o, struct kh_tbuf *tb);

#endif /* KH_SIM_CHECK_H */
