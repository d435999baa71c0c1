/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a job may reach (kh_check.c): the context SUBMIT builds once per
 * job, and what each unit's checker calls for every operand it decodes.
 */
#ifndef KH_CHECK_H
#define KH_CHECK_H

#include "kh_priv.h"

/* a buffer the job names: one entry of kh_check.bos */
struct kh_check_bo {
	u64 start, end;		/* device addresses, [start, end) */
	u32 handle;
	u32 access;		/* KOHAKU_JOB_BO_* */
};

/**
 * struct kh_check - one SUBMIT's check of its job
 * @kd: the device, for messages.
 * @a: the SUBMIT; its refused_* fields get the refused operand.
 * @mesh: the job's mesh: the named BOs must be on it.
 * @admin: the submitting file's opener is an administrator.
 * @leased: the submitting file holds the job's mesh (MESH_LEASE): the
 *	units nothing bounds run its programs as an administrator's.
 * @used_lease: a program passed by @leased alone; the job counts as the
 *	lease's (kh_mesh.lease_jobs) until it is final.
 * @unchecked: nothing is checked (KOHAKU_SUBMIT_UNCHECKED, or an
 *	administrator's job in ABI 0.7's form).
 * @bos: the named buffers, sorted by address; @n_bos of @cap.
 * @n_bos: entries in @bos.
 * @cap: room in @bos.
 * @prog: the program being checked, for messages and refused_program.
 * @node: its node.
 * @unit: its unit type's name, for messages.
 * @reach: while a POOL program is checked, per entry of @bos the access
 *	its operands make there (KOHAKU_JOB_BO_*); NULL otherwise.
 * @bounds: that program's regions, built as its operands are checked
 *	(kh_pool_bounds.c); NULL otherwise.
 */
struct kh_check {
	struct kh_device *kd;
	struct drm_kohaku_submit *a;
	struct kh_mesh *mesh;
	bool admin;
	bool leased;
	bool used_lease;
	bool unchecked;
	struct kh_check_bo *bos;
	u32 n_bos, cap;
	u32 prog;
	const struct kh_node *node;
	const char *unit;
	u32 *reach;
	struct kh_pool_bounds *bounds;
};

/**
 * struct kh_check_unit - a unit type the driver knows
 * @cu_type: CU_CAPS[63:48].
 * @name: for messages.
 * @check: decodes every instruction of a program for the type and checks
 *	each memory operand (kh_check_mem()) and node it sends data to
 *	(kh_check_target()); NULL when the unit runs arbitrary programs that
 *	nothing bounds (an administrator's jobs only).
 */
struct kh_check_unit {
	u16 cu_type;
	const char *name;
	int (*check)(struct kh_check *c, const struct kh_prog *pr);
};

/* a field of an instruction's payload, as kh_flit_get() reads a flit */
static inline u64 kh_inst_get(const struct kohaku_inst *in, unsigned int field)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	memcpy(f.w, in->w, sizeof(in->w));
	return kh_flit_get(&f, field);
}

int kh_check_begin(struct kh_check *c, struct kh_file *kf,
		   struct drm_kohaku_submit *a, struct kh_mesh *m);
int kh_check_job(struct kh_check *c, struct kh_job *job);
void kh_check_end(struct kh_check *c);
bool kh_check_names_bo(const struct kh_check *c, const struct kh_bo *bo, u32 access);

/**
 * kh_check_mem() - an operand's bytes lie in one named buffer
 * @c: the check.
 * @inst: the instruction's index in the program.
 * @operand: the operand's index in the instruction (docs/abi.md's table).
 * @what: its name, for the message.
 * @addr: its first byte, as the unit uses it (a device address).
 * @len: the bytes it covers; 0 covers none.
 * @access: KOHAKU_JOB_BO_READ and/or _WRITE: what the unit does there.
 *
 * Return: 0, or -EACCES with the refused_* fields filled and a message.
 */
int kh_check_mem(struct kh_check *c, u32 inst, u32 operand, const char *what,
		 u64 addr, u64 len, u32 access);
/**
 * kh_check_refuse() - refuse the job at an operand
 * @c: the check.
 * @why: KOHAKU_REFUSED_*.
 * @inst: the instruction's index in the program.
 * @operand: the operand's index in the instruction.
 * @addr: the operand's first byte, or what the unit's table says.
 * @len: the bytes it covers, or 0.
 *
 * Fills SUBMIT's refused_* fields; the caller has logged why.
 *
 * Return: -EACCES.
 */
int kh_check_refuse(struct kh_check *c, u32 why, u32 inst, u32 operand,
		    u64 addr, u64 len);
/**
 * kh_check_target() - a node a unit sends CU_DATA to takes users' data
 * @c: the check.
 * @inst: the instruction's index in the program.
 * @operand: the operand's index in the instruction.
 * @what: its name, for the message.
 * @x: the node's coordinate.
 * @y: likewise.
 *
 * Return: 0, or -EACCES (KOHAKU_REFUSED_NODE): no such node, a POOL unit
 * (its firmware owns its buffers) or a DXA unit (its table is the driver's).
 */
int kh_check_target(struct kh_check *c, u32 inst, u32 operand, const char *what,
		    unsigned int x, unsigned int y);
/**
 * kh_check_admin_only() - an instruction whose reach the driver cannot tell
 * @c: the check.
 * @inst: the instruction's index in the program.
 * @why: what it is, for the message ("is a LOAD, ...").
 *
 * Return: 0 for an administrator's file, else -EACCES
 * (KOHAKU_REFUSED_UNCHECKABLE, the instruction named, operand, address and
 * length 0).
 */
int kh_check_admin_only(struct kh_check *c, u32 inst, const char *why);

/**
 * kh_check_mat() - what a mat program reads, writes and sends to
 * @c: the check.
 * @pr: the program, on a mat unit.
 *
 * FILL, emitting GEMM and DRAIN operands (kh_check_mat.c; docs/spec/mat.md
 * "What a job may reach").
 *
 * Return: 0, or -EACCES with the refused_* fields filled.
 */
int kh_check_mat(struct kh_check *c, const struct kh_prog *pr);
/**
 * kh_check_vec() - what a vec program's kernels read, write and send to
 * @c: the check.
 * @pr: the program, on a vec unit.
 *
 * Every VFILL and VDRAIN a RUN can reach, over its descriptor's extent;
 * IMEM words and descriptors the RUN uses must be this program's own
 * (kh_check_vec.c; docs/spec/vec.md "What a job may reach").
 *
 * Return: 0, or -EACCES with the refused_* fields filled.
 */
int kh_check_vec(struct kh_check *c, const struct kh_prog *pr);
/**
 * kh_check_pool() - the POOL unit's checker (kh_check_pool.c)
 * @c: the check.
 * @pr: a program for a POOL unit: jobs for its firmware.
 *
 * Return: 0, or -EACCES from kh_check_mem() or kh_check_admin_only().
 */
int kh_check_pool(struct kh_check *c, const struct kh_prog *pr);

/**
 * kh_pool_bounds_note() - a POOL program's operand lies in a named buffer
 * @c: the check, with @c->reach and @c->bounds set.
 * @bo: the buffer, an entry of @c->bos.
 * @access: what the operand does there.
 * @inst: the instruction's index, for a refusal.
 * @operand: the operand's index, for a refusal.
 *
 * Adds the buffer to the program's regions (kh_pool_bounds.c).
 *
 * Return: 0, or -E2BIG (KOHAKU_REFUSED_REGIONS): more separate buffers
 * than the unit has regions.
 */
int kh_pool_bounds_note(struct kh_check *c, const struct kh_check_bo *bo,
			u32 access, u32 inst, u32 operand);

#endif /* KH_CHECK_H */
