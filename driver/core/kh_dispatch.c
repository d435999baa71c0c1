// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The job engine of one mesh: dispatch through the orchestrator's staging
 * RAM and PROG_* registers, credit accounting, completion through
 * NODE_STATUS, the read-after-write guard, and recovery from a job that ran
 * out of time.  docs/driver-core.md explains the algorithm; the hardware
 * rules it rests on are kohakutpu.md 4.3-4.5 and 12.2:
 *
 *  - one 16-bit credit counter per mesh: -1 per CU_INST pushed, +1 per
 *    SIG_INST_COMPLETE from any node; SIG_BATCH_COMPLETE and SIG_FAULT
 *    return nothing, so a program of n returns at most n-1;
 *  - the seed never exceeds the smallest inst_depth of the job's targets,
 *    or a full instruction FIFO backpressures the link that also carries
 *    that unit's memory responses;
 *  - the staging RAM is not written where the dispatcher is reading;
 *  - completion is NODE_STATUS count == baseline + n, with the code checked.
 *
 * A 32-bit control path (KH_HW_CTRL32, a card) cannot load the staging RAM,
 * and dispatches through the mailbox instead, with flow control of its own
 * per node (kh_dispatch_mbox(), below); the rest is the same.
 *
 * Each call of kh_mesh_step() does what it can without waiting and returns.
 */
#include "kh_priv.h"
#include "kh_tracepoints.h"

static u8 kh_node_yx(const struct kh_node *n)
{
	return KH_YX(n->x, n->y);
}

static u16 kh_ns_count(struct kh_mesh *m, const struct kh_node *n)
{
	return KH_NS_COUNT(kh_ns_lo(m, kh_node_yx(n)));
}

/*
 * Credit hung nodes returned since they were last looked at: each signal
 * they owed is a credit unless it was the program's last (BATCH_COMPLETE)
 * or, when it came last, a SIG_FAULT.  A fault among earlier late signals
 * is not visible (NODE_STATUS keeps one code) and counts as a return, so
 * the job's own fault count errs high, never low.  A node that also owes
 * peer signals (SIG_DATA_RECEIVED, which return nothing) has its late
 * signals taken as those first: NODE_STATUS cannot tell them apart, and
 * a peer signal counted as credit would make the next job's books claim
 * credit the counter never got.  With commit, the signals are no longer
 * owed.  Reads nothing while no hung node owes a signal.
 */
static u32 kh_late_returned(struct kh_mesh *m, bool commit)
{
	u32 returned = 0, owed = m->late_credit, i;

	for (i = 0; i < m->n_nodes; i++) {
		struct kh_node *n = &m->nodes[i];
		u32 left = n->hung_left + n->hung_peer, insts, peers;
		u16 count, delta;
		u64 raw;

		if (!left)
			continue;
		raw = kh_ns_lo(m, kh_node_yx(n));
		count = KH_NS_COUNT(raw);
		delta = min_t(u32, (u16)(count - n->hung_mark), left);
		if (!delta)
			continue;
		raw = kh_ns_word(m, kh_node_yx(n), raw);
		count = KH_NS_COUNT(raw);
		delta = min_t(u32, (u16)(count - n->hung_mark), left);
		peers = min_t(u32, delta, n->hung_peer);
		insts = delta - peers;
		returned += insts;
		if (insts && insts == n->hung_left && n->hung_last)
			returned--;
		else if (insts && KH_NS_CODE(raw) == KH_SIG_FAULT)
			returned--;
		if (!commit)
			continue;
		n->hung_left -= insts;
		n->hung_peer -= peers;
		n->hung_mark = count;
		m->late_credit -= insts;
		m->late_peers -= peers;
		if (peers || n->hung_peer)
			kh_info(m->kd, "mesh %u: hung node (%u,%u) signalled %u late instruction(s) and %u peer signal(s); %u and %u still owed\n",
				m->id, n->x, n->y, insts, peers, n->hung_left,
				n->hung_peer);
		else
			kh_info(m->kd, "mesh %u: hung node (%u,%u) signalled %u late instruction(s); %u still owed\n",
				m->id, n->x, n->y, insts, n->hung_left);
		/*
		 * Everything it was sent has signalled: it holds nothing, so
		 * it is idle, and it takes jobs again.
		 */
		if (!n->hung_left && !n->hung_peer && (n->flags & KOHAKU_NODE_HUNG)) {
			n->flags &= ~KOHAKU_NODE_HUNG;
			n->regs_read = false;
			kh_info(m->kd, "mesh %u: node (%u,%u) returned everything it owed; it takes jobs again\n",
				m->id, n->x, n->y);
		}
	}
	if (commit && owed && !m->late_credit)
		kh_deferred_release(m->kd);
	return returned;
}

/*
 * The target of @job that is hung, or NULL.  Before one is taken for
 * hung, with no job on the mesh (the counter is no job's), the hung nodes
 * are looked at once more: one that has returned everything it owed since
 * is no longer hung (kh_late_returned()).
 */
struct kh_node *kh_mesh_hung_target(struct kh_mesh *m, const struct kh_job *job)
{
	struct kh_node *n = kh_job_hung_target(job);

	lockdep_assert_held(&m->lock);
	if (n && !m->job && (m->late_credit || m->late_peers)) {
		kh_late_returned(m, true);
		n = kh_job_hung_target(job);
	}
	return n;
}

/* The credit a job starts with, and gets back when it runs dry. */
static u16 kh_job_seed(struct kh_mesh *m, struct kh_job *job)
{
	u32 c = 0xffff;
	unsigned int i;

	/* a program of peer signals alone sends its node nothing */
	for (i = 0; i < job->n_progs; i++)
		if (job->progs[i].n)
			c = min_t(u32, c, job->progs[i].node->inst_depth);
	/* credit that hung nodes may still return must fit in the FIFOs too */
	return c > m->late_credit ? c - m->late_credit : 0;
}

/* A job queued before one of its nodes was found hung never runs. */
static bool kh_job_targets_hung(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_node *n = kh_mesh_hung_target(m, job);

	if (!n)
		return false;
	kh_err(m->kd, "mesh %u: job %llu aborted: its node (%u,%u) hung in an earlier job\n",
	       m->id, job->id, n->x, n->y);
	kh_job_abort(job, KOHAKU_JOB_WHY_NODE_HUNG, "a target node is hung");
	return true;
}

enum kh_ready { KH_READY, KH_BLOCKED, KH_GONE };

/*
 * May the job at the head of the queue start: has every fence it waits
 * for signalled, and cleanly?  While one has not, a callback kicks the
 * engine when it does.  A fence that signalled an error aborts the job.
 */
static enum kh_ready kh_job_ready(struct kh_mesh *m, struct kh_job *job)
{
	while (job->in_next < job->n_in_fences) {
		struct dma_fence *f = job->in_fences[job->in_next];
		int err;

		if (!dma_fence_is_signaled(f)) {
			if (job->in_cb_armed)
				return KH_BLOCKED;
			if (!dma_fence_add_callback(f, &job->in_cb, kh_engine_fence_cb)) {
				job->in_cb_armed = true;
				return KH_BLOCKED;
			}
			continue;	/* it signalled meanwhile */
		}
		job->in_cb_armed = false;
		err = dma_fence_get_status(f);
		if (err < 0) {
			kh_info(m->kd, "mesh %u: job %llu aborted: in-fence %u signalled error %d\n",
				m->id, job->id, job->in_next, err);
			kh_job_abort(job, KOHAKU_JOB_WHY_IN_FENCE,
				     "an in-fence signalled an error");
			return KH_GONE;
		}
		job->in_next++;
	}
	return KH_READY;
}

/*
 * The job's instructions may go: the baselines its signals are counted
 * from (after its data's acknowledgements) and its credit.
 */
static void kh_job_arm(struct kh_mesh *m, struct kh_job *job)
{
	unsigned int i;

	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *p = &job->progs[i];

		p->baseline = kh_ns_count(m, p->node);
		/* a cpu program's kick clears CU_DBG: NODES shows it live again */
		if (p->cpu_flush)
			p->node->cpu_dbg_kept = false;
	}
	kh_wr(m, KH_ORC_PROG_CRED, job->seed);
	job->lasts_at_seed = 0;
	m->run = KH_RUN_DISPATCH;
}

static u32 kh_job_verdict(struct kh_mesh *m, struct kh_job *job);

static void kh_job_start(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_device *kd = m->kd;

	/* after our own last job the dispatcher is known idle: no read */
	if (!m->disp_idle && (kh_rd(m, KH_ORC_PROG_STAT) & KH_PROG_STAT_RUN)) {
		kh_mesh_wedge(m, "the dispatcher is running with no job of ours");
		return;
	}
	m->disp_idle = true;
	/*
	 * Late signals so far are behind us: the seed below overwrites their
	 * credit.  (Read before the seed is written, so that one landing in
	 * between is counted as returned later: a fault count errs high.)
	 */
	kh_late_returned(m, true);
	/*
	 * The mailbox's flits take no credit: the counter, from 0, counts
	 * what completes, and each node's FIFO is kept by its own books.
	 */
	job->seed = kh_ctrl32(kd) ? 0 : kh_job_seed(m, job);
	if (!kh_ctrl32(kd) && !job->seed) {
		kh_mesh_wedge(m, "hung nodes may still return more credit than the FIFOs hold");
		return;
	}
	list_del(&job->mesh_link);
	m->job = job;
	WRITE_ONCE(job->status, KOHAKU_JOB_RUNNING);
	job->t_start = kh_now(kd);
	job->deadline = job->t_start + job->timeout_ns;
	m->reset_check_ns = job->t_start + KH_RESET_CHECK_NS;
	kh_dbg(kd, "mesh %u: job %llu: %u programs, %u data entries, credit %u\n",
	       m->id, job->id, job->n_progs, job->n_segs, job->seed);
	trace_kohaku_dispatch(kd->dev, m->id, job->id, job->seed);
	/* a POOL unit's regions, in place before anything of the job */
	if (kh_pool_bounds_grant(m, job)) {
		kh_job_finalize(job, kh_job_verdict(m, job));
		kh_mesh_job_off(m, job);
		return;
	}
	/* the cpu programs that kick: their units' L1 is flushed after */
	kh_cpu_flush_mark(job);
	if (job->n_segs)
		m->run = KH_RUN_DATA;
	else
		kh_job_arm(m, job);
}

/* The next piece of the job, at most half the staging RAM. */
static bool kh_next_chunk(struct kh_job *job, struct kh_chunk *c, u32 slot)
{
	struct kh_prog *p;

	while (job->next_prog < job->n_progs &&
	       job->progs[job->next_prog].sent == job->progs[job->next_prog].n)
		job->next_prog++;
	if (job->next_prog >= job->n_progs)
		return false;
	p = &job->progs[job->next_prog];
	c->prog = p;
	c->first = p->sent;
	c->len = min_t(u32, p->n - p->sent, KH_CHUNK_FLITS);
	c->slot = slot;
	c->valid = true;
	p->sent += c->len;
	return true;
}

/*
 * Write a staging word unless the RAM holds it already: the staging RAM has
 * no reset clause (kohakutpu.md 4.2), so what the driver last wrote is
 * there until it writes again, and a job repeating an instruction costs no
 * register writes for it.
 */
static void kh_stage_word(struct kh_mesh *m, u32 slot, unsigned int w, u64 v)
{
	if ((m->stage_known[slot] & (1u << w)) && m->stage[slot][w] == v)
		return;
	kh_wr(m, KH_ORC_STAGE(slot) + w * 8, v);
	m->stage[slot][w] = v;
	m->stage_known[slot] |= 1u << w;
}

static void kh_stage(struct kh_mesh *m, const struct kh_chunk *c)
{
	const struct kh_prog *p = c->prog;
	struct kh_flit f;
	unsigned int i, w;

	for (i = 0; i < c->len; i++) {
		u32 k = c->first + i;

		/* the dispatcher rewrites dst and src; the rest passes through */
		for (w = 0; w < 4; w++)
			f.w[w] = p->insts[k].w[w];
		kh_flit_hdr(&f, p->node->x, p->node->y, m->agent_x, m->agent_y,
			    KH_T_CU_INST, p->txn, k == p->n - 1);
		for (w = 0; w < KH_FLIT_WORDS; w++)
			kh_stage_word(m, c->slot + i, w, f.w[w]);
	}
}

/*
 * PROG_DST, PROG_BASE, PROG_LEN: a mesh reset clears them unseen, so only a
 * zero the driver last wrote is known to be there; anything else is written.
 * Until this driver has written one (KH_REG_UNKNOWN) it holds whatever a
 * driver bound before wrote: a first chunk at slot 0 must write PROG_BASE,
 * or the dispatcher sends that driver's leftover flits.
 */
static void kh_prog_reg(struct kh_mesh *m, unsigned int i, u32 off, u64 v)
{
	if (!v && !m->prog_reg[i])
		return;
	kh_wr(m, off, v);
	m->prog_reg[i] = v;
}

static void kh_kick(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_chunk *c = &job->staged;

	kh_prog_reg(m, 0, KH_ORC_PROG_DST,
		    KH_YX(c->prog->node->x, c->prog->node->y));
	kh_prog_reg(m, 1, KH_ORC_PROG_BASE, c->slot);
	kh_prog_reg(m, 2, KH_ORC_PROG_LEN, c->len);
	kh_wr(m, KH_ORC_PROG_KICK, 1);
	m->disp_idle = false;
	job->kicked = *c;
	c->valid = false;
}

/* Instructions the dispatcher has sent, given PROG_STAT's flits-left. */
static void kh_account_kick(struct kh_job *job, u32 left)
{
	struct kh_chunk *k = &job->kicked;

	if (!k->valid)
		return;
	job->kick_pushed = k->len - left;
	job->pushed = job->pushed_done + job->kick_pushed;
	job->lasts = job->lasts_done +
		     (!left && k->first + k->len == k->prog->n ? 1 : 0);
	if (!left) {
		k->prog->pushed += k->len;
		job->pushed_done = job->pushed;
		job->lasts_done = job->lasts;
		job->kick_pushed = 0;
		k->valid = false;
	}
}

static u32 kh_prog_pushed(const struct kh_job *job, const struct kh_prog *p)
{
	if (job->kicked.valid && job->kicked.prog == p)
		return p->pushed + job->kick_pushed;
	return p->pushed;
}

/*
 * Signals the program's node owes: its instructions, the flush's stub,
 * and the peer signals other programs' CU_DATA makes it send.
 */
static u32 kh_prog_owes(const struct kh_prog *p)
{
	return p->n + p->stub + p->peer;
}

/*
 * Of the program's signals so far, those surely its instructions' (and
 * its stub's): what is compared against the instructions pushed, for the
 * credit (kh_stall()) and a node's FIFO (kh_inst_room()).  NODE_STATUS
 * counts a node's signals and keeps the last one's code, so a peer signal
 * cannot be told from an instruction's once counted: until the program is
 * finished, every peer signal it owes is taken to have come already.
 * Once this job's SIG_BATCH_COMPLETE was seen the count is exact (a unit
 * retires its instructions in order: all n are in), which is what lets a
 * stall resolve while a node waits for a peer whose instructions are not
 * pushed yet.
 */
static u32 kh_prog_insts_seen(const struct kh_prog *p)
{
	u32 own = p->n + p->stub;

	if (!p->peer)
		return p->seen;
	if (p->finished)
		return own;
	if (p->insts_in)
		return p->n;
	return p->seen > p->peer ? min_t(u32, p->seen - p->peer, own) : 0;
}

/*
 * Every peer signal due has come, beside the instructions pushed: a node
 * that owes one may still get it, so the job has not drained.
 */
static bool kh_peers_in(const struct kh_job *job)
{
	unsigned int i;

	for (i = 0; i < job->n_progs; i++) {
		const struct kh_prog *p = &job->progs[i];

		if (p->peer && p->seen < p->pushed + p->stub + p->peer)
			return false;
	}
	return true;
}

/*
 * The program's signals so far, from its node's NODE_STATUS.  The count
 * moves with every signal, so an unchanged one is an unchanged word:
 * nothing to learn (and on a 32-bit control path no other half to read).
 * After the program's n comes its cpu unit's flush stub, whose signal is
 * the driver's own (kh_cpu_flush_done()): the program's last, a fault or
 * its completion, was counted before the stub was sent.  Peer signals
 * interleave with the instructions' as they come; the last signal of a
 * program that owes some may be one (SIG_DATA_RECEIVED).
 */
static void kh_collect_prog(struct kh_mesh *m, struct kh_job *job,
			    struct kh_prog *p)
{
	struct kh_device *kd = m->kd;
	u32 n = kh_prog_owes(p);
	unsigned int code;
	bool stub;
	u64 raw;
	u16 diff;

	raw = kh_ns_lo(m, kh_node_yx(p->node));
	diff = KH_NS_COUNT(raw) - p->baseline;
	if (diff == p->seen && diff < n)
		return;
	raw = kh_ns_word(m, kh_node_yx(p->node), raw);
	diff = KH_NS_COUNT(raw) - p->baseline;
	p->seen = min_t(u32, diff, n);
	code = KH_NS_CODE(raw);
	stub = p->stub && diff > p->n + p->peer;
	/* this job's last instruction retired: every one before it had */
	if (p->peer && p->n && diff && !stub && code == KH_SIG_BATCH_COMPLETE &&
	    KH_NS_ARG(raw) == p->txn)
		p->insts_in = true;
	/* until it moves, the mirror shows an earlier job's signal */
	if (diff && !stub && code == KH_SIG_FAULT &&
	    !(job->fault_flags & KOHAKU_FAULT_CODE_KNOWN)) {
		job->fault_flags = KOHAKU_FAULT_NODE_KNOWN |
				   KOHAKU_FAULT_CODE_KNOWN;
		job->fault_x = p->node->x;
		job->fault_y = p->node->y;
		job->fault_code = KH_NS_ARG(raw);
	}
	if (diff > n)
		kh_warn(kd, "mesh %u: node (%u,%u) sent %u signals for %u instructions and %u peer signals\n",
			m->id, p->node->x, p->node->y, diff, n - p->peer, p->peer);
	if (diff >= n) {
		p->finished = true;
		if (stub) {
			kh_cpu_flush_done(m, job, p, raw);
			return;
		}
		if (code == KH_SIG_FAULT)
			job->n_faults++;
		if (code == KH_SIG_BATCH_COMPLETE && KH_NS_ARG(raw) != p->txn)
			kh_job_error(job, p->node, KOHAKU_JOB_WHY_BATCH_TXN,
				     "SIG_BATCH_COMPLETE with another program's txn");
		else if (code != KH_SIG_BATCH_COMPLETE && code != KH_SIG_FAULT &&
			 !(p->peer && code == KH_SIG_DATA_RECEIVED))
			kh_job_error(job, p->node, KOHAKU_JOB_WHY_NOT_COMPLETION,
				     "the last signal of a program was not a completion");
	}
}

/*
 * Signals counted for every program; true when all pushed have signalled
 * (peer signals are not pushed: kh_peers_in() says whether they are in).
 * A program that owes peer signals is looked at before any of its own is
 * pushed: they come when its peers' instructions run.
 */
static bool kh_collect(struct kh_mesh *m, struct kh_job *job, bool all)
{
	u32 pushed_seen = 0;
	unsigned int i;

	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *p = &job->progs[i];

		if (!p->finished && (all || p->peer || kh_prog_pushed(job, p)))
			kh_collect_prog(m, job, p);
		pushed_seen += kh_prog_insts_seen(p);
	}
	/* the flush's stubs went from the mailbox, outside job->pushed */
	return pushed_seen >= job->pushed + job->stubs;
}

/*
 * The dispatcher holds flits but has no credit.  Once everything it pushed
 * has signalled, the counter is exactly seed - lasts - faults (faults on
 * non-last instructions return nothing either), so the lost count is known
 * and a fresh seed cannot overcommit any FIFO.  PROG_STAT is read again to
 * prove nothing moved while the counts were read.
 */
static void kh_stall(struct kh_mesh *m, struct kh_job *job, u64 ps)
{
	u32 credit = KH_PROG_STAT_CRED(ps), late;
	s64 lost;

	if (!kh_collect(m, job, false))
		return;
	/* late credit a hung node returned is in the counter too */
	late = kh_late_returned(m, false);
	if (kh_rd(m, KH_ORC_PROG_STAT) != ps)
		return;
	kh_late_returned(m, true);
	lost = (s64)job->seed - (job->lasts - job->lasts_at_seed) - credit + late;
	if (lost > 0) {
		job->lost_faults += lost;
		job->n_faults += lost;
	}
	kh_wr(m, KH_ORC_PROG_CRED, job->seed);
	job->lasts_at_seed = job->lasts;
}

static void kh_dispatch(struct kh_mesh *m, struct kh_job *job)
{
	/* with no kick outstanding the dispatcher is idle: nothing to read */
	u64 ps = job->kicked.valid ? kh_rd(m, KH_ORC_PROG_STAT) : 0;
	bool running = ps & KH_PROG_STAT_RUN;
	u32 other;

	kh_account_kick(job, running ? KH_PROG_STAT_LEFT(ps) : 0);
	other = job->kicked.valid && job->kicked.slot == 0 ? KH_CHUNK_FLITS : 0;
	if (!job->staged.valid && m->run == KH_RUN_DISPATCH)
		if (kh_next_chunk(job, &job->staged, other))
			kh_stage(m, &job->staged);
	if (running) {
		if (!KH_PROG_STAT_CRED(ps) && KH_PROG_STAT_LEFT(ps))
			kh_stall(m, job, ps);
		return;
	}
	if (job->staged.valid && m->run == KH_RUN_DISPATCH) {
		kh_kick(m, job);
		return;
	}
	if (m->run == KH_RUN_DISPATCH)
		m->run = KH_RUN_COLLECT;
}

/* ---- dispatch on a 32-bit control path: the mailbox ---- */

/*
 * Room at the program's node: fewer of the instructions sent to it
 * unsignalled than its instruction FIFO holds.  When the books say it is
 * full, its NODE_STATUS is read again, once a step (*looked).
 */
static bool kh_inst_room(struct kh_mesh *m, struct kh_job *job,
			 struct kh_prog *p, bool *looked)
{
	if (p->pushed - kh_prog_insts_seen(p) < p->node->inst_depth)
		return true;
	if (*looked)
		return false;
	*looked = true;
	kh_collect_prog(m, job, p);
	return p->pushed - kh_prog_insts_seen(p) < p->node->inst_depth;
}

/* The program's next instruction, composed in TX_FLIT and kicked. */
static void kh_inst_send(struct kh_mesh *m, struct kh_job *job,
			 struct kh_prog *p)
{
	u32 k = p->pushed;
	bool last = k == p->n - 1;
	struct kh_flit f;
	unsigned int w;

	for (w = 0; w < 4; w++)
		f.w[w] = p->insts[k].w[w];
	/* src: the agent, whom the node signals; the dispatcher's own stamp */
	kh_flit_hdr(&f, p->node->x, p->node->y, m->agent_x, m->agent_y,
		    KH_T_CU_INST, p->txn, last);
	kh_mbox_send(m, &f);
	p->sent = ++p->pushed;
	job->pushed_done = ++job->pushed;
	if (last)
		job->lasts_done = ++job->lasts;
}

/*
 * A 32-bit control path cannot load the staging RAM: a STAGE write lands
 * on both halves of its word (noc_orchestrator.v:415).  So instructions
 * go as the mailbox's other flits do, one TX_KICK each, composed in
 * TX_FLIT half by half (kh_mbox_send()).  No credit holds these flits
 * back, and the core keeps what credit kept (kohakutpu.md 4.4) itself,
 * per node and exactly: a node is sent an instruction only while fewer
 * than its inst_depth of those sent to it have signalled (NODE_STATUS
 * counts its signals, one an instruction), or its full instruction FIFO
 * would block the link its memory responses come by.  TX_KICK is ignored
 * while the TX FIFO is full, so TX_STATUS is read before each kick; the
 * dispatcher, which would make it ignored too, never runs on this path.
 * A step sends what may go now, a staging chunk's worth at most, the
 * programs in turn, and returns: a node is looked at once a step.
 */
static void kh_dispatch_mbox(struct kh_mesh *m, struct kh_job *job)
{
	unsigned int i, budget = KH_CHUNK_FLITS;

	while (job->next_prog < job->n_progs &&
	       job->progs[job->next_prog].pushed == job->progs[job->next_prog].n)
		job->next_prog++;
	for (i = job->next_prog; i < job->n_progs && budget; i++) {
		struct kh_prog *p = &job->progs[i];
		bool looked = false;

		while (p->pushed < p->n && budget &&
		       kh_inst_room(m, job, p, &looked)) {
			if (kh_rd(m, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL)
				return;
			kh_inst_send(m, job, p);
			budget--;
		}
	}
	for (i = job->next_prog; i < job->n_progs; i++)
		if (job->progs[i].pushed < job->progs[i].n)
			return;
	m->run = KH_RUN_COLLECT;
}

/*
 * The credit counter now and whether the dispatcher is idle: PROG_STAT on
 * the staging path; on the mailbox path, where the dispatcher never runs,
 * PROG_CRED (PROG_STAT's credit reaches bit 32, whose half a 32-bit read
 * does not).
 */
static u32 kh_credit_now(struct kh_mesh *m, bool *idle)
{
	u64 ps;

	if (kh_ctrl32(m->kd)) {
		*idle = true;
		return (u16)kh_rd(m, KH_ORC_PROG_CRED);
	}
	ps = kh_rd(m, KH_ORC_PROG_STAT);
	*idle = !(ps & KH_PROG_STAT_RUN);
	return KH_PROG_STAT_CRED(ps);
}

/*
 * Instructions that faulted without a signal that says so.  Staging: the
 * dispatcher took a credit for each flit, and every non-last instruction
 * that completed gave one back, so the counter is seed - lasts - lost +
 * late since the last seed.  Mailbox: nothing takes credit, so the
 * counter, set to 0, counts what completed: pushed - lasts - lost + late,
 * in its 16 bits (exact while fewer than 32768 are lost).
 */
static s64 kh_lost_credit(struct kh_mesh *m, const struct kh_job *job,
			  u32 credit, u32 late)
{
	if (kh_ctrl32(m->kd))
		return (s16)(u16)(job->pushed - job->lasts + late - credit);
	return (s64)job->seed - (job->lasts - job->lasts_at_seed) - credit +
	       late;
}

/* Every unit of the job retired: the read-after-write window opens. */
static void kh_settle_begin(struct kh_mesh *m, struct kh_job *job)
{
	job->aux_wr = KH_AUX_WR_COUNT(kh_rd(m, KH_ORC_AUX_STAT));
	job->aux_since = kh_now(m->kd);
	job->settle_from = job->aux_since;
	m->run = KH_RUN_SETTLE;
}

/* Everything signalled: settle the books on credit and faults. */
static void kh_close_books(struct kh_mesh *m, struct kh_job *job)
{
	u32 late = kh_late_returned(m, false), again, tries = 0, credit;
	bool idle;
	s64 lost;

	/* a late signal between the two looks would count once, not twice */
	for (;;) {
		credit = kh_credit_now(m, &idle);
		again = kh_late_returned(m, false);
		if (again == late || ++tries == 4)
			break;
		late = again;
	}
	lost = kh_lost_credit(m, job, credit, late);
	/*
	 * Credit missing is a fault only on a mesh that was not reset under
	 * the job: a reset clears the counter (kohakutpu.md 12.4), and the
	 * signals NODE_STATUS showed are then all the job can claim.  The
	 * job on a reset mesh ends ABORTED (kh_reset.c), not FAULT.
	 */
	if (lost > 0 && kh_mesh_reset_check(m))
		return;
	kh_late_returned(m, true);

	/* every instruction signalled, so every flit left the dispatcher */
	m->disp_idle = idle;
	if (lost > 0) {
		job->lost_faults += lost;
		job->n_faults += lost;
	} else if (lost < 0) {
		kh_warn(m->kd, "mesh %u: job %llu ended with %lld more credit than it was given\n",
			m->id, job->id, -lost);
	}
	/*
	 * The cpu units' L1s, before anything else: the stubs take no
	 * credit, so the books above are the job's whatever they do.  The
	 * flush is the driver's work: it has KH_CPU_FLUSH_NS of its own
	 * past the job's limit.
	 */
	if (kh_cpu_flush_wanted(job)) {
		job->deadline = max_t(u64, job->deadline,
				      kh_now(m->kd) + KH_CPU_FLUSH_NS);
		m->run = KH_RUN_FLUSH;
		return;
	}
	kh_settle_begin(m, job);
}

/*
 * Read after write: a unit retires when its last write has left it, not
 * when it lands, and the host's DMA path is not ordered against the mesh.
 * There is no fence, so wait until MAG's landed-write counter has been
 * still for KH_SETTLE_NS.  The counter is the whole mesh's: a unit that
 * writes with no job (a POOL firmware storing in a loop) would keep it
 * moving for ever, so the wait ends KH_SETTLE_MAX_NS after the job's
 * units retired, by which time their own writes have long landed.
 */
static bool kh_settled(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_device *kd = m->kd;
	u64 now = kh_now(kd);
	u16 wr;

	/*
	 * Nothing to learn before the window has passed.  A card's time
	 * passes by itself; a simulated card's only when it runs: let it
	 * run the rest of the window, or (with no way to) keep reading.
	 */
	if (now - job->aux_since < KH_SETTLE_NS) {
		if (!kh_simulated(kd))
			return false;
		if (kd->hw.ops->idle_ns) {
			kd->hw.ops->idle_ns(kd->hw.ctx,
					    KH_SETTLE_NS - (now - job->aux_since));
			now = kh_now(kd);
		}
	}
	wr = KH_AUX_WR_COUNT(kh_rd(m, KH_ORC_AUX_STAT));
	if (wr != job->aux_wr) {
		job->aux_wr = wr;
		job->aux_since = now;
		if (now - job->settle_from < KH_SETTLE_MAX_NS)
			return false;
		/* a firmware load's own jobs go on: the load ends what it replaces */
		if (!job->internal)
			kh_maint_unbidden_writes(m, job);
		return true;
	}
	return now - job->aux_since >= KH_SETTLE_NS;
}

static u32 kh_job_verdict(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_device *kd = m->kd;

	job->t_end = kh_now(kd);
	if (job->why) {
		kh_err(kd, "mesh %u: job %llu: %s\n", m->id, job->id, job->why);
		return KOHAKU_JOB_ERROR;
	}
	if (job->n_faults || job->fault_flags) {
		if (!(job->fault_flags & KOHAKU_FAULT_NODE_KNOWN) &&
		    job->n_progs == 1) {
			job->fault_flags |= KOHAKU_FAULT_NODE_KNOWN;
			job->fault_x = job->progs[0].node->x;
			job->fault_y = job->progs[0].node->y;
		}
		if (job->fault_flags & KOHAKU_FAULT_NODE_KNOWN)
			kh_info(kd, "mesh %u: job %llu: %u instruction(s) faulted, at (%u,%u)%s\n",
				m->id, job->id, job->n_faults, job->fault_x,
				job->fault_y, (job->fault_flags & KOHAKU_FAULT_CODE_KNOWN) ?
				"" : " (code overwritten by later signals)");
		else
			kh_info(kd, "mesh %u: job %llu: %u instruction(s) faulted on nodes their later signals hide\n",
				m->id, job->id, job->n_faults);
		return KOHAKU_JOB_FAULT;
	}
	return KOHAKU_JOB_DONE;
}

static void kh_job_timeout(struct kh_mesh *m, struct kh_job *job)
{
	unsigned int i;

	job->t_end = kh_now(m->kd);
	trace_kohaku_timeout(m->kd->dev, m->id, job->id,
			     (u32)(job->timeout_ns / 1000000));
	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *p = &job->progs[i];

		if (p->finished)
			continue;
		if (p->stub && p->seen >= p->n + p->peer)
			kh_err(m->kd, "mesh %u: job %llu timed out: the driver's L1 flush on the cpu unit at (%u,%u) did not retire (its program had)\n",
			       m->id, job->id, p->node->x, p->node->y);
		else if (p->peer)
			kh_err(m->kd, "mesh %u: job %llu timed out: node (%u,%u) sent %u of the %u signals it owed (%u instructions, %u peer signals)\n",
			       m->id, job->id, p->node->x, p->node->y, p->seen,
			       kh_prog_owes(p), p->n, p->peer);
		else
			kh_err(m->kd, "mesh %u: job %llu timed out: node (%u,%u) retired %u of %u instructions\n",
			       m->id, job->id, p->node->x, p->node->y, p->seen, p->n);
		/* WAIT names the first node that had not finished */
		if (!(job->fault_flags & KOHAKU_FAULT_NODE_KNOWN)) {
			job->fault_x = p->node->x;
			job->fault_y = p->node->y;
			job->fault_flags |= KOHAKU_FAULT_NODE_KNOWN;
		}
	}
	if (m->run == KH_RUN_DATA) {
		kh_err(m->kd, "mesh %u: job %llu timed out sending its CU_DATA; no instruction was sent\n",
		       m->id, job->id);
		kh_job_data_cut(m, job);
	}
	job->staged.valid = false;
	job->recover_deadline = job->t_end + KH_RECOVER_NS;
	m->run = KH_RUN_RECOVER;
	/* the caller hears now; the mesh stays the job's until it drains */
	kh_job_finalize(job, KOHAKU_JOB_TIMEOUT);
}

/*
 * Does the card still hold flits of the job it has not sent into the
 * mesh?  Staging: the dispatcher runs (what it pushed so far is counted);
 * mailbox: the TX FIFO is not empty (STATUS busy, the dispatcher idle).
 */
static bool kh_flits_held(struct kh_mesh *m, struct kh_job *job)
{
	bool running;
	u64 ps;

	if (kh_ctrl32(m->kd))
		return kh_rd(m, KH_ORC_STATUS) & KH_ORC_STATUS_BUSY;
	ps = kh_rd(m, KH_ORC_PROG_STAT);
	running = ps & KH_PROG_STAT_RUN;
	m->disp_idle = !running;
	kh_account_kick(job, running ? KH_PROG_STAT_LEFT(ps) : 0);
	return running;
}

/*
 * After a timeout nothing new is kicked; the dispatcher may still finish
 * the chunk it holds.  If everything it pushed signals in time the mesh
 * carries on; otherwise the nodes still owing signals are marked hung and
 * their outstanding instructions are kept out of every later seed.
 */
static void kh_recover(struct kh_mesh *m, struct kh_job *job)
{
	bool running = kh_flits_held(m, job);
	unsigned int i;

	/*
	 * Drained: the cpu units that ran get their L1 flush now (the job
	 * is final, its memory not yet free), and it must retire too.
	 */
	if (!running && kh_collect(m, job, false) && kh_peers_in(job) &&
	    kh_cpu_flush_send(m, job) && kh_collect(m, job, false)) {
		kh_info(m->kd, "mesh %u: job %llu drained after its timeout; mesh usable\n",
			m->id, job->id);
		kh_mesh_job_off(m, job);
		return;
	}
	if (kh_now(m->kd) < job->recover_deadline)
		return;
	/* a reset took what it holds: nothing is hung (the job is off) */
	if (kh_mesh_reset_check(m))
		return;
	if (running) {
		kh_mesh_wedge(m, kh_ctrl32(m->kd) ?
			      "the TX FIFO still holds flits for a hung node" :
			      "the dispatcher still holds flits for a hung node");
		kh_mesh_job_off(m, job);
		kh_maint_recover(m, "the dispatcher hung");
		return;
	}
	kh_cpu_flush_cut(m, job);
	for (i = 0; i < job->n_progs; i++) {
		struct kh_prog *p = &job->progs[i];
		/* a stub's kick is one more, the last (no credit back) */
		u32 out = p->pushed + p->stub, insts, peers;

		if (p->seen >= out + p->peer)
			continue;
		/*
		 * Peer signals may still come as well: the signals seen are
		 * taken as peer signals first (kh_prog_insts_seen()), so the
		 * instructions owed, whose signals are credit, err high, and
		 * the late peer signals are never taken for credit
		 * (kh_late_returned()).
		 */
		insts = out - min_t(u32, kh_prog_insts_seen(p), out);
		peers = out + p->peer - p->seen - insts;
		p->node->flags |= KOHAKU_NODE_HUNG;
		p->node->hung_left += insts;
		p->node->hung_peer += peers;
		p->node->hung_mark = p->baseline + p->seen;
		p->node->hung_last = p->pushed == p->n || p->stub;
		m->late_credit += insts;
		m->late_peers += peers;
		if (peers)
			kh_err(m->kd, "mesh %u: node (%u,%u) is hung with %u instructions and %u peer signals outstanding; %s\n",
			       m->id, p->node->x, p->node->y, insts, peers,
			       m->recover_max ? "the mesh is reset to recover it" :
			       "it takes no more jobs");
		else
			kh_err(m->kd, "mesh %u: node (%u,%u) is hung with %u instructions outstanding; %s\n",
			       m->id, p->node->x, p->node->y, insts,
			       m->recover_max ? "the mesh is reset to recover it" :
			       "it takes no more jobs");
	}
	kh_mesh_job_off(m, job);
	kh_maint_recover(m, "a node hung");
}

void kh_mesh_step(struct kh_mesh *m)
{
	struct kh_job *job;

	lockdep_assert_held(&m->lock);
	for (;;) {
		/* a reset seen: nothing is sent until the mesh is back */
		if (kh_mesh_reset_wait(m))
			return;
		job = m->job;
		if (!job) {
			/*
			 * Nothing left: the governor's profile, if it wants
			 * another (a fixed profile set while a job ran); the
			 * passes go on until the retune's reset is over.
			 */
			if (kh_clk_want(m))
				continue;
			if (list_empty(&m->queue) || (m->flags & KOHAKU_MESH_WEDGED))
				return;
			job = list_first_entry(&m->queue, struct kh_job, mesh_link);
			/*
			 * The driver has the mesh (a firmware load, a reset,
			 * a recovery): only its own jobs run.
			 */
			if (!kh_mesh_lets(m, job))
				return;
			/*
			 * One read a job: a reset since the last one (it
			 * cleared IRQ_EN, and writes in its window are lost)
			 * is dealt with before anything is sent.
			 */
			if (kh_mesh_reset_check(m))
				continue;
			/* (the job may be freed here: only loop on) */
			if (kh_job_targets_hung(m, job))
				continue;
			switch (kh_job_ready(m, job)) {
			case KH_BLOCKED:
				return;
			case KH_GONE:
				continue;
			case KH_READY:
				break;
			}
			/* its clocks first: a retune resets the mesh */
			if (kh_clk_raise(m, job))
				continue;
			kh_job_start(m, job);
			if (!m->job)
				return;
			continue;
		}
		/* a reset mid-job: the job is ABORTED now, not at its limit */
		if (kh_now(m->kd) >= m->reset_check_ns) {
			m->reset_check_ns = kh_now(m->kd) + KH_RESET_CHECK_NS;
			if (kh_mesh_reset_check(m))
				continue;
		}
		if (m->run == KH_RUN_RECOVER) {
			kh_recover(m, job);
			if (m->job)
				return;
			continue;
		}
		if (kh_now(m->kd) >= job->deadline && m->run != KH_RUN_SETTLE) {
			if (kh_mesh_reset_check(m))
				continue;
			kh_job_timeout(m, job);
			continue;
		}
		if (m->run == KH_RUN_DATA) {
			int r = kh_job_data_step(m, job);

			if (!r)
				return;
			if (r < 0) {
				kh_job_data_cut(m, job);
				kh_job_finalize(job, kh_job_verdict(m, job));
				kh_mesh_job_off(m, job);
				continue;
			}
			kh_job_arm(m, job);
		}
		if (m->run == KH_RUN_DISPATCH) {
			/* one way per path: the staging RAM, or the mailbox */
			if (kh_ctrl32(m->kd))
				kh_dispatch_mbox(m, job);
			else
				kh_dispatch(m, job);
			if (m->run == KH_RUN_DISPATCH)
				return;
		}
		if (m->run == KH_RUN_COLLECT) {
			/*
			 * Every kick has finished (kh_dispatch saw to it): the
			 * dispatcher is idle, only signals are left to count.
			 */
			if (!kh_collect(m, job, true) || !kh_peers_in(job))
				return;
			kh_close_books(m, job);
		}
		if (m->run == KH_RUN_FLUSH) {
			/* the stubs out, then their signals */
			if (!kh_cpu_flush_send(m, job) || !kh_collect(m, job, true))
				return;
			kh_settle_begin(m, job);
		}
		if (m->run == KH_RUN_SETTLE) {
			if (!kh_settled(m, job) && kh_now(m->kd) < job->deadline)
				return;
			kh_job_finalize(job, kh_job_verdict(m, job));
			kh_mesh_job_off(m, job);
		}
	}
}
