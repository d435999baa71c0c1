// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Small helpers of the ioctl validation path. */
#include "kh_priv.h"

/* "reserved and pad fields must be zero": true when n bytes at p are all 0. */
bool kh_all_zero(const void *p, size_t n)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

u64 kh_ms_to_ns(u32 ms)
{
	return (u64)ms * 1000000ULL;
}
