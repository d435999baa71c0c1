// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The POOL unit as the mesh sees it (docs/spec/pool.md), through real
 * flits wherever the host would use them (CU_CTRL, CU_DATA, CU_INST from
 * the mailbox or the dispatcher) and hand-assembled programs on its cores:
 * the addon registers, run-stall and reset, CU_DATA into IRAM and the
 * DataRAMs with their refusals, LOAD and each of its refusals, jobs retired
 * by job_retire / job_fault with their signals and credits, NOFW and
 * HALTED, the DRAM window through MAG, the iDMA in both directions, fill
 * and each error, a mesh reset, the built-in cards, CU_DBG, determinism,
 * and the RTL profile's shallow receive FIFO under the protocol checker.
 */
#include "mpool.h"
#include "harness.h"

CHECK_FIXTURE(model)

#define R_BASE	10

static struct mp_prog pg;

/* ---- a job server: w5 != 0 faults with w6, else retires w6 ^ 'GP' ---- */
static void fw_server(struct mp_prog *p)
{
	u32 top, b1, b2, fault;

	mp_init(p);
	top = mp_here(p);
	mp_emit(p, CSRR(1, KH_POOL_CSR_JOB_STATUS));
	mp_emit(p, ANDI(2, 1, 1));
	b1 = mp_here(p);
	mp_emit(p, BNE(2, 0, 0));
	mp_emit(p, WFI);
	mp_emit(p, JAL(0, top - mp_here(p)));
	mp_patch(p, b1, mp_here(p));
	/* a job takes 300 cycles or so: its signal is seen alone */
	mp_emit(p, ADDI(7, 0, 100));
	mp_emit(p, ADDI(7, 7, -1));
	mp_emit(p, BNE(7, 0, (u32)-4));
	mp_emit(p, CSRR(3, KH_POOL_CSR_JOB_W0 + 6));
	mp_emit(p, CSRR(6, KH_POOL_CSR_JOB_W0 + 5));
	b2 = mp_here(p);
	mp_emit(p, BNE(6, 0, 0));
	mp_emit(p, LUI(5, KH_POOL_PING_XOR));
	mp_emit(p, XOR(3, 3, 5));
	mp_emit(p, CSRW(KH_POOL_CSR_JOB_RETIRE, 3));
	mp_emit(p, JAL(0, top - mp_here(p)));
	fault = mp_here(p);
	mp_patch(p, b2, fault);
	mp_emit(p, CSRW(KH_POOL_CSR_JOB_FAULT, 3));
	mp_emit(p, JAL(0, top - mp_here(p)));
}

static void job(u32 *w, u32 w6, u32 w5)
{
	memset(w, 0, 8 * sizeof(*w));
	w[7] = KH_POOL_W7(KH_POOL_OP_JOB, KH_POOL_K_PING);
	w[6] = w6;
	w[5] = w5;
}

/* One instruction from the mailbox; its NODE_STATUS when it retired. */
static u64 one(struct mp_card *m, const u32 *w)
{
	unsigned int base = KH_NS_COUNT(mm_ns(m->c, 0, m->x, m->y));

	mp_inst(m, w, 0x51, false);
	return mp_wait_ns(m, base + 1, 2000000);
}

static u64 unit_fault(unsigned int code)
{
	return KH_POOL_FAULT(KH_POOL_CLASS_UNIT, code);
}

TEST_F(model, registers_through_cu_ctrl)
{
	struct mp_card m;
	u64 caps, v;
	u32 mb[3] = { KH_POOL_BOOT_READY, 0x00010203, KH_POOL_API(1, 0) };

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	caps = mp_reg(&m, KH_CTRL_IDX_CAPS);
	CHECK_EQ(caps >> KH_CAPS_CU_TYPE_SHIFT, KH_CU_GP);
	CHECK_EQ((caps >> KH_CAPS_NBUF_SHIFT) & KH_CAPS_NBUF_MASK, KH_POOL_NBUF);
	/* inst_depth: the mesh's instruction FIFO, as for every unit */
	CHECK_EQ((caps >> KH_CAPS_DEPTH_SHIFT) & KH_CAPS_DEPTH_MASK, 512);
	caps = mp_reg(&m, KH_CTRL_IDX_POOL_CAPS);
	CHECK_EQ(KH_POOL_CAPS_SLOT(caps), KH_POOL_SLOT_ID);
	CHECK_EQ(KH_POOL_CAPS_VERSION(caps), KH_POOL_VERSION);
	CHECK_EQ(KH_POOL_CAPS_VERSION(caps), KH_POOL_VERSION_BOUNDS);
	CHECK_EQ(KH_POOL_CAPS_CORES(caps), 8);
	CHECK_EQ(KH_POOL_CAPS_IRAM_KIB(caps), 64);
	CHECK_EQ(KH_POOL_CAPS_DRAM_KIB(caps), 64);
	/* power-on: all stalled, none in reset, nothing trapped */
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_RUNSTALL), KH_POOL_STALL_ALL);
	v = mp_reg(&m, KH_CTRL_IDX_POOL_STATE);
	CHECK_EQ(KH_POOL_STATE_STALLED(v), 0xff);
	CHECK_EQ(KH_POOL_STATE_RESET(v), 0);
	CHECK_EQ(KH_POOL_STATE_HALTED(v), 0);
	CHECK_EQ(v & KH_POOL_STATE_JOB, 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_TRAP), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_RESET_PC), 0);
	/* the mailbox mirrors core 0's DataRAM words 0..2 */
	ksim_pool_poke_dram(m.p, 0, 0, mb, sizeof(mb));
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_BOOT), KH_POOL_BOOT_READY);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_FW_VERSION), 0x00010203);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_API_VERSION), KH_POOL_API(1, 0));
	/* writes reply with the value before them */
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_RESET_PC, 0x100), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_RESET_PC), 0x100);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_RESET_PC, 0x102), 0x100);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_RESET_PC, KH_POOL_IRAM_SIZE),
		 0x100);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_RESET_PC), 0x100);	/* ignored */
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff0fffull),
		 KH_POOL_STALL_ALL);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_RUNSTALL), 0x0fff);
	v = mp_reg(&m, KH_CTRL_IDX_POOL_STATE);
	CHECK_EQ(KH_POOL_STATE_STALLED(v), 0xff);
	CHECK_EQ(KH_POOL_STATE_RESET(v), 0x0f);
	/* read-only ones ignore writes; 0xf8 is nobody's */
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_CAPS, 0), caps);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_CAPS), caps);
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_POOL_TRAP, 5), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_TRAP), 0);
	CHECK_EQ(mp_reg(&m, 0xf8), 0);
	CHECK_EQ(mp_reg(&m, 0x04), 0);
	/* the base's registers stay read-only */
	CHECK_EQ(mp_reg_wr(&m, KH_CTRL_IDX_DBG, 1234), 0);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_DBG), 0);
	mp_close(&m);
}

TEST_F(model, runstall_and_reset)
{
	struct mp_card m;
	u64 r1, r2;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_emit(&pg, ADDI(1, 1, 1));			/* 4: loop */
	mp_emit(&pg, SW(1, R_BASE, 0));
	mp_emit(&pg, JAL(0, (u32)-8));
	mp_li(&pg, 7, 0x77);				/* 16: at RESET_PC 16 */
	mp_emit(&pg, JAL(0, (u32)-24));
	mp_start(&m, &pg, 1);
	ksim_run(m.c, 20000);
	r1 = m.p->core[0].instret;
	CHECK(r1 > 1000);
	/* stall: nothing runs, state kept */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xff);
	r1 = m.p->core[0].instret;
	r2 = m.p->core[0].x[1];
	ksim_run(m.c, 50000);
	CHECK_EQ(m.p->core[0].instret, r1);
	CHECK_EQ(m.p->core[0].x[1], r2);
	CHECK_EQ(KH_POOL_STATE_STALLED(mp_reg(&m, KH_CTRL_IDX_POOL_STATE)), 0xff);
	/* let go: on from where it was */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xfe);
	ksim_run(m.c, 10000);
	CHECK(m.p->core[0].instret > r1);
	CHECK(m.p->core[0].x[1] > r2);
	/* reset: registers, counters cleared; DataRAM kept */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xfffe);
	r2 = mp_dword(&m, 0, 0);
	CHECK(r2 > 0);
	CHECK_EQ(m.p->core[0].x[1], 0);
	CHECK_EQ(m.p->core[0].instret, 0);
	CHECK_EQ(KH_POOL_STATE_RESET(mp_reg(&m, KH_CTRL_IDX_POOL_STATE)), 0xff);
	ksim_run(m.c, 10000);
	CHECK_EQ(mp_dword(&m, 0, 0), r2);
	/* out of reset at RESET_PC 16 */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RESET_PC, 16);
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xfefe);
	ksim_run(m.c, 1000);
	CHECK_EQ(m.p->core[0].x[7], 0x77);
	CHECK(m.p->core[0].instret > 3);
	mp_close(&m);
}

TEST_F(model, cu_data_into_iram_and_dataram)
{
	struct mp_card m;
	u8 img[64 * KSIM_POOL_WORD];
	u32 w[8];
	u64 ns;
	unsigned int base;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	fw_server(&pg);
	memset(img, 0, sizeof(img));
	memcpy(img, pg.w, pg.n * 4);
	/* power-on: no core in reset, so an IRAM burst is refused ... */
	base = KH_NS_COUNT(mm_ns(m.c, 0, m.x, m.y));
	mp_cudata(&m, KH_POOL_BUF_IRAM, 0, 2, KH_DATAF_SIGNAL, img);
	ns = mp_wait_ns(&m, base + 1, 100000);
	REQUIRE(ns);
	/* ... still signalled ... */
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_DATA_RECEIVED);
	CHECK_EQ(KH_NS_ARG(ns), KH_POOL_BUF_IRAM);
	CHECK_EQ(ksim_pool_rd32(m.p->iram), 0);
	/* ... and the next retirement faults UNIT_LOAD (then no more) */
	job(w, 1, 0);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_NOFW));
	/* all in reset: the burst lands; the program runs */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	mp_cudata(&m, KH_POOL_BUF_IRAM, 0, 4, 0, img);
	CHECK(!memcmp(m.p->iram, img, 4 * KSIM_POOL_WORD));
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xfefe);
	job(w, 0x5, 0);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0x5 ^ KH_POOL_PING_XOR);
	/* a burst into IRAM now (core 0 runs) is refused: IRAM unchanged */
	memset(img, 0xee, 2 * KSIM_POOL_WORD);
	mp_cudata(&m, KH_POOL_BUF_IRAM, 0, 1, 0, img);
	CHECK_EQ(ksim_pool_rd32(m.p->iram), pg.w[0]);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	/* DataRAM 1: core 1 is in reset, fine; DataRAM 0: core 0 runs */
	mp_cudata(&m, KH_POOL_BUF_DATARAM(1), 8, 1, 0, img);
	CHECK_EQ(mp_dword(&m, 1, 8 * KSIM_POOL_WORD), 0xeeeeeeeeu);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	mp_cudata(&m, KH_POOL_BUF_DATARAM(0), 8, 1, 0, img);
	CHECK_EQ(mp_dword(&m, 0, 8 * KSIM_POOL_WORD), 0);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	/* past the end; unknown buffers */
	mp_cudata(&m, KH_POOL_BUF_DATARAM(1), 2047, 2, 0, img);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	CHECK_EQ(mp_dword(&m, 1, 2047 * KSIM_POOL_WORD), 0);
	mp_cudata(&m, 0, 0, 1, 0, img);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	mp_cudata(&m, 24, 0, 1, 0, img);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	mp_close(&m);
}

TEST_F(model, cu_data_single_words_any_time)
{
	struct mp_card m;
	u8 d[2 * KSIM_POOL_WORD];

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	/* core 0 spins on its mailbox word 0 until CLAIM, then writes 1 */
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_li(&pg, 2, KH_POOL_BOOT_READY);
	mp_emit(&pg, SW(2, R_BASE, 0));
	mp_li(&pg, 2, KH_POOL_BOOT_CLAIM);
	mp_emit(&pg, LW(1, R_BASE, 0));			/* 24 */
	mp_emit(&pg, BNE(1, 2, (u32)-4));
	mp_emit(&pg, ADDI(3, 0, 1));
	mp_emit(&pg, SW(3, R_BASE, 64));
	mp_halt(&pg);
	mp_start(&m, &pg, 1);
	ksim_run(m.c, 5000);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_BOOT), KH_POOL_BOOT_READY);
	CHECK_EQ(mp_dword(&m, 0, 64), 0);
	memset(d, 0, sizeof(d));
	ksim_pool_wr32(d, KH_POOL_BOOT_CLAIM);
	ksim_pool_wr32(d + 4, 0xdeadbeefu);	/* not written: [31:0] only */
	ksim_pool_wr32(d + KSIM_POOL_WORD, 0x5678);
	mp_cudata(&m, KH_POOL_BUF_WORD(0), 0, 2, 0, d);
	CHECK(mp_wait_word(&m, 0, 64, 100000));
	CHECK_EQ(mp_dword(&m, 0, 0), KH_POOL_BOOT_CLAIM);
	CHECK_EQ(mp_dword(&m, 0, 4), 0x5678);
	CHECK_EQ(m.p->load_fault, false);
	/* the last word of DataRAM, and one past it (refused) */
	mp_cudata(&m, KH_POOL_BUF_WORD(7), KSIM_POOL_DRAM_WORDS - 1, 1, 0, d);
	CHECK_EQ(mp_dword(&m, 7, KH_POOL_DRAM_SIZE - 4), KH_POOL_BOOT_CLAIM);
	CHECK_EQ(m.p->load_fault, false);
	mp_cudata(&m, KH_POOL_BUF_WORD(7), KSIM_POOL_DRAM_WORDS - 1, 2, 0, d);
	CHECK_EQ(m.p->load_fault, true);
	mp_close(&m);
}

/*
 * The rules are checked again at every flit (pool.md "Loading"): a core let
 * out of reset mid-burst refuses the rest of a burst into its DataRAM.
 */
TEST_F(model, cu_data_refused_mid_burst)
{
	struct mp_card m;
	struct kh_flit f;
	u8 d[KSIM_POOL_WORD];
	unsigned int i;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	memset(d, 0x5a, sizeof(d));
	for (i = 0; i < 2; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, m.x, m.y, 0, 0, KH_T_CU_DATA, 0x21, 0);
		if (i) {
			ksim_bytes_to_payload(f.w, d);
		} else {
			kh_flit_set(&f, KH_DATA_BUF_ID, KH_POOL_BUF_DATARAM(1));
			kh_flit_set(&f, KH_DATA_OFFSET, 8);
			kh_flit_set(&f, KH_DATA_LEN, 1);
		}
		mm_mb_send(m.c, 0, &f);
	}
	ksim_run(m.c, 500);
	CHECK_EQ(mp_dword(&m, 1, 8 * KSIM_POOL_WORD), 0x5a5a5a5au);
	CHECK_EQ(m.p->load_fault, false);
	/* core 1 leaves reset (still stalled): the last flit is refused */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xfdff);
	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, m.x, m.y, 0, 0, KH_T_CU_DATA, 0x21, 1);
	ksim_bytes_to_payload(f.w, d);
	mm_mb_send(m.c, 0, &f);
	ksim_run(m.c, 500);
	CHECK_EQ(mp_dword(&m, 1, 9 * KSIM_POOL_WORD), 0);
	CHECK_EQ(m.p->load_fault, true);
	mp_close(&m);
}

/* A LOAD instruction's words. */
static void load_words(u32 *w, unsigned int tgt, u32 off, u32 len, u64 src)
{
	memset(w, 0, 8 * sizeof(*w));
	w[7] = KH_POOL_W7(KH_POOL_OP_LOAD, tgt);
	w[KH_POOL_LOAD_W_OFFSET] = off;
	w[KH_POOL_LOAD_W_LEN] = len;
	w[0] = (u32)src;
	w[1] = (u32)(src >> 32);
}

TEST_F(model, load_instruction)
{
	struct mp_card m;
	static u8 img[8192];
	unsigned int i, c;
	u32 w[8];
	u64 ns;
	const u64 src = 0x200000;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	for (i = 0; i < sizeof(img); i++)
		img[i] = (u8)(i * 7 + (i >> 8));
	REQUIRE(!ksim_dma_write(m.c, KH_CARD_ADDR(0, src), img, sizeof(img)));
	/* no core in reset: every target refused */
	load_words(w, KH_POOL_BUF_IRAM, 0, 1024, KH_MADDR(0, src));
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_LOAD));
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0x04ff);	/* core 2 */
	load_words(w, KH_POOL_BUF_DATARAM(1), 0, 1024, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_LOAD_ALL_DRAM, 0, 1024, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	/* DataRAM 2 */
	load_words(w, KH_POOL_BUF_DATARAM(2), 0x400, 8192, KH_MADDR(0, src));
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 8192);
	CHECK(!memcmp(m.p->core[2].dram + 0x400, img, 8192));
	/* all in reset: IRAM and every DataRAM */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	load_words(w, KH_POOL_BUF_IRAM, KH_POOL_IRAM_SIZE - 4096, 4096,
		   KH_MADDR(0, src + 32));
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK(!memcmp(m.p->iram + KH_POOL_IRAM_SIZE - 4096, img + 32, 4096));
	load_words(w, KH_POOL_LOAD_ALL_DRAM, 0x8000, 2048, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_CODE(one(&m, w)), KH_SIG_INST_COMPLETE);
	for (c = 0; c < KH_POOL_CORES; c++)
		CHECK(!memcmp(m.p->core[c].dram + 0x8000, img, 2048));
	/* len 0: done at once */
	load_words(w, KH_POOL_BUF_IRAM, 0, 0, KH_MADDR(0, src));
	ns = one(&m, w);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_INST_COMPLETE);
	CHECK_EQ(KH_NS_ARG(ns), 0);
	/* each rule */
	load_words(w, KH_POOL_BUF_IRAM, 16, 32, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_BUF_IRAM, 0, 48, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_BUF_IRAM, 0, 32, KH_MADDR(0, src + 8));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_BUF_IRAM, KH_POOL_IRAM_SIZE - 32, 64,
		   KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, 5, 0, 32, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_BUF_WORD(0), 0, 32, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_BUF_IRAM, 0, 64,
		   KH_MADDR(0, KH_MESH_DRAM_SIZE - 32));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	load_words(w, KH_POOL_BUF_IRAM, 0, 32, KH_MADDR_SPECIAL | src);
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_LOAD));
	/* a LOAD is the unit's: it works with a trapped core too */
	m.p->dead = true;
	load_words(w, KH_POOL_BUF_DATARAM(3), 0, 64, KH_MADDR(0, src));
	CHECK_EQ(KH_NS_CODE(one(&m, w)), KH_SIG_INST_COMPLETE);
	mp_close(&m);
}

/* Stage n instructions for the dispatcher at slot 0 and kick them. */
static void dispatch(struct mp_card *m, u32 (*w)[8], unsigned int n,
		     unsigned int txn, unsigned int cred)
{
	unsigned int i, j;
	struct kh_flit f;

	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, 9, 9, 9, 9, KH_T_CU_INST, txn, i + 1 == n);
		for (j = 0; j < 8; j++)
			ksim_payload_set_u32(f.w, j, w[i][j]);
		for (j = 0; j < KH_FLIT_WORDS; j++)
			mm_wr(m->c, 0, KH_ORC_STAGE(i) + j * 8, f.w[j]);
	}
	mm_wr(m->c, 0, KH_ORC_PROG_CRED, cred);
	mm_wr(m->c, 0, KH_ORC_PROG_DST, KH_YX(m->x, m->y));
	mm_wr(m->c, 0, KH_ORC_PROG_BASE, 0);
	mm_wr(m->c, 0, KH_ORC_PROG_LEN, n);
	mm_wr(m->c, 0, KH_ORC_PROG_KICK, 1);
}

TEST_F(model, jobs_retired_by_the_firmware_signals_and_credits)
{
	struct mp_card m;
	u32 w[4][8];
	unsigned int base, got = 0, codes[4], args[4];
	u64 ns, last = 0, state;
	struct kh_flit r;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mh_fast_host(m.c);
	fw_server(&pg);
	mp_start(&m, &pg, 1);		/* core 0 serves (SPMD needs a barrier) */
	ksim_run(m.c, 2000);
	base = KH_NS_COUNT(mm_ns(m.c, 0, m.x, m.y));
	mm_wr(m.c, 0, KH_ORC_SIG_DONE, 0);
	job(w[0], 0x100, 0);
	job(w[1], 0x200, 1);			/* faults with 0x200 */
	job(w[2], 0x300, 0);
	job(w[3], 0x400, 0);			/* last: batch */
	dispatch(&m, w, 4, 0x6a, 8);
	/* follow NODE_STATUS: one record per signal */
	while (got < 4 && last < 200000) {
		ns = mm_ns(m.c, 0, m.x, m.y);
		if (KH_NS_COUNT(ns) == ((base + got + 1) & 0xffff)) {
			codes[got] = KH_NS_CODE(ns);
			args[got] = KH_NS_ARG(ns);
			got++;
			continue;
		}
		ksim_run(m.c, 1);
		last++;
	}
	REQUIRE(got == 4);
	CHECK_EQ(codes[0], KH_SIG_INST_COMPLETE);
	CHECK_EQ(args[0], 0x100 ^ KH_POOL_PING_XOR);
	CHECK_EQ(codes[1], KH_SIG_FAULT);
	CHECK_EQ(args[1], KH_POOL_FAULT(KH_POOL_CLASS_FW, 0x200));
	CHECK_EQ(KH_POOL_FAULT_CLASS(args[1]), KH_POOL_CLASS_FW);
	CHECK_EQ(codes[2], KH_SIG_INST_COMPLETE);
	CHECK_EQ(args[2], 0x300 ^ KH_POOL_PING_XOR);
	CHECK_EQ(codes[3], KH_SIG_BATCH_COMPLETE);
	CHECK_EQ(args[3], 0x6a);
	ksim_run(m.c, 1000);
	CHECK_EQ(mm_rd(m.c, 0, KH_ORC_SIG_DONE), 4);
	/* credits: 4 pushed, 2 SIG_INST_COMPLETE back */
	CHECK_EQ(mm_rd(m.c, 0, KH_ORC_PROG_CRED), 8 - 4 + 2);
	/* four jobs, four sequence numbers; none present now */
	state = mp_reg(&m, KH_CTRL_IDX_POOL_STATE);
	CHECK_EQ(KH_POOL_STATE_SEQ(state), 4);
	CHECK_EQ(state & KH_POOL_STATE_JOB, 0);
	CHECK(mh_ctrl_read(m.c, m.x, m.y, KH_CTRL_IDX_COUNTERS, 3, &r));
	CHECK_EQ(mh_ctrl_value(&r) >> KH_CTR_RETIRED_SHIFT, 4);
	mp_close(&m);
}

TEST_F(model, nofw_and_halted)
{
	struct mp_card m;
	u32 w[8];

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	job(w, 1, 0);
	/* power-on: every core stalled */
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_NOFW));
	/* every core in reset */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xff00);
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_NOFW));
	/* one core runs (and traps): HALTED from then on */
	mp_init(&pg);
	mp_emit(&pg, EBREAK);
	mp_start(&m, &pg, 0x20);
	ksim_run(m.c, 1000);
	CHECK_EQ(m.p->halted, 0x20);
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_HALTED));
	/* a job that arrives while no core runs, after the cluster reset */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xffff);
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_NOFW));
	mp_close(&m);
}

TEST_F(model, a_job_nobody_ends_retires_nofw_at_a_cluster_reset)
{
	struct mp_card m;
	unsigned int base;
	u32 w[8];
	u64 ns;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mp_init(&pg);
	mp_emit(&pg, JAL(0, 0));		/* never looks at the job */
	mp_start(&m, &pg, 1);
	job(w, 1, 0);
	base = KH_NS_COUNT(mm_ns(m.c, 0, m.x, m.y));
	mp_inst(&m, w, 0x52, false);
	CHECK_EQ(mp_wait_ns(&m, base + 1, 200000), 0);	/* hangs */
	CHECK(KH_POOL_STATE_JOB & mp_reg(&m, KH_CTRL_IDX_POOL_STATE));
	/* a run-stall only pauses it */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0x00ff);
	ksim_run(m.c, 10000);
	CHECK(KH_POOL_STATE_JOB & mp_reg(&m, KH_CTRL_IDX_POOL_STATE));
	/* the whole cluster in reset: NOFW, and the unit goes on */
	mp_reg_wr(&m, KH_CTRL_IDX_POOL_RUNSTALL, 0xff00);
	ns = mp_wait_ns(&m, base + 1, 100000);
	REQUIRE(ns);
	CHECK_EQ(KH_NS_CODE(ns), KH_SIG_FAULT);
	CHECK_EQ(KH_NS_ARG(ns), unit_fault(KH_POOL_UNIT_NOFW));
	CHECK_EQ(KH_NS_ARG(one(&m, w)), unit_fault(KH_POOL_UNIT_NOFW));
	mp_close(&m);
}

TEST_F(model, idma_both_directions_and_fill)
{
	struct mp_card m;
	static u8 src[16384], out[16384];
	unsigned int i;
	u32 st;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	for (i = 0; i < sizeof(src); i++)
		src[i] = (u8)(i ^ (i >> 7) ^ 0x5a);
	REQUIRE(!ksim_dma_write(m.c, KH_CARD_ADDR(0, 0x400000), src,
				sizeof(src)));
	/* core 3: 16 KiB in, 4 KiB out, 4 KiB fill, 32 B in at a 4-aligned spot */
	mp_idma_run(&m, 3, 4);
	mp_desc(&m, 3, 0, KH_MADDR(0, 0x400000), KH_POOL_DRAM_BASE + 0x2000,
	     16384, 0, 0);
	mp_desc(&m, 3, 1, KH_MADDR(0, 0x500000), KH_POOL_DRAM_BASE + 0x2000,
	     4096, KH_POOL_IDMA_TO_DRAM, 0);
	mp_desc(&m, 3, 2, KH_MADDR(0, 0x600000), 0, 4096,
	     KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL, 0x01020304);
	mp_desc(&m, 3, 3, KH_MADDR(0, 0x400040), KH_POOL_DRAM_BASE + 0x8004,
	     32, 0, 0);
	REQUIRE(mp_wait_word(&m, 3, 8, 2000000));
	st = mp_dword(&m, 3, 4);
	CHECK_EQ(KH_POOL_IDMA_DONE(st), 4);
	CHECK_EQ(KH_POOL_IDMA_PENDING(st), 0);
	CHECK_EQ(st & KH_POOL_IDMA_ERROR, 0);
	CHECK(!memcmp(m.p->core[3].dram + 0x2000, src, 16384));
	CHECK(!memcmp(m.p->core[3].dram + 0x8004, src + 0x40, 32));
	REQUIRE(!ksim_dma_read(m.c, KH_CARD_ADDR(0, 0x500000), out, 4096));
	CHECK(!memcmp(out, src, 4096));
	REQUIRE(!ksim_dma_read(m.c, KH_CARD_ADDR(0, 0x600000), out, 4096));
	for (i = 0; i < 4096; i += 4)
		if (ksim_pool_rd32(out + i) != 0x01020304)
			break;
	CHECK_EQ(i, 4096);
	CHECK_EQ(m.p->core[3].wb_count, 0);
	CHECK_EQ(m.p->port.rd_out, 0);
	CHECK_EQ(m.p->port.wr_out, 0);
	mp_close(&m);
}

TEST_F(model, idma_queue_full_stalls_the_push)
{
	struct mp_card m;
	unsigned int i;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mp_idma_run(&m, 0, 40);
	for (i = 0; i < 40; i++)
		mp_desc(&m, 0, i, KH_MADDR(0, 0x700000 + 256 * i), 0, 256,
		     KH_POOL_IDMA_TO_DRAM | KH_POOL_IDMA_FILL, i);
	REQUIRE(mp_wait_word(&m, 0, 8, 2000000));
	CHECK_EQ(KH_POOL_IDMA_DONE(mp_dword(&m, 0, 4)), 40);
	for (i = 0; i < 40; i++) {
		u8 b[4];

		ksim_dma_read(m.c, KH_CARD_ADDR(0, 0x700000 + 256 * i + 224),
			      b, 4);
		CHECK_EQ(ksim_pool_rd32(b), i);
	}
	mp_close(&m);
}

/* One descriptor on core 0; its idma_status. */
static u32 idma_one(struct mp_card *m, u64 dram, u32 dataram, u32 len,
		    u32 flags, u32 reserved_word)
{
	mp_idma_run(m, 0, 2);
	mp_desc(m, 0, 0, dram, dataram, len, flags, 0);
	if (reserved_word)
		ksim_pool_poke_dram(m->p, 0, 0x1000 + 60, &reserved_word, 4);
	/* a good one behind it: dropped with the queue */
	mp_desc(m, 0, 1, KH_MADDR(0, 0x100000), KH_POOL_DRAM_BASE, 32, 0, 0);
	if (!mp_wait_word(m, 0, 8, 1000000))
		return 0;
	return mp_dword(m, 0, 4);
}

TEST_F(model, idma_errors)
{
	struct mp_card m;
	u32 st;
	const u32 dr = KH_POOL_DRAM_BASE + 0x4000;
	const u64 mem = KH_MADDR(0, 0x100000);
	u32 bad = KH_POOL_DRAM_BASE + 0x1004;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
#define CAUSE(dram, dataram, len, flags, res, want) do {		\
		st = idma_one(&m, dram, dataram, len, flags, res);	\
		CHECK_MSG((st & KH_POOL_IDMA_ERROR) &&			\
			  KH_POOL_IDMA_CAUSE(st) == (want) &&		\
			  KH_POOL_IDMA_DONE(st) == 0 &&			\
			  KH_POOL_IDMA_PENDING(st) == 0,		\
			  "line %d: status %08x, want cause %u", __LINE__, \
			  st, want);					\
	} while (0)
	CAUSE(mem + 8, dr, 64, 0, 0, KH_POOL_IDMA_ERR_ALIGN);
	CAUSE(mem, dr, 48, 0, 0, KH_POOL_IDMA_ERR_ALIGN);
	CAUSE(mem, dr + 2, 64, 0, 0, KH_POOL_IDMA_ERR_ALIGN);
	CAUSE(mem, dr, KH_POOL_IDMA_MAX_LEN + 32, 0, 0, KH_POOL_IDMA_ERR_RANGE);
	CAUSE(mem, KH_POOL_DRAM_BASE + KH_POOL_DRAM_SIZE - 32, 64, 0, 0,
	      KH_POOL_IDMA_ERR_RANGE);
	CAUSE(mem, 0x100, 64, 0, 0, KH_POOL_IDMA_ERR_RANGE);
	CAUSE(KH_MADDR(0, KH_MESH_DRAM_SIZE - 32), dr, 64, 0, 0,
	      KH_POOL_IDMA_ERR_RANGE);
	CAUSE(KH_MADDR_SPECIAL | 0x100000, dr, 64, 0, 0,
	      KH_POOL_IDMA_ERR_RANGE);
	CAUSE(mem, dr, 0, 0, 0, KH_POOL_IDMA_ERR_DESC);
	CAUSE(mem, dr, 64, KH_POOL_IDMA_FILL, 0, KH_POOL_IDMA_ERR_DESC);
	CAUSE(mem, dr, 64, 0x4, 0, KH_POOL_IDMA_ERR_DESC);
	CAUSE(mem, dr, 64, 0, 1, KH_POOL_IDMA_ERR_DESC);
#undef CAUSE
	/* a push of a bad descriptor address; pushes ignored until cleared */
	ksim_pool_set_runstall(m.p, 0xffff);
	mp_desc(&m, 0, 0, mem, dr, 32, 0, 0);
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_li(&pg, 2, bad);
	mp_emit(&pg, CSRW(KH_POOL_CSR_IDMA_PUSH, 2));
	mp_emit(&pg, LUI(2, KH_POOL_DRAM_BASE + 0x1000));
	mp_emit(&pg, CSRW(KH_POOL_CSR_IDMA_PUSH, 2));	/* ignored */
	mp_emit(&pg, CSRR(3, KH_POOL_CSR_IDMA_STATUS));
	mp_emit(&pg, SW(3, R_BASE, 4));
	mp_emit(&pg, CSRRWI(0, KH_POOL_CSR_IDMA_CTRL, KH_POOL_IDMA_CLEAR));
	mp_emit(&pg, CSRR(3, KH_POOL_CSR_IDMA_STATUS));
	mp_emit(&pg, SW(3, R_BASE, 8));
	mp_emit(&pg, CSRW(KH_POOL_CSR_IDMA_PUSH, 2));	/* now it runs */
	mp_emit(&pg, CSRR(3, KH_POOL_CSR_IDMA_STATUS));	/* until done */
	mp_emit(&pg, SLLI(5, 3, 16));
	mp_emit(&pg, BNE(5, 0, 12));
	mp_emit(&pg, WFI);
	mp_emit(&pg, JAL(0, (u32)-16));
	mp_emit(&pg, SW(3, R_BASE, 12));
	mp_halt(&pg);
	mp_start(&m, &pg, 1);
	REQUIRE(mp_wait_word(&m, 0, 12, 1000000));
	st = mp_dword(&m, 0, 4);
	CHECK_EQ(st, KH_POOL_IDMA_ERROR | KH_POOL_IDMA_ERR_PUSH << 28);
	CHECK_EQ(mp_dword(&m, 0, 8), 0);
	CHECK_EQ(mp_dword(&m, 0, 12), 1);
	mp_close(&m);
}

TEST_F(model, window_loads_and_stores_through_mag)
{
	struct mp_card m;
	u8 pre[64], out[128];
	unsigned int i;
	const u32 wb = 0x00300000;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	for (i = 0; i < 64; i++)
		pre[i] = (u8)(0xa0 + i);
	REQUIRE(!ksim_dma_write(m.c, KH_CARD_ADDR(0, wb + 0x1000), pre, 64));
	mp_init(&pg);
	mp_emit(&pg, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_li(&pg, 1, wb);
	mp_emit(&pg, CSRW(KH_POOL_CSR_WIN_BASE, 1));
	mp_emit(&pg, LUI(2, KH_POOL_WIN_BASE));
	mp_li(&pg, 3, 0x11223344u);
	mp_emit(&pg, SW(3, 2, 0));
	mp_emit(&pg, SB(3, 2, 5));
	mp_emit(&pg, SH(3, 2, 10));
	mp_emit(&pg, SW(3, 2, 32));
	mp_emit(&pg, LW(4, 2, 0));		/* from the write buffer */
	mp_emit(&pg, LBU(5, 2, 5));
	mp_emit(&pg, LH(6, 2, 10));
	mp_li(&pg, 7, 0x1000);
	mp_emit(&pg, ADD(7, 7, 2));
	mp_emit(&pg, LW(8, 7, 4));		/* through MAG */
	mp_emit(&pg, LB(9, 7, 63));
	mp_emit(&pg, SB(3, 7, 62));		/* read-modify-write */
	mp_emit(&pg, FENCE);
	mp_emit(&pg, SW(4, R_BASE, 0));
	mp_emit(&pg, SW(5, R_BASE, 4));
	mp_emit(&pg, SW(6, R_BASE, 8));
	mp_emit(&pg, SW(8, R_BASE, 12));
	mp_emit(&pg, SW(9, R_BASE, 16));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->halted, 0);
	CHECK_EQ(mp_dword(&m, 0, 0), 0x11223344u);
	CHECK_EQ(mp_dword(&m, 0, 4), 0x44);
	CHECK_EQ(mp_dword(&m, 0, 8), 0x3344);
	CHECK_EQ(mp_dword(&m, 0, 12), 0xa7a6a5a4u);
	CHECK_EQ(mp_dword(&m, 0, 16), 0xffffffdfu);
	REQUIRE(!ksim_dma_read(m.c, KH_CARD_ADDR(0, wb), out, 64));
	CHECK_EQ(ksim_pool_rd32(out), 0x11223344u);
	CHECK_EQ(out[4], 0);
	CHECK_EQ(out[5], 0x44);
	CHECK_EQ(out[10], 0x44);
	CHECK_EQ(out[11], 0x33);
	CHECK_EQ(ksim_pool_rd32(out + 32), 0x11223344u);
	REQUIRE(!ksim_dma_read(m.c, KH_CARD_ADDR(0, wb + 0x1000), out, 64));
	CHECK_EQ(out[62], 0x44);
	CHECK_EQ(out[61], 0xa0 + 61);
	CHECK_EQ(out[63], 0xa0 + 63);
	CHECK_EQ(m.p->port.wr_out, 0);
	mp_close(&m);
}

TEST_F(model, window_past_the_mesh_dram_faults)
{
	struct mp_card m;
	u64 trap;

	REQUIRE(mp_open(&m, "param dram_mib 16\n" MP_MAP_ONE, 1, 0));
	mp_init(&pg);
	mp_li(&pg, 1, 15u << 20);
	mp_emit(&pg, CSRW(KH_POOL_CSR_WIN_BASE, 1));
	mp_li(&pg, 2, KH_POOL_WIN_BASE + (1u << 20) - 4);
	mp_emit(&pg, LW(3, 2, 0));		/* the DRAM's last word: fine */
	mp_emit(&pg, SW(3, 2, 4));		/* 16 MiB: past it */
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	trap = mp_reg(&m, KH_CTRL_IDX_POOL_TRAP);
	CHECK_EQ(KH_POOL_TRAP_CAUSE(trap), KH_POOL_CAUSE_STORE_FAULT);
	CHECK_EQ(KH_POOL_TRAP_PC(trap), 24);
	mp_close(&m);
}

TEST_F(model, mesh_reset_is_power_on_memories_kept)
{
	struct mp_card m;
	u32 word = 0x12345678;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mp_init(&pg);
	mp_emit(&pg, ADDI(1, 1, 1));
	mp_emit(&pg, JAL(0, (u32)-4));
	mp_start(&m, &pg, 1);
	ksim_pool_poke_dram(m.p, 5, 0x100, &word, 4);
	ksim_run(m.c, 1000);
	CHECK(m.p->core[0].instret > 0);
	REQUIRE(!ksim_mesh_reset(m.c, 0));
	ksim_run(m.c, 20000);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_POOL_RUNSTALL), KH_POOL_STALL_ALL);
	CHECK_EQ(m.p->core[0].instret, 0);
	CHECK_EQ(m.p->core[0].x[1], 0);
	CHECK_EQ(mp_dword(&m, 5, 0x100), word);
	CHECK_EQ(ksim_pool_rd32(m.p->iram), pg.w[0]);
	mp_close(&m);
}

TEST_F(model, cu_dbg_counts_every_core)
{
	struct mp_card m;
	u64 sum = 0;
	unsigned int i;

	REQUIRE(mp_open(&m, MP_MAP_ONE, 1, 0));
	mp_init(&pg);
	mp_emit(&pg, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(&pg, ADDI(1, 1, 1));
	mp_emit(&pg, ADDI(1, 1, -1));		/* 3 * (id + 1) + 1 */
	mp_emit(&pg, BNE(1, 0, (u32)-4));
	mp_halt(&pg);
	mp_start(&m, &pg, 0xff);
	REQUIRE(mp_settle(&m, 0xff, 100000));
	for (i = 0; i < KH_POOL_CORES; i++)
		sum += m.p->core[i].instret;
	CHECK_EQ(sum, 8 * 2 + 2 * 36);
	CHECK_EQ(mp_reg(&m, KH_CTRL_IDX_DBG), sum);
	mp_close(&m);
}

/* Eight cores at once: window stores, an iDMA copy, two barriers. */
static void busy_prog(struct mp_prog *p)
{
	mp_init(p);
	mp_emit(p, LUI(R_BASE, KH_POOL_DRAM_BASE));
	mp_emit(p, CSRR(1, KH_POOL_CSR_MHARTID));
	mp_emit(p, SLLI(2, 1, 20));		/* win_base = id MiB + 8 MiB */
	mp_emit(p, LUI(3, 0x800000));
	mp_emit(p, ADD(2, 2, 3));
	mp_emit(p, CSRW(KH_POOL_CSR_WIN_BASE, 2));
	mp_emit(p, LUI(4, KH_POOL_WIN_BASE));
	mp_emit(p, ADDI(5, 0, 40));		/* 40 stores, one per word */
	mp_emit(p, ADD(6, 5, 1));		/* loop: */
	mp_emit(p, SW(6, 4, 0));
	mp_emit(p, ADDI(4, 4, 32));
	mp_emit(p, ADDI(5, 5, -1));
	mp_emit(p, BNE(5, 0, (u32)-16));
	mp_emit(p, FENCE);
	mp_emit(p, CSRRW(0, KH_POOL_CSR_BARRIER, 0));
	/* 2 KiB of the window back into DataRAM by iDMA */
	mp_emit(p, LUI(7, KH_POOL_DRAM_BASE + 0x1000));
	mp_emit(p, CSRW(KH_POOL_CSR_IDMA_PUSH, 7));
	mp_emit(p, CSRR(8, KH_POOL_CSR_IDMA_STATUS));	/* wait: */
	mp_emit(p, SLLI(8, 8, 16));
	mp_emit(p, BNE(8, 0, 12));
	mp_emit(p, WFI);
	mp_emit(p, JAL(0, (u32)-16));
	mp_emit(p, CSRRW(0, KH_POOL_CSR_BARRIER, 0));
	mp_emit(p, CSRR(9, KH_POOL_CSR_CYCLE));
	mp_emit(p, SW(9, R_BASE, 0));
	mp_emit(p, ADDI(9, 0, 1));
	mp_emit(p, SW(9, R_BASE, 4));
	mp_halt(p);
}

static void busy_run(const char *desc_text, u32 *cyc, u64 *sum)
{
	struct mp_card m;
	unsigned int i;

	*sum = 0;
	REQUIRE(mp_open(&m, desc_text, 1, 0));
	busy_prog(&pg);
	ksim_pool_set_runstall(m.p, 0xffff);
	for (i = 0; i < KH_POOL_CORES; i++)
		mp_desc(&m, i, 0, KH_MADDR(0, 0x800000 + (i << 20)),
		     KH_POOL_DRAM_BASE + 0x2000, 2048, 0, 0);
	mp_start(&m, &pg, 0xff);
	for (i = 0; i < KH_POOL_CORES; i++) {
		u32 j;

		CHECK(mp_wait_word(&m, i, 4, 2000000));
		cyc[i] = mp_dword(&m, i, 0);
		for (j = 0; j < 40; j++)
			if (mp_dword(&m, i, 0x2000 + 32 * j) != 40 - j + i)
				break;
		CHECK_MSG(j == 40, "core %u: word %u", i, j);
		*sum += m.p->core[i].instret;
	}
	CHECK_EQ(m.p->port.rd_out, 0);
	CHECK_EQ(m.p->port.wr_out, 0);
	mp_close(&m);
}

TEST_F(model, eight_cores_deterministic)
{
	u32 c1[8], c2[8];
	u64 s1, s2;
	unsigned int i;

	busy_run(MP_MAP_ONE, c1, &s1);
	busy_run(MP_MAP_ONE, c2, &s2);
	CHECK_EQ(s1, s2);
	for (i = 0; i < KH_POOL_CORES; i++)
		CHECK_EQ(c1[i], c2[i]);
	/* all leave the last barrier together */
	for (i = 1; i < KH_POOL_CORES; i++)
		CHECK_EQ(c1[i], c1[0]);
	check_diag("eight cores: done at core cycle %u", c1[0]);
}

TEST_F(model, rtl_profile_shallow_receive_fifo)
{
	u32 c[8];
	u64 s;

	/* recv_depth 16: at most 16 beats in flight (the checker's rule 9) */
	busy_run("profile rtl\n" MP_MAP_ONE, c, &s);
	CHECK(s > 0);
}

TEST_F(model, builtin_cards)
{
	struct mp_card m;
	static const u8 pool_gp[3][2] = { { 1, 0 }, { 2, 1 }, { 1, 2 } };
	unsigned int i;
	u32 w[8];
	u64 ns;

	REQUIRE(mp_open(&m, "pool", 1, 2));
	for (i = 0; i < 3; i++) {
		u64 caps = mm_ctrl_rd(m.c, 0, pool_gp[i][0], pool_gp[i][1],
				      KH_CTRL_IDX_CAPS);

		CHECK_EQ(caps >> KH_CAPS_CU_TYPE_SHIFT, KH_CU_GP);
		CHECK(mp_unit(&m, pool_gp[i][0], pool_gp[i][1]) != NULL);
	}
	CHECK_EQ(mm_ctrl_rd(m.c, 0, 2, 0, KH_CTRL_IDX_CAPS) >>
		 KH_CAPS_CU_TYPE_SHIFT, KH_CU_SX);
	fw_server(&pg);
	mp_start(&m, &pg, 1);
	job(w, 9, 0);
	ns = one(&m, w);
	CHECK_EQ(KH_NS_ARG(ns), 9 ^ KH_POOL_PING_XOR);
	mp_close(&m);

	/* pool_2x2: the unit on row 3 reaches DRAM through the row 2 port */
	REQUIRE(mp_open(&m, "pool_2x2", 1, 3));
	CHECK_EQ(m.p->port.my, 2);
	mp_init(&pg);
	mp_emit(&pg, LUI(2, KH_POOL_WIN_BASE));
	mp_li(&pg, 3, 0x600dcafe);
	mp_emit(&pg, SW(3, 2, 64));
	mp_emit(&pg, FENCE);
	mp_emit(&pg, LW(4, 2, 64));
	mp_halt(&pg);
	REQUIRE(mp_exec(&m, &pg));
	CHECK_EQ(m.p->core[0].x[4], 0x600dcafe);
	mp_close(&m);
}

CHECK_TEST_MAIN
