// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The unit table: every map token that names a compute unit.  Adding a
 * unit model is one file under units/ (or a directory, as units/pool/)
 * defining its ksim_unit_type plus one line here.
 * A token listed without a tick() would be a known unit whose model has
 * not landed, which the parser refuses by name (none at present: every
 * KohakuTPU token has its model).
 */
#include "table.h"
#include "util.h"
#include <kohaku/kh_units.h>


static const struct ksim_unit_type *const ksim_unit_table[] = {
	&ksim_unit_sx,
	&ksim_unit_null,
	&ksim_unit_null_rtl,
	&ksim_unit_pool,
	&ksim_unit_mat,
	&ksim_unit_vec,
	&ksim_unit_cpu,
	&ksim_unit_dxa,
	&ksim_unit_scr,
};

const struct ksim_unit_type *ksim_unit_lookup(const struct ksim_unit_types *types,
					      const struct ksim_word *tok)
{
	unsigned int i;

	if (types)
		for (i = 0; i < types->n_extra; i++)
			if (ksim_word_is(tok, types->extra[i]->token))
				return types->extra[i];
	for (i = 0; i < KSIM_ARRAY_SIZE(ksim_unit_table); i++)
		if (ksim_word_is(tok, ksim_unit_table[i]->token))
			return ksim_unit_table[i];
	return NULL;
}
