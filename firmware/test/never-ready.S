/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A test firmware that boots and never writes READY: every core sleeps
 * in WFI for ever.  The driver must time out waiting for BOOT.
 */
	.section .text.entry, "ax"
	.globl	_start
_start:
	wfi
	j	_start
