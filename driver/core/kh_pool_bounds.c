// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A POOL unit's bounds (docs/spec/pool.md "Bounds"): SUBMIT's check reads
 * the firmware's kernels, but the firmware is code that computes its own
 * addresses, so a unit of version 2 also bounds its cores in hardware.
 * The buffers a POOL program's operands lie in, with the access its
 * kernels make there, become the unit's regions for the job; the driver
 * writes them before the job's first instruction and revokes them when
 * the job leaves the mesh, before its memory can change hands.
 *
 * Regions are 4 KiB granules of the unit's own mesh: a buffer's
 * allocation is whole granules that no other buffer shares (kh_mem.c), so
 * a region that covers a buffer's granules covers nothing of anyone else.
 * Buffers that touch and are reached with the same access share one
 * region; a program that needs more than KH_POOL_REGIONS is refused.
 */
#include "kh_priv.h"
#include "kh_check.h"
#include "kh_tracepoints.h"

#define KH_GRANULE	(1ull << KH_POOL_REGION_SHIFT)

static u64 kh_granule_of(u64 dev_addr)
{
	return (dev_addr & KH_MADDR_LOCAL_MASK) >> KH_POOL_REGION_SHIFT;
}

static u64 kh_region_bits(u32 access)
{
	return ((access & KOHAKU_JOB_BO_READ) ? KH_POOL_REGION_R : 0) |
	       ((access & KOHAKU_JOB_BO_WRITE) ? KH_POOL_REGION_W : 0);
}

/*
 * The program's regions from what it reaches so far: @c->bos is sorted
 * by address, so buffers that touch are neighbours.  Returns how many
 * regions that takes; writes the first KH_POOL_REGIONS of them.
 */
static u32 kh_pool_bounds_build(const struct kh_check *c, struct kh_pool_bounds *pb)
{
	u64 first = 0, end = 0;
	u32 i, n = 0, acc = 0;

	for (i = 0; i < c->n_bos; i++) {
		const struct kh_check_bo *b = &c->bos[i];
		u64 f = kh_granule_of(b->start);
		u64 e = f + DIV_ROUND_UP(b->end - b->start, KH_GRANULE);

		if (!c->reach[i])
			continue;
		if (n && f == end && c->reach[i] == acc) {
			end = e;
		} else {
			n++;
			first = f;
			end = e;
			acc = c->reach[i];
		}
		if (n <= KH_POOL_REGIONS)
			pb->region[n - 1] = KH_POOL_REGION(first, end - first,
							   kh_region_bits(acc));
	}
	return n;
}

int kh_pool_bounds_note(struct kh_check *c, const struct kh_check_bo *bo,
			u32 access, u32 inst, u32 operand)
{
	struct kh_pool_bounds *pb = c->bounds;
	u32 i = bo - c->bos, n;

	if ((c->reach[i] & access) == access)
		return 0;
	c->reach[i] |= access;
	n = kh_pool_bounds_build(c, pb);
	if (n > KH_POOL_REGIONS) {
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (POOL unit at (%u,%u)): operand %u lies in BO %u, a %u-th separate buffer for the program; the unit bounds its firmware to %u regions (buffers that touch, used alike, count once): split the job\n",
		       c->prog, inst, c->node->x, c->node->y, operand, bo->handle,
		       n, KH_POOL_REGIONS);
		kh_check_refuse(c, KOHAKU_REFUSED_REGIONS, inst, operand,
				bo->start, bo->end - bo->start);
		return -E2BIG;
	}
	pb->n = n;
	if (pb->en != KH_POOL_BOUNDS_ALL)
		pb->en = (1u << n) - 1;
	return 0;
}

/* At its firmware's boot: does the unit have bounds? */
int kh_pool_bounds_probe(struct kh_node *n)
{
	u64 caps = 0;
	int ret;

	lockdep_assert_held(&n->mesh->lock);
	ret = kh_ctrl_read(n->mesh, n->x, n->y, KH_CTRL_IDX_POOL_CAPS, &caps);
	if (!ret)
		n->pool_bounds = KH_POOL_CAPS_VERSION(caps) >= KH_POOL_VERSION_BOUNDS;
	return ret;
}

/*
 * Before the job's first instruction: each POOL target's regions and
 * BOUNDS_EN, every write answered, so they are in place before anything
 * of the job reaches the unit.  An error ends the job before it starts.
 */
int kh_pool_bounds_grant(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_ctrl_req req[KH_POOL_REGIONS + 1];
	u32 i, k, n;
	int ret;

	lockdep_assert_held(&m->lock);
	/* the firmware loader's LOADs: the unit's own copy, cores in reset */
	if (job->internal)
		return 0;
	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *p = &job->progs[i];
		struct kh_pool_bounds *pb = &p->bounds;

		if (p->node->cu_type != KH_CU_GP || !p->node->pool_bounds)
			continue;
		memset(req, 0, sizeof(req));
		n = pb->en == KH_POOL_BOUNDS_ALL ? 0 : pb->n;
		for (k = 0; k <= n; k++) {
			req[k].x = p->node->x;
			req[k].y = p->node->y;
			req[k].write = true;
			req[k].index = k < n ? KH_CTRL_IDX_POOL_REGION(k) :
					       KH_CTRL_IDX_POOL_BOUNDS_EN;
			req[k].value = k < n ? pb->region[k] : pb->en;
		}
		/* from here on it is revoked, whatever the answers say */
		pb->granted = true;
		ret = kh_ctrl_read_many(m, req, n + 1);
		for (k = 0; !ret && k <= n; k++)
			ret = req[k].result;
		if (ret) {
			kh_err(m->kd, "mesh %u: job %llu: POOL unit (%u,%u) did not take its bounds (%d); the job is not started\n",
			       m->id, job->id, p->node->x, p->node->y, ret);
			job->why = "the POOL unit did not take its bounds";
						return ret;
		}
		trace_kohaku_pool_bounds(m->kd->dev, m->id, job->id, p->node->x,
					 p->node->y, pb->en, pb->n);
	}
	return 0;
}

static void kh_pool_bounds_report(struct kh_mesh *m, struct kh_job *job,
				  const struct kh_node *n, u64 f)
{
	const char *how = (f & KH_POOL_BF_WRITE) ? "write" : "read";
	const char *path = (f & KH_POOL_BF_IDMA) ? "an iDMA descriptor" : "a window access";

	if (f & KH_POOL_BF_IDLE) {
		kh_err(m->kd, "mesh %u: POOL unit (%u,%u): core %u tried to %s 0x%llx by %s with no job on the unit (%u refused); the firmware reaches memory on its own\n",
		       m->id, n->x, n->y, KH_POOL_BF_CORE(f), how,
		       KH_POOL_BF_ADDR(f), path, KH_POOL_BF_COUNT(f));
		kh_maint_fw_strays(m, n);
		return;
	}
	kh_err(m->kd, "mesh %u: job %llu: POOL unit (%u,%u): core %u tried to %s 0x%llx by %s, outside the buffers the job reaches there (%u refused); the job faults (KH_POOL_UNIT_BOUNDS)\n",
	       m->id, job->id, n->x, n->y, KH_POOL_BF_CORE(f), how,
	       KH_POOL_BF_ADDR(f), path, KH_POOL_BF_COUNT(f));
}

/*
 * The job leaves the mesh: BOUNDS_EN 0 on every unit it was granted, its
 * answer proving the revocation is in place before the job's memory can
 * be released (kh_job_unlist() after this), and BOUNDS_FAULT read.  Not
 * on a mesh being reset: the reset cleared the registers.
 */
void kh_pool_bounds_revoke(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_ctrl_req req[2];
	u32 i;
	int ret;

	lockdep_assert_held(&m->lock);
	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *p = &job->progs[i];

		if (!p->bounds.granted)
			continue;
		p->bounds.granted = false;
		if (m->resetting)
			continue;
		memset(req, 0, sizeof(req));
		req[0].x = req[1].x = p->node->x;
		req[0].y = req[1].y = p->node->y;
		req[0].write = true;
		req[0].index = KH_CTRL_IDX_POOL_BOUNDS_EN;
		req[1].index = KH_CTRL_IDX_POOL_BOUNDS_FAULT;
		ret = kh_ctrl_read_many(m, req, 2);
		if (!ret)
			ret = req[0].result ? req[0].result : req[1].result;
		if (ret) {
			/* a hung unit: its mesh is reset before it runs again */
			kh_warn(m->kd, "mesh %u: job %llu: POOL unit (%u,%u) did not answer the revocation of its bounds (%d)\n",
				m->id, job->id, p->node->x, p->node->y, ret);
			continue;
		}
		if (req[1].value & KH_POOL_BF_VALID)
			kh_pool_bounds_report(m, job, p->node, req[1].value);
	}
}
