/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The DXA bulk-copy unit (token `dxa`, cu_type 'DX'; docs/spec/dxa.md,
 * seed 003): private state shared by its files, one concern each:
 *
 *   table.c   the 16-slot descriptor table (CU_DATA buffer 0: the hooks
 *             and policy of the shared receiver, units/cudata.c), readback
 *   setup.c   a COPY decoded and checked (the first six faults)
 *   lines.c   address generation: the tile's DRAM lines, once each; reads
 *   stage.c   the 8 KiB staging buffer: cfill, row-major and K-major
 *   burst.c   one CU_DATA burst per receiver, the acks, NO_ACK and STALL
 *   dxa.c     the cycle, the send register, counters, CU_CTRL 0xf0-0xf7
 *
 * Every number the spec names is in uapi/kohaku/kh_dxa.h; the ones here
 * are the model's own.
 */
#ifndef KSIM_UNITS_DXA_H
#define KSIM_UNITS_DXA_H

#include "ksim_unit.h"
#include "table.h"
#include "util.h"
#include <kohaku/kh_dxa.h>

#define KSIM_DXA_GRANULE	KH_PAYLOAD_BYTES	/* one flit, one line */
#define KSIM_DXA_LINE		32			/* a DRAM line, bytes */
#define KSIM_DXA_ADDR_MASK	((1ULL << 40) - 1)	/* MAG addresses */
/* "two cycles of setup after the CU_INST is taken" (spec, Timing) */
#define KSIM_DXA_SETUP_CYCLES	2
/* the most elements a tile can have: 8 KiB of 1-byte elements */
#define KSIM_DXA_MAX_ELEMS	KH_DXA_MAX_TILE_BYTES
/* the most distinct lines: one per element */
#define KSIM_DXA_MAX_LINES	KSIM_DXA_MAX_ELEMS
/* the line lookup of address generation: a power of two, >= 2x lines */
#define KSIM_DXA_HASH		(2 * KSIM_DXA_MAX_LINES)
/* txn of a read: {copy generation[7:3], tag[2:0]} (see lines.c) */
#define KSIM_DXA_TAG_BITS	3
#define KSIM_DXA_TAG_MASK	((1u << KSIM_DXA_TAG_BITS) - 1)

/* one descriptor slot, decoded from its 64 little-endian bytes */
struct ksim_dxa_desc {
	u64 base;
	u32 size[KH_DXA_MAX_RANK];
	u32 stride[KH_DXA_MAX_RANK - 1];
	u32 meta;
	u16 tile[KH_DXA_MAX_RANK];
	u16 mstride;
	u32 cfill;
};

enum ksim_dxa_state {
	KSIM_DXA_IDLE,
	KSIM_DXA_SETUP,		/* the setup cycles */
	KSIM_DXA_READ,		/* lines requested, answered and placed */
	KSIM_DXA_SEND,		/* the bursts, receiver by receiver */
	KSIM_DXA_ACK,		/* every burst sent; waiting for the acks */
	KSIM_DXA_DONE,		/* exec_done next cycle */
};

/* what the send register holds, so taking it advances the right state */
enum ksim_dxa_out {
	KSIM_DXA_OUT_NONE,
	KSIM_DXA_OUT_SIG,	/* SIG_DATA_RECEIVED for a table write */
	KSIM_DXA_OUT_READ,	/* MEM_RD_REQ of line rd_next */
	KSIM_DXA_OUT_DESC,	/* the CU_DATA descriptor of receiver b_r */
	KSIM_DXA_OUT_DATA,	/* granule b_g of receiver b_r */
};

/* one read in flight (a tag) */
struct ksim_dxa_tag {
	bool busy;		/* requested, not yet placed */
	bool have;		/* answered: data holds the line */
	u32 line;		/* index into the copy's line list */
	u64 req_at;		/* the cycle the request was taken */
	u8 data[KSIM_DXA_LINE];
};

struct ksim_dxa {
	/* ---- the table (table.c): first, kept across a mesh reset ---- */
	u8 table[KH_DXA_SLOTS][KH_DXA_SLOT_BYTES];

	/* ---- everything below is cleared by a mesh reset ---- */
	struct ksim_unit *u;
	unsigned int mx, my;		/* the MAG port */
	u32 sel;			/* DXA_SEL */
	/* the slot a CU_DATA burst writes: lands whole at its last flit */
	u8 cd_slot[KH_DXA_SLOT_BYTES];

	/* ---- the copy (setup.c) ---- */
	u8 state;
	u64 ready_at;			/* end of setup */
	bool fault;
	u32 fault_code;
	struct ksim_dxa_desc d;		/* the slot, latched at accept */
	unsigned int rank, eb, nrecv;
	bool kmajor;
	u32 ext[KH_DXA_MAX_RANK];	/* tile extents, 1 at and above rank */
	u32 c[KH_DXA_MAX_RANK];		/* coordinates, 0 at and above rank */
	u32 recv[KH_DXA_MAX_RECV];	/* {x, y, buf_id, offset} */
	u32 elems, granules;
	u8 gen;				/* copy generation, for read txns */

	/* ---- address generation and reads (lines.c) ---- */
	u32 n_lines;
	u64 line_addr[KSIM_DXA_MAX_LINES];
	u32 line_first[KSIM_DXA_MAX_LINES + 1];	/* elements, by line */
	u16 el_lin[KSIM_DXA_MAX_ELEMS];	/* tile index, row-major */
	u8 el_off[KSIM_DXA_MAX_ELEMS];	/* byte offset in the line */
	u16 el_line[KSIM_DXA_MAX_ELEMS];	/* line, in walk order */
	u32 h_gen[KSIM_DXA_HASH];	/* hash entry live if == h_stamp */
	u16 h_line[KSIM_DXA_HASH];
	u32 h_stamp;
	u32 rd_next;			/* next line to request */
	u32 rd_out;			/* requested, not yet placed */
	unsigned int rd_tag;		/* the tag of the request held */
	struct ksim_dxa_tag tag[KH_DXA_MAX_INFLIGHT];

	/* ---- placement (stage.c) ---- */
	u32 pl_done;			/* lines placed */
	int pl_tag;			/* the tag being placed, -1 none */
	u32 pl_left;			/* cycles left on it */
	u32 pl_order[KH_DXA_MAX_INFLIGHT];	/* tags in arrival order */
	u32 pl_head, pl_count;
	u8 stage[KH_DXA_MAX_TILE_BYTES];

	/* ---- bursts and acks (burst.c) ---- */
	u32 b_r, b_g;			/* receiver, granule of the next flit */
	bool b_desc_sent;
	u64 ack_by[KH_DXA_MAX_RECV];	/* deadline, from its last flit */
	bool b_sent[KH_DXA_MAX_RECV];	/* its last flit went */
	bool acked[KH_DXA_MAX_RECV];
	bool no_ack;			/* a deadline passed: no new burst */
	u64 last_progress;		/* a read answered or a flit sent */

	/* ---- the send register (dxa.c) ---- */
	u8 out_kind;
	struct kh_flit out;

	/* ---- counters, since reset (CU_CTRL 0xf3-0xf7, CU_DBG) ---- */
	u64 transfers, gmem_reads, gmem_saved, local_writes, gmem_lat;
	/* model-only: refused table bursts, stale answers dropped */
	u64 refused, stale;
	/* model-only timestamps of the last copy, for the timing tests */
	u64 t_accept, t_first_req, t_last_resp, t_placed, t_first_send,
	    t_last_send, t_done;
	u32 max_out;
};

/* table.c */
extern const struct ksim_cd_policy ksim_dxa_table_cd;
u64 ksim_dxa_table_word(const struct ksim_dxa *x, u32 w);
void ksim_dxa_desc_decode(const u8 *slot, struct ksim_dxa_desc *d);

/* setup.c */
void ksim_dxa_accept(struct ksim_dxa *x, const struct kh_flit *f);
void ksim_dxa_fail(struct ksim_dxa *x, u32 code);

/* lines.c */
void ksim_dxa_lines_build(struct ksim_dxa *x);
bool ksim_dxa_read_ready(const struct ksim_dxa *x);
void ksim_dxa_read_flit(struct ksim_dxa *x, struct kh_flit *f);
void ksim_dxa_read_taken(struct ksim_dxa *x);
void ksim_dxa_read_resp(struct ksim_dxa *x, const struct kh_flit *f);

/* stage.c */
void ksim_dxa_stage_init(struct ksim_dxa *x);
bool ksim_dxa_place_step(struct ksim_dxa *x);

/* burst.c */
void ksim_dxa_burst_start(struct ksim_dxa *x);
bool ksim_dxa_burst_ready(const struct ksim_dxa *x);
void ksim_dxa_burst_flit(struct ksim_dxa *x, struct kh_flit *f, u8 *kind);
void ksim_dxa_burst_taken(struct ksim_dxa *x, u8 kind);
void ksim_dxa_ack(struct ksim_dxa *x, const struct kh_flit *f);
bool ksim_dxa_watch(struct ksim_dxa *x);

#endif /* KSIM_UNITS_DXA_H */
