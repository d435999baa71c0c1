// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * FILL's one streaming MEM_RD_REQ, and L1 placement.
 *
 * The descriptor (mx_cluster_cu.v rd_req, L519-534): to the MAG port,
 * txn = eoff, last = 1, addr, len 3, flags STREAM | (BLAYOUT = sel) |
 * (QUANT = !preq), count = n[7:0], the peers and npeer; only the lowest
 * node of the sharing set sends it (L498-501, L826-837), the others wait
 * for the multicast responses.
 *
 * Placement (L699-763): a word carries K-slice `word` of its entry: A
 * packs 4 rows x 8 K, B 8 K x 4 columns, MSB first; the scale bytes of
 * word 0 (bits [31:0], lane 0 at [31:24]) are taken; on word 3 the whole
 * assembly register is committed to the entry the flit named.  The
 * register is shared, so an entry whose words 0-2 never came commits
 * whatever the register held.
 */
#include "mat.h"

bool ksim_mat_fill_send(struct ksim_unit *u, struct ksim_mat *m)
{
	const struct ksim_mat_inst *in = &m->in;
	unsigned int me = KH_YX(ksim_unit_x(u), ksim_unit_y(u)), i;
	bool lead = true;
	struct kh_flit f;

	for (i = 0; i < in->npeer; i++)
		if (!(me < ((in->peers >> (8 * i)) & 0xff)))
			lead = false;
	if (!lead)
		return true;		/* a follower issues nothing */
	memset(&f, 0, sizeof(f));
	ksim_unit_hdr(u, &f, m->mx, m->my, KH_T_MEM_RD_REQ, in->eoff, 1);
	kh_flit_set(&f, KH_MEM_ADDR, in->addr);
	kh_flit_set(&f, KH_MEM_LEN, 3);
	kh_flit_set(&f, KH_MEM_FLAGS, KH_MEMF_STREAM |
		    (in->sel ? KH_MEMF_BLAYOUT : 0) |
		    (in->preq ? 0 : KH_MEMF_QUANT));
	kh_flit_set(&f, KH_MEM_COUNT, in->n & 0xff);
	kh_flit_set(&f, KH_MEM_PEER, in->peers);
	kh_flit_set(&f, KH_MEM_NPEER, in->npeer);
	return ksim_unit_send(u, &f);
}

static int ksim_mat_bits7(const struct kh_flit *f, unsigned int hi)
{
	unsigned int v = (unsigned int)kh_flit_bits(f, hi, hi - 6);

	return v & 0x40 ? (int)v - 128 : (int)v;
}

void ksim_mat_place(struct ksim_mat *m, const struct kh_flit *f, bool sel,
		    unsigned int ent, unsigned int word)
{
	struct ksim_mat_ent *e = &m->asm_e;
	unsigned int o, l;

	for (o = 0; o < KH_MX_WORD_ELEMS; o++) {
		unsigned int lane = sel ? KH_MX_B_LANE(o) : KH_MX_A_LANE(o);
		unsigned int kk = sel ? KH_MX_B_KK(o) : KH_MX_A_KK(o);

		e->q[lane * KH_MAT_KBLOCK + word * KH_MX_SLICE + kk] =
			(s8)ksim_mat_bits7(f, 255 - 7 * o);
	}
	if (word == 0)
		for (l = 0; l < KH_MAT_SUB; l++)
			e->s[l] = (u8)kh_flit_bits(f, 31 - 8 * l, 24 - 8 * l);
	if (word == 3)
		m->l1[sel][ent % KH_MAT_GA] = *e;
}
