// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Parameter profiles. */
#include "sim_params.h"
#include <kohaku/kh_regs.h>

void kh_sim_params_rtl(struct kh_sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->inst_depth = 32;
	p->recv_depth = 16;
	p->cu_version = 4;
	p->router_fifo = 32;
	p->tx_depth = KH_ORC_TX_DEPTH;
	p->rx_depth = KH_ORC_RX_DEPTH;
	p->stage_flits = KH_ORC_STAGE_FLITS;
	p->wr_slots = 16;
	p->q_depth = 64;
	p->q_margin = 4;
	p->mem_rd_latency = 30;
	p->mem_wr_latency = 20;
	p->dram_bytes = KH_MESH_DRAM_SIZE;
}
