// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku.ko: the host's DMA mapping the core asks for (driver/core/kh_os.h):
 * coherent memory for descriptor rings, write-back words and bounce lines,
 * and a caller's buffer pinned (pin_user_pages_fast) and mapped
 * (dma_map_sgtable) so the card's engine moves data straight to and from
 * its pages.  The struct device is the card's: the PCI function, or the
 * kohaku_sim platform device (which has a 64-bit DMA mask; without an
 * IOMMU, dma-direct hands out physical addresses the model maps back).
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "kh_os.h"

int kh_dma_alloc(struct device *dev, size_t size, struct kh_dma_mem *m)
{
	dma_addr_t bus;

	m->cpu = dma_alloc_coherent(dev, size, &bus, GFP_KERNEL);
	if (!m->cpu)
		return -ENOMEM;
	m->bus = bus;
	m->size = size;
	m->os = NULL;
	return 0;
}

void kh_dma_free(struct device *dev, struct kh_dma_mem *m)
{
	if (m->cpu)
		dma_free_coherent(dev, m->size, m->cpu, m->bus);
	m->cpu = NULL;
}

struct kohaku_user_dma_seg {
	u64 bus;
	size_t len;
};

struct kh_user_dma {
	struct device *dev;
	struct page **pages;
	unsigned int n_pages;
	struct sg_table sgt;
	enum dma_data_direction dir;
	unsigned int n_segs;
	struct kohaku_user_dma_seg *segs;
};

static void kohaku_user_release(struct kh_user_dma *u, bool mapped)
{
	if (mapped)
		dma_unmap_sgtable(u->dev, &u->sgt, u->dir, 0);
	if (u->sgt.sgl)
		sg_free_table(&u->sgt);
	if (u->n_pages)
		unpin_user_pages_dirty_lock(u->pages, u->n_pages,
					    u->dir == DMA_FROM_DEVICE);
	kvfree(u->segs);
	kvfree(u->pages);
	kfree(u);
}

int kh_user_dma_map(struct device *dev, void __user *p, size_t len,
		    bool to_card, struct kh_user_dma **out)
{
	unsigned long start = (unsigned long)p, off = offset_in_page(start);
	unsigned int n = DIV_ROUND_UP(off + len, PAGE_SIZE), i;
	struct scatterlist *sg;
	struct kh_user_dma *u;
	int pinned, ret;

	if (!len || len > INT_MAX)
		return -EINVAL;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	u->dev = dev;
	u->dir = to_card ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	u->pages = kvmalloc_array(n, sizeof(*u->pages), GFP_KERNEL);
	if (!u->pages) {
		kfree(u);
		return -ENOMEM;
	}
	pinned = pin_user_pages_fast(start & PAGE_MASK, n,
				     to_card ? 0 : FOLL_WRITE, u->pages);
	if (pinned != n) {
		if (pinned > 0)
			unpin_user_pages(u->pages, pinned);
		kvfree(u->pages);
		kfree(u);
		return pinned < 0 ? pinned : -EFAULT;
	}
	u->n_pages = n;
	/* segments no longer than the device takes (DMA-API debug checks it) */
	ret = sg_alloc_table_from_pages_segment(&u->sgt, u->pages, n, off, len,
						dma_get_max_seg_size(u->dev),
						GFP_KERNEL);
	if (ret)
		goto fail;
	ret = dma_map_sgtable(u->dev, &u->sgt, u->dir, 0);
	if (ret)
		goto fail;
	u->segs = kvmalloc_array(u->sgt.nents, sizeof(*u->segs), GFP_KERNEL);
	if (!u->segs) {
		kohaku_user_release(u, true);
		return -ENOMEM;
	}
	for_each_sgtable_dma_sg(&u->sgt, sg, i) {
		u->segs[i].bus = sg_dma_address(sg);
		u->segs[i].len = sg_dma_len(sg);
	}
	u->n_segs = u->sgt.nents;
	*out = u;
	return 0;
fail:
	kohaku_user_release(u, false);
	return ret;
}

unsigned int kh_user_dma_count(const struct kh_user_dma *u)
{
	return u->n_segs;
}

void kh_user_dma_seg(const struct kh_user_dma *u, unsigned int i, u64 *bus,
		     size_t *len)
{
	*bus = u->segs[i].bus;
	*len = u->segs[i].len;
}

void kh_user_dma_unmap(struct kh_user_dma *u)
{
	kohaku_user_release(u, true);
}
