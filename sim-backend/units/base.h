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
#include "log.h"
#include "sched.h"
#include <kohaku/kh_units.h>

struct ksim_params;
struct ksim_unit;
struct ksim_unit_watch;

/*
 * What an endpoint reports to whoever watches it (the observers implement
 * it, obs/obs.c), at the points of its cycle where the datapath's pulses
 * are known:
 *
 *   busy      noc_in_busy is asked: true holds it high (a busy knob)
 *   pre       before the unit's tick
 *   send      the unit offers f on send_*, ready or not
 *   pop       recv_ready: the receive head is consumed
 *   done      exec_done, before the base acts on it: p_fault/p_result or
 *             p_done may be changed (fault and hang knobs)
 *   post      the cycle's pulses are all in (unit_progress: tick's answer)
 *   ctrl      a CU_CTRL request captured, its reply built in ctrl_reply
 *             (which may be changed), or dropped (a reply was pending)
 *   ctrl_send the pending reply leaves: true when it is to be lost
 *   drop      the unit dropped a received flit
 *   reset     a mesh reset cleared the endpoint
 */
struct ksim_unit_watch_ops {
	bool (*busy)(struct ksim_unit_watch *w, const struct ksim_unit *u);
	void (*pre)(struct ksim_unit_watch *w, struct ksim_unit *u);
	void (*send)(struct ksim_unit_watch *w, struct ksim_unit *u,
		     const struct kh_flit *f, bool ready);
	void (*pop)(struct ksim_unit_watch *w, struct ksim_unit *u,
		    const struct kh_flit *head);
	void (*done)(struct ksim_unit_watch *w, struct ksim_unit *u);
	void (*post)(struct ksim_unit_watch *w, struct ksim_unit *u,
		     bool unit_progress);
	void (*ctrl)(struct ksim_unit_watch *w, struct ksim_unit *u,
		     const struct kh_flit *req, bool dropped);
	bool (*ctrl_send)(struct ksim_unit_watch *w, struct ksim_unit *u);
	void (*drop)(struct ksim_unit_watch *w, struct ksim_unit *u,
		     const struct kh_flit *f);
	void (*reset)(struct ksim_unit_watch *w, struct ksim_unit *u);
};

struct ksim_unit_watch {
	const struct ksim_unit_watch_ops *ops;
};

/*
 * What a mesh gives each unit endpoint it builds (mesh/mesh.c fills one
 * per mesh, before its first unit): the unit never names its mesh.
 */
struct ksim_unit_env {
	struct ksim_sched *sched;	/* time, timers, wake-ups */
	struct ksim_log *log;		/* diagnostics (ksim_mesh_log()) */
	const struct ksim_params *p;	/* the mesh's parameters */
	unsigned int id;		/* the mesh's index on the card */
	/* by row: the MAG port a unit there sends memory requests to */
	u8 mag_x[1u << KH_POS_WIDTH], mag_y[1u << KH_POS_WIDTH];
};

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
	const struct ksim_unit_env *mesh;	/* what its mesh gave it */
	const struct ksim_unit_type *type;
	u8 x, y;

	struct ksim_fifo inst;		/* INST_DEPTH */
	struct ksim_fifo recv;		/* RECV_DEPTH */
	/*
	 * The cycle of each FIFO's last push: a first-word fall-through FIFO
	 * shows a flit written at an edge to the logic that registers at the
	 * next (noc_cu_base.v u_inst and u_recv), so the unit sees it a
	 * cycle after the transfer (a head pushed in tick_now is hidden).
	 */
	u64 inst_at, recv_at;
	u64 tick_now;			/* the cycle of the tick under way */

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

	/* its watcher: NULL while nothing observes it (one test a hook) */
	struct ksim_unit_watch *obs;

	void *priv;

	/*
	 * the CU_DATA receiver (cudata.c), for a type with a cudata policy
	 * only: out of line, because every node of a mesh is visited each
	 * cycle and 160 bytes more in each unit made an 8x8 mesh of idle
	 * awake nodes 15 % slower (docs/model.md "Performance")
	 */
	struct ksim_cd *cd;
};

struct ksim_unit *ksim_unit_create(const struct ksim_unit_env *m,
			       const struct ksim_unit_type *type,
			       unsigned int x, unsigned int y, int *err);
void ksim_unit_destroy(struct ksim_unit *u);
void ksim_unit_reset(struct ksim_unit *u);
u64 ksim_unit_busy_cycles(const struct ksim_unit *u);

#endif /* KSIM_BASE_H */
