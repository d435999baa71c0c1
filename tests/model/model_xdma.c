// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card's XDMA engine (docs/spec/xdma.md, uapi/kohaku/kh_xdma.h, the
 * model's sim-backend/xdma/): every register's semantics, descriptor
 * chains, the 4 KiB rule, each error, knob and wedge with its recovery,
 * the completed count and poll-mode write-back, interrupts to the
 * programmed vectors, the data in both directions byte for byte, timing
 * and determinism; and the seam adapter's side (BAR sizes, vectors, the
 * 32-bit BAR0 access).
 *
 * Host memory is an arena of this process behind fake bus addresses from
 * BUS0: anything outside it answers -EFAULT, as an unmapped bus address
 * does.
 */
#include "mmesh.h"
#include "ksim_hw.h"
#include "card.h"
#include "mag.h"
#include "util.h"
#include "xdma.h"
#include <kohaku/kh_xdma.h>
#include "harness.h"

CHECK_FIXTURE(model)

#define H2C	0
#define C2H	1
#define ARENA_SIZE	(40u << 20)
#define BUS0		0x200000000ULL
/* every status bit logged: control [23:9] and [6:1] */
#define IE_ALL		0x00fffe7eu
#define CARD(l)		KH_CARD_ADDR(0, (l))

static u8 *arena;
static size_t arena_top;
static unsigned int host_faults;

static void *halloc(size_t n, size_t align)
{
	void *p;

	arena_top = (arena_top + align - 1) & ~(align - 1);
	if (arena_top + n > ARENA_SIZE) {
		check_fail_at(__FILE__, __LINE__, "arena exhausted");
		arena_top = 0;
	}
	p = arena + arena_top;
	arena_top += n;
	memset(p, 0, n);
	return p;
}

static u64 bus(const void *p)
{
	return BUS0 + (u64)((const u8 *)p - arena);
}

static int th_range(u64 b, size_t n)
{
	if (b < BUS0 || b - BUS0 > ARENA_SIZE || n > ARENA_SIZE - (b - BUS0)) {
		host_faults++;
		return -EFAULT;
	}
	return 0;
}

static int th_read(void *ctx, u64 b, void *dst, size_t n)
{
	int e = th_range(b, n);

	if (!e)
		memcpy(dst, arena + (b - BUS0), n);
	return e;
}

static int th_write(void *ctx, u64 b, const void *src, size_t n)
{
	int e = th_range(b, n);

	if (!e)
		memcpy(arena + (b - BUS0), src, n);
	return e;
}

/* the host's own pointers, while th_mapping is set (else copies only) */
static bool th_mapping = true;
static unsigned int th_maps;

static void *th_map(void *ctx, u64 b, size_t n)
{
	if (!th_mapping || th_range(b, n))
		return NULL;
	th_maps++;
	return arena + (b - BUS0);
}

static const struct ksim_host_ops th_ops = {
	.mem_read = th_read,
	.mem_write = th_write,
	.mem_map = th_map,
};

#define MSI_LOG	64
static unsigned int msi_log[MSI_LOG], msi_n;
static u64 msi_cycle[MSI_LOG];
static struct ksim_card *msi_card;

static void on_msi(void *arg, unsigned int vector)
{
	if (msi_n < MSI_LOG) {
		msi_log[msi_n] = vector;
		msi_cycle[msi_n] = msi_card ? ksim_cycles(msi_card) : 0;
	}
	msi_n++;
}

static struct ksim_card *xcard(const char *desc)
{
	struct ksim_card *c = mh_card(desc ? desc : "saxpy");

	if (!arena) {
		arena = aligned_alloc(4096, ARENA_SIZE);
		if (!arena)
			abort();
	}
	arena_top = 0;
	host_faults = 0;
	msi_n = 0;
	msi_card = c;
	if (c) {
		ksim_set_host_ops(c, &th_ops, NULL);
		ksim_set_msi(c, KSIM_MSI_VECTORS, on_msi, NULL);
	}
	return c;
}

static u32 chb(int ch)
{
	return KH_XDMA_BLOCK(ch ? KH_XDMA_T_C2H : KH_XDMA_T_H2C, 0);
}

static u32 sgb(int ch)
{
	return KH_XDMA_BLOCK(ch ? KH_XDMA_T_C2H_SGDMA : KH_XDMA_T_H2C_SGDMA, 0);
}

static u32 rd(struct ksim_card *c, u32 off)
{
	return ksim_bar_read32(c, 1, off);
}

static void wr(struct ksim_card *c, u32 off, u32 v)
{
	ksim_bar_write32(c, 1, off, v);
}

static u32 st(struct ksim_card *c, int ch)
{
	return rd(c, chb(ch) + KH_XDMA_CH_STATUS);
}

static void desc(struct kh_xdma_desc *d, u32 adj, u32 flags, u32 len,
		 u64 src, u64 dst, u64 next)
{
	d->control = KH_XDMA_DESC_CONTROL(adj, flags);
	d->len = len;
	d->src = src;
	d->dst = dst;
	d->next = next;
}

/* program the SGDMA registers and raise RUN (the upstream driver's order) */
static void go(struct ksim_card *c, int ch, const void *first, u32 adj,
	       u32 extra)
{
	u64 b = bus(first);

	wr(c, chb(ch) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	wr(c, sgb(ch) + KH_XDMA_SG_DESC_LO, (u32)b);
	wr(c, sgb(ch) + KH_XDMA_SG_DESC_HI, (u32)(b >> 32));
	wr(c, sgb(ch) + KH_XDMA_SG_DESC_ADJ, adj);
	wr(c, chb(ch) + KH_XDMA_CH_CTRL, KH_XDMA_CTRL_RUN | IE_ALL | extra);
}

/* poll status until busy drops; the status then, or ~0 on a timeout */
static u32 wait_idle(struct ksim_card *c, int ch)
{
	unsigned int i;
	u32 s = 0;

	for (i = 0; i < 20000; i++) {
		s = st(c, ch);
		if (!(s & KH_XDMA_STATUS_BUSY))
			return s;
		ksim_run(c, 1000);
	}
	return ~0u;
}

static void card_rd(struct ksim_card *c, u64 local, void *buf, size_t n)
{
	ksim_dram_read(&ksim_card_mesh(c, 0)->dram, local, buf, n);
}

static void card_wr(struct ksim_card *c, u64 local, const void *buf, size_t n)
{
	ksim_dram_write(&ksim_card_mesh(c, 0)->dram, local, buf, n);
}

static void pattern(u8 *p, size_t n, u32 seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (u8)(seed >> 16);
	}
}

/* One descriptor, STOP | COMPLETED, run to the end: the status. */
static u32 one(struct ksim_card *c, int ch, u64 src, u64 dst, u32 len)
{
	struct kh_xdma_desc *d = halloc(sizeof(*d), 32);

	desc(d, 0, KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED, len, src, dst, 0);
	go(c, ch, d, 0, 0);
	return wait_idle(c, ch);
}

#define DONE	(KH_XDMA_CTRL_DESC_STOPPED | KH_XDMA_CTRL_DESC_COMPLETED)

/* ---- the register space ---- */

TEST_F(model, identifiers_and_absent_blocks)
{
	struct ksim_card *c = xcard(NULL);
	static const struct { u32 off, id; } ids[] = {
		{ 0x0000, 0x1fc00006 }, { 0x1000, 0x1fc10006 },
		{ 0x2000, 0x1fc20006 }, { 0x3000, 0x1fc30006 },
		{ 0x4000, 0x1fc40006 }, { 0x5000, 0x1fc50006 },
		{ 0x6000, 0x1fc60006 },
	};
	unsigned int i, ch, t;
	u32 r;

	REQUIRE(c);
	for (i = 0; i < KSIM_ARRAY_SIZE(ids); i++) {
		CHECK_EQ(rd(c, ids[i].off), ids[i].id);
		CHECK_EQ(KH_XDMA_ID_SUBSYS_OF(ids[i].id), KH_XDMA_ID_SUBSYS);
		CHECK_EQ(KH_XDMA_ID_TARGET_OF(ids[i].id), ids[i].off >> 12);
		CHECK(!(ids[i].id & KH_XDMA_ID_STREAM));
	}
	/* channels 1..3 of each channel block: every register reads 0 */
	for (t = 0; t < 6; t++) {
		if (t == KH_XDMA_T_IRQ || t == KH_XDMA_T_CONFIG)
			continue;
		for (ch = 1; ch < KH_XDMA_MAX_CHANNELS; ch++)
			for (r = 0; r < 0x100; r += 4) {
				wr(c, KH_XDMA_BLOCK(t, ch) + r, ~0u);
				CHECK_EQ(rd(c, KH_XDMA_BLOCK(t, ch) + r), 0);
			}
	}
	/* the blocks past SGDMA common and the IRQ/config "channels" */
	for (t = 7; t < 16; t++)
		CHECK_EQ(rd(c, t << 12), 0);
	CHECK_EQ(rd(c, KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 1)), 0);
	CHECK_EQ(rd(c, KH_XDMA_BLOCK(KH_XDMA_T_CONFIG, 2)), 0);
	/* unaligned, past the BAR, a BAR the card lacks */
	CHECK_EQ(rd(c, 2), ~0u);
	CHECK_EQ(rd(c, KH_XDMA_BAR_SIZE), ~0u);
	CHECK_EQ(ksim_bar_read32(c, 2, 0), ~0u);
	CHECK_EQ(ksim_bar_size(0), KH_BAR0_SIZE);
	CHECK_EQ(ksim_bar_size(1), KH_XDMA_BAR_SIZE);
	CHECK_EQ(ksim_bar_size(2), 0);
	/* the channel's registers hold nothing after those writes */
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_CTRL), 0);
	ksim_card_destroy(c);
}

TEST_F(model, control_w1s_w1c_and_reserved_bits)
{
	struct ksim_card *c = xcard(NULL);
	int ch;

	REQUIRE(c);
	for (ch = 0; ch < 2; ch++) {
		u32 b = chb(ch);

		/* RUN stays 0 here: the other bits only */
		wr(c, b + KH_XDMA_CH_CTRL, 0xfffffffe);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_CTRL), 0x0efffe7e);
		wr(c, b + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_POLL_WB | 0x6);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_CTRL), 0x0afffe78);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_CTRL_W1S), 0x0afffe78);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_CTRL_W1C), 0x0afffe78);
		wr(c, b + KH_XDMA_CH_CTRL, 0);
		wr(c, b + KH_XDMA_CH_CTRL_W1S, KH_XDMA_CTRL_MAGIC_STOPPED);
		wr(c, b + KH_XDMA_CH_CTRL_W1S, KH_XDMA_CTRL_DESC_ERROR | (1u << 7));
		CHECK_EQ(rd(c, b + KH_XDMA_CH_CTRL),
			 KH_XDMA_CTRL_MAGIC_STOPPED | KH_XDMA_CTRL_DESC_ERROR);
		/* the interrupt mask: RW and its aliases, [23:9] and [6:1] */
		wr(c, b + KH_XDMA_CH_IRQ_MASK, ~0u);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_IRQ_MASK), IE_ALL);
		wr(c, b + KH_XDMA_CH_IRQ_MASK_W1C, KH_XDMA_CTRL_READ_ERROR);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_IRQ_MASK_W1S),
			 IE_ALL & ~KH_XDMA_CTRL_READ_ERROR);
		wr(c, b + KH_XDMA_CH_IRQ_MASK, 0);
		wr(c, b + KH_XDMA_CH_IRQ_MASK_W1S, KH_XDMA_CTRL_DESC_STOPPED);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_IRQ_MASK_W1C),
			 KH_XDMA_CTRL_DESC_STOPPED);
		/* the write-back address: both halves, RW */
		wr(c, b + KH_XDMA_CH_WB_LO, 0x89abcdef);
		wr(c, b + KH_XDMA_CH_WB_HI, 0x01234567);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_WB_LO), 0x89abcdef);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_WB_HI), 0x01234567);
		/* read-only: completed count, alignments, status busy */
		wr(c, b + KH_XDMA_CH_COMPLETED, 77);
		wr(c, b + KH_XDMA_CH_ALIGN, 0);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_COMPLETED), 0);
		CHECK_EQ(rd(c, b + KH_XDMA_CH_ALIGN), 0x00010140);
		CHECK_EQ(KH_XDMA_ALIGN_ADDR(rd(c, b + KH_XDMA_CH_ALIGN)), 1);
		CHECK_EQ(KH_XDMA_ALIGN_GRAN(rd(c, b + KH_XDMA_CH_ALIGN)), 1);
		CHECK_EQ(KH_XDMA_ALIGN_BITS(rd(c, b + KH_XDMA_CH_ALIGN)), 64);
		/* nothing ran */
		CHECK_EQ(st(c, ch), 0);
	}
	ksim_card_destroy(c);
}

TEST_F(model, sgdma_config_and_common_registers)
{
	struct ksim_card *c = xcard(NULL);
	int ch;

	REQUIRE(c);
	for (ch = 0; ch < 2; ch++) {
		u32 b = sgb(ch);

		wr(c, b + KH_XDMA_SG_DESC_LO, 0xdeadbee0);
		wr(c, b + KH_XDMA_SG_DESC_HI, 0x12);
		wr(c, b + KH_XDMA_SG_DESC_ADJ, 0xffffffff);
		wr(c, b + KH_XDMA_SG_DESC_CREDIT, 0xffffffff);
		CHECK_EQ(rd(c, b + KH_XDMA_SG_DESC_LO), 0xdeadbee0);
		CHECK_EQ(rd(c, b + KH_XDMA_SG_DESC_HI), 0x12);
		CHECK_EQ(rd(c, b + KH_XDMA_SG_DESC_ADJ), 63);
		CHECK_EQ(rd(c, b + KH_XDMA_SG_DESC_CREDIT), 0x3ff);
		CHECK_EQ(rd(c, b + 0x90), 0);
	}
	/* config block: documented values; MSI-X on with the vectors */
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_BUSDEV), 0x0100);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_MAX_PAYLOAD), 1);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_MAX_READ), 2);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_SYSTEM_ID), 0xff01);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_MSI_EN), 2);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_DATA_WIDTH), 3);
	CHECK_EQ(rd(c, 0x3000 + 0x1c), 0);
	wr(c, 0x3000 + KH_XDMA_CFG_SYSTEM_ID, 0);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_SYSTEM_ID), 0xff01);
	ksim_set_msi(c, 0, NULL, NULL);
	CHECK_EQ(rd(c, 0x3000 + KH_XDMA_CFG_MSI_EN), 0);
	/* SGDMA common control: [3:0] and [19:16], W1S, W1C */
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL, ~0u);
	CHECK_EQ(rd(c, 0x6000 + KH_XDMA_SGC_CTRL), 0x000f000f);
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL_W1C, KH_XDMA_SGC_HALT_C2H(0) | 2);
	CHECK_EQ(rd(c, 0x6000 + KH_XDMA_SGC_CTRL_W1S), 0x000e000d);
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL, 0);
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL_W1S, KH_XDMA_SGC_HALT_H2C(0));
	CHECK_EQ(rd(c, 0x6000 + KH_XDMA_SGC_CTRL_W1C), 1);
	ksim_card_destroy(c);
}

TEST_F(model, irq_block_registers)
{
	struct ksim_card *c = xcard(NULL);
	u32 b = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	unsigned int i;

	REQUIRE(c);
	wr(c, b + KH_XDMA_IRQ_USER_EN, ~0u);
	CHECK_EQ(rd(c, b + KH_XDMA_IRQ_USER_EN), 0xffff);
	wr(c, b + KH_XDMA_IRQ_USER_EN_W1C, 0xfff0);
	CHECK_EQ(rd(c, b + KH_XDMA_IRQ_USER_EN_W1S), 0xf);
	wr(c, b + KH_XDMA_IRQ_USER_EN_W1S, 0x10000 | 0x100);
	CHECK_EQ(rd(c, b + KH_XDMA_IRQ_USER_EN_W1C), 0x10f);
	wr(c, b + KH_XDMA_IRQ_CHAN_EN, ~0u);
	CHECK_EQ(rd(c, b + KH_XDMA_IRQ_CHAN_EN), 0xff);
	wr(c, b + KH_XDMA_IRQ_CHAN_EN_W1C, 0xfe);
	CHECK_EQ(rd(c, b + KH_XDMA_IRQ_CHAN_EN), 1);
	wr(c, b + KH_XDMA_IRQ_CHAN_EN_W1S, 2);
	CHECK_EQ(rd(c, b + KH_XDMA_IRQ_CHAN_EN_W1S), 3);
	/* requests and pending are read only, and nothing requests */
	for (i = 0; i < 4; i++) {
		wr(c, b + 0x40 + 4 * i, ~0u);
		CHECK_EQ(rd(c, b + 0x40 + 4 * i), 0);
	}
	/* vector numbers: 5 bits in each byte */
	for (i = 0; i < 4; i++) {
		wr(c, b + KH_XDMA_IRQ_USER_VEC(4 * i), ~0u);
		CHECK_EQ(rd(c, b + KH_XDMA_IRQ_USER_VEC(4 * i)), 0x1f1f1f1f);
	}
	for (i = 0; i < 2; i++) {
		wr(c, b + KH_XDMA_IRQ_CHAN_VEC(4 * i), 0x04030201u + i);
		CHECK_EQ(rd(c, b + KH_XDMA_IRQ_CHAN_VEC(4 * i)), 0x04030201u + i);
	}
	CHECK_EQ(rd(c, b + 0xa8), 0);
	CHECK_EQ(msi_n, 0);
	ksim_card_destroy(c);
}

/* ---- status, RUN, the completed count ---- */

TEST_F(model, status_rw1c_rc_and_the_run_edge)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(64, 64);
	struct kh_xdma_desc *d = halloc(2 * sizeof(*d), 32);
	u32 s;

	REQUIRE(c);
	desc(&d[0], 0, KH_XDMA_DESC_COMPLETED, 64, bus(src), CARD(0), bus(&d[1]));
	desc(&d[1], 0, KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED, 64,
	     bus(src), CARD(64), 0);
	go(c, H2C, d, 0, 0);
	s = st(c, H2C);
	CHECK_EQ(s, KH_XDMA_STATUS_BUSY);	/* the fetch is in flight */
	s = wait_idle(c, H2C);
	CHECK_EQ(s, DONE);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 2);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_CTRL) & KH_XDMA_CTRL_RUN, 1);
	/* RW1C: only the bits written */
	wr(c, chb(H2C) + KH_XDMA_CH_STATUS, KH_XDMA_CTRL_DESC_STOPPED | 1);
	CHECK_EQ(st(c, H2C), KH_XDMA_CTRL_DESC_COMPLETED);
	/* RC: reads the bits, then they are gone */
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_STATUS_RC),
		 KH_XDMA_CTRL_DESC_COMPLETED);
	CHECK_EQ(st(c, H2C), 0);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_STATUS_RC), 0);
	/* writing RUN again while it is set is no edge: nothing starts */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1S, KH_XDMA_CTRL_RUN);
	ksim_run(c, 5000);
	CHECK_EQ(st(c, H2C), 0);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 2);
	/* a new run: the edge clears status and the count first */
	wr(c, chb(H2C) + KH_XDMA_CH_STATUS, ~0u);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	CHECK_EQ(st(c, H2C), KH_XDMA_CTRL_IDLE_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_STATUS_RC), KH_XDMA_CTRL_IDLE_STOPPED);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1S, KH_XDMA_CTRL_RUN);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 0);
	CHECK_EQ(wait_idle(c, H2C), DONE);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 2);
	ksim_card_destroy(c);
}

TEST_F(model, status_is_logged_only_where_control_enables_it)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(64, 64);
	struct kh_xdma_desc *d = halloc(sizeof(*d), 32);
	u64 b = bus(d);

	REQUIRE(c);
	desc(d, 0, KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED, 64, bus(src),
	     CARD(0), 0);
	wr(c, sgb(H2C) + KH_XDMA_SG_DESC_LO, (u32)b);
	wr(c, sgb(H2C) + KH_XDMA_SG_DESC_HI, (u32)(b >> 32));
	/* RUN and ie_descriptor_stopped only */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL,
	   KH_XDMA_CTRL_RUN | KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 1);
	/* RUN alone: the channel runs and stops, nothing is logged */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL, 0);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL, KH_XDMA_CTRL_RUN);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	CHECK_EQ(wait_idle(c, H2C), 0);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 1);
	/* an error stops the channel even when it is not logged */
	d->control = 0x12340000 | KH_XDMA_DESC_STOP;
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL, 0);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL, KH_XDMA_CTRL_RUN);
	CHECK_EQ(wait_idle(c, H2C), 0);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 0);
	ksim_card_destroy(c);
}

TEST_F(model, clearing_run_stops_after_the_current_descriptor)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(1 << 20, 64);
	struct kh_xdma_desc *d = halloc(3 * sizeof(*d), 32);
	u64 t0;

	REQUIRE(c);
	/* 3 descriptors of 256 KiB: 8192 cycles of data each */
	desc(&d[0], 0, 0, 256 << 10, bus(src), CARD(0), bus(&d[1]));
	desc(&d[1], 0, 0, 256 << 10, bus(src), CARD(256 << 10), bus(&d[2]));
	desc(&d[2], 0, KH_XDMA_DESC_STOP, 256 << 10, bus(src), CARD(512 << 10), 0);
	go(c, H2C, d, 0, 0);
	t0 = ksim_cycles(c);
	ksim_run(c, 4000);	/* inside the first descriptor */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_IDLE_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 1);
	CHECK(ksim_cycles(c) - t0 < 2 * 8192 + 2000);
	/* RUN raised while the channel still finishes: it starts again */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1S, KH_XDMA_CTRL_RUN);
	ksim_run(c, 2000);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1S, KH_XDMA_CTRL_RUN);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 3);
	ksim_card_destroy(c);
}

TEST_F(model, sgdma_halt_holds_descriptor_fetches)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(64, 64);
	struct kh_xdma_desc *d = halloc(2 * sizeof(*d), 32);

	REQUIRE(c);
	desc(&d[0], 0, 0, 64, bus(src), CARD(0), bus(&d[1]));
	desc(&d[1], 0, KH_XDMA_DESC_STOP, 64, bus(src), CARD(64), 0);
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL_W1S, KH_XDMA_SGC_HALT_H2C(0));
	go(c, H2C, d, 0, 0);
	ksim_run(c, 100000);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 0);
	/* the other channel's halt bit changes nothing */
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL_W1C, KH_XDMA_SGC_HALT_C2H(0));
	ksim_run(c, 1000);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL_W1C, KH_XDMA_SGC_HALT_H2C(0));
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 2);
	/* halted, then RUN cleared: idle at once */
	wr(c, 0x6000 + KH_XDMA_SGC_CTRL_W1S, KH_XDMA_SGC_HALT_H2C(0));
	go(c, H2C, d, 0, 0);
	ksim_run(c, 1000);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	CHECK_EQ(st(c, H2C), KH_XDMA_CTRL_IDLE_STOPPED);
	ksim_card_destroy(c);
}

/* ---- descriptor chains ---- */

TEST_F(model, chains_one_two_adjacent_and_63_adjacent)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(64 * 64, 64), *back = halloc(64 * 64, 64);
	struct kh_xdma_desc *blk = halloc(64 * sizeof(*blk), 4096);
	struct kh_xdma_desc *d2 = halloc(2 * 64, 32);
	u8 got[64 * 64];
	unsigned int i;

	REQUIRE(c);
	pattern(src, 64 * 64, 1);
	/* one descriptor */
	CHECK_EQ(one(c, H2C, bus(src), CARD(0x1000), 64), DONE);
	card_rd(c, 0x1000, got, 64);
	CHECK(!memcmp(got, src, 64));
	/* two, linked by next (the first's nxt_adj 0), apart in memory */
	desc(&d2[0], 0, 0, 32, bus(src + 64), CARD(0x2000), bus(&d2[2]));
	desc(&d2[2], 0, KH_XDMA_DESC_STOP, 32, bus(src + 96), CARD(0x2020), 0);
	go(c, H2C, d2, 0, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 2);
	card_rd(c, 0x2000, got, 64);
	CHECK(!memcmp(got, src + 64, 64));
	/*
	 * 64 in one block (the first and 63 adjacent, 2 KiB): the engine
	 * takes them in order and never reads an inner one's next
	 */
	for (i = 0; i < 64; i++)
		desc(&blk[i], 0, i == 63 ? KH_XDMA_DESC_STOP : 0, 64,
		     bus(src + 64 * i), CARD(0x10000 + 64 * i), 0xbad0);
	go(c, H2C, blk, 63, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 64);
	card_rd(c, 0x10000, got, 64 * 64);
	CHECK(!memcmp(got, src, 64 * 64));
	CHECK_EQ(host_faults, 0);
	/* and back, the same block shape for C2H */
	for (i = 0; i < 64; i++)
		desc(&blk[i], 0, i == 63 ? KH_XDMA_DESC_STOP : 0, 64,
		     CARD(0x10000 + 64 * i), bus(back + 64 * (63 - i)), 0);
	go(c, C2H, blk, 63, 0);
	CHECK_EQ(wait_idle(c, C2H), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(C2H) + KH_XDMA_CH_COMPLETED), 64);
	for (i = 0; i < 64; i++)
		CHECK(!memcmp(back + 64 * (63 - i), src + 64 * i, 64));
	ksim_card_destroy(c);
}

TEST_F(model, blocks_chained_by_nxt_adj)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(200 * 32, 64);
	struct kh_xdma_desc *a = halloc(4096, 4096), *b = halloc(4096, 4096);
	u8 got[200 * 32];
	unsigned int i;

	REQUIRE(c);
	pattern(src, sizeof(got), 2);
	/*
	 * 200 descriptors as blocks of 32, 64, 64 and 40 (the upstream
	 * driver's shape): each block's last names the next block and how
	 * many follow its first
	 */
	for (i = 0; i < 200; i++) {
		struct kh_xdma_desc *d = i < 96 ? &a[i] : &b[i - 96];

		desc(d, 0, i == 199 ? KH_XDMA_DESC_STOP : 0, 32,
		     bus(src + 32 * i), CARD(0x40000 + 32 * i), 0);
	}
	a[31].control = KH_XDMA_DESC_CONTROL(63, 0);
	a[31].next = bus(&a[32]);
	a[95].control = KH_XDMA_DESC_CONTROL(63, 0);
	a[95].next = bus(&b[0]);
	b[63].control = KH_XDMA_DESC_CONTROL(39, 0);
	b[63].next = bus(&b[64]);
	go(c, H2C, a, 31, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 200);
	card_rd(c, 0x40000, got, sizeof(got));
	CHECK(!memcmp(got, src, sizeof(got)));
	ksim_card_destroy(c);
}

TEST_F(model, the_4k_rule_and_descriptor_alignment)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(64, 64);
	struct kh_xdma_desc *pg = halloc(8192, 4096);
	struct kh_xdma_desc *end = &pg[128 - 4];	/* 4 before the boundary */
	unsigned int i;
	u32 ur = KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR);

	REQUIRE(c);
	for (i = 0; i < 8; i++)
		desc(&end[i], 0, i == 3 ? KH_XDMA_DESC_STOP : 0, 32, bus(src),
		     CARD(32 * i), 0);
	/* a block ending exactly at the boundary is fine */
	go(c, H2C, end, 3, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 4);
	/* one more crosses it: descriptor error, nothing moves */
	go(c, H2C, end, 4, 0);
	CHECK_EQ(wait_idle(c, H2C), ur);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 0);
	/* the next block named by nxt_adj crossing it: the same, later */
	desc(&pg[0], 4, 0, 32, CARD(0), bus(src), bus(end));
	go(c, C2H, pg, 0, 0);
	CHECK_EQ(wait_idle(c, C2H), ur);
	CHECK_EQ(rd(c, chb(C2H) + KH_XDMA_CH_COMPLETED), 1);
	/* a descriptor address not 32-byte aligned */
	go(c, H2C, (u8 *)end + 16, 0, 0);
	CHECK_EQ(wait_idle(c, H2C), ur);
	/* a descriptor address that is not host memory */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	wr(c, sgb(H2C) + KH_XDMA_SG_DESC_LO, 0x1000);
	wr(c, sgb(H2C) + KH_XDMA_SG_DESC_HI, 0);
	wr(c, sgb(H2C) + KH_XDMA_SG_DESC_ADJ, 0);
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL, KH_XDMA_CTRL_RUN | IE_ALL);
	CHECK_EQ(wait_idle(c, H2C), ur);
	CHECK(host_faults > 0);
	ksim_card_destroy(c);
}

TEST_F(model, magic_and_the_28_bit_length)
{
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc(128, 64);
	struct kh_xdma_desc *d = halloc(3 * sizeof(*d), 32);
	u8 got[128];

	REQUIRE(c);
	pattern(src, 128, 3);
	desc(&d[0], 2, 0, 32, bus(src), CARD(0), 0);
	desc(&d[1], 0, 0, 32, bus(src + 32), CARD(32), 0);
	desc(&d[2], 0, KH_XDMA_DESC_STOP, 32, bus(src + 64), CARD(64), 0);
	d[1].control = 0xad4cu << 16;		/* one bit off */
	go(c, H2C, d, 2, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_MAGIC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 1);
	card_rd(c, 0, got, 96);
	CHECK(!memcmp(got, src, 32));
	CHECK_EQ(got[40], 0);			/* the rest never moved */
	/* length [27:0]: bits above are not length */
	CHECK_EQ(one(c, H2C, bus(src), CARD(0x800), 0xf0000000u | 100), DONE);
	memset(got, 0xee, sizeof(got));
	card_rd(c, 0x800, got, 128);
	CHECK(!memcmp(got, src, 100));
	CHECK_EQ(got[100], 0);			/* the word's rest: zero */
	CHECK_EQ(got[127], 0);
	/* a zero length completes and moves nothing */
	CHECK_EQ(one(c, C2H, CARD(0), 0, 0), DONE);
	CHECK_EQ(rd(c, chb(C2H) + KH_XDMA_CH_COMPLETED), 1);
	ksim_card_destroy(c);
}

/* ---- data, byte for byte ---- */

static void data_exact(bool mapped)
{
	static const u32 sizes[] = {
		1, 5, 31, 32, 33, 63, 64, 65, 100, 4095, 4096, 4097, 65535,
		65536 + 7, 3 * 65536 + 100, (1u << 20) + 13,
	};
	static const u32 coff[] = { 0, 32, 5, 31, 4096 - 3, 65536 - 7 };
	struct ksim_card *c = xcard(NULL);
	u8 *src = halloc((1u << 20) + 4096, 4096);
	u8 *dst = halloc((1u << 20) + 4096, 4096);
	u8 *want = malloc((1u << 20) + 256), *got = malloc((1u << 20) + 256);
	unsigned int i, j, n = 0;

	REQUIRE(c && want && got);
	th_mapping = mapped;
	th_maps = 0;
	for (i = 0; i < KSIM_ARRAY_SIZE(sizes); i++) {
		for (j = 0; j < KSIM_ARRAY_SIZE(coff); j++, n++) {
			u32 len = sizes[i], hoff = (i * 7 + j * 13) % 41;
			u64 local = 0x100000 + coff[j];
			u64 w0 = local & ~31ULL, w1 = (local + len + 31) & ~31ULL;

			pattern(src + hoff, len, n + 10);
			/* the card's bytes around the range are 0xa5 first */
			memset(want, 0xa5, (size_t)(w1 - w0) + 64);
			card_wr(c, w0 - 32, want, (size_t)(w1 - w0) + 64);
			CHECK_EQ(one(c, H2C, bus(src + hoff), CARD(local), len),
				 DONE);
			/* partial words: the rest of the word is 0 */
			memset(want, 0xa5, (size_t)(w1 - w0) + 64);
			memset(want + 32, 0, (size_t)(w1 - w0));
			memcpy(want + 32 + (local - w0), src + hoff, len);
			card_rd(c, w0 - 32, got, (size_t)(w1 - w0) + 64);
			CHECK_MSG(!memcmp(got, want, (size_t)(w1 - w0) + 64),
				  "H2C len %u card +%llu host +%u", len,
				  (unsigned long long)(local & 0xffff), hoff);
			/* back: exactly len bytes land, the host's rest stays */
			memset(dst, 0x3c, len + 128);
			CHECK_EQ(one(c, C2H, CARD(local), bus(dst + 64 + hoff), len),
				 DONE);
			CHECK_MSG(!memcmp(dst + 64 + hoff, src + hoff, len),
				  "C2H len %u", len);
			CHECK_EQ(dst[63 + hoff], 0x3c);
			CHECK_EQ(dst[64 + hoff + len], 0x3c);
		}
	}
	CHECK_EQ(host_faults, 0);
	/* the data went straight to the host's pointers, or never did */
	CHECK_MSG(mapped ? th_maps > 0 : th_maps == 0, "%u maps", th_maps);
	th_mapping = true;
	free(want);
	free(got);
	ksim_card_destroy(c);
}

/* a host that offers its pointers (in-process) */
TEST_F(model, data_exact_at_assorted_sizes_and_alignments)
{
	data_exact(true);
}

/* one that only copies (kohaku_sim.ko: pages, not one piece) */
TEST_F(model, data_exact_through_the_hosts_copies)
{
	data_exact(false);
}

TEST_F(model, a_large_transfer_is_cheap_and_exact)
{
	struct ksim_card *c = xcard(NULL);
	u32 len = 32u << 20;
	u8 *src = halloc(len, 4096);
	struct kh_xdma_desc *d = halloc(2 * sizeof(*d), 32);
	u8 *got = malloc(4096);
	u64 t0;

	REQUIRE(c && got);
	pattern(src, len, 99);
	/* two descriptors of 16 MiB */
	desc(&d[0], 1, 0, len / 2, bus(src), CARD(0x1000000), 0);
	desc(&d[1], 0, KH_XDMA_DESC_STOP, len / 2, bus(src + len / 2),
	     CARD(0x1000000 + len / 2), 0);
	go(c, H2C, d, 1, 0);
	t0 = ksim_cycles(c);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	/* 32 bytes a cycle */
	CHECK(ksim_cycles(c) - t0 >= len / 32);
	card_rd(c, 0x1000000 + len - 4096, got, 4096);
	CHECK(!memcmp(got, src + len - 4096, 4096));
	card_rd(c, 0x1000000 + 12345 * 32, got, 4096);
	CHECK(!memcmp(got, src + 12345 * 32, 4096));
	free(got);
	ksim_card_destroy(c);
}

/*
 * Zeros into memory never written take no page of the sparse DRAM (every
 * new BO is cleared: a mesh-sized one must not cost the host a mesh of
 * RAM), and read back 0 as before; a byte that is not zero takes its page,
 * and zeros over a page that is there are written as any data.
 */
TEST_F(model, zeros_into_unwritten_memory_take_no_page)
{
	struct ksim_card *c = xcard(NULL);
	struct ksim_dram *dr;
	u32 len = 1u << 20;
	u8 *src = halloc(len, 4096);
	u8 got[64];
	u64 pages;

	REQUIRE(c);
	dr = &ksim_card_mesh(c, 0)->dram;
	memset(src, 0, len);
	pages = dr->pages;
	CHECK_EQ(one(c, H2C, bus(src), CARD(0x2000000), len), DONE);
	CHECK_EQ(dr->pages, pages);
	card_rd(c, 0x2000000 + len - 64, got, 64);
	CHECK_EQ(got[0] | got[63], 0);
	src[100] = 0x5a;
	CHECK_EQ(one(c, H2C, bus(src), CARD(0x2000000), len), DONE);
	CHECK_EQ(dr->pages, pages + 1);
	card_rd(c, 0x2000000 + 64, got, 64);
	CHECK_EQ(got[36], 0x5a);
	src[100] = 0;
	CHECK_EQ(one(c, H2C, bus(src), CARD(0x2000000), len), DONE);
	card_rd(c, 0x2000000 + 64, got, 64);
	CHECK_EQ(got[36], 0);
	ksim_card_destroy(c);
}

/* ---- errors ---- */

TEST_F(model, host_memory_errors_stop_the_channel)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);

	REQUIRE(c);
	/* H2C from a source that is not host memory: read error (UR) */
	CHECK_EQ(one(c, H2C, 0x1000, CARD(0), 64),
		 KH_XDMA_READ_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 0);
	/* C2H to one: write error (UR) */
	CHECK_EQ(one(c, C2H, CARD(0), 0x1000, 64),
		 KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR));
	/* running off the end of host memory mid-transfer */
	CHECK_EQ(one(c, C2H, CARD(0), BUS0 + ARENA_SIZE - 100, 4096),
		 KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR));
	/* the channel works again at once */
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64), DONE);
	ksim_card_destroy(c);
}

/* clear RUN and the logged errors, in the order given */
static void recover(struct ksim_card *c, int ch, bool rc_first)
{
	if (rc_first) {
		rd(c, chb(ch) + KH_XDMA_CH_STATUS_RC);
		wr(c, chb(ch) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	} else {
		wr(c, chb(ch) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
		wr(c, chb(ch) + KH_XDMA_CH_STATUS, KH_XDMA_ERRORS);
	}
}

TEST_F(model, card_side_decerr_wedges_until_recovered)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	u32 s;
	int ch;

	REQUIRE(c);
	for (ch = 0; ch < 2; ch++) {
		u64 nowhere = KH_CARD_ADDR(2, 0);	/* no mesh 2 on this card */
		u32 err = ch ? KH_XDMA_READ_ERR(KH_XDMA_ERR_DECERR) :
			  KH_XDMA_WRITE_ERR(KH_XDMA_ERR_DECERR);

		if (ch)
			one(c, C2H, nowhere, bus(buf), 64);
		else
			one(c, H2C, bus(buf), nowhere, 64);
		s = st(c, ch);
		CHECK_EQ(s, KH_XDMA_STATUS_BUSY | err);
		ksim_run(c, 1000000);
		CHECK_EQ(st(c, ch), KH_XDMA_STATUS_BUSY | err);
		CHECK_EQ(rd(c, chb(ch) + KH_XDMA_CH_COMPLETED), 0);
		/* RUN cleared alone: still wedged */
		wr(c, chb(ch) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
		ksim_run(c, 10000);
		CHECK_EQ(st(c, ch), KH_XDMA_STATUS_BUSY | err);
		/* ... and the errors cleared: idle */
		wr(c, chb(ch) + KH_XDMA_CH_STATUS, err);
		CHECK_EQ(st(c, ch), KH_XDMA_CTRL_IDLE_STOPPED);
		CHECK_EQ(one(c, ch, ch ? CARD(0) : bus(buf),
			      ch ? bus(buf) : CARD(0), 64), DONE);
	}
	ksim_card_destroy(c);
}

TEST_F(model, card_side_hangs_wedge_with_nothing_logged)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	u64 wrong_mesh = KH_CARD_ADDR(0, 0) | (1ULL << 36);	/* [37:36] = 1 */
	u64 past_dram = CARD(ksim_mesh_dram_size(c, 0) - 32);
	u64 unserved = KH_CARD_AP(0, 7, 0);

	REQUIRE(c);
	one(c, H2C, bus(buf), wrong_mesh, 64);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	/* nothing logged: clearing RUN alone recovers */
	wr(c, chb(H2C) + KH_XDMA_CH_CTRL_W1C, KH_XDMA_CTRL_RUN);
	CHECK_EQ(st(c, H2C), KH_XDMA_CTRL_IDLE_STOPPED);
	one(c, C2H, past_dram, bus(buf), 64);
	CHECK_EQ(st(c, C2H), KH_XDMA_STATUS_BUSY);
	recover(c, C2H, true);
	CHECK_EQ(st(c, C2H), KH_XDMA_CTRL_IDLE_STOPPED);
	/* an aperture nothing serves hangs MAG's host window that way */
	one(c, H2C, bus(buf), unserved, 64);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	recover(c, H2C, false);
	CHECK_EQ(st(c, H2C), KH_XDMA_CTRL_IDLE_STOPPED);
	/* ... until the mesh is reset: the next H2C wedges again */
	one(c, H2C, bus(buf), CARD(0), 64);
	CHECK_EQ(st(c, H2C), KH_XDMA_STATUS_BUSY);
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64), DONE);	/* not C2H */
	recover(c, H2C, false);
	CHECK_EQ(ksim_mesh_reset(c, 0), 0);
	ksim_run(c, 100);
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64), DONE);
	CHECK_EQ(ksim_card_mesh(c, 0)->mag->host_hangs, 1);
	ksim_card_destroy(c);
}

TEST_F(model, a_mesh_in_reset_holds_the_data_until_released)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	u8 got[64];
	u64 t0;

	REQUIRE(c);
	pattern(buf, 64, 5);
	t0 = ksim_cycles(c);
	/* the wizard's software reset: the mesh is held until it relocks */
	mm_clk_wr(c, 0, KH_CLK_SW_RST, KH_CLK_SW_RST_KEY);
	CHECK(ksim_mesh_in_reset(c, 0));
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0x300), 64), DONE);
	CHECK(ksim_cycles(c) - t0 >= KH_CLK_LOCK_CYCLES);
	card_rd(c, 0x300, got, 64);
	CHECK(!memcmp(got, buf, 64));
	ksim_card_destroy(c);
}

/* ---- knobs ---- */

static int knob(struct ksim_card *c, const char *spec)
{
	char err[256];
	int e = ksim_inject(c, spec, err, sizeof(err));

	if (e)
		check_diag("inject %s: %s", spec, err);
	return e;
}

TEST_F(model, knob_magic_fetch_host_and_stray_errors)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	struct kh_xdma_desc *d = halloc(4 * sizeof(*d), 32);
	char text[512];
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 4; i++)
		desc(&d[i], 0, i == 3 ? KH_XDMA_DESC_STOP : 0, 64, bus(buf),
		     CARD(64 * i), 0);
	/* the third descriptor fetched arrives with a bad magic */
	REQUIRE(!knob(c, "xdma error=magic after=2"));
	go(c, H2C, d, 3, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_MAGIC_STOPPED);
	CHECK_EQ(rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED), 2);
	/* count=1 is spent: the same chain runs clean now */
	go(c, H2C, d, 3, 0);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_DESC_STOPPED);
	/* a fetch failing in host memory */
	REQUIRE(!knob(c, "xdma error=fetch dir=c2h"));
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64), DONE);	/* not H2C */
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64),
		 KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR));
	/* host errors on data: H2C read error, C2H write error */
	REQUIRE(!knob(c, "xdma error=host count=2"));
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64),
		 KH_XDMA_READ_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64),
		 KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64), DONE);
	/*
	 * stray: the data goes to bus address 0 instead, which this host
	 * refuses as an IOMMU would: C2H write error, H2C read error; the
	 * buffer the descriptor named is untouched
	 */
	memset(buf, 0x5a, 64);
	REQUIRE(!knob(c, "xdma error=stray dir=c2h count=1"));
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64),
		 KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(buf[0], 0x5a);
	CHECK_EQ(buf[63], 0x5a);
	REQUIRE(!knob(c, "xdma error=stray dir=h2c count=1"));
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64),
		 KH_XDMA_READ_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64), DONE);
	ksim_dump_knobs(c, text, sizeof(text));
	CHECK(strstr(text, "4 xdma mesh=0 error=stray dir=c2h after=0 passed=0 hits=1 left=0\n"));
	CHECK(strstr(text, "5 xdma mesh=0 error=stray dir=h2c after=0 passed=0 hits=1 left=0\n"));
	CHECK(strstr(text, "1 xdma mesh=0 error=magic dir=any after=2 passed=2 hits=1 left=0\n"));
	CHECK(strstr(text, "2 xdma mesh=0 error=fetch dir=c2h after=0 passed=0 hits=1 left=0\n"));
	CHECK(strstr(text, "3 xdma mesh=0 error=host dir=any after=0 passed=0 hits=2 left=0\n"));
	/* refusals */
	CHECK(knob(c, "xdma") != 0);
	CHECK(knob(c, "xdma error=bogus") != 0);
	CHECK(knob(c, "xdma error=host dir=up") != 0);
	CHECK(knob(c, "xdma error=host mesh=0") != 0);
	CHECK(knob(c, "xdma error=host node=1,1") != 0);
	ksim_card_destroy(c);
}

TEST_F(model, knob_slverr_wedges_and_the_recovery_in_either_order)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	u8 got[64];
	char line[128];
	int ch, order;

	REQUIRE(c);
	pattern(buf, 64, 8);
	for (order = 0; order < 2; order++) {
		for (ch = 0; ch < 2; ch++) {
			u32 err = ch ? KH_XDMA_READ_ERR(KH_XDMA_ERR_SLVERR) :
				  KH_XDMA_WRITE_ERR(KH_XDMA_ERR_SLVERR);
			u64 src = ch ? CARD(0x500) : bus(buf);
			u64 dst = ch ? bus(buf + 1024) : CARD(0x500);

			snprintf(line, sizeof(line), "xdma error=slverr dir=%s",
				 ch ? "c2h" : "h2c");
			REQUIRE(!knob(c, line));
			one(c, ch, src, dst, 64);
			ksim_run(c, 500000);
			CHECK_EQ(st(c, ch), KH_XDMA_STATUS_BUSY | err);
			CHECK_EQ(rd(c, chb(ch) + KH_XDMA_CH_COMPLETED), 0);
			/* one half of the recovery is not enough */
			if (order) {
				rd(c, chb(ch) + KH_XDMA_CH_STATUS_RC);
				CHECK_EQ(st(c, ch), KH_XDMA_STATUS_BUSY);
				wr(c, chb(ch) + KH_XDMA_CH_CTRL_W1C,
				   KH_XDMA_CTRL_RUN);
			} else {
				wr(c, chb(ch) + KH_XDMA_CH_CTRL_W1C,
				   KH_XDMA_CTRL_RUN);
				CHECK_EQ(st(c, ch), KH_XDMA_STATUS_BUSY | err);
				rd(c, chb(ch) + KH_XDMA_CH_STATUS_RC);
			}
			CHECK_EQ(st(c, ch), KH_XDMA_CTRL_IDLE_STOPPED);
			/* nothing moved; the next transfer goes through */
			CHECK_EQ(one(c, ch, src, dst, 64), DONE);
		}
	}
	card_rd(c, 0x500, got, 64);
	CHECK(!memcmp(got, buf, 64));
	CHECK(!memcmp(buf + 1024, buf, 64));
	ksim_card_destroy(c);
}

TEST_F(model, knob_from_the_description)
{
	struct ksim_card *c = xcard("inject xdma error=slverr dir=c2h count=forever\n"
				    "xxx sax xxx\nmag nul nul\nxxx sax xxx\n");
	u8 *buf = halloc(4096, 64);

	REQUIRE(c);
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64), DONE);
	one(c, C2H, CARD(0), bus(buf), 64);
	CHECK_EQ(st(c, C2H), KH_XDMA_STATUS_BUSY |
		 KH_XDMA_READ_ERR(KH_XDMA_ERR_SLVERR));
	CHECK_EQ(c->xdma->ch[C2H].wedges, 1);
	ksim_card_destroy(c);
}

/* ---- completion count, poll-mode write-back ---- */

TEST_F(model, poll_mode_writeback)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	u32 *wb = halloc(64, 64);
	struct kh_xdma_desc *d = halloc(5 * sizeof(*d), 32);
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 5; i++)
		desc(&d[i], 0, (i == 1 ? KH_XDMA_DESC_COMPLETED : 0) |
		     (i == 4 ? KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED : 0),
		     64, bus(buf), CARD(64 * i), 0);
	wr(c, chb(H2C) + KH_XDMA_CH_WB_LO, (u32)bus(wb));
	wr(c, chb(H2C) + KH_XDMA_CH_WB_HI, (u32)(bus(wb) >> 32));
	*wb = 0xffffffff;
	go(c, H2C, d, 4, KH_XDMA_CTRL_POLL_WB);
	/* watch the word: the count of the COMPLETED-flagged ones */
	for (i = 0; i < 100 && *wb == 0xffffffff; i++)
		ksim_run(c, 10);
	CHECK_EQ(*wb, 2);
	CHECK_EQ(wait_idle(c, H2C), DONE);
	CHECK_EQ(*wb, 5);
	CHECK_EQ(KH_XDMA_WB_COUNT(*wb), rd(c, chb(H2C) + KH_XDMA_CH_COMPLETED));
	/* an error writes the count so far with [31] */
	d[3].control = 0;
	go(c, H2C, d, 4, KH_XDMA_CTRL_POLL_WB);
	CHECK_EQ(wait_idle(c, H2C), KH_XDMA_CTRL_MAGIC_STOPPED |
		 KH_XDMA_CTRL_DESC_COMPLETED);
	CHECK_EQ(*wb, KH_XDMA_WB_ERROR | 3);
	/* without POLL_WB nothing is written */
	d[3].control = KH_XDMA_DESC_CONTROL(0, 0);
	*wb = 0x5a5a5a5a;
	go(c, H2C, d, 4, 0);
	CHECK_EQ(wait_idle(c, H2C), DONE);
	CHECK_EQ(*wb, 0x5a5a5a5a);
	/* a write-back address that is not host memory: counted, no error */
	wr(c, chb(C2H) + KH_XDMA_CH_WB_LO, 0x40);
	wr(c, chb(C2H) + KH_XDMA_CH_WB_HI, 0);
	desc(&d[0], 0, KH_XDMA_DESC_STOP | KH_XDMA_DESC_COMPLETED, 64, CARD(0),
	     bus(buf), 0);
	go(c, C2H, d, 0, KH_XDMA_CTRL_POLL_WB);
	CHECK_EQ(wait_idle(c, C2H), DONE);
	CHECK_EQ(c->xdma->wb_faults, 1);
	ksim_card_destroy(c);
}

/* ---- interrupts ---- */

static void irq_setup(struct ksim_card *c, u32 chan_vec, u32 user_vec)
{
	u32 b = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);

	wr(c, b + KH_XDMA_IRQ_CHAN_VEC(0), chan_vec);
	wr(c, b + KH_XDMA_IRQ_USER_VEC(0), user_vec);
}

TEST_F(model, interrupts_mask_enable_matrix_and_vectors)
{
	struct ksim_card *c = xcard(NULL);
	u8 *buf = halloc(4096, 64);
	u32 ib = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	unsigned int mask, en, ch;

	REQUIRE(c);
	/* H2C 0 on vector 2, C2H 0 on vector 1 */
	irq_setup(c, 0x0102, 0);
	for (ch = 0; ch < 2; ch++) {
		for (mask = 0; mask < 2; mask++) {
			for (en = 0; en < 2; en++) {
				u32 bit = ch ? KH_XDMA_IRQ_BIT_C2H(1, 0) :
					  KH_XDMA_IRQ_BIT_H2C(0);
				unsigned int before = msi_n;

				wr(c, chb(ch) + KH_XDMA_CH_IRQ_MASK,
				   mask ? KH_XDMA_CTRL_DESC_STOPPED : 0);
				wr(c, ib + KH_XDMA_IRQ_CHAN_EN, en ? bit : 0);
				CHECK_EQ(one(c, ch, ch ? CARD(0) : bus(buf),
					     ch ? bus(buf) : CARD(0), 64), DONE);
				CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_CHAN_REQ),
					 mask ? bit : 0);
				CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_CHAN_PEND),
					 mask && en ? bit : 0);
				CHECK_EQ(msi_n - before, mask && en ? 1 : 0);
				if (mask && en && msi_n > before)
					CHECK_EQ(msi_log[before], ch ? 1 : 2);
				/* the status read clears the request */
				rd(c, chb(ch) + KH_XDMA_CH_STATUS_RC);
				CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_CHAN_REQ), 0);
			}
		}
	}
	/*
	 * one message per assertion: a pending interrupt stays pending
	 * without another message until it is cleared; disabling and
	 * enabling again while it is requested signals again
	 */
	msi_n = 0;
	wr(c, chb(H2C) + KH_XDMA_CH_IRQ_MASK, KH_XDMA_CTRL_DESC_COMPLETED |
	   KH_XDMA_CTRL_DESC_STOPPED);
	wr(c, ib + KH_XDMA_IRQ_CHAN_EN, 3);
	CHECK_EQ(one(c, H2C, bus(buf), CARD(0), 64), DONE);
	CHECK_EQ(msi_n, 1);
	wr(c, ib + KH_XDMA_IRQ_CHAN_EN_W1C, 1);
	CHECK_EQ(msi_n, 1);
	wr(c, ib + KH_XDMA_IRQ_CHAN_EN_W1S, 1);
	CHECK_EQ(msi_n, 2);
	CHECK_EQ(msi_log[1], 2);
	/* the mask set while status holds the bit: a message then */
	rd(c, chb(C2H) + KH_XDMA_CH_STATUS_RC);
	wr(c, chb(C2H) + KH_XDMA_CH_IRQ_MASK, 0);
	CHECK_EQ(one(c, C2H, CARD(0), bus(buf), 64), DONE);
	CHECK_EQ(msi_n, 2);
	wr(c, chb(C2H) + KH_XDMA_CH_IRQ_MASK_W1S, KH_XDMA_CTRL_DESC_COMPLETED);
	CHECK_EQ(msi_n, 3);
	CHECK_EQ(msi_log[2], 1);
	/* an error interrupts through its mask bits too */
	rd(c, chb(C2H) + KH_XDMA_CH_STATUS_RC);
	wr(c, chb(C2H) + KH_XDMA_CH_IRQ_MASK, KH_XDMA_CTRL_WRITE_ERROR);
	CHECK_EQ(one(c, C2H, CARD(0), 0x1000, 64),
		 KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(msi_n, 4);
	/* a vector past what the host took is not delivered */
	rd(c, chb(C2H) + KH_XDMA_CH_STATUS_RC);
	irq_setup(c, 0x0702, 0);
	CHECK_EQ(one(c, C2H, CARD(0), 0x1000, 64),
		 KH_XDMA_WRITE_ERR(KH_XDMA_ERR_UR));
	CHECK_EQ(msi_n, 4);
	CHECK_EQ(c->xdma->irqs_lost, 1);
	ksim_card_destroy(c);
}

TEST_F(model, the_user_interrupt_is_the_irq_addon_line)
{
	static const char addon[] =
		"param irq 1\nxxx null xxx\nmag nul nul\nxxx sax xxx\n";
	struct ksim_card *c = xcard(addon);
	u32 ib = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	struct kh_flit f;

	REQUIRE(c);
	irq_setup(c, 0x0100, 0x03);
	wr(c, ib + KH_XDMA_IRQ_USER_EN, 1);
	mh_wr(c, KH_ORC_IRQ_EN, KH_IRQ_RX);
	/* a CU_CTRL reply pushed into RX raises the line */
	mh_ctrl_req(&f, 1, 0, 0, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK(ksim_irq_line(c));
	CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_USER_REQ), 1);
	CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_USER_PEND), 1);
	CHECK_EQ(msi_n, 1);
	CHECK_EQ(msi_log[0], 3);
	/* cleared at the orchestrator: the request drops */
	mh_mb_count(c);
	mh_wr(c, KH_ORC_IRQ_STAT, ~0ULL);
	CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_USER_REQ), 0);
	/* with the user enable clear: requested, not pending, no message */
	wr(c, ib + KH_XDMA_IRQ_USER_EN_W1C, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_USER_REQ), 1);
	CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_USER_PEND), 0);
	CHECK_EQ(msi_n, 1);
	ksim_card_destroy(c);
	/* without the addon usr_irq_req is tied 0 */
	c = xcard(NULL);
	REQUIRE(c);
	wr(c, ib + KH_XDMA_IRQ_USER_EN, 1);
	mh_wr(c, KH_ORC_IRQ_EN, ~0ULL);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK_EQ(rd(c, ib + KH_XDMA_IRQ_USER_REQ), 0);
	CHECK_EQ(msi_n, 0);
	ksim_card_destroy(c);
}

/* ---- time ---- */

TEST_F(model, timing_fetch_round_trip_and_32_bytes_a_cycle)
{
	struct ksim_card *c = xcard(NULL);
	struct ksim_timing t;
	u8 *buf = halloc(1 << 20, 4096);
	struct kh_xdma_desc *d = halloc(sizeof(*d), 32);
	u32 ib = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	u64 start, end_h2c, end_c2h;

	REQUIRE(c);
	ksim_get_timing(c, &t);
	CHECK_EQ(t.dma_cycles, 150);
	/* the completion is seen by an interrupt, at its cycle */
	wr(c, ib + KH_XDMA_IRQ_CHAN_EN, 3);
	irq_setup(c, 0x0100, 0);
	wr(c, chb(H2C) + KH_XDMA_CH_IRQ_MASK, KH_XDMA_CTRL_DESC_STOPPED);
	wr(c, chb(C2H) + KH_XDMA_CH_IRQ_MASK, KH_XDMA_CTRL_DESC_STOPPED);
	desc(d, 0, KH_XDMA_DESC_STOP, 1 << 20, bus(buf), CARD(0), 0);
	go(c, H2C, d, 0, 0);
	start = ksim_cycles(c);		/* RUN landed in the last cycle */
	ksim_run(c, 150 + 150 + 32768 + 10);
	REQUIRE(msi_n == 1);
	end_h2c = msi_cycle[0];
	/* a fetch round trip, a read round trip, 1 MiB at 32 B a cycle */
	CHECK_EQ(end_h2c - start, 150 + 150 + 32768 - 1);
	desc(d, 0, KH_XDMA_DESC_STOP, 1 << 20, CARD(0), bus(buf), 0);
	go(c, C2H, d, 0, 0);
	start = ksim_cycles(c);
	ksim_run(c, 150 + 32768 + 10);
	REQUIRE(msi_n == 2);
	end_c2h = msi_cycle[1];
	/* C2H writes are posted: no round trip for the data */
	CHECK_EQ(end_c2h - start, 150 + 32768 - 1);
	/* idle time runs the engine as register accesses do */
	CHECK_EQ(st(c, C2H), KH_XDMA_CTRL_DESC_STOPPED);
	ksim_card_destroy(c);
}

static void script(struct ksim_card *c, char *out, size_t len)
{
	u8 *buf = halloc(70000, 4096);
	struct kh_xdma_desc *d = halloc(4 * sizeof(*d), 32);
	u32 ib = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	size_t n;
	u64 pos = 0;

	pattern(buf, 70000, 77);
	ksim_command(c, "trace on events=dma,inject", NULL, 0);
	knob(c, "xdma error=magic after=5");
	irq_setup(c, 0x0100, 0);
	wr(c, ib + KH_XDMA_IRQ_CHAN_EN, 3);
	wr(c, chb(H2C) + KH_XDMA_CH_IRQ_MASK, IE_ALL);
	desc(&d[0], 1, 0, 65536 + 3, bus(buf), CARD(3), 0);
	desc(&d[1], 0, KH_XDMA_DESC_COMPLETED, 100, bus(buf + 70000 - 100),
	     CARD(0x20000), bus(&d[2]));
	desc(&d[2], 1, KH_XDMA_DESC_STOP, 7, bus(buf), CARD(0x30000), 0);
	go(c, H2C, d, 1, KH_XDMA_CTRL_POLL_WB);
	ksim_run(c, 1234);
	st(c, H2C);
	wait_idle(c, H2C);
	one(c, C2H, CARD(0), bus(buf), 4000);
	one(c, H2C, bus(buf), CARD(0), 64);
	one(c, H2C, bus(buf), CARD(0), 64);
	n = ksim_trace_text(c, &pos, out, len);
	ksim_dump_stats(c, out + n, len - n);
}

TEST_F(model, determinism)
{
	static char a[65536], b[65536];
	struct ksim_card *c1 = xcard(NULL), *c2;
	u64 t1;

	REQUIRE(c1);
	script(c1, a, sizeof(a));
	t1 = ksim_cycles(c1);
	ksim_card_destroy(c1);
	c2 = xcard(NULL);
	REQUIRE(c2);
	script(c2, b, sizeof(b));
	CHECK_EQ(ksim_cycles(c2), t1);
	CHECK(!strcmp(a, b));
	CHECK(strstr(a, " - xdma h2c run desc=0x"));
	CHECK(strstr(a, " - xdma h2c desc n=0 card=0x10000000003 len=65539 cycles=2199\n"));
	CHECK(strstr(a, " - xdma irq vector=0\n"));
	CHECK(strstr(a, " 0 inject 1 xdma 0,0 a=0x0 v=0x0\n"));
	CHECK(strstr(a, " - xdma h2c stop status=0x00000010 completed=0\n"));
	CHECK(strstr(a, "xdma h2c runs=3 descs=4 bytes=65710 errors=1 wedges=0 "));
	CHECK(strstr(a, "xdma c2h runs=1 descs=1 bytes=4000 "));
	if (getenv("XDMA_SHOW"))
		check_diag("first run:\n%s", a);
	ksim_card_destroy(c2);
}

/* ---- the seam adapter and BAR0 in 32 bits ---- */

static unsigned int hw_vectors[8], hw_n;

static void hw_irq(void *arg, unsigned int vector)
{
	if (hw_n < 8)
		hw_vectors[hw_n] = vector;
	hw_n++;
}

TEST_F(model, the_seam_adapter)
{
	struct ksim_card *c = xcard(NULL);
	struct ksim_hw *sh;
	const struct kh_hw *hw;
	u8 *buf = halloc(4096, 64);
	struct kh_xdma_desc *d = halloc(sizeof(*d), 32);
	u32 ib = KH_XDMA_BLOCK(KH_XDMA_T_IRQ, 0);
	unsigned int i;

	REQUIRE(c);
	sh = ksim_hw_create(c, &th_ops, NULL, 0);
	REQUIRE(sh);
	hw = ksim_hw_get(sh);
	CHECK_EQ(hw->bar_size[0], 16u << 20);
	CHECK_EQ(hw->bar_size[1], 64u << 10);
	for (i = 2; i < KH_HW_MAX_BARS; i++)
		CHECK_EQ(hw->bar_size[i], 0);
	CHECK_EQ(hw->n_irqs, 4);
	CHECK(hw->ops->irq_attach && hw->ops->bar_read32 && hw->ops->bar_write32);
	CHECK_EQ(hw->ops->bar_read32(hw->ctx, 1, 0x1000), 0x1fc10006);
	CHECK_EQ(hw->ops->bar_read32(hw->ctx, 1, 0x3000 + KH_XDMA_CFG_MSI_EN), 2);
	/* the handler gets the programmed vector */
	hw->ops->irq_attach(hw->ctx, hw_irq, NULL);
	hw->ops->bar_write32(hw->ctx, 1, ib + KH_XDMA_IRQ_CHAN_VEC(0), 0x0300);
	hw->ops->bar_write32(hw->ctx, 1, ib + KH_XDMA_IRQ_CHAN_EN, 3);
	hw->ops->bar_write32(hw->ctx, 1, chb(C2H) + KH_XDMA_CH_IRQ_MASK,
			     KH_XDMA_CTRL_DESC_STOPPED);
	desc(d, 0, KH_XDMA_DESC_STOP, 64, CARD(0), bus(buf), 0);
	hw->ops->bar_write32(hw->ctx, 1, sgb(C2H) + KH_XDMA_SG_DESC_LO, (u32)bus(d));
	hw->ops->bar_write32(hw->ctx, 1, sgb(C2H) + KH_XDMA_SG_DESC_HI,
			     (u32)(bus(d) >> 32));
	hw->ops->bar_write32(hw->ctx, 1, chb(C2H) + KH_XDMA_CH_CTRL,
			     KH_XDMA_CTRL_RUN | IE_ALL);
	hw->ops->idle_ns(hw->ctx, 10000);
	CHECK_EQ(hw_n, 1);
	CHECK_EQ(hw_vectors[0], 3);
	/* detached: nothing is called */
	hw->ops->irq_attach(hw->ctx, NULL, NULL);
	hw->ops->bar_read32(hw->ctx, 1, chb(C2H) + KH_XDMA_CH_STATUS_RC);
	hw->ops->bar_write32(hw->ctx, 1, chb(C2H) + KH_XDMA_CH_CTRL, 0);
	hw->ops->bar_write32(hw->ctx, 1, chb(C2H) + KH_XDMA_CH_CTRL,
			     KH_XDMA_CTRL_RUN | IE_ALL);
	hw->ops->idle_ns(hw->ctx, 10000);
	CHECK_EQ(hw_n, 1);
	ksim_hw_destroy(sh);
	/* poll only: no vectors, MSI-X off */
	c = xcard(NULL);
	REQUIRE(c);
	sh = ksim_hw_create(c, NULL, NULL, KSIM_HW_POLL);
	REQUIRE(sh);
	hw = ksim_hw_get(sh);
	CHECK_EQ(hw->n_irqs, 0);
	CHECK_EQ(hw->ops->bar_read32(hw->ctx, 1, 0x3000 + KH_XDMA_CFG_MSI_EN), 0);
	/* no host memory at all: a fetch fails */
	hw->ops->bar_write32(hw->ctx, 1, sgb(H2C) + KH_XDMA_SG_DESC_LO, (u32)bus(d));
	hw->ops->bar_write32(hw->ctx, 1, chb(H2C) + KH_XDMA_CH_CTRL,
			     KH_XDMA_CTRL_RUN | IE_ALL);
	hw->ops->idle_ns(hw->ctx, 10000);
	CHECK_EQ(hw->ops->bar_read32(hw->ctx, 1, chb(H2C) + KH_XDMA_CH_STATUS),
		 KH_XDMA_DESC_ERR(KH_XDMA_ERR_UR));
	ksim_hw_destroy(sh);
}

TEST_F(model, bar0_in_32_bit_halves)
{
	struct ksim_card *c = xcard(NULL);
	u64 caps;

	REQUIRE(c);
	/* a mesh control window's rules are model_bar32's */
	caps = ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_CAPS);
	CHECK_EQ(ksim_bar_read32(c, 0, KH_MESH_BASE(0) + KH_ORC_CAPS), (u32)caps);
	CHECK_EQ(ksim_bar_read32(c, 0, KH_MESH_BASE(0) + 2), ~0u);
	CHECK_EQ(ksim_bar_read32(c, 0, KH_BAR0_SIZE), ~0u);
	/* the wizard's STATUS is its own 32-bit register at +4 */
	CHECK_EQ(ksim_bar_read32(c, 0, KH_CLKWIZ_BASE(0) + KH_CLK_STATUS),
		 KH_CLK_LOCKED);
	ksim_bar_write32(c, 0, KH_CLKWIZ_BASE(0) + KH_CLK_DIV(1), 6);
	CHECK_EQ(ksim_bar_read32(c, 0, KH_CLKWIZ_BASE(0) + KH_CLK_DIV(1)), 6);
	CHECK_EQ(ksim_bar_read32(c, 0, KH_CLKWIZ_BASE(0) + KH_CLK_DIV(1) - 4),
		 mm_clk_rd(c, 0, KH_CLK_DIV(1) - 4));
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
