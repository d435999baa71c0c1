// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * CU_DATA into the POOL unit (docs/spec/pool.md "Loading"; kohakutpu.md
 * 2.5, 5.7): the hooks and policy of the shared receiver (units/cudata.c).
 * Buffer 4 is IRAM and 8 + c core c's DataRAM, offsets in 32-byte
 * granules; 16 + c is one 32-bit word of core c's DataRAM per data flit
 * ([31:0]), the offset in words.  One burst at a time, framed by count
 * from its descriptor's source: a flit from another source while a burst
 * is open is dropped (and counted), as a receiver that does not publish
 * multi-stream support may.
 *
 * A burst into IRAM needs all eight cores in reset, into a DataRAM its
 * core; a word write may come at any time.  A burst to an unknown buffer,
 * past its memory's end, or meeting a running core (checked at the
 * descriptor and again at each flit) is refused: counted out to its last
 * flit, written nowhere, and the unit's next retirement faults
 * KH_POOL_UNIT_LOAD.  flags[0] asks for SIG_DATA_RECEIVED after the last
 * flit, refused or not; up to KSIM_POOL_SIGQ of them wait for the send
 * path (port.c), and a burst's last flit waits while the queue is full.
 */
#include "pool.h"

/* Whether a burst of len + 1 flits from off may be written now. */
static bool ksim_pool_cd_ok(struct ksim_unit *u, unsigned int b, u32 off,
			    u32 len)
{
	const struct ksim_pool *p = ksim_unit_priv(u);
	u32 end = off + len + 1;

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

/* One data flit of a burst not refused: granule (or word) off of b. */
static void ksim_pool_cd_word(struct ksim_unit *u, unsigned int b, u32 off,
			      const struct kh_flit *f)
{
	struct ksim_pool *p = ksim_unit_priv(u);

	if (b == KH_POOL_BUF_IRAM) {
		ksim_payload_to_bytes(p->iram + off * KSIM_POOL_WORD, f->w);
		ksim_pool_iram_written(p, off * KSIM_POOL_WORD, KSIM_POOL_WORD);
	} else if (b < KH_POOL_BUF_WORD(0)) {
		ksim_payload_to_bytes(p->core[b - KH_POOL_BUF_DATARAM(0)].dram +
				      off * KSIM_POOL_WORD, f->w);
	} else {
		ksim_pool_wr32(p->core[b - KH_POOL_BUF_WORD(0)].dram + off * 4,
			       ksim_payload_u32(f->w, 0));
	}
}

static void ksim_pool_cd_refuse(struct ksim_unit *u, const struct kh_flit *f)
{
	struct ksim_pool *p = ksim_unit_priv(u);

	p->load_fault = true;
}

_Static_assert(KSIM_POOL_SIGQ <= KSIM_CD_ACKS_MAX,
	       "the POOL unit's ack queue fits the receiver's");

const struct ksim_cd_policy ksim_pool_cd = {
	.ok = ksim_pool_cd_ok,
	.word = ksim_pool_cd_word,
	.refuse = ksim_pool_cd_refuse,
	.recheck = true,
	.foreign = KSIM_CD_FOREIGN_DROP,
	.ack = KSIM_CD_ACK_ON_FLAG,
	.acks = KSIM_POOL_SIGQ,
};
