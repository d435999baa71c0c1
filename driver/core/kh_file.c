// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Open files: each owns its BOs, jobs and DXA slots, and cleans them up on
 * close.
 */
#include "kh_priv.h"

int kh_file_open(struct kh_device *kd, struct kh_os_file *of,
		 struct kh_file **out)
{
	struct kh_file *kf = kh_zalloc(sizeof(*kf));

	if (!kf)
		return -ENOMEM;
	kf->kd = kd;
	kf->of = of;
	kh_mutex_init(&kf->lock, KH_LOCK_FILE);
	kh_xa_init(&kf->bos);
	kh_xa_init(&kf->jobs);
	*out = kf;
	return 0;
}

void kh_file_close(struct kh_file *kf)
{
	if (!kf)
		return;
	kh_mutex_lock(&kf->lock);
	/* jobs first: BO memory waits for the jobs that may still touch it */
	kh_job_release_all(kf);
	kh_bo_release_all(kf);
	kh_dxa_release_all(kf);
	kh_mutex_unlock(&kf->lock);
	kh_xa_destroy(&kf->jobs);
	kh_xa_destroy(&kf->bos);
	kh_mutex_destroy(&kf->lock);
	kh_free(kf);
}
