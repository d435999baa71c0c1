/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The POOL core's memory map (docs/spec/pool.md), preprocessed with
 * fw_consts.h: code and constants in the shared IRAM, data, .bss and the
 * stack in DataRAM, which every core has its own of at the same address.
 * Core 0's DataRAM words 0..2 are the boot mailbox: DataRAM use starts 32
 * bytes in, on every core alike.  Past .bss, up to the stack, lie
 * HIST256's bins and the chunk slots (fw_slot()), neither loaded nor
 * cleared, so that booting clears only the small .bss.
 */
#include "fw_consts.h"

OUTPUT_ARCH(riscv)
ENTRY(_start)

MEMORY
{
	IRAM (rx) : ORIGIN = FW_C_IRAM_BASE, LENGTH = FW_C_IRAM_SIZE
	DRAM (rw) : ORIGIN = FW_C_DRAM_BASE + FW_C_MBOX_BYTES,
		    LENGTH = FW_C_DRAM_SIZE - FW_C_MBOX_BYTES
}

PHDRS
{
	text PT_LOAD FLAGS(5);	/* R X */
	data PT_LOAD FLAGS(6);	/* R W */
}

SECTIONS
{
	.text : {
		KEEP(*(.text.entry))
		*(.text .text.*)
	} > IRAM : text
	.rodata : ALIGN(4) {
		*(.rodata .rodata.* .srodata .srodata.*)
		. = ALIGN(32);
	} > IRAM : text

	.data : ALIGN(32) {
		__data_start = .;
		*(.sdata .sdata.* .data .data.*)
		. = ALIGN(32);
		__data_end = .;
	} > DRAM : data
	.bss (NOLOAD) : ALIGN(32) {
		__bss_start = .;
		KEEP(*(.bss.fw_prof))
		*(.sbss .sbss.* .bss .bss.* COMMON)
		. = ALIGN(32);
		__bss_end = .;
	} > DRAM : data
	__global_pointer$ = __data_start + 0x800;
	/*
	 * bench/kh_bench_kernels.c reads the profile there (fw.h struct
	 * fw_prof): .bss's first bytes, 64-aligned by its objects
	 */
	ASSERT((DEFINED(fw_prof) ? fw_prof : FW_C_DRAM_BASE + 64) ==
	       FW_C_DRAM_BASE + 64,
	       "fw_prof: not at DataRAM + 64")

	/*
	 * The vector kernels' buffers (FW_NOINIT): each kernel writes them
	 * before it reads them, so booting does not clear them (the image
	 * zeroes them once, at load)
	 */
	.noinit (NOLOAD) : ALIGN(64) {
		*(.noinit .noinit.*)
		. = ALIGN(64);
	} > DRAM : data

	/* not loaded, not cleared: HIST256's bins (the kernel clears them) */
	fw_hist = ALIGN(., 64);
	__slots_start = fw_hist + FW_C_HIST_BYTES;
	__slots_end = FW_C_DRAM_BASE + FW_C_DRAM_SIZE - FW_C_STACK_SIZE;
	ASSERT(__slots_end >= __slots_start + FW_C_MIN_SLOTS * FW_C_SLOT,
	       "DataRAM: too little room for the chunk slots")

	/DISCARD/ : {
		*(.eh_frame .eh_frame_hdr .comment .note .note.*)
	}
}
