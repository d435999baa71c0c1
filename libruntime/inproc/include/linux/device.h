/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/device.h> for userspace builds of driver/core: the in-process
 * host's device is its log.  dev_err() ... dev_dbg() keep each message
 * (what a kernel user would read in dmesg) so that a failed call's error
 * can carry the core's reason, and print it to stderr when KOHAKU_LOG
 * asks (libruntime/inproc/kh_os_user.c).  dev_dbg() is kept too: the core
 * gives its refusals at debug level.
 */
#ifndef KH_OS_LINUX_DEVICE_H
#define KH_OS_LINUX_DEVICE_H

#include <pthread.h>

#include <linux/types.h>

#define LOGLEVEL_ERR		3
#define LOGLEVEL_WARNING	4
#define LOGLEVEL_INFO		6
#define LOGLEVEL_DEBUG		7

#define KH_OS_LOG_RING		64
#define KH_OS_LOG_MSG		256

struct kh_os_log_entry {
	unsigned long seq;
	pthread_t thread;
	int level;
	char msg[KH_OS_LOG_MSG];
};

struct device {
	pthread_mutex_t lock;
	char name[64];
	int print_level;	/* -1: print nothing */
	unsigned long seq;	/* messages kept so far */
	struct kh_os_log_entry ring[KH_OS_LOG_RING];
};

__printf(3, 4)
void kh_os_dev_printk(struct device *dev, int level, const char *fmt, ...);

#define dev_err(dev, fmt, ...)						\
	kh_os_dev_printk((dev), LOGLEVEL_ERR, fmt, ##__VA_ARGS__)
#define dev_warn(dev, fmt, ...)						\
	kh_os_dev_printk((dev), LOGLEVEL_WARNING, fmt, ##__VA_ARGS__)
#define dev_info(dev, fmt, ...)						\
	kh_os_dev_printk((dev), LOGLEVEL_INFO, fmt, ##__VA_ARGS__)
#define dev_dbg(dev, fmt, ...)						\
	kh_os_dev_printk((dev), LOGLEVEL_DEBUG, fmt, ##__VA_ARGS__)

static inline const char *dev_name(const struct device *dev)
{
	return dev->name;
}

#endif /* KH_OS_LINUX_DEVICE_H */
