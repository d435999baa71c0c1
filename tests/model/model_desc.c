// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The card-description parser: the built-ins load, parameters apply, and
 * every documented error names its line and problem
 * (docs/spec/card-description.md).
 */
#include "mmesh.h"
#include "harness.h"

CHECK_FIXTURE(model)

static void expect_err(const char *desc, const char *msg)
{
	struct ksim_card *c = NULL;
	char err[256];
	int e;

	err[0] = 0;
	e = ksim_card_create(desc, &c, err, sizeof(err));
	CHECK_MSG(e == -EINVAL, "expected -EINVAL, got %d for:\n%s", e, desc);
	CHECK_MSG(!strcmp(err, msg), "message '%s', expected '%s'", err, msg);
	CHECK(c == NULL);
	ksim_card_destroy(c);
}

TEST_F(model, builtins_load)
{
	const char *const *names = ksim_builtin_names();
	unsigned int n = 0, want;

	for (; *names; names++, n++) {
		struct ksim_card *c = NULL;
		char err[128] = "";

		CHECK_MSG(ksim_card_create(ksim_builtin_desc(*names), &c,
					     err, sizeof(err)) == 0,
			  "%s: %s", *names, err);
		if (!c)
			continue;
		want = strcmp(*names, "quad") ? 1 : 4;
		CHECK_EQ(ksim_mesh_count(c), want);
		CHECK_EQ(ksim_mesh_dram_size(c, 0), 4096ULL << 20);
		CHECK_EQ(ksim_mesh_dram_size(c, want - 1), 4096ULL << 20);
		CHECK_EQ(ksim_mesh_dram_size(c, want), 0);
		CHECK_EQ(ksim_clock_mhz(c), 300);
		ksim_card_destroy(c);
	}
	CHECK_EQ(n, 12);
	CHECK(ksim_builtin_desc("saxpy") != NULL);
	CHECK(ksim_builtin_desc("pool") != NULL);
	CHECK(ksim_builtin_desc("pool_2x2") != NULL);
	CHECK(ksim_builtin_desc("sx_null_2x2") != NULL);
	CHECK(ksim_builtin_desc("ship_2x2") != NULL);
	CHECK(ksim_builtin_desc("cpu_2x1") != NULL);
	CHECK(ksim_builtin_desc("dxa_2x1") != NULL);
	CHECK(ksim_builtin_desc("quad") != NULL);
	CHECK(ksim_builtin_desc("nope") == NULL);
	CHECK(ksim_builtin_desc(NULL) == NULL);
}

TEST_F(model, sx_null_2x2_shape)
{
	struct ksim_card *c = mh_card("sx_null_2x2");
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
			struct ksim_unit *u = ksim_unit_at(c, 0, x, y);

			if (want[y][x] == 0xffff)
				CHECK(u == NULL);
			else
				CHECK(u && ksim_unit_type_of(u)->cu_type ==
					   want[y][x]);
		}
	/* the shipped CAPS, and the interrupt addon the built-in adds */
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS), 0x0000000201040120ULL | KH_CAPS_IRQ_ADDON);
	ksim_card_destroy(c);
}

TEST_F(model, params_apply)
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
	struct ksim_card *c = mh_card(map);
	struct kh_flit r;
	u64 v;

	REQUIRE(c);
	REQUIRE(mh_ctrl_read(c, 1, 0, KH_CTRL_IDX_CAPS, 1, &r));
	v = mh_ctrl_value(&r);
	CHECK_EQ((v >> 20) & 0xffff, 512);
	CHECK_EQ((v >> 40) & 0xff, 7);
	CHECK_EQ(ksim_mesh_dram_size(c, 0), 64ULL << 20);
	ksim_card_destroy(c);
}

TEST_F(model, error_messages)
{
	expect_err("xxx sax xxx\nmag nul nul\nxxx sax nul xxx\n",
		   "line 3: row has 4 tokens, expected 3");
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

TEST_F(model, extra_unit_types_and_null_desc)
{
	struct ksim_card *c = NULL;
	char err[64];

	CHECK_EQ(ksim_card_create(NULL, &c, err, sizeof(err)), -EINVAL);
	/* test tokens are unknown without the extra types */
	CHECK_EQ(ksim_card_create("xxx snk xxx\nmag nul nul\nxxx nul xxx\n",
				    &c, err, sizeof(err)), -EINVAL);
	CHECK(!strcmp(err, "line 1: unknown token 'snk'"));
	c = mh_card("xxx snk xxx\nmag nul nul\nxxx nul xxx\n");
	CHECK(c != NULL);
	ksim_card_destroy(c);
	/* no err buffer at all is fine */
	CHECK_EQ(ksim_card_create("junk", &c, NULL, 0), -EINVAL);
}

/*
 * A description is text: a NUL byte would end it silently, so the bytes
 * as read are checked first; messages show no raw control byte.
 */
TEST_F(model, text_only_and_escaped_messages)
{
	static const char nul[] = "xxx sax xxx\nmag nul nul\0junk\nxxx sax xxx\n";
	static const char esc[] = "xxx sax xxx\nmag \x1b[31mnul\n";
	static const char ok[] = "xxx sax xxx\nmag nul nul\r\n\txxx sax xxx\n";
	struct ksim_card *c = NULL;
	char err[160];

	CHECK_EQ(ksim_desc_text_check(nul, sizeof(nul) - 1, err, sizeof(err)),
		 -EINVAL);
	CHECK_MSG(!strcmp(err, "line 2: a NUL byte (at byte 23): a card "
			  "description is text"), "%s", err);
	CHECK_EQ(ksim_desc_text_check(esc, sizeof(esc) - 1, err, sizeof(err)),
		 -EINVAL);
	CHECK_MSG(!strcmp(err, "line 2: control byte 0x1b (at byte 16): a "
			  "card description is text"), "%s", err);
	CHECK_EQ(ksim_desc_text_check(ok, sizeof(ok) - 1, err, sizeof(err)), 0);
	CHECK_EQ(ksim_desc_text_check(ok, sizeof(ok) - 1, NULL, 0), 0);
	/* the parser's own messages: the unknown token's bytes escaped */
	CHECK_EQ(ksim_card_create("xxx s\x1b[2Jx xxx\nmag nul nul\nxxx nul xxx\n",
				  &c, err, sizeof(err)), -EINVAL);
	CHECK_MSG(!strcmp(err, "line 1: unknown token 's\\x1b[2Jx'"), "%s", err);
	CHECK_EQ(ksim_card_create("xxx \xc3\xa9 xxx\nmag nul nul\nxxx nul xxx\n",
				  &c, err, sizeof(err)), -EINVAL);
	CHECK_MSG(!strcmp(err, "line 1: unknown token '\\xc3\\xa9'"), "%s", err);
	/* escaping never runs past a short buffer */
	CHECK_EQ(ksim_card_create("xxx \x01\x02\x03\x04\x05 xxx\nmag\n",
				  &c, err, 20), -EINVAL);
	CHECK_EQ(strlen(err) < 20, 1);
	check_diag("escaped: %s", err);
}

/* ---- KohakuTPU maps load; a unit without a model is refused ---- */

/* a token the unit table knows with no model behind it: refused by name */
static const struct ksim_unit_type no_model = {
	.token = "zzz", .name = "unit without a model", .cu_type = 0x5a5a,
	.n_buffers = 1,
};
static const struct ksim_unit_type *const no_models[] = { &no_model };

static void expect_no_model(const char *desc, const char *msg)
{
	struct ksim_card *c = NULL;
	struct ksim_opts o;
	char err[256];
	int e;

	memset(&o, 0, sizeof(o));
	o.extra_types = no_models;
	o.n_extra = 1;
	err[0] = 0;
	e = ksim_card_create_opts(desc, &o, &c, err, sizeof(err));
	CHECK_MSG(e == -EINVAL, "expected -EINVAL, got %d for:\n%s", e, desc);
	CHECK_MSG(!strcmp(err, msg), "message '%s', expected '%s'", err, msg);
	ksim_card_destroy(c);
}

/* KohakuTPU's own map files load as they are, every token a model */
static void tpu_map(const char *file, unsigned int n_mat, unsigned int n_vec,
		    unsigned int n_cpu, unsigned int n_mag, u64 caps)
{
	const char *text = mm_fixture(file);
	struct ksim_card *c;
	unsigned int x, y, n[3] = { 0, 0, 0 }, mags = 0;

	if (!text)
		return;
	c = mh_card(text);
	REQUIRE(c);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++) {
			struct ksim_unit *u = ksim_unit_at(c, 0, x, y);
			u16 t = u ? ksim_unit_type_of(u)->cu_type : 0;

			n[0] += t == KH_CU_MG;
			n[1] += t == KH_CU_VC;
			n[2] += t == KH_CU_RV;
			mags += x == 0 && ksim_endpoint_link(c, 0, x, y) &&
				!u;
		}
	CHECK_EQ(n[0], n_mat);
	CHECK_EQ(n[1], n_vec);
	CHECK_EQ(n[2], n_cpu);
	CHECK_EQ(mags, n_mag);
	CHECK_EQ(mh_rd(c, KH_ORC_CAPS), caps);
	ksim_card_destroy(c);
}

TEST_F(model, kohakutpu_maps_load)
{
	struct ksim_card *c;
	struct ksim_unit *u;

	tpu_map("mesh_2x2_8+2.txt", 8, 2, 0, 2, KH_CAPS_SHIP);
	tpu_map("mesh_2x2_6+2_pe.txt", 6, 2, 1, 2, KH_CAPS_SHIP);
	tpu_map("mesh_1x1_ctrlpe.txt", 1, 1, 0, 1, 0x0000000101040120ULL);
	tpu_map("mesh_2x2_6+2.txt", 6, 2, 0, 2, KH_CAPS_SHIP);
	/* the shipping mesh's coordinates, kohakutpu.md 9.1 */
	c = mh_card(mm_fixture("mesh_2x2_6+2.txt"));
	REQUIRE(c);
	u = ksim_unit_at(c, 0, 2, 0);
	CHECK(u && ksim_unit_type_of(u)->cu_type == KH_CU_VC);
	u = ksim_unit_at(c, 0, 2, 3);
	CHECK(u && ksim_unit_type_of(u)->cu_type == KH_CU_VC);
	u = ksim_unit_at(c, 0, 1, 3);
	CHECK(u && ksim_unit_type_of(u)->cu_type == KH_CU_MG);
	CHECK(ksim_unit_at(c, 0, 3, 1) == NULL);
	ksim_card_destroy(c);
}

/* a token known but without a model is refused by name, after the rest */
TEST_F(model, a_unit_without_a_model_is_refused_by_name)
{
	expect_no_model("xxx zzz xxx\nmag nul nul\nxxx sax xxx\n",
			"line 1: token 'zzz' (unit without a model) has no model yet");
	expect_no_model("# c\nxxx sax xxx\nmag nul zzz\nxxx sax xxx\n",
			"line 3: token 'zzz' (unit without a model) has no model yet");
	/* refused only after the rest checked out: a later error wins */
	expect_no_model("xxx zzz xxx\nmag nul nul nul\nxxx sax xxx\n",
			"line 2: row has 4 tokens, expected 3");
	expect_no_model("xxx zzz xxx\nmag nul nul\nxxx sax xxx\nparam irq 1\n",
			"line 4: directive 'param' after the map rows");
	/* in a second mesh: the first unmodelled token names its line */
	expect_no_model("mesh 0\nxxx sax xxx\nmag nul nul\nxxx sax xxx\n"
			"mesh 1\nxxx sax xxx\nmag cpu nul\nxxx zzz xxx\n",
			"line 8: token 'zzz' (unit without a model) has no model yet");
}

/* ---- the whole-card grammar: every message, with its line ---- */

#define M3 "xxx sax xxx\nmag nul nul\nxxx sax xxx\n"

TEST_F(model, card_grammar_errors)
{
	char many[4096];
	unsigned int i;
	int n;

	/* profile */
	mm_expect_err("profile\n" M3, "line 1: 'profile' takes one name, got 0");
	mm_expect_err("profile ship rtl\n" M3,
		      "line 1: 'profile' takes one name, got 2");
	mm_expect_err("# x\nprofile tpu\n" M3,
		      "line 2: unknown profile 'tpu' (profiles: ship, rtl)");
	mm_expect_err("param inst_depth 4\nprofile rtl\n" M3,
		      "line 2: 'profile' after 'param' or 'l2' lines in this section; put it first");
	mm_expect_err("l2 all\nprofile rtl\n" M3,
		      "line 2: 'profile' after 'param' or 'l2' lines in this section; put it first");
	mm_expect_err("param inst_depth 4\nmesh 0\nprofile rtl\nparam recv_depth 4\n"
		      M3 "mesh 1\nparam irq 1\nprofile ship\n" M3,
		      "line 10: 'profile' after 'param' or 'l2' lines in this section; put it first");
	mm_expect_err(M3 "profile ship\n",
		      "line 4: directive 'profile' after the map rows");
	/* the new parameters and their ranges */
	mm_expect_err("param tx_depth 0\n" M3,
		      "line 1: parameter 'tx_depth' value '0' is not a number in 1..4096");
	mm_expect_err("param rx_depth 5000\n" M3,
		      "line 1: parameter 'rx_depth' value '5000' is not a number in 1..4096");
	mm_expect_err("param stage_flits 1025\n" M3,
		      "line 1: parameter 'stage_flits' value '1025' is not a number in 1..1024");
	mm_expect_err("param q_depth 1\n" M3,
		      "line 1: parameter 'q_depth' value '1' is not a number in 2..4096");
	mm_expect_err("param irq 2\n" M3,
		      "line 1: parameter 'irq' value '2' is not a number in 0..1");
	mm_expect_err("param mem_ports 5\n" M3,
		      "line 1: parameter 'mem_ports' value '5' is not a number in 1..4");
	mm_expect_err("param l2_bits 41\n" M3,
		      "line 1: parameter 'l2_bits' value '41' is not a number in 5..40");
	mm_expect_err("param l2_depth 0x20000\n" M3,
		      "line 1: parameter 'l2_depth' value '0x20000' is not a number in 1..65536");
	mm_expect_err("param l2_depth 100\n" M3,
		      "line 1: parameter 'l2_depth' value '100' is not a power of two");
	mm_expect_err("param q_margin 64\n" M3,
		      "line 1: q_margin 64 leaves no room in q_depth 64");
	mm_expect_err("param q_margin 8\nmesh 0\nparam q_depth 8\n" M3,
		      "line 3: q_margin 8 leaves no room in q_depth 8");
	mm_expect_err("param mem_ports 2\n" M3,
		      "line 4: map has 1 'mag' port, but 'param mem_ports' (line 1) says 2");
	mm_expect_err("mesh 0\nparam mem_ports 1\n"
		      "xxx sax xxx\nmag nul nul\nmag nul nul\nxxx sax xxx\n",
		      "line 6: map has 2 'mag' ports, but 'param mem_ports' (line 2) says 1");
	/* l2 */
	mm_expect_err("l2\n" M3,
		      "line 1: 'l2' needs 'all', 'none' or X Y, then an optional base");
	mm_expect_err("l2 1\n" M3,
		      "line 1: 'l2' needs 'all', 'none' or X Y, then an optional base");
	mm_expect_err("l2 q 1\n" M3, "line 1: 'l2' x 'q' is not a number in 0..15");
	mm_expect_err("l2 1 16\n" M3, "line 1: 'l2' y '16' is not a number in 0..15");
	mm_expect_err("l2 1 0 0x1000 5\n" M3, "line 1: 'l2' has 5 words, at most 4");
	mm_expect_err("l2 all 0 1\n" M3, "line 1: 'l2' has 4 words, at most 3");
	mm_expect_err("l2 1 0 zz\n" M3, "line 1: 'l2' base 'zz' is not a 40-bit number");
	mm_expect_err("l2 all 0x10000000000\n" M3,
		      "line 1: 'l2' base '0x10000000000' is not a 40-bit number");
	mm_expect_err("\nl2 1 1\n" M3, "line 2: 'l2' at (1,1): no unit there");
	mm_expect_err("l2 9 9\n" M3, "line 1: 'l2' at (9,9): no unit there");
	mm_expect_err("l2 1 0\nmesh 0\n" M3 "mesh 1\nxxx nul xxx\nmag nul nul\nxxx sax xxx\n",
		      "line 1: 'l2' at (1,0): mesh 1 has no unit there");
	mm_expect_err("mesh 0\n" M3 "mesh 1\nl2 none\nl2 2 1\n" M3,
		      "line 7: 'l2' at (2,1): mesh 1 has no unit there");
	mm_expect_err(M3 "l2 all\n", "line 4: directive 'l2' after the map rows");
	n = 0;
	for (i = 0; i <= 64; i++)
		n += snprintf(many + n, sizeof(many) - n, "l2 1 0\n");
	snprintf(many + n, sizeof(many) - n, M3);
	mm_expect_err(many, "line 65: more than 64 'l2' lines in one section");
	/* mesh sections */
	mm_expect_err("mesh\n" M3, "line 1: 'mesh' takes one number, got 0");
	mm_expect_err("mesh 0 1\n" M3, "line 1: 'mesh' takes one number, got 2");
	mm_expect_err("mesh 4\n" M3, "line 1: mesh '4' is not a number in 0..3");
	mm_expect_err("mesh x\n" M3, "line 1: mesh 'x' is not a number in 0..3");
	mm_expect_err("mesh 1\n" M3, "line 1: mesh 1 out of order, expected mesh 0");
	mm_expect_err("mesh 0\n" M3 "mesh 2\n" M3,
		      "line 5: mesh 2 out of order, expected mesh 1");
	mm_expect_err("mesh 0\n" M3 "mesh 0\n" M3,
		      "line 5: mesh 0 out of order, expected mesh 1");
	mm_expect_err(M3 "mesh 0\n" M3,
		      "line 4: 'mesh' section after map rows that belong to no section");
	mm_expect_err("mesh 0\nparam irq 1\nmesh 1\n" M3,
		      "line 3: mesh 0 has no map rows");
	mm_expect_err("mesh 0\n" M3 "mesh 1\n# nothing\n",
		      "line 6: mesh 1 has no map rows");
	mm_expect_err("mesh 0\n" M3 "mesh 1\nxxx sax xxx\nmag nul nul\n",
		      "line 7: map has 2 rows; a map is at least 3 x 3");
	mm_expect_err("mesh 0\n" M3 "mesh 1\nxxx sax xxx\nnul nul nul\nxxx sax xxx\n",
		      "line 8: no 'mag' in the map; a mesh needs at least one memory port");
	mm_expect_err("mesh 0\n" M3 "param irq 1\n",
		      "line 5: directive 'param' after the map rows");
}

TEST_F(model, sections_scopes_and_l2_placement)
{
	static const char desc[] =
		"param inst_depth 100\n"
		"l2 all 0x1000000\n"
		"mesh 0\n"
		"l2 1 2 0x2000000\n"
		"xxx  sax  null xxx\n"
		"mag  sax  null sax\n"
		"mag  null sax  null\n"
		"xxx  null sax  xxx\n"
		"mesh 1\n"
		"profile rtl\n"
		"l2 none\n"
		"l2 1 0\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n"
		"mesh 2\n"
		"param inst_depth 7\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct ksim_card *c = mh_card(desc);

	REQUIRE(c);
	CHECK_EQ(ksim_mesh_count(c), 3);
	/* mesh 0: card-wide inst_depth; l2 on every unit, one other base */
	CHECK_EQ((mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_CAPS) >> 20) & 0xffff, 100);
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_L2_BASE), 0x1000000);
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 2, KH_CTRL_IDX_L2_BASE), 0x2000000);
	CHECK_EQ(mm_ctrl_rd(c, 0, 3, 2, KH_CTRL_IDX_L2_CAPS),
		 KH_L2_CAPS(18, 8192));
	/* mesh 1: a profile drops the card-wide params; l2 none, then one */
	CHECK_EQ((mm_ctrl_rd(c, 1, 1, 0, KH_CTRL_IDX_CAPS) >> 20) & 0xffff, 32);
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 0, KH_CTRL_IDX_L2_CAPS),
		 KH_L2_CAPS(18, 8192));
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 0, KH_CTRL_IDX_L2_BASE), 0);
	CHECK_EQ(mm_ctrl_rd(c, 1, 1, 2, KH_CTRL_IDX_L2_CAPS), 0);
	/* mesh 2: its own param on top of the card-wide ones, card l2 */
	CHECK_EQ((mm_ctrl_rd(c, 2, 1, 2, KH_CTRL_IDX_CAPS) >> 20) & 0xffff, 7);
	CHECK_EQ(mm_ctrl_rd(c, 2, 1, 2, KH_CTRL_IDX_L2_BASE), 0x1000000);
	CHECK(ksim_l2_link(c, 2, 1, 2, true) != NULL);
	CHECK(ksim_l2_link(c, 1, 1, 2, true) == NULL);
	ksim_card_destroy(c);
}

/*
 * The lexer descriptions share with the commands (lib/lex.c): blanks,
 * CRLF, numbers in both bases at the edges of their ranges, how much of
 * a word a message quotes.  model_inject's lexer_commands is the other
 * half.
 */
TEST_F(model, lexer_descriptions)
{
	char text[256];
	struct ksim_card *c;

	c = mh_card("param cu_version 0XfF\r\n"
		    "param dram_mib\v0x1000\f\r\n"
		    "l2 all 0xFFFFFFFFFF # 40 bits\r\n"
		    "xxx sax xxx\r\nmag nul nul\r\nxxx sax xxx\r\n");
	REQUIRE(c);
	CHECK_EQ((mm_ctrl_rd(c, 0, 1, 0, KH_CTRL_IDX_CAPS) >> 40) & 0xff, 255);
	CHECK_EQ(ksim_mesh_dram_size(c, 0), 4096ULL << 20);
	CHECK_EQ(mm_ctrl_rd(c, 0, 1, 2, KH_CTRL_IDX_L2_BASE), 0xffffffffffULL);
	ksim_card_destroy(c);
	mm_expect_err("param inst_depth 0x\n" M3,
		      "line 1: parameter 'inst_depth' value '0x' is not a number in 1..65535");
	mm_expect_err("param inst_depth +4\n" M3,
		      "line 1: parameter 'inst_depth' value '+4' is not a number in 1..65535");
	mm_expect_err("param inst_depth 0x1g\n" M3,
		      "line 1: parameter 'inst_depth' value '0x1g' is not a number in 1..65535");
	mm_expect_err("param mag_l2_kib 4294967296\n" M3,
		      "line 1: parameter 'mag_l2_kib' value '4294967296' is not a number in 0..1048576");
	mm_expect_err("param mag_l2_kib 18446744073709551617\n" M3,
		      "line 1: parameter 'mag_l2_kib' value '18446744073709551617' is not a number in 0..1048576");
	mm_expect_err("l2 all 0x10000000000\n" M3,
		      "line 1: 'l2' base '0x10000000000' is not a 40-bit number");
	mm_expect_err("l2 16 1\n" M3,
		      "line 1: 'l2' x '16' is not a number in 0..15");
	mm_expect_err("mesh 0x4\n" M3,
		      "line 1: mesh '0x4' is not a number in 0..3");
	/* a comment ends a word; messages quote 32 characters of one */
	mm_expect_err("param inst_depth#4\n" M3,
		      "line 1: 'param' needs a name and a value");
	snprintf(text, sizeof(text), "param %s 1\n" M3,
		 "p123456789012345678901234567890123456789");
	mm_expect_err(text,
		      "line 1: unknown parameter 'p1234567890123456789012345678901'");
}

CHECK_TEST_MAIN
