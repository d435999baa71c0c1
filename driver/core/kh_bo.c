// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Buffer objects: ranges of one mesh's DRAM owned by an open file, read and
 * written through the host DMA path.  The card takes host writes as whole
 * 32-byte words, so a write that covers part of a word reads the word first
 * and writes it back merged.
 *
 * Memory freed while jobs submitted earlier are unfinished is not reused
 * until they are: a unit may still be writing into it.
 */
#include "kh_priv.h"

static struct kh_bo *kh_bo_lookup(struct kh_file *kf, u32 handle)
{
	struct kh_bo *bo;

	list_for_each_entry(bo, &kf->bos, link)
		if (bo->handle == handle)
			return bo;
	return NULL;
}

static u64 kh_bo_dev_addr(const struct kh_bo *bo)
{
	return KH_MADDR(bo->mesh->id, bo->ext.start);
}

int kh_bo_create(struct kh_file *kf, struct drm_kohaku_bo_create *a)
{
	struct kh_device *kd = kf->kd;
	struct kh_mesh *m;
	struct kh_bo *bo;
	u64 len;
	int ret;

	if (a->flags || a->pad || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->mesh >= kd->n_meshes || !(kd->mesh[a->mesh].flags & KOHAKU_MESH_PRESENT)) {
		kh_dbg(kd, "BO_CREATE: no mesh %u\n", a->mesh);
		return -EINVAL;
	}
	m = &kd->mesh[a->mesh];
	if (!a->size || a->size > m->mem.size) {
		kh_dbg(kd, "BO_CREATE: size %llu outside 1..%llu\n", a->size, m->mem.size);
		return a->size ? -ENOMEM : -EINVAL;
	}
	if (kf->n_bos >= KH_BO_MAX_PER_FILE)
		return -ENOSPC;
	len = ALIGN(a->size, (u64)KOHAKU_BO_ALIGN);
	bo = kh_zalloc(sizeof(*bo));
	if (!bo)
		return -ENOMEM;
	kh_deferred_reap(kd);
	ret = kh_mem_alloc(&m->mem, len, &bo->ext.start);
	if (ret) {
		kh_dbg(kd, "BO_CREATE: mesh %u has no %llu free bytes in one piece (%llu free)\n",
		       m->id, len, m->mem.free_bytes);
		kh_free(bo);
		return ret;
	}
	bo->ext.len = len;
	bo->size = a->size;
	bo->mesh = m;
	bo->handle = ++kf->next_handle;
	list_add_tail(&bo->link, &kf->bos);
	kf->n_bos++;
	a->handle = bo->handle;
	a->dev_addr = kh_bo_dev_addr(bo);
	return 0;
}

/* Give the range back now, or once the jobs that might touch it are done. */
static void kh_bo_destroy(struct kh_device *kd, struct kh_bo *bo)
{
	u64 newest = kd->next_job_id - 1;
	struct kh_deferred *d;

	list_del(&bo->link);
	if (kh_oldest_unfinished_job(kd) <= newest) {
		d = kh_zalloc(sizeof(*d));
		if (d) {
			d->mesh = bo->mesh;
			d->start = bo->ext.start;
			d->len = bo->ext.len;
			d->after_job = newest;
			list_add_tail(&d->link, &kd->deferred);
		}
		/* without memory for the note, the range stays unused: safe */
	} else {
		kh_mem_release(&bo->mesh->mem, bo->ext.start, bo->ext.len);
	}
	kh_free(bo);
}

void kh_deferred_reap(struct kh_device *kd)
{
	u64 oldest = kh_oldest_unfinished_job(kd);
	struct kh_deferred *d, *tmp;

	list_for_each_entry_safe(d, tmp, &kd->deferred, link) {
		if (d->after_job >= oldest)
			continue;
		kh_mem_release(&d->mesh->mem, d->start, d->len);
		list_del(&d->link);
		kh_free(d);
	}
}

void kh_deferred_release_all(struct kh_device *kd)
{
	struct kh_deferred *d, *tmp;

	list_for_each_entry_safe(d, tmp, &kd->deferred, link) {
		list_del(&d->link);
		kh_free(d);
	}
}

int kh_bo_free(struct kh_file *kf, struct drm_kohaku_bo_free *a)
{
	struct kh_bo *bo;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	bo = kh_bo_lookup(kf, a->handle);
	if (!bo)
		return -ENOENT;
	kf->n_bos--;
	kh_bo_destroy(kf->kd, bo);
	return 0;
}

void kh_bo_release_all(struct kh_file *kf)
{
	struct kh_bo *bo, *tmp;

	list_for_each_entry_safe(bo, tmp, &kf->bos, link)
		kh_bo_destroy(kf->kd, bo);
	kf->n_bos = 0;
}

int kh_bo_info(struct kh_file *kf, struct drm_kohaku_bo_info *a)
{
	struct kh_bo *bo;

	if (a->flags || a->pad || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	bo = kh_bo_lookup(kf, a->handle);
	if (!bo)
		return -ENOENT;
	a->size = bo->size;
	a->dev_addr = kh_bo_dev_addr(bo);
	a->mesh = bo->mesh->id;
	return 0;
}

static int kh_bo_rw_check(struct kh_file *kf, struct drm_kohaku_bo_rw *a,
			  struct kh_bo **out)
{
	struct kh_bo *bo;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	bo = kh_bo_lookup(kf, a->handle);
	if (!bo)
		return -ENOENT;
	if (a->offset > bo->size || a->size > bo->size - a->offset) {
		kh_dbg(kf->kd, "BO %u: [%llu, +%llu) is outside its %llu bytes\n",
		       bo->handle, a->offset, a->size, bo->size);
		return -EINVAL;
	}
	if (!kh_has_dma(kf->kd)) {
		kh_err(kf->kd, "this card has no host DMA path yet; BO data cannot be moved\n");
		return -EOPNOTSUPP;
	}
	*out = bo;
	return 0;
}

static u64 kh_bo_card_addr(const struct kh_bo *bo, u64 off)
{
	return KH_CARD_ADDR(bo->mesh->id, bo->ext.start + off);
}

/*
 * One bounce-buffer chunk of a write: [off, off+len) of the BO, with the
 * whole 32-byte words around it.  The first and last words are read back
 * first when the range covers them only in part.
 */
static int kh_bo_write_chunk(struct kh_device *kd, struct kh_bo *bo, u64 off,
			     const u8 __user *src, size_t len)
{
	const struct kh_hw_ops *ops = kd->hw.ops;
	u64 w0 = off & ~(u64)(KH_HOST_GRANULE - 1);
	u64 w1 = ALIGN(off + len, (u64)KH_HOST_GRANULE);
	size_t span = w1 - w0, head = off - w0;
	int ret;

	if (head) {
		ret = ops->dma_read(kd->hw.ctx, kh_bo_card_addr(bo, w0),
				    kd->bounce, KH_HOST_GRANULE);
		if (ret)
			return ret;
	}
	if ((off + len) & (KH_HOST_GRANULE - 1) &&
	    (span > KH_HOST_GRANULE || !head)) {
		ret = ops->dma_read(kd->hw.ctx,
				    kh_bo_card_addr(bo, w1 - KH_HOST_GRANULE),
				    kd->bounce + span - KH_HOST_GRANULE,
				    KH_HOST_GRANULE);
		if (ret)
			return ret;
	}
	ret = kh_copy_from_user(kd->bounce + head, src, len);
	if (ret)
		return ret;
	return ops->dma_write(kd->hw.ctx, kh_bo_card_addr(bo, w0), kd->bounce,
			      span);
}

static int kh_bo_read_chunk(struct kh_device *kd, struct kh_bo *bo, u64 off,
			    u8 __user *dst, size_t len)
{
	u64 w0 = off & ~(u64)(KH_HOST_GRANULE - 1);
	u64 w1 = ALIGN(off + len, (u64)KH_HOST_GRANULE);
	int ret;

	ret = kd->hw.ops->dma_read(kd->hw.ctx, kh_bo_card_addr(bo, w0),
				   kd->bounce, w1 - w0);
	if (ret)
		return ret;
	return kh_copy_to_user(dst, kd->bounce + (off - w0), len);
}

/* Chunks leave room for the partial words at both ends. */
#define KH_BO_CHUNK	(KH_BOUNCE_BYTES - 2 * KH_HOST_GRANULE)

/* BO_WRITE and BO_READ: the same walk over bounce-buffer chunks. */
static int kh_bo_xfer(struct kh_file *kf, struct drm_kohaku_bo_rw *a,
		      bool write)
{
	u8 __user *user = kh_u64_to_user_ptr(a->data_ptr);
	struct kh_bo *bo;
	u64 done;
	int ret;

	ret = kh_bo_rw_check(kf, a, &bo);
	for (done = 0; !ret && done < a->size; done += KH_BO_CHUNK) {
		size_t len = min_t(u64, a->size - done, KH_BO_CHUNK);
		u64 off = a->offset + done;

		ret = write ? kh_bo_write_chunk(kf->kd, bo, off, user + done, len) :
			      kh_bo_read_chunk(kf->kd, bo, off, user + done, len);
	}
	if (ret && ret != -EFAULT && ret != -EINVAL && ret != -ENOENT)
		kh_err(kf->kd, "BO %u: DMA %s failed (%d)\n", a->handle,
		       write ? "write" : "read", ret);
	return ret;
}

int kh_bo_write(struct kh_file *kf, struct drm_kohaku_bo_rw *a)
{
	return kh_bo_xfer(kf, a, true);
}

int kh_bo_read(struct kh_file *kf, struct drm_kohaku_bo_rw *a)
{
	return kh_bo_xfer(kf, a, false);
}
