// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Allocation-failure sweeps for the debug kernel (make test-debug;
 * tests/vm/guest-debug.sh runs it in the VM, run-vm.sh builds it static).
 *
 * One operation that reaches kohaku.ko or kohaku_sim.ko (a sysfs write
 * that creates or binds a card, an open of the accel node, BO_CREATE,
 * SUBMIT) is done again and again, each time with the N-th allocation
 * check of this task failed: /proc/thread-self/fail-nth, which failslab
 * and fail_page_alloc honour (Documentation/fault-injection).  First a
 * count: the operation once with fail-nth far away tells how many checks
 * it makes (T); then N = 1..T, or `-b BUDGET` of them evenly spread when T
 * is larger.  Each run either fails with a clean errno (ENOMEM), or
 * succeeds regardless (a fallback took over); anything else fails the
 * test.  A successful run is undone (close, BO_FREE, WAIT for the job and
 * its status DONE, del_card, unbind), so the next starts from the same
 * state.  /dev/kmsg is read after each run: the failure's stack (failslab
 * and fail_page_alloc with verbose 2) tells whether the allocation was
 * made inside kohaku.ko or kohaku_sim.ko, and a KASAN, lockdep, UBSAN,
 * DMA-API or WARN report fails the test.
 *
 *   vm_faultinj [-b BUDGET] [-m MODULE] [-r FUNC] [-x PATH] write LABEL FILE TEXT [UNDO_FILE UNDO_TEXT]
 *   vm_faultinj [-b BUDGET] [-m MODULE] [-r FUNC] open|bo|submit LABEL NODE
 *
 * -m MODULE aims the failures at one module: only allocation checks with a
 * frame of MODULE's code on the stack count (the stack filter,
 * require-start and require-end, which fail-nth honours), so N runs
 * through the module's own allocations and those of what it calls.
 * -r FUNC leaves out the allocations made under the kernel function FUNC
 * (the reject filter): for a bug of the kernel's own that a sweep reaches.
 * TEXT may hold \n.  -x PATH: must not exist after a failed run (the card
 * a failed new_card would have made, the driver link of a failed bind).
 * The device operations end with a saxpy checked element by element.
 * Prints "ok - ..." / "not ok - ..." / "# ..." lines (guest-init's relay).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kohaku.h"
#include "drm/kohaku_accel.h"

#define FAR_AWAY	100000000u
#define MAX_BAD_LINES	12

static int write_file(const char *file, const char *text);

static const char *label = "faultinj";
static int nfail;
static int nbad_lines;
static int fnfd = -1;		/* /proc/thread-self/fail-nth */
static int kmsgfd = -1;		/* /dev/kmsg, from where this run began */

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void bad(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	nfail++;
	if (nbad_lines++ >= MAX_BAD_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	out("not ok - %s: %s", label, msg);
}

/* ---- fail-nth ---- */

static void arm(unsigned int n)
{
	char b[16];
	int l = snprintf(b, sizeof(b), "%u", n);

	if (pwrite(fnfd, b, l, 0) != l) {
		out("not ok - %s: write %u to /proc/thread-self/fail-nth: %s",
		    label, n, strerror(errno));
		exit(1);
	}
}

/* what is left of the count; 0: the failure was injected */
static unsigned int armed_left(void)
{
	char b[16] = { 0 };

	if (pread(fnfd, b, sizeof(b) - 1, 0) <= 0)
		return FAR_AWAY;
	return (unsigned int)strtoul(b, NULL, 10);
}

/* ---- aim: only checks with a frame of one module's code count ---- */

static const char *const fi_dirs[] = {
	"/sys/kernel/debug/failslab", "/sys/kernel/debug/fail_page_alloc",
};

static int fi_set(const char *dir, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	return write_file(path, val);
}

/*
 * The stack filter (require-start, require-end) of both, around MODULE's
 * text as /proc/kallsyms has it: its lowest text symbol to its highest plus
 * a page.  fail-nth honours the filter: a check counts only when a frame
 * of the stack (stacktrace-depth deep) is in the range.
 */
static int aim(const char *module)
{
	unsigned long long lo = ~0ull, hi = 0, a;
	char line[512], name[256], type, mod[128], want[136], v[32];
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t i;
	int r = 0;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), "[%s]", module);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s %127s", &a, &type, name, mod) != 4)
			continue;
		if ((type != 't' && type != 'T') || strcmp(mod, want) || !a)
			continue;
		if (a < lo)
			lo = a;
		if (a > hi)
			hi = a;
	}
	fclose(f);
	if (!hi)
		return -ENOENT;
	hi += 4096;
	for (i = 0; i < sizeof(fi_dirs) / sizeof(fi_dirs[0]); i++) {
		snprintf(v, sizeof(v), "0x%llx", lo);
		r = r ? r : fi_set(fi_dirs[i], "require-start", v);
		snprintf(v, sizeof(v), "0x%llx", hi);
		r = r ? r : fi_set(fi_dirs[i], "require-end", v);
		r = r ? r : fi_set(fi_dirs[i], "stacktrace-depth", "64");
	}
	out("# %s: aimed at %s.ko: allocations with a frame in 0x%llx..0x%llx",
	    label, module, lo, hi);
	return r;
}

/*
 * The reject filter of both around the kernel function FUNC (its address
 * to the next symbol's): a check with FUNC on the stack neither counts nor
 * fails.  For a known bug of the kernel's own on a path the sweep reaches.
 */
static int reject(const char *func)
{
	unsigned long long at = 0, next = ~0ull, a;
	char line[512], name[256], type, v[32];
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t i;
	int r = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    !strcmp(name, func)) {
			at = a;
			break;
		}
	if (at) {
		rewind(f);
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%llx", &a) == 1 && a > at && a < next)
				next = a;
	}
	fclose(f);
	if (!at || next == ~0ull)
		return -ENOENT;
	for (i = 0; i < sizeof(fi_dirs) / sizeof(fi_dirs[0]); i++) {
		snprintf(v, sizeof(v), "0x%llx", at);
		r = r ? r : fi_set(fi_dirs[i], "reject-start", v);
		snprintf(v, sizeof(v), "0x%llx", next);
		r = r ? r : fi_set(fi_dirs[i], "reject-end", v);
		r = r ? r : fi_set(fi_dirs[i], "stacktrace-depth", "64");
	}
	out("# %s: not failing allocations under %s (0x%llx..0x%llx)", label,
	    func, at, next);
	return r;
}

static void unaim(void)
{
	size_t i;

	for (i = 0; i < sizeof(fi_dirs) / sizeof(fi_dirs[0]); i++) {
		fi_set(fi_dirs[i], "require-start", "0");
		fi_set(fi_dirs[i], "require-end", "0xffffffffffffffff");
		fi_set(fi_dirs[i], "reject-start", "0");
		fi_set(fi_dirs[i], "reject-end", "0");
	}
}

/* ---- the kernel log since the last look ---- */

struct kmsg_look {
	int injections;		/* FAULT_INJECTION reports */
	int in_module;		/* ... with a kohaku.ko / kohaku_sim.ko frame */
	char where[96];		/* the first such frame */
	char splat[256];	/* a report that fails the test */
	char stack[2048];	/* the last injection's frames, one a line */
};

static const char *const splats[] = {
	"BUG:", "WARNING:", "KASAN", "UBSAN", "DMA-API", "possible circular locking",
	"possible recursive locking", "inconsistent lock state", "kmemleak",
	"Oops", "general protection", "list_del corruption", "refcount_t",
	"ODEBUG", "sleeping function called from invalid context",
};

static void kmsg_look(struct kmsg_look *k)
{
	char rec[2048];
	int in_inj = 0, got_frame = 0;
	ssize_t r;
	size_t i;

	memset(k, 0, sizeof(*k));
	if (kmsgfd < 0)
		return;
	for (;;) {
		char *msg, *p;

		r = read(kmsgfd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;	/* overwritten: go on from the oldest kept */
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		p = strchr(msg, '\n');
		if (p)
			*p = '\0';
		if (strstr(msg, "FAULT_INJECTION: forcing a failure")) {
			k->injections++;
			in_inj = 1;
			got_frame = 0;
			k->stack[0] = '\0';
			continue;
		}
		if (in_inj && msg[0] == ' ' && strchr(msg, '+') &&
		    strlen(k->stack) + strlen(msg) + 2 < sizeof(k->stack)) {
			strcat(k->stack, msg);
			strcat(k->stack, "\n");
		}
		if (in_inj && !got_frame &&
		    (strstr(msg, " [kohaku]") || strstr(msg, " [kohaku_sim]"))) {
			char *s = msg, *plus;

			while (*s == ' ')
				s++;
			if (*s == '?')
				continue;	/* an unreliable frame */
			got_frame = 1;
			k->in_module++;
			if (!k->where[0]) {
				snprintf(k->where, sizeof(k->where), "%.95s", s);
				plus = strchr(k->where, '+');
				if (plus)
					*plus = '\0';
			}
			continue;
		}
		/* a stack frame (" kmemleak_alloc+0x4b/0x80") is no report */
		if (msg[0] == ' ')
			continue;
		for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++)
			if (strstr(msg, splats[i]) && !k->splat[0])
				snprintf(k->splat, sizeof(k->splat), "%.255s", msg);
	}
}

/* ---- the operations ---- */

enum op { OP_WRITE, OP_OPEN, OP_BO, OP_SUBMIT };

struct ctx {
	enum op op;
	const char *file, *text, *undo_file, *undo_text, *gone;
	const char *node;
	kohaku_device *dev;
	int fd;			/* the device's, for bo and submit */
	int wfd;		/* the sysfs file, opened before arming */
	int opened;		/* open's result */
	uint32_t handle;	/* bo's result */
	uint64_t job;		/* submit's result */
	struct drm_kohaku_program prog;
	struct kohaku_inst inst;
	uint32_t hx, hy;
	uint64_t ax, ay;
	unsigned int mesh;
};

static char *unescape(const char *s)
{
	char *d = malloc(strlen(s) + 1), *o = d;

	if (!d)
		exit(1);
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			*o++ = '\n';
			s++;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return d;
}

static int write_file(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* before arming: anything the operation itself should not count */
static int prepare(struct ctx *c)
{
	if (c->op == OP_WRITE) {
		c->wfd = open(c->file, O_WRONLY | O_CLOEXEC);
		return c->wfd < 0 ? -errno : 0;
	}
	return 0;
}

/* the operation; nothing between arm() and the system call */
static int run_op(struct ctx *c)
{
	switch (c->op) {
	case OP_WRITE:
		return write(c->wfd, c->text, strlen(c->text)) < 0 ? -errno : 0;
	case OP_OPEN:
		c->opened = open(c->node, O_RDWR | O_CLOEXEC);
		return c->opened < 0 ? -errno : 0;
	case OP_BO: {
		struct drm_kohaku_bo_create b = { .mesh = c->mesh, .size = 12288 };
		int r = ioctl(c->fd, DRM_IOCTL_KOHAKU_BO_CREATE, &b);

		c->handle = b.handle;
		return r < 0 ? -errno : 0;
	}
	case OP_SUBMIT: {
		struct drm_kohaku_submit s = {
			.n_programs = 1,
			.programs_ptr = (uintptr_t)&c->prog,
			.program_size = sizeof(c->prog),
			.timeout_ms = 60000,
		};
		int r = ioctl(c->fd, DRM_IOCTL_KOHAKU_SUBMIT, &s);

		c->job = s.job_id;
		return r < 0 ? -errno : 0;
	}
	}
	return -EINVAL;
}

/* after a run: close what it opened; undo what it did */
static void finish_run(struct ctx *c, int r, unsigned int n)
{
	if (c->op == OP_WRITE) {
		close(c->wfd);
		c->wfd = -1;
		if (r == 0 && c->undo_file) {
			int u = write_file(c->undo_file, c->undo_text);

			if (u)
				bad("N=%u: the undo (%s) failed: %s", n,
				    c->undo_file, strerror(-u));
		}
		if (r && c->gone && access(c->gone, F_OK) == 0)
			bad("N=%u: failed with %s, but %s exists", n,
			    strerror(-r), c->gone);
		return;
	}
	if (r)
		return;
	switch (c->op) {
	case OP_OPEN:
		close(c->opened);
		break;
	case OP_BO: {
		struct drm_kohaku_bo_free f = { .handle = c->handle };

		if (ioctl(c->fd, DRM_IOCTL_KOHAKU_BO_FREE, &f))
			bad("N=%u: BO_FREE of the BO made: %s", n, strerror(errno));
		break;
	}
	case OP_SUBMIT: {
		struct drm_kohaku_wait w = { .job_id = c->job, .timeout_ms = 60000 };

		if (ioctl(c->fd, DRM_IOCTL_KOHAKU_WAIT, &w))
			bad("N=%u: WAIT for the job submitted: %s", n, strerror(errno));
		else if (w.status != KOHAKU_JOB_DONE)
			bad("N=%u: the job submitted ended %s", n,
			    kohaku_job_status_name(w.status));
		break;
	}
	default:
		break;
	}
}

/* the device operations' setup: a file, and for submit a saxpy's BOs */
static int setup_dev(struct ctx *c)
{
	struct drm_kohaku_node *nodes = NULL;
	unsigned int count = 0, i;
	float x[64], y[64];
	char err[256];
	int r;

	r = kohaku_open(KOHAKU_BACKEND_KERNEL, c->node, &c->dev, err, sizeof(err));
	if (r) {
		bad("open %s: %s", c->node, err);
		return r;
	}
	c->fd = kohaku_device_fd(c->dev);
	r = kohaku_nodes_alloc(c->dev, 0, &nodes, sizeof(*nodes), &count);
	if (r) {
		bad("NODES: %s", kohaku_last_error(c->dev));
		return r;
	}
	for (i = 0; i < count; i++)
		if (nodes[i].cu_type == 0x5358)	/* SX */
			break;
	if (i == count) {
		free(nodes);
		bad("%s has no SX unit", c->node);
		return -ENODEV;
	}
	c->mesh = nodes[i].mesh;
	c->prog.mesh = nodes[i].mesh;
	c->prog.x = nodes[i].x;
	c->prog.y = nodes[i].y;
	c->prog.txn = 1;
	c->prog.n_insts = 1;
	c->prog.insts_ptr = (uintptr_t)&c->inst;
	free(nodes);
	for (i = 0; i < 64; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	r = kohaku_bo_create(c->dev, c->mesh, sizeof(x), &c->hx, &c->ax);
	if (!r)
		r = kohaku_bo_create(c->dev, c->mesh, sizeof(y), &c->hy, &c->ay);
	if (!r)
		r = kohaku_bo_write(c->dev, c->hx, 0, x, sizeof(x));
	if (!r)
		r = kohaku_bo_write(c->dev, c->hy, 0, y, sizeof(y));
	if (!r)
		r = kohaku_inst_saxpy(&c->inst, 64, 2.0f, c->ax, c->ay);
	if (r)
		bad("setting up a saxpy: %s", kohaku_last_error(c->dev));
	return r;
}

/* a fresh saxpy after the sweep: the card still works */
static void check_card_works(struct ctx *c)
{
	float x[64], y[64];
	struct kohaku_program p = {
		.mesh = c->prog.mesh, .x = c->prog.x, .y = c->prog.y, .txn = 1,
		.n_insts = 1, .insts = &c->inst,
	};
	struct kohaku_job_status st;
	uint64_t id;
	unsigned int i, wrong = 0;
	int r;

	for (i = 0; i < 64; i++) {
		x[i] = (float)i;
		y[i] = 1.0f;
	}
	r = kohaku_bo_write(c->dev, c->hx, 0, x, sizeof(x));
	if (!r)
		r = kohaku_bo_write(c->dev, c->hy, 0, y, sizeof(y));
	if (!r)
		r = kohaku_submit(c->dev, &p, 1, 60000, &id);
	if (!r)
		r = kohaku_wait(c->dev, id, 60000, &st, sizeof(st));
	if (!r && st.status != KOHAKU_JOB_DONE)
		r = -EIO;
	if (!r)
		r = kohaku_bo_read(c->dev, c->hy, 0, y, sizeof(y));
	for (i = 0; !r && i < 64; i++)
		if (y[i] != 2.0f * (float)i + 1.0f)
			wrong++;
	if (r || wrong)
		bad("after the sweep, a saxpy on %s: %s, %u of 64 wrong", c->node,
		    r ? kohaku_last_error(c->dev) : "ran", wrong);
	else
		out("ok - %s: after the sweep, a saxpy on %s runs and is right",
		    label, c->node);
}

static void usage(void)
{
	fprintf(stderr, "usage: vm_faultinj [-b BUDGET] [-m MODULE] [-r FUNC] [-x PATH] write LABEL FILE TEXT [UNDO_FILE UNDO_TEXT]\n"
		"       vm_faultinj [-b BUDGET] [-m MODULE] [-r FUNC] open|bo|submit LABEL NODE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int budget = 1500, total, n, i, step_k, runs = 0;
	unsigned int injected = 0, enomem = 0, other = 0, tolerated = 0;
	unsigned int in_module = 0, reported = 0;
	char where[8][96];
	unsigned int nwhere = 0;
	struct ctx c = { .wfd = -1, .fd = -1 };
	struct kmsg_look k;
	const char *module = NULL, *rejected = NULL;
	int opt, r;

	while ((opt = getopt(argc, argv, "b:m:r:x:")) != -1) {
		switch (opt) {
		case 'r':
			rejected = optarg;
			break;
		case 'm':
			module = optarg;
			break;
		case 'b':
			budget = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'x':
			c.gone = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 3)
		usage();
	label = argv[1];
	if (!strcmp(argv[0], "write")) {
		if (argc != 4 && argc != 6)
			usage();
		c.op = OP_WRITE;
		c.file = argv[2];
		c.text = unescape(argv[3]);
		if (argc == 6) {
			c.undo_file = argv[4];
			c.undo_text = unescape(argv[5]);
		}
	} else if (argc == 3 && (!strcmp(argv[0], "open") || !strcmp(argv[0], "bo") ||
				 !strcmp(argv[0], "submit"))) {
		c.op = !strcmp(argv[0], "open") ? OP_OPEN :
		       !strcmp(argv[0], "bo") ? OP_BO : OP_SUBMIT;
		c.node = argv[2];
	} else {
		usage();
	}

	/* no page fault of ours is counted: every page in now and later */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		out("# %s: mlockall: %s (page faults may count)", label, strerror(errno));
	fnfd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fnfd < 0) {
		out("not ok - %s: /proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION)",
		    label, strerror(errno));
		return 1;
	}
	if (module || rejected)
		atexit(unaim);
	if (rejected && (r = reject(rejected))) {
		out("not ok - %s: leaving out %s (/proc/kallsyms, reject-start/end): %s",
		    label, rejected, strerror(-r));
		return 1;
	}
	if (module && (r = aim(module))) {
		out("not ok - %s: aiming at %s.ko (/proc/kallsyms, require-start/end): %s",
		    label, module, strerror(-r));
		return 1;
	}
	kmsgfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsgfd >= 0)
		lseek(kmsgfd, 0, SEEK_END);
	if (c.op != OP_WRITE && c.op != OP_OPEN && setup_dev(&c))
		return 1;
	if (c.op == OP_OPEN && setup_dev(&c))
		return 1;

	/* how many checks the operation makes: once, far from failing */
	if (prepare(&c)) {
		out("not ok - %s: cannot open %s: %s", label, c.file, strerror(errno));
		return 1;
	}
	arm(FAR_AWAY);
	r = run_op(&c);
	total = FAR_AWAY - armed_left();
	arm(0);
	finish_run(&c, r, 0);
	kmsg_look(&k);
	if (r) {
		out("not ok - %s: the operation fails without a fault: %s", label,
		    strerror(-r));
		return 1;
	}
	if (k.splat[0])
		bad("the operation without a fault: the kernel reported: %s", k.splat);
	step_k = total <= budget ? 1 : (total + budget - 1) / budget;
	out("# %s: %u allocation checks in the operation; failing %s", label, total,
	    step_k == 1 ? "each" : "an evenly spread sample");

	for (n = 1; n <= total + 1; n += step_k) {
		unsigned int left;

		if (prepare(&c)) {
			bad("N=%u: cannot open %s: %s", n, c.file, strerror(errno));
			break;
		}
		arm(n);
		r = run_op(&c);
		left = armed_left();
		arm(0);
		runs++;
		finish_run(&c, r, n);
		kmsg_look(&k);
		if (k.splat[0])
			bad("N=%u: the kernel reported: %s", n, k.splat);
		reported += k.injections;
		if (k.in_module) {
			in_module++;
			for (i = 0; i < nwhere; i++)
				if (!strcmp(where[i], k.where))
					break;
			if (i == nwhere && nwhere < 8)
				snprintf(where[nwhere++], sizeof(where[0]), "%s", k.where);
		}
		if (left != 0) {
			/* past the operation's last check: nothing was failed */
			if (r)
				bad("N=%u (no failure injected): %s", n, strerror(-r));
			break;
		}
		injected++;
		if (r == 0)
			tolerated++;
		else if (r == -ENOMEM)
			enomem++;
		else {
			other++;
			bad("N=%u: the failed allocation came back as %s (%d), not ENOMEM",
			    n, strerror(-r), -r);
			if (k.stack[0]) {
				char *l = k.stack, *e;

				out("# %s: N=%u: the allocation failed:", label, n);
				for (; (e = strchr(l, '\n')); l = e + 1)
					out("# %s:   %.*s", label, (int)(e - l), l);
			}
		}
	}
	{
		char list[8 * 98] = "";

		for (i = 0; i < nwhere; i++) {
			if (i)
				strcat(list, ", ");
			strcat(list, where[i]);
		}
		out("# %s: %u runs, %u with a failure injected: %u ENOMEM, %u succeeded "
		    "regardless, %u other errno; %u reported (verbose; __GFP_NOWARN ones "
		    "are silent), %u inside kohaku.ko/kohaku_sim.ko%s%s", label, runs,
		    injected, enomem, tolerated, other, reported, in_module,
		    nwhere ? ": " : "", list);
	}
	if (nbad_lines > MAX_BAD_LINES)
		out("# %s: %d more failures not shown", label, nbad_lines - MAX_BAD_LINES);
	if (injected == 0)
		bad("no failure was injected (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, ignore-gfp-wait)");
	if (c.op == OP_SUBMIT || c.op == OP_BO || c.op == OP_OPEN)
		check_card_works(&c);
	if (!nfail)
		out("ok - %s: each of %u injected allocation failures a clean ENOMEM "
		    "or tolerated, no kernel report", label, injected);
	if (c.dev)
		kohaku_close(c.dev);
	return nfail ? 1 : 0;
}
