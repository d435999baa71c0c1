// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Device lifetime: probe checks every mesh window's CAPS (twice),
 * enumerates the present meshes, sets up their device memory and starts
 * the progress engine; unplug and remove undo it.
 */
#include "kh_priv.h"

static void kh_mesh_init(struct kh_device *kd, struct kh_mesh *m,
			 unsigned int i)
{
	m->kd = kd;
	m->id = i;
	m->base = KH_MESH_BASE(i);
	mutex_init(&m->lock);
	INIT_LIST_HEAD(&m->queue);
	memset(m->node_at, 0xff, sizeof(m->node_at));
}

/* the mesh's jobs end: queued ones and the running one, off every list */
static void kh_mesh_stop(struct kh_mesh *m)
{
	struct kh_job *job;

	mutex_lock(&m->lock);
	kh_mesh_abort_queue(m, KOHAKU_JOB_WHY_REMOVED, "device removed");
	job = m->job;
	if (job) {
		m->job = NULL;
		if (!kh_job_is_final(job))
			kh_job_end_aborted(job, KOHAKU_JOB_WHY_REMOVED,
					   "device removed");
		kh_job_unlist(m->kd, job);
		kh_job_put(job);
	}
	mutex_unlock(&m->lock);
}

static void kh_mesh_fini(struct kh_mesh *m)
{
	if (m->mem_ready)
		kh_mem_fini(&m->mem);
	kvfree(m->stage);
	kfree(m->stage_known);
	kh_dxa_mesh_fini(m);
	kvfree(m->nodes);
	m->nodes = NULL;
	m->n_nodes = 0;
	mutex_destroy(&m->lock);
}

static void kh_device_free(struct kh_device *kd)
{
	unsigned int i;

	/*
	 * Every mesh's jobs end before any mesh's memory goes: memory freed
	 * under a job waits for every job then unfinished, on any mesh, and
	 * goes back to its own mesh's allocator when the last one ends.
	 */
	for (i = 0; i < KH_MAX_MESHES; i++)
		kh_mesh_stop(&kd->mesh[i]);
	kh_deferred_release_all(kd);
	for (i = 0; i < KH_MAX_MESHES; i++)
		kh_mesh_fini(&kd->mesh[i]);
	kh_xdma_fini(kd);
	kh_fw_fini(kd);
	mutex_destroy(&kd->maint_lock);
	mutex_destroy(&kd->jobs_lock);
	kh_engine_destroy(kd);
	kvfree(kd);
}

static int kh_mesh_bringup(struct kh_device *kd, struct kh_mesh *m)
{
	u64 size = kd->hw.mesh_mem_size[m->id] ? kd->hw.mesh_mem_size[m->id] :
		   KH_MESH_DRAM_SIZE;
	unsigned int i;
	int ret;

	m->stage = kvcalloc(KH_ORC_STAGE_FLITS, sizeof(*m->stage), GFP_KERNEL);
	m->stage_known = kzalloc(KH_ORC_STAGE_FLITS, GFP_KERNEL);
	if (!m->stage || !m->stage_known)
		return -ENOMEM;
	/*
	 * PROG_DST, _BASE and _LEN hold what the last host wrote (a driver
	 * bound before this one): nothing is known of them until written.
	 */
	for (i = 0; i < ARRAY_SIZE(m->prog_reg); i++)
		m->prog_reg[i] = KH_REG_UNKNOWN;
	mutex_lock(&m->lock);
	ret = kh_mesh_enumerate(m);
	if (!ret)
		kh_mesh_canary_write(m);
	kh_clk_init(m);
	/*
	 * Bring-up follows a configuration, which restores the built clocks:
	 * the idle profile at once (kohakutpu.md 12.4), before any job.
	 */
	if (!ret && kh_clk_want(m))
		kh_mesh_reset_wait_out(m);
	mutex_unlock(&m->lock);
	if (!ret)
		ret = kh_dxa_mesh_init(m);
	if (ret)
		return ret;
	m->fence_context = dma_fence_context_alloc(1);
	ret = kh_mem_init(&m->mem, size);
	m->mem_ready = !ret;
	return ret;
}

int kh_device_probe(const struct kh_hw *hw, struct device *dev,
		    const char *name, struct kh_device **out)
{
	struct kh_device *kd;
	unsigned int i;
	int ret;

	if (!hw || !hw->ops || !hw->ops->now_ns)
		return -EINVAL;
	/* the control space: 64-bit accesses, or 32-bit ones on BAR0 */
	if ((hw->flags & KH_HW_CTRL32) ?
	    !hw->ops->bar_read32 || !hw->ops->bar_write32 || !hw->bar_size[0] :
	    !hw->ops->read64 || !hw->ops->write64)
		return -EINVAL;
	kd = kvzalloc(sizeof(*kd), GFP_KERNEL);
	if (!kd)
		return -ENOMEM;
	kd->hw = *hw;
	kd->dev = dev;
	snprintf(kd->name, sizeof(kd->name), "%s", name ? name : "kohaku");
	mutex_init(&kd->jobs_lock);
	mutex_init(&kd->fw_lock);
	mutex_init(&kd->maint_lock);
	INIT_LIST_HEAD(&kd->unfinished);
	INIT_LIST_HEAD(&kd->deferred);
	kd->next_job_id = 1;
	kh_engine_prepare(kd);
	for (i = 0; i < KH_MAX_MESHES; i++)
		kh_mesh_init(kd, &kd->mesh[i], i);

	ret = kh_xdma_probe(kd);
	if (ret)
		goto fail;
	for (i = 0; i < KH_MAX_MESHES; i++)
		if (!kh_mesh_probe(&kd->mesh[i]))
			kd->n_meshes = i + 1;
	if (!(kd->mesh[0].flags & KOHAKU_MESH_PRESENT)) {
		kh_err(kd, "no KohakuAccel mesh at BAR0+0x%x: CAPS reads 0x%016llx, expected flit width %u (is the bitstream loaded?)\n",
		       KH_MESH_BASE(0), kh_rd(&kd->mesh[0], KH_ORC_CAPS),
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
	kh_fw_init(kd);
	ret = kh_engine_init(kd);
	if (ret) {
		kh_err(kd, "cannot start the progress engine (%d)\n", ret);
		goto fail;
	}
	ret = kh_maint_init(kd);
	if (ret) {
		kh_err(kd, "cannot start the maintenance worker (%d)\n", ret);
		kh_engine_fini(kd);
		goto fail;
	}
	kh_info(kd, "%s: %u mesh(es), %u nodes, ABI %u.%u%s%s\n", kd->name,
		kd->n_meshes, kh_device_node_count(kd), KOHAKU_ABI_MAJOR,
		KOHAKU_ABI_MINOR, kh_simulated(kd) ? ", simulated card" : "",
		kh_ctrl32(kd) ? ", 32-bit control path" : "");
	*out = kd;
	return 0;
fail:
	kh_device_free(kd);
	return ret;
}

void kh_device_unplug(struct kh_device *kd)
{
	WRITE_ONCE(kd->unplugged, true);
	wake_up_all(&kd->waitq);
	/* a transfer waiting for its interrupt stops now, not at its tick */
	wake_up_all(&kd->xdma.wq);
	kh_engine_kick(kd);
}

void kh_device_remove(struct kh_device *kd)
{
	unsigned int i;

	if (!kd)
		return;
	WRITE_ONCE(kd->unplugged, true);
	/*
	 * Queued jobs first: aborting one takes its callback off any
	 * in-fence, so nothing kicks the engine once it is stopped.
	 */
	for (i = 0; i < kd->n_meshes; i++) {
		mutex_lock(&kd->mesh[i].lock);
		kh_mesh_abort_queue(&kd->mesh[i], KOHAKU_JOB_WHY_REMOVED,
				    "device removed");
		mutex_unlock(&kd->mesh[i].lock);
	}
	kh_maint_fini(kd);
	kh_engine_fini(kd);
	kh_device_free(kd);
}
