// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * An external program built against an installed libkohaku with nothing but
 * `pkg-config --cflags --libs kohaku` (scripts/check-install.sh): opens the
 * simulated card "saxpy" in-process, prints its node count (and
 * how many are SX units: KH_CU_SX, from the installed uapi) and how many
 * KohakuAccel PCI functions libpciaccess finds, closes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <kohaku.h>
#include <kohaku/kh_units.h>

int main(int argc, char **argv)
{
	const char *map = argc > 1 ? argv[1] : "saxpy";
	kohaku_device *dev;
	struct drm_kohaku_node *nodes;
	unsigned int count = 0, sx = 0, i;
	struct kohaku_pci_entry *pci;
	unsigned int pci_count = 0;
	char err[256];
	int ret, pci_ret;

	ret = kohaku_open(KOHAKU_BACKEND_SIM, map, &dev, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "hello: kohaku_open(sim, %s): %s\n", map, err);
		return 1;
	}
	ret = kohaku_nodes_alloc(dev, 0, &nodes, sizeof(*nodes), &count);
	if (ret) {
		fprintf(stderr, "hello: kohaku_nodes_alloc: %d\n", ret);
		kohaku_close(dev);
		return 1;
	}
	for (i = 0; i < count; i++)
		sx += nodes[i].cu_type == KH_CU_SX;
	printf("sim:%s: %u nodes, %u SX (ABI %d.%d)\n", map, count, sx,
	       KOHAKU_ABI_MAJOR, KOHAKU_ABI_MINOR);
	free(nodes);
	/*
	 * The PCI listing too, so that a static link needs all of kohaku.pc's
	 * private dependencies (libpciaccess); its result does not matter here.
	 */
	pci_ret = kohaku_pci_list("", &pci, &pci_count, sizeof(*pci), err, sizeof(err));
	if (pci_ret == 0) {
		printf("pci: %u KohakuAccel functions\n", pci_count);
		kohaku_free_pci_list(pci);
	} else {
		printf("pci: not listed (%s)\n", err);
	}
	kohaku_close(dev);
	return 0;
}
