// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Jobs: SUBMIT validates and queues a job on its mesh, WAIT drives the job
 * engine until the job is final or the caller's time is up.  A job is owned
 * by its file and, while queued or on the device, by its mesh; it is freed
 * when both have let go (a job whose file closed runs out on the device).
 */
#include "kh_priv.h"

bool kh_job_final(const struct kh_job *job)
{
	return job->status >= KOHAKU_JOB_DONE;
}

void kh_job_put(struct kh_job *job)
{
	if (job->file || job->on_mesh || job->waiters)
		return;
	kh_free(job->insts);
	kh_free(job->progs);
	kh_free(job);
}

/* The smallest id of a job that is not final, or U64_MAX. */
u64 kh_oldest_unfinished_job(struct kh_device *kd)
{
	u64 oldest = ~0ULL;
	unsigned int i;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		/* the mesh runs its jobs in order: the device's job is oldest */
		if (m->job && m->job->id < oldest)
			oldest = m->job->id;
		else if (!list_empty(&m->queue)) {
			struct kh_job *j = list_first_entry(&m->queue, struct kh_job,
							    mesh_link);

			if (j->id < oldest)
				oldest = j->id;
		}
	}
	return oldest;
}

static int kh_check_program(struct kh_file *kf, const struct drm_kohaku_program *p,
			    unsigned int i, struct kh_mesh **mesh)
{
	struct kh_device *kd = kf->kd;
	struct kh_node *n;
	struct kh_mesh *m;

	if (p->flags || p->pad || p->reserved) {
		kh_dbg(kd, "SUBMIT: program %u has nonzero flags/pad/reserved\n", i);
		return -EINVAL;
	}
	if (p->mesh >= kd->n_meshes || !(kd->mesh[p->mesh].flags & KOHAKU_MESH_PRESENT)) {
		kh_dbg(kd, "SUBMIT: program %u names mesh %u, which is absent\n", i, p->mesh);
		return -EINVAL;
	}
	m = &kd->mesh[p->mesh];
	if (*mesh && *mesh != m) {
		kh_dbg(kd, "SUBMIT: programs of one job must share a mesh (program %u is on mesh %u)\n",
		       i, p->mesh);
		return -EINVAL;
	}
	*mesh = m;
	n = kh_mesh_node(m, p->x, p->y);
	if (!n) {
		kh_dbg(kd, "SUBMIT: program %u targets (%u,%u) on mesh %u, which is not an enumerated node\n",
		       i, p->x, p->y, p->mesh);
		return -EINVAL;
	}
	if (!p->n_insts) {
		kh_dbg(kd, "SUBMIT: program %u has no instructions\n", i);
		return -EINVAL;
	}
	if (!n->inst_depth) {
		kh_dbg(kd, "SUBMIT: node (%u,%u) reports inst_depth 0 and takes no instructions\n",
		       p->x, p->y);
		return -EINVAL;
	}
	if (n->flags & KOHAKU_NODE_HUNG) {
		kh_err(kd, "mesh %u: node (%u,%u) hung in an earlier job; refusing new work for it\n",
		       m->id, n->x, n->y);
		return -EIO;
	}
	return 0;
}

static int kh_mesh_usable(struct kh_device *kd, struct kh_mesh *m)
{
	if (m->flags & KOHAKU_MESH_WEDGED) {
		kh_err(kd, "mesh %u is wedged (a job hung the dispatcher); the card must be reprogrammed, it has no soft reset\n",
		       m->id);
		return -EIO;
	}
	if (!(m->flags & KOHAKU_MESH_READY)) {
		kh_err(kd, "mesh %u was refused at bring-up (%s); it takes no jobs\n",
		       m->id, m->flags & KOHAKU_MESH_MIXED_VERSION ?
		       "mixed cu_version" : "not enumerated");
		return -EIO;
	}
	return 0;
}

/* Copy the program table and every instruction in; check all of it. */
static int kh_job_build(struct kh_file *kf, const struct drm_kohaku_submit *a,
			struct kh_job *job)
{
	struct drm_kohaku_program *p;
	struct kh_mesh *m = NULL;
	u64 total = 0, at = 0;
	unsigned int i, j;
	int ret;

	p = kh_zalloc(sizeof(*p) * a->n_programs);
	job->progs = kh_zalloc(sizeof(*job->progs) * a->n_programs);
	if (!p || !job->progs) {
		ret = -ENOMEM;
		goto out;
	}
	ret = kh_copy_from_user(p, kh_u64_to_user_ptr(a->programs_ptr),
				sizeof(*p) * a->n_programs);
	if (ret)
		goto out;
	for (i = 0; i < a->n_programs; i++) {
		ret = kh_check_program(kf, &p[i], i, &m);
		if (ret)
			goto out;
		for (j = 0; j < i; j++) {
			if (p[j].x == p[i].x && p[j].y == p[i].y) {
				kh_dbg(kf->kd, "SUBMIT: programs %u and %u both target (%u,%u); one program per node per job\n",
				       j, i, p[i].x, p[i].y);
				ret = -EINVAL;
				goto out;
			}
		}
		total += p[i].n_insts;
	}
	if (total > KOHAKU_MAX_JOB_INSTS) {
		kh_dbg(kf->kd, "SUBMIT: %llu instructions, more than %u per job\n",
		       total, KOHAKU_MAX_JOB_INSTS);
		ret = -E2BIG;
		goto out;
	}
	ret = kh_mesh_usable(kf->kd, m);
	if (ret)
		goto out;
	job->insts = kh_zalloc(sizeof(*job->insts) * total);
	if (!job->insts) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < a->n_programs; i++) {
		struct kh_prog *pr = &job->progs[i];

		ret = kh_copy_from_user(&job->insts[at],
					kh_u64_to_user_ptr(p[i].insts_ptr),
					sizeof(*job->insts) * p[i].n_insts);
		if (ret)
			goto out;
		pr->node = kh_mesh_node(m, p[i].x, p[i].y);
		pr->txn = p[i].txn;
		pr->n = p[i].n_insts;
		pr->insts = &job->insts[at];
		at += p[i].n_insts;
	}
	job->n_progs = a->n_programs;
	job->mesh = m;
out:
	kh_free(p);
	return ret;
}

int kh_job_submit(struct kh_file *kf, struct drm_kohaku_submit *a)
{
	struct kh_device *kd = kf->kd;
	struct kh_job *job;
	int ret;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->program_size != sizeof(struct drm_kohaku_program)) {
		kh_dbg(kd, "SUBMIT: program_size %u, this driver's is %zu\n",
		       a->program_size, sizeof(struct drm_kohaku_program));
		return -EINVAL;
	}
	if (!a->n_programs || a->n_programs > KOHAKU_MAX_PROGRAMS) {
		kh_dbg(kd, "SUBMIT: %u programs; a job has 1..%u\n",
		       a->n_programs, KOHAKU_MAX_PROGRAMS);
		return -EINVAL;
	}
	if (kf->n_jobs >= KOHAKU_MAX_JOBS) {
		kh_dbg(kd, "SUBMIT: this file has %u jobs nobody waited for\n", kf->n_jobs);
		return -EBUSY;
	}
	job = kh_zalloc(sizeof(*job));
	if (!job)
		return -ENOMEM;
	ret = kh_job_build(kf, a, job);
	if (ret) {
		kh_job_put(job);
		return ret;
	}
	job->id = kd->next_job_id++;
	job->file = kf;
	job->status = KOHAKU_JOB_QUEUED;
	job->timeout_ns = kh_ms_to_ns(a->timeout_ms ? a->timeout_ms :
				      KOHAKU_JOB_TIMEOUT_DEFAULT_MS);
	list_add_tail(&job->file_link, &kf->jobs);
	kf->n_jobs++;
	job->on_mesh = true;
	list_add_tail(&job->mesh_link, &job->mesh->queue);
	a->job_id = job->id;
	/* start it now when the mesh is free */
	kh_mesh_step(job->mesh);
	return 0;
}

static struct kh_job *kh_job_lookup(struct kh_file *kf, u64 id)
{
	struct kh_job *job;

	list_for_each_entry(job, &kf->jobs, file_link)
		if (job->id == id)
			return job;
	return NULL;
}

static void kh_job_report(const struct kh_job *job, struct drm_kohaku_wait *a)
{
	bool node = job->fault_flags & KOHAKU_FAULT_NODE_KNOWN;

	a->status = job->status;
	a->fault_flags = job->fault_flags;
	a->n_faults = job->n_faults;
	a->fault_code = job->fault_flags & KOHAKU_FAULT_CODE_KNOWN ?
			job->fault_code : 0;
	a->fault_mesh = node ? job->mesh->id : KOHAKU_COORD_NONE;
	a->fault_x = node ? job->fault_x : KOHAKU_COORD_NONE;
	a->fault_y = node ? job->fault_y : KOHAKU_COORD_NONE;
	a->device_ns = job->t_end > job->t_start ? job->t_end - job->t_start : 0;
}

static void kh_job_forget(struct kh_file *kf, struct kh_job *job)
{
	if (!job->file)
		return;		/* another waiter on the same file got there first */
	list_del(&job->file_link);
	kf->n_jobs--;
	job->file = NULL;
	kh_job_put(job);
}

/* Called with kd->lock held; drops it between polls of the device. */
int kh_job_wait(struct kh_file *kf, struct drm_kohaku_wait *a)
{
	struct kh_device *kd = kf->kd;
	struct kh_job *job;
	u64 deadline;
	int ret;

	if (a->flags || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	job = kh_job_lookup(kf, a->job_id);
	if (!job)
		return -ENOENT;
	deadline = kh_now(kd) + kh_ms_to_ns(a->timeout_ms);
	/* a second thread of this file may wait on it (and forget it) too */
	job->waiters++;
	for (;;) {
		unsigned int i;

		/* every mesh advances, not only this job's: nobody else may */
		for (i = 0; i < kd->n_meshes; i++)
			kh_mesh_step(&kd->mesh[i]);
		if (kh_job_final(job))
			break;
		if (kh_now(kd) >= deadline) {
			kh_job_report(job, a);
			ret = -ETIMEDOUT;
			goto out;
		}
		kh_mutex_unlock(&kd->lock);
		kh_relax(kh_simulated(kd));
		kh_mutex_lock(&kd->lock);
		if (kd->unplugged) {
			ret = -ENODEV;
			goto out;
		}
		if (kh_interrupted()) {
			ret = -EINTR;
			goto out;
		}
	}
	kh_job_report(job, a);
	kh_job_forget(kf, job);
	ret = 0;
out:
	job->waiters--;
	kh_job_put(job);
	return ret;
}

/* File close: queued jobs never run; one on the device runs out. */
void kh_job_release_all(struct kh_file *kf)
{
	struct kh_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &kf->jobs, file_link) {
		if (job->on_mesh && job->status == KOHAKU_JOB_QUEUED) {
			list_del(&job->mesh_link);
			job->on_mesh = false;
			job->status = KOHAKU_JOB_ABORTED;
		}
		kh_job_forget(kf, job);
	}
}
