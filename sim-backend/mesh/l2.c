// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The endpoint L2 staging adapter, per docs/spec/l2-adapter.md:
 *
 * - from the router: CU_CTRL with index 0xe0-0xe7 is answered here (one
 *   pending reply, the value as it stood at capture, op 1 writes), all
 *   else goes on to the unit;
 * - from the unit: MEM_RD_REQ / MEM_WR_REQ (+ its MEM_WR_DATA) in the
 *   window [BASE, BASE + 2^bits) are served from the SRAM when CTRL[0] is
 *   set (n_served) and forwarded when it is not (n_forwarded_in_window);
 *   everything else is forwarded unchanged.
 *
 * Each face takes a flit exactly when valid && !busy, busy being its own
 * input FIFO full, and holds what it offers until it is taken.
 */
#include "l2.h"
#include "mesh.h"
#include "util.h"
#include <kohaku/kh_regs.h>

/* the adapter's own clock (CLKOUT0, noc): its SRAM latency counts that */
static u64 ksim_l2_now(const struct ksim_l2 *a)
{
	return ksim_node_now(&a->node);
}

static u64 ksim_l2_reg(const struct ksim_l2 *a, unsigned int idx)
{
	switch (idx) {
	case KH_CTRL_IDX_L2_CAPS:
		return KH_L2_CAPS(a->bits, a->depth);
	case KH_CTRL_IDX_L2_BASE:
		return a->base;
	case KH_CTRL_IDX_L2_CTRL:
		return a->enable ? KH_L2_CTRL_ENABLE : 0;
	case KH_CTRL_IDX_L2_STAT:
		return ((u64)a->n_served << 32) | a->n_fwd;
	default:
		return 0;
	}
}

/* ---- the SRAM ---- */

static u8 *ksim_l2_line(struct ksim_l2 *a, u64 line, bool alloc)
{
	u32 c = (u32)(line / KSIM_L2_CHUNK_LINES);

	if (!a->chunk[c] && alloc)
		a->chunk[c] = ksim_plat_zalloc(KSIM_L2_CHUNK_LINES *
					     KH_L2_LINE_BYTES);
	if (!a->chunk[c])
		return NULL;
	return a->chunk[c] + (line % KSIM_L2_CHUNK_LINES) * KH_L2_LINE_BYTES;
}

static u64 ksim_l2_index(const struct ksim_l2 *a, u64 addr, u32 beat)
{
	return ((addr >> 5) + beat) & (a->depth - 1);
}

static bool ksim_l2_in_window(const struct ksim_l2 *a, u64 addr)
{
	/* the RTL checks no alignment: the low `bits` of BASE are ignored */
	return (addr >> a->bits) == (a->base >> a->bits);
}

/* ---- inbound: both faces ---- */

/* the adapter whose router-side sink s is; const for a const s (busy()) */
#define rsink_l2(s)	ksim_container_of(s, struct ksim_l2, rsink)

/* the adapter whose unit-side sink s is; const for a const s (busy()) */
#define csink_l2(s)	ksim_container_of(s, struct ksim_l2, csink)

static bool ksim_l2_rbusy(const struct ksim_sink *s)
{
	return ksim_fifo_full(&rsink_l2(s)->rin);
}

static void ksim_l2_rtake(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_l2 *a = rsink_l2(s);

	if (!ksim_fifo_push(&a->rin, f))
		ksim_mesh_log(a->mesh, "(%u,%u) l2: out of memory, flit lost",
			    a->x, a->y);
}

static bool ksim_l2_cbusy(const struct ksim_sink *s)
{
	return ksim_fifo_full(&csink_l2(s)->cin);
}

static void ksim_l2_ctake(struct ksim_sink *s, const struct kh_flit *f)
{
	struct ksim_l2 *a = csink_l2(s);

	if (!ksim_fifo_push(&a->cin, f))
		ksim_mesh_log(a->mesh, "(%u,%u) l2: out of memory, flit lost",
			    a->x, a->y);
}

static const struct ksim_sink_ops ksim_l2_rops = {
	.busy = ksim_l2_rbusy,
	.take = ksim_l2_rtake,
};

static const struct ksim_sink_ops ksim_l2_cops = {
	.busy = ksim_l2_cbusy,
	.take = ksim_l2_ctake,
};

/* ---- CU_CTRL 0xe0-0xe7 ---- */

static void ksim_l2_ctrl(struct ksim_l2 *a, const struct kh_flit *req)
{
	unsigned int idx = kh_flit_get(req, KH_CTRL_INDEX);
	struct kh_flit *r = &a->ctrl_reply;
	u64 v;

	a->ctrl_terminated++;
	if (a->ctrl_pend) {
		a->ctrl_dropped++;
		ksim_mesh_log(a->mesh,
			    "(%u,%u) l2: CU_CTRL index 0x%x dropped, a reply is pending",
			    a->x, a->y, idx);
		return;
	}
	/* the value as it stood at capture: before the write */
	ksim_ctrl_reply(r, req, a->x, a->y, idx, ksim_l2_reg(a, idx));
	a->ctrl_pend = true;
	a->ctrl_at = ksim_l2_now(a);
	if (kh_flit_get(req, KH_CTRL_OP) != KH_CTRL_OP_WRITE)
		return;
	v = kh_flit_get(req, KH_CTRL_VALUE);
	if (idx == KH_CTRL_IDX_L2_BASE)
		a->base = v & KH_L2_BASE_MASK;
	else if (idx == KH_CTRL_IDX_L2_CTRL)
		a->enable = v & KH_L2_CTRL_ENABLE;
}

/* ---- the unit's memory traffic ---- */

static void ksim_l2_resp_hdr(const struct ksim_l2 *a, struct kh_flit *f,
			   const struct kh_flit *req, unsigned int type)
{
	memset(f, 0, sizeof(*f));
	/* answered as the MAG port the unit addressed would answer */
	kh_flit_hdr(f, kh_flit_get(req, KH_HDR_SRC_X),
		    kh_flit_get(req, KH_HDR_SRC_Y),
		    kh_flit_get(req, KH_HDR_DST_X),
		    kh_flit_get(req, KH_HDR_DST_Y), type,
		    kh_flit_get(req, KH_HDR_TXN), 1);
}

/* The head of the CU face's FIFO; returns whether it was consumed. */
static bool ksim_l2_from_cu(struct ksim_l2 *a)
{
	const struct kh_flit *h = ksim_fifo_head(&a->cin);
	unsigned int t;
	bool in;

	if (!h)
		return false;
	t = kh_flit_get(h, KH_HDR_TYPE);
	in = (t == KH_T_MEM_RD_REQ || t == KH_T_MEM_WR_REQ) &&
	     ksim_l2_in_window(a, kh_flit_get(h, KH_MEM_ADDR));
	if (t == KH_T_MEM_RD_REQ && in && a->enable) {
		if (a->rd_busy)
			return false;	/* one served read at a time */
		ksim_l2_resp_hdr(a, &a->rd_hdr, h, KH_T_MEM_RD_RESP);
		a->rd_line = kh_flit_get(h, KH_MEM_ADDR);
		a->rd_beats = kh_flit_get(h, KH_MEM_LEN) + 1;
		a->rd_sent = 0;
		a->rd_at = ksim_l2_now(a) + 1;	/* SRAM latency */
		a->rd_busy = true;
		if (kh_flit_get(h, KH_MEM_FLAGS) & (KH_MEMF_STREAM | KH_MEMF_QUANT))
			ksim_mesh_log(a->mesh,
				    "(%u,%u) l2: entry/stream flags ignored, served as a plain read",
				    a->x, a->y);
		a->n_served++;
		ksim_fifo_pop(&a->cin);
		return true;
	}
	if (t == KH_T_MEM_WR_REQ && in && a->enable) {
		a->wr_state = KSIM_L2_WR_SERVED;
		a->wr_len = kh_flit_get(h, KH_MEM_LEN) & (KH_MEM_WBURST - 1);
		a->wr_got = 0;
		a->wr_line = kh_flit_get(h, KH_MEM_ADDR);
		ksim_l2_resp_hdr(a, &a->ack, h, KH_T_MEM_WR_ACK);
		a->n_served++;
		ksim_fifo_pop(&a->cin);
		return true;
	}
	if (t == KH_T_MEM_WR_DATA && a->wr_state == KSIM_L2_WR_SERVED) {
		u8 *line;

		if (a->wr_got == a->wr_len && a->ack_pend)
			return false;	/* the last beat waits for the ack slot */
		line = ksim_l2_line(a, ksim_l2_index(a, a->wr_line, a->wr_got),
				  true);
		if (line)
			ksim_payload_to_bytes(line, h->w);
		else
			ksim_mesh_log(a->mesh, "(%u,%u) l2: out of memory, beat lost",
				    a->x, a->y);
		if (a->wr_got++ == a->wr_len) {
			a->wr_state = KSIM_L2_WR_NONE;
			a->ack_pend = true;
		}
		ksim_fifo_pop(&a->cin);
		return true;
	}
	/* everything else goes on to the mesh unchanged */
	if (!ksim_link_free(&a->rout))
		return false;
	if (t == KH_T_MEM_WR_REQ) {
		a->wr_state = KSIM_L2_WR_FORWARDED;
		a->wr_len = kh_flit_get(h, KH_MEM_LEN) & (KH_MEM_WBURST - 1);
		a->wr_got = 0;
	} else if (t == KH_T_MEM_WR_DATA && a->wr_state == KSIM_L2_WR_FORWARDED &&
		   a->wr_got++ == a->wr_len) {
		a->wr_state = KSIM_L2_WR_NONE;
	}
	if (in)
		a->n_fwd++;
	ksim_link_load(&a->rout, h);
	ksim_fifo_pop(&a->cin);
	return true;
}

/* The CU face's output register: ack > served read beat > from router. */
static bool ksim_l2_to_cu(struct ksim_l2 *a, bool *rin_used)
{
	const struct kh_flit *h;
	u64 now = ksim_l2_now(a);

	if (!ksim_link_free(&a->cout))
		return false;
	if (a->ack_pend) {
		ksim_link_load(&a->cout, &a->ack);
		a->ack_pend = false;
		return true;
	}
	if (a->rd_busy && now >= a->rd_at) {
		struct kh_flit f = a->rd_hdr;
		const u8 *line = ksim_l2_line(a, ksim_l2_index(a, a->rd_line,
							     a->rd_sent), false);
		u8 zero[KH_L2_LINE_BYTES];

		if (!line) {
			memset(zero, 0, sizeof(zero));
			line = zero;
		}
		ksim_bytes_to_payload(f.w, line);
		kh_flit_set(&f, KH_HDR_LAST, a->rd_sent + 1 == a->rd_beats);
		ksim_link_load(&a->cout, &f);
		if (++a->rd_sent == a->rd_beats)
			a->rd_busy = false;
		return true;
	}
	h = ksim_fifo_head(&a->rin);
	if (*rin_used || !h)
		return false;
	ksim_link_load(&a->cout, h);
	ksim_fifo_pop(&a->rin);
	*rin_used = true;
	return true;
}

static unsigned int ksim_l2_tick(struct ksim_node *n)
{
	struct ksim_l2 *a = ksim_container_of(n, struct ksim_l2, node);
	const struct kh_flit *h = ksim_fifo_head(&a->rin);
	bool progress = false, rin_used = false;
	u64 now = ksim_l2_now(a);

	/* from the router: addon CU_CTRL is answered here */
	if (h && kh_flit_get(h, KH_HDR_TYPE) == KH_T_CU_CTRL &&
	    KH_CTRL_IDX_IS_ADDON(kh_flit_get(h, KH_CTRL_INDEX))) {
		ksim_l2_ctrl(a, h);
		ksim_fifo_pop(&a->rin);
		rin_used = true;
		progress = true;
	}
	/* the router face: our own reply first, then the unit's traffic */
	if (ksim_link_free(&a->rout) && a->ctrl_pend && a->ctrl_at < now) {
		ksim_link_load(&a->rout, &a->ctrl_reply);
		a->ctrl_pend = false;
		progress = true;
	}
	if (ksim_l2_from_cu(a))
		progress = true;
	if (ksim_l2_to_cu(a, &rin_used))
		progress = true;

	if (progress)
		return KSIM_TICK_AWAKE | KSIM_TICK_PROGRESS;
	return !ksim_fifo_empty(&a->rin) || !ksim_fifo_empty(&a->cin) ||
	       a->ctrl_pend || a->ack_pend || a->rd_busy ? KSIM_TICK_AWAKE : 0;
}

static const struct ksim_node_ops ksim_l2_node_ops = {
	.tick = ksim_l2_tick,
};

/* ---- life cycle ---- */

struct ksim_l2 *ksim_l2_create(struct ksim_mesh *m, unsigned int x, unsigned int y,
			   u64 base, int *err)
{
	struct ksim_l2 *a = ksim_plat_zalloc(sizeof(*a));
	int e;

	if (!a) {
		*err = -ENOMEM;
		return NULL;
	}
	a->mesh = m;
	a->x = x;
	a->y = y;
	a->depth = m->p->l2_depth;
	a->bits = ksim_params_l2_bits(m->p);
	a->base_reset = base & KH_L2_BASE_MASK;
	a->base = a->base_reset;
	a->n_chunks = (a->depth + KSIM_L2_CHUNK_LINES - 1) / KSIM_L2_CHUNK_LINES;
	a->chunk = ksim_plat_zalloc(sizeof(*a->chunk) * a->n_chunks);
	e = a->chunk ? 0 : -ENOMEM;
	if (!e)
		e = ksim_sched_add(m->sched, &a->node, &ksim_l2_node_ops);
	if (!e)
		e = ksim_node_add_out(&a->node, &a->rout);
	if (!e)
		e = ksim_node_add_out(&a->node, &a->cout);
	if (!e)
		e = ksim_fifo_init(&a->rin, KSIM_L2_FIFO_DEPTH);
	if (!e)
		e = ksim_fifo_init(&a->cin, KSIM_L2_FIFO_DEPTH);
	if (e) {
		ksim_l2_destroy(a);
		*err = e;
		return NULL;
	}
	a->rsink.ops = &ksim_l2_rops;
	a->rsink.node = &a->node;
	a->csink.ops = &ksim_l2_cops;
	a->csink.node = &a->node;
	return a;
}

void ksim_l2_destroy(struct ksim_l2 *a)
{
	u32 i;

	if (!a)
		return;
	for (i = 0; a->chunk && i < a->n_chunks; i++)
		ksim_plat_free(a->chunk[i]);
	ksim_plat_free(a->chunk);
	ksim_fifo_fini(&a->rin);
	ksim_fifo_fini(&a->cin);
	ksim_plat_free(a);
}

void ksim_l2_reset(struct ksim_l2 *a)
{
	/* registers and state; the SRAM has no reset clause */
	ksim_fifo_clear(&a->rin);
	ksim_fifo_clear(&a->cin);
	ksim_link_clear(&a->rout);
	ksim_link_clear(&a->cout);
	a->base = a->base_reset;
	a->enable = false;
	a->n_served = 0;
	a->n_fwd = 0;
	a->ctrl_pend = false;
	a->wr_state = KSIM_L2_WR_NONE;
	a->ack_pend = false;
	a->rd_busy = false;
}
