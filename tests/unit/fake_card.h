/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A scripted fake card behind the register-access seam (hwif/kh_hw.h), for
 * testing the driver core's bring-up and job engine without the device
 * model.  It implements one mesh's orchestrator window (kohakutpu.md 4.2)
 * and just enough of the nodes behind it: CU_CTRL replies through the
 * mailbox, CU_INST through the dispatcher with the credit rules of 4.3/4.4,
 * completions into NODE_STATUS, and AUX_STAT's landed-write counter.  The
 * other mesh windows read 0.
 *
 * Time is the fake's own: every register access advances it by a step
 * (100 ns unless the test changes it), idle_ns and fake_jump() move it
 * further, and everything the script says happens at a time (a reply, a
 * pushed flit, a completion, a landed write) happens, in time order, before
 * the first access at or after that time.  So the core sees a signal that
 * landed between two of its accesses exactly as on a card, and a run is
 * the same every time whichever thread does the core's polling.
 *
 * The fake checks the rules the core promises to keep and counts each
 * broken one as a violation (fake_observe()): a second CU_CTRL to a port
 * with one pending, more instructions outstanding at a node than its
 * inst_depth, a staging slot written while the dispatcher still has to
 * read it, a kick the orchestrator would ignore, and the like.
 *
 * fake_set_ctrl32() makes it a card's host: the control space in 32-bit
 * accesses only (KH_HW_CTRL32; no read64/write64 op), each access one beat
 * as noc_orchestrator.v takes it (docs/spec/xdma.md "BAR0 in 32 bits"):
 * a named register takes a write at +0 whole and ignores one at +4, and
 * reads 0 at +4; TX_FLIT takes half a word; RX_FLIT and NODE_STATUS read
 * in halves.  Instructions then come through the mailbox.  A write the
 * orchestrator ignores, a read of a half that reads 0, a STAGE write (it
 * lands on both halves of its word) and an instruction whose signals would
 * not come back to the agent are violations.
 *
 * Every function takes the fake's lock: the core polls it from its worker
 * thread while a test scripts and observes it from its own.
 */
#ifndef FAKE_CARD_H
#define FAKE_CARD_H

#include <stdbool.h>
#include <linux/types.h>

#include "kh_hw.h"

struct fake_card;

/* what a node does with the nth CU_CTRL request it gets */
enum fake_reply {
	FAKE_REPLY_OK,
	FAKE_REPLY_LOSE,	/* sent, lost on the way: the port is free again */
	FAKE_REPLY_BAD_TXN,	/* arrives with another txn */
	FAKE_REPLY_BAD_SRC,	/* arrives with the src of fake_reply_src() */
};

#define FAKE_STEP_NS	100	/* default device time per register access */
#define FAKE_LOG	256	/* entries kept by each log below */

struct fake_kick {
	__u8 dst;		/* {y,x} */
	__u16 base, len;
	__u64 at;
};

struct fake_cred {
	__u16 value;
	__u64 at;
};

/* what the card saw, for a test to check */
struct fake_obs {
	unsigned int violations;
	char violation[160];	/* the first one */
	/* mailbox */
	unsigned int ctrl_requests;	/* CU_CTRL requests taken */
	unsigned int ctrl_max_inflight;	/* replies outstanding at once */
	unsigned int tx_flit_writes[5];
	unsigned int rx_flit_reads[5];
	/* dispatch */
	unsigned int n_kicks;
	struct fake_kick kick[FAKE_LOG];
	unsigned int n_cred;
	struct fake_cred cred[FAKE_LOG];
	unsigned int stage_writes;
	__u64 last_aux_at;	/* when the landed-write counter last moved */
	/* a 32-bit path (fake_set_ctrl32()) */
	unsigned int mbox_insts;	/* CU_INST through TX_KICK */
	unsigned int tx_half_writes;	/* TX_FLIT halves written */
};

/* one node's instructions as the card saw them */
struct fake_node_obs {
	unsigned int pushed;		/* CU_INST received */
	unsigned int done;		/* ... and signalled */
	unsigned int max_outstanding;	/* received, not yet signalled */
	__u16 count;			/* NODE_STATUS count now */
	/* the first FAKE_LOG instructions: header and payload word 0 */
	__u8 txn[FAKE_LOG];
	bool last[FAKE_LOG];
	__u64 w0[FAKE_LOG];
	__u64 w1[FAKE_LOG];
	__u64 w3[FAKE_LOG];
	__u64 signalled_at[FAKE_LOG];	/* ~0 until it signals */
};

/*
 * A card whose mesh 0 has CAPS flit width 288, pos width 4 and routers
 * grid_lo..grid_hi; every coordinate is empty (silent) until declared.
 */
struct fake_card *fake_card_create(unsigned int grid_lo, unsigned int grid_hi);
void fake_card_destroy(struct fake_card *fc);
/*
 * a struct kh_hw for kh_device_probe(): simulated, with idle_ns; after
 * fake_set_ctrl32() with KH_HW_CTRL32 and the 32-bit ops alone
 */
void fake_card_hw(struct fake_card *fc, struct kh_hw *hw);
void fake_set_ctrl32(struct fake_card *fc);
/* CU_CAPS as kohakutpu.md 3.2 lays it out */
__u64 fake_caps(__u16 cu_type, __u8 version, __u8 n_buffers, __u16 inst_depth);

/* ---- the mesh: what is at each coordinate ---- */
void fake_node(struct fake_card *fc, unsigned int x, unsigned int y, __u64 caps);
/* the port echoes a CU_CTRL request back unmodified (the agent, a memory port) */
void fake_echo(struct fake_card *fc, unsigned int x, unsigned int y);
/* requests to (x,y) reach the port at (px,py), which answers as itself */
void fake_clamp(struct fake_card *fc, unsigned int x, unsigned int y,
		unsigned int px, unsigned int py);
/* CAPS reads after the first answer this instead */
void fake_caps_later(struct fake_card *fc, unsigned int x, unsigned int y,
		     __u64 caps);
void fake_regs(struct fake_card *fc, unsigned int x, unsigned int y,
	       __u64 status, __u64 counters, __u64 dbg);
/* the node's nth CU_CTRL request (0-based) gets act */
void fake_reply(struct fake_card *fc, unsigned int x, unsigned int y,
		unsigned int nth, enum fake_reply act);
void fake_reply_src(struct fake_card *fc, unsigned int x, unsigned int y,
		    unsigned int sx, unsigned int sy);
/* device time from a request to its reply at that port (default 1 us) */
void fake_reply_delay(struct fake_card *fc, unsigned int x, unsigned int y,
		      __u64 ns);

/* ---- the nodes' instructions (nth counts from 0 per node) ---- */
/* time one instruction takes once the unit gets to it (default 200 ns) */
void fake_exec_ns(struct fake_card *fc, unsigned int x, unsigned int y, __u64 ns);
/* PROG_DST, _BASE and _LEN as a host bound before left them */
void fake_prog_regs(struct fake_card *fc, __u32 dst, __u32 base, __u32 len);
void fake_inst_ns(struct fake_card *fc, unsigned int x, unsigned int y,
		  unsigned int nth, __u64 ns);
/* the nth instruction signals code/arg instead of INST/BATCH_COMPLETE */
void fake_inst_sig(struct fake_card *fc, unsigned int x, unsigned int y,
		   unsigned int nth, __u8 code, __u32 arg);
/* the nth instruction and all after it never complete ... */
void fake_hang(struct fake_card *fc, unsigned int x, unsigned int y,
	       unsigned int nth);
/* ... until released: the unit goes on from now */
void fake_release(struct fake_card *fc, unsigned int x, unsigned int y);
/* NODE_STATUS as the mirror holds it from before (it survives resets) */
void fake_node_status(struct fake_card *fc, unsigned int x, unsigned int y,
		      __u64 value);
/* a program left in the dispatcher from before the driver, with no credit */
void fake_stuck_dispatcher(struct fake_card *fc, __u16 left);
/* time per flit the dispatcher pushes (default 10 ns) */
void fake_push_ns(struct fake_card *fc, __u64 ns);
/*
 * The TX FIFO stops draining (on) or drains what it holds (off): kicked
 * flits wait, STATUS reads busy, TX_STATUS full once it holds
 * KH_ORC_TX_DEPTH of them.
 */
void fake_tx_stuck(struct fake_card *fc, bool on);
/* after the next SIG_BATCH_COMPLETE, n more writes land, one each interval */
void fake_aux_after_batch(struct fake_card *fc, unsigned int n, __u64 interval_ns);

/* ---- time ---- */
__u64 fake_now(struct fake_card *fc);
void fake_set_step(struct fake_card *fc, __u64 ns);
void fake_jump(struct fake_card *fc, __u64 ns);

/*
 * Hold a thread of the core at a known point: once armed, a clock read
 * (now_ns) waits until released.  fake_trap_arm() catches the next read of
 * any thread but the arming one (the core's worker, when the test thread
 * does nothing that reads the clock); fake_trap_arm_self() the calling
 * thread's own read after skipping skip of them (a waiter, set up by the
 * thread before it calls WAIT).  Clock reads of the other threads while one
 * is held are counted, so that a test knows when a waiter it started has
 * got as far as registering its deadline.
 */
void fake_trap_arm(struct fake_card *fc);
void fake_trap_arm_self(struct fake_card *fc, unsigned int skip);
bool fake_trap_caught(struct fake_card *fc, unsigned int ms);
bool fake_trap_reads(struct fake_card *fc, unsigned int n, unsigned int ms);
void fake_trap_release(struct fake_card *fc);

/* ---- what happened ---- */
void fake_observe(struct fake_card *fc, struct fake_obs *o);
void fake_node_observe(struct fake_card *fc, unsigned int x, unsigned int y,
		       struct fake_node_obs *o);
/* wait (wall time, at most ms) until the node has received n instructions */
bool fake_wait_pushed(struct fake_card *fc, unsigned int x, unsigned int y,
		      unsigned int n, unsigned int ms);

#endif /* FAKE_CARD_H */
