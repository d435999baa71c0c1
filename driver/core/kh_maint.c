// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The driver's own work on a mesh, outside any job (docs/driver-core.md
 * "Resets the driver makes"): resets asked for (DRM_KOHAKU_RESET),
 * automatic recovery after a hang, the governor's idle retunes, and
 * booting the POOL units' firmware again after any reset.
 *
 * One worker per device (a delayed work item: it also wakes when a raised
 * mesh's idle window ends) looks at every mesh in turn.  While it works on
 * a mesh the mesh is held (m->maint_hold): only the driver's own jobs (the
 * firmware loader's) are dispatched there; queued jobs wait and run after.
 * Everything a reset did to the driver's books is kh_reset.c's.
 */
#include "kh_priv.h"

/*
 * The driver has work of its own to do on a mesh (a recovery due, a
 * firmware boot, a reset under way: the mesh holds its jobs for it).  The
 * engine skips no simulated time to a waiter's deadline meanwhile, and
 * the worker does not wait for an idle window before its next pass.
 */
bool kh_maint_pending(struct kh_device *kd)
{
	unsigned int i;

	for (i = 0; i < kd->n_meshes; i++) {
		const struct kh_mesh *m = &kd->mesh[i];

		if (READ_ONCE(m->maint_hold) || READ_ONCE(m->recover_due) ||
		    READ_ONCE(m->fw_reboot))
			return true;
	}
	return false;
}

void kh_maint_kick(struct kh_device *kd)
{
	if (kd->maint_wq && !READ_ONCE(kd->unplugged)) {
		/* seen by a pass under way, whose own rescheduling follows */
		WRITE_ONCE(kd->maint_again, true);
		mod_delayed_work(kd->maint_wq, &kd->maint, 0);
	}
}

/*
 * A reset is over (kh_mesh_reset_wait): POOL units it stopped boot the
 * kept image again, before any job of a user reaches the mesh.
 */
void kh_maint_after_reset(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;

	lockdep_assert_held(&m->lock);
	if (m->fw_stopped && READ_ONCE(kd->fw_image) && !READ_ONCE(kd->fw_loading) &&
	    !m->fw_quarantine) {
		WRITE_ONCE(m->fw_reboot, true);
		WRITE_ONCE(m->maint_hold, true);
		kh_maint_kick(kd);
	} else if (m->fw_stopped && m->fw_quarantine) {
		kh_warn(kd, "mesh %u: its %u POOL unit(s) stay without firmware: %s %s; load firmware to run them again\n",
			m->id, m->fw_stopped, kd->fw_name, m->fw_quarantine_why);
	}
	m->fw_stopped = 0;
}

/*
 * After a reset that cleared a wedge or hung nodes: every node answers
 * with the CU_CAPS it had at bring-up (the same image), or the mesh is
 * wedged and says so.
 */
static int kh_maint_reverify(struct kh_mesh *m)
{
	int ret;

	lockdep_assert_held(&m->lock);
	ret = kh_mesh_reverify(m);
	if (ret)
		kh_mesh_wedge(m, "its nodes did not answer as enumerated after the reset (reprogrammed? rebind the driver)");
	return ret;
}

/* The POOL units of @m boot the kept image again; how many run. */
static unsigned int kh_maint_fw(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;
	unsigned int n;

	/* after maint_lock: a user's load runs first, or waits for this */
	mutex_lock(&kd->fw_lock);
	n = kh_fw_reboot_mesh(m);
	mutex_unlock(&kd->fw_lock);
	return n;
}

/*
 * Reset @m now, wait until it takes jobs again and bring it back: nodes
 * checked, clocks governed, firmware booted.  The caller has set
 * maint_hold; the lock is held on entry and exit (dropped on the way).
 */
static int kh_maint_reset(struct kh_mesh *m, const char *by, u32 code,
			  struct drm_kohaku_reset *out)
{
	u64 t0 = kh_now(m->kd);
	u32 hung, fw;
	bool aborted;

	lockdep_assert_held(&m->lock);
	/* what the reset ends and clears: the job on the mesh, hung marks */
	aborted = m->job && !kh_job_is_final(m->job);
	hung = kh_mesh_hung_nodes(m);
	kh_mesh_reset_now(m, by, code, code == KOHAKU_JOB_WHY_RESET_ASKED ?
			  "a reset of its mesh was asked for while it ran" :
			  "its mesh was reset to recover from a hang");
	if (out) {
		out->aborted = aborted;
		out->hung_cleared = hung;
	}
	/* (a wedge is cleared with the books: kh_reset.c) */
	if (!kh_mesh_reset_wait_out(m) || kh_maint_reverify(m))
		return -EIO;
	/* SW_RST put the built clocks back: the governor's profile again */
	if (kh_clk_settle(m) && !kh_mesh_reset_wait_out(m))
		return -EIO;
	if (m->fw_reboot) {
		mutex_unlock(&m->lock);
		fw = kh_maint_fw(m);
		mutex_lock(&m->lock);
		if (out)
			out->fw_units = fw;
	}
	if (out)
		out->device_ns = kh_now(m->kd) - t0;
	return 0;
}

/* Take the mesh for the driver's own work: no job of a user on it. */
static void kh_maint_take(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	WRITE_ONCE(m->maint_hold, true);
}

static void kh_maint_let_go(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	/* a boot cut short by another reset goes again first */
	if (m->fw_reboot) {
		kh_maint_kick(m->kd);
		return;
	}
	WRITE_ONCE(m->maint_hold, false);
	kh_engine_kick(m->kd);
}

/*
 * DRM_KOHAKU_RESET: reset @mesh as asked, and return once it takes jobs
 * again.  The job on it (if any) ends ABORTED; queued jobs run after.
 */
int kh_device_mesh_reset(struct kh_device *kd, struct drm_kohaku_reset *a)
{
	struct kh_mesh *m;
	int ret;

	if (a->flags || a->pad || !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->mesh >= kd->n_meshes || !kh_mesh_present(kd, a->mesh))
		return -EINVAL;
	m = &kd->mesh[a->mesh];
	if (!kh_clk_reachable(kd)) {
		kh_err(kd, "mesh %u: reset refused: this host cannot reach the clock wizard\n",
		       m->id);
		return -EOPNOTSUPP;
	}
	mutex_lock(&kd->maint_lock);
	mutex_lock(&m->lock);
	kh_maint_take(m);
	kh_info(kd, "mesh %u: reset asked for\n", m->id);
	m->resets_asked++;
	ret = kh_maint_reset(m, "a reset was asked for (DRM_KOHAKU_RESET)",
			     KOHAKU_JOB_WHY_RESET_ASKED, a);
	m->recover_run = 0;
	kh_maint_let_go(m);
	if (!ret)
		kh_info(kd, "mesh %u: reset done in %llu us of device time: %u job(s) aborted, %u hung mark(s) cleared, firmware on %u POOL unit(s)\n",
			m->id, a->device_ns / 1000, a->aborted, a->hung_cleared,
			a->fw_units);
	mutex_unlock(&m->lock);
	mutex_unlock(&kd->maint_lock);
	return ret;
}

int kh_ioctl_reset(struct kh_file *kf, void *arg)
{
	return kh_device_mesh_reset(kf->kd, arg);
}

/*
 * A job timed out and left hung nodes or a wedge (kh_recover()): with
 * automatic recovery the worker resets the mesh before its next job.
 */
/* Does the mesh run POOL firmware the driver boots again after a reset? */
static bool kh_maint_has_fw(const struct kh_mesh *m)
{
	unsigned int i;

	if (!READ_ONCE(m->kd->fw_image) || m->fw_quarantine)
		return false;
	for (i = 0; i < m->n_nodes; i++)
		if (m->nodes[i].fw_state == KOHAKU_FW_STATE_RUNNING)
			return true;
	return false;
}

void kh_maint_recover(struct kh_mesh *m, const char *why)
{
	lockdep_assert_held(&m->lock);
	if (!m->recover_max || !kh_clk_reachable(m->kd))
		return;
	/*
	 * The limit reached on a mesh whose POOL firmware is booted again
	 * after every reset: the firmware may be what hangs it (an image
	 * passes every check and still loops or jams the mesh).  One last
	 * recovery without it before the mesh is given up: its POOL units
	 * stay ABSENT until a firmware load, and the log says so.
	 */
	if (m->recover_run >= m->recover_max && kh_maint_has_fw(m)) {
		m->fw_quarantine = true;
		m->fw_quarantine_why = "hung the mesh again and again";
		kh_err(m->kd, "mesh %u: %s again after %u automatic recoveries in a row; resetting it once more without its POOL firmware (%s), which stays stopped until a firmware load (`kohaku fw load`)\n",
		       m->id, why, m->recover_run, m->kd->fw_name);
		WRITE_ONCE(m->recover_due, true);
		kh_maint_take(m);
		kh_maint_kick(m->kd);
		return;
	}
	if (m->recover_run >= m->recover_max + m->fw_quarantine) {
		if (!(m->flags & KOHAKU_MESH_WEDGED)) {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "%s again after %u automatic recoveries in a row with no job completing in between; left for a person (`kohaku reset --mesh %u`)",
				 why, m->recover_run, m->id);
			kh_mesh_wedge(m, msg);
		}
		return;
	}
	WRITE_ONCE(m->recover_due, true);
	kh_maint_take(m);
	kh_maint_kick(m->kd);
}

/*
 * Writes still landing KH_SETTLE_MAX_NS after every unit of @job retired:
 * a unit of the mesh writes memory with no job asking it to.  On a mesh
 * that runs POOL firmware that is the firmware (no other unit runs on its
 * own): the mesh is reset and its POOL units stay without firmware until
 * a load, as after the last automatic recovery.  Said once per image.
 */
/*
 * Stop a POOL firmware that reaches memory on its own: the mesh reset,
 * its POOL units left without firmware until a load.  False (and nothing
 * done) when automatic recovery cannot: then it runs on.
 */
static bool kh_maint_stop_fw(struct kh_mesh *m, const char *why)
{
	lockdep_assert_held(&m->lock);
	if (!kh_maint_has_fw(m) || !m->recover_max || !kh_clk_reachable(m->kd))
		return false;
	if (m->fw_quarantine)
		return true;
	m->fw_quarantine = true;
	m->fw_quarantine_why = why;
	WRITE_ONCE(m->recover_due, true);
	kh_maint_take(m);
	kh_maint_kick(m->kd);
	return true;
}

void kh_maint_unbidden_writes(struct kh_mesh *m, const struct kh_job *job)
{
	struct kh_device *kd = m->kd;

	if (kh_maint_stop_fw(m, "wrote memory with no job")) {
		kh_err(kd, "mesh %u: memory writes go on %llu us after job %llu's units retired, with no job asking for them: the POOL firmware (%s) writes on its own; resetting the mesh, its POOL units stay without firmware until a firmware load (`kohaku fw load`)\n",
		       m->id, KH_SETTLE_MAX_NS / 1000, job->id, kd->fw_name);
		return;
	}
	if (!m->unbidden_said)
		kh_warn(kd, "mesh %u: memory writes go on %llu us after job %llu's units retired, with no job asking for them%s; every job there ends that late\n",
			m->id, KH_SETTLE_MAX_NS / 1000, job->id,
			kh_maint_has_fw(m) ? " (the POOL firmware?): automatic recovery is off" : "");
	m->unbidden_said = true;
}

/*
 * A POOL unit's bounds refused an access with no job on the unit
 * (kh_pool_bounds.c): nothing reached memory, but the firmware reaches
 * for it on its own, the bug kh_maint_unbidden_writes() stops when no
 * bounds are there to refuse it.  Stopped the same way.
 */
void kh_maint_fw_strays(struct kh_mesh *m, const struct kh_node *n)
{
	struct kh_device *kd = m->kd;

	if (kh_maint_stop_fw(m, "reached memory with no job")) {
		kh_err(kd, "mesh %u: the POOL firmware (%s) at (%u,%u) reaches memory with no job: resetting the mesh, its POOL units stay without firmware until a firmware load (`kohaku fw load`)\n",
		       m->id, kd->fw_name, n->x, n->y);
		return;
	}
	if (!m->unbidden_said)
		kh_warn(kd, "mesh %u: the POOL firmware reaches memory with no job (the unit's bounds refuse it); automatic recovery is off, so it runs on\n",
			m->id);
	m->unbidden_said = true;
}

/* A job completed on @m: the recoveries before it helped. */
void kh_maint_job_done(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	m->recover_run = 0;
}

static void kh_maint_mesh(struct kh_mesh *m, u64 *next)
{
	struct kh_device *kd = m->kd;
	unsigned int fw;
	u64 in;

	mutex_lock(&m->lock);
	if (!kh_mesh_reset_wait_out(m)) {
		/* it did not come back: wedged, and nothing left to do on it */
		WRITE_ONCE(m->recover_due, false);
		WRITE_ONCE(m->fw_reboot, false);
		WRITE_ONCE(m->maint_hold, false);
		goto out;
	}
	if (m->recover_due && !m->job) {
		WRITE_ONCE(m->recover_due, false);
		m->recoveries++;
		m->recover_run++;
		kh_warn(kd, "mesh %u: automatic recovery %u (in a row: %u of %u): resetting the mesh\n",
			m->id, m->recoveries, m->recover_run, m->recover_max);
		if (!kh_maint_reset(m, "automatic recovery after a hang",
				    KOHAKU_JOB_WHY_MESH_RESET, NULL))
			kh_info(kd, "mesh %u: recovered; its queued jobs run\n", m->id);
		kh_maint_let_go(m);
	}
	if (!m->maint_hold && kh_clk_want(m))
		kh_mesh_reset_wait_out(m);
	if (m->fw_reboot) {
		mutex_unlock(&m->lock);
		fw = kh_maint_fw(m);
		mutex_lock(&m->lock);
		kh_dbg(kd, "mesh %u: firmware running again on %u POOL unit(s)\n",
		       m->id, fw);
		kh_maint_let_go(m);
	}
	/*
	 * An idle mesh's wizard looked at once an idle window: an SW_RST by
	 * another agent, or a reprogramming, puts the built clocks back with
	 * nothing to say so, and the idle profile goes on again at once.
	 */
	if (kh_clk_watch(m))
		kh_mesh_reset_wait_out(m);
	in = kh_clk_idle_in(m);
	if (in < *next)
		*next = in;
out:
	mutex_unlock(&m->lock);
}

static void kh_maint_run(struct work_struct *w)
{
	struct kh_device *kd = container_of(w, struct kh_device, maint.work);
	u64 next = ~0ULL;
	unsigned int i;

	WRITE_ONCE(kd->maint_again, false);
	mutex_lock(&kd->maint_lock);
	for (i = 0; i < kd->n_meshes && !READ_ONCE(kd->unplugged); i++)
		if (kh_mesh_present(kd, i))
			kh_maint_mesh(&kd->mesh[i], &next);
	mutex_unlock(&kd->maint_lock);
	if (READ_ONCE(kd->unplugged))
		return;
	/*
	 * Work left (a boot another reset cut short, a recovery due since
	 * the pass looked): again at once, not after the idle window, which
	 * would put off the kick that asked for it.  Else look again when a
	 * mesh's idle window ends.
	 */
	if (next != ~0ULL)
		mod_delayed_work(kd->maint_wq, &kd->maint,
				 kh_timeout(max_t(u64, next, KH_MAINT_MIN_NS)));
	/*
	 * After that: a kick that came during the pass (its own delay 0
	 * may just have been put off) or work left runs again at once.
	 */
	smp_mb();
	if (READ_ONCE(kd->maint_again) || kh_maint_pending(kd))
		mod_delayed_work(kd->maint_wq, &kd->maint, 0);
}

int kh_maint_init(struct kh_device *kd)
{
	INIT_DELAYED_WORK(&kd->maint, kh_maint_run);
	kd->maint_wq = alloc_workqueue("kohaku-%s-maint", 0, 1, kd->name);
	if (!kd->maint_wq)
		return -ENOMEM;
	kh_maint_kick(kd);
	return 0;
}

void kh_maint_fini(struct kh_device *kd)
{
	if (!kd->maint_wq)
		return;
	cancel_delayed_work_sync(&kd->maint);
	destroy_workqueue(kd->maint_wq);
	kd->maint_wq = NULL;
}
