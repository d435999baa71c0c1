// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a job may reach (ABI 0.8).  The card has no MMU between its units
 * and DRAM, so the driver reads every instruction it sends, the way vc4
 * validates its command lists (drivers/gpu/drm/vc4/vc4_validate.c): each
 * memory operand, decoded per unit type as the unit's spec says it is
 * used, must lie whole in one buffer the job names, with the access the
 * unit makes; data a unit sends to another node must go to a node whose
 * buffers users may write.  A unit whose programs the driver cannot read
 * (a cpu, a type it does not know) runs only an administrator's jobs.
 *
 * The buffers are gathered once per SUBMIT into a table sorted by address
 * (BOs never overlap), so each operand is one binary search.  Nothing here
 * touches the device: a refused job sends nothing.
 */
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "kh_priv.h"
#include "kh_check.h"

static int kh_check_bo_cmp(const void *a, const void *b)
{
	const struct kh_check_bo *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* the BO of the table that holds @addr, or NULL */
static const struct kh_check_bo *kh_check_find(const struct kh_check *c, u64 addr)
{
	u32 lo = 0, hi = c->n_bos;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (c->bos[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= c->bos[lo - 1].end)
		return NULL;
	return &c->bos[lo - 1];
}

static const char *kh_access_name(u32 access)
{
	return access == KOHAKU_JOB_BO_RW ? "read and write" :
	       access == KOHAKU_JOB_BO_WRITE ? "write" : "read";
}

int kh_check_refuse(struct kh_check *c, u32 why, u32 inst, u32 operand,
		    u64 addr, u64 len)
{
	struct drm_kohaku_submit *a = c->a;

	a->refused_why = why;
	a->refused_program = c->prog;
	a->refused_inst = inst;
	a->refused_operand = operand;
	a->refused_addr = addr;
	a->refused_len = len;
	return -EACCES;
}

int kh_check_mem(struct kh_check *c, u32 inst, u32 operand, const char *what,
		 u64 addr, u64 len, u32 access)
{
	const struct kh_node *n = c->node;
	const struct kh_check_bo *bo;
	u32 why;

	if (c->unchecked || !len)
		return 0;
	if (addr + len < addr || addr + len - 1 < addr) {
		why = KOHAKU_REFUSED_WRAPS;
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (%s unit at (%u,%u)): %s at 0x%llx, %llu bytes, wraps past the top of the address space\n",
		       c->prog, inst, c->unit, n->x, n->y, what, addr, len);
		return kh_check_refuse(c, why, inst, operand, addr, len);
	}
	bo = kh_check_find(c, addr);
	if (!bo || len > bo->end - addr) {
		why = KOHAKU_REFUSED_OUTSIDE;
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (%s unit at (%u,%u)): %s at 0x%llx, %llu bytes, %s\n",
		       c->prog, inst, c->unit, n->x, n->y, what, addr, len,
		       bo ? "runs past the end of the buffer it starts in" :
		       "lies in no buffer the job names");
		return kh_check_refuse(c, why, inst, operand, addr, len);
	}
	if ((bo->access & access) != access) {
		why = KOHAKU_REFUSED_INTENT;
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (%s unit at (%u,%u)): %s at 0x%llx, %llu bytes, would %s BO %u, which the job names to %s only\n",
		       c->prog, inst, c->unit, n->x, n->y, what, addr, len,
		       kh_access_name(access & ~bo->access), bo->handle,
		       kh_access_name(bo->access));
		return kh_check_refuse(c, why, inst, operand, addr, len);
	}
	/* a POOL program's buffers become its unit's regions */
	if (c->reach)
		return kh_pool_bounds_note(c, bo, access, inst, operand);
	return 0;
}

const char *kh_node_refuses_data(struct kh_mesh *m, unsigned int x, unsigned int y)
{
	const struct kh_node *t = kh_mesh_node(m, x, y);

	if (!t)
		return "is not an enumerated node of the mesh";
	if (t->cu_type == KH_CU_GP)
		return "is a POOL unit: its firmware owns its buffers";
	if (t->cu_type == KH_CU_DX)
		return "is a DXA unit: its buffer is a descriptor table, which only the driver writes";
	return NULL;
}

int kh_check_target(struct kh_check *c, u32 inst, u32 operand, const char *what,
		    unsigned int x, unsigned int y)
{
	const struct kh_node *n = c->node;
	const char *why;

	if (c->unchecked)
		return 0;
	why = kh_node_refuses_data(n->mesh, x, y);
	if (!why)
		return 0;
	kh_dbg(c->kd, "SUBMIT: program %u instruction %u (%s unit at (%u,%u)): %s (%u,%u) %s\n",
	       c->prog, inst, c->unit, n->x, n->y, what, x, y, why);
	return kh_check_refuse(c, KOHAKU_REFUSED_NODE, inst, operand,
			       (u64)y << 8 | x, 0);
}

int kh_check_admin_only(struct kh_check *c, u32 inst, const char *why)
{
	const struct kh_node *n = c->node;

	if (c->unchecked)
		return 0;
	if (c->admin) {
		/* what it reaches is not known: the unit is not bounded */
		if (c->bounds)
			c->bounds->en = KH_POOL_BOUNDS_ALL;
		return 0;
	}
	kh_dbg(c->kd, "SUBMIT: program %u instruction %u (%s unit at (%u,%u)) %s: the driver cannot check what it reaches, so only an administrator's jobs may send it\n",
	       c->prog, inst, c->unit, n->x, n->y, why);
	return kh_check_refuse(c, KOHAKU_REFUSED_UNCHECKABLE, inst, 0, 0, 0);
}

/* ---- the units the driver reads ---- */

/*
 * SX (docs/spec/units.md): SAXPY with 1 <= n <= 64 reads x and reads and
 * writes y, n elements each from the 32-byte word that holds the address
 * (bits [39:0]); anything else faults or retires without memory.  The rest
 * of a last partial word is read and written back as read: it lies in the
 * same 4 KiB-aligned allocation.
 */
static int kh_check_sx(struct kh_check *c, const struct kh_prog *pr)
{
	u32 i;
	int ret;

	for (i = 0; i < pr->n; i++) {
		u64 n, x, y;

		const struct kohaku_inst *in = &pr->insts[i];

		if (kh_inst_get(in, KH_SX_OPCODE) != KH_SX_OP_SAXPY)
			continue;
		n = kh_inst_get(in, KH_SX_N);
		if (!n || n > KH_SX_N_MAX)
			continue;
		x = kh_inst_get(in, KH_SX_X_ADDR) & KH_SX_ADDR_KEEP;
		y = kh_inst_get(in, KH_SX_Y_ADDR) & KH_SX_ADDR_KEEP;
		ret = kh_check_mem(c, i, 0, "x", x, n * 4, KOHAKU_JOB_BO_READ);
		if (!ret)
			ret = kh_check_mem(c, i, 1, "y", y, n * 4, KOHAKU_JOB_BO_RW);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The scratch unit's COPY_OUT (docs/spec/dxa.md) writes granules - 1
 * [247:240] + 1 granules to the 32-byte aligned address [215:176]; a bad op,
 * a range past the buffer or a misaligned address faults before memory.
 */
static int kh_check_scr(struct kh_check *c, const struct kh_prog *pr)
{
	u32 i;
	int ret;

	for (i = 0; i < pr->n; i++) {
		const struct kohaku_inst *in = &pr->insts[i];
		u64 count, first, addr;

		if (kh_inst_get(in, KH_SCR_INST_OP) != KH_SCR_OP_COPY_OUT)
			continue;
		count = kh_inst_get(in, KH_SCR_INST_COUNT) + 1;
		first = kh_inst_get(in, KH_SCR_INST_FIRST);
		addr = kh_inst_get(in, KH_SCR_INST_ADDR);
		if (first + count > KH_SCR_GRANULES || addr % KOHAKU_DATA_GRANULE)
			continue;
		ret = kh_check_mem(c, i, 0, "addr", addr, count * KOHAKU_DATA_GRANULE,
				   KOHAKU_JOB_BO_WRITE);
		if (ret)
			return ret;
	}
	return 0;
}

/* the null unit retires everything and touches no memory */
static int kh_check_none(struct kh_check *c, const struct kh_prog *pr)
{
	return 0;
}

/*
 * Every unit type the driver knows, with what reads its programs: NULL
 * for a unit that runs arbitrary programs with no bound on what they
 * reach (rv_pe), which an administrator's file alone may use.
 */
static const struct kh_check_unit kh_check_units[] = {
	{ KH_CU_NULL, "null", kh_check_none },
	{ KH_CU_SX, "SX", kh_check_sx },
	{ KH_CU_SC, "scratch", kh_check_scr },
	/* its COPYs' tensors are checked with their slots (kh_dxa.c) */
	{ KH_CU_DX, "DXA", kh_check_none },
	{ KH_CU_MG, "mat", kh_check_mat },
	{ KH_CU_VC, "vec", kh_check_vec },
	/* its firmware's kernels (kh_check_pool.c) */
	{ KH_CU_GP, "POOL", kh_check_pool },
	{ KH_CU_RV, "cpu", NULL },
};

static const struct kh_check_unit *kh_check_unit_of(u16 cu_type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kh_check_units); i++)
		if (kh_check_units[i].cu_type == cu_type)
			return &kh_check_units[i];
	return NULL;
}

/* ---- the buffers a job names ---- */

static int kh_check_add(struct kh_check *c, const struct kh_bo *bo, u32 access)
{
	struct kh_check_bo *b;

	if (c->n_bos == c->cap) {
		u32 cap = c->cap ? c->cap * 2 : 16;
		struct kh_check_bo *nb = kvcalloc(cap, sizeof(*nb), GFP_KERNEL);

		if (!nb)
			return -ENOMEM;
		if (c->n_bos)
			memcpy(nb, c->bos, c->n_bos * sizeof(*nb));
		kvfree(c->bos);
		c->bos = nb;
		c->cap = cap;
	}
	b = &c->bos[c->n_bos++];
	b->start = kh_bo_dev_addr(bo);
	b->end = b->start + bo->size;
	b->handle = bo->handle;
	b->access = access;
	return 0;
}

/* every BO of the file on the job's mesh, read and write */
static int kh_check_file_bos(struct kh_check *c, struct kh_file *kf)
{
	struct kh_bo *bo;
	unsigned long h;
	int ret = 0;

	lockdep_assert_held(&kf->lock);
	xa_for_each(&kf->bos, h, bo) {
		if (bo->mesh != c->mesh)
			continue;
		ret = kh_check_add(c, bo, KOHAKU_JOB_BO_RW);
		if (ret)
			break;
	}
	return ret;
}

static int kh_check_named(struct kh_check *c, struct kh_file *kf,
			  const struct drm_kohaku_job_bo *jb, u32 n)
{
	struct kh_bo *bo;
	u32 i, j;
	int ret;

	lockdep_assert_held(&kf->lock);
	for (i = 0; i < n; i++) {
		if (jb[i].reserved || !jb[i].flags || (jb[i].flags & ~KOHAKU_JOB_BO_RW)) {
			kh_dbg(c->kd, "SUBMIT: buffer entry %u: flags 0x%x, reserved 0x%llx; flags are KOHAKU_JOB_BO_READ and/or _WRITE, reserved 0\n",
			       i, jb[i].flags, jb[i].reserved);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (jb[j].handle == jb[i].handle) {
				kh_dbg(c->kd, "SUBMIT: buffer entries %u and %u both name BO %u; name it once, with both access bits\n",
				       j, i, jb[i].handle);
				return -EINVAL;
			}
		}
		bo = xa_load(&kf->bos, jb[i].handle);
		if (!bo) {
			kh_dbg(c->kd, "SUBMIT: buffer entry %u: BO %u is not a BO of this file\n",
			       i, jb[i].handle);
			return -ENOENT;
		}
		if (bo->mesh != c->mesh) {
			kh_dbg(c->kd, "SUBMIT: buffer entry %u: BO %u is on mesh %u; the job runs on mesh %u, whose units reach their own mesh's memory\n",
			       i, jb[i].handle, bo->mesh->id, c->mesh->id);
			return -EINVAL;
		}
		ret = kh_check_add(c, bo, jb[i].flags);
		if (ret)
			return ret;
	}
	return 0;
}

int kh_check_begin(struct kh_check *c, struct kh_file *kf,
		   struct drm_kohaku_submit *a, struct kh_mesh *m)
{
	struct drm_kohaku_job_bo *jb = NULL;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	c->kd = kf->kd;
	c->a = a;
	c->mesh = m;
	c->admin = kf->admin;
	/*
	 * A hint, read without the mesh's lock (SUBMIT's path stays as it
	 * was): kh_submit_lease() looks again, under it, when it queues the
	 * job, and refuses a job that passed by a lease since given back.
	 */
	c->leased = READ_ONCE(m->lease) == kf;
	if (a->flags & KOHAKU_SUBMIT_UNCHECKED) {
		c->unchecked = true;
		return 0;
	}
	/* ABI 0.7's form: an administrator's job is not checked */
	if (!a->flags && !a->n_bos && kf->admin) {
		c->unchecked = true;
		return 0;
	}
	if (a->n_bos) {
		jb = kvcalloc(a->n_bos, sizeof(*jb), GFP_KERNEL);
		if (!jb)
			return -ENOMEM;
		if (copy_from_user(jb, u64_to_user_ptr(a->bos_ptr),
				   (size_t)a->n_bos * sizeof(*jb))) {
			kvfree(jb);
			return -EFAULT;
		}
	}
	mutex_lock(&kf->lock);
	if (a->flags & KOHAKU_SUBMIT_FILE_BOS)
		ret = kh_check_file_bos(c, kf);
	else if (a->n_bos)
		ret = kh_check_named(c, kf, jb, a->n_bos);
	mutex_unlock(&kf->lock);
	kvfree(jb);
	if (ret)
		return ret;
	if (c->n_bos)	/* no table, nothing to sort */
		sort(c->bos, c->n_bos, sizeof(*c->bos), kh_check_bo_cmp, NULL);
	return 0;
}

bool kh_check_names_bo(const struct kh_check *c, const struct kh_bo *bo, u32 access)
{
	const struct kh_check_bo *b;

	if (c->unchecked)
		return true;
	b = kh_check_find(c, kh_bo_dev_addr(bo));
	return b && b->handle == bo->handle && (b->access & access) == access;
}

/* a POOL program: its operands' buffers are gathered as its regions */
static int kh_check_pool_prog(struct kh_check *c, const struct kh_check_unit *u,
			      struct kh_prog *pr)
{
	int ret;

	if (c->n_bos) {
		c->reach = kvcalloc(c->n_bos, sizeof(*c->reach), GFP_KERNEL);
		if (!c->reach)
			return -ENOMEM;
	}
	c->bounds = &pr->bounds;
	ret = u->check(c, pr);
	kvfree(c->reach);
	c->reach = NULL;
	c->bounds = NULL;
	return ret;
}

int kh_check_job(struct kh_check *c, struct kh_job *job)
{
	const struct kh_check_unit *u;
	u32 i;
	int ret;

	if (c->unchecked) {
		/* nothing checked: a POOL unit is not bounded either */
		for (i = 0; i < job->n_progs; i++)
			if (job->progs[i].node->cu_type == KH_CU_GP)
				job->progs[i].bounds.en = KH_POOL_BOUNDS_ALL;
		return 0;
	}
	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *pr = &job->progs[i];
		const struct kh_node *n = pr->node;

		c->prog = i;
		c->node = n;
		u = kh_check_unit_of(n->cu_type);
		c->unit = u ? u->name : "unknown";
		if (!u || !u->check) {
			if (c->admin)
				continue;
			/* the mesh is this file's alone: nobody else's memory there */
			if (c->leased) {
				c->used_lease = true;
				continue;
			}
			kh_dbg(c->kd, "SUBMIT: program %u targets a %s unit (cu_type 0x%04x) at (%u,%u): the driver cannot check what its programs reach, so only an administrator's jobs, or those of the file holding the mesh (MESH_LEASE), may run there\n",
			       i, c->unit, n->cu_type, n->x, n->y);
			return kh_check_refuse(c, KOHAKU_REFUSED_UNCHECKABLE, 0, 0, 0, 0);
		}
		if (n->cu_type == KH_CU_GP)
			ret = kh_check_pool_prog(c, u, pr);
		else
			ret = u->check(c, pr);
		if (ret)
			return ret;
	}
	return 0;
}

void kh_check_end(struct kh_check *c)
{
	kvfree(c->bos);
	c->bos = NULL;
}
