/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/crc32.h> for userspace builds of driver/core: crc32_le(), the
 * kernel's (no inversion at either end: zlib's crc32(c) is
 * ~crc32_le(~c)), on zlib's (libruntime/inproc/kh_os_user.c).
 */
#ifndef KH_OS_LINUX_CRC32_H
#define KH_OS_LINUX_CRC32_H

#include <linux/types.h>

u32 kh_os_crc32_le(u32 crc, const void *p, size_t len);

static inline u32 crc32_le(u32 crc, const void *p, size_t len)
{
	return kh_os_crc32_le(crc, p, len);
}

#endif /* KH_OS_LINUX_CRC32_H */
