// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Job data (ABI 0.5): the CU_DATA a program carries for its node, checked
 * and copied in at SUBMIT, sent when the job is dispatched and before any
 * of its instructions (docs/driver-core.md "Job data").
 *
 * The bursts go out of the orchestrator's mailbox, which shares the TX
 * FIFO with the dispatcher (kohakutpu.md 4.2): whatever the mailbox pushed
 * is ahead of every instruction of the job on the same path, and XY
 * routing keeps that order to the node.  Ahead is not landed, so a unit
 * that acknowledges CU_DATA is asked to (SIG_DATA_RECEIVED to the agent)
 * and the next burst, or the job's first instruction, waits for it.  The
 * cpu unit never acknowledges (rv_pe.v:478-480, docs/spec/cpu.md): its
 * bursts go without, and the unit itself takes no kick while a flit is
 * ahead of it in its receive path (rv_pe.v:299).
 *
 * Every step here does what it can without waiting (the engine's rule):
 * a full TX FIFO or an acknowledgement still to come returns, and the
 * engine's next pass carries on from the cursor.
 */
#include <linux/uaccess.h>

#include "kh_priv.h"

/* Units whose CU_DATA the host may not write from a job. */
static const char *kh_data_refused(const struct kh_node *n)
{
	if (n->cu_type == KH_CU_GP)
		return "is a POOL unit: its firmware owns its buffers (FW_LOAD loads them)";
	if (n->cu_type == KH_CU_DX)
		return "is a DXA unit: its descriptor table is the driver's (DXA_SET sets a slot)";
	if (!n->n_buffers)
		return "publishes no CU_DATA buffer (CU_CAPS n_buffers 0)";
	return NULL;
}

/* Does the unit answer a burst's flags[0] with SIG_DATA_RECEIVED? */
static bool kh_data_acked(const struct kh_node *n)
{
	return n->cu_type != KH_CU_RV;
}

static int kh_data_check(struct kh_device *kd, const struct drm_kohaku_data *d,
			 unsigned int prog, unsigned int i)
{
	if (d->flags || d->reserved || d->pad[0] || d->pad[1] || d->pad[2]) {
		kh_dbg(kd, "SUBMIT: program %u data %u has nonzero flags/pad/reserved\n",
		       prog, i);
		return -EINVAL;
	}
	if (!d->size || d->size % KOHAKU_DATA_GRANULE) {
		kh_dbg(kd, "SUBMIT: program %u data %u: %u bytes; CU_DATA moves whole %u-byte granules (at least one)\n",
		       prog, i, d->size, KOHAKU_DATA_GRANULE);
		return -EINVAL;
	}
	/* the descriptor's offset field is 16 bits, for every burst */
	if (d->offset + (u64)d->size / KOHAKU_DATA_GRANULE > 0x10000) {
		kh_dbg(kd, "SUBMIT: program %u data %u: granules %u..%llu do not fit CU_DATA's 16-bit offset\n",
		       prog, i, d->offset,
		       d->offset + (u64)d->size / KOHAKU_DATA_GRANULE - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * Check and copy in every program's data entries (@p: the programs as the
 * caller gave them, already checked; job->progs filled), and beside them
 * the entries the driver adds (@add: kernel memory, already right, such as
 * a DXA unit's slots): each program's own first, then the driver's for it.
 * The job keeps a copy of both.  On error the job's partial copy is freed
 * with the job.
 */
int kh_job_data_build(struct kh_device *kd, struct kh_job *job,
		      const struct drm_kohaku_program *p, u32 n_progs,
		      const struct kh_data_add *add, u32 n_add)
{
	struct drm_kohaku_data *d = NULL;
	u64 bytes = 0, added = 0, at = 0;
	u32 i, j, n_user = 0, k = 0, n = 0;
	int ret = 0;

	for (i = 0; i < n_progs; i++) {
		const char *why;

		if (!p[i].n_data)
			continue;
		if (p[i].n_data > KOHAKU_MAX_PROGRAM_DATA) {
			kh_dbg(kd, "SUBMIT: program %u has %u data entries, more than %u\n",
			       i, p[i].n_data, KOHAKU_MAX_PROGRAM_DATA);
			return -EINVAL;
		}
		why = kh_data_refused(job->progs[i].node);
		if (why) {
			kh_dbg(kd, "SUBMIT: program %u carries data for (%u,%u), which %s\n",
			       i, p[i].x, p[i].y, why);
			return -EINVAL;
		}
		n_user += p[i].n_data;
	}
	if (!n_user && !n_add)
		return 0;
	job->segs = kvcalloc(n_user + n_add, sizeof(*job->segs), GFP_KERNEL);
	d = kvcalloc(n_user ? n_user : 1, sizeof(*d), GFP_KERNEL);
	if (!job->segs || !d) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n_progs; i++) {
		if (!p[i].n_data)
			continue;
		if (copy_from_user(&d[k], u64_to_user_ptr(p[i].data_ptr),
				   sizeof(*d) * p[i].n_data)) {
			ret = -EFAULT;
			goto out;
		}
		for (j = 0; j < p[i].n_data; j++, k++) {
			ret = kh_data_check(kd, &d[k], i, j);
			/* a cpu unit's last granule is the driver's flush stub */
			if (!ret)
				ret = kh_cpu_data_check(kd, job->progs[i].node,
							&d[k], i, j);
			if (ret)
				goto out;
			bytes += d[k].size;
		}
	}
	if (bytes > KOHAKU_MAX_JOB_DATA) {
		kh_dbg(kd, "SUBMIT: %llu bytes of data, more than %u per job\n",
		       bytes, KOHAKU_MAX_JOB_DATA);
		ret = -E2BIG;
		goto out;
	}
	for (j = 0; j < n_add; j++)
		added += add[j].size;
	job->data = kvzalloc(bytes + added, GFP_KERNEL);
	if (!job->data) {
		ret = -ENOMEM;
		goto out;
	}
	/* program by program: the caller's entries, then the driver's */
	for (i = 0, k = 0; i < n_progs; i++) {
		for (j = 0; j < p[i].n_data; j++, k++, n++) {
			if (copy_from_user(job->data + at,
					   u64_to_user_ptr(d[k].data_ptr),
					   d[k].size)) {
				ret = -EFAULT;
				goto out;
			}
			job->segs[n].node = job->progs[i].node;
			job->segs[n].buf = d[k].buf_id;
			job->segs[n].offset = d[k].offset;
			job->segs[n].n = d[k].size / KOHAKU_DATA_GRANULE;
			job->segs[n].bytes = job->data + at;
			at += d[k].size;
		}
		for (j = 0; j < n_add; j++) {
			if (add[j].prog != i)
				continue;
			memcpy(job->data + at, add[j].bytes, add[j].size);
			job->segs[n].node = job->progs[i].node;
			job->segs[n].buf = add[j].buf;
			job->segs[n].offset = add[j].offset;
			job->segs[n].n = add[j].size / KOHAKU_DATA_GRANULE;
			job->segs[n].bytes = job->data + at;
			at += add[j].size;
			n++;
		}
	}
	job->n_segs = n;
out:
	kvfree(d);
	return ret;
}

static void kh_data_flit_hdr(struct kh_mesh *m, struct kh_flit *f,
			     const struct kh_node *n, unsigned int last)
{
	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, n->x, n->y, m->agent_x, m->agent_y, KH_T_CU_DATA, 0, last);
}

/* The descriptor of the next burst of @s: up to KH_DATA_MAX_FLITS granules. */
static void kh_data_open(struct kh_mesh *m, struct kh_job *job,
			 const struct kh_data_seg *s)
{
	struct kh_data_cursor *c = &job->dc;
	struct kh_flit f;
	u64 ns;

	c->burst = min_t(u32, s->n - c->done, KH_DATA_MAX_FLITS);
	c->sent = 0;
	ns = kh_ns_lo(m, KH_YX(s->node->x, s->node->y));
	c->baseline = KH_NS_COUNT(ns);
	kh_data_flit_hdr(m, &f, s->node, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, s->buf);
	kh_flit_set(&f, KH_DATA_OFFSET, s->offset + c->done);
	kh_flit_set(&f, KH_DATA_LEN, c->burst - 1);
	if (kh_data_acked(s->node)) {
		kh_flit_set(&f, KH_DATA_FLAGS, KH_DATAF_SIGNAL);
		kh_flit_set(&f, KH_DATA_ACK_X, m->agent_x);
		kh_flit_set(&f, KH_DATA_ACK_Y, m->agent_y);
	}
	kh_mbox_send(m, &f);
}

/* Data flit @k of the open burst: granule done + k of the entry. */
static void kh_data_flit(struct kh_mesh *m, struct kh_job *job,
			 const struct kh_data_seg *s, u32 k)
{
	const u8 *g = s->bytes + (size_t)(job->dc.done + k) * KOHAKU_DATA_GRANULE;
	struct kh_flit f;
	unsigned int w;
	int b;

	kh_data_flit_hdr(m, &f, s->node, k == job->dc.burst - 1);
	for (w = 0; w < KOHAKU_DATA_GRANULE / 8; w++) {
		u64 v = 0;

		for (b = 7; b >= 0; b--)
			v = v << 8 | g[w * 8 + b];
		f.w[w] = v;
	}
	kh_mbox_send(m, &f);
}

/* The open burst's acknowledgement: 1 in, 0 not yet, <0 never will be. */
static int kh_data_ack(struct kh_mesh *m, struct kh_job *job,
		       const struct kh_data_seg *s)
{
	struct kh_data_cursor *c = &job->dc;
	u8 yx = KH_YX(s->node->x, s->node->y);
	u64 ns = kh_ns_lo(m, yx);

	if (!(ns & KH_NS_VALID) || KH_NS_COUNT(ns) == c->baseline) {
		if (kh_now(m->kd) < c->deadline)
			return 0;
		kh_err(m->kd, "mesh %u: job %llu: node (%u,%u) did not acknowledge CU_DATA into buffer %u (granules %u..%u): the unit refused it, or is not taking data\n",
		       m->id, job->id, s->node->x, s->node->y, s->buf,
		       s->offset + c->done, s->offset + c->done + c->burst - 1);
		kh_job_error(job, s->node, KOHAKU_JOB_WHY_DATA_REFUSED,
			     "a node did not acknowledge the job's CU_DATA");
		return -ETIMEDOUT;
	}
	ns = kh_ns_word(m, yx, ns);
	if (KH_NS_CODE(ns) != KH_SIG_DATA_RECEIVED ||
	    KH_NS_COUNT(ns) != ((c->baseline + 1) & 0xffff)) {
		kh_err(m->kd, "mesh %u: job %llu: node (%u,%u) answered CU_DATA with signal 0x%x (count %u after %u)\n",
		       m->id, job->id, s->node->x, s->node->y, KH_NS_CODE(ns),
		       KH_NS_COUNT(ns), c->baseline);
		kh_job_error(job, s->node, KOHAKU_JOB_WHY_DATA_PROTOCOL,
			     "a node answered the job's CU_DATA out of protocol");
		return -EIO;
	}
	return 1;
}

/*
 * Send what can be sent now.  Returns 1 when every entry is out (and,
 * for units that acknowledge, landed), 0 to be called again, -errno when
 * the job failed (job->why says how).
 */
int kh_job_data_step(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_data_cursor *c = &job->dc;
	int ret;

	lockdep_assert_held(&m->lock);
	while (c->seg < job->n_segs) {
		const struct kh_data_seg *s = &job->segs[c->seg];

		if (c->wait_ack) {
			ret = kh_data_ack(m, job, s);
			if (ret <= 0)
				return ret;
			c->wait_ack = false;
		} else if (!c->burst || c->sent < c->burst) {
			/* TX_KICK is ignored while the FIFO is full */
			if (kh_rd(m, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL)
				return 0;
			if (!c->burst)
				kh_data_open(m, job, s);
			else
				kh_data_flit(m, job, s, c->sent++);
			if (c->sent < c->burst)
				continue;
			if (kh_data_acked(s->node)) {
				c->wait_ack = true;
				c->deadline = kh_now(m->kd) + KH_DATA_TIMEOUT_NS;
				continue;
			}
		}
		/* the burst is out, and acknowledged where the unit does that */
		c->done += c->burst;
		c->burst = 0;
		if (c->done == s->n) {
			c->seg++;
			c->done = 0;
		}
	}
	return 1;
}

/*
 * The job ends while a burst is open: the node's receive path still
 * counts data flits that will never come, and would take the next
 * burst's flits for them.  It gets no more work.
 */
void kh_job_data_cut(struct kh_mesh *m, struct kh_job *job)
{
	struct kh_data_cursor *c = &job->dc;
	struct kh_node *n;

	lockdep_assert_held(&m->lock);
	if (c->seg >= job->n_segs || !c->burst || c->sent == c->burst)
		return;
	n = job->segs[c->seg].node;
	n->flags |= KOHAKU_NODE_HUNG;
	kh_err(m->kd, "mesh %u: job %llu ended inside a CU_DATA burst to (%u,%u) (%u of %u granules sent); the node takes no more jobs\n",
	       m->id, job->id, n->x, n->y, c->sent, c->burst);
}
