/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The boot spine's first steps (firmware/README.md), after seed 002 §1.4
 * and §1.6: all eight cores start here (RESET_PC = the image's entry),
 * each finds its id in PRID, takes the top of its own DataRAM as its
 * stack, clears its own .bss, and jumps to its entry in the per-core
 * reset table.  Numbers come from kh_pool.h through fw_consts.h.
 */
#include "fw_consts.h"

	.section .text.entry, "ax"
	.globl	_start
_start:
	csrr	a0, FW_C_CSR_PRID
	andi	a0, a0, FW_C_PRID_CORE
	.option	push
	.option	norelax
	la	gp, __global_pointer$
	.option	pop
	li	sp, FW_C_DRAM_BASE + FW_C_DRAM_SIZE

	/* this core's .bss (32-byte aligned by pool.ld) */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	sw	zero, 4(t0)
	sw	zero, 8(t0)
	sw	zero, 12(t0)
	sw	zero, 16(t0)
	sw	zero, 20(t0)
	sw	zero, 24(t0)
	sw	zero, 28(t0)
	addi	t0, t0, 32
	j	1b
2:
	/* the per-core reset table, by PRID[3:0]: a0 = the core id */
	la	t0, fw_reset_table
	slli	t1, a0, 2
	add	t0, t0, t1
	lw	t0, 0(t0)
	jr	t0

	/* a core id the cluster does not have: stop loudly */
fw_reset_bad:
	ebreak
	j	fw_reset_bad

	.balign	4
fw_reset_table:
	.word	fw_boot_core0
	.rept	7
	.word	fw_boot_core
	.endr
	.rept	8
	.word	fw_reset_bad
	.endr
