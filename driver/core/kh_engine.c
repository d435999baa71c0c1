// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The device's progress engine: one worker per device advances every
 * mesh's job engine, retires jobs and wakes their waiters.  Nothing else
 * polls the card for jobs: SUBMIT and a signalled in-fence kick the worker,
 * and it runs until no job is in flight.  Waiters sleep on the device's
 * wait queue and never touch the card; the in-process host alone lets a
 * waiter do the worker's passes itself while the worker is idle
 * (kh_work_claim(): inline stepping, two thread switches a job saved),
 * one runner at a time either way.  Between passes with a job in flight
 * it rests: until the job interrupt on a card that raises one (kh_irq.c
 * counts it), else for a poll's pause.
 *
 * Device time on a simulated card passes only when the card is accessed.
 * While jobs are in flight the worker's polls make it pass; with nothing in
 * flight but waiters whose WAIT has a deadline, the worker lets device time
 * pass up to the nearest deadline (kh_hw_ops.idle_ns) and wakes them, so a
 * WAIT on a job that cannot run yet still ends at its timeout.  On a card
 * device time is wall time and waiters sleep until their own deadline.
 */
#include "kh_priv.h"

/*
 * Between two passes of the engine with a job in flight: on an interrupt
 * driven card, until the user interrupt (or a short bound, which no
 * interrupt may be trusted to spare: docs/spec/irq-addon.md "What a driver
 * may assume"); then the meshes' events are cleared, before the pass that
 * looks at what they announced.  Without interrupts, a poll's pause.
 */
static void kh_engine_rest(struct kh_device *kd)
{
	bool sim = kh_simulated(kd);
	u32 seen = READ_ONCE(kd->xdma.user_irqs);
	unsigned int i, steps;

	if (!READ_ONCE(kd->irq_jobs)) {
		kh_relax(kd);
		return;
	}
	if (sim && kd->hw.ops->idle_ns) {
		/* the model moves only while its time passes: in small steps */
		for (steps = 0; steps < KH_IRQ_SIM_STEPS &&
		     READ_ONCE(kd->xdma.user_irqs) == seen; steps++)
			kd->hw.ops->idle_ns(kd->hw.ctx, KH_IRQ_SIM_STEP_NS);
	} else {
		wait_event_interruptible_timeout(kd->xdma.wq,
						 READ_ONCE(kd->xdma.user_irqs) != seen,
						 kh_timeout(KH_IRQ_REST_NS));
	}
	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!kh_mesh_present(kd, i) || !(m->caps & KH_CAPS_IRQ_ADDON))
			continue;
		mutex_lock(&m->lock);
		kh_wr(m, KH_ORC_IRQ_STAT, kh_rd(m, KH_ORC_IRQ_STAT));
		mutex_unlock(&m->lock);
	}
}

/* One pass over the meshes; true while a job is on the device. */
static bool kh_engine_pass(struct kh_device *kd)
{
	bool busy = false;
	unsigned int i;

	for (i = 0; i < kd->n_meshes; i++) {
		struct kh_mesh *m = &kd->mesh[i];

		if (!(m->flags & KOHAKU_MESH_PRESENT))
			continue;
		mutex_lock(&m->lock);
		kh_mesh_step(m);
		busy |= kh_mesh_busy(m);
		mutex_unlock(&m->lock);
	}
	return busy;
}

/* Is a job queued that could start now (not waiting for an in-fence)? */
static bool kh_engine_runnable(struct kh_device *kd)
{
	bool runnable = false;
	unsigned int i;

	for (i = 0; i < kd->n_meshes && !runnable; i++) {
		struct kh_mesh *m = &kd->mesh[i];
		struct kh_job *head;

		if (!(m->flags & KOHAKU_MESH_PRESENT))
			continue;
		mutex_lock(&m->lock);
		if (!list_empty(&m->queue) && !(m->flags & KOHAKU_MESH_WEDGED)) {
			head = list_first_entry(&m->queue, struct kh_job, mesh_link);
			runnable = !head->in_cb_armed && kh_mesh_lets(m, head);
		}
		mutex_unlock(&m->lock);
	}
	return runnable;
}

/*
 * Wake the waiters when a deadline has passed (they look at their own), and
 * return the nearest deadline still ahead, ~0 when none is.
 */
static u64 kh_engine_expire(struct kh_device *kd, u64 now)
{
	struct kh_timed_wait *tw;
	bool passed = false;
	u64 next = ~0ULL;

	mutex_lock(&kd->timed_lock);
	list_for_each_entry(tw, &kd->timed, link) {
		/* a waiter whose job is final is on its way out */
		if (kh_job_is_final(tw->job))
			continue;
		if (tw->deadline <= now)
			passed = true;
		else if (tw->deadline < next)
			next = tw->deadline;
	}
	WRITE_ONCE(kd->next_deadline, next);
	mutex_unlock(&kd->timed_lock);
	if (passed) {
		WRITE_ONCE(kd->wake_gen, kd->wake_gen + 1);
		wake_up_all(&kd->waitq);
	}
	return next;
}

/*
 * Nothing in flight: let a simulated card's time pass to the nearest
 * deadline of a waiter.  False when no waiter has a deadline still ahead
 * (or the card is real: its waiters time themselves).
 */
static bool kh_engine_idle(struct kh_device *kd)
{
	u64 now, next;

	if (!kh_simulated(kd))
		return false;
	/* a job submitted since the pass looked: run it, do not skip time */
	if (kh_engine_runnable(kd))
		return true;
	/*
	 * A firmware load's own polls move the time (kh_fw_loading); so do
	 * the maintenance worker's (a reset, a recovery, a firmware boot
	 * after a reset, kh_maint.c): jobs held for it keep their time.
	 */
	if (READ_ONCE(kd->fw_loading) || kh_maint_pending(kd))
		return false;
	now = kh_now(kd);
	next = kh_engine_expire(kd, now);
	if (next == ~0ULL)
		return false;
	/*
	 * In steps, with a pass between: a job submitted after this pass
	 * looked at its mesh must not see a whole deadline go by unrun.
	 */
	if (kd->hw.ops->idle_ns)
		kd->hw.ops->idle_ns(kd->hw.ctx, min_t(u64, next - now,
						      KH_IDLE_STEP_NS));
	else	/* the model's time passes with an access */
		kh_rd(&kd->mesh[0], KH_ORC_CAPS);
	kh_engine_expire(kd, kh_now(kd));
	return true;
}

static void kh_engine_run(struct work_struct *work)
{
	struct kh_device *kd = container_of(work, struct kh_device, engine);
	bool sim = kh_simulated(kd);

	while (!READ_ONCE(kd->unplugged)) {
		if (kh_engine_pass(kd)) {
			/* device time moves on under the polls: deadlines too */
			if (sim && kh_now(kd) >= READ_ONCE(kd->next_deadline))
				kh_engine_expire(kd, kh_now(kd));
			kh_engine_rest(kd);
			continue;
		}
		if (!kh_engine_idle(kd))
			break;
	}
}

void kh_engine_kick(struct kh_device *kd)
{
	queue_work(kd->engine_wq, &kd->engine);
}

/* A queued job's in-fence signalled: the engine looks at it again. */
void kh_engine_fence_cb(struct dma_fence *f, struct dma_fence_cb *cb)
{
	struct kh_job *job = container_of(cb, struct kh_job, in_cb);

	kh_engine_kick(job->mesh->kd);
}

/* The waiters' side exists from the start; the worker once bring-up is done. */
void kh_engine_prepare(struct kh_device *kd)
{
	init_waitqueue_head(&kd->waitq);
	mutex_init(&kd->timed_lock);
	INIT_LIST_HEAD(&kd->timed);
	kd->next_deadline = ~0ULL;
}

int kh_engine_init(struct kh_device *kd)
{
	/*
	 * High priority, and per-CPU: a kick runs the engine on the CPU that
	 * kicked (the submitter's, which then sleeps in WAIT), so a job's
	 * round trip needs no other CPU.  A work item never runs twice at
	 * once, and a kick during a run queues one more.
	 */
	kd->engine_wq = alloc_workqueue("kohaku-%s", WQ_HIGHPRI, 0, kd->name);
	if (!kd->engine_wq)
		return -ENOMEM;
	INIT_WORK(&kd->engine, kh_engine_run);
	return 0;
}

/* Waits for the worker to stop; nothing kicks it afterwards. */
void kh_engine_fini(struct kh_device *kd)
{
	cancel_work_sync(&kd->engine);
	destroy_workqueue(kd->engine_wq);
	kd->engine_wq = NULL;
}

void kh_engine_destroy(struct kh_device *kd)
{
	mutex_destroy(&kd->timed_lock);
}

/*
 * Inline stepping (in-process only, kh_work_claim()): the waiter does
 * the engine's passes itself until its job is final, its deadline passes
 * or nothing is in flight, then gives the engine back.  True while jobs
 * were still in flight when it stopped.
 */
static bool kh_engine_help(struct kh_device *kd, struct kh_job *job,
			   u64 deadline)
{
	bool sim = kh_simulated(kd), busy = true;
	u64 now;

	while (busy && !kh_job_is_final(job) && !READ_ONCE(kd->unplugged)) {
		busy = kh_engine_pass(kd);
		now = kh_now(kd);
		if (sim && now >= READ_ONCE(kd->next_deadline))
			kh_engine_expire(kd, now);
		if (now >= deadline)
			break;
		if (busy)
			kh_engine_rest(kd);
	}
	kh_work_unclaim(kd->engine_wq, &kd->engine);
	/*
	 * Others' jobs still in flight, or this waiter about to sleep on a
	 * job that cannot run yet (device time must pass for its deadline):
	 * the worker's again.
	 */
	if (busy || !kh_job_is_final(job))
		kh_engine_kick(kd);
	return busy;
}

int kh_engine_wait_job(struct kh_device *kd, struct kh_job *job, u64 deadline)
{
	struct kh_timed_wait tw = { .deadline = deadline, .job = job };
	bool sim = kh_simulated(kd), help = true;
	int ret;

	if (kh_job_is_final(job))
		return 0;
	if (sim) {
		mutex_lock(&kd->timed_lock);
		list_add_tail(&tw.link, &kd->timed);
		if (deadline < kd->next_deadline)
			WRITE_ONCE(kd->next_deadline, deadline);
		mutex_unlock(&kd->timed_lock);
		/*
		 * A running job has the engine at work, which minds the
		 * deadline; a queued one may be stuck behind an in-fence with
		 * the engine asleep, and then device time must be let pass.
		 */
		if (READ_ONCE(job->status) == KOHAKU_JOB_QUEUED)
			kh_engine_kick(kd);
	}
	for (;;) {
		u64 now;
		u32 gen;
		long r;

		if (kh_job_is_final(job)) {
			ret = 0;
			break;
		}
		if (READ_ONCE(kd->unplugged)) {
			ret = -ENODEV;
			break;
		}
		now = kh_now(kd);
		if (now >= deadline) {
			/* it may have turned final since it was looked at */
			ret = kh_job_is_final(job) ? 0 : -ETIMEDOUT;
			break;
		}
		/* nothing to step for now: sleep until woken, then offer again */
		if (help && kh_work_claim(kd->engine_wq, &kd->engine)) {
			help = kh_engine_help(kd, job, deadline);
			continue;
		}
		help = true;
		gen = READ_ONCE(kd->wake_gen);
		r = wait_event_interruptible_timeout(kd->waitq,
						     kh_job_is_final(job) ||
						     READ_ONCE(kd->unplugged) ||
						     READ_ONCE(kd->wake_gen) != gen,
						     kh_timeout(sim ? KH_WAIT_SLICE_NS :
								deadline - now));
		if (r < 0) {
			ret = -EINTR;
			break;
		}
	}
	if (sim) {
		mutex_lock(&kd->timed_lock);
		list_del(&tw.link);
		mutex_unlock(&kd->timed_lock);
	}
	return ret;
}
