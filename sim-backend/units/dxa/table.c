// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The descriptor table: CU_DATA buffer 0 of the DXA unit (docs/spec/dxa.md
 * "The descriptor table"), written through the shared receiver
 * (units/cudata.c) with the policy below.  Slot s is granules 2s and 2s+1.
 * A burst is taken when it writes exactly one slot: buffer 0, an even
 * offset below granule 32, two granules.  Anything else is refused:
 * counted out to its last flit, written nowhere, and not acknowledged.  A
 * taken burst lands whole at its last flit, so a copy that latches the
 * slot never sees half of one; with flags[0] it is then acknowledged with
 * SIG_DATA_RECEIVED.  One ack register (the send register's first
 * priority, dxa.c).
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
static bool ksim_dxa_cd_ok(struct ksim_unit *u, unsigned int buf, u32 off,
			   u32 len)
{
	return buf == KH_DXA_BUF_TABLE && !(off % KH_DXA_SLOT_GRANULES) &&
	       off < KH_DXA_SLOTS * KH_DXA_SLOT_GRANULES &&
	       len + 1 == KH_DXA_SLOT_GRANULES;
}

/* Granule off: staged; the slot's last lands the slot whole. */
static void ksim_dxa_cd_word(struct ksim_unit *u, unsigned int buf, u32 off,
			     const struct kh_flit *f)
{
	struct ksim_dxa *x = ksim_unit_priv(u);
	u32 g = off % KH_DXA_SLOT_GRANULES;

	ksim_payload_to_bytes(x->cd_slot + g * KSIM_DXA_GRANULE, f->w);
	if (g == KH_DXA_SLOT_GRANULES - 1)
		memcpy(x->table[off / KH_DXA_SLOT_GRANULES], x->cd_slot,
		       KH_DXA_SLOT_BYTES);
}

static void ksim_dxa_cd_refuse(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_dxa *x = ksim_unit_priv(u);

	x->refused++;
}

const struct ksim_cd_policy ksim_dxa_table_cd = {
	.ok = ksim_dxa_cd_ok,
	.word = ksim_dxa_cd_word,
	.refuse = ksim_dxa_cd_refuse,
	.foreign = KSIM_CD_FOREIGN_DROP,
	.ack = KSIM_CD_ACK_NONE_AFTER_REFUSE,
	.acks = 1,
};
