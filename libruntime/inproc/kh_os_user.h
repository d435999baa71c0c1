/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The in-process host's device (<linux/device.h> of
 * libruntime/inproc/include/): made and read by libkohaku, written by the
 * driver core's dev_err() ... dev_dbg() (kh_os_user.c).
 */
#ifndef KH_OS_USER_H
#define KH_OS_USER_H

#include <stddef.h>

#include <linux/device.h>

__attribute__((visibility("hidden"))) struct device *kh_os_dev_create(const char *name);
__attribute__((visibility("hidden"))) void kh_os_dev_destroy(struct device *dev);
/* where the log is now, for kh_os_log_since() */
__attribute__((visibility("hidden"))) unsigned long kh_os_log_pos(struct device *dev);
/*
 * The messages this thread logged since pos at err/warn level (else at any
 * level: the core gives its refusals at debug level), joined with "; ".
 */
__attribute__((visibility("hidden"))) size_t kh_os_log_since(struct device *dev, unsigned long pos,
							    char *buf, size_t len);

#endif /* KH_OS_USER_H */
