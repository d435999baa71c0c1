/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The model's observers: the protocol checker (obs/checker.c), fault
 * injection (obs/inject.c) and the event trace (obs/trace.c), and the hub
 * they register with (obs/obs.c), which the card creates with the handles
 * they need (struct ksim_obs_wiring) and never reads the card otherwise.
 *
 * The parts report through the watch ops their own floors declare
 * (struct ksim_link_watch_ops, noc/link.h; ksim_unit_watch_ops,
 * units/base.h; ksim_mesh_watch_ops, mesh/mesh.h; ksim_xdma_watch_ops,
 * xdma/xdma.h): no part includes obs/.  Each object's watch pointer
 * (struct ksim_link.obs, ksim_unit.obs, ksim_mesh.obs, ksim_xdma.obs) is
 * NULL while nothing observes it, so each hook site in the model is one
 * test of that pointer, and with everything off the model runs as if the
 * observers did not exist.  The hub implements the watch ops: it calls
 * every registered observer's struct ksim_observer_ops in the order they
 * registered (card/card.c: check, inject, trace), which is the order
 * behind every hook:
 *
 *   1. check  the checker tags flits as they enter the mesh, so the knobs
 *             and the trace see the tags;
 *   2. inject the knobs change what happens (a drop, a fault, ...);
 *   3. trace  the trace records what happened, the knobs' doing included.
 *
 * Observers never change what the model does, except where a knob says
 * so.  One observer learns of another's doing only through the hub: a
 * knob firing and a violation are events every observer is told
 * (ksim_obs_event()), a drop knob's loss is told to all (link_dropped).
 */
#ifndef KSIM_OBS_H
#define KSIM_OBS_H

#include "ksim_plat.h"
#include "events.h"
#include "lex.h"
#include "link.h"
#include "mesh.h"
#include "sched.h"
#include "xdma.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>

struct ksim_obs;
struct ksim_observer;
struct ksim_knob;

/* what a link connects, from the checker's point of view */
enum ksim_lclass {
	KSIM_LC_BIRTH,		/* an endpoint into a router: flits start here */
	KSIM_LC_HOP,		/* router to router */
	KSIM_LC_DELIVER,		/* router to an endpoint */
	KSIM_LC_TIEOFF,		/* router to the tie-off: the hardware drops */
	KSIM_LC_DIRECT,		/* anything else: not followed */
};

/* The hub's record of a link, with each observer's fields. */
struct ksim_obs_link {
	struct ksim_link_watch watch;	/* what the link reports to */
	struct ksim_obs *obs;
	struct ksim_link *l;
	struct ksim_node *sender;		/* the node whose output this is */
	struct ksim_node *rxnode;		/* where a taken flit is next */
	u8 cls;				/* enum ksim_lclass */
	char name[16];			/* "R1,1.E", "2,1" */
	/* the checker's */
	bool refused;			/* busy this cycle: must still hold */
	u32 last_tag;			/* the last tag taken from this register */
	u32 xfer_tag;			/* the tag of the transfer in progress */
	bool r3_done;			/* rule 3 reported for this link */
	struct kh_flit held;		/* the refused flit (rule 1) */
	/* the knobs' */
	struct ksim_knob *knobs;		/* drop/dup knobs on this link */
	bool kept;			/* the register holds a kept copy */
	u32 inj_dup_tag;		/* a dup knob kept this tag (the checker
					 * counts its copy, no violation) */
};

/* The hub's record of a unit, with each observer's fields. */
struct ksim_obs_unit {
	struct ksim_unit_watch watch;	/* what the unit reports to */
	struct ksim_obs *obs;
	struct ksim_unit *u;
	/* the checker's */
	u64 stuck_since;		/* rule 4: idle with the recv head held */
	u64 head_since;			/* rule 5: the recv head's arrival */
	u64 idle_since;			/* rule 7: idle with one in flight */
	bool r4_done, r5_done, r7_done, r9_over;
	bool idle_mem_said;		/* KSIM_CHK_IDLE_MEM reported */
	bool send_prev, send_refused, send_matched, send_offered;
	bool done_seen;			/* exec_done this cycle, judged in post */
	bool done_accept, done_in_flight;	/* ... with inst_ready; in flight */
	u32 outstanding;		/* rule 9: MEM_RD_RESP beats owed */
	struct kh_flit send_held;	/* the refused send_* offer */
	/* the trace's */
	bool accept_traced;		/* this cycle's accept is in the trace */
	/* the knobs' */
	struct ksim_knob *knobs;		/* busy/fault/hang/ctrl knobs */
	bool hung;			/* a hang knob holds the instruction (the
					 * checker's rule 7 waits on no such unit) */
	bool ctrl_drop;			/* the pending reply is to be lost */
	u64 faults_injected, hangs_injected, ctrl_corrupted, busy_cycles;
};

/**
 * struct ksim_observer_ops - what an observer is told, and when
 * @name: its command's first word ("check", "inject", "trace").
 * @command: the words w[first..] after @name; 0 or -EINVAL with a
 *	message in err.
 * @fini: the card is going: a last word (the checker's audit), then free.
 * @watch_link: does it watch this link now?  (ksim_obs_attach())
 * @watch_unit: ... this unit?
 * @watch_mesh: ... this mesh (its MAG, orchestrator and reset)?
 * @watch_card: ... the card's DMA (the XDMA engine, the bulk copy)?
 * @watch_regs: ... the host's register accesses (BAR0, BAR1)?
 * @link_refused: the link's receiver did not take the held flit.
 * @link_xfer: the receiver takes it now: KSIM_XFER_* bits to add to act,
 *	the bits the observers before it returned.
 * @link_dropped: after every link_xfer: a knob dropped the transfer.
 * @link_taken: after the take, when an observer asked (KSIM_XFER_TAKEN).
 * @unit_busy: true holds the unit's noc_in_busy high.
 * @unit_pre: before the unit's tick.
 * @unit_send: the unit offers f on send_*, ready or not.
 * @unit_pop: the unit consumes its receive head.
 * @unit_done: exec_done; knobs may change it (the unit's p_* pulses).
 * @unit_post: the cycle's pulses are all in.
 * @unit_ctrl: a CU_CTRL request captured, or dropped.
 * @unit_reply: the reply to a captured request is built: knobs may change it.
 * @unit_reply_out: the reply leaves; lost says whether an observer
 *	before it loses it: returns whether it is lost.
 * @unit_drop: the unit dropped a received flit.
 * @unit_reset: a mesh reset cleared the unit.
 * @mem_read: a unit-path DRAM read beat (data in buf, which may change).
 * @mem_write: a unit-path DRAM write beat about to land: true loses it.
 * @mem_nodata: MEM_WR_DATA that matched no slot.
 * @orch: the orchestrator's event ev (enum ksim_orch_ev).
 * @mesh_reset: a mesh reset: what was in flight there is gone.
 * @dma: a bulk copy (ksim_dma_write/read()), costing cost cycles plus its
 *	beats.
 * @xdma_knob: the XDMA engine's event (struct ksim_xdma_watch_ops.knob):
 *	an error (enum ksim_xdma_err) or -1.
 * @xdma_event: what the XDMA engine did.
 * @host_reg: a host register access: mesh (0xff: no mesh's window),
 *	offset in its BAR, value read or written, KSIM_TRR_* flags.
 * @event: another observer's event (a violation, a knob firing).
 *
 * Every op may be NULL.  Each is called for every observer in the order
 * of registration; the observer decides whether it is on.
 */
struct ksim_observer_ops {
	const char *name;
	int (*command)(struct ksim_observer *ob, const struct ksim_words *w,
		       unsigned int first, char *err, size_t errlen);
	void (*fini)(struct ksim_observer *ob);
	bool (*watch_link)(struct ksim_observer *ob,
			   const struct ksim_obs_link *ol);
	bool (*watch_unit)(struct ksim_observer *ob,
			   const struct ksim_obs_unit *ou);
	bool (*watch_mesh)(struct ksim_observer *ob, unsigned int mesh);
	bool (*watch_card)(struct ksim_observer *ob);
	bool (*watch_regs)(struct ksim_observer *ob);
	void (*link_refused)(struct ksim_observer *ob, struct ksim_obs_link *ol,
			     u64 now);
	unsigned int (*link_xfer)(struct ksim_observer *ob,
				  struct ksim_obs_link *ol, u64 now,
				  unsigned int act);
	void (*link_dropped)(struct ksim_observer *ob, struct ksim_obs_link *ol);
	void (*link_taken)(struct ksim_observer *ob, struct ksim_obs_link *ol,
			   u64 now);
	bool (*unit_busy)(struct ksim_observer *ob,
			  const struct ksim_obs_unit *ou, u64 now);
	void (*unit_pre)(struct ksim_observer *ob, struct ksim_obs_unit *ou);
	void (*unit_send)(struct ksim_observer *ob, struct ksim_obs_unit *ou,
			  const struct kh_flit *f, bool ready);
	void (*unit_pop)(struct ksim_observer *ob, struct ksim_obs_unit *ou,
			 const struct kh_flit *head);
	void (*unit_done)(struct ksim_observer *ob, struct ksim_obs_unit *ou);
	void (*unit_post)(struct ksim_observer *ob, struct ksim_obs_unit *ou,
			  bool unit_progress);
	void (*unit_ctrl)(struct ksim_observer *ob, struct ksim_obs_unit *ou,
			  const struct kh_flit *req, bool dropped);
	void (*unit_reply)(struct ksim_observer *ob, struct ksim_obs_unit *ou,
			   struct kh_flit *reply);
	bool (*unit_reply_out)(struct ksim_observer *ob,
			       struct ksim_obs_unit *ou, bool lost);
	void (*unit_drop)(struct ksim_observer *ob, struct ksim_obs_unit *ou,
			  const struct kh_flit *f);
	void (*unit_reset)(struct ksim_observer *ob, struct ksim_obs_unit *ou);
	void (*mem_read)(struct ksim_observer *ob, struct ksim_mag_port *mp,
			 u64 a, u8 *buf);
	bool (*mem_write)(struct ksim_observer *ob, struct ksim_mag_port *mp,
			  u64 a);
	void (*mem_nodata)(struct ksim_observer *ob, struct ksim_mag_port *mp,
			   const struct kh_flit *f);
	void (*orch)(struct ksim_observer *ob, struct ksim_orch *orc,
		     unsigned int ev, const struct kh_flit *f);
	void (*mesh_reset)(struct ksim_observer *ob, unsigned int mesh);
	void (*dma)(struct ksim_observer *ob, bool write, u64 addr, size_t len,
		    int result, u32 cost);
	int (*xdma_knob)(struct ksim_observer *ob, unsigned int c2h,
			 unsigned int event);
	void (*xdma_event)(struct ksim_observer *ob,
			   const struct ksim_xdma_event *ev);
	void (*host_reg)(struct ksim_observer *ob, unsigned int mesh, u32 off,
			 u64 v, unsigned int flags);
	void (*event)(struct ksim_observer *ob, const struct ksim_trace_ev *ev);
};

/* An observer: embedded in its own state, registered with the hub. */
struct ksim_observer {
	const struct ksim_observer_ops *ops;
	struct ksim_obs *obs;		/* the hub, set by ksim_obs_register() */
};

/*
 * What the card gives its observers (card/card.c): everything they read
 * of it, so they never include a card header.
 */
struct ksim_obs_wiring {
	struct ksim_sched *sched;
	struct ksim_mesh *const *mesh;	/* mesh[i] is mesh i, n_mesh of them */
	unsigned int n_mesh;
	struct ksim_xdma *xdma;
	u32 clock_mhz;			/* the trace's header */
	/*
	 * `inject reset`: mesh's clock wizard takes an SW_RST write, as
	 * from another agent on the card's bus (card/clkwiz.c)
	 */
	void (*wizard_reset)(void *ctx, unsigned int mesh);
	/*
	 * The register(s) a host access of BAR bar at off reaches, for a
	 * trace line, as snprintf ("orch PROG_KICK"; card/bar.c)
	 */
	int (*reg_name)(unsigned int bar, u32 off, bool wide, char *b,
			size_t n);
	void *ctx;
	/* tests: called with every violation message (struct ksim_opts) */
	void (*violation)(void *ctx, const char *msg);
	void *violation_ctx;
};

#define KSIM_OBSERVERS_MAX	4

struct ksim_obs {
	struct ksim_obs_wiring w;
	/* the observers, in the order every hook reaches them */
	struct ksim_observer *list[KSIM_OBSERVERS_MAX];
	unsigned int n_list;
	unsigned int n_links;
	struct ksim_obs_link *links;
	unsigned int n_units;
	struct ksim_obs_unit *units;
	/* what the meshes and the XDMA engine report to while watched */
	struct ksim_mesh_watch mesh_watch;
	struct ksim_xdma_watch xdma_watch;
	bool dma_watched;		/* the card's bulk copy: ksim_obs_dma() */
	bool regs_watched;		/* host accesses: ksim_obs_host_reg() */
};

/* ---- life cycle (card/card.c) ---- */
struct ksim_obs *ksim_obs_create(const struct ksim_obs_wiring *w, int *err);
/* Register ob last; before the card's scheduler is finalized. */
int ksim_obs_register(struct ksim_obs *o, struct ksim_observer *ob);
/* The card is wired and its scheduler finalized: the records. */
int ksim_obs_start(struct ksim_obs *o);
/* Every observer's fini, in order, then the hub; NULL does nothing. */
void ksim_obs_destroy(struct ksim_obs *o);

/* Point the model's objects at the hub where an observer watches them. */
void ksim_obs_attach(struct ksim_obs *o);
/* One command line, to the observer its first word names (obs/command.c). */
int ksim_obs_command(struct ksim_obs *o, const char *line, size_t len,
		     char *err, size_t errlen);
/* The card's bulk copy (card/cardbus.c), while dma_watched. */
void ksim_obs_dma(struct ksim_obs *o, bool write, u64 addr, size_t len,
		  int result, u32 cost);
/* A host register access (card/bar.c), while regs_watched. */
void ksim_obs_host_reg(struct ksim_obs *o, unsigned int mesh, u32 off, u64 v,
		       unsigned int flags);
/* Tell every observer of ev: a violation, a knob firing (the trace's). */
void ksim_obs_event(struct ksim_obs *o, const struct ksim_trace_ev *ev);

/* the record of a link or a unit; NULL for NULL or one not on the card */
struct ksim_obs_link *ksim_obs_link_of(struct ksim_obs *o,
				       const struct ksim_link *l);
struct ksim_obs_unit *ksim_obs_unit_of(struct ksim_obs *o,
				       const struct ksim_unit *u);
/* "mesh 0 unit (2,1) null!" */
void ksim_obs_unit_name(const struct ksim_obs_unit *ou, char *buf, size_t len);

/*
 * The card's cycle: traces, checker bounds and knob windows are in global
 * cycles whatever the clock of the mesh they look at.
 */
static inline u64 ksim_obs_now(const struct ksim_obs *o)
{
	return o->w.sched->now;
}

/* tags: bits [319:288] of a flit, which the 288-bit flit does not have */
static inline u32 ksim_flit_tag(const struct kh_flit *f)
{
	return (u32)(f->w[4] >> 32);
}

static inline void ksim_flit_set_tag(struct kh_flit *f, u32 tag)
{
	f->w[4] = (f->w[4] & 0xffffffffULL) | ((u64)tag << 32);
}

#endif /* KSIM_OBS_H */
