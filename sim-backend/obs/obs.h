/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The model's observers: the protocol checker (obs/checker.c), fault
 * injection (obs/inject.c) and the event trace (obs/trace.c), the hooks
 * the model calls (obs/obs.c) and the commands that drive them
 * (obs/command.c; docs/spec/fault-injection.md).
 *
 * They reach the model through per-object pointers that are NULL while
 * nothing observes that object: struct ksim_link.obs, struct ksim_unit.obs,
 * struct ksim_mesh.obs.  Each hook site in the model is one test of such a
 * pointer, so with everything off the model runs as if they did not
 * exist.  Observers never change what the model does, except where a knob
 * says so.
 */
#ifndef KSIM_OBS_H
#define KSIM_OBS_H

#include "ksim_plat.h"
#include "link.h"
#include "sched.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>

struct ksim_card;
struct ksim_unit;
struct ksim_mesh;
struct ksim_orch;
struct ksim_mag_port;
struct ksim_knob;
struct ksim_check;
struct ksim_trace;
struct ksim_desc;
struct ksim_opts;

/* ksim_obs_link_xfer() result bits, acted on by ksim_link_step() */
#define KSIM_XFER_DROP	1u	/* the receiver does not take the flit */
#define KSIM_XFER_KEEP	2u	/* the sender keeps holding it (a duplicate) */
#define KSIM_XFER_COPY	4u	/* the receiver takes the copy, tag stripped */
#define KSIM_XFER_TAKEN	8u	/* call ksim_obs_link_taken() after the take */

/* what a link connects, from the checker's point of view */
enum ksim_lclass {
	KSIM_LC_BIRTH,		/* an endpoint into a router: flits start here */
	KSIM_LC_HOP,		/* router to router */
	KSIM_LC_DELIVER,		/* router to an endpoint */
	KSIM_LC_TIEOFF,		/* router to the tie-off: the hardware drops */
	KSIM_LC_DIRECT,		/* anything else: not followed */
};

struct ksim_obs_link {
	struct ksim_obs *obs;
	struct ksim_link *l;
	struct ksim_node *sender;		/* the node whose output this is */
	struct ksim_node *rxnode;		/* where a taken flit is next */
	u8 cls;				/* enum ksim_lclass */
	bool refused;			/* busy this cycle: must still hold */
	u32 last_tag;			/* the last tag taken from this register */
	u32 xfer_tag;			/* the tag of the transfer in progress */
	u32 inj_dup_tag;		/* a dup knob kept this tag */
	bool kept;			/* the register holds a kept copy */
	bool r3_done;			/* rule 3 reported for this link */
	struct kh_flit held;		/* the refused flit (rule 1) */
	struct ksim_knob *knobs;		/* drop/dup knobs on this link */
	char name[16];			/* "R1,1.E", "2,1" */
};

struct ksim_obs_unit {
	struct ksim_obs *obs;
	struct ksim_unit *u;
	/* checker */
	u64 stuck_since;		/* rule 4: idle with the recv head held */
	u64 head_since;			/* rule 5: the recv head's arrival */
	u64 idle_since;			/* rule 7: idle with one in flight */
	bool r4_done, r5_done, r7_done, r9_over;
	bool send_prev, send_refused, send_matched, send_offered;
	u32 outstanding;		/* rule 9: MEM_RD_RESP beats owed */
	u8 retire_code;			/* this cycle's completion, for the trace */
	u32 retire_arg;
	bool accept_traced;		/* this cycle's accept is in the trace */
	struct kh_flit send_held;	/* the refused send_* offer */
	/* injection */
	struct ksim_knob *knobs;		/* busy/fault/hang/ctrl knobs */
	bool hung;			/* a hang knob holds the instruction */
	bool ctrl_drop;			/* the pending reply is to be lost */
	u64 busy_from, busy_until;	/* the busy knobs' union, or KSIM_NEVER */
	u64 faults_injected, hangs_injected, ctrl_corrupted, busy_cycles;
};

struct ksim_obs_mesh {
	struct ksim_knob *dram;		/* dram knobs */
	u64 dram_rd_errors, dram_wr_errors;
};

struct ksim_obs {
	struct ksim_card *card;
	struct ksim_node node;		/* a timer for time-driven knobs */
	bool check_on, trace_on;
	u32 trace_mask;			/* KSIM_TRC_* */
	bool attached;			/* links/units point at us */
	unsigned int n_links;
	struct ksim_obs_link *links;
	unsigned int n_units;
	struct ksim_obs_unit *units;
	struct ksim_obs_mesh mesh[KH_MAX_MESHES];
	struct ksim_check *chk;
	struct ksim_trace *tr;
	struct ksim_knob *knobs;		/* every knob, in id order */
	struct ksim_knob *xdma;		/* xdma knobs (the card's engine) */
	u32 next_knob;
	/* tests: called with every violation message */
	void (*violation)(void *ctx, const char *msg);
	void *violation_ctx;
};

/* attach or detach the per-object pointers after a change */
void ksim_obs_attach(struct ksim_obs *o);
/* the record of a link or a unit; NULL for NULL or one not on the card */
struct ksim_obs_link *ksim_obs_link_of(struct ksim_obs *o,
				       const struct ksim_link *l);
struct ksim_obs_unit *ksim_obs_unit_of(struct ksim_obs *o,
				       const struct ksim_unit *u);

/* "mesh 0 unit (2,1) null!" */
void ksim_obs_unit_name(const struct ksim_obs_unit *ou, char *buf, size_t len);
/* violations and injections also go to the trace */
void ksim_obs_trace_viol(struct ksim_obs *o, u64 cycle, unsigned int rule,
		       unsigned int mesh, unsigned int x, unsigned int y);

/* tags: bits [319:288] of a flit, which the 288-bit flit does not have */
static inline u32 ksim_flit_tag(const struct kh_flit *f)
{
	return (u32)(f->w[4] >> 32);
}

static inline void ksim_flit_set_tag(struct kh_flit *f, u32 tag)
{
	f->w[4] = (f->w[4] & 0xffffffffULL) | ((u64)tag << 32);
}

/* ---- life cycle (card/card.c) ---- */
int ksim_obs_create(struct ksim_card *card);
int ksim_obs_start(struct ksim_card *card, const struct ksim_desc *d,
		 const struct ksim_opts *opts, char *err, size_t errlen);
void ksim_obs_destroy(struct ksim_card *card);
/* a mesh reset discards what is in flight there */
void ksim_obs_mesh_reset(struct ksim_card *card, unsigned int mesh);
/* the description's inject/check/trace lines (obs/command.c) */
int ksim_command_lines(struct ksim_obs *o, const struct ksim_desc *d,
		       char *err, size_t errlen);

/* ---- links (noc/link.c) ---- */
void ksim_obs_link_refused(struct ksim_link *l, u64 now);
unsigned int ksim_obs_link_xfer(struct ksim_link *l, u64 now,
			      struct kh_flit *copy);
void ksim_obs_link_taken(struct ksim_link *l, u64 now);

/* ---- units (units/base.c) ---- */
bool ksim_obs_unit_busy(const struct ksim_unit *u);
void ksim_obs_unit_pre(struct ksim_unit *u);
void ksim_obs_unit_send(struct ksim_unit *u, const struct kh_flit *f, bool ready);
void ksim_obs_unit_pop(struct ksim_unit *u, const struct kh_flit *head);
void ksim_obs_unit_done(struct ksim_unit *u);
void ksim_obs_unit_post(struct ksim_unit *u, bool unit_progress);
void ksim_obs_unit_ctrl(struct ksim_unit *u, const struct kh_flit *req,
		      bool dropped);
/* the pending reply leaves: true when a knob loses it */
bool ksim_obs_unit_ctrl_send(struct ksim_unit *u);
void ksim_obs_unit_drop(struct ksim_unit *u, const struct kh_flit *f);
void ksim_obs_unit_reset(struct ksim_unit *u);

/* ---- MAG and orchestrator (mesh/mag.c, mesh/orch.c) ---- */
/* a unit-path DRAM read beat at offset a, data in buf (may be replaced) */
void ksim_obs_mem_read(struct ksim_mag_port *mp, u64 a, u8 *buf);
/* a unit-path DRAM write beat at a about to land: true when a knob loses it */
bool ksim_obs_mem_write(struct ksim_mag_port *mp, u64 a);
/* MEM_WR_DATA that matched no slot */
void ksim_obs_mem_nodata(struct ksim_mag_port *mp, const struct kh_flit *f);

enum ksim_obs_orch_ev {
	KSIM_OBS_DISPATCH,	/* the dispatcher pushed f */
	KSIM_OBS_MBOX,		/* TX_KICK pushed f */
	KSIM_OBS_SIGNAL,		/* a CU_SIGNAL absorbed */
	KSIM_OBS_RX_DROP,		/* RX full: f dropped */
};
void ksim_obs_orch(struct ksim_orch *o, unsigned int ev, const struct kh_flit *f);

/* host DMA (card/cardbus.c) */
void ksim_obs_dma(struct ksim_card *card, bool write, u64 addr, size_t len,
		int result);

#endif /* KSIM_OBS_H */
