// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR0 decode (kh_regs.h), and the 32-bit access to BAR0 and BAR1 (the
 * XDMA register space, xdma/regs.c).  BAR0, per mesh N: the DDR
 * controller window (a MIG-style control/ECC register set), the mesh
 * control window (the
 * orchestrator, low 16 bits decoded) and the clock wizard (PG065; its
 * lock drives the mesh's reset).  The DDR controller and wizard windows
 * are 32-bit registers: a 64-bit access at an 8-aligned offset reaches
 * {reg[off + 4], reg[off]}, low address in the low half, and a write
 * writes both, the low one first.  Absent meshes read 0 and ignore
 * writes.  Writes to a mesh control window are lost while that mesh is in
 * reset or recovering from it.  Every access first runs the card forward
 * by its cost; a write lands in the last cycle of its cost.
 *
 * The register files behind the windows are tables (lib/regs.h); the
 * window decode is not one.  A window is an address range routed to a
 * mesh's register file (QEMU's MemoryRegion and its subregions, not a
 * RegisterAccessInfo): it has no value, masks or reset, and what happens
 * between the host and a file (the 32-in-64 convention, the beats a
 * 32-bit access becomes, the writes lost in reset, ~0 for an unaligned or
 * out-of-BAR access) is the bus's, so it stays here as code.  Host
 * accesses go to the trace when it asks for them (class reg, opt-in),
 * named from the tables.
 *
 * The 32-bit path to a mesh control window (the card's only one: the
 * XDMA's AXI-Lite master, a 32-bit station port, a 32->64
 * axi_dwidth_converter; kohakutpu.md 8.2, 8.3) reaches the orchestrator's
 * 64-bit slave as one beat: the address as the host gave it (the
 * converter passes a single narrow beat through unaligned and unpacked,
 * axi_dwidth_converter_v2_1 a_upsizer: cmd_modified needs AxLEN != 0),
 * byte enables on the addressed half, and the 32 bits on BOTH halves of
 * the bus word: the converter's expander drives its SI word onto every
 * lane ("WDATA is expanded to all SI-word lane on the MI-side", w_upsizer),
 * as the station bus is seen to replicate narrow writes across a wide
 * word (kohakutpu.md 5.8).  [INFERRED from the IP's source; unverified on
 * silicon.]  The orchestrator's table decides what the beat does
 * (mesh/orch.c); a read beat returns the addressed half of what it
 * decodes to.
 */
#include "card.h"
#include "mag.h"
#include "obs.h"
#include "xdma.h"

enum ksim_bar_target {
	KSIM_BAR_NONE,
	KSIM_BAR_DDRC,
	KSIM_BAR_ORCH,
	KSIM_BAR_CLKWIZ,
};

/* The window of a BAR0 offset, its mesh and the offset in it. */
static unsigned int ksim_bar_window(u32 off, unsigned int *n, u32 *rel)
{
	if (off < KH_DDRC_BASE(KH_MAX_MESHES)) {
		*n = off / KH_DDRC_SIZE;
		*rel = off & (KH_DDRC_SIZE - 1);
		return KSIM_BAR_DDRC;
	}
	if (off >= KH_MESH_BASE(0) && off < KH_MESH_BASE(KH_MAX_MESHES)) {
		*n = (off - KH_MESH_BASE(0)) / KH_MESH_SIZE;
		*rel = off & (KH_MESH_SIZE - 1);
		return KSIM_BAR_ORCH;
	}
	if (off >= KH_CLKWIZ_BASE(0) && off < KH_CLKWIZ_BASE(KH_MAX_MESHES)) {
		*n = (off - KH_CLKWIZ_BASE(0)) / KH_CLKWIZ_SIZE;
		*rel = off & (KH_CLKWIZ_SIZE - 1);
		return KSIM_BAR_CLKWIZ;
	}
	return KSIM_BAR_NONE;	/* unmapped space reads 0 */
}

static unsigned int ksim_bar_decode(struct ksim_card *c, u32 off,
				  struct ksim_mesh **m, unsigned int *n,
				  u32 *rel)
{
	unsigned int t = ksim_bar_window(off, n, rel);

	if (t == KSIM_BAR_NONE)
		return t;
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

/*
 * The orchestrator latches one host write and takes it at its next tick,
 * on the MAG's clock.  At the built clock that is the next cycle, before
 * any host access can follow; at a slower one the bus waits (the AXI-Lite
 * slave's backpressure across its clock crossing) until the latch is
 * free, rather than the write overtaking the one before it; a read waits
too, as a read never passes a posted write on PCIe.  Bounded: the
 * slowest clock has an edge within KSIM_BAR_CDC_WAIT cycles.
 */
#define KSIM_BAR_CDC_WAIT	256

static void ksim_bar_orch_wait(struct ksim_card *card, struct ksim_mesh *m)
{
	unsigned int i;

	for (i = 0; m->mag->orch.wr_pending && i < KSIM_BAR_CDC_WAIT; i++)
		ksim_run(card, 1);
}

/* A BAR0 read at an 8-aligned offset inside the BAR, time already run. */
static u64 ksim_bar0_read(struct ksim_card *card, u32 offset)
{
	struct ksim_mesh *m = NULL;
	unsigned int n = 0, t;
	u32 rel = 0;

	t = ksim_bar_decode(card, offset, &m, &n, &rel);
	switch (t) {
	case KSIM_BAR_ORCH:
		ksim_bar_orch_wait(card, m);
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

/* A 32-bit access as a beat on the orchestrator's 64-bit bus (above). */
#define KSIM_BAR_BEAT(v)	((u64)(v) << 32 | (u32)(v))
#define KSIM_BAR_STRB(rel)	((rel) & 4 ? 0xf0u : 0x0fu)

/*
 * A 32-bit BAR0 read at a 4-aligned offset inside the BAR, time already
 * run: a 32-bit register, or the addressed half of what a beat decodes to
 * in a mesh control window (0 at +4 of a named register, whose case does
 * not match the address: noc_orchestrator.v:491).
 */
static u32 ksim_bar0_read32(struct ksim_card *card, u32 offset)
{
	struct ksim_mesh *m = NULL;
	unsigned int n = 0, t;
	u32 rel = 0;

	t = ksim_bar_decode(card, offset, &m, &n, &rel);
	switch (t) {
	case KSIM_BAR_ORCH:
		ksim_bar_orch_wait(card, m);
		return (u32)(ksim_orch_read_beat(&m->mag->orch, rel) >>
			     (rel & 4 ? 32 : 0));
	case KSIM_BAR_DDRC:
	case KSIM_BAR_CLKWIZ:
		return ksim_bar_reg32(card, t, n, rel);
	default:
		return 0;
	}
}

/*
 * A BAR0 write at a 4-aligned offset inside the BAR: 64 bits (wide) or 32.
 * A 32-bit write to a mesh control window is a beat (above); the DDR
 * controller and wizard windows are 32-bit registers.
 */
static void ksim_bar0_write(struct ksim_card *card, u32 offset, u64 value,
			    bool wide)
{
	struct ksim_mesh *m = NULL;
	unsigned int n = 0, i;
	u32 rel = 0;

	switch (ksim_bar_decode(card, offset, &m, &n, &rel)) {
	case KSIM_BAR_ORCH:
		ksim_bar_orch_wait(card, m);
		if (ksim_mesh_recovering(m)) {
			/* the orchestrator is in reset: the write is lost */
			m->rst.host_dropped++;
			ksim_mesh_log(m, "host write 0x%x lost: the mesh is in reset",
				    rel);
			break;
		}
		if (wide)
			ksim_orch_host_write(&m->mag->orch, rel, value,
					     KSIM_REG_STRB_ALL);
		else
			ksim_orch_host_write(&m->mag->orch, rel,
					     KSIM_BAR_BEAT(value),
					     KSIM_BAR_STRB(rel));
		break;
	case KSIM_BAR_CLKWIZ:
		/*
		 * single 32-bit beats only: a 64-bit write is refused, as a
		 * read-merge-write would fault the MMCM (kohakutpu.md 8.5)
		 */
		if (wide)
			ksim_clkwiz_wide_write(card, n, rel);
		else
			ksim_clkwiz_write(card, n, rel, (u32)value);
		break;
	case KSIM_BAR_DDRC:
		for (i = 0; i < (wide ? 2 : 1); i++, rel += 4, value >>= 32)
			ksim_ddrc_write(&card->ddrc[n], rel, (u32)value);
		break;
	default:
		break;
	}
}

/* ---- the register-access trace (obs/trace.c, class reg) ---- */

/* the register at rel of table t, or rel in hex */
static void ksim_bar_reg1(const struct ksim_regs *t, u32 rel, char *b,
			  size_t n)
{
	if (ksim_reg_name(t, rel, b, n) < 0)
		snprintf(b, n, "0x%x", rel);
}

int ksim_bar_reg_name(unsigned int bar, u32 off, bool wide, char *b, size_t n)
{
	const struct ksim_regs *t;
	char lo[32], hi[32];
	unsigned int mesh, w;
	u32 rel = 0;

	if (bar == 1) {
		if (off & 3 || off >= KH_XDMA_BAR_SIZE)
			return snprintf(b, n, "none 0x%x", off);
		ksim_xdma_reg_name(off, lo, sizeof(lo));
		return snprintf(b, n, "xdma %s", lo);
	}
	w = ksim_bar_window(off, &mesh, &rel);
	if (off & (wide ? 7 : 3) || off >= KH_BAR0_SIZE || w == KSIM_BAR_NONE)
		return snprintf(b, n, "none 0x%x", off);
	if (w == KSIM_BAR_ORCH) {
		/* 64-bit registers: a 32-bit access is a half of one */
		ksim_bar_reg1(&ksim_orch_regs, rel & ~7u, lo, sizeof(lo));
		return snprintf(b, n, "orch %s%s", lo,
				wide ? "" : rel & 4 ? ".hi" : ".lo");
	}
	/* 32-bit registers: a 64-bit access reaches two */
	t = w == KSIM_BAR_DDRC ? &ksim_ddrc_regs : &ksim_clkwiz_regs;
	ksim_bar_reg1(t, rel, lo, sizeof(lo));
	if (!wide)
		return snprintf(b, n, "%s %s", t->name, lo);
	ksim_bar_reg1(t, rel + 4, hi, sizeof(hi));
	return snprintf(b, n, "%s %s+%s", t->name, lo, hi);
}

/* A host access to the observers, when one watches them (the trace, opt-in). */
static void ksim_bar_report(struct ksim_card *card, u32 off, u64 v,
			    unsigned int flags)
{
	unsigned int mesh = 0xff;
	u32 rel;

	if (!card->obs->regs_watched)
		return;
	if (!(flags & KSIM_TRR_BAR1))
		ksim_bar_window(off, &mesh, &rel);	/* none: mesh - */
	ksim_obs_host_reg(card->obs, mesh, off, v, flags);
}

u64 ksim_read64(struct ksim_card *card, u32 offset)
{
	u64 v = ~0ULL;

	card->host_reads++;
	ksim_run(card, card->timing.read_cycles);
	if (!(offset & 7) && offset < KH_BAR0_SIZE)
		v = ksim_bar0_read(card, offset);
	if (ksim_unlikely(card->obs))
		ksim_bar_report(card, offset, v, KSIM_TRR_WIDE);
	return v;
}

void ksim_write64(struct ksim_card *card, u32 offset, u64 value)
{
	u32 cost = card->timing.write_cycles;

	card->host_writes++;
	ksim_run(card, cost ? cost - 1 : 0);
	if (ksim_unlikely(card->obs))
		ksim_bar_report(card, offset, value,
			       KSIM_TRR_WRITE | KSIM_TRR_WIDE);
	if (!(offset & 7) && offset < KH_BAR0_SIZE)
		ksim_bar0_write(card, offset, value, true);
	ksim_run(card, 1);
}

u32 ksim_bar_size(unsigned int bar)
{
	if (bar == 0)
		return KH_BAR0_SIZE;
	return bar == 1 ? KH_XDMA_BAR_SIZE : 0;
}

u32 ksim_bar_read32(struct ksim_card *card, unsigned int bar, u32 offset)
{
	u32 v = ~0u;

	card->host_reads++;
	ksim_run(card, card->timing.read_cycles);
	if (!(offset & 3) && offset < ksim_bar_size(bar)) {
		if (bar == 1)
			v = ksim_xdma_read(card->xdma, offset);
		else
			v = ksim_bar0_read32(card, offset);
	}
	if (ksim_unlikely(card->obs) && bar <= 1)
		ksim_bar_report(card, offset, v, bar ? KSIM_TRR_BAR1 : 0);
	return v;
}

void ksim_bar_write32(struct ksim_card *card, unsigned int bar, u32 offset,
		      u32 value)
{
	u32 cost = card->timing.write_cycles;

	card->host_writes++;
	ksim_run(card, cost ? cost - 1 : 0);
	if (ksim_unlikely(card->obs) && bar <= 1)
		ksim_bar_report(card, offset, value, KSIM_TRR_WRITE |
			       (bar ? KSIM_TRR_BAR1 : 0));
	if (!(offset & 3) && offset < ksim_bar_size(bar)) {
		if (bar == 1)
			ksim_xdma_write(card->xdma, offset, value);
		else
			ksim_bar0_write(card, offset, value, false);
	}
	ksim_run(card, 1);
}
