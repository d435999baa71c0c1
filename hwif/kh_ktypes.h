/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel's fixed-width type names, for the userspace builds of the
 * driver core and of the model: both are written once for both hosts, in
 * the kernel's types and printk formats.  In the kernel <linux/types.h> has
 * them and this header adds nothing.  One definition for both sides, next
 * to the seam they share.
 */
#ifndef KH_KTYPES_H
#define KH_KTYPES_H

#ifndef __KERNEL__
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
#endif

#endif /* KH_KTYPES_H */
