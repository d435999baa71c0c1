// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The unit's bounds, version 2 (docs/spec/pool.md "Bounds: the regions the
 * driver programs (version 2)"): six regions of the unit's own mesh DRAM
 * that only the host writes (CU_CTRL addon 0xf0-0xf7), checked at every
 * window access (window.c) and every iDMA descriptor (idma.c), and the
 * record of what they refused (BOUNDS_FAULT).
 *
 * The check is combinational in the RTL (six comparators beside the
 * window's and the engine's address): an allowed access costs no cycle.
 * A refused one never leaves the unit, so it sends no MEM request (and
 * the checker's idle_mem rule sees nothing).  Refusing is not a trap:
 * the core runs on; what the refusal costs the job is the fault its
 * retirement carries (ksim_pool_job_fw_end()).
 *
 * The registers are the host's, not the cores': power-on and a mesh reset
 * clear them (they live in the part of struct ksim_pool that
 * ksim_pool_power_on() clears), a core reset does not touch them.
 */
#include "pool.h"

/* REGION(n): [47:0] first and count, [48] R, [49] W; the rest reads 0 */
#define KSIM_POOL_REGION_KEEP	((1ull << 50) - 1)
/* BOUNDS_EN: [5:0] the regions, [31] no bounds */
#define KSIM_POOL_BEN_KEEP	(KH_POOL_BOUNDS_ALL | ((1u << KH_POOL_REGIONS) - 1))
#define KSIM_POOL_BF_MAX	0xffffull

bool ksim_pool_bounds_idx(unsigned int idx)
{
	return idx >= KH_CTRL_IDX_POOL_REGION(0) &&
	       idx <= KH_CTRL_IDX_POOL_BOUNDS_FAULT;
}

/* The register as it stands; a read of BOUNDS_FAULT clears it (take). */
u64 ksim_pool_bounds_reg(struct ksim_pool *p, unsigned int idx, bool take)
{
	u64 v;

	if (idx == KH_CTRL_IDX_POOL_BOUNDS_EN)
		return p->bounds_en;
	if (idx == KH_CTRL_IDX_POOL_BOUNDS_FAULT) {
		v = p->bounds_fault;
		if (take)
			p->bounds_fault = 0;
		return v;
	}
	if (idx >= KH_CTRL_IDX_POOL_REGION(0) &&
	    idx < KH_CTRL_IDX_POOL_REGION(KH_POOL_REGIONS))
		return p->region[idx - KH_CTRL_IDX_POOL_REGION(0)];
	return 0;
}

/* A host write: REGION(n) and BOUNDS_EN masked; BOUNDS_FAULT ignores it. */
void ksim_pool_bounds_write(struct ksim_pool *p, unsigned int idx, u64 v)
{
	if (idx == KH_CTRL_IDX_POOL_BOUNDS_EN)
		p->bounds_en = (u32)(v & KSIM_POOL_BEN_KEEP);
	else if (idx >= KH_CTRL_IDX_POOL_REGION(0) &&
		 idx < KH_CTRL_IDX_POOL_REGION(KH_POOL_REGIONS))
		p->region[idx - KH_CTRL_IDX_POOL_REGION(0)] =
			v & KSIM_POOL_REGION_KEEP;
}

/*
 * May [addr, addr + len) be reached with the rights in need
 * (KH_POOL_REGION_R and/or _W)?  addr is a mesh address: one on another
 * mesh is outside every region, the regions being the unit's own mesh's
 * (pool.md "What is checked").  Every byte must lie in ONE enabled
 * region: two regions that touch do not make one (the driver merges
 * those it wants merged).  A region of 0 granules holds nothing.
 */
bool ksim_pool_bounds_ok(const struct ksim_pool *p, u64 addr, u64 len,
			 u64 need)
{
	u64 local = addr & KH_MADDR_LOCAL_MASK, first, end;
	unsigned int i;

	if (p->bounds_en & KH_POOL_BOUNDS_ALL)
		return true;	/* version 1's reach: the other checks only */
	if (((addr >> KH_MADDR_MESH_SHIFT) & KH_MADDR_MESH_MASK) != p->mesh)
		return false;
	for (i = 0; i < KH_POOL_REGIONS; i++) {
		u64 r = p->region[i];

		if (!((p->bounds_en >> i) & 1) || (r & need) != need)
			continue;
		/* 24-bit granules: the end fits u64 with room to spare */
		first = KH_POOL_REGION_FIRST(r) << KH_POOL_REGION_SHIFT;
		end = first + (KH_POOL_REGION_COUNT(r) << KH_POOL_REGION_SHIFT);
		if (local >= first && len <= end - first &&
		    local - first <= end - first - len)
			return true;
	}
	return false;
}

/*
 * A refused access: BOUNDS_FAULT keeps the first since the last read and
 * counts the rest (saturating); the job present, if any, will retire
 * UNIT_BOUNDS when the firmware retires it (pool.md "What a refused
 * access does").  addr: the window access's mesh-local byte address, or
 * the iDMA descriptor's dram; [39:0] kept.
 */
void ksim_pool_bounds_refuse(struct ksim_pool *p, unsigned int core,
			     bool write, bool idma, u64 addr)
{
	u64 f = p->bounds_fault;

	if (!(f & KH_POOL_BF_VALID)) {
		p->bounds_fault = KH_POOL_BF_VALID |
				  (write ? KH_POOL_BF_WRITE : 0) |
				  (idma ? KH_POOL_BF_IDMA : 0) |
				  (p->job ? 0 : KH_POOL_BF_IDLE) |
				  (u64)(core & 0xf) << 56 | 1ull << 40 |
				  (addr & ((1ull << 40) - 1));
	} else if (KH_POOL_BF_COUNT(f) < KSIM_POOL_BF_MAX) {
		p->bounds_fault = f + (1ull << 40);
	}
	if (p->job)
		p->bounds_job = true;
}
