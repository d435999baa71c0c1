/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Sparse mesh DRAM: a two-level table of 4 KiB pages, each allocated on its
 * first write; memory never written reads as zero.
 */
#ifndef KH_SIM_DRAM_H
#define KH_SIM_DRAM_H

#include "kh_plat.h"

#define KH_DRAM_PAGE_SHIFT	12
#define KH_DRAM_PAGE		(1u << KH_DRAM_PAGE_SHIFT)
#define KH_DRAM_L2_SHIFT	10	/* pages per second-level table */

struct kh_dram {
	u64 size;
	u32 n_l1;
	u8 ***l1;		/* [l1][l2] -> page */
	u64 pages;		/* allocated pages */
	u64 oom_drops;		/* writes lost to a failed page allocation */
};

int kh_dram_init(struct kh_dram *d, u64 size);
void kh_dram_fini(struct kh_dram *d);
/* Byte ranges within [0, size); the caller range-checks. */
void kh_dram_read(const struct kh_dram *d, u64 addr, void *buf, size_t len);
int kh_dram_write(struct kh_dram *d, u64 addr, const void *buf, size_t len);

static inline bool kh_dram_in_range(const struct kh_dram *d, u64 addr,
				    u64 len)
{
	return addr <= d->size && len <= d->size - addr;
}

#endif /* KH_SIM_DRAM_H */
