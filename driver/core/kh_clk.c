// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The mesh clock governor (docs/driver-core.md "Mesh clocks").
 *
 * The card has no proper cooling (kohakutpu.md 8.5): a mesh sits at its
 * idle profile whenever it has had no job for idle_ms, and is raised to
 * the run profile a job needs before the job is dispatched.  A profile is
 * programmed through the mesh's clock wizard (PG065) in single 32-bit
 * writes of whole registers (a read-merge-write faults the MMCM; a duty
 * reads back 0 and rejects 0, so 50000 is written), then LOAD 0x3.
 *
 * A retune drops the wizard's lock, and the mesh's resetn follows the lock
 * (kohakutpu.md 12.4): every retune is a mesh reset.  So the governor
 * retunes a mesh only while no job is on it, and treats its retune as a
 * planned reset: nothing is aborted, the books are those of any reset
 * (kh_reset.c), and the mesh is waited back the same way; its POOL units'
 * firmware is booted again from the image the driver keeps (kh_maint.c).
 *
 * Raising happens in the engine, at dispatch (kh_clk_raise()); lowering in
 * the maintenance worker once the idle window has passed (kh_clk_idle_due()),
 * and at bring-up and after any reset that put the built clocks back
 * (kh_clk_want()).  Device time is the clock: on a simulated card it passes
 * only while the card is used, so its idle window is device time too.
 */
#include "kh_priv.h"

/*
 * The host's defaults (module parameters, the in-process environment):
 * idle at low after 10 s without a job, as upstream's daemon; jobs at
 * ship; three recoveries in a row (docs/driver-core.md "Automatic
 * recovery" says why three).
 */
struct kh_mesh_defaults kh_mesh_defaults = {
	.clk_policy = KOHAKU_CLK_POLICY_AUTO,
	.clk_idle = KOHAKU_CLK_PROFILE_LOW,
	.clk_run = KOHAKU_CLK_PROFILE_SHIP,
	.clk_fixed = KOHAKU_CLK_PROFILE_SHIP,
	.clk_idle_ms = KH_CLK_IDLE_MS_DEFAULT,
	.recover_max = KH_RECOVER_DEFAULT,
};

/* The settings MESH_SET takes (the fields @a->set names), and defaults. */
static bool kh_mesh_set_ok(const struct drm_kohaku_mesh_set *a)
{
	u32 set = a->set;

	return !(set & ~KOHAKU_MESH_SET_MASK) &&
	       (!(set & KOHAKU_MESH_SET_POLICY) ||
		a->policy == KOHAKU_CLK_POLICY_AUTO ||
		a->policy == KOHAKU_CLK_POLICY_FIXED) &&
	       (!(set & KOHAKU_MESH_SET_IDLE) || a->idle_profile < KH_CLK_PROFILES) &&
	       (!(set & KOHAKU_MESH_SET_RUN) || a->run_profile < KH_CLK_PROFILES) &&
	       (!(set & KOHAKU_MESH_SET_FIXED) || a->fixed_profile < KH_CLK_PROFILES) &&
	       (!(set & KOHAKU_MESH_SET_IDLE_MS) ||
		(a->idle_ms && a->idle_ms <= KOHAKU_CLK_IDLE_MS_MAX)) &&
	       (!(set & KOHAKU_MESH_SET_RECOVER) || a->recover_max <= KOHAKU_RECOVER_MAX);
}

struct kh_mesh_defaults kh_mesh_defaults_get(void)
{
	return kh_mesh_defaults;
}

int kh_set_mesh_defaults(const struct kh_mesh_defaults *d)
{
	const struct drm_kohaku_mesh_set a = {
		.set = KOHAKU_MESH_SET_MASK, .policy = d->clk_policy,
		.idle_profile = d->clk_idle, .run_profile = d->clk_run,
		.fixed_profile = d->clk_fixed, .idle_ms = d->clk_idle_ms,
		.recover_max = d->recover_max,
	};

	if (!kh_mesh_set_ok(&a))
		return -EINVAL;
	kh_mesh_defaults = *d;
	return 0;
}

static const char *const kh_clk_names[KH_CLK_PROFILES] = KOHAKU_CLK_PROFILE_NAMES;
static const char *const kh_clk_policies[] = KOHAKU_CLK_POLICY_NAMES;

const char *kh_clk_profile_name(unsigned int p)
{
	return p < KH_CLK_PROFILES ? kh_clk_names[p] : "other";
}

const char *kh_clk_policy_name(unsigned int p)
{
	return p < ARRAY_SIZE(kh_clk_policies) ? kh_clk_policies[p] : "?";
}

/* @s is @name, but for one trailing newline (as sysfs_streq() takes it) */
static bool kh_clk_streq(const char *s, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(s, name, n) && (!s[n] || (s[n] == '\n' && !s[n + 1]));
}

int kh_clk_profile_parse(const char *s)
{
	unsigned int p;

	for (p = 0; p < KH_CLK_PROFILES; p++)
		if (kh_clk_streq(s, kh_clk_names[p]))
			return p;
	return -EINVAL;
}

int kh_clk_policy_parse(const char *s)
{
	if (kh_clk_streq(s, kh_clk_policies[KOHAKU_CLK_POLICY_AUTO]))
		return KOHAKU_CLK_POLICY_AUTO;
	if (kh_clk_streq(s, kh_clk_policies[KOHAKU_CLK_POLICY_FIXED]))
		return KOHAKU_CLK_POLICY_FIXED;
	return -EINVAL;
}

/* The host reaches the mesh's clock wizard (BAR0 in 32-bit beats). */
bool kh_clk_reachable(const struct kh_device *kd)
{
	return kd->hw.ops->bar_read32 && kd->hw.ops->bar_write32;
}

static u32 kh_clk_rd(struct kh_mesh *m, u32 off)
{
	struct kh_device *kd = m->kd;

	return kd->hw.ops->bar_read32(kd->hw.ctx, 0, KH_CLKWIZ_BASE(m->id) + off);
}

/* one whole register, one 32-bit beat: never read, merged and written back */
static void kh_clk_wr(struct kh_mesh *m, u32 off, u32 v)
{
	struct kh_device *kd = m->kd;

	kd->hw.ops->bar_write32(kd->hw.ctx, 0, KH_CLKWIZ_BASE(m->id) + off, v);
}

/* The wizard's SW_RST: the MMCM and, through its lock, the mesh reset. */
void kh_clk_sw_rst(struct kh_mesh *m)
{
	kh_clk_wr(m, KH_CLK_SW_RST, KH_CLK_SW_RST_KEY);
}

/*
 * The outputs' MHz as the wizard reads back (into @mhz, may be NULL), and
 * the profile they make, KOHAKU_CLK_PROFILE_OTHER for none.  c->profile,
 * what the governor holds the mesh at, is the caller's to change.
 */
static u8 kh_clk_read(struct kh_mesh *m, u32 *mhz)
{
	u32 cfg = kh_clk_rd(m, KH_CLK_CFG0), own[KH_CLK_MESH_OUTPUTS];
	u32 mult = KH_CLK_CFG0_MULT(cfg), div = KH_CLK_CFG0_DIVCLK(cfg);
	unsigned int o, p;

	if (!mhz)
		mhz = own;
	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++) {
		u32 d = KH_CLK_DIV_VALUE(kh_clk_rd(m, KH_CLK_DIV(o)));

		mhz[o] = d && div ? KH_CLK_IN_MHZ * mult / div / d : 0;
	}
	if (cfg != KH_CLK_CFG0_BUILT)
		return KOHAKU_CLK_PROFILE_OTHER;
	for (p = 0; p < KH_CLK_PROFILES; p++) {
		for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++)
			if (mhz[o] != KH_CLK_VCO_MHZ / KH_CLK_PROFILE_DIV(p, o))
				break;
		if (o == KH_CLK_MESH_OUTPUTS)
			return p;
	}
	return KOHAKU_CLK_PROFILE_OTHER;
}

/* Device time at the profile that ends now. */
static void kh_clk_account(struct kh_mesh *m, u64 now)
{
	struct kh_clk *c = &m->clk;

	if (c->profile < KH_CLK_PROFILES)
		c->ns_at[c->profile] += now - c->since_ns;
	c->since_ns = now;
}

/* At bring-up, before anything else uses the mesh: read what it runs at. */
void kh_clk_init(struct kh_mesh *m)
{
	struct kh_device *kd = m->kd;
	struct kh_clk *c = &m->clk;

	c->policy = kh_mesh_defaults.clk_policy;
	c->idle = kh_mesh_defaults.clk_idle;
	c->run = kh_mesh_defaults.clk_run;
	c->fixed = kh_mesh_defaults.clk_fixed;
	c->idle_ms = kh_mesh_defaults.clk_idle_ms;
	m->recover_max = kh_mesh_defaults.recover_max;
	c->since_ns = kh_now(kd);
	c->busy_ns = KH_CLK_NEVER;	/* no job yet: the idle profile at once */
	if (!kh_clk_reachable(kd)) {
		c->policy = KOHAKU_CLK_POLICY_NONE;
		c->profile = KOHAKU_CLK_PROFILE_OTHER;
		return;
	}
	c->profile = kh_clk_read(m, NULL);
}

/* What the governor wants the mesh at, with no job asking for more. */
static unsigned int kh_clk_rest(struct kh_mesh *m, u64 now)
{
	struct kh_clk *c = &m->clk;

	if (c->policy == KOHAKU_CLK_POLICY_FIXED)
		return c->fixed;
	if (c->busy_ns == KH_CLK_NEVER ||
	    now - c->busy_ns >= (u64)c->idle_ms * 1000000ULL)
		return c->idle;
	/* inside the window: stay, unless the wizard holds no profile */
	return c->profile < KH_CLK_PROFILES ? c->profile : c->run;
}

/*
 * Program profile @p and start the reset it causes.  The caller holds the
 * mesh with no job on it; the mesh is waited back as after any reset.
 */
static void kh_clk_retune(struct kh_mesh *m, unsigned int p, const char *why)
{
	struct kh_device *kd = m->kd;
	struct kh_clk *c = &m->clk;
	u64 now = kh_now(kd);
	unsigned int o;

	lockdep_assert_held(&m->lock);
	kh_clk_account(m, now);
	kh_info(kd, "mesh %u: clocks %s -> %s (%s)\n", m->id,
		kh_clk_profile_name(c->profile), kh_clk_profile_name(p), why);
	kh_clk_wr(m, KH_CLK_CFG0, KH_CLK_CFG0_BUILT);
	for (o = 0; o < KH_CLK_MESH_OUTPUTS; o++) {
		kh_clk_wr(m, KH_CLK_DIV(o), KH_CLK_PROFILE_DIV(p, o));
		kh_clk_wr(m, KH_CLK_PHASE(o), 0);
		kh_clk_wr(m, KH_CLK_DUTY(o), KH_CLK_DUTY_50);
	}
	kh_clk_wr(m, KH_CLK_LOAD, KH_CLK_LOAD_SEN | KH_CLK_LOAD_SADDR);
	c->retunes++;
	c->profile = p;
	kh_mesh_planned_reset(m);
	/* raised: the maintenance worker watches for the idle window's end */
	if (c->policy == KOHAKU_CLK_POLICY_AUTO && p != c->idle)
		kh_maint_kick(kd);
}

/* A reset put the built clocks back (SW_RST, reprogramming): read them. */
void kh_clk_after_reset(struct kh_mesh *m)
{
	struct kh_clk *c = &m->clk;

	lockdep_assert_held(&m->lock);
	if (c->policy == KOHAKU_CLK_POLICY_NONE)
		return;
	kh_clk_account(m, kh_now(m->kd));
	c->profile = kh_clk_read(m, NULL);
}

/*
 * With no job on the mesh: retune it if the governor wants another
 * profile (the idle window passed, a fixed profile set, the built clocks
 * back after a reset).  True when a retune was started.
 */
/* The profile the governor rests the mesh at, if it is not at it yet. */
static bool kh_clk_to_rest(struct kh_mesh *m)
{
	struct kh_clk *c = &m->clk;
	unsigned int p;

	lockdep_assert_held(&m->lock);
	if (c->policy == KOHAKU_CLK_POLICY_NONE || m->job || m->resetting ||
	    (m->flags & KOHAKU_MESH_WEDGED) || !(m->flags & KOHAKU_MESH_PRESENT))
		return false;
	p = kh_clk_rest(m, kh_now(m->kd));
	if (p == c->profile)
		return false;
	kh_clk_retune(m, p, c->policy == KOHAKU_CLK_POLICY_FIXED ? "fixed" :
		      p == c->idle ? "idle" : "governor");
	return true;
}

bool kh_clk_want(struct kh_mesh *m)
{
	/* a job waits: kh_clk_raise() decides at its dispatch */
	if (!list_empty(&m->queue) || kh_mesh_held(m))
		return false;
	return kh_clk_to_rest(m);
}

/*
 * The driver's own work holds the mesh after a reset (kh_maint.c): the
 * profile it is to run at next, whether jobs wait (raised for them: the
 * firmware is then booted once, at the clocks its jobs will have) or not
 * (the governor's rest).  True when a retune was started.
 */
bool kh_clk_settle(struct kh_mesh *m)
{
	if (!list_empty(&m->queue))
		return kh_clk_raise_to(m, KOHAKU_CLK_PROFILE_DEFAULT);
	return kh_clk_to_rest(m);
}

/*
 * An idle mesh under the governor: has its wizard changed under us (the
 * built clocks back after another agent's SW_RST or a reprogramming)?
 * Then the reset is seen now, not at the next job, and the profile the
 * governor wants goes on again.  True when a retune was started.
 */
bool kh_clk_watch(struct kh_mesh *m)
{
	struct kh_clk *c = &m->clk;
	u8 now;

	lockdep_assert_held(&m->lock);
	if (c->policy == KOHAKU_CLK_POLICY_NONE || m->job || m->resetting ||
	    !list_empty(&m->queue) || kh_mesh_held(m) ||
	    (m->flags & KOHAKU_MESH_WEDGED))
		return false;
	now = kh_clk_read(m, NULL);
	if (now == c->profile)
		return false;
	kh_warn(m->kd, "mesh %u: its clocks changed under the driver (%s, was %s): another agent's reset or retune\n",
		m->id, kh_clk_profile_name(now), kh_clk_profile_name(c->profile));
	kh_clk_account(m, kh_now(m->kd));
	c->profile = now;
	if (kh_mesh_reset_check(m))
		kh_mesh_reset_wait_out(m);
	else
		kh_mesh_reset_missed(m);	/* the canary came back before */
	return kh_clk_want(m);
}

/*
 * Device time until the governor wants to look at the mesh again: the end
 * of a raised mesh's idle window, or (an idle mesh) one window from now,
 * to watch its wizard; ~0 if never.
 */
u64 kh_clk_idle_in(struct kh_mesh *m)
{
	struct kh_clk *c = &m->clk;
	u64 now = kh_now(m->kd), end;

	lockdep_assert_held(&m->lock);
	if (c->policy == KOHAKU_CLK_POLICY_NONE)
		return ~0ULL;
	if (c->policy != KOHAKU_CLK_POLICY_AUTO || c->profile == c->idle)
		return (u64)c->idle_ms * 1000000ULL;
	if (c->busy_ns == KH_CLK_NEVER)
		return 0;
	end = c->busy_ns + (u64)c->idle_ms * 1000000ULL;
	return end > now ? end - now : 0;
}

/* A job is queued for or runs on the mesh: the idle window starts again. */
void kh_clk_busy(struct kh_mesh *m)
{
	lockdep_assert_held(&m->lock);
	m->clk.busy_ns = kh_now(m->kd);
}

/*
 * Before @job is dispatched: the mesh must run at least at the profile
 * the job needs.  True when a retune was started (the job waits for it).
 */
bool kh_clk_raise(struct kh_mesh *m, struct kh_job *job)
{
	/*
	 * The driver's own jobs (a firmware boot after a reset or a retune)
	 * run at whatever the mesh is at: raising for them would reset the
	 * mesh under the boot they are part of.
	 */
	if (job->internal) {
		kh_clk_busy(m);
		return false;
	}
	return kh_clk_raise_to(m, job->clk_need);
}

/* The same for work that needs @want (KOHAKU_CLK_PROFILE_*, or _DEFAULT). */
bool kh_clk_raise_to(struct kh_mesh *m, unsigned int want)
{
	struct kh_clk *c = &m->clk;
	unsigned int need;

	lockdep_assert_held(&m->lock);
	kh_clk_busy(m);
	if (c->policy == KOHAKU_CLK_POLICY_NONE || m->job)
		return false;
	if (c->policy == KOHAKU_CLK_POLICY_FIXED)
		need = c->fixed;
	else if (want < KH_CLK_PROFILES)
		need = want;
	else
		need = c->run;
	if (need == c->profile)
		return false;
	if (c->policy == KOHAKU_CLK_POLICY_AUTO && c->profile < KH_CLK_PROFILES &&
	    c->profile > need)
		return false;	/* faster than asked: lowered only when idle */
	kh_clk_retune(m, need, "a job");
	return true;
}

/* The mesh's clocks for CLOCKS and GET_PARAM, the wizard read again. */
void kh_clk_report(struct kh_mesh *m, struct drm_kohaku_clocks *a)
{
	struct kh_clk *c = &m->clk;
	u8 now = c->profile;
	unsigned int i;

	lockdep_assert_held(&m->lock);
	memset(a->mhz, 0, sizeof(a->mhz));
	/* the wizard is outside the mesh's reset: it reads back at any time */
	if (c->policy != KOHAKU_CLK_POLICY_NONE)
		now = kh_clk_read(m, a->mhz);
	kh_clk_account(m, kh_now(m->kd));
	a->policy = c->policy;
	/* what the wizard holds (kh_clk_watch() tells the governor of a change) */
	a->profile = now;
	a->idle_profile = c->idle;
	a->run_profile = c->run;
	a->fixed_profile = c->fixed;
	a->idle_ms = c->idle_ms;
	a->retunes = c->retunes;
	for (i = 0; i < KH_CLK_PROFILES; i++)
		a->ns_at[i] = c->ns_at[i];
	a->resets = m->resets;
	a->recoveries = m->recoveries;
	a->recover_max = m->recover_max;
}

static bool kh_clk_profile_ok(u32 p)
{
	return p < KH_CLK_PROFILES;
}

int kh_device_clocks(struct kh_device *kd, unsigned int mesh,
		     struct drm_kohaku_clocks *out)
{
	struct kh_mesh *m;

	if (mesh >= kd->n_meshes || !kh_mesh_present(kd, mesh))
		return -EINVAL;
	m = &kd->mesh[mesh];
	mutex_lock(&m->lock);
	kh_clk_report(m, out);
	mutex_unlock(&m->lock);
	return 0;
}

int kh_ioctl_clocks(struct kh_file *kf, void *arg)
{
	struct drm_kohaku_clocks *a = arg;
	struct kh_device *kd = kf->kd;
	struct kh_mesh *m;

	if (a->flags & ~KOHAKU_CLOCKS_FLAGS || a->pad ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->mesh >= kd->n_meshes || !kh_mesh_present(kd, a->mesh))
		return -EINVAL;
	if (a->flags & KOHAKU_CLOCKS_SET_FILE_RUN) {
		if (!kh_clk_profile_ok(a->file_run_profile) &&
		    a->file_run_profile != KOHAKU_CLK_PROFILE_DEFAULT)
			return -EINVAL;
		WRITE_ONCE(kf->clk_run, a->file_run_profile);
	}
	a->file_run_profile = READ_ONCE(kf->clk_run);
	m = &kd->mesh[a->mesh];
	mutex_lock(&m->lock);
	kh_clk_report(m, a);
	mutex_unlock(&m->lock);
	return 0;
}

int kh_device_mesh_set(struct kh_device *kd, const struct drm_kohaku_mesh_set *a)
{
	struct kh_mesh *m;
	struct kh_clk *c;

	if (!a->set || !kh_mesh_set_ok(a) ||
	    !kh_all_zero(a->reserved, sizeof(a->reserved)))
		return -EINVAL;
	if (a->mesh >= kd->n_meshes || !kh_mesh_present(kd, a->mesh))
		return -EINVAL;
	m = &kd->mesh[a->mesh];
	c = &m->clk;
	mutex_lock(&m->lock);
	/* all or nothing: clocks it cannot set refuse the whole request */
	if ((a->set & ~KOHAKU_MESH_SET_RECOVER) &&
	    c->policy == KOHAKU_CLK_POLICY_NONE) {
		mutex_unlock(&m->lock);
		kh_err(kd, "mesh %u: its clock wizard cannot be reached from this host; the clocks are not governed\n",
		       m->id);
		return -EOPNOTSUPP;
	}
	if (a->set & KOHAKU_MESH_SET_RECOVER) {
		m->recover_max = a->recover_max;
		kh_info(kd, "mesh %u: automatic recovery %s (at most %u in a row)\n",
			m->id, m->recover_max ? "on" : "off", m->recover_max);
	}
	if (a->set & KOHAKU_MESH_SET_POLICY)
		c->policy = a->policy;
	if (a->set & KOHAKU_MESH_SET_IDLE)
		c->idle = a->idle_profile;
	if (a->set & KOHAKU_MESH_SET_RUN)
		c->run = a->run_profile;
	if (a->set & KOHAKU_MESH_SET_FIXED)
		c->fixed = a->fixed_profile;
	if (a->set & KOHAKU_MESH_SET_IDLE_MS)
		c->idle_ms = a->idle_ms;
	if (a->set & ~KOHAKU_MESH_SET_RECOVER)
		kh_info(kd, "mesh %u: clock policy %s (idle %s after %u ms, run %s, fixed %s)\n",
			m->id, kh_clk_policy_name(c->policy),
			kh_clk_profile_name(c->idle), c->idle_ms,
			kh_clk_profile_name(c->run), kh_clk_profile_name(c->fixed));
	mutex_unlock(&m->lock);
	/* the maintenance worker retunes it once nothing runs there */
	kh_maint_kick(kd);
	return 0;
}

int kh_ioctl_mesh_set(struct kh_file *kf, void *arg)
{
	return kh_device_mesh_set(kf->kd, arg);
}
