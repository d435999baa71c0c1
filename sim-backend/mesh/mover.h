/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The memory mover (docs/spec/mover.md): MAG's host-commanded copy,
 * gather, generate and fill engine, the AUX_CFG client at 0x00-0x7f.  It
 * reads and writes through MAG's converged path, and writes another mesh's
 * DRAM through the interlink.
 */
#ifndef KSIM_MOVER_H
#define KSIM_MOVER_H

#include "ksim_plat.h"
#include "cv.h"
#include "regs.h"

struct ksim_mag;

#define KSIM_MV_DIMS	6
#define KSIM_MV_WINDOWS	4

struct ksim_mv_walker {
	u64 base;
	u8 ndims;
	u16 count[KSIM_MV_DIMS];
	s32 stride[KSIM_MV_DIMS];
};

struct ksim_mv_window {
	s16 base;
	s16 step;
	u16 extent;		/* 0: disabled */
};

struct ksim_mv_regs {
	u8 mode, ew, flags;
	struct ksim_mv_walker w[2];	/* 0 source, 1 destination */
	struct ksim_mv_window win[KSIM_MV_WINDOWS];	/* select * 2 + walker */
	u64 idx_base;
	u16 idx_count;
	u64 seed;
	u32 imm;
	u32 pitch;
	u16 gwords;
};

struct ksim_mover {
	struct ksim_mag *mag;
	const struct ksim_cv *cv;	/* MAG's converged path */
	struct ksim_mv_regs r;		/* as the host wrote them */
	struct ksim_mv_regs run;		/* the running move's copy, from GO */

	bool busy;
	u8 fault;
	u32 moves;			/* 24 bits */

	u64 total;			/* destination positions */
	u64 pos;			/* the next one */
	u16 di[KSIM_MV_DIMS];		/* destination walk indices */
	u16 si[KSIM_MV_DIMS];		/* source walk indices */
	u32 gj, gw;			/* gather: row, word in row */
	u32 gidx;			/* gather: the current row's index */
	bool gidx_ok;
	u64 idx_word;			/* the index word held, or ~0 */
	u8 idx_buf[32];
	u64 next_at;			/* the next step's cycle */
	u64 done_at;			/* last BRESP; KSIM_NEVER while moving */

	/* model statistics */
	u64 words;			/* destination words written */
	u64 remote_words;		/* ... of them through the interlink */
	u64 faults;
};

void ksim_mover_init(struct ksim_mover *mv, struct ksim_mag *g,
		     const struct ksim_cv *cv);
void ksim_mover_reset(struct ksim_mover *mv);
/* An AUX_CFG pulse at client offset off (0x00-0x7f). */
void ksim_mover_cfg(struct ksim_mover *mv, u32 off, u64 v);
/* its register table; the device is the struct ksim_mover */
extern const struct ksim_regs ksim_mover_regs;
/* AUX_STAT [63:40] moves, [7:4] fault, [0] busy (MAG adds its counts). */
u64 ksim_mover_stat(const struct ksim_mover *mv);
/* One cycle; returns progress.  *deadline gets the next cycle it acts. */
bool ksim_mover_tick(struct ksim_mover *mv, u64 now, u64 *deadline);

#endif /* KSIM_MOVER_H */
