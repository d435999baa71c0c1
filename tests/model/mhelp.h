/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Helpers for the model tests: a card from a description, the
 * orchestrator's registers, the mailbox, CU_CTRL reads, staged programs,
 * and the test unit types (tunits.c).
 */
#ifndef KH_MHELP_H
#define KH_MHELP_H

#include "check.h"
#include "ksim_int.h"
#include "router.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>
#include <kohaku/kh_units.h>

/* Create a card from a built-in name or a description; NULL on failure. */
struct ksim_card *mh_card(const char *desc);
/* the protocol checker's verdicts (mhelp.c): a test expecting some sets
 * mh_expect_violations and reads mh_violations / mh_last_violation */
extern bool mh_expect_violations;
extern unsigned int mh_violations;
extern char mh_last_violation[256];
struct ksim_card *mh_card_types(const char *desc,
				  const struct ksim_unit_type *const *types,
				  unsigned int n);
/* Every access costs one cycle: for tests that need back-to-back flits. */
void mh_fast_host(struct ksim_card *c);

u64 mh_rd(struct ksim_card *c, u32 off);		/* mesh 0 window */
void mh_wr(struct ksim_card *c, u32 off, u64 v);

void mh_mb_load(struct ksim_card *c, const struct kh_flit *f);
void mh_mb_kick(struct ksim_card *c);
void mh_mb_send(struct ksim_card *c, const struct kh_flit *f);
/* Poll RX up to `polls` reads; 1 and the popped flit, or 0. */
int mh_mb_recv(struct ksim_card *c, struct kh_flit *f, unsigned int polls);
unsigned int mh_mb_count(struct ksim_card *c);	/* pops everything */

void mh_ctrl_req(struct kh_flit *f, unsigned int x, unsigned int y,
		 unsigned int idx, unsigned int txn);
/* A CU_CTRL read through the mailbox: 1 with the reply, or 0. */
int mh_ctrl_read(struct ksim_card *c, unsigned int x, unsigned int y,
		 unsigned int idx, unsigned int txn, struct kh_flit *reply);
u64 mh_ctrl_value(const struct kh_flit *reply);

void mh_stage(struct ksim_card *c, unsigned int slot,
	      const struct kh_flit *f);
void mh_prog(struct ksim_card *c, unsigned int x, unsigned int y,
	     unsigned int base, unsigned int len);
u64 mh_ns(struct ksim_card *c, unsigned int x, unsigned int y);
/* Poll NODE_STATUS until its count reaches want; true on success. */
bool mh_wait_count(struct ksim_card *c, unsigned int x, unsigned int y,
		   unsigned int want, unsigned int polls);

/*
 * What saxpy_cu writes for one element, y = i2f(f2i(a) * f2i(x) + f2i(y))
 * (saxpy_cu.v), computed independently of the model (mhelp.c).
 */
u32 mh_sx_rtl(u32 a, u32 x, u32 y);

/* ---- test unit types (tunits.c) ---- */

/*
 * "snk": a slow sink, popping one received flit every mh_sink_period
 * cycles and logging it.  "src": on a CU_INST sends [239:224] flits of
 * type [223:220] to ([247:244], [243:240]), payload w[0] = sequence
 * number, then retires.  "hng": accepts one instruction and never
 * retires.  "eqd": retires in the accept cycle (the null RTL's bug).
 * "spu": retires each instruction twice.
 */
#define MH_SINK_LOG	8192
struct mh_sink_rec {
	u8 sx, sy, type;
	u64 seq;
};
struct mh_sink {
	u64 next;
	u32 n;
	struct mh_sink_rec rec[MH_SINK_LOG];
};

extern unsigned int mh_sink_period;
extern const struct ksim_unit_type mh_unit_snk, mh_unit_src, mh_unit_hng,
	mh_unit_eqd, mh_unit_spu;
extern const struct ksim_unit_type *const mh_test_types[];
extern const unsigned int mh_n_test_types;

void mh_src_inst(struct kh_flit *f, unsigned int dx, unsigned int dy,
		 unsigned int count, unsigned int type, unsigned int last);

#endif /* KH_MHELP_H */
