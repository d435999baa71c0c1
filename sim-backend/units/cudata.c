// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The port contract's CU_DATA receiver (kohakutpu.md 2.5, 2.7, 5.7; seed
 * 001 §5, §8.2), written once for every unit that takes CU_DATA.  The
 * unit's receive path dispatches by type as its RTL does and hands each
 * CU_DATA flit here (ksim_unit_cd_take()); its type's `cudata` policy
 * (struct ksim_cd_policy, ksim_unit.h) supplies the hooks that check and
 * land a burst in the unit's own buffers and declares the quirks its RTL
 * or spec has.  The policy is the only place a unit differs.
 *
 * What every receiver does, in this order, one flit per call:
 *
 * - with `hold`, any CU_DATA flit waits at the head of the receive FIFO
 *   while an ack is owed (seed 001 §5.1: cleared by the send path alone).
 * - framing by count: with no burst open, any CU_DATA flit is a
 *   descriptor (buf_id, offset, len, flags, {ack_y, ack_x}, and its
 *   header's src and txn); then len + 1 data flits from that source,
 *   `last` not read.  A descriptor arriving while a burst is open is
 *   data like any other flit of its source.
 * - the bound check (policy ok()) at the descriptor: a refused burst is
 *   counted out to its last flit and lands nothing; refuse() records it.
 * - a flit from another source while a burst is open: policy `foreign`
 *   (dropped; dropped and spoiling the burst; or spliced in as data).
 * - the last flit of a burst owed an ack waits at the head of the
 *   receive FIFO while the unit's `acks` owed acks wait for its send
 *   path (§5.1 again).
 * - with `recheck`, ok() again at every data flit: a burst that no longer
 *   fits is refused from that flit on.
 * - a data flit of a burst not refused lands through word(), at the
 *   descriptor's offset plus its index, in the cycle it is taken.
 * - after the last flit the ack, if owed (policy `ack`), is queued to
 *   {ack_y, ack_x}, or to the descriptor's source when that is 0 ((0,0)
 *   is a mesh corner and holds no endpoint), with arg = buf_id and the
 *   descriptor's txn (0 with `ack_txn0`); the unit sends it where its
 *   send path puts acks (ksim_unit_cd_ack()), `ack_lat` cycles after the
 *   last flit at the earliest.
 *
 * The units, each the RTL or the spec cited in docs/model.md:
 *
 *   cpu   ok: buffer 0, 1 (granules) or 4, 5 (words) and offset + len <
 *         256 (rv_pe.v:205-211); word: a word at once, a granule walked
 *         in one word a cycle over the next eight, the receive path
 *         taking nothing meanwhile (259-262: the unit's own dispatch);
 *         refuse: counted, and the descriptor logged as a dropped flit
 *         (the RTL's $display, 478-480); foreign dropped (218-219,
 *         484-487); never acks (nothing in rv_pe.v reads the flags).
 *   dxa   ok: one whole slot (buffer 0, an even offset below 32, two
 *         flits); word: stages the granule and lands the slot at its
 *         last; foreign dropped; no ack for a refused burst; one ack
 *         register (docs/spec/dxa.md "The descriptor table", "Decided
 *         while modelling").
 *   gp    ok: buffer 4 (IRAM, every core in reset), 8 + c (core c's
 *         DataRAM, core c in reset), 16 + c (a word of it, any time), to
 *         the memory's end, checked again at every flit; word: at once;
 *         refuse: the next retirement faults UNIT_LOAD; foreign dropped;
 *         a refused burst acked too; up to 8 acks queued, each leaving
 *         the queue when the send path loads it (docs/spec/pool.md
 *         "Loading").
 *   mat   ok: buffer 0/1 (L1 A/B) offset + len < 2048, buffer 2 (peer
 *         accumulate) < 8192 and an even offset (mx_cluster_cu.v
 *         L596-602); word: L1 placement or the peer sub-tile register,
 *         at once; refuse: fault_r for the next retirement; foreign
 *         spliced (the source is compared only in simulation, L1123); a
 *         refused burst acked too ("still acknowledged", L671-681); one
 *         ack register, sg_valid, offered from the next cycle (L681,
 *         L979); every CU_DATA flit held while it is set (cd_take, L611;
 *         the peer sub-tile's hold is the unit's own).
 *   scr   ok: buffer 0, offset + len + 1 <= 256; word: the granule at
 *         once; foreign dropped; no ack for a refused burst; one ack
 *         register (docs/spec/dxa.md "The scratch unit").
 *   vec   ok: buffer 0, offset + len < 512 (vec_cu.v:258-259); word: the
 *         L1 word at once; refuse: F_CUDATA at the next boundary; a
 *         second source's flit spoils the burst (cd_alien, vec_cu.v:
 *         280-286, 332-342); no ack for a refused burst (cd_sig, 325),
 *         with txn 0 (380); one ack register, sg_pend, while which the
 *         unit takes nothing at all (its own dispatch, 305-309).
 */
#include "base.h"
#include "cudata.h"

static const char ksim_cd_foreign_why[] =
	"CU_DATA from a second source while a burst is open";

void ksim_unit_cd_reset(struct ksim_unit *u)
{
	if (u->cd)
		memset(u->cd, 0, sizeof(*u->cd));
}

/* Whether the burst being counted will be owed an ack at its end. */
static bool ksim_cd_owed(const struct ksim_cd_policy *p,
			 const struct ksim_cd *cd)
{
	if (!cd->signal || p->ack == KSIM_CD_ACK_NEVER)
		return false;
	return p->ack == KSIM_CD_ACK_ON_FLAG || !cd->refused;
}

static void ksim_cd_open(struct ksim_unit *u, const struct ksim_cd_policy *p,
			 const struct kh_flit *f)
{
	struct ksim_cd *cd = u->cd;

	cd->on = true;
	cd->sx = kh_flit_get(f, KH_HDR_SRC_X);
	cd->sy = kh_flit_get(f, KH_HDR_SRC_Y);
	cd->txn = kh_flit_get(f, KH_HDR_TXN);
	cd->buf = kh_flit_get(f, KH_DATA_BUF_ID);
	cd->off = kh_flit_get(f, KH_DATA_OFFSET);
	cd->len = kh_flit_get(f, KH_DATA_LEN);
	cd->i = 0;
	cd->signal = kh_flit_get(f, KH_DATA_FLAGS) & KH_DATAF_SIGNAL;
	cd->ax = kh_flit_get(f, KH_DATA_ACK_X);
	cd->ay = kh_flit_get(f, KH_DATA_ACK_Y);
	if (!cd->ax && !cd->ay) {
		cd->ax = cd->sx;
		cd->ay = cd->sy;
	}
	cd->refused = !p->ok(u, cd->buf, cd->off, cd->len);
	if (cd->refused && p->refuse)
		p->refuse(u, f);
}

/* The burst just counted out is owed an ack: queue it. */
static void ksim_cd_owe(struct ksim_unit *u)
{
	struct ksim_cd *cd = u->cd;
	struct ksim_cd_pending *a =
		&cd->ackq[(cd->ack_head + cd->ack_n) % KSIM_CD_ACKS_MAX];

	a->at = ksim_unit_now(u) + u->type->cudata->ack_lat;
	a->dx = cd->ax;
	a->dy = cd->ay;
	a->txn = u->type->cudata->ack_txn0 ? 0 : cd->txn;
	a->buf = cd->buf;
	cd->ack_n++;
}

bool ksim_unit_cd_take(struct ksim_unit *u, const struct kh_flit *f)
{
	const struct ksim_cd_policy *p = u->type->cudata;
	struct ksim_cd *cd = u->cd;
	bool foreign;

	if (p->hold && cd->ack_n)
		return false;
	if (!cd->on) {
		ksim_cd_open(u, p, f);
		return true;
	}
	foreign = p->foreign != KSIM_CD_FOREIGN_SPLICES &&
		  (kh_flit_get(f, KH_HDR_SRC_X) != cd->sx ||
		   kh_flit_get(f, KH_HDR_SRC_Y) != cd->sy);
	/* dropped before the wait below: another source's flit never waits */
	if (foreign && p->foreign == KSIM_CD_FOREIGN_DROP) {
		ksim_unit_drop(u, f, ksim_cd_foreign_why);
		return true;
	}
	/*
	 * The last flit waits while the acks owed fill what the unit can hold,
	 * so a second burst's ack never overwrites the first's.  Before any
	 * side effect: a flit that waits is offered again next cycle.
	 */
	if (cd->i == cd->len && ksim_cd_owed(p, cd) && cd->ack_n >= p->acks)
		return false;
	if (foreign) {
		/* KSIM_CD_FOREIGN_SPOILS: counted below, landing nothing */
		ksim_unit_drop(u, f, ksim_cd_foreign_why);
		cd->refused = true;
		if (p->refuse)
			p->refuse(u, f);
	}
	if (p->recheck && !cd->refused &&
	    !p->ok(u, cd->buf, cd->off, cd->len)) {
		cd->refused = true;
		if (p->refuse)
			p->refuse(u, f);
	}
	if (!cd->refused)
		p->word(u, cd->buf, cd->off + cd->i, f);
	if (cd->i++ < cd->len)
		return true;
	cd->on = false;
	if (ksim_cd_owed(p, cd))
		ksim_cd_owe(u);
	return true;
}

bool ksim_unit_cd_open(const struct ksim_unit *u, unsigned int *buf)
{
	if (buf)
		*buf = u->cd->buf;
	return u->cd->on;
}

unsigned int ksim_unit_cd_acks(const struct ksim_unit *u)
{
	return u->cd->ack_n;
}

u64 ksim_unit_cd_ack_at(const struct ksim_unit *u)
{
	return u->cd->ack_n ? u->cd->ackq[u->cd->ack_head].at : ~0ULL;
}

bool ksim_unit_cd_ack(const struct ksim_unit *u, struct kh_flit *f)
{
	const struct ksim_cd_pending *a = &u->cd->ackq[u->cd->ack_head];

	if (!u->cd->ack_n || ksim_unit_now(u) < a->at)
		return false;
	memset(f, 0, sizeof(*f));
	ksim_unit_hdr(u, f, a->dx, a->dy, KH_T_CU_SIGNAL, a->txn, 1);
	kh_flit_set(f, KH_SIG_CODE, KH_SIG_DATA_RECEIVED);
	kh_flit_set(f, KH_SIG_ARG, a->buf);
	return true;
}

void ksim_unit_cd_ack_pop(struct ksim_unit *u)
{
	if (!u->cd->ack_n)
		return;
	u->cd->ack_head = (u->cd->ack_head + 1) % KSIM_CD_ACKS_MAX;
	u->cd->ack_n--;
}
