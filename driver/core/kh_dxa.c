// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA units' descriptor slots (ABI 0.5; docs/spec/dxa.md, docs/abi.md
 * "DXA", docs/driver-core.md "DXA slots").
 *
 * A DXA unit copies a tile of a tensor in DRAM into other units' buffers.
 * What a tile is comes from one of the unit's 16 descriptor slots, which
 * hold a raw MAG address: a host that could write them could make the unit
 * read any memory of the mesh.  So the table is the driver's.  A file
 * allocates a slot (DXA_ALLOC) and sets it (DXA_SET) from a BO handle and
 * an offset, checked whole: the whole tensor the descriptor can reach lies
 * inside that BO.  Nothing reaches the unit then.  A job whose program on
 * the unit names the slot in a COPY carries the slot's 64 bytes as job data
 * (kh_job_data.c), sent before the job's instructions, so a copy finds the
 * slot as it was when the job was submitted, whatever another file's job
 * wrote there before.  Programs may not carry CU_DATA of their own for a
 * DXA unit (kh_job_data.c refuses it).
 *
 * The tables are under their mesh's lock; SET and SUBMIT take the file's
 * lock first, for its BO table.
 */
#include <linux/overflow.h>

#include "kh_priv.h"
#include "kh_check.h"

/* One slot of one DXA unit. */
struct kh_dxa_slot {
	struct kh_file *owner;	/* NULL: free */
	u32 state;		/* KOHAKU_DXA_SLOT_* */
	u64 base;		/* SET: MAG address of element 0, for the BO's check */
	struct drm_kohaku_dxa_desc desc;	/* SET: as the file gave it */
};

int kh_dxa_mesh_init(struct kh_mesh *m)
{
	unsigned int i;

	for (i = 0; i < m->n_nodes; i++) {
		struct kh_node *n = &m->nodes[i];

		if (n->cu_type != KH_CU_DX)
			continue;
		n->dxa = kvcalloc(KH_DXA_SLOTS, sizeof(*n->dxa), GFP_KERNEL);
		if (!n->dxa)
			return -ENOMEM;
		m->kd->dxa_units++;
	}
	return 0;
}

void kh_dxa_mesh_fini(struct kh_mesh *m)
{
	unsigned int i;

	for (i = 0; i < m->n_nodes; i++) {
		kvfree(m->nodes[i].dxa);
		m->nodes[i].dxa = NULL;
	}
}

/* ---- the slot's 64 bytes, as docs/spec/dxa.md lays them out ---- */

static void kh_dxa_put(u8 *t, unsigned int at, u64 v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		t[at + i] = (u8)(v >> (8 * i));
}

static unsigned int kh_dxa_log2(unsigned int elem_bytes)
{
	return (elem_bytes >= 2) + (elem_bytes >= 4) + (elem_bytes >= 8);
}

static void kh_dxa_encode(const struct drm_kohaku_dxa_desc *d, u64 base, u8 *t)
{
	unsigned int k;

	memset(t, 0, KH_DXA_SLOT_BYTES);
	kh_dxa_put(t, KH_DXA_D_BASE, base, 8);
	for (k = 0; k < KH_DXA_MAX_RANK; k++) {
		kh_dxa_put(t, KH_DXA_D_SIZE(k), d->size[k], 4);
		kh_dxa_put(t, KH_DXA_D_TILE(k), d->tile[k], 2);
	}
	for (k = 0; k < KH_DXA_MAX_RANK - 1; k++)
		kh_dxa_put(t, KH_DXA_D_STRIDE(k), d->stride[k], 4);
	kh_dxa_put(t, KH_DXA_D_META,
		   KH_DXA_META(d->rank, kh_dxa_log2(d->elem_bytes),
			       d->flags & KOHAKU_DXA_KMAJOR), 4);
	kh_dxa_put(t, KH_DXA_D_MSTRIDE, d->mstride, 2);
	kh_dxa_put(t, KH_DXA_D_CFILL, d->cfill, 4);
}

/* ---- checks ---- */

/* Everything in the descriptor that needs no BO: 0 or -EINVAL, said why. */
static int kh_dxa_check_desc(struct kh_device *kd,
			     const struct drm_kohaku_dxa_desc *d)
{
	unsigned int r = d->rank, eb = d->elem_bytes, k;
	u64 bytes;

	if (d->flags & ~KOHAKU_DXA_DESC_FLAGS) {
		kh_dbg(kd, "DXA_SET: desc.flags 0x%x has bits this driver does not know (it takes KOHAKU_DXA_KMAJOR 0x%x)\n",
		       d->flags, KOHAKU_DXA_KMAJOR);
		return -EINVAL;
	}
	if (d->pad || !kh_all_zero(d->reserved, sizeof(d->reserved))) {
		kh_dbg(kd, "DXA_SET: desc.pad and desc.reserved must be 0\n");
		return -EINVAL;
	}
	if (r < 1 || r > KH_DXA_MAX_RANK) {
		kh_dbg(kd, "DXA_SET: rank %u; a descriptor has 1 to %u dimensions\n",
		       r, KH_DXA_MAX_RANK);
		return -EINVAL;
	}
	if (eb != 1 && eb != 2 && eb != 4 && eb != 8) {
		kh_dbg(kd, "DXA_SET: elem_bytes %u; the unit moves elements of 1, 2, 4 or 8 bytes\n",
		       eb);
		return -EINVAL;
	}
	for (k = 0; k < KH_DXA_MAX_RANK; k++) {
		if (k >= r) {
			if (d->size[k] || d->tile[k]) {
				kh_dbg(kd, "DXA_SET: dimension %u is not below rank %u, so its size and tile must be 0 (they are %u and %u)\n",
				       k, r, d->size[k], d->tile[k]);
				return -EINVAL;
			}
			continue;
		}
		if (!d->size[k]) {
			kh_dbg(kd, "DXA_SET: size[%u] is 0; each of the %u dimensions has at least one element\n",
			       k, r);
			return -EINVAL;
		}
		if (!d->tile[k]) {
			kh_dbg(kd, "DXA_SET: tile[%u] is 0; a tile has 1 to 65535 elements in each of its %u dimensions\n",
			       k, r);
			return -EINVAL;
		}
	}
	/* stride[k] is dimension k + 1's */
	for (k = 0; k < KH_DXA_MAX_RANK - 1; k++) {
		if (k + 1 >= r && d->stride[k]) {
			kh_dbg(kd, "DXA_SET: stride[%u] is dimension %u's, not below rank %u: it must be 0 (it is %u)\n",
			       k, k + 1, r, d->stride[k]);
			return -EINVAL;
		}
		if (d->stride[k] % eb) {
			kh_dbg(kd, "DXA_SET: stride[%u] (dimension %u) is %u bytes, not a multiple of elem_bytes %u\n",
			       k, k + 1, d->stride[k], eb);
			return -EINVAL;
		}
	}
	if (d->bo_offset % eb) {
		kh_dbg(kd, "DXA_SET: bo_offset %llu is not a multiple of elem_bytes %u\n",
		       d->bo_offset, eb);
		return -EINVAL;
	}
	/* at most 8 KiB before each product: no overflow */
	bytes = eb;
	for (k = 0; k < r && bytes <= KH_DXA_MAX_TILE_BYTES; k++)
		bytes *= d->tile[k];
	if (bytes > KH_DXA_MAX_TILE_BYTES) {
		kh_dbg(kd, "DXA_SET: the tile (%u x %u x %u x %u x %u elements of %u bytes) is more than %u bytes, what one copy moves (one CU_DATA burst)\n",
		       d->tile[0], d->tile[1], d->tile[2], d->tile[3], d->tile[4],
		       eb, KH_DXA_MAX_TILE_BYTES);
		return -EINVAL;
	}
	if ((d->flags & KOHAKU_DXA_KMAJOR) && r > 2) {
		kh_dbg(kd, "DXA_SET: K-major with rank %u; the unit transposes tiles of rank 1 and 2 only\n",
		       r);
		return -EINVAL;
	}
	return 0;
}

/*
 * Does every element the descriptor reaches, (size[d] - 1) in each
 * dimension, lie inside @bo?  Each step keeps end <= bo->size, so nothing
 * overflows: one span is at most (2^32 - 1)^2.
 */
/* bytes from element 0 to past the far corner; 0 when it overflows */
static u64 kh_dxa_extent(const struct drm_kohaku_dxa_desc *d)
{
	u64 end = 0, span;
	unsigned int k;

	for (k = 0; k < d->rank; k++) {
		span = (u64)(d->size[k] - 1) * (k ? d->stride[k - 1] : d->elem_bytes);
		if (check_add_overflow(end, span, &end))
			return 0;
	}
	return check_add_overflow(end, (u64)d->elem_bytes, &end) ? 0 : end;
}

static bool kh_dxa_inside(const struct drm_kohaku_dxa_desc *d,
			  const struct kh_bo *bo)
{
	u64 end = d->bo_offset, span;
	unsigned int k;

	if (end > bo->size)
		return false;
	for (k = 0; k < d->rank; k++) {
		span = (u64)(d->size[k] - 1) * (k ? d->stride[k - 1] : d->elem_bytes);
		if (span > bo->size - end)
			return false;
		end += span;
	}
	return d->elem_bytes <= bo->size - end;
}

/*
 * The descriptor's BO, a BO of @kf on the unit's mesh that holds the
 * whole tensor: 0, -ENOENT or -EINVAL, said why.
 */
static int kh_dxa_check_bo(struct kh_file *kf, const struct kh_node *n,
			   const struct drm_kohaku_dxa_desc *d,
			   struct kh_bo **out)
{
	struct kh_device *kd = kf->kd;
	struct kh_bo *bo;

	lockdep_assert_held(&kf->lock);
	bo = xa_load(&kf->bos, d->bo_handle);
	if (!bo) {
		kh_dbg(kd, "DXA_SET: desc.bo_handle %u is not a BO of this file\n",
		       d->bo_handle);
		return -ENOENT;
	}
	if (bo->mesh != n->mesh) {
		kh_dbg(kd, "DXA_SET: BO %u is on mesh %u; the DXA unit (%u,%u) reads the memory of its own mesh %u\n",
		       d->bo_handle, bo->mesh->id, n->x, n->y, n->mesh->id);
		return -EINVAL;
	}
	if (!kh_dxa_inside(d, bo)) {
		kh_dbg(kd, "DXA_SET: the tensor's far corner (element size[d] - 1 of every dimension; sizes %u, %u, %u, %u, %u, bo_offset %llu, strides %u, %u, %u, %u) lies past the end of BO %u (%llu bytes); the unit may read nothing outside the BO\n",
		       d->size[0], d->size[1], d->size[2], d->size[3], d->size[4],
		       d->bo_offset, d->stride[0], d->stride[1], d->stride[2],
		       d->stride[3], d->bo_handle, bo->size);
		return -EINVAL;
	}
	*out = bo;
	return 0;
}

/*
 * The DXA unit a command names, and its slot when @slot_in: 0, or -EINVAL
 * with a message.  Also the struct's flags (only @flags_ok) and pad.
 */
static int kh_dxa_node(struct kh_device *kd, const char *cmd,
		       const struct drm_kohaku_dxa_slot *a, u32 flags_ok,
		       bool slot_in, struct kh_node **out)
{
	struct kh_node *n;

	if (a->flags & ~flags_ok) {
		kh_dbg(kd, "%s: flags 0x%x; it takes 0x%x\n", cmd, a->flags,
		       flags_ok);
		return -EINVAL;
	}
	if (a->pad) {
		kh_dbg(kd, "%s: pad must be 0\n", cmd);
		return -EINVAL;
	}
	if (!kh_mesh_present(kd, a->mesh)) {
		kh_dbg(kd, "%s: no mesh %u\n", cmd, a->mesh);
		return -EINVAL;
	}
	n = kh_mesh_node(&kd->mesh[a->mesh], a->x, a->y);
	if (!n) {
		kh_dbg(kd, "%s: (%u,%u) on mesh %u is not an enumerated node\n",
		       cmd, a->x, a->y, a->mesh);
		return -EINVAL;
	}
	if (n->cu_type != KH_CU_DX || !n->dxa) {
		kh_dbg(kd, "%s: node (%u,%u) on mesh %u is not a DXA unit (cu_type 0x%04x, not 0x%04x)\n",
		       cmd, a->x, a->y, a->mesh, n->cu_type, KH_CU_DX);
		return -EINVAL;
	}
	if (slot_in && a->slot >= KH_DXA_SLOTS) {
		kh_dbg(kd, "%s: slot %u; a DXA unit has slots 0 to %u\n", cmd,
		       a->slot, KH_DXA_SLOTS - 1);
		return -EINVAL;
	}
	*out = n;
	return 0;
}

/* The slot is this file's: else -ENOENT, said why. */
static int kh_dxa_mine(struct kh_file *kf, const char *cmd,
		       const struct kh_node *n, unsigned int s)
{
	const struct kh_dxa_slot *sl = &n->dxa[s];

	lockdep_assert_held(&n->mesh->lock);
	if (sl->owner == kf)
		return 0;
	kh_dbg(kf->kd, "%s: slot %u of DXA unit (%u,%u) on mesh %u %s\n", cmd,
	       s, n->x, n->y, n->mesh->id, sl->owner ?
	       "belongs to another file" : "is free (DXA_ALLOC takes one)");
	return -ENOENT;
}

static void kh_dxa_clear(struct kh_dxa_slot *sl)
{
	memset(sl, 0, sizeof(*sl));
	sl->state = KOHAKU_DXA_SLOT_FREE;
}

/* ---- the ioctls ---- */

int kh_dxa_alloc(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_dxa_slot *a = arg;
	struct kh_device *kd = kf->kd;
	struct kh_node *n;
	unsigned int s;
	int ret;

	ret = kh_dxa_node(kd, "DXA_ALLOC", a, 0, false, &n);
	if (ret)
		return ret;
	mutex_lock(&n->mesh->lock);
	for (s = 0; s < KH_DXA_SLOTS && n->dxa[s].owner; s++)
		;
	if (s < KH_DXA_SLOTS) {
		kh_dxa_clear(&n->dxa[s]);
		n->dxa[s].owner = kf;
		n->dxa[s].state = KOHAKU_DXA_SLOT_OWNED;
	}
	mutex_unlock(&n->mesh->lock);
	if (s == KH_DXA_SLOTS) {
		kh_dbg(kd, "DXA_ALLOC: all %u slots of DXA unit (%u,%u) on mesh %u are taken\n",
		       KH_DXA_SLOTS, n->x, n->y, a->mesh);
		return -EBUSY;
	}
	a->slot = s;
	a->state = KOHAKU_DXA_SLOT_OWNED;
	memset(&a->desc, 0, sizeof(a->desc));
	memset(a->table, 0, sizeof(a->table));
	return 0;
}

int kh_dxa_free(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_dxa_slot *a = arg;
	struct kh_node *n;
	int ret;

	ret = kh_dxa_node(kf->kd, "DXA_FREE", a, 0, true, &n);
	if (ret)
		return ret;
	mutex_lock(&n->mesh->lock);
	ret = kh_dxa_mine(kf, "DXA_FREE", n, a->slot);
	if (!ret)
		kh_dxa_clear(&n->dxa[a->slot]);
	mutex_unlock(&n->mesh->lock);
	if (ret)
		return ret;
	a->state = KOHAKU_DXA_SLOT_FREE;
	memset(&a->desc, 0, sizeof(a->desc));
	memset(a->table, 0, sizeof(a->table));
	return 0;
}

int kh_dxa_set(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_dxa_slot *a = arg;
	struct kh_dxa_slot *sl;
	struct kh_node *n;
	struct kh_bo *bo;
	int ret;

	ret = kh_dxa_node(kf->kd, "DXA_SET", a, 0, true, &n);
	if (ret)
		return ret;
	mutex_lock(&kf->lock);
	mutex_lock(&n->mesh->lock);
	sl = &n->dxa[a->slot];
	ret = kh_dxa_mine(kf, "DXA_SET", n, a->slot);
	if (!ret)
		ret = kh_dxa_check_desc(kf->kd, &a->desc);
	if (!ret)
		ret = kh_dxa_check_bo(kf, n, &a->desc, &bo);
	if (!ret) {
		sl->desc = a->desc;
		sl->base = kh_bo_dev_addr(bo) + a->desc.bo_offset;
		sl->state = KOHAKU_DXA_SLOT_SET;
		kh_dxa_encode(&sl->desc, sl->base, a->table);
	}
	mutex_unlock(&n->mesh->lock);
	mutex_unlock(&kf->lock);
	if (!ret)
		a->state = KOHAKU_DXA_SLOT_SET;
	return ret;
}

/*
 * The unit's copy of slot @s, through CU_CTRL: DXA_SEL then DXA_DATA for
 * each of its 8 words, one request at a time at the node (the mailbox
 * keeps one outstanding per coordinate), as NODES' live reads go.
 */
static int kh_dxa_read_table(struct kh_mesh *m, const struct kh_node *n,
			     unsigned int s, u8 *t)
{
	struct kh_ctrl_req req[2 * KH_DXA_SLOT_BYTES / 8];
	unsigned int w;
	int ret;

	lockdep_assert_held(&m->lock);
	memset(req, 0, sizeof(req));
	for (w = 0; w < KH_DXA_SLOT_BYTES / 8; w++) {
		struct kh_ctrl_req *sel = &req[2 * w], *data = &req[2 * w + 1];

		sel->x = n->x;
		sel->y = n->y;
		sel->index = KH_CTRL_IDX_DXA_SEL;
		sel->write = true;
		sel->value = s * (KH_DXA_SLOT_BYTES / 8) + w;
		data->x = n->x;
		data->y = n->y;
		data->index = KH_CTRL_IDX_DXA_DATA;
	}
	ret = kh_ctrl_read_many(m, req, ARRAY_SIZE(req));
	for (w = 0; !ret && w < ARRAY_SIZE(req); w++) {
		ret = req[w].result;
		if (ret)
			kh_warn(m->kd, "mesh %u: DXA unit (%u,%u) did not answer the read of slot %u word %u (%s, %d)\n",
				m->id, n->x, n->y, s, w / 2,
				w % 2 ? "DXA_DATA" : "DXA_SEL", ret);
	}
	if (ret)
		return ret;
	for (w = 0; w < KH_DXA_SLOT_BYTES / 8; w++)
		kh_dxa_put(t, 8 * w, req[2 * w + 1].value, 8);
	return 0;
}

int kh_dxa_get(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_dxa_slot *a = arg;
	bool device = a->flags & KOHAKU_DXA_GET_DEVICE;
	const struct kh_dxa_slot *sl;
	struct kh_node *n;
	int ret;

	ret = kh_dxa_node(kf->kd, "DXA_GET", a, KOHAKU_DXA_GET_DEVICE, true, &n);
	if (ret)
		return ret;
	mutex_lock(&n->mesh->lock);
	sl = &n->dxa[a->slot];
	/* the device's table may be read at any slot; the driver's, at ours */
	ret = device ? 0 : kh_dxa_mine(kf, "DXA_GET", n, a->slot);
	if (!ret) {
		a->state = sl->state;
		if (sl->owner == kf)
			a->desc = sl->desc;
		else
			memset(&a->desc, 0, sizeof(a->desc));
		if (device)
			ret = kh_dxa_read_table(n->mesh, n, a->slot, a->table);
		else if (sl->state == KOHAKU_DXA_SLOT_SET)
			kh_dxa_encode(&sl->desc, sl->base, a->table);
		else
			memset(a->table, 0, sizeof(a->table));
	}
	mutex_unlock(&n->mesh->lock);
	return ret;
}

void kh_dxa_release_all(struct kh_file *kf)
{
	struct kh_device *kd = kf->kd;
	unsigned int i, k, s;

	lockdep_assert_held(&kf->lock);
	if (!kd->dxa_units)
		return;
	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i))
			continue;
		mutex_lock(&m->lock);
		for (k = 0; k < m->n_nodes; k++) {
			struct kh_dxa_slot *t = m->nodes[k].dxa;

			for (s = 0; t && s < KH_DXA_SLOTS; s++)
				if (t[s].owner == kf)
					kh_dxa_clear(&t[s]);
		}
		mutex_unlock(&m->lock);
	}
}

/* ---- SUBMIT: programs for DXA units ---- */

/*
 * One instruction of a program for a DXA unit: a COPY with its reserved
 * bits 0, 1-4 receivers a copy may write (enumerated nodes of the mesh,
 * no POOL unit, no DXA unit) and unused receiver fields 0.  The slot it
 * names goes into @mask.  A receiver's buf_id is 6 bits: it cannot exceed
 * KH_DXA_RECV_BUF_MAX, and which buffers a receiver takes is its own
 * business (a burst it refuses is the unit's NO_ACK fault).
 */
static int kh_dxa_check_inst(struct kh_device *kd, const struct kh_prog *pr,
			     u32 prog, u32 i, u16 *mask)
{
	const struct kh_node *n = pr->node;
	unsigned int nrecv, r, x, y;
	const char *why;
	struct kh_flit f;
	u64 v;

	memset(&f, 0, sizeof(f));
	memcpy(f.w, pr->insts[i].w, sizeof(pr->insts[i].w));
	v = kh_flit_get(&f, KH_DXA_INST_OP);
	if (v != KH_DXA_OP_COPY) {
		kh_dbg(kd, "SUBMIT: program %u instruction %u for DXA unit (%u,%u) has op %llu; the unit takes COPY (%u) only\n",
		       prog, i, n->x, n->y, v, KH_DXA_OP_COPY);
		return -EINVAL;
	}
	v = kh_flit_get(&f, KH_DXA_INST_ZERO);
	if (v) {
		kh_dbg(kd, "SUBMIT: program %u instruction %u for DXA unit (%u,%u) has 0x%llx in bits [245:240], which are reserved and must be 0\n",
		       prog, i, n->x, n->y, v);
		return -EINVAL;
	}
	nrecv = kh_flit_get(&f, KH_DXA_INST_NRECV) + 1;
	for (r = 0; r < KH_DXA_MAX_RECV; r++) {
		v = kh_flit_get(&f, KH_DXA_INST_RECV(r));
		if (r >= nrecv) {
			if (!v)
				continue;
			kh_dbg(kd, "SUBMIT: program %u instruction %u for DXA unit (%u,%u) names %u receiver(s), but receiver field %u holds 0x%llx; unused receiver fields must be 0\n",
			       prog, i, n->x, n->y, nrecv, r, v);
			return -EINVAL;
		}
		x = KH_DXA_RECV_X(v);
		y = KH_DXA_RECV_Y(v);
		why = kh_node_refuses_data(n->mesh, x, y);
		if (!why)
			continue;
		kh_dbg(kd, "SUBMIT: program %u instruction %u for DXA unit (%u,%u): receiver %u (%u,%u) %s\n",
		       prog, i, n->x, n->y, r, x, y, why);
		return -EINVAL;
	}
	*mask |= 1u << kh_flit_get(&f, KH_DXA_INST_SLOT);
	return 0;
}

/*
 * Slot @s of the unit, for a job of @kf: this file's, set, its BO still
 * there: its 64 bytes into @t.  0, -ENOENT or -EINVAL, said why.
 */
static int kh_dxa_slot_bytes(struct kh_file *kf, const struct kh_prog *pr,
			     struct kh_check *c, u32 prog, unsigned int s, u8 *t)
{
	const struct kh_node *n = pr->node;
	u32 i;
	int ret;

	const struct kh_dxa_slot *sl = &n->dxa[s];
	struct kh_device *kd = kf->kd;
	struct kh_bo *bo;

	lockdep_assert_held(&kf->lock);
	lockdep_assert_held(&n->mesh->lock);
	if (sl->owner != kf) {
		kh_dbg(kd, "SUBMIT: program %u copies through slot %u of DXA unit (%u,%u), which %s\n",
		       prog, s, n->x, n->y, sl->owner ? "belongs to another file" :
		       "is free (DXA_ALLOC takes one)");
		return -ENOENT;
	}
	if (sl->state != KOHAKU_DXA_SLOT_SET) {
		kh_dbg(kd, "SUBMIT: program %u copies through slot %u of DXA unit (%u,%u), which is allocated but not set (DXA_SET first)\n",
		       prog, s, n->x, n->y);
		return -EINVAL;
	}
	bo = xa_load(&kf->bos, sl->desc.bo_handle);
	if (!bo || kh_bo_dev_addr(bo) + sl->desc.bo_offset != sl->base ||
	    !kh_dxa_inside(&sl->desc, bo)) {
		kh_dbg(kd, "SUBMIT: program %u copies through slot %u of DXA unit (%u,%u), whose BO %u was freed since DXA_SET; set the slot again\n",
		       prog, s, n->x, n->y, sl->desc.bo_handle);
		return -EINVAL;
	}
	/* the tensor, against the job's buffers, at the first COPY naming it */
	for (i = 0; i < pr->n; i++)
		if (kh_inst_get(&pr->insts[i], KH_DXA_INST_SLOT) == s)
			break;
	c->prog = prog;
	c->node = n;
	c->unit = "DXA";
	ret = kh_check_mem(c, i, 0, "the tensor of its slot", sl->base,
			   kh_dxa_extent(&sl->desc), KOHAKU_JOB_BO_READ);
	if (ret)
		return ret;
	kh_dxa_encode(&sl->desc, sl->base, t);
	return 0;
}

int kh_dxa_job_data(struct kh_file *kf, struct kh_job *job, struct kh_check *c,
		    struct kh_data_add **out, u32 *n_out)
{
	struct kh_device *kd = kf->kd;
	struct kh_data_add *add = NULL;
	u32 i, j, s, n_add = 0, k = 0;
	u16 *mask;
	u8 *bytes;
	int ret = 0;

	*out = NULL;
	*n_out = 0;
	if (!kd->dxa_units)
		return 0;
	mask = kvcalloc(job->n_progs, sizeof(*mask), GFP_KERNEL);
	if (!mask)
		return -ENOMEM;
	for (i = 0; i < job->n_progs; i++) {
		const struct kh_prog *pr = &job->progs[i];

		if (pr->node->cu_type != KH_CU_DX)
			continue;
		for (j = 0; j < pr->n && !ret; j++)
			ret = kh_dxa_check_inst(kd, pr, i, j, &mask[i]);
		if (ret)
			goto out;
		for (s = 0; s < KH_DXA_SLOTS; s++)
			n_add += (mask[i] >> s) & 1;
	}
	if (!n_add)
		goto out;
	add = kvcalloc(n_add, sizeof(*add) + KH_DXA_SLOT_BYTES, GFP_KERNEL);
	if (!add) {
		ret = -ENOMEM;
		goto out;
	}
	bytes = (u8 *)(add + n_add);
	mutex_lock(&kf->lock);
	mutex_lock(&job->mesh->lock);
	for (i = 0; i < job->n_progs && !ret; i++) {
		for (s = 0; s < KH_DXA_SLOTS && !ret; s++) {
			u8 *t = bytes + (size_t)k * KH_DXA_SLOT_BYTES;

			if (!(mask[i] & (1u << s)))
				continue;
			ret = kh_dxa_slot_bytes(kf, &job->progs[i], c, i, s, t);
			add[k].prog = i;
			add[k].buf = KH_DXA_BUF_TABLE;
			add[k].offset = s * KH_DXA_SLOT_GRANULES;
			add[k].size = KH_DXA_SLOT_BYTES;
			add[k].bytes = t;
			k++;
		}
	}
	mutex_unlock(&job->mesh->lock);
	mutex_unlock(&kf->lock);
	if (ret) {
		kvfree(add);
		goto out;
	}
	*out = add;
	*n_out = n_add;
out:
	kvfree(mask);
	return ret;
}
