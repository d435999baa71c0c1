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
#ifndef KH_SIM_ILINK_H
#define KH_SIM_ILINK_H

#include "kh_plat.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>

struct kh_mag;
struct kh_sim_card;

#define KH_IL_RX_BEATS		64	/* receive buffer per class, in beats */
#define KH_IL_MAX_BEATS		32	/* RTL packet limit (not modelled) */
#define KH_IL_CRED_BATCH	8	/* credits return in batches */
#define KH_IL_CLASSES		2
#define KH_IL_STOP		0	/* for the mesh at the far end */
#define KH_IL_FWD		1	/* passing through it */
#define KH_IL_EG_DEPTH		64	/* egress FIFO from the mesh */
#define KH_IL_LAND_DEPTH	64	/* inbound writes waiting for BVALID */
#define KH_IL_RING		(KH_IL_CLASSES * KH_IL_RX_BEATS)
#define KH_IL_CRET_RING		(KH_IL_RING / KH_IL_CRED_BATCH + 4)

enum kh_il_kind {
	KH_ILB_DATA,		/* an encapsulated flit (remote CU_DATA) */
	KH_ILB_WRITE,		/* a posted 32-byte write */
	KH_ILB_BELL,		/* a doorbell */
};

struct kh_il_beat {
	u8 kind;
	u8 src_mesh;		/* the live id of the sending mesh */
	u8 dst_mesh;
	u8 tag;			/* doorbell tag */
	u8 cls;			/* on a lane */
	u64 addr;		/* a write's 40-bit address */
	u64 at;			/* arrival at the lane's far end / BVALID */
	struct kh_flit f;	/* the flit, or the write's data in w[0..3] */
};

struct kh_il_q {
	struct kh_il_beat *b;
	u32 cap, head, count;
};

struct kh_il_cret {
	u64 at;
	u8 cls;
	u8 n;
};

/* One direction of one link. */
struct kh_il_lane {
	struct kh_ilink *tx, *rx;
	u8 link;			/* the sender's link index (0 or 1) */
	struct kh_il_q wire;		/* in flight, in arrival order */
	struct kh_il_q rxq[KH_IL_CLASSES];	/* arrived, per class */
	u32 credits[KH_IL_CLASSES];	/* held by the sender */
	u32 freed[KH_IL_CLASSES];	/* freed at the receiver, unreturned */
	struct kh_il_cret cret[KH_IL_CRET_RING];
	u32 cret_head, cret_count;
	u64 tx_beats, rx_beats;
	u64 stalls;			/* cycles a beat waited for credit */
	u64 stall_since;		/* KH_NEVER when not stalled */
	bool rr;			/* round robin: local egress vs forward */
};

struct kh_ilink {
	struct kh_mag *mag;
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
	struct kh_il_lane *out[2];	/* owned: 0 toward position - 1 */
	struct kh_il_lane *in[2];	/* the neighbours' lanes to me */
	struct kh_il_q eg;		/* from the mesh: flits, writes, bells */
	struct kh_il_q loop;		/* egress for this mesh itself */
	struct kh_il_q land;		/* inbound writes until BVALID */
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

/* Chain positions: CH_SEQ = mesh 0, 1, 3, 2. */
unsigned int kh_il_pos_of(unsigned int mesh);
unsigned int kh_il_mesh_at(unsigned int pos);

/* Give every mesh of a multi-mesh card an interlink and join neighbours. */
int kh_ilink_connect_card(struct kh_sim_card *c);
void kh_ilink_destroy(struct kh_ilink *il);
void kh_ilink_reset(struct kh_ilink *il);

/* AUX_CFG pulse (0x80-0xff) and AUX_STATW[i]. */
void kh_ilink_cfg(struct kh_ilink *il, u32 off, u64 v);
u64 kh_ilink_statw(const struct kh_ilink *il, unsigned int i);

/* A flit with rsvd[2] = 1 from a MAG port. */
bool kh_ilink_full(const struct kh_ilink *il);
void kh_ilink_take(struct kh_ilink *il, const struct kh_flit *f);
/*
 * A posted remote write from the mover: 0 taken, -EAGAIN egress full,
 * -EIO refused (disabled: the mover faults AXI).
 */
int kh_ilink_post_write(struct kh_ilink *il, u64 addr, const u8 *data);
void kh_ilink_fault(struct kh_ilink *il, unsigned int bit);

/* Phase B work, from MAG's tick: returns progress, lowers *deadline. */
bool kh_ilink_tick(struct kh_ilink *il, u64 now, u64 *deadline);
bool kh_ilink_pending(const struct kh_ilink *il);

#endif /* KH_SIM_ILINK_H */
