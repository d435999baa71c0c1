// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The PCI listing (libruntime/pci.c): the id list's syntax, what a fake
 * sysfs tree makes of a function (link, driver, accel node, why it is not
 * usable), the link and BARs in words; then kohaku_pci_list() on this
 * machine's bus: KohakuAccel's ids alone give an empty list (or a card),
 * not an error; a function of this machine added by id is listed as its
 * sysfs describes it, with and without a subsystem, from the argument or
 * KOHAKU_PCI_MATCH; with no /sys/bus/pci (a private mount namespace with
 * an empty /sys) the call fails cleanly.  Independent of the backend: it
 * runs as it is in-process and in the VM (where QEMU's functions are the
 * bus).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kohaku.h"
#include "rt_internal.h"
#include "rt_test.h"

/* ---- the id list ---- */

TEST_F(rt, match_syntax)
{
	struct kh_rt_pci_id ids[KOHAKU_PCI_MATCH_MAX];
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int n = 99;

	CHECK_EQ(kh_rt_pci_parse_match(NULL, "x", ids, 4, &n, err, sizeof(err)), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(kh_rt_pci_parse_match("", "x", ids, 4, &n, err, sizeof(err)), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(kh_rt_pci_parse_match("1234:1111", "x", ids, 4, &n, err,
				       sizeof(err)), 0);
	REQUIRE(n == 1);
	CHECK_EQ(ids[0].vendor, 0x1234);
	CHECK_EQ(ids[0].device, 0x1111);
	CHECK_EQ(ids[0].subvendor, KH_RT_PCI_ANY);
	CHECK_EQ(ids[0].subdevice, KH_RT_PCI_ANY);
	CHECK_EQ(kh_rt_pci_parse_match(" 1234:11e8, 10EE:903f:10ee:7 ,abc:1", "x",
				       ids, 4, &n, err, sizeof(err)), 0);
	REQUIRE(n == 3);
	CHECK_EQ(ids[0].device, 0x11e8);
	CHECK_EQ(ids[1].vendor, 0x10ee);
	CHECK_EQ(ids[1].device, 0x903f);
	CHECK_EQ(ids[1].subvendor, 0x10ee);
	CHECK_EQ(ids[1].subdevice, 0x0007);
	CHECK_EQ(ids[2].vendor, 0xabc);
	CHECK_EQ(ids[2].device, 1);
}

TEST_F(rt, match_refusals)
{
	static const char *const bad[] = {
		"1234", "1234:", ":1111", "12345:1111", "1234:11111",
		"1234:1111:10ee", "1234:1111:10ee:", "1234:1111,", ",1234:1111",
		"1234:1111,,abcd:1", "xyz", "1234:111g", "1234:1111;", "0x1234:1111",
		"1234 1111",
	};
	struct kh_rt_pci_id ids[KOHAKU_PCI_MATCH_MAX];
	char err[KOHAKU_ERRMSG_MAX], many[512] = "";
	unsigned int i, n;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		n = 99;
		CHECK_MSG(kh_rt_pci_parse_match(bad[i], "KOHAKU_PCI_MATCH", ids,
						KOHAKU_PCI_MATCH_MAX, &n, err,
						sizeof(err)) == -EINVAL,
			  "'%s' was taken", bad[i]);
		CHECK_MSG(strstr(err, "KOHAKU_PCI_MATCH='") &&
			  strstr(err, "is not a PCI id") &&
			  strstr(err, "VVVV:DDDD"), "'%s': %s", bad[i], err);
	}
	check_diag("e.g. %s", err);
	for (i = 0; i <= KOHAKU_PCI_MATCH_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 "%s1234:%04x", i ? "," : "", i);
	CHECK_EQ(kh_rt_pci_parse_match(many, "match", ids, KOHAKU_PCI_MATCH_MAX,
				       &n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "more than 16 ids"));
}

/* ---- a fake sysfs tree ---- */

static char root[64];

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static void tree_fini(void)
{
	if (root[0])
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	root[0] = '\0';
}

static bool tree_init(void)
{
	tree_fini();
	snprintf(root, sizeof(root), "/tmp/rt_pci.XXXXXX");
	if (!mkdtemp(root)) {
		root[0] = '\0';
		return false;
	}
	return true;
}

/* mkdir -p ROOT/rel */
static bool mkdirs(const char *rel)
{
	char p[512];
	size_t i, n;

	n = (size_t)snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (i = strlen(root) + 1; i <= n; i++) {
		if (p[i] == '/' || !p[i]) {
			char c = p[i];

			p[i] = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST)
				return false;
			p[i] = c;
		}
	}
	return true;
}

/* ROOT/bus/pci/devices/ADDR/name holding text */
static bool put(const char *addr, const char *name, const char *text)
{
	char dir[256], p[512];
	FILE *f;

	snprintf(dir, sizeof(dir), "bus/pci/devices/%s", addr);
	if (!mkdirs(dir))
		return false;
	snprintf(p, sizeof(p), "%s/%s/%s", root, dir, name);
	f = fopen(p, "w");
	if (!f)
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

/* ROOT/bus/pci/devices/ADDR/driver -> ../../../bus/pci/drivers/DRV */
static bool bind_to(const char *addr, const char *drv)
{
	char d[256], p[512], t[256];

	snprintf(d, sizeof(d), "bus/pci/drivers/%s", drv);
	if (!mkdirs(d))
		return false;
	snprintf(d, sizeof(d), "bus/pci/devices/%s", addr);
	if (!mkdirs(d))
		return false;
	snprintf(p, sizeof(p), "%s/%s/driver", root, d);
	snprintf(t, sizeof(t), "../../../../bus/pci/drivers/%s", drv);
	unlink(p);
	return symlink(t, p) == 0;
}

static void entry(struct kohaku_pci_entry *e, const char *addr,
		  uint16_t vendor, uint16_t device)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->address, sizeof(e->address), "%s", addr);
	e->vendor = vendor;
	e->device = device;
	e->kohaku_ids = vendor == 0x10ee && device == 0x903f;
	e->accel_index = -1;
}

#define A "0000:41:00.0"

TEST_F(rt, sysfs_bound_to_kohaku)
{
	struct kohaku_pci_entry e;
	char link[96], d[256];

	REQUIRE(tree_init());
	REQUIRE(put(A, "current_link_speed", "8.0 GT/s PCIe\n"));
	REQUIRE(put(A, "current_link_width", "16\n"));
	REQUIRE(put(A, "max_link_speed", "8.0 GT/s PCIe\n"));
	REQUIRE(put(A, "max_link_width", "16\n"));
	REQUIRE(bind_to(A, "kohaku"));
	snprintf(d, sizeof(d), "bus/pci/devices/%s/accel/accel3", A);
	REQUIRE(mkdirs(d));
	entry(&e, A, 0x10ee, 0x903f);
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, 0);
	CHECK_MSG(!e.message[0], "%s", e.message);
	CHECK(!strcmp(e.driver, "kohaku"));
	CHECK_EQ(e.accel_index, 3);
	CHECK(!strcmp(e.accel, "/dev/accel/accel3"));
	CHECK(!strcmp(e.link_speed, "8.0 GT/s"));
	CHECK(!strcmp(e.max_link_speed, "8.0 GT/s"));
	CHECK_EQ(e.link_width, 16);
	CHECK_EQ(e.max_link_width, 16);
	kohaku_pci_link_describe(&e, link, sizeof(link));
	CHECK_MSG(!strcmp(link, "8.0 GT/s x16"), "%s", link);

	/* trained down: both are said */
	REQUIRE(put(A, "current_link_speed", "2.5 GT/s PCIe\n"));
	REQUIRE(put(A, "current_link_width", "1\n"));
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, 0);
	kohaku_pci_link_describe(&e, link, sizeof(link));
	CHECK_MSG(!strcmp(link, "2.5 GT/s x1 (max 8.0 GT/s x16)"), "%s", link);
	tree_fini();
}

/* before Linux 6.2 the node is a DRM render node, beside a primary node */
TEST_F(rt, sysfs_bound_to_kohaku_render_node)
{
	struct kohaku_pci_entry e;
	char d[256];

	REQUIRE(tree_init());
	REQUIRE(bind_to(A, "kohaku"));
	snprintf(d, sizeof(d), "bus/pci/devices/%s/drm/card1", A);
	REQUIRE(mkdirs(d));
	snprintf(d, sizeof(d), "bus/pci/devices/%s/drm/renderD129", A);
	REQUIRE(mkdirs(d));
	entry(&e, A, 0x10ee, 0x903f);
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, 0);
	CHECK_MSG(!e.message[0], "%s", e.message);
	CHECK_EQ(e.accel_index, 129);
	CHECK_MSG(!strcmp(e.accel, "/dev/dri/renderD129"), "%s", e.accel);
	tree_fini();
}

TEST_F(rt, sysfs_no_driver)
{
	struct kohaku_pci_entry e;
	char link[96];

	REQUIRE(tree_init());
	REQUIRE(put(A, "vendor", "0x10ee\n"));	/* no link files: not PCIe */
	entry(&e, A, 0x10ee, 0x903f);
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, -ENODEV);
	CHECK(!e.driver[0]);
	CHECK_EQ(e.accel_index, -1);
	CHECK(!e.accel[0]);
	CHECK_MSG(!strcmp(e.message, "no driver bound: modprobe kohaku"), "%s",
		  e.message);
	CHECK(!e.link_speed[0] && !e.link_width && !e.max_link_width);
	kohaku_pci_link_describe(&e, link, sizeof(link));
	CHECK(!strcmp(link, "-"));

	/* kohaku.ko loaded, yet not bound: it refused, or was unbound */
	REQUIRE(mkdirs("bus/pci/drivers/kohaku"));
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, -ENODEV);
	CHECK_MSG(strstr(e.message, "kohaku.ko is loaded") &&
		  strstr(e.message, "dmesg | grep " A) &&
		  strstr(e.message, "echo " A " > /sys/bus/pci/drivers/kohaku/bind"),
		  "%s", e.message);

	/* an added id: kohaku.ko needs new_id for it */
	entry(&e, A, 0x1234, 0x1111);
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, -ENODEV);
	CHECK_MSG(strstr(e.message, "binds only 10ee:903f") &&
		  strstr(e.message, "echo '1234 1111' > /sys/bus/pci/drivers/kohaku/new_id") &&
		  !strstr(e.message, "modprobe"), "%s", e.message);
	tree_fini();
	REQUIRE(tree_init());
	kh_rt_pci_sysfs(root, &e);
	CHECK_MSG(strstr(e.message, "modprobe kohaku, then echo '1234 1111'"),
		  "%s", e.message);
	tree_fini();
}

TEST_F(rt, sysfs_other_driver)
{
	static const char *const drv[] = {
		"vfio-pci", "pci-stub", "xdma", "a-driver-with-a-long-name-30c",
	};
	struct kohaku_pci_entry e;
	unsigned int i;

	for (i = 0; i < sizeof(drv) / sizeof(drv[0]); i++) {
		REQUIRE(tree_init());
		REQUIRE(bind_to(A, drv[i]));
		entry(&e, A, 0x10ee, 0x903f);
		kh_rt_pci_sysfs(root, &e);
		CHECK_EQ(e.status, -EBUSY);
		CHECK(!strcmp(e.driver, drv[i]));
		/* the whole recipe fits, up to its last word */
		CHECK_MSG(strstr(e.message, "bound to ") &&
			  strstr(e.message, drv[i]) &&
			  strstr(e.message, "not kohaku") &&
			  strstr(e.message, "/unbind") &&
			  strstr(e.message, "driver_override") &&
			  strstr(e.message, "> /sys/bus/pci/drivers_probe"),
			  "%s", e.message);
		check_diag("%s: %s", drv[i], e.message);
		tree_fini();
	}
}

TEST_F(rt, sysfs_kohaku_without_node)
{
	struct kohaku_pci_entry e;

	REQUIRE(tree_init());
	REQUIRE(bind_to(A, "kohaku"));
	entry(&e, A, 0x10ee, 0x903f);
	kh_rt_pci_sysfs(root, &e);
	CHECK_EQ(e.status, -ENOENT);
	CHECK(!strcmp(e.driver, "kohaku"));
	CHECK_MSG(strstr(e.message, "no accel node"), "%s", e.message);
	tree_fini();
}

TEST_F(rt, bars_in_words)
{
	struct kohaku_pci_entry e;
	char buf[256], small[12];

	entry(&e, A, 0x10ee, 0x903f);
	kohaku_pci_bars_describe(&e, buf, sizeof(buf));
	CHECK(!strcmp(buf, "-"));
	e.bar[0].size = 16u << 20;
	e.bar[2].size = 64u << 10;
	e.bar[2].flags = KOHAKU_PCI_BAR_64 | KOHAKU_PCI_BAR_PREFETCH;
	e.bar[4].size = 256;
	e.bar[4].flags = KOHAKU_PCI_BAR_IO;
	e.bar[5].size = 3ull << 30;
	e.bar[5].flags = KOHAKU_PCI_BAR_PREFETCH;
	kohaku_pci_bars_describe(&e, buf, sizeof(buf));
	CHECK_MSG(!strcmp(buf, "BAR0 16 MiB, BAR2 64 KiB (64-bit, prefetchable), "
			  "BAR4 256 B (I/O), BAR5 3 GiB (prefetchable)"), "%s", buf);
	kohaku_pci_bars_describe(&e, small, sizeof(small));
	CHECK(strlen(small) < sizeof(small));
	CHECK(!strcmp(kohaku_pci_bars_describe(&e, buf, 0), ""));
	CHECK(!strcmp(kohaku_pci_link_describe(NULL, buf, sizeof(buf)), "-"));
}

/* ---- this machine's bus ---- */

TEST_F(rt, host_kohaku_ids)
{
	struct kohaku_pci_entry *l = (void *)1;
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int n = 99, i;
	int r;

	r = kohaku_pci_list("", &l, &n, sizeof(*l), err, sizeof(err));
	if (r < 0) {
		/* no PCI access here: a clean error, nothing listed */
		check_diag("no PCI access: %d %s", r, err);
		CHECK(err[0]);
		CHECK(l == NULL);
		CHECK_EQ(n, 0);
		return;
	}
	check_diag("%u KohakuAccel function%s; %s", n, n == 1 ? "" : "s", err);
	if (!n) {
		CHECK(l == NULL);
		CHECK_MSG(strstr(err, "no PCI function with KohakuAccel's ids "
				 "(10ee:903f)"), "%s", err);
	}
	for (i = 0; i < n; i++) {
		CHECK(l[i].kohaku_ids);
		CHECK(l[i].vendor == 0x10ee && l[i].device == 0x903f);
		CHECK(l[i].status == 0 || l[i].message[0]);
		check_diag("%s: driver '%s' %s", l[i].address, l[i].driver,
			 l[i].message);
	}
	kohaku_free_pci_list(l);
}

/* a function of this machine, as sysfs describes it */
struct host_fn {
	char addr[256];
	unsigned int vendor, device, subvendor, subdevice, revision, class_code;
	char driver[64];
	unsigned long long bar[6];
	bool link;
	unsigned int width;
};

static unsigned int attr_hex(const char *addr, const char *name)
{
	char p[256], buf[64] = "";
	FILE *f;

	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/%s", addr, name);
	f = fopen(p, "r");
	if (!f)
		return ~0u;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return (unsigned int)strtoul(buf, NULL, 0);
}

static bool host_first_fn(struct host_fn *h)
{
	char p[512], link[256];
	struct dirent *de;
	FILE *f;
	DIR *d = opendir("/sys/bus/pci/devices");
	ssize_t k;
	int i;

	memset(h, 0, sizeof(*h));
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' &&
		    (!h->addr[0] || strcmp(de->d_name, h->addr) < 0))
			memcpy(h->addr, de->d_name, sizeof(h->addr));
	if (d)
		closedir(d);
	if (!h->addr[0])
		return false;
	h->vendor = attr_hex(h->addr, "vendor");
	h->device = attr_hex(h->addr, "device");
	h->subvendor = attr_hex(h->addr, "subsystem_vendor");
	h->subdevice = attr_hex(h->addr, "subsystem_device");
	h->revision = attr_hex(h->addr, "revision");
	h->class_code = attr_hex(h->addr, "class");
	h->width = attr_hex(h->addr, "current_link_width");
	h->link = h->width != ~0u;
	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/driver", h->addr);
	k = readlink(p, link, sizeof(link) - 1);
	if (k > 0) {
		link[k] = '\0';
		snprintf(h->driver, sizeof(h->driver), "%s", strrchr(link, '/') + 1);
	}
	snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/resource", h->addr);
	f = fopen(p, "r");
	for (i = 0; f && i < 6; i++) {
		unsigned long long s, e, fl;

		if (fscanf(f, "%llx %llx %llx", &s, &e, &fl) != 3)
			break;
		h->bar[i] = s ? e - s + 1 : 0;
	}
	if (f)
		fclose(f);
	return true;
}

static const struct kohaku_pci_entry *find(const struct kohaku_pci_entry *l,
					   unsigned int n, const char *addr)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(l[i].address, addr))
			return &l[i];
	return NULL;
}

TEST_F(rt, host_function_by_id)
{
	struct kohaku_pci_entry *l = NULL;
	const struct kohaku_pci_entry *e;
	char err[KOHAKU_ERRMSG_MAX], match[64], link[96], bars[256];
	struct host_fn h;
	unsigned int n, i;
	int r;

	if (!host_first_fn(&h))
		SKIP(return, "no function under /sys/bus/pci/devices");
	snprintf(match, sizeof(match), "%04x:%04x", h.vendor, h.device);
	r = kohaku_pci_list(match, &l, &n, sizeof(*l), err, sizeof(err));
	REQUIRE(r == 0);
	e = find(l, n, h.addr);
	CHECK_MSG(e, "%s (%s) not listed", h.addr, match);
	if (e) {
		check_diag("%s %04x:%04x sub %04x:%04x rev %02x class %06x link %s, "
			 "%s, driver '%s': %s", e->address, e->vendor, e->device,
			 e->subvendor, e->subdevice, e->revision, e->class_code,
			 kohaku_pci_link_describe(e, link, sizeof(link)),
			 kohaku_pci_bars_describe(e, bars, sizeof(bars)),
			 e->driver, e->message);
		CHECK_EQ(e->vendor, h.vendor);
		CHECK_EQ(e->device, h.device);
		CHECK_EQ(e->subvendor, h.subvendor);
		CHECK_EQ(e->subdevice, h.subdevice);
		CHECK_EQ(e->revision, h.revision);
		CHECK_EQ(e->class_code, h.class_code);
		CHECK_EQ(e->kohaku_ids, h.vendor == 0x10ee && h.device == 0x903f);
		CHECK_MSG(!strcmp(e->driver, h.driver), "'%s' '%s'", e->driver,
			  h.driver);
		for (i = 0; i < 6; i++)
			CHECK_EQ(e->bar[i].size, h.bar[i]);
		CHECK_EQ(e->link_width, h.link ? h.width : 0);
		CHECK(e->status != 0 || !strcmp(e->driver, "kohaku"));
		CHECK(e->status == 0 || e->message[0]);
		CHECK_EQ(e->domain, strtoul(h.addr, NULL, 16));
	}
	for (i = 0; i < n; i++) {
		CHECK(l[i].vendor == h.vendor || l[i].kohaku_ids);
		CHECK(i == 0 || strcmp(l[i - 1].address, l[i].address) < 0);
	}
	kohaku_free_pci_list(l);

	/* with its subsystem; and with another subsystem, not */
	snprintf(match, sizeof(match), "%04x:%04x:%04x:%04x", h.vendor, h.device,
		 h.subvendor, h.subdevice);
	REQUIRE(kohaku_pci_list(match, &l, &n, sizeof(*l), err, sizeof(err)) == 0);
	CHECK_MSG(find(l, n, h.addr), "%s not listed by %s", h.addr, match);
	kohaku_free_pci_list(l);
	snprintf(match, sizeof(match), "%04x:%04x:%04x:%04x", h.vendor, h.device,
		 h.subvendor ^ 0x5a5a, h.subdevice);
	REQUIRE(kohaku_pci_list(match, &l, &n, sizeof(*l), err, sizeof(err)) == 0);
	CHECK_MSG(!find(l, n, h.addr), "%s listed by %s", h.addr, match);
	kohaku_free_pci_list(l);

	/* from KOHAKU_PCI_MATCH, listed once even when named twice */
	snprintf(match, sizeof(match), "%04x:%04x,%04x:%04x", h.vendor, h.device,
		 h.vendor, h.device);
	setenv("KOHAKU_PCI_MATCH", match, 1);
	r = kohaku_pci_list(NULL, &l, &n, sizeof(*l), err, sizeof(err));
	unsetenv("KOHAKU_PCI_MATCH");
	REQUIRE(r == 0);
	CHECK(find(l, n, h.addr));
	for (i = 1; i < n; i++)
		CHECK(strcmp(l[i - 1].address, l[i].address) < 0);
	kohaku_free_pci_list(l);
}

TEST_F(rt, bad_arguments)
{
	struct kohaku_pci_entry *l = (void *)1;
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int n = 99;

	CHECK_EQ(kohaku_pci_list("zz", &l, &n, sizeof(*l), err, sizeof(err)), -EINVAL);
	CHECK(l == NULL && n == 0);
	CHECK_MSG(strstr(err, "match='zz'"), "%s", err);
	setenv("KOHAKU_PCI_MATCH", "1:2:3", 1);
	CHECK_EQ(kohaku_pci_list(NULL, &l, &n, sizeof(*l), err, sizeof(err)), -EINVAL);
	unsetenv("KOHAKU_PCI_MATCH");
	CHECK_MSG(strstr(err, "KOHAKU_PCI_MATCH='1:2:3'"), "%s", err);
	CHECK_EQ(kohaku_pci_list("", NULL, &n, 0, err, sizeof(err)), -EINVAL);
	CHECK_EQ(kohaku_pci_list("", &l, NULL, sizeof(*l), NULL, 0), -EINVAL);
	kohaku_free_pci_list(NULL);
}

/*
 * No /sys/bus/pci: the test's own process (the harness forks one per test)
 * in a mount namespace of its own, with an empty tmpfs on /sys (root only;
 * skipped where unshare is refused).
 */
TEST_F(rt, no_pci_access)
{
	struct kohaku_pci_entry *l = (void *)1;
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int n = 99;

	if (unshare(CLONE_NEWNS) < 0 ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("none", "/sys", "tmpfs", 0, NULL) < 0)
		SKIP(return, "no private mount namespace here (not root?)");
	CHECK_EQ(kohaku_pci_list("", &l, &n, sizeof(*l), err, sizeof(err)), -ENOENT);
	CHECK(l == NULL && n == 0);
	CHECK_MSG(strstr(err, "sysfs is not mounted"), "%s", err);
	check_diag("no /sys/bus: %s", err);
	CHECK(mkdir("/sys/bus", 0755) == 0);
	CHECK_EQ(kohaku_pci_list("1234:1111", &l, &n, sizeof(*l), err, sizeof(err)),
		 -ENOENT);
	CHECK_MSG(strstr(err, "/sys/bus/pci/devices does not exist"),
		  "%s", err);
	check_diag("no /sys/bus/pci: %s", err);
}

/* libpciaccess's state is process-wide: concurrent calls are serialised */
static void *lister(void *arg)
{
	const char *match = arg;
	struct kohaku_pci_entry *l;
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int n, first = ~0u;
	long bad = 0;
	int i;

	for (i = 0; i < 20; i++) {
		if (kohaku_pci_list(match, &l, &n, sizeof(*l), err, sizeof(err)) < 0) {
			bad++;
			continue;
		}
		if (first == ~0u)
			first = n;
		else if (n != first)
			bad++;
		kohaku_free_pci_list(l);
	}
	return (void *)bad;
}

TEST_F(rt, threads)
{
	struct host_fn h;
	char match[32];
	pthread_t t[4];
	void *bad;
	int i;

	if (!host_first_fn(&h))
		SKIP(return, "no function under /sys/bus/pci/devices");
	snprintf(match, sizeof(match), "%04x:%04x", h.vendor, h.device);
	for (i = 0; i < 4; i++)
		REQUIRE(pthread_create(&t[i], NULL, lister, match) == 0);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &bad);
		CHECK_EQ((long)bad, 0);
	}
}

RT_TEST_MAIN_NO_DEVICE
