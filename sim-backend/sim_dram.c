// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Sparse DRAM: pages allocated on first write, unwritten memory reads 0. */
#include "sim_dram.h"

int kh_dram_init(struct kh_dram *d, u64 size)
{
	u64 pages = (size + KH_DRAM_PAGE - 1) >> KH_DRAM_PAGE_SHIFT;

	memset(d, 0, sizeof(*d));
	d->size = size;
	d->n_l1 = (u32)((pages + (1u << KH_DRAM_L2_SHIFT) - 1) >>
			KH_DRAM_L2_SHIFT);
	if (!d->n_l1)
		d->n_l1 = 1;
	d->l1 = kh_plat_zalloc(sizeof(*d->l1) * d->n_l1);
	return d->l1 ? 0 : -ENOMEM;
}

void kh_dram_fini(struct kh_dram *d)
{
	u32 i, j;

	if (!d->l1)
		return;
	for (i = 0; i < d->n_l1; i++) {
		if (!d->l1[i])
			continue;
		for (j = 0; j < (1u << KH_DRAM_L2_SHIFT); j++)
			kh_plat_free(d->l1[i][j]);
		kh_plat_free(d->l1[i]);
	}
	kh_plat_free(d->l1);
	d->l1 = NULL;
}

static u8 *kh_dram_page(const struct kh_dram *d, u64 pn)
{
	u64 i = pn >> KH_DRAM_L2_SHIFT;

	if (i >= d->n_l1 || !d->l1[i])
		return NULL;
	return d->l1[i][pn & ((1u << KH_DRAM_L2_SHIFT) - 1)];
}

static u8 *kh_dram_page_alloc(struct kh_dram *d, u64 pn)
{
	u64 i = pn >> KH_DRAM_L2_SHIFT;
	u8 **l2;
	u8 **pp;

	if (i >= d->n_l1)
		return NULL;
	l2 = d->l1[i];
	if (!l2) {
		l2 = kh_plat_zalloc(sizeof(*l2) << KH_DRAM_L2_SHIFT);
		if (!l2)
			return NULL;
		d->l1[i] = l2;
	}
	pp = &l2[pn & ((1u << KH_DRAM_L2_SHIFT) - 1)];
	if (!*pp) {
		*pp = kh_plat_zalloc(KH_DRAM_PAGE);
		if (*pp)
			d->pages++;
	}
	return *pp;
}

void kh_dram_read(const struct kh_dram *d, u64 addr, void *buf, size_t len)
{
	u8 *out = buf;

	while (len) {
		u32 off = (u32)(addr & (KH_DRAM_PAGE - 1));
		size_t n = KH_DRAM_PAGE - off;
		const u8 *pg = kh_dram_page(d, addr >> KH_DRAM_PAGE_SHIFT);

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

int kh_dram_write(struct kh_dram *d, u64 addr, const void *buf, size_t len)
{
	const u8 *in = buf;
	int ret = 0;

	while (len) {
		u32 off = (u32)(addr & (KH_DRAM_PAGE - 1));
		size_t n = KH_DRAM_PAGE - off;
		u8 *pg = kh_dram_page_alloc(d, addr >> KH_DRAM_PAGE_SHIFT);

		if (n > len)
			n = len;
		if (pg) {
			memcpy(pg + off, in, n);
		} else {
			d->oom_drops++;
			ret = -ENOMEM;
		}
		in += n;
		addr += n;
		len -= n;
	}
	return ret;
}
