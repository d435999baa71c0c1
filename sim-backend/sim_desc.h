/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Card descriptions (docs/spec/card-description.md): mesh maps in the
 * KohakuTPU map format, one per `mesh` section, with `profile`, `param`
 * and `l2` directives card-wide or per mesh.  The parser checks
 * everything the mesh builder relies on, and names the line and the
 * problem in its error message.
 */
#ifndef KH_SIM_DESC_H
#define KH_SIM_DESC_H

#include "kh_plat.h"
#include "kh_unit.h"
#include "sim_mesh.h"
#include "sim_params.h"
#include <kohaku/kh_regs.h>

enum kh_cell_kind {
	KH_CELL_EMPTY,		/* xxx */
	KH_CELL_TIEOFF,		/* nul */
	KH_CELL_MAG,		/* mag */
	KH_CELL_UNIT,		/* a unit type's token */
};

struct kh_desc_mesh {
	unsigned int w, h;
	u8 kind[KH_MAP_MAX][KH_MAP_MAX];			/* [y][x] */
	const struct kh_unit_type *type[KH_MAP_MAX][KH_MAP_MAX];
	unsigned int n_mag;
	struct kh_sim_params p;		/* this mesh's parameters */
	/* an endpoint L2 staging adapter on the unit's link, and its base */
	u8 l2[KH_MAP_MAX][KH_MAP_MAX];
	u64 l2_base[KH_MAP_MAX][KH_MAP_MAX];
};

#define KH_DESC_OBS_MAX	64

struct kh_desc {
	struct kh_sim_params p;		/* the card-wide parameters */
	unsigned int n_mesh;
	struct kh_desc_mesh mesh[KH_MAX_MESHES];
	/* inject/check/trace lines (in the text), applied once built */
	unsigned int n_obs;
	struct kh_desc_obs {
		const char *s;
		u32 n, line;
	} obs[KH_DESC_OBS_MAX];
};

/* Extra unit types (tests) are looked up before the built-in table. */
struct kh_unit_types {
	const struct kh_unit_type *const *extra;
	unsigned int n_extra;
};

int kh_desc_parse(const char *text, const struct kh_unit_types *types,
		  struct kh_desc *d, char *err, size_t errlen);

/* The unit table (sim_units.c). */
const struct kh_unit_type *kh_unit_lookup(const struct kh_unit_types *types,
					  const char *tok, size_t len);

#endif /* KH_SIM_DESC_H */
