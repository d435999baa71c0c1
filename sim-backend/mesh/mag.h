/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * MAG, the memory agent (kohakutpu.md §4.1, §5): 1-4 memory ports on the
 * west edge, each an endpoint with a read queue, a write queue, write
 * reassembly slots, the write engine (which also serves plain reads) and
 * the entry/stream read engine; the converged path with the L2 staging
 * aperture; the host window's apertures; the memory mover; the interlink;
 * and the agent, which hosts the orchestrator at port 0's coordinate.
 */
#ifndef KSIM_MAG_H
#define KSIM_MAG_H

#include "cv.h"
#include "fifo.h"
#include "link.h"
#include "dram.h"
#include "mesh.h"
#include "mover.h"
#include "orch.h"
#include "sched.h"

struct ksim_mag;

enum ksim_slot_state {
	KSIM_SLOT_FREE,
	KSIM_SLOT_FILL,		/* descriptor taken, data arriving */
	KSIM_SLOT_READY,		/* all beats in, waiting for the engine */
	KSIM_SLOT_ISSUED,		/* on the AXI bus, waiting for BVALID */
	KSIM_SLOT_ACK,		/* landed, MEM_WR_ACK waiting to leave */
};

struct ksim_mag_slot {
	u8 state;
	u8 sx, sy;
	u8 txn;
	u8 len;			/* beats - 1 */
	u8 got;
	u32 seq;		/* allocation order: data binds to the oldest */
	u64 ready_at;		/* the cycle its last beat came in */
	u64 addr;
	u8 data[KH_MEM_WBURST][KH_PAYLOAD_BYTES];
};

struct ksim_mag_land {
	u16 slot;
	u64 at;
};

enum ksim_mag_fsm {
	KSIM_FSM_IDLE,
	KSIM_FSM_RD_WAIT,		/* AR issued, DRAM latency */
	KSIM_FSM_RD_SEND,		/* one MEM_RD_RESP per beat */
	KSIM_FSM_WR_ISSUE,	/* AW, W beats on the bus, until BVALID */
	KSIM_FSM_WR_ACK,	/* BVALID seen: the ack is loaded next */
};

/*
 * The plain path's time through a port and mag_dram_port, in a port's
 * cycles, measured on the RTL with a 1-cycle memory (docs/model.md "MAG
 * timing"): the FSM takes a request the edge after it is queued
 * (mag_mem_port.v S_IDLE), the AR reaches the DRAM 4 edges later (the
 * dram port's request FIFO and arbiter), and an R beat's first flit is
 * on the port's output 3 edges after the beat (its 512-to-256 gearbox).
 * A write is issued the edge after its slot is ready and its W beats
 * follow its AW by 3 edges, a 512-bit beat per two flits; BVALID comes
 * the DRAM's write latency after the last, and the ack is loaded 2 edges
 * after it.
 */
#define KSIM_MAG_PLAIN_PIPE	7	/* pop to the first beat's load, less the read latency */
#define KSIM_MAG_WR_PIPE	6	/* issue to BVALID, less the beats and the write latency */
#define KSIM_MAG_ACK_PIPE	2	/* BVALID to the ack's load */
/* the entry engine (mag.c ksim_er_schedule) */
#define KSIM_MAG_ER_BEAT_PIPE	6	/* its AR to its first beat at the port, less the read latency */
#define KSIM_MAG_QUANT_TAIL	9	/* mx_quant: last beat in to done */

/*
 * The entry/stream read engine of a port (kohakutpu.md §5.3): its own
 * FSM, concurrent with the write engine.  One AR per entry and one entry
 * fetched at a time (mag.c ksim_er_schedule); each entry, once all its
 * beats are in, is converted once and goes out to each destination: the
 * requester, then peers 1..3.
 */

struct ksim_mag_rd {
	bool active;
	bool quant, blayout;
	u8 sx, sy, txn;
	u8 ndst;
	u8 dx[4], dy[4];
	u8 in_beats;		/* beats read per entry */
	u8 out_words;		/* words answered per entry */
	u32 count;		/* entries */
	u64 addr;		/* the request's 40-bit address */
	u32 fetch_i;		/* the next entry to fetch */
	/* the entry being fetched: AR issued, its beats on their way */
	bool next_on;
	u32 next_i;
	u64 next_last;		/* its last beat taken */
	u64 next_ready;		/* the edge it can be handed on */
	u64 free_at;		/* the emit buffer is free from this cycle */
	/* the entry going out */
	bool have;
	u32 send_i;
	u32 pos;		/* destination * out_words + word */
	u8 buf[4][KH_PAYLOAD_BYTES];
};

struct ksim_mag_port {
	struct ksim_mag *mag;
	u8 idx;
	u8 x, y;
	struct ksim_sink sink;
	struct ksim_link out;
	struct ksim_fifo rdq;		/* MEM_RD_REQ */
	struct ksim_fifo wrq;		/* MEM_WR_REQ + MEM_WR_DATA */
	struct ksim_mag_slot *slots;	/* WR_SLOTS */
	u16 *ready;			/* complete slots, in completion order */
	u32 ready_head, ready_count;
	struct ksim_mag_land *land;	/* issued writes, in issue order */
	u32 land_head, land_count;
	u16 *ackq;			/* landed slots whose ack is pending */
	u32 ack_head, ack_count;
	u32 seq;

	u8 fsm;
	u64 fsm_until;
	/* the plain read in progress */
	u8 rd_sx, rd_sy, rd_txn;
	u8 rd_tgt;			/* KSIM_CV_* */
	u64 rd_addr;			/* offset in rd_tgt */
	u32 rd_beats, rd_sent;
	u16 wr_slot;
	struct ksim_mag_rd er;		/* entry/stream reads */
	bool out_turn;			/* plain beats and entry words alternate */

	/* model statistics */
	u64 reads, writes;
	u64 data_dropped;		/* MEM_WR_DATA with no open slot */
	u64 slot_stall_cycles;		/* descriptor waiting for a slot */
	u64 slot_stall_since;		/* KSIM_NEVER when not waiting */
	u64 out_of_range;		/* beats past the DRAM size */
	u64 remote_alias;		/* addr[37:36] != this mesh */
	u64 entries;			/* entries read by the entry engine */
	u64 ap_faults;			/* requests to an aperture nobody serves */
};

/* The host window hangs (ksim_mag_host_*): per XDMA direction. */
#define KSIM_MAG_HANG_H2C	1u
#define KSIM_MAG_HANG_C2H	2u

struct ksim_mag {
	struct ksim_node node;
	struct ksim_mesh *mesh;
	unsigned int n_ports;
	struct ksim_mag_port port[KSIM_MAG_PORTS_MAX];
	struct ksim_orch orch;
	struct ksim_cv cv;	/* the converged path its children reach */
	u16 rd_count;		/* AUX_STAT [39:24], all ports */
	u16 wr_count;		/* AUX_STAT [23:8], counted when landed */
	u64 bus_free;		/* the DRAM data bus is free from this cycle */
	struct ksim_dram l2;	/* MAG L2 staging, aperture 0; size 0: absent */
	struct ksim_mover mv;
	struct ksim_ilink *il;	/* NULL: no interlink (a one-mesh card) */
	u8 host_hang;		/* KSIM_MAG_HANG_*: until the mesh is reset */
	/* model statistics */
	u64 host_hangs;
	u64 quant_entries;	/* entries converted by the upload aperture */
};

/* Ports at the given rows (ascending), all at x = 0. */
struct ksim_mag *ksim_mag_create(struct ksim_mesh *m, const u8 *rows,
			     unsigned int n_ports, int *err);
void ksim_mag_destroy(struct ksim_mag *g);
void ksim_mag_reset(struct ksim_mag *g);
u64 ksim_mag_aux_stat(const struct ksim_mag *g);
/* AUX_CFG pulses (client offset 0x00-0xff) and AUX_STATW[i]. */
void ksim_mag_aux_cfg(struct ksim_mag *g, u32 off, u64 v);
u64 ksim_mag_aux_statw(const struct ksim_mag *g, unsigned int i);

/*
 * The host window at an address with [39] = 1 (40-bit, mesh already
 * checked): L2 staging (aperture 0) and the quantising upload (4 and 5,
 * writes).  Anything else: nothing answers, the channel hangs: returns
 * -ETIMEDOUT and the direction stays hung until the mesh is reset.
 */
int ksim_mag_host_write(struct ksim_mag *g, u64 addr, const void *buf,
		      size_t len);
int ksim_mag_host_read(struct ksim_mag *g, u64 addr, void *buf, size_t len);

/*
 * Reserve the mesh's DRAM data bus for a burst of `beats256` 256-bit beats
 * wanted at MAG cycle `want` (docs/model.md "DRAM"); the cycle its first
 * 512-bit beat crosses.
 */
u64 ksim_mag_dram_burst(struct ksim_mag *g, u64 want, u32 beats256);

#endif /* KSIM_MAG_H */
