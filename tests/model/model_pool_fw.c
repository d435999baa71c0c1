// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL firmware (firmware/) on the POOL unit model, through the mesh
 * as the driver does it (docs/spec/firmware-image.md "How the driver
 * boots it"): every core held in run-stall and reset, the image's
 * sections loaded with CU_DATA bursts, the mailbox zeroed, RESET_PC =
 * entry, released, BOOT polled for READY, CLAIM written as one CU_DATA
 * word, the versions read back.  Then every kernel of firmware API 1.0
 * (docs/spec/pool.md) with its results checked against the host's
 * computation at small, odd and all-eight-core sizes, the argument
 * faults, TRAP's reports, a queue of jobs, the two test firmwares, the
 * rogue one under the unit's bounds, and the figures firmware/README.md
 * quotes (check_diag lines).
 *
 * The image: $KOHAKU_TEST_FW (tests/run-all.sh sets it), else
 * build/firmware/pool.fw; the test images in test/ beside it.  Missing,
 * it is a failure where the riscv toolchain is installed (make test
 * builds the firmware), a loud skip where it is not.
 */
#include <math.h>
#include <unistd.h>
#include "mmesh.h"
#include "units/pool/pool.h"
#include <kohaku/kh_pool.h>
#include <kohaku/kh_fw.h>
#include "harness.h"

CHECK_FIXTURE(model)

/* the unit under test: (1, 0) of pf_map; a test may move it */
static unsigned int pf_ux = 1, pf_uy;
#define DRAM_MIB 64
#define GUARD	64		/* bytes past an output that must not change */

/* DRAM areas (mesh 0 local addresses) */
#define A_BASE	0x0100000ULL
#define B_BASE	0x0900000ULL
#define C_BASE	0x1100000ULL
#define R_BASE	0x1900000ULL

static const char pf_map[] =
	"param dram_mib 64\n"
	"xxx gp  xxx\n"
	"mag nul nul\n"
	"xxx nul xxx\n";

struct pf_image {
	u8 *buf;
	size_t len;
	char path[4096];
};

static u64 rng = 0x9e3779b97f4a7c15ULL;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static u32 get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static u16 get16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

/* ---- the image ---- */

static const char *pf_fw_path(void)
{
	const char *e = getenv("KOHAKU_TEST_FW");

	return e && *e ? e : "build/firmware/pool.fw";
}

static bool pf_have_toolchain(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);

		snprintf(buf, sizeof(buf), "%.*s/riscv64-unknown-elf-gcc",
			 (int)n, path);
		if (!access(buf, X_OK))
			return true;
		path = end ? end + 1 : NULL;
	}
	return false;
}

/* Read an image: 0, or 1 to skip (no toolchain), or -1 (a failure). */
static int pf_load_file(struct pf_image *im, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	snprintf(im->path, sizeof(im->path), "%s", path);
	im->buf = NULL;
	if (!f)
		return pf_have_toolchain() ? -1 : 1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	im->buf = malloc(n > 0 ? n : 1);
	im->len = n > 0 && im->buf ? fread(im->buf, 1, n, f) : 0;
	fclose(f);
	if (im->len < KH_FW_HEADER_SIZE ||
	    get32(im->buf + offsetof(struct kh_fw_header, magic)) !=
	    KH_FW_MAGIC)
		return -1;
	return 0;
}

/* the image, or a skip / failure reported; true to go on */
static bool pf_image(struct pf_image *im, const char *name)
{
	char path[4096];
	const char *fw = pf_fw_path();
	int r;

	if (!name) {
		snprintf(path, sizeof(path), "%s", fw);
	} else {
		const char *slash = strrchr(fw, '/');

		snprintf(path, sizeof(path), "%.*stest/%s",
			 slash ? (int)(slash - fw + 1) : 0, fw, name);
	}
	r = pf_load_file(im, path);
	if (r > 0) {
		check_diag("no firmware image %s and no riscv64-unknown-elf-gcc: make deps && make firmware",
			 path);
		check_skip("no POOL firmware image (no riscv toolchain)");
		return false;
	}
	if (r < 0) {
		CHECK_MSG(0, "%s: missing or not an image (make firmware)",
			  path);
		free(im->buf);
		return false;
	}
	return true;
}

static u32 pf_hdr32(const struct pf_image *im, size_t off)
{
	return get32(im->buf + off);
}

/* the 32-bit word at IRAM address pc in the image, or ~0 */
static u32 pf_iram_word(const struct pf_image *im, u32 pc)
{
	unsigned int n = get16(im->buf + offsetof(struct kh_fw_header,
						  n_sections)), i;

	for (i = 0; i < n; i++) {
		const u8 *r = im->buf + KH_FW_HEADER_SIZE +
			      i * KH_FW_SECTION_SIZE;
		u32 dest = get32(r + offsetof(struct kh_fw_section, dest));
		u32 size = get32(r + offsetof(struct kh_fw_section, size));
		u32 foff = get32(r + offsetof(struct kh_fw_section,
					      file_offset));

		if (r[0] == KH_FW_T_IRAM && pc >= dest && pc - dest < size &&
		    !(r[1] & KH_FW_S_ZERO))
			return get32(im->buf + foff + pc - dest);
	}
	return ~0u;
}

/* ---- the unit through the mesh ---- */

static void pf_send(struct ksim_card *c, const struct kh_flit *f)
{
	unsigned int i;

	for (i = 0; i < 100000; i++)
		if (!(mh_rd(c, KH_ORC_TX_STATUS) & KH_TX_STATUS_FULL))
			break;
	mh_mb_send(c, f);
}

static u64 pf_rd(struct ksim_card *c, unsigned int idx)
{
	return mm_ctrl_rd(c, 0, pf_ux, pf_uy, idx);
}

static u64 pf_wr(struct ksim_card *c, unsigned int idx, u64 v)
{
	return mm_ctrl_wr(c, 0, pf_ux, pf_uy, idx, v);
}

/* One CU_DATA burst of n data flits (1..256) from data. */
static void pf_burst(struct ksim_card *c, unsigned int buf, u32 granule,
		     const u8 *data, unsigned int n, bool signal)
{
	struct kh_flit f;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, pf_ux, pf_uy, 0, 0, KH_T_CU_DATA, 0x21, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, granule);
	kh_flit_set(&f, KH_DATA_LEN, n - 1);
	kh_flit_set(&f, KH_DATA_FLAGS, signal ? KH_DATAF_SIGNAL : 0);
	pf_send(c, &f);
	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, pf_ux, pf_uy, 0, 0, KH_T_CU_DATA, 0x21, i + 1 == n);
		if (data)
			memcpy(f.w, data + i * KH_FW_ALIGN, KH_FW_ALIGN);
		pf_send(c, &f);
	}
}

/* Write one 32-bit word of core `core`'s DataRAM (the mailbox path). */
static void pf_word(struct ksim_card *c, unsigned int core, u32 word, u32 v)
{
	u8 d[KH_FW_ALIGN] = { 0 };

	memcpy(d, &v, 4);
	pf_burst(c, KH_POOL_BUF_WORD(core), word, d, 1, false);
}

/* Load `size` bytes (or zeros) at byte `dest` of a buffer, and wait. */
static void pf_load(struct ksim_card *c, unsigned int buf, u32 dest,
		    const u8 *data, u32 size)
{
	unsigned int base = KH_NS_COUNT(mh_ns(c, pf_ux, pf_uy)), bursts = 0;
	u32 done = 0;
	u64 ns;

	while (done < size) {
		u32 n = (size - done) / KH_FW_ALIGN;

		if (n > 256)
			n = 256;
		bursts++;
		pf_burst(c, buf, (dest + done) / KH_FW_ALIGN,
			 data ? data + done : NULL, n, true);
		done += n * KH_FW_ALIGN;
	}
	CHECK_MSG(mh_wait_count(c, pf_ux, pf_uy, base + bursts, 100000),
		  "buffer %u: %u bursts not signalled", buf, bursts);
	ns = mh_ns(c, pf_ux, pf_uy);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(KH_NS_ARG(ns), buf);
}

struct pf_boot {
	u64 cycles;		/* release to READY seen */
	u32 fw_version, api;
};

/*
 * Boot an image as the driver does; true when READY came and the
 * versions agree with the header.  `expect_ready` false: check that
 * READY does not come within a generous time instead.
 */
static bool pf_boot(struct ksim_card *c, const struct pf_image *im,
		    struct pf_boot *b, bool expect_ready)
{
	unsigned int n = get16(im->buf + offsetof(struct kh_fw_header,
						  n_sections)), i, k;
	u64 t0, v = 0;

	pf_wr(c, KH_CTRL_IDX_POOL_RUNSTALL,
	      KH_POOL_STALL_ALL | KH_POOL_RESET_ALL);
	for (i = 0; i < n; i++) {
		const u8 *r = im->buf + KH_FW_HEADER_SIZE +
			      i * KH_FW_SECTION_SIZE;
		u32 dest = get32(r + offsetof(struct kh_fw_section, dest));
		u32 size = get32(r + offsetof(struct kh_fw_section, size));
		u32 foff = get32(r + offsetof(struct kh_fw_section,
					      file_offset));
		const u8 *data = r[1] & KH_FW_S_ZERO ? NULL : im->buf + foff;

		if (r[0] == KH_FW_T_IRAM)
			pf_load(c, KH_POOL_BUF_IRAM, dest, data, size);
		for (k = 0; k < KH_POOL_CORES; k++)
			if (r[0] == KH_FW_T_DATARAM_ALL ||
			    r[0] == KH_FW_T_DATARAM(k))
				pf_load(c, KH_POOL_BUF_DATARAM(k), dest, data,
					size);
	}
	for (k = 0; k < 3; k++)
		pf_word(c, 0, k, 0);
	pf_wr(c, KH_CTRL_IDX_POOL_RESET_PC,
	      pf_hdr32(im, offsetof(struct kh_fw_header, entry)));
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_RESET_PC),
		 pf_hdr32(im, offsetof(struct kh_fw_header, entry)));
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_BOOT), 0);
	pf_wr(c, KH_CTRL_IDX_POOL_RUNSTALL, KH_POOL_STALL_ALL);
	pf_wr(c, KH_CTRL_IDX_POOL_RUNSTALL, 0);
	t0 = ksim_cycles(c);
	for (i = 0; i < 2000; i++) {
		v = pf_rd(c, KH_CTRL_IDX_POOL_BOOT);
		if (v == KH_POOL_BOOT_READY)
			break;
		ksim_run(c, 4);
	}
	b->cycles = ksim_cycles(c) - t0;
	if (!expect_ready) {
		CHECK_MSG(v != KH_POOL_BOOT_READY,
			  "%s: READY after %llu cycles", im->path,
			  (unsigned long long)b->cycles);
		return false;
	}
	CHECK_MSG(v == KH_POOL_BOOT_READY, "%s: BOOT 0x%llx, no READY",
		  im->path, (unsigned long long)v);
	if (v != KH_POOL_BOOT_READY)
		return false;
	pf_word(c, 0, KH_POOL_MBOX_BOOT, KH_POOL_BOOT_CLAIM);
	b->fw_version = (u32)pf_rd(c, KH_CTRL_IDX_POOL_FW_VERSION);
	b->api = (u32)pf_rd(c, KH_CTRL_IDX_POOL_API_VERSION);
	CHECK_EQ(b->fw_version,
		 pf_hdr32(im, offsetof(struct kh_fw_header, fw_version)));
	CHECK_EQ(b->api, KH_POOL_API(KH_POOL_API_MAJOR, KH_POOL_API_MINOR));
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_BOOT), KH_POOL_BOOT_CLAIM);
	/*
	 * Booted with no region enabled (power-on): a firmware reaches DRAM
	 * for a job only (pool.md "Memory for a job only"), so nothing was
	 * refused.  Then the jobs of these tests run unbounded, as the
	 * driver runs a job it does not check (BOUNDS_EN [31]); the bounds
	 * with regions are rogue_firmware_bounded's.
	 */
	ksim_run(c, 2000);
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_BOUNDS_FAULT), 0);
	pf_wr(c, KH_CTRL_IDX_POOL_BOUNDS_EN, KH_POOL_BOUNDS_ALL);
	return b->fw_version ==
	       pf_hdr32(im, offsetof(struct kh_fw_header, fw_version));
}

/* A card with the firmware booted; NULL after a skip or a failure. */
static struct ksim_card *pf_up(struct pf_image *im)
{
	struct ksim_card *c;
	struct pf_boot b;

	if (!pf_image(im, NULL))
		return NULL;
	c = mh_card(pf_map);
	if (!c) {
		CHECK_MSG(0, "no card from the POOL map");
		free(im->buf);
		return NULL;
	}
	mh_fast_host(c);
	if (!pf_boot(c, im, &b, true)) {
		ksim_card_destroy(c);
		free(im->buf);
		return NULL;
	}
	return c;
}

static void pf_down(struct ksim_card *c, struct pf_image *im)
{
	u64 st = pf_rd(c, KH_CTRL_IDX_POOL_STATE);

	ksim_card_destroy(c);
	free(im->buf);
	(void)st;
}

struct pf_run {
	u64 ns;		/* NODE_STATUS after the job */
	u64 busy;	/* the unit's busy cycles for it */
	u64 insts;	/* CU_DBG: instructions the cores executed for it */
};

static void pf_inst(struct kh_flit *f, const u32 w[8], unsigned int txn)
{
	unsigned int k;

	memset(f, 0, sizeof(*f));
	kh_flit_hdr(f, pf_ux, pf_uy, 0, 0, KH_T_CU_INST, txn, 0);
	for (k = 0; k < 8; k++)
		f->w[k / 2] |= (u64)w[k] << (32 * (k % 2));
}

/* Send one job and wait for its signal. */
static u64 pf_job(struct ksim_card *c, const u32 w[8], struct pf_run *run)
{
	unsigned int base = KH_NS_COUNT(mh_ns(c, pf_ux, pf_uy));
	struct ksim_unit_stats s0, s1;
	u64 d0 = pf_rd(c, KH_CTRL_IDX_DBG);
	struct kh_flit f;
	unsigned int i;
	bool done = false;

	ksim_unit_stats(c, 0, pf_ux, pf_uy, &s0);
	pf_inst(&f, w, 0x40);
	pf_send(c, &f);
	for (i = 0; i < 2000000 && !done; i++) {
		ksim_run(c, 64);
		done = KH_NS_COUNT(mh_ns(c, pf_ux, pf_uy)) == ((base + 1) & 0xffff);
	}
	CHECK_MSG(done, "job w7 0x%08x: no signal", w[7]);
	ksim_unit_stats(c, 0, pf_ux, pf_uy, &s1);
	if (run) {
		run->ns = mh_ns(c, pf_ux, pf_uy);
		run->busy = s1.busy_cycles - s0.busy_cycles;
		run->insts = pf_rd(c, KH_CTRL_IDX_DBG) - d0;
	}
	return mh_ns(c, pf_ux, pf_uy);
}

static void pf_w(u32 w[8], unsigned int kernel)
{
	memset(w, 0, 8 * sizeof(u32));
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, kernel);
}

static void pf_addr(u32 w[8], unsigned int lo, u64 local)
{
	u64 a = KH_MADDR(0, local);

	w[lo] = (u32)a;
	w[lo + 1] = (u32)(a >> 32);
}

/* expect success with result r (-1: any) */
static void pf_ok(u64 ns, long long r, const char *what)
{
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_INST_COMPLETE,
		  "%s: signal 0x%x arg 0x%08x", what, KH_NS_CODE(ns),
		  KH_NS_ARG(ns));
	if (r >= 0)
		CHECK_MSG(KH_NS_ARG(ns) == (u32)r, "%s: result 0x%08x, want 0x%08x",
			  what, KH_NS_ARG(ns), (u32)r);
}

static void pf_fault(u64 ns, u32 code, const char *what)
{
	CHECK_MSG(KH_NS_CODE(ns) == KH_SIG_FAULT && KH_NS_ARG(ns) == code,
		  "%s: signal 0x%x arg 0x%08x, want a fault 0x%08x", what,
		  KH_NS_CODE(ns), KH_NS_ARG(ns), code);
}

#define FW_FAULT(code)	KH_POOL_FAULT(KH_POOL_CLASS_FW, code)

static void put(struct ksim_card *c, u64 a, const void *p, size_t n)
{
	CHECK_EQ(ksim_dma_write(c, KH_CARD_ADDR(0, a), p, n), 0);
}

static void get(struct ksim_card *c, u64 a, void *p, size_t n)
{
	CHECK_EQ(ksim_dma_read(c, KH_CARD_ADDR(0, a), p, n), 0);
}

static u8 *rnd_bytes(size_t n)
{
	u8 *p = malloc(n + 64);
	size_t i;

	for (i = 0; p && i < n + 64; i++)
		p[i] = (u8)rnd();
	return p;
}

/* fill [a, a + n) with a byte pattern, 32-byte words */
static void pf_paint(struct ksim_card *c, u64 a, size_t n, u8 v)
{
	u8 *p = malloc(n);

	memset(p, v, n);
	put(c, a, p, n);
	free(p);
}

/* the bytes after an output are untouched */
static void pf_guard(struct ksim_card *c, u64 a, u8 v, const char *what)
{
	u8 g[GUARD];
	unsigned int i;

	get(c, a, g, GUARD);
	for (i = 0; i < GUARD; i++)
		if (g[i] != v) {
			CHECK_MSG(0, "%s: byte %u past the end is 0x%02x", what,
				  i, g[i]);
			return;
		}
}

/*
 * How many cores ran the last job's vector inner loop: each core's
 * profile (firmware/fw.h struct fw_prof at DataRAM + 64, its third word
 * the loop's work), read from the model's DataRAM.
 */
static unsigned int pf_cores_worked(struct ksim_card *c)
{
	struct ksim_pool *p = ksim_pool_of(ksim_unit_at(c, 0, pf_ux, pf_uy));
	unsigned int k, n = 0;

	for (k = 0; p && k < KH_POOL_CORES; k++)
		n += get32(p->core[k].dram + 64 + 8) != 0;
	return n;
}

#define ALL_EIGHT(c, what)						\
	CHECK_MSG(pf_cores_worked(c) == KH_POOL_CORES,			\
		  "%s: %u cores ran the vector loop, want 8", what,	\
		  pf_cores_worked(c))

/* ---- host computations ---- */

static u32 host_crc32(const u8 *p, size_t n)
{
	static u32 tab[256];
	u32 crc = ~0u;
	unsigned int i, k;

	if (!tab[1])
		for (i = 0; i < 256; i++) {
			u32 v = i;

			for (k = 0; k < 8; k++)
				v = v & 1 ? (v >> 1) ^ 0xedb88320u : v >> 1;
			tab[i] = v;
		}
	while (n--)
		crc = (crc >> 8) ^ tab[(crc ^ *p++) & 0xff];
	return ~crc;
}

/* ---- the tests ---- */

TEST_F(model, boot_and_versions)
{
	struct pf_image im;
	struct ksim_card *c;
	struct pf_boot b;
	u64 caps, st;

	if (!pf_image(&im, NULL))
		return;
	c = mh_card(pf_map);
	REQUIRE(c);
	mh_fast_host(c);
	caps = pf_rd(c, KH_CTRL_IDX_POOL_CAPS);
	CHECK_EQ(KH_POOL_CAPS_SLOT(caps), KH_POOL_SLOT_ID);
	CHECK_EQ(KH_POOL_CAPS_CORES(caps), KH_POOL_CORES);
	CHECK(pf_boot(c, &im, &b, true));
	st = pf_rd(c, KH_CTRL_IDX_POOL_STATE);
	CHECK_EQ(KH_POOL_STATE_HALTED(st), 0);
	CHECK_EQ(KH_POOL_STATE_STALLED(st), 0);
	CHECK_EQ(KH_POOL_STATE_RESET(st), 0);
	CHECK(!(pf_rd(c, KH_CTRL_IDX_POOL_TRAP) & KH_POOL_TRAP_VALID));
	check_diag("pool.fw: %zu bytes, fw %u.%u.%u, API %u.%u; READY seen %llu cycles after the release",
		 im.len, KH_FW_VERSION_MAJOR(b.fw_version),
		 KH_FW_VERSION_MINOR(b.fw_version),
		 KH_FW_VERSION_PATCH(b.fw_version), b.api >> 16,
		 b.api & 0xffff, (unsigned long long)b.cycles);
	/* and boots again over itself (a reload) */
	CHECK(pf_boot(c, &im, &b, true));
	pf_down(c, &im);
}

TEST_F(model, ping_opcode_and_kernel_faults)
{
	static const u32 vals[] = { 0, 1, 0x47500000, 0xdeadbeef };
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int i;
	u32 w[8];

	if (!c)
		return;
	for (i = 0; i < 4; i++) {
		pf_w(w, KH_POOL_K_PING);
		w[6] = vals[i];
		pf_ok(pf_job(c, w, NULL), vals[i] ^ KH_POOL_PING_XOR, "PING");
	}
	pf_w(w, 0x55);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_KERNEL), "kernel 0x55");
	pf_w(w, KH_POOL_K_PING);
	w[7] = KH_POOL_W7(0x3, KH_POOL_K_PING);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_OPCODE), "opcode 3");
	/* the cluster runs on */
	pf_w(w, KH_POOL_K_PING);
	w[6] = 7;
	pf_ok(pf_job(c, w, NULL), 7 ^ KH_POOL_PING_XOR, "PING after faults");
	pf_down(c, &im);
}

static void copy_case(struct ksim_card *c, u32 n)
{
	u8 *src = rnd_bytes(n), *out = malloc(n + 32);
	char what[64];
	u32 w[8];

	snprintf(what, sizeof(what), "COPY %u", n);
	put(c, A_BASE, src, n);
	pf_paint(c, B_BASE, n + GUARD, 0xa5);
	pf_w(w, KH_POOL_K_COPY);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	w[6] = n;
	pf_ok(pf_job(c, w, NULL), 0, what);
	get(c, B_BASE, out, n);
	CHECK_MSG(!memcmp(out, src, n), "%s: data differs", what);
	pf_guard(c, B_BASE + n, 0xa5, what);
	free(src);
	free(out);
}

TEST_F(model, copy)
{
	static const u32 sizes[] = { 0, 32, 96, 4128, 65536, 200032 };
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int i;
	u32 w[8];

	if (!c)
		return;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		copy_case(c, sizes[i]);
	pf_w(w, KH_POOL_K_COPY);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	w[6] = 33;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "COPY 33 bytes");
	w[6] = 64;
	pf_addr(w, 0, A_BASE + 16);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "COPY src+16");
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, A_BASE + 32);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "COPY overlap");
	pf_addr(w, 2, (u64)DRAM_MIB << 20);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA), "COPY past DRAM");
	w[1] = 0x80;	/* [39]: a special aperture */
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "COPY aperture");
	copy_case(c, 1024);	/* and it works afterwards */
	pf_down(c, &im);
}

static void fill_case(struct ksim_card *c, u32 n, u32 pat)
{
	u32 *out = malloc(n + 32), i, bad = 0;
	char what[64];
	u32 w[8];

	snprintf(what, sizeof(what), "FILL %u", n);
	pf_paint(c, B_BASE, n + GUARD, 0x5a);
	pf_w(w, KH_POOL_K_FILL);
	pf_addr(w, 0, B_BASE);
	w[2] = pat;
	w[6] = n;
	pf_ok(pf_job(c, w, NULL), 0, what);
	get(c, B_BASE, out, n);
	for (i = 0; i < n / 4; i++)
		bad += out[i] != pat;
	CHECK_MSG(!bad, "%s: %u words not the pattern", what, bad);
	pf_guard(c, B_BASE + n, 0x5a, what);
	free(out);
}

TEST_F(model, fill)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	u32 w[8];

	if (!c)
		return;
	fill_case(c, 0, 1);
	fill_case(c, 32, 0x01234567);
	fill_case(c, 160, 0xffffffff);
	fill_case(c, 65568, 0xcafef00d);
	fill_case(c, 300032, 0x00000000);
	pf_w(w, KH_POOL_K_FILL);
	pf_addr(w, 0, B_BASE + 4);
	w[6] = 32;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "FILL +4");
	pf_addr(w, 0, ((u64)DRAM_MIB << 20) - 32);
	w[6] = 64;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA), "FILL past DRAM");
	pf_down(c, &im);
}

static u64 crc_case(struct ksim_card *c, u32 n, bool quiet)
{
	u8 *src = rnd_bytes(n), res[32];
	struct pf_run run;
	char what[64];
	u32 w[8], want = host_crc32(src, n), i;

	snprintf(what, sizeof(what), "CRC32 %u", n);
	put(c, A_BASE, src, (n + 31) & ~31u);
	pf_paint(c, R_BASE, 32 + GUARD, 0xee);
	pf_w(w, KH_POOL_K_CRC32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, R_BASE);
	w[6] = n;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, R_BASE, res, 32);
	CHECK_MSG(get32(res) == want, "%s: 0x%08x, want 0x%08x", what,
		  get32(res), want);
	for (i = 4; i < 32; i++)
		CHECK_MSG(!res[i], "%s: result byte %u is 0x%02x", what, i,
			  res[i]);
	pf_guard(c, R_BASE + 32, 0xee, what);
	if (!quiet)
		check_diag("CRC32 %u bytes: %llu cycles, %llu instructions",
			 n, (unsigned long long)run.busy,
			 (unsigned long long)run.insts);
	free(src);
	return run.busy;
}

TEST_F(model, crc32)
{
	static const u32 sizes[] = { 0, 1, 3, 31, 32, 33, 1000, 4095,
				     16391, 100003, 262147 };
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int i;
	u32 w[8];

	if (!c)
		return;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		crc_case(c, sizes[i], true);
	crc_case(c, 65536, false);
	/* "123456789": the check value */
	put(c, A_BASE, "123456789", 9);
	pf_w(w, KH_POOL_K_CRC32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, R_BASE);
	w[6] = 9;
	pf_ok(pf_job(c, w, NULL), 0, "CRC32 check");
	{
		u8 r[32];

		get(c, R_BASE, r, 32);
		CHECK_EQ(get32(r), 0xcbf43926);
	}
	pf_addr(w, 2, A_BASE);		/* the result over the source */
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "CRC32 overlap");
	pf_addr(w, 2, R_BASE + 8);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "CRC32 res+8");
	pf_addr(w, 2, (u64)DRAM_MIB << 20);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA), "CRC32 res past DRAM");
	pf_down(c, &im);
}

static void vadd_case(struct ksim_card *c, u32 n, bool inplace, bool quiet)
{
	u32 *a = (u32 *)rnd_bytes(n * 4), *b = (u32 *)rnd_bytes(n * 4);
	u32 *out = malloc(n * 4 + 32), i, bad = 0, w[8];
	u64 dst = inplace ? A_BASE : C_BASE;
	struct pf_run run;
	char what[64];

	snprintf(what, sizeof(what), "VADD %u%s", n, inplace ? " in place" : "");
	for (i = 0; i < n; i += 97)
		a[i] = 0x7fffffff;	/* overflows wrap */
	put(c, A_BASE, a, n * 4);
	put(c, B_BASE, b, n * 4);
	if (!inplace)
		pf_paint(c, C_BASE, n * 4 + GUARD, 0x3c);
	pf_w(w, KH_POOL_K_VADD_I32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	pf_addr(w, 4, dst);
	w[6] = n;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, dst, out, n * 4);
	for (i = 0; i < n; i++)
		if (out[i] != a[i] + b[i] && bad++ < 3)
			CHECK_MSG(0, "%s: c[%u] = 0x%08x, want 0x%08x", what, i,
				  out[i], a[i] + b[i]);
	CHECK_EQ(bad, 0);
	if (!inplace)
		pf_guard(c, C_BASE + n * 4, 0x3c, what);
	if (!quiet)
		check_diag("VADD_I32 %u elements (%u KiB a, b, c): %llu cycles, %llu instructions",
			 n, n / 256, (unsigned long long)run.busy,
			 (unsigned long long)run.insts);
	free(a);
	free(b);
	free(out);
}

TEST_F(model, vadd_i32)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	u32 w[8];

	if (!c)
		return;
	vadd_case(c, 0, false, true);
	vadd_case(c, 8, false, true);
	vadd_case(c, 24, false, true);
	vadd_case(c, 1000, false, true);
	vadd_case(c, 40000, false, true);
	vadd_case(c, 4104, true, true);
	vadd_case(c, 16384, false, false);
	pf_w(w, KH_POOL_K_VADD_I32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	pf_addr(w, 4, C_BASE);
	w[6] = 12;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "VADD 12");
	w[6] = 64;
	pf_addr(w, 4, A_BASE + 32);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "VADD c over a+32");
	pf_down(c, &im);
}

static void sum_case(struct ksim_card *c, u32 n, bool quiet)
{
	u64 *src = (u64 *)rnd_bytes((size_t)n * 8), want = 0;
	u8 res[32];
	struct pf_run run;
	char what[64];
	u32 i, w[8];

	snprintf(what, sizeof(what), "SUM %u", n);
	for (i = 0; i < n; i++)
		want += src[i];
	put(c, A_BASE, src, (size_t)n * 8);
	pf_paint(c, R_BASE, 32 + GUARD, 0x77);
	pf_w(w, KH_POOL_K_SUM_I64);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, R_BASE);
	w[6] = n;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, R_BASE, res, 32);
	CHECK_MSG(get32(res) == (u32)want && get32(res + 4) == (u32)(want >> 32),
		  "%s: 0x%08x%08x, want 0x%016llx", what, get32(res + 4),
		  get32(res), (unsigned long long)want);
	pf_guard(c, R_BASE + 32, 0x77, what);
	if (!quiet)
		check_diag("SUM_I64 %u elements (%u KiB): %llu cycles, %llu instructions",
			 n, n / 128, (unsigned long long)run.busy,
			 (unsigned long long)run.insts);
	free(src);
}

TEST_F(model, sum_i64)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	u32 w[8];

	if (!c)
		return;
	sum_case(c, 0, true);
	sum_case(c, 4, true);
	sum_case(c, 12, true);
	sum_case(c, 1000, true);
	sum_case(c, 50000, true);
	sum_case(c, 8192, false);
	pf_w(w, KH_POOL_K_SUM_I64);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, R_BASE);
	w[6] = 6;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "SUM 6");
	pf_down(c, &im);
}

static void hist_case(struct ksim_card *c, u32 n, bool quiet)
{
	u8 *src = rnd_bytes(n);
	u32 want[256] = { 0 }, got[256], i, w[8];
	struct pf_run run;
	char what[64];

	snprintf(what, sizeof(what), "HIST256 %u", n);
	for (i = 0; i < n; i++) {
		if (i % 3 == 0)
			src[i] = (u8)(i % 7);	/* skewed */
		want[src[i]]++;
	}
	put(c, A_BASE, src, (n + 31) & ~31u);
	pf_paint(c, R_BASE, 1024 + GUARD, 0x99);
	pf_w(w, KH_POOL_K_HIST256);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, R_BASE);
	w[6] = n;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, R_BASE, got, sizeof(got));
	CHECK_MSG(!memcmp(got, want, sizeof(got)), "%s: bins differ", what);
	pf_guard(c, R_BASE + 1024, 0x99, what);
	if (!quiet)
		check_diag("HIST256 %u bytes: %llu cycles, %llu instructions",
			 n, (unsigned long long)run.busy,
			 (unsigned long long)run.insts);
	free(src);
}

TEST_F(model, hist256)
{
	static const u32 sizes[] = { 0, 1, 5, 100, 16383, 16384, 100001 };
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int i;
	u32 w[8];

	if (!c)
		return;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		hist_case(c, sizes[i], true);
	hist_case(c, 65536, false);
	ALL_EIGHT(c, "HIST256 65536");
	pf_w(w, KH_POOL_K_HIST256);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, A_BASE + 512);
	w[6] = 1000;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "HIST overlap");
	pf_down(c, &im);
}

/* ---- the kernels on the vector unit (API 1.1) ---- */

/*
 * GEMV_I8: A (m x k, int8, row-major on the host) packed into the
 * firmware's panels (64 rows, column-major: byte (p k + j) 64 + r is
 * A[64 p + r][j]); `edge` fills A and x with -128 and 127 so that the
 * sums overflow 24-bit lanes (the firmware's drains) and reach int32's
 * extremes.
 */
static void gemv_case(struct ksim_card *c, u32 m, u32 k, int edge,
		      bool quiet)
{
	s8 *a = malloc((size_t)m * k + 1), *x = malloc(k + 32);
	u8 *panels = malloc((size_t)m * k + 1);
	s32 *want = calloc(m + 1, 4), *got = malloc((size_t)m * 4 + 4);
	struct pf_run run;
	char what[80];
	u32 w[8], i, j, bad = 0;

	snprintf(what, sizeof(what), "GEMV_I8 %u x %u%s", m, k,
		 edge ? " (edge values)" : "");
	for (i = 0; i < (u32)m * k; i++)
		a[i] = edge == 1 ? -128 : edge == 2 ? (i & 1 ? 127 : -128) :
		       (s8)rnd();
	for (j = 0; j < k; j++)
		x[j] = edge ? (edge == 1 ? -128 : 127) : (s8)rnd();
	memset(x + k, 0x5c, 32);	/* past k: must not count */
	for (i = 0; i < m; i++) {
		s64 sum = 0;

		for (j = 0; j < k; j++) {
			sum += (s64)a[(size_t)i * k + j] * x[j];
			panels[((size_t)(i / 64) * k + j) * 64 + i % 64] =
				(u8)a[(size_t)i * k + j];
		}
		want[i] = (s32)(u32)(u64)sum;	/* int32 wraps */
	}
	if (m && k)
		put(c, A_BASE, panels, (size_t)m * k);
	put(c, B_BASE, x, (k + 31) & ~31u);
	pf_paint(c, C_BASE, (size_t)m * 4 + GUARD, 0x77);
	pf_w(w, KH_POOL_K_GEMV_I8);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	pf_addr(w, 4, C_BASE);
	w[6] = KH_POOL_GEMV_W6(m, k);
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, C_BASE, got, (size_t)m * 4);
	for (i = 0; i < m; i++)
		if (got[i] != want[i] && bad++ < 4)
			CHECK_MSG(0, "%s: y[%u] = %d, want %d", what, i, got[i],
				  want[i]);
	CHECK_MSG(!bad, "%s: %u sums differ", what, bad);
	pf_guard(c, C_BASE + (size_t)m * 4, 0x77, what);
	if (!quiet)
		check_diag("GEMV_I8 %u x %u: %llu cycles, %llu instructions",
			   m, k, (unsigned long long)run.busy,
			   (unsigned long long)run.insts);
	free(a);
	free(x);
	free(panels);
	free(want);
	free(got);
}

TEST_F(model, gemv_i8)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	u32 w[8];

	if (!c)
		return;
	gemv_case(c, 0, 0, 0, true);
	gemv_case(c, 64, 4, 0, true);
	gemv_case(c, 64, 508, 1, true);		/* 24-bit lanes: exact */
	gemv_case(c, 128, 512, 1, true);	/* past 2^23: a drain */
	gemv_case(c, 192, 4096, 1, true);	/* 2^26 */
	gemv_case(c, 512, 1020, 2, true);	/* all eight cores */
	ALL_EIGHT(c, "GEMV 512 x 1020");
	gemv_case(c, 576, 260, 0, true);	/* 9 panels on 8 cores */
	gemv_case(c, 2048, 2048, 2, true);	/* 512 KiB a core */
	gemv_case(c, 512, 256, 0, false);	/* the figure */
	pf_w(w, KH_POOL_K_GEMV_I8);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	pf_addr(w, 4, C_BASE);
	w[6] = KH_POOL_GEMV_W6(96, 8);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV M 96");
	w[6] = KH_POOL_GEMV_W6(64, 6);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV K 6");
	w[6] = KH_POOL_GEMV_W6(64, KH_POOL_GEMV_KMAX + 4);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV K big");
	w[6] = KH_POOL_GEMV_W6(64, 0);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV K 0");
	w[6] = KH_POOL_GEMV_W6(64, 8);
	pf_addr(w, 4, A_BASE + 256);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV y on A");
	pf_addr(w, 4, B_BASE);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV y on x");
	pf_addr(w, 4, C_BASE + 4);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "GEMV y+4");
	pf_addr(w, 4, ((u64)DRAM_MIB << 20) - 128);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA), "GEMV past DRAM");
	gemv_case(c, 64, 8, 0, true);	/* and it works afterwards */
	pf_down(c, &im);
}

/*
 * COPY_U at byte offsets: src at A_BASE + so, dst at B_BASE + d; the
 * bytes around dst (a painted margin both sides) must keep their value.
 */
static void copyu_case(struct ksim_card *c, u32 so, u32 d, u32 n,
		       bool quiet)
{
	const u32 margin = 128;
	u8 *src = rnd_bytes(n + 64), *out = malloc(n + 2 * margin);
	struct pf_run run;
	char what[80];
	u32 w[8], i, bad = 0;

	snprintf(what, sizeof(what), "COPY_U %u bytes, src +%u, dst +%u", n,
		 so, d);
	put(c, A_BASE, src, (so + n + 63) & ~31u);
	pf_paint(c, B_BASE, (d + n + 2 * margin + 31) & ~31u, 0x3c);
	pf_w(w, KH_POOL_K_COPY_U);
	pf_addr(w, 0, A_BASE + so);
	pf_addr(w, 2, B_BASE + margin + d);
	w[6] = n;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, B_BASE + d, out, n + 2 * margin);
	for (i = 0; i < n + 2 * margin; i++) {
		u8 want = i < margin || i >= margin + n ? 0x3c :
			  src[so + i - margin];

		if (out[i] != want && bad++ < 4)
			CHECK_MSG(0, "%s: byte %d is 0x%02x, want 0x%02x",
				  what, (int)i - (int)margin, out[i], want);
	}
	CHECK_MSG(!bad, "%s: %u bytes differ", what, bad);
	if (!quiet)
		check_diag("COPY_U %u bytes (src +%u, dst +%u): %llu cycles, %llu instructions",
			   n, so, d, (unsigned long long)run.busy,
			   (unsigned long long)run.insts);
	free(src);
	free(out);
}

TEST_F(model, copy_u)
{
	static const u32 sizes[] = { 0, 1, 2, 31, 32, 33, 63, 64, 65, 127,
				     255, 257, 4031, 4032, 4033, 8191,
				     65537 };
	static const u32 offs[][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 },
				       { 31, 1 }, { 5, 37 }, { 63, 62 },
				       { 32, 17 }, { 17, 32 } };
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int i, k;
	u32 w[8];

	if (!c)
		return;
	for (k = 0; k < sizeof(offs) / sizeof(offs[0]); k++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			copyu_case(c, offs[k][0], offs[k][1], sizes[i], true);
	copyu_case(c, 3, 45, 300007, true);	/* all eight cores, 9 chunks */
	ALL_EIGHT(c, "COPY_U 300007");
	copyu_case(c, 7, 13, 65536, false);	/* the figure */
	pf_w(w, KH_POOL_K_COPY_U);
	pf_addr(w, 0, A_BASE + 3);
	pf_addr(w, 2, A_BASE + 8);
	w[6] = 10;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS),
		 "COPY_U overlap");
	pf_addr(w, 2, A_BASE + 13);	/* disjoint bytes, a shared word */
	w[6] = 10;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS),
		 "COPY_U word overlap");
	pf_addr(w, 2, ((u64)DRAM_MIB << 20) - 5);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA),
		 "COPY_U past DRAM");
	w[1] = 0x80;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS),
		 "COPY_U aperture");
	copyu_case(c, 9, 2, 1000, true);	/* and it works afterwards */
	pf_down(c, &im);
}

/* a binary32 from its bits, and back */
static float f32(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static u32 f32bits(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

/* a finite binary32: edge values (zeros, subnormals, the largest, one) or
 * a random one over most binades, both signs */
static u32 rnd_f32(void)
{
	static const u32 edge[] = { 0, 0x80000000u, 1, 0x807fffffu,
				    0x00800000u, 0x7f7fffffu, 0xff7fffffu,
				    0x3f800000u, 0xbf800000u, 0x33800000u };
	u32 r = rnd();

	if (r % 16 == 0)
		return edge[(r >> 4) % (sizeof(edge) / sizeof(edge[0]))];
	return (r & 0x807fffffu) | ((r >> 8) % 254 + 1) << 23;
}

/* AXPY_F32: y = a x + y, bit for bit the host's fmaf */
static void axpy_case(struct ksim_card *c, u32 n, u32 a, bool inplace,
		      bool quiet)
{
	u32 *x = malloc(4 * (size_t)n + 4), *y = malloc(4 * (size_t)n + 4);
	u32 *got = malloc(4 * (size_t)n + 4), i, w[8], bad = 0;
	u64 yb = inplace ? A_BASE : B_BASE;
	struct pf_run run;
	char what[80];

	snprintf(what, sizeof(what), "AXPY_F32 %u, a %a%s", n, f32(a),
		 inplace ? ", y = x" : "");
	for (i = 0; i < n; i++) {
		x[i] = rnd_f32();
		y[i] = inplace ? x[i] : rnd_f32();
	}
	put(c, A_BASE, x, 4 * (size_t)n);
	pf_paint(c, yb + 4 * (size_t)n, GUARD, 0x66);
	if (!inplace)
		put(c, B_BASE, y, 4 * (size_t)n);
	pf_w(w, KH_POOL_K_AXPY_F32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, yb);
	w[4] = a;
	w[6] = n;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, yb, got, 4 * (size_t)n);
	for (i = 0; i < n; i++) {
		u32 want = f32bits(fmaf(f32(a), f32(x[i]), f32(y[i])));

		if (got[i] != want && bad++ < 4)
			CHECK_MSG(0, "%s: y[%u] = 0x%08x, fmaf(%a, %a, %a) = 0x%08x",
				  what, i, got[i], f32(a), f32(x[i]),
				  f32(y[i]), want);
	}
	CHECK_MSG(!bad, "%s: %u results differ", what, bad);
	pf_guard(c, yb + 4 * (size_t)n, 0x66, what);
	if (!quiet)
		check_diag("AXPY_F32 %u elements: %llu cycles, %llu instructions",
			   n, (unsigned long long)run.busy,
			   (unsigned long long)run.insts);
	free(x);
	free(y);
	free(got);
}

TEST_F(model, axpy_f32)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	u32 w[8];

	if (!c)
		return;
	axpy_case(c, 0, 0x3f800000u, false, true);
	axpy_case(c, 16, 0xbf3504f3u, false, true);
	axpy_case(c, 48, 0x00000001u, false, true);	/* a subnormal */
	axpy_case(c, 1040, 0x7f000000u, false, true);	/* overflows */
	axpy_case(c, 4096, 0x3b449ba6u, true, true);	/* y = x */
	axpy_case(c, 100016, 0xc0490fdbu, false, true);	/* eight cores */
	ALL_EIGHT(c, "AXPY 100016");
	axpy_case(c, 16384, 0x3fc00000u, false, false);	/* the figure */
	pf_w(w, KH_POOL_K_AXPY_F32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	w[6] = 8;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "AXPY n 8");
	w[6] = 32;
	pf_addr(w, 2, A_BASE + 64);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "AXPY overlap");
	pf_addr(w, 2, ((u64)DRAM_MIB << 20) - 64);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA), "AXPY past DRAM");
	axpy_case(c, 32, 0x40000000u, false, true);
	pf_down(c, &im);
}

/*
 * SOFTMAX_F32 against a double-precision softmax of the same floats:
 * |got - want| <= 2^-13 want + 2^-120 (docs/spec/pool.md derives the
 * bound: the seed's 7.49 bits squared by one Newton step, the exp's
 * range reduction, the sum's roundings).  Returns the worst relative
 * error seen on outputs above 2^-100.
 */
#define SM_REL	0x1p-13
#define SM_ABS	0x1p-120

static double softmax_case(struct ksim_card *c, u32 l, u32 rows, int kind,
			   bool quiet)
{
	size_t n = (size_t)l * rows;
	float *in = malloc(4 * n + 4), *got = malloc(4 * n + 4);
	double worst = 0;
	struct pf_run run;
	char what[80];
	u32 w[8], r, i, bad = 0;

	snprintf(what, sizeof(what), "SOFTMAX_F32 %u x %u (inputs %d)", rows,
		 l, kind);
	for (i = 0; i < n; i++) {
		double u = (double)rnd() / 4294967296.0;

		switch (kind) {
		case 0:		/* [-30, 30) */
			in[i] = (float)(u * 60.0 - 30.0);
			break;
		case 1:		/* all equal in a row: 1/L exactly */
			in[i] = (float)(i / l) * 0.25f - 3.0f;
			break;
		case 2:		/* a wide range: most underflow */
			in[i] = (float)(u * 128.0 - 64.0);
			break;
		default:	/* near each other, large magnitude */
			in[i] = (float)(50.0 + u * 0.001);
			break;
		}
	}
	put(c, A_BASE, in, 4 * n);
	pf_paint(c, B_BASE + 4 * n, GUARD, 0x44);
	pf_w(w, KH_POOL_K_SOFTMAX_F32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	w[4] = l;
	w[6] = rows;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, what);
	get(c, B_BASE, got, 4 * n);
	for (r = 0; r < rows; r++) {
		const float *s = in + (size_t)r * l;
		double m = s[0], sum = 0;

		for (i = 0; i < l; i++)
			m = s[i] > m ? s[i] : m;
		for (i = 0; i < l; i++)
			sum += exp((double)s[i] - m);
		for (i = 0; i < l; i++) {
			double want = exp((double)s[i] - m) / sum;
			double err = fabs(got[(size_t)r * l + i] - want);

			if (!(err <= SM_REL * want + SM_ABS) && bad++ < 4)
				CHECK_MSG(0, "%s: row %u [%u] = %.9g, want %.9g (%.3g relative)",
					  what, r, i, got[(size_t)r * l + i],
					  want, err / want);
			if (want > 0x1p-100 && err / want > worst)
				worst = err / want;
		}
	}
	CHECK_MSG(!bad, "%s: %u outputs outside the bound", what, bad);
	pf_guard(c, B_BASE + 4 * n, 0x44, what);
	if (!quiet)
		check_diag("SOFTMAX_F32 %u rows of %u: %llu cycles, %llu instructions; worst relative error 2^%.2f",
			   rows, l, (unsigned long long)run.busy,
			   (unsigned long long)run.insts, log2(worst));
	free(in);
	free(got);
	return worst;
}

TEST_F(model, softmax_f32)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	double worst = 0, e;
	u32 w[8];
	int k;

	if (!c)
		return;
	softmax_case(c, 16, 0, 0, true);
	for (k = 0; k < 4; k++) {
		e = softmax_case(c, 16, 1, k, true);
		worst = e > worst ? e : worst;
		e = softmax_case(c, 1024, 9, k, true);	/* eight cores */
		worst = e > worst ? e : worst;
		ALL_EIGHT(c, "SOFTMAX 9 x 1024");
		e = softmax_case(c, 80, 203, k, true);	/* rows span slots */
		worst = e > worst ? e : worst;
	}
	e = softmax_case(c, 256, 256, 0, false);	/* the figure */
	worst = e > worst ? e : worst;
	check_diag("SOFTMAX_F32: worst relative error over every case 2^%.2f (bound 2^-13)",
		   log2(worst));
	pf_w(w, KH_POOL_K_SOFTMAX_F32);
	pf_addr(w, 0, A_BASE);
	pf_addr(w, 2, B_BASE);
	w[6] = 1;
	w[4] = 24;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "SOFTMAX L 24");
	w[4] = 0;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "SOFTMAX L 0");
	w[4] = KH_POOL_SOFTMAX_LMAX + 16;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "SOFTMAX L big");
	w[4] = 64;
	pf_addr(w, 2, A_BASE + 128);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS),
		 "SOFTMAX overlap");
	pf_addr(w, 2, ((u64)DRAM_MIB << 20) - 128);
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_IDMA),
		 "SOFTMAX past DRAM");
	softmax_case(c, 32, 3, 0, true);
	pf_down(c, &im);
}

TEST_F(model, delay)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	struct pf_run run;
	u32 w[8];

	if (!c)
		return;
	/* first a job: core 0 may still poll for CLAIM (firmware/README.md) */
	pf_w(w, KH_POOL_K_PING);
	pf_ok(pf_job(c, w, NULL), KH_POOL_PING_XOR, "PING before DELAY");
	pf_w(w, KH_POOL_K_DELAY);
	w[6] = 20000;
	pf_job(c, w, &run);
	pf_ok(run.ns, 0, "DELAY");
	CHECK_MSG(run.busy >= 20000 && run.busy < 21000,
		  "DELAY 20000: busy %llu cycles", (unsigned long long)run.busy);
	pf_w(w, KH_POOL_K_PING);
	w[6] = 3;
	pf_ok(pf_job(c, w, NULL), 3 ^ KH_POOL_PING_XOR, "PING after DELAY");
	pf_down(c, &im);
}

/* Queue jobs back to back: CRC32s into distinct words, PINGs between. */
TEST_F(model, queued_jobs)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int base, i, njobs = 14;
	u8 *src;
	u32 w[8];
	struct kh_flit f;

	if (!c)
		return;
	src = rnd_bytes(40000);
	put(c, A_BASE, src, 40000);
	base = KH_NS_COUNT(mh_ns(c, pf_ux, pf_uy));
	for (i = 0; i < njobs; i++) {
		if (i % 2) {
			pf_w(w, KH_POOL_K_PING);
			w[6] = i;
		} else {
			pf_w(w, KH_POOL_K_CRC32);
			pf_addr(w, 0, A_BASE);
			pf_addr(w, 2, R_BASE + 32 * i);
			w[6] = 1000 * (i + 1) + i;
		}
		pf_inst(&f, w, 0x50 + i);
		pf_send(c, &f);
	}
	CHECK(mh_wait_count(c, pf_ux, pf_uy, base + njobs, 2000000));
	pf_ok(mh_ns(c, pf_ux, pf_uy), (njobs - 1) ^ KH_POOL_PING_XOR, "last PING");
	for (i = 0; i < njobs; i += 2) {
		u8 r[32];

		get(c, R_BASE + 32 * i, r, 32);
		CHECK_MSG(get32(r) == host_crc32(src, 1000 * (i + 1) + i),
			  "queued CRC32 %u: 0x%08x", i, get32(r));
	}
	free(src);
	pf_down(c, &im);
}

static const struct {
	u32 how, cause;
} pf_traps[] = {
	{ KH_POOL_TRAP_ILLEGAL, KH_POOL_CAUSE_ILLEGAL },
	{ KH_POOL_TRAP_MISALIGN, KH_POOL_CAUSE_LOAD_MISALIGNED },
	{ KH_POOL_TRAP_ACCESS, KH_POOL_CAUSE_LOAD_FAULT },
	{ KH_POOL_TRAP_EBREAK, KH_POOL_CAUSE_EBREAK },
	{ KH_POOL_TRAP_ECALL, KH_POOL_CAUSE_ECALL },
};

/* the instruction a TRAP kind executes, at the PC TRAP reports */
static bool pf_trap_insn(u32 how, u32 insn)
{
	switch (how) {
	case KH_POOL_TRAP_ILLEGAL:
		return insn == 0;
	case KH_POOL_TRAP_MISALIGN:
	case KH_POOL_TRAP_ACCESS:
		return (insn & 0x707f) == 0x2003;	/* lw */
	case KH_POOL_TRAP_EBREAK:
		return insn == 0x00100073;
	case KH_POOL_TRAP_ECALL:
		return insn == 0x00000073;
	}
	return false;
}

TEST_F(model, trap)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	struct pf_boot b;
	unsigned int i;
	u32 w[8];

	if (!c)
		return;
	pf_w(w, KH_POOL_K_TRAP);
	w[6] = KH_POOL_CORES;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "TRAP core 8");
	w[6] = 0;
	w[5] = 9;
	pf_fault(pf_job(c, w, NULL), FW_FAULT(KH_POOL_FW_ARGS), "TRAP how 9");
	for (i = 0; i < sizeof(pf_traps) / sizeof(pf_traps[0]); i++) {
		u32 core = (3 * i + 1) % KH_POOL_CORES, pc;
		char what[64];
		u64 t, st;

		if (i)
			CHECK(pf_boot(c, &im, &b, true));	/* reload */
		snprintf(what, sizeof(what), "TRAP core %u how %u", core,
			 pf_traps[i].how);
		pf_w(w, KH_POOL_K_TRAP);
		w[6] = core;
		w[5] = pf_traps[i].how;
		pf_fault(pf_job(c, w, NULL),
			 KH_POOL_FAULT_TRAP(core, pf_traps[i].cause), what);
		t = pf_rd(c, KH_CTRL_IDX_POOL_TRAP);
		pc = KH_POOL_TRAP_PC(t);
		CHECK_MSG((t & KH_POOL_TRAP_VALID) &&
			  KH_POOL_TRAP_CORE(t) == core &&
			  KH_POOL_TRAP_CAUSE(t) == pf_traps[i].cause,
			  "%s: TRAP 0x%016llx", what, (unsigned long long)t);
		CHECK_MSG(pf_trap_insn(pf_traps[i].how, pf_iram_word(&im, pc)),
			  "%s: PC 0x%x holds 0x%08x", what, pc,
			  pf_iram_word(&im, pc));
		st = pf_rd(c, KH_CTRL_IDX_POOL_STATE);
		CHECK_EQ(KH_POOL_STATE_HALTED(st), 1u << core);
		/* every later job faults: the cluster is half dead */
		pf_w(w, KH_POOL_K_PING);
		pf_fault(pf_job(c, w, NULL),
			 KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_HALTED),
			 "PING after a trap");
	}
	/* a reload brings it back */
	CHECK(pf_boot(c, &im, &b, true));
	pf_w(w, KH_POOL_K_PING);
	w[6] = 5;
	pf_ok(pf_job(c, w, NULL), 5 ^ KH_POOL_PING_XOR, "PING after a reload");
	pf_down(c, &im);
}

TEST_F(model, test_firmwares)
{
	struct pf_image im, good;
	struct ksim_card *c;
	struct pf_boot b;
	u64 t, st;
	u32 w[8];

	if (!pf_image(&good, NULL))
		return;
	c = mh_card(pf_map);
	REQUIRE(c);
	mh_fast_host(c);
	if (pf_image(&im, "never-ready.fw")) {
		pf_boot(c, &im, &b, false);
		st = pf_rd(c, KH_CTRL_IDX_POOL_STATE);
		CHECK_EQ(KH_POOL_STATE_HALTED(st), 0);
		free(im.buf);
	}
	if (pf_image(&im, "trap-boot.fw")) {
		pf_boot(c, &im, &b, false);
		t = pf_rd(c, KH_CTRL_IDX_POOL_TRAP);
		CHECK(t & KH_POOL_TRAP_VALID);
		CHECK_EQ(KH_POOL_TRAP_CAUSE(t), KH_POOL_CAUSE_ILLEGAL);
		CHECK_EQ(KH_POOL_TRAP_PC(t),
			 pf_hdr32(&im, offsetof(struct kh_fw_header, entry)));
		st = pf_rd(c, KH_CTRL_IDX_POOL_STATE);
		CHECK_EQ(KH_POOL_STATE_HALTED(st), 0xff);
		pf_w(w, KH_POOL_K_PING);
		pf_fault(pf_job(c, w, NULL),
			 KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_HALTED),
			 "PING to a halted cluster");
		free(im.buf);
	}
	/* the good image over either */
	CHECK(pf_boot(c, &good, &b, true));
	pf_w(w, KH_POOL_K_PING);
	pf_ok(pf_job(c, w, NULL), KH_POOL_PING_XOR, "PING after the test images");
	ksim_card_destroy(c);
	free(good.buf);
}

static u32 pf_word32(struct ksim_card *c, u64 a)
{
	u8 b[4];

	get(c, a, b, 4);
	return get32(b);
}

/* the bytes [a, a + n) all v */
static bool pf_painted(struct ksim_card *c, u64 a, size_t n, u8 v)
{
	u8 *p = malloc(n);
	size_t i;
	bool ok = p != NULL;

	if (p)
		get(c, a, p, n);
	for (i = 0; ok && i < n; i++)
		ok = p[i] == v;
	free(p);
	return ok;
}

/*
 * test/rogue.fw: pool.fw whose FILL also stores its pattern at w5:w4
 * through the window and fills the next 32-byte word by iDMA (main.c,
 * FW_TEST_ROGUE).  Unbounded, both land; under the bounds the driver
 * sets for a FILL (its dst, read-write: the probe reads dst's last word),
 * both are refused, the FILL itself is done, the job retires
 * KH_POOL_UNIT_BOUNDS although the firmware retires it with 0, and the
 * firmware takes the next job.  And pool.fw's probe of its output needs
 * R: a write-only dst faults the job (the spec's "name an output
 * read-write").
 */
TEST_F(model, rogue_firmware_bounded)
{
	struct pf_image im;
	struct ksim_card *c;
	struct pf_boot b;
	const u32 n = 8192, pat = 0xfeedf00d;
	const u64 rogue = A_BASE + 0x44;
	u32 w[8];
	u64 f;

	if (!pf_image(&im, "rogue.fw"))
		return;
	c = mh_card(pf_map);
	REQUIRE(c);
	mh_fast_host(c);
	REQUIRE(pf_boot(c, &im, &b, true));	/* BOUNDS_EN [31] after it */
	pf_w(w, KH_POOL_K_FILL);
	pf_addr(w, 0, C_BASE);
	w[2] = pat;
	w[6] = n;
	pf_addr(w, 4, rogue);
	/* unbounded: what the bounds are for */
	pf_paint(c, A_BASE, 256, 0x11);
	pf_paint(c, C_BASE, n, 0);
	pf_ok(pf_job(c, w, NULL), 0, "rogue FILL, unbounded");
	CHECK_EQ(pf_word32(c, C_BASE), pat);
	CHECK_EQ(pf_word32(c, C_BASE + n - 4), pat);
	CHECK_EQ(pf_word32(c, rogue), pat);
	CHECK_EQ(pf_word32(c, A_BASE + 0x60), pat);
	CHECK_EQ(pf_word32(c, A_BASE + 0x7c), pat);
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_BOUNDS_FAULT), 0);
	/* bounded to the FILL's dst */
	pf_paint(c, A_BASE, 256, 0x11);
	pf_paint(c, C_BASE, n, 0);
	pf_wr(c, KH_CTRL_IDX_POOL_REGION(0),
	      KH_POOL_REGION(C_BASE >> KH_POOL_REGION_SHIFT,
			     n >> KH_POOL_REGION_SHIFT,
			     KH_POOL_REGION_R | KH_POOL_REGION_W));
	pf_wr(c, KH_CTRL_IDX_POOL_BOUNDS_EN, 1);
	pf_fault(pf_job(c, w, NULL),
		 KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_BOUNDS),
		 "rogue FILL, bounded");
	CHECK_EQ(pf_word32(c, C_BASE), pat);
	CHECK_EQ(pf_word32(c, C_BASE + n - 4), pat);
	CHECK(pf_painted(c, A_BASE, 256, 0x11));
	/* the window's store first, then the iDMA's: two, on core 0 */
	f = pf_rd(c, KH_CTRL_IDX_POOL_BOUNDS_FAULT);
	CHECK_EQ(f & (KH_POOL_BF_VALID | KH_POOL_BF_WRITE | KH_POOL_BF_IDMA |
		      KH_POOL_BF_IDLE), KH_POOL_BF_VALID | KH_POOL_BF_WRITE);
	CHECK_EQ(KH_POOL_BF_CORE(f), 0);
	CHECK_EQ(KH_POOL_BF_COUNT(f), 2);
	CHECK_EQ(KH_POOL_BF_ADDR(f), rogue);
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_STATE) & 0xff, 0);	/* no trap */
	/* the firmware runs on: the next jobs retire as they should */
	pf_w(w, KH_POOL_K_PING);
	w[6] = 0x33;
	pf_ok(pf_job(c, w, NULL), 0x33 ^ KH_POOL_PING_XOR, "PING after");
	pf_w(w, KH_POOL_K_FILL);
	pf_addr(w, 0, C_BASE);
	w[2] = ~pat;
	w[6] = n;
	pf_ok(pf_job(c, w, NULL), 0, "FILL without w5:w4, bounded");
	CHECK_EQ(pf_word32(c, C_BASE + n - 4), ~pat);
	CHECK_EQ(pf_rd(c, KH_CTRL_IDX_POOL_BOUNDS_FAULT), 0);
	/* a write-only dst: the firmware's probe (an iDMA read) is refused */
	pf_wr(c, KH_CTRL_IDX_POOL_REGION(0),
	      KH_POOL_REGION(C_BASE >> KH_POOL_REGION_SHIFT,
			     n >> KH_POOL_REGION_SHIFT, KH_POOL_REGION_W));
	pf_fault(pf_job(c, w, NULL),
		 KH_POOL_FAULT(KH_POOL_CLASS_UNIT, KH_POOL_UNIT_BOUNDS),
		 "FILL into a write-only region");
	f = pf_rd(c, KH_CTRL_IDX_POOL_BOUNDS_FAULT);
	CHECK_EQ(f & (KH_POOL_BF_VALID | KH_POOL_BF_WRITE | KH_POOL_BF_IDMA),
		 KH_POOL_BF_VALID | KH_POOL_BF_IDMA);
	CHECK_EQ(KH_POOL_BF_ADDR(f), C_BASE + n - 32);
	ksim_card_destroy(c);
	free(im.buf);
}

/*
 * Random jobs: every data kernel with random sizes (most small, some
 * large), checked against the host; the same card throughout.
 */
TEST_F(model, random_jobs)
{
	struct pf_image im;
	struct ksim_card *c = pf_up(&im);
	unsigned int i, k;
	char what[64];

	if (!c)
		return;
	if (getenv("KOHAKU_TEST_SEED"))	/* another sequence, by hand */
		rng ^= strtoull(getenv("KOHAKU_TEST_SEED"), NULL, 0) * 0x9e37;
	for (i = 0; i < 60; i++) {
		u32 r = rnd(), n = r & 0x1000000 ? rnd() % 300000 :
				   rnd() % 5000;

		k = rnd() % 10;
		snprintf(what, sizeof(what), "random %u: kernel %u n %u", i, k, n);
		switch (k) {
		case 0:
			copy_case(c, n & ~31u);
			break;
		case 1:
			fill_case(c, n & ~31u, rnd());
			break;
		case 2:
			crc_case(c, n, true);
			break;
		case 3:
			vadd_case(c, (n / 4) & ~7u, rnd() & 1, true);
			break;
		case 4:
			sum_case(c, (n / 8) & ~3u, true);
			break;
		case 5:
			hist_case(c, n, true);
			break;
		case 6:
			copyu_case(c, rnd() % 64, rnd() % 64, n, true);
			break;
		case 7:
			gemv_case(c, 64 * (1 + n % 24), 4 * (1 + rnd() % 300),
				  0, true);
			break;
		case 8:
			axpy_case(c, (n / 4) & ~15u, rnd_f32(), rnd() & 1,
				  true);
			break;
		default:
			softmax_case(c, 16 * (1 + rnd() % 64), n % 300,
				     rnd() % 4, true);
			break;
		}
		if (check_failed()) {
			check_diag("%s failed", what);
			break;
		}
	}
	pf_down(c, &im);
}

/*
 * The built-in `pool` card (ship parameters): its three POOL units booted
 * one after another, then a CRC32 on each at once, competing for MAG.
 */
TEST_F(model, three_units_of_the_pool_card)
{
	static const unsigned int at[3][2] = { { 1, 0 }, { 2, 1 }, { 1, 2 } };
	struct pf_image im;
	struct ksim_card *c;
	struct pf_boot b;
	unsigned int base[3], i;
	const u32 n = 100000;
	u8 *src;
	u32 w[8];
	struct kh_flit f;

	if (!pf_image(&im, NULL))
		return;
	c = mh_card("pool");
	REQUIRE(c);
	mh_fast_host(c);
	for (i = 0; i < 3; i++) {
		pf_ux = at[i][0];
		pf_uy = at[i][1];
		CHECK(pf_boot(c, &im, &b, true));
	}
	src = rnd_bytes(3 * n);
	put(c, A_BASE, src, 3 * n);
	for (i = 0; i < 3; i++) {
		pf_ux = at[i][0];
		pf_uy = at[i][1];
		base[i] = KH_NS_COUNT(mh_ns(c, pf_ux, pf_uy));
		pf_w(w, KH_POOL_K_CRC32);
		pf_addr(w, 0, A_BASE + i * n);
		pf_addr(w, 2, R_BASE + 32 * i);
		w[6] = n - i;
		pf_inst(&f, w, 0x60 + i);
		pf_send(c, &f);
	}
	for (i = 0; i < 3; i++) {
		u8 r[32];

		CHECK(mh_wait_count(c, at[i][0], at[i][1], base[i] + 1, 1000000));
		pf_ok(mh_ns(c, at[i][0], at[i][1]), 0, "CRC32 on three units");
		get(c, R_BASE + 32 * i, r, 32);
		CHECK_EQ(get32(r), host_crc32(src + i * n, n - i));
	}
	pf_ux = 1;
	pf_uy = 0;
	free(src);
	ksim_card_destroy(c);
	free(im.buf);
}

CHECK_TEST_MAIN
