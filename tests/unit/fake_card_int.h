/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The fake card's state, shared by its two halves: fake_card.c (the card as
 * the driver core sees it through kh_hw_ops) and fake_script.c (what a test
 * scripts and observes).  Nothing else includes this.
 */
#ifndef FAKE_CARD_INT_H
#define FAKE_CARD_INT_H

#include <pthread.h>

#include "fake_card.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_regs.h"

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#define FAKE_SCRIPT	64	/* scripted requests and instructions per node */
#define FAKE_FIFO	4096	/* outstanding instructions the fake can hold */
#define FAKE_REPLIES	64	/* CU_CTRL replies on the way at once */
#define FAKE_AUX	256	/* landed writes still to come */
#define FAKE_NEVER	(~0ULL)
#define FAKE_UNSET	(~0ULL)

enum fake_kind { FAKE_EMPTY, FAKE_NODE, FAKE_ECHO, FAKE_CLAMP };

struct fake_inst {
	u32 nth;
	u8 txn;
	bool last;
	u64 done_at;
};

struct fake_port {
	enum fake_kind kind;
	u8 port;		/* FAKE_CLAMP: {y,x} of the port that answers */
	u64 caps, caps_later;
	bool caps_later_set;
	u64 regs[4];		/* [1..3]: CU_STATUS, CU_COUNTERS, CU_DBG */
	u64 reply_delay;
	u8 act[FAKE_SCRIPT];
	u8 bad_src;
	unsigned int n_requests, n_caps;
	bool pending;		/* the one CU_CTRL reply slot is taken */
	u8 pending_txn;		/* ... by the request with this txn */
	u8 pending_yx;		/* ... asked at this coordinate (a clamp's) */

	/* execution */
	u64 exec_ns;
	u64 inst_ns[FAKE_SCRIPT];
	int sig_code[FAKE_SCRIPT];	/* -1: the framework's own */
	u32 sig_arg[FAKE_SCRIPT];
	u32 hang_at;
	struct fake_inst *fifo;
	unsigned int head, count;
	u64 busy_until;
	u64 node_status;
	struct fake_node_obs obs;
};

struct fake_reply_ev {
	bool used, lose;
	u8 port;
	u64 at;
	struct kh_flit f;
};

struct fake_card {
	pthread_mutex_t lock;
	bool ctrl32;		/* BAR0 in 32-bit accesses only */
	u64 now, step, push_ns;
	unsigned long accesses;
	u64 caps;
	struct fake_port port[256];
	u8 nodes[256];		/* {y,x} of every FAKE_NODE */
	unsigned int n_nodes;

	/* mailbox */
	u64 tx[KH_FLIT_WORDS];
	/* mesh 0's clock wizard: its registers as written (STATUS reads locked) */
	u32 wiz[0x800 / 4];
	unsigned int wiz_loads;
	bool tx_hold;		/* fake_tx_stuck(): TX holds what is kicked */
	struct kh_flit tx_held[KH_ORC_TX_DEPTH];
	unsigned int n_tx_held;
	struct fake_reply_ev reply[FAKE_REPLIES];
	unsigned int inflight;
	struct kh_flit rx[KH_ORC_RX_DEPTH];
	unsigned int rx_head, rx_count;
	bool rx_overflow;

	/* dispatcher */
	u64 stage[KH_ORC_STAGE_FLITS][KH_FLIT_WORDS];
	u8 prog_dst, run_dst;
	u64 ctrl;		/* CTRL: stored only, 0 at reset */
	u16 prog_len, prog_base, credit, left, slot;
	bool run;
	u64 next_push;
	u16 sig_done;

	/* landed writes */
	u16 aux_wr;
	u64 aux_at[FAKE_AUX];
	unsigned int n_aux;
	unsigned int aux_arm_n;
	u64 aux_arm_interval;

	/* fake_trap_arm() */
	struct {
		bool armed, caught;
		bool self;		/* catch the owner's read, not the others' */
		unsigned int skip;	/* ... after letting this many pass */
		pthread_t owner;
		unsigned int reads;	/* by others while one is caught */
		pthread_cond_t cond;
	} trap;

	struct fake_obs obs;
};

static inline struct fake_port *fake_at(struct fake_card *fc, unsigned int x,
					unsigned int y)
{
	return &fc->port[KH_YX(x, y)];
}

/* when instruction nth, arriving at start, signals (FAKE_NEVER: never) */
u64 fake_schedule(struct fake_port *p, u32 nth, u64 start);

#endif /* FAKE_CARD_INT_H */
