// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA bulk-copy unit (cu_type 'DX') and the scratch unit (cu_type
 * 'SC'), docs/spec/dxa.md; every number in uapi/kohaku/kh_dxa.h.
 *
 * The slot calls are thin wrappers of DXA_ALLOC/FREE/SET/GET with the
 * library's messages.  The descriptor builders check what the driver's
 * DXA_SET checks without the BO (ranks, element sizes, extents, strides,
 * the tile's size), so a mistake is caught where it is made; the copy and
 * copy-out builders check every field against its width.  A builder that
 * refuses returns -EINVAL and writes nothing.  The encoder and decoder of
 * a slot's 64 bytes follow the spec's table, so a host can compare what
 * the driver wrote (DXA_GET) with what it meant.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_internal.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_dxa.h"

/* ---- slots ---- */

static int dxa_call(kohaku_device *dev, unsigned long cmd,
		    struct drm_kohaku_dxa_slot *a, unsigned int mesh,
		    unsigned int x, unsigned int y, const char *what)
{
	if (mesh > 0xff || x > 0xff || y > 0xff) {
		kh_rt_seterr(dev, "%s: mesh %u (%u,%u) is not a node coordinate",
			     what, mesh, x, y);
		return -EINVAL;
	}
	a->mesh = (uint8_t)mesh;
	a->x = (uint8_t)x;
	a->y = (uint8_t)y;
	return kh_rt_ioctl(dev, cmd, a, "%s slot %u of the DXA unit at mesh %u "
			   "(%u,%u)", what, a->slot, mesh, x, y);
}

KH_RT_EXPORT int kohaku_dxa_alloc(kohaku_device *dev, unsigned int mesh,
				  unsigned int x, unsigned int y,
				  unsigned int *slot)
{
	struct drm_kohaku_dxa_slot a;
	int r;

	if (!dev)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	if (mesh > 0xff || x > 0xff || y > 0xff) {
		kh_rt_seterr(dev, "allocating a DXA slot: mesh %u (%u,%u) is not "
			     "a node coordinate", mesh, x, y);
		return -EINVAL;
	}
	a.mesh = (uint8_t)mesh;
	a.x = (uint8_t)x;
	a.y = (uint8_t)y;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_DXA_ALLOC, &a, "allocating a slot "
			"of the DXA unit at mesh %u (%u,%u)", mesh, x, y);
	if (!r && slot)
		*slot = a.slot;
	return r;
}

KH_RT_EXPORT int kohaku_dxa_free(kohaku_device *dev, unsigned int mesh,
				 unsigned int x, unsigned int y,
				 unsigned int slot)
{
	struct drm_kohaku_dxa_slot a;

	if (!dev)
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.slot = (uint8_t)(slot > 0xff ? 0xff : slot);
	return dxa_call(dev, DRM_IOCTL_KOHAKU_DXA_FREE, &a, mesh, x, y,
			"freeing");
}

KH_RT_EXPORT int kohaku_dxa_set(kohaku_device *dev, unsigned int mesh,
				unsigned int x, unsigned int y,
				unsigned int slot,
				const struct drm_kohaku_dxa_desc *desc)
{
	struct drm_kohaku_dxa_slot a;

	if (!dev)
		return -EINVAL;
	if (!desc) {
		kh_rt_seterr(dev, "setting a DXA slot: desc is NULL");
		return -EFAULT;
	}
	memset(&a, 0, sizeof(a));
	a.slot = (uint8_t)(slot > 0xff ? 0xff : slot);
	a.desc = *desc;
	return dxa_call(dev, DRM_IOCTL_KOHAKU_DXA_SET, &a, mesh, x, y,
			"setting");
}

KH_RT_EXPORT int kohaku_dxa_get(kohaku_device *dev, unsigned int mesh,
				unsigned int x, unsigned int y,
				unsigned int slot, unsigned int flags,
				struct drm_kohaku_dxa_slot *out, size_t out_size)
{
	struct drm_kohaku_dxa_slot a;
	int r;

	if (!dev || (out && !out_size))
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.slot = (uint8_t)(slot > 0xff ? 0xff : slot);
	a.flags = flags;
	r = dxa_call(dev, DRM_IOCTL_KOHAKU_DXA_GET, &a, mesh, x, y,
		     flags & KOHAKU_DXA_GET_DEVICE ? "reading the unit's copy of" :
		     "reading");
	if (!r && out)
		kh_rt_copy_out(out, out_size, &a, sizeof(a));
	return r;
}

/* libkohaku 0.1's kohaku_dxa_get (version node KOHAKU_0) */
int kh_rt_dxa_get_v0(kohaku_device *dev, unsigned int mesh, unsigned int x,
		      unsigned int y, unsigned int slot, unsigned int flags,
		      struct drm_kohaku_dxa_slot *out);
int kh_rt_dxa_get_v0(kohaku_device *dev, unsigned int mesh, unsigned int x,
		      unsigned int y, unsigned int slot, unsigned int flags,
		      struct drm_kohaku_dxa_slot *out)
{
	return kohaku_dxa_get(dev, mesh, x, y, slot, flags, out,
			      KH_RT_V0_DXA_SLOT_SIZE);
}
KH_RT_SYMVER(kh_rt_dxa_get_v0, kohaku_dxa_get, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_dxa_get, KOHAKU_0.2);

/* ---- descriptors ---- */

static bool dxa_eb_ok(unsigned int eb)
{
	return eb == 1 || eb == 2 || eb == 4 || eb == 8;
}

KH_RT_EXPORT int kohaku_dxa_desc(struct drm_kohaku_dxa_desc *d, uint32_t bo,
				 uint64_t offset, unsigned int elem_bytes,
				 unsigned int rank, const uint32_t *sizes,
				 const uint32_t *strides,
				 const unsigned int *tiles)
{
	struct drm_kohaku_dxa_desc t;
	uint64_t bytes = elem_bytes;
	unsigned int k;

	if (!d || !sizes || !tiles || (rank > 1 && !strides) || rank < 1 ||
	    rank > KH_DXA_MAX_RANK || !dxa_eb_ok(elem_bytes) ||
	    offset % elem_bytes)
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	t.bo_handle = bo;
	t.bo_offset = offset;
	t.rank = (uint8_t)rank;
	t.elem_bytes = (uint8_t)elem_bytes;
	for (k = 0; k < rank; k++) {
		if (!sizes[k] || !tiles[k] || tiles[k] > 0xffff)
			return -EINVAL;
		t.size[k] = sizes[k];
		t.tile[k] = (uint16_t)tiles[k];
		if (bytes <= KH_DXA_MAX_TILE_BYTES)
			bytes *= tiles[k];
	}
	if (bytes > KH_DXA_MAX_TILE_BYTES)
		return -EINVAL;
	for (k = 1; k < rank; k++) {
		if (strides[k - 1] % elem_bytes)
			return -EINVAL;
		t.stride[k - 1] = strides[k - 1];
	}
	*d = t;
	return 0;
}

KH_RT_EXPORT int kohaku_dxa_desc_dense(struct drm_kohaku_dxa_desc *d,
				       uint32_t bo, uint64_t offset,
				       unsigned int elem_bytes,
				       unsigned int rank,
				       const uint32_t *sizes,
				       const unsigned int *tiles)
{
	uint32_t strides[KH_DXA_MAX_RANK - 1] = { 0 };
	uint64_t pitch = elem_bytes;
	unsigned int k;

	if (!sizes || rank < 1 || rank > KH_DXA_MAX_RANK)
		return -EINVAL;
	for (k = 1; k < rank; k++) {
		pitch *= sizes[k - 1];
		if (pitch > 0xffffffffULL)
			return -EINVAL;
		strides[k - 1] = (uint32_t)pitch;
	}
	return kohaku_dxa_desc(d, bo, offset, elem_bytes, rank, sizes, strides,
			       tiles);
}

KH_RT_EXPORT int kohaku_dxa_desc_1d(struct drm_kohaku_dxa_desc *d,
				    uint32_t bo, uint64_t offset,
				    unsigned int elem_bytes, uint32_t size,
				    unsigned int tile)
{
	return kohaku_dxa_desc(d, bo, offset, elem_bytes, 1, &size, NULL,
			       &tile);
}

KH_RT_EXPORT int kohaku_dxa_desc_2d(struct drm_kohaku_dxa_desc *d,
				    uint32_t bo, uint64_t offset,
				    unsigned int elem_bytes, uint32_t cols,
				    uint32_t rows, uint32_t row_stride,
				    unsigned int tile_cols,
				    unsigned int tile_rows)
{
	const uint32_t sizes[2] = { cols, rows };
	const unsigned int tiles[2] = { tile_cols, tile_rows };

	return kohaku_dxa_desc(d, bo, offset, elem_bytes, 2, sizes,
			       &row_stride, tiles);
}

KH_RT_EXPORT int kohaku_dxa_set_kmajor(struct drm_kohaku_dxa_desc *d, int on)
{
	if (!d || (on && (d->rank < 1 || d->rank > 2)))
		return -EINVAL;
	if (on)
		d->flags |= KOHAKU_DXA_KMAJOR;
	else
		d->flags &= ~KOHAKU_DXA_KMAJOR;
	return 0;
}

KH_RT_EXPORT int kohaku_dxa_set_multicast(struct drm_kohaku_dxa_desc *d,
					  unsigned int mstride)
{
	if (!d || mstride > 0xffff)
		return -EINVAL;
	d->mstride = (uint16_t)mstride;
	return 0;
}

KH_RT_EXPORT int kohaku_dxa_set_cfill(struct drm_kohaku_dxa_desc *d,
				      uint32_t value)
{
	if (!d)
		return -EINVAL;
	d->cfill = value;
	return 0;
}

KH_RT_EXPORT uint32_t kohaku_dxa_tile_elems(const struct drm_kohaku_dxa_desc *d)
{
	uint32_t n = 1;
	unsigned int k;

	if (!d || d->rank < 1 || d->rank > KH_DXA_MAX_RANK)
		return 0;
	for (k = 0; k < d->rank; k++) {
		if ((uint64_t)n * d->tile[k] > KH_DXA_MAX_TILE_BYTES)
			return 0;
		n *= d->tile[k];
	}
	return n;
}

KH_RT_EXPORT uint32_t kohaku_dxa_tile_granules(const struct drm_kohaku_dxa_desc *d)
{
	uint64_t bytes = (uint64_t)kohaku_dxa_tile_elems(d) *
			 (d ? d->elem_bytes : 0);

	if (!bytes || bytes > KH_DXA_MAX_TILE_BYTES)
		return 0;
	return (uint32_t)((bytes + KOHAKU_DATA_GRANULE - 1) / KOHAKU_DATA_GRANULE);
}

/* ---- a slot's 64 bytes ---- */

static void put_le(uint8_t *t, unsigned int at, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		t[at + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *t, unsigned int at, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)t[at + i] << (8 * i);
	return v;
}

KH_RT_EXPORT int kohaku_dxa_encode(uint8_t table[KH_DXA_SLOT_BYTES],
				   const struct drm_kohaku_dxa_desc *d,
				   uint64_t dev_addr)
{
	unsigned int k, l2;

	if (!table || !d || !dxa_eb_ok(d->elem_bytes) || d->rank > 7)
		return -EINVAL;
	l2 = (d->elem_bytes >= 2) + (d->elem_bytes >= 4) + (d->elem_bytes >= 8);
	memset(table, 0, KH_DXA_SLOT_BYTES);
	put_le(table, KH_DXA_D_BASE, dev_addr + d->bo_offset, 8);
	for (k = 0; k < KH_DXA_MAX_RANK; k++) {
		put_le(table, KH_DXA_D_SIZE(k), d->size[k], 4);
		put_le(table, KH_DXA_D_TILE(k), d->tile[k], 2);
	}
	for (k = 0; k < KH_DXA_MAX_RANK - 1; k++)
		put_le(table, KH_DXA_D_STRIDE(k), d->stride[k], 4);
	put_le(table, KH_DXA_D_META, KH_DXA_META(d->rank, l2,
						 d->flags & KOHAKU_DXA_KMAJOR), 4);
	put_le(table, KH_DXA_D_MSTRIDE, d->mstride, 2);
	put_le(table, KH_DXA_D_CFILL, d->cfill, 4);
	return 0;
}

KH_RT_EXPORT void kohaku_dxa_decode(const uint8_t table[KH_DXA_SLOT_BYTES],
				    struct kohaku_dxa_table *out)
{
	unsigned int k;

	if (!out)
		return;
	memset(out, 0, sizeof(*out));
	if (!table)
		return;
	out->base = get_le(table, KH_DXA_D_BASE, 8);
	for (k = 0; k < KH_DXA_MAX_RANK; k++) {
		out->size[k] = (uint32_t)get_le(table, KH_DXA_D_SIZE(k), 4);
		out->tile[k] = (uint16_t)get_le(table, KH_DXA_D_TILE(k), 2);
	}
	for (k = 0; k < KH_DXA_MAX_RANK - 1; k++)
		out->stride[k] = (uint32_t)get_le(table, KH_DXA_D_STRIDE(k), 4);
	out->meta = (uint32_t)get_le(table, KH_DXA_D_META, 4);
	out->rank = KH_DXA_META_RANK(out->meta);
	out->elem_bytes = 1u << KH_DXA_META_ESIZE(out->meta);
	out->kmajor = !!(out->meta & KH_DXA_META_KMAJOR);
	out->mstride = (uint16_t)get_le(table, KH_DXA_D_MSTRIDE, 2);
	out->cfill = (uint32_t)get_le(table, KH_DXA_D_CFILL, 4);
}

KH_RT_EXPORT const char *kohaku_dxa_describe(const uint8_t table[KH_DXA_SLOT_BYTES],
					     char *buf, size_t len)
{
	struct kohaku_dxa_table t;
	size_t at = 0;
	unsigned int k;

	if (!buf || !len)
		return "";
	if (!table) {
		kh_rt_strlcpy(buf, "", len);
		return buf;
	}
	kohaku_dxa_decode(table, &t);
	if (!t.rank) {
		snprintf(buf, len, "empty (rank 0)%s",
			 t.base || t.meta ? ", with stray bits" : "");
		return buf;
	}
#define DXA_OUT(...)							\
	do {								\
		int _n = snprintf(buf + at, at < len ? len - at : 0,	\
				  __VA_ARGS__);				\
		if (_n > 0)						\
			at += (size_t)_n;				\
		if (at >= len)						\
			at = len - 1;					\
	} while (0)
	DXA_OUT("rank %u, %u-byte elements%s, base 0x%010llx, size ", t.rank,
		t.elem_bytes, t.kmajor ? ", K-major" : "",
		(unsigned long long)t.base);
	for (k = 0; k < t.rank && k < KH_DXA_MAX_RANK; k++)
		DXA_OUT("%s%u", k ? "x" : "", t.size[k]);
	DXA_OUT(", tile ");
	for (k = 0; k < t.rank && k < KH_DXA_MAX_RANK; k++)
		DXA_OUT("%s%u", k ? "x" : "", t.tile[k]);
	if (t.rank > 1) {
		DXA_OUT(", strides");
		for (k = 0; k + 1 < t.rank && k < KH_DXA_MAX_RANK - 1; k++)
			DXA_OUT(" %u", t.stride[k]);
	}
	DXA_OUT(", fill 0x%x", t.cfill);
	if (t.mstride)
		DXA_OUT(", multicast stride %u granules", t.mstride);
	if (t.meta & KH_DXA_META_RESERVED)
		DXA_OUT(", reserved meta bits 0x%x", t.meta & KH_DXA_META_RESERVED);
#undef DXA_OUT
	return buf;
}

/* ---- instructions ---- */

static void dxa_inst(struct kohaku_inst *inst, const struct kh_flit *f)
{
	unsigned int k;

	for (k = 0; k < 4; k++)
		inst->w[k] = f->w[k];
}

KH_RT_EXPORT int kohaku_inst_dxa_copy(struct kohaku_inst *inst,
				      unsigned int slot,
				      const uint32_t coords[KH_DXA_MAX_RANK],
				      const struct kohaku_dxa_recv *recv,
				      unsigned int n_recv)
{
	struct kh_flit f;
	unsigned int k;

	if (!inst || !recv || slot >= KH_DXA_SLOTS || n_recv < 1 ||
	    n_recv > KH_DXA_MAX_RECV)
		return -EINVAL;
	for (k = 0; coords && k < KH_DXA_MAX_RANK; k++)
		if (coords[k] > KH_DXA_COORD_MAX)
			return -EINVAL;
	for (k = 0; k < n_recv; k++)
		if (recv[k].x > 15 || recv[k].y > 15 ||
		    recv[k].buf > KH_DXA_RECV_BUF_MAX || recv[k].offset > 0xffff)
			return -EINVAL;
	memset(&f, 0, sizeof(f));
	kh_flit_set(&f, KH_DXA_INST_OP, KH_DXA_OP_COPY);
	kh_flit_set(&f, KH_DXA_INST_SLOT, slot);
	kh_flit_set(&f, KH_DXA_INST_NRECV, n_recv - 1);
	for (k = 0; coords && k < KH_DXA_MAX_RANK; k++)
		kh_flit_set(&f, KH_DXA_INST_COORD(k), coords[k]);
	for (k = 0; k < n_recv; k++)
		kh_flit_set(&f, KH_DXA_INST_RECV(k),
			    KH_DXA_RECV(recv[k].x, recv[k].y, recv[k].buf,
					recv[k].offset));
	dxa_inst(inst, &f);
	return 0;
}

KH_RT_EXPORT int kohaku_inst_scr_copy_out(struct kohaku_inst *inst,
					  unsigned int first,
					  unsigned int granules,
					  uint64_t addr)
{
	struct kh_flit f;

	if (!inst || granules < 1 || granules > KH_SCR_GRANULES ||
	    first > KH_SCR_GRANULES - granules || addr % KH_PAYLOAD_BYTES ||
	    addr >> 40)
		return -EINVAL;
	memset(&f, 0, sizeof(f));
	kh_flit_set(&f, KH_SCR_INST_OP, KH_SCR_OP_COPY_OUT);
	kh_flit_set(&f, KH_SCR_INST_COUNT, granules - 1);
	kh_flit_set(&f, KH_SCR_INST_FIRST, first);
	kh_flit_set(&f, KH_SCR_INST_ADDR, addr);
	dxa_inst(inst, &f);
	return 0;
}

KH_RT_EXPORT const char *kohaku_dxa_fault_describe(uint32_t code, char *buf,
						   size_t len)
{
	const char *w;

	if (!buf || !len)
		return "";
	switch (code) {
	case KH_DXA_FAULT_BAD_OP:
		w = "DXA BAD_OP: op not COPY, or reserved bits set";
		break;
	case KH_DXA_FAULT_EMPTY_SLOT:
		w = "DXA EMPTY_SLOT: the slot's rank is 0";
		break;
	case KH_DXA_FAULT_BAD_META:
		w = "DXA BAD_META: rank past 5, a reserved meta field, or a base past 40 bits";
		break;
	case KH_DXA_FAULT_KMAJOR_RANK:
		w = "DXA KMAJOR_RANK: K-major with rank past 2";
		break;
	case KH_DXA_FAULT_ZERO_TILE:
		w = "DXA ZERO_TILE: a tile extent of 0 below the rank";
		break;
	case KH_DXA_FAULT_TILE_TOO_BIG:
		w = "DXA TILE_TOO_BIG: the tile is more than 8 KiB";
		break;
	case KH_DXA_FAULT_NO_ACK:
		w = "DXA NO_ACK: a receiver did not acknowledge its burst (a buffer "
		    "it does not take, or past its end)";
		break;
	case KH_DXA_FAULT_STALL:
		w = "DXA STALL: no read answered and nothing sent for 65536 cycles";
		break;
	case KH_SCR_FAULT_BAD_OP:
		w = "scr BAD_OP: op not COPY_OUT";
		break;
	case KH_SCR_FAULT_RANGE:
		w = "scr RANGE: granules past 255";
		break;
	case KH_SCR_FAULT_ALIGN:
		w = "scr ALIGN: address not 32-byte aligned";
		break;
	default:
		snprintf(buf, len, "0x%08x: not a DXA or scr fault code", code);
		return buf;
	}
	kh_rt_strlcpy(buf, w, len);
	return buf;
}
