// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware's kernels (API 1.1) through the whole stack: every
 * built-in kernel on one unit and on all of them at once, each result
 * checked against the host's own computation (zlib's crc32 for CRC32),
 * sizes from nothing to more than all eight cores' share; argument rules
 * refused by the firmware with its fault code; a trap reported with core,
 * cause and PC, the unit refusing jobs until the firmware is reloaded.
 * The kernels on the cores' vector unit (GEMV_I8, AXPY_F32 bit for bit
 * against fmaf, SOFTMAX_F32 within its stated bound of a double-precision
 * softmax, COPY_U at odd byte offsets) the same way, and on every unit
 * at once.  Skips on cards without POOL units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <zlib.h>

#include "rt_test.h"
#include "kohaku/kh_pool.h"



static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* a BO of len bytes (at least 32) on the node's mesh, filled from seed */
struct buf {
	uint32_t h;
	uint64_t a;
	size_t len;
	unsigned char *host;
};

static int buf_new(kohaku_device *dev, const struct drm_kohaku_node *nd,
		   size_t len, uint32_t seed, struct buf *b)
{
	size_t i;
	int r;

	memset(b, 0, sizeof(*b));
	b->len = len;
	b->host = malloc(len ? len : 1);
	if (!b->host)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		b->host[i] = seed ? (unsigned char)rnd(&seed) : 0;
	r = kohaku_bo_create(dev, nd->mesh, len < 32 ? 32 : len, &b->h, &b->a);
	if (!r && len)
		r = kohaku_bo_write(dev, b->h, 0, b->host, len);
	return r;
}

static void buf_free(kohaku_device *dev, struct buf *b)
{
	if (b->h)
		kohaku_bo_free(dev, b->h);
	free(b->host);
	memset(b, 0, sizeof(*b));
}

static int run1(kohaku_device *dev, const struct drm_kohaku_node *nd,
		const struct kohaku_inst *inst, struct kohaku_job_status *st)
{
	return rt_run_on(dev, nd, inst, 1, st);
}

#define RUN_DONE(dev, nd, inst) do {					\
	struct kohaku_job_status _st;					\
	char _d[256];							\
	int _r = run1(dev, nd, inst, &_st);				\
	CHECK_EQ(_r, 0);						\
	CHECK_MSG(_st.status == KOHAKU_JOB_DONE, "job %s: %s",		\
		  kohaku_job_status_name(_st.status),			\
		  kohaku_pool_fault_describe(_st.fault_code, _d, sizeof(_d))); \
} while (0)

static uint32_t read_u32(kohaku_device *dev, const struct buf *b, size_t off)
{
	uint32_t v = 0;

	CHECK_EQ(kohaku_bo_read(dev, b->h, off, &v, 4), 0);
	return v;
}

TEST_F(rt, every_unit_booted)
{
	struct kohaku_fw_info fi;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	REQUIRE(kohaku_fw_info(dev, &fi, sizeof(fi)) == 0);
	CHECK_EQ(fi.units, n);
	CHECK_EQ(fi.running, n);
	CHECK(fi.fw_version != 0);
	CHECK_EQ(fi.fw_api >> 16, KH_POOL_API_MAJOR);
	CHECK_EQ(fi.driver_api, KH_POOL_API(KH_POOL_API_MAJOR, KH_POOL_API_MINOR));
	for (unsigned int i = 0; i < n; i++) {
		CHECK_EQ(nd[i].fw_state, KOHAKU_FW_STATE_RUNNING);
		CHECK_EQ(nd[i].fw_version, fi.fw_version);
		CHECK_EQ(nd[i].fw_api, fi.fw_api);
		CHECK(nd[i].fw_boot_ns > 0);
		CHECK_EQ(nd[i].n_buffers, KH_POOL_NBUF);
	}
	check_diag("%u POOL units, firmware 0x%06x API 0x%x, boot %llu ns: %s", n,
		 fi.fw_version, fi.fw_api, (unsigned long long)nd[0].fw_boot_ns,
		 fi.status);
	kohaku_close(dev);
}

TEST_F(rt, ping)
{
	struct kohaku_inst inst[2];
	struct kohaku_job_status st;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	/* two: the first's result travels on its SIG_INST_COMPLETE */
	kohaku_inst_pool_ping(&inst[0], 0x1234);
	kohaku_inst_pool_ping(&inst[1], 0x5678);
	CHECK_EQ(rt_run_on(dev, &nd[0], inst, 2, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	kohaku_close(dev);
}

static void crc_case(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     size_t len, uint32_t seed)
{
	struct kohaku_inst inst;
	struct buf src, res;
	uint32_t want, got;

	REQUIRE(buf_new(dev, nd, len, seed, &src) == 0);
	REQUIRE(buf_new(dev, nd, 32, 0x77, &res) == 0);	/* not zero: must be overwritten */
	CHECK_EQ(kohaku_inst_pool_crc32(&inst, src.a, res.a, len), 0);
	RUN_DONE(dev, nd, &inst);
	want = crc32(0, src.host, len);
	got = read_u32(dev, &res, 0);
	CHECK_MSG(got == want, "crc32 of %zu bytes: 0x%08x, zlib 0x%08x", len, got, want);
	for (size_t k = 4; k < 32; k += 4)
		CHECK_EQ(read_u32(dev, &res, k), 0);
	buf_free(dev, &src);
	buf_free(dev, &res);
}

TEST_F(rt, crc32_sizes)
{
	static const size_t sizes[] = { 0, 1, 3, 31, 32, 33, 255, 256, 1000,
					4096, 65536 + 7, 300000 };

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		crc_case(dev, &nd[0], sizes[i], 0x1000 + i);
	kohaku_close(dev);
}

TEST_F(rt, copy_and_fill)
{
	static const size_t sizes[] = { 32, 64, 96, 8192, 65536 + 32, 262144 };
	struct kohaku_inst inst;
	struct buf src, dst;
	unsigned char *back;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t len = sizes[i];

		REQUIRE(buf_new(dev, &nd[0], len, 0x2000 + i, &src) == 0);
		/* dst one word longer: the word past the end must stay */
		REQUIRE(buf_new(dev, &nd[0], len + 32, 0x3000 + i, &dst) == 0);
		back = malloc(len + 32);
		REQUIRE(back);
		CHECK_EQ(kohaku_inst_pool_copy(&inst, src.a, dst.a, len), 0);
		RUN_DONE(dev, &nd[0], &inst);
		CHECK_EQ(kohaku_bo_read(dev, dst.h, 0, back, len + 32), 0);
		CHECK_MSG(!memcmp(back, src.host, len), "copy of %zu bytes differs", len);
		CHECK_MSG(!memcmp(back + len, dst.host + len, 32),
			  "copy of %zu bytes wrote past its end", len);

		CHECK_EQ(kohaku_inst_pool_fill(&inst, dst.a, 0xa5c3e10fu, len), 0);
		RUN_DONE(dev, &nd[0], &inst);
		CHECK_EQ(kohaku_bo_read(dev, dst.h, 0, back, len + 32), 0);
		for (size_t k = 0; k < len; k += 4) {
			uint32_t w;

			memcpy(&w, back + k, 4);
			if (w != 0xa5c3e10fu) {
				CHECK_MSG(0, "fill of %zu bytes: word at %zu is 0x%08x", len, k, w);
				break;
			}
		}
		CHECK_MSG(!memcmp(back + len, dst.host + len, 32),
			  "fill of %zu bytes wrote past its end", len);
		free(back);
		buf_free(dev, &src);
		buf_free(dev, &dst);
	}
	kohaku_close(dev);
}

TEST_F(rt, vadd_i32)
{
	static const uint32_t counts[] = { 0, 8, 64, 1000, 16384 + 8 };
	struct kohaku_inst inst;
	struct buf a, b, c;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint32_t cnt = counts[i], bad = 0;
		int32_t *got;

		REQUIRE(buf_new(dev, &nd[0], cnt * 4, 0x4000 + i, &a) == 0);
		REQUIRE(buf_new(dev, &nd[0], cnt * 4, 0x5000 + i, &b) == 0);
		REQUIRE(buf_new(dev, &nd[0], cnt * 4, 0, &c) == 0);
		/* the edges of wrapping: INT32_MAX + 1 */
		if (cnt) {
			int32_t mx = INT32_MAX, one = 1;

			memcpy(a.host, &mx, 4);
			memcpy(b.host, &one, 4);
			CHECK_EQ(kohaku_bo_write(dev, a.h, 0, a.host, 4), 0);
			CHECK_EQ(kohaku_bo_write(dev, b.h, 0, b.host, 4), 0);
		}
		CHECK_EQ(kohaku_inst_pool_vadd_i32(&inst, a.a, b.a, c.a, cnt), 0);
		RUN_DONE(dev, &nd[0], &inst);
		got = malloc(cnt * 4 + 4);
		REQUIRE(got);
		CHECK_EQ(kohaku_bo_read(dev, c.h, 0, got, cnt * 4), 0);
		for (uint32_t k = 0; k < cnt; k++) {
			uint32_t x, y;

			memcpy(&x, a.host + 4 * k, 4);
			memcpy(&y, b.host + 4 * k, 4);
			if ((uint32_t)got[k] != x + y && !bad++)
				CHECK_MSG(0, "vadd n=%u: c[%u] = %d, expected %d", cnt, k,
					  got[k], (int32_t)(x + y));
		}
		free(got);
		buf_free(dev, &a);
		buf_free(dev, &b);
		buf_free(dev, &c);
	}
	kohaku_close(dev);
}

TEST_F(rt, sum_i64)
{
	static const uint32_t counts[] = { 0, 4, 12, 1000, 32768 + 4 };
	struct kohaku_inst inst;
	struct buf src, res;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		uint32_t cnt = counts[i];
		uint64_t want = 0, got = 0;

		REQUIRE(buf_new(dev, &nd[0], cnt * 8, 0x6000 + i, &src) == 0);
		REQUIRE(buf_new(dev, &nd[0], 32, 0x99, &res) == 0);
		for (uint32_t k = 0; k < cnt; k++) {
			uint64_t e;

			memcpy(&e, src.host + 8 * k, 8);
			want += e;
		}
		CHECK_EQ(kohaku_inst_pool_sum_i64(&inst, src.a, res.a, cnt), 0);
		RUN_DONE(dev, &nd[0], &inst);
		CHECK_EQ(kohaku_bo_read(dev, res.h, 0, &got, 8), 0);
		CHECK_MSG(got == want, "sum of %u: %lld, expected %lld", cnt,
			  (long long)got, (long long)want);
		buf_free(dev, &src);
		buf_free(dev, &res);
	}
	kohaku_close(dev);
}

TEST_F(rt, hist256)
{
	static const size_t sizes[] = { 0, 1, 33, 1000, 65536 + 5 };
	struct kohaku_inst inst;
	struct buf src, res;
	uint32_t got[256], want[256];

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t len = sizes[i];

		REQUIRE(buf_new(dev, &nd[0], len, 0x7000 + i, &src) == 0);
		REQUIRE(buf_new(dev, &nd[0], sizeof(got), 0x55, &res) == 0);
		memset(want, 0, sizeof(want));
		for (size_t k = 0; k < len; k++)
			want[src.host[k]]++;
		CHECK_EQ(kohaku_inst_pool_hist256(&inst, src.a, res.a, len), 0);
		RUN_DONE(dev, &nd[0], &inst);
		CHECK_EQ(kohaku_bo_read(dev, res.h, 0, got, sizeof(got)), 0);
		CHECK_MSG(!memcmp(got, want, sizeof(got)), "hist of %zu bytes differs", len);
		buf_free(dev, &src);
		buf_free(dev, &res);
	}
	kohaku_close(dev);
}

/* ---- the kernels on the vector unit (API 1.1) ---- */

/* A (m x k int8, the firmware's 64-row column-major panels) times x */
static int32_t gemv_ref(const unsigned char *a, const unsigned char *x,
			uint32_t k, uint32_t i)
{
	int32_t s = 0;

	for (uint32_t j = 0; j < k; j++)
		s += (int32_t)(signed char)a[((size_t)(i / 64) * k + j) * 64 +
					     i % 64] * (signed char)x[j];
	return s;
}

static void gemv_case(kohaku_device *dev, const struct drm_kohaku_node *nd,
		      uint32_t m, uint32_t k, uint32_t seed)
{
	struct kohaku_inst inst;
	struct buf a, x, y;
	int32_t got;
	uint32_t bad = 0;

	REQUIRE(buf_new(dev, nd, (size_t)m * k, seed, &a) == 0);
	REQUIRE(buf_new(dev, nd, (k + 31) & ~31u, seed + 1, &x) == 0);
	REQUIRE(buf_new(dev, nd, (size_t)m * 4, 0, &y) == 0);
	CHECK_EQ(kohaku_inst_pool_gemv_i8(&inst, a.a, x.a, y.a, m, k), 0);
	RUN_DONE(dev, nd, &inst);
	for (uint32_t i = 0; i < m; i++) {
		got = (int32_t)read_u32(dev, &y, 4 * i);
		if (got != gemv_ref(a.host, x.host, k, i) && !bad++)
			CHECK_MSG(0, "gemv %u x %u: y[%u] = %d, want %d", m, k,
				  i, got, gemv_ref(a.host, x.host, k, i));
	}
	buf_free(dev, &a);
	buf_free(dev, &x);
	buf_free(dev, &y);
}

TEST_F(rt, gemv_i8)
{
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	gemv_case(dev, &nd[0], 64, 4, 0x4001);
	gemv_case(dev, &nd[0], 512, 256, 0x4002);	/* a panel a core */
	gemv_case(dev, &nd[0], 640, 1024, 0x4003);	/* drains */
	kohaku_close(dev);
}

/* finite binary32 values over many binades */
static void floats(unsigned char *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t r = rnd(&seed);
		uint32_t v = (r & 0x807fffffu) | (90u + (r >> 8) % 70) << 23;

		memcpy(p + 4 * i, &v, 4);
	}
}

static void axpy_case(kohaku_device *dev, const struct drm_kohaku_node *nd,
		      uint32_t n, float alpha, uint32_t seed)
{
	struct kohaku_inst inst;
	struct buf x, y;
	unsigned char *got = malloc(4 * (size_t)n + 4);
	uint32_t bad = 0;

	REQUIRE(got);
	REQUIRE(buf_new(dev, nd, 4 * (size_t)n, 0, &x) == 0);
	REQUIRE(buf_new(dev, nd, 4 * (size_t)n, 0, &y) == 0);
	floats(x.host, n, seed);
	floats(y.host, n, seed + 1);
	if (n) {
		CHECK_EQ(kohaku_bo_write(dev, x.h, 0, x.host, 4 * (size_t)n), 0);
		CHECK_EQ(kohaku_bo_write(dev, y.h, 0, y.host, 4 * (size_t)n), 0);
	}
	CHECK_EQ(kohaku_inst_pool_axpy_f32(&inst, x.a, y.a, alpha, n), 0);
	RUN_DONE(dev, nd, &inst);
	if (n)
		CHECK_EQ(kohaku_bo_read(dev, y.h, 0, got, 4 * (size_t)n), 0);
	for (uint32_t i = 0; i < n; i++) {
		float xv, yv, want;

		memcpy(&xv, x.host + 4 * i, 4);
		memcpy(&yv, y.host + 4 * i, 4);
		want = fmaf(alpha, xv, yv);
		if (memcmp(got + 4 * i, &want, 4) && !bad++)
			CHECK_MSG(0, "axpy %u: y[%u] differs from fmaf", n, i);
	}
	free(got);
	buf_free(dev, &x);
	buf_free(dev, &y);
}

TEST_F(rt, axpy_f32)
{
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	axpy_case(dev, &nd[0], 0, 1.0f, 0x5001);
	axpy_case(dev, &nd[0], 16, -0.7071068f, 0x5002);
	axpy_case(dev, &nd[0], 65536 + 48, 3.0e-3f, 0x5003);	/* every core */
	kohaku_close(dev);
}

/* softmax's stated bound (docs/spec/pool.md "SOFTMAX_F32") */
#define SM_REL	0x1p-13
#define SM_ABS	0x1p-120

static void softmax_case(kohaku_device *dev, const struct drm_kohaku_node *nd,
			 uint32_t l, uint32_t rows, uint32_t seed)
{
	size_t n = (size_t)l * rows;
	struct kohaku_inst inst;
	struct buf src, dst;
	float *in = malloc(4 * n + 4), *got = malloc(4 * n + 4);
	uint32_t bad = 0;

	REQUIRE(in && got);
	for (size_t i = 0; i < n; i++)
		in[i] = (float)((double)rnd(&seed) / 4294967296.0 * 60.0 - 30.0);
	REQUIRE(buf_new(dev, nd, 4 * n, 0, &src) == 0);
	REQUIRE(buf_new(dev, nd, 4 * n, 0, &dst) == 0);
	if (n)
		CHECK_EQ(kohaku_bo_write(dev, src.h, 0, in, 4 * n), 0);
	CHECK_EQ(kohaku_inst_pool_softmax_f32(&inst, src.a, dst.a, l, rows), 0);
	RUN_DONE(dev, nd, &inst);
	if (n)
		CHECK_EQ(kohaku_bo_read(dev, dst.h, 0, got, 4 * n), 0);
	for (uint32_t r = 0; r < rows; r++) {
		const float *s = in + (size_t)r * l;
		double m = s[0], sum = 0;

		for (uint32_t i = 0; i < l; i++)
			m = s[i] > m ? s[i] : m;
		for (uint32_t i = 0; i < l; i++)
			sum += exp((double)s[i] - m);
		for (uint32_t i = 0; i < l; i++) {
			double want = exp((double)s[i] - m) / sum;
			double err = fabs(got[(size_t)r * l + i] - want);

			if (!(err <= SM_REL * want + SM_ABS) && !bad++)
				CHECK_MSG(0, "softmax row %u [%u] = %.9g, want %.9g",
					  r, i, got[(size_t)r * l + i], want);
		}
	}
	free(in);
	free(got);
	buf_free(dev, &src);
	buf_free(dev, &dst);
}

TEST_F(rt, softmax_f32)
{
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	softmax_case(dev, &nd[0], 16, 1, 0x6001);
	softmax_case(dev, &nd[0], 1024, 9, 0x6002);	/* every core */
	softmax_case(dev, &nd[0], 48, 100, 0x6003);
	kohaku_close(dev);
}

static void copyu_case(kohaku_device *dev, const struct drm_kohaku_node *nd,
		       uint32_t so, uint32_t d, uint32_t len, uint32_t seed)
{
	const uint32_t margin = 64;
	struct kohaku_inst inst;
	struct buf src, dst;
	unsigned char *got = malloc(len + 2 * margin + 64);

	REQUIRE(got);
	REQUIRE(buf_new(dev, nd, so + len + 64, seed, &src) == 0);
	REQUIRE(buf_new(dev, nd, d + len + 2 * margin, seed + 1, &dst) == 0);
	CHECK_EQ(kohaku_inst_pool_copy_u(&inst, src.a + so, dst.a + margin + d,
					 len), 0);
	RUN_DONE(dev, nd, &inst);
	CHECK_EQ(kohaku_bo_read(dev, dst.h, 0, got, d + len + 2 * margin), 0);
	for (uint32_t i = 0; i < d + len + 2 * margin; i++) {
		unsigned char want = i >= margin + d && i < margin + d + len ?
				     src.host[so + i - margin - d] : dst.host[i];

		if (got[i] != want) {
			CHECK_MSG(0, "copyu %u bytes +%u -> +%u: byte %u", len,
				  so, d, i);
			break;
		}
	}
	free(got);
	buf_free(dev, &src);
	buf_free(dev, &dst);
}

TEST_F(rt, copy_u)
{
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	copyu_case(dev, &nd[0], 0, 0, 0, 0x7101);
	copyu_case(dev, &nd[0], 1, 2, 1, 0x7102);
	copyu_case(dev, &nd[0], 31, 33, 95, 0x7103);
	copyu_case(dev, &nd[0], 5, 60, 100003, 0x7104);	/* every core */
	kohaku_close(dev);
}

/* the vector kernels on every unit at once, each its own data */
TEST_F(rt, all_units_at_once_vector_kernels)
{
	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	struct kohaku_inst inst[RT_MAX_POOL][2];
	uint64_t job[RT_MAX_POOL];
	struct buf a[RT_MAX_POOL], x[RT_MAX_POOL], y[RT_MAX_POOL];
	struct buf s[RT_MAX_POOL], d[RT_MAX_POOL];
	struct kohaku_job_status st;
	struct kohaku_program p;
	const uint32_t m = 512, k = 128, len = 20001;

	for (unsigned int u = 0; u < n; u++) {
		REQUIRE(buf_new(dev, &nd[u], (size_t)m * k, 0xa000 + u, &a[u]) == 0);
		REQUIRE(buf_new(dev, &nd[u], k, 0xb000 + u, &x[u]) == 0);
		REQUIRE(buf_new(dev, &nd[u], (size_t)m * 4, 0, &y[u]) == 0);
		REQUIRE(buf_new(dev, &nd[u], len + 64, 0xc000 + u, &s[u]) == 0);
		REQUIRE(buf_new(dev, &nd[u], len + 64, 0xd000 + u, &d[u]) == 0);
		CHECK_EQ(kohaku_inst_pool_gemv_i8(&inst[u][0], a[u].a, x[u].a,
						  y[u].a, m, k), 0);
		CHECK_EQ(kohaku_inst_pool_copy_u(&inst[u][1], s[u].a + 7,
						 d[u].a + 3, len), 0);
		memset(&p, 0, sizeof(p));
		p.mesh = nd[u].mesh;
		p.x = nd[u].x;
		p.y = nd[u].y;
		p.n_insts = 2;
		p.insts = inst[u];
		REQUIRE(kohaku_submit(dev, &p, 1, 0, &job[u]) == 0);
	}
	for (unsigned int u = 0; u < n; u++) {
		unsigned char *got = malloc(len + 64);

		REQUIRE(got);
		CHECK_EQ(kohaku_wait(dev, job[u], 60000, &st, sizeof(st)), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		for (uint32_t i = 0; i < m; i++)
			if ((int32_t)read_u32(dev, &y[u], 4 * i) !=
			    gemv_ref(a[u].host, x[u].host, k, i)) {
				CHECK_MSG(0, "unit %u: gemv y[%u]", u, i);
				break;
			}
		CHECK_EQ(kohaku_bo_read(dev, d[u].h, 0, got, len + 64), 0);
		CHECK_MSG(!memcmp(got + 3, s[u].host + 7, len) &&
			  !memcmp(got, d[u].host, 3) &&
			  !memcmp(got + 3 + len, d[u].host + 3 + len, 61),
			  "unit %u: copyu differs", u);
		free(got);
		buf_free(dev, &a[u]);
		buf_free(dev, &x[u]);
		buf_free(dev, &y[u]);
		buf_free(dev, &s[u]);
		buf_free(dev, &d[u]);
	}
	check_diag("gemv %u x %u and copyu of %u bytes on %u units side by side",
		   m, k, len, n);
	kohaku_close(dev);
}

/*
 * Every unit at once, each on its own data: one job per unit in flight,
 * each a program of every data kernel, every result checked.
 */
enum { K_CRC, K_COPY, K_FILL, K_VADD, K_SUM, K_HIST, K_N };

struct unit_run {
	struct buf a, b, out[K_N];
	struct kohaku_inst inst[K_N];
	uint64_t job;
};

static void unit_prepare(kohaku_device *dev, const struct drm_kohaku_node *nd,
			 unsigned int u, size_t len, struct unit_run *r)
{
	static const size_t out_len[K_N] = { 32, 0, 0, 0, 32, 1024 };
	unsigned int k;

	REQUIRE(buf_new(dev, nd, len, 0x8000 + u, &r->a) == 0);
	REQUIRE(buf_new(dev, nd, len, 0x9000 + u, &r->b) == 0);
	for (k = 0; k < K_N; k++)
		REQUIRE(buf_new(dev, nd, out_len[k] ? out_len[k] : len, 0, &r->out[k]) == 0);
	CHECK_EQ(kohaku_inst_pool_crc32(&r->inst[K_CRC], r->a.a, r->out[K_CRC].a, len), 0);
	CHECK_EQ(kohaku_inst_pool_copy(&r->inst[K_COPY], r->a.a, r->out[K_COPY].a, len), 0);
	CHECK_EQ(kohaku_inst_pool_fill(&r->inst[K_FILL], r->out[K_FILL].a, 0x1000 + u, len), 0);
	CHECK_EQ(kohaku_inst_pool_vadd_i32(&r->inst[K_VADD], r->a.a, r->b.a,
					   r->out[K_VADD].a, len / 4), 0);
	CHECK_EQ(kohaku_inst_pool_sum_i64(&r->inst[K_SUM], r->a.a, r->out[K_SUM].a, len / 8), 0);
	CHECK_EQ(kohaku_inst_pool_hist256(&r->inst[K_HIST], r->a.a, r->out[K_HIST].a, len), 0);
}

static void unit_check(kohaku_device *dev, unsigned int u, size_t len,
		       struct unit_run *r)
{
	unsigned char *got = malloc(len);
	uint32_t hist[256] = { 0 }, h[256];
	uint64_t sum = 0, s;
	size_t i;

	REQUIRE(got);
	CHECK_EQ(read_u32(dev, &r->out[K_CRC], 0), (uint32_t)crc32(0, r->a.host, len));
	CHECK_EQ(kohaku_bo_read(dev, r->out[K_COPY].h, 0, got, len), 0);
	CHECK_MSG(!memcmp(got, r->a.host, len), "unit %u: copy differs", u);
	CHECK_EQ(kohaku_bo_read(dev, r->out[K_FILL].h, 0, got, len), 0);
	for (i = 0; i < len; i += 4) {
		uint32_t w;

		memcpy(&w, got + i, 4);
		if (w != 0x1000 + u) {
			CHECK_MSG(0, "unit %u: fill word %zu is 0x%x", u, i, w);
			break;
		}
	}
	CHECK_EQ(kohaku_bo_read(dev, r->out[K_VADD].h, 0, got, len), 0);
	for (i = 0; i < len; i += 4) {
		uint32_t x, y, z;

		memcpy(&x, r->a.host + i, 4);
		memcpy(&y, r->b.host + i, 4);
		memcpy(&z, got + i, 4);
		if (z != x + y) {
			CHECK_MSG(0, "unit %u: vadd element %zu", u, i / 4);
			break;
		}
	}
	for (i = 0; i < len; i += 8) {
		memcpy(&s, r->a.host + i, 8);
		sum += s;
	}
	CHECK_EQ(kohaku_bo_read(dev, r->out[K_SUM].h, 0, &s, 8), 0);
	CHECK_EQ(s, sum);
	for (i = 0; i < len; i++)
		hist[r->a.host[i]]++;
	CHECK_EQ(kohaku_bo_read(dev, r->out[K_HIST].h, 0, h, sizeof(h)), 0);
	CHECK_MSG(!memcmp(h, hist, sizeof(h)), "unit %u: hist differs", u);
	free(got);
	buf_free(dev, &r->a);
	buf_free(dev, &r->b);
	for (i = 0; i < K_N; i++)
		buf_free(dev, &r->out[i]);
}

TEST_F(rt, all_units_at_once_every_kernel)
{
	static struct unit_run run[RT_MAX_POOL];
	struct kohaku_job_status st;
	struct kohaku_program p;
	const size_t len = 16384;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (unsigned int i = 0; i < n; i++) {
		unit_prepare(dev, &nd[i], i, len, &run[i]);
		memset(&p, 0, sizeof(p));
		p.mesh = nd[i].mesh;
		p.x = nd[i].x;
		p.y = nd[i].y;
		p.n_insts = K_N;
		p.insts = run[i].inst;
		REQUIRE(kohaku_submit(dev, &p, 1, 0, &run[i].job) == 0);
	}
	for (unsigned int i = 0; i < n; i++) {
		CHECK_EQ(kohaku_wait(dev, run[i].job, 60000, &st, sizeof(st)), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		unit_check(dev, i, len, &run[i]);
	}
	check_diag("crc32, copy, fill, vadd, sum and hist of %zu bytes on %u units side by side",
		 len, n);
	kohaku_close(dev);
}

/*
 * One instruction with KOHAKU_SUBMIT_UNCHECKED (an administrator's): the
 * firmware's own refusals of arguments SUBMIT's check would refuse first
 * (addresses in no buffer of the file).
 */
static int run1_unchecked(kohaku_device *dev, const struct drm_kohaku_node *nd,
			  const struct kohaku_inst *inst, struct kohaku_job_status *st)
{
	struct kohaku_submit_args a;
	struct kohaku_program p;
	uint64_t job;
	int r;

	rt_prog_on(&p, nd, inst, 1);
	memset(&a, 0, sizeof(a));
	a.programs = &p;
	a.n_programs = 1;
	a.flags = KOHAKU_SUBMIT_UNCHECKED;
	r = kohaku_submit_ex(dev, &a, &job);
	return r ? r : kohaku_wait(dev, job, 20000, st, sizeof(*st));
}

/*
 * The firmware's own refusals: class firmware, the code named.  The
 * addresses are no buffer's (0, 4, 64, 0x10000, ...): the jobs go
 * KOHAKU_SUBMIT_UNCHECKED, an administrator's, so the firmware sees them.
 */
TEST_F(rt, bad_arguments_fault_with_the_firmwares_code)
{
	const uint32_t odd[7] = { 4, 0, 64, 0, 0, 0, 32 };	/* misaligned src */
	const uint32_t unk[7] = { 0 };
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	char d[160];
	int r;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	kohaku_inst_pool(&inst, KH_POOL_K_COPY, odd);
	r = run1_unchecked(dev, &nd[0], &inst, &st);
	if (r == -EPERM) {
		kohaku_close(dev);
		SKIP(return, "KOHAKU_SUBMIT_UNCHECKED is an administrator's");
	}
	CHECK_EQ(r, 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW, KH_POOL_FW_ARGS));
	check_diag("%s", kohaku_pool_fault_describe(st.fault_code, d, sizeof(d)));
	kohaku_inst_pool(&inst, 0x42, unk);
	CHECK_EQ(run1_unchecked(dev, &nd[0], &inst, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW, KH_POOL_FW_KERNEL));
	/* the checked builders refuse the same before the card sees them */
	CHECK_EQ(kohaku_inst_pool_copy(&inst, 4, 64, 32), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_vadd_i32(&inst, 0, 32, 64, 7), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_sum_i64(&inst, 0, 32, 6), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_trap(&inst, 8, 0), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_gemv_i8(&inst, 0, 32, 64, 96, 4), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_gemv_i8(&inst, 0, 32, 64, 64, 6), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_axpy_f32(&inst, 0, 64, 1.0f, 8), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_softmax_f32(&inst, 0, 64, 24, 1), -EINVAL);
	/* and the firmware's own refusals of the vector kernels */
	{
		/* GEMV: M 96; AXPY n 8; SOFTMAX L 2048; COPY_U words overlap */
		static const struct { unsigned int k; uint32_t w[7]; } bad[] = {
			{ KH_POOL_K_GEMV_I8, { 0, 0, 0x10000, 0, 0x20000, 0,
					       KH_POOL_GEMV_W6(96, 4) } },
			{ KH_POOL_K_AXPY_F32, { 0, 0, 0x10000, 0, 0, 0, 8 } },
			{ KH_POOL_K_SOFTMAX_F32, { 0, 0, 0x10000, 0, 2048, 0,
						   1 } },
			{ KH_POOL_K_COPY_U, { 3, 0, 20, 0, 0, 0, 5 } },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			kohaku_inst_pool(&inst, bad[i].k, bad[i].w);
			CHECK_EQ(run1_unchecked(dev, &nd[0], &inst, &st), 0);
			CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
			CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW,
							      KH_POOL_FW_ARGS));
		}
	}
	/* and the unit runs on */
	crc_case(dev, &nd[0], 100, 9);
	kohaku_close(dev);
}

/* a core that traps: core, cause and PC reported; the unit halted until reload */
TEST_F(rt, trap_reports_core_cause_pc)
{
	static const struct { unsigned int how, cause; } cases[] = {
		{ KH_POOL_TRAP_ILLEGAL, KH_POOL_CAUSE_ILLEGAL },
		{ KH_POOL_TRAP_MISALIGN, KH_POOL_CAUSE_LOAD_MISALIGNED },
		{ KH_POOL_TRAP_ACCESS, KH_POOL_CAUSE_LOAD_FAULT },
		{ KH_POOL_TRAP_EBREAK, KH_POOL_CAUSE_EBREAK },
		{ KH_POOL_TRAP_ECALL, KH_POOL_CAUSE_ECALL },
	};
	struct drm_kohaku_node *all;
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	unsigned int cnt, k;
	char d[160];

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int core = (3 + i) % KH_POOL_CORES;

		CHECK_EQ(kohaku_inst_pool_trap(&inst, core, cases[i].how), 0);
		CHECK_EQ(run1(dev, &nd[0], &inst, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(KH_POOL_FAULT_CLASS(st.fault_code), KH_POOL_CLASS_TRAP);
		CHECK_EQ(KH_POOL_FAULT_CORE(st.fault_code), core);
		CHECK_EQ(st.fault_code & 0xff, cases[i].cause);
		CHECK_EQ(st.fault_x, nd[0].x);
		CHECK_EQ(st.fault_y, nd[0].y);
		check_diag("%s", kohaku_pool_fault_describe(st.fault_code, d, sizeof(d)));
		/* TRAP read live: the same core and cause, a PC in IRAM */
		REQUIRE(kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &all, sizeof(*all), &cnt) == 0);
		for (k = 0; k < cnt; k++) {
			if (all[k].mesh != nd[0].mesh || all[k].x != nd[0].x ||
			    all[k].y != nd[0].y)
				continue;
			CHECK(all[k].fw_trap & KH_POOL_TRAP_VALID);
			CHECK_EQ(KH_POOL_TRAP_CORE(all[k].fw_trap), core);
			CHECK_EQ(KH_POOL_TRAP_CAUSE(all[k].fw_trap), cases[i].cause);
			CHECK(KH_POOL_TRAP_PC(all[k].fw_trap) < KH_POOL_IRAM_SIZE);
			check_diag("TRAP: core %u cause %u pc 0x%08x",
				 KH_POOL_TRAP_CORE(all[k].fw_trap),
				 KH_POOL_TRAP_CAUSE(all[k].fw_trap),
				 KH_POOL_TRAP_PC(all[k].fw_trap));
		}
		free(all);
		/* a halted cluster takes no more jobs ... */
		CHECK_EQ(kohaku_inst_pool_ping(&inst, 1), 0);
		CHECK_EQ(run1(dev, &nd[0], &inst, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_HALTED));
		/* ... until the firmware is loaded again */
		rt_fw_reload(dev);
		crc_case(dev, &nd[0], 777, 11);
	}
	kohaku_close(dev);
}

/* ---- what a POOL job may reach (ABI 0.8, docs/spec/pool.md) ---- */

#define PB	4096	/* each operand's BO */

/* an operand: @data bytes, @lead of them into its first 32-byte word */
struct pk_op {
	uint32_t data, lead;
	bool out;	/* written (its last word read first: the probe) */
	bool rw;	/* read and written (results, AXPY's y) */
};

/* a kernel with memory operands, at the sizes the reach tests use */
struct pk {
	const char *name;
	unsigned int k, n_ops;
	uint32_t w2, w4, w6;	/* FILL's pattern, AXPY's a or SOFTMAX's L, the count */
	struct pk_op op[3];
};

static const struct pk pks[] = {
	{ "COPY", KH_POOL_K_COPY, 2, 0, 0, 256,
	  { { 256, 0, false, false }, { 256, 0, true, false } } },
	{ "FILL", KH_POOL_K_FILL, 1, 0x5eed1234u, 0, 256,
	  { { 256, 0, true, false } } },
	{ "CRC32", KH_POOL_K_CRC32, 2, 0, 0, 100,
	  { { 100, 0, false, false }, { 32, 0, true, true } } },
	{ "VADD_I32", KH_POOL_K_VADD_I32, 3, 0, 0, 64,
	  { { 256, 0, false, false }, { 256, 0, false, false },
	    { 256, 0, true, false } } },
	{ "SUM_I64", KH_POOL_K_SUM_I64, 2, 0, 0, 32,
	  { { 256, 0, false, false }, { 32, 0, true, true } } },
	{ "HIST256", KH_POOL_K_HIST256, 2, 0, 0, 100,
	  { { 100, 0, false, false }, { 1024, 0, true, true } } },
	{ "GEMV_I8", KH_POOL_K_GEMV_I8, 3, 0, 0, KH_POOL_GEMV_W6(64, 4),
	  { { 256, 0, false, false }, { 4, 0, false, false },
	    { 256, 0, true, false } } },
	{ "AXPY_F32", KH_POOL_K_AXPY_F32, 2, 0, 0x3f400000u /* 0.75 */, 64,
	  { { 256, 0, false, false }, { 256, 0, true, true } } },
	{ "SOFTMAX_F32", KH_POOL_K_SOFTMAX_F32, 2, 0, 16, 4,
	  { { 256, 0, false, false }, { 256, 0, true, false } } },
	{ "COPY_U", KH_POOL_K_COPY_U, 2, 0, 0, 100,
	  { { 100, 3, false, false }, { 100, 5, true, false } } },
};
#define N_PK	(sizeof(pks) / sizeof(pks[0]))

static uint32_t pk_covered(const struct pk_op *o)
{
	return (o->lead + o->data + 31) & ~31u;
}

/* each operand's BO, its data placed so that its words end at the BO's end */
struct pk_run {
	struct buf b[3];
	struct buf nb[3];	/* with neighbours: a BO allocated right after each */
	uint64_t at[3];
};

static void pk_setup(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     const struct pk *k, uint32_t seed, bool neighbours,
		     struct pk_run *r)
{
	for (unsigned int j = 0; j < k->n_ops; j++) {
		const struct pk_op *o = &k->op[j];

		REQUIRE(buf_new(dev, nd, PB, seed + j, &r->b[j]) == 0);
		if (neighbours)
			REQUIRE(buf_new(dev, nd, PB, 0, &r->nb[j]) == 0);
		if (k->k == KH_POOL_K_SOFTMAX_F32 && !o->out) {
			float *f = (float *)(void *)(r->b[j].host + PB - 256);

			for (unsigned int i = 0; i < 64; i++)
				f[i] = (float)((double)rnd(&seed) / 4294967296.0 * 60.0 - 30.0);
		} else if (k->k == KH_POOL_K_AXPY_F32) {
			floats(r->b[j].host + PB - 256, 64, seed + j);
		}
		CHECK_EQ(kohaku_bo_write(dev, r->b[j].h, 0, r->b[j].host, PB), 0);
		r->at[j] = r->b[j].a + PB - pk_covered(o) + o->lead;
	}
}

static void pk_free(kohaku_device *dev, const struct pk *k, struct pk_run *r)
{
	for (unsigned int j = 0; j < k->n_ops; j++) {
		buf_free(dev, &r->b[j]);
		if (r->nb[j].h)
			buf_free(dev, &r->nb[j]);
	}
}

static void pk_inst(const struct pk *k, const uint64_t *at, struct kohaku_inst *in)
{
	uint32_t w[7] = { 0 };

	for (unsigned int j = 0; j < k->n_ops; j++) {
		w[2 * j] = (uint32_t)at[j];
		w[2 * j + 1] = (uint32_t)(at[j] >> 32);
	}
	if (k->k == KH_POOL_K_FILL)
		w[2] = k->w2;
	if (k->w4)
		w[4] = k->w4;
	w[6] = k->w6;
	kohaku_inst_pool(in, k->k, w);
}

/* SUBMIT a PING then the kernel (instruction 1), raw */
static int pk_submit(kohaku_device *dev, const struct drm_kohaku_node *nd,
		     const struct pk *k, const uint64_t *at, uint32_t flags,
		     const struct drm_kohaku_job_bo *bos, uint32_t n_bos,
		     struct drm_kohaku_submit *s)
{
	static struct kohaku_inst in[2];

	kohaku_inst_pool_ping(&in[0], 1);
	pk_inst(k, at, &in[1]);
	return rt_submit_on(dev, nd, in, 2, flags, bos, n_bos, s);
}

/* the list the kernel needs: inputs to read, outputs to write (and read) */
static void pk_list(const struct pk *k, const struct pk_run *r,
		    struct drm_kohaku_job_bo *bos)
{
	memset(bos, 0, 4 * sizeof(*bos));
	for (unsigned int j = 0; j < k->n_ops; j++) {
		bos[j].handle = r->b[j].h;
		bos[j].flags = k->op[j].out ? KOHAKU_JOB_BO_RW : KOHAKU_JOB_BO_READ;
	}
}

/* what the output operand's BO holds after the kernel ran (NULL: no reference) */
static bool pk_expect(const struct pk *k, const struct pk_run *r, unsigned char *e)
{
	const unsigned char *in0 = r->b[0].host + PB - pk_covered(&k->op[0]) + k->op[0].lead;
	const unsigned char *in1 = k->n_ops > 2 ? r->b[1].host + PB - pk_covered(&k->op[1]) : NULL;
	unsigned int o = k->n_ops - 1;
	unsigned char *out = e + PB - pk_covered(&k->op[o]) + k->op[o].lead;
	uint32_t v, x, y;
	uint64_t sum = 0, q;

	memcpy(e, r->b[o].host, PB);
	switch (k->k) {
	case KH_POOL_K_COPY:
	case KH_POOL_K_COPY_U:
		memcpy(out, in0, k->op[o].data);
		return true;
	case KH_POOL_K_FILL:
		for (unsigned int i = 0; i < 256; i += 4)
			memcpy(out + i, &k->w2, 4);
		return true;
	case KH_POOL_K_CRC32:
		memset(out, 0, 32);
		v = (uint32_t)crc32(0, in0, 100);
		memcpy(out, &v, 4);
		return true;
	case KH_POOL_K_VADD_I32:
		for (unsigned int i = 0; i < 256; i += 4) {
			memcpy(&x, in0 + i, 4);
			memcpy(&y, in1 + i, 4);
			v = x + y;
			memcpy(out + i, &v, 4);
		}
		return true;
	case KH_POOL_K_SUM_I64:
		for (unsigned int i = 0; i < 256; i += 8) {
			memcpy(&q, in0 + i, 8);
			sum += q;
		}
		memset(out, 0, 32);
		memcpy(out, &sum, 8);
		return true;
	case KH_POOL_K_HIST256: {
		uint32_t h[256] = { 0 };

		for (unsigned int i = 0; i < 100; i++)
			h[in0[i]]++;
		memcpy(out, h, sizeof(h));
		return true;
	}
	case KH_POOL_K_GEMV_I8:
		for (unsigned int i = 0; i < 64; i++) {
			int32_t g = gemv_ref(in0, in1, 4, i);

			memcpy(out + 4 * i, &g, 4);
		}
		return true;
	case KH_POOL_K_AXPY_F32: {
		float a, xf, yf, f;

		memcpy(&a, &k->w4, 4);
		for (unsigned int i = 0; i < 256; i += 4) {
			memcpy(&xf, in0 + i, 4);
			memcpy(&yf, out + i, 4);
			f = fmaf(a, xf, yf);
			memcpy(out + i, &f, 4);
		}
		return true;
	}
	}
	return false;	/* SOFTMAX_F32: no exact host reference */
}

/* every BO of a run as it is now, into one host copy */
static void pk_snap(kohaku_device *dev, const struct pk *k, const struct pk_run *r,
		    unsigned char *to)
{
	for (unsigned int j = 0; j < k->n_ops; j++)
		CHECK_EQ(kohaku_bo_read(dev, r->b[j].h, 0, to + (size_t)j * PB, PB), 0);
}

/*
 * Every kernel with memory operands, each operand in its own BO named with
 * the access the kernel makes (inputs READ; outputs READ|WRITE: their last
 * word is read first), the data ending at the BO's end: it runs, the
 * output's whole BO as the host computes it and the inputs unchanged
 * (SOFTMAX_F32, which has no exact host reference: byte for byte the same
 * job sent KOHAKU_SUBMIT_UNCHECKED by an administrator, and its bound).
 */
TEST_F(rt, reach_pool_inside_runs_bit_exact)
{
	struct drm_kohaku_job_bo bos[4];
	struct drm_kohaku_submit s;
	unsigned char *e, *got;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	/* after the skip: a card without POOL units leaks nothing */
	e = malloc(PB);
	got = malloc(3 * PB);
	REQUIRE(e && got);
	for (size_t i = 0; i < N_PK; i++) {
		const struct pk *k = &pks[i];
		unsigned int o = k->n_ops - 1;
		struct pk_run r;
		bool exact;

		memset(&r, 0, sizeof(r));
		pk_setup(dev, &nd[0], k, 0x100 * (i + 1), false, &r);
		pk_list(k, &r, bos);
		exact = pk_expect(k, &r, e);
		CHECK_OK(dev, pk_submit(dev, &nd[0], k, r.at, 0, bos, k->n_ops, &s));
		CHECK_EQ(s.refused_why, 0);
		{
			struct kohaku_job_status st;

			CHECK_OK(dev, kohaku_wait(dev, s.job_id, 20000, &st, sizeof(st)));
			CHECK_MSG(st.status == KOHAKU_JOB_DONE, "%s: %s", k->name,
				  kohaku_job_status_name(st.status));
		}
		pk_snap(dev, k, &r, got);
		for (unsigned int j = 0; j < o; j++)
			CHECK_MSG(!memcmp(got + (size_t)j * PB, r.b[j].host, PB),
				  "%s: input %u changed", k->name, j);
		if (exact) {
			CHECK_MSG(!memcmp(got + (size_t)o * PB, e, PB),
				  "%s: the output's BO differs from the host's", k->name);
		} else {
			/* SOFTMAX_F32: within its bound, and as an unchecked run */
			const float *in = (const float *)(const void *)(r.b[0].host + PB - 256);
			const float *y = (const float *)(const void *)(got + (size_t)o * PB + PB - 256);
			struct kohaku_job_status st;
			struct kohaku_inst in2;
			uint64_t at2[3];

			for (unsigned int row = 0; row < 4; row++) {
				double m = in[16 * row], sum = 0;

				for (unsigned int c = 0; c < 16; c++)
					m = in[16 * row + c] > m ? in[16 * row + c] : m;
				for (unsigned int c = 0; c < 16; c++)
					sum += exp((double)in[16 * row + c] - m);
				for (unsigned int c = 0; c < 16; c++) {
					double want = exp((double)in[16 * row + c] - m) / sum;

					CHECK(fabs(y[16 * row + c] - want) <= SM_REL * want + SM_ABS);
				}
			}
			CHECK(!memcmp(got + (size_t)o * PB, r.b[o].host, PB - 256));
			/* the same job again, into a fresh output, unchecked */
			CHECK_EQ(kohaku_bo_write(dev, r.b[o].h, 0, r.b[o].host, PB), 0);
			at2[0] = r.at[0];
			at2[1] = r.at[1];
			pk_inst(k, at2, &in2);
			if (run1_unchecked(dev, &nd[0], &in2, &st) == 0) {
				CHECK_EQ(st.status, KOHAKU_JOB_DONE);
				CHECK_EQ(kohaku_bo_read(dev, r.b[o].h, 0, e, PB), 0);
				CHECK_MSG(!memcmp(got + (size_t)o * PB, e, PB),
					  "SOFTMAX_F32: checked and unchecked runs differ");
			} else {
				check_diag("SOFTMAX_F32: not an administrator, no unchecked run to compare");
			}
		}
		pk_free(dev, k, &r);
	}
	free(e);
	free(got);
	kohaku_close(dev);
}

/* refused EACCES at instruction 1 with these fields */
static void pk_refused(const struct pk *k, const struct drm_kohaku_submit *s,
		       int ret, uint32_t why, uint32_t op, uint64_t addr,
		       uint64_t len, const char *what)
{
	CHECK_MSG(ret == -EACCES, "%s %s: SUBMIT %d", k->name, what, ret);
	CHECK_MSG(s->refused_why == why && s->refused_program == 0 &&
		  s->refused_inst == 1 && s->refused_operand == op &&
		  s->refused_addr == addr && s->refused_len == len,
		  "%s %s: why %u program %u inst %u operand %u addr 0x%llx len %llu; "
		  "want why %u operand %u addr 0x%llx len %llu", k->name, what,
		  s->refused_why, s->refused_program, s->refused_inst,
		  s->refused_operand, (unsigned long long)s->refused_addr,
		  (unsigned long long)s->refused_len, why, op,
		  (unsigned long long)addr, (unsigned long long)len);
}

/*
 * Each memory operand of each kernel: one byte past its buffer, in
 * another file's buffer, in a buffer named without the access the kernel
 * makes there (an output named read-only, an input named write-only),
 * spanning its buffer and the next one of the file, at an address whose
 * range wraps; each refused EACCES with the refused_* fields as
 * docs/spec/pool.md's table says, nothing sent to the card (the mesh's
 * job count and every buffer unchanged).  And two the table singles out:
 * COPY's destination named write-only (its last word is read: the probe),
 * SOFTMAX_F32's length L x rows x 4 past 64 bits.
 */
TEST_F(rt, reach_pool_refused_nothing_sent)
{
	struct drm_kohaku_job_bo bos[4];
	struct drm_kohaku_submit s;
	kohaku_device *other = NULL;
	unsigned char *before, *after;
	unsigned int spans = 0, tried = 0;
	uint64_t done0;
	int ret;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	before = malloc(8 * PB);
	after = malloc(8 * PB);
	REQUIRE(before && after);
	CHECK_OK(dev, kohaku_reopen(dev, &other));
	REQUIRE(other);
	done0 = rt_jobs_done(dev, nd[0].mesh);
	for (size_t i = 0; i < N_PK; i++) {
		const struct pk *k = &pks[i];
		struct pk_run r, o;

		memset(&r, 0, sizeof(r));
		memset(&o, 0, sizeof(o));
		pk_setup(dev, &nd[0], k, 0x1000 * (i + 1), true, &r);
		pk_setup(other, &nd[0], k, 0x2000 * (i + 1), false, &o);
		pk_snap(dev, k, &r, before);
		pk_snap(other, k, &o, before + 3 * PB);
		for (unsigned int j = 0; j < k->n_ops; j++) {
			const struct pk_op *op = &k->op[j];
			uint64_t at[3], a;
			uint32_t len = op->data;

			memcpy(at, r.at, sizeof(at));
			/* one byte past the end of its BO */
			pk_list(k, &r, bos);
			a = r.b[j].a + PB - len + 1;
			at[j] = a;
			ret = pk_submit(dev, &nd[0], k, at, 0, bos, k->n_ops, &s);
			pk_refused(k, &s, ret, KOHAKU_REFUSED_OUTSIDE, j, a, len, "one byte out");
			/* the other file's BO, all of this file's named */
			at[j] = o.at[j];
			ret = pk_submit(dev, &nd[0], k, at, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
			pk_refused(k, &s, ret, KOHAKU_REFUSED_OUTSIDE, j, o.at[j], len,
				   "other file");
			at[j] = r.at[j];
			/* named without the access: outputs read-only, inputs write-only */
			bos[j].flags = op->out ? KOHAKU_JOB_BO_READ : KOHAKU_JOB_BO_WRITE;
			ret = pk_submit(dev, &nd[0], k, at, 0, bos, k->n_ops, &s);
			pk_refused(k, &s, ret, KOHAKU_REFUSED_INTENT, j, r.at[j], len,
				   op->out ? "read-only, written" : "write-only, read");
			pk_list(k, &r, bos);
			/* half in its BO, half in the next one of the file, both named */
			tried++;
			spans += r.nb[j].a == r.b[j].a + PB;
			bos[k->n_ops].handle = r.nb[j].h;
			bos[k->n_ops].flags = KOHAKU_JOB_BO_RW;
			a = r.b[j].a + PB - len / 2;
			at[j] = a;
			ret = pk_submit(dev, &nd[0], k, at, 0, bos, k->n_ops + 1, &s);
			pk_refused(k, &s, ret, KOHAKU_REFUSED_OUTSIDE, j, a, len, "spanning");
			/* half below the top of the address space, half past it */
			a = 0 - (uint64_t)(len / 2);
			at[j] = a;
			ret = pk_submit(dev, &nd[0], k, at, KOHAKU_SUBMIT_FILE_BOS, NULL, 0, &s);
			pk_refused(k, &s, ret, KOHAKU_REFUSED_WRAPS, j, a, len, "wraps");
		}
		if (k->k == KH_POOL_K_COPY) {
			/* the destination's last word is read first (the probe) */
			pk_list(k, &r, bos);
			bos[1].flags = KOHAKU_JOB_BO_WRITE;
			ret = pk_submit(dev, &nd[0], k, r.at, 0, bos, 2, &s);
			pk_refused(k, &s, ret, KOHAKU_REFUSED_INTENT, 1, r.at[1] + 256 - 32, 32,
				   "dst write-only, its last word read");
		}
		if (k->k == KH_POOL_K_SOFTMAX_F32) {
			/* L x rows x 4 bytes past 64 bits, from inside a BO */
			struct pk big = *k;

			big.w4 = 0xffffffffu;
			big.w6 = 0xffffffffu;
			ret = pk_submit(dev, &nd[0], &big, r.at, KOHAKU_SUBMIT_FILE_BOS,
					NULL, 0, &s);
			pk_refused(&big, &s, ret, KOHAKU_REFUSED_WRAPS, 0, r.at[0], ~0ull,
				   "length past 64 bits");
		}
		pk_snap(dev, k, &r, after);
		pk_snap(other, k, &o, after + 3 * PB);
		CHECK_MSG(!memcmp(before, after, (size_t)k->n_ops * PB),
			  "%s: a refused job changed this file's memory", k->name);
		CHECK_MSG(!memcmp(before + 3 * PB, after + 3 * PB, (size_t)k->n_ops * PB),
			  "%s: a refused job changed the other file's memory", k->name);
		pk_free(dev, k, &r);
		pk_free(other, k, &o);
	}
	CHECK_EQ(rt_jobs_done(dev, nd[0].mesh), done0);
	check_diag("%u of %u spanning cases had the next BO adjacent", spans, tried);
	free(before);
	free(after);
	kohaku_close(other);
	kohaku_close(dev);
}

/*
 * What the driver cannot tell the reach of is an administrator's: a kernel
 * id API 1.1 does not define, LOAD (the firmware loader's, never through
 * SUBMIT), an opcode the API does not define; refused for anyone else,
 * refused_inst naming it.  PING, DELAY and TRAP reach no memory and run
 * for anyone (TRAP with core 8: the firmware refuses it, nothing traps).
 */
TEST_F(rt, reach_pool_unknown_kernel_load_opcode_need_admin)
{
	static const uint32_t zero[7];
	struct drm_kohaku_submit s;
	struct kohaku_job_status st;
	struct drm_kohaku_program p;
	struct kohaku_inst in[2];
	kohaku_device *u = NULL;
	/* the whole run unprivileged (KOHAKU_UNPRIVILEGED=1 exported): no administrator */
	const char *e = getenv("KOHAKU_UNPRIVILEGED");
	bool admin = !(e && *e && strcmp(e, "0"));
	uint64_t done0;

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	u = rt_reopen_unprivileged(dev);
	REQUIRE(u);
	memset(&p, 0, sizeof(p));
	p.mesh = nd[0].mesh;
	p.x = nd[0].x;
	p.y = nd[0].y;
	p.n_insts = 2;
	p.insts_ptr = (uintptr_t)in;
	memset(&s, 0, sizeof(s));
	s.n_programs = 1;
	s.programs_ptr = (uintptr_t)&p;
	s.program_size = sizeof(p);
	done0 = rt_jobs_done(u, nd[0].mesh);
	for (unsigned int c = 0; c < 3; c++) {
		kohaku_inst_pool_ping(&in[0], 1);
		kohaku_inst_pool(&in[1], c == 0 ? 0x42 : 0, zero);
		if (c == 1)	/* LOAD of 32 bytes into IRAM from address 0 */
			kh_pool_set_w(in[1].w, 7, KH_POOL_W7(KH_POOL_OP_LOAD, KH_POOL_BUF_IRAM));
		if (c == 1)
			kh_pool_set_w(in[1].w, KH_POOL_LOAD_W_LEN, 32);
		if (c == 2)
			kh_pool_set_w(in[1].w, 7, KH_POOL_W7(0x3, KH_POOL_K_PING));
		s.flags = KOHAKU_SUBMIT_FILE_BOS;
		CHECK_ERR(rt_ioctl(u, DRM_IOCTL_KOHAKU_SUBMIT, &s), -EACCES);
		CHECK_EQ(s.refused_why, KOHAKU_REFUSED_UNCHECKABLE);
		CHECK_EQ(s.refused_program, 0);
		CHECK_EQ(s.refused_inst, 1);
		CHECK_EQ(s.refused_operand, 0);
		CHECK_EQ(s.refused_addr, 0);
		CHECK_EQ(s.refused_len, 0);
	}
	CHECK_EQ(rt_jobs_done(u, nd[0].mesh), done0);
	/* the administrator's unknown kernel reaches the firmware: FW_KERNEL */
	kohaku_inst_pool(&in[0], 0x42, zero);
	p.n_insts = 1;
	s.flags = KOHAKU_SUBMIT_FILE_BOS;
	if (admin) {
		CHECK_OK(dev, rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, &s));
		CHECK_OK(dev, kohaku_wait(dev, s.job_id, 20000, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW, KH_POOL_FW_KERNEL));
	} else {
		check_diag("not an administrator: the unknown kernel's run is skipped");
	}
	/* no memory: anyone's */
	kohaku_inst_pool_ping(&in[0], 7);
	CHECK_EQ(kohaku_inst_pool_delay(&in[1], 1000), 0);
	p.n_insts = 2;
	CHECK_OK(u, rt_ioctl(u, DRM_IOCTL_KOHAKU_SUBMIT, &s));
	CHECK_OK(u, kohaku_wait(u, s.job_id, 20000, &st, sizeof(st)));
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	{
		const uint32_t t[7] = { 0, 0, 0, 0, 0, KH_POOL_TRAP_EBREAK, 8 };

		kohaku_inst_pool(&in[0], KH_POOL_K_TRAP, t);
		p.n_insts = 1;
		CHECK_OK(u, rt_ioctl(u, DRM_IOCTL_KOHAKU_SUBMIT, &s));
		CHECK_OK(u, kohaku_wait(u, s.job_id, 20000, &st, sizeof(st)));
		CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
		CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW, KH_POOL_FW_ARGS));
	}
	/* FW_LOAD is an administrator's: EACCES, as DRM_ROOT_ONLY answers */
	{
		struct drm_kohaku_fw_load fl;

		memset(&fl, 0, sizeof(fl));
		CHECK_ERR(rt_ioctl(u, DRM_IOCTL_KOHAKU_FW_LOAD, &fl), -EACCES);
	}
	kohaku_close(u);
	kohaku_close(dev);
}

RT_TEST_MAIN
