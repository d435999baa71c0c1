/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Helpers for the whole-card tests: the mhelp.h mailbox and CU_CTRL
 * helpers for any mesh, CU_CTRL writes (the L2 addon), the 32-bit
 * register windows, and description fixtures.
 */
#ifndef KH_MMESH_H
#define KH_MMESH_H

#include "mhelp.h"

u64 mm_rd(struct ksim_card *c, unsigned int mesh, u32 off);
void mm_wr(struct ksim_card *c, unsigned int mesh, u32 off, u64 v);
void mm_mb_send(struct ksim_card *c, unsigned int mesh,
		const struct kh_flit *f);
int mm_mb_recv(struct ksim_card *c, unsigned int mesh, struct kh_flit *f,
	       unsigned int polls);
/* A CU_CTRL request (op 0 read, 1 write) and its reply: 1, or 0. */
int mm_ctrl(struct ksim_card *c, unsigned int mesh, unsigned int x,
	    unsigned int y, unsigned int op, unsigned int idx, u64 value,
	    unsigned int txn, struct kh_flit *reply);
/* The CU_CTRL value at (x, y), or ~0 without a proper reply. */
u64 mm_ctrl_rd(struct ksim_card *c, unsigned int mesh, unsigned int x,
	       unsigned int y, unsigned int idx);
/* A CU_CTRL write; returns the reply's value (the old one), ~0 if none. */
u64 mm_ctrl_wr(struct ksim_card *c, unsigned int mesh, unsigned int x,
	       unsigned int y, unsigned int idx, u64 value);
/* A null-unit instruction program of n flits at slot 0, kicked to (x, y). */
void mm_null_prog(struct ksim_card *c, unsigned int mesh, unsigned int x,
		  unsigned int y, unsigned int n, unsigned int cred);
u64 mm_ns(struct ksim_card *c, unsigned int mesh, unsigned int x,
	  unsigned int y);

/* 32-bit registers of the clock wizard / DDR controller window of mesh. */
u32 mm_clk_rd(struct ksim_card *c, unsigned int mesh, u32 off);
u32 mm_ddrc_rd(struct ksim_card *c, unsigned int mesh, u32 off);
/* Write one 32-bit register with a 64-bit access, the other half as read. */
void mm_clk_wr(struct ksim_card *c, unsigned int mesh, u32 off, u32 v);

/* A fixture file under tests/model/maps; a static buffer, or NULL. */
const char *mm_fixture(const char *name);

/* A card expected to fail with exactly msg. */
void mm_expect_err(const char *desc, const char *msg);

#endif /* KH_MMESH_H */
