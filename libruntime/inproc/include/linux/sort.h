/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/sort.h> for userspace builds of driver/core: sort() on libc's
 * qsort(); like the kernel's, not stable, and a NULL swap only.
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
	qsort(base, num, size, cmp);
}

#endif /* KH_OS_LINUX_SORT_H */
