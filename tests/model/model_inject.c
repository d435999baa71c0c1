// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Fault injection (docs/spec/fault-injection.md "inject"): each knob's
 * effect, exactly where the spec says; the syntax and its refusals, in a
 * description and at run time; listing and clearing; determinism.
 */
#include <math.h>
#include "mhelp.h"
#include "harness.h"

CHECK_FIXTURE(model)

static struct ksim_card *card(const char *desc)
{
	struct ksim_card *c = mh_card(desc);

	if (c)
		mh_fast_host(c);
	return c;
}

static int inj(struct ksim_card *c, const char *spec)
{
	char err[256];
	int e = ksim_inject(c, spec, err, sizeof(err));

	if (e)
		check_diag("inject %s: %s", spec, err);
	return e;
}

static void send_inst(struct ksim_card *c, unsigned int x, unsigned int y,
		      unsigned int txn, unsigned int last)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, x, y, 0, 0, KH_T_CU_INST, txn, last);
	f.w[0] = 0x11110000 + txn;
	mh_mb_send(c, &f);
}

/* ---- syntax ---- */

struct refusal {
	const char *line, *msg;
};

/*
 * Each line is refused with a message containing msg: ksim_inject()'s
 * words after "inject", or (whole) a line for ksim_command().
 */
static void expect_refused(struct ksim_card *c, bool whole,
			   const struct refusal *bad, unsigned int n)
{
	char err[256];
	unsigned int i;
	int e;

	for (i = 0; i < n; i++) {
		err[0] = 0;
		e = whole ? ksim_command(c, bad[i].line, err, sizeof(err)) :
			    ksim_inject(c, bad[i].line, err, sizeof(err));
		CHECK_MSG(e == -EINVAL, "'%s' accepted", bad[i].line);
		CHECK_MSG(strstr(err, bad[i].msg), "'%s': message '%s', want '%s'",
			  bad[i].line, err, bad[i].msg);
	}
}

TEST_F(model, syntax_refusals)
{
	static const struct refusal bad[] = {
		{ "", "which knob" },
		{ "zap link=1,0", "unknown knob 'zap'" },
		{ "drop", "needs link=" },
		{ "drop link=1,0 cont=3", "unknown option 'cont'" },
		{ "drop link=1,0 count=1 count=2", "'count' given twice" },
		{ "drop link=R9,9.E", "no link R9,9.E in mesh 0" },
		{ "drop link=R1,1.Q", "no link R1,1.Q" },
		{ "drop link=1,0 type=CU_FOO", "unknown flit type 'CU_FOO'" },
		{ "drop link=1,0 count=many", "count 'many' is not a number or 'forever'" },
		{ "drop link=1,0 mesh=1", "no mesh '1' (the card has 1)" },
		{ "drop link=1,0 node=1,0", "unknown option 'node'" },
		{ "drop link=1,0 junk", "'junk' is not name=value" },
		{ "busy node=2,2", "no unit at (2,2) in mesh 0" },
		{ "busy node=x", "node 'x' is not X,Y" },
		{ "fault node=1,0 code=0x100000000", "is not a 32-bit number" },
		{ "ctrl node=1,0", "needs field=" },
		{ "ctrl node=1,0 field=op", "field 'op' is not value, txn, src or drop" },
		{ "dram op=erase", "op 'erase' is not read, write or any" },
		{ "dram data=lots", "data 'lots' is not zero, ones" },
		{ "dram len=0", "len '0' is not a nonzero number" },
		{ "clear 7", "no knob 7" },
		{ "clear 1 2", "takes nothing or one knob id" },
	};
	struct ksim_card *c = card("saxpy");
	char err[256];

	REQUIRE(c);
	expect_refused(c, false, bad, sizeof(bad) / sizeof(bad[0]));
	CHECK_EQ(ksim_dump_knobs(c, err, sizeof(err)), 0);
	/* the same words with their leading "inject", and as a command */
	CHECK_EQ(ksim_inject(c, "inject drop link=1,0", err, sizeof(err)), 0);
	CHECK_EQ(ksim_command(c, "inject dup link=R1,1.N  # a comment", err,
				sizeof(err)), 0);
	CHECK_EQ(ksim_command(c, "poke 1", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "unknown command 'poke' (inject, check or trace)"));
	CHECK_EQ(ksim_command(c, "check on retire_bound=0", err, sizeof(err)),
		 -EINVAL);
	CHECK_EQ(ksim_command(c, "trace on size=0", err, sizeof(err)),
		 -EINVAL);
	CHECK_EQ(ksim_command(c, "trace on events=hop,foo", err, sizeof(err)),
		 -EINVAL);
	CHECK(strstr(err, "unknown event class 'foo'"));
	ksim_card_destroy(c);
}

/*
 * The lexer commands share with descriptions (lib/lex.c; model_desc's
 * lexer_descriptions is the other half): every blank, 16 words and no
 * more, numbers at the edges of their ranges, key=value, X,Y, how much
 * of a word a message quotes.
 */
TEST_F(model, lexer_commands)
{
	static const struct refusal bad[] = {
		{ "inject drop link=1,0 after=18446744073709551616",
		  "inject drop: after '18446744073709551616' is not a number" },
		{ "inject drop link=1,0 after=0x10000000000000000",
		  "inject drop: after '0x10000000000000000' is not a number" },
		{ "inject drop link=1,0 after=-1",
		  "inject drop: after '-1' is not a number" },
		{ "inject drop link=1,0 type=16",
		  "inject drop: unknown flit type '16'" },
		{ "inject busy node=16,0", "inject busy: node '16,0' is not X,Y" },
		{ "inject busy node=1,0,0", "inject busy: node '1,0,0' is not X,Y" },
		{ "inject drop link=R1,16.E",
		  "inject drop: no link R1,16.E in mesh 0 (RX,Y.P, X,Y or X,Y.in)" },
		{ "inject drop link=1,0 =3", "inject drop: '=3' is not name=value" },
		{ "inject clear 4294967296", "inject clear: takes nothing or one knob id" },
		{ "check on recv_bound=0x", "check on: 'recv_bound=0x' is not recv_bound=C, unknown_bound=C or retire_bound=C (C > 0)" },
		{ "trace on events=hop,", "trace on: unknown event class '' (hop, unit, ctrl, orch, dma, drop, inject, check, all, reg)" },
		{ "a b c d e f g h i j k l m n o p q", "too many words (at most 16)" },
		{ "inject z123456789012345678901234567890123456789012345",
		  "inject: unknown knob 'z123456789012345678901234567890123456789' (drop, dup, busy, fault, hang, ctrl, dram, xdma, reset, clear)" },
	};
	struct ksim_card *c = card("saxpy");
	char err[256];

	REQUIRE(c);
	/* the whole messages: contained is as good as equal here */
	expect_refused(c, true, bad, sizeof(bad) / sizeof(bad[0]));
	CHECK_EQ(ksim_dump_knobs(c, err, sizeof(err)), 0);
	CHECK_EQ(ksim_command(c, "inject\tdrop\vlink=1,0\fafter=18446744073709551615\r\n",
				err, sizeof(err)), 0);
	CHECK_EQ(ksim_command(c, "inject fault node=0x1,0X2 code=0XFFFFFFFF count=1 after=0 # x",
				err, sizeof(err)), 0);
	CHECK_EQ(ksim_command(c, "inject drop link=1,0 after=1#count=2",
				err, sizeof(err)), 0);
	ksim_dump_knobs(c, err, sizeof(err));
	CHECK_MSG(!strcmp(err,
			  "1 drop mesh=0 link=1,0 type=any after=18446744073709551615 passed=0 hits=0 left=1\n"
			  "2 fault mesh=0 node=1,2 code=0xffffffff after=0 passed=0 hits=0 left=1\n"
			  "3 drop mesh=0 link=1,0 type=any after=1 passed=0 hits=0 left=1\n"),
		  "%s", err);
	ksim_card_destroy(c);
}

TEST_F(model, description_directives)
{
	static const char bad[] =
		"# a knob on a link that is not there\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"inject drop link=R2,1.E\n"
		"xxx sax xxx\n";
	static const char good[] =
		"inject busy node=1,2 cycles=forever\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"trace on size=64 events=unit\n"
		"xxx sax xxx\n"
		"inject fault node=1,0 code=9 count=forever after=2\n"
		"check on recv_bound=77\n";
	struct ksim_opts o;
	struct ksim_card *c = NULL;
	char err[512];

	memset(&o, 0, sizeof(o));
	CHECK_EQ(ksim_card_create_opts(bad, &o, &c, err, sizeof(err)),
		 -EINVAL);
	CHECK_MSG(!strcmp(err, "line 4: inject drop: no link R2,1.E in mesh 0 (RX,Y.P, X,Y or X,Y.in)"),
		  "%s", err);
	CHECK(!c);
	c = card(good);
	REQUIRE(c);
	ksim_dump_knobs(c, err, sizeof(err));
	CHECK_MSG(strstr(err, "1 busy mesh=0 node=1,2 from=0 until=forever active\n") &&
		  strstr(err, "2 fault mesh=0 node=1,0 code=0x9 after=2 passed=0 hits=0 left=forever\n"),
		  "%s", err);
	ksim_check_report(c, err, sizeof(err));
	CHECK_MSG(strstr(err, "checker on recv_bound=77 "), "%s", err);
	ksim_dump_stats(c, err, sizeof(err));
	CHECK(strstr(err, "checker=on trace=on knobs=2"));
	ksim_card_destroy(c);
}

TEST_F(model, listing_and_clearing)
{
	struct ksim_card *c = card("sx_null_2x2");
	char buf[1024];

	REQUIRE(c);
	CHECK_EQ(inj(c, "drop link=R1,1.E type=CU_CTRL count=3 after=1"), 0);
	CHECK_EQ(inj(c, "dup link=2,1.in type=5"), 0);
	CHECK_EQ(inj(c, "ctrl node=2,1 field=src"), 0);
	CHECK_EQ(inj(c, "dram op=write addr=0x1000 len=0x20 data=0xdeadbeef count=forever"), 0);
	CHECK_EQ(inj(c, "hang node=1,3 mesh=0"), 0);
	ksim_dump_knobs(c, buf, sizeof(buf));
	CHECK_MSG(!strcmp(buf,
		"1 drop mesh=0 link=R1,1.E type=CU_CTRL after=1 passed=0 hits=0 left=3\n"
		"2 dup mesh=0 link=R2,1.L type=CU_INST after=0 passed=0 hits=0 left=1\n"
		"3 ctrl mesh=0 node=2,1 field=src xor=0x1 after=0 passed=0 hits=0 left=1\n"
		"4 dram mesh=0 op=write addr=0x1000 len=0x20 data=0xdeadbeef after=0 passed=0 hits=0 left=forever\n"
		"5 hang mesh=0 node=1,3 after=0 passed=0 hits=0 left=1\n"),
		"%s", buf);
	CHECK_EQ(inj(c, "clear 3"), 0);
	ksim_dump_knobs(c, buf, sizeof(buf));
	CHECK(!strstr(buf, "3 ctrl") && strstr(buf, "4 dram"));
	CHECK_EQ(inj(c, "clear"), 0);
	CHECK_EQ(ksim_dump_knobs(c, buf, sizeof(buf)), 0);
	CHECK_EQ(inj(c, "drop link=1,0"), 0);
	ksim_dump_knobs(c, buf, sizeof(buf));
	CHECK(!strncmp(buf, "6 drop", 6));	/* ids are never reused */
	ksim_card_destroy(c);
}

/* ---- drop and dup ---- */

/* n CU_DATA flits, seq 0..n-1, from (1,0) to the sink at (3,1) */
static struct ksim_card *stream(unsigned int n)
{
	struct ksim_card *c;
	struct kh_flit f;

	mh_sink_period = 3;
	c = card("xxx src nul xxx\n"
		 "mag nul nul snk\n"
		 "xxx nul nul xxx\n");
	if (!c)
		return NULL;
	mh_src_inst(&f, 3, 1, n, KH_T_CU_DATA, 1);
	kh_flit_set(&f, KH_HDR_DST_X, 1);
	kh_flit_set(&f, KH_HDR_DST_Y, 0);
	mh_mb_load(c, &f);
	return c;
}

static struct mh_sink *sink_of(struct ksim_card *c)
{
	return ksim_unit_priv(ksim_unit_at(c, 0, 3, 1));
}

TEST_F(model, drop_knob)
{
	struct ksim_card *c = stream(10);
	struct ksim_link *l;
	struct mh_sink *s;
	char buf[256];
	unsigned int i, k;

	REQUIRE(c);
	CHECK_EQ(inj(c, "drop link=R1,1.E type=CU_DATA count=2 after=3"), 0);
	mh_mb_kick(c);
	ksim_run(c, 3000);
	s = sink_of(c);
	CHECK_EQ(s->n, 8);
	for (i = 0, k = 0; i < s->n; i++, k++) {
		if (k == 3)
			k = 5;		/* seq 3 and 4 are the ones lost */
		CHECK_EQ(s->rec[i].seq, k);
	}
	l = ksim_router_link(c, 0, 1, 1, KSIM_PORT_E);
	CHECK_EQ(l->drops, 2);
	CHECK_EQ(l->dups, 0);
	CHECK_EQ(l->flits, 10);		/* every handshake, the lost ones too */
	ksim_dump_knobs(c, buf, sizeof(buf));
	CHECK(strstr(buf, "after=3 passed=3 hits=2 left=0"));
	/* the source's completion is not CU_DATA: it went through */
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 1, 0)), 1);
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

TEST_F(model, dup_knob)
{
	struct ksim_card *c = stream(10);
	struct ksim_link *l;
	struct mh_sink *s;
	unsigned int i, k;

	REQUIRE(c);
	CHECK_EQ(inj(c, "dup link=3,1.in count=forever after=8"), 0);
	mh_mb_kick(c);
	ksim_run(c, 3000);
	s = sink_of(c);
	CHECK_EQ(s->n, 12);		/* seq 8 and 9 twice each, once more each */
	for (i = 0, k = 0; i < s->n; i++) {
		CHECK_EQ(s->rec[i].seq, k);
		if (i != 8 && i != 10)
			k++;
	}
	l = ksim_router_link(c, 0, 2, 1, KSIM_PORT_E);
	CHECK_EQ(l->dups, 2);
	CHECK_EQ(l->flits, 12);
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

/* ---- busy ---- */

TEST_F(model, busy_knob)
{
	struct ksim_card *c = stream(6);
	struct ksim_unit_stats us;
	struct kh_flit r;
	char buf[256];
	u64 t0;

	REQUIRE(c);
	t0 = ksim_cycles(c);
	CHECK_EQ(inj(c, "busy node=3,1 cycles=5000 after=2"), 0);
	mh_mb_kick(c);
	ksim_run(c, 3000);
	ksim_unit_stats(c, 0, 3, 1, &us);
	CHECK_EQ(us.flits_in, 0);	/* held off by the knob */
	ksim_dump_knobs(c, buf, sizeof(buf));
	CHECK(strstr(buf, " active\n"));
	/* CU_CTRL waits behind the same busy */
	CHECK(!mh_ctrl_read(c, 3, 1, KH_CTRL_IDX_CAPS, 9, &r));
	ksim_run(c, t0 + 5002 - ksim_cycles(c) - 1);
	ksim_unit_stats(c, 0, 3, 1, &us);
	CHECK_EQ(us.flits_in, 0);	/* the last cycle of the window */
	ksim_run(c, 3000);
	ksim_unit_stats(c, 0, 3, 1, &us);
	CHECK_EQ(us.flits_in, 7);	/* six flits and the CU_CTRL */
	CHECK_EQ(us.busy_forced, 5000);
	CHECK_EQ(sink_of(c)->n, 6);
	CHECK(mh_mb_recv(c, &r, 5));	/* the late reply */
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 9);
	ksim_dump_knobs(c, buf, sizeof(buf));
	CHECK(strstr(buf, " over\n"));
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

TEST_F(model, busy_forever_released_by_clear)
{
	struct ksim_card *c = stream(4);
	struct ksim_unit_stats us;

	REQUIRE(c);
	CHECK_EQ(inj(c, "busy node=3,1 cycles=forever"), 0);
	mh_mb_kick(c);
	ksim_run(c, 1000000);
	ksim_unit_stats(c, 0, 3, 1, &us);
	CHECK_EQ(us.flits_in, 0);
	CHECK_EQ(inj(c, "clear 1"), 0);
	ksim_run(c, 1000);
	CHECK_EQ(sink_of(c)->n, 4);
	ksim_card_destroy(c);
	mh_sink_period = 7;
}

/* ---- fault and hang ---- */

TEST_F(model, fault_knob)
{
	static const char map[] =
		"xxx nul xxx\n"
		"mag nul null\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card(map);
	struct ksim_unit_stats us;
	unsigned int i;
	u64 ns;

	REQUIRE(c);
	CHECK_EQ(inj(c, "fault node=2,1 code=0x77 count=2 after=1"), 0);
	for (i = 0; i < 4; i++) {
		send_inst(c, 2, 1, 0x30 + i, 0);
		ksim_run(c, 200);
		ns = mh_ns(c, 2, 1);
		CHECK_EQ(KH_NS_COUNT(ns), i + 1);
		if (i == 1 || i == 2) {
			CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
			CHECK_EQ(KH_NS_ARG(ns), 0x77);
		} else {
			CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
			CHECK_EQ(KH_NS_ARG(ns), 0x11110000 + 0x30 + i);
		}
	}
	ksim_unit_stats(c, 0, 2, 1, &us);
	CHECK_EQ(us.faults_injected, 2);
	CHECK_EQ(us.retired, 4);
	ksim_card_destroy(c);
}

/* A faulted SX instruction still did its work (its writes landed). */
TEST_F(model, fault_knob_on_sx_keeps_the_work)
{
	struct ksim_card *c = card("saxpy");
	u32 x[8], y[8], g[8];
	struct kh_flit f;
	unsigned int i;
	u64 ns;

	REQUIRE(c);
	for (i = 0; i < 8; i++) {
		x[i] = 0x3f800000;	/* 1 */
		y[i] = 0x40000000;	/* 2 */
	}
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x1000), x, sizeof(x));
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x2000), y, sizeof(y));
	CHECK_EQ(inj(c, "fault node=1,0"), 0);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 0, KH_T_CU_INST, 3, 1);
	kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
	kh_flit_set(&f, KH_SX_N, 8);
	kh_flit_set(&f, KH_SX_A, 0x40400000);	/* 3 */
	kh_flit_set(&f, KH_SX_X_ADDR, 0x1000);
	kh_flit_set(&f, KH_SX_Y_ADDR, 0x2000);
	mh_mb_send(c, &f);
	ksim_run(c, 2000);
	ns = mh_ns(c, 1, 0);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), 0xfa17);	/* the default code */
	ksim_dma_read(c, KH_CARD_ADDR(0, 0x2000), g, sizeof(g));
	for (i = 0; i < 8; i++)
		CHECK_EQ(g[i], 0x40a00000);	/* 5 = 3 * 1 + 2 */
	ksim_card_destroy(c);
}

TEST_F(model, hang_knob)
{
	static const char map[] =
		"check on retire_bound=1000\n"
		"xxx nul xxx\n"
		"mag nul null\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card(map);
	struct ksim_unit_stats us;
	struct kh_flit r;

	REQUIRE(c);
	mh_violations = 0;
	CHECK_EQ(inj(c, "hang node=2,1"), 0);
	send_inst(c, 2, 1, 1, 0);
	send_inst(c, 2, 1, 2, 0);
	ksim_run(c, 100000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 1)), 0);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_STATUS, 1, &r));
	CHECK(mh_ctrl_value(&r) & KH_STATUS_BUSY);
	/* 512 deep (the ship profile), one still queued */
	CHECK_EQ((mh_ctrl_value(&r) >> KH_STATUS_SPACE_SHIFT) & 0xffff, 511);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_COUNTERS, 2, &r));
	CHECK_EQ(mh_ctrl_value(&r) >> 32, 0);	/* no retirement counted */
	ksim_unit_stats(c, 0, 2, 1, &us);
	CHECK_EQ(us.hangs_injected, 1);
	CHECK_EQ(us.accepted, 1);
	/* an injected hang is not the unit's violation */
	CHECK_EQ(ksim_check_audit(c), 0);
	CHECK_EQ(mh_violations, 0);
	/* a mesh reset ends it; the knob is spent */
	CHECK_EQ(ksim_mesh_reset(c, 0), 0);
	ksim_run(c, 20000);
	send_inst(c, 2, 1, 3, 0);
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 1)), 1);
	CHECK_EQ(ksim_check_audit(c), 0);
	ksim_card_destroy(c);
}

/* "inject reset": the clock wizard's SW_RST, as another agent writes it */
TEST_F(model, reset_event)
{
	static const char map[] =
		"xxx nul xxx\n"
		"mag nul null\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card(map);
	char err[200];
	u64 t0;

	REQUIRE(c);
	ksim_write64(c, KH_MESH_BASE(0) + KH_ORC_CTRL, 0x1234);
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_CTRL), 0x1234);
	CHECK_EQ(inj(c, "hang node=2,1"), 0);
	send_inst(c, 2, 1, 1, 0);
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 1)), 0);
	t0 = ksim_cycles(c);
	CHECK_EQ(inj(c, "reset mesh=0"), 0);
	/* lock drops, the orchestrator's registers are cleared */
	CHECK_EQ((ksim_read64(c, KH_CLKWIZ_BASE(0)) >> 32) & KH_CLK_LOCKED, 0);
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_CTRL), 0);
	/* host writes are lost until the mesh is out of reset */
	ksim_write64(c, KH_MESH_BASE(0) + KH_ORC_CTRL, 0x55);
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_CTRL), 0);
	ksim_run(c, t0 + KH_CLK_LOCK_CYCLES + KH_RST_RELEASE_CYCLES +
		    KH_RST_RECOVERY_CYCLES - ksim_cycles(c));
	CHECK((ksim_read64(c, KH_CLKWIZ_BASE(0)) >> 32) & KH_CLK_LOCKED);
	ksim_write64(c, KH_MESH_BASE(0) + KH_ORC_CTRL, 0x55);
	CHECK_EQ(ksim_read64(c, KH_MESH_BASE(0) + KH_ORC_CTRL), 0x55);
	/* the hang ended with the reset: the node takes work again */
	send_inst(c, 2, 1, 2, 0);
	ksim_run(c, 2000);
	CHECK_EQ(KH_NS_COUNT(mh_ns(c, 2, 1)), 1);
	/* an event, not a knob: only the hang is listed */
	ksim_dump_knobs(c, err, sizeof(err));
	CHECK(!strncmp(err, "1 hang ", 7));
	CHECK(!strchr(err, '\n') || !strchr(err, '\n')[1]);
	CHECK_EQ(ksim_command(c, "inject reset mesh=1", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "inject reset: no mesh '1' (the card has 1)"));
	CHECK_EQ(ksim_command(c, "inject reset node=1,1", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "inject reset: unknown option 'node=1,1' (only mesh=M)"));
	CHECK_EQ(ksim_command(c, "inject reset mesh=0 mesh=0", err, sizeof(err)), -EINVAL);
	ksim_card_destroy(c);
}

/* ---- ctrl ---- */

TEST_F(model, ctrl_knob)
{
	static const char map[] =
		"xxx nul xxx\n"
		"mag nul null\n"
		"xxx nul xxx\n";
	struct ksim_card *c = card(map);
	struct kh_flit r;
	u64 caps;

	REQUIRE(c);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 1, &r));
	caps = mh_ctrl_value(&r);
	CHECK_EQ(inj(c, "ctrl node=2,1 field=value xor=0xff00000000 after=1"), 0);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 2, &r));
	CHECK_EQ(mh_ctrl_value(&r), caps);		/* let through */
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 3, &r));
	CHECK_EQ(mh_ctrl_value(&r), caps ^ 0xff00000000ULL);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 4, &r));
	CHECK_EQ(mh_ctrl_value(&r), caps);		/* count=1 spent */

	CHECK_EQ(inj(c, "ctrl node=2,1 field=txn xor=0x80"), 0);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 5, &r));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 0x85);
	CHECK_EQ(mh_ctrl_value(&r), caps);

	CHECK_EQ(inj(c, "ctrl node=2,1 field=src"), 0);
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 6, &r));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_X), 3);	/* claims (3,1) */
	CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_Y), 1);
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 6);

	CHECK_EQ(inj(c, "ctrl node=2,1 field=drop"), 0);
	CHECK(!mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 7, &r));
	/* the pending reply left the base: the next request is answered */
	REQUIRE(mh_ctrl_read(c, 2, 1, KH_CTRL_IDX_CAPS, 8, &r));
	CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), 8);
	ksim_card_destroy(c);
}

/* ---- dram ---- */

static u32 fbits(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

/* saxpy a=3 over x[i] = i+1, y[i] = 100+i, 16 elements; returns y */
static void sx16(const char *knob, u32 *got, struct ksim_card **keep)
{
	struct ksim_card *c = card("saxpy");
	u32 x[16], y[16];
	struct kh_flit f;
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 16; i++) {
		x[i] = fbits((float)(i + 1));
		y[i] = fbits((float)(100 + i));
	}
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x10000), x, sizeof(x));
	ksim_dma_write(c, KH_CARD_ADDR(0, 0x20000), y, sizeof(y));
	if (knob)
		CHECK_EQ(inj(c, knob), 0);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 1, 0, 0, 0, KH_T_CU_INST, 3, 1);
	kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
	kh_flit_set(&f, KH_SX_N, 16);
	kh_flit_set(&f, KH_SX_A, fbits(3.0f));
	kh_flit_set(&f, KH_SX_X_ADDR, 0x10000);
	kh_flit_set(&f, KH_SX_Y_ADDR, 0x20000);
	mh_mb_send(c, &f);
	ksim_run(c, 3000);
	CHECK_EQ(KH_NS_CODE(mh_ns(c, 1, 0)), KH_SIG_BATCH_COMPLETE);
	ksim_dma_read(c, KH_CARD_ADDR(0, 0x20000), got, 64);
	if (keep)
		*keep = c;
	else
		ksim_card_destroy(c);
}

TEST_F(model, dram_knob_reads)
{
	struct ksim_card *c;
	struct ksim_stats st;
	u32 g[16];
	char buf[2048];
	unsigned int i;

	/* y's first line reads as zeros: y = 3x there, and nobody knows */
	sx16("dram op=read addr=0x20000 len=0x20", g, &c);
	for (i = 0; i < 16; i++)
		CHECK_EQ(g[i], fbits(3.0f * (i + 1) + (i < 8 ? 0.0f : 100.0f + i)));
	ksim_get_stats(c, 0, &st);
	CHECK_EQ(st.mag_reads, 2);		/* reads counted as usual */
	ksim_dump_stats(c, buf, sizeof(buf));
	CHECK(strstr(buf, "dram_rd_errors=1 dram_wr_errors=0"));
	ksim_card_destroy(c);
	/* ones: a NaN y; saxpy_cu's f2i makes it 0 (exponent 255 shifts out) */
	sx16("dram op=read addr=0x20020 len=0x20 data=ones", g, NULL);
	CHECK_EQ(g[0], fbits(3.0f + 100.0f));
	for (i = 8; i < 16; i++)
		CHECK_EQ(g[i], fbits(3.0f * (i + 1)));
	/* a pattern, on x this time: every x reads 1.0 */
	sx16("dram op=any addr=0x10000 len=0x40 data=0x3f800000 count=2", g,
	     NULL);
	for (i = 0; i < 16; i++)
		CHECK_EQ(g[i], fbits(3.0f + 100.0f + i));
}

TEST_F(model, dram_knob_writes)
{
	struct ksim_card *c;
	u32 g[16];
	char buf[2048];
	unsigned int i;

	/* the first write beat is lost: MAG acks it, AUX_STAT counts it */
	sx16("dram op=write addr=0x20000 len=0x20", g, &c);
	for (i = 0; i < 16; i++)
		CHECK_EQ(g[i], i < 8 ? fbits(100.0f + i)
				     : fbits(3.0f * (i + 1) + 100.0f + i));
	CHECK_EQ(KH_AUX_WR_COUNT(mh_rd(c, KH_ORC_AUX_STAT)), 1);
	ksim_dump_stats(c, buf, sizeof(buf));
	CHECK(strstr(buf, "dram_rd_errors=0 dram_wr_errors=1"));
	ksim_card_destroy(c);
	/* count and after are in beats: the second beat only */
	sx16("dram op=write after=1", g, NULL);
	for (i = 0; i < 16; i++)
		CHECK_EQ(g[i], i == 8 || i > 8 ? fbits(100.0f + i)
					       : fbits(3.0f * (i + 1) + 100.0f + i));
}

/* ---- determinism ---- */

static void knob_run(bool from_desc, char *out, size_t len)
{
	static const char knobs[] =
		"inject drop link=R1,1.S type=MEM_RD_RESP count=1 after=5\n"
		"inject busy node=1,2 cycles=300 after=10\n"
		"inject ctrl node=1,0 field=value xor=0x3\n";
	char desc[1024];
	struct ksim_card *c;
	struct kh_flit f, r;
	unsigned int i;
	size_t n;

	snprintf(desc, sizeof(desc), "%s%s", from_desc ? knobs : "",
		 ksim_builtin_desc("saxpy"));
	c = card(desc);
	REQUIRE(c);
	if (!from_desc) {
		char err[128];

		for (i = 0; i < 3; i++) {
			const char *b = knobs, *e;
			char line[128];
			unsigned int k;

			for (k = 0; k < i; k++)
				b = strchr(b, '\n') + 1;
			e = strchr(b, '\n');
			snprintf(line, sizeof(line), "%.*s", (int)(e - b), b);
			CHECK_EQ(ksim_command(c, line, err, sizeof(err)), 0);
		}
	}
	mh_violations = 0;
	for (i = 0; i < 2; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 1, i * 2, 0, 0, KH_T_CU_INST, i, 1);
		kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
		kh_flit_set(&f, KH_SX_N, 40);
		kh_flit_set(&f, KH_SX_A, fbits(2.0f));
		kh_flit_set(&f, KH_SX_X_ADDR, 0x1000 + i * 0x1000);
		kh_flit_set(&f, KH_SX_Y_ADDR, 0x8000 + i * 0x1000);
		mh_mb_send(c, &f);
	}
	mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_CAPS, 1, &r);
	ksim_run(c, 20000);
	n = ksim_dump_stats(c, out, len);
	snprintf(out + (n < len ? n : len - 1), len - (n < len ? n : len - 1),
		 "caps 0x%llx ns 0x%llx 0x%llx\n",
		 (unsigned long long)mh_ctrl_value(&r),
		 (unsigned long long)mh_ns(c, 1, 0),
		 (unsigned long long)mh_ns(c, 1, 2));
	ksim_card_destroy(c);
}

TEST_F(model, deterministic)
{
	static char a[8192], b[8192], d[8192];

	knob_run(false, a, sizeof(a));
	knob_run(false, b, sizeof(b));
	knob_run(true, d, sizeof(d));
	CHECK(!strcmp(a, b));
	CHECK(strstr(a, "drops=1"));
	CHECK(strstr(a, "busy_forced=300"));
	CHECK(strstr(a, "ctrl_corrupted=1"));
	/* a knob in the description acts as one set at cycle 0 */
	CHECK(!strcmp(a, d));
	if (strcmp(a, d))
		check_diag("runtime:\n%s\ndescription:\n%s", a, d);
}

CHECK_TEST_MAIN
