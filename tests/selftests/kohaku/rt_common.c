// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The runtime tests' shared helpers: device from the environment, maps, data. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "rt_common.h"

/* ---- the maps (docs/spec/card-description.md) ---- */

#define SX KH_CU_SX
#define NUL KH_CU_NULL
#define GP KH_CU_GP

/* xxx sax xxx / mag nul nul / xxx sax xxx */
static const struct rt_exp_node saxpy_nodes[] = {
	{ 1, 0, SX },
	{ 1, 2, SX },
};

/*
 * sim-backend's built-in sx_null_2x2:
 *   xxx  sax  null xxx
 *   mag  sax  null sax
 *   mag  null sax  null
 *   xxx  null sax  xxx
 */
static const struct rt_exp_node sx_null_2x2_nodes[] = {
	{ 1, 0, SX }, { 2, 0, NUL },
	{ 1, 1, SX }, { 2, 1, NUL }, { 3, 1, SX },
	{ 1, 2, NUL }, { 2, 2, SX }, { 3, 2, NUL },
	{ 1, 3, NUL }, { 2, 3, SX },
};

/*
 * pool:             pool_2x2:
 *   xxx gp  sax xxx    xxx  gp   gp   xxx
 *   mag nul gp  nul    mag  gp   sax  gp
 *   xxx gp  sax xxx    mag  null gp   null
 *                      xxx  gp   sax  xxx
 */
static const struct rt_exp_node pool_nodes[] = {
	{ 1, 0, GP }, { 2, 0, SX },
	{ 1, 1, NUL }, { 2, 1, GP },
	{ 1, 2, GP }, { 2, 2, SX },
};

static const struct rt_exp_node pool_2x2_nodes[] = {
	{ 1, 0, GP }, { 2, 0, GP },
	{ 1, 1, GP }, { 2, 1, SX }, { 3, 1, GP },
	{ 1, 2, NUL }, { 2, 2, GP }, { 3, 2, NUL },
	{ 1, 3, GP }, { 2, 3, SX },
};

static const struct rt_map maps[] = {
	{
		/* saxpy_mesh: 512-deep FIFOs, saxpy_cu's CU_VERSION 1 */
		.name = "saxpy", .n_nodes = 2, .nodes = saxpy_nodes,
		.agent_x = 0, .agent_y = 1, .grid_lo = 1, .grid_hi = 1,
		.n_mag = 1, .inst_depth = 512, .cu_version = 1,
	},
	{
		.name = "sx_null_2x2", .n_nodes = 10, .nodes = sx_null_2x2_nodes,
		.agent_x = 0, .agent_y = 1, .grid_lo = 1, .grid_hi = 2,
		.n_mag = 2, .inst_depth = 32, .cu_version = 1, .irq = true,
	},
	{
		.name = "pool", .n_nodes = 6, .nodes = pool_nodes,
		.agent_x = 0, .agent_y = 1, .grid_lo = 1, .grid_hi = 2,
		.n_mag = 1, .inst_depth = 512, .cu_version = 4,
	},
	{
		.name = "pool_2x2", .n_nodes = 10, .nodes = pool_2x2_nodes,
		.agent_x = 0, .agent_y = 1, .grid_lo = 1, .grid_hi = 2,
		.n_mag = 2, .inst_depth = 512, .cu_version = 4, .irq = true,
	},
};

unsigned int rt_map_count(const struct rt_map *m, uint16_t cu_type)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->n_nodes; i++)
		n += m->nodes[i].cu_type == cu_type;
	return n;
}

bool rt_ctrl32_env(void)
{
	const char *e = getenv("KOHAKU_SIM_CTRL");

	return e && !strcmp(e, "32");
}

const struct rt_map *rt_map(void)
{
	static const struct rt_map *cached;
	const char *m, *d;
	unsigned int i;

	if (cached)
		return cached;
	m = getenv("KOHAKU_TEST_MAP");
	if (!m || !*m) {
		d = getenv("KOHAKU_DEVICE");
		m = "saxpy";
		for (i = 0; d && i < sizeof(maps) / sizeof(maps[0]); i++)
			if (!strcmp(d, maps[i].name))
				m = d;
	}
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
		if (!strcmp(m, maps[i].name))
			cached = &maps[i];
	if (!cached) {
		printf("Bail out! KOHAKU_TEST_MAP='%s' is not a map these tests "
		       "know (saxpy, sx_null_2x2, pool, pool_2x2)\n", m);
		exit(1);
	}
	return cached;
}

/*
 * The protocol checker's count when a test opened its device (rt_open);
 * rt_close fails the test for any violation found since.  On a shared
 * kernel card the count is the card's, hence the baseline; where the
 * knobs are not available (no debugfs, not root) nothing is checked.
 */
#define RT_CHECKED_MAX	64
static struct {
	kohaku_device *dev;
	int base;
} rt_checked[RT_CHECKED_MAX];
static pthread_mutex_t rt_checked_lock = PTHREAD_MUTEX_INITIALIZER;

static void rt_check_baseline(kohaku_device *dev)
{
	struct drm_kohaku_get_info gi;
	unsigned int i;
	int n;

	/*
	 * A card the driver does not know as simulated (kohaku-pcie over
	 * PCI) has no model knobs to read: asking would only leave an error
	 * in kohaku_last_error() behind the test's back.
	 */
	if (kohaku_get_info(dev, &gi, sizeof(gi)) == 0 && !(gi.caps & KOHAKU_CAP_SIMULATED))
		return;
	n = kohaku_sim_check(dev);
	if (n < 0)
		return;
	pthread_mutex_lock(&rt_checked_lock);
	for (i = 0; i < RT_CHECKED_MAX; i++)
		if (!rt_checked[i].dev) {
			rt_checked[i].dev = dev;
			rt_checked[i].base = n;
			break;
		}
	pthread_mutex_unlock(&rt_checked_lock);
}

/*
 * This test process without CAP_SYS_ADMIN in its effective set: root keeps
 * the device node's permissions (CAP_DAC_OVERRIDE) but is no administrator
 * to kohaku.ko any more.  The harness runs each test in a child of its own.
 */
static bool rt_drop_sys_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return false;
	d[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	return !syscall(SYS_capset, &h, d);
}

kohaku_device *rt_reopen_unprivileged(kohaku_device *dev)
{
	const char *b = getenv("KOHAKU_BACKEND");
	/* a simulated card (in-process or kohakud's): the library asks */
	bool sim = b && (!strcmp(b, "sim") || !strcmp(b, "daemon"));
	bool was = getenv("KOHAKU_UNPRIVILEGED") != NULL;
	kohaku_device *u = NULL;

	if (!sim && !rt_drop_sys_admin()) {
		check_fail_at(__FILE__, __LINE__, "cannot drop CAP_SYS_ADMIN");
		return NULL;
	}
	if (sim)
		setenv("KOHAKU_UNPRIVILEGED", "1", 1);
	if (kohaku_reopen(dev, &u))
		check_fail_at(__FILE__, __LINE__, "reopen: %s", kohaku_last_error(dev));
	if (sim && !was)
		unsetenv("KOHAKU_UNPRIVILEGED");
	return u;
}

uint64_t rt_jobs_done(kohaku_device *dev, unsigned int mesh)
{
	struct drm_kohaku_get_param gp = {
		.param = KOHAKU_PARAM_MESH_JOBS_DONE, .index = mesh,
	};

	if (rt_ioctl(dev, DRM_IOCTL_KOHAKU_GET_PARAM, &gp))
		check_fail_at(__FILE__, __LINE__, "GET_PARAM MESH_JOBS_DONE failed");
	return gp.value;
}

int rt_submit_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 const struct kohaku_inst *insts, unsigned int n, uint32_t flags,
		 const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		 struct drm_kohaku_submit *s)
{
	static struct drm_kohaku_program p;

	memset(&p, 0, sizeof(p));
	p.mesh = nd->mesh;
	p.x = nd->x;
	p.y = nd->y;
	p.n_insts = n;
	p.insts_ptr = (uintptr_t)insts;
	memset(s, 0, sizeof(*s));
	s->n_programs = 1;
	s->programs_ptr = (uintptr_t)&p;
	s->program_size = sizeof(p);
	s->flags = flags;
	s->bos_ptr = (uintptr_t)bos;
	s->n_bos = n_bos;
	return rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, s);
}

bool rt_check_expected(kohaku_device *dev, const char *what)
{
	char *report = NULL;
	unsigned int i;
	bool found;
	int n;

	n = kohaku_sim_check(dev);
	if (n < 0 || kohaku_sim_read(dev, "check", &report))
		return false;
	found = strstr(report, what) != NULL;
	if (!found)
		check_diag("the checker's report has no \"%s\":\n%s", what, report);
	free(report);
	pthread_mutex_lock(&rt_checked_lock);
	for (i = 0; i < RT_CHECKED_MAX; i++)
		if (rt_checked[i].dev == dev)
			rt_checked[i].base = n;
	pthread_mutex_unlock(&rt_checked_lock);
	return found;
}

void rt_close(kohaku_device *dev)
{
	unsigned int i;
	int base = -1, n;
	char *report;

	pthread_mutex_lock(&rt_checked_lock);
	for (i = 0; dev && i < RT_CHECKED_MAX; i++)
		if (rt_checked[i].dev == dev) {
			base = rt_checked[i].base;
			rt_checked[i].dev = NULL;
			break;
		}
	pthread_mutex_unlock(&rt_checked_lock);
	if (base >= 0) {
		n = kohaku_sim_check(dev);
		if (n > base) {
			check_fail_at(__FILE__, __LINE__, "the model's protocol checker "
				    "found %d violation(s) during this test",
				    n - base);
			if (!kohaku_sim_read(dev, "check", &report)) {
				check_diag("%s", report);
				free(report);
			}
		}
	}
	(kohaku_close)(dev);
}

bool rt_simulated(void)
{
	const char *e = getenv("KOHAKU_TEST_PCI");

	return !e || strcmp(e, "1");
}

kohaku_device *rt_open(void)
{
	char err[KOHAKU_ERRMSG_MAX];
	const char *b = getenv("KOHAKU_BACKEND");
	const char *d = getenv("KOHAKU_DEVICE");
	kohaku_device *dev = NULL;
	int r;

	if (!b || !*b) {
		printf("Bail out! KOHAKU_BACKEND is not set: run with "
		       "KOHAKU_BACKEND=sim [KOHAKU_TEST_MAP=saxpy|sx_null_2x2|pool|pool_2x2] or "
		       "KOHAKU_BACKEND=kernel KOHAKU_DEVICE=/dev/accel/accelN "
		       "(/dev/dri/renderDN before Linux 6.2) "
		       "KOHAKU_TEST_MAP=... (tests/selftests/kohaku/README.md)\n");
		exit(1);
	}
	/* the model's protocol checker is on in the tests unless told off */
	setenv("KOHAKU_SIM_CHECK", "1", 0);
	/* NULL device: the library reads KOHAKU_DEVICE itself */
	r = kohaku_open(KOHAKU_BACKEND_ENV,
			(!d || !*d) && (!strcmp(b, "sim") || !strcmp(b, "daemon")) ?
			rt_map()->name : NULL,
			&dev, err, sizeof(err));
	if (r < 0) {
		check_fail_at(__FILE__, __LINE__, "opening the device under test: "
			    "%d: %s", r, err);
		return NULL;
	}
	rt_check_baseline(dev);
	return dev;
}

unsigned int rt_nodes_of(kohaku_device *dev, uint16_t cu_type,
			 struct drm_kohaku_node *out, unsigned int cap)
{
	struct drm_kohaku_node *nd;
	unsigned int n, i, k = 0;

	if (kohaku_nodes_alloc(dev, 0, &nd, sizeof(*nd), &n) < 0) {
		check_fail_at(__FILE__, __LINE__, "node table: %s",
			    kohaku_last_error(dev));
		return 0;
	}
	for (i = 0; i < n; i++)
		if (nd[i].cu_type == cu_type && k < cap)
			out[k++] = nd[i];
	free(nd);
	return k;
}

/* ---- data ---- */

uint32_t rt_fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

static float from_bits(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

float rt_x(unsigned long i, unsigned int salt)
{
	switch ((i + salt) % 101) {
	case 7:
		return from_bits(0x00000321);	/* subnormal */
	case 19:
		return -0.0f;
	case 41:
		return from_bits(0x7f000000);	/* huge: overflow to inf */
	default:
		return (float)((long)((i * 7 + salt) % 193) - 96) * 0.37f +
		       (float)i * 1.0e-3f;
	}
}

float rt_y(unsigned long i, unsigned int salt)
{
	switch ((i + 3 * salt) % 89) {
	case 13:
		return from_bits(0x7fa00001);	/* signalling NaN, payload */
	case 29:
		return from_bits(0xff800000);	/* -inf */
	case 31:
		return from_bits(0x80000005);	/* negative subnormal */
	default:
		return (float)((long)((i * 5 + salt) % 131) - 60) * 0.77f -
		       3.1f / (float)(1 + (i % 7));
	}
}

uint32_t rt_saxpy_bits(enum kohaku_sx_datapath dp, float a, float x, float y)
{
	return kohaku_sx_element(dp, rt_fbits(a), rt_fbits(x), rt_fbits(y));
}

enum kohaku_sx_datapath rt_sx_datapath(kohaku_device *dev)
{
	static bool told;
	struct drm_kohaku_node nd[64];
	enum kohaku_sx_datapath dp = KOHAKU_SX_DATAPATH_RTL;
	unsigned int n, i;

	if (!kohaku_nodes(dev, KOHAKU_NODES_LIVE, nd, 64, sizeof(*nd), &n))
		for (i = 0; i < n && i < 64; i++)
			if (nd[i].cu_type == KH_CU_SX) {
				dp = kohaku_sx_datapath_of(&nd[i]);
				break;
			}
	if (!told) {
		check_diag("SX results checked against the %s",
			 kohaku_sx_datapath_name(dp));
		told = true;
	}
	return dp;
}

unsigned int rt_sx_insts(unsigned long n)
{
	return n ? (unsigned int)((n + KH_SX_N_MAX - 1) / KH_SX_N_MAX) : 1;
}

/* instructions built for a vector longer than one instruction takes */
struct rt_insts {
	struct rt_insts *next;
	struct kohaku_inst inst[];
};

/* ---- vectors ---- */

int rt_vec_setup(kohaku_device *dev, unsigned int mesh, unsigned long n,
		 unsigned int salt, struct rt_vec *v)
{
	size_t vb = n * sizeof(float);
	float *hx = malloc(vb + 4), *hy = malloc(vb + RT_GUARD);
	unsigned long i;
	int r;

	memset(v, 0, sizeof(*v));
	v->n = n;
	v->salt = salt;
	v->dp = rt_sx_datapath(dev);
	if (!hx || !hy) {
		free(hx);
		free(hy);
		check_fail_at(__FILE__, __LINE__, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		hx[i] = rt_x(i, salt);
		hy[i] = rt_y(i, salt);
	}
	memset((char *)hy + vb, RT_GUARD_BYTE, RT_GUARD);
	r = kohaku_bo_create(dev, mesh, vb ? vb : 4, &v->hx, &v->ax);
	if (!r)
		r = kohaku_bo_create(dev, mesh, vb + RT_GUARD, &v->hy, &v->ay);
	if (!r && vb)
		r = kohaku_bo_write(dev, v->hx, 0, hx, vb);
	if (!r)
		r = kohaku_bo_write(dev, v->hy, 0, hy, vb + RT_GUARD);
	if (r)
		check_fail_at(__FILE__, __LINE__, "setting up vectors of %lu: %s",
			    n, kohaku_last_error(dev));
	free(hx);
	free(hy);
	return r;
}

unsigned long rt_vec_check(kohaku_device *dev, const struct rt_vec *v,
			   float a, unsigned int times)
{
	size_t vb = v->n * sizeof(float);
	uint32_t *gy = malloc(vb + RT_GUARD), *gx = malloc(vb + 4);
	unsigned char *guard;
	unsigned long i, bad = 0;
	unsigned int t;
	int r;

	if (!gy || !gx) {
		free(gy);
		free(gx);
		check_fail_at(__FILE__, __LINE__, "out of memory");
		return 1;
	}
	r = kohaku_bo_read(dev, v->hy, 0, gy, vb + RT_GUARD);
	if (!r && vb)
		r = kohaku_bo_read(dev, v->hx, 0, gx, vb);
	if (r) {
		check_fail_at(__FILE__, __LINE__, "reading back: %s",
			    kohaku_last_error(dev));
		free(gy);
		free(gx);
		return 1;
	}
	for (i = 0; i < v->n; i++) {
		float x = rt_x(i, v->salt), y = rt_y(i, v->salt);
		uint32_t want = rt_fbits(y);

		for (t = 0; t < times; t++) {
			want = rt_saxpy_bits(v->dp, a, x, y);
			memcpy(&y, &want, sizeof(y));
		}
		if (gy[i] != want) {
			if (bad < 5)
				check_diag("n=%lu salt=%u: y[%lu] = 0x%08x, expected "
					 "0x%08x (a=%a x=%a y0=%a, %u time%s)",
					 v->n, v->salt, i, gy[i], want, (double)a,
					 (double)x, (double)rt_y(i, v->salt),
					 times, times == 1 ? "" : "s");
			bad++;
		}
		if (gx[i] != rt_fbits(x)) {
			if (bad < 5)
				check_diag("n=%lu: x[%lu] changed: 0x%08x, was 0x%08x",
					 v->n, i, gx[i], rt_fbits(x));
			bad++;
		}
	}
	guard = (unsigned char *)gy + vb;
	for (i = 0; i < RT_GUARD; i++) {
		if (guard[i] != RT_GUARD_BYTE) {
			check_diag("n=%lu: byte %lu past y[n-1] changed to 0x%02x",
				 v->n, i, guard[i]);
			bad++;
			break;
		}
	}
	free(gy);
	free(gx);
	return bad;
}

void rt_vec_free(kohaku_device *dev, struct rt_vec *v)
{
	while (v->insts) {
		struct rt_insts *b = v->insts;

		v->insts = b->next;
		free(b);
	}
	if (v->hx)
		CHECK_OK(dev, kohaku_bo_free(dev, v->hx));
	if (v->hy)
		CHECK_OK(dev, kohaku_bo_free(dev, v->hy));
	v->hx = v->hy = 0;
}

void rt_prog_saxpy(struct kohaku_program *p, struct kohaku_inst *insts,
		   unsigned int n_insts, const struct drm_kohaku_node *nd,
		   struct rt_vec *v, float a)
{
	unsigned int per = rt_sx_insts(v->n), i, k;

	if (per > 1) {
		struct rt_insts *b = malloc(sizeof(*b) +
					    (size_t)n_insts * per * sizeof(b->inst[0]));

		if (!b) {
			check_fail_at(__FILE__, __LINE__, "out of memory");
			n_insts = 0;
		} else {
			b->next = v->insts;
			v->insts = b;
			insts = b->inst;
		}
	}
	for (i = 0; i < n_insts; i++)
		for (k = 0; k < per; k++) {
			uint64_t off = (uint64_t)k * KH_SX_N_MAX * sizeof(float);
			unsigned long left = v->n - (unsigned long)k * KH_SX_N_MAX;
			uint32_t n = left > KH_SX_N_MAX ? KH_SX_N_MAX : (uint32_t)left;

			if (kohaku_inst_saxpy(&insts[i * per + k], n, a,
					      v->ax + off, v->ay + off))
				check_fail_at(__FILE__, __LINE__, "kohaku_inst_saxpy refused "
					    "n=%u ax=0x%llx ay=0x%llx", n,
					    (unsigned long long)(v->ax + off),
					    (unsigned long long)(v->ay + off));
		}
	memset(p, 0, sizeof(*p));
	p->mesh = nd->mesh;
	p->x = nd->x;
	p->y = nd->y;
	p->n_insts = n_insts * per;
	p->insts = insts;
}

/* the test's device is not a card rt_open_card() makes itself */
static bool rt_card_is_given(void)
{
	const char *b = getenv("KOHAKU_BACKEND");

	return (b && !strcmp(b, "kernel")) || getenv("KOHAKU_DEVICE");
}

kohaku_device *rt_open_card(const char *card)
{
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev = NULL;

	const char *b = getenv("KOHAKU_BACKEND");

	if (rt_card_is_given())
		return rt_open();
	/* under kohakud, its card of that name (shared, made on first use) */
	if (kohaku_open(b && !strcmp(b, "daemon") ? KOHAKU_BACKEND_DAEMON :
			KOHAKU_BACKEND_SIM, card, &dev, err, sizeof(err))) {
		check_fail_at(__FILE__, __LINE__, "open %s: %s", card, err);
		return NULL;
	}
	if (kohaku_sim_command(dev, "check on"))
		check_fail_at(__FILE__, __LINE__, "check on: %s",
			    kohaku_last_error(dev));
	return dev;
}

void rt_close_card(kohaku_device *dev)
{
	int n;

	if (rt_card_is_given()) {
		rt_close(dev);
		return;
	}
	n = kohaku_sim_check(dev);
	CHECK_MSG(n == 0, "the model's protocol checker found %d violation(s)",
		  n);
	(kohaku_close)(dev);
}

int rt_run(kohaku_device *dev, const struct kohaku_program *p, unsigned int n,
	   struct kohaku_job_status *st)
{
	uint64_t job;
	int r, i;

	memset(st, 0, sizeof(*st));
	r = kohaku_submit(dev, p, n, 0, &job);
	if (r < 0)
		return r;
	for (i = 0; i < 3; i++) {
		r = kohaku_wait(dev, job, KOHAKU_JOB_TIMEOUT_DEFAULT_MS + 2000, st, sizeof(*st));
		if (r != -ETIMEDOUT)
			break;
	}
	return r;
}

const unsigned char *rt_fw_image(size_t *len)
{
	static unsigned char *img;
	static size_t img_len;
	const char *path = getenv("KOHAKU_TEST_FW");
	FILE *f;
	long n;

	if (!path || !*path)
		path = "/lib/firmware/kohaku/pool.fw";
	if (!img) {
		f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
		    fseek(f, 0, SEEK_SET)) {
			check_fail_at(__FILE__, __LINE__, "no firmware image at %s "
				    "(set KOHAKU_TEST_FW)", path);
			if (f)
				fclose(f);
			return NULL;
		}
		img = malloc((size_t)n);
		if (img && fread(img, 1, (size_t)n, f) != (size_t)n) {
			free(img);
			img = NULL;
		}
		fclose(f);
		img_len = img ? (size_t)n : 0;
	}
	*len = img_len;
	return img;
}

bool rt_destructive_ok(kohaku_device *dev)
{
	const char *d = getenv("KOHAKU_TEST_DESTRUCTIVE");

	return kohaku_device_backend(dev) != KOHAKU_BACKEND_KERNEL ||
	       (d && *d == '1');
}

int rt_inject_at(kohaku_device *dev, const char *fmt, unsigned int x,
		 unsigned int y)
{
	char spec[256];
	int r;

	snprintf(spec, sizeof(spec), fmt, x, y);
	r = kohaku_sim_inject(dev, spec);
	if (r)
		check_fail_at(__FILE__, __LINE__, "inject %s: %d: %s", spec, r,
			      kohaku_last_error(dev));
	return r;
}

int rt_saxpy_job(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 unsigned long n, uint32_t timeout_ms, const char *knob,
		 struct kohaku_job_status *st, unsigned long *bad)
{
	uint32_t limit = timeout_ms ? timeout_ms : KOHAKU_JOB_TIMEOUT_DEFAULT_MS;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct rt_vec v;
	uint64_t job;
	int r;

	*bad = 0;
	memset(st, 0, sizeof(*st));
	if (rt_vec_setup(dev, nd->mesh, n, 5, &v))
		return -EIO;
	rt_prog_saxpy(&p, &inst, 1, nd, &v, 1.5f);
	r = knob ? rt_inject_at(dev, knob, nd->x, nd->y) : 0;
	if (!r)
		r = kohaku_submit(dev, &p, 1, timeout_ms, &job);
	if (!r)
		r = kohaku_wait(dev, job, limit + 5000, st, sizeof(*st));
	if (!r && st->status == KOHAKU_JOB_DONE)
		*bad = rt_vec_check(dev, &v, 1.5f, 1);
	rt_vec_free(dev, &v);
	return r;
}

void rt_saxpy_ok(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 const char *when)
{
	struct kohaku_job_status st;
	unsigned long bad;
	int r;

	memset(&st, 0, sizeof(st));
	r = rt_saxpy_job(dev, nd, 300, 30000, NULL, &st, &bad);
	if (r || st.status != KOHAKU_JOB_DONE || bad)
		check_fail_at(__FILE__, __LINE__, "SX (%u,%u) %s: %d %s, %lu bad: %s",
			      nd->x, nd->y, when, r, kohaku_job_status_name(st.status),
			      bad, kohaku_last_error(dev));
}

unsigned int rt_fw_state(kohaku_device *dev, const struct drm_kohaku_node *nd)
{
	struct drm_kohaku_node now;

	return rt_node_now(dev, nd, &now) ? now.fw_state : ~0u;
}

void rt_prog_on(struct kohaku_program *p, const struct drm_kohaku_node *nd,
		const struct kohaku_inst *insts, unsigned int n)
{
	memset(p, 0, sizeof(*p));
	p->mesh = nd->mesh;
	p->x = nd->x;
	p->y = nd->y;
	p->n_insts = n;
	p->insts = insts;
}

int rt_run_on(kohaku_device *dev, const struct drm_kohaku_node *nd,
	      const struct kohaku_inst *insts, unsigned int n,
	      struct kohaku_job_status *st)
{
	struct kohaku_program p;

	rt_prog_on(&p, nd, insts, n);
	return rt_run(dev, &p, 1, st);
}

bool rt_good_saxpy(kohaku_device *dev)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct kohaku_job_status st;
	struct rt_vec v;
	unsigned long bad;
	int r;

	if (!rt_nodes_of(dev, KH_CU_SX, sx, 16)) {
		check_fail_at(__FILE__, __LINE__, "no SX unit for a good saxpy");
		return false;
	}
	if (rt_vec_setup(dev, sx[0].mesh, 77, 3, &v))
		return false;
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 2.5f);
	r = rt_run(dev, &p, 1, &st);
	if (r || st.status != KOHAKU_JOB_DONE) {
		check_fail_at(__FILE__, __LINE__, "a good saxpy did not run: %d "
			    "status %s: %s", r, kohaku_job_status_name(st.status),
			    kohaku_last_error(dev));
		rt_vec_free(dev, &v);
		return false;
	}
	bad = rt_vec_check(dev, &v, 2.5f, 1);
	rt_vec_free(dev, &v);
	if (bad)
		check_fail_at(__FILE__, __LINE__, "a good saxpy: %lu wrong", bad);
	return bad == 0;
}

const struct rt_cmd rt_cmds[RT_N_CMDS] = {
	{ "GET_INFO", DRM_IOCTL_KOHAKU_GET_INFO },
	{ "NODES", DRM_IOCTL_KOHAKU_NODES },
	{ "BO_CREATE", DRM_IOCTL_KOHAKU_BO_CREATE },
	{ "BO_FREE", DRM_IOCTL_KOHAKU_BO_FREE },
	{ "BO_INFO", DRM_IOCTL_KOHAKU_BO_INFO },
	{ "BO_WRITE", DRM_IOCTL_KOHAKU_BO_WRITE },
	{ "BO_READ", DRM_IOCTL_KOHAKU_BO_READ },
	{ "SUBMIT", DRM_IOCTL_KOHAKU_SUBMIT },
	{ "WAIT", DRM_IOCTL_KOHAKU_WAIT },
	{ "GET_PARAM", DRM_IOCTL_KOHAKU_GET_PARAM },
	{ "FW_LOAD", DRM_IOCTL_KOHAKU_FW_LOAD },
	{ "DXA_ALLOC", DRM_IOCTL_KOHAKU_DXA_ALLOC },
	{ "DXA_FREE", DRM_IOCTL_KOHAKU_DXA_FREE },
	{ "DXA_SET", DRM_IOCTL_KOHAKU_DXA_SET },
	{ "DXA_GET", DRM_IOCTL_KOHAKU_DXA_GET },
	{ "CLOCKS", DRM_IOCTL_KOHAKU_CLOCKS },
	{ "MESH_SET", DRM_IOCTL_KOHAKU_MESH_SET },
	{ "RESET", DRM_IOCTL_KOHAKU_RESET },
	{ "MESH_LEASE", DRM_IOCTL_KOHAKU_MESH_LEASE },
};

bool rt_node_now(kohaku_device *dev, const struct drm_kohaku_node *nd,
		 struct drm_kohaku_node *out)
{
	struct drm_kohaku_node all[64];
	unsigned int n, i;

	if (kohaku_nodes(dev, 0, all, 64, sizeof(*all), &n))
		return false;
	for (i = 0; i < n && i < 64; i++) {
		if (all[i].mesh == nd->mesh && all[i].x == nd->x && all[i].y == nd->y) {
			*out = all[i];
			return true;
		}
	}
	return false;
}

int rt_ioctl(kohaku_device *dev, unsigned long cmd, void *arg)
{
	return kohaku_ioctl(dev, cmd, arg);
}

void rt_fw_reload(kohaku_device *dev)
{
	struct drm_kohaku_fw_load out;
	const unsigned char *img;
	size_t len;

	img = rt_fw_image(&len);
	REQUIRE(img);
	CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, &out, sizeof(out)));
}
