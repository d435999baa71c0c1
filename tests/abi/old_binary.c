// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A program as libkohaku 0.1's header made it (scripts/check-abi.sh): its
 * own declarations of 0.1's calls, which took no size, linked against a
 * stand-in libkohaku.so.0 that has only version node KOHAKU_0, so that
 * the binary records kohaku_get_info@KOHAKU_0 and the rest, as one built
 * on a machine with libkohaku 0.1 would; then run against the real
 * library.  0.1's struct sizes (the uapi structs are this tree's, whose
 * sizes 0.1 had), a canary after each.  TAP on stdout.
 */
#include <stdio.h>
#include <string.h>

#include "drm/kohaku_accel.h"

#define CANARY	0x5a
#define PAD	128

typedef struct kohaku_device kohaku_device;

/* libkohaku 0.1's declarations (kohaku.h at 0.1.0) */
int kohaku_open(int backend, const char *device, kohaku_device **out,
		char *err, size_t errlen);
void kohaku_close(kohaku_device *dev);
const char *kohaku_version(void);
int kohaku_get_info(kohaku_device *dev, struct drm_kohaku_get_info *out);
int kohaku_nodes(kohaku_device *dev, unsigned int flags,
		 struct drm_kohaku_node *nodes, unsigned int capacity,
		 unsigned int *count);

static int all(const unsigned char *p, size_t n, unsigned char b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != b)
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static struct {
		struct drm_kohaku_get_info gi;
		unsigned char canary[PAD];
	} info;
	static struct {
		struct drm_kohaku_node nd[4];
		unsigned char canary[PAD];
	} nodes;
	kohaku_device *dev = NULL;
	char err[1024];
	unsigned int n = 0, w;
	int r, fail = 0;

	r = kohaku_open(2 /* KOHAKU_BACKEND_SIM */, argc > 1 ? argv[1] : "saxpy",
			&dev, err, sizeof(err));
	printf("%sok 1 - an 0.1 binary opens the sim card with libkohaku %s\n",
	       r ? "not " : "", kohaku_version());
	if (r) {
		printf("# %s\n1..1\n", err);
		return 1;
	}
	memset(&info, CANARY, sizeof(info));
	r = kohaku_get_info(dev, &info.gi);
	if (r || !info.gi.name[0] || info.gi.n_nodes == 0 ||
	    !all(info.canary, PAD, CANARY))
		fail++;
	printf("%sok 2 - its kohaku_get_info(dev, &info): %d, %s, %u nodes, "
	       "nothing written past its struct\n", fail ? "not " : "", r,
	       info.gi.name, info.gi.n_nodes);
	memset(&nodes, CANARY, sizeof(nodes));
	r = kohaku_nodes(dev, 0, nodes.nd, 4, &n);
	w = n < 4 ? n : 4;	/* entries written: min(count, capacity) */
	r = r || n != info.gi.n_nodes ||
	    !all((const unsigned char *)&nodes.nd[w],
		 (4 - w) * sizeof(nodes.nd[0]) + PAD, CANARY) ||
	    nodes.nd[0].cu_type == 0x5a5a;
	if (r)
		fail++;
	printf("%sok 3 - its kohaku_nodes(dev, 0, nd, 4, &n): %u nodes, "
	       "nothing written past them\n", r ? "not " : "", n);
	kohaku_close(dev);
	printf("1..3\n");
	return fail ? 1 : 0;
}
