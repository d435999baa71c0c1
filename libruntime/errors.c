// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libkohaku's error words: errno names and what they usually mean, the
 * per-device, per-thread last-error messages (kohaku_last_error), and the
 * bounded writes every message goes through.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rt_internal.h"

/* one thread's last message on one device */
struct kh_rt_err_slot {
	pthread_t thread;
	struct kh_rt_err_slot *next;
	char msg[KOHAKU_ERRMSG_MAX];
};

/* ---- words for a file that is not a regular one ---- */

const char *kh_rt_file_kind(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	}
	return "not a regular file";
}

/* ---- bounded writes ---- */

void kh_rt_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n;

	if (!dst || !len)
		return;
	n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

void kh_rt_copy_out(void *dst, size_t dsize, const void *src, size_t ssize)
{
	size_t n = dsize < ssize ? dsize : ssize;

	memcpy(dst, src, n);
	if (dsize > n)
		memset((char *)dst + n, 0, dsize - n);
}

void *kh_rt_restride(void *arr, unsigned int n, size_t have, size_t want)
{
	char *out;
	unsigned int i;

	if (have == want || !arr)
		return arr;
	out = calloc(n ? n : 1, want);
	if (out)
		for (i = 0; i < n; i++)
			kh_rt_copy_out(out + (size_t)i * want, want,
				       (char *)arr + (size_t)i * have, have);
	free(arr);
	return out;
}

void kh_rt_errbuf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ---- errno in words ---- */

struct kh_rt_errno_words {
	int err;
	const char *name;
	const char *text;
};

static const struct kh_rt_errno_words kh_errnos[] = {
	{ EPERM, "EPERM", "operation not permitted" },
	{ ENOENT, "ENOENT", "no such object (file, handle or job)" },
	{ EINTR, "EINTR", "interrupted" },
	{ EIO, "EIO", "the device did not answer as the protocol says" },
	{ ENXIO, "ENXIO", "no such device or address" },
	{ E2BIG, "E2BIG", "argument list too long" },
	{ EBADF, "EBADF", "bad file descriptor" },
	{ EAGAIN, "EAGAIN", "try again" },
	{ ENOMEM, "ENOMEM", "out of memory" },
	{ EACCES, "EACCES", "permission denied" },
	{ EFAULT, "EFAULT", "bad address (a pointer in the arguments is not valid memory)" },
	{ EBUSY, "EBUSY", "device or resource busy" },
	{ EEXIST, "EEXIST", "already exists" },
	{ ENODEV, "ENODEV", "no such device (or not a kohaku device)" },
	{ ENOTDIR, "ENOTDIR", "not a directory" },
	{ EISDIR, "EISDIR", "is a directory" },
	{ EINVAL, "EINVAL", "invalid argument" },
	{ ENOSPC, "ENOSPC", "no space left" },
	{ ENOTTY, "ENOTTY", "unknown command for this device" },
	{ ERANGE, "ERANGE", "out of range" },
	{ ENOSYS, "ENOSYS", "not implemented" },
	{ EPROTO, "EPROTO", "protocol (ABI version) mismatch" },
	{ EOPNOTSUPP, "EOPNOTSUPP", "not supported by this device" },
	{ ETIMEDOUT, "ETIMEDOUT", "timed out" },
	{ ECANCELED, "ECANCELED", "cancelled (the job never ran)" },
	{ EOVERFLOW, "EOVERFLOW", "value too large" },
	{ EBADMSG, "EBADMSG", "the device sent a damaged reply" },
};

/* err's entry (either sign), or NULL */
static const struct kh_rt_errno_words *errno_words(int err)
{
	size_t i;

	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(kh_errnos) / sizeof(kh_errnos[0]); i++)
		if (kh_errnos[i].err == err)
			return &kh_errnos[i];
	return NULL;
}

const char *kh_rt_errno_name(int err)
{
	const struct kh_rt_errno_words *w = errno_words(err);

	return w ? w->name : "E?";
}

KH_RT_EXPORT const char *kohaku_strerror(int err)
{
	const struct kh_rt_errno_words *w;

	if (err == 0)
		return "success";
	w = errno_words(err);
	return w ? w->text : "unknown error";
}

/* ---- per-device, per-thread last-error messages ---- */

void kh_rt_err_init(struct kohaku_device *dev)
{
	dev->err_slots = NULL;
	pthread_mutex_init(&dev->err_lock, NULL);
}

void kh_rt_err_fini(struct kohaku_device *dev)
{
	struct kh_rt_err_slot *s, *n;

	for (s = dev->err_slots; s; s = n) {
		n = s->next;
		free(s);
	}
	pthread_mutex_destroy(&dev->err_lock);
}

static struct kh_rt_err_slot *err_slot(struct kohaku_device *dev, bool create)
{
	pthread_t self = pthread_self();
	struct kh_rt_err_slot *s;

	for (s = dev->err_slots; s; s = s->next)
		if (pthread_equal(s->thread, self))
			return s;
	if (!create)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->thread = self;
	s->next = dev->err_slots;
	dev->err_slots = s;
	return s;
}

void kh_rt_seterr(struct kohaku_device *dev, const char *fmt, ...)
{
	struct kh_rt_err_slot *s;
	va_list ap;

	pthread_mutex_lock(&dev->err_lock);
	s = err_slot(dev, true);
	if (s) {
		va_start(ap, fmt);
		vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&dev->err_lock);
}

KH_RT_EXPORT const char *kohaku_last_error(const kohaku_device *cdev)
{
	struct kohaku_device *dev = (struct kohaku_device *)cdev;
	struct kh_rt_err_slot *s;
	const char *msg = "";

	if (!dev)
		return "no device (NULL)";
	pthread_mutex_lock(&dev->err_lock);
	s = err_slot(dev, false);
	if (s)
		msg = s->msg;
	pthread_mutex_unlock(&dev->err_lock);
	return msg;
}
