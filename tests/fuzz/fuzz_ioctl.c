// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target: the driver core's ioctls as sequences of calls, on two
 * open files of one small simulated card (the in-process host: libkohaku's
 * sim backend, the driver core and the model, all instrumented).  Each
 * input is a program of up to 64 calls: buffer create/free/info/read/write,
 * SUBMIT (one to four programs with random targets, instructions, job data,
 * flags and sizes, or well-formed saxpy on the file's buffers), WAIT, the
 * queries, raw pointer-free commands with random bytes, and closing and
 * reopening the second file.  Handles and job ids are carried between
 * calls, so that frees, waits and submits hit live objects, another file's
 * and dead ones.
 *
 * The in-process host cannot tell a bad user pointer from a good one (only
 * NULL), so every pointer the target passes is valid or NULL; all the rest
 * of every struct is the input's.
 *
 * Promises, after each call: the return is 0 or an errno the ABI names; a
 * created buffer is aligned and inside its mesh; the card's free memory is
 * never more than its size less the live buffers.  At the end: every job
 * reaches a final status, a saxpy on a unit that is not hung is DONE and
 * bit-exact, and after it (behind every job, the closed files' too) every
 * buffer freed has given all the memory back; the model's protocol
 * checker found nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku.h"
#include "kohaku/kh_units.h"
#include "fuzz_promise.h"

#define MAX_CALLS	64
#define MAX_BOS		32
#define MAX_JOBS	(2 * KOHAKU_MAX_JOBS)	/* two files, each at most that */
#define SCRATCH		(64 * 1024)

struct rd {
	const uint8_t *p;
	size_t n;
};

static uint64_t get(struct rd *r, unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes-- && r->n) {
		v = v << 8 | *r->p++;
		r->n--;
	}
	return v;
}

struct fz_bo {
	kohaku_device *f;
	uint32_t handle;
	uint64_t len, addr;
};

struct fz_job {
	kohaku_device *f;
	uint64_t id;
};

struct fz {
	kohaku_device *f[2];
	struct fz_bo bo[MAX_BOS];
	unsigned int n_bo;
	struct fz_job job[MAX_JOBS];
	unsigned int n_job;
	struct drm_kohaku_node nodes[16];
	unsigned int n_nodes;
	uint64_t mem_size;
	uint8_t scratch[SCRATCH];
};

static struct fz fz;

/* the errnos the ABI documents for its refusals (docs/abi.md) */
static void promise_errno(int r)
{
	switch (r) {
	case 0:
	case -EINVAL: case -ENOENT: case -EFAULT: case -E2BIG: case -ENOMEM:
	case -EBUSY: case -ETIMEDOUT: case -EIO: case -ENOSPC: case -ENOTTY:
	case -EOPNOTSUPP: case -ENODEV: case -EPERM: case -EAGAIN:
		return;
	default:
		fprintf(stderr, "fuzz_ioctl: unexpected return %d\n", r);
		abort();
	}
}

static uint64_t align32(uint64_t v)
{
	return (v + KOHAKU_BO_ALIGN - 1) / KOHAKU_BO_ALIGN * KOHAKU_BO_ALIGN;
}

static uint64_t mem_free(void)
{
	struct drm_kohaku_get_info in;

	memset(&in, 0, sizeof(in));
	promise(kohaku_ioctl(fz.f[0], DRM_IOCTL_KOHAKU_GET_INFO, &in) == 0);
	return in.mesh[0].mem_free;
}

/* free memory can only be less than the books say (a release waits for jobs) */
static void promise_books(void)
{
	uint64_t held = 0;
	unsigned int i;

	for (i = 0; i < fz.n_bo; i++)
		held += fz.bo[i].len;
	promise(mem_free() <= fz.mem_size - held);
}

static kohaku_device *pick_file(struct rd *r)
{
	return fz.f[get(r, 1) & 1];
}

/* a live handle most of the time, else a dead or made-up one */
static uint32_t pick_handle(struct rd *r, kohaku_device **f, int *idx)
{
	unsigned int k = get(r, 1);

	*idx = -1;
	if (fz.n_bo && k < 200) {
		*idx = k % fz.n_bo;
		*f = (k & 0x80) ? fz.f[!(fz.bo[*idx].f == fz.f[1])] : fz.bo[*idx].f;
		return fz.bo[*idx].handle;
	}
	*f = pick_file(r);
	return get(r, 2);
}

/* the tracked buffer of file f with that handle (handles are per file) */
static int find_bo(kohaku_device *f, uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < fz.n_bo; i++)
		if (fz.bo[i].f == f && fz.bo[i].handle == handle)
			return i;
	return -1;
}

static void drop_bo(int idx)
{
	fz.bo[idx] = fz.bo[--fz.n_bo];
}

static void op_bo_create(struct rd *r)
{
	struct drm_kohaku_bo_create c;
	kohaku_device *f = pick_file(r);
	unsigned int how = get(r, 1);
	int ret;

	memset(&c, 0, sizeof(c));
	c.mesh = how & 0x40 ? get(r, 1) : 0;
	c.size = how & 0x80 ? get(r, 8) : get(r, 2) * 32 + get(r, 1);
	if ((how & 0x3f) == 0x3f) {		/* rarely: a nonzero field */
		c.flags = get(r, 1);
		c.reserved[1] = get(r, 1);
	}
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_BO_CREATE, &c);
	promise_errno(ret);
	if (ret)
		return;
	promise(c.handle && c.dev_addr % KOHAKU_BO_ALIGN == 0);
	promise(c.dev_addr + align32(c.size) <= fz.mem_size);
	if (fz.n_bo == MAX_BOS) {		/* no room to track it: let it go */
		promise(kohaku_bo_free(f, c.handle) == 0);
		return;
	}
	fz.bo[fz.n_bo++] = (struct fz_bo){ f, c.handle, align32(c.size), c.dev_addr };
}

static void op_bo_free(struct rd *r)
{
	struct drm_kohaku_bo_free a;
	kohaku_device *f;
	int idx, ret;

	memset(&a, 0, sizeof(a));
	a.handle = pick_handle(r, &f, &idx);
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_BO_FREE, &a);
	promise_errno(ret);
	/* a file frees its own buffers only: another file's handle is ENOENT */
	idx = find_bo(f, a.handle);
	promise((ret == 0) == (idx >= 0));
	if (!ret)
		drop_bo(idx);
}

static void op_bo_rw(struct rd *r, bool write)
{
	struct drm_kohaku_bo_rw a;
	kohaku_device *f;
	int idx;

	memset(&a, 0, sizeof(a));
	a.handle = pick_handle(r, &f, &idx);
	a.offset = get(r, 1) & 1 ? get(r, 8) : get(r, 2);
	a.size = get(r, 2) % SCRATCH;
	a.data_ptr = get(r, 1) == 0xff ? 0 : (uintptr_t)fz.scratch;
	if (get(r, 1) == 0xfe)
		a.flags = 1;
	promise_errno(kohaku_ioctl(f, write ? DRM_IOCTL_KOHAKU_BO_WRITE :
				   DRM_IOCTL_KOHAKU_BO_READ, &a));
}

static void op_bo_info(struct rd *r)
{
	struct drm_kohaku_bo_info a;
	kohaku_device *f;
	int idx, ret;

	memset(&a, 0, sizeof(a));
	a.handle = pick_handle(r, &f, &idx);
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_BO_INFO, &a);
	promise_errno(ret);
	idx = find_bo(f, a.handle);
	promise((ret == 0) == (idx >= 0));
	if (!ret)
		promise(a.dev_addr == fz.bo[idx].addr);
}

/* a node of the card most of the time, else any coordinate */
static void pick_target(struct rd *r, struct drm_kohaku_program *p)
{
	unsigned int k = get(r, 1);

	if (k < 224 && fz.n_nodes) {
		const struct drm_kohaku_node *nd = &fz.nodes[k % fz.n_nodes];

		p->mesh = nd->mesh;
		p->x = nd->x;
		p->y = nd->y;
	} else {
		p->mesh = get(r, 1) & 3;
		p->x = get(r, 1) & 15;
		p->y = get(r, 1) & 15;
	}
}

/* a saxpy of up to 64 elements on two of the file's buffers, or bytes */
static void fill_inst(struct rd *r, struct kohaku_inst *in)
{
	unsigned int k = get(r, 1), i;

	if (k < 160 && fz.n_bo) {
		const struct fz_bo *x = &fz.bo[get(r, 1) % fz.n_bo];
		const struct fz_bo *y = &fz.bo[get(r, 1) % fz.n_bo];
		uint32_t n = get(r, 1) % 65;

		if (n * 4 > x->len || n * 4 > y->len)
			n = 0;
		if (kohaku_inst_saxpy(in, n, 1.5f, x->addr, y->addr))
			memset(in, 0, sizeof(*in));
		return;
	}
	for (i = 0; i < 4; i++)
		in->w[i] = get(r, 8);
}

/*
 * SUBMIT.  Every pointer the driver may follow points into memory as large
 * as the ABI lets it read: the program array holds KOHAKU_MAX_PROGRAMS
 * entries at any stride (program_size; each entry laid out at that
 * stride, truncated or with a tail), every program's instructions point to
 * KOHAKU_MAX_JOB_INSTS of them, and its data to KOHAKU_MAX_PROGRAM_DATA
 * entries of at most SCRATCH bytes each.
 */
static void op_submit(struct rd *r)
{
	static uint8_t progbuf[KOHAKU_MAX_PROGRAMS * 256];
	static struct kohaku_inst insts[KOHAKU_MAX_JOB_INSTS];
	static struct drm_kohaku_data data[4][KOHAKU_MAX_PROGRAM_DATA];
	struct drm_kohaku_program prog[4];
	struct drm_kohaku_submit s;
	kohaku_device *f = pick_file(r);
	unsigned int n = 1 + get(r, 1) % 4, i, j, how = get(r, 1);
	size_t stride = sizeof(prog[0]), k;
	uint8_t tail = 0;
	int ret;

	memset(&s, 0, sizeof(s));
	memset(prog, 0, sizeof(prog));
	for (j = 0; j < 8; j++)
		fill_inst(r, &insts[j]);
	for (i = 0; i < n; i++) {
		struct drm_kohaku_program *p = &prog[i];

		pick_target(r, p);
		p->txn = get(r, 1);
		p->n_insts = 1 + get(r, 1) % 8;
		if (get(r, 1) == 0xff)
			p->n_insts = get(r, 4);		/* too many, or 0 */
		p->insts_ptr = (uintptr_t)insts;
		if (get(r, 1) > 0xf0) {
			p->n_data = get(r, 1) % (KOHAKU_MAX_PROGRAM_DATA + 2);
			for (j = 0; j < KOHAKU_MAX_PROGRAM_DATA; j++) {
				memset(&data[i][j], 0, sizeof(data[i][j]));
				data[i][j].data_ptr = (uintptr_t)fz.scratch;
				data[i][j].size = (get(r, 2) % (SCRATCH / 32)) * 32;
				data[i][j].offset = get(r, 2);
				data[i][j].buf_id = get(r, 1) & 7;
			}
			p->data_ptr = (uintptr_t)data[i];
		}
		if (get(r, 1) == 0xfe)
			p->flags = get(r, 4);
	}
	if (how == 0xfe) {			/* another ABI's stride */
		stride = get(r, 1);
		tail = get(r, 1) & 1;
	}
	memset(progbuf, 0, sizeof(progbuf));
	for (i = 0; i < KOHAKU_MAX_PROGRAMS; i++) {
		k = stride < sizeof(prog[0]) ? stride : sizeof(prog[0]);
		memcpy(progbuf + i * stride, &prog[i % n], k);
		if (stride > sizeof(prog[0]))
			progbuf[i * stride + stride - 1] = tail;
	}
	s.n_programs = how == 0xff ? get(r, 1) : n;
	s.programs_ptr = (uintptr_t)progbuf;
	s.program_size = stride;
	s.timeout_ms = 1 + get(r, 1) % 40;
	if (how == 0xfd)
		s.flags = get(r, 4);
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_SUBMIT, &s);
	promise_errno(ret);
	if (!ret && fz.n_job < MAX_JOBS)
		fz.job[fz.n_job++] = (struct fz_job){ f, s.job_id };
}

static void op_wait(struct rd *r)
{
	struct drm_kohaku_wait w;
	kohaku_device *f;
	unsigned int k = get(r, 1);
	int idx = -1, ret;

	memset(&w, 0, sizeof(w));
	if (fz.n_job && k < 220) {
		idx = k % fz.n_job;
		f = (k & 1) && k > 200 ? fz.f[fz.job[idx].f != fz.f[1]] : fz.job[idx].f;
		w.job_id = fz.job[idx].id;
	} else {
		f = pick_file(r);
		w.job_id = get(r, 2);
	}
	w.timeout_ms = get(r, 1) % 8;
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_WAIT, &w);
	promise_errno(ret);
	/* a job is its file's: the one waited for, if tracked, is gone */
	for (idx = 0; idx < (int)fz.n_job; idx++)
		if (fz.job[idx].f == f && fz.job[idx].id == w.job_id)
			break;
	if (idx == (int)fz.n_job)
		idx = -1;
	if (!ret) {
		promise(w.status >= KOHAKU_JOB_DONE);
		promise(idx >= 0);
		fz.job[idx] = fz.job[--fz.n_job];
	} else if (ret == -ENOENT) {
		promise(idx < 0);
	}
}

/* the commands without a pointer in their struct, with any bytes */
static void op_raw(struct rd *r)
{
	static const unsigned long cmds[] = {
		DRM_IOCTL_KOHAKU_GET_INFO, DRM_IOCTL_KOHAKU_GET_PARAM,
		DRM_IOCTL_KOHAKU_BO_INFO, DRM_IOCTL_KOHAKU_WAIT,
		DRM_IOCTL_KOHAKU_DXA_FREE,
	};
	uint8_t arg[512];
	unsigned int i;

	for (i = 0; i < sizeof(arg); i++)
		arg[i] = get(r, 1);
	promise_errno(kohaku_ioctl(pick_file(r), cmds[get(r, 1) % 5], arg));
}

static void op_query(struct rd *r)
{
	static struct drm_kohaku_node nd[20];
	struct drm_kohaku_get_param gp;
	struct drm_kohaku_nodes q;
	kohaku_device *f = pick_file(r);

	memset(&q, 0, sizeof(q));
	q.capacity = get(r, 1) % 21;
	q.node_size = get(r, 1) & 1 ? sizeof(nd[0]) : get(r, 1);
	q.flags = get(r, 1) & 1;
	q.nodes_ptr = q.capacity && get(r, 1) ? (uintptr_t)nd : 0;
	promise_errno(kohaku_ioctl(f, DRM_IOCTL_KOHAKU_NODES, &q));
	memset(&gp, 0, sizeof(gp));
	gp.param = get(r, 1);
	gp.index = get(r, 1) % 5;
	promise_errno(kohaku_ioctl(f, DRM_IOCTL_KOHAKU_GET_PARAM, &gp));
}

/* the second file goes, with its buffers and jobs; a new one opens */
static void op_reopen(void)
{
	unsigned int i;

	kohaku_close(fz.f[1]);
	for (i = 0; i < fz.n_bo;)
		if (fz.bo[i].f == fz.f[1])
			drop_bo(i);
		else
			i++;
	for (i = 0; i < fz.n_job;)
		if (fz.job[i].f == fz.f[1])
			fz.job[i] = fz.job[--fz.n_job];
		else
			i++;
	promise(kohaku_reopen(fz.f[0], &fz.f[1]) == 0);
}

/*
 * A saxpy of 64 elements on an SX unit that is not hung: DONE, bit-exact.
 * Jobs on a mesh run in order, so every job before it, the closed file's
 * too, is final when it is.  Whether one ran.
 */
static bool final_saxpy(void)
{
	uint32_t hx, hy, x[64], y[64], out[64], a = 0x3fc00000;	/* 1.5f */
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst in;
	uint64_t ax, ay, id;
	unsigned int i, k;
	bool ran = false;

	for (i = 0; i < 64; i++) {
		x[i] = 0x3f800000 + i * 0x10000;
		y[i] = 0x40000000 + i * 0x8000;
	}
	promise(kohaku_bo_create(fz.f[0], 0, sizeof(x), &hx, &ax) == 0);
	promise(kohaku_bo_create(fz.f[0], 0, sizeof(y), &hy, &ay) == 0);
	for (k = 0; k < fz.n_nodes && !ran; k++) {
		if (fz.nodes[k].cu_type != KH_CU_SX)
			continue;
		promise(kohaku_bo_write(fz.f[0], hx, 0, x, sizeof(x)) == 0);
		promise(kohaku_bo_write(fz.f[0], hy, 0, y, sizeof(y)) == 0);
		promise(kohaku_inst_saxpy(&in, 64, 1.5f, ax, ay) == 0);
		memset(&p, 0, sizeof(p));
		p.mesh = fz.nodes[k].mesh;
		p.x = fz.nodes[k].x;
		p.y = fz.nodes[k].y;
		p.insts = &in;
		p.n_insts = 1;
		if (kohaku_submit(fz.f[0], &p, 1, 0, &id) == -EIO)
			continue;	/* hung by the sequence: another unit */
		promise(kohaku_wait(fz.f[0], id, 10000, &st) == 0);
		promise(st.status == KOHAKU_JOB_DONE);
		promise(kohaku_bo_read(fz.f[0], hy, 0, out, sizeof(out)) == 0);
		for (i = 0; i < 64; i++)
			promise(out[i] == kohaku_sx_element(
				kohaku_sx_datapath_of(&fz.nodes[k]), a, x[i], y[i]));
		ran = true;
	}
	promise(kohaku_bo_free(fz.f[0], hx) == 0);
	promise(kohaku_bo_free(fz.f[0], hy) == 0);
	return ran;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct rd r = { data, len };
	struct kohaku_job_status st;
	struct drm_kohaku_get_info in;
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int calls, i;

	memset(fz.bo, 0, sizeof(fz.bo));
	fz.n_bo = fz.n_job = 0;
	setenv("KOHAKU_SIM_CHECK", "1", 1);
	if (kohaku_open(KOHAKU_BACKEND_SIM, "saxpy", &fz.f[0], err, sizeof(err))) {
		fprintf(stderr, "fuzz_ioctl: %s\n", err);
		abort();
	}
	promise(kohaku_reopen(fz.f[0], &fz.f[1]) == 0);
	promise(kohaku_get_info(fz.f[0], &in) == 0);
	fz.mem_size = in.mesh[0].mem_size;
	fz.n_nodes = 0;
	promise(kohaku_nodes(fz.f[0], 0, fz.nodes, 16, &fz.n_nodes) == 0);
	if (fz.n_nodes > 16)
		fz.n_nodes = 16;

	for (calls = 0; calls < MAX_CALLS && r.n; calls++) {
		switch (get(&r, 1) % 10) {
		case 0: op_bo_create(&r); break;
		case 1: op_bo_free(&r); break;
		case 2: op_bo_rw(&r, true); break;
		case 3: op_bo_rw(&r, false); break;
		case 4: op_bo_info(&r); break;
		case 5: op_submit(&r); break;
		case 6: op_wait(&r); break;
		case 7: op_raw(&r); break;
		case 8: op_query(&r); break;
		default: op_reopen(); break;
		}
		promise_books();
	}

	/* every job ends; every buffer freed gives all the memory back */
	for (i = 0; i < fz.n_job; i++) {
		int ret = kohaku_wait(fz.job[i].f, fz.job[i].id, 60000, &st);

		if (ret)
			fprintf(stderr, "fuzz_ioctl: job %llu: WAIT %d: %s\n",
				(unsigned long long)fz.job[i].id, ret,
				kohaku_last_error(fz.job[i].f));
		promise(ret == 0);
		promise(st.status >= KOHAKU_JOB_DONE);
	}
	fz.n_job = 0;
	for (i = 0; i < fz.n_bo; i++)
		promise(kohaku_bo_free(fz.bo[i].f, fz.bo[i].handle) == 0);
	fz.n_bo = 0;
	promise_books();
	/* after a job behind every other, all the memory is back */
	if (final_saxpy())
		promise(mem_free() == fz.mem_size);
	promise(kohaku_sim_check(fz.f[0]) <= 0);
	kohaku_close(fz.f[1]);
	kohaku_close(fz.f[0]);
	return 0;
}
