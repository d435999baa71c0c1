// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A syzkaller-style ioctl fuzzer for /dev/accel/accelN of kohaku.ko, run in
 * the VM (tests/vm/run-vm.sh builds it static, guest-init.sh runs it):
 *
 *   vm_fuzz DEVICE SEQUENCES THREADS SEED
 *
 * THREADS threads share a small table of open files on the device and run
 * SEQUENCES sequences of 32 calls between them: every command of the
 * driver range and numbers past it, the struct sizes the ABI knows and
 * random ones (shorter, longer, zero), random bytes in every field, and in
 * every pointer field a valid buffer, NULL, an unmapped address, a kernel
 * address or an address near the end of a mapping; handles, job ids and
 * syncobjs that earlier calls returned, used from any file; files closed
 * and reopened while other threads use them.  Besides the random bytes,
 * SUBMITs in ABI 0.8's forms (KOHAKU_SUBMIT_FILE_BOS, lists of
 * struct drm_kohaku_job_bo naming the file's buffers with any access bits,
 * another file's, dead and made-up handles, duplicates, bad flags and
 * reserved words, no flag and no list, KOHAKU_SUBMIT_UNCHECKED, random
 * flags), of saxpys aimed inside buffers the fuzzer made, at their last
 * word, past them, before them, in another file's or anywhere, from files
 * opened as root and files opened without CAP_SYS_ADMIN (half the table).
 * The kernel must answer each call with 0 or an errno the ABI names (a
 * closed file: EBADF); an EACCES from SUBMIT names one of the job's
 * programs and a reason; an accepted job named its buffers validly and an
 * unprivileged file's was checked (no UNCHECKED); and the card must run a
 * correct saxpy at the end; a KASAN, lockdep or WARN
 * report is the dmesg check's (guest-init.sh).  Deterministic per SEED but
 * for the threads' interleaving.  Exits 0 when all is well, 1 otherwise,
 * and also 0 when the device went away under it (an unbind race: every
 * call then ends ENODEV).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "kohaku.h"
#include "kohaku/kh_units.h"

#define CALLS		32
#define N_FILES		4
#define N_IDS		64
#define ARG_MAX		512
#define BUF_SIZE	(1 << 20)

static const char *path;
static unsigned long sequences;
static _Atomic unsigned long next_seq, n_calls, n_ok, n_bad, n_gone;
static _Atomic bool device_gone;
static _Atomic int files[N_FILES];
/*
 * bumped by each reopen of the slot, between the exchange and the close:
 * a call that loaded the slot's old descriptor sees it changed after, and
 * its descriptor may by then have been another slot's file (the lowest
 * free number, reused by another reopen: root's for an unprivileged slot)
 */
static _Atomic unsigned int files_gen[N_FILES];
static _Atomic uint64_t ids[N_IDS];	/* handles, job ids, syncobjs */
static uint8_t *buf;			/* a valid buffer for pointer fields */
static uint8_t *edge;			/* the last bytes before an unmapped page */

/* buffers the fuzzer made, for SUBMIT's 0.8 forms (stale ones too) */
#define N_BOS		32
struct vf_bo {
	int slot;			/* the file (files[]) it was made on */
	uint32_t handle;
	uint64_t addr, size;
};
static struct vf_bo bos[N_BOS];
static unsigned int n_bos_made;
static pthread_mutex_t bos_lock = PTHREAD_MUTEX_INITIALIZER;
static struct drm_kohaku_node nodes[64];
static unsigned int n_nodes;
static _Atomic unsigned long n_sub, n_sub_ok, n_sub_acces;

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* a value for a pointer field */
static uint64_t ptr_value(uint64_t *s)
{
	switch (rnd(s) % 8) {
	case 0: return 0;
	case 1: return 0x1000;				/* unmapped */
	case 2: return 0xffff888000000000ull;		/* the kernel's */
	case 3: return (uintptr_t)edge + rnd(s) % 64;	/* runs off a mapping */
	case 4: return rnd(s);
	default: return (uintptr_t)buf + rnd(s) % (BUF_SIZE - 4096);
	}
}

/* a small number most of the time, one an earlier call returned often */
static uint64_t id_value(uint64_t *s)
{
	uint64_t k = rnd(s) % 8;

	if (k < 5)
		return atomic_load(&ids[rnd(s) % N_IDS]);
	return k == 5 ? rnd(s) % 8 : rnd(s);
}

/* the driver's commands, each with its struct size */
static const struct {
	unsigned int nr;
	unsigned int size;
	bool in, out;
} cmds[] = {
	{ DRM_KOHAKU_GET_INFO, sizeof(struct drm_kohaku_get_info), true, true },
	{ DRM_KOHAKU_NODES, sizeof(struct drm_kohaku_nodes), true, true },
	{ DRM_KOHAKU_BO_CREATE, sizeof(struct drm_kohaku_bo_create), true, true },
	{ DRM_KOHAKU_BO_FREE, sizeof(struct drm_kohaku_bo_free), true, false },
	{ DRM_KOHAKU_BO_INFO, sizeof(struct drm_kohaku_bo_info), true, true },
	{ DRM_KOHAKU_BO_WRITE, sizeof(struct drm_kohaku_bo_rw), true, false },
	{ DRM_KOHAKU_BO_READ, sizeof(struct drm_kohaku_bo_rw), true, false },
	{ DRM_KOHAKU_SUBMIT, sizeof(struct drm_kohaku_submit), true, true },
	{ DRM_KOHAKU_WAIT, sizeof(struct drm_kohaku_wait), true, true },
	{ DRM_KOHAKU_GET_PARAM, sizeof(struct drm_kohaku_get_param), true, true },
	{ DRM_KOHAKU_FW_LOAD, sizeof(struct drm_kohaku_fw_load), true, true },
	{ DRM_KOHAKU_DXA_ALLOC, sizeof(struct drm_kohaku_dxa_slot), true, true },
	{ DRM_KOHAKU_DXA_FREE, sizeof(struct drm_kohaku_dxa_slot), true, true },
	{ DRM_KOHAKU_DXA_SET, sizeof(struct drm_kohaku_dxa_slot), true, true },
	{ DRM_KOHAKU_DXA_GET, sizeof(struct drm_kohaku_dxa_slot), true, true },
};
#define N_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

/* the errnos the ABI documents; EBADF for a file another thread closed */
static bool expected(int e)
{
	switch (e) {
	case EINVAL: case ENOENT: case EFAULT: case E2BIG: case ENOMEM:
	case EBUSY: case ETIMEDOUT: case EIO: case ENOSPC: case ENOTTY:
	case EOPNOTSUPP: case ENODEV: case EPERM: case EAGAIN: case EBADF:
	case EINTR: case ENOEXEC: case EPROTO: case EACCES:
		return true;
	default:
		return false;
	}
}

/*
 * Random bytes, then pointer-looking fields (every 8-byte word whose
 * offset a pointer of some struct has) and id-looking ones replaced often.
 */
static void fill_arg(uint64_t *s, uint8_t *a, unsigned int size)
{
	unsigned int i, k;
	uint64_t v;

	if (rnd(s) % 2) {
		/*
		 * Mostly zero with a few words set: flags and reserved fields
		 * zero, so that calls get past the first checks.
		 */
		memset(a, 0, size);
		for (k = 1 + rnd(s) % 4; k && size >= 8; k--) {
			i = rnd(s) % (size / 8) * 8;
			switch (rnd(s) % 4) {
			case 0: v = ptr_value(s); break;
			case 1: v = id_value(s); break;
			case 2: v = rnd(s) % 4096; break;
			default: v = (rnd(s) % 64) | (rnd(s) % 4096) << 32; break;
			}
			memcpy(a + i, &v, 8);
		}
	} else {
		for (i = 0; i < size; i++)
			a[i] = rnd(s) % 3 ? 0 : rnd(s);
		for (i = 0; i + 8 <= size; i += 8) {
			switch (rnd(s) % 6) {
			case 0: v = ptr_value(s); break;
			case 1: v = id_value(s); break;
			case 2: v = rnd(s) % 4096; break;
			default: continue;
			}
			memcpy(a + i, &v, 8);
		}
	}
	/* the buffer pointer fields get data to point at, some of the time */
	for (i = 0; i < 64; i++)
		((uint64_t *)buf)[i] = i % 3 ? (uintptr_t)buf + 4096 * i : ptr_value(s);
}

/*
 * Files N_FILES / 2 .. N_FILES - 1 are opened without CAP_SYS_ADMIN in the
 * opening thread's effective set (capabilities are per thread; it is
 * raised again after, from the permitted set): kohaku.ko takes its opener
 * for a member of the device's group, whose jobs are all checked.
 */
static bool slot_unprivileged(unsigned int k)
{
	return k >= N_FILES / 2;
}

static bool admin_cap(bool on)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return false;
	if (on)
		d[CAP_SYS_ADMIN / 32].effective |= 1u << (CAP_SYS_ADMIN % 32);
	else
		d[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	return !syscall(SYS_capset, &h, d);
}

static int open_slot(unsigned int k)
{
	bool drop = slot_unprivileged(k) && admin_cap(false);
	int fd = open(path, O_RDWR);

	if (drop)
		admin_cap(true);
	return fd;
}

/* a buffer of some file, remembered with its address */
static void op_bo_create(uint64_t *s)
{
	struct drm_kohaku_bo_create c;
	unsigned int k = rnd(s) % N_FILES;
	int fd = atomic_load(&files[k]);

	memset(&c, 0, sizeof(c));
	c.size = rnd(s) % 4 ? 32 + rnd(s) % 8192 : 1 + rnd(s) % (256 * 1024);
	atomic_fetch_add(&n_calls, 1);
	if (ioctl(fd, DRM_IOCTL_KOHAKU_BO_CREATE, &c)) {
		if (!expected(errno)) {
			atomic_fetch_add(&n_bad, 1);
			printf("vm_fuzz: BO_CREATE of %llu bytes: unexpected errno %d (%s)\n",
			       (unsigned long long)c.size, errno, strerror(errno));
		}
		return;
	}
	atomic_fetch_add(&n_ok, 1);
	pthread_mutex_lock(&bos_lock);
	bos[n_bos_made++ % N_BOS] = (struct vf_bo){ k, c.handle, c.dev_addr, c.size };
	pthread_mutex_unlock(&bos_lock);
	atomic_store(&ids[rnd(s) % N_IDS], c.handle);
}

/* a remembered buffer: of file slot k (other: of another file) if any */
static bool pick_bo(uint64_t *s, unsigned int k, bool other, struct vf_bo *out)
{
	unsigned int n, i, t;
	bool found = false;

	pthread_mutex_lock(&bos_lock);
	n = n_bos_made < N_BOS ? n_bos_made : N_BOS;
	if (n) {
		t = rnd(s) % n;
		*out = bos[t];
		found = true;
		for (i = 0; i < n; i++) {
			const struct vf_bo *b = &bos[(t + i) % n];

			if ((b->slot == (int)k) != other) {
				*out = *b;
				break;
			}
		}
	}
	pthread_mutex_unlock(&bos_lock);
	return found;
}

/* an address for len bytes near a buffer (docs/abi.md: the SX operands) */
static uint64_t aim(uint64_t *s, unsigned int k, uint64_t len)
{
	unsigned int how = rnd(s) % 12;
	struct vf_bo b;
	uint64_t room;

	if (how >= 11 || !pick_bo(s, k, how == 9, &b))
		return rnd(s) % 2 ? rnd(s) & ((1ULL << 40) - 1) : rnd(s);
	room = b.size >= len ? b.size - len : 0;
	switch (how) {
	case 0: case 1: case 2: case 3: case 9:
		return b.addr + (room ? rnd(s) % (room + 1) : 0);
	case 4:
		return b.addr + (room & ~31ULL);		/* the last that fits */
	case 5:
		return b.addr + ((room | 31) + 1);		/* the first past it */
	case 6:
		return b.addr + b.size;				/* its allocation's rest */
	case 7:
		return b.addr - 32 * (1 + rnd(s) % 4);		/* the words before */
	default:
		return b.addr + (b.size + 4095) / 4096 * 4096;	/* the next one */
	}
}

/* the buffers a job names: the file's, another's, dead, twice, bad bits */
static uint32_t fill_list(uint64_t *s, unsigned int k, struct drm_kohaku_job_bo *l)
{
	uint32_t n = rnd(s) % 16 ? rnd(s) % 9 : rnd(s) % (KOHAKU_MAX_JOB_BOS + 1), i;
	struct vf_bo b;

	for (i = 0; i < n; i++) {
		unsigned int kind = rnd(s) % 16;

		memset(&l[i], 0, sizeof(l[i]));
		l[i].flags = 1 + rnd(s) % 3;
		if (kind < 9)
			l[i].handle = pick_bo(s, k, false, &b) ? b.handle : 1;
		else if (kind < 11)
			l[i].handle = pick_bo(s, k, true, &b) ? b.handle : 2;
		else if (kind < 12 && i)
			l[i] = l[rnd(s) % i];			/* named twice */
		else if (kind < 14)
			l[i].handle = id_value(s);		/* dead or made up */
		else if (kind < 15)
			l[i].flags = rnd(s) % 2 ? 0 : rnd(s);	/* bad access bits */
		else
			l[i].reserved = 1ULL << (rnd(s) % 64);
	}
	return n;
}

/*
 * SUBMIT in ABI 0.8's forms: one or two programs on nodes of the card,
 * saxpys aimed at buffers (or bytes), the buffers named one way or another.
 */
static void op_submit(uint64_t *s)
{
	static _Thread_local struct drm_kohaku_job_bo list[KOHAKU_MAX_JOB_BOS];
	static _Thread_local struct kohaku_inst insts[8];
	struct drm_kohaku_program prog[2];
	struct drm_kohaku_submit a;
	unsigned int k = rnd(s) % N_FILES, n = 1 + rnd(s) % 2, i, j;
	unsigned int form = rnd(s) % 32, gen;
	int fd, r, e;

	gen = atomic_load(&files_gen[k]);
	fd = atomic_load(&files[k]);

	memset(&a, 0, sizeof(a));
	memset(prog, 0, sizeof(prog));
	for (j = 0; j < 8; j++) {
		uint32_t cnt = rnd(s) % 8 ? 1 + rnd(s) % 64 : rnd(s) % 72;
		uint64_t x = aim(s, k, cnt * 4), y = rnd(s) % 8 ? aim(s, k, cnt * 4) : x;

		if (rnd(s) % 8 == 0 ||
		    kohaku_inst_sx(&insts[j], KH_SX_OP_SAXPY, cnt, 0x3fc00000u, x, y))
			for (i = 0; i < 4; i++)
				insts[j].w[i] = rnd(s);
	}
	for (i = 0; i < n; i++) {
		if (n_nodes && rnd(s) % 16) {
			const struct drm_kohaku_node *nd = &nodes[rnd(s) % n_nodes];

			prog[i].mesh = nd->mesh;
			prog[i].x = nd->x;
			prog[i].y = nd->y;
		} else {
			prog[i].mesh = rnd(s) % 2;
			prog[i].x = rnd(s) % 4;
			prog[i].y = rnd(s) % 4;
		}
		prog[i].txn = rnd(s);
		prog[i].n_insts = 1 + rnd(s) % 8;
		prog[i].insts_ptr = (uintptr_t)insts;
	}
	a.n_programs = n;
	a.programs_ptr = (uintptr_t)prog;
	a.program_size = sizeof(prog[0]);
	a.timeout_ms = 1 + rnd(s) % 20;
	if (form < 10) {
		a.flags = KOHAKU_SUBMIT_FILE_BOS;
		if (form == 0)
			a.n_bos = fill_list(s, k, list);	/* and a list: EINVAL */
	} else if (form < 22) {
		a.n_bos = fill_list(s, k, list);
	} else if (form < 25) {
		/* ABI 0.7's form: an administrator's unchecked, else checked against nothing */
	} else if (form < 28) {
		a.flags = KOHAKU_SUBMIT_UNCHECKED;		/* EPERM unless root's */
		if (form == 25)
			a.n_bos = fill_list(s, k, list);	/* and a list: EINVAL */
	} else if (form < 30) {
		a.flags = rnd(s) % 2 ? rnd(s) : 1u << (rnd(s) % 32);
	} else {
		a.n_bos = fill_list(s, k, list);
		a.n_bos = rnd(s) % 2 ? KOHAKU_MAX_JOB_BOS + 1 : (uint32_t)rnd(s);
	}
	a.bos_ptr = a.n_bos && rnd(s) % 16 ? (uintptr_t)list :
		    a.n_bos ? ptr_value(s) : rnd(s) % 4 ? 0 : (uintptr_t)list;
	r = ioctl(fd, DRM_IOCTL_KOHAKU_SUBMIT, &a);
	e = errno;
	atomic_fetch_add(&n_calls, 1);
	atomic_fetch_add(&n_sub, 1);
	if (r) {
		if (!expected(e)) {
			atomic_fetch_add(&n_bad, 1);
			printf("vm_fuzz: SUBMIT (0.8 form %u, flags 0x%x, %u buffers): unexpected errno %d (%s)\n",
			       form, a.flags, a.n_bos, e, strerror(e));
		}
		if (e == EACCES) {
			atomic_fetch_add(&n_sub_acces, 1);
			if (a.refused_program >= a.n_programs || !a.refused_why ||
			    a.refused_why > KOHAKU_REFUSED_MAX) {
				atomic_fetch_add(&n_bad, 1);
				printf("vm_fuzz: SUBMIT EACCES names program %u of %u, reason %u\n",
				       a.refused_program, a.n_programs, a.refused_why);
			}
		}
		if (e == ENODEV)
			atomic_fetch_add(&n_gone, 1);
		return;
	}
	atomic_fetch_add(&n_ok, 1);
	atomic_fetch_add(&n_sub_ok, 1);
	atomic_store(&ids[rnd(s) % N_IDS], a.job_id);
	/* what was accepted is the ABI's */
	{
		/* the slot's file throughout: its privilege is the slot's */
		bool same = atomic_load(&files_gen[k]) == gen;
		bool bad = (a.flags & ~KOHAKU_SUBMIT_FLAGS) ||
			   ((a.flags & KOHAKU_SUBMIT_UNCHECKED) &&
			    ((slot_unprivileged(k) && same) || a.n_bos)) ||
			   ((a.flags & KOHAKU_SUBMIT_FILE_BOS) && a.n_bos) ||
			   a.n_bos > KOHAKU_MAX_JOB_BOS;

		for (i = 0; !bad && i < a.n_bos; i++) {
			bad = !list[i].flags || (list[i].flags & ~KOHAKU_JOB_BO_RW) ||
			      list[i].reserved;
			for (j = 0; !bad && j < i; j++)
				bad = list[j].handle == list[i].handle;
		}
		if (bad) {
			atomic_fetch_add(&n_bad, 1);
			printf("vm_fuzz: SUBMIT accepted flags 0x%x with %u buffers from %s file\n",
			       a.flags, a.n_bos, slot_unprivileged(k) ? "an unprivileged" : "root's");
		}
	}
}

static void one_call(uint64_t *s)
{
	static const int sizes_off[] = { 0, 0, 0, 0, -8, 8, -1, 64 };
	uint8_t arg[ARG_MAX + 64];
	unsigned int c = rnd(s) % (N_CMDS + 1), size, nr, dir;
	int fd, r, e;
	unsigned long cmd;

	if (c == N_CMDS) {		/* a number past the driver's, or before */
		nr = DRM_COMMAND_BASE + (rnd(s) % 2 ? N_CMDS + rnd(s) % 16 : 0x40 + rnd(s) % 32);
		size = rnd(s) % 128;
		dir = _IOC_READ | _IOC_WRITE;
	} else {
		nr = DRM_COMMAND_BASE + cmds[c].nr;
		size = cmds[c].size + sizes_off[rnd(s) % 8];
		if (size > ARG_MAX || (int)size < 0)
			size = cmds[c].size;
		dir = (cmds[c].in ? _IOC_WRITE : 0) | (cmds[c].out ? _IOC_READ : 0);
	}
	cmd = _IOC(dir, DRM_IOCTL_BASE, nr, size);
	fill_arg(s, arg, size);
	/* WAIT: a short wait mostly, so that threads keep moving */
	if (c < N_CMDS && cmds[c].nr == DRM_KOHAKU_WAIT && size >= 12 && rnd(s) % 4)
		arg[8] = arg[9] = arg[10] = arg[11] = 0;
	/* SUBMIT: job time limits of a few ms, so that a hung unit frees its mesh */
	if (c < N_CMDS && cmds[c].nr == DRM_KOHAKU_SUBMIT && size >= 24) {
		uint32_t t = 1 + rnd(s) % 20;

		memcpy(arg + 20, &t, 4);
	}
	fd = atomic_load(&files[rnd(s) % N_FILES]);
	r = ioctl(fd, cmd, arg);
	e = errno;
	atomic_fetch_add(&n_calls, 1);
	if (r == 0) {
		uint64_t v;

		atomic_fetch_add(&n_ok, 1);
		/* remember what came back: the words after the first */
		if (size >= 16) {
			memcpy(&v, arg + 8 + 8 * (rnd(s) % ((size - 8) / 8)), 8);
			atomic_store(&ids[rnd(s) % N_IDS], v & 0xffffffff);
		}
		return;
	}
	if (e == ENODEV)
		atomic_fetch_add(&n_gone, 1);
	if (!expected(e)) {
		atomic_fetch_add(&n_bad, 1);
		printf("vm_fuzz: ioctl nr 0x%x size %u: unexpected errno %d (%s)\n",
		       nr, size, e, strerror(e));
	}
}

/*
 * A file closed and reopened while other threads may be using it.  The
 * slot keeps its descriptor's number: dup2() puts the new file behind it
 * at once.  Closing it and storing the new one's number instead let a
 * thread that had read the old number reach whatever file took the number
 * next, another slot's, so an unprivileged slot's SUBMIT ran on a root
 * file and the fuzzer cried "UNCHECKED accepted" (CI, stop 32).  When the
 * open fails the slot keeps the file it has.
 */
static void reopen(uint64_t *s)
{
	unsigned int k = rnd(s) % N_FILES;
	int fd = open_slot(k), cur = atomic_load(&files[k]), old;

	if (fd < 0) {
		if (access(path, F_OK))
			atomic_store(&device_gone, true);	/* unbound: stop */
		return;
	}
	if (cur >= 0 && dup2(fd, cur) == cur) {
		close(fd);
		return;
	}
	old = atomic_exchange(&files[k], fd);
	atomic_fetch_add(&files_gen[k], 1);
	if (old >= 0)
		close(old);
}

static void *thread(void *arg)
{
	uint64_t s = (uintptr_t)arg;
	unsigned long q;
	unsigned int i;

	while (!atomic_load(&device_gone) &&
	       (q = atomic_fetch_add(&next_seq, 1)) < sequences) {
		s ^= q * 0x9e3779b97f4a7c15ull;
		for (i = 0; i < CALLS; i++) {
			unsigned int k = rnd(&s) % 40;

			if (k == 0)
				reopen(&s);
			else if (k < 4)
				op_bo_create(&s);
			else if (k < 10)
				op_submit(&s);
			else
				one_call(&s);
		}
	}
	return NULL;
}

/* the card after it all: a saxpy of 64 elements on some SX unit, bit-exact */
static int good_saxpy(void)
{
	uint32_t x[64], y[64], out[64], hx, hy;
	struct drm_kohaku_node nd[64];
	struct kohaku_job_status st;
	char err[KOHAKU_ERRMSG_MAX];
	struct kohaku_program p;
	struct kohaku_inst in;
	uint64_t ax, ay, id;
	unsigned int n = 0, i, k;
	kohaku_device *dev;
	int good = -1;

	if (kohaku_open(KOHAKU_BACKEND_KERNEL, path, &dev, err, sizeof(err))) {
		printf("vm_fuzz: %s\n", err);
		return -1;
	}
	for (i = 0; i < 64; i++) {
		x[i] = 0x3f800000u + i * 0x10000;
		y[i] = 0x40000000u + i * 0x8000;
	}
	if (kohaku_nodes(dev, 0, nd, 64, sizeof(*nd), &n) ||
	    kohaku_bo_create(dev, 0, sizeof(x), &hx, &ax) ||
	    kohaku_bo_create(dev, 0, sizeof(y), &hy, &ay))
		goto out;
	for (k = 0; k < n && k < 64 && good < 0; k++) {
		if (nd[k].cu_type != KH_CU_SX || nd[k].mesh)
			continue;
		kohaku_bo_write(dev, hx, 0, x, sizeof(x));
		kohaku_bo_write(dev, hy, 0, y, sizeof(y));
		kohaku_inst_saxpy(&in, 64, 1.5f, ax, ay);
		memset(&p, 0, sizeof(p));
		p.x = nd[k].x;
		p.y = nd[k].y;
		p.insts = &in;
		p.n_insts = 1;
		if (kohaku_submit(dev, &p, 1, 0, &id))
			continue;	/* a unit the fuzzing hung: another */
		if (kohaku_wait(dev, id, 30000, &st, sizeof(st)) || st.status != KOHAKU_JOB_DONE ||
		    kohaku_bo_read(dev, hy, 0, out, sizeof(out)))
			continue;
		good = 0;
		for (i = 0; i < 64; i++)
			if (out[i] != kohaku_sx_element(kohaku_sx_datapath_of(&nd[k]),
							 0x3fc00000u, x[i], y[i]))
				good = 1;
		printf("vm_fuzz: a saxpy on (%u,%u) after it all: %s\n", nd[k].x,
		       nd[k].y, good ? "WRONG" : "bit-exact");
	}
out:
	if (good < 0)
		printf("vm_fuzz: no SX unit ran a saxpy after it all: %s\n",
		       kohaku_last_error(dev));
	kohaku_close(dev);
	return good;
}

int main(int argc, char **argv)
{
	pthread_t t[16];
	unsigned int n_threads, i;
	uint64_t seed;
	int r;

	if (argc != 5) {
		fprintf(stderr, "usage: vm_fuzz DEVICE SEQUENCES THREADS SEED\n");
		return 2;
	}
	path = argv[1];
	sequences = strtoul(argv[2], NULL, 0);
	n_threads = strtoul(argv[3], NULL, 0);
	seed = strtoull(argv[4], NULL, 0) | 1;
	if (!n_threads || n_threads > 16)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	buf = mmap(NULL, BUF_SIZE + 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	munmap(buf + BUF_SIZE, 4096);	/* edge: the last bytes before a hole */
	edge = buf + BUF_SIZE - 16;
	for (i = 0; i < N_FILES; i++)
		files[i] = open_slot(i);
	if (files[0] < 0) {
		perror(path);
		return 1;
	}
	{	/* the card's nodes, for SUBMIT's programs */
		struct drm_kohaku_nodes q;

		memset(&q, 0, sizeof(q));
		q.capacity = 64;
		q.node_size = sizeof(nodes[0]);
		q.nodes_ptr = (uintptr_t)nodes;
		if (!ioctl(files[0], DRM_IOCTL_KOHAKU_NODES, &q))
			n_nodes = q.count < 64 ? q.count : 64;
	}
	for (i = 0; i < n_threads; i++)
		pthread_create(&t[i], NULL, thread, (void *)(uintptr_t)(seed * (i + 1)));
	for (i = 0; i < n_threads; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < N_FILES; i++)
		if (files[i] >= 0)
			close(files[i]);
	printf("vm_fuzz: %lu sequences, %lu calls (%lu returned 0, %lu ENODEV), %lu unexpected\n",
	       atomic_load(&next_seq) < sequences ? atomic_load(&next_seq) : sequences,
	       atomic_load(&n_calls), atomic_load(&n_ok),
	       atomic_load(&n_gone), atomic_load(&n_bad));
	printf("vm_fuzz: %lu SUBMITs in ABI 0.8's forms: %lu accepted, %lu EACCES\n",
	       atomic_load(&n_sub), atomic_load(&n_sub_ok), atomic_load(&n_sub_acces));
	if (atomic_load(&n_gone) && access(path, F_OK))
		return atomic_load(&n_bad) ? 1 : 0;	/* unbound under us */
	r = good_saxpy();
	return atomic_load(&n_bad) || r ? 1 : 0;
}
