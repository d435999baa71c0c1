// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Firmware for the device's POOL units: FW_LOAD and the hosts' own loads
 * (kohaku.ko's request_firmware, the in-process backend's search path).
 *
 * One image runs on every POOL unit of a device.  A load checks the whole
 * image first (kh_fw_image.c); then, one load at a time (kd->fw_lock), it
 * holds each mesh with POOL units for itself (no job but its own starts;
 * a job already queued or running on a POOL unit refuses the load with
 * EBUSY, one on another unit is let finish), boots every unit
 * (kh_fw_boot.c) and lets the meshes go.  If a unit fails, every unit is
 * booted again with the image that ran before, kept for that; the units
 * are FAILED only when there was none or it fails too.
 */
#include <linux/uaccess.h>

#include "kh_fw_boot.h"

static bool kh_node_is_pool(const struct kh_node *n)
{
	return n->cu_type == KH_CU_GP;
}

/* At bring-up: which nodes run firmware. */
void kh_fw_init(struct kh_device *kd)
{
	unsigned int i, j;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		for (j = 0; j < m->n_nodes; j++) {
			if (!kh_node_is_pool(&m->nodes[j]))
				continue;
			m->nodes[j].fw_state = KOHAKU_FW_STATE_ABSENT;
			kd->fw_units++;
		}
	}
}

/* POOL units running firmware now */
unsigned int kh_fw_running(struct kh_device *kd)
{
	unsigned int i, j, r = 0;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i))
			continue;
		mutex_lock(&m->lock);
		for (j = 0; j < m->n_nodes; j++)
			r += m->nodes[j].fw_state == KOHAKU_FW_STATE_RUNNING;
		mutex_unlock(&m->lock);
	}
	return r;
}

void kh_fw_fini(struct kh_device *kd)
{
	kvfree(kd->fw_image);
	kd->fw_image = NULL;
	mutex_destroy(&kd->fw_lock);
}

static bool kh_job_on_pool(const struct kh_job *job)
{
	u32 i;

	for (i = 0; i < job->n_progs; i++)
		if (kh_node_is_pool(job->progs[i].node))
			return true;
	return false;
}

static bool kh_mesh_has_pool(const struct kh_mesh *m)
{
	unsigned int j;

	for (j = 0; j < m->n_nodes; j++)
		if (kh_node_is_pool(&m->nodes[j]))
			return true;
	return false;
}

/* the first job queued on @m before job id @before that is not on a POOL unit */
static struct kh_job *kh_fw_queued_before(struct kh_mesh *m, u64 before)
{
	struct kh_job *q;

	lockdep_assert_held(&m->lock);
	list_for_each_entry(q, &m->queue, mesh_link)
		if (!q->internal && q->id < before && !kh_job_on_pool(q) &&
		    !q->in_cb_armed)
			return q;
	return NULL;
}

/*
 * The mesh for the loader alone: refused while a job is queued or runs on
 * a POOL unit; the job running on other units, and the jobs queued before
 * the load began (@before: the first job id after it), are let finish
 * first, so a loader in a loop cannot starve them; jobs queued after wait
 * behind the load (m->fw_gate).  Hung units are reset first: a load boots
 * units that run, and its answer is the same whichever path it takes.
 */
static int kh_fw_hold_mesh(struct kh_mesh *m, u64 before)
{
	struct kh_device *kd = m->kd;
	struct kh_job *job, *q;
	bool running;
	u64 deadline, id;
	int ret;

	for (;;) {
		mutex_lock(&m->lock);
		m->fw_gate = before;
		/*
		 * A mesh in a reset loses what is written to it until its
		 * wizard relocks (kohakutpu.md 12.4): wait for it to come back
		 * (kh_mesh_reset_wait bounds that, and wedges a mesh that
		 * does not), as queued jobs do.
		 */
		if (kh_mesh_reset_check(m) && kh_mesh_reset_wait(m)) {
			mutex_unlock(&m->lock);
			kh_relax(kd);
			continue;
		}
		if (m->flags & KOHAKU_MESH_WEDGED) {
			m->fw_gate = 0;
			mutex_unlock(&m->lock);
			kh_err(kd, "mesh %u: firmware load refused: the mesh is wedged\n",
			       m->id);
			return -EIO;
		}
		job = m->job;
		if (job && kh_job_on_pool(job))
			goto busy;
		list_for_each_entry(q, &m->queue, mesh_link)
			if (kh_job_on_pool(q)) {
				job = q;
				goto busy;
			}
		/* first come, first served: the jobs queued before the load */
		if (!job)
			job = kh_fw_queued_before(m, before);
		if (job) {
			refcount_inc(&job->ref);
			deadline = (job->deadline ? job->deadline :
				    kh_now(kd) + job->timeout_ns) + KH_RECOVER_NS;
			mutex_unlock(&m->lock);
			kh_engine_kick(kd);
			ret = kh_engine_wait_job(kd, job, deadline);
			kh_job_put(job);
			if (ret) {
				mutex_lock(&m->lock);
				m->fw_gate = 0;
				mutex_unlock(&m->lock);
				kh_engine_kick(kd);
				return ret == -ETIMEDOUT ? -EBUSY : ret;
			}
			continue;
		}
		m->fw_hold = true;
		m->fw_gate = 0;
		if (kh_mesh_hung_nodes(m) && kh_clk_reachable(kd)) {
			kh_info(kd, "mesh %u: hung units: resetting the mesh before the firmware load\n",
				m->id);
			kh_mesh_reset_now(m, "a firmware load on a mesh with hung units",
					  KOHAKU_JOB_WHY_MESH_RESET,
					  "its mesh was reset for a firmware load");
			kh_mesh_reset_wait_out(m);
		}
		/* the units boot at the run clocks, once: raise first */
		if (kh_clk_raise_to(m, KOHAKU_CLK_PROFILE_DEFAULT))
			kh_mesh_reset_wait_out(m);
		mutex_unlock(&m->lock);
		return 0;
	}
busy:
	/* read under the lock: once it is dropped the job may end and go */
	id = job->id;
	running = job == m->job;
	m->fw_gate = 0;
	mutex_unlock(&m->lock);
	kh_engine_kick(kd);
	kh_info(kd, "mesh %u: firmware load refused: job %llu is %s on a POOL unit\n",
		m->id, id, running ? "running" : "queued");
	return -EBUSY;
}

/*
 * A load is activity, as a job on the device is: while it runs the engine
 * does not run a simulated card's time forward to a waiter's deadline (the
 * load's own polls move it), or a job queued behind the load would see its
 * time, and its waiter's, run out in no time at all.  Off again, the
 * engine looks at the queues.
 */
static void kh_fw_loading(struct kh_device *kd, bool on)
{
	WRITE_ONCE(kd->fw_loading, on);
	if (!on)
		kh_engine_kick(kd);
}

static void kh_fw_let_go(struct kh_device *kd)
{
	unsigned int i;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		mutex_lock(&m->lock);
		m->fw_hold = false;
		m->fw_gate = 0;
		mutex_unlock(&m->lock);
	}
	kh_engine_kick(kd);
}

static int kh_fw_hold_all(struct kh_device *kd)
{
	unsigned int i;
	u64 before;
	int ret;

	mutex_lock(&kd->jobs_lock);
	before = kd->next_job_id;
	mutex_unlock(&kd->jobs_lock);
	for (i = 0; i < kd->n_meshes; i++) {
		if (!kh_mesh_present(kd, i) || !kh_mesh_has_pool(&kd->mesh[i]))
			continue;
		ret = kh_fw_hold_mesh(&kd->mesh[i], before);
		if (ret) {
			kh_fw_let_go(kd);
			return ret;
		}
	}
	return 0;
}

/* largest zero-fill section: LOAD copies its zeros from device memory */
static u32 kh_fw_zero_bytes(const struct kh_fw_image *img)
{
	u32 z = 0;
	unsigned int i;

	for (i = 0; i < img->n; i++)
		if (img->sec[i].flags & KH_FW_S_ZERO)
			z = max_t(u32, z, img->sec[i].size);
	return z;
}

/*
 * The image (and zeros) into mesh memory for LOAD (b->by_dma).  When it
 * cannot be, the mailbox path loads instead.
 */
static void kh_fw_stage(struct kh_mesh *m, const struct kh_fw_image *img,
			u64 *start, u64 *len, struct kh_boot *b)
{
	struct kh_device *kd = m->kd;
	u32 zeros = kh_fw_zero_bytes(img);
	u64 img_len = ALIGN((u64)img->len, (u64)KH_HOST_GRANULE);
	u8 *zbuf = NULL;
	int ret;

	*len = ALIGN(img_len + zeros, (u64)KOHAKU_BO_ALIGN);
	if (kh_mem_alloc(&m->mem, *len, start)) {
		kh_warn(kd, "mesh %u: no device memory for the firmware image; loading through the mailbox\n",
			m->id);
		*len = 0;
		return;
	}
	ret = kh_dma_kernel(kd, KH_CARD_ADDR(m->id, *start), (void *)img->data,
			    img->len, true);
	if (!ret && zeros) {
		zbuf = kvzalloc(zeros, GFP_KERNEL);
		ret = zbuf ? kh_dma_kernel(kd, KH_CARD_ADDR(m->id, *start + img_len),
					   zbuf, zeros, true) : -ENOMEM;
		kvfree(zbuf);
	}
	if (ret) {
		kh_warn(kd, "mesh %u: copying the firmware image to device memory failed (%d); loading through the mailbox\n",
			m->id, ret);
		kh_mem_release(&m->mem, *start, *len);
		*len = 0;
		return;
	}
	b->by_dma = true;
	b->src = KH_MADDR(m->id, *start);
	b->zeros = b->src + img_len;
}

/* the outcome of one pass over the units */
struct kh_fw_pass {
	u32 reason;
	u32 loaded_by;		/* KOHAKU_FW_BY_* of the last unit */
	u64 trap;
	int err;
	struct kh_node *failed;
	u64 boot_ns;
	u32 fw_version, fw_api;
	u32 n_units;
};

static void kh_fw_note_unit(struct kh_node *n, const struct kh_boot *b, int ret)
{
	struct kh_mesh *m = n->mesh;

	mutex_lock(&m->lock);
	n->fw_trap = b->trap;
	if (ret) {
		n->fw_state = KOHAKU_FW_STATE_FAILED;
		n->fw_version = 0;
		n->fw_api = 0;
	} else {
		n->fw_state = KOHAKU_FW_STATE_RUNNING;
		n->fw_version = b->fw_version;
		n->fw_api = b->fw_api;
		n->fw_boot_ns = b->boot_ns;
	}
	mutex_unlock(&m->lock);
}

/* Boot the POOL units of @m with @img; stop at the first that fails. */
static void kh_fw_boot_mesh(struct kh_mesh *m, const struct kh_fw_image *img,
			    u32 flags, u64 timeout_ns, struct kh_fw_pass *p)
{
	struct kh_device *kd = m->kd;
	struct kh_boot b = { .img = img, .timeout_ns = timeout_ns };
	u64 start = 0, len = 0;
	unsigned int j;

	if (!(flags & KOHAKU_FW_LOAD_MAILBOX) && kh_has_dma(kd))
		kh_fw_stage(m, img, &start, &len, &b);
	for (j = 0; j < m->n_nodes && !p->err; j++) {
		struct kh_node *n = &m->nodes[j];

		if (!kh_node_is_pool(n))
			continue;
		b.node = n;
		b.reason = 0;
		b.trap = 0;
		p->err = kh_fw_boot_unit(&b);
		kh_fw_note_unit(n, &b, p->err);
		if (p->err) {
			kh_fw_hold_unit(n);
			p->reason = b.reason ? b.reason : KOHAKU_FW_ERR_LOAD;
			p->trap = b.trap;
			p->failed = n;
			break;
		}
		p->n_units++;
		p->loaded_by = b.by_dma ? KOHAKU_FW_BY_LOAD : KOHAKU_FW_BY_MAILBOX;
		p->boot_ns = max_t(u64, p->boot_ns, b.boot_ns);
		p->fw_version = b.fw_version;
		p->fw_api = b.fw_api;
	}
	if (len)
		kh_mem_release(&m->mem, start, len);
	/* what a reset stopped runs again: nothing left to boot here */
	mutex_lock(&m->lock);
	WRITE_ONCE(m->fw_reboot, false);
	if (!p->err)
		m->fw_quarantine = false;
	mutex_unlock(&m->lock);
}

/* The image the driver keeps (the last one that booted), parsed; or NULL. */
static struct kh_fw_image *kh_fw_kept(struct kh_device *kd)
{
	struct kh_fw_image *img;

	lockdep_assert_held(&kd->fw_lock);
	if (!kd->fw_image)
		return NULL;
	img = kzalloc(sizeof(*img), GFP_KERNEL);
	if (img && kh_fw_parse(kd->fw_image, kd->fw_len, img)) {
		kfree(img);
		img = NULL;
	}
	return img;
}

/* Boot every POOL unit with @img; stop at the first that fails. */
static int kh_fw_boot_all(struct kh_device *kd, const struct kh_fw_image *img,
			  u32 flags, u64 timeout_ns, struct kh_fw_pass *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < kd->n_meshes && !p->err; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i) || !kh_mesh_has_pool(m))
			continue;
		kh_fw_boot_mesh(m, img, flags, timeout_ns, p);
	}
	return p->err;
}

/*
 * After a reset of @m (kh_maint.c, the mesh held): its POOL units boot the
 * image the driver keeps.  Returns how many run it.  A unit that fails is
 * left FAILED, and the log says so; the other meshes are not touched.
 */
unsigned int kh_fw_reboot_mesh(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;
	struct kh_fw_image *img;
	struct kh_fw_pass p = { 0 };
	unsigned int j;
	u32 resets;

	lockdep_assert_held(&kd->fw_lock);
	/*
	 * fw_reboot stays set while the boot runs (SUBMIT takes POOL jobs
	 * meanwhile, kh_fw_coming()); kh_fw_boot_mesh() clears it, and it is
	 * set again below if another reset cuts the boot short.
	 */
	mutex_lock(&m->lock);
	resets = m->resets;
	mutex_unlock(&m->lock);
	img = kh_mesh_has_pool(m) ? kh_fw_kept(kd) : NULL;
	if (!img) {
		mutex_lock(&m->lock);
		WRITE_ONCE(m->fw_reboot, false);
		mutex_unlock(&m->lock);
		return 0;
	}
	kh_fw_loading(kd, true);
	kh_fw_boot_mesh(m, img, 0,
			kh_ms_to_ns(KOHAKU_FW_BOOT_TIMEOUT_DEFAULT_MS), &p);
	kh_fw_loading(kd, false);
	mutex_lock(&m->lock);
	if (p.err && m->resets != resets) {
		/*
		 * Another reset came in the middle of the boot: nothing is
		 * wrong with the image.  Its units go back to ABSENT and boot
		 * again once the mesh is back.
		 */
		for (j = 0; j < m->n_nodes; j++)
			if (m->nodes[j].fw_state == KOHAKU_FW_STATE_FAILED)
				m->nodes[j].fw_state = KOHAKU_FW_STATE_ABSENT;
		WRITE_ONCE(m->fw_reboot, true);
		WRITE_ONCE(m->maint_hold, true);
		mutex_unlock(&m->lock);
		kh_info(kd, "mesh %u: reset again while its firmware booted; booting it once more\n",
			m->id);
		kh_maint_kick(kd);
		kfree(img);
		return 0;
	}
	mutex_unlock(&m->lock);
	if (p.err)
		kh_err(kd, "mesh %u: the firmware %s did not boot again after the reset on (%u,%u) (%d); its POOL units take no jobs until a load succeeds\n",
		       m->id, kd->fw_name, p.failed ? p.failed->x : 0,
		       p.failed ? p.failed->y : 0, p.err);
	else
		kh_info(kd, "mesh %u: firmware %s running again on %u POOL unit(s) after the reset\n",
			m->id, kd->fw_name, p.n_units);
	kfree(img);
	return p.n_units;
}

/* Hold every unit and mark it: what runs after a failure with nothing to restore. */
static void kh_fw_fail_all(struct kh_device *kd)
{
	unsigned int i, j;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		for (j = 0; j < m->n_nodes; j++) {
			struct kh_node *n = &m->nodes[j];

			if (!kh_node_is_pool(n) || n->fw_state == KOHAKU_FW_STATE_FAILED)
				continue;
			if (n->fw_state != KOHAKU_FW_STATE_ABSENT)
				kh_fw_hold_unit(n);
			mutex_lock(&m->lock);
			n->fw_state = KOHAKU_FW_STATE_FAILED;
			mutex_unlock(&m->lock);
		}
	}
}

/* After a failed load: the image that ran before, on every unit again. */
static void kh_fw_restore(struct kh_device *kd)
{
	struct kh_fw_image *old;
	struct kh_fw_pass p;

	if (!kd->fw_image) {
		kh_fw_fail_all(kd);
		return;
	}
	old = kh_fw_kept(kd);
	if (!old || kh_fw_boot_all(kd, old, 0, kh_ms_to_ns(KOHAKU_FW_BOOT_TIMEOUT_DEFAULT_MS),
			   &p)) {
		kh_err(kd, "the previous firmware did not boot again either; the POOL units are stopped\n");
		kh_fw_fail_all(kd);
	} else {
		kh_info(kd, "the previous firmware (%s %u.%u.%u) runs again on %u POOL unit(s)\n",
			kd->fw_name, KH_FW_VERSION_MAJOR(p.fw_version),
			KH_FW_VERSION_MINOR(p.fw_version),
			KH_FW_VERSION_PATCH(p.fw_version), p.n_units);
	}
	kfree(old);
}

static void kh_fw_result(struct drm_kohaku_fw_load *out, const struct kh_fw_pass *p)
{
	out->n_units = p->n_units;
	out->loaded_by = p->loaded_by;
	out->reason = p->reason;
	out->fw_version = p->fw_version;
	out->fw_api = p->fw_api;
	out->boot_ns = p->boot_ns;
	out->fail_trap = p->reason == KOHAKU_FW_ERR_TRAP ? p->trap : 0;
	if (p->failed) {
		out->fail_mesh = p->failed->mesh->id;
		out->fail_x = p->failed->x;
		out->fail_y = p->failed->y;
	}
}

/*
 * Load @data (a kernel buffer the caller keeps until this returns) onto
 * every POOL unit.  @out gets the outcome, on failure too.
 */
int kh_fw_load(struct kh_device *kd, const void *data, size_t len, u32 flags,
	       u32 timeout_ms, struct drm_kohaku_fw_load *out)
{
	struct kh_fw_image *img;
	struct kh_fw_pass p;
	u8 *copy;
	int ret;

	out->reason = KOHAKU_FW_OK;
	out->fail_mesh = out->fail_x = out->fail_y = KOHAKU_COORD_NONE;
	img = kzalloc(sizeof(*img), GFP_KERNEL);
	if (!img)
		return -ENOMEM;
	ret = kh_fw_parse(data, len, img);
	if (ret) {
		out->reason = img->reason;
		out->detail = img->detail;
		kh_err(kd, "firmware image refused: %s\n", img->why);
		goto out_img;
	}
	if (!kd->fw_units) {
		out->reason = KOHAKU_FW_ERR_NO_UNITS;
		kh_err(kd, "firmware: this device has no POOL unit to run it\n");
		ret = -ENODEV;
		goto out_img;
	}
	/* kept as the image to restore after a later failed load */
	copy = kvzalloc(len, GFP_KERNEL);
	if (!copy) {
		ret = -ENOMEM;
		goto out_img;
	}
	memcpy(copy, data, len);
	img->data = copy;

	mutex_lock(&kd->fw_lock);
	kh_fw_loading(kd, true);
	ret = kh_fw_hold_all(kd);
	if (ret) {
		out->reason = KOHAKU_FW_ERR_BUSY;
		kh_fw_loading(kd, false);
		mutex_unlock(&kd->fw_lock);
		kvfree(copy);
		goto out_img;
	}
	ret = kh_fw_boot_all(kd, img, flags,
			     kh_ms_to_ns(timeout_ms ? timeout_ms :
					 KOHAKU_FW_BOOT_TIMEOUT_DEFAULT_MS), &p);
	kh_fw_result(out, &p);
	if (ret) {
		kh_err(kd, "firmware %s: boot failed on mesh %u (%u,%u) (%d); restoring the previous firmware\n",
		       img->name, out->fail_mesh, out->fail_x, out->fail_y, ret);
		kh_fw_restore(kd);
		kvfree(copy);
	} else {
		kvfree(kd->fw_image);
		kd->fw_image = copy;
		kd->fw_len = len;
		kd->fw_version = p.fw_version;
		kd->fw_api = p.fw_api;
		memcpy(kd->fw_name, img->name, sizeof(kd->fw_name));
		kh_info(kd, "firmware %s %u.%u.%u (API %u.%u) running on %u POOL unit(s), booted in %llu us of device time\n",
			img->name, KH_FW_VERSION_MAJOR(p.fw_version),
			KH_FW_VERSION_MINOR(p.fw_version),
			KH_FW_VERSION_PATCH(p.fw_version), p.fw_api >> 16,
			p.fw_api & 0xffff, p.n_units, p.boot_ns / 1000);
	}
	kh_fw_loading(kd, false);
	kh_fw_let_go(kd);
	mutex_unlock(&kd->fw_lock);
out_img:
	kfree(img);
	return ret;
}

int kh_ioctl_fw_load(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_fw_load *a = arg;
	struct kh_device *kd = kf->kd;
	void *buf;
	int ret;

	if (a->flags & ~KOHAKU_FW_LOAD_FLAGS || a->pad ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->image_size > KH_FW_MAX_IMAGE) {
		a->reason = KOHAKU_FW_ERR_TOO_BIG;
		kh_err(kd, "firmware image refused: %u bytes; at most %u\n",
		       a->image_size, KH_FW_MAX_IMAGE);
		return -E2BIG;
	}
	if (a->image_size && !a->image_ptr) {
		kh_dbg(kd, "FW_LOAD: image_ptr is 0 with %u bytes\n", a->image_size);
		return -EFAULT;
	}
	buf = kvzalloc(a->image_size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, u64_to_user_ptr(a->image_ptr), a->image_size))
		ret = -EFAULT;
	else
		ret = kh_fw_load(kd, buf, a->image_size, a->flags, a->timeout_ms, a);
	kvfree(buf);
	return ret;
}

int kh_device_fw_load(struct kh_device *kd, const void *data, size_t len)
{
	struct drm_kohaku_fw_load out = { 0 };

	return kh_fw_load(kd, data, len, 0, 0, &out);
}

unsigned int kh_device_fw_units(const struct kh_device *kd)
{
	return kd->fw_units;
}
