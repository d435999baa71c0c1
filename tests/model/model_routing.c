// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Routing: every coordinate of the built-in maps reached from the agent,
 * clamped coordinates answered by the endpoint the clamp lands on, the
 * corner hop back to the agent, and flits to tied-off ports vanishing.
 * Probes are CU_CTRL reads through the mailbox; a unit answers with its
 * own coordinate as src, a MAG port hands the request to the agent (the
 * self-echo), a tie-off swallows it.
 */
#include "mhelp.h"
#include "router.h"
#include "harness.h"

CHECK_FIXTURE(model)

/* What answers a probe to a map cell. */
enum { ANS_NONE, ANS_UNIT, ANS_ECHO };

/* Probe (dx,dy); expect an answer of kind ans from (ax,ay). */
static void probe(struct ksim_card *c, unsigned int dx, unsigned int dy,
		  unsigned int ans, unsigned int ax, unsigned int ay,
		  u16 cu_type)
{
	struct ksim_stats before, after;
	struct kh_flit r;
	unsigned int txn = (dx * 16 + dy) & 0xff;
	int got;

	ksim_get_stats(c, 0, &before);
	got = mh_ctrl_read(c, dx, dy, KH_CTRL_IDX_CAPS, txn, &r);
	ksim_get_stats(c, 0, &after);
	switch (ans) {
	case ANS_NONE:
		CHECK_MSG(!got, "(%u,%u): expected no answer", dx, dy);
		CHECK_MSG(after.tieoff_dropped == before.tieoff_dropped + 1,
			  "(%u,%u): tie-off drops %llu -> %llu", dx, dy,
			  (unsigned long long)before.tieoff_dropped,
			  (unsigned long long)after.tieoff_dropped);
		break;
	case ANS_UNIT:
		CHECK_MSG(got, "(%u,%u): no reply", dx, dy);
		if (!got)
			return;
		CHECK_EQ(kh_flit_get(&r, KH_HDR_TYPE), KH_T_CU_CTRL);
		CHECK_EQ(kh_flit_get(&r, KH_CTRL_OP), KH_CTRL_OP_REPLY);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_TXN), txn);
		CHECK_MSG(kh_flit_get(&r, KH_HDR_SRC_X) == ax &&
			  kh_flit_get(&r, KH_HDR_SRC_Y) == ay,
			  "probe (%u,%u): reply from (%u,%u), expected (%u,%u)",
			  dx, dy, (unsigned int)kh_flit_get(&r, KH_HDR_SRC_X),
			  (unsigned int)kh_flit_get(&r, KH_HDR_SRC_Y), ax, ay);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_X), 0);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_Y), 0);
		CHECK_EQ(mh_ctrl_value(&r) >> KH_CAPS_CU_TYPE_SHIFT, cu_type);
		break;
	case ANS_ECHO:
		/* the unmodified request comes back: op 0, dst the probe */
		CHECK_MSG(got, "(%u,%u): no echo", dx, dy);
		if (!got)
			return;
		CHECK_EQ(kh_flit_get(&r, KH_CTRL_OP), KH_CTRL_OP_READ);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_X), dx);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_DST_Y), dy);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_X), 0);
		CHECK_EQ(kh_flit_get(&r, KH_HDR_SRC_Y), 0);
		break;
	}
}

TEST_F(model, saxpy_every_coordinate)
{
	struct ksim_card *c = mh_card("saxpy");

	REQUIRE(c);
	/* the map's units and ports */
	probe(c, 1, 0, ANS_UNIT, 1, 0, KH_CU_SX);
	probe(c, 1, 2, ANS_UNIT, 1, 2, KH_CU_SX);
	probe(c, 0, 1, ANS_ECHO, 0, 1, 0);	/* MAG port 0, the agent */
	/* tied off: the router's local port and east port are `nul` */
	probe(c, 1, 1, ANS_NONE, 0, 0, 0);
	probe(c, 2, 1, ANS_NONE, 0, 0, 0);
	/*
	 * Corners: clamped to (1,1), then the outward hop by priority
	 * west > east > north > south.
	 */
	probe(c, 0, 0, ANS_ECHO, 0, 0, 0);	/* west: MAG port 0 */
	probe(c, 0, 2, ANS_ECHO, 0, 0, 0);	/* west */
	probe(c, 2, 0, ANS_NONE, 0, 0, 0);	/* east: `nul` at (2,1) */
	probe(c, 2, 2, ANS_NONE, 0, 0, 0);	/* east */
	ksim_card_destroy(c);
}

TEST_F(model, sx_null_2x2_every_coordinate)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	static const char *map[4][4] = {
		{ "xxx", "sax", "null", "xxx" },
		{ "mag", "sax", "null", "sax" },
		{ "mag", "null", "sax", "null" },
		{ "xxx", "null", "sax", "xxx" },
	};
	unsigned int x, y;

	REQUIRE(c);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++) {
			const char *t = map[y][x];

			if (!strcmp(t, "sax"))
				probe(c, x, y, ANS_UNIT, x, y, KH_CU_SX);
			else if (!strcmp(t, "null"))
				probe(c, x, y, ANS_UNIT, x, y, KH_CU_NULL);
			else if (!strcmp(t, "mag"))
				probe(c, x, y, ANS_ECHO, 0, 0, 0);
		}
	/* corners: clamp, then west > east > north > south */
	probe(c, 0, 0, ANS_ECHO, 0, 0, 0);	/* (1,1) west: MAG port 0 */
	probe(c, 3, 0, ANS_UNIT, 3, 1, KH_CU_SX);	/* (2,1) east, not north */
	probe(c, 0, 3, ANS_ECHO, 0, 0, 0);	/* (1,2) west: MAG port 1 */
	probe(c, 3, 3, ANS_UNIT, 3, 2, KH_CU_NULL);	/* (2,2) east, not south */
	ksim_card_destroy(c);
}

TEST_F(model, clamped_coordinates)
{
	struct ksim_card *c = mh_card("sx_null_2x2");

	REQUIRE(c);
	/* past the east edge: clamp x to 2, then east */
	probe(c, 9, 1, ANS_UNIT, 3, 1, KH_CU_SX);
	probe(c, 15, 2, ANS_UNIT, 3, 2, KH_CU_NULL);
	/* past the south edge: clamp y to 2, then south */
	probe(c, 1, 12, ANS_UNIT, 1, 3, KH_CU_NULL);
	probe(c, 2, 15, ANS_UNIT, 2, 3, KH_CU_SX);
	/* far corner: east wins over south */
	probe(c, 15, 15, ANS_UNIT, 3, 2, KH_CU_NULL);
	/* north edge row 0 is in range: (1,0) itself */
	probe(c, 1, 0, ANS_UNIT, 1, 0, KH_CU_SX);
	/* west of the grid on row 15: clamp (1,2), west to MAG port 1 */
	probe(c, 0, 15, ANS_ECHO, 0, 0, 0);
	ksim_card_destroy(c);

	c = mh_card("saxpy");
	REQUIRE(c);
	probe(c, 1, 9, ANS_UNIT, 1, 2, KH_CU_SX);	/* south */
	probe(c, 9, 9, ANS_NONE, 0, 0, 0);	/* east: `nul` at (2,1) */
	ksim_card_destroy(c);
}

TEST_F(model, agent_leaves_by_the_destination_row)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
	struct ksim_link *p0, *p1;
	struct kh_flit r;
	u64 f0, f1;

	REQUIRE(c);
	p0 = ksim_endpoint_link(c, 0, 0, 1);
	p1 = ksim_endpoint_link(c, 0, 0, 2);
	REQUIRE(p0 && p1);
	f0 = p0->flits;
	f1 = p1->flits;
	CHECK(mh_ctrl_read(c, 2, 2, 0, 1, &r));	/* row 2: port 1 */
	CHECK_EQ(p0->flits, f0);
	CHECK_EQ(p1->flits, f1 + 1);
	CHECK(mh_ctrl_read(c, 2, 3, 0, 1, &r));	/* row 3: no port, port 0 */
	CHECK_EQ(p0->flits, f0 + 1);
	CHECK(mh_ctrl_read(c, 1, 1, 0, 1, &r));	/* row 1: port 0 */
	CHECK_EQ(p0->flits, f0 + 2);
	CHECK_EQ(p1->flits, f1 + 1);
	ksim_card_destroy(c);
}

TEST_F(model, route_function_priorities)
{
	struct ksim_router r = { .x = 1, .y = 1, .lo = 1, .hi_x = 2, .hi_y = 2 };

	CHECK_EQ(ksim_route(&r, 0, 0), KSIM_PORT_W);
	CHECK_EQ(ksim_route(&r, 1, 0), KSIM_PORT_N);
	CHECK_EQ(ksim_route(&r, 1, 1), KSIM_PORT_L);
	CHECK_EQ(ksim_route(&r, 2, 0), KSIM_PORT_E);	/* x first */
	CHECK_EQ(ksim_route(&r, 1, 3), KSIM_PORT_S);
	CHECK_EQ(ksim_route(&r, 0, 3), KSIM_PORT_S);	/* clamp y to 2 first */
	r.x = 2;
	r.y = 2;
	CHECK_EQ(ksim_route(&r, 3, 3), KSIM_PORT_E);	/* east > south */
	CHECK_EQ(ksim_route(&r, 2, 3), KSIM_PORT_S);
	r.x = 1;
	r.y = 2;
	CHECK_EQ(ksim_route(&r, 0, 3), KSIM_PORT_W);	/* west > south */
	r.x = 2;
	r.y = 1;
	CHECK_EQ(ksim_route(&r, 3, 0), KSIM_PORT_E);	/* east > north */
}

CHECK_TEST_MAIN
