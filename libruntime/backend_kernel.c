// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel backend: ioctl(2) on a kohaku device node, /dev/accel/accelN;
 * on kernels before Linux 6.2, which have no DRM accel subsystem, kohaku.ko
 * offers the same ioctls on a DRM render node, /dev/dri/renderDN.
 *
 * A node is accepted only when its DRM driver (drmGetVersion) is "kohaku";
 * anything else is refused with the driver's name.  Listing walks
 * /dev/accel and reports every node, kohaku or not, with the reason it is
 * or is not usable, so that "no device" always says why; and /dev/dri's
 * render nodes that are kohaku's (a GPU's render node is no accelerator:
 * sysfs names its driver without opening it, which could wake the GPU).
 * Every message names the nodes this kernel gives kohaku.ko.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <xf86drm.h>

#include "rt_internal.h"

#define KH_ACCEL_DIR	"/dev/accel"
#define KH_DRI_DIR	"/dev/dri"
#define KH_LOAD_HINT							\
	"modprobe kohaku; with no card, modprobe kohaku_sim, or use "	\
	"KOHAKU_BACKEND=sim for the in-process simulated card"

/* The kinds of node kohaku.ko makes: accelN, or renderDN before 6.2. */
struct kh_rt_node_kind {
	const char *dir;
	const char *prefix;
	/* why there is no kohaku node at all, in the same words wherever */
	const char *no_dir;
	const char *no_nodes;
	/* a kohaku device is ... */
	const char *what;
};

static const struct kh_rt_node_kind kh_rt_accel_nodes = {
	.dir = KH_ACCEL_DIR,
	.prefix = "accel",
	.no_dir = KH_ACCEL_DIR " does not exist, so no accelerator driver has "
		  "a device (" KH_LOAD_HINT ")",
	.no_nodes = KH_ACCEL_DIR " has no accel nodes (is kohaku.ko loaded and "
		    "bound to a card? see dmesg)",
	.what = KH_ACCEL_DIR "/accelN of the kohaku driver",
};

static const struct kh_rt_node_kind kh_rt_render_nodes = {
	.dir = KH_DRI_DIR,
	.prefix = "renderD",
	.no_dir = KH_DRI_DIR " does not exist, so no DRM driver has a device; "
		  "this kernel has no DRM accel subsystem (Linux 6.2 brought "
		  "it), so kohaku.ko's nodes are DRM render nodes, "
		  KH_DRI_DIR "/renderDN (" KH_LOAD_HINT ")",
	.no_nodes = "no render node under " KH_DRI_DIR " is kohaku's; this "
		    "kernel has no DRM accel subsystem (Linux 6.2 brought it), "
		    "so kohaku.ko's nodes are DRM render nodes, " KH_DRI_DIR
		    "/renderDN (is kohaku.ko loaded and bound to a card? see "
		    "dmesg; " KH_LOAD_HINT ")",
	.what = KH_DRI_DIR "/renderDN of the kohaku driver (this kernel has "
		"no DRM accel subsystem, which Linux 6.2 brought)",
};

/*
 * The kind of node this kernel gives kohaku.ko: DRM's accel class once
 * drm.ko is loaded on a kernel with accel; drm.ko loaded without it, render
 * nodes; drm.ko not loaded, the kernel's release says (6.2 brought accel).
 */
static const struct kh_rt_node_kind *kernel_node_kind(void)
{
	struct utsname u;
	struct stat st;
	unsigned int major, minor;

	if (!stat("/sys/class/accel", &st) || !stat(KH_ACCEL_DIR, &st))
		return &kh_rt_accel_nodes;
	if (!stat("/sys/class/drm", &st))
		return &kh_rt_render_nodes;
	if (!uname(&u) && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	    (major < 6 || (major == 6 && minor < 2)))
		return &kh_rt_render_nodes;
	return &kh_rt_accel_nodes;
}

static int kernel_ioctl(struct kohaku_device *dev, unsigned long cmd,
			void *arg)
{
	int r;

	do {
		r = ioctl(dev->fd, cmd, arg);
	} while (r == -1 && (errno == EINTR || errno == EAGAIN));
	return r == -1 ? -errno : 0;
}

static void kernel_close(struct kohaku_device *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

static int open_node(const char *path, int *fdp, char *err, size_t errlen);
static int check_driver(int fd, const char *path, char *drv, size_t drvlen,
			char *err, size_t errlen);

static int kernel_reopen(struct kohaku_device *src, struct kohaku_device *dst)
{
	char err[KOHAKU_ERRMSG_MAX];
	int r;

	r = open_node(src->path, &dst->fd, err, sizeof(err));
	if (r < 0) {
		kh_rt_seterr(dst, "%s", err);
		return r;
	}
	return 0;
}

static void kernel_reason(struct kohaku_device *dev, unsigned long since,
			  char *buf, size_t len)
{
	snprintf(buf, len, "The kohaku driver logs its reason to the kernel "
		 "log (dmesg; argument refusals are debug messages: echo "
		 "'module kohaku +p' > /sys/kernel/debug/dynamic_debug/control).");
}

int kh_rt_node_sysfs(const struct kohaku_device *dev, char *buf, size_t len)
{
	struct stat st;

	if (dev->fd < 0 || fstat(dev->fd, &st) < 0)
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENODEV;
	snprintf(buf, len, "/sys/dev/char/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	return 0;
}

/* kohaku.ko's word on the firmware it requested at bind (sysfs) */
static void kernel_fw_status(struct kohaku_device *dev, char *buf, size_t len)
{
	char node[64], path[320];
	size_t n = 0;
	FILE *f;

	if (!len)
		return;
	buf[0] = '\0';
	if (kh_rt_node_sysfs(dev, node, sizeof(node)) < 0)
		return;
	snprintf(path, sizeof(path), "%s/device/kohaku/firmware", node);
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		n--;
	buf[n] = '\0';
}

static const struct kh_rt_backend_ops kernel_ops = {
	.ioctl = kernel_ioctl,
	.reopen = kernel_reopen,
	.close = kernel_close,
	.reason = kernel_reason,
	.log_pos = NULL,
	.fw_status = kernel_fw_status,
};

/*
 * The name of id in /etc/passwd or /etc/group (field 3), read directly:
 * getpwuid() would pull NSS into static builds, which have no NSS.
 */
static bool id_name(const char *file, unsigned int id, char *buf, size_t len)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *name = strtok(line, ":"), *pw, *num;

		pw = name ? strtok(NULL, ":") : NULL;
		num = pw ? strtok(NULL, ":") : NULL;
		if (num && (unsigned int)strtoul(num, NULL, 10) == id) {
			kh_rt_strlcpy(buf, name, len);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* "rw-rw---- root:render" for permission messages */
static void describe_perms(const char *path, char *buf, size_t len)
{
	char mode[10], user[64], group[64];
	struct stat st;
	int i;

	if (stat(path, &st) < 0) {
		snprintf(buf, len, "?");
		return;
	}
	for (i = 0; i < 9; i++)
		mode[i] = (st.st_mode & (0400 >> i)) ? "rwxrwxrwx"[i] : '-';
	mode[9] = '\0';
	if (!id_name("/etc/passwd", st.st_uid, user, sizeof(user)))
		snprintf(user, sizeof(user), "uid %u", (unsigned int)st.st_uid);
	if (!id_name("/etc/group", st.st_gid, group, sizeof(group)))
		snprintf(group, sizeof(group), "gid %u", (unsigned int)st.st_gid);
	snprintf(buf, len, "%s %s:%s", mode, user, group);
}

static int open_node(const char *path, int *fdp, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	int e;

	*fdp = -1;
	if (fd >= 0) {
		*fdp = fd;
		return 0;
	}
	e = errno;
	if (e == ENOENT) {
		const struct kh_rt_node_kind *k = kernel_node_kind();
		struct stat st;

		if (stat(k->dir, &st) < 0)
			kh_rt_errbuf(err, errlen, "%s does not exist, and %s",
				     path, k->no_dir);
		else
			kh_rt_errbuf(err, errlen,
				     "%s does not exist (`kohaku list` shows the "
				     "kohaku nodes: a kohaku device is %s)", path,
				     k->what);
	} else if (e == EACCES || e == EPERM) {
		char perms[192];

		describe_perms(path, perms, sizeof(perms));
		kh_rt_errbuf(err, errlen,
			     "permission denied opening %s (%s): it needs read "
			     "and write access; join the node's group, add a "
			     "udev rule, or run as root", path, perms);
	} else if (e == ENXIO || e == ENODEV) {
		kh_rt_errbuf(err, errlen,
			     "%s has no device behind it (the card was removed "
			     "or its driver unbound): %s", path, strerror(e));
		e = ENODEV;
	} else {
		kh_rt_errbuf(err, errlen, "cannot open %s: %s", path,
			     strerror(e));
	}
	return -e;
}

static int check_driver(int fd, const char *path, char *drv, size_t drvlen,
			char *err, size_t errlen)
{
	drmVersionPtr v = drmGetVersion(fd);

	if (drv && drvlen)
		drv[0] = '\0';
	if (!v) {
		kh_rt_errbuf(err, errlen,
			     "%s is not a DRM/accel device (DRM_IOCTL_VERSION "
			     "failed: %s); a kohaku device is %s", path,
			     strerror(errno), kernel_node_kind()->what);
		return -ENODEV;
	}
	if (drv)
		snprintf(drv, drvlen, "%.*s", v->name_len, v->name ? v->name : "");
	if (!v->name || strcmp(v->name, KOHAKU_DRIVER_NAME)) {
		kh_rt_errbuf(err, errlen,
			     "%s belongs to the '%s' driver, not '"
			     KOHAKU_DRIVER_NAME "': it is another kind of "
			     "accelerator; pick a kohaku node (`kohaku list` shows "
			     "them) with KOHAKU_DEVICE or --device", path,
			     v->name ? v->name : "?");
		drmFreeVersion(v);
		return -ENODEV;
	}
	drmFreeVersion(v);
	return 0;
}

/*
 * "3" (the node numbered 3 of this kernel's kind: accel3, or renderD3 before
 * 6.2), "accel3", "renderD128" or a path
 */
static int resolve_path(const char *device, char *path, size_t len,
			char *err, size_t errlen)
{
	const char *p;

	for (p = device; *p && isdigit((unsigned char)*p); p++)
		;
	if (*device && !*p) {
		const struct kh_rt_node_kind *k = kernel_node_kind();

		snprintf(path, len, "%s/%s%s", k->dir, k->prefix, device);
		return 0;
	}
	if (kh_rt_node_index(device) >= 0) {
		snprintf(path, len, "%s/%s", device[0] == 'a' ? KH_ACCEL_DIR :
			 KH_DRI_DIR, device);
		return 0;
	}
	if (strchr(device, '/')) {
		kh_rt_strlcpy(path, device, len);
		return 0;
	}
	kh_rt_errbuf(err, errlen,
		     "'%s' is not a kernel device: give a node path "
		     "(/dev/accel/accel0; before Linux 6.2 /dev/dri/renderD128) "
		     "or its number (0); a name like this is "
		     "a simulated card description: use the sim backend "
		     "(KOHAKU_BACKEND=sim or --backend sim)", device);
	return -EINVAL;
}

/* a node, checked to be kohaku's, into dev */
static int open_path(const char *path, struct kohaku_device *dev, char *err,
		     size_t errlen)
{
	int fd, r;

	r = open_node(path, &fd, err, errlen);
	if (r < 0)
		return r;
	r = check_driver(fd, path, NULL, 0, err, errlen);
	if (r < 0) {
		close(fd);
		return r;
	}
	dev->fd = fd;
	dev->ops = &kernel_ops;
	kh_rt_strlcpy(dev->path, path, sizeof(dev->path));
	return 0;
}

/* N of "accelN" or "renderDN", or -1 */
int kh_rt_node_index(const char *name)
{
	const char *p;

	if (!strncmp(name, "accel", 5))
		p = name + 5;
	else if (!strncmp(name, "renderD", 7))
		p = name + 7;
	else
		return -1;
	if (!*p || strlen(p) > 6)
		return -1;
	for (name = p; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	return atoi(name);
}

/* accel nodes first, each kind by number */
static int cmp_entry(const void *a, const void *b)
{
	const struct kohaku_device_entry *x = a, *y = b;
	int rx = !!strncmp(x->path, KH_ACCEL_DIR "/", sizeof(KH_ACCEL_DIR));
	int ry = !!strncmp(y->path, KH_ACCEL_DIR "/", sizeof(KH_ACCEL_DIR));

	return rx != ry ? rx - ry : x->index - y->index;
}

/*
 * A render node is listed when sysfs says its device's driver is kohaku,
 * or says nothing (no sysfs: then DRM_IOCTL_VERSION decides)
 */
static bool render_node_maybe_ours(const char *name)
{
	char path[128], link[256];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/drm/%s/device/driver", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return access("/sys/class/drm", F_OK) < 0;
	link[n] = '\0';
	base = strrchr(link, '/');
	return !strcmp(base ? base + 1 : link, KOHAKU_DRIVER_NAME);
}

/* the nodes of one kind into *l; -errno when the directory cannot be read */
static int list_dir(const struct kh_rt_node_kind *k,
		    struct kohaku_device_entry **l, unsigned int *n,
		    unsigned int *cap)
{
	bool render = k == &kh_rt_render_nodes;
	struct dirent *de;
	DIR *d;

	d = opendir(k->dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int idx = kh_rt_node_index(de->d_name);

		if (idx < 0 || strncmp(de->d_name, k->prefix, strlen(k->prefix)))
			continue;
		if (render && !render_node_maybe_ours(de->d_name))
			continue;
		if (*n == *cap) {
			struct kohaku_device_entry *nl;

			*cap = *cap ? *cap * 2 : 8;
			nl = realloc(*l, *cap * sizeof(**l));
			if (!nl) {
				closedir(d);
				return -ENOMEM;
			}
			*l = nl;
		}
		memset(&(*l)[*n], 0, sizeof((*l)[*n]));
		(*l)[*n].backend = KOHAKU_BACKEND_KERNEL;
		(*l)[*n].index = idx;
		snprintf((*l)[*n].path, sizeof((*l)[*n].path), "%s/%.16s", k->dir,
			 de->d_name);
		(*n)++;
	}
	closedir(d);
	return 0;
}

/*
 * every node under /dev/accel, and the render nodes under /dev/dri that are
 * kohaku's (device: unused, a kernel device is listed by walking them all)
 */
static int kernel_list(const char *device, struct kohaku_device_entry **list,
		       unsigned int *count, char *err, size_t errlen)
{
	const struct kh_rt_node_kind *k = kernel_node_kind();
	struct kohaku_device_entry *l = NULL;
	unsigned int n = 0, cap = 0, i, usable = 0;
	int ra, rr;

	*list = NULL;
	*count = 0;
	ra = list_dir(&kh_rt_accel_nodes, &l, &n, &cap);
	rr = ra == -ENOMEM ? ra : list_dir(&kh_rt_render_nodes, &l, &n, &cap);
	if (ra == -ENOMEM || rr == -ENOMEM) {
		free(l);
		kh_rt_errbuf(err, errlen, "out of host memory");
		return -ENOMEM;
	}
	if (!l)
		l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	if (!n) {
		int e = k == &kh_rt_accel_nodes ? -ra : -rr;

		*list = l;
		if (e == ENOENT)
			kh_rt_errbuf(err, errlen, "no kohaku device: %s",
				     k->no_dir);
		else if (e)
			kh_rt_errbuf(err, errlen, "no kohaku device: cannot "
				     "read %s: %s", k->dir, strerror(e));
		else
			kh_rt_errbuf(err, errlen, "no kohaku device: %s",
				     k->no_nodes);
		return 0;
	}
	qsort(l, n, sizeof(*l), cmp_entry);

	for (i = 0; i < n; i++) {
		struct kohaku_device_entry *e = &l[i];
		struct kohaku_device *dev;
		char msg[KOHAKU_ERRMSG_MAX];
		int fd, r;

		r = open_node(e->path, &fd, msg, sizeof(msg));
		if (r == -EACCES || r == -EPERM) {
			/* read the driver name read-only if we may */
			int rfd = open(e->path, O_RDONLY | O_CLOEXEC);

			if (rfd >= 0) {
				char m2[KOHAKU_ERRMSG_MAX];

				check_driver(rfd, e->path, e->driver,
					     sizeof(e->driver), m2, sizeof(m2));
				close(rfd);
			}
		}
		if (r < 0) {
			e->status = r;
			kh_rt_strlcpy(e->message, msg, sizeof(e->message));
			continue;
		}
		r = check_driver(fd, e->path, e->driver, sizeof(e->driver),
				 msg, sizeof(msg));
		close(fd);
		if (r < 0) {
			e->status = r;
			kh_rt_strlcpy(e->message, msg, sizeof(e->message));
			continue;
		}
		r = kh_rt_dev_open(&kh_rt_backend_kernel, e->path, &dev, msg,
				   sizeof(msg));
		if (r < 0) {
			e->status = r;
			kh_rt_strlcpy(e->message, msg, sizeof(e->message));
			continue;
		}
		kh_rt_strlcpy(e->name, dev->info.name, sizeof(e->name));
		e->n_meshes = dev->info.n_meshes;
		e->n_nodes = dev->info.n_nodes;
		kohaku_close(dev);
		usable++;
	}
	if (!usable)
		kh_rt_errbuf(err, errlen,
			     "no usable kohaku device among the %u node%s "
			     "under %s (reasons per node above)", n,
			     n == 1 ? "" : "s", k->dir);
	*list = l;
	*count = n;
	return 0;
}

static int kernel_open(const char *device, struct kohaku_device *dev,
		       char *err, size_t errlen)
{
	struct kohaku_device_entry *l;
	unsigned int n, i;
	char path[256], why[KOHAKU_ERRMSG_MAX];
	size_t off;
	int r;

	if (device) {
		r = resolve_path(device, path, sizeof(path), err, errlen);
		if (r < 0)
			return r;
		return open_path(path, dev, err, errlen);
	}
	/* no device named: the first usable kohaku node */
	why[0] = '\0';
	r = kernel_list(NULL, &l, &n, why, sizeof(why));
	if (r < 0) {
		kh_rt_errbuf(err, errlen, "%s", why);
		return r;
	}
	for (i = 0; i < n; i++) {
		if (l[i].status == 0) {
			kh_rt_strlcpy(path, l[i].path, sizeof(path));
			free(l);
			return open_path(path, dev, err, errlen);
		}
	}
	off = (size_t)snprintf(why, sizeof(why), "no usable kohaku device");
	if (!n) {
		const struct kh_rt_node_kind *k = kernel_node_kind();
		struct stat st;

		snprintf(why + off, sizeof(why) - off, ": %s",
			 stat(k->dir, &st) < 0 ? k->no_dir : k->no_nodes);
	}
	for (i = 0; i < n && off < sizeof(why); i++) {
		int k = snprintf(why + off, sizeof(why) - off, "%s %s",
				 i ? ";" : ":", l[i].message);

		if (k < 0)
			break;
		off += (size_t)k;
	}
	free(l);
	kh_rt_errbuf(err, errlen, "%s", why);
	return -ENODEV;
}

const struct kh_rt_backend kh_rt_backend_kernel = {
	.id = KOHAKU_BACKEND_KERNEL,
	.name = "kernel",
	.open = kernel_open,
	.list = kernel_list,
};
