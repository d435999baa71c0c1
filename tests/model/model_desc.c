// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card-description parser: the built-ins load, parameters apply, and
 * every documented error names its line and problem
 * (docs/spec/card-description.md).
 */
#include "mhelp.h"

static void expect_err(const char *desc, const char *msg)
{
	struct kh_sim_card *c = NULL;
	char err[256];
	int e;

	err[0] = 0;
	e = kh_sim_card_create(desc, &c, err, sizeof(err));
	CHECK_MSG(e == -EINVAL, "expected -EINVAL, got %d for:\n%s", e, desc);
	CHECK_MSG(!strcmp(err, msg), "message '%s', expected '%s'", err, msg);
	CHECK(c == NULL);
	kh_sim_card_destroy(c);
}

TEST(builtins_load)
{
	const char *const *names = kh_sim_builtin_names();
	unsigned int n = 0, want;

	for (; *names; names++, n++) {
		struct kh_sim_card *c = NULL;
		char err[128] = "";

		CHECK_MSG(kh_sim_card_create(kh_sim_builtin_desc(*names), &c,
					     err, sizeof(err)) == 0,
			  "%s: %s", *names, err);
		if (!c)
			continue;
		want = strcmp(*names, "quad") ? 1 : 4;
		CHECK_EQ(kh_sim_mesh_count(c), want);
		CHECK_EQ(kh_sim_mesh_dram_size(c, 0), 4096ULL << 20);
		CHECK_EQ(kh_sim_mesh_dram_size(c, want - 1), 4096ULL << 20);
		CHECK_EQ(kh_sim_mesh_dram_size(c, want), 0);
		CHECK_EQ(kh_sim_clock_mhz(c), 300);
		kh_sim_card_destroy(c);
	}
	CHECK_EQ(n, 4);
	CHECK(kh_sim_builtin_desc("saxpy") != NULL);
	CHECK(kh_sim_builtin_desc("sx_null_2x2") != NULL);
	CHECK(kh_sim_builtin_desc("ship_2x2") != NULL);
	CHECK(kh_sim_builtin_desc("quad") != NULL);
	CHECK(kh_sim_builtin_desc("nope") == NULL);
	CHECK(kh_sim_builtin_desc(NULL) == NULL);
}

TEST(sx_null_2x2_shape)
{
	struct kh_sim_card *c = mh_card("sx_null_2x2");
	static const u16 want[4][4] = {
		{ 0xffff, KH_CU_SX, KH_CU_NULL, 0xffff },
		{ 0xffff, KH_CU_SX, KH_CU_NULL, KH_CU_SX },
		{ 0xffff, KH_CU_NULL, KH_CU_SX, KH_CU_NULL },
		{ 0xffff, KH_CU_NULL, KH_CU_SX, 0xffff },
	};
	unsigned int x, y;

	REQUIRE(c);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++) {
			struct kh_unit *u = kh_sim_unit_at(c, 0, x, y);

			if (want[y][x] == 0xffff)
				CHECK(u == NULL);
			else
				CHECK(u && kh_unit_type_of(u)->cu_type ==
					   want[y][x]);
		}
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS), 0x0000000201040120ULL);
	kh_sim_card_destroy(c);
}

TEST(params_apply)
{
	static const char map[] =
		"# comment line\n"
		"param inst_depth 0x200   # trailing comment\n"
		"param cu_version 7\n"
		"param dram_mib 64\n"
		"\n"
		"xxx\tsax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct kh_sim_card *c = mh_card(map);
	struct kh_flit r;
	u64 v;

	REQUIRE(c);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_CAPS, 1, &r));
	v = mh_ctrl_value(&r);
	CHECK_EQ((v >> 20) & 0xffff, 512);
	CHECK_EQ((v >> 40) & 0xff, 7);
	CHECK_EQ(kh_sim_mesh_dram_size(c, 0), 64ULL << 20);
	kh_sim_card_destroy(c);
}

TEST(error_messages)
{
	expect_err("xxx sax xxx\nmag nul nul\nxxx sax nul xxx\n",
		   "line 3: row has 4 tokens, expected 3");
	expect_err("xxx sax xxx\nmag mat nul\nxxx sax xxx\n",
		   "line 2: token 'mat' (matmul cluster) has no model yet");
	expect_err("xxx vec xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: token 'vec' (vector core) has no model yet");
	expect_err("# c\nxxx sax xxx\nmag nul cpu\nxxx sax xxx\n",
		   "line 3: token 'cpu' (control processor) has no model yet");
	expect_err("xxx sax xxx\nmag foo nul\nxxx sax xxx\n",
		   "line 2: unknown token 'foo'");
	expect_err("sax sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: corner (0,0) must be 'xxx', not 'sax'");
	expect_err("xxx sax xxx\nmag nul nul\nxxx sax nul\n",
		   "line 3: corner (2,2) must be 'xxx', not 'nul'");
	expect_err("xxx sax xxx\nmag nul mag\nxxx sax xxx\n",
		   "line 2: 'mag' at (2,1) is not on the west edge (x = 0)");
	expect_err("xxx sax xxx\nnul nul nul\n\nxxx sax xxx\n# end\n",
		   "line 4: no 'mag' in the map; a mesh needs at least one memory port");
	expect_err("xxx sax xxx\nmag nul nul\nmag nul nul\nmag nul nul\n"
		   "mag nul nul\nmag nul nul\nxxx sax xxx\n",
		   "line 6: more than 4 'mag' ports");
	expect_err("xxx xxx\nmag nul\nxxx xxx\n",
		   "line 1: row has 2 tokens; a map is at least 3 x 3");
	expect_err("xxx sax xxx\nmag nul nul\n",
		   "line 2: map has 2 rows; a map is at least 3 x 3");
	expect_err("xxx nul nul nul nul nul nul nul nul nul nul nul nul nul nul nul xxx\n",
		   "line 1: row has 17 tokens; a map is at most 16 x 16");
	expect_err("param inst_depth 32\n"
		   "xxx sax xxx\nmag nul nul\nmag nul nul\nmag nul nul\n"
		   "nul nul nul\nnul nul nul\nnul nul nul\nnul nul nul\n"
		   "nul nul nul\nnul nul nul\nnul nul nul\nnul nul nul\n"
		   "nul nul nul\nnul nul nul\nnul nul nul\nnul nul nul\n"
		   "xxx sax xxx\n",
		   "line 18: map has more than 16 rows; a map is at most 16 x 16");
	expect_err("param depth 4\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: unknown parameter 'depth'");
	expect_err("\nparam inst_depth 0\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 2: parameter 'inst_depth' value '0' is not a number in 1..65535");
	expect_err("param cu_version x12\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: parameter 'cu_version' value 'x12' is not a number in 0..255");
	expect_err("param dram_mib 8192\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: parameter 'dram_mib' value '8192' is not a number in 1..4096");
	expect_err("param recv_depth\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: 'param' needs a name and a value");
	expect_err("param recv_depth 4 5\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n",
		   "line 1: 'param recv_depth' takes one value, got 2");
	expect_err("xxx sax xxx\nmag nul nul\nparam recv_depth 4\nxxx sax xxx\n",
		   "line 3: directive 'param' after the map rows");
	expect_err("# nothing\n\n", "line 2: no map rows");
	expect_err("", "line 1: no map rows");
}

TEST(extra_unit_types_and_null_desc)
{
	struct kh_sim_card *c = NULL;
	char err[64];

	CHECK_EQ(kh_sim_card_create(NULL, &c, err, sizeof(err)), -EINVAL);
	/* test tokens are unknown without the extra types */
	CHECK_EQ(kh_sim_card_create("xxx snk xxx\nmag nul nul\nxxx nul xxx\n",
				    &c, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "line 1: unknown token 'snk'"));
	c = mh_card("xxx snk xxx\nmag nul nul\nxxx nul xxx\n");
	CHECK(c != NULL);
	kh_sim_card_destroy(c);
	/* no err buffer at all is fine */
	CHECK_EQ(kh_sim_card_create("junk", &c, NULL, 0), -EINVAL);
}

int main(int argc, char **argv)
{
	return tap_main(argc, argv);
}
