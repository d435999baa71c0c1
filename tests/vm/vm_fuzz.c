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
 * and reopened while other threads use them.  The kernel must answer each
 * call with 0 or an errno the ABI names (a closed file: EBADF), and the
 * card must run a correct saxpy at the end; a KASAN, lockdep or WARN
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
#include <unistd.h>

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
static _Atomic uint64_t ids[N_IDS];	/* handles, job ids, syncobjs */
static uint8_t *buf;			/* a valid buffer for pointer fields */
static uint8_t *edge;			/* the last bytes before an unmapped page */

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

/* a file closed and reopened while other threads may be using it */
static void reopen(uint64_t *s)
{
	unsigned int k = rnd(s) % N_FILES;
	int fd = open(path, O_RDWR), old;

	if (fd < 0 && access(path, F_OK))
		atomic_store(&device_gone, true);	/* unbound: stop */
	old = atomic_exchange(&files[k], fd);
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
			if (rnd(&s) % 40 == 0)
				reopen(&s);
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
	if (kohaku_nodes(dev, 0, nd, 64, &n) ||
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
		if (kohaku_wait(dev, id, 30000, &st) || st.status != KOHAKU_JOB_DONE ||
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
		files[i] = open(path, O_RDWR);
	if (files[0] < 0) {
		perror(path);
		return 1;
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
	if (atomic_load(&n_gone) && access(path, F_OK))
		return atomic_load(&n_bad) ? 1 : 0;	/* unbound under us */
	r = good_saxpy();
	return atomic_load(&n_bad) || r ? 1 : 0;
}
