// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The job object, below the engine: its references, its outcome and the
 * ways it ends.  A job is counted (kh_job.ref) by its file's table, by its
 * mesh while queued or on the device, and by each waiter; it is freed when
 * all have let go (a job whose file closed runs out on the device).  The
 * engine publishes an outcome once (kh_job_finalize()); a queued job that
 * will never run leaves by one path (kh_job_abort()).  Nothing here calls
 * up into the engine or the ioctls: SUBMIT and WAIT are kh_submit.c's.
 */
#include "kh_priv.h"
#include "kh_tracepoints.h"

/*
 * A job's fence: a dma_fence on its mesh's timeline (one context a mesh,
 * seqno the mesh's count of jobs), signalled when the job is final, with
 * -EIO unless it is DONE.  Applications wait on it through a syncobj; any
 * driver's dma_fence can be a job's in-fence.
 */
struct kh_fence {
	struct dma_fence base;	/* first: dma_fence_free() frees the whole */
	spinlock_t lock;
};

static const char *kh_fence_driver_name(struct dma_fence *f)
{
	return "kohaku";
}

static const char *kh_fence_timeline_name(struct dma_fence *f)
{
	return "mesh";
}

static const struct dma_fence_ops kh_fence_ops = {
	.get_driver_name = kh_fence_driver_name,
	.get_timeline_name = kh_fence_timeline_name,
};

struct dma_fence *kh_fence_create(u64 context, u64 seqno)
{
	struct kh_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	dma_fence_init(&f->base, &kh_fence_ops, &f->lock, context, seqno);
	return &f->base;
}

bool kh_job_is_final(const struct kh_job *job)
{
	/* pairs with kh_job_finalize(): seen final, the outcome is seen too */
	return smp_load_acquire(&job->status) >= KOHAKU_JOB_DONE;
}

void kh_job_put(struct kh_job *job)
{
	u32 i;

	if (!refcount_dec_and_test(&job->ref))
		return;
	for (i = 0; i < job->n_in_fences; i++)
		dma_fence_put(job->in_fences[i]);
	dma_fence_put(job->fence);
	kvfree(job->in_fences);
	kvfree(job->insts);
	kvfree(job->segs);
	kvfree(job->data);
	kvfree(job->progs);
	kfree(job);
}

/*
 * Off the device's list of unfinished jobs; memory freed while it was
 * unfinished goes back to its mesh once no older job is left.
 */
static void kh_deferred_release_locked(struct kh_device *kd)
{
	struct kh_deferred *d, *tmp;
	u64 oldest;

	lockdep_assert_held(&kd->jobs_lock);
	oldest = list_empty(&kd->unfinished) ? ~0ULL :
		 list_first_entry(&kd->unfinished, struct kh_job, live_link)->id;
	list_for_each_entry_safe(d, tmp, &kd->deferred, link) {
		/* a hung unit that still owes instructions may write it yet */
		if (d->after_job >= oldest || kh_mesh_owes(d->mesh))
			continue;
		kh_mem_release(&d->mesh->mem, d->start, d->len);
		list_del(&d->link);
		kfree(d);
	}
}

void kh_job_unlist(struct kh_device *kd, struct kh_job *job)
{
	mutex_lock(&kd->jobs_lock);
	list_del(&job->live_link);
	kh_deferred_release_locked(kd);
	mutex_unlock(&kd->jobs_lock);
}

/*
 * A mesh's hung units owe nothing any more (they signalled it all, or a
 * reset cleared them): memory freed meanwhile can go back.
 */
void kh_deferred_release(struct kh_device *kd)
{
	mutex_lock(&kd->jobs_lock);
	kh_deferred_release_locked(kd);
	mutex_unlock(&kd->jobs_lock);
}

void kh_job_finalize(struct kh_job *job, u32 status)
{
	struct kh_mesh *m = job->mesh;
	struct kh_device *kd = m->kd;

	lockdep_assert_held(&m->lock);
	/* the users' jobs: the driver's own (a firmware boot) are not counted */
	if (!job->internal) {
		m->jobs_pending--;
		if (job->leased)
			m->lease_jobs--;
		m->jobs_done++;
		/* a user's job done: the recoveries before it helped */
		if (status == KOHAKU_JOB_DONE)
			kh_maint_job_done(m);
	}
	/* the idle window starts when the mesh's last job ends */
	kh_clk_busy(m);
	if (job->fence) {
		if (status != KOHAKU_JOB_DONE)
			dma_fence_set_error(job->fence, -EIO);
		dma_fence_signal(job->fence);
	}
	/* after the outcome: a reader that sees it final sees the outcome */
	smp_store_release(&job->status, status);
	trace_kohaku_retire(kd->dev, m->id, job->id, status);
	wake_up_all(&kd->waitq);
}

/*
 * The job is to end ERROR: why, in words for the log and as a code for
 * WAIT, and the node it happened at.  The first error is the one kept.
 */
void kh_job_error(struct kh_job *job, const struct kh_node *n, u32 code,
		  const char *why)
{
	if (job->why)
		return;
	job->why = why;
	job->why_code = code;
	if (!(job->fault_flags & KOHAKU_FAULT_NODE_KNOWN)) {
		job->fault_flags |= KOHAKU_FAULT_NODE_KNOWN;
		job->fault_x = n->x;
		job->fault_y = n->y;
	}
	trace_kohaku_fault(job->mesh->kd->dev, job->mesh->id, job->id,
			   job->fault_x, job->fault_y, code);
}

void kh_job_end_aborted(struct kh_job *job, u32 code, const char *why)
{
	job->why = why;
	job->why_code = code;
	kh_job_finalize(job, KOHAKU_JOB_ABORTED);
}

struct kh_node *kh_job_hung_target(const struct kh_job *job)
{
	unsigned int i;

	for (i = 0; i < job->n_progs; i++)
		if (job->progs[i].node->flags & KOHAKU_NODE_HUNG)
			return job->progs[i].node;
	return NULL;
}

/* whether job has a target that runs firmware (a POOL unit) */
bool kh_job_on_fw_unit(const struct kh_job *job)
{
	unsigned int i;

	for (i = 0; i < job->n_progs; i++)
		if (job->progs[i].node->fw_state != KOHAKU_FW_STATE_NONE)
			return true;
	return false;
}

/*
 * A POOL unit of job's that runs no firmware (none loaded since bring-up
 * or a reset, or its last boot failed): its firmware jobs could only end
 * FAULT (the unit's NOFW).  A unit still booting is fine: the job waits
 * behind the load.  The driver's own jobs (the loader's LOAD) go on.
 */
struct kh_node *kh_job_fwless_target(const struct kh_job *job)
{
	unsigned int i;

	if (job->internal)
		return NULL;
	for (i = 0; i < job->n_progs; i++) {
		const struct kh_node *n = job->progs[i].node;

		if (n->fw_state == KOHAKU_FW_STATE_ABSENT ||
		    n->fw_state == KOHAKU_FW_STATE_FAILED)
			return job->progs[i].node;
	}
	return NULL;
}

void kh_job_abort(struct kh_job *job, u32 code, const char *why)
{
	struct kh_mesh *m = job->mesh;

	lockdep_assert_held(&m->lock);
	list_del(&job->mesh_link);
	if (job->in_cb_armed)
		dma_fence_remove_callback(job->in_fences[job->in_next], &job->in_cb);
	job->in_cb_armed = false;
	kh_dbg(m->kd, "mesh %u: job %llu aborted: %s\n", m->id, job->id, why);
	kh_job_end_aborted(job, code, why);
	kh_job_unlist(m->kd, job);
	kh_job_put(job);	/* the mesh's */
}
