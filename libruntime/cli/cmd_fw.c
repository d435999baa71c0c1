// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kohaku fw info: the firmware the POOL units run, unit by unit, and what
 * the host's own load at bind or open came to.
 * kohaku fw load FILE [--mailbox]: boot FILE on every POOL unit; on a
 * refusal, the rule the image broke (the previous firmware runs on).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kohaku/kh_fw.h"
#include "kohaku/kh_pool.h"

static void print_version(uint32_t v)
{
	printf("%u.%u.%u", KH_FW_VERSION_MAJOR(v), KH_FW_VERSION_MINOR(v),
	       KH_FW_VERSION_PATCH(v));
}

#define J_ADD(j, k, v)	json_object_object_add((j), (k), (v))
#define J_INT(v)	json_object_new_int64((int64_t)(v))
#define J_STR(v)	json_object_new_string(v)

static struct json_object *unit_json(const struct drm_kohaku_node *q)
{
	struct json_object *u = json_object_new_object();

	J_ADD(u, "mesh", J_INT(q->mesh));
	J_ADD(u, "x", J_INT(q->x));
	J_ADD(u, "y", J_INT(q->y));
	J_ADD(u, "state", J_STR(kohaku_fw_state_name(q->fw_state)));
	J_ADD(u, "fw_version", J_INT(q->fw_version));
	J_ADD(u, "fw_api", J_INT(q->fw_api));
	J_ADD(u, "boot_ns", json_object_new_uint64(q->fw_boot_ns));
	J_ADD(u, "trap", json_object_new_uint64(q->fw_trap));
	return u;
}

static void print_unit(const struct drm_kohaku_node *q)
{
	printf("  POOL mesh %u (%u,%u): %-8s", q->mesh, q->x, q->y,
	       kohaku_fw_state_name(q->fw_state));
	if (q->fw_state == KOHAKU_FW_STATE_RUNNING) {
		printf(" firmware ");
		print_version(q->fw_version);
		printf(", API %u.%u, booted in %.1f us", q->fw_api >> 16,
		       q->fw_api & 0xffff, q->fw_boot_ns / 1e3);
	}
	if (q->fw_trap & KH_POOL_TRAP_VALID)
		printf(" (core %u trapped: cause %u at pc 0x%08x)",
		       KH_POOL_TRAP_CORE(q->fw_trap), KH_POOL_TRAP_CAUSE(q->fw_trap),
		       KH_POOL_TRAP_PC(q->fw_trap));
	printf("\n");
}

static int fw_info(const struct kohaku_cli_opts *o)
{
	struct drm_kohaku_node *nd = NULL;
	struct kohaku_fw_info fi;
	unsigned int n = 0, i;
	kohaku_device *dev;
	int r;

	r = cli_open_nodes(o, 0, &dev, &nd, &n);
	if (r)
		return r;
	r = kohaku_fw_info(dev, &fi, sizeof(fi));
	if (r < 0) {
		cli_error("%s", kohaku_last_error(dev));
		r = EXIT_DEVICE;
		goto out;
	}
	if (o->json) {
		struct json_object *j = json_object_new_object();
		struct json_object *pa = json_object_new_array();

		J_ADD(j, "path", J_STR(kohaku_device_path(dev)));
		J_ADD(j, "units", J_INT(fi.units));
		J_ADD(j, "running", J_INT(fi.running));
		J_ADD(j, "fw_version", J_INT(fi.fw_version));
		J_ADD(j, "fw_api", J_INT(fi.fw_api));
		J_ADD(j, "driver_api", J_INT(fi.driver_api));
		J_ADD(j, "status", J_STR(fi.status));
		for (i = 0; i < n; i++)
			if (nd[i].cu_type == KH_CU_GP)
				json_object_array_add(pa, unit_json(&nd[i]));
		J_ADD(j, "pool", pa);
		cli_json_print(j);
		r = EXIT_OK;
		goto out;
	}
	printf("%s: %u POOL unit%s, %u running firmware", kohaku_device_path(dev),
	       fi.units, fi.units == 1 ? "" : "s", fi.running);
	if (fi.fw_version) {
		printf(" ");
		print_version(fi.fw_version);
		printf(" (API %u.%u)", fi.fw_api >> 16, fi.fw_api & 0xffff);
	}
	printf("; the driver speaks firmware API %u.%u\n", fi.driver_api >> 16,
	       fi.driver_api & 0xffff);
	if (fi.status[0])
		printf("  at open/bind: %s\n", fi.status);
	for (i = 0; i < n; i++)
		if (nd[i].cu_type == KH_CU_GP)
			print_unit(&nd[i]);
	r = EXIT_OK;
out:
	free(nd);
	kohaku_close(dev);
	return r;
}

static int fw_load(const struct kohaku_cli_opts *o, const char *file)
{
	struct drm_kohaku_fw_load out;
	kohaku_device *dev;
	int r;

	r = cli_open_dev(o, &dev);
	if (r)
		return r;
	memset(&out, 0, sizeof(out));
	cli_progress_begin("fw load");
	r = kohaku_fw_load_file(dev, file, o->mailbox ? KOHAKU_FW_LOAD_MAILBOX : 0,
				&out, sizeof(out));
	cli_progress_end();
	if (o->json) {
		struct json_object *j = json_object_new_object();

		J_ADD(j, "path", J_STR(kohaku_device_path(dev)));
		J_ADD(j, "file", J_STR(file));
		J_ADD(j, "ok", json_object_new_boolean(!r));
		J_ADD(j, "reason", J_INT(out.reason));
		J_ADD(j, "reason_text", J_STR(kohaku_fw_reason(out.reason)));
		J_ADD(j, "detail", J_INT(out.detail));
		J_ADD(j, "units", J_INT(out.n_units));
		J_ADD(j, "fw_version", J_INT(out.fw_version));
		J_ADD(j, "fw_api", J_INT(out.fw_api));
		J_ADD(j, "boot_ns", json_object_new_uint64(out.boot_ns));
		J_ADD(j, "loaded_by", J_STR(out.loaded_by == KOHAKU_FW_BY_LOAD ?
			"load" : out.loaded_by == KOHAKU_FW_BY_MAILBOX ?
			"mailbox" : ""));
		J_ADD(j, "error", J_STR(r ? kohaku_last_error(dev) : ""));
		cli_json_print(j);
	}
	if (r) {
		fprintf(stderr, "%s: fw load %s: %s\n", CLI_PROG, file,
			kohaku_last_error(dev));
	} else if (!o->json) {
		printf("%s: firmware ", kohaku_device_path(dev));
		print_version(out.fw_version);
		printf(" (API %u.%u) from %s running on %u POOL unit%s (loaded %s), booted in %.1f us of device time\n",
		       out.fw_api >> 16, out.fw_api & 0xffff, file, out.n_units,
		       out.n_units == 1 ? "" : "s",
		       out.loaded_by == KOHAKU_FW_BY_LOAD ? "by LOAD from device memory" :
		       "through the mailbox", out.boot_ns / 1e3);
	}
	kohaku_close(dev);
	if (!r)
		return EXIT_OK;
	if (r == -EINVAL || r == -E2BIG || r == -EPROTO || r == -ENOENT ||
	    r == -EACCES || r == -EBUSY || r == -ENODEV || r == -EISDIR)
		return EXIT_USAGE;
	return EXIT_DEVICE;
}

int cli_cmd_fw(const struct kohaku_cli_opts *o, const char *sub,
	       const char *arg)
{
	if (!sub)
		cli_die_usage("fw: which? (fw info, fw load FILE)");
	if (!strcmp(sub, "info") && !arg)
		return fw_info(o);
	if (!strcmp(sub, "load") && arg)
		return fw_load(o, arg);
	cli_die_usage("fw: use `fw info` or `fw load FILE`");
}
