// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What a mat program reaches (ABI 0.8; the unit is docs/spec/mat.md, the
 * model sim-backend/units/mat/, the encoding uapi/kohaku/kh_mat.h).  Every
 * instruction is decoded as the unit and its MAG port use it, and what it
 * reads, writes or sends is checked (kh_check_mem(), kh_check_target()).
 * The operands, as docs/spec/mat.md "What a job may reach" lists them:
 *
 * FILL: operand 0 reads the entries MAG fetches, count = n[7:0] (0 means
 *	1: MAG's descriptor count) entries of 256 bytes (QUANT: 8 FP16 beats)
 *	or 128 (preq: 4 MXFP7 words) from addr rounded down to 32 bytes (MAG
 *	decodes whole words); operands 1..npeer are the peers MAG sends the
 *	responses to.  Checked whether or not this node leads the set.
 * GEMM with emit, DRAIN: operand 0 writes 32-byte sub-tiles from addr
 *	(rounded down to 32) when dnode is 0, operand 1 is the node (dst_x,
 *	dst_y) a dnode write goes to, operand 2 is a far mesh (dfin or dmesh
 *	nonzero), an administrator's only.  The sub-tiles: the write port
 *	sends whatever it still holds to the latest destination (an emitting
 *	GEMM's or a DRAIN's, latched as it starts: mat.c:359, :374), at
 *	addr + 32 * i for the granule's index i in the emission or drain that
 *	made it (drain.c:279), so an instruction covers its own granules
 *	(gm * gn emitted, n drained, 2n sent to a peer buffer) or those still
 *	in flight from before it in the program, whichever are more.
 *
 * A GEMM without emit, an unknown opcode and a DRAIN with dfin nonzero (an
 * administrator's: the model refuses it before memory) reach nothing.  A
 * program may not end with sub-tiles that nothing in it waited for (an
 * emitting GEMM retires as its sweep starts): the next job's DRAIN on the
 * unit would send them to its own destination.
 */
#include "kh_priv.h"
#include "kh_check.h"
#include "kohaku/kh_mat.h"
#include "kohaku/kh_mxfp7.h"

#define KH_MAT_ADDR_ALIGN	((u64)KH_MAT_GRANULE - 1)

/* sub-tiles the write port may hold from earlier in the program */
struct kh_mat_flight {
	u64 most;	/* the largest granule index + 1 among them */
	u64 total;	/* how many at most */
	u32 inst;	/* the last instruction that left some in flight */
	u64 addr, len;	/* its operand 0, for a refusal */
};

static u64 kh_mat_addr(const struct kohaku_inst *in)
{
	return kh_inst_get(in, KH_MAT_ADDR_LO) |
	       kh_inst_get(in, KH_MAT_ADDR_HI) << KH_MAT_ADDR_LO_BITS;
}

/* 0 in n means 1 (mx_cluster_cu.v L797; mat.c:234-236) */
static u64 kh_mat_n(const struct kohaku_inst *in)
{
	u64 n = kh_inst_get(in, KH_MAT_N);

	return n ? n : 1;
}

/* FILL: the entries MAG reads (l1.c:33-41; mesh/mag.c:425-466) and the peers */
static int kh_check_mat_fill(struct kh_check *c, u32 i, const struct kohaku_inst *in)
{
	u64 count = kh_mat_n(in) & 0xff, peers = kh_inst_get(in, KH_MAT_PEERS);
	u64 entry = kh_inst_get(in, KH_MAT_PREQ) ?
		    (u64)KH_MEM_ENTRY_WORDS_MAX * KH_PAYLOAD_BYTES :
		    (u64)KH_MX_SRC_BEATS * KH_PAYLOAD_BYTES;
	u32 np = kh_inst_get(in, KH_MAT_NPEER), p;
	int ret;

	if (!count)
		count = 1;		/* MAG: count 0 means 1 */
	ret = kh_check_mem(c, i, 0, "FILL addr",
			   kh_mat_addr(in) & ~KH_MAT_ADDR_ALIGN, count * entry,
			   KOHAKU_JOB_BO_READ);
	for (p = 0; !ret && p < np; p++) {
		u32 yx = (peers >> (8 * p)) & 0xff;

		ret = kh_check_target(c, i, 1 + p, "FILL peer",
				      KH_YX_X(yx), KH_YX_Y(yx));
	}
	return ret;
}

/*
 * An emitting GEMM's or a DRAIN's destination: @own granules of its own,
 * and those still in flight.  A far mesh first: the model refuses a DRAIN
 * with dfin (mat.c:309-311) and the RTL would send it through the
 * interlink, where no buffer of the job is.
 */
static int kh_check_mat_dest(struct kh_check *c, u32 i,
			     const struct kohaku_inst *in, const char *what,
			     u64 own, const struct kh_mat_flight *fl)
{
	u64 dfin = kh_inst_get(in, KH_MAT_DFIN), dmesh = kh_inst_get(in, KH_MAT_DMESH);
	u64 addr = kh_mat_addr(in) & ~KH_MAT_ADDR_ALIGN;
	u64 gran = own > fl->most ? own : fl->most;

	if ((dfin || dmesh) && !c->admin) {
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (mat unit at (%u,%u)): %s to mesh %llu node (%llu,%llu) through the interlink: another mesh's memory, an administrator's only\n",
		       c->prog, i, c->node->x, c->node->y, what, dmesh,
		       dfin & 0xf, dfin >> 4);
		return kh_check_refuse(c, KOHAKU_REFUSED_NODE, i, 2,
				     dmesh << 16 | (dfin >> 4) << 8 | (dfin & 0xf), 0);
	}
	if (kh_inst_get(in, KH_MAT_DNODE))
		return kh_check_target(c, i, 1, what,
				       kh_inst_get(in, KH_MAT_DST_X),
				       kh_inst_get(in, KH_MAT_DST_Y));
	return kh_check_mem(c, i, 0, what, addr, gran * KH_MAT_GRANULE,
			    KOHAKU_JOB_BO_WRITE);
}

static void kh_mat_fly(struct kh_mat_flight *fl, u32 i,
		       const struct kohaku_inst *in, u64 own)
{
	if (own > fl->most)
		fl->most = own;
	fl->total += own;
	fl->inst = i;
	fl->addr = kh_mat_addr(in) & ~KH_MAT_ADDR_ALIGN;
	fl->len = own * KH_MAT_GRANULE;
}

int kh_check_mat(struct kh_check *c, const struct kh_prog *pr)
{
	struct kh_mat_flight fl = { 0 };
	u32 i;
	int ret;

	for (i = 0; i < pr->n; i++) {
		const struct kohaku_inst *in = &pr->insts[i];
		u64 n = kh_mat_n(in), own, gn;

		switch (kh_inst_get(in, KH_MAT_OP)) {
		case KH_MAT_OP_FILL:
			ret = kh_check_mat_fill(c, i, in);
			break;
		case KH_MAT_OP_GEMM:
			if (!kh_inst_get(in, KH_MAT_EMIT)) {
				ret = 0;	/* L1 and the tiles only */
				break;
			}
			/* one sub-tile per (g, h) of the last K pair (sweep.c:123-143) */
			own = kh_inst_get(in, KH_MAT_GM);
			gn = kh_inst_get(in, KH_MAT_GN);
			own = (own ? own : 1) * (gn ? gn : 1);
			ret = kh_check_mat_dest(c, i, in, "GEMM emit", own, &fl);
			kh_mat_fly(&fl, i, in, own);
			break;
		case KH_MAT_OP_DRAIN:
			if (kh_inst_get(in, KH_MAT_DFIN) && c->admin) {
				ret = 0;	/* the model: retired at once */
				break;
			}
			if (kh_inst_get(in, KH_MAT_FUSE)) {
				/* issues nothing; waits for n popped, then idle */
				ret = kh_check_mat_dest(c, i, in, "DRAIN addr", n, &fl);
				if (n >= fl.total)
					memset(&fl, 0, sizeof(fl));
				break;
			}
			own = kh_inst_get(in, KH_MAT_DNODE) &&
			      kh_inst_get(in, KH_MAT_DBUF) == KH_MAT_BUF_PEER ? 2 * n : n;
			ret = kh_check_mat_dest(c, i, in, "DRAIN addr", own, &fl);
			/* with nothing before it, it retires with all its own sent */
			if (fl.total)
				kh_mat_fly(&fl, i, in, own);
			break;
		default:
			ret = 0;	/* a no-op (L816) */
			break;
		}
		if (ret)
			return ret;
	}
	if (fl.total && !c->admin) {
		kh_dbg(c->kd, "SUBMIT: program %u instruction %u (mat unit at (%u,%u)): up to %llu sub-tiles may still be in flight when the program ends (no fused DRAIN with n >= %llu after them): the next job's DRAIN would send them to its own destination\n",
		       c->prog, fl.inst, c->node->x, c->node->y, fl.total, fl.total);
		return kh_check_refuse(c, KOHAKU_REFUSED_UNCHECKABLE, fl.inst, 0,
				     fl.addr, fl.len);
	}
	return 0;
}
