// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The model's time against the card's: docs/model.md "Timing against the
 * RTL".  Each scenario here was run on KohakuTPU's RTL under Verilator
 * (the generated saxpy_mesh top, a memory that answers the cycle after a
 * request: axi_ram in the RTL's own bench) and is run here on the same
 * mesh, the same memory (`profile rtl`, latencies 1) and the same host
 * sequence.  What is compared:
 *
 * - cycles: from the host's write of PROG_KICK (its AXI W handshake) to
 *   the orchestrator's NODE_STATUS update for the node (the signal's
 *   arrival, the trace's `signal` event);
 * - busy: the node's CU_COUNTERS busy count over the scenario and the 300
 *   cycles after it.
 *
 * The model's figures are pinned exactly, so that a change that moves
 * them is seen; the RTL's are the table's, and each must be within 10 %.
 * A change that moves a figure updates the pin and docs/model.md's table
 * together, with a fresh RTL run if the change is meant to follow it.
 */
#include "mtiming.h"
#include "card.h"
#include "mag.h"
#include "mesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define X_ADDR	0x400ULL
#define Y0_ADDR	0x800ULL
#define Y1_ADDR	0xc00ULL

/*
 * saxpy_mesh.v: the generated top, its FIFOs (RECV_DEPTH is declared 512
 * but never passed to saxpy_cu: noc_cu_base's 16) and 1-cycle memory
 */
static const char rtl_saxpy_map[] =
	"profile rtl\n"
	"param inst_depth 512\n"
	"param recv_depth 16\n"
	"param router_fifo 512\n"
	"param mem_rd_latency 1\n"
	"param mem_wr_latency 1\n"
	"trace on size=65536 events=orch\n"
	"xxx sax xxx\n"
	"mag nul nul\n"
	"xxx sax xxx\n";

static void tm_saxpy(struct kh_flit *f, u32 n, u32 a, u64 y, unsigned int txn)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, 0, 0, 0, 0, KH_T_CU_INST, txn, 1);
	kh_flit_set(f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
	kh_flit_set(f, KH_SX_N, n);
	kh_flit_set(f, KH_SX_A, a);
	kh_flit_set(f, KH_SX_X_ADDR, KH_MADDR(0, X_ADDR));
	kh_flit_set(f, KH_SX_Y_ADDR, KH_MADDR(0, y));
}

/*
 * A host register write at cycle `at`: the RTL bench's host takes four
 * cycles a write (AW, W, B on AXI-lite), and a PROG_DST written sooner
 * would retarget the program still being read out.
 */
static void tm_wr_at(struct ksim_card *c, u64 at, u32 off, u64 v)
{
	u64 now = ksim_cycles(c);

	if (at > now)
		ksim_run(c, at - now);
	mh_wr(c, off, v);
}

/* Run until (x,y)'s signal count moves, then 300 cycles more. */
static void tm_wait(struct ksim_card *c, unsigned int x, unsigned int y,
		    unsigned int base)
{
	u64 t0 = ksim_cycles(c);

	while (KH_NS_COUNT(mh_ns(c, x, y)) == base &&
	       ksim_cycles(c) - t0 < 100000)
		;
	ksim_run(c, 300);
}

static struct ksim_card *tm_card(void)
{
	static u32 buf[64];
	struct ksim_card *c = mh_card(rtl_saxpy_map);
	unsigned int i;

	if (!c)
		return NULL;
	mh_fast_host(c);
	for (i = 0; i < 64; i++)
		buf[i] = 0x3f800000;	/* 1.0f */
	ksim_dma_write(c, KH_CARD_ADDR(0, X_ADDR), buf, sizeof(buf));
	ksim_dma_write(c, KH_CARD_ADDR(0, Y0_ADDR), buf, sizeof(buf));
	ksim_dma_write(c, KH_CARD_ADDR(0, Y1_ADDR), buf, sizeof(buf));
	return c;
}

/*
 * One SAXPY of n elements at (1,0), alone: saxpy_cu's schedule (accept,
 * two reads, S_WAIT, one element an edge, the write) plus the fabric:
 * the dispatcher's five edges a flit, three edges a router, MAG's plain
 * read engine one request at a time.
 */
TEST_F(model, saxpy_alone)
{
	static const struct {
		u32 n;
		struct mt_figure cyc, busy;
	} run[] = {
		{ 8, { "saxpy n=8: kick to NODE_STATUS", 58, 58 },
		     { "saxpy n=8: CU_COUNTERS busy", 42, 42 } },
		{ 64, { "saxpy n=64: kick to NODE_STATUS", 135, 135 },
		      { "saxpy n=64: CU_COUNTERS busy", 119, 119 } },
		{ 16, { "saxpy n=16: kick to NODE_STATUS", 69, 69 },
		      { "saxpy n=16: CU_COUNTERS busy", 53, 53 } },
	};
	struct ksim_card *c = tm_card();
	unsigned int k;

	REQUIRE(c);
	for (k = 0; k < ARRAY_SIZE(run); k++) {
		unsigned int base = KH_NS_COUNT(mh_ns(c, 1, 0));
		struct kh_flit f;
		u64 t0, b0, sig;

		tm_saxpy(&f, run[k].n, 0x40000000, Y0_ADDR, 0x42);
		mh_stage(c, 0, &f);
		mh_wr(c, KH_ORC_PROG_BASE, 0);
		mh_wr(c, KH_ORC_PROG_LEN, 1);
		mh_wr(c, KH_ORC_PROG_DST, KH_YX(1, 0));
		mh_wr(c, KH_ORC_PROG_CRED, 4);
		b0 = mt_busy(c, 1, 0);
		t0 = ksim_cycles(c);
		mh_wr(c, KH_ORC_PROG_KICK, 1);
		tm_wait(c, 1, 0, base);
		sig = mt_signal_at(c, 1, 0, t0);
		REQUIRE(sig);
		/* t0 is the kick's W handshake: the signal's edge counts */
		CHECK(mt_figure(&run[k].cyc, sig - t0 + 1));
		CHECK(mt_figure(&run[k].busy, mt_busy(c, 1, 0) - b0));
	}
	ksim_card_destroy(c);
}

/*
 * Two units contending for MAG's one port: 64 elements at (1,0), then 64
 * at (1,2) kicked 12 cycles later (the RTL bench's host: PROG_BASE and
 * PROG_DST rewritten between the kicks, four cycles a write).  The second unit's reads queue behind the
 * first's in the plain read engine, and its write behind them.
 */
TEST_F(model, saxpy_two_units_contend)
{
	static const struct mt_figure cyc0 = {
		"contend: (1,0) kick to NODE_STATUS", 135, 135 };
	static const struct mt_figure cyc1 = {
		"contend: (1,2) kick to NODE_STATUS", 165, 165 };
	static const struct mt_figure busy0 = {
		"contend: (1,0) CU_COUNTERS busy", 119, 119 };
	static const struct mt_figure busy1 = {
		"contend: (1,2) CU_COUNTERS busy", 137, 137 };
	struct ksim_card *c = tm_card();
	unsigned int base;
	struct kh_flit f;
	u64 t0, b0, b1, s0, s1;

	REQUIRE(c);
	base = KH_NS_COUNT(mh_ns(c, 1, 2));
	tm_saxpy(&f, 64, 0x40000000, Y0_ADDR, 0x42);
	mh_stage(c, 0, &f);
	tm_saxpy(&f, 64, 0x40400000, Y1_ADDR, 0x43);
	mh_stage(c, 1, &f);
	mh_wr(c, KH_ORC_PROG_CRED, 4);
	mh_wr(c, KH_ORC_PROG_BASE, 0);
	mh_wr(c, KH_ORC_PROG_LEN, 1);
	mh_wr(c, KH_ORC_PROG_DST, KH_YX(1, 0));
	b0 = mt_busy(c, 1, 0);
	b1 = mt_busy(c, 1, 2);
	t0 = ksim_cycles(c);
	mh_wr(c, KH_ORC_PROG_KICK, 1);
	tm_wr_at(c, t0 + 4, KH_ORC_PROG_BASE, 1);
	tm_wr_at(c, t0 + 8, KH_ORC_PROG_DST, KH_YX(1, 2));
	tm_wr_at(c, t0 + 12, KH_ORC_PROG_KICK, 1);
	tm_wait(c, 1, 2, base);
	s0 = mt_signal_at(c, 1, 0, t0);
	s1 = mt_signal_at(c, 1, 2, t0);
	REQUIRE(s0 && s1);
	CHECK(mt_figure(&cyc0, s0 - t0 + 1));
	CHECK(mt_figure(&cyc1, s1 - t0 + 1));
	CHECK(mt_figure(&busy0, mt_busy(c, 1, 0) - b0));
	CHECK(mt_figure(&busy1, mt_busy(c, 1, 2) - b1));
	ksim_card_destroy(c);
}

/*
 * The memory profiles (docs/model.md "DRAM"): the DRAM's read latency
 * adds to each of saxpy's two reads; a read that wants the data bus
 * during a refresh waits for its end; bursts share the bus a 512-bit beat
 * a cycle.
 */
TEST_F(model, dram_latency_refresh_and_bus)
{
	static const struct {
		const char *params;
		u64 phase;	/* kick so the first read wants the bus here */
		u64 want;
	} run[] = {
		{ "param mem_rd_latency 30\nparam mem_wr_latency 20\n", 7, 58 + 2 * 29 },
		{ "param dram_refi 2340\nparam dram_rfc 105\n", 2235, 58 + 105 },
		{ "param dram_refi 2340\nparam dram_rfc 105\n", 1000, 58 },
	};
	char map[1024];
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(run); k++) {
		struct ksim_card *c;
		struct kh_flit f;
		unsigned int base;
		u64 t0, sig, now;

		/* the table's map, these parameters last */
		snprintf(map, sizeof(map), "%.*s%s%s",
			 (int)(strstr(rtl_saxpy_map, "xxx") - rtl_saxpy_map),
			 rtl_saxpy_map, run[k].params,
			 strstr(rtl_saxpy_map, "xxx"));
		c = mh_card(map);
		REQUIRE(c);
		mh_fast_host(c);
		base = KH_NS_COUNT(mh_ns(c, 1, 0));
		tm_saxpy(&f, 8, 0x40000000, Y0_ADDR, 0x42);
		mh_stage(c, 0, &f);
		mh_wr(c, KH_ORC_PROG_BASE, 0);
		mh_wr(c, KH_ORC_PROG_LEN, 1);
		mh_wr(c, KH_ORC_PROG_DST, KH_YX(1, 0));
		mh_wr(c, KH_ORC_PROG_CRED, 4);
		/*
		 * the first read's data wants the bus 24 cycles after the
		 * kick (its AR 23 after, the memory 1): put that at `phase`
		 * of a refresh interval
		 */
		now = ksim_cycles(c);
		t0 = (now + 24 + 2340 - 1) / 2340 * 2340 + 2340 +
		     run[k].phase - 24;
		ksim_run(c, t0 - now);
		mh_wr(c, KH_ORC_PROG_KICK, 1);
		tm_wait(c, 1, 0, base);
		sig = mt_signal_at(c, 1, 0, t0);
		REQUIRE(sig);
		CHECK_MSG(sig - t0 + 1 == run[k].want,
			  "%s: %llu cycles, want %llu", run[k].params,
			  (unsigned long long)(sig - t0 + 1),
			  (unsigned long long)run[k].want);
		ksim_card_destroy(c);
	}
}

/* The bus itself: two bursts wanted at once cross one after the other. */
TEST_F(model, dram_bus_is_shared)
{
	struct ksim_card *c = mh_card("param dram_refi 2340\n"
				      "param dram_rfc 105\n"
				      "xxx sax xxx\n"
				      "mag nul nul\n"
				      "mag nul nul\n"
				      "xxx sax xxx\n");
	struct ksim_mag *g;

	REQUIRE(c);
	g = ksim_card_mesh(c, 0)->mag;
	/* 8 flits are 4 beats: the next burst 4 cycles on */
	CHECK_EQ(ksim_mag_dram_burst(g, 5000, 8), 5000);
	CHECK_EQ(ksim_mag_dram_burst(g, 5000, 1), 5004);
	CHECK_EQ(ksim_mag_dram_burst(g, 5000, 2), 5005);
	/* free again: as wanted */
	CHECK_EQ(ksim_mag_dram_burst(g, 6000, 2), 6000);
	/* a refresh from 6915 to 7020 (3 x 2340): wait for its end */
	CHECK_EQ(ksim_mag_dram_burst(g, 6914, 2), 6914);
	CHECK_EQ(ksim_mag_dram_burst(g, 6915, 8), 7020);
	CHECK_EQ(ksim_mag_dram_burst(g, 7019, 2), 7024);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
