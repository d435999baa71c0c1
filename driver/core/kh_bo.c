// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Buffer objects: ranges of one mesh's DRAM owned by an open file, read and
 * written through the host DMA path.  The card takes host writes as whole
 * 32-byte words, so a write that covers part of a word reads the word first
 * and writes it back merged.
 *
 * The file's handle table is under its lock; a transfer holds a reference
 * on its BO and runs with no lock of the core held, so a 64 MiB BO_WRITE
 * holds up nobody else's SUBMIT.  Memory freed while jobs submitted earlier
 * are unfinished is not reused until they are: a unit may still be writing
 * into it.
 */
#include "kh_priv.h"

/* the BO of a handle, with a reference the caller puts */
static struct kh_bo *kh_bo_get(struct kh_file *kf, u32 handle)
{
	struct kh_bo *bo;

	mutex_lock(&kf->lock);
	bo = xa_load(&kf->bos, handle);
	if (bo)
		refcount_inc(&bo->ref);
	mutex_unlock(&kf->lock);
	return bo;
}

/*
 * The last reference: give the range back now, or once every job
 * submitted so far is final and no hung unit of its mesh still owes an
 * instruction (one that wakes would write where it was told to).
 */
static void kh_bo_put(struct kh_bo *bo)
{
	struct kh_device *kd;
	struct kh_deferred *d;

	if (!refcount_dec_and_test(&bo->ref))
		return;
	kd = bo->mesh->kd;
	mutex_lock(&kd->jobs_lock);
	if (list_empty(&kd->unfinished) && !kh_mesh_owes(bo->mesh)) {
		kh_mem_release(&bo->mesh->mem, bo->start, bo->len);
	} else {
		/* without memory for the note the range stays unused: safe */
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		if (d) {
			d->mesh = bo->mesh;
			d->start = bo->start;
			d->len = bo->len;
			d->after_job = kd->next_job_id - 1;
			list_add_tail(&d->link, &kd->deferred);
		}
	}
	mutex_unlock(&kd->jobs_lock);
	kfree(bo);
}

/* at removal, every job ended: what still waits goes back to its mesh */
void kh_deferred_release_all(struct kh_device *kd)
{
	struct kh_deferred *d, *tmp;

	mutex_lock(&kd->jobs_lock);
	list_for_each_entry_safe(d, tmp, &kd->deferred, link) {
		kh_mem_release(&d->mesh->mem, d->start, d->len);
		list_del(&d->link);
		kfree(d);
	}
	mutex_unlock(&kd->jobs_lock);
}

/* Is any of mesh-local [start, start+len) freed but held back? */
static bool kh_deferred_overlaps(struct kh_mesh *m, u64 start, u64 len)
{
	struct kh_device *kd = m->kd;
	struct kh_deferred *d;
	bool ret = false;

	mutex_lock(&kd->jobs_lock);
	list_for_each_entry(d, &kd->deferred, link)
		if (d->mesh == m && d->start < start + len && start < d->start + d->len)
			ret = true;
	mutex_unlock(&kd->jobs_lock);
	return ret;
}

/*
 * KOHAKU_BO_FIXED: the range at a->dev_addr, or a refusal that says which
 * rule it broke.  The address is never moved: a compiler's artifact
 * names it in its instructions.
 */
static int kh_bo_alloc_fixed(struct kh_device *kd, struct kh_mesh *m,
			     const struct drm_kohaku_bo_create *a, struct kh_bo *bo)
{
	u64 local = a->dev_addr & KH_MADDR_LOCAL_MASK, size, free_bytes;
	int ret;

	if (a->dev_addr % KOHAKU_BO_ALIGN) {
		kh_dbg(kd, "BO_CREATE: fixed address 0x%llx is not a multiple of %u (KOHAKU_BO_ALIGN)\n",
		       a->dev_addr, KOHAKU_BO_ALIGN);
		return -EINVAL;
	}
	if (a->dev_addr >> KH_MADDR_MESH_SHIFT != m->id) {
		kh_dbg(kd, "BO_CREATE: fixed address 0x%llx is not on mesh %u (its bits above 35 must be the mesh, 0x%llx)\n",
		       a->dev_addr, m->id, KH_MADDR(m->id, 0));
		return -EINVAL;
	}
	kh_mem_usage(&m->mem, &size, &free_bytes);
	if (local >= size || bo->len > size - local) {
		kh_dbg(kd, "BO_CREATE: fixed range 0x%llx + %llu bytes runs past mesh %u's memory (the driver manages 0x%llx..0x%llx)\n",
		       a->dev_addr, bo->len, m->id, KH_MADDR(m->id, 0),
		       KH_MADDR(m->id, size));
		return -EINVAL;
	}
	ret = kh_mem_alloc_at(&m->mem, local, bo->len);
	if (ret == -EBUSY)
		kh_dbg(kd, "BO_CREATE: fixed range 0x%llx + %llu bytes on mesh %u is taken: %s\n",
		       a->dev_addr, bo->len, m->id,
		       kh_deferred_overlaps(m, local, bo->len) ?
		       "some of it was freed while jobs that may use it were unfinished, and is reused once they are" :
		       "a BO (of any open file) or the driver's firmware copy holds some of it");
	if (!ret)
		bo->start = local;
	return ret;
}

int kh_bo_create(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_bo_create *a = arg;
	struct kh_device *kd = kf->kd;
	bool fixed = a->flags & KOHAKU_BO_FIXED;
	struct kh_mesh *m;
	u64 size, free_bytes;
	struct kh_bo *bo;
	int ret;

	if (a->flags & ~KOHAKU_BO_CREATE_FLAGS) {
		kh_dbg(kd, "BO_CREATE: flags 0x%x (this driver knows 0x%x)\n",
		       a->flags, KOHAKU_BO_CREATE_FLAGS);
		return -EINVAL;
	}
	if (a->pad || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (!kh_mesh_present(kd, a->mesh)) {
		kh_dbg(kd, "BO_CREATE: no mesh %u\n", a->mesh);
		return -EINVAL;
	}
	m = &kd->mesh[a->mesh];
	kh_mem_usage(&m->mem, &size, &free_bytes);
	if (!a->size || a->size > size) {
		kh_dbg(kd, "BO_CREATE: size %llu outside 1..%llu\n", a->size, size);
		/* a fixed range that large lies outside the mesh's memory */
		return a->size && !fixed ? -ENOMEM : -EINVAL;
	}
	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return -ENOMEM;
	refcount_set(&bo->ref, 1);
	bo->len = ALIGN(a->size, (u64)KOHAKU_BO_ALIGN);
	bo->size = a->size;
	bo->mesh = m;
	if (fixed) {
		ret = kh_bo_alloc_fixed(kd, m, a, bo);
		if (ret) {
			kfree(bo);
			return ret;
		}
	} else {
		ret = kh_mem_alloc(&m->mem, bo->len, &bo->start);
	}
	if (ret) {
		kh_mem_usage(&m->mem, &size, &free_bytes);
		kh_dbg(kd, "BO_CREATE: mesh %u has no %llu free bytes in one piece (%llu free)\n",
		       m->id, bo->len, free_bytes);
		kfree(bo);
		return ret;
	}
	/*
	 * What the memory's last owner left there is not the new owner's to
	 * read: zeros first, before any handle names it.  (A card with no
	 * DMA engine moves no BO data to or from the host at all.)
	 */
	if (kh_has_dma(kd)) {
		ret = kh_dma_zero(kd, KH_CARD_ADDR(m->id, bo->start), bo->len);
		if (ret) {
			if (ret != -EINTR)
				kh_err(kd, "BO_CREATE: clearing %llu bytes of mesh %u at 0x%llx failed (%d)\n",
				       bo->len, m->id, bo->start, ret);
			kh_mem_release(&m->mem, bo->start, bo->len);
			kfree(bo);
			return ret;
		}
	}
	mutex_lock(&kf->lock);
	mutex_lock(&m->lock);
	/* a mesh another file holds (MESH_LEASE) takes none of ours */
	ret = kh_lease_busy(m, kf, "BO_CREATE");
	if (!ret && kf->n_bos >= KOHAKU_MAX_BOS)
		ret = -ENOSPC;
	else if (!ret)
		ret = xa_alloc_cyclic(&kf->bos, &bo->handle, bo,
				      XA_LIMIT(1, U32_MAX), &kf->next_handle,
				      GFP_KERNEL);
	if (ret >= 0) {
		ret = 0;
		kf->n_bos++;
		kh_lease_bo_count(kf, m, 1);
	}
	mutex_unlock(&m->lock);
	mutex_unlock(&kf->lock);
	if (ret) {
		if (ret == -EBUSY)
			;	/* kh_lease_busy() said why */
		else if (ret == -ENOSPC)
			kh_dbg(kd, "BO_CREATE: this file holds %u BOs, the most one open file may (KOHAKU_MAX_BOS); free one first\n",
			       KOHAKU_MAX_BOS);
		else
			kh_dbg(kd, "BO_CREATE: no handle for a new BO (%d)\n", ret);
		kh_mem_release(&m->mem, bo->start, bo->len);
		kfree(bo);
		return ret;
	}
	a->handle = bo->handle;
	a->dev_addr = kh_bo_dev_addr(bo);
	return 0;
}

int kh_bo_free(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_bo_free *a = arg;
	struct kh_bo *bo;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	mutex_lock(&kf->lock);
	bo = xa_erase(&kf->bos, a->handle);
	if (bo) {
		kf->n_bos--;
		mutex_lock(&bo->mesh->lock);
		kh_lease_bo_count(kf, bo->mesh, -1);
		mutex_unlock(&bo->mesh->lock);
	}
	mutex_unlock(&kf->lock);
	if (!bo)
		return -ENOENT;
	kh_bo_put(bo);
	return 0;
}

void kh_bo_release_all(struct kh_file *kf)
{
	unsigned long i;
	struct kh_bo *bo;

	lockdep_assert_held(&kf->lock);
	xa_for_each(&kf->bos, i, bo) {
		xa_erase(&kf->bos, i);
		mutex_lock(&bo->mesh->lock);
		kh_lease_bo_count(kf, bo->mesh, -1);
		mutex_unlock(&bo->mesh->lock);
		kh_bo_put(bo);
	}
	kf->n_bos = 0;
}

int kh_bo_info(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_bo_info *a = arg;
	struct kh_bo *bo;

	if (a->flags || a->pad || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	bo = kh_bo_get(kf, a->handle);
	if (!bo)
		return -ENOENT;
	a->size = bo->size;
	a->dev_addr = kh_bo_dev_addr(bo);
	a->mesh = bo->mesh->id;
	kh_bo_put(bo);
	return 0;
}

static u64 kh_bo_card_addr(const struct kh_bo *bo, u64 off)
{
	return KH_CARD_ADDR(bo->mesh->id, bo->start + off);
}

/*
 * BO_WRITE and BO_READ: the card's DMA engine moves the bytes straight
 * between the caller's pages and the BO (kh_dma.c), with no lock of the
 * core held: a reference keeps the BO.
 */
static int kh_bo_xfer(struct kh_file *kf, struct drm_kohaku_bo_rw *a,
		      bool write)
{
	struct kh_device *kd = kf->kd;
	struct kh_bo *bo;
	int ret = 0;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	bo = kh_bo_get(kf, a->handle);
	if (!bo)
		return -ENOENT;
	if (a->offset > bo->size || a->size > bo->size - a->offset) {
		kh_dbg(kd, "BO %u: [%llu, +%llu) is outside its %llu bytes\n",
		       bo->handle, a->offset, a->size, bo->size);
		ret = -EINVAL;
	} else if (!kh_has_dma(kd)) {
		kh_err(kd, "this card has no usable DMA engine; BO data cannot be moved\n");
		ret = -EOPNOTSUPP;
	} else if (a->size && !a->data_ptr) {
		/* no arithmetic on a NULL pointer (undefined in C, in-process) */
		kh_dbg(kd, "BO %u: data_ptr is 0 for %llu bytes\n", bo->handle,
		       a->size);
		ret = -EFAULT;
	} else if (a->size) {
		ret = kh_dma_user(kd, kh_bo_card_addr(bo, a->offset),
				  u64_to_user_ptr(a->data_ptr), a->size, write);
		if (ret && ret != -EFAULT && ret != -EINTR)
			kh_err(kd, "BO %u: DMA %s of %llu bytes at %llu failed (%d)\n",
			       a->handle, write ? "write" : "read", a->size,
			       a->offset, ret);
	}
	kh_bo_put(bo);
	return ret;
}

int kh_bo_write(struct kh_file *kf, void *arg)
{
	return kh_bo_xfer(kf, arg, true);
}

int kh_bo_read(struct kh_file *kf, void *arg)
{
	return kh_bo_xfer(kf, arg, false);
}
