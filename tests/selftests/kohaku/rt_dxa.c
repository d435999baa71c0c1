// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA unit (docs/spec/dxa.md) through the driver's slot ioctls (ABI
 * 0.5, docs/abi.md "DXA") and libkohaku's builders.
 *
 * The slots: ALLOC hands out 16 per unit and then EBUSY; every rule of
 * SET with its errno, a refused SET leaving the slot as it was; another
 * file's slot refused (ENOENT) to SET, GET and FREE and in its copies, but
 * readable from the unit with KOHAKU_DXA_GET_DEVICE; a file's slots freed
 * when it closes.  SUBMIT: every refusal of a program for a DXA unit (op,
 * reserved bits, receivers, a slot free, unset, another file's, its BO
 * freed; CU_DATA of the program's own), with nothing reaching the unit.
 *
 * Copies, each checked against a reference computed here by plain loops
 * over the descriptor (docs/spec/dxa.md "What the copy does"), not by the
 * library: ranks 1-5, element sizes 1, 2, 4 and 8, a tile past the edge of
 * each dimension with its fill (truncated, zero-extended), 1-4 receivers
 * with a multicast stride, K-major ranks 1 and 2, tiles at every edge and
 * wholly outside; what the unit holds in the slot afterwards (CU_CTRL)
 * against the driver's encoding and this file's own; a job keeping the
 * slot as it was at SUBMIT; a receiver refusing its burst as the job's
 * FAULT with the unit's NO_ACK, the device usable after.  The data goes to
 * scratch units and comes back by their COPY_OUT.
 *
 * The card: the built-in dxa_2x1 (a dxa unit, four scr units, an SX and a
 * null unit) in-process; on the kernel backend the device under test,
 * skipping unless it has a DXA unit and scratch units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "kohaku/kh_dxa.h"

#define MAX_SCR		8

struct dx {
	kohaku_device *dev;
	struct drm_kohaku_node dx;
	struct drm_kohaku_node scr[MAX_SCR];
	unsigned int n_scr;
};

/* a device with a DXA unit and scratch units, or SKIP */
#define DX_OPEN(c)							\
	struct dx c;							\
	do {								\
		struct drm_kohaku_node _d[4];				\
		memset(&c, 0, sizeof(c));				\
		c.dev = rt_open_card("dxa_2x1");			\
		REQUIRE(c.dev != NULL);					\
		c.n_scr = rt_nodes_of(c.dev, KH_CU_SC, c.scr, MAX_SCR);	\
		if (!rt_nodes_of(c.dev, KH_CU_DX, _d, 4) || !c.n_scr) {	\
			rt_close_card(c.dev);				\
			SKIP(return, "no DXA unit with scratch units on this device"); \
		}							\
		c.dx = _d[0];						\
	} while (0)

#define DX_CLOSE(c)	rt_close_card((c).dev)

/* ---- raw slot calls: the ioctl's errno, nothing from the library ---- */

static void slot_arg(struct drm_kohaku_dxa_slot *a, const struct dx *c,
		     unsigned int slot)
{
	memset(a, 0, sizeof(*a));
	a->mesh = c->dx.mesh;
	a->x = c->dx.x;
	a->y = c->dx.y;
	a->slot = (uint8_t)slot;
}

static int raw(kohaku_device *dev, unsigned long cmd,
	       struct drm_kohaku_dxa_slot *a)
{
	return rt_ioctl(dev, cmd, a);
}

static int raw_set(kohaku_device *dev, const struct dx *c, unsigned int slot,
		   const struct drm_kohaku_dxa_desc *d)
{
	struct drm_kohaku_dxa_slot a;

	slot_arg(&a, c, slot);
	a.desc = *d;
	return raw(dev, DRM_IOCTL_KOHAKU_DXA_SET, &a);
}

static int raw_get(kohaku_device *dev, const struct dx *c, unsigned int slot,
		   uint32_t flags, struct drm_kohaku_dxa_slot *out)
{
	slot_arg(out, c, slot);
	out->flags = flags;
	return raw(dev, DRM_IOCTL_KOHAKU_DXA_GET, out);
}

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* ---- this test's own encoding of a slot (docs/spec/dxa.md's table) ---- */

static void le(uint8_t *t, unsigned int at, uint64_t v, unsigned int n)
{
	while (n--) {
		t[at++] = (uint8_t)v;
		v >>= 8;
	}
}

static void ref_encode(uint8_t t[64], const struct drm_kohaku_dxa_desc *d,
		       uint64_t dev_addr)
{
	unsigned int k, l2 = 0;

	while ((1u << l2) < d->elem_bytes)
		l2++;
	memset(t, 0, 64);
	le(t, 0, dev_addr + d->bo_offset, 8);
	for (k = 0; k < 5; k++)
		le(t, 8 + 4 * k, d->size[k], 4);
	for (k = 0; k < 4; k++)
		le(t, 28 + 4 * k, d->stride[k], 4);
	le(t, 44, d->rank | l2 << 3 | (d->flags & KOHAKU_DXA_KMAJOR ? 1u << 5 : 0), 4);
	for (k = 0; k < 5; k++)
		le(t, 48 + 2 * k, d->tile[k], 2);
	le(t, 58, d->mstride, 2);
	le(t, 60, d->cfill, 4);
}

/* ---- a good descriptor to break ---- */

/* a 2-D tensor of u32, 40 x 30 (rows 256 bytes apart), tile 16 x 8 */
static struct drm_kohaku_dxa_desc good_desc(uint32_t bo)
{
	struct drm_kohaku_dxa_desc d;

	memset(&d, 0, sizeof(d));
	d.bo_handle = bo;
	d.rank = 2;
	d.elem_bytes = 4;
	d.size[0] = 40;
	d.size[1] = 30;
	d.stride[0] = 256;
	d.tile[0] = 16;
	d.tile[1] = 8;
	return d;
}

#define GOOD_BO_BYTES	(30 * 256)

/* ---- capabilities and allocation ---- */

TEST_F(rt, cap_dxa_says_dxa_units)
{
	struct drm_kohaku_get_info gi;
	RT_OPEN(dev);

	/* the device under test: the capability when it has a DXA unit */
	CHECK_OK(dev, kohaku_get_info(dev, &gi, sizeof(gi)));
	{
		struct drm_kohaku_node d[1];
		unsigned int n = rt_nodes_of(dev, KH_CU_DX, d, 1);

		CHECK_EQ(!!(gi.caps & KOHAKU_CAP_DXA), n > 0);
	}
	kohaku_close(dev);
	{
		DX_OPEN(c);
		CHECK_OK(c.dev, kohaku_get_info(c.dev, &gi, sizeof(gi)));
		CHECK(gi.caps & KOHAKU_CAP_DXA);
		DX_CLOSE(c);
	}
}

TEST_F(rt, alloc_gives_16_slots_then_ebusy_and_free_gives_one_back)
{
	struct drm_kohaku_dxa_slot a;
	unsigned int s, got = 0, slot;
	kohaku_device *d2;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_reopen(c.dev, &d2));
	for (s = 0; s < KH_DXA_SLOTS; s++) {
		slot_arg(&a, &c, 0xff);
		CHECK_EQ(raw(c.dev, DRM_IOCTL_KOHAKU_DXA_ALLOC, &a), 0);
		CHECK_EQ(a.state, KOHAKU_DXA_SLOT_OWNED);
		CHECK(a.slot < KH_DXA_SLOTS);
		CHECK_MSG(!(got & (1u << a.slot)), "slot %u handed out twice", a.slot);
		got |= 1u << a.slot;
	}
	CHECK_EQ(got, 0xffff);
	CHECK_ERR(kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot), -EBUSY);
	CHECK_MSG(strstr(kohaku_last_error(c.dev), "16 slots"),
		  "EBUSY's message: %s", kohaku_last_error(c.dev));
	/* every slot is taken for every file */
	CHECK_ERR(kohaku_dxa_alloc(d2, c.dx.mesh, c.dx.x, c.dx.y, &slot), -EBUSY);
	CHECK_OK(c.dev, kohaku_dxa_free(c.dev, c.dx.mesh, c.dx.x, c.dx.y, 7));
	CHECK_OK(d2, kohaku_dxa_alloc(d2, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	CHECK_EQ(slot, 7);
	kohaku_close(d2);
	DX_CLOSE(c);
}

TEST_F(rt, slot_commands_refuse_what_is_not_a_dxa_slot)
{
	struct drm_kohaku_dxa_slot a;
	static const unsigned long cmds[] = {
		DRM_IOCTL_KOHAKU_DXA_ALLOC, DRM_IOCTL_KOHAKU_DXA_FREE,
		DRM_IOCTL_KOHAKU_DXA_SET, DRM_IOCTL_KOHAKU_DXA_GET,
	};
	unsigned int k, slot;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	for (k = 0; k < 4; k++) {
		/* a scratch unit is no DXA unit */
		slot_arg(&a, &c, slot);
		a.x = c.scr[0].x;
		a.y = c.scr[0].y;
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		/* not a node; no such mesh */
		slot_arg(&a, &c, slot);
		a.x = 15;
		a.y = 15;
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		slot_arg(&a, &c, slot);
		a.mesh = 3;
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		/* flags (GET takes DEVICE alone), pad */
		slot_arg(&a, &c, slot);
		a.flags = k == 3 ? KOHAKU_DXA_GET_DEVICE << 1 : 1;
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		slot_arg(&a, &c, slot);
		a.flags = 0x80000000u;
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		slot_arg(&a, &c, slot);
		a.pad = 1;
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		if (!k)
			continue;
		/* a slot past 15 */
		slot_arg(&a, &c, KH_DXA_SLOTS);
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
		slot_arg(&a, &c, 0xff);
		CHECK_ERR(raw(c.dev, cmds[k], &a), -EINVAL);
	}
	/* the slot is still this file's, OWNED */
	CHECK_EQ(raw_get(c.dev, &c, slot, 0, &a), 0);
	CHECK_EQ(a.state, KOHAKU_DXA_SLOT_OWNED);
	DX_CLOSE(c);
}

/* ---- SET ---- */

struct set_case {
	const char *what;
	void (*brk)(struct drm_kohaku_dxa_desc *d);
	int err;
};

#define BRK(name, body)							\
	static void brk_##name(struct drm_kohaku_dxa_desc *d) { body; }

BRK(flags, d->flags = 2)
BRK(flags_top, d->flags = 0x80000000u)
BRK(pad, d->pad = 1)
BRK(res0, d->reserved[0] = 1)
BRK(res1, d->reserved[1] = 1ULL << 63)
BRK(rank0, d->rank = 0)
BRK(rank6, d->rank = 6)
BRK(eb0, d->elem_bytes = 0)
BRK(eb3, d->elem_bytes = 3)
BRK(eb16, d->elem_bytes = 16)
BRK(tile0_0, d->tile[0] = 0)
BRK(tile1_0, d->tile[1] = 0)
BRK(tile_above, d->tile[2] = 1)
BRK(size0_0, d->size[0] = 0)
BRK(size1_0, d->size[1] = 0)
BRK(size_above, d->size[4] = 1)
BRK(stride_above, d->stride[1] = 256)
BRK(stride_top, d->stride[3] = 4)
BRK(stride_odd, d->stride[0] = 258)
BRK(offset_odd, d->bo_offset = 2)
BRK(tile_big, d->tile[0] = 32; d->tile[1] = 65)	/* 8320 bytes */
BRK(tile_huge, d->tile[0] = 65535; d->tile[1] = 65535)
BRK(kmajor3, d->rank = 3; d->size[2] = 1; d->tile[2] = 1;
    d->flags = KOHAKU_DXA_KMAJOR)
BRK(past_bo, d->size[1] = 31)		/* one row too many */
BRK(past_bo_col, d->size[0] = 65; d->stride[0] = 256) /* row 29 too long */
BRK(offset_past, d->size[0] = 64; d->bo_offset = 4) /* the last element one word out */
BRK(offset_huge, d->bo_offset = ~0ULL - 7)
BRK(wrap, d->size[1] = 0xffffffffu; d->stride[0] = 0xfffffffcu)
BRK(bo_none, d->bo_handle = 0)
BRK(bo_unknown, d->bo_handle = 0x7fff1234)

static const struct set_case set_cases[] = {
	{ "flags: an unknown bit", brk_flags, -EINVAL },
	{ "flags: bit 31", brk_flags_top, -EINVAL },
	{ "pad", brk_pad, -EINVAL },
	{ "reserved[0]", brk_res0, -EINVAL },
	{ "reserved[1]", brk_res1, -EINVAL },
	{ "rank 0", brk_rank0, -EINVAL },
	{ "rank 6", brk_rank6, -EINVAL },
	{ "elem_bytes 0", brk_eb0, -EINVAL },
	{ "elem_bytes 3", brk_eb3, -EINVAL },
	{ "elem_bytes 16", brk_eb16, -EINVAL },
	{ "tile[0] 0", brk_tile0_0, -EINVAL },
	{ "tile[1] 0", brk_tile1_0, -EINVAL },
	{ "tile above the rank", brk_tile_above, -EINVAL },
	{ "size[0] 0", brk_size0_0, -EINVAL },
	{ "size[1] 0", brk_size1_0, -EINVAL },
	{ "size above the rank", brk_size_above, -EINVAL },
	{ "stride of a dimension above the rank", brk_stride_above, -EINVAL },
	{ "stride[3] on rank 2", brk_stride_top, -EINVAL },
	{ "stride not a multiple of elem_bytes", brk_stride_odd, -EINVAL },
	{ "bo_offset not a multiple of elem_bytes", brk_offset_odd, -EINVAL },
	{ "tile of 8320 bytes", brk_tile_big, -EINVAL },
	{ "tile of 65535 x 65535", brk_tile_huge, -EINVAL },
	{ "K-major rank 3", brk_kmajor3, -EINVAL },
	{ "a row past the BO", brk_past_bo, -EINVAL },
	{ "the last row too long for the BO", brk_past_bo_col, -EINVAL },
	{ "bo_offset pushing the last element out", brk_offset_past, -EINVAL },
	{ "bo_offset near 2^64", brk_offset_huge, -EINVAL },
	{ "an extent that wraps 64 bits", brk_wrap, -EINVAL },
	{ "bo_handle 0", brk_bo_none, -ENOENT },
	{ "an unknown bo_handle", brk_bo_unknown, -ENOENT },
};

TEST_F(rt, set_refuses_every_broken_rule_with_its_errno)
{
	struct drm_kohaku_dxa_desc d;
	struct drm_kohaku_dxa_slot a;
	uint32_t bo;
	uint64_t addr;
	unsigned int slot, k;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_bo_create(c.dev, c.dx.mesh, GOOD_BO_BYTES, &bo, &addr));
	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	/* the good one, and what a refusal leaves: the slot as set */
	d = good_desc(bo);
	CHECK_EQ(raw_set(c.dev, &c, slot, &d), 0);
	for (k = 0; k < sizeof(set_cases) / sizeof(set_cases[0]); k++) {
		int r;

		d = good_desc(bo);
		set_cases[k].brk(&d);
		r = raw_set(c.dev, &c, slot, &d);
		CHECK_MSG(r == set_cases[k].err, "SET with %s: %d, expected %d",
			  set_cases[k].what, r, set_cases[k].err);
		CHECK_EQ(raw_get(c.dev, &c, slot, 0, &a), 0);
		CHECK_EQ(a.state, KOHAKU_DXA_SLOT_SET);
		CHECK_EQ(a.desc.size[1], 30);
		CHECK_EQ(a.desc.flags, 0);
	}
	/* the limits themselves are taken: 8 KiB exactly, the BO's last byte */
	d = good_desc(bo);
	d.tile[0] = 32;
	d.tile[1] = 64;
	CHECK_EQ(raw_set(c.dev, &c, slot, &d), 0);
	d = good_desc(bo);
	d.size[0] = 64;
	CHECK_EQ(raw_set(c.dev, &c, slot, &d), 0);
	d = good_desc(bo);
	d.size[0] = 63;
	d.bo_offset = 4;
	CHECK_EQ(raw_set(c.dev, &c, slot, &d), 0);
	d = good_desc(bo);
	d.flags = KOHAKU_DXA_KMAJOR;
	CHECK_EQ(raw_set(c.dev, &c, slot, &d), 0);
	/* a stride of 0 repeats a row: inside */
	d = good_desc(bo);
	d.stride[0] = 0;
	d.size[1] = 0xffffffu;
	CHECK_EQ(raw_set(c.dev, &c, slot, &d), 0);
	/* a slot not allocated, and the library's message */
	d = good_desc(bo);
	CHECK_ERR(kohaku_dxa_set(c.dev, c.dx.mesh, c.dx.x, c.dx.y, (slot + 1) % 16, &d),
		  -ENOENT);
	CHECK_MSG(strstr(kohaku_last_error(c.dev), "not this open file's"),
		  "message: %s", kohaku_last_error(c.dev));
	DX_CLOSE(c);
}

TEST_F(rt, set_takes_only_this_files_bo)
{
	struct drm_kohaku_dxa_desc d;
	uint32_t bo, b2[3];
	unsigned int slot, k;
	kohaku_device *d2;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_reopen(c.dev, &d2));
	CHECK_OK(c.dev, kohaku_bo_create(c.dev, c.dx.mesh, GOOD_BO_BYTES, &bo, NULL));
	for (k = 0; k < 3; k++)
		CHECK_OK(d2, kohaku_bo_create(d2, c.dx.mesh, GOOD_BO_BYTES, &b2[k], NULL));
	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	CHECK(b2[2] != bo);
	d = good_desc(b2[2]);
	CHECK_ERR(raw_set(c.dev, &c, slot, &d), -ENOENT);
	/* a freed BO of this file */
	d = good_desc(bo);
	CHECK_OK(c.dev, kohaku_bo_free(c.dev, bo));
	CHECK_ERR(raw_set(c.dev, &c, slot, &d), -ENOENT);
	kohaku_close(d2);
	DX_CLOSE(c);
}

/* ---- ownership ---- */

TEST_F(rt, another_files_slot_is_refused_but_the_unit_may_be_read)
{
	struct drm_kohaku_dxa_desc d;
	struct drm_kohaku_dxa_slot a;
	uint32_t bo, bo2;
	uint64_t addr;
	uint8_t want[64];
	unsigned int slot, s2;
	kohaku_device *d2;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_reopen(c.dev, &d2));
	CHECK_OK(c.dev, kohaku_bo_create(c.dev, c.dx.mesh, GOOD_BO_BYTES, &bo, &addr));
	CHECK_OK(d2, kohaku_bo_create(d2, c.dx.mesh, GOOD_BO_BYTES, &bo2, NULL));
	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	d = good_desc(bo);
	d.cfill = 0x12345678;
	d.mstride = 9;
	CHECK_OK(c.dev, kohaku_dxa_set(c.dev, c.dx.mesh, c.dx.x, c.dx.y, slot, &d));
	/* GET: the desc as set, and the bytes the driver writes */
	CHECK_EQ(raw_get(c.dev, &c, slot, 0, &a), 0);
	CHECK_EQ(a.state, KOHAKU_DXA_SLOT_SET);
	CHECK(!memcmp(&a.desc, &d, sizeof(d)));
	ref_encode(want, &d, addr);
	CHECK(!memcmp(a.table, want, 64));
	/* the other file: SET, GET, FREE refused */
	CHECK_ERR(raw_get(d2, &c, slot, 0, &a), -ENOENT);
	d.bo_handle = bo2;
	CHECK_ERR(raw_set(d2, &c, slot, &d), -ENOENT);
	slot_arg(&a, &c, slot);
	CHECK_ERR(raw(d2, DRM_IOCTL_KOHAKU_DXA_FREE, &a), -ENOENT);
	/* ... but it may read the unit's copy: state, table, no desc */
	CHECK_EQ(raw_get(d2, &c, slot, KOHAKU_DXA_GET_DEVICE, &a), 0);
	CHECK_EQ(a.state, KOHAKU_DXA_SLOT_SET);
	CHECK(all_zero(&a.desc, sizeof(a.desc)));
	/* the other file's own slot, and a free one, are not this file's */
	CHECK_OK(d2, kohaku_dxa_alloc(d2, c.dx.mesh, c.dx.x, c.dx.y, &s2));
	CHECK_ERR(raw_get(c.dev, &c, s2, 0, &a), -ENOENT);
	CHECK_EQ(raw_get(c.dev, &c, s2, KOHAKU_DXA_GET_DEVICE, &a), 0);
	CHECK_EQ(a.state, KOHAKU_DXA_SLOT_OWNED);
	CHECK_OK(d2, kohaku_dxa_free(d2, c.dx.mesh, c.dx.x, c.dx.y, s2));
	CHECK_EQ(raw_get(c.dev, &c, s2, KOHAKU_DXA_GET_DEVICE, &a), 0);
	CHECK_EQ(a.state, KOHAKU_DXA_SLOT_FREE);
	CHECK_ERR(kohaku_dxa_free(d2, c.dx.mesh, c.dx.x, c.dx.y, s2), -ENOENT);
	/* FREE, then everything on it is refused */
	CHECK_OK(c.dev, kohaku_dxa_free(c.dev, c.dx.mesh, c.dx.x, c.dx.y, slot));
	CHECK_ERR(raw_get(c.dev, &c, slot, 0, &a), -ENOENT);
	CHECK_ERR(kohaku_dxa_free(c.dev, c.dx.mesh, c.dx.x, c.dx.y, slot), -ENOENT);
	d.bo_handle = bo;
	CHECK_ERR(raw_set(c.dev, &c, slot, &d), -ENOENT);
	kohaku_close(d2);
	DX_CLOSE(c);
}

TEST_F(rt, a_files_slots_are_freed_when_it_closes)
{
	struct drm_kohaku_dxa_slot a;
	unsigned int s, slot;
	kohaku_device *d2;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_reopen(c.dev, &d2));
	for (s = 0; s < KH_DXA_SLOTS; s++)
		CHECK_OK(d2, kohaku_dxa_alloc(d2, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	CHECK_ERR(kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot), -EBUSY);
	kohaku_close(d2);
	for (s = 0; s < KH_DXA_SLOTS; s++) {
		CHECK_EQ(raw_get(c.dev, &c, s, KOHAKU_DXA_GET_DEVICE, &a), 0);
		CHECK_EQ(a.state, KOHAKU_DXA_SLOT_FREE);
	}
	for (s = 0; s < KH_DXA_SLOTS; s++)
		CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	DX_CLOSE(c);
}

/* ---- the builders ---- */

TEST_F(rt, builders_check_and_encode_as_the_spec_says)
{
	struct drm_kohaku_dxa_desc d, e;
	struct kohaku_dxa_table t;
	struct kohaku_inst in;
	struct kohaku_dxa_recv r[4] = {
		{ 1, 2, 0, 0 }, { 3, 4, 5, 0x1234 }, { 15, 15, 63, 0xffff },
		{ 0, 0, 0, 0 },
	};
	const uint32_t coords[5] = { 0xffffff, 1, 2, 3, 4 };
	const uint32_t sizes[5] = { 3, 4, 5, 6, 7 };
	const unsigned int tiles[5] = { 3, 4, 5, 6, 7 };
	uint8_t tb[64], want[64];
	struct kh_flit f;
	unsigned int k;
	char buf[256];

	/* dense rank 5: strides are the sizes below */
	CHECK_EQ(kohaku_dxa_desc_dense(&d, 7, 16, 2, 5, sizes, tiles), 0);
	CHECK_EQ(d.stride[0], 6);
	CHECK_EQ(d.stride[1], 6 * 4);
	CHECK_EQ(d.stride[2], 6 * 4 * 5);
	CHECK_EQ(d.stride[3], 6 * 4 * 5 * 6);
	CHECK_EQ(kohaku_dxa_tile_elems(&d), 3 * 4 * 5 * 6 * 7);
	CHECK_EQ(kohaku_dxa_tile_granules(&d), (2520 * 2 + 31) / 32);
	/* refusals, d untouched */
	e = d;
	CHECK_ERR(kohaku_dxa_desc_1d(&d, 1, 0, 3, 10, 4), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc_1d(&d, 1, 2, 4, 10, 4), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc_1d(&d, 1, 0, 4, 0, 4), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc_1d(&d, 1, 0, 4, 10, 0), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc_1d(&d, 1, 0, 4, 10, 65536), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc_1d(&d, 1, 0, 1, 10, 8193), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc_2d(&d, 1, 0, 4, 10, 10, 42, 2, 2), -EINVAL);
	CHECK_ERR(kohaku_dxa_desc(&d, 1, 0, 4, 6, sizes, NULL, tiles), -EINVAL);
	CHECK(!memcmp(&d, &e, sizeof(d)));
	CHECK_EQ(kohaku_dxa_desc_1d(&d, 1, 0, 1, 10, 8192), 0);
	CHECK_ERR(kohaku_dxa_desc_dense(&d, 1, 0, 4, 3, sizes, tiles), 0);
	CHECK_ERR(kohaku_dxa_set_kmajor(&d, 1), -EINVAL);
	CHECK_EQ(kohaku_dxa_desc_2d(&d, 1, 0, 4, 10, 10, 40, 2, 2), 0);
	CHECK_EQ(kohaku_dxa_set_kmajor(&d, 1), 0);
	CHECK_EQ(d.flags, KOHAKU_DXA_KMAJOR);
	CHECK_ERR(kohaku_dxa_set_multicast(&d, 65536), -EINVAL);
	CHECK_EQ(kohaku_dxa_set_multicast(&d, 65535), 0);
	CHECK_EQ(kohaku_dxa_set_cfill(&d, 0xcafef00d), 0);
	/* the encoder against this test's own */
	CHECK_EQ(kohaku_dxa_encode(tb, &d, 0x1234567000ULL), 0);
	ref_encode(want, &d, 0x1234567000ULL);
	CHECK(!memcmp(tb, want, 64));
	kohaku_dxa_decode(tb, &t);
	CHECK_EQ(t.base, 0x1234567000ULL);
	CHECK_EQ(t.rank, 2);
	CHECK_EQ(t.elem_bytes, 4);
	CHECK(t.kmajor);
	CHECK_EQ(t.size[1], 10);
	CHECK_EQ(t.stride[0], 40);
	CHECK_EQ(t.mstride, 65535);
	CHECK_EQ(t.cfill, 0xcafef00d);
	CHECK(strstr(kohaku_dxa_describe(tb, buf, sizeof(buf)), "K-major"));
	/* COPY: every field where the spec puts it */
	CHECK_EQ(kohaku_inst_dxa_copy(&in, 9, coords, r, 3), 0);
	memset(&f, 0, sizeof(f));
	memcpy(f.w, in.w, sizeof(in.w));
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(255, 252)), 1);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(251, 248)), 9);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(247, 246)), 2);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(245, 240)), 0);
	for (k = 0; k < 5; k++)
		CHECK_EQ(kh_flit_get(&f, KH_FIELD(239 - 24 * k, 216 - 24 * k)),
			 coords[k]);
	for (k = 0; k < 3; k++)
		CHECK_EQ(kh_flit_get(&f, KH_FIELD(119 - 30 * k, 90 - 30 * k)),
			 ((uint64_t)r[k].x << 26) | ((uint64_t)r[k].y << 22) |
			 ((uint64_t)r[k].buf << 16) | r[k].offset);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(29, 0)), 0);
	/* refusals */
	CHECK_ERR(kohaku_inst_dxa_copy(&in, 16, coords, r, 1), -EINVAL);
	CHECK_ERR(kohaku_inst_dxa_copy(&in, 0, coords, r, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_dxa_copy(&in, 0, coords, r, 5), -EINVAL);
	{
		uint32_t big[5] = { 0x1000000, 0, 0, 0, 0 };
		struct kohaku_dxa_recv bad = { 16, 0, 0, 0 };

		CHECK_ERR(kohaku_inst_dxa_copy(&in, 0, big, r, 1), -EINVAL);
		CHECK_ERR(kohaku_inst_dxa_copy(&in, 0, NULL, &bad, 1), -EINVAL);
		bad.x = 0;
		bad.buf = 64;
		CHECK_ERR(kohaku_inst_dxa_copy(&in, 0, NULL, &bad, 1), -EINVAL);
		bad.buf = 0;
		bad.offset = 0x10000;
		CHECK_ERR(kohaku_inst_dxa_copy(&in, 0, NULL, &bad, 1), -EINVAL);
	}
	/* scr COPY_OUT */
	CHECK_EQ(kohaku_inst_scr_copy_out(&in, 0x12, 16, 0x3000001220ULL), 0);
	memcpy(f.w, in.w, sizeof(in.w));
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(255, 252)), 1);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(247, 240)), 15);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(239, 224)), 0x12);
	CHECK_EQ(kh_flit_get(&f, KH_FIELD(215, 176)), 0x3000001220ULL);
	CHECK_ERR(kohaku_inst_scr_copy_out(&in, 0, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_scr_copy_out(&in, 0, 257, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_scr_copy_out(&in, 250, 7, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_scr_copy_out(&in, 0, 1, 16), -EINVAL);
	CHECK_ERR(kohaku_inst_scr_copy_out(&in, 0, 1, 1ULL << 40), -EINVAL);
	CHECK(strstr(kohaku_dxa_fault_describe(KH_DXA_FAULT_NO_ACK, buf,
					       sizeof(buf)), "NO_ACK"));
}

/* ---- copies against the reference ---- */

/* one copy: the tensor, the tile, where it goes */
struct cp {
	unsigned int rank, eb;
	uint32_t size[5];
	uint32_t stride[4];	/* 0 for every one: dense */
	unsigned int tile[5];
	uint32_t coord[5];
	uint64_t offset;
	uint32_t cfill;
	int kmajor;
	unsigned int n_recv;
	unsigned int mstride;
	unsigned int recv_off[4];
	unsigned int salt;
};

static uint8_t tbyte(uint64_t i, unsigned int salt)
{
	uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL + salt * 0x632be59bd9b4e019ULL;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (uint8_t)(h >> 40);
}

/* the tile as a receiver holds it: docs/spec/dxa.md, plain loops */
static void ref_tile(const struct cp *p, const uint8_t *t, uint8_t *out)
{
	unsigned int tl[5], i[5], d, b;
	uint64_t n = 1, lin, rem, addr, pos, dst;
	int oob;

	for (d = 0; d < 5; d++)
		tl[d] = d < p->rank ? p->tile[d] : 1;
	for (d = 0; d < p->rank; d++)
		n *= tl[d];
	for (lin = 0; lin < n; lin++) {
		rem = lin;
		for (d = 0; d < 5; d++) {
			i[d] = (unsigned int)(rem % tl[d]);
			rem /= tl[d];
		}
		oob = 0;
		addr = p->offset;
		for (d = 0; d < p->rank; d++) {
			pos = (uint64_t)p->coord[d] + i[d];
			if (pos >= p->size[d])
				oob = 1;
			addr += pos * (d ? p->stride[d - 1] : p->eb);
		}
		dst = p->kmajor ? (uint64_t)i[0] * tl[1] + i[1] : lin;
		for (b = 0; b < p->eb; b++)
			out[dst * p->eb + b] = oob ? (b < 4 ? (uint8_t)(p->cfill >> (8 * b)) : 0) :
						     t[addr + b];
	}
}

static uint64_t cp_extent(struct cp *p)
{
	uint64_t end = p->offset, pitch = p->eb;
	unsigned int d;
	int dense = 1;

	for (d = 0; d + 1 < p->rank; d++)
		dense &= !p->stride[d];
	for (d = 1; d < p->rank; d++) {
		pitch *= p->size[d - 1];
		if (dense)
			p->stride[d - 1] = (uint32_t)pitch;
	}
	for (d = 0; d < p->rank; d++)
		end += (uint64_t)(p->size[d] - 1) * (d ? p->stride[d - 1] : p->eb);
	return end + p->eb;
}

static int run_on(struct dx *c, const struct drm_kohaku_node *nd,
		  const struct kohaku_inst *in, unsigned int n,
		  struct kohaku_job_status *st)
{
	return rt_run_on(c->dev, nd, in, n, st);
}

/*
 * Copy, copy out, compare.  Returns the number of wrong bytes (a failure
 * to run counts one); the first few are reported.
 */
static unsigned long do_copy(struct dx *c, struct cp *p, const char *what)
{
	uint64_t ext = cp_extent(p), bsize = ext + 64, taddr, oaddr;
	unsigned int gran, k, slot, bytes, b;
	uint32_t tbo = 0, obo = 0;
	uint8_t *host = NULL, *want = NULL, *got = NULL, tb[64];
	struct drm_kohaku_dxa_desc d;
	struct drm_kohaku_dxa_slot g, gd;
	struct kohaku_dxa_recv r[4];
	struct kohaku_inst copy, outs[4];
	struct kohaku_program pr[4];
	struct kohaku_job_status st;
	unsigned long bad = 0;
	uint64_t e;

	if (p->n_recv > c->n_scr) {
		check_diag("%s: %u receivers, the card has %u scratch units: skipped",
			 what, p->n_recv, c->n_scr);
		return 0;
	}
	if (kohaku_dxa_desc(&d, 0, p->offset, p->eb, p->rank, p->size, p->stride,
			    p->tile) || kohaku_dxa_set_kmajor(&d, p->kmajor) ||
	    kohaku_dxa_set_cfill(&d, p->cfill) ||
	    kohaku_dxa_set_multicast(&d, p->mstride)) {
		check_fail_at(__FILE__, __LINE__, "%s: the builders refused it", what);
		return 1;
	}
	gran = kohaku_dxa_tile_granules(&d);
	bytes = gran * 32;
	host = malloc(bsize);
	want = calloc(1, bytes);
	got = malloc((size_t)bytes * p->n_recv + 64);
	if (!host || !want || !got) {
		check_fail_at(__FILE__, __LINE__, "out of memory");
		bad = 1;
		goto out;
	}
	for (e = 0; e < bsize; e++)
		host[e] = tbyte(e, p->salt);
	memset(got, 0x5a, (size_t)bytes * p->n_recv + 64);
	if (kohaku_bo_create(c->dev, c->dx.mesh, bsize, &tbo, &taddr) ||
	    kohaku_bo_write(c->dev, tbo, 0, host, bsize) ||
	    kohaku_bo_create(c->dev, c->dx.mesh, (uint64_t)bytes * p->n_recv + 64,
			     &obo, &oaddr) ||
	    kohaku_bo_write(c->dev, obo, 0, got, (size_t)bytes * p->n_recv + 64) ||
	    kohaku_dxa_alloc(c->dev, c->dx.mesh, c->dx.x, c->dx.y, &slot)) {
		check_fail_at(__FILE__, __LINE__, "%s: setting up: %s", what,
			    kohaku_last_error(c->dev));
		bad = 1;
		goto out;
	}
	d.bo_handle = tbo;
	if (kohaku_dxa_set(c->dev, c->dx.mesh, c->dx.x, c->dx.y, slot, &d)) {
		check_fail_at(__FILE__, __LINE__, "%s: SET: %s", what,
			    kohaku_last_error(c->dev));
		bad = 1;
		goto free_slot;
	}
	for (k = 0; k < p->n_recv; k++) {
		r[k].x = c->scr[k].x;
		r[k].y = c->scr[k].y;
		r[k].buf = KH_SCR_BUF;
		r[k].offset = p->recv_off[k];
	}
	CHECK_EQ(kohaku_inst_dxa_copy(&copy, slot, p->coord, r, p->n_recv), 0);
	if (run_on(c, &c->dx, &copy, 1, &st) || st.status != KOHAKU_JOB_DONE) {
		check_fail_at(__FILE__, __LINE__, "%s: the copy: %s", what,
			    kohaku_last_error(c->dev));
		bad = 1;
		goto free_slot;
	}
	/* the slot as the driver wrote it, as the unit holds it, as meant */
	ref_encode(tb, &d, taddr);
	if (kohaku_dxa_get(c->dev, c->dx.mesh, c->dx.x, c->dx.y, slot, 0, &g, sizeof(g)) ||
	    kohaku_dxa_get(c->dev, c->dx.mesh, c->dx.x, c->dx.y, slot,
			   KOHAKU_DXA_GET_DEVICE, &gd, sizeof(gd))) {
		check_fail_at(__FILE__, __LINE__, "%s: GET: %s", what,
			    kohaku_last_error(c->dev));
		bad++;
	} else {
		CHECK_MSG(!memcmp(g.table, tb, 64), "%s: the driver's table differs "
			  "from the spec's encoding", what);
		CHECK_MSG(!memcmp(gd.table, tb, 64), "%s: the unit's slot %u differs "
			  "from the spec's encoding", what, slot);
	}
	/* each receiver's granules back to memory */
	memset(pr, 0, sizeof(pr));
	for (k = 0; k < p->n_recv; k++) {
		CHECK_EQ(kohaku_inst_scr_copy_out(&outs[k], p->recv_off[k] +
						  k * p->mstride, gran,
						  oaddr + (uint64_t)k * bytes), 0);
		pr[k].mesh = c->scr[k].mesh;
		pr[k].x = c->scr[k].x;
		pr[k].y = c->scr[k].y;
		pr[k].txn = (uint8_t)k;
		pr[k].n_insts = 1;
		pr[k].insts = &outs[k];
	}
	if (rt_run(c->dev, pr, p->n_recv, &st) || st.status != KOHAKU_JOB_DONE) {
		check_fail_at(__FILE__, __LINE__, "%s: COPY_OUT: %s", what,
			    kohaku_last_error(c->dev));
		bad = 1;
		goto free_slot;
	}
	if (kohaku_bo_read(c->dev, obo, 0, got, (size_t)bytes * p->n_recv + 64)) {
		check_fail_at(__FILE__, __LINE__, "%s: read: %s", what,
			    kohaku_last_error(c->dev));
		bad = 1;
		goto free_slot;
	}
	ref_tile(p, host, want);
	for (k = 0; k < p->n_recv; k++)
		for (b = 0; b < bytes; b++)
			if (got[(size_t)k * bytes + b] != want[b]) {
				if (bad < 4)
					check_diag("%s: receiver %u byte %u (element %u) = "
						 "0x%02x, expected 0x%02x", what, k, b,
						 b / p->eb, got[(size_t)k * bytes + b],
						 want[b]);
				bad++;
			}
	for (b = 0; b < 64; b++)
		if (got[(size_t)p->n_recv * bytes + b] != 0x5a) {
			check_diag("%s: the bytes past the copied-out tiles changed", what);
			bad++;
			break;
		}
free_slot:
	kohaku_dxa_free(c->dev, c->dx.mesh, c->dx.x, c->dx.y, slot);
out:
	if (tbo)
		kohaku_bo_free(c->dev, tbo);
	if (obo)
		kohaku_bo_free(c->dev, obo);
	free(host);
	free(want);
	free(got);
	CHECK_MSG(!bad, "%s: %lu wrong byte(s)", what, bad);
	return bad;
}

static struct cp cp_1(unsigned int rank, unsigned int eb)
{
	struct cp p;
	unsigned int d;

	memset(&p, 0, sizeof(p));
	p.rank = rank;
	p.eb = eb;
	p.n_recv = 1;
	p.cfill = 0xa1b2c3d4u;
	for (d = 0; d < rank; d++) {
		p.size[d] = 5 + 2 * d;
		p.tile[d] = 3;
		p.coord[d] = 1;
	}
	return p;
}

TEST_F(rt, copies_of_every_rank_and_element_size)
{
	static const unsigned int ebs[4] = { 1, 2, 4, 8 };
	unsigned int rank, k;
	char what[64];
	DX_OPEN(c);

	for (rank = 1; rank <= 5; rank++)
		for (k = 0; k < 4; k++) {
			struct cp p = cp_1(rank, ebs[k]);

			p.salt = rank * 10 + k;
			if (rank == 1) {
				p.size[0] = 1000;
				p.tile[0] = 8192 / ebs[k] > 300 ? 300 : 8192 / ebs[k];
				p.coord[0] = 17;
			}
			if (rank == 2) {
				p.size[0] = 100;
				p.size[1] = 20;
				p.tile[0] = 33;
				p.tile[1] = 7;
				p.coord[0] = 5;
				p.coord[1] = 9;
				p.offset = 8 * ebs[k];
				p.stride[0] = 104 * ebs[k];	/* padded rows */
			}
			snprintf(what, sizeof(what), "rank %u, %u-byte elements",
				 rank, ebs[k]);
			do_copy(&c, &p, what);
		}
	DX_CLOSE(c);
}

TEST_F(rt, out_of_bounds_in_each_dimension_takes_the_fill)
{
	static const uint32_t fills[4] = { 0xdeadbeef, 0x80000001, 0x7f, 0xffffffff };
	static const unsigned int ebs[4] = { 1, 2, 4, 8 };
	unsigned int d, k;
	char what[80];
	DX_OPEN(c);

	for (d = 0; d < 5; d++)
		for (k = 0; k < 4; k++) {
			struct cp p = cp_1(5, ebs[k]);

			p.salt = 100 + d * 4 + k;
			p.cfill = fills[k];
			/* past the edge of dimension d only */
			p.coord[d] = p.size[d] - 2;
			snprintf(what, sizeof(what), "rank 5, %u-byte, past dimension "
				 "%u, fill 0x%08x", ebs[k], d, fills[k]);
			do_copy(&c, &p, what);
		}
	/* past every edge at once, and wholly outside (nothing read) */
	{
		struct cp p = cp_1(3, 4);

		p.coord[0] = p.size[0] - 1;
		p.coord[1] = p.size[1] - 1;
		p.coord[2] = p.size[2] - 1;
		do_copy(&c, &p, "rank 3, past every edge");
		p.coord[0] = 0xffffff;
		do_copy(&c, &p, "rank 3, wholly outside");
	}
	DX_CLOSE(c);
}

TEST_F(rt, tiles_at_every_edge_of_a_matrix)
{
	static const uint32_t rows[3] = { 0, 40, 56 };	/* top, inside, bottom */
	static const uint32_t cols[3] = { 0, 16, 40 };
	unsigned int i, j;
	char what[64];
	DX_OPEN(c);

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			struct cp p;

			memset(&p, 0, sizeof(p));
			p.rank = 2;
			p.eb = 4;
			p.size[0] = 50;
			p.size[1] = 61;
			p.stride[0] = 200;
			p.tile[0] = 16;
			p.tile[1] = 8;
			p.coord[0] = cols[j];
			p.coord[1] = rows[i];
			p.cfill = 0x5eed0000 + i * 3 + j;
			p.n_recv = 1;
			p.salt = 200 + i * 3 + j;
			snprintf(what, sizeof(what), "tile at row %u column %u",
				 rows[i], cols[j]);
			do_copy(&c, &p, what);
		}
	DX_CLOSE(c);
}

TEST_F(rt, multicast_to_one_to_four_receivers)
{
	unsigned int n;
	char what[64];
	DX_OPEN(c);

	for (n = 1; n <= 4; n++) {
		struct cp p = cp_1(2, 4);

		p.size[0] = 30;
		p.size[1] = 30;
		p.tile[0] = 10;
		p.tile[1] = 9;
		p.coord[0] = 25;
		p.coord[1] = 3;
		p.n_recv = n;
		p.mstride = 24;
		p.recv_off[0] = 0;
		p.recv_off[1] = 100;
		p.recv_off[2] = 7;
		p.recv_off[3] = 150;
		p.salt = 300 + n;
		snprintf(what, sizeof(what), "multicast to %u", n);
		do_copy(&c, &p, what);
	}
	DX_CLOSE(c);
}

TEST_F(rt, k_major_ranks_1_and_2)
{
	static const unsigned int ebs[4] = { 1, 2, 4, 8 };
	unsigned int k;
	char what[64];
	DX_OPEN(c);

	for (k = 0; k < 4; k++) {
		struct cp p = cp_1(2, ebs[k]);

		p.size[0] = 21;
		p.size[1] = 13;
		p.tile[0] = 8;
		p.tile[1] = 5;
		p.coord[0] = 16;	/* past the edge in both */
		p.coord[1] = 10;
		p.kmajor = 1;
		p.salt = 400 + k;
		snprintf(what, sizeof(what), "K-major rank 2, %u-byte", ebs[k]);
		do_copy(&c, &p, what);
		p = cp_1(1, ebs[k]);
		p.size[0] = 50;
		p.tile[0] = 20;
		p.coord[0] = 40;
		p.kmajor = 1;
		p.salt = 410 + k;
		snprintf(what, sizeof(what), "K-major rank 1, %u-byte", ebs[k]);
		do_copy(&c, &p, what);
	}
	DX_CLOSE(c);
}

TEST_F(rt, coordinates_above_the_rank_are_ignored)
{
	DX_OPEN(c);
	{
		struct cp p = cp_1(2, 4);

		p.coord[2] = 0xffffff;
		p.coord[3] = 77;
		p.coord[4] = 1;
		p.salt = 500;
		do_copy(&c, &p, "rank 2 with coordinates 2..4 set");
	}
	DX_CLOSE(c);
}

/* ---- SUBMIT ---- */

struct sub {
	uint32_t bo;
	uint64_t addr;
	unsigned int slot;
};

/* a slot of this file set to a good descriptor */
static bool sub_setup(struct dx *c, kohaku_device *dev, struct sub *s)
{
	struct drm_kohaku_dxa_desc d;

	if (kohaku_bo_create(dev, c->dx.mesh, GOOD_BO_BYTES, &s->bo, &s->addr) ||
	    kohaku_dxa_alloc(dev, c->dx.mesh, c->dx.x, c->dx.y, &s->slot))
		return false;
	d = good_desc(s->bo);
	return !kohaku_dxa_set(dev, c->dx.mesh, c->dx.x, c->dx.y, s->slot, &d);
}

static void copy_to_scr(struct dx *c, struct kohaku_inst *in, unsigned int slot)
{
	struct kohaku_dxa_recv r = { c->scr[0].x, c->scr[0].y, 0, 0 };

	CHECK_EQ(kohaku_inst_dxa_copy(in, slot, NULL, &r, 1), 0);
}

static int submit_on_dx(struct dx *c, kohaku_device *dev,
			const struct kohaku_inst *in, unsigned int n)
{
	struct kohaku_program p;
	uint64_t job;

	memset(&p, 0, sizeof(p));
	p.mesh = c->dx.mesh;
	p.x = c->dx.x;
	p.y = c->dx.y;
	p.n_insts = n;
	p.insts = in;
	return kohaku_submit(dev, &p, 1, 0, &job);
}

static void set_field(struct kohaku_inst *in, unsigned int field, uint64_t v)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	memcpy(f.w, in->w, sizeof(in->w));
	kh_flit_set(&f, field, v);
	memcpy(in->w, f.w, sizeof(in->w));
}

static struct drm_kohaku_node dx_live(struct dx *c)
{
	struct drm_kohaku_node *nd, r;
	unsigned int n, i;

	memset(&r, 0, sizeof(r));
	if (kohaku_nodes_alloc(c->dev, KOHAKU_NODES_LIVE, &nd, sizeof(*nd), &n))
		return r;
	for (i = 0; i < n; i++)
		if (nd[i].mesh == c->dx.mesh && nd[i].x == c->dx.x && nd[i].y == c->dx.y)
			r = nd[i];
	free(nd);
	return r;
}

TEST_F(rt, submit_refuses_bad_copies_before_the_card_sees_them)
{
	struct kohaku_inst good, in[2];
	struct drm_kohaku_node before, after;
	struct drm_kohaku_dxa_slot a;
	struct kohaku_job_status st;
	struct sub s, s2;
	unsigned int unset, k;
	kohaku_device *d2;
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_reopen(c.dev, &d2));
	REQUIRE(sub_setup(&c, c.dev, &s));
	REQUIRE(sub_setup(&c, d2, &s2));
	copy_to_scr(&c, &good, s.slot);
	before = dx_live(&c);

	/* op not COPY, reserved bits, unused receiver fields */
	in[0] = good;
	set_field(&in[0], KH_DXA_INST_OP, 2);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	set_field(&in[0], KH_DXA_INST_OP, 0);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	for (k = 240; k <= 245; k++) {
		in[0] = good;
		set_field(&in[0], KH_FIELD(k, k), 1);
		CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	}
	in[0] = good;
	set_field(&in[0], KH_DXA_INST_RECV(3), KH_DXA_RECV(c.scr[0].x, c.scr[0].y, 0, 0));
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	in[0] = good;
	set_field(&in[0], KH_DXA_INST_RECV(1), 1);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	/* a bad second instruction refuses the whole program */
	in[0] = good;
	in[1] = good;
	set_field(&in[1], KH_DXA_INST_OP, 15);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 2), -EINVAL);
	/* receivers: not a node, the DXA unit itself */
	in[0] = good;
	set_field(&in[0], KH_DXA_INST_RECV(0), KH_DXA_RECV(15, 15, 0, 0));
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	in[0] = good;
	set_field(&in[0], KH_DXA_INST_RECV(0), KH_DXA_RECV(c.dx.x, c.dx.y, 0, 0));
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	in[0] = good;
	set_field(&in[0], KH_DXA_INST_NRECV, 1);
	set_field(&in[0], KH_DXA_INST_RECV(1), KH_DXA_RECV(c.dx.x, c.dx.y, 0, 0));
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	/* slots: free, another file's, this file's but unset, BO freed */
	for (k = 0; k < KH_DXA_SLOTS; k++) {
		CHECK_EQ(raw_get(c.dev, &c, k, KOHAKU_DXA_GET_DEVICE, &a), 0);
		if (a.state == KOHAKU_DXA_SLOT_FREE)
			break;
	}
	REQUIRE(k < KH_DXA_SLOTS);
	copy_to_scr(&c, &in[0], k);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -ENOENT);
	copy_to_scr(&c, &in[0], s2.slot);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -ENOENT);
	CHECK_MSG(strstr(kohaku_last_error(c.dev), "slot"), "message: %s",
		  kohaku_last_error(c.dev));
	copy_to_scr(&c, &in[0], s.slot);
	CHECK_ERR(submit_on_dx(&c, d2, in, 1), -ENOENT);
	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &unset));
	copy_to_scr(&c, &in[0], unset);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 1), -EINVAL);
	/* one good copy beside a bad one: refused whole */
	in[0] = good;
	copy_to_scr(&c, &in[1], unset);
	CHECK_ERR(submit_on_dx(&c, c.dev, in, 2), -EINVAL);
	/* CU_DATA of the program's own for the unit's table */
	{
		struct kohaku_program p;
		struct kohaku_data dd;
		uint8_t bytes[64];
		uint64_t job;

		memset(bytes, 0, sizeof(bytes));
		memset(&dd, 0, sizeof(dd));
		dd.buf_id = KH_DXA_BUF_TABLE;
		dd.offset = 2 * s.slot;
		dd.data = bytes;
		dd.size = sizeof(bytes);
		memset(&p, 0, sizeof(p));
		p.mesh = c.dx.mesh;
		p.x = c.dx.x;
		p.y = c.dx.y;
		p.n_insts = 1;
		p.insts = &good;
		p.data = &dd;
		p.n_data = 1;
		CHECK_ERR(kohaku_submit(c.dev, &p, 1, 0, &job), -EINVAL);
	}
	/* the BO freed since SET */
	CHECK_OK(d2, kohaku_bo_free(d2, s2.bo));
	copy_to_scr(&c, &in[0], s2.slot);
	CHECK_ERR(submit_on_dx(&c, d2, in, 1), -EINVAL);

	/* nothing reached the unit: no transfer, no read, no retirement */
	after = dx_live(&c);
	CHECK_EQ(after.dbg, before.dbg);
	CHECK_EQ(after.retired, before.retired);
	/* and the good copy runs */
	CHECK_EQ(run_on(&c, &c.dx, &good, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	after = dx_live(&c);
	CHECK_EQ(after.dbg >> 32, (before.dbg >> 32) + 1);
	kohaku_close(d2);
	DX_CLOSE(c);
}

TEST_F(rt, submit_refuses_a_pool_unit_as_receiver)
{
	struct drm_kohaku_node gp[4];
	struct kohaku_inst in;
	struct sub s;
	struct dx c;
	int n;

	memset(&c, 0, sizeof(c));
	/* the built-in pool_dxa in-process; the device under test otherwise */
	c.dev = rt_open_card("pool_dxa");
	REQUIRE(c.dev != NULL);
	n = (int)rt_nodes_of(c.dev, KH_CU_GP, gp, 4);
	c.n_scr = rt_nodes_of(c.dev, KH_CU_SC, c.scr, MAX_SCR);
	if (!n || !rt_nodes_of(c.dev, KH_CU_DX, &c.dx, 1) || !c.n_scr) {
		rt_close_card(c.dev);
		SKIP(return, "no card with both a POOL unit and a DXA unit");
	}
	REQUIRE(sub_setup(&c, c.dev, &s));
	copy_to_scr(&c, &in, s.slot);
	set_field(&in, KH_DXA_INST_RECV(0), KH_DXA_RECV(gp[0].x, gp[0].y, 0, 0));
	CHECK_ERR(submit_on_dx(&c, c.dev, &in, 1), -EINVAL);
	CHECK_MSG(strstr(kohaku_last_error(c.dev), "SUBMIT"), "message: %s",
		  kohaku_last_error(c.dev));
	rt_close_card(c.dev);
}

/* ---- what a job copies, and how it fails ---- */

TEST_F(rt, a_job_copies_the_slot_as_it_was_at_submit)
{
	struct drm_kohaku_dxa_desc d;
	struct drm_kohaku_node sx[1];
	struct kohaku_inst copy[2], out, blk[1];
	struct kohaku_dxa_recv r;
	struct kohaku_job_status st;
	struct kohaku_program p, bp;
	struct rt_vec v;
	uint32_t bo, ob;
	uint64_t addr, oaddr, j0 = 0, j1, j2;
	uint32_t host[64], got[16];
	unsigned int slot, k;
	bool blocker;
	DX_OPEN(c);

	for (k = 0; k < 64; k++)
		host[k] = 0x1000 + k;
	CHECK_OK(c.dev, kohaku_bo_create(c.dev, c.dx.mesh, sizeof(host), &bo, &addr));
	CHECK_OK(c.dev, kohaku_bo_write(c.dev, bo, 0, host, sizeof(host)));
	CHECK_OK(c.dev, kohaku_bo_create(c.dev, c.dx.mesh, 64, &ob, &oaddr));
	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	/*
	 * A long saxpy first, when the card has an SX unit: jobs on a mesh
	 * run in order, so the copies below are dispatched after the slot
	 * changed, and only their own copy of it can say what they copy.
	 */
	blocker = rt_nodes_of(c.dev, KH_CU_SX, sx, 1) && sx[0].mesh == c.dx.mesh &&
		  !rt_vec_setup(c.dev, sx[0].mesh, 64 * 256, 7, &v);
	if (blocker) {
		rt_prog_saxpy(&bp, blk, 1, &sx[0], &v, 1.5f);
		CHECK_OK(c.dev, kohaku_submit(c.dev, &bp, 1, 0, &j0));
	}
	/* 8 words from word 0, to granule 0 */
	CHECK_EQ(kohaku_dxa_desc_1d(&d, bo, 0, 4, 64, 8), 0);
	CHECK_OK(c.dev, kohaku_dxa_set(c.dev, c.dx.mesh, c.dx.x, c.dx.y, slot, &d));
	r.x = c.scr[0].x;
	r.y = c.scr[0].y;
	r.buf = 0;
	r.offset = 0;
	CHECK_EQ(kohaku_inst_dxa_copy(&copy[0], slot, NULL, &r, 1), 0);
	memset(&p, 0, sizeof(p));
	p.mesh = c.dx.mesh;
	p.x = c.dx.x;
	p.y = c.dx.y;
	p.n_insts = 1;
	p.insts = &copy[0];
	CHECK_OK(c.dev, kohaku_submit(c.dev, &p, 1, 0, &j1));
	/* the slot changes at once: the same copy now from word 32, to granule 1 */
	CHECK_EQ(kohaku_dxa_desc_1d(&d, bo, 128, 4, 32, 8), 0);
	CHECK_OK(c.dev, kohaku_dxa_set(c.dev, c.dx.mesh, c.dx.x, c.dx.y, slot, &d));
	r.offset = 1;
	CHECK_EQ(kohaku_inst_dxa_copy(&copy[1], slot, NULL, &r, 1), 0);
	p.insts = &copy[1];
	CHECK_OK(c.dev, kohaku_submit(c.dev, &p, 1, 0, &j2));
	if (blocker) {
		CHECK_OK(c.dev, kohaku_wait(c.dev, j0, 60000, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		rt_vec_free(c.dev, &v);
	}
	CHECK_OK(c.dev, kohaku_wait(c.dev, j1, 10000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(c.dev, kohaku_wait(c.dev, j2, 10000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(kohaku_inst_scr_copy_out(&out, 0, 2, oaddr), 0);
	CHECK_EQ(rt_run_on(c.dev, &c.scr[0], &out, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(c.dev, kohaku_bo_read(c.dev, ob, 0, got, sizeof(got)));
	for (k = 0; k < 8; k++) {
		CHECK_EQ(got[k], 0x1000 + k);
		CHECK_EQ(got[8 + k], 0x1000 + 32 + k);
	}
	DX_CLOSE(c);
}

TEST_F(rt, a_receiver_refusing_its_burst_is_the_units_no_ack_fault)
{
	struct drm_kohaku_dxa_desc d;
	struct kohaku_inst copy;
	struct kohaku_dxa_recv r;
	struct kohaku_job_status st;
	uint32_t bo;
	unsigned int slot;
	char buf[256];
	DX_OPEN(c);

	CHECK_OK(c.dev, kohaku_bo_create(c.dev, c.dx.mesh, 4096, &bo, NULL));
	CHECK_OK(c.dev, kohaku_dxa_alloc(c.dev, c.dx.mesh, c.dx.x, c.dx.y, &slot));
	CHECK_EQ(kohaku_dxa_desc_1d(&d, bo, 0, 4, 1024, 64), 0);
	CHECK_OK(c.dev, kohaku_dxa_set(c.dev, c.dx.mesh, c.dx.x, c.dx.y, slot, &d));
	/* buffer 1: the scratch unit has buffer 0 only */
	r.x = c.scr[0].x;
	r.y = c.scr[0].y;
	r.buf = 1;
	r.offset = 0;
	CHECK_EQ(kohaku_inst_dxa_copy(&copy, slot, NULL, &r, 1), 0);
	CHECK_EQ(run_on(&c, &c.dx, &copy, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK(st.fault_flags & KOHAKU_FAULT_CODE_KNOWN);
	CHECK_EQ(st.fault_code, KH_DXA_FAULT_NO_ACK);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, c.dx.x);
	CHECK_EQ(st.fault_y, c.dx.y);
	check_diag("%s", kohaku_dxa_fault_describe(st.fault_code, buf, sizeof(buf)));
	/* past the end of buffer 0: 8 granules from 250 */
	r.buf = 0;
	r.offset = 250;
	CHECK_EQ(kohaku_inst_dxa_copy(&copy, slot, NULL, &r, 1), 0);
	CHECK_EQ(run_on(&c, &c.dx, &copy, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_code, KH_DXA_FAULT_NO_ACK);
	/* the device goes on: a good copy */
	r.offset = 0;
	CHECK_EQ(kohaku_inst_dxa_copy(&copy, slot, NULL, &r, 1), 0);
	CHECK_EQ(run_on(&c, &c.dx, &copy, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	DX_CLOSE(c);
}

RT_TEST_MAIN
