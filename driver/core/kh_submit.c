// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SUBMIT and WAIT, the top of the job engine: SUBMIT copies a job in and
 * checks all of it, takes its in-fences and queues it on its mesh, then
 * kicks the progress engine (kh_engine.c); WAIT sleeps until the engine
 * makes the job final and reports it.  The firmware loader's own jobs come
 * in here too (kh_job_run_internal()).  Below: the engine, the mesh's job
 * engine (kh_dispatch.c) and the job object (kh_job.c); nothing below
 * calls up into this file.
 */
#include <linux/uaccess.h>

#include <drm/drm_syncobj.h>

#include "kh_priv.h"
#include "kh_check.h"
#include "kh_tracepoints.h"

static int kh_check_program(struct kh_device *kd, const struct drm_kohaku_program *p,
			    unsigned int i, struct kh_mesh **mesh)
{
	struct kh_node *n;
	struct kh_mesh *m;

	if (p->flags || p->pad || p->reserved || p->data_pad || p->peer_pad) {
		kh_dbg(kd, "SUBMIT: program %u has nonzero flags/pad/reserved/data_pad/peer_pad\n", i);
		return -EINVAL;
	}
	if (!p->n_data != !p->data_ptr) {
		kh_dbg(kd, "SUBMIT: program %u: n_data %u with data_ptr %s\n", i,
		       p->n_data, p->data_ptr ? "set" : "0");
		return -EINVAL;
	}
	if (!kh_mesh_present(kd, p->mesh)) {
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
	/*
	 * A node the job only sends to has no instructions, but then it
	 * must owe the job something, or the program would be nothing.
	 */
	if (!p->n_insts && !p->peer_signals) {
		kh_dbg(kd, "SUBMIT: program %u has no instructions and waits for no peer signal\n", i);
		return -EINVAL;
	}
	if (!n->inst_depth) {
		kh_dbg(kd, "SUBMIT: node (%u,%u) reports inst_depth 0 and takes no instructions\n",
		       p->x, p->y);
		return -EINVAL;
	}
	return 0;
}

/* a job of up to this many programs has its table copied onto the stack */
#define KH_SUBMIT_FEW_PROGRAMS	4

/*
 * Copy the program table and every instruction in; check all of it, what
 * the job reaches included (kh_check.c).
 */
static int kh_job_build(struct kh_file *kf, struct drm_kohaku_submit *a,
			struct kh_job *job)
{
	struct kh_check check = { 0 };
	const u8 __user *up = u64_to_user_ptr(a->programs_ptr);
	struct kh_device *kd = kf->kd;
	/* the usual few programs need no allocation */
	struct drm_kohaku_program few[KH_SUBMIT_FEW_PROGRAMS], *p = few;
	struct kh_data_add *add = NULL;
	struct kh_mesh *m = NULL;
	u64 total = 0, peers = 0, at = 0;
	unsigned int i, j;
	u32 n_add = 0;
	int ret = 0;

	if (a->n_programs > ARRAY_SIZE(few))
		p = kvcalloc(a->n_programs, sizeof(*p), GFP_KERNEL);
	job->progs = kvcalloc(a->n_programs, sizeof(*job->progs), GFP_KERNEL);
	if (!p || !job->progs) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < a->n_programs && !ret; i++)
		ret = kh_copy_elem_in(&p[i], sizeof(p[i]), up + (size_t)i * a->program_size,
				      a->program_size);
	if (ret) {
		if (ret == -E2BIG)
			kh_dbg(kd, "SUBMIT: program %u has nonzero bytes past this driver's struct\n",
			       i - 1);
		goto out;
	}
	for (i = 0; i < a->n_programs; i++) {
		ret = kh_check_program(kd, &p[i], i, &m);
		if (ret)
			goto out;
		for (j = 0; j < i; j++) {
			if (p[j].x == p[i].x && p[j].y == p[i].y) {
				kh_dbg(kd, "SUBMIT: programs %u and %u both target (%u,%u); one program per node per job\n",
				       j, i, p[i].x, p[i].y);
				ret = -EINVAL;
				goto out;
			}
		}
		total += p[i].n_insts;
		peers += p[i].peer_signals;
	}
	/* a peer signal is counted as an instruction's signal is */
	if (total + peers > KOHAKU_MAX_JOB_INSTS) {
		kh_dbg(kd, "SUBMIT: %llu instructions and %llu peer signals, more than %u per job\n",
		       total, peers, KOHAKU_MAX_JOB_INSTS);
		ret = -E2BIG;
		goto out;
	}
	/* peer signals come from other programs' instructions: some must run */
	if (!total) {
		kh_dbg(kd, "SUBMIT: the job's %u programs have no instructions; peer signals need a sender\n",
		       a->n_programs);
		ret = -EINVAL;
		goto out;
	}
	job->insts = kvcalloc(total, sizeof(*job->insts), GFP_KERNEL);
	if (!job->insts) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < a->n_programs; i++) {
		struct kh_prog *pr = &job->progs[i];

		if (!p[i].insts_ptr && p[i].n_insts) {
			kh_dbg(kd, "SUBMIT: program %u: insts_ptr is 0 with %u instructions\n",
			       i, p[i].n_insts);
			ret = -EFAULT;
			goto out;
		}
		if (p[i].n_insts && copy_from_user(&job->insts[at], u64_to_user_ptr(p[i].insts_ptr),
				   sizeof(*job->insts) * p[i].n_insts)) {
			ret = -EFAULT;
			goto out;
		}
		pr->node = kh_mesh_node(m, p[i].x, p[i].y);
		pr->txn = p[i].txn;
		pr->n = p[i].n_insts;
		pr->peer = p[i].peer_signals;
		pr->insts = &job->insts[at];
		at += p[i].n_insts;
	}
	job->n_progs = a->n_programs;
	job->mesh = m;
	ret = kh_check_begin(&check, kf, a, m);
	if (!ret)
		ret = kh_check_job(&check, job);
	job->leased = check.used_lease;
	/* a DXA unit's copies take their slots with them, as job data */
	if (!ret)
		ret = kh_dxa_job_data(kf, job, &check, &add, &n_add);
	if (!ret)
		ret = kh_job_data_build(kd, job, p, a->n_programs, add, n_add);
	kvfree(add);
	kh_check_end(&check);
out:
	if (p != few)
		kvfree(p);
	return ret;
}

/* The fences every in-syncobj holds now: the job waits for them. */
static int kh_job_in_fences(struct kh_file *kf, const struct drm_kohaku_submit *a,
			    struct kh_job *job)
{
	struct kh_device *kd = kf->kd;
	u32 *handles;
	u32 i;
	int ret;

	if (!a->n_in_syncobjs)
		return 0;
	handles = kvcalloc(a->n_in_syncobjs, sizeof(*handles), GFP_KERNEL);
	job->in_fences = kvcalloc(a->n_in_syncobjs, sizeof(*job->in_fences), GFP_KERNEL);
	if (!handles || !job->in_fences) {
		kvfree(handles);
		return -ENOMEM;
	}
	ret = copy_from_user(handles, u64_to_user_ptr(a->in_syncobjs_ptr),
			     sizeof(*handles) * a->n_in_syncobjs) ? -EFAULT : 0;
	for (i = 0; !ret && i < a->n_in_syncobjs; i++) {
		ret = drm_syncobj_find_fence(kf->file, handles[i], 0, 0,
					     &job->in_fences[i]);
		if (ret)
			kh_dbg(kd, "SUBMIT: in-syncobj %u (handle %u): %s\n", i,
			       handles[i], ret == -ENOENT ? "no such syncobj" :
			       "it holds no fence (nothing was submitted on it)");
		else
			job->n_in_fences++;
	}
	kvfree(handles);
	return ret;
}

/* The job's mesh takes it, unless the mesh or a target is unusable. */
static int kh_job_enqueue(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_device *kd = m->kd;
	struct kh_node *n;

	lockdep_assert_held(&m->lock);
	/*
	 * a reset since cures a wedge and hung nodes, and leaves POOL units
	 * without firmware: look before deciding (one register read)
	 */
	if ((m->flags & KOHAKU_MESH_WEDGED) || kh_job_hung_target(job) ||
	    kh_job_on_fw_unit(job))
		kh_mesh_reset_check(m);
	/* a recovery under way brings hung nodes and a wedged mesh back */
	if ((m->flags & KOHAKU_MESH_WEDGED) && !m->recover_due) {
		kh_err(kd, "mesh %u is wedged (a job hung the dispatcher); a mesh reset (its clock wizard's SW_RST) or reprogramming the card clears it\n",
		       m->id);
		return -EIO;
	}
	if (!(m->flags & KOHAKU_MESH_READY)) {
		kh_err(kd, "mesh %u was refused at bring-up (%s); it takes no jobs\n",
		       m->id, (m->flags & KOHAKU_MESH_MIXED_VERSION) ?
		       "mixed cu_version" : "not enumerated");
		return -EIO;
	}
	n = m->recover_due ? NULL : kh_mesh_hung_target(m, job);
	if (n) {
		kh_err(kd, "mesh %u: node (%u,%u) hung in an earlier job; refusing new work for it\n",
		       m->id, n->x, n->y);
		return -EIO;
	}
	/* after a reset or a retune the driver boots what it keeps again */
	n = kh_fw_coming(m) ? NULL : kh_job_fwless_target(job);
	if (n) {
		kh_err(kd, "mesh %u: POOL unit (%u,%u) runs no firmware (%s%s); load it first (FW_LOAD, kohaku fw load)\n",
		       m->id, n->x, n->y,
		       n->fw_state == KOHAKU_FW_STATE_FAILED ?
		       "its last boot failed" : m->fw_quarantine ?
		       "the driver stopped it: it " :
		       "none loaded since bring-up or the last mesh reset",
		       n->fw_state != KOHAKU_FW_STATE_FAILED && m->fw_quarantine ?
		       m->fw_quarantine_why : "");
		return -EIO;
	}
	job->fence = kh_fence_create(m->fence_context, m->fence_seqno + 1);
	if (!job->fence)
		return -ENOMEM;
	m->fence_seqno++;
	refcount_inc(&job->ref);	/* the mesh's */
	list_add_tail(&job->mesh_link, &m->queue);
	if (!job->internal)
		m->jobs_pending++;
	kh_clk_busy(m);
	trace_kohaku_submit(kd->dev, m->id, job->id, job->n_progs);
	return 0;
}

int kh_job_run_internal(struct kh_node *n, const struct kohaku_inst *insts,
			u32 n_insts, u64 timeout_ns, u32 *status, u32 *fault)
{
	struct kh_mesh *m = n->mesh;
	struct kh_device *kd = m->kd;
	struct kh_job *job;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	refcount_set(&job->ref, 1);
	INIT_LIST_HEAD(&job->mesh_link);
	INIT_LIST_HEAD(&job->live_link);
	INIT_LIST_HEAD(&job->file_link);
	job->progs = kvcalloc(1, sizeof(*job->progs), GFP_KERNEL);
	job->insts = kvcalloc(n_insts, sizeof(*insts), GFP_KERNEL);
	if (!job->progs || !job->insts) {
		kh_job_put(job);
		return -ENOMEM;
	}
	memcpy(job->insts, insts, sizeof(*insts) * n_insts);
	job->progs[0].node = n;
	job->progs[0].n = n_insts;
	job->progs[0].insts = job->insts;
	job->n_progs = 1;
	job->mesh = m;
	job->internal = true;
	job->status = KOHAKU_JOB_QUEUED;
	job->timeout_ns = timeout_ns;
	job->clk_need = KOHAKU_CLK_PROFILE_DEFAULT;

	mutex_lock(&kd->jobs_lock);
	job->id = kd->next_job_id++;
	list_add_tail(&job->live_link, &kd->unfinished);
	mutex_unlock(&kd->jobs_lock);
	mutex_lock(&m->lock);
	ret = kh_job_enqueue(m, job);
	if (!ret)	/* ahead of what the loader holds back */
		list_move(&job->mesh_link, &m->queue);
	mutex_unlock(&m->lock);
	if (ret) {
		kh_job_unlist(kd, job);
		kh_job_put(job);
		return ret;
	}
	kh_engine_kick(kd);
	ret = kh_engine_wait_job(kd, job, kh_now(kd) + timeout_ns + KH_RECOVER_NS);
	if (!ret) {
		/* pairs with kh_job_finalize(): the status, then the fault */
		*status = smp_load_acquire(&job->status);
		*fault = (job->fault_flags & KOHAKU_FAULT_CODE_KNOWN) ? job->fault_code : 0;
	}
	kh_job_put(job);
	return ret;
}

/*
 * A mesh another file holds takes none of this file's jobs; a job that
 * passed its check by this file's lease needs the lease still held.
 */
static int kh_submit_lease(struct kh_file *kf, struct kh_mesh *m,
			   const struct kh_job *job)
{
	int ret;

	lockdep_assert_held(&m->lock);
	ret = kh_lease_busy(m, kf, "SUBMIT");
	if (!ret && job->leased && !kh_lease_held(m, kf)) {
		kh_dbg(m->kd, "SUBMIT: mesh %u's lease ended while the job was checked; its cpu programs need it\n",
		       m->id);
		ret = -EBUSY;
	}
	return ret;
}

static int kh_submit_check(struct kh_file *kf, struct drm_kohaku_submit *a)
{
	struct kh_device *kd = kf->kd;

	/* out fields: what a refusal fills in */
	a->refused_why = a->refused_program = a->refused_inst = 0;
	a->refused_operand = 0;
	a->refused_addr = a->refused_len = 0;
	if ((a->flags & ~KOHAKU_SUBMIT_FLAGS) || a->refused_pad ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved))) {
		kh_dbg(kd, "SUBMIT: flags 0x%x (this driver knows 0x%x) or nonzero reserved/pad\n",
		       a->flags, KOHAKU_SUBMIT_FLAGS);
		return -EINVAL;
	}
	if (a->n_bos > KOHAKU_MAX_JOB_BOS || !a->n_bos != !a->bos_ptr) {
		kh_dbg(kd, "SUBMIT: n_bos %u with bos_ptr %s; a job names 0..%u buffers\n",
		       a->n_bos, a->bos_ptr ? "set" : "0", KOHAKU_MAX_JOB_BOS);
		return -EINVAL;
	}
	if ((a->flags & (KOHAKU_SUBMIT_FILE_BOS | KOHAKU_SUBMIT_UNCHECKED)) && a->n_bos) {
		kh_dbg(kd, "SUBMIT: a list of buffers with KOHAKU_SUBMIT_%s, which names them itself\n",
		       a->flags & KOHAKU_SUBMIT_FILE_BOS ? "FILE_BOS" : "UNCHECKED");
		return -EINVAL;
	}
	if ((a->flags & KOHAKU_SUBMIT_FILE_BOS) && (a->flags & KOHAKU_SUBMIT_UNCHECKED)) {
		kh_dbg(kd, "SUBMIT: KOHAKU_SUBMIT_FILE_BOS and _UNCHECKED together; one or the other\n");
		return -EINVAL;
	}
	if ((a->flags & KOHAKU_SUBMIT_UNCHECKED) && !kf->admin) {
		kh_dbg(kd, "SUBMIT: KOHAKU_SUBMIT_UNCHECKED is for an administrator (CAP_SYS_ADMIN) only\n");
		return -EPERM;
	}
	if (a->program_size < KOHAKU_PROGRAM_SIZE_MIN || a->program_size > 4096) {
		kh_dbg(kd, "SUBMIT: program_size %u; this driver takes %u..4096\n",
		       a->program_size, KOHAKU_PROGRAM_SIZE_MIN);
		return -EINVAL;
	}
	if (!a->n_programs || a->n_programs > KOHAKU_MAX_PROGRAMS) {
		kh_dbg(kd, "SUBMIT: %u programs; a job has 1..%u\n",
		       a->n_programs, KOHAKU_MAX_PROGRAMS);
		return -EINVAL;
	}
	if (a->n_in_syncobjs > KOHAKU_MAX_IN_FENCES) {
		kh_dbg(kd, "SUBMIT: %u in-syncobjs; a job waits for at most %u\n",
		       a->n_in_syncobjs, KOHAKU_MAX_IN_FENCES);
		return -EINVAL;
	}
	/*
	 * The tables' addresses, before any pointer is computed from them:
	 * arithmetic on a NULL pointer is undefined in C (in-process).
	 */
	if (!a->programs_ptr) {
		kh_dbg(kd, "SUBMIT: programs_ptr is 0 with %u programs\n",
		       a->n_programs);
		return -EFAULT;
	}
	if (a->n_in_syncobjs && !a->in_syncobjs_ptr) {
		kh_dbg(kd, "SUBMIT: in_syncobjs_ptr is 0 with %u in-syncobjs\n",
		       a->n_in_syncobjs);
		return -EFAULT;
	}
	return 0;
}

int kh_job_submit(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_submit *a = arg;
	struct kh_device *kd = kf->kd;
	struct drm_syncobj *out = NULL;
	struct kh_job *job;
	struct kh_mesh *m;
	int ret;

	ret = kh_submit_check(kf, a);
	if (ret)
		return ret;
	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	refcount_set(&job->ref, 1);
	job->status = KOHAKU_JOB_QUEUED;
	job->clk_need = READ_ONCE(kf->clk_run);
	job->timeout_ns = kh_ms_to_ns(a->timeout_ms ? a->timeout_ms :
				      KOHAKU_JOB_TIMEOUT_DEFAULT_MS);
	INIT_LIST_HEAD(&job->mesh_link);
	INIT_LIST_HEAD(&job->live_link);
	INIT_LIST_HEAD(&job->file_link);
	job->owner = kf;
	ret = kh_job_build(kf, a, job);
	if (!ret)
		ret = kh_job_in_fences(kf, a, job);
	if (!ret && a->out_syncobj) {
		out = drm_syncobj_find(kf->file, a->out_syncobj);
		if (!out) {
			kh_dbg(kd, "SUBMIT: out-syncobj %u: no such syncobj\n", a->out_syncobj);
			ret = -ENOENT;
		}
	}
	if (ret)
		goto fail;
	m = job->mesh;

	mutex_lock(&kf->lock);
	if (kf->n_jobs >= KOHAKU_MAX_JOBS) {
		mutex_unlock(&kf->lock);
		kh_dbg(kd, "SUBMIT: this file has %u jobs nobody waited for\n",
		       kf->n_jobs);
		ret = -EBUSY;
		goto fail;
	}
	mutex_lock(&kd->jobs_lock);
	job->id = kd->next_job_id++;
	list_add_tail(&job->live_link, &kd->unfinished);
	mutex_unlock(&kd->jobs_lock);
	list_add_tail(&job->file_link, &kf->jobs);
	mutex_lock(&m->lock);
	ret = kh_submit_lease(kf, m, job);
	if (!ret)
		ret = kh_job_enqueue(m, job);
	if (!ret && job->leased)
		m->lease_jobs++;
	mutex_unlock(&m->lock);
	if (ret) {
		list_del_init(&job->file_link);
		mutex_unlock(&kf->lock);
		kh_job_unlist(kd, job);
		goto fail;
	}
	kf->n_jobs++;		/* the file's reference is the submitter's */
	/* and one for the engine's start below: a WAIT may reap it meanwhile */
	refcount_inc(&job->ref);
	mutex_unlock(&kf->lock);

	if (out) {
		drm_syncobj_replace_fence(out, job->fence);
		drm_syncobj_put(out);
	}
	a->job_id = job->id;
	kh_engine_submitted(kd, job);
	kh_job_put(job);
	return 0;
fail:
	if (out)
		drm_syncobj_put(out);
	kh_job_put(job);
	return ret;
}

static void kh_job_report(const struct kh_job *job, struct drm_kohaku_wait *a)
{
	bool node = job->fault_flags & KOHAKU_FAULT_NODE_KNOWN;

	/* pairs with kh_job_finalize(): the status, then the outcome */
	a->status = smp_load_acquire(&job->status);
	a->fault_flags = job->fault_flags;
	a->n_faults = job->n_faults;
	a->fault_code = (job->fault_flags & KOHAKU_FAULT_CODE_KNOWN) ?
			job->fault_code : 0;
	a->fault_mesh = node ? job->mesh->id : KOHAKU_COORD_NONE;
	a->fault_x = node ? job->fault_x : KOHAKU_COORD_NONE;
	a->fault_y = node ? job->fault_y : KOHAKU_COORD_NONE;
	a->device_ns = job->t_end > job->t_start ? job->t_end - job->t_start : 0;
	a->reason = a->status == KOHAKU_JOB_ERROR ||
		    a->status == KOHAKU_JOB_ABORTED ? job->why_code : 0;
}

/* The file's job @id that nobody has waited for, or NULL. */
static struct kh_job *kh_file_job(struct kh_file *kf, u64 id)
{
	struct kh_job *job;

	lockdep_assert_held(&kf->lock);
	list_for_each_entry(job, &kf->jobs, file_link)
		if (job->id == id)
			return job;
	return NULL;
}

/* Report a final job, and forget it unless another thread of the file did. */
static void kh_job_reap(struct kh_file *kf, struct kh_job *job,
			struct drm_kohaku_wait *a)
{
	lockdep_assert_held(&kf->lock);
	kh_job_report(job, a);
	if (!list_empty(&job->file_link)) {
		list_del_init(&job->file_link);
		kf->n_jobs--;
		kf->reaped_ns += a->device_ns;
		kf->reaped_jobs++;
		kh_job_put(job);	/* the file's */
	}
}

int kh_job_wait(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_wait *a = arg;
	struct kh_device *kd = kf->kd;
	struct kh_job *job;
	int ret;

	if (a->flags || a->reason_pad || a->reserved)
		return -EINVAL;
	mutex_lock(&kf->lock);
	job = kh_file_job(kf, a->job_id);
	if (job && kh_job_is_final(job)) {
		/* final already (a simulated card's SUBMIT ran it): at once */
		kh_job_reap(kf, job, a);
		mutex_unlock(&kf->lock);
		return 0;
	}
	if (job)
		refcount_inc(&job->ref);	/* this waiter's */
	mutex_unlock(&kf->lock);
	if (!job)
		return -ENOENT;

	ret = kh_engine_wait_job(kd, job, kh_now(kd) + kh_ms_to_ns(a->timeout_ms));
	if (ret == -ETIMEDOUT) {
		/*
		 * A consistent snapshot of a job still going; one that turned
		 * final after the wait gave up is done, and reported as done
		 * (never ETIMEDOUT with a final status).
		 */
		mutex_lock(&job->mesh->lock);
		if (kh_job_is_final(job))
			ret = 0;
		else
			kh_job_report(job, a);
		mutex_unlock(&job->mesh->lock);
	}
	if (!ret) {
		mutex_lock(&kf->lock);
		kh_job_reap(kf, job, a);
		mutex_unlock(&kf->lock);
	}
	kh_job_put(job);
	return ret;
}

/* File close: queued jobs never run; one on the device runs out. */
void kh_job_release_all(struct kh_file *kf)
{
	struct kh_job *job, *tmp;

	lockdep_assert_held(&kf->lock);
	list_for_each_entry_safe(job, tmp, &kf->jobs, file_link) {
		list_del_init(&job->file_link);
		mutex_lock(&job->mesh->lock);
		job->owner = NULL;	/* another file's, for the lease */
		if (READ_ONCE(job->status) == KOHAKU_JOB_QUEUED)
			kh_job_abort(job, KOHAKU_JOB_WHY_NONE, "its file was closed");
		mutex_unlock(&job->mesh->lock);
		kh_job_put(job);
	}
	kf->n_jobs = 0;
}
