// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The two C library functions a freestanding build still needs: GCC may
 * emit calls to them for structure copies and clears.
 */
#include "fw.h"

void *memset(void *s, int c, __SIZE_TYPE__ n)
{
	u8 *p = s;

	if (!((u32)p & 3) && !(n & 3)) {
		u32 v = (u8)c * 0x01010101u, *w = s;

		for (; n; n -= 4)
			*w++ = v;
		return s;
	}
	while (n--)
		*p++ = (u8)c;
	return s;
}

void *memcpy(void *d, const void *s, __SIZE_TYPE__ n)
{
	const u8 *q = s;
	u8 *p = d;

	if (!(((u32)p | (u32)q | n) & 3)) {
		const u32 *qs = s;
		u32 *ps = d;

		for (; n; n -= 4)
			*ps++ = *qs++;
		return d;
	}
	while (n--)
		*p++ = *q++;
	return d;
}
