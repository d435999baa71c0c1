// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What the device tells about itself: GET_INFO, GET_PARAM and NODES, and
 * the same views for the host's sysfs.  The node table and a mesh's
 * geometry are fixed at bring-up; mesh flags, node flags and the nodes'
 * live registers are read under the mesh's lock.
 */
#include <linux/uaccess.h>

#include "kh_priv.h"

static u64 kh_caps(struct kh_device *kd)
{
	/* what works, not what has a function pointer */
	return (kh_simulated(kd) ? KOHAKU_CAP_SIMULATED : 0) |
	       (kh_has_dma(kd) ? KOHAKU_CAP_DMA : 0) | KOHAKU_CAP_FENCES |
	       KOHAKU_CAP_JOB_DATA | KOHAKU_CAP_JOB_BOS | KOHAKU_CAP_LEASE |
	       KOHAKU_CAP_BO_FIXED | KOHAKU_CAP_PEER_SIGNALS |
	       (READ_ONCE(kd->irq_jobs) ? KOHAKU_CAP_IRQ : 0) |
	       (kd->fw_units ? KOHAKU_CAP_FIRMWARE : 0) |
	       (kd->dxa_units ? KOHAKU_CAP_DXA : 0) |
	       (kh_ctrl32(kd) ? KOHAKU_CAP_CTRL32 : 0);
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

/* how fresh a node report must be */
enum kh_nodes_view {
	KH_VIEW_CACHED,		/* as last read, maybe never */
	KH_VIEW_FIRST_USE,	/* read now if never read yet */
	KH_VIEW_LIVE,		/* read now */
};

/*
 * Nodes [first, first+count) of mesh m, into out[].  Bring-up does not read
 * the nodes' status registers; NODES reads them at first use, and if the
 * mailbox cannot be used then, that first look shows zeros rather than
 * failing.
 */
static int kh_nodes_report(struct kh_mesh *m, unsigned int first,
			   unsigned int count, enum kh_nodes_view view,
			   struct drm_kohaku_node *out)
{
	unsigned int i;
	bool unread = false;
	int ret = 0;

	mutex_lock(&m->lock);
	for (i = 0; i < count; i++)
		unread |= !m->nodes[first + i].regs_read;
	if (view == KH_VIEW_LIVE || (view == KH_VIEW_FIRST_USE && unread)) {
		ret = kh_mesh_refresh_nodes(m, first, count);
		if (view != KH_VIEW_LIVE)
			ret = 0;
	}
	for (i = 0; !ret && i < count; i++)
		kh_node_to_uapi(&m->nodes[first + i], &out[i]);
	mutex_unlock(&m->lock);
	return ret;
}

/* the mesh and index in it of node i of the device's table */
static struct kh_mesh *kh_node_mesh(struct kh_device *kd, unsigned int *i)
{
	unsigned int m;

	for (m = 0; m < kd->n_meshes; m++) {
		if (*i < kd->mesh[m].n_nodes)
			return &kd->mesh[m];
		*i -= kd->mesh[m].n_nodes;
	}
	return NULL;
}

int kh_device_node(struct kh_device *kd, unsigned int i, bool live,
		   struct drm_kohaku_node *out)
{
	struct kh_mesh *m = kh_node_mesh(kd, &i);

	return m ? kh_nodes_report(m, i, 1, live ? KH_VIEW_LIVE : KH_VIEW_CACHED,
				   out) : -ENOENT;
}

static void kh_mesh_info(struct kh_mesh *m, struct drm_kohaku_mesh_info *mi)
{
	mutex_lock(&m->lock);
	mi->flags = m->flags;
	mutex_unlock(&m->lock);
	if (!(mi->flags & KOHAKU_MESH_PRESENT))
		return;
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
	kh_mem_usage(&m->mem, &mi->mem_size, &mi->mem_free);
}

int kh_device_info(struct kh_device *kd, struct drm_kohaku_get_info *a)
{
	unsigned int i;

	memset(a, 0, sizeof(*a));
	a->abi_version = KOHAKU_ABI_VERSION;
	a->caps = kh_caps(kd);
	a->n_meshes = kd->n_meshes;
	a->n_nodes = kh_device_node_count(kd);
	snprintf(a->name, sizeof(a->name), "%s", kd->name);
	for (i = 0; i < kd->n_meshes; i++)
		kh_mesh_info(&kd->mesh[i], &a->mesh[i]);
	return 0;
}

int kh_ioctl_get_info(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_get_info *a = arg;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	return kh_device_info(kf->kd, a);
}

/* a per-mesh parameter of a present mesh */
static int kh_mesh_param(struct kh_mesh *m, u32 param, u64 *v)
{
	u64 size, free_bytes;

	switch (param) {
	case KOHAKU_PARAM_MESH_N_NODES:
		*v = m->n_nodes;
		return 0;
	case KOHAKU_PARAM_MESH_CAPS_REG:
		*v = m->caps;
		return 0;
	case KOHAKU_PARAM_MESH_CU_VERSION:
		*v = m->cu_version;
		return 0;
	case KOHAKU_PARAM_MESH_MIN_INST_DEPTH:
		*v = m->min_inst_depth;
		return 0;
	case KOHAKU_PARAM_MESH_MEM_SIZE:
	case KOHAKU_PARAM_MESH_MEM_FREE:
		kh_mem_usage(&m->mem, &size, &free_bytes);
		*v = param == KOHAKU_PARAM_MESH_MEM_SIZE ? size : free_bytes;
		return 0;
	}
	mutex_lock(&m->lock);
	switch (param) {
	case KOHAKU_PARAM_MESH_FLAGS:
		*v = m->flags;
		break;
	case KOHAKU_PARAM_MESH_JOBS_PENDING:
		*v = m->jobs_pending;
		break;
	case KOHAKU_PARAM_MESH_JOBS_DONE:
		*v = m->jobs_done;
		break;
	case KOHAKU_PARAM_MESH_RESETS:
		*v = m->resets;
		break;
	case KOHAKU_PARAM_MESH_CLK_PROFILE ... KOHAKU_PARAM_MESH_CLK_MAG_MHZ:
	case KOHAKU_PARAM_MESH_CLK_LOW_NS ... KOHAKU_PARAM_MESH_CLK_SHIP_NS: {
		struct drm_kohaku_clocks c = { 0 };

		kh_clk_report(m, &c);
		if (param >= KOHAKU_PARAM_MESH_CLK_LOW_NS)
			*v = c.ns_at[param - KOHAKU_PARAM_MESH_CLK_LOW_NS];
		else if (param >= KOHAKU_PARAM_MESH_CLK_NOC_MHZ)
			*v = c.mhz[param - KOHAKU_PARAM_MESH_CLK_NOC_MHZ];
		else
			*v = param == KOHAKU_PARAM_MESH_CLK_PROFILE ? c.profile :
			     param == KOHAKU_PARAM_MESH_CLK_POLICY ? c.policy :
			     c.retunes;
		break;
	}
	case KOHAKU_PARAM_MESH_RECOVERIES:
		*v = m->recoveries;
		break;
	case KOHAKU_PARAM_MESH_RESETS_ASKED:
		*v = m->resets_asked;
		break;
	default:
		mutex_unlock(&m->lock);
		return -EINVAL;
	}
	mutex_unlock(&m->lock);
	return 0;
}

int kh_ioctl_get_param(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_get_param *a = arg;
	struct kh_device *kd = kf->kd;
	u64 v;

	if (a->param >= KOHAKU_PARAM_MESH_FIRST && a->param <= KOHAKU_PARAM_MESH_LAST) {
		if (!kh_mesh_present(kd, a->index)) {
			kh_dbg(kd, "GET_PARAM %u: no mesh %u\n", a->param, a->index);
			return -EINVAL;
		}
		if (kh_mesh_param(&kd->mesh[a->index], a->param, &v)) {
			kh_dbg(kd, "GET_PARAM: no parameter %u\n", a->param);
			return -EINVAL;
		}
		a->value = v;
		return 0;
	}
	if (a->index) {
		kh_dbg(kd, "GET_PARAM %u takes index 0, not %u\n", a->param, a->index);
		return -EINVAL;
	}
	switch (a->param) {
	case KOHAKU_PARAM_ABI_VERSION:
		v = KOHAKU_ABI_VERSION;
		break;
	case KOHAKU_PARAM_CAPS:
		v = kh_caps(kd);
		break;
	case KOHAKU_PARAM_N_MESHES:
		v = kd->n_meshes;
		break;
	case KOHAKU_PARAM_N_NODES:
		v = kh_device_node_count(kd);
		break;
	case KOHAKU_PARAM_DEVICE_TIME_NS:
		v = kh_now(kd);
		break;
	case KOHAKU_PARAM_MAX_JOBS:
		v = KOHAKU_MAX_JOBS;
		break;
	case KOHAKU_PARAM_MAX_PROGRAMS:
		v = KOHAKU_MAX_PROGRAMS;
		break;
	case KOHAKU_PARAM_MAX_JOB_INSTS:
		v = KOHAKU_MAX_JOB_INSTS;
		break;
	case KOHAKU_PARAM_MAX_IN_FENCES:
		v = KOHAKU_MAX_IN_FENCES;
		break;
	case KOHAKU_PARAM_JOB_TIMEOUT_MS:
		v = KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
		break;
	case KOHAKU_PARAM_FW_UNITS:
		v = kd->fw_units;
		break;
	case KOHAKU_PARAM_FW_RUNNING:
		v = kh_fw_running(kd);
		break;
	case KOHAKU_PARAM_FW_VERSION:
	case KOHAKU_PARAM_FW_API:
		mutex_lock(&kd->fw_lock);
		v = a->param == KOHAKU_PARAM_FW_VERSION ? kd->fw_version : kd->fw_api;
		mutex_unlock(&kd->fw_lock);
		break;
	case KOHAKU_PARAM_FW_DRIVER_API:
		v = KH_POOL_API(KH_POOL_API_MAJOR, KH_POOL_API_MINOR);
		break;
	case KOHAKU_PARAM_MAX_BOS:
		v = KOHAKU_MAX_BOS;
		break;
	case KOHAKU_PARAM_DMA_CHANNELS:
	case KOHAKU_PARAM_DMA_BYTES_TO_CARD:
	case KOHAKU_PARAM_DMA_BYTES_FROM_CARD:
	case KOHAKU_PARAM_DMA_ERRORS:
	case KOHAKU_PARAM_IRQ_VECTORS:
	case KOHAKU_PARAM_IRQS:
		v = kh_xdma_param(kd, a->param);
		break;
	default:
		kh_dbg(kd, "GET_PARAM: no parameter %u\n", a->param);
		return -EINVAL;
	}
	a->value = v;
	return 0;
}

int kh_ioctl_nodes(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_nodes *a = arg;
	struct kh_device *kd = kf->kd;
	u8 __user *dst = u64_to_user_ptr(a->nodes_ptr);
	unsigned int i, k, at = 0, total = kh_device_node_count(kd);
	size_t usize = a->node_size, osize = sizeof(struct drm_kohaku_node);
	struct drm_kohaku_node *out;
	u8 zero[64] = { 0 };
	int ret = 0;

	if ((a->flags & ~KOHAKU_NODES_LIVE) ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (usize < KOHAKU_NODE_SIZE_MIN || usize > osize + sizeof(zero)) {
		kh_dbg(kd, "NODES: node_size %zu; this driver takes %u..%zu\n",
		       usize, KOHAKU_NODE_SIZE_MIN, osize + sizeof(zero));
		return -EINVAL;
	}
	/* no arithmetic on a NULL pointer (undefined in C, in-process) */
	if (!a->nodes_ptr && a->capacity) {
		kh_dbg(kd, "NODES: nodes_ptr is 0 with capacity %u\n", a->capacity);
		return -EFAULT;
	}
	out = kvcalloc(KH_MAX_NODES_PER_MESH, osize, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	/* mesh by mesh: each mesh's nodes are refreshed in one pipelined batch */
	for (i = 0; !ret && i < kd->n_meshes && at < a->capacity; i++) {
		struct kh_mesh *m = &kd->mesh[i];
		unsigned int n = min_t(unsigned int, m->n_nodes, a->capacity - at);

		ret = kh_nodes_report(m, 0, n, (a->flags & KOHAKU_NODES_LIVE) ?
				      KH_VIEW_LIVE : KH_VIEW_FIRST_USE, out);
		/* the caller's stride: truncated, or zero past our struct */
		for (k = 0; !ret && k < n; k++, at++) {
			u8 __user *d = dst + (size_t)at * usize;

			if (copy_to_user(d, &out[k], min_t(size_t, usize, osize)) ||
			    (usize > osize &&
			     copy_to_user(d + osize, zero, usize - osize)))
				ret = -EFAULT;
		}
	}
	kvfree(out);
	if (ret)
		return ret;
	a->count = total;
	return 0;
}
