// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The numbers start.S and pool.ld.S need, taken from kh_pool.h by the
 * compiler (the kernel's asm-offsets trick): compiled to assembly only,
 * its "->NAME value" lines become $(BUILD)/firmware/gen/fw_consts.h.
 * The uapi macros carry C suffixes (0x80000u) that neither the assembler
 * nor the linker reads, and their headers hold C declarations.
 */
#include "fw.h"

#define FW_DEFINE(sym, val) \
	asm volatile("\n.ascii \"->" #sym " %0\"" : : "i"(val))

void fw_consts(void);

void fw_consts(void)
{
	FW_DEFINE(FW_C_IRAM_BASE, KH_POOL_IRAM_BASE);
	FW_DEFINE(FW_C_IRAM_SIZE, KH_POOL_IRAM_SIZE);
	FW_DEFINE(FW_C_DRAM_BASE, KH_POOL_DRAM_BASE);
	FW_DEFINE(FW_C_DRAM_SIZE, KH_POOL_DRAM_SIZE);
	FW_DEFINE(FW_C_CSR_PRID, KH_POOL_CSR_PRID);
	FW_DEFINE(FW_C_PRID_CORE, KH_POOL_PRID(~0u) & 0xffff);
	/* the boot mailbox's reserved 32 bytes (firmware-image.md check 8) */
	FW_DEFINE(FW_C_MBOX_BYTES, KH_FW_ALIGN);
	FW_DEFINE(FW_C_STACK_SIZE, FW_STACK_SIZE);
	FW_DEFINE(FW_C_SLOT, FW_SLOT);
	FW_DEFINE(FW_C_MIN_SLOTS, FW_MIN_SLOTS);
	FW_DEFINE(FW_C_HIST_BYTES, FW_HIST_BINS * 4);
}
