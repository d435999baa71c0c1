// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The cold half of the register tables (regs.h, which has the access path
 * itself, inline): reset, and the names traces print.
 */
#include "regs.h"

void ksim_regs_reset(const struct ksim_regs *t, void *dev)
{
	const struct ksim_reg *r;
	unsigned int i;

	for (r = t->reg; r < t->reg + t->n; r++)
		if (r->size && !r->keep)
			for (i = 0; i < r->n; i++)
				ksim_reg_store(t, r, dev, i, r->reset);
}

int ksim_reg_name(const struct ksim_regs *t, u32 off, char *buf, size_t len)
{
	const struct ksim_reg *r;
	unsigned int i;

	r = ksim_reg_at(t, off, &i);
	if (!r)
		return -ENOENT;
	if (r->n > 1)
		return snprintf(buf, len, "%s[%u]", r->name, i);
	return snprintf(buf, len, "%s", r->name);
}
