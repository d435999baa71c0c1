// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku --version: the tool's version, libkohaku's (the one running,
 * kohaku_version(); the tree's one version, so the same as the tool's when
 * it is linked with libkohaku.a), the driver ABI it was built with, first
 * on one line, "kohaku 0.2.0 (libkohaku 0.2.0), driver ABI 0.9", and, when
 * the device the options name opens, what it runs: the backend and path,
 * GET_INFO's ABI and name, the DRM driver's name, version and date
 * (drmGetVersion, kernel backend), and the POOL units' firmware.  When no
 * device opens it says why and still exits 0.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <xf86drm.h>

#include "cli.h"
#include "kohaku/kh_fw.h"

/* what drmGetVersion says of the node (the kernel backend only) */
struct kohaku_cli_drv {
	bool have;
	char name[64], date[64], desc[128];
	int major, minor, patch;
};

static void cli_drv_read(kohaku_device *dev, struct kohaku_cli_drv *d)
{
	int fd = kohaku_device_fd(dev);
	drmVersionPtr v;

	memset(d, 0, sizeof(*d));
	if (fd < 0)
		return;
	v = drmGetVersion(fd);
	if (!v)
		return;
	d->have = true;
	snprintf(d->name, sizeof(d->name), "%.*s", v->name_len,
		 v->name ? v->name : "");
	snprintf(d->date, sizeof(d->date), "%.*s", v->date_len,
		 v->date ? v->date : "");
	snprintf(d->desc, sizeof(d->desc), "%.*s", v->desc_len,
		 v->desc ? v->desc : "");
	d->major = v->version_major;
	d->minor = v->version_minor;
	d->patch = v->version_patchlevel;
	drmFreeVersion(v);
}

static void cli_version_text(kohaku_device *dev, const char *err)
{
	struct drm_kohaku_get_info in;
	struct kohaku_cli_drv d;
	struct kohaku_fw_info fw;

	/* each number named for what it is: tool, library, driver ABI */
	printf("kohaku %s (libkohaku %s), driver ABI %u.%u\n", CLI_VERSION,
	       kohaku_version(), KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
	printf("kohaku     %s (this tool)\n", CLI_VERSION);
	printf("libkohaku  %s (the library running; its header %s)\n",
	       kohaku_version(), CLI_VERSION);
	printf("abi        %u.%u (the driver ABI libkohaku was built with)\n",
	       KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
	if (!dev) {
		printf("device     none: %s\n", err);
		return;
	}
	kohaku_get_info(dev, &in, sizeof(in));
	printf("device     %s (%s backend)\n", kohaku_device_path(dev),
	       kohaku_backend_name(kohaku_device_backend(dev)));
	printf("driver abi %u.%u, name %s\n",
	       KOHAKU_ABI_VERSION_MAJOR(in.abi_version),
	       KOHAKU_ABI_VERSION_MINOR(in.abi_version), in.name);
	cli_drv_read(dev, &d);
	if (d.have)
		printf("driver     %s %d.%d.%d (%s)%s%s\n", d.name, d.major,
		       d.minor, d.patch, d.date[0] ? d.date : "no date",
		       d.desc[0] ? ": " : "", d.desc);
	else
		printf("driver     in-process (libkohaku's driver core and "
		       "device model)\n");
	if (kohaku_fw_info(dev, &fw, sizeof(fw)) || !fw.units)
		return;
	printf("firmware   %s: version %u.%u.%u, api %u.%u (driver %u.%u), "
	       "%u of %u POOL units running\n",
	       fw.fw_version ? "loaded" : "none",
	       KH_FW_VERSION_MAJOR(fw.fw_version),
	       KH_FW_VERSION_MINOR(fw.fw_version),
	       KH_FW_VERSION_PATCH(fw.fw_version), fw.fw_api >> 16, fw.fw_api & 0xffff, fw.driver_api >> 16,
	       fw.driver_api & 0xffff, fw.running, fw.units);
	if (fw.status[0])
		printf("           %s\n", fw.status);
}

/* a version string: "%u.%u" or "%u.%u.%u" */
static struct json_object *cli_version_str(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static struct json_object *cli_version_str(const char *fmt, ...)
{
	char v[48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	return json_object_new_string(v);
}

static struct json_object *cli_version_json_dev(kohaku_device *dev)
{
	struct json_object *j = json_object_new_object(), *dj, *fj;
	struct drm_kohaku_get_info in;
	struct kohaku_cli_drv d;
	struct kohaku_fw_info fw;

	kohaku_get_info(dev, &in, sizeof(in));
	json_object_object_add(j, "path",
			       json_object_new_string(kohaku_device_path(dev)));
	json_object_object_add(j, "backend", json_object_new_string(
		kohaku_backend_name(kohaku_device_backend(dev))));
	json_object_object_add(j, "name", json_object_new_string(in.name));
	json_object_object_add(j, "abi_version", cli_version_str("%u.%u",
		KOHAKU_ABI_VERSION_MAJOR(in.abi_version),
		KOHAKU_ABI_VERSION_MINOR(in.abi_version)));
	cli_drv_read(dev, &d);
	dj = json_object_new_object();
	if (d.have) {
		json_object_object_add(dj, "name", json_object_new_string(d.name));
		json_object_object_add(dj, "version", cli_version_str(
			"%u.%u.%u", (unsigned int)d.major,
			(unsigned int)d.minor, (unsigned int)d.patch));
		json_object_object_add(dj, "date", json_object_new_string(d.date));
		json_object_object_add(dj, "desc", json_object_new_string(d.desc));
	} else {
		json_object_object_add(dj, "name",
				       json_object_new_string("in-process"));
	}
	json_object_object_add(j, "driver", dj);
	if (kohaku_fw_info(dev, &fw, sizeof(fw)) || !fw.units) {
		json_object_object_add(j, "firmware", NULL);
		return j;
	}
	fj = json_object_new_object();
	json_object_object_add(fj, "units", json_object_new_int64(fw.units));
	json_object_object_add(fj, "running", json_object_new_int64(fw.running));
	json_object_object_add(fj, "version", cli_version_str("%u.%u.%u",
		KH_FW_VERSION_MAJOR(fw.fw_version),
		KH_FW_VERSION_MINOR(fw.fw_version),
		KH_FW_VERSION_PATCH(fw.fw_version)));
	json_object_object_add(fj, "api", cli_version_str("%u.%u",
		fw.fw_api >> 16, fw.fw_api & 0xffff));
	json_object_object_add(fj, "driver_api", cli_version_str("%u.%u",
		fw.driver_api >> 16, fw.driver_api & 0xffff));
	json_object_object_add(fj, "status", json_object_new_string(fw.status));
	json_object_object_add(j, "firmware", fj);
	return j;
}

static void cli_version_json(kohaku_device *dev, const char *err)
{
	struct json_object *j = json_object_new_object();

	json_object_object_add(j, "kohaku", json_object_new_string(CLI_VERSION));
	json_object_object_add(j, "libkohaku",
			       json_object_new_string(kohaku_version()));
	json_object_object_add(j, "abi", cli_version_str("%u.%u",
		KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR));
	if (dev) {
		json_object_object_add(j, "device", cli_version_json_dev(dev));
	} else {
		json_object_object_add(j, "device", NULL);
		json_object_object_add(j, "device_error",
				       json_object_new_string(err));
	}
	cli_json_print(j);
}

int cli_cmd_version(const struct kohaku_cli_opts *o)
{
	char err[KOHAKU_ERRMSG_MAX] = "";
	enum kohaku_backend b = o->map ? cli_map_backend(o) : o->backend;
	kohaku_device *dev = NULL;

	if (kohaku_open(b, o->map ? o->map : o->device, &dev, err,
			sizeof(err)) < 0)
		dev = NULL;
	if (o->json)
		cli_version_json(dev, err);
	else
		cli_version_text(dev, err);
	kohaku_close(dev);
	return EXIT_OK;
}
