// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The in-process host's device and its log (<linux/device.h> in
 * libruntime/inproc/include/), and crc32_le() (<linux/crc32.h>).
 *
 * struct device keeps the core's recent log messages (the text a kernel
 * user would read in dmesg), so that a failed call's message can carry the
 * core's reason, and prints them to stderr when KOHAKU_LOG is set.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <linux/crc32.h>
#include <kh_os_caller.h>
#include "kh_os.h"
#include "kh_os_user.h"

/* the calling thread's remote caller: kohakud sets it around a client's call */
__thread struct kh_os_caller *kh_os_caller;

u32 kh_os_crc32_le(u32 crc, const void *p, size_t n)
{
	const unsigned char *b = p;

	/* zlib's crc32() inverts the CRC on the way in and out; zlib takes uInt lengths */
	crc = ~crc;
	while (n) {
		uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;

		crc = crc32(crc, b, k);
		b += k;
		n -= k;
	}
	return ~crc;
}

/*
 * KOHAKU_LOG names no level: logging goes on at info, as it always did (a
 * typo still shows the log), but it is said once per process, so that
 * KOHAKU_LOG=dbg is not mistaken for "nothing to log".  The value is
 * echoed with every byte that is not printable ASCII as '?': it goes to a
 * terminal.
 */
static void kh_os_log_warn_unknown(const char *v)
{
	static int warned;
	char shown[33];
	size_t i;

	if (__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
		return;
	for (i = 0; v[i] && i < sizeof(shown) - 1; i++)
		shown[i] = v[i] >= 0x20 && v[i] < 0x7f ? v[i] : '?';
	shown[i] = '\0';
	fprintf(stderr, "kohaku: warning: KOHAKU_LOG='%s%s' is not a log level "
		"(err, warn, info, debug; or 3, 4, 6, 7): logging at info\n",
		shown, v[i] ? "..." : "");
}

static int kh_os_log_level_from_env(void)
{
	const char *v = getenv("KOHAKU_LOG");

	if (!v || !*v)
		return -1;
	if (!strcmp(v, "debug") || !strcmp(v, "all") || !strcmp(v, "7"))
		return LOGLEVEL_DEBUG;
	if (!strcmp(v, "err") || !strcmp(v, "error") || !strcmp(v, "3"))
		return LOGLEVEL_ERR;
	if (!strcmp(v, "warn") || !strcmp(v, "warning") || !strcmp(v, "4"))
		return LOGLEVEL_WARNING;
	if (strcmp(v, "info") && strcmp(v, "6"))
		kh_os_log_warn_unknown(v);
	return LOGLEVEL_INFO;
}

struct device *kh_os_dev_create(const char *name)
{
	struct device *od = calloc(1, sizeof(*od));

	if (!od)
		return NULL;
	pthread_mutex_init(&od->lock, NULL);
	snprintf(od->name, sizeof(od->name), "%s", name);
	od->print_level = kh_os_log_level_from_env();
	return od;
}

void kh_os_dev_destroy(struct device *od)
{
	if (!od)
		return;
	pthread_mutex_destroy(&od->lock);
	free(od);
}

static const char *level_name(int level)
{
	switch (level) {
	case LOGLEVEL_ERR:
		return "error";
	case LOGLEVEL_WARNING:
		return "warning";
	case LOGLEVEL_INFO:
		return "info";
	default:
		return "debug";
	}
}

void kh_os_dev_printk(struct device *od, int level, const char *fmt, ...)
{
	char msg[KH_OS_LOG_MSG];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';

	if (!od) {
		int pl = kh_os_log_level_from_env();

		if (pl >= 0 && level <= pl)
			fprintf(stderr, "kohaku: %s: %s\n", level_name(level),
				msg);
		return;
	}
	pthread_mutex_lock(&od->lock);
	{
		/* kept at every level: the core explains refusals at debug */
		struct kh_os_log_entry *e =
			&od->ring[od->seq % KH_OS_LOG_RING];

		od->seq++;
		e->seq = od->seq;
		e->thread = pthread_self();
		e->level = level;
		memcpy(e->msg, msg, n + 1);
	}
	if (od->print_level >= 0 && level <= od->print_level)
		fprintf(stderr, "kohaku %s: %s: %s\n", od->name,
			level_name(level), msg);
	pthread_mutex_unlock(&od->lock);
}

unsigned long kh_os_log_pos(struct device *od)
{
	unsigned long s;

	pthread_mutex_lock(&od->lock);
	s = od->seq;
	pthread_mutex_unlock(&od->lock);
	return s;
}

static void append(char *buf, size_t len, size_t *off, const char *s)
{
	int n;

	if (*off + 1 >= len)
		return;
	n = snprintf(buf + *off, len - *off, "%s", s);
	if (n > 0)
		*off += (size_t)n < len - *off ? (size_t)n : len - *off - 1;
}

/*
 * The messages this thread logged since pos at err/warn level (else at any
 * level: the core gives its refusals at debug level), joined: the core's
 * reason for a failure.
 */
size_t kh_os_log_since(struct device *od, unsigned long pos, char *buf,
		       size_t len)
{
	pthread_t self = pthread_self();
	size_t off = 0;
	unsigned long s, first;
	int pass, found = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	pthread_mutex_lock(&od->lock);
	first = od->seq > KH_OS_LOG_RING ? od->seq - KH_OS_LOG_RING + 1 : 1;
	if (pos + 1 > first)
		first = pos + 1;
	for (pass = 0; pass < 2 && !found; pass++) {
		int max_level = pass ? LOGLEVEL_DEBUG : LOGLEVEL_WARNING;

		for (s = first; s <= od->seq; s++) {
			struct kh_os_log_entry *e =
				&od->ring[(s - 1) % KH_OS_LOG_RING];

			if (e->seq != s || !pthread_equal(e->thread, self) ||
			    e->level > max_level)
				continue;
			append(buf, len, &off, found ? "; " : "");
			append(buf, len, &off, e->msg);
			found++;
		}
	}
	pthread_mutex_unlock(&od->lock);
	return off;
}
