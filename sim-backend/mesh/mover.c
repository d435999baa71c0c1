// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The memory mover, per docs/spec/mover.md: registers are AUX_CFG pulses,
 * a GO snapshots them and runs the checks (mode, element width,
 * alignment, lengths); a move then steps one destination position per
 * cycle after the read latency (a gather reads its index words on the
 * way), reading and writing each word in the same cycle through MAG's
 * converged path, and posting writes for another mesh to the interlink.
 * Range and AXI faults stop a move at the word that hits them.  Busy
 * clears the write latency after the last word, and only a move that
 * completes counts as done.
 */
#include "mover.h"
#include "ilink.h"
#include "mag.h"
#include "mesh.h"
#include "util.h"
#include <kohaku/kh_regs.h>

#define KSIM_MV_ADDR_MASK		((1ULL << 40) - 1)
#define KSIM_MV_LEN_CAP		(1ULL << 62)
#define KSIM_MV_STALL		0xff	/* the interlink's egress is full */

void ksim_mover_init(struct ksim_mover *mv, struct ksim_mag *g,
		     const struct ksim_cv *cv)
{
	memset(mv, 0, sizeof(*mv));
	mv->mag = g;
	mv->cv = cv;
	mv->done_at = KSIM_NEVER;
	mv->idx_word = ~0ULL;
}

void ksim_mover_reset(struct ksim_mover *mv)
{
	u64 words = mv->words, remote = mv->remote_words, faults = mv->faults;

	ksim_mover_init(mv, mv->mag, mv->cv);
	mv->words = words;
	mv->remote_words = remote;
	mv->faults = faults;
}

u64 ksim_mover_stat(const struct ksim_mover *mv)
{
	return ((u64)(mv->moves & 0xffffff) << 40) |
	       ((u64)(mv->fault & 0xf) << 4) | (mv->busy ? KH_AUX_BUSY : 0);
}

static u64 ksim_mv_len(const struct ksim_mv_walker *w)
{
	u64 n = 1;
	unsigned int d;

	for (d = 0; d < w->ndims && d < KSIM_MV_DIMS; d++) {
		if (n > KSIM_MV_LEN_CAP / 65536)
			return KSIM_MV_LEN_CAP;	/* longer than any run */
		n *= w->count[d];
	}
	return n;
}

static bool ksim_mv_uses_src(unsigned int mode)
{
	return mode == KH_MV_MODE_COPY || mode == KH_MV_MODE_GATHER;
}

/* The GO checks, in the order 4, 5, 6, 1. */
static u8 ksim_mv_check(const struct ksim_mv_regs *r)
{
	const struct ksim_mv_walker *src = &r->w[0], *dst = &r->w[1];
	unsigned int d;

	if (r->mode == KH_MV_MODE_TRANSPOSE || r->mode > KH_MV_MODE_FILL)
		return KH_MV_FAULT_MODE;
	if (r->ew > 2)
		return KH_MV_FAULT_EW;
	if (dst->base & 31)
		return KH_MV_FAULT_ALIGN;
	for (d = 0; d < dst->ndims && d < KSIM_MV_DIMS; d++)
		if (dst->stride[d] & 31)
			return KH_MV_FAULT_ALIGN;
	if (ksim_mv_uses_src(r->mode) && (src->base & 31))
		return KH_MV_FAULT_ALIGN;
	if (r->mode == KH_MV_MODE_COPY)
		for (d = 0; d < src->ndims && d < KSIM_MV_DIMS; d++)
			if (src->stride[d] & 31)
				return KH_MV_FAULT_ALIGN;
	if (r->mode == KH_MV_MODE_GATHER && ((r->pitch & 31) ||
					     (r->idx_base & 31)))
		return KH_MV_FAULT_ALIGN;
	if (dst->ndims > KSIM_MV_DIMS ||
	    (r->mode == KH_MV_MODE_COPY && src->ndims > KSIM_MV_DIMS))
		return KH_MV_FAULT_INDEX_LEN;
	if (r->mode == KH_MV_MODE_COPY && ksim_mv_len(src) != ksim_mv_len(dst))
		return KH_MV_FAULT_INDEX_LEN;
	if (r->mode == KH_MV_MODE_GATHER &&
	    (!r->idx_count || !r->gwords ||
	     (u64)r->idx_count * r->gwords != ksim_mv_len(dst)))
		return KH_MV_FAULT_INDEX_LEN;
	return KH_MV_FAULT_NONE;
}

static void ksim_mv_fault(struct ksim_mover *mv, u8 code)
{
	mv->fault = code;
	mv->faults++;
	mv->busy = false;
	ksim_mesh_log(mv->mag->mesh, "mover: fault %u (mode %u, position %llu)",
		    code, mv->run.mode, (unsigned long long)mv->pos);
}

static void ksim_mover_go(struct ksim_mover *mv)
{
	struct ksim_mag *g = mv->mag;
	u8 f;

	if (mv->busy) {
		ksim_mesh_log(g->mesh, "mover: GO while busy, ignored");
		return;
	}
	mv->fault = KH_MV_FAULT_NONE;
	mv->run = mv->r;
	f = ksim_mv_check(&mv->run);
	if (f) {
		mv->pos = 0;
		ksim_mv_fault(mv, f);
		return;
	}
	mv->busy = true;
	mv->total = ksim_mv_len(&mv->run.w[1]);
	mv->pos = 0;
	memset(mv->di, 0, sizeof(mv->di));
	memset(mv->si, 0, sizeof(mv->si));
	mv->gj = 0;
	mv->gw = 0;
	mv->gidx_ok = false;
	mv->idx_word = ~0ULL;
	/* the MAG's clock (CLKOUT3): the read latency counts its cycles */
	mv->next_at = ksim_node_now(&g->node) + 1 + g->mesh->p->mem_rd_latency;
	mv->done_at = KSIM_NEVER;
	ksim_node_wake(&g->node);
}

/* ---- the registers: AUX_CFG pulses (docs/spec/mover.md) ---- */

/* [2:0] mode, [4:3] element width, [15:8] flags; [16] GO */
static void ksim_mv_cmd(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;
	struct ksim_mv_regs *r = &mv->r;

	r->mode = v & 7;
	r->ew = (v >> 3) & 3;
	r->flags = (v >> 8) & 0xff;
	if (v & KH_MV_GO)
		ksim_mover_go(mv);
}

/* [0] walker, [4+:40] base, [46:44] dims */
static void ksim_mv_walk_base(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;
	struct ksim_mv_walker *w = &mv->r.w[v & 1];

	w->base = (v >> 4) & KSIM_MV_ADDR_MASK;
	w->ndims = (v >> 44) & 7;
}

/* [0] walker, [3:1] dim, [19:4] count, [51:20] signed stride */
static void ksim_mv_walk_dim(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;
	struct ksim_mv_walker *w = &mv->r.w[v & 1];
	unsigned int d = (v >> 1) & 7;

	if (d >= KSIM_MV_DIMS)
		return;		/* no such dim */
	w->count[d] = (v >> 4) & 0xffff;
	w->stride[d] = (s32)(u32)(v >> 20);
}

/* [1:0] axis, [17:2] step */
static void ksim_mv_axis(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;

	mv->r.win[v & 3].step = (s16)((v >> 2) & 0xffff);
}

/* [1:0] walker and select, [17:2] base, [33:18] extent */
static void ksim_mv_axis_win(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;

	mv->r.win[v & 3].base = (s16)((v >> 2) & 0xffff);
	mv->r.win[v & 3].extent = (v >> 18) & 0xffff;
}

/* index-buffer base, [55:40] count */
static void ksim_mv_index(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;

	mv->r.idx_base = v & KSIM_MV_ADDR_MASK;
	mv->r.idx_count = (v >> 40) & 0xffff;
}

/* [31:0] pitch, [47:32] words */
static void ksim_mv_gather(void *dev, unsigned int i, u64 old, u64 v)
{
	struct ksim_mover *mv = dev;

	mv->r.pitch = (u32)v;
	mv->r.gwords = (v >> 32) & 0xffff;
}

#define KSIM_MV(field)	KSIM_REG_FIELD(struct ksim_mover, field)

/*
 * R(c, name, offset, registers, the rest of its struct ksim_reg): the
 * client offsets 0x00-0x7f.  Commands are writes only (AUX_CFG reads 0),
 * so a register is either a field the next GO snapshots or a pulse that
 * fills several; nothing else decodes.
 */
#define KSIM_MV_REGS(R, c)						\
	R(c, CMD, KH_MV_CMD, 1, .post_write = ksim_mv_cmd)		\
	R(c, WALK_BASE, KH_MV_WALK_BASE, 1, .post_write = ksim_mv_walk_base) \
	R(c, WALK_DIM, KH_MV_WALK_DIM, 1, .post_write = ksim_mv_walk_dim) \
	R(c, AXIS, KH_MV_AXIS, 1, .post_write = ksim_mv_axis)		\
	R(c, AXIS_WIN, KH_MV_AXIS_WIN, 1, .post_write = ksim_mv_axis_win) \
	R(c, INDEX, KH_MV_INDEX, 1, .post_write = ksim_mv_index)	\
	R(c, SEED, KH_MV_SEED, 1, KSIM_MV(r.seed))			\
	R(c, IMM, KH_MV_IMM, 1, KSIM_MV(r.imm))				\
	R(c, GATHER, KH_MV_GATHER, 1, .post_write = ksim_mv_gather)

KSIM_REGS(ksim_mover_regs, 8, KSIM_MV_REGS);

/*
 * The decode is reg_sel = {cfg_addr[7:3], 3'b000} (mm_mover.v:154): a
 * pulse at a misaligned client address (a 32-bit AUX_CFG write at +4,
 * kohakutpu.md 8.4) writes the register around it, with the whole word.
 */
const struct ksim_regs ksim_mover_regs = {
	.name = "mover", .span = true, KSIM_REGS_INIT(ksim_mover_regs),
};

void ksim_mover_cfg(struct ksim_mover *mv, u32 off, u64 v)
{
	ksim_reg_write_beat(&ksim_mover_regs, mv, off, v, KSIM_REG_STRB_ALL);
}

/* ---- the walk ---- */

static void ksim_mv_next(const struct ksim_mv_walker *w, u16 *idx)
{
	unsigned int d;

	for (d = 0; d < w->ndims; d++) {
		if (++idx[d] < w->count[d])
			return;
		idx[d] = 0;
	}
}

/* A position's address; false when it leaves the 40-bit space. */
static bool ksim_mv_addr(const struct ksim_mv_walker *w, const u16 *idx, u64 *a)
{
	s64 v = (s64)w->base;
	unsigned int d;

	for (d = 0; d < w->ndims; d++)
		v += (s64)idx[d] * w->stride[d];
	if (v < 0 || (u64)v > KSIM_MV_ADDR_MASK)
		return false;
	*a = (u64)v;
	return true;
}

/* Is the position inside every enabled window of walker w? */
static bool ksim_mv_inside(const struct ksim_mv_regs *r, unsigned int w,
			 const u16 *idx)
{
	unsigned int s;

	for (s = 0; s < 2; s++) {
		const struct ksim_mv_window *win = &r->win[s * 2 + w];
		s32 c;

		if (!win->extent)
			continue;
		c = win->base + (s32)(s < r->w[w].ndims ? idx[s] : 0) *
			win->step;
		if (c < 0 || c >= win->extent)
			return false;
	}
	return true;
}

static void ksim_mv_imm_word(const struct ksim_mv_regs *r, u8 *buf)
{
	unsigned int esz = 1u << r->ew, i;

	for (i = 0; i < KH_PAYLOAD_BYTES; i++)
		buf[i] = (u8)(r->imm >> (8 * (i % esz)));
}

/* The counter-based PRNG: SplitMix64's output function of seed + (k+1)y. */
static void ksim_mv_prng_word(const struct ksim_mv_regs *r, u64 pos, u8 *buf)
{
	unsigned int esz = 1u << r->ew, per = KH_PAYLOAD_BYTES / esz, e, b;

	for (e = 0; e < per; e++) {
		u64 z = r->seed + ((pos * per + e) + 1) * 0x9e3779b97f4a7c15ULL;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		for (b = 0; b < esz; b++)
			buf[e * esz + b] = (u8)(z >> (8 * b));
	}
}

/* A source-side word on the converged path: 0 or a fault code. */
static u8 ksim_mv_read(struct ksim_mover *mv, u64 addr, u8 *buf)
{
	const struct ksim_cv *cv = mv->cv;
	unsigned int tgt;
	u64 off, alias = 0;

	ksim_cv_remote_alias(cv, addr, &alias);
	tgt = ksim_cv_decode(cv, addr, &off);
	if (tgt == KSIM_CV_NONE)
		return KH_MV_FAULT_AXI;
	if (off + KH_PAYLOAD_BYTES > ksim_cv_size(cv, tgt))
		return KH_MV_FAULT_RANGE;
	ksim_cv_read(cv, tgt, off, buf);
	return 0;
}

/* A destination word: local, or posted to the interlink. */
static u8 ksim_mv_write(struct ksim_mover *mv, u64 addr, const u8 *buf)
{
	struct ksim_mag *g = mv->mag;
	const struct ksim_cv *cv = mv->cv;
	unsigned int mesh = (addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK;
	unsigned int tgt;
	u64 off;
	int e;

	if (!(addr & KH_MADDR_SPECIAL) && mesh != ksim_cv_mesh_id(cv) && g->il) {
		if ((addr & KH_MADDR_LOCAL_MASK) + KH_PAYLOAD_BYTES >
		    g->mesh->dram.size)
			return KH_MV_FAULT_RANGE;
		e = ksim_ilink_post_write(g->il, addr, buf);
		if (e == -EAGAIN)
			return KSIM_MV_STALL;
		if (e)
			return KH_MV_FAULT_AXI;
		mv->remote_words++;
		mv->words++;
		return 0;
	}
	/* without an interlink another mesh's address aliases locally */
	tgt = ksim_cv_decode(cv, addr, &off);
	if (tgt == KSIM_CV_NONE)
		return KH_MV_FAULT_AXI;
	if (off + KH_PAYLOAD_BYTES > ksim_cv_size(cv, tgt))
		return KH_MV_FAULT_RANGE;
	ksim_cv_write(cv, tgt, off, buf);
	mv->words++;
	return 0;
}

/* Gather: the current row's index, reading its word first if needed. */
static u8 ksim_mv_gather_index(struct ksim_mover *mv, bool *spent)
{
	const struct ksim_mv_regs *r = &mv->run;
	u64 w = r->idx_base + (u64)(mv->gj / 8) * KH_PAYLOAD_BYTES;
	const u8 *p;
	u8 f;

	*spent = false;
	if (mv->gidx_ok)
		return 0;
	if (mv->idx_word != w) {
		if (w > KSIM_MV_ADDR_MASK)
			return KH_MV_FAULT_RANGE;
		f = ksim_mv_read(mv, w, mv->idx_buf);
		if (f)
			return f;
		mv->idx_word = w;
		*spent = true;		/* the index word took this cycle */
		return 0;
	}
	p = mv->idx_buf + (mv->gj % 8) * 4;
	mv->gidx = (u32)p[0] | ((u32)p[1] << 8) | ((u32)p[2] << 16) |
		   ((u32)p[3] << 24);
	mv->gidx_ok = true;
	return 0;
}

/* One destination position; 0, a fault code, or KSIM_MV_STALL. */
static u8 ksim_mv_step(struct ksim_mover *mv, bool *spent)
{
	const struct ksim_mv_regs *r = &mv->run;
	u8 buf[KH_PAYLOAD_BYTES], f;
	u64 a;

	*spent = false;
	switch (r->mode) {
	case KH_MV_MODE_COPY:
		if (!ksim_mv_inside(r, 0, mv->si)) {
			ksim_mv_imm_word(r, buf);		/* padding */
			break;
		}
		if (!ksim_mv_addr(&r->w[0], mv->si, &a))
			return KH_MV_FAULT_RANGE;
		f = ksim_mv_read(mv, a, buf);
		if (f)
			return f;
		break;
	case KH_MV_MODE_GATHER:
		f = ksim_mv_gather_index(mv, spent);
		if (f || *spent)
			return f;
		a = r->w[0].base + (u64)mv->gidx * r->pitch +
		    (u64)mv->gw * KH_PAYLOAD_BYTES;
		if (a > KSIM_MV_ADDR_MASK)
			return KH_MV_FAULT_RANGE;
		f = ksim_mv_read(mv, a, buf);
		if (f)
			return f;
		break;
	case KH_MV_MODE_GENERATE:
		ksim_mv_prng_word(r, mv->pos, buf);
		break;
	default:
		ksim_mv_imm_word(r, buf);
		break;
	}
	if (ksim_mv_inside(r, 1, mv->di)) {
		if (!ksim_mv_addr(&r->w[1], mv->di, &a))
			return KH_MV_FAULT_RANGE;
		f = ksim_mv_write(mv, a, buf);
		if (f)
			return f;
	}
	/* cropped positions are walked but not written */
	mv->pos++;
	ksim_mv_next(&r->w[1], mv->di);
	if (r->mode == KH_MV_MODE_COPY) {
		ksim_mv_next(&r->w[0], mv->si);
	} else if (r->mode == KH_MV_MODE_GATHER && ++mv->gw == r->gwords) {
		mv->gw = 0;
		mv->gj++;
		mv->gidx_ok = false;
	}
	return 0;
}

bool ksim_mover_tick(struct ksim_mover *mv, u64 now, u64 *deadline)
{
	struct ksim_mag *g = mv->mag;
	bool spent;
	u8 f;

	if (!mv->busy)
		return false;
	if (mv->pos >= mv->total) {
		if (mv->done_at == KSIM_NEVER)
			mv->done_at = now + g->mesh->p->mem_wr_latency;
		if (now < mv->done_at) {
			*deadline = ksim_min_u64(*deadline, mv->done_at);
			return false;
		}
		mv->busy = false;
		mv->moves = (mv->moves + 1) & 0xffffff;
		return true;
	}
	if (now < mv->next_at) {
		*deadline = ksim_min_u64(*deadline, mv->next_at);
		return false;
	}
	f = ksim_mv_step(mv, &spent);
	if (f == KSIM_MV_STALL) {
		/* the interlink takes it when it has room: retry */
		*deadline = ksim_min_u64(*deadline, now + 1);
		return false;
	}
	if (f) {
		ksim_mv_fault(mv, f);
		return true;
	}
	mv->next_at = now + 1;
	if (mv->pos >= mv->total)
		mv->done_at = now + g->mesh->p->mem_wr_latency;
	*deadline = ksim_min_u64(*deadline, mv->pos >= mv->total ?
			       mv->done_at : mv->next_at);
	return true;
}
