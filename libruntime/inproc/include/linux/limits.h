/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* <linux/limits.h> for userspace builds of driver/core: the system's, and U8_MAX ... S64_MIN. */
#ifndef KH_OS_LINUX_LIMITS_H
#define KH_OS_LINUX_LIMITS_H

#include_next <linux/limits.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))

#endif /* KH_OS_LINUX_LIMITS_H */
