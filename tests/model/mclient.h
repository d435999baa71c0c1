/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The memory-side tests' tool: "mcl", a memory client unit.  A test
 * scripts the flits it sends (in order, one per cycle as send_ready
 * allows, each header as given: the unit owns its flits) and it records
 * every flit it receives with its arrival cycle.  It takes no
 * instructions.  Plus request builders and a few waits.
 */
#ifndef KH_MCLIENT_H
#define KH_MCLIENT_H

#include "mhelp.h"

#define MC_SCRIPT	2048
#define MC_LOG		8192

struct mc_rec {
	u64 at;
	struct kh_flit f;
};

struct mc_client {
	struct kh_flit script[MC_SCRIPT];
	u32 n_script, sent;
	u64 sent_at[MC_SCRIPT];
	bool hold;			/* stop popping the receive FIFO */
	u32 n;
	struct mc_rec rec[MC_LOG];
};

extern const struct ksim_unit_type mc_unit_mcl;

/* A card with the test unit types and mcl. */
struct ksim_card *mc_card(const char *desc);
struct mc_client *mc_at(struct ksim_card *c, unsigned int mesh,
			unsigned int x, unsigned int y);
/* Queue a flit for the client at (x, y) and wake it. */
void mc_send(struct ksim_card *c, unsigned int mesh, unsigned int x,
	     unsigned int y, const struct kh_flit *f);
/* Run until the client has n records; false after max cycles. */
bool mc_wait(struct ksim_card *c, const struct mc_client *cl, u32 n,
	     u64 max_cycles);

/* A MEM_RD_REQ/MEM_WR_REQ descriptor from (sx, sy) to the port (0, py). */
void mc_req(struct kh_flit *f, unsigned int type, unsigned int py,
	    unsigned int sx, unsigned int sy, u64 addr, unsigned int len,
	    unsigned int txn);
/* Entry/stream fields of a read descriptor. */
void mc_entry(struct kh_flit *f, unsigned int flags, unsigned int count,
	      unsigned int entry_words);
void mc_peer(struct kh_flit *f, unsigned int i, unsigned int x,
	     unsigned int y);
/* One MEM_WR_DATA beat: word i of the payload = pat + i. */
void mc_data(struct kh_flit *f, unsigned int py, unsigned int sx,
	     unsigned int sy, u64 pat, unsigned int last);

/* AUX_CFG and AUX_STATW of a mesh. */
void mc_cfg(struct ksim_card *c, unsigned int mesh, u32 off, u64 v);
u64 mc_statw(struct ksim_card *c, unsigned int mesh, unsigned int i);
u64 mc_aux(struct ksim_card *c, unsigned int mesh);

#endif /* KH_MCLIENT_H */
