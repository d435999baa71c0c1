/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The endpoint L2 staging adapter (docs/spec/l2-adapter.md): a node in
 * the local link between a router and one unit.  The router face is an
 * endpoint at the unit's coordinate, the CU face a router port to the
 * unit; each face has a 2-deep input FIFO (busy = full) and one output
 * register (hold until taken).
 */
#ifndef KSIM_L2_H
#define KSIM_L2_H

#include "fifo.h"
#include "link.h"
#include "sched.h"

struct ksim_mesh;

#define KSIM_L2_FIFO_DEPTH	2
#define KSIM_L2_CHUNK_LINES	128	/* SRAM allocated 4 KiB at a time */

enum ksim_l2_wr {
	KSIM_L2_WR_NONE,
	KSIM_L2_WR_SERVED,	/* the open write goes to the SRAM */
	KSIM_L2_WR_FORWARDED,	/* ... to the mesh */
};

struct ksim_l2 {
	struct ksim_node node;
	struct ksim_mesh *mesh;
	u8 x, y;			/* the unit's coordinate */

	struct ksim_sink rsink;		/* router face, inbound */
	struct ksim_fifo rin;
	struct ksim_link rout;		/* router face, outbound */
	struct ksim_sink csink;		/* CU face, inbound (the unit sends) */
	struct ksim_fifo cin;
	struct ksim_link cout;		/* CU face, outbound (to the unit) */

	/* registers 0xe0-0xe3 */
	u32 depth, bits;
	u64 base, base_reset;
	bool enable;
	u32 n_served, n_fwd;

	/* CU_CTRL: one pending reply */
	bool ctrl_pend;
	u64 ctrl_at;
	struct kh_flit ctrl_reply;

	/* the unit's open write */
	u8 wr_state;
	u8 wr_len, wr_got;
	u64 wr_line;
	struct kh_flit ack;		/* MEM_WR_ACK waiting for the CU face */
	bool ack_pend;

	/* the served read in progress */
	bool rd_busy;
	struct kh_flit rd_hdr;		/* header of every beat */
	u64 rd_line, rd_at;
	u32 rd_beats, rd_sent;

	u8 **chunk;			/* depth / KSIM_L2_CHUNK_LINES pointers */
	u32 n_chunks;

	/* model statistics */
	u64 ctrl_terminated;		/* addon CU_CTRL answered here */
	u64 ctrl_dropped;		/* ... lost to a pending reply */
};

struct ksim_l2 *ksim_l2_create(struct ksim_mesh *m, unsigned int x, unsigned int y,
			   u64 base, int *err);
void ksim_l2_destroy(struct ksim_l2 *a);
void ksim_l2_reset(struct ksim_l2 *a);

#endif /* KSIM_L2_H */
