/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/types.h> for userspace builds of driver/core: the system's uapi
 * header (__u32, __le64, ...; glibc and libdrm include it too), the
 * kernel's u8 ... s64 (hwif/kh_ktypes.h, their one userspace definition,
 * shared with the model) and gfp_t, and the annotations the kernel puts in
 * every file.
 */
#ifndef KH_OS_LINUX_TYPES_H
#define KH_OS_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/compiler_types.h>
#include "kh_ktypes.h"

/* allocation flags mean nothing to malloc() */
typedef unsigned int gfp_t;

#endif /* KH_OS_LINUX_TYPES_H */
