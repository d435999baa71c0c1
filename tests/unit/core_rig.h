/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The driver core brought up on a fake card (fake_card.h), as a host would
 * do it: kh_device_probe() with the in-process log sink, one open file, and
 * everything else through the ioctl table.  Shared by the unit tests of
 * bring-up and of the job engine.
 */
#ifndef CORE_RIG_H
#define CORE_RIG_H

#include "kh_priv.h"
#include "kh_os_user.h"
#include "kh_os_fence.h"
#include "fake_card.h"

struct rig {
	struct fake_card *fc;
	struct device *od;
	struct kh_device *kd;
	struct drm_file file;
	struct kh_file *kf;
	bool unplugged;
};

/* a node as the job tests declare them: type 'SX', version 4, 2 buffers */
#define RIG_CAPS(depth)	fake_caps(0x5358, 4, 2, (depth))

/*
 * A card with routers 1..grid_hi, a node of inst_depth depth at each of
 * them and the agent's self-echo at (0,1), as shipped maps have it.
 */
struct fake_card *rig_card(unsigned int grid_hi, u16 depth);
/* probe the card (the rig owns it from now on) and open a file: 0 or errno */
int rig_up(struct rig *r, struct fake_card *fc);
/* automatic recovery on mesh 0 after at most @max hangs in a row; 0: off (rig_up's) */
int rig_recover(struct rig *r, unsigned int max);
/* close, remove, and check the card saw no broken rule (a TAP check) */
void rig_down(struct rig *r);
/* kh_device_unplug(), for rig_down to know */
void rig_unplug(struct rig *r);

/* did the core log a message containing a (and b, unless NULL) */
bool rig_logged(struct rig *r, const char *a, const char *b);

/*
 * One program of a job: n instructions for (x,y), payload word 0 of
 * instruction k being RIG_W0(txn, k) so that the card can tell them apart.
 */
struct rig_prog {
	u8 x, y, txn;
	u32 n;
};

#define RIG_W0(txn, k)	(((u64)(txn) << 32) | (k))

int rig_submit(struct rig *r, const struct rig_prog *p, unsigned int n,
	       u32 timeout_ms, u64 *job);
/* WAIT: the ioctl's return, *w filled (status 0 when it returned nothing) */
int rig_wait(struct rig *r, u64 job, u32 timeout_ms, struct drm_kohaku_wait *w);
/*
 * WAIT until the job is final, without ever giving WAIT a deadline ahead:
 * it is looked at with timeout 0, again and again, while the engine's
 * worker runs it.  A WAIT with a deadline ahead is what the engine lets a
 * simulated card's time jump to when it finds nothing left to run, and it
 * may find so just before a job is queued or just after the waited job
 * finished (test_core_wait.c: idle_engine_does_not_skip_time_past_a_new_job,
 * wait_on_a_job_that_just_finished_reports_it); the tests of everything
 * but WAIT itself must not trip over that.  -ETIMEDOUT after a minute of
 * wall time.
 */
int rig_wait_final(struct rig *r, u64 job, struct drm_kohaku_wait *w);
/* SUBMIT with the default timeout, then rig_wait_final() */
int rig_run(struct rig *r, const struct rig_prog *p, unsigned int n,
	    struct drm_kohaku_wait *w);
/* has the engine's worker gone to sleep, with no kick pending (wall ms) */
bool rig_engine_asleep(struct rig *r, unsigned int ms);
/*
 * TAP checks: a clean DONE; the node's instructions from its first-th on
 * were p's, in order, with p's txn and last on the final one only, their
 * payload words 0, 1 and 3 whole (both halves).
 */
void rig_check_done(const struct drm_kohaku_wait *w);
void rig_check_received(struct rig *r, const struct rig_prog *p,
			unsigned int first);
int rig_info(struct rig *r, struct drm_kohaku_get_info *info);
/* NODES into out[cap]: the node count or a negative errno */
int rig_nodes(struct rig *r, struct drm_kohaku_node *out, unsigned int cap);

#endif /* CORE_RIG_H */
