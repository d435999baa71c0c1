// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Jobs: submit (one program per target node, optionally with fences),
 * wait for a final status, run (both), and a status in words.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/*
 * Room for every program's data entries in the ABI's form (*out NULL when
 * none carries data); a count over the limit or a NULL array is refused
 * here with a message, before the driver sees it.
 */
static int kh_rt_job_data(kohaku_device *dev, const struct kohaku_program *programs,
			  unsigned int n_programs, struct drm_kohaku_data **out)
{
	unsigned int i, total = 0;

	*out = NULL;
	for (i = 0; i < n_programs; i++) {
		const struct kohaku_program *p = &programs[i];

		if (!p->n_data)
			continue;
		if (p->n_data > KOHAKU_MAX_PROGRAM_DATA || !p->data) {
			kh_rt_seterr(dev, "submitting a job: program %u carries %u "
				     "data entries%s (at most %u)", i, p->n_data,
				     p->data ? "" : " at NULL",
				     KOHAKU_MAX_PROGRAM_DATA);
			return p->data ? -EINVAL : -EFAULT;
		}
		total += p->n_data;
	}
	if (!total)
		return 0;
	*out = calloc(total, sizeof(**out));
	if (!*out) {
		kh_rt_seterr(dev, "submitting a job: out of memory for %u data entries",
			     total);
		return -ENOMEM;
	}
	return 0;
}

/*
 * SUBMIT refused with EIO: say which target is unusable and why, from the
 * node table (the driver's own words are in its log).
 */
static void kh_rt_submit_why(kohaku_device *dev,
			     const struct kohaku_program *programs,
			     unsigned int n_programs)
{
	struct drm_kohaku_get_info info;
	struct drm_kohaku_node *nodes;
	unsigned int count, i, k;

	/* a wedged mesh first: it refuses every target */
	memset(&info, 0, sizeof(info));
	if (!dev->ops->ioctl(dev, DRM_IOCTL_KOHAKU_GET_INFO, &info)) {
		for (i = 0; i < n_programs; i++) {
			unsigned int m = programs[i].mesh;

			if (m < KOHAKU_MAX_MESHES &&
			    (info.mesh[m].flags & KOHAKU_MESH_WEDGED)) {
				kh_rt_seterr(dev, "submitting a job: mesh %u is "
					     "wedged (the driver's log says "
					     "why): it takes no job until it is "
					     "reset (`kohaku reset --mesh %u`, "
					     "as root)", m, m);
				return;
			}
		}
	}
	if (kohaku_nodes_alloc(dev, 0, &nodes, sizeof(*nodes), &count))
		return;
	for (i = 0; i < n_programs; i++) {
		const struct kohaku_program *p = &programs[i];

		for (k = 0; k < count; k++) {
			const struct drm_kohaku_node *n = &nodes[k];

			if (n->mesh != p->mesh || n->x != p->x || n->y != p->y)
				continue;
			if (n->fw_state == KOHAKU_FW_STATE_ABSENT ||
			    n->fw_state == KOHAKU_FW_STATE_FAILED) {
				kh_rt_seterr(dev, "submitting a job: the POOL "
					     "unit at mesh %u (%u,%u): no firmware "
					     "runs there (%s): load it first "
					     "(`kohaku fw load FILE`)",
					     n->mesh, n->x, n->y,
					     n->fw_state == KOHAKU_FW_STATE_FAILED ?
					     "its last boot failed" :
					     "none loaded since bring-up or the "
					     "last mesh reset");
				goto out;
			}
			if (n->flags & KOHAKU_NODE_HUNG) {
				kh_rt_seterr(dev, "submitting a job: the node "
					     "at mesh %u (%u,%u) hung in an "
					     "earlier job and takes no work until "
					     "its mesh is reset (`kohaku reset "
					     "--mesh %u`, as root)", n->mesh, n->x,
					     n->y, n->mesh);
				goto out;
			}
		}
	}
out:
	free(nodes);
}

/* KOHAKU_REFUSED_* in words: why SUBMIT refused an operand */
static const char *refused_why(uint32_t why)
{
	switch (why) {
	case KOHAKU_REFUSED_OUTSIDE:
		return "lies in no buffer the job names (or runs past the end of "
		       "the one it starts in)";
	case KOHAKU_REFUSED_INTENT:
		return "lies in a buffer the job names without the access the "
		       "unit makes there (read, write)";
	case KOHAKU_REFUSED_WRAPS:
		return "wraps past the top of the address space";
	case KOHAKU_REFUSED_NODE:
		return "sends data to a node whose buffers no job may write (a "
		       "POOL or DXA unit, or no node at all)";
	case KOHAKU_REFUSED_REGIONS:
		return "lies in one buffer more than a POOL unit's bounds hold "
		       "for one program (KH_POOL_REGIONS separate buffers; "
		       "buffers that touch, used alike, count once)";
	case KOHAKU_REFUSED_UNCHECKABLE:
		return "is what the driver cannot check (a unit that runs "
		       "programs nothing bounds, such as the cpu unit; an "
		       "instruction or kernel it does not know; a run on what "
		       "an earlier job left in the unit): only an "
		       "administrator's jobs may do that";
	default:
		return "was refused";
	}
}

/* SUBMIT said EACCES (E2BIG): which instruction, which operand, and why */
static void submit_refused(kohaku_device *dev, const struct drm_kohaku_submit *req,
			   const struct kohaku_program *programs)
{
	const struct kohaku_program *p = &programs[req->refused_program];

	if (req->refused_why == KOHAKU_REFUSED_REGIONS) {
		kh_rt_seterr(dev, "submitting a job: program %u (mesh %u (%u,%u)) "
			     "instruction %u, operand %u: 0x%" PRIx64 ", %" PRIu64
			     " bytes, %s (SUBMIT: E2BIG). Split the program "
			     "into jobs that each reach fewer buffers.",
			     req->refused_program, p->mesh, p->x, p->y,
			     req->refused_inst, req->refused_operand,
			     (uint64_t)req->refused_addr, (uint64_t)req->refused_len,
			     refused_why(req->refused_why));
		return;
	}

	if (req->refused_why == KOHAKU_REFUSED_UNCHECKABLE) {
		kh_rt_seterr(dev, "submitting a job: program %u (mesh %u (%u,%u)) "
			     "instruction %u %s (SUBMIT: EACCES; the driver's log "
			     "says more)", req->refused_program, p->mesh, p->x,
			     p->y, req->refused_inst, refused_why(req->refused_why));
		return;
	}
	if (req->refused_why == KOHAKU_REFUSED_NODE) {
		kh_rt_seterr(dev, "submitting a job: program %u (mesh %u (%u,%u)) "
			     "instruction %u, operand %u: node (%u,%u) %s "
			     "(SUBMIT: EACCES)", req->refused_program, p->mesh,
			     p->x, p->y, req->refused_inst, req->refused_operand,
			     (unsigned int)(req->refused_addr & 0xff),
			     (unsigned int)(req->refused_addr >> 8),
			     refused_why(req->refused_why));
		return;
	}
	kh_rt_seterr(dev, "submitting a job: program %u (mesh %u (%u,%u)) "
		     "instruction %u, operand %u: 0x%" PRIx64 ", %" PRIu64
		     " bytes, %s (SUBMIT: EACCES). Name the buffer in "
		     "kohaku_submit_args.bos with that access, or leave bos "
		     "NULL to name every buffer of this file on the mesh.",
		     req->refused_program, p->mesh, p->x, p->y,
		     req->refused_inst, req->refused_operand,
		     (uint64_t)req->refused_addr, (uint64_t)req->refused_len,
		     refused_why(req->refused_why));
}

/*
 * The job's buffers, as SUBMIT takes them: none named is every BO of the
 * file (FILE_BOS) on a driver that checks; a driver older than 0.8 gets
 * ABI 0.7's form, and refuses nothing it could not check before.
 */
static int submit_bos(kohaku_device *dev, const struct kohaku_submit_args *args,
		      struct drm_kohaku_submit *req, struct drm_kohaku_job_bo **out)
{
	struct drm_kohaku_job_bo *jb;
	unsigned int i;

	*out = NULL;
	if (!(dev->info.caps & KOHAKU_CAP_JOB_BOS)) {
		if (!args->n_bos && !args->flags)
			return 0;
		kh_rt_seterr(dev, "submitting a job: the driver (ABI %u.%u) "
			     "takes no list of buffers nor submit flags (ABI 0.8, "
			     "KOHAKU_CAP_JOB_BOS): update it",
			     KOHAKU_ABI_VERSION_MAJOR(dev->info.abi_version),
			     KOHAKU_ABI_VERSION_MINOR(dev->info.abi_version));
		return -EOPNOTSUPP;
	}
	req->flags = args->flags;
	if (!args->n_bos) {
		if (!(args->flags & KOHAKU_SUBMIT_UNCHECKED))
			req->flags |= KOHAKU_SUBMIT_FILE_BOS;
		return 0;
	}
	if (!args->bos) {
		kh_rt_seterr(dev, "submitting a job: bos is NULL with n_bos %u",
			     args->n_bos);
		return -EFAULT;
	}
	if (args->n_bos > KOHAKU_MAX_JOB_BOS) {
		kh_rt_seterr(dev, "submitting a job naming %u buffers: a job names "
			     "at most %u", args->n_bos, KOHAKU_MAX_JOB_BOS);
		return -EINVAL;
	}
	jb = calloc(args->n_bos, sizeof(*jb));
	if (!jb)
		return -ENOMEM;
	for (i = 0; i < args->n_bos; i++) {
		jb[i].handle = args->bos[i].handle;
		jb[i].flags = args->bos[i].access;
	}
	req->bos_ptr = (uintptr_t)jb;
	req->n_bos = args->n_bos;
	*out = jb;
	return 0;
}

/* KOHAKU_REFUSED_* in words, for the artifact runner's messages */
KH_RT_HIDDEN const char *kh_rt_refused_why(uint32_t why)
{
	return refused_why(why);
}

KH_RT_EXPORT int kohaku_submit_ex(kohaku_device *dev,
				  const struct kohaku_submit_args *args,
				  uint64_t *job_id)
{
	return kh_rt_submit(dev, args, job_id, NULL);
}

KH_RT_HIDDEN int kh_rt_submit(kohaku_device *dev,
			      const struct kohaku_submit_args *args,
			      uint64_t *job_id, struct drm_kohaku_submit *out)
{
	struct drm_kohaku_job_bo *jb = NULL;
	struct drm_kohaku_program progs[KOHAKU_MAX_PROGRAMS];
	struct drm_kohaku_data *data = NULL, *d;
	const struct kohaku_program *programs;
	struct drm_kohaku_submit req;
	unsigned int i, j, n_programs;
	int r;

	if (!dev)
		return -EINVAL;
	if (!args) {
		kh_rt_seterr(dev, "submitting a job: args is NULL");
		return -EFAULT;
	}
	programs = args->programs;
	n_programs = args->n_programs;
	if (n_programs == 0 || n_programs > KOHAKU_MAX_PROGRAMS) {
		kh_rt_seterr(dev, "submitting a job of %u programs: a job has "
			     "1 to %u programs (one per target node)",
			     n_programs, KOHAKU_MAX_PROGRAMS);
		return -EINVAL;
	}
	if (!programs) {
		kh_rt_seterr(dev, "submitting a job: programs is NULL");
		return -EFAULT;
	}
	/*
	 * A driver older than 0.9 would take a program struct with peer
	 * signals as too long (E2BIG) and one with no instructions as EINVAL:
	 * say what it lacks instead.
	 */
	for (i = 0; i < n_programs; i++) {
		if (!programs[i].peer_signals ||
		    (dev->info.caps & KOHAKU_CAP_PEER_SIGNALS))
			continue;
		kh_rt_seterr(dev, "submitting a job: program %u waits for %u peer "
			     "signal%s, which the driver (ABI %u.%u) does not count "
			     "(ABI 0.9, KOHAKU_CAP_PEER_SIGNALS): update it", i,
			     programs[i].peer_signals,
			     programs[i].peer_signals == 1 ? "" : "s",
			     KOHAKU_ABI_VERSION_MAJOR(dev->info.abi_version),
			     KOHAKU_ABI_VERSION_MINOR(dev->info.abi_version));
		return -EOPNOTSUPP;
	}
	r = kh_rt_job_data(dev, programs, n_programs, &data);
	if (r)
		return r;
	memset(progs, 0, sizeof(progs));
	for (i = 0, d = data; i < n_programs; i++) {
		const struct kohaku_program *p = &programs[i];

		progs[i].mesh = p->mesh;
		progs[i].x = p->x;
		progs[i].y = p->y;
		progs[i].txn = p->txn;
		progs[i].n_insts = p->n_insts;
		progs[i].insts_ptr = (uintptr_t)p->insts;
		progs[i].peer_signals = p->peer_signals;
		if (!p->n_data)
			continue;
		for (j = 0; j < p->n_data; j++) {
			d[j].data_ptr = (uintptr_t)p->data[j].data;
			d[j].size = p->data[j].size;
			d[j].offset = p->data[j].offset;
			d[j].buf_id = p->data[j].buf_id;
		}
		progs[i].data_ptr = (uintptr_t)d;
		progs[i].n_data = p->n_data;
		d += p->n_data;
	}
	memset(&req, 0, sizeof(req));
	r = submit_bos(dev, args, &req, &jb);
	if (r) {
		free(data);
		return r;
	}
	req.n_programs = n_programs;
	req.programs_ptr = (uintptr_t)progs;
	req.program_size = sizeof(progs[0]);
	req.timeout_ms = args->timeout_ms;
	req.in_syncobjs_ptr = (uintptr_t)args->in_syncobjs;
	req.n_in_syncobjs = args->n_in_syncobjs;
	req.out_syncobj = args->out_syncobj;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, &req,
			"submitting a job of %u program%s (first target mesh %u "
			"(%u,%u), %u instruction%s%s)", n_programs,
			n_programs == 1 ? "" : "s", programs[0].mesh,
			programs[0].x, programs[0].y, programs[0].n_insts,
			programs[0].n_insts == 1 ? "" : "s",
			args->n_in_syncobjs || args->out_syncobj ? ", with fences" : "");
	free(data);
	free(jb);
	if (r == -EIO)
		kh_rt_submit_why(dev, programs, n_programs);
	if ((r == -EACCES || r == -E2BIG) && req.refused_why &&
	    req.refused_program < n_programs)
		submit_refused(dev, &req, programs);
	if (r == 0 && job_id)
		*job_id = req.job_id;
	if (out)
		*out = req;
	return r;
}

KH_RT_EXPORT int kohaku_submit(kohaku_device *dev,
			       const struct kohaku_program *programs,
			       unsigned int n_programs, uint32_t timeout_ms,
			       uint64_t *job_id)
{
	struct kohaku_submit_args a = {
		.programs = programs,
		.n_programs = n_programs,
		.timeout_ms = timeout_ms,
	};

	return kohaku_submit_ex(dev, &a, job_id);
}

KH_RT_EXPORT const char *kohaku_job_status_name(unsigned int status)
{
	switch (status) {
	case KOHAKU_JOB_QUEUED:
		return "QUEUED";
	case KOHAKU_JOB_RUNNING:
		return "RUNNING";
	case KOHAKU_JOB_DONE:
		return "DONE";
	case KOHAKU_JOB_FAULT:
		return "FAULT";
	case KOHAKU_JOB_TIMEOUT:
		return "TIMEOUT";
	case KOHAKU_JOB_ABORTED:
		return "ABORTED";
	case KOHAKU_JOB_ERROR:
		return "ERROR";
	default:
		return "UNKNOWN";
	}
}

/* a KOHAKU_JOB_WHY_* in words */
static const char *error_reason(uint32_t reason)
{
	switch (reason) {
	case KOHAKU_JOB_WHY_DATA_REFUSED:
		return "the node did not acknowledge the job's CU_DATA (a buffer "
		       "the unit does not take, or past its end; no instruction "
		       "was sent)";
	case KOHAKU_JOB_WHY_DATA_PROTOCOL:
		return "the node answered the job's CU_DATA with another signal";
	case KOHAKU_JOB_WHY_BATCH_TXN:
		return "a SIG_BATCH_COMPLETE named another program's txn";
	case KOHAKU_JOB_WHY_NOT_COMPLETION:
		return "a program's last signal was not a completion";
	default:
		return "the device answered out of protocol";
	}
}

/* a KOHAKU_JOB_WHY_* of an ABORTED job in words */
static const char *aborted_reason(uint32_t reason)
{
	switch (reason) {
	case KOHAKU_JOB_WHY_MESH_RESET:
		return "its mesh was reset while the job was on it (a clock "
		       "retune or a reset by another agent on the card); its "
		       "instructions were lost, device memory was kept; the "
		       "mesh takes jobs again";
	case KOHAKU_JOB_WHY_MESH_WEDGED:
		return "the job never ran: its mesh is wedged (see `kohaku "
		       "info`; a mesh reset or reprogramming the card clears it)";
	case KOHAKU_JOB_WHY_NODE_HUNG:
		return "the job never ran: a target node hung in an earlier "
		       "job (see `kohaku nodes`)";
	case KOHAKU_JOB_WHY_IN_FENCE:
		return "the job never ran: an in-fence it waited for "
		       "signalled an error";
	case KOHAKU_JOB_WHY_REMOVED:
		return "the device was removed";
	default:
		return "the job never ran because its mesh is not usable "
		       "(see `kohaku info`)";
	}
}

static const char *job_describe(const struct kohaku_job_status *st,
				char *buf, size_t len)
{
	char where[64];

	if (!buf || !len)
		return "";
	if (!st) {
		kh_rt_strlcpy(buf, "no status", len);
		return buf;
	}
	if (st->fault_mesh == KOHAKU_COORD_NONE ||
	    (st->status == KOHAKU_JOB_FAULT &&
	     !(st->fault_flags & KOHAKU_FAULT_NODE_KNOWN)))
		snprintf(where, sizeof(where), "an unknown node");
	else
		snprintf(where, sizeof(where), "mesh %u node (%u,%u)",
			 st->fault_mesh, st->fault_x, st->fault_y);
	switch (st->status) {
	case KOHAKU_JOB_DONE:
		snprintf(buf, len, "DONE: every program retired cleanly in "
			 "%llu ns of device time",
			 (unsigned long long)st->device_ns);
		break;
	case KOHAKU_JOB_FAULT:
		if (st->fault_flags & KOHAKU_FAULT_CODE_KNOWN)
			snprintf(buf, len, "FAULT: %u instruction%s raised "
				 "SIG_FAULT; the unit at %s with code %u (0x%x; "
				 "unit-defined: the unit's spec says what it means, "
				 "e.g. an SX unit's 0xbad00001 unknown opcode, "
				 "0xbad00002 n > 64)", st->n_faults,
				 st->n_faults == 1 ? "" : "s", where,
				 st->fault_code, st->fault_code);
		else
			snprintf(buf, len, "FAULT: %u instruction%s raised "
				 "SIG_FAULT, on %s; the fault code is not known "
				 "(later signals of the node overwrote it: the "
				 "card keeps only each node's last signal)",
				 st->n_faults, st->n_faults == 1 ? "" : "s", where);
		break;
	case KOHAKU_JOB_TIMEOUT:
		snprintf(buf, len, "TIMEOUT: the job did not finish within its "
			 "limit (device time): %s had not finished; a node "
			 "that does not drain is marked hung (see "
			 "`kohaku nodes`)", where);
		break;
	case KOHAKU_JOB_ABORTED:
		snprintf(buf, len, "ABORTED: %s", aborted_reason(st->reason));
		break;
	case KOHAKU_JOB_ERROR:
		snprintf(buf, len, "ERROR: %s (at %s); the driver log has the "
			 "details", error_reason(st->reason), where);
		break;
	case KOHAKU_JOB_QUEUED:
	case KOHAKU_JOB_RUNNING:
		snprintf(buf, len, "%s: not finished yet",
			 kohaku_job_status_name(st->status));
		break;
	default:
		snprintf(buf, len, "unknown job status %u", st->status);
		break;
	}
	return buf;
}

/* the caller's status, read no further than its size (a bigger one's tail ignored) */
KH_RT_EXPORT const char *kohaku_job_describe(const struct kohaku_job_status *st,
					     size_t st_size, char *buf,
					     size_t len)
{
	struct kohaku_job_status s;

	if (!st)
		return job_describe(NULL, buf, len);
	memset(&s, 0, sizeof(s));
	memcpy(&s, st, st_size < sizeof(s) ? st_size : sizeof(s));
	return job_describe(&s, buf, len);
}

/* libkohaku 0.1's kohaku_job_describe (version node KOHAKU_0) */
const char *kh_rt_job_describe_v0(const struct kohaku_job_status *st,
				  char *buf, size_t len);
const char *kh_rt_job_describe_v0(const struct kohaku_job_status *st,
				  char *buf, size_t len)
{
	return kohaku_job_describe(st, KH_RT_V0_JOB_STATUS_SIZE, buf, len);
}
KH_RT_SYMVER(kh_rt_job_describe_v0, kohaku_job_describe, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_job_describe, KOHAKU_0.2);

/* WAIT's answer as the API's status */
static void status_from_wait(struct kohaku_job_status *st,
			     const struct drm_kohaku_wait *req)
{
	memset(st, 0, sizeof(*st));
	st->status = req->status;
	st->fault_code = req->fault_code;
	st->fault_mesh = req->fault_mesh;
	st->fault_x = req->fault_x;
	st->fault_y = req->fault_y;
	st->fault_flags = req->fault_flags;
	st->n_faults = req->n_faults;
	st->device_ns = req->device_ns;
	st->reason = req->reason;
}

KH_RT_EXPORT int kohaku_wait(kohaku_device *dev, uint64_t job_id,
			     uint32_t timeout_ms, struct kohaku_job_status *st,
			     size_t st_size)
{
	struct drm_kohaku_wait req;
	struct kohaku_job_status s;
	int r;

	if (!dev || (st && !st_size))
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.job_id = job_id;
	req.timeout_ms = timeout_ms;
	r = kh_rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &req,
		     "waiting %u ms for job %llu", timeout_ms,
		     (unsigned long long)job_id);
	if (r < 0 && r != -ETIMEDOUT)
		return r;
	/* on ETIMEDOUT too: where the job is (QUEUED or RUNNING) */
	status_from_wait(&s, &req);
	if (st)
		kh_rt_copy_out(st, st_size, &s, sizeof(s));
	if (r < 0)
		return r;
	if (s.status != KOHAKU_JOB_DONE) {
		char d[512];

		kh_rt_seterr(dev, "job %llu: %s", (unsigned long long)job_id,
			     kohaku_job_describe(&s, sizeof(s), d, sizeof(d)));
	}
	return 0;
}

KH_RT_EXPORT int kohaku_run(kohaku_device *dev,
			    const struct kohaku_program *programs,
			    unsigned int n_programs, uint32_t timeout_ms,
			    struct kohaku_job_status *st, size_t st_size)
{
	struct kohaku_job_status s;
	uint32_t limit = timeout_ms ? timeout_ms : KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	uint64_t job;
	int r, i;

	if (st && !st_size)
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	r = kohaku_submit(dev, programs, n_programs, timeout_ms, &job);
	if (r < 0)
		return r;
	/* the job's own limit ends it; allow the driver a few rounds */
	for (i = 0; i < 4; i++) {
		r = kohaku_wait(dev, job, limit + 1000, &s, sizeof(s));
		if (r != -ETIMEDOUT)
			break;
	}
	if (r == -ETIMEDOUT) {
		kh_rt_seterr(dev, "job %llu: still not final after 4 waits past "
			     "its %u ms limit; the driver did not end it",
			     (unsigned long long)job, limit);
		return r;
	}
	if (r < 0)
		return r;
	if (st)
		kh_rt_copy_out(st, st_size, &s, sizeof(s));
	switch (s.status) {
	case KOHAKU_JOB_DONE:
		return 0;
	case KOHAKU_JOB_TIMEOUT:
		return -ETIMEDOUT;
	case KOHAKU_JOB_ABORTED:
		return -ECANCELED;
	default:
		return -EIO;
	}
}

/* libkohaku 0.1's kohaku_wait (version node KOHAKU_0) */
int kh_rt_wait_v0(kohaku_device *dev, uint64_t job_id, uint32_t timeout_ms,
		    struct kohaku_job_status *st);
int kh_rt_wait_v0(kohaku_device *dev, uint64_t job_id, uint32_t timeout_ms,
		    struct kohaku_job_status *st)
{
	return kohaku_wait(dev, job_id, timeout_ms, st, KH_RT_V0_JOB_STATUS_SIZE);
}
KH_RT_SYMVER(kh_rt_wait_v0, kohaku_wait, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_wait, KOHAKU_0.2);

/* libkohaku 0.1's kohaku_run (version node KOHAKU_0) */
int kh_rt_run_v0(kohaku_device *dev, const struct kohaku_program *programs,
		   unsigned int n_programs, uint32_t timeout_ms,
		   struct kohaku_job_status *st);
int kh_rt_run_v0(kohaku_device *dev, const struct kohaku_program *programs,
		   unsigned int n_programs, uint32_t timeout_ms,
		   struct kohaku_job_status *st)
{
	return kohaku_run(dev, programs, n_programs, timeout_ms, st,
			  KH_RT_V0_JOB_STATUS_SIZE);
}
KH_RT_SYMVER(kh_rt_run_v0, kohaku_run, KOHAKU_0);
KH_RT_SYMVER_DEFAULT(kohaku_run, KOHAKU_0.2);
