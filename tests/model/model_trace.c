// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The event trace and the counters (docs/model.md "Observability"): the
 * exact events of a small known run, in order and with their cycles; the
 * ring's bound; event classes; reading the text in pieces; per-link and
 * per-unit counters and the stats dump.
 */
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

static const char one_null_map[] =
	"trace on\n"
	"xxx null xxx\n"
	"mag nul  nul\n"
	"xxx nul  xxx\n";

/* One instruction, one CU_CTRL read, one DMA, on a fast host. */
static struct ksim_card *known_run(const char *desc)
{
	struct ksim_card *c = mh_card(desc);
	struct kh_flit f, r;
	u8 buf[64];

	if (!c)
		return NULL;
	mh_fast_host(c);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 0, KH_T_CU_INST, 0x21, 1);
	f.w[0] = 0x55;
	mh_mb_send(c, &f);
	ksim_run(c, 100);
	CHECK(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_CAPS, 7, &r));
	memset(buf, 0, sizeof(buf));
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x1000), buf, sizeof(buf));
	return c;
}

TEST_F(model, known_run_events)
{
	static const char want[] =
		"# kohaku-sim trace v1 clock_mhz=300 size=65536 events=16 first=0\n"
		/* the mailbox push (TX_KICK lands in cycle 5) */
		"5 0 mbox 1,0 type=0x5 txn=0x21\n"
		/*
		 * MAG port 0 -> router (1,1) -> the unit: three edges a router
		 * (its input FIFO, hold register, output register); the unit
		 * sees the instruction the edge after it lands
		 */
		"7 0 hop 0,1 type=0x5 txn=0x21 src=0,0 dst=1,0 tag=1\n"
		"10 0 hop R1,1.N type=0x5 txn=0x21 src=0,0 dst=1,0 tag=1 deliver\n"
		"11 0 accept 1,0 txn=0x21 last=1\n"
		/* retired one cycle after the accept, batch completion */
		"12 0 retire 1,0 code=0x01 arg=0x00000021 txn=0x21\n"
		"14 0 hop 1,0 type=0x6 txn=0x21 src=1,0 dst=0,0 tag=2\n"
		"17 0 hop R1,1.W type=0x6 txn=0x21 src=1,0 dst=0,0 tag=2 deliver\n"
		"17 0 signal 1,0 code=0x01 arg=0x00000021\n"
		"111 0 mbox 1,0 type=0x7 txn=0x07\n"
		"113 0 hop 0,1 type=0x7 txn=0x07 src=0,0 dst=1,0 tag=3\n"
		"116 0 hop R1,1.N type=0x7 txn=0x07 src=0,0 dst=1,0 tag=3 deliver\n"
		/* CU_CTRL is captured off the link, not queued */
		"116 0 ctrl_req 1,0 idx=0 txn=0x07 from=0,0\n"
		/* the reply leaves the cycle after the capture */
		"117 0 ctrl_reply 1,0 idx=0 txn=0x07 to=0,0 value=0x0000041020000000\n"
		"118 0 hop 1,0 type=0x7 txn=0x07 src=1,0 dst=0,0 tag=4\n"
		"121 0 hop R1,1.W type=0x7 txn=0x07 src=1,0 dst=0,0 tag=4 deliver\n"
		"128 - dma_write addr=0x10000001000 len=64 cycles=3\n";
	struct ksim_card *c = known_run(one_null_map);
	struct ksim_trace_ev ev;
	static char buf[8192];
	u64 pos = 0, first, end;
	size_t n;

	REQUIRE(c);
	n = ksim_trace_text(c, &pos, buf, sizeof(buf));
	CHECK_EQ(n, strlen(buf));
	CHECK_MSG(!strcmp(buf, want), "trace:\n%s", buf);
	CHECK_EQ(pos, 17);
	/* nothing new: nothing more */
	CHECK_EQ(ksim_trace_text(c, &pos, buf, sizeof(buf)), 0);
	ksim_trace_bounds(c, &first, &end);
	CHECK_EQ(first, 0);
	CHECK_EQ(end, 16);
	REQUIRE(!ksim_trace_get(c, 3, &ev));
	CHECK_EQ(ev.kind, KSIM_TR_ACCEPT);
	CHECK_EQ(ev.cycle, 11);
	CHECK_EQ(ev.c, 0x21);
	CHECK_EQ(ksim_trace_get(c, 16, &ev), -ENOENT);
	ksim_card_destroy(c);
}

TEST_F(model, text_in_pieces_is_the_same_text)
{
	struct ksim_card *c = known_run(one_null_map);
	static char all[8192], part[8192];
	char small[100];
	u64 pos = 0;
	size_t n, at = 0;

	REQUIRE(c);
	ksim_trace_text(c, &pos, all, sizeof(all));
	pos = 0;
	while ((n = ksim_trace_text(c, &pos, small, sizeof(small))) > 0) {
		CHECK(small[n - 1] == '\n');	/* whole lines only */
		memcpy(part + at, small, n);
		at += n;
	}
	part[at] = 0;
	CHECK(!strcmp(all, part));
	ksim_card_destroy(c);
}

TEST_F(model, ring_bound_and_classes)
{
	struct ksim_card *c;
	static char buf[8192];
	u64 pos = 0, first, end;
	char err[128];

	c = known_run("trace on size=10\n"
		      "xxx null xxx\n"
		      "mag nul  nul\n"
		      "xxx nul  xxx\n");
	REQUIRE(c);
	ksim_trace_bounds(c, &first, &end);
	CHECK_EQ(end, 16);
	CHECK_EQ(first, 0);		/* size rounds up to 16 */
	ksim_card_destroy(c);

	c = known_run("trace on size=4\n"
		      "xxx null xxx\n"
		      "mag nul  nul\n"
		      "xxx nul  xxx\n");
	REQUIRE(c);
	ksim_trace_bounds(c, &first, &end);
	CHECK_EQ(end - first, 4);
	ksim_trace_text(c, &pos, buf, sizeof(buf));
	CHECK_MSG(strstr(buf, "# 12 events lost (overwritten)\n"
			 "117 0 ctrl_reply 1,0"), "%s", buf);
	CHECK(strstr(buf, "128 - dma_write"));
	/* clear empties it; off stops it */
	CHECK_EQ(ksim_command(c, "trace clear", err, sizeof(err)), 0);
	ksim_trace_bounds(c, &first, &end);
	CHECK_EQ(end, 0);
	CHECK_EQ(ksim_command(c, "trace off", err, sizeof(err)), 0);
	ksim_run(c, 10);
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x1000), buf, 32);
	ksim_trace_bounds(c, &first, &end);
	CHECK_EQ(end, 0);
	ksim_card_destroy(c);

	c = known_run("trace on events=unit,ctrl\n"
		      "xxx null xxx\n"
		      "mag nul  nul\n"
		      "xxx nul  xxx\n");
	REQUIRE(c);
	pos = 1;	/* no header */
	ksim_trace_text(c, &pos, buf, sizeof(buf));
	CHECK_MSG(!strcmp(buf,
			  "11 0 accept 1,0 txn=0x21 last=1\n"
			  "12 0 retire 1,0 code=0x01 arg=0x00000021 txn=0x21\n"
			  "116 0 ctrl_req 1,0 idx=0 txn=0x07 from=0,0\n"
			  "117 0 ctrl_reply 1,0 idx=0 txn=0x07 to=0,0 value=0x0000041020000000\n"),
		  "%s", buf);
	ksim_card_destroy(c);
}

/* Drops, injections and violations are events too. */
TEST_F(model, drop_inject_and_violation_events)
{
	static const char map[] =
		"trace on events=drop,inject,check,unit\n"
		"inject drop link=R1,1.N type=CU_INST after=1\n"
		"xxx null! xxx\n"
		"mag nul   nul\n"
		"xxx nul   xxx\n";
	struct ksim_card *c;
	static char buf[8192];
	struct kh_flit f;
	u64 pos = 1;
	unsigned int i;

	mh_expect_violations = true;
	c = mh_card(map);
	REQUIRE(c);
	mh_fast_host(c);
	for (i = 0; i < 2; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 1, 0, 0, 0, KH_T_CU_INST, i, 0);
		mh_mb_send(c, &f);
	}
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 2, 1, 0, 0, KH_T_CU_DATA, 0, 1);
	mh_mb_send(c, &f);		/* to a tie-off */
	ksim_run(c, 100);
	ksim_trace_text(c, &pos, buf, sizeof(buf));
	CHECK_MSG(!strcmp(buf,
			  "11 0 accept 1,0 txn=0x00 last=0\n"
			  "11 0 retire 1,0 code=none arg=0x00000000 txn=0x00\n"
			  "11 0 violation rule=6 1,0\n"
			  "16 0 inject 1 drop 1,1 a=0x5 v=0x2\n"
			  "16 0 hop R1,1.N type=0x5 txn=0x01 src=0,0 dst=1,0 tag=2 deliver drop\n"
			  "22 0 hop R1,1.E type=0x8 txn=0x00 src=0,0 dst=2,1 tag=3 tieoff\n"),
		  "%s", buf);
	ksim_card_destroy(c);
	mh_expect_violations = false;
}

TEST_F(model, counters_and_stats_dump)
{
	struct ksim_card *c = known_run(one_null_map);
	struct ksim_unit_stats us;
	struct ksim_link *l;
	static char buf[8192];
	size_t need;

	REQUIRE(c);
	REQUIRE(!ksim_unit_stats(c, 0, 1, 0, &us));
	CHECK_EQ(us.accepted, 1);
	CHECK_EQ(us.retired, 1);
	CHECK_EQ(us.signals, 1);
	CHECK_EQ(us.flits_in, 2);	/* the instruction and the CU_CTRL */
	CHECK_EQ(us.flits_out, 0);	/* the base sent both replies */
	CHECK_EQ(us.dropped, 0);
	/* from the edge after it lands (the FIFO) to the signal's load */
	CHECK_EQ(us.busy_cycles, 3);
	CHECK_EQ(ksim_unit_stats(c, 0, 2, 2, &us), -ENOENT);
	l = ksim_router_link(c, 0, 1, 1, KSIM_PORT_N);
	CHECK_EQ(l->flits, 2);
	CHECK_EQ(l->stalls, 0);
	CHECK_EQ(l->drops, 0);
	CHECK_EQ(l->dups, 0);
	need = ksim_dump_stats(c, buf, sizeof(buf));
	CHECK_EQ(need, strlen(buf));
	CHECK(strstr(buf, "card cycles=131 stepped=42 skipped=89 meshes=1 clock_mhz=300 checker=on trace=on knobs=0\n"));
	/*
	 * what the host asked of the card: the mailbox push (5 words and the
	 * kick), the CU_CTRL read (5 words, the kick, the RX status polls and
	 * the 5 reply words, the pop), the DMA of 64 bytes
	 */
	CHECK(strstr(buf, "\nhost reads=15 writes=13 dmas=1 dma_bytes=64\n"));
	CHECK(strstr(buf, "link 0 R1,1.N flits=2 stalls=0 drops=0 dups=0\n"));
	CHECK(strstr(buf, "link 0 R1,1.E flits=0 stalls=0 drops=0 dups=0 tieoff\n"));
	CHECK(strstr(buf, "link 0 0,1 flits=2 stalls=0 drops=0 dups=0\n"));
	CHECK(strstr(buf, "unit 0 1,0 null accepted=1 retired=1 lost_completions=0 signals=1 sent=0 received=2 dropped=0 ctrl_dropped=0 busy_cycles=3 faults_injected=0"));
	CHECK(strstr(buf, "checker violations=0 born=4 delivered=4 "));
	/* a short buffer: cut, terminated, and the full size still told */
	CHECK_EQ(ksim_dump_stats(c, buf, 20), need);
	CHECK_EQ(strlen(buf), 19);
	ksim_card_destroy(c);
}

/* Stalls on a link under backpressure, in the counters and the dump. */
TEST_F(model, stall_counters)
{
	static const char map[] =
		"param router_fifo 1\n"
		"param recv_depth 1\n"
		"xxx src xxx\n"
		"mag nul snk\n"
		"xxx nul xxx\n";
	struct ksim_card *c;
	struct ksim_unit_stats us;
	struct kh_flit f;
	struct ksim_link *l;

	mh_sink_period = 100;
	c = mh_card(map);
	REQUIRE(c);
	mh_src_inst(&f, 2, 1, 5, KH_T_CU_DATA, 1);
	kh_flit_set(&f, KH_HDR_DST_X, 1);
	kh_flit_set(&f, KH_HDR_DST_Y, 0);
	mh_mb_send(c, &f);
	ksim_run(c, 5000);
	l = ksim_router_link(c, 0, 1, 1, KSIM_PORT_E);
	CHECK_EQ(l->flits, 5);
	/*
	 * The sink pops one per 100 cycles and holds one: flits 3, 4 and 5
	 * each wait on the link into it for a pop period less the two edges
	 * the sink's FIFO and the router's output take to pass a flit on:
	 * 98 cycles.
	 */
	CHECK_MSG(l->stalls == 294, "stalls %llu",
		  (unsigned long long)l->stalls);
	ksim_unit_stats(c, 0, 1, 0, &us);
	CHECK_EQ(us.flits_out, 5);
	CHECK_EQ(us.accepted, 1);
	ksim_unit_stats(c, 0, 2, 1, &us);
	CHECK_EQ(us.flits_in, 5);
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

CHECK_TEST_MAIN
