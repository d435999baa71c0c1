// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Built-in card descriptions (docs/spec/card-description.md). */
#include "kh_sim.h"
#include "sim_util.h"

struct kh_builtin {
	const char *name;
	const char *text;
};

static const struct kh_builtin kh_builtins[] = {
	{ "saxpy",
	  "# the reference saxpy map (src/examples/saxpy/saxpy_map.txt):\n"
	  "# one router, one MAG port, two SX units\n"
	  "xxx sax xxx\n"
	  "mag nul nul\n"
	  "xxx sax xxx\n" },
	{ "sx_null_2x2",
	  "# 2 x 2 routers, SX and null units on every port, two MAG ports\n"
	  "xxx  sax  null xxx\n"
	  "mag  sax  null sax\n"
	  "mag  null sax  null\n"
	  "xxx  null sax  xxx\n" },
};

static const char *const kh_builtin_names[] = {
	"saxpy",
	"sx_null_2x2",
	NULL,
};

const char *kh_sim_builtin_desc(const char *name)
{
	unsigned int i;

	if (!name)
		return NULL;
	for (i = 0; i < KH_ARRAY_SIZE(kh_builtins); i++)
		if (!strcmp(name, kh_builtins[i].name))
			return kh_builtins[i].text;
	return NULL;
}

const char *const *kh_sim_builtin_names(void)
{
	return kh_builtin_names;
}
