/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A test firmware whose every core traps at its first instruction (an
 * illegal one: all zeros), so READY never comes and TRAP holds core 0..7's
 * first trap with cause 2 (illegal instruction) at the entry.
 */
	.section .text.entry, "ax"
	.globl	_start
_start:
	.word	0
	j	_start
