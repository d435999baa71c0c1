// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR0 decode (kh_regs.h): per mesh N, the DDR controller window (reads
 * 0), the mesh control window (the orchestrator, low 16 bits decoded), the
 * clock wizard (32-bit registers, STATUS reads locked).  Absent meshes
 * read 0 and ignore writes.  Every access first runs the card forward by
 * its cost; a write lands in the last cycle of its cost.
 */
#include "sim_card.h"
#include "sim_mag.h"

enum kh_bar_target {
	KH_BAR_NONE,
	KH_BAR_ORCH,
	KH_BAR_CLKWIZ,
};

static unsigned int kh_bar_decode(struct kh_sim_card *c, u32 off,
				  struct kh_mesh **m, unsigned int *n,
				  u32 *rel)
{
	if (off >= KH_MESH_BASE(0) && off < KH_MESH_BASE(KH_MAX_MESHES)) {
		*n = (off - KH_MESH_BASE(0)) / KH_MESH_SIZE;
		*rel = off & (KH_MESH_SIZE - 1);
		*m = kh_sim_card_mesh(c, *n);
		return *m ? KH_BAR_ORCH : KH_BAR_NONE;
	}
	if (off >= KH_CLKWIZ_BASE(0) && off < KH_CLKWIZ_BASE(KH_MAX_MESHES)) {
		*n = (off - KH_CLKWIZ_BASE(0)) / KH_CLKWIZ_SIZE;
		*rel = off & (KH_CLKWIZ_SIZE - 1);
		*m = kh_sim_card_mesh(c, *n);
		return *m ? KH_BAR_CLKWIZ : KH_BAR_NONE;
	}
	/* DDR controller windows and unmapped space read 0 */
	return KH_BAR_NONE;
}

static u32 kh_clkwiz_reg(const struct kh_sim_card *c, unsigned int n, u32 rel)
{
	if (rel == KH_CLK_STATUS)
		return KH_CLK_LOCKED;	/* always locked: no retune modelled */
	if (rel / 4 >= KH_CLKWIZ_REGS)
		return 0;
	return c->clkwiz[n][rel / 4];
}

u64 kh_sim_read64(struct kh_sim_card *card, u32 offset)
{
	struct kh_mesh *m = NULL;
	unsigned int n = 0;
	u32 rel = 0;

	kh_sim_run(card, card->timing.read_cycles);
	if (offset & 7 || offset >= KH_BAR0_SIZE)
		return ~0ULL;
	switch (kh_bar_decode(card, offset, &m, &n, &rel)) {
	case KH_BAR_ORCH:
		return kh_orch_read(&m->mag->orch, rel);
	case KH_BAR_CLKWIZ:
		/* a 64-bit read of two 32-bit registers, low address low */
		return kh_clkwiz_reg(card, n, rel) |
		       ((u64)kh_clkwiz_reg(card, n, rel + 4) << 32);
	default:
		return 0;
	}
}

void kh_sim_write64(struct kh_sim_card *card, u32 offset, u64 value)
{
	struct kh_mesh *m = NULL;
	unsigned int n = 0, i;
	u32 rel = 0;
	u32 cost = card->timing.write_cycles;

	kh_sim_run(card, cost ? cost - 1 : 0);
	if (!(offset & 7) && offset < KH_BAR0_SIZE) {
		switch (kh_bar_decode(card, offset, &m, &n, &rel)) {
		case KH_BAR_ORCH:
			kh_orch_host_write(&m->mag->orch, rel, value);
			break;
		case KH_BAR_CLKWIZ:
			for (i = 0; i < 2; i++, rel += 4, value >>= 32)
				if (rel / 4 < KH_CLKWIZ_REGS &&
				    rel != KH_CLK_STATUS)
					card->clkwiz[n][rel / 4] = (u32)value;
			break;
		default:
			break;
		}
	}
	kh_sim_run(card, 1);
}
