/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/sort.h> for userspace builds of driver/core: sort() on libc's
 * qsort(); like the kernel's, not stable, and a NULL swap only.  Like the
 * kernel's, it takes no array at all for fewer than two elements (SUBMIT
 * sorts an empty table, NULL, for a job that names no buffer), which
 * qsort() may not be given (its base is declared nonnull).
 */
#ifndef KH_OS_LINUX_SORT_H
#define KH_OS_LINUX_SORT_H

#include <stdlib.h>
#include <linux/types.h>

typedef int (*cmp_func_t)(const void *a, const void *b);

static inline void sort(void *base, size_t num, size_t size, cmp_func_t cmp,
			void (*swap)(void *a, void *b, int size))
{
	(void)swap;
	if (num > 1)
		qsort(base, num, size, cmp);
}

#endif /* KH_OS_LINUX_SORT_H */
