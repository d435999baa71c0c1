// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Mesh reset, as the driver sees it (docs/driver-core.md "Mesh reset").
 *
 * A mesh's resetn follows its clock wizard's lock (kohakutpu.md 8.5,
 * 12.4): a retune or an SW_RST write by anyone on the card's bus resets
 * that mesh and only it, with no interrupt and no status bit that says so
 * afterwards.  The orchestrator's CTRL register is stored only and has a
 * reset clause, so the driver keeps a canary in it: CTRL not holding the
 * canary means the mesh was reset since it was written.
 *
 * It is read where a reset matters: once per job before anything of it is
 * sent, once per KH_RESET_CHECK_NS of device time while a job is on the
 * mesh, before a job is declared TIMEOUT or its nodes hung, and before a
 * job is refused for an earlier hang (a hung node, a wedged mesh), which a
 * reset cures.
 *
 * What a reset did, the driver's books then say: the job on the mesh lost
 * its instructions and ends ABORTED (KOHAKU_JOB_WHY_MESH_RESET); hung
 * marks and the credit held back for them are stale; a wedge is gone; the
 * POOL units' firmware stopped; IRQ_EN is clear; writes that landed in the
 * reset window were lost, so the staging RAM's shadow is dropped (the RAM
 * itself has no reset clause).  Device memory and NODE_STATUS are kept.
 * Nothing is sent to the mesh until its wizard has relocked and a write
 * sticks again; queued jobs wait for that and then run.
 */
#include "kh_priv.h"

/*
 * The canary as CTRL reads it back: on a 32-bit control path only its low
 * half goes in (a write at +0 stores the beat, the value twice) and only
 * the low half reads back (CTRL's high half reads 0 there).
 */
static u64 kh_canary(struct kh_mesh *m)
{
	return kh_ctrl32(m->kd) ? (u32)KH_CTRL_CANARY : KH_CTRL_CANARY;
}

void kh_mesh_canary_write(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	kh_wr(m, KH_ORC_CTRL, kh_canary(m));
}

/* The driver's books after a reset: see the file's comment. */
static void kh_mesh_forget(struct kh_mesh *m)
{
	unsigned int i, hung = 0, fw = 0;

	m->run = KH_RUN_IDLE;
	m->disp_idle = true;
	m->late_credit = 0;
	m->late_peers = 0;
	memset(m->stage_known, 0, KH_ORC_STAGE_FLITS);
	m->tx_known = 0;
	memset(m->ctrl_lost, 0, sizeof(m->ctrl_lost));
	m->rx_overflow_seen = false;
	for (i = 0; i < m->n_nodes; i++) {
		struct kh_node *n = &m->nodes[i];

		hung += !!(n->flags & KOHAKU_NODE_HUNG);
		n->flags &= ~KOHAKU_NODE_HUNG;
		n->hung_left = 0;
		n->hung_inst = 0;
		n->hung_peer = 0;
		n->hung_last = false;
		n->regs_read = false;
		n->cpu_dbg_kept = false;	/* the reset cleared CU_DBG */
		if (n->fw_state == KOHAKU_FW_STATE_RUNNING ||
		    n->fw_state == KOHAKU_FW_STATE_BOOTING) {
			n->fw_state = KOHAKU_FW_STATE_ABSENT;
			fw++;
		}
	}
	if (hung) {
		kh_info(m->kd, "mesh %u: the reset cleared %u hung node(s); they take jobs again\n",
			m->id, hung);
		/* nothing they owed will come: memory freed meanwhile goes back */
		kh_deferred_release(m->kd);
	}
	m->fw_stopped += fw;
	if (fw && !m->kd->fw_image)
		kh_warn(m->kd, "mesh %u: the reset stopped the firmware on %u POOL unit(s); load it again (FW_LOAD, `kohaku fw load`)\n",
			m->id, fw);
	else if (fw)
		kh_info(m->kd, "mesh %u: the reset stopped the firmware on %u POOL unit(s); they boot again from the image the driver keeps\n",
			m->id, fw);
	/* a wedge from bring-up (no nodes enumerated) needs a new probe */
	if ((m->flags & KOHAKU_MESH_WEDGED) && m->n_nodes &&
	    !(m->flags & KOHAKU_MESH_MIXED_VERSION)) {
		m->flags &= ~KOHAKU_MESH_WEDGED;
		m->flags |= KOHAKU_MESH_READY;
		kh_info(m->kd, "mesh %u: the reset cleared its wedge; it takes jobs again\n",
			m->id);
	}
}

/*
 * The mesh was reset (@by says by whom): the job on it lost its
 * instructions and ends ABORTED @code; the books are forgotten.
 */
static void kh_mesh_was_reset(struct kh_mesh *m, const char *by, u32 code,
			      const char *why)
{
	struct kh_device *kd = m->kd;
	struct kh_job *job = m->job;

	m->resets++;
	m->resetting = true;
	m->planned = false;
	m->reset_seen_ns = kh_now(kd);
	if (job && !kh_job_is_final(job))
		kh_err(kd, "mesh %u was reset (%s); job %llu, on it, lost its instructions and is aborted\n",
		       m->id, by, job->id);
	else
		kh_warn(kd, "mesh %u was reset (%s)\n", m->id, by);
	if (job) {
		/* a job that already timed out keeps its TIMEOUT */
		if (!kh_job_is_final(job)) {
			job->t_end = m->reset_seen_ns;
			kh_job_end_aborted(job, code, why);
		}
		kh_mesh_job_off(m, job);
	}
	kh_mesh_forget(m);
}

/*
 * The wizard's clocks changed under the driver on an idle mesh (kh_clk.c
 * kh_clk_watch()), but the mesh kept the canary: another agent's SW_RST or
 * retune came while the driver was bringing the mesh back from a reset of
 * its own, whose recovery wrote the canary after it.  The mesh was reset
 * all the same, and it is back: count it, there is nothing to wait for.
 */
void kh_mesh_reset_missed(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	m->resets++;
	m->reset_seen_ns = kh_now(m->kd);
	kh_warn(m->kd, "mesh %u was reset by another agent while the driver brought it back from its own\n",
		m->id);
}

/*
 * The driver's own retune (kh_clk.c): a reset it planned, with no job on
 * the mesh.  The books are those of any reset; nothing is aborted and the
 * reset is not counted as one seen (the governor counts its retunes).
 */
void kh_mesh_planned_reset(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	m->resetting = true;
	m->planned = true;
	m->reset_seen_ns = kh_now(m->kd);
	kh_mesh_forget(m);
}

/*
 * Reset the mesh now through its wizard's SW_RST (a reset asked for, or
 * an automatic recovery): the job on it ends ABORTED @code.
 */
void kh_mesh_reset_now(struct kh_mesh *m, const char *by, u32 code,
		       const char *why)
{
	lockdep_assert_held(&m->lock);
	kh_clk_sw_rst(m);
	kh_mesh_was_reset(m, by, code, why);
}

static bool kh_mesh_locked(struct kh_mesh *m)
{
	const struct kh_hw *hw = &m->kd->hw;

	if (!hw->ops->bar_read32)
		return true;	/* no wizard to ask: the canary alone says */
	return hw->ops->bar_read32(hw->ctx, 0, KH_CLKWIZ_BASE(m->id) +
				   KH_CLK_STATUS) & KH_CLK_LOCKED;
}

/*
 * True when the mesh was reset since the canary was last written: the job
 * on it has ended and the mesh waits for its relock (kh_mesh_reset_wait).
 */
bool kh_mesh_reset_check(struct kh_mesh *m)
{
	bool busy;

	lockdep_assert_held(&m->lock);
	if (m->resetting)
		return true;
	if (kh_rd(m, KH_ORC_CTRL) == kh_canary(m))
		return false;
	busy = m->job && m->run != KH_RUN_IDLE;
	kh_mesh_was_reset(m, "its clock wizard lost lock: a clock retune or an SW_RST by another agent",
			  KOHAKU_JOB_WHY_MESH_RESET, "its mesh was reset while it ran");
	/*
	 * Seen only after the mesh came back, with a job on it: what the
	 * engine wrote since the reset (kicks, credit, staged flits) may have
	 * landed in the fresh orchestrator and still be running, where no
	 * book can account for it (its credit would count as the next job's
	 * faults).  A reset at a time the driver knows clears it all.
	 */
	if (busy && kh_mesh_locked(m) && kh_clk_reachable(m->kd)) {
		kh_warn(m->kd, "mesh %u: the reset was seen after the mesh came back, with a job on it; resetting it again so nothing written since runs on\n",
			m->id);
		kh_clk_sw_rst(m);
		m->reset_seen_ns = kh_now(m->kd);
	}
	return true;
}

/*
 * A reset was seen: true while the mesh is still in it.  Once the wizard
 * has relocked, the canary is written and read back (a write inside the
 * recovery window after the release is lost, kohakutpu.md 12.4), IRQ_EN
 * set again, and the mesh takes jobs.  A mesh not back within
 * KH_RESET_WAIT_NS is wedged.
 */
bool kh_mesh_reset_wait(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;
	u64 waited;

	lockdep_assert_held(&m->lock);
	if (!m->resetting)
		return false;
	waited = kh_now(kd) - m->reset_seen_ns;
	if (kh_mesh_locked(m)) {
		kh_mesh_canary_write(m);
		if (kh_rd(m, KH_ORC_CTRL) == kh_canary(m)) {
			kh_mesh_irq_rearm(m);
			m->resetting = false;
			if (!m->planned)
				kh_info(kd, "mesh %u is out of reset after %llu us of device time; its jobs go on\n",
					m->id, waited / 1000);
			else
				kh_dbg(kd, "mesh %u: retuned in %llu us of device time\n",
				       m->id, waited / 1000);
			/* an SW_RST put the built clocks back: read them */
			if (!m->planned)
				kh_clk_after_reset(m);
			m->planned = false;
			kh_maint_after_reset(m);
			return false;
		}
	}
	if (waited < KH_RESET_WAIT_NS)
		return true;
	m->resetting = false;
	kh_mesh_wedge(m, "it did not come out of reset (its clock wizard does not relock)");
	return false;
}

/*
 * Wait a reset under way out, the mesh's lock dropped between looks (the
 * wait is bounded: kh_mesh_reset_wait() wedges a mesh that does not come
 * back).  False when it did not come back.
 */
bool kh_mesh_reset_wait_out(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	while (kh_mesh_reset_wait(m)) {
		mutex_unlock(&m->lock);
		kh_relax(m->kd);
		mutex_lock(&m->lock);
	}
	return !(m->flags & KOHAKU_MESH_WEDGED);
}
