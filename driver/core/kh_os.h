/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What driver/core needs from its host that has no kernel name.  The core
 * is kernel code: it includes the kernel's headers and calls mutex_lock(),
 * kzalloc(), xa_load(), wait_event_interruptible_timeout(), queue_work(),
 * dma_fence_signal(), drm_syncobj_find(), dev_err() as any driver does, in
 * kohaku.ko from the kernel and in libkohaku's in-process backend from
 * libruntime/inproc/include/ (the kernel's headers for userspace).  What is
 * left is declared here and implemented once per host: the host's DMA
 * mapping for the card's engine (a PCI function's dma_alloc_coherent() and
 * pinned, mapped user pages in kohaku.ko, driver/linux/kohaku_os_dma.c;
 * the process's own memory in-process, libruntime/inproc/kh_os_dma.c).
 *
 * The register seam, the other boundary, is hwif/kh_hw.h.
 */
#ifndef KH_OS_H
#define KH_OS_H

#include <linux/types.h>

struct device;

/* ---- host memory the card's DMA engine reaches ---- */

/**
 * struct kh_dma_mem - host memory allocated for the card's DMA engine
 * @cpu: the host's view of it.
 * @bus: the card's: the bus address descriptors name.
 * @size: bytes.
 * @os: the host's own handle.
 *
 * Coherent: what the CPU writes the card sees and the other way round,
 * with no sync calls (descriptor rings, write-back words, bounce lines).
 */
struct kh_dma_mem {
	void *cpu;
	u64 bus;
	size_t size;
	void *os;
};

/* Zeroed, page aligned; 0 or -ENOMEM. */
int kh_dma_alloc(struct device *dev, size_t size, struct kh_dma_mem *m);
void kh_dma_free(struct device *dev, struct kh_dma_mem *m);

/*
 * A caller's buffer pinned and mapped for the card: its bus segments in
 * order, each contiguous for the card (at least page by page, merged where
 * the host's mapping merges them).  to_card: the card reads it (BO_WRITE);
 * else the card writes it, and unmapping marks the pages dirty.
 */
struct kh_user_dma;
int kh_user_dma_map(struct device *dev, void __user *p, size_t len,
		    bool to_card, struct kh_user_dma **out);
unsigned int kh_user_dma_count(const struct kh_user_dma *u);
void kh_user_dma_seg(const struct kh_user_dma *u, unsigned int i, u64 *bus,
		     size_t *len);
void kh_user_dma_unmap(struct kh_user_dma *u);

#endif /* KH_OS_H */
