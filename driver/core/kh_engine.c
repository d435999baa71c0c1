// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The device's progress engine: it advances every mesh's job engine,
 * retires jobs and wakes their waiters.  Nothing else polls the card for
 * jobs.  One runner at a time has the engine (kh_engine_claim()): the
 * device's worker, which SUBMIT and a signalled in-fence kick and which
 * runs until no job is in flight; or, on a simulated card only, a thread
 * that SUBMIT or WAIT brought into the driver, which runs the passes
 * itself while nobody else does (inline stepping: SUBMIT for a bounded
 * span of the host's time, WAIT until its job is final or its deadline),
 * so that a job needs no worker woken and no thread switch.  A real card
 * is only ever run by the worker: no syscall waits on its hardware here.
 * Waiters that do not run the engine sleep on the device's wait queue and
 * never touch the card.  Between passes with a job in flight the runner
 * rests: until the job interrupt on a card that raises one (kh_irq.c
 * counts it), else for a poll's pause.
 *
 * Device time on a simulated card passes only when the card is accessed.
 * While jobs are in flight the runner's polls make it pass; with nothing in
 * flight but waiters whose WAIT has a deadline, the worker lets device time
 * pass up to the nearest deadline (kh_hw_ops.idle_ns) and wakes them, so a
 * WAIT on a job that cannot run yet still ends at its timeout.  On a card
 * device time is wall time and waiters sleep until their own deadline.
 */
#include <linux/ktime.h>
#include <linux/sched/signal.h>

#include "kh_priv.h"

/*
 * Who runs the engine: one runner at a time, the worker or a thread
 * stepping a simulated card inline.  A kick is counted, and queues the
 * worker only while nobody runs the engine; a runner letting it go looks
 * at the count, and a kick that came after its last look began (which
 * found the engine taken and queued nothing) is looked at again.  No kick
 * is lost, and none made while the engine runs costs a run of the worker
 * (the job interrupt a rest waits for, the in-fence a pass will see).
 */
static bool kh_engine_claim(struct kh_device *kd)
{
	/* fully ordered: what the last runner did is seen */
	return atomic_cmpxchg(&kd->engine_run, 0, 1) == 0;
}

/* The kicks so far, read before a look at the device. */
static int kh_engine_seen(struct kh_device *kd)
{
	return atomic_read_acquire(&kd->engine_kicks);
}

/*
 * Let the engine go; true when a kick came since @seen, the count the
 * runner's last look began with.
 */
static bool kh_engine_release(struct kh_device *kd, int seen)
{
	/* fully ordered: let go, then read the count (kh_engine_kick()) */
	WARN_ON_ONCE(atomic_xchg(&kd->engine_run, 0) != 1);
	return atomic_read(&kd->engine_kicks) != seen;
}

void kh_engine_kick(struct kh_device *kd)
{
	/* what the kick announces, the count, then the look at the runner */
	smp_mb__before_atomic();
	atomic_inc(&kd->engine_kicks);
	smp_mb__after_atomic();
	if (!atomic_read(&kd->engine_run))
		queue_work(kd->engine_wq, &kd->engine);
}

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
	int seen;

	/* another runner has it, and sees the kick that queued this */
	if (!kh_engine_claim(kd))
		return;
	for (;;) {
		seen = kh_engine_seen(kd);
		if (!READ_ONCE(kd->unplugged)) {
			if (kh_engine_pass(kd)) {
				/* device time moves on under the polls: deadlines too */
				if (sim && READ_ONCE(kd->next_deadline) != ~0ULL &&
				    kh_now(kd) >= READ_ONCE(kd->next_deadline))
					kh_engine_expire(kd, kh_now(kd));
				kh_engine_rest(kd);
				continue;
			}
			if (kh_engine_idle(kd))
				continue;
		}
		/* nothing to do: let go, unless a kick came since the look */
		if (!kh_engine_release(kd, seen) || !kh_engine_claim(kd))
			return;
	}
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
	atomic_set(&kd->engine_run, 0);
	atomic_set(&kd->engine_kicks, 0);
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
	 * once; a kick while anyone runs the engine queues nothing (the
	 * runner looks at it when it lets go).
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
 * Inline stepping, by the thread that claimed the engine (a simulated
 * card's SUBMIT or WAIT): the engine's passes in the calling thread until
 * @job is final, nothing is in flight, device time reaches @deadline, the
 * host's time @until, or a signal is pending.  Then the engine goes back,
 * to the worker if jobs are still in flight, if a kick came meanwhile, or
 * (@waiter, about to sleep on a job that cannot run yet) for device time
 * to pass up to the waiters' deadlines.  True while jobs were in flight
 * when it stopped.
 */
static bool kh_engine_step(struct kh_device *kd, struct kh_job *job,
			   u64 deadline, u64 until, bool waiter)
{
	bool busy = false;
	u64 now, next;
	int seen;

	for (;;) {
		seen = kh_engine_seen(kd);
		if (kh_job_is_final(job) || READ_ONCE(kd->unplugged))
			break;
		busy = kh_engine_pass(kd);
		/* device time moves on under the polls: deadlines too */
		next = READ_ONCE(kd->next_deadline);
		now = min_t(u64, next, deadline) == ~0ULL ? 0 : kh_now(kd);
		if (next != ~0ULL && now >= next)
			kh_engine_expire(kd, now);
		if (!busy || now >= deadline || signal_pending(current) ||
		    (until != ~0ULL && ktime_get_ns() >= until))
			break;
		kh_engine_rest(kd);
		cond_resched();
	}
	if (kh_engine_release(kd, seen) || busy ||
	    (waiter && !kh_job_is_final(job)))
		queue_work(kd->engine_wq, &kd->engine);
	return busy;
}

/*
 * SUBMIT queued @job (the caller holds a reference).  On a simulated card
 * that nobody runs, the submitter runs it: no worker woken, no thread
 * switch, and the job usually final when SUBMIT returns; for a bounded
 * span of the host's time (KH_SUBMIT_STEP_NS), after which, as when the
 * job cannot start yet, the worker has what is in flight.  A card's job
 * is the worker's.
 */
void kh_engine_submitted(struct kh_device *kd, struct kh_job *job)
{
	if (!kh_simulated(kd) || !kh_engine_claim(kd)) {
		kh_engine_kick(kd);
		return;
	}
	kh_engine_step(kd, job, ~0ULL, ktime_get_ns() + KH_SUBMIT_STEP_NS,
		       false);
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
		/*
		 * A simulated card nobody runs: run it, until the deadline.
		 * Nothing to step for now: sleep until woken, then offer again.
		 */
		if (help && sim && !signal_pending(current) &&
		    kh_engine_claim(kd)) {
			help = kh_engine_step(kd, job, deadline, ~0ULL, true);
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
		/* the last waiter gone: no deadline for the runners to mind */
		if (list_empty(&kd->timed))
			WRITE_ONCE(kd->next_deadline, ~0ULL);
		mutex_unlock(&kd->timed_lock);
	}
	return ret;
}
