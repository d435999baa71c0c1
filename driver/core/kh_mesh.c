// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A mesh's state as its job engine (kh_dispatch.c), its reset handling
 * (kh_reset.c) and the interrupt setup (kh_irq.c) change it, below them
 * all: the job on the mesh leaving it, the queue aborted, the mesh wedged,
 * whether the engine must keep passing, and the job events the mesh
 * raises.  Everything here runs with the mesh's lock held and calls down
 * into the job object (kh_job.c) only.
 */
#include "kh_priv.h"

void kh_mesh_job_off(struct kh_mesh *m, struct kh_job *job)
{
	lockdep_assert_held(&m->lock);
	/* before its memory can be released (kh_job_unlist) */
	kh_pool_bounds_revoke(m, job);
	m->job = NULL;
	m->run = KH_RUN_IDLE;
	kh_job_unlist(m->kd, job);
	kh_job_put(job);	/* the mesh's */
}

void kh_mesh_abort_queue(struct kh_mesh *m, u32 code, const char *why)
{
	struct kh_job *job, *tmp;

	lockdep_assert_held(&m->lock);
	list_for_each_entry_safe(job, tmp, &m->queue, mesh_link)
		kh_job_abort(job, code, why);
}

/* a job on the mesh, or a reset to wait out: the engine keeps passing */
bool kh_mesh_busy(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	return m->job != NULL || m->resetting;
}

void kh_mesh_wedge(struct kh_mesh *m, const char *why)
{
	lockdep_assert_held(&m->lock);
	m->flags |= KOHAKU_MESH_WEDGED;
	m->flags &= ~KOHAKU_MESH_READY;
	kh_err(m->kd, "mesh %u is wedged: %s; queued jobs are aborted; a mesh reset (a clock wizard SW_RST) or reprogramming the card clears it\n",
	       m->id, why);
	kh_mesh_abort_queue(m, KOHAKU_JOB_WHY_MESH_WEDGED, why);
}

/* the orchestrator events that move a job: a signal, a fault, a kick done */
#define KH_IRQ_JOB_EVENTS	(KH_IRQ_SIGNAL | KH_IRQ_FAULT | KH_IRQ_PROG_DONE)

/* The mesh raises its job events on the user interrupt (the IRQ addon). */
void kh_mesh_irq_enable(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	kh_wr(m, KH_ORC_IRQ_STAT, KH_IRQ_ALL);
	kh_wr(m, KH_ORC_IRQ_EN, KH_IRQ_JOB_EVENTS);
}

/* A mesh reset cleared IRQ_EN: the mesh raises its events again. */
void kh_mesh_irq_rearm(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	if (READ_ONCE(m->kd->irq_jobs) && (m->caps & KH_CAPS_IRQ_ADDON))
		kh_mesh_irq_enable(m);
}

/* How many nodes of the mesh are marked hung. */
unsigned int kh_mesh_hung_nodes(const struct kh_mesh *m)
{
	unsigned int i, hung = 0;

	for (i = 0; i < m->n_nodes; i++)
		hung += !!(m->nodes[i].flags & KOHAKU_NODE_HUNG);
	return hung;
}
