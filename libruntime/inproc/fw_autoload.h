/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The in-process host's firmware load at open (fw_autoload.c). */
#ifndef KOHAKU_FW_AUTOLOAD_H
#define KOHAKU_FW_AUTOLOAD_H

#include <stddef.h>

struct kh_device;

/*
 * Find and boot the POOL firmware of a freshly probed device, if it has
 * POOL units; @status gets a line saying what came of it ("" when the
 * device has none).  Never fails the caller.
 */
void kh_rt_fw_autoload(struct kh_device *kd, char *status, size_t slen);

#endif /* KOHAKU_FW_AUTOLOAD_H */
