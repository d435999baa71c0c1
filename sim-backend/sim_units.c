// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The unit table: every map token that names a compute unit.  Adding a
 * unit model is one file defining its kh_unit_type plus one line here.
 * Tokens listed without a tick() are known KohakuTPU units whose models
 * have not landed; the parser refuses them by name.
 */
#include "sim_desc.h"
#include "sim_units.h"
#include "sim_util.h"
#include <kohaku/kh_units.h>

static const struct kh_unit_type kh_unit_mat = {
	.token = "mat", .name = "matmul cluster", .cu_type = KH_CU_MG,
};
static const struct kh_unit_type kh_unit_vec = {
	.token = "vec", .name = "vector core", .cu_type = KH_CU_VC,
};
static const struct kh_unit_type kh_unit_cpu = {
	.token = "cpu", .name = "control processor", .cu_type = KH_CU_RV,
};

static const struct kh_unit_type *const kh_unit_table[] = {
	&kh_unit_sx,
	&kh_unit_null,
	&kh_unit_null_rtl,
	&kh_unit_mat,
	&kh_unit_vec,
	&kh_unit_cpu,
};

static bool kh_tok_eq(const char *tok, size_t len, const char *s)
{
	return strlen(s) == len && !memcmp(tok, s, len);
}

const struct kh_unit_type *kh_unit_lookup(const struct kh_unit_types *types,
					  const char *tok, size_t len)
{
	unsigned int i;

	if (types)
		for (i = 0; i < types->n_extra; i++)
			if (kh_tok_eq(tok, len, types->extra[i]->token))
				return types->extra[i];
	for (i = 0; i < KH_ARRAY_SIZE(kh_unit_table); i++)
		if (kh_tok_eq(tok, len, kh_unit_table[i]->token))
			return kh_unit_table[i];
	return NULL;
}
