/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/list.h> for userspace builds of driver/core: the doubly linked
 * list primitives the core uses, with the kernel's names and meaning
 * (list_del() leaves the entry pointing at itself instead of poisoning it).
 */
#ifndef KH_OS_LINUX_LIST_H
#define KH_OS_LINUX_LIST_H

#include <linux/types.h>
#include <linux/container_of.h>

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n;
	n->prev = n;
}

#define list_del(n)	list_del_init(n)

static inline void list_move(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	n->prev = h;
	n->next = h->next;
	h->next->prev = n;
	h->next = n;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)
#define list_for_each_entry(pos, h, member)				\
	for (pos = list_entry((h)->next, __typeof__(*pos), member);	\
	     &pos->member != (h);					\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, h, member)			\
	for (pos = list_entry((h)->next, __typeof__(*pos), member),	\
	     n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (h);					\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif /* KH_OS_LINUX_LIST_H */
