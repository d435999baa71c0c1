// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Sparse DRAM: pages allocated on first write, unwritten memory reads 0. */
#include "dram.h"

int ksim_dram_init(struct ksim_dram *d, u64 size)
{
	u64 pages = (size + KSIM_DRAM_PAGE - 1) >> KSIM_DRAM_PAGE_SHIFT;

	memset(d, 0, sizeof(*d));
	d->size = size;
	d->n_l1 = (u32)((pages + (1u << KSIM_DRAM_L2_SHIFT) - 1) >>
			KSIM_DRAM_L2_SHIFT);
	if (!d->n_l1)
		d->n_l1 = 1;
	d->l1 = ksim_plat_zalloc(sizeof(*d->l1) * d->n_l1);
	return d->l1 ? 0 : -ENOMEM;
}

void ksim_dram_fini(struct ksim_dram *d)
{
	u32 i, j;

	if (!d->l1)
		return;
	for (i = 0; i < d->n_l1; i++) {
		if (!d->l1[i])
			continue;
		for (j = 0; j < (1u << KSIM_DRAM_L2_SHIFT); j++)
			ksim_plat_free(d->l1[i][j]);
		ksim_plat_free(d->l1[i]);
	}
	ksim_plat_free(d->l1);
	d->l1 = NULL;
}

static u8 *ksim_dram_page(const struct ksim_dram *d, u64 pn)
{
	u64 i = pn >> KSIM_DRAM_L2_SHIFT;

	if (i >= d->n_l1 || !d->l1[i])
		return NULL;
	return d->l1[i][pn & ((1u << KSIM_DRAM_L2_SHIFT) - 1)];
}

static u8 *ksim_dram_page_alloc(struct ksim_dram *d, u64 pn)
{
	u64 i = pn >> KSIM_DRAM_L2_SHIFT;
	u8 **l2;
	u8 **pp;

	if (i >= d->n_l1)
		return NULL;
	l2 = d->l1[i];
	if (!l2) {
		l2 = ksim_plat_zalloc(sizeof(*l2) << KSIM_DRAM_L2_SHIFT);
		if (!l2)
			return NULL;
		d->l1[i] = l2;
	}
	pp = &l2[pn & ((1u << KSIM_DRAM_L2_SHIFT) - 1)];
	if (!*pp) {
		*pp = ksim_plat_zalloc(KSIM_DRAM_PAGE);
		if (*pp)
			d->pages++;
	}
	return *pp;
}

void ksim_dram_read(const struct ksim_dram *d, u64 addr, void *buf, size_t len)
{
	u8 *out = buf;

	while (len) {
		u32 off = (u32)(addr & (KSIM_DRAM_PAGE - 1));
		size_t n = KSIM_DRAM_PAGE - off;
		const u8 *pg = ksim_dram_page(d, addr >> KSIM_DRAM_PAGE_SHIFT);

		if (n > len)
			n = len;
		if (pg)
			memcpy(out, pg + off, n);
		else
			memset(out, 0, n);
		out += n;
		addr += n;
		len -= n;
	}
}

/* zeros only: a page not there yet needs none (it reads 0) */
static bool ksim_dram_zeros(const u8 *p, size_t n)
{
	size_t i = 0;

	for (; i < n && ((uintptr_t)(p + i) & 7); i++)
		if (p[i])
			return false;
	for (; i + 8 <= n; i += 8)
		if (*(const u64 *)(p + i))
			return false;
	for (; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int ksim_dram_write(struct ksim_dram *d, u64 addr, const void *buf, size_t len)
{
	const u8 *in = buf;
	int ret = 0;

	while (len) {
		u32 off = (u32)(addr & (KSIM_DRAM_PAGE - 1));
		size_t n = KSIM_DRAM_PAGE - off;
		u64 pn = addr >> KSIM_DRAM_PAGE_SHIFT;
		u8 *pg = ksim_dram_page(d, pn);

		if (n > len)
			n = len;
		/*
		 * Zeros into memory never written (BO_CREATE clears every new
		 * buffer) change nothing it reads: no page is taken for them.
		 */
		if (!pg && !ksim_dram_zeros(in, n)) {
			pg = ksim_dram_page_alloc(d, pn);
			if (!pg) {
				d->oom_drops++;
				ret = -ENOMEM;
			}
		}
		if (pg)
			memcpy(pg + off, in, n);
		in += n;
		addr += n;
		len -= n;
	}
	return ret;
}
