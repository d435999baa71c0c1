// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR0 decode (kh_regs.h), per mesh N: the DDR controller window (a
 * MIG-style control/ECC register set), the mesh control window (the
 * orchestrator, low 16 bits decoded) and the clock wizard (PG065; its
 * lock drives the mesh's reset).  The DDR controller and wizard windows
 * are 32-bit registers: a 64-bit access at an 8-aligned offset reaches
 * {reg[off + 4], reg[off]}, low address in the low half, and a write
 * writes both, the low one first.  Absent meshes read 0 and ignore
 * writes.  Writes to a mesh control window are lost while that mesh is in
 * reset or recovering from it.  Every access first runs the card forward
 * by its cost; a write lands in the last cycle of its cost.
 */
#include "sim_card.h"
#include "sim_mag.h"

enum ksim_bar_target {
	KSIM_BAR_NONE,
	KSIM_BAR_DDRC,
	KSIM_BAR_ORCH,
	KSIM_BAR_CLKWIZ,
};

static unsigned int ksim_bar_decode(struct ksim_card *c, u32 off,
				  struct ksim_mesh **m, unsigned int *n,
				  u32 *rel)
{
	unsigned int t = KSIM_BAR_NONE;

	if (off < KH_DDRC_BASE(KH_MAX_MESHES)) {
		*n = off / KH_DDRC_SIZE;
		*rel = off & (KH_DDRC_SIZE - 1);
		t = KSIM_BAR_DDRC;
	} else if (off >= KH_MESH_BASE(0) &&
		   off < KH_MESH_BASE(KH_MAX_MESHES)) {
		*n = (off - KH_MESH_BASE(0)) / KH_MESH_SIZE;
		*rel = off & (KH_MESH_SIZE - 1);
		t = KSIM_BAR_ORCH;
	} else if (off >= KH_CLKWIZ_BASE(0) &&
		   off < KH_CLKWIZ_BASE(KH_MAX_MESHES)) {
		*n = (off - KH_CLKWIZ_BASE(0)) / KH_CLKWIZ_SIZE;
		*rel = off & (KH_CLKWIZ_SIZE - 1);
		t = KSIM_BAR_CLKWIZ;
	}
	if (t == KSIM_BAR_NONE)
		return t;	/* unmapped space reads 0 */
	*m = ksim_card_mesh(c, *n);
	return *m ? t : KSIM_BAR_NONE;
}

static u32 ksim_bar_reg32(struct ksim_card *c, unsigned int t,
			unsigned int n, u32 rel)
{
	if (t == KSIM_BAR_DDRC)
		return ksim_ddrc_read(&c->ddrc[n], rel);
	return ksim_clkwiz_read(c, n, rel);
}

u64 ksim_read64(struct ksim_card *card, u32 offset)
{
	struct ksim_mesh *m = NULL;
	unsigned int n = 0, t;
	u32 rel = 0;

	card->host_reads++;
	ksim_run(card, card->timing.read_cycles);
	if (offset & 7 || offset >= KH_BAR0_SIZE)
		return ~0ULL;
	t = ksim_bar_decode(card, offset, &m, &n, &rel);
	switch (t) {
	case KSIM_BAR_ORCH:
		return ksim_orch_read(&m->mag->orch, rel);
	case KSIM_BAR_DDRC:
	case KSIM_BAR_CLKWIZ:
		/* a 64-bit read of two 32-bit registers, low address low */
		return ksim_bar_reg32(card, t, n, rel) |
		       ((u64)ksim_bar_reg32(card, t, n, rel + 4) << 32);
	default:
		return 0;
	}
}

void ksim_write64(struct ksim_card *card, u32 offset, u64 value)
{
	struct ksim_mesh *m = NULL;
	unsigned int n = 0, i;
	u32 rel = 0;
	u32 cost = card->timing.write_cycles;

	card->host_writes++;
	ksim_run(card, cost ? cost - 1 : 0);
	if (!(offset & 7) && offset < KH_BAR0_SIZE) {
		switch (ksim_bar_decode(card, offset, &m, &n, &rel)) {
		case KSIM_BAR_ORCH:
			if (ksim_mesh_recovering(m)) {
				/* the orchestrator is in reset: the write is lost */
				m->rst.host_dropped++;
				ksim_mesh_log(m, "host write 0x%x lost: the mesh is in reset",
					    rel);
				break;
			}
			ksim_orch_host_write(&m->mag->orch, rel, value);
			break;
		case KSIM_BAR_CLKWIZ:
			for (i = 0; i < 2; i++, rel += 4, value >>= 32)
				ksim_clkwiz_write(card, n, rel, (u32)value);
			break;
		case KSIM_BAR_DDRC:
			for (i = 0; i < 2; i++, rel += 4, value >>= 32)
				ksim_ddrc_write(&card->ddrc[n], rel, (u32)value);
			break;
		default:
			break;
		}
	}
	ksim_run(card, 1);
}
