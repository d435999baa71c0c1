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
 * Both files are opened unprivileged (KOHAKU_UNPRIVILEGED=1), so every job
 * is checked against the buffers it names (ABI 0.8): SUBMIT sends
 * KOHAKU_SUBMIT_FILE_BOS, lists of struct drm_kohaku_job_bo (the file's
 * buffers with any access bits, the other file's, dead and made-up handles,
 * duplicates, bad flags and reserved words), no flag and no list, and
 * KOHAKU_SUBMIT_UNCHECKED; saxpys aim inside a buffer, at its last word,
 * just past it, just before it, into the other file's buffers or anywhere.
 * Inputs whose last byte is 0x?d open file 0 as an administrator's (its
 * 0.7-form and UNCHECKED jobs run unchecked).
 *
 * Promises, after each call: the return is 0 or an errno the ABI names; a
 * created buffer is aligned, inside its mesh and reads zeros; the card's free memory is
 * never more than its size less the live buffers; an EACCES names a program
 * of the job and a reason; an accepted job's list named only the file's
 * buffers, with valid access bits, once each.  No job changes a byte outside
 * what it may write: each tracked buffer keeps a shadow of its content
 * (read back at creation, mirrored on each BO_WRITE; the first and last
 * 32 KiB of a larger one), and a buffer no accepted job could write (named
 * with WRITE, FILE_BOS of its file on its mesh, or an unchecked job of an
 * administrator on its mesh) reads back equal to it when it is freed, when
 * its file closes and at the end, behind every job.  At the end: every
 * job reaches a final status, a saxpy on a unit that is not hung is DONE
 * and bit-exact, and after it (behind every job, the closed files' too)
 * every buffer freed has given all the memory back; the model's protocol
 * checker found nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kohaku.h"
#include "kohaku/kh_flit.h"
#include "kohaku/kh_units.h"
#include "fuzz_promise.h"

#define MAX_CALLS	64
#define MAX_BOS		32
#define MAX_JOBS	(2 * KOHAKU_MAX_JOBS)	/* two files, each at most that */
#define SCRATCH		(64 * 1024)
#define SHADOW_MAX	(64 * 1024)	/* bytes of a buffer kept: head and tail */
#define N_DEAD		8

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
	uint64_t size;		/* as BO_CREATE was asked: the buffer's bytes */
	unsigned int mesh;
	uint8_t *shadow;	/* [0, head) and [size - tail, size) */
	uint64_t head, tail;
	bool may_change;	/* an accepted job could write it */
};

struct fz_job {
	kohaku_device *f;
	uint64_t id;
	int wild_mesh;		/* an unchecked job's mesh, else -1 */
};

struct fz_dead {
	kohaku_device *f;
	uint32_t handle;
};

struct fz {
	kohaku_device *f[2];
	bool admin[2];
	struct fz_bo bo[MAX_BOS];
	unsigned int n_bo;
	struct fz_job job[MAX_JOBS];
	unsigned int n_job;
	struct fz_dead dead[N_DEAD];
	unsigned int n_dead;
	/* unchecked jobs that may still write, per mesh (forever: untracked) */
	unsigned int wild[256];
	bool wild_forever[256];
	struct drm_kohaku_node nodes[16];
	unsigned int n_nodes;
	uint64_t mem_size;
	uint8_t scratch[SCRATCH];
	uint8_t readback[SHADOW_MAX];
};

static struct fz fz;
static bool trace;	/* FUZZ_IOCTL_TRACE=1: each call on stderr */
#define T(...)	do { if (trace) fprintf(stderr, __VA_ARGS__); } while (0)

/* FUZZ_IOCTL_STATS=1: what the inputs run did, at exit */
static struct {
	unsigned long inputs, admin_inputs, submits, accepted[4], eacces[KOHAKU_REFUSED_MAX + 1];
	unsigned long eperm, enoent, einval, checked, skipped;
} stats;

static void print_stats(void)
{
	unsigned int i;

	fprintf(stderr, "fuzz_ioctl: %lu inputs (%lu with an administrator's file 0), "
		"%lu SUBMITs: accepted %lu FILE_BOS, %lu with a list, %lu with neither, "
		"%lu unchecked; EACCES", stats.inputs, stats.admin_inputs, stats.submits,
		stats.accepted[0], stats.accepted[1], stats.accepted[2], stats.accepted[3]);
	for (i = 1; i <= KOHAKU_REFUSED_MAX; i++)
		fprintf(stderr, " %lu", stats.eacces[i]);
	fprintf(stderr, " (by refused_why 1..%u), EPERM %lu, ENOENT %lu, EINVAL %lu; "
		"buffers compared with their shadow %lu, left out (a job could write them) %lu\n",
		KOHAKU_REFUSED_MAX, stats.eperm, stats.enoent, stats.einval, stats.checked, stats.skipped);
}
/* a job's buffers: as many as the ABI lets SUBMIT read (its own object) */
static struct drm_kohaku_job_bo job_bos[KOHAKU_MAX_JOB_BOS];

/* the errnos the ABI documents for its refusals (docs/abi.md) */
static void promise_errno(int r)
{
	switch (r) {
	case 0:
	case -EINVAL: case -ENOENT: case -EFAULT: case -E2BIG: case -ENOMEM:
	case -EBUSY: case -ETIMEDOUT: case -EIO: case -ENOSPC: case -ENOTTY:
	case -EOPNOTSUPP: case -ENODEV: case -EPERM: case -EAGAIN:
	case -EACCES:
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

static int file_index(kohaku_device *f)
{
	return f == fz.f[1];
}

/* ---- the shadow of each buffer's bytes ---- */

/*
 * Bytes a saxpy changes: binary32 values from 1 to 2^20 with any fraction
 * (on all-zero memory a saxpy writes what was there, and nothing could
 * tell a write that should not have happened).
 */
static void pattern(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		uint32_t h = (uint32_t)(i / 4 + 1) * 2654435761u ^ seed * 40503u;
		uint32_t v = (127 + h % 20) << 23 | (h >> 5 & 0x7fffff);

		memcpy(p + i, &v, 4);
	}
	for (; i < n; i++)
		p[i] = 0x5a;
}

/* read the kept ranges back into out (head then tail) */
static int shadow_read(const struct fz_bo *b, uint8_t *out)
{
	int ret = 0;

	if (b->head)
		ret = kohaku_bo_read(b->f, b->handle, 0, out, b->head);
	if (!ret && b->tail)
		ret = kohaku_bo_read(b->f, b->handle, b->size - b->tail,
				     out + b->head, b->tail);
	return ret;
}

static void shadow_alloc(struct fz_bo *b)
{
	if (b->size <= SHADOW_MAX) {
		b->head = b->size;
		b->tail = 0;
	} else {
		b->head = b->tail = SHADOW_MAX / 2;
	}
	b->shadow = malloc(b->head + b->tail ? b->head + b->tail : 1);
	promise(b->shadow != NULL);
}

/* the buffer as it reads now */
static void shadow_take(struct fz_bo *b)
{
	promise(shadow_read(b, b->shadow) == 0);
}

/*
 * A new buffer reads zeros (BO_CREATE clears what the memory's last owner
 * left); then the pattern over what is kept, and the shadow with it.
 */
static void shadow_fill(struct fz_bo *b)
{
	size_t i;

	shadow_alloc(b);
	promise(shadow_read(b, b->shadow) == 0);
	for (i = 0; i < b->head + b->tail; i++)
		promise(b->shadow[i] == 0);
	pattern(b->shadow, b->head + b->tail, b->handle);
	if (b->head)
		promise(kohaku_bo_write(b->f, b->handle, 0, b->shadow, b->head) == 0);
	if (b->tail)
		promise(kohaku_bo_write(b->f, b->handle, b->size - b->tail,
					b->shadow + b->head, b->tail) == 0);
}

/* a buffer no job could write holds what the fuzzer last put there */
static void shadow_check(const struct fz_bo *b)
{
	uint64_t i, n = b->head + b->tail;

	if (b->may_change || !n) {
		stats.skipped++;
		return;
	}
	stats.checked++;
	promise(shadow_read(b, fz.readback) == 0);
	if (!memcmp(b->shadow, fz.readback, n))
		return;
	for (i = 0; i < n && b->shadow[i] == fz.readback[i]; i++)
		;
	fprintf(stderr, "fuzz_ioctl: file %d's BO %u (0x%llx, %llu bytes, mesh %u), "
		"which no accepted job could write, changed at offset %llu: "
		"0x%02x, was 0x%02x\n", file_index(b->f), b->handle,
		(unsigned long long)b->addr, (unsigned long long)b->size, b->mesh,
		(unsigned long long)(i < b->head ? i : b->size - b->tail + i - b->head),
		fz.readback[i], b->shadow[i]);
	abort();
}

/* BO_WRITE put src's size bytes at off: the kept ranges follow */
static void shadow_mirror(struct fz_bo *b, uint64_t off, const uint8_t *src,
			  uint64_t size)
{
	uint64_t lo, hi;

	/* the head: [0, head) */
	lo = off;
	hi = off + size < b->head ? off + size : b->head;
	if (lo < hi)
		memcpy(b->shadow + lo, src, hi - lo);
	/* the tail: [size - tail, size) kept at shadow + head */
	if (b->tail) {
		uint64_t t0 = b->size - b->tail;

		lo = off > t0 ? off : t0;
		hi = off + size;
		if (lo < hi)
			memcpy(b->shadow + b->head + (lo - t0), src + (lo - off),
			       hi - lo);
	}
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
	free(fz.bo[idx].shadow);
	fz.bo[idx] = fz.bo[--fz.n_bo];
	memset(&fz.bo[fz.n_bo], 0, sizeof(fz.bo[0]));
}

static void bury(kohaku_device *f, uint32_t handle)
{
	fz.dead[fz.n_dead++ % N_DEAD] = (struct fz_dead){ f, handle };
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
	if (fz.n_dead && k < 230) {
		const struct fz_dead *d = &fz.dead[k % (fz.n_dead < N_DEAD ? fz.n_dead : N_DEAD)];

		*f = d->f == fz.f[0] || d->f == fz.f[1] ? d->f : pick_file(r);
		return d->handle;
	}
	*f = pick_file(r);
	return get(r, 2);
}

/* every buffer of file f on that mesh (f NULL: every file's) may change */
static void mark_mesh(kohaku_device *f, unsigned int mesh)
{
	unsigned int i;

	for (i = 0; i < fz.n_bo; i++)
		if ((!f || fz.bo[i].f == f) && fz.bo[i].mesh == mesh)
			fz.bo[i].may_change = true;
}

static void op_bo_create(struct rd *r)
{
	struct drm_kohaku_bo_create c;
	kohaku_device *f = pick_file(r);
	unsigned int how = get(r, 1);
	struct fz_bo *b;
	int ret;

	memset(&c, 0, sizeof(c));
	c.mesh = how & 0x40 ? get(r, 1) : 0;
	c.size = how & 0x80 ? get(r, 8) : get(r, 2) * 32 + get(r, 1);
	if ((how & 0x3f) == 0x3f) {		/* rarely: a nonzero field */
		c.flags = get(r, 1);
		c.reserved[1] = get(r, 1);
	}
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_BO_CREATE, &c);
	T("BO_CREATE file %d mesh %u size %llu: %d handle %u at 0x%llx\n",
	  file_index(f), c.mesh, (unsigned long long)c.size, ret, c.handle,
	  (unsigned long long)c.dev_addr);
	promise_errno(ret);
	if (ret)
		return;
	promise(c.handle && c.dev_addr % KOHAKU_BO_ALIGN == 0);
	promise(c.dev_addr + align32(c.size) <= fz.mem_size);
	if (fz.n_bo == MAX_BOS) {		/* no room to track it: let it go */
		promise(kohaku_bo_free(f, c.handle) == 0);
		bury(f, c.handle);
		return;
	}
	b = &fz.bo[fz.n_bo++];
	*b = (struct fz_bo){ f, c.handle, align32(c.size), c.dev_addr, c.size,
			     c.mesh, NULL, 0, 0, false };
	/* an unchecked job still running may write anywhere on its mesh */
	b->may_change = fz.wild[c.mesh] || fz.wild_forever[c.mesh];
	shadow_fill(b);
}

static void op_bo_free(struct rd *r)
{
	struct drm_kohaku_bo_free a;
	kohaku_device *f;
	int idx, ret;

	memset(&a, 0, sizeof(a));
	a.handle = pick_handle(r, &f, &idx);
	/* what no job could write is as the fuzzer left it, up to the end */
	idx = find_bo(f, a.handle);
	if (idx >= 0)
		shadow_check(&fz.bo[idx]);
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_BO_FREE, &a);
	T("BO_FREE file %d handle %u: %d\n", file_index(f), a.handle, ret);
	promise_errno(ret);
	/* a file frees its own buffers only: another file's handle is ENOENT */
	promise((ret == 0) == (idx >= 0));
	if (!ret) {
		drop_bo(idx);
		bury(f, a.handle);
	}
}

static void op_bo_rw(struct rd *r, bool write)
{
	struct drm_kohaku_bo_rw a;
	kohaku_device *f;
	int idx, ret;

	memset(&a, 0, sizeof(a));
	a.handle = pick_handle(r, &f, &idx);
	a.offset = get(r, 1) & 1 ? get(r, 8) : get(r, 2);
	a.size = get(r, 2) % SCRATCH;
	a.data_ptr = get(r, 1) == 0xff ? 0 : (uintptr_t)fz.scratch;
	if (get(r, 1) == 0xfe)
		a.flags = 1;
	ret = kohaku_ioctl(f, write ? DRM_IOCTL_KOHAKU_BO_WRITE :
			   DRM_IOCTL_KOHAKU_BO_READ, &a);
	T("BO_%s file %d handle %u [%llu, +%llu): %d\n", write ? "WRITE" : "READ",
	  file_index(f), a.handle, (unsigned long long)a.offset,
	  (unsigned long long)a.size, ret);
	promise_errno(ret);
	if (!write)
		return;
	idx = find_bo(f, a.handle);
	if (idx < 0)
		return;
	if (!ret)
		shadow_mirror(&fz.bo[idx], a.offset, fz.scratch, a.size);
	else if (ret != -EINVAL && ret != -ENOENT && ret != -EFAULT) {
		/* the DMA failed part way: what the buffer holds now */
		shadow_take(&fz.bo[idx]);
	}
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

/* a tracked buffer: file f's (other: the other file's) when there is one */
static const struct fz_bo *pick_bo(struct rd *r, kohaku_device *f, bool other)
{
	unsigned int k = get(r, 1), i, n = 0;

	for (i = 0; i < fz.n_bo; i++)
		n += (fz.bo[i].f == f) != other;
	if (!n)				/* none of those: any */
		return fz.n_bo ? &fz.bo[k % fz.n_bo] : NULL;
	k %= n;
	for (i = 0; i < fz.n_bo; i++)
		if ((fz.bo[i].f == f) != other && !k--)
			break;
	return &fz.bo[i];
}

/*
 * An address for an operand of len bytes: inside one of file f's buffers,
 * in its last word that fits, in the first that does not, past its bytes
 * (the rest of its allocation), at the next allocation, in the word before
 * it, inside the other file's buffers, or anything.  The SX unit (and the
 * check) work on the 32-byte word that holds the address.
 */
static uint64_t aim(struct rd *r, kohaku_device *f, uint64_t len)
{
	unsigned int how = get(r, 1) % 16;
	const struct fz_bo *b = pick_bo(r, f, how == 10 || how == 11);
	uint64_t room;

	if (!b || how >= 14)
		return how == 15 ? get(r, 8) : get(r, 5);
	room = b->size >= len ? b->size - len : 0;
	switch (how) {
	case 0: case 1: case 2: case 3: case 4: case 10:
		return b->addr + (room ? get(r, 3) % (room + 1) : 0);
	case 5: case 11:
		return b->addr + (room & ~31ULL);		/* the last that fits */
	case 6:
		return b->addr + ((room | 31) + 1);		/* the first past it */
	case 7:
		return b->addr + b->size;			/* its allocation's rest */
	case 8:
		return b->addr + b->len;			/* the next allocation */
	case 9:
		return b->addr - 32 * (1 + get(r, 1) % 4);	/* the words before */
	case 12:
		return b->addr + b->len - 32;			/* its allocation's last word */
	default:
		return b->addr + (int16_t)get(r, 2);
	}
}

/* a saxpy of up to 64 elements on the file's buffers (or near), or bytes */
static void fill_inst(struct rd *r, kohaku_device *f, struct kohaku_inst *in)
{
	unsigned int k = get(r, 1), i;

	if (k < 176) {
		uint32_t n = get(r, 1) % 72;	/* 0 and past KH_SX_N_MAX too */
		uint64_t x, y;

		if (k < 16)
			n = 64;
		x = aim(r, f, n * 4);
		y = get(r, 1) < 32 ? x : aim(r, f, n * 4);
		if (kohaku_inst_sx(in, KH_SX_OP_SAXPY, n, 0x3fc00000, x, y))
			memset(in, 0, sizeof(*in));
		return;
	}
	for (i = 0; i < 4; i++)
		in->w[i] = get(r, 8);
}

/*
 * The buffers a job names (ABI 0.8): mostly the file's own with random
 * access bits, sometimes the other file's (ENOENT), dead or made-up
 * handles, one named twice, bad flags or a nonzero reserved word.
 */
static uint32_t fill_list(struct rd *r, kohaku_device *f)
{
	unsigned int k = get(r, 1), i, own = 0, first;
	uint32_t n;

	for (i = 0; i < fz.n_bo; i++)
		own += fz.bo[i].f == f;
	if (k < 192 && own) {
		/*
		 * Mostly a list SUBMIT can take: distinct buffers of the file,
		 * read, write or both (both most often), one entry spoiled now
		 * and then.
		 */
		n = 1 + k % own;
		first = get(r, 1);
		for (i = 0; i < n; i++) {
			struct drm_kohaku_job_bo *e = &job_bos[i];
			unsigned int j, c = (first + i) % own;

			for (j = 0; j < fz.n_bo; j++)
				if (fz.bo[j].f == f && !c--)
					break;
			memset(e, 0, sizeof(*e));
			e->handle = fz.bo[j].handle;
			e->flags = get(r, 1) % 4 ? KOHAKU_JOB_BO_RW : 1 + get(r, 1) % 2;
		}
		if (get(r, 1) < 48) {
			struct drm_kohaku_job_bo *e = &job_bos[get(r, 1) % n];
			const struct fz_bo *b;

			switch (get(r, 1) % 6) {
			case 0:
				b = pick_bo(r, f, true);	/* the other file's */
				e->handle = b ? b->handle : get(r, 2);
				break;
			case 1:
				e->handle = fz.n_dead ? fz.dead[get(r, 1) % (fz.n_dead < N_DEAD ?
					fz.n_dead : N_DEAD)].handle : get(r, 2);
				break;
			case 2:
				e->handle = get(r, 2);
				break;
			case 3:
				*e = job_bos[0];		/* named twice (or once) */
				break;
			case 4:
				e->flags = get(r, 1) & 1 ? 0 : get(r, 4);
				break;
			default:
				e->reserved = 1ULL << (get(r, 1) % 64);
			}
		}
		return n;
	}
	n = k < 250 ? k % 9 : k == 255 ? KOHAKU_MAX_JOB_BOS : 1 + get(r, 1);
	for (i = 0; i < n; i++) {
		struct drm_kohaku_job_bo *e = &job_bos[i];
		unsigned int kind = get(r, 1);
		const struct fz_bo *b;

		memset(e, 0, sizeof(*e));
		e->flags = 1 + get(r, 1) % 3;
		if (kind < 170) {
			b = pick_bo(r, f, false);	/* the file's own */
			e->handle = b ? b->handle : 1 + i;
		} else if (kind < 200) {
			b = pick_bo(r, f, true);
			e->handle = b ? b->handle : get(r, 2);
		} else if (kind < 215 && i) {
			*e = job_bos[get(r, 1) % i];		/* named twice */
		} else if (kind < 230) {
			e->handle = fz.n_dead ?
				fz.dead[get(r, 1) % (fz.n_dead < N_DEAD ? fz.n_dead : N_DEAD)].handle :
				get(r, 2);
		} else if (kind < 240) {
			e->handle = get(r, 2);
		} else {
			b = pick_bo(r, f, false);
			e->handle = b ? b->handle : 1;
			if (kind & 1)
				e->flags = get(r, 1) & 1 ? 0 : get(r, 4);
			else
				e->reserved = 1ULL << (get(r, 1) % 64);
		}
	}
	return n;
}

/* an accepted list named the file's own buffers, validly, once each */
static void promise_list(kohaku_device *f, uint32_t n)
{
	uint32_t i, j;

	for (i = 0; i < n; i++) {
		const struct drm_kohaku_job_bo *e = &job_bos[i];

		promise(find_bo(f, e->handle) >= 0);
		promise(e->flags && !(e->flags & ~KOHAKU_JOB_BO_RW) && !e->reserved);
		for (j = 0; j < i; j++)
			promise(job_bos[j].handle != e->handle);
	}
}

/*
 * SUBMIT.  Every pointer the driver may follow points into memory as large
 * as the ABI lets it read: the program array holds KOHAKU_MAX_PROGRAMS
 * entries at any stride (program_size; each entry laid out at that
 * stride, truncated or with a tail), every program's instructions point to
 * KOHAKU_MAX_JOB_INSTS of them, and its data to KOHAKU_MAX_PROGRAM_DATA
 * entries of at most SCRATCH bytes each; its buffers to KOHAKU_MAX_JOB_BOS.
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
	unsigned int form = get(r, 1), fi = file_index(f);
	size_t stride = sizeof(prog[0]), k;
	uint8_t tail = 0;
	bool wild;
	int ret;

	memset(&s, 0, sizeof(s));
	memset(prog, 0, sizeof(prog));
	for (j = 0; j < 8; j++)
		fill_inst(r, f, &insts[j]);
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
	/* the buffers it names (ABI 0.8) */
	if (form < 96) {
		s.flags = KOHAKU_SUBMIT_FILE_BOS;
		if (form < 4)			/* and a list: EINVAL */
			s.n_bos = fill_list(r, f);
	} else if (form < 200) {
		s.n_bos = fill_list(r, f);
	} else if (form < 220) {
		/* ABI 0.7's form: checked against nothing, or an administrator's */
	} else if (form < 236) {
		s.flags = KOHAKU_SUBMIT_UNCHECKED;	/* EPERM unless an administrator's */
		if (form < 224)
			s.n_bos = fill_list(r, f);	/* and a list: EINVAL */
	} else if (form < 246) {
		s.flags = get(r, 4);
		if (form & 1)
			s.n_bos = fill_list(r, f);
	} else {
		s.n_bos = fill_list(r, f);
		if (form & 1)	/* past the cap, or past what the list holds */
			s.n_bos = get(r, 1) & 1 ? get(r, 4) : KOHAKU_MAX_JOB_BOS + 1;
	}
	s.bos_ptr = s.n_bos || get(r, 1) ? (uintptr_t)job_bos : 0;
	if (how == 0xfd) {
		s.flags = get(r, 4);
		s.reserved[get(r, 1) & 1] = get(r, 1);
	}
	if (how == 0xfc)
		s.refused_why = get(r, 1);	/* an out field with a value in */
	/*
	 * An administrator's job that may run unchecked reaches DRAM only: on
	 * the unit path an aperture nothing serves gets no response, so the
	 * SX unit waits for ever and the model's checker reports an
	 * instruction that never retires (docs/model.md, the converged path),
	 * which is the card's answer to such a job, not the driver's fault.
	 * A checked job keeps every address: SUBMIT must refuse it.
	 */
	if (fz.admin[fi] && !(s.flags & KOHAKU_SUBMIT_FILE_BOS) &&
	    ((s.flags & KOHAKU_SUBMIT_UNCHECKED) || !s.n_bos))
		for (j = 0; j < 8; j++)
			if (insts[j].w[3] >> 56 == KH_SX_OP_SAXPY) {
				insts[j].w[2] &= ~KH_MADDR_SPECIAL;
				insts[j].w[1] &= ~KH_MADDR_SPECIAL;
			}
	ret = kohaku_ioctl(f, DRM_IOCTL_KOHAKU_SUBMIT, &s);
	T("SUBMIT file %u%s flags 0x%x n_bos %u programs %u at (%u,%u,%u): %d job %llu refused %u/%u/%u/%u 0x%llx+%llu\n",
	  fi, fz.admin[fi] ? " (admin)" : "", s.flags, s.n_bos, s.n_programs,
	  prog[0].mesh, prog[0].x, prog[0].y, ret, (unsigned long long)s.job_id,
	  s.refused_why, s.refused_program, s.refused_inst, s.refused_operand,
	  (unsigned long long)s.refused_addr, (unsigned long long)s.refused_len);
	for (j = 0; trace && j < 8; j++)
		T("  inst %u: %016llx %016llx %016llx %016llx\n", j,
		  (unsigned long long)insts[j].w[3], (unsigned long long)insts[j].w[2],
		  (unsigned long long)insts[j].w[1], (unsigned long long)insts[j].w[0]);
	for (j = 0; j < s.n_bos && j < 8; j++)
		T("  bo %u: handle %u flags 0x%x\n", j, job_bos[j].handle, job_bos[j].flags);
	promise_errno(ret);
	stats.submits++;
	stats.eperm += ret == -EPERM;
	stats.enoent += ret == -ENOENT;
	stats.einval += ret == -EINVAL;
	if (ret == -EACCES && s.refused_why <= KOHAKU_REFUSED_MAX)
		stats.eacces[s.refused_why]++;
	if (ret == -EACCES) {
		/* it says where: a program of the job, and why */
		promise(s.refused_program < s.n_programs);
		promise(s.refused_why >= 1 && s.refused_why <= KOHAKU_REFUSED_MAX);
	}
	if (ret)
		return;
	/* what was accepted was the ABI's */
	promise(!(s.flags & ~KOHAKU_SUBMIT_FLAGS));
	promise(!(s.flags & KOHAKU_SUBMIT_UNCHECKED) || fz.admin[fi]);
	promise(!(s.flags & KOHAKU_SUBMIT_UNCHECKED) || !s.n_bos);
	promise(!(s.flags & KOHAKU_SUBMIT_FILE_BOS) || !s.n_bos);
	promise(s.n_bos <= KOHAKU_MAX_JOB_BOS);
	/* what it may write: the job runs on program 0's mesh */
	wild = (s.flags & KOHAKU_SUBMIT_UNCHECKED) ||
	       (!s.flags && !s.n_bos && fz.admin[fi]);
	stats.accepted[wild ? 3 : s.flags & KOHAKU_SUBMIT_FILE_BOS ? 0 : s.n_bos ? 1 : 2]++;
	if (wild) {
		mark_mesh(NULL, prog[0].mesh);
	} else if (s.flags & KOHAKU_SUBMIT_FILE_BOS) {
		mark_mesh(f, prog[0].mesh);
	} else {
		promise_list(f, s.n_bos);
		for (i = 0; i < s.n_bos; i++)
			if (job_bos[i].flags & KOHAKU_JOB_BO_WRITE)
				fz.bo[find_bo(f, job_bos[i].handle)].may_change = true;
	}
	if (fz.n_job < MAX_JOBS) {
		fz.job[fz.n_job++] = (struct fz_job){ f, s.job_id,
						      wild ? prog[0].mesh : -1 };
		if (wild)
			fz.wild[prog[0].mesh]++;
	} else if (wild) {
		fz.wild_forever[prog[0].mesh] = true;
	}
}

/* a job is final: an unchecked one that did not end DONE may still write */
static void job_gone(unsigned int idx, const struct drm_kohaku_wait *w)
{
	int m = fz.job[idx].wild_mesh;

	if (m >= 0) {
		fz.wild[m]--;
		if (!w || w->status != KOHAKU_JOB_DONE)
			fz.wild_forever[m] = true;
	}
	fz.job[idx] = fz.job[--fz.n_job];
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
	T("WAIT file %d job %llu: %d status %u reason %u\n", file_index(f),
	  (unsigned long long)w.job_id, ret, w.status, w.reason);
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
		job_gone(idx, &w);
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

	T("REOPEN file 1\n");
	for (i = 0; i < fz.n_bo; i++)
		if (fz.bo[i].f == fz.f[1])
			shadow_check(&fz.bo[i]);
	kohaku_close(fz.f[1]);
	for (i = 0; i < fz.n_bo;)
		if (fz.bo[i].f == fz.f[1])
			drop_bo(i);
		else
			i++;
	for (i = 0; i < fz.n_job;)
		if (fz.job[i].f == fz.f[1])
			job_gone(i, NULL);	/* it may go on running */
		else
			i++;
	for (i = 0; i < N_DEAD; i++)
		if (fz.dead[i].f == fz.f[1])
			fz.dead[i].f = NULL;
	setenv("KOHAKU_UNPRIVILEGED", "1", 1);
	promise(kohaku_reopen(fz.f[0], &fz.f[1]) == 0);
	fz.admin[1] = false;
}

/*
 * A job behind every other on each mesh (jobs on a mesh run in order, the
 * closed files' too): a null program, or an SX one that reaches nothing.
 */
static void barrier(void)
{
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst in;
	unsigned int k, m;
	uint64_t id;

	memset(&in, 0, sizeof(in));		/* opcode 0: no memory */
	for (m = 0; m < 4; m++) {
		for (k = 0; k < fz.n_nodes; k++) {
			if (fz.nodes[k].mesh != m ||
			    (fz.nodes[k].cu_type != KH_CU_NULL &&
			     fz.nodes[k].cu_type != KH_CU_SX))
				continue;
			memset(&p, 0, sizeof(p));
			p.mesh = m;
			p.x = fz.nodes[k].x;
			p.y = fz.nodes[k].y;
			p.insts = &in;
			p.n_insts = 1;
			if (kohaku_submit(fz.f[0], &p, 1, 0, &id))
				continue;	/* hung by the sequence: another */
			kohaku_wait(fz.f[0], id, 60000, &st, sizeof(st));
			break;
		}
	}
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
		promise(kohaku_wait(fz.f[0], id, 10000, &st, sizeof(st)) == 0);
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

	trace = getenv("FUZZ_IOCTL_TRACE") != NULL;
	if (!stats.inputs++ && getenv("FUZZ_IOCTL_STATS"))
		atexit(print_stats);
	memset(fz.bo, 0, sizeof(fz.bo));
	memset(fz.wild, 0, sizeof(fz.wild));
	memset(fz.wild_forever, 0, sizeof(fz.wild_forever));
	fz.n_bo = fz.n_job = fz.n_dead = 0;
	pattern(fz.scratch, sizeof(fz.scratch), len);	/* what BO_WRITE writes */
	setenv("KOHAKU_SIM_CHECK", "1", 1);
	/* file 0 an administrator's for a sixteenth of the inputs */
	fz.admin[0] = len && (data[len - 1] & 0x0f) == 0x0d;
	fz.admin[1] = false;
	stats.admin_inputs += fz.admin[0];
	setenv("KOHAKU_UNPRIVILEGED", fz.admin[0] ? "0" : "1", 1);
	if (kohaku_open(KOHAKU_BACKEND_SIM, "saxpy", &fz.f[0], err, sizeof(err))) {
		fprintf(stderr, "fuzz_ioctl: %s\n", err);
		abort();
	}
	setenv("KOHAKU_UNPRIVILEGED", "1", 1);
	promise(kohaku_reopen(fz.f[0], &fz.f[1]) == 0);
	promise(kohaku_get_info(fz.f[0], &in, sizeof(in)) == 0);
	promise(in.caps & KOHAKU_CAP_JOB_BOS);
	fz.mem_size = in.mesh[0].mem_size;
	fz.n_nodes = 0;
	promise(kohaku_nodes(fz.f[0], 0, fz.nodes, 16, sizeof(*fz.nodes), &fz.n_nodes) == 0);
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

	/* every job ends */
	for (i = 0; i < fz.n_job; i++) {
		int ret = kohaku_wait(fz.job[i].f, fz.job[i].id, 60000, &st, sizeof(st));

		if (ret)
			fprintf(stderr, "fuzz_ioctl: job %llu: WAIT %d: %s\n",
				(unsigned long long)fz.job[i].id, ret,
				kohaku_last_error(fz.job[i].f));
		promise(ret == 0);
		promise(st.status >= KOHAKU_JOB_DONE);
	}
	fz.n_job = 0;
	/* behind every job, the untracked ones too: no job wrote what it could not */
	barrier();
	for (i = 0; i < fz.n_bo; i++)
		shadow_check(&fz.bo[i]);
	/* every buffer freed gives all the memory back */
	for (i = 0; i < fz.n_bo; i++) {
		promise(kohaku_bo_free(fz.bo[i].f, fz.bo[i].handle) == 0);
		free(fz.bo[i].shadow);
	}
	fz.n_bo = 0;
	promise_books();
	/* after a job behind every other, all the memory is back */
	if (final_saxpy())
		promise(mem_free() == fz.mem_size);
	if (kohaku_sim_check(fz.f[0]) > 0) {	/* what the checker saw */
		char *rep = NULL;

		if (!kohaku_sim_read(fz.f[0], "check", &rep))
			fprintf(stderr, "%s\n", rep);
		free(rep);
	}
	promise(kohaku_sim_check(fz.f[0]) <= 0);
	kohaku_close(fz.f[1]);
	kohaku_close(fz.f[0]);
	return 0;
}
