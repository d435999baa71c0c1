// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CU_DATA into the POOL unit (docs/spec/pool.md "Loading"; kohakutpu.md
 * 2.5, 5.7): buffer 4 is IRAM and 8 + c core c's DataRAM, offsets in
 * 32-byte granules; 16 + c is one 32-bit word of core c's DataRAM per data
 * flit ([31:0]), the offset in words.  One burst at a time, framed by
 * count (len + 1 data flits; `last` is not read) from its descriptor's
 * source: a flit from another source while a
 * burst is open is dropped (and counted), as a receiver that does not
 * publish multi-stream support may.
 *
 * A burst into IRAM needs all eight cores in reset, into a DataRAM its
 * core; a word write may come at any time.  A burst to an unknown buffer,
 * past its memory's end, or meeting a running core (checked at the
 * descriptor and again at each flit) is refused: counted out to its last
 * flit, written nowhere, and the unit's next retirement faults
 * KH_POOL_UNIT_LOAD.  flags[0] asks for SIG_DATA_RECEIVED (arg: the
 * buf_id, txn: the descriptor's) to {ack_y, ack_x}, or to the
 * descriptor's source when that is 0, after the last flit, refused or not.
 */
#include "pool.h"

/* Whether flits of burst cd may be written now. */
static bool ksim_pool_cd_ok(const struct ksim_pool *p,
			    const struct ksim_pool_cd *cd)
{
	u32 end = cd->off + cd->i + cd->left;
	unsigned int b = cd->buf;

	if (b == KH_POOL_BUF_IRAM)
		return (p->rst & KSIM_POOL_ALL) == KSIM_POOL_ALL &&
		       end <= KH_POOL_IRAM_SIZE / KSIM_POOL_WORD;
	if (b >= KH_POOL_BUF_DATARAM(0) && b < KH_POOL_BUF_DATARAM(KH_POOL_CORES))
		return ((p->rst >> (b - KH_POOL_BUF_DATARAM(0))) & 1) &&
		       end <= KH_POOL_DRAM_SIZE / KSIM_POOL_WORD;
	if (b >= KH_POOL_BUF_WORD(0) && b < KH_POOL_BUF_WORD(KH_POOL_CORES))
		return end <= KSIM_POOL_DRAM_WORDS;
	return false;
}

static void ksim_pool_cd_write(struct ksim_pool *p,
			       const struct ksim_pool_cd *cd,
			       const struct kh_flit *f)
{
	u32 at = cd->off + cd->i;
	unsigned int b = cd->buf;

	if (b == KH_POOL_BUF_IRAM) {
		ksim_payload_to_bytes(p->iram + at * KSIM_POOL_WORD, f->w);
		ksim_pool_iram_written(p, at * KSIM_POOL_WORD, KSIM_POOL_WORD);
	} else if (b < KH_POOL_BUF_WORD(0)) {
		ksim_payload_to_bytes(p->core[b - KH_POOL_BUF_DATARAM(0)].dram +
				      at * KSIM_POOL_WORD, f->w);
	} else {
		ksim_pool_wr32(p->core[b - KH_POOL_BUF_WORD(0)].dram + at * 4,
			       ksim_payload_u32(f->w, 0));
	}
}

bool ksim_pool_cd_flit(struct ksim_pool *p, const struct kh_flit *f)
{
	struct ksim_pool_cd *cd = &p->cd;
	unsigned int sx = kh_flit_get(f, KH_HDR_SRC_X);
	unsigned int sy = kh_flit_get(f, KH_HDR_SRC_Y);

	if (!cd->on) {
		/* a descriptor */
		cd->on = true;
		cd->sx = sx;
		cd->sy = sy;
		cd->txn = kh_flit_get(f, KH_HDR_TXN);
		cd->buf = kh_flit_get(f, KH_DATA_BUF_ID);
		cd->off = kh_flit_get(f, KH_DATA_OFFSET);
		cd->left = kh_flit_get(f, KH_DATA_LEN) + 1;
		cd->i = 0;
		cd->signal = kh_flit_get(f, KH_DATA_FLAGS) & KH_DATAF_SIGNAL;
		cd->ax = kh_flit_get(f, KH_DATA_ACK_X);
		cd->ay = kh_flit_get(f, KH_DATA_ACK_Y);
		if (!cd->ax && !cd->ay) {
			cd->ax = sx;
			cd->ay = sy;
		}
		cd->refused = !ksim_pool_cd_ok(p, cd);
		if (cd->refused)
			p->load_fault = true;
		return true;
	}
	if (sx != cd->sx || sy != cd->sy) {
		ksim_unit_drop(p->u, f, "CU_DATA from a second source while a burst is open");
		return true;
	}
	/* the last flit waits for room to signal */
	if (cd->left == 1 && cd->signal &&
	    !ksim_pool_sig_push(p, cd->ax, cd->ay, cd->txn, cd->buf))
		return false;
	if (!cd->refused && !ksim_pool_cd_ok(p, cd)) {
		cd->refused = true;	/* a core left reset mid-burst */
		p->load_fault = true;
	}
	if (!cd->refused)
		ksim_pool_cd_write(p, cd, f);
	cd->i++;
	if (!--cd->left)
		cd->on = false;
	return true;
}
