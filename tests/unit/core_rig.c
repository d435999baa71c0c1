// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The driver core on a fake card: bring-up, one file, ioctls, teardown. */
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "core_rig.h"

struct fake_card *rig_card(unsigned int grid_hi, u16 depth)
{
	struct fake_card *fc = fake_card_create(1, grid_hi);
	unsigned int x, y;

	if (!fc)
		return NULL;
	for (y = 1; y <= grid_hi; y++)
		for (x = 1; x <= grid_hi; x++)
			fake_node(fc, x, y, RIG_CAPS(depth));
	fake_echo(fc, 0, 1);
	return fc;
}

int rig_up(struct rig *r, struct fake_card *fc)
{
	struct kh_hw hw;
	int ret;

	memset(r, 0, sizeof(*r));
	kh_os_file_init(&r->file);
	r->fc = fc;
	r->od = kh_os_dev_create("fake");
	if (!fc || !r->od)
		return -ENOMEM;
	fake_card_hw(fc, &hw);
	ret = kh_device_probe(&hw, r->od, "fake", &r->kd);
	if (ret) {
		r->kd = NULL;
		return ret;
	}
	ret = kh_file_open(r->kd, &r->file, true, &r->kf);
	/*
	 * The engine's own hang handling is what these tests look at: no
	 * automatic recovery (a reset of the fake mesh) after a hang.
	 */
	return ret ? ret : rig_recover(r, 0);
}

int rig_recover(struct rig *r, unsigned int max)
{
	struct drm_kohaku_mesh_set a = { 0 };

	a.set = KOHAKU_MESH_SET_RECOVER;
	a.recover_max = max;
	return kh_ioctl_call(r->kf, DRM_KOHAKU_MESH_SET, &a);
}

void rig_unplug(struct rig *r)
{
	kh_device_unplug(r->kd);
	r->unplugged = true;
}

void rig_down(struct rig *r)
{
	struct fake_obs o;

	/* a test that failed half-way must not leave the worker held */
	if (r->fc)
		fake_trap_release(r->fc);
	if (r->kf)
		kh_file_close(r->kf);
	if (r->kd) {
		if (!r->unplugged)
			kh_device_unplug(r->kd);
		kh_device_remove(r->kd);
	}
	kh_os_file_fini(&r->file);
	kh_os_dev_destroy(r->od);
	if (r->fc) {
		fake_observe(r->fc, &o);
		CHECK_MSG(!o.violations, "the fake card saw %u broken rule(s), the first: %s",
			  o.violations, o.violation);
		fake_card_destroy(r->fc);
	}
	memset(r, 0, sizeof(*r));
}

bool rig_logged(struct rig *r, const char *a, const char *b)
{
	unsigned long s, first;
	bool found = false;

	pthread_mutex_lock(&r->od->lock);
	first = r->od->seq > KH_OS_LOG_RING ? r->od->seq - KH_OS_LOG_RING + 1 : 1;
	for (s = first; s <= r->od->seq && !found; s++) {
		const char *msg = r->od->ring[(s - 1) % KH_OS_LOG_RING].msg;

		found = strstr(msg, a) && (!b || strstr(msg, b));
	}
	pthread_mutex_unlock(&r->od->lock);
	return found;
}

int rig_submit(struct rig *r, const struct rig_prog *p, unsigned int n,
	       u32 timeout_ms, u64 *job)
{
	struct drm_kohaku_program prog[8];
	struct drm_kohaku_submit s = { 0 };
	struct kohaku_inst *insts[8] = { NULL };
	unsigned int i, k;
	int ret = -ENOMEM;

	if (n > ARRAY_SIZE(prog))
		return -E2BIG;
	memset(prog, 0, sizeof(prog));
	for (i = 0; i < n; i++) {
		insts[i] = calloc(p[i].n ? p[i].n : 1, sizeof(*insts[i]));
		if (!insts[i])
			goto out;
		for (k = 0; k < p[i].n; k++) {
			insts[i][k].w[0] = RIG_W0(p[i].txn, k);
			insts[i][k].w[1] = 0x5a5a5a5a00000000ULL | k;
			insts[i][k].w[3] = (u64)k << 60;	/* the opcode nibble */
		}
		prog[i].x = p[i].x;
		prog[i].y = p[i].y;
		prog[i].txn = p[i].txn;
		prog[i].n_insts = p[i].n;
		prog[i].insts_ptr = (uintptr_t)insts[i];
	}
	s.n_programs = n;
	s.programs_ptr = (uintptr_t)prog;
	s.program_size = sizeof(prog[0]);
	s.timeout_ms = timeout_ms;
	ret = kh_ioctl_call(r->kf, DRM_KOHAKU_SUBMIT, &s);
	if (!ret && job)
		*job = s.job_id;
out:
	for (i = 0; i < n; i++)
		free(insts[i]);
	return ret;
}

int rig_wait(struct rig *r, u64 job, u32 timeout_ms, struct drm_kohaku_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->job_id = job;
	w->timeout_ms = timeout_ms;
	return kh_ioctl_call(r->kf, DRM_KOHAKU_WAIT, w);
}

int rig_wait_final(struct rig *r, u64 job, struct drm_kohaku_wait *w)
{
	struct timespec nap = { 0, 50000 };
	unsigned int i;
	int ret = -ETIMEDOUT;

	for (i = 0; i < 60 * 20000 && ret == -ETIMEDOUT; i++) {
		ret = rig_wait(r, job, 0, w);
		if (ret == -ETIMEDOUT)
			nanosleep(&nap, NULL);
	}
	return ret;
}

int rig_run(struct rig *r, const struct rig_prog *p, unsigned int n,
	    struct drm_kohaku_wait *w)
{
	u64 job;
	int ret = rig_submit(r, p, n, 0, &job);

	return ret ? ret : rig_wait_final(r, job, w);
}

bool rig_engine_asleep(struct rig *r, unsigned int ms)
{
	struct timespec nap = { 0, 100000 };
	unsigned int i;
	bool asleep = false;

	for (i = 0; i <= ms * 10 && !asleep; i++) {
		asleep = !work_busy(&r->kd->engine);
		if (!asleep)
			nanosleep(&nap, NULL);
	}
	return asleep;
}

void rig_check_done(const struct drm_kohaku_wait *w)
{
	CHECK_EQ(w->status, KOHAKU_JOB_DONE);
	CHECK_EQ(w->n_faults, 0);
	CHECK_EQ(w->fault_flags, 0);
	CHECK_EQ(w->fault_code, 0);
	CHECK_EQ(w->fault_mesh, KOHAKU_COORD_NONE);
	CHECK_EQ(w->fault_x, KOHAKU_COORD_NONE);
	CHECK_EQ(w->fault_y, KOHAKU_COORD_NONE);
}

void rig_check_received(struct rig *r, const struct rig_prog *p,
			unsigned int first)
{
	struct fake_node_obs no;
	unsigned int k;

	fake_node_observe(r->fc, p->x, p->y, &no);
	CHECK(no.pushed >= first + p->n);
	for (k = 0; k < p->n && first + k < FAKE_LOG; k++) {
		CHECK_EQ(no.txn[first + k], p->txn);
		CHECK_EQ(no.last[first + k], k == p->n - 1);
		CHECK_EQ(no.w0[first + k], RIG_W0(p->txn, k));
		CHECK_EQ(no.w1[first + k], 0x5a5a5a5a00000000ULL | k);
		CHECK_EQ(no.w3[first + k], (u64)k << 60);
	}
}

int rig_info(struct rig *r, struct drm_kohaku_get_info *info)
{
	memset(info, 0, sizeof(*info));
	return kh_ioctl_call(r->kf, DRM_KOHAKU_GET_INFO, info);
}

int rig_nodes(struct rig *r, struct drm_kohaku_node *out, unsigned int cap)
{
	struct drm_kohaku_nodes a = { 0 };
	int ret;

	a.capacity = cap;
	a.node_size = sizeof(*out);
	a.nodes_ptr = (uintptr_t)out;
	ret = kh_ioctl_call(r->kf, DRM_KOHAKU_NODES, &a);
	return ret ? ret : (int)a.count;
}
