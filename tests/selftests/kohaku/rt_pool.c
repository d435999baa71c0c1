// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware's kernels (API 1.0) through the whole stack: every
 * built-in kernel on one unit and on all of them at once, each result
 * checked against the host's own computation (zlib's crc32 for CRC32),
 * sizes from nothing to more than all eight cores' share; argument rules
 * refused by the firmware with its fault code; a trap reported with core,
 * cause and PC, the unit refusing jobs until the firmware is reloaded.
 * Skips on cards without POOL units.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	REQUIRE(kohaku_fw_info(dev, &fi) == 0);
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
		CHECK_EQ(kohaku_wait(dev, run[i].job, 60000, &st), 0);
		CHECK_EQ(st.status, KOHAKU_JOB_DONE);
		unit_check(dev, i, len, &run[i]);
	}
	check_diag("crc32, copy, fill, vadd, sum and hist of %zu bytes on %u units side by side",
		 len, n);
	kohaku_close(dev);
}

/* the firmware's own refusals: class firmware, the code named */
TEST_F(rt, bad_arguments_fault_with_the_firmwares_code)
{
	const uint32_t odd[7] = { 4, 0, 64, 0, 0, 0, 32 };	/* misaligned src */
	const uint32_t unk[7] = { 0 };
	struct kohaku_job_status st;
	struct kohaku_inst inst;
	char d[160];

	RT_OPEN(dev);
	RT_NEED_POOL(dev, nd, n);
	kohaku_inst_pool(&inst, KH_POOL_K_COPY, odd);
	CHECK_EQ(run1(dev, &nd[0], &inst, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW, KH_POOL_FW_ARGS));
	check_diag("%s", kohaku_pool_fault_describe(st.fault_code, d, sizeof(d)));
	kohaku_inst_pool(&inst, 0x42, unk);
	CHECK_EQ(run1(dev, &nd[0], &inst, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_code, KH_POOL_FAULT(KH_POOL_CLASS_FW, KH_POOL_FW_KERNEL));
	/* the checked builders refuse the same before the card sees them */
	CHECK_EQ(kohaku_inst_pool_copy(&inst, 4, 64, 32), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_vadd_i32(&inst, 0, 32, 64, 7), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_sum_i64(&inst, 0, 32, 6), -EINVAL);
	CHECK_EQ(kohaku_inst_pool_trap(&inst, 8, 0), -EINVAL);
	/* and the unit runs on */
	crc_case(dev, &nd[0], 100, 9);
	kohaku_close(dev);
}

static void reload(kohaku_device *dev)
{
	struct drm_kohaku_fw_load out;
	const unsigned char *img;
	size_t len;

	img = rt_fw_image(&len);
	REQUIRE(img);
	CHECK_EQ(kohaku_fw_load(dev, img, len, 0, &out), 0);
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
		REQUIRE(kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &all, &cnt) == 0);
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
		reload(dev);
		crc_case(dev, &nd[0], 777, 11);
	}
	kohaku_close(dev);
}

RT_TEST_MAIN
