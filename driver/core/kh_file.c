// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Open files: each owns its BOs and jobs, and cleans them up on close. */
#include "kh_priv.h"

int kh_file_open(struct kh_device *kd, struct kh_file **out)
{
	struct kh_file *kf = kh_zalloc(sizeof(*kf));

	if (!kf)
		return -ENOMEM;
	kf->kd = kd;
	INIT_LIST_HEAD(&kf->bos);
	INIT_LIST_HEAD(&kf->jobs);
	kh_mutex_lock(&kd->lock);
	list_add_tail(&kf->link, &kd->files);
	kh_mutex_unlock(&kd->lock);
	*out = kf;
	return 0;
}

void kh_file_close(struct kh_file *kf)
{
	struct kh_device *kd;

	if (!kf)
		return;
	kd = kf->kd;
	kh_mutex_lock(&kd->lock);
	/* jobs first: BO memory waits for the jobs that may still touch it */
	kh_job_release_all(kf);
	kh_bo_release_all(kf);
	list_del(&kf->link);
	kh_mutex_unlock(&kd->lock);
	kh_free(kf);
}
