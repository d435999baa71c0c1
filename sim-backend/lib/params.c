// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Parameter profiles (kohakutpu.md section 9).  `rtl` is the RTL's
 * defaults, the v0 model, with the RTL benches' memory (axi_ram: the first
 * R beat the cycle after AR, BVALID the cycle after the last W); `ship` is
 * KohakuTPU's shipped tops, where they differ: block-RAM instruction,
 * receive and router FIFOs of 512, and the card's DDR4 (docs/model.md
 * "DRAM": its latencies inferred, not measured).  The orchestrator (TX/RX
 * 16, STAGE_FLITS 128) and the memory port (WR_SLOTS 16, Q_DEPTH 64,
 * Q_MARGIN 4) are the same in both.
 */
#include "params.h"
#include <kohaku/kh_flit.h>
#include <kohaku/kh_regs.h>

void ksim_params_rtl(struct ksim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->inst_depth = 32;
	p->recv_depth = 16;
	/* each module's own CU_VERSION default: saxpy_cu 1, the rest 4 */
	p->cu_version = KSIM_CU_VERSION_MODULE;
	p->router_fifo = 32;
	p->tx_depth = KH_ORC_TX_DEPTH;
	p->rx_depth = KH_ORC_RX_DEPTH;
	p->stage_flits = KH_ORC_STAGE_FLITS;
	p->wr_slots = 16;
	p->q_depth = 64;
	p->q_margin = 4;
	p->mem_rd_latency = 1;
	p->mem_wr_latency = 1;
	p->dram_bytes = KH_MESH_DRAM_SIZE;
	p->l2_depth = KH_L2_SHIP_DEPTH;
	p->il_hop_latency = 20;
}

void ksim_params_ship(struct ksim_params *p)
{
	ksim_params_rtl(p);
	p->inst_depth = 512;
	p->recv_depth = 512;
	p->router_fifo = 512;
	p->cu_version = 4;	/* HEAD's build number, every unit */
	p->mag_l2_kib = 2048;	/* 4 banks x 16384 x 256 bits */
	/*
	 * DDR4-2400 x64 behind the MIG at 4:1 (ui_clk 300 MHz, one 512-bit
	 * beat a cycle): 100 ns to the first read beat, 67 ns from the last
	 * write beat to BVALID (inferred); refresh every tREFI 7.8 us for
	 * tRFC 350 ns (8 Gb devices, JEDEC DDR4)
	 */
	p->mem_rd_latency = 30;
	p->mem_wr_latency = 20;
	p->dram_refi = 2340;
	p->dram_rfc = 105;
	p->ilink = 1;
}

u32 ksim_params_l2_bits(const struct ksim_params *p)
{
	u32 b = 5, d = p->l2_depth;

	if (p->l2_bits)
		return p->l2_bits;
	while (d > 1) {
		d >>= 1;
		b++;
	}
	return b;
}
