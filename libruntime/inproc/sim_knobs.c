// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The model's knobs through libkohaku (docs/runtime.md "Simulated cards:
 * fault injection, checker, trace"; docs/spec/fault-injection.md).
 *
 * In-process (the sim backend) the calls go to the model under the card's
 * lock.  On the kernel backend the device must be a card of kohaku_sim.ko:
 * its node's device (/sys/dev/char/M:N/device, for the accel node or,
 * before Linux 6.2, the render node) is
 * /sys/devices/kohaku_sim/kohaku_sim.N, and the model's files are
 * /sys/kernel/debug/kohaku_sim/cardN/{inject, check, trace, knobs, stats}
 * (docs/linux.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"
#include "ksim.h"

#define SIM_DEBUGFS	"/sys/kernel/debug/kohaku_sim"

static const char *const knob_files[] = { "inject", "check", "trace" };
static const char *const knob_reads[] = { "stats", "knobs", "trace", "check" };

/* ---- the kernel backend: kohaku_sim.ko's debugfs files ---- */

static int card_dir(struct kohaku_device *dev, char *dir, size_t len)
{
	char node[64], link[PATH_MAX], real[PATH_MAX];
	const char *b;
	unsigned int id;
	int r;

	r = kh_rt_node_sysfs(dev, node, sizeof(node));
	if (r < 0) {
		kh_rt_seterr(dev, "%s: cannot find its node in sysfs: %s",
			     dev->path, strerror(-r));
		return -ENODEV;
	}
	snprintf(link, sizeof(link), "%s/device", node);
	if (!realpath(link, real)) {
		kh_rt_seterr(dev, "%s: cannot find its device (%s): %s", dev->path,
			     link, strerror(errno));
		return -ENODEV;
	}
	b = strrchr(real, '/');
	b = b ? b + 1 : real;
	if (sscanf(b, "kohaku_sim.%u", &id) != 1) {
		kh_rt_seterr(dev, "%s is not a simulated card (its device is %s): "
			     "the model's knobs exist only on kohaku_sim.ko cards",
			     dev->path, real);
		return -EOPNOTSUPP;
	}
	snprintf(dir, len, SIM_DEBUGFS "/card%u", id);
	if (access(dir, F_OK)) {
		int e = errno;

		/* debugfs is root's (mode 0700): not reachable is not missing */
		if (e == EACCES) {
			kh_rt_seterr(dev, "%s is kohaku_sim card %u, but %s is "
				     "root's (debugfs): run as root", dev->path,
				     id, dir);
			return -EACCES;
		}
		kh_rt_seterr(dev, "%s is kohaku_sim card %u, but %s is missing: "
			     "mount debugfs (mount -t debugfs debugfs "
			     "/sys/kernel/debug) and run as root", dev->path, id,
			     dir);
		return -ENOENT;
	}
	return 0;
}

/* one of the card's debugfs files, opened; path gets its name */
static int card_file(struct kohaku_device *dev, const char *file,
		     int flags, char *path, size_t len)
{
	char dir[128];
	int fd, r, e;

	r = card_dir(dev, dir, sizeof(dir));
	if (r)
		return r;
	snprintf(path, len, "%s/%s", dir, file);
	fd = open(path, flags);
	if (fd < 0) {
		e = errno;
		kh_rt_seterr(dev, "opening %s: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

static int kernel_write(struct kohaku_device *dev, const char *file,
			const char *text)
{
	char path[160];
	ssize_t n;
	int fd, e;

	fd = card_file(dev, file, O_WRONLY, path, sizeof(path));
	if (fd < 0)
		return fd;
	n = write(fd, text, strlen(text));
	e = errno;
	close(fd);
	if (n < 0) {
		kh_rt_seterr(dev, "%s refused '%s': %s (dmesg has the model's "
			     "message)", path, text, strerror(e));
		return -e;
	}
	return 0;
}

static int kernel_read(struct kohaku_device *dev, const char *file,
		       char **text)
{
	size_t cap = 65536, len = 0;
	char path[160];
	char *buf;
	ssize_t n;
	int fd, e = 0;

	fd = card_file(dev, file, O_RDONLY, path, sizeof(path));
	if (fd < 0)
		return fd;
	buf = malloc(cap + 1);
	while (buf) {
		n = read(fd, buf + len, cap - len);
		if (n <= 0) {
			e = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
		if (len == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	if (!buf) {
		kh_rt_seterr(dev, "out of host memory");
		return -ENOMEM;
	}
	if (e) {
		free(buf);
		kh_rt_seterr(dev, "reading %s: %s", path, strerror(e));
		return -e;
	}
	buf[len] = 0;
	*text = buf;
	return 0;
}

/* ---- the in-process model ---- */

static bool grow(char **buf, size_t *cap, size_t want)
{
	char *nb;

	if (want <= *cap && *buf)
		return true;
	nb = realloc(*buf, want);
	if (!nb)
		return false;
	*buf = nb;
	*cap = want;
	return true;
}

/* stats 0, knobs 1, trace 2, check 3: the whole text, malloc'ed */
static char *model_text(struct ksim_card *card, unsigned int what)
{
	size_t cap = 0, len = 0, n;
	char *buf = NULL;
	u64 pos = 0;

	if (!grow(&buf, &cap, 65536))
		return NULL;
	for (;;) {
		switch (what) {
		case 0:
			n = ksim_dump_stats(card, buf, cap);
			break;
		case 1:
			n = ksim_dump_knobs(card, buf, cap);
			break;
		case 2:
			/* whole lines, chunk after chunk */
			if (cap - len < 4096 && !grow(&buf, &cap, cap * 2))
				goto oom;
			n = ksim_trace_text(card, &pos, buf + len, cap - len);
			if (!n)
				return buf;
			len += n;
			continue;
		default:
			ksim_check_report(card, buf, cap);
			n = strlen(buf) + 1 < cap ? strlen(buf) : cap * 2;
			break;
		}
		if (n < cap)
			return buf;
		if (!grow(&buf, &cap, n + 1))
			goto oom;
	}
oom:
	free(buf);
	return NULL;
}

static int model_read(struct kohaku_device *dev, unsigned int what,
		      char **text)
{
	*text = model_text(kh_rt_sim_lock(dev), what);
	kh_rt_sim_unlock(dev);
	if (!*text) {
		kh_rt_seterr(dev, "out of host memory");
		return -ENOMEM;
	}
	return 0;
}

/* ---- the API ---- */

static int pick(const char *w, size_t n, const char *const *names,
		unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		if (strlen(names[i]) == n && !strncmp(w, names[i], n))
			return (int)i;
	return -1;
}

KH_RT_EXPORT int kohaku_sim_command(kohaku_device *dev, const char *line)
{
	char err[256];
	const char *w, *rest;
	size_t n;
	int r, f;

	if (!dev || !line)
		return -EINVAL;
	for (w = line; *w == ' ' || *w == '\t'; w++)
		;
	n = strcspn(w, " \t\n");
	f = pick(w, n, knob_files, 3);
	if (f < 0) {
		kh_rt_seterr(dev, "kohaku_sim_command: '%.*s' is not a command "
			     "(inject, check or trace; docs/spec/"
			     "fault-injection.md)", (int)(n < 40 ? n : 40), w);
		return -EINVAL;
	}
	if (dev->backend == KOHAKU_BACKEND_KERNEL) {
		for (rest = w + n; *rest == ' ' || *rest == '\t'; rest++)
			;
		return kernel_write(dev, knob_files[f], rest);
	}
	if (dev->backend == KOHAKU_BACKEND_DAEMON)
		return kh_rt_daemon_sim_command(dev, line);
	err[0] = 0;
	r = ksim_command(kh_rt_sim_lock(dev), line, err, sizeof(err));
	kh_rt_sim_unlock(dev);
	if (r)
		kh_rt_seterr(dev, "%s: the model refused '%s': %s", dev->path,
			     line, err);
	return r;
}

KH_RT_EXPORT int kohaku_sim_inject(kohaku_device *dev, const char *spec)
{
	char line[512];

	if (!dev || !spec)
		return -EINVAL;
	if (strlen(spec) >= sizeof(line) - 8) {
		kh_rt_seterr(dev, "kohaku_sim_inject: the spec is too long");
		return -EINVAL;
	}
	snprintf(line, sizeof(line), "inject %s", spec);
	return kohaku_sim_command(dev, line);
}

KH_RT_EXPORT int kohaku_sim_read(kohaku_device *dev, const char *what,
				 char **text)
{
	int i;

	if (!dev || !what || !text)
		return -EINVAL;
	*text = NULL;
	i = pick(what, strlen(what), knob_reads, 4);
	if (i < 0) {
		kh_rt_seterr(dev, "kohaku_sim_read: '%s' is not stats, knobs, "
			     "trace or check", what);
		return -EINVAL;
	}
	if (dev->backend == KOHAKU_BACKEND_KERNEL)
		return kernel_read(dev, what, text);
	if (dev->backend == KOHAKU_BACKEND_DAEMON)
		return kh_rt_daemon_sim_read(dev, (unsigned int)i, text);
	return model_read(dev, (unsigned int)i, text);
}

KH_RT_EXPORT int kohaku_sim_check(kohaku_device *dev)
{
	unsigned long long n;
	char *text;
	int r;

	r = kohaku_sim_read(dev, "check", &text);
	if (r)
		return r;
	r = sscanf(text, "violations %llu", &n) == 1 ?
		(n > INT_MAX ? INT_MAX : (int)n) : -EPROTO;
	if (r < 0)
		kh_rt_seterr(dev, "%s: the checker's report does not start "
			     "'violations N'", dev->path);
	free(text);
	return r;
}
