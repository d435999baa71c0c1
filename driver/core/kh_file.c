// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Open files: each owns its BOs, jobs and DXA slots, and cleans them up on
 * close.
 */
#include "kh_priv.h"

int kh_file_open(struct kh_device *kd, struct drm_file *file, bool admin,
		 struct kh_file **out)
{
	struct kh_file *kf = kzalloc(sizeof(*kf), GFP_KERNEL);

	if (!kf)
		return -ENOMEM;
	kf->kd = kd;
	kf->admin = admin;
	kf->clk_run = KOHAKU_CLK_PROFILE_DEFAULT;
	kf->file = file;
	mutex_init(&kf->lock);
	xa_init_flags(&kf->bos, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&kf->jobs);
	*out = kf;
	return 0;
}

void kh_file_close(struct kh_file *kf)
{
	if (!kf)
		return;
	mutex_lock(&kf->lock);
	/* jobs first: BO memory waits for the jobs that may still touch it */
	kh_job_release_all(kf);
	kh_bo_release_all(kf);
	kh_dxa_release_all(kf);
	kh_lease_release_all(kf);
	mutex_unlock(&kf->lock);
	xa_destroy(&kf->bos);
	mutex_destroy(&kf->lock);
	kfree(kf);
}

void kh_file_usage(struct kh_file *kf, struct kh_file_usage *u)
{
	u64 now = kh_now(kf->kd), t0, t1;
	struct kh_job *job;
	struct kh_bo *bo;
	unsigned long id;
	u32 status;

	memset(u, 0, sizeof(*u));
	mutex_lock(&kf->lock);
	u->busy_ns = kf->reaped_ns;
	u->jobs = kf->reaped_jobs;
	/* jobs not reaped yet; the times are read without the mesh's lock */
	list_for_each_entry(job, &kf->jobs, file_link) {
		/* pairs with kh_job_finalize(): a final status, then its times */
		status = smp_load_acquire(&job->status);
		t0 = READ_ONCE(job->t_start);
		t1 = READ_ONCE(job->t_end);
		if (status == KOHAKU_JOB_RUNNING && t0 && now > t0)
			u->busy_ns += now - t0;
		else if (status >= KOHAKU_JOB_DONE && t1 > t0)
			u->busy_ns += t1 - t0;
		if (status >= KOHAKU_JOB_DONE)
			u->jobs++;
	}
	xa_for_each(&kf->bos, id, bo) {
		u->bo_bytes += bo->len;
		u->n_bos++;
	}
	mutex_unlock(&kf->lock);
}
