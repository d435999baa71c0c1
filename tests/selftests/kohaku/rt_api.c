// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The library itself: opening by environment and its loud errors, the
 * builders against the spec's bit table, error strings, per-thread
 * messages, several devices and several threads.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_test.h"

/* ---- environment save/restore ---- */

struct env_save {
	char *b, *d;
};

static void env_save(struct env_save *s)
{
	const char *b = getenv("KOHAKU_BACKEND"), *d = getenv("KOHAKU_DEVICE");

	s->b = b ? strdup(b) : NULL;
	s->d = d ? strdup(d) : NULL;
}

static void env_restore(struct env_save *s)
{
	if (s->b)
		setenv("KOHAKU_BACKEND", s->b, 1);
	else
		unsetenv("KOHAKU_BACKEND");
	if (s->d)
		setenv("KOHAKU_DEVICE", s->d, 1);
	else
		unsetenv("KOHAKU_DEVICE");
	free(s->b);
	free(s->d);
}

static int open_env(const char *b, const char *d, kohaku_device **dev,
		    char *err, size_t len)
{
	if (b)
		setenv("KOHAKU_BACKEND", b, 1);
	else
		unsetenv("KOHAKU_BACKEND");
	if (d)
		setenv("KOHAKU_DEVICE", d, 1);
	else
		unsetenv("KOHAKU_DEVICE");
	return kohaku_open(KOHAKU_BACKEND_ENV, NULL, dev, err, len);
}

#define HAS(s, sub) CHECK_MSG(strstr((s), (sub)) != NULL, "'%s' lacks '%s'", (s), (sub))

TEST_F(rt, open_unknown_backend_is_loud)
{
	struct env_save s;
	kohaku_device *dev = (kohaku_device *)1;
	char err[KOHAKU_ERRMSG_MAX];

	env_save(&s);
	CHECK_ERR(open_env("simulator", "saxpy", &dev, err, sizeof(err)), -EINVAL);
	CHECK(dev == NULL);
	HAS(err, "KOHAKU_BACKEND");
	HAS(err, "simulator");
	HAS(err, "sim");
	HAS(err, "kernel");
	env_restore(&s);
	CHECK_ERR(kohaku_backend_parse("SIM", &(enum kohaku_backend){ 0 }), -EINVAL);
}

TEST_F(rt, open_sim_without_device_is_loud)
{
	struct env_save s;
	kohaku_device *dev;
	char err[KOHAKU_ERRMSG_MAX];

	env_save(&s);
	CHECK_ERR(open_env("sim", NULL, &dev, err, sizeof(err)), -EINVAL);
	CHECK(dev == NULL);
	HAS(err, "KOHAKU_DEVICE");
	HAS(err, "saxpy");
	env_restore(&s);
}

TEST_F(rt, open_sim_bad_description_names_the_line)
{
	kohaku_device *dev;
	char err[KOHAKU_ERRMSG_MAX];
	int r;

	/* row 2 has 2 tokens, the others 3 */
	r = kohaku_open(KOHAKU_BACKEND_SIM, "xxx sax xxx\nmag nul\nxxx sax xxx\n",
			&dev, err, sizeof(err));
	CHECK(r < 0);
	CHECK(dev == NULL);
	HAS(err, "line 2");
	check_diag("parser says: %s", err);
	/* an unknown token */
	r = kohaku_open(KOHAKU_BACKEND_SIM, "xxx sax xxx\nmag bogus nul\nxxx sax xxx\n",
			&dev, err, sizeof(err));
	CHECK(r < 0);
	HAS(err, "line 2");
	HAS(err, "bogus");
}

TEST_F(rt, open_sim_missing_file_or_name)
{
	kohaku_device *dev;
	char err[KOHAKU_ERRMSG_MAX];

	CHECK_ERR(kohaku_open(KOHAKU_BACKEND_SIM, "no_such_map_xyz", &dev, err,
			      sizeof(err)), -ENOENT);
	CHECK(dev == NULL);
	HAS(err, "no_such_map_xyz");
	HAS(err, "saxpy");		/* lists the built-ins */
	HAS(err, "sx_null_2x2");
	CHECK_ERR(kohaku_open(KOHAKU_BACKEND_SIM, "/nonexistent/dir/map.txt", &dev,
			      err, sizeof(err)), -ENOENT);
	HAS(err, "/nonexistent/dir/map.txt");
	CHECK(kohaku_open(KOHAKU_BACKEND_SIM, "/", &dev, err, sizeof(err)) < 0);
	HAS(err, "directory");
}

TEST_F(rt, open_sim_from_file_and_text)
{
	const char *text = kohaku_sim_builtin_desc("saxpy");
	struct drm_kohaku_get_info in;
	char path[] = "/tmp/kohaku-rt-map-XXXXXX";
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev;
	FILE *f;
	int fd;

	REQUIRE(text != NULL);
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	f = fdopen(fd, "w");
	REQUIRE(f);
	fprintf(f, "# the saxpy map, from a file\n%s", text);
	fclose(f);
	CHECK_OK(NULL, kohaku_open(KOHAKU_BACKEND_SIM, path, &dev, err, sizeof(err)));
	if (dev) {
		kohaku_get_info(dev, &in, sizeof(in));
		CHECK_EQ(in.n_nodes, 2);
		CHECK_EQ(kohaku_device_backend(dev), KOHAKU_BACKEND_SIM);
		CHECK_EQ(kohaku_device_fd(dev), -1);
		CHECK(rt_good_saxpy(dev));
		kohaku_close(dev);
	} else {
		check_diag("%s", err);
	}
	unlink(path);
	/* the text itself */
	CHECK_OK(NULL, kohaku_open(KOHAKU_BACKEND_SIM, text, &dev, err, sizeof(err)));
	if (dev) {
		kohaku_get_info(dev, &in, sizeof(in));
		CHECK_EQ(in.n_nodes, 2);
		kohaku_close(dev);
	}
}

/*
 * A description file is text: one with a NUL byte is refused by name (the
 * parser would stop at it and take the rest as absent), and the refusal
 * shows no raw control byte of the file.
 */
TEST_F(rt, open_sim_file_not_text)
{
	static const char nul[] = "xxx sax xxx\nmag nul nul\0xxx sax xxx\n";
	static const char esc[] = "xxx sax xxx\nmag \x1b]0;owned\x07 nul\nxxx sax xxx\n";
	char path[] = "/tmp/kohaku-rt-map-XXXXXX";
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev;
	int fd;

	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, nul, sizeof(nul) - 1) == (ssize_t)sizeof(nul) - 1);
	close(fd);
	CHECK_ERR(kohaku_open(KOHAKU_BACKEND_SIM, path, &dev, err, sizeof(err)),
		  -EINVAL);
	CHECK(dev == NULL);
	HAS(err, path);
	HAS(err, "line 2: a NUL byte (at byte 23)");
	check_diag("%s", err);
	fd = open(path, O_WRONLY | O_TRUNC);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, esc, sizeof(esc) - 1) == (ssize_t)sizeof(esc) - 1);
	close(fd);
	CHECK_ERR(kohaku_open(KOHAKU_BACKEND_SIM, path, &dev, err, sizeof(err)),
		  -EINVAL);
	HAS(err, "control byte 0x1b");
	CHECK(!strchr(err, 0x1b) && !strchr(err, 0x07));
	unlink(path);
	/* inline text too */
	CHECK_ERR(kohaku_open(KOHAKU_BACKEND_SIM, esc, &dev, err, sizeof(err)),
		  -EINVAL);
	HAS(err, "control byte 0x1b");
}

/*
 * A card described in text with directives (docs/spec/card-description.md):
 * small FIFOs and a small DRAM, opened in-process whatever the backend under
 * test, and checked through the same ioctls.
 */
TEST_F(rt, sim_card_with_params)
{
	static const char *desc =
		"# small FIFOs, 16 MiB of DRAM\n"
		"param inst_depth 4\n"
		"param recv_depth 4\n"
		"param router_fifo 2\n"
		"param dram_mib 16\n"
		"param cu_version 9\n"
		"xxx sax xxx\n"
		"mag nul nul\n"
		"xxx sax xxx\n";
	struct drm_kohaku_node nd[4];
	struct drm_kohaku_get_info in;
	struct kohaku_inst inst[10];
	struct kohaku_program p;
	struct kohaku_job_status st;
	struct drm_kohaku_bo_create c;
	char err[KOHAKU_ERRMSG_MAX];
	kohaku_device *dev = NULL;
	struct rt_vec v;
	unsigned int n = 0, i;
	int r;

	CHECK_OK(NULL, kohaku_open(KOHAKU_BACKEND_SIM, desc, &dev, err, sizeof(err)));
	if (!dev) {
		check_diag("%s", err);
		return;
	}
	kohaku_get_info(dev, &in, sizeof(in));
	CHECK_EQ(in.n_nodes, 2);
	CHECK_EQ(in.mesh[0].min_inst_depth, 4);
	CHECK_EQ(in.mesh[0].cu_version, 9);
	CHECK_EQ(in.mesh[0].mem_size, 16 << 20);
	CHECK_OK(dev, kohaku_nodes(dev, 0, nd, 4, sizeof(*nd), &n));
	for (i = 0; i < n && i < 4; i++) {
		CHECK_EQ(nd[i].inst_depth, 4);
		CHECK_EQ(nd[i].cu_version, 9);
	}
	/* a program longer than the FIFO, chunks shrunk by recv_depth */
	REQUIRE(rt_vec_setup(dev, 0, 1000, 11, &v) == 0);
	rt_prog_saxpy(&p, inst, 10, &nd[0], &v, 1.125f);
	r = rt_run(dev, &p, 1, &st);
	CHECK_MSG(r == 0 && st.status == KOHAKU_JOB_DONE, "%d %s: %s", r,
		  kohaku_job_status_name(st.status), kohaku_last_error(dev));
	CHECK_EQ(rt_vec_check(dev, &v, 1.125f, 10), 0);
	rt_vec_free(dev, &v);
	/* the DRAM is 16 MiB */
	memset(&c, 0, sizeof(c));
	c.size = (16 << 20) + 1;
	r = kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c);
	CHECK_MSG(r == -ENOMEM || r == -EINVAL, "16 MiB + 1 on a 16 MiB mesh: %d", r);
	kohaku_close(dev);

	/* a parameter out of range is the parser's line-numbered refusal */
	r = kohaku_open(KOHAKU_BACKEND_SIM, "param inst_depth 0\nxxx sax xxx\n"
			"mag nul nul\nxxx sax xxx\n", &dev, err, sizeof(err));
	CHECK(r < 0);
	HAS(err, "line 1");
	HAS(err, "inst_depth");
}

TEST_F(rt, open_kernel_errors_are_loud_never_fall_back)
{
	struct env_save s;
	kohaku_device *dev;
	char err[KOHAKU_ERRMSG_MAX];

	env_save(&s);
	/* a missing node: no fallback to the sim backend */
	CHECK_ERR(open_env("kernel", "/dev/accel/accel97", &dev, err, sizeof(err)),
		  -ENOENT);
	CHECK(dev == NULL);
	HAS(err, "/dev/accel/accel97");
	HAS(err, "KOHAKU_DEVICE");
	/* a number: the node of that number, of the kind the kernel makes
	 * (a render node before Linux 6.2) */
	CHECK_ERR(open_env("kernel", "97", &dev, err, sizeof(err)), -ENOENT);
	CHECK_MSG(strstr(err, "/dev/accel/accel97") ||
		  strstr(err, "/dev/dri/renderD97"), "%s", err);
	/* a node's name */
	CHECK_ERR(open_env("kernel", "accel97", &dev, err, sizeof(err)), -ENOENT);
	HAS(err, "/dev/accel/accel97");
	CHECK_ERR(open_env("kernel", "renderD97", &dev, err, sizeof(err)), -ENOENT);
	HAS(err, "/dev/dri/renderD97");
	/* a sim name given to the kernel backend */
	CHECK_ERR(open_env("kernel", "saxpy", &dev, err, sizeof(err)), -EINVAL);
	HAS(err, "sim");
	/* not a DRM device at all */
	CHECK_ERR(kohaku_open(KOHAKU_BACKEND_KERNEL, "/dev/null", &dev, err,
			      sizeof(err)), -ENODEV);
	HAS(err, "/dev/null");
	HAS(err, "DRM");
	/* a sim backend with a kernel node path does not open a node */
	CHECK(open_env("sim", "/dev/accel/accel97", &dev, err, sizeof(err)) < 0);
	CHECK(dev == NULL);
	env_restore(&s);
}

TEST_F(rt, open_kernel_default_explains_no_device)
{
	struct env_save s;
	kohaku_device *dev;
	char err[KOHAKU_ERRMSG_MAX];
	int r;

	env_save(&s);
	r = open_env(NULL, NULL, &dev, err, sizeof(err));
	if (r == 0) {
		check_diag("a kohaku device is present: %s", kohaku_device_path(dev));
		CHECK_EQ(kohaku_device_backend(dev), KOHAKU_BACKEND_KERNEL);
		kohaku_close(dev);
	} else {
		/* says why, and how to get the simulated card */
		CHECK(strlen(err) > 20);
		HAS(err, "kernel");
		check_diag("%s", err);
	}
	env_restore(&s);
}

TEST_F(rt, list_devices)
{
	struct kohaku_device_entry *l;
	char err[KOHAKU_ERRMSG_MAX];
	unsigned int n, i, found = 0;
	struct env_save s;

	env_save(&s);
	unsetenv("KOHAKU_DEVICE");
	CHECK_OK(NULL, kohaku_list_devices(KOHAKU_BACKEND_SIM, &l, &n, sizeof(*l), err, sizeof(err)));
	CHECK(n >= 2);
	for (i = 0; i < n; i++) {
		CHECK_MSG(l[i].status == 0, "%s: %s", l[i].path, l[i].message);
		found += !strcmp(l[i].path, "sim:saxpy") && l[i].n_nodes == 2;
		found += !strcmp(l[i].path, "sim:sx_null_2x2") && l[i].n_nodes == 10;
	}
	CHECK_EQ(found, 2);
	kohaku_free_device_list(l);
	/* the kernel listing works with or without nodes, and explains */
	CHECK_OK(NULL, kohaku_list_devices(KOHAKU_BACKEND_KERNEL, &l, &n, sizeof(*l), err,
					   sizeof(err)));
	for (i = 0; i < n; i++) {
		check_diag("%s: %s %s", l[i].path, l[i].driver,
			 l[i].status ? l[i].message : "usable");
		CHECK(l[i].status == 0 || l[i].message[0]);
	}
	if (!n)
		CHECK(err[0] != '\0');
	kohaku_free_device_list(l);
	env_restore(&s);
}

TEST_F(rt, builder_sx_matches_the_spec_table)
{
	struct kohaku_inst in;
	unsigned int op;
	uint32_t n, a;
	uint64_t x, y;

	CHECK_EQ(kohaku_inst_sx(&in, 0x01, 0xabcdef, 0x40490fdb,
				0x0000001234567880ULL, 0x00000fedcba98760ULL), 0);
	/* docs/spec/units.md: [255:248] op, [247:224] n, [223:192] a,
	 * [191:128] x, [127:64] y, [63:0] 0; w[k] = payload [64k+63:64k] */
	CHECK_EQ(in.w[3], 0x01abcdef40490fdbULL);
	CHECK_EQ(in.w[2], 0x0000001234567880ULL);
	CHECK_EQ(in.w[1], 0x00000fedcba98760ULL);
	CHECK_EQ(in.w[0], 0);
	kohaku_inst_sx_decode(&in, &op, &n, &a, &x, &y);
	CHECK_EQ(op, 1);
	CHECK_EQ(n, 0xabcdef);
	CHECK_EQ(a, 0x40490fdb);
	CHECK_EQ(x, 0x0000001234567880ULL);
	CHECK_EQ(y, 0x00000fedcba98760ULL);

	CHECK_EQ(kohaku_inst_saxpy(&in, 8, 2.0f, 0x40, 0x80), 0);
	CHECK_EQ(in.w[3], 0x0100000840000000ULL);
	CHECK_ERR(kohaku_inst_saxpy(&in, KH_SX_N_MAX + 1, 1.0f, 0, 0), -EINVAL);
	CHECK_ERR(kohaku_inst_saxpy(&in, 8, 1.0f, 0x41, 0x80), -EINVAL);
	CHECK_ERR(kohaku_inst_saxpy(&in, 8, 1.0f, 0x40, 0x90), -EINVAL);
	CHECK_EQ(kohaku_inst_saxpy(&in, KH_SX_N_MAX, 1.0f, 0, 0), 0);
	CHECK_ERR(kohaku_inst_sx(&in, 0x100, 1, 0, 0, 0), -EINVAL);
}

TEST_F(rt, builder_null)
{
	static const uint32_t w[8] = { 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80000000u };
	struct kohaku_inst in;

	kohaku_inst_null(&in, w);
	CHECK_EQ(in.w[0], 0x0000000200000001ULL);
	CHECK_EQ(in.w[3], 0x8000000000000040ULL);
	CHECK_EQ(kohaku_inst_null_result(&in), 0x8000007fu);
}

TEST_F(rt, error_strings)
{
	char buf[256];
	struct kohaku_job_status st = {
		.status = KOHAKU_JOB_FAULT, .fault_code = 2, .fault_mesh = 0,
		.fault_x = 1, .fault_y = 2, .n_faults = 1,
		.fault_flags = KOHAKU_FAULT_NODE_KNOWN | KOHAKU_FAULT_CODE_KNOWN,
	};

	CHECK(strlen(kohaku_strerror(-EINVAL)) > 0);
	CHECK(strcmp(kohaku_strerror(-ENOENT), kohaku_strerror(-EINVAL)));
	CHECK(strlen(kohaku_strerror(-9999)) > 0);
	CHECK(!strcmp(kohaku_job_status_name(KOHAKU_JOB_DONE), "DONE"));
	CHECK(!strcmp(kohaku_job_status_name(KOHAKU_JOB_TIMEOUT), "TIMEOUT"));
	CHECK(!strcmp(kohaku_job_status_name(99), "UNKNOWN"));
	kohaku_job_describe(&st, sizeof(st), buf, sizeof(buf));
	HAS(buf, "FAULT");
	HAS(buf, "(1,2)");
	HAS(buf, "code 2");
	st.fault_flags = KOHAKU_FAULT_NODE_KNOWN;
	kohaku_job_describe(&st, sizeof(st), buf, sizeof(buf));
	HAS(buf, "(1,2)");
	HAS(buf, "not known");
	st.fault_flags = 0;
	st.fault_mesh = KOHAKU_COORD_NONE;
	kohaku_job_describe(&st, sizeof(st), buf, sizeof(buf));
	HAS(buf, "unknown node");
	CHECK(!strcmp(kohaku_backend_name(KOHAKU_BACKEND_SIM), "sim"));
	CHECK(!strcmp(kohaku_last_error(NULL), "no device (NULL)"));
}

TEST_F(rt, version_is_the_librarys)
{
	char want[32];
	const char *v = kohaku_version();

	/* the library's release, as the header it came with says; the same
	 * string every call, no device needed */
	snprintf(want, sizeof(want), "%u.%u.%u", KOHAKU_LIB_VERSION_MAJOR,
		 KOHAKU_LIB_VERSION_MINOR, KOHAKU_LIB_VERSION_PATCH);
	REQUIRE(v);
	CHECK_MSG(!strcmp(v, want), "kohaku_version() '%s', header %s", v, want);
	CHECK(v == kohaku_version());
}

TEST_F(rt, last_error_names_what_and_why)
{
	struct drm_kohaku_bo_create c;
	RT_OPEN(dev);

	CHECK(kohaku_last_error(dev)[0] == '\0');
	memset(&c, 0, sizeof(c));
	c.mesh = 3;
	c.size = 4096;
	CHECK_ERR(kohaku_ioctl(dev, DRM_IOCTL_KOHAKU_BO_CREATE, &c), -EINVAL);
	HAS(kohaku_last_error(dev), "BO_CREATE");
	HAS(kohaku_last_error(dev), "EINVAL");
	if (kohaku_device_backend(dev) != KOHAKU_BACKEND_KERNEL)
		HAS(kohaku_last_error(dev), "mesh 3");	/* the core's own reason */
	else
		HAS(kohaku_last_error(dev), "dmesg");
	check_diag("%s", kohaku_last_error(dev));
	kohaku_close(dev);
}

struct thr {
	kohaku_device *dev;
	int idx;
	int fail;
	char seen[KOHAKU_ERRMSG_MAX];
};

static void *err_thread(void *arg)
{
	struct thr *t = arg;

	/* this thread has made no failed call: its message is empty */
	snprintf(t->seen, sizeof(t->seen), "%s", kohaku_last_error(t->dev));
	CHECK_ERR(kohaku_bo_free(t->dev, 0x7777), -ENOENT);
	return NULL;
}

TEST_F(rt, last_error_is_per_thread)
{
	struct thr t;
	pthread_t th;
	RT_OPEN(dev);

	CHECK_ERR(kohaku_bo_free(dev, 0x1234), -ENOENT);
	HAS(kohaku_last_error(dev), "4660");	/* 0x1234 */
	t.dev = dev;
	REQUIRE(pthread_create(&th, NULL, err_thread, &t) == 0);
	pthread_join(th, NULL);
	CHECK_EQ(t.seen[0], '\0');
	/* the other thread's failure did not overwrite ours */
	HAS(kohaku_last_error(dev), "4660");
	kohaku_close(dev);
}

static void *saxpy_thread(void *arg)
{
	struct thr *t = arg;
	int i;

	for (i = 0; i < 3; i++)
		if (!rt_good_saxpy(t->dev))
			t->fail++;
	return NULL;
}

TEST_F(rt, threads_share_a_device)
{
	struct thr t[4];
	pthread_t th[4];
	int i;
	RT_OPEN(dev);

	for (i = 0; i < 4; i++) {
		t[i].dev = dev;
		t[i].idx = i;
		t[i].fail = 0;
		REQUIRE(pthread_create(&th[i], NULL, saxpy_thread, &t[i]) == 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ(t[i].fail, 0);
	}
	kohaku_close(dev);
}

TEST_F(rt, two_sim_devices_are_independent)
{
	kohaku_device *a = NULL, *b = NULL;
	struct drm_kohaku_get_info ia, ib;
	char err[KOHAKU_ERRMSG_MAX];
	uint32_t h;

	CHECK_OK(NULL, kohaku_open(KOHAKU_BACKEND_SIM, "saxpy", &a, err, sizeof(err)));
	CHECK_OK(NULL, kohaku_open(KOHAKU_BACKEND_SIM, "sx_null_2x2", &b, err,
				   sizeof(err)));
	REQUIRE(a && b);
	kohaku_get_info(a, &ia, sizeof(ia));
	kohaku_get_info(b, &ib, sizeof(ib));
	CHECK_EQ(ia.n_nodes, 2);
	CHECK_EQ(ib.n_nodes, 10);
	CHECK_OK(a, kohaku_bo_create(a, 0, 1 << 20, &h, NULL));
	memset(&ib, 0, sizeof(ib));
	CHECK_OK(b, kohaku_ioctl(b, DRM_IOCTL_KOHAKU_GET_INFO, &ib));
	CHECK_EQ(ib.mesh[0].mem_free, ib.mesh[0].mem_size);
	CHECK(rt_good_saxpy(a));
	CHECK(rt_good_saxpy(b));
	kohaku_close(b);
	CHECK(rt_good_saxpy(a));
	kohaku_close(a);
}

TEST_F(rt, reopen_and_close_order)
{
	kohaku_device *d2 = NULL, *d3 = NULL;
	RT_OPEN(dev);

	CHECK_OK(dev, kohaku_reopen(dev, &d2));
	REQUIRE(d2);
	CHECK_OK(d2, kohaku_reopen(d2, &d3));
	REQUIRE(d3);
	/* the first closes first: the others keep the device */
	kohaku_close(dev);
	CHECK(rt_good_saxpy(d3));
	kohaku_close(d3);
	CHECK(rt_good_saxpy(d2));
	kohaku_close(d2);
	kohaku_close(NULL);
}

RT_TEST_MAIN
