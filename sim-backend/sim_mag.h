/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * MAG, the memory agent (kohakutpu.md §4.1, §5): 1-4 memory ports on the
 * west edge, each an endpoint with a read queue, a write queue, write
 * reassembly slots and one engine; and the agent, which hosts the
 * orchestrator at port 0's coordinate.
 */
#ifndef KH_SIM_MAG_H
#define KH_SIM_MAG_H

#include "sim_fifo.h"
#include "sim_link.h"
#include "sim_mesh.h"
#include "sim_orch.h"
#include "sim_sched.h"

struct kh_mag;

enum kh_slot_state {
	KH_SLOT_FREE,
	KH_SLOT_FILL,		/* descriptor taken, data arriving */
	KH_SLOT_READY,		/* all beats in, waiting for the engine */
	KH_SLOT_ISSUED,		/* on the AXI bus, waiting for BVALID */
	KH_SLOT_ACK,		/* landed, MEM_WR_ACK waiting to leave */
};

struct kh_mag_slot {
	u8 state;
	u8 sx, sy;
	u8 txn;
	u8 len;			/* beats - 1 */
	u8 got;
	u32 seq;		/* allocation order: data binds to the oldest */
	u64 addr;
	u8 data[KH_MEM_WBURST][KH_PAYLOAD_BYTES];
};

struct kh_mag_land {
	u16 slot;
	u64 at;
};

enum kh_mag_fsm {
	KH_FSM_IDLE,
	KH_FSM_RD_WAIT,		/* AR issued, DRAM latency */
	KH_FSM_RD_SEND,		/* one MEM_RD_RESP per beat */
	KH_FSM_WR_ISSUE,	/* W beats on the bus */
};

struct kh_mag_port {
	struct kh_mag *mag;
	u8 idx;
	u8 x, y;
	struct kh_sink sink;
	struct kh_link out;
	struct kh_fifo rdq;		/* MEM_RD_REQ */
	struct kh_fifo wrq;		/* MEM_WR_REQ + MEM_WR_DATA */
	struct kh_mag_slot *slots;	/* WR_SLOTS */
	u16 *ready;			/* complete slots, in completion order */
	u32 ready_head, ready_count;
	struct kh_mag_land *land;	/* issued writes, in issue order */
	u32 land_head, land_count;
	u16 *ackq;			/* landed slots whose ack is pending */
	u32 ack_head, ack_count;
	u32 seq;

	u8 fsm;
	u64 fsm_until;
	bool prefer_write;		/* alternate reads and writes */
	/* the plain read in progress */
	u8 rd_sx, rd_sy, rd_txn;
	u64 rd_addr;
	u32 rd_beats, rd_sent;
	u16 wr_slot;

	/* model statistics */
	u64 reads, writes;
	u64 data_dropped;		/* MEM_WR_DATA with no open slot */
	u64 slot_stall_cycles;		/* descriptor waiting for a slot */
	u64 slot_stall_since;		/* KH_NEVER when not waiting */
	u64 out_of_range;		/* beats past the DRAM size */
	u64 remote_alias;		/* addr[37:36] != this mesh */
};

struct kh_mag {
	struct kh_node node;
	struct kh_mesh *mesh;
	unsigned int n_ports;
	struct kh_mag_port port[KH_MAG_PORTS_MAX];
	struct kh_orch orch;
	u16 rd_count;		/* AUX_STAT [39:24], all ports */
	u16 wr_count;		/* AUX_STAT [23:8], counted when landed */
};

/* Ports at the given rows (ascending), all at x = 0. */
struct kh_mag *kh_mag_create(struct kh_mesh *m, const u8 *rows,
			     unsigned int n_ports, int *err);
void kh_mag_destroy(struct kh_mag *g);
void kh_mag_reset(struct kh_mag *g);
u64 kh_mag_aux_stat(const struct kh_mag *g);

#endif /* KH_SIM_MAG_H */
