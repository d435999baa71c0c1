// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The DXA unit's cycle, its send register, its counters and its CU_CTRL
 * addon window 0xf0-0xf7 (docs/spec/dxa.md; seed 003).  The other
 * concerns are in the files dxa.h lists.
 *
 * A cycle, in order: exec_done for a copy that ended last cycle; the send
 * register (a flit once offered is offered until taken; when it is free
 * it is loaded with, in priority, a table write's SIG_DATA_RECEIVED, the
 * next line read, the next burst flit, and offered in the same cycle);
 * one placement cycle; one received flit (by type: a read answer, an ack,
 * a table write; MEM_WR_ACK and anything else dropped); a new instruction
 * when idle; the watchdogs.
 *
 * A copy: accepted at cycle A, setup in A+1 and A+2, the first read
 * offered at A+3; the bursts from the cycle after the last line is
 * placed; exec_done the cycle after the last ack.  A fault of the first
 * six codes retires at A+1, having read and sent nothing.
 *
 * The table survives a mesh reset (a RAM without reset, as the scratch
 * unit's buffer); the counters and DXA_SEL do not.
 */
#include "dxa.h"

static u64 ksim_dxa_dbg(const struct ksim_dxa *x)
{
	return (x->transfers & 0xffffffffULL) << 32 |
	       (x->gmem_reads & 0xffffffffULL);
}

static int ksim_dxa_init(struct ksim_unit *u)
{
	struct ksim_dxa *x = ksim_unit_priv(u);

	x->u = u;
	x->pl_tag = -1;
	ksim_unit_mag_port(u, &x->mx, &x->my);
	return 0;
}

static void ksim_dxa_reset(struct ksim_unit *u)
{
	struct ksim_dxa *x = ksim_unit_priv(u);
	size_t keep = offsetof(struct ksim_dxa, u);

	memset((u8 *)x + keep, 0, sizeof(*x) - keep);
	ksim_dxa_init(u);
}

/* The send register.  Return: true when it holds or sent a flit. */
static bool ksim_dxa_send(struct ksim_dxa *x)
{
	u8 kind;

	if (x->out_kind == KSIM_DXA_OUT_NONE) {
		if (ksim_unit_cd_ack(x->u, &x->out)) {
			x->out_kind = KSIM_DXA_OUT_SIG;
		} else if (ksim_dxa_read_ready(x)) {
			ksim_dxa_read_flit(x, &x->out);
			x->out_kind = KSIM_DXA_OUT_READ;
		} else if (ksim_dxa_burst_ready(x)) {
			ksim_dxa_burst_flit(x, &x->out, &kind);
			x->out_kind = kind;
		} else {
			return false;
		}
	}
	if (!ksim_unit_send(x->u, &x->out))
		return true;
	kind = x->out_kind;
	x->out_kind = KSIM_DXA_OUT_NONE;
	switch (kind) {
	case KSIM_DXA_OUT_SIG:
		ksim_unit_cd_ack_pop(x->u);
		break;
	case KSIM_DXA_OUT_READ:
		ksim_dxa_read_taken(x);
		break;
	default:
		ksim_dxa_burst_taken(x, kind);
		break;
	}
	return true;
}

/* One flit off the receive FIFO.  Return: true when one was taken. */
static bool ksim_dxa_receive(struct ksim_dxa *x)
{
	const struct kh_flit *f = ksim_unit_recv(x->u);

	if (!f)
		return false;
	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_MEM_RD_RESP:
		ksim_dxa_read_resp(x, f);
		break;
	case KH_T_CU_SIGNAL:
		ksim_dxa_ack(x, f);
		break;
	case KH_T_CU_DATA:
		if (!ksim_unit_cd_take(x->u, f))
			return false;	/* cleared by the send path */
		break;
	default:
		ksim_unit_drop(x->u, f, "dxa: not a read answer, an ack or a table write");
		break;
	}
	ksim_unit_recv_pop(x->u);
	return true;
}

/* State changes at the top of a cycle.  Return: true when one happened. */
static bool ksim_dxa_advance(struct ksim_dxa *x)
{
	u64 now = ksim_unit_now(x->u);

	if (x->state == KSIM_DXA_SETUP) {
		if (now < x->ready_at) {
			ksim_unit_timer(x->u, x->ready_at);
			return false;
		}
		x->state = KSIM_DXA_READ;
		if (!x->n_lines)
			x->t_placed = now;
	}
	if (x->state == KSIM_DXA_READ && x->pl_done == x->n_lines &&
	    x->rd_next == x->n_lines) {
		ksim_dxa_burst_start(x);
		return true;
	}
	return false;
}

static bool ksim_dxa_tick(struct ksim_unit *u)
{
	struct ksim_dxa *x = ksim_unit_priv(u);
	const struct kh_flit *f;
	bool did = false, retired = false;

	if (x->state == KSIM_DXA_DONE) {
		ksim_unit_retire(u, x->fault ? x->fault_code : x->elems,
				 x->fault);
		x->state = KSIM_DXA_IDLE;
		did = retired = true;
	}
	did |= ksim_dxa_advance(x);
	did |= ksim_dxa_send(x);
	if (x->state == KSIM_DXA_READ)
		did |= ksim_dxa_place_step(x);
	did |= ksim_dxa_receive(x);
	/* never exec_done and inst_ready in one cycle (seed 001 §4) */
	if (x->state == KSIM_DXA_IDLE && !retired) {
		f = ksim_unit_inst(u);
		if (f) {
			ksim_dxa_accept(x, f);
			did = true;
		}
	}
	did |= ksim_dxa_watch(x);
	ksim_unit_set_dbg(u, ksim_dxa_dbg(x));
	return did || x->state == KSIM_DXA_DONE ||
	       x->out_kind != KSIM_DXA_OUT_NONE || ksim_unit_cd_acks(u) ||
	       x->pl_tag >= 0 || x->pl_count ||
	       (x->state == KSIM_DXA_READ && x->pl_done == x->n_lines &&
		x->rd_next == x->n_lines);
}

static bool ksim_dxa_ctrl_read(struct ksim_unit *u, unsigned int idx, u64 *val)
{
	struct ksim_dxa *x = ksim_unit_priv(u);

	if (!KH_CTRL_IDX_IS_UNIT_ADDON(idx))
		return false;
	switch (idx) {
	case KH_CTRL_IDX_DXA_CAPS:
		*val = KH_DXA_CAPS;
		break;
	case KH_CTRL_IDX_DXA_SEL:
		*val = x->sel;
		break;
	case KH_CTRL_IDX_DXA_DATA:
		*val = ksim_dxa_table_word(x, x->sel);
		break;
	case KH_CTRL_IDX_DXA_TRANSFERS:
		*val = x->transfers;
		break;
	case KH_CTRL_IDX_DXA_GMEM_READS:
		*val = x->gmem_reads;
		break;
	case KH_CTRL_IDX_DXA_GMEM_SAVED:
		*val = x->gmem_saved;
		break;
	case KH_CTRL_IDX_DXA_LOCAL_WRITES:
		*val = x->local_writes;
		break;
	default:
		*val = x->gmem_lat;
		break;
	}
	return true;
}

/* DXA_SEL is the window's one RW register: 7 bits, the table's words. */
static void ksim_dxa_ctrl_write(struct ksim_unit *u, unsigned int idx, u64 val)
{
	struct ksim_dxa *x = ksim_unit_priv(u);

	if (idx == KH_CTRL_IDX_DXA_SEL)
		x->sel = (u32)(val % KH_DXA_TABLE_WORDS);
}

/* the perf counters of seed 003 in the card's counter dump */
static size_t ksim_dxa_stats(struct ksim_unit *u, char *buf, size_t len)
{
	const struct ksim_dxa *s = ksim_unit_priv(u);
	int n = snprintf(buf, len, " dxa_transfers=%llu dxa_gmem_reads=%llu dxa_gmem_saved=%llu dxa_local_writes=%llu dxa_gmem_lat=%llu",
			 (unsigned long long)s->transfers,
			 (unsigned long long)s->gmem_reads,
			 (unsigned long long)s->gmem_saved,
			 (unsigned long long)s->local_writes,
			 (unsigned long long)s->gmem_lat);

	return n < 0 ? 0 : ((size_t)n < len ? (size_t)n : len - 1);
}

const struct ksim_unit_type ksim_unit_dxa = {
	.token = "dxa",
	.name = "DXA bulk-copy unit",
	.cu_type = KH_CU_DX,
	.cu_version = KH_DXA_VERSION,
	.n_buffers = 1,
	.priv_size = sizeof(struct ksim_dxa),
	.init = ksim_dxa_init,
	.reset = ksim_dxa_reset,
	.tick = ksim_dxa_tick,
	.ctrl_read = ksim_dxa_ctrl_read,
	.ctrl_write = ksim_dxa_ctrl_write,
	.stats = ksim_dxa_stats,
	.cudata = &ksim_dxa_table_cd,
};
