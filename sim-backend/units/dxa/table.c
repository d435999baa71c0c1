// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The descriptor table: CU_DATA buffer 0 of the DXA unit (docs/spec/dxa.md
 * "The descriptor table").  Slot s is granules 2s and 2s+1.  A burst is
 * taken when it writes exactly one slot: buffer 0, an even offset below
 * granule 32, two granules.  Anything else is refused: counted out to its
 * last flit (framed by count, like every receiver), written nowhere, and
 * not acknowledged.  A taken burst lands whole at its last flit, so a copy
 * that latches the slot never sees half of one; with flags[0] it is then
 * acknowledged with SIG_DATA_RECEIVED (arg: the buf_id, txn: the
 * descriptor's) to {ack_y, ack_x}, or to its source when that is 0.
 *
 * One burst at a time: a CU_DATA flit from another source while a burst
 * is open is dropped (and counted), as the POOL unit does; the table has
 * one writer, the host.
 */
#include "dxa.h"

static u32 ksim_dxa_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static u16 ksim_dxa_le16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

void ksim_dxa_desc_decode(const u8 *slot, struct ksim_dxa_desc *d)
{
	unsigned int i;

	d->base = (u64)ksim_dxa_le32(slot + KH_DXA_D_BASE) |
		  (u64)ksim_dxa_le32(slot + KH_DXA_D_BASE + 4) << 32;
	for (i = 0; i < KH_DXA_MAX_RANK; i++) {
		d->size[i] = ksim_dxa_le32(slot + KH_DXA_D_SIZE(i));
		d->tile[i] = ksim_dxa_le16(slot + KH_DXA_D_TILE(i));
	}
	for (i = 0; i < KH_DXA_MAX_RANK - 1; i++)
		d->stride[i] = ksim_dxa_le32(slot + KH_DXA_D_STRIDE(i));
	d->meta = ksim_dxa_le32(slot + KH_DXA_D_META);
	d->mstride = ksim_dxa_le16(slot + KH_DXA_D_MSTRIDE);
	d->cfill = ksim_dxa_le32(slot + KH_DXA_D_CFILL);
}

/* DXA_DATA: u64 word w (slot w / 8, word w % 8), little-endian. */
u64 ksim_dxa_table_word(const struct ksim_dxa *x, u32 w)
{
	const u8 *p = &x->table[0][0] + (w % KH_DXA_TABLE_WORDS) * 8;
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < 8; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

/* Whether this burst writes exactly one slot. */
static bool ksim_dxa_cd_ok(unsigned int buf, u32 off, u32 len)
{
	return buf == KH_DXA_BUF_TABLE && !(off % KH_DXA_SLOT_GRANULES) &&
	       off < KH_DXA_SLOTS * KH_DXA_SLOT_GRANULES &&
	       len + 1 == KH_DXA_SLOT_GRANULES;
}

/*
 * The last flit of a burst that asks for an ack waits while another ack
 * still waits for the send path (cleared by the send path alone: seed 001
 * §5.1).
 */
bool ksim_dxa_table_wait(const struct ksim_dxa *x, const struct kh_flit *f)
{
	return x->cd_on && x->cd_left == 1 && x->cd_signal &&
	       !x->cd_refused && x->sg_pend &&
	       kh_flit_get(f, KH_HDR_SRC_X) == x->cd_sx &&
	       kh_flit_get(f, KH_HDR_SRC_Y) == x->cd_sy;
}

static void ksim_dxa_cd_open(struct ksim_dxa *x, const struct kh_flit *f)
{
	unsigned int sx = kh_flit_get(f, KH_HDR_SRC_X);
	unsigned int sy = kh_flit_get(f, KH_HDR_SRC_Y);

	x->cd_on = true;
	x->cd_sx = sx;
	x->cd_sy = sy;
	x->cd_txn = kh_flit_get(f, KH_HDR_TXN);
	x->cd_buf = kh_flit_get(f, KH_DATA_BUF_ID);
	x->cd_off = kh_flit_get(f, KH_DATA_OFFSET);
	x->cd_left = kh_flit_get(f, KH_DATA_LEN) + 1;
	x->cd_i = 0;
	x->cd_signal = kh_flit_get(f, KH_DATA_FLAGS) & KH_DATAF_SIGNAL;
	x->cd_ax = kh_flit_get(f, KH_DATA_ACK_X);
	x->cd_ay = kh_flit_get(f, KH_DATA_ACK_Y);
	if (!x->cd_ax && !x->cd_ay) {
		x->cd_ax = sx;
		x->cd_ay = sy;
	}
	x->cd_refused = !ksim_dxa_cd_ok(x->cd_buf, x->cd_off,
					x->cd_left - 1);
	if (x->cd_refused)
		x->refused++;
}

void ksim_dxa_table_flit(struct ksim_dxa *x, const struct kh_flit *f)
{
	if (!x->cd_on) {
		ksim_dxa_cd_open(x, f);
		return;
	}
	if (kh_flit_get(f, KH_HDR_SRC_X) != x->cd_sx ||
	    kh_flit_get(f, KH_HDR_SRC_Y) != x->cd_sy) {
		ksim_unit_drop(x->u, f, "dxa: CU_DATA from a second source while a burst is open");
		return;
	}
	if (!x->cd_refused)
		ksim_payload_to_bytes(x->cd_slot + x->cd_i * KSIM_DXA_GRANULE,
				      f->w);
	x->cd_i++;
	if (--x->cd_left)
		return;
	x->cd_on = false;
	if (x->cd_refused)
		return;
	memcpy(x->table[x->cd_off / KH_DXA_SLOT_GRANULES], x->cd_slot,
	       KH_DXA_SLOT_BYTES);
	if (x->cd_signal) {
		x->sg_pend = true;
		x->sg_x = x->cd_ax;
		x->sg_y = x->cd_ay;
		x->sg_txn = x->cd_txn;
		x->sg_buf = x->cd_buf;
	}
}
