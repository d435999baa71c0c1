// SPDX-License-Identifier: GPL-2.0 OR MIT
/* placeholder: being written (issue 21, second slice) */
#include "pool.h"

void ksim_pool_vec_tab(struct ksim_pool_vec *v, const struct ksim_pool_op *o)
{
	(void)v;
	(void)o;
}
