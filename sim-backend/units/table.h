/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The unit types built into the model, and the lookup of a map token in
 * them (the table is in units/table.c); the description parser
 * (card/desc.c) uses it.
 */
#ifndef KSIM_UNITS_H
#define KSIM_UNITS_H

#include "ksim_unit.h"
#include "lex.h"

extern const struct ksim_unit_type ksim_unit_sx;
extern const struct ksim_unit_type ksim_unit_null;
extern const struct ksim_unit_type ksim_unit_null_rtl;
extern const struct ksim_unit_type ksim_unit_pool;
extern const struct ksim_unit_type ksim_unit_cpu;
extern const struct ksim_unit_type ksim_unit_mat;
extern const struct ksim_unit_type ksim_unit_vec;
extern const struct ksim_unit_type ksim_unit_dxa;
extern const struct ksim_unit_type ksim_unit_scr;

/* Extra unit types (tests) are looked up before the built-in table. */
struct ksim_unit_types {
	const struct ksim_unit_type *const *extra;
	unsigned int n_extra;
};

/* The unit type a map token names, or NULL (units/table.c). */
const struct ksim_unit_type *ksim_unit_lookup(const struct ksim_unit_types *types,
					      const struct ksim_word *tok);

#endif /* KSIM_UNITS_H */
