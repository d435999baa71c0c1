/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The unit types built into the model (the table is in units/table.c). */
#ifndef KSIM_UNITS_H
#define KSIM_UNITS_H

#include "ksim_unit.h"

extern const struct ksim_unit_type ksim_unit_sx;
extern const struct ksim_unit_type ksim_unit_null;
extern const struct ksim_unit_type ksim_unit_null_rtl;
extern const struct ksim_unit_type ksim_unit_pool;
extern const struct ksim_unit_type ksim_unit_cpu;
extern const struct ksim_unit_type ksim_unit_mat;
extern const struct ksim_unit_type ksim_unit_vec;
extern const struct ksim_unit_type ksim_unit_dxa;
extern const struct ksim_unit_type ksim_unit_scr;

#endif /* KSIM_UNITS_H */
