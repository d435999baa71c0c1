/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The unit types built into the model (the table is in sim_units.c). */
#ifndef KH_SIM_UNITS_H
#define KH_SIM_UNITS_H

#include "kh_unit.h"

extern const struct kh_unit_type kh_unit_sx;
extern const struct kh_unit_type kh_unit_null;
extern const struct kh_unit_type kh_unit_null_rtl;

#endif /* KH_SIM_UNITS_H */
