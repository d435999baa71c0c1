/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The interlink between meshes (docs/spec/interlink.md): MAG's AUX_CFG
 * client at 0x80-0xff and AUX_STATW[0..15].  Meshes sit on a chain whose
 * positions 0..3 hold meshes 0, 1, 3, 2 (mag_switch.v CH_SEQ); each pair
 * of neighbours is joined by a link, one lane per direction, with a
 * per-hop latency and credit flow control per class (stop here /
 * forward).  Three kinds of traffic cross: remote CU_DATA (encapsulated
 * flits, injected at the final coordinate with src preserved), posted
 * mover writes, and doorbells.
 */
#ifndef KSIM_ILINK_H
#define KSIM_ILINK_H

#include "ksim_plat.h"
#include "cv.h"
#include "regs.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>

struct ksim_mag;
struct ksim_mesh;

#define KSIM_IL_RX_BEATS		64	/* receive buffer per class, in beats */
#define KSIM_IL_CRED_BATCH	8	/* credits return in batches */
#define KSIM_IL_CLASSES		2
#define KSIM_IL_STOP		0	/* for the mesh at the far end */
#define KSIM_IL_FWD		1	/* passing through it */
#define KSIM_IL_EG_DEPTH		64	/* egress FIFO from the mesh */
#define KSIM_IL_LAND_DEPTH	64	/* inbound writes waiting for BVALID */
#define KSIM_IL_RING		(KSIM_IL_CLASSES * KSIM_IL_RX_BEATS)
#define KSIM_IL_CRET_RING		(KSIM_IL_RING / KSIM_IL_CRED_BATCH + 4)

enum ksim_il_kind {
	KSIM_ILB_DATA,		/* an encapsulated flit (remote CU_DATA) */
	KSIM_ILB_WRITE,		/* a posted 32-byte write */
	KSIM_ILB_BELL,		/* a doorbell */
};

struct ksim_il_beat {
	u8 kind;
	u8 src_mesh;		/* the live id of the sending mesh */
	u8 dst_mesh;
	u8 tag;			/* doorbell tag */
	u8 cls;			/* on a lane */
	u64 addr;		/* a write's 40-bit address */
	u64 at;			/* arrival at the lane's far end / BVALID */
	struct kh_flit f;	/* the flit, or the write's data in w[0..3] */
};

struct ksim_il_q {
	struct ksim_il_beat *b;
	u32 cap, head, count;
};

struct ksim_il_cret {
	u64 at;
	u8 cls;
	u8 n;
};

/* One direction of one link. */
struct ksim_il_lane {
	struct ksim_ilink *tx, *rx;
	u8 link;			/* the sender's link index (0 or 1) */
	struct ksim_il_q wire;		/* in flight, in arrival order */
	struct ksim_il_q rxq[KSIM_IL_CLASSES];	/* arrived, per class */
	u32 credits[KSIM_IL_CLASSES];	/* held by the sender */
	u32 freed[KSIM_IL_CLASSES];	/* freed at the receiver, unreturned */
	struct ksim_il_cret cret[KSIM_IL_CRET_RING];
	u32 cret_head, cret_count;
	u64 tx_beats, rx_beats;
	u64 stalls;			/* cycles a beat waited for credit */
	u64 stall_since;		/* KSIM_NEVER when not stalled */
	bool rr;			/* round robin: local egress vs forward */
};

struct ksim_ilink {
	struct ksim_mag *mag;
	const struct ksim_cv *cv;	/* MAG's converged path */
	u8 pos;				/* physical chain position */
	u8 param_id;			/* MESH_ID: the reset value of 0x88 */
	bool enable;			/* 0x80 [0], reset 1 */
	u8 mesh_id;			/* 0x88 */
	u8 faults;			/* sticky, KH_IL_FAULT_* */
	u32 bells[KH_MAX_MESHES];	/* doorbells received, per source */
	u8 bell_tag[KH_MAX_MESHES];
	u64 bells_sent;
	u64 forwarded;
	u64 eg_blocks;			/* cycles the egress head waited */
	u64 eg_block_since;
	struct ksim_il_lane *out[2];	/* owned: 0 toward position - 1 */
	struct ksim_il_lane *in[2];	/* the neighbours' lanes to me */
	struct ksim_il_q eg;		/* from the mesh: flits, writes, bells */
	struct ksim_il_q loop;		/* egress for this mesh itself */
	struct ksim_il_q land;		/* inbound writes until BVALID */
	u64 writes_in, writes_landed;	/* inbound writes accepted / landed */
	bool bell_wait[3];
	u64 bell_snap[3];
	u16 frame[256];			/* remote CU_DATA flits left, per src */

	/* model statistics */
	u64 inj_dropped;		/* INJ: beats dropped at the far end */
	u64 switch_dropped;		/* SWITCH: no link toward the mesh */
	u64 injected;			/* flits injected into this mesh */
	u64 hop_latency;
};

/*
 * Give every mesh of a card (n_mesh of them, mesh[i] is mesh i) whose
 * parameters ask for one an interlink, and join neighbours on the chain.
 */
int ksim_ilink_connect(struct ksim_mesh *const *mesh, unsigned int n_mesh);
void ksim_ilink_destroy(struct ksim_ilink *il);
void ksim_ilink_reset(struct ksim_ilink *il);

/* AUX_CFG pulse (0x80-0xff) and AUX_STATW[i]. */
void ksim_ilink_cfg(struct ksim_ilink *il, u32 off, u64 v);
u64 ksim_ilink_statw(const struct ksim_ilink *il, unsigned int i);
/* the AUX_CFG register table; the device is the struct ksim_ilink */
extern const struct ksim_regs ksim_ilink_regs;

/* A flit with rsvd[2] = 1 from a MAG port. */
bool ksim_ilink_full(const struct ksim_ilink *il);
void ksim_ilink_take(struct ksim_ilink *il, const struct kh_flit *f);
/*
 * A posted remote write from the mover: 0 taken, -EAGAIN egress full,
 * -EIO refused (disabled: the mover faults AXI).
 */
int ksim_ilink_post_write(struct ksim_ilink *il, u64 addr, const u8 *data);
void ksim_ilink_fault(struct ksim_ilink *il, unsigned int bit);

/* Phase B work, from MAG's tick: returns progress, lowers *deadline. */
bool ksim_ilink_tick(struct ksim_ilink *il, u64 now, u64 *deadline);
bool ksim_ilink_pending(const struct ksim_ilink *il);

#endif /* KSIM_ILINK_H */
