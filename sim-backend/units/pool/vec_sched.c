// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The vector unit's issue timing (docs/spec/pool-vector.md "Issue and
 * the scoreboard"; seed 002 §2.2-§2.4, §5): when a vector instruction
 * issues, given what the instructions before it still have in flight.
 *
 * - Operand availability (the RAW/WAW scoreboard of §2.4): a register's
 *   result is written at its producer's issue cycle + result stage; a
 *   consumer reads vector, vbool, b32_pr, valign, gvr operands and FCR at
 *   stage 10 and the wide accumulator at 12 (§2.3, §3.3), so it issues
 *   at the earliest when stage - read stage cycles have passed, and never
 *   in its producer's own cycle.  A later write to a register lands after
 *   the earlier one (WAW).
 * - Co-issue (§2.2, §5.4): consecutive vector instructions with nothing
 *   between them issue in one cycle as long as they fit the slots of one
 *   of the two five-slot formats, F3 or F11, and none needs a result of
 *   another in the bundle.  A scalar instruction ends the bundle.
 * - A vector to scalar move holds the scalar pipe for the pipe-depth gap
 *   (§7, KH_PV_V2S_GAP): the scalar core reads its registers at stage 4
 *   and nothing forwards a vector write stage there.
 *
 * Nothing here touches values: ksim_pool_vec_exec() runs first, and only
 * an instruction that retired is scheduled.
 */
#include "pool.h"

/* The slot classes of §2.2 */
enum {
	KSIM_PV_C_ALU,		/* S1 (F11), S3, S4 */
	KSIM_PV_C_LOAD,		/* S0, S1 (F3) */
	KSIM_PV_C_STORE,	/* S0 */
	KSIM_PV_C_MAC,		/* S2 only: the quad-MAC and the wvec port */
	KSIM_PV_C_FMA,		/* S2 or S3 */
	KSIM_PV_C_V2S,		/* an ALU slot, then the gap */
};

static const u8 ksim_pool_vec_class[KSIM_PV_N] = {
	[KSIM_PV_ADD ... KSIM_PV_SEL] = KSIM_PV_C_ALU,
	[KSIM_PV_DIV4U] = KSIM_PV_C_ALU,
	[KSIM_PV_VL] = KSIM_PV_C_LOAD,
	[KSIM_PV_VS] = KSIM_PV_C_STORE,
	[KSIM_PV_VMV] = KSIM_PV_C_ALU,
	[KSIM_PV_SPLAT] = KSIM_PV_C_ALU,
	[KSIM_PV_EXT] = KSIM_PV_C_V2S,
	[KSIM_PV_EXTU] = KSIM_PV_C_V2S,
	[KSIM_PV_MVXB] = KSIM_PV_C_ALU,
	[KSIM_PV_MVBX] = KSIM_PV_C_V2S,
	[KSIM_PV_MVXP] = KSIM_PV_C_ALU,
	[KSIM_PV_MVPX] = KSIM_PV_C_V2S,
	[KSIM_PV_QMAC] = KSIM_PV_C_MAC,
	[KSIM_PV_PACK] = KSIM_PV_C_MAC,
	[KSIM_PV_RFCR] = KSIM_PV_C_V2S,
	[KSIM_PV_WFCR] = KSIM_PV_C_ALU,
	[KSIM_PV_RFSR] = KSIM_PV_C_V2S,
	[KSIM_PV_WFSR] = KSIM_PV_C_ALU,
	[KSIM_PV_MVVW] = KSIM_PV_C_MAC,
	[KSIM_PV_MVWV] = KSIM_PV_C_MAC,
	[KSIM_PV_MVVU ... KSIM_PV_MVGV] = KSIM_PV_C_ALU,
	[KSIM_PV_VLAP ... KSIM_PV_VSAP] = KSIM_PV_C_LOAD,
	[KSIM_PV_VSA ... KSIM_PV_VSAF] = KSIM_PV_C_STORE,
	[KSIM_PV_GATHERA ... KSIM_PV_GATHERD] = KSIM_PV_C_LOAD,
	[KSIM_PV_SCATTER ... KSIM_PV_SCATTERINC] = KSIM_PV_C_STORE,
	[KSIM_PV_FMA] = KSIM_PV_C_FMA,
	[KSIM_PV_FCVT] = KSIM_PV_C_ALU,
	[KSIM_PV_FTRUNC] = KSIM_PV_C_ALU,
	[KSIM_PV_FTAB] = KSIM_PV_C_ALU,
	[KSIM_PV_FTABQ] = KSIM_PV_C_FMA,
	[KSIM_PV_PERM] = KSIM_PV_C_ALU,
	[KSIM_PV_DSEL] = KSIM_PV_C_ALU,
};

/* the operands of one instruction: up to 6 reads, 3 writes */
struct ksim_pv_opnds {
	u8 nr, nw;
	u8 r[6], w[3];		/* KSIM_PV_SB_* indexes */
};

static void ksim_pv_rd(struct ksim_pv_opnds *d, unsigned int sb)
{
	d->r[d->nr++] = (u8)sb;
}

static void ksim_pv_wr(struct ksim_pv_opnds *d, unsigned int sb)
{
	d->w[d->nw++] = (u8)sb;
}

/* which scoreboard entries o reads and writes */
static void ksim_pool_vec_opnds(const struct ksim_pool_op *o,
				struct ksim_pv_opnds *d)
{
	unsigned int op = KSIM_PV_OP(o->imm), aux = KSIM_PV_AUX(o->imm), k;

	d->nr = d->nw = 0;
	switch (op) {
	case KSIM_PV_ADD ... KSIM_PV_MAXU:
	case KSIM_PV_DIV4U:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_EQ ... KSIM_PV_LEU:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_wr(d, KSIM_PV_SB_B + o->rd);
		break;
	case KSIM_PV_SEL:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_rd(d, KSIM_PV_SB_B + aux);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_VL:
	case KSIM_PV_SPLAT:
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_VS:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		break;
	case KSIM_PV_VMV:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_EXT:
	case KSIM_PV_EXTU:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		break;
	case KSIM_PV_MVXB:
		ksim_pv_wr(d, KSIM_PV_SB_B + o->rd);
		break;
	case KSIM_PV_MVBX:
		ksim_pv_rd(d, KSIM_PV_SB_B + o->rs1);
		break;
	case KSIM_PV_MVXP:
		ksim_pv_wr(d, KSIM_PV_SB_P + o->rd);
		break;
	case KSIM_PV_MVPX:
		ksim_pv_rd(d, KSIM_PV_SB_P + o->rs1);
		break;
	case KSIM_PV_QMAC:
		for (k = 0; k < 4; k++)
			ksim_pv_rd(d, KSIM_PV_SB_V + (o->rs1 + k) % KH_PV_NVEC);
		ksim_pv_rd(d, KSIM_PV_SB_P + o->rs2);
		if ((aux & 3) != KH_PV_MAC_SET)
			ksim_pv_rd(d, KSIM_PV_SB_W + o->rd);
		ksim_pv_wr(d, KSIM_PV_SB_W + o->rd);
		break;
	case KSIM_PV_PACK:
	case KSIM_PV_MVWV:
		ksim_pv_rd(d, KSIM_PV_SB_W + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_MVVW:
		/* a third of the accumulator: the rest is read and kept */
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_rd(d, KSIM_PV_SB_W + o->rd);
		ksim_pv_wr(d, KSIM_PV_SB_W + o->rd);
		break;
	case KSIM_PV_RFCR:
		ksim_pv_rd(d, KSIM_PV_SB_FCR);
		break;
	case KSIM_PV_WFCR:
		ksim_pv_wr(d, KSIM_PV_SB_FCR);
		break;
	case KSIM_PV_RFSR:
		ksim_pv_rd(d, KSIM_PV_SB_FSR);
		break;
	case KSIM_PV_WFSR:
		ksim_pv_wr(d, KSIM_PV_SB_FSR);
		break;
	case KSIM_PV_MVVU:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_U + o->rd);
		break;
	case KSIM_PV_MVUV:
		ksim_pv_rd(d, KSIM_PV_SB_U + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_MVVG:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_G + o->rd);
		break;
	case KSIM_PV_MVGV:
		ksim_pv_rd(d, KSIM_PV_SB_G + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_VLAP:
	case KSIM_PV_VSAP:
		ksim_pv_wr(d, KSIM_PV_SB_U + o->rd);
		break;
	case KSIM_PV_VLA:
		ksim_pv_rd(d, KSIM_PV_SB_U + o->rs2);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		ksim_pv_wr(d, KSIM_PV_SB_U + o->rs2);
		break;
	case KSIM_PV_VSA:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_rd(d, KSIM_PV_SB_U + o->rd);
		ksim_pv_wr(d, KSIM_PV_SB_U + o->rd);
		break;
	case KSIM_PV_VSAF:
		ksim_pv_rd(d, KSIM_PV_SB_U + o->rd);
		break;
	case KSIM_PV_GATHERA:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_rd(d, KSIM_PV_SB_B + KH_PV_GS_PRED(aux));
		ksim_pv_wr(d, KSIM_PV_SB_G + o->rd);
		break;
	case KSIM_PV_GATHERD:
		ksim_pv_rd(d, KSIM_PV_SB_G + o->rs2);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_SCATTER:
	case KSIM_PV_SCATTERINC:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rd);
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_rd(d, KSIM_PV_SB_B + KH_PV_GS_PRED(aux));
		break;
	case KSIM_PV_FMA:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		if ((aux & ~KH_PV_FNOFLAGS) <= KH_PV_FMSUB)
			ksim_pv_rd(d, KSIM_PV_SB_V + o->rd);
		ksim_pv_rd(d, KSIM_PV_SB_FCR);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		if (!(aux & KH_PV_FNOFLAGS))
			ksim_pv_wr(d, KSIM_PV_SB_FSR);
		break;
	case KSIM_PV_FCVT:
	case KSIM_PV_FTRUNC:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		if (aux == KH_PV_FCVT && KSIM_PV_W(o->imm) == KH_PV_WF16)
			ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_rd(d, KSIM_PV_SB_FCR);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		ksim_pv_wr(d, KSIM_PV_SB_FSR);
		break;
	case KSIM_PV_FTAB:
	case KSIM_PV_FTABQ:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_PERM:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		if (aux >= KH_PV_PCMPRS) {
			ksim_pv_rd(d, KSIM_PV_SB_B + aux - KH_PV_PCMPRS);
		} else {
			ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
			if (aux == KH_PV_PSEL)	/* the index vector */
				ksim_pv_rd(d, KSIM_PV_SB_V + o->rd);
		}
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		break;
	case KSIM_PV_DSEL:
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs1);
		ksim_pv_rd(d, KSIM_PV_SB_V + o->rs2);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd);
		ksim_pv_wr(d, KSIM_PV_SB_V + o->rd + 1);
		break;
	}
}

/* the stage a consumer op reads an entry at */
static unsigned int ksim_pool_vec_rstage(unsigned int op, unsigned int sb)
{
	if (op == KSIM_PV_DIV4U)
		return KH_PV_STAGE_DIVREAD;	/* §5.1: "early-read @8" */
	return sb >= KSIM_PV_SB_W && sb < KSIM_PV_SB_W + KH_PV_NWV ?
	       KH_PV_STAGE_WREAD : KH_PV_STAGE_READ;
}

/*
 * Whether a bundle of these counts fits F3 {S0 ld/st, S1 ld, S2 MAC|FMA,
 * S3 FMA|ALU, S4 ALU} or F11 {S0 ld/st, S1 ALU, S2 MAC|FMA, S3 FMA|ALU,
 * S4 ALU} (seed 002 §2.2 "the refined co-issue rule", §5.4).  An FMA
 * takes S2 when the MAC leaves it free, else S3; ALU ops take what is
 * left of S4, S3 and (F11) S1.
 */
static bool ksim_pool_vec_fits(const u8 *n)
{
	unsigned int mem = n[KSIM_PV_C_LOAD] + n[KSIM_PV_C_STORE];
	unsigned int q = n[KSIM_PV_C_MAC], f = n[KSIM_PV_C_FMA];
	unsigned int a = n[KSIM_PV_C_ALU] + n[KSIM_PV_C_V2S];
	unsigned int s3;

	if (n[KSIM_PV_C_STORE] > 1 || q > 1 || q + f > 2)
		return false;
	/* FMAs beyond the one S2 holds (when no MAC does) sit on S3 */
	s3 = f > 1 - q ? f - (1 - q) : 0;
	if (mem <= 2 && a <= 1 + (1 - s3))
		return true;				/* F3 */
	return mem <= 1 && a <= 2 + (1 - s3);		/* F11 */
}

/**
 * ksim_pool_vec_sched() - the cycles a retired vector instruction costs
 * @vec: the core's coprocessor (its scoreboard and open bundle)
 * @o: the instruction
 * @cur: the cycle it would issue at if nothing held it: the cycle after
 *       the previous instruction's issue and stalls
 *
 * Return: 0 when it joins the bundle issued at @cur - 1, else 1 + the
 * cycles it waits for its operands (and, for a vector to scalar move, the
 * rest of the gap).  The scoreboard learns its results' cycles.
 */
unsigned int ksim_pool_vec_sched(struct ksim_pool_vec *vec,
				 const struct ksim_pool_op *o, u64 cur)
{
	struct ksim_pool_vsched *s = &vec->sched;
	unsigned int op = KSIM_PV_OP(o->imm);
	unsigned int cls = ksim_pool_vec_class[op];
	unsigned int stage = ksim_pool_vec_stage(o), i, cost;
	struct ksim_pv_opnds d;
	/* the open bundle: issued at cur - 1, nothing between */
	bool join = s->open && s->end == cur;
	u64 at = join ? cur - 1 : cur;	/* the earliest cycle it may issue */

	ksim_pool_vec_opnds(o, &d);
	for (i = 0; i < d.nr; i++) {
		u64 w = s->wr[d.r[i]];
		unsigned int rs = ksim_pool_vec_rstage(op, d.r[i]);

		/* written at w, read at rs: and never in the producer's cycle */
		if (w > at + rs)
			at = w - rs;
		if (s->iss[d.r[i]] >= at)
			at = s->iss[d.r[i]] + 1;
	}
	for (i = 0; i < d.nw; i++) {
		u64 w = s->wr[d.w[i]];
		unsigned int ws = stage;

		/*
		 * an FP op's flags OR into FSR (§3.2 SHARED_OR): no order
		 * among them; only vwfsr replaces it
		 */
		if (d.w[i] == KSIM_PV_SB_FSR && op != KSIM_PV_WFSR)
			continue;
		/* land after the write before it (WAW) */
		if (w >= at + ws)
			at = w - ws + 1;
		if (s->iss[d.w[i]] >= at)
			at = s->iss[d.w[i]] + 1;
	}
	/* it joins the bundle if its operands are ready and it fits */
	if (join && at == cur - 1) {
		s->n[cls]++;
		join = ksim_pool_vec_fits(s->n);
		s->n[cls]--;
	} else {
		join = false;
	}
	if (!join && at < cur)
		at = cur;
	if (!join) {
		memset(s->n, 0, sizeof(s->n));
		s->open = true;
	}
	s->n[cls]++;
	for (i = 0; i < d.nw; i++) {
		if (d.w[i] == KSIM_PV_SB_FSR && op != KSIM_PV_WFSR) {
			/* the flags accumulate at 14 */
			if (s->wr[d.w[i]] < at + KH_PV_STAGE_FSR)
				s->wr[d.w[i]] = at + KH_PV_STAGE_FSR;
			continue;
		}
		s->wr[d.w[i]] = at + stage;
		s->iss[d.w[i]] = at;
	}
	if (join) {
		cost = 0;
	} else {
		cost = 1 + (unsigned int)(at - cur);
		s->end = at + 1;
	}
	if (cls == KSIM_PV_C_V2S) {
		/* the scalar pipe waits for the result: the bundle is over */
		cost += KH_PV_V2S_GAP - 1;
		s->open = false;
	}
	return cost;
}
