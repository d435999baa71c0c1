// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The interrupt addon (docs/spec/irq-addon.md): storage only without it;
 * with it, CAPS[40], the events, write-1-to-clear with the event winning
 * a same-cycle clear, IRQ_EN gating the card's line, the OR over meshes.
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

static const char one[] =
	"param irq 1\nxxx null xxx\nmag nul nul\nxxx sax xxx\n";

static unsigned int rises;
static void *rise_ctx;

static void on_rise(void *ctx)
{
	rises++;
	rise_ctx = ctx;
}

static u64 stat(struct ksim_card *c, unsigned int n)
{
	return mm_rd(c, n, KH_ORC_IRQ_STAT);
}

static void ack(struct ksim_card *c, unsigned int n, u64 bits)
{
	mm_wr(c, n, KH_ORC_IRQ_STAT, bits);
}

TEST_F(model, absent_addon_is_storage_only)
{
	struct ksim_card *c = mh_card("xxx null xxx\nmag nul nul\nxxx null xxx\n");
	struct kh_flit f;

	REQUIRE(c);
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS) & KH_CAPS_IRQ_ADDON, 0);
	mh_wr(c, KH_ORC_IRQ_EN, ~0ULL);
	CHECK_EQ(mh_rd(c, KH_ORC_IRQ_EN), ~0ULL);
	mm_null_prog(c, 0, 1, 0, 2, 4);
	mh_ctrl_req(&f, 1, 0, 0, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 2);
	CHECK(!(mh_rd(c, KH_ORC_RX_STATUS) & KH_RX_STATUS_EMPTY));
	CHECK_EQ(mh_rd(c, KH_ORC_IRQ_STAT), 0);
	CHECK(!ksim_irq_line(c));
	ksim_card_destroy(c);
}

TEST_F(model, each_event_sets_its_bit)
{
	struct ksim_card *c = mh_card(one);
	struct kh_flit f;

	REQUIRE(c);
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS), 0x0000000101040120ULL | KH_CAPS_IRQ_ADDON);
	CHECK_EQ(stat(c, 0), 0);
	/* a program: its signals and the end of the kick */
	mm_null_prog(c, 0, 1, 0, 2, 4);
	ksim_run(c, 2000);
	CHECK_EQ(stat(c, 0), KH_IRQ_SIGNAL | KH_IRQ_PROG_DONE);
	ack(c, 0, KH_IRQ_SIGNAL | KH_IRQ_PROG_DONE);
	CHECK_EQ(stat(c, 0), 0);
	/* a CU_CTRL reply pushed into RX */
	mh_ctrl_req(&f, 1, 0, 0, 1);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK_EQ(stat(c, 0), KH_IRQ_RX);
	CHECK_EQ(mh_mb_count(c), 1);
	ack(c, 0, ~0ULL);
	/* SIG_FAULT: an SX opcode that does not exist */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 2, 0, 1, KH_T_CU_INST, 3, 0);
	kh_flit_set(&f, KH_FIELD(255, 248), 0x7e);
	mh_mb_send(c, &f);
	ksim_run(c, 500);
	CHECK_EQ(KH_NS_CODE(mh_ns(c, 1, 2)), KH_SIG_FAULT);
	CHECK_EQ(stat(c, 0), KH_IRQ_SIGNAL | KH_IRQ_FAULT);
	ack(c, 0, KH_IRQ_FAULT);
	CHECK_EQ(stat(c, 0), KH_IRQ_SIGNAL);	/* W1C per bit */
	ack(c, 0, 0);
	CHECK_EQ(stat(c, 0), KH_IRQ_SIGNAL);
	ack(c, 0, ~0ULL);
	/* 32 beats for the agent: RX fills, then overflows */
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 1, 0, 0, KH_T_MEM_RD_REQ, 4, 0);
	kh_flit_set(&f, KH_MEM_LEN, 31);
	mh_mb_send(c, &f);
	ksim_run(c, 1000);
	CHECK_EQ(stat(c, 0), KH_IRQ_RX | KH_IRQ_RX_OVERFLOW);
	ack(c, 0, ~0ULL);
	CHECK_EQ(stat(c, 0), 0);
	/* a mesh reset clears both registers */
	mh_wr(c, KH_ORC_IRQ_EN, 0x1f);
	mm_null_prog(c, 0, 1, 0, 1, 4);
	ksim_run(c, 1000);
	CHECK(stat(c, 0) != 0);
	CHECK(ksim_irq_line(c));
	ksim_mesh_reset(c, 0);
	CHECK_EQ(stat(c, 0), 0);
	CHECK_EQ(mh_rd(c, KH_ORC_IRQ_EN), 0);
	CHECK(!ksim_irq_line(c));
	ksim_card_destroy(c);
}

TEST_F(model, enable_gates_the_line_and_the_callback)
{
	struct ksim_card *c = mh_card(one);
	int tag;

	REQUIRE(c);
	rises = 0;
	ksim_set_irq_callback(c, on_rise, &tag);
	mm_null_prog(c, 0, 1, 0, 1, 4);
	ksim_run(c, 1000);
	CHECK_EQ(stat(c, 0), KH_IRQ_SIGNAL | KH_IRQ_PROG_DONE);
	CHECK(!ksim_irq_line(c));		/* IRQ_EN = 0 */
	CHECK_EQ(rises, 0);
	mh_wr(c, KH_ORC_IRQ_EN, KH_IRQ_FAULT | (1ULL << 40));
	CHECK(!ksim_irq_line(c));		/* not these bits */
	mh_wr(c, KH_ORC_IRQ_EN, KH_IRQ_SIGNAL);
	CHECK(ksim_irq_line(c));
	CHECK_EQ(rises, 1);
	CHECK(rise_ctx == &tag);
	ack(c, 0, KH_IRQ_PROG_DONE);
	CHECK(ksim_irq_line(c));		/* still SIGNAL */
	ack(c, 0, KH_IRQ_SIGNAL);
	CHECK(!ksim_irq_line(c));
	/* a new event raises it again: one more rise */
	mm_null_prog(c, 0, 1, 0, 1, 4);
	ksim_run(c, 1000);
	CHECK(ksim_irq_line(c));
	CHECK_EQ(rises, 2);
	ksim_set_irq_callback(c, NULL, NULL);
	ack(c, 0, ~0ULL);
	mm_null_prog(c, 0, 1, 0, 1, 4);
	ksim_run(c, 1000);
	CHECK_EQ(rises, 2);
	ksim_card_destroy(c);
}

TEST_F(model, the_line_is_the_or_over_meshes)
{
	struct ksim_card *c = mh_card(
		"param irq 1\n"
		"mesh 0\nxxx null xxx\nmag nul nul\nxxx null xxx\n"
		"mesh 1\nxxx null xxx\nmag nul nul\nxxx null xxx\n"
		"mesh 2\nparam irq 0\nxxx null xxx\nmag nul nul\nxxx null xxx\n");
	unsigned int n;

	REQUIRE(c);
	CHECK(mm_rd(c, 1, KH_ORC_CAPS) & KH_CAPS_IRQ_ADDON);
	CHECK(!(mm_rd(c, 2, KH_ORC_CAPS) & KH_CAPS_IRQ_ADDON));
	for (n = 0; n < 3; n++) {
		mm_wr(c, n, KH_ORC_IRQ_EN, KH_IRQ_ALL);
		mm_null_prog(c, n, 1, 0, 1, 4);
	}
	ksim_run(c, 1000);
	CHECK(stat(c, 0) && stat(c, 1));
	CHECK_EQ(stat(c, 2), 0);		/* no addon there */
	CHECK(ksim_irq_line(c));
	ack(c, 0, ~0ULL);
	CHECK(ksim_irq_line(c));		/* mesh 1 still asserts */
	ack(c, 1, ~0ULL);
	CHECK(!ksim_irq_line(c));
	mm_null_prog(c, 1, 1, 2, 1, 4);
	ksim_run(c, 1000);
	CHECK(ksim_irq_line(c));
	mm_wr(c, 1, KH_ORC_IRQ_EN, 0);
	CHECK(!ksim_irq_line(c));
	ksim_card_destroy(c);
}

/* The cycle a program's signal is absorbed, on a fresh card. */
static struct ksim_card *race_card(void)
{
	struct ksim_card *c = mh_card(one);
	struct ksim_timing t = { 0, 1, 1 };

	if (!c)
		return NULL;
	ksim_set_timing(c, &t);
	mm_null_prog(c, 0, 1, 0, 1, 4);
	return c;
}

TEST_F(model, an_event_in_the_clears_cycle_wins)
{
	struct ksim_card *c = race_card();
	u64 t_ev = 0, i;

	REQUIRE(c);
	for (i = 0; i < 2000; i++) {
		ksim_run(c, 1);
		if (stat(c, 0) & KH_IRQ_SIGNAL) {
			t_ev = ksim_cycles(c) - 1;
			break;
		}
	}
	REQUIRE(t_ev);
	ksim_card_destroy(c);

	/* the same history, and a clear landing in the event's cycle */
	c = race_card();
	REQUIRE(c);
	ksim_run(c, t_ev - ksim_cycles(c));
	CHECK_EQ(stat(c, 0) & KH_IRQ_SIGNAL, 0);
	ack(c, 0, KH_IRQ_SIGNAL);		/* lands in cycle t_ev */
	CHECK_EQ(ksim_cycles(c), t_ev + 1);
	CHECK(stat(c, 0) & KH_IRQ_SIGNAL);	/* the event won */
	ack(c, 0, KH_IRQ_SIGNAL);
	CHECK_EQ(stat(c, 0) & KH_IRQ_SIGNAL, 0);
	ksim_card_destroy(c);

	/* a cycle later the clear takes it */
	c = race_card();
	REQUIRE(c);
	ksim_run(c, t_ev + 1 - ksim_cycles(c));
	CHECK(stat(c, 0) & KH_IRQ_SIGNAL);
	ack(c, 0, KH_IRQ_SIGNAL);
	CHECK_EQ(stat(c, 0) & KH_IRQ_SIGNAL, 0);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
