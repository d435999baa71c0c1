// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Buffer objects: create/info/free, read/write at any offset, refusals, ownership. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

static int bo_create_raw(kohaku_device *dev, struct drm_kohaku_bo_create *c,
			 unsigned int mesh, uint64_t size)
{
	memset(c, 0, sizeof(*c));
	c->mesh = mesh;
	c->size = size;
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, c);
}

static int bo_info_raw(kohaku_device *dev, uint32_t h,
		       struct drm_kohaku_bo_info *i)
{
	memset(i, 0, sizeof(*i));
	i->handle = h;
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_INFO, i);
}

static int bo_rw_raw(kohaku_device *dev, unsigned long cmd, uint32_t h,
		     uint64_t off, uint64_t size, void *p)
{
	struct drm_kohaku_bo_rw rw;

	memset(&rw, 0, sizeof(rw));
	rw.handle = h;
	rw.offset = off;
	rw.size = size;
	rw.data_ptr = (uintptr_t)p;
	return rt_ioctl(dev, cmd, &rw);
}

static uint64_t mem_free(kohaku_device *dev)
{
	struct drm_kohaku_get_info in;

	memset(&in, 0, sizeof(in));
	if (rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in))
		return 0;
	return in.mesh[0].mem_free;
}

TEST_F(rt, bo_create_info_free)
{
	uint64_t sizes[] = { 1, 31, 32, 4095, 4096, 4097, 65536, 1 << 20 };
	struct drm_kohaku_bo_create c;
	struct drm_kohaku_bo_info bi;
	struct drm_kohaku_bo_free f;
	uint32_t handles[8];
	uint64_t addrs[8], lens[8];
	unsigned int i, j;
	uint64_t free0;
	RT_OPEN(dev);

	free0 = mem_free(dev);
	for (i = 0; i < 8; i++) {
		memset(&c, 0x11, sizeof(c));	/* out fields garbage on input */
		c.flags = 0;
		c.pad = 0;
		c.reserved[0] = c.reserved[1] = 0;
		c.mesh = 0;
		c.size = sizes[i];
		CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c));
		CHECK(c.handle != 0);
		CHECK_EQ(c.dev_addr % KOHAKU_BO_ALIGN, 0);
		CHECK_EQ(c.dev_addr >> KH_MADDR_MESH_SHIFT, 0);	/* mesh 0 */
		CHECK_EQ(c.pad, 0);
		handles[i] = c.handle;
		addrs[i] = c.dev_addr;
		lens[i] = ALIGN_UP(sizes[i], KOHAKU_BO_ALIGN);

		CHECK_OK(dev, bo_info_raw(dev, c.handle, &bi));
		CHECK_EQ(bi.dev_addr, c.dev_addr);
		CHECK_EQ(bi.mesh, 0);
		/*
		 * The ABI says the size is rounded up to KOHAKU_BO_ALIGN; a
		 * driver may report the rounded or the requested size.
		 */
		CHECK_MSG(bi.size == sizes[i] || bi.size == lens[i],
			  "BO_INFO size %llu for a BO of %llu bytes",
			  (unsigned long long)bi.size,
			  (unsigned long long)sizes[i]);
		CHECK_EQ(bi.pad, 0);
	}
	/* distinct handles, disjoint ranges */
	for (i = 0; i < 8; i++)
		for (j = 0; j < i; j++) {
			CHECK(handles[i] != handles[j]);
			CHECK_MSG(addrs[i] + lens[i] <= addrs[j] ||
				  addrs[j] + lens[j] <= addrs[i],
				  "BOs %u and %u overlap", i, j);
		}
	{
		uint64_t used = 0;

		for (i = 0; i < 8; i++)
			used += lens[i];
		CHECK_EQ(free0 - mem_free(dev), used);
	}
	for (i = 0; i < 8; i++) {
		memset(&f, 0, sizeof(f));
		f.handle = handles[i];
		CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_FREE, &f));
		/* freed: gone */
		CHECK_ERR(bo_info_raw(dev, handles[i], &bi), -ENOENT);
		CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_FREE, &f), -ENOENT);
		CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, handles[i], 0, 1,
				    &f), -ENOENT);
		CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_WRITE, handles[i], 0, 1,
				    &f), -ENOENT);
	}
	CHECK_EQ(mem_free(dev), free0);
	/* a freed handle is not handed out again for a new BO */
	CHECK_OK(dev, bo_create_raw(dev, &c, 0, 4096));
	for (i = 0; i < 8; i++)
		CHECK(c.handle != handles[i]);
	CHECK_OK(dev, kohaku_bo_free(dev, c.handle));
	kohaku_close(dev);
}

TEST_F(rt, bo_library_calls)
{
	struct kohaku_bo_info bi;
	uint32_t h;
	uint64_t a;
	char buf[100], back[100];
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_bo_create(dev, 0, 100, &h, &a));
	CHECK_OK(dev, kohaku_bo_info(dev, h, &bi, sizeof(bi)));
	CHECK_EQ(bi.handle, h);
	CHECK_EQ(bi.dev_addr, a);
	CHECK_EQ(bi.mesh, 0);
	memset(buf, 'k', sizeof(buf));
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, buf, sizeof(buf)));
	CHECK_OK(dev, kohaku_bo_read(dev, h, 0, back, sizeof(back)));
	CHECK(!memcmp(buf, back, sizeof(buf)));
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK_ERR(kohaku_bo_free(dev, h), -ENOENT);
	/* the message says what and why */
	CHECK(strstr(kohaku_last_error(dev), "ENOENT") != NULL);
	CHECK(strstr(kohaku_last_error(dev), "buffer object") != NULL);
	kohaku_close(dev);
}

static void pattern(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;
	uint32_t s = seed * 2654435761u + 1;

	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		p[i] = (unsigned char)(s >> 16);
	}
}

TEST_F(rt, bo_rw_any_offset_and_size)
{
	enum { SZ = 3 * 4096 };
	static const struct { uint64_t off, len; } cases[] = {
		{ 0, 32 }, { 0, 4096 }, { 32, 64 }, { 0, SZ },
		{ 1, 1 }, { 31, 1 }, { 31, 2 }, { 5, 27 }, { 5, 28 },
		{ 33, 100 }, { 63, 66 }, { 4095, 2 }, { 100, 8000 },
		{ SZ - 1, 1 }, { SZ - 33, 33 }, { 17, SZ - 17 }, { 1, SZ - 2 },
		{ 64, 1 }, { 2000, 4096 + 7 },
	};
	unsigned char *model = malloc(SZ), *buf = malloc(SZ), *back = malloc(SZ);
	unsigned int i;
	uint32_t h;
	RT_OPEN(dev);

	REQUIRE(model && buf && back);
	CHECK_OK(dev, kohaku_bo_create(dev, 0, SZ, &h, NULL));
	pattern(model, SZ, 99);
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, model, SZ));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t off = cases[i].off, len = cases[i].len;

		pattern(buf, len, i + 1);
		CHECK_OK(dev, kohaku_bo_write(dev, h, off, buf, len));
		memcpy(model + off, buf, len);
		/* read back the whole BO: neighbours undisturbed */
		memset(back, 0, SZ);
		CHECK_OK(dev, kohaku_bo_read(dev, h, 0, back, SZ));
		if (memcmp(back, model, SZ)) {
			size_t k;

			for (k = 0; k < SZ && back[k] == model[k]; k++)
				;
			check_fail_at(__FILE__, __LINE__,
				    "write [%llu, +%llu): byte %zu is 0x%02x, "
				    "expected 0x%02x", (unsigned long long)off,
				    (unsigned long long)len, k, back[k], model[k]);
		}
		/* and the unaligned read of just that range */
		memset(back, 0, SZ);
		CHECK_OK(dev, kohaku_bo_read(dev, h, off, back, len));
		CHECK_MSG(!memcmp(back, buf, len), "read [%llu, +%llu) differs",
			  (unsigned long long)off, (unsigned long long)len);
	}
	/* unaligned reads of known data, every small offset and size */
	{
		unsigned int o, n, bad = 0;

		for (o = 0; o < 40; o++)
			for (n = 1; n < 70; n += 3) {
				memset(back, 0, 80);
				if (kohaku_bo_read(dev, h, o, back, n) ||
				    memcmp(back, model + o, n))
					bad++;
			}
		CHECK_EQ(bad, 0);
	}
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	free(model);
	free(buf);
	free(back);
	kohaku_close(dev);
}

TEST_F(rt, bo_rw_out_of_range)
{
	struct drm_kohaku_bo_info bi;
	unsigned char buf[64];
	uint64_t sz;
	uint32_t h;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_bo_create(dev, 0, 4096, &h, NULL));
	CHECK_OK(dev, bo_info_raw(dev, h, &bi));
	sz = bi.size;
	memset(buf, 1, sizeof(buf));
	/* the last byte is in range */
	CHECK_OK(dev, kohaku_bo_write(dev, h, sz - 1, buf, 1));
	CHECK_OK(dev, kohaku_bo_read(dev, h, sz - 1, buf, 1));
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_WRITE, h, sz, 1, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, h, sz, 1, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_WRITE, h, sz - 1, 2, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, h, sz - 1, 2, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, h, 0, sz + 1, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, h, sz + 4096, 1, buf), -EINVAL);
	/* offset + size wrapping around 2^64 */
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, h, ~0ULL - 2, 8, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_WRITE, h, 8, ~0ULL - 2, buf), -EINVAL);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, h, ~0ULL, ~0ULL, buf), -EINVAL);
	/* handle 0 and a never-made handle */
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, 0, 0, 1, buf), -ENOENT);
	CHECK_ERR(bo_rw_raw(dev, DRM_IOCTL_KOHAKU_BO_READ, 0xdeadbeef, 0, 1, buf), -ENOENT);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, bo_create_bad_size_and_mesh)
{
	struct drm_kohaku_bo_create c;
	struct drm_kohaku_get_info in;
	int r;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_get_info(dev, &in, sizeof(in)));
	CHECK_ERR(bo_create_raw(dev, &c, 0, 0), -EINVAL);
	r = bo_create_raw(dev, &c, 0, 1ULL << 62);
	CHECK_MSG(r == -EINVAL || r == -ENOMEM, "2^62 bytes: %d", r);
	r = bo_create_raw(dev, &c, 0, ~0ULL);
	CHECK_MSG(r == -EINVAL || r == -ENOMEM, "2^64-1 bytes: %d", r);
	r = bo_create_raw(dev, &c, 0, ~0ULL - 4094);	/* wraps when rounded */
	CHECK_MSG(r == -EINVAL || r == -ENOMEM, "2^64-4095 bytes: %d", r);
	r = bo_create_raw(dev, &c, 0, in.mesh[0].mem_size + 1);
	CHECK_MSG(r == -EINVAL || r == -ENOMEM, "mem_size+1 bytes: %d", r);
	/* meshes that are not there */
	CHECK_ERR(bo_create_raw(dev, &c, 1, 4096), -EINVAL);
	CHECK_ERR(bo_create_raw(dev, &c, 3, 4096), -EINVAL);
	CHECK_ERR(bo_create_raw(dev, &c, KOHAKU_MAX_MESHES, 4096), -EINVAL);
	CHECK_ERR(bo_create_raw(dev, &c, 0xffffffffu, 4096), -EINVAL);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, bo_exhaust_and_recover)
{
	struct drm_kohaku_get_info in;
	struct drm_kohaku_bo_create c;
	uint32_t big = 0, h2 = 0;
	uint64_t free0;
	int r;
	RT_OPEN(dev);

	memset(&in, 0, sizeof(in));
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in));
	free0 = in.mesh[0].mem_free;
	/* all the free memory in one BO, then nothing more fits */
	r = bo_create_raw(dev, &c, 0, free0);
	if (r == 0) {
		big = c.handle;
		CHECK_EQ(mem_free(dev), 0);
		r = bo_create_raw(dev, &c, 0, 4096);
		CHECK_MSG(r == -ENOMEM, "a full mesh: %d, expected -ENOMEM", r);
		CHECK(strlen(kohaku_last_error(dev)) > 0);
		CHECK_OK(dev, kohaku_bo_free(dev, big));
	} else {
		check_diag("one BO of all %llu free bytes: %d (fragmented?)",
			 (unsigned long long)free0, r);
	}
	CHECK_EQ(mem_free(dev), free0);
	CHECK_OK(dev, kohaku_bo_create(dev, 0, 4096, &h2, NULL));
	CHECK_OK(dev, kohaku_bo_free(dev, h2));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/*
 * The BOs one open file may hold (docs/abi.md): KOHAKU_MAX_BOS, which
 * GET_PARAM MAX_BOS answers; one more is ENOSPC with the memory still
 * free, another file is not limited by this one's, and BO_FREE of one
 * makes room.  A full mesh is ENOMEM.
 */
TEST_F(rt, bo_cap_per_file_enospc)
{
	struct drm_kohaku_get_param g = { .param = KOHAKU_PARAM_MAX_BOS };
	struct drm_kohaku_bo_create c;
	kohaku_device *other = NULL;
	uint32_t *h, h2;
	uint64_t free0;
	unsigned int i, made = 0;
	int r = 0;
	RT_OPEN(dev);

	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &g));
	CHECK_EQ(g.value, KOHAKU_MAX_BOS);
	free0 = mem_free(dev);
	if (free0 < (uint64_t)(KOHAKU_MAX_BOS + 1) * KOHAKU_BO_ALIGN) {
		kohaku_close(dev);
		SKIP(return, "mesh 0 has %llu bytes free, fewer than %u BOs of %u",
		     (unsigned long long)free0, KOHAKU_MAX_BOS + 1, KOHAKU_BO_ALIGN);
	}
	h = calloc(KOHAKU_MAX_BOS, sizeof(*h));
	REQUIRE(h);
	for (i = 0; i < KOHAKU_MAX_BOS && !r; i++) {
		r = bo_create_raw(dev, &c, 0, 1);
		if (!r)
			h[made++] = c.handle;
	}
	CHECK_MSG(made == KOHAKU_MAX_BOS, "%u BOs made of %u: %d", made,
		  KOHAKU_MAX_BOS, r);
	/* the next one: ENOSPC, though the mesh has room */
	CHECK(mem_free(dev) >= KOHAKU_BO_ALIGN);
	CHECK_ERR(bo_create_raw(dev, &c, 0, 1), -ENOSPC);
	/* the driver's message (in-process; kohaku.ko's is in the log) */
	if (kohaku_device_backend(dev) != KOHAKU_BACKEND_KERNEL)
		CHECK_MSG(strstr(kohaku_last_error(dev), "KOHAKU_MAX_BOS"),
			  "'%s'", kohaku_last_error(dev));
	/* per file: another open file creates its own */
	REQUIRE(kohaku_reopen(dev, &other) == 0);
	CHECK_OK(other, kohaku_bo_create(other, 0, 1, &h2, NULL));
	CHECK_OK(other, kohaku_bo_free(other, h2));
	kohaku_close(other);
	/* one freed makes room for one */
	CHECK_OK(dev, kohaku_bo_free(dev, h[--made]));
	CHECK_OK(dev, bo_create_raw(dev, &c, 0, 1));
	h[made++] = c.handle;
	CHECK_ERR(bo_create_raw(dev, &c, 0, 1), -ENOSPC);
	for (i = 0; i < made; i++)
		CHECK_OK(dev, kohaku_bo_free(dev, h[i]));
	free(h);
	CHECK_EQ(mem_free(dev), free0);
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, bo_another_file_gets_enoent)
{
	struct drm_kohaku_bo_info bi;
	struct drm_kohaku_bo_free f;
	kohaku_device *dev2 = NULL;
	unsigned char buf[32];
	uint32_t h, h2;
	uint64_t free0;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_bo_create(dev, 0, 4096, &h, NULL));
	memset(buf, 0x42, sizeof(buf));
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, buf, sizeof(buf)));
	CHECK_OK(dev, kohaku_reopen(dev, &dev2));
	REQUIRE(dev2 != NULL);
	/* the second file cannot see, touch or free the first's BO */
	CHECK_ERR(bo_info_raw(dev2, h, &bi), -ENOENT);
	CHECK_ERR(bo_rw_raw(dev2, DRM_IOCTL_KOHAKU_BO_READ, h, 0, 32, buf), -ENOENT);
	CHECK_ERR(bo_rw_raw(dev2, DRM_IOCTL_KOHAKU_BO_WRITE, h, 0, 32, buf), -ENOENT);
	memset(&f, 0, sizeof(f));
	f.handle = h;
	CHECK_ERR(rt_ioctl(dev2, DRM_IOCTL_KOHAKU_BO_FREE, &f), -ENOENT);
	/* the second file's own BO is equally invisible to the first */
	CHECK_OK(dev2, kohaku_bo_create(dev2, 0, 8192, &h2, NULL));
	if (h2 != h)
		CHECK_ERR(bo_info_raw(dev, h2, &bi), -ENOENT);
	/* the first file's BO still holds its data */
	memset(buf, 0, sizeof(buf));
	CHECK_OK(dev, kohaku_bo_read(dev, h, 0, buf, sizeof(buf)));
	CHECK_EQ(buf[0], 0x42);
	CHECK_EQ(buf[31], 0x42);
	/* closing a file frees its BOs */
	free0 = mem_free(dev);
	kohaku_close(dev2);
	CHECK_EQ(mem_free(dev) - free0, 8192);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	kohaku_close(dev);
}

/*
 * Memory changes hands zeroed: another file's BO over the memory a freed
 * one held (the allocator hands out the lowest free piece that fits, so
 * the same addresses) reads zeros, never what its last owner wrote.
 */
TEST_F(rt, bo_new_owner_reads_zeros)
{
	kohaku_device *dev2 = NULL;
	static unsigned char buf[65536];
	uint64_t a, a2;
	uint32_t h, h2;
	size_t i, nz = 0;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_bo_create(dev, 0, sizeof(buf), &h, &a));
	memset(buf, 0xa5, sizeof(buf));
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, buf, sizeof(buf)));
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK_OK(dev, kohaku_reopen(dev, &dev2));
	REQUIRE(dev2 != NULL);
	/* an odd size: the allocation's tail past it is cleared as well */
	CHECK_OK(dev2, kohaku_bo_create(dev2, 0, sizeof(buf) - 100, &h2, &a2));
	if (a2 != a)
		check_diag("the new BO is at 0x%llx, the freed one was at 0x%llx",
			   (unsigned long long)a2, (unsigned long long)a);
	memset(buf, 0x5a, sizeof(buf));
	CHECK_OK(dev2, kohaku_bo_read(dev2, h2, 0, buf, sizeof(buf) - 100));
	for (i = 0; i < sizeof(buf) - 100; i++)
		nz += buf[i] != 0;
	CHECK_EQ(nz, 0);
	kohaku_close(dev2);
	kohaku_close(dev);
}

TEST_F(rt, bo_nonzero_flags_pad_reserved)
{
	struct drm_kohaku_bo_create c;
	struct drm_kohaku_bo_free f;
	struct drm_kohaku_bo_info bi;
	struct drm_kohaku_bo_rw rw;
	unsigned char buf[32] = { 0 };
	uint32_t h;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_bo_create(dev, 0, 4096, &h, NULL));

	memset(&c, 0, sizeof(c));
	c.size = 4096;
	c.flags = 2;		/* KOHAKU_BO_FIXED is bit 0 (ABI 0.9) */
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c), -EINVAL);
	c.flags = 0x80000000u;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c), -EINVAL);
	c.flags = 0;
	c.pad = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c), -EINVAL);
	c.pad = 0;
	c.reserved[1] = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c), -EINVAL);

	memset(&bi, 0, sizeof(bi));
	bi.handle = h;
	bi.flags = 2;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_INFO, &bi), -EINVAL);
	bi.flags = 0;
	bi.pad = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_INFO, &bi), -EINVAL);
	bi.pad = 0;
	bi.reserved[0] = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_INFO, &bi), -EINVAL);

	memset(&rw, 0, sizeof(rw));
	rw.handle = h;
	rw.size = 32;
	rw.data_ptr = (uintptr_t)buf;
	rw.flags = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_WRITE, &rw), -EINVAL);
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_READ, &rw), -EINVAL);
	rw.flags = 0;
	rw.reserved[1] = 7;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_WRITE, &rw), -EINVAL);
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_READ, &rw), -EINVAL);

	memset(&f, 0, sizeof(f));
	f.handle = h;
	f.flags = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_FREE, &f), -EINVAL);
	f.flags = 0;
	f.reserved[0] = 1;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_FREE, &f), -EINVAL);
	/* none of that freed it */
	CHECK_OK(dev, bo_info_raw(dev, h, &bi));
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

TEST_F(rt, bo_null_pointers_efault)
{
	struct drm_kohaku_bo_rw rw;
	uint32_t h;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_bo_create(dev, 0, 4096, &h, NULL));
	memset(&rw, 0, sizeof(rw));
	rw.handle = h;
	rw.size = 64;
	rw.data_ptr = 0;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_WRITE, &rw), -EFAULT);
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_READ, &rw), -EFAULT);
	rw.offset = 5;
	rw.size = 3;
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_WRITE, &rw), -EFAULT);
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_READ, &rw), -EFAULT);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK(rt_good_saxpy(dev));
	kohaku_close(dev);
}

/* ---- BOs at a fixed address (ABI 0.9, KOHAKU_BO_FIXED) ---- */

/* KohakuTPU's compiler puts its arena here on every mesh: 64 MiB at 384 MiB */
#define ARENA_LOCAL	KOHAKU_ARTIFACT_ARENA_OFFSET
#define ARENA_SIZE	KOHAKU_ARTIFACT_ARENA_SIZE
#define ARENA(mesh)	((uint64_t)(mesh) << KH_MADDR_MESH_SHIFT | ARENA_LOCAL)

static int bo_fixed_raw(kohaku_device *dev, struct drm_kohaku_bo_create *c,
			unsigned int mesh, uint64_t addr, uint64_t size)
{
	memset(c, 0, sizeof(*c));
	c->flags = KOHAKU_BO_FIXED;
	c->mesh = mesh;
	c->size = size;
	c->dev_addr = addr;
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, c);
}

static uint64_t caps_of(kohaku_device *dev)
{
	struct drm_kohaku_get_info in;

	memset(&in, 0, sizeof(in));
	if (rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in))
		return 0;
	return in.caps;
}

#define FIXED_OPEN(dev)							\
	RT_OPEN(dev);							\
	if (!(caps_of(dev) & KOHAKU_CAP_BO_FIXED)) {			\
		kohaku_close(dev);					\
		SKIP(return, "the driver has no KOHAKU_CAP_BO_FIXED");	\
	}

/* the compiler's arena on every mesh: where it was asked, data reach it */
TEST_F(rt, bo_fixed_arena_on_every_mesh)
{
	struct drm_kohaku_get_info in;
	struct kohaku_bo_info bi;
	unsigned char buf[64], back[64];
	uint32_t h[KOHAKU_MAX_MESHES];
	unsigned int m, n = 0;
	FIXED_OPEN(dev);

	memset(&in, 0, sizeof(in));
	REQUIRE(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in) == 0);
	for (m = 0; m < in.n_meshes; m++) {
		uint64_t free0 = in.mesh[m].mem_free;

		if (!(in.mesh[m].flags & KOHAKU_MESH_PRESENT))
			continue;
		REQUIRE(in.mesh[m].mem_size >= ARENA_LOCAL + ARENA_SIZE);
		CHECK_OK(dev, kohaku_bo_create_at(dev, m, ARENA(m), ARENA_SIZE, &h[m]));
		CHECK_OK(dev, kohaku_bo_info(dev, h[m], &bi, sizeof(bi)));
		CHECK_EQ(bi.dev_addr, ARENA(m));
		CHECK_EQ(bi.size, ARENA_SIZE);
		CHECK_EQ(bi.mesh, m);
		memset(&in, 0, sizeof(in));
		REQUIRE(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in) == 0);
		CHECK_EQ(free0 - in.mesh[m].mem_free, ARENA_SIZE);
		/* the arena's last bytes are the BO's */
		memset(buf, 0x30 + m, sizeof(buf));
		CHECK_OK(dev, kohaku_bo_write(dev, h[m], ARENA_SIZE - sizeof(buf),
					     buf, sizeof(buf)));
		CHECK_OK(dev, kohaku_bo_read(dev, h[m], ARENA_SIZE - sizeof(buf),
					    back, sizeof(back)));
		CHECK(!memcmp(buf, back, sizeof(buf)));
		n++;
	}
	CHECK(n >= 1);
	/* a BO made after goes elsewhere: the allocator steps round it */
	for (m = 0; m < in.n_meshes; m++) {
		uint32_t h2;
		uint64_t a2;

		if (!(in.mesh[m].flags & KOHAKU_MESH_PRESENT))
			continue;
		CHECK_OK(dev, kohaku_bo_create(dev, m, 4096, &h2, &a2));
		CHECK(a2 + 4096 <= ARENA(m) || a2 >= ARENA(m) + ARENA_SIZE);
		CHECK_OK(dev, kohaku_bo_free(dev, h2));
		CHECK_OK(dev, kohaku_bo_free(dev, h[m]));
	}
	kohaku_close(dev);
}

/* the rules: the out field is dev_addr, the refusals say which rule */
TEST_F(rt, bo_fixed_refusals_einval)
{
	struct drm_kohaku_bo_create c;
	struct drm_kohaku_get_info in;
	uint64_t end;
	uint32_t h;
	FIXED_OPEN(dev);

	memset(&in, 0, sizeof(in));
	REQUIRE(rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &in) == 0);
	end = in.mesh[0].mem_size;
	/* raw: dev_addr comes back as asked */
	CHECK_OK(dev, bo_fixed_raw(dev, &c, 0, ARENA(0) + 8192, 100));
	CHECK_EQ(c.dev_addr, ARENA(0) + 8192);
	CHECK(c.handle != 0);
	CHECK_OK(dev, kohaku_bo_free(dev, c.handle));
	/* misaligned: by a byte, by half a page */
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0) + 1, 4096), -EINVAL);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0) + 2048, 4096), -EINVAL);
	CHECK_ERR(kohaku_bo_create_at(dev, 0, ARENA(0) + 32, 4096, &h), -EINVAL);
	CHECK(strstr(kohaku_last_error(dev), "KOHAKU_BO_ALIGN") != NULL);
	/* another mesh's bits (mesh 1's address asked on mesh 0), the special bit */
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(1), 4096), -EINVAL);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, 1ull << 39 | ARENA_LOCAL, 4096), -EINVAL);
	CHECK_ERR(kohaku_bo_create_at(dev, 0, ARENA(1), 4096, &h), -EINVAL);
	CHECK(strstr(kohaku_last_error(dev), "not on that mesh") != NULL);
	/* past the end: starting there, running over it, larger than the mesh */
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, end, 4096), -EINVAL);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, end - 4096, 8192), -EINVAL);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, 0, end + 4096), -EINVAL);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, end - 4096, ~0ull - 100), -EINVAL);
	CHECK_ERR(kohaku_bo_create_at(dev, 0, end - 4096, 8192, &h), -EINVAL);
	CHECK(strstr(kohaku_last_error(dev), "past the memory") != NULL);
	/* the last page is fine */
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, end - 4096, 4096, &h));
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	/* size 0, an absent mesh, an unknown flag beside FIXED */
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0), 0), -EINVAL);
	CHECK_ERR(bo_fixed_raw(dev, &c, KOHAKU_MAX_MESHES, ARENA(0), 4096), -EINVAL);
	memset(&c, 0, sizeof(c));
	c.flags = KOHAKU_BO_FIXED | 2;
	c.size = 4096;
	c.dev_addr = ARENA(0);
	CHECK_ERR(rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c), -EINVAL);
	/* none of that took memory: the arena is still whole */
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h));
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	/* without the flag dev_addr is not read */
	memset(&c, 0, sizeof(c));
	c.size = 4096;
	c.dev_addr = 12345;
	CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c));
	CHECK_OK(dev, kohaku_bo_free(dev, c.handle));
	kohaku_close(dev);
}

/* EBUSY over any byte of another BO, this file's or another's */
TEST_F(rt, bo_fixed_overlap_ebusy)
{
	struct drm_kohaku_bo_create c;
	kohaku_device *dev2 = NULL;
	uint32_t h, h2, h3;
	FIXED_OPEN(dev);

	CHECK_OK(dev, kohaku_reopen(dev, &dev2));
	REQUIRE(dev2 != NULL);
	/* another file holds a page in the middle of the arena */
	CHECK_OK(dev2, kohaku_bo_create_at(dev2, 0, ARENA(0) + (1 << 20), 4096, &h2));
	CHECK_ERR(kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h), -EBUSY);
	CHECK(strstr(kohaku_last_error(dev), "taken") != NULL);
	/* its first byte, its last, a range that ends a byte into it (rounded) */
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0) + (1 << 20), 1), -EBUSY);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0) + (1 << 20) - 4096, 4097), -EBUSY);
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0), (1 << 20) + 1), -EBUSY);
	/* right beside it on either side: free */
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0), 1 << 20, &h));
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0) + (1 << 20) + 4096, 4096, &h3));
	/* this file's own BO refuses alike */
	CHECK_ERR(bo_fixed_raw(dev, &c, 0, ARENA(0) + 4096, 4096), -EBUSY);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK_OK(dev, kohaku_bo_free(dev, h3));
	/* the other file's BO goes with its file: the whole arena is free */
	kohaku_close(dev2);
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h));
	/* and a BO made anywhere by the allocator is never inside it */
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	kohaku_close(dev);
}

/*
 * Memory freed while a job that may use it is unfinished is held back
 * (BO_FREE's rule): a fixed BO over it is EBUSY until the job is final,
 * then the same address is taken again.
 */
TEST_F(rt, bo_fixed_held_back_range_ebusy_until_reusable)
{
	struct drm_kohaku_node sx;
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	unsigned int i, k;
	uint64_t job;
	uint32_t h;
	char knob[64];
	bool held;
	int ret;
	FIXED_OPEN(dev);

	if (!rt_nodes_of(dev, KH_CU_SX, &sx, 1)) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on this card");
	}
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h));
	REQUIRE(rt_vec_setup(dev, 0, 1ul << 16, 9, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx, &v, 2.0f);
	/*
	 * On a simulated card the unit is held busy until the frees are
	 * done: a job's length alone raced them (the PCI card in the VM
	 * finished it between the WAIT that saw it running and BO_FREE, CI)
	 */
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=forever", sx.x, sx.y);
	held = rt_destructive_ok(dev) && kohaku_sim_inject(dev, knob) == 0;
	CHECK_OK(dev, kohaku_submit(dev, &p, 1, 0, &job));
	ret = kohaku_wait(dev, job, 0, &st, sizeof(st));
	if (ret != -ETIMEDOUT) {
		/* a fast card ran it during SUBMIT: nothing is held back */
		if (held)
			CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
		CHECK_OK(dev, kohaku_bo_free(dev, h));
		rt_vec_free(dev, &v);
		kohaku_close(dev);
		SKIP(return, "the job was final at once; no range is held back");
	}
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	ret = kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h);
	if (!ret && !held && kohaku_wait(dev, job, 0, &st, sizeof(st)) == 0) {
		/* no knob to hold the unit, and the job ended before the free */
		CHECK_OK(dev, kohaku_bo_free(dev, h));
		rt_vec_free(dev, &v);
		kohaku_close(dev);
		SKIP(return, "the job ended before its memory was freed");
	}
	/* held back: the arena, a page of it, its last page */
	CHECK_ERR(ret, -EBUSY);
	CHECK(strstr(kohaku_last_error(dev), "taken") != NULL);
	/*
	 * a page of it, its last page; without a knob to hold the unit (a
	 * PCI card) the job may end meanwhile, and then they are rightly free
	 */
	for (k = 0; k < 2; k++) {
		ret = kohaku_bo_create_at(dev, 0, ARENA(0) + (k ? ARENA_SIZE - 4096 : 8192),
					  4096, &h);
		if (!ret && !held && kohaku_wait(dev, job, 0, &st, sizeof(st)) == 0) {
			CHECK_OK(dev, kohaku_bo_free(dev, h));
			rt_vec_free(dev, &v);
			kohaku_close(dev);
			SKIP(return, "the job ended while its held-back range was looked at");
		}
		CHECK_ERR(ret, -EBUSY);
	}
	/* beside it: free */
	CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0) + ARENA_SIZE, 4096, &h));
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	if (held)
		CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	CHECK_OK(dev, kohaku_wait(dev, job, 60000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	/*
	 * Reusable now: the same address again.  The job leaves the mesh (and
	 * the memory goes back) just after WAIT sees it final, under the
	 * mesh's lock a waiter does not take: a moment's grace.
	 */
	for (i = 0; i < 1000; i++) {
		ret = kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h);
		if (ret != -EBUSY)
			break;
		usleep(1000);
	}
	CHECK_OK(dev, ret);
	CHECK_OK(dev, kohaku_bo_free(dev, h));
	CHECK_EQ(rt_vec_check(dev, &v, 2.0f, 1), 0);
	rt_vec_free(dev, &v);
	kohaku_close(dev);
}

/* free, then create at the same address at once (nothing unfinished) */
TEST_F(rt, bo_fixed_free_then_same_address)
{
	struct kohaku_bo_info bi;
	unsigned char buf[32];
	unsigned int i;
	uint32_t h;
	FIXED_OPEN(dev);

	for (i = 0; i < 3; i++) {
		CHECK_OK(dev, kohaku_bo_create_at(dev, 0, ARENA(0), ARENA_SIZE, &h));
		CHECK_OK(dev, kohaku_bo_info(dev, h, &bi, sizeof(bi)));
		CHECK_EQ(bi.dev_addr, ARENA(0));
		/* a fixed BO reads zeros too, whatever the last owner left */
		memset(buf, 0xee, sizeof(buf));
		CHECK_OK(dev, kohaku_bo_read(dev, h, 4096, buf, sizeof(buf)));
		CHECK_EQ(buf[0], 0);
		CHECK_EQ(buf[31], 0);
		memset(buf, 0x77, sizeof(buf));
		CHECK_OK(dev, kohaku_bo_write(dev, h, 4096, buf, sizeof(buf)));
		CHECK_OK(dev, kohaku_bo_free(dev, h));
	}
	kohaku_close(dev);
}

RT_TEST_MAIN
