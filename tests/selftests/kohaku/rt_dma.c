// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The data path through the card's DMA engine (docs/spec/xdma.md):
 * BO_WRITE and BO_READ of every size from 1 byte to 64 bytes at every
 * offset in a word, then every power of two (and one either side) to
 * KOHAKU_TEST_DMA_MAX (64 MiB by default), from user buffers at assorted
 * misalignments, page-crossing and not page aligned; every byte compared,
 * and the bytes around the range untouched.  On a card with POOL units the
 * card's own view is checked too: its CRC-32 of what BO_WRITE put there,
 * and BO_READ of what its FILL wrote.  The engine's counters move by what
 * was moved; a wedged channel fails one call and the next one works.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "rt_test.h"

#define GUARD	64

static size_t dma_max(void)
{
	const char *e = getenv("KOHAKU_TEST_DMA_MAX");

	return e && *e ? strtoull(e, NULL, 0) : (64u << 20);
}

static uint64_t param(kohaku_device *dev, uint32_t p)
{
	struct drm_kohaku_get_param g;

	memset(&g, 0, sizeof(g));
	g.param = p;
	if (kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g))
		return ~0ULL;
	return g.value;
}

static void fill(unsigned char *b, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (unsigned char)(seed >> 16);
	}
}

/*
 * Write n bytes at off from a buffer misaligned by wmis, read them (and
 * GUARD bytes either side) back into one misaligned by rmis; the range
 * must hold what was written, the guards what was there.
 */
static bool roundtrip(kohaku_device *dev, uint32_t h, size_t bo_size,
		      unsigned char *before, size_t off, size_t n,
		      unsigned int wmis, unsigned int rmis, uint32_t seed)
{
	size_t lo = off >= GUARD ? off - GUARD : 0;
	size_t hi = off + n + GUARD <= bo_size ? off + n + GUARD : bo_size;
	unsigned char *wb = malloc(n + 4160), *rb = malloc(hi - lo + 4160);
	bool ok = false;

	if (!wb || !rb)
		goto out;
	fill(wb + wmis, n, seed);
	if (kohaku_bo_write(dev, h, off, wb + wmis, n)) {
		check_diag("BO_WRITE %zu at %zu: %s", n, off, kohaku_last_error(dev));
		goto out;
	}
	if (kohaku_bo_read(dev, h, lo, rb + rmis, hi - lo)) {
		check_diag("BO_READ %zu at %zu: %s", hi - lo, lo, kohaku_last_error(dev));
		goto out;
	}
	if (memcmp(rb + rmis + (off - lo), wb + wmis, n)) {
		check_diag("%zu bytes at %zu (write +%u, read +%u): the data differs",
			 n, off, wmis, rmis);
		goto out;
	}
	if (memcmp(rb + rmis, before + lo, off - lo) ||
	    memcmp(rb + rmis + (off - lo) + n, before + off + n, hi - off - n)) {
		check_diag("%zu bytes at %zu (write +%u): a byte around the range changed",
			 n, off, wmis);
		goto out;
	}
	memcpy(before + off, wb + wmis, n);
	ok = true;
out:
	free(wb);
	free(rb);
	return ok;
}

/* a BO whose whole content the test knows (mirror) */
struct known_bo {
	uint32_t h;
	uint64_t addr;
	size_t size;
	unsigned char *mirror;
};

static int known_bo(kohaku_device *dev, size_t size, struct known_bo *b)
{
	memset(b, 0, sizeof(*b));
	b->size = size;
	b->mirror = malloc(size);
	if (!b->mirror)
		return -ENOMEM;
	fill(b->mirror, size, (uint32_t)size);
	if (kohaku_bo_create(dev, 0, size, &b->h, &b->addr))
		return -ENOMEM;
	return kohaku_bo_write(dev, b->h, 0, b->mirror, size);
}

static void known_free(kohaku_device *dev, struct known_bo *b)
{
	if (b->h)
		kohaku_bo_free(dev, b->h);
	free(b->mirror);
}

TEST_F(rt, small_sizes_every_offset)
{
	struct known_bo b;
	unsigned int bad = 0, runs = 0;
	size_t n, off;

	RT_OPEN(dev);
	REQUIRE(known_bo(dev, 16384, &b) == 0);
	for (n = 1; n <= 64; n++)
		for (off = 4000; off < 4000 + 64; off++) {
			unsigned int wm = (unsigned int)((n + off) % 64);
			unsigned int rm = (unsigned int)((n * 7 + off) % 64);

			runs++;
			if (!roundtrip(dev, b.h, b.size, b.mirror, off, n, wm, rm,
				       (uint32_t)(n * 131 + off)))
				bad++;
			if (bad > 5)
				break;
		}
	CHECK_MSG(!bad, "%u of %u transfers of 1..64 bytes went wrong", bad, runs);
	check_diag("%u transfers of 1..64 bytes at every offset in a word, across a page", runs);
	known_free(dev, &b);
	kohaku_close(dev);
}

TEST_F(rt, sizes_to_the_maximum)
{
	size_t max = dma_max(), bo_size = max + 8192, sz;
	static const unsigned int mis[] = { 0, 1, 31, 33, 4095 };
	uint64_t to0, from0, to1, from1;
	unsigned int bad = 0, runs = 0, k = 0;
	struct known_bo b;

	RT_OPEN(dev);
	REQUIRE(known_bo(dev, bo_size, &b) == 0);
	to0 = param(dev, KOHAKU_PARAM_DMA_BYTES_TO_CARD);
	from0 = param(dev, KOHAKU_PARAM_DMA_BYTES_FROM_CARD);
	for (sz = 64; sz <= max && bad < 4; sz *= 2) {
		size_t d;

		for (d = 0; d < 3; d++) {
			size_t n = sz - 1 + d, off = (k * 97) % 4096;
			unsigned int wm = mis[k % 5], rm = mis[(k + 2) % 5];

			if (off + n > bo_size)
				continue;
			k++;
			runs++;
			if (!roundtrip(dev, b.h, b.size, b.mirror, off, n, wm, rm,
				       (uint32_t)(sz + d)))
				bad++;
		}
	}
	CHECK_MSG(!bad, "%u of %u transfers went wrong", bad, runs);
	to1 = param(dev, KOHAKU_PARAM_DMA_BYTES_TO_CARD);
	from1 = param(dev, KOHAKU_PARAM_DMA_BYTES_FROM_CARD);
	CHECK(to1 > to0 && from1 > from0);
	check_diag("%u transfers from 63 bytes to %zu, pointers misaligned by up to 4095; engine moved %llu bytes in, %llu out",
		 runs, max, (unsigned long long)(to1 - to0),
		 (unsigned long long)(from1 - from0));
	known_free(dev, &b);
	kohaku_close(dev);
}

/* the card's own view of what BO_WRITE wrote and of what BO_READ reads */
TEST_F(rt, the_card_agrees)
{
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	struct known_bo b;
	uint32_t got;
	unsigned char *rb;
	size_t i;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	REQUIRE(known_bo(dev, 3 << 20, &b) == 0);
	/* odd offset and length: the unit's CRC over the bytes BO_WRITE put there */
	CHECK(roundtrip(dev, b.h, b.size, b.mirror, 4097, 1000003, 3, 5, 77));
	CHECK_EQ(kohaku_inst_pool_crc32(&inst, b.addr, b.addr + (2 << 20), 1000003 + 4097), 0);
	CHECK_EQ(rt_run_on(dev, &nd[0], &inst, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(kohaku_bo_read(dev, b.h, 2 << 20, &got, 4), 0);
	CHECK_EQ(got, (uint32_t)crc32(0, b.mirror, 1000003 + 4097));
	/* what the unit wrote, read back by the engine */
	CHECK_EQ(kohaku_inst_pool_fill(&inst, b.addr + 65536, 0x5a6b7c8du, 131072), 0);
	CHECK_EQ(rt_run_on(dev, &nd[0], &inst, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	rb = malloc(131072 + 3);
	REQUIRE(rb);
	CHECK_EQ(kohaku_bo_read(dev, b.h, 65536, rb + 3, 131072), 0);
	for (i = 0; i < 131072; i += 4) {
		uint32_t w;

		memcpy(&w, rb + 3 + i, 4);
		if (w != 0x5a6b7c8du) {
			CHECK_MSG(0, "word %zu reads 0x%08x", i / 4, w);
			break;
		}
	}
	free(rb);
	known_free(dev, &b);
	(void)n;
	kohaku_close(dev);
}

/* with vectors in use a transfer completes by interrupt; without, none is taken */
TEST_F(rt, interrupts_or_polling)
{
	const char *irq = getenv("KOHAKU_SIM_IRQ");
	uint64_t vec, before, after;
	struct known_bo b;

	RT_OPEN(dev);
	vec = param(dev, KOHAKU_PARAM_IRQ_VECTORS);
	if (kohaku_device_backend(dev) == KOHAKU_BACKEND_SIM && irq && !strcmp(irq, "poll"))
		CHECK_EQ(vec, 0);
	REQUIRE(known_bo(dev, 1 << 20, &b) == 0);
	before = param(dev, KOHAKU_PARAM_IRQS);
	CHECK(roundtrip(dev, b.h, b.size, b.mirror, 100, (1 << 20) - 200, 7, 9, 5));
	after = param(dev, KOHAKU_PARAM_IRQS);
	if (vec)
		CHECK_MSG(after >= before + 2, "%llu interrupts for a write and a read",
			  (unsigned long long)(after - before));
	else
		CHECK_EQ(after, before);
	check_diag("%llu vectors in use; %llu interrupts for a 1 MiB write and read",
		 (unsigned long long)vec, (unsigned long long)(after - before));
	known_free(dev, &b);
	kohaku_close(dev);
}

/*
 * The card side answers SLVERR (kohakutpu.md 5.6: uninitialised ECC DRAM):
 * the channel wedges; the call fails with EIO and the driver recovers it,
 * so the next call moves the data.
 */
TEST_F(rt, wedged_channel_fails_one_call)
{
	static const char *const dirs[2] = { "h2c", "c2h" };
	unsigned char *w = malloc(65536), *r = malloc(65536);
	struct known_bo b;
	char knob[96];
	uint64_t err0;
	unsigned int d;
	int ret;

	RT_OPEN(dev);
	REQUIRE(w && r);
	REQUIRE(known_bo(dev, 1 << 20, &b) == 0);
	for (d = 0; d < 2; d++) {
		snprintf(knob, sizeof(knob), "xdma error=slverr dir=%s count=1", dirs[d]);
		ret = kohaku_sim_inject(dev, knob);
		if (ret == -EOPNOTSUPP) {
			free(w);
			free(r);
			known_free(dev, &b);
			kohaku_close(dev);
			SKIP(return, "no fault injection on this device");
		}
		REQUIRE(ret == 0);
		err0 = param(dev, KOHAKU_PARAM_DMA_ERRORS);
		fill(w, 65536, 900 + d);
		ret = d ? kohaku_bo_read(dev, b.h, 4096, r, 65536) :
			  kohaku_bo_write(dev, b.h, 4096, w, 65536);
		CHECK_MSG(ret == -EIO, "%s with SLVERR: %d, expected EIO", dirs[d], ret);
		check_diag("%s", kohaku_last_error(dev));
		CHECK_EQ(param(dev, KOHAKU_PARAM_DMA_ERRORS), err0 + 1);
		/* recovered: the same transfer again works */
		CHECK_EQ(kohaku_bo_write(dev, b.h, 4096, w, 65536), 0);
		CHECK_EQ(kohaku_bo_read(dev, b.h, 4096, r, 65536), 0);
		CHECK(!memcmp(w, r, 65536));
	}
	kohaku_sim_inject(dev, "clear");
	free(w);
	free(r);
	known_free(dev, &b);
	kohaku_close(dev);
}

TEST_F(rt, refusals)
{
	unsigned char buf[64];
	uint32_t h;
	uint64_t a;

	RT_OPEN(dev);
	REQUIRE(kohaku_bo_create(dev, 0, 4096, &h, &a) == 0);
	CHECK_EQ(param(dev, KOHAKU_PARAM_DMA_CHANNELS), 2);
	/* a NULL buffer faults before the card moves anything */
	CHECK_EQ(kohaku_bo_write(dev, h, 0, NULL, 64), -EFAULT);
	CHECK_EQ(kohaku_bo_read(dev, h, 0, NULL, 64), -EFAULT);
	CHECK_EQ(kohaku_bo_write(dev, h, 4090, buf, 64), -EINVAL);
	CHECK_EQ(kohaku_bo_write(dev, h, 0, buf, 0), 0);
	kohaku_bo_free(dev, h);
	kohaku_close(dev);
}

RT_TEST_MAIN
