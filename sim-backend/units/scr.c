// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The scratch unit (token `scr`, cu_type 'SC'; docs/spec/dxa.md "The
 * scratch unit"): the smallest CU_DATA receiver, so the DXA unit is
 * testable on its own.
 *
 * Buffer 0 is 256 granules, zero when the card is created and kept across
 * mesh resets (an array without reset).  CU_DATA comes through the shared
 * receiver (units/cudata.c) with the policy below: a burst into buffer 0
 * that ends at or below granule 255 lands, a granule as each flit is
 * taken; with flags[0] it is then acknowledged with SIG_DATA_RECEIVED.
 * Any other buffer, or a burst running past granule 255, is counted out
 * to its last flit, lands nothing and is not acknowledged.  One burst at a
 * time: a CU_DATA flit from a second source while one is open is dropped.
 * One ack register: the last flit of a burst that asks for an ack waits
 * while an earlier ack waits for the send path (seed 001 §5.1).
 *
 * COPY_OUT: accepted at cycle A, the first flit offered at A+1; bursts of
 * up to KH_MEM_WBURST beats to the unit's MAG port, one flit per cycle
 * (MEM_WR_REQ at addr + 32 * first-granule-of-the-burst, len = beats - 1,
 * last 0; the MEM_WR_DATA beats, last on the final one), the granules
 * read from the buffer as each beat is loaded; exec_done the cycle after
 * the last MEM_WR_ACK, exec_result = granules.  Faults (op, range,
 * alignment, in that order) retire at A+1 having sent nothing.
 *
 * CU_DBG = {granules received [63:32], bursts refused [31:0]}; CU_CTRL
 * 0xf0 SCR_SEL (RW, a u64 word 0-1023 of buffer 0) and 0xf1 SCR_DATA.
 */
#include "ksim_unit.h"
#include "table.h"
#include "util.h"
#include <kohaku/kh_dxa.h>

#define KSIM_SCR_GRANULE	KH_PAYLOAD_BYTES
#define KSIM_SCR_WORDS		(KH_SCR_GRANULES * KSIM_SCR_GRANULE / 8)
#define KSIM_SCR_TXN		0x5c	/* the writes' txn: MAG echoes it */

enum ksim_scr_state {
	KSIM_SCR_IDLE,
	KSIM_SCR_WRITE,		/* bursts going out */
	KSIM_SCR_ACK,		/* every beat gone, acks coming */
	KSIM_SCR_DONE,		/* exec_done next cycle */
};

struct ksim_scr {
	/* first: kept across a mesh reset; everything below is cleared */
	u8 buf[KH_SCR_GRANULES][KSIM_SCR_GRANULE];
	struct ksim_unit *u;
	unsigned int mx, my;
	u32 sel;

	/* COPY_OUT */
	u8 state;
	bool fault;
	u32 code;
	u32 first, count;
	u64 addr;
	u32 w_g;		/* granules loaded */
	u32 w_left;		/* beats left in the burst under way, 0: none */
	u32 bursts, acks;

	/* the send register */
	bool out_valid, out_sig;
	struct kh_flit out;

	u64 granules_rx, refused;	/* CU_DBG */
};

static int ksim_scr_init(struct ksim_unit *u)
{
	struct ksim_scr *s = ksim_unit_priv(u);

	s->u = u;
	ksim_unit_mag_port(u, &s->mx, &s->my);
	return 0;
}

/* A mesh reset: everything but the buffer. */
static void ksim_scr_reset(struct ksim_unit *u)
{
	struct ksim_scr *s = ksim_unit_priv(u);
	size_t keep = offsetof(struct ksim_scr, u);

	memset((u8 *)s + keep, 0, sizeof(*s) - keep);
	ksim_scr_init(u);
}

static u64 ksim_scr_dbg(const struct ksim_scr *s)
{
	return (s->granules_rx & 0xffffffffULL) << 32 |
	       (s->refused & 0xffffffffULL);
}

/* ---- receive ---- */

/* Buffer 0, to its end and no further. */
static bool ksim_scr_cd_ok(struct ksim_unit *u, unsigned int buf, u32 off,
			   u32 len)
{
	return buf == KH_SCR_BUF && off + len + 1 <= KH_SCR_GRANULES;
}

static void ksim_scr_cd_word(struct ksim_unit *u, unsigned int buf, u32 off,
			     const struct kh_flit *f)
{
	struct ksim_scr *s = ksim_unit_priv(u);

	ksim_payload_to_bytes(s->buf[off], f->w);
	s->granules_rx++;
}

static void ksim_scr_cd_refuse(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_scr *s = ksim_unit_priv(u);

	s->refused++;
}

static const struct ksim_cd_policy ksim_scr_cd = {
	.ok = ksim_scr_cd_ok,
	.word = ksim_scr_cd_word,
	.refuse = ksim_scr_cd_refuse,
	.foreign = KSIM_CD_FOREIGN_DROP,
	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,
	.acks = 1,
};

static bool ksim_scr_receive(struct ksim_scr *s)
{
	const struct kh_flit *f = ksim_unit_recv(s->u);

	if (!f)
		return false;
	switch (kh_flit_get(f, KH_HDR_TYPE)) {
	case KH_T_CU_DATA:
		if (!ksim_unit_cd_take(s->u, f))
			return false;	/* cleared by the send path */
		break;
	case KH_T_MEM_WR_ACK:
		if (s->state == KSIM_SCR_WRITE || s->state == KSIM_SCR_ACK) {
			if (++s->acks == s->bursts && s->state == KSIM_SCR_ACK)
				s->state = KSIM_SCR_DONE;
		} else {
			ksim_unit_drop(s->u, f, "scr: a write ack no copy waits for");
		}
		break;
	default:
		ksim_unit_drop(s->u, f, "scr: not CU_DATA or a write ack");
		break;
	}
	ksim_unit_recv_pop(s->u);
	return true;
}

/* ---- COPY_OUT ---- */

static void ksim_scr_accept(struct ksim_scr *s, const struct kh_flit *f)
{
	unsigned int op = kh_flit_get(f, KH_SCR_INST_OP);

	ksim_unit_inst_accept(s->u);
	s->count = kh_flit_get(f, KH_SCR_INST_COUNT) + 1;
	s->first = kh_flit_get(f, KH_SCR_INST_FIRST);
	s->addr = kh_flit_get(f, KH_SCR_INST_ADDR);
	s->w_g = s->w_left = s->bursts = s->acks = 0;
	s->fault = true;
	if (op != KH_SCR_OP_COPY_OUT)
		s->code = KH_SCR_FAULT_BAD_OP;
	else if (s->first + s->count > KH_SCR_GRANULES)
		s->code = KH_SCR_FAULT_RANGE;
	else if (s->addr % KSIM_SCR_GRANULE)
		s->code = KH_SCR_FAULT_ALIGN;
	else
		s->fault = false;
	s->state = s->fault ? KSIM_SCR_DONE : KSIM_SCR_WRITE;
}

/* Load the next write flit of the copy into the send register. */
static void ksim_scr_write_flit(struct ksim_scr *s)
{
	struct kh_flit *f = &s->out;

	memset(f, 0, sizeof(*f));
	if (!s->w_left) {
		u32 n = ksim_min_u32(s->count - s->w_g, KH_MEM_WBURST);

		ksim_unit_hdr(s->u, f, s->mx, s->my, KH_T_MEM_WR_REQ,
			      KSIM_SCR_TXN, 0);
		kh_flit_set(f, KH_MEM_ADDR,
			    s->addr + (u64)s->w_g * KSIM_SCR_GRANULE);
		kh_flit_set(f, KH_MEM_LEN, n - 1);
		s->w_left = n;
		s->bursts++;
	} else {
		ksim_unit_hdr(s->u, f, s->mx, s->my, KH_T_MEM_WR_DATA,
			      KSIM_SCR_TXN, s->w_left == 1);
		ksim_bytes_to_payload(f->w, s->buf[s->first + s->w_g]);
		s->w_g++;
		s->w_left--;
		if (s->w_g == s->count)
			s->state = KSIM_SCR_ACK;
	}
	s->out_valid = true;
	s->out_sig = false;
}

static bool ksim_scr_send(struct ksim_scr *s)
{
	if (!s->out_valid) {
		if (ksim_unit_cd_ack(s->u, &s->out)) {
			s->out_valid = s->out_sig = true;
		} else if (s->state == KSIM_SCR_WRITE) {
			ksim_scr_write_flit(s);
		} else {
			return false;
		}
	}
	if (ksim_unit_send(s->u, &s->out)) {
		s->out_valid = false;
		if (s->out_sig)
			ksim_unit_cd_ack_pop(s->u);
	}
	return true;
}

static bool ksim_scr_tick(struct ksim_unit *u)
{
	struct ksim_scr *s = ksim_unit_priv(u);
	const struct kh_flit *f;
	bool did = false, retired = false;

	if (s->state == KSIM_SCR_DONE) {
		ksim_unit_retire(u, s->fault ? s->code : s->count, s->fault);
		s->state = KSIM_SCR_IDLE;
		did = retired = true;
	}
	did |= ksim_scr_send(s);
	did |= ksim_scr_receive(s);
	if (s->state == KSIM_SCR_IDLE && !retired) {
		f = ksim_unit_inst(u);
		if (f) {
			ksim_scr_accept(s, f);
			did = true;
		}
	}
	ksim_unit_set_dbg(u, ksim_scr_dbg(s));
	return did || s->state == KSIM_SCR_DONE || s->out_valid ||
	       ksim_unit_cd_acks(u) || s->state == KSIM_SCR_WRITE;
}

static bool ksim_scr_ctrl_read(struct ksim_unit *u, unsigned int idx, u64 *val)
{
	struct ksim_scr *s = ksim_unit_priv(u);
	const u8 *p;
	unsigned int i;

	if (idx == KH_CTRL_IDX_SCR_SEL) {
		*val = s->sel;
		return true;
	}
	if (idx != KH_CTRL_IDX_SCR_DATA)
		return false;
	p = &s->buf[0][0] + s->sel * 8;
	*val = 0;
	for (i = 0; i < 8; i++)
		*val |= (u64)p[i] << (8 * i);
	return true;
}

static void ksim_scr_ctrl_write(struct ksim_unit *u, unsigned int idx, u64 val)
{
	struct ksim_scr *s = ksim_unit_priv(u);

	if (idx == KH_CTRL_IDX_SCR_SEL)
		s->sel = (u32)(val % KSIM_SCR_WORDS);
}

const struct ksim_unit_type ksim_unit_scr = {
	.token = "scr",
	.name = "scratch unit",
	.cu_type = KH_CU_SC,
	.cu_version = KH_DXA_VERSION,
	.n_buffers = 1,
	.priv_size = sizeof(struct ksim_scr),
	.init = ksim_scr_init,
	.reset = ksim_scr_reset,
	.tick = ksim_scr_tick,
	.ctrl_read = ksim_scr_ctrl_read,
	.ctrl_write = ksim_scr_ctrl_write,
	.cudata = &ksim_scr_cd,
};
