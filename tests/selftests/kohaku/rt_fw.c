// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Loading POOL firmware (FW_LOAD, docs/spec/firmware-image.md): reload of
 * the image under test while idle, through device memory and through the
 * mailbox; refused while a job runs or waits on a POOL unit; every
 * malformed image refused with its reason while the running firmware runs
 * on (a job proves it); a firmware that never writes READY times out and
 * one that traps at boot reports core, cause and PC, both with the
 * previous firmware restored.  The bad images are made here from the good
 * one, and the two bad firmwares are a few hand-assembled words.  Skips on
 * cards without POOL units.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "rt_test.h"
#include "kohaku/kh_fw.h"
#include "kohaku/kh_pool.h"


/* ---- images ---- */

struct image {
	unsigned char *b;
	size_t len;
};

static uint32_t get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static unsigned char *section(struct image *im, unsigned int i)
{
	return im->b + KH_FW_HEADER_SIZE + i * KH_FW_SECTION_SIZE;
}

static unsigned int n_sections(const struct image *im)
{
	return im->b[0x18] | im->b[0x19] << 8;
}

/* a copy of the image under test, room for growth */
static bool image_copy(struct image *im, size_t extra)
{
	const unsigned char *g;
	size_t len;

	g = rt_fw_image(&len);
	if (!g)
		return false;
	im->b = calloc(1, len + extra);
	if (!im->b)
		return false;
	memcpy(im->b, g, len);
	im->len = len;
	return true;
}

/* the whole-image CRC again, after a change */
static void reseal(struct image *im)
{
	put32(im->b + 0x1c, 0);
	put32(im->b + 0x1c, crc32(0, im->b, im->len));
}

/* a tiny firmware: one IRAM section of these words, entry 0 */
static void tiny(struct image *im, const uint32_t *words, unsigned int n)
{
	size_t data = KH_FW_HEADER_SIZE + KH_FW_SECTION_SIZE;
	unsigned char *s;
	unsigned int i;

	im->len = data + 32 * ((n * 4 + 31) / 32);
	im->b = calloc(1, im->len);
	REQUIRE(im->b);
	put32(im->b + 0x00, KH_FW_MAGIC);
	put16(im->b + 0x04, KH_FW_FORMAT);
	put16(im->b + 0x06, KH_FW_HEADER_SIZE);
	put32(im->b + 0x08, im->len);
	put32(im->b + 0x0c, KH_FW_VERSION(0, 0, 1));
	put16(im->b + 0x10, KH_POOL_API_MAJOR);
	put16(im->b + 0x18, 1);
	put16(im->b + 0x1a, KH_FW_HEADER_SIZE);
	memcpy(im->b + 0x24, "rt-tiny", 7);
	for (i = 0; i < n; i++)
		put32(im->b + data + 4 * i, words[i]);
	s = section(im, 0);
	s[0] = KH_FW_T_IRAM;
	put32(s + 0x08, im->len - data);
	put32(s + 0x0c, data);
	put32(s + 0x10, crc32(0, im->b + data, im->len - data));
	reseal(im);
}

/* ---- the device ---- */


/* the firmware runs: every unit RUNNING that version, and a CRC checks out */
static void still_running(kohaku_device *dev, uint32_t version)
{
	struct drm_kohaku_node nd[RT_MAX_POOL];
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	unsigned char data[96];
	unsigned int n, i;
	uint32_t h, hr, got = 0;
	uint64_t a, ar;

	n = rt_nodes_of(dev, KH_CU_GP, nd, RT_MAX_POOL);
	for (i = 0; i < n; i++) {
		CHECK_MSG(nd[i].fw_state == KOHAKU_FW_STATE_RUNNING,
			  "unit (%u,%u) is %s", nd[i].x, nd[i].y,
			  kohaku_fw_state_name(nd[i].fw_state));
		CHECK_EQ(nd[i].fw_version, version);
	}
	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 13 + 5);
	REQUIRE(kohaku_bo_create(dev, nd[n - 1].mesh, sizeof(data), &h, &a) == 0);
	REQUIRE(kohaku_bo_create(dev, nd[n - 1].mesh, 32, &hr, &ar) == 0);
	CHECK_EQ(kohaku_bo_write(dev, h, 0, data, sizeof(data)), 0);
	CHECK_EQ(kohaku_inst_pool_crc32(&inst, a, ar, sizeof(data)), 0);
	CHECK_EQ(rt_run_on(dev, &nd[n - 1], &inst, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(kohaku_bo_read(dev, hr, 0, &got, 4), 0);
	CHECK_EQ(got, (uint32_t)crc32(0, data, sizeof(data)));
	kohaku_bo_free(dev, h);
	kohaku_bo_free(dev, hr);
}

static uint32_t good_version(void)
{
	const unsigned char *g;
	size_t len;

	g = rt_fw_image(&len);
	return g ? get32(g + 0x0c) : 0;
}

/* FW_LOAD of im refused with err and reason; the firmware runs on */
static void refused(kohaku_device *dev, struct image *im, int err,
		    unsigned int reason, const char *what)
{
	struct drm_kohaku_fw_load out;
	int r;

	memset(&out, 0, sizeof(out));
	r = kohaku_fw_load(dev, im->b, im->len, 0, &out, sizeof(out));
	CHECK_MSG(r == err, "%s: FW_LOAD returned %d, expected %d", what, r, err);
	CHECK_MSG(out.reason == reason, "%s: reason %u (%s), expected %u (%s)",
		  what, out.reason, kohaku_fw_reason(out.reason), reason,
		  kohaku_fw_reason(reason));
	CHECK(strstr(kohaku_last_error(dev), kohaku_fw_reason(reason)) != NULL);
	check_diag("%s: %s", what, kohaku_last_error(dev));
	still_running(dev, good_version());
	free(im->b);
	im->b = NULL;
}

static uint64_t dev_caps(kohaku_device *dev)
{
	struct drm_kohaku_get_info info;

	memset(&info, 0, sizeof(info));
	if (kohaku_get_info(dev, &info, sizeof(info)))
		return 0;
	return info.caps;
}

/* ---- tests ---- */

/* the simulated card's register writes so far (sim backend), else 0 */
static unsigned long long card_writes(kohaku_device *dev)
{
	unsigned long long r = 0, w = 0;
	char *text = NULL, *p;

	if (kohaku_device_backend(dev) != KOHAKU_BACKEND_SIM ||
	    kohaku_sim_read(dev, "stats", &text) || !text)
		return 0;
	p = strstr(text, "host reads=");
	if (p && sscanf(p, "host reads=%llu writes=%llu", &r, &w) != 2)
		w = 0;
	free(text);
	return w;
}

TEST_F(rt, reload_while_idle)
{
	struct drm_kohaku_fw_load out;
	struct kohaku_fw_info fi;
	const unsigned char *g;
	unsigned long long w[2];
	size_t len;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	g = rt_fw_image(&len);
	REQUIRE(g);
	/* through LOAD from device memory, then through the mailbox */
	for (unsigned int flags = 0; flags <= KOHAKU_FW_LOAD_MAILBOX;
	     flags += KOHAKU_FW_LOAD_MAILBOX) {
		unsigned long long w0 = card_writes(dev);

		memset(&out, 0, sizeof(out));
		CHECK_EQ(kohaku_fw_load(dev, g, len, flags, &out, sizeof(out)), 0);
		w[flags != 0] = card_writes(dev) - w0;
		CHECK_EQ(out.loaded_by, flags ? KOHAKU_FW_BY_MAILBOX : KOHAKU_FW_BY_LOAD);
		CHECK_EQ(out.reason, KOHAKU_FW_OK);
		CHECK_EQ(out.n_units, n);
		CHECK_EQ(out.fw_version, get32(g + 0x0c));
		CHECK_EQ(out.fw_api >> 16, KH_POOL_API_MAJOR);
		CHECK(out.boot_ns > 0);
		CHECK_EQ(out.fail_mesh, KOHAKU_COORD_NONE);
		check_diag("reload %s: %u units, boot %llu ns of device time",
			 flags ? "through the mailbox" : "by LOAD", out.n_units,
			 (unsigned long long)out.boot_ns);
		still_running(dev, out.fw_version);
	}
	/* what LOAD is for: the image does not cross the mailbox flit by flit */
	if (kohaku_device_backend(dev) == KOHAKU_BACKEND_SIM) {
		check_diag("register writes for %zu bytes on %u units: %llu by LOAD, %llu through the mailbox",
			 len, n, w[0], w[1]);
		CHECK_MSG(w[0] * 4 < w[1], "LOAD took %llu writes, the mailbox %llu",
			  w[0], w[1]);
	}
	REQUIRE(kohaku_fw_info(dev, &fi, sizeof(fi)) == 0);
	CHECK_EQ(fi.running, n);
	CHECK_EQ(fi.fw_version, get32(g + 0x0c));
	kohaku_close(dev);
}

TEST_F(rt, reload_refused_while_a_job_runs)
{
	struct drm_kohaku_fw_load out;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	struct kohaku_program p;
	const unsigned char *g;
	uint64_t job[2];
	size_t len;
	int r;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	g = rt_fw_image(&len);
	REQUIRE(g);
	/* a long job, and one queued behind it */
	CHECK_EQ(kohaku_inst_pool_delay(&inst, 20000000), 0);
	rt_prog_on(&p, &nd[0], &inst, 1);
	REQUIRE(kohaku_submit(dev, &p, 1, 60000, &job[0]) == 0);
	REQUIRE(kohaku_submit(dev, &p, 1, 60000, &job[1]) == 0);
	memset(&out, 0, sizeof(out));
	CHECK_EQ(kohaku_fw_load(dev, g, len, 0, &out, sizeof(out)), -EBUSY);
	CHECK_EQ(out.reason, KOHAKU_FW_ERR_BUSY);
	check_diag("%s", kohaku_last_error(dev));
	CHECK_EQ(kohaku_wait(dev, job[0], 120000, &st, sizeof(st)), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	/*
	 * The second one runs on the unit now, or already ran (the progress
	 * engine starts it at once, and a DELAY costs no simulated time): a
	 * load is refused while it is not final, so one that succeeds finds
	 * it final afterwards.
	 */
	memset(&out, 0, sizeof(out));
	r = kohaku_fw_load(dev, g, len, 0, &out, sizeof(out));
	if (r) {
		CHECK_EQ(r, -EBUSY);
		CHECK_EQ(out.reason, KOHAKU_FW_ERR_BUSY);
	} else {
		check_diag("the second job had finished before the load");
	}
	CHECK_EQ(kohaku_wait(dev, job[1], r ? 120000 : 0, &st, sizeof(st)), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	/* idle: it loads */
	CHECK_EQ(kohaku_fw_load(dev, g, len, 0, &out, sizeof(out)), 0);
	still_running(dev, get32(g + 0x0c));
	kohaku_close(dev);
}

TEST_F(rt, malformed_images_refused_with_their_reason)
{
	struct image im;
	unsigned int s;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	REQUIRE(image_copy(&im, 0));

	im.len /= 2;
	refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_TRUNCATED, "truncated");

	REQUIRE(image_copy(&im, 0));
	im.b[1] ^= 0x20;
	refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_MAGIC, "bad magic");

	REQUIRE(image_copy(&im, 0));
	im.b[im.len - 3] ^= 0x01;
	refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_CRC, "bad CRC");

	/* the last section moved past its memory */
	REQUIRE(image_copy(&im, 0));
	s = n_sections(&im) - 1;
	put32(section(&im, s) + 0x04, KH_POOL_IRAM_SIZE);
	reseal(&im);
	refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_RANGE, "section out of bounds");

	/* section 1 onto section 0 */
	REQUIRE(image_copy(&im, 0));
	if (n_sections(&im) >= 2) {
		section(&im, 1)[0] = section(&im, 0)[0];
		put32(section(&im, 1) + 0x04, get32(section(&im, 0) + 0x04));
		reseal(&im);
		refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_OVERLAP, "overlapping sections");
	} else {
		free(im.b);
	}

	REQUIRE(image_copy(&im, 0));
	put32(im.b + 0x14, KH_POOL_DRAM_BASE);
	reseal(&im);
	refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_ENTRY, "entry outside IRAM");

	REQUIRE(image_copy(&im, 0));
	put16(im.b + 0x10, KH_POOL_API_MAJOR + 1);
	reseal(&im);
	refused(dev, &im, -EPROTO, KOHAKU_FW_ERR_API, "API major mismatch");

	/* 1 MiB and a word: too large for any POOL memory (the library and the driver) */
	REQUIRE(image_copy(&im, KH_FW_MAX_IMAGE + 32));
	im.len = KH_FW_MAX_IMAGE + 32;
	put32(im.b + 0x08, im.len);
	reseal(&im);
	{
		struct drm_kohaku_fw_load a;

		memset(&a, 0, sizeof(a));
		a.image_ptr = (uintptr_t)im.b;
		a.image_size = im.len;
		CHECK_EQ(kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a), -E2BIG);
		CHECK_EQ(a.reason, KOHAKU_FW_ERR_TOO_BIG);
	}
	refused(dev, &im, -E2BIG, KOHAKU_FW_ERR_TOO_BIG, "oversize");

	/* nothing at all, and a NULL pointer */
	im.b = calloc(1, 1);
	im.len = 0;
	refused(dev, &im, -EINVAL, KOHAKU_FW_ERR_TRUNCATED, "empty");
	{
		struct drm_kohaku_fw_load a;

		memset(&a, 0, sizeof(a));
		a.image_size = 64;
		CHECK_EQ(kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a), -EFAULT);
		memset(&a, 0, sizeof(a));
		a.flags = 0x80;
		CHECK_EQ(kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a), -EINVAL);
		memset(&a, 0, sizeof(a));
		a.reserved[1] = 1;
		CHECK_EQ(kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a), -EINVAL);
	}
	still_running(dev, good_version());
	kohaku_close(dev);
}

TEST_F(rt, firmware_that_never_says_ready_times_out)
{
	static const uint32_t spin[] = { 0x0000006f };	/* j . */
	struct drm_kohaku_fw_load a;
	struct image im;
	int r;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	tiny(&im, spin, 1);
	memset(&a, 0, sizeof(a));
	a.image_ptr = (uintptr_t)im.b;
	a.image_size = im.len;
	a.timeout_ms = 2;
	r = kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a);
	CHECK_EQ(r, -ETIMEDOUT);
	CHECK_EQ(a.reason, KOHAKU_FW_ERR_TIMEOUT);
	CHECK_EQ(a.fail_mesh, nd[0].mesh);
	CHECK_EQ(a.fail_x, nd[0].x);
	CHECK_EQ(a.fail_y, nd[0].y);
	check_diag("%s", kohaku_last_error(dev));
	free(im.b);
	still_running(dev, good_version());
	kohaku_close(dev);
}

/* an image size without an image: EFAULT, nothing read, the firmware runs on */
TEST_F(rt, firmware_image_ptr_zero)
{
	struct drm_kohaku_fw_load a;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	memset(&a, 0, sizeof(a));
	a.image_size = 4096;
	CHECK_ERR(kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a), -EFAULT);
	CHECK_EQ(a.reason, 0);
	still_running(dev, good_version());
	kohaku_close(dev);
}

TEST_F(rt, firmware_that_traps_at_boot_reports_it)
{
	/* nop; nop; then an all-zero word: illegal, at pc 8 on every core */
	static const uint32_t bad[] = { 0x00000013, 0x00000013, 0x00000000 };
	struct drm_kohaku_fw_load a;
	struct image im;
	int r;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	tiny(&im, bad, 3);
	memset(&a, 0, sizeof(a));
	a.image_ptr = (uintptr_t)im.b;
	a.image_size = im.len;
	r = kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_FW_LOAD, &a);
	CHECK_EQ(r, -EIO);
	CHECK_EQ(a.reason, KOHAKU_FW_ERR_TRAP);
	CHECK_EQ(a.fail_x, nd[0].x);
	CHECK(a.fail_trap & KH_POOL_TRAP_VALID);
	CHECK(KH_POOL_TRAP_CORE(a.fail_trap) < KH_POOL_CORES);
	CHECK_EQ(KH_POOL_TRAP_CAUSE(a.fail_trap), KH_POOL_CAUSE_ILLEGAL);
	CHECK_EQ(KH_POOL_TRAP_PC(a.fail_trap), 8);
	check_diag("trap at boot: core %u cause %u pc 0x%x",
		 KH_POOL_TRAP_CORE(a.fail_trap), KH_POOL_TRAP_CAUSE(a.fail_trap),
		 KH_POOL_TRAP_PC(a.fail_trap));
	free(im.b);
	still_running(dev, good_version());
	kohaku_close(dev);
}

/* a card without POOL units: nothing to load, said so */
/*
 * KOHAKU_FIRMWARE naming a FIFO nobody writes: the in-process open does not
 * wait on it (an image is read from a regular file only), and the host's
 * status says why nothing was loaded
 */
TEST_F(rt, a_fifo_as_the_firmware_file_is_no_hang)
{
	char dir[] = "/tmp/rt_fw.XXXXXX", fifo[64], err[KOHAKU_ERRMSG_MAX];
	const char *was = getenv("KOHAKU_FIRMWARE");
	char *saved = was ? strdup(was) : NULL;
	struct kohaku_fw_info fi;
	kohaku_device *dev = NULL;
	int r;

	REQUIRE(mkdtemp(dir) != NULL);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	REQUIRE(mkfifo(fifo, 0600) == 0);
	setenv("KOHAKU_FIRMWARE", fifo, 1);
	r = kohaku_open(KOHAKU_BACKEND_SIM, "pool", &dev, err, sizeof(err));
	if (saved)
		setenv("KOHAKU_FIRMWARE", saved, 1);
	else
		unsetenv("KOHAKU_FIRMWARE");
	free(saved);
	unlink(fifo);
	rmdir(dir);
	REQUIRE(r == 0);
	CHECK_OK(dev, kohaku_fw_info(dev, &fi, sizeof(fi)));
	CHECK_EQ(fi.running, 0);
	CHECK_MSG(strstr(fi.status, "not a regular file") != NULL,
		  "status: %s", fi.status);
	kohaku_close(dev);
}

TEST_F(rt, no_pool_unit_no_firmware)
{
	struct drm_kohaku_node nd[RT_MAX_POOL];
	struct drm_kohaku_fw_load out;
	struct kohaku_fw_info fi;
	struct image im;
	static const uint32_t nop[] = { 0x00000013 };

	RT_OPEN(dev);
	if (rt_nodes_of(dev, KH_CU_GP, nd, RT_MAX_POOL)) {
		kohaku_close(dev);
		SKIP(return, "this card has POOL units");
	}
	CHECK(!(dev_caps(dev) & KOHAKU_CAP_FIRMWARE));
	REQUIRE(kohaku_fw_info(dev, &fi, sizeof(fi)) == 0);
	CHECK_EQ(fi.units, 0);
	CHECK_EQ(fi.running, 0);
	CHECK_EQ(fi.fw_version, 0);
	tiny(&im, nop, 1);
	memset(&out, 0, sizeof(out));
	CHECK_EQ(kohaku_fw_load(dev, im.b, im.len, 0, &out, sizeof(out)), -ENODEV);
	CHECK_EQ(out.reason, KOHAKU_FW_ERR_NO_UNITS);
	/* a malformed image is refused for that first */
	im.b[0] ^= 1;
	CHECK_EQ(kohaku_fw_load(dev, im.b, im.len, 0, &out, sizeof(out)), -EINVAL);
	CHECK_EQ(out.reason, KOHAKU_FW_ERR_MAGIC);
	free(im.b);
	kohaku_close(dev);
}

/* ---- a load is activity: jobs queued behind it keep their time ---- */

struct loader {
	kohaku_device *dev;
	const unsigned char *img;
	size_t len;
	unsigned int rounds, loaded;
	int err;
	bool over;
};

static void *loader_run(void *arg)
{
	struct loader *l = arg;
	unsigned int i;
	int r;

	for (i = 0; i < l->rounds; i++) {
		r = kohaku_fw_load(l->dev, l->img, l->len, 0, NULL, 0);
		if (!r)
			l->loaded++;
		else if (r != -EBUSY)	/* a job of the other thread's, on POOL */
			l->err = r;
	}
	__atomic_store_n(&l->over, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * A job on the mesh of a firmware load waits behind the load; the device
 * time that passes meanwhile is the load's, not a skip to the job's
 * deadline: while another thread loads firmware (20 times), saxpy jobs on
 * an SX unit of the same mesh all finish DONE (before, the engine saw
 * nothing on the device and ran simulated time forward to the waiter's
 * deadline, whatever it was: TIMEOUT while QUEUED, in milliseconds of wall
 * time).  The limit, 20 s, is generous for a card whose time runs on
 * while the host is slow (kohaku_sim.ko in a VM under TCG, where each
 * load takes its wall time).
 */
TEST_F(rt, jobs_queued_behind_a_firmware_load_keep_their_time)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	struct kohaku_program p;
	struct kohaku_inst inst;
	struct loader l;
	kohaku_device *dev2;
	pthread_t t;
	struct rt_vec v;
	unsigned int i, k, done = 0;
	int r;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	memset(&l, 0, sizeof(l));
	l.img = rt_fw_image(&l.len);
	REQUIRE(l.img);
	REQUIRE(kohaku_reopen(dev, &dev2) == 0);
	for (i = 0, k = 0; k < rt_nodes_of(dev2, KH_CU_SX, sx, 16); k++)
		if (sx[k].mesh == nd[0].mesh)
			sx[i++] = sx[k];
	if (!i) {
		kohaku_close(dev2);
		kohaku_close(dev);
		SKIP(return, "no SX unit on the POOL unit's mesh");
	}
	REQUIRE(rt_vec_setup(dev2, sx[0].mesh, 64, 3, &v) == 0);
	rt_prog_saxpy(&p, &inst, 1, &sx[0], &v, 2.0f);
	l.dev = dev;
	/*
	 * Many loads in-process, where the engine's skip was; few on a
	 * kernel card, where each takes wall time under a slow VM and a job
	 * queued behind them all must still fit its limit
	 */
	l.rounds = kohaku_device_backend(dev) == KOHAKU_BACKEND_KERNEL ? 4 : 20;
	REQUIRE(pthread_create(&t, NULL, loader_run, &l) == 0);
	for (i = 0; !__atomic_load_n(&l.over, __ATOMIC_ACQUIRE) && i < 100000;
	     i++) {
		memset(&st, 0, sizeof(st));
		r = kohaku_run(dev2, &p, 1, 20000, &st, sizeof(st));
		CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE,
			  "saxpy %u beside the loads: %d %s: %s", i, r,
			  kohaku_job_status_name(st.status), kohaku_last_error(dev2));
		done += r == 0;
	}
	pthread_join(t, NULL);
	CHECK_MSG(!l.err, "a load failed: %d", l.err);
	check_diag("%u jobs done beside %u firmware loads", done, l.loaded);
	rt_vec_free(dev2, &v);
	kohaku_close(dev2);
	kohaku_close(dev);
}


/*
 * First come, first served: jobs queued on the mesh before a firmware
 * load began (on its SX units) run before the load takes the mesh, so a
 * loader in a loop cannot starve them.  When the load returns they are
 * all final, DONE and exact.
 */
TEST_F(rt, a_load_goes_behind_the_jobs_queued_before_it)
{
	struct drm_kohaku_node sx[16];
	struct kohaku_job_status st;
	struct kohaku_program p[4];
	struct kohaku_inst inst[4];
	struct rt_vec v[4];
	const unsigned char *img;
	uint64_t job[4];
	unsigned int i, k;
	char knob[64];
	size_t len;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	img = rt_fw_image(&len);
	REQUIRE(img);
	for (i = 0, k = 0; k < rt_nodes_of(dev, KH_CU_SX, sx, 16); k++)
		if (sx[k].mesh == nd[0].mesh)
			sx[i++] = sx[k];
	if (!i) {
		kohaku_close(dev);
		SKIP(return, "no SX unit on the POOL unit's mesh");
	}
	if (!rt_simulated()) {
		kohaku_close(dev);
		SKIP(return, "holds a unit busy through the model's knob");
	}
	for (k = 0; k < 4; k++) {
		REQUIRE(rt_vec_setup(dev, sx[0].mesh, 2048, 40 + k, &v[k]) == 0);
		rt_prog_saxpy(&p[k], &inst[k], 4, &sx[0], &v[k], 1.5f);
	}
	/* the first job stays on the mesh 2 ms: the others queue behind it */
	snprintf(knob, sizeof(knob), "busy node=%u,%u cycles=600000", sx[0].x, sx[0].y);
	CHECK_OK(dev, kohaku_sim_inject(dev, knob));
	for (k = 0; k < 4; k++)
		CHECK_OK(dev, kohaku_submit(dev, &p[k], 1, 20000, &job[k]));
	CHECK_OK(dev, kohaku_fw_load(dev, img, len, 0, NULL, 0));
	CHECK_OK(dev, kohaku_sim_inject(dev, "clear"));
	for (k = 0; k < 4; k++) {
		/* a look, no wait: final already */
		memset(&st, 0, sizeof(st));
		CHECK_MSG(kohaku_wait(dev, job[k], 0, &st, sizeof(st)) == 0 &&
			  st.status == KOHAKU_JOB_DONE, "job %u when the load returned: %s",
			  k, kohaku_job_status_name(st.status));
		CHECK_EQ(rt_vec_check(dev, &v[k], 1.5f, 4), 0);
		rt_vec_free(dev, &v[k]);
	}
	still_running(dev, good_version());
	kohaku_close(dev);
}

RT_TEST_MAIN
