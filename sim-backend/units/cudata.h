/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The state of the one CU_DATA receiver (units/cudata.c), which every
 * unit type with a `cudata` policy (ksim_unit.h) shares: the burst being
 * counted and the SIG_DATA_RECEIVED acks waiting for the unit's send
 * path.  It lives in struct ksim_unit beside the base's FIFOs, so a mesh
 * reset clears it with the rest of the endpoint.
 */
#ifndef KSIM_CUDATA_H
#define KSIM_CUDATA_H

#include "ksim_unit.h"

struct ksim_unit;

/* One SIG_DATA_RECEIVED owed, built into a flit when the unit sends it. */
struct ksim_cd_pending {
	u64 at;			/* it may go from this cycle */
	u8 dx, dy, txn, buf;
};

struct ksim_cd {
	/* the burst being counted: one descriptor, then len + 1 data flits */
	bool on;
	bool refused;		/* counted out: nothing lands */
	bool signal;		/* the descriptor's flags[0] */
	u8 sx, sy;		/* the descriptor's source */
	u8 ax, ay;		/* where the ack goes */
	u8 txn, buf;
	u32 off, len;		/* the descriptor's offset and len */
	u32 i;			/* data flits taken so far */

	/* acks owed, oldest first */
	struct ksim_cd_pending ackq[KSIM_CD_ACKS_MAX];
	u8 ack_head, ack_n;
};

/* A mesh reset: no burst open, no ack owed. */
void ksim_unit_cd_reset(struct ksim_unit *u);

#endif /* KSIM_CUDATA_H */
