// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The in-process host's DMA mapping the core asks for (kh_os.h).  A bus
 * address is the process's own virtual address: the model's engine reaches
 * it through the in-process host's memory callbacks (backend_sim.c).  A
 * caller's buffer is cut at 4 KiB page boundaries as the kernel's pinned
 * pages are (the kernel may merge adjacent pages, never split one), so the
 * core builds the same descriptor lists, bounce lines included, on both
 * hosts.
 *
 * A remote caller's buffer (kohakud's client, <kh_os_caller.h>) is not in
 * this process: it is mapped as a copy here, at the same offset in its
 * first page so that it is cut the same way, filled from the caller
 * before a transfer to the card and given back after one from it.  A give
 * back that fails (the address is not the caller's to write) fails the
 * call with EFAULT, as pinning the pages for writing would have.  What the
 * core writes to the caller's buffer meanwhile (the lines it bounces) goes
 * to the copy too (kh_os_caller_mirror), so that the give back keeps it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/uaccess.h>
#include <kh_os_caller.h>

#include "kh_os.h"

#define KH_OS_PAGE	4096u

int kh_dma_alloc(struct device *dev, size_t size, struct kh_dma_mem *m)
{
	size_t sz = (size + KH_OS_PAGE - 1) & ~(size_t)(KH_OS_PAGE - 1);

	m->cpu = aligned_alloc(KH_OS_PAGE, sz ? sz : KH_OS_PAGE);
	if (!m->cpu)
		return -ENOMEM;
	memset(m->cpu, 0, sz);
	m->bus = (uintptr_t)m->cpu;
	m->size = size;
	m->os = NULL;
	return 0;
}

void kh_dma_free(struct device *dev, struct kh_dma_mem *m)
{
	free(m->cpu);
	m->cpu = NULL;
}

struct kh_user_dma {
	uintptr_t start;
	size_t len;
	unsigned int n;
	/* a remote caller's: the copy here, and where it goes back to */
	void *copy;
	void __user *user;
	bool to_card;
};

int kh_user_dma_map(struct device *dev, void __user *p, size_t len,
		    bool to_card, struct kh_user_dma **out)
{
	struct kh_user_dma *u;
	uintptr_t s = (uintptr_t)p;

	if (!len)
		return -EINVAL;
	if (!p)
		return -EFAULT;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->start = s;
	u->len = len;
	if (kh_os_caller) {
		size_t off = s % KH_OS_PAGE;
		size_t sz = (off + len + KH_OS_PAGE - 1) & ~(size_t)(KH_OS_PAGE - 1);

		u->copy = aligned_alloc(KH_OS_PAGE, sz);
		if (!u->copy) {
			free(u);
			return -ENOMEM;
		}
		u->start = (uintptr_t)u->copy + off;
		u->user = p;
		u->to_card = to_card;
		if (to_card && copy_from_user((void *)u->start, p, len)) {
			free(u->copy);
			free(u);
			return -EFAULT;
		}
		if (!to_card) {
			kh_os_caller->dma_user = s;
			kh_os_caller->dma_len = len;
			kh_os_caller->dma_copy = (void *)u->start;
		}
	}
	u->n = (unsigned int)(((s % KH_OS_PAGE) + len + KH_OS_PAGE - 1) / KH_OS_PAGE);
	*out = u;
	return 0;
}

unsigned int kh_user_dma_count(const struct kh_user_dma *u)
{
	return u->n;
}

void kh_user_dma_seg(const struct kh_user_dma *u, unsigned int i, u64 *bus,
		     size_t *len)
{
	uintptr_t page0 = u->start & ~(uintptr_t)(KH_OS_PAGE - 1);
	uintptr_t a = i ? page0 + (uintptr_t)i * KH_OS_PAGE : u->start;
	uintptr_t e = page0 + (uintptr_t)(i + 1) * KH_OS_PAGE;

	if (e > u->start + u->len)
		e = u->start + u->len;
	*bus = a;
	*len = e - a;
}

void kh_user_dma_unmap(struct kh_user_dma *u)
{
	if (u->copy && !u->to_card && kh_os_caller) {
		kh_os_caller->dma_copy = NULL;
		if (copy_to_user(u->user, (const void *)u->start, u->len))
			kh_os_caller->fault = 1;
	}
	free(u->copy);
	free(u);
}
