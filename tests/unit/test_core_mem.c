// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The device-memory allocator of driver/core: first fit, 4 KiB granules,
 * coalescing on release, no overlap, exhaustion reported.
 */
#include "check.h"
#include "kh_priv.h"
#include "harness.h"

CHECK_FIXTURE(core)

static u64 free_extents(struct kh_mem *mem)
{
	struct kh_extent *e;
	u64 n = 0;

	list_for_each_entry(e, &mem->free, link)
		n++;
	return n;
}

TEST_F(core, alloc_is_first_fit_and_disjoint)
{
	struct kh_mem mem;
	u64 a, b, c;

	REQUIRE(kh_mem_init(&mem, 1 << 20) == 0);
	CHECK_EQ(mem.free_bytes, 1 << 20);
	CHECK_EQ(kh_mem_alloc(&mem, 4096, &a), 0);
	CHECK_EQ(kh_mem_alloc(&mem, 8192, &b), 0);
	CHECK_EQ(kh_mem_alloc(&mem, 4096, &c), 0);
	CHECK_EQ(a, 0);
	CHECK_EQ(b, 4096);
	CHECK_EQ(c, 12288);
	CHECK_EQ(mem.free_bytes, (1 << 20) - 16384);
	kh_mem_fini(&mem);
}

TEST_F(core, release_coalesces_both_sides)
{
	struct kh_mem mem;
	u64 a, b, c;

	REQUIRE(kh_mem_init(&mem, 64 * 4096) == 0);
	kh_mem_alloc(&mem, 4096, &a);
	kh_mem_alloc(&mem, 4096, &b);
	kh_mem_alloc(&mem, 4096, &c);
	kh_mem_release(&mem, a, 4096);
	CHECK_EQ(free_extents(&mem), 2);
	kh_mem_release(&mem, c, 4096);	/* joins the tail */
	CHECK_EQ(free_extents(&mem), 2);
	kh_mem_release(&mem, b, 4096);	/* joins both: one extent again */
	CHECK_EQ(free_extents(&mem), 1);
	CHECK_EQ(mem.free_bytes, 64 * 4096);
	/* the whole range is allocatable in one piece again */
	CHECK_EQ(kh_mem_alloc(&mem, 64 * 4096, &a), 0);
	CHECK_EQ(a, 0);
	kh_mem_fini(&mem);
}

TEST_F(core, hole_reused_first)
{
	struct kh_mem mem;
	u64 a, b, c, d;

	REQUIRE(kh_mem_init(&mem, 16 * 4096) == 0);
	kh_mem_alloc(&mem, 2 * 4096, &a);
	kh_mem_alloc(&mem, 2 * 4096, &b);
	kh_mem_release(&mem, a, 2 * 4096);
	CHECK_EQ(kh_mem_alloc(&mem, 4096, &c), 0);
	CHECK_EQ(c, 0);
	CHECK_EQ(kh_mem_alloc(&mem, 2 * 4096, &d), 0);
	CHECK_EQ(d, 4 * 4096);	/* the 1-page hole is too small */
	kh_mem_fini(&mem);
}

TEST_F(core, exhaustion_is_enomem_and_loses_nothing)
{
	struct kh_mem mem;
	u64 a, b;

	REQUIRE(kh_mem_init(&mem, 4 * 4096) == 0);
	CHECK_EQ(kh_mem_alloc(&mem, 5 * 4096, &a), -ENOMEM);
	CHECK_EQ(mem.free_bytes, 4 * 4096);
	CHECK_EQ(kh_mem_alloc(&mem, 4 * 4096, &a), 0);
	CHECK_EQ(kh_mem_alloc(&mem, 4096, &b), -ENOMEM);
	CHECK_EQ(mem.free_bytes, 0);
	kh_mem_release(&mem, a, 4 * 4096);
	CHECK_EQ(mem.free_bytes, 4 * 4096);
	kh_mem_fini(&mem);
}

/* KOHAKU_BO_FIXED's allocation: exactly the range, or EBUSY and nothing */
TEST_F(core, alloc_at_takes_exactly_the_range)
{
	struct kh_mem mem;
	u64 a;

	REQUIRE(kh_mem_init(&mem, 16 * 4096) == 0);
	/* the middle of the one extent: it splits in two */
	CHECK_EQ(kh_mem_alloc_at(&mem, 4 * 4096, 2 * 4096), 0);
	CHECK_EQ(free_extents(&mem), 2);
	CHECK_EQ(mem.free_bytes, 14 * 4096);
	/* any byte of it again, or a range across it: EBUSY, nothing changed */
	CHECK_EQ(kh_mem_alloc_at(&mem, 4 * 4096, 4096), -EBUSY);
	CHECK_EQ(kh_mem_alloc_at(&mem, 5 * 4096, 4096), -EBUSY);
	CHECK_EQ(kh_mem_alloc_at(&mem, 3 * 4096, 2 * 4096), -EBUSY);
	CHECK_EQ(kh_mem_alloc_at(&mem, 0, 16 * 4096), -EBUSY);
	CHECK_EQ(free_extents(&mem), 2);
	CHECK_EQ(mem.free_bytes, 14 * 4096);
	/* an extent's start, its end, an extent whole */
	CHECK_EQ(kh_mem_alloc_at(&mem, 0, 4096), 0);
	CHECK_EQ(kh_mem_alloc_at(&mem, 15 * 4096, 4096), 0);
	CHECK_EQ(kh_mem_alloc_at(&mem, 4096, 3 * 4096), 0);
	CHECK_EQ(free_extents(&mem), 1);
	CHECK_EQ(mem.free_bytes, 9 * 4096);
	/* first fit steps round what was taken */
	CHECK_EQ(kh_mem_alloc(&mem, 4096, &a), 0);
	CHECK_EQ(a, 6 * 4096);
	/* released, it all joins up again */
	kh_mem_release(&mem, a, 4096);
	kh_mem_release(&mem, 4 * 4096, 2 * 4096);
	kh_mem_release(&mem, 0, 4096);
	kh_mem_release(&mem, 4096, 3 * 4096);
	kh_mem_release(&mem, 15 * 4096, 4096);
	CHECK_EQ(free_extents(&mem), 1);
	CHECK_EQ(mem.free_bytes, 16 * 4096);
	CHECK_EQ(kh_mem_alloc_at(&mem, 0, 16 * 4096), 0);
	CHECK_EQ(mem.free_bytes, 0);
	CHECK_EQ(kh_mem_alloc_at(&mem, 0, 4096), -EBUSY);
	kh_mem_fini(&mem);
}

TEST_F(core, random_churn_keeps_books)
{
	struct kh_mem mem;
	u64 start[64] = { 0 }, len[64] = { 0 };
	unsigned int i, seed = 12345;
	u64 used = 0;

	REQUIRE(kh_mem_init(&mem, 256 * 4096) == 0);
	for (i = 0; i < 20000; i++) {
		unsigned int k;

		seed = seed * 1103515245 + 12345;
		k = (seed >> 8) % 64;
		if (len[k]) {
			kh_mem_release(&mem, start[k], len[k]);
			used -= len[k];
			len[k] = 0;
		} else {
			u64 l = (((seed >> 16) % 8) + 1) * 4096;

			if (!kh_mem_alloc(&mem, l, &start[k])) {
				unsigned int j;

				for (j = 0; j < 64; j++)
					if (j != k && len[j])
						CHECK(start[k] + l <= start[j] ||
						      start[j] + len[j] <= start[k]);
				len[k] = l;
				used += l;
			}
		}
		CHECK_EQ(mem.free_bytes + used, 256 * 4096);
	}
	for (i = 0; i < 64; i++)
		if (len[i])
			kh_mem_release(&mem, start[i], len[i]);
	CHECK_EQ(free_extents(&mem), 1);
	kh_mem_fini(&mem);
}

CHECK_TEST_MAIN
