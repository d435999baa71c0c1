/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * noc_cu_base: the endpoint every compute unit sits behind (seed 001
 * §3-§6).  struct ksim_unit is the base plus the unit's private state; unit
 * models see it only through ksim_unit.h.
 */
#ifndef KSIM_BASE_H
#define KSIM_BASE_H

#include "ksim_unit.h"
#include "cudata.h"
#include "fifo.h"
#include "link.h"
#include "sched.h"
#include <kohaku/kh_units.h>

struct ksim_mesh;

/* One queued completion (CU_SIGNAL), built into a flit when it leaves. */
struct ksim_sig {
	u8 code;
	u8 dx, dy;
	u8 txn;
	u32 arg;
};

struct ksim_unit {
	struct ksim_node node;
	struct ksim_sink sink;		/* noc_in_* */
	struct ksim_link out;		/* noc_out_*: the one outbound register */
	struct ksim_mesh *mesh;
	const struct ksim_unit_type *type;
	u8 x, y;

	struct ksim_fifo inst;		/* INST_DEPTH */
	struct ksim_fifo recv;		/* RECV_DEPTH */

	/* completion queue, KH_CU_SIG_DEPTH deep */
	struct ksim_sig sigq[KH_CU_SIG_DEPTH];
	u8 sig_head, sig_count;

	/* CU_CTRL: exactly one pending reply */
	bool ctrl_pend;
	u64 ctrl_at;			/* capture cycle */
	struct kh_flit ctrl_reply;
	u64 ctrl_dropped;		/* requests lost to a pending reply */

	/* the one instruction in flight */
	bool in_flight;
	u8 cur_sx, cur_sy, cur_txn;
	bool cur_last;

	/* CU_COUNTERS, cleared only by reset; busy cycles kept lazily */
	u32 retired;
	bool busy;
	u64 busy_acc;			/* busy cycles before busy_since */
	u64 busy_since;
	u64 dbg;

	/* this cycle's handshake pulses */
	bool p_accept, p_done, p_fault, p_pop, p_sent, p_ready;
	u32 p_result;

	/* model-only statistics, never reset */
	u64 dropped;			/* flits the unit dropped */
	u64 lost_completions;		/* exec_done with nothing in flight */
	u64 n_accepted, n_retired, n_signals;
	u64 n_sent;			/* send_* flits taken */
	u64 n_taken;			/* flits taken off the link */

	/* observers (obs/obs.h): NULL unless checked, traced or injected */
	struct ksim_obs_unit *obs;

	void *priv;

	/* the CU_DATA receiver (cudata.c); last, off the base's hot lines */
	struct ksim_cd cd;
};

struct ksim_unit *ksim_unit_create(struct ksim_mesh *m,
			       const struct ksim_unit_type *type,
			       unsigned int x, unsigned int y, int *err);
void ksim_unit_destroy(struct ksim_unit *u);
void ksim_unit_reset(struct ksim_unit *u);
u64 ksim_unit_busy_cycles(const struct ksim_unit *u);

#endif /* KSIM_BASE_H */
