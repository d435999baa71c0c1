/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * driver/core's only OS boundary.  The core is compiled into kohaku.ko and
 * into libkohaku's in-process sim backend; everything it needs from its host
 * is here: types, allocation, locks, time-bounded polling, logging and the
 * user-copy of ioctl arguments.
 */
#ifndef KH_OS_H
#define KH_OS_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/minmax.h>

typedef struct mutex kh_mutex;
#define kh_mutex_init(m)	mutex_init(m)
#define kh_mutex_destroy(m)	mutex_destroy(m)
#define kh_mutex_lock(m)	mutex_lock(m)
#define kh_mutex_unlock(m)	mutex_unlock(m)

static inline void *kh_zalloc(size_t n)
{
	return kvzalloc(n, GFP_KERNEL);
}

static inline void kh_free(void *p)
{
	kvfree(p);
}

static inline int kh_copy_from_user(void *dst, const void __user *src,
				    size_t n)
{
	return copy_from_user(dst, src, n) ? -EFAULT : 0;
}

static inline int kh_copy_to_user(void __user *dst, const void *src, size_t n)
{
	return copy_to_user(dst, src, n) ? -EFAULT : 0;
}

#define kh_u64_to_user_ptr(v)	u64_to_user_ptr(v)

/*
 * Between two polls of the device.  A simulated card only advances when it
 * is accessed, so sleeping would only waste wall time.
 */
static inline void kh_relax(bool simulated)
{
	if (simulated)
		cond_resched();
	else
		usleep_range(2, 10);
}

/* A waiter gives up when its caller was signalled. */
static inline bool kh_interrupted(void)
{
	return signal_pending(current);
}

/* The host's device, for log prefixes: a struct device in the kernel. */
struct kh_os_dev;
#define kh_os_err(od, fmt, ...)	 dev_err((struct device *)(od), fmt, ##__VA_ARGS__)
#define kh_os_warn(od, fmt, ...) dev_warn((struct device *)(od), fmt, ##__VA_ARGS__)
#define kh_os_info(od, fmt, ...) dev_info((struct device *)(od), fmt, ##__VA_ARGS__)
#define kh_os_dbg(od, fmt, ...)	 dev_dbg((struct device *)(od), fmt, ##__VA_ARGS__)

#else /* userspace: libkohaku's in-process backend */

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <pthread.h>
#include <sys/ioctl.h>

/* the kernel's own definitions, so that printk formats are the same */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;

#define __user

typedef pthread_mutex_t kh_mutex;
#define kh_mutex_init(m)	pthread_mutex_init((m), NULL)
#define kh_mutex_destroy(m)	pthread_mutex_destroy(m)
#define kh_mutex_lock(m)	pthread_mutex_lock(m)
#define kh_mutex_unlock(m)	pthread_mutex_unlock(m)

void *kh_zalloc(size_t n);
void kh_free(void *p);

/* In-process, "user" memory is the caller's own; a NULL pointer faults. */
int kh_copy_from_user(void *dst, const void *src, size_t n);
int kh_copy_to_user(void *dst, const void *src, size_t n);
#define kh_u64_to_user_ptr(v)	((void *)(uintptr_t)(v))

void kh_relax(bool simulated);

static inline bool kh_interrupted(void)
{
	return false;
}

/*
 * Userspace log sink: a struct kh_os_dev is supplied by the host (libkohaku)
 * and collects the messages a kernel host would print to dmesg.
 */
struct kh_os_dev;
void kh_os_log(struct kh_os_dev *od, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define KH_LOG_ERR	3
#define KH_LOG_WARN	4
#define KH_LOG_INFO	6
#define KH_LOG_DBG	7
#define kh_os_err(od, fmt, ...)	 kh_os_log((od), KH_LOG_ERR, fmt, ##__VA_ARGS__)
#define kh_os_warn(od, fmt, ...) kh_os_log((od), KH_LOG_WARN, fmt, ##__VA_ARGS__)
#define kh_os_info(od, fmt, ...) kh_os_log((od), KH_LOG_INFO, fmt, ##__VA_ARGS__)
#define kh_os_dbg(od, fmt, ...)	 kh_os_log((od), KH_LOG_DBG, fmt, ##__VA_ARGS__)

/* The few list primitives the core uses, with the kernel's names. */
struct list_head {
	struct list_head *next, *prev;
};

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

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

static inline void list_del(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n;
	n->prev = n;
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

#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b)	((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)

#endif /* __KERNEL__ */

#endif /* KH_OS_H */
