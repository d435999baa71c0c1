/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* libkohaku's struct kh_os_dev: the log sink of the in-process driver core. */
#ifndef KH_OS_USER_H
#define KH_OS_USER_H

#include <pthread.h>
#include <stddef.h>

#include "kh_os.h"

#define KH_OS_LOG_RING	64
#define KH_OS_LOG_MSG	256

struct kh_os_log_entry {
	unsigned long seq;
	pthread_t thread;
	int level;
	char msg[KH_OS_LOG_MSG];
};

struct kh_os_dev {
	pthread_mutex_t lock;
	char name[64];
	int print_level;	/* -1: print nothing */
	unsigned long seq;	/* messages kept so far */
	struct kh_os_log_entry ring[KH_OS_LOG_RING];
};

__attribute__((visibility("hidden"))) struct kh_os_dev *kh_os_dev_create(const char *name);
__attribute__((visibility("hidden"))) void kh_os_dev_destroy(struct kh_os_dev *od);
__attribute__((visibility("hidden"))) unsigned long kh_os_log_pos(struct kh_os_dev *od);
__attribute__((visibility("hidden"))) size_t kh_os_log_since(struct kh_os_dev *od, unsigned long pos,
							    char *buf, size_t len);

#endif /* KH_OS_USER_H */
