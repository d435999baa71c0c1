/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Card descriptions (docs/spec/card-description.md): mesh maps in the
 * KohakuTPU map format, one per `mesh` section, with `profile`, `param`
 * and `l2` directives card-wide or per mesh.  The parser checks
 * everything the mesh builder relies on, and names the line and the
 * problem in its error message.
 */
#ifndef KSIM_DESC_H
#define KSIM_DESC_H

#include "ksim_plat.h"
#include "ksim_unit.h"
#include "lex.h"
#include "mesh.h"
#include "params.h"
#include <kohaku/kh_regs.h>

enum ksim_cell_kind {
	KSIM_CELL_EMPTY,		/* xxx */
	KSIM_CELL_TIEOFF,		/* nul */
	KSIM_CELL_MAG,		/* mag */
	KSIM_CELL_UNIT,		/* a unit type's token */
};

struct ksim_desc_mesh {
	unsigned int w, h;
	u8 kind[KSIM_MAP_MAX][KSIM_MAP_MAX];			/* [y][x] */
	const struct ksim_unit_type *type[KSIM_MAP_MAX][KSIM_MAP_MAX];
	unsigned int n_mag;
	struct ksim_params p;		/* this mesh's parameters */
	/* an endpoint L2 staging adapter on the unit's link, and its base */
	u8 l2[KSIM_MAP_MAX][KSIM_MAP_MAX];
	u64 l2_base[KSIM_MAP_MAX][KSIM_MAP_MAX];
};

#define KSIM_DESC_OBS_MAX	64

struct ksim_desc {
	struct ksim_params p;		/* the card-wide parameters */
	unsigned int n_mesh;
	struct ksim_desc_mesh mesh[KH_MAX_MESHES];
	/* inject/check/trace lines (in the text), applied once built */
	unsigned int n_obs;
	struct ksim_desc_obs {
		const char *s;
		u32 n, line;
	} obs[KSIM_DESC_OBS_MAX];
};

/* Extra unit types (tests) are looked up before the built-in table. */
struct ksim_unit_types {
	const struct ksim_unit_type *const *extra;
	unsigned int n_extra;
};

int ksim_desc_parse(const char *text, const struct ksim_unit_types *types,
		  struct ksim_desc *d, char *err, size_t errlen);

/* The unit table (units/table.c). */
const struct ksim_unit_type *ksim_unit_lookup(const struct ksim_unit_types *types,
					      const struct ksim_word *tok);

#endif /* KSIM_DESC_H */
