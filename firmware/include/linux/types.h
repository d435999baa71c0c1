/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The firmware's <linux/types.h>: the uapi headers (kh_pool.h, kh_fw.h,
 * kh_flit.h) need __u8..__u64, and the freestanding riscv64-unknown-elf
 * toolchain has no Linux headers.  RV32 ILP32: int and long are 32 bits.
 */
#ifndef _FW_LINUX_TYPES_H
#define _FW_LINUX_TYPES_H

typedef signed char __s8;
typedef unsigned char __u8;
typedef signed short __s16;
typedef unsigned short __u16;
typedef signed int __s32;
typedef unsigned int __u32;
typedef signed long long __s64;
typedef unsigned long long __u64;

#endif /* _FW_LINUX_TYPES_H */
