// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Mesh leases (MESH_LEASE, ABI 0.8; docs/abi.md "Mesh leases"): one open
 * file holds a mesh alone, so the units nothing bounds (a cpu unit, an
 * unknown cu_type) may run its programs there: no other file has memory
 * on the mesh for them to reach.  The state is the mesh's, under its lock:
 * the holder, the BOs open files hold on it (and each file's own share,
 * kf->mesh_bos), and the unfinished jobs that passed SUBMIT by the lease.
 * Lock order as SUBMIT's: the file's lock, then the mesh's.
 */
#include "kh_priv.h"

/* Another file's job queued or on the device, or NULL. */
static const struct kh_job *kh_lease_other_job(const struct kh_mesh *m,
					       const struct kh_file *kf)
{
	const struct kh_job *job;

	lockdep_assert_held(&m->lock);
	if (m->job && !m->job->internal && m->job->owner != kf)
		return m->job;
	list_for_each_entry(job, &m->queue, mesh_link)
		if (!job->internal && job->owner != kf)
			return job;
	return NULL;
}

int kh_lease_busy(struct kh_mesh *m, const struct kh_file *kf, const char *cmd)
{
	lockdep_assert_held(&m->lock);
	if (m->lease && m->lease != kf) {
		kh_dbg(m->kd, "%s: mesh %u is leased by another open file\n",
		       cmd, m->id);
		return -EBUSY;
	}
	if (!m->lease && m->lease_jobs) {
		kh_dbg(m->kd, "%s: mesh %u still runs %u jobs of a lease that ended; they finish first\n",
		       cmd, m->id, m->lease_jobs);
		return -EBUSY;
	}
	return 0;
}

bool kh_lease_held(struct kh_mesh *m, const struct kh_file *kf)
{
	lockdep_assert_held(&m->lock);
	return m->lease == kf;
}

void kh_lease_bo_count(struct kh_file *kf, struct kh_mesh *m, int delta)
{
	lockdep_assert_held(&kf->lock);
	lockdep_assert_held(&m->lock);
	kf->mesh_bos[m->id] += delta;
	m->n_bos += delta;
}

static int kh_lease_take(struct kh_file *kf, struct kh_mesh *m)
{
	const struct kh_job *job;
	u32 others;

	lockdep_assert_held(&kf->lock);
	lockdep_assert_held(&m->lock);
	if (m->lease == kf)
		return 0;
	if (kh_lease_busy(m, kf, "MESH_LEASE"))
		return -EBUSY;
	others = m->n_bos - kf->mesh_bos[m->id];
	if (others) {
		kh_dbg(m->kd, "MESH_LEASE: mesh %u: other open files hold %u BOs there; they free them (or close) first\n",
		       m->id, others);
		return -EBUSY;
	}
	job = kh_lease_other_job(m, kf);
	if (job) {
		kh_dbg(m->kd, "MESH_LEASE: mesh %u: job %llu of another file is %s there; it finishes first\n",
		       m->id, job->id, job == m->job ? "running" : "queued");
		return -EBUSY;
	}
	WRITE_ONCE(m->lease, kf);	/* kh_check_begin() peeks */
	kh_dbg(m->kd, "MESH_LEASE: mesh %u leased\n", m->id);
	return 0;
}

int kh_ioctl_mesh_lease(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_mesh_lease *a = arg;
	struct kh_device *kd = kf->kd;
	struct kh_mesh *m;
	int ret = 0;

	if ((a->flags != KOHAKU_LEASE_TAKE && a->flags != KOHAKU_LEASE_GIVE) ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved))) {
		kh_dbg(kd, "MESH_LEASE: flags 0x%x (KOHAKU_LEASE_TAKE or _GIVE, exactly one) or nonzero reserved\n",
		       a->flags);
		return -EINVAL;
	}
	if (!kh_mesh_present(kd, a->mesh)) {
		kh_dbg(kd, "MESH_LEASE: no mesh %u\n", a->mesh);
		return -EINVAL;
	}
	m = &kd->mesh[a->mesh];
	mutex_lock(&kf->lock);
	mutex_lock(&m->lock);
	if (a->flags == KOHAKU_LEASE_TAKE) {
		ret = kh_lease_take(kf, m);
	} else if (m->lease != kf) {
		kh_dbg(kd, "MESH_LEASE: GIVE of mesh %u, which this file does not hold\n",
		       m->id);
		ret = -EINVAL;
	} else {
		WRITE_ONCE(m->lease, NULL);
	}
	mutex_unlock(&m->lock);
	mutex_unlock(&kf->lock);
	return ret;
}

void kh_lease_release_all(struct kh_file *kf)
{
	struct kh_device *kd = kf->kd;
	unsigned int i;

	lockdep_assert_held(&kf->lock);
	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i))
			continue;
		mutex_lock(&m->lock);
		if (m->lease == kf)
			WRITE_ONCE(m->lease, NULL);
		mutex_unlock(&m->lock);
	}
}
