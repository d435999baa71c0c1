/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Build parameters of one simulated mesh, in one struct so that a profile
 * (the RTL defaults, a shipped top) is one initialiser.  The card
 * description's `profile` and `param` directives set them card-wide or per
 * mesh (docs/spec/card-description.md).
 */
#ifndef KSIM_PARAMS_H
#define KSIM_PARAMS_H

#include "ksim_plat.h"

struct ksim_params {
	/* noc_cu_base */
	u32 inst_depth;		/* instruction FIFO, CU_CAPS inst_depth */
	u32 recv_depth;		/* receive FIFO */
	u32 cu_version;		/* mesh-wide build number, or KSIM_CU_VERSION_MODULE */
	/* NoCRouter */
	u32 router_fifo;	/* input FIFO depth per port */
	/* noc_orchestrator */
	u32 tx_depth;
	u32 rx_depth;
	u32 stage_flits;
	/* mag_mem_port */
	u32 wr_slots;
	u32 q_depth;
	u32 q_margin;
	u32 mem_rd_latency;	/* cycles from AR to the first R beat */
	u32 mem_wr_latency;	/* cycles from the last W beat to BVALID */
	/*
	 * The DDR4 data bus's refresh (docs/model.md "DRAM"): every
	 * dram_refi cycles it carries nothing for dram_rfc; 0: never
	 */
	u32 dram_refi;
	u32 dram_rfc;
	/* DRAM populated per mesh */
	u64 dram_bytes;
	/* MAG ports the description asserts; 0: whatever the map has */
	u32 mem_ports;
	/* the interrupt addon (docs/spec/irq-addon.md) */
	u32 irq;
	/* endpoint L2 staging adapters (docs/spec/l2-adapter.md) */
	u32 l2_depth;		/* SRAM lines of 32 bytes, a power of two */
	u32 l2_bits;		/* window bits L2_BITS; 0: 5 + log2(l2_depth) */
	/* MAG: the L2 staging aperture and the interlink (docs/model.md) */
	u32 mag_l2_kib;		/* aperture 0 staging RAM in KiB; 0: absent */
	u32 ilink;		/* ILINK: this mesh has an interlink */
	u32 il_hop_latency;	/* cycles per interlink hop, each way */
	/* the SX unit's declared variant: a binary32 FMA datapath */
	u32 sx_fma;
};

/* cu_version: each unit reports its own module's default (the RTL's) */
#define KSIM_CU_VERSION_MODULE	0x100

/* The RTL defaults (kohakutpu.md section 9): `profile rtl`. */
void ksim_params_rtl(struct ksim_params *p);
/* KohakuTPU's shipped tops (section 9): `profile ship`, the default. */
void ksim_params_ship(struct ksim_params *p);
/* L2_BITS as the adapters report it. */
u32 ksim_params_l2_bits(const struct ksim_params *p);

#endif /* KSIM_PARAMS_H */
