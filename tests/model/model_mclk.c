// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The meshes run at their clock wizard's outputs (kohakutpu.md 8.5,
 * docs/model.md "Mesh clocks"): the board's low and mid profiles, written
 * word by word as a driver would, make a job take 3x and 1.5x the card's
 * cycles it takes at ship, while the unit's own counters count the same;
 * each mesh at its own profile; SW_RST back to ship; the wizard's rules.
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define X_BASE		0x100000ULL
#define Y_BASE		0x900000ULL
#define JOB_N		64
#define LOW		0
#define MID		1
#define SHIP		2

/* the saxpy map, one mesh of it per `mesh N` */
#define SAXPY_MAP	"xxx sax xxx\nmag nul nul\nxxx sax xxx\n"
static const char two_saxpy[] =
	"profile rtl\n"
	"mesh 0\n" SAXPY_MAP
	"mesh 1\n" SAXPY_MAP;

/* from a LOAD to a mesh that takes instructions again */
#define RELOCK_CYCLES \
	(KH_CLK_LOCK_CYCLES + KH_RST_RELEASE_CYCLES + KH_RST_RECOVERY_CYCLES)

static bool locked(struct ksim_card *c, unsigned int n)
{
	return mm_clk_rd(c, n, KH_CLK_STATUS) & KH_CLK_LOCKED;
}

/*
 * A driver's retune: each output's divide and a 50 % duty, one 32-bit
 * beat a register, then LOAD from the registers; the mesh is back once
 * the wizard relocks and the reset releases.
 */
static void set_profile(struct ksim_card *c, unsigned int mesh,
			unsigned int p)
{
	unsigned int o;

	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++) {
		mm_clk_wr(c, mesh, KH_CLK_DIV(o), KH_CLK_PROFILE_DIV(p, o));
		mm_clk_wr(c, mesh, KH_CLK_DUTY(o), KH_CLK_DUTY_50);
	}
	mm_clk_wr(c, mesh, KH_CLK_LOAD, KH_CLK_LOAD_SEN | KH_CLK_LOAD_SADDR);
}

static void relock(struct ksim_card *c, unsigned int mesh)
{
	ksim_run(c, RELOCK_CYCLES);
	CHECK(locked(c, mesh));
	CHECK(!ksim_mesh_in_reset(c, mesh));
}

/* stage one JOB_N-element SAXPY for mesh m's SX unit (1,0), then kick it */
static void kick(struct ksim_card *c, unsigned int m)
{
	struct kh_flit f;
	unsigned int w;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, 0, 0, 0, 0, KH_T_CU_INST, 0x42, 1);
	kh_flit_set(&f, KH_SX_OPCODE, KH_SX_OP_SAXPY);
	kh_flit_set(&f, KH_SX_N, JOB_N);
	kh_flit_set(&f, KH_SX_A, 0x3f800000);
	kh_flit_set(&f, KH_SX_X_ADDR, KH_MADDR(0, X_BASE));
	kh_flit_set(&f, KH_SX_Y_ADDR, KH_MADDR(0, Y_BASE));
	for (w = 0; w < KH_FLIT_WORDS; w++)
		mm_wr(c, m, KH_ORC_STAGE(0) + w * 8, f.w[w]);
	mm_wr(c, m, KH_ORC_PROG_CRED, 4);
	mm_wr(c, m, KH_ORC_PROG_DST, KH_YX(1, 0));
	mm_wr(c, m, KH_ORC_PROG_BASE, 0);
	mm_wr(c, m, KH_ORC_PROG_LEN, 1);
	mm_wr(c, m, KH_ORC_PROG_KICK, 1);
}

/*
 * The job on mesh m: the card's cycles from PROG_KICK to NODE_STATUS
 * counting it (one-cycle host accesses: the poll's resolution is a cycle).
 */
static u64 job(struct ksim_card *c, unsigned int m)
{
	unsigned int base = KH_NS_COUNT(mm_ns(c, m, 1, 0));
	u64 t0, t;

	kick(c, m);
	t0 = ksim_cycles(c) - 1;	/* the cycle PROG_KICK landed in */
	while (KH_NS_COUNT(mm_ns(c, m, 1, 0)) == base &&
	       ksim_cycles(c) - t0 < 1000000)
		;
	t = ksim_cycles(c) - t0;
	ksim_run(c, 2000);	/* the write lands, the credits return */
	return t;
}

/* the unit's busy cycles (CU_COUNTERS [31:0]) */
static u64 busy(struct ksim_card *c, unsigned int m)
{
	return mm_ctrl_rd(c, m, 1, 0, KH_CTRL_IDX_COUNTERS) & KH_CTR_BUSY_MASK;
}

/* |a - b| <= d */
static bool near(u64 a, u64 b, u64 d)
{
	return a > b ? a - b <= d : b - a <= d;
}

static struct ksim_card *card(const char *desc)
{
	struct ksim_card *c = mh_card(desc);

	if (c)
		mh_fast_host(c);
	return c;
}

TEST_F(model, low_and_mid_take_three_and_one_and_a_half_times)
{
	struct ksim_card *c = card("saxpy");
	u64 ship, low, mid, b_ship, b_low, b_mid;

	REQUIRE(c);
	ship = job(c, 0);
	b_ship = busy(c, 0);
	CHECK(b_ship > JOB_N);

	set_profile(c, 0, LOW);
	CHECK(!locked(c, 0));
	CHECK(ksim_mesh_in_reset(c, 0));
	relock(c, 0);
	CHECK_EQ(busy(c, 0), 0);	/* the reset cleared the counters */
	low = job(c, 0);
	b_low = busy(c, 0);

	set_profile(c, 0, MID);
	relock(c, 0);
	mid = job(c, 0);
	b_mid = busy(c, 0);

	check_diag("PROG_KICK to NODE_STATUS, n = %u: ship %llu, mid %llu, low %llu card cycles; unit busy %llu / %llu / %llu of its own",
		   JOB_N, (unsigned long long)ship, (unsigned long long)mid,
		   (unsigned long long)low, (unsigned long long)b_ship,
		   (unsigned long long)b_mid, (unsigned long long)b_low);
	CHECK_MSG(near(low, 3 * ship, 3), "low %llu, 3 x ship %llu",
		  (unsigned long long)low, (unsigned long long)(3 * ship));
	CHECK_MSG(near(2 * mid, 3 * ship, 4), "mid %llu, 1.5 x ship %llu",
		  (unsigned long long)mid, (unsigned long long)(3 * ship / 2));
	/* CU_COUNTERS count the unit's own cycles: the same at every clock */
	CHECK_EQ(b_low, b_ship);
	CHECK_EQ(b_mid, b_ship);
	ksim_card_destroy(c);
}

/*
 * At low every node of the mesh waits two cycles in three: the scheduler
 * skips to the edges rather than stepping the empty cycles between them.
 */
TEST_F(model, the_skip_goes_edge_to_edge)
{
	struct ksim_card *c = card("saxpy");
	struct ksim_stats st;
	u64 s0, k0, stepped[2];
	unsigned int i;

	REQUIRE(c);
	for (i = 0; i < 2; i++) {
		if (i) {
			set_profile(c, 0, LOW);
			relock(c, 0);
		}
		/* a job run through in one go, no host access in between */
		k0 = KH_NS_COUNT(mm_ns(c, 0, 1, 0));
		kick(c, 0);
		ksim_get_stats(c, 0, &st);
		s0 = st.cycles_stepped;
		ksim_run(c, 3000);
		ksim_get_stats(c, 0, &st);
		stepped[i] = st.cycles_stepped - s0;
		CHECK_EQ(KH_NS_COUNT(mm_ns(c, 0, 1, 0)), k0 + 1);
		check_diag("%s: %llu of 3000 cycles stepped", i ? "low" : "ship",
			   (unsigned long long)stepped[i]);
	}
	/* the same edges at low as cycles at ship, give or take the phase */
	CHECK(stepped[1] < stepped[0] + stepped[0] / 4);
	ksim_card_destroy(c);
}

TEST_F(model, two_meshes_two_profiles)
{
	struct ksim_card *c = card(two_saxpy);
	u64 ship[2], t[2];

	REQUIRE(c);
	ship[0] = job(c, 0);
	ship[1] = job(c, 1);
	CHECK_EQ(ship[0], ship[1]);

	set_profile(c, 0, LOW);
	CHECK(locked(c, 1));
	CHECK(!ksim_mesh_in_reset(c, 1));
	/* mesh 1 runs at ship while mesh 0 relocks */
	CHECK_EQ(job(c, 1), ship[1]);
	set_profile(c, 1, MID);
	ksim_run(c, RELOCK_CYCLES);
	CHECK(locked(c, 0));
	CHECK(locked(c, 1));
	t[0] = job(c, 0);
	t[1] = job(c, 1);
	check_diag("mesh 0 low %llu, mesh 1 mid %llu, ship %llu",
		   (unsigned long long)t[0], (unsigned long long)t[1],
		   (unsigned long long)ship[0]);
	CHECK(near(t[0], 3 * ship[0], 3));
	CHECK(near(2 * t[1], 3 * ship[1], 4));
	ksim_card_destroy(c);
}

TEST_F(model, sw_rst_returns_to_ship)
{
	struct ksim_card *c = card("saxpy");
	u64 ship, low;

	REQUIRE(c);
	ship = job(c, 0);
	set_profile(c, 0, LOW);
	relock(c, 0);
	low = job(c, 0);
	CHECK(near(low, 3 * ship, 3));
	mm_clk_wr(c, 0, KH_CLK_SW_RST, KH_CLK_SW_RST_KEY);
	CHECK(!locked(c, 0));
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(0)), KH_CLK_PROFILE_DIV(SHIP, 0));
	relock(c, 0);
	CHECK(near(job(c, 0), ship, 1));
	/* and LOAD 0x1, the built values, from low too */
	set_profile(c, 0, LOW);
	relock(c, 0);
	mm_clk_wr(c, 0, KH_CLK_LOAD, KH_CLK_LOAD_SEN);
	relock(c, 0);
	CHECK(near(job(c, 0), ship, 1));
	ksim_card_destroy(c);
}

/* a retune while a job runs: the job is lost with the reset */
TEST_F(model, a_retune_under_traffic_resets_the_mesh)
{
	struct ksim_card *c = card("saxpy");
	unsigned int base;
	u64 ship;

	REQUIRE(c);
	ship = job(c, 0);
	base = KH_NS_COUNT(mm_ns(c, 0, 1, 0));
	mm_wr(c, 0, KH_ORC_PROG_KICK, 1);	/* the same program again */
	ksim_run(c, ship / 2);
	CHECK_EQ(KH_NS_COUNT(mm_ns(c, 0, 1, 0)), base);
	set_profile(c, 0, LOW);
	CHECK(ksim_mesh_in_reset(c, 0));
	CHECK_EQ(mm_rd(c, 0, KH_ORC_PROG_STAT), 0);
	relock(c, 0);
	ksim_run(c, 3 * ship);
	CHECK_EQ(KH_NS_COUNT(mm_ns(c, 0, 1, 0)), base);	/* it never finished */
	CHECK_EQ(busy(c, 0), 0);
	/* the mesh works, at low */
	CHECK(near(job(c, 0), 3 * ship, 3));
	ksim_card_destroy(c);
}

/*
 * Outputs at different rates: flits cross between the routers' and the
 * MAG's clocks (a link steps on its sender's edges) and the job runs
 * through, slower than at ship and no slower than with everything slow.
 */
TEST_F(model, outputs_at_different_rates)
{
	static const unsigned int slow_out[2] = { KH_CLK_OUT_MAG, KH_CLK_OUT_NOC };
	struct ksim_card *c = card("saxpy");
	u64 ship, t, b_ship;
	unsigned int i;

	REQUIRE(c);
	ship = job(c, 0);
	b_ship = busy(c, 0);
	for (i = 0; i < 2; i++) {
		mm_clk_wr(c, 0, KH_CLK_SW_RST, KH_CLK_SW_RST_KEY);
		mm_clk_wr(c, 0, KH_CLK_DIV(slow_out[i]), 12);	/* 100 MHz */
		mm_clk_wr(c, 0, KH_CLK_LOAD, KH_CLK_LOAD_SEN | KH_CLK_LOAD_SADDR);
		relock(c, 0);
		t = job(c, 0);
		check_diag("CLKOUT%u at 100 MHz, the rest at ship: %llu card cycles (ship %llu); unit busy %llu (%llu)",
			   slow_out[i], (unsigned long long)t,
			   (unsigned long long)ship,
			   (unsigned long long)busy(c, 0),
			   (unsigned long long)b_ship);
		CHECK(t > ship);
		CHECK(t <= 3 * ship + 3);
	}
	ksim_card_destroy(c);
}

static void expect_begin(void)
{
	mh_expect_violations = true;
	mh_violations = 0;
}

static u64 clk_viols(struct ksim_card *c)
{
	return ksim_check_count(c, KSIM_CHK_CLK);
}

TEST_F(model, the_wizard_rules_are_reported)
{
	struct ksim_card *c = card("saxpy");
	u64 ship;

	REQUIRE(c);
	ship = job(c, 0);
	expect_begin();
	/* (a) a 64-bit write: refused, nothing written */
	ksim_write64(c, KH_CLKWIZ_BASE(0) + KH_CLK_DIV(0), 12);
	CHECK_EQ(clk_viols(c), 1);
	CHECK(strstr(mh_last_violation, "single 32-bit beats"));
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(0)), 4);
	/* (b) a duty of 0, what a read-merge-write writes back: kept */
	mm_clk_wr(c, 0, KH_CLK_DUTY(1), 0);
	CHECK_EQ(clk_viols(c), 2);
	CHECK(strstr(mh_last_violation, "duty register written 0"));
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK(locked(c, 0));		/* nothing changed */
	/* (c) a divide of 0, reported when LOAD applies it: built rate */
	mm_clk_wr(c, 0, KH_CLK_DIV(2), 0);
	CHECK_EQ(clk_viols(c), 2);
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK_EQ(clk_viols(c), 3);
	CHECK(strstr(mh_last_violation, "CLKOUT2: a divide of 0"));
	relock(c, 0);
	/* an output above its built clock: run at the built one */
	mm_clk_wr(c, 0, KH_CLK_DIV(2), 4);
	mm_clk_wr(c, 0, KH_CLK_DIV(0), 2);	/* 600 MHz noc */
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK_EQ(clk_viols(c), 4);
	CHECK(strstr(mh_last_violation, "CLKOUT0: 600 MHz loaded, above its built 300"));
	relock(c, 0);
	CHECK(near(job(c, 0), ship, 1));
	/* the VCO outside 600..1200 MHz: M 24, D 1 is 2400 */
	mm_clk_wr(c, 0, KH_CLK_DIV(0), 8);
	mm_clk_wr(c, 0, KH_CLK_CFG0, 0x1801);
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK(clk_viols(c) >= 5);
	CHECK(strstr(mh_last_violation, "VCO") ||
	      mh_violations > 5);	/* the outputs above built follow it */
	mh_expect_violations = false;
	ksim_card_destroy(c);
}

/* With the checker off the rules still act, but nothing is reported. */
TEST_F(model, the_rules_report_only_with_the_checker_on)
{
	struct ksim_opts o;
	struct ksim_card *c = NULL;
	char err[128];

	memset(&o, 0, sizeof(o));
	REQUIRE(!ksim_card_create_opts(ksim_builtin_desc("saxpy"), &o, &c, err,
				       sizeof(err)));
	mh_violations = 0;
	ksim_write64(c, KH_CLKWIZ_BASE(0) + KH_CLK_DIV(0), 12);
	CHECK_EQ(mm_clk_rd(c, 0, KH_CLK_DIV(0)), 4);	/* still refused */
	mm_clk_wr(c, 0, KH_CLK_DUTY(0), 0);
	mm_clk_wr(c, 0, KH_CLK_DIV(0), 0);
	mm_clk_wr(c, 0, KH_CLK_LOAD, 3);
	CHECK_EQ(clk_viols(c), 0);
	CHECK_EQ(mh_violations, 0);
	ksim_card_destroy(c);
}

CHECK_TEST_MAIN
