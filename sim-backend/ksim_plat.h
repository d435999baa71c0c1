/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The device model's platform shim: the only place the model touches its
 * host.  The model is built into libkohaku (userspace) and into
 * kohaku_sim.ko (kernel), so it uses integer types, memory allocation,
 * string/memory helpers and logging from here and nothing else.
 */
#ifndef KSIM_PLAT_H
#define KSIM_PLAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

static inline void *ksim_plat_zalloc(size_t n)
{
	return kvzalloc(n, GFP_KERNEL);
}

static inline void ksim_plat_free(void *p)
{
	kvfree(p);
}

#define ksim_plat_log(fmt, ...)	pr_info("kohaku_sim: " fmt, ##__VA_ARGS__)

#else /* userspace */
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>

/* the kernel's own definitions, so that printk formats are the same */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

static inline void *ksim_plat_zalloc(size_t n)
{
	return calloc(1, n ? n : 1);
}

static inline void ksim_plat_free(void *p)
{
	free(p);
}

/* Model diagnostics go to stderr when KOHAKU_SIM_LOG is set. */
void ksim_plat_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* __KERNEL__ */

#endif /* KSIM_PLAT_H */
