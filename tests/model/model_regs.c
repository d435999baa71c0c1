// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The register tables (sim-backend/lib/regs.h) against the one definition
 * of every offset, uapi/kohaku/kh_regs.h and kh_xdma.h: every entry of
 * every table, by name, at the uapi constant of that name (the
 * expectations below are built from the uapi macros, so a wrong offset in
 * a table fails here), runs as long and as far apart as the uapi says,
 * every register as wide as its file, and no two registers of a file
 * overlapping (sorted, as the helper's binary search needs).  Then the
 * access rules, through the card's BAR access functions: reset values,
 * read-only bits, the W1S and W1C aliases, a W1C status and its
 * clear-on-read alias; and the names traces print.
 */
#include "mmesh.h"
#include "clkwiz.h"
#include "ilink.h"
#include "mover.h"
#include "orch.h"
#include "regs.h"
#include "util.h"
#include "xdma.h"
#include <kohaku/kh_xdma.h>
#include "harness.h"

CHECK_FIXTURE(model)

/* a register of the uapi: its name, offset; a run's stride and length */
struct want {
	const char *name;
	u32 off;
	u32 stride;	/* 0: one register */
	u32 n;
};

#define ONE(pfx, r)		{ #r, pfx##r, 0, 1 }
/* a run indexed by register, uapi macro M(i), n registers */
#define RUN(pfx, r, n)		{ #r, pfx##r(0), pfx##r(1) - pfx##r(0), n }

/* kh_regs.h: "Every orchestrator register is one 64-bit word" */
static const struct want orch_want[] = {
	ONE(KH_ORC_, CTRL), ONE(KH_ORC_, STATUS), ONE(KH_ORC_, CAPS),
	ONE(KH_ORC_, IRQ_STAT), ONE(KH_ORC_, IRQ_EN), ONE(KH_ORC_, PROG_DST),
	ONE(KH_ORC_, PROG_LEN), ONE(KH_ORC_, PROG_KICK),
	ONE(KH_ORC_, PROG_STAT), ONE(KH_ORC_, PROG_CRED),
	ONE(KH_ORC_, PROG_BASE), ONE(KH_ORC_, SIG_DONE),
	ONE(KH_ORC_, AUX_STAT), RUN(KH_ORC_, AUX_STATW, 16),
	RUN(KH_ORC_, TX_FLIT, KH_FLIT_WORDS), ONE(KH_ORC_, TX_KICK),
	ONE(KH_ORC_, TX_STATUS), RUN(KH_ORC_, RX_FLIT, KH_FLIT_WORDS),
	ONE(KH_ORC_, RX_POP), ONE(KH_ORC_, RX_STATUS),
	/* a word per client address 0x00-0xff: aux_cfg_addr = waddr[7:0] */
	{ "AUX_CFG", KH_ORC_AUX_CFG(0), KH_ORC_AUX_CFG(8) - KH_ORC_AUX_CFG(0),
	  0x100 / 8 },
	RUN(KH_ORC_, NODE_STATUS, KH_ORC_NODE_ENTRIES),
	{ "NODE_ALIAS", KH_ORC_NODE_ALIAS,
	  KH_ORC_NODE_STATUS(1) - KH_ORC_NODE_STATUS(0), KH_ORC_NODE_ENTRIES },
	/* the words of the slots, up to the end of the decoded window */
	{ "STAGE", KH_ORC_STAGE(0),
	  (KH_ORC_STAGE(1) - KH_ORC_STAGE(0)) / KH_FLIT_WORDS,
	  (KH_ORC_DECODE_MASK + 1 - KH_ORC_STAGE(0)) / 8 },
};

static const struct want xdma_ch_want[] = {
	ONE(KH_XDMA_CH_, ID), ONE(KH_XDMA_CH_, CTRL),
	ONE(KH_XDMA_CH_, CTRL_W1S), ONE(KH_XDMA_CH_, CTRL_W1C),
	ONE(KH_XDMA_CH_, STATUS), ONE(KH_XDMA_CH_, STATUS_RC),
	ONE(KH_XDMA_CH_, COMPLETED), ONE(KH_XDMA_CH_, ALIGN),
	ONE(KH_XDMA_CH_, WB_LO), ONE(KH_XDMA_CH_, WB_HI),
	ONE(KH_XDMA_CH_, IRQ_MASK), ONE(KH_XDMA_CH_, IRQ_MASK_W1S),
	ONE(KH_XDMA_CH_, IRQ_MASK_W1C),
};

static const struct want xdma_sg_want[] = {
	ONE(KH_XDMA_SG_, ID), ONE(KH_XDMA_SG_, DESC_LO),
	ONE(KH_XDMA_SG_, DESC_HI), ONE(KH_XDMA_SG_, DESC_ADJ),
	ONE(KH_XDMA_SG_, DESC_CREDIT),
};

/* 16 user interrupts and 8 channel ones, four vectors a register */
static const struct want xdma_irq_want[] = {
	ONE(KH_XDMA_IRQ_, ID), ONE(KH_XDMA_IRQ_, USER_EN),
	ONE(KH_XDMA_IRQ_, USER_EN_W1S), ONE(KH_XDMA_IRQ_, USER_EN_W1C),
	ONE(KH_XDMA_IRQ_, CHAN_EN), ONE(KH_XDMA_IRQ_, CHAN_EN_W1S),
	ONE(KH_XDMA_IRQ_, CHAN_EN_W1C), ONE(KH_XDMA_IRQ_, USER_REQ),
	ONE(KH_XDMA_IRQ_, CHAN_REQ), ONE(KH_XDMA_IRQ_, USER_PEND),
	ONE(KH_XDMA_IRQ_, CHAN_PEND),
	{ "USER_VEC", KH_XDMA_IRQ_USER_VEC(0),
	  KH_XDMA_IRQ_USER_VEC(4) - KH_XDMA_IRQ_USER_VEC(0), 16 / 4 },
	{ "CHAN_VEC", KH_XDMA_IRQ_CHAN_VEC(0),
	  KH_XDMA_IRQ_CHAN_VEC(4) - KH_XDMA_IRQ_CHAN_VEC(0), 8 / 4 },
};

static const struct want xdma_cfg_want[] = {
	ONE(KH_XDMA_CFG_, ID), ONE(KH_XDMA_CFG_, BUSDEV),
	ONE(KH_XDMA_CFG_, MAX_PAYLOAD), ONE(KH_XDMA_CFG_, MAX_READ),
	ONE(KH_XDMA_CFG_, SYSTEM_ID), ONE(KH_XDMA_CFG_, MSI_EN),
	ONE(KH_XDMA_CFG_, DATA_WIDTH),
};

static const struct want xdma_sgc_want[] = {
	ONE(KH_XDMA_SGC_, ID), ONE(KH_XDMA_SGC_, CTRL),
	ONE(KH_XDMA_SGC_, CTRL_W1S), ONE(KH_XDMA_SGC_, CTRL_W1C),
};

/* kh_regs.h: "32-bit single-beat registers"; CLKOUT0..6 each */
#define CLK_OUT(n)							\
	{ "DIV" #n, KH_CLK_DIV(n), 0, 1 },				\
	{ "PHASE" #n, KH_CLK_PHASE(n), 0, 1 },				\
	{ "DUTY" #n, KH_CLK_DUTY(n), 0, 1 }

static const struct want clkwiz_want[] = {
	ONE(KH_CLK_, SW_RST), ONE(KH_CLK_, STATUS), ONE(KH_CLK_, CFG0),
	CLK_OUT(0), CLK_OUT(1), CLK_OUT(2), CLK_OUT(3), CLK_OUT(4),
	CLK_OUT(5), CLK_OUT(6), ONE(KH_CLK_, LOAD),
};

/*
 * kh_regs.h: "32-bit registers"; each run of first-failing or
 * fault-injection words fills its block up to the next register.
 */
static const struct want ddrc_want[] = {
	ONE(KH_DDRC_, ECC_STATUS), ONE(KH_DDRC_, ECC_EN_IRQ),
	ONE(KH_DDRC_, ECC_ONOFF), ONE(KH_DDRC_, CE_CNT),
	RUN(KH_DDRC_, CE_FFD, (KH_DDRC_CE_FFE - KH_DDRC_CE_FFD(0)) / 4),
	ONE(KH_DDRC_, CE_FFE),
	RUN(KH_DDRC_, CE_FFA, (KH_DDRC_UE_FFD(0) - KH_DDRC_CE_FFA(0)) / 4),
	RUN(KH_DDRC_, UE_FFD, (KH_DDRC_UE_FFE - KH_DDRC_UE_FFD(0)) / 4),
	ONE(KH_DDRC_, UE_FFE),
	RUN(KH_DDRC_, UE_FFA, (KH_DDRC_FI_D(0) - KH_DDRC_UE_FFA(0)) / 4),
	RUN(KH_DDRC_, FI_D, (KH_DDRC_FI_ECC - KH_DDRC_FI_D(0)) / 4),
	ONE(KH_DDRC_, FI_ECC),
};

/* the AUX_CFG clients: 64-bit words, client offsets 0x00-0x7f, 0x80-0xff */
static const struct want mover_want[] = {
	ONE(KH_MV_, CMD), ONE(KH_MV_, WALK_BASE), ONE(KH_MV_, WALK_DIM),
	ONE(KH_MV_, AXIS), ONE(KH_MV_, AXIS_WIN), ONE(KH_MV_, INDEX),
	ONE(KH_MV_, SEED), ONE(KH_MV_, IMM), ONE(KH_MV_, GATHER),
};

static const struct want ilink_want[] = {
	ONE(KH_IL_, CTRL), ONE(KH_IL_, MESH_ID), ONE(KH_IL_, DOORBELL),
};

/*
 * A register file: its table, the width its uapi header gives its
 * registers, the expectations, and where mesh 0's (or the card's) copy
 * sits in a BAR; bar -1: the host cannot read it (AUX_CFG clients).
 */
struct file {
	const char *what;
	const struct ksim_regs *t;
	unsigned int width;
	const struct want *want;
	unsigned int n_want;
	int bar;
	u32 base;
};

#define WANT(w)		w, KSIM_ARRAY_SIZE(w)

static const struct file files[] = {
	{ "orch", &ksim_orch_regs, 8, WANT(orch_want), 0, KH_MESH_BASE(0) },
	{ "clkwiz", &ksim_clkwiz_regs, 4, WANT(clkwiz_want), 0,
	  KH_CLKWIZ_BASE(0) },
	{ "ddrc", &ksim_ddrc_regs, 4, WANT(ddrc_want), 0, KH_DDRC_BASE(0) },
	{ "mover", &ksim_mover_regs, 8, WANT(mover_want), -1, 0 },
	{ "ilink", &ksim_ilink_regs, 8, WANT(ilink_want), -1, 0 },
	/* kh_xdma.h: "Every register is 32 bits wide" */
	{ "xdma h2c", &ksim_xdma_ch_regs, 4, WANT(xdma_ch_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_H2C, 0) },
	{ "xdma c2h", &ksim_xdma_ch_regs, 4, WANT(xdma_ch_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_C2H, 0) },
	{ "xdma h2c sgdma", &ksim_xdma_sg_regs, 4, WANT(xdma_sg_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_H2C_SGDMA, 0) },
	{ "xdma c2h sgdma", &ksim_xdma_sg_regs, 4, WANT(xdma_sg_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_C2H_SGDMA, 0) },
	{ "xdma irq", &ksim_xdma_irq_regs, 4, WANT(xdma_irq_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) },
	{ "xdma config", &ksim_xdma_cfg_regs, 4, WANT(xdma_cfg_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_CONFIG, 0) },
	{ "xdma sgdma common", &ksim_xdma_sgc_regs, 4, WANT(xdma_sgc_want), 1,
	  KH_XDMA_BLOCK(KH_XDMA_T_SGDMA_COMMON, 0) },
};

#define N_FILES	((unsigned int)KSIM_ARRAY_SIZE(files))

static unsigned int run_len(const struct ksim_reg *r)
{
	return r->n ? r->n : 1;
}

static u64 width_mask(unsigned int width)
{
	return width == 8 ? ~0ULL : 0xffffffffULL;
}

/* what the field of r keeps of a register value */
static u64 field_mask(const struct file *f, const struct ksim_reg *r)
{
	u64 m = width_mask(f->width);

	if (r->size && r->size < 8)
		m &= (1ULL << (8 * r->size)) - 1;
	return m;
}

static u64 rd(struct ksim_card *c, const struct file *f, u32 off)
{
	if (f->width == 8)
		return ksim_read64(c, f->base + off);
	return ksim_bar_read32(c, f->bar, f->base + off);
}

static void wr(struct ksim_card *c, const struct file *f, u32 off, u64 v)
{
	if (f->width == 8)
		ksim_write64(c, f->base + off, v);
	else
		ksim_bar_write32(c, f->bar, f->base + off, (u32)v);
}

static bool plain(const struct ksim_reg *r)
{
	return r->size && !r->read && !r->pre_write && !r->post_write &&
	       !r->w1c && !r->w1s && !r->rc;
}

TEST_F(model, offsets_match_the_uapi)
{
	unsigned int k, j, w;

	for (k = 0; k < N_FILES; k++) {
		const struct file *f = &files[k];
		const struct ksim_regs *t = f->t;
		unsigned int found[64] = { 0 };

		REQUIRE(f->n_want <= KSIM_ARRAY_SIZE(found));
		for (j = 0; j < t->n; j++) {
			const struct ksim_reg *r = &t->reg[j];

			for (w = 0; w < f->n_want; w++)
				if (!strcmp(r->name, f->want[w].name))
					break;
			CHECK_MSG(w < f->n_want, "%s: %s is no uapi register",
				  f->what, r->name);
			if (w == f->n_want)
				continue;
			found[w]++;
			CHECK_MSG(r->off == f->want[w].off,
				  "%s: %s at 0x%x, the uapi has 0x%x", f->what,
				  r->name, r->off, f->want[w].off);
			CHECK_MSG(run_len(r) == f->want[w].n,
				  "%s: %s has %u registers, the uapi %u",
				  f->what, r->name, run_len(r), f->want[w].n);
			CHECK_MSG(f->want[w].n == 1 ||
				  f->want[w].stride == f->width,
				  "%s: %s's registers are %u apart, not %u",
				  f->what, r->name, f->want[w].stride, f->width);
		}
		for (w = 0; w < f->n_want; w++)
			CHECK_MSG(found[w] == 1, "%s: %s is in the table %u times",
				  f->what, f->want[w].name, found[w]);
	}
}

TEST_F(model, widths_order_and_no_overlap)
{
	unsigned int k, j, i;

	for (k = 0; k < N_FILES; k++) {
		const struct file *f = &files[k];
		const struct ksim_regs *t = f->t;
		u32 end = 0;

		CHECK_MSG(t->width == f->width, "%s: %u-byte registers, not %u",
			  f->what, t->width, f->width);
		for (j = 0; j < t->n; j++) {
			const struct ksim_reg *r = &t->reg[j];

			CHECK_MSG(r->off % t->width == 0, "%s: %s at 0x%x unaligned",
				  f->what, r->name, r->off);
			CHECK_MSG(j == 0 || r->off >= end,
				  "%s: %s at 0x%x overlaps or precedes the one before",
				  f->what, r->name, r->off);
			end = r->off + run_len(r) * t->width;
			CHECK_MSG(!(r->ro & r->w1c) && !(r->ro & r->w1s) &&
				  !(r->w1c & r->w1s), "%s: %s's masks overlap",
				  f->what, r->name);
			CHECK_MSG(!r->lsb || (r->size == 8 && r->lsb == 32 &&
					      t->width == 4),
				  "%s: %s is no half of a 64-bit field", f->what,
				  r->name);
			/* aliases of one field agree on its reset */
			for (i = 0; i < t->n; i++)
				if (t->reg[i].size && r->size &&
				    t->reg[i].data == r->data &&
				    t->reg[i].lsb == r->lsb)
					CHECK_MSG(t->reg[i].reset == r->reset,
						  "%s: %s and %s reset one field differently",
						  f->what, r->name, t->reg[i].name);
		}
	}
}

TEST_F(model, reset_values_through_the_bars)
{
	struct ksim_card *c = mh_card("saxpy");
	unsigned int k, j, i;

	REQUIRE(c);
	mh_fast_host(c);
	for (k = 0; k < N_FILES; k++) {
		const struct file *f = &files[k];

		if (f->bar < 0)
			continue;
		for (j = 0; j < f->t->n; j++) {
			const struct ksim_reg *r = &f->t->reg[j];

			if (r->read)
				continue;	/* the device says */
			for (i = 0; i < run_len(r); i++)
				CHECK_MSG(rd(c, f, r->off + i * f->width) ==
					  (r->reset & field_mask(f, r)),
					  "%s: %s[%u] out of reset", f->what,
					  r->name, i);
		}
	}
	ksim_card_destroy(c);
}

/* Every register with nothing but storage and read-only bits. */
TEST_F(model, read_only_bits_keep_their_value)
{
	struct ksim_card *c = mh_card("saxpy");
	unsigned int k, j, i;

	REQUIRE(c);
	mh_fast_host(c);
	for (k = 0; k < N_FILES; k++) {
		const struct file *f = &files[k];

		if (f->bar < 0)
			continue;
		for (j = 0; j < f->t->n; j++) {
			const struct ksim_reg *r = &f->t->reg[j];
			u64 m = field_mask(f, r), v;

			if (!plain(r))
				continue;
			for (i = 0; i < run_len(r); i++) {
				u32 off = r->off + i * f->width;

				wr(c, f, off, ~0ULL);
				v = rd(c, f, off);
				CHECK_MSG(v == ((~r->ro | r->reset) & m),
					  "%s: %s[%u] reads 0x%llx after ~0",
					  f->what, r->name, i,
					  (unsigned long long)v);
				wr(c, f, off, 0);
				v = rd(c, f, off);
				CHECK_MSG(v == (r->reset & r->ro & m),
					  "%s: %s[%u] reads 0x%llx after 0",
					  f->what, r->name, i,
					  (unsigned long long)v);
			}
			/* each register of a run is its own */
			for (i = 0; i < run_len(r); i++)
				wr(c, f, r->off + i * f->width, i + 1);
			for (i = 0; i < run_len(r); i++)
				CHECK_MSG(rd(c, f, r->off + i * f->width) ==
					  ((i + 1) & ~r->ro & m),
					  "%s: %s[%u] is not its own register",
					  f->what, r->name, i);
		}
	}
	ksim_card_destroy(c);
}

/* The plain register sharing the field of alias a; NULL: none. */
static const struct ksim_reg *base_of(const struct ksim_regs *t,
				      const struct ksim_reg *a)
{
	unsigned int j;

	for (j = 0; j < t->n; j++)
		if (&t->reg[j] != a && t->reg[j].size &&
		    t->reg[j].data == a->data && !t->reg[j].w1s &&
		    !t->reg[j].w1c && !t->reg[j].rc)
			return &t->reg[j];
	return NULL;
}

/*
 * Each W1S and W1C alias, on its register: set bits, clear some.  Bit 0
 * stays 0: in a channel's control it is RUN, whose edges model_xdma
 * covers (here it would start the channel).
 */
TEST_F(model, w1s_and_w1c_aliases)
{
	struct ksim_card *c = mh_card("saxpy");
	const u64 set = 0xa5a5a5a4a5a5a5a4ULL, clr = 0x0ff00ff00ff00ff0ULL;
	unsigned int k, j, seen = 0;

	REQUIRE(c);
	mh_fast_host(c);
	for (k = 0; k < N_FILES; k++) {
		const struct file *f = &files[k];

		if (f->bar < 0)
			continue;
		for (j = 0; j < f->t->n; j++) {
			const struct ksim_reg *r = &f->t->reg[j], *b;
			u64 m, want;

			if (!r->size || (!r->w1s && !r->w1c))
				continue;
			b = base_of(f->t, r);
			if (!b)
				continue;	/* a W1C status: below */
			m = field_mask(f, b) & ~b->ro;
			wr(c, f, b->off, 0);
			if (r->w1s) {
				wr(c, f, r->off, set);
				want = set & r->w1s & m;
			} else {
				wr(c, f, b->off, set);
				wr(c, f, r->off, clr);
				want = set & ~clr & m;
			}
			CHECK_MSG(rd(c, f, b->off) == want &&
				  rd(c, f, r->off) == want,
				  "%s: %s then %s reads 0x%llx, not 0x%llx",
				  f->what, b->name, r->name,
				  (unsigned long long)rd(c, f, b->off),
				  (unsigned long long)want);
			/* a 0 written to either alias changes nothing */
			wr(c, f, r->off, 0);
			CHECK_EQ(rd(c, f, b->off), want);
			wr(c, f, b->off, 0);
			seen++;
		}
	}
	CHECK_EQ(seen, 14);
	ksim_card_destroy(c);
}

/*
 * A channel's status: RW1C, and its alias clears on read.  The run's
 * descriptor fetch fails (this card has no host memory: DESC_ERROR's
 * unsupported request), and clearing RUN then logs IDLE_STOPPED: two
 * bits, every one logged as control enables them all.
 */
TEST_F(model, status_w1c_and_clear_on_read)
{
	struct ksim_card *c = mh_card("saxpy");
	u32 b = KH_XDMA_BLOCK(KH_XDMA_T_H2C, 0), s;

	REQUIRE(c);
	ksim_bar_write32(c, 1, b + KH_XDMA_CH_CTRL,
			 KSIM_XDMA_STAT_MASK | KH_XDMA_CTRL_RUN);
	ksim_run(c, 10000);
	ksim_bar_write32(c, 1, b + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	s = ksim_bar_read32(c, 1, b + KH_XDMA_CH_STATUS);
	CHECK_EQ(s, KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR) |
		 KH_XDMA_CTRL_IDLE_STOPPED);
	/* W1C: the bit written clears, the other stays; a 0 clears nothing */
	ksim_bar_write32(c, 1, b + KH_XDMA_CH_STATUS, KH_XDMA_CTRL_IDLE_STOPPED);
	CHECK_EQ(ksim_bar_read32(c, 1, b + KH_XDMA_CH_STATUS),
		 KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR));
	ksim_bar_write32(c, 1, b + KH_XDMA_CH_STATUS, 0);
	CHECK_EQ(ksim_bar_read32(c, 1, b + KH_XDMA_CH_STATUS),
		 KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR));
	/* RC: writes do nothing; a read returns the bits, then they are gone */
	ksim_bar_write32(c, 1, b + KH_XDMA_CH_STATUS_RC, ~0u);
	CHECK_EQ(ksim_bar_read32(c, 1, b + KH_XDMA_CH_STATUS_RC),
		 KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(ksim_bar_read32(c, 1, b + KH_XDMA_CH_STATUS), 0);
	CHECK_EQ(ksim_bar_read32(c, 1, b + KH_XDMA_CH_STATUS_RC), 0);
	ksim_card_destroy(c);
}

/*
 * A mesh reset: every orchestrator register back to its reset value, but
 * NODE_STATUS (LUTRAM with no reset clause), which keeps what a signal
 * wrote.  And SIG_DONE, which the signal counted, clears on any write.
 */
TEST_F(model, orch_reset_and_sig_done)
{
	static const char null_map[] =
		"xxx null xxx\nmag nul  nul\nxxx nul  xxx\n";
	struct ksim_card *c = mh_card(null_map);
	const struct file *f = &files[0];
	unsigned int j;
	u64 ns;

	REQUIRE(c);
	REQUIRE(f->t == &ksim_orch_regs);
	mh_fast_host(c);
	mm_null_prog(c, 0, 1, 0, 1, 1);
	REQUIRE(mh_wait_count(c, 1, 0, 1, 1000));
	ns = mh_ns(c, 1, 0);
	CHECK(ns & KH_NS_VALID);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 1);
	mh_wr(c, KH_ORC_SIG_DONE, 5);
	CHECK_EQ(mh_rd(c, KH_ORC_SIG_DONE), 0);
	/* every register with storage to ~0, as far as it takes it */
	for (j = 0; j < f->t->n; j++)
		if (f->t->reg[j].size)
			wr(c, f, f->t->reg[j].off, ~0ULL);
	CHECK_EQ(mh_rd(c, KH_ORC_PROG_LEN), 0xffff);
	CHECK_EQ(ksim_mesh_reset(c, 0), 0);
	ksim_run(c, KH_RST_RECOVERY_CYCLES + 1);
	for (j = 0; j < f->t->n; j++) {
		const struct ksim_reg *r = &f->t->reg[j];

		if (r->size && !r->keep)
			CHECK_MSG(rd(c, f, r->off) == r->reset,
				  "orch: %s is 0x%llx after a reset", r->name,
				  (unsigned long long)rd(c, f, r->off));
	}
	CHECK_EQ(mh_ns(c, 1, 0), ns);
	CHECK_EQ(mh_rd(c, KH_ORC_NODE_ALIAS + 8 * KH_YX(1, 0)), ns);
	ksim_card_destroy(c);
}

/*
 * The clock wizard's space outside its table: every other word of
 * 0x000-0x7ff holds what is written (CLKCFG1 among them), above it
 * nothing; the outputs' count is the table's.
 */
TEST_F(model, clkwiz_space_outside_the_table)
{
	struct ksim_card *c = mh_card("saxpy");
	u32 b = KH_CLKWIZ_BASE(0);

	REQUIRE(c);
	CHECK_EQ(KSIM_ARRAY_SIZE(clkwiz_want), 4 + 3 * KH_CLK_OUTPUTS);
	mh_fast_host(c);
	ksim_bar_write32(c, 0, b + KH_CLK_CFG0 + 4, 0x1234);
	ksim_bar_write32(c, 0, b + 0x100, 0x5678);
	ksim_bar_write32(c, 0, b + 0x7fc, 0x9abc);
	ksim_bar_write32(c, 0, b + 0x800, 0xdef0);
	CHECK_EQ(ksim_bar_read32(c, 0, b + KH_CLK_CFG0 + 4), 0x1234);
	CHECK_EQ(ksim_bar_read32(c, 0, b + 0x100), 0x5678);
	CHECK_EQ(ksim_bar_read32(c, 0, b + 0x7fc), 0x9abc);
	CHECK_EQ(ksim_bar_read32(c, 0, b + 0x800), 0);
	CHECK(mm_clk_rd(c, 0, KH_CLK_STATUS) & KH_CLK_LOCKED);
	ksim_card_destroy(c);
}

/* Host accesses of every kind, for the trace tests below. */
static void some_accesses(struct ksim_card *c)
{
	ksim_write64(c, KH_MESH_BASE(0) + KH_ORC_PROG_CRED, 3);
	ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_NODE_STATUS(0x11));
	ksim_bar_read32(c, 0, KH_MESH_BASE(0) + KH_ORC_PROG_STAT + 4);
	ksim_read64(c, KH_CLKWIZ_BASE(0) + KH_CLK_SW_RST);
	ksim_bar_write32(c, 0, KH_DDRC_BASE(0) + KH_DDRC_CE_CNT, 7);
	ksim_bar_write32(c, 1, KH_XDMA_BLOCK(KH_XDMA_T_C2H, 0) +
			 KH_XDMA_CH_IRQ_MASK_W1S, 2);
	ksim_bar_read32(c, 1, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0) +
			KH_XDMA_IRQ_USER_VEC(4));
	ksim_read64(c, 0x400000);	/* v5's GPIO: nothing now */
	ksim_read64(c, KH_MESH_BASE(1) + 4);	/* unaligned, absent */
}

/*
 * Register accesses are a trace class of their own, named in events=:
 * the default and `all` leave them out, so a trace taken as before reads
 * as before.
 */
TEST_F(model, register_accesses_in_the_trace)
{
	static const char want[] =
		"# kohaku-sim trace v1 clock_mhz=300 size=64 events=9 first=0\n"
		"1000000 0 reg orch PROG_CRED write=0x0000000000000003\n"
		"1000002 0 reg orch NODE_STATUS[17] read=0x0000000000000000\n"
		"1000003 0 reg orch PROG_STAT.hi read=0x00000000\n"
		"1000004 0 reg clkwiz SW_RST+STATUS read=0x0000000100000000\n"
		"1000004 0 reg ddrc CE_CNT write=0x00000007\n"
		"1000005 - reg xdma c2h0 IRQ_MASK_W1S write=0x00000002\n"
		"1000007 - reg xdma irq USER_VEC[1] read=0x00000000\n"
		"1000008 - reg none 0x400000 read=0x0000000000000000\n"
		"1000009 1 reg none 0x810004 read=0xffffffffffffffff\n";
	struct ksim_card *c = mh_card("saxpy");
	char buf[2048];
	u64 pos = 0;
	size_t n;

	REQUIRE(c);
	mh_fast_host(c);
	CHECK_EQ(ksim_command(c, "trace on size=64", NULL, 0), 0);
	some_accesses(c);
	CHECK_EQ(ksim_command(c, "trace on events=all", NULL, 0), 0);
	some_accesses(c);
	n = ksim_trace_text(c, &pos, buf, sizeof(buf));
	CHECK(!strstr(buf, " reg "));
	CHECK_EQ(ksim_command(c, "trace clear", NULL, 0), 0);
	CHECK_EQ(ksim_command(c, "trace on events=reg", NULL, 0), 0);
	ksim_run(c, 1000000 - ksim_cycles(c));	/* a round start */
	pos = 0;
	some_accesses(c);
	n = ksim_trace_text(c, &pos, buf, sizeof(buf));
	buf[n] = 0;
	CHECK_MSG(!strcmp(buf, want), "the trace:\n%s", buf);
	ksim_card_destroy(c);
}

TEST_F(model, names_for_traces)
{
	char b[32];

	CHECK(ksim_reg_name(&ksim_orch_regs, KH_ORC_PROG_KICK, b, sizeof(b)) > 0);
	CHECK(!strcmp(b, "PROG_KICK"));
	CHECK(ksim_reg_name(&ksim_orch_regs, KH_ORC_NODE_STATUS(17), b,
			    sizeof(b)) > 0);
	CHECK(!strcmp(b, "NODE_STATUS[17]"));
	CHECK(ksim_reg_name(&ksim_orch_regs, KH_ORC_STAGE(3) + 16, b,
			    sizeof(b)) > 0);
	CHECK(!strcmp(b, "STAGE[17]"));
	CHECK_EQ(ksim_reg_name(&ksim_orch_regs, 0x28, b, sizeof(b)), -ENOENT);
	CHECK(ksim_reg_name(&ksim_clkwiz_regs, KH_CLK_DUTY(5), b, sizeof(b)) > 0);
	CHECK(!strcmp(b, "DUTY5"));
	/* the stored rest of the wizard's space has no names */
	CHECK_EQ(ksim_reg_name(&ksim_clkwiz_regs, KH_CLK_CFG0 + 4, b, sizeof(b)),
		 -ENOENT);

	CHECK_EQ(ksim_reg_name(&ksim_xdma_ch_regs, KH_XDMA_CH_CTRL_W1S, b,
			       sizeof(b)), 8);
	CHECK(!strcmp(b, "CTRL_W1S"));
	CHECK(ksim_reg_name(&ksim_xdma_irq_regs, KH_XDMA_IRQ_USER_VEC(8), b,
			    sizeof(b)) > 0);
	CHECK(!strcmp(b, "USER_VEC[2]"));
	/* a hole, an offset inside a register, past the end */
	CHECK_EQ(ksim_reg_name(&ksim_xdma_ch_regs, 0x50, b, sizeof(b)),
		 -ENOENT);
	CHECK_EQ(ksim_reg_name(&ksim_xdma_ch_regs, KH_XDMA_CH_CTRL + 2, b,
			       sizeof(b)), -ENOENT);
	CHECK_EQ(ksim_reg_name(&ksim_xdma_sg_regs, 0xfc, b, sizeof(b)),
		 -ENOENT);
}

CHECK_TEST_MAIN
