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
#include "mesh.h"
#include "params.h"
#include "table.h"
#include <kohaku/kh_regs.h>

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

int ksim_desc_parse(const char *text, const struct ksim_unit_types *types,
		  struct ksim_desc *d, char *err, size_t errlen);

#endif /* KSIM_DESC_H */
