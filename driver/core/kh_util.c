// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Small helpers of the ioctl validation path. */
#include <linux/uaccess.h>

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

/* 0 when the n user bytes at src are all zero, -E2BIG when not, -EFAULT. */
int kh_user_zero(const u8 __user *src, size_t n)
{
	u8 buf[64];
	size_t k;
	int ret;

	while (n) {
		k = min_t(size_t, n, sizeof(buf));
		ret = copy_from_user(buf, src, k) ? -EFAULT : 0;
		if (ret)
			return ret;
		if (!kh_all_zero(buf, k))
			return -E2BIG;
		src += k;
		n -= k;
	}
	return 0;
}

/*
 * The ABI's size rule for one struct of the caller's usize bytes into dst
 * of this driver's size: a shorter one is zero-extended, a longer one is
 * taken when its tail is zero (-E2BIG otherwise).
 */
int kh_copy_elem_in(void *dst, size_t size, const void __user *src,
		    size_t usize)
{
	int ret;

	if (usize < size) {
		memset((u8 *)dst + usize, 0, size - usize);
		return copy_from_user(dst, src, usize) ? -EFAULT : 0;
	}
	ret = copy_from_user(dst, src, size) ? -EFAULT : 0;
	if (!ret && usize > size)
		ret = kh_user_zero((const u8 __user *)src + size, usize - size);
	return ret;
}
