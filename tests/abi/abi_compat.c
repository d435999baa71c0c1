// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * abi_compat LIBKOHAKU_SO: libkohaku's binary compatibility, as programs
 * built against older and smaller headers see it (scripts/check-abi.sh).
 *
 * The library is dlopen()ed, never linked: each call is looked up by name
 * and version node (dlvsym), as ld.so binds an old binary's.  Checked:
 *  - every call 0.2 gave a size has 0.1's entry point at version node
 *    KOHAKU_0 and the current one at KOHAKU_0.2, its default; 0.1's
 *    (kohaku_get_info, kohaku_nodes, kohaku_nodes_alloc, kohaku_bo_info,
 *    kohaku_fw_info, kohaku_clocks, kohaku_fw_load, kohaku_list_devices
 *    called here) still work, and write 0.1's sizes, no more;
 *  - the current ones (KOHAKU_0.2) write a small caller struct's size and
 *    not a byte past it (a canary after it), zero the rest of a bigger
 *    one, and keep the caller's stride in arrays;
 *  - the default version of each is the current one (dlsym);
 *  - the RV32 assembler (kohaku_rv_*) and the library's insides are not
 *    exported; kohaku_version() is this header's version.
 * TAP on stdout.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku.h"

/* libkohaku 0.1's sizes (libruntime/rt_internal.h KH_RT_V0_*) */
#define V0_GET_INFO	312
#define V0_NODE		72
#define V0_BO_INFO	24
#define V0_FW_INFO	532
#define V0_FW_LOAD	80
#define V0_CLOCKS	128
#define V0_DEVICE_ENTRY	404
#define CANARY		0xa5
#define PAD		256

static int n_test, n_fail;

static void tap(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	n_test++;
	if (!ok)
		n_fail++;
	printf("%sok %d - ", ok ? "" : "not ", n_test);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* the bytes from off to off + len are all b */
static int all(const void *p, size_t off, size_t len, unsigned char b)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (c[off + i] != b)
			return 0;
	return 1;
}

typedef int (*open_fn)(enum kohaku_backend, const char *, kohaku_device **,
		       char *, size_t);
typedef void (*close_fn)(kohaku_device *);
typedef const char *(*version_fn)(void);
typedef int (*bo_create_fn)(kohaku_device *, unsigned int, uint64_t,
			    uint32_t *, uint64_t *);
/* 0.1's signatures */
typedef int (*get_info0_fn)(kohaku_device *, void *);
typedef int (*nodes0_fn)(kohaku_device *, unsigned int, void *, unsigned int,
			 unsigned int *);
typedef int (*nodes_alloc0_fn)(kohaku_device *, unsigned int, void **,
			       unsigned int *);
typedef int (*bo_info0_fn)(kohaku_device *, uint32_t, void *);
typedef int (*fw_info0_fn)(kohaku_device *, void *);
/* 0.2's */
typedef int (*get_info_fn)(kohaku_device *, void *, size_t);
typedef int (*nodes_fn)(kohaku_device *, unsigned int, void *, unsigned int,
			size_t, unsigned int *);
typedef int (*nodes_alloc_fn)(kohaku_device *, unsigned int, void **, size_t,
			      unsigned int *);
typedef int (*bo_info_fn)(kohaku_device *, uint32_t, void *, size_t);
typedef int (*fw_info_fn)(kohaku_device *, void *, size_t);
typedef int (*clocks0_fn)(kohaku_device *, unsigned int, void *);
typedef int (*clocks_fn)(kohaku_device *, unsigned int, void *, size_t);
typedef int (*fw_load0_fn)(kohaku_device *, const void *, size_t,
			   unsigned int, void *);
typedef int (*fw_load_fn)(kohaku_device *, const void *, size_t,
			  unsigned int, void *, size_t);
typedef int (*list0_fn)(enum kohaku_backend, void **, unsigned int *, char *,
			size_t);
typedef int (*list_fn)(enum kohaku_backend, void **, unsigned int *, size_t,
		       char *, size_t);
typedef void (*free_fn)(void *);

/* every call 0.2 gave a size: at KOHAKU_0 (0.1's) and KOHAKU_0.2 */
static const char *const changed[] = {
	"kohaku_get_info", "kohaku_nodes", "kohaku_nodes_alloc",
	"kohaku_bo_info", "kohaku_fw_info", "kohaku_fw_load",
	"kohaku_fw_load_file", "kohaku_wait", "kohaku_run", "kohaku_dxa_get",
	"kohaku_clocks", "kohaku_mesh_reset", "kohaku_artifact_info",
	"kohaku_artifact_run", "kohaku_list_devices", "kohaku_pci_list",
	"kohaku_job_describe",
};

static void *sym(void *h, const char *name, const char *ver)
{
	void *p = ver ? dlvsym(h, name, ver) : dlsym(h, name);

	tap(p != NULL, "%s%s%s is exported", name, ver ? "@" : "",
	    ver ? ver : "");
	if (!p) {
		printf("1..%d\n", n_test);
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	static const char *hidden[] = {
		"kohaku_rv_add", "kohaku_rv_asm_init", "kohaku_rv_asm_image",
		"kh_rt_ioctl", "kh_rt_get_info_v0", "kh_rt_copy_out",
		"ksim_card_create", "kh_dev_init",
	};
	const char *map = argc > 2 ? argv[2] : "saxpy";
	unsigned char info[V0_FW_INFO + PAD], ref[V0_FW_INFO + PAD];
	unsigned char nodes[8 * (V0_NODE + 64) + PAD], full[8 * V0_NODE];
	struct drm_kohaku_get_info gi;
	char err[KOHAKU_ERRMSG_MAX], want[32];
	unsigned int i, n = 0, n2 = 0, count;
	kohaku_device *dev = NULL;
	uint32_t bo;
	uint64_t addr;
	void *h, *p;
	int r;

	if (argc < 2) {
		fprintf(stderr, "usage: abi_compat LIBKOHAKU_SO [MAP]\n");
		return 2;
	}
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		printf("not ok 1 - dlopen %s: %s\n1..1\n", argv[1], dlerror());
		return 1;
	}
	snprintf(want, sizeof(want), "%d.%d.%d", KOHAKU_LIB_VERSION_MAJOR,
		 KOHAKU_LIB_VERSION_MINOR, KOHAKU_LIB_VERSION_PATCH);
	tap(!strcmp(((version_fn)sym(h, "kohaku_version", "KOHAKU_0"))(), want),
	    "kohaku_version() is kohaku.h's %s", want);

	for (i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
		tap(!dlsym(h, hidden[i]), "%s is not exported", hidden[i]);

	for (i = 0; i < sizeof(changed) / sizeof(changed[0]); i++) {
		void *o = dlvsym(h, changed[i], "KOHAKU_0");
		void *c = dlvsym(h, changed[i], "KOHAKU_0.2");

		tap(o && c && o != c && dlsym(h, changed[i]) == c,
		    "%s: 0.1's entry point at KOHAKU_0, the current one at "
		    "KOHAKU_0.2 its default", changed[i]);
	}

	r = ((open_fn)sym(h, "kohaku_open", "KOHAKU_0"))(KOHAKU_BACKEND_SIM,
							 map, &dev, err,
							 sizeof(err));
	tap(r == 0, "kohaku_open(sim, %s): %d %s", map, r, r ? err : "");
	if (r) {
		printf("1..%d\n", n_test);
		return 1;
	}

	/* ---- get_info */
	{
		get_info0_fn old = sym(h, "kohaku_get_info", "KOHAKU_0");
		get_info_fn cur = sym(h, "kohaku_get_info", "KOHAKU_0.2");

		tap(dlsym(h, "kohaku_get_info") == (void *)cur,
		    "kohaku_get_info's default version is KOHAKU_0.2's");
		memset(ref, 0, sizeof(ref));
		r = cur(dev, ref, sizeof(gi));
		memcpy(&gi, ref, sizeof(gi));
		tap(r == 0 && gi.n_nodes > 0 && gi.name[0],
		    "kohaku_get_info@KOHAKU_0.2, sizeof: %d, %u nodes, %s", r,
		    gi.n_nodes, gi.name);

		memset(info, CANARY, sizeof(info));
		r = old(dev, info);
		tap(r == 0 && !memcmp(info, ref, V0_GET_INFO) &&
		    all(info, V0_GET_INFO, PAD, CANARY),
		    "kohaku_get_info@KOHAKU_0 (0.1's call): %d bytes, the "
		    "canary after them intact", V0_GET_INFO);

		memset(info, CANARY, sizeof(info));
		r = cur(dev, info, 16);
		tap(r == 0 && !memcmp(info, ref, 16) &&
		    all(info, 16, sizeof(info) - 16, CANARY),
		    "kohaku_get_info, a 16-byte caller struct: 16 bytes "
		    "written, not one past");

		memset(info, CANARY, sizeof(info));
		r = cur(dev, info, sizeof(gi) + 64);
		tap(r == 0 && !memcmp(info, ref, sizeof(gi)) &&
		    all(info, sizeof(gi), 64, 0) &&
		    all(info, sizeof(gi) + 64, sizeof(info) - sizeof(gi) - 64,
			CANARY),
		    "kohaku_get_info, a caller struct 64 bytes bigger: the "
		    "rest zeroed, nothing past it");
		tap(cur(dev, info, 0) == -EINVAL,
		    "kohaku_get_info, size 0: -EINVAL");
	}

	/* ---- nodes: 0.1's stride, a smaller one, a bigger one */
	{
		nodes0_fn old = sym(h, "kohaku_nodes", "KOHAKU_0");
		nodes_fn cur = sym(h, "kohaku_nodes", "KOHAKU_0.2");
		nodes_alloc0_fn olda = sym(h, "kohaku_nodes_alloc", "KOHAKU_0");
		nodes_alloc_fn cura = sym(h, "kohaku_nodes_alloc", "KOHAKU_0.2");
		const size_t strides[] = { KOHAKU_NODE_SIZE_MIN, 48, V0_NODE,
					   V0_NODE + 40 };
		unsigned int s, cap;

		r = cur(dev, 0, full, 8, sizeof(struct drm_kohaku_node), &n);
		cap = n < 8 ? n : 8;
		tap(r == 0 && n > 0, "kohaku_nodes@KOHAKU_0.2: %d, %u nodes", r,
		    n);
		memset(nodes, CANARY, sizeof(nodes));
		r = old(dev, 0, nodes, cap, &n2);
		tap(r == 0 && n2 == n && !memcmp(nodes, full, cap * V0_NODE) &&
		    all(nodes, cap * V0_NODE, PAD, CANARY),
		    "kohaku_nodes@KOHAKU_0 (0.1's call): %u entries of %d "
		    "bytes, the canary after them intact", cap, V0_NODE);
		for (s = 0; s < sizeof(strides) / sizeof(strides[0]); s++) {
			size_t st = strides[s], keep = st < V0_NODE ? st : V0_NODE;
			int ok;

			memset(nodes, CANARY, sizeof(nodes));
			r = cur(dev, 0, nodes, cap, st, &n2);
			ok = r == 0 && n2 == n &&
			     all(nodes, cap * st, PAD, CANARY);
			for (i = 0; ok && i < cap; i++)
				ok = !memcmp(nodes + i * st, full + i * V0_NODE,
					     keep) &&
				     all(nodes, i * st + keep, st - keep, 0);
			tap(ok, "kohaku_nodes, a caller stride of %zu bytes: "
			    "%zu of each entry, %s, nothing past the array", st,
			    keep, st > keep ? "the rest zeroed" : "no more");
		}
		r = cur(dev, 0, nodes, cap, KOHAKU_NODE_SIZE_MIN - 1, &n2);
		tap(r == -EINVAL, "kohaku_nodes, a stride below "
		    "KOHAKU_NODE_SIZE_MIN: -EINVAL (%d)", r);

		p = NULL;
		r = olda(dev, 0, &p, &count);
		tap(r == 0 && count == n && p &&
		    !memcmp(p, full, cap * V0_NODE),
		    "kohaku_nodes_alloc@KOHAKU_0 (0.1's call): %u entries, "
		    "0.1's stride", count);
		free(p);
		p = NULL;
		r = cura(dev, 0, &p, 48, &count);
		for (i = 0; r == 0 && i < cap; i++)
			if (memcmp((char *)p + i * 48, full + i * V0_NODE, 48))
				r = -1;
		tap(r == 0 && count == n, "kohaku_nodes_alloc, a 48-byte "
		    "stride: %u entries, each the table's first 48 bytes",
		    count);
		free(p);
	}

	/* ---- bo_info and fw_info */
	{
		bo_info0_fn old = sym(h, "kohaku_bo_info", "KOHAKU_0");
		bo_info_fn cur = sym(h, "kohaku_bo_info", "KOHAKU_0.2");
		fw_info0_fn fold = sym(h, "kohaku_fw_info", "KOHAKU_0");
		fw_info_fn fcur = sym(h, "kohaku_fw_info", "KOHAKU_0.2");
		struct kohaku_bo_info bi;
		struct kohaku_fw_info fi;

		r = ((bo_create_fn)sym(h, "kohaku_bo_create", "KOHAKU_0"))(
			dev, 0, 4096, &bo, &addr);
		tap(r == 0, "kohaku_bo_create: %d", r);
		memset(info, CANARY, sizeof(info));
		r = old(dev, bo, info);
		memcpy(&bi, info, sizeof(bi));
		tap(r == 0 && bi.handle == bo && bi.dev_addr == addr &&
		    all(info, V0_BO_INFO, PAD, CANARY),
		    "kohaku_bo_info@KOHAKU_0 (0.1's call): %d bytes, the "
		    "canary intact", V0_BO_INFO);
		memset(info, CANARY, sizeof(info));
		r = cur(dev, bo, info, 8);
		tap(r == 0 && !memcmp(info, &bi, 8) &&
		    all(info, 8, PAD, CANARY),
		    "kohaku_bo_info, an 8-byte caller struct: 8 bytes, not "
		    "one past");

		memset(ref, 0, sizeof(ref));
		r = fcur(dev, ref, sizeof(fi));
		tap(r == 0, "kohaku_fw_info@KOHAKU_0.2, sizeof: %d", r);
		memset(info, CANARY, sizeof(info));
		r = fold(dev, info);
		tap(r == 0 && !memcmp(info, ref, V0_FW_INFO) &&
		    all(info, V0_FW_INFO, PAD, CANARY),
		    "kohaku_fw_info@KOHAKU_0 (0.1's call): %d bytes, the "
		    "canary intact", V0_FW_INFO);
		memset(info, CANARY, sizeof(info));
		r = fcur(dev, info, 12);
		tap(r == 0 && !memcmp(info, ref, 12) &&
		    all(info, 12, PAD, CANARY),
		    "kohaku_fw_info, a 12-byte caller struct: 12 bytes, not "
		    "one past");
	}

	/* ---- clocks: a uapi struct out */
	{
		clocks0_fn old = sym(h, "kohaku_clocks", "KOHAKU_0");
		clocks_fn cur = sym(h, "kohaku_clocks", "KOHAKU_0.2");

		memset(ref, 0, sizeof(ref));
		r = cur(dev, 0, ref, sizeof(struct drm_kohaku_clocks));
		tap(r == 0, "kohaku_clocks@KOHAKU_0.2, sizeof: %d", r);
		memset(info, CANARY, sizeof(info));
		r = old(dev, 0, info);
		tap(r == 0 && all(info, V0_CLOCKS, PAD, CANARY),
		    "kohaku_clocks@KOHAKU_0 (0.1's call): %d bytes, the "
		    "canary intact", V0_CLOCKS);
		memset(info, CANARY, sizeof(info));
		r = cur(dev, 0, info, 8);
		tap(r == 0 && !memcmp(info, ref, 8) &&
		    all(info, 8, PAD, CANARY),
		    "kohaku_clocks, an 8-byte caller struct: 8 bytes, not one "
		    "past");
	}

	/* ---- fw_load's report, on a refusal (an image too big) */
	{
		fw_load0_fn old = sym(h, "kohaku_fw_load", "KOHAKU_0");
		fw_load_fn cur = sym(h, "kohaku_fw_load", "KOHAKU_0.2");
		struct drm_kohaku_fw_load fl;

		memset(info, CANARY, sizeof(info));
		r = old(dev, ref, (size_t)1 << 30, 0, info);
		memcpy(&fl, info, sizeof(fl));
		tap(r == -E2BIG && fl.reason == KOHAKU_FW_ERR_TOO_BIG &&
		    all(info, V0_FW_LOAD, PAD, CANARY),
		    "kohaku_fw_load@KOHAKU_0 (0.1's call), refused: %d bytes "
		    "of report, the canary intact", V0_FW_LOAD);
		memset(info, CANARY, sizeof(info));
		r = cur(dev, ref, (size_t)1 << 30, 0, info, 4);
		tap(r == -E2BIG && !memcmp(info, &fl, 4) &&
		    all(info, 4, PAD, CANARY),
		    "kohaku_fw_load, a 4-byte caller report: 4 bytes, not one "
		    "past");
	}

	/* ---- list_devices: an array the library allocates, at the caller's
	 * stride */
	{
		list0_fn old = sym(h, "kohaku_list_devices", "KOHAKU_0");
		list_fn cur = sym(h, "kohaku_list_devices", "KOHAKU_0.2");
		free_fn fr = sym(h, "kohaku_free_device_list", "KOHAKU_0");
		void *a = NULL, *b = NULL;
		unsigned int na = 0, nb = 0;
		int ok;

		r = old(KOHAKU_BACKEND_SIM, &a, &na, err, sizeof(err));
		ok = r == 0 && na > 1 && a;
		r = cur(KOHAKU_BACKEND_SIM, &b, &nb, 100, err, sizeof(err));
		ok = ok && r == 0 && nb == na && b;
		for (i = 0; ok && i < na; i++)
			ok = !memcmp((char *)b + i * 100,
				     (char *)a + i * V0_DEVICE_ENTRY, 100);
		tap(ok, "kohaku_list_devices: 0.1's call (%d-byte entries) and "
		    "a 100-byte stride list the same %u cards", V0_DEVICE_ENTRY,
		    na);
		fr(a);
		fr(b);
	}

	((close_fn)sym(h, "kohaku_close", "KOHAKU_0"))(dev);
	printf("1..%d\n", n_test);
	return n_fail ? 1 : 0;
}
