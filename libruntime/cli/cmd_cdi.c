// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku cdi: a Container Device Interface spec for the kohaku cards of
 * this machine, for /etc/cdi (podman, containerd and CRI-O read it;
 * docs/runtime.md "Containers: kohaku cdi").
 *
 * The spec (CDI's SPEC.md and schema/schema.json,
 * github.com/cncf-tags/container-device-interface): cdiVersion, kind and
 * devices are required, and devices must have at least one entry, each
 * with a name and containerEdits; a deviceNode needs its path.  Here:
 *   cdiVersion "0.5.0"  the lowest version with what the spec uses (a
 *                       device name may begin with a digit from 0.5.0 on;
 *                       CDI's rule is the minimum required version), and
 *                       the newest Debian 12's podman 4.3.1 accepts (its
 *                       CDI library, 0.5.2, refuses 0.6.0 and later)
 *   kind "kohaku.io/card"
 *   devices             one per node of kohaku.ko, named N as --device N
 *                       names it (/dev/accel/accelN; before Linux 6.2 the
 *                       render node /dev/dri/renderDN), and "all"
 *   deviceNodes         path, type "c", major and minor (sysfs' dev), and
 *                       the udev rule's group and mode
 *                       (packaging/udev/70-kohaku.rules: GROUP="kohaku",
 *                       MODE="0660"): gid when the group exists here
 *
 * The nodes are found in sysfs, not by opening them: a node of
 * /sys/class/accel (or a renderD node of /sys/class/drm) whose device's
 * driver is kohaku, the PCI function or kohaku_sim platform device
 * kohaku.ko bound, as the udev rule matches them.  Generating the spec
 * needs no access to the nodes (no kohaku group, a card busy with a job).
 * KOHAKU_TEST_SYSFS, for tests only, reads a tree of that shape in place
 * of /sys (scripts/check-cdi.sh); the /dev nodes are then not looked at.
 *
 * No kohaku node: the command fails (exit 3, and why), writing nothing,
 * since CDI has no valid spec without a device.  -o FILE is written
 * whole or not at all: a temporary file beside it, renamed over it once
 * every byte reached the disk; any write error fails the command (exit 2).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"

#define CDI_VERSION	"0.5.0"
#define CDI_KIND	"kohaku.io/card"
/* packaging/udev/70-kohaku.rules: GROUP="kohaku", MODE="0660" */
#define CDI_GROUP	"kohaku"
#define CDI_MODE	0660
#define CDI_DRIVER	"kohaku"
#define CDI_MAX		256

struct kohaku_cli_cdi_node {
	int index;			/* N of accelN, renderDN */
	char path[96];			/* /dev/accel/accelN */
	unsigned int major, minor;
};

static int cdi_cmp(const void *a, const void *b)
{
	const struct kohaku_cli_cdi_node *x = a, *y = b;

	return x->index - y->index;
}

/* the basename of the link at path is want */
static bool cdi_link_is(const char *path, const char *want)
{
	char link[512];
	const char *base;
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n <= 0)
		return false;
	link[n] = '\0';
	base = strrchr(link, '/');
	return !strcmp(base ? base + 1 : link, want);
}

/* a small sysfs file's first line into buf; false when unreadable */
static bool cdi_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* DEVNAME= of a class device's uevent ("accel/accel0"), or "" */
static void cdi_devname(const char *dir, char *buf, size_t len)
{
	char path[640], line[256];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/uevent", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "DEVNAME=", 8) && line[8] &&
		    strlen(line + 8) < len && !strstr(line, "..")) {
			memcpy(buf, line + 8, strlen(line + 8) + 1);
			break;
		}
	}
	fclose(f);
}

/*
 * kohaku's nodes of one class (sysfs root's class/accel, or class/drm's
 * renderD nodes) into nd; counts *n, *other (nodes of other drivers)
 */
static int cdi_scan(const char *root, const char *cls, const char *prefix,
		    const char *devdir, struct kohaku_cli_cdi_node *nd,
		    unsigned int *n, unsigned int *other)
{
	char dir[512], path[600], val[64], devname[128];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/%s", root, cls);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t pl = strlen(prefix);
		unsigned int ma, mi;
		char *end;
		long idx;

		if (strncmp(de->d_name, prefix, pl) || !de->d_name[pl])
			continue;
		idx = strtol(de->d_name + pl, &end, 10);
		if (*end || idx < 0 || idx > 0xfffff)
			continue;
		snprintf(path, sizeof(path), "%s/%.32s/device/driver", dir,
			 de->d_name);
		if (!cdi_link_is(path, CDI_DRIVER)) {
			(*other)++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%.32s/dev", dir, de->d_name);
		if (!cdi_read(path, val, sizeof(val)) ||
		    sscanf(val, "%u:%u", &ma, &mi) != 2) {
			fprintf(stderr, "%s: cdi: warning: %s: no major:minor; "
				"node skipped\n", CLI_PROG, path);
			continue;
		}
		if (*n == CDI_MAX)
			break;
		snprintf(path, sizeof(path), "%s/%.32s", dir, de->d_name);
		cdi_devname(path, devname, sizeof(devname));
		nd[*n].index = (int)idx;
		nd[*n].major = ma;
		nd[*n].minor = mi;
		if (devname[0])
			snprintf(nd[*n].path, sizeof(nd[*n].path), "/dev/%.80s",
				 devname);
		else
			snprintf(nd[*n].path, sizeof(nd[*n].path), "%s/%.32s",
				 devdir, de->d_name);
		(*n)++;
	}
	closedir(d);
	return 0;
}

/* the real node against sysfs' word and the udev rule: warnings only */
static void cdi_check_dev(const struct kohaku_cli_cdi_node *c,
			  const struct group *g)
{
	struct stat st;

	if (stat(c->path, &st) < 0) {
		fprintf(stderr, "%s: cdi: warning: %s: %s (a container runtime "
			"that bind-mounts the node, rootless podman, needs it)\n",
			CLI_PROG, c->path, strerror(errno));
		return;
	}
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != c->major ||
	    minor(st.st_rdev) != c->minor) {
		fprintf(stderr, "%s: cdi: warning: %s is not the character "
			"device %u:%u sysfs names\n", CLI_PROG, c->path,
			c->major, c->minor);
		return;
	}
	if ((st.st_mode & 07777) != CDI_MODE || !g || st.st_gid != g->gr_gid)
		fprintf(stderr, "%s: cdi: warning: %s is mode %04o group %u "
			"here, not the udev rule's %04o group " CDI_GROUP
			" (is 70-kohaku.rules installed? make install-udev; "
			"docs/linux.md)\n", CLI_PROG, c->path,
			(unsigned int)(st.st_mode & 07777),
			(unsigned int)st.st_gid, CDI_MODE);
}

static struct json_object *cdi_node_json(const struct kohaku_cli_cdi_node *c,
					 const struct group *g)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "path", json_object_new_string(c->path));
	json_object_object_add(j, "type", json_object_new_string("c"));
	json_object_object_add(j, "major", json_object_new_int64(c->major));
	json_object_object_add(j, "minor", json_object_new_int64(c->minor));
	json_object_object_add(j, "fileMode", json_object_new_int(CDI_MODE));
	if (g)
		json_object_object_add(j, "gid",
				       json_object_new_int64(g->gr_gid));
	return j;
}

static struct json_object *cdi_device(const char *name,
				      struct json_object *nodes)
{
	struct json_object *d = json_object_new_object();
	struct json_object *e = json_object_new_object();

	json_object_object_add(e, "deviceNodes", nodes);
	json_object_object_add(d, "name", json_object_new_string(name));
	json_object_object_add(d, "containerEdits", e);
	return d;
}

/*
 * text to a path that is no regular file (/dev/stdout, a FIFO, /dev/full):
 * written in place, never replaced; every error said
 */
static int cdi_write_inplace(const char *path, const char *text)
{
	size_t tl = strlen(text);
	FILE *f = fopen(path, "w");
	int e = 0;

	if (!f) {
		cli_error("-o/--output: cannot open '%s': %s", path,
			  strerror(errno));
		return EXIT_USAGE;
	}
	errno = 0;
	if (fwrite(text, 1, tl, f) != tl || fflush(f) == EOF)
		e = errno ? errno : EIO;
	if (fclose(f) == EOF && !e)
		e = errno;
	if (e)
		cli_error("-o/--output: writing '%s' failed: %s", path,
			  strerror(e));
	return e ? EXIT_USAGE : EXIT_OK;
}

/*
 * text to path whole or not at all: a temporary file beside it, synced,
 * then renamed over it (a runtime watching /etc/cdi never reads half a
 * spec); a symlink or a path that is no regular file is written in place
 */
static int cdi_write_file(const char *path, const char *text)
{
	size_t len = strlen(path), tl = strlen(text);
	const char *what = "writing";
	struct stat st;
	int fd, e = 0;
	char *tmp;
	FILE *f;

	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		return cdi_write_inplace(path, text);
	tmp = malloc(len + 16);
	if (!tmp) {
		cli_error("cdi: out of memory");
		return EXIT_USAGE;
	}
	snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		cli_error("-o/--output: cannot write '%s' (a temporary file "
			  "beside it: %s)", path, strerror(errno));
		free(tmp);
		return EXIT_USAGE;
	}
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
	} else {
		errno = 0;
		if (fwrite(text, 1, tl, f) != tl || fflush(f) == EOF)
			e = errno ? errno : EIO;
		else if (fchmod(fd, 0644) < 0 || fsync(fd) < 0)
			e = errno, what = "syncing";
		if (fclose(f) == EOF && !e)
			e = errno;
		if (!e && rename(tmp, path) < 0)
			e = errno, what = "renaming the temporary file over";
	}
	if (e) {
		unlink(tmp);
		cli_error("-o/--output: %s '%s' failed: %s; it was left as it "
			  "was", what, path, strerror(e));
	}
	free(tmp);
	return e ? EXIT_USAGE : EXIT_OK;
}

int cli_cmd_cdi(const struct kohaku_cli_opts *o)
{
	const char *test_root = getenv("KOHAKU_TEST_SYSFS");
	const char *root = test_root && *test_root ? test_root : "/sys";
	struct kohaku_cli_cdi_node nd[CDI_MAX];
	struct json_object *spec, *devs, *all;
	unsigned int n = 0, other = 0, i;
	const struct group *g;
	int ra, rd, r;
	char name[16];

	ra = cdi_scan(root, "accel", "accel", "/dev/accel", nd, &n, &other);
	rd = cdi_scan(root, "drm", "renderD", "/dev/dri", nd, &n, &other);
	if (!n) {
		/* one message: --json's error object keeps the last */
		if (ra < 0 && rd < 0)
			cli_error("cdi: no kohaku device: %s/class/accel and "
				  "%s/class/drm do not exist (no DRM driver is "
				  "loaded: modprobe kohaku); a CDI spec needs at "
				  "least one device: nothing was written", root,
				  root);
		else
			cli_error("cdi: no kohaku device: no node in "
				  "%s/class/accel (nor a render node in "
				  "%s/class/drm) is kohaku.ko's%s: is kohaku.ko "
				  "loaded and bound to a card? (kohaku list says "
				  "why; dmesg); a CDI spec needs at least one "
				  "device: nothing was written", root, root,
				  other ? " (only other drivers' nodes)" : "");
		return EXIT_NODEV;
	}
	qsort(nd, n, sizeof(nd[0]), cdi_cmp);
	g = getgrnam(CDI_GROUP);
	if (!g)
		fprintf(stderr, "%s: cdi: warning: no group " CDI_GROUP " here "
			"(groupadd -r " CDI_GROUP "): the spec gives the nodes "
			"no gid\n", CLI_PROG);
	if (!test_root || !*test_root)
		for (i = 0; i < n; i++)
			cdi_check_dev(&nd[i], g);

	spec = json_object_new_object();
	devs = json_object_new_array();
	all = json_object_new_array();
	json_object_object_add(spec, "cdiVersion",
			       json_object_new_string(CDI_VERSION));
	json_object_object_add(spec, "kind", json_object_new_string(CDI_KIND));
	for (i = 0; i < n; i++) {
		struct json_object *one = json_object_new_array();

		json_object_array_add(one, cdi_node_json(&nd[i], g));
		json_object_array_add(all, cdi_node_json(&nd[i], g));
		snprintf(name, sizeof(name), "%d", nd[i].index);
		json_object_array_add(devs, cdi_device(name, one));
	}
	json_object_array_add(devs, cdi_device("all", all));
	json_object_object_add(spec, "devices", devs);

	if (o->output) {
		char *text = NULL;
		const char *s = json_object_to_json_string_ext(spec,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE);
		size_t sl = strlen(s);

		text = malloc(sl + 2);
		if (!text) {
			json_object_put(spec);
			cli_error("cdi: out of memory");
			return EXIT_USAGE;
		}
		memcpy(text, s, sl);
		text[sl] = '\n';
		text[sl + 1] = '\0';
		r = cdi_write_file(o->output, text);
		free(text);
	} else {
		printf("%s\n", json_object_to_json_string_ext(spec,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
		r = EXIT_OK;
	}
	json_object_put(spec);
	/* with -o, what was written (stdout is the spec itself) */
	if (r == EXIT_OK && o->output) {
		fprintf(stderr, "%s: cdi: %s: kind " CDI_KIND ", devices",
			CLI_PROG, o->output);
		for (i = 0; i < n; i++)
			fprintf(stderr, " %d", nd[i].index);
		fprintf(stderr, " all\n");
	}
	return r;
}
