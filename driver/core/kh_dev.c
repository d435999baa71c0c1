// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Device lifetime and the read-only views: probe checks every mesh window's
 * CAPS (twice), enumerates the present meshes and sets up their device
 * memory; remove undoes it.
 */
#include "kh_priv.h"

static void kh_mesh_fini(struct kh_mesh *m)
{
	kh_mesh_abort_queue(m, "device removed");
	if (m->job) {
		struct kh_job *job = m->job;

		m->job = NULL;
		job->on_mesh = false;
		kh_job_put(job);
	}
	kh_mem_fini(&m->mem);
	kh_free(m->nodes);
	m->nodes = NULL;
	m->n_nodes = 0;
}

static void kh_device_free(struct kh_device *kd)
{
	unsigned int i;

	for (i = 0; i < KH_MAX_MESHES; i++)
		kh_mesh_fini(&kd->mesh[i]);
	kh_deferred_release_all(kd);
	kh_free(kd->bounce);
	kh_mutex_destroy(&kd->lock);
	kh_free(kd);
}

static int kh_mesh_bringup(struct kh_device *kd, struct kh_mesh *m)
{
	u64 size = kd->hw.mesh_mem_size[m->id] ? kd->hw.mesh_mem_size[m->id] :
		   KH_MESH_DRAM_SIZE;
	int ret;

	ret = kh_mesh_enumerate(m);
	if (ret)
		return ret;
	return kh_mem_init(&m->mem, size);
}

int kh_device_probe(const struct kh_hw *hw, struct kh_os_dev *osdev,
		    const char *name, struct kh_device **out)
{
	struct kh_device *kd;
	unsigned int i;
	int ret;

	if (!hw || !hw->ops || !hw->ops->read64 || !hw->ops->write64 ||
	    !hw->ops->now_ns)
		return -EINVAL;
	kd = kh_zalloc(sizeof(*kd));
	if (!kd)
		return -ENOMEM;
	kd->hw = *hw;
	kd->osdev = osdev;
	snprintf(kd->name, sizeof(kd->name), "%s", name ? name : "kohaku");
	kh_mutex_init(&kd->lock);
	INIT_LIST_HEAD(&kd->files);
	INIT_LIST_HEAD(&kd->deferred);
	kd->next_job_id = 1;
	for (i = 0; i < KH_MAX_MESHES; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		m->kd = kd;
		m->id = i;
		m->base = KH_MESH_BASE(i);
		INIT_LIST_HEAD(&m->queue);
		INIT_LIST_HEAD(&m->mem.free);
		memset(m->node_at, 0xff, sizeof(m->node_at));
	}
	kd->bounce = kh_zalloc(KH_BOUNCE_BYTES);
	if (!kd->bounce) {
		ret = -ENOMEM;
		goto fail;
	}

	for (i = 0; i < KH_MAX_MESHES; i++)
		if (!kh_mesh_probe(&kd->mesh[i]))
			kd->n_meshes = i + 1;
	if (!(kd->mesh[0].flags & KOHAKU_MESH_PRESENT)) {
		kh_err(kd, "no KohakuAccel mesh at BAR0+0x%x: CAPS reads 0x%016llx, expected flit width %u (is the bitstream loaded?)\n",
		       KH_MESH_BASE(0), kd->hw.ops->read64(kd->hw.ctx,
							   KH_MESH_BASE(0) + KH_ORC_CAPS),
		       KH_FLIT_WIDTH);
		ret = -ENODEV;
		goto fail;
	}
	for (i = 0; i < kd->n_meshes; i++) {
		if (!(kd->mesh[i].flags & KOHAKU_MESH_PRESENT))
			continue;
		ret = kh_mesh_bringup(kd, &kd->mesh[i]);
		if (ret) {
			kh_err(kd, "mesh %u: bring-up failed (%d)\n", i, ret);
			goto fail;
		}
	}
	kh_info(kd, "%s: %u mesh(es), %u nodes, ABI %u.%u%s\n", kd->name,
		kd->n_meshes, kh_device_node_count(kd), KOHAKU_ABI_MAJOR,
		KOHAKU_ABI_MINOR, kh_simulated(kd) ? ", simulated card" : "");
	*out = kd;
	return 0;
fail:
	kh_device_free(kd);
	return ret;
}

void kh_device_unplug(struct kh_device *kd)
{
	kh_mutex_lock(&kd->lock);
	kd->unplugged = true;
	kh_mutex_unlock(&kd->lock);
}

void kh_device_remove(struct kh_device *kd)
{
	if (!kd)
		return;
	kh_device_free(kd);
}

bool kh_device_poll(struct kh_device *kd)
{
	bool busy = false;
	unsigned int i;

	kh_mutex_lock(&kd->lock);
	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		kh_mesh_step(m);
		busy |= m->job || !list_empty(&m->queue);
	}
	kh_mutex_unlock(&kd->lock);
	return busy;
}

const char *kh_device_name(const struct kh_device *kd)
{
	return kd->name;
}

unsigned int kh_device_mesh_count(const struct kh_device *kd)
{
	return kd->n_meshes;
}

unsigned int kh_device_node_count(const struct kh_device *kd)
{
	unsigned int i, n = 0;

	for (i = 0; i < kd->n_meshes; i++)
		n += kd->mesh[i].n_nodes;
	return n;
}

static struct kh_node *kh_node_by_index(struct kh_device *kd, unsigned int i)
{
	unsigned int m;

	for (m = 0; m < kd->n_meshes; m++) {
		if (i < kd->mesh[m].n_nodes)
			return &kd->mesh[m].nodes[i];
		i -= kd->mesh[m].n_nodes;
	}
	return NULL;
}

int kh_device_node(struct kh_device *kd, unsigned int i, bool live,
		   struct drm_kohaku_node *out)
{
	struct kh_node *n;
	int ret = 0;

	kh_mutex_lock(&kd->lock);
	n = kh_node_by_index(kd, i);
	if (!n)
		ret = -ENOENT;
	else if (live)
		ret = kh_node_refresh(n);
	if (n && !ret)
		kh_node_to_uapi(n, out);
	kh_mutex_unlock(&kd->lock);
	return ret;
}

/* Called with kd->lock held. */
static void kh_fill_info(struct kh_device *kd, struct drm_kohaku_get_info *a)
{
	unsigned int i;

	a->abi_version = KOHAKU_ABI_VERSION;
	a->caps = (kh_simulated(kd) ? KOHAKU_CAP_SIMULATED : 0) |
		  (kh_has_dma(kd) ? KOHAKU_CAP_DMA : 0);
	a->n_meshes = kd->n_meshes;
	a->n_nodes = kh_device_node_count(kd);
	snprintf(a->name, sizeof(a->name), "%s", kd->name);
	memset(a->mesh, 0, sizeof(a->mesh));
	for (i = 0; i < kd->n_meshes; i++) {
		struct drm_kohaku_mesh_info *mi = &a->mesh[i];
		struct kh_mesh *m = &kd->mesh[i];

		mi->flags = m->flags;
		if (!(m->flags & KOHAKU_MESH_PRESENT))
			continue;
		mi->n_nodes = m->n_nodes;
		mi->grid_lo = m->grid_lo;
		mi->grid_hi = m->grid_hi;
		mi->pos_width = m->pos_width;
		mi->agent_x = m->agent_x;
		mi->agent_y = m->agent_y;
		mi->cu_version = m->cu_version;
		mi->flit_width = KH_CAPS_FLIT_WIDTH(m->caps);
		mi->min_inst_depth = m->min_inst_depth;
		mi->caps_reg = m->caps;
		mi->mem_size = m->mem.size;
		mi->mem_free = m->mem.free_bytes;
	}
}

int kh_device_info(struct kh_device *kd, struct drm_kohaku_get_info *out)
{
	memset(out, 0, sizeof(*out));
	kh_mutex_lock(&kd->lock);
	kh_fill_info(kd, out);
	kh_mutex_unlock(&kd->lock);
	return 0;
}

/* GET_INFO's handler: kd->lock is held by kh_ioctl. */
int kh_ioctl_get_info(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_get_info *a = arg;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	kh_fill_info(kf->kd, a);
	return 0;
}

int kh_ioctl_nodes(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_nodes *a = arg;
	struct kh_device *kd = kf->kd;
	struct drm_kohaku_node out;
	struct drm_kohaku_node __user *dst = kh_u64_to_user_ptr(a->nodes_ptr);
	unsigned int i, total = kh_device_node_count(kd);
	int ret;

	if ((a->flags & ~KOHAKU_NODES_LIVE) ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->node_size != sizeof(struct drm_kohaku_node)) {
		kh_dbg(kd, "NODES: node_size %u, this driver's is %zu\n",
		       a->node_size, sizeof(struct drm_kohaku_node));
		return -EINVAL;
	}
	for (i = 0; i < total && i < a->capacity; i++) {
		struct kh_node *n = kh_node_by_index(kd, i);

		if (a->flags & KOHAKU_NODES_LIVE) {
			ret = kh_node_refresh(n);
			if (ret)
				return ret;
		}
		kh_node_to_uapi(n, &out);
		ret = kh_copy_to_user(&dst[i], &out, sizeof(out));
		if (ret)
			return ret;
	}
	a->count = total;
	return 0;
}
