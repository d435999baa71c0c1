// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The one access path of every register table (regs.h): the decode of an
 * offset to a register and its index, the storage of a register in its
 * device's field, and the access rules, applied in this order on a write:
 * the masks (read-only, write-1-to-clear, write-1-to-set), the pre-write
 * hook, the store, the post-write hook; on a read: the value, then the
 * clear-on-read bits.  The rules live here and nowhere else, so a device
 * cannot get one subtly different from another.
 */
#include "regs.h"

/* The register's value as stored, lsb-aligned and cut to the width. */
static u64 ksim_reg_load(const struct ksim_regs *t, const struct ksim_reg *r,
			 const void *dev, unsigned int i)
{
	const u8 *p = (const u8 *)dev + r->data + (size_t)i * r->size;
	u64 v;

	switch (r->size) {
	case 1:
		v = *p;
		break;
	case 2:
		v = *(const u16 *)p;
		break;
	case 4:
		v = *(const u32 *)p;
		break;
	case 8:
		v = *(const u64 *)p;
		break;
	default:
		return r->reset;	/* not stored */
	}
	v >>= r->lsb;
	return t->width == 8 ? v : (u32)v;
}

/* Store v into the register's bits of its field; returns what reads back. */
static u64 ksim_reg_store(const struct ksim_regs *t, const struct ksim_reg *r,
			  void *dev, unsigned int i, u64 v)
{
	u8 *p = (u8 *)dev + r->data + (size_t)i * r->size;
	u64 m = (t->width == 8 ? KSIM_REG_ALL : 0xffffffffULL) << r->lsb;

	switch (r->size) {
	case 1:
		*p = (u8)v;
		break;
	case 2:
		*(u16 *)p = (u16)v;
		break;
	case 4:
		*(u32 *)p = (u32)v;
		break;
	case 8:
		/* the other half of a field two 32-bit registers share */
		*(u64 *)p = (*(u64 *)p & ~m) | ((v << r->lsb) & m);
		break;
	default:
		return v;	/* not stored: the hooks see the value */
	}
	return ksim_reg_load(t, r, dev, i);
}

const struct ksim_reg *ksim_reg_at(const struct ksim_regs *t, u32 off,
				   unsigned int *i)
{
	unsigned int lo = 0, hi = t->n, mid;
	const struct ksim_reg *r;
	u32 d;

	/* the last register at or below off: the only one that can hold it */
	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		if (t->reg[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	r = &t->reg[lo];
	if (!t->n || off < r->off)
		return NULL;
	d = off - r->off;
	if (d & (t->width - 1))
		return NULL;	/* not at a register's first byte */
	d = t->width == 8 ? d >> 3 : d >> 2;
	if (d >= (r->n ? r->n : 1u))
		return NULL;	/* past the run: a hole */
	*i = d;
	return r;
}

u64 ksim_reg_read(const struct ksim_regs *t, void *dev, u32 off)
{
	const struct ksim_reg *r;
	unsigned int i;
	u64 v, old;

	r = ksim_reg_at(t, off, &i);
	if (!r)
		return t->miss_read ? t->miss_read(dev, off) : 0;
	old = ksim_reg_load(t, r, dev, i);
	v = r->read ? r->read(dev, i) : old;
	if (r->size && (r->rc & old)) {
		u64 now = ksim_reg_store(t, r, dev, i, old & ~r->rc);

		if (r->post_write)
			r->post_write(dev, i, old, now);
	}
	return v;
}

void ksim_reg_write(const struct ksim_regs *t, void *dev, u32 off, u64 v)
{
	const struct ksim_reg *r;
	unsigned int i;
	u64 old, now;

	r = ksim_reg_at(t, off, &i);
	if (!r) {
		if (t->miss_write)
			t->miss_write(dev, off, v);
		return;
	}
	old = ksim_reg_load(t, r, dev, i);
	now = (v & ~(r->ro | r->w1c | r->w1s)) | (old & r->ro) |
	      (old & r->w1c & ~v) | ((old | v) & r->w1s);
	if (r->pre_write)
		now = r->pre_write(dev, i, old, now);
	now = ksim_reg_store(t, r, dev, i, now);
	if (r->post_write)
		r->post_write(dev, i, old, now);
}

void ksim_regs_reset(const struct ksim_regs *t, void *dev)
{
	const struct ksim_reg *r;
	unsigned int i;

	for (r = t->reg; r < t->reg + t->n; r++)
		if (r->size && !r->keep)
			for (i = 0; i < (r->n ? r->n : 1u); i++)
				ksim_reg_store(t, r, dev, i, r->reset);
}

int ksim_reg_name(const struct ksim_regs *t, u32 off, char *buf, size_t len)
{
	const struct ksim_reg *r;
	unsigned int i;

	r = ksim_reg_at(t, off, &i);
	if (!r)
		return -ENOENT;
	if (r->n > 1)
		return snprintf(buf, len, "%s[%u]", r->name, i);
	return snprintf(buf, len, "%s", r->name);
}
