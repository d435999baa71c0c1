// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The driver's L1 flush of the cpu units (rv_pe; docs/spec/cpu.md "The
 * driver's L1 flush", docs/driver-core.md "The cpu units' L1 flush").
 *
 * A cpu program's stores sit in its unit's write-back L1 until evicted or
 * flushed, and a halt does not write them back; clean lines outlive the
 * job too, and serve a later program in place of what the host wrote
 * since.  Left there, a later program on the unit would evict them into
 * memory that may by then be another file's.  Nothing on the NoC reaches
 * the unit's control words (they are the program's local window, and a
 * CU_INST is only a kick), so the driver runs a stub of its own on the
 * unit once every program of the job has retired (a peer push from a
 * program still running could overwrite it), before the job is final
 * and its memory can change hands:
 *
 *   the stub's granule (KH_CPU_STUB_GRANULE of the instruction window,
 *   the driver's: a job's data that writes it is refused at SUBMIT) as
 *   one CU_DATA burst of one granule, then a kick at KH_CPU_STUB_PC with
 *   `last`: lui t0, CTL_BASE; sw FLUSH; sw INVAL; ecall.
 *
 * Both from the mailbox, in the TX FIFO's order, and the unit takes no
 * kick while a flit is ahead of it in its receive path (rv_pe.v:299), so
 * the kick finds the granule written.  A mailbox flit takes no credit,
 * and the kick's completion, SIG_BATCH_COMPLETE, returns none: the credit
 * books of the job (settled before, kh_close_books()) do not see the
 * stubs.  The job's counts do: each stub is one more signal its node owes
 * (kh_prog.stub, kh_job.stubs), so the job is not done until every stub
 * has retired, a stub that does not is the job's TIMEOUT, and a node whose
 * stub never retires is hung like any.  The program's own last signal,
 * fault or completion, was counted before the stub was sent, and stays
 * the job's.  The stub's kick clears CU_DBG, so the driver reads it first
 * and NODES reports the program's (kh_node.cpu_dbg).
 */
#include <linux/build_bug.h>

#include "kh_priv.h"
#include "kh_check.h"
#include "kohaku/kh_cpu.h"

/* the stub's granule, word k at payload bits [32k+31:32k] */
static const u32 kh_cpu_stub[KH_CPU_GRANULE_WORDS] = {
	KH_CPU_STUB_W0, KH_CPU_STUB_W1, KH_CPU_STUB_W2, KH_CPU_STUB_W3,
	KH_CPU_STUB_FILL, KH_CPU_STUB_FILL, KH_CPU_STUB_FILL, KH_CPU_STUB_FILL,
};

/* RV32I's U and S forms, to hold the contract's words to what they say */
#define KH_RV_LUI(rd, imm20)	((u32)(imm20) << 12 | (u32)(rd) << 7 | 0x37)
#define KH_RV_SW(rs2, rs1, imm)	(((u32)(imm) >> 5) << 25 | (u32)(rs2) << 20 | \
				 (u32)(rs1) << 15 | 2u << 12 | \
				 ((u32)(imm) & 31) << 7 | 0x23)
#define KH_RV_T0		5

int kh_cpu_data_check(struct kh_device *kd, const struct kh_node *n,
		      const struct drm_kohaku_data *d, u32 prog, u32 i)
{
	u64 first = d->offset, last = first + d->size / KOHAKU_DATA_GRANULE - 1;

	if (n->cu_type != KH_CU_RV ||
	    (d->buf_id != KH_CPU_BUF_IMEM && d->buf_id != KH_CPU_BUF_IMEM_W))
		return 0;
	if (first > KH_CPU_STUB_GRANULE || last < KH_CPU_STUB_GRANULE)
		return 0;
	kh_dbg(kd, "SUBMIT: program %u data %u writes granules %llu..%llu of buffer %u of the cpu unit at (%u,%u): granule %u of its instruction window (words %u..%u, pc 0x%x) is the driver's, for the L1 flush it runs after every job (docs/spec/cpu.md)\n",
	       prog, i, first, last, d->buf_id, n->x, n->y, KH_CPU_STUB_GRANULE,
	       KH_CPU_STUB_GRANULE * KH_CPU_GRANULE_WORDS,
	       KH_CPU_STUB_GRANULE * KH_CPU_GRANULE_WORDS +
	       KH_CPU_GRANULE_WORDS - 1, KH_CPU_STUB_PC);
	return -EINVAL;
}

/* Does the program kick its unit?  Any other op runs nothing (cpu.md). */
static bool kh_cpu_prog_kicks(const struct kh_prog *p)
{
	u32 i;

	if (p->node->cu_type != KH_CU_RV)
		return false;
	for (i = 0; i < p->n; i++)
		if (kh_inst_get(&p->insts[i], KH_CPU_INST_OP) == KH_CPU_OP_KICK)
			return true;
	return false;
}

void kh_cpu_flush_mark(struct kh_job *job)
{
	u32 i;

	BUILD_BUG_ON(KH_CPU_STUB_W0 != KH_RV_LUI(KH_RV_T0, KH_CPU_CTL_BASE >> 12));
	BUILD_BUG_ON(KH_CPU_STUB_W1 != KH_RV_SW(0, KH_RV_T0, KH_CPU_CTL_FLUSH));
	BUILD_BUG_ON(KH_CPU_STUB_W2 != KH_RV_SW(0, KH_RV_T0, KH_CPU_CTL_INVAL));
	BUILD_BUG_ON(KH_CPU_STUB_PC != 0x1fe0);
	for (i = 0; i < job->n_progs; i++)
		job->progs[i].cpu_flush = kh_cpu_prog_kicks(&job->progs[i]);
}

/* Some of the program was pushed (its kick may have run): its stub is due. */
static bool kh_cpu_flush_due(const struct kh_prog *p)
{
	return p->cpu_flush && p->pushed && !p->stub &&
	       !(p->node->flags & KOHAKU_NODE_HUNG);
}

bool kh_cpu_flush_wanted(const struct kh_job *job)
{
	u32 i;

	for (i = 0; i < job->n_progs; i++)
		if (kh_cpu_flush_due(&job->progs[i]))
			return true;
	return false;
}

/*
 * CU_DBG of every unit about to be flushed, as its program left it: the
 * stub's kick clears the counters.  One batch of CU_CTRL reads; a node
 * that does not answer keeps showing the register as it is.
 */
static void kh_cpu_flush_dbg(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_ctrl_req *req;
	u32 i, n = 0;

	req = kvcalloc(job->n_progs, sizeof(*req), GFP_KERNEL);
	if (!req)
		return;
	for (i = 0; i < job->n_progs; i++) {
		const struct kh_prog *p = &job->progs[i];

		if (!kh_cpu_flush_due(p))
			continue;
		req[n].x = p->node->x;
		req[n].y = p->node->y;
		req[n].index = KH_CTRL_IDX_DBG;
		n++;
	}
	if (n && kh_ctrl_read_many(m, req, n))
		kh_warn(m->kd, "mesh %u: job %llu: CU_DBG of its cpu units could not be read before the L1 flush\n",
			m->id, job->id);
	for (i = 0; i < n; i++) {
		struct kh_node *nd = kh_mesh_node(m, req[i].x, req[i].y);

		if (!nd || req[i].result)
			continue;
		nd->cpu_dbg = req[i].value;
		nd->cpu_dbg_kept = true;
	}
	kvfree(req);
}

/* Flit @k of a stub: the burst's descriptor, its granule, the kick. */
static void kh_cpu_stub_flit(struct kh_mesh *m, const struct kh_prog *p,
			     unsigned int k)
{
	const struct kh_node *n = p->node;
	struct kh_flit f;
	unsigned int w;

	memset(&f, 0, sizeof(f));
	switch (k) {
	case 0:
		/* no ack asked for: the unit never sends one */
		kh_flit_hdr(&f, n->x, n->y, m->agent_x, m->agent_y,
			    KH_T_CU_DATA, 0, 0);
		kh_flit_set(&f, KH_DATA_BUF_ID, KH_CPU_BUF_IMEM);
		kh_flit_set(&f, KH_DATA_OFFSET, KH_CPU_STUB_GRANULE);
		kh_flit_set(&f, KH_DATA_LEN, 0);
		break;
	case 1:
		kh_flit_hdr(&f, n->x, n->y, m->agent_x, m->agent_y,
			    KH_T_CU_DATA, 0, 1);
		for (w = 0; w < KH_CPU_GRANULE_WORDS / 2; w++)
			f.w[w] = (u64)kh_cpu_stub[2 * w + 1] << 32 |
				 kh_cpu_stub[2 * w];
		break;
	default:
		/*
		 * The program's txn and `last`: SIG_BATCH_COMPLETE with the
		 * txn, no credit; the node's last signal reads as the
		 * program's completion did.
		 */
		kh_flit_hdr(&f, n->x, n->y, m->agent_x, m->agent_y,
			    KH_T_CU_INST, p->txn, 1);
		kh_flit_set(&f, KH_CPU_INST_OP, KH_CPU_OP_KICK);
		kh_flit_set(&f, KH_CPU_INST_PC, KH_CPU_STUB_PC);
		break;
	}
	kh_mbox_send(m, &f);
}

/*
 * Send what can be sent now, the programs in turn, three flits each; true
 * once every stub due is out.  Called once every program of the job has
 * retired, with the dispatcher idle (it holds nothing: every instruction
 * it pushed has signalled), so TX_KICK is taken while the FIFO has room.
 */
bool kh_cpu_flush_send(struct kh_mesh *m, struct kh_job *job)
{
	lockdep_assert_held(&m->lock);
	if (!job->flush_begun) {
		job->flush_begun = true;
		kh_cpu_flush_dbg(m, job);
	}
	while (job->flush_prog < job->n_progs) {
		struct kh_prog *p = &job->progs[job->flush_prog];

		/* a burst opened goes on whatever became of its node */
		if (!job->flush_flit && !kh_cpu_flush_due(p)) {
			job->flush_prog++;
			continue;
		}
		/* TX_KICK is ignored while the FIFO is full */
		if (kh_rd(m, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL)
			return false;
		kh_cpu_stub_flit(m, p, job->flush_flit);
		if (++job->flush_flit < 3)
			continue;
		job->flush_flit = 0;
		p->stub = 1;
		p->finished = false;	/* the stub's signal is to come */
		job->stubs++;
		job->flush_prog++;
	}
	return true;
}

void kh_cpu_flush_done(struct kh_mesh *m, struct kh_job *job,
		       const struct kh_prog *p, u64 raw)
{
	if (KH_NS_CODE(raw) == KH_SIG_BATCH_COMPLETE && KH_NS_ARG(raw) == p->txn)
		return;
	/*
	 * Its granule was overwritten after the driver wrote it (a push
	 * landing late), or the unit misbehaves: the L1 may still hold the
	 * job's lines.  A reset drops them (it clears the tags) before the
	 * next job runs there.
	 */
	kh_err(m->kd, "mesh %u: job %llu: the driver's L1 flush on the cpu unit at (%u,%u) ended with signal 0x%x (arg 0x%x), not its ECALL's completion\n",
	       m->id, job->id, p->node->x, p->node->y, (u32)KH_NS_CODE(raw),
	       (u32)KH_NS_ARG(raw));
	/* (a job that timed out and drained is final already: TIMEOUT) */
	if (!kh_job_is_final(job))
		kh_job_error(job, p->node, KOHAKU_JOB_WHY_NOT_COMPLETION,
			     "the driver's L1 flush of a cpu unit did not complete");
	kh_maint_recover(m, "a cpu unit's L1 flush did not complete");
}

void kh_cpu_flush_cut(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_node *n;

	lockdep_assert_held(&m->lock);
	/* the kick is the third flit: after the first, a burst is open */
	if (job->flush_flit != 1 || job->flush_prog >= job->n_progs)
		return;
	n = job->progs[job->flush_prog].node;
	n->flags |= KOHAKU_NODE_HUNG;
	kh_err(m->kd, "mesh %u: job %llu ended inside the L1 flush's CU_DATA burst to (%u,%u); the node takes no more jobs\n",
	       m->id, job->id, n->x, n->y);
}
