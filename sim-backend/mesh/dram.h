/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Sparse mesh DRAM: a two-level table of 4 KiB pages, each allocated on its
 * first write; memory never written reads as zero.
 */
#ifndef KSIM_DRAM_H
#define KSIM_DRAM_H

#include "ksim_plat.h"

#define KSIM_DRAM_PAGE_SHIFT	12
#define KSIM_DRAM_PAGE		(1u << KSIM_DRAM_PAGE_SHIFT)
#define KSIM_DRAM_L2_SHIFT	10	/* pages per second-level table */

struct ksim_dram {
	u64 size;
	u32 n_l1;
	u8 ***l1;		/* [l1][l2] -> page */
	u64 pages;		/* allocated pages */
	u64 oom_drops;		/* writes lost to a failed page allocation */
};

int ksim_dram_init(struct ksim_dram *d, u64 size);
void ksim_dram_fini(struct ksim_dram *d);
/* Byte ranges within [0, size); the caller range-checks. */
void ksim_dram_read(const struct ksim_dram *d, u64 addr, void *buf, size_t len);
int ksim_dram_write(struct ksim_dram *d, u64 addr, const void *buf, size_t len);

static inline bool ksim_dram_in_range(const struct ksim_dram *d, u64 addr,
				    u64 len)
{
	return addr <= d->size && len <= d->size - addr;
}

#endif /* KSIM_DRAM_H */
