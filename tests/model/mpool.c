// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Helpers for the POOL unit's tests (mpool.h). */
#include "mpool.h"

u32 rv_r(unsigned int f7, unsigned int rs2, unsigned int rs1, unsigned int f3,
	 unsigned int rd, unsigned int op)
{
	return f7 << 25 | (rs2 & 31) << 20 | (rs1 & 31) << 15 | f3 << 12 |
	       (rd & 31) << 7 | op;
}

u32 rv_i(u32 imm, unsigned int rs1, unsigned int f3, unsigned int rd,
	 unsigned int op)
{
	return (imm & 0xfff) << 20 | (rs1 & 31) << 15 | f3 << 12 |
	       (rd & 31) << 7 | op;
}

u32 rv_s(u32 imm, unsigned int rs2, unsigned int rs1, unsigned int f3)
{
	return ((imm >> 5) & 0x7f) << 25 | (rs2 & 31) << 20 | (rs1 & 31) << 15 |
	       f3 << 12 | (imm & 0x1f) << 7 | 0x23;
}

u32 rv_b(u32 off, unsigned int rs1, unsigned int rs2, unsigned int f3)
{
	return ((off >> 12) & 1) << 31 | ((off >> 5) & 0x3f) << 25 |
	       (rs2 & 31) << 20 | (rs1 & 31) << 15 | f3 << 12 |
	       ((off >> 1) & 0xf) << 8 | ((off >> 11) & 1) << 7 | 0x63;
}

u32 rv_u(u32 imm, unsigned int rd, unsigned int op)
{
	return (imm & 0xfffff000u) | (rd & 31) << 7 | op;
}

u32 rv_j(u32 off, unsigned int rd)
{
	return ((off >> 20) & 1) << 31 | ((off >> 1) & 0x3ff) << 21 |
	       ((off >> 11) & 1) << 20 | ((off >> 12) & 0xff) << 12 |
	       (rd & 31) << 7 | 0x6f;
}

void mp_init(struct mp_prog *p)
{
	memset(p, 0, sizeof(*p));
}

u32 mp_here(const struct mp_prog *p)
{
	return p->n * 4;
}

void mp_emit(struct mp_prog *p, u32 w)
{
	if (p->n < MP_PROG_MAX)
		p->w[p->n++] = w;
}

void mp_li(struct mp_prog *p, unsigned int rd, u32 v)
{
	u32 lo = v & 0xfff, hi = v - ((lo ^ 0x800) - 0x800);

	mp_emit(p, LUI(rd, hi));
	mp_emit(p, ADDI(rd, rd, lo));
}

void mp_patch(struct mp_prog *p, u32 at, u32 target)
{
	u32 w = p->w[at / 4], off = target - at;

	if ((w & 0x7f) == 0x6f)
		p->w[at / 4] = rv_j(off, (w >> 7) & 31);
	else
		p->w[at / 4] = rv_b(off, (w >> 15) & 31, (w >> 20) & 31,
				    (w >> 12) & 7);
}

void mp_halt(struct mp_prog *p)
{
	mp_emit(p, WFI);
	mp_emit(p, JAL(0, (u32)-4));
}

void mp_vec_prolog(struct mp_prog *p, unsigned int base)
{
	mp_init(p);
	mp_emit(p, LUI(base, KH_POOL_DRAM_BASE));
	mp_emit(p, ADDI(1, 0, KH_PV_CPENABLE_CP1));
	mp_emit(p, CSRRW(0, KH_PV_CSR_CPENABLE, 1));
}

u64 mp_lget(const u8 *v, unsigned int bits, unsigned int i)
{
	u64 r = 0;
	unsigned int k, nb = bits / 8;

	for (k = 0; k < nb; k++)
		r |= (u64)v[i * nb + k] << (8 * k);
	return r;
}

void mp_lset(u8 *v, unsigned int bits, unsigned int i, u64 x)
{
	unsigned int k, nb = bits / 8;

	for (k = 0; k < nb; k++)
		v[i * nb + k] = (u8)(x >> (8 * k));
}

u64 mp_rand(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

bool mp_open(struct mp_card *m, const char *desc, unsigned int x,
	     unsigned int y)
{
	memset(m, 0, sizeof(*m));
	m->c = mh_card(desc);
	if (!m->c)
		return false;
	m->x = x;
	m->y = y;
	m->p = mp_unit(m, x, y);
	if (!m->p)
		return false;
	/*
	 * The unit's reach as in version 1 (BOUNDS_EN [31], as the driver
	 * gives a job it does not check): these tests are the cores', the
	 * window's and the iDMA's; model_pool_bounds puts the bounds back to
	 * their power-on 0 and tests them.
	 */
	ksim_pool_reg_write(m->p, KH_CTRL_IDX_POOL_BOUNDS_EN,
			    KH_POOL_BOUNDS_ALL);
	return true;
}

void mp_close(struct mp_card *m)
{
	ksim_card_destroy(m->c);
	m->c = NULL;
}

struct ksim_pool *mp_unit(struct mp_card *m, unsigned int x, unsigned int y)
{
	return ksim_pool_of(ksim_unit_at(m->c, 0, x, y));
}

void mp_start(struct mp_card *m, const struct mp_prog *prog, unsigned int run)
{
	ksim_pool_set_runstall(m->p, KH_POOL_RESET_ALL | KH_POOL_STALL_ALL);
	ksim_pool_poke_iram(m->p, 0, prog->w, prog->n * 4);
	ksim_pool_set_runstall(m->p, (~run & 0xff) << KH_POOL_RESET_SHIFT |
					     (~run & 0xff));
}

bool mp_settle(struct mp_card *m, unsigned int mask, u64 max_cycles)
{
	u64 done = 0;
	unsigned int i;

	for (;;) {
		bool all = true;

		for (i = 0; i < KH_POOL_CORES; i++)
			if (((mask >> i) & 1) &&
			    m->p->core[i].wait != KSIM_POOL_W_WFI &&
			    !((m->p->halted >> i) & 1))
				all = false;
		if (all)
			return true;
		if (done >= max_cycles)
			return false;
		ksim_run(m->c, 100);
		done += 100;
	}
}

bool mp_exec(struct mp_card *m, const struct mp_prog *prog)
{
	mp_start(m, prog, 1);
	return mp_settle(m, 1, 1000000);
}

u32 mp_dword(struct mp_card *m, unsigned int core, u32 off)
{
	return ksim_pool_rd32(m->p->core[core].dram + off);
}

bool mp_wait_word(struct mp_card *m, unsigned int core, u32 off,
		  u64 max_cycles)
{
	u64 done = 0;

	while (!mp_dword(m, core, off)) {
		if (done >= max_cycles)
			return false;
		ksim_run(m->c, 100);
		done += 100;
	}
	return true;
}

u64 mp_reg(struct mp_card *m, unsigned int idx)
{
	return mm_ctrl_rd(m->c, 0, m->x, m->y, idx);
}

u64 mp_reg_wr(struct mp_card *m, unsigned int idx, u64 v)
{
	return mm_ctrl_wr(m->c, 0, m->x, m->y, idx, v);
}

void mp_inst(struct mp_card *m, const u32 *w, unsigned int txn, bool last)
{
	struct kh_flit f;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	/* from (0, 0): the corner routes back to the agent */
	kh_flit_hdr(&f, m->x, m->y, 0, 0, KH_T_CU_INST, txn, last);
	for (i = 0; i < 8; i++)
		ksim_payload_set_u32(f.w, i, w[i]);
	mm_mb_send(m->c, 0, &f);
}

u64 mp_wait_ns(struct mp_card *m, unsigned int want, u64 max_cycles)
{
	u64 done = 0, ns;

	for (;;) {
		ns = mm_ns(m->c, 0, m->x, m->y);
		if (KH_NS_COUNT(ns) == (want & 0xffff))
			return ns;
		if (done >= max_cycles)
			return 0;
		ksim_run(m->c, 200);
		done += 200;
	}
}

void mp_cudata(struct mp_card *m, unsigned int buf, unsigned int off,
	       unsigned int n, unsigned int flags, const u8 *data)
{
	struct kh_flit f;
	unsigned int i;

	memset(&f, 0, sizeof(f));
	kh_flit_hdr(&f, m->x, m->y, 0, 0, KH_T_CU_DATA, 0x21, 0);
	kh_flit_set(&f, KH_DATA_BUF_ID, buf);
	kh_flit_set(&f, KH_DATA_OFFSET, off);
	kh_flit_set(&f, KH_DATA_LEN, n - 1);
	kh_flit_set(&f, KH_DATA_FLAGS, flags);
	mm_mb_send(m->c, 0, &f);
	for (i = 0; i < n; i++) {
		memset(&f, 0, sizeof(f));
		kh_flit_hdr(&f, m->x, m->y, 0, 0, KH_T_CU_DATA, 0x21, i + 1 == n);
		ksim_bytes_to_payload(f.w, data + i * KSIM_POOL_WORD);
		mm_mb_send(m->c, 0, &f);
	}
	ksim_run(m->c, 500);	/* through the mesh and written */
}

void mp_desc(struct mp_card *m, unsigned int core, unsigned int i, u64 dram,
	     u32 dataram, u32 len, u32 flags, u32 pattern)
{
	u8 d[64];

	memset(d, 0, sizeof(d));
	ksim_pool_wr32(d, (u32)dram);
	ksim_pool_wr32(d + 4, (u32)(dram >> 32));
	ksim_pool_wr32(d + 8, dataram);
	ksim_pool_wr32(d + 12, len);
	ksim_pool_wr32(d + 16, flags);
	ksim_pool_wr32(d + 20, pattern);
	ksim_pool_poke_dram(m->p, core, 0x1000 + 64 * i, d, sizeof(d));
}

/*
 * Push DataRAM[0] descriptors from 0x81000, wait (WFI) until that many
 * completed or an error, store idma_status at DataRAM 4 and 1 at 8.
 */
static void mp_idma_prog(struct mp_prog *p)
{
	u32 loop, b1, wait, b2, b3, done;

	mp_init(p);
	mp_emit(p, LUI(10, KH_POOL_DRAM_BASE));
	mp_emit(p, LW(1, 10, 0));
	mp_emit(p, LUI(2, KH_POOL_DRAM_BASE + 0x1000));
	loop = mp_here(p);
	b1 = mp_here(p);
	mp_emit(p, BEQ(1, 0, 0));
	mp_emit(p, CSRW(KH_POOL_CSR_IDMA_PUSH, 2));
	mp_emit(p, ADDI(2, 2, 64));
	mp_emit(p, ADDI(1, 1, -1));
	mp_emit(p, JAL(0, loop - mp_here(p)));
	wait = mp_here(p);
	mp_patch(p, b1, wait);
	mp_emit(p, CSRR(3, KH_POOL_CSR_IDMA_STATUS));
	mp_emit(p, SRLI(4, 3, 24));
	mp_emit(p, ANDI(4, 4, 1));
	b2 = mp_here(p);
	mp_emit(p, BNE(4, 0, 0));
	mp_emit(p, SLLI(5, 3, 16));
	mp_emit(p, SRLI(5, 5, 16));
	mp_emit(p, LW(1, 10, 0));
	b3 = mp_here(p);
	mp_emit(p, BEQ(5, 1, 0));
	mp_emit(p, WFI);
	mp_emit(p, JAL(0, wait - mp_here(p)));
	done = mp_here(p);
	mp_patch(p, b2, done);
	mp_patch(p, b3, done);
	mp_emit(p, SW(3, 10, 4));
	mp_emit(p, ADDI(6, 0, 1));
	mp_emit(p, SW(6, 10, 8));
	mp_halt(p);
}

void mp_idma_run(struct mp_card *m, unsigned int core, u32 n)
{
	static struct mp_prog pg;

	ksim_pool_set_runstall(m->p, 0xffff);
	ksim_pool_poke_dram(m->p, core, 0, &n, 4);
	ksim_pool_poke_dram(m->p, core, 4, "\0\0\0\0\0\0\0\0", 8);
	mp_idma_prog(&pg);
	mp_start(m, &pg, 1u << core);
}
