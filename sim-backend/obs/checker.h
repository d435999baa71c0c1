/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The protocol checker: seed 001 §8.3's "must never do" list and the
 * conservation of flits, observed from outside the endpoints
 * (docs/spec/fault-injection.md "check").
 */
#ifndef KSIM_CHECK_H
#define KSIM_CHECK_H

#include "ksim_int.h"
#include "lex.h"
#include "obs.h"

#define KSIM_CHK_RECV_BOUND	100000ULL
#define KSIM_CHK_UNKNOWN_BOUND	1000ULL
#define KSIM_CHK_RETIRE_BOUND	10000000ULL
#define KSIM_CHK_AUDIT_PERIOD	65536ULL

/* words w[first..] after "check" */
int ksim_check_command(struct ksim_obs *o, const struct ksim_words *w,
		       unsigned int first, char *err, size_t errlen);
int ksim_check_enable(struct ksim_obs *o, bool on);
void ksim_check_free(struct ksim_obs *o);

/* links */
void ksim_check_refused(struct ksim_obs_link *ol, u64 now);
unsigned int ksim_check_xfer(struct ksim_obs_link *ol, u64 now);
void ksim_check_taken(struct ksim_obs_link *ol, u64 now);
/* a drop knob ate the transfer in progress */
void ksim_check_dropped(struct ksim_obs_link *ol);

/* units */
void ksim_check_unit_pre(struct ksim_obs_unit *ou);
void ksim_check_unit_send(struct ksim_obs_unit *ou, const struct kh_flit *f,
			bool ready);
void ksim_check_unit_pop(struct ksim_obs_unit *ou, const struct kh_flit *head);
void ksim_check_unit_done(struct ksim_obs_unit *ou);
void ksim_check_unit_post(struct ksim_obs_unit *ou, bool unit_progress);
void ksim_check_unit_reset(struct ksim_obs_unit *ou);

/* find lost and duplicated flits; judge sleeping units */
void ksim_chk_audit(struct ksim_obs *o);
void ksim_check_mesh_reset(struct ksim_obs *o, unsigned int mesh);
u64 ksim_chk_count(const struct ksim_obs *o, unsigned int what);
u64 ksim_check_violations(const struct ksim_obs *o);

#endif /* KSIM_CHECK_H */
