// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The PCI functions with KohakuAccel's ids, bound to a driver or not:
 * libpciaccess finds them and reads what config space and the resource
 * file say (ids, revision, class, BAR sizes); sysfs adds what libpciaccess
 * does not give (the PCIe link, the bound driver, the accel node), and this
 * file says in words why a function is not usable.
 *
 * Only this file uses libpciaccess: a program that never calls
 * kohaku_pci_list() links none of it from libkohaku.a (docs/runtime.md
 * "Build").  libpciaccess keeps its state in one process-wide variable, set
 * up by pci_system_init() and freed by pci_system_cleanup(), so each call
 * does both, under a lock of its own, and copies what it needs out first.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pciaccess.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kohaku/kh_regs.h"
#include "rt_internal.h"

#define KH_RT_PCI_ENV		"KOHAKU_PCI_MATCH"
#define KH_RT_PCI_DEVICES	"/bus/pci/devices"
#define KH_RT_PCI_DRIVERS	"/bus/pci/drivers"

_Static_assert(KH_RT_PCI_ANY == PCI_MATCH_ANY, "KH_RT_PCI_ANY is libpciaccess's PCI_MATCH_ANY");

static pthread_mutex_t kh_rt_pci_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the id list: KohakuAccel's, and what match / KOHAKU_PCI_MATCH add ---- */

/* hex field of 1..4 digits at *p, ending at one of the stop characters */
static bool hex16(const char **p, const char *stop, uint32_t *out)
{
	const char *s = *p;
	uint32_t v = 0;
	int n = 0;

	while (isxdigit((unsigned char)*s) && n < 5) {
		v = v * 16 + (uint32_t)(isdigit((unsigned char)*s) ?
			*s - '0' : tolower((unsigned char)*s) - 'a' + 10);
		s++;
		n++;
	}
	if (n < 1 || n > 4 || !strchr(stop, *s))
		return false;
	*out = v;
	*p = s;
	return true;
}

int kh_rt_pci_parse_match(const char *spec, const char *what,
			  struct kh_rt_pci_id *ids, unsigned int max,
			  unsigned int *n, char *err, size_t errlen)
{
	const char *p = spec;

	*n = 0;
	if (!spec)
		return 0;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	for (;;) {
		const char *tok;
		struct kh_rt_pci_id id = {
			.subvendor = KH_RT_PCI_ANY, .subdevice = KH_RT_PCI_ANY,
		};
		bool ok;

		while (*p == ' ')
			p++;
		tok = p;
		ok = hex16(&p, ":", &id.vendor) && *p++ == ':' &&
		     hex16(&p, ":, ", &id.device);
		if (ok && *p == ':') {
			p++;
			ok = hex16(&p, ":", &id.subvendor) && *p++ == ':' &&
			     hex16(&p, ", ", &id.subdevice);
		}
		while (ok && *p == ' ')
			p++;
		if (!ok || (*p && *p != ',')) {
			size_t len = strcspn(tok, ",");

			kh_rt_errbuf(err, errlen,
				     "%s='%s': '%.*s' is not a PCI id: give "
				     "VVVV:DDDD or VVVV:DDDD:SVVV:SDDD (vendor, "
				     "device, subsystem vendor and device, in "
				     "hexadecimal), separated by commas, e.g. "
				     "1234:1111", what, spec, (int)(len > 40 ? 40 : len),
				     tok);
			return -EINVAL;
		}
		if (*n == max) {
			kh_rt_errbuf(err, errlen,
				     "%s='%s': more than %u ids", what, spec, max);
			return -EINVAL;
		}
		ids[(*n)++] = id;
		if (!*p)
			return 0;
		p++;	/* ',' */
	}
}

/* "10ee:903f" or "10ee:903f:10ee:0007" */
static void id_str(const struct kh_rt_pci_id *id, char *buf, size_t len)
{
	if (id->subvendor == KH_RT_PCI_ANY && id->subdevice == KH_RT_PCI_ANY)
		snprintf(buf, len, "%04x:%04x", id->vendor, id->device);
	else
		snprintf(buf, len, "%04x:%04x:%04x:%04x", id->vendor, id->device,
			 id->subvendor & 0xffff, id->subdevice & 0xffff);
}

/* ---- what sysfs adds: link, driver, accel node, and why ---- */

/* sysfs file ROOT/bus/pci/devices/ADDR/NAME, one line without its '\n' */
static bool read_attr(const char *root, const char *addr, const char *name,
		      char *buf, size_t len)
{
	char path[512];
	size_t n;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s" KH_RT_PCI_DEVICES "/%s/%s", root,
		 addr, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return true;
}

/* "8.0 GT/s PCIe" -> "8.0 GT/s" (the kernel's pci_speed_string) */
static void read_speed(const char *root, const char *addr, const char *name,
		       char *buf, size_t len)
{
	char *pcie;

	if (!read_attr(root, addr, name, buf, len))
		return;
	pcie = strstr(buf, " PCIe");
	if (pcie && !pcie[5])
		*pcie = '\0';
}

static unsigned int read_width(const char *root, const char *addr,
			       const char *name)
{
	char buf[32];

	if (!read_attr(root, addr, name, buf, sizeof(buf)))
		return 0;
	return (unsigned int)strtoul(buf[0] == 'x' ? buf + 1 : buf, NULL, 10);
}

void kh_rt_pci_sysfs(const char *root, struct kohaku_pci_entry *e)
{
	const char *a = e->address;
	char path[512], link[512], kohaku_drv[512];
	struct dirent *de;
	struct stat st;
	bool kohaku_loaded;
	unsigned int k;
	ssize_t n;
	DIR *d;

	read_speed(root, a, "current_link_speed", e->link_speed,
		   sizeof(e->link_speed));
	read_speed(root, a, "max_link_speed", e->max_link_speed,
		   sizeof(e->max_link_speed));
	e->link_width = read_width(root, a, "current_link_width");
	e->max_link_width = read_width(root, a, "max_link_width");

	e->driver[0] = '\0';
	snprintf(path, sizeof(path), "%s" KH_RT_PCI_DEVICES "/%s/driver", root, a);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		const char *base;

		link[n] = '\0';
		base = strrchr(link, '/');
		kh_rt_strlcpy(e->driver, base ? base + 1 : link,
			      sizeof(e->driver));
	}

	/* the node: accel/accelN, or drm/renderDN before Linux 6.2 */
	e->accel_index = -1;
	e->accel[0] = '\0';
	for (k = 0; k < 2 && e->accel_index < 0; k++) {
		static const char *const sub[] = { "accel", "drm" };
		static const char *const dev[] = { "/dev/accel", "/dev/dri" };
		char node[32] = "";

		snprintf(path, sizeof(path), "%s" KH_RT_PCI_DEVICES "/%s/%s",
			 root, a, sub[k]);
		d = opendir(path);
		while (d && (de = readdir(d))) {
			int idx = kh_rt_node_index(de->d_name);

			if (idx < 0 || (k == 1 && de->d_name[0] != 'r'))
				continue;
			if (e->accel_index < 0 || idx < e->accel_index) {
				e->accel_index = idx;
				kh_rt_strlcpy(node, de->d_name, sizeof(node));
			}
		}
		if (d)
			closedir(d);
		if (e->accel_index >= 0)
			snprintf(e->accel, sizeof(e->accel), "%s/%s", dev[k],
				 node);
	}

	snprintf(kohaku_drv, sizeof(kohaku_drv), "%s" KH_RT_PCI_DRIVERS "/"
		 KOHAKU_DRIVER_NAME, root);
	kohaku_loaded = stat(kohaku_drv, &st) == 0;

	e->status = 0;
	e->message[0] = '\0';
	if (!e->driver[0]) {
		e->status = -ENODEV;
		if (e->kohaku_ids && !kohaku_loaded)
			kh_rt_errbuf(e->message, sizeof(e->message),
				 "no driver bound: modprobe kohaku");
		else if (e->kohaku_ids)
			kh_rt_errbuf(e->message, sizeof(e->message),
				 "no driver bound, though kohaku.ko is loaded: "
				 "its probe refused the function (dmesg | grep "
				 "%s says why) or it was unbound (echo %s > "
				 "/sys/bus/pci/drivers/kohaku/bind)", a, a);
		else
			kh_rt_errbuf(e->message, sizeof(e->message),
				 "no driver bound, and kohaku.ko binds only "
				 "%04x:%04x by itself: %secho '%04x %04x' > "
				 "/sys/bus/pci/drivers/kohaku/new_id (if it "
				 "refuses the function, dmesg | grep %s says why)",
				 KH_PCI_VENDOR, KH_PCI_DEVICE,
				 kohaku_loaded ? "" : "modprobe kohaku, then ",
				 e->vendor, e->device, a);
	} else if (strcmp(e->driver, KOHAKU_DRIVER_NAME)) {
		const char *what = "";

		if (!strcmp(e->driver, "vfio-pci"))
			what = " (handed to a VM or a userspace driver)";
		else if (!strcmp(e->driver, "pci-stub"))
			what = " (held back, usually by pci-stub.ids= on the "
			       "kernel command line)";
		else if (!strcmp(e->driver, "xdma"))
			what = " (Xilinx's XDMA driver: a stock XDMA design "
			       "has the same ids)";
		e->status = -EBUSY;
		kh_rt_errbuf(e->message, sizeof(e->message),
			 "bound to %s%s, not kohaku: echo %s > "
			 "/sys/bus/pci/drivers/%s/unbind, then echo kohaku > "
			 "/sys/bus/pci/devices/%s/driver_override and echo %s "
			 "> /sys/bus/pci/drivers_probe", e->driver, what, a,
			 e->driver, a, a);
	} else if (e->accel_index < 0) {
		e->status = -ENOENT;
		kh_rt_errbuf(e->message, sizeof(e->message),
			 "kohaku.ko is bound but the function has no accel "
			 "node (nor, before Linux 6.2, a DRM render node): "
			 "still probing, or being removed (dmesg | grep %s)",
			 a);
	}
}

/* ---- listing ---- */

static int cmp_addr(const void *x, const void *y)
{
	const struct kohaku_pci_entry *a = x, *b = y;

	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus - b->bus;
	if (a->dev != b->dev)
		return a->dev - b->dev;
	return a->func - b->func;
}

/* why pci_system_init() failed, in words */
static void init_error(int e, char *err, size_t errlen)
{
	struct stat st;

	if (e == ENOENT && stat("/sys/bus", &st) < 0)
		kh_rt_errbuf(err, errlen,
			     "cannot list PCI functions: sysfs is not mounted "
			     "(/sys/bus does not exist: mount -t sysfs sysfs /sys)");
	else if (e == ENOENT)
		kh_rt_errbuf(err, errlen,
			     "cannot list PCI functions: /sys/bus/pci/devices "
			     "does not exist (this machine has no PCI bus, or "
			     "its kernel has no PCI support)");
	else if (e == EACCES || e == EPERM)
		kh_rt_errbuf(err, errlen,
			     "cannot list PCI functions: libpciaccess may not "
			     "read the functions' config space under "
			     "/sys/bus/pci/devices: %s", strerror(e));
	else
		kh_rt_errbuf(err, errlen,
			     "cannot list PCI functions: libpciaccess's "
			     "pci_system_init() failed: %s", strerror(e));
}

static void fill_from_device(struct kohaku_pci_entry *e, struct pci_device *pd)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->domain = pd->domain;
	e->bus = pd->bus;
	e->dev = pd->dev;
	e->func = pd->func;
	/* libpciaccess leaves out domains past 0xffff (its sysfs scan) */
	snprintf(e->address, sizeof(e->address), "%04x:%02x:%02x.%x",
		 e->domain & 0xffff, e->bus, e->dev, e->func & 7);
	e->vendor = pd->vendor_id;
	e->device = pd->device_id;
	e->subvendor = pd->subvendor_id;
	e->subdevice = pd->subdevice_id;
	e->revision = pd->revision;
	e->class_code = pd->device_class;
	e->kohaku_ids = pd->vendor_id == KH_PCI_VENDOR &&
			pd->device_id == KH_PCI_DEVICE;
	e->accel_index = -1;
	/* BAR sizes come from the resource file: pci_device_probe reads it */
	if (pci_device_probe(pd) != 0)
		return;
	for (i = 0; i < 6; i++) {
		e->bar[i].size = pd->regions[i].size;
		e->bar[i].flags = (pd->regions[i].is_IO ? KOHAKU_PCI_BAR_IO : 0) |
			(pd->regions[i].is_64 ? KOHAKU_PCI_BAR_64 : 0) |
			(pd->regions[i].is_prefetchable ? KOHAKU_PCI_BAR_PREFETCH : 0);
	}
}

/* libpciaccess's part, under the lock: the matching functions, copied */
static int enumerate(const struct kh_rt_pci_id *ids, unsigned int n_ids,
		     struct kohaku_pci_entry **list, unsigned int *count,
		     char *err, size_t errlen)
{
	struct kohaku_pci_entry *l = NULL;
	unsigned int n = 0, cap = 0, k, i;
	int r;

	r = pci_system_init();
	if (r) {
		pci_system_cleanup();	/* frees what a failed init left */
		init_error(r, err, errlen);
		return -r;
	}
	for (k = 0; k < n_ids; k++) {
		struct pci_id_match m = {
			.vendor_id = ids[k].vendor,
			.device_id = ids[k].device,
			.subvendor_id = ids[k].subvendor,
			.subdevice_id = ids[k].subdevice,
			.device_class = 0,
			.device_class_mask = 0,
		};
		struct pci_device_iterator *it = pci_id_match_iterator_create(&m);
		struct pci_device *pd;

		if (!it) {
			r = -ENOMEM;
			break;
		}
		while ((pd = pci_device_next(it))) {
			for (i = 0; i < n; i++)
				if (l[i].domain == pd->domain && l[i].bus == pd->bus &&
				    l[i].dev == pd->dev && l[i].func == pd->func)
					break;
			if (i < n)
				continue;	/* matched by an earlier id */
			if (n == cap) {
				struct kohaku_pci_entry *nl;

				cap = cap ? cap * 2 : 4;
				nl = realloc(l, cap * sizeof(*l));
				if (!nl) {
					r = -ENOMEM;
					break;
				}
				l = nl;
			}
			fill_from_device(&l[n++], pd);
		}
		pci_iterator_destroy(it);
		if (r)
			break;
	}
	pci_system_cleanup();
	if (r) {
		free(l);
		kh_rt_errbuf(err, errlen, "cannot list PCI functions: out of "
			     "host memory");
		return r;
	}
	*list = l;
	*count = n;
	return 0;
}

static int pci_list(const char *match, struct kohaku_pci_entry **list,
		    unsigned int *count, char *err, size_t errlen)
{
	struct kh_rt_pci_id ids[1 + KOHAKU_PCI_MATCH_MAX] = {
		{ KH_PCI_VENDOR, KH_PCI_DEVICE, KH_RT_PCI_ANY, KH_RT_PCI_ANY },
	};
	struct kohaku_pci_entry *l = NULL;
	const char *what = "match";
	unsigned int n_add = 0, n = 0, i;
	char added[KOHAKU_PCI_MATCH_MAX * 21 + 1] = "";
	size_t off = 0;
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!list || !count) {
		kh_rt_errbuf(err, errlen, "kohaku_pci_list: NULL output");
		return -EINVAL;
	}
	*list = NULL;
	*count = 0;
	if (!match) {
		match = getenv(KH_RT_PCI_ENV);
		what = KH_RT_PCI_ENV;
	}
	r = kh_rt_pci_parse_match(match, what, ids + 1, KOHAKU_PCI_MATCH_MAX,
				  &n_add, err, errlen);
	if (r < 0)
		return r;

	pthread_mutex_lock(&kh_rt_pci_lock);
	r = enumerate(ids, 1 + n_add, &l, &n, err, errlen);
	pthread_mutex_unlock(&kh_rt_pci_lock);
	if (r < 0)
		return r;

	if (n > 1)
		qsort(l, n, sizeof(*l), cmp_addr);
	for (i = 0; i < n; i++)
		kh_rt_pci_sysfs("/sys", &l[i]);
	if (!n) {
		for (i = 1; i <= n_add && off < sizeof(added); i++) {
			char one[24];

			id_str(&ids[i], one, sizeof(one));
			off += (size_t)snprintf(added + off, sizeof(added) - off,
						", %s", one);
		}
		kh_rt_errbuf(err, errlen,
			     "no PCI function with KohakuAccel's ids (%04x:%04x%s) "
			     "on this machine: is the card seated and powered, "
			     "and was its bitstream loaded before the host "
			     "enumerated the bus? (lspci -d %04x:%04x; after "
			     "loading one, echo 1 > /sys/bus/pci/rescan)",
			     KH_PCI_VENDOR, KH_PCI_DEVICE, added, KH_PCI_VENDOR,
			     KH_PCI_DEVICE);
		free(l);
		l = NULL;
	}
	*list = l;
	*count = n;
	return 0;
}

KH_RT_EXPORT int kohaku_pci_list(const char *match,
				 struct kohaku_pci_entry **list,
				 unsigned int *count, size_t entry_size,
				 char *err, size_t errlen)
{
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!entry_size) {
		kh_rt_errbuf(err, errlen, "kohaku_pci_list: entry_size 0");
		return -EINVAL;
	}
	r = pci_list(match, list, count, err, errlen);
	if (r < 0 || !*list)
		return r;
	/* the caller's stride (kohaku.h "Caller-sized structs") */
	*list = kh_rt_restride(*list, *count, sizeof(**list), entry_size);
	if (!*list) {
		*count = 0;
		kh_rt_errbuf(err, errlen, "kohaku_pci_list: out of memory");
		return -ENOMEM;
	}
	return r;
}

/* libkohaku 0.1's kohaku_pci_list (version node KOHAKU_0) */
int kh_rt_pci_list_v0(const char *match, struct kohaku_pci_entry **list,
		       unsigned int *count, char *err, size_t errlen);
int kh_rt_pci_list_v0(const char *match, struct kohaku_pci_entry **list,
		       unsigned int *count, char *err, size_t errlen)
{
	return kohaku_pci_list(match, list, count, KH_RT_V0_PCI_ENTRY_SIZE,
			       err, errlen);
}
KH_RT_SYMVER(kh_rt_pci_list_v0, kohaku_pci_list, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_pci_list, KOHAKU_0.2);

KH_RT_EXPORT void kohaku_free_pci_list(struct kohaku_pci_entry *list)
{
	free(list);
}

/* ---- in words ---- */

KH_RT_EXPORT const char *kohaku_pci_link_describe(const struct kohaku_pci_entry *e,
						  char *buf, size_t len)
{
	if (!buf || !len)
		return "";
	if (!e || (!e->link_speed[0] && !e->link_width)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if ((e->max_link_speed[0] || e->max_link_width) &&
	    (strcmp(e->link_speed, e->max_link_speed) ||
	     e->link_width != e->max_link_width))
		snprintf(buf, len, "%s x%u (max %s x%u)",
			 e->link_speed[0] ? e->link_speed : "?", e->link_width,
			 e->max_link_speed[0] ? e->max_link_speed : "?",
			 e->max_link_width);
	else
		snprintf(buf, len, "%s x%u",
			 e->link_speed[0] ? e->link_speed : "?", e->link_width);
	return buf;
}

/* 16 MiB, 64 KiB, 3 GiB, 100 B: the largest unit that divides it */
static void size_str(uint64_t s, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (u < 4 && s >= 1024 && !(s % 1024)) {
		s /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long)s, unit[u]);
}

KH_RT_EXPORT const char *kohaku_pci_bars_describe(const struct kohaku_pci_entry *e,
						  char *buf, size_t len)
{
	size_t off = 0;
	int i;

	if (!buf || !len)
		return "";
	buf[0] = '\0';
	for (i = 0; e && i < 6 && off < len; i++) {
		const struct kohaku_pci_bar *b = &e->bar[i];
		char sz[32];
		int k;

		if (!b->size)
			continue;
		size_str(b->size, sz, sizeof(sz));
		k = snprintf(buf + off, len - off, "%sBAR%d %s%s%s%s%s%s", off ? ", " : "",
			     i, sz, b->flags ? " (" : "",
			     b->flags & KOHAKU_PCI_BAR_IO ? "I/O" : "",
			     b->flags & KOHAKU_PCI_BAR_64 ? "64-bit" : "",
			     (b->flags & KOHAKU_PCI_BAR_PREFETCH) &&
			     (b->flags & (KOHAKU_PCI_BAR_IO | KOHAKU_PCI_BAR_64)) ?
			     ", prefetchable" : (b->flags & KOHAKU_PCI_BAR_PREFETCH) ?
			     "prefetchable" : "",
			     b->flags ? ")" : "");
		if (k < 0)
			break;
		off += (size_t)k;
	}
	if (!off)
		snprintf(buf, len, "-");
	return buf;
}
