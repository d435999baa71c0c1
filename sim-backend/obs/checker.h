/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The protocol checker: seed 001 §8.3's "must never do" list and the
 * conservation of flits, observed from outside the endpoints
 * (docs/spec/fault-injection.md "check").  An observer (obs/obs.h), the
 * first one registered: it tags flits as they enter the mesh.
 */
#ifndef KSIM_CHECK_H
#define KSIM_CHECK_H

#include "obs.h"
#include "tbuf.h"

#define KSIM_CHK_RECV_BOUND	100000ULL
#define KSIM_CHK_UNKNOWN_BOUND	1000ULL
#define KSIM_CHK_RETIRE_BOUND	10000000ULL
#define KSIM_CHK_AUDIT_PERIOD	65536ULL

struct ksim_check;

/* A checker, off, registered with the hub (card/card.c, before finalize). */
struct ksim_check *ksim_check_create(struct ksim_obs *o, int *err);
int ksim_check_enable(struct ksim_check *c, bool on);
bool ksim_check_on(const struct ksim_check *c);
/* it has been on: its bounds and counts are there to report */
bool ksim_check_armed(const struct ksim_check *c);

/*
 * The clock wizard of mesh `mesh` driven against its rules (card/clkwiz.c,
 * kohakutpu.md 8.5): a violation, when the checker is on.
 */
void ksim_chk_clock(struct ksim_check *c, unsigned int mesh, const char *msg);
/* find lost and duplicated flits; judge sleeping units */
void ksim_chk_audit(struct ksim_check *c);
u64 ksim_chk_count(const struct ksim_check *c, unsigned int what);
u64 ksim_check_violations(const struct ksim_check *c);
/* the report: an audit first, then the counts and the last messages */
void ksim_chk_report(struct ksim_check *c, struct ksim_tbuf *tb);

#endif /* KSIM_CHECK_H */
