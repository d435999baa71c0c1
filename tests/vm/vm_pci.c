// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A kohaku-pcie card's data path meeting a fault the host arms while the
 * guest runs (tests/vm/run-vm-pci.sh builds it static; guest-pci.sh runs
 * it after asking the host, on the console, to set the card's QOM property
 * "inject" through QMP):
 *
 *   vm_pci DEVICE h2c|c2h SECONDS
 *	On a 1 MiB buffer object, 64 KiB transfers in that direction (BO
 *	writes for h2c, reads for c2h), one every 50 ms, until one fails or
 *	SECONDS pass (for h2c, BO_CREATE's own clearing transfer may be the
 *	one that fails).  The failure must be EIO (the card's XDMA channel
 *	wedged by the knob, then recovered by the driver), and the same
 *	transfers must work again at once, the data read back byte for byte.
 *	Prints what it saw; exits 0 when a failure came and was recovered.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kohaku.h"

#define BO_SIZE		(1u << 20)
#define XFER		65536u

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 31 + seed);
}

int main(int argc, char **argv)
{
	char err[KOHAKU_ERRMSG_MAX];
	unsigned char *w, *r;
	kohaku_device *dev;
	unsigned int tries = 0;
	double end;
	uint64_t addr;
	uint32_t h;
	int to_card, ret = 0, rc = 1;

	if (argc != 4 || (strcmp(argv[2], "h2c") && strcmp(argv[2], "c2h"))) {
		fprintf(stderr, "usage: vm_pci DEVICE h2c|c2h SECONDS\n");
		return 2;
	}
	to_card = !strcmp(argv[2], "h2c");
	w = malloc(XFER);
	r = malloc(XFER);
	if (!w || !r)
		return 2;
	if (kohaku_open(KOHAKU_BACKEND_KERNEL, argv[1], &dev, err, sizeof(err))) {
		fprintf(stderr, "vm_pci: %s\n", err);
		return 1;
	}
	/*
	 * BO_CREATE clears the buffer with an H2C transfer (ABI 0.8): the
	 * h2c knob may meet that one; then it is the failure, and a second
	 * BO_CREATE is the recovery's first transfer
	 */
	ret = kohaku_bo_create(dev, 0, BO_SIZE, &h, &addr);
	if (ret == -EIO && to_card) {
		printf("vm_pci: h2c: BO_CREATE's clearing transfer failed: %d (%s)\n",
		       ret, kohaku_last_error(dev));
		if (kohaku_bo_create(dev, 0, BO_SIZE, &h, &addr)) {
			printf("vm_pci: BO_CREATE after the failure: %s\n",
			       kohaku_last_error(dev));
			goto out;
		}
	} else if (ret) {
		fprintf(stderr, "vm_pci: BO_CREATE: %s\n", kohaku_last_error(dev));
		goto out;
	}
	fill(w, XFER, 7);
	end = now_s() + atof(argv[3]);
	while (!ret && now_s() < end) {
		tries++;
		ret = to_card ? kohaku_bo_write(dev, h, XFER, w, XFER) :
				kohaku_bo_read(dev, h, 0, r, XFER);
		if (ret)
			break;
		usleep(50000);
	}
	if (!ret) {
		printf("vm_pci: %s: %u transfers in %s s, none failed\n", argv[2],
		       tries, argv[3]);
		goto out_bo;
	}
	if (tries)
		printf("vm_pci: %s: transfer %u failed: %d (%s)\n", argv[2], tries,
		       ret, kohaku_last_error(dev));
	if (ret != -EIO) {
		printf("vm_pci: expected EIO\n");
		goto out_bo;
	}
	/* recovered: the same transfers again, and the data is right */
	fill(w, XFER, 11);
	if (kohaku_bo_write(dev, h, 0, w, XFER) ||
	    kohaku_bo_read(dev, h, 0, r, XFER)) {
		printf("vm_pci: after the failure: %s\n", kohaku_last_error(dev));
		goto out_bo;
	}
	if (memcmp(w, r, XFER)) {
		printf("vm_pci: after the failure the data read back differs\n");
		goto out_bo;
	}
	printf("vm_pci: %s: recovered, 64 KiB written and read back\n", argv[2]);
	rc = 0;
out_bo:
	kohaku_bo_free(dev, h);
out:
	kohaku_close(dev);
	free(w);
	free(r);
	return rc;
}
