// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Built-in card descriptions (docs/spec/card-description.md).  `saxpy`
 * and `sx_null_2x2` say `profile rtl`: they are the v0 cards the existing
 * tests were written against (32-deep instruction FIFOs and so on), and
 * the saxpy example is not a shipped top.  `ship_2x2` is a shipped
 * KohakuTPU mesh (the mesh_2x2_8+2 shape, ship parameters, an L2 adapter
 * on every unit link) with SX units where the clusters sit and null units
 * where the vector cores sit; `quad` is a 4-mesh card mixing maps.
 * `pool` and `pool_2x2` carry POOL firmware clusters (`gp`) among SX and
 * null units.  `mesh_2x2_8+2`, `mesh_2x2_6+2_pe` and `mesh_1x1_ctrlpe` are
 * KohakuTPU's own map files for the card that ships (ship parameters, the
 * map rows as the files have them), with the mat, vec and cpu units;
 * `cpu_2x1` carries cpu units on a mesh the driver accepts; `dxa_2x1` the
 * DXA addon (docs/spec/dxa.md) with its scratch receivers.
 */
#include "ksim.h"
#include "util.h"

struct ksim_builtin {
	const char *name;
	const char *text;
};

#define KSIM_SHIP_2X2_MAP			\
	"xxx  sax  sax  xxx\n"		\
	"mag  sax  sax  null\n"		\
	"mag  sax  sax  null\n"		\
	"xxx  sax  sax  xxx\n"

static const struct ksim_builtin ksim_builtins[] = {
	{ "mesh_2x2_8+2",
	  "# KohakuTPU src/kohakutpu/top/maps/mesh_2x2_8+2.txt: 2 x 2 routers,\n"
	  "# eight matmul clusters, two vector cores, two MAG ports; ship\n"
	  "# parameters (the default profile)\n"
	  "xxx mat mat xxx\n"
	  "mag mat mat vec\n"
	  "mag mat mat vec\n"
	  "xxx mat mat xxx\n" },
	{ "mesh_2x2_6+2_pe",
	  "# KohakuTPU src/kohakutpu/top/maps/mesh_2x2_6+2_pe.txt (kohakutpu.md\n"
	  "# 15): six clusters, two vector cores, an rv_pe controller; its\n"
	  "# CU_VERSION is 0x01 against the others' 0x04, so the driver refuses\n"
	  "# the mesh as mixed, as it would the card's\n"
	  "xxx mat vec xxx\n"
	  "mag mat mat cpu\n"
	  "mag mat mat xxx\n"
	  "xxx mat vec xxx\n" },
	{ "mesh_1x1_ctrlpe",
	  "# KohakuTPU src/kohakutpu/top/maps/mesh_1x1_ctrlpe.txt (kohakutpu.md\n"
	  "# 15): one router, a cluster and a vector core\n"
	  "xxx nul xxx\n"
	  "mag mat vec\n"
	  "xxx nul xxx\n" },
	{ "cpu_2x1",
	  "# the project's card for control-processor software: rv_pe units\n"
	  "# (cpu, whose cu_version is 0x01 whatever the build) beside SX and\n"
	  "# null units built with the same number, so the driver takes the\n"
	  "# mesh (the shipped mesh_2x2_6+2_pe mixes 0x01 and 0x04 and is\n"
	  "# refused); 2 x 1 routers, ship parameters\n"
	  "profile ship\n"
	  "param cu_version 1\n"
	  "xxx  cpu  cpu  xxx\n"
	  "mag  sax  null cpu\n"
	  "xxx  cpu  sax  xxx\n" },
	{ "dxa_2x1",
	  "# the project's DXA addon (docs/spec/dxa.md): a dxa bulk-copy unit\n"
	  "# and four scratch receivers (scr) beside an SX and a null unit,\n"
	  "# one build number for every unit; 2 x 1 routers, ship parameters\n"
	  "profile ship\n"
	  "param cu_version 1\n"
	  "xxx  dxa  scr  xxx\n"
	  "mag  scr  sax  scr\n"
	  "xxx  scr  null xxx\n" },
	{ "pool_dxa",
	  "# the DXA addon next to a POOL firmware cluster: a dxa unit, a gp\n"
	  "# unit, two scratch receivers, SX and null units; 2 x 1 routers,\n"
	  "# ship parameters\n"
	  "profile ship\n"
	  "xxx  dxa  gp   xxx\n"
	  "mag  scr  scr  null\n"
	  "xxx  sax  null xxx\n" },
	{ "saxpy",
	  "# the reference saxpy map (src/examples/saxpy/saxpy_map.txt):\n"
	  "# one router, one MAG port, two SX units; the parameters of the\n"
	  "# generated top saxpy_mesh: RTL defaults, 512-deep instruction\n"
	  "# and router FIFOs; cu_version saxpy_cu's own (1).  The top\n"
	  "# declares RECV_DEPTH = 512 but never passes it: saxpy_cu builds\n"
	  "# its base without it, so the receive FIFO is noc_cu_base's 16\n"
	  "profile rtl\n"
	  "param inst_depth 512\n"
	  "param recv_depth 16\n"
	  "param router_fifo 512\n"
	  "xxx sax xxx\n"
	  "mag nul nul\n"
	  "xxx sax xxx\n" },
	{ "sx_null_2x2",
	  "# 2 x 2 routers, SX and null units on every port, two MAG ports;\n"
	  "# RTL parameters, and the interrupt addon (docs/spec/irq-addon.md);\n"
	  "# one build number for every unit, as a generated top passes it\n"
	  "profile rtl\n"
	  "param irq 1\n"
	  "param cu_version 1\n"
	  "xxx  sax  null xxx\n"
	  "mag  sax  null sax\n"
	  "mag  null sax  null\n"
	  "xxx  null sax  xxx\n" },
	{ "ship_2x2",
	  "# a shipped KohakuTPU mesh (mesh_2x2_8+2, ship parameters): SX\n"
	  "# units at the matmul clusters, null units at the vector cores,\n"
	  "# an L2 staging adapter on every unit link (kohakutpu.md 3.3)\n"
	  "profile ship\n"
	  "l2 all 0xf0000000\n"
	  "l2 3 1 0xf1000000\n"
	  "l2 3 2 0xf1000000\n"
	  KSIM_SHIP_2X2_MAP },
	{ "quad",
	  "# four meshes, one per SLR, mixing maps; ship parameters\n"
	  "profile ship\n"
	  "mesh 0\n"
	  "l2 all 0xf0000000\n"
	  KSIM_SHIP_2X2_MAP
	  "mesh 1\n"
	  "xxx  sax  null xxx\n"
	  "mag  sax  null sax\n"
	  "mag  null sax  null\n"
	  "xxx  null sax  xxx\n"
	  "mesh 2\n"
	  "xxx sax xxx\n"
	  "mag nul nul\n"
	  "xxx sax xxx\n"
	  "mesh 3\n"
	  "xxx  sax  null xxx\n"
	  "mag  null sax  xxx\n"
	  "xxx  sax  null xxx\n" },
	{ "pool",
	  "# POOL firmware clusters (docs/spec/pool.md) next to SX and null\n"
	  "# units: 2 x 1 routers, three gp units; ship parameters\n"
	  "profile ship\n"
	  "xxx  gp   sax  xxx\n"
	  "mag  null gp   nul\n"
	  "xxx  gp   sax  xxx\n" },
	{ "pool_2x2",
	  "# 2 x 2 routers, two MAG ports, six gp units, two SX and two\n"
	  "# null units; ship parameters and the interrupt addon\n"
	  "profile ship\n"
	  "param irq 1\n"
	  "xxx  gp   gp   xxx\n"
	  "mag  gp   sax  gp\n"
	  "mag  null gp   null\n"
	  "xxx  gp   sax  xxx\n" },
};

static const char *const ksim_builtin_list[] = {
	"mesh_2x2_8+2",
	"mesh_2x2_6+2_pe",
	"mesh_1x1_ctrlpe",
	"cpu_2x1",
	"dxa_2x1",
	"pool_dxa",
	"saxpy",
	"sx_null_2x2",
	"ship_2x2",
	"quad",
	"pool",
	"pool_2x2",
	NULL,
};

const char *ksim_builtin_desc(const char *name)
{
	unsigned int i;

	if (!name)
		return NULL;
	for (i = 0; i < KSIM_ARRAY_SIZE(ksim_builtins); i++)
		if (!strcmp(name, ksim_builtins[i].name))
			return ksim_builtins[i].text;
	return NULL;
}

const char *const *ksim_builtin_names(void)
{
	return ksim_builtin_list;
}
