// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Choosing a backend and a device, by the caller or the environment
 * (KOHAKU_BACKEND, KOHAKU_DEVICE), and opening or listing through the
 * backends' table (struct kh_rt_backend: backend_kernel.c, inproc/): the
 * backends by name, kohaku_open, kohaku_list_devices.  Every open error
 * says how backend and device were chosen.  The device object itself,
 * and the handshake every open ends with, are device.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/* every backend there is; kohaku_backend_parse's names */
static const struct kh_rt_backend *const backends[] = {
	&kh_rt_backend_kernel,
	&kh_rt_backend_sim,
	&kh_rt_backend_daemon,
};

static const struct kh_rt_backend *backend_of(enum kohaku_backend id)
{
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (backends[i]->id == id)
			return backends[i];
	return NULL;
}

KH_RT_EXPORT const char *kohaku_backend_name(enum kohaku_backend backend)
{
	const struct kh_rt_backend *be = backend_of(backend);

	if (be)
		return be->name;
	return backend == KOHAKU_BACKEND_ENV ? "env" : "?";
}

KH_RT_EXPORT int kohaku_backend_parse(const char *s, enum kohaku_backend *out)
{
	size_t i;

	if (!s || !out)
		return -EINVAL;
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(s, backends[i]->name)) {
			*out = backends[i]->id;
			return 0;
		}
	return -EINVAL;
}

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * The backend KOHAKU_BACKEND names, or kernel when it is unset; *how says
 * which, for messages.  -EINVAL when it names no backend.
 */
static int env_backend(enum kohaku_backend *backend, const char **how)
{
	const char *b = env_nonempty("KOHAKU_BACKEND");

	if (!b) {
		*backend = KOHAKU_BACKEND_KERNEL;
		*how = "the default (KOHAKU_BACKEND is unset)";
		return 0;
	}
	*how = "KOHAKU_BACKEND";
	return kohaku_backend_parse(b, backend);
}

/* "saxpy, sx_null_2x2, ...": the built-in descriptions, for messages */
void kh_rt_builtin_list(char *buf, size_t len)
{
	const char *const *names = kohaku_sim_builtin_names();
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; names && names[i] && off + 1 < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				 names[i]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}

KH_RT_EXPORT int kohaku_open(enum kohaku_backend backend, const char *device,
			     kohaku_device **out, char *err, size_t errlen)
{
	const char *bsrc = "the caller", *dsrc = "the caller";
	enum kohaku_backend asked = backend;
	const struct kh_rt_backend *be;
	char msg[KOHAKU_ERRMSG_MAX];
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!out) {
		kh_rt_errbuf(err, errlen, "kohaku_open: out is NULL");
		return -EINVAL;
	}
	*out = NULL;
	if (backend == KOHAKU_BACKEND_ENV) {
		if (env_backend(&backend, &bsrc) < 0) {
			kh_rt_errbuf(err, errlen,
				     "KOHAKU_BACKEND='%s' is not a backend: set "
				     "KOHAKU_BACKEND=kernel for a kohaku device node "
				     "(/dev/accel/accelN; before Linux 6.2 "
				     "/dev/dri/renderDN) or KOHAKU_BACKEND=sim for "
				     "the simulated card in this process, or "
				     "KOHAKU_BACKEND=daemon for a card kohakud "
				     "shares",
				     getenv("KOHAKU_BACKEND"));
			return -EINVAL;
		}
	}
	be = backend_of(backend);
	if (!be) {
		kh_rt_errbuf(err, errlen, "kohaku_open: unknown backend %d",
			     (int)backend);
		return -EINVAL;
	}
	if (!device || !*device) {
		device = env_nonempty("KOHAKU_DEVICE");
		dsrc = device ? "KOHAKU_DEVICE" : NULL;
	}
	/* "daemon:NAME" is kohakud's card, whichever backend was a default */
	if (device && !strncmp(device, "daemon:", 7) &&
	    (be->id != KOHAKU_BACKEND_KERNEL ||
	     (asked == KOHAKU_BACKEND_ENV && !env_nonempty("KOHAKU_BACKEND")))) {
		be = &kh_rt_backend_daemon;
		bsrc = "the device string (daemon:)";
	}

	/* the sim's and kohakud's backends need a card: a description */
	if (!device && be->needs_device) {
		char names[256];

		kh_rt_builtin_list(names, sizeof(names));
		kh_rt_errbuf(err, errlen,
			     "the %s backend (chosen by %s) needs a card "
			     "description and none was given: set "
			     "KOHAKU_DEVICE (or the CLI's --map) to a "
			     "built-in name (%s) or a description file",
			     be->name, bsrc, names);
		return -EINVAL;
	}
	msg[0] = '\0';
	r = kh_rt_dev_open(be, device, out, msg, sizeof(msg));
	if (r < 0) {
		char ctx[256];

		if (dsrc && strchr(device, '\n'))
			snprintf(ctx, sizeof(ctx),
				 " [backend %s chosen by %s; a description text "
				 "of %zu bytes from %s]", be->name,
				 bsrc, strlen(device), dsrc);
		else if (dsrc)
			snprintf(ctx, sizeof(ctx),
				 " [backend %s chosen by %s; device '%s' from %s]",
				 be->name, bsrc, device, dsrc);
		else
			snprintf(ctx, sizeof(ctx), " [backend %s chosen by %s]",
				 be->name, bsrc);
		kh_rt_errbuf(err, errlen, "%s%s", msg, ctx);
		*out = NULL;
	}
	return r;
}

static int list_devices(enum kohaku_backend backend,
			struct kohaku_device_entry **list, unsigned int *count,
			char *err, size_t errlen)
{
	const struct kh_rt_backend *be;

	*list = NULL;
	*count = 0;
	if (backend == KOHAKU_BACKEND_ENV) {
		const char *how;

		if (env_backend(&backend, &how) < 0) {
			kh_rt_errbuf(err, errlen,
				     "KOHAKU_BACKEND='%s' is not a backend: use "
				     "kernel, sim or daemon", getenv("KOHAKU_BACKEND"));
			return -EINVAL;
		}
	}
	be = backend_of(backend);
	if (!be) {
		kh_rt_errbuf(err, errlen, "kohaku_list_devices: unknown "
			     "backend %d", (int)backend);
		return -EINVAL;
	}
	return be->list(env_nonempty("KOHAKU_DEVICE"), list, count, err,
			errlen);
}

KH_RT_EXPORT int kohaku_list_devices(enum kohaku_backend backend,
				     struct kohaku_device_entry **list,
				     unsigned int *count, size_t entry_size,
				     char *err, size_t errlen)
{
	int r;

	if (err && errlen)
		err[0] = '\0';
	if (!list || !count || !entry_size) {
		kh_rt_errbuf(err, errlen, "kohaku_list_devices: NULL output "
			     "or entry_size 0");
		return -EINVAL;
	}
	*list = NULL;
	*count = 0;
	r = list_devices(backend, list, count, err, errlen);
	if (r < 0 || !*list)
		return r;
	/* the caller's stride (kohaku.h "Caller-sized structs") */
	*list = kh_rt_restride(*list, *count, sizeof(**list), entry_size);
	if (!*list) {
		*count = 0;
		kh_rt_errbuf(err, errlen, "kohaku_list_devices: out of memory");
		return -ENOMEM;
	}
	return r;
}

/* libkohaku 0.1's kohaku_list_devices (version node KOHAKU_0) */
int kh_rt_list_devices_v0(enum kohaku_backend backend,
			   struct kohaku_device_entry **list, unsigned int *count,
			   char *err, size_t errlen);
int kh_rt_list_devices_v0(enum kohaku_backend backend,
			   struct kohaku_device_entry **list, unsigned int *count,
			   char *err, size_t errlen)
{
	return kohaku_list_devices(backend, list, count,
				   KH_RT_V0_DEVICE_ENTRY_SIZE, err, errlen);
}
KH_RT_SYMVER(kh_rt_list_devices_v0, kohaku_list_devices, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_list_devices, KOHAKU_0.2);

KH_RT_EXPORT void kohaku_free_device_list(struct kohaku_device_entry *list)
{
	free(list);
}
