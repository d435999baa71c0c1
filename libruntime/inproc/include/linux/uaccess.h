/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * <linux/uaccess.h> for userspace builds of driver/core.  In-process, the
 * caller's "user" memory is its own: a copy is memcpy(), and a NULL pointer
 * is the one fault that can be told (the kernel's would be any unmapped
 * address).  A remote caller (kohakud's client, <kh_os_caller.h>) copies
 * through its own functions.  As in the kernel, the return is the number
 * of bytes not copied.
 */
#ifndef KH_OS_LINUX_UACCESS_H
#define KH_OS_LINUX_UACCESS_H

#include <string.h>

#include <linux/types.h>
#include <kh_os_caller.h>

static inline unsigned long copy_from_user(void *to, const void __user *from,
					   unsigned long n)
{
	if (!n)
		return 0;
	if (kh_os_caller)
		return kh_os_caller->from(kh_os_caller, to, from, n);
	if (!to || !from)
		return n;
	memcpy(to, from, n);
	return 0;
}

static inline unsigned long copy_to_user(void __user *to, const void *from,
					 unsigned long n)
{
	if (!n)
		return 0;
	if (kh_os_caller) {
		kh_os_caller_mirror(kh_os_caller, to, from, n);
		return kh_os_caller->to(kh_os_caller, to, from, n);
	}
	if (!to || !from)
		return n;
	memcpy(to, from, n);
	return 0;
}

#endif /* KH_OS_LINUX_UACCESS_H */
