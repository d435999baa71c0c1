// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a vec unit's job may reach (ABI 0.8; docs/spec/vec.md "What a job
 * may reach").  The unit's CU instructions touch no memory: IMEM writes a
 * kernel word, DESC a descriptor field, RUN starts the kernel in IMEM.  In
 * the kernel only VFILL (DRAM -> L1) and VDRAIN (L1 -> DRAM, or to a node's
 * CU_DATA port) leave the unit (sim-backend/units/vec/mem.c; VLD, VST,
 * VCVT, VSHUF and VBCAST walk L1 only, ldst.c), and both walk a descriptor
 * with offset 0: addr = base + sum idx_k * stride_k, idx_k < bound_k
 * (agu.c), one 32-byte word per entry.  Nothing a kernel computes reaches
 * an address: the descriptors bound it.  So at each RUN the checker
 * follows the kernel from its pc through every word it can execute
 * (VSETI skips its immediate, a D2/D4 chain swallows the next one or three
 * words, VSETMODE changes the mode, a loop's end goes back to its top) and
 * checks each VFILL's descriptor's whole extent for reading and each
 * VDRAIN's for writing, or a node drain's sink.
 *
 * The unit keeps IMEM, the descriptors and the mode across jobs, and any
 * file's job may have set them last: a RUN may rely only on the words
 * and descriptors the same program loaded before it.  The mode at RUN is
 * unknown, so the kernel is followed in all four until a VSETMODE.  A RUN
 * that needs anything else is refused for a non-administrator
 * (KOHAKU_REFUSED_UNCHECKABLE) and not checked for an administrator.
 */
#include "kh_priv.h"
#include "kh_check.h"
#include "kohaku/kh_vec.h"

#define KH_VEC_IMEM_MASK	(KH_VEC_IMEM_WORDS - 1)
#define KH_VEC_MODES		4
#define KH_VEC_STATES		(KH_VEC_IMEM_WORDS * KH_VEC_MODES)
#define KH_VEC_DESC_ALL		0x1f	/* base and the four dimensions */
#define KH_VEC_ADDR_TOP		(1ULL << 40)
#define KH_VEC_ND_FIN_SHIFT	26	/* the base's remote-sink coordinate */
#define KH_VEC_ND_FIN_MASK	0xffULL

struct kh_vec_desc {
	u64 base;
	u32 stride[KH_VEC_DIMS];	/* 18-bit two's complement */
	u32 bound[KH_VEC_DIMS];
	u8 set;				/* fields this program wrote */
};

struct kh_vec_check {
	u32 imem[KH_VEC_IMEM_WORDS];
	u64 imem_set[KH_VEC_IMEM_WORDS / 64];
	struct kh_vec_desc desc[KH_VEC_DESCS];
	/* one RUN's walk over (pc, mode) */
	u64 seen[KH_VEC_STATES / 64];
	u16 loop_end[KH_VEC_IMEM_WORDS];	/* bit j: a loop with top end - j */
	u16 work[KH_VEC_STATES];
	u32 n_work;
	char what[80];
};

static bool kh_vec_bit(const u64 *map, u32 i)
{
	return map[i / 64] >> (i % 64) & 1;
}

static void kh_vec_set_bit(u64 *map, u32 i)
{
	map[i / 64] |= 1ULL << (i % 64);
}

static void kh_vec_push(struct kh_vec_check *v, u32 pc, u32 mode)
{
	u32 key = (pc & KH_VEC_IMEM_MASK) | mode << 9;

	if (kh_vec_bit(v->seen, key))
		return;
	kh_vec_set_bit(v->seen, key);
	v->work[v->n_work++] = (u16)key;
}

/*
 * The RUN at inst relies on state this program did not set: IMEM word pc,
 * or the descriptor addr of the word at pc (what says which).  1 for an
 * administrator (the RUN is not checked further), else -EACCES.
 */
static int kh_vec_stale(struct kh_check *c, u32 inst, u32 pc, u64 addr,
			const char *what)
{
	const struct kh_node *n = c->node;

	if (c->admin)
		return 1;
	kh_dbg(c->kd, "SUBMIT: program %u instruction %u (RUN on the vec unit at (%u,%u)): %s was not set by this program before the RUN: an earlier job's state, which only an administrator's job may rely on\n",
	       c->prog, inst, n->x, n->y, what);
	return kh_check_refuse(c, KOHAKU_REFUSED_UNCHECKABLE, inst, pc, addr, 0);
}

/* IMEM word pc, which the kernel may execute or read */
static int kh_vec_stale_word(struct kh_check *c, struct kh_vec_check *v,
			     u32 inst, u32 pc, const char *how)
{
	snprintf(v->what, sizeof(v->what), "IMEM word %u (%s)", pc, how);
	return kh_vec_stale(c, inst, pc, 0, v->what);
}

/* a VDRAIN to node ([24] set): the sink, in this mesh only */
static int kh_vec_drain_node(struct kh_check *c, const struct kh_vec_desc *d,
			     u32 inst, u32 pc, u32 w, const char *what)
{
	u64 fin = d->base >> KH_VEC_ND_FIN_SHIFT & KH_VEC_ND_FIN_MASK;

	if (fin && !c->unchecked) {
		/* mem.c: a nonzero final coordinate sends the burst to a node of
		 * another mesh, through (x, y) as its bridge */
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (vec unit at (%u,%u)): %s sends to a node of another mesh (descriptor base 0x%llx): the driver checks sinks in the job's mesh only\n",
		       c->prog, inst, c->node->x, c->node->y, what, d->base);
		return kh_check_refuse(c, KOHAKU_REFUSED_NODE, inst, pc, d->base, 0);
	}
	return kh_check_target(c, inst, pc, what, KH_VEC_GET(w, KH_VEC_ND_X),
			       KH_VEC_GET(w, KH_VEC_ND_Y));
}

/*
 * A VFILL or VDRAIN at IMEM pc: the whole extent of its descriptor,
 * from the lowest word the walk can touch to the end of the highest
 * (32-byte words: MAG aligns every address down, mesh/mag.c).
 */
static int kh_vec_walk(struct kh_check *c, struct kh_vec_check *v, u32 inst,
		       u32 pc, u32 w)
{
	u32 op = KH_VEC_GET(w, KH_VEC_OP), ad = KH_VEC_GET(w, KH_VEC_AD), k;
	const struct kh_vec_desc *d = &v->desc[ad];
	bool fill = op == KH_VEC_VFILL;
	s64 lo = 0, hi = 0;
	u64 first, end;

	snprintf(v->what, sizeof(v->what), "%s at IMEM %u through descriptor %u",
		 fill ? "VFILL" : "VDRAIN", pc, ad);
	if (d->set != KH_VEC_DESC_ALL) {
		snprintf(v->what, sizeof(v->what),
			 "descriptor %u (all five fields), walked by the %s at IMEM %u",
			 ad, fill ? "VFILL" : "VDRAIN", pc);
		return kh_vec_stale(c, inst, pc, ad, v->what);
	}
	if (!fill && KH_VEC_GET(w, KH_VEC_ND))
		return kh_vec_drain_node(c, d, inst, pc, w, v->what);
	for (k = 0; k < KH_VEC_DIMS; k++) {
		s64 st = d->stride[k] & 0x20000 ? (s64)d->stride[k] - 0x40000 :
			 (s64)d->stride[k];
		s64 span = (s64)((d->bound[k] ? d->bound[k] : 1) - 1) * st;

		if (span < 0)
			lo += span;
		else
			hi += span;
	}
	lo += (s64)d->base;
	hi += (s64)d->base;
	/* below 0 or past 2^40 the walk wraps into the apertures: refused */
	first = (u64)lo & ~(u64)(KH_VEC_WORD_BYTES - 1);
	end = ((u64)hi & ~(u64)(KH_VEC_WORD_BYTES - 1)) + KH_VEC_WORD_BYTES;
	if (lo < 0)
		first = (u64)lo;	/* kh_check_mem() sees it wrap */
	if (hi >= (s64)KH_VEC_ADDR_TOP)
		end = KH_VEC_ADDR_TOP + KH_VEC_WORD_BYTES;
	return kh_check_mem(c, inst, pc, v->what, first, end - first,
			    fill ? KOHAKU_JOB_BO_READ : KOHAKU_JOB_BO_WRITE);
}

/* a loop from top to end (mod 512): its end may go back to its top */
static void kh_vec_loop(struct kh_vec_check *v, u32 top, u32 body)
{
	u32 end = (top + body) & KH_VEC_IMEM_MASK, m;

	if (v->loop_end[end] & (1u << body))
		return;
	v->loop_end[end] |= 1u << body;
	for (m = 0; m < KH_VEC_MODES; m++)
		if (kh_vec_bit(v->seen, end | m << 9))
			kh_vec_push(v, top, m);
}

/*
 * A RUN at instruction inst from pc: every (pc, mode) the sequencer
 * (sim-backend/units/vec/kernel.c) can reach, a superset: faults are
 * ignored, a loop's count is unknown, an ALU op in TREE mode goes on.
 */
static int kh_vec_run(struct kh_check *c, struct kh_vec_check *v, u32 inst,
		      u32 pc)
{
	u32 m, j;
	int ret;

	memset(v->seen, 0, sizeof(v->seen));
	memset(v->loop_end, 0, sizeof(v->loop_end));
	v->n_work = 0;
	for (m = 0; m < KH_VEC_MODES; m++)
		kh_vec_push(v, pc, m);
	while (v->n_work) {
		u32 key = v->work[--v->n_work], p = key & KH_VEC_IMEM_MASK;
		u32 w, op, d;

		m = key >> 9;
		/* S_F1: pc at a loop's end may go back to its top */
		for (j = 0; j < 16; j++)
			if (v->loop_end[p] & (1u << j))
				kh_vec_push(v, p - j, m);
		if (!kh_vec_bit(v->imem_set, p))
			return kh_vec_stale_word(c, v, inst, p, "the kernel may execute it");
		w = v->imem[p];
		op = KH_VEC_GET(w, KH_VEC_OP);
		if (KH_VEC_IS_ALU(op)) {
			/* a D2/D4 chain gathers the next words as its stages */
			d = m == KH_VEC_MODE_D2 ? 2 : m == KH_VEC_MODE_D4 ? 4 : 1;
			for (j = 1; j < d; j++)
				if (!kh_vec_bit(v->imem_set, (p + j) & KH_VEC_IMEM_MASK))
					return kh_vec_stale_word(c, v, inst,
								 (p + j) & KH_VEC_IMEM_MASK,
								 "a D2/D4 chain's stage");
			kh_vec_push(v, p + d, m);
			continue;
		}
		switch (op) {
		case KH_VEC_VSETMODE:
			kh_vec_push(v, p + 1, KH_VEC_GET(w, KH_VEC_VA) & 3);
			break;
		case KH_VEC_VSETI:
			if (!kh_vec_bit(v->imem_set, (p + 1) & KH_VEC_IMEM_MASK))
				return kh_vec_stale_word(c, v, inst,
							 (p + 1) & KH_VEC_IMEM_MASK,
							 "a VSETI's immediate");
			kh_vec_push(v, p + 2, m);
			break;
		case KH_VEC_VLOOP:
			kh_vec_loop(v, (p + 1) & KH_VEC_IMEM_MASK,
				    KH_VEC_GET(w, KH_VEC_VB));
			kh_vec_push(v, p + 1, m);
			break;
		case KH_VEC_VFILL:
		case KH_VEC_VDRAIN:
			ret = kh_vec_walk(c, v, inst, p, w);
			if (ret)
				return ret;
			kh_vec_push(v, p + 1, m);
			break;
		case KH_VEC_VHALT:
			break;
		default:	/* L1 and registers only */
			kh_vec_push(v, p + 1, m);
			break;
		}
	}
	return 0;
}

int kh_check_vec(struct kh_check *c, const struct kh_prog *pr)
{
	struct kh_vec_check *v;
	u32 i, k;
	int ret = 0;

	v = kvzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	for (k = 0; k < KH_VEC_DESCS; k++)
		for (i = 0; i < KH_VEC_DIMS; i++)
			v->desc[k].bound[i] = 1;
	for (i = 0; i < pr->n && !ret; i++) {
		const struct kohaku_inst *in = &pr->insts[i];
		u32 addr = (u32)kh_inst_get(in, KH_VEC_CU_ADDR) & KH_VEC_IMEM_MASK;
		struct kh_vec_desc *d;
		u32 fld;
		u64 val;

		switch (kh_inst_get(in, KH_VEC_CU_OP)) {
		case KH_VEC_CU_IMEM:
			v->imem[addr] = (u32)kh_inst_get(in, KH_VEC_CU_WORD);
			kh_vec_set_bit(v->imem_set, addr);
			break;
		case KH_VEC_CU_DESC:
			/* agu.c ksim_vec_agu_write(): fields 5-7 write nothing */
			d = &v->desc[kh_inst_get(in, KH_VEC_CU_AD)];
			fld = (u32)kh_inst_get(in, KH_VEC_CU_FLD);
			val = kh_inst_get(in, KH_VEC_CU_VAL_LO) |
			      kh_inst_get(in, KH_VEC_CU_VAL_HI) << KH_VEC_CU_VAL_LO_BITS;
			if (fld == KH_VEC_FLD_BASE) {
				d->base = val & (KH_VEC_ADDR_TOP - 1);
			} else if (fld <= KH_VEC_DIMS) {
				d->stride[fld - 1] = (u32)(val >> KH_VEC_DIM_STRIDE_SHIFT &
							   KH_VEC_DIM_STRIDE_MASK);
				d->bound[fld - 1] = (u32)(val & KH_VEC_DIM_BOUND_MASK);
			} else {
				break;
			}
			d->set |= 1u << fld;
			break;
		case KH_VEC_CU_RUN:
			ret = kh_vec_run(c, v, i, addr);
			if (ret > 0)	/* an administrator's: not checked */
				ret = 0;
			break;
		default:	/* no-ops */
			break;
		}
	}
	kvfree(v);
	return ret;
}
