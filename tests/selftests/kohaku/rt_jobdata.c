// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Job data (ABI 0.5, KOHAKU_CAP_JOB_DATA): the CU_DATA a program carries
 * for its node, sent before any instruction of the job.  A cpu unit's
 * image and its kick in one job, on two units at once, and with the kick's
 * argument; a vec unit's L1 filled by an acknowledged burst split in two
 * and read back by the unit's own drain; a burst the unit refuses ends the
 * job ERROR with nothing sent and the device usable; every refusal of
 * SUBMIT (sizes, offsets, flags, limits, units that take no data), and
 * ABI 0.4's 32-byte program struct still taken.
 *
 * The cards: cpu_2x1 (cpu units on a mesh the driver accepts) and the
 * shipped mesh_2x2_8+2 for the vec unit, in-process; on the kernel
 * backend the device under test, skipping what it lacks.  The programs
 * are a few hand-encoded RV32I words (the builders are rt_cpu's subject).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_test.h"
#include "kohaku/kh_cpu.h"
#include "kohaku/kh_vec.h"

#define MAX_N	16

/* ---- a few RV32I words, enough for the programs below ---- */

enum { X0, RA, SP, GP, TP, T0, T1, T2, A0 = 10, A1 };

static uint32_t rv_i(unsigned int op, unsigned int f3, unsigned int rd,
		     unsigned int rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t rv_addi(unsigned int rd, unsigned int rs1, int32_t imm)
{
	return rv_i(0x13, 0, rd, rs1, imm);
}

static uint32_t rv_lw(unsigned int rd, unsigned int rs1, int32_t imm)
{
	return rv_i(0x03, 2, rd, rs1, imm);
}

static uint32_t rv_sw(unsigned int rs2, unsigned int rs1, int32_t imm)
{
	return ((uint32_t)imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 |
	       2 << 12 | ((uint32_t)imm & 0x1f) << 7 | 0x23;
}

static uint32_t rv_lui(unsigned int rd, uint32_t upper)
{
	return (upper & 0xfffff000u) | rd << 7 | 0x37;
}

#define RV_ECALL	0x00000073u

/* rd = v: lui + addi, the addi's sign folded into the upper part */
static unsigned int rv_li(uint32_t *w, unsigned int rd, uint32_t v)
{
	w[0] = rv_lui(rd, v + 0x800);
	w[1] = rv_addi(rd, rd, (int32_t)(v << 20) >> 20);
	return 2;
}

/* the cpu's view of a BO: DRAM at 0x8000_0000 | addr[30:0] */
static uint32_t cpu_addr(uint64_t dev_addr)
{
	return 0x80000000u | (uint32_t)(dev_addr & 0x7fffffffu);
}

/*
 * The image: store (arg + add) at out, flush the L1 (a halt does not write
 * it back), return add in a0.  Padded to whole granules with zeros.
 */
static unsigned int store_arg_image(uint32_t *w, uint32_t out, int32_t add)
{
	unsigned int n = 0;

	n += rv_li(&w[n], T0, out);
	w[n++] = rv_lui(T2, KH_CPU_CTL_BASE);
	w[n++] = rv_lw(T1, T2, KH_CPU_CTL_ARG);
	w[n++] = rv_addi(T1, T1, add);
	w[n++] = rv_sw(T1, T0, 0);
	w[n++] = rv_sw(X0, T2, KH_CPU_CTL_FLUSH);
	w[n++] = rv_addi(A0, X0, add);
	w[n++] = RV_ECALL;
	while (n % KH_CPU_GRANULE_WORDS)
		w[n++] = 0;
	return n;
}

static void cpu_kick(struct kohaku_inst *in, uint32_t pc, uint32_t arg)
{
	struct kh_flit f;

	memset(&f, 0, sizeof(f));
	kh_flit_set(&f, KH_CPU_INST_OP, KH_CPU_OP_KICK);
	kh_flit_set(&f, KH_CPU_INST_PC, pc);
	kh_flit_set(&f, KH_CPU_INST_ARG, arg);
	memcpy(in->w, f.w, sizeof(in->w));
}

/* a device with cpu units: their table in nd, n of them, or SKIP */
#define CPU_OPEN(dev, nd, n)						\
	struct drm_kohaku_node nd[MAX_N];				\
	unsigned int n;							\
	kohaku_device *dev = rt_open_card("cpu_2x1");			\
	REQUIRE(dev != NULL);						\
	n = rt_nodes_of(dev, KH_CU_RV, nd, MAX_N);			\
	if (!n) {							\
		rt_close_card(dev);					\
		SKIP(return, "no cpu unit on this device");			\
	}

/* a node's CU_DBG or retired count, read live */
static struct drm_kohaku_node node_live(kohaku_device *dev,
					 const struct drm_kohaku_node *of)
{
	struct drm_kohaku_node *nd, r;
	unsigned int cnt, i;

	memset(&r, 0, sizeof(r));
	if (kohaku_nodes_alloc(dev, KOHAKU_NODES_LIVE, &nd, sizeof(*nd), &cnt) < 0) {
		check_fail_at(__FILE__, __LINE__, "nodes: %s", kohaku_last_error(dev));
		return r;
	}
	for (i = 0; i < cnt; i++)
		if (nd[i].mesh == of->mesh && nd[i].x == of->x && nd[i].y == of->y)
			r = nd[i];
	free(nd);
	return r;
}

static uint32_t bo_word(kohaku_device *dev, uint32_t h, unsigned int i)
{
	uint32_t v = 0xdeadbeef;

	CHECK_OK(dev, kohaku_bo_read(dev, h, i * 4, &v, 4));
	return v;
}

TEST_F(rt, device_reports_job_data)
{
	RT_OPEN(dev);
	struct drm_kohaku_get_info in;

	CHECK_OK(dev, kohaku_get_info(dev, &in, sizeof(in)));
	CHECK(in.caps & KOHAKU_CAP_JOB_DATA);
	kohaku_close(dev);
}

TEST_F(rt, cpu_image_and_kick_in_one_job)
{
	CPU_OPEN(dev, nd, n);
	uint32_t img[32], h, zero = 0;
	uint64_t a;
	struct kohaku_inst kick;
	struct kohaku_data d;
	struct kohaku_program p;
	struct kohaku_job_status st;
	unsigned int words;

	REQUIRE(kohaku_bo_create(dev, nd[0].mesh, 4096, &h, &a) == 0);
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, &zero, 4));
	words = store_arg_image(img, cpu_addr(a), 100);
	cpu_kick(&kick, 0, 23);
	d = (struct kohaku_data){ .buf_id = KH_CPU_BUF_IMEM, .offset = 0,
				  .data = img, .size = words * 4 };
	p = (struct kohaku_program){ .mesh = nd[0].mesh, .x = nd[0].x,
				     .y = nd[0].y, .n_insts = 1, .insts = &kick,
				     .data = &d, .n_data = 1 };
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(bo_word(dev, h, 0), 123);
	/* CU_DBG {ret_ctr, cyc_ctr}: 9 instructions ran, ECALL included */
	CHECK_EQ(node_live(dev, &nd[0]).dbg >> 32, 9);
	(void)n;
	kohaku_bo_free(dev, h);
	rt_close_card(dev);
}

TEST_F(rt, two_cpu_units_each_get_their_own_image)
{
	CPU_OPEN(dev, nd, n);
	uint32_t img[2][32], h;
	uint64_t a;
	struct kohaku_inst kick[2];
	struct kohaku_data d[2];
	struct kohaku_program p[2];
	struct kohaku_job_status st;
	unsigned int i, words;

	if (n < 2) {
		rt_close_card(dev);
		SKIP(return, "one cpu unit only");
	}
	REQUIRE(kohaku_bo_create(dev, nd[0].mesh, 4096, &h, &a) == 0);
	for (i = 0; i < 2; i++) {
		words = store_arg_image(img[i], cpu_addr(a) + 32 * i, 1000 * (i + 1));
		cpu_kick(&kick[i], 0, 7 + i);
		d[i] = (struct kohaku_data){ .buf_id = KH_CPU_BUF_IMEM,
					     .data = img[i], .size = words * 4 };
		p[i] = (struct kohaku_program){ .mesh = nd[i].mesh, .x = nd[i].x,
						.y = nd[i].y, .n_insts = 1,
						.insts = &kick[i], .data = &d[i],
						.n_data = 1 };
	}
	CHECK_EQ(rt_run(dev, p, 2, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(bo_word(dev, h, 0), 1007);
	CHECK_EQ(bo_word(dev, h, 8), 2008);
	kohaku_bo_free(dev, h);
	rt_close_card(dev);
}

TEST_F(rt, a_later_job_kicks_the_image_an_earlier_one_loaded)
{
	CPU_OPEN(dev, nd, n);
	uint32_t img[32], h;
	uint64_t a;
	struct kohaku_inst kick;
	struct kohaku_data d;
	struct kohaku_program p;
	struct kohaku_job_status st;
	unsigned int words;

	(void)n;
	REQUIRE(kohaku_bo_create(dev, nd[0].mesh, 4096, &h, &a) == 0);
	/* the image lands at granule 4 (PC 128); the first kick is no-op 0 */
	words = store_arg_image(img, cpu_addr(a), 5);
	memset(&kick, 0, sizeof(kick));
	d = (struct kohaku_data){ .buf_id = KH_CPU_BUF_IMEM, .offset = 4,
				  .data = img, .size = words * 4 };
	p = (struct kohaku_program){ .mesh = nd[0].mesh, .x = nd[0].x,
				     .y = nd[0].y, .n_insts = 1, .insts = &kick,
				     .data = &d, .n_data = 1 };
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	/* the windows keep their contents: a job of a kick alone runs it */
	cpu_kick(&kick, 4 * KH_CPU_GRANULE_BYTES, 37);
	p.data = NULL;
	p.n_data = 0;
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_EQ(bo_word(dev, h, 0), 42);
	kohaku_bo_free(dev, h);
	rt_close_card(dev);
}

/* ---- the vec unit: acknowledged bursts, a split one, a refused one ---- */

#define VEC_WORDS	300	/* > 256: two bursts, 256 and 44 granules */

/*
 * A kernel draining L1 words 0..VEC_WORDS-1 to DRAM at out: two walks
 * (one may not exceed KH_VEC_WALK_MAX entries), descriptors 0 and 1.
 */
static unsigned int vec_drain_program(struct kohaku_inst *inst, uint64_t out)
{
	const unsigned int half = VEC_WORDS / 2;
	uint32_t k[3];
	unsigned int ni = 0, dim, ad;
	int r = 0;

	r |= kohaku_vec_vdrain(&k[0], 0, 0);
	r |= kohaku_vec_vdrain(&k[1], 1, half);
	k[2] = kohaku_vec_vhalt();
	r |= kohaku_inst_vec_imem_words(&inst[ni], 0, k, 3);
	ni += 3;
	for (ad = 0; ad < 2; ad++) {
		r |= kohaku_inst_vec_desc_base(&inst[ni++], ad,
					       out + ad * half * KH_VEC_WORD_BYTES);
		for (dim = 0; dim < KH_VEC_DIMS; dim++)
			r |= kohaku_inst_vec_desc_dim(&inst[ni++], ad, dim,
						      dim ? 0 : KH_VEC_WORD_BYTES,
						      dim ? 1 : half);
	}
	r |= kohaku_inst_vec_run(&inst[ni++], 0);
	CHECK_EQ(r, 0);
	return ni;
}

#define VEC_OPEN(dev, nd, n)						\
	struct drm_kohaku_node nd[MAX_N];				\
	unsigned int n;							\
	kohaku_device *dev = rt_open_card("mesh_2x2_8+2");		\
	REQUIRE(dev != NULL);						\
	n = rt_nodes_of(dev, KH_CU_VC, nd, MAX_N);			\
	if (!n) {							\
		rt_close_card(dev);					\
		SKIP(return, "no vec unit on this device");			\
	}

TEST_F(rt, vec_l1_filled_by_two_acknowledged_bursts)
{
	VEC_OPEN(dev, nd, n);
	size_t bytes = VEC_WORDS * KH_VEC_WORD_BYTES;
	unsigned char *in = malloc(bytes), *out = malloc(bytes);
	struct kohaku_inst inst[24];
	struct kohaku_data d;
	struct kohaku_program p;
	struct kohaku_job_status st;
	uint32_t h;
	uint64_t a;
	size_t i;

	(void)n;
	REQUIRE(in && out);
	for (i = 0; i < bytes; i++)
		in[i] = (unsigned char)(i * 7 + i / 251);
	REQUIRE(kohaku_bo_create(dev, nd[0].mesh, bytes, &h, &a) == 0);
	memset(out, 0, bytes);
	CHECK_OK(dev, kohaku_bo_write(dev, h, 0, out, bytes));
	d = (struct kohaku_data){ .buf_id = 0, .data = in, .size = bytes };
	p = (struct kohaku_program){ .mesh = nd[0].mesh, .x = nd[0].x,
				     .y = nd[0].y, .insts = inst,
				     .n_insts = vec_drain_program(inst, a),
				     .data = &d, .n_data = 1 };
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	CHECK_OK(dev, kohaku_bo_read(dev, h, 0, out, bytes));
	for (i = 0; i < bytes && in[i] == out[i]; i++)
		;
	if (i < bytes)
		check_fail_at(__FILE__, __LINE__, "L1 byte %zu (word %zu): drained 0x%02x, sent 0x%02x",
			    i, i / KH_VEC_WORD_BYTES, out[i], in[i]);
	kohaku_bo_free(dev, h);
	free(in);
	free(out);
	rt_close_card(dev);
}

TEST_F(rt, a_burst_the_unit_refuses_ends_the_job_error_before_any_instruction)
{
	VEC_OPEN(dev, nd, n);
	unsigned char g[KOHAKU_DATA_GRANULE] = { 1 };
	struct kohaku_inst inst[24];
	struct kohaku_data d;
	struct kohaku_program p;
	struct kohaku_job_status st;
	uint32_t h, retired;
	uint64_t a;

	(void)n;
	/* the drain's whole reach: the job may touch nothing else */
	REQUIRE(kohaku_bo_create(dev, nd[0].mesh, VEC_WORDS * KH_VEC_WORD_BYTES,
				 &h, &a) == 0);
	/* buffer 1: CU_CAPS says two, the unit takes buffer 0 only */
	d = (struct kohaku_data){ .buf_id = 1, .data = g, .size = sizeof(g) };
	p = (struct kohaku_program){ .mesh = nd[0].mesh, .x = nd[0].x,
				     .y = nd[0].y, .insts = inst,
				     .n_insts = vec_drain_program(inst, a),
				     .data = &d, .n_data = 1 };
	retired = node_live(dev, &nd[0]).retired;
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_ERROR);
	CHECK_EQ(st.reason, KOHAKU_JOB_WHY_DATA_REFUSED);
	CHECK(st.fault_flags & KOHAKU_FAULT_NODE_KNOWN);
	CHECK_EQ(st.fault_x, nd[0].x);
	CHECK_EQ(st.fault_y, nd[0].y);
	CHECK(strstr(kohaku_last_error(dev), "did not acknowledge the job's CU_DATA") != NULL);
	/* no instruction was sent: the unit retired nothing */
	CHECK_EQ(node_live(dev, &nd[0]).retired, retired);
	/*
	 * The unit remembers the refusal (F_CUDATA) until its next RUN,
	 * which faults with it, as the card's does (docs/spec/vec.md); the
	 * job after that runs.
	 */
	d.buf_id = 0;
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_FAULT);
	CHECK_EQ(st.fault_code, KH_VEC_F_CUDATA);
	CHECK_EQ(rt_run(dev, &p, 1, &st), 0);
	CHECK_EQ(st.status, KOHAKU_JOB_DONE);
	kohaku_bo_free(dev, h);
	rt_close_card(dev);
}

/* ---- SUBMIT's refusals, through the raw ioctl ---- */

static int raw_submit(kohaku_device *dev, struct drm_kohaku_program *p,
		      uint32_t size)
{
	struct drm_kohaku_submit s;
	struct drm_kohaku_wait w;
	int r;

	memset(&s, 0, sizeof(s));
	s.n_programs = 1;
	s.programs_ptr = (uintptr_t)p;
	s.program_size = size;
	r = rt_ioctl(dev, DRM_IOCTL_KOHAKU_SUBMIT, &s);
	if (r)
		return r;
	memset(&w, 0, sizeof(w));
	w.job_id = s.job_id;
	w.timeout_ms = 10000;
	r = rt_ioctl(dev, DRM_IOCTL_KOHAKU_WAIT, &w);
	return r ? r : (int)w.status;
}

TEST_F(rt, submit_refuses_bad_data_entries)
{
	CPU_OPEN(dev, nd, n);
	static unsigned char big[KOHAKU_MAX_JOB_DATA + KOHAKU_DATA_GRANULE];
	unsigned char g[2 * KOHAKU_DATA_GRANULE] = { 0 };
	struct drm_kohaku_data d[KOHAKU_MAX_PROGRAM_DATA + 1];
	struct drm_kohaku_program p;
	struct kohaku_inst noop;
	unsigned int i;

	(void)n;
	memset(&noop, 0, sizeof(noop));
	memset(&p, 0, sizeof(p));
	p.mesh = nd[0].mesh;
	p.x = nd[0].x;
	p.y = nd[0].y;
	p.n_insts = 1;
	p.insts_ptr = (uintptr_t)&noop;
	p.data_ptr = (uintptr_t)d;
	p.n_data = 1;
#define RESET()								\
	do {								\
		memset(d, 0, sizeof(d));				\
		for (i = 0; i <= KOHAKU_MAX_PROGRAM_DATA; i++) {	\
			d[i].data_ptr = (uintptr_t)g;			\
			d[i].size = KOHAKU_DATA_GRANULE;		\
			d[i].buf_id = KH_CPU_BUF_SPAD;			\
		}							\
	} while (0)
	RESET();
	CHECK_EQ(raw_submit(dev, &p, sizeof(p)), KOHAKU_JOB_DONE);
	d[0].size = 0;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	d[0].size = KOHAKU_DATA_GRANULE + 4;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	RESET();
	d[0].flags = 1;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	RESET();
	d[0].pad[2] = 1;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	RESET();
	d[0].reserved = 1;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	/* the last granule's offset must fit the descriptor's 16 bits */
	RESET();
	d[0].offset = 0xffff;
	d[0].size = 2 * KOHAKU_DATA_GRANULE;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	d[0].size = KOHAKU_DATA_GRANULE;
	/* (a burst past the cpu's window is the unit's to refuse: silently) */
	CHECK_EQ(raw_submit(dev, &p, sizeof(p)), KOHAKU_JOB_DONE);
	RESET();
	d[0].data_ptr = 0;	/* no bytes behind it */
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EFAULT);
	RESET();
	p.n_data = KOHAKU_MAX_PROGRAM_DATA + 1;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	p.n_data = KOHAKU_MAX_PROGRAM_DATA;
	CHECK_EQ(raw_submit(dev, &p, sizeof(p)), KOHAKU_JOB_DONE);
	p.n_data = 0;		/* a pointer with no count */
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	p.n_data = 1;
	p.data_ptr = 0;		/* a count with no pointer */
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	p.data_ptr = (uintptr_t)d;
	p.data_pad = 1;
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -EINVAL);
	p.data_pad = 0;
	/* over KOHAKU_MAX_JOB_DATA in all */
	RESET();
	d[0].data_ptr = (uintptr_t)big;
	d[0].size = sizeof(big);
	CHECK_ERR(raw_submit(dev, &p, sizeof(p)), -E2BIG);
	/* ABI 0.4's struct: no data fields, still a job */
	CHECK_EQ(raw_submit(dev, &p, KOHAKU_PROGRAM_SIZE_MIN), KOHAKU_JOB_DONE);
	CHECK(rt_good_saxpy(dev));
	rt_close_card(dev);
#undef RESET
}

TEST_F(rt, units_that_take_no_job_data_are_refused_at_submit)
{
	kohaku_device *dev = rt_open_card("pool");
	struct drm_kohaku_node gp[MAX_N];
	unsigned char g[KOHAKU_DATA_GRANULE] = { 0 };
	struct kohaku_data d = { .buf_id = 0, .data = g, .size = sizeof(g) };
	struct kohaku_inst noop;
	struct kohaku_program p;
	uint64_t job;

	REQUIRE(dev != NULL);
	if (!rt_nodes_of(dev, KH_CU_GP, gp, MAX_N)) {
		rt_close_card(dev);
		SKIP(return, "no POOL unit on this device");
	}
	memset(&noop, 0, sizeof(noop));
	p = (struct kohaku_program){ .mesh = gp[0].mesh, .x = gp[0].x,
				     .y = gp[0].y, .n_insts = 1, .insts = &noop,
				     .data = &d, .n_data = 1 };
	CHECK_ERR(kohaku_submit(dev, &p, 1, 0, &job), -EINVAL);
	rt_close_card(dev);
}

RT_TEST_MAIN
